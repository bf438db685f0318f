//! The double-precision shifts `shld` and `shrd`: the destination shifted,
//! the vacated bits filled from a second register.

use super::bits::cl_count;
use super::emitter::Emitter;
use super::operand::{places, width, Place, W};
use crate::regs::Loc;
use iced_x86::Instruction;
use ssakit::ir::{Opcode, Operand, Type};

/// `shld dst, src, count` (`shrd`): on 32 or 64 bits, the count an
/// immediate or `cl`, masked to 5 (6) bits. `shld`: `r = (dst << c) |
/// (src >> (w - c))`, `CF` bit `w - c` of `dst`; `shrd`: `r = (dst >> c)
/// | (src << (w - c))`, `CF` bit `c - 1` of `dst`. `OF` says the sign
/// changed for a count of 1 and is `undef` above (Intel's definition;
/// QEMU computes something else there), `SF ZF PF` are `r`'s, `AF`
/// undefined. A count of 0 changes nothing (a 32-bit register is still
/// zero-extended): an immediate 0 stays opaque, `cl` selects. 16-bit
/// operands (whose counts may exceed the width) and memory destinations
/// stay opaque (under Unicorn a `rip`-relative `shld [m], r, imm8`
/// stores another value; not checked on a CPU yet).
pub(super) fn double_shift(e: &mut Emitter<'_>, ins: &Instruction, left: bool) -> Option<bool> {
    let [d, s, k] = places::<3>(ins)?;
    let w = width(&d)?;
    if !matches!(w, W::B32 | W::B64) || !matches!(d, Place::Reg { .. }) {
        return None;
    }
    let mask = if w.is64() { 63 } else { 31 };
    let imm = match k {
        Place::Imm { v } => Some(v & mask),
        _ if count_in_cl_at(ins, 2) => None,
        _ => return None,
    };
    if imm == Some(0) {
        return None;
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let b = e.read(&s, w);
    let (cw, nz) = match imm {
        Some(c) => (Operand::Const(c), None),
        None => {
            let [_, nz, cw] = cl_count(e, w);
            (cw, Some(nz))
        }
    };
    let bits = Operand::Const(w.bits() as i64);
    let back = e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[bits, cw]);
    let c1 = e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[cw, Operand::Const(1)]);
    let (shl, shr) = (
        (Opcode::I64Shl, Opcode::I32Shl),
        (Opcode::I64ShrU, Opcode::I32ShrU),
    );
    let (toward, from) = if left { (shl, shr) } else { (shr, shl) };
    let x = e.opw(w, toward.0, toward.1, &[a, cw]);
    let y = e.opw(w, from.0, from.1, &[b, back]);
    let r = e.opw(w, Opcode::I64Or, Opcode::I32Or, &[x, y]);
    let cf = if left {
        let t = e.opw(w, Opcode::I64Shl, Opcode::I32Shl, &[a, c1]);
        e.msb(t, w)
    } else {
        let t = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, c1]);
        e.bit(t, 0, w)
    };
    let of = match imm {
        Some(1) | None => {
            let x = e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, r]);
            e.msb(x, w)
        }
        Some(_) => Operand::Undef,
    };
    // By `cl`: `undef` above a count of 1, as Intel leaves it.
    let of = match nz {
        Some(_) => {
            let one = e.opw(w, Opcode::I64Eq, Opcode::I32Eq, &[cw, Operand::Const(1)]);
            let t = e.tmp(Type::I32);
            e.emit_into(Some(t), Opcode::Select, &[], &[of, Operand::Undef, one]);
            Operand::Var(t)
        }
        None => of,
    };
    let [sf, zf, pf] = e.result_flag_values(r, w);
    let r = match nz {
        None => r,
        Some(nz) => {
            let t = e.tmp(if w.is64() { Type::I64 } else { Type::I32 });
            e.emit_into(Some(t), Opcode::Select, &[], &[r, a, nz]);
            Operand::Var(t)
        }
    };
    for (l, v) in [
        (Loc::CF, cf),
        (Loc::OF, of),
        (Loc::SF, sf),
        (Loc::ZF, zf),
        (Loc::PF, pf),
    ] {
        match nz {
            None => e.set(l, v),
            Some(nz) => e.set_if(l, v, nz),
        }
    }
    match nz {
        None => e.set(Loc::AF, Operand::Undef),
        Some(nz) => e.set_if(Loc::AF, Operand::Undef, nz),
    }
    e.write(&d, r);
    Some(true)
}

/// Whether operand `i` of `ins` is `cl`.
fn count_in_cl_at(ins: &Instruction, i: u32) -> bool {
    ins.op_kind(i) == iced_x86::OpKind::Register && ins.op_register(i) == iced_x86::Register::CL
}
