//! Generated CFG shapes for the big-graph tests and the benchmark.
//!
//! ```text
//!  chain(n):  0 → 1 → 2 → ... → n-1, and n-1 → 1 (one long loop)
//!
//!  ladder(n): 0 → L0 → L1 → ... → Lk-1 → X → L0   (X → L0 closes a loop)
//!                 ↓    ↓          ↓      ↑
//!                 R0 → R1 → ... → Rk-1 ──┘
//!
//!  diamonds(n): 0 → H0 → {T0, E0} → H1 → {T1, E1} → ... → Hk → H0
//! ```
//!
//! The ladder (Cytron et al.'s example) is the classic worst case for
//! dominance frontiers: every `R_i` has `idom = L0`, so DF(L_i) = {R_i, ...,
//! R_k-1, X} and Σ|DF| is quadratic, while the DJ-graph has only n + 2k
//! edges. It is also the worst case of the Cooper–Harvey–Kennedy algorithm:
//! `intersect(R_i, L_i+1)` walks the whole `L` rail, Θ(n²) in all. Its
//! depth-first search and its dominator tree are both about n/2 deep.
//!
//! The chain of diamonds (if-then-else after if-then-else) has a dominator
//! tree n/3 deep, linear-size frontiers, and is easy for every algorithm.
#![allow(dead_code)]

use ssakit::analysis::{CsrGraph, Graph};
use ssakit::ir::{BinOp, Block, Function, FunctionBuilder, Operand};

/// The chain of `n ≥ 2` nodes with a back edge from the last to node 1.
pub fn chain(n: usize) -> CsrGraph {
    let mut edges: Vec<(u32, u32)> = (0..n as u32 - 1).map(|i| (i, i + 1)).collect();
    edges.push((n as u32 - 1, 1));
    CsrGraph::from_edges(n, Block::new(0), &edges)
}

/// Node numbers of the ladder with `k` rungs.
pub struct Ladder {
    /// Number of rungs.
    pub k: u32,
}

impl Ladder {
    /// The ladder with about `n` nodes (at least one rung).
    pub fn with_nodes(n: usize) -> Ladder {
        Ladder {
            k: ((n.max(4) - 2) / 2) as u32,
        }
    }
    pub fn num_nodes(&self) -> usize {
        2 * self.k as usize + 2
    }
    pub fn l(&self, i: u32) -> Block {
        Block::new((1 + 2 * i) as usize)
    }
    pub fn r(&self, i: u32) -> Block {
        Block::new((2 + 2 * i) as usize)
    }
    pub fn x(&self) -> Block {
        Block::new((2 * self.k + 1) as usize)
    }
    pub fn graph(&self) -> CsrGraph {
        let (l, r, x) = (
            |i| self.l(i).as_u32(),
            |i| self.r(i).as_u32(),
            self.x().as_u32(),
        );
        let mut edges = vec![(0, l(0))];
        for i in 0..self.k {
            edges.push((l(i), r(i)));
            if i + 1 < self.k {
                edges.push((l(i), l(i + 1)));
                edges.push((r(i), r(i + 1)));
            } else {
                edges.push((l(i), x));
                edges.push((r(i), x));
            }
        }
        edges.push((x, l(0)));
        CsrGraph::from_edges(self.num_nodes(), Block::new(0), &edges)
    }
}

/// A chain of `k` if-then-else diamonds with about `n` nodes: node 0 is the
/// entry, `H_i = 1 + 3i`, its arms `3i + 2` and `3i + 3`, the last head
/// `H_k` jumps back to `H_0`.
pub fn diamonds(n: usize) -> CsrGraph {
    let k = (n.max(5) as u32 - 2) / 3;
    let h = |i: u32| 1 + 3 * i;
    let mut edges = vec![(0, h(0))];
    for i in 0..k {
        edges.extend([(h(i), h(i) + 1), (h(i), h(i) + 2)]);
        edges.extend([(h(i) + 1, h(i + 1)), (h(i) + 2, h(i + 1))]);
    }
    edges.push((h(k), h(0)));
    CsrGraph::from_edges(h(k) as usize + 1, Block::new(0), &edges)
}

/// A function whose CFG is `g` (block `i` is node `i`, entry first; needs
/// the entry to be node 0), with variables `a`, `b` and parameter `p`:
/// block `i` does `a = a + p`, `b = a`, `print b` or nothing as `i % 4` is
/// 0, 1, 2 or 3, then returns `a`, jumps, branches on `b` or switches on `a`
/// by its number of successors.
pub fn function_from_graph<G: Graph>(g: &G) -> Function {
    assert_eq!(g.entry(), Block::new(0));
    let mut fb = FunctionBuilder::new("shape");
    let p = fb.param("p");
    let a = fb.var("a");
    let b = fb.var("b");
    let blocks: Vec<Block> = (0..g.num_nodes())
        .map(|i| fb.block(&format!("n{i}")))
        .collect();
    for (i, &blk) in blocks.iter().enumerate() {
        fb.switch_to(blk);
        match i % 4 {
            0 => {
                fb.binary(a, BinOp::Add, a.into(), p.into());
            }
            1 => {
                fb.copy(b, a.into());
            }
            2 => {
                fb.print(&[b.into()]);
            }
            _ => {}
        }
        let s = g.succs(blk);
        match s.len() {
            0 => fb.ret(Some(a.into())),
            1 => fb.jump(s[0]),
            2 => fb.branch(b.into(), s[0], s[1]),
            _ => fb.switch(Operand::Var(a), s[0], &s[1..]),
        }
    }
    fb.finish()
}
