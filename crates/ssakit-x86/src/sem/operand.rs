//! Operands: where an instruction's operands are ([`Place`], parsed
//! before anything is emitted) and what they are once addresses are
//! computed ([`Opnd`]), at a width ([`W`]).

use crate::regs::Loc;
use iced_x86::{Instruction, OpKind, Register};
use ssakit::ir::Operand;

/// The width of an operand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum W {
    B8,
    B16,
    B32,
    B64,
}

impl W {
    pub(super) fn of_bytes(n: usize) -> Option<W> {
        match n {
            1 => Some(W::B8),
            2 => Some(W::B16),
            4 => Some(W::B32),
            8 => Some(W::B64),
            _ => None,
        }
    }
    pub(super) fn bits(self) -> u32 {
        match self {
            W::B8 => 8,
            W::B16 => 16,
            W::B32 => 32,
            W::B64 => 64,
        }
    }
    /// The mask of the width's bits, as an operand of its type.
    pub(super) fn mask(self) -> i64 {
        match self {
            W::B8 => 0xff,
            W::B16 => 0xffff,
            W::B32 | W::B64 => -1,
        }
    }
    /// `i64` for 64 bits, else `i32`.
    pub(super) fn is64(self) -> bool {
        self == W::B64
    }
}

/// Where an operand is, before anything is emitted: parsing fails (the
/// instruction stays opaque) without leaving half an instruction behind.
#[derive(Clone, Copy, Debug)]
pub(super) enum Place {
    /// A general register at a width; `high` for `ah`..`bh`.
    Reg { loc: Loc, w: W, high: bool },
    /// An immediate, sign-extended to 64 bits by the decoder.
    Imm { v: i64 },
    /// A memory operand of `w` bytes.
    Mem { m: MemRef, w: Option<W> },
}

/// A segment whose base is added to an address: `fs:` or `gs:` (64-bit
/// mode ignores the others' bases).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Seg {
    Fs,
    Gs,
}

impl Seg {
    /// The name of the variable holding the base (a parameter of the
    /// lifted function).
    pub(super) fn base_name(self) -> &'static str {
        match self {
            Seg::Fs => "fs_base",
            Seg::Gs => "gs_base",
        }
    }
}

/// A memory operand's address, as the instruction encodes it.
#[derive(Clone, Copy, Debug)]
pub(super) struct MemRef {
    /// `fs:` or `gs:`, whose base the address adds.
    pub(super) seg: Option<Seg>,
    pub(super) base: Option<Loc>,
    pub(super) index: Option<Loc>,
    pub(super) scale: u32,
    pub(super) disp: i64,
}

/// An operand ready to be read or written: a register, an immediate, or
/// memory at a computed address.
#[derive(Clone, Copy, Debug)]
pub(super) enum Opnd {
    Reg { loc: Loc, w: W, high: bool },
    Imm { v: i64 },
    Mem { addr: Operand, w: W },
}

impl Opnd {
    /// The low `w` bits of general register `loc` (`al`, `ax`, `eax`,
    /// `rax` for `Loc::RAX`).
    pub(super) fn reg(loc: Loc, w: W) -> Opnd {
        Opnd::Reg {
            loc,
            w,
            high: false,
        }
    }
}

/// The place of operand `i` of `ins`, if the model covers it.
pub(super) fn place(ins: &Instruction, i: u32) -> Option<Place> {
    match ins.op_kind(i) {
        OpKind::Register => reg_place(ins.op_register(i)),
        OpKind::Memory => {
            let seg = match ins.memory_segment() {
                Register::FS => Some(Seg::Fs),
                Register::GS => Some(Seg::Gs),
                _ => None,
            };
            let w = W::of_bytes(ins.memory_size().size());
            if ins.is_ip_rel_memory_operand() {
                return Some(Place::Mem {
                    m: MemRef {
                        seg,
                        base: None,
                        index: None,
                        scale: 1,
                        disp: ins.ip_rel_memory_address() as i64,
                    },
                    w,
                });
            }
            let reg64 = |r: Register| -> Option<Option<Loc>> {
                match r {
                    Register::None => Some(None),
                    r if r.is_gpr64() => Some(Some(Loc::of_register(r)?)),
                    _ => None,
                }
            };
            Some(Place::Mem {
                m: MemRef {
                    seg,
                    base: reg64(ins.memory_base())?,
                    index: reg64(ins.memory_index())?,
                    scale: ins.memory_index_scale(),
                    disp: ins.memory_displacement64() as i64,
                },
                w,
            })
        }
        OpKind::Immediate8
        | OpKind::Immediate16
        | OpKind::Immediate32
        | OpKind::Immediate64
        | OpKind::Immediate8to16
        | OpKind::Immediate8to32
        | OpKind::Immediate8to64
        | OpKind::Immediate32to64 => Some(Place::Imm {
            v: ins.immediate(i) as i64,
        }),
        _ => None,
    }
}

pub(super) fn reg_place(r: Register) -> Option<Place> {
    if !r.is_gpr() {
        return None;
    }
    let loc = Loc::of_register(r)?;
    let high = matches!(r, Register::AH | Register::CH | Register::DH | Register::BH);
    Some(Place::Reg {
        loc,
        w: W::of_bytes(r.size())?,
        high,
    })
}

/// The places of the first `n` operands, if all are covered.
pub(super) fn places<const N: usize>(ins: &Instruction) -> Option<[Place; N]> {
    if ins.op_count() as usize != N {
        return None;
    }
    let mut out = [Place::Imm { v: 0 }; N];
    for (i, p) in out.iter_mut().enumerate() {
        *p = place(ins, i as u32)?;
    }
    Some(out)
}

/// The width of a register or sized memory place.
pub(super) fn width(p: &Place) -> Option<W> {
    match *p {
        Place::Reg { w, .. } => Some(w),
        Place::Mem { w, .. } => w,
        Place::Imm { .. } => None,
    }
}
