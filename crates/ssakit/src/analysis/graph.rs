//! The graph interface the analyses run on.
//!
//! Every analysis of this module (postorder, dominator tree, DJ-graph,
//! dominance frontiers, iterated frontiers) only needs a directed graph with
//! dense node numbers, an entry node, and successor and predecessor lists.
//! [`Graph`] is that interface. It is implemented for the IR's [`Cfg`], and
//! [`CsrGraph`] builds one from a plain edge list, so a caller with its own IR
//! (or a test drawing random graphs) can use the analyses without building a
//! [`Function`](crate::ir::Function). As in regalloc2, client code comes in
//! through a trait over dense indices, not through our IR types.
//!
//! Conventions shared by every implementation:
//! * nodes are `Block(0) .. Block(num_nodes - 1)`;
//! * multi-edges are allowed: a node may appear several times in `succs(a)`,
//!   and then `a` appears as many times in `preds(b)`;
//! * self loops are allowed, and the entry may have predecessors;
//! * nodes not reachable from the entry are allowed; the analyses report
//!   them and never panic on them.

use crate::entity::Csr;
use crate::ir::{Block, Cfg};

/// A directed graph with dense node numbers and an entry node.
///
/// `succs` and `preds` must describe the same edge multiset: `b` appears `k`
/// times in `succs(a)` exactly when `a` appears `k` times in `preds(b)`.
///
/// # Example
///
/// ```
/// use ssakit::analysis::{DomTree, Graph};
/// use ssakit::ir::Block;
/// // A client's own CFG, as adjacency lists: 0 → 1 → 2 → 1.
/// struct MyCfg {
///     succs: Vec<Vec<Block>>,
///     preds: Vec<Vec<Block>>,
/// }
/// impl Graph for MyCfg {
///     fn num_nodes(&self) -> usize {
///         self.succs.len()
///     }
///     fn entry(&self) -> Block {
///         Block::new(0)
///     }
///     fn succs(&self, n: Block) -> &[Block] {
///         &self.succs[n.index()]
///     }
///     fn preds(&self, n: Block) -> &[Block] {
///         &self.preds[n.index()]
///     }
/// }
/// let b = Block::new;
/// let g = MyCfg {
///     succs: vec![vec![b(1)], vec![b(2)], vec![b(1)]],
///     preds: vec![vec![], vec![b(0), b(2)], vec![b(1)]],
/// };
/// assert_eq!(DomTree::new(&g).idom(b(2)), Some(b(1)));
/// ```
pub trait Graph {
    /// Number of nodes; nodes are `Block(0) .. Block(num_nodes - 1)`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, Graph};
    /// # use ssakit::ir::Block;
    /// let g = CsrGraph::from_edges(3, Block::new(0), &[(0, 1)]);
    /// assert_eq!(g.num_nodes(), 3); // node 2 has no edges, yet counts
    /// ```
    fn num_nodes(&self) -> usize;
    /// The entry node.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::Graph;
    /// let f = &ssakit::text::parse_module("function f() {\nstart:\n    ret\n}\n").unwrap().functions[0];
    /// let cfg = ssakit::ir::Cfg::new(f);
    /// assert_eq!(cfg.entry(), f.block_by_name("start").unwrap());
    /// ```
    fn entry(&self) -> Block;
    /// Successors of `n`, one per edge.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, Graph};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// let g = CsrGraph::from_edges(3, b(0), &[(0, 2), (0, 1), (1, 1)]);
    /// assert_eq!(g.succs(b(0)), &[b(2), b(1)]); // in edge order
    /// assert_eq!(g.succs(b(1)), &[b(1)]); // a self loop
    /// ```
    fn succs(&self, n: Block) -> &[Block];
    /// Predecessors of `n`, one per edge.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, Graph};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// let g = CsrGraph::from_edges(3, b(0), &[(0, 2), (1, 2), (0, 1)]);
    /// assert_eq!(g.preds(b(2)), &[b(0), b(1)]);
    /// assert!(g.preds(b(0)).is_empty());
    /// ```
    fn preds(&self, n: Block) -> &[Block];
}

impl Graph for Cfg {
    fn num_nodes(&self) -> usize {
        self.num_blocks()
    }
    fn entry(&self) -> Block {
        Cfg::entry(self)
    }
    fn succs(&self, n: Block) -> &[Block] {
        Cfg::succs(self, n)
    }
    fn preds(&self, n: Block) -> &[Block] {
        Cfg::preds(self, n)
    }
}

impl<G: Graph + ?Sized> Graph for &G {
    fn num_nodes(&self) -> usize {
        (**self).num_nodes()
    }
    fn entry(&self) -> Block {
        (**self).entry()
    }
    fn succs(&self, n: Block) -> &[Block] {
        (**self).succs(n)
    }
    fn preds(&self, n: Block) -> &[Block] {
        (**self).preds(n)
    }
}

/// The CFG of the chapter's running example (r = 0, A = 1, B = 2, C = 3,
/// D = 4, E = 5), as edges for [`CsrGraph::from_edges`]: the unit tests'
/// common small graph.
#[cfg(test)]
pub(crate) const CHAPTER_EDGES: [(u32, u32); 8] = [
    (0, 1),
    (1, 2),
    (1, 3),
    (2, 4),
    (3, 4),
    (3, 5),
    (4, 5),
    (4, 1),
];

/// A graph stored in compressed sparse row form, built from an edge list.
///
/// Successors of `a` are in edge-list order; predecessors of `b` are in
/// edge-list order of the edges entering `b`.
///
/// # Example
/// ```
/// use ssakit::analysis::{CsrGraph, Graph};
/// use ssakit::ir::Block;
/// // 0 -> 1 twice (a multi-edge), 1 -> 0
/// let g = CsrGraph::from_edges(2, Block::new(0), &[(0, 1), (0, 1), (1, 0)]);
/// assert_eq!(g.succs(Block::new(0)), &[Block::new(1), Block::new(1)]);
/// assert_eq!(g.preds(Block::new(1)), &[Block::new(0), Block::new(0)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsrGraph {
    entry: Block,
    succ: Csr<Block, Block>,
    pred: Csr<Block, Block>,
}

impl CsrGraph {
    /// Builds the graph with nodes `0 .. num_nodes`, entry `entry` and one
    /// edge per pair `(from, to)` of `edges` (duplicates make multi-edges).
    ///
    /// Panics if `entry` or an edge end is not below `num_nodes`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, Graph};
    /// # use ssakit::ir::Block;
    /// // The entry need not be node 0.
    /// let g = CsrGraph::from_edges(3, Block::new(2), &[(2, 0), (0, 1)]);
    /// assert_eq!(g.entry(), Block::new(2));
    /// assert_eq!(g.succs(Block::new(2)), &[Block::new(0)]);
    /// ```
    pub fn from_edges(num_nodes: usize, entry: Block, edges: &[(u32, u32)]) -> CsrGraph {
        assert!(entry.index() < num_nodes, "entry out of range");
        assert!(num_nodes < u32::MAX as usize && edges.len() < u32::MAX as usize);
        for &(a, b) in edges {
            assert!(
                (a as usize) < num_nodes && (b as usize) < num_nodes,
                "edge out of range"
            );
        }
        // Stable counting sorts by source, then by target.
        let edge = |&(a, b): &(u32, u32)| (Block::from_u32(a), Block::from_u32(b));
        let succ = Csr::from_pairs(num_nodes, edges.iter().map(edge));
        let pred = Csr::from_pairs(num_nodes, edges.iter().map(|e| (edge(e).1, edge(e).0)));
        CsrGraph { entry, succ, pred }
    }

    /// Copies any graph into CSR form (for instance to add a node to it).
    #[cfg(test)]
    pub(crate) fn from_graph<G: Graph + ?Sized>(g: &G) -> CsrGraph {
        CsrGraph::from_edges(g.num_nodes(), g.entry(), &edge_list(g))
    }

    /// Number of edges.
    #[cfg(test)]
    pub(crate) fn num_edges(&self) -> usize {
        self.succ.num_items()
    }
}

/// Every edge of `g` as a `(from, to)` pair, by source then successor order.
#[cfg(test)]
pub(crate) fn edge_list<G: Graph + ?Sized>(g: &G) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    for a in 0..g.num_nodes() {
        for &b in g.succs(Block::new(a)) {
            edges.push((a as u32, b.as_u32()));
        }
    }
    edges
}

impl Graph for CsrGraph {
    fn num_nodes(&self) -> usize {
        self.succ.num_keys()
    }
    fn entry(&self) -> Block {
        self.entry
    }
    #[inline]
    fn succs(&self, n: Block) -> &[Block] {
        self.succ.of(n)
    }
    #[inline]
    fn preds(&self, n: Block) -> &[Block] {
        self.pred.of(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_keeps_multi_edges_and_order() {
        let g = CsrGraph::from_edges(
            3,
            Block::from_u32(0),
            &[(0, 2), (0, 1), (0, 2), (2, 2), (1, 0)],
        );
        assert_eq!(g.num_nodes(), 3);
        assert_eq!(g.num_edges(), 5);
        assert_eq!(
            g.succs(Block::from_u32(0)),
            &[Block::from_u32(2), Block::from_u32(1), Block::from_u32(2)]
        );
        assert_eq!(
            g.preds(Block::from_u32(2)),
            &[Block::from_u32(0), Block::from_u32(0), Block::from_u32(2)]
        );
        assert_eq!(g.preds(Block::from_u32(0)), &[Block::from_u32(1)]);
        assert_eq!(CsrGraph::from_graph(&g), g);
    }
}
