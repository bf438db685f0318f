//! Hand-written modules for the two emitter bugs that only the sql.js
//! workload and, by chance, the wasm-smith differential caught (issue 32,
//! "Oracles too weak where the emitter is concerned"):
//!
//! * **stackify** moving a definition past one instruction: a load past a
//!   store to its address, a read of a local past a write of that local,
//!   a trapping division past a call with an effect;
//! * **locals** merging a copy partner whose live segment starts earlier
//!   and is still live: a copy of a loop variable kept across its
//!   increment, a swap, a rotation.
//!
//! Each module goes through `wasm opt` in every destruction mode
//! (`support/modes.rs`) and runs under wasmi beside the original: the
//! calls in order on one instance, each call's results or trap, and the
//! memory and globals afterwards, must be the same. Input and output
//! only, so the tests survive the emitter's refactors. Each case was
//! checked against the bug planted in the emitter (docs/testing.md).

#[path = "support/modes.rs"]
mod modes;
#[path = "support/outcome.rs"]
mod outcome;

use outcome::{key, Outcome};
use ssakit_wasm::rewrite;
use wasmi::{Engine, Extern, Linker, Module, Store, Val};

/// A module and the calls made on it, in order: export and arguments.
struct Case {
    name: &'static str,
    wat: &'static str,
    calls: &'static [(&'static str, &'static [i64])],
}

/// Results (or trap) of every call, then memory and globals.
fn behaviour(bytes: &[u8], calls: &[(&str, &[i64])]) -> Vec<Outcome> {
    let engine = Engine::default();
    let module = Module::new(&engine, bytes).unwrap_or_else(|e| panic!("wasmi refuses it: {e}"));
    let mut store = Store::new(&engine, ());
    let instance = <Linker<()>>::new(&engine)
        .instantiate_and_start(&mut store, &module)
        .unwrap();
    let mut out = Vec::new();
    for &(name, args) in calls {
        let f = instance.get_func(&store, name).unwrap();
        let ty = f.ty(&store);
        let args: Vec<Val> = ty
            .params()
            .iter()
            .zip(args)
            .map(|(t, &a)| match t {
                wasmi::ValType::I32 => Val::I32(a as i32),
                _ => Val::I64(a),
            })
            .collect();
        let mut results: Vec<Val> = ty
            .results()
            .iter()
            .map(|t| Val::default_for_ty(*t))
            .collect();
        out.push(match f.call(&mut store, &args, &mut results) {
            Ok(()) => Outcome::Values(results.iter().map(key).collect()),
            Err(e) => Outcome::Trap(format!("{:?}", e.as_trap_code())),
        });
    }
    for e in instance.exports(&store) {
        match e.into_extern() {
            Extern::Memory(m) => out.push(Outcome::Values(
                m.data(&store)[..256].iter().map(|&b| b as u128).collect(),
            )),
            Extern::Global(g) => out.push(Outcome::Values(vec![key(&g.get(&store))])),
            _ => {}
        }
    }
    out
}

/// Every case in every mode behaves as the original.
fn check(cases: &[Case]) {
    let mut failed = Vec::new();
    for case in cases {
        let original = wat::parse_str(case.wat).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let want = behaviour(&original, case.calls);
        for (mode, opts) in modes::modes() {
            let out = rewrite::optimize(&original, &opts)
                .unwrap_or_else(|e| panic!("{} {mode}: {e}", case.name));
            let got = behaviour(&out.bytes, case.calls);
            if got != want {
                failed.push(format!("{} {mode}: {got:?}, not {want:?}", case.name));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn stackify_keeps_every_definition_in_place() {
    check(&[
        Case {
            name: "load past a store to its address",
            wat: r#"(module
              (memory (export "mem") 1)
              (data (i32.const 8) "\2a")
              (func (export "f") (param $p i32) (result i32)
                (local $x i32)
                (local.set $x (i32.load (local.get $p)))
                (i32.store (local.get $p) (i32.const 7))
                (local.get $x))
              (func (export "g") (param $p i32) (result i32)
                (local $x i32)
                (local.set $x (i32.load (local.get $p)))
                (i32.store (local.get $p) (i32.add (local.get $x) (i32.const 100)))
                (i32.mul (local.get $x) (i32.const 3))))"#,
            calls: &[
                ("f", &[8]),
                ("f", &[8]),
                ("f", &[16]),
                ("g", &[16]),
                ("g", &[16]),
            ],
        },
        Case {
            name: "read of a local past its write",
            wat: r#"(module
              (func (export "f") (param $a i64) (param $b i64) (param $n i32) (result i64)
                (local $x i64) (local $t i64)
                (loop $l
                  (local.set $x (i64.add (local.get $a) (i64.const 1)))
                  (local.set $t (local.get $a))
                  (local.set $a (local.get $b))
                  (local.set $b (i64.mul (local.get $x) (i64.const 10)))
                  (local.set $n (i32.sub (local.get $n) (i32.const 1)))
                  (br_if $l (local.get $n)))
                (i64.add (i64.mul (local.get $a) (i64.const 1000)) (local.get $b))))"#,
            calls: &[("f", &[1, 2, 1]), ("f", &[1, 2, 5]), ("f", &[-3, 9, 4])],
        },
        Case {
            name: "trapping division past a call with an effect",
            wat: r#"(module
              (global $g (export "g") (mut i32) (i32.const 0))
              (func $effect (global.set $g (i32.add (global.get $g) (i32.const 1))))
              (func (export "f") (param $a i32) (param $b i32) (result i32)
                (local $x i32)
                (local.set $x (i32.div_s (local.get $a) (local.get $b)))
                (call $effect)
                (local.get $x)))"#,
            calls: &[("f", &[7, 2]), ("f", &[7, 0]), ("f", &[9, 3])],
        },
        Case {
            name: "call past a store its callee reads",
            wat: r#"(module
              (memory (export "mem") 1)
              (func $read (result i32) (i32.load (i32.const 0)))
              (func (export "f") (param $v i32) (result i32)
                (local $x i32)
                (local.set $x (call $read))
                (i32.store (i32.const 0) (local.get $v))
                (i32.sub (local.get $x) (i32.const 1))))"#,
            calls: &[("f", &[5]), ("f", &[9]), ("f", &[1])],
        },
    ]);
}

#[test]
fn locals_never_share_between_live_values() {
    check(&[
        Case {
            name: "copy of a loop variable kept across its increment",
            wat: r#"(module
              (func (export "f") (param $n i32) (result i32)
                (local $i i32) (local $t i32) (local $s i32)
                (loop $l
                  (local.set $t (local.get $i))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (local.set $s (i32.add (local.get $s)
                    (i32.add (i32.mul (local.get $t) (i32.const 100)) (local.get $i))))
                  (br_if $l (i32.lt_s (local.get $i) (local.get $n))))
                (local.get $s)))"#,
            calls: &[("f", &[1]), ("f", &[4])],
        },
        Case {
            name: "swap in a loop",
            wat: r#"(module
              (func (export "f") (param $a i64) (param $b i64) (param $n i32) (result i64)
                (local $t i64)
                (loop $l
                  (local.set $t (local.get $a))
                  (local.set $a (local.get $b))
                  (local.set $b (local.get $t))
                  (local.set $n (i32.sub (local.get $n) (i32.const 1)))
                  (br_if $l (local.get $n)))
                (i64.sub (i64.mul (local.get $a) (i64.const 10)) (local.get $b))))"#,
            calls: &[("f", &[1, 2, 1]), ("f", &[1, 2, 2]), ("f", &[5, 7, 3])],
        },
        Case {
            name: "rotation in a loop, the old value read after",
            wat: r#"(module
              (func (export "f") (param $a i32) (param $b i32) (param $c i32) (param $n i32) (result i32)
                (local $t i32) (local $s i32)
                (loop $l
                  (local.set $t (local.get $a))
                  (local.set $a (local.get $b))
                  (local.set $b (local.get $c))
                  (local.set $c (local.get $t))
                  (local.set $s (i32.add (i32.mul (local.get $s) (i32.const 7))
                    (i32.sub (local.get $t) (local.get $a))))
                  (local.set $n (i32.sub (local.get $n) (i32.const 1)))
                  (br_if $l (local.get $n)))
                (i32.add (local.get $s) (i32.mul (local.get $c) (i32.const 1000)))))"#,
            calls: &[
                ("f", &[1, 2, 3, 1]),
                ("f", &[1, 2, 3, 4]),
                ("f", &[9, -4, 6, 5]),
            ],
        },
    ]);
}
