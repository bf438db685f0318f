//! The lifting rules on small modules written as WebAssembly text: each
//! test names the rule it exercises and checks the `.ssa` text that comes
//! out; every lifted function also goes through [`check_function`] (text
//! round trip, three flavours, verification, optimisation, destruction).

mod support;

use ssakit::text::print_function;
use ssakit_wasm::check::check_function;
use support::{lift_all, lift_one, lift_wat, text};

/// Lifts function `index` of `wat`, checks it, and returns its text.
fn lifted(wat: &str, index: usize) -> String {
    let f = lift_one(wat, index);
    check_function(&f).unwrap_or_else(|e| panic!("{e}"));
    print_function(&f)
}

/// Compares `actual` with the golden file `tests/golden/NAME`
/// (`BLESS=1` rewrites it).
fn golden(name: &str, actual: &str) {
    let path = format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (BLESS=1 creates it)"));
    assert_eq!(actual, expected, "{path} differs (BLESS=1 re-blesses)");
}

const TOUR: &str = include_str!("../../../examples/wasm_tour.wat");

#[test]
fn the_tour_example_lifts_to_its_golden_text() {
    let functions = lift_wat(TOUR);
    for f in &functions {
        check_function(f).unwrap_or_else(|e| panic!("{}: {e}", f.name()));
    }
    golden("wasm_tour.ssa", &text(functions.clone()));
    let mut pruned = functions;
    for f in &mut pruned {
        ssakit::construct::construct(
            f,
            &ssakit::construct::Options {
                flavor: ssakit::construct::Flavor::Pruned,
                ..Default::default()
            },
        )
        .unwrap();
    }
    golden("wasm_tour.pruned.ssa", &text(pruned));
}

#[test]
fn declared_locals_start_at_zero_of_their_type() {
    let t = lifted(
        "(module (func (local i32 i64 f32 f64 v128 funcref externref)))",
        0,
    );
    for def in [
        "l0: i32 = 0",
        "l1 = 0",
        "l2: f32 = f32.const[0]()",
        "l3: f64 = f64.const[0]()",
        "l4: v128 = v128.const[0, 0]()",
        "l5: funcref = ref.null[112]()",
        "l6: externref = ref.null[111]()",
    ] {
        assert!(t.contains(def), "{def} in\n{t}");
    }
    assert!(!t.contains("undef"), "{t}");
}

#[test]
fn local_get_is_copied_only_when_the_local_is_written_under_it() {
    // The old value of l0 is still on the stack when l0 is written.
    let t = lifted(
        "(module (func (param i32) (result i32)
            local.get 0 i32.const 5 local.set 0 local.get 0 i32.add))",
        0,
    );
    assert!(
        t.contains("t1: i32 = l0\n    l0: i32 = 5\n    t2: i32 = i32.add(t1, l0)"),
        "{t}"
    );
    // Nothing written: no copy at all.
    let t = lifted(
        "(module (func (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))",
        0,
    );
    assert!(t.contains("t1: i32 = i32.add(l0, l1)\n    ret t1"), "{t}");
}

#[test]
fn a_lazy_local_is_copied_before_a_block_that_might_write_it() {
    let t = lifted(
        "(module (func (param i32) (result i32)
            local.get 0
            (block (br_if 0 (local.get 0)) (local.set 0 (i32.const 7)))
            local.get 0 i32.add))",
        0,
    );
    let entry = t.split("entry:").nth(1).unwrap();
    assert!(entry.trim_start().starts_with("t1: i32 = l0"), "{t}");
    assert!(t.contains("i32.add(t1, l0)"), "{t}");
}

#[test]
fn a_result_becomes_a_local_or_merge_variable_directly() {
    // `t = i32.add(..); l = t` is `l = i32.add(..)`.
    let t = lifted(
        "(module (func (param i32) (local i32)
            (local.set 1 (i32.add (local.get 0) (i32.const 1)))))",
        0,
    );
    assert!(t.contains("l1: i32 = i32.add(l0, 1)"), "{t}");
    assert!(!t.contains("t1"), "{t}");
}

#[test]
fn block_results_are_one_variable_assigned_on_every_incoming_path() {
    // A br_if carrying a value gets an edge block with the copy.
    let t = lifted(
        "(module (func (param i32) (result i32)
            (block (result i32)
              (br_if 0 (i32.const 20) (local.get 0))
              drop
              (i32.const 21))))",
        0,
    );
    assert!(t.contains("branch l0, edge1, cont3"), "{t}");
    assert!(t.contains("edge1:\n    r1: i32 = 20\n    jump end2"), "{t}");
    assert!(t.contains("cont3:\n    r1: i32 = 21\n    jump end2"), "{t}");
    assert!(t.contains("end2:\n    ret r1"), "{t}");
}

#[test]
fn a_block_reached_only_by_falling_through_needs_no_block() {
    let t = lifted(
        "(module (func (param i32) (result i32)
            (block (result i32) (i32.add (local.get 0) (i32.const 1)))))",
        0,
    );
    assert!(
        t.ends_with("entry:\n    t1: i32 = i32.add(l0, 1)\n    ret t1\n}\n"),
        "{t}"
    );
}

#[test]
fn loop_parameters_get_phis_at_the_header() {
    let wat = "(module (func (param i32) (result i32)
        i32.const 0
        loop (param i32) (result i32)
          i32.const 1
          i32.add
          local.get 0
          i32.const 1
          i32.sub
          local.tee 0
          br_if 0
        end))";
    let t = lifted(wat, 0);
    assert!(t.contains("p2: i32 = 0\n    jump loop1"), "{t}");
    assert!(t.contains("t1: i32 = i32.add(p2, 1)"), "{t}");
    assert!(
        t.contains("edge2:\n    p2: i32 = t1\n    jump loop1"),
        "{t}"
    );
    let f = lift_one(wat, 0);
    let mut g = f.clone();
    ssakit::construct::construct(
        &mut g,
        &ssakit::construct::Options {
            flavor: ssakit::construct::Flavor::Pruned,
            ..Default::default()
        },
    )
    .unwrap();
    let ssa = print_function(&g);
    // The loop parameter and the local both merge at the header.
    assert_eq!(ssa.matches("phi(").count(), 2, "{ssa}");
}

#[test]
fn an_if_without_else_passes_its_parameters_through() {
    let t = lifted(
        "(module (func (param i32 i32) (result i32)
            local.get 1
            local.get 0
            if (param i32) (result i32)
              i32.const 2
              i32.mul
            end))",
        0,
    );
    assert!(t.contains("branch l0, then1, else2"), "{t}");
    // The parameter was read lazily from l1: copied when the if began.
    assert!(
        t.contains("t1: i32 = l1\n    branch l0, then1, else2"),
        "{t}"
    );
    assert!(t.contains("else2:\n    r1: i32 = t1\n    jump end3"), "{t}");
}

#[test]
fn br_table_edges_carrying_values_get_one_edge_block_per_target() {
    let t = lifted(
        "(module (func (param i32) (result i32)
            (block (result i32)
              (block (result i32)
                (br_table 0 1 0 1 0 (i32.const 5) (local.get 0)))
              (i32.const 1) i32.add)))",
        0,
    );
    assert!(
        t.contains("switch l0, edge1, [edge1, edge3, edge1, edge3]"),
        "{t}"
    );
    assert_eq!(t.matches("edge1:").count(), 1, "{t}");
    assert_eq!(t.matches("edge3:").count(), 1, "{t}");
}

#[test]
fn code_after_an_unconditional_branch_is_dropped() {
    let t = lifted(
        "(module (func (param i32) (result i32)
            (block (result i32)
              (br 0 (i32.const 1))
              (block (loop (if (local.get 0) (then nop) (else unreachable))))
              (i32.const 2))))",
        0,
    );
    for dropped in ["loop", "then", "unreachable", "= 2"] {
        assert!(!t.contains(dropped), "{dropped} in\n{t}");
    }
    assert!(
        t.contains("r1: i32 = 1\n    jump end1\nend1:\n    ret r1"),
        "{t}"
    );
}

#[test]
fn calls_name_their_callee_and_call_indirect_is_an_operation_with_call_effects() {
    let t = text(lift_wat(
        r#"(module
            (import "env" "log" (func (param i32)))
            (type $t (func (param i32) (result i32 i32)))
            (table 1 funcref)
            (func $two (param i32) (result i32 i32) local.get 0 local.get 0)
            (func $main (param i32) (result i32)
              (call 0 (local.get 0))
              (call_indirect (type $t) (local.get 0) (i32.const 0))
              i32.add))"#,
    ));
    assert!(t.contains("operator call_indirect call\n"), "{t}");
    assert!(t.contains("    log(l0)\n"), "{t}");
    assert!(
        t.contains("(t1: i32, t2: i32) = call_indirect[0, 0](l0, 0)"),
        "{t}"
    );
}

#[test]
fn deep_nesting_costs_no_native_stack() {
    let n = 100_000;
    let mut wat = String::from("(module (func (param i32) (result i32)\n");
    for _ in 0..n {
        wat.push_str("block\nlocal.get 0\nbr_if 0\n");
    }
    for _ in 0..n {
        wat.push_str("end\n");
    }
    wat.push_str("local.get 0))");
    let f = lift_one(&wat, 0);
    // Each level: the block after its `br_if`, and its end.
    assert_eq!(f.layout().len(), 2 * n + 1);
    check_function(&f).unwrap();
}

#[test]
fn unsupported_proposals_are_refused_with_function_index_and_offset() {
    for (wat, what) in [
        (
            "(module (func) (func return_call 0))",
            "tail calls support is not enabled",
        ),
        ("(module (memory 1 1 shared))", "threads must be enabled"),
    ] {
        let e = lift_all(wat.as_bytes()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("byte offset 0x"), "{msg}");
        assert!(msg.contains(what), "{msg}");
        if what.contains("tail") {
            assert!(msg.contains("in function 1: "), "{msg}");
        }
    }
}

/// The extended-const proposal (arithmetic in constant expressions) is
/// refused naming the proposal, at the byte offset of the operator, as
/// every other proposal is: not with the validator's "constant
/// expression required". `tests/wat/extended_const.wat` is hand-written;
/// the other cases put the operator in each place a constant expression
/// sits. A `global.get` of a global the module defines names the gc
/// proposal, which allows it.
#[test]
fn the_extended_const_proposal_is_refused_by_name() {
    use ssakit_wasm::error::ErrorKind;
    let src = include_str!("wat/extended_const.wat");
    let wasm = wat::parse_str(src).unwrap();
    let e = lift_all(src.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    assert_eq!(
        e.message,
        "`i32.add` in a constant expression: the extended-const proposal is not supported"
    );
    // The offset is the `i32.add` (0x6a) after `global.get 0; i32.const
    // 64` (23 00 41 c0 00).
    let at = e.offset.unwrap() as usize;
    assert_eq!(
        wasm[at - 5..=at],
        [0x23, 0x00, 0x41, 0xc0, 0x00, 0x6a],
        "{e}"
    );
    let import = r#"(import "env" "g" (global i64)) (memory 1) (table 1 funcref)"#;
    for (body, op) in [
        (
            "(global i64 (i64.mul (global.get 0) (i64.const 3)))",
            "i64.mul",
        ),
        (
            r#"(data (offset (i32.sub (i32.const 9) (i32.const 1))) "x")"#,
            "i32.sub",
        ),
        (
            "(elem (offset (i32.add (i32.const 0) (i32.const 0))) func 0) (func)",
            "i32.add",
        ),
    ] {
        let wat = format!("(module {import} {body})");
        let e = lift_all(wat.as_bytes()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("byte offset 0x"), "{wat}: {msg}");
        assert!(
            msg.ends_with(&format!(
                "`{op}` in a constant expression: the extended-const proposal is not supported"
            )),
            "{wat}: {msg}"
        );
    }
    let e =
        lift_all(b"(module (global i32 (i32.const 1)) (global i32 (global.get 0)))").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    assert!(
        e.message.contains("the gc proposal is not supported"),
        "{e}"
    );
    // Without arithmetic, a constant expression of another kind keeps the
    // validator's words.
    let e = lift_all(b"(module (global i32 (i32.eqz (i32.const 1))))").unwrap_err();
    assert!(e.message.contains("constant expression required"), "{e}");
}
