//! The machine state as the chapter's variables, and what each instruction
//! reads and writes of it: one [`Access`] per instruction, computed once
//! (from iced-x86's register and flag information, then the rules below)
//! and read by both the control-flow recovery and the lifter.
//!
//! The variables ([`Loc`]) are the sixteen general registers (`i64`), the
//! six status flags and `DF` (`bool`), and `xmm0`–`xmm15` (`v128`). What is
//! not modelled: segment registers (an `fs:` access is a memory access),
//! `rip`, the x87 stack, `mxcsr`, AVX-512's `xmm16`–`xmm31` and mask
//! registers; an instruction touching only those reads and writes no
//! variable.
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
//! Calls, returns and `syscall` follow the System V ABI: [`CALL_READS`],
//! [`CALL_WRITES`], [`RET_READS`].

use iced_x86::{Instruction, InstructionInfo, Mnemonic, OpAccess, OpKind, Register, RflagsBits};
use ssakit::ir::{Effects, Type};
use std::sync::OnceLock;

/// A modelled location: general register `0..16` (iced-x86's numbering:
/// `rax rcx rdx rbx rsp rbp rsi rdi r8`–`r15`), flag `16..23`
/// (`cf pf af zf sf of df`), vector register `23..39`.
pub type Loc = u8;

/// The number of locations.
pub const NUM_LOCS: usize = 39;

/// The first flag location.
pub const FLAG0: Loc = 16;

/// The first vector location.
pub const XMM0: Loc = 23;

const GPR_NAMES: [&str; 16] = [
    "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
    "r14", "r15",
];
const FLAG_NAMES: [&str; 7] = ["cf", "pf", "af", "zf", "sf", "of", "df"];
const FLAG_BITS: [u32; 7] = [
    RflagsBits::CF,
    RflagsBits::PF,
    RflagsBits::AF,
    RflagsBits::ZF,
    RflagsBits::SF,
    RflagsBits::OF,
    RflagsBits::DF,
];

/// A set of locations, one bit each.
pub type LocSet = u64;

const fn bits(locs: &[Loc]) -> LocSet {
    let mut s = 0;
    let mut i = 0;
    while i < locs.len() {
        s |= 1 << locs[i];
        i += 1;
    }
    s
}

const RAX: Loc = 0;
const RCX: Loc = 1;
const RDX: Loc = 2;
const RBX: Loc = 3;
const RSP: Loc = 4;
const RBP: Loc = 5;
const RSI: Loc = 6;
const RDI: Loc = 7;
const R8: Loc = 8;
const R9: Loc = 9;
const R10: Loc = 10;
const R11: Loc = 11;

/// The general registers.
pub const GPRS: LocSet = (1 << 16) - 1;
/// The flags.
pub const FLAGS: LocSet = ((1 << 7) - 1) << FLAG0;
/// The vector registers.
pub const XMMS: LocSet = ((1 << 16) - 1) << XMM0;

/// What a call reads: the argument registers `rdi rsi rdx rcx r8 r9`,
/// `rax` (the vector-argument count of a variadic call), `rsp`, and
/// `xmm0`–`xmm7`.
pub const CALL_READS: LocSet = bits(&CALL_ARGS);
/// [`CALL_READS`] in the order of a call's operands: the ABI's.
pub const CALL_ARGS: [Loc; 16] = [
    RDI,
    RSI,
    RDX,
    RCX,
    R8,
    R9,
    RAX,
    RSP,
    XMM0,
    XMM0 + 1,
    XMM0 + 2,
    XMM0 + 3,
    XMM0 + 4,
    XMM0 + 5,
    XMM0 + 6,
    XMM0 + 7,
];
/// What a call writes: the caller-saved registers `rax rcx rdx rsi rdi
/// r8`–`r11`, the flags and `xmm0`–`xmm15`.
pub const CALL_WRITES: LocSet = bits(&[RAX, RCX, RDX, RSI, RDI, R8, R9, R10, R11]) | FLAGS | XMMS;
/// What `ret` (and every exit) reads: `rax rdx`, the callee-saved
/// registers `rbx rbp r12`–`r15`, and `rsp`, in this order.
pub const RET_LOCS: [Loc; 9] = [RAX, RDX, RBX, RBP, 12, 13, 14, 15, RSP];
/// [`RET_LOCS`] as a set.
pub const RET_READS: LocSet = bits(&RET_LOCS);
const SYSCALL_READS: LocSet = bits(&[RAX, RDI, RSI, RDX, R10, R8, R9]);
const SYSCALL_WRITES: LocSet = bits(&[RAX, RCX, R11]);

/// The name of location `l` (`rax`, `zf`, `xmm3`).
///
/// ```
/// use ssakit_x86::regs::{loc_name, FLAG0, XMM0};
/// assert_eq!((loc_name(0), loc_name(FLAG0 + 3), loc_name(XMM0 + 3)), ("rax".into(), "zf".into(), "xmm3".into()));
/// ```
pub fn loc_name(l: Loc) -> String {
    match l {
        0..16 => GPR_NAMES[l as usize].to_string(),
        16..23 => FLAG_NAMES[(l - FLAG0) as usize].to_string(),
        _ => format!("xmm{}", l - XMM0),
    }
}

/// The type of location `l`.
///
/// ```
/// use ssakit::ir::Type;
/// use ssakit_x86::regs::{loc_type, FLAG0, XMM0};
/// assert_eq!([loc_type(0), loc_type(FLAG0), loc_type(XMM0)], [Type::I64, Type::Bool, Type::V128]);
/// ```
pub fn loc_type(l: Loc) -> Type {
    match l {
        0..16 => Type::I64,
        16..23 => Type::Bool,
        _ => Type::V128,
    }
}

/// The location of register `r` and its width in bytes, if modelled.
///
/// ```
/// use iced_x86::Register;
/// use ssakit_x86::regs::{reg_loc, XMM0};
/// assert_eq!(reg_loc(Register::AH), Some((0, 1)));
/// assert_eq!(reg_loc(Register::R9D), Some((9, 4)));
/// assert_eq!(reg_loc(Register::YMM2), Some((XMM0 + 2, 32)));
/// assert_eq!(reg_loc(Register::FS), None);
/// ```
pub fn reg_loc(r: Register) -> Option<(Loc, usize)> {
    if r.is_gpr() {
        let n = r.full_register().number();
        return Some((n as Loc, r.size()));
    }
    if r.is_xmm() || r.is_ymm() || r.is_zmm() {
        let n = r.number();
        return (n < 16).then(|| (XMM0 + n as Loc, r.size()));
    }
    None
}

/// The flags of an iced-x86 `RflagsBits` mask as a location set.
fn flag_set(mask: u32) -> LocSet {
    let mut s = 0;
    for (k, &b) in FLAG_BITS.iter().enumerate() {
        if mask & b != 0 {
            s |= 1 << (FLAG0 as usize + k);
        }
    }
    s
}

/// What one instruction reads and writes of the modelled state, and its
/// effect class (from its memory operands; [`Effects::CALL`] for system
/// instructions).
///
/// ```
/// use iced_x86::{Decoder, DecoderOptions, InstructionInfoFactory};
/// use ssakit::ir::Effects;
/// use ssakit_x86::regs::access;
/// // push rax: reads rax and rsp, writes rsp and the stack.
/// let ins = Decoder::with_ip(64, &[0x50], 0, DecoderOptions::NONE).decode();
/// let a = access(&ins, InstructionInfoFactory::new().info(&ins));
/// assert_eq!((a.reads, a.writes), (1 | 1 << 4, 1 << 4));
/// assert_eq!(a.effects, Effects::TRAP.union(Effects::WRITE));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// Locations read.
    pub reads: LocSet,
    /// Locations written.
    pub writes: LocSet,
    /// The effect class.
    pub effects: Effects,
}

/// Per-mnemonic facts, computed once: the lower-case name and whether it
/// is a conditional move.
struct MnemonicInfo {
    names: Vec<String>,
    cmov: Vec<bool>,
}

fn mnemonics() -> &'static MnemonicInfo {
    static INFO: OnceLock<MnemonicInfo> = OnceLock::new();
    INFO.get_or_init(|| {
        let mut names = Vec::new();
        let mut cmov = Vec::new();
        for m in Mnemonic::values() {
            let n = format!("{m:?}").to_lowercase();
            cmov.push(n.starts_with("cmov") || n.starts_with("fcmov"));
            names.push(n);
        }
        MnemonicInfo { names, cmov }
    })
}

/// The lower-case name of mnemonic `m` (`add`, `cmovne`).
///
/// ```
/// assert_eq!(ssakit_x86::regs::mnemonic_name(iced_x86::Mnemonic::Cmovne), "cmovne");
/// ```
pub fn mnemonic_name(m: Mnemonic) -> &'static str {
    &mnemonics().names[m as usize]
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
            | M::Fldcw
            | M::Fnstcw
            | M::Ldmxcsr
            | M::Stmxcsr
            | M::Fnstenv
            | M::Fldenv
    )
}

/// The [`Access`] of `ins`, whose iced-x86 information is `info`.
///
/// ```
/// use iced_x86::{Decoder, DecoderOptions, InstructionInfoFactory};
/// use ssakit_x86::regs::{access, FLAG0};
/// let mut f = InstructionInfoFactory::new();
/// let dec = |b: &[u8]| Decoder::with_ip(64, b, 0, DecoderOptions::NONE).decode();
/// let mov_al = dec(&[0xb0, 0x01]); // mov al, 1: merges into rax
/// let a = access(&mov_al, f.info(&mov_al));
/// assert_eq!((a.reads, a.writes), (1, 1));
/// let xor = dec(&[0x31, 0xc0]); // xor eax, eax: reads nothing
/// let a = access(&xor, f.info(&xor));
/// assert_eq!((a.reads, a.writes & 1), (0, 1));
/// assert_ne!(a.writes >> FLAG0, 0); // and writes the flags
/// ```
pub fn access(ins: &Instruction, info: &InstructionInfo) -> Access {
    let mut a = Access::default();
    let m = ins.mnemonic();
    for u in info.used_registers() {
        let Some((loc, size)) = reg_loc(u.register()) else {
            continue;
        };
        let bit = 1u64 << loc;
        match u.access() {
            OpAccess::Read | OpAccess::CondRead => a.reads |= bit,
            OpAccess::Write => {
                a.writes |= bit;
                if loc < FLAG0 && size < 4 {
                    a.reads |= bit;
                }
            }
            OpAccess::CondWrite | OpAccess::ReadWrite | OpAccess::ReadCondWrite => {
                a.writes |= bit;
                a.reads |= bit;
            }
            _ => {}
        }
    }
    if mnemonics().cmov[m as usize] {
        a.reads |= a.writes & (GPRS | XMMS);
    }
    a.reads |= flag_set(ins.rflags_read());
    let flags_written = flag_set(ins.rflags_modified());
    a.writes |= flags_written;
    let count_in_register =
        is_shift_or_rotate(m) && (1..ins.op_count()).any(|i| ins.op_kind(i) == OpKind::Register);
    if count_in_register || ins.has_rep_prefix() || ins.has_repne_prefix() {
        a.reads |= flags_written;
    }
    for mem in info.used_memory() {
        a.effects = a.effects.union(match mem.access() {
            OpAccess::Read | OpAccess::CondRead => Effects::TRAP.union(Effects::READ),
            OpAccess::Write | OpAccess::CondWrite => Effects::TRAP.union(Effects::WRITE),
            OpAccess::ReadWrite | OpAccess::ReadCondWrite => {
                Effects::TRAP.union(Effects::READ).union(Effects::WRITE)
            }
            _ => Effects::PURE,
        });
    }
    if m == Mnemonic::Syscall {
        a.reads |= SYSCALL_READS;
        a.writes |= SYSCALL_WRITES;
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

/// The locations of `set`, in increasing order.
///
/// ```
/// assert_eq!(ssakit_x86::regs::locs(0b1010).collect::<Vec<_>>(), [1, 3]);
/// ```
pub fn locs(set: LocSet) -> impl Iterator<Item = Loc> {
    let mut rest = set & ((1 << NUM_LOCS) - 1);
    std::iter::from_fn(move || {
        let l = rest.trailing_zeros();
        rest &= rest.wrapping_sub(1);
        (l < 64).then_some(l as Loc)
    })
}
