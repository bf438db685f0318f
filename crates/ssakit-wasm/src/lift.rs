//! One WebAssembly function body → one non-SSA [`Function`]: the
//! chapter's algorithms on binary code (section 13.8, "En binarios").
//!
//! A function's locals are exactly the chapter's non-SSA variables: they
//! are assigned many times on many paths, and construction puts them into
//! SSA form like any program's variables. The lifter recovers the control
//! flow with a control stack, as Cranelift's wasm translator does
//! (`code_translator.rs`: a frame per `block`/`loop`/`if`, a `reachable`
//! flag, block parameters), but where Cranelift makes block parameters,
//! this lifter makes *variables assigned on every incoming path*, so that
//! phi insertion places their phis.
//!
//! # The rules
//!
//! * **Locals**: parameters and declared locals are variables `l0, l1,
//!   ...` of their types; a declared local starts at zero as WebAssembly
//!   defines it, by an explicit definition at entry (`l3: i32 = 0`,
//!   `l4: f64 = f64.const[0]()`, `ref.null[112]()` for a `funcref`).
//! * **The operand stack** holds operands: an `i32.const`/`i64.const` is
//!   a literal; every other value is a fresh variable `tN` defined once.
//!   `local.get` pushes the local itself, lazily: a copy `tN = lK` is made
//!   only when the local is written while the value is still on the stack
//!   (at that `local.set`/`local.tee`), or when a `block`, `loop` or `if`
//!   begins while it is (the write might happen on one path inside). Each
//!   stack slot is copied at most once, and the positions of a local's
//!   lazy slots are kept in a list per local, so this is linear.
//! * **Values crossing a merge** (the results of a `block`, `if` or `loop`,
//!   the parameters of a `loop`) are one variable per stack slot of the
//!   label (`rN` results, `pN` loop parameters), assigned on every
//!   incoming path: at the branch, at the fall-through `end`, at `else`. A
//!   `br_if` or `br_table` edge carrying values gets its own edge block
//!   doing the copies (one per target label in a `br_table`). A block
//!   whose end is reached only by falling through needs no block and no
//!   copies: its results stay on the stack.
//! * **Control**: `loop` starts a block (its header); `if` ends the block
//!   in `branch c, then, else`; `br`, `br_if`, `br_table`, `return`,
//!   `unreachable` become `jump`, `branch` (to a continuation block),
//!   `switch`, `ret` and `unreachable`. Code after an unconditional branch
//!   is unreachable as validation defines it and is dropped: a counter of
//!   the `block`/`loop`/`if` opened in it finds the `else` or `end` where
//!   code is reachable again.
//! * **Calls**: `call` is a [`Call`](InstData::Call) of the callee's
//!   `.ssa` name (an import is an external callee); `call_indirect` is an
//!   operation with `call` effects, its immediates the type and table
//!   index, the table index operand last. Every other operator is an
//!   operation of [`crate::operators`].
//!
//! Everything is iterative (the control stack is a vector), so nesting
//! depth costs no native stack. Every operator is validated
//! (`FuncValidator`) before it is lifted; the validator also gives the
//! types of results.

use crate::canonical;
use crate::error::WasmError;
use crate::module::{val_type, Body, WasmModule};
use crate::operators::{self, Class};
use rustc_hash::FxHashMap;
use ssakit::entity::SecondaryMap;
use ssakit::ir::{
    Block, Callee, Function, InstData, Operand, Operator, SharedSymbols, Symbols, Terminator, Type,
    Var,
};
use std::sync::Arc;
use wasmparser::{
    BlockType, FuncValidator, FuncValidatorAllocations, Operator as WasmOp, OperatorsReader,
    ValidatorResources,
};

/// The module's symbol table, filled once before lifting (every accepted
/// operator and every function name), so that the functions share it and
/// lifting never copies it.
///
/// ```
/// # use ssakit_wasm::module::{parse, to_binary};
/// use ssakit_wasm::lift::{lift, ModuleSymbols};
/// let wasm = to_binary(b"(module (func) (func))").unwrap();
/// let m = parse(&wasm).unwrap();
/// let syms = ModuleSymbols::new(&m);
/// let a = lift(&m, &syms, &m.bodies[0]).unwrap().func;
/// let b = lift(&m, &syms, &m.bodies[1]).unwrap().func;
/// assert!(std::sync::Arc::ptr_eq(a.shared_symbols(), b.shared_symbols()));
/// ```
pub struct ModuleSymbols {
    symbols: SharedSymbols,
    by_visit: FxHashMap<&'static str, Operator>,
    select: Operator,
    call_indirect: Operator,
    callees: Vec<Callee>,
}

impl ModuleSymbols {
    /// The symbols of `m`: every accepted operator, and a callee per
    /// function named as `m` names it.
    ///
    /// ```
    /// # use ssakit_wasm::module::{parse, to_binary};
    /// let wasm = to_binary(b"(module (func $main))").unwrap();
    /// let syms = ssakit_wasm::lift::ModuleSymbols::new(&parse(&wasm).unwrap());
    /// assert!(syms.shared().find_operator("i32.add").is_some());
    /// assert!(syms.shared().find_callee("main").is_some());
    /// ```
    pub fn new(m: &WasmModule<'_>) -> Self {
        let mut s = Symbols::new();
        let mut by_visit = FxHashMap::default();
        for visit in operators::accepted_visits() {
            let name = operators::mnemonic(visit);
            let op = s
                .operator(&name, operators::effects(&name))
                .expect("one effect class per name");
            by_visit.insert(visit, op);
        }
        let select = by_visit["visit_select"];
        let call_indirect = by_visit["visit_call_indirect"];
        let callees = m.names.iter().map(|n| s.callee(n)).collect();
        ModuleSymbols {
            symbols: Arc::new(s),
            by_visit,
            select,
            call_indirect,
            callees,
        }
    }

    /// The shared table.
    ///
    /// ```
    /// # use ssakit_wasm::module::{parse, to_binary};
    /// let wasm = to_binary(b"(module)").unwrap();
    /// let syms = ssakit_wasm::lift::ModuleSymbols::new(&parse(&wasm).unwrap());
    /// assert!(syms.shared().find_operator("f64.sqrt").is_some());
    /// assert!(syms.shared().find_operator("no.such_op").is_none());
    /// ```
    pub fn shared(&self) -> &SharedSymbols {
        &self.symbols
    }

    fn op(&self, visit: &str) -> Operator {
        self.by_visit[visit]
    }
}

/// What was lifted: the function, in the order the `.ssa` parser would
/// number it ([`canonical::in_text_order`]).
///
/// ```
/// # use ssakit_wasm::module::{parse, to_binary};
/// # use ssakit_wasm::lift::{lift, ModuleSymbols};
/// let wasm = to_binary(b"(module (func (param i32 i32) (local f32)))").unwrap();
/// let m = parse(&wasm).unwrap();
/// let l = lift(&m, &ModuleSymbols::new(&m), &m.bodies[0]).unwrap();
/// assert_eq!(l.locals, 3);
/// assert_eq!(l.func.params().len(), 2);
/// ```
#[derive(Debug)]
pub struct Lifted {
    /// The function.
    pub func: Function,
    /// Locals (parameters included).
    pub locals: usize,
    /// The operator each instruction and terminator of `func` came from.
    pub offsets: Offsets,
}

/// Where the instructions and terminators of a lifted function came
/// from: the byte offset, in the module, of the operator each was lifted
/// from (a copy made at a `local.set` or at a branch carrying values
/// answers that operator's offset; the zeros of declared locals, none).
/// Construction keeps instructions in place (phis are added, operands
/// renamed), so the table still answers for the SSA form; the passes and
/// destruction compact the instruction table
/// ([`Function::compact`](ssakit::ir::Function::compact)), and it no
/// longer does after them.
///
/// ```
/// # use ssakit_wasm::module::{parse, to_binary};
/// # use ssakit_wasm::lift::{lift, ModuleSymbols};
/// let wasm = to_binary(b"(module (func (param i32) (result i32)
///     local.get 0 i32.const 1 i32.add))").unwrap();
/// let m = parse(&wasm).unwrap();
/// let l = lift(&m, &ModuleSymbols::new(&m), &m.bodies[0]).unwrap();
/// let add = l.func.block_insts(l.func.entry())[0];
/// let at = l.offsets.inst(add).unwrap() as usize;
/// assert_eq!(wasm[at], 0x6a); // the opcode of i32.add
/// assert_eq!(wasm[l.offsets.term(l.func.entry()).unwrap() as usize], 0x0b); // `end`
/// ```
#[derive(Clone, Debug)]
pub struct Offsets {
    insts: SecondaryMap<ssakit::ir::Inst, Option<u64>>,
    terms: SecondaryMap<Block, Option<u64>>,
}

impl Offsets {
    fn new() -> Offsets {
        Offsets {
            insts: SecondaryMap::new(None),
            terms: SecondaryMap::new(None),
        }
    }

    /// The byte offset of the operator instruction `i` came from.
    ///
    /// ```
    /// # use ssakit_wasm::module::{parse, to_binary};
    /// # use ssakit_wasm::lift::{lift, ModuleSymbols};
    /// let wasm = to_binary(b"(module (func (result f32) f32.const 1))").unwrap();
    /// let m = parse(&wasm).unwrap();
    /// let l = lift(&m, &ModuleSymbols::new(&m), &m.bodies[0]).unwrap();
    /// let i = l.func.block_insts(l.func.entry())[0];
    /// assert_eq!(wasm[l.offsets.inst(i).unwrap() as usize], 0x43); // f32.const
    /// ```
    pub fn inst(&self, i: ssakit::ir::Inst) -> Option<u64> {
        self.insts[i]
    }

    /// The byte offset of the operator that ends block `b` (a branch,
    /// `return`, `unreachable`, the `end` that falls through).
    ///
    /// ```
    /// # use ssakit_wasm::module::{parse, to_binary};
    /// # use ssakit_wasm::lift::{lift, ModuleSymbols};
    /// let wasm = to_binary(b"(module (func unreachable))").unwrap();
    /// let m = parse(&wasm).unwrap();
    /// let l = lift(&m, &ModuleSymbols::new(&m), &m.bodies[0]).unwrap();
    /// assert_eq!(wasm[l.offsets.term(l.func.entry()).unwrap() as usize], 0x00);
    /// ```
    pub fn term(&self, b: Block) -> Option<u64> {
        self.terms[b]
    }

    /// The table of `new`, `old` renumbered in text order
    /// ([`canonical::in_text_order`], which copies blocks in layout order
    /// and each block's phis and instructions in order).
    fn renumbered(&self, old: &Function, new: &Function) -> Offsets {
        let mut out = Offsets::new();
        for (&ob, &nb) in old.layout().iter().zip(new.layout()) {
            out.terms[nb] = self.terms[ob];
            for (oi, ni) in old.block_all_insts(ob).zip(new.block_all_insts(nb)) {
                out.insts[ni] = self.insts[oi];
            }
        }
        out
    }
}

/// A stack slot: a local read lazily, or an operand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Val {
    Local(u32),
    Op(Operand),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Func,
    Block,
    Loop,
    /// An `if` whose `else` has not been seen.
    If,
    Else,
}

/// A control frame (see the module documentation).
#[derive(Clone, Debug)]
struct Frame {
    kind: Kind,
    /// Stack height below the frame's parameters.
    base: usize,
    n_params: usize,
    n_results: usize,
    /// Where the frame's result variables start in `Lifter::vars` (then,
    /// for a loop, its parameter variables).
    vars: usize,
    /// For an `if`: where its parameters start in `Lifter::saved`.
    saved: usize,
    /// The loop header.
    header: Option<Block>,
    /// The block after `end`, once something branches there.
    end: Option<Block>,
    /// For an `if`: the block of its `else` arm.
    else_block: Option<Block>,
}

struct Lifter<'m, 'a> {
    m: &'m WasmModule<'a>,
    syms: &'m ModuleSymbols,
    f: Function,
    validator: FuncValidator<ValidatorResources>,
    index: u32,
    locals: Vec<Var>,
    stack: Vec<Val>,
    /// Per local, positions of stack slots that may hold it lazily.
    lazy: Vec<Vec<u32>>,
    /// Locals whose `lazy` list may be non-empty.
    dirty: Vec<u32>,
    frames: Vec<Frame>,
    /// Result and loop-parameter variables of the open frames.
    vars: Vec<Var>,
    /// Parameters of the open `if` frames.
    saved: Vec<Operand>,
    /// The block code is added to; `None` in unreachable code.
    cur: Option<Block>,
    /// `block`/`loop`/`if` opened in unreachable code and not yet closed.
    dead_depth: u32,
    imms: Vec<i64>,
    /// The last instruction emitted, when it defines exactly one fresh
    /// temporary: a copy of that temporary right after it can define its
    /// destination instead.
    last_def: Option<(Block, ssakit::ir::Inst, Var)>,
    temps: u32,
    labels: u32,
    merges: u32,
    /// Scratch for the names of new variables and blocks (one allocation
    /// per function, not one per name).
    name: String,
    /// Scratch of [`Lifter::generic`].
    args_buf: Vec<Operand>,
    results_buf: Vec<Var>,
    /// The byte offset of the operator being lifted.
    offset: Option<u64>,
    /// The offsets of what was emitted, in the lifter's numbering.
    offsets: Offsets,
}

/// Lifts function `body` of `m` (see the module documentation).
///
/// # Errors
/// A malformed or invalid body, or an unsupported operator, with its byte
/// offset and the function index.
///
/// ```
/// # use ssakit_wasm::module::{parse, to_binary};
/// use ssakit_wasm::lift::{lift, ModuleSymbols};
/// let wasm = to_binary(b"(module (func (result i32) i64.const 1))").unwrap();
/// let m = parse(&wasm).unwrap(); // bodies are validated as they are lifted
/// let e = lift(&m, &ModuleSymbols::new(&m), &m.bodies[0]).unwrap_err();
/// assert_eq!(e.func, Some(0));
/// assert!(e.offset.is_some() && e.message.contains("type mismatch"));
/// ```
pub fn lift(
    m: &WasmModule<'_>,
    syms: &ModuleSymbols,
    body: &Body<'_>,
) -> Result<Lifted, WasmError> {
    let index = body.index;
    lift_impl(m, syms, body).map_err(|e| e.in_func(index))
}

fn lift_impl(
    m: &WasmModule<'_>,
    syms: &ModuleSymbols,
    body: &Body<'_>,
) -> Result<Lifted, WasmError> {
    let index = body.index;
    let validator = body
        .validator()
        .into_validator(FuncValidatorAllocations::default());
    let mut l = Lifter {
        m,
        syms,
        f: Function::with_symbols(&m.names[index as usize], syms.shared().clone()),
        validator,
        index,
        locals: Vec::new(),
        stack: Vec::new(),
        lazy: Vec::new(),
        dirty: Vec::new(),
        frames: Vec::new(),
        vars: Vec::new(),
        saved: Vec::new(),
        cur: None,
        dead_depth: 0,
        imms: Vec::new(),
        last_def: None,
        temps: 0,
        labels: 0,
        merges: 0,
        name: String::new(),
        args_buf: Vec::new(),
        results_buf: Vec::new(),
        offset: None,
        offsets: Offsets::new(),
    };
    l.run(body)?;
    let locals = l.locals.len();
    let func = canonical::in_text_order(&l.f);
    let offsets = l.offsets.renumbered(&l.f, &func);
    Ok(Lifted {
        func,
        locals,
        offsets,
    })
}

/// `prefix` followed by `n` in decimal, written into `buf`.
fn numbered<'a>(buf: &'a mut String, prefix: &str, n: u64) -> &'a str {
    buf.clear();
    buf.push_str(prefix);
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    let mut n = n;
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend(digits[k..].iter().map(|&d| d as char));
    buf
}

impl Lifter<'_, '_> {
    fn run(&mut self, body: &Body<'_>) -> Result<(), WasmError> {
        let sig = self.m.signature(self.index).clone();
        self.f.set_returns(Some(sig.results.clone()));
        for (i, &t) in sig.params.iter().enumerate() {
            let v = self.f.new_var(numbered(&mut self.name, "l", i as u64), t);
            self.f.add_param(v);
            self.locals.push(v);
        }
        let entry = self.f.new_block("entry");
        self.cur = Some(entry);
        let mut reader = body.body.get_binary_reader();
        self.validator.read_locals(&mut reader)?;
        let n = self.validator.len_locals() as usize;
        for i in sig.params.len()..n {
            let t = self
                .validator
                .get_local_type(i as u32)
                .expect("validated local");
            let t = val_type(t, reader.original_position())?;
            let v = self.f.new_var(numbered(&mut self.name, "l", i as u64), t);
            self.locals.push(v);
            self.zero(entry, v, t);
        }
        self.lazy = vec![Vec::new(); n];
        self.frames.push(Frame {
            kind: Kind::Func,
            base: 0,
            n_params: 0,
            n_results: sig.results.len(),
            vars: 0,
            saved: 0,
            header: None,
            end: None,
            else_block: None,
        });
        let mut ops = OperatorsReader::new(reader);
        while !ops.eof() {
            let (op, offset) = ops.read_with_offset()?;
            self.validator.op(offset, &op)?;
            self.offset = Some(offset);
            self.op(op, offset)?;
        }
        ops.finish()?;
        if !self.frames.is_empty() {
            return Err(WasmError::at(
                ops.original_position(),
                "function body ends inside a block",
            ));
        }
        Ok(())
    }

    // ---------------------------------------------------------------
    // Emission.

    fn emit(&mut self, b: Block, data: InstData) -> ssakit::ir::Inst {
        self.last_def = None;
        let i = self.f.push_inst(b, data);
        self.offsets.insts[i] = self.offset;
        i
    }

    /// `dst = src` at the end of `b`, unless `src` is `dst`; when `src` is
    /// the temporary the instruction just before defines (and nothing else
    /// reads: a temporary sits in one stack slot, just popped), that
    /// instruction defines `dst` instead (`t = i32.add(a, b); l = t`
    /// becomes `l = i32.add(a, b)`).
    fn copy(&mut self, b: Block, dst: Var, src: Operand) {
        if src == Operand::Var(dst) {
            return;
        }
        if let Some((lb, inst, t)) = self.last_def {
            if lb == b && src == Operand::Var(t) && self.f.block_insts(b).last() == Some(&inst) {
                let results = match *self.f.inst(inst) {
                    InstData::Op { results, .. } | InstData::Call { results, .. } => results,
                    _ => unreachable!("last_def is an operation or a call"),
                };
                results.as_mut_slice(&mut self.f)[0] = dst;
                self.last_def = None;
                return;
            }
        }
        self.emit(b, InstData::Copy { dst, src });
    }

    fn operation(
        &mut self,
        b: Block,
        op: Operator,
        imms: &[i64],
        args: &[Operand],
        results: &[Var],
    ) -> ssakit::ir::Inst {
        let imms = self.f.list(imms);
        let args = self.f.list(args);
        let list = self.f.list(results);
        self.emit(
            b,
            InstData::Op {
                op,
                imms,
                args,
                results: list,
            },
        )
    }

    fn note_def(&mut self, b: Block, inst: ssakit::ir::Inst, results: &[Var]) {
        if let [t] = results {
            self.last_def = Some((b, inst, *t));
        }
    }

    /// `v = 0` of type `t` at the end of `b`.
    fn zero(&mut self, b: Block, v: Var, t: Type) {
        let (visit, imms): (&str, &[i64]) = match t {
            // No wasm value has `bool` type; an integer zero suits both.
            Type::I32 | Type::I64 | Type::Bool => return self.copy(b, v, Operand::Const(0)),
            Type::F32 => ("visit_f32_const", &[0]),
            Type::F64 => ("visit_f64_const", &[0]),
            Type::V128 => ("visit_v128_const", &[0, 0]),
            Type::FuncRef => ("visit_ref_null", &[0x70]),
            Type::ExternRef => ("visit_ref_null", &[0x6f]),
        };
        let op = self.syms.op(visit);
        self.operation(b, op, imms, &[], &[v]);
    }

    fn temp(&mut self, t: Type) -> Var {
        self.temps += 1;
        self.f
            .new_var(numbered(&mut self.name, "t", self.temps.into()), t)
    }

    fn block(&mut self, kind: &str) -> Block {
        self.labels += 1;
        self.f
            .create_block(numbered(&mut self.name, kind, self.labels.into()))
    }

    /// Starts emitting into `b`, placing it in the layout.
    fn enter(&mut self, b: Block) {
        self.f.append_to_layout(b);
        self.cur = Some(b);
    }

    fn terminate(&mut self, b: Block, t: Terminator) {
        self.offsets.terms[b] = self.offset;
        self.f.set_term(b, t);
    }

    // ---------------------------------------------------------------
    // The operand stack.

    fn pop(&mut self, offset: u64) -> Result<Operand, WasmError> {
        match self.stack.pop() {
            Some(Val::Local(i)) => Ok(Operand::Var(self.locals[i as usize])),
            Some(Val::Op(o)) => Ok(o),
            None => Err(WasmError::at(offset, "operand stack underflow")),
        }
    }

    /// The top `n` operands, popped, in stack order, into `out`.
    fn pop_n(&mut self, n: usize, out: &mut Vec<Operand>, offset: u64) -> Result<(), WasmError> {
        if self.stack.len() < n {
            return Err(WasmError::at(offset, "operand stack underflow"));
        }
        let from = self.stack.len() - n;
        out.clear();
        for k in from..self.stack.len() {
            out.push(self.operand_at(k));
        }
        self.stack.truncate(from);
        Ok(())
    }

    fn operand_at(&self, k: usize) -> Operand {
        match self.stack[k] {
            Val::Local(i) => Operand::Var(self.locals[i as usize]),
            Val::Op(o) => o,
        }
    }

    fn push_local(&mut self, i: u32) {
        let pos = self.stack.len() as u32;
        self.stack.push(Val::Local(i));
        let list = &mut self.lazy[i as usize];
        if list.is_empty() {
            self.dirty.push(i);
        }
        list.push(pos);
    }

    /// Copies every slot still holding local `i` lazily into a fresh
    /// variable (before `i` is written).
    fn materialise(&mut self, i: u32) {
        let list = std::mem::take(&mut self.lazy[i as usize]);
        let b = self.cur.expect("reachable");
        for &pos in &list {
            let pos = pos as usize;
            if pos < self.stack.len() && self.stack[pos] == Val::Local(i) {
                let local = self.locals[i as usize];
                let t = self.temp(self.f.var_type(local));
                self.copy(b, t, Operand::Var(local));
                self.stack[pos] = Val::Op(Operand::Var(t));
            }
        }
        // Give the allocation back.
        let mut list = list;
        list.clear();
        self.lazy[i as usize] = list;
    }

    /// Copies every lazy slot (at the start of a block, loop or if).
    fn materialise_all(&mut self) {
        let dirty = std::mem::take(&mut self.dirty);
        for &i in &dirty {
            if !self.lazy[i as usize].is_empty() {
                self.materialise(i);
            }
        }
        let mut dirty = dirty;
        dirty.clear();
        self.dirty = dirty;
    }

    fn set_local(&mut self, i: u32, v: Operand) {
        if !self.lazy[i as usize].is_empty() {
            self.materialise(i);
        }
        let b = self.cur.expect("reachable");
        self.copy(b, self.locals[i as usize], v);
    }

    // ---------------------------------------------------------------
    // Labels and merges.

    fn block_sig(&self, bt: BlockType, offset: u64) -> Result<(Vec<Type>, Vec<Type>), WasmError> {
        Ok(match bt {
            BlockType::Empty => (Vec::new(), Vec::new()),
            BlockType::Type(t) => (Vec::new(), vec![val_type(t, offset)?]),
            BlockType::FuncType(i) => {
                let s = self
                    .m
                    .types
                    .get(i as usize)
                    .and_then(|s| s.as_ref())
                    .ok_or_else(|| WasmError::at(offset, "block type is not a function type"))?;
                (s.params.clone(), s.results.clone())
            }
        })
    }

    fn merge_var(&mut self, prefix: &str, t: Type) -> Var {
        self.merges += 1;
        self.f
            .new_var(numbered(&mut self.name, prefix, self.merges.into()), t)
    }

    /// Opens a frame of `kind` whose parameters are the top `params.len()`
    /// slots; makes its result variables (and a loop's parameter
    /// variables).
    fn push_frame(&mut self, kind: Kind, params: &[Type], results: &[Type]) -> usize {
        let vars = self.vars.len();
        for &t in results {
            let v = self.merge_var("r", t);
            self.vars.push(v);
        }
        if kind == Kind::Loop {
            for &t in params {
                let v = self.merge_var("p", t);
                self.vars.push(v);
            }
        }
        self.frames.push(Frame {
            kind,
            base: self.stack.len() - params.len(),
            n_params: params.len(),
            n_results: results.len(),
            vars,
            saved: self.saved.len(),
            header: None,
            end: None,
            else_block: None,
        });
        self.frames.len() - 1
    }

    /// The label of frame `fi` as a branch sees it: its target block
    /// (`None`: the function's return) and the variables receiving the
    /// branch's values.
    fn label(&mut self, fi: usize) -> (Option<Block>, usize, usize) {
        let fr = &self.frames[fi];
        match fr.kind {
            Kind::Func => (None, 0, fr.n_results),
            Kind::Loop => (fr.header, fr.vars + fr.n_results, fr.n_params),
            _ => {
                let end = match fr.end {
                    Some(e) => e,
                    None => {
                        let e = self.block("end");
                        self.frames[fi].end = Some(e);
                        e
                    }
                };
                (Some(end), self.frames[fi].vars, self.frames[fi].n_results)
            }
        }
    }

    /// In `b`, the branch to frame `fi`'s label: its variables assigned
    /// from the top of the stack, then `jump` (or `ret`).
    fn branch_from(&mut self, b: Block, fi: usize) {
        let (target, vars, n) = self.label(fi);
        let top = self.stack.len() - n;
        match target {
            None => {
                let vals: Vec<Operand> = (top..self.stack.len())
                    .map(|k| self.operand_at(k))
                    .collect();
                let t = self.f.ret_term(&vals);
                self.terminate(b, t);
            }
            Some(target) => {
                // Sequential copies are parallel here: a source is never
                // another slot's variable of the same label (a loop
                // parameter variable only ever sits in its own slot, and a
                // frame's result variables are pushed only after its end).
                // Top first, so that the top value, usually defined just
                // before, can be defined into its variable directly.
                for k in (0..n).rev() {
                    let src = self.operand_at(top + k);
                    let dst = self.vars[vars + k];
                    self.copy(b, dst, src);
                }
                self.terminate(b, Terminator::Jump(target));
            }
        }
    }

    /// The block a conditional edge to frame `fi` goes to: the label itself
    /// when no value moves, else a new edge block doing the copies.
    fn edge_to(&mut self, fi: usize) -> Block {
        let fr = &self.frames[fi];
        let plain = match fr.kind {
            Kind::Func => false,
            Kind::Loop => fr.n_params == 0,
            _ => fr.n_results == 0,
        };
        if plain {
            return self.label(fi).0.expect("not the function");
        }
        let e = self.block("edge");
        self.f.append_to_layout(e);
        self.branch_from(e, fi);
        e
    }

    fn depth_to_frame(&self, depth: u32, offset: u64) -> Result<usize, WasmError> {
        (self.frames.len() as u32)
            .checked_sub(depth + 1)
            .map(|i| i as usize)
            .ok_or_else(|| WasmError::at(offset, "branch depth out of range"))
    }

    // ---------------------------------------------------------------
    // Operators.

    /// Lifts one operator at `offset`: control (`block` to `return`),
    /// calls, `drop`, `select`, locals and integer constants here; every
    /// other operator through its [`Class`] ([`Self::generic`]).
    fn op(&mut self, op: WasmOp<'_>, offset: u64) -> Result<(), WasmError> {
        let Some(b) = self.cur else {
            return self.dead_op(op, offset);
        };
        match op {
            WasmOp::Unreachable => {
                self.terminate(b, Terminator::Unreachable);
                self.cur = None;
            }
            WasmOp::Nop => {}
            WasmOp::Block { blockty } => {
                let (params, results) = self.block_sig(blockty, offset)?;
                self.materialise_all();
                self.push_frame(Kind::Block, &params, &results);
            }
            WasmOp::Loop { blockty } => self.open_loop(b, blockty, offset)?,
            WasmOp::If { blockty } => self.open_if(b, blockty, offset)?,
            WasmOp::Else => self.else_(offset)?,
            WasmOp::End => self.end(offset)?,
            WasmOp::Br { relative_depth } => {
                let fi = self.depth_to_frame(relative_depth, offset)?;
                self.branch_from(b, fi);
                self.cur = None;
            }
            WasmOp::BrIf { relative_depth } => self.br_if(b, relative_depth, offset)?,
            WasmOp::BrTable { targets } => self.br_table(b, &targets, offset)?,
            WasmOp::Return => {
                self.branch_from(b, 0);
                self.cur = None;
            }
            WasmOp::Call { function_index } => self.call(b, function_index, offset)?,
            WasmOp::CallIndirect {
                type_index,
                table_index,
            } => self.call_indirect(b, type_index, table_index, offset)?,
            WasmOp::Drop => {
                self.pop(offset)?;
            }
            WasmOp::Select | WasmOp::TypedSelect { .. } => self.select(b, offset)?,
            WasmOp::LocalGet { local_index } => self.push_local(local_index),
            WasmOp::LocalSet { local_index } => {
                let v = self.pop(offset)?;
                self.set_local(local_index, v);
            }
            WasmOp::LocalTee { local_index } => {
                let v = self.pop(offset)?;
                self.set_local(local_index, v);
                self.push_local(local_index);
            }
            WasmOp::I32Const { value } => self.stack.push(Val::Op(Operand::Const(value as i64))),
            WasmOp::I64Const { value } => self.stack.push(Val::Op(Operand::Const(value))),
            other => {
                let mut imms = std::mem::take(&mut self.imms);
                imms.clear();
                let class = operators::classify(&other, &mut imms);
                let res = self.generic(b, class, &imms, offset);
                self.imms = imms;
                res?;
            }
        }
        Ok(())
    }

    /// An operator in unreachable code: only the nesting is followed, to
    /// find the `else` or `end` where code is reachable again.
    fn dead_op(&mut self, op: WasmOp<'_>, offset: u64) -> Result<(), WasmError> {
        match op {
            WasmOp::Block { .. } | WasmOp::Loop { .. } | WasmOp::If { .. } => self.dead_depth += 1,
            WasmOp::Else if self.dead_depth == 0 => self.else_(offset)?,
            WasmOp::End if self.dead_depth > 0 => self.dead_depth -= 1,
            WasmOp::End => self.end(offset)?,
            _ => {}
        }
        Ok(())
    }

    /// `loop`: a new header block, entered with the loop's parameters in
    /// their variables (assigned at the entry as at every back edge).
    fn open_loop(&mut self, b: Block, blockty: BlockType, offset: u64) -> Result<(), WasmError> {
        let (params, results) = self.block_sig(blockty, offset)?;
        self.materialise_all();
        let fi = self.push_frame(Kind::Loop, &params, &results);
        let header = self.block("loop");
        self.frames[fi].header = Some(header);
        self.branch_from(b, fi);
        self.enter(header);
        let fr = &self.frames[fi];
        for k in 0..fr.n_params {
            let v = self.vars[fr.vars + fr.n_results + k];
            self.stack[fr.base + k] = Val::Op(Operand::Var(v));
        }
        Ok(())
    }

    /// `if`: `b` ends in a branch to a `then` block (entered) and an
    /// `else` block; the parameters are saved for the `else` arm.
    fn open_if(&mut self, b: Block, blockty: BlockType, offset: u64) -> Result<(), WasmError> {
        let (params, results) = self.block_sig(blockty, offset)?;
        let cond = self.pop(offset)?;
        self.materialise_all();
        let fi = self.push_frame(Kind::If, &params, &results);
        let base = self.frames[fi].base;
        for k in base..self.stack.len() {
            let o = self.operand_at(k);
            self.saved.push(o);
        }
        let then_b = self.block("then");
        let else_b = self.block("else");
        self.frames[fi].else_block = Some(else_b);
        self.terminate(
            b,
            Terminator::Branch {
                cond,
                then_dest: then_b,
                else_dest: else_b,
            },
        );
        self.enter(then_b);
        Ok(())
    }

    /// `br_if`: a branch to the label's edge and a continuation block.
    fn br_if(&mut self, b: Block, relative_depth: u32, offset: u64) -> Result<(), WasmError> {
        let cond = self.pop(offset)?;
        let fi = self.depth_to_frame(relative_depth, offset)?;
        let target = self.edge_to(fi);
        let cont = self.block("cont");
        self.terminate(
            b,
            Terminator::Branch {
                cond,
                then_dest: target,
                else_dest: cont,
            },
        );
        self.enter(cont);
        Ok(())
    }

    /// `br_table`: a `switch` with one edge block per distinct target
    /// frame.
    fn br_table(
        &mut self,
        b: Block,
        targets: &wasmparser::BrTable<'_>,
        offset: u64,
    ) -> Result<(), WasmError> {
        let index = self.pop(offset)?;
        let mut block_of: FxHashMap<usize, Block> = FxHashMap::default();
        let mut blocks = Vec::with_capacity(targets.len() as usize);
        for d in targets.targets() {
            let fi = self.depth_to_frame(d?, offset)?;
            let blk = match block_of.get(&fi) {
                Some(&x) => x,
                None => {
                    let x = self.edge_to(fi);
                    block_of.insert(fi, x);
                    x
                }
            };
            blocks.push(blk);
        }
        let fi = self.depth_to_frame(targets.default(), offset)?;
        let default = match block_of.get(&fi) {
            Some(&x) => x,
            None => self.edge_to(fi),
        };
        let t = self.f.switch_term(index, default, &blocks);
        self.terminate(b, t);
        self.cur = None;
        Ok(())
    }

    /// `call`: a [`Call`](InstData::Call) of the callee's name, its
    /// results fresh variables pushed on the stack.
    fn call(&mut self, b: Block, function_index: u32, offset: u64) -> Result<(), WasmError> {
        let sig = self.m.signature(function_index).clone();
        let mut args = Vec::new();
        self.pop_n(sig.params.len(), &mut args, offset)?;
        let results: Vec<Var> = sig.results.iter().map(|&t| self.temp(t)).collect();
        let callee = self.syms.callees[function_index as usize];
        let args = self.f.list(&args);
        let rl = self.f.list(&results);
        let inst = self.emit(
            b,
            InstData::Call {
                callee,
                args,
                results: rl,
            },
        );
        self.note_def(b, inst, &results);
        self.push_vars(&results);
        Ok(())
    }

    /// `call_indirect`: the `call_indirect` operation, immediates the type
    /// and table index, the callee's table index the last operand.
    fn call_indirect(
        &mut self,
        b: Block,
        type_index: u32,
        table_index: u32,
        offset: u64,
    ) -> Result<(), WasmError> {
        let sig = self.m.types[type_index as usize]
            .clone()
            .ok_or_else(|| WasmError::at(offset, "not a function type"))?;
        let callee = self.pop(offset)?;
        let mut args = Vec::new();
        self.pop_n(sig.params.len(), &mut args, offset)?;
        args.push(callee);
        let results: Vec<Var> = sig.results.iter().map(|&t| self.temp(t)).collect();
        let op = self.syms.call_indirect;
        let inst = self.operation(
            b,
            op,
            &[type_index as i64, table_index as i64],
            &args,
            &results,
        );
        self.note_def(b, inst, &results);
        self.push_vars(&results);
        Ok(())
    }

    /// `select` (typed or not): the `select` operation of its three
    /// operands, its result typed as the validator has it.
    fn select(&mut self, b: Block, offset: u64) -> Result<(), WasmError> {
        let mut args = Vec::new();
        self.pop_n(3, &mut args, offset)?;
        let t = self.result_type(0, offset)?;
        let r = self.temp(t);
        let op = self.syms.select;
        let inst = self.operation(b, op, &[], &args, &[r]);
        self.note_def(b, inst, &[r]);
        self.push_vars(&[r]);
        Ok(())
    }

    fn push_vars(&mut self, vars: &[Var]) {
        self.stack
            .extend(vars.iter().map(|&v| Val::Op(Operand::Var(v))));
    }

    /// The type of the `depth`-th result from the top, as the validator
    /// has it after the operator.
    fn result_type(&self, depth: usize, offset: u64) -> Result<Type, WasmError> {
        match self.validator.get_operand_type(depth) {
            // The validator types `ref.func` (and a `select` of such
            // values) as a non-null reference to the function's type;
            // in WebAssembly 2.0 that is a `funcref` that is not null.
            Some(Some(wasmparser::ValType::Ref(r)))
                if r.is_concrete_type_ref() || r.heap_type() == wasmparser::HeapType::FUNC =>
            {
                Ok(Type::FuncRef)
            }
            Some(Some(t)) => val_type(t, offset),
            _ => Err(WasmError::at(offset, "result of unknown type")),
        }
    }

    fn generic(
        &mut self,
        b: Block,
        class: Class,
        imms: &[i64],
        offset: u64,
    ) -> Result<(), WasmError> {
        let (visit, (n_args, n_results)) = match class {
            Class::Generic {
                visit,
                arity: Some(a),
            } => (visit, a),
            Class::Generic { visit, arity: None } => {
                return Err(WasmError::at(
                    offset,
                    format!("operator `{}` is not supported", operators::mnemonic(visit)),
                )
                .with_kind(crate::error::ErrorKind::Unsupported))
            }
            Class::Unsupported(p) => {
                return Err(WasmError::at(
                    offset,
                    format!("operators of the `{p}` proposal are not supported"),
                )
                .with_kind(crate::error::ErrorKind::Unsupported))
            }
        };
        // The operands and results through two scratch buffers (this runs
        // once per operator: no list of its own each time).
        let mut args = std::mem::take(&mut self.args_buf);
        let mut results = std::mem::take(&mut self.results_buf);
        let mut run = || -> Result<(), WasmError> {
            self.pop_n(n_args as usize, &mut args, offset)?;
            let n = n_results as usize;
            results.clear();
            for k in 0..n {
                let t = self.result_type(n - 1 - k, offset)?;
                results.push(self.temp(t));
            }
            let op = self.syms.op(visit);
            let inst = self.operation(b, op, imms, &args, &results);
            self.note_def(b, inst, &results);
            self.push_vars(&results);
            Ok(())
        };
        let r = run();
        (self.args_buf, self.results_buf) = (args, results);
        r
    }

    fn top_frame(&self, offset: u64) -> Result<usize, WasmError> {
        self.frames
            .len()
            .checked_sub(1)
            .ok_or_else(|| WasmError::at(offset, "no open block"))
    }

    fn else_(&mut self, offset: u64) -> Result<(), WasmError> {
        let fi = self.top_frame(offset)?;
        if self.frames[fi].kind != Kind::If {
            return Err(WasmError::at(offset, "`else` outside `if`"));
        }
        if let Some(b) = self.cur {
            self.branch_from(b, fi);
        }
        self.frames[fi].kind = Kind::Else;
        self.start_else(fi);
        Ok(())
    }

    /// Continues in the `else` arm of `if` frame `fi`, with its parameters
    /// on the stack again.
    fn start_else(&mut self, fi: usize) {
        let fr = self.frames[fi].clone();
        self.stack.truncate(fr.base);
        for k in 0..fr.n_params {
            let o = self.saved[fr.saved + k];
            self.stack.push(Val::Op(o));
        }
        self.enter(fr.else_block.expect("an if frame"));
    }

    fn end(&mut self, offset: u64) -> Result<(), WasmError> {
        let fi = self.top_frame(offset)?;
        let kind = self.frames[fi].kind;
        match kind {
            Kind::Func => {
                if let Some(b) = self.cur {
                    self.branch_from(b, fi);
                    self.cur = None;
                }
            }
            Kind::If => {
                // No `else`: the false edge carries the parameters to the
                // end as its results.
                if let Some(b) = self.cur {
                    self.branch_from(b, fi);
                }
                self.start_else(fi);
                let b = self.cur.expect("else arm");
                self.branch_from(b, fi);
                self.cur = None;
            }
            Kind::Block | Kind::Loop | Kind::Else => {
                if let Some(b) = self.cur {
                    if self.frames[fi].end.is_some() {
                        self.branch_from(b, fi);
                        self.cur = None;
                    }
                    // Else only falling through reaches the end: the
                    // results stay on the stack, no block is needed.
                }
            }
        }
        let fr = self.frames.pop().expect("top frame");
        if kind != Kind::Func {
            if let Some(end) = fr.end {
                self.stack.truncate(fr.base);
                self.enter(end);
                for k in 0..fr.n_results {
                    let v = self.vars[fr.vars + k];
                    self.stack.push(Val::Op(Operand::Var(v)));
                }
            } else if self.cur.is_none() {
                self.stack.truncate(fr.base);
            }
        }
        self.vars.truncate(fr.vars);
        self.saved.truncate(fr.saved);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::numbered;

    /// Names as `format!("{prefix}{n}")` writes them, into one buffer.
    #[test]
    fn numbered_names() {
        let mut buf = String::from("left over");
        assert_eq!(numbered(&mut buf, "t", 0), "t0");
        assert_eq!(numbered(&mut buf, "block", 1907), "block1907");
        assert_eq!(numbered(&mut buf, "l", u64::MAX), format!("l{}", u64::MAX));
    }
}
