//! Function discovery beyond the symbols and the FDEs: the functions of
//! a stripped binary that `.eh_frame` does not describe (chapter 13.8,
//! "En binarios": the CFG of a function is recovered from its entry, so
//! a function nobody knows the entry of is never lifted).
//!
//! The tools that recover functions from stripped code all combine the
//! same sources, and this module takes them in the same order of trust:
//!
//! * angr's `CFGFast` starts from the entry point, the symbols and the
//!   FDEs, adds every direct `call` target of the code it decodes, scans
//!   data for code pointers, and finally sweeps the gaps between known
//!   functions, starting a function after alignment padding ("function
//!   prologue" and "complete scanning" modes);
//! * Ghidra's analyzers do the same in passes ("Subroutine References",
//!   "Function Start Search" after padding, "Scalar Operand References"
//!   to code stored in data), each creating functions the next passes
//!   decode;
//! * Nucleus (Andriesse et al., EuroS&P 2017) groups the basic blocks of
//!   a linear sweep into functions by their intraprocedural edges, and
//!   counts the targets of calls as the starts.
//!
//! What is taken, as three sources of candidate starts, each candidate a
//! function [`recover`]ed with its extent bounded by the next start
//! known:
//!
//! 1. **call targets** ([`Origin::Call`]): the direct `call`s (and the
//!    tail-call `jmp`s of the functions found) of the
//!    functions known (decoded linearly inside their extents) and of
//!    every function found, to a fixed point: each function found gives
//!    new targets (a worklist, no recursion);
//! 2. **entry points and pointers** ([`Origin::Entry`],
//!    [`Origin::Pointer`]): `e_entry`, `.init`, `.fini` (`DT_INIT` and
//!    `DT_FINI`), the words of `.init_array`, `.fini_array` and
//!    `.preinit_array`, the targets of the `R_X86_64_RELATIVE` and
//!    `IRELATIVE` relocations of a PIE or shared object, and, in a
//!    binary without relative relocations (static, non-PIE), every
//!    aligned 8-byte word of its data that points into code;
//! 3. **gaps** ([`Origin::Gap`]): the code between extents, after its
//!    padding (`nop` forms, `int3`, zeros): the first instruction there.
//!
//! A call target or an entry point is trusted: decoded code jumps there.
//! A pointer or a gap start is only a guess, accepted when its control
//! flow is *plausible*: no byte that decodes to no instruction, and no
//! path that runs off its extent into the next function's start, unless
//! by the fall-through of a `call` (a callee that never returns). A
//! rejected gap start moves the sweep to the end of its run of code (the
//! next padding).
//!
//! A function found gets the extent of its decoded instructions from
//! its start on, while the holes between them are small (a block far
//! away that a jump reaches is another function's: the jump is a tail
//! call, and its target is a candidate as a call's is), clipped at the
//! next function's start once every start is known. The gaps are swept
//! again while a sweep finds a function (at most 8 sweeps). Discovery
//! never changes a function the symbols or the FDEs gave, and a
//! candidate inside one of their extents is not a function. The
//! instructions decoded are bounded by a budget of one per executable
//! byte (plus a constant): on garbage the discovery stops there
//! ([`Discovery::exhausted`]), so it stays linear in the size of the
//! file.

use crate::binary::{Binary, FuncInfo, Origin};
use crate::cfg::{recover, End, FuncCfg};
use crate::regs::{flow, Flow};
use iced_x86::{Decoder, DecoderOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

/// What [`discover`] found.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture-stripped")).unwrap();
/// let mut bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let d = ssakit_x86::discover::discover(&mut bin);
/// assert_eq!(d.found(), d.by_origin.iter().map(|(_, n)| n).sum::<usize>());
/// assert!(!d.exhausted);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    /// Functions found, by origin ([`Origin::Entry`], [`Origin::Call`],
    /// [`Origin::Pointer`], [`Origin::Gap`]), in that order.
    pub by_origin: Vec<(Origin, usize)>,
    /// Candidates rejected as implausible (pointers and gap starts).
    pub rejected: usize,
    /// Instructions decoded by the candidates' control-flow recovery.
    pub decoded: usize,
    /// Whether the decoding budget ran out (garbage): some candidates
    /// were left untried.
    pub exhausted: bool,
}

impl Discovery {
    /// Functions found in all.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::discover::Discovery::default().found(), 0);
    /// ```
    pub fn found(&self) -> usize {
        self.by_origin.iter().map(|&(_, n)| n).sum()
    }
}

/// The discovery's state: the starts known, the extents of the
/// functions found, the worklist.
struct Finder<'a, 'd> {
    bin: &'a Binary<'d>,
    /// The union of the given functions' extents, disjoint, in order.
    given: Vec<Range<u64>>,
    /// Every function start: given and found.
    starts: BTreeSet<u64>,
    /// The functions found: start → (end, origin).
    found: BTreeMap<u64, (u64, Origin)>,
    /// Candidates: address and origin, popped last first.
    work: Vec<(u64, Origin)>,
    /// Instructions the budget still allows.
    budget: usize,
    /// Gap starts tried and rejected (not tried again).
    rejected_gaps: BTreeSet<u64>,
    out: Discovery,
}

/// Finds the functions of `bin` that neither a symbol nor an FDE gives
/// (see the module doc) and adds them to its functions, named
/// `sub_ADDRESS`, each with its [`Origin`].
///
/// ```
/// use ssakit_x86::binary::{Binary, Origin};
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/");
/// let elf = std::fs::read(format!("{dir}fixture")).unwrap();
/// let mut bin = Binary::parse(&elf).unwrap();
/// let before = bin.functions().to_vec();
/// ssakit_x86::discover::discover(&mut bin);
/// // The functions the symbols give are kept as they were.
/// assert!(before.iter().all(|f| bin.functions().contains(f)));
/// // `_start` (e_entry) has no symbol with a size: it is found.
/// let start = bin.functions().iter().find(|f| f.origin == Origin::Entry);
/// assert!(start.is_some());
/// ```
pub fn discover(bin: &mut Binary<'_>) -> Discovery {
    let found = {
        let mut f = Finder::new(bin);
        f.run();
        f.finish()
    };
    let (funcs, out) = found;
    bin.add_discovered(funcs);
    out
}

/// The instructions decoded beyond one per executable byte before
/// discovery gives up.
const BUDGET_SLACK: usize = 100_000;

/// The most sweeps of the gaps: each after the last found a function
/// (one or two suffice on the binaries measured; the bound keeps the
/// linear decoding of the gaps linear on any input).
const MAX_SWEEPS: usize = 8;

impl<'a, 'd> Finder<'a, 'd> {
    fn new(bin: &'a Binary<'d>) -> Finder<'a, 'd> {
        let mut extents: Vec<Range<u64>> =
            bin.functions().iter().map(|f| f.extent.clone()).collect();
        extents.sort_unstable_by_key(|r| (r.start, r.end));
        let mut given: Vec<Range<u64>> = Vec::with_capacity(extents.len());
        for r in extents {
            match given.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => given.push(r),
            }
        }
        let executable: usize = bin.code_sections().map(|(_, b)| b.len()).sum();
        Finder {
            bin,
            given,
            starts: bin.functions().iter().map(|f| f.extent.start).collect(),
            found: BTreeMap::new(),
            work: Vec::new(),
            budget: executable.saturating_add(BUDGET_SLACK),
            rejected_gaps: BTreeSet::new(),
            out: Discovery::default(),
        }
    }

    /// The three sources, each to a fixed point, then the gaps swept
    /// until a sweep finds nothing (at most [`MAX_SWEEPS`] times).
    fn run(&mut self) {
        self.seed_calls();
        self.try_all(self.bin.roots.entries.clone(), Origin::Entry);
        let mut pointers: Vec<u64> = self.bin.roots.pointers.clone();
        if !self.bin.roots.relocated {
            pointers.extend(self.data_words());
        }
        self.try_all(pointers, Origin::Pointer);
        for _ in 0..MAX_SWEEPS {
            if self.out.exhausted || !self.sweep_gaps() {
                break;
            }
        }
    }

    /// The direct call targets of the given functions, decoded linearly
    /// inside their extents. Each extent is decoded on its own (a new
    /// decoder at its start), so the extents are decoded in parallel: the
    /// targets are the same, and [`Self::try_all`] sorts them.
    fn seed_calls(&mut self) {
        use rayon::prelude::*;
        let bin = self.bin;
        let targets: Vec<u64> = self
            .given
            .par_iter()
            .flat_map_iter(|r| direct_calls(bin, r))
            .collect();
        self.try_all(targets, Origin::Call);
    }

    /// Tries the candidates `addrs` of `origin`, lowest address first,
    /// and what they lead to.
    fn try_all(&mut self, mut addrs: Vec<u64>, origin: Origin) {
        addrs.sort_unstable();
        addrs.dedup();
        self.work
            .extend(addrs.into_iter().rev().map(|a| (a, origin)));
        self.drain();
    }

    /// The aligned 8-byte words of the data sections that point into
    /// code outside the given extents.
    fn data_words(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for (addr, bytes) in self.bin.data_sections() {
            let skip = (addr.wrapping_neg() & 7) as usize;
            let Some(rest) = bytes.get(skip..) else {
                continue;
            };
            for w in rest.chunks_exact(8) {
                let v = u64::from_le_bytes(w.try_into().expect("8 bytes"));
                if self.is_candidate(v) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// Whether `a` is code, outside the PLT and the given extents, and
    /// no function's start yet.
    fn is_candidate(&self, a: u64) -> bool {
        self.bin.is_code(a)
            && !self.bin.in_plt(a)
            && !covers(&self.given, a)
            && !self.starts.contains(&a)
    }

    /// Whether a function found covers `a` (its start excluded).
    fn in_found(&self, a: u64) -> bool {
        self.found
            .range(..a)
            .next_back()
            .is_some_and(|(_, &(end, _))| end > a)
    }

    /// Tries every candidate of the worklist, and the call targets of
    /// each function found.
    fn drain(&mut self) {
        while let Some((a, origin)) = self.work.pop() {
            if !self.is_candidate(a) {
                continue;
            }
            let trusted = matches!(origin, Origin::Call | Origin::Entry);
            // A guess inside a function found is code of that function.
            if !trusted && self.in_found(a) {
                continue;
            }
            if self.try_function(a, origin).is_none() && !self.out.exhausted {
                self.out.rejected += 1;
            }
            if self.out.exhausted {
                self.work.clear();
            }
        }
    }

    /// Recovers the function at `a`, bounded by the next start; keeps it
    /// if trusted or plausible (then queues its call targets) and returns
    /// its end.
    fn try_function(&mut self, a: u64, origin: Origin) -> Option<u64> {
        let code_end = a + self.bin.code(a).map_or(0, |c| c.len() as u64);
        let bound = self
            .starts
            .range(a + 1..)
            .next()
            .map_or(code_end, |&s| s.min(code_end));
        if self.budget == 0 {
            self.out.exhausted = true;
            return None;
        }
        let info = FuncInfo {
            name: String::new(),
            label: String::new(),
            extent: a..bound,
            origin,
            fragment: false,
        };
        let cfg = recover(self.bin, &info);
        self.out.decoded += cfg.insts.len();
        self.budget = self.budget.saturating_sub(cfg.insts.len());
        let trusted = matches!(origin, Origin::Call | Origin::Entry);
        if cfg.insts.is_empty() || (!trusted && !plausible(&cfg, bound)) {
            return None;
        }
        let end = contiguous_end(&cfg, a).min(bound);
        self.starts.insert(a);
        self.found.insert(a, (end, origin));
        for i in &cfg.insts {
            // A call's target, or a jump's beyond the extent (a tail
            // call).
            let t = i.ins.near_branch_target();
            let tail = i.access.flow == Flow::Jump && !(a..end).contains(&t);
            if (i.access.flow == Flow::Call || tail) && self.is_candidate(t) {
                self.work.push((t, Origin::Call));
            }
        }
        Some(end)
    }

    /// One sweep of the code in no extent: after each run of padding,
    /// the next instruction is tried as a function's start. Whether a
    /// function was found.
    fn sweep_gaps(&mut self) -> bool {
        let mut found_any = false;
        let sections: Vec<(u64, &'d [u8])> = self.bin.code_sections().collect();
        for (addr, code) in sections {
            let end = addr + code.len() as u64;
            let mut at = addr;
            while at < end && !self.out.exhausted {
                // Past any extent covering `at`.
                if let Some(e) = self.covering_end(at) {
                    at = e;
                    continue;
                }
                let limit = self.next_extent_start(at).min(end);
                let off = (at - addr) as usize;
                let bytes = &code[off..(limit - addr) as usize];
                let mut d = Decoder::with_ip(64, bytes, at, DecoderOptions::NONE);
                // Skip the padding.
                let mut start = None;
                while d.can_decode() {
                    let ins = d.decode();
                    if !is_pad(&ins, bytes, at) {
                        start = Some(ins.ip());
                        break;
                    }
                }
                let Some(s) = start else {
                    at = limit;
                    continue;
                };
                let fresh = !self.starts.contains(&s) && !self.rejected_gaps.contains(&s);
                if fresh && self.try_function(s, Origin::Gap).is_some() {
                    found_any = true;
                    self.drain();
                    at = s;
                    continue;
                }
                if self.starts.contains(&s) {
                    at = self.covering_end(s).unwrap_or(s + 1);
                    continue;
                }
                if fresh {
                    self.out.rejected += 1;
                    self.rejected_gaps.insert(s);
                }
                // Past this run of code: to the next padding.
                at = run_end(&code[(s - addr) as usize..(limit - addr) as usize], s);
            }
        }
        found_any
    }

    /// The end of the extent (given or found) that covers `a`, if any.
    fn covering_end(&self, a: u64) -> Option<u64> {
        let i = self.given.partition_point(|r| r.start <= a);
        if i > 0 && self.given[i - 1].end > a {
            return Some(self.given[i - 1].end);
        }
        self.found
            .range(..=a)
            .next_back()
            .filter(|(_, &(end, _))| end > a)
            .map(|(_, &(end, _))| end)
    }

    /// The first start of an extent (given or found) after `a`.
    fn next_extent_start(&self, a: u64) -> u64 {
        let i = self.given.partition_point(|r| r.start <= a);
        let g = self.given.get(i).map_or(u64::MAX, |r| r.start);
        let f = self
            .found
            .range(a + 1..)
            .next()
            .map_or(u64::MAX, |(&s, _)| s);
        g.min(f)
    }

    /// The functions found, each clipped at the next start, and the
    /// counts.
    fn finish(mut self) -> (Vec<FuncInfo>, Discovery) {
        let mut funcs = Vec::with_capacity(self.found.len());
        let mut counts = [0usize; 4];
        for (&start, &(end, origin)) in &self.found {
            let next = self.starts.range(start + 1..).next().copied();
            let end = next.map_or(end, |n| end.min(n));
            counts[match origin {
                Origin::Entry => 0,
                Origin::Call => 1,
                Origin::Pointer => 2,
                _ => 3,
            }] += 1;
            funcs.push(FuncInfo {
                name: format!("sub_{start:x}"),
                label: String::new(),
                extent: start..end,
                origin,
                fragment: false,
            });
        }
        self.out.by_origin = [Origin::Entry, Origin::Call, Origin::Pointer, Origin::Gap]
            .into_iter()
            .zip(counts)
            .collect();
        (funcs, self.out)
    }
}

/// The targets of the direct `call`s decoded linearly in `r` (nothing if
/// `r` is not code).
fn direct_calls(bin: &Binary<'_>, r: &Range<u64>) -> Vec<u64> {
    let mut targets = Vec::new();
    let Some(code) = bin.code(r.start) else {
        return targets;
    };
    let len = ((r.end - r.start) as usize).min(code.len());
    let mut d = Decoder::with_ip(64, &code[..len], r.start, DecoderOptions::NONE);
    while d.can_decode() {
        let ins = d.decode();
        if flow(&ins) == Flow::Call {
            targets.push(ins.near_branch_target());
        }
    }
    targets
}

/// Whether a guessed function's control flow is plausible: no invalid
/// bytes, no instruction past `bound`, and no path running into `bound`
/// except after a `call`.
fn plausible(cfg: &FuncCfg, bound: u64) -> bool {
    if cfg
        .insts
        .iter()
        .any(|i| i.access.flow == Flow::Invalid || i.ins.next_ip() > bound)
    {
        return false;
    }
    cfg.blocks.iter().all(|b| match (&b.end, b.insts.last()) {
        (End::TailCall(Some(t)), Some(&last)) if *t == bound => {
            let f = cfg.insts[last as usize].access.flow;
            f == Flow::Jump || f.is_call()
        }
        _ => true,
    })
}

/// The most bytes between two decoded instructions of one extent (an
/// alignment's padding, a few bytes no path reaches).
const MAX_HOLE: u64 = 16;

/// The end of the decoded code from `start` on, instruction after
/// instruction while the holes between them are at most [`MAX_HOLE`]
/// bytes: a block far away that a jump reaches is another function's
/// (a tail call), not part of this extent.
fn contiguous_end(cfg: &FuncCfg, start: u64) -> u64 {
    let mut spans: Vec<(u64, u64)> = cfg
        .insts
        .iter()
        .map(|i| (i.ins.ip(), i.ins.next_ip()))
        .collect();
    spans.sort_unstable();
    let mut end = start;
    for (s, e) in spans {
        if s > end.saturating_add(MAX_HOLE) {
            break;
        }
        end = end.max(e);
    }
    end
}

/// The address after the run of non-padding code starting at `s`
/// (`bytes` from `s` on): the first padding instruction's, or the end.
fn run_end(bytes: &[u8], s: u64) -> u64 {
    let mut d = Decoder::with_ip(64, bytes, s, DecoderOptions::NONE);
    let mut past_first = false;
    while d.can_decode() {
        let ins = d.decode();
        if past_first && is_pad(&ins, bytes, s) {
            return ins.ip();
        }
        past_first = true;
    }
    s + bytes.len() as u64
}

/// Whether `ins`, decoded from `bytes` (starting at `base`), is padding.
fn is_pad(ins: &iced_x86::Instruction, bytes: &[u8], base: u64) -> bool {
    let o = (ins.ip() - base) as usize;
    let raw = &bytes[o..(o + ins.len()).min(bytes.len())];
    !ins.is_invalid() && crate::lost::is_padding(ins, raw)
}

fn covers(sorted: &[Range<u64>], addr: u64) -> bool {
    let i = sorted.partition_point(|r| r.start <= addr);
    i > 0 && sorted[i - 1].end > addr
}
