//! Live-in and live-out sets of variables, by per-variable path exploration.
//!
//! A variable `v` is *live* at a program point if some path from that point
//! reaches a use of `v` without passing a definition of `v`. `LiveIn(B)` are
//! the variables live at the start of block `B`, `LiveOut(B)` those live at
//! its end. SSA destruction (chapter 13, section 13.6, and the coalescing it
//! points to) and pruned phi placement need them.
//!
//! ## Where uses and definitions happen
//!
//! * A phi `d = phi(P₁: a₁, ..., Pₙ: aₙ)` in `B` *defines* `d` at the start
//!   of `B`, and *uses* `aᵢ` at the end of `Pᵢ` (the chapter's convention of
//!   section 13.3): `aᵢ` is live-out of `Pᵢ` only, not live-in of `B` through
//!   this use; `d` is not live-in of `B`.
//! * An ordinary instruction reads its operands, then writes its results; a
//!   parallel copy reads all its sources before writing any destination.
//! * The terminator's operand is a use at the end of the block.
//! * Parameters get no special treatment: a parameter used before any
//!   definition in the entry is live-in of the entry.
//!
//! With multi-edges a phi has one argument per distinct predecessor block.
//! Blocks outside the layout are ignored (empty sets).
//!
//! ## Algorithm
//!
//! Brandner, Boissinot, Darte, Dupont de Dinechin and Rastello, "Computing
//! Liveness Sets for SSA-Form Programs" (INRIA RR-7503, 2011), the
//! variable-by-variable path exploration (`Compute_LiveSets_SSA_ByVar` with
//! `Up_and_Mark`): from every use of `v`, walk the CFG backwards marking
//! blocks live-in and their predecessors live-out, and stop at blocks
//! already marked or defining `v`. In strict SSA the only stopping definition
//! is the unique one; here it is generalised to any program: a block stops the
//! walk when it defines `v` anywhere (a phi included), while a use in a block
//! *before* any definition there (an *upward-exposed* use) starts a walk
//! from that block itself. Both are gathered in one scan of the function:
//!
//! 1. *Gather*: per block, the upward-exposed uses and the definitions; per
//!    phi argument, the pair (variable, predecessor). All grouped by variable.
//! 2. *Explore*, for each variable `v` in index order: mark the blocks
//!    defining `v`; `Up_and_Mark` from each upward-exposed use (its block is
//!    live-in) and from each phi use (its predecessor is live-out, and live-in
//!    unless it defines `v`); `Up_and_Mark(B)` marks each predecessor `P`
//!    live-out and, unless `P` defines `v` or is already live-in, live-in,
//!    and continues from `P`. An explicit stack replaces the recursion.
//!
//! The per-variable marks are `StampSet`s, so a variable costs what its
//! live range touches. Pairs `(block, v)` come out in increasing `v`; a stable
//! counting sort by block yields sorted, duplicate-free sets in CSR form.

use super::stamp::StampSet;
use super::sweep_queue::SweepQueue;
use crate::entity::{Csr, EntityVec};
use crate::ir::{Block, Cfg, Function, InstData, Var};

/// Live-in and live-out sets of every block, in compressed (CSR) form.
///
/// Invariant: `live_in(b)` and `live_out(b)` are sorted by variable index
/// and duplicate-free; tables cover every block of the function.
///
/// # Example
/// ```
/// use ssakit::analysis::Liveness;
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
/// let live = Liveness::new(f, &Cfg::new(f));
/// // The phi defines i1 at the start of h and reads i2 at the end of b.
/// assert_eq!(live.live_in(block("h")), &[var("n")]);
/// assert_eq!(live.live_out(block("h")), &[var("n"), var("i1")]);
/// assert_eq!(live.live_out(block("b")), &[var("n"), var("i2")]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Liveness {
    live_in: Csr<Block, Var>,
    live_out: Csr<Block, Var>,
}

impl Liveness {
    /// Computes liveness for `func`.
    ///
    /// # Preconditions
    /// `cfg` is `Cfg::new(func)`; every phi argument is labelled by a
    /// predecessor of the phi's block.
    ///
    /// # Example
    /// ```
    /// use ssakit::analysis::Liveness;
    /// use ssakit::ir::Cfg;
    /// // `f` is `i = 0; while i < n { i = i + 1 }` in SSA: e → h ⇄ b, h → x.
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
    /// let live = Liveness::new(f, &cfg);
    /// // The parameter n is live around the whole loop, not after it.
    /// for b in ["e", "h", "b"] {
    ///     assert!(live.live_in(block(b)).contains(&var("n")));
    /// }
    /// assert!(!live.live_in(block("x")).contains(&var("n")));
    /// ```
    pub fn new(func: &Function, cfg: &Cfg) -> Liveness {
        let nb = func.num_blocks();
        let mut by_var = VarLiveness::new(func, cfg);
        let mut in_pairs: Vec<(Block, Var)> = Vec::new();
        let mut out_pairs: Vec<(Block, Var)> = Vec::new();
        for v in func.vars() {
            by_var.explore(v, |b| in_pairs.push((b, v)), |b| out_pairs.push((b, v)));
        }
        Liveness {
            live_in: Csr::from_pairs(nb, in_pairs),
            live_out: Csr::from_pairs(nb, out_pairs),
        }
    }

    /// Variables live at the start of `b`, sorted.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::Liveness;
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
    /// let live = Liveness::new(f, &Cfg::new(f));
    /// assert_eq!(live.live_in(block("x")), &[var("i1")]);
    /// assert!(live.live_in(block("e")).contains(&var("n")));
    /// ```
    #[inline]
    pub fn live_in(&self, b: Block) -> &[Var] {
        self.live_in.of(b)
    }

    /// Variables live at the end of `b`, sorted.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::Liveness;
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
    /// let live = Liveness::new(f, &Cfg::new(f));
    /// assert!(live.live_out(block("x")).is_empty());
    /// assert!(live.live_out(block("e")).contains(&var("i"))); // read by the phi
    /// ```
    #[inline]
    pub fn live_out(&self, b: Block) -> &[Var] {
        self.live_out.of(b)
    }

    /// Whether `v` is live at the start of `b` (binary search).
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::Liveness;
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
    /// let live = Liveness::new(f, &Cfg::new(f));
    /// assert!(live.is_live_in(block("b"), var("i1")));
    /// assert!(!live.is_live_in(block("h"), var("i1"))); // defined there by the phi
    /// ```
    #[cfg(test)]
    pub(crate) fn is_live_in(&self, b: Block, v: Var) -> bool {
        self.live_in(b).binary_search(&v).is_ok()
    }

    /// Whether `v` is live at the end of `b` (binary search).
    pub(crate) fn is_live_out(&self, b: Block, v: Var) -> bool {
        self.live_out(b).binary_search(&v).is_ok()
    }
}

/// Liveness one variable at a time, on demand: step 1 (gather) is done
/// once, step 2 (explore) for each variable asked about, reusing stamped
/// sets. Pruned phi placement uses it to pay only for the variables that
/// may need phis, instead of materialising every live set (which takes
/// variables × blocks space when many variables are live everywhere).
///
/// # Example
///
/// ```
/// use ssakit::analysis::VarLiveness;
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
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let var = |s: &str| f.var_by_name(s).unwrap();
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let cfg = Cfg::new(f);
/// let mut by_var = VarLiveness::new(f, &cfg);
/// let (mut ins, mut outs) = (Vec::new(), Vec::new());
/// by_var.explore(var("i1"), |b| ins.push(b), |b| outs.push(b));
/// ins.sort();
/// assert_eq!(ins, [block("b"), block("x")]);
/// assert_eq!(outs, [block("h")]);
/// ```
#[derive(Debug)]
pub struct VarLiveness<'a> {
    cfg: &'a Cfg,
    /// Blocks with an upward-exposed use, per variable.
    upward: Csr<Var, Block>,
    /// Blocks defining the variable.
    defs: Csr<Var, Block>,
    /// Predecessors along which a phi uses the variable.
    phi_uses: Csr<Var, Block>,
    is_def: StampSet,
    live_in: StampSet,
    live_out: StampSet,
    stack: Vec<Block>,
    /// The marks of [`VarLiveness::explore_live_in_words`], made on its
    /// first call.
    words: Option<LiveWords>,
}

/// The live-in sets of up to 64 variables at once, one bit per variable
/// in a word per block: the same up-and-mark walk as
/// [`VarLiveness::explore_live_in`], carrying a word of variables along
/// each predecessor edge instead of one variable.
///
/// Invariant between calls: `live_in` and `def` are zero except at the
/// blocks listed in `touched` (which lists every block whose `live_in` or
/// `def` word is non-zero, perhaps twice), and `pending` is zero
/// everywhere.
#[derive(Debug)]
struct LiveWords {
    /// Bit `k`: variable `k` of the chunk is live on entry to the block.
    live_in: EntityVec<Block, u64>,
    /// Bit `k`: variable `k` of the chunk is defined in the block.
    def: EntityVec<Block, u64>,
    /// Bits of `live_in` not yet carried to the block's predecessors; a
    /// block is queued exactly when its word is non-zero.
    pending: EntityVec<Block, u64>,
    touched: Vec<Block>,
    queue: SweepQueue,
}

impl LiveWords {
    fn new(blocks: usize) -> LiveWords {
        LiveWords {
            live_in: EntityVec::filled(blocks, 0),
            def: EntityVec::filled(blocks, 0),
            pending: EntityVec::filled(blocks, 0),
            // A block per definition block and per mark, so about two
            // per block: sized once rather than grown push by push.
            touched: Vec::with_capacity(2 * blocks),
            queue: SweepQueue::new(blocks),
        }
    }

    /// Makes the variables of `bits` live on entry to `b`, and queues
    /// those that were not for `b`'s predecessors.
    #[inline]
    fn mark(&mut self, b: Block, bits: u64) {
        let new = bits & !self.live_in[b];
        if new != 0 {
            self.touched.push(b);
            self.live_in[b] |= new;
            self.queue.push(b.as_u32());
            self.pending[b] |= new;
        }
    }
}

impl<'a> VarLiveness<'a> {
    /// Step 1 for `func`.
    ///
    /// # Preconditions
    /// As for [`Liveness::new`].
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::VarLiveness;
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
    /// let mut by_var = VarLiveness::new(f, &cfg);
    /// by_var.explore(var("i2"), |_| {}, |_| {});
    /// assert!(by_var.is_live_out(block("b")));
    /// ```
    pub fn new(func: &Function, cfg: &'a Cfg) -> VarLiveness<'a> {
        let nb = func.num_blocks();
        let nv = func.num_vars();
        debug_assert_eq!(cfg.num_blocks(), nb);
        // Step 1, gather: upward-exposed uses, definitions, phi uses.
        // Sized once from the instruction count (each instruction defines
        // and exposes about one variable), so that the many small functions
        // of a module do not pay for doubling growth.
        let mut upward: Vec<(Var, Block)> = Vec::with_capacity(func.inst_slots());
        let mut defs: Vec<(Var, Block)> = Vec::with_capacity(func.inst_slots());
        let mut phi_uses: Vec<(Var, Block)> = Vec::new();
        let mut defined_here = StampSet::new(nv);
        let mut exposed_here = StampSet::new(nv);
        for &b in func.layout() {
            defined_here.clear();
            exposed_here.clear();
            let mut use_ = |v: Var, defined_here: &StampSet| {
                if !defined_here.contains(v.index()) && exposed_here.insert(v.index()) {
                    upward.push((v, b));
                }
            };
            for &i in func.block_phis(b) {
                if let InstData::Phi { dst, args } = func.inst(i) {
                    if defined_here.insert(dst.index()) {
                        defs.push((*dst, b));
                    }
                    for a in args.as_slice(func) {
                        debug_assert!(cfg.preds(b).contains(&a.block), "phi label not a pred");
                        if let Some(v) = a.value.var() {
                            phi_uses.push((v, a.block));
                        }
                    }
                }
            }
            for &i in func.block_insts(b) {
                // All reads before all writes (parallel copies included).
                func.for_each_use(i, |v| use_(v, &defined_here));
                func.for_each_def(i, |v| {
                    if defined_here.insert(v.index()) {
                        defs.push((v, b));
                    }
                });
            }
            func.for_each_term_use(b, |v| use_(v, &defined_here));
        }
        VarLiveness {
            cfg,
            upward: Csr::from_pairs(nv, upward),
            defs: Csr::from_pairs(nv, defs),
            phi_uses: Csr::from_pairs(nv, phi_uses),
            is_def: StampSet::new(nb),
            live_in: StampSet::new(nb),
            live_out: StampSet::new(nb),
            stack: Vec::new(),
            words: None,
        }
    }

    /// Whether `v` can be live on entry to some block: it has an
    /// upward-exposed use or a phi use, where every walk of step 2 starts.
    /// When not (a temporary used only after its definition in its own
    /// block, as most of a lift's are), [`Self::explore_live_in`] and
    /// [`Self::explore_live_in_words`] find it live nowhere: pruned phi
    /// insertion skips it without a walk.
    #[inline]
    pub(crate) fn may_be_live_in(&self, v: Var) -> bool {
        !self.upward.of(v).is_empty() || !self.phi_uses.of(v).is_empty()
    }

    /// The blocks defining `v` (a phi or an instruction; parameters are
    /// not definitions here), in layout order, each once: what step 1
    /// gathered, so that phi insertion need not scan the function again.
    pub(crate) fn def_blocks(&self, v: Var) -> &[Block] {
        self.defs.of(v)
    }

    /// Step 2 for variable `v`: calls `on_in(b)` once for each block where
    /// `v` is live-in and `on_out(b)` once for each block where it is
    /// live-out; afterwards [`VarLiveness::is_live_in`] answers for `v`.
    /// Costs what `v`'s live range touches.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::VarLiveness;
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
    /// let mut by_var = VarLiveness::new(f, &cfg);
    /// let mut live_in = 0;
    /// by_var.explore(var("n"), |_| live_in += 1, |_| {});
    /// assert_eq!(live_in, 3); // e, h and b
    /// ```
    pub fn explore(&mut self, v: Var, mut on_in: impl FnMut(Block), mut on_out: impl FnMut(Block)) {
        self.begin(v);
        // An upward-exposed use: v is live-in where it is used.
        for &b in self.upward.of(v) {
            if self.live_in.insert(b.index()) {
                on_in(b);
                self.stack.push(b);
            }
        }
        // A phi use: v is live-out of the predecessor.
        for &p in self.phi_uses.of(v) {
            if self.live_out.insert(p.index()) {
                on_out(p);
            }
            if !self.is_def.contains(p.index()) && self.live_in.insert(p.index()) {
                on_in(p);
                self.stack.push(p);
            }
        }
        // Up_and_Mark, iteratively: every block on the stack is live-in.
        while let Some(b) = self.stack.pop() {
            for &p in self.cfg.preds(b) {
                if self.live_out.insert(p.index()) {
                    on_out(p);
                }
                if !self.is_def.contains(p.index()) && self.live_in.insert(p.index()) {
                    on_in(p);
                    self.stack.push(p);
                }
            }
        }
    }

    /// Empties the marks of the previous variable and marks `v`'s
    /// definition blocks: the start of both explorations.
    fn begin(&mut self, v: Var) {
        self.is_def.clear();
        self.live_in.clear();
        self.live_out.clear();
        for &b in self.defs.of(v) {
            self.is_def.insert(b.index());
        }
    }

    /// [`Self::explore`] for the live-in blocks alone, returning whether
    /// `v` is live on entry to any block: pruned phi placement asks
    /// [`Self::is_live_in`] only, so the live-out marks (one stamp write
    /// per predecessor edge walked) are not made. The live-in set is the
    /// same as [`Self::explore`]'s: a live-out mark never stops or starts
    /// the walk. Afterwards [`Self::is_live_out`] answers false everywhere.
    pub(crate) fn explore_live_in(&mut self, v: Var) -> bool {
        self.begin(v);
        for &b in self.upward.of(v) {
            if self.live_in.insert(b.index()) {
                self.stack.push(b);
            }
        }
        for &p in self.phi_uses.of(v) {
            if !self.is_def.contains(p.index()) && self.live_in.insert(p.index()) {
                self.stack.push(p);
            }
        }
        let mut any = !self.stack.is_empty();
        while let Some(b) = self.stack.pop() {
            for &p in self.cfg.preds(b) {
                if !self.is_def.contains(p.index()) && self.live_in.insert(p.index()) {
                    self.stack.push(p);
                    any = true;
                }
            }
        }
        any
    }

    /// [`Self::explore_live_in`] for up to 64 variables at once (`vars[k]`
    /// is bit `k`), returning the bits of those live on entry to some
    /// block; afterwards [`Self::is_live_in_word`] answers for them. The
    /// same sets as one call per variable, for the cost of the walk over
    /// the union of their live ranges (where the variables' live ranges
    /// overlap, as dense definitions make them, a walk carries up to 64 of
    /// them along an edge in one word operation). Does not change what
    /// [`Self::is_live_in`] answers.
    pub(crate) fn explore_live_in_words(&mut self, vars: &[Var]) -> u64 {
        assert!(
            vars.len() <= 64,
            "explore_live_in_words: at most 64 variables"
        );
        let nb = self.cfg.num_blocks();
        let w = self.words.get_or_insert_with(|| LiveWords::new(nb));
        for b in w.touched.drain(..) {
            w.live_in[b] = 0;
            w.def[b] = 0;
        }
        for (k, &v) in vars.iter().enumerate() {
            for &b in self.defs.of(v) {
                w.def[b] |= 1 << k;
                w.touched.push(b);
            }
        }
        for (k, &v) in vars.iter().enumerate() {
            // An upward-exposed use: live-in where it is used; a phi use:
            // live-out of the predecessor, so live-in there unless defined.
            for &b in self.upward.of(v) {
                w.mark(b, 1 << k);
            }
            for &p in self.phi_uses.of(v) {
                w.mark(p, 1 << k & !w.def[p]);
            }
        }
        // Up_and_Mark, iteratively, a word of variables at a time.
        let mut any = 0;
        while let Some(b) = w.queue.pop() {
            let b = Block::from_u32(b);
            let bits = std::mem::take(&mut w.pending[b]);
            any |= bits;
            for &p in self.cfg.preds(b) {
                w.mark(p, bits & !w.def[p]);
            }
        }
        any
    }

    /// The variables of the last [`Self::explore_live_in_words`] live on
    /// entry to `b`, bit `k` for `vars[k]`.
    #[inline]
    pub(crate) fn live_in_word(&self, b: Block) -> u64 {
        self.words.as_ref().map_or(0, |w| w.live_in[b])
    }

    /// The variables of the last [`Self::explore_live_in_words`] defined
    /// in `b`, bit `k` for `vars[k]`.
    #[inline]
    pub(crate) fn def_word(&self, b: Block) -> u64 {
        self.words.as_ref().map_or(0, |w| w.def[b])
    }

    /// Whether variable `k` of the last [`Self::explore_live_in_words`]
    /// is live-in at `b`.
    #[inline]
    pub(crate) fn is_live_in_word(&self, b: Block, k: usize) -> bool {
        self.words
            .as_ref()
            .is_some_and(|w| w.live_in[b] >> k & 1 != 0)
    }

    /// Whether the variable last explored is live-in at `b`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::VarLiveness;
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
    /// let mut by_var = VarLiveness::new(f, &cfg);
    /// by_var.explore(var("i1"), |_| {}, |_| {});
    /// assert!(by_var.is_live_in(block("x")));
    /// assert!(!by_var.is_live_in(block("h")));
    /// ```
    #[inline]
    pub fn is_live_in(&self, b: Block) -> bool {
        self.live_in.contains(b.index())
    }

    /// Whether the variable last explored is live-out at `b`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::VarLiveness;
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
    /// let mut by_var = VarLiveness::new(f, &cfg);
    /// by_var.explore(var("i"), |_| {}, |_| {});
    /// assert!(by_var.is_live_out(block("e")));
    /// assert!(!by_var.is_live_in(block("e")));
    /// ```
    #[inline]
    pub fn is_live_out(&self, b: Block) -> bool {
        self.live_out.contains(b.index())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `explore_live_in` marks exactly the live-in blocks `explore` reports,
    /// and says whether there are any, on every generated shape.
    #[test]
    fn live_in_alone_matches_explore() {
        use crate::gen::{generate, GenOptions, Shape};
        for shape in Shape::ALL {
            let f = generate(&GenOptions {
                shape,
                blocks: 60,
                vars: 6,
                seed: 7,
            });
            let cfg = Cfg::new(&f);
            let mut a = VarLiveness::new(&f, &cfg);
            let mut b = VarLiveness::new(&f, &cfg);
            for v in f.vars() {
                let mut ins = Vec::new();
                a.explore(v, |x| ins.push(x), |_| {});
                let any = b.explore_live_in(v);
                assert_eq!(any, !ins.is_empty(), "{shape:?} {v}");
                for x in f.blocks() {
                    assert_eq!(a.is_live_in(x), b.is_live_in(x), "{shape:?} {v} {x}");
                    assert!(!b.is_live_out(x));
                }
            }
        }
    }
    use crate::ir::{BinOp, FunctionBuilder, Operand, PhiArg};

    /// ```text
    /// entry: i = 0; jump head
    /// head:  i1 = phi(entry: i, body: i2); branch i1, body, exit
    /// body:  i2 = i1 + 1; jump head
    /// exit:  ret n
    /// ```
    #[test]
    fn loop_with_phi() {
        let mut fb = FunctionBuilder::new("f");
        let n = fb.param("n");
        let i = fb.var("i");
        let i1 = fb.var("i1");
        let i2 = fb.var("i2");
        let entry = fb.block("entry");
        let head = fb.block("head");
        let body = fb.block("body");
        let exit = fb.block("exit");
        fb.switch_to(entry);
        fb.copy(i, Operand::Const(0));
        fb.jump(head);
        fb.switch_to(head);
        fb.phi(
            i1,
            &[
                PhiArg {
                    block: entry,
                    value: i.into(),
                },
                PhiArg {
                    block: body,
                    value: i2.into(),
                },
            ],
        );
        fb.branch(i1.into(), body, exit);
        fb.switch_to(body);
        fb.binary(i2, BinOp::Add, i1.into(), Operand::Const(1));
        fb.jump(head);
        fb.switch_to(exit);
        fb.ret(Some(n.into()));
        let f = fb.finish();
        let live = Liveness::new(&f, &Cfg::new(&f));
        assert_eq!(live.live_in(entry), &[n]);
        assert_eq!(live.live_out(entry), &[n, i]);
        assert_eq!(live.live_in(head), &[n]);
        assert_eq!(live.live_out(head), &[n, i1]);
        assert_eq!(live.live_in(body), &[n, i1]);
        assert_eq!(live.live_out(body), &[n, i2]);
        assert_eq!(live.live_in(exit), &[n]);
        assert!(live.live_out(exit).is_empty());
        assert!(live.is_live_out(body, i2) && !live.is_live_in(head, i2));
        let (bin, bout) = super::super::brute::liveness(&f);
        for b in f.layout().iter() {
            assert_eq!(live.live_in(*b), &bin[b.index()][..]);
            assert_eq!(live.live_out(*b), &bout[b.index()][..]);
        }
    }
}
