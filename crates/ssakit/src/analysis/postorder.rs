//! Depth-first search from the entry: preorder, postorder, reverse
//! postorder, the DFS spanning tree and the reachable set.
//!
//! Every other analysis starts here. The Cooper–Harvey–Kennedy dominator
//! algorithm iterates in reverse postorder and compares postorder numbers;
//! semi-NCA and Lengauer–Tarjan number nodes in preorder and need the parent
//! of each node in the DFS spanning tree. A node that the search never
//! reaches is *unreachable*; dominance is not defined for it, and later
//! analyses skip it.
//!
//! The search is iterative (an explicit stack of `(node, next successor
//! index)` frames, like regalloc2's `postorder.rs`), so a graph shaped like a
//! chain of a million nodes needs a million stack frames on the heap, not on
//! the machine stack. It is a genuine depth-first search: a node is numbered
//! when it is first entered, and finished after all its successors, which the
//! semidominator theory of Lengauer and Tarjan requires of the spanning tree.

use super::graph::Graph;
use crate::ir::Block;

/// Marker for "no number": the node is unreachable.
pub(crate) const NONE: u32 = u32::MAX;

/// The result of one depth-first search of a [`Graph`] from its entry.
///
/// Successors are explored in the order [`Graph::succs`] lists them, so the
/// result is deterministic. Invariants: `preorder` and `postorder` hold the
/// same nodes (the reachable ones), each once; `pre_number[preorder[i]] == i`
/// and `post_number[postorder[i]] == i`; unreachable nodes have both numbers
/// [`None`]; `parent[i]` is the preorder number of the DFS-tree parent of
/// `preorder[i]`, and is smaller than `i` (the entry has no parent).
///
/// # Example
/// ```
/// use ssakit::analysis::{CsrGraph, DepthFirst};
/// use ssakit::ir::Block;
/// let b = Block::new;
/// // A loop 0 → 1 → 2 → 1, exit 2 → 3.
/// let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (1, 2), (2, 1), (2, 3)]);
/// let dfs = DepthFirst::new(&g);
/// assert_eq!(dfs.preorder(), &[b(0), b(1), b(2), b(3)]);
/// assert_eq!(dfs.postorder(), &[b(3), b(2), b(1), b(0)]);
/// // 2 → 1 is a back edge: 1 finishes after 2.
/// assert!(dfs.post_number(b(1)) > dfs.post_number(b(2)));
/// ```
#[derive(Clone, Debug)]
pub struct DepthFirst {
    preorder: Vec<Block>,
    postorder: Vec<Block>,
    pre_number: Vec<u32>,
    post_number: Vec<u32>,
    parent: Vec<u32>,
}

impl DepthFirst {
    /// Searches `g` depth-first from its entry.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::DepthFirst;
    /// let f = &ssakit::text::parse_module("function f() {\na:\n    jump b\nb:\n    ret\nc:\n    jump b\n}\n")
    ///     .unwrap()
    ///     .functions[0];
    /// let dfs = DepthFirst::new(&ssakit::ir::Cfg::new(f));
    /// assert!(!dfs.is_reachable(f.block_by_name("c").unwrap()));
    /// ```
    pub fn new<G: Graph + ?Sized>(g: &G) -> DepthFirst {
        let n = g.num_nodes();
        let mut pre_number = vec![NONE; n];
        let mut post_number = vec![NONE; n];
        // Sized once: a small function must not pay for doubling growth.
        let mut preorder = Vec::with_capacity(n);
        let mut postorder = Vec::with_capacity(n);
        let mut parent = Vec::with_capacity(n);
        // Frames: (node, index of the next successor to look at).
        let mut stack: Vec<(Block, u32)> = Vec::with_capacity(n.min(64));
        let entry = g.entry();
        pre_number[entry.index()] = 0;
        preorder.push(entry);
        parent.push(NONE);
        stack.push((entry, 0));
        while let Some(top) = stack.last_mut() {
            let (node, next) = *top;
            let succs = g.succs(node);
            if let Some(&s) = succs.get(next as usize) {
                top.1 += 1;
                if pre_number[s.index()] == NONE {
                    // Enter `s`: its DFS parent is the node whose edge found it.
                    pre_number[s.index()] = preorder.len() as u32;
                    parent.push(pre_number[node.index()]);
                    preorder.push(s);
                    stack.push((s, 0));
                }
            } else {
                // Exit `node`: all its successors are numbered.
                post_number[node.index()] = postorder.len() as u32;
                postorder.push(node);
                stack.pop();
            }
        }
        DepthFirst {
            preorder,
            postorder,
            pre_number,
            post_number,
            parent,
        }
    }

    /// Number of nodes of the graph searched, reachable or not.
    pub(crate) fn num_nodes(&self) -> usize {
        self.pre_number.len()
    }

    /// Number of reachable nodes.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DepthFirst};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → {1, 2} → 3; node 4 is unreachable.
    /// let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let dfs = DepthFirst::new(&g);
    /// assert_eq!(dfs.num_reachable(), 4);
    /// ```
    pub fn num_reachable(&self) -> usize {
        self.preorder.len()
    }

    /// Whether `b` is reachable from the entry.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DepthFirst};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → {1, 2} → 3; node 4 is unreachable.
    /// let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let dfs = DepthFirst::new(&g);
    /// assert!(dfs.is_reachable(b(3)));
    /// assert!(!dfs.is_reachable(b(4)));
    /// ```
    #[inline]
    pub fn is_reachable(&self, b: Block) -> bool {
        self.pre_number[b.index()] != NONE
    }

    /// Reachable nodes in the order the search entered them.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DepthFirst};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → {1, 2} → 3; node 4 is unreachable.
    /// let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let dfs = DepthFirst::new(&g);
    /// assert_eq!(dfs.preorder(), &[b(0), b(1), b(3), b(2)]);
    /// ```
    pub fn preorder(&self) -> &[Block] {
        &self.preorder
    }

    /// Reachable nodes in the order the search finished them.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DepthFirst};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → {1, 2} → 3; node 4 is unreachable.
    /// let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let dfs = DepthFirst::new(&g);
    /// assert_eq!(dfs.postorder(), &[b(3), b(1), b(2), b(0)]);
    /// ```
    pub fn postorder(&self) -> &[Block] {
        &self.postorder
    }

    /// Reachable nodes in reverse postorder: every node comes before its
    /// successors, except along back edges (edges to a DFS ancestor).
    #[cfg(test)]
    pub(crate) fn reverse_postorder(&self) -> impl DoubleEndedIterator<Item = Block> + '_ {
        self.postorder.iter().rev().copied()
    }

    /// Position of `b` in [`preorder`](Self::preorder), if reachable.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DepthFirst};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → {1, 2} → 3; node 4 is unreachable.
    /// let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let dfs = DepthFirst::new(&g);
    /// assert_eq!(dfs.pre_number(b(3)), Some(2));
    /// assert_eq!(dfs.pre_number(b(4)), None);
    /// ```
    #[inline]
    #[cfg(test)]
    pub(crate) fn pre_number(&self, b: Block) -> Option<u32> {
        some(self.pre_number[b.index()])
    }

    /// Position of `b` in `postorder`, if reachable.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DepthFirst};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → {1, 2} → 3; node 4 is unreachable.
    /// let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let dfs = DepthFirst::new(&g);
    /// assert_eq!(dfs.post_number(b(0)), Some(3)); // the entry finishes last
    /// assert_eq!(dfs.post_number(b(4)), None);
    /// ```
    #[inline]
    pub fn post_number(&self, b: Block) -> Option<u32> {
        some(self.post_number[b.index()])
    }

    /// Position of `b` in the reverse postorder, if reachable.
    #[cfg(test)]
    pub(crate) fn rpo_number(&self, b: Block) -> Option<u32> {
        self.post_number(b)
            .map(|p| self.postorder.len() as u32 - 1 - p)
    }

    /// The node from which the search first entered `b`: its parent in the
    /// DFS spanning tree. `None` for the entry and unreachable nodes.
    #[cfg(test)]
    pub(crate) fn dfs_parent(&self, b: Block) -> Option<Block> {
        let i = self.pre_number(b)?;
        some(self.parent[i as usize]).map(|p| self.preorder[p as usize])
    }

    /// Every node not reachable from the entry, in index order.
    #[cfg(test)]
    pub(crate) fn unreachable(&self) -> impl Iterator<Item = Block> + '_ {
        (0..self.num_nodes())
            .filter(|&i| self.pre_number[i] == NONE)
            .map(Block::new)
    }

    /// Preorder numbers by node index ([`NONE`] when unreachable).
    pub(crate) fn pre_numbers(&self) -> &[u32] {
        &self.pre_number
    }

    /// Postorder numbers by node index ([`NONE`] when unreachable).
    pub(crate) fn post_numbers(&self) -> &[u32] {
        &self.post_number
    }

    /// DFS-tree parents by preorder number, as preorder numbers.
    pub(crate) fn parents(&self) -> &[u32] {
        &self.parent
    }
}

#[inline]
fn some(x: u32) -> Option<u32> {
    (x != NONE).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::graph::CsrGraph;

    #[test]
    fn diamond_with_unreachable_node() {
        //   0 → 1 → 3,  0 → 2 → 3,  4 → 3 (4 unreachable)
        let g = CsrGraph::from_edges(
            5,
            Block::from_u32(0),
            &[(0, 1), (0, 2), (1, 3), (2, 3), (4, 3)],
        );
        let d = DepthFirst::new(&g);
        assert_eq!(
            d.preorder(),
            &[
                Block::from_u32(0),
                Block::from_u32(1),
                Block::from_u32(3),
                Block::from_u32(2)
            ]
        );
        assert_eq!(
            d.postorder(),
            &[
                Block::from_u32(3),
                Block::from_u32(1),
                Block::from_u32(2),
                Block::from_u32(0)
            ]
        );
        let rpo: Vec<_> = d.reverse_postorder().collect();
        assert_eq!(
            rpo,
            vec![
                Block::from_u32(0),
                Block::from_u32(2),
                Block::from_u32(1),
                Block::from_u32(3)
            ]
        );
        assert_eq!(d.rpo_number(Block::from_u32(2)), Some(1));
        assert_eq!(d.dfs_parent(Block::from_u32(3)), Some(Block::from_u32(1)));
        assert_eq!(d.dfs_parent(Block::from_u32(0)), None);
        assert!(!d.is_reachable(Block::from_u32(4)));
        assert_eq!(
            d.unreachable().collect::<Vec<_>>(),
            vec![Block::from_u32(4)]
        );
        assert_eq!(d.num_reachable(), 4);
    }

    #[test]
    fn long_chain_does_not_overflow() {
        let n = 300_000u32;
        let edges: Vec<_> = (0..n - 1).map(|i| (i, i + 1)).collect();
        let g = CsrGraph::from_edges(n as usize, Block::from_u32(0), &edges);
        let d = DepthFirst::new(&g);
        assert_eq!(d.postorder()[0], Block::from_u32(n - 1));
        assert_eq!(
            d.dfs_parent(Block::from_u32(n - 1)),
            Some(Block::from_u32(n - 2))
        );
    }
}
