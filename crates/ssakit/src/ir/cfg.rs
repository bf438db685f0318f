//! The control-flow graph of a function, computed from its terminators.

use super::{Block, Function};
use crate::entity::EntityVec;

/// Successor and predecessor lists of every block, in compressed (CSR) form.
///
/// Edges come from terminators; a terminator naming the same block twice
/// gives two edges (a multi-edge). Order is stable and documented:
/// * successors of `b` in terminator order (`then`, `else`; `default`, then
///   switch targets);
/// * predecessors of `b` in layout order of the source block, and for one
///   source in its successor order.
///
/// Blocks not in the layout have no edges. Indexed by block index, so the
/// tables cover every block of the function.
#[derive(Clone, Debug)]
pub struct Cfg {
    entry: Block,
    succ_start: Vec<u32>,
    succ: Vec<Block>,
    pred_start: Vec<u32>,
    pred: Vec<Block>,
}

impl Cfg {
    /// Computes the CFG of `func`.
    pub fn new(func: &Function) -> Cfg {
        let n = func.blocks.len();
        let mut succ_start = vec![0u32; n + 1];
        let mut succ = Vec::new();
        let mut in_layout = vec![false; n];
        for &b in &func.layout {
            in_layout[b.index()] = true;
        }
        let mut pred_count = vec![0u32; n + 1];
        for b in func.blocks.keys() {
            succ_start[b.index()] = succ.len() as u32;
            if in_layout[b.index()] {
                func.blocks[b].term.for_each_succ(|s| {
                    succ.push(s);
                    pred_count[s.index()] += 1;
                });
            }
        }
        succ_start[n] = succ.len() as u32;
        // Prefix sums give each block's slice of the predecessor array.
        let mut pred_start = vec![0u32; n + 1];
        for i in 0..n {
            pred_start[i + 1] = pred_start[i] + pred_count[i];
        }
        let mut fill = pred_start.clone();
        let mut pred = vec![Block(0); succ.len()];
        for &b in &func.layout {
            let (s, e) = (
                succ_start[b.index()] as usize,
                succ_start[b.index() + 1] as usize,
            );
            for &t in &succ[s..e] {
                pred[fill[t.index()] as usize] = b;
                fill[t.index()] += 1;
            }
        }
        Cfg {
            entry: func.entry(),
            succ_start,
            succ,
            pred_start,
            pred,
        }
    }

    /// The entry block.
    pub fn entry(&self) -> Block {
        self.entry
    }

    /// Number of blocks (the function's block count, layout or not).
    pub fn num_blocks(&self) -> usize {
        self.succ_start.len() - 1
    }

    /// Number of edges.
    pub fn num_edges(&self) -> usize {
        self.succ.len()
    }

    /// Successors of `b`, one per edge.
    #[inline]
    pub fn succs(&self, b: Block) -> &[Block] {
        &self.succ[self.succ_start[b.index()] as usize..self.succ_start[b.index() + 1] as usize]
    }

    /// Predecessors of `b`, one per edge.
    #[inline]
    pub fn preds(&self, b: Block) -> &[Block] {
        &self.pred[self.pred_start[b.index()] as usize..self.pred_start[b.index() + 1] as usize]
    }

    /// Distinct predecessors of `b`, in order (the labels a phi in `b` must
    /// have). Edges from one source are adjacent in [`Cfg::preds`], so this
    /// only drops adjacent repeats.
    pub fn unique_preds(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        let p = self.preds(b);
        p.iter()
            .enumerate()
            .filter(move |&(i, x)| i == 0 || p[i - 1] != *x)
            .map(|(_, &x)| x)
    }

    /// A side table with one entry per block.
    pub fn block_table<V: Clone>(&self, v: V) -> EntityVec<Block, V> {
        EntityVec::filled(self.num_blocks(), v)
    }
}
