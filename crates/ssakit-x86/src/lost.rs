//! Lost code: the bytes of a function's extent that control-flow recovery
//! ([`mod@crate::cfg`]) never decoded, each range with the reason it was
//! not reached (section 13.8 of the chapter: a CFG recovered from a binary
//! is only as good as the code it reaches; what it misses must be said,
//! not dropped).
//!
//! Every byte of an extent is then one of three things:
//!
//! * **decoded**: part of an instruction the walk reached;
//! * **padding**: a `nop` of any length, `int3`, a lone `ud2` trap, or
//!   zero bytes (`00 00` decodes as `add [rax], al`), as compilers and
//!   linkers put between and after functions;
//! * **lost**: anything else, in maximal ranges of instructions decoded
//!   linearly from the end of the decoded code before them, each with a
//!   [`Reason`].
//!
//! The reason of a range, first that applies: [`Reason::DataInCode`]
//! when its linear decoding meets bytes that are no instruction;
//! [`Reason::UnresolvedJump`] when an indirect jump that stayed
//! unresolved lies before it in the extent (the nearest one: what follows
//! a `jmp reg` whose table was not found is typically its cases), with
//! what the jump-table slice could tell of it ([`JumpKind`]: a table
//! whose index is unbounded, a table whose base is unknown, a load with
//! no index, a computed or register target);
//! [`Reason::Unreachable`] otherwise (code after a call that never
//! returns, a landing pad no table names).
//!
//! Worked example: an extent `0x10..0x30` whose walk decoded `0x10..0x18`
//! ending in `jmp rax` (unresolved) and `0x20..0x28`, with `nop` bytes at
//! `0x28..0x30`: `0x18..0x20` is lost (unresolved jump at `0x16`), the
//! `nop`s are padding.

use crate::binary::{Binary, FuncInfo};
use crate::cfg::{End, FuncCfg, JumpKind};
use crate::regs::Flow;
use iced_x86::{Decoder, DecoderOptions, Mnemonic};

/// Why a range of an extent was never decoded.
///
/// ```
/// use ssakit_x86::{cfg::JumpKind, lost::Reason};
/// assert_eq!(
///     Reason::UnresolvedJump(0x1234, JumpKind::Unbounded).to_string(),
///     "unresolved indirect jump at 0x1234 (a table whose index is unbounded)"
/// );
/// assert_eq!(Reason::Unreachable.to_string(), "unreachable");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// After an indirect jump (at this address) that stayed unresolved,
    /// and what its slice saw.
    UnresolvedJump(u64, JumpKind),
    /// Bytes that decode to no instruction.
    DataInCode,
    /// No path of the recovered CFG reaches it.
    Unreachable,
}

impl Reason {
    /// The reason's kind as a short key (`unresolved-jump`,
    /// `data-in-code`, `unreachable`), for counts and JSON.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::lost::Reason::DataInCode.key(), "data-in-code");
    /// ```
    pub fn key(&self) -> &'static str {
        match self {
            Reason::UnresolvedJump(..) => "unresolved-jump",
            Reason::DataInCode => "data-in-code",
            Reason::Unreachable => "unreachable",
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::UnresolvedJump(a, k) => write!(f, "unresolved indirect jump at {a:#x} ({k})"),
            Reason::DataInCode => f.write_str("data in code"),
            Reason::Unreachable => f.write_str("unreachable"),
        }
    }
}

/// A range of an extent never decoded: `[start, end)`, the instructions
/// a linear decoding finds in it, and why.
///
/// ```
/// use ssakit_x86::lost::{LostRange, Reason};
/// let r = LostRange { start: 0x18, end: 0x20, instructions: 3, reason: Reason::Unreachable };
/// assert_eq!(r.bytes(), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LostRange {
    /// First byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// Instructions in it, decoded linearly from `start`.
    pub instructions: usize,
    /// Why it was not reached.
    pub reason: Reason,
}

impl LostRange {
    /// Its length in bytes.
    ///
    /// ```
    /// use ssakit_x86::lost::{LostRange, Reason};
    /// let r = LostRange { start: 4, end: 5, instructions: 1, reason: Reason::DataInCode };
    /// assert_eq!(r.bytes(), 1);
    /// ```
    pub fn bytes(&self) -> u64 {
        self.end - self.start
    }
}

/// Lost code summed over functions: how many functions lost code, and
/// the bytes and instructions lost, in all and per [`Reason::key`]
/// (`unresolved-jump`, `data-in-code`, `unreachable`, in that order).
///
/// ```
/// use ssakit_x86::lost::{LostRange, LostTotals, Reason};
/// let mut t = LostTotals::default();
/// t.add(&[LostRange { start: 0, end: 4, instructions: 2, reason: Reason::Unreachable }]);
/// t.add(&[]);
/// assert_eq!((t.functions, t.bytes, t.instructions, t.by_reason[2]), (1, 4, 2, (4, 2)));
/// assert_eq!(t.by_jump_kind, [(0, 0); 5]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LostTotals {
    /// Functions with at least one lost range.
    pub functions: usize,
    /// Bytes lost.
    pub bytes: u64,
    /// Instructions lost.
    pub instructions: usize,
    /// Bytes and instructions per reason, in [`Reason::KEYS`] order.
    pub by_reason: [(u64, usize); 3],
    /// Of those after unresolved jumps, bytes and instructions per
    /// [`JumpKind`], in [`JumpKind::ALL`] order.
    pub by_jump_kind: [(u64, usize); 5],
}

impl Reason {
    /// The keys of the reasons, in the order of [`LostTotals::by_reason`].
    ///
    /// ```
    /// assert_eq!(ssakit_x86::lost::Reason::KEYS[0], "unresolved-jump");
    /// ```
    pub const KEYS: [&'static str; 3] = ["unresolved-jump", "data-in-code", "unreachable"];

    fn index(&self) -> usize {
        match self {
            Reason::UnresolvedJump(..) => 0,
            Reason::DataInCode => 1,
            Reason::Unreachable => 2,
        }
    }
}

impl LostTotals {
    /// Adds one function's lost ranges.
    ///
    /// ```
    /// let mut t = ssakit_x86::lost::LostTotals::default();
    /// t.add(&[]);
    /// assert_eq!(t.functions, 0);
    /// ```
    pub fn add(&mut self, ranges: &[LostRange]) {
        if !ranges.is_empty() {
            self.functions += 1;
        }
        for r in ranges {
            self.bytes += r.bytes();
            self.instructions += r.instructions;
            let k = &mut self.by_reason[r.reason.index()];
            k.0 += r.bytes();
            k.1 += r.instructions;
            if let Reason::UnresolvedJump(_, kind) = r.reason {
                let k = &mut self.by_jump_kind[kind as usize];
                k.0 += r.bytes();
                k.1 += r.instructions;
            }
        }
    }
}

/// The instructions the walks of functions decoded outside their own
/// extents, in fragments ([`FuncInfo::fragment`], [`crate::cfg`]), as
/// `(start, end)` sorted: what [`FragmentCover::subtract`] takes from a
/// fragment's lost ranges.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// // The fixture has no `.cold` fragment: nothing is decoded outside an extent.
/// assert_eq!(ssakit_x86::lost::FragmentCover::compute(&bin).instructions(), 0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct FragmentCover {
    ranges: Vec<(u64, u64)>,
}

impl FragmentCover {
    /// The instructions of `cfg` (of function `f`) outside `f`'s extent.
    pub(crate) fn of_cfg(f: &FuncInfo, cfg: &FuncCfg) -> Vec<(u64, u64)> {
        cfg.insts
            .iter()
            .map(|i| (i.ins.ip(), i.ins.next_ip()))
            .filter(|(a, _)| !f.extent.contains(a))
            .collect()
    }

    /// The cover of the parts [`FragmentCover::of_cfg`] gave.
    pub(crate) fn of_parts(parts: impl IntoIterator<Item = Vec<(u64, u64)>>) -> FragmentCover {
        let mut ranges: Vec<(u64, u64)> = parts.into_iter().flatten().collect();
        ranges.sort_unstable();
        ranges.dedup();
        FragmentCover { ranges }
    }

    /// The cover of every function of `bin`, each recovered (in
    /// parallel); empty, and nothing recovered, when `bin` has no
    /// fragment.
    ///
    /// ```
    /// use ssakit_x86::{binary::Binary, lost::FragmentCover};
    /// // libpython's `_PyEval_EvalFrameDefault` jumps into its `.cold`
    /// // fragment (where Debian's libpython3.11 is installed).
    /// if let Ok(elf) = std::fs::read("/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0") {
    ///     let bin = Binary::parse(&elf).unwrap();
    ///     assert!(bin.has_fragments());
    ///     assert!(FragmentCover::compute(&bin).instructions() > 0);
    /// }
    /// ```
    pub fn compute(bin: &Binary<'_>) -> FragmentCover {
        use rayon::prelude::*;
        if !bin.has_fragments() {
            return FragmentCover::default();
        }
        let parts: Vec<Vec<(u64, u64)>> = bin
            .functions()
            .par_iter()
            .map(|f| FragmentCover::of_cfg(f, &crate::cfg::recover(bin, f)))
            .collect();
        FragmentCover::of_parts(parts)
    }

    /// The cover a lift of `chosen` needs: [`FragmentCover::compute`]
    /// when one of them is a fragment (its lost ranges are then those of
    /// `x86 stats`), else empty and nothing recovered. `x86 lift` and the
    /// Python package's `Elf.lift` both ask for it this way.
    ///
    /// ```
    /// use ssakit_x86::{binary::Binary, lost::FragmentCover};
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = Binary::parse(&elf).unwrap();
    /// assert_eq!(FragmentCover::for_lifting(&bin, bin.functions()).instructions(), 0);
    /// if let Ok(elf) = std::fs::read("/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0") {
    ///     let bin = Binary::parse(&elf).unwrap();
    ///     let hot = bin.functions().iter().filter(|f| !f.fragment);
    ///     assert_eq!(FragmentCover::for_lifting(&bin, hot).instructions(), 0);
    ///     assert!(FragmentCover::for_lifting(&bin, bin.functions()).instructions() > 0);
    /// }
    /// ```
    pub fn for_lifting<'f>(
        bin: &Binary<'_>,
        chosen: impl IntoIterator<Item = &'f FuncInfo>,
    ) -> FragmentCover {
        if chosen.into_iter().any(|f| f.fragment) {
            FragmentCover::compute(bin)
        } else {
            FragmentCover::default()
        }
    }

    /// The number of distinct instructions in it: those decoded in
    /// fragments by some function's walk, each counted once however many
    /// walks decoded it.
    ///
    /// ```
    /// use ssakit_x86::{binary::Binary, lost::FragmentCover};
    /// if let Ok(elf) = std::fs::read("/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0") {
    ///     let bin = Binary::parse(&elf).unwrap();
    ///     // Never more than the walks decoded outside their extents.
    ///     let outside: usize = bin
    ///         .functions()
    ///         .iter()
    ///         .map(|f| ssakit_x86::lift::lift(&bin, f).fragment_instructions)
    ///         .sum();
    ///     let cover = FragmentCover::compute(&bin).instructions();
    ///     assert!(0 < cover && cover <= outside);
    /// }
    /// ```
    pub fn instructions(&self) -> usize {
        self.ranges.len()
    }

    /// The instructions that may overlap `r` (those starting at most 15
    /// bytes, an instruction's longest, before it).
    fn near(&self, r: std::ops::Range<u64>) -> &[(u64, u64)] {
        let lo = self
            .ranges
            .partition_point(|&(a, _)| a < r.start.saturating_sub(15));
        let hi = self.ranges.partition_point(|&(a, _)| a < r.end);
        &self.ranges[lo..hi.max(lo)]
    }

    /// `f`'s lost ranges `lost` (of its own walk) less what the cover
    /// decoded in its extent: recovered again only for a fragment that
    /// lost code where the cover has instructions.
    ///
    /// ```
    /// use ssakit_x86::{binary::Binary, lift::lift, lost::FragmentCover};
    /// if let Ok(elf) = std::fs::read("/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0") {
    ///     let bin = Binary::parse(&elf).unwrap();
    ///     let cover = FragmentCover::compute(&bin);
    ///     let lost = |f| lift(&bin, f).lost.iter().map(|r| r.instructions).sum::<usize>();
    ///     let (mut before, mut after) = (0, 0);
    ///     for f in bin.functions().iter().filter(|f| f.fragment) {
    ///         let left = cover.subtract(&bin, f, lift(&bin, f).lost);
    ///         before += lost(f);
    ///         after += left.iter().map(|r| r.instructions).sum::<usize>();
    ///     }
    ///     // The fragments' own walks start at their first block only: what
    ///     // their functions reached is not lost.
    ///     assert!(after < before);
    /// }
    /// ```
    pub fn subtract(&self, bin: &Binary<'_>, f: &FuncInfo, lost: Vec<LostRange>) -> Vec<LostRange> {
        if !f.fragment || lost.is_empty() || self.near(f.extent.clone()).is_empty() {
            return lost;
        }
        lost_code_with(bin, f, &crate::cfg::recover(bin, f), self)
    }
}

/// Whether a linearly decoded instruction `ins` of `bytes` is padding: a
/// `nop` of any form (`xchg ax, ax`, GCC's two-byte one, included),
/// `int3`, `ud2` (a trap put where control never comes), or all zero
/// bytes.
pub(crate) fn is_padding(ins: &iced_x86::Instruction, bytes: &[u8]) -> bool {
    let self_xchg = ins.mnemonic() == Mnemonic::Xchg
        && ins.op0_kind() == iced_x86::OpKind::Register
        && ins.op1_kind() == iced_x86::OpKind::Register
        && ins.op0_register() == ins.op1_register();
    matches!(
        ins.mnemonic(),
        Mnemonic::Nop | Mnemonic::Int3 | Mnemonic::Ud2
    ) || self_xchg
        || bytes.iter().all(|&b| b == 0)
}

/// The ranges of `f`'s extent that `cfg` (its recovered control flow)
/// never decoded and that are not padding, in address order.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// for f in bin.functions() {
///     let cfg = ssakit_x86::cfg::recover(&bin, f);
///     assert_eq!(ssakit_x86::lost::lost_code(&bin, f, &cfg), vec![], "{}", f.name);
/// }
/// ```
pub fn lost_code(bin: &Binary<'_>, f: &FuncInfo, cfg: &FuncCfg) -> Vec<LostRange> {
    lost_code_with(bin, f, cfg, &FragmentCover::default())
}

/// [`lost_code`], less what other functions' walks decoded in `f`'s
/// extent when `f` is a fragment ([`FuncInfo::fragment`]): the code of a
/// `.cold` part that its function reached is not lost.
///
/// ```
/// use ssakit_x86::{binary::Binary, cfg::recover, lost::{lost_code, lost_code_with, FragmentCover}};
/// if let Ok(elf) = std::fs::read("/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0") {
///     let bin = Binary::parse(&elf).unwrap();
///     let cover = FragmentCover::compute(&bin);
///     for f in bin.functions().iter().filter(|f| f.fragment) {
///         let cfg = recover(&bin, f);
///         // The same as the cover subtracted from the walk's own ranges.
///         let plain = lost_code(&bin, f, &cfg);
///         assert_eq!(lost_code_with(&bin, f, &cfg, &cover), cover.subtract(&bin, f, plain));
///     }
/// }
/// ```
pub fn lost_code_with(
    bin: &Binary<'_>,
    f: &FuncInfo,
    cfg: &FuncCfg,
    cover: &FragmentCover,
) -> Vec<LostRange> {
    let start = f.extent.start;
    let code = bin.code(start).unwrap_or(&[]);
    let end = start + (f.extent.end - start).min(code.len() as u64);
    let mut decoded: Vec<(u64, u64)> = cfg
        .insts
        .iter()
        .map(|i| (i.ins.ip(), i.ins.next_ip()))
        .collect();
    if f.fragment {
        decoded.extend_from_slice(cover.near(start..end));
    }
    decoded.sort_unstable();
    // The unresolved indirect jumps, by address, with what the slice
    // saw (a jump it never tried: a computed target).
    let mut unresolved: Vec<(u64, JumpKind)> = cfg
        .blocks
        .iter()
        .filter(|b| b.end == End::TailCall(None))
        .filter_map(|b| b.insts.last())
        .map(|&i| &cfg.insts[i as usize])
        .filter(|i| i.access.flow == Flow::IndirectJump)
        .filter(|i| (start..end).contains(&i.ins.ip()))
        .map(|i| {
            let a = i.ins.ip();
            let k = cfg.unresolved.binary_search_by_key(&a, |&(b, _)| b);
            (a, k.map_or(JumpKind::Computed, |k| cfg.unresolved[k].1))
        })
        .collect();
    unresolved.sort_unstable();
    let mut out = Vec::new();
    let mut at = start;
    let mut next = decoded.iter().peekable();
    while at < end {
        // Skip what is decoded from `at` on.
        while let Some(&&(lo, hi)) = next.peek() {
            if lo > at {
                break;
            }
            at = at.max(hi);
            next.next();
        }
        if at >= end {
            break;
        }
        let gap_end = next.peek().map_or(end, |&&(lo, _)| lo.min(end));
        gap(code, start, at..gap_end, &unresolved, &mut out);
        at = gap_end;
    }
    out
}

/// Code in no function: the bytes of the executable sections (the PLT
/// apart) that no function's extent covers and that are not padding
/// (decoded linearly as [`lost_code`] decodes a gap). A stripped binary
/// whose `.eh_frame` does not describe all its code has such bytes: no
/// function is lifted for them, and [`lost_code`], which looks inside
/// extents, cannot see them.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let out = ssakit_x86::lost::outside_functions(&bin);
/// assert!(out.executable > 0 && out.bytes < out.executable);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outside {
    /// Bytes of the executable sections, the PLT apart.
    pub executable: u64,
    /// Of those, the bytes in no extent that are not padding.
    pub bytes: u64,
    /// Instructions in them, decoded linearly.
    pub instructions: usize,
    /// Maximal ranges of them.
    pub ranges: usize,
}

/// [`Outside`] of `bin`: its code in no function's extent.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// assert!(ssakit_x86::lost::outside_functions(&bin).ranges < bin.functions().len());
/// ```
pub fn outside_functions(bin: &Binary<'_>) -> Outside {
    let mut extents: Vec<(u64, u64)> = bin
        .functions()
        .iter()
        .map(|f| (f.extent.start, f.extent.end))
        .collect();
    extents.sort_unstable();
    // Their union, as disjoint ranges in address order (extents may
    // nest or overlap), so that the ends too are in order.
    let mut union: Vec<(u64, u64)> = Vec::with_capacity(extents.len());
    for (s, e) in extents {
        match union.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => union.push((s, e)),
        }
    }
    let mut out = Outside::default();
    let mut ranges = Vec::new();
    for (addr, code) in bin.code_sections() {
        let end = addr + code.len() as u64;
        out.executable += code.len() as u64;
        // The extents that meet [addr, end), in address order.
        let first = union.partition_point(|&(_, e)| e <= addr);
        let mut at = addr;
        for &(s, e) in &union[first..] {
            if s >= end {
                break;
            }
            if s > at {
                gap(code, addr, at..s, &[], &mut ranges);
            }
            at = at.max(e.min(end));
        }
        if at < end {
            gap(code, addr, at..end, &[], &mut ranges);
        }
    }
    for r in &ranges {
        out.bytes += r.bytes();
        out.instructions += r.instructions;
    }
    out.ranges = ranges.len();
    out
}

/// Decodes the gap `range` linearly (its last instruction may run past
/// its end) and appends its non-padding runs to `out`.
fn gap(
    code: &[u8],
    base: u64,
    range: std::ops::Range<u64>,
    unresolved: &[(u64, JumpKind)],
    out: &mut Vec<LostRange>,
) {
    let off = (range.start - base) as usize;
    let len = (range.end - range.start) as usize;
    let bytes = &code[off..off + len];
    let mut d = Decoder::with_ip(64, bytes, range.start, DecoderOptions::NONE);
    // The run being built: start, instructions, whether it met bad bytes.
    let mut run: Option<(u64, usize, bool)> = None;
    let close = |run: &mut Option<(u64, usize, bool)>, end: u64, out: &mut Vec<LostRange>| {
        if let Some((s, n, bad)) = run.take() {
            let reason = if bad {
                Reason::DataInCode
            } else {
                let k = unresolved.partition_point(|&(a, _)| a < s);
                match k.checked_sub(1) {
                    Some(k) => Reason::UnresolvedJump(unresolved[k].0, unresolved[k].1),
                    None => Reason::Unreachable,
                }
            };
            out.push(LostRange {
                start: s,
                end,
                instructions: n,
                reason,
            });
        }
    };
    while d.can_decode() {
        let ins = d.decode();
        let (a, n) = (ins.ip(), ins.len());
        let o = (a - range.start) as usize;
        let raw = &bytes[o..(o + n.max(1)).min(len)];
        if !ins.is_invalid() && is_padding(&ins, raw) {
            close(&mut run, a, out);
            continue;
        }
        let r = run.get_or_insert((a, 0, false));
        r.1 += 1;
        r.2 |= ins.is_invalid();
    }
    close(&mut run, range.end, out);
}

#[cfg(test)]
mod tests {
    //! Lost ranges of hand-assembled functions (bytes as GNU `as` encodes
    //! each commented instruction).

    use super::*;
    use crate::binary::Origin;
    use crate::cfg::recover;

    const CODE: u64 = 0x1000;

    fn lost(code: &[u8]) -> Vec<LostRange> {
        let bin = Binary::of_sections(&[(CODE, code, true)]);
        let f = FuncInfo {
            name: "f".into(),
            label: "f".into(),
            extent: CODE..CODE + code.len() as u64,
            origin: Origin::Symbol,
            fragment: false,
        };
        let cfg = recover(&bin, &f);
        lost_code(&bin, &f, &cfg)
    }

    /// `ret; nop; nop dword [rax]; int3; 00 00; xchg ax, ax`: all
    /// padding.
    #[test]
    fn padding_after_ret_is_not_lost() {
        let code = [0xc3, 0x90, 0x0f, 0x1f, 0x00, 0xcc, 0x00, 0x00, 0x66, 0x90];
        assert_eq!(lost(&code), vec![]);
    }

    /// `jmp rax; mov eax, 1; ret; nop`: the two instructions after the
    /// unresolved jump are lost because of it; the `nop` is padding.
    #[test]
    fn code_after_an_unresolved_jump_names_it() {
        let code = [0xff, 0xe0, 0xb8, 1, 0, 0, 0, 0xc3, 0x90];
        let want = LostRange {
            start: CODE + 2,
            end: CODE + 8,
            instructions: 2,
            reason: Reason::UnresolvedJump(CODE, JumpKind::Computed),
        };
        assert_eq!(lost(&code), vec![want]);
    }

    /// `ud2; xor eax, eax; ret`: unreachable after `ud2` (itself a
    /// trap, not counted).
    #[test]
    fn code_after_ud2_is_unreachable() {
        let code = [0x0f, 0x0b, 0x31, 0xc0, 0xc3];
        let r = lost(&code);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].start, r[0].instructions), (CODE + 2, 2));
        assert_eq!(r[0].reason, Reason::Unreachable);
    }

    /// A section `ret; int3; int3; xor eax, eax; ret; nop; ret` whose
    /// only function covers the first `ret`: the `int3`s and the `nop` are
    /// padding, `xor eax, eax; ret` and the last `ret` lie in no function
    /// (two ranges, split by the padding).
    #[test]
    fn code_in_no_extent_is_outside() {
        let code = [0xc3, 0xcc, 0xcc, 0x31, 0xc0, 0xc3, 0x90, 0xc3];
        let f = FuncInfo {
            name: "f".into(),
            label: "f".into(),
            extent: CODE..CODE + 1,
            origin: Origin::Symbol,
            fragment: false,
        };
        let bin = Binary::of_sections(&[(CODE, &code, true)]).with_functions(vec![f]);
        let want = Outside {
            executable: 8,
            bytes: 4,
            instructions: 3,
            ranges: 2,
        };
        assert_eq!(outside_functions(&bin), want);
        let none = Binary::of_sections(&[(CODE, &code[..1], true), (0x2000, &code, false)]);
        assert_eq!(outside_functions(&none).executable, 1);
    }

    /// An extent nested in a longer one (a cold part inside its parent's
    /// symbol range) hides nothing: the longer one still covers the start
    /// of a later section (`ret` at `CODE`, then `xor eax, eax; ret` ×2
    /// and `ret` at `CODE + 0x10`; extents `0..0x17` and `5..6`): only
    /// the last `ret` is outside.
    #[test]
    fn nested_extents_cover_their_union() {
        let code = [0x31, 0xc0, 0xc3, 0x31, 0xc0, 0xc3, 0xc3, 0xc3];
        let f = |start: u64, end: u64| FuncInfo {
            name: "f".into(),
            label: "f".into(),
            extent: CODE + start..CODE + end,
            origin: Origin::Symbol,
            fragment: false,
        };
        let bin = Binary::of_sections(&[(CODE, &[0xc3], true), (CODE + 0x10, &code, true)])
            .with_functions(vec![f(0, 0x17), f(5, 6)]);
        let want = Outside {
            executable: 9,
            bytes: 1,
            instructions: 1,
            ranges: 1,
        };
        assert_eq!(outside_functions(&bin), want);
    }

    /// `ret; 0x06` (`push es`, invalid in 64-bit mode): data in code.
    #[test]
    fn bytes_that_are_no_instruction_are_data() {
        let r = lost(&[0xc3, 0x06, 0xc3]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].reason, Reason::DataInCode);
        assert_eq!((r[0].start, r[0].end), (CODE + 1, CODE + 3));
    }
}
