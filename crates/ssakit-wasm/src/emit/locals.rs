//! Variables → WebAssembly locals: linear scan over live ranges with
//! lifetime holes in the emitted order (Wimmer and Franz, "Linear Scan
//! Register Allocation on SSA Form", CGO 2010, section 4: ranges built by
//! one backward pass per block; Poletto and Sarkar's scan, TOPLAS 1999,
//! for the order), with unboundedly many registers of each type.
//!
//! Positions number the emitted code: block bodies in the order of the
//! structured code (`emit/structure.rs`), instruction `p` reading its
//! operands at `2r`, where `r` is the root of the tree it is emitted in
//! (`Stackified::at`; `p` itself when it is a root), or earlier, at `2q`,
//! for a `local.get` that runs before the children at positions `q` and
//! after in a tree emitted in place (`Stackified::read_at`),
//! and writing its results at `2p + 1`, a block's terminator at its last
//! position. A variable's **live range** is a list
//! of disjoint segments: per block, a backward walk from the variables
//! live-out ([`ssakit::analysis::liveness`]) opens a segment at a variable's
//! last use and closes it at its definition (or at the block's start when
//! it is live-in); a definition never read still occupies its own position
//! (it writes the local). Two variables whose segments are disjoint never
//! interfere, and share a local when they have one type.
//!
//! **The scan**: variables by their first position (a counting sort:
//! positions are dense). For each, in this order, the first local that
//! fits: the local of a copy partner (the source or destination of a copy
//! that has it on the other side), so that the copy `local.get a;
//! local.set a` is deleted; else the first of its type's locals
//! (parameters included) whose segments leave a hole it fits in, the
//! *lifetime holes* of Wimmer and Franz (a variable live in the `else`
//! arm only takes the local of one live after the `if` but dead in the
//! `then` arm), of the first `HOLE_TRIES` (64) locals made; else a local
//! whose last occupied position is before the variable's first (a
//! min-heap of ends per type, so that is O(log n)); else a new local. A
//! local's segments sit in a `BTreeMap` from start to end: testing a
//! segment against it is one range query. Each variable tries at most its
//! copy partners, `HOLE_TRIES` (64) locals and one free local, so the whole
//! is O(n log n) in the segments, with no interference graph. Without the
//! holes, a local whose variable is live again later is never reused,
//! which in structured code with loops and `if`/`else` is most of them
//! (docs/wasm.md has the figures).
//!
//! **The invariant relied on**: a variable is read only where a
//! definition reaches it on every path, or where its value does not
//! matter (an `undef` of SSA). The lifter makes WebAssembly's zeroing of
//! locals an explicit definition at entry, so lifted code never depends
//! on the zero; a variable read before any definition on some path is
//! live-in at the entry, its range starts at 0, and it gets a local no
//! other variable occupies before it, which still holds its zero.
//!
//! **The steps**, as waffle's `localify` and binaryen's
//! `CoalesceLocals` are organised, each a method of [`Allocation`] with
//! its invariant: [`Allocation::segments`] (the live ranges),
//! [`Allocation::partners`] (the copies, coalescing candidates),
//! [`Allocation::values`] (which variables hold one value),
//! [`Allocation::scan`] (the assignment of slots, the locals before
//! numbering) and [`Allocation::numbering`] (slots → local indices, most
//! used first). The result, [`Assignment`], is a table `Var ->
//! Option<Local>` and the declarations.
//!
//! Parameters keep their indices `0..n` (their ranges occupy them, so a
//! copy of a parameter can share its local, and so can any variable once
//! the parameter is dead; never one read before its definition, which
//! relies on a zero: a parameter occupies position 0 even unread); values
//! kept on the stack or never read (`emit/stackify.rs`) get no local.

use super::ctl::{Ctl, Structured};
use super::key::key;
use super::plan::val_type;
use super::stackify::Stackified;
use ssakit::analysis::VarLiveness;
use ssakit::entity::{Csr, EntityRef, EntityVec, PackedOption};
use ssakit::ir::{Block, Cfg, Function, InstData, Operand, Var};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use wasm_encoder::ValType;

key!(
    /// A local of the emitted function, by its index (the parameters
    /// first).
    Local
);

key!(
    /// A local as [`Allocation::scan`] makes it, before
    /// [`Allocation::numbering`] gives it its index: the parameters'
    /// first, then the others in the order made.
    Slot
);

/// The most locals (parameters included) a function may have: the
/// implementation limit of the WebAssembly JavaScript API, which
/// wasmparser's validator applies.
pub(crate) const MAX_LOCALS: usize = 50_000;

/// Per variable: its local.
pub(crate) type Locals = EntityVec<Var, PackedOption<Local>>;

/// The local of every variable, and the declarations.
#[derive(Clone, Debug)]
pub(crate) struct Assignment {
    /// Per variable: its local (`None`: kept on the stack, never read, or
    /// not emitted).
    pub(crate) local: Locals,
    /// Declarations: `(count, type)` runs after the parameters.
    pub(crate) groups: Vec<(u32, ValType)>,
    /// Declared locals (parameters not counted).
    pub(crate) count: usize,
    /// Two values the scan put in one local where both are live, if it
    /// ever did: the check [`insert`] makes in every build (a release
    /// build runs no `debug_assert`, and no oracle sees a clash whose
    /// wrong value happens not to be read), turned into an internal
    /// error by the emitter.
    pub(crate) clash: Option<(Var, Var)>,
}

/// The index of `v`'s local, for `local.get`, `local.set` and
/// `local.tee`. Every variable the emitter reads or writes through a
/// local has one: [`Allocation::segments`] gives a segment to every
/// variable that needs a local and is defined or read in the emitted
/// code, and the scan a slot to every variable with a segment.
pub(crate) fn index(local: &Locals, v: Var) -> u32 {
    let l = local[v]
        .expand()
        .expect("a variable emitted through a local has one");
    l.index() as u32
}

/// The value types in the order the scan keeps its per-type tables.
const TYPES: [ValType; 7] = [
    ValType::I32,
    ValType::I64,
    ValType::F32,
    ValType::F64,
    ValType::V128,
    ValType::FUNCREF,
    ValType::EXTERNREF,
];

/// How many locals of its type a variable is tested against for a hole
/// it fits in (the first ones made): a bound, so that the scan stays
/// O(n log n) on a function with thousands of locals.
const HOLE_TRIES: usize = 64;

/// What a local holds: disjoint intervals, start → (end, value), where
/// the value is [`Allocation::values`]' name of the value the local
/// holds there.
type Occupied = BTreeMap<u32, (u32, Var)>;

/// A slot being filled by [`Allocation::scan`].
struct SlotState {
    /// Its type, an index into [`TYPES`].
    kind: usize,
    /// Its intervals.
    occ: Occupied,
    /// Its last occupied position.
    last: u32,
}

/// Locals allocation, one step per method, each filling the tables the
/// next reads.
struct Allocation<'a> {
    f: &'a Function,
    st: &'a Stackified,
    /// Per variable: a parameter.
    is_param: EntityVec<Var, bool>,
    /// [`Allocation::segments`]: per variable, its live segments
    /// `(start, end)`, inclusive and disjoint; a variable has some
    /// exactly when it needs a local and is defined or read in the
    /// emitted code.
    segs: Csr<Var, (u32, u32)>,
    /// Per variable with segments: its first and last position.
    span: EntityVec<Var, Option<(u32, u32)>>,
    /// Past the last position.
    limit: u32,
    /// [`Allocation::values`]: per variable, the variable naming the
    /// value it holds wherever it is live.
    value: EntityVec<Var, PackedOption<Var>>,
    /// [`Allocation::scan`]: the slots, the parameters' first.
    slots: EntityVec<Slot, SlotState>,
    /// How many slots.
    n_slots: usize,
    /// Per variable with segments: its slot.
    slot_of: EntityVec<Var, PackedOption<Slot>>,
    /// The variables the scan placed (not the parameters), in its order.
    order: Vec<Var>,
    /// The first two values found live at once in one slot
    /// ([`Assignment::clash`]).
    clash: Option<(Var, Var)>,
}

impl<'a> Allocation<'a> {
    fn new(f: &'a Function, st: &'a Stackified) -> Self {
        let nv = f.num_vars();
        let mut is_param = EntityVec::filled(nv, false);
        for &p in f.params() {
            is_param[p] = true;
        }
        Allocation {
            f,
            st,
            is_param,
            segs: Csr::from_pairs(0, []),
            span: EntityVec::filled(nv, None),
            limit: 0,
            value: EntityVec::filled(nv, PackedOption::NONE),
            slots: EntityVec::default(),
            n_slots: 0,
            slot_of: EntityVec::filled(nv, PackedOption::NONE),
            order: Vec::new(),
            clash: None,
        }
    }

    /// Whether `v` is emitted through a local.
    fn needs(&self, v: Var) -> bool {
        !self.st.on_stack[v] && !self.st.stacked[v] && !self.st.dead[v]
    }

    /// The value `v` holds ([`Allocation::values`]).
    fn value(&self, v: Var) -> Var {
        self.value[v].expand().unwrap_or(v)
    }

    /// **Segments**: the live segments of the variables that need a
    /// local, block by block in the emitted order `s`.
    ///
    /// Invariant: a variable's segments are disjoint, and cover every
    /// position where it is live or written.
    ///
    /// A variable live out of one block body (read at its terminator,
    /// `2 * term`) and live into the next one emitted (from `2 * term +
    /// 2`) gets one segment over both, not two: the position between,
    /// `2 * term + 1`, starts and ends no segment (a terminator writes
    /// nothing), so any segment that covers it overlaps one of the two
    /// already, and the interference is the same with fewer segments to
    /// test and insert (a variable live across a loop of many blocks would
    /// otherwise have one per block).
    fn segments(&mut self, s: &Structured) {
        let f = self.f;
        let st = self.st;
        let nv = f.num_vars();
        let needs = |v: Var| !st.on_stack[v] && !st.stacked[v] && !st.dead[v];
        // Live-out sets of the variables that need a local only (those
        // kept on the stack or dead, most of a lifted function's, are
        // never asked about): one path exploration each (Brandner et
        // al.'s by-variable liveness, [`VarLiveness`]).
        let cfg = Cfg::new(f);
        let live_out: Csr<Block, Var> = {
            let mut by_var = VarLiveness::new(f, &cfg);
            let mut pairs: Vec<(Block, Var)> = Vec::new();
            for v in f.vars() {
                if needs(v) {
                    by_var.explore(v, |_| {}, |b| pairs.push((b, v)));
                }
            }
            Csr::from_pairs(f.num_blocks(), pairs)
        };
        let mut segs: Vec<(Var, u32, u32)> = Vec::new();
        // Per variable, the end of its open segment.
        let mut open: EntityVec<Var, Option<u32>> = EntityVec::filled(nv, None);
        let mut opened: Vec<Var> = Vec::new();
        // Per variable, its segment that ends at the terminator of the
        // body last emitted, and that position: `(segment, 2 * term)`, to
        // extend.
        let mut carry: EntityVec<Var, Option<(usize, u32)>> = EntityVec::filled(nv, None);
        // The segments of this body that end at its terminator.
        let mut fresh: Vec<(Var, usize)> = Vec::new();
        let mut pos = 0u32;
        for c in &s.items {
            let Ctl::Body(b) = *c else { continue };
            let insts = f.block_insts(b);
            let first = pos;
            let term = pos + insts.len() as u32;
            // A read moved down with its tree (`Stackified::at`) can come
            // later than a read met before it: the segment's end is the
            // latest.
            let use_at =
                |v: Var, p: u32, open: &mut EntityVec<Var, Option<u32>>, opened: &mut Vec<Var>| {
                    if !needs(v) {
                        return;
                    }
                    match &mut open[v] {
                        Some(o) => *o = (*o).max(p),
                        o => {
                            *o = Some(p);
                            opened.push(v);
                        }
                    }
                };
            for &v in live_out.of(b) {
                use_at(v, 2 * term, &mut open, &mut opened);
            }
            f.for_each_term_use(b, |v| use_at(v, 2 * term, &mut open, &mut opened));
            for (k, &i) in insts.iter().enumerate().rev() {
                let p = first + k as u32;
                f.for_each_def(i, |v| {
                    if !needs(v) {
                        return;
                    }
                    let end = open[v].take();
                    if end == Some(2 * term) {
                        fresh.push((v, segs.len()));
                    }
                    segs.push((v, 2 * p + 1, end.unwrap_or(2 * p + 1)));
                });
                f.for_each_use(i, |v| {
                    let at = first + st.read_at(i, v);
                    use_at(v, 2 * at, &mut open, &mut opened)
                });
            }
            for v in opened.drain(..) {
                let Some(end) = open[v].take() else { continue };
                let k = match carry[v] {
                    Some((k, e)) if first > 0 && e == 2 * first - 2 => {
                        segs[k].2 = end;
                        k
                    }
                    _ => {
                        segs.push((v, 2 * first, end));
                        segs.len() - 1
                    }
                };
                if end == 2 * term {
                    fresh.push((v, k));
                }
            }
            for (v, k) in fresh.drain(..) {
                carry[v] = Some((k, 2 * term));
            }
            pos = term + 1;
        }
        self.limit = 2 * pos + 2;
        for &(v, a, b) in &segs {
            let span = &mut self.span[v];
            *span = Some(span.map_or((a, b), |(lo, hi)| (lo.min(a), hi.max(b))));
        }
        self.segs = Csr::from_pairs(f.num_vars(), segs.iter().map(|&(v, a, b)| (v, (a, b))));
    }

    /// **Partners**: per variable, the variables on the other side of a
    /// copy (the coalescing candidates), in the order of the copies.
    ///
    /// Invariant: symmetric, and no variable is its own partner.
    fn partners(&self) -> Csr<Var, Var> {
        let f = self.f;
        let mut pairs: Vec<(Var, Var)> = Vec::new();
        let mut pair = |d: Var, s: Operand| {
            if let Operand::Var(s) = s {
                if s != d {
                    pairs.push((d, s));
                    pairs.push((s, d));
                }
            }
        };
        for &b in f.layout() {
            for &i in f.block_insts(b) {
                match *f.inst(i) {
                    InstData::Copy { dst, src } => pair(dst, src),
                    InstData::ParCopy { copies } => {
                        for &(d, s) in copies.as_slice(f) {
                            pair(d, s);
                        }
                    }
                    _ => {}
                }
            }
        }
        Csr::from_pairs(f.num_vars(), pairs)
    }

    /// **Values**: the value each variable holds wherever it is live,
    /// named by a variable (value-based interference: Boissinot et al.,
    /// "Revisiting Out-of-SSA Translation for Correctness, Code Quality,
    /// and Efficiency", CGO 2009, section 4.1; the chapter's section on
    /// coalescing). Two variables of one value may share a local even
    /// where both are live: the copy between them is then `local.get l;
    /// local.set l` and goes.
    ///
    /// Invariant: `x` named by `r != x` holds `r`'s value at every
    /// position of its segments. `x` defined once, by a copy `x = y`,
    /// with `y` defined once (a parameter counts its entry as its
    /// definition), holds `y`'s value, that is the value `r` of `y`, as
    /// long as `r`'s variable is not written again while `x` is live:
    /// `r` is defined once, so that is "no segment of `x` contains the
    /// position of `r`'s definition" (in strict SSA it never does,
    /// Boissinot et al.'s lemma; after destruction a variable defined on
    /// some paths only, an `undef` of SSA, can be live there). Otherwise
    /// `x` is a value of its own. Every other variable is its own value.
    /// Chains are resolved iteratively, sources first.
    fn values(&mut self) {
        let f = self.f;
        let nv = f.num_vars();
        let mut defs: EntityVec<Var, u32> = EntityVec::filled(nv, 0);
        let mut copy_of: EntityVec<Var, PackedOption<Var>> =
            EntityVec::filled(nv, PackedOption::NONE);
        for &p in f.params() {
            defs[p] = 1;
        }
        for &b in f.layout() {
            for &i in f.block_insts(b) {
                f.for_each_def(i, |v| defs[v] += 1);
                if let InstData::Copy {
                    dst,
                    src: Operand::Var(src),
                } = *f.inst(i)
                {
                    copy_of[dst] = PackedOption::some(src);
                }
            }
        }
        let segs = &self.segs;
        let is_param = &self.is_param;
        let has_local = |v: Var| !segs.of(v).is_empty();
        // Where `r`'s one definition writes: 0 for a parameter, else the
        // odd start of the segment it opens.
        let def_pos = |r: Var| {
            if is_param[r] {
                Some(0)
            } else {
                segs.of(r).iter().map(|s| s.0).find(|p| p % 2 == 1)
            }
        };
        let chains = |x: Var| {
            let y = copy_of[x].expand()?;
            (defs[x] == 1 && defs[y] == 1 && has_local(x) && has_local(y)).then_some(y)
        };
        let shares = |x: Var, r: Var| {
            def_pos(r).is_some_and(|d| !segs.of(x).iter().any(|&(a, b)| a <= d && d <= b))
        };
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum State {
            Unseen,
            OnChain,
            Resolved,
        }
        let mut state: EntityVec<Var, State> = EntityVec::filled(nv, State::Unseen);
        let mut value: EntityVec<Var, PackedOption<Var>> =
            EntityVec::filled(nv, PackedOption::NONE);
        let mut path: Vec<Var> = Vec::new();
        for v in f.vars() {
            let mut x = v;
            // Up the chain of sources to a resolved variable, one that is
            // no copy, or (in a cycle of copies) one seen on this chain.
            while state[x] == State::Unseen {
                state[x] = State::OnChain;
                path.push(x);
                match chains(x) {
                    Some(y) => x = y,
                    None => break,
                }
            }
            let mut r = if state[x] == State::Resolved {
                value[x].expand()
            } else {
                None
            };
            while let Some(x) = path.pop() {
                let here = match r {
                    Some(r) if shares(x, r) => r,
                    _ => x,
                };
                value[x] = PackedOption::some(here);
                state[x] = State::Resolved;
                r = Some(here);
            }
        }
        self.value = value;
    }

    /// **Scan**: a slot for every variable with segments, the parameters
    /// first (each its own, from position 0: it holds its argument from
    /// the start, so a variable read before any definition, which relies
    /// on a zero, never shares it), then the others by first position.
    ///
    /// Invariant: two variables share a slot only when they have one type
    /// and, wherever both are live, one value ([`Allocation::values`]).
    fn scan(&mut self, partner: &Csr<Var, Var>) {
        let f = self.f;
        let kind = |v: Var| {
            let t = val_type(f.var_type(v));
            TYPES.iter().position(|&u| u == t).unwrap_or(0)
        };
        for &p in f.params() {
            let l = self.new_slot(kind(p));
            let value = self.value(p);
            let clash = insert(&mut self.slots[l].occ, 0, 0, value);
            self.note(clash, value);
            self.take(p, l);
        }
        // Non-parameter variables with a range, by first position
        // (counting sort).
        let mut count_at = vec![0u32; self.limit as usize + 1];
        let mut n_vars = 0;
        for v in f.vars() {
            if let Some((a, _)) = self.span[v].filter(|_| !self.is_param[v]) {
                count_at[a as usize + 1] += 1;
                n_vars += 1;
            }
        }
        for k in 1..count_at.len() {
            count_at[k] += count_at[k - 1];
        }
        let mut order = vec![Var::new(0); n_vars];
        for v in f.vars() {
            if let Some((a, _)) = self.span[v].filter(|_| !self.is_param[v]) {
                let slot = &mut count_at[a as usize];
                order[*slot as usize] = v;
                *slot += 1;
            }
        }
        // Per type: slots by last occupied position (min-heap, stale
        // entries skipped) and slots found free; the parameters are slots
        // too. Per type: its first `HOLE_TRIES` slots, in creation order.
        let mut busy: Vec<BinaryHeap<Reverse<(u32, Slot)>>> = vec![BinaryHeap::new(); TYPES.len()];
        let mut free: Vec<Vec<Slot>> = vec![Vec::new(); TYPES.len()];
        let mut first_of: Vec<Vec<Slot>> = vec![Vec::new(); TYPES.len()];
        for l in (0..self.n_slots).map(Slot::new) {
            let t = self.slots[l].kind;
            busy[t].push(Reverse((self.slots[l].last, l)));
            if first_of[t].len() < HOLE_TRIES {
                first_of[t].push(l);
            }
        }
        for &v in &order {
            let t = kind(v);
            let start = self.span[v].map_or(0, |(lo, _)| lo);
            let value = self.value(v);
            let slots = &self.slots;
            let fits = |l: Slot| {
                slots[l].kind == t
                    && (self.segs.of(v).iter())
                        .all(|&(a, b)| !conflicts(&slots[l].occ, a, b, value))
            };
            let hinted = (partner.of(v).iter())
                .filter_map(|&w| self.slot_of[w].expand())
                .find(|&l| fits(l));
            let l = hinted
                .or_else(|| first_of[t].iter().copied().find(|&l| fits(l)))
                .or_else(|| {
                    while let Some(&Reverse((end, l))) = busy[t].peek() {
                        if end >= start {
                            break;
                        }
                        busy[t].pop();
                        if slots[l].last == end {
                            free[t].push(l);
                        }
                    }
                    while let Some(l) = free[t].pop() {
                        if slots[l].last < start {
                            return Some(l);
                        }
                    }
                    None
                });
            let l = l.unwrap_or_else(|| {
                let l = self.new_slot(t);
                if first_of[t].len() < HOLE_TRIES {
                    first_of[t].push(l);
                }
                l
            });
            self.take(v, l);
            busy[t].push(Reverse((self.slots[l].last, l)));
        }
        self.order = order;
    }

    /// A new empty slot of type `kind`.
    fn new_slot(&mut self, kind: usize) -> Slot {
        self.n_slots += 1;
        self.slots.push(SlotState {
            kind,
            occ: BTreeMap::new(),
            last: 0,
        })
    }

    /// `v`'s segments into slot `l`.
    fn take(&mut self, v: Var, l: Slot) {
        let value = self.value(v);
        let slot = &mut self.slots[l];
        let mut clash = None;
        for &(a, b) in self.segs.of(v) {
            clash = clash.or(insert(&mut slot.occ, a, b, value));
        }
        let hi = self.span[v].map_or(0, |(_, hi)| hi);
        slot.last = slot.last.max(hi);
        self.slot_of[v] = PackedOption::some(l);
        self.note(clash, value);
    }

    /// Keeps the first clash [`insert`] reports: `other` live where
    /// `value` was put.
    fn note(&mut self, other: Option<Var>, value: Var) {
        if let Some(w) = other {
            self.clash = self.clash.or(Some((w, value)));
        }
    }

    /// **Numbering**: the index of every slot past the parameters,
    /// numbered so that the most used get the short LEB128 indices, as
    /// LLVM's `WebAssemblyRegColoring.cpp` sorts its registers by weight.
    /// A slot's *weight* is how many `local.get`/`local.set` the emitted
    /// code has of it (the reads and writes of its variables).
    /// WebAssembly declares locals in runs of one type, so the slots of
    /// one type stay together, heaviest first, and the types are ordered
    /// to make the weighted index bytes least: every order of the types
    /// present is tried when there are at most five (120 orders, each
    /// costed in O(types) from prefix sums), else they come in
    /// declaration order, heaviest type first.
    ///
    /// Invariant: the parameters keep their indices, and the other slots
    /// take `params..params + count` once each.
    fn numbering(self) -> Assignment {
        let f = self.f;
        let n_params = f.params().len();
        let n_slots = self.n_slots;
        let slot = Slot::new;
        let mut weight: EntityVec<Slot, u64> = EntityVec::filled(n_slots, 0);
        let mut count = |v: Var| {
            if let Some(l) = self.slot_of[v].expand().filter(|_| self.needs(v)) {
                weight[l] += 1;
            }
        };
        for &b in f.layout() {
            for &i in f.block_insts(b) {
                f.for_each_use(i, &mut count);
                f.for_each_def(i, &mut count);
            }
            f.for_each_term_use(b, &mut count);
        }
        // Per type present: its slots, heaviest first (ties by creation).
        let kinds = (0..n_slots).map(|l| self.slots[slot(l)].kind);
        let n_types = kinds.max().map_or(0, |k| k + 1);
        let mut of_type: Vec<Vec<Slot>> = vec![Vec::new(); n_types];
        for l in (n_params..n_slots).map(slot) {
            of_type[self.slots[l].kind].push(l);
        }
        for ls in &mut of_type {
            ls.sort_by_key(|&l| Reverse(weight[l]));
        }
        let present: Vec<usize> = (0..n_types).filter(|&t| !of_type[t].is_empty()).collect();
        // The weighted bytes of type `t`'s slots numbered from `base`.
        let cost = |t: usize, base: u32| -> u64 {
            (of_type[t].iter().enumerate())
                .map(|(k, &l)| weight[l] * leb_len(base + k as u32))
                .sum()
        };
        let mut best: Vec<usize> = present.clone();
        best.sort_by_key(|&t| Reverse(of_type[t].first().map_or(0, |&l| weight[l])));
        if (2..=5).contains(&present.len()) {
            let total = |perm: &[usize]| {
                let mut base = n_params as u32;
                let mut c = 0;
                for &t in perm {
                    c += cost(t, base);
                    base += of_type[t].len() as u32;
                }
                c
            };
            let mut best_cost = total(&best);
            let mut perm = present.clone();
            // Heap's algorithm, iterative.
            let mut ctr = vec![0usize; perm.len()];
            let mut k = 1;
            while k < perm.len() {
                if ctr[k] < k {
                    if k % 2 == 0 {
                        perm.swap(0, k);
                    } else {
                        perm.swap(ctr[k], k);
                    }
                    let c = total(&perm);
                    if c < best_cost {
                        best_cost = c;
                        best.clone_from(&perm);
                    }
                    ctr[k] += 1;
                    k = 1;
                } else {
                    ctr[k] = 0;
                    k += 1;
                }
            }
        }
        let mut index: EntityVec<Slot, PackedOption<Local>> =
            EntityVec::filled(n_slots, PackedOption::NONE);
        for k in 0..n_params {
            index[slot(k)] = PackedOption::some(Local::new(k));
        }
        let mut next = n_params;
        let mut groups: Vec<(u32, ValType)> = Vec::new();
        for t in best {
            for &l in &of_type[t] {
                index[l] = PackedOption::some(Local::new(next));
                next += 1;
            }
            // The slots of one type are numbered together: one run.
            groups.push((of_type[t].len() as u32, TYPES[t]));
        }
        let mut local: Locals = EntityVec::filled(f.num_vars(), PackedOption::NONE);
        for (k, &p) in f.params().iter().enumerate() {
            local[p] = PackedOption::some(Local::new(k));
        }
        for &v in &self.order {
            if let Some(l) = self.slot_of[v].expand() {
                local[v] = index[l];
            }
        }
        Assignment {
            local,
            groups,
            count: n_slots - n_params,
            clash: self.clash,
        }
    }
}

/// Whether segment `(lo, hi)` of a variable holding `value` overlaps an
/// interval of `occ` holding another value.
fn conflicts(occ: &Occupied, lo: u32, hi: u32, value: Var) -> bool {
    occ.range(..=hi)
        .rev()
        .take_while(|(_, &(e, _))| e >= lo)
        .any(|(_, &(_, w))| w != value)
}

/// Adds segment `(lo, hi)` holding `value` to `occ`, merged with the
/// intervals it overlaps, which hold `value` too ([`conflicts`] said so):
/// one that holds another value is returned, the allocation's error.
fn insert(occ: &mut Occupied, lo: u32, hi: u32, value: Var) -> Option<Var> {
    let (mut a, mut b) = (lo, hi);
    let mut clash = None;
    // The intervals it overlaps, latest first, each removed as found (no
    // list collected: this runs once per segment).
    while let Some((&s, &(e, w))) = occ.range(..=hi).next_back() {
        if e < lo {
            break;
        }
        occ.remove(&s);
        if w != value {
            clash = clash.or(Some(w));
        }
        a = a.min(s);
        b = b.max(e);
    }
    occ.insert(a, (b, value));
    clash
}

/// Bytes of the unsigned LEB128 encoding of a local index.
fn leb_len(i: u32) -> u64 {
    match i {
        0..=0x7f => 1,
        0x80..=0x3fff => 2,
        0x4000..=0x1f_ffff => 3,
        _ => 4,
    }
}

/// Assigns locals to the variables of `f` emitted in the order of `s`:
/// the steps of [`Allocation`], in order.
pub(crate) fn assign(f: &Function, s: &Structured, st: &Stackified) -> Assignment {
    let mut a = Allocation::new(f, st);
    a.segments(s);
    let partners = a.partners();
    a.values();
    a.scan(&partners);
    a.numbering()
}

#[cfg(test)]
mod tests {
    use super::{assign, Allocation};
    use crate::emit::tests::{local_index, run, stackified};

    /// `a` is live from the entry through the bodies of `e`, `h` and `b`
    /// (emitted one after the other) to its last read in `b`: one
    /// segment, not one per body; `x`, defined in `h` and live into `b`,
    /// one too. The locals are those of segments made per body.
    #[test]
    fn one_segment_across_consecutive_bodies() {
        let text = "function f(a) {\ne:\n  print a\n  jump h\nh:\n  x = a + 1\n  print x\n  jump b\nb:\n  print x\n  print a\n  ret 0\n}\n";
        let (f, s, st) = stackified(text);
        let mut a = Allocation::new(&f, &st);
        a.segments(&s);
        let of = |n: &str| a.segs.of(f.var_by_name(n).unwrap()).len();
        assert_eq!((of("a"), of("x")), (1, 1));
        let (g, _, local) = run(text);
        assert_ne!(local_index(&local, &g, "a"), local_index(&local, &g, "x"));
    }

    /// Parameters keep their indices; `x`, read twice, takes the local of
    /// `a`, dead once `x` is written; `y` stays on the stack: nothing to
    /// declare.
    #[test]
    fn a_dead_parameter_lends_its_local() {
        let (f, s, st) =
            stackified("function f(a, b) {\nentry:\n  x = a + b\n  y = x * x\n  ret y\n}\n");
        let a = assign(&f, &s, &st);
        let l = |n| local_index(&a.local, &f, n);
        assert_eq!(
            (l("a"), l("b"), l("x"), l("y")),
            (Some(0), Some(1), Some(0), None)
        );
        assert!(a.groups.is_empty());
        assert_eq!(a.count, 0);
    }

    /// `x` dies where `y` is defined: one local; `y` is live across `z`:
    /// two; both in the parameters' locals once those are dead.
    #[test]
    fn variables_share_locals_where_their_ranges_allow() {
        let (f, s, st) = stackified(
            "function f(a, b) {\nentry:\n  x = a + b\n  y = x * x\n  z = b + 1\n  w = z * z\n  r = y + w\n  s = r + y\n  ret s\n}\n",
        );
        let a = assign(&f, &s, &st);
        let l = |n| local_index(&a.local, &f, n);
        assert_eq!(l("x"), l("y"));
        assert_ne!(l("y"), l("z"));
        assert_eq!((l("x"), l("z")), (Some(0), Some(1)));
        assert_eq!(a.count, 0);
    }
}

#[cfg(test)]
mod clash_tests {
    use super::{insert, Occupied};
    use ssakit::ir::Var;

    /// A segment sharing an end point with another value's interval is a
    /// clash, reported in every build (it was a `debug_assert`); one of the
    /// same value merges.
    #[test]
    fn a_shared_end_point_of_two_values_is_a_clash() {
        let (x, y) = (Var::new(0), Var::new(1));
        let mut occ = Occupied::new();
        assert_eq!(insert(&mut occ, 2, 5, x), None);
        assert_eq!(insert(&mut occ, 5, 7, x), None);
        assert_eq!(occ.len(), 1, "{occ:?}");
        assert_eq!(insert(&mut occ, 7, 9, y), Some(x));
        assert_eq!(insert(&mut occ, 0, 1, y), None);
    }
}
