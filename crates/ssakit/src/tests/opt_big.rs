//! The passes on big functions: a chain of 50 000 diamonds (200 000
//! blocks), each joining a copy of the previous value with the value
//! itself. Nothing may recurse (no stack overflow) and each pass must stay
//! near-linear: copy propagation collapses the whole chain of trivial phis,
//! constant propagation folds every branch, dead code elimination removes
//! every diamond's phi once unused.
//!
//! ```text
//!  head_k: branch c, l_k, r_k          c = 1 for const-prop, the
//!  l_k:    y_k = x_{k-1}; jump join_k  parameter `c` otherwise
//!  r_k:    jump join_k
//!  join_k: x_k = phi(l_k: y_k, r_k: x_{k-1})
//! ```

use ssakit::ir::{Function, FunctionBuilder, Operand, PhiArg};
use ssakit::opt::{self, Pass};
use std::time::Instant;

const N: usize = 50_000;

fn diamonds(constant_cond: bool) -> Function {
    let mut b = FunctionBuilder::new("big");
    let a = b.param("a");
    let cp = b.param("c");
    let entry = b.block("entry");
    b.switch_to(entry);
    let c = b.var("k");
    b.copy(
        c,
        if constant_cond {
            Operand::Const(1)
        } else {
            cp.into()
        },
    );
    let mut x = a;
    let mut prev = entry;
    for k in 0..N {
        let head = b.block(&format!("head{k}"));
        let l = b.block(&format!("l{k}"));
        let r = b.block(&format!("r{k}"));
        let join = b.block(&format!("join{k}"));
        b.switch_to(prev);
        b.jump(head);
        b.switch_to(head);
        b.branch(c.into(), l, r);
        b.switch_to(l);
        let y = b.var(&format!("y{k}"));
        b.copy(y, x.into());
        b.jump(join);
        b.switch_to(r);
        b.jump(join);
        b.switch_to(join);
        let nx = b.var(&format!("x{k}"));
        b.phi(
            nx,
            &[
                PhiArg {
                    block: l,
                    value: y.into(),
                },
                PhiArg {
                    block: r,
                    value: x.into(),
                },
            ],
        );
        x = nx;
        prev = join;
    }
    b.switch_to(prev);
    b.ret(Some(x.into()));
    b.finish()
}

/// Runs `passes` on `f` and verifies the result. Pass by pass, not through
/// `run_passes`, which in debug builds verifies after every pass: the
/// verifier's minimality check computes one DF⁺ per phi web, each walking a
/// dominator subtree, which is quadratic on a chain of 50 000 phis.
fn run(f: &mut Function, passes: &str) -> opt::Stats {
    let mut stats = opt::Stats::default();
    for p in Pass::parse(passes).unwrap() {
        let t = Instant::now();
        stats.add(&p.run(f).unwrap());
        eprintln!("{p}: {:?}", t.elapsed());
    }
    if let Err(e) = ssakit::verify::verify(f) {
        panic!("{passes}: invalid SSA: {:?}", &e[..e.len().min(5)]);
    }
    stats
}

#[test]
fn copy_prop_collapses_a_long_chain_of_trivial_phis() {
    let mut f = diamonds(false);
    let s = run(&mut f, "copy-prop");
    assert_eq!((s.copies_propagated, s.phis_simplified), (N + 1, N));
    let mut ret = Vec::new();
    f.for_each_term_operand(*f.layout().last().unwrap(), |o| ret.push(o));
    assert_eq!(ret, [Operand::Var(f.params()[0])]);
}

#[test]
fn const_prop_folds_every_branch() {
    let mut f = diamonds(true);
    // Copy propagation then removes the phis const-prop leaves with one
    // operand, which keeps the final verification fast.
    let s = run(&mut f, "const-prop,copy-prop");
    assert_eq!((s.branches_folded, s.blocks_removed), (N, N));
    assert_eq!(s.phis_simplified, N);
}

#[test]
fn dce_removes_a_long_dead_chain() {
    let mut f = diamonds(false);
    // Return the parameter instead: every phi and copy is dead.
    let last = *f.layout().last().unwrap();
    let ret = f.ret_term(&[f.params()[0].into()]);
    f.set_term(last, ret);
    let s = run(&mut f, "dce");
    assert_eq!((s.phis_removed, s.insts_removed), (N, N));
}

/// 20 000 loops nested in one another, and one variable none of them
/// changes: minimal SSA gives each loop header a phi reading the enclosing
/// loop's phi on entry and the inner loop's on the back edge. Only the
/// innermost is trivial at first; forwarding it makes the next one out
/// trivial, and so on: the worklist must not rescan what it already
/// resolved.
///
/// ```text
///  header_k: x_k = phi(header_{k-1}: x_{k-1}, latch_k: x_{k+1})
///  latch_k:  branch c, header_k, latch_{k-1}
/// ```
fn loop_nest(depth: usize) -> Function {
    let mut b = FunctionBuilder::new("nest");
    let a = b.param("a");
    let c = b.param("c");
    let entry = b.block("entry");
    let headers: Vec<_> = (0..depth).map(|k| b.block(&format!("header{k}"))).collect();
    let latches: Vec<_> = (0..depth).map(|k| b.block(&format!("latch{k}"))).collect();
    let exit = b.block("exit");
    let xs: Vec<_> = (0..depth).map(|k| b.var(&format!("x{k}"))).collect();
    b.switch_to(entry);
    b.jump(headers[0]);
    for k in 0..depth {
        b.switch_to(headers[k]);
        let (pre, outer) = if k == 0 {
            (entry, a)
        } else {
            (headers[k - 1], xs[k - 1])
        };
        let inner = if k + 1 < depth { xs[k + 1] } else { xs[k] };
        b.phi(
            xs[k],
            &[
                PhiArg {
                    block: pre,
                    value: outer.into(),
                },
                PhiArg {
                    block: latches[k],
                    value: inner.into(),
                },
            ],
        );
        b.jump(if k + 1 < depth {
            headers[k + 1]
        } else {
            latches[k]
        });
        b.switch_to(latches[k]);
        let out = if k == 0 { exit } else { latches[k - 1] };
        b.branch(c.into(), headers[k], out);
    }
    b.switch_to(exit);
    b.ret(Some(xs[0].into()));
    b.finish()
}

#[test]
fn copy_prop_unwinds_a_deep_loop_nest() {
    assert!(ssakit::verify::verify(&loop_nest(50)).is_ok());
    // (20 000 variables live across 40 000 blocks would make the
    // verifier's liveness slow on the input; the output has no phi.)
    let mut f = loop_nest(20_000);
    let s = run(&mut f, "copy-prop");
    assert_eq!(s.phis_simplified, 20_000);
    let exit = f.block_by_name("exit").unwrap();
    let mut ret = Vec::new();
    f.for_each_term_operand(exit, |o| ret.push(o));
    assert_eq!(ret, [Operand::Var(f.params()[0])]);
}
