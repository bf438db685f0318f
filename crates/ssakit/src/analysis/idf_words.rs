//! DF⁺ of up to 64 variables at once, for pruned SSA: the chapter's
//! worklist (section 13.3) over precomputed frontiers, with a word of
//! variables where the chapter has one.
//!
//! The chapter's worklist takes a block `X` from W and puts each
//! `Y ∈ DF(X)` into F (a phi), and into W unless `Y` already defines the
//! variable. Here every block carries a word: bit `k` of `phis[Y]` is
//! "variable `k` has a phi at `Y`" (F, 64 variables wide), bit `k` of
//! `pending[X]` is "`X` defines variable `k` (by an instruction or a phi)
//! and DF(X) has not been given it yet" (W). Taking `X` carries its pending
//! word to every `Y ∈ DF(X)` in one word operation:
//!
//! ```text
//! for X with Defs bits d:   pending[X] |= d
//! while some pending[X] != 0:
//!     bits := pending[X];  pending[X] := 0
//!     for Y in DF(X):
//!         new := bits & live_in[Y] & !phis[Y]      // pruned: only live joins
//!         phis[Y] |= new
//!         pending[Y] |= new & !def[Y]              // a new definition of Y
//! ```
//!
//! A join where a variable is dead gets neither its phi nor its bit, as in
//! [`IdfCalculator`](super::IdfCalculator)'s `compute_live` (the argument
//! is the same: a live join of DF⁺ is reached from a definition by a chain
//! of frontiers along a definition-free path, all of it live). So
//! `phis[Y]` ends as the bits of the variables whose DF⁺(Defs) ∩ live-in
//! holds `Y`: the phis of pruned SSA.
//!
//! **Order.** `Y ∈ DF(X)` implies `idom(Y)` strictly dominates `X`, so
//! `level(Y) ≤ level(X)` (level = depth in the dominator tree). Blocks are
//! taken deepest level first ([`LevelQueue`]): a block is taken after
//! every deeper block that can give it bits, and is taken again only for
//! bits from its own level (a loop header in its own frontier, siblings).
//! Most blocks are taken once per call, with all their bits together.
//!
//! **Cost.** O(Σ|DF(X)| over the blocks taken) word operations per call,
//! for up to 64 variables, against one Sreedhar–Gao walk per variable. It
//! needs DF, which can be quadratic (a ladder): the frontiers are built
//! only within a bound ([`DominanceFrontiers::within`]) and a caller falls
//! back to the per-variable walks beyond it.

use super::domtree::DomTree;
use super::frontier::DominanceFrontiers;
use super::graph::Graph;
use super::level_queue::LevelQueue;
use crate::entity::EntityVec;
use crate::ir::Block;

/// The worklist of the module doc over one function's frontiers, its words
/// reused from call to call.
///
/// Invariant between calls: `pending` is zero everywhere and the queue is
/// empty; `phis` is zero except at the blocks of `touched`.
#[derive(Debug)]
pub(crate) struct IdfWords<'a> {
    tree: &'a DomTree,
    df: DominanceFrontiers,
    /// F: bit `k` set when variable `k` of the call has a phi at the block.
    phis: EntityVec<Block, u64>,
    /// W: the bits the block defines that its frontier has not had yet; a
    /// block is queued exactly when its word is non-zero.
    pending: EntityVec<Block, u64>,
    /// The blocks whose `phis` word is non-zero, each once.
    touched: Vec<Block>,
    queue: LevelQueue,
}

impl<'a> IdfWords<'a> {
    /// The worklist over `g`'s frontiers, or `None` when Σ|DF(x)| exceeds
    /// `max_frontier` (see [`DominanceFrontiers::within`]).
    pub(crate) fn new<G: Graph + ?Sized>(
        g: &G,
        tree: &'a DomTree,
        max_frontier: usize,
    ) -> Option<IdfWords<'a>> {
        let n = g.num_nodes();
        // A lower bound first, in O(edges): DF_all's walk from a
        // predecessor `p` of `y` up to `idom(y)` puts `y` in the frontier
        // of each node on the way, depth(p) − depth(idom(y)) of them. A
        // ladder's quadratic frontiers are seen here without building them.
        let mut at_least = 0usize;
        for y in (0..n).map(Block::new) {
            let Some(top) = tree.idom(y).and_then(|d| tree.depth(d)) else {
                continue;
            };
            let longest = g
                .preds(y)
                .iter()
                .filter_map(|&p| tree.depth(p))
                .max()
                .unwrap_or(top);
            at_least += (longest - top) as usize;
            if at_least > max_frontier {
                return None;
            }
        }
        let df = DominanceFrontiers::within(g, tree, max_frontier)?;
        let deepest = (0..n)
            .filter_map(|b| tree.depth(Block::new(b)))
            .max()
            .unwrap_or(0);
        Some(IdfWords {
            tree,
            df,
            phis: EntityVec::filled(n, 0),
            pending: EntityVec::filled(n, 0),
            touched: Vec::with_capacity(n),
            queue: LevelQueue::new(deepest, n),
        })
    }

    /// Runs the worklist for the variables of one word: `defs` gives each
    /// definition block with the bits of the variables it defines (a block
    /// may come more than once), `def(Y)` the bits `Y` defines, `live_in(Y)`
    /// the bits live on entry to `Y`. Returns each block that gets phis with
    /// the bits of their variables (in no particular order of blocks).
    /// Unreachable blocks are ignored.
    pub(crate) fn compute(
        &mut self,
        defs: impl IntoIterator<Item = (Block, u64)>,
        def: impl Fn(Block) -> u64,
        live_in: impl Fn(Block) -> u64,
    ) -> impl Iterator<Item = (Block, u64)> + Clone + '_ {
        for b in self.touched.drain(..) {
            self.phis[b] = 0;
        }
        let mut w = Pending {
            tree: self.tree,
            pending: &mut self.pending,
            queue: &mut self.queue,
        };
        for (x, bits) in defs {
            w.give(x, bits);
        }
        while let Some((_, x)) = w.queue.pop() {
            let bits = std::mem::take(&mut w.pending[x]);
            for &y in self.df.df(x) {
                let new = bits & live_in(y) & !self.phis[y];
                if new != 0 {
                    if self.phis[y] == 0 {
                        self.touched.push(y);
                    }
                    self.phis[y] |= new;
                    w.give(y, new & !def(y));
                }
            }
        }
        self.touched.iter().map(|&b| (b, self.phis[b]))
    }
}

/// W of [`IdfWords::compute`]: the pending words and the queue.
struct Pending<'w> {
    tree: &'w DomTree,
    pending: &'w mut EntityVec<Block, u64>,
    queue: &'w mut LevelQueue,
}

impl Pending<'_> {
    /// Adds `bits` to `x`'s pending word, queueing `x` if it was empty.
    #[inline]
    fn give(&mut self, x: Block, bits: u64) {
        let Some(level) = self.tree.depth(x) else {
            return;
        };
        if bits != 0 {
            if self.pending[x] == 0 {
                self.queue.push(level, x);
            }
            self.pending[x] |= bits;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{CsrGraph, IdfCalculator};

    /// The chapter's CFG (r = 0, A = 1, B = 2, C = 3, D = 4, E = 5): the
    /// word's bits give each variable's DF⁺, as the linear method does.
    #[test]
    fn each_bit_is_its_variables_idf() {
        let edges = crate::analysis::graph::CHAPTER_EDGES;
        let g = CsrGraph::from_edges(6, Block::new(0), &edges);
        let tree = DomTree::new(&g);
        let sets: [&[usize]; 4] = [&[2, 3, 4], &[2], &[5], &[0]];
        let mut words = IdfWords::new(&g, &tree, usize::MAX).unwrap();
        let defs = sets
            .iter()
            .enumerate()
            .flat_map(|(k, s)| s.iter().map(move |&b| (Block::new(b), 1u64 << k)));
        let def = |y: Block| {
            (0..4)
                .filter(|&k| sets[k].contains(&y.index()))
                .fold(0u64, |w, k| w | 1 << k)
        };
        let mut got: Vec<(Block, u64)> = words.compute(defs, def, |_| u64::MAX).collect();
        got.sort();
        let mut calc = IdfCalculator::new(&g, &tree);
        for (k, s) in sets.iter().enumerate() {
            let d: Vec<Block> = s.iter().map(|&b| Block::new(b)).collect();
            let want = calc.idf(&d);
            let have: Vec<Block> = got
                .iter()
                .filter(|&&(_, w)| w >> k & 1 != 0)
                .map(|&(b, _)| b)
                .collect();
            assert_eq!(have, want, "variable {k}");
        }
    }

    /// A dead join is neither a phi nor a new root, and a second call
    /// starts from nothing.
    #[test]
    fn dead_joins_stop_the_propagation_and_calls_are_independent() {
        // 0 → 1 → 2 → 3 → 2 (inner loop), 3 → 1 (outer loop), 1 → 4.
        let edges = [(0, 1), (1, 2), (2, 3), (3, 2), (3, 1), (1, 4)];
        let g = CsrGraph::from_edges(5, Block::new(0), &edges);
        let tree = DomTree::new(&g);
        let mut words = IdfWords::new(&g, &tree, usize::MAX).unwrap();
        let def = |y: Block| u64::from(y.index() == 3);
        // Live everywhere: phis at the inner header 2 and the outer one 1.
        let all: Vec<_> = words.compute([(Block::new(3), 1)], def, |_| 1).collect();
        assert_eq!(sorted(all), [(Block::new(1), 1), (Block::new(2), 1)]);
        // Dead at 2: 1 still gets its phi from DF(3), 2 none.
        let live = |y: Block| u64::from(y.index() != 2);
        let some: Vec<_> = words.compute([(Block::new(3), 1)], def, live).collect();
        assert_eq!(sorted(some), [(Block::new(1), 1)]);
        // Beyond a bound of 1 on Σ|DF| there are no frontiers.
        assert!(IdfWords::new(&g, &tree, 1).is_none());
    }

    fn sorted(mut v: Vec<(Block, u64)>) -> Vec<(Block, u64)> {
        v.sort();
        v
    }
}
