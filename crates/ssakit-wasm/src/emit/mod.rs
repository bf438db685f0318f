//! ssakit's IR back into WebAssembly (section 13.8, part 2): one
//! destructed function → one function body.
//!
//! # API
//!
//! [`emit_function`]`(f, &lowering)` takes a **destructed** function (no
//! phis; parallel copies are allowed and are sequentialised through the
//! operand stack) and a [`Lowering`] saying how the function's names map
//! to the module being built: callee → function index, function index →
//! type, type → signature, global → type, and `print` of each arity → an
//! imported function index. It does not need a wasm module as input: the
//! `ssakit wasm opt` round trip ([`crate::rewrite`]) fills the lowering
//! from the input module, `emit-wasm` from an `.ssa` program. It returns
//! an [`EmittedFunction`], a `wasm_encoder::Function` ready for a
//! `CodeSection`.
//!
//! # What is emitted
//!
//! * **Operations** of [`crate::operators`] become their operator again
//!   ([`lower`]); `select` is typed when its result is a reference;
//!   `call_indirect`'s last operand is the table index.
//! * **ssakit's built-ins** are `i64` arithmetic: `+ - * / % & | ^ << >>`
//!   are `i64.add ... i64.shr_s` (so `/` traps on `i64::MIN / -1` where
//!   `ssakit run` wraps), comparisons `i64.eq ... i64.ge_s` extended to
//!   `i64` when their destination is `i64` (a `bool` destination is an
//!   `i32`), `-x` is `0 - x`, `!x` is `i64.eqz`; `print a, b` calls the
//!   lowering's import for that arity with `i64` arguments. An `i32` (or
//!   `bool`) operand where an `i64` is wanted is zero-extended; a branch
//!   condition or `switch` selector of type `i64` is tested against zero
//!   (condition) or wrapped (selector: values past 2^32 are the caller's
//!   to avoid).
//! * **Literals** take the type their position wants ([`lower`] keeps
//!   which operands of each operator are `i64`); `undef` is a zero of that
//!   type; a copy of `undef` emits nothing.
//! * **Control flow** ([`structure`]): Ramsey's structured translation of
//!   reducible CFGs; an irreducible CFG is an error.
//! * **Variables** ([`locals`]): parameters keep their indices; every
//!   other variable gets a local, variables of one type whose live ranges
//!   do not overlap sharing one.
//!
//! ```
//! use ssakit::ir::Type;
//! let f = ssakit::text::parse_module("function f(a, b) {\nentry:\n  c = a + b\n  ret c\n}\n")
//!     .unwrap()
//!     .functions
//!     .remove(0);
//! let ops = ssakit_wasm::emit::lower::OpTable::new(f.symbols());
//! let sig = ssakit_wasm::module::Signature { params: vec![Type::I64; 2], results: vec![Type::I64] };
//! let types = [Some(sig)];
//! let low = ssakit_wasm::emit::Lowering {
//!     ops: &ops, callees: &[], func_types: &[0], types: &types, globals: &[], print: &[],
//! };
//! let e = ssakit_wasm::emit::emit_function(&f, &low).unwrap();
//! assert_eq!(e.locals, 0);
//! ```

pub mod locals;
pub mod lower;
pub mod structure;

use crate::error::WasmError;
use crate::module::Signature;
use lower::{Lowered, OpTable};
use ssakit::ir::{BinOp, Function, InstData, Operand, Terminator, Type, UnOp, Var};
use structure::Ctl;
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{BlockType, Instruction as I, ValType};

/// How a function's names map to the module being built.
#[derive(Clone, Copy, Debug)]
pub struct Lowering<'a> {
    /// How each operator of the function's symbol table is emitted
    /// ([`OpTable::new`] once per symbol table).
    pub ops: &'a OpTable,
    /// The function index of each callee of the symbol table, by
    /// [`Callee`](ssakit::ir::Callee) index (`None`: not callable).
    pub callees: &'a [Option<u32>],
    /// The type index of each function index.
    pub func_types: &'a [u32],
    /// The signature of each type index (`None`: not a function type).
    pub types: &'a [Option<Signature>],
    /// The type of each global index.
    pub globals: &'a [Type],
    /// The function index `print` with `k` arguments calls, by `k`
    /// (arguments `i64`, no result).
    pub print: &'a [Option<u32>],
}

/// One emitted function body.
#[derive(Clone, Debug)]
pub struct EmittedFunction {
    /// The body, for a `wasm_encoder::CodeSection`.
    pub func: wasm_encoder::Function,
    /// Declared locals (parameters not counted).
    pub locals: usize,
}

/// The WebAssembly value type of `t` (`bool` is an `i32`).
pub fn val_type(t: Type) -> ValType {
    match t {
        Type::I32 | Type::Bool => ValType::I32,
        Type::I64 => ValType::I64,
        Type::F32 => ValType::F32,
        Type::F64 => ValType::F64,
        Type::V128 => ValType::V128,
        Type::FuncRef => ValType::FUNCREF,
        Type::ExternRef => ValType::EXTERNREF,
    }
}

fn err(f: &Function, msg: impl std::fmt::Display) -> WasmError {
    WasmError::new(format!("emitting `{}`: {msg}", f.name()))
}

struct Emitter<'f, 'a> {
    f: &'f Function,
    low: &'a Lowering<'a>,
    local: Vec<u32>,
    out: wasm_encoder::Function,
    re: RoundtripReencoder,
}

impl Emitter<'_, '_> {
    fn ins(&mut self, i: I<'_>) {
        self.out.instruction(&i);
    }

    fn zero(&mut self, want: ValType) {
        match want {
            ValType::I32 => self.ins(I::I32Const(0)),
            ValType::I64 => self.ins(I::I64Const(0)),
            ValType::F32 => self.ins(I::F32Const(0.0.into())),
            ValType::F64 => self.ins(I::F64Const(0.0.into())),
            ValType::V128 => self.ins(I::V128Const(0)),
            ValType::Ref(r) => self.ins(I::RefNull(r.heap_type)),
        }
    }

    /// Pushes `o` as a value of type `want`.
    fn push(&mut self, o: Operand, want: ValType) {
        match o {
            Operand::Var(v) => {
                self.ins(I::LocalGet(self.local[v.index()]));
                let have = val_type(self.f.var_type(v));
                match (have, want) {
                    (ValType::I32, ValType::I64) => self.ins(I::I64ExtendI32U),
                    (ValType::I64, ValType::I32) => self.ins(I::I32WrapI64),
                    _ => {}
                }
            }
            Operand::Const(c) => match want {
                ValType::I32 => self.ins(I::I32Const(c as i32)),
                ValType::I64 => self.ins(I::I64Const(c)),
                ValType::F32 => self.ins(I::F32Const(f32::from_bits(c as u32).into())),
                ValType::F64 => self.ins(I::F64Const(f64::from_bits(c as u64).into())),
                ValType::V128 => self.ins(I::V128Const(c as i128)),
                ValType::Ref(_) => self.zero(want),
            },
            Operand::Undef => self.zero(want),
        }
    }

    /// Pushes a branch condition as an `i32` truth value.
    fn push_cond(&mut self, o: Operand) {
        match o {
            Operand::Var(v) if val_type(self.f.var_type(v)) == ValType::I64 => {
                self.ins(I::LocalGet(self.local[v.index()]));
                self.ins(I::I64Eqz);
                self.ins(I::I32Eqz);
            }
            Operand::Const(c) => self.ins(I::I32Const((c != 0) as i32)),
            _ => self.push(o, ValType::I32),
        }
    }

    fn set(&mut self, v: Var) {
        self.ins(I::LocalSet(self.local[v.index()]));
    }

    /// Stores the top value, of type `have`, into `v` (converting an
    /// `i32` truth value for an `i64` destination).
    fn set_from(&mut self, v: Var, have: ValType) {
        if have == ValType::I32 && val_type(self.f.var_type(v)) == ValType::I64 {
            self.ins(I::I64ExtendI32U);
        }
        self.set(v);
    }

    fn sig(&self, type_index: u32) -> Result<&Signature, WasmError> {
        self.low
            .types
            .get(type_index as usize)
            .and_then(|s| s.as_ref())
            .ok_or_else(|| err(self.f, format!("type {type_index} is not a function type")))
    }

    /// Pushes `args` typed by `params`, calls, stores the results.
    fn push_args(&mut self, args: &[Operand], params: &[Type]) {
        for (k, &a) in args.iter().enumerate() {
            let want = params.get(k).map_or(ValType::I64, |&t| val_type(t));
            self.push(a, want);
        }
    }

    fn results(&mut self, results: &[Var], n_results: usize) {
        if results.is_empty() {
            for _ in 0..n_results {
                self.ins(I::Drop);
            }
            return;
        }
        for &r in results.iter().rev() {
            self.set(r);
        }
    }

    fn inst(&mut self, inst: ssakit::ir::Inst) -> Result<(), WasmError> {
        let f = self.f;
        match *f.inst(inst) {
            InstData::Copy { dst, src } => {
                if src == Operand::Undef {
                    return Ok(());
                }
                if let Operand::Var(s) = src {
                    if self.local[s.index()] == self.local[dst.index()] {
                        return Ok(());
                    }
                }
                self.push(src, val_type(f.var_type(dst)));
                self.set(dst);
            }
            InstData::Unary { dst, op, arg } => match op {
                UnOp::Neg => {
                    self.ins(I::I64Const(0));
                    self.push(arg, ValType::I64);
                    self.ins(I::I64Sub);
                    self.set(dst);
                }
                UnOp::Not => {
                    self.push(arg, ValType::I64);
                    self.ins(I::I64Eqz);
                    self.set_from(dst, ValType::I32);
                }
            },
            InstData::Binary { dst, op, lhs, rhs } => {
                self.push(lhs, ValType::I64);
                self.push(rhs, ValType::I64);
                let (i, cmp) = match op {
                    BinOp::Add => (I::I64Add, false),
                    BinOp::Sub => (I::I64Sub, false),
                    BinOp::Mul => (I::I64Mul, false),
                    BinOp::Div => (I::I64DivS, false),
                    BinOp::Rem => (I::I64RemS, false),
                    BinOp::And => (I::I64And, false),
                    BinOp::Or => (I::I64Or, false),
                    BinOp::Xor => (I::I64Xor, false),
                    BinOp::Shl => (I::I64Shl, false),
                    BinOp::Shr => (I::I64ShrS, false),
                    BinOp::Eq => (I::I64Eq, true),
                    BinOp::Ne => (I::I64Ne, true),
                    BinOp::Lt => (I::I64LtS, true),
                    BinOp::Le => (I::I64LeS, true),
                    BinOp::Gt => (I::I64GtS, true),
                    BinOp::Ge => (I::I64GeS, true),
                };
                self.ins(i);
                if cmp {
                    self.set_from(dst, ValType::I32);
                } else {
                    self.set(dst);
                }
            }
            InstData::Call {
                callee,
                args,
                results,
            } => {
                let idx = self
                    .low
                    .callees
                    .get(callee.index())
                    .copied()
                    .flatten()
                    .ok_or_else(|| {
                        err(
                            f,
                            format!("no function for callee `{}`", f.callee_name(callee)),
                        )
                    })?;
                let ty = *self
                    .low
                    .func_types
                    .get(idx as usize)
                    .ok_or_else(|| err(f, format!("function {idx} out of range")))?;
                let sig = self.sig(ty)?.clone();
                self.push_args(args.as_slice(f), &sig.params);
                self.ins(I::Call(idx));
                self.results(results.as_slice(f), sig.results.len());
            }
            InstData::Print { args } => {
                let args = args.as_slice(f);
                let idx = self
                    .low
                    .print
                    .get(args.len())
                    .copied()
                    .flatten()
                    .ok_or_else(|| err(f, format!("no import for print of {}", args.len())))?;
                for &a in args {
                    self.push(a, ValType::I64);
                }
                self.ins(I::Call(idx));
            }
            InstData::Phi { .. } => return Err(err(f, "a phi is left (destruct first)")),
            InstData::ParCopy { copies } => {
                let copies = copies.as_slice(f);
                for &(d, s) in copies {
                    self.push(s, val_type(f.var_type(d)));
                }
                for &(d, _) in copies.iter().rev() {
                    self.set(d);
                }
            }
            InstData::Op {
                op,
                imms,
                args,
                results,
            } => {
                let (imms, args, results) =
                    (imms.as_slice(f), args.as_slice(f), results.as_slice(f));
                let lowered = self.low.ops.get(op).ok_or_else(|| {
                    err(
                        f,
                        format!("`{}` is not a WebAssembly operator", f.operator_name(op)),
                    )
                })?;
                match lowered {
                    Lowered::Select => {
                        let [r] = results else {
                            return Err(err(f, "select without one result"));
                        };
                        if args.len() != 3 {
                            return Err(err(f, "select without three operands"));
                        }
                        let t = val_type(f.var_type(*r));
                        self.push(args[0], t);
                        self.push(args[1], t);
                        self.push(args[2], ValType::I32);
                        match t {
                            ValType::Ref(_) => self.ins(I::TypedSelect(t)),
                            _ => self.ins(I::Select),
                        }
                        self.set(*r);
                    }
                    Lowered::CallIndirect => {
                        let (&[ty, table], Some((&index, params))) = (imms, args.split_last())
                        else {
                            return Err(err(f, "call_indirect needs [type, table] and an index"));
                        };
                        let sig = self.sig(ty as u32)?.clone();
                        self.push_args(params, &sig.params);
                        self.push(index, ValType::I32);
                        self.ins(I::CallIndirect {
                            type_index: ty as u32,
                            table_index: table as u32,
                        });
                        self.results(results, sig.results.len());
                    }
                    Lowered::GlobalSet => {
                        let (&[g], &[v]) = (imms, args) else {
                            return Err(err(f, "global.set needs [global] and one operand"));
                        };
                        let t = self
                            .low
                            .globals
                            .get(g as usize)
                            .copied()
                            .ok_or_else(|| err(f, format!("global {g} out of range")))?;
                        self.push(v, val_type(t));
                        self.ins(I::GlobalSet(g as u32));
                    }
                    Lowered::Plain { build, i64_mask } => {
                        for (k, &a) in args.iter().enumerate() {
                            let want = if k < 64 && i64_mask >> k & 1 == 1 {
                                ValType::I64
                            } else {
                                ValType::I32
                            };
                            let want = match a {
                                Operand::Var(v) => val_type(f.var_type(v)),
                                _ => want,
                            };
                            self.push(a, want);
                        }
                        let wop = build(imms).ok_or_else(|| {
                            err(f, format!("bad immediates for `{}`", f.operator_name(op)))
                        })?;
                        let i = self
                            .re
                            .instruction(wop)
                            .map_err(|e| err(f, format!("re-encoding: {e}")))?;
                        self.ins(i);
                        for &r in results.iter().rev() {
                            self.set(r);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Emits `f` (destructed) as a function body (see the module
/// documentation).
///
/// # Errors
/// An irreducible CFG, a phi, an operation that is not a WebAssembly
/// operator or has bad immediates, a callee or `print` arity the lowering
/// does not map.
pub fn emit_function(f: &Function, low: &Lowering<'_>) -> Result<EmittedFunction, WasmError> {
    let s = structure::structure(f).map_err(|e| {
        err(
            f,
            format!(
                "irreducible control flow (edge {} -> {})",
                f.block_name(e.from),
                f.block_name(e.to)
            ),
        )
    })?;
    let alloc = locals::assign(f, &s);
    let mut e = Emitter {
        f,
        low,
        local: alloc.local,
        out: wasm_encoder::Function::new(alloc.groups),
        re: RoundtripReencoder,
    };
    let returns: Vec<ValType> = f
        .returns()
        .map(|r| r.iter().map(|&t| val_type(t)).collect())
        .unwrap_or_default();
    for &c in &s.items {
        match c {
            Ctl::Body(b) => {
                for &i in f.block_insts(b) {
                    e.inst(i)?;
                }
            }
            Ctl::Block => e.ins(I::Block(BlockType::Empty)),
            Ctl::Loop => e.ins(I::Loop(BlockType::Empty)),
            Ctl::If(b) => {
                let Terminator::Branch { cond, .. } = *f.term(b) else {
                    unreachable!("an if ends a branch")
                };
                e.push_cond(cond);
                e.ins(I::If(BlockType::Empty));
            }
            Ctl::Else => e.ins(I::Else),
            Ctl::End => e.ins(I::End),
            Ctl::Br(d) => e.ins(I::Br(d)),
            Ctl::BrTable {
                block,
                start,
                len,
                default,
            } => {
                let Terminator::Switch { value, .. } = *f.term(block) else {
                    unreachable!("a br_table ends a switch")
                };
                e.push(value, ValType::I32);
                let depths = &s.depths[start as usize..(start + len) as usize];
                e.ins(I::BrTable(depths.into(), default));
            }
            Ctl::Ret(b) => {
                let Terminator::Ret(vals) = *f.term(b) else {
                    unreachable!("a return ends a ret")
                };
                let vals = vals.as_slice(f);
                if vals.len() != returns.len() {
                    return Err(err(
                        f,
                        format!(
                            "returns {} values, the signature {}",
                            vals.len(),
                            returns.len()
                        ),
                    ));
                }
                for (k, &v) in vals.iter().enumerate() {
                    e.push(v, returns[k]);
                }
                e.ins(I::Return);
            }
            Ctl::Unreachable => e.ins(I::Unreachable),
        }
    }
    if matches!(s.items.last(), Some(Ctl::End)) && !returns.is_empty() {
        e.ins(I::Unreachable);
    }
    e.ins(I::End);
    Ok(EmittedFunction {
        func: e.out,
        locals: alloc.count,
    })
}
