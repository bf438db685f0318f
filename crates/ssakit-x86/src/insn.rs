//! The vocabulary of a recovered control-flow graph ([`crate::cfg`]),
//! shared by the shape matcher and the data-flow slicer of jump tables:
//! a decoded instruction with what it reads and writes ([`Insn`]), where
//! a transfer goes ([`Target`]), how a block ends ([`End`]). The types
//! are public as `ssakit_x86::cfg::{Insn, Target, End}`.

use crate::regs::Access;
use iced_x86::{Instruction, OpKind};

/// Where a control transfer goes.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// use ssakit_x86::cfg::{recover, End, Target};
/// let f = bin.functions().iter().find(|f| f.name == "classify").unwrap();
/// let cfg = recover(&bin, f);
/// // `cmp edi, 7; ja classify.cold`: the default leaves the function.
/// let End::Branch(Target::Outside(cold), Target::Inside(_)) = cfg.blocks[0].end else { panic!() };
/// assert_eq!(bin.functions().iter().find(|g| g.extent.start == cold).unwrap().name, "classify.cold");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A block of this function, by address.
    Inside(u64),
    /// Outside the extent (a tail call when taken).
    Outside(u64),
}

/// How a block ends.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// use ssakit_x86::cfg::{recover, End};
/// let f = bin.functions().iter().find(|f| f.name == "checked").unwrap();
/// let ends: Vec<End> = recover(&bin, f).blocks.into_iter().map(|b| b.end).collect();
/// assert!(ends.contains(&End::Ret) && ends.contains(&End::NoReturn)); // `call die`
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Falls or jumps to the block at this address.
    Jump(u64),
    /// A conditional branch (its last instruction): taken, fall-through.
    Branch(Target, Target),
    /// A resolved jump table: the targets by index, and the default.
    Switch(Vec<Target>, Target),
    /// `ret`.
    Ret,
    /// A jump leaving the function: to a known address, or unresolved.
    TailCall(Option<u64>),
    /// The last instruction never returns.
    NoReturn,
    /// The last instruction is a call covered by a landing pad
    /// ([`crate::except`]): it returns to `next` (`None` when its
    /// fall-through leaves the extent: it only leaves by unwinding), or
    /// unwinds to `pad`, with the exception pointer in `rax` and the
    /// selector in `rdx` (both written by the call).
    Invoke {
        /// The fall-through, inside the extent.
        next: Option<u64>,
        /// The landing pad.
        pad: Target,
    },
}

/// A decoded instruction and its reads, writes and flow.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let f = bin.functions().iter().find(|f| f.name == "maxl").unwrap();
/// let cfg = ssakit_x86::cfg::recover(&bin, f);
/// let cmov = cfg.insts.iter().find(|i| i.ins.mnemonic() == iced_x86::Mnemonic::Cmovge).unwrap();
/// let rax = ssakit_x86::regs::Loc::RAX;
/// assert_eq!(cmov.access.writes, ssakit_x86::regs::LocSet::of(&[rax])); // no flag
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Insn {
    /// The instruction (its address is `ins.ip()`).
    pub ins: Instruction,
    /// What it reads and writes, and where control goes next.
    pub access: Access,
}

/// An immediate operand, of any width.
pub(crate) fn is_imm(k: OpKind) -> bool {
    matches!(
        k,
        OpKind::Immediate8
            | OpKind::Immediate16
            | OpKind::Immediate32
            | OpKind::Immediate8to32
            | OpKind::Immediate8to64
            | OpKind::Immediate32to64
            | OpKind::Immediate64
    )
}
