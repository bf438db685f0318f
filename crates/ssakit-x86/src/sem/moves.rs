//! Moves, extensions, `lea`, the stack, conditions as values, exchanges.

use super::emitter::Emitter;
use super::operand::{places, width, Opnd, Place, W};
use crate::regs::Loc;
use iced_x86::{Code, Instruction, Mnemonic};
use ssakit::ir::{Opcode, Operand, Type, Var};

/// `mov dst, src`: a copy at the destination's width.
pub(super) fn mov(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let v = e.read(&s, w);
    e.write(&d, v);
    Some(true)
}

/// `movzx`/`movsx`/`movsxd dst, src`: an extension to the destination's
/// width.
pub(super) fn extend(e: &mut Emitter<'_>, ins: &Instruction, signed: bool) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let (wd, ws) = (width(&d)?, width(&s)?);
    let (d, s) = (e.resolve(d, wd), e.resolve(s, ws));
    let v = e.read(&s, ws);
    let v = if signed {
        e.sext(v, ws, wd)
    } else {
        e.zext(v, ws, wd)
    };
    e.write(&d, v);
    Some(true)
}

/// `lea dst, [address]`: the address, as arithmetic.
pub(super) fn lea(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let Place::Mem { mut m, .. } = s else {
        return None;
    };
    // The effective address: `lea` adds no segment base.
    m.seg = None;
    let d = e.resolve(d, w);
    let a = e.address(&m);
    let v = match w {
        W::B64 => a,
        _ => {
            let lo = e.op(Opcode::I32WrapI64, &[a]);
            e.trunc(lo, w)
        }
    };
    e.write(&d, v);
    Some(true)
}

/// `push src` (64-bit): `rsp -= 8`, then the value stored at `[rsp]`
/// (read before `rsp` moves: `push rsp` pushes the old value).
pub(super) fn push(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [s] = places::<1>(ins)?;
    if ins.stack_pointer_increment() != -8 || matches!(width(&s), Some(w) if w != W::B64) {
        return None;
    }
    let s = e.resolve(s, W::B64);
    let v = e.read(&s, W::B64);
    let rsp = e.vars[Loc::RSP];
    let v = if v == Operand::Var(rsp) {
        let t = e.tmp(Type::I64);
        e.copy(t, v);
        Operand::Var(t)
    } else {
        v
    };
    push_value(e, v);
    Some(true)
}

/// `pop dst` (64-bit, a register or memory): the value at `[rsp]`, `rsp
/// += 8`, then the destination written (`pop rsp` keeps the loaded
/// value; a memory destination's address is computed with the new `rsp`,
/// as Intel specifies).
pub(super) fn pop(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    if ins.stack_pointer_increment() != 8 || width(&d) != Some(W::B64) {
        return None;
    }
    let rsp = e.vars[Loc::RSP];
    let v = e.tmp(Type::I64);
    e.emit_into(Some(v), Opcode::I64Load, &[0, 0, 0], &[Operand::Var(rsp)]);
    release(e, 8);
    let d = e.resolve(d, W::B64);
    e.write(&d, Operand::Var(v));
    Some(true)
}

/// `rsp += bytes`: what a `pop`, a `ret` (`8 + imm16`) or the callee's
/// return after a `call` does to the stack.
pub(crate) fn release(e: &mut Emitter<'_>, bytes: i64) {
    let rsp = e.vars[Loc::RSP];
    e.emit_into(
        Some(rsp),
        Opcode::I64Add,
        &[],
        &[Operand::Var(rsp), Operand::Const(bytes)],
    );
}

/// `rsp -= 8; [rsp] = v`.
fn push_value(e: &mut Emitter<'_>, v: Operand) {
    let rsp = e.vars[Loc::RSP];
    e.emit_into(
        Some(rsp),
        Opcode::I64Sub,
        &[],
        &[Operand::Var(rsp), Operand::Const(8)],
    );
    e.emit_into(None, Opcode::I64Store, &[0, 0, 0], &[Operand::Var(rsp), v]);
}

/// The push of a `call`'s return address, the constant address of the
/// next instruction, after `rsp` is saved in a temporary, which it
/// returns (for [`restore_rsp`] after the call); `None` (nothing emitted)
/// when the call's target operand reads `rsp` (`call [rsp + 8]`: the
/// opaque call reads its target from the registers before the push).
pub(crate) fn push_return_address(e: &mut Emitter<'_>, ins: &Instruction) -> Option<Var> {
    let reads_rsp = (0..ins.op_count()).any(|i| match ins.op_kind(i) {
        iced_x86::OpKind::Register => ins.op_register(i).full_register() == iced_x86::Register::RSP,
        iced_x86::OpKind::Memory => {
            ins.memory_base() == iced_x86::Register::RSP
                || ins.memory_index() == iced_x86::Register::RSP
        }
        _ => false,
    });
    if reads_rsp {
        return None;
    }
    let saved = e.tmp(Type::I64);
    e.copy(saved, Operand::Var(e.vars[Loc::RSP]));
    push_value(e, Operand::Const(ins.next_ip() as i64));
    Some(saved)
}

/// `rsp = saved`: after a call, the callee's `ret` has popped the return
/// address, leaving `rsp` as it was before the call. A copy rather than
/// `rsp + 8`, so that copy propagation sees the same value on both sides
/// of the call (no phi of `rsp` where paths with and without calls meet).
pub(crate) fn restore_rsp(e: &mut Emitter<'_>, saved: Var) {
    let rsp = e.vars[Loc::RSP];
    e.copy(rsp, Operand::Var(saved));
}

/// `enter size, 0` (64-bit): `push rbp; rbp = rsp; rsp -= size` (a
/// nesting level above 0, which copies frame pointers, stays opaque).
pub(super) fn enter(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    if ins.code() != Code::Enterq_imm16_imm8 || ins.immediate8_2nd() != 0 {
        return None;
    }
    let (rsp, rbp) = (e.vars[Loc::RSP], e.vars[Loc::RBP]);
    push_value(e, Operand::Var(rbp));
    e.copy(rbp, Operand::Var(rsp));
    e.emit_into(
        Some(rsp),
        Opcode::I64Sub,
        &[],
        &[Operand::Var(rsp), Operand::Const(ins.immediate16() as i64)],
    );
    Some(true)
}

/// `leave` (64-bit): `rsp = rbp`, then `pop rbp`.
pub(super) fn leave(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    if ins.code() != Code::Leaveq {
        return None; // `leave` of 16 bits (a 0x66 prefix)
    }
    let (rsp, rbp) = (e.vars[Loc::RSP], e.vars[Loc::RBP]);
    e.copy(rsp, Operand::Var(rbp));
    e.emit_into(Some(rbp), Opcode::I64Load, &[0, 0, 0], &[Operand::Var(rsp)]);
    release(e, 8);
    Some(true)
}

/// Whether `ins` is a `setcc` (iced-x86's codes `Seto_rm8` to
/// `Setg_rm8`).
pub(super) fn is_setcc(ins: &Instruction) -> bool {
    (Code::Seto_rm8 as u32..=Code::Setg_rm8 as u32).contains(&(ins.code() as u32))
}

/// `setcc dst`: a byte of 0 or 1.
pub(super) fn setcc(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let d = e.resolve(d, W::B8);
    let c = e.condition(ins.condition_code())?;
    e.write(&d, c);
    Some(true)
}

/// `cmovcc dst, src`: a `select` (a 32-bit `cmov` zero-extends whether it
/// moves or not; a memory source is loaded either way).
pub(super) fn cmov(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let v = e.read(&s, w);
    let old = e.read(&d, w);
    let c = e.condition(ins.condition_code())?;
    let r = e.tmp(if w.is64() { Type::I64 } else { Type::I32 });
    e.emit_into(Some(r), Opcode::Select, &[], &[v, old, c]);
    e.write(&d, Operand::Var(r));
    Some(true)
}

/// `cdqe`, `cwde` (sign extension of the accumulator), `cqo`, `cdq`,
/// `cwd` (its sign into `rdx`/`edx`/`dx`).
pub(super) fn convert(e: &mut Emitter<'_>, m: Mnemonic) -> Option<bool> {
    let acc = |w| Opnd::reg(Loc::RAX, w);
    let dx = |w| Opnd::reg(Loc::RDX, w);
    match m {
        Mnemonic::Cdqe => {
            let v = e.read(&acc(W::B32), W::B32);
            let v = e.sext(v, W::B32, W::B64);
            e.write(&acc(W::B64), v);
        }
        Mnemonic::Cwde => {
            let v = e.read(&acc(W::B16), W::B16);
            let v = e.sext(v, W::B16, W::B32);
            e.write(&acc(W::B32), v);
        }
        Mnemonic::Cqo => {
            let v = e.read(&acc(W::B64), W::B64);
            let s = e.op(Opcode::I64ShrS, &[v, Operand::Const(63)]);
            e.write(&dx(W::B64), s);
        }
        Mnemonic::Cwd => {
            let v = e.read(&acc(W::B16), W::B16);
            let v = e.sext(v, W::B16, W::B32);
            let s = e.op(Opcode::I32ShrS, &[v, Operand::Const(31)]);
            let s = e.trunc(s, W::B16);
            e.write(&dx(W::B16), s);
        }
        _ => {
            let v = e.read(&acc(W::B32), W::B32);
            let s = e.op(Opcode::I32ShrS, &[v, Operand::Const(31)]);
            e.write(&dx(W::B32), s);
        }
    }
    Some(true)
}

/// `xchg a, b`: both read, then both written (a memory operand is one
/// load and one store: the single-threaded meaning of its `lock`).
pub(super) fn xchg(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [a, b] = places::<2>(ins)?;
    let w = width(&a)?;
    let (a, b) = (e.resolve(a, w), e.resolve(b, w));
    let va = e.read(&a, w);
    let vb = e.read(&b, w);
    let va = if let (Operand::Var(_), Opnd::Reg { w: W::B64, .. }) = (va, a) {
        let t = e.tmp(Type::I64);
        e.copy(t, va);
        Operand::Var(t)
    } else {
        va
    };
    // A memory operand is stored first: the register may be part of its
    // address.
    if let Opnd::Mem { .. } = b {
        e.write(&b, va);
        e.write(&a, vb);
    } else {
        e.write(&a, vb);
        e.write(&b, va);
    }
    Some(true)
}
