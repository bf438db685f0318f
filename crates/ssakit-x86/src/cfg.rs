//! Control-flow recovery inside one function's extent: iterative recursive
//! descent from the entry, decoding by address.
//!
//! Every address reached is decoded once ([`FuncCfg::insts`] by address);
//! a *leader* starts a block: the entry, every branch target, the
//! fall-through of a conditional branch, every jump-table entry, and an
//! address reached twice by fall-through (two overlapping instructions
//! that end at the same byte, or a walk running into decoded code).
//! Overlapping instructions are thus two instructions with their own
//! blocks; nothing assumes that code is laid out linearly.
//!
//! How a block ends ([`End`]), by the [`Flow`] of its last instruction
//! (computed once, with its reads and writes, in [`regs`](crate::regs)):
//!
//! * `jcc` → a branch; a target outside the extent is a conditional tail
//!   call;
//! * `jmp` inside the extent → a jump; outside → a tail call;
//! * `jmp` through a jump table of one of GCC's two shapes → a switch:
//!   `cmp i, N; ja D; ... jmp [T + i*8]` (absolute 8-byte entries) and
//!   `cmp i, N; ja D; lea B, [rip+T]; movsxd r, [B + i*4]; add r, B; jmp r`
//!   (4-byte entries relative to `T`), with `N + 1` entries (`N` for `jae`)
//!   and `D` the default; the bound comes from the `cmp` that the `ja`
//!   tests, carried along the fall-through (the walk's context), or that
//!   a `jbe T`/`jb T` tests, carried along the taken edge to the table
//!   (the fall-through then the default), and along every later edge
//!   while its registers are not written; a block first walked from a
//!   path without the bound is walked again from the bounded path when
//!   that reaches it later;
//! * an index bounded by an `and r, M` mask (`M + 1` entries, every one
//!   code) or by a `movzx r, byte` (below 256 by its type: the entries
//!   read while they lead inside the extent, at least two; LLVM's tables
//!   over an enum's tag) → the same switch, its first entry standing for
//!   the default no index reaches; a 32- or 64-bit load of the index
//!   (`mov rax, [rdx]`: an enum's tag whose range only the compiler
//!   knew) reads at most 512 entries that way;
//! * any other indirect `jmp`: once the walk has found no more code, a
//!   backward slice over the decoded instructions gives its target as an
//!   expression (a table load plus a base) and its index's bound from
//!   the conditions on the paths to it, a mask, a byte or a constant (the
//!   private module `jumps`); the new targets are walked and the slices
//!   tried again until none resolves; what stays unresolved is an exit;
//! * a `call` that a `.gcc_except_table` call site covers → an invoke:
//!   its fall-through, or its landing pad when it unwinds
//!   ([`crate::except`]);
//! * `ret` → a return;
//! * a `call` whose fall-through leaves the extent, `ud2`, `hlt`, an
//!   undecodable instruction → no return;
//! * running off the end of the extent → a tail call to the next byte.
//!
//! A jump, branch or jump-table entry into a *fragment* (an FDE's extent
//! entered mid-function, GCC's `.cold` parts: [`FuncInfo::fragment`])
//! other than the function's own extent leads inside: the walk decodes
//! the fragment's bytes in place, as part of the function (IDA's
//! function tails), and the fragment's jumps back are internal edges.
//! The fragment stays a function of its own; its lost code subtracts
//! what the functions that entered it decoded
//! ([`crate::lost::FragmentCover`]).

use crate::binary::{Binary, FuncInfo};
use crate::insn::{is_imm, ByAddr};
pub use crate::insn::{End, Insn, JumpKind, Target};
use crate::jumps::{self, Table, MAX_TABLE, OPEN_TABLE};
use crate::regs::{access, Flow, Loc, LocSet};
use iced_x86::{
    Decoder, DecoderOptions, Instruction, InstructionInfoFactory, Mnemonic, OpKind, Register,
};
use rustc_hash::FxHashMap;

/// A recovered block.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let f = bin.functions().iter().find(|f| f.name == "maxl").unwrap();
/// let cfg = ssakit_x86::cfg::recover(&bin, f);
/// assert_eq!(cfg.blocks.len(), 1);
/// assert_eq!(cfg.blocks[0].start, f.extent.start);
/// assert_eq!(cfg.blocks[0].insts.len(), 4); // cmp, mov, cmovge, ret
/// ```
#[derive(Clone, Debug)]
pub struct BlockInfo {
    /// Its first address.
    pub start: u64,
    /// Its instructions (indices into [`FuncCfg::insts`]), the last one
    /// included when it is the branch, jump or return that ends it.
    pub insts: Vec<u32>,
    /// How it ends.
    pub end: End,
}

/// One function's control flow, blocks in address order (the entry
/// first), the blocks of the fragments it jumps into
/// ([`FuncInfo::fragment`]) after its own.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let f = bin.functions().iter().find(|f| f.name == "spin").unwrap();
/// let cfg = ssakit_x86::cfg::recover(&bin, f);
/// assert!(cfg.entry_is_target); // `1: sub rdi, 1; jnz 1b`
/// ```
#[derive(Clone, Debug)]
pub struct FuncCfg {
    /// Every decoded instruction.
    pub insts: Vec<Insn>,
    /// The blocks.
    pub blocks: Vec<BlockInfo>,
    /// Jump tables resolved.
    pub jump_tables: usize,
    /// Calls that may unwind to a landing pad ([`End::Invoke`]).
    pub invokes: usize,
    /// Whether the entry address is also a branch target (the lifter then
    /// adds a fresh entry block).
    pub entry_is_target: bool,
    /// The indirect jumps left unresolved (exits), by address, with what
    /// the backward slice could tell of each.
    pub unresolved: Vec<(u64, JumpKind)>,
}

/// What a `cmp` compared with its immediate: a register, or a memory
/// word ([`Slot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Compared {
    Reg(Loc),
    Mem(Slot),
}

/// A memory word named by its address: `rip`-relative (`cmp dword
/// [rip+X], 6`, `base` none, `disp` the address) or a base register and
/// a displacement (`cmp dword [rdi+0x70], 5`, valid until `rdi` is
/// written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    base: Option<Loc>,
    disp: u64,
}

impl Slot {
    /// The word memory operand `ins` reads or writes, if it has one of
    /// the two forms.
    fn of(ins: &Instruction) -> Option<Slot> {
        if ins.is_ip_rel_memory_operand() {
            return Some(Slot {
                base: None,
                disp: ins.ip_rel_memory_address(),
            });
        }
        let base = Loc::of_register(ins.memory_base())?;
        (base.is_gpr() && ins.memory_index() == Register::None).then(|| Slot {
            base: Some(base),
            disp: ins.memory_displacement64(),
        })
    }
}

/// An index known to be below `count`: the registers holding it (the
/// compared one and its copies), the memory word it was compared in, and
/// the default target `D` of `cmp i, N; ja D` (none for a bound from a
/// mask or the index's type). `exact`: every index below `count` may
/// occur (a comparison, an `and` mask), so every entry must be code;
/// else (a `movzx` from a byte: below 256 by its type only) the table is
/// read while its entries lead inside the extent.
#[derive(Clone, Copy, Debug)]
struct Bound {
    regs: LocSet,
    mem: Option<Slot>,
    count: u64,
    default: Option<Target>,
    exact: bool,
}

/// What the walk knows on reaching an address: the last `cmp x, imm` (for
/// a following `ja`), the bounded index after `ja`, the `rip`-relative
/// addresses loaded by `lea` and the registers one `mov` copied into
/// another (both carried along every edge: GCC hoists a table's base out
/// of loops, and copies an index before a first table whose cases then
/// bound the copy's source: `mov esi, eax; ... jmp` to a case `cmp eax,
/// 9; ja D; ... movsxd rdx, [rcx+rsi*4]`), and a loaded relative
/// jump-table entry.
#[derive(Clone, Copy, Debug, Default)]
struct Ctx {
    last_cmp: Option<(Compared, u64)>,
    bound: Option<Bound>,
    /// The last bound by a mask, a byte's type or a load
    /// ([`type_bound`]), kept apart from `bound` so that neither hides
    /// the other.
    typed: Option<Bound>,
    lea: LeaValues,
    /// Registers known to hold one value (copies by `mov r, r`).
    same: LocSet,
    /// `(register holding entry or entry + T, T, the index's bound,
    /// added)`.
    rel: Option<(Loc, u64, Bound, bool)>,
}

/// The `rip`-relative addresses `lea` loaded into the general registers
/// (only a general register is read as a table's base): `addr[r]` is
/// register `r`'s when `known` holds `r`. Small, since the walk copies
/// its context along every edge.
#[derive(Clone, Copy, Debug, Default)]
struct LeaValues {
    known: LocSet,
    addr: [u64; 16],
}

impl LeaValues {
    /// The address general register `r` holds, if known.
    fn get(&self, r: Loc) -> Option<u64> {
        self.known.contains(r).then(|| self.addr[r.index()])
    }

    /// General register `r` now holds address `a` (another location is
    /// never read as a base: nothing to record).
    fn set(&mut self, r: Loc, a: u64) {
        if r.is_gpr() {
            self.known.insert(r);
            self.addr[r.index()] = a;
        }
    }

    /// The registers in `writes` hold addresses no longer.
    fn forget(&mut self, writes: LocSet) {
        self.known = self.known.difference(writes);
    }
}

impl Ctx {
    /// The bound on index register `i`: a comparison's, else a type's.
    fn bound_of(&self, i: Loc) -> Option<Bound> {
        [self.bound, self.typed]
            .into_iter()
            .flatten()
            .find(|b| b.regs.contains(i))
    }

    /// What survives a branch: the `lea` values, the copies and the
    /// bounded index (a bound checked in an earlier block holds as long
    /// as its registers are not written).
    fn across_edge(&self) -> Ctx {
        Ctx {
            lea: self.lea,
            same: self.same,
            bound: self.bound,
            typed: self.typed,
            ..Ctx::default()
        }
    }
}

struct Walk<'b, 'd> {
    bin: &'b Binary<'d>,
    extent: std::ops::Range<u64>,
    decoder: Decoder<'d>,
    factory: InstructionInfoFactory,
    insts: Vec<Insn>,
    /// The instruction decoded at each address.
    by_addr: ByAddr<u32>,
    ends: FxHashMap<u32, End>,
    /// The addresses that start a block.
    leaders: ByAddr<()>,
    work: Vec<(u64, Ctx)>,
    /// Leaders reached again with a bounded index: a jump table behind
    /// them that the first visit could not bound is tried again from here.
    retry: Vec<(u64, Ctx)>,
    jump_tables: usize,
    invokes: usize,
    targets_entry: bool,
    /// The indirect jumps the slices left unresolved, with what they saw.
    unresolved: FxHashMap<u32, JumpKind>,
}

impl Walk<'_, '_> {
    fn target(&self, a: u64) -> Target {
        if self.bin.in_scope(&self.extent, a) {
            Target::Inside(a)
        } else {
            Target::Outside(a)
        }
    }

    fn lead(&mut self, t: Target, ctx: Ctx) {
        if let Target::Inside(a) = t {
            if a == self.extent.start {
                self.targets_entry = true;
            }
            if self.leaders.insert(a, ()) {
                self.work.push((a, ctx));
            } else if ctx.bound.is_some() {
                self.retry.push((a, ctx));
            }
        }
    }

    /// Follows the code from `a` with `ctx` (at most 64 instructions) to
    /// an unresolved indirect jump, and resolves it if `ctx` bounds its
    /// table: the first path to reach a block may lack the `cmp; ja`
    /// another path carries.
    fn retry_from(&mut self, mut a: u64, mut ctx: Ctx) {
        for _ in 0..64 {
            let Some(i) = self.by_addr.get(a) else {
                return;
            };
            let Insn { ins, access } = self.insts[i as usize];
            if let Some(end) = self.ends.get(&i) {
                if *end == End::TailCall(None) && access.flow == Flow::IndirectJump {
                    if let Some((targets, default)) = self.jump_table(&ins, &ctx) {
                        self.jump_tables += 1;
                        for &t in &targets {
                            self.lead(t, ctx.across_edge());
                        }
                        self.lead(default, ctx.across_edge());
                        self.ends.insert(i, End::Switch(targets, default));
                    }
                }
                return;
            }
            step(&mut ctx, &ins, access.writes);
            a = ins.next_ip();
        }
    }

    /// The end of the code the walk may decode from `a` on: the extent's,
    /// or that of the fragment holding `a` ([`Binary::in_scope`]).
    fn region_end(&self, a: u64) -> u64 {
        if self.extent.contains(&a) {
            self.extent.end
        } else {
            self.bin.fragment_containing(a).map_or(a, |r| r.end)
        }
    }

    fn decode(&mut self, a: u64) -> u32 {
        let ins = if self.extent.contains(&a) {
            let off = (a - self.extent.start) as usize;
            let ok = self.decoder.set_position(off).is_ok();
            self.decoder.set_ip(a);
            if ok {
                self.decoder.decode()
            } else {
                Instruction::default()
            }
        } else {
            // A fragment's code, decoded in place.
            let end = self.region_end(a);
            let code = self.bin.code(a).unwrap_or(&[]);
            let len = (end.saturating_sub(a) as usize).min(code.len());
            Decoder::with_ip(64, &code[..len], a, DecoderOptions::NONE).decode()
        };
        let access = access(&ins, &mut self.factory);
        let i = self.insts.len() as u32;
        self.insts.push(Insn { ins, access });
        self.by_addr.insert(a, i);
        i
    }

    /// Walks from leader `a` until an end or an address already decoded.
    fn walk(&mut self, mut a: u64, mut ctx: Ctx) {
        // The walk from a leader stays in its extent or fragment.
        let end_of = self.region_end(a);
        loop {
            if self.by_addr.get(a).is_some() {
                self.leaders.insert(a, ());
                if ctx.bound.is_some() {
                    self.retry.push((a, ctx));
                }
                return;
            }
            let i = self.decode(a);
            let Insn { ins, access } = self.insts[i as usize];
            let next = ins.next_ip();
            let m = ins.mnemonic();
            let pad = match access.flow {
                Flow::Call | Flow::IndirectCall => self.bin.landing_pad(ins.ip()),
                _ => None,
            };
            let end = match access.flow {
                // An instruction running past the extent is not followed.
                _ if next > end_of => Some(End::NoReturn),
                Flow::Invalid | Flow::Stop => Some(End::NoReturn),
                _ if pad.is_some() => {
                    let pad = self.target(pad.expect("a pad"));
                    let mut after = ctx;
                    step(&mut after, &ins, access.writes);
                    self.invokes += 1;
                    self.lead(pad, after.across_edge());
                    let next = (next < end_of).then_some(next);
                    if let Some(n) = next {
                        self.lead(Target::Inside(n), after);
                    }
                    Some(End::Invoke { next, pad })
                }
                Flow::Return => Some(End::Ret),
                Flow::Call | Flow::IndirectCall if next >= end_of => Some(End::NoReturn),
                Flow::Branch => {
                    let taken = self.target(ins.near_branch_target());
                    let fall = self.target(next);
                    let (mut tctx, mut fctx) = (ctx.across_edge(), ctx.across_edge());
                    // `cmp i, N; ja D` bounds `i` on the fall-through
                    // (`jae`: below `N`); `cmp i, N; jbe T` on the taken
                    // edge (`jb`: below `N`), the other edge the default.
                    let bounded = match m {
                        Mnemonic::Ja => Some((1, &mut fctx, taken)),
                        Mnemonic::Jae => Some((0, &mut fctx, taken)),
                        Mnemonic::Jbe => Some((1, &mut tctx, fall)),
                        Mnemonic::Jb => Some((0, &mut tctx, fall)),
                        _ => None,
                    };
                    if let (Some((c, n)), Some((plus, bctx, default))) = (ctx.last_cmp, bounded) {
                        let count = n.checked_add(plus);
                        if let Some(count) = count.filter(|&c| c > 0 && c <= MAX_TABLE) {
                            let (regs, mem) = match c {
                                Compared::Reg(r) if ctx.same.contains(r) => (ctx.same, None),
                                Compared::Reg(r) => (LocSet::of(&[r]), None),
                                Compared::Mem(a) => (LocSet::EMPTY, Some(a)),
                            };
                            bctx.bound = Some(Bound {
                                regs,
                                mem,
                                count,
                                default: Some(default),
                                exact: true,
                            });
                        }
                    }
                    self.lead(taken, tctx);
                    self.lead(fall, fctx);
                    Some(End::Branch(taken, fall))
                }
                Flow::Jump => {
                    let t = self.target(ins.near_branch_target());
                    self.lead(t, ctx.across_edge());
                    Some(match t {
                        Target::Inside(a) => End::Jump(a),
                        Target::Outside(a) => End::TailCall(Some(a)),
                    })
                }
                Flow::IndirectJump => Some(match self.jump_table(&ins, &ctx) {
                    Some((targets, default)) => {
                        self.jump_tables += 1;
                        for &t in &targets {
                            self.lead(t, ctx.across_edge());
                        }
                        self.lead(default, ctx.across_edge());
                        End::Switch(targets, default)
                    }
                    None => End::TailCall(None),
                }),
                Flow::Next | Flow::Call | Flow::IndirectCall => None,
            };
            if let Some(end) = end {
                self.ends.insert(i, end);
                return;
            }
            step(&mut ctx, &ins, access.writes);
            if next >= end_of {
                self.ends.insert(i, End::TailCall(Some(next)));
                return;
            }
            a = next;
        }
    }

    /// The targets and default of the jump table `ins` jumps through.
    fn jump_table(&self, ins: &Instruction, ctx: &Ctx) -> Option<(Vec<Target>, Target)> {
        let (table, bound, relative) = if ins.op0_kind() == OpKind::Memory {
            // jmp [T + i*8]
            let i = Loc::of_register(ins.memory_index())?;
            let bound = ctx.bound_of(i)?;
            if ins.memory_base() != Register::None || ins.memory_index_scale() != 8 {
                return None;
            }
            (ins.memory_displacement64(), bound, false)
        } else {
            // lea B, [rip+T]; movsxd r, [B + i*4]; add r, B; jmp r
            let (r, table, bound, added) = ctx.rel?;
            if !added || Loc::of_register(ins.op0_register())? != r {
                return None;
            }
            (table, bound, true)
        };
        let t = if relative {
            Table {
                table,
                stride: 4,
                size: 4,
                signed: true,
                mul: 1,
                base: table,
            }
        } else {
            Table {
                table,
                stride: 8,
                size: 8,
                signed: false,
                mul: 1,
                base: 0,
            }
        };
        let b = jumps::Bound {
            first: 0,
            count: bound.count,
            exact: bound.exact,
            upper: false,
            default: bound.default,
        };
        jumps::read_table(self.bin, &self.extent, t, b)
    }

    /// The targets of a computed jump: every one code inside the extent,
    /// at least two; the first is the default.
    fn computed(&self, ts: &[u64]) -> Option<(Vec<Target>, Target)> {
        let inside = |a: &u64| self.bin.in_scope(&self.extent, *a) && self.bin.code(*a).is_some();
        if ts.len() < 2 || !ts.iter().all(inside) {
            return None;
        }
        let targets: Vec<Target> = ts.iter().map(|&a| Target::Inside(a)).collect();
        Some((targets.clone(), targets[0]))
    }

    /// Resolves by data flow ([`crate::jumps`]) the indirect jumps the
    /// shapes left unresolved, leading to the new targets; whether one
    /// was resolved.
    fn resolve_by_data_flow(&mut self) -> bool {
        let open: Vec<u32> = self
            .ends
            .iter()
            .filter(|&(&i, e)| {
                *e == End::TailCall(None)
                    && self.insts[i as usize].access.flow == Flow::IndirectJump
            })
            .map(|(&i, _)| i)
            .collect();
        if open.is_empty() {
            return false;
        }
        let mut found = Vec::new();
        {
            let mut w = jumps::Walker::new(
                self.bin,
                self.extent.clone(),
                &self.insts,
                &self.by_addr,
                &self.ends,
            );
            for &i in &open {
                let r = match w.resolve(i) {
                    Ok(jumps::Found::Table(t, b)) => {
                        jumps::read_table(self.bin, &self.extent, t, b).ok_or(JumpKind::BadTable)
                    }
                    Ok(jumps::Found::Targets(ts)) => self.computed(&ts).ok_or(JumpKind::BadTable),
                    Err(kind) => Err(kind),
                };
                match r {
                    Ok(r) => found.push((i, r)),
                    Err(kind) => {
                        self.unresolved.insert(i, kind);
                    }
                }
            }
        }
        for &(i, (ref targets, default)) in &found {
            self.jump_tables += 1;
            self.unresolved.remove(&i);
            for &t in targets {
                self.lead(t, Ctx::default());
            }
            self.lead(default, Ctx::default());
            self.ends.insert(i, End::Switch(targets.clone(), default));
        }
        !found.is_empty()
    }
}

/// The walk's knowledge after `ins`, which writes `writes` (`ctx`, what
/// it knew before, updated in place).
fn step(ctx: &mut Ctx, ins: &Instruction, writes: LocSet) {
    let m = ins.mnemonic();
    let reg0 = || Loc::of_register(ins.op0_register());
    let reg1 = || Loc::of_register(ins.op1_register());
    let (k0, k1) = (ins.op0_kind(), ins.op1_kind());
    let mut new_rel = None;
    // Registers that hold the bounded index after `ins`.
    let mut index_copy = None;
    let is_move = matches!(
        m,
        Mnemonic::Mov | Mnemonic::Movzx | Mnemonic::Movsx | Mnemonic::Movsxd
    );
    match m {
        Mnemonic::Cmp if is_imm(k1) && k0 == OpKind::Register => {
            ctx.last_cmp = reg0().map(|r| (Compared::Reg(r), ins.immediate(1)));
        }
        Mnemonic::Cmp if is_imm(k1) && k0 == OpKind::Memory => {
            ctx.last_cmp = Slot::of(ins).map(|s| (Compared::Mem(s), ins.immediate(1)));
        }
        _ if is_move && k0 == OpKind::Register && k1 == OpKind::Register => {
            if let (Some(b), Some(src)) = (ctx.bound, reg1()) {
                if b.regs.contains(src) {
                    index_copy = reg0();
                }
            }
        }
        _ if is_move && k0 == OpKind::Register && k1 == OpKind::Memory => {
            if let (Some(b), Some(r)) = (ctx.bound, reg0()) {
                if b.mem.is_some() && Slot::of(ins) == b.mem {
                    index_copy = Some(r);
                }
            }
            if let (Some(r), Some(base)) = (reg0(), Loc::of_register(ins.memory_base())) {
                let idx = Loc::of_register(ins.memory_index());
                if let Some(b) = idx.and_then(|i| ctx.bound_of(i)) {
                    if ins.memory_index_scale() == 4 && index_copy.is_none() && base.is_gpr() {
                        if let Some(t) = ctx.lea.get(base) {
                            new_rel = Some((r, t, b, false));
                        }
                    }
                }
            }
        }
        Mnemonic::Add if k0 == OpKind::Register && k1 == OpKind::Register => {
            if let (Some((r, t, b, false)), Some(dst), Some(src)) = (ctx.rel, reg0(), reg1()) {
                if dst == r && src.is_gpr() && ctx.lea.get(src) == Some(t) {
                    new_rel = Some((r, t, b, true));
                }
            }
        }
        _ => {}
    }
    if m != Mnemonic::Cmp && writes.intersects(LocSet::FLAGS) {
        ctx.last_cmp = None;
    }
    if let Some(b) = &mut ctx.bound {
        let before = b.regs;
        b.regs = b.regs.difference(writes);
        if b.mem
            .and_then(|s| s.base)
            .is_some_and(|r| writes.contains(r))
        {
            b.mem = None;
        }
        if let Some(r) = index_copy {
            b.regs.insert(r);
        }
        if m == Mnemonic::Mov
            && k0 == OpKind::Register
            && k1 == OpKind::Register
            && ins.op0_register() == ins.op1_register()
        {
            // `mov edi, edi` zero-extends the index: it still holds.
            if let Some(r) = reg0().filter(|&r| before.contains(r)) {
                b.regs.insert(r);
            }
        }
    }
    if let Some(b) = type_bound(ins) {
        ctx.typed = Some(b);
    } else if let Some(t) = &mut ctx.typed {
        t.regs = t.regs.difference(writes);
    }
    if let Some((Compared::Mem(Slot { base: Some(r), .. }), _)) = ctx.last_cmp {
        if writes.contains(r) {
            ctx.last_cmp = None;
        }
    }
    let copied = match (
        m == Mnemonic::Mov && k0 == OpKind::Register && k1 == OpKind::Register,
        reg0(),
        reg1(),
    ) {
        (true, Some(d), Some(s)) if d.is_gpr() && s.is_gpr() => Some((d, s)),
        _ => None,
    };
    ctx.same = match copied {
        Some((d, s)) if d == s => ctx.same,
        Some((d, s)) if ctx.same.contains(s) => ctx.same.union(LocSet::of(&[d])),
        Some((d, s)) => LocSet::of(&[d, s]),
        None => ctx.same.difference(writes),
    };
    ctx.lea.forget(writes);
    if m == Mnemonic::Lea && ins.is_ip_rel_memory_operand() {
        if let Some(r) = reg0() {
            ctx.lea.set(r, ins.ip_rel_memory_address());
        }
    }
    if new_rel.is_some() {
        ctx.rel = new_rel;
    } else if let Some((r, ..)) = ctx.rel {
        if writes.contains(r) {
            ctx.rel = None;
        }
    }
}

/// The bound `ins` puts on the register it writes by the values it can
/// give: `and r, M` (below `M + 1`, every value possible), `movzx r,
/// byte` (below 256 by its type only: [`Bound::exact`] false), and a
/// 32- or 64-bit load `mov r, [m]` (no bound but [`OPEN_TABLE`] entries:
/// rustc's tables over an enum's tag loaded whole, whose range LLVM knew).
fn type_bound(ins: &Instruction) -> Option<Bound> {
    // Only a 32- or 64-bit write defines the whole register.
    if ins.op0_kind() != OpKind::Register || ins.op0_register().size() < 4 {
        return None;
    }
    let r = Loc::of_register(ins.op0_register()).filter(|r| r.is_gpr())?;
    let (count, exact) = match ins.mnemonic() {
        Mnemonic::And if is_imm(ins.op1_kind()) => {
            let m = ins.immediate(1);
            (m.checked_add(1).filter(|&c| c > 1 && c <= MAX_TABLE)?, true)
        }
        Mnemonic::Movzx
            if ins.memory_size() == iced_x86::MemorySize::UInt8
                || ins.op1_register().size() == 1 =>
        {
            (256, false)
        }
        Mnemonic::Mov if ins.op1_kind() == OpKind::Memory => (OPEN_TABLE, false),
        _ => return None,
    };
    Some(Bound {
        regs: LocSet::of(&[r]),
        mem: None,
        count,
        default: None,
        exact,
    })
}

/// Recovers the control flow of function `f` of `bin`.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let f = bin.functions().iter().find(|f| f.name == "classify").unwrap();
/// let cfg = ssakit_x86::cfg::recover(&bin, f);
/// assert_eq!(cfg.jump_tables, 1);
/// assert!(cfg.blocks.len() >= 9);
/// ```
pub fn recover(bin: &Binary<'_>, f: &FuncInfo) -> FuncCfg {
    let start = f.extent.start;
    let code = bin.code(start).unwrap_or(&[]);
    let len = (f.extent.end - start).min(code.len() as u64);
    let extent = start..start + len;
    // About one instruction per four bytes of code: the tables grow once.
    let guess = len as usize / 4;
    let mut w = Walk {
        bin,
        extent: extent.clone(),
        decoder: Decoder::with_ip(64, &code[..len as usize], start, DecoderOptions::NONE),
        factory: InstructionInfoFactory::new(),
        insts: Vec::with_capacity(guess),
        by_addr: ByAddr::new(&extent),
        ends: FxHashMap::default(),
        leaders: ByAddr::new(&extent),
        work: Vec::new(),
        retry: Vec::new(),
        jump_tables: 0,
        invokes: 0,
        targets_entry: false,
        unresolved: FxHashMap::default(),
    };
    if len == 0 {
        return FuncCfg {
            insts: Vec::new(),
            blocks: vec![BlockInfo {
                start,
                insts: Vec::new(),
                end: End::TailCall(Some(start)),
            }],
            jump_tables: 0,
            invokes: 0,
            entry_is_target: false,
            unresolved: Vec::new(),
        };
    }
    w.leaders.insert(start, ());
    w.work.push((start, Ctx::default()));
    loop {
        while let Some((a, ctx)) = w.work.pop() {
            w.walk(a, ctx);
        }
        if let Some((a, ctx)) = w.retry.pop() {
            w.retry_from(a, ctx);
        } else if !w.resolve_by_data_flow() {
            break;
        }
    }
    let mut leaders: Vec<u64> = w.leaders.addresses().collect();
    // The extent's blocks first (the entry first), then the fragments'.
    leaders.sort_unstable_by_key(|a| (!extent.contains(a), *a));
    let mut blocks = Vec::with_capacity(leaders.len());
    // Each block's instructions gathered here, then copied out at their
    // count (no vector grown per block).
    let mut insts = Vec::new();
    for &l in &leaders {
        insts.clear();
        let mut a = l;
        let end = loop {
            let Some(i) = w.by_addr.get(a) else {
                // Only reachable if a leader was never walked.
                break End::NoReturn;
            };
            insts.push(i);
            if let Some(e) = w.ends.get(&i) {
                break e.clone();
            }
            a = w.insts[i as usize].ins.next_ip();
            if w.leaders.get(a).is_some() {
                break End::Jump(a);
            }
        };
        blocks.push(BlockInfo {
            start: l,
            insts: insts.as_slice().to_vec(),
            end,
        });
    }
    let mut unresolved: Vec<(u64, JumpKind)> = w
        .unresolved
        .iter()
        .map(|(&i, &k)| (w.insts[i as usize].ins.ip(), k))
        .collect();
    unresolved.sort_unstable();
    FuncCfg {
        insts: w.insts,
        blocks,
        jump_tables: w.jump_tables,
        invokes: w.invokes,
        entry_is_target: w.targets_entry,
        unresolved,
    }
}

#[cfg(test)]
mod tests {
    //! The jump-table matcher on hand-assembled switches over `edi` (the
    //! bytes as GNU `as` encodes each commented instruction): code at
    //! [`CODE`], the table at [`TABLE`], four cases `mov eax, k; ret` and
    //! the default `xor eax, eax; ret` after the jump.

    use super::*;
    use crate::binary::Origin;

    const CODE: u64 = 0x1000;
    const TABLE: u64 = 0x2000;

    /// `cmp edi, 3`.
    const CMP_EDI_3: [u8; 3] = [0x83, 0xff, 0x03];
    /// `ja` (rel8, patched to the default).
    const JA: u8 = 0x77;
    /// `jae` (rel8).
    const JAE: u8 = 0x73;

    /// A switch: `head` (ending in the jump through the table; its jcc
    /// at `jcc_at`, whose rel8 is made to reach the default), the four
    /// cases, the default. Returns the code, the cases' addresses and the
    /// default's.
    fn switch(mut code: Vec<u8>, jcc_at: usize) -> (Vec<u8>, Vec<u64>, u64) {
        let mut cases = Vec::new();
        for k in 0..4 {
            cases.push(CODE + code.len() as u64);
            code.extend([0xb8, k, 0, 0, 0, 0xc3]); // mov eax, k; ret
        }
        let default = CODE + code.len() as u64;
        code.extend([0x31, 0xc0, 0xc3]); // xor eax, eax; ret
        code[jcc_at + 1] = (default - (CODE + jcc_at as u64 + 2)) as u8;
        (code, cases, default)
    }

    /// GCC's relative shape: `cmp; jcc D; lea rdx, [rip+TABLE];
    /// BETWEEN; movsxd rax, [rdx+rdi*4]; add rax, rdx; jmp rax`.
    fn relative(cmp: &[u8], jcc: u8, between: &[u8]) -> (Vec<u8>, Vec<u64>, u64) {
        let mut code = cmp.to_vec();
        let jcc_at = code.len();
        code.extend([jcc, 0]);
        let next = CODE + code.len() as u64 + 7;
        code.extend([0x48, 0x8d, 0x15]); // lea rdx, [rip+disp32]
        code.extend(((TABLE - next) as u32).to_le_bytes());
        code.extend(between);
        code.extend([0x48, 0x63, 0x04, 0xba]); // movsxd rax, dword [rdx+rdi*4]
        code.extend([0x48, 0x01, 0xd0]); // add rax, rdx
        code.extend([0xff, 0xe0]); // jmp rax
        switch(code, jcc_at)
    }

    /// The 4-byte entries of a relative table: each target less [`TABLE`].
    fn relative_table(targets: &[u64]) -> Vec<u8> {
        let rel = |&t: &u64| (t.wrapping_sub(TABLE) as u32).to_le_bytes();
        targets.iter().flat_map(rel).collect()
    }

    /// The control flow of the function that is all of `code`, with
    /// `table` as data.
    fn recovered(code: &[u8], table: &[u8]) -> FuncCfg {
        let bin = Binary::of_sections(&[(CODE, code, true), (TABLE, table, false)]);
        let f = FuncInfo {
            name: "f".into(),
            label: "f".into(),
            extent: CODE..CODE + code.len() as u64,
            origin: Origin::Symbol,
            fragment: false,
        };
        recover(&bin, &f)
    }

    /// How the block holding the indirect `jmp` ends.
    fn jump_end(cfg: &FuncCfg) -> &End {
        let jmp = |&i: &u32| cfg.insts[i as usize].ins.mnemonic() == Mnemonic::Jmp;
        let b = cfg.blocks.iter().find(|b| b.insts.iter().any(jmp));
        &b.expect("a block ends in the jmp").end
    }

    fn inside(addrs: &[u64]) -> Vec<Target> {
        addrs.iter().map(|&a| Target::Inside(a)).collect()
    }

    /// `cmp edi, 3; ja D; lea; movsxd; add; jmp`: four entries relative
    /// to the table, the default `D`.
    #[test]
    fn gcc_relative_table() {
        let (code, cases, default) = relative(&CMP_EDI_3, JA, &[]);
        let cfg = recovered(&code, &relative_table(&cases));
        let shape: Vec<Mnemonic> = cfg.insts[..6].iter().map(|i| i.ins.mnemonic()).collect();
        use Mnemonic::*;
        assert_eq!(shape, [Cmp, Ja, Lea, Movsxd, Add, Jmp]);
        assert_eq!(cfg.jump_tables, 1);
        let want = End::Switch(inside(&cases), Target::Inside(default));
        assert_eq!(jump_end(&cfg), &want);
        assert_eq!(cfg.blocks.len(), 7); // entry, jump, 4 cases, default
    }

    /// `cmp edi, 4; jae D`: `jae` bounds by `N`, not `N + 1`.
    #[test]
    fn jae_bounds_by_its_immediate() {
        let (code, cases, default) = relative(&[0x83, 0xff, 0x04], JAE, &[]);
        let cfg = recovered(&code, &relative_table(&cases));
        let want = End::Switch(inside(&cases), Target::Inside(default));
        assert_eq!(jump_end(&cfg), &want);
    }

    /// `cmp edi, 3; ja D; jmp [rdi*8 + TABLE]`: four absolute 8-byte
    /// entries.
    #[test]
    fn absolute_table_of_8_byte_entries() {
        let mut code = CMP_EDI_3.to_vec();
        code.extend([JA, 0]);
        code.extend([0xff, 0x24, 0xfd]); // jmp qword [rdi*8 + disp32]
        code.extend((TABLE as u32).to_le_bytes());
        let (code, cases, default) = switch(code, 3);
        let table: Vec<u8> = cases.iter().flat_map(|c| c.to_le_bytes()).collect();
        let cfg = recovered(&code, &table);
        assert_eq!(cfg.jump_tables, 1);
        let want = End::Switch(inside(&cases), Target::Inside(default));
        assert_eq!(jump_end(&cfg), &want);
    }

    /// `HEAD; lea rdx, [rip+TABLE]; movsxd rax, [rdx+rdi*4]; add rax,
    /// rdx; jmp rax`, then four cases `mov eax, k; ret`: the code and
    /// the cases' addresses.
    fn table_after(head: &[u8]) -> (Vec<u8>, Vec<u64>) {
        let mut code = head.to_vec();
        let next = CODE + code.len() as u64 + 7;
        code.extend([0x48, 0x8d, 0x15]); // lea rdx, [rip+disp32]
        code.extend(((TABLE - next) as u32).to_le_bytes());
        code.extend([0x48, 0x63, 0x04, 0xba]); // movsxd rax, dword [rdx+rdi*4]
        code.extend([0x48, 0x01, 0xd0]); // add rax, rdx
        code.extend([0xff, 0xe0]); // jmp rax
        let mut cases = Vec::new();
        for k in 0..4 {
            cases.push(CODE + code.len() as u64);
            code.extend([0xb8, k, 0, 0, 0, 0xc3]); // mov eax, k; ret
        }
        (code, cases)
    }

    /// GCC's `cmp edi, 3; jbe T; xor eax, eax; ret; T: ...; jmp rax`:
    /// the bound holds on the taken edge, the fall-through is the
    /// default.
    #[test]
    fn a_bound_on_the_taken_edge_of_jbe() {
        // cmp edi, 3; jbe +3; xor eax, eax; ret
        let head = [0x83, 0xff, 0x03, 0x76, 0x03, 0x31, 0xc0, 0xc3];
        let (code, cases) = table_after(&head);
        let cfg = recovered(&code, &relative_table(&cases));
        let want = End::Switch(inside(&cases), Target::Inside(CODE + 5));
        assert_eq!(jump_end(&cfg), &want);
    }

    /// `and edi, 3`: a mask bounds the index exactly (four entries, each
    /// one code; no default).
    #[test]
    fn a_mask_bounds_the_index() {
        let (code, cases) = table_after(&[0x83, 0xe7, 0x03]); // and edi, 3
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(
            jump_end(&cfg),
            &End::Switch(inside(&cases), Target::Inside(cases[0]))
        );
        // `and dil, 3` leaves the upper bits: no bound.
        let (code, cases) = table_after(&[0x40, 0x80, 0xe7, 0x03]);
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(jump_end(&cfg), &End::TailCall(None));
    }

    /// `movzx edi, byte [rsi]` (an enum's tag, as LLVM loads it): below
    /// 256 by its type only, so the entries are read while they lead
    /// inside the extent; the fifth leads out and ends the table.
    #[test]
    fn a_byte_index_reads_the_entries_inside_the_extent() {
        let (code, cases) = table_after(&[0x0f, 0xb6, 0x3e]); // movzx edi, byte [rsi]
        let mut entries = cases.clone();
        entries.push(0x9000);
        let cfg = recovered(&code, &relative_table(&entries));
        assert_eq!(
            jump_end(&cfg),
            &End::Switch(inside(&cases), Target::Inside(cases[0]))
        );
        assert_eq!(cfg.jump_tables, 1);
    }

    /// `mov rdi, [rsi]` (rustc's enum tag loaded whole, its range known
    /// only to LLVM): no bound but the entries that lead inside the
    /// extent; a comparison's bound on another register (`cmp eax, 9;
    /// ja`) is kept beside it.
    #[test]
    fn a_loaded_index_reads_the_entries_inside_the_extent() {
        // cmp eax, 9; ja +0; mov rdi, [rsi]
        let head = [0x83, 0xf8, 0x09, 0x77, 0x00, 0x48, 0x8b, 0x3e];
        let (code, cases) = table_after(&head);
        let mut entries = cases.clone();
        entries.extend([0x9000, cases[0]]);
        let cfg = recovered(&code, &relative_table(&entries));
        assert_eq!(
            jump_end(&cfg),
            &End::Switch(inside(&cases), Target::Inside(cases[0]))
        );
    }

    /// `lea rdx, [rip+TABLE]; mov rdx, rsi`: the base the `movsxd` reads
    /// is no longer the table's, and the jump stays unresolved.
    #[test]
    fn a_stale_lea_base_stays_unresolved() {
        let mov_rdx_rsi = [0x48, 0x89, 0xf2];
        let (code, cases, _) = relative(&CMP_EDI_3, JA, &mov_rdx_rsi);
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(cfg.jump_tables, 0);
        assert_eq!(jump_end(&cfg), &End::TailCall(None));
    }

    /// `cmp di, 3; ja D; lea; movzx edi, di; movsxd; add; jmp`: a 16-bit
    /// comparison no shape takes, found by data flow ([`crate::jumps`]):
    /// the index `zext16(rdi)` is the compared value.
    #[test]
    fn a_16_bit_comparison_bounds_by_data_flow() {
        let cmp_di_3 = [0x66, 0x83, 0xff, 0x03];
        let movzx_edi_di = [0x0f, 0xb7, 0xff];
        let (code, cases, default) = relative(&cmp_di_3, JA, &movzx_edi_di);
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(cfg.jump_tables, 1);
        let want = End::Switch(inside(&cases), Target::Inside(default));
        assert_eq!(jump_end(&cfg), &want);
        // The same with the whole `rdi` as index: `cmp di` bounds only
        // its low 16 bits.
        let (code, cases, _) = relative(&cmp_di_3, JA, &[]);
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(jump_end(&cfg), &End::TailCall(None));
    }

    /// `mov edi, 2` before the table (a state machine's next state, as
    /// rustc threads jumps): one entry, one target.
    #[test]
    fn a_constant_index_selects_its_entry() {
        let (code, cases) = table_after(&[0xbf, 0x02, 0x00, 0x00, 0x00]); // mov edi, 2
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(
            jump_end(&cfg),
            &End::Switch(inside(&cases[2..3]), Target::Inside(cases[2]))
        );
    }

    /// `lea rsi, [rip+TABLE]; movzx eax, byte [rdi]; jmp [rsi+rax*8]`
    /// (glibc's `printf`: an absolute table whose base is in a register,
    /// indexed by a byte): the entries while they lead inside the extent.
    #[test]
    fn an_absolute_table_with_a_base_register_by_data_flow() {
        let mut code = vec![0x48, 0x8d, 0x35]; // lea rsi, [rip+disp32]
        code.extend(((TABLE - (CODE + 7)) as u32).to_le_bytes());
        code.extend([0x0f, 0xb6, 0x07]); // movzx eax, byte [rdi]
        code.extend([0xff, 0x24, 0xc6]); // jmp qword [rsi+rax*8]
        let mut cases = Vec::new();
        for k in 0..4 {
            cases.push(CODE + code.len() as u64);
            code.extend([0xb8, k, 0, 0, 0, 0xc3]); // mov eax, k; ret
        }
        let mut entries = cases.clone();
        entries.push(0x9000);
        let table: Vec<u8> = entries.iter().flat_map(|c| c.to_le_bytes()).collect();
        let cfg = recovered(&code, &table);
        assert_eq!(
            jump_end(&cfg),
            &End::Switch(inside(&cases), Target::Inside(cases[0]))
        );
    }

    /// LLVM's clamp: `cmp ecx, 3; mov edx, 3; cmovb edx, ecx; lea rcx,
    /// [rip+TABLE]; movsxd rdx, [rcx+rdx*4]; add rdx, rcx; jmp rdx`: the
    /// index is `ecx` below 3, or 3: four entries.
    #[test]
    fn a_clamped_index_by_data_flow() {
        let mut code = vec![0x83, 0xf9, 0x03]; // cmp ecx, 3
        code.extend([0xba, 0x03, 0, 0, 0]); // mov edx, 3
        code.extend([0x0f, 0x42, 0xd1]); // cmovb edx, ecx
        let next = CODE + code.len() as u64 + 7;
        code.extend([0x48, 0x8d, 0x0d]); // lea rcx, [rip+disp32]
        code.extend(((TABLE - next) as u32).to_le_bytes());
        code.extend([0x48, 0x63, 0x14, 0x91]); // movsxd rdx, dword [rcx+rdx*4]
        code.extend([0x48, 0x01, 0xca]); // add rdx, rcx
        code.extend([0xff, 0xe2]); // jmp rdx
        let mut cases = Vec::new();
        for k in 0..4 {
            cases.push(CODE + code.len() as u64);
            code.extend([0xb8, k, 0, 0, 0, 0xc3]); // mov eax, k; ret
        }
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(
            jump_end(&cfg),
            &End::Switch(inside(&cases), Target::Inside(cases[0]))
        );
    }

    /// `and ecx, 1; and eax, 1; lea edi, [rax+rcx]`: the index's range
    /// by interval arithmetic over masks, 0 to 2: three entries of the
    /// four.
    #[test]
    fn an_index_range_by_intervals() {
        let head = [0x83, 0xe1, 0x01, 0x83, 0xe0, 0x01, 0x8d, 0x3c, 0x08];
        let (code, cases) = table_after(&head);
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(
            jump_end(&cfg),
            &End::Switch(inside(&cases[..3]), Target::Inside(cases[0]))
        );
    }

    /// `mov rax, [rdi]; jmp rax`: a function pointer, no table.
    #[test]
    fn a_loaded_pointer_is_no_table() {
        let cfg = recovered(&[0x48, 0x8b, 0x07, 0xff, 0xe0], &[0; 8]);
        assert_eq!(jump_end(&cfg), &End::TailCall(None));
        assert_eq!(cfg.jump_tables, 0);
        assert_eq!(cfg.unresolved, [(CODE + 3, JumpKind::Pointer)]);
    }

    /// What the slice tells of a jump it leaves unresolved: `jmp rdi`
    /// (a register's value on entry); `mov rax, [rsi+rdi*8]; jmp rax` (a
    /// table whose base `rsi` is unknown); the relative table with no
    /// bound on `rdi` (a table whose index is unbounded).
    #[test]
    fn an_unresolved_jump_says_what_it_jumped_through() {
        let cfg = recovered(&[0xff, 0xe7], &[0; 8]);
        assert_eq!(cfg.unresolved, [(CODE, JumpKind::Computed)]);
        let cfg = recovered(&[0x48, 0x8b, 0x04, 0xfe, 0xff, 0xe0], &[0; 8]);
        assert_eq!(cfg.unresolved, [(CODE + 4, JumpKind::UnknownBase)]);
        let (code, cases) = table_after(&[]);
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(cfg.unresolved, [(CODE + 14, JumpKind::Unbounded)]);
        assert_eq!(cfg.jump_tables, 0);
    }

    /// `bsf edi, edi`: a bit position below 32 bounds the index from
    /// above only; the table holds four entries (then no more data): the
    /// four are read.
    #[test]
    fn a_bit_position_reads_the_entries_that_are_code() {
        let (code, cases) = table_after(&[0x0f, 0xbc, 0xff]);
        let cfg = recovered(&code, &relative_table(&cases));
        assert_eq!(
            jump_end(&cfg),
            &End::Switch(inside(&cases), Target::Inside(cases[0]))
        );
        assert!(cfg.unresolved.is_empty());
    }

    /// glibc `memmove`'s computed jump into an unrolled loop, smaller:
    /// `and ecx, 3; shl ecx, 3; lea rdx, [rip+X]; add rdx, rcx; jmp
    /// rdx`, then four 8-byte cases `mov eax, k; ret; nop; nop` from `X`
    /// on: every value of the target, enumerated.
    #[test]
    fn a_computed_jump_over_a_masked_value() {
        let mut code = vec![0x83, 0xe1, 0x03, 0xc1, 0xe1, 0x03];
        code.extend([0x48, 0x8d, 0x15, 5, 0, 0, 0]); // lea rdx, [rip+5]
        code.extend([0x48, 0x01, 0xca, 0xff, 0xe2]); // add rdx, rcx; jmp rdx
        let x = CODE + code.len() as u64;
        for k in 0..4 {
            code.extend([0xb8, k, 0, 0, 0, 0xc3, 0x90, 0x90]);
        }
        let cfg = recovered(&code, &[0; 8]);
        let cases: Vec<u64> = (0..4).map(|k| x + 8 * k).collect();
        assert_eq!(
            jump_end(&cfg),
            &End::Switch(inside(&cases), Target::Inside(x))
        );
        assert_eq!(cfg.jump_tables, 1);
    }

    /// A bound past [`MAX_TABLE`] entries (`cmp edi, 0x10000; ja`, with
    /// a table that long in the data), and one that overflows (`cmp rdi,
    /// -1; ja`: `N + 1` wraps): no table.
    #[test]
    fn a_bound_that_does_not_fit_is_no_table() {
        let cmp_edi_0x10000 = [0x81, 0xff, 0x00, 0x00, 0x01, 0x00];
        let cmp_rdi_minus_1 = [0x48, 0x83, 0xff, 0xff];
        for cmp in [&cmp_edi_0x10000[..], &cmp_rdi_minus_1[..]] {
            let (code, cases, _) = relative(cmp, JA, &[]);
            let table = relative_table(&vec![cases[0]; MAX_TABLE as usize + 1]);
            let cfg = recovered(&code, &table);
            assert_eq!(cfg.jump_tables, 0, "{cmp:x?}");
            assert_eq!(jump_end(&cfg), &End::TailCall(None), "{cmp:x?}");
        }
    }

    /// Entries that lead outside the code, or a table that the data does
    /// not hold whole: no table.
    #[test]
    fn a_table_that_is_not_code_addresses_is_no_table() {
        let (code, cases, _) = relative(&CMP_EDI_3, JA, &[]);
        let into_data = relative_table(&[cases[0], cases[1], TABLE, cases[3]]);
        let short = relative_table(&cases[..3]);
        for table in [into_data, short] {
            let cfg = recovered(&code, &table);
            assert_eq!(jump_end(&cfg), &End::TailCall(None));
        }
    }
}
