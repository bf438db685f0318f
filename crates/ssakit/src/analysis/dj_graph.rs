//! The DJ-graph: the dominator tree (D-edges) plus the join edges (J-edges).
//!
//! Chapter 13, section 13.2 (after Sreedhar and Gao, "A Linear Time Algorithm
//! for Placing φ-nodes", POPL 1995). Its skeleton is the dominator tree, whose
//! edges `idom(b) → b` are the *D-edges*; it is augmented with the *J-edges*,
//! the CFG edges `(a, b)` whose source `a` does not strictly dominate their
//! target `b`. A CFG edge that is not a J-edge is a D-edge: if `a → b` and `a`
//! strictly dominates `b`, then `a = idom(b)`, because on an entry→`a` path
//! followed by the edge no other node can stand between `a` and `b`.
//!
//! For every J-edge `(a, b)`, `a` and each of its dominator-tree ancestors
//! that do not strictly dominate `b` have `b` in their dominance frontier:
//! that is the DF_all algorithm of [`super::frontier`], and the linear-time
//! iterated frontier of [`super::idf`] walks this graph.
//!
//! Edges leaving unreachable nodes are not in the graph. Multi-edges give one
//! J-edge; a self loop `(a, a)` is a J-edge (nothing strictly dominates
//! itself).

use super::domtree::DomTree;
use super::graph::Graph;
use crate::ir::Block;
#[cfg(test)]
use std::fmt::Write;

/// D-edges and J-edges of a graph.
///
/// Invariant: `j_succs(a)` is sorted, without duplicates, empty for
/// unreachable `a`, and `(a, b)` is in it iff `a → b` is a CFG edge with `a`
/// reachable and `a` not strictly dominating `b`.
///
/// # Example
/// ```
/// use ssakit::analysis::{CsrGraph, DjGraph, DomTree};
/// use ssakit::ir::Block;
/// let b = Block::new;
/// // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
/// let edges = [
///     (0, 1),
///     (1, 2),
///     (1, 3),
///     (2, 4),
///     (3, 4),
///     (3, 5),
///     (4, 5),
///     (4, 1),
/// ];
/// let g = CsrGraph::from_edges(6, b(0), &edges);
/// let dj = DjGraph::new(&g, DomTree::new(&g));
/// assert_eq!(dj.d_succs(b(1)), &[b(2), b(3), b(4), b(5)]); // A's tree children
/// assert_eq!(dj.j_succs(b(4)), &[b(1), b(5)]); // D -J-> A, D -J-> E
/// ```
#[derive(Clone, Debug)]
pub struct DjGraph {
    tree: DomTree,
    j_start: Vec<u32>,
    j_succ: Vec<Block>,
}

impl DjGraph {
    /// Builds the DJ-graph of `g` on its dominator tree `tree`.
    ///
    /// # Preconditions
    /// `tree` is the dominator tree of `g`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DjGraph, DomTree};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // A self loop is a J-edge; 0 → 1 is a D-edge.
    /// let g = CsrGraph::from_edges(2, b(0), &[(0, 1), (1, 1)]);
    /// let dj = DjGraph::new(&g, DomTree::new(&g));
    /// assert_eq!(dj.d_succs(b(0)), &[b(1)]);
    /// assert_eq!(dj.j_succs(b(1)), &[b(1)]);
    /// ```
    pub fn new<G: Graph + ?Sized>(g: &G, tree: DomTree) -> DjGraph {
        let n = g.num_nodes();
        let mut j_start = Vec::with_capacity(n + 1);
        let mut j_succ = Vec::new();
        for a in (0..n).map(Block::new) {
            j_start.push(j_succ.len() as u32);
            if !tree.is_reachable(a) {
                continue;
            }
            let first = j_succ.len();
            for &b in g.succs(a) {
                if !tree.strictly_dominates(a, b) {
                    j_succ.push(b);
                }
            }
            j_succ[first..].sort_unstable();
            dedup_tail(&mut j_succ, first);
        }
        j_start.push(j_succ.len() as u32);
        DjGraph {
            tree,
            j_start,
            j_succ,
        }
    }

    /// The dominator tree, whose edges are the D-edges.
    pub(crate) fn dom_tree(&self) -> &DomTree {
        &self.tree
    }

    /// The D-edge targets of `a`: its dominator-tree children.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DjGraph, DomTree};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → 1 → 2 and 0 → 2: 2's D-edge comes from 0, its idom.
    /// let g = CsrGraph::from_edges(3, b(0), &[(0, 1), (1, 2), (0, 2)]);
    /// let dj = DjGraph::new(&g, DomTree::new(&g));
    /// assert_eq!(dj.d_succs(b(0)), &[b(1), b(2)]);
    /// assert!(dj.d_succs(b(1)).is_empty());
    /// ```
    pub fn d_succs(&self, a: Block) -> &[Block] {
        self.tree.children(a)
    }

    /// The J-edge targets of `a`, sorted.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DjGraph, DomTree};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → 1 → 2 and 0 → 2: 1 → 2 is a J-edge (1 does not dominate 2).
    /// let g = CsrGraph::from_edges(3, b(0), &[(0, 1), (1, 2), (0, 2)]);
    /// let dj = DjGraph::new(&g, DomTree::new(&g));
    /// assert_eq!(dj.j_succs(b(1)), &[b(2)]);
    /// assert!(dj.j_succs(b(0)).is_empty());
    /// ```
    pub fn j_succs(&self, a: Block) -> &[Block] {
        &self.j_succ[self.j_start[a.index()] as usize..self.j_start[a.index() + 1] as usize]
    }

    /// Number of J-edges.
    #[cfg(test)]
    pub(crate) fn num_j_edges(&self) -> usize {
        self.j_succ.len()
    }

    /// A text rendering: one line per edge, `a -D-> b` for every D-edge then
    /// `a -J-> b` for every J-edge, by source then target in the order
    /// `order` gives (which should list every reachable node once), nodes
    /// named by `name`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DjGraph, DomTree};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// let g = CsrGraph::from_edges(3, b(0), &[(0, 1), (1, 2), (2, 1)]);
    /// let dj = DjGraph::new(&g, DomTree::new(&g));
    /// let text = dj.render(&[b(0), b(1), b(2)], |x| format!("n{}", x.index()));
    /// assert_eq!(text, "n0 -D-> n1\nn1 -D-> n2\nn2 -J-> n1\n");
    /// ```
    #[cfg(test)]
    pub(crate) fn render(&self, order: &[Block], name: impl Fn(Block) -> String) -> String {
        let mut out = String::new();
        let mut pos = vec![u32::MAX; self.tree.num_nodes()];
        for (i, &b) in order.iter().enumerate() {
            pos[b.index()] = i as u32;
        }
        let sorted = |s: &[Block]| {
            let mut v = s.to_vec();
            v.sort_by_key(|b| (pos[b.index()], b.as_u32()));
            v
        };
        for &a in order {
            for b in sorted(self.d_succs(a)) {
                let _ = writeln!(out, "{} -D-> {}", name(a), name(b));
            }
        }
        for &a in order {
            for b in sorted(self.j_succs(a)) {
                let _ = writeln!(out, "{} -J-> {}", name(a), name(b));
            }
        }
        out
    }
}

/// Removes adjacent duplicates from `v[first..]`, in place.
fn dedup_tail(v: &mut Vec<Block>, first: usize) {
    let mut w = first;
    for r in first..v.len() {
        if w == first || v[w - 1] != v[r] {
            v[w] = v[r];
            w += 1;
        }
    }
    v.truncate(w);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::graph::CsrGraph;

    #[test]
    fn loop_with_multi_edge_and_self_loop() {
        // 0 → 1, 1 ⇒ 2 (twice), 2 → 1, 2 → 2, 3 → 1 (3 unreachable)
        let g = CsrGraph::from_edges(
            4,
            Block::from_u32(0),
            &[(0, 1), (1, 2), (1, 2), (2, 1), (2, 2), (3, 1)],
        );
        let dj = DjGraph::new(&g, DomTree::new(&g));
        assert_eq!(dj.d_succs(Block::from_u32(1)), &[Block::from_u32(2)]);
        assert_eq!(dj.j_succs(Block::from_u32(1)), &[] as &[Block]);
        assert_eq!(
            dj.j_succs(Block::from_u32(2)),
            &[Block::from_u32(1), Block::from_u32(2)]
        );
        assert_eq!(dj.j_succs(Block::from_u32(3)), &[] as &[Block]);
        assert_eq!(dj.num_j_edges(), 2);
        let order = [Block::from_u32(0), Block::from_u32(1), Block::from_u32(2)];
        assert_eq!(
            dj.render(&order, |b| format!("n{}", b.as_u32())),
            "n0 -D-> n1\nn1 -D-> n2\nn2 -J-> n1\nn2 -J-> n2\n"
        );
    }
}
