//! Additions, subtractions, comparisons and logic, with their flags.

use super::emitter::Emitter;
use super::operand::{places, width, Opnd, Place, W};
use crate::regs::Loc;
use iced_x86::{Instruction, Mnemonic};
use ssakit::ir::{Opcode, Operand, Type};

/// Whether both places are the same register (`xor eax, eax`).
pub(super) fn same_register(a: &Place, b: &Place) -> bool {
    matches!((a, b), (Place::Reg { loc: x, w: wx, high: hx }, Place::Reg { loc: y, w: wy, high: hy })
        if x == y && wx == wy && hx == hy)
}

/// Whether [`arith`] or [`logic`] covers `ins` (both operands placed, the
/// destination sized): when it does not, they emit nothing.
pub(super) fn covered_binary(ins: &Instruction) -> bool {
    places::<2>(ins).is_some_and(|[d, _]| width(&d).is_some())
}

/// Whether [`inc_dec`] or [`neg`] covers `ins`.
pub(super) fn covered_unary(ins: &Instruction) -> bool {
    places::<1>(ins).is_some_and(|[d]| width(&d).is_some())
}

/// `add`, `sub`, `cmp`.
pub(super) fn arith(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    if m == Mnemonic::Sub && same_register(&d, &s) {
        let d = e.resolve(d, w);
        e.write(&d, Operand::Const(0));
        zero_flags(e, false);
        return Some(true);
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let b = e.read(&s, w);
    let (c64, c32) = match m {
        Mnemonic::Add => (Opcode::I64Add, Opcode::I32Add),
        _ => (Opcode::I64Sub, Opcode::I32Sub),
    };
    let r = e.opw(w, c64, c32, &[a, b]);
    let r = e.trunc(r, w);
    if m == Mnemonic::Add {
        e.add_flags(a, b, r, w, false);
    } else {
        e.sub_flags(a, b, r, w, false);
    }
    if m != Mnemonic::Cmp {
        e.write(&d, r);
    }
    Some(true)
}

/// The flags of a zero idiom (`xor r, r`, `sub r, r`): constants.
pub(super) fn zero_flags(e: &mut Emitter<'_>, xor: bool) {
    for (l, v) in [
        (Loc::CF, 0),
        (Loc::OF, 0),
        (Loc::SF, 0),
        (Loc::ZF, 1),
        (Loc::PF, 1),
    ] {
        e.set(l, Operand::Const(v));
    }
    e.set(
        Loc::AF,
        if xor {
            Operand::Undef
        } else {
            Operand::Const(0)
        },
    );
}

/// `and`, `or`, `xor`, `test`.
pub(super) fn logic(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    if m == Mnemonic::Xor && same_register(&d, &s) {
        let d = e.resolve(d, w);
        e.write(&d, Operand::Const(0));
        zero_flags(e, true);
        return Some(true);
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let b = e.read(&s, w);
    let (c64, c32) = match m {
        Mnemonic::Or => (Opcode::I64Or, Opcode::I32Or),
        Mnemonic::Xor => (Opcode::I64Xor, Opcode::I32Xor),
        _ => (Opcode::I64And, Opcode::I32And),
    };
    let r = e.opw(w, c64, c32, &[a, b]);
    e.logic_flags(r, w);
    if m != Mnemonic::Test {
        e.write(&d, r);
    }
    Some(true)
}

/// `inc`/`dec`: an addition or subtraction of 1 that keeps `CF`.
pub(super) fn inc_dec(e: &mut Emitter<'_>, ins: &Instruction, inc: bool) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let w = width(&d)?;
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let one = Operand::Const(1);
    let r = if inc {
        e.opw(w, Opcode::I64Add, Opcode::I32Add, &[a, one])
    } else {
        e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[a, one])
    };
    let r = e.trunc(r, w);
    if inc {
        e.add_flags(a, one, r, w, true);
    } else {
        e.sub_flags(a, one, r, w, true);
    }
    e.write(&d, r);
    Some(true)
}

/// `neg`: `0 - x` with the flags of that subtraction.
pub(super) fn neg(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let w = width(&d)?;
    let d = e.resolve(d, w);
    let x = e.read(&d, w);
    let zero = Operand::Const(0);
    let r = e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[zero, x]);
    let r = e.trunc(r, w);
    e.sub_flags(zero, x, r, w, false);
    e.write(&d, r);
    Some(true)
}

/// `not`: every bit of the width flipped; no flag.
pub(super) fn not(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let w = width(&d)?;
    let d = e.resolve(d, w);
    let x = e.read(&d, w);
    let r = e.opw(
        w,
        Opcode::I64Xor,
        Opcode::I32Xor,
        &[x, Operand::Const(w.mask())],
    );
    e.write(&d, r);
    Some(true)
}

/// `adc`/`sbb`: `a + b + CF`, `a - b - CF`. The carry (borrow) out of the
/// top bit is the sign of `(a & b) | ((a | b) & !r)` (`(!a & b) | ((!a |
/// b) & r)`), which holds whatever the carry in.
pub(super) fn carry_arith(e: &mut Emitter<'_>, ins: &Instruction, add: bool) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let b = e.read(&s, w);
    let cf = e.var(Loc::CF);
    let cin = if w.is64() {
        e.op(Opcode::I64ExtendI32U, &[cf])
    } else {
        cf
    };
    let (c, c32) = if add {
        (Opcode::I64Add, Opcode::I32Add)
    } else {
        (Opcode::I64Sub, Opcode::I32Sub)
    };
    let t = e.opw(w, c, c32, &[a, b]);
    let r = e.opw(w, c, c32, &[t, cin]);
    let r = e.trunc(r, w);
    let x = if add {
        a
    } else {
        e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, Operand::Const(-1)])
    };
    let xr = if add {
        e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[r, Operand::Const(-1)])
    } else {
        r
    };
    let both = e.opw(w, Opcode::I64And, Opcode::I32And, &[x, b]);
    let either = e.opw(w, Opcode::I64Or, Opcode::I32Or, &[x, b]);
    let lost = e.opw(w, Opcode::I64And, Opcode::I32And, &[either, xr]);
    let carry = e.opw(w, Opcode::I64Or, Opcode::I32Or, &[both, lost]);
    let cout = e.msb(carry, w);
    let (p, q) = if add { (a, b) } else { (a, a) };
    let x = e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[p, r]);
    let y = if add {
        e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[q, r])
    } else {
        e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, b])
    };
    let both = e.opw(w, Opcode::I64And, Opcode::I32And, &[x, y]);
    let of = e.msb(both, w);
    e.set(Loc::CF, cout);
    e.set(Loc::OF, of);
    e.aux_flag(a, b, r, w);
    e.result_flags(r, w);
    e.write(&d, r);
    Some(true)
}

/// `cmpxchg dst, src` (single-threaded): the flags of `acc - dst`; if
/// equal `dst = src`, else the accumulator gets `dst` (the destination is
/// written back either way).
pub(super) fn cmpxchg(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let acc = Opnd::reg(Loc::RAX, w);
    let a = e.read(&acc, w);
    let old = e.read(&d, w);
    let src = e.read(&s, w);
    let r = e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[a, old]);
    let r = e.trunc(r, w);
    e.sub_flags(a, old, r, w, false);
    let ty = if w.is64() { Type::I64 } else { Type::I32 };
    let new = e.tmp(ty);
    let zf = e.var(Loc::ZF);
    e.emit_into(Some(new), Opcode::Select, &[], &[src, old, zf]);
    let old = if let Opnd::Reg { .. } = d {
        // The accumulator may be the destination: keep its old value.
        let t = e.tmp(ty);
        e.copy(t, old);
        Operand::Var(t)
    } else {
        old
    };
    e.write(&d, Operand::Var(new));
    if w == W::B32 {
        // The accumulator is written only when the values differ.
        let wide = e.op(Opcode::I64ExtendI32U, &[old]);
        let rax = e.vars[Loc::RAX];
        e.emit_into(
            Some(rax),
            Opcode::Select,
            &[],
            &[Operand::Var(rax), wide, zf],
        );
    } else {
        let cur = e.read(&acc, w);
        let t = e.tmp(ty);
        e.emit_into(Some(t), Opcode::Select, &[], &[cur, old, zf]);
        e.write(&acc, Operand::Var(t));
    }
    Some(true)
}

/// `xadd dst, src` (single-threaded): `dst = dst + src`, `src = old dst`,
/// the flags of the addition.
pub(super) fn xadd(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let b = e.read(&s, w);
    let a = if let (Operand::Var(_), true) = (a, w.is64()) {
        let t = e.tmp(Type::I64);
        e.copy(t, a);
        Operand::Var(t)
    } else {
        a
    };
    let r = e.opw(w, Opcode::I64Add, Opcode::I32Add, &[a, b]);
    let r = e.trunc(r, w);
    e.add_flags(a, b, r, w, false);
    if let Opnd::Mem { .. } = d {
        // Stored first: the source may be a register of its address.
        e.write(&d, r);
        e.write(&s, a);
    } else {
        e.write(&s, a);
        e.write(&d, r);
    }
    Some(true)
}
