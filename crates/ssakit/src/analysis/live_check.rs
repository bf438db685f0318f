//! Liveness checks for strict SSA variables, one variable at a time, on
//! demand: "is `v` live just after this point?" without building the live
//! sets of every block.
//!
//! SSA destruction asks such questions about pairs of variables (does `b`
//! live past the definition of `a`?), but only for the variables that
//! phis and copies link, and often about a fraction of them; building
//! [`Liveness`](super::Liveness) for all variables costs
//! variables × blocks of memory when many are live everywhere. Here, as in
//! the "fast liveness checking" of Boissinot, Hack, Grund, Dupont de
//! Dinechin and Rastello (CGO 2008), the answer comes from the variable's
//! definition and uses alone: the def-use lists are gathered once, and the
//! live range of a variable is explored the first time a question is asked
//! about it, then kept.
//!
//! # Points
//!
//! Questions are asked at [`Point`]s, the IR's program points: an
//! instruction reads its operands at the point before it and writes its
//! results at the point after it (a parallel copy reads all its sources
//! first), so a variable read by instruction `k` and by nothing later is
//! *not* live just after it. The terminator reads at the point before it;
//! phi operands are read at the exit of the predecessor, as in
//! [`Liveness`](super::Liveness); parameters and phis are defined at the
//! entry of their block.
//!
//! # Exploration
//!
//! In strict SSA the live range of `v` is the set of points from which a
//! path reaches a use without passing the definition, and every such
//! point is dominated by the definition. The blocks where `v` is live-in
//! are found by walking the CFG backwards from the blocks of the uses,
//! stopping at the defining block (the per-variable `Up_and_Mark` of
//! Brandner et al., as in [`VarLiveness`](super::VarLiveness)); `v` is
//! live-out of every predecessor of those blocks, and of the predecessor
//! of each phi use. The live-out blocks of the last variable explored are
//! stamped (questions about it cost `O(1)`); those of the others are kept,
//! and sorted for binary search the first time they are needed again: a
//! variable costs what its live range touches, once. A caller with many
//! questions about one variable in a row can also [`LiveCheck::explore`]
//! it without keeping anything.
//!
//! # Local live ranges
//!
//! Most variables of a program are read only in the block that defines
//! them, or by the phis of its successors. Call the live range of `v`,
//! defined in block `d`, *local* when every block where an instruction
//! reads `v` is `d` and every predecessor through which a phi reads `v`
//! is `d`. The exploration then marks no block live-in (a use in `d`
//! follows the definition, and the walk stops at `d`) and `d` live-out
//! exactly when a phi reads `v`: the answer has a closed form,
//!
//! ```text
//! v live-out of b  ⇔  b = d and a phi reads v,
//! ```
//!
//! which [`LiveCheck::is_live_out`] gives without exploring or keeping
//! anything (and [`LiveCheck::is_local`] tells a caller batching its
//! explorations which variables need none). Debug builds check it
//! against the exploration.

use super::domtree::DomTree;
use super::sweep_queue::SweepQueue;
use crate::entity::Csr;
use crate::ir::{Block, Cfg, Function, InstData, Operand, Point, Var};

/// No block (in `def_block`), no variable (in `current`).
const NIL: u32 = u32::MAX;

/// In `memo`, the flags of a length: the list is kept (the variable was
/// explored; all zero otherwise, so that the table costs memory only where
/// used), and sorted; or kept as a bit per block in `out_bits` instead (a
/// list longer than the bitset), starting at the word the start names.
const KEPT: u32 = 1 << 30;
const SORTED: u32 = 1 << 31;
const BITS: u32 = 1 << 29;

/// Liveness questions about the variables of one strict SSA function.
///
/// Invariants: `uses[use_start[v] .. use_start[v + 1]]` holds, for each
/// reachable block where `v` is read by an instruction or the terminator,
/// the last point where it is read there, sorted by block index;
/// `phi_uses.of(v)` the reachable predecessors through which a phi reads
/// `v`; `memo[v]`, once `v` is explored and
/// kept, the range of `live_out` holding the blocks where `v` is live-out
/// (start, and length with the `KEPT` flag, and `SORTED` once
/// sorted), or, with the `KEPT | BITS` flags, the first of the
/// `blocks / 64` words of `out_bits` holding them as a bitset (when
/// that is smaller than the list); `out_mark`
/// the live-out blocks of the variable `current`, the last explored.
///
/// # Example
/// ```
/// use ssakit::analysis::{DomTree, LiveCheck};
/// use ssakit::ir::Cfg;
/// let src = "function f(n) {
/// e:
///     i = 0
///     jump h
/// h:
///     i1 = phi(e: i, b: i2)
///     c = i1 < n
///     branch c, b, x
/// b:
///     i2 = i1 + 1
///     jump h
/// x:
///     ret i1
/// }
/// ";
/// let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// let var = |s: &str| f.var_by_name(s).unwrap();
/// let block = |s: &str| f.block_by_name(s).unwrap();
/// let cfg = Cfg::new(f);
/// let dt = DomTree::new(&cfg);
/// let mut lc = LiveCheck::new(f, &cfg, &dt);
/// // i1 is live out of h (it is returned in x), not out of b, where
/// // `i2 = i1 + 1` was its last use; i2 is, for the phi in h.
/// assert!(lc.is_live_out(var("i1"), block("h")));
/// assert!(!lc.is_live_out(var("i1"), block("b")));
/// assert!(lc.is_live_out(var("i2"), block("b")));
/// ```
#[derive(Debug)]
pub struct LiveCheck {
    /// By block: its reachable predecessors.
    preds: Csr<Block, u32>,
    /// By block, for the variable `current` (stamped with `generation`):
    /// whether it is live-in, and whether live-out.
    marks: Vec<[u32; 2]>,
    generation: u32,
    def_block: Vec<u32>,
    use_start: Vec<u32>,
    uses: Vec<Point>,
    phi_uses: PhiUses,
    memo: Vec<(u32, u32)>,
    live_out: Vec<u32>,
    out_bits: Vec<u64>,
    current: u32,
    // Scratch of the exploration.
    stack: Vec<u32>,
    /// The live-out blocks of up to 64 variables explored at once by
    /// [`LiveCheck::explore_words`], made on its first call.
    words: Option<OutWords>,
}

/// What a [`LiveCheck`] keeps by block: the reachable predecessors and
/// the exploration's stamps. They depend on the control flow only, so a
/// checker built again after copies are added takes them from the first
/// ([`LiveCheck::into_blocks`], [`LiveCheck::with_blocks`]); the stamps
/// stay valid, each exploration stamping with a generation above all.
#[derive(Debug)]
pub(crate) struct ByBlock {
    preds: Csr<Block, u32>,
    marks: Vec<[u32; 2]>,
    generation: u32,
}

/// The live-out blocks of up to 64 variables (bit `k` for `vars[k]`), one
/// word per block: the walk of [`LiveCheck`]'s exploration carrying a
/// word of variables along each predecessor edge.
///
/// Invariant between calls: `live_in`, `live_out` and `def` are zero
/// except at the blocks listed in `touched`, `pending` is zero everywhere,
/// and `slot[v]` is `v`'s bit for the variables of `vars`, [`NO_SLOT`]
/// for the others.
#[derive(Debug)]
struct OutWords {
    vars: Vec<Var>,
    slot: Vec<u8>,
    live_in: Vec<u64>,
    live_out: Vec<u64>,
    def: Vec<u64>,
    /// Bits of `live_in` not yet carried to the block's predecessors; a
    /// block is queued exactly when its word is non-zero.
    pending: Vec<u64>,
    touched: Vec<u32>,
    queue: SweepQueue,
}

/// In [`OutWords::slot`]: not among the variables explored.
const NO_SLOT: u8 = u8::MAX;

impl OutWords {
    /// Makes the variables of `bits` live-in at `b` and queues those that
    /// were not for `b`'s predecessors. `b` joins `touched` when its
    /// `live_in` word stops being zero (once per call of
    /// [`LiveCheck::explore_words`], not once per arrival), and the queue
    /// when its `pending` word does.
    #[inline]
    fn mark_in(&mut self, b: u32, bits: u64) {
        let i = b as usize;
        let was = self.live_in[i];
        let new = bits & !was;
        if new != 0 {
            if was == 0 {
                self.touched.push(b);
            }
            self.live_in[i] = was | new;
            if self.pending[i] == 0 {
                self.queue.push(b);
            }
            self.pending[i] |= new;
        }
    }

    /// Makes the variables of `bits` (not zero) live-out at `b`; `b` joins
    /// `touched` when its `live_out` word stops being zero.
    #[inline]
    fn mark_out(&mut self, b: u32, bits: u64) {
        if self.live_out[b as usize] == 0 {
            self.touched.push(b);
        }
        self.live_out[b as usize] |= bits;
    }
}

/// The definitions and uses of a function's variables as flat lists,
/// gathered block by block (so that a caller can gather what it needs of
/// the same block while its instructions are in cache): what a
/// [`LiveCheck`] is built from.
#[derive(Debug, PartialEq)]
pub(crate) struct DefUse {
    /// By variable: the block of its definition, or [`NIL`].
    def_block: Vec<u32>,
    /// `(variable, point)`: read by an instruction or a terminator.
    uses: Vec<(Var, Point)>,
    /// `(variable, predecessor)`: read by a phi on the edge from the
    /// predecessor.
    phi_uses: Vec<(Var, u32)>,
}

impl DefUse {
    /// Nothing gathered yet, for the variables of `func`.
    pub(crate) fn new(func: &Function) -> DefUse {
        let mut def_block = vec![NIL; func.num_vars()];
        for &p in func.params() {
            def_block[p.index()] = func.entry().as_u32();
        }
        DefUse {
            def_block,
            uses: Vec::new(),
            phi_uses: Vec::new(),
        }
    }

    /// Room for `phi_operands` phi operands and `uses` other uses (a
    /// guess: the lists grow past it if needed).
    pub(crate) fn reserve(&mut self, phi_operands: usize, uses: usize) {
        self.phi_uses.reserve(phi_operands);
        self.uses.reserve(uses);
    }

    /// Gathers the definitions and uses of block `b`, which must be
    /// reachable (phi operands from unreachable predecessors are left out).
    pub(crate) fn add_block(&mut self, func: &Function, dt: &DomTree, b: Block) {
        for &i in func.block_phis(b) {
            if let InstData::Phi { dst, args } = func.inst(i) {
                self.add_phi_def(*dst, b);
                for a in args.as_slice(func) {
                    self.add_phi_use(dt, a.value, a.block);
                }
            }
        }
        self.add_insts(func, b);
    }

    /// Gathers the definition of phi `dst` of (reachable) block `b`.
    #[inline]
    pub(crate) fn add_phi_def(&mut self, dst: Var, b: Block) {
        self.def_block[dst.index()] = b.as_u32();
    }

    /// Gathers a phi operand `value` on the edge from `pred`, of a phi in
    /// a reachable block: left out unless a variable and `pred` reachable.
    #[inline]
    pub(crate) fn add_phi_use(&mut self, dt: &DomTree, value: Operand, pred: Block) {
        if let Some(v) = value.var() {
            if dt.is_reachable(pred) {
                self.phi_uses.push((v, pred.as_u32()));
            }
        }
    }

    /// Gathers a use of `v` by an instruction or a terminator of a
    /// reachable block, at `at` (the point before it), for a caller
    /// walking the instructions itself (in the order
    /// [`DefUse::add_insts_of`] would push them).
    #[inline]
    pub(crate) fn add_use(&mut self, v: Var, at: Point) {
        self.uses.push((v, at));
    }

    /// Gathers the definition of `d` by an instruction of reachable block
    /// `b`.
    #[inline]
    pub(crate) fn add_def(&mut self, d: Var, b: Block) {
        self.def_block[d.index()] = b.as_u32();
    }

    /// Gathers the definitions and uses of the instructions and the
    /// terminator of reachable block `b` (its phis aside).
    pub(crate) fn add_insts(&mut self, func: &Function, b: Block) {
        self.add_insts_of(func, b, |_| true);
    }

    /// [`DefUse::add_insts`] for the variables `keep` accepts only (the
    /// others are left undefined and unused: ask nothing about them).
    #[inline]
    pub(crate) fn add_insts_of(&mut self, func: &Function, b: Block, keep: impl Fn(Var) -> bool) {
        let insts = func.block_insts(b);
        for (k, &i) in insts.iter().enumerate() {
            func.for_each_use(i, |v| {
                if keep(v) {
                    self.uses.push((v, Point::before(b, k)))
                }
            });
            func.for_each_def(i, |d| {
                if keep(d) {
                    self.def_block[d.index()] = b.as_u32()
                }
            });
        }
        let at = Point::before(b, insts.len());
        func.for_each_term_use(b, |v| {
            if keep(v) {
                self.uses.push((v, at))
            }
        });
    }
}

/// By variable: the reachable predecessors through which a phi reads it,
/// `preds[start[v] .. start[v + 1]]` for variable `v`, in the order they
/// were gathered.
#[derive(Debug)]
struct PhiUses {
    start: Vec<u32>,
    preds: Vec<u32>,
}

impl PhiUses {
    /// The predecessors through which a phi reads `v`.
    #[inline]
    fn of(&self, v: Var) -> &[u32] {
        let v = v.index();
        &self.preds[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

/// The uses of `nv` variables grouped by variable: the phi uses in the
/// order gathered, and the other uses sorted by point and reduced to the
/// last point of each block, `(start, points)` with variable `v`'s in
/// `points[start[v] .. start[v + 1]]`. Two counting sorts sharing one pass
/// over the variables for their starts, each placing from the end of its
/// groups (no copy of the starts), then each group of points sorted and
/// compacted in place (no second list).
fn by_var(
    nv: usize,
    pairs: &[(Var, Point)],
    phi_pairs: &[(Var, u32)],
) -> (Vec<u32>, Vec<Point>, PhiUses) {
    // `start[v]`, `phi_start[v]`: first the end of `v`'s group, then, once
    // every item is placed (each before the previous ones of its group),
    // its start.
    let mut start = vec![0u32; nv + 1];
    let mut phi_start = vec![0u32; nv + 1];
    for &(v, _) in pairs {
        start[v.index()] += 1;
    }
    for &(v, _) in phi_pairs {
        phi_start[v.index()] += 1;
    }
    let (mut end, mut phi_end) = (0, 0);
    for (s, t) in start[..nv].iter_mut().zip(&mut phi_start[..nv]) {
        end += *s;
        *s = end;
        phi_end += *t;
        *t = phi_end;
    }
    start[nv] = end;
    phi_start[nv] = phi_end;
    let mut points = vec![Point::entry(Block::new(0)); pairs.len()];
    for &(v, p) in pairs.iter().rev() {
        let s = &mut start[v.index()];
        *s -= 1;
        points[*s as usize] = p;
    }
    let mut preds = vec![0u32; phi_pairs.len()];
    for &(v, p) in phi_pairs.iter().rev() {
        let s = &mut phi_start[v.index()];
        *s -= 1;
        preds[*s as usize] = p;
    }
    // Sorted by point (block, then position), keeping the last point of
    // each block, written over the groups already read (`w` never passes
    // the point read).
    let mut w = 0;
    for v in 0..nv {
        let (lo, hi) = (start[v] as usize, start[v + 1] as usize);
        start[v] = w as u32;
        if hi - lo > 1 {
            points[lo..hi].sort_unstable();
        }
        for k in lo..hi {
            if k + 1 == hi || points[k + 1].block() != points[k].block() {
                points[w] = points[k];
                w += 1;
            }
        }
    }
    start[nv] = w as u32;
    points.truncate(w);
    let phi_uses = PhiUses {
        start: phi_start,
        preds,
    };
    (start, points, phi_uses)
}

impl LiveCheck {
    /// Gathers the definitions and uses of `func`'s variables, in
    /// `O(instructions + operands)`; nothing is explored yet.
    ///
    /// # Preconditions
    /// `func` is strict SSA (each variable defined once, every use
    /// dominated by its definition); `cfg` and `dt` are its CFG and
    /// dominator tree.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{DomTree, LiveCheck};
    /// # use ssakit::ir::Cfg;
    /// // `f` is `i = 0; while i < n { i = i + 1 }` in SSA: e → h ⇄ b, h → x.
    /// # let src = "function f(n) {
    /// # e:
    /// #     i = 0
    /// #     jump h
    /// # h:
    /// #     i1 = phi(e: i, b: i2)
    /// #     c = i1 < n
    /// #     branch c, b, x
    /// # b:
    /// #     i2 = i1 + 1
    /// #     jump h
    /// # x:
    /// #     ret i1
    /// # }
    /// # ";
    /// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
    /// # let var = |s: &str| f.var_by_name(s).unwrap();
    /// # let block = |s: &str| f.block_by_name(s).unwrap();
    /// let cfg = Cfg::new(f);
    /// let dt = DomTree::new(&cfg);
    /// let mut lc = LiveCheck::new(f, &cfg, &dt);
    /// assert!(lc.is_live_out(var("n"), block("b")));
    /// assert!(!lc.is_live_out(var("n"), block("x")));
    /// ```
    pub fn new(func: &Function, cfg: &Cfg, dt: &DomTree) -> LiveCheck {
        let mut du = DefUse::new(func);
        for b in func.blocks().filter(|&b| dt.is_reachable(b)) {
            du.add_block(func, dt, b);
        }
        LiveCheck::from_def_use(du, cfg, dt)
    }

    /// The checker for definitions and uses gathered from every reachable
    /// block of a function, in any order: the lists are grouped by
    /// variable (counting sort), then each sorted by block.
    ///
    /// # Preconditions
    /// As for [`LiveCheck::new`].
    pub(crate) fn from_def_use(du: DefUse, cfg: &Cfg, dt: &DomTree) -> LiveCheck {
        let nb = cfg.num_blocks();
        // Reachable predecessors only: an exploration never leaves the
        // blocks its definition dominates. Blocks in index order: one pass.
        let preds = Csr::build_in_key_order(nb, |out| {
            for b in (0..nb).map(Block::new).filter(|&b| dt.is_reachable(b)) {
                for &p in cfg.preds(b).iter().filter(|&&p| dt.is_reachable(p)) {
                    out.push(b, p.as_u32());
                }
            }
        });
        let by_block = ByBlock {
            preds,
            marks: vec![[0; 2]; nb],
            generation: 0,
        };
        LiveCheck::with_blocks(du, by_block)
    }

    /// [`LiveCheck::from_def_use`] with the tables by block of an earlier
    /// checker of the same control flow ([`LiveCheck::into_blocks`]),
    /// instead of building them again.
    ///
    /// # Preconditions
    /// As for [`LiveCheck::new`]; `by_block` comes from a checker of a
    /// function with the same blocks, graph and dominator tree (copies may
    /// have been added since).
    pub(crate) fn with_blocks(du: DefUse, by_block: ByBlock) -> LiveCheck {
        let nv = du.def_block.len();
        let (use_start, uses, phi_uses) = by_var(nv, &du.uses, &du.phi_uses);
        let ByBlock {
            preds,
            marks,
            generation,
        } = by_block;
        LiveCheck {
            preds,
            marks,
            generation,
            def_block: du.def_block,
            use_start,
            uses,
            phi_uses,
            memo: vec![(0, 0); nv],
            live_out: Vec::new(),
            out_bits: Vec::new(),
            current: NIL,
            stack: Vec::new(),
            words: None,
        }
    }

    /// The tables by block, which depend on the control flow only, for
    /// [`LiveCheck::with_blocks`].
    pub(crate) fn into_blocks(self) -> ByBlock {
        ByBlock {
            preds: self.preds,
            marks: self.marks,
            generation: self.generation,
        }
    }

    /// Calls `f` with the blocks where `v` was gathered: that of its
    /// definition, if reachable, each where an instruction or the
    /// terminator reads it, and each predecessor through which a phi
    /// does (with repeats).
    pub(crate) fn for_each_block_of(&self, v: Var, mut f: impl FnMut(Block)) {
        let i = v.index();
        if self.def_block[i] != NIL {
            f(Block::from_u32(self.def_block[i]));
        }
        let uses = &self.uses[self.use_start[i] as usize..self.use_start[i + 1] as usize];
        for u in uses {
            f(u.block());
        }
        for &p in self.phi_uses.of(v) {
            f(Block::from_u32(p));
        }
    }

    /// Whether some reachable instruction, terminator or phi reads `v`.
    pub(crate) fn is_used(&self, v: Var) -> bool {
        let i = v.index();
        self.use_start[i] != self.use_start[i + 1] || !self.phi_uses.of(v).is_empty()
    }

    /// The last point where an instruction or the terminator of `b` reads
    /// `v`, if any (phi operands aside).
    pub(crate) fn last_use_in(&self, v: Var, b: Block) -> Option<Point> {
        let v = v.index();
        let uses = &self.uses[self.use_start[v] as usize..self.use_start[v + 1] as usize];
        uses.binary_search_by_key(&b, |u| u.block())
            .ok()
            .map(|k| uses[k])
    }

    /// Whether `v` is live at the end of `b` (its live range is explored on
    /// the first question about `v`).
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::{DomTree, LiveCheck};
    /// # use ssakit::ir::Cfg;
    /// // `f` is `i = 0; while i < n { i = i + 1 }` in SSA: e → h ⇄ b, h → x.
    /// # let src = "function f(n) {
    /// # e:
    /// #     i = 0
    /// #     jump h
    /// # h:
    /// #     i1 = phi(e: i, b: i2)
    /// #     c = i1 < n
    /// #     branch c, b, x
    /// # b:
    /// #     i2 = i1 + 1
    /// #     jump h
    /// # x:
    /// #     ret i1
    /// # }
    /// # ";
    /// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
    /// # let var = |s: &str| f.var_by_name(s).unwrap();
    /// # let block = |s: &str| f.block_by_name(s).unwrap();
    /// let cfg = Cfg::new(f);
    /// let dt = DomTree::new(&cfg);
    /// let mut lc = LiveCheck::new(f, &cfg, &dt);
    /// assert!(lc.is_live_out(var("i1"), block("h")));
    /// assert!(!lc.is_live_out(var("i1"), block("b")));
    /// assert!(lc.is_live_out(var("i2"), block("b"))); // read by the phi in h
    /// ```
    pub fn is_live_out(&mut self, v: Var, b: Block) -> bool {
        if let Some(w) = &self.words {
            let k = w.slot[v.index()];
            if k != NO_SLOT {
                return w.live_out[b.index()] >> k & 1 != 0;
            }
        }
        if self.current != v.as_u32() {
            let m = self.memo[v.index()];
            if m.1 & KEPT == 0 {
                if self.is_local(v) {
                    return self.is_live_out_local(v, b);
                }
                self.explore_into(v, true);
            } else if m.1 & BITS != 0 {
                let word = self.out_bits[m.0 as usize + b.index() / 64];
                return word >> (b.index() % 64) & 1 != 0;
            } else {
                let (start, len) = (m.0 as usize, (m.1 & !(KEPT | SORTED)) as usize);
                let list = &mut self.live_out[start..start + len];
                if m.1 & SORTED == 0 {
                    list.sort_unstable();
                    self.memo[v.index()].1 |= SORTED;
                }
                return list.binary_search(&b.as_u32()).is_ok();
            }
        }
        self.marks[b.index()][1] == self.generation
    }

    /// Whether `v` is live just after point `at`: read later in its
    /// block, or live out of it.
    ///
    /// # Preconditions
    /// The definition of `v` is at or before `at` and dominates it.
    pub(crate) fn is_live_after(&mut self, v: Var, at: Point) -> bool {
        self.last_use_in(v, at.block()).is_some_and(|p| p > at) || self.is_live_out(v, at.block())
    }

    /// Whether the live range of `v` is local (see the module doc): every
    /// instruction reading `v` lies in its defining block, and every phi
    /// reads it on an edge from that block. Questions about such a
    /// variable need no exploration. `O(blocks reading v)`.
    pub(crate) fn is_local(&self, v: Var) -> bool {
        let i = v.index();
        let d = self.def_block[i];
        let uses = &self.uses[self.use_start[i] as usize..self.use_start[i + 1] as usize];
        uses.iter().all(|u| u.block().as_u32() == d) && self.phi_uses.of(v).iter().all(|&p| p == d)
    }

    /// [`LiveCheck::is_live_after`] for a variable whose live range is
    /// local (see [`LiveCheck::is_local`]), in closed form: `at` is in its
    /// defining block, and `v` is read after `at` there or by a phi.
    ///
    /// # Preconditions
    /// The live range of `v` is local; its definition is at or before `at`
    /// and dominates it.
    pub(crate) fn is_live_after_local(&mut self, v: Var, at: Point) -> bool {
        let b = at.block();
        let live = self.def_block[v.index()] == b.as_u32()
            && (self.last_use_in(v, b).is_some_and(|p| p > at) || !self.phi_uses.of(v).is_empty());
        debug_assert_eq!(live, self.is_live_after(v, at), "local live range of {v}");
        live
    }

    /// [`LiveCheck::is_live_out`] for a variable whose live range is local,
    /// in closed form: `b` is its defining block and a phi reads it.
    fn is_live_out_local(&mut self, v: Var, b: Block) -> bool {
        debug_assert!(self.is_local(v));
        let out = self.def_block[v.index()] == b.as_u32() && !self.phi_uses.of(v).is_empty();
        if cfg!(debug_assertions) {
            // The general answer: the exploration (kept for nothing).
            self.explore_into(v, false);
            let explored = self.marks[b.index()][1] == self.generation;
            debug_assert_eq!(out, explored, "local live range of {v} at {b}");
        }
        out
    }

    /// Explores `v` now, without keeping the result beyond the next
    /// exploration: for a batch of questions about `v` in a row (a
    /// variable with a local live range needs none).
    pub(crate) fn explore(&mut self, v: Var) {
        if self.current != v.as_u32() && !self.is_local(v) {
            self.explore_into(v, false);
        }
    }

    /// Explores up to 64 variables at once, without keeping anything
    /// beyond the next call: afterwards [`LiveCheck::is_live_out`] answers
    /// for them from one word per block. The same live-out sets as one
    /// exploration each, for the walk over the union of their live ranges
    /// (overlapping ranges are walked once, up to 64 variables carried
    /// along an edge in one word operation): for a batch of questions
    /// about many variables whose ranges overlap.
    pub(crate) fn explore_words(&mut self, vars: &[Var]) {
        assert!(vars.len() <= 64, "explore_words: at most 64 variables");
        let (nb, nv) = (self.marks.len(), self.def_block.len());
        let w = self.words.get_or_insert_with(|| OutWords {
            vars: Vec::new(),
            slot: vec![NO_SLOT; nv],
            live_in: vec![0; nb],
            live_out: vec![0; nb],
            def: vec![0; nb],
            pending: vec![0; nb],
            touched: Vec::new(),
            queue: SweepQueue::new(nb),
        });
        for &v in &w.vars {
            w.slot[v.index()] = NO_SLOT;
        }
        for b in w.touched.drain(..) {
            let b = b as usize;
            (w.live_in[b], w.live_out[b], w.def[b]) = (0, 0, 0);
        }
        w.vars.clear();
        w.vars.extend_from_slice(vars);
        for (k, &v) in vars.iter().enumerate() {
            debug_assert_eq!(w.slot[v.index()], NO_SLOT, "explore_words: {v} twice");
            w.slot[v.index()] = k as u8;
            let d = self.def_block[v.index()];
            if d != NIL {
                if w.def[d as usize] == 0 {
                    w.touched.push(d);
                }
                w.def[d as usize] |= 1 << k;
            }
        }
        for (k, &v) in vars.iter().enumerate() {
            let vi = v.index();
            let range = self.use_start[vi] as usize..self.use_start[vi + 1] as usize;
            // A use in the defining block follows the definition.
            for u in &self.uses[range] {
                let u = u.block().as_u32();
                w.mark_in(u, 1 << k & !w.def[u as usize]);
            }
            for &p in self.phi_uses.of(v) {
                w.mark_out(p, 1 << k);
                w.mark_in(p, 1 << k & !w.def[p as usize]);
            }
        }
        // Up_and_Mark, iteratively, a word of variables at a time.
        while let Some(b) = w.queue.pop() {
            let bits = std::mem::take(&mut w.pending[b as usize]);
            for &p in self.preds.of(Block::from_u32(b)) {
                w.mark_out(p, bits);
                w.mark_in(p, bits & !w.def[p as usize]);
            }
        }
    }

    /// Explores `v`: afterwards `out_mark` holds its live-out blocks and `v`
    /// is current; with `keep`, they are also appended to `live_out`
    /// (unsorted until a later question needs them) and recorded in
    /// `memo`.
    fn explore_into(&mut self, v: Var, keep: bool) {
        let vi = v.index();
        let d = self.def_block[vi];
        let start = self.live_out.len();
        self.current = v.as_u32();
        if self.generation == u32::MAX {
            self.marks.fill([0; 2]);
            self.generation = 0;
        }
        self.generation += 1;
        let gen = self.generation;
        let Self {
            marks,
            stack,
            live_out,
            ..
        } = self;
        // `marks[b][0]`: live-in; `[1]`: live-out (stamps of `gen`).
        let mut mark = |b: u32, which: usize| {
            let m = &mut marks[b as usize][which];
            let new = *m != gen;
            *m = gen;
            new
        };
        let range = self.use_start[vi] as usize..self.use_start[vi + 1] as usize;
        for u in &self.uses[range] {
            let u = u.block().as_u32();
            // A use in the defining block follows the definition.
            if u != d && mark(u, 0) {
                stack.push(u);
            }
        }
        for &p in self.phi_uses.of(v) {
            if mark(p, 1) && keep {
                live_out.push(p);
            }
            if p != d && mark(p, 0) {
                stack.push(p);
            }
        }
        // Up_and_Mark, iteratively: every block on the stack is live-in.
        while let Some(b) = stack.pop() {
            for &p in self.preds.of(Block::from_u32(b)) {
                if mark(p, 1) && keep {
                    live_out.push(p);
                }
                if p != d && mark(p, 0) {
                    stack.push(p);
                }
            }
        }
        if keep {
            let len = self.live_out.len() - start;
            let words = self.marks.len().div_ceil(64);
            if len > 2 * words {
                // A bitset is smaller than the list, and needs no sort.
                let at = self.out_bits.len();
                self.out_bits.resize(at + words, 0);
                let bits = &mut self.out_bits[at..];
                for &b in &self.live_out[start..] {
                    bits[b as usize / 64] |= 1 << (b % 64);
                }
                self.live_out.truncate(start);
                self.memo[vi] = (at as u32, KEPT | BITS);
            } else {
                self.memo[vi] = (start as u32, KEPT | len as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Liveness;

    /// Every live-out answer agrees with [`Liveness`]; `n` is read in
    /// `body` at position 3 and live out of it (the loop goes on); nothing
    /// reads `u`.
    #[test]
    fn agrees_with_liveness_on_a_loop() {
        let src = "function f(n) {
entry:
    i = 0
    jump head
head:
    j = phi(entry: i, body: k)
    c = j < n
    branch c, body, exit
body:
    k = j + 1
    print n
    jump head
exit:
    u = j + 1
    ret j
}
";
        let m = crate::text::parse_module(src).unwrap();
        let f = &m.functions[0];
        let var = |name: &str| f.var_by_name(name).unwrap();
        let block = |name: &str| f.blocks().find(|&b| f.block_name(b) == name).unwrap();
        let (n, i, j, k, u) = (var("n"), var("i"), var("j"), var("k"), var("u"));
        let (head, body) = (block("head"), block("body"));
        let cfg = Cfg::new(f);
        let dt = DomTree::new(&cfg);
        let live = Liveness::new(f, &cfg);
        let mut check = LiveCheck::new(f, &cfg, &dt);
        for v in f.vars() {
            for b in f.blocks() {
                assert_eq!(check.is_live_out(v, b), live.is_live_out(b, v), "{v} {b}");
            }
        }
        // Variable after variable, so that each answer after the first
        // comes from what was kept: a list, or a bitset for `n` (live out
        // of three of the four blocks, more than the bitset's two lists'
        // worth).
        for b in f.blocks() {
            for v in f.vars() {
                assert_eq!(check.is_live_out(v, b), live.is_live_out(b, v), "{v} {b}");
            }
        }
        assert_ne!(check.memo[n.index()].1 & BITS, 0);
        assert_eq!(check.memo[j.index()].1 & BITS, 0);
        assert_eq!(check.last_use_in(n, body), Some(Point::before(body, 1)));
        assert!(check.is_live_after(n, Point::after(body, 0)));
        assert!(check.is_live_after(n, Point::after(body, 1)), "live out");
        assert!(!check.is_live_after(j, Point::after(body, 0)));
        assert!(check.is_live_after(j, Point::entry(head)));
        assert!(check.is_used(k) && check.is_used(i));
        assert!(!check.is_used(u));
        // Local live ranges: `i` and `k` are read only by the phi, on the
        // edge from their own block; `u` by nothing. `j` and `n` are read
        // in other blocks than their own.
        assert!(check.is_local(i) && check.is_local(k) && check.is_local(u));
        assert!(!check.is_local(j) && !check.is_local(n));
        assert!(check.is_live_after_local(k, Point::after(body, 0)));
        assert!(!check.is_live_after_local(i, Point::entry(head)));
    }
}
