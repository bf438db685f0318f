//! Divisions: `div` and `idiv` at every width, on the set's double-width
//! division (`i64.div_wide_u[w]`, `i64.rem_wide_u[w]` and their signed
//! forms), which traps as x86's `#DE` does: on a zero divisor and on a
//! quotient that does not fit in the width.

use super::emitter::Emitter;
use super::operand::{places, width, Opnd, W};
use crate::regs::Loc;
use iced_x86::Instruction;
use ssakit::ir::{Opcode, Operand, Type};

/// `div`/`idiv src`: the dividend `hi:lo` is `ah:al` (8 bits), `dx:ax`,
/// `edx:eax` or `rdx:rax`; the quotient goes to `al`/`ax`/`eax`/`rax`, the
/// remainder to `ah`/`dx`/`edx`/`rdx` (both read before either is
/// written); every flag is undefined.
pub(super) fn divide(e: &mut Emitter<'_>, ins: &Instruction, signed: bool) -> Option<bool> {
    let [s] = places::<1>(ins)?;
    let w = width(&s)?;
    let s = e.resolve(s, w);
    let (hi, lo) = match w {
        W::B8 => (
            Opnd::Reg {
                loc: Loc::RAX,
                w,
                high: true,
            },
            Opnd::reg(Loc::RAX, w),
        ),
        _ => (Opnd::reg(Loc::RDX, w), Opnd::reg(Loc::RAX, w)),
    };
    let mut args = [Operand::Const(0); 3];
    for (k, o) in [hi, lo, s].iter().enumerate() {
        let v = e.read(o, w);
        args[k] = e.zext(v, w, W::B64);
    }
    let (div, rem) = if signed {
        (Opcode::I64DivWideS, Opcode::I64RemWideS)
    } else {
        (Opcode::I64DivWideU, Opcode::I64RemWideU)
    };
    let bits = [w.bits() as i64];
    let mut out = [Operand::Const(0); 2];
    for (k, code) in [div, rem].into_iter().enumerate() {
        let t = e.tmp(Type::I64);
        e.emit_into(Some(t), code, &bits, &args);
        out[k] = if w.is64() {
            Operand::Var(t)
        } else {
            let lo = e.op(Opcode::I32WrapI64, &[Operand::Var(t)]);
            e.trunc(lo, w)
        };
    }
    e.write(&lo, out[0]);
    e.write(&hi, out[1]);
    for l in [Loc::CF, Loc::OF, Loc::SF, Loc::ZF, Loc::AF, Loc::PF] {
        e.set(l, Operand::Undef);
    }
    Some(true)
}
