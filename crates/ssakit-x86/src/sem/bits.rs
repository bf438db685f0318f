//! Shifts, rotates, bit tests, bit counts and byte swaps.

use super::emitter::Emitter;
use super::operand::{places, width, Opnd, Place, W};
use crate::regs::{Loc, LocSet};
use iced_x86::{Instruction, Mnemonic, OpKind, Register};
use ssakit::ir::{Opcode, Operand, Type};

/// `shl`/`sal`/`shr`/`sar` by an immediate count (masked to 5 bits, 6
/// for 64-bit operands). A count of 0 or, on 8 and 16 bits, of the
/// width or more stays opaque; a shift by `cl` too.
pub(super) fn shift(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let Place::Imm { v } = s else {
        return None;
    };
    let c = (v as u32) & if w.is64() { 63 } else { 31 };
    if c == 0 || c >= w.bits() {
        return None;
    }
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let k = Operand::Const(c as i64);
    // `CF`'s bit, which `shl`'s `OF` also reads for a count of 1.
    let cf_readers = match (m, c) {
        (Mnemonic::Shr | Mnemonic::Sar, _) | (_, 2..) => LocSet::of(&[Loc::CF]),
        _ => LocSet::of(&[Loc::CF, Loc::OF]),
    };
    let (r, cf) = match m {
        Mnemonic::Shr => {
            let r = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, k]);
            (r, e.for_flags(cf_readers, |e| e.bit(a, c - 1, w)))
        }
        Mnemonic::Sar => {
            let s = e.sext(a, w, if w.is64() { W::B64 } else { W::B32 });
            let r = e.opw(w, Opcode::I64ShrS, Opcode::I32ShrS, &[s, k]);
            let r = e.trunc(r, w);
            let sw = if w.is64() { W::B64 } else { W::B32 };
            (r, e.for_flags(cf_readers, |e| e.bit(s, c - 1, sw)))
        }
        _ => {
            let r = e.opw(w, Opcode::I64Shl, Opcode::I32Shl, &[a, k]);
            let r = e.trunc(r, w);
            (r, e.for_flags(cf_readers, |e| e.bit(a, w.bits() - c, w)))
        }
    };
    e.set(Loc::CF, cf);
    let of = if c != 1 {
        Operand::Undef
    } else {
        e.for_flag(Loc::OF, |e| match m {
            Mnemonic::Shr => e.msb(a, w),
            Mnemonic::Sar => Operand::Const(0),
            _ => {
                let top = e.msb(r, w);
                e.op(Opcode::I32Xor, &[top, cf])
            }
        })
    };
    e.set(Loc::OF, of);
    e.set(Loc::AF, Operand::Undef);
    e.result_flags(r, w);
    e.write(&d, r);
    Some(true)
}

/// The count in `cl` of a shift or rotate at width `w`: `[c, nz, cw]`,
/// the count masked to 5 bits (6 for 64-bit operands) as an `i32`,
/// whether it is not 0, and the count at the operand's type (`i64` for
/// 64 bits).
pub(super) fn cl_count(e: &mut Emitter<'_>, w: W) -> [Operand; 3] {
    let cnt = e.read(&Opnd::reg(Loc::RCX, W::B8), W::B8);
    let mask = if w.is64() { 63 } else { 31 };
    let c = e.op(Opcode::I32And, &[cnt, Operand::Const(mask)]);
    let nz = e.op(Opcode::I32Ne, &[c, Operand::Const(0)]);
    let cw = if w.is64() {
        e.op(Opcode::I64ExtendI32U, &[c])
    } else {
        c
    };
    [c, nz, cw]
}

/// Whether a shift's count is `cl`.
pub(super) fn count_in_cl(ins: &Instruction) -> bool {
    ins.op_count() == 2 && ins.op_kind(1) == OpKind::Register && ins.op_register(1) == Register::CL
}

/// `shl`/`shr`/`sar` by `cl`, at every width: the count masked to 5 bits
/// (6 for 64-bit operands; an 8- or 16-bit operand may then be shifted by
/// its width or more, computed on its `i32`); when it is 0 the flags keep
/// their values (`select` on the count), the result is written either way
/// (a 32-bit one zero-extends). `CF` is the last bit shifted out (`shl`:
/// the top bit of `a << (c - 1)`). `OF` is defined by Intel for a count
/// of 1 only; for larger counts it is the value QEMU gives (`shl`: the
/// top bit `^` `CF`, `shr`: the top bits of `a >> (c - 1)` and `a >> c`
/// differ, `sar`: 0), any value being right there. `AF` is undefined.
pub(super) fn shift_cl(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, _] = places::<2>(ins)?;
    let w = width(&d)?;
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    // `sar` of 8 and 16 bits shifts the sign-extended value.
    let a = match (m, w) {
        (Mnemonic::Sar, W::B8 | W::B16) => e.sext(a, w, W::B32),
        _ => a,
    };
    let [_, nz, cw] = cl_count(e, w);
    let c1 = e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[cw, Operand::Const(1)]);
    let mut shr_of = None;
    let (r, cf) = match m {
        Mnemonic::Shr => {
            let r = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, cw]);
            let t = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, c1]);
            // OF: the top bits of the last two steps differ (the top bit
            // of `a` for a count of 1, else 0).
            let x = e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[t, r]);
            shr_of = Some(e.msb(x, w));
            (r, e.bit(t, 0, w))
        }
        Mnemonic::Sar => {
            let r = e.opw(w, Opcode::I64ShrS, Opcode::I32ShrS, &[a, cw]);
            let r = e.trunc(r, w);
            let t = e.opw(w, Opcode::I64ShrS, Opcode::I32ShrS, &[a, c1]);
            (r, e.bit(t, 0, w))
        }
        _ => {
            let r = e.opw(w, Opcode::I64Shl, Opcode::I32Shl, &[a, cw]);
            let r = e.trunc(r, w);
            let t = e.opw(w, Opcode::I64Shl, Opcode::I32Shl, &[a, c1]);
            (r, e.msb(t, w))
        }
    };
    let of = match (m, shr_of) {
        (_, Some(of)) => of,
        (Mnemonic::Sar, _) => Operand::Const(0),
        _ => {
            let top = e.msb(r, w);
            e.op(Opcode::I32Xor, &[top, cf])
        }
    };
    let [sf, zf, pf] = e.result_flag_values(r, w);
    e.set_if(Loc::CF, cf, nz);
    e.set_if(Loc::OF, of, nz);
    e.set_if(Loc::SF, sf, nz);
    e.set_if(Loc::ZF, zf, nz);
    e.set_if(Loc::PF, pf, nz);
    e.set(Loc::AF, Operand::Undef);
    e.write(&d, r);
    Some(true)
}

/// `rol`/`ror` by an immediate (masked to 5 bits, 6 for 64-bit operands;
/// not 0; 8 and 16 bits rotate by it modulo the width): `CF` the bit
/// rotated in, `OF` (count 1; undefined otherwise) the top bit
/// `^` `CF` (`rol`) or the top two bits' `^` (`ror`); no other flag.
pub(super) fn rotate(e: &mut Emitter<'_>, ins: &Instruction, left: bool) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let Place::Imm { v } = s else {
        return None;
    };
    let c = (v as u32) & if w.is64() { 63 } else { 31 };
    if c == 0 {
        return None;
    }
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let r = match w {
        W::B32 | W::B64 => {
            let k = Operand::Const(c as i64);
            if left {
                e.opw(w, Opcode::I64Rotl, Opcode::I32Rotl, &[a, k])
            } else {
                e.opw(w, Opcode::I64Rotr, Opcode::I32Rotr, &[a, k])
            }
        }
        _ => {
            // 8 and 16 bits: by the count modulo the width, as two shifts.
            let k = c % w.bits();
            let (l, r) = if left {
                (k, w.bits() - k)
            } else {
                (w.bits() - k, k)
            };
            let hi = e.op(Opcode::I32Shl, &[a, Operand::Const(l as i64)]);
            let lo = e.op(Opcode::I32ShrU, &[a, Operand::Const(r as i64)]);
            let x = e.op(Opcode::I32Or, &[hi, lo]);
            e.trunc(x, w)
        }
    };
    // `CF`'s bit, which `OF` also reads for a count of 1.
    let cf_readers = match c {
        1 => LocSet::of(&[Loc::CF, Loc::OF]),
        _ => LocSet::of(&[Loc::CF]),
    };
    let cf = e.for_flags(cf_readers, |e| match left {
        true => e.bit(r, 0, w),
        false => e.msb(r, w),
    });
    e.set(Loc::CF, cf);
    let of = if c != 1 {
        Operand::Undef
    } else {
        e.for_flag(Loc::OF, |e| match left {
            true => {
                let top = e.msb(r, w);
                e.op(Opcode::I32Xor, &[top, cf])
            }
            false => {
                let next = e.bit(r, w.bits() - 2, w);
                e.op(Opcode::I32Xor, &[cf, next])
            }
        })
    };
    e.set(Loc::OF, of);
    e.write(&d, r);
    Some(true)
}

/// `rol`/`ror` by `cl`, at every width: the count masked to 5 bits (6
/// for 64-bit operands); 8 and 16 bits rotate by it modulo the width, as
/// two shifts. When the masked count is 0 nothing changes but a 32-bit
/// register's upper half (zero-extended); else `CF` is the bit rotated in
/// (bit 0 for `rol`, the top bit for `ror`) and `OF` the top bit `^` `CF`
/// (`rol`) or the top two bits' `^` (`ror`), Intel's for a count of 1
/// and QEMU's beyond; no other flag changes.
pub(super) fn rotate_cl(e: &mut Emitter<'_>, ins: &Instruction, left: bool) -> Option<bool> {
    let [d, _] = places::<2>(ins)?;
    let w = width(&d)?;
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let [c, nz, cw] = cl_count(e, w);
    let r = match w {
        W::B64 => {
            let code = if left {
                Opcode::I64Rotl
            } else {
                Opcode::I64Rotr
            };
            e.op(code, &[a, cw])
        }
        W::B32 => {
            let code = if left {
                Opcode::I32Rotl
            } else {
                Opcode::I32Rotr
            };
            e.op(code, &[a, c])
        }
        _ => {
            let bits = Operand::Const(w.bits() as i64);
            let k = e.op(Opcode::I32And, &[c, Operand::Const(w.bits() as i64 - 1)]);
            let back = e.op(Opcode::I32Sub, &[bits, k]);
            let (l, r) = if left { (k, back) } else { (back, k) };
            let hi = e.op(Opcode::I32Shl, &[a, l]);
            let lo = e.op(Opcode::I32ShrU, &[a, r]);
            let x = e.op(Opcode::I32Or, &[hi, lo]);
            e.trunc(x, w)
        }
    };
    let cf = if left { e.bit(r, 0, w) } else { e.msb(r, w) };
    let top = e.msb(r, w);
    let of = if left {
        e.op(Opcode::I32Xor, &[top, cf])
    } else {
        let next = e.bit(r, w.bits() - 2, w);
        e.op(Opcode::I32Xor, &[top, next])
    };
    e.set_if(Loc::CF, cf, nz);
    e.set_if(Loc::OF, of, nz);
    e.write(&d, r);
    Some(true)
}

/// `bsf`, `bsr`, `tzcnt`, `lzcnt`, `popcnt` on 32 or 64 bits. `bsf`/`bsr`
/// of 0 set `ZF` and leave the destination's value (a 32-bit one is
/// still zero-extended); `tzcnt`/`lzcnt` give the width and set `CF`.
pub(super) fn count_bits(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    if !matches!(w, W::B32 | W::B64) {
        return None;
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&s, w);
    let zero = e.opw(w, Opcode::I64Eqz, Opcode::I32Eqz, &[a]);
    let (ctz, clz, pop) = if w.is64() {
        (Opcode::I64Ctz, Opcode::I64Clz, Opcode::I64Popcnt)
    } else {
        (Opcode::I32Ctz, Opcode::I32Clz, Opcode::I32Popcnt)
    };
    let undef_rest = |e: &mut Emitter<'_>, locs: &[Loc]| {
        for &l in locs {
            e.set(l, Operand::Undef);
        }
    };
    match m {
        Mnemonic::Bsf | Mnemonic::Bsr => {
            let n = if m == Mnemonic::Bsf {
                e.op(ctz, &[a])
            } else {
                let z = e.op(clz, &[a]);
                e.opw(
                    w,
                    Opcode::I64Sub,
                    Opcode::I32Sub,
                    &[Operand::Const(w.bits() as i64 - 1), z],
                )
            };
            let old = e.read(&d, w);
            let nonzero = e.op(Opcode::I32Eqz, &[zero]);
            let r = e.tmp(if w.is64() { Type::I64 } else { Type::I32 });
            e.emit_into(Some(r), Opcode::Select, &[], &[n, old, nonzero]);
            e.set(Loc::ZF, zero);
            undef_rest(e, &[Loc::CF, Loc::OF, Loc::SF, Loc::AF, Loc::PF]);
            e.write(&d, Operand::Var(r));
        }
        Mnemonic::Popcnt => {
            let r = e.op(pop, &[a]);
            e.set(Loc::ZF, zero);
            for l in [Loc::CF, Loc::OF, Loc::SF, Loc::AF, Loc::PF] {
                e.set(l, Operand::Const(0));
            }
            e.write(&d, r);
        }
        _ => {
            let r = e.op(if m == Mnemonic::Tzcnt { ctz } else { clz }, &[a]);
            e.set(Loc::CF, zero);
            e.set_op(
                Loc::ZF,
                if w.is64() {
                    Opcode::I64Eqz
                } else {
                    Opcode::I32Eqz
                },
                &[r],
            );
            undef_rest(e, &[Loc::OF, Loc::SF, Loc::AF, Loc::PF]);
            e.write(&d, r);
        }
    }
    Some(true)
}

/// `bswap` of a 32- or 64-bit register: the bytes reversed, by masks and
/// rotations (the set has no byte swap).
pub(super) fn bswap(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let w = width(&d)?;
    if !matches!(w, W::B32 | W::B64) {
        return None;
    }
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let r = swap_bytes(e, a, w);
    e.write(&d, r);
    Some(true)
}

/// The bytes of `a` (at width `w`: 16, 32 or 64 bits) in reverse order.
fn swap_bytes(e: &mut Emitter<'_>, a: Operand, w: W) -> Operand {
    match w {
        W::B64 => {
            // Swap the halves, then the 16-bit pairs, then the bytes.
            let mut x = e.op(Opcode::I64Rotl, &[a, Operand::Const(32)]);
            for (mask, k) in [
                (0xffff_0000_ffff_0000u64 as i64, 16),
                (0xff00_ff00_ff00_ff00u64 as i64, 8),
            ] {
                let hi = e.op(Opcode::I64And, &[x, Operand::Const(mask)]);
                let hi = e.op(Opcode::I64ShrU, &[hi, Operand::Const(k)]);
                let lo = e.op(Opcode::I64Shl, &[x, Operand::Const(k)]);
                let lo = e.op(Opcode::I64And, &[lo, Operand::Const(mask)]);
                x = e.op(Opcode::I64Or, &[hi, lo]);
            }
            x
        }
        W::B32 => {
            let hi = e.op(
                Opcode::I32And,
                &[a, Operand::Const(0xff00_ff00u32 as i32 as i64)],
            );
            let hi = e.op(Opcode::I32Rotr, &[hi, Operand::Const(8)]);
            let lo = e.op(Opcode::I32And, &[a, Operand::Const(0x00ff_00ff)]);
            let lo = e.op(Opcode::I32Rotl, &[lo, Operand::Const(8)]);
            // Bytes swapped within each half; then the halves.
            let x = e.op(Opcode::I32Or, &[hi, lo]);
            e.op(Opcode::I32Rotl, &[x, Operand::Const(16)])
        }
        _ => {
            // 16 bits (zero-extended): the low byte up, the high one down.
            let hi = e.op(Opcode::I32Shl, &[a, Operand::Const(8)]);
            let lo = e.op(Opcode::I32ShrU, &[a, Operand::Const(8)]);
            let x = e.op(Opcode::I32Or, &[hi, lo]);
            e.trunc(x, W::B16)
        }
    }
}

/// `movbe dst, src` (a register and memory, 16, 32 or 64 bits): a move
/// with the bytes reversed; no flag. A 16-bit register destination keeps
/// its upper bits, a 32-bit one is zero-extended.
pub(super) fn movbe(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    if w == W::B8 {
        return None;
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&s, w);
    let r = swap_bytes(e, a, w);
    e.write(&d, r);
    Some(true)
}

/// `bt`/`bts`/`btr`/`btc` of a register (bit index from a register or an
/// immediate, masked to the width) or of memory by an immediate: `CF` the
/// bit, then set, cleared or flipped; `OF`, `SF`, `AF`, `PF` undefined,
/// `ZF` kept.
pub(super) fn bit_test(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    if !matches!(w, W::B32 | W::B64) || matches!((d, s), (Place::Mem { .. }, Place::Reg { .. })) {
        return None;
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let k = e.read(&s, w);
    let k = e.opw(
        w,
        Opcode::I64And,
        Opcode::I32And,
        &[k, Operand::Const(w.bits() as i64 - 1)],
    );
    let cf = e.for_flag(Loc::CF, |e| {
        let t = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, k]);
        e.bit(t, 0, w)
    });
    let one = e.opw(w, Opcode::I64Shl, Opcode::I32Shl, &[Operand::Const(1), k]);
    let r = match m {
        Mnemonic::Bts => Some(e.opw(w, Opcode::I64Or, Opcode::I32Or, &[a, one])),
        Mnemonic::Btc => Some(e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, one])),
        Mnemonic::Btr => {
            let not = e.opw(
                w,
                Opcode::I64Xor,
                Opcode::I32Xor,
                &[one, Operand::Const(-1)],
            );
            Some(e.opw(w, Opcode::I64And, Opcode::I32And, &[a, not]))
        }
        _ => None,
    };
    e.set(Loc::CF, cf);
    for l in [Loc::OF, Loc::SF, Loc::AF, Loc::PF] {
        e.set(l, Operand::Undef);
    }
    if let Some(r) = r {
        e.write(&d, r);
    }
    Some(true)
}

/// The BMI operations on 32 or 64 bits: `andn` (`!a & b`), `blsr` (`(a -
/// 1) & a`), `blsmsk` (`(a - 1) ^ a`), `blsi` (`-a & a`), `bzhi` (the bits
/// from index `b & 0xff` up cleared), and the shifts `shlx`/`shrx`/`sarx`
/// (count masked, no flag). `OF` is cleared, `AF` and `PF` undefined;
/// `CF` says the source was 0 (`blsr`, `blsmsk`), was not (`blsi`), or the
/// index was past the top (`bzhi`); `blsmsk` clears `ZF`.
pub(super) fn bmi(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let ps: [Place; 3] = match ins.op_count() {
        2 => {
            let [d, s] = places::<2>(ins)?;
            [d, s, s]
        }
        _ => places::<3>(ins)?,
    };
    let w = width(&ps[0])?;
    if !matches!(w, W::B32 | W::B64) {
        return None;
    }
    let [d, x, y] = ps.map(|p| e.resolve(p, w));
    let a = e.read(&x, w);
    let bits = w.bits() as i64;
    let (and, xor, sub) = (
        (Opcode::I64And, Opcode::I32And),
        (Opcode::I64Xor, Opcode::I32Xor),
        (Opcode::I64Sub, Opcode::I32Sub),
    );
    match m {
        Mnemonic::Shlx | Mnemonic::Shrx | Mnemonic::Sarx => {
            let c = e.read(&y, w);
            let c = e.opw(w, and.0, and.1, &[c, Operand::Const(bits - 1)]);
            let (c64, c32) = match m {
                Mnemonic::Shlx => (Opcode::I64Shl, Opcode::I32Shl),
                Mnemonic::Shrx => (Opcode::I64ShrU, Opcode::I32ShrU),
                _ => (Opcode::I64ShrS, Opcode::I32ShrS),
            };
            let r = e.opw(w, c64, c32, &[a, c]);
            e.write(&d, r);
            return Some(true);
        }
        _ => {}
    }
    let zero = e.opw(w, Opcode::I64Eqz, Opcode::I32Eqz, &[a]);
    let (r, cf) = match m {
        Mnemonic::Andn => {
            let b = e.read(&y, w);
            let n = e.opw(w, xor.0, xor.1, &[a, Operand::Const(-1)]);
            (e.opw(w, and.0, and.1, &[n, b]), Operand::Const(0))
        }
        Mnemonic::Blsr | Mnemonic::Blsmsk => {
            let m1 = e.opw(w, sub.0, sub.1, &[a, Operand::Const(1)]);
            let r = if m == Mnemonic::Blsr {
                e.opw(w, and.0, and.1, &[m1, a])
            } else {
                e.opw(w, xor.0, xor.1, &[m1, a])
            };
            (r, zero)
        }
        Mnemonic::Blsi => {
            let n = e.opw(w, sub.0, sub.1, &[Operand::Const(0), a]);
            let r = e.opw(w, and.0, and.1, &[n, a]);
            (r, e.op(Opcode::I32Eqz, &[zero]))
        }
        _ => {
            // bzhi: n = b & 0xff; n < bits ? a & ((1 << n) - 1) : a.
            let b = e.read(&y, w);
            let n = e.opw(w, and.0, and.1, &[b, Operand::Const(0xff)]);
            let one = e.opw(w, Opcode::I64Shl, Opcode::I32Shl, &[Operand::Const(1), n]);
            let mask = e.opw(w, sub.0, sub.1, &[one, Operand::Const(1)]);
            let cut = e.opw(w, and.0, and.1, &[a, mask]);
            let inside = e.opw(
                w,
                Opcode::I64LtU,
                Opcode::I32LtU,
                &[n, Operand::Const(bits)],
            );
            let r = e.tmp(if w.is64() { Type::I64 } else { Type::I32 });
            e.emit_into(Some(r), Opcode::Select, &[], &[cut, a, inside]);
            (Operand::Var(r), e.op(Opcode::I32Eqz, &[inside]))
        }
    };
    let sf = e.msb(r, w);
    e.set(Loc::SF, sf);
    if m == Mnemonic::Blsmsk {
        e.set(Loc::ZF, Operand::Const(0));
    } else {
        let zf = e.opw(w, Opcode::I64Eqz, Opcode::I32Eqz, &[r]);
        e.set(Loc::ZF, zf);
    }
    e.set(Loc::CF, cf);
    e.set(Loc::OF, Operand::Const(0));
    e.set(Loc::AF, Operand::Undef);
    e.set(Loc::PF, Operand::Undef);
    e.write(&d, r);
    Some(true)
}
