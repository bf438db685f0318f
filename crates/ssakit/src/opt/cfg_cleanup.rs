//! Removing unreachable blocks and the phi operands of lost edges, after a
//! pass changed terminators (constant branch folding) or as part of dead
//! code elimination.
//!
//! A phi must have exactly one operand per distinct predecessor (the
//! verifier's check 2). When `branch c, T, F` becomes `jump T`, the block
//! stops being a predecessor of `F`, so every phi of `F` loses its operand
//! labelled by it; when a block becomes unreachable it leaves the layout,
//! and the phis of its former successors lose the operands it labelled.
//!
//! Removing an unreachable block never breaks SSA: a definition in it
//! dominates nothing reachable, so no reachable use (a phi operand counting
//! as a use at the end of its predecessor) can read it.

use crate::analysis::{DepthFirst, StampSet};
use crate::ir::{Cfg, Function, Terminator};

/// What [`cleanup_cfg`] removed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct CleanupStats {
    /// Blocks dropped from the layout because no path from the entry
    /// reaches them.
    pub(crate) blocks_removed: usize,
    /// Phi operands dropped because their label is no longer a predecessor.
    pub(crate) phi_operands_removed: usize,
    /// Instructions of removed blocks.
    pub(crate) insts_removed: usize,
}

/// Drops unreachable blocks from the layout (removing their instructions),
/// then drops every phi operand whose label is not a predecessor of the
/// phi's block, then compacts the instruction table.
///
/// # Preconditions
/// Terminators name blocks of the layout. Instruction numbers change (see
/// [`Function::compact`]).
pub(crate) fn cleanup_cfg(func: &mut Function) -> CleanupStats {
    let mut stats = CleanupStats::default();
    // Step 1: reachability from the entry, by an iterative depth-first
    // search (DepthFirst).
    let cfg = Cfg::new(func);
    let dfs = DepthFirst::new(&cfg);
    if dfs.num_reachable() < func.layout().len() {
        // Only blocks of the layout: one dropped earlier is already gone.
        let dead: Vec<_> = func
            .layout()
            .iter()
            .copied()
            .filter(|&b| !dfs.is_reachable(b))
            .collect();
        for b in dead {
            stats.insts_removed += func.take_phis(b).len() + func.take_insts(b).len();
            func.set_term(b, Terminator::ret_void());
            stats.blocks_removed += 1;
        }
        func.retain_layout(|&b| dfs.is_reachable(b));
    }
    // Step 2: phi operands labelled by a block that is no longer a
    // predecessor. The CFG is recomputed: removed blocks have no edges.
    let cfg = if stats.blocks_removed > 0 {
        Cfg::new(func)
    } else {
        cfg
    };
    let mut preds = StampSet::new(func.num_blocks());
    for k in 0..func.layout().len() {
        let b = func.layout()[k];
        if func.block_phis(b).is_empty() {
            continue;
        }
        preds.clear();
        for &p in cfg.preds(b) {
            preds.insert(p.index());
        }
        for j in 0..func.block_phis(b).len() {
            let i = func.block_phis(b)[j];
            func.edit_phi_args(i, |args, func| {
                let before = args.len();
                args.retain(func, |a| preds.contains(a.block.index()));
                stats.phi_operands_removed += before - args.len();
            });
        }
    }
    if stats.insts_removed > 0 {
        func.compact();
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{parse_module, print_function};

    #[test]
    fn unreachable_block_and_its_phi_operands_go() {
        let src = "function f(a) {
entry:
    jump join
dead:
    x = a + 1
    jump join
join:
    y = phi(entry: a, dead: x)
    ret y
}
";
        let mut f = parse_module(src).unwrap().functions.remove(0);
        let s = cleanup_cfg(&mut f);
        assert_eq!(s.blocks_removed, 1);
        assert_eq!(s.phi_operands_removed, 1);
        assert_eq!(s.insts_removed, 1);
        assert_eq!(
            print_function(&f),
            "function f(a) {
entry:
    jump join
join:
    y = phi(entry: a)
    ret y
}
"
        );
        assert!(crate::verify::verify(&f).is_ok());
    }
}
