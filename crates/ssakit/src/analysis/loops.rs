//! Loop nesting depth of every block, from natural loops.
//!
//! An edge `t → h` is a *back edge* when `h` dominates `t`; the *natural
//! loop* of a header `h` is `h` plus every block that reaches one of its
//! back-edge sources without passing through `h` (Aho, Lam, Sethi and
//! Ullman, "Compilers", section 9.6). Back edges sharing a header make one
//! loop. The *loop depth* of a block is the number of natural loops that
//! contain it: 0 outside any loop.
//!
//! Cycles without a dominating header (irreducible loops) have no back edge
//! in this sense and add no depth. The depth is a static estimate of how
//! often a block runs, used to coalesce the copies of inner loops first
//! ([`crate::destruct::coalesce()`]).

use super::{DomTree, Graph, StampSet};
use crate::entity::EntityVec;
use crate::ir::Block;

/// The loop depth of every node of `g` (0 for unreachable nodes).
///
/// Each loop body is found by a backward walk from its back-edge sources
/// that stops at the header, with an explicit stack, so the cost is the
/// total size of all loops: `O(blocks × maximum depth)` plus the edges.
///
/// # Preconditions
/// `dt` is the dominator tree of `g`.
pub fn loop_depth<G: Graph + ?Sized>(g: &G, dt: &DomTree) -> EntityVec<Block, u32> {
    let n = g.num_nodes();
    let mut depth: EntityVec<Block, u32> = EntityVec::filled(n, 0);
    let mut body = StampSet::new(n);
    let mut stack: Vec<Block> = Vec::new();
    for h in dt.preorder() {
        body.clear();
        body.insert(h.index());
        // Back edges `t → h`: their sources start the walk (a self loop
        // `h → h` is a back edge whose body is `h` alone).
        let mut header = false;
        for &t in g.preds(h) {
            if dt.dominates(h, t) {
                header = true;
                if body.insert(t.index()) {
                    stack.push(t);
                }
            }
        }
        if !header {
            continue;
        }
        depth[h] += 1;
        while let Some(b) = stack.pop() {
            depth[b] += 1;
            for &p in g.preds(b) {
                if dt.is_reachable(p) && body.insert(p.index()) {
                    stack.push(p);
                }
            }
        }
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::CsrGraph;

    /// ```text
    ///      +-----------------+
    ///      v                 |     back edges: 4 → 1 (loop {1, 2, 3, 4}),
    /// 0 → 1 → 2 ⇄ 3 → 4 -----+     3 → 2 and the self loop 2 → 2
    ///         ↺                    (one loop {2, 3}: same header);
    ///                              node 5 is unreachable
    /// ```
    #[test]
    fn nested_loops_and_self_loops() {
        let edges = [(0, 1), (1, 2), (2, 2), (2, 3), (3, 2), (3, 4), (4, 1)];
        let g = CsrGraph::from_edges(6, Block(0), &edges);
        let dt = DomTree::new(&g);
        let d = loop_depth(&g, &dt);
        assert_eq!(d.as_slice(), &[0, 1, 2, 2, 1, 0]);
    }

    /// An irreducible cycle between 1 and 2 (both entered from 0) has no
    /// dominating header, so no depth.
    #[test]
    fn irreducible_cycle_has_no_depth() {
        let edges = [(0, 1), (0, 2), (1, 2), (2, 1)];
        let g = CsrGraph::from_edges(3, Block(0), &edges);
        let dt = DomTree::new(&g);
        assert_eq!(loop_depth(&g, &dt).as_slice(), &[0, 0, 0]);
    }
}
