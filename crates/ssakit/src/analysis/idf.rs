//! Iterated dominance frontiers DF⁺(S), two ways.
//!
//! Chapter 13, sections 13.2 and 13.3. The dominance frontier of a set is the
//! union of the frontiers of its nodes, DF(S) = ∪ DF(x) for x ∈ S; the
//! *iterated* frontier DF⁺(S) is the limit of DF₁ = DF(S),
//! DF_{i+1} = DF(S ∪ DF_i). Minimal SSA places a phi for `v` at every node of
//! DF⁺(Defs(v)). It equals the *join set* J(S ∪ {r}) (the nodes where two
//! non-empty paths from distinct nodes of the set first meet) when the entry
//! `r` has no predecessors; see [`super::brute::join_set`] for the oracle and
//! the precise statement when `r` has predecessors.
//!
//! * [`WorklistIdf`] is the algorithm of section 13.3 over precomputed
//!   frontiers ([`DominanceFrontiers`]): a worklist W of definition blocks
//!   and a set F of blocks already holding a phi; each `Y ∈ DF(X)` for `X`
//!   taken from W enters F once, and enters W too unless it already defines
//!   the variable. F is DF⁺(S).
//! * [`IdfCalculator`] never materialises DF (whose total size can be
//!   quadratic). It is Sreedhar and Gao's linear-time algorithm ("A Linear
//!   Time Algorithm for Placing φ-nodes", POPL 1995) in the form of LLVM's
//!   `IDFCalculator` and Go's `ssagen/phi.go`: on the DJ-graph,
//!
//!   > `y ∈ DF(x)` iff there is a J-edge `z → y` with `z` in the dominator
//!   > subtree of `x` and `level(y) ≤ level(x)`
//!
//!   (level = depth in the dominator tree; the target `y` of a J-edge from
//!   `z` is not a strict descendant of `x` exactly when its level is at most
//!   that of `x`, since `idom(y)` is an ancestor of `z`). Nodes are taken
//!   from a priority queue deepest level first; for a *root* `x` of level
//!   `L` the subtree of `x` is walked, and each J-edge `z → y` with
//!   `level(y) ≤ L` puts `y` in DF⁺ and, if `y` is new and not a definition
//!   block, in the queue. A subtree node already walked for an earlier root
//!   (of level ≥ L, by the queue order) is not walked again: every J-edge
//!   below it that qualifies for `L` qualified for that earlier root. So each
//!   node is walked once and each edge looked at once per query: O(nodes +
//!   edges touched + k log₆₄ depth) for k queued roots. The queue is a
//!   bucket queue over levels (`LevelQueue`): one list per level and
//!   occupancy bitmaps to find the deepest, so a root is pushed and popped
//!   in a few word operations and never moved (a binary heap's sift-downs,
//!   then a radix heap's bucket moves, were a tenth of construction on
//!   loop nests).
//!
//! Both objects keep their scratch sets as [`StampSet`]s and reuse their
//! buffers, so a query costs what it touches, not the size of the graph.
//! Definition blocks that are unreachable are ignored; results are sorted by
//! node index.

use super::domtree::DomTree;
use super::frontier::DominanceFrontiers;
use super::graph::Graph;
use super::level_queue::LevelQueue;
use super::stamp::StampSet;
use crate::entity::Csr;
use crate::ir::Block;

/// The chapter's worklist algorithm (section 13.3) for DF⁺ over precomputed
/// dominance frontiers, with reusable scratch sets.
///
/// # Example
///
/// ```
/// use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers, WorklistIdf};
/// use ssakit::ir::Block;
/// let b = Block::new;
/// // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
/// let edges = [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (4, 5), (4, 1)];
/// let g = CsrGraph::from_edges(6, b(0), &edges);
/// let df = DominanceFrontiers::new(&g, &DomTree::new(&g));
/// let mut idf = WorklistIdf::new(&df);
/// // Defs(x) = {B}: DF(B) = {D}, then DF(D) = {A, E}, then DF(A) = {A}.
/// assert_eq!(idf.idf(&[b(2)]), [b(1), b(4), b(5)]);
/// ```
#[derive(Clone, Debug)]
pub struct WorklistIdf<'a> {
    df: &'a DominanceFrontiers,
    /// F: blocks already given a phi.
    in_f: StampSet,
    /// Defs(v): blocks containing definitions.
    in_defs: StampSet,
    /// W: blocks whose frontier is still to be scanned.
    w: Vec<Block>,
}

impl<'a> WorklistIdf<'a> {
    /// A calculator over the frontiers `df`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers, WorklistIdf};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // A diamond 0 → {1, 2} → 3.
    /// let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let df = DominanceFrontiers::new(&g, &DomTree::new(&g));
    /// assert_eq!(WorklistIdf::new(&df).idf(&[b(1)]), [b(3)]);
    /// ```
    pub fn new(df: &'a DominanceFrontiers) -> WorklistIdf<'a> {
        WorklistIdf {
            df,
            in_f: StampSet::new(df.num_nodes()),
            in_defs: StampSet::new(df.num_nodes()),
            w: Vec::new(),
        }
    }

    /// Replaces `out` with DF⁺(`defs`), sorted.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers, WorklistIdf};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
    /// let edges = [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (4, 5), (4, 1)];
    /// let g = CsrGraph::from_edges(6, b(0), &edges);
    /// let df = DominanceFrontiers::new(&g, &DomTree::new(&g));
    /// let mut idf = WorklistIdf::new(&df);
    /// let mut out = Vec::new(); // reused across queries
    /// idf.compute(&[b(5)], &mut out);
    /// assert!(out.is_empty()); // DF(E) is empty
    /// idf.compute(&[b(3)], &mut out);
    /// assert_eq!(out, [b(1), b(4), b(5)]);
    /// ```
    pub fn compute(&mut self, defs: &[Block], out: &mut Vec<Block>) {
        out.clear();
        self.in_f.clear();
        self.in_defs.clear();
        self.w.clear();
        // W := the blocks containing definitions (each once).
        for &d in defs {
            if self.in_defs.insert(d.index()) {
                self.w.push(d);
            }
        }
        // while W != {}: remove X from W; for Y in DF(X) ...
        while let Some(x) = self.w.pop() {
            for &y in self.df.df(x) {
                if self.in_f.insert(y.index()) {
                    // add v <- phi(...) at entry of Y; F := F ∪ {Y}
                    out.push(y);
                    if !self.in_defs.contains(y.index()) {
                        self.w.push(y);
                    }
                }
            }
        }
        out.sort_unstable();
    }

    /// DF⁺(`defs`), sorted.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers, WorklistIdf};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // A loop 0 → 1 → 2 → 1: a definition in the body needs a phi at 1.
    /// let g = CsrGraph::from_edges(3, b(0), &[(0, 1), (1, 2), (2, 1)]);
    /// let df = DominanceFrontiers::new(&g, &DomTree::new(&g));
    /// assert_eq!(WorklistIdf::new(&df).idf(&[b(0), b(2)]), [b(1)]);
    /// ```
    pub fn idf(&mut self, defs: &[Block]) -> Vec<Block> {
        let mut out = Vec::new();
        self.compute(defs, &mut out);
        out
    }
}

/// Linear-time DF⁺ on the DJ-graph (Sreedhar–Gao, as LLVM's `IDFCalculator`),
/// with reusable scratch buffers.
///
/// A CFG edge `z → y` from a walked node is a J-edge that qualifies for a
/// root of level `L` iff `level(y) ≤ L`; a D-edge (`idom(y) = z`) goes one
/// level down from `z`, below `L`, and never qualifies. So the calculator
/// keeps, once, each node's J-edges as `(level(y), y)` sorted by level: a
/// walk reads the qualifying ones as a prefix of one array, without the
/// D-edges and without looking up a level per edge (on dense definitions,
/// where every variable walks most of the function, those lookups were
/// most of phi insertion).
///
/// **Subtree pruning.** Walking the whole dominator subtree of every root
/// costs O(blocks) per query when a definition sits high in the tree (a
/// loop counter set in a block that dominates the rest of the function), so
/// one query per variable would be O(variables × blocks). The calculator
/// therefore precomputes, once, `escape[c]`: the smallest level of a
/// successor of any node in the subtree of `c`. A walk for a root of level
/// `L` descends into child `c` only if `escape[c] ≤ L`; otherwise no edge
/// leaving that subtree can reach a level `≤ L`, the subtree holds no
/// qualifying J-edge, and — since later roots have levels `≤ L` — none will
/// ever need it. The result is unchanged (the property tests compare with
/// the definition); the walk now touches only the paths that lead to
/// escaping J-edges.
///
/// # Example
///
/// DF⁺ of the definition blocks of `x` in the chapter's example
/// (r = 0, A = 1, B = 2, C = 3, D = 4, E = 5): Defs(x) = {B, C, D} gives
/// {A, D, E}, as the worklist over DF does.
///
/// ```
/// use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers, IdfCalculator, WorklistIdf};
/// use ssakit::ir::Block;
/// let edges = [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (4, 5), (4, 1)];
/// let g = CsrGraph::from_edges(6, Block::new(0), &edges);
/// let tree = DomTree::new(&g);
/// let defs = [Block::new(2), Block::new(3), Block::new(4)];
/// let idf = IdfCalculator::new(&g, &tree).idf(&defs);
/// assert_eq!(idf, [Block::new(1), Block::new(4), Block::new(5)]);
/// let df = DominanceFrontiers::new(&g, &tree);
/// assert_eq!(WorklistIdf::new(&df).idf(&defs), idf);
/// ```
#[derive(Debug)]
pub struct IdfCalculator<'a, G: Graph + ?Sized> {
    graph: &'a G,
    tree: &'a DomTree,
    /// `escape[c]`: the smallest level of a successor of a node in the
    /// dominator subtree of `c` (`u32::MAX` if none, or unreachable).
    escape: Vec<u32>,
    /// The deepest level of the tree.
    max_level: u32,
    /// What the walks need, built by the first query: a caller that only
    /// asks [`Self::is_empty`] (every variable of straight-line code, or a
    /// caller that finds DF⁺ another way) does not pay for it.
    walk: Option<Walk>,
}

/// The J-edges, the children by escape level and the scratch sets of
/// [`IdfCalculator`]'s walks.
#[derive(Debug)]
struct Walk {
    /// The J-edges `z → y` of each reachable node `z` (a CFG edge that is
    /// not a D-edge), as `(level(y), y)` sorted by level.
    jedges: Csr<Block, (u32, Block)>,
    /// The children `c` of each node as `(escape[c], c)`, sorted by
    /// `escape[c]`: a walk for a root of level `L` descends into a prefix.
    kids: Csr<Block, (u32, Block)>,
    /// Nodes already put in the result or the queue (LLVM's `VisitedPQ`).
    in_pq: StampSet,
    /// Nodes already walked as part of some root's subtree (`VisitedWorklist`).
    walked: StampSet,
    /// The definition blocks of the current query.
    is_def: StampSet,
    /// Roots by level: deepest first.
    queue: LevelQueue,
    /// Subtree walk of the current root.
    worklist: Vec<Block>,
}

impl Walk {
    fn new<G: Graph + ?Sized>(graph: &G, tree: &DomTree, escape: &[u32], max_level: u32) -> Walk {
        let n = graph.num_nodes();
        let mut row: Vec<(u32, Block)> = Vec::new();
        let jedges = Csr::build_in_key_order(n, |app| {
            for z in (0..n).map(Block::new).filter(|&z| tree.is_reachable(z)) {
                row.clear();
                row.extend(graph.succs(z).iter().filter_map(|&y| {
                    let level = tree.depth(y).expect("successor of a reachable node");
                    (tree.idom(y) != Some(z)).then_some((level, y))
                }));
                row.sort_unstable();
                for &e in &row {
                    app.push(z, e);
                }
            }
        });
        let kids = Csr::build_in_key_order(n, |app| {
            for z in (0..n).map(Block::new).filter(|&z| tree.is_reachable(z)) {
                row.clear();
                row.extend(tree.children(z).iter().map(|&c| (escape[c.index()], c)));
                row.sort_unstable();
                for &e in &row {
                    app.push(z, e);
                }
            }
        });
        Walk {
            jedges,
            kids,
            in_pq: StampSet::new(n),
            walked: StampSet::new(n),
            is_def: StampSet::new(n),
            queue: LevelQueue::new(max_level, n),
            worklist: Vec::new(),
        }
    }
}

impl<'a, G: Graph + ?Sized> IdfCalculator<'a, G> {
    /// A calculator for `graph`, whose dominator tree is `tree`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree, IdfCalculator};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // A diamond 0 → {1, 2} → 3.
    /// let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    /// let tree = DomTree::new(&g);
    /// let mut idf = IdfCalculator::new(&g, &tree);
    /// assert_eq!(idf.idf(&[b(1), b(2)]), [b(3)]);
    /// ```
    pub fn new(graph: &'a G, tree: &'a DomTree) -> Self {
        let n = graph.num_nodes();
        debug_assert_eq!(n, tree.num_nodes());
        // Children come after their parent in preorder: fold each node's
        // value into its parent in reverse preorder.
        let mut escape = vec![u32::MAX; n];
        let mut max_level = 0;
        for z in tree.preorder().rev() {
            max_level = max_level.max(tree.depth(z).unwrap_or(0));
            let own = graph
                .succs(z)
                .iter()
                .filter_map(|&y| tree.depth(y))
                .min()
                .unwrap_or(u32::MAX);
            let e = escape[z.index()].min(own);
            escape[z.index()] = e;
            if let Some(p) = tree.idom(z) {
                escape[p.index()] = escape[p.index()].min(e);
            }
        }
        IdfCalculator {
            graph,
            tree,
            escape,
            max_level,
            walk: None,
        }
    }

    /// Replaces `out` with DF⁺(`defs`), sorted.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree, IdfCalculator};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
    /// let edges = [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (4, 5), (4, 1)];
    /// let g = CsrGraph::from_edges(6, b(0), &edges);
    /// let tree = DomTree::new(&g);
    /// let mut idf = IdfCalculator::new(&g, &tree);
    /// let mut out = Vec::new(); // reused across queries
    /// idf.compute(&[b(2)], &mut out);
    /// assert_eq!(out, [b(1), b(4), b(5)]);
    /// idf.compute(&[b(0)], &mut out);
    /// assert!(out.is_empty());
    /// ```
    pub fn compute(&mut self, defs: &[Block], out: &mut Vec<Block>) {
        self.compute_live(defs, out, |_| true)
    }

    /// Whether DF⁺(`defs`) is empty, in O(|defs|). DF⁺(S) is empty iff
    /// DF(S) is, and DF(x) is empty iff no edge leaving the subtree of `x`
    /// reaches a level `≤ level(x)`, that is iff `escape[x] > level(x)`
    /// (D-edges go one level down, so they never qualify). Lets a caller
    /// skip per-variable work (liveness) for a variable that needs no phi:
    /// every variable of straight-line code or of a tree of branches.
    pub(crate) fn is_empty(&self, defs: &[Block]) -> bool {
        defs.iter().all(|&d| match self.tree.depth(d) {
            Some(level) => self.escape[d.index()] > level,
            None => true,
        })
    }

    /// Replaces `out` with the blocks of DF⁺(`defs`) where the variable is
    /// live on entry (`live_in(y)`), sorted: the phis of pruned SSA. As in
    /// LLVM's `IDFCalculator` with live-in blocks, a block where the
    /// variable is dead is neither reported nor used as a new root. That
    /// loses nothing: a live join `z` of DF⁺ is reached by a chain
    /// `x = w0, w1, ..., wk = z` with `w(i+1) ∈ DF(w(i))` taken along a
    /// definition-free path from a definition `x` to `z`, and the variable
    /// is live all along that path since it is live at `z`. It saves the
    /// propagation through dead joins (a loop counter's enclosing loop
    /// headers, say), which is most of the work on loop nests.
    pub(crate) fn compute_live(
        &mut self,
        defs: &[Block],
        out: &mut Vec<Block>,
        live_in: impl FnMut(Block) -> bool,
    ) {
        self.compute_live_unsorted(defs, out, live_in);
        out.sort_unstable();
    }

    /// [`Self::compute_live`] without the final sort: the blocks in the
    /// order the walk finds them. Phi insertion groups its placements by
    /// block afterwards (a stable counting sort), so the order within one
    /// variable's frontier never shows, and the sort was a tenth of the
    /// DF⁺ walk on ladders.
    pub(crate) fn compute_live_unsorted(
        &mut self,
        defs: &[Block],
        out: &mut Vec<Block>,
        mut live_in: impl FnMut(Block) -> bool,
    ) {
        out.clear();
        let tree = self.tree;
        let (graph, escape, max_level) = (self.graph, &self.escape, self.max_level);
        let w = self
            .walk
            .get_or_insert_with(|| Walk::new(graph, tree, escape, max_level));
        w.in_pq.clear();
        w.walked.clear();
        w.is_def.clear();
        w.queue.clear();
        for &d in defs {
            if let Some(level) = tree.depth(d) {
                if w.is_def.insert(d.index()) {
                    w.walked.insert(d.index());
                    w.queue.push(level, d);
                }
            }
        }
        while let Some((root_level, root)) = w.queue.pop() {
            // Walk the dominator subtree of the root, skipping parts already
            // walked for earlier (deeper or equal) roots. A root was never
            // walked before: a node walked for an earlier root of level L'
            // has level >= L', while queued roots have level <= L'.
            w.walked.insert(root.index());
            w.worklist.clear();
            w.worklist.push(root);
            while let Some(z) = w.worklist.pop() {
                for &(y_level, y) in w.jedges.of(z) {
                    if y_level > root_level {
                        break; // J-edges not leaving the subtree, from here on
                    }
                    if !w.in_pq.insert(y.index()) || !live_in(y) {
                        continue;
                    }
                    out.push(y);
                    if !w.is_def.contains(y.index()) {
                        w.queue.push(y_level, y);
                    }
                }
                for &(escape, c) in w.kids.of(z) {
                    if escape > root_level {
                        break;
                    }
                    if w.walked.insert(c.index()) {
                        w.worklist.push(c);
                    }
                }
            }
        }
    }

    /// DF⁺(`defs`), sorted.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{CsrGraph, DomTree, IdfCalculator};
    /// # use ssakit::ir::Block;
    /// # let b = Block::new;
    /// // A loop 0 → 1 → 2 → 1: a definition in the body needs a phi at 1.
    /// let g = CsrGraph::from_edges(3, b(0), &[(0, 1), (1, 2), (2, 1)]);
    /// let tree = DomTree::new(&g);
    /// assert_eq!(IdfCalculator::new(&g, &tree).idf(&[b(2)]), [b(1)]);
    /// ```
    pub fn idf(&mut self, defs: &[Block]) -> Vec<Block> {
        let mut out = Vec::new();
        self.compute(defs, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::graph::CsrGraph;

    #[test]
    fn nested_loops_need_iteration() {
        // 0 → 1 → 2 → 3 → 2, 3 → 1, 3 → 4
        // DF(3) = {1, 2}, DF(2) = {1, 2}, DF(1) = {1}: DF⁺({3}) = {1, 2}.
        let g = CsrGraph::from_edges(
            5,
            Block::from_u32(0),
            &[(0, 1), (1, 2), (2, 3), (3, 2), (3, 1), (3, 4)],
        );
        let t = DomTree::new(&g);
        let df = DominanceFrontiers::new(&g, &t);
        let mut chapter = WorklistIdf::new(&df);
        let mut linear = IdfCalculator::new(&g, &t);
        for defs in [
            &[Block::from_u32(3)][..],
            &[Block::from_u32(4)],
            &[Block::from_u32(0)],
            &[Block::from_u32(2), Block::from_u32(2)],
        ] {
            assert_eq!(chapter.idf(defs), linear.idf(defs), "defs {defs:?}");
        }
        assert_eq!(
            linear.idf(&[Block::from_u32(3)]),
            vec![Block::from_u32(1), Block::from_u32(2)]
        );
        assert_eq!(linear.idf(&[Block::from_u32(4)]), vec![] as Vec<Block>);
    }

    #[test]
    fn iteration_beyond_df() {
        // 0 → 1, 0 → 2; 1 → 3, 2 → 3; 3 → 4, 0 → 4. DF(1) = {3}, DF(3) = {4}.
        let g = CsrGraph::from_edges(
            5,
            Block::from_u32(0),
            &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (0, 4)],
        );
        let t = DomTree::new(&g);
        let df = DominanceFrontiers::new(&g, &t);
        assert_eq!(df.df(Block::from_u32(1)), &[Block::from_u32(3)]);
        assert_eq!(
            WorklistIdf::new(&df).idf(&[Block::from_u32(1)]),
            vec![Block::from_u32(3), Block::from_u32(4)]
        );
        assert_eq!(
            IdfCalculator::new(&g, &t).idf(&[Block::from_u32(1)]),
            vec![Block::from_u32(3), Block::from_u32(4)]
        );
    }
}
