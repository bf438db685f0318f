//! What x86-64 integer instructions compute, said once: one table of
//! instruction semantics in the manner of Miasm's `sem.py` or a SLEIGH
//! specification (section 13.8 of the chapter: a binary's SSA form is as
//! useful as the meaning of its operations). [`lift_instruction`]
//! dispatches on the mnemonic from one `match` to one function per
//! family (`mov`, the ALU operations, shifts, `imul`, `push`/`pop`,
//! conditions...), each of which emits the instruction as operations of
//! the core's [operation set](ssakit::ir::Opcode) (`i64.add`,
//! `i32.wrap_i64`, `i64.load`, `select`, ...), which the interpreter runs,
//! constant propagation folds and dce removes when unused.
//!
//! The lifter uses it when [`lift::Options::semantics`](crate::lift::Options)
//! is set (`ssakit x86 lift --semantics`); an instruction it does not cover
//! stays the generic `x86.MNEMONIC` operation, so lifting stays total.
//! Covered: the moves, extensions, `lea`, the stack, `setcc`, `cmovcc`
//! and `xchg` (`moves.rs`); additions, subtractions, comparisons, logic,
//! `adc`/`sbb`, `cmpxchg`, `xadd` (`alu.rs`); shifts, rotates, bit tests
//! and counts, `bswap`, `movbe`, BMI (`bits.rs`); `shld`/`shrd` (`double.rs`); the multiplications (`mul.rs`)
//! and divisions (`div.rs`). A flag definition its block overwrites
//! unread is then left out of the lifted function, with the arithmetic
//! only it read (`dead_flags.rs`, run by the lifter); most are not even
//! emitted, the lifter telling the emitter which flags each instruction
//! need not define (`flag_report.rs`). They
//! are written with the emitter (`emitter.rs`: operands at a width, the
//! flags, the conditions) over the operands of `operand.rs`. The oracle
//! is `tests/sem_unicorn.rs`: each covered instruction against Unicorn
//! (docs/x86.md, "Instructions with meaning").
//!
//! # Conventions
//!
//! * **Variables.** General registers are `i64`; the flags are **`i32`
//!   variables holding 0 or 1** (the set's comparisons give `i32`), and
//!   so is the branch condition `cc`. Temporaries of one instruction are
//!   `q0, q1, ...` (`i64`) and `d0, d1, ...` (`i32`), reused by the next
//!   instruction (each is defined before it is used inside one
//!   instruction, so pruned SSA gives them no phi).
//! * **Widths.** A 64-bit operation computes on `i64`; 32-, 16- and 8-bit
//!   ones on `i32`, an 8- or 16-bit value zero-extended (masked) in its
//!   `i32`. A 32-bit write zero-extends into the 64-bit register
//!   (`i64.extend_i32_u`); an 8- or 16-bit write inserts into the old
//!   value (`i64.or(i64.and(r, ~mask), v)`, `ah`..`bh` shifted by 8).
//! * **Memory operands.** The address is `base + index * scale + disp`
//!   in `i64` operations (a `rip`-relative one a constant), accessed by
//!   `i64.load`, `i32.load`, `i32.load16_u`, `i32.load8_u` and the
//!   matching stores (immediates `[0, 0, 0]`: offset, alignment, memory
//!   0). 32-bit addressing stays opaque.
//! * **Segments.** An `fs:` or `gs:` operand adds its segment's base to
//!   the address (`i64.add(fs_base, ...)`; `lea` adds none). The bases
//!   are not registers of the model ([`regs`](crate::regs)): they are
//!   set by the system (`arch_prctl`, `wrfsbase`), not by the integer
//!   instructions, and never change inside a function, so each is an
//!   `i64` **parameter**, `fs_base` or `gs_base`, appended to the lifted
//!   function's parameters the first time one of its instructions uses
//!   the segment (a function without `fs:` keeps its 39 parameters). An
//!   interpreter or oracle gives it the thread's base (`FS_BASE` under
//!   Unicorn); nothing writes it.
//! * **Calls and returns.** A `call` pushes its return address, the
//!   constant address of the next instruction (`rsp = i64.sub(rsp, 8)`,
//!   `i64.store`, the old `rsp` kept in a temporary), then is the
//!   lifter's call as without the semantics (the callee's effect), then
//!   `rsp` gets its old value back: the callee's `ret` popped the
//!   address (a copy, not `rsp + 8`, so that copy propagation sees one
//!   value of `rsp` on both sides of the call). Every exit of a function (a `ret`, a tail call,
//!   a branch out of it) adds 8 to `rsp` (`8 + imm16` for `ret imm16`),
//!   so the `rsp` it returns is the caller's after the return; the return
//!   address itself is not loaded (the function returns to it).
//! * **Flags.** Each flag an instruction defines is an operation of its
//!   operands `a`, `b` and result `r` at width `w`: `ZF = r == 0`, `SF`
//!   the sign bit of `r`, `PF = (popcnt(r & 0xff) & 1) == 0`, `AF` bit 4
//!   of `a ^ b ^ r`; for an addition `CF = r <u a` and `OF` the sign of
//!   `(a ^ r) & (b ^ r)`, for a subtraction `CF = a <u b` and `OF` the
//!   sign of `(a ^ b) & (a ^ r)`. Logic operations clear `CF` and `OF`
//!   and leave `AF` undefined; `inc`/`dec` keep `CF`; a flag the
//!   instruction leaves undefined gets `undef`.
//!
//! ```
//! use iced_x86::{Decoder, DecoderOptions};
//! let ins = Decoder::with_ip(64, &[0x01, 0xd8], 0x1000, DecoderOptions::NONE).decode(); // add eax, ebx
//! let f = ssakit_x86::sem::lift_instruction(&ins).unwrap();
//! let text = ssakit::text::print_function(&f);
//! assert!(text.contains("i32.add(d0, d1)") && text.contains("rax = i64.extend_i32_u(d2)"));
//! ```

mod alu;
mod bits;
mod dead_flags;
mod div;
mod double;
mod emitter;
mod flag_report;
mod moves;
mod mul;
mod operand;

pub(crate) use dead_flags::{drop_dead_flags, FlagDefs};
pub(crate) use emitter::{Cache, Emitter};
pub(crate) use flag_report::{dead_after, flag_report, live_out, term_reads, FlagReport};
pub(crate) use moves::{push_return_address, release, restore_rsp};

use crate::regs::{LocKind, LocMap};
use iced_x86::{Instruction, Mnemonic};

use ssakit::ir::{FunctionBuilder, Operand, Type, Var};

/// The condition a `jcc` tests, into `cc`, if the table covers it
/// (`jrcxz`, `loop` and the like stay opaque).
pub(crate) fn branch_condition(e: &mut Emitter<'_>, ins: &Instruction, cc: Var) -> bool {
    if !is_jcc(ins.mnemonic()) {
        return false;
    }
    match e.condition(ins.condition_code()) {
        Some(c) => {
            e.copy(cc, c);
            true
        }
        None => false,
    }
}

fn is_jcc(m: Mnemonic) -> bool {
    use Mnemonic as M;
    matches!(
        m,
        M::Jo
            | M::Jno
            | M::Jb
            | M::Jae
            | M::Je
            | M::Jne
            | M::Jbe
            | M::Ja
            | M::Js
            | M::Jns
            | M::Jp
            | M::Jnp
            | M::Jl
            | M::Jge
            | M::Jle
            | M::Jg
    )
}

/// Emits the meaning of `ins` (not a control transfer), and says whether
/// the table covers it: `false` means nothing was emitted and the
/// instruction stays the opaque `x86.MNEMONIC` operation.
pub(crate) fn emit(e: &mut Emitter<'_>, ins: &Instruction) -> bool {
    use Mnemonic as M;
    let m = ins.mnemonic();
    let covered = match m {
        M::Mov => moves::mov(e, ins),
        M::Movzx => moves::extend(e, ins, false),
        M::Movsx | M::Movsxd => moves::extend(e, ins, true),
        M::Lea => moves::lea(e, ins),
        M::Add | M::Sub | M::Cmp => alu::arith(e, ins, m),
        M::And | M::Or | M::Xor | M::Test => alu::logic(e, ins, m),
        M::Inc | M::Dec => alu::inc_dec(e, ins, m == M::Inc),
        M::Neg => alu::neg(e, ins),
        M::Not => alu::not(e, ins),
        M::Shl | M::Sal | M::Shr | M::Sar if bits::count_in_cl(ins) => bits::shift_cl(e, ins, m),
        M::Shl | M::Sal | M::Shr | M::Sar => bits::shift(e, ins, m),
        M::Rol | M::Ror if bits::count_in_cl(ins) => bits::rotate_cl(e, ins, m == M::Rol),
        M::Rol | M::Ror => bits::rotate(e, ins, m == M::Rol),
        M::Shld | M::Shrd => double::double_shift(e, ins, m == M::Shld),
        M::Adc | M::Sbb => alu::carry_arith(e, ins, m == M::Adc),
        M::Bsf | M::Bsr | M::Tzcnt | M::Lzcnt | M::Popcnt => bits::count_bits(e, ins, m),
        M::Bswap => bits::bswap(e, ins),
        M::Movbe => bits::movbe(e, ins),
        M::Andn | M::Blsr | M::Blsmsk | M::Blsi | M::Bzhi | M::Shlx | M::Shrx | M::Sarx => {
            bits::bmi(e, ins, m)
        }
        M::Bt | M::Bts | M::Btr | M::Btc => bits::bit_test(e, ins, m),
        M::Mul => mul::widening_mul(e, ins, false),
        M::Imul if ins.op_count() == 1 => mul::widening_mul(e, ins, true),
        M::Div | M::Idiv => div::divide(e, ins, m == M::Idiv),
        M::Leave => moves::leave(e, ins),
        M::Enter => moves::enter(e, ins),
        M::Cmpxchg => alu::cmpxchg(e, ins),
        M::Xadd => alu::xadd(e, ins),
        M::Imul => mul::imul(e, ins),
        M::Push => moves::push(e, ins),
        M::Pop => moves::pop(e, ins),
        M::Cdqe | M::Cwde | M::Cwd | M::Cdq | M::Cqo => moves::convert(e, m),
        M::Xchg => moves::xchg(e, ins),
        M::Nop | M::Endbr64 | M::Endbr32 => Some(true),
        _ if moves::is_setcc(ins) => moves::setcc(e, ins),
        _ if crate::regs::is_cmov(ins) => moves::cmov(e, ins),
        _ => None,
    };
    covered.unwrap_or(false)
}

/// The meaning of one instruction as a function of its own, for oracles
/// and examples: the parameters are the sixteen general registers
/// (`i64`) and the seven flags (`i32`, 0 or 1), in the model's order,
/// then `fs_base` and `gs_base` (`i64`); it runs the instruction and
/// returns the 23 locations afterwards (`undef` for a flag the
/// instruction leaves undefined). `None` when the table does not cover
/// the instruction (a control transfer, a vector or system
/// instruction...).
///
/// ```
/// use iced_x86::{Decoder, DecoderOptions};
/// use ssakit::interp::{Interpreter, RunOptions, Value};
/// use ssakit::ir::Module;
/// // sub eax, 1 with eax = 0: eax = 0xffffffff (zero-extended), CF = 1.
/// let ins = Decoder::with_ip(64, &[0x83, 0xe8, 0x01], 0, DecoderOptions::NONE).decode();
/// let m = Module { functions: vec![ssakit_x86::sem::lift_instruction(&ins).unwrap()] };
/// let mut args = [0i64; 25];
/// args[0] = 0x1234_5678_0000_0000; // rax
/// let out = Interpreter::new(&m).unwrap().run(0, &args, &RunOptions::default()).unwrap();
/// assert_eq!(out.ret, Some(Value::Int(0xffff_ffff)));
/// assert_eq!(out.extra_rets[15], Value::Int(1)); // cf
/// ```
pub fn lift_instruction(ins: &Instruction) -> Option<ssakit::ir::Function> {
    let mut one = Alone::new();
    one.emit(ins, crate::regs::LocSet::EMPTY)
        .then(|| one.finish().0)
}

/// The function [`lift_instruction`] builds around one instruction, in
/// steps, so that a test can leave flags out and add its own code before
/// the return (`flag_report`'s tests).
pub(crate) struct Alone {
    pub(crate) b: FunctionBuilder,
    /// The 23 locations and the vectors, as variables.
    pub(crate) vars: LocMap<Var>,
    pub(crate) cache: Cache,
}

impl Alone {
    /// The parameters, the result types and the entry block.
    pub(crate) fn new() -> Alone {
        let mut b = FunctionBuilder::new("insn");
        let vars = LocMap::from_fn(|l| match l.kind() {
            LocKind::Gpr => b.typed_param(l.name(), Type::I64),
            LocKind::Flag => b.typed_param(l.name(), Type::I32),
            LocKind::Vector => b.typed_var(l.name(), Type::V128),
        });
        let fs = b.typed_param("fs_base", Type::I64);
        let gs = b.typed_param("gs_base", Type::I64);
        let mut types = vec![Type::I64; 16];
        types.extend([Type::I32; 7]);
        b.returns(&types);
        let entry = b.block("entry");
        b.switch_to(entry);
        let cache = Cache::with_segment_bases(fs, gs);
        Alone { b, vars, cache }
    }

    /// Emits `ins`, leaving out the flag definitions of `dead`; false when
    /// the table does not cover it.
    pub(crate) fn emit(&mut self, ins: &Instruction, dead: crate::regs::LocSet) -> bool {
        let mut e = Emitter::new(&mut self.b, &self.vars, &mut self.cache).leave_out(dead);
        emit(&mut e, ins)
    }

    /// Returns the 23 locations; the function and the emitter's cache.
    pub(crate) fn finish(mut self) -> (ssakit::ir::Function, Cache) {
        let rets: Vec<Operand> = crate::regs::LocSet::GPRS
            .union(crate::regs::LocSet::FLAGS)
            .iter()
            .map(|l| Operand::Var(self.vars[l]))
            .collect();
        self.b.ret_values(&rets);
        (self.b.finish(), self.cache)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iced_x86::{Code, Decoder, DecoderOptions};

    /// `is_setcc` picks out exactly the mnemonics named `set...` that test
    /// a condition.
    #[test]
    fn setcc_is_the_code_range() {
        for c in Code::values() {
            let name = format!("{:?}", c.mnemonic()).to_lowercase();
            let range = (Code::Seto_rm8 as u32..=Code::Setg_rm8 as u32).contains(&(c as u32));
            let setcc =
                name.starts_with("set") && c.condition_code() != iced_x86::ConditionCode::None;
            assert_eq!(setcc, range, "{c:?}");
        }
    }

    /// Random bytes: every instruction the table covers lifts to a
    /// function whose SSA form verifies (types, operands, immediates),
    /// never a panic.
    #[test]
    fn random_bytes_lift_to_valid_functions() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut covered = 0;
        for _ in 0..20_000 {
            let mut bytes = [0u8; 15];
            for b in &mut bytes {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *b = x as u8;
            }
            let ins = Decoder::with_ip(64, &bytes, 0x1000, DecoderOptions::NONE).decode();
            if let Some(mut f) = lift_instruction(&ins) {
                covered += 1;
                let opts = ssakit::construct::Options::default();
                ssakit::construct::construct(&mut f, &opts).unwrap();
                if let Err(e) = ssakit::verify::verify_valid(&f) {
                    panic!(
                        "{:?}: {e:?}\n{}",
                        ins.code(),
                        ssakit::text::print_function(&f)
                    );
                }
            }
        }
        assert!(covered > 2_000, "{covered}");
    }

    /// Emitting many instructions into one function, each with some
    /// flags left out, prints the same whether the flag chains already
    /// walked are taken as known (`Emitter::for_chain`'s shortcut) or
    /// every chain is walked again: the same variables, names, operators
    /// and operations, in the same order.
    #[test]
    fn known_chains_are_walked_chains() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let flags: Vec<crate::regs::Loc> = crate::regs::LocSet::FLAGS.iter().collect();
        let (mut known, mut walked) = (Alone::new(), Alone::new());
        let mut covered = 0;
        for _ in 0..20_000 {
            let mut bytes = [0u8; 15];
            let r = next();
            // Mostly the ALU's opcodes (add, or, adc... cmp, test, inc).
            bytes[0] =
                [0x01, 0x09, 0x21, 0x29, 0x31, 0x39, 0x85, 0x48, 0x83, 0xff][r as usize % 10];
            for b in &mut bytes[1..] {
                *b = next() as u8;
            }
            let ins = Decoder::with_ip(64, &bytes, 0x1000, DecoderOptions::NONE).decode();
            let bits = next();
            let mut dead = crate::regs::LocSet::EMPTY;
            for (k, &f) in flags.iter().enumerate() {
                if bits >> k & 1 == 1 {
                    dead.insert(f);
                }
            }
            walked.cache.forget_chains();
            let a = known.emit(&ins, dead);
            let b = walked.emit(&ins, dead);
            assert_eq!(a, b, "{:?}", ins.code());
            covered += usize::from(a);
        }
        assert!(covered > 5_000, "{covered}");
        let (fk, ck) = known.finish();
        let (fw, cw) = walked.finish();
        assert_eq!(ck.left_out, cw.left_out);
        assert_eq!(
            ssakit::text::print_function(&fk),
            ssakit::text::print_function(&fw)
        );
    }

    /// A zero idiom is constants: the register 0 and fixed flags.
    #[test]
    fn zero_idiom_is_constant() {
        let ins = Decoder::with_ip(64, &[0x31, 0xc0], 0, DecoderOptions::NONE).decode();
        let text = ssakit::text::print_function(&lift_instruction(&ins).unwrap());
        assert!(
            text.contains("rax = 0\n") && text.contains("zf: i32 = 1\n"),
            "{text}"
        );
        assert!(!text.contains("i32.xor"), "{text}");
    }
}
