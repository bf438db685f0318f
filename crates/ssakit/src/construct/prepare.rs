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

use crate::analysis::DepthFirst;
use crate::error::IrError;
use crate::ir::{Block, Cfg, Function, Terminator};

/// What preparation changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prepared {
    /// The fresh entry block, if one was added.
    pub new_entry: Option<Block>,
    /// Blocks dropped because no path from the entry reaches them.
    pub removed_unreachable: Vec<Block>,
}

/// Gives `func` an entry without predecessors and drops unreachable blocks.
/// Fails (without changing `func`) if the function already has phis.
pub fn prepare(func: &mut Function) -> Result<Prepared, IrError> {
    for &b in &func.layout {
        if let Some(&i) = func.blocks[b].phis.first() {
            return Err(IrError::new(
                func,
                Some(b),
                Some(i),
                "this program already has phis: construction expects a program not in SSA form",
            ));
        }
    }
    let mut out = Prepared::default();
    let cfg = Cfg::new(func);
    if !cfg.preds(func.entry()).is_empty() {
        let old = func.entry();
        let name = fresh_label(func, "entry");
        let nb = func.new_block(&name);
        func.blocks[nb].term = Terminator::Jump(old);
        func.layout.pop();
        func.layout.insert(0, nb);
        out.new_entry = Some(nb);
    }
    let cfg = Cfg::new(func);
    let dfs = DepthFirst::new(&cfg);
    if dfs.num_reachable() < func.layout.len() {
        out.removed_unreachable = func
            .layout
            .iter()
            .copied()
            .filter(|&b| !dfs.is_reachable(b))
            .collect();
        func.layout.retain(|&b| dfs.is_reachable(b));
    }
    Ok(out)
}

/// A label starting with `base` that no block of `func` has: `base`, then
/// `base.1`, `base.2`, ...
pub fn fresh_label(func: &Function, base: &str) -> String {
    let taken = |n: &str| func.blocks.values().any(|b| &*b.name == n);
    if !taken(base) {
        return base.to_string();
    }
    (1..)
        .map(|k| format!("{base}.{k}"))
        .find(|n| !taken(n))
        .expect("some label is free")
}
