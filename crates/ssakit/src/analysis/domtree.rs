//! The dominator tree, by two algorithms, with O(1) dominance queries.
//!
//! A node `a` *dominates* `b` when every path from the entry to `b` passes
//! through `a`; it *strictly dominates* `b` when moreover `a ≠ b`. The
//! *immediate dominator* `idom(b)` of a reachable `b` other than the entry is
//! the strict dominator of `b` that every other strict dominator of `b`
//! dominates; the edges `idom(b) → b` form the *dominator tree*, rooted at the
//! entry. (Chapter 13, section 13.2, builds the DJ-graph and the dominance
//! frontiers on this tree; its D-edges are the tree edges.)
//!
//! Two algorithms compute the immediate dominators, selected by
//! [`DomAlgorithm`]:
//!
//! * [`DomAlgorithm::Simple`]: Cooper, Harvey and Kennedy, "A Simple, Fast
//!   Dominance Algorithm" (2001). Iterate over the nodes in reverse postorder
//!   until nothing changes, setting `idom(b)` to the `intersect` of the
//!   processed predecessors of `b`; `intersect` walks two "fingers" up the
//!   current tree comparing postorder numbers. Quadratic in the worst case,
//!   fast in practice, and obviously correct: it is kept as the verification
//!   baseline, as Cranelift keeps its simple algorithm beside the fast one.
//! * [`DomAlgorithm::Fast`]: semi-NCA (Georgiadis, "Linear-Time Algorithms
//!   for Dominators and Related Problems", 2005; the algorithm LLVM uses).
//!   Step 1 computes Lengauer–Tarjan *semidominators* in reverse preorder of a
//!   DFS tree with `eval`/`link` over a path-compressed forest; step 2 (the
//!   *NCA* step) walks the nodes in preorder and sets `idom(w)` to the nearest
//!   ancestor of `parent(w)` in the partial dominator tree whose preorder
//!   number is at most `semi(w)`. `O(m log n)` worst case, near linear in
//!   practice. Path compression uses an explicit stack, as in rustc.
//!
//! Nothing recurses: the DFS, path compression and the tree numbering all use
//! explicit stacks, so a million-node chain is fine.
//!
//! ## Interval numbering
//!
//! The tree is numbered by one iterative walk: `pre(b)` when the walk enters
//! `b`, `post(b)` when it leaves. Then `a` dominates `b` iff
//! `pre(a) ≤ pre(b)` and `post(b) ≤ post(a)`: the interval of `b` nests in
//! that of `a`. For the chapter's example (tree `r → A → {B, C, D, E}`):
//!
//! ```text
//!   node  pre post        r [0, 5]
//!   r      0   5          └ A [1, 4]
//!   A      1   4             ├ B [2, 0]   B, C, D, E nest inside A;
//!   B      2   0             ├ C [3, 1]   none nests inside another.
//!   C      3   1             ├ D [4, 2]
//!   D      4   2             └ E [5, 3]
//!   E      5   3
//! ```
//!
//! ## Unreachable nodes
//!
//! Dominance is only defined between reachable nodes. An unreachable node has
//! no immediate dominator, no depth and no numbers; [`DomTree::dominates`]
//! answers `false` whenever either argument is unreachable (even for `a ==
//! b`), and `DomTree::unreachable_blocks` lists them. Nothing panics.

use super::graph::Graph;
use super::postorder::{DepthFirst, NONE};
use crate::entity::Csr;
use crate::ir::{Block, Cfg};

/// Which algorithm computes the immediate dominators.
///
/// # Example
///
/// ```
/// use ssakit::analysis::{CsrGraph, DomAlgorithm, DomTree};
/// use ssakit::ir::Block;
/// // An irreducible loop: 1 ⇄ 2, both entered from 0.
/// let g = CsrGraph::from_edges(4, Block::new(0), &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)]);
/// let simple = DomTree::with_algorithm(&g, DomAlgorithm::Simple);
/// let fast = DomTree::with_algorithm(&g, DomAlgorithm::Fast);
/// for i in 0..4 {
///     assert_eq!(simple.idom(Block::new(i)), fast.idom(Block::new(i)));
/// }
/// assert_eq!(fast.idom(Block::new(3)), Some(Block::new(2)));
/// assert_eq!(fast.idom(Block::new(2)), Some(Block::new(0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DomAlgorithm {
    /// Cooper–Harvey–Kennedy iterative algorithm (the simple baseline).
    Simple,
    /// Semi-NCA (semidominators, then nearest common ancestors).
    #[default]
    Fast,
}

/// The dominator tree of a graph, with interval numbers for O(1) queries.
///
/// Tables are indexed by node index and cover every node of the graph.
/// Invariants:
/// * `idom[b]` is the immediate dominator's index, or `NONE` (`u32::MAX`)
///   for the entry and for unreachable nodes;
/// * `children` lists the tree children of each node in increasing index
///   order; unreachable nodes have
///   none and are nobody's child;
/// * `preorder` is the tree preorder (children in `children` order) of the
///   reachable nodes, and `pre[preorder[i]] == i`;
/// * `pre`, `post` and `depth` are `NONE` exactly for unreachable nodes;
///   `depth[entry] == 0` and `depth[b] == depth[idom[b]] + 1`.
///
/// # Example
///
/// On any [`Graph`], here an edge list: the chapter's CFG with nodes
/// r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
///
/// ```
/// use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers};
/// use ssakit::ir::Block;
/// let edges = [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (4, 5), (4, 1)];
/// let g = CsrGraph::from_edges(6, Block::new(0), &edges);
/// let tree = DomTree::new(&g);
/// assert_eq!(tree.idom(Block::new(4)), Some(Block::new(1))); // idom(D) = A
/// assert!(tree.dominates(Block::new(1), Block::new(5)));
/// let df = DominanceFrontiers::new(&g, &tree);
/// assert_eq!(df.df(Block::new(3)), &[Block::new(4), Block::new(5)]); // DF(C) = {D, E}
/// ```
#[derive(Clone, Debug)]
pub struct DomTree {
    entry: Block,
    idom: Vec<u32>,
    children: Csr<Block, Block>,
    preorder: Vec<Block>,
    pre: Vec<u32>,
    post: Vec<u32>,
    depth: Vec<u32>,
}

impl crate::ir::Dominance for DomTree {
    #[inline]
    fn strictly_dominates(&self, a: Block, b: Block) -> bool {
        DomTree::strictly_dominates(self, a, b)
    }
}

impl DomTree {
    /// Computes the dominator tree of `g` with the fast algorithm.
    ///
    /// # Example
    ///
    /// ```
    /// use ssakit::analysis::DomTree;
    /// # let f = &ssakit::text::parse_module("function f(c) {
    /// # e:
    /// #     branch c, l, r
    /// # l:
    /// #     jump j
    /// # r:
    /// #     jump j
    /// # j:
    /// #     ret
    /// # }
    /// # ").unwrap().functions[0];
    /// // `f` is a diamond: e → {l, r} → j.
    /// let cfg = ssakit::ir::Cfg::new(f);
    /// let tree = DomTree::new(&cfg);
    /// let (e, j) = (f.block_by_name("e").unwrap(), f.block_by_name("j").unwrap());
    /// assert_eq!(tree.idom(j), Some(e));
    /// ```
    pub fn new<G: Graph + ?Sized>(g: &G) -> DomTree {
        DomTree::with_algorithm(g, DomAlgorithm::Fast)
    }

    /// Computes the dominator tree of `g` with algorithm `alg`.
    ///
    /// # Example
    ///
    /// ```
    /// use ssakit::analysis::{CsrGraph, DomAlgorithm, DomTree};
    /// use ssakit::ir::Block;
    /// // A loop 1 → 2 → 1 with exit 2 → 3.
    /// let g = CsrGraph::from_edges(4, Block::new(0), &[(0, 1), (1, 2), (2, 1), (2, 3)]);
    /// let tree = DomTree::with_algorithm(&g, DomAlgorithm::Simple);
    /// assert_eq!(tree.idom(Block::new(3)), Some(Block::new(2)));
    /// ```
    pub fn with_algorithm<G: Graph + ?Sized>(g: &G, alg: DomAlgorithm) -> DomTree {
        let dfs = DepthFirst::new(g);
        DomTree::with_dfs(g, &dfs, alg)
    }

    /// Computes the dominator tree of `g` reusing a depth-first search of it.
    ///
    /// # Preconditions
    /// `dfs` is `DepthFirst::new(g)`.
    ///
    /// # Example
    ///
    /// ```
    /// use ssakit::analysis::{CsrGraph, DepthFirst, DomAlgorithm, DomTree};
    /// use ssakit::ir::Block;
    /// let g = CsrGraph::from_edges(3, Block::new(0), &[(0, 1), (1, 2)]);
    /// let dfs = DepthFirst::new(&g); // computed once, used twice
    /// let tree = DomTree::with_dfs(&g, &dfs, DomAlgorithm::Fast);
    /// assert_eq!(tree.idom(Block::new(2)), Some(Block::new(1)));
    /// assert_eq!(dfs.postorder(), &[Block::new(2), Block::new(1), Block::new(0)]);
    /// ```
    pub fn with_dfs<G: Graph + ?Sized>(g: &G, dfs: &DepthFirst, alg: DomAlgorithm) -> DomTree {
        debug_assert_eq!(dfs.num_nodes(), g.num_nodes());
        let idom = match alg {
            DomAlgorithm::Simple => idoms_cooper_harvey_kennedy(g, dfs),
            DomAlgorithm::Fast => idoms_semi_nca(g, dfs),
        };
        DomTree::from_idoms(g.entry(), idom)
    }

    /// Builds children lists and interval numbers from immediate dominators
    /// (`idom[b]` an index, or [`NONE`] for the entry and unreachable nodes).
    fn from_idoms(entry: Block, idom: Vec<u32>) -> DomTree {
        let n = idom.len();
        // Children in CSR form, in index order.
        let children = Csr::build(n, |emit| {
            for (b, &p) in idom.iter().enumerate() {
                if p != NONE {
                    emit.push(Block::from_u32(p), Block::new(b));
                }
            }
        });
        DomTree::from_children(entry, idom, children)
    }

    /// This tree with the children of each node reordered: those in
    /// `last` (in that order) after the others (in index order). The same
    /// immediate dominators, so the same answers to every dominance query;
    /// only the preorder (and the interval numbers) follow the new order.
    /// Destruction uses it to number the blocks as they would be after
    /// critical edges were split, without splitting them
    /// ([`Plan`](crate::destruct::critical_edges)).
    pub(crate) fn with_children_last(&self, last: &[Block]) -> DomTree {
        let n = self.idom.len();
        let mut is_last = vec![false; n];
        for &b in last {
            is_last[b.index()] = true;
        }
        let idom = self.idom.clone();
        let children = Csr::build(n, |emit| {
            for (b, &p) in idom.iter().enumerate() {
                if p != NONE && !is_last[b] {
                    emit.push(Block::from_u32(p), Block::new(b));
                }
            }
            for &b in last {
                let p = idom[b.index()];
                debug_assert!(p != NONE, "only reachable blocks are reordered");
                emit.push(Block::from_u32(p), b);
            }
        });
        DomTree::from_children(self.entry, idom, children)
    }

    /// Interval numbers from immediate dominators and the children lists
    /// they make (in the order the preorder follows).
    fn from_children(entry: Block, idom: Vec<u32>, children: Csr<Block, Block>) -> DomTree {
        let n = idom.len();
        // Interval numbering by an explicit-stack walk with enter/exit.
        let mut pre = vec![NONE; n];
        let mut post = vec![NONE; n];
        let mut depth = vec![NONE; n];
        let mut preorder = Vec::with_capacity(children.num_items() + 1);
        let mut exits = 0u32;
        // At most one frame per node: sized once, not grown push by push.
        let mut stack: Vec<(Block, u32)> = Vec::with_capacity(n);
        stack.push((entry, 0));
        pre[entry.index()] = 0;
        depth[entry.index()] = 0;
        preorder.push(entry);
        while let Some(top) = stack.last_mut() {
            let (b, next) = *top;
            if let Some(&c) = children.of(b).get(next as usize) {
                top.1 += 1;
                pre[c.index()] = preorder.len() as u32;
                depth[c.index()] = depth[b.index()] + 1;
                preorder.push(c);
                stack.push((c, 0));
            } else {
                post[b.index()] = exits;
                exits += 1;
                stack.pop();
            }
        }
        DomTree {
            entry,
            idom,
            children,
            preorder,
            pre,
            post,
            depth,
        }
    }

    /// The dominator tree after edges were split, without a new search:
    /// each `(source, target, new)` of `splits` says that the edges
    /// `source → target` now go through the new block `new`, which jumps
    /// to `target`; `cfg` is the graph after splitting, numbered as before
    /// with the new blocks after. The same tree as [`DomTree::new`] of
    /// `cfg` (the debug build checks it).
    ///
    /// Why: the immediate dominator of a reachable block other than the
    /// entry is the nearest common ancestor of its reachable predecessors
    /// that it does not dominate (those it dominates close loops through
    /// it). `new` has one predecessor, `source`, its immediate dominator
    /// if `source` is reachable. If `new` is the only such predecessor of
    /// `target`, every path into `target` passes `source → new`, and `new`
    /// becomes `target`'s immediate dominator, between `source` and
    /// `target` in the tree. Otherwise `new` dominates nothing but itself,
    /// and putting that leaf below `source` in `source`'s place changes
    /// no common ancestor of two or more predecessors: `target` keeps its
    /// immediate dominator. Paths to the other blocks only gain blocks that
    /// do not dominate them, so dominance among the old blocks is as
    /// before, and this tree answers the queries on `target`'s
    /// predecessors.
    pub(crate) fn with_edges_split(&self, cfg: &Cfg, splits: &[(Block, Block, Block)]) -> DomTree {
        let (old, n) = (self.idom.len(), cfg.num_blocks());
        let mut idom = self.idom.clone();
        idom.resize(n, NONE);
        // By new block (from `old` on): the source of its edges.
        let mut source_of_new = vec![self.entry; n - old];
        for &(source, _, new) in splits {
            source_of_new[new.index() - old] = source;
            if self.is_reachable(source) {
                idom[new.index()] = source.as_u32();
            }
        }
        let source_of = |b: Block| match b.index().checked_sub(old) {
            Some(k) => source_of_new[k],
            None => b,
        };
        // Each target once: what follows depends on the target alone, and
        // a target with P predecessors split P times would otherwise scan
        // them P times (a loop header closed by 100k conditional blocks).
        let mut done = vec![false; old];
        for &(_, target, _) in splits {
            if target == self.entry || !self.is_reachable(target) || done[target.index()] {
                continue;
            }
            done[target.index()] = true;
            if let Some(only) = self.sole_entry(target, cfg.unique_preds(target), source_of) {
                idom[target.index()] = only.as_u32();
            }
        }
        let tree = DomTree::from_idoms(self.entry, idom);
        debug_assert_eq!(tree.idom, DomTree::new(cfg).idom);
        tree
    }

    /// The only one of `preds` (predecessors of the reachable `target`)
    /// that is reachable and not dominated by `target`, if exactly one is
    /// (every path into `target` then comes through it); `old` maps a
    /// predecessor to the block of this tree it stands for (a new block
    /// to the source of its edge). Stops at the second such predecessor.
    pub(crate) fn sole_entry(
        &self,
        target: Block,
        preds: impl Iterator<Item = Block>,
        old: impl Fn(Block) -> Block,
    ) -> Option<Block> {
        let mut outside = preds.filter(|&p| {
            let p = old(p);
            self.is_reachable(p) && !self.dominates(target, p)
        });
        match (outside.next(), outside.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        }
    }

    /// Number of nodes of the graph, reachable or not.
    pub(crate) fn num_nodes(&self) -> usize {
        self.idom.len()
    }

    /// The immediate dominator of `b`; `None` for the entry and unreachable
    /// nodes.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → {1, 2} → 3; node 4 is unreachable.
    /// let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let tree = DomTree::new(&g);
    /// assert_eq!(tree.idom(b(3)), Some(b(0)));
    /// assert_eq!(tree.idom(b(0)), None); // the entry
    /// assert_eq!(tree.idom(b(4)), None); // unreachable
    /// ```
    #[inline]
    pub fn idom(&self, b: Block) -> Option<Block> {
        let p = self.idom[b.index()];
        (p != NONE).then(|| Block::from_u32(p))
    }

    /// The children of `b` in the dominator tree, in increasing index order.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → {1, 2} → 3: all three are children of 0.
    /// let g = CsrGraph::from_edges(4, b(0), &[(0, 2), (0, 1), (1, 3), (2, 3)]);
    /// let tree = DomTree::new(&g);
    /// assert_eq!(tree.children(b(0)), &[b(1), b(2), b(3)]);
    /// assert!(tree.children(b(3)).is_empty());
    /// ```
    #[inline]
    pub fn children(&self, b: Block) -> &[Block] {
        self.children.of(b)
    }

    /// Whether `b` is reachable from the entry.
    #[inline]
    pub(crate) fn is_reachable(&self, b: Block) -> bool {
        self.pre[b.index()] != NONE
    }

    /// The preorder and postorder numbers of `b`, `u32::MAX` both when
    /// it is unreachable: `a` strictly dominates a reachable `b ≠ a` iff
    /// `pre(a) ≤ pre(b)` and `post(b) ≤ post(a)` (for a caller that keeps
    /// the numbers of the blocks it asks about most).
    #[inline]
    pub(crate) fn numbers(&self, b: Block) -> (u32, u32) {
        (self.pre[b.index()], self.post[b.index()])
    }

    /// The nodes not reachable from the entry, in index order.
    #[cfg(test)]
    pub(crate) fn unreachable_blocks(&self) -> impl Iterator<Item = Block> + '_ {
        (0..self.num_nodes())
            .filter(|&i| self.pre[i] == NONE)
            .map(Block::new)
    }

    /// Number of reachable nodes.
    pub(crate) fn num_reachable(&self) -> usize {
        self.preorder.len()
    }

    /// Whether `a` dominates `b`: both are reachable and every path from the
    /// entry to `b` goes through `a`. O(1), by interval nesting.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // 0 → {1, 2} → 3; node 4 is unreachable.
    /// let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let tree = DomTree::new(&g);
    /// assert!(tree.dominates(b(0), b(3)));
    /// assert!(!tree.dominates(b(1), b(3))); // 0 → 2 → 3 avoids 1
    /// assert!(tree.dominates(b(3), b(3)));
    /// assert!(!tree.dominates(b(4), b(4))); // unreachable
    /// ```
    #[inline]
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let (pa, pb) = (self.pre[a.index()], self.pre[b.index()]);
        pa != NONE && pb != NONE && pa <= pb && self.post[b.index()] <= self.post[a.index()]
    }

    /// Whether `a` dominates `b` and `a ≠ b`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// let g = CsrGraph::from_edges(2, b(0), &[(0, 1)]);
    /// let tree = DomTree::new(&g);
    /// assert!(tree.strictly_dominates(b(0), b(1)));
    /// assert!(!tree.strictly_dominates(b(1), b(1)));
    /// ```
    #[inline]
    pub fn strictly_dominates(&self, a: Block, b: Block) -> bool {
        a != b && self.dominates(a, b)
    }

    /// The depth (level) of `b` in the tree: 0 for the entry, `None` when
    /// unreachable.
    #[inline]
    pub(crate) fn depth(&self, b: Block) -> Option<u32> {
        let d = self.depth[b.index()];
        (d != NONE).then_some(d)
    }

    /// The preorder numbers of `b`'s dominator subtree, `pre(b) ..=
    /// last(b)` (a subtree is contiguous in preorder), for a reachable `b`.
    /// When `b` exits, the walk has exited the `pre(b) − depth(b)` nodes
    /// entered before `b` that are not its ancestors and the `size(b) − 1`
    /// nodes below it, so `post(b) = pre(b) − depth(b) + size(b) − 1` and
    /// `last(b) = pre(b) + size(b) − 1 = post(b) + depth(b)`: in the
    /// module's example, A gets `1 ..= 5` and B `2 ..= 2`.
    #[inline]
    pub(crate) fn subtree_pre(&self, b: Block) -> (u32, u32) {
        let i = b.index();
        debug_assert!(self.pre[i] != NONE, "subtree_pre: {b} is unreachable");
        (self.pre[i], self.post[i].wrapping_add(self.depth[i]))
    }

    /// The preorder number of `b` in the tree, if reachable.
    #[inline]
    pub(crate) fn pre_number(&self, b: Block) -> Option<u32> {
        let p = self.pre[b.index()];
        (p != NONE).then_some(p)
    }

    /// The reachable nodes in tree preorder: every node after its immediate
    /// dominator, children in increasing index order.
    pub(crate) fn preorder(
        &self,
    ) -> impl DoubleEndedIterator<Item = Block> + ExactSizeIterator + '_ {
        self.preorder.iter().copied()
    }

    /// An iterative walk of the tree yielding [`DomEvent::Enter`] for a node
    /// before its subtree and [`DomEvent::Exit`] after it (what renaming with
    /// an undo stack needs).
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomEvent, DomTree};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// let g = CsrGraph::from_edges(3, b(0), &[(0, 1), (0, 2)]);
    /// let events: Vec<_> = DomTree::new(&g).walk().collect();
    /// use DomEvent::{Enter, Exit};
    /// assert_eq!(events, [Enter(b(0)), Enter(b(1)), Exit(b(1)), Enter(b(2)), Exit(b(2)), Exit(b(0))]);
    /// ```
    pub fn walk(&self) -> DomWalk<'_> {
        DomWalk {
            tree: self,
            stack: vec![(self.entry, 0)],
            started: false,
        }
    }

    /// The nearest common dominator of two reachable nodes (their lowest
    /// common ancestor in the tree); `None` if either is unreachable.
    #[cfg(test)]
    pub(crate) fn nearest_common_dominator(&self, mut a: Block, mut b: Block) -> Option<Block> {
        let (mut da, mut db) = (self.depth(a)?, self.depth(b)?);
        while da > db {
            a = Block::from_u32(self.idom[a.index()]);
            da -= 1;
        }
        while db > da {
            b = Block::from_u32(self.idom[b.index()]);
            db -= 1;
        }
        while a != b {
            a = Block::from_u32(self.idom[a.index()]);
            b = Block::from_u32(self.idom[b.index()]);
        }
        Some(a)
    }
}

/// An event of `DomTree::walk`.
///
/// # Example
///
/// ```
/// use ssakit::analysis::{CsrGraph, DomEvent, DomTree};
/// use ssakit::ir::Block;
/// // A chain 0 → 1 → 2: track the depth with the events, as renaming
/// // tracks its undo stack.
/// let g = CsrGraph::from_edges(3, Block::new(0), &[(0, 1), (1, 2)]);
/// let (mut depth, mut deepest) = (0, 0);
/// for event in DomTree::new(&g).walk() {
///     match event {
///         DomEvent::Enter(_) => depth += 1,
///         DomEvent::Exit(_) => depth -= 1,
///     }
///     deepest = deepest.max(depth);
/// }
/// assert_eq!((depth, deepest), (0, 3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomEvent {
    /// The walk enters a node: its dominators have been entered, not exited.
    Enter(Block),
    /// The walk leaves a node: its whole subtree has been walked.
    Exit(Block),
}

/// Iterator returned by `DomTree::walk`.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::{CsrGraph, DomEvent, DomTree};
/// # use ssakit::ir::Block;
/// // Every reachable node is entered once and exited once.
/// let g = CsrGraph::from_edges(4, Block::new(0), &[(0, 1), (0, 2), (2, 1)]);
/// let tree = DomTree::new(&g);
/// let walk = tree.walk();
/// assert_eq!(walk.filter(|e| matches!(e, DomEvent::Exit(_))).count(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct DomWalk<'a> {
    tree: &'a DomTree,
    /// Frames `(node, position of its next child)` of the entered,
    /// unexited nodes.
    stack: Vec<(Block, u32)>,
    started: bool,
}

impl Iterator for DomWalk<'_> {
    type Item = DomEvent;
    fn next(&mut self) -> Option<DomEvent> {
        if !self.started {
            self.started = true;
            return Some(DomEvent::Enter(self.tree.entry));
        }
        let top = self.stack.last_mut()?;
        let (b, next) = *top;
        if let Some(&c) = self.tree.children.of(b).get(next as usize) {
            top.1 += 1;
            self.stack.push((c, 0));
            Some(DomEvent::Enter(c))
        } else {
            self.stack.pop();
            Some(DomEvent::Exit(b))
        }
    }
}

/// Cooper–Harvey–Kennedy: immediate dominators by iteration to a fixpoint,
/// as node indices ([`NONE`] for the entry and unreachable nodes).
///
/// Works in postorder-number space: `doms[i]` is the postorder number of the
/// current dominator estimate of the `i`-th node in postorder; the entry is
/// last and is its own estimate, which stops `intersect`.
fn idoms_cooper_harvey_kennedy<G: Graph + ?Sized>(g: &G, dfs: &DepthFirst) -> Vec<u32> {
    let po = dfs.post_numbers();
    let order = dfs.postorder();
    let n = order.len();
    let root = n - 1;
    let mut doms = vec![NONE; n];
    doms[root] = root as u32;
    let intersect = |doms: &[u32], mut f1: u32, mut f2: u32| {
        while f1 != f2 {
            while f1 < f2 {
                f1 = doms[f1 as usize];
            }
            while f2 < f1 {
                f2 = doms[f2 as usize];
            }
        }
        f1
    };
    let mut changed = true;
    while changed {
        changed = false;
        // Reverse postorder, entry excluded.
        for i in (0..root).rev() {
            let mut new_idom = NONE;
            for &p in g.preds(order[i]) {
                let pp = po[p.index()];
                // Skip unreachable and not yet processed predecessors.
                if pp == NONE || doms[pp as usize] == NONE {
                    continue;
                }
                new_idom = if new_idom == NONE {
                    pp
                } else {
                    intersect(&doms, pp, new_idom)
                };
            }
            // The DFS parent precedes `order[i]` in reverse postorder, so at
            // least one predecessor was processed.
            debug_assert_ne!(new_idom, NONE);
            if doms[i] != new_idom {
                doms[i] = new_idom;
                changed = true;
            }
        }
    }
    let mut idom = vec![NONE; dfs.num_nodes()];
    for i in 0..root {
        idom[order[i].index()] = order[doms[i] as usize].as_u32();
    }
    idom
}

/// Semi-NCA: immediate dominators as node indices ([`NONE`] for the entry and
/// unreachable nodes).
///
/// Works in DFS-preorder-number space. Step 1 (semidominators, reverse
/// preorder): `semi(w)` is the least `semi(eval(v))` over predecessors `v` of
/// `w`, where `eval(v)` is `v` itself if `v` is not yet linked (then
/// `v < w`), else the node of least `semi` on the forest path from `v` up to,
/// not including, the root of its tree; then `link(parent(w), w)`. Step 2
/// (NCA, preorder): `idom(w)` is the first ancestor `x` of `parent(w)` in the
/// dominator tree built so far with `x ≤ semi(w)`.
fn idoms_semi_nca<G: Graph + ?Sized>(g: &G, dfs: &DepthFirst) -> Vec<u32> {
    let pre_number = dfs.pre_numbers();
    let vertex = dfs.preorder();
    let parent = dfs.parents();
    let n = vertex.len();
    let mut semi: Vec<u32> = (0..n as u32).collect();
    let mut label: Vec<u32> = (0..n as u32).collect();
    // Forest of linked nodes: `ancestor[v]` is NONE until `v` is linked.
    let mut ancestor = vec![NONE; n];
    let mut compress_stack: Vec<u32> = Vec::new();

    // Step 1: semidominators.
    for w in (1..n).rev() {
        let mut s = semi[w];
        for &p in g.preds(vertex[w]) {
            let v = pre_number[p.index()];
            if v == NONE {
                continue; // unreachable predecessor
            }
            let u = eval(v, &mut ancestor, &mut label, &semi, &mut compress_stack);
            s = s.min(semi[u as usize]);
        }
        semi[w] = s;
        ancestor[w] = parent[w]; // link(parent(w), w)
    }

    // Step 2: nearest common ancestors, in preorder so that the ancestors of
    // `w` already have their final immediate dominators.
    let mut idom_pre = vec![0u32; n];
    for w in 1..n {
        let mut x = parent[w];
        while x > semi[w] {
            x = idom_pre[x as usize];
        }
        idom_pre[w] = x;
    }

    let mut idom = vec![NONE; dfs.num_nodes()];
    for w in 1..n {
        idom[vertex[w].index()] = vertex[idom_pre[w] as usize].as_u32();
    }
    idom
}

/// Lengauer–Tarjan `eval` with iterative path compression.
///
/// `compress(v)` is, recursively: if `ancestor(ancestor(v))` is linked,
/// `compress(ancestor(v))`, then take the better label of `ancestor(v)` and
/// point `v` at `ancestor(ancestor(v))`. Here the recursion is unrolled: push
/// the path while the grandparent is linked, then pop it top-down.
///
/// The common case, a predecessor not yet linked (the DFS parent, a
/// forward edge), is inline; the compression is not.
#[inline]
fn eval(
    v: u32,
    ancestor: &mut [u32],
    label: &mut [u32],
    semi: &[u32],
    stack: &mut Vec<u32>,
) -> u32 {
    if ancestor[v as usize] == NONE {
        return v;
    }
    eval_linked(v, ancestor, label, semi, stack)
}

/// [`eval`] of a linked `v`: compresses its path, returns its label.
#[inline(never)]
fn eval_linked(
    v: u32,
    ancestor: &mut [u32],
    label: &mut [u32],
    semi: &[u32],
    stack: &mut Vec<u32>,
) -> u32 {
    let mut x = v;
    while ancestor[ancestor[x as usize] as usize] != NONE {
        stack.push(x);
        x = ancestor[x as usize];
    }
    while let Some(y) = stack.pop() {
        let a = ancestor[y as usize] as usize;
        if semi[label[a] as usize] < semi[label[y as usize] as usize] {
            label[y as usize] = label[a];
        }
        ancestor[y as usize] = ancestor[a];
    }
    label[v as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::graph::CsrGraph;

    fn both(g: &CsrGraph) -> [DomTree; 2] {
        [
            DomTree::with_algorithm(g, DomAlgorithm::Simple),
            DomTree::with_algorithm(g, DomAlgorithm::Fast),
        ]
    }

    #[test]
    fn irreducible_loop_and_unreachable() {
        // 0 → 1, 0 → 2, 1 ⇄ 2 (irreducible), 2 → 3, 4 → 1 (4 unreachable)
        let g = CsrGraph::from_edges(
            5,
            Block::from_u32(0),
            &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3), (4, 1)],
        );
        for t in both(&g) {
            assert_eq!(t.idom(Block::from_u32(0)), None);
            assert_eq!(t.idom(Block::from_u32(1)), Some(Block::from_u32(0)));
            assert_eq!(t.idom(Block::from_u32(2)), Some(Block::from_u32(0)));
            assert_eq!(t.idom(Block::from_u32(3)), Some(Block::from_u32(2)));
            assert_eq!(t.idom(Block::from_u32(4)), None);
            assert_eq!(
                t.children(Block::from_u32(0)),
                &[Block::from_u32(1), Block::from_u32(2)]
            );
            assert!(t.dominates(Block::from_u32(0), Block::from_u32(3)));
            assert!(t.dominates(Block::from_u32(3), Block::from_u32(3)));
            assert!(!t.strictly_dominates(Block::from_u32(3), Block::from_u32(3)));
            assert!(!t.dominates(Block::from_u32(1), Block::from_u32(3)));
            assert!(!t.dominates(Block::from_u32(4), Block::from_u32(4)));
            assert!(!t.dominates(Block::from_u32(0), Block::from_u32(4)));
            assert_eq!(
                t.unreachable_blocks().collect::<Vec<_>>(),
                vec![Block::from_u32(4)]
            );
            assert_eq!(t.depth(Block::from_u32(3)), Some(2));
            assert_eq!(t.depth(Block::from_u32(4)), None);
            assert_eq!(
                t.preorder().collect::<Vec<_>>(),
                vec![
                    Block::from_u32(0),
                    Block::from_u32(1),
                    Block::from_u32(2),
                    Block::from_u32(3)
                ]
            );
            assert_eq!(
                t.nearest_common_dominator(Block::from_u32(1), Block::from_u32(3)),
                Some(Block::from_u32(0))
            );
            let events: Vec<_> = t.walk().collect();
            use DomEvent::*;
            assert_eq!(
                events,
                vec![
                    Enter(Block::from_u32(0)),
                    Enter(Block::from_u32(1)),
                    Exit(Block::from_u32(1)),
                    Enter(Block::from_u32(2)),
                    Enter(Block::from_u32(3)),
                    Exit(Block::from_u32(3)),
                    Exit(Block::from_u32(2)),
                    Exit(Block::from_u32(0)),
                ]
            );
        }
    }

    /// `subtree_pre` is the subtree's range in the walk's preorder: `a`
    /// dominates `b` iff `pre(b)` is in `a`'s range.
    #[test]
    fn subtree_ranges_are_contiguous_in_the_walk() {
        let edges = crate::analysis::graph::CHAPTER_EDGES;
        let g = CsrGraph::from_edges(6, Block::from_u32(0), &edges);
        for t in both(&g) {
            let entered: Vec<Block> = t
                .walk()
                .filter_map(|e| match e {
                    DomEvent::Enter(b) => Some(b),
                    DomEvent::Exit(_) => None,
                })
                .collect();
            assert_eq!(entered, t.preorder().collect::<Vec<_>>());
            assert_eq!(t.subtree_pre(Block::from_u32(1)), (1, 5));
            assert_eq!(t.subtree_pre(Block::from_u32(2)), (2, 2));
            for a in t.preorder() {
                let (pa, last) = t.subtree_pre(a);
                for b in t.preorder() {
                    let (pb, _) = t.subtree_pre(b);
                    assert_eq!(t.dominates(a, b), pa <= pb && pb <= last, "{a} {b}");
                }
            }
        }
    }

    #[test]
    fn entry_with_predecessors_and_self_loops() {
        // 0 → 1 → 0, 1 → 1, 1 → 2, 2 → 2
        let g = CsrGraph::from_edges(
            3,
            Block::from_u32(0),
            &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 2)],
        );
        for t in both(&g) {
            assert_eq!(t.idom(Block::from_u32(0)), None);
            assert_eq!(t.idom(Block::from_u32(1)), Some(Block::from_u32(0)));
            assert_eq!(t.idom(Block::from_u32(2)), Some(Block::from_u32(1)));
        }
    }

    #[test]
    fn single_node() {
        let g = CsrGraph::from_edges(1, Block::from_u32(0), &[]);
        for t in both(&g) {
            assert_eq!(t.num_reachable(), 1);
            assert!(t.dominates(Block::from_u32(0), Block::from_u32(0)));
            assert_eq!(t.walk().count(), 2);
        }
    }
}
