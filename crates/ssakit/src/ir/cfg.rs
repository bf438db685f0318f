//! The control-flow graph of a function, computed from its terminators.

use super::{Block, Function};
use crate::entity::Csr;

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
///
/// ```
/// use ssakit::ir::Cfg;
/// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
/// let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
/// let (e, a, j) = (
///     f.block_by_name("e").unwrap(),
///     f.block_by_name("a").unwrap(),
///     f.block_by_name("j").unwrap(),
/// );
/// let x = f.var_by_name("x").unwrap();
/// let cfg = Cfg::new(&f);
/// assert_eq!((cfg.succs(e), cfg.succs(a), cfg.succs(j)), (&[a, j][..], &[j][..], &[][..]));
/// ```
#[derive(Clone, Debug)]
pub struct Cfg {
    entry: Block,
    succ: Csr<Block, Block>,
    pred: Csr<Block, Block>,
}

impl Cfg {
    /// Computes the CFG of `func`.
    ///
    /// ```
    /// use ssakit::ir::Cfg;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// let (e, a, j) = (
    ///     f.block_by_name("e").unwrap(),
    ///     f.block_by_name("a").unwrap(),
    ///     f.block_by_name("j").unwrap(),
    /// );
    /// let x = f.var_by_name("x").unwrap();
    /// // A block outside the layout has no edges.
    /// let spare = f.create_block("spare");
    /// let cfg = Cfg::new(&f);
    /// assert!(cfg.succs(spare).is_empty());
    /// assert_eq!(cfg.succs(e), &[a, j]);
    /// ```
    pub fn new(func: &Function) -> Cfg {
        let n = func.num_blocks();
        let layout = func.layout();
        // Blocks in index order, each block's successors in terminator
        // order: one pass. Blocks outside the layout have no edges.
        let mut in_layout = vec![false; n];
        for &b in layout {
            in_layout[b.index()] = true;
        }
        let succ = Csr::build_in_key_order(n, |out| {
            // Most blocks end with a jump or a two-way branch.
            out.reserve(2 * layout.len());
            for b in func.blocks().filter(|b| in_layout[b.index()]) {
                func.for_each_succ(b, |s| out.push(b, s));
            }
        });
        // Predecessors in layout order of the source: the successor lists,
        // read in layout order, are exactly the (target, source) pairs.
        let pred = Csr::build(n, |emit| {
            for &b in layout {
                for &s in succ.of(b) {
                    emit.push(s, b);
                }
            }
        });
        Cfg {
            entry: func.entry(),
            succ,
            pred,
        }
    }

    /// The entry block.
    pub(crate) fn entry(&self) -> Block {
        self.entry
    }

    /// Number of blocks (the function's block count, layout or not).
    pub(crate) fn num_blocks(&self) -> usize {
        self.succ.num_keys()
    }

    /// Number of edges.
    pub(crate) fn num_edges(&self) -> usize {
        self.succ.num_items()
    }

    /// Successors of `b`, one per edge.
    ///
    /// ```
    /// use ssakit::ir::Cfg;
    /// // `branch c, l, l` is a multi-edge: two successors.
    /// let f = ssakit::text::parse_module("function f(c) {\ne:\n    branch c, l, l\nl:\n    ret\n}").unwrap().functions.remove(0);
    /// let l = f.block_by_name("l").unwrap();
    /// assert_eq!(Cfg::new(&f).succs(f.entry()), [l, l]);
    /// ```
    #[inline]
    pub fn succs(&self, b: Block) -> &[Block] {
        self.succ.of(b)
    }

    /// Predecessors of `b`, one per edge.
    #[inline]
    pub(crate) fn preds(&self, b: Block) -> &[Block] {
        self.pred.of(b)
    }

    /// Distinct predecessors of `b`, in order (the labels a phi in `b` must
    /// have). Edges from one source are adjacent in [`Cfg::preds`], so this
    /// only drops adjacent repeats.
    pub(crate) fn unique_preds(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        let p = self.preds(b);
        p.iter()
            .enumerate()
            .filter(move |&(i, x)| i == 0 || p[i - 1] != *x)
            .map(|(_, &x)| x)
    }
}
