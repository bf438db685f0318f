//! The interpreter's semantics, pinned with exact outputs: arithmetic edge
//! cases, undef propagation, phis and parallel copies, calls (internal,
//! recursive, external), fuel and step counting, runtime errors, and the
//! differential oracle `outputs_match`.

use ssakit::interp::{
    external_call_result, first_difference, outputs_match, run, CallRecord, ErrorKind, Interpreter,
    Outcome, Position, RunOptions, Value,
};
use ssakit::ir::{BinOp, Function, FunctionBuilder, Module, Operand, PhiArg, UnOp, Var};

fn c(v: i64) -> Operand {
    Operand::Const(v)
}

fn v(x: Var) -> Operand {
    Operand::Var(x)
}

fn arg(block: ssakit::ir::Block, value: Operand) -> PhiArg {
    PhiArg { block, value }
}

fn opts() -> RunOptions {
    RunOptions::default()
}

/// Runs a lone function.
fn exec(f: &Function, args: &[i64]) -> Outcome {
    run(&Module::default(), f, args, &opts()).expect("run failed")
}

/// Runs a lone function that must fail, giving the error message.
fn exec_err(f: &Function, args: &[i64], o: &RunOptions) -> String {
    run(&Module::default(), f, args, o)
        .expect_err("run succeeded")
        .to_string()
}

/// `main` printing `lhs op rhs` for each triple, one line each.
fn binops(cases: &[(i64, BinOp, i64)]) -> Function {
    let mut b = FunctionBuilder::new("main");
    let entry = b.block("entry");
    b.switch_to(entry);
    let x = b.var("x");
    for &(l, op, r) in cases {
        b.binary(x, op, c(l), c(r));
        b.print(&[v(x)]);
    }
    b.ret(None);
    b.finish()
}

#[test]
fn arithmetic_edge_cases() {
    let f = binops(&[
        (i64::MAX, BinOp::Add, 1),
        (i64::MIN, BinOp::Sub, 1),
        (i64::MAX, BinOp::Mul, 2),
        (i64::MIN, BinOp::Div, -1),
        (i64::MIN, BinOp::Rem, -1),
        (-7, BinOp::Div, 2),
        (-7, BinOp::Rem, 2),
        (7, BinOp::Rem, -2),
        (1, BinOp::Shl, 64),
        (1, BinOp::Shl, 65),
        (1, BinOp::Shl, 63),
        (-8, BinOp::Shr, 66),
        (-1, BinOp::Shr, 63),
        (12, BinOp::And, 10),
        (12, BinOp::Or, 10),
        (12, BinOp::Xor, 10),
        (-1, BinOp::Lt, 0),
        (3, BinOp::Ge, 4),
        (5, BinOp::Eq, 5),
        (5, BinOp::Ne, 5),
    ]);
    let out = exec(&f, &[]);
    assert_eq!(
        out.render(),
        "-9223372036854775808\n9223372036854775807\n-2\n-9223372036854775808\n0\n\
         -3\n-1\n1\n1\n2\n-9223372036854775808\n-2\n-1\n8\n14\n6\n1\n0\n1\n0\n"
    );
    assert_eq!(out.ret, None);
}

#[test]
fn unary_operators() {
    let mut b = FunctionBuilder::new("main");
    let entry = b.block("entry");
    b.switch_to(entry);
    let (x, y, z) = (b.var("x"), b.var("y"), b.var("z"));
    b.unary(x, UnOp::Neg, c(i64::MIN));
    b.unary(y, UnOp::Not, c(0));
    b.unary(z, UnOp::Not, c(-5));
    b.print(&[v(x), v(y), v(z)]);
    b.print(&[]);
    b.ret(Some(c(-1)));
    let out = exec(&b.finish(), &[]);
    assert_eq!(out.render(), "-9223372036854775808 1 0\n\n=> -1\n");
}

#[test]
fn undef_propagates_through_operations_and_ret() {
    let mut b = FunctionBuilder::new("main");
    let entry = b.block("entry");
    b.switch_to(entry);
    let (u, x, y, z, w, never) = (
        b.var("u"),
        b.var("x"),
        b.var("y"),
        b.var("z"),
        b.var("w"),
        b.var("never"),
    );
    b.copy(u, Operand::Undef);
    b.binary(x, BinOp::Add, v(u), c(1));
    b.binary(y, BinOp::Lt, v(u), c(1)); // comparisons too
    b.unary(z, UnOp::Not, v(u));
    b.binary(w, BinOp::Div, v(u), c(5)); // dividing undef: undef, no error
    b.print(&[v(u), v(x), v(y), v(z), v(w), v(never), c(3)]);
    b.ret(Some(v(x)));
    let out = exec(&b.finish(), &[]);
    assert_eq!(
        out.render(),
        "undef undef undef undef undef undef 3\n=> undef\n"
    );
    assert_eq!(out.ret, Some(Value::Undef));
}

/// The chapter's x on the path r→A→C: a variable assigned on one path only
/// reads as undef on the other.
///
/// ```text
///      r
///     / \
///    A   B (x = 1)
///     \ /
///      C   print x
/// ```
#[test]
fn uninitialised_read_on_one_path_is_undef() {
    let mut b = FunctionBuilder::new("main");
    let p = b.param("p");
    let (r, a, bb, cc) = (b.block("r"), b.block("A"), b.block("B"), b.block("C"));
    let x = b.var("x");
    b.switch_to(r);
    b.branch(v(p), a, bb);
    b.switch_to(a);
    b.jump(cc);
    b.switch_to(bb);
    b.copy(x, c(1));
    b.jump(cc);
    b.switch_to(cc);
    b.print(&[v(x)]);
    b.ret(None);
    let f = b.finish();
    assert_eq!(exec(&f, &[1]).render(), "undef\n");
    assert_eq!(exec(&f, &[0]).render(), "1\n");
}

#[test]
fn branch_and_switch_on_undef_are_errors() {
    let mut b = FunctionBuilder::new("main");
    let (entry, t) = (b.block("entry"), b.block("t"));
    let x = b.var("x");
    b.switch_to(entry);
    b.branch(v(x), t, t);
    b.switch_to(t);
    b.ret(None);
    assert_eq!(
        exec_err(&b.finish(), &[], &opts()),
        "runtime error in function main, block entry, terminator: branch on undef"
    );

    let mut b = FunctionBuilder::new("main");
    let (entry, t) = (b.block("entry"), b.block("t"));
    b.switch_to(entry);
    b.switch(Operand::Undef, t, &[t]);
    b.switch_to(t);
    b.ret(None);
    assert_eq!(
        exec_err(&b.finish(), &[], &opts()),
        "runtime error in function main, block entry, terminator: switch on undef"
    );
}

/// Division by zero names the function, the block and the instruction's
/// index (phis counted first).
#[test]
fn division_by_zero_reports_location() {
    let mut b = FunctionBuilder::new("main");
    let (entry, lp) = (b.block("entry"), b.block("loop"));
    let (p, a, z, d) = (b.var("p"), b.var("a"), b.var("z"), b.var("d"));
    b.switch_to(entry);
    b.jump(lp);
    b.switch_to(lp);
    b.phi(p, &[arg(entry, c(7))]); // instruction 0
    b.copy(a, v(p)); // 1
    b.copy(z, c(0)); // 2
    let div = b.binary(d, BinOp::Div, v(a), v(z)); // 3
    b.ret(Some(v(d)));
    let f = b.finish();
    let err = run(&Module::default(), &f, &[], &opts()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::DivisionByZero(BinOp::Div));
    let loc = err.location.as_ref().unwrap();
    assert_eq!(loc.position, Position::Inst(3));
    assert_eq!(loc.inst, Some(div));
    assert_eq!(
        err.to_string(),
        "runtime error in function main, block loop, instruction 3: division by zero"
    );
}

#[test]
fn remainder_by_zero_and_undef_by_zero_are_errors() {
    let f = binops(&[(1, BinOp::Rem, 0)]);
    assert_eq!(
        exec_err(&f, &[], &opts()),
        "runtime error in function main, block entry, instruction 0: remainder by zero"
    );
    let mut b = FunctionBuilder::new("main");
    let entry = b.block("entry");
    b.switch_to(entry);
    let x = b.var("x");
    b.binary(x, BinOp::Div, Operand::Undef, c(0));
    b.ret(None);
    assert_eq!(
        exec_err(&b.finish(), &[], &opts()),
        "runtime error in function main, block entry, instruction 0: division by zero"
    );
}

/// Dividing by `undef` is an error, like branching on it: the divisor may
/// be 0, and a transformation may give it any definite value (destruction
/// drops `x = undef` copies, leaving whatever the variable held). A random
/// program divided by an `undef` phi operand, the copy was dropped, the
/// variable still held 0 and the destructed program trapped where the
/// original had printed: the oracle now skips such runs, as it skips
/// branches on `undef`.
#[test]
fn division_and_remainder_by_undef_are_errors() {
    for (op, what) in [(BinOp::Div, "division"), (BinOp::Rem, "remainder")] {
        let mut b = FunctionBuilder::new("main");
        let entry = b.block("entry");
        b.switch_to(entry);
        let x = b.var("x");
        b.binary(x, op, c(7), Operand::Undef);
        b.ret(None);
        assert_eq!(
            exec_err(&b.finish(), &[], &opts()),
            format!("runtime error in function main, block entry, instruction 0: {what} by undef")
        );
    }
}

/// FNV-1a 64 of the name then each argument's 8 little-endian bytes, mod
/// 1000. Expected values computed independently (Python); the hashes of ""
/// (cbf29ce484222325), "a" (af63dc4c8601ec8c) and "foobar"
/// (85944171f73967e8) are the published FNV-1a test vectors.
#[test]
fn external_calls_hash_name_and_arguments() {
    let i = Value::Int;
    assert_eq!(external_call_result("", &[]), i(37));
    assert_eq!(external_call_result("a", &[]), i(996));
    assert_eq!(external_call_result("foobar", &[]), i(968));
    assert_eq!(external_call_result("f", &[]), i(785));
    assert_eq!(external_call_result("f", &[i(0)]), i(201));
    assert_eq!(external_call_result("f", &[i(1)]), i(792));
    assert_eq!(external_call_result("f", &[i(1), i(2)]), i(186));
    assert_eq!(external_call_result("f", &[i(2), i(1)]), i(434));
    assert_eq!(external_call_result("g", &[i(-1)]), i(822));
    assert_eq!(
        external_call_result("f", &[i(1), Value::Undef]),
        Value::Undef
    );

    let mut b = FunctionBuilder::new("main");
    let entry = b.block("entry");
    b.switch_to(entry);
    let (x, y, z) = (b.var("x"), b.var("y"), b.var("z"));
    b.call(Some(x), "f", &[c(1), c(2)]);
    b.call(Some(y), "read", &[]);
    b.call(None, "g", &[c(-1)]);
    b.call(Some(z), "f", &[v(x), Operand::Undef]);
    b.print(&[v(x), v(y), v(z)]);
    b.ret(None);
    let f = b.finish();
    let o = RunOptions {
        trace_calls: true,
        ..opts()
    };
    let out = run(&Module::default(), &f, &[], &o).unwrap();
    assert_eq!(out.render(), "186 101 undef\n");
    let trace: Vec<String> = out.calls.iter().map(|r| r.to_string()).collect();
    assert_eq!(
        trace,
        [
            "f(1, 2) = 186",
            "read() = 101",
            "g(-1) = 822",
            "f(186, undef) = undef"
        ]
    );
    // Without tracing, no records.
    assert!(exec(&f, &[]).calls.is_empty());
}

/// ```text
/// fact(n): if n <= 1 then 1 else n * fact(n - 1)
/// ```
fn factorial_module() -> Module {
    let mut b = FunctionBuilder::new("fact");
    let n = b.param("n");
    let (entry, base, rec) = (b.block("entry"), b.block("base"), b.block("rec"));
    let (cnd, m, r, p) = (b.var("c"), b.var("m"), b.var("r"), b.var("p"));
    b.switch_to(entry);
    b.binary(cnd, BinOp::Le, v(n), c(1));
    b.branch(v(cnd), base, rec);
    b.switch_to(base);
    b.ret(Some(c(1)));
    b.switch_to(rec);
    b.binary(m, BinOp::Sub, v(n), c(1));
    b.call(Some(r), "fact", &[v(m)]);
    b.binary(p, BinOp::Mul, v(n), v(r));
    b.ret(Some(v(p)));
    let fact = b.finish();

    let mut b = FunctionBuilder::new("main");
    let n = b.param("n");
    let entry = b.block("entry");
    let r = b.var("r");
    b.switch_to(entry);
    b.call(Some(r), "fact", &[v(n)]);
    b.print(&[v(n), v(r)]);
    b.ret(Some(v(r)));
    Module {
        functions: vec![fact, b.finish()],
    }
}

#[test]
fn recursive_factorial() {
    let m = factorial_module();
    let main = m.entry_function(None).unwrap();
    let it = Interpreter::new(&m).unwrap();
    let idx = it.function_index("main").unwrap();
    let go = |n: i64| it.run(idx, &[n], &opts()).unwrap().render();
    assert_eq!(go(0), "0 1\n=> 1\n");
    assert_eq!(go(5), "5 120\n=> 120\n");
    assert_eq!(go(20), "20 2432902008176640000\n=> 2432902008176640000\n");
    // 21! wraps.
    assert_eq!(go(21), "21 -4249290049419214848\n=> -4249290049419214848\n");
    // `run` finds the entry inside the module.
    assert_eq!(
        run(&m, main, &[3], &opts()).unwrap().render(),
        "3 6\n=> 6\n"
    );
    // The calls from main resolve to `fact`, not to an external.
    assert!(run(
        &m,
        main,
        &[3],
        &RunOptions {
            trace_calls: true,
            ..opts()
        }
    )
    .unwrap()
    .calls
    .is_empty());
}

/// `down(n) = if n == 0 then 0 else down(n - 1) + 1`, called from `main`.
fn countdown_module() -> Module {
    let mut b = FunctionBuilder::new("down");
    let n = b.param("n");
    let (entry, zero, rec) = (b.block("entry"), b.block("zero"), b.block("rec"));
    let (m, r, s) = (b.var("m"), b.var("r"), b.var("s"));
    b.switch_to(entry);
    b.branch(v(n), rec, zero);
    b.switch_to(zero);
    b.ret(Some(c(0)));
    b.switch_to(rec);
    b.binary(m, BinOp::Sub, v(n), c(1));
    b.call(Some(r), "down", &[v(m)]);
    b.binary(s, BinOp::Add, v(r), c(1));
    b.ret(Some(v(s)));
    let down = b.finish();

    let mut b = FunctionBuilder::new("main");
    let n = b.param("n");
    let entry = b.block("entry");
    let r = b.var("r");
    b.switch_to(entry);
    b.call(Some(r), "down", &[v(n)]);
    b.ret(Some(v(r)));
    Module {
        functions: vec![down, b.finish()],
    }
}

/// 50 000 nested calls on a thread with a 128 KiB native stack: frames live
/// on the interpreter's own stack.
#[test]
fn deep_recursion_does_not_use_the_native_stack() {
    let out = std::thread::Builder::new()
        .stack_size(128 * 1024)
        .spawn(|| {
            let m = countdown_module();
            run(&m, &m.functions[1], &[50_000], &opts()).unwrap()
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(out.ret, Some(Value::Int(50_000)));
}

#[test]
fn call_depth_limit() {
    let m = countdown_module();
    let o = RunOptions {
        max_depth: 10,
        ..opts()
    };
    // main + down(8), ..., down(0): exactly 10 frames.
    assert_eq!(
        run(&m, &m.functions[1], &[8], &o).unwrap().ret,
        Some(Value::Int(8))
    );
    let err = run(&m, &m.functions[1], &[9], &o).unwrap_err();
    assert_eq!(err.kind, ErrorKind::CallDepthExceeded { limit: 10 });
    assert_eq!(
        err.to_string(),
        "runtime error in function down, block rec, instruction 1: \
         call depth limit of 10 frames exceeded"
    );
}

#[test]
fn arity_mismatch() {
    let m = factorial_module();
    let main = &m.functions[1];
    assert_eq!(
        run(&m, main, &[], &opts()).unwrap_err().to_string(),
        "runtime error: function main takes 1 argument, got 0"
    );

    let mut b = FunctionBuilder::new("main");
    let entry = b.block("entry");
    b.switch_to(entry);
    b.call(None, "fact", &[c(1), c(2)]);
    b.ret(None);
    let m = Module {
        functions: vec![b.finish(), m.functions[0].clone()],
    };
    assert_eq!(
        run(&m, &m.functions[0], &[], &opts())
            .unwrap_err()
            .to_string(),
        "runtime error in function main, block entry, instruction 0: \
         function fact takes 1 argument, got 2"
    );
}

/// A callee ending in a bare `ret` gives undef to a call that keeps a result.
#[test]
fn bare_ret_gives_undef_to_the_caller() {
    let mut b = FunctionBuilder::new("nothing");
    let entry = b.block("entry");
    b.switch_to(entry);
    b.ret(None);
    let nothing = b.finish();
    let mut b = FunctionBuilder::new("main");
    let entry = b.block("entry");
    let x = b.var("x");
    b.switch_to(entry);
    b.copy(x, c(4));
    b.call(Some(x), "nothing", &[]);
    b.print(&[v(x)]);
    b.ret(None);
    let m = Module {
        functions: vec![b.finish(), nothing],
    };
    assert_eq!(
        run(&m, &m.functions[0], &[], &opts()).unwrap().render(),
        "undef\n"
    );
}

#[test]
fn infinite_loop_runs_out_of_fuel() {
    let mut b = FunctionBuilder::new("main");
    let (entry, lp) = (b.block("entry"), b.block("loop"));
    let i = b.var("i");
    b.switch_to(entry);
    b.jump(lp);
    b.switch_to(lp);
    b.binary(i, BinOp::Add, v(i), c(1));
    b.jump(lp);
    let f = b.finish();
    let o = RunOptions {
        fuel: 1000,
        ..opts()
    };
    let err = run(&Module::default(), &f, &[], &o).unwrap_err();
    assert_eq!(err.kind, ErrorKind::OutOfFuel { fuel: 1000 });
    // Steps: entry's jump (1), then 2 per iteration; step 1000 is the 500th
    // iteration's add, so step 1001 is its jump.
    assert_eq!(
        err.to_string(),
        "runtime error in function main, block loop, terminator: \
         out of fuel after 1000 steps (the program may not terminate)"
    );
}

/// The sum 0 + 1 + 2 in SSA form with a parallel copy, stepped by hand:
///
/// ```text
/// entry:  jump head                                   1   x1 =  1
/// head:   i = phi(entry: 0, body: i2)                 1
///         s = phi(entry: 0, body: s2)                 1
///         c = i < 3                                   1
///         branch c, body, exit                        1   x4 = 16
/// body:   s2 = s + i                                  1
///         i2 = i + 1                                  1
///         (a, b) = (s2, i2)                           2
///         jump head                                   1   x3 = 15
/// exit:   print s                                     1
///         ret s                                       1   x1 =  2
///                                                         total 34
/// ```
fn sum_loop() -> Function {
    let mut b = FunctionBuilder::new("main");
    let (entry, head, body, exit) = (
        b.block("entry"),
        b.block("head"),
        b.block("body"),
        b.block("exit"),
    );
    let (i, s, cnd, i2, s2, a, bb) = (
        b.var("i"),
        b.var("s"),
        b.var("c"),
        b.var("i2"),
        b.var("s2"),
        b.var("a"),
        b.var("b"),
    );
    b.switch_to(entry);
    b.jump(head);
    b.switch_to(head);
    b.phi(i, &[arg(entry, c(0)), arg(body, v(i2))]);
    b.phi(s, &[arg(entry, c(0)), arg(body, v(s2))]);
    b.binary(cnd, BinOp::Lt, v(i), c(3));
    b.branch(v(cnd), body, exit);
    b.switch_to(body);
    b.binary(s2, BinOp::Add, v(s), v(i));
    b.binary(i2, BinOp::Add, v(i), c(1));
    b.par_copy(&[(a, v(s2)), (bb, v(i2))]);
    b.jump(head);
    b.switch_to(exit);
    b.print(&[v(s)]);
    b.ret(Some(v(s)));
    b.finish()
}

#[test]
fn dynamic_instruction_count() {
    let f = sum_loop();
    let out = exec(&f, &[]);
    assert_eq!(out.render(), "3\n=> 3\n");
    assert_eq!(out.dyn_insts, 34);
    // Exactly enough fuel succeeds; one step less fails at the last `ret`.
    let o = |fuel| RunOptions { fuel, ..opts() };
    assert_eq!(
        run(&Module::default(), &f, &[], &o(34)).unwrap().dyn_insts,
        34
    );
    assert_eq!(
        exec_err(&f, &[], &o(33)),
        "runtime error in function main, block exit, terminator: \
         out of fuel after 33 steps (the program may not terminate)"
    );
}

/// The swap problem's phis: `a` and `b` exchange values on every back edge,
/// which only works if both phis read before either writes.
///
/// ```text
/// entry:  jump loop
/// loop:   a = phi(entry: 1, loop: b)
///         b = phi(entry: 2, loop: a)
///         n = phi(entry: 0, loop: n2)
///         print a, b
///         n2 = n + 1
///         c = n2 < 3
///         branch c, loop, exit
/// exit:   ret
/// ```
#[test]
fn phis_are_simultaneous() {
    let mut b = FunctionBuilder::new("main");
    let (entry, lp, exit) = (b.block("entry"), b.block("loop"), b.block("exit"));
    let (x, y, n, n2, cnd) = (b.var("a"), b.var("b"), b.var("n"), b.var("n2"), b.var("c"));
    b.switch_to(entry);
    b.jump(lp);
    b.switch_to(lp);
    b.phi(x, &[arg(entry, c(1)), arg(lp, v(y))]);
    b.phi(y, &[arg(entry, c(2)), arg(lp, v(x))]);
    b.phi(n, &[arg(entry, c(0)), arg(lp, v(n2))]);
    b.print(&[v(x), v(y)]);
    b.binary(n2, BinOp::Add, v(n), c(1));
    b.binary(cnd, BinOp::Lt, v(n2), c(3));
    b.branch(v(cnd), lp, exit);
    b.switch_to(exit);
    b.ret(None);
    assert_eq!(exec(&b.finish(), &[]).render(), "1 2\n2 1\n1 2\n");
}

#[test]
fn missing_phi_argument_is_an_error() {
    let mut b = FunctionBuilder::new("main");
    let (entry, other, join) = (b.block("entry"), b.block("other"), b.block("join"));
    let x = b.var("x");
    b.switch_to(entry);
    b.jump(join);
    b.switch_to(other);
    b.jump(join);
    b.switch_to(join);
    b.phi(x, &[arg(other, c(1))]);
    b.ret(Some(v(x)));
    assert_eq!(
        exec_err(&b.finish(), &[], &opts()),
        "runtime error in function main, block join, instruction 0: \
         phi has no argument for predecessor entry"
    );
}

#[test]
fn parallel_copy_swaps() {
    let mut b = FunctionBuilder::new("main");
    let entry = b.block("entry");
    let (x, y, z) = (b.var("a"), b.var("b"), b.var("c"));
    b.switch_to(entry);
    b.copy(x, c(1));
    b.copy(y, c(2));
    // (a, b, c) = (b, a, a): every source read before any write.
    b.par_copy(&[(x, v(y)), (y, v(x)), (z, v(x))]);
    b.print(&[v(x), v(y), v(z)]);
    b.ret(None);
    let out = exec(&b.finish(), &[]);
    assert_eq!(out.render(), "2 1 1\n");
    assert_eq!(out.dyn_insts, 2 + 3 + 1 + 1);
}

#[test]
fn switch_selects_target_or_default() {
    let mut b = FunctionBuilder::new("main");
    let p = b.param("p");
    let (entry, d, l0, l1, l2) = (
        b.block("entry"),
        b.block("d"),
        b.block("l0"),
        b.block("l1"),
        b.block("l2"),
    );
    b.switch_to(entry);
    b.switch(v(p), d, &[l0, l1, l2]);
    for (blk, out) in [(d, -1), (l0, 10), (l1, 11), (l2, 12)] {
        b.switch_to(blk);
        b.ret(Some(c(out)));
    }
    let f = b.finish();
    let go = |a: i64| exec(&f, &[a]).ret.unwrap();
    let got: Vec<Value> = [-1, 0, 1, 2, 3, i64::MIN, i64::MAX]
        .into_iter()
        .map(go)
        .collect();
    let want: Vec<Value> = [-1, 10, 11, 12, -1, -1, -1]
        .into_iter()
        .map(Value::Int)
        .collect();
    assert_eq!(got, want);
}

#[test]
fn outputs_match_lets_original_undef_match_anything() {
    let i = Value::Int;
    let u = Value::Undef;
    let outcome = |output: Vec<Vec<Value>>, ret: Option<Value>| Outcome {
        output,
        ret,
        ..Default::default()
    };
    let orig = outcome(vec![vec![i(1), u], vec![]], Some(u));
    let same = orig.clone();
    let refined = outcome(vec![vec![i(1), i(7)], vec![]], Some(i(0)));
    assert!(outputs_match(&orig, &same));
    assert!(outputs_match(&orig, &refined));
    // Not the other way round: a defined value may not become undef.
    assert_eq!(
        first_difference(&refined, &orig).as_deref(),
        Some("print line 1: expected `1 7`, got `1 undef`")
    );
    let other = outcome(vec![vec![i(2), i(7)], vec![]], Some(i(0)));
    assert!(!outputs_match(&orig, &other));
    let short = outcome(vec![vec![i(1), i(7)]], Some(i(0)));
    assert_eq!(
        first_difference(&orig, &short).as_deref(),
        Some("expected 2 printed lines, got 1")
    );
    let no_ret = outcome(vec![vec![i(1), i(7)], vec![]], None);
    assert_eq!(
        first_difference(&orig, &no_ret).as_deref(),
        Some("return value: expected undef, got no value")
    );

    // External call traces: undef arguments and results admit anything.
    let call = |args: Vec<Value>, result: Value| CallRecord {
        func: "f".into(),
        args,
        result,
    };
    let mut orig = outcome(vec![], None);
    orig.calls = vec![call(vec![u], u)];
    let mut refined = outcome(vec![], None);
    refined.calls = vec![call(vec![i(1)], i(792))];
    assert!(outputs_match(&orig, &refined));
    assert_eq!(
        first_difference(&refined, &orig).as_deref(),
        Some("external call 1: expected f(1) = 792, got f(undef) = undef")
    );
}

/// A program whose uninitialised read becomes defined matches through the
/// interpreter end to end: the original prints undef, the "transformed" one 0.
#[test]
fn outputs_match_on_real_runs() {
    let build = |init: bool| {
        let mut b = FunctionBuilder::new("main");
        let entry = b.block("entry");
        let (x, y) = (b.var("x"), b.var("y"));
        b.switch_to(entry);
        if init {
            b.copy(x, c(0));
        }
        b.binary(y, BinOp::Mul, v(x), c(2));
        b.call(None, "sink", &[v(y)]);
        b.print(&[v(y)]);
        b.ret(Some(v(y)));
        b.finish()
    };
    let o = RunOptions {
        trace_calls: true,
        ..opts()
    };
    let orig = run(&Module::default(), &build(false), &[], &o).unwrap();
    let refined = run(&Module::default(), &build(true), &[], &o).unwrap();
    assert_eq!(orig.render(), "undef\n=> undef\n");
    assert_eq!(refined.render(), "0\n=> 0\n");
    assert!(outputs_match(&orig, &refined));
    assert!(!outputs_match(&refined, &orig));
}

#[test]
fn malformed_programs_are_errors_not_panics() {
    let f = Function::new("empty");
    assert_eq!(
        exec_err(&f, &[], &opts()),
        "runtime error: malformed program: function empty: no blocks"
    );

    // (A non-phi among the phis of a block cannot be built: the IR's
    // `set_phis` refuses it.)

    // A variable that does not exist.
    let mut b = FunctionBuilder::new("main");
    let entry = b.block("entry");
    b.switch_to(entry);
    b.print(&[v(Var::from_u32(7))]);
    assert_eq!(
        exec_err(&b.finish(), &[], &opts()),
        "runtime error: malformed program: function main: variable v7 out of range"
    );
}
