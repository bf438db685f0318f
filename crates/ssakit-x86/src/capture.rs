//! Which pointer arguments a function never captures: LLVM's
//! `nocapture` attribute (its `FunctionAttrs` pass, a bottom-up escape
//! analysis over the call graph) on machine code, per argument register.
//!
//! # The property
//!
//! A function *captures* an argument register `p` (`rdi`..`r9`) when a
//! value computed from `p`'s entry value may outlive the call: it is
//!
//! * stored to memory as a value (`mov [rax], rdi`; a spill to its own
//!   frame counts unless the [slot promotion](crate::slots) made it a
//!   variable);
//! * read by an opaque operation that may write or call (`rep movsq`,
//!   an indirect call, a vector store);
//! * passed to a callee that captures that argument register, or to an
//!   unknown one (an indirect call, a PLT stub of another object);
//! * returned: in any register but its own unchanged (a register
//!   returned as it came, `rsi` untouched, gives the caller its own
//!   value back).
//!
//! "Computed from" is every pure operation's result of a derived
//! operand (an address `rdi + 8`, and conservatively a comparison or a
//! mask), a copy's, a phi's; a load's result is memory's bytes, which
//! held the pointer only if something stored it, a capture already.
//!
//! # Why a caller cares
//!
//! A frame address a caller passes only to callees that do not capture
//! it (*lent*, [`crate::slots`]) cannot be reached after the call
//! through a pointer loaded from memory or by another callee: its slots
//! may still change during the lending calls (the callee writes through
//! the pointer), not at a store through a non-frame pointer.
//!
//! # Order and recursion
//!
//! The summary is computed where [`Signatures::infer`] analyses each
//! function, callees first (by levels of the call graph's condensation),
//! on the function in pruned SSA form after its slots were promoted.
//! Calls within a cycle of the call graph (and to a function not yet
//! analysed) are taken to capture every argument: the least solution of
//! "does not capture", sound without a fixpoint. The greatest solution
//! (LLVM's optimistic rule for a strongly connected component: assume
//! no capture within the cycle and iterate until nothing more is
//! captured) would be sound as well, since a capture is a finite chain of
//! calls ending at a sink; it is not computed.
//!
//! [`Signatures::infer`]: crate::signature::Signatures::infer

use crate::frame::CALL_ARGUMENT_WINDOW;
use crate::lift::Origins;
use crate::regs::{Loc, LocSet};
use ssakit::entity::{Csr, EntityVec, SecondaryMap};
use ssakit::ir::{
    Access, Function, Inst, InstData, Opcode, Operand, Operator, Terminator, Type, Var,
};

/// The argument registers a pointer may be passed in.
pub(crate) const POINTER_ARGS: LocSet =
    LocSet::of(&[Loc::RDI, Loc::RSI, Loc::RDX, Loc::RCX, Loc::R8, Loc::R9]);

/// What one function does with the pointers and the frame it is given:
/// [`captured`]'s answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    /// The argument registers it never captures.
    pub(crate) nocapture: LocSet,
    /// The words of its caller's frame it may read (offsets from its
    /// entry `rsp`, 8 and up: the stack arguments), sorted; `None` when
    /// it may read any (an address of that frame escapes, or one at an
    /// unknown offset is read).
    pub(crate) stack_reads: Option<Vec<i64>>,
}

/// What the callees of one function's direct calls do: per call site
/// (the call instruction's address), the callee's [`Summary`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Lent {
    /// (call address, the callee's summary), sorted.
    sites: Vec<(u64, Summary)>,
    /// What every other call does not capture (the unit tests' hand-made
    /// calls, which have no address).
    everywhere: LocSet,
}

impl Lent {
    /// The summaries of `sites`: (call address, its callee's summary).
    pub(crate) fn new(mut sites: Vec<(u64, Summary)>) -> Lent {
        sites.retain(|s| s.1 != Summary::default());
        sites.sort_unstable_by_key(|s| s.0);
        Lent {
            sites,
            everywhere: LocSet::EMPTY,
        }
    }

    /// Every call leaves `regs` uncaptured, and may read any stack word.
    #[cfg(test)]
    pub(crate) fn everywhere(regs: LocSet) -> Lent {
        Lent {
            sites: Vec::new(),
            everywhere: regs,
        }
    }

    fn summary(&self, site: Option<u64>) -> Option<&Summary> {
        let a = site?;
        let k = self.sites.partition_point(|s| s.0 < a);
        self.sites.get(k).filter(|s| s.0 == a).map(|s| &s.1)
    }

    /// The argument registers the call at `site` does not capture.
    pub(crate) fn at(&self, site: Option<u64>) -> LocSet {
        let known = self.summary(site).map_or(LocSet::EMPTY, |s| s.nocapture);
        known.union(self.everywhere)
    }

    /// The words of the caller's frame above the call's `rsp` that the
    /// callee at `site` may read (see [`Summary::stack_reads`]).
    fn stack_reads(&self, site: Option<u64>) -> Option<&[i64]> {
        self.summary(site)?.stack_reads.as_deref()
    }

    /// Whether no call leaves anything uncaptured.
    pub(crate) fn is_empty(&self) -> bool {
        self.sites.iter().all(|s| s.1.nocapture.is_empty()) && self.everywhere.is_empty()
    }
}

/// The argument register a variable named `name` (a location's, or a
/// version of it) is, if it is one of [`POINTER_ARGS`].
pub(crate) fn pointer_arg(name: &str) -> Option<Loc> {
    POINTER_ARGS.iter().find(|l| l.name() == name)
}

/// What a variable holds relative to the entry `rsp` (the lattice of
/// [`crate::frame`], its integers counted as `Other`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Offset {
    /// No definition seen yet.
    Unset,
    /// Not a frame address.
    Other,
    /// The entry `rsp` plus `c`.
    At(i64),
    /// A frame address at an unknown offset (or maybe one).
    Lost,
}

impl Offset {
    fn join(self, o: Offset) -> Offset {
        match (self, o) {
            (Offset::Unset, x) | (x, Offset::Unset) => x,
            (a, b) if a == b => a,
            (Offset::Other, Offset::Other) => Offset::Other,
            _ => Offset::Lost,
        }
    }

    fn is_frame(self) -> bool {
        matches!(self, Offset::At(_) | Offset::Lost)
    }
}

/// What [`Flow::transfer`] does with an operator: an addition or a
/// subtraction of 64 bits, another pure operation of the set, one that
/// accesses memory, or an opaque one (no opcode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Add,
    Sub,
    Pure,
    Memory(Access),
    Opaque,
}

impl Kind {
    /// A pure operation of the set (no memory access, not opaque).
    fn is_pure(self) -> bool {
        matches!(self, Kind::Add | Kind::Sub | Kind::Pure)
    }
}

/// [`Flow::read`]: the first round read the variable.
const READ: u8 = 1;
/// [`Flow::read`]: the variable is narrow and defined, its facts final.
const FINAL: u8 = 2;

/// Whether a variable of type `ty` may hold a pointer (only a 64-bit or
/// vector value may).
fn wide(ty: Type) -> bool {
    matches!(ty, Type::I64 | Type::V128)
}

/// What a variable passed to a call is named ([`Flow::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Name {
    /// Not looked up yet.
    Unknown,
    /// `rsp` (or a version of it).
    Rsp,
    /// One of [`POINTER_ARGS`].
    Arg(Loc),
    /// Another.
    Other,
}

/// The [`Kind`] of each operator of `f`, resolved once per analysis
/// (the transfer asks at every operation of every round).
fn kinds(f: &Function) -> SecondaryMap<Operator, Kind> {
    // Every operator's entry written, in order: allocated once.
    let n = f.symbols().operators().count();
    let mut out = SecondaryMap::with_capacity(n, Kind::Opaque);
    for (op, data) in f.symbols().operators() {
        out[op] = match data.opcode {
            Some(Opcode::I64Add) => Kind::Add,
            Some(Opcode::I64Sub) => Kind::Sub,
            Some(code) => code.access().map_or(Kind::Pure, Kind::Memory),
            None => Kind::Opaque,
        };
    }
    out
}

/// The flow-insensitive facts of [`captured`], grown until stable.
struct Flow {
    /// Each operator's [`Kind`].
    kinds: SecondaryMap<Operator, Kind>,
    /// Per variable, the argument registers its value is computed from.
    from: EntityVec<Var, LocSet>,
    /// Per variable, what it holds relative to the entry `rsp`.
    at: EntityVec<Var, Offset>,
    /// Per variable passed to a call, what it is named (looked up once;
    /// allocated at the first call).
    names: Option<EntityVec<Var, Name>>,
    /// What the function captures.
    out: LocSet,
    /// What it stores to its own frame (below the entry `rsp`): (offset,
    /// bytes, the registers the stored value is computed from).
    own: Vec<(i64, u8, LocSet)>,
    /// The union of `own`'s registers: what a load of the frame may read.
    own_all: LocSet,
    /// An address of the frame escapes: stored as a value, passed to a
    /// callee (but the call's own `rsp`), read by an opaque operation,
    /// returned, or read or written at an unknown offset.
    escapes: bool,
    /// The words of the caller's frame it loads (offsets 8 and up),
    /// found by [`Flow::record`] once the facts are stable.
    reads: Vec<i64>,
    /// Per call: its `rsp` and site (as `reads`).
    calls: Vec<(i64, Option<u64>)>,
    /// The first round is under way (every instruction, in order).
    first: bool,
    /// Per variable defined by a copy of a variable, that variable
    /// (`rsi1 = rcx1`, `rcx1 = rsi`), noted in the first round: a
    /// register returned as it came may pass through copies.
    copies: SecondaryMap<Var, Option<Var>>,
    /// Per variable, whether the first round read it yet ([`READ`]), or
    /// whether its facts are final ([`FINAL`]: a narrow variable once
    /// defined is `Other` for good, so no user of it is recorded).
    read: EntityVec<Var, u8>,
    /// Whether the first round read `own_all` yet (a load of the frame).
    own_read: bool,
    /// The variables that grew in the first round after it read them.
    late: Vec<Var>,
    /// `own_all` grew in the first round after it was read.
    own_late: bool,
    /// The position (in the order of the kept instructions) of the
    /// instruction under transfer.
    pos: u32,
    /// In the first round, (variable, position of a kept instruction
    /// reading it); then `users` is built from it.
    pairs: Vec<(Var, u32)>,
    /// The positions of the calls and memory reads (the instructions
    /// [`Flow::record`] reads and the ones that read `own_all`).
    sites: Vec<u32>,
    /// Per variable, the positions of the kept instructions reading it
    /// (after the first round).
    users: Csr<Var, u32>,
    /// The positions whose transfer is due (after the first round): an
    /// operand (or `own_all`, for a site) grew since their last one.
    dirty: Vec<u64>,
}

impl Flow {
    fn from(&self, o: Operand) -> LocSet {
        match o {
            Operand::Var(v) => self.from[v],
            _ => LocSet::EMPTY,
        }
    }

    fn at(&self, o: Operand) -> Offset {
        match o {
            Operand::Var(v) => self.at[v],
            _ => Offset::Other,
        }
    }

    /// `d` may hold a value computed from `regs` and be the frame
    /// address `off`. Only a 64-bit (or vector) value may hold a pointer.
    #[inline(always)]
    fn define(&mut self, f: &Function, d: Var, regs: LocSet, off: Offset) {
        if !wide(f.var_type(d)) {
            return self.settle(d);
        }
        let more = self.from[d].union(regs);
        let off = self.at[d].join(off);
        if more != self.from[d] || off != self.at[d] {
            self.from[d] = more;
            self.at[d] = off;
            self.grew(d);
        }
    }

    /// In the first round, `d` is a copy of `src` ([`Flow::copies`]).
    #[inline(always)]
    fn copied(&mut self, d: Var, src: Operand) {
        if let (true, Operand::Var(s)) = (self.first, src) {
            self.copies[d] = Some(s);
        }
    }

    /// The narrow variable `d` is defined: `Other` (from `Unset`, for
    /// good; it is computed from no argument register), whatever the
    /// operands of its definition.
    #[inline(always)]
    fn settle(&mut self, d: Var) {
        if self.at[d] == Offset::Unset {
            self.at[d] = Offset::Other;
            self.grew(d);
        }
        self.read[d] = FINAL;
    }

    /// `d`'s facts grew: in the first round, the instructions that
    /// already read it are due again (`late`, marked after the round);
    /// after it, every one reading it.
    #[inline(always)]
    fn grew(&mut self, d: Var) {
        if self.first {
            if self.read[d] == READ {
                self.late.push(d);
            }
        } else {
            for &k in self.users.of(d) {
                self.dirty[k as usize / 64] |= 1 << (k % 64);
            }
        }
    }

    /// `own_all` grew: the memory reads that read it are due again (all
    /// `sites`, the calls' transfers a no-op).
    fn own_grew(&mut self) {
        if self.first {
            self.own_late |= self.own_read;
        } else {
            for &k in &self.sites {
                self.dirty[k as usize / 64] |= 1 << (k % 64);
            }
        }
    }

    /// A value reaching a sink: what it is computed from is captured; a
    /// frame address escapes.
    fn sink(&mut self, o: Operand) {
        self.out = self.out.union(self.from(o));
        if self.at(o).is_frame() {
            self.escapes = true;
        }
    }

    /// The argument registers the operand `o` is computed from; in the
    /// first round, a variable whose facts may still grow is marked read
    /// and the instruction (at `self.pos`) its user.
    #[inline(always)]
    fn operand(&mut self, o: Operand) -> LocSet {
        let Operand::Var(v) = o else {
            return LocSet::EMPTY;
        };
        if self.first && self.read[v] != FINAL {
            self.read[v] = READ;
            self.pairs.push((v, self.pos));
        }
        self.from[v]
    }

    /// [`Flow::operand`] of each of `args`.
    #[inline(always)]
    fn operands(&mut self, args: &[Operand]) -> LocSet {
        let mut regs = LocSet::EMPTY;
        for &o in args {
            regs = regs.union(self.operand(o));
        }
        regs
    }

    /// What the variable `v` names among the call arguments: `rsp`, an
    /// argument register, or another; found once per variable.
    fn name(&mut self, f: &Function, v: Var) -> Name {
        let names =
            (self.names).get_or_insert_with(|| EntityVec::filled(f.num_vars(), Name::Unknown));
        if names[v] == Name::Unknown {
            let name = f.base_name(v);
            names[v] = match pointer_arg(name) {
                _ if name == "rsp" => Name::Rsp,
                Some(l) => Name::Arg(l),
                None => Name::Other,
            };
        }
        names[v]
    }

    /// [`Flow::transfer`] of the call `i` (its arguments `args`, its
    /// results `results`): an argument reaching the callee is a sink
    /// unless the callee leaves its register uncaptured (or it is the
    /// call's own `rsp`).
    #[inline(always)]
    fn call(
        &mut self,
        f: &Function,
        origins: &Origins,
        lent: &Lent,
        i: Inst,
        args: &[Operand],
        results: &[Var],
    ) {
        self.operands(args);
        if self.first {
            self.sites.push(self.pos);
        }
        // What the callee does not capture, looked up at the
        // first argument register that matters.
        let mut free = None;
        for &a in args {
            let (name, off) = match a {
                // A value computed from no argument register,
                // not a frame address, adds nothing (whatever
                // its name): its name is not looked up.
                Operand::Var(v) if self.from[v].is_empty() && !self.at[v].is_frame() => {
                    continue;
                }
                Operand::Var(v) => (self.name(f, v), self.at[v]),
                _ => continue,
            };
            match (off, name) {
                (Offset::At(_), Name::Rsp) => {}
                (_, Name::Arg(l))
                    if free
                        .get_or_insert_with(|| lent.at(origins.inst(i).map(|o| o.address)))
                        .contains(l) =>
                {
                    // Not captured, but the callee may read what
                    // the frame holds through it.
                    self.escapes |= off.is_frame();
                }
                _ => self.sink(a),
            }
        }
        for &d in results {
            self.define(f, d, LocSet::EMPTY, Offset::Other);
        }
    }

    /// One instruction's transfer: the facts it adds. False when it can
    /// add none in a later round: a pure operation whose results are all
    /// narrow, or a copy or phi of a narrow value, only sets them from
    /// `Unset` to `Other`, for good (what [`Flow::define`] does with a
    /// narrow variable whatever the operands).
    fn transfer(&mut self, f: &Function, origins: &Origins, lent: &Lent, i: Inst) -> bool {
        // Most operations compute flags or narrow values, which hold no
        // pointer: their results are `Other`, whatever their operands.
        // So do copies and phis of narrow values.
        let data = f.inst(i);
        let narrow = |&d: &Var| !wide(f.var_type(d));
        match data {
            InstData::Op { op, results, .. } => {
                let results = results.as_slice(f);
                if self.kinds[*op].is_pure() && results.iter().all(narrow) {
                    results.iter().for_each(|&d| self.settle(d));
                    return false;
                }
            }
            InstData::Copy { dst, src } if narrow(dst) => {
                self.copied(*dst, *src);
                self.settle(*dst);
                return false;
            }
            InstData::Phi { dst, .. } if narrow(dst) => {
                self.settle(*dst);
                return false;
            }
            _ => {}
        }
        match data {
            InstData::Copy { dst, src } => {
                self.copied(*dst, *src);
                let regs = self.operand(*src);
                self.define(f, *dst, regs, self.at(*src))
            }
            InstData::Phi { dst, args } => {
                let (mut regs, mut off) = (LocSet::EMPTY, Offset::Unset);
                for p in args.as_slice(f) {
                    regs = regs.union(self.operand(p.value));
                    off = off.join(self.at(p.value));
                }
                self.define(f, *dst, regs, off)
            }
            InstData::Call { args, results, .. } => {
                self.call(f, origins, lent, i, args.as_slice(f), results.as_slice(f))
            }
            InstData::Op {
                op, args, results, ..
            } => {
                let (args, results) = (args.as_slice(f), results.as_slice(f));
                let regs = self.operands(args);
                let kind = self.kinds[*op];
                match kind {
                    Kind::Memory(a) if a.store => {
                        let (addr, v) = (args[0], args[1]);
                        if self.at(v).is_frame() {
                            self.escapes = true;
                        }
                        match self.at(addr) {
                            Offset::At(c) if c + a.bytes as i64 <= 0 => {
                                let r = self.from(v);
                                if !r.is_empty() && !self.own.contains(&(c, a.bytes, r)) {
                                    self.own.push((c, a.bytes, r));
                                    let all = self.own_all.union(r);
                                    if all != self.own_all {
                                        self.own_all = all;
                                        self.own_grew();
                                    }
                                }
                            }
                            Offset::Lost => {
                                self.escapes = true;
                                self.out = self.out.union(self.from(v));
                            }
                            _ => self.out = self.out.union(self.from(v)),
                        }
                    }
                    Kind::Memory(_) => {
                        if self.first {
                            self.sites.push(self.pos);
                        }
                        let regs = match self.at(args[0]) {
                            Offset::Unset | Offset::Other => LocSet::EMPTY,
                            Offset::At(_) => {
                                self.own_read |= self.first;
                                self.own_all
                            }
                            Offset::Lost => {
                                self.escapes = true;
                                self.own_read |= self.first;
                                self.own_all
                            }
                        };
                        results
                            .iter()
                            .for_each(|&d| self.define(f, d, regs, Offset::Other));
                    }
                    Kind::Add | Kind::Sub | Kind::Pure => {
                        // Arithmetic: `rsp + k`, `rsp - k` keep the offset.
                        let k = |o: Operand| match o {
                            Operand::Const(k) => Some(k),
                            _ => None,
                        };
                        let off = match (kind, args) {
                            (Kind::Add, &[x, y]) => match (self.at(x), k(y), k(x), self.at(y)) {
                                (Offset::At(c), Some(k), _, _) | (_, _, Some(k), Offset::At(c)) => {
                                    Offset::At(c.wrapping_add(k))
                                }
                                _ => args
                                    .iter()
                                    .fold(Offset::Other, |a, &o| a.join(lost(self.at(o)))),
                            },
                            (Kind::Sub, &[x, y]) => match (self.at(x), k(y)) {
                                (Offset::At(c), Some(k)) => Offset::At(c.wrapping_sub(k)),
                                _ => args
                                    .iter()
                                    .fold(Offset::Other, |a, &o| a.join(lost(self.at(o)))),
                            },
                            _ => args
                                .iter()
                                .fold(Offset::Other, |a, &o| a.join(lost(self.at(o)))),
                        };
                        results.iter().for_each(|&d| self.define(f, d, regs, off));
                    }
                    Kind::Opaque => {
                        // Opaque: it may store what it reads.
                        let frame = args.iter().any(|&o| self.at(o).is_frame());
                        self.escapes |= frame;
                        if f.effects(i).writes() {
                            self.out = self.out.union(regs);
                        }
                        let off = if frame { Offset::Lost } else { Offset::Other };
                        results.iter().for_each(|&d| self.define(f, d, regs, off));
                    }
                }
            }
            _ => {
                let mut regs = LocSet::EMPTY;
                f.for_each_operand_of(data, |o| regs = regs.union(self.operand(o)));
                let off = lost_of(self, f, i);
                f.for_each_def(i, |d| self.define(f, d, regs, off));
            }
        }
        true
    }
}

impl Flow {
    /// What a call or memory read `i` tells once the facts are stable:
    /// a call's `rsp` (at a known offset) into `calls`, the words of the
    /// caller's frame a read loads into `reads`.
    fn record(&mut self, f: &Function, origins: &Origins, i: Inst) {
        match f.inst(i) {
            InstData::Call { args, .. } => {
                let site = origins.inst(i).map(|o| o.address);
                for &a in args.as_slice(f) {
                    if let (Operand::Var(v), Offset::At(c)) = (a, self.at(a)) {
                        if self.name(f, v) == Name::Rsp {
                            self.calls.push((c, site));
                        }
                    }
                }
            }
            InstData::Op { op, args, .. } => {
                if let (Kind::Memory(a), Offset::At(c)) =
                    (self.kinds[*op], self.at(args.as_slice(f)[0]))
                {
                    if c + a.bytes as i64 > 8 {
                        self.reads.push(c & !7);
                        if c & 7 != 0 && (c & !7) + 8 < c + a.bytes as i64 {
                            self.reads.push((c & !7) + 8);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// After the first round: the kept instructions reading each
    /// variable (`users`, from `pairs`), and the ones due again (reading
    /// a variable, or `own_all`, that grew after they read it).
    fn index_users(&mut self, vars: usize, kept: usize) {
        self.first = false;
        self.users = Csr::from_pairs(vars, std::mem::take(&mut self.pairs));
        self.dirty = vec![0; kept.div_ceil(64)];
        for d in std::mem::take(&mut self.late) {
            self.grew(d);
        }
        if self.own_late {
            self.own_grew();
        }
    }
}

/// A frame address changed by an operation other than adding a constant
/// is at an unknown offset.
fn lost(o: Offset) -> Offset {
    match o {
        Offset::At(_) => Offset::Lost,
        x => x,
    }
}

/// [`lost`] of any operand of `i`.
fn lost_of(flow: &Flow, f: &Function, i: Inst) -> Offset {
    let mut off = Offset::Other;
    f.for_each_operand(i, |o| off = off.join(lost(flow.at(o))));
    off
}

/// Rounds in layout order until no fact grows (phis of loops); facts
/// only grow, so what one round finds holds. The rounds after the first
/// skip the instructions whose transfer can add nothing more
/// ([`Flow::transfer`] of a narrow pure operation, copy or phi), and the
/// ones none of whose operands (nor `own_all`, for a memory read) grew
/// since their last transfer, which would join the same facts again:
/// the same transfers in the same order, less the ones that do nothing,
/// so the same facts (a transfer is not monotone in an operand not yet
/// defined, `Unset`: the order is kept, not only the fixpoint). A narrow
/// variable once defined never grows again ([`FINAL`]): its readers are
/// not recorded as its users. The calls' and memory reads' records
/// ([`Flow::record`]) are taken from the stable facts, as the last round
/// took them.
fn rounds(flow: &mut Flow, f: &Function, origins: &Origins, lent: &Lent) {
    let mut order: Vec<Inst> = Vec::with_capacity(f.inst_slots());
    for &b in f.layout() {
        order.extend_from_slice(f.block_phis(b));
        order.extend_from_slice(f.block_insts(b));
    }
    // At most one site per instruction: not grown site by site.
    flow.sites.reserve(order.len());
    let mut kept = 0;
    for k in 0..order.len() {
        let i = order[k];
        flow.pos = kept as u32;
        if flow.transfer(f, origins, lent, i) {
            order[kept] = i;
            kept += 1;
        }
    }
    order.truncate(kept);
    if !flow.late.is_empty() || flow.own_late {
        flow.index_users(f.num_vars(), kept);
    }
    // Each later round visits the due positions in order; one made due
    // further on is visited in the same round, as a whole round would.
    while flow.dirty.iter().any(|&w| w != 0) {
        for w in 0..flow.dirty.len() {
            let mut bits = flow.dirty[w];
            while bits != 0 {
                let b = bits.trailing_zeros();
                flow.dirty[w] &= !(1 << b);
                let k = w * 64 + b as usize;
                flow.pos = k as u32;
                flow.transfer(f, origins, lent, order[k]);
                bits = flow.dirty[w] & (u64::MAX << b << 1);
            }
        }
    }
    for k in 0..flow.sites.len() {
        let i = order[flow.sites[k] as usize];
        flow.record(f, origins, i);
    }
}

/// What `f` (in SSA form, its parameters and its returns' operands the
/// locations `locs` in order) does with its pointer arguments and its
/// caller's frame (the module documentation); `lent` says what each
/// call's callee does, found by the call's address in `origins`.
///
/// A store of a value computed from an argument to the function's own
/// frame (a spill) is not a capture by itself: the frame is dead after
/// the return. It is one when an address of the frame escapes (a callee,
/// or a store through a pointer, may read the value there), or when a
/// call may read it as a stack argument (its callee's
/// [`Summary::stack_reads`]; 128 bytes above its `rsp` for an unknown
/// callee). A load of the frame may read any value stored there.
pub(crate) fn captured(
    f: &Function,
    origins: &Origins,
    lent: &Lent,
    locs: &[Loc],
    returned: LocSet,
) -> Summary {
    let mut flow = Flow {
        kinds: kinds(f),
        from: EntityVec::filled(f.num_vars(), LocSet::EMPTY),
        at: EntityVec::filled(f.num_vars(), Offset::Unset),
        names: None,
        out: LocSet::EMPTY,
        own: Vec::new(),
        own_all: LocSet::EMPTY,
        escapes: false,
        reads: Vec::new(),
        calls: Vec::new(),
        first: true,
        copies: SecondaryMap::with_capacity(f.num_vars(), None),
        read: EntityVec::filled(f.num_vars(), 0),
        own_read: false,
        late: Vec::new(),
        own_late: false,
        pos: 0,
        pairs: Vec::with_capacity(2 * f.inst_slots()),
        sites: Vec::new(),
        users: Csr::from_pairs(0, []),
        dirty: Vec::new(),
    };
    for &p in f.params() {
        flow.at[p] = Offset::Other;
    }
    for (&l, &p) in locs.iter().zip(f.params()) {
        if POINTER_ARGS.contains(l) {
            flow.from[p] = LocSet::of(&[l]);
        }
        if l == Loc::RSP {
            flow.at[p] = Offset::At(0);
        }
    }
    rounds(&mut flow, f, origins, lent);
    let copies = std::mem::replace(&mut flow.copies, SecondaryMap::new(None));
    let original = |mut v: Var| {
        // SSA: a chain of copies ends (no copy defines its own source).
        while let Some(s) = copies[v] {
            v = s;
        }
        v
    };
    for &b in f.layout() {
        if let Terminator::Ret(vals) = f.term(b) {
            for (k, &v) in vals.as_slice(f).iter().enumerate() {
                let read = locs
                    .get(k)
                    .is_some_and(|&l| l != Loc::RSP && returned.contains(l));
                let own = || match v {
                    Operand::Var(v) => f.params().get(k) == Some(&original(v)),
                    _ => false,
                };
                if read && !own() {
                    flow.sink(v);
                }
            }
        }
    }
    let read_by_call = |c: i64, bytes: u8| {
        flow.calls
            .iter()
            .any(|&(s, site)| match lent.stack_reads(site) {
                Some(words) => words
                    .iter()
                    .any(|&w| s + w < c + bytes as i64 && c < s + w + 8),
                None => s + 8 < c + bytes as i64 && c < s + 8 + CALL_ARGUMENT_WINDOW,
            })
    };
    let mut out = flow.out;
    for &(c, bytes, regs) in &flow.own {
        if flow.escapes || read_by_call(c, bytes) {
            out = out.union(regs);
        }
    }
    // Its own loads of the caller's frame, and its callees' (a tail call
    // passes the caller's stack arguments on).
    let mut reads = Some(flow.reads.clone());
    for &(sp, site) in &flow.calls {
        match (lent.stack_reads(site), reads.as_mut()) {
            (Some(words), Some(r)) => r.extend(words.iter().map(|w| sp + w).filter(|&c| c >= 8)),
            (None, _) if sp + 8 + CALL_ARGUMENT_WINDOW > 8 => reads = None,
            _ => {}
        }
    }
    let stack_reads = reads.filter(|_| !flow.escapes).map(|mut r| {
        r.sort_unstable();
        r.dedup();
        r
    });
    Summary {
        nocapture: POINTER_ARGS.difference(out),
        stack_reads,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the one function of `src` (in SSA form) does, its parameters
    /// `rsp, rdi, rsi, rax` in order, `rax` the register a caller reads
    /// back: the argument registers it captures, and the stack words it
    /// may read.
    fn summary(src: &str, lent: &Lent) -> (Vec<&'static str>, Option<Vec<i64>>) {
        let ops = "operator i64.add pure\noperator i64.sub pure\noperator i64.store trap write\n\
                   operator i64.load trap read\noperator x86.rep_movsq call\n\n";
        let mut f = ssakit::text::parse_module(&format!("{ops}{src}"))
            .unwrap()
            .functions
            .remove(0);
        let opts = ssakit::construct::Options {
            flavor: ssakit::construct::Flavor::Pruned,
            ..Default::default()
        };
        ssakit::construct::construct(&mut f, &opts).unwrap();
        let locs = [Loc::RSP, Loc::RDI, Loc::RSI, Loc::RAX];
        let s = captured(&f, &Origins::none(), lent, &locs, LocSet::of(&[Loc::RAX]));
        let names = (POINTER_ARGS.iter())
            .filter(|&l| locs.contains(&l) && !s.nocapture.contains(l))
            .map(|l| l.name())
            .collect();
        (names, s.stack_reads)
    }

    #[test]
    fn a_pointer_written_through_is_not_captured_one_stored_is() {
        // `rdi[1] = rsi; return *rdi`: `rdi` is written through, `rsi`
        // stored.
        let src = "function f(rsp, rdi, rsi, rax) {\ne:\n    q = i64.add(rdi, 8)\n    \
                   i64.store[0, 0, 0](q, rsi)\n    r = i64.load[0, 0, 0](rdi)\n    \
                   ret rsp, rdi, rsi, r\n}\n";
        assert_eq!(summary(src, &Lent::default()), (vec!["rsi"], Some(vec![])));
    }

    #[test]
    fn a_pointer_returned_is_captured_where_the_caller_reads_it() {
        // `rdi + 8` returned in `rax` (a result) and in `rsi` (a
        // register the caller does not read after the call).
        let src = "function f(rsp, rdi, rsi, rax) {\ne:\n    r = i64.add(rdi, 8)\n    \
                   ret rsp, rdi, RET\n}\n";
        let at = |ret: &str| summary(&src.replace("RET", ret), &Lent::default()).0;
        assert_eq!(at("rsi, r"), ["rdi"]);
        assert!(at("r, rax").is_empty());
    }

    #[test]
    fn a_spill_is_a_capture_only_where_the_frame_may_be_read() {
        // `rdi` spilled to `[rsp - 8]` and reloaded; then the frame's
        // address passed to a callee (which may read the spill).
        let src = "function f(rsp, rdi, rsi, rax) {\ne:\n    rsp = i64.sub(rsp, 16)\n    \
                   q = i64.add(rsp, 8)\n    i64.store[0, 0, 0](q, rdi)\n    \
                   r = i64.load[0, 0, 0](q)\n    i64.store[0, 0, 0](rsi, 0)\n    \
                   r1 = i64.load[0, 0, 0](r)\n    r2 = i64.add(rsp, 24)\n    \
                   r3 = i64.load[0, 0, 0](r2)\n    CALL\n    ret rsp, rdi, rsi, r1\n}\n";
        let with = |call: &str| summary(&src.replace("CALL", call), &Lent::default());
        // The stack word at 8 is a stack argument it reads.
        assert_eq!(with("rax = g(rsi)"), (vec!["rsi"], Some(vec![8])));
        let (captured, reads) = with("rax = g(q)");
        assert_eq!((captured, reads), (vec!["rdi"], None));
    }

    #[test]
    fn a_pointer_passed_on_is_captured_as_its_callee_captures() {
        // Around a loop (a phi): `rdi + 8` passed to `g` in `rsi`.
        let src = "function f(rsp, rdi, rsi, rax) {\ne:\n    jump l\nl:\n    \
                   rsi = i64.add(rdi, 8)\n    rdi = i64.add(rsi, 0)\n    \
                   rax = g(rsp, rsi)\n    branch rax, l, x\nx:\n    \
                   ret rsp, rax, rax, rax\n}\n";
        let lent = Lent::everywhere(LocSet::of(&[Loc::RSI]));
        assert!(summary(src, &lent).0.is_empty());
        assert_eq!(summary(src, &Lent::default()).0, ["rdi"]);
        let opaque = src.replace("rax = g(rsp, rsi)", "rax = x86.rep_movsq(rsi)");
        assert_eq!(summary(&opaque, &lent).0, ["rdi"]);
    }
}
