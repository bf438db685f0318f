//! What an instruction's meaning reads and defines of the flags, known
//! before it is emitted, and the flags dead after each instruction of a
//! block that follow from it: what lets the emitter leave out flag
//! definitions ([the emitter's "Flags left out"](super::emitter)) instead
//! of emitting them for [`drop_dead_flags`](super::drop_dead_flags) to
//! remove.
//!
//! # The report
//!
//! [`flag_report`] says, of one instruction as the lifter emits it (its
//! meaning from [the table](super), or the opaque `x86.MNEMONIC`
//! operation, a call...), two flag sets:
//!
//! * `reads`: **at least** every flag an operation of its lifted form
//!   reads;
//! * `defs`: **only** flags its lifted form defines.
//!
//! It is exact for every family of the table: moves, `lea`, the stack,
//! additions, subtractions, comparisons, logic, `inc`/`dec`, `neg`,
//! `setcc`, `cmovcc`, and (from the operands and the count, as each
//! family decides what it covers) shifts, rotates, `shld`/`shrd`,
//! `adc`/`sbb`, `xadd`, `cmpxchg`, bit tests and counts, multiplications,
//! divisions and BMI. An instruction outside the table is the opaque
//! `x86.MNEMONIC` operation, which reads and defines the flags of its
//! [access set](crate::regs). A form of a family the table leaves opaque
//! after all gets "reads every flag, defines none", which is always true
//! in the sense above; the lifter gives a call the flags its signature
//! or the convention reads and writes (the call's own reads and
//! results).
//!
//! # Across blocks
//!
//! [`live_out`] is the step's flag liveness (the classic backward
//! liveness on seven bits per block, to its fixpoint) computed on the
//! machine blocks from the reports instead of on the lifted function: a
//! block may read the flags its instructions' reports read before they
//! are defined, and its terminator's (a `jcc`'s condition, what an opaque
//! jump reads: [`term_reads`]); every flag is live out of a `ret` and of
//! no return. A tail call and a successor outside the function are the
//! lifter's call then return (its exit block there): the flags live
//! before them are those the call reads and those it does not define
//! (the return reads every flag), which the lifter gives. With reads a
//! superset and definitions a subset of the lifted form's, and the same
//! edges, every flag live out of a block for the step is live out of it
//! here (a tail call's block here ends before its call).
//!
//! # Dead after
//!
//! [`dead_after`] walks a block's body backwards with the dead flags of
//! the step of `drop_dead_flags`, starting from the flags not live out
//! of the block less those its terminator reads: a flag becomes dead
//! above an instruction that defines it and reads no flag, and live above
//! one that may read it. Every flag found dead after an instruction is
//! dead there for the step too (which starts from at least as many dead
//! flags and drops instructions whose reads then do not count): the
//! step's dead set only grows with its starting set, and a definition
//! with no read of any flag makes the flag dead above it whether the
//! step keeps it (a kept definition) or drops it (dropped only when dead
//! already).
//!
//! Leaving a definition out keeps the step's own analysis unchanged. It
//! belongs to an instruction that reads no flag, so the flags each block
//! reads before defining them are the same. Its flag `F` is dead after
//! it: either a later instruction of the block defines `F`, so the
//! flags the block defines are the same, or `F` is not live out of the
//! block for the step, so the block's live-in `reads ∪ (out \ defs)` is
//! the same without it. The step then finds the same flags live out of
//! each block and drops exactly what it dropped before, less what was
//! never emitted.

use super::operand::{places, width, Place, W};
use crate::cfg::{End, FuncCfg, Insn, Target};
use crate::regs::{Flow, Loc, LocSet};
use iced_x86::{ConditionCode, Instruction, Mnemonic, OpKind, Register};
use rustc_hash::FxHashMap;

/// The flags the lifted form of one instruction reads (a superset) and
/// defines (a subset); see the module doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FlagReport {
    /// At least every flag an operation of its lifted form reads.
    pub(crate) reads: LocSet,
    /// Only flags its lifted form defines.
    pub(crate) defs: LocSet,
}

/// The six status flags (`DF` aside).
const STATUS: LocSet = LocSet::of(&[Loc::CF, Loc::PF, Loc::AF, Loc::ZF, Loc::SF, Loc::OF]);

/// The report of `insn` as the lifter emits it with the semantics.
pub(crate) fn flag_report(insn: &Insn) -> FlagReport {
    use Mnemonic as M;
    let unknown = FlagReport {
        reads: LocSet::FLAGS,
        defs: LocSet::EMPTY,
    };
    // A call, a control transfer or an invalid instruction is not the
    // table's (the lifter emits it otherwise).
    if insn.access.flow != Flow::Next {
        return unknown;
    }
    let ins = &insn.ins;
    // If the table does not cover it after all, the opaque operation
    // reads the flags of its access set and defines some (none claimed).
    let opaque = insn.access.reads.intersection(LocSet::FLAGS);
    let reading = |cc: ConditionCode| FlagReport {
        reads: condition_flags(cc).union(opaque),
        defs: LocSet::EMPTY,
    };
    let defining = |covered: bool, defs: LocSet| match covered {
        true => FlagReport {
            reads: LocSet::EMPTY,
            defs,
        },
        false => unknown,
    };
    match ins.mnemonic() {
        M::Mov
        | M::Movzx
        | M::Movsx
        | M::Movsxd
        | M::Lea
        | M::Push
        | M::Pop
        | M::Not
        | M::Nop
        | M::Endbr64
        | M::Endbr32
        | M::Cdqe
        | M::Cwde
        | M::Cwd
        | M::Cdq
        | M::Cqo
        | M::Xchg
        | M::Bswap
        | M::Movbe
        | M::Leave
        | M::Enter => reading(ConditionCode::None),
        M::Add | M::Sub | M::Cmp | M::And | M::Or | M::Xor | M::Test => {
            defining(super::alu::covered_binary(ins), STATUS)
        }
        M::Neg => defining(super::alu::covered_unary(ins), STATUS),
        M::Inc | M::Dec => {
            let mut defs = STATUS;
            defs.remove(Loc::CF);
            defining(super::alu::covered_unary(ins), defs)
        }
        _ if super::moves::is_setcc(ins) || crate::regs::is_cmov(ins) => {
            reading(ins.condition_code())
        }
        _ => match counted(ins) {
            Some(Some(r)) => r,
            // A form of the table's family it leaves opaque after all.
            Some(None) => unknown,
            // Not the table's: the opaque operation, which reads and
            // defines the flags of its access set.
            None => FlagReport {
                reads: opaque,
                defs: insn.access.writes.intersection(LocSet::FLAGS),
            },
        },
    }
}

/// `CF` and `OF`, what a rotate defines.
const CF_OF: LocSet = LocSet::of(&[Loc::CF, Loc::OF]);

/// The report of the families whose flags depend on a count or a form:
/// shifts, rotates, `shld`/`shrd`, `adc`/`sbb`, `xadd`, `cmpxchg`, bit
/// tests and counts, multiplications, divisions, BMI (`bits.rs`,
/// `double.rs`, `alu.rs`, `mul.rs`, `div.rs`); `Some(None)` when the
/// table leaves this form opaque (each test below is its family's own),
/// `None` when `ins` is of none of these families. A shift or
/// rotate by `cl` (or `shld`/`shrd` by `cl`) keeps the old flags when the
/// count is 0 (`select` on it): it reads them, and so defines none that
/// may be left out.
fn counted(ins: &Instruction) -> Option<Option<FlagReport>> {
    use Mnemonic as M;
    let m = ins.mnemonic();
    match m {
        M::Shl | M::Sal | M::Shr | M::Sar | M::Rol | M::Ror | M::Shld | M::Shrd => {}
        M::Adc | M::Sbb | M::Xadd | M::Cmpxchg => {}
        M::Bsf | M::Bsr | M::Tzcnt | M::Lzcnt | M::Popcnt => {}
        M::Bt | M::Bts | M::Btr | M::Btc | M::Mul | M::Imul | M::Div | M::Idiv => {}
        M::Andn | M::Blsr | M::Blsmsk | M::Blsi | M::Bzhi | M::Shlx | M::Shrx | M::Sarx => {}
        _ => return None,
    }
    Some(counted_form(ins, m))
}

/// [`counted`] of a mnemonic of its families: `None` when the table
/// leaves this form opaque.
fn counted_form(ins: &Instruction, m: Mnemonic) -> Option<FlagReport> {
    use Mnemonic as M;
    let report = |reads: LocSet, defs: LocSet| Some(FlagReport { reads, defs });
    let wide = |w: W| matches!(w, W::B32 | W::B64);
    match m {
        M::Shl | M::Sal | M::Shr | M::Sar | M::Rol | M::Ror if super::bits::count_in_cl(ins) => {
            binary_width(ins)?;
            match m {
                M::Rol | M::Ror => report(CF_OF, CF_OF),
                _ => {
                    let mut kept = STATUS;
                    kept.remove(Loc::AF);
                    report(kept, STATUS)
                }
            }
        }
        M::Shl | M::Sal | M::Shr | M::Sar | M::Rol | M::Ror => {
            let [_, s] = places::<2>(ins)?;
            let w = binary_width(ins)?;
            let Place::Imm { v } = s else {
                return None;
            };
            let c = (v as u32) & if w.is64() { 63 } else { 31 };
            match m {
                M::Rol | M::Ror if c != 0 => report(LocSet::EMPTY, CF_OF),
                M::Rol | M::Ror => None,
                _ if c != 0 && c < w.bits() => report(LocSet::EMPTY, STATUS),
                _ => None,
            }
        }
        M::Shld | M::Shrd => {
            let [d, _, k] = places::<3>(ins)?;
            let w = width(&d)?;
            if !wide(w) || !matches!(d, Place::Reg { .. }) {
                return None;
            }
            let mask = if w.is64() { 63 } else { 31 };
            match k {
                Place::Imm { v } if v & mask != 0 => report(LocSet::EMPTY, STATUS),
                Place::Imm { .. } => None,
                _ if ins.op_kind(2) == OpKind::Register && ins.op_register(2) == Register::CL => {
                    report(STATUS, STATUS)
                }
                _ => None,
            }
        }
        M::Adc | M::Sbb => {
            binary_width(ins)?;
            report(LocSet::of(&[Loc::CF]), STATUS)
        }
        M::Xadd => {
            binary_width(ins)?;
            report(LocSet::EMPTY, STATUS)
        }
        M::Cmpxchg => {
            binary_width(ins)?;
            report(LocSet::of(&[Loc::ZF]), STATUS)
        }
        M::Bsf | M::Bsr | M::Tzcnt | M::Lzcnt | M::Popcnt => {
            wide(binary_width(ins)?).then_some(FlagReport {
                reads: LocSet::EMPTY,
                defs: STATUS,
            })
        }
        M::Bt | M::Bts | M::Btr | M::Btc => {
            let [d, s] = places::<2>(ins)?;
            let w = width(&d)?;
            if !wide(w) || matches!((d, s), (Place::Mem { .. }, Place::Reg { .. })) {
                return None;
            }
            let mut defs = STATUS;
            defs.remove(Loc::ZF);
            report(LocSet::EMPTY, defs)
        }
        M::Mul | M::Div | M::Idiv => {
            super::alu::covered_unary(ins).then_some(())?;
            report(LocSet::EMPTY, STATUS)
        }
        M::Imul => {
            let d = match ins.op_count() {
                1 => {
                    super::alu::covered_unary(ins).then_some(())?;
                    return report(LocSet::EMPTY, STATUS);
                }
                2 => places::<2>(ins)?[0],
                3 => places::<3>(ins)?[0],
                _ => return None,
            };
            (width(&d)? != W::B8).then_some(())?;
            report(LocSet::EMPTY, STATUS)
        }
        M::Andn | M::Blsr | M::Blsmsk | M::Blsi | M::Bzhi | M::Shlx | M::Shrx | M::Sarx => {
            let d = match ins.op_count() {
                2 => places::<2>(ins)?[0],
                _ => places::<3>(ins)?[0],
            };
            wide(width(&d)?).then_some(())?;
            match m {
                M::Shlx | M::Shrx | M::Sarx => report(LocSet::EMPTY, LocSet::EMPTY),
                _ => report(LocSet::EMPTY, STATUS),
            }
        }
        _ => None,
    }
}

/// The width of `ins`'s destination when it has two operands, both
/// placed (what [`covered_binary`](super::alu::covered_binary) tests).
fn binary_width(ins: &Instruction) -> Option<W> {
    let [d, _] = places::<2>(ins)?;
    width(&d)
}

/// The flags condition `cc` reads ([`Emitter::condition`](super::Emitter)).
fn condition_flags(cc: ConditionCode) -> LocSet {
    use ConditionCode as C;
    match cc {
        C::o | C::no => LocSet::of(&[Loc::OF]),
        C::b | C::ae => LocSet::of(&[Loc::CF]),
        C::e | C::ne => LocSet::of(&[Loc::ZF]),
        C::be | C::a => LocSet::of(&[Loc::CF, Loc::ZF]),
        C::s | C::ns => LocSet::of(&[Loc::SF]),
        C::p | C::np => LocSet::of(&[Loc::PF]),
        C::l | C::ge => LocSet::of(&[Loc::SF, Loc::OF]),
        C::le | C::g => LocSet::of(&[Loc::ZF, Loc::SF, Loc::OF]),
        C::None => LocSet::EMPTY,
    }
}

/// The flags the terminator `insn` of a block reads: its condition
/// (`jcc`) and what its opaque operation would read.
pub(crate) fn term_reads(insn: &Insn) -> LocSet {
    condition_flags(insn.ins.condition_code()).union(insn.access.reads.intersection(LocSet::FLAGS))
}

/// Per block of `cfg` (by position), the flags that may be live out of
/// it, from the report of each instruction (`reports`, by index into
/// `cfg.insts`): every flag out of a `ret` or no return; out of a tail
/// call or into a successor outside the function, `exits[k]` (the
/// lifter's call and return there: the flags the call reads and those it
/// does not define); else the union of what its successors may read
/// before defining, to the fixpoint (the module's "Across blocks").
pub(crate) fn live_out(cfg: &FuncCfg, reports: &[FlagReport], exits: &[LocSet]) -> Vec<LocSet> {
    let at: FxHashMap<u64, usize> = cfg
        .blocks
        .iter()
        .enumerate()
        .map(|(k, b)| (b.start, k))
        .collect();
    let n = cfg.blocks.len();
    // Per block, the flags it may read before defining them, and those it
    // defines for sure.
    let (mut reads, mut defs) = (vec![LocSet::EMPTY; n], vec![LocSet::EMPTY; n]);
    for (k, blk) in cfg.blocks.iter().enumerate() {
        let (mut r, mut d) = (LocSet::EMPTY, LocSet::EMPTY);
        for &i in &blk.insts {
            let insn = &cfg.insts[i as usize];
            let rep = match insn.access.flow.is_terminator() {
                true => FlagReport {
                    reads: term_reads(insn),
                    defs: LocSet::EMPTY,
                },
                false => reports[i as usize],
            };
            r = r.union(rep.reads.difference(d));
            d = d.union(rep.defs);
        }
        (reads[k], defs[k]) = (r, d);
    }
    // Per block, what is live out of it whatever its successors read
    // (`exits[k]`; every flag out of a return or no return, or into an
    // address inside the function where no block starts), and its
    // successors by position, found once before the fixpoint.
    let mut base = exits.to_vec();
    let (mut first, mut succs) = (Vec::with_capacity(n + 1), Vec::with_capacity(2 * n));
    for (k, blk) in cfg.blocks.iter().enumerate() {
        first.push(succs.len());
        let mut succ = |t: Target| match t {
            Target::Inside(a) => match at.get(&a) {
                Some(&s) => succs.push(s),
                None => base[k] = LocSet::FLAGS,
            },
            Target::Outside(_) => {}
        };
        match &blk.end {
            End::Jump(a) => succ(Target::Inside(*a)),
            End::Branch(t, f) => {
                succ(*t);
                succ(*f);
            }
            End::Switch(ts, d) => {
                ts.iter().for_each(|&t| succ(t));
                succ(*d);
            }
            End::Invoke { next, pad } => {
                next.iter().for_each(|&a| succ(Target::Inside(a)));
                succ(*pad);
            }
            End::TailCall(_) => {}
            End::Ret | End::NoReturn => base[k] = LocSet::FLAGS,
        }
    }
    first.push(succs.len());
    let mut out = vec![LocSet::EMPTY; n];
    let mut live_in = vec![LocSet::EMPTY; n];
    let mut changed = true;
    while changed {
        changed = false;
        for k in (0..n).rev() {
            let o = succs[first[k]..first[k + 1]]
                .iter()
                .fold(base[k], |o, &s| o.union(live_in[s]));
            let i = reads[k].union(o.difference(defs[k]));
            if (o, i) != (out[k], live_in[k]) {
                (out[k], live_in[k]) = (o, i);
                changed = true;
            }
        }
    }
    out
}

/// For each instruction of a block's body (its instructions before the
/// terminator, in order, by their `reports`), the flags whose
/// definitions by it may be left out: those it defines that are dead
/// after it (the module's "Dead after"), empty when it reads a flag;
/// `end` the flags dead at the body's end. Written into `out`.
pub(crate) fn dead_after(
    reports: impl DoubleEndedIterator<Item = FlagReport> + ExactSizeIterator,
    end: LocSet,
    out: &mut Vec<LocSet>,
) {
    out.clear();
    out.resize(reports.len(), LocSet::EMPTY);
    let mut dead = end;
    for (k, r) in reports.enumerate().rev() {
        if r.reads.is_empty() {
            out[k] = dead.intersection(r.defs);
        }
        dead = dead.union(r.defs).difference(r.reads);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{drop_dead_flags, Alone};
    use super::*;
    use iced_x86::{Decoder, DecoderOptions, Instruction, InstructionInfoFactory};

    trait Extend {
        fn extend(&mut self, l: Option<Loc>);
    }
    impl Extend for LocSet {
        fn extend(&mut self, l: Option<Loc>) {
            if let Some(l) = l {
                self.insert(l);
            }
        }
    }
    use ssakit::ir::{Function, Operand, Var};

    /// `ins` emitted alone (with `dead` left out), then `F = 0` for each
    /// flag `F` of `redefine`, then a return of the 23 locations; with
    /// the flag variables, the temporaries and the definitions left out.
    /// `None` when the table does not cover `ins`.
    fn emit_one(
        ins: &Instruction,
        dead: LocSet,
        redefine: LocSet,
    ) -> Option<(Function, Vec<Var>, Vec<Var>, usize)> {
        let mut one = Alone::new();
        if !one.emit(ins, dead) {
            return None;
        }
        for l in redefine.iter() {
            one.b.copy(one.vars[l], Operand::Const(0));
        }
        let flags = LocSet::FLAGS.iter().map(|l| one.vars[l]).collect();
        let (f, cache) = one.finish();
        let temps = cache.temps().collect();
        Some((f, flags, temps, cache.left_out))
    }

    /// The flags the operations of `f`'s entry block read and define.
    fn flags_of(f: &Function, flags: &[Var]) -> (LocSet, LocSet) {
        let locs: Vec<Loc> = LocSet::FLAGS.iter().collect();
        let loc = |v: Var| flags.iter().position(|&x| x == v).map(|k| locs[k]);
        let (mut reads, mut defs) = (LocSet::EMPTY, LocSet::EMPTY);
        let entry = f.layout()[0];
        for &i in f.block_insts(entry) {
            f.for_each_use(i, |v| reads.extend(loc(v)));
            f.for_each_def(i, |v| defs.extend(loc(v)));
        }
        (reads, defs)
    }

    /// Random instructions (and a few chosen ones) with their access sets.
    fn instructions() -> Vec<Insn> {
        let mut factory = InstructionInfoFactory::new();
        let chosen: &[&[u8]] = &[
            &[0x01, 0xd8],                      // add eax, ebx
            &[0x31, 0xc0],                      // xor eax, eax
            &[0x29, 0xc0],                      // sub eax, eax
            &[0xfe, 0x00],                      // inc byte [rax]
            &[0xf6, 0xc4, 0x01],                // test ah, 1
            &[0x48, 0xf7, 0xd8],                // neg rax
            &[0x66, 0xff, 0xc9],                // dec cx
            &[0x48, 0x83, 0x3d, 0, 0, 0, 0, 7], // cmp qword [rip], 7
            &[0x0f, 0x94, 0xc0],                // sete al
            &[0x48, 0x0f, 0x4d, 0xc7],          // cmovge rax, rdi
            &[0xc1, 0xe0, 0x03],                // shl eax, 3
            &[0x48, 0xd1, 0xea],                // shr rdx, 1
            &[0xd3, 0xf9],                      // sar ecx, cl
            &[0xc1, 0xc0, 0x05],                // rol eax, 5
            &[0x48, 0xd3, 0xc8],                // ror rax, cl
            &[0x0f, 0xa3, 0xc8],                // bt eax, ecx
            &[0x48, 0x0f, 0xba, 0xe8, 0x05],    // bts rax, 5
            &[0x0f, 0xbc, 0xc1],                // bsf eax, ecx
            &[0xf3, 0x48, 0x0f, 0xbc, 0xc1],    // tzcnt rax, rcx
            &[0xf3, 0x0f, 0xb8, 0xc1],          // popcnt eax, ecx
            &[0x0f, 0xaf, 0xc1],                // imul eax, ecx
            &[0x48, 0x6b, 0xc1, 0x0c],          // imul rax, rcx, 12
            &[0x48, 0xf7, 0xe1],                // mul rcx
            &[0xf7, 0xf1],                      // div ecx
            &[0x11, 0xd8],                      // adc eax, ebx
            &[0x0f, 0xa4, 0xd8, 0x04],          // shld eax, ebx, 4
            &[0x0f, 0xa5, 0xd8],                // shld eax, ebx, cl
            &[0xc4, 0xe2, 0x60, 0xf2, 0xc1],    // andn eax, ebx, ecx
            &[0xc4, 0xe2, 0x61, 0xf7, 0xc1],    // shlx eax, ecx, ebx
            &[0x0f, 0xc1, 0xd8],                // xadd eax, ebx
            &[0x0f, 0xb1, 0xd8],                // cmpxchg eax, ebx
        ];
        let mut bytes: Vec<Vec<u8>> = chosen.iter().map(|b| b.to_vec()).collect();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let mut b = vec![0u8; 15];
            for v in &mut b {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *v = x as u8;
            }
            bytes.push(b);
        }
        bytes
            .iter()
            .map(|b| {
                let ins = Decoder::with_ip(64, b, 0x1000, DecoderOptions::NONE).decode();
                let access = crate::regs::access(&ins, &mut factory);
                Insn { ins, access }
            })
            .collect()
    }

    /// The report against the emitted code: every flag an operation of
    /// an instruction's meaning reads is in `reads`, every flag of `defs`
    /// is defined; for an instruction the table does not cover, against
    /// the opaque operation's access set.
    #[test]
    fn the_report_covers_the_meaning() {
        let mut defining = 0;
        let mut chosen = 0;
        for (k, insn) in instructions().into_iter().enumerate() {
            let r = flag_report(&insn);
            let emitted = emit_one(&insn.ins, LocSet::EMPTY, LocSet::EMPTY);
            let code = insn.ins.code();
            // A report that defines a flag is the table's (the family's
            // test of what it covers is the emitter's), or the opaque
            // operation's of an instruction outside the table.
            let outside = counted(&insn.ins).is_none()
                && r.defs == insn.access.writes.intersection(LocSet::FLAGS);
            assert!(
                r.defs.is_empty() || emitted.is_some() || outside,
                "{code:?}: {r:?}"
            );
            if k < 31 && emitted.is_some() {
                chosen += 1;
            }
            let (reads, defs) = match emitted {
                Some((f, flags, _, _)) => flags_of(&f, &flags),
                None => (insn.access.reads, insn.access.writes),
            };
            let reads = reads.intersection(LocSet::FLAGS);
            assert!(
                reads.difference(r.reads).is_empty(),
                "{code:?}: {r:?} {reads:?}"
            );
            assert!(
                r.defs.difference(defs).is_empty(),
                "{code:?}: {r:?} {defs:?}"
            );
            if !r.defs.is_empty() {
                defining += 1;
            }
        }
        assert!(defining > 1_000, "{defining}");
        assert_eq!(chosen, 31);
    }

    /// Leaving out is dropping: for every instruction the report lets
    /// leave flags out and every set of its flags redefined after it,
    /// emitting it with those flags left out and running the step gives
    /// the same function, and the same counts, as emitting everything
    /// and running the step.
    #[test]
    fn leaving_out_is_dropping() {
        let mut checked = 0;
        for insn in instructions() {
            let r = flag_report(&insn);
            // An instruction outside the table is the opaque operation,
            // whatever is dead after it: nothing is left out.
            let opaque = || emit_one(&insn.ins, LocSet::EMPTY, LocSet::EMPTY).is_none();
            if !r.reads.is_empty() || r.defs.is_empty() || opaque() {
                continue;
            }
            let all: Vec<Loc> = r.defs.iter().collect();
            for mask in 0..1u32 << all.len() {
                let dead = LocSet::of(
                    &all.iter()
                        .enumerate()
                        .filter(|(k, _)| mask & (1 << k) != 0)
                        .map(|(_, &l)| l)
                        .collect::<Vec<_>>(),
                );
                let (mut full, flags, temps, none) =
                    emit_one(&insn.ins, LocSet::EMPTY, dead).expect("covered");
                let (mut lean, lflags, ltemps, left_out) =
                    emit_one(&insn.ins, dead, dead).expect("covered");
                assert_eq!(none, 0);
                assert_eq!((&flags, &temps), (&lflags, &ltemps));
                assert_eq!(left_out, dead.len(), "{:?}", insn.ins.code());
                let mut by_sets = full.clone();
                let a = drop_dead_flags(&mut full, &flags, &temps);
                // The step's masks and its sets agree.
                let s = super::super::dead_flags::drop_by_sets(&mut by_sets, &flags, &temps);
                assert_eq!(a, s, "{:?}", insn.ins.code());
                assert_eq!(
                    ssakit::text::print_function(&by_sets),
                    ssakit::text::print_function(&full)
                );
                let b = drop_dead_flags(&mut lean, &flags, &temps);
                let (ta, tb) = (
                    ssakit::text::print_function(&full),
                    ssakit::text::print_function(&lean),
                );
                assert_eq!(ta, tb, "{:?} {dead:?}", insn.ins.code());
                assert_eq!(
                    (a.meaning, a.dropped),
                    (b.meaning + left_out, b.dropped + left_out),
                    "{:?} {dead:?}",
                    insn.ins.code()
                );
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Across blocks, a loop `A -> B -> C -> A` with `A -> C`:
    ///
    /// ```text
    /// A: cmp eax, ebx; jne C     B: add eax, 1      C: sete al; xor eax, eax
    /// ```
    ///
    /// `C` reads `ZF` first, so `ZF` is live out of `A` and `B`; nothing
    /// is live out of `C` (`A` defines every status flag before reading).
    #[test]
    fn live_out_of_a_loop() {
        let mut factory = InstructionInfoFactory::new();
        let code: &[(u64, &[u8])] = &[
            (0x1000, &[0x39, 0xd8]),       // cmp eax, ebx
            (0x1002, &[0x75, 0x03]),       // jne 0x1007
            (0x1004, &[0x83, 0xc0, 0x01]), // add eax, 1
            (0x1007, &[0x0f, 0x94, 0xc0]), // sete al
            (0x100a, &[0x31, 0xc0]),       // xor eax, eax
        ];
        let insts: Vec<Insn> = code
            .iter()
            .map(|&(ip, b)| {
                let ins = Decoder::with_ip(64, b, ip, DecoderOptions::NONE).decode();
                let access = crate::regs::access(&ins, &mut factory);
                Insn { ins, access }
            })
            .collect();
        let block = |start, insts: &[u32], end| crate::cfg::BlockInfo {
            start,
            insts: insts.to_vec(),
            end,
        };
        let cfg = FuncCfg {
            blocks: vec![
                block(
                    0x1000,
                    &[0, 1],
                    End::Branch(Target::Inside(0x1007), Target::Inside(0x1004)),
                ),
                block(0x1004, &[2], End::Jump(0x1007)),
                block(0x1007, &[3, 4], End::Jump(0x1000)),
            ],
            insts,
            jump_tables: 0,
            invokes: 0,
            entry_is_target: true,
            unresolved: Vec::new(),
        };
        let reports: Vec<FlagReport> = cfg.insts.iter().map(flag_report).collect();
        let zf = LocSet::of(&[Loc::ZF]);
        let exits = [LocSet::EMPTY; 3];
        assert_eq!(
            live_out(&cfg, &reports, &exits),
            vec![zf, zf, LocSet::EMPTY]
        );
    }

    /// The dead flags of a block: `add` then `cmp` then `sete` then
    /// `inc`: the `add`'s flags are all overwritten by the `cmp`'s; the
    /// `cmp`'s `ZF` is read by `sete`, the others are dead only if the
    /// `inc` defines them (not `CF`); nothing is dead after the `inc`.
    #[test]
    fn dead_after_a_block() {
        let mut factory = InstructionInfoFactory::new();
        let code: &[&[u8]] = &[
            &[0x01, 0xd8],       // add eax, ebx
            &[0x39, 0xd8],       // cmp eax, ebx
            &[0x0f, 0x94, 0xc0], // sete al
            &[0xff, 0xc1],       // inc ecx
        ];
        let insts: Vec<Insn> = code
            .iter()
            .map(|b| {
                let ins = Decoder::with_ip(64, b, 0x1000, DecoderOptions::NONE).decode();
                let access = crate::regs::access(&ins, &mut factory);
                Insn { ins, access }
            })
            .collect();
        let mut out = Vec::new();
        dead_after(insts.iter().map(flag_report), LocSet::EMPTY, &mut out);
        let l = LocSet::of;
        assert_eq!(out[0], STATUS);
        assert_eq!(out[1], l(&[Loc::PF, Loc::AF, Loc::SF, Loc::OF]));
        assert_eq!(out[2], LocSet::EMPTY);
        assert_eq!(out[3], LocSet::EMPTY);
    }
}
