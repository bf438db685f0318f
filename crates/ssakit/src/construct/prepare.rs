//! Preparing a function for SSA construction.
//!
//! Two facts the chapter takes for granted are made true here:
//! * the entry block `r` has no predecessors (section 13.2 assumes a
//!   definition of every variable at `r`; a loop back to `r` would need phis
//!   there). When it has some, a fresh entry block jumping to the old one is
//!   added in front of it;
//! * every block is reachable: dominance is undefined elsewhere. Blocks that
//!   cannot run are dropped from the layout.
//!
//! The input must not already contain phis: construction starts from a
//! program in which each variable may be assigned many times.

use crate::analysis::{DepthFirst, DomTree};
use crate::error::IrError;
#[cfg(test)]
use crate::ir::Cfg;
use crate::ir::{Block, Function, Terminator};

/// What preparation changed.
///
/// ```
/// use ssakit::construct::{construct, Options};
/// // `u` is unreachable and the entry `h` is a loop header.
/// let mut f = ssakit::text::parse_module(
///     "function f(c) {
/// h:
///     branch c, h, x
/// u:
///     jump x
/// x:
///     ret
/// }",
/// )
/// .unwrap()
/// .functions
/// .remove(0);
/// let u = f.block_by_name("u").unwrap();
/// let prepared = construct(&mut f, &Options::default()).unwrap().prepared;
/// assert_eq!(prepared.removed_unreachable, [u]);
/// assert_eq!(prepared.new_entry, Some(f.entry()));
/// assert_eq!(f.block_name(f.entry()), "entry");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prepared {
    /// The fresh entry block, if one was added.
    pub new_entry: Option<Block>,
    /// Blocks dropped because no path from the entry reaches them.
    pub removed_unreachable: Vec<Block>,
}

/// Gives `func` an entry without predecessors and drops unreachable blocks.
/// Fails (without changing `func`) if the function already has phis.
///
/// ```
/// use ssakit::construct::prepare;
/// let src = "function f(c) {\ne:\n    jump h\nh:\n    x = phi(e: c, h: x)\n    branch x, h, d\nd:\n    ret\n}";
/// let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let err = prepare(&mut f).unwrap_err();
/// assert!(err.to_string().contains("already has phis"));
/// ```
#[cfg(test)]
pub(crate) fn prepare(func: &mut Function) -> Result<Prepared, IrError> {
    let mut out = fresh_entry(func)?;
    let cfg = Cfg::new(func);
    out.removed_unreachable = drop_unreachable(func, &DepthFirst::new(&cfg));
    Ok(out)
}

/// The first half of [`prepare`]: refuses a function with phis and gives
/// the entry block no predecessors. Costs one look at each block's first
/// phi and terminator; builds no graph.
pub(crate) fn fresh_entry(func: &mut Function) -> Result<Prepared, IrError> {
    let mut entry_has_preds = false;
    let entry = func.entry();
    for &b in func.layout() {
        if let Some(&i) = func.block_phis(b).first() {
            return Err(IrError::new(
                func,
                Some(b),
                Some(i),
                "this program already has phis: construction expects a program not in SSA form",
            ));
        }
        func.for_each_succ(b, |s| entry_has_preds |= s == entry);
    }
    let mut out = Prepared::default();
    if entry_has_preds {
        let name = fresh_label(func, "entry");
        let nb = func.create_block(&name);
        func.set_term(nb, Terminator::Jump(entry));
        func.insert_entry(nb);
        out.new_entry = Some(nb);
    }
    Ok(out)
}

/// The second half of [`prepare`]: drops from the layout the blocks that
/// `reach` (any analysis that knows reachability from the entry: a
/// depth-first search, or the dominator tree construction already needs)
/// says no path from the entry reaches, and returns them.
pub(crate) fn drop_unreachable(func: &mut Function, reach: &impl Reachability) -> Vec<Block> {
    if reach.num_reachable() == func.layout().len() {
        return Vec::new();
    }
    let removed = func
        .layout()
        .iter()
        .copied()
        .filter(|&b| !reach.is_reachable(b))
        .collect();
    func.retain_layout(|&b| reach.is_reachable(b));
    removed
}

/// What [`drop_unreachable`] needs to know.
pub(crate) trait Reachability {
    /// How many blocks the entry reaches.
    fn num_reachable(&self) -> usize;
    /// Whether the entry reaches `b`.
    fn is_reachable(&self, b: Block) -> bool;
}

impl Reachability for DepthFirst {
    fn num_reachable(&self) -> usize {
        DepthFirst::num_reachable(self)
    }
    fn is_reachable(&self, b: Block) -> bool {
        DepthFirst::is_reachable(self, b)
    }
}

impl Reachability for DomTree {
    fn num_reachable(&self) -> usize {
        DomTree::num_reachable(self)
    }
    fn is_reachable(&self, b: Block) -> bool {
        DomTree::is_reachable(self, b)
    }
}

/// A label starting with `base` that no block of `func` has: `base`, then
/// `base.1`, `base.2`, ...
pub(crate) fn fresh_label(func: &Function, base: &str) -> String {
    let taken = |n: &str| func.blocks().any(|b| func.block_name(b) == n);
    if !taken(base) {
        return base.to_string();
    }
    (1..)
        .map(|k| format!("{base}.{k}"))
        .find(|n| !taken(n))
        .expect("some label is free")
}
