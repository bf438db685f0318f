//! Each instruction's lowering, computed once per function: what it
//! reads (its operands, each with the [`Want`] it must become on the
//! stack) and what it does once they are there (its [`Action`]: the
//! WebAssembly instruction, already built, then the stores of its
//! results). [`super::stackify`] matches trees on the operands, the
//! emitter pushes them and runs the action; neither matches on the
//! instruction again, nor looks up a signature or an operator.
//!
//! As Cranelift's lowering reads one `InstructionData` per instruction
//! and waffle's back end one `ValueDef`, both steps read one record per
//! instruction ([`Step`]) here: the operands of every instruction in one
//! pool, a range per instruction (no allocation per instruction), its
//! destinations in another.
//!
//! # Errors, deferred
//!
//! An instruction that cannot be emitted keeps its error
//! ([`EmitError`]) in its record: a bad shape (a phi, a callee or
//! `print` arity the lowering does not map, a `call_indirect` without
//! its immediates, ...) is raised when its operands are read
//! ([`Plan::operands`], by stackify, for every instruction it does not
//! drop), bad immediates only when it is emitted ([`Plan::action`]). So
//! a dead instruction that is never emitted fails nothing, and a bad
//! shape anywhere in a function is met before bad immediates.

use super::ctl::{Ctl, Structured};
use super::error::{EmitError, Shape};
use super::lower::{Lowered, Lowering};
use crate::module::Signature;
use ssakit::entity::SecondaryMap;
use ssakit::ir::{BinOp, Block, Function, Inst, InstData, Operand, Terminator, Type, UnOp, Var};
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{Instruction as I, ValType};

/// A tree's root: an instruction, or a block's terminator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Node {
    /// An instruction.
    Inst(Inst),
    /// The terminator of a block.
    Term(Block),
}

/// What an operand must become on the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// A value of this type.
    V(ValType),
    /// An `i32` that is non-zero when the operand is (a branch condition).
    Truth,
    /// A `br_table` index: an `i64` selector outside `0..2^32` (negative
    /// ones included) becomes `u32::MAX`, past every table, so that it goes
    /// to the default as `ssakit run` does, instead of wrapping into range.
    Index,
}

/// The WebAssembly value type of `t` (`bool` is an `i32`).
///
/// ```
/// use ssakit::ir::Type;
/// use ssakit_wasm::emit::val_type;
/// use wasm_encoder::ValType;
/// assert_eq!(val_type(Type::Bool), ValType::I32);
/// assert_eq!(val_type(Type::I64), ValType::I64);
/// assert_eq!(val_type(Type::FuncRef), ValType::FUNCREF);
/// ```
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

/// What the emitter does once an instruction's operands are on the
/// stack; then it stores the instruction's destinations
/// ([`Plan::dsts`]), the last first. A WebAssembly instruction is
/// [`Plan::instruction`]`(k)` (kept apart: the record stays small).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Action {
    /// Nothing, and no store: a copy of `undef`, or a terminator (its
    /// operation is control flow, [`super::structure`]).
    Nothing,
    /// The stores only: a copy, a parallel copy (its operands, pushed in
    /// order, are stored from the last).
    Store,
    /// Instruction `k`, then the stores.
    Op(u32),
    /// Instruction `k`, which leaves an `i32` truth value (a comparison,
    /// `!`); extended to `i64` when `extend` (its destination is one),
    /// then the store.
    Truth(u32, bool),
    /// Call `k`, then the stores of its results; a call that names no
    /// result drops the `drops` its signature returns.
    Call(u32, u32),
}

/// A node that cannot be emitted: its error, [`Plan::errors`]`[k]`, and
/// when it is raised.
#[derive(Clone, Copy, Debug)]
enum Deferred {
    /// When its operands are read (a bad shape).
    Refuse(u32),
    /// When it is emitted (bad immediates).
    Fail(u32),
}

/// One node's record: its operands `Plan::ops[ops.0..ops.1]`, its
/// destinations `Plan::dsts[dsts.0..dsts.1]`, its action (or its error).
#[derive(Clone, Debug)]
struct Step {
    ops: (u32, u32),
    dsts: (u32, u32),
    action: Result<Action, Deferred>,
}

impl Default for Step {
    fn default() -> Self {
        Step {
            ops: (0, 0),
            dsts: (0, 0),
            action: Ok(Action::Nothing),
        }
    }
}

/// Every node's lowering, for the blocks of a structured function.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// Per instruction of a block of the structure.
    insts: SecondaryMap<Inst, Step>,
    /// Per block of the structure, its terminator (operands only).
    terms: SecondaryMap<Block, Step>,
    /// The operands of every node, each node's a range.
    ops: Vec<(Operand, Want)>,
    /// The destinations of every instruction, each one's a range.
    dsts: Vec<Var>,
    /// The WebAssembly instructions of the actions.
    instrs: Vec<I<'static>>,
    /// The errors of the nodes that cannot be emitted ([`Deferred`]).
    errors: Vec<EmitError>,
}

impl Plan {
    /// The plan of every instruction and terminator of the blocks of `s`
    /// (errors deferred: see the module documentation).
    pub(crate) fn new(f: &Function, low: &Lowering<'_>, s: &Structured) -> Plan {
        let mut p = Plan {
            insts: SecondaryMap::new(Step::default()),
            terms: SecondaryMap::new(Step::default()),
            ops: Vec::new(),
            dsts: Vec::new(),
            instrs: Vec::new(),
            errors: Vec::new(),
        };
        // Sized once (written in the structure's order, not the slots').
        if let Some(last) = f.inst_slots().checked_sub(1) {
            p.insts[Inst::new(last)] = Step::default();
        }
        for c in &s.items {
            let Ctl::Body(b) = *c else { continue };
            for &i in f.block_insts(b) {
                p.insts[i] = p.record(|p| p.inst(f, low, i));
            }
            p.terms[b] = p.record(|p| p.term(f, b).map(|()| Action::Nothing));
        }
        p
    }

    /// The record of one node: its operands and destinations, pushed by
    /// `lower`, which returns its action or why the node cannot be
    /// emitted (kept, [`Deferred`]).
    fn record(&mut self, lower: impl FnOnce(&mut Plan) -> Result<Action, Refusal>) -> Step {
        let (o, d) = (self.ops.len(), self.dsts.len());
        let action = lower(self).map_err(|r| {
            let k = self.errors.len() as u32;
            let (e, deferred) = match r {
                // A refused node reads nothing.
                Refusal::Shape(e) => {
                    self.ops.truncate(o);
                    self.dsts.truncate(d);
                    (e, Deferred::Refuse(k))
                }
                // Its operands are read (stackify matches them), and its
                // error raised only if it is emitted.
                Refusal::Emit(e) => (e, Deferred::Fail(k)),
            };
            self.errors.push(e);
            deferred
        });
        Step {
            ops: (o as u32, self.ops.len() as u32),
            dsts: (d as u32, self.dsts.len() as u32),
            action,
        }
    }

    fn step(&self, node: Node) -> &Step {
        match node {
            Node::Inst(i) => &self.insts[i],
            Node::Term(b) => &self.terms[b],
        }
    }

    /// Where the operands of `node` are, in push order: a range of
    /// [`Plan::op`]; the node's error if its shape is refused.
    pub(crate) fn reads(&self, node: Node) -> Result<(usize, usize), EmitError> {
        let s = self.step(node);
        if let Err(Deferred::Refuse(k)) = s.action {
            return Err(self.errors[k as usize].clone());
        }
        Ok((s.ops.0 as usize, s.ops.1 as usize))
    }

    /// The operands of `node` in push order, each with what it must
    /// become ([`Plan::reads`]).
    pub(crate) fn operands(&self, node: Node) -> Result<&[(Operand, Want)], EmitError> {
        let (start, end) = self.reads(node)?;
        Ok(&self.ops[start..end])
    }

    /// Whether instruction `i` is a commutative binary WebAssembly
    /// operation (`add`, `mul`, `and`, `or`, `xor`, `eq`, `ne` of `i32`
    /// or `i64`) whose two operands want the same: pushing them the
    /// other way round computes the same value.
    pub(crate) fn commutes(&self, i: Inst) -> bool {
        let k = match self.insts[i].action {
            Ok(Action::Op(k) | Action::Truth(k, _)) => k,
            _ => return false,
        };
        let s = &self.insts[i];
        let two = s.ops.1 - s.ops.0 == 2
            && self.ops[s.ops.0 as usize].1 == self.ops[s.ops.0 as usize + 1].1;
        two && matches!(
            self.instrs[k as usize],
            I::I32Add
                | I::I64Add
                | I::I32Mul
                | I::I64Mul
                | I::I32And
                | I::I64And
                | I::I32Or
                | I::I64Or
                | I::I32Xor
                | I::I64Xor
                | I::I32Eq
                | I::I64Eq
                | I::I32Ne
                | I::I64Ne
        )
    }

    /// Swaps the two operands of `i`, which [`Plan::commutes`].
    pub(crate) fn swap_operands(&mut self, i: Inst) {
        debug_assert!(self.commutes(i));
        let at = self.insts[i].ops.0 as usize;
        self.ops.swap(at, at + 1);
    }

    /// Operand `k` of the pool ([`Plan::reads`]).
    pub(crate) fn op(&self, k: usize) -> (Operand, Want) {
        self.ops[k]
    }

    /// The action of instruction `i`, or its error.
    pub(crate) fn action(&self, i: Inst) -> Result<Action, EmitError> {
        match self.insts[i].action {
            Ok(a) => Ok(a),
            Err(Deferred::Refuse(k) | Deferred::Fail(k)) => Err(self.errors[k as usize].clone()),
        }
    }

    /// The WebAssembly instruction `k` of an action.
    pub(crate) fn instruction(&self, k: u32) -> &I<'static> {
        &self.instrs[k as usize]
    }

    /// Keeps `i` for an action: its number.
    fn keep(&mut self, i: I<'static>) -> u32 {
        self.instrs.push(i);
        (self.instrs.len() - 1) as u32
    }

    /// The destinations of instruction `i`, stored after its action, the
    /// last first.
    pub(crate) fn dsts(&self, i: Inst) -> &[Var] {
        let s = &self.insts[i];
        &self.dsts[s.dsts.0 as usize..s.dsts.1 as usize]
    }

    /// The operands of terminator of `b`.
    fn term(&mut self, f: &Function, b: Block) -> Result<(), Refusal> {
        let v = |t: Type| Want::V(val_type(t));
        let i64w = Want::V(ValType::I64);
        match *f.term(b) {
            Terminator::Branch { cond, .. } => self.ops.push((cond, Want::Truth)),
            Terminator::Switch { value, .. } => self.ops.push((value, Want::Index)),
            Terminator::Ret(vals) => {
                let vals = vals.as_slice(f);
                match f.returns() {
                    // An `.ssa` function without a declared signature
                    // returns `i64`s.
                    None => self.ops.extend(vals.iter().map(|&o| (o, i64w))),
                    Some(rets) => {
                        if vals.len() != rets.len() {
                            return Err(Refusal::Shape(EmitError::ReturnCount {
                                values: vals.len(),
                                results: rets.len(),
                            }));
                        }
                        self.ops
                            .extend(vals.iter().zip(rets).map(|(&o, &t)| (o, v(t))));
                    }
                }
            }
            Terminator::Jump(_) | Terminator::Unreachable => {}
        }
        Ok(())
    }

    /// The operands, destinations and action of instruction `i`.
    fn inst(&mut self, f: &Function, low: &Lowering<'_>, i: Inst) -> Result<Action, Refusal> {
        let v = |t: Type| Want::V(val_type(t));
        let i64w = Want::V(ValType::I64);
        Ok(match *f.inst(i) {
            InstData::Copy {
                src: Operand::Undef,
                ..
            } => Action::Nothing,
            InstData::Copy { dst, src } => {
                self.ops.push((src, v(f.var_type(dst))));
                self.dsts.push(dst);
                Action::Store
            }
            InstData::Unary { dst, op, arg } => {
                self.dsts.push(dst);
                match op {
                    UnOp::Neg => {
                        self.ops.push((Operand::Const(0), i64w));
                        self.ops.push((arg, i64w));
                        Action::Op(self.keep(I::I64Sub))
                    }
                    UnOp::Not => {
                        self.ops.push((arg, i64w));
                        Action::Truth(self.keep(I::I64Eqz), wide(f, dst))
                    }
                }
            }
            InstData::Binary { dst, op, lhs, rhs } => {
                self.ops.push((lhs, i64w));
                self.ops.push((rhs, i64w));
                self.dsts.push(dst);
                match binary(op) {
                    (i, false) => Action::Op(self.keep(i)),
                    (i, true) => Action::Truth(self.keep(i), wide(f, dst)),
                }
            }
            InstData::Call {
                callee,
                args,
                results,
            } => {
                let (idx, sig) = callee_sig(low, callee).map_err(Refusal::Shape)?;
                self.params(args.as_slice(f), sig);
                let drops = self.results(results.as_slice(f), sig);
                Action::Call(self.keep(I::Call(idx)), drops)
            }
            InstData::Print { args } => {
                let args = args.as_slice(f);
                let idx = low
                    .print
                    .get(args.len())
                    .copied()
                    .flatten()
                    .ok_or(Refusal::Shape(EmitError::NoPrint { arity: args.len() }))?;
                self.ops.extend(args.iter().map(|&a| (a, i64w)));
                Action::Op(self.keep(I::Call(idx)))
            }
            InstData::Phi { .. } => return Err(Refusal::Shape(EmitError::Phi)),
            InstData::ParCopy { copies } => {
                for &(d, s) in copies.as_slice(f) {
                    self.ops.push((s, v(f.var_type(d))));
                    self.dsts.push(d);
                }
                Action::Store
            }
            InstData::Op {
                args,
                imms,
                op,
                results,
            } => {
                let (imms, args, results) =
                    (imms.as_slice(f), args.as_slice(f), results.as_slice(f));
                let lowered = low
                    .ops
                    .get(op)
                    .ok_or(Refusal::Shape(EmitError::NotOperator(op)))?;
                let shape = |s: Shape| Refusal::Shape(EmitError::Malformed(s));
                match lowered {
                    Lowered::Select => {
                        if results.len() != 1 || args.len() != 3 {
                            return Err(shape(Shape::Select));
                        }
                        let t = val_type(f.var_type(results[0]));
                        self.ops.extend([
                            (args[0], Want::V(t)),
                            (args[1], Want::V(t)),
                            (args[2], Want::V(ValType::I32)),
                        ]);
                        self.dsts.push(results[0]);
                        Action::Op(self.keep(match t {
                            ValType::Ref(_) => I::TypedSelect(t),
                            _ => I::Select,
                        }))
                    }
                    Lowered::CallIndirect => {
                        let (&[ty, table], Some((&index, params))) = (imms, args.split_last())
                        else {
                            return Err(shape(Shape::CallIndirect));
                        };
                        let sig = sig_of(low, ty as u32).map_err(Refusal::Shape)?;
                        self.params(params, sig);
                        self.ops.push((index, Want::V(ValType::I32)));
                        let call = I::CallIndirect {
                            type_index: ty as u32,
                            table_index: table as u32,
                        };
                        let drops = self.results(results, sig);
                        Action::Call(self.keep(call), drops)
                    }
                    Lowered::GlobalSet => {
                        let (&[g], &[a]) = (imms, args) else {
                            return Err(shape(Shape::GlobalSet));
                        };
                        let t = low
                            .globals
                            .get(g as usize)
                            .copied()
                            .ok_or(Refusal::Shape(EmitError::GlobalOutOfRange(g)))?;
                        self.ops.push((a, v(t)));
                        Action::Op(self.keep(I::GlobalSet(g as u32)))
                    }
                    Lowered::Plain { build, i64_mask } => {
                        for (k, &a) in args.iter().enumerate() {
                            let want = match a {
                                Operand::Var(x) => v(f.var_type(x)),
                                _ if k < 64 && i64_mask >> k & 1 == 1 => i64w,
                                _ => Want::V(ValType::I32),
                            };
                            self.ops.push((a, want));
                        }
                        self.dsts.extend_from_slice(results);
                        let wop = build(imms).ok_or(Refusal::Emit(EmitError::BadImmediates(op)))?;
                        let i = RoundtripReencoder
                            .instruction(wop)
                            .map_err(|e| Refusal::Emit(EmitError::Reencode(e.to_string())))?;
                        Action::Op(self.keep(i))
                    }
                }
            }
        })
    }

    /// A call's arguments, each of its parameter's type (`i64` past the
    /// signature's parameters).
    fn params(&mut self, args: &[Operand], sig: &Signature) {
        for (k, &a) in args.iter().enumerate() {
            let want = sig
                .params
                .get(k)
                .map_or(Want::V(ValType::I64), |&t| Want::V(val_type(t)));
            self.ops.push((a, want));
        }
    }

    /// A call's results as its destinations; the values to drop when it
    /// names none.
    fn results(&mut self, results: &[Var], sig: &Signature) -> u32 {
        self.dsts.extend_from_slice(results);
        if results.is_empty() {
            sig.results.len() as u32
        } else {
            0
        }
    }
}

/// Why a node cannot be emitted, and when that is said.
enum Refusal {
    /// When its operands are read.
    Shape(EmitError),
    /// When it is emitted.
    Emit(EmitError),
}

/// A truth value stored into `dst` is extended to `i64` (an `i32` when
/// `dst` is a `bool`).
fn wide(f: &Function, dst: Var) -> bool {
    val_type(f.var_type(dst)) == ValType::I64
}

/// The instruction of a built-in binary operator, and whether it is a
/// comparison (an `i32` truth value).
fn binary(op: BinOp) -> (I<'static>, bool) {
    match op {
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
    }
}

fn sig_of<'l>(low: &'l Lowering<'_>, type_index: u32) -> Result<&'l Signature, EmitError> {
    low.types
        .get(type_index as usize)
        .and_then(|s| s.as_ref())
        .ok_or(EmitError::NotFunctionType(type_index))
}

fn callee_sig<'l>(
    low: &'l Lowering<'_>,
    callee: ssakit::ir::Callee,
) -> Result<(u32, &'l Signature), EmitError> {
    let idx = low
        .callees
        .get(callee.index())
        .copied()
        .flatten()
        .ok_or(EmitError::NoFunction(callee))?;
    let ty = *low
        .func_types
        .get(idx as usize)
        .ok_or(EmitError::FunctionOutOfRange(idx))?;
    Ok((idx, sig_of(low, ty)?))
}

#[cfg(test)]
pub(super) mod tests {
    //! Errors stay where the steps met them before the plan: a bad shape
    //! when stackify reads the operands, bad immediates when emitted.
    use super::super::{Lowering, OpTable};
    use super::{EmitError, Shape};
    use ssakit::ir::Function;

    /// `then` on the one function of `text` and a lowering that maps no
    /// callee, global or `print`.
    pub(in crate::emit) fn with_function<T>(
        text: &str,
        then: impl FnOnce(&Function, &Lowering<'_>) -> T,
    ) -> T {
        let f = &ssakit::text::parse_module(text).unwrap().functions[0];
        let ops = OpTable::new(f.symbols());
        let (callees, func_types, types, globals, print) = (&[], &[], &[], &[], &[]);
        then(
            f,
            &Lowering {
                ops: &ops,
                callees,
                func_types,
                types,
                globals,
                print,
            },
        )
    }

    /// The error of emitting the one function of `text` (no calls), if
    /// any.
    fn error_of(text: &str) -> Option<EmitError> {
        with_function(text, |f, low| super::super::emit_steps(f, low).err())
    }

    /// A dead instruction that reads no variable is never emitted: its
    /// bad shape (not a WebAssembly operator) or its bad immediates fail
    /// nothing; read, each fails with its error.
    #[test]
    fn an_instruction_never_emitted_fails_nothing() {
        let ops = "operator my.op pure\noperator i64.const pure\n";
        let dead = |x: &str| format!("{ops}function f(a) {{\ne:\n  x = {x}\n  ret a\n}}\n");
        assert_eq!(error_of(&dead("my.op(1)")), None);
        assert_eq!(error_of(&dead("i64.const[]()")), None);
        let read = |x: &str| format!("{ops}function f(a) {{\ne:\n  x = {x}\n  ret x\n}}\n");
        let e = error_of(&read("my.op(1)"));
        assert!(matches!(e, Some(EmitError::NotOperator(_))), "{e:?}");
        let e = error_of(&read("i64.const[]()"));
        assert!(matches!(e, Some(EmitError::BadImmediates(_))), "{e:?}");
    }

    /// A bad shape later in the block is met first (stackify reads every
    /// node's operands before anything is emitted), before bad
    /// immediates earlier in it.
    #[test]
    fn a_bad_shape_is_met_before_bad_immediates() {
        let e = error_of(
            "operator i64.const pure\noperator select pure\nfunction f(a) {\ne:\n  x = i64.const[]()\n  s = select(x, a)\n  ret s\n}\n",
        );
        assert_eq!(e, Some(EmitError::Malformed(Shape::Select)));
    }

    /// Each refusal is its own variant: a `print` of an unmapped arity,
    /// an irreducible CFG, a callee the lowering does not map; the
    /// message callers see names the function.
    #[test]
    fn each_refusal_is_a_variant() {
        let one = |body: &str| format!("function f(a) {{\ne:\n{body}\n}}\n");
        assert_eq!(
            error_of(&one("  print a\n  ret a")),
            Some(EmitError::NoPrint { arity: 1 })
        );
        let e = error_of("function f(c) {\ne:\n  branch c, a, b\na:\n  jump b\nb:\n  jump a\n}\n");
        assert!(matches!(e, Some(EmitError::Irreducible { .. })), "{e:?}");
        let e = error_of(
            "function f(a) {\ne:\n  r = g(a)\n  ret r\n}\nfunction g(a) {\ne:\n  ret a\n}\n",
        );
        assert!(matches!(e, Some(EmitError::NoFunction(_))), "{e:?}");
        with_function(&one("  print a\n  ret a"), |f, low| {
            let e = super::super::emit_function(f, low).unwrap_err();
            assert_eq!(e.message, "emitting `f`: no import for print of 1");
        });
    }
}
