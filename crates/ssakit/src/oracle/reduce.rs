//! A delta-debugging reducer: shrink a program while the oracle still fails
//! at the same stage.
//!
//! Candidate simplifications, tried one at a time, kept when the failure
//! persists (Zeller and Hildebrandt 2002, simplified to one-at-a-time
//! removal until a fixpoint):
//! 1. delete one instruction;
//! 2. replace a terminator by `ret` of its operand, or a `branch`/`switch`
//!    by a `jump` to one of its targets;
//! 3. replace an operand by the constant 0.
//!
//! Unreachable blocks are dropped from the layout after each step, and each
//! candidate is printed and parsed back, so it is a well-formed function.

use super::{check, print_alone, Mismatch, Plan};
use crate::analysis::DepthFirst;
use crate::ir::{Cfg, Function, Operand, Terminator};
use crate::text::parse_module;

/// Shrinks `func` while `check(func, plan)` fails at `first.stage` (a panic
/// counts as a failure). Returns the smallest failing program found and its
/// mismatch.
///
/// # Example
///
/// ```
/// # use ssakit::oracle::{check, reduce, Plan};
/// // A phi in the input makes the first construction fail: shrink that failure.
/// let src = "function f(c) {
/// e:
///     a = 1
///     b = 2
///     print a, b
///     branch c, l, j
/// l:
///     jump j
/// j:
///     x = phi(e: a, l: b)
///     ret x
/// }
/// ";
/// let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// let plan = Plan::rotating(0, vec![vec![1]]);
/// let first = check(f, &plan).unwrap_err();
/// let (small, m) = reduce(f, &plan, &first);
/// assert_eq!(m.stage, first.stage);
/// assert!(small.num_insts() < f.num_insts());
/// ```
pub fn reduce(func: &Function, plan: &Plan, first: &Mismatch) -> (Function, Mismatch) {
    reduce_by(func, first, |f| {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(f, plan)));
        match r {
            Ok(Err(m)) if m.stage == first.stage => Some(m),
            Ok(_) => None,
            Err(_) => Some(Mismatch {
                stage: first.stage.clone(),
                detail: "panic".into(),
                program: String::new(),
            }),
        }
    })
}

/// Shrinks `func` while `still_fails` returns a mismatch; `first` is the
/// mismatch of `func` itself.
///
/// # Example
///
/// ```
/// # use ssakit::oracle::{reduce_by, Mismatch};
/// # use ssakit::text::print_function;
/// // `f(n)` prints and returns 0 + 1 + ... + (n - 1), computed in a loop.
/// # let src = "function f(n) {
/// # e:
/// #     s = 0
/// #     i = 0
/// #     jump h
/// # h:
/// #     c = i < n
/// #     branch c, b, x
/// # b:
/// #     s = s + i
/// #     i = i + 1
/// #     jump h
/// # x:
/// #     print s
/// #     ret s
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// // A made-up failure: "the program prints something".
/// let prints = |g: &ssakit::ir::Function| {
///     print_function(g).contains("print").then(|| Mismatch {
///         stage: "prints".into(),
///         detail: String::new(),
///         program: print_function(g),
///     })
/// };
/// let first = prints(f).unwrap();
/// let (small, _) = reduce_by(f, &first, prints);
/// assert!(print_function(&small).contains("print"));
/// assert!(small.num_insts() < f.num_insts());
/// ```
pub fn reduce_by(
    func: &Function,
    first: &Mismatch,
    still_fails: impl Fn(&Function) -> Option<Mismatch>,
) -> (Function, Mismatch) {
    let mut best = func.clone();
    let mut mismatch = first.clone();
    loop {
        let mut progress = false;
        for cand in candidates(&best) {
            if let Some(m) = still_fails(&cand) {
                best = cand;
                mismatch = m;
                progress = true;
                break;
            }
        }
        if !progress {
            return (best, mismatch);
        }
    }
}

/// Every one-step simplification of `f`, smallest-effect last.
fn candidates(f: &Function) -> Vec<Function> {
    let mut out = Vec::new();
    for &b in f.layout() {
        // Terminators: to `ret`, or to a jump to each target.
        let term = f.term(b);
        let mut targets = Vec::new();
        f.for_each_succ(b, |s| targets.push(s));
        if !matches!(term, Terminator::Ret(_)) {
            let mut g = f.clone();
            let ret = g.ret_term(&[Operand::Const(0)]);
            g.set_term(b, ret);
            out.push(g);
        }
        if !matches!(term, Terminator::Jump(_)) {
            for &t in &targets {
                let mut g = f.clone();
                g.set_term(b, Terminator::Jump(t));
                out.push(g);
            }
        }
        // Instructions.
        for j in 0..f.block_insts(b).len() {
            let mut g = f.clone();
            let mut insts = g.take_insts(b);
            insts.remove(j);
            g.set_insts(b, &insts);
            out.push(g);
        }
        // Operands to 0.
        for &i in f.block_insts(b) {
            let mut n = 0;
            f.for_each_operand(i, |o| {
                if !matches!(o, Operand::Const(0)) {
                    n += 1
                }
            });
            for slot in 0..n {
                let mut g = f.clone();
                let mut seen = 0;
                g.for_each_operand_mut(i, |o| {
                    if !matches!(o, Operand::Const(0)) {
                        if seen == slot {
                            *o = Operand::Const(0);
                        }
                        seen += 1;
                    }
                });
                out.push(g);
            }
        }
    }
    out.into_iter().filter_map(tidy).collect()
}

/// Drops unreachable blocks, then prints and parses the function back so
/// that it is numbered as a parsed function is.
fn tidy(mut f: Function) -> Option<Function> {
    let cfg = Cfg::new(&f);
    let dfs = DepthFirst::new(&cfg);
    f.retain_layout(|&b| dfs.is_reachable(b));
    let m = parse_module(&print_alone(&f)).ok()?;
    m.functions.into_iter().next()
}
