//! Slow oracles straight from the definitions, for tests.
//!
//! Each function here recomputes a result of this module in the most
//! obvious way, with no cleverness to get wrong, so that property tests can
//! compare the real algorithms against it on thousands of random graphs (the
//! approach of Cranelift's dominator fuzz target and regalloc2's
//! `src/fuzzing`). They are polynomial but slow: use them on graphs of tens
//! of nodes.
//!
//! * Dominance: `a` dominates a reachable `b` iff `b` is no longer reachable
//!   from the entry once `a` is removed (or `a == b`).
//! * DF(x) = { y : x dominates a (reachable) predecessor of y, and x does not
//!   strictly dominate y }.
//! * DF⁺(S): iterate DF_{i+1} = DF(S ∪ DF_i) from DF_1 = DF(S) to a fixpoint.
//! * J(S): nodes `n` with two non-empty paths from distinct nodes of S that
//!   meet first at `n`; decided by a unit-capacity max-flow (Menger).
//! * Liveness: iterative backward dataflow over bitsets.

use super::graph::{edge_list, CsrGraph, Graph};
use crate::ir::{Block, Cfg, Function, Var};

/// Which nodes are reachable from the entry when `removed` is deleted.
pub(crate) fn reachable_without<G: Graph + ?Sized>(g: &G, removed: Option<Block>) -> Vec<bool> {
    let mut seen = vec![false; g.num_nodes()];
    if Some(g.entry()) == removed {
        return seen;
    }
    let mut stack = vec![g.entry()];
    seen[g.entry().index()] = true;
    while let Some(a) = stack.pop() {
        for &b in g.succs(a) {
            if Some(b) != removed && !seen[b.index()] {
                seen[b.index()] = true;
                stack.push(b);
            }
        }
    }
    seen
}

/// The dominance relation as a matrix: `m[a][b]` iff `a` dominates `b`.
/// Only reachable nodes dominate or are dominated.
pub(crate) fn dominance_matrix<G: Graph + ?Sized>(g: &G) -> Vec<Vec<bool>> {
    let n = g.num_nodes();
    let reach = reachable_without(g, None);
    let mut m = vec![vec![false; n]; n];
    for a in 0..n {
        if !reach[a] {
            continue;
        }
        let without = reachable_without(g, Some(Block::new(a)));
        for b in 0..n {
            m[a][b] = reach[b] && (a == b || !without[b]);
        }
    }
    m
}

/// Immediate dominators from the matrix: the strict dominator of `b` that all
/// other strict dominators of `b` dominate. `None` for the entry and for
/// unreachable nodes.
pub(crate) fn idoms<G: Graph + ?Sized>(g: &G) -> Vec<Option<Block>> {
    let m = dominance_matrix(g);
    let n = g.num_nodes();
    (0..n)
        .map(|b| {
            let strict: Vec<usize> = (0..n).filter(|&a| a != b && m[a][b]).collect();
            strict
                .iter()
                .copied()
                .find(|&c| strict.iter().all(|&a| m[a][c]))
                .map(Block::new)
        })
        .collect()
}

/// DF(x) for every x, by definition, each sorted.
pub(crate) fn dominance_frontiers<G: Graph + ?Sized>(g: &G) -> Vec<Vec<Block>> {
    let m = dominance_matrix(g);
    let n = g.num_nodes();
    (0..n)
        .map(|x| {
            (0..n)
                .filter(|&y| {
                    let dominates_pred = g.preds(Block::new(y)).iter().any(|p| m[x][p.index()]);
                    let strictly = x != y && m[x][y];
                    dominates_pred && !strictly
                })
                .map(Block::new)
                .collect()
        })
        .collect()
}

/// DF⁺(S) as the fixpoint of DF_{i+1} = DF(S ∪ DF_i), sorted.
pub(crate) fn iterated_frontier(df: &[Vec<Block>], s: &[Block]) -> Vec<Block> {
    let n = df.len();
    let mut result = vec![false; n];
    loop {
        let mut next = vec![false; n];
        for x in 0..n {
            if s.iter().any(|b| b.index() == x) || result[x] {
                for y in &df[x] {
                    next[y.index()] = true;
                }
            }
        }
        if next == result {
            break;
        }
        result = next;
    }
    (0..n).filter(|&i| result[i]).map(Block::new).collect()
}

/// The join set J(S): every node `n` for which there are two non-empty paths
/// `P` from `x ∈ S` and `Q` from `y ∈ S`, `x ≠ y`, both ending at `n`, with
/// no node in common except that final `n`. Sorted.
///
/// By Menger's theorem, such paths exist iff two units of flow can go from a
/// super-source (one unit of capacity to each node of S) to `n` when every
/// node other than `n` can carry one unit. Nodes are split into `in`/`out`
/// halves joined by a capacity-1 arc; `n` is split into a sink (entered by
/// the edges into `n`) and a source half (leaving by the edges out of `n`,
/// used only when `n ∈ S`: a path from `n` to `n` is then a cycle).
///
/// Chapter 13.2 states DF⁺(S) = J(S ∪ {r}). That holds when the entry `r`
/// has no predecessors. In general, for S of reachable nodes, DF⁺(S) =
/// J(S ∪ {r₀}) \ {r₀} in [`with_virtual_entry`]`(g)`, whose new entry `r₀`
/// has a single edge to `r` (a definition at `r` in the chapter's sense is a
/// definition *before* `r`: with `r → a → r`, DF⁺({a}) = {r} but J({r, a}) = ∅).
pub(crate) fn join_set<G: Graph + ?Sized>(g: &G, s: &[Block]) -> Vec<Block> {
    let n = g.num_nodes();
    let edges = edge_list(g);
    (0..n)
        .filter(|&t| max_flow_to(n, &edges, s, t, 2) >= 2)
        .map(Block::new)
        .collect()
}

/// A copy of `g` with one more node, the new entry, whose only edge goes to
/// the old entry.
pub(crate) fn with_virtual_entry<G: Graph + ?Sized>(g: &G) -> CsrGraph {
    let n = g.num_nodes();
    let mut edges = edge_list(g);
    edges.push((n as u32, g.entry().as_u32()));
    CsrGraph::from_edges(n + 1, Block::new(n), &edges)
}

/// Unit-capacity node-disjoint flow from the nodes of `s` to `t`, up to
/// `limit` units (augmenting paths found by breadth-first search).
fn max_flow_to(n: usize, edges: &[(u32, u32)], s: &[Block], t: usize, limit: u32) -> u32 {
    // Vertices: 2v = v_in, 2v+1 = v_out (for v = t: t_in is the sink, t_out
    // the source half); 2n = super-source.
    let source = 2 * n;
    let sink = 2 * t;
    let mut arcs: Vec<(usize, usize, i32)> = Vec::new(); // (from, to, capacity)
    let add = |a: usize, b: usize, arcs: &mut Vec<(usize, usize, i32)>| {
        arcs.push((a, b, 1));
        arcs.push((b, a, 0));
    };
    for v in 0..n {
        if v != t {
            add(2 * v, 2 * v + 1, &mut arcs);
        }
    }
    let mut in_s = vec![false; n];
    for &x in s {
        if !in_s[x.index()] {
            in_s[x.index()] = true;
            add(
                source,
                if x.index() == t {
                    2 * t + 1
                } else {
                    2 * x.index()
                },
                &mut arcs,
            );
        }
    }
    for &(a, b) in edges {
        add(2 * a as usize + 1, 2 * b as usize, &mut arcs);
    }
    let nv = 2 * n + 1;
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); nv];
    for (i, &(a, _, _)) in arcs.iter().enumerate() {
        adj[a].push(i);
    }
    let mut flow = 0;
    while flow < limit {
        // BFS for an augmenting path in the residual graph.
        let mut via = vec![usize::MAX; nv];
        let mut seen = vec![false; nv];
        seen[source] = true;
        let mut queue = std::collections::VecDeque::from([source]);
        while let Some(u) = queue.pop_front() {
            for &i in &adj[u] {
                let (_, w, c) = arcs[i];
                if c > 0 && !seen[w] {
                    seen[w] = true;
                    via[w] = i;
                    queue.push_back(w);
                }
            }
        }
        if !seen[sink] {
            break;
        }
        let mut w = sink;
        while w != source {
            let i = via[w];
            arcs[i].2 -= 1;
            arcs[i ^ 1].2 += 1;
            w = arcs[i].0;
        }
        flow += 1;
    }
    flow
}

/// Live-in and live-out sets of every block (by block index, each sorted),
/// by iterating the backward dataflow equations to a fixpoint over bitsets:
///
/// ```text
/// LiveOut(B) = ∪ over successors S of B: LiveIn(S) ∪ PhiUses(S, B)
/// LiveIn(B)  = transfer(B, LiveOut(B))
/// ```
///
/// where `PhiUses(S, B)` are the phi operands of `S` labelled `B`, and
/// `transfer` walks `B` backwards: add the terminator's operand; for each
/// instruction from last to first, remove its definitions then add its uses;
/// finally remove the phi destinations. Blocks outside the layout have empty
/// sets.
pub(crate) fn liveness(func: &Function) -> (Vec<Vec<Var>>, Vec<Vec<Var>>) {
    let cfg = Cfg::new(func);
    let nb = func.num_blocks();
    let words = func.num_vars().div_ceil(64);
    let mut live_in = vec![vec![0u64; words]; nb];
    let mut live_out = vec![vec![0u64; words]; nb];
    let set = |bits: &mut [u64], v: Var| bits[v.index() / 64] |= 1 << (v.index() % 64);
    let unset = |bits: &mut [u64], v: Var| bits[v.index() / 64] &= !(1 << (v.index() % 64));
    let mut changed = true;
    while changed {
        changed = false;
        for &b in func.layout().iter().rev() {
            let mut out = vec![0u64; words];
            for &s in cfg.succs(b) {
                for (o, i) in out.iter_mut().zip(&live_in[s.index()]) {
                    *o |= i;
                }
                for &phi in func.block_phis(s) {
                    for a in func.phi_args(phi).iter().filter(|a| a.block == b) {
                        if let Some(v) = a.value.var() {
                            set(&mut out, v);
                        }
                    }
                }
            }
            let mut live = out.clone();
            func.for_each_term_use(b, |v| set(&mut live, v));
            for &i in func.block_insts(b).iter().rev() {
                func.for_each_def(i, |v| unset(&mut live, v));
                func.for_each_use(i, |v| set(&mut live, v));
            }
            for &i in func.block_phis(b) {
                func.for_each_def(i, |v| unset(&mut live, v));
            }
            if out != live_out[b.index()] || live != live_in[b.index()] {
                changed = true;
                live_out[b.index()] = out;
                live_in[b.index()] = live;
            }
        }
    }
    let to_vars = |bits: &Vec<u64>| -> Vec<Var> {
        (0..func.num_vars())
            .filter(|&v| bits[v / 64] >> (v % 64) & 1 == 1)
            .map(Var::new)
            .collect()
    };
    (
        live_in.iter().map(to_vars).collect(),
        live_out.iter().map(to_vars).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_set_small_cases() {
        // Diamond 0 → {1, 2} → 3: J({1, 2}) = {3}; J({0, 1}) = {3};
        // J({1}) = ∅ (one start node).
        let g = CsrGraph::from_edges(4, Block::from_u32(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        assert_eq!(
            join_set(&g, &[Block::from_u32(1), Block::from_u32(2)]),
            vec![Block::from_u32(3)]
        );
        assert_eq!(
            join_set(&g, &[Block::from_u32(0), Block::from_u32(1)]),
            vec![Block::from_u32(3)]
        );
        assert!(join_set(&g, &[Block::from_u32(1)]).is_empty());
        // Chain 0 → 1 → 2: the paths from 0 and 1 to 2 share 1.
        let chain = CsrGraph::from_edges(3, Block::from_u32(0), &[(0, 1), (1, 2)]);
        assert!(join_set(&chain, &[Block::from_u32(0), Block::from_u32(1)]).is_empty());
        // Loop 0 → 1 → 1: J({0, 1}) = {1} (0 → 1 and the cycle 1 → 1).
        let lp = CsrGraph::from_edges(2, Block::from_u32(0), &[(0, 1), (1, 1)]);
        assert_eq!(
            join_set(&lp, &[Block::from_u32(0), Block::from_u32(1)]),
            vec![Block::from_u32(1)]
        );
        // Entry with a predecessor: r → a → r has J({r, a}) = ∅ ...
        let back = CsrGraph::from_edges(2, Block::from_u32(0), &[(0, 1), (1, 0)]);
        assert!(join_set(&back, &[Block::from_u32(0), Block::from_u32(1)]).is_empty());
        // ... but with the virtual entry r₀ = 2, J({r₀, a}) = {r}.
        let v = with_virtual_entry(&back);
        assert_eq!(
            join_set(&v, &[Block::from_u32(2), Block::from_u32(1)]),
            vec![Block::from_u32(0)]
        );
    }

    #[test]
    fn brute_dominators_of_a_loop() {
        let g = CsrGraph::from_edges(4, Block::from_u32(0), &[(0, 1), (1, 2), (2, 1), (2, 3)]);
        assert_eq!(
            idoms(&g),
            vec![
                None,
                Some(Block::from_u32(0)),
                Some(Block::from_u32(1)),
                Some(Block::from_u32(2))
            ]
        );
        let df = dominance_frontiers(&g);
        assert_eq!(df[2], vec![Block::from_u32(1)]);
        assert_eq!(df[1], vec![Block::from_u32(1)]);
        assert_eq!(
            iterated_frontier(&df, &[Block::from_u32(2)]),
            vec![Block::from_u32(1)]
        );
    }
}
