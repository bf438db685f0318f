//! The value oracle of the semantics table (`ssakit_x86::sem`, docs/x86.md
//! "Instructions with meaning"): every covered instruction of the fixture
//! and of a sample of libc's `.text` runs alone under Unicorn from random
//! register, flag and memory states, and its lifted meaning
//! ([`lift_instruction`]) runs in ssakit's interpreter from the same
//! state; every general register, every flag the meaning does not leave
//! `undef`, and the memory around the operands must agree. The read sets
//! of the machine model ([`ssakit_x86::regs::access`]) are checked the
//! same way: an instruction's outputs must not change when what the
//! model says it does not read is randomised (`check_read_sets`).
//!
//! Needs the `unicorn` wheel of `scripts/install-unicorn.sh` (or
//! `SSAKIT_UNICORN_PYTHON`): without it the test says so and passes,
//! unless `SSAKIT_REQUIRE_UNICORN=1`. One Python process runs all cases
//! (`tests/support/unicorn_steps.py`: cases in a file, results on stdout).

use iced_x86::{Instruction, OpKind};
use ssakit::interp::{Interpreter, Memory, RunOptions, State, Value};
use ssakit::ir::Module;
use ssakit_x86::binary::Binary;
use ssakit_x86::sem::lift_instruction;
use std::fmt::Write as _;

#[path = "support/hex.rs"]
mod hex;
#[path = "support/rng.rs"]
mod rng;
#[path = "support/unicorn.rs"]
mod unicorn;
use hex::{hex, unhex};
use rng::Rng;
use std::path::PathBuf;
use std::process::Command;
use unicorn::python;

impl Rng {
    /// A register value: edge values as often as random ones.
    fn value(&mut self) -> u64 {
        match self.below(8) {
            0 => self.below(32),
            1 => [0, u64::MAX, 0x8000_0000, 0x7fff_ffff, 0xffff_ffff][self.below(5) as usize],
            2 => [
                0x8000_0000_0000_0000,
                0x7fff_ffff_ffff_ffff,
                0x80,
                0x7f,
                0xff,
                0x8000,
            ][self.below(6) as usize],
            3 => self.next() & 0xffff_ffff,
            4 => (self.next() as i32) as i64 as u64,
            _ => self.next(),
        }
    }
}

const SCRATCH: u64 = 0x2000_0000;
const STACK: u64 = 0x7000_0000;
const PAGE: u64 = 4096;
/// The flags in the model's order (`cf pf af zf sf of df`) and their bit
/// in RFLAGS.
const FLAG_BITS: [u32; 7] = [0, 2, 4, 6, 7, 11, 10];

/// One instruction from one state.
struct Case {
    /// The instruction, for the report.
    what: String,
    ins: Instruction,
    code: Vec<u8>,
    regs: [u64; 16],
    /// `FS_BASE` and `GS_BASE`.
    segs: [u64; 2],
    rflags: u64,
    pages: Vec<u64>,
    windows: Vec<(u64, Vec<u8>)>,
}

/// The registers of an instruction's memory operand (and the base of its
/// `fs:` or `gs:` segment) set so that its address falls in the scratch
/// memory; the address.
fn aim(ins: &Instruction, regs: &mut [u64; 16], segs: &mut [u64; 2], rng: &mut Rng) -> Option<u64> {
    let mem = (0..ins.op_count()).any(|i| ins.op_kind(i) == OpKind::Memory);
    if !mem || ins.mnemonic() == iced_x86::Mnemonic::Lea {
        return None;
    }
    if ins.is_ip_rel_memory_operand() {
        return Some(ins.ip_rel_memory_address());
    }
    let num = |r: iced_x86::Register| {
        ssakit_x86::regs::LocSet::GPRS
            .iter()
            .position(|l| Some(l) == ssakit_x86::regs::Loc::of_register(r))
    };
    let (base, index) = (num(ins.memory_base()), num(ins.memory_index()));
    let scale = ins.memory_index_scale() as u64;
    let disp = ins.memory_displacement64();
    let target = SCRATCH + 0x800 + rng.below(0x400);
    // A segment's base is random and the registers aim at the rest; with
    // no register, the base aims alone.
    let seg = match ins.memory_segment() {
        iced_x86::Register::FS => Some(0),
        iced_x86::Register::GS => Some(1),
        _ => None,
    };
    let sb = match (seg, base, index) {
        (Some(k), None, None) => {
            segs[k] = target.wrapping_sub(disp);
            segs[k]
        }
        (Some(k), ..) => {
            segs[k] = rng.next() & 0x7fff_ffff_f000;
            segs[k]
        }
        _ => 0,
    };
    let want = target.wrapping_sub(sb);
    match (base, index) {
        (None, None) => {}
        (Some(b), None) => regs[b] = want.wrapping_sub(disp),
        (None, Some(i)) => {
            let x = want.wrapping_sub(disp) & !(scale - 1);
            regs[i] = x / scale;
        }
        (Some(b), Some(i)) if b == i => {
            regs[b] = (want.wrapping_sub(disp) as i64 / (scale as i64 + 1)) as u64;
        }
        (Some(b), Some(i)) => {
            regs[i] = rng.below(64);
            regs[b] = want
                .wrapping_sub(disp)
                .wrapping_sub(regs[i].wrapping_mul(scale));
        }
    }
    let b = base.map_or(0, |b| regs[b]);
    let i = index.map_or(0, |i| regs[i]);
    Some(
        sb.wrapping_add(b)
            .wrapping_add(i.wrapping_mul(scale))
            .wrapping_add(disp),
    )
}

/// For `div`/`idiv`, the high half of the dividend (`ah`, `dx`, `edx`,
/// `rdx`) made the extension of the low half, so that the quotient fits
/// unless the divisor is 0 (with random halves most divisions fault).
fn fitting_dividend(ins: &Instruction, regs: &mut [u64; 16]) {
    use iced_x86::Mnemonic::{Div, Idiv};
    if !matches!(ins.mnemonic(), Div | Idiv) {
        return;
    }
    let bits = ins.memory_size().size() as u32 * 8;
    let bits = if bits == 0 {
        ins.op_register(0).size() as u32 * 8
    } else {
        bits
    };
    let mask = u64::MAX >> (64 - bits);
    let lo = regs[0] & mask;
    let negative = ins.mnemonic() == Idiv && lo >> (bits - 1) & 1 == 1;
    let hi = if negative { mask } else { 0 };
    match bits {
        8 => regs[0] = (regs[0] & !0xff00) | hi << 8,
        _ => regs[2] = (regs[2] & !mask) | hi,
    }
}

fn case(ins: &Instruction, code: &[u8], rng: &mut Rng) -> Option<Case> {
    let mut regs = [0u64; 16];
    for r in regs.iter_mut() {
        *r = rng.value();
    }
    regs[4] = STACK + 0x800 + 8 * rng.below(64);
    let mut rflags = 0x2;
    for &b in &FLAG_BITS[..6] {
        rflags |= (rng.below(2)) << b;
    }
    if rng.below(2) == 0 {
        fitting_dividend(ins, &mut regs);
    }
    let mut segs = [rng.next() & 0x7fff_ffff_f000, rng.next() & 0x7fff_ffff_f000];
    let ea = aim(ins, &mut regs, &mut segs, rng);
    let mut windows = vec![(regs[4] - 16, 32)];
    if ins.mnemonic() == iced_x86::Mnemonic::Leave {
        // leave loads at rbp: a frame above rsp.
        regs[5] = regs[4] + 8 * rng.below(16);
        windows.push((regs[5] - 16, 32));
    }
    if let Some(a) = ea {
        windows.push((a.wrapping_sub(16), 48));
    }
    let (ip, end) = (ins.ip(), ins.ip() + code.len() as u64);
    let mut pages = vec![ip / PAGE * PAGE, (end - 1) / PAGE * PAGE];
    let mut filled = Vec::new();
    for (a, len) in windows {
        if a.checked_add(len)? > u64::MAX - PAGE || (a < end && ip < a + len) {
            return None;
        }
        pages.push(a / PAGE * PAGE);
        pages.push((a + len - 1) / PAGE * PAGE);
        filled.push((a, (0..len).map(|_| rng.next() as u8).collect()));
    }
    pages.sort_unstable();
    pages.dedup();
    let mut what = format!("{:#x} {:?} [", ip, ins.code());
    for b in code {
        let _ = write!(what, "{b:02x}");
    }
    what.push(']');
    Some(Case {
        what,
        ins: *ins,
        code: code.to_vec(),
        regs,
        segs,
        rflags,
        pages,
        windows: filled,
    })
}

/// The covered instructions of `elf`: every function's from the start
/// (`stride` 1) or every `stride`-th function's, at most `limit`.
fn covered(elf: &[u8], stride: usize, limit: usize) -> Vec<(Instruction, Vec<u8>)> {
    let bin = Binary::parse(elf).unwrap();
    let mut out = Vec::new();
    for info in bin.functions().iter().step_by(stride) {
        let cfg = ssakit_x86::cfg::recover(&bin, info);
        for insn in &cfg.insts {
            if out.len() >= limit {
                return out;
            }
            let ins = insn.ins;
            if lift_instruction(&ins).is_none() {
                continue;
            }
            let Some(code) = bin.read(ins.ip(), ins.len()) else {
                continue;
            };
            out.push((ins, code.to_vec()));
        }
    }
    out
}

/// What the interpreter gives for `c`: 16 registers, 7 flags, the windows.
fn interpret(c: &Case) -> Result<(Vec<Value>, Vec<Vec<u8>>), String> {
    let f = lift_instruction(&c.ins).unwrap();
    let m = Module { functions: vec![f] };
    let mut state = State {
        memory: Memory::flat(),
        ..State::default()
    };
    for &p in &c.pages {
        state.memory.map(p, PAGE);
    }
    for (a, b) in &c.windows {
        state.memory.write(*a, b).unwrap();
    }
    let mut args: Vec<i64> = c.regs.iter().map(|&r| r as i64).collect();
    args.extend(FLAG_BITS.iter().map(|&b| ((c.rflags >> b) & 1) as i64));
    args.extend(c.segs.iter().map(|&s| s as i64));
    let i = Interpreter::new(&m).map_err(|e| e.to_string())?;
    let out = i
        .run_in(0, &args, &mut state, &RunOptions::default())
        .map_err(|e| e.to_string())?;
    let mut vals = vec![out.ret.unwrap_or(Value::Undef)];
    vals.extend(out.extra_rets);
    let mem = c
        .windows
        .iter()
        .map(|(a, b)| {
            (0..b.len() as u64)
                .map(|k| state.memory.read(a + k, 1).unwrap_or(0) as u8)
                .collect()
        })
        .collect();
    Ok((vals, mem))
}

/// Where Unicorn (QEMU 5's translator) is known to differ from the CPU,
/// checked on this machine's processor (a C program with `bzhi` and
/// `blsi` in inline assembly): `blsi` sets `CF` when the source is not 0
/// (Intel's definition; Unicorn: when it is 0), and `bzhi` with an index
/// of the width or more leaves the source whole (Unicorn clamps the
/// index to the width minus one) and sets `CF` only above the width
/// minus one (Unicorn: from it on). `popcnt`/`tzcnt`/`lzcnt` with both
/// `0x66` and `REX.W` are 16-bit under Unicorn, 64-bit on the CPU.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Deviation {
    /// Compare everything but `CF`.
    Carry,
    /// Do not compare this case.
    Case,
}

fn unicorn_deviates(c: &Case) -> Option<Deviation> {
    use iced_x86::Mnemonic::{Lzcnt, Popcnt, Tzcnt};
    // `popcnt`, `tzcnt`, `lzcnt` with both `0x66` and `REX.W`: the CPU
    // (and the decoder) take 64 bits, Unicorn 16.
    let prefixes = c.code.iter().take_while(|&&b| b != 0x0f);
    let wide = (0..c.ins.op_count())
        .any(|i| c.ins.op_kind(i) == OpKind::Register && c.ins.op_register(i).is_gpr64());
    if matches!(c.ins.mnemonic(), Popcnt | Tzcnt | Lzcnt)
        && wide
        && prefixes.clone().any(|&b| b == 0x66)
    {
        return Some(Deviation::Case);
    }
    match c.ins.mnemonic() {
        iced_x86::Mnemonic::Blsi => Some(Deviation::Carry),
        iced_x86::Mnemonic::Bzhi => {
            let index = ssakit_x86::regs::LocSet::GPRS.iter().position(|l| {
                Some(l) == ssakit_x86::regs::Loc::of_register(c.ins.op_register(2))
            })?;
            let width = c.ins.op_register(0).size() as u64 * 8;
            (c.regs[index] & 0xff >= width - 1).then_some(Deviation::Case)
        }
        _ => None,
    }
}

/// Runs every case under Unicorn: per case, its output line split in
/// words (`ok RFLAGS RAX ... R15 WINDOWS` or `err ...`).
fn run_unicorn(py: &PathBuf, cases: &[Case], tag: &str) -> Vec<Vec<String>> {
    let mut input = String::new();
    for c in cases {
        let _ = write!(input, "{:x} {} {:x}", c.ins.ip(), hex(&c.code), c.rflags);
        for r in c.regs {
            let _ = write!(input, " {r:x}");
        }
        let pages: Vec<String> = c.pages.iter().map(|p| format!("{p:x}")).collect();
        let wins: Vec<String> = c
            .windows
            .iter()
            .map(|(a, b)| format!("{a:x}:{}", hex(b)))
            .collect();
        let _ = writeln!(
            input,
            " {} {} {:x} {:x}",
            pages.join(","),
            wins.join(";"),
            c.segs[0],
            c.segs[1]
        );
    }
    let path = std::env::temp_dir().join(format!(
        "ssakit-sem-unicorn-{}-{tag}.txt",
        std::process::id()
    ));
    std::fs::write(&path, input).unwrap();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/unicorn_steps.py"
    );
    let o = Command::new(py).arg(script).arg(&path).output().unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8(o.stdout).unwrap();
    stdout
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// Runs every case under Unicorn and in the interpreter; the mismatches.
fn check(py: &PathBuf, cases: &[Case], tag: &str) -> (usize, usize, Vec<String>) {
    let (mut compared, mut skipped, mut bad) = (0, 0, Vec::new());
    let mut faults = 0;
    for (c, words) in cases.iter().zip(run_unicorn(py, cases, tag)) {
        let p: Vec<&str> = words.iter().map(String::as_str).collect();
        let line = p.join(" ");
        let deviation = unicorn_deviates(c);
        if deviation == Some(Deviation::Case) {
            skipped += 1;
            continue;
        }
        if p.first() != Some(&"ok") {
            // A fault on both sides agrees: a division's `#DE` under
            // Unicorn, a trap of the wide division in the interpreter.
            if let Err(e) = interpret(c) {
                if e.contains("_wide_") && e.contains("trapped") {
                    compared += 1;
                    faults += 1;
                    continue;
                }
            }
            skipped += 1;
            if skipped <= 3 {
                eprintln!("  not run by Unicorn: {}: {line}", c.what);
            }
            continue;
        }
        compared += 1;
        let (vals, mem) = match interpret(c) {
            Ok(x) => x,
            Err(e) => {
                bad.push(format!("{}: the interpreter stops: {e}", c.what));
                continue;
            }
        };
        let rflags = u64::from_str_radix(p[1], 16).unwrap();
        let mut diffs = Vec::new();
        for (k, loc) in ssakit_x86::regs::LocSet::GPRS.iter().enumerate() {
            let cpu = u64::from_str_radix(p[2 + k], 16).unwrap();
            if vals[k] != Value::Int(cpu as i64) {
                diffs.push(format!("{loc}: cpu {cpu:#x}, ssakit {}", vals[k]));
            }
        }
        for (k, loc) in ssakit_x86::regs::LocSet::FLAGS.iter().enumerate() {
            let cpu = ((rflags >> FLAG_BITS[k]) & 1) as i64;
            match vals[16 + k] {
                Value::Undef => {}
                _ if loc == ssakit_x86::regs::Loc::CF && deviation == Some(Deviation::Carry) => {}
                v if v == Value::Int(cpu) => {}
                v => diffs.push(format!("{loc}: cpu {cpu}, ssakit {v}")),
            }
        }
        let wins: Vec<&str> = p.get(18).map_or(vec![], |w| w.split(';').collect());
        for ((w, (a, _)), got) in wins.iter().zip(&c.windows).zip(&mem) {
            let cpu = unhex(w.split(':').nth(1).unwrap_or(""));
            if &cpu != got {
                diffs.push(format!(
                    "memory at {a:#x}: cpu {}, ssakit {}",
                    hex(&cpu),
                    hex(got)
                ));
            }
        }
        if !diffs.is_empty() {
            bad.push(format!(
                "{}: {} (from {:x?})",
                c.what,
                diffs.join("; "),
                c.regs
            ));
        }
    }
    if faults > 0 {
        eprintln!("{tag}: {faults} compared cases fault on both sides (a division's #DE)");
    }
    (compared, skipped, bad)
}

fn run_oracle(py: &PathBuf, insns: &[(Instruction, Vec<u8>)], states: usize, tag: &str) {
    let mut rng = Rng(0x5eed_0040 ^ insns.len() as u64);
    let cases: Vec<Case> = insns
        .iter()
        .flat_map(|(ins, code)| {
            (0..states)
                .filter_map(|_| case(ins, code, &mut rng))
                .collect::<Vec<_>>()
        })
        .collect();
    let (compared, skipped, bad) = check(py, &cases, tag);
    let mut mnemonics: Vec<String> = insns
        .iter()
        .map(|(i, _)| format!("{:?}", i.mnemonic()).to_lowercase())
        .collect();
    mnemonics.sort_unstable();
    mnemonics.dedup();
    eprintln!(
        "{tag}: {} mnemonics: {}",
        mnemonics.len(),
        mnemonics.join(" ")
    );
    eprintln!(
        "{tag}: {} instructions, {} cases, {compared} compared, {skipped} not compared (Unicorn cannot run them, or a known deviation of Unicorn), {} mismatches",
        insns.len(),
        cases.len(),
        bad.len()
    );
    for b in bad.iter().take(30) {
        eprintln!("  {b}");
    }
    assert!(compared * 10 >= cases.len() * 9, "too few cases compared");
    assert!(bad.is_empty(), "{} mismatches under Unicorn", bad.len());
}

#[test]
fn fixture_instructions_compute_what_the_cpu_computes() {
    let Some(py) = python() else { return };
    let mut insns = Vec::new();
    for name in ["fixture", "fixture-nopie"] {
        let path = format!("{}/tests/fixture/{name}", env!("CARGO_MANIFEST_DIR"));
        insns.extend(covered(&std::fs::read(path).unwrap(), 1, usize::MAX));
    }
    assert!(insns.len() > 250, "{} covered", insns.len());
    run_oracle(&py, &insns, 6, "fixture");
}

/// This machine's libc and the Python with Unicorn, or `None` (said).
fn libc_and_python() -> Option<(Vec<u8>, PathBuf)> {
    let path = "/lib/x86_64-linux-gnu/libc.so.6";
    let Ok(elf) = std::fs::read(path) else {
        eprintln!("skipped: no {path}");
        return None;
    };
    Some((elf, python()?))
}

#[test]
fn libc_instructions_compute_what_the_cpu_computes() {
    let Some((elf, py)) = libc_and_python() else {
        return;
    };
    let stride = Binary::parse(&elf).unwrap().functions().len() / 400;
    let insns = covered(&elf, stride.max(1), 2000);
    assert!(insns.len() >= 1000, "{} covered", insns.len());
    run_oracle(&py, &insns, 4, "libc");
}

/// libc's `fs:` accesses (the thread's control block: `errno`, the stack
/// guard, the thread pointer), with `FS_BASE` set: the base is added.
#[test]
fn libc_segment_accesses_compute_what_the_cpu_computes() {
    let Some((elf, py)) = libc_and_python() else {
        return;
    };
    let insns: Vec<_> = covered(&elf, 1, usize::MAX)
        .into_iter()
        .filter(|(i, _)| i.segment_prefix() == iced_x86::Register::FS)
        .step_by(8)
        .take(500)
        .collect();
    assert!(insns.len() >= 300, "{} covered", insns.len());
    run_oracle(&py, &insns, 3, "libc fs:");
}

/// Random encodings of the covered opcodes (every width, prefix, operand
/// form and condition the decoder makes of them), decoded at a fixed
/// address: the forms compilers rarely emit (`sar bh, 7`, `imul r16`,
/// `setp [rip+X]`, `push rsp`) as well as the common ones.
fn random_instructions(n: usize, rng: &mut Rng) -> Vec<(Instruction, Vec<u8>)> {
    const ONE: &[u8] = &[
        0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x99, 0xc9, 0x00,
        0x01, 0x02, 0x03, 0x04, 0x05, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x21, 0x22, 0x23,
        0x24, 0x25, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x38,
        0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x50, 0x53, 0x54, 0x55, 0x58, 0x5b, 0x5d, 0x63, 0x68, 0x69,
        0x6a, 0x6b, 0x80, 0x81, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8d, 0x8f,
        0x90, 0x91, 0x93, 0x97, 0x98, 0x99, 0xa8, 0xa9, 0xb0, 0xb4, 0xb8, 0xbc, 0xc0, 0xc1, 0xc6,
        0xc7, 0xd0, 0xd1, 0xd2, 0xd3, 0xf6, 0xf7, 0xfe, 0xff,
    ];
    // cmovcc and setcc of all 16 conditions (the conditions of jcc), then
    // the others.
    const TWO: &[u8] = &[
        0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e,
        0x4f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d,
        0x9e, 0x9f, 0xaf, 0xb6, 0xb7, 0xbe, 0xbf, 0xa3, 0xab, 0xb3, 0xbb, 0xba, 0xbc, 0xbd, 0xb8,
        0xc8, 0xcb, 0xcf, 0xb0, 0xb1, 0xc0, 0xc1, 0xa4, 0xa5, 0xac, 0xad,
    ];
    let mut out = Vec::new();
    let ip = 0x40_1000;
    let mut tries = 0;
    while out.len() < n && tries < 100 * n {
        tries += 1;
        let mut bytes = Vec::new();
        if rng.below(8) == 0 {
            // VEX (map 0F38, L = 0): andn, blsr/blsmsk/blsi, bzhi,
            // shlx/sarx/shrx (pp 01, 10, 11).
            bytes.push(0xc4);
            bytes.push((rng.next() as u8 & 0xe0) | 0x02);
            bytes.push((rng.next() as u8 & 0xf8) | rng.below(4) as u8);
            bytes.push([0xf2, 0xf3, 0xf5, 0xf7][rng.below(4) as usize]);
        } else {
            if rng.below(8) == 0 {
                bytes.push([0x64, 0x65][rng.below(2) as usize]); // fs:, gs:
            }
            if rng.below(4) == 0 {
                bytes.push(0x66);
            }
            if rng.below(6) == 0 {
                bytes.push(0xf3);
            }
            if rng.below(2) == 0 {
                bytes.push(0x40 | rng.below(16) as u8);
            }
            if rng.below(40) == 0 {
                // enter size, 0 (a nesting level above 0 stays opaque).
                bytes.extend([0xc8, rng.next() as u8, rng.next() as u8 & 0x7, 0]);
            } else if rng.below(40) == 0 {
                // movbe (0f 38 f0/f1).
                bytes.extend([0x0f, 0x38, 0xf0 | rng.below(2) as u8]);
            } else if rng.below(4) == 0 {
                bytes.push(0x0f);
                bytes.push(TWO[rng.below(TWO.len() as u64) as usize]);
            } else {
                bytes.push(ONE[rng.below(ONE.len() as u64) as usize]);
            }
        }
        while bytes.len() < 15 {
            bytes.push(rng.next() as u8);
        }
        let ins =
            iced_x86::Decoder::with_ip(64, &bytes, ip, iced_x86::DecoderOptions::NONE).decode();
        if ins.is_invalid() || lift_instruction(&ins).is_none() {
            continue;
        }
        out.push((ins, bytes[..ins.len()].to_vec()));
    }
    out
}

#[test]
fn random_encodings_compute_what_the_cpu_computes() {
    let Some(py) = python() else { return };
    let mut rng = Rng(40);
    let insns = random_instructions(4000, &mut rng);
    assert_eq!(insns.len(), 4000);
    run_oracle(&py, &insns, 3, "random");
}

/// `div` and `idiv` at every width (`f6`/`f7` with `/6` or `/7`, with
/// and without `0x66` and `REX.W`, register and memory divisors), from
/// states whose quotient fits half of the time: the quotient, the
/// remainder, and the fault (`#DE` on a zero divisor or a quotient too
/// wide) agree.
#[test]
fn divisions_compute_what_the_cpu_computes() {
    let Some(py) = python() else { return };
    let mut rng = Rng(0xd1d);
    let mut insns = Vec::new();
    while insns.len() < 400 {
        let mut bytes = Vec::new();
        match rng.below(4) {
            0 => bytes.push(0x66),
            1 => bytes.push(0x48 | rng.below(8) as u8),
            2 => bytes.push(0x40 | rng.below(8) as u8),
            _ => {}
        }
        bytes.push(0xf6 | rng.below(2) as u8);
        let reg = 6 + rng.below(2) as u8;
        bytes.push((rng.next() as u8 & 0xc7) | reg << 3);
        while bytes.len() < 15 {
            bytes.push(rng.next() as u8);
        }
        let ins = iced_x86::Decoder::with_ip(64, &bytes, 0x40_1000, iced_x86::DecoderOptions::NONE)
            .decode();
        if ins.is_invalid() || lift_instruction(&ins).is_none() {
            continue;
        }
        insns.push((ins, bytes[..ins.len()].to_vec()));
    }
    run_oracle(&py, &insns, 8, "div");
}

/// The read set of the machine model ([`ssakit_x86::regs::access`])
/// checked on the CPU: each instruction runs under Unicorn from a state,
/// then from the same state with every general register and flag the
/// model says it does not read randomised. What the model says it writes
/// (but flags the instruction leaves undefined) and the memory must come
/// out the same; what it says it does not write must come out as it went
/// in. A read missing from the model (a 16-bit write merging into the old
/// value, a shift by `cl` of 0 keeping the flags) changes an output.
/// Shifts and rotates by `cl` get four times the states, half of them
/// with a count of 0.
fn check_read_sets(py: &PathBuf, insns: &[(Instruction, Vec<u8>)], states: usize, tag: &str) {
    use ssakit_x86::regs::{access, LocSet};
    let mut rng = Rng(0x5eed_0015 ^ insns.len() as u64);
    let mut factory = iced_x86::InstructionInfoFactory::new();
    let mut cases = Vec::new();
    let mut models = Vec::new();
    for (ins, code) in insns {
        let a = access(ins, &mut factory);
        let by_cl = (1..ins.op_count()).any(|i| ins.op_register(i) == iced_x86::Register::CL);
        let rcx_addresses = [ins.memory_base(), ins.memory_index()]
            .iter()
            .any(|&r| ssakit_x86::regs::Loc::of_register(r) == Some(ssakit_x86::regs::Loc::RCX));
        for _ in 0..if by_cl { 4 * states } else { states } {
            let Some(mut base) = case(ins, code, &mut rng) else {
                continue;
            };
            if by_cl && !rcx_addresses && rng.below(2) == 0 {
                base.regs[1] &= !0xff;
            }
            let mut other = Case {
                what: base.what.clone(),
                ins: base.ins,
                code: base.code.clone(),
                regs: base.regs,
                segs: base.segs,
                rflags: base.rflags,
                pages: base.pages.clone(),
                windows: base.windows.clone(),
            };
            for (k, loc) in LocSet::GPRS.iter().enumerate() {
                if !a.reads.contains(loc) {
                    other.regs[k] = rng.value();
                }
            }
            for (k, loc) in LocSet::FLAGS.iter().enumerate() {
                if !a.reads.contains(loc) && rng.below(2) == 0 {
                    other.rflags ^= 1 << FLAG_BITS[k];
                }
            }
            cases.push(base);
            cases.push(other);
            models.push(a);
        }
    }
    let out = run_unicorn(py, &cases, tag);
    // iced-x86's bit of each flag, in the model's order.
    use iced_x86::RflagsBits as R;
    let iced_bits = [R::CF, R::PF, R::AF, R::ZF, R::SF, R::OF, R::DF];
    let undefined = |c: &Case| {
        let mut s = LocSet::EMPTY;
        for (loc, bit) in LocSet::FLAGS.iter().zip(iced_bits) {
            if c.ins.rflags_undefined() & bit != 0 {
                s.insert(loc);
            }
        }
        s
    };
    let (mut compared, mut bad) = (0, Vec::new());
    for (k, a) in models.iter().enumerate() {
        let (c0, c1) = (&cases[2 * k], &cases[2 * k + 1]);
        let (p0, p1) = (&out[2 * k], &out[2 * k + 1]);
        if p0.first().map(String::as_str) != Some("ok")
            || p1.first().map(String::as_str) != Some("ok")
        {
            continue;
        }
        compared += 1;
        let num = |w: &String| u64::from_str_radix(w, 16).unwrap();
        let mut diffs = Vec::new();
        for (r, loc) in LocSet::GPRS.iter().enumerate() {
            let (o0, o1) = (num(&p0[2 + r]), num(&p1[2 + r]));
            if a.writes.contains(loc) && o0 != o1 {
                diffs.push(format!("{loc} written: {o0:#x} and {o1:#x}"));
            }
            if !a.writes.contains(loc) && (o0, o1) != (c0.regs[r], c1.regs[r]) {
                diffs.push(format!("{loc} not written, but changed"));
            }
        }
        let (f0, f1) = (num(&p0[1]), num(&p1[1]));
        let skip = undefined(c0);
        for (r, loc) in LocSet::FLAGS.iter().enumerate() {
            let bit = |x: u64| (x >> FLAG_BITS[r]) & 1;
            if a.writes.contains(loc) && !skip.contains(loc) && bit(f0) != bit(f1) {
                diffs.push(format!("{loc} written: {} and {}", bit(f0), bit(f1)));
            }
            if !a.writes.contains(loc) && (bit(f0), bit(f1)) != (bit(c0.rflags), bit(c1.rflags)) {
                diffs.push(format!("{loc} not written, but changed"));
            }
        }
        if p0.get(18) != p1.get(18) {
            diffs.push("memory differs".to_string());
        }
        if !diffs.is_empty() {
            bad.push(format!(
                "{}: reads {:?}: {}",
                c0.what,
                a.reads,
                diffs.join("; ")
            ));
        }
    }
    eprintln!(
        "{tag}: read sets: {} instructions, {} pairs of states, {compared} compared, {} mismatches",
        insns.len(),
        models.len(),
        bad.len()
    );
    for b in bad.iter().take(30) {
        eprintln!("  {b}");
    }
    assert!(compared * 10 >= models.len() * 8, "too few pairs compared");
    assert!(
        bad.is_empty(),
        "{} read-set mismatches under Unicorn",
        bad.len()
    );
}

#[test]
fn read_sets_hold_on_the_cpu() {
    let Some(py) = python() else { return };
    let mut insns = Vec::new();
    for name in ["fixture", "fixture-nopie"] {
        let path = format!("{}/tests/fixture/{name}", env!("CARGO_MANIFEST_DIR"));
        insns.extend(covered(&std::fs::read(path).unwrap(), 1, usize::MAX));
    }
    let mut rng = Rng(15);
    insns.extend(random_instructions(2000, &mut rng));
    check_read_sets(&py, &insns, 2, "read-sets");
}
