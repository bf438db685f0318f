//! The vocabulary of a recovered control-flow graph ([`crate::cfg`]),
//! shared by the shape matcher and the data-flow slicer of jump tables:
//! a decoded instruction with what it reads and writes ([`Insn`]), where
//! a transfer goes ([`Target`]), how a block ends ([`End`]), and what the
//! slicer could tell of a jump it left unresolved ([`JumpKind`]), and
//! what the walk records by address ([`ByAddr`]: the instruction decoded
//! at each address, the block leaders). The first four are public as
//! `ssakit_x86::cfg::{Insn, Target, End, JumpKind}`.

use crate::regs::Access;
use iced_x86::{Instruction, OpKind};
use rustc_hash::FxHashMap;

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

/// What the backward slice of [`crate::cfg`]'s jump tables could tell
/// of an indirect jump it left unresolved (an exit of the function).
///
/// ```
/// use ssakit_x86::cfg::JumpKind;
/// assert_eq!(JumpKind::Unbounded.key(), "table-unbounded");
/// assert_eq!(JumpKind::Computed.to_string(), "a computed or register target");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JumpKind {
    /// A table (`base + load(T + i × s)`), but on some path no
    /// comparison, mask or type bounds its index.
    Unbounded,
    /// A load from `X + i × s` whose `X` is no constant: a table whose
    /// base is not known (a parameter, a value computed otherwise).
    UnknownBase,
    /// A load with no index (a function pointer, a vtable slot: most
    /// likely a tail call).
    Pointer,
    /// No load at all: a target computed otherwise or a register's
    /// value on entry.
    Computed,
    /// A table, but its paths disagree on it or its entries are not
    /// code.
    BadTable,
}

impl JumpKind {
    /// Every kind, in declaration order.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::cfg::JumpKind::ALL.len(), 5);
    /// ```
    pub const ALL: [JumpKind; 5] = [
        JumpKind::Unbounded,
        JumpKind::UnknownBase,
        JumpKind::Pointer,
        JumpKind::Computed,
        JumpKind::BadTable,
    ];

    /// A short key for counts and JSON: `table-unbounded`,
    /// `table-unknown-base`, `pointer`, `computed`, `bad-table`.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::cfg::JumpKind::Pointer.key(), "pointer");
    /// ```
    pub fn key(&self) -> &'static str {
        match self {
            JumpKind::Unbounded => "table-unbounded",
            JumpKind::UnknownBase => "table-unknown-base",
            JumpKind::Pointer => "pointer",
            JumpKind::Computed => "computed",
            JumpKind::BadTable => "bad-table",
        }
    }
}

impl std::fmt::Display for JumpKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            JumpKind::Unbounded => "a table whose index is unbounded",
            JumpKind::UnknownBase => "a table whose base is unknown",
            JumpKind::Pointer => "a load with no index (a function pointer)",
            JumpKind::Computed => "a computed or register target",
            JumpKind::BadTable => "a table its paths disagree on, or not code",
        })
    }
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

/// The largest extent (in bytes) whose addresses get dense tables: one
/// `Option<T>` per byte, 8 MiB of instruction indices for the largest (a
/// bogus symbol size beyond it leaves every address to the hash map).
const DENSE_LIMIT: u64 = 1 << 20;

/// What the walk records by address: a dense table over the extent's
/// bytes, where almost every address it asks about lies, and a hash map
/// for the code of fragments outside it
/// ([`Binary::in_scope`](crate::binary::Binary::in_scope)).
pub(crate) struct ByAddr<T> {
    start: u64,
    dense: Vec<Option<T>>,
    outside: FxHashMap<u64, T>,
}

impl<T: Copy> ByAddr<T> {
    /// An empty table for the addresses of `extent`.
    pub(crate) fn new(extent: &std::ops::Range<u64>) -> Self {
        let len = extent.end.saturating_sub(extent.start);
        ByAddr {
            start: extent.start,
            dense: vec![None; if len <= DENSE_LIMIT { len as usize } else { 0 }],
            outside: FxHashMap::default(),
        }
    }

    /// The slot of `a` in the dense table, if it has one.
    fn slot(&self, a: u64) -> Option<usize> {
        let k = usize::try_from(a.checked_sub(self.start)?).ok()?;
        (k < self.dense.len()).then_some(k)
    }

    /// The value recorded at `a`.
    pub(crate) fn get(&self, a: u64) -> Option<T> {
        match self.slot(a) {
            Some(k) => self.dense[k],
            None => self.outside.get(&a).copied(),
        }
    }

    /// Records `v` at `a`; whether `a` had no value before.
    pub(crate) fn insert(&mut self, a: u64, v: T) -> bool {
        match self.slot(a) {
            Some(k) => self.dense[k].replace(v).is_none(),
            None => self.outside.insert(a, v).is_none(),
        }
    }

    /// The addresses with a value, in no particular order.
    pub(crate) fn addresses(&self) -> impl Iterator<Item = u64> + '_ {
        let dense = (self.dense.iter().enumerate())
            .filter(|(_, v)| v.is_some())
            .map(|(k, _)| self.start + k as u64);
        dense.chain(self.outside.keys().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The address tables answer the same inside the extent (dense) and
    /// outside it or past [`DENSE_LIMIT`] (the hash map), and say when an
    /// address is new.
    #[test]
    fn address_tables_dense_and_outside() {
        for extent in [0x1000..0x1010, 0x1000..0x1000 + DENSE_LIMIT + 1] {
            let mut t: ByAddr<u32> = ByAddr::new(&extent);
            for (a, v) in [(0x1000, 1), (0x100f, 2), (0x2000_0000, 3), (0xfff, 4)] {
                assert_eq!(t.get(a), None);
                assert!(t.insert(a, v));
                assert_eq!(t.get(a), Some(v));
            }
            assert!(!t.insert(0x100f, 5));
            assert_eq!(t.get(0x100f), Some(5));
            assert_eq!(t.get(0x1001), None);
            let mut all: Vec<u64> = t.addresses().collect();
            all.sort_unstable();
            assert_eq!(all, [0xfff, 0x1000, 0x100f, 0x2000_0000]);
        }
    }
}
