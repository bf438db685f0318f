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
//!   0). `fs:`/`gs:` accesses and 32-bit addressing stay opaque.
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

use crate::regs::{Loc, LocKind, LocMap};
use iced_x86::{Code, ConditionCode, Instruction, Mnemonic, OpKind, Register};
use rustc_hash::FxHashMap;
use ssakit::ir::{FunctionBuilder, InstData, Opcode, Operand, Operator, Type, Var};

/// The width of an operand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum W {
    B8,
    B16,
    B32,
    B64,
}

impl W {
    fn of_bytes(n: usize) -> Option<W> {
        match n {
            1 => Some(W::B8),
            2 => Some(W::B16),
            4 => Some(W::B32),
            8 => Some(W::B64),
            _ => None,
        }
    }
    fn bits(self) -> u32 {
        match self {
            W::B8 => 8,
            W::B16 => 16,
            W::B32 => 32,
            W::B64 => 64,
        }
    }
    /// The mask of the width's bits, as an operand of its type.
    fn mask(self) -> i64 {
        match self {
            W::B8 => 0xff,
            W::B16 => 0xffff,
            W::B32 | W::B64 => -1,
        }
    }
    /// `i64` for 64 bits, else `i32`.
    fn is64(self) -> bool {
        self == W::B64
    }
}

/// Where an operand is, before anything is emitted: parsing fails (the
/// instruction stays opaque) without leaving half an instruction behind.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// A general register at a width; `high` for `ah`..`bh`.
    Reg { loc: Loc, w: W, high: bool },
    /// An immediate, sign-extended to 64 bits by the decoder.
    Imm { v: i64 },
    /// A memory operand of `w` bytes.
    Mem { m: MemRef, w: Option<W> },
}

/// A memory operand's address, as the instruction encodes it.
#[derive(Clone, Copy, Debug)]
struct MemRef {
    base: Option<Loc>,
    index: Option<Loc>,
    scale: u32,
    disp: i64,
}

/// An operand ready to be read or written: a register, an immediate, or
/// memory at a computed address.
#[derive(Clone, Copy, Debug)]
enum Opnd {
    Reg { loc: Loc, w: W, high: bool },
    Imm { v: i64 },
    Mem { addr: Operand, w: W },
}

/// The place of operand `i` of `ins`, if the model covers it.
fn place(ins: &Instruction, i: u32) -> Option<Place> {
    match ins.op_kind(i) {
        OpKind::Register => reg_place(ins.op_register(i)),
        OpKind::Memory => {
            if matches!(ins.memory_segment(), Register::FS | Register::GS) {
                return None;
            }
            let w = W::of_bytes(ins.memory_size().size());
            if ins.is_ip_rel_memory_operand() {
                return Some(Place::Mem {
                    m: MemRef {
                        base: None,
                        index: None,
                        scale: 1,
                        disp: ins.ip_rel_memory_address() as i64,
                    },
                    w,
                });
            }
            let reg64 = |r: Register| -> Option<Option<Loc>> {
                match r {
                    Register::None => Some(None),
                    r if r.is_gpr64() => Some(Some(Loc::of_register(r)?)),
                    _ => None,
                }
            };
            Some(Place::Mem {
                m: MemRef {
                    base: reg64(ins.memory_base())?,
                    index: reg64(ins.memory_index())?,
                    scale: ins.memory_index_scale(),
                    disp: ins.memory_displacement64() as i64,
                },
                w,
            })
        }
        OpKind::Immediate8
        | OpKind::Immediate16
        | OpKind::Immediate32
        | OpKind::Immediate64
        | OpKind::Immediate8to16
        | OpKind::Immediate8to32
        | OpKind::Immediate8to64
        | OpKind::Immediate32to64 => Some(Place::Imm {
            v: ins.immediate(i) as i64,
        }),
        _ => None,
    }
}

fn reg_place(r: Register) -> Option<Place> {
    if !r.is_gpr() {
        return None;
    }
    let loc = Loc::of_register(r)?;
    let high = matches!(r, Register::AH | Register::CH | Register::DH | Register::BH);
    Some(Place::Reg {
        loc,
        w: W::of_bytes(r.size())?,
        high,
    })
}

/// The state the semantics keep across one function's instructions: the
/// operators declared and the pools of temporaries.
#[derive(Default)]
pub(crate) struct Cache {
    ops: FxHashMap<Opcode, Operator>,
    q: Vec<Var>,
    d: Vec<Var>,
}

/// What one instruction's semantics are emitted with.
pub(crate) struct Emitter<'a> {
    pub(crate) b: &'a mut FunctionBuilder,
    pub(crate) vars: &'a LocMap<Var>,
    pub(crate) cache: &'a mut Cache,
    nq: usize,
    nd: usize,
}

impl<'a> Emitter<'a> {
    pub(crate) fn new(
        b: &'a mut FunctionBuilder,
        vars: &'a LocMap<Var>,
        cache: &'a mut Cache,
    ) -> Emitter<'a> {
        Emitter {
            b,
            vars,
            cache,
            nq: 0,
            nd: 0,
        }
    }

    fn var(&self, l: Loc) -> Operand {
        Operand::Var(self.vars[l])
    }

    /// A fresh temporary of this instruction: `q0, q1, ...` (`i64`) or
    /// `d0, d1, ...` (`i32`).
    fn tmp(&mut self, ty: Type) -> Var {
        let wide = ty == Type::I64;
        let (pool, n) = if wide {
            (&mut self.cache.q, &mut self.nq)
        } else {
            (&mut self.cache.d, &mut self.nd)
        };
        if *n == pool.len() {
            let name = format!("{}{}", if wide { "q" } else { "d" }, *n);
            pool.push(
                self.b
                    .typed_var(&name, if wide { Type::I64 } else { Type::I32 }),
            );
        }
        let v = pool[*n];
        *n += 1;
        v
    }

    fn operator(&mut self, code: Opcode) -> Operator {
        if let Some(&op) = self.cache.ops.get(&code) {
            return op;
        }
        let op = self
            .b
            .func_mut()
            .operator(code.name(), code.effects())
            .expect("the set's names are declared with the set's effects");
        self.cache.ops.insert(code, op);
        op
    }

    /// `dst = code[imms](args)` (no result for a store).
    fn emit_into(&mut self, dst: Option<Var>, code: Opcode, imms: &[i64], args: &[Operand]) {
        let op = self.operator(code);
        let f = self.b.func_mut();
        let imms = f.list(imms);
        let args = f.list(args);
        let results = f.list(dst.as_slice());
        self.b.inst(InstData::Op {
            op,
            imms,
            args,
            results,
        });
    }

    /// `code(args)` into a fresh temporary of the result's type.
    fn op(&mut self, code: Opcode, args: &[Operand]) -> Operand {
        let ty = match code.result() {
            Some(ssakit::ir::Slot::Is(t)) => t,
            _ => Type::I64,
        };
        let t = self.tmp(ty);
        self.emit_into(Some(t), code, &[], args);
        Operand::Var(t)
    }

    /// `code(args)` at width `w`: `c64` for 64 bits, else `c32`.
    fn opw(&mut self, w: W, c64: Opcode, c32: Opcode, args: &[Operand]) -> Operand {
        self.op(if w.is64() { c64 } else { c32 }, args)
    }

    fn copy(&mut self, dst: Var, src: Operand) {
        self.b.copy(dst, src);
    }

    fn set(&mut self, flag: Loc, v: Operand) {
        let dst = self.vars[flag];
        self.copy(dst, v);
    }

    /// Defines `flag` as `code(args)` directly.
    fn set_op(&mut self, flag: Loc, code: Opcode, args: &[Operand]) {
        let dst = self.vars[flag];
        self.emit_into(Some(dst), code, &[], args);
    }

    // ---- addresses, reads and writes -------------------------------------

    /// `base + index * scale + disp` as `i64` operations.
    fn address(&mut self, m: &MemRef) -> Operand {
        let mut acc: Option<Operand> = m.base.map(|b| self.var(b));
        if let Some(i) = m.index {
            let iv = self.var(i);
            let scaled = match m.scale {
                1 => iv,
                s => self.op(
                    Opcode::I64Shl,
                    &[iv, Operand::Const(s.trailing_zeros() as i64)],
                ),
            };
            acc = Some(match acc {
                Some(a) => self.op(Opcode::I64Add, &[a, scaled]),
                None => scaled,
            });
        }
        match acc {
            None => Operand::Const(m.disp),
            Some(a) if m.disp == 0 => a,
            Some(a) => self.op(Opcode::I64Add, &[a, Operand::Const(m.disp)]),
        }
    }

    /// The operand of `p`, its address computed; `w` the width of a
    /// memory operand whose size the decoder does not give.
    fn resolve(&mut self, p: Place, w: W) -> Opnd {
        match p {
            Place::Reg { loc, w, high } => Opnd::Reg { loc, w, high },
            Place::Imm { v } => Opnd::Imm { v },
            Place::Mem { m, w: mw } => Opnd::Mem {
                addr: self.address(&m),
                w: mw.unwrap_or(w),
            },
        }
    }

    /// The value of `o` at width `w`: `i64` for 64 bits, else an `i32`
    /// (8 and 16 bits zero-extended).
    fn read(&mut self, o: &Opnd, w: W) -> Operand {
        match *o {
            Opnd::Imm { v } => Operand::Const(match w {
                W::B64 => v,
                W::B32 => v as i32 as i64,
                W::B16 | W::B8 => v & w.mask(),
            }),
            Opnd::Reg { loc, high, .. } => {
                let r = self.var(loc);
                if w.is64() {
                    return r;
                }
                let r = if high {
                    self.op(Opcode::I64ShrU, &[r, Operand::Const(8)])
                } else {
                    r
                };
                let lo = self.op(Opcode::I32WrapI64, &[r]);
                match w {
                    W::B32 => lo,
                    _ => self.op(Opcode::I32And, &[lo, Operand::Const(w.mask())]),
                }
            }
            Opnd::Mem { addr, .. } => {
                let code = match w {
                    W::B64 => Opcode::I64Load,
                    W::B32 => Opcode::I32Load,
                    W::B16 => Opcode::I32Load16U,
                    W::B8 => Opcode::I32Load8U,
                };
                let t = self.tmp(if w.is64() { Type::I64 } else { Type::I32 });
                self.emit_into(Some(t), code, &[0, 0, 0], &[addr]);
                Operand::Var(t)
            }
        }
    }

    /// Writes `v` (at `o`'s width, 8 and 16 bits zero-extended) to `o`.
    fn write(&mut self, o: &Opnd, v: Operand) {
        match *o {
            Opnd::Imm { .. } => {}
            Opnd::Reg { loc, w, high } => {
                let dst = self.vars[loc];
                match w {
                    W::B64 => self.copy(dst, v),
                    W::B32 => match v {
                        Operand::Const(c) => self.copy(dst, Operand::Const(c & 0xffff_ffff)),
                        _ => self.emit_into(Some(dst), Opcode::I64ExtendI32U, &[], &[v]),
                    },
                    W::B16 | W::B8 => {
                        let wide = self.op(Opcode::I64ExtendI32U, &[v]);
                        let (wide, mask) = if high {
                            let s = self.op(Opcode::I64Shl, &[wide, Operand::Const(8)]);
                            (s, 0xff00)
                        } else {
                            (wide, w.mask())
                        };
                        let kept =
                            self.op(Opcode::I64And, &[Operand::Var(dst), Operand::Const(!mask)]);
                        self.emit_into(Some(dst), Opcode::I64Or, &[], &[kept, wide]);
                    }
                }
            }
            Opnd::Mem { addr, w } => {
                let code = match w {
                    W::B64 => Opcode::I64Store,
                    W::B32 => Opcode::I32Store,
                    W::B16 => Opcode::I32Store16,
                    W::B8 => Opcode::I32Store8,
                };
                self.emit_into(None, code, &[0, 0, 0], &[addr, v]);
            }
        }
    }

    /// `v` (an `i32` at width `w`, 8 and 16 bits zero-extended, or an
    /// `i64`) kept to its width's bits.
    fn trunc(&mut self, v: Operand, w: W) -> Operand {
        match w {
            W::B8 | W::B16 => self.op(Opcode::I32And, &[v, Operand::Const(w.mask())]),
            _ => v,
        }
    }

    /// `v` at width `from` zero-extended to width `to`.
    fn zext(&mut self, v: Operand, from: W, to: W) -> Operand {
        match (from.is64(), to.is64()) {
            (false, true) => self.op(Opcode::I64ExtendI32U, &[v]),
            _ => v,
        }
    }

    /// `v` at width `from` sign-extended to width `to`.
    fn sext(&mut self, v: Operand, from: W, to: W) -> Operand {
        if from.is64() {
            return v;
        }
        let s = match from {
            W::B8 => self.op(Opcode::I32Extend8S, &[v]),
            W::B16 => self.op(Opcode::I32Extend16S, &[v]),
            _ => v,
        };
        match to {
            W::B64 => self.op(Opcode::I64ExtendI32S, &[s]),
            W::B32 => s,
            _ => self.trunc(s, to),
        }
    }

    // ---- flags -------------------------------------------------------------

    /// The sign bit of `x` at width `w`, an `i32` 0 or 1.
    fn msb(&mut self, x: Operand, w: W) -> Operand {
        match w {
            W::B64 => self.op(Opcode::I64LtS, &[x, Operand::Const(0)]),
            W::B32 => self.op(Opcode::I32LtS, &[x, Operand::Const(0)]),
            _ => self.bit(x, w.bits() - 1, w),
        }
    }

    /// Bit `k` of `x` at width `w`, an `i32` 0 or 1.
    fn bit(&mut self, x: Operand, k: u32, w: W) -> Operand {
        let lo = if w.is64() {
            let s = self.op(Opcode::I64ShrU, &[x, Operand::Const(k as i64)]);
            self.op(Opcode::I32WrapI64, &[s])
        } else if k == 0 {
            x
        } else {
            self.op(Opcode::I32ShrU, &[x, Operand::Const(k as i64)])
        };
        self.op(Opcode::I32And, &[lo, Operand::Const(1)])
    }

    /// `SF`, `ZF` and `PF` of result `r`.
    fn result_flags(&mut self, r: Operand, w: W) {
        let s = self.msb(r, w);
        self.set(Loc::SF, s);
        if w.is64() {
            self.set_op(Loc::ZF, Opcode::I64Eqz, &[r]);
        } else {
            self.set_op(Loc::ZF, Opcode::I32Eqz, &[r]);
        }
        let lo = if w.is64() {
            self.op(Opcode::I32WrapI64, &[r])
        } else {
            r
        };
        let byte = self.op(Opcode::I32And, &[lo, Operand::Const(0xff)]);
        let ones = self.op(Opcode::I32Popcnt, &[byte]);
        let odd = self.op(Opcode::I32And, &[ones, Operand::Const(1)]);
        self.set_op(Loc::PF, Opcode::I32Eqz, &[odd]);
    }

    /// `SF`, `ZF` and `PF` of result `r` into temporaries.
    fn result_flag_values(&mut self, r: Operand, w: W) -> [Operand; 3] {
        let sf = self.msb(r, w);
        let zf = self.opw(w, Opcode::I64Eqz, Opcode::I32Eqz, &[r]);
        let lo = if w.is64() {
            self.op(Opcode::I32WrapI64, &[r])
        } else {
            r
        };
        let byte = self.op(Opcode::I32And, &[lo, Operand::Const(0xff)]);
        let ones = self.op(Opcode::I32Popcnt, &[byte]);
        let odd = self.op(Opcode::I32And, &[ones, Operand::Const(1)]);
        let pf = self.op(Opcode::I32Eqz, &[odd]);
        [sf, zf, pf]
    }

    /// `flag = select(v, flag, keep == 0)`: the new value where `nz` is
    /// not zero, else the old one.
    fn set_if(&mut self, flag: Loc, v: Operand, nz: Operand) {
        let old = self.var(flag);
        self.set_op(flag, Opcode::Select, &[v, old, nz]);
    }

    /// `AF`: bit 4 of `a ^ b ^ r`.
    fn aux_flag(&mut self, a: Operand, b: Operand, r: Operand, w: W) {
        let x = self.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, b]);
        let x = self.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[x, r]);
        let af = self.bit(x, 4, w);
        self.set(Loc::AF, af);
    }

    /// The flags of `r = a + b` (`CF` unless `keep_cf`).
    fn add_flags(&mut self, a: Operand, b: Operand, r: Operand, w: W, keep_cf: bool) {
        if !keep_cf {
            self.set_op(
                Loc::CF,
                if w.is64() {
                    Opcode::I64LtU
                } else {
                    Opcode::I32LtU
                },
                &[r, a],
            );
        }
        let x = self.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, r]);
        let y = self.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[b, r]);
        let both = self.opw(w, Opcode::I64And, Opcode::I32And, &[x, y]);
        let of = self.msb(both, w);
        self.set(Loc::OF, of);
        self.aux_flag(a, b, r, w);
        self.result_flags(r, w);
    }

    /// The flags of `r = a - b` (`CF` unless `keep_cf`).
    fn sub_flags(&mut self, a: Operand, b: Operand, r: Operand, w: W, keep_cf: bool) {
        if !keep_cf {
            self.set_op(
                Loc::CF,
                if w.is64() {
                    Opcode::I64LtU
                } else {
                    Opcode::I32LtU
                },
                &[a, b],
            );
        }
        let x = self.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, b]);
        let y = self.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, r]);
        let both = self.opw(w, Opcode::I64And, Opcode::I32And, &[x, y]);
        let of = self.msb(both, w);
        self.set(Loc::OF, of);
        self.aux_flag(a, b, r, w);
        self.result_flags(r, w);
    }

    /// The flags of a logic operation's result `r`.
    fn logic_flags(&mut self, r: Operand, w: W) {
        self.set(Loc::CF, Operand::Const(0));
        self.set(Loc::OF, Operand::Const(0));
        self.set(Loc::AF, Operand::Undef);
        self.result_flags(r, w);
    }

    /// Condition `cc` of the flags, an `i32` 0 or 1.
    fn condition(&mut self, cc: ConditionCode) -> Option<Operand> {
        use ConditionCode as C;
        let f = |s: &Self, l: Loc| s.var(l);
        let not = |s: &mut Self, x: Operand| s.op(Opcode::I32Eqz, &[x]);
        Some(match cc {
            C::o => f(self, Loc::OF),
            C::no => not(self, f(self, Loc::OF)),
            C::b => f(self, Loc::CF),
            C::ae => not(self, f(self, Loc::CF)),
            C::e => f(self, Loc::ZF),
            C::ne => not(self, f(self, Loc::ZF)),
            C::be => self.op(Opcode::I32Or, &[f(self, Loc::CF), f(self, Loc::ZF)]),
            C::a => {
                let x = self.op(Opcode::I32Or, &[f(self, Loc::CF), f(self, Loc::ZF)]);
                not(self, x)
            }
            C::s => f(self, Loc::SF),
            C::ns => not(self, f(self, Loc::SF)),
            C::p => f(self, Loc::PF),
            C::np => not(self, f(self, Loc::PF)),
            C::l => self.op(Opcode::I32Ne, &[f(self, Loc::SF), f(self, Loc::OF)]),
            C::ge => self.op(Opcode::I32Eq, &[f(self, Loc::SF), f(self, Loc::OF)]),
            C::le => {
                let x = self.op(Opcode::I32Ne, &[f(self, Loc::SF), f(self, Loc::OF)]);
                self.op(Opcode::I32Or, &[f(self, Loc::ZF), x])
            }
            C::g => {
                let x = self.op(Opcode::I32Eq, &[f(self, Loc::SF), f(self, Loc::OF)]);
                let nz = not(self, f(self, Loc::ZF));
                self.op(Opcode::I32And, &[nz, x])
            }
            C::None => return None,
        })
    }
}

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
        M::Mov => mov(e, ins),
        M::Movzx => extend(e, ins, false),
        M::Movsx | M::Movsxd => extend(e, ins, true),
        M::Lea => lea(e, ins),
        M::Add | M::Sub | M::Cmp => arith(e, ins, m),
        M::And | M::Or | M::Xor | M::Test => logic(e, ins, m),
        M::Inc | M::Dec => inc_dec(e, ins, m == M::Inc),
        M::Neg => neg(e, ins),
        M::Not => not(e, ins),
        M::Shl | M::Sal | M::Shr | M::Sar if count_in_cl(ins) => shift_cl(e, ins, m),
        M::Shl | M::Sal | M::Shr | M::Sar => shift(e, ins, m),
        M::Rol | M::Ror => rotate(e, ins, m == M::Rol),
        M::Adc | M::Sbb => carry_arith(e, ins, m == M::Adc),
        M::Bsf | M::Bsr | M::Tzcnt | M::Lzcnt | M::Popcnt => count_bits(e, ins, m),
        M::Bswap => bswap(e, ins),
        M::Bt | M::Bts | M::Btr | M::Btc => bit_test(e, ins, m),
        M::Mul => widening_mul(e, ins, false),
        M::Imul if ins.op_count() == 1 => widening_mul(e, ins, true),
        M::Leave => leave(e),
        M::Cmpxchg => cmpxchg(e, ins),
        M::Xadd => xadd(e, ins),
        M::Imul => imul(e, ins),
        M::Push => push(e, ins),
        M::Pop => pop(e, ins),
        M::Cdqe | M::Cwde | M::Cwd | M::Cdq | M::Cqo => convert(e, m),
        M::Xchg => xchg(e, ins),
        M::Nop | M::Endbr64 | M::Endbr32 => Some(true),
        _ if is_setcc(ins) => setcc(e, ins),
        _ if crate::regs::is_cmov(ins) => cmov(e, ins),
        _ => None,
    };
    covered.unwrap_or(false)
}

// ---- the families ------------------------------------------------------------

/// The places of the first `n` operands, if all are covered.
fn places<const N: usize>(ins: &Instruction) -> Option<[Place; N]> {
    if ins.op_count() as usize != N {
        return None;
    }
    let mut out = [Place::Imm { v: 0 }; N];
    for (i, p) in out.iter_mut().enumerate() {
        *p = place(ins, i as u32)?;
    }
    Some(out)
}

/// The width of a register or sized memory place.
fn width(p: &Place) -> Option<W> {
    match *p {
        Place::Reg { w, .. } => Some(w),
        Place::Mem { w, .. } => w,
        Place::Imm { .. } => None,
    }
}

/// `mov dst, src`: a copy at the destination's width.
fn mov(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let v = e.read(&s, w);
    e.write(&d, v);
    Some(true)
}

/// `movzx`/`movsx`/`movsxd dst, src`: an extension to the destination's
/// width.
fn extend(e: &mut Emitter<'_>, ins: &Instruction, signed: bool) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let (wd, ws) = (width(&d)?, width(&s)?);
    let (d, s) = (e.resolve(d, wd), e.resolve(s, ws));
    let v = e.read(&s, ws);
    let v = if signed {
        e.sext(v, ws, wd)
    } else {
        e.zext(v, ws, wd)
    };
    e.write(&d, v);
    Some(true)
}

/// `lea dst, [address]`: the address, as arithmetic.
fn lea(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let Place::Mem { m, .. } = s else {
        return None;
    };
    let d = e.resolve(d, w);
    let a = e.address(&m);
    let v = match w {
        W::B64 => a,
        _ => {
            let lo = e.op(Opcode::I32WrapI64, &[a]);
            e.trunc(lo, w)
        }
    };
    e.write(&d, v);
    Some(true)
}

/// Whether both places are the same register (`xor eax, eax`).
fn same_register(a: &Place, b: &Place) -> bool {
    matches!((a, b), (Place::Reg { loc: x, w: wx, high: hx }, Place::Reg { loc: y, w: wy, high: hy })
        if x == y && wx == wy && hx == hy)
}

/// `add`, `sub`, `cmp`.
fn arith(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    if m == Mnemonic::Sub && same_register(&d, &s) {
        let d = e.resolve(d, w);
        e.write(&d, Operand::Const(0));
        zero_flags(e, false);
        return Some(true);
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let b = e.read(&s, w);
    let (c64, c32) = match m {
        Mnemonic::Add => (Opcode::I64Add, Opcode::I32Add),
        _ => (Opcode::I64Sub, Opcode::I32Sub),
    };
    let r = e.opw(w, c64, c32, &[a, b]);
    let r = e.trunc(r, w);
    if m == Mnemonic::Add {
        e.add_flags(a, b, r, w, false);
    } else {
        e.sub_flags(a, b, r, w, false);
    }
    if m != Mnemonic::Cmp {
        e.write(&d, r);
    }
    Some(true)
}

/// The flags of a zero idiom (`xor r, r`, `sub r, r`): constants.
fn zero_flags(e: &mut Emitter<'_>, xor: bool) {
    for (l, v) in [
        (Loc::CF, 0),
        (Loc::OF, 0),
        (Loc::SF, 0),
        (Loc::ZF, 1),
        (Loc::PF, 1),
    ] {
        e.set(l, Operand::Const(v));
    }
    e.set(
        Loc::AF,
        if xor {
            Operand::Undef
        } else {
            Operand::Const(0)
        },
    );
}

/// `and`, `or`, `xor`, `test`.
fn logic(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    if m == Mnemonic::Xor && same_register(&d, &s) {
        let d = e.resolve(d, w);
        e.write(&d, Operand::Const(0));
        zero_flags(e, true);
        return Some(true);
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let b = e.read(&s, w);
    let (c64, c32) = match m {
        Mnemonic::Or => (Opcode::I64Or, Opcode::I32Or),
        Mnemonic::Xor => (Opcode::I64Xor, Opcode::I32Xor),
        _ => (Opcode::I64And, Opcode::I32And),
    };
    let r = e.opw(w, c64, c32, &[a, b]);
    e.logic_flags(r, w);
    if m != Mnemonic::Test {
        e.write(&d, r);
    }
    Some(true)
}

/// `inc`/`dec`: an addition or subtraction of 1 that keeps `CF`.
fn inc_dec(e: &mut Emitter<'_>, ins: &Instruction, inc: bool) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let w = width(&d)?;
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let one = Operand::Const(1);
    let r = if inc {
        e.opw(w, Opcode::I64Add, Opcode::I32Add, &[a, one])
    } else {
        e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[a, one])
    };
    let r = e.trunc(r, w);
    if inc {
        e.add_flags(a, one, r, w, true);
    } else {
        e.sub_flags(a, one, r, w, true);
    }
    e.write(&d, r);
    Some(true)
}

/// `neg`: `0 - x` with the flags of that subtraction.
fn neg(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let w = width(&d)?;
    let d = e.resolve(d, w);
    let x = e.read(&d, w);
    let zero = Operand::Const(0);
    let r = e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[zero, x]);
    let r = e.trunc(r, w);
    e.sub_flags(zero, x, r, w, false);
    e.write(&d, r);
    Some(true)
}

/// `not`: every bit of the width flipped; no flag.
fn not(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let w = width(&d)?;
    let d = e.resolve(d, w);
    let x = e.read(&d, w);
    let r = e.opw(
        w,
        Opcode::I64Xor,
        Opcode::I32Xor,
        &[x, Operand::Const(w.mask())],
    );
    e.write(&d, r);
    Some(true)
}

/// `shl`/`sal`/`shr`/`sar` by an immediate count (masked to 5 bits, 6
/// for 64-bit operands). A count of 0 or, on 8 and 16 bits, of the
/// width or more stays opaque; a shift by `cl` too.
fn shift(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let Place::Imm { v } = s else {
        return None;
    };
    let c = (v as u32) & if w.is64() { 63 } else { 31 };
    if c == 0 || c >= w.bits() {
        return None;
    }
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let k = Operand::Const(c as i64);
    let (r, cf) = match m {
        Mnemonic::Shr => {
            let r = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, k]);
            (r, e.bit(a, c - 1, w))
        }
        Mnemonic::Sar => {
            let s = e.sext(a, w, if w.is64() { W::B64 } else { W::B32 });
            let r = e.opw(w, Opcode::I64ShrS, Opcode::I32ShrS, &[s, k]);
            let r = e.trunc(r, w);
            (r, e.bit(s, c - 1, if w.is64() { W::B64 } else { W::B32 }))
        }
        _ => {
            let r = e.opw(w, Opcode::I64Shl, Opcode::I32Shl, &[a, k]);
            let r = e.trunc(r, w);
            (r, e.bit(a, w.bits() - c, w))
        }
    };
    e.set(Loc::CF, cf);
    let of = if c != 1 {
        Operand::Undef
    } else {
        match m {
            Mnemonic::Shr => e.msb(a, w),
            Mnemonic::Sar => Operand::Const(0),
            _ => {
                let top = e.msb(r, w);
                e.op(Opcode::I32Xor, &[top, cf])
            }
        }
    };
    e.set(Loc::OF, of);
    e.set(Loc::AF, Operand::Undef);
    e.result_flags(r, w);
    e.write(&d, r);
    Some(true)
}

/// `imul` with two or three operands: the low half of the signed product;
/// `CF = OF` = the product does not fit; `SF`, `ZF`, `AF`, `PF` undefined.
fn imul(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let (d, x, y) = match ins.op_count() {
        2 => {
            let [d, s] = places::<2>(ins)?;
            (d, d, s)
        }
        3 => {
            let [d, s, i] = places::<3>(ins)?;
            (d, s, i)
        }
        _ => return None,
    };
    let w = width(&d)?;
    if w == W::B8 {
        return None;
    }
    let (d, x, y) = (e.resolve(d, w), e.resolve(x, w), e.resolve(y, w));
    let a = e.read(&x, w);
    let b = e.read(&y, w);
    let (r, over) = match w {
        W::B64 => {
            let r = e.op(Opcode::I64Mul, &[a, b]);
            let hi = mul_high(e, a, b, true);
            let sign = e.op(Opcode::I64ShrS, &[r, Operand::Const(63)]);
            (r, e.op(Opcode::I64Ne, &[hi, sign]))
        }
        W::B32 => {
            let a = e.op(Opcode::I64ExtendI32S, &[a]);
            let b = e.op(Opcode::I64ExtendI32S, &[b]);
            let p = e.op(Opcode::I64Mul, &[a, b]);
            let r = e.op(Opcode::I32WrapI64, &[p]);
            let back = e.op(Opcode::I64ExtendI32S, &[r]);
            (r, e.op(Opcode::I64Ne, &[p, back]))
        }
        _ => {
            let a = e.op(Opcode::I32Extend16S, &[a]);
            let b = e.op(Opcode::I32Extend16S, &[b]);
            let p = e.op(Opcode::I32Mul, &[a, b]);
            let back = e.op(Opcode::I32Extend16S, &[p]);
            let over = e.op(Opcode::I32Ne, &[p, back]);
            (e.trunc(p, w), over)
        }
    };
    e.set(Loc::CF, over);
    e.set(Loc::OF, over);
    for l in [Loc::SF, Loc::ZF, Loc::AF, Loc::PF] {
        e.set(l, Operand::Undef);
    }
    e.write(&d, r);
    Some(true)
}

/// The high 64 bits of the 128-bit product `a * b`, from 32-bit limbs:
/// the unsigned high half, and for a signed product then `- (a < 0 ? b :
/// 0) - (b < 0 ? a : 0)`.
fn mul_high(e: &mut Emitter<'_>, a: Operand, b: Operand, signed: bool) -> Operand {
    let lo32 = Operand::Const(0xffff_ffff);
    let k32 = Operand::Const(32);
    let al = e.op(Opcode::I64And, &[a, lo32]);
    let ah = e.op(Opcode::I64ShrU, &[a, k32]);
    let bl = e.op(Opcode::I64And, &[b, lo32]);
    let bh = e.op(Opcode::I64ShrU, &[b, k32]);
    let ll = e.op(Opcode::I64Mul, &[al, bl]);
    let lh = e.op(Opcode::I64Mul, &[al, bh]);
    let hl = e.op(Opcode::I64Mul, &[ah, bl]);
    let hh = e.op(Opcode::I64Mul, &[ah, bh]);
    // mid = (ll >> 32) + (lh & M) + (hl & M), at most 3 * 2^32: no overflow.
    let ll_hi = e.op(Opcode::I64ShrU, &[ll, k32]);
    let lh_lo = e.op(Opcode::I64And, &[lh, lo32]);
    let hl_lo = e.op(Opcode::I64And, &[hl, lo32]);
    let mid = e.op(Opcode::I64Add, &[ll_hi, lh_lo]);
    let mid = e.op(Opcode::I64Add, &[mid, hl_lo]);
    let lh_hi = e.op(Opcode::I64ShrU, &[lh, k32]);
    let hl_hi = e.op(Opcode::I64ShrU, &[hl, k32]);
    let mid_hi = e.op(Opcode::I64ShrU, &[mid, k32]);
    let hi = e.op(Opcode::I64Add, &[hh, lh_hi]);
    let hi = e.op(Opcode::I64Add, &[hi, hl_hi]);
    let hi = e.op(Opcode::I64Add, &[hi, mid_hi]);
    if !signed {
        return hi;
    }
    // Signed correction: subtract b where a < 0 and a where b < 0.
    let sa = e.op(Opcode::I64ShrS, &[a, Operand::Const(63)]);
    let sb = e.op(Opcode::I64ShrS, &[b, Operand::Const(63)]);
    let ca = e.op(Opcode::I64And, &[sa, b]);
    let cb = e.op(Opcode::I64And, &[sb, a]);
    let hi = e.op(Opcode::I64Sub, &[hi, ca]);
    e.op(Opcode::I64Sub, &[hi, cb])
}

/// `push src` (64-bit): `rsp -= 8`, then the value stored at `[rsp]`
/// (read before `rsp` moves: `push rsp` pushes the old value).
fn push(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [s] = places::<1>(ins)?;
    if ins.stack_pointer_increment() != -8 || matches!(width(&s), Some(w) if w != W::B64) {
        return None;
    }
    let s = e.resolve(s, W::B64);
    let v = e.read(&s, W::B64);
    let rsp = e.vars[Loc::RSP];
    let v = if v == Operand::Var(rsp) {
        let t = e.tmp(Type::I64);
        e.copy(t, v);
        Operand::Var(t)
    } else {
        v
    };
    e.emit_into(
        Some(rsp),
        Opcode::I64Sub,
        &[],
        &[Operand::Var(rsp), Operand::Const(8)],
    );
    e.emit_into(None, Opcode::I64Store, &[0, 0, 0], &[Operand::Var(rsp), v]);
    Some(true)
}

/// `pop reg` (64-bit): the value at `[rsp]`, `rsp += 8`, then the
/// register written (`pop rsp` keeps the loaded value).
fn pop(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    if ins.stack_pointer_increment() != 8 || !matches!(d, Place::Reg { w: W::B64, .. }) {
        return None;
    }
    let d = e.resolve(d, W::B64);
    let rsp = e.vars[Loc::RSP];
    let v = e.tmp(Type::I64);
    e.emit_into(Some(v), Opcode::I64Load, &[0, 0, 0], &[Operand::Var(rsp)]);
    e.emit_into(
        Some(rsp),
        Opcode::I64Add,
        &[],
        &[Operand::Var(rsp), Operand::Const(8)],
    );
    e.write(&d, Operand::Var(v));
    Some(true)
}

/// Whether `ins` is a `setcc` (iced-x86's codes `Seto_rm8` to
/// `Setg_rm8`).
fn is_setcc(ins: &Instruction) -> bool {
    (Code::Seto_rm8 as u32..=Code::Setg_rm8 as u32).contains(&(ins.code() as u32))
}

/// `setcc dst`: a byte of 0 or 1.
fn setcc(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let d = e.resolve(d, W::B8);
    let c = e.condition(ins.condition_code())?;
    e.write(&d, c);
    Some(true)
}

/// `cmovcc dst, src`: a `select` (a 32-bit `cmov` zero-extends whether it
/// moves or not; a memory source is loaded either way).
fn cmov(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let v = e.read(&s, w);
    let old = e.read(&d, w);
    let c = e.condition(ins.condition_code())?;
    let r = e.tmp(if w.is64() { Type::I64 } else { Type::I32 });
    e.emit_into(Some(r), Opcode::Select, &[], &[v, old, c]);
    e.write(&d, Operand::Var(r));
    Some(true)
}

/// `cdqe`, `cwde` (sign extension of the accumulator), `cqo`, `cdq`,
/// `cwd` (its sign into `rdx`/`edx`/`dx`).
fn convert(e: &mut Emitter<'_>, m: Mnemonic) -> Option<bool> {
    let acc = |w| Opnd::Reg {
        loc: Loc::RAX,
        w,
        high: false,
    };
    let dx = |w| Opnd::Reg {
        loc: Loc::RDX,
        w,
        high: false,
    };
    match m {
        Mnemonic::Cdqe => {
            let v = e.read(&acc(W::B32), W::B32);
            let v = e.sext(v, W::B32, W::B64);
            e.write(&acc(W::B64), v);
        }
        Mnemonic::Cwde => {
            let v = e.read(&acc(W::B16), W::B16);
            let v = e.sext(v, W::B16, W::B32);
            e.write(&acc(W::B32), v);
        }
        Mnemonic::Cqo => {
            let v = e.read(&acc(W::B64), W::B64);
            let s = e.op(Opcode::I64ShrS, &[v, Operand::Const(63)]);
            e.write(&dx(W::B64), s);
        }
        Mnemonic::Cwd => {
            let v = e.read(&acc(W::B16), W::B16);
            let v = e.sext(v, W::B16, W::B32);
            let s = e.op(Opcode::I32ShrS, &[v, Operand::Const(31)]);
            let s = e.trunc(s, W::B16);
            e.write(&dx(W::B16), s);
        }
        _ => {
            let v = e.read(&acc(W::B32), W::B32);
            let s = e.op(Opcode::I32ShrS, &[v, Operand::Const(31)]);
            e.write(&dx(W::B32), s);
        }
    }
    Some(true)
}

/// `xchg a, b`: both read, then both written (a memory operand is one
/// load and one store: the single-threaded meaning of its `lock`).
fn xchg(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [a, b] = places::<2>(ins)?;
    let w = width(&a)?;
    let (a, b) = (e.resolve(a, w), e.resolve(b, w));
    let va = e.read(&a, w);
    let vb = e.read(&b, w);
    let va = if let (Operand::Var(_), Opnd::Reg { w: W::B64, .. }) = (va, a) {
        let t = e.tmp(Type::I64);
        e.copy(t, va);
        Operand::Var(t)
    } else {
        va
    };
    // A memory operand is stored first: the register may be part of its
    // address.
    if let Opnd::Mem { .. } = b {
        e.write(&b, va);
        e.write(&a, vb);
    } else {
        e.write(&a, vb);
        e.write(&b, va);
    }
    Some(true)
}

/// The meaning of one instruction as a function of its own, for oracles
/// and examples: the parameters are the sixteen general registers
/// (`i64`) and the seven flags (`i32`, 0 or 1), in the model's order; it
/// runs the instruction and returns the same 23 locations afterwards
/// (`undef` for a flag the instruction leaves undefined). `None` when the
/// table does not cover the instruction (a control transfer, a vector or
/// system instruction, an `fs:` access...).
///
/// ```
/// use iced_x86::{Decoder, DecoderOptions};
/// use ssakit::interp::{Interpreter, RunOptions, Value};
/// use ssakit::ir::Module;
/// // sub eax, 1 with eax = 0: eax = 0xffffffff (zero-extended), CF = 1.
/// let ins = Decoder::with_ip(64, &[0x83, 0xe8, 0x01], 0, DecoderOptions::NONE).decode();
/// let m = Module { functions: vec![ssakit_x86::sem::lift_instruction(&ins).unwrap()] };
/// let mut args = [0i64; 23];
/// args[0] = 0x1234_5678_0000_0000; // rax
/// let out = Interpreter::new(&m).unwrap().run(0, &args, &RunOptions::default()).unwrap();
/// assert_eq!(out.ret, Some(Value::Int(0xffff_ffff)));
/// assert_eq!(out.extra_rets[15], Value::Int(1)); // cf
/// ```
pub fn lift_instruction(ins: &Instruction) -> Option<ssakit::ir::Function> {
    let mut b = FunctionBuilder::new("insn");
    let vars = LocMap::from_fn(|l| match l.kind() {
        LocKind::Gpr => b.typed_param(l.name(), Type::I64),
        LocKind::Flag => b.typed_param(l.name(), Type::I32),
        LocKind::Vector => b.typed_var(l.name(), Type::V128),
    });
    let mut types = vec![Type::I64; 16];
    types.extend([Type::I32; 7]);
    b.returns(&types);
    let entry = b.block("entry");
    b.switch_to(entry);
    let mut cache = Cache::default();
    let mut e = Emitter::new(&mut b, &vars, &mut cache);
    if !emit(&mut e, ins) {
        return None;
    }
    let rets: Vec<Operand> = crate::regs::LocSet::GPRS
        .union(crate::regs::LocSet::FLAGS)
        .iter()
        .map(|l| Operand::Var(vars[l]))
        .collect();
    b.ret_values(&rets);
    Some(b.finish())
}

/// Whether a shift's count is `cl`.
fn count_in_cl(ins: &Instruction) -> bool {
    ins.op_count() == 2 && ins.op_kind(1) == OpKind::Register && ins.op_register(1) == Register::CL
}

/// `shl`/`shr`/`sar` of a 32- or 64-bit operand by `cl`: the count
/// masked to 5 (6) bits; when it is 0 the flags keep their values
/// (`select` on the count), the result is written either way (a 32-bit
/// one zero-extends). `OF` is defined by Intel for a count of 1 only; for
/// larger counts it is the value QEMU gives (`shl`: the top bit `^` `CF`,
/// `shr`: the top bits of `a >> (c - 1)` and `a >> c` differ, `sar`: 0),
/// any value being right there. `AF` is undefined.
fn shift_cl(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, _] = places::<2>(ins)?;
    let w = width(&d)?;
    if !matches!(w, W::B32 | W::B64) {
        return None;
    }
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let cl = Opnd::Reg {
        loc: Loc::RCX,
        w: W::B8,
        high: false,
    };
    let cnt = e.read(&cl, W::B8);
    let c = e.op(
        Opcode::I32And,
        &[cnt, Operand::Const(if w.is64() { 63 } else { 31 })],
    );
    let nz = e.op(Opcode::I32Ne, &[c, Operand::Const(0)]);
    let cw = if w.is64() {
        e.op(Opcode::I64ExtendI32U, &[c])
    } else {
        c
    };
    let c1 = e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[cw, Operand::Const(1)]);
    let mut shr_of = None;
    let (r, cf) = match m {
        Mnemonic::Shr => {
            let r = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, cw]);
            let t = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, c1]);
            // OF: the top bits of the last two steps differ (the top bit
            // of `a` for a count of 1, else 0).
            let x = e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[t, r]);
            shr_of = Some(e.msb(x, w));
            (r, e.bit(t, 0, w))
        }
        Mnemonic::Sar => {
            let r = e.opw(w, Opcode::I64ShrS, Opcode::I32ShrS, &[a, cw]);
            let t = e.opw(w, Opcode::I64ShrS, Opcode::I32ShrS, &[a, c1]);
            (r, e.bit(t, 0, w))
        }
        _ => {
            let r = e.opw(w, Opcode::I64Shl, Opcode::I32Shl, &[a, cw]);
            let k = e.opw(
                w,
                Opcode::I64Sub,
                Opcode::I32Sub,
                &[Operand::Const(w.bits() as i64), cw],
            );
            let t = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, k]);
            (r, e.bit(t, 0, w))
        }
    };
    let of = match (m, shr_of) {
        (_, Some(of)) => of,
        (Mnemonic::Sar, _) => Operand::Const(0),
        _ => {
            let top = e.msb(r, w);
            e.op(Opcode::I32Xor, &[top, cf])
        }
    };
    let [sf, zf, pf] = e.result_flag_values(r, w);
    e.set_if(Loc::CF, cf, nz);
    e.set_if(Loc::OF, of, nz);
    e.set_if(Loc::SF, sf, nz);
    e.set_if(Loc::ZF, zf, nz);
    e.set_if(Loc::PF, pf, nz);
    e.set(Loc::AF, Operand::Undef);
    e.write(&d, r);
    Some(true)
}

/// `rol`/`ror` by an immediate (masked to 5 bits, 6 for 64-bit operands;
/// not 0; 8 and 16 bits rotate by it modulo the width): `CF` the bit
/// rotated in, `OF` (count 1; undefined otherwise) the top bit
/// `^` `CF` (`rol`) or the top two bits' `^` (`ror`); no other flag.
fn rotate(e: &mut Emitter<'_>, ins: &Instruction, left: bool) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let Place::Imm { v } = s else {
        return None;
    };
    let c = (v as u32) & if w.is64() { 63 } else { 31 };
    if c == 0 {
        return None;
    }
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let r = match w {
        W::B32 | W::B64 => {
            let k = Operand::Const(c as i64);
            if left {
                e.opw(w, Opcode::I64Rotl, Opcode::I32Rotl, &[a, k])
            } else {
                e.opw(w, Opcode::I64Rotr, Opcode::I32Rotr, &[a, k])
            }
        }
        _ => {
            // 8 and 16 bits: by the count modulo the width, as two shifts.
            let k = c % w.bits();
            let (l, r) = if left {
                (k, w.bits() - k)
            } else {
                (w.bits() - k, k)
            };
            let hi = e.op(Opcode::I32Shl, &[a, Operand::Const(l as i64)]);
            let lo = e.op(Opcode::I32ShrU, &[a, Operand::Const(r as i64)]);
            let x = e.op(Opcode::I32Or, &[hi, lo]);
            e.trunc(x, w)
        }
    };
    let cf = if left { e.bit(r, 0, w) } else { e.msb(r, w) };
    e.set(Loc::CF, cf);
    let of = if c != 1 {
        Operand::Undef
    } else if left {
        let top = e.msb(r, w);
        e.op(Opcode::I32Xor, &[top, cf])
    } else {
        let next = e.bit(r, w.bits() - 2, w);
        e.op(Opcode::I32Xor, &[cf, next])
    };
    e.set(Loc::OF, of);
    e.write(&d, r);
    Some(true)
}

/// `adc`/`sbb`: `a + b + CF`, `a - b - CF`. The carry (borrow) out of the
/// top bit is the sign of `(a & b) | ((a | b) & !r)` (`(!a & b) | ((!a |
/// b) & r)`), which holds whatever the carry in.
fn carry_arith(e: &mut Emitter<'_>, ins: &Instruction, add: bool) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let b = e.read(&s, w);
    let cf = e.var(Loc::CF);
    let cin = if w.is64() {
        e.op(Opcode::I64ExtendI32U, &[cf])
    } else {
        cf
    };
    let (c, c32) = if add {
        (Opcode::I64Add, Opcode::I32Add)
    } else {
        (Opcode::I64Sub, Opcode::I32Sub)
    };
    let t = e.opw(w, c, c32, &[a, b]);
    let r = e.opw(w, c, c32, &[t, cin]);
    let r = e.trunc(r, w);
    let x = if add {
        a
    } else {
        e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, Operand::Const(-1)])
    };
    let xr = if add {
        e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[r, Operand::Const(-1)])
    } else {
        r
    };
    let both = e.opw(w, Opcode::I64And, Opcode::I32And, &[x, b]);
    let either = e.opw(w, Opcode::I64Or, Opcode::I32Or, &[x, b]);
    let lost = e.opw(w, Opcode::I64And, Opcode::I32And, &[either, xr]);
    let carry = e.opw(w, Opcode::I64Or, Opcode::I32Or, &[both, lost]);
    let cout = e.msb(carry, w);
    let (p, q) = if add { (a, b) } else { (a, a) };
    let x = e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[p, r]);
    let y = if add {
        e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[q, r])
    } else {
        e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, b])
    };
    let both = e.opw(w, Opcode::I64And, Opcode::I32And, &[x, y]);
    let of = e.msb(both, w);
    e.set(Loc::CF, cout);
    e.set(Loc::OF, of);
    e.aux_flag(a, b, r, w);
    e.result_flags(r, w);
    e.write(&d, r);
    Some(true)
}

/// `bsf`, `bsr`, `tzcnt`, `lzcnt`, `popcnt` on 32 or 64 bits. `bsf`/`bsr`
/// of 0 set `ZF` and leave the destination's value (a 32-bit one is
/// still zero-extended); `tzcnt`/`lzcnt` give the width and set `CF`.
fn count_bits(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    if !matches!(w, W::B32 | W::B64) {
        return None;
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&s, w);
    let zero = e.opw(w, Opcode::I64Eqz, Opcode::I32Eqz, &[a]);
    let (ctz, clz, pop) = if w.is64() {
        (Opcode::I64Ctz, Opcode::I64Clz, Opcode::I64Popcnt)
    } else {
        (Opcode::I32Ctz, Opcode::I32Clz, Opcode::I32Popcnt)
    };
    let undef_rest = |e: &mut Emitter<'_>, locs: &[Loc]| {
        for &l in locs {
            e.set(l, Operand::Undef);
        }
    };
    match m {
        Mnemonic::Bsf | Mnemonic::Bsr => {
            let n = if m == Mnemonic::Bsf {
                e.op(ctz, &[a])
            } else {
                let z = e.op(clz, &[a]);
                e.opw(
                    w,
                    Opcode::I64Sub,
                    Opcode::I32Sub,
                    &[Operand::Const(w.bits() as i64 - 1), z],
                )
            };
            let old = e.read(&d, w);
            let nonzero = e.op(Opcode::I32Eqz, &[zero]);
            let r = e.tmp(if w.is64() { Type::I64 } else { Type::I32 });
            e.emit_into(Some(r), Opcode::Select, &[], &[n, old, nonzero]);
            e.set(Loc::ZF, zero);
            undef_rest(e, &[Loc::CF, Loc::OF, Loc::SF, Loc::AF, Loc::PF]);
            e.write(&d, Operand::Var(r));
        }
        Mnemonic::Popcnt => {
            let r = e.op(pop, &[a]);
            e.set(Loc::ZF, zero);
            for l in [Loc::CF, Loc::OF, Loc::SF, Loc::AF, Loc::PF] {
                e.set(l, Operand::Const(0));
            }
            e.write(&d, r);
        }
        _ => {
            let r = e.op(if m == Mnemonic::Tzcnt { ctz } else { clz }, &[a]);
            e.set(Loc::CF, zero);
            e.set_op(
                Loc::ZF,
                if w.is64() {
                    Opcode::I64Eqz
                } else {
                    Opcode::I32Eqz
                },
                &[r],
            );
            undef_rest(e, &[Loc::OF, Loc::SF, Loc::AF, Loc::PF]);
            e.write(&d, r);
        }
    }
    Some(true)
}

/// `bswap` of a 32- or 64-bit register: the bytes reversed, by masks and
/// rotations (the set has no byte swap).
fn bswap(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d] = places::<1>(ins)?;
    let w = width(&d)?;
    if !matches!(w, W::B32 | W::B64) {
        return None;
    }
    let d = e.resolve(d, w);
    let a = e.read(&d, w);
    let r = if w.is64() {
        // Swap the halves, then the 16-bit pairs, then the bytes.
        let mut x = e.op(Opcode::I64Rotl, &[a, Operand::Const(32)]);
        for (mask, k) in [
            (0xffff_0000_ffff_0000u64 as i64, 16),
            (0xff00_ff00_ff00_ff00u64 as i64, 8),
        ] {
            let hi = e.op(Opcode::I64And, &[x, Operand::Const(mask)]);
            let hi = e.op(Opcode::I64ShrU, &[hi, Operand::Const(k)]);
            let lo = e.op(Opcode::I64Shl, &[x, Operand::Const(k)]);
            let lo = e.op(Opcode::I64And, &[lo, Operand::Const(mask)]);
            x = e.op(Opcode::I64Or, &[hi, lo]);
        }
        x
    } else {
        let hi = e.op(
            Opcode::I32And,
            &[a, Operand::Const(0xff00_ff00u32 as i32 as i64)],
        );
        let hi = e.op(Opcode::I32Rotr, &[hi, Operand::Const(8)]);
        let lo = e.op(Opcode::I32And, &[a, Operand::Const(0x00ff_00ff)]);
        let lo = e.op(Opcode::I32Rotl, &[lo, Operand::Const(8)]);
        // Bytes swapped within each half; then the halves.
        let x = e.op(Opcode::I32Or, &[hi, lo]);
        e.op(Opcode::I32Rotl, &[x, Operand::Const(16)])
    };
    e.write(&d, r);
    Some(true)
}

/// `bt`/`bts`/`btr`/`btc` of a register (bit index from a register or an
/// immediate, masked to the width) or of memory by an immediate: `CF` the
/// bit, then set, cleared or flipped; `OF`, `SF`, `AF`, `PF` undefined,
/// `ZF` kept.
fn bit_test(e: &mut Emitter<'_>, ins: &Instruction, m: Mnemonic) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    if !matches!(w, W::B32 | W::B64) || matches!((d, s), (Place::Mem { .. }, Place::Reg { .. })) {
        return None;
    }
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let k = e.read(&s, w);
    let k = e.opw(
        w,
        Opcode::I64And,
        Opcode::I32And,
        &[k, Operand::Const(w.bits() as i64 - 1)],
    );
    let t = e.opw(w, Opcode::I64ShrU, Opcode::I32ShrU, &[a, k]);
    let cf = e.bit(t, 0, w);
    let one = e.opw(w, Opcode::I64Shl, Opcode::I32Shl, &[Operand::Const(1), k]);
    let r = match m {
        Mnemonic::Bts => Some(e.opw(w, Opcode::I64Or, Opcode::I32Or, &[a, one])),
        Mnemonic::Btc => Some(e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, one])),
        Mnemonic::Btr => {
            let not = e.opw(
                w,
                Opcode::I64Xor,
                Opcode::I32Xor,
                &[one, Operand::Const(-1)],
            );
            Some(e.opw(w, Opcode::I64And, Opcode::I32And, &[a, not]))
        }
        _ => None,
    };
    e.set(Loc::CF, cf);
    for l in [Loc::OF, Loc::SF, Loc::AF, Loc::PF] {
        e.set(l, Operand::Undef);
    }
    if let Some(r) = r {
        e.write(&d, r);
    }
    Some(true)
}

/// `mul`/`imul` of one operand: the accumulator times it, the double-width
/// product in `dx:ax`-`rdx:rax` (`ax` for 8 bits); `CF = OF` = the high
/// half is not the extension of the low one; the other flags undefined.
fn widening_mul(e: &mut Emitter<'_>, ins: &Instruction, signed: bool) -> Option<bool> {
    let [s] = places::<1>(ins)?;
    let w = width(&s)?;
    let s = e.resolve(s, w);
    let acc = |w| Opnd::Reg {
        loc: Loc::RAX,
        w,
        high: false,
    };
    let dx = |w| Opnd::Reg {
        loc: Loc::RDX,
        w,
        high: false,
    };
    let a = e.read(&acc(w), w);
    let b = e.read(&s, w);
    let over = match w {
        W::B64 => {
            let lo = e.op(Opcode::I64Mul, &[a, b]);
            let hi = mul_high(e, a, b, signed);
            let ext = if signed {
                e.op(Opcode::I64ShrS, &[lo, Operand::Const(63)])
            } else {
                Operand::Const(0)
            };
            let over = e.op(Opcode::I64Ne, &[hi, ext]);
            e.write(&acc(W::B64), lo);
            e.write(&dx(W::B64), hi);
            over
        }
        W::B32 => {
            let ext = if signed {
                Opcode::I64ExtendI32S
            } else {
                Opcode::I64ExtendI32U
            };
            let a = e.op(ext, &[a]);
            let b = e.op(ext, &[b]);
            let p = e.op(Opcode::I64Mul, &[a, b]);
            let lo = e.op(Opcode::I32WrapI64, &[p]);
            let hi = e.op(Opcode::I64ShrU, &[p, Operand::Const(32)]);
            let hi = e.op(Opcode::I32WrapI64, &[hi]);
            let back = e.op(ext, &[lo]);
            let over = e.op(Opcode::I64Ne, &[p, back]);
            e.write(&acc(W::B32), lo);
            e.write(&dx(W::B32), hi);
            over
        }
        W::B16 | W::B8 => {
            let (a, b) = if signed {
                (e.sext(a, w, W::B32), e.sext(b, w, W::B32))
            } else {
                (a, b)
            };
            let p = e.op(Opcode::I32Mul, &[a, b]);
            let lo = e.trunc(p, w);
            let back = if signed { e.sext(lo, w, W::B32) } else { lo };
            let over = e.op(Opcode::I32Ne, &[p, back]);
            if w == W::B8 {
                let ax = e.trunc(p, W::B16);
                e.write(&acc(W::B16), ax);
            } else {
                let hi = e.op(Opcode::I32ShrU, &[p, Operand::Const(16)]);
                let hi = e.trunc(hi, W::B16);
                e.write(&acc(W::B16), lo);
                e.write(&dx(W::B16), hi);
            }
            over
        }
    };
    e.set(Loc::CF, over);
    e.set(Loc::OF, over);
    for l in [Loc::SF, Loc::ZF, Loc::AF, Loc::PF] {
        e.set(l, Operand::Undef);
    }
    Some(true)
}

/// `leave`: `rsp = rbp`, then `pop rbp`.
fn leave(e: &mut Emitter<'_>) -> Option<bool> {
    let (rsp, rbp) = (e.vars[Loc::RSP], e.vars[Loc::RBP]);
    e.copy(rsp, Operand::Var(rbp));
    e.emit_into(Some(rbp), Opcode::I64Load, &[0, 0, 0], &[Operand::Var(rsp)]);
    e.emit_into(
        Some(rsp),
        Opcode::I64Add,
        &[],
        &[Operand::Var(rsp), Operand::Const(8)],
    );
    Some(true)
}

/// `cmpxchg dst, src` (single-threaded): the flags of `acc - dst`; if
/// equal `dst = src`, else the accumulator gets `dst` (the destination is
/// written back either way).
fn cmpxchg(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let acc = Opnd::Reg {
        loc: Loc::RAX,
        w,
        high: false,
    };
    let a = e.read(&acc, w);
    let old = e.read(&d, w);
    let src = e.read(&s, w);
    let r = e.opw(w, Opcode::I64Sub, Opcode::I32Sub, &[a, old]);
    let r = e.trunc(r, w);
    e.sub_flags(a, old, r, w, false);
    let ty = if w.is64() { Type::I64 } else { Type::I32 };
    let new = e.tmp(ty);
    let zf = e.var(Loc::ZF);
    e.emit_into(Some(new), Opcode::Select, &[], &[src, old, zf]);
    let old = if let Opnd::Reg { .. } = d {
        // The accumulator may be the destination: keep its old value.
        let t = e.tmp(ty);
        e.copy(t, old);
        Operand::Var(t)
    } else {
        old
    };
    e.write(&d, Operand::Var(new));
    if w == W::B32 {
        // The accumulator is written only when the values differ.
        let wide = e.op(Opcode::I64ExtendI32U, &[old]);
        let rax = e.vars[Loc::RAX];
        e.emit_into(
            Some(rax),
            Opcode::Select,
            &[],
            &[Operand::Var(rax), wide, zf],
        );
    } else {
        let cur = e.read(&acc, w);
        let t = e.tmp(ty);
        e.emit_into(Some(t), Opcode::Select, &[], &[cur, old, zf]);
        e.write(&acc, Operand::Var(t));
    }
    Some(true)
}

/// `xadd dst, src` (single-threaded): `dst = dst + src`, `src = old dst`,
/// the flags of the addition.
fn xadd(e: &mut Emitter<'_>, ins: &Instruction) -> Option<bool> {
    let [d, s] = places::<2>(ins)?;
    let w = width(&d)?;
    let (d, s) = (e.resolve(d, w), e.resolve(s, w));
    let a = e.read(&d, w);
    let b = e.read(&s, w);
    let a = if let (Operand::Var(_), true) = (a, w.is64()) {
        let t = e.tmp(Type::I64);
        e.copy(t, a);
        Operand::Var(t)
    } else {
        a
    };
    let r = e.opw(w, Opcode::I64Add, Opcode::I32Add, &[a, b]);
    let r = e.trunc(r, w);
    e.add_flags(a, b, r, w, false);
    if let Opnd::Mem { .. } = d {
        // Stored first: the source may be a register of its address.
        e.write(&d, r);
        e.write(&s, a);
    } else {
        e.write(&s, a);
        e.write(&d, r);
    }
    Some(true)
}
