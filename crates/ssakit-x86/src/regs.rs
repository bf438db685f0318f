//! The machine model: the machine state as the chapter's variables, and
//! what each instruction does with it. One [`Access`] per instruction,
//! computed once (from iced-x86's register, flag and flow information,
//! then the rules below; for the most frequent instructions, `mov`,
//! `lea`, `add`, `cmp`, `push`, `call` and the like, from their operands
//! directly, which a test checks gives the same), is read by both the
//! control-flow recovery and the lifter: what it reads and writes, its
//! effect class and its [`Flow`].
//!
//! The variables ([`Loc`]; sets of them [`LocSet`], tables keyed by them
//! [`LocMap`]) are the sixteen general registers (`i64`), the six status
//! flags and `DF` (`bool`), and `xmm0`–`xmm15` (`v128`), in this order
//! (the general registers in the encoding's order, `rax rcx rdx rbx rsp
//! rbp rsi rdi r8`–`r15`): a lifted function's parameters, and an
//! operation's reads and writes, are listed in it. Only this module
//! knows how a location is numbered. What is not modelled: segment registers (an `fs:` access is a
//! memory access), `rip`, the x87 stack, `mxcsr`, AVX-512's
//! `xmm16`–`xmm31` and mask registers; an instruction touching only those
//! reads and writes no variable.
//!
//! The rules, where iced-x86's access kinds are not the whole story
//! (section 13.8 of the chapter: a register is a variable only once its
//! partial writes are made explicit):
//!
//! * a 32-bit write defines the whole register (the CPU zeroes the upper
//!   half): a definition only; iced reports it as a write of the 64-bit
//!   register;
//! * an 8- or 16-bit write merges into the old value: a definition that
//!   also reads the register;
//! * a conditional write (`cmov`, `rep` string operations, a shift by
//!   `cl` that leaves the flags alone when the count is 0) reads what it
//!   may leave unchanged;
//! * zero idioms (`xor eax, eax`, `pxor xmm0, xmm0`) read nothing (iced
//!   reports them so);
//! * a flag an instruction leaves undefined is written, so no later use
//!   reads a stale definition;
//! * a VEX write of an `xmm` register defines it (the upper lanes are
//!   zeroed); a legacy-SSE scalar write merges (iced reports a read).
//!
//! Calls, returns and `syscall` follow the System V ABI (the default
//! [convention](crate::conv); a Go binary's calls follow Go's):
//! [`LocSet::CALL_READS`], [`LocSet::CALL_WRITES`], [`LocSet::RET_READS`],
//! [`LocSet::SYSCALL_READS`], [`LocSet::SYSCALL_WRITES`]. `syscall` is
//! handled here only: it returns to the next instruction, so its
//! [`Flow`] is [`Flow::Next`] and its reads and writes are the kernel's
//! ABI; recovery and lifting treat it as any other operation.

use iced_x86::{
    Code, FlowControl, Instruction, InstructionInfoFactory, Mnemonic, OpAccess, OpKind, Register,
    RflagsBits,
};
use ssakit::ir::{Effects, Type};
use std::fmt;
use std::sync::OnceLock;

/// What a location is.
///
/// ```
/// use ssakit_x86::regs::{Loc, LocKind};
/// assert_eq!([Loc::RSP.kind(), Loc::ZF.kind(), Loc::xmm(7).kind()], [LocKind::Gpr, LocKind::Flag, LocKind::Vector]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocKind {
    /// A general register, `rax`…`r15` (`i64`).
    Gpr,
    /// A status flag or `DF` (`bool`).
    Flag,
    /// A vector register, `xmm0`…`xmm15` (`v128`).
    Vector,
}

/// A modelled location: a general register, a flag or a vector register.
/// Locations are ordered as the module doc says; [`LocSet`] iterates in
/// that order and [`LocMap`] has one entry per location.
///
/// ```
/// use ssakit::ir::Type;
/// use ssakit_x86::regs::Loc;
/// assert_eq!((Loc::R9.name(), Loc::R9.ty()), ("r9", Type::I64));
/// assert_eq!((Loc::OF.name(), Loc::OF.ty()), ("of", Type::Bool));
/// assert_eq!((Loc::xmm(3).name(), Loc::xmm(3).ty()), ("xmm3", Type::V128));
/// assert!(Loc::R15 < Loc::CF && Loc::DF < Loc::xmm(0));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc(u8);

/// The first flag and the first vector register in the numbering.
const FLAG0: u8 = 16;
const XMM0: u8 = 23;
/// The number of locations.
const NUM_LOCS: usize = 39;

const NAMES: [&str; NUM_LOCS] = [
    "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
    "r14", "r15", "cf", "pf", "af", "zf", "sf", "of", "df", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
    "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
];

/// The flags in order, with their bit in iced-x86's `RflagsBits`.
const FLAG_BITS: [(Loc, u32); 7] = [
    (Loc::CF, RflagsBits::CF),
    (Loc::PF, RflagsBits::PF),
    (Loc::AF, RflagsBits::AF),
    (Loc::ZF, RflagsBits::ZF),
    (Loc::SF, RflagsBits::SF),
    (Loc::OF, RflagsBits::OF),
    (Loc::DF, RflagsBits::DF),
];

impl Loc {
    /// `rax`.
    pub const RAX: Loc = Loc(0);
    /// `rcx`.
    pub const RCX: Loc = Loc(1);
    /// `rdx`.
    pub const RDX: Loc = Loc(2);
    /// `rbx`.
    pub const RBX: Loc = Loc(3);
    /// `rsp`.
    pub const RSP: Loc = Loc(4);
    /// `rbp`.
    pub const RBP: Loc = Loc(5);
    /// `rsi`.
    pub const RSI: Loc = Loc(6);
    /// `rdi`.
    pub const RDI: Loc = Loc(7);
    /// `r8`.
    pub const R8: Loc = Loc(8);
    /// `r9`.
    pub const R9: Loc = Loc(9);
    /// `r10`.
    pub const R10: Loc = Loc(10);
    /// `r11`.
    pub const R11: Loc = Loc(11);
    /// `r12`.
    pub const R12: Loc = Loc(12);
    /// `r13`.
    pub const R13: Loc = Loc(13);
    /// `r14`.
    pub const R14: Loc = Loc(14);
    /// `r15`.
    pub const R15: Loc = Loc(15);
    /// The carry flag.
    pub const CF: Loc = Loc(FLAG0);
    /// The parity flag.
    pub const PF: Loc = Loc(FLAG0 + 1);
    /// The auxiliary carry flag.
    pub const AF: Loc = Loc(FLAG0 + 2);
    /// The zero flag.
    pub const ZF: Loc = Loc(FLAG0 + 3);
    /// The sign flag.
    pub const SF: Loc = Loc(FLAG0 + 4);
    /// The overflow flag.
    pub const OF: Loc = Loc(FLAG0 + 5);
    /// The direction flag.
    pub const DF: Loc = Loc(FLAG0 + 6);

    /// Vector register `xmm{i}`, `i < 16`.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::regs::Loc::xmm(15).to_string(), "xmm15");
    /// ```
    pub const fn xmm(i: u8) -> Loc {
        assert!(i < 16, "xmm16-xmm31 are not modelled");
        Loc(XMM0 + i)
    }

    /// What the location is.
    ///
    /// ```
    /// use ssakit_x86::regs::{Loc, LocKind};
    /// assert_eq!(Loc::DF.kind(), LocKind::Flag);
    /// ```
    pub const fn kind(self) -> LocKind {
        if self.0 < FLAG0 {
            LocKind::Gpr
        } else if self.0 < XMM0 {
            LocKind::Flag
        } else {
            LocKind::Vector
        }
    }

    /// Whether it is a general register.
    ///
    /// ```
    /// use ssakit_x86::regs::Loc;
    /// assert!(Loc::R12.is_gpr() && !Loc::CF.is_gpr());
    /// ```
    pub const fn is_gpr(self) -> bool {
        matches!(self.kind(), LocKind::Gpr)
    }

    /// Its number in the model's order: `0..16` for the general
    /// registers (`rax` first), then the flags, then the vector registers.
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its name as a variable (`rax`, `zf`, `xmm3`).
    ///
    /// ```
    /// use ssakit_x86::regs::Loc;
    /// assert_eq!([Loc::RAX.name(), Loc::ZF.name(), Loc::xmm(3).name()], ["rax", "zf", "xmm3"]);
    /// ```
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// Its type as a variable: `i64`, `bool` or `v128`.
    ///
    /// ```
    /// use ssakit::ir::Type;
    /// use ssakit_x86::regs::Loc;
    /// assert_eq!([Loc::RAX.ty(), Loc::CF.ty(), Loc::xmm(0).ty()], [Type::I64, Type::Bool, Type::V128]);
    /// ```
    pub const fn ty(self) -> Type {
        match self.kind() {
            LocKind::Gpr => Type::I64,
            LocKind::Flag => Type::Bool,
            LocKind::Vector => Type::V128,
        }
    }

    /// The location register `r` is part of, if it is modelled: a general
    /// register of any width is its 64-bit register, an `xmm`, `ymm` or
    /// `zmm` register below 16 its `xmm` register.
    ///
    /// ```
    /// use iced_x86::Register;
    /// use ssakit_x86::regs::Loc;
    /// assert_eq!(Loc::of_register(Register::AH), Some(Loc::RAX));
    /// assert_eq!(Loc::of_register(Register::R9D), Some(Loc::R9));
    /// assert_eq!(Loc::of_register(Register::YMM2), Some(Loc::xmm(2)));
    /// assert_eq!(Loc::of_register(Register::XMM16), None);
    /// assert_eq!(Loc::of_register(Register::FS), None);
    /// ```
    pub fn of_register(r: Register) -> Option<Loc> {
        if r.is_gpr() {
            return Some(Loc(r.full_register().number() as u8));
        }
        if r.is_xmm() || r.is_ymm() || r.is_zmm() {
            let n = r.number();
            return (n < 16).then(|| Loc::xmm(n as u8));
        }
        None
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of locations, one bit each.
///
/// ```
/// use ssakit_x86::regs::{Loc, LocSet};
/// let mut s = LocSet::of(&[Loc::RSP, Loc::RAX]);
/// s.insert(Loc::ZF);
/// s.remove(Loc::RSP);
/// assert!(s.contains(Loc::RAX) && !s.contains(Loc::RSP));
/// assert_eq!(s.iter().collect::<Vec<_>>(), [Loc::RAX, Loc::ZF]); // in the model's order
/// assert_eq!(s.len(), 2);
/// assert_eq!(s.intersection(LocSet::FLAGS), LocSet::of(&[Loc::ZF]));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct LocSet(u64);

impl LocSet {
    /// No location.
    pub const EMPTY: LocSet = LocSet(0);
    /// Every location.
    pub const ALL: LocSet = LocSet((1 << NUM_LOCS) - 1);
    /// The general registers.
    pub const GPRS: LocSet = LocSet((1 << FLAG0) - 1);
    /// The flags.
    pub const FLAGS: LocSet = LocSet(((1 << (XMM0 - FLAG0)) - 1) << FLAG0);
    /// The vector registers.
    pub const XMMS: LocSet = LocSet(((1 << 16) - 1) << XMM0);
    /// What a call reads: the argument registers `rdi rsi rdx rcx r8 r9`,
    /// `rax` (the vector-argument count of a variadic call), `rsp`, and
    /// `xmm0`–`xmm7` ([`CALL_ARGS`] as a set).
    pub const CALL_READS: LocSet = LocSet::of(&CALL_ARGS);
    /// What a call writes: the caller-saved registers `rax rcx rdx rsi rdi
    /// r8`–`r11`, the flags and `xmm0`–`xmm15`.
    pub const CALL_WRITES: LocSet = LocSet::of(&[
        Loc::RAX,
        Loc::RCX,
        Loc::RDX,
        Loc::RSI,
        Loc::RDI,
        Loc::R8,
        Loc::R9,
        Loc::R10,
        Loc::R11,
    ])
    .union(LocSet::FLAGS)
    .union(LocSet::XMMS);
    /// What `ret` (and every exit) reads: [`RET_LOCS`] as a set.
    pub const RET_READS: LocSet = LocSet::of(&RET_LOCS);
    /// What `syscall` reads: the number in `rax` and the arguments `rdi
    /// rsi rdx r10 r8 r9`.
    pub const SYSCALL_READS: LocSet = LocSet::of(&[
        Loc::RAX,
        Loc::RDI,
        Loc::RSI,
        Loc::RDX,
        Loc::R10,
        Loc::R8,
        Loc::R9,
    ]);
    /// What `syscall` writes: the result in `rax`, and `rcx` and `r11`
    /// (the return address and the flags the CPU saves there).
    pub const SYSCALL_WRITES: LocSet = LocSet::of(&[Loc::RAX, Loc::RCX, Loc::R11]);

    /// The set of `locs`.
    ///
    /// ```
    /// use ssakit_x86::regs::{Loc, LocSet};
    /// assert_eq!(LocSet::of(&[Loc::CF, Loc::CF]).len(), 1);
    /// ```
    pub const fn of(locs: &[Loc]) -> LocSet {
        let mut s = 0;
        let mut i = 0;
        while i < locs.len() {
            s |= 1 << locs[i].0;
            i += 1;
        }
        LocSet(s)
    }

    /// Whether `l` is in the set.
    ///
    /// ```
    /// use ssakit_x86::regs::{Loc, LocSet};
    /// assert!(LocSet::CALL_READS.contains(Loc::RDI) && !LocSet::CALL_READS.contains(Loc::RBX));
    /// ```
    pub const fn contains(self, l: Loc) -> bool {
        self.0 & (1 << l.0) != 0
    }

    /// Adds `l`.
    ///
    /// ```
    /// use ssakit_x86::regs::{Loc, LocSet};
    /// let mut s = LocSet::EMPTY;
    /// s.insert(Loc::xmm(1));
    /// assert_eq!(s, LocSet::of(&[Loc::xmm(1)]));
    /// ```
    pub fn insert(&mut self, l: Loc) {
        self.0 |= 1 << l.0;
    }

    /// Removes `l`.
    ///
    /// ```
    /// use ssakit_x86::regs::{Loc, LocSet};
    /// let mut s = LocSet::SYSCALL_WRITES;
    /// s.remove(Loc::RAX);
    /// assert_eq!(s, LocSet::of(&[Loc::RCX, Loc::R11]));
    /// ```
    pub fn remove(&mut self, l: Loc) {
        self.0 &= !(1 << l.0);
    }

    /// The locations in either set.
    ///
    /// ```
    /// use ssakit_x86::regs::LocSet;
    /// assert_eq!(LocSet::GPRS.union(LocSet::FLAGS).union(LocSet::XMMS), LocSet::ALL);
    /// ```
    pub const fn union(self, other: LocSet) -> LocSet {
        LocSet(self.0 | other.0)
    }

    /// The locations in both sets.
    ///
    /// ```
    /// use ssakit_x86::regs::{Loc, LocSet};
    /// let returned = LocSet::of(&[Loc::RAX, Loc::RDX, Loc::xmm(0), Loc::xmm(1)]);
    /// assert_eq!(LocSet::CALL_WRITES.intersection(LocSet::RET_READS), returned);
    /// ```
    pub const fn intersection(self, other: LocSet) -> LocSet {
        LocSet(self.0 & other.0)
    }

    /// The locations of `self` not in `other`.
    ///
    /// ```
    /// use ssakit_x86::regs::LocSet;
    /// assert_eq!(LocSet::CALL_WRITES.difference(LocSet::FLAGS.union(LocSet::XMMS)).len(), 9);
    /// ```
    pub const fn difference(self, other: LocSet) -> LocSet {
        LocSet(self.0 & !other.0)
    }

    /// Whether the sets share a location.
    ///
    /// ```
    /// use ssakit_x86::regs::LocSet;
    /// assert!(LocSet::CALL_WRITES.intersects(LocSet::FLAGS));
    /// assert!(!LocSet::GPRS.intersects(LocSet::XMMS));
    /// ```
    pub const fn intersects(self, other: LocSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The number of locations.
    ///
    /// ```
    /// use ssakit_x86::regs::LocSet;
    /// assert_eq!((LocSet::ALL.len(), LocSet::FLAGS.len(), LocSet::CALL_READS.len()), (39, 7, 16));
    /// ```
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    ///
    /// ```
    /// use ssakit_x86::regs::LocSet;
    /// assert!(LocSet::EMPTY.is_empty() && !LocSet::RET_READS.is_empty());
    /// ```
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The locations, in the model's order.
    ///
    /// ```
    /// use ssakit_x86::regs::{Loc, LocSet};
    /// let names: Vec<&str> = LocSet::SYSCALL_WRITES.iter().map(Loc::name).collect();
    /// assert_eq!(names, ["rax", "rcx", "r11"]);
    /// ```
    pub fn iter(self) -> LocIter {
        LocIter(self.0)
    }
}

/// The locations of a [`LocSet`] not yet visited, in the model's order
/// ([`LocSet::iter`]); its exact length lets a vector collected from it
/// be allocated once.
///
/// ```
/// use ssakit_x86::regs::{Loc, LocSet};
/// let mut locs = LocSet::SYSCALL_WRITES.iter();
/// assert_eq!(locs.len(), 3);
/// assert_eq!(locs.next(), Some(Loc::RAX));
/// assert_eq!(locs.len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct LocIter(u64);

impl Iterator for LocIter {
    type Item = Loc;

    fn next(&mut self) -> Option<Loc> {
        if self.0 == 0 {
            return None;
        }
        let l = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Loc(l as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for LocIter {}

impl fmt::Debug for LocSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Loc> for LocSet {
    fn from_iter<I: IntoIterator<Item = Loc>>(iter: I) -> LocSet {
        let mut s = LocSet::EMPTY;
        for l in iter {
            s.insert(l);
        }
        s
    }
}

/// [`LocSet::CALL_READS`] in the order of a call's operands: the ABI's.
pub const CALL_ARGS: [Loc; 16] = [
    Loc::RDI,
    Loc::RSI,
    Loc::RDX,
    Loc::RCX,
    Loc::R8,
    Loc::R9,
    Loc::RAX,
    Loc::RSP,
    Loc::xmm(0),
    Loc::xmm(1),
    Loc::xmm(2),
    Loc::xmm(3),
    Loc::xmm(4),
    Loc::xmm(5),
    Loc::xmm(6),
    Loc::xmm(7),
];

/// What `ret` (and every exit) reads, in this order: the System V return
/// registers `rax rdx`, the callee-saved registers `rbx rbp r12`–`r15`,
/// `rsp`, and the vector return registers `xmm0 xmm1` (a `double`, or a
/// pair of them, as the calls already assume: they write `xmm0`).
pub const RET_LOCS: [Loc; 11] = [
    Loc::RAX,
    Loc::RDX,
    Loc::RBX,
    Loc::RBP,
    Loc::R12,
    Loc::R13,
    Loc::R14,
    Loc::R15,
    Loc::RSP,
    Loc::xmm(0),
    Loc::xmm(1),
];

/// One value per location: a side table keyed by [`Loc`].
///
/// ```
/// use ssakit_x86::regs::{Loc, LocMap};
/// let mut widths = LocMap::from_fn(|l| if l.is_gpr() { 8 } else { 0 });
/// widths[Loc::xmm(0)] = 16;
/// assert_eq!((widths[Loc::RSP], widths[Loc::CF], widths[Loc::xmm(0)]), (8, 0, 16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocMap<T>([T; NUM_LOCS]);

impl<T> LocMap<T> {
    /// The map whose value at `l` is `f(l)`, `f` called on every location
    /// in the model's order.
    ///
    /// ```
    /// use ssakit_x86::regs::{Loc, LocMap};
    /// let mut order = Vec::new();
    /// let names = LocMap::from_fn(|l| { order.push(l); l.name() });
    /// assert_eq!((order[0], order[38]), (Loc::RAX, Loc::xmm(15)));
    /// assert_eq!(names[Loc::SF], "sf");
    /// ```
    pub fn from_fn(mut f: impl FnMut(Loc) -> T) -> LocMap<T> {
        LocMap(std::array::from_fn(|i| f(Loc(i as u8))))
    }
}

impl<T: Copy + Default> Default for LocMap<T> {
    fn default() -> Self {
        LocMap([T::default(); NUM_LOCS])
    }
}

impl<T> std::ops::Index<Loc> for LocMap<T> {
    type Output = T;
    fn index(&self, l: Loc) -> &T {
        &self.0[l.0 as usize]
    }
}

impl<T> std::ops::IndexMut<Loc> for LocMap<T> {
    fn index_mut(&mut self, l: Loc) -> &mut T {
        &mut self.0[l.0 as usize]
    }
}

/// The bits of [`FLAG_BITS`] (all below `0x80`).
const FLAG_MASK: u32 = 0x7f;

/// [`flag_set`] of every mask within [`FLAG_MASK`].
const FLAG_SETS: [LocSet; FLAG_MASK as usize + 1] = {
    let mut sets = [LocSet::EMPTY; FLAG_MASK as usize + 1];
    let mut k = 0;
    while k < FLAG_BITS.len() {
        let (l, b) = FLAG_BITS[k];
        assert!(b & !FLAG_MASK == 0);
        let mut m = 0;
        while m <= FLAG_MASK {
            if m & b != 0 {
                sets[m as usize].0 |= 1 << l.0;
            }
            m += 1;
        }
        k += 1;
    }
    sets
};

/// The flags of an iced-x86 `RflagsBits` mask as a location set.
fn flag_set(mask: u32) -> LocSet {
    FLAG_SETS[(mask & FLAG_MASK) as usize]
}

/// Where control goes after an instruction: what ends a block and how,
/// for the control-flow recovery, and which instructions are the IR's
/// terminators or calls, for the lifter.
///
/// ```
/// use iced_x86::{Decoder, DecoderOptions};
/// use ssakit_x86::regs::{flow, Flow};
/// let dec = |b: &[u8]| Decoder::with_ip(64, b, 0x1000, DecoderOptions::NONE).decode();
/// assert_eq!(flow(&dec(&[0x74, 0x02])), Flow::Branch); // je
/// assert_eq!(flow(&dec(&[0xe8, 1, 0, 0, 0])), Flow::Call); // call rel32
/// assert_eq!(flow(&dec(&[0xe8, 0, 0, 0, 0])), Flow::Next); // call next: a push
/// assert_eq!(flow(&dec(&[0xff, 0xd0])), Flow::IndirectCall); // call rax
/// assert_eq!(flow(&dec(&[0x0f, 0x05])), Flow::Next); // syscall returns
/// assert_eq!(flow(&dec(&[0x0f, 0x0b])), Flow::Stop); // ud2
/// assert_eq!(flow(&dec(&[0x0f, 0xff])), Flow::Invalid); // truncated ud0
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Flow {
    /// Continues with the next instruction: every instruction not below,
    /// `syscall` (which returns), `int n`, `xbegin`, and `call` of the
    /// next instruction (`call 1f; 1: pop rbx`, which pushes its own
    /// address) included.
    #[default]
    Next,
    /// A conditional branch to its target or the next instruction
    /// (`jcc`, `loop`, `jrcxz`).
    Branch,
    /// `jmp T`.
    Jump,
    /// A jump through a register or memory (`jmp rax`, `jmp [T+i*8]`).
    IndirectJump,
    /// `call T`.
    Call,
    /// Any other call: through a register or memory (`call rax`, `call
    /// [rip+X]`), or a system instruction iced-x86 counts as a call
    /// (`sysenter`, `vmcall`, ...); then the next instruction.
    IndirectCall,
    /// `ret` (and `iret`, `sysret`, ...).
    Return,
    /// Never continues: `ud2`, `hlt`.
    Stop,
    /// Bytes that decode to no instruction.
    Invalid,
}

impl Flow {
    /// Whether the instruction is the IR terminator that ends its block:
    /// a branch, a jump or a return (a call or `ud2` is an operation
    /// before the terminator).
    ///
    /// ```
    /// use ssakit_x86::regs::Flow;
    /// assert!(Flow::IndirectJump.is_terminator() && Flow::Return.is_terminator());
    /// assert!(!Flow::Call.is_terminator() && !Flow::Stop.is_terminator());
    /// ```
    pub fn is_terminator(self) -> bool {
        matches!(
            self,
            Flow::Branch | Flow::Jump | Flow::IndirectJump | Flow::Return
        )
    }

    /// Whether the instruction calls and (unless the callee never
    /// returns) continues with the next one.
    ///
    /// ```
    /// use ssakit_x86::regs::Flow;
    /// assert!(Flow::Call.is_call() && Flow::IndirectCall.is_call() && !Flow::Jump.is_call());
    /// ```
    pub fn is_call(self) -> bool {
        matches!(self, Flow::Call | Flow::IndirectCall)
    }
}

/// The [`Flow`] of `ins`.
///
/// ```
/// use iced_x86::{Decoder, DecoderOptions};
/// use ssakit_x86::regs::{flow, Flow};
/// let ins = Decoder::with_ip(64, &[0xff, 0x24, 0xc5, 0, 0, 0, 0], 0, DecoderOptions::NONE).decode();
/// assert_eq!(flow(&ins), Flow::IndirectJump); // jmp [rax*8]
/// ```
pub fn flow(ins: &Instruction) -> Flow {
    if ins.is_invalid() {
        return Flow::Invalid;
    }
    match ins.flow_control() {
        FlowControl::Return => Flow::Return,
        FlowControl::Exception => Flow::Stop,
        _ if ins.mnemonic() == Mnemonic::Hlt => Flow::Stop,
        FlowControl::Call | FlowControl::IndirectCall if ins.mnemonic() == Mnemonic::Syscall => {
            Flow::Next
        }
        // `call next; pop reg` (the PIC idiom that reads its own
        // address): a push of the return address, then the next
        // instruction, not a call.
        FlowControl::Call
            if ins.op0_kind() == OpKind::NearBranch64
                && ins.near_branch_target() == ins.next_ip() =>
        {
            Flow::Next
        }
        FlowControl::Call | FlowControl::IndirectCall if ins.op0_kind() == OpKind::NearBranch64 => {
            Flow::Call
        }
        FlowControl::Call | FlowControl::IndirectCall => Flow::IndirectCall,
        FlowControl::ConditionalBranch => Flow::Branch,
        FlowControl::UnconditionalBranch => Flow::Jump,
        FlowControl::IndirectBranch => Flow::IndirectJump,
        FlowControl::Next | FlowControl::Interrupt | FlowControl::XbeginXabortXend => Flow::Next,
    }
}

/// What one instruction reads and writes of the modelled state, its
/// effect class (from its memory operands; [`Effects::CALL`] for system
/// instructions) and its [`Flow`].
///
/// ```
/// use iced_x86::{Decoder, DecoderOptions, InstructionInfoFactory};
/// use ssakit::ir::Effects;
/// use ssakit_x86::regs::{access, Flow, Loc, LocSet};
/// // push rax: reads rax and rsp, writes rsp and the stack.
/// let ins = Decoder::with_ip(64, &[0x50], 0, DecoderOptions::NONE).decode();
/// let a = access(&ins, &mut InstructionInfoFactory::new());
/// assert_eq!(a.reads, LocSet::of(&[Loc::RAX, Loc::RSP]));
/// assert_eq!(a.writes, LocSet::of(&[Loc::RSP]));
/// assert_eq!(a.effects, Effects::TRAP.union(Effects::WRITE));
/// assert_eq!(a.flow, Flow::Next);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// Locations read.
    pub reads: LocSet,
    /// Locations written.
    pub writes: LocSet,
    /// The effect class.
    pub effects: Effects,
    /// Where control goes next.
    pub flow: Flow,
}

/// The lower-case name of each mnemonic, computed once.
fn mnemonic_names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        Mnemonic::values()
            .map(|m| format!("{m:?}").to_lowercase())
            .collect()
    })
}

/// The lower-case name of mnemonic `m` (`add`, `cmovne`).
///
/// ```
/// assert_eq!(ssakit_x86::regs::mnemonic_name(iced_x86::Mnemonic::Cmovne), "cmovne");
/// ```
pub fn mnemonic_name(m: Mnemonic) -> &'static str {
    &mnemonic_names()[m as usize]
}

/// Whether `ins` is a `cmovcc` (iced-x86's codes `Cmovo_r16_rm16` to
/// `Cmovg_r64_rm64`, the range its `condition_code` reads; `fcmovcc`
/// writes only the x87 stack, which is not modelled).
pub(crate) fn is_cmov(ins: &Instruction) -> bool {
    (Code::Cmovo_r16_rm16 as u32..=Code::Cmovg_r64_rm64 as u32).contains(&(ins.code() as u32))
}

fn is_shift_or_rotate(m: Mnemonic) -> bool {
    use Mnemonic as M;
    matches!(
        m,
        M::Shl | M::Shr | M::Sar | M::Sal | M::Rol | M::Ror | M::Rcl | M::Rcr | M::Shld | M::Shrd
    )
}

fn is_system(m: Mnemonic) -> bool {
    use Mnemonic as M;
    matches!(
        m,
        M::Syscall
            | M::Sysenter
            | M::Int
            | M::Int1
            | M::Int3
            | M::Into
            | M::Hlt
            | M::Ud0
            | M::Ud1
            | M::Ud2
            | M::Cpuid
            | M::Xgetbv
            | M::Xsetbv
            | M::Wrfsbase
            | M::Wrgsbase
            | M::Rdtsc
            | M::Rdtscp
            | M::Rdrand
            | M::Rdseed
            | M::Rdpid
            | M::Rdpkru
            | M::Wrpkru
            | M::Mfence
            | M::Lfence
            | M::Sfence
            | M::Xbegin
            | M::Xend
            | M::Xabort
            | M::Xtest
            | M::Fxsave
            | M::Fxrstor
            | M::Xsave
            | M::Xrstor
            | M::Xsavec
            | M::Xsaveopt
            | M::Fxsave64
            | M::Fxrstor64
            | M::Xsave64
            | M::Xrstor64
            | M::Xsavec64
            | M::Xsaveopt64
            | M::Xsaves
            | M::Xsaves64
            | M::Xrstors
            | M::Xrstors64
            | M::Fldcw
            | M::Fnstcw
            | M::Ldmxcsr
            | M::Stmxcsr
            | M::Fnstenv
            | M::Fldenv
    )
}

/// What a processor-state save or restore (`fxsave`, `xsave`, `xsavec`,
/// `xsaveopt`, `xsaves`, `fxrstor`, `xrstor`, `xrstors`, and their `64`
/// forms) does with the vector registers, which iced-x86 does not list:
/// a save reads `xmm0`–`xmm15`; `fxrstor` writes them (64-bit mode
/// restores all sixteen); an `xrstor` writes those its `edx:eax` mask
/// asks for and leaves the others, so, as any conditional write, it
/// reads them too. `None` for any other mnemonic.
///
/// ```
/// use iced_x86::Mnemonic;
/// use ssakit_x86::regs::{state_vectors, LocSet};
/// assert_eq!(state_vectors(Mnemonic::Fxsave64), Some((LocSet::XMMS, LocSet::EMPTY)));
/// assert_eq!(state_vectors(Mnemonic::Fxrstor), Some((LocSet::EMPTY, LocSet::XMMS)));
/// assert_eq!(state_vectors(Mnemonic::Xrstor), Some((LocSet::XMMS, LocSet::XMMS)));
/// assert_eq!(state_vectors(Mnemonic::Mov), None);
/// ```
pub fn state_vectors(m: Mnemonic) -> Option<(LocSet, LocSet)> {
    use Mnemonic as M;
    match m {
        M::Fxsave
        | M::Fxsave64
        | M::Xsave
        | M::Xsave64
        | M::Xsavec
        | M::Xsavec64
        | M::Xsaveopt
        | M::Xsaveopt64
        | M::Xsaves
        | M::Xsaves64 => Some((LocSet::XMMS, LocSet::EMPTY)),
        M::Fxrstor | M::Fxrstor64 => Some((LocSet::EMPTY, LocSet::XMMS)),
        M::Xrstor | M::Xrstor64 | M::Xrstors | M::Xrstors64 => Some((LocSet::XMMS, LocSet::XMMS)),
        _ => None,
    }
}

/// The [`Access`] of `ins`, with `factory` for iced-x86's information.
/// Bytes that decode to no instruction read and write nothing.
///
/// ```
/// use iced_x86::{Decoder, DecoderOptions, InstructionInfoFactory};
/// use ssakit_x86::regs::{access, Loc, LocSet};
/// let mut f = InstructionInfoFactory::new();
/// let dec = |b: &[u8]| Decoder::with_ip(64, b, 0, DecoderOptions::NONE).decode();
/// let a = access(&dec(&[0xb0, 0x01]), &mut f); // mov al, 1: merges into rax
/// assert_eq!((a.reads, a.writes), (LocSet::of(&[Loc::RAX]), LocSet::of(&[Loc::RAX])));
/// let a = access(&dec(&[0x31, 0xc0]), &mut f); // xor eax, eax: reads nothing
/// assert!(a.reads.is_empty() && a.writes.contains(Loc::RAX));
/// assert!(a.writes.intersects(LocSet::FLAGS)); // and writes the flags
/// let a = access(&dec(&[0x48, 0x0f, 0x4d, 0xc7]), &mut f); // cmovge rax, rdi
/// assert_eq!(a.reads, LocSet::of(&[Loc::RAX, Loc::RDI, Loc::SF, Loc::OF])); // keeps rax if not taken
/// ```
pub fn access(ins: &Instruction, factory: &mut InstructionInfoFactory) -> Access {
    let flow = flow(ins);
    if flow == Flow::Invalid {
        return Access {
            flow,
            ..Access::default()
        };
    }
    match operand_access(ins, flow) {
        Some(a) => a,
        None => factory_access(ins, flow, factory),
    }
}

/// How one of the common instructions [`operand_access`] knows uses its
/// operands: the first written (`Move`: `mov`, `movzx`, `movsxd`, `lea`,
/// `pop`), read and written (`Update`: `add`, `sub`, `and`, `or`, `xor`,
/// shifts by an immediate), or every one read (`Compare`: `cmp`, `test`,
/// `push`); a memory operand is read, written or both (`lea` neither);
/// `push`, `pop`, `call` and `ret` read and write `rsp` and the stack.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Move,
    Lea,
    Update,
    Compare,
    Branch,
    Call,
    Push,
    Pop,
    Return,
}

/// The [`Shape`] of the instructions with code `c` that
/// [`operand_access`] knows (the most frequent in compiled code).
fn shape(c: Code) -> Option<Shape> {
    use Code as C;
    Some(match c {
        C::Mov_r64_rm64
        | C::Mov_rm64_r64
        | C::Mov_r32_rm32
        | C::Mov_rm32_r32
        | C::Mov_r8_rm8
        | C::Mov_rm8_r8
        | C::Mov_r32_imm32
        | C::Mov_r64_imm64
        | C::Mov_rm64_imm32
        | C::Mov_rm32_imm32
        | C::Mov_rm8_imm8
        | C::Movzx_r32_rm8
        | C::Movzx_r32_rm16
        | C::Movsxd_r64_rm32 => Shape::Move,
        C::Lea_r64_m | C::Lea_r32_m => Shape::Lea,
        C::Add_rm64_imm8
        | C::Add_rm32_imm8
        | C::Add_rm64_r64
        | C::Add_rm32_r32
        | C::Add_r64_rm64
        | C::Add_r32_rm32
        | C::Sub_rm64_imm8
        | C::Sub_rm32_imm8
        | C::Sub_rm64_r64
        | C::Sub_rm32_r32
        | C::Sub_r64_rm64
        | C::And_rm32_imm8
        | C::And_rm64_imm8
        | C::And_rm32_r32
        | C::Or_rm64_r64
        | C::Or_rm32_r32
        | C::Xor_rm32_r32
        | C::Xor_rm64_r64
        | C::Shl_rm64_imm8
        | C::Shr_rm64_imm8
        | C::Sar_rm64_imm8 => Shape::Update,
        C::Cmp_rm64_r64
        | C::Cmp_rm32_r32
        | C::Cmp_r64_rm64
        | C::Cmp_r32_rm32
        | C::Cmp_rm64_imm8
        | C::Cmp_rm32_imm8
        | C::Cmp_rm32_imm32
        | C::Cmp_rm8_imm8
        | C::Test_rm64_r64
        | C::Test_rm32_r32
        | C::Test_rm8_r8
        | C::Test_rm8_imm8 => Shape::Compare,
        C::Jmp_rel8_64 | C::Jmp_rel32_64 => Shape::Branch,
        _ if c.is_jcc_short_or_near() => Shape::Branch,
        C::Call_rel32_64 => Shape::Call,
        C::Push_r64 => Shape::Push,
        C::Pop_r64 => Shape::Pop,
        C::Retnq => Shape::Return,
        _ => return None,
    })
}

/// The [`Access`] of `ins` (whose flow is `flow`) from its operands and
/// [`Shape`] alone, for the common instructions without a prefix that
/// changes them (`rep`, `lock`, a segment); `None` for the others,
/// which [`factory_access`] reads from iced-x86. Both give the same
/// access (checked on every instruction of three system libraries).
fn operand_access(ins: &Instruction, flow: Flow) -> Option<Access> {
    let shape = shape(ins.code())?;
    if ins.has_rep_prefix()
        || ins.has_repne_prefix()
        || ins.has_lock_prefix()
        || ins.segment_prefix() != Register::None
    {
        return None;
    }
    let mut a = Access {
        flow,
        ..Access::default()
    };
    let stack = match shape {
        Shape::Call | Shape::Push => Some(OpAccess::Write),
        Shape::Pop | Shape::Return => Some(OpAccess::Read),
        _ => None,
    };
    if let Some(mem) = stack {
        a.reads.insert(Loc::RSP);
        a.writes.insert(Loc::RSP);
        a.effects = memory_effects(mem);
    }
    // `xor r, r` and `sub r, r` (32 or 64 bits) read nothing.
    let zero_idiom = matches!(ins.mnemonic(), Mnemonic::Xor | Mnemonic::Sub)
        && ins.op1_kind() == OpKind::Register
        && ins.op0_kind() == OpKind::Register
        && ins.op0_register() == ins.op1_register();
    for k in 0..ins.op_count() {
        let first = k == 0;
        match ins.op_kind(k) {
            OpKind::Register => {
                let r = ins.op_register(k);
                let loc = Loc::of_register(r).filter(|l| l.is_gpr())?;
                let (read, write) = match shape {
                    Shape::Move | Shape::Lea | Shape::Pop => (!first, first),
                    Shape::Update if zero_idiom => {
                        if r.size() < 4 {
                            return None;
                        }
                        (false, first)
                    }
                    Shape::Update => (true, first),
                    _ => (true, false),
                };
                if read || (write && r.size() < 4) {
                    a.reads.insert(loc);
                }
                if write {
                    a.writes.insert(loc);
                }
            }
            OpKind::Memory => {
                for r in [ins.memory_base(), ins.memory_index()] {
                    if r != Register::None && r != Register::RIP {
                        a.reads.insert(Loc::of_register(r).filter(|l| l.is_gpr())?);
                    }
                }
                let mem = match shape {
                    Shape::Move if first => OpAccess::Write,
                    Shape::Update if first => OpAccess::ReadWrite,
                    Shape::Move | Shape::Update | Shape::Compare => OpAccess::Read,
                    _ => OpAccess::NoMemAccess,
                };
                a.effects = a.effects.union(memory_effects(mem));
            }
            OpKind::NearBranch64
            | OpKind::Immediate8
            | OpKind::Immediate32
            | OpKind::Immediate64
            | OpKind::Immediate8to32
            | OpKind::Immediate8to64
            | OpKind::Immediate32to64 => {}
            _ => return None,
        }
    }
    a.reads = a.reads.union(flag_set(ins.rflags_read()));
    a.writes = a.writes.union(flag_set(ins.rflags_modified()));
    Some(a)
}

/// The effect class of a memory access.
fn memory_effects(access: OpAccess) -> Effects {
    match access {
        OpAccess::Read | OpAccess::CondRead => Effects::TRAP.union(Effects::READ),
        OpAccess::Write | OpAccess::CondWrite => Effects::TRAP.union(Effects::WRITE),
        OpAccess::ReadWrite | OpAccess::ReadCondWrite => {
            Effects::TRAP.union(Effects::READ).union(Effects::WRITE)
        }
        _ => Effects::PURE,
    }
}

/// The [`Access`] of `ins` (whose flow is `flow`, not
/// [`Flow::Invalid`]) from iced-x86's register and memory information,
/// then the rules of the module doc.
fn factory_access(ins: &Instruction, flow: Flow, factory: &mut InstructionInfoFactory) -> Access {
    let mut a = Access {
        flow,
        ..Access::default()
    };
    let info = factory.info(ins);
    let m = ins.mnemonic();
    for u in info.used_registers() {
        let Some(loc) = Loc::of_register(u.register()) else {
            continue;
        };
        match u.access() {
            OpAccess::Read | OpAccess::CondRead => a.reads.insert(loc),
            OpAccess::Write => {
                a.writes.insert(loc);
                if loc.is_gpr() && u.register().size() < 4 {
                    a.reads.insert(loc);
                }
            }
            OpAccess::CondWrite | OpAccess::ReadWrite | OpAccess::ReadCondWrite => {
                a.writes.insert(loc);
                a.reads.insert(loc);
            }
            _ => {}
        }
    }
    if is_cmov(ins) {
        a.reads = a
            .reads
            .union(a.writes.intersection(LocSet::GPRS.union(LocSet::XMMS)));
    }
    a.reads = a.reads.union(flag_set(ins.rflags_read()));
    let flags_written = flag_set(ins.rflags_modified());
    a.writes = a.writes.union(flags_written);
    let count_in_register =
        is_shift_or_rotate(m) && (1..ins.op_count()).any(|i| ins.op_kind(i) == OpKind::Register);
    if count_in_register || ins.has_rep_prefix() || ins.has_repne_prefix() {
        a.reads = a.reads.union(flags_written);
    }
    for mem in info.used_memory() {
        a.effects = a.effects.union(memory_effects(mem.access()));
    }
    if let Some((reads, writes)) = state_vectors(m) {
        a.reads = a.reads.union(reads);
        a.writes = a.writes.union(writes);
    }
    if m == Mnemonic::Syscall {
        a.reads = a.reads.union(LocSet::SYSCALL_READS);
        a.writes = a.writes.union(LocSet::SYSCALL_WRITES);
    }
    if is_system(m) {
        a.effects = Effects::CALL;
    }
    a
}

/// The suffix naming an effect class in an operator's name, so that one
/// name has one class: none for `pure`, `.r` (trap read), `.w` (trap
/// write), `.rw`, `.x` (call: anything).
///
/// ```
/// use ssakit::ir::Effects;
/// assert_eq!(ssakit_x86::regs::effect_suffix(Effects::TRAP.union(Effects::READ)), ".r");
/// assert_eq!(ssakit_x86::regs::effect_suffix(Effects::PURE), "");
/// ```
pub fn effect_suffix(e: Effects) -> &'static str {
    if e.contains(Effects::CALL) {
        ".x"
    } else if e.writes() && e.reads() {
        ".rw"
    } else if e.writes() {
        ".w"
    } else if e.reads() {
        ".r"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`operand_access`] agrees with [`factory_access`] on every
    /// instruction of three system binaries it knows (a linear sweep of
    /// their code); a binary that is absent is skipped.
    #[test]
    fn operand_access_agrees_with_the_factory() {
        let mut factory = InstructionInfoFactory::new();
        for path in [
            "/usr/bin/bash",
            "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0",
            "/usr/lib/x86_64-linux-gnu/libc.so.6",
        ] {
            let Ok(elf) = std::fs::read(path) else {
                eprintln!("skipped: {path} is absent");
                continue;
            };
            let bin = crate::binary::Binary::parse(&elf).expect("an ELF file");
            let (mut known, mut all) = (0, 0);
            for (addr, code) in bin.code_sections() {
                let mut dec =
                    iced_x86::Decoder::with_ip(64, code, addr, iced_x86::DecoderOptions::NONE);
                while dec.can_decode() {
                    let ins = dec.decode();
                    let flow = flow(&ins);
                    if flow == Flow::Invalid {
                        continue;
                    }
                    all += 1;
                    if let Some(a) = operand_access(&ins, flow) {
                        known += 1;
                        assert_eq!(
                            a,
                            factory_access(&ins, flow, &mut factory),
                            "{:?} at {:#x}",
                            ins.code(),
                            ins.ip()
                        );
                    }
                }
            }
            eprintln!("{path}: {known} of {all} instructions by their operands");
            assert!(known > 0);
        }
    }

    /// The numbering behind the constants agrees with the names and with
    /// iced-x86's register numbers.
    #[test]
    fn constants_name_their_locations() {
        let gprs = [
            (Loc::RAX, Register::RAX),
            (Loc::RCX, Register::RCX),
            (Loc::RDX, Register::RDX),
            (Loc::RBX, Register::RBX),
            (Loc::RSP, Register::RSP),
            (Loc::RBP, Register::RBP),
            (Loc::RSI, Register::RSI),
            (Loc::RDI, Register::RDI),
            (Loc::R8, Register::R8),
            (Loc::R9, Register::R9),
            (Loc::R10, Register::R10),
            (Loc::R11, Register::R11),
            (Loc::R12, Register::R12),
            (Loc::R13, Register::R13),
            (Loc::R14, Register::R14),
            (Loc::R15, Register::R15),
        ];
        for (l, r) in gprs {
            assert_eq!(Loc::of_register(r), Some(l));
            assert_eq!(l.name(), format!("{r:?}").to_lowercase());
        }
        for i in 0..16 {
            let x = Register::XMM0 as u32 + i;
            let r = Register::values().find(|&r| r as u32 == x).unwrap();
            assert_eq!(Loc::of_register(r), Some(Loc::xmm(i as u8)));
        }
        let all: Vec<Loc> = LocSet::ALL.iter().collect();
        assert_eq!(all.len(), NUM_LOCS);
        assert_eq!(LocSet::GPRS.iter().collect::<Vec<_>>(), all[..16]);
        assert_eq!(LocSet::FLAGS.iter().collect::<Vec<_>>(), all[16..23]);
        assert_eq!(LocSet::XMMS.iter().collect::<Vec<_>>(), all[23..]);
        assert_eq!(LocSet::CALL_WRITES.len(), 9 + 7 + 16);
        assert_eq!(LocSet::RET_READS.len(), RET_LOCS.len());
    }

    /// One instruction of each [`Flow`], and the system instructions
    /// iced-x86 counts as calls or interrupts.
    #[test]
    fn flows() {
        use iced_x86::{Decoder, DecoderOptions};
        let cases: [(&[u8], Flow); 15] = [
            (&[0xe8, 0, 0, 0, 0], Flow::Next),         // call next: a push
            (&[0x48, 0x01, 0xd8], Flow::Next),         // add rax, rbx
            (&[0xcc], Flow::Next),                     // int3
            (&[0x0f, 0x05], Flow::Next),               // syscall
            (&[0x0f, 0x84, 0, 0, 0, 0], Flow::Branch), // je rel32
            (&[0xe2, 0xfe], Flow::Branch),             // loop
            (&[0xeb, 0x00], Flow::Jump),               // jmp rel8
            (&[0xff, 0xe0], Flow::IndirectJump),       // jmp rax
            (&[0xe8, 1, 0, 0, 0], Flow::Call),         // call rel32
            (&[0xff, 0x15, 0, 0, 0, 0], Flow::IndirectCall), // call [rip]
            (&[0x0f, 0x34], Flow::IndirectCall),       // sysenter
            (&[0xc3], Flow::Return),                   // ret
            (&[0xf4], Flow::Stop),                     // hlt
            (&[0x0f, 0x0b], Flow::Stop),               // ud2
            (&[0x06], Flow::Invalid),                  // push es: not in 64-bit mode
        ];
        for (bytes, want) in cases {
            let ins = Decoder::with_ip(64, bytes, 0x1000, DecoderOptions::NONE).decode();
            assert_eq!(flow(&ins), want, "{bytes:x?}");
        }
        let syscall = Decoder::with_ip(64, &[0x0f, 0x05], 0, DecoderOptions::NONE).decode();
        let a = access(&syscall, &mut InstructionInfoFactory::new());
        assert!(a.reads.intersection(LocSet::SYSCALL_READS) == LocSet::SYSCALL_READS);
        assert_eq!(a.effects, Effects::CALL);
    }

    /// `is_cmov` picks out exactly the mnemonics named `cmov...`.
    #[test]
    fn cmov_is_the_code_range() {
        for c in Code::values() {
            let name = format!("{:?}", c.mnemonic()).to_lowercase();
            let range =
                (Code::Cmovo_r16_rm16 as u32..=Code::Cmovg_r64_rm64 as u32).contains(&(c as u32));
            assert_eq!(name.starts_with("cmov"), range, "{c:?}");
        }
    }

    /// The read/write model, instruction by instruction: each operand
    /// width (8-bit low and high, 16, 32, 64, legacy-SSE and VEX vectors)
    /// and each conditional write (`cmov`, shifts by `cl`, `rep`), with
    /// the zero idioms and the processor-state saves and restores.
    #[test]
    fn reads_and_writes_per_width_and_conditional_write() {
        use iced_x86::{Decoder, DecoderOptions};
        const A: Loc = Loc::RAX;
        const B: Loc = Loc::RBX;
        const C: Loc = Loc::RCX;
        let arith = [Loc::CF, Loc::PF, Loc::AF, Loc::ZF, Loc::SF, Loc::OF];
        let x = Loc::xmm;
        let set = |ls: &[Loc]| LocSet::of(ls);
        let with_flags = |ls: &[Loc]| LocSet::of(ls).union(LocSet::of(&arith));
        let cases: Vec<(&str, &[u8], LocSet, LocSet)> = vec![
            ("mov al, bl", &[0x88, 0xd8], set(&[A, B]), set(&[A])),
            ("mov ah, bl", &[0x88, 0xdc], set(&[A, B]), set(&[A])),
            ("mov ax, bx", &[0x66, 0x89, 0xd8], set(&[A, B]), set(&[A])),
            ("mov eax, ebx", &[0x89, 0xd8], set(&[B]), set(&[A])),
            ("mov rax, rbx", &[0x48, 0x89, 0xd8], set(&[B]), set(&[A])),
            (
                "add ax, bx",
                &[0x66, 0x01, 0xd8],
                set(&[A, B]),
                with_flags(&[A]),
            ),
            (
                "add eax, ebx",
                &[0x01, 0xd8],
                set(&[A, B]),
                with_flags(&[A]),
            ),
            (
                "inc al",
                &[0xfe, 0xc0],
                set(&[A]),
                set(&[A, Loc::PF, Loc::AF, Loc::ZF, Loc::SF, Loc::OF]),
            ),
            (
                "sete al",
                &[0x0f, 0x94, 0xc0],
                set(&[A, Loc::ZF]),
                set(&[A]),
            ),
            ("movzx eax, bl", &[0x0f, 0xb6, 0xc3], set(&[B]), set(&[A])),
            (
                "cmove ax, bx",
                &[0x66, 0x0f, 0x44, 0xc3],
                set(&[A, B, Loc::ZF]),
                set(&[A]),
            ),
            (
                "cmove eax, ebx",
                &[0x0f, 0x44, 0xc3],
                set(&[A, B, Loc::ZF]),
                set(&[A]),
            ),
            ("shl eax, 1", &[0xd1, 0xe0], set(&[A]), with_flags(&[A])),
            // A count of 0 written out leaves the flags: none written.
            ("shl eax, 0", &[0xc1, 0xe0, 0x00], set(&[A]), set(&[A])),
            (
                "shl eax, cl",
                &[0xd3, 0xe0],
                with_flags(&[A, C]),
                with_flags(&[A]),
            ),
            (
                "shl ax, cl",
                &[0x66, 0xd3, 0xe0],
                with_flags(&[A, C]),
                with_flags(&[A]),
            ),
            (
                "rol eax, cl",
                &[0xd3, 0xc0],
                set(&[A, C, Loc::CF, Loc::OF]),
                set(&[A, Loc::CF, Loc::OF]),
            ),
            ("xor eax, eax", &[0x31, 0xc0], set(&[]), with_flags(&[A])),
            (
                "xor ax, ax",
                &[0x66, 0x31, 0xc0],
                set(&[A]),
                with_flags(&[A]),
            ),
            (
                "rep stosb",
                &[0xf3, 0xaa],
                set(&[A, C, Loc::RDI, Loc::DF]),
                set(&[C, Loc::RDI]),
            ),
            (
                "addsd xmm0, xmm1",
                &[0xf2, 0x0f, 0x58, 0xc1],
                set(&[x(0), x(1)]),
                set(&[x(0)]),
            ),
            (
                "vaddsd xmm0, xmm1, xmm2",
                &[0xc5, 0xf3, 0x58, 0xc2],
                set(&[x(1), x(2)]),
                set(&[x(0)]),
            ),
            (
                "pxor xmm0, xmm0",
                &[0x66, 0x0f, 0xef, 0xc0],
                set(&[]),
                set(&[x(0)]),
            ),
            (
                "fxsave [rax]",
                &[0x0f, 0xae, 0x00],
                set(&[A]).union(LocSet::XMMS),
                set(&[]),
            ),
            (
                "fxrstor [rax]",
                &[0x0f, 0xae, 0x08],
                set(&[A]),
                LocSet::XMMS,
            ),
            (
                "xrstor [rax]",
                &[0x0f, 0xae, 0x28],
                set(&[A, Loc::RDX]).union(LocSet::XMMS),
                LocSet::XMMS,
            ),
        ];
        let mut f = InstructionInfoFactory::new();
        let mut bad = Vec::new();
        for (what, bytes, reads, writes) in cases {
            let ins = Decoder::with_ip(64, bytes, 0x1000, DecoderOptions::NONE).decode();
            assert_eq!(ins.len(), bytes.len(), "{what}");
            let a = access(&ins, &mut f);
            if (a.reads, a.writes) != (reads, writes) {
                bad.push(format!(
                    "{what}: reads {:?} writes {:?}, expected {reads:?} {writes:?}",
                    a.reads, a.writes
                ));
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}
