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
//! (coalescing in [`crate::destruct`]).
//!
//! # Natural loops nest
//!
//! Two natural loops with different headers are disjoint or one contains
//! the other, reducible graph or not. If `n` is in `L(h1)` and `L(h2)`,
//! both headers dominate `n`, so one dominates the other, say `h1` dominates
//! `h2`; `h1` is not in `L(h2)` (else `h2` would dominate it too), so the
//! paths inside `L(h2)` from `h2` to its members avoid `h1`, and from `n` on
//! to a back-edge source of `h1` as well: all of `L(h2)` lies in `L(h1)`.
//! Moreover only the header of a loop has predecessors outside it: a
//! predecessor `p` of a member `m ≠ h` reaches the back-edge source through
//! `m`, so it is in the loop (or is `h`).
//!
//! The loops therefore form a forest, and the depth of a block is the depth
//! of its innermost loop in that forest. [`loop_depth`] builds the forest as
//! Tarjan's loop-nesting algorithm does (also the core of Havlak's): headers
//! are taken innermost first, each loop body is found by a backward walk
//! from its back-edge sources, and a loop already found is *collapsed* into
//! its header with a union-find, so the walk of an enclosing loop steps over
//! it in one move, through the header's predecessors (the only way in).
//! [`loop_depth_by_bodies`] is the direct definition, kept as the oracle.

#[cfg(test)]
use super::StampSet;
use super::{DomTree, Graph};
use crate::entity::EntityVec;
use crate::ir::Block;

/// No loop: the entries of `enclosing` for blocks outside every loop.
const NO_LOOP: u32 = u32::MAX;

/// The loop depth of every node of `g` (0 for unreachable nodes), in
/// `O((nodes + edges) · log nodes)` at worst (union-find with path halving
/// only, the header always the root), near linear in practice.
///
/// Headers are taken in reverse preorder of the dominator tree, so a loop
/// comes before every loop containing it (an enclosing header dominates the
/// inner one). The walk for header `h` starts at the back-edge sources and
/// goes backwards, each block replaced by `find(block)`: the header of the
/// outermost loop found so far that contains it, or itself. Each
/// representative met is collapsed into `h` and records `h` as its
/// innermost enclosing loop, so every block is walked from once.
///
/// # Preconditions
/// `dt` is the dominator tree of `g`.
pub(crate) fn loop_depth<G: Graph + ?Sized>(g: &G, dt: &DomTree) -> EntityVec<Block, u32> {
    let n = g.num_nodes();
    // `enclosing[b]`: the header of the innermost loop containing `b`
    // other than `b`'s own (for a header, the loop around its loop).
    let mut enclosing = vec![NO_LOOP; n];
    let mut is_header = vec![false; n];
    // Union-find parent: a found loop points to its enclosing header.
    let mut collapsed: Vec<u32> = (0..n as u32).collect();
    let mut work: Vec<u32> = Vec::new();
    let preorder: Vec<Block> = dt.preorder().collect();
    for &h in preorder.iter().rev() {
        let hi = h.as_u32();
        // Back edges `t → h` start the walk (a self loop `h → h` is a back
        // edge whose body is `h` alone).
        for &t in g.preds(h) {
            if dt.dominates(h, t) {
                is_header[h.index()] = true;
                absorb(&mut collapsed, &mut enclosing, &mut work, t.as_u32(), hi);
            }
        }
        while let Some(b) = work.pop() {
            for &p in g.preds(Block::from_u32(b)) {
                if dt.is_reachable(p) {
                    absorb(&mut collapsed, &mut enclosing, &mut work, p.as_u32(), hi);
                }
            }
        }
    }
    // An enclosing header dominates what it encloses, so comes first in
    // preorder.
    let mut depth: EntityVec<Block, u32> = EntityVec::filled(n, 0);
    for &b in &preorder {
        let outer = match enclosing[b.index()] {
            NO_LOOP => 0,
            e => depth[Block::from_u32(e)],
        };
        depth[b] = outer + is_header[b.index()] as u32;
    }
    depth
}

/// One step of the walk for header `h`: the representative `r` of `b`,
/// unless it is `h` (already in the loop), joins `h`'s loop and the walk.
fn absorb(collapsed: &mut [u32], enclosing: &mut [u32], work: &mut Vec<u32>, b: u32, h: u32) {
    let r = find(collapsed, b);
    if r != h {
        collapsed[r as usize] = h;
        enclosing[r as usize] = h;
        work.push(r);
    }
}

/// The root of `x` in `parent`, halving the path on the way.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let gp = parent[parent[x as usize] as usize];
        parent[x as usize] = gp;
        x = gp;
    }
    x
}

/// The loop depth of every node of `g`, straight from the definition: the
/// body of each loop by its own backward walk, stopping at the header, and
/// `+1` for every block in it. `O(blocks × maximum depth)` plus the edges
/// of every walk: quadratic on deep nests, the oracle of [`loop_depth`].
///
/// # Preconditions
/// `dt` is the dominator tree of `g`.
#[cfg(test)]
pub(crate) fn loop_depth_by_bodies<G: Graph + ?Sized>(
    g: &G,
    dt: &DomTree,
) -> EntityVec<Block, u32> {
    let n = g.num_nodes();
    let mut depth: EntityVec<Block, u32> = EntityVec::filled(n, 0);
    let mut body = StampSet::new(n);
    let mut stack: Vec<Block> = Vec::new();
    for h in dt.preorder() {
        body.clear();
        body.insert(h.index());
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
    use proptest::prelude::*;

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
        let g = CsrGraph::from_edges(6, Block::from_u32(0), &edges);
        let dt = DomTree::new(&g);
        let d = loop_depth(&g, &dt);
        assert_eq!(d.as_slice(), &[0, 1, 2, 2, 1, 0]);
        assert_eq!(d, loop_depth_by_bodies(&g, &dt));
    }

    /// An irreducible cycle between 1 and 2 (both entered from 0) has no
    /// dominating header, so no depth.
    #[test]
    fn irreducible_cycle_has_no_depth() {
        let edges = [(0, 1), (0, 2), (1, 2), (2, 1)];
        let g = CsrGraph::from_edges(3, Block::from_u32(0), &edges);
        let dt = DomTree::new(&g);
        assert_eq!(loop_depth(&g, &dt).as_slice(), &[0, 0, 0]);
    }

    /// A ladder of 50,000 nested loops (`r_i → r_{i+1}`, latches going
    /// back out), whose depth reaches 50,000: linear, where walking each
    /// body would take over a billion steps.
    ///
    /// ```text
    /// 0 → r1 → r2 → ... → rN → lN → ... → l2 → l1 → exit
    ///      ^    ^                 |          |    |
    ///      |    +-----------------|----------+    |    l_i → r_i
    ///      +--------------------------------------+
    /// ```
    #[test]
    fn deep_ladder_is_linear() {
        let n = 50_000u32;
        let (r, l) = (|i: u32| i, |i: u32| n + i);
        let exit = 2 * n + 1;
        let mut edges = vec![(0, r(1))];
        for i in 1..n {
            edges.push((r(i), r(i + 1)));
        }
        edges.push((r(n), l(n)));
        for i in (1..=n).rev() {
            edges.push((l(i), r(i)));
            edges.push((l(i), if i == 1 { exit } else { l(i - 1) }));
        }
        let g = CsrGraph::from_edges(2 * n as usize + 2, Block::from_u32(0), &edges);
        let dt = DomTree::new(&g);
        let d = loop_depth(&g, &dt);
        for i in 1..=n {
            assert_eq!(d[Block::from_u32(r(i))], i);
            assert_eq!(d[Block::from_u32(l(i))], i);
        }
        assert_eq!((d[Block::from_u32(0)], d[Block::from_u32(exit)]), (0, 0));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Arbitrary edge lists (irreducible cycles, self loops,
        /// multi-edges, unreachable nodes, an entry with predecessors):
        /// the union-find forest agrees with the definition.
        #[test]
        fn agrees_with_the_definition(
            (n, entry, edges) in (1usize..30).prop_flat_map(|n| {
                let e = n as u32;
                (Just(n), 0..e, prop::collection::vec((0..e, 0..e), 0..3 * n))
            })
        ) {
            let g = CsrGraph::from_edges(n, Block::from_u32(entry), &edges);
            let dt = DomTree::new(&g);
            prop_assert_eq!(loop_depth(&g, &dt), loop_depth_by_bodies(&g, &dt));
        }
    }
}
