//! The whole-function value oracle (docs/x86.md, "The whole-function
//! value oracle"): whole functions lifted with meaning
//! ([`Options::semantics`](ssakit_x86::lift::Options)) run in ssakit's
//! interpreter and under Unicorn from the same random start state, and
//! what they compute must agree: at the return, the sixteen general
//! registers and the seven flags (those the meaning does not leave
//! `undef`), and every byte of memory either side wrote. The interpreter
//! runs each function three times per state: in pruned SSA, after
//! `copy-prop,const-prop,dce`, and after destruction.
//!
//! * **Memory.** The binary's `PT_LOAD` segments at their addresses (code
//!   read-only under Unicorn), a stack, a heap and a TLS block (`fs`) of
//!   pointer-like words (pointers into the heap, small numbers, random
//!   words); pages a run touches that are mapped nowhere are zero pages
//!   on both sides (at most 64 a run, mapped by Unicorn on the fault).
//!   The interpreter's memory ([`Memory::flat`]) maps the same regions
//!   and holds the bytes of the pages the CPU touched.
//! * **Calls** (direct, through the GOT, indirect, tail calls, jumps out
//!   of the function): the CPU does not run the callee. Both sides apply
//!   one *call model*: call number `n` of the run sets the caller-saved
//!   registers (`rax rcx rdx rsi rdi r8`–`r11`) to `gpr(n, k)` and the
//!   flags `cf pf af zf sf of` to bit 0 of `mix(n, 9 + k)`, `df` to 0
//!   (`mix`: a splitmix-style finaliser, `tests/support/unicorn_functions.py`).
//!   In the interpreter each callee is a function of the module that
//!   computes the same from a counter kept in memory (`model_function`);
//!   under Unicorn the script does it at the call (the return address
//!   stored below `rsp` as the lifted `call` stores it).
//!   With signatures (`SSAKIT_VALUE_ORACLE_SIGNATURES=1` for the corpus;
//!   always in `fixture_functions_with_signatures_...`), the functions are
//!   lifted with [`Signatures`] and stack promotion, and the call model
//!   follows each callee's signature: it sets only the registers and
//!   flags the callee does not preserve (the callee-saved ones it
//!   clobbers to `gpr(n, 16 + k)`, `k` in `rbx rbp r12`–`r15`).
//! * **What stays opaque** (`x86.MNEMONIC`: vector and system
//!   instructions, jump-table selectors, `rep` strings) becomes a call of
//!   a function that executes `unreachable`; the CPU stops at its address.
//!   Both stopping there is a skip, counted with the mnemonic.
//! * The lifted function is made runnable first (`runnable`): its `v128`
//!   variables become `i64` (the interpreter holds no 128-bit value; no
//!   operation of the set reads them, since the vector instructions stay
//!   opaque), and every `ret` returns the 23 locations.
//!
//!   On a Go binary (Go's register ABI) without signatures, the call
//!   model clobbers what the convention says a call clobbers, the
//!   callee-saved `rbx r12 r13 r15` too.
//!
//! A case is skipped, with its reason counted, when a side cannot run it
//! to the return: an opaque operation reached, a call that never
//! returns, a fault (an access neither side can map, a write to code), the
//! step bound (20,000 instructions), a `ret` with the stack not back where
//! it was at the entry (after a call that never returns but that the CFG
//! does not know as such, Go's `runtime.throw`: the CPU then returns to a
//! data word). Anything else that differs is a
//! mismatch. `SSAKIT_VALUE_ORACLE_FAULT=carry|zext` plants a fault in the
//! lifted meaning (the carry of `sub` and `cmp` inverted; a 32-bit register write
//! sign-extended instead of zero-extended); `planted_faults_are_caught`
//! checks that the oracle sees both.
//!
//! On a mismatch, `SSAKIT_VALUE_ORACLE_DEBUG=1` prints the blocks the
//! interpreter entered, `SSAKIT_VALUE_ORACLE_TRACE=ENTRY` (the function's
//! address in hex) the blocks the CPU ran, and
//! `SSAKIT_VALUE_ORACLE_KEEP=1` keeps the cases given to Python in the
//! temporary directory.
//!
//! Needs the `unicorn` wheel of `scripts/install-unicorn.sh`: without it
//! the tests say so and pass, unless `SSAKIT_REQUIRE_UNICORN=1`. The
//! sample: the fixtures whole, and from the corpus (this machine's libc,
//! bash and libpython of `SSAKIT_X86_CORPUS`) 20, 10 and 10 functions, or
//! 200, 100 and 100 with `SSAKIT_VALUE_ORACLE_FULL=1`, and 10 (100) of the
//! Go fixture built here (skipped without `go` unless
//! `SSAKIT_REQUIRE_GO=1`).

use ssakit::construct::Flavor;
use ssakit::destruct::DestructOptions;
use ssakit::interp::{ErrorKind, Interpreter, Memory, RunOptions, State, Value};
use ssakit::ir::{Effects, Function, Inst, InstData, Module, Operand, Type};
use ssakit::opt::Pass;
use ssakit::pipeline::{Error as PipelineError, Observer, Pipeline};
use ssakit_x86::binary::{Binary, FuncInfo};
use ssakit_x86::cfg::{recover, End, Target};
use ssakit_x86::regs::{Flow, Loc, LocKind, LocSet};
use ssakit_x86::signature::Signatures;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

#[path = "support/go.rs"]
mod go;
#[path = "support/hex.rs"]
mod hex;
#[path = "support/rng.rs"]
mod rng;
#[path = "support/unicorn.rs"]
mod unicorn;
use hex::{hex, unhex};
use rng::Rng;

const PAGE: u64 = 4096;
const STACK: u64 = 0x7ff0_0000;
const STACK_SIZE: u64 = 0x10000;
const HEAP: u64 = 0x1000_0000;
const HEAP_SIZE: u64 = 0x10000;
const TLS: u64 = 0x7fe0_0000;
const TLS_SIZE: u64 = 0x2000;
/// The call model's counter (the interpreter's side only).
const COUNTER: u64 = 0x5ee0_0000;
/// The return address at `[rsp]`: reaching it ends the CPU's run.
const RET_MAGIC: u64 = 0x5ee1_0000;
/// Steps of the interpreter per step of the CPU's bound.
const FUEL: u64 = 20_000 * 200;
/// The flags in the model's order (`cf pf af zf sf of df`) and their bit
/// in RFLAGS.
const FLAG_BITS: [u32; 7] = [0, 2, 4, 6, 7, 11, 10];
/// The general registers in the model's order.
const GPRS: [&str; 16] = [
    "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
    "r14", "r15",
];
const FLAGS: [&str; 7] = ["cf", "pf", "af", "zf", "sf", "of", "df"];
/// What a call writes, in the call model's order.
const CALL_GPRS: [&str; 9] = ["rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"];
/// The callee-saved registers a call clobbers where its callee's
/// signature does not preserve them: results 16 and up of the model.
const EXTRA_GPRS: [&str; 6] = ["rbx", "rbp", "r12", "r13", "r14", "r15"];

impl Rng {
    /// A word of memory or a register: a pointer into the heap or the
    /// stack, a small number, or an edge or random value.
    fn word(&mut self) -> u64 {
        match self.below(8) {
            0..=2 => HEAP + 8 * self.below(HEAP_SIZE / 8 - 64),
            3 => STACK + 0x8000 + 8 * self.below(0x800),
            4 => self.below(32),
            5 => [0, u64::MAX, 1, 0x8000_0000, 0x7fff_ffff, 0xffff_ffff][self.below(6) as usize],
            6 => self.next() & 0xffff_ffff,
            _ => self.next(),
        }
    }
    /// A word of the stack, heap or TLS: as [`Rng::word`], but never a
    /// random 64-bit value (most are not canonical: a pointer loaded
    /// from memory would end most runs in a fault).
    fn memory_word(&mut self) -> u64 {
        match self.below(8) {
            0..=3 => HEAP + 8 * self.below(HEAP_SIZE / 8 - 64),
            4 => STACK + 0x8000 + 8 * self.below(0x800),
            5 => self.below(32),
            6 => [0, u64::MAX, 1, 0x8000_0000, 0x7fff_ffff, 0xffff_ffff][self.below(6) as usize],
            _ => self.next() & 0xffff_ffff,
        }
    }
}

/// A planted fault of the meaning, for `planted_faults_are_caught`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fault {
    /// The carry of `sub` and `cmp` inverted (`i64.lt_u` → `i64.ge_u`,
    /// and `i32`).
    Carry,
    /// A 32-bit register write sign-extends (`i64.extend_i32_u` →
    /// `i64.extend_i32_s` into a general register).
    ZeroExtension,
}

fn fault_from_env() -> Option<Fault> {
    match std::env::var("SSAKIT_VALUE_ORACLE_FAULT").as_deref() {
        Ok("carry") => Some(Fault::Carry),
        Ok("zext") => Some(Fault::ZeroExtension),
        Ok(other) => panic!("SSAKIT_VALUE_ORACLE_FAULT={other}: carry or zext"),
        Err(_) => None,
    }
}

/// A `PT_LOAD` segment: where it goes, what the file holds of it, its
/// permissions (`PF_X`, `PF_W`, `PF_R` bits).
struct Segment {
    vaddr: u64,
    memsz: u64,
    offset: u64,
    filesz: u64,
    flags: u32,
}

/// The `PT_LOAD` segments of a little-endian ELF64 file.
fn segments(elf: &[u8]) -> Vec<Segment> {
    const E_PHOFF: usize = 0x20;
    const E_PHENTSIZE: usize = 0x36;
    const E_PHNUM: usize = 0x38;
    const PT_LOAD: u32 = 1;
    let u16_at = |o: usize| u16::from_le_bytes(elf[o..o + 2].try_into().unwrap()) as usize;
    let u32_at = |o: usize| u32::from_le_bytes(elf[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(elf[o..o + 8].try_into().unwrap());
    let (phoff, size, n) = (
        u64_at(E_PHOFF) as usize,
        u16_at(E_PHENTSIZE),
        u16_at(E_PHNUM),
    );
    (0..n)
        .map(|k| phoff + k * size)
        .filter(|&p| u32_at(p) == PT_LOAD)
        .map(|p| Segment {
            flags: u32_at(p + 4),
            offset: u64_at(p + 8),
            vaddr: u64_at(p + 16),
            filesz: u64_at(p + 32),
            memsz: u64_at(p + 40),
        })
        .collect()
}

/// The start state's memory, the same for every case of a binary: the
/// segments, and the stack, heap and TLS block of pointer-like words.
struct Image<'e> {
    elf: &'e [u8],
    segments: Vec<Segment>,
    /// Generated regions: start address and bytes.
    regions: Vec<(u64, Vec<u8>)>,
    /// Every mapped page, with its permissions (`r`, `w`, `x` letters).
    pages: BTreeMap<u64, String>,
}

impl<'e> Image<'e> {
    fn new(elf: &'e [u8], rng: &mut Rng) -> Image<'e> {
        let segments = segments(elf);
        let mut pages: BTreeMap<u64, String> = BTreeMap::new();
        for s in &segments {
            let perms = [(4, 'r'), (2, 'w'), (1, 'x')]
                .iter()
                .filter(|(bit, _)| s.flags & bit != 0)
                .map(|&(_, c)| c);
            for p in (s.vaddr / PAGE..(s.vaddr + s.memsz).div_ceil(PAGE)).map(|p| p * PAGE) {
                let e = pages.entry(p).or_default();
                for c in perms.clone() {
                    if !e.contains(c) {
                        e.push(c);
                    }
                }
            }
        }
        let mut regions = Vec::new();
        for (start, size) in [(STACK, STACK_SIZE), (HEAP, HEAP_SIZE), (TLS, TLS_SIZE)] {
            let bytes = (0..size / 8)
                .flat_map(|_| rng.memory_word().to_le_bytes())
                .collect();
            regions.push((start, bytes));
            for p in (start..start + size).step_by(PAGE as usize) {
                pages.insert(p, "rw".to_string());
            }
        }
        Image {
            elf,
            segments,
            regions,
            pages,
        }
    }

    /// The bytes of page `p` in the start state.
    fn page(&self, p: u64) -> Vec<u8> {
        let mut out = vec![0u8; PAGE as usize];
        for s in &self.segments {
            let (lo, hi) = (p.max(s.vaddr), (p + PAGE).min(s.vaddr + s.filesz));
            for a in lo..hi {
                out[(a - p) as usize] = self.elf[(s.offset + a - s.vaddr) as usize];
            }
        }
        for (start, bytes) in &self.regions {
            let end = start + bytes.len() as u64;
            for a in p.max(*start)..(p + PAGE).min(end) {
                out[(a - p) as usize] = bytes[(a - start) as usize];
            }
        }
        out
    }

    /// The lines that make it under Unicorn (`map`, `load`, `fill`).
    fn script(&self, out: &mut String) {
        let mut runs: Vec<(u64, u64, &str)> = Vec::new();
        for (&p, perms) in &self.pages {
            match runs.last_mut() {
                Some((start, len, pr)) if *start + *len == p && *pr == perms.as_str() => {
                    *len += PAGE
                }
                _ => runs.push((p, PAGE, perms)),
            }
        }
        for (start, len, perms) in runs {
            let _ = writeln!(out, "map {start:x} {len:x} {perms}");
        }
        for s in &self.segments {
            let _ = writeln!(out, "load {:x} {:x} {:x}", s.vaddr, s.offset, s.filesz);
        }
        for (start, bytes) in &self.regions {
            let _ = writeln!(out, "fill {start:x} {}", hex(bytes));
        }
    }
}

/// Where the CPU does what the lifted function does instead of the
/// instruction (`unicorn_functions.py`'s sites): `c` a call, `t` a tail
/// call or a jump out of the function, `n` a call that never returns, `s`
/// an opaque operation; address and length.
/// A site's clobber mask: bit `I` for location `I` of the model's order
/// (vector registers left out).
fn bits(clobbers: LocSet) -> u64 {
    let all: Vec<Loc> = LocSet::ALL.iter().collect();
    clobbers
        .iter()
        .filter(|l| l.kind() != LocKind::Vector)
        .map(|l| 1u64 << all.iter().position(|&m| m == l).unwrap())
        .sum()
}

fn sites(
    bin: &Binary<'_>,
    info: &FuncInfo,
    opaque: &BTreeSet<u64>,
    sigs: Option<&Signatures>,
) -> Vec<(char, u64, u64, Option<u64>)> {
    let cfg = recover(bin, info);
    let mut out: BTreeMap<u64, (char, u64)> = BTreeMap::new();
    // With signatures, what each call clobbers (by the callee's address,
    // `None` for an indirect one): the call model follows it.
    let mut targets: BTreeMap<u64, Option<u64>> = BTreeMap::new();
    for blk in &cfg.blocks {
        for &i in &blk.insts {
            let ins = &cfg.insts[i as usize];
            let direct = matches!(ins.access.flow, Flow::Call | Flow::Jump)
                && ins.ins.near_branch_target() != 0;
            targets.insert(ins.ins.ip(), direct.then(|| ins.ins.near_branch_target()));
            if matches!(ins.access.flow, Flow::Call | Flow::IndirectCall) {
                out.insert(ins.ins.ip(), ('c', ins.ins.len() as u64));
            }
        }
        let last = blk.insts.last().map(|&i| &cfg.insts[i as usize]);
        let terminator = last.filter(|i| i.access.flow.is_terminator());
        match &blk.end {
            End::TailCall(a) => match (terminator, a) {
                (Some(ins), _) => {
                    out.insert(ins.ins.ip(), ('t', ins.ins.len() as u64));
                }
                (None, Some(a)) => {
                    out.insert(*a, ('t', 0));
                }
                (None, None) => {}
            },
            End::NoReturn => {
                if let Some(ins) =
                    last.filter(|i| matches!(i.access.flow, Flow::Call | Flow::IndirectCall))
                {
                    out.insert(ins.ins.ip(), ('n', ins.ins.len() as u64));
                }
            }
            End::Branch(t, f) => {
                for t in [t, f] {
                    if let Target::Outside(a) = t {
                        out.insert(*a, ('t', 0));
                    }
                }
            }
            End::Switch(ts, d) => {
                for t in ts.iter().chain([d]) {
                    if let Target::Outside(a) = t {
                        out.insert(*a, ('t', 0));
                    }
                }
            }
            End::Invoke { pad, .. } => {
                // The call itself is a `c` site above; the CPU never
                // unwinds (the call model does not either).
                if let Target::Outside(a) = pad {
                    out.insert(*a, ('t', 0));
                }
            }
            End::Jump(_) | End::Ret => {}
        }
    }
    for &a in opaque {
        out.insert(a, ('s', 0));
    }
    // Without signatures, what the binary's convention says a call
    // clobbers: System V's caller-saved registers are the call model's
    // default (no mask); Go's register ABI clobbers the callee-saved ones
    // too (`rbx`, `r12`, `r13`, `r15`).
    let conv = ssakit_x86::conv::Convention::of_kind(bin.convention());
    let mask = |a: u64, k: char, n: u64| {
        if k == 's' {
            return None;
        }
        let Some(sigs) = sigs else {
            return (conv.kind != ssakit_x86::conv::ConvKind::SystemV)
                .then(|| bits(conv.call_writes));
        };
        // A site of size 0 is a jump out of the function to `a` itself.
        let target = if n == 0 {
            Some(a)
        } else {
            targets.get(&a).copied().flatten()
        };
        let clobbers = target
            .and_then(|t| sigs.at(t))
            .filter(|s| !s.fallback)
            .map_or(sigs.convention().call_writes, |s| s.clobbers());
        Some(bits(clobbers))
    };
    out.into_iter()
        .map(|(a, (k, n))| (k, a, n, mask(a, k, n)))
        .collect()
}

/// The explicit memory operands of `info`'s instructions, for
/// `unicorn_functions.py`'s check of canonical addresses:
/// `ADDR:BASE:INDEX:SCALE:DISP:FS,...` (`-` for none).
fn memory_operands(bin: &Binary<'_>, info: &FuncInfo) -> String {
    use iced_x86::{Mnemonic, OpKind, Register};
    let num = |r: Register| {
        GPRS.iter()
            .position(|g| r != Register::None && format!("{r:?}").eq_ignore_ascii_case(g))
            .map_or("x".to_string(), |k| k.to_string())
    };
    let cfg = recover(bin, info);
    let mut out = Vec::new();
    for insn in &cfg.insts {
        let ins = &insn.ins;
        let mem = (0..ins.op_count()).any(|i| ins.op_kind(i) == OpKind::Memory);
        if !mem
            || ins.is_ip_rel_memory_operand()
            || matches!(ins.mnemonic(), Mnemonic::Lea | Mnemonic::Nop)
        {
            continue;
        }
        out.push(format!(
            "{:x}:{}:{}:{}:{:x}:{}",
            ins.ip(),
            num(ins.memory_base()),
            num(ins.memory_index()),
            ins.memory_index_scale(),
            ins.memory_displacement64(),
            u8::from(ins.memory_segment() == Register::FS)
        ));
    }
    match out.is_empty() {
        true => "-".to_string(),
        false => out.join(","),
    }
}

/// Plants `fault` in the lifted function `f` (before construction).
fn plant(
    f: &mut Function,
    fault: Fault,
    sub_sites: &BTreeSet<u64>,
    origins: &ssakit_x86::lift::Origins,
) {
    let mut edits = Vec::new();
    for b in f.blocks() {
        for &i in f.block_insts(b) {
            let InstData::Op { op, results, .. } = f.inst(i) else {
                continue;
            };
            let name = f.operator_name(*op);
            let dst = results.as_slice(f).first().map(|&v| f.base_name(v));
            let swap = match fault {
                Fault::Carry => {
                    let at_sub = origins
                        .inst(i)
                        .is_some_and(|s| sub_sites.contains(&s.address));
                    match (name, dst) {
                        ("i64.lt_u", Some("cf")) if at_sub => Some("i64.ge_u"),
                        ("i32.lt_u", Some("cf")) if at_sub => Some("i32.ge_u"),
                        _ => None,
                    }
                }
                Fault::ZeroExtension => match (name, dst) {
                    ("i64.extend_i32_u", Some(d)) if GPRS.contains(&d) => Some("i64.extend_i32_s"),
                    _ => None,
                },
            };
            if let Some(s) = swap {
                edits.push((i, s));
            }
        }
    }
    for (i, name) in edits {
        let new = f.operator(name, Effects::PURE).unwrap();
        if let InstData::Op {
            imms,
            args,
            results,
            ..
        } = *f.inst(i)
        {
            f.set_inst(
                i,
                InstData::Op {
                    op: new,
                    imms,
                    args,
                    results,
                },
            );
        }
    }
}

/// The lifted function made runnable, and the addresses of its opaque
/// operations: `v128` variables become `i64` (a text round trip),
/// every opaque operation a call of `opaque_ADDRESS` (which executes
/// `unreachable`), an indirect call or jump (`x86.call.x`,
/// `x86.jmp.x`) a call of `indirect_ADDRESS`, and every `ret` returns
/// the 16 general registers and the 7 flags. With it, the functions of
/// the module it runs in: a call model per callee, a stop per opaque
/// operation.
fn runnable(f: &Function) -> Result<(Function, Vec<Function>, BTreeSet<u64>), String> {
    let text = ssakit::text::print_module(&Module {
        functions: vec![f.clone()],
    })
    .replace("v128", "i64");
    let mut f = ssakit::text::parse_module(&text)
        .map_err(|e| format!("the text round trip: {e:?}"))?
        .functions
        .remove(0);
    let mut opaque = BTreeSet::new();
    let mut edits = Vec::new();
    for b in f.blocks() {
        for &i in f.block_insts(b) {
            let InstData::Op {
                op,
                imms,
                args,
                results,
            } = *f.inst(i)
            else {
                continue;
            };
            if f.opcode(op).is_some() {
                continue;
            }
            let name = f.operator_name(op);
            let at = imms.as_slice(&f).first().copied().unwrap_or(0) as u64;
            // Whether a call covered by a landing pad unwound: the call
            // model never unwinds (nor does the CPU, which skips the call).
            if name == "x86.unwinds" {
                edits.push((i, "no_unwind".to_string(), None, results));
                continue;
            }
            let indirect = matches!(name, "x86.call.x" | "x86.jmp.x");
            if !indirect {
                opaque.insert(at);
            }
            let mnemonic = name
                .trim_start_matches("x86.")
                .split('.')
                .next()
                .unwrap_or("");
            let callee = match indirect {
                true => format!("indirect_{at:x}"),
                false => format!("opaque_{at:x}_{mnemonic}"),
            };
            edits.push((i, callee, indirect.then_some(args), results));
        }
    }
    for (i, callee, args, results) in edits {
        let args = args.unwrap_or_else(|| f.list::<Operand>(&[]));
        set_call(&mut f, i, &callee, args, results);
    }
    // With signatures, the calls of one unknown callee read what each
    // site passes: one model per callee and arity.
    let calls: Vec<Inst> = f
        .blocks()
        .flat_map(|b| f.block_insts(b).to_vec())
        .filter(|&i| matches!(f.inst(i), InstData::Call { .. }))
        .collect();
    for i in calls {
        if let InstData::Call {
            callee,
            args,
            results,
        } = *f.inst(i)
        {
            let name = format!("{}.a{}", f.callee_name(callee), args.as_slice(&f).len());
            set_call(&mut f, i, &name, args, results);
        }
    }
    let vals: Vec<Operand> = GPRS
        .iter()
        .chain(&FLAGS)
        .map(|n| Operand::Var(f.var_by_name(n).expect("a location's variable")))
        .collect();
    for b in f.blocks() {
        if matches!(f.term(b), ssakit::ir::Terminator::Ret(_)) {
            let t = f.ret_term(&vals);
            f.set_term(b, t);
        }
    }
    let mut types = vec![Type::I64; 16];
    types.extend([Type::I32; 7]);
    f.set_returns(Some(types));
    // The callees.
    let mut callees: BTreeMap<String, (usize, Vec<(String, Type)>)> = BTreeMap::new();
    for b in f.blocks() {
        for &i in f.block_insts(b) {
            if let InstData::Call {
                callee,
                args,
                results,
            } = f.inst(i)
            {
                let rs = results
                    .as_slice(&f)
                    .iter()
                    .map(|&v| (f.base_name(v).to_string(), f.var_type(v)))
                    .collect();
                callees
                    .entry(f.callee_name(*callee).to_string())
                    .or_insert((args.as_slice(&f).len(), rs));
            }
        }
    }
    let mut src = String::from(
        "operator i64.load trap read\noperator i64.store trap write\noperator i64.add pure\n\
         operator i64.mul pure\noperator i64.xor pure\noperator i64.shr_u pure\n\
         operator i64.and pure\noperator i64.eqz pure\noperator i32.wrap_i64 pure\n\
         operator select pure\n\n",
    );
    for (name, (arity, results)) in &callees {
        if name.starts_with("opaque_") {
            let _ = writeln!(src, "function {name}() {{\ne:\n    unreachable\n}}\n");
        } else if name.starts_with("no_unwind") {
            let _ = writeln!(src, "function {name}() -> (i32) {{\ne:\n    ret 0\n}}\n");
        } else {
            src.push_str(&model_function(name, *arity, results));
        }
    }
    let extra = match callees.is_empty() {
        true => Vec::new(),
        false => {
            ssakit::text::parse_module(&src)
                .map_err(|e| format!("the call models: {e:?}"))?
                .functions
        }
    };
    Ok((f, extra, opaque))
}

/// Makes instruction `i` a call of `name`.
fn set_call(
    f: &mut Function,
    i: Inst,
    name: &str,
    args: ssakit::entity::EntityList<Operand>,
    results: ssakit::entity::EntityList<ssakit::ir::Var>,
) {
    let callee = f.callee(name);
    f.set_inst(
        i,
        InstData::Call {
            callee,
            args,
            results,
        },
    );
}

/// The call model as a function named `name` of `arity` parameters
/// returning `results` (each a location's name and type): call number `n`
/// (a counter at [`COUNTER`]) gives a caller-saved general register `k`
/// `gpr(n, k)`, a flag `k` bit 0 of `mix(n, 9 + k)`, `df` and the others
/// (the vector registers) 0; `unicorn_functions.py` computes the same.
fn model_function(name: &str, arity: usize, results: &[(String, Type)]) -> String {
    const K1: u64 = 0x9E37_79B9_7F4A_7C15;
    const K2: u64 = 0xD6E8_FEB8_6659_FD93;
    let params: Vec<String> = (0..arity).map(|k| format!("p{k}")).collect();
    let types: Vec<&str> = results
        .iter()
        .map(|(_, t)| if *t == Type::I32 { "i32" } else { "i64" })
        .collect();
    let mut s = format!(
        "function {name}({}) -> ({}) {{\ne:\n    n = i64.load[0, 0, 0]({COUNTER})\n    \
         n1 = i64.add(n, 1)\n    i64.store[0, 0, 0]({COUNTER}, n1)\n    b = i64.mul(n, 64)\n",
        params.join(", "),
        types.join(", ")
    );
    let mut rets = Vec::new();
    for (k, (loc, _)) in results.iter().enumerate() {
        let idx = CALL_GPRS
            .iter()
            .position(|g| g == loc)
            .or_else(|| FLAGS[..6].iter().position(|g| g == loc).map(|i| 9 + i))
            .or_else(|| EXTRA_GPRS.iter().position(|g| g == loc).map(|i| 16 + i));
        let Some(idx) = idx else {
            rets.push("0".to_string());
            continue;
        };
        let _ = write!(
            s,
            "    x{k} = i64.add(b, {})\n    y{k} = i64.mul(x{k}, {})\n    s{k} = i64.shr_u(y{k}, 32)\n    \
             u{k} = i64.xor(y{k}, s{k})\n    v{k} = i64.mul(u{k}, {})\n    w{k} = i64.shr_u(v{k}, 32)\n    \
             z{k} = i64.xor(v{k}, w{k})\n",
            idx + 1,
            K1 as i64,
            K2 as i64
        );
        if !(9..16).contains(&idx) {
            let _ = write!(
                s,
                "    m{k} = i64.shr_u(z{k}, 58)\n    a{k} = i64.and(z{k}, 2)\n    c{k}: i32 = i64.eqz(a{k})\n    \
                 r{k} = select(m{k}, z{k}, c{k})\n"
            );
        } else {
            let _ = write!(
                s,
                "    a{k} = i64.and(z{k}, 1)\n    r{k}: i32 = i32.wrap_i64(a{k})\n"
            );
        }
        rets.push(format!("r{k}"));
    }
    let _ = write!(s, "    ret {}\n}}\n\n", rets.join(", "));
    s
}

/// One function ready to run: its three forms, each a module whose
/// function 0 is the lifted one.
struct Prepared {
    name: String,
    entry: u64,
    sites: Vec<(char, u64, u64, Option<u64>)>,
    /// Pruned SSA, after the passes, after destruction.
    forms: [Module; 3],
    /// The parameters after the 39 (`fs_base`, `gs_base`).
    segment_params: Vec<String>,
    /// With stack promotion: the stack below the entry `rsp` is dead at
    /// the return (promoted slots are never stored there), so neither
    /// side's bytes there are compared.
    dead_frame: bool,
}

const FORMS: [&str; 3] = [
    "pruned SSA",
    "after copy-prop,const-prop,dce",
    "after destruction",
];

/// The forms a run goes through before destruction: pruned SSA, and the
/// same after the passes.
struct Forms(Option<Function>, Option<Function>);

impl Observer for Forms {
    fn constructed(&mut self, _: Flavor, ssa: &Function, _: bool) -> Result<(), PipelineError> {
        self.0 = Some(ssa.clone());
        Ok(())
    }

    fn after_passes(&mut self, ssa: &Function) {
        self.1 = Some(ssa.clone());
    }
}

/// `info` lifted with meaning, made runnable, in its three forms; or why
/// not (a skip reason, or `Err` for a failure of the pipeline).
fn prepare(
    bin: &Binary<'_>,
    info: &FuncInfo,
    fault: Option<Fault>,
    sigs: Option<&Signatures>,
) -> Result<Result<Prepared, String>, String> {
    let opts = ssakit_x86::lift::Options { semantics: true };
    let mut lifted = match sigs {
        Some(sigs) => {
            let mut l = ssakit_x86::signature::lift_with_signatures(bin, info, &opts, sigs);
            ssakit_x86::signature::promote_signed(&mut l.func, &mut l.origins, bin, info, sigs);
            l
        }
        None => ssakit_x86::lift::lift_with(bin, info, &opts),
    };
    if let Some(fault) = fault {
        let cfg = recover(bin, info);
        let subs: BTreeSet<u64> = cfg
            .insts
            .iter()
            .filter(|i| {
                matches!(
                    i.ins.mnemonic(),
                    iced_x86::Mnemonic::Sub | iced_x86::Mnemonic::Cmp
                )
            })
            .map(|i| i.ins.ip())
            .collect();
        plant(&mut lifted.func, fault, &subs, &lifted.origins);
    }
    let (f, extra, opaque) = match runnable(&lifted.func) {
        Ok(x) => x,
        Err(e) => return Ok(Err(format!("not runnable: {e}"))),
    };
    let mut run = Pipeline {
        verify: true,
        passes: Pass::parse("copy-prop,const-prop,dce").unwrap(),
        destruct: Some(DestructOptions::default()),
        ..Default::default()
    };
    run.construct.flavor = Flavor::Pruned;
    let mut forms = Forms(None, None);
    let f = run
        .run_observed(f, &mut forms)
        .map_err(|e| format!("{}: {e}", info.name))?
        .func;
    let (Some(pruned), Some(optimised)) = (forms.0, forms.1) else {
        unreachable!("the run constructs and runs passes");
    };
    let module = |g: Function| {
        let mut functions = vec![g];
        functions.extend(extra.iter().cloned());
        Module { functions }
    };
    let segment_params = pruned
        .params()
        .iter()
        .skip(39)
        .map(|&p| pruned.base_name(p).to_string())
        .collect();
    Ok(Ok(Prepared {
        name: info.name.clone(),
        entry: info.extent.start,
        sites: sites(bin, info, &opaque, sigs),
        forms: [module(pruned), module(optimised), module(f)],
        segment_params,
        dead_frame: sigs.is_some(),
    }))
}

/// One start state.
struct Case {
    regs: [u64; 16],
    rflags: u64,
}

fn random_case(rng: &mut Rng) -> Case {
    let mut regs = [0u64; 16];
    for r in regs.iter_mut() {
        *r = rng.word();
    }
    // rsp = 8 mod 16 at the entry, as after a call; a frame above it.
    regs[4] = STACK + 0x9000 + 16 * rng.below(0x100) + 8;
    let mut rflags = 0x202;
    for &b in &FLAG_BITS[..6] {
        rflags |= rng.below(2) << b;
    }
    Case { regs, rflags }
}

/// What the CPU did in one case (a line of `unicorn_functions.py`).
struct Cpu {
    end: CpuEnd,
    /// The calls made.
    calls: u64,
    /// The pages read or written.
    touched: Vec<u64>,
    /// The pages mapped as zero on a fault.
    zeroed: Vec<u64>,
}

/// How the CPU's run ended.
enum CpuEnd {
    Ret {
        rflags: u64,
        regs: Vec<u64>,
        writes: Vec<(u64, Vec<u8>)>,
    },
    Stop {
        what: String,
        addr: u64,
    },
    Fault(String),
    Steps,
}

fn parse_cpu(line: &str) -> Cpu {
    let p: Vec<&str> = line.split_whitespace().collect();
    let num = |s: &str| u64::from_str_radix(s, 16).unwrap();
    let list = |s: &str| -> Vec<u64> {
        match s {
            "-" => vec![],
            _ => s.split(',').map(num).collect(),
        }
    };
    let end = match p[0] {
        "ret" => CpuEnd::Ret {
            rflags: num(p[6]),
            regs: p[7..23].iter().map(|s| num(s)).collect(),
            writes: match p[23] {
                "-" => vec![],
                w => w
                    .split(';')
                    .map(|x| {
                        let (a, b) = x.split_once(':').unwrap();
                        (num(a), unhex(b))
                    })
                    .collect(),
            },
        },
        "stop" => CpuEnd::Stop {
            what: p[1].to_string(),
            addr: num(p[2]),
        },
        "fault" => CpuEnd::Fault(format!("{} at rip {}", p[1], p[2])),
        _ => CpuEnd::Steps,
    };
    Cpu {
        end,
        calls: p[3].parse().unwrap(),
        touched: list(p[4]),
        zeroed: list(p[5]),
    }
}

/// The tally of one sample.
#[derive(Default)]
struct Tally {
    functions: usize,
    /// Functions with at least one case compared at the return.
    compared: usize,
    cases: usize,
    cases_compared: usize,
    /// Cases skipped, by reason.
    skipped: BTreeMap<String, usize>,
    /// Functions with no case compared, by the reason of their first case.
    functions_skipped: BTreeMap<String, usize>,
    mismatches: Vec<String>,
    /// Functions with a mismatch.
    mismatched_functions: usize,
}

/// The interpreter's memory at the start of a case the CPU ran to the
/// return: every region mapped, the pages the CPU touched filled.
fn start_memory(img: &Image<'_>, case: &Case, touched: &[u64], zeroed: &[u64]) -> Memory {
    let mut m = Memory::flat();
    for &p in img.pages.keys().chain(zeroed) {
        m.map(p, PAGE);
    }
    m.map(COUNTER, 8);
    // A page a faulting access named is touched but mapped nowhere.
    for &p in touched {
        if img.pages.contains_key(&p) {
            m.write(p, &img.page(p)).unwrap();
        }
    }
    m.write(COUNTER, &0u64.to_le_bytes()).unwrap();
    m.write(case.regs[4], &RET_MAGIC.to_le_bytes()).unwrap();
    m
}

/// The lifted function's arguments for `case`: the 16 general registers,
/// the 7 flags, the 16 vector registers (0: nothing reads them), then
/// `fs_base` (the TLS block) or `gs_base` (0) where the function takes
/// them.
fn arguments(p: &Prepared, case: &Case) -> Vec<i64> {
    let mut args: Vec<i64> = case.regs.iter().map(|&r| r as i64).collect();
    args.extend(FLAG_BITS.iter().map(|&b| ((case.rflags >> b) & 1) as i64));
    args.extend([0; 16]);
    for s in &p.segment_params {
        args.push(match s.as_str() {
            "fs_base" => (TLS + 0x1000) as i64,
            _ => 0,
        });
    }
    args
}

/// Runs form `module` from `case` on `memory`.
fn interpret(
    i: &Interpreter<'_>,
    p: &Prepared,
    case: &Case,
    memory: Memory,
) -> (Result<Vec<Value>, ssakit::interp::RuntimeError>, Memory) {
    let args = arguments(p, case);
    let mut state = State {
        memory,
        ..State::default()
    };
    let opts = RunOptions {
        fuel: FUEL,
        ..RunOptions::default()
    };
    let r = i.run_in(0, &args, &mut state, &opts).map(|out| {
        let mut v = vec![out.ret.unwrap_or(Value::Undef)];
        v.extend(out.extra_rets);
        v
    });
    (r, state.memory)
}

/// The differences between the CPU's return and the interpreter's.
fn compare_return(
    cpu: (&[u64], u64),
    vals: &[Value],
    undefined: &[bool],
    expected: &Memory,
    got: &Memory,
) -> Vec<String> {
    let (regs, rflags) = cpu;
    let mut diffs = Vec::new();
    for (k, name) in GPRS.iter().enumerate() {
        match vals[k] {
            _ if undefined[k] => {}
            Value::Undef => {}
            v if v == Value::Int(regs[k] as i64) => {}
            v => diffs.push(format!("{name}: cpu {:#x}, ssakit {v}", regs[k])),
        }
    }
    for (k, name) in FLAGS.iter().enumerate() {
        let cpu = ((rflags >> FLAG_BITS[k]) & 1) as i64;
        match vals[16 + k] {
            _ if undefined[16 + k] => {}
            Value::Undef => {}
            v if v == Value::Int(cpu) => {}
            v => diffs.push(format!("{name}: cpu {cpu}, ssakit {v}")),
        }
    }
    let (e, g) = (expected.nonzero_bytes(), got.nonzero_bytes());
    if e != g {
        let e: BTreeMap<u64, u8> = e.into_iter().collect();
        let g: BTreeMap<u64, u8> = g.into_iter().collect();
        let addrs: BTreeSet<u64> = e.keys().chain(g.keys()).copied().collect();
        let bad: Vec<String> = addrs
            .iter()
            .filter(|a| e.get(a) != g.get(a))
            .take(4)
            .map(|a| {
                format!(
                    "byte {a:#x}: cpu {:#x}, ssakit {:#x}",
                    e.get(a).copied().unwrap_or(0),
                    g.get(a).copied().unwrap_or(0)
                )
            })
            .collect();
        diffs.push(format!("memory: {}", bad.join(", ")));
    }
    diffs
}

fn is_trap(r: &Result<Vec<Value>, ssakit::interp::RuntimeError>) -> bool {
    matches!(r, Err(e) if matches!(e.kind, ErrorKind::Trap { .. }))
}

/// Classifies one case in one form: `Ok(None)` compared and equal,
/// `Ok(Some(reason))` skipped, `Err(mismatch)`.
fn judge(
    img: &Image<'_>,
    i: &Interpreter<'_>,
    p: &Prepared,
    case: &Case,
    cpu: &Cpu,
    undefined: &mut Vec<bool>,
) -> Result<Option<String>, String> {
    let start = start_memory(img, case, &cpu.touched, &cpu.zeroed);
    match &cpu.end {
        CpuEnd::Steps => Ok(Some("the step bound (20,000 instructions)".into())),
        CpuEnd::Fault(e) if e.contains("write-protected") => {
            Ok(Some("a write to read-only memory".into()))
        }
        CpuEnd::Fault(e) => match interpret(i, p, case, start).0 {
            Err(err) if matches!(err.kind, ErrorKind::Trap { .. }) => {
                let kind = e.split(" at ").next().unwrap_or("");
                Ok(Some(format!("a fault on both sides ({kind})")))
            }
            // A `ret` with the stack not back at the entry's: the CPU
            // popped no return address and ran on from a data word, the
            // interpreter's `ret` left the function. The path went through
            // a call that never returns (Go's `runtime.throw`), which the
            // CFG does not know (no interprocedural no-return analysis):
            // it falls through into code that does not balance the stack.
            Ok(vals) if matches!(vals[4], Value::Int(r) if r as u64 != case.regs[4].wrapping_add(8)) => {
                Ok(Some(
                    "a `ret` with an unbalanced stack (a path after a call that never returns)"
                        .into(),
                ))
            }
            Ok(_) => Err(format!("the CPU faulted ({e}), ssakit returned")),
            Err(err) => Err(format!("the CPU faulted ({e}), ssakit stopped: {err}")),
        },
        CpuEnd::Stop { what, addr } => {
            let r = interpret(i, p, case, start).0;
            let at = match &r {
                Err(err) if err.kind == ErrorKind::Unreachable => {
                    err.location.as_ref().map(|l| l.function.to_string())
                }
                _ => None,
            };
            match (what.as_str(), at) {
                ("noreturn", Some(f)) if f == p.forms[0].functions[0].name() => {
                    Ok(Some("a call that never returns".into()))
                }
                ("noncanonical", None) if is_trap(&r) => {
                    Ok(Some("a non-canonical address (the CPU faults)".into()))
                }
                ("opaque", Some(f)) if f.starts_with(&format!("opaque_{addr:x}_")) => {
                    let m = f.rsplit('_').next().unwrap_or("");
                    Ok(Some(format!("opaque `{m}` reached")))
                }
                _ => Err(format!(
                    "the CPU stopped ({what} at {addr:#x}), ssakit {}",
                    match &r {
                        Ok(_) => "returned".to_string(),
                        Err(e) => format!("stopped: {e}"),
                    }
                )),
            }
        }
        CpuEnd::Ret {
            rflags,
            regs,
            writes,
        } => {
            let mut expected = start.clone();
            for (a, b) in writes {
                expected.write(*a, b).unwrap();
            }
            expected.write(COUNTER, &cpu.calls.to_le_bytes()).unwrap();
            let (r, mut got) = interpret(i, p, case, start);
            if p.dead_frame {
                // Page by page: a page neither side touched is absent.
                let mut at = STACK;
                while at < case.regs[4] {
                    let end = ((at / PAGE + 1) * PAGE).min(case.regs[4]);
                    let zeros = vec![0u8; (end - at) as usize];
                    let _ = expected.write(at, &zeros);
                    let _ = got.write(at, &zeros);
                    at = end;
                }
            }
            match r {
                Ok(vals) => {
                    // What pruned SSA leaves undefined is compared in no
                    // form: destruction may drop an `x = undef` copy, so
                    // that `x` keeps an older value (a refinement of ⊥).
                    if undefined.is_empty() {
                        undefined.extend(vals.iter().map(|v| *v == Value::Undef));
                    }
                    let d = compare_return((regs, *rflags), &vals, undefined, &expected, &got);
                    match d.is_empty() {
                        true => Ok(None),
                        false => Err(d.join("; ")),
                    }
                }
                Err(e) if e.kind == ErrorKind::BranchOnUndef => Ok(Some(
                    "a branch on a flag the meaning leaves undefined".into(),
                )),
                Err(e) => Err(format!("the CPU returned, ssakit stopped: {e}")),
            }
        }
    }
}

/// The oracle on `functions` of the binary `elf` (at `path`), `states`
/// cases each; with `discover`, the functions are those of the binary
/// after function discovery (`ssakit_x86::discover`).
fn run_sample(
    py: &Path,
    path: &str,
    elf: &[u8],
    functions: &[usize],
    states: usize,
    (fault, signatures, discover): (Option<Fault>, bool, bool),
    tally: &mut Tally,
) {
    let mut bin = Binary::parse(elf).unwrap();
    if discover {
        ssakit_x86::discover::discover(&mut bin);
    }
    let sigs = signatures.then(|| Signatures::infer(&bin, true));
    let mut rng = Rng(0x5eed_0040);
    let img = Image::new(elf, &mut rng);
    let mut script = String::new();
    img.script(&mut script);
    let mut prepared = Vec::new();
    for &k in functions {
        let info = &bin.functions()[k];
        tally.functions += 1;
        match prepare(&bin, info, fault, sigs.as_ref()) {
            Err(e) => panic!("the pipeline failed: {e}"),
            Ok(Err(reason)) => *tally.functions_skipped.entry(reason).or_insert(0) += 1,
            Ok(Ok(p)) => {
                let sites: Vec<String> = p
                    .sites
                    .iter()
                    .map(|(k, a, n, m)| match m {
                        Some(m) => format!("{k}:{a:x}:{n:x}:{m:x}"),
                        None => format!("{k}:{a:x}:{n:x}"),
                    })
                    .collect();
                let sites = if sites.is_empty() {
                    "-".to_string()
                } else {
                    sites.join(",")
                };
                let mems = memory_operands(&bin, info);
                let _ = writeln!(script, "func {:x} {sites} {mems}", p.entry);
                let cases: Vec<Case> = (0..states).map(|_| random_case(&mut rng)).collect();
                for c in &cases {
                    let _ = write!(
                        script,
                        "case {:x} {:x} {RET_MAGIC:x}",
                        c.rflags,
                        TLS + 0x1000
                    );
                    for r in c.regs {
                        let _ = write!(script, " {r:x}");
                    }
                    script.push('\n');
                }
                prepared.push((p, cases));
            }
        }
    }
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let file = std::env::temp_dir().join(format!(
        "ssakit-value-oracle-{}-{}.txt",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&file, script).unwrap();
    let helper = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/unicorn_functions.py"
    );
    let o = Command::new(py)
        .arg(helper)
        .arg(path)
        .arg(&file)
        .output()
        .unwrap();
    if std::env::var_os("SSAKIT_VALUE_ORACLE_KEEP").is_none() {
        let _ = std::fs::remove_file(&file);
    }
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    if std::env::var_os("SSAKIT_VALUE_ORACLE_TRACE").is_some() {
        eprintln!("{}", String::from_utf8_lossy(&o.stderr));
    }
    let stdout = String::from_utf8(o.stdout).unwrap();
    let mut lines = stdout.lines();
    for (p, cases) in &prepared {
        let interps: Vec<Interpreter<'_>> = p
            .forms
            .iter()
            .map(|m| Interpreter::new(m).unwrap_or_else(|e| panic!("{}: {e}", p.name)))
            .collect();
        let mut first_skip = None;
        let (mut compared, mut bad) = (false, false);
        for case in cases {
            let cpu = parse_cpu(lines.next().expect("a line per case"));
            tally.cases += 1;
            let mut verdict = Ok(None);
            let mut undefined = Vec::new();
            for (form, i) in FORMS.iter().zip(&interps) {
                match judge(&img, i, p, case, &cpu, &mut undefined) {
                    Err(m) => {
                        verdict = Err(format!("{} ({:#x}) {form}: {m}", p.name, p.entry));
                        break;
                    }
                    Ok(v) => verdict = Ok(v),
                }
            }
            match verdict {
                Ok(None) => {
                    compared = true;
                    tally.cases_compared += 1;
                }
                Ok(Some(reason)) => {
                    first_skip.get_or_insert(reason.clone());
                    *tally.skipped.entry(reason).or_insert(0) += 1;
                }
                Err(m) => {
                    if std::env::var_os("SSAKIT_VALUE_ORACLE_DEBUG").is_some() {
                        debug_path(&img, &interps[0], p, case, &cpu);
                    }
                    bad = true;
                    tally.mismatches.push(format!(
                        "{m} (from {:x?}, rflags {:#x})",
                        case.regs, case.rflags
                    ));
                }
            }
        }
        tally.mismatched_functions += bad as usize;
        if compared {
            tally.compared += 1;
        } else if !bad {
            let reason = first_skip.unwrap_or_else(|| "no case".into());
            *tally.functions_skipped.entry(reason).or_insert(0) += 1;
        }
    }
}

/// Prints the blocks the interpreter entered (pruned SSA), to compare
/// with the CPU's (`SSAKIT_VALUE_ORACLE_TRACE=ENTRY`).
fn debug_path(img: &Image<'_>, i: &Interpreter<'_>, p: &Prepared, case: &Case, cpu: &Cpu) {
    let args = arguments(p, case);
    let mut state = State {
        memory: start_memory(img, case, &cpu.touched, &cpu.zeroed),
        ..State::default()
    };
    let opts = RunOptions {
        fuel: FUEL,
        count_blocks: true,
        ..RunOptions::default()
    };
    let f = &p.forms[0].functions[0];
    match i.run_in(0, &args, &mut state, &opts) {
        Ok(out) => {
            let seen: Vec<String> = f
                .blocks()
                .filter(|b| out.block_visits[0][b.index()] > 0)
                .map(|b| format!("{}x{}", f.block_name(b), out.block_visits[0][b.index()]))
                .collect();
            eprintln!("  interpreter's blocks: {}", seen.join(" "));
        }
        Err(e) => eprintln!("  interpreter: {e}"),
    }
}

fn report(tag: &str, t: &Tally) {
    eprintln!(
        "{tag}: {} functions, {} compared at the return in at least one case, {} with a mismatch; \
         {} cases, {} compared, {} mismatches",
        t.functions,
        t.compared,
        t.mismatched_functions,
        t.cases,
        t.cases_compared,
        t.mismatches.len()
    );
    for (r, n) in &t.functions_skipped {
        eprintln!("  functions skipped: {n} {r}");
    }
    for (r, n) in &t.skipped {
        eprintln!("  cases skipped: {n} {r}");
    }
    for m in t.mismatches.iter().take(20) {
        eprintln!("  MISMATCH {m}");
    }
}

/// [`report`], then fails unless a third of the functions were compared
/// at the return in some case: a harness that skips everything fails.
fn report_compared(what: &str, t: &Tally) {
    report(what, t);
    assert!(
        t.compared * 3 >= t.functions,
        "{what}: {} of {} functions compared",
        t.compared,
        t.functions
    );
}

/// `n` function indices of `bin`, drawn with a fixed seed.
fn sample(elf: &[u8], n: usize, seed: u64) -> Vec<usize> {
    let bin = Binary::parse(elf).unwrap();
    let mut idx: Vec<usize> = (0..bin.functions().len()).collect();
    let mut rng = Rng(seed);
    for k in (1..idx.len()).rev() {
        idx.swap(k, rng.below(k as u64 + 1) as usize);
    }
    idx.truncate(n);
    idx.sort_unstable();
    idx
}

fn fixtures() -> Vec<(String, Vec<u8>)> {
    ["fixture", "fixture-nopie"]
        .iter()
        .map(|n| {
            let path = format!("{}/tests/fixture/{n}", env!("CARGO_MANIFEST_DIR"));
            let elf = std::fs::read(&path).unwrap();
            (path, elf)
        })
        .collect()
}

fn python() -> Option<PathBuf> {
    unicorn::python()
}

/// Every function of the fixtures, with signatures (and stack
/// promotion) or without.
fn fixtures_agree(signatures: bool) {
    let Some(py) = python() else { return };
    let mut t = Tally::default();
    for (path, elf) in fixtures() {
        let all: Vec<usize> = (0..Binary::parse(&elf).unwrap().functions().len()).collect();
        run_sample(
            &py,
            &path,
            &elf,
            &all,
            6,
            (fault_from_env(), signatures, false),
            &mut t,
        );
    }
    let label = if signatures {
        "fixtures, with signatures and --stack"
    } else {
        "fixtures"
    };
    report(label, &t);
    assert!(t.compared * 2 >= t.functions, "too few functions compared");
    assert!(t.mismatches.is_empty(), "{} mismatches", t.mismatches.len());
}

#[test]
fn fixture_functions_compute_what_the_cpu_computes() {
    fixtures_agree(false);
}

/// The fixtures with signatures and stack promotion: each call reads
/// its callee's parameters and clobbers what the callee does not
/// preserve, and the call model clobbers the same.
#[test]
fn fixture_functions_with_signatures_compute_what_the_cpu_computes() {
    fixtures_agree(true);
}

/// `SSAKIT_VALUE_ORACLE_SIGNATURES=1`: the corpus sample lifted with
/// signatures and stack promotion.
fn signatures_from_env() -> bool {
    std::env::var_os("SSAKIT_VALUE_ORACLE_SIGNATURES").is_some()
}

/// The corpus: this machine's libc, and bash and libpython where
/// `SSAKIT_X86_CORPUS` names them.
#[test]
fn corpus_functions_compute_what_the_cpu_computes() {
    let Some(py) = python() else { return };
    let full = std::env::var_os("SSAKIT_VALUE_ORACLE_FULL").is_some();
    let corpus = std::env::var("SSAKIT_X86_CORPUS").unwrap_or_default();
    let find = |name: &str| {
        corpus
            .split(':')
            .find(|p| p.ends_with(name))
            .map(str::to_string)
    };
    // This machine's libc (skipped where absent), then what the corpus
    // names (a path named and absent fails).
    let libc = "/lib/x86_64-linux-gnu/libc.so.6".to_string();
    let binaries = [
        (Some(libc), false, if full { 200 } else { 20 }, 29),
        (find("/bash"), true, if full { 100 } else { 10 }, 30),
        (
            find("/libpython3.11.so.1.0"),
            true,
            if full { 100 } else { 10 },
            31,
        ),
    ];
    let mut total = Tally::default();
    for (path, given, n, seed) in binaries {
        let Some(path) = path else {
            eprintln!("skipped: SSAKIT_X86_CORPUS names no bash or no libpython3.11");
            continue;
        };
        let elf = match std::fs::read(&path) {
            Ok(elf) => elf,
            Err(e) if given => panic!("SSAKIT_X86_CORPUS names {path}, which cannot be read: {e}"),
            Err(_) => {
                eprintln!("skipped: no {path}");
                continue;
            }
        };
        let mut t = Tally::default();
        run_sample(
            &py,
            &path,
            &elf,
            &sample(&elf, n, seed),
            4,
            (fault_from_env(), signatures_from_env(), false),
            &mut t,
        );
        report_compared(&path, &t);
        total.mismatches.extend(t.mismatches);
    }
    assert!(
        total.mismatches.is_empty(),
        "{} mismatches",
        total.mismatches.len()
    );
}

/// A Go binary built here (the Go fixture: Go's register ABI, `r14` the
/// goroutine, the runtime's own assembly): 10 of its functions, 100 with
/// `SSAKIT_VALUE_ORACLE_FULL=1`, with signatures under
/// `SSAKIT_VALUE_ORACLE_SIGNATURES=1` as the corpus. Skipped without
/// `go` unless `SSAKIT_REQUIRE_GO=1`.
#[test]
fn corpus_go_functions_compute_what_the_cpu_computes() {
    let Some(py) = python() else { return };
    let full = std::env::var_os("SSAKIT_VALUE_ORACLE_FULL").is_some();
    let out = go::temp_path();
    let Some(elf) = go::build(&out) else { return };
    let path = out.to_string_lossy().into_owned();
    let mut t = Tally::default();
    let n = if full { 100 } else { 10 };
    let opts = (fault_from_env(), signatures_from_env(), false);
    run_sample(&py, &path, &elf, &sample(&elf, n, 33), 4, opts, &mut t);
    let _ = std::fs::remove_file(&out);
    report_compared("the Go fixture", &t);
    assert!(t.mismatches.is_empty(), "{} mismatches", t.mismatches.len());
}

/// Functions that only discovery finds (call targets, pointers, code
/// after padding: `ssakit_x86::discover`) in Debian's busybox-static,
/// stripped and with an `.eh_frame` that stops short: 20 of them, 100
/// with `SSAKIT_VALUE_ORACLE_FULL=1`. The binary is the `/busybox` of
/// `SSAKIT_X86_LOST_CORPUS` (which must be there), else `/bin/busybox`
/// where installed.
#[test]
fn discovered_functions_compute_what_the_cpu_computes() {
    let Some(py) = python() else { return };
    let full = std::env::var_os("SSAKIT_VALUE_ORACLE_FULL").is_some();
    let lost = std::env::var("SSAKIT_X86_LOST_CORPUS").unwrap_or_default();
    let given = lost.split(':').find(|p| p.ends_with("/busybox"));
    let path = given.unwrap_or("/bin/busybox").to_string();
    let elf = match std::fs::read(&path) {
        Ok(elf) => elf,
        Err(e) if given.is_some() => panic!("SSAKIT_X86_LOST_CORPUS names {path}: {e}"),
        Err(_) => {
            eprintln!("skipped: no {path}");
            return;
        }
    };
    let mut bin = Binary::parse(&elf).unwrap();
    ssakit_x86::discover::discover(&mut bin);
    let mut found: Vec<usize> = (0..bin.functions().len())
        .filter(|&k| bin.functions()[k].origin > ssakit_x86::binary::Origin::Fde)
        .collect();
    let mut rng = Rng(0x5eed_0042);
    for k in (1..found.len()).rev() {
        found.swap(k, rng.below(k as u64 + 1) as usize);
    }
    found.truncate(if full { 100 } else { 20 });
    found.sort_unstable();
    let mut t = Tally::default();
    let opts = (fault_from_env(), signatures_from_env(), true);
    run_sample(&py, &path, &elf, &found, 4, opts, &mut t);
    report_compared(&format!("{path}, functions discovered"), &t);
    assert!(t.mismatches.is_empty(), "{} mismatches", t.mismatches.len());
}

/// Each planted fault of the meaning is caught on the fixtures.
#[test]
fn planted_faults_are_caught() {
    let Some(py) = python() else { return };
    for fault in [Fault::Carry, Fault::ZeroExtension] {
        let mut t = Tally::default();
        for (path, elf) in fixtures() {
            let all: Vec<usize> = (0..Binary::parse(&elf).unwrap().functions().len()).collect();
            run_sample(
                &py,
                &path,
                &elf,
                &all,
                6,
                (Some(fault), false, false),
                &mut t,
            );
        }
        report(&format!("fixtures, planted {fault:?}"), &t);
        assert!(
            !t.mismatches.is_empty(),
            "the planted {fault:?} went unseen"
        );
    }
}
