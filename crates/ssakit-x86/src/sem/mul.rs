//! Multiplications: the low half, the double-width product, overflow.

use super::emitter::Emitter;
use super::operand::{places, width, Opnd, W};
use crate::regs::{Loc, LocSet};
use iced_x86::Instruction;
use ssakit::ir::{Opcode, Operand};

/// `CF` and `OF`, which both get the overflow.
const CF_OF: LocSet = LocSet::of(&[Loc::CF, Loc::OF]);

/// `imul` with two or three operands: the low half of the signed product;
/// `CF = OF` = the product does not fit; `SF`, `ZF`, `AF`, `PF` undefined.
pub(super) fn imul(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let (d, x, y) = match ins.op_count() {
        2 => {
            let [d, s] = places::<2>(ins)?;
            (d, d, s)
        }
        3 => {
            let [d, s, i] = places::<3>(ins)?;
            (d, s, i)
        }
        _ => return None,
    };
    let w = width(&d)?;
    if w == W::B8 {
        return None;
    }
    let (d, x, y) = (e.resolve(d, w), e.resolve(x, w), e.resolve(y, w));
    let a = e.read(&x, w);
    let b = e.read(&y, w);
    let (r, over) = match w {
        W::B64 => {
            let r = e.op(Opcode::I64Mul, &[a, b]);
            let over = e.for_flags(CF_OF, |e| {
                let hi = mul_high(e, a, b, true);
                let sign = e.op(Opcode::I64ShrS, &[r, Operand::Const(63)]);
                e.op(Opcode::I64Ne, &[hi, sign])
            });
            (r, over)
        }
        W::B32 => {
            let a = e.op(Opcode::I64ExtendI32S, &[a]);
            let b = e.op(Opcode::I64ExtendI32S, &[b]);
            let p = e.op(Opcode::I64Mul, &[a, b]);
            let r = e.op(Opcode::I32WrapI64, &[p]);
            let over = e.for_flags(CF_OF, |e| {
                let back = e.op(Opcode::I64ExtendI32S, &[r]);
                e.op(Opcode::I64Ne, &[p, back])
            });
            (r, over)
        }
        _ => {
            let a = e.op(Opcode::I32Extend16S, &[a]);
            let b = e.op(Opcode::I32Extend16S, &[b]);
            let p = e.op(Opcode::I32Mul, &[a, b]);
            let over = e.for_flags(CF_OF, |e| {
                let back = e.op(Opcode::I32Extend16S, &[p]);
                e.op(Opcode::I32Ne, &[p, back])
            });
            (e.trunc(p, w), over)
        }
    };
    e.set(Loc::CF, over);
    e.set(Loc::OF, over);
    for l in [Loc::SF, Loc::ZF, Loc::AF, Loc::PF] {
        e.set(l, Operand::Undef);
    }
    e.write(&d, r);
    Some(true)
}

/// The high 64 bits of the 128-bit product `a * b` (the set's
/// `i64.mul_high_s`/`i64.mul_high_u`).
pub(super) fn mul_high(e: &mut Emitter<'_>, a: Operand, b: Operand, signed: bool) -> Operand {
    let code = if signed {
        Opcode::I64MulHighS
    } else {
        Opcode::I64MulHighU
    };
    e.op(code, &[a, b])
}

/// `mul`/`imul` of one operand: the accumulator times it, the double-width
/// product in `dx:ax`-`rdx:rax` (`ax` for 8 bits); `CF = OF` = the high
/// half is not the extension of the low one; the other flags undefined.
pub(super) fn widening_mul(e: &mut Emitter<'_>, ins: &Instruction, signed: bool) -> Option<bool> {
    let [s] = places::<1>(ins)?;
    let w = width(&s)?;
    let s = e.resolve(s, w);
    let acc = |w| Opnd::reg(Loc::RAX, w);
    let dx = |w| Opnd::reg(Loc::RDX, w);
    let a = e.read(&acc(w), w);
    let b = e.read(&s, w);
    let over = match w {
        W::B64 => {
            let lo = e.op(Opcode::I64Mul, &[a, b]);
            let hi = mul_high(e, a, b, signed);
            let over = e.for_flags(CF_OF, |e| {
                let ext = if signed {
                    e.op(Opcode::I64ShrS, &[lo, Operand::Const(63)])
                } else {
                    Operand::Const(0)
                };
                e.op(Opcode::I64Ne, &[hi, ext])
            });
            e.write(&acc(W::B64), lo);
            e.write(&dx(W::B64), hi);
            over
        }
        W::B32 => {
            let ext = if signed {
                Opcode::I64ExtendI32S
            } else {
                Opcode::I64ExtendI32U
            };
            let a = e.op(ext, &[a]);
            let b = e.op(ext, &[b]);
            let p = e.op(Opcode::I64Mul, &[a, b]);
            let lo = e.op(Opcode::I32WrapI64, &[p]);
            let hi = e.op(Opcode::I64ShrU, &[p, Operand::Const(32)]);
            let hi = e.op(Opcode::I32WrapI64, &[hi]);
            let over = e.for_flags(CF_OF, |e| {
                let back = e.op(ext, &[lo]);
                e.op(Opcode::I64Ne, &[p, back])
            });
            e.write(&acc(W::B32), lo);
            e.write(&dx(W::B32), hi);
            over
        }
        W::B16 | W::B8 => {
            let (a, b) = if signed {
                (e.sext(a, w, W::B32), e.sext(b, w, W::B32))
            } else {
                (a, b)
            };
            let p = e.op(Opcode::I32Mul, &[a, b]);
            let lo = e.trunc(p, w);
            let over = e.for_flags(CF_OF, |e| {
                let back = if signed { e.sext(lo, w, W::B32) } else { lo };
                e.op(Opcode::I32Ne, &[p, back])
            });
            if w == W::B8 {
                let ax = e.trunc(p, W::B16);
                e.write(&acc(W::B16), ax);
            } else {
                let hi = e.op(Opcode::I32ShrU, &[p, Operand::Const(16)]);
                let hi = e.trunc(hi, W::B16);
                e.write(&acc(W::B16), lo);
                e.write(&dx(W::B16), hi);
            }
            over
        }
    };
    e.set(Loc::CF, over);
    e.set(Loc::OF, over);
    for l in [Loc::SF, Loc::ZF, Loc::AF, Loc::PF] {
        e.set(l, Operand::Undef);
    }
    Some(true)
}
