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
//! It is exact for the families that make most of a binary (moves, `lea`,
//! the stack, additions, subtractions, comparisons, logic, `inc`/`dec`,
//! `neg`, `setcc`, `cmovcc`) and otherwise says "reads every flag,
//! defines none", which is always true in the sense above.
//!
//! # Dead after
//!
//! [`dead_after`] walks a block's instructions backwards with the dead
//! flags of the step of `drop_dead_flags`, starting from **none** at the
//! block's end (its terminator, the flags live out of it and a `ret`'s
//! results are not looked at): a flag becomes dead above an instruction
//! that defines it and reads no flag, and live above one that may read
//! it. Every flag found dead after an instruction is dead there for the
//! step too (which starts from more dead flags and drops instructions
//! whose reads then do not count): the step's dead set only grows with
//! its starting set, and a definition with no read of any flag makes the
//! flag dead above it whether the step keeps it (a kept definition) or
//! drops it (dropped only when dead already).
//!
//! Leaving a definition out keeps the step's own analysis unchanged: a
//! left-out definition is followed by another of its flag in the block,
//! so the flags each block defines are the same, and it belongs to an
//! instruction that reads no flag, so the flags each block reads before
//! defining them are the same; the step then finds the same flags live
//! out of each block and drops exactly what it dropped before, less what
//! was never emitted.

use crate::cfg::Insn;
use crate::regs::{Flow, Loc, LocSet};
use iced_x86::{ConditionCode, Mnemonic};

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
        | M::Bswap => reading(ConditionCode::None),
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
        _ => unknown,
    }
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

/// For each of `insts` (a block's instructions before its terminator, in
/// order), the flags whose definitions by it may be left out: those it
/// defines that are dead after it (the module's "Dead after"), empty
/// when it reads a flag. Written into `out`.
pub(crate) fn dead_after<'a>(
    insts: impl DoubleEndedIterator<Item = &'a Insn> + ExactSizeIterator,
    out: &mut Vec<LocSet>,
) {
    out.clear();
    out.resize(insts.len(), LocSet::EMPTY);
    let mut dead = LocSet::EMPTY;
    for (k, insn) in insts.enumerate().rev() {
        let r = flag_report(insn);
        if r.reads.is_empty() {
            out[k] = dead.intersection(r.defs);
        }
        dead = dead.union(r.defs).difference(r.reads);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{drop_dead_flags, Cache, Emitter};
    use super::*;
    use crate::regs::{LocKind, LocMap};
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
    use ssakit::ir::{Function, FunctionBuilder, Operand, Type, Var};

    /// `ins` emitted alone (with `dead` left out), then `F = 0` for each
    /// flag `F` of `redefine`, then a return of the 23 locations; with
    /// the flag variables, the temporaries and the definitions left out.
    /// `None` when the table does not cover `ins`.
    fn emit_one(
        ins: &Instruction,
        dead: LocSet,
        redefine: LocSet,
    ) -> Option<(Function, Vec<Var>, Vec<Var>, usize)> {
        let mut b = FunctionBuilder::new("insn");
        let vars = LocMap::from_fn(|l| match l.kind() {
            LocKind::Gpr => b.typed_param(l.name(), Type::I64),
            LocKind::Flag => b.typed_param(l.name(), Type::I32),
            LocKind::Vector => b.typed_var(l.name(), Type::V128),
        });
        let fs = b.typed_param("fs_base", Type::I64);
        let gs = b.typed_param("gs_base", Type::I64);
        let mut types = vec![Type::I64; 16];
        types.extend([Type::I32; 7]);
        b.returns(&types);
        let entry = b.block("entry");
        b.switch_to(entry);
        let mut cache = Cache::with_segment_bases(fs, gs);
        let mut e = Emitter::new(&mut b, &vars, &mut cache).leave_out(dead);
        if !super::super::emit(&mut e, ins) {
            return None;
        }
        for l in redefine.iter() {
            b.copy(vars[l], Operand::Const(0));
        }
        let rets: Vec<Operand> = LocSet::GPRS
            .union(LocSet::FLAGS)
            .iter()
            .map(|l| Operand::Var(vars[l]))
            .collect();
        b.ret_values(&rets);
        let flags = LocSet::FLAGS.iter().map(|l| vars[l]).collect();
        let temps = cache.temps().collect();
        Some((b.finish(), flags, temps, cache.left_out))
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
        for insn in instructions() {
            let r = flag_report(&insn);
            let (reads, defs) = match emit_one(&insn.ins, LocSet::EMPTY, LocSet::EMPTY) {
                Some((f, flags, _, _)) => flags_of(&f, &flags),
                None => (insn.access.reads, insn.access.writes),
            };
            let reads = reads.intersection(LocSet::FLAGS);
            let code = insn.ins.code();
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
            if !r.reads.is_empty() || r.defs.is_empty() {
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
                let a = drop_dead_flags(&mut full, &flags, &temps);
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
        dead_after(insts.iter(), &mut out);
        let l = LocSet::of;
        assert_eq!(out[0], STATUS);
        assert_eq!(out[1], l(&[Loc::PF, Loc::AF, Loc::SF, Loc::OF]));
        assert_eq!(out[2], LocSet::EMPTY);
        assert_eq!(out[3], LocSet::EMPTY);
    }
}
