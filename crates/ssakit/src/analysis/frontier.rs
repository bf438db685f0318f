//! Dominance frontiers, by the chapter's DF_all algorithm.
//!
//! Chapter 13, section 13.2. The *dominance frontier* DF(x) of a node `x` is
//! the set of nodes `y` such that `x` dominates a predecessor of `y` but does
//! not strictly dominate `y`: the places where the dominance of `x` ends, and
//! where a definition in `x` meets definitions from other paths.
//!
//! Section 13.2 reads the frontier off the DJ-graph: for each CFG edge
//! `(a, b)`, `a` and each ancestor of `a` in the dominator tree that does not
//! strictly dominate `b` has `b` in its frontier. Hence DF_all:
//!
//! ```text
//! DF_all(CFG):
//!     for each edge (a, b) in CFG do
//!         x := a
//!         while x does not strictly dominate b do
//!             DF(x) := DF(x) union {b}
//!             x := immediate_dominator(x)
//! ```
//!
//! (A D-edge `(idom(b), b)` adds nothing: its source strictly dominates its
//! target. The walk always stops: either at `idom(b)`, which strictly
//! dominates `b`, or, when `b` is the entry, after the entry itself.)
//!
//! Implementation notes. Edges are taken grouped by target (`b` in index
//! order, then its predecessors), so all insertions of one `b` are
//! consecutive; a stamp `last[x] == b` records that `b` is already in DF(x),
//! and since the walk from `x` upwards was then already done for this `b`, it
//! stops there too (Cooper–Harvey–Kennedy's runner trick). There are thus no
//! duplicates, and counting-sorting the `(x, b)` pairs by `x` (stably) leaves
//! each DF(x) sorted. Edges from unreachable nodes are skipped: dominance,
//! and so DF, is not defined for them, and DF of an unreachable node is empty.
//! Cost: O(edges + Σ|DF(x)|).

use super::domtree::DomTree;
use super::graph::Graph;
use super::postorder::NONE;
use crate::entity::Csr;
use crate::ir::Block;

/// The dominance frontier of every node, in compressed (CSR) form.
///
/// Invariant: `df(x)` is sorted by node index and duplicate-free; it is empty
/// for unreachable `x`, and only contains reachable nodes.
///
/// # Example
///
/// ```
/// use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers};
/// use ssakit::ir::Block;
/// let b = Block::new;
/// // A loop: 0 → 1 → 2 → 1, exit 1 → 3.
/// let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (1, 2), (2, 1), (1, 3)]);
/// let df = DominanceFrontiers::new(&g, &DomTree::new(&g));
/// assert_eq!(df.df(b(2)), &[b(1)]); // the back edge's source has the header
/// assert_eq!(df.df(b(1)), &[b(1)]); // and so has the header itself
/// assert!(df.df(b(3)).is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DominanceFrontiers {
    df: Csr<Block, Block>,
}

impl DominanceFrontiers {
    /// Computes DF(x) for every node `x` of `g` by DF_all.
    ///
    /// # Preconditions
    /// `tree` is the dominator tree of `g`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
    /// let edges = [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (4, 5), (4, 1)];
    /// let g = CsrGraph::from_edges(6, b(0), &edges);
    /// let df = DominanceFrontiers::new(&g, &DomTree::new(&g));
    /// assert_eq!(df.df(b(4)), &[b(1), b(5)]); // DF(D) = {A, E}
    /// assert_eq!(df.df(b(1)), &[b(1)]); // DF(A) = {A}
    /// ```
    pub fn new<G: Graph + ?Sized>(g: &G, tree: &DomTree) -> DominanceFrontiers {
        Self::within(g, tree, usize::MAX).expect("no bound on the frontiers' size")
    }

    /// [`Self::new`], or `None` as soon as Σ|DF(x)| exceeds `max`: the
    /// frontiers of a caller that only wants them when they are small (a
    /// ladder's are quadratic), for O(edges + max) time and memory.
    pub(crate) fn within<G: Graph + ?Sized>(
        g: &G,
        tree: &DomTree,
        max: usize,
    ) -> Option<DominanceFrontiers> {
        let n = g.num_nodes();
        // last[x] == b: b was already added to DF(x).
        let mut last = vec![NONE; n];
        // Σ|DF| is about the number of nodes on most graphs (at most `max`):
        // sized once rather than grown push by push.
        let mut pairs: Vec<(Block, Block)> = Vec::with_capacity(max.min(n));
        for b in (0..n).map(Block::new) {
            if !tree.is_reachable(b) {
                continue;
            }
            for &a in g.preds(b) {
                if !tree.is_reachable(a) {
                    continue; // an edge from an unreachable node
                }
                // DF_all: walk x from a up the idom chain.
                let mut x = Some(a);
                while let Some(xb) = x {
                    if tree.strictly_dominates(xb, b) || last[xb.index()] == b.as_u32() {
                        break;
                    }
                    last[xb.index()] = b.as_u32();
                    if pairs.len() == max {
                        return None;
                    }
                    pairs.push((xb, b));
                    x = tree.idom(xb);
                }
            }
        }
        Some(DominanceFrontiers {
            df: Csr::from_pairs(n, pairs),
        })
    }

    /// Number of nodes of the graph.
    pub(crate) fn num_nodes(&self) -> usize {
        self.df.num_keys()
    }

    /// DF(x), sorted by index.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // A diamond 0 → {1, 2} → 3.
    /// let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let df = DominanceFrontiers::new(&g, &DomTree::new(&g));
    /// assert_eq!(df.df(b(1)), &[b(3)]);
    /// assert_eq!(df.df(b(2)), &[b(3)]);
    /// assert!(df.df(b(0)).is_empty());
    /// ```
    #[inline]
    pub fn df(&self, x: Block) -> &[Block] {
        self.df.of(x)
    }

    /// Total size Σ|DF(x)|.
    #[cfg(test)]
    pub(crate) fn total_size(&self) -> usize {
        self.df.num_items()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::graph::CsrGraph;

    #[test]
    fn loop_entry_with_predecessor() {
        // 0 → 1 → 2 → 1, 2 → 0, 1 → 3, 4 → 3 (unreachable source)
        let g = CsrGraph::from_edges(
            5,
            Block::from_u32(0),
            &[(0, 1), (1, 2), (2, 1), (2, 0), (1, 3), (4, 3)],
        );
        let t = DomTree::new(&g);
        let df = DominanceFrontiers::new(&g, &t);
        assert_eq!(df.df(Block::from_u32(0)), &[Block::from_u32(0)]);
        assert_eq!(
            df.df(Block::from_u32(1)),
            &[Block::from_u32(0), Block::from_u32(1)]
        );
        assert_eq!(
            df.df(Block::from_u32(2)),
            &[Block::from_u32(0), Block::from_u32(1)]
        );
        assert_eq!(df.df(Block::from_u32(3)), &[] as &[Block]);
        assert_eq!(df.df(Block::from_u32(4)), &[] as &[Block]);
        assert_eq!(df.total_size(), 5);
    }
}
