//! Phase 2 of SSA construction: renaming (chapter, section 13.4).
//!
//! A preorder walk of the dominator tree gives each definition a fresh
//! version and rewrites each use to the version of the unique definition
//! that reaches it — the closest definition that dominates it. Two
//! interchangeable ways of finding that definition implement `Reaching`:
//!
//! * `ReachingDefChains`, the chapter's algorithm: one slot
//!   `v.reachingDef` per variable, and per version `v'.reachingDef` the
//!   definition it shadowed. `updateReachingDef(v, i)` climbs that chain
//!   until it finds a definition that dominates `i`:
//!
//!   ```text
//!   r := v.reachingDef
//!   while not (r == ⊥ or definition(r) dominates i) do r := r.reachingDef
//!   v.reachingDef := r
//!   ```
//!   It needs no stack and no action when the walk leaves a block.
//! * `VersionStacks`, the classic algorithm (Cytron et al. 1991): one stack
//!   of versions per variable, pushed at each definition and popped, through
//!   an undo log, when the walk leaves the block.
//!
//! Both are driven by one `Renamer`, which visits blocks, instructions and
//! uses in the same order and numbers versions in that order, so they
//! produce identical functions; the tests check it.
//!
//! Order inside a block, as in the chapter: for each instruction its uses are
//! renamed before its definitions; phi operands are uses at the end of the
//! corresponding predecessor, so they are renamed when the walk finishes that
//! predecessor ("foreach phi en un sucesor de BB").
//!
//! Where things happen is a [`Point`]: parameters and phis are defined at
//! the entry of their block, instruction `k` reads at `before(k)` and
//! defines at `after(k)`, the terminator reads at `before(n)`, and the phi
//! operands of successors are read at the block's `exit`.
//!
//! The undefined value ⊥ (section 13.5) is the empty chain. [`UndefMode`]
//! says what a use that finds ⊥ becomes.
//!
//! An [`Observer`](super::observe) sees every use and definition with
//! where it is (the trace's `TraceObserver` is one); `()` observes
//! nothing and costs nothing.

use super::observe::{Observer, Site};
use super::options::UndefMode;
use crate::analysis::{DomEvent, DomTree};
use crate::entity::{Csr, EntityList, EntityVec, ListStore, PackedOption};
use crate::ir::{Block, Cfg, Function, Inst, InstData, Operand, Point, Var};

/// How renaming finds the definition reaching a use.
pub(crate) trait Reaching {
    /// Whether [`Self::exit`] does anything. When it does not, the walk
    /// visits the blocks in the tree's stored preorder, without exit
    /// events.
    const EXITS: bool = true;
    /// The walk enters block `b` (after entering its dominators).
    fn enter(&mut self, b: Block);
    /// The walk leaves block `b` (after its dominator subtree).
    fn exit(&mut self, b: Block);
    /// The version of original variable `v` reaching point `at`, or `None`
    /// for ⊥.
    fn lookup(&mut self, v: Var, at: Point) -> Option<Var>;
    /// Records that `new`, a version of `v`, is defined at `at`.
    fn define(&mut self, v: Var, new: Var, at: Point);
    /// Prepares for variables numbered up to `num_vars` (a hint).
    fn reserve(&mut self, _num_vars: usize) {}
}

/// One climb of `updateReachingDef` for the traced variable: the chain
/// values passed over, recorded by [`ReachingDefChains`] when tracing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Climb {
    /// `v.reachingDef` before the update.
    pub(crate) before: Option<Var>,
    /// The values `v.reachingDef` climbed to, in order.
    pub(crate) climbed: Vec<Option<Var>>,
}

/// What the chains keep of one version `d`: `d.reachingDef`, and the
/// last preorder number of the dominator subtree of the block defining `d`
/// ([`DomTree::subtree_pre`]), side by side so that a step of a climb
/// reads one record of eight bytes.
#[derive(Clone, Copy, Debug)]
struct Link {
    /// `d.reachingDef`: the definition `d` shadowed.
    prev: PackedOption<Var>,
    /// `last(b)` of `d`'s block `b`.
    last: u32,
}

impl Link {
    const NONE: Link = Link {
        prev: PackedOption::NONE,
        last: 0,
    };
}

/// The chapter's reachingDef chains.
///
/// "definition(r) dominates i" is asked of the blocks only, in one
/// comparison. The walk visits blocks in the tree's preorder, so `r`'s
/// block `A` came no later than the block `B` of `i`: `pre(A) ≤ pre(B)`,
/// and `A` dominates `B` iff `pre(B) ≤ last(A)` (`B` is inside `A`'s
/// subtree, contiguous in preorder). In the chapter's terms a definition
/// in `B` itself must also come before `i`; it always does here, since the
/// walk visits `B`'s points in order and a definition is recorded when the
/// walk passes it. Debug builds check the result against
/// [`Point::dominates`].
pub(crate) struct ReachingDefChains<'a> {
    dt: &'a DomTree,
    /// `(pre(B), last(B))` of the block `B` the walk is in
    /// ([`DomTree::subtree_pre`]): every point looked up or defined
    /// between entering `B` and entering the next block is in `B`.
    here: (u32, u32),
    /// `B` itself, to check that.
    #[cfg(debug_assertions)]
    here_block: Block,
    /// `v.reachingDef` for each original variable `v`.
    current: EntityVec<Var, PackedOption<Var>>,
    /// `v'.reachingDef` and where `v'` is defined, for each version (or
    /// parameter) `v'`.
    links: EntityVec<Var, Link>,
    /// Where each version is defined, to check the block test above.
    #[cfg(debug_assertions)]
    site: EntityVec<Var, Point>,
    /// The traced variable, if any: its updates take the recording path.
    traced: PackedOption<Var>,
    /// The traced variable's climbs, one per lookup or definition.
    climbs: Vec<Climb>,
}

impl<'a> ReachingDefChains<'a> {
    /// Chains for a function with `num_vars` variables (more are added as
    /// versions are created), recording the climbs of `trace` if given.
    /// The links are allocated once, by [`Reaching::reserve`], for the
    /// variables and all their versions.
    pub(crate) fn new(dt: &'a DomTree, num_vars: usize, trace: Option<Var>) -> Self {
        ReachingDefChains {
            dt,
            here: (0, 0),
            #[cfg(debug_assertions)]
            here_block: Block::new(0),
            current: EntityVec::filled(num_vars, PackedOption::NONE),
            links: EntityVec::new(),
            #[cfg(debug_assertions)]
            site: EntityVec::filled(num_vars, Point::entry(Block::new(0))),
            traced: trace.into(),
            climbs: Vec::new(),
        }
    }

    /// The climbs recorded, if tracing.
    pub(crate) fn into_climbs(self) -> Option<Vec<Climb>> {
        (!self.traced.is_none()).then_some(self.climbs)
    }

    /// `updateReachingDef(v, i)`, recording the climb if `v` is traced:
    /// returns the new `v.reachingDef`. For a definition of `new` at `i`
    /// (`defining`), `v.reachingDef` is then `new` (stored at once,
    /// instead of the result).
    #[inline(always)]
    fn update_reaching_def(
        &mut self,
        v: Var,
        at: Point,
        defining: Option<Var>,
    ) -> PackedOption<Var> {
        if self.traced == PackedOption::some(v) {
            self.update_traced(v, at);
            let r = self.current[v];
            if let Some(new) = defining {
                self.current[v] = PackedOption::some(new);
            }
            return r;
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            at.block(),
            self.here_block,
            "a point outside the block entered"
        );
        let pre = self.here.0;
        // `current` and `links` are distinct fields: one index into
        // `current` for the read and the write.
        let head = &mut self.current[v];
        let mut r = *head;
        while let Some(d) = r.expand() {
            let l = self.links[d];
            if pre <= l.last {
                break;
            }
            r = l.prev;
        }
        *head = match defining {
            Some(new) => PackedOption::some(new),
            None => r,
        };
        #[cfg(debug_assertions)]
        self.check(r, at);
        r
    }

    /// [`Self::update_reaching_def`] of the traced variable, recording the
    /// climb.
    #[cold]
    fn update_traced(&mut self, v: Var, at: Point) {
        let (pre, _) = self.dt.subtree_pre(at.block());
        let before = self.current[v].expand();
        let mut climbed = Vec::new();
        let mut r = before;
        while let Some(d) = r {
            let l = self.links[d];
            if pre <= l.last {
                break;
            }
            r = l.prev.expand();
            climbed.push(r);
        }
        self.current[v] = r.into();
        self.climbs.push(Climb { before, climbed });
        #[cfg(debug_assertions)]
        self.check(r.into(), at);
    }

    /// Checks that the block test found, as `found`, what the chapter's
    /// test finds: the first definition on the chain dominating `at`.
    #[cfg(debug_assertions)]
    fn check(&self, found: PackedOption<Var>, at: Point) {
        if let Some(d) = found.expand() {
            debug_assert!(self.site[d].dominates(at, self.dt), "{d} at {at:?}");
        }
    }
}

impl Reaching for ReachingDefChains<'_> {
    const EXITS: bool = false;

    #[inline]
    fn enter(&mut self, b: Block) {
        self.here = self.dt.subtree_pre(b);
        #[cfg(debug_assertions)]
        {
            self.here_block = b;
        }
    }
    fn exit(&mut self, _: Block) {}

    fn reserve(&mut self, num_vars: usize) {
        if num_vars > 0 {
            self.links.ensure(Var::new(num_vars - 1), Link::NONE);
            #[cfg(debug_assertions)]
            self.site
                .ensure(Var::new(num_vars - 1), Point::entry(Block::new(0)));
        }
    }

    #[inline(always)]
    fn lookup(&mut self, v: Var, at: Point) -> Option<Var> {
        self.update_reaching_def(v, at, None).expand()
    }

    #[inline(always)]
    fn define(&mut self, v: Var, new: Var, at: Point) {
        // `v.reachingDef` becomes `new`, which shadows the definition
        // reaching `at`.
        let prev = self.update_reaching_def(v, at, Some(new));
        let link = Link {
            prev,
            last: self.here.1,
        };
        self.links.ensure(new, Link::NONE);
        self.links[new] = link;
        #[cfg(debug_assertions)]
        {
            self.site.ensure(new, at);
            self.site[new] = at;
        }
    }
}

/// The classic renaming stacks, with an undo log popped on block exit.
pub(crate) struct VersionStacks {
    stacks: EntityVec<Var, Vec<Var>>,
    /// Variables pushed, in order; `marks` holds the log length at each
    /// entered block.
    log: Vec<Var>,
    marks: Vec<usize>,
}

impl VersionStacks {
    /// Stacks for a function with `num_vars` original variables.
    pub(crate) fn new(num_vars: usize) -> Self {
        VersionStacks {
            stacks: EntityVec::filled(num_vars, Vec::new()),
            log: Vec::new(),
            marks: Vec::new(),
        }
    }
}

impl Reaching for VersionStacks {
    fn enter(&mut self, _: Block) {
        self.marks.push(self.log.len());
    }
    fn exit(&mut self, _: Block) {
        let mark = self.marks.pop().expect("exit matches enter");
        for v in self.log.drain(mark..) {
            self.stacks[v].pop();
        }
    }
    fn lookup(&mut self, v: Var, _: Point) -> Option<Var> {
        self.stacks[v].last().copied()
    }
    fn define(&mut self, v: Var, new: Var, _: Point) {
        self.stacks[v].push(new);
        self.log.push(v);
    }
}

/// Statistics of a renaming.
///
/// ```
/// use ssakit::construct::{construct, Options, UndefMode};
/// let mut f = ssakit::text::parse_module("function f() {
/// e:
///     x = add(x, 1)
///     y = add(x, x)
///     ret y
/// }").unwrap().functions.remove(0);
/// let opts = Options { undef: UndefMode::Local, ..Options::default() };
/// let stats = construct(&mut f, &opts).unwrap().rename;
/// assert_eq!((stats.versions, stats.undef_uses, stats.undef_defs), (3, 1, 1));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenameStats {
    /// Versions created (phis and ordinary definitions).
    pub versions: usize,
    /// Uses that found ⊥.
    pub undef_uses: usize,
    /// `x = undef` instructions added (entry definitions or local ones).
    pub undef_defs: usize,
}

/// The state of one renaming: the reaching-definition method, the
/// observer, version numbers and ⊥ handling.
pub(crate) struct Renamer<R: Reaching, O: Observer> {
    reaching: R,
    observer: O,
    undef: UndefMode,
    /// Last version number given to each original variable.
    version: EntityVec<Var, u32>,
    /// The entry definition `v0 = undef` of each variable, in
    /// [`UndefMode::EntryDef`].
    dummy: EntityVec<Var, Option<Var>>,
    /// Entry definitions to put at the start of the entry block.
    entry_defs: Vec<Inst>,
    stats: RenameStats,
    /// Scratch: the operands of a terminator.
    found: Vec<Operand>,
}

impl<R: Reaching, O: Observer> Renamer<R, O> {
    /// A renamer finding reaching definitions with `reaching`, reporting to
    /// `observer`, turning ⊥ into what `undef` says.
    pub(crate) fn new(reaching: R, observer: O, undef: UndefMode) -> Self {
        Renamer {
            reaching,
            observer,
            undef,
            version: EntityVec::new(),
            dummy: EntityVec::new(),
            entry_defs: Vec::new(),
            stats: RenameStats::default(),
            found: Vec::new(),
        }
    }

    /// The reaching-definition method and the observer, after the run.
    pub(crate) fn into_parts(self) -> (R, O) {
        (self.reaching, self.observer)
    }

    /// Renames every variable of `func` into SSA form.
    ///
    /// # Preconditions
    /// Phis are inserted and still name original variables; `cfg` and `dt`
    /// describe `func`; every block of the layout is reachable and the entry
    /// has no predecessors. No variable of `func` is an SSA version yet.
    pub(crate) fn run(&mut self, func: &mut Function, cfg: &Cfg, dt: &DomTree) -> RenameStats {
        let nv = func.num_vars();
        self.version = EntityVec::filled(nv, 0);
        if self.undef == UndefMode::EntryDef {
            self.dummy = EntityVec::filled(nv, None);
        }
        let entry = func.entry();
        // One version per definition: reserve them all at once.
        let (mut phis, mut defs, mut longest) = (0, 0, 0);
        for &b in func.layout() {
            phis += func.block_phis(b).len();
            longest = longest.max(func.block_insts(b).len());
            for &i in func.block_insts(b) {
                defs += num_defs(func.inst(i));
            }
        }
        func.reserve_vars(phis + defs);
        self.reaching.reserve(nv + phis + defs);
        // Which phi operand each edge fills: only needed when there are
        // phis (many small functions have none).
        let slots = (phis > 0).then(|| succ_slots(func, cfg));
        // The per-block lists sized once for the longest block.
        let mut scratch = BlockScratch {
            new_insts: Vec::with_capacity(longest),
            insts: Vec::with_capacity(longest),
            phis: Vec::new(),
        };
        if R::EXITS {
            for ev in dt.walk() {
                match ev {
                    DomEvent::Enter(b) => {
                        self.reaching.enter(b);
                        self.rename_block(func, b, entry, slots.as_ref(), &mut scratch);
                    }
                    DomEvent::Exit(b) => self.reaching.exit(b),
                }
            }
        } else {
            // Nothing to undo on leaving a block: the stored preorder is
            // the walk's order of entering.
            for b in dt.preorder() {
                self.reaching.enter(b);
                self.rename_block(func, b, entry, slots.as_ref(), &mut scratch);
            }
        }
        if !self.entry_defs.is_empty() {
            let rest = func.take_insts(entry);
            let mut list = std::mem::take(&mut self.entry_defs);
            list.extend(rest);
            func.set_insts(entry, &list);
        }
        std::mem::take(&mut self.stats)
    }

    /// Renames block `bb`, just entered by the walk: its parameters (at the
    /// entry), phis, instructions and terminator, then the operands of its
    /// successors' phis that come from it. `slots` is [`succ_slots`]
    /// (`None` when the function has no phis).
    fn rename_block(
        &mut self,
        func: &mut Function,
        bb: Block,
        entry: Block,
        slots: Option<&Csr<Block, (Block, u32)>>,
        scratch: &mut BlockScratch,
    ) {
        let at_entry = Point::entry(bb);
        if bb == entry {
            // Parameters are the definitions at the entry: they keep
            // their names and head their chains.
            for k in 0..func.params().len() {
                let p = func.params()[k];
                self.reaching.define(p, p, at_entry);
                self.observer.defined(p, Site::Param, bb, p);
            }
        }
        // Phis: definitions at the block's entry.
        for k in 0..func.block_phis(bb).len() {
            let i = func.block_phis(bb)[k];
            let v = func.def(i).expect("a phi defines one variable");
            let new = self.fresh(func, v);
            self.reaching.define(v, new, at_entry);
            self.observer.defined(v, Site::Inst(i), bb, new);
            func.for_each_def_mut(i, |d| *d = new);
        }
        // Ordinary instructions: uses, then definitions. `new_insts`
        // is the block's new list: its instructions with the ⊥
        // definitions made for them (`--undef local`) before them.
        let new_insts = &mut scratch.new_insts;
        new_insts.clear();
        scratch.insts.clear();
        scratch.insts.extend_from_slice(func.block_insts(bb));
        let n = scratch.insts.len();
        for &i in &scratch.insts {
            self.rename_inst(func, i, bb, new_insts);
            new_insts.push(i);
        }
        // The terminator's uses.
        self.rename_term_uses(func, bb, new_insts);
        // Phi operands of successors: uses at the end of this block. Slot
        // k of a phi in s is the operand for s's k-th distinct
        // predecessor; until renamed it names the phi's original variable.
        if let Some(slots) = slots {
            let at_exit = Point::exit(bb);
            for &(s, k) in slots.of(bb) {
                scratch.phis.clear();
                scratch.phis.extend_from_slice(func.block_phis(s));
                for &i in &scratch.phis {
                    let site = Site::SuccPhi(i);
                    let arg = &mut func.phi_args_mut(i)[k as usize];
                    debug_assert_eq!(arg.block, bb, "phi operands follow the predecessor order");
                    let Operand::Var(v) = arg.value else {
                        unreachable!("a phi operand not yet renamed names its variable")
                    };
                    let found = self.reaching.lookup(v, at_exit);
                    self.observer.used(v, site, bb, found);
                    match found {
                        Some(d) => arg.value = Operand::Var(d),
                        None => {
                            let val = self.resolve_undef(func, v, at_exit, new_insts);
                            func.phi_args_mut(i)[k as usize].value = val;
                        }
                    }
                }
            }
        }
        if new_insts.len() != n {
            // ⊥ definitions were made: the new list replaces the old.
            func.take_insts_into(bb, &mut scratch.insts);
            func.set_insts(bb, new_insts);
        }
    }

    /// Renames instruction `i` (about to be appended to `out`): its
    /// operands, in order, then its definitions. An instruction with its
    /// operands inline is copied out (it is small), edited, and written
    /// back; one with lists is left in place and its lists are edited in
    /// the function's pools ([`Self::rename_list_uses`],
    /// [`Self::define_list`]).
    fn rename_inst(&mut self, func: &mut Function, i: Inst, bb: Block, out: &mut Vec<Inst>) {
        let site = Site::Inst(i);
        match *func.inst(i) {
            InstData::Copy { .. } | InstData::Unary { .. } | InstData::Binary { .. } => {
                self.rename_inline(func, i, bb, out)
            }
            InstData::Call { args, results, .. } | InstData::Op { args, results, .. } => {
                self.rename_list_uses(func, args, |o| o, bb, site, out);
                let at = Point::after(bb, out.len());
                self.define_list(func, results, |d| d, at, site);
            }
            InstData::Print { args } => self.rename_list_uses(func, args, |o| o, bb, site, out),
            InstData::ParCopy { copies } => {
                self.rename_list_uses(func, copies, |c| &mut c.1, bb, site, out);
                let at = Point::after(bb, out.len());
                self.define_list(func, copies, |c| &mut c.0, at, site);
            }
            InstData::Phi { .. } => unreachable!("phis are not in the ordinary list"),
        }
    }

    /// [`Self::rename_inst`] for an instruction with its operands and its
    /// one definition inline (a copy, a unary or binary operator).
    fn rename_inline(&mut self, func: &mut Function, i: Inst, bb: Block, out: &mut Vec<Inst>) {
        let site = Site::Inst(i);
        let mut data = *func.inst(i);
        // Each lookup is just before the instruction's place in the new
        // list, after any ⊥ definition inserted for it.
        let mut inline = |me: &mut Self, func: &mut Function, o: &mut Operand| {
            if let Operand::Var(v) = *o {
                *o = me.resolve(func, v, Point::before(bb, out.len()), site, out);
            }
        };
        let dst = match &mut data {
            InstData::Copy { src: o, dst } | InstData::Unary { arg: o, dst, .. } => {
                inline(self, func, o);
                dst
            }
            InstData::Binary { lhs, rhs, dst, .. } => {
                inline(self, func, lhs);
                inline(self, func, rhs);
                dst
            }
            _ => unreachable!("not an instruction with inline operands"),
        };
        let at = Point::after(bb, out.len());
        *dst = self.define_fresh(func, *dst, at, site);
        func.set_inst(i, data);
    }

    /// Gives each variable defined in `list` (an instruction's, at `site`,
    /// defining at `at`) a fresh version, in order: `def` finds the
    /// variable in an item. One item at a time, read and written back in
    /// the pool (creating a version adds a variable to `func`, not to the
    /// pool): most lists have one, for which a scratch copy of the list
    /// cost two `memcpy` calls.
    #[inline(always)]
    fn define_list<T: Copy>(
        &mut self,
        func: &mut Function,
        list: EntityList<T>,
        def: impl Fn(&mut T) -> &mut Var,
        at: Point,
        site: Site,
    ) where
        Function: ListStore<T>,
    {
        for k in 0..list.len() {
            let mut item = list.as_slice(func)[k];
            let new = self.define_fresh(func, *def(&mut item), at, site);
            *def(&mut list.as_mut_slice(func)[k]) = new;
        }
    }

    /// Renames the operands of `list` (an instruction's, at `site` in
    /// `bb`), in order, in place in `func`'s pool: `operand` finds the
    /// operand in an item. A use that finds ⊥ leaves the pool for
    /// [`Self::resolve_undef`], which may add a variable and an
    /// instruction to `func`; the others touch only the list.
    #[inline(always)]
    fn rename_list_uses<T: Copy>(
        &mut self,
        func: &mut Function,
        list: EntityList<T>,
        operand: impl Fn(&mut T) -> &mut Operand,
        bb: Block,
        site: Site,
        out: &mut Vec<Inst>,
    ) where
        Function: ListStore<T>,
    {
        let mut k = 0;
        while k < list.len() {
            let at = Point::before(bb, out.len());
            let mut bottom = None;
            for (j, item) in list.as_mut_slice(func)[k..].iter_mut().enumerate() {
                let o = operand(item);
                if let Operand::Var(v) = *o {
                    let found = self.reaching.lookup(v, at);
                    self.observer.used(v, site, bb, found);
                    match found {
                        Some(d) => *o = Operand::Var(d),
                        None => {
                            bottom = Some((k + j, v));
                            break;
                        }
                    }
                }
            }
            let Some((j, v)) = bottom else { break };
            let o = self.resolve_undef(func, v, at, out);
            *operand(&mut list.as_mut_slice(func)[j]) = o;
            k = j + 1;
        }
    }

    /// A fresh version of `v` defined at `at` (at `site` in its block):
    /// "create fresh variable v'", then `updateReachingDef` and the new
    /// chain head.
    #[inline(always)]
    fn define_fresh(&mut self, func: &mut Function, v: Var, at: Point, site: Site) -> Var {
        let new = self.fresh(func, v);
        self.reaching.define(v, new, at);
        self.observer.defined(v, site, at.block(), new);
        new
    }

    /// Renames the operands of `bb`'s terminator.
    fn rename_term_uses(&mut self, func: &mut Function, bb: Block, out: &mut Vec<Inst>) {
        let mut ops = std::mem::take(&mut self.found);
        ops.clear();
        func.for_each_term_operand(bb, |o| ops.push(o));
        for o in &mut ops {
            if let Operand::Var(v) = *o {
                let at = Point::before(bb, out.len());
                *o = self.resolve(func, v, at, Site::Term(bb), out);
            }
        }
        let mut k = 0;
        func.for_each_term_operand_mut(bb, |o| {
            *o = ops[k];
            k += 1;
        });
        self.found = ops;
    }

    /// "create fresh variable v'": the next version of `v`.
    #[inline(always)]
    fn fresh(&mut self, func: &mut Function, v: Var) -> Var {
        let n = &mut self.version[v];
        *n += 1;
        self.stats.versions += 1;
        func.new_version(v, *n)
    }

    /// The operand replacing a use of `v` at `at`. A use finding ⊥ becomes
    /// what [`UndefMode`] says ([`Self::resolve_undef`]).
    #[inline]
    fn resolve(
        &mut self,
        func: &mut Function,
        v: Var,
        at: Point,
        site: Site,
        out: &mut Vec<Inst>,
    ) -> Operand {
        let found = self.reaching.lookup(v, at);
        self.observer.used(v, site, at.block(), found);
        match found {
            Some(d) => Operand::Var(d),
            None => self.resolve_undef(func, v, at, out),
        }
    }

    /// The operand replacing a use of `v` at `at` that finds ⊥: what
    /// [`UndefMode`] says; a local undef definition is appended to `out`
    /// (just before the use) and becomes the reaching definition.
    #[cold]
    fn resolve_undef(
        &mut self,
        func: &mut Function,
        v: Var,
        at: Point,
        out: &mut Vec<Inst>,
    ) -> Operand {
        self.stats.undef_uses += 1;
        match self.undef {
            UndefMode::Operand => Operand::Undef,
            UndefMode::EntryDef => {
                if let Some(d) = self.dummy[v] {
                    return Operand::Var(d);
                }
                let d = func.new_version(v, 0);
                self.dummy[v] = Some(d);
                self.entry_defs.push(func.new_inst(InstData::Copy {
                    dst: d,
                    src: Operand::Undef,
                }));
                self.stats.undef_defs += 1;
                Operand::Var(d)
            }
            UndefMode::Local => {
                let d = self.fresh(func, v);
                let i = func.new_inst(InstData::Copy {
                    dst: d,
                    src: Operand::Undef,
                });
                let bb = at.block();
                self.reaching.define(v, d, Point::after(bb, out.len()));
                self.observer.defined(v, Site::UndefDef(i), bb, d);
                out.push(i);
                self.stats.undef_defs += 1;
                Operand::Var(d)
            }
        }
    }
}

/// How many variables an ordinary instruction defines.
fn num_defs(data: &InstData) -> usize {
    match data {
        InstData::Copy { .. }
        | InstData::Unary { .. }
        | InstData::Binary { .. }
        | InstData::Phi { .. } => 1,
        InstData::Call { results, .. } | InstData::Op { results, .. } => results.len(),
        InstData::ParCopy { copies } => copies.len(),
        InstData::Print { .. } => 0,
    }
}

/// Per-block scratch of [`Renamer::run`], allocated once per function.
struct BlockScratch {
    /// The block's new instruction list.
    new_insts: Vec<Inst>,
    /// The block's instructions (then its old list, when the new one
    /// replaces it).
    insts: Vec<Inst>,
    /// The phis of a successor, whose operands are being renamed.
    phis: Vec<Inst>,
}

/// For each block `p`, the pairs `(s, k)` such that `p` is the `k`-th
/// distinct predecessor of `s` and `s` has phis: which phi operand slot
/// each edge fills, so that a block with many predecessors is not searched
/// once per edge. A successor without phis has no slot to fill: most
/// joins of pruned SSA, where few variables are live across blocks.
fn succ_slots(func: &Function, cfg: &Cfg) -> Csr<Block, (Block, u32)> {
    Csr::build(func.num_blocks(), |emit| {
        for &s in func.layout() {
            if func.block_phis(s).is_empty() {
                continue;
            }
            for (k, p) in cfg.unique_preds(s).enumerate() {
                emit.push(p, (s, k as u32));
            }
        }
    })
}
