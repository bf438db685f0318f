//! Phase 1 of SSA construction: phi insertion (chapter, section 13.3).
//!
//! For each variable `v`, phis go at the iterated dominance frontier
//! DF⁺(Defs(v)) of the blocks that define it (Cytron, Ferrante, Rosen,
//! Wegman and Zadeck 1991). DF⁺ is computed on the fly by the chapter's
//! worklist over the precomputed frontiers:
//!
//! ```text
//! F := {}                      // blocks where v already has a phi
//! W := Defs(v)                 // blocks whose definitions are pending
//! while W != {}:
//!     remove X from W
//!     for Y in DF(X):
//!         if Y not in F:
//!             add v <- phi(...) at entry of Y;  F := F ∪ {Y}
//!             if Y not in Defs(v): W := W ∪ {Y}
//! ```
//!
//! A phi is itself a definition, hence the additions to W; F is needed
//! because frontiers of different blocks overlap (DF(B) and DF(C) both hold
//! D in the chapter's example). Sets are *stamped* arrays: a block is in F
//! for variable number k when `f_stamp[block] == k`, so moving to the next
//! variable costs nothing and the work for `v` is proportional to the blocks
//! it touches, never to the size of the function.
//!
//! W is taken first-in first-out, which makes the trace read in program
//! order; any order gives the same set of phis.
//!
//! DF sets can be quadratic in size (a ladder of n nested loops has
//! frontiers of Θ(n²) elements in all), so the worklist above, like every
//! method that materialises DF, is quadratic there. `IdfMethod::Linear`
//! (the default for construction) computes the same DF⁺(Defs(v)) per
//! variable without building DF, by Sreedhar and Gao's method on the
//! DJ-graph ([`IdfCalculator`], the method of the chapter 14 that the
//! chapter announces); the worklist is kept for teaching and for the trace,
//! and the tests check that both place the same phis. The trace of one
//! variable runs the worklist for that variable alone, beside the linear
//! method for the others, with what each step needs of DF(X) computed
//! without DF_all (`trace::TracedFrontiers`): time and memory near-linear in
//! the function, where DF_all took 4.8 GB on a 40,000-block ladder.
//!
//! For pruned SSA, when DF is small (at most the definition blocks per
//! word of 64 variables; never a ladder's), the worklist comes back in a
//! word-parallel form (`IdfWords`, `analysis/idf_words.rs`): 64 variables
//! per block in one word, each block taken once with all the bits that
//! reached it, the liveness words of the same 64 variables as the filter. On dense definitions
//! (most variables assigned in most blocks) that replaces one walk of most
//! of the function per variable by one pass over DF per 64 of them. Both
//! place the same phis (the property tests compare every method).
//!
//! Flavours ([`Flavor`]): *minimal* inserts at DF⁺(Defs(v)) for every
//! variable, as the chapter does; *semi-pruned* (Briggs, Cooper, Harvey and
//! Simpson 1998) only for variables live across a block boundary (used in
//! some block before any definition in it); *pruned* only where `v` is live
//! on entry, so no phi is dead.

use super::observe::Observer;
use super::options::Flavor;
use super::trace::{shown, TracedFrontiers};
use crate::analysis::idf_words::IdfWords;
use crate::analysis::{DomTree, DominanceFrontiers, IdfCalculator, VarLiveness};
use crate::entity::{Csr, EntityVec, PackedOption};
use crate::ir::{Block, Cfg, Function, InstData, Operand, PhiArg, Var};
use std::cell::RefCell;

/// Definition blocks of each variable, compressed: the blocks defining
/// variable `v`, in layout order, each once. Parameters are defined in the
/// entry block.
pub(crate) struct DefBlocks {
    blocks: Csr<Var, Block>,
}

impl DefBlocks {
    /// Collects the definition blocks of every variable of `func`.
    pub(crate) fn new(func: &Function) -> DefBlocks {
        let nv = func.num_vars();
        // Pairs (var, block) without repeats for one block: a block defines
        // v once in this list however many times it assigns v.
        let mut last: EntityVec<Var, PackedOption<Block>> =
            EntityVec::filled(nv, PackedOption::NONE);
        // At most one pair per definition: sized once.
        let mut pairs: Vec<(Var, Block)> =
            Vec::with_capacity(func.inst_slots() + func.params().len());
        let mut add = |v: Var, b: Block, pairs: &mut Vec<(Var, Block)>| {
            if last[v].expand() != Some(b) {
                last[v] = PackedOption::some(b);
                pairs.push((v, b));
            }
        };
        let entry = func.entry();
        for &p in func.params() {
            add(p, entry, &mut pairs);
        }
        for &b in func.layout() {
            for i in func.block_all_insts(b) {
                func.for_each_def(i, |v| add(v, b, &mut pairs));
            }
        }
        // A stable counting sort by variable keeps layout order within a
        // variable.
        DefBlocks {
            blocks: Csr::from_pairs(nv, pairs),
        }
    }

    /// The blocks defining `v`.
    pub(crate) fn of(&self, v: Var) -> &[Block] {
        self.blocks.of(v)
    }
}

/// Variables used in some block before being defined in it: Briggs et al.'s
/// "global names", the only ones semi-pruned SSA gives phis.
pub(crate) fn global_names(func: &Function) -> EntityVec<Var, bool> {
    let mut global = EntityVec::filled(func.num_vars(), false);
    // defined_in[v] == Some(b) when v has been assigned earlier in the
    // block b being scanned.
    let mut defined_in: EntityVec<Var, PackedOption<Block>> =
        EntityVec::filled(func.num_vars(), PackedOption::NONE);
    for &b in func.layout() {
        let here = PackedOption::some(b);
        for i in func.block_all_insts(b) {
            func.for_each_use(i, |v| {
                if defined_in[v] != here {
                    global[v] = true;
                }
            });
            func.for_each_def(i, |v| defined_in[v] = here);
        }
        func.for_each_term_use(b, |v| {
            if defined_in[v] != here {
                global[v] = true;
            }
        });
    }
    global
}

/// The order in which variables get their phis: by name, then index. Phis
/// of one block then appear in name order, as in the chapter's figures.
pub(crate) fn variable_order(func: &Function) -> Vec<Var> {
    sorted_by_name(func, func.vars())
}

/// `vars` in [`variable_order`]'s order (by name, then index).
fn sorted_by_name(func: &Function, vars: impl Iterator<Item = Var>) -> Vec<Var> {
    // Each name looked up once, not twice per comparison; the keys are
    // distinct (the index breaks ties), so an unstable sort gives the
    // one order. The first eight bytes of the name, big-endian and padded
    // with zeros, order two names as the names do unless they are equal
    // (`x` and `x\0` are, which the name itself then settles): a
    // comparison is one integer comparison for the short names of most
    // programs (registers, temporaries).
    let prefix = |name: &str| {
        let mut key = [0u8; 8];
        let n = name.len().min(8);
        key[..n].copy_from_slice(&name.as_bytes()[..n]);
        u64::from_be_bytes(key)
    };
    let mut keyed: Vec<(u64, &str, Var)> = vars
        .map(|v| {
            let name = func.base_name(v);
            (prefix(name), name, v)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, _, v)| v).collect()
}

/// How DF⁺(Defs(v)) is computed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum IdfMethod<'a> {
    /// The chapter's worklist with sets W and F over precomputed frontiers.
    Worklist(&'a DominanceFrontiers),
    /// Sreedhar and Gao's linear method on the DJ-graph, without DF sets.
    Linear(&'a DomTree),
}

/// Inputs of phi insertion.
pub(crate) struct PhiInsertion<'a> {
    /// The control-flow graph of the function.
    pub(crate) cfg: &'a Cfg,
    /// How DF⁺ is computed.
    pub(crate) idf: IdfMethod<'a>,
    /// Which flavour of SSA.
    pub(crate) flavor: Flavor,
    /// Liveness of the original program, explored one variable at a time;
    /// required for [`Flavor::Pruned`].
    pub(crate) liveness: Option<RefCell<VarLiveness<'a>>>,
}

impl PhiInsertion<'_> {
    /// For pruned SSA: explores `v`'s liveness (afterwards [`Self::keep`]
    /// answers for `v`) and says whether `v` is live on entry to any block;
    /// always true for the other flavours.
    fn prepare_var(&self, v: Var) -> bool {
        match (&self.liveness, self.flavor) {
            (Some(live), Flavor::Pruned) => live.borrow_mut().explore_live_in(v),
            _ => true,
        }
    }

    /// Inserts phis `v = phi(P1: v, ..., Pn: v)` (one operand per distinct
    /// predecessor, still naming the original variable; renaming fixes them)
    /// and returns how many, reporting the worklist's steps of each
    /// variable `observer` [watches](Observer::watches).
    ///
    /// # Preconditions
    /// `func` has no phis, its entry has no predecessors, every block of the
    /// layout is reachable, and `cfg`, `df` (and `liveness`) describe it.
    pub(crate) fn run<O: Observer>(&self, func: &mut Function, observer: &mut O) -> usize {
        let placed = match self.idf {
            IdfMethod::Worklist(df) => self.place_by_worklist(func, df, observer),
            IdfMethod::Linear(dt) => self.place_linear(func, dt, observer),
        };
        let n = placed.len();
        // Group the placements by block with a stable counting sort (each
        // block's phis stay in variable order) and create them block by
        // block: the block, its predecessor list and its phi list are
        // touched once, in layout order, instead of once per phi in
        // variable order (creating the phis was half of phi insertion on
        // loop nests, mostly cache misses).
        let by_block = Csr::from_pairs(func.num_blocks(), placed);
        // Room for every phi at once: growing the instruction table and
        // each block's phi list one push at a time copied them repeatedly.
        func.reserve_insts(n);
        let operands: usize = func
            .layout()
            .iter()
            .filter(|&&b| !by_block.of(b).is_empty())
            .map(|&b| by_block.of(b).len() * self.cfg.unique_preds(b).count())
            .sum();
        func.reserve_list_items::<PhiArg>(operands);
        let mut args: Vec<PhiArg> = Vec::new();
        for k in 0..func.layout().len() {
            let b = func.layout()[k];
            let vars = by_block.of(b);
            if vars.is_empty() {
                continue;
            }
            args.clear();
            args.extend(self.cfg.unique_preds(b).map(|p| PhiArg {
                block: p,
                value: Operand::Undef,
            }));
            func.reserve_phis(b, vars.len());
            for &v in vars {
                for a in &mut args {
                    a.value = Operand::Var(v);
                }
                let args = func.list(&args);
                func.push_inst(b, InstData::Phi { dst: v, args });
            }
        }
        n
    }

    /// Whether variable `v` gets phis at all in this flavour.
    fn wanted(&self, global: &Option<EntityVec<Var, bool>>, v: Var) -> bool {
        global.as_ref().is_none_or(|g| g[v])
    }

    /// Whether a phi for `v` at `y` is kept: always, except in pruned SSA
    /// where `v` must be live on entry to `y`.
    ///
    /// # Preconditions
    /// [`Self::prepare_var`] was last called for `v`.
    fn keep(&self, y: Block, _v: Var) -> bool {
        match (&self.liveness, self.flavor) {
            (Some(live), Flavor::Pruned) => live.borrow().is_live_in(y),
            _ => true,
        }
    }

    /// DF⁺ per variable by Sreedhar and Gao, then the flavour's filter.
    ///
    /// For pruned SSA the filter is applied inside the IDF computation
    /// ([`IdfCalculator::compute_live`]): a join where `v` is dead is
    /// neither a phi nor a new root. Liveness is explored for 64 variables
    /// at a time (a word of variables per block,
    /// [`VarLiveness`]'s `explore_live_in_words`), and only for variables
    /// that can need a phi: a variable defined only in the entry block (which dominates
    /// everything and has no predecessors), or more generally whose DF⁺ is
    /// seen to be empty in O(definitions) ([`IdfCalculator::is_empty`]),
    /// costs nothing, and a variable live on entry to no block is skipped
    /// without any walk. So a function with many variables live everywhere but
    /// assigned once pays neither time nor memory for their live ranges.
    ///
    /// A variable the observer watches goes through the chapter's worklist
    /// instead ([`Self::place_traced`]), which reports its steps.
    fn place_linear<O: Observer>(
        &self,
        func: &Function,
        dt: &DomTree,
        observer: &mut O,
    ) -> Vec<(Block, Var)> {
        if let (Flavor::Pruned, Some(live)) = (self.flavor, &self.liveness) {
            return self.place_pruned(func, dt, live, observer);
        }
        let defs = DefBlocks::new(func);
        let global = (self.flavor == Flavor::SemiPruned).then(|| global_names(func));
        let entry = func.entry();
        let mut calc = IdfCalculator::new(self.cfg, dt);
        let mut frontier = Vec::new();
        let mut placed = Vec::new();
        for v in variable_order(func) {
            let d = defs.of(v);
            if observer.watches(v) {
                if !d.is_empty() && self.wanted(&global, v) {
                    placed.extend(self.place_traced(func, dt, v, d, observer));
                }
                continue;
            }
            if d.is_empty() || d == [entry] || !self.wanted(&global, v) || calc.is_empty(d) {
                continue;
            }
            calc.compute(d, &mut frontier);
            placed.extend(frontier.iter().map(|&y| (y, v)));
        }
        placed
    }

    /// Pruned SSA by [`Self::place_linear`]'s method. The definition
    /// blocks are those liveness gathered ([`VarLiveness::def_blocks`]),
    /// not a second scan of the function: they leave out the entry's
    /// parameter definitions, which change no DF⁺ (the entry has no
    /// predecessors, so DF(entry) is empty and DF⁺ of a union is the union
    /// of the DF⁺). Only the variables that need a walk (an upward-exposed
    /// use somewhere, [`VarLiveness::may_be_live_in`], and DF⁺ of their
    /// definitions not seen to be empty) and the watched ones are put in
    /// variable order: the others place nothing, wherever they come.
    fn place_pruned<O: Observer>(
        &self,
        func: &Function,
        dt: &DomTree,
        live: &RefCell<VarLiveness<'_>>,
        observer: &mut O,
    ) -> Vec<(Block, Var)> {
        // A variable live on entry to no block (no upward-exposed use: a
        // lift's temporaries and flags, used only in the block defining
        // them) gets no phi whatever its DF⁺: it is dropped first, in
        // O(1), and a function with no other needs no IDF at all.
        let candidate = |v: Var| observer.watches(v) || live.borrow().may_be_live_in(v);
        if !func.vars().any(candidate) {
            return Vec::new();
        }
        let mut calc = IdfCalculator::new(self.cfg, dt);
        let order = {
            let live = live.borrow();
            let needs = |v: Var| live.may_be_live_in(v) && !calc.is_empty(live.def_blocks(v));
            sorted_by_name(
                func,
                func.vars().filter(|&v| observer.watches(v) || needs(v)),
            )
        };
        // The unwatched, their liveness explored 64 at a time when the
        // first of each chunk comes.
        let walked: Vec<Var> = order
            .iter()
            .copied()
            .filter(|&v| !observer.watches(v))
            .collect();
        if walked.len() == order.len() {
            if let Some(placed) = self.place_by_words(dt, live, &walked) {
                return placed;
            }
        }
        let mut all_defs: Option<DefBlocks> = None;
        let (mut frontier, mut d, mut placed) = (Vec::new(), Vec::new(), Vec::new());
        let (mut next, mut bits) = (0, 0u64);
        for v in order {
            if observer.watches(v) {
                // The trace shows Defs(v) with the parameters' entry.
                let d = all_defs.get_or_insert_with(|| DefBlocks::new(func)).of(v);
                if !d.is_empty() {
                    placed.extend(self.place_traced(func, dt, v, d, observer));
                }
                continue;
            }
            debug_assert_eq!(walked[next], v);
            let k = next % 64;
            if k == 0 {
                bits = self.liveness_of(&walked[next..walked.len().min(next + 64)]);
            }
            next += 1;
            if bits >> k & 1 == 0 {
                continue;
            }
            d.clear();
            d.extend_from_slice(live.borrow().def_blocks(v));
            // Unsorted: `run` groups the placements by block.
            calc.compute_live_unsorted(&d, &mut frontier, |y| self.keep_word(y, k));
            placed.extend(frontier.iter().map(|&y| (y, v)));
        }
        placed
    }

    /// [`Self::place_pruned`] for 64 variables at a time ([`IdfWords`]:
    /// the chapter's worklist over DF with a word of variables per block),
    /// when DF is small enough to pay: Σ|DF| at most the definition blocks
    /// of `walked` per word of them, which a walk per variable touches at
    /// least. `None` (nothing done) otherwise: a ladder's quadratic DF.
    /// Places the same phis as the walks, each block's in variable order
    /// (`walked` is in variable order, and so are the words and their bits).
    fn place_by_words(
        &self,
        dt: &DomTree,
        live: &RefCell<VarLiveness<'_>>,
        walked: &[Var],
    ) -> Option<Vec<(Block, Var)>> {
        if walked.is_empty() {
            return Some(Vec::new()); // no frontier to build
        }
        let def_blocks: usize = {
            let live = live.borrow();
            walked.iter().map(|&v| live.def_blocks(v).len()).sum()
        };
        let budget = def_blocks / walked.len().div_ceil(64);
        let mut words = IdfWords::new(self.cfg, dt, budget)?;
        let mut placed = Vec::new();
        for chunk in walked.chunks(64) {
            let bits = self.liveness_of(chunk);
            let live = live.borrow();
            let defs = chunk
                .iter()
                .enumerate()
                .filter(|&(k, _)| bits >> k & 1 != 0)
                .flat_map(|(k, &v)| live.def_blocks(v).iter().map(move |&x| (x, 1 << k)));
            let at = words.compute(defs, |y| live.def_word(y), |y| live.live_in_word(y));
            placed.reserve(at.clone().map(|(_, w)| w.count_ones() as usize).sum());
            for (y, mut w) in at {
                while w != 0 {
                    placed.push((y, chunk[w.trailing_zeros() as usize]));
                    w &= w - 1;
                }
            }
        }
        Some(placed)
    }

    /// For pruned SSA by [`Self::place_linear`]: explores the liveness of
    /// `vars` (at most 64) at once and returns the bits of those live on
    /// entry to some block; afterwards [`Self::keep_word`] answers for
    /// them.
    fn liveness_of(&self, vars: &[Var]) -> u64 {
        match &self.liveness {
            Some(live) => live.borrow_mut().explore_live_in_words(vars),
            None => u64::MAX,
        }
    }

    /// [`Self::keep`] for variable `k` of the last [`Self::liveness_of`].
    fn keep_word(&self, y: Block, k: usize) -> bool {
        match &self.liveness {
            Some(live) => live.borrow().is_live_in_word(y, k),
            None => true,
        }
    }

    /// The chapter's worklist over DF_all's frontiers, reporting the steps
    /// of the variables the observer watches.
    fn place_by_worklist<O: Observer>(
        &self,
        func: &Function,
        df: &DominanceFrontiers,
        observer: &mut O,
    ) -> Vec<(Block, Var)> {
        let defs = DefBlocks::new(func);
        let global = (self.flavor == Flavor::SemiPruned).then(|| global_names(func));
        let mut wl = Worklist::new(func.num_blocks());
        let mut placed: Vec<(Block, Var)> = Vec::new();
        let mut df_of = df;
        for v in variable_order(func) {
            let d = defs.of(v);
            if d.is_empty() || !self.wanted(&global, v) {
                continue;
            }
            // The others run unobserved: nothing computed to show.
            if observer.watches(v) {
                wl.run(self, v, d, &mut df_of, &mut placed, observer);
            } else {
                wl.run(self, v, d, &mut df_of, &mut placed, &mut ());
            }
        }
        placed
    }

    /// A watched variable `v` of [`Self::place_linear`]: the chapter's
    /// worklist, reporting its steps, with what each step needs of DF(X)
    /// (its blocks not yet in F, its size, the blocks a row shows) from
    /// [`TracedFrontiers`] instead of DF_all's frontiers of every block:
    /// time and memory near-linear in the function, where the sum of the
    /// frontiers taken is quadratic on a ladder.
    fn place_traced<O: Observer>(
        &self,
        func: &Function,
        dt: &DomTree,
        v: Var,
        d: &[Block],
        observer: &mut O,
    ) -> Vec<(Block, Var)> {
        let mut wl = Worklist::new(func.num_blocks());
        let mut frontiers = TracedFrontiers::new(self.cfg, dt);
        let mut placed = Vec::new();
        wl.run(self, v, d, &mut frontiers, &mut placed, observer);
        placed
    }
}

/// What a worklist step reads of DF(X): the blocks that may receive a phi
/// and, for an observer, the blocks shown and the size.
trait StepFrontier {
    /// Pushes onto `out` a part of DF(x) holding every block of DF(x) not
    /// yet in F, sorted.
    fn candidates(&mut self, x: Block, out: &mut Vec<Block>);
    /// The first blocks of DF(x) an observer is shown and `|DF(x)|`, after
    /// [`Self::candidates`] gave `candidates` for `x`.
    fn row_cell(&mut self, x: Block, candidates: &[Block]) -> (Vec<Block>, usize);
}

/// DF_all's frontiers: the candidates are all of DF(X).
impl StepFrontier for &DominanceFrontiers {
    fn candidates(&mut self, x: Block, out: &mut Vec<Block>) {
        out.extend_from_slice(self.df(x));
    }
    fn row_cell(&mut self, _x: Block, candidates: &[Block]) -> (Vec<Block>, usize) {
        (shown(candidates.iter().copied()), candidates.len())
    }
}

/// The traced variable of the linear method: only the blocks not yet in F
/// are found, and the size is counted ([`TracedFrontiers`]).
impl StepFrontier for TracedFrontiers<'_> {
    fn candidates(&mut self, x: Block, out: &mut Vec<Block>) {
        self.take_new(x, out);
        out.sort_unstable();
    }
    fn row_cell(&mut self, x: Block, _candidates: &[Block]) -> (Vec<Block>, usize) {
        (self.shown(x), self.len(x))
    }
}

/// The chapter's worklist with sets W and F, one variable at a time; the
/// sets are stamped arrays (see the module documentation), kept from one
/// variable to the next.
struct Worklist {
    /// `in_f[b] == stamp`: `b` is in F (a phi was considered there).
    in_f: Vec<u32>,
    /// `in_defs[b] == stamp`: `b` is in Defs(v).
    in_defs: Vec<u32>,
    /// W, in insertion order; `w[head..]` is still to be taken.
    w: Vec<Block>,
    /// The blocks of DF(X) that may receive a phi in the current step
    /// ([`StepFrontier::candidates`]).
    df: Vec<Block>,
}

impl Worklist {
    fn new(blocks: usize) -> Self {
        Worklist {
            in_f: vec![0; blocks],
            in_defs: vec![0; blocks],
            w: Vec::new(),
            df: Vec::new(),
        }
    }

    /// Places `v`'s phis (pushed to `placed`), DF(X) read from `df_of`,
    /// reporting each step to `observer` (`()` for a variable nobody
    /// watches: then nothing is computed to show).
    fn run<O: Observer>(
        &mut self,
        ins: &PhiInsertion<'_>,
        v: Var,
        d: &[Block],
        df_of: &mut dyn StepFrontier,
        placed: &mut Vec<(Block, Var)>,
        observer: &mut O,
    ) {
        let stamp = v.as_u32() + 1;
        let watched = observer.watches(v);
        ins.prepare_var(v);
        self.w.clear();
        for &b in d {
            self.in_defs[b.index()] = stamp;
            self.w.push(b);
            observer.added(v, b);
        }
        let mut head = 0;
        while head < self.w.len() {
            // "remove a basic block X from W"
            let x = self.w[head];
            head += 1;
            observer.taken(v, x);
            self.df.clear();
            df_of.candidates(x, &mut self.df);
            for &y in &self.df {
                if self.in_f[y.index()] == stamp {
                    continue;
                }
                self.in_f[y.index()] = stamp;
                if !ins.keep(y, v) {
                    // Dead here: no phi, and no new definition to propagate.
                    continue;
                }
                placed.push((y, v));
                observer.placed(v, y);
                if self.in_defs[y.index()] != stamp {
                    self.w.push(y);
                    observer.added(v, y);
                }
            }
            if watched {
                let (df, df_len) = df_of.row_cell(x, &self.df);
                observer.stepped(v, x, &df, df_len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chapter's running example: Defs(x) = {B, C, D}, DF⁺ = {A, D, E}.
    const SEED: &str = "function main(p, q) {
r:
    jump A
A:
    branch p, B, C
B:
    y = 0
    x = 0
    jump D
C:
    tmp = x
    x = y
    y = tmp
    branch q, D, E
D:
    x = f(x, y)
    branch q, E, A
E:
    ret x
}";

    #[derive(Clone, Debug, PartialEq, Eq)]
    enum Event {
        Added(Block),
        Taken(Block),
        Placed(Block),
        Stepped(Block, usize),
    }

    /// Records the phi-insertion events of the variable it watches.
    struct Recorder {
        var: Var,
        events: Vec<Event>,
    }

    impl Observer for Recorder {
        fn watches(&self, v: Var) -> bool {
            v == self.var
        }
        fn added(&mut self, v: Var, b: Block) {
            assert_eq!(v, self.var, "only the watched variable is reported");
            self.events.push(Event::Added(b));
        }
        fn taken(&mut self, v: Var, x: Block) {
            assert_eq!(v, self.var);
            self.events.push(Event::Taken(x));
        }
        fn placed(&mut self, v: Var, y: Block) {
            assert_eq!(v, self.var);
            self.events.push(Event::Placed(y));
        }
        fn stepped(&mut self, v: Var, x: Block, _df: &[Block], df_len: usize) {
            assert_eq!(v, self.var);
            self.events.push(Event::Stepped(x, df_len));
        }
    }

    /// Inserts the phis of SEED by `worklist` or the linear method,
    /// reporting `var`'s steps to a recorder: the events and the phis.
    fn insert(var: &str, worklist: bool) -> (Function, Vec<Event>, usize) {
        let mut f = crate::text::parse_module(SEED).unwrap().functions.remove(0);
        let cfg = Cfg::new(&f);
        let dt = DomTree::new(&cfg);
        let df = DominanceFrontiers::new(&cfg, &dt);
        let ins = PhiInsertion {
            cfg: &cfg,
            idf: if worklist {
                IdfMethod::Worklist(&df)
            } else {
                IdfMethod::Linear(&dt)
            },
            flavor: Flavor::Minimal,
            liveness: None,
        };
        let mut rec = Recorder {
            var: f.var_by_name(var).unwrap(),
            events: Vec::new(),
        };
        let phis = ins.run(&mut f, &mut rec);
        (f, rec.events, phis)
    }

    #[test]
    fn phi_insertion_reports_the_worklist_of_the_watched_variable() {
        let (f, events, phis) = insert("x", true);
        let b = |name: &str| f.block_by_name(name).unwrap();
        use Event::*;
        // W starts as Defs(x) = {B, C, D}; each step takes the oldest
        // block of W, places phis at the blocks of DF(X) not yet in F and
        // adds those not in Defs(x) to W: DF(B) = {D} (in Defs: not
        // added), DF(C) = {D, E} (D already in F), DF(D) = {A, E},
        // DF(E) = {}, DF(A) = {A} (already in F).
        assert_eq!(
            events,
            [
                Added(b("B")),
                Added(b("C")),
                Added(b("D")),
                Taken(b("B")),
                Placed(b("D")),
                Stepped(b("B"), 1),
                Taken(b("C")),
                Placed(b("E")),
                Added(b("E")),
                Stepped(b("C"), 2),
                Taken(b("D")),
                Placed(b("A")),
                Added(b("A")),
                Stepped(b("D"), 2),
                Taken(b("E")),
                Stepped(b("E"), 0),
                Taken(b("A")),
                Stepped(b("A"), 1),
            ]
        );
        // The observer changes nothing: the same phis as unobserved.
        let mut g = crate::text::parse_module(SEED).unwrap().functions.remove(0);
        let cfg = Cfg::new(&g);
        let dt = DomTree::new(&cfg);
        let unobserved = PhiInsertion {
            cfg: &cfg,
            idf: IdfMethod::Linear(&dt),
            flavor: Flavor::Minimal,
            liveness: None,
        }
        .run(&mut g, &mut ());
        assert_eq!(phis, unobserved);
        assert_eq!(
            crate::text::print_function(&f),
            crate::text::print_function(&g)
        );
        // The linear method sends the watched variable through the same
        // worklist, with the same steps.
        assert_eq!(insert("x", false).1, events);
    }
}
