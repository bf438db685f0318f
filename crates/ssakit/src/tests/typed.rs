//! Typed variables and generic operations with effects: a program in the shape of lifted WebAssembly, written as `.ssa`
//! text, goes through construction, every optimisation and destruction
//! with its effects kept; the text format round-trips all of it; the
//! verifier checks types; the interpreter refuses what it cannot run with
//! an error naming the operation.

use ssakit::construct::{self, Flavor, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::interp::{self, RunOptions};
use ssakit::ir::{Effects, Function, InstData, Module, Type};
use ssakit::opt::{self, Pass};
use ssakit::text::{parse, parse_module, print_module};
use ssakit::verify::verify;

/// A loop summing `i32` words of memory, in the shape a WebAssembly front
/// end produces: locals assigned on several paths, a load that may trap and
/// reads memory, a store, a division that may trap whose result nobody
/// reads, a pure operation whose result nobody reads, a call with two
/// results, and a trapping terminator.
const SUM: &str = "\
operator i32.const pure
operator i32.add pure
operator i32.mul pure
operator i32.lt_s pure
operator i32.load trap read
operator i32.store trap write
operator i32.div_s trap
operator i64.extend_i32_s pure
function sum(p: i32, n: i32) -> i32 {
entry:
    s: i32 = i32.const[0]()
    i: i32 = i32.const[0]()
    jump head
head:
    c: i32 = i32.lt_s(i, n)
    branch c, body, exit
body:
    four: i32 = i32.const[4]()
    off: i32 = i32.mul(i, four)
    a: i32 = i32.add(p, off)
    w: i32 = i32.load[0, 2](a)
    s = i32.add(s, w)
    unused: i32 = i32.mul(w, w)
    q: i32 = i32.div_s(s, w)
    one: i32 = i32.const[1]()
    i = i32.add(i, one)
    t: i32 = i
    i = t
    jump head
exit:
    i32.store[0, 2](p, s)
    (lo: i32, hi: i64) = split(s)
    wide = i64.extend_i32_s(lo)
    k = wide + hi
    branch k, done, trap
trap:
    unreachable
done:
    ret s
}
";

fn parse_one(src: &str) -> Function {
    parse_module(src)
        .unwrap_or_else(|d| panic!("{}", d.render("test", src)))
        .functions
        .remove(0)
}

/// The operator names of the operations left in `f`.
fn ops(f: &Function) -> Vec<String> {
    let mut out = Vec::new();
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            if let InstData::Op { op, .. } = f.inst(i) {
                out.push(f.operator_name(*op).to_string());
            }
        }
    }
    out
}

fn count(f: &Function, name: &str) -> usize {
    ops(f).iter().filter(|o| *o == name).count()
}

#[test]
fn typed_program_parses_prints_and_reparses_to_the_same_ir() {
    let f = parse_one(SUM);
    assert_eq!(f.var_type(f.params()[0]), Type::I32);
    assert_eq!(f.returns(), Some(&[Type::I32][..]));
    let hi = f.var_by_name("hi").unwrap();
    assert_eq!(f.var_type(hi), Type::I64);
    let load = f.symbols().find_operator("i32.load").unwrap();
    assert_eq!(
        f.symbols().operator_data(load).effects,
        Effects::TRAP.union(Effects::READ)
    );
    let m = Module { functions: vec![f] };
    let text = print_module(&m);
    let again = parse_module(&text).unwrap();
    assert_eq!(again, m, "printed:\n{text}");
    assert_eq!(print_module(&again), text);
}

#[test]
fn typed_program_through_every_pipeline_keeps_its_effects() {
    let original = parse_one(SUM);
    for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
        let mut f = original.clone();
        construct::construct(
            &mut f,
            &Options {
                flavor,
                ..Default::default()
            },
        )
        .unwrap();
        let report = verify(&f).unwrap_or_else(|e| panic!("{flavor:?}: {e:?}"));
        assert!(report.phis >= 2, "s and i need phis at the loop header");
        for passes in ["copy-prop", "dce", "const-prop", "const-prop,copy-prop,dce"] {
            let mut g = f.clone();
            opt::run_passes(&mut g, &Pass::parse(passes).unwrap()).unwrap();
            verify(&g).unwrap_or_else(|e| panic!("{flavor:?} {passes}: {e:?}"));
            // Effects are kept: the store, the load and the trapping
            // division (whose result is unused) stay, as do the call and
            // the `unreachable`.
            assert_eq!(count(&g, "i32.store"), 1, "{passes}");
            assert_eq!(count(&g, "i32.load"), 1, "{passes}");
            assert_eq!(count(&g, "i32.div_s"), 1, "{passes}");
            if passes.contains("dce") {
                // The unused pure multiplication goes; the one computing an
                // address stays.
                assert_eq!(count(&g, "i32.mul"), 1, "{passes}");
            } else {
                assert_eq!(count(&g, "i32.mul"), 2, "{passes}");
            }
            let text = print_module(&Module {
                functions: vec![g.clone()],
            });
            assert!(text.contains("= split(s"), "{text}");
            assert!(text.contains("unreachable"), "{text}");
            for opts in [
                DestructOptions::default(),
                DestructOptions {
                    split: false,
                    ..Default::default()
                },
                DestructOptions {
                    coalesce: false,
                    ..Default::default()
                },
            ] {
                let mut h = g.clone();
                destruct(&mut h, &opts).unwrap();
                assert!(ssakit::destruct::is_out_of_ssa(&h));
                assert_eq!(count(&h, "i32.store"), 1);
                assert_eq!(count(&h, "i32.div_s"), 1);
                // Copies made by destruction keep their variables' types:
                // the result parses back and verifies as a non-SSA program
                // would (every copy between variables of one type).
                let text = print_module(&Module {
                    functions: vec![h.clone()],
                });
                let back = parse(&text).unwrap_or_else(|d| panic!("{}\n{text}", d.message));
                let b = &back.module.functions[0];
                for v in b.vars() {
                    if b.base_name(v).starts_with('s') || b.base_name(v).starts_with('i') {
                        assert_eq!(b.var_type(v), Type::I32, "{}\n{text}", b.base_name(v));
                    }
                }
            }
        }
    }
}

#[test]
fn the_interpreter_refuses_what_it_cannot_run_naming_it() {
    // Its operations have meaning; the call of an external with two
    // results does not.
    let m = parse_module(SUM).unwrap();
    let err = interp::run(&m, &m.functions[0], &[0, 3], &RunOptions::default()).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("external `split` with 2 results"), "{msg}");
}

/// `SUM` without its call runs with meaning on a linear memory: it sums
/// the words at `p`, stores the sum at `p`, and traps past the memory.
#[test]
fn the_interpreter_runs_operations_of_the_set_on_memory() {
    use ssakit::interp::{ErrorKind, Interpreter, Memory, State, Value};
    use ssakit::ir::{OpTrap, Opcode};
    let src = SUM.replace(
        "    (lo: i32, hi: i64) = split(s)\n    wide = i64.extend_i32_s(lo)\n    k = wide + hi\n",
        "    k = i64.extend_i32_s(s)\n",
    );
    let m = parse_module(&src).unwrap();
    let i = Interpreter::new(&m).unwrap();
    let mut state = State {
        memory: Memory::linear(1, 1),
        ..State::default()
    };
    for (k, w) in [5i32, -7, 100].into_iter().enumerate() {
        state
            .memory
            .write(16 + 4 * k as u64, &w.to_le_bytes())
            .unwrap();
    }
    let out = i
        .run_in(0, &[16, 3], &mut state, &RunOptions::default())
        .unwrap();
    assert_eq!(out.ret, Some(Value::Int(98)));
    assert_eq!(state.memory.read(16, 4), Ok(98));
    let err = i
        .run_in(0, &[65536, 2], &mut state, &RunOptions::default())
        .unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::Trap {
            op: Opcode::I32Load,
            trap: OpTrap::OutOfBounds
        }
    );
}

#[test]
fn the_verifier_checks_types() {
    let bad = |body: &str, want: &str| {
        let src =
            format!("operator f64.const pure\nfunction f(a: i32, x: f64) {{\nentry:\n{body}\n}}\n");
        let m = parse_module(&src).unwrap_or_else(|d| panic!("{}: {}", body, d.message));
        let errs = verify(&m.functions[0]).expect_err(body);
        assert!(
            errs.iter().any(|e| e.message.contains(want)),
            "{body}: {errs:?}"
        );
    };
    bad("    y: f64 = 1\n    ret", "receives an integer literal");
    bad("    y: i32 = x\n    ret", "receives a `f64`");
    bad("    y = a + 1\n    ret", "computes on `i64` only");
    bad("    branch x, l, l\nl:\n    ret", "not an integer");
    // A declared result type is checked at every `ret`.
    let m = parse_module("function f(a: i32) -> i32 {\nentry:\n    ret 1, 2\n}\n").unwrap();
    let errs = verify(&m.functions[0]).unwrap_err();
    assert!(errs[0].message.contains("returns 2 value(s)"), "{errs:?}");
}

#[test]
fn the_parser_rejects_conflicting_types_and_unknown_operators() {
    let err = |src: &str| parse_module(src).unwrap_err().message;
    assert!(
        err("function f() {\ne:\n    x: i32 = 1\n    x: f64 = 2\n    ret\n}\n")
            .contains("is given type `f64` here but `i32`"),
    );
    assert!(err("function f() {\ne:\n    x = g[1](2)\n    ret\n}\n")
        .contains("not a declared operator"));
    assert!(
        err("operator g pure\noperator g trap\nfunction f() {\ne:\n    ret\n}\n")
            .contains("declared twice")
    );
    assert!(err("operator g bogus\nfunction f() {\ne:\n    ret\n}\n").contains("unknown effect"));
    assert!(err("function f() {\ne:\n    ret\n}\noperator g pure\n").contains("after a function"));
    // A phi in a block without predecessors.
    assert!(
        err("function main(n) {\nentry:\n    x = phi()\n    print x\n    ret x\n}\n")
            .contains("no predecessors")
    );
}
