//! The emitter: reads and writes of operands at their widths, the
//! flags as operations of operands and results, the conditions; what
//! every family of [the table](super) is written with.
//!
//! # Flags left out
//!
//! The lifter may say, before an instruction is emitted, which flags are
//! *dead* after it ([`Emitter::leave_out`]): overwritten later in the
//! block before any read, or not live out of the block (as
//! [`flag_report`](super::flag_report) finds them), so that [`drop_dead_flags`](super::drop_dead_flags)
//! would remove their definitions and the arithmetic only those read. The
//! emitter then leaves them out at once: a definition of a dead flag
//! ([`Emitter::set`], [`Emitter::set_op`]) and the operations computing a
//! value only it reads (the chains of `OF`, `AF`, `SF` and `PF` in
//! [`Emitter::arith_flags`] and [`Emitter::result_flags`]) are not
//! emitted (also the bits of `CF` and `OF` of the shifts, rotates, bit
//! tests and multiplications, [`Emitter::for_flags`]), but still take
//! their temporaries and declare their operators
//! as if they were (*ghost* emission), so that every variable, name and
//! operator is created in the same order as when everything is emitted
//! and the step drops it afterwards. A chain whose operations depend on
//! the width alone ([`Emitter::for_chain`]: `SF`, `PF`, `AF`, `OF`), once
//! walked in the function, is not walked again when ghost: its
//! temporaries are taken by count when the pools already hold them, so
//! that nothing is created either way. Only instructions that read no flag
//! are given dead flags (a flag the instruction itself reads after
//! defining it, as `cmpxchg` reads `ZF`, is never left out); the test
//! `leaving_out_is_dropping` checks, instruction by instruction and dead
//! set by dead set, that what is left out is what the step drops.

use super::operand::{MemRef, Opnd, Place, Seg, W};
use crate::regs::{Loc, LocMap, LocSet};
use iced_x86::ConditionCode;
use ssakit::ir::{FunctionBuilder, InstData, Opcode, Operand, Operator, Type, Var};

/// The state the semantics keep across one function's instructions: the
/// operators declared and the pools of temporaries.
#[derive(Default)]
pub(crate) struct Cache {
    /// The operator of each opcode declared so far, by the opcode's
    /// position in [`Opcode::ALL`] (empty until the first).
    ops: Vec<Option<Operator>>,
    q: Vec<Var>,
    d: Vec<Var>,
    /// The parameters `fs_base` and `gs_base`, declared on first use.
    seg_bases: [Option<Var>; 2],
    /// Flag definitions left out so far (not emitted because their flag
    /// was dead; the step would have dropped each).
    pub(crate) left_out: usize,
    /// Per [`Chain`] and width (`W as usize`), once the chain has run in
    /// this function: how many `q` and `d` temporaries it takes (its
    /// operators are then declared). See [`Emitter::for_chain`].
    chains: [[Option<(u8, u8)>; 4]; Chain::COUNT],
}

/// A chain of flag arithmetic of [`Emitter::result_flags`] and
/// [`Emitter::arith_flags`]: the value only one flag's definition reads,
/// whose operations (and so temporaries and operators) depend on the
/// width alone, not on the operands.
#[derive(Clone, Copy)]
enum Chain {
    /// `SF`: the sign bit of the result.
    Sign,
    /// `PF`: the low byte's parity.
    Parity,
    /// `AF`: bit 4 of `a ^ b ^ r`.
    Aux,
    /// `OF` of an addition or subtraction.
    Overflow,
}

impl Chain {
    const COUNT: usize = 4;
}

impl Cache {
    /// The temporaries declared so far, `q...` then `d...`.
    pub(crate) fn temps(&self) -> impl Iterator<Item = Var> + '_ {
        self.q.iter().chain(&self.d).copied()
    }

    /// A cache for a function's instructions: room for as many
    /// temporaries of each pool as [`Q_NAMES`] names, so that the pools
    /// seldom grow.
    pub(crate) fn for_function() -> Cache {
        Cache {
            q: Vec::with_capacity(Q_NAMES.len()),
            d: Vec::with_capacity(D_NAMES.len()),
            ..Cache::default()
        }
    }

    /// Forgets what [`Emitter::for_chain`] knows of the chains, so that
    /// the next of each is walked (the test of the shortcut).
    #[cfg(test)]
    pub(crate) fn forget_chains(&mut self) {
        self.chains = Default::default();
    }

    /// A cache whose segment bases are the parameters `fs` and `gs`
    /// already declared.
    pub(crate) fn with_segment_bases(fs: Var, gs: Var) -> Cache {
        Cache {
            seg_bases: [Some(fs), Some(gs)],
            ..Cache::default()
        }
    }
}

/// The names of the first temporaries of each pool (the rest are
/// formatted when first taken).
const Q_NAMES: [&str; 32] = [
    "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14",
    "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22", "q23", "q24", "q25", "q26", "q27",
    "q28", "q29", "q30", "q31",
];
const D_NAMES: [&str; 32] = [
    "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14",
    "d15", "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23", "d24", "d25", "d26", "d27",
    "d28", "d29", "d30", "d31",
];

/// What one instruction's semantics are emitted with.
pub(crate) struct Emitter<'a> {
    pub(crate) b: &'a mut FunctionBuilder,
    pub(crate) vars: &'a LocMap<Var>,
    pub(crate) cache: &'a mut Cache,
    nq: usize,
    nd: usize,
    /// The flags dead after this instruction, whose definitions are left
    /// out (empty unless [`Emitter::leave_out`] said otherwise).
    dead: LocSet,
    /// Whether operations are being ghost-emitted: temporaries taken and
    /// operators declared, nothing added to the block.
    ghost: bool,
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
            dead: LocSet::EMPTY,
            ghost: false,
        }
    }

    /// Leaves out the definitions of the flags in `dead` (flags only; the
    /// caller guarantees that the instruction reads no flag and that each
    /// is redefined before any read after it: the module's "Flags left
    /// out").
    pub(crate) fn leave_out(mut self, dead: LocSet) -> Self {
        self.dead = dead.intersection(LocSet::FLAGS);
        self
    }

    /// Runs `f`, which computes a value only the definition of `flag`
    /// reads, as ghost emission when `flag` is dead.
    pub(super) fn for_flag<R>(&mut self, flag: Loc, f: impl FnOnce(&mut Self) -> R) -> R {
        self.for_flags(LocSet::of(&[flag]), f)
    }

    /// Runs `f`, which computes a value only the definitions of `flags`
    /// read, as ghost emission when every one of them is dead.
    pub(super) fn for_flags<R>(&mut self, flags: LocSet, f: impl FnOnce(&mut Self) -> R) -> R {
        if !flags.difference(self.dead).is_empty() {
            return f(self);
        }
        let ghost = std::mem::replace(&mut self.ghost, true);
        let r = f(self);
        self.ghost = ghost;
        r
    }

    /// [`for_flag`](Self::for_flag) for `chain` at width `w`, which
    /// computes the value only the definition of `flag` reads. Ghost
    /// emission of a chain that has already run in this function (its
    /// operators declared, its temporaries counted) only takes its
    /// temporaries, when the pools already hold them: then no variable
    /// or operator is created, as when the chain is walked, and the value
    /// (read only by the ghost definition of `flag`) is `undef`.
    fn for_chain(
        &mut self,
        flag: Loc,
        chain: Chain,
        w: W,
        f: impl FnOnce(&mut Self) -> Operand,
    ) -> Operand {
        let known = &mut self.cache.chains[chain as usize][w as usize];
        if let (true, Some((q, d))) = (self.ghost || self.dead.contains(flag), *known) {
            let (nq, nd) = (self.nq + usize::from(q), self.nd + usize::from(d));
            if nq <= self.cache.q.len() && nd <= self.cache.d.len() {
                (self.nq, self.nd) = (nq, nd);
                return Operand::Undef;
            }
        }
        let (q0, d0) = (self.nq, self.nd);
        let v = self.for_flag(flag, f);
        let taken = ((self.nq - q0) as u8, (self.nd - d0) as u8);
        self.cache.chains[chain as usize][w as usize] = Some(taken);
        v
    }

    pub(super) fn var(&self, l: Loc) -> Operand {
        Operand::Var(self.vars[l])
    }

    /// A fresh temporary of this instruction: `q0, q1, ...` (`i64`) or
    /// `d0, d1, ...` (`i32`).
    pub(super) fn tmp(&mut self, ty: Type) -> Var {
        let wide = matches!(ty, Type::I64);
        let (pool, n) = if wide {
            (&self.cache.q, &mut self.nq)
        } else {
            (&self.cache.d, &mut self.nd)
        };
        match pool.get(*n) {
            Some(&v) => {
                *n += 1;
                v
            }
            None => self.new_tmp(wide),
        }
    }

    /// [`tmp`](Self::tmp) past the end of its pool: the pool's next
    /// temporary declared (out of line: most functions' pools are full
    /// after their first instructions).
    #[cold]
    #[inline(never)]
    fn new_tmp(&mut self, wide: bool) -> Var {
        let (pool, n) = if wide {
            (&mut self.cache.q, &mut self.nq)
        } else {
            (&mut self.cache.d, &mut self.nd)
        };
        let ty = if wide { Type::I64 } else { Type::I32 };
        let names = if wide { &Q_NAMES } else { &D_NAMES };
        let v = match names.get(*n) {
            Some(name) => self.b.typed_var(name, ty),
            None => {
                let name = format!("{}{}", if wide { "q" } else { "d" }, *n);
                self.b.typed_var(&name, ty)
            }
        };
        pool.push(v);
        *n += 1;
        v
    }

    pub(super) fn operator(&mut self, code: Opcode) -> Operator {
        let k = code as usize;
        if let Some(Some(op)) = self.cache.ops.get(k) {
            return *op;
        }
        let op = self
            .b
            .func_mut()
            .operator(code.name(), code.effects())
            .expect("the set's names are declared with the set's effects");
        if self.cache.ops.is_empty() {
            self.cache.ops = vec![None; Opcode::ALL.len()];
        }
        self.cache.ops[k] = Some(op);
        op
    }

    /// `dst = code[imms](args)` (no result for a store).
    pub(super) fn emit_into(
        &mut self,
        dst: Option<Var>,
        code: Opcode,
        imms: &[i64],
        args: &[Operand],
    ) {
        let op = self.operator(code);
        if self.ghost {
            return;
        }
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
    pub(super) fn op(&mut self, code: Opcode, args: &[Operand]) -> Operand {
        let ty = match code.result() {
            Some(ssakit::ir::Slot::Is(t)) => t,
            _ => Type::I64,
        };
        let t = self.tmp(ty);
        self.emit_into(Some(t), code, &[], args);
        Operand::Var(t)
    }

    /// `code(args)` at width `w`: `c64` for 64 bits, else `c32`.
    pub(super) fn opw(&mut self, w: W, c64: Opcode, c32: Opcode, args: &[Operand]) -> Operand {
        self.op(if w.is64() { c64 } else { c32 }, args)
    }

    pub(super) fn copy(&mut self, dst: Var, src: Operand) {
        if !self.ghost {
            self.b.copy(dst, src);
        }
    }

    /// Defines `flag` as `v` (left out when `flag` is dead).
    pub(super) fn set(&mut self, flag: Loc, v: Operand) {
        let dst = self.vars[flag];
        self.for_flag(flag, |e| {
            e.note_left_out();
            e.copy(dst, v)
        });
    }

    /// Defines `flag` as `code(args)` directly (left out when `flag` is
    /// dead).
    pub(super) fn set_op(&mut self, flag: Loc, code: Opcode, args: &[Operand]) {
        let dst = self.vars[flag];
        self.for_flag(flag, |e| {
            e.note_left_out();
            e.emit_into(Some(dst), code, &[], args)
        });
    }

    /// Counts a flag definition being ghost-emitted.
    fn note_left_out(&mut self) {
        if self.ghost {
            self.cache.left_out += 1;
        }
    }

    // ---- addresses, reads and writes -------------------------------------

    /// The variable of segment `s`'s base: a parameter of the function,
    /// declared the first time an instruction uses the segment.
    fn segment_base(&mut self, s: Seg) -> Var {
        let k = s as usize;
        if let Some(v) = self.cache.seg_bases[k] {
            return v;
        }
        let v = self.b.typed_param(s.base_name(), Type::I64);
        self.cache.seg_bases[k] = Some(v);
        v
    }

    /// `seg_base + base + index * scale + disp` as `i64` operations.
    pub(super) fn address(&mut self, m: &MemRef) -> Operand {
        let mut acc: Option<Operand> = m.base.map(|b| self.var(b));
        if let Some(s) = m.seg {
            let sb = Operand::Var(self.segment_base(s));
            acc = Some(match acc {
                Some(a) => self.op(Opcode::I64Add, &[sb, a]),
                None => sb,
            });
        }
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
    pub(super) fn resolve(&mut self, p: Place, w: W) -> Opnd {
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
    pub(super) fn read(&mut self, o: &Opnd, w: W) -> Operand {
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
    pub(super) fn write(&mut self, o: &Opnd, v: Operand) {
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
    pub(super) fn trunc(&mut self, v: Operand, w: W) -> Operand {
        match w {
            W::B8 | W::B16 => self.op(Opcode::I32And, &[v, Operand::Const(w.mask())]),
            _ => v,
        }
    }

    /// `v` at width `from` zero-extended to width `to`.
    pub(super) fn zext(&mut self, v: Operand, from: W, to: W) -> Operand {
        match (from.is64(), to.is64()) {
            (false, true) => self.op(Opcode::I64ExtendI32U, &[v]),
            _ => v,
        }
    }

    /// `v` at width `from` sign-extended to width `to`.
    pub(super) fn sext(&mut self, v: Operand, from: W, to: W) -> Operand {
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
    pub(super) fn msb(&mut self, x: Operand, w: W) -> Operand {
        match w {
            W::B64 => self.op(Opcode::I64LtS, &[x, Operand::Const(0)]),
            W::B32 => self.op(Opcode::I32LtS, &[x, Operand::Const(0)]),
            _ => self.bit(x, w.bits() - 1, w),
        }
    }

    /// Bit `k` of `x` at width `w`, an `i32` 0 or 1.
    pub(super) fn bit(&mut self, x: Operand, k: u32, w: W) -> Operand {
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
    pub(super) fn result_flags(&mut self, r: Operand, w: W) {
        let s = self.for_chain(Loc::SF, Chain::Sign, w, |e| e.msb(r, w));
        self.set(Loc::SF, s);
        if w.is64() {
            self.set_op(Loc::ZF, Opcode::I64Eqz, &[r]);
        } else {
            self.set_op(Loc::ZF, Opcode::I32Eqz, &[r]);
        }
        let odd = self.for_chain(Loc::PF, Chain::Parity, w, |e| e.low_byte_odd(r, w));
        self.set_op(Loc::PF, Opcode::I32Eqz, &[odd]);
    }

    /// Whether the low byte of `r` has an odd number of ones (`PF` is
    /// its negation).
    fn low_byte_odd(&mut self, r: Operand, w: W) -> Operand {
        let lo = if w.is64() {
            self.op(Opcode::I32WrapI64, &[r])
        } else {
            r
        };
        let byte = self.op(Opcode::I32And, &[lo, Operand::Const(0xff)]);
        let ones = self.op(Opcode::I32Popcnt, &[byte]);
        self.op(Opcode::I32And, &[ones, Operand::Const(1)])
    }

    /// `SF`, `ZF` and `PF` of result `r` into temporaries.
    pub(super) fn result_flag_values(&mut self, r: Operand, w: W) -> [Operand; 3] {
        let sf = self.msb(r, w);
        let zf = self.opw(w, Opcode::I64Eqz, Opcode::I32Eqz, &[r]);
        let odd = self.low_byte_odd(r, w);
        let pf = self.op(Opcode::I32Eqz, &[odd]);
        [sf, zf, pf]
    }

    /// `flag = select(v, flag, keep == 0)`: the new value where `nz` is
    /// not zero, else the old one.
    pub(super) fn set_if(&mut self, flag: Loc, v: Operand, nz: Operand) {
        let old = self.var(flag);
        self.set_op(flag, Opcode::Select, &[v, old, nz]);
    }

    /// `AF`: bit 4 of `a ^ b ^ r`.
    pub(super) fn aux_flag(&mut self, a: Operand, b: Operand, r: Operand, w: W) {
        let af = self.for_chain(Loc::AF, Chain::Aux, w, |e| {
            let x = e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[a, b]);
            let x = e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &[x, r]);
            e.bit(x, 4, w)
        });
        self.set(Loc::AF, af);
    }

    /// The flags of `r = a + b` (`CF` unless `keep_cf`): a carry out is
    /// `r <u a`; an overflow, operands of one sign giving the other.
    pub(super) fn add_flags(&mut self, a: Operand, b: Operand, r: Operand, w: W, keep_cf: bool) {
        let carry = (!keep_cf).then_some([r, a]);
        self.arith_flags(a, b, r, w, carry, [[a, r], [b, r]]);
    }

    /// The flags of `r = a - b` (`CF` unless `keep_cf`): a borrow is
    /// `a <u b`; an overflow, operands of different signs and `r` of `b`'s.
    pub(super) fn sub_flags(&mut self, a: Operand, b: Operand, r: Operand, w: W, keep_cf: bool) {
        let carry = (!keep_cf).then_some([a, b]);
        self.arith_flags(a, b, r, w, carry, [[a, b], [a, r]]);
    }

    /// The flags of an addition or subtraction `r` of `a` and `b`: `CF`
    /// is `carry[0] <u carry[1]` (left alone for `None`), `OF` the sign of
    /// `(x0 ^ x1) & (y0 ^ y1)` for `over = [[x0, x1], [y0, y1]]`, then `AF`,
    /// `ZF`, `SF`, `PF`.
    fn arith_flags(
        &mut self,
        a: Operand,
        b: Operand,
        r: Operand,
        w: W,
        carry: Option<[Operand; 2]>,
        over: [[Operand; 2]; 2],
    ) {
        if let Some(lt) = carry {
            let op = match w.is64() {
                true => Opcode::I64LtU,
                false => Opcode::I32LtU,
            };
            self.set_op(Loc::CF, op, &lt);
        }
        let of = self.for_chain(Loc::OF, Chain::Overflow, w, |e| {
            let x = e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &over[0]);
            let y = e.opw(w, Opcode::I64Xor, Opcode::I32Xor, &over[1]);
            let both = e.opw(w, Opcode::I64And, Opcode::I32And, &[x, y]);
            e.msb(both, w)
        });
        self.set(Loc::OF, of);
        self.aux_flag(a, b, r, w);
        self.result_flags(r, w);
    }

    /// The flags of a logic operation's result `r`.
    pub(super) fn logic_flags(&mut self, r: Operand, w: W) {
        self.set(Loc::CF, Operand::Const(0));
        self.set(Loc::OF, Operand::Const(0));
        self.set(Loc::AF, Operand::Undef);
        self.result_flags(r, w);
    }

    /// Condition `cc` of the flags, an `i32` 0 or 1.
    pub(super) fn condition(&mut self, cc: ConditionCode) -> Option<Operand> {
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
