//! Calling conventions: what a call reads and clobbers and what a return
//! hands back when nothing better is known of the callee, one model per
//! binary (section 13.8 of the chapter: the call boundary is where the
//! machine's variables meet; Van Emmerik, "Static Single Assignment for
//! Decompilation", 2007, chapter 3, takes the convention as the fallback
//! of the signatures found with SSA, [`crate::signature`]).
//!
//! * **System V** (C, C++, Rust on ELF): arguments in `rdi rsi rdx rcx r8
//!   r9` and `xmm0`–`xmm7` (`rax` the vector-argument count of a
//!   variadic call), results in `rax rdx xmm0 xmm1`; `rbx rbp r12`–`r15`
//!   (and `rsp`) callee-saved, every other register, the flags and the
//!   vector registers clobbered. These are [`LocSet::CALL_READS`],
//!   [`LocSet::CALL_WRITES`] and [`RET_LOCS`].
//! * **Go's register ABI** (`ABIInternal`, Go 1.17 and later, in
//!   `src/cmd/compile/abi-internal.md`): integer arguments and results in
//!   `rax rbx rcx rdi rsi r8 r9 r10 r11`, floating-point ones in
//!   `xmm0`–`xmm14`; `rdx` the closure context, `r14` the current
//!   goroutine and `xmm15` zero (fixed: read by every call, kept by
//!   every callee), `rbp` the frame pointer (kept); everything else is
//!   clobbered: Go has no callee-saved register. Detected from the Go
//!   build-id note (`.note.go.buildid`) or `.go.buildinfo`.
//! * **Windows x64** (the model only, for PE files later): arguments in
//!   `rcx rdx r8 r9` and `xmm0`–`xmm3`, results in `rax xmm0`; `rax rcx
//!   rdx r8`–`r11`, `xmm0`–`xmm5` and the flags clobbered; `rbx rbp rdi
//!   rsi r12`–`r15` and `xmm6`–`xmm15` callee-saved.
//!
//! ```
//! use ssakit_x86::conv::{Convention, ConvKind};
//! use ssakit_x86::regs::Loc;
//! let go = Convention::of_kind(ConvKind::GoAbiInternal);
//! assert!(go.call_reads.contains(Loc::RBX) && go.call_writes.contains(Loc::RBX));
//! let sysv = Convention::of_kind(ConvKind::SystemV);
//! assert!(!sysv.call_reads.contains(Loc::RBX) && !sysv.call_writes.contains(Loc::RBX));
//! ```

use crate::regs::{Loc, LocSet, CALL_ARGS, RET_LOCS};

/// Go's integer argument and result registers, in order.
const GO_INTS: [Loc; 9] = [
    Loc::RAX,
    Loc::RBX,
    Loc::RCX,
    Loc::RDI,
    Loc::RSI,
    Loc::R8,
    Loc::R9,
    Loc::R10,
    Loc::R11,
];

/// Which calling convention a binary follows.
///
/// ```
/// use ssakit_x86::conv::ConvKind;
/// assert_eq!(ConvKind::GoAbiInternal.name(), "go-abiinternal");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvKind {
    /// The System V AMD64 ABI (C, C++ and Rust on ELF).
    SystemV,
    /// Go's register ABI, `ABIInternal`.
    GoAbiInternal,
    /// The Microsoft x64 convention (PE files; the model only).
    Win64,
}

impl ConvKind {
    /// The name printed in signatures and statistics.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::conv::ConvKind::SystemV.name(), "sysv");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ConvKind::SystemV => "sysv",
            ConvKind::GoAbiInternal => "go-abiinternal",
            ConvKind::Win64 => "win64",
        }
    }
}

/// One calling convention: the reads and writes of a call whose callee's
/// signature is not known, and what a return reads.
///
/// # Invariants
/// `call_args` lists `call_reads` (each once), `ret_locs` lists
/// `ret_reads`; `results` ⊆ `ret_reads`; `preserved` and `call_writes`
/// are disjoint; `rsp` is in `call_reads`, `ret_reads` and `preserved`.
///
/// ```
/// use ssakit_x86::conv::{Convention, ConvKind};
/// use ssakit_x86::regs::{Loc, LocSet};
/// let w = Convention::of_kind(ConvKind::Win64);
/// assert_eq!(w.call_args[..4], [Loc::RCX, Loc::RDX, Loc::R8, Loc::R9]);
/// assert!(w.preserved.contains(Loc::xmm(6)) && !w.preserved.contains(Loc::xmm(5)));
/// assert!(!w.preserved.intersects(w.call_writes));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Convention {
    /// Which convention.
    pub kind: ConvKind,
    /// What a call reads, in the order of its operands.
    pub call_args: Vec<Loc>,
    /// `call_args` as a set.
    pub call_reads: LocSet,
    /// What a call clobbers.
    pub call_writes: LocSet,
    /// What a return reads, in the order of its values.
    pub ret_locs: Vec<Loc>,
    /// `ret_locs` as a set.
    pub ret_reads: LocSet,
    /// The registers that may carry a result.
    pub results: LocSet,
    /// The registers a callee keeps (callee-saved, `rsp`, fixed ones).
    pub preserved: LocSet,
    /// The positional argument registers, each list in order: an
    /// unknown callee (indirect, external) is taken to read a list's
    /// registers up to the last one its caller wrote
    /// ([`crate::signature`]). System V: `rdi rsi rdx rcx r8 r9`,
    /// `xmm0`–`xmm7`, and `rax` alone (the vector-argument count of a
    /// variadic call); Go: its nine integer and fifteen floating-point
    /// registers; Windows: `rcx rdx r8 r9`, `xmm0`–`xmm3`. The other
    /// reads (`rsp`, Go's `rdx r14 xmm15`) are always read.
    pub positional: Vec<Vec<Loc>>,
}

impl Convention {
    /// The model of `kind`.
    ///
    /// ```
    /// use ssakit_x86::conv::{Convention, ConvKind};
    /// use ssakit_x86::regs::LocSet;
    /// let c = Convention::of_kind(ConvKind::SystemV);
    /// assert_eq!((c.call_reads, c.call_writes), (LocSet::CALL_READS, LocSet::CALL_WRITES));
    /// ```
    pub fn of_kind(kind: ConvKind) -> Convention {
        let xmms = |r: std::ops::Range<u8>| r.map(Loc::xmm).collect::<Vec<_>>();
        let positional = match kind {
            ConvKind::SystemV => vec![CALL_ARGS[..6].to_vec(), xmms(0..8), vec![Loc::RAX]],
            ConvKind::GoAbiInternal => vec![GO_INTS.to_vec(), xmms(0..15)],
            ConvKind::Win64 => vec![vec![Loc::RCX, Loc::RDX, Loc::R8, Loc::R9], xmms(0..4)],
        };
        let (call_args, call_writes, ret_locs, results, preserved) = match kind {
            ConvKind::SystemV => {
                let results = LocSet::of(&[Loc::RAX, Loc::RDX, Loc::xmm(0), Loc::xmm(1)]);
                // What a return reads beside the results: the
                // callee-saved registers and `rsp`.
                let preserved = LocSet::RET_READS.difference(results);
                (
                    CALL_ARGS.to_vec(),
                    LocSet::CALL_WRITES,
                    RET_LOCS.to_vec(),
                    results,
                    preserved,
                )
            }
            ConvKind::GoAbiInternal => {
                let ints = GO_INTS;
                let mut args = ints.to_vec();
                args.extend([Loc::RDX, Loc::R14, Loc::RSP]);
                args.extend(xmms(0..16));
                let mut rets = ints.to_vec();
                rets.extend([Loc::RBP, Loc::R14, Loc::RSP]);
                rets.extend(xmms(0..16));
                let results = LocSet::of(&ints).union(LocSet::of(&xmms(0..15)));
                let preserved = LocSet::of(&[Loc::RSP, Loc::RBP, Loc::R14, Loc::xmm(15)]);
                let writes = LocSet::ALL.difference(preserved);
                (args, writes, rets, results, preserved)
            }
            ConvKind::Win64 => {
                let mut args = vec![Loc::RCX, Loc::RDX, Loc::R8, Loc::R9, Loc::RSP];
                args.extend(xmms(0..4));
                let preserved = LocSet::of(&[
                    Loc::RBX,
                    Loc::RBP,
                    Loc::RDI,
                    Loc::RSI,
                    Loc::RSP,
                    Loc::R12,
                    Loc::R13,
                    Loc::R14,
                    Loc::R15,
                ])
                .union(LocSet::of(&xmms(6..16)));
                let results = LocSet::of(&[Loc::RAX, Loc::xmm(0)]);
                let mut rets = vec![Loc::RAX];
                rets.extend(preserved.intersection(LocSet::GPRS).iter());
                rets.push(Loc::xmm(0));
                rets.extend(xmms(6..16));
                let writes = LocSet::ALL.difference(preserved);
                (args, writes, rets, results, preserved)
            }
        };
        Convention {
            kind,
            call_reads: LocSet::of(&call_args),
            call_args,
            call_writes,
            ret_reads: LocSet::of(&ret_locs),
            ret_locs,
            results,
            preserved,
            positional,
        }
    }
}

/// Whether an ELF file's section names say it was built by Go's
/// toolchain: a `.note.go.buildid` note or a `.go.buildinfo` section.
///
/// ```
/// assert!(ssakit_x86::conv::is_go_section(".note.go.buildid"));
/// assert!(!ssakit_x86::conv::is_go_section(".note.gnu.build-id"));
/// ```
pub fn is_go_section(name: &str) -> bool {
    matches!(name, ".note.go.buildid" | ".go.buildinfo")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invariants_hold_for_every_convention() {
        for kind in [ConvKind::SystemV, ConvKind::GoAbiInternal, ConvKind::Win64] {
            let c = Convention::of_kind(kind);
            assert_eq!(c.call_args.len(), c.call_reads.len(), "{kind:?}");
            assert_eq!(c.ret_locs.len(), c.ret_reads.len(), "{kind:?}");
            assert_eq!(c.results.difference(c.ret_reads), LocSet::EMPTY, "{kind:?}");
            assert!(!c.preserved.intersects(c.call_writes), "{kind:?}");
            for list in &c.positional {
                assert_eq!(LocSet::of(list).difference(c.call_reads), LocSet::EMPTY);
            }
            for s in [c.call_reads, c.ret_reads, c.preserved] {
                assert!(s.contains(Loc::RSP), "{kind:?}");
            }
        }
    }

    #[test]
    fn go_keeps_only_its_fixed_registers() {
        let c = Convention::of_kind(ConvKind::GoAbiInternal);
        assert_eq!(c.preserved.len(), 4);
        assert!(c.call_writes.contains(Loc::R12) && c.call_writes.contains(Loc::xmm(14)));
        assert!(c.call_reads.contains(Loc::R14) && c.call_reads.contains(Loc::xmm(15)));
    }
}
