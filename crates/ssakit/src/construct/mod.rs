//! SSA construction (chapter, sections 13.1 to 13.5): phi insertion at
//! iterated dominance frontiers, then renaming along the dominator tree.
//!
//! The driver [`construct`] reads as the chapter's two phases:
//!
//! 1. [`prepare`](mod@prepare): give the entry no predecessors, drop unreachable blocks;
//! 2. CFG, dominator tree ([`DomTree`]), dominance frontiers
//!    ([`DominanceFrontiers`], DF_all, for the worklist) and, for pruned SSA,
//!    liveness;
//! 3. [`phi_insert`]: phis at DF⁺(Defs(v)), by the chapter's worklist with
//!    sets W and F ([`Idf::Worklist`]) or by the linear Sreedhar–Gao method
//!    ([`Idf::Linear`], the default: DF sets are quadratic on ladders);
//! 4. `rename`: versions by a preorder walk of the dominator tree with one
//!    `reachingDef` slot per variable (or the classic stacks).
//!
//! Both phases report their steps to one observer (`observe`): `()` for
//! [`construct`], the trace's for [`construct_traced`].
//!
//! The result is minimal (by default), conventional, and has the dominance
//! property; [`crate::verify`] checks all three.

pub(crate) mod observe;
pub mod options;
pub mod phi_insert;
pub mod prepare;
pub(crate) mod rename;
pub mod trace;

pub use options::{Flavor, Idf, Options, Renaming, UndefMode};
#[cfg(test)]
pub(crate) use prepare::prepare;
pub use prepare::Prepared;
pub(crate) use rename::RenameStats;
pub use trace::Trace;

use crate::analysis::{DomTree, DominanceFrontiers, VarLiveness};
use crate::error::IrError;
use crate::ir::{Cfg, Function, Module};
use crate::timing;

/// What construction did.
///
/// ```
/// use ssakit::construct::{construct, Options};
/// // The entry is a loop header: preparation adds a fresh entry block.
/// const SRC: &str = "function f(n) {
/// h:
///     i = add(i, 1)
///     branch n, h, x
/// x:
///     ret i
/// }";
/// let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// let stats = construct(&mut f, &Options::default()).unwrap();
/// assert!(stats.prepared.new_entry.is_some());
/// assert_eq!(stats.phis, 1);
/// assert_eq!(stats.rename.undef_uses, 1); // `i` before its first assignment
/// ```
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Preparation changes.
    pub prepared: Prepared,
    /// Phis inserted.
    pub phis: usize,
    /// Renaming counts.
    pub rename: RenameStats,
}

/// Puts `func` into SSA form.
///
/// # Example
///
/// The chapter's running example into minimal SSA: phis for `x`, `y` and
/// `tmp` at DF⁺ of their definitions, {A, D, E}.
///
/// ```
/// use ssakit::construct::{construct, Options};
/// const SEED: &str = "function main(p, q) {
/// r:
///     jump A
/// A:
///     branch p, B, C
/// B:
///     y = 0
///     x = 0
///     jump D
/// C:
///     tmp = x
///     x = y
///     y = tmp
///     branch q, D, E
/// D:
///     x = f(x, y)
///     branch q, E, A
/// E:
///     ret x
/// }
/// ";
/// let mut m = ssakit::text::parse_module(SEED).unwrap();
/// let stats = construct(&mut m.functions[0], &Options::default()).unwrap();
/// assert_eq!(stats.phis, 9);
/// let text = ssakit::text::print_module(&m);
/// assert!(text.contains("x6 = phi(C: x3, D: x5)"));
/// ```
pub fn construct(func: &mut Function, opts: &Options) -> Result<Stats, IrError> {
    construct_impl(func, opts, None, &mut |_| {}).map(|(s, _)| s)
}

/// Puts `func` into SSA form, recording the trace of the variable named
/// `var` (an error if there is none).
///
/// ```
/// use ssakit::construct::{construct_traced, Options};
/// const SRC: &str = "function f(c) {
/// e:
///     branch c, t, j
/// t:
///     x = 1
///     jump j
/// j:
///     ret x
/// }";
/// let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// let (stats, trace) = construct_traced(&mut f, &Options::default(), "x").unwrap();
/// assert_eq!((stats.phis, trace.insert.len()), (1, 2));
/// assert!(trace.render(&f).contains("Phi insertion for x: Defs(x) = {t}"));
/// assert!(construct_traced(&mut f, &Options::default(), "nope").is_err());
/// ```
pub fn construct_traced(
    func: &mut Function,
    opts: &Options,
    var: &str,
) -> Result<(Stats, Trace), IrError> {
    let Some(v) = func.var_by_name(var) else {
        return Err(IrError::new(
            func,
            None,
            None,
            format!("no variable named `{}`", var.escape_debug()),
        )
        .with_kind(crate::error::ErrorKind::Options));
    };
    let (s, t) = construct_impl(func, opts, Some(v), &mut |_| {})?;
    Ok((s, t.expect("tracing was requested")))
}

/// Puts `func` into SSA form as [`construct`] does (as
/// [`construct_traced`] when `var` names a variable), calling
/// `after_phis` with the function between the two phases: phis inserted
/// (`x = phi(A: x, B: x)`, every name still the original), nothing
/// renamed yet. `ssakit explain` shows that state.
///
/// ```
/// use ssakit::construct::{construct_observed, Options};
/// let mut f = ssakit::text::parse_module("function f(c) {
/// e:
///     x = 1
///     branch c, t, j
/// t:
///     x = 2
///     jump j
/// j:
///     ret x
/// }").unwrap().functions.remove(0);
/// let mut between = String::new();
/// construct_observed(&mut f, &Options::default(), None, &mut |g| {
///     between = ssakit::text::print_function(g);
/// }).unwrap();
/// assert!(between.contains("x = phi(e: x, t: x)")); // inserted, not yet renamed
/// assert!(ssakit::text::print_function(&f).contains("x3 = phi(e: x1, t: x2)"));
/// ```
pub fn construct_observed(
    func: &mut Function,
    opts: &Options,
    var: Option<&str>,
    after_phis: &mut dyn FnMut(&Function),
) -> Result<(Stats, Option<Trace>), IrError> {
    let v = match var {
        None => None,
        Some(name) => Some(func.var_by_name(name).ok_or_else(|| {
            IrError::new(
                func,
                None,
                None,
                format!("no variable named `{}`", name.escape_debug()),
            )
            .with_kind(crate::error::ErrorKind::Options)
        })?),
    };
    construct_impl(func, opts, v, after_phis)
}

/// Puts every function of a module into SSA form.
///
/// ```
/// use ssakit::construct::{construct_module, Options};
/// let mut m = ssakit::text::parse_module("function f() {
/// e:
///     x = 1
///     x = 2
///     ret x
/// }
/// function g() {
/// e:
///     y = 1
///     ret y
/// }").unwrap();
/// let stats = construct_module(&mut m, &Options::default()).unwrap();
/// assert_eq!(stats.len(), 2);
/// assert_eq!(stats[0].rename.versions, 2);
/// ```
pub fn construct_module(m: &mut Module, opts: &Options) -> Result<Vec<Stats>, IrError> {
    m.functions.iter_mut().map(|f| construct(f, opts)).collect()
}

fn construct_impl(
    func: &mut Function,
    opts: &Options,
    trace_var: Option<crate::ir::Var>,
    after_phis: &mut dyn FnMut(&Function),
) -> Result<(Stats, Option<Trace>), IrError> {
    // A version records its original in 28 bits: a function of more
    // variables is refused here, as input, not left to a panic.
    if func.num_vars() > Function::MAX_ORIGINALS {
        return Err(IrError::new(
            func,
            None,
            None,
            format!(
                "{} variables: SSA construction takes at most {} (2^28)",
                func.num_vars(),
                Function::MAX_ORIGINALS
            ),
        ));
    }
    // Preparation in two halves around the dominator tree, whose search
    // already finds the unreachable blocks: in the usual case (none) the
    // graph and the tree are built once.
    let mut prepared = {
        let _t = timing::phase("prepare");
        prepare::fresh_entry(func)?
    };
    let mut cfg = {
        let _t = timing::phase("cfg");
        Cfg::new(func)
    };
    let mut dt = {
        let _t = timing::phase("dominators");
        DomTree::new(&cfg)
    };
    if dt.num_reachable() < func.layout().len() {
        let _t = timing::phase("unreachable blocks");
        prepared.removed_unreachable = prepare::drop_unreachable(func, &dt);
        cfg = Cfg::new(func);
        dt = DomTree::new(&cfg);
    }
    // DF_all only for the chapter's worklist on every variable: the trace
    // computes the frontiers its variable's worklist takes, on demand.
    let use_worklist = opts.idf == Idf::Worklist;
    let df = use_worklist.then(|| {
        let _t = timing::phase("frontiers");
        DominanceFrontiers::new(&cfg, &dt)
    });
    let liveness = (opts.flavor == Flavor::Pruned).then(|| {
        let _t = timing::phase("liveness");
        VarLiveness::new(func, &cfg)
    });
    let mut trace = trace_var.map(|v| Trace {
        var: func.base_name(v).to_string(),
        defs: phi_insert::DefBlocks::new(func).of(v).to_vec(),
        preorder: dt.preorder().collect(),
        ..Default::default()
    });
    let idf = match &df {
        Some(df) => phi_insert::IdfMethod::Worklist(df),
        None => phi_insert::IdfMethod::Linear(&dt),
    };
    let ins = phi_insert::PhiInsertion {
        cfg: &cfg,
        idf,
        flavor: opts.flavor,
        liveness: liveness.map(std::cell::RefCell::new),
    };
    // Both phases report to one observer: the trace's, or `()`.
    let mut observer = trace_var.map(trace::TraceObserver::new);
    let phis = {
        let _t = timing::phase("phi insertion");
        match &mut observer {
            Some(o) => ins.run(func, o),
            None => ins.run(func, &mut ()),
        }
    };
    // Liveness, the frontiers and phi insertion's tables are not needed
    // by renaming, whose version tables make the peak of construction's
    // memory: freed before it starts (13 MB of 158 on a phi-dense
    // 10k-block program, issue 44).
    drop(ins);
    drop(df);
    after_phis(func);
    let _t = timing::phase("renaming");
    let (rename, climbs) = match (opts.renaming, observer.as_mut()) {
        (Renaming::ReachingDef, None) => {
            let chains = rename::ReachingDefChains::new(&dt, func.num_vars(), None);
            let s = rename::Renamer::new(chains, (), opts.undef).run(func, &cfg, &dt);
            (s, None)
        }
        (Renaming::ReachingDef, Some(o)) => {
            let chains = rename::ReachingDefChains::new(&dt, func.num_vars(), trace_var);
            let mut renamer = rename::Renamer::new(chains, o, opts.undef);
            let s = renamer.run(func, &cfg, &dt);
            (s, renamer.into_parts().0.into_climbs())
        }
        (Renaming::Stacks, _) => {
            // The renaming table needs the chains' climbs: by stacks, the
            // trace shows phi insertion only.
            let stacks = rename::VersionStacks::new(func.num_vars());
            let s = rename::Renamer::new(stacks, (), opts.undef).run(func, &cfg, &dt);
            (s, None)
        }
    };
    if let (Some(tr), Some(o)) = (trace.as_mut(), observer) {
        (tr.insert, tr.rename) = o.into_rows(climbs);
    }
    Ok((
        Stats {
            prepared,
            phis,
            rename,
        },
        trace,
    ))
}
