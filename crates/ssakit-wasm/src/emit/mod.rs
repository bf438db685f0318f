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
//!   (`emit/lower.rs`); `select` is typed when its result is a reference;
//!   `call_indirect`'s last operand is the table index.
//! * **ssakit's built-ins** are `i64` arithmetic: `+ - * / % & | ^ << >>`
//!   are `i64.add ... i64.shr_s` (so `/` traps on `i64::MIN / -1` where
//!   `ssakit run` wraps), comparisons `i64.eq ... i64.ge_s` extended to
//!   `i64` when their destination is `i64` (a `bool` destination is an
//!   `i32`), `-x` is `0 - x`, `!x` is `i64.eqz`; `print a, b` calls the
//!   lowering's import for that arity with `i64` arguments. An `i32` (or
//!   `bool`) operand where an `i64` is wanted is zero-extended; a branch
//!   condition of type `i64` is tested against zero; a `switch` selector
//!   of type `i64` outside `0..2^32` becomes `u32::MAX` (through a
//!   scratch local), so that it takes the default as `ssakit run` does.
//! * **Literals** take the type their position wants (`emit/lower.rs` keeps
//!   which operands of each operator are `i64`); `undef` is a zero of that
//!   type; a copy of `undef` emits nothing.
//! * **Control flow** (`emit/structure.rs`): Ramsey's structured translation of
//!   reducible CFGs (a child ending in `ret` placed to come last when it
//!   can); an irreducible CFG is an error. Then `emit/tidy.rs`: an
//!   `if` with a lone `br` arm becomes a `br_if`, a `br` to where control
//!   falls through anyway goes, and so does a label no branch targets; a
//!   final `ret` needs no `return`, and one that ends the loops around it
//!   moves after their `end`s (`emit/exit.rs`).
//! * **The operand stack** (`emit/stackify.rs`): a value defined once and used
//!   once by an instruction that follows its definition's tree in the same
//!   block stays on the stack, the definition moved down to its user when
//!   its tree has no effect and nothing in between writes what it reads;
//!   a value read more than once is defined with a `local.tee` in the
//!   tree of its first reader when it comes right before it, per
//!   definition for a variable with several (a phi web); a value read
//!   once, as its reader's first operand, later in the block, stays on
//!   the stack under the trees in between;
//!   a result never used is dropped; a
//!   `local.set` right before a `local.get` of the same local is one
//!   `local.tee`; an `if`/`else` whose arms both end storing one local
//!   carries the value as its result (`emit/results.rs`); a store of zero
//!   at entry into a local still zero is left out (`emit/zeros.rs`).
//! * **Variables** (`emit/locals.rs`): parameters keep their indices; every
//!   other variable left gets a local, variables of one type whose live
//!   ranges do not overlap, or that hold one value, sharing one; the most
//!   used locals get the smallest indices.
//!
//! ```
//! use ssakit::ir::Type;
//! let f = ssakit::text::parse_module("function f(a, b) {\nentry:\n  c = a + b\n  ret c\n}\n")
//!     .unwrap()
//!     .functions
//!     .remove(0);
//! let ops = ssakit_wasm::emit::OpTable::new(f.symbols());
//! let sig = ssakit_wasm::module::Signature { params: vec![Type::I64; 2], results: vec![Type::I64] };
//! let types = [Some(sig)];
//! let low = ssakit_wasm::emit::Lowering {
//!     ops: &ops, callees: &[], func_types: &[0], types: &types, globals: &[], print: &[],
//! };
//! let e = ssakit_wasm::emit::emit_function(&f, &low).unwrap();
//! assert_eq!(e.locals, 0);
//! ```

// The steps, in order (`Steps::run`, then `Steps::emit`): structure
// (`structure`, `tidy`) → exit → plan (each instruction's operands and
// action, computed once) → stackify → locals → results and zeros →
// the code. `dump` prints the result of one (`wasm opt --dump`).
mod ctl;
pub(crate) mod dump;
mod exit;
mod key;
mod locals;
mod lower;
mod plan;
mod results;
mod stackify;
mod structure;
#[cfg(test)]
mod tests;
mod tidy;
mod zeros;

use crate::error::WasmError;
use crate::module::Signature;
pub use dump::Dump;
pub use lower::OpTable;
use plan::{Action, Plan};
use ssakit::entity::SecondaryMap;
use ssakit::ir::{Block, Function, Inst, InstData, Operand, Terminator, Type, Var};
use stackify::{Node, Stackified};
use structure::Ctl;
use wasm_encoder::{BlockType, Instruction as I, ValType};

/// How a function's names map to the module being built.
///
/// ```
/// use ssakit::ir::Type;
/// use ssakit_wasm::emit::{emit_function, Lowering, OpTable};
/// // `g` (function 0, type 0) calls `h` (function 1, type 1).
/// let m = ssakit::text::parse_module(
///     "function g(a) {\nentry:\n  r = h(a)\n  ret r\n}\nfunction h(a) {\nentry:\n  ret a\n}\n",
/// )
/// .unwrap();
/// let g = &m.functions[0];
/// let ops = OpTable::new(g.symbols());
/// let one = ssakit_wasm::module::Signature { params: vec![Type::I64], results: vec![Type::I64] };
/// let types = [Some(one.clone()), Some(one)];
/// let h = g.symbols().find_callee("h").unwrap();
/// let mut callees = vec![None; h.index() + 1];
/// callees[h.index()] = Some(1);
/// let low = Lowering {
///     ops: &ops, callees: &callees, func_types: &[0, 1], types: &types, globals: &[], print: &[],
/// };
/// assert!(emit_function(g, &low).is_ok());
/// let no_callees = Lowering { callees: &[], ..low };
/// assert!(emit_function(g, &no_callees).is_err()); // `h` is not mapped
/// ```
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
///
/// ```
/// # use ssakit::ir::Type;
/// # let f = ssakit::text::parse_module("function f(a, b) {\nentry:\n  x = a + b\n  y = x * x\n  ret y\n}\n").unwrap().functions.remove(0);
/// # let ops = ssakit_wasm::emit::OpTable::new(f.symbols());
/// # let sig = ssakit_wasm::module::Signature { params: vec![Type::I64; 2], results: vec![Type::I64] };
/// # let types = [Some(sig)];
/// # let low = ssakit_wasm::emit::Lowering {
/// #     ops: &ops, callees: &[], func_types: &[0], types: &types, globals: &[], print: &[],
/// # };
/// let e = ssakit_wasm::emit::emit_function(&f, &low).unwrap();
/// // `x`, read twice, takes the local of `a`, dead by then; `y` stays on
/// // the stack.
/// assert_eq!(e.locals, 0);
/// let mut code = wasm_encoder::CodeSection::new();
/// code.function(&e.func);
/// assert_eq!(code.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct EmittedFunction {
    /// The body, for a `wasm_encoder::CodeSection`.
    pub func: wasm_encoder::Function,
    /// Declared locals (parameters not counted).
    pub locals: usize,
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

/// The most locals (parameters included) a function may have: the
/// implementation limit of the WebAssembly JavaScript API, which
/// wasmparser's validator applies.
pub(crate) const MAX_LOCALS: usize = 50_000;

fn err(f: &Function, msg: impl std::fmt::Display) -> WasmError {
    WasmError::new(format!("emitting `{}`: {msg}", f.name()))
}

struct Emitter<'f, 'a> {
    f: &'f Function,
    /// Each instruction's operands and action.
    plan: &'a Plan,
    local: locals::Locals,
    st: Stackified,
    out: wasm_encoder::Function,
    returns: Vec<ValType>,
    /// A scratch `i64` local for clamping `switch` selectors ([`Want::Index`]).
    scratch: u32,
    /// A `local.set` not written yet (see [`Emitter::ins`]).
    pending_set: Option<(u32, bool)>,
    /// Scratch of [`Emitter::tree`]: its frames.
    frames: Vec<Frame>,
    /// The instruction being finished ends with `local.tee`
    /// ([`Stackified::teed`]).
    tee_now: bool,
    /// Per instruction slot: a store of zero into a local still zero
    /// (`emit/zeros.rs`), not emitted.
    zero: SecondaryMap<Inst, bool>,
    /// The pending `local.set` of an `if`'s result read once
    /// (`emit/results.rs`): with the `local.get` right after it, both go.
    vanish: Option<u32>,
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

/// One tree being emitted: its node, the next operand, its operands, and
/// the conversion its value needs once on the stack.
struct Frame {
    node: Node,
    /// Its operands, [`Plan::op`]`(next..end)` still to push.
    next: usize,
    end: usize,
    conv: Option<(ValType, Want)>,
}

impl Emitter<'_, '_> {
    /// Appends `i`; a `local.set l` or `local.tee l` waits for the next
    /// instruction: `local.set l; local.get l` is `local.tee l` (the same
    /// effect, two bytes fewer), and `local.tee l; local.set l` (a tee'd
    /// value copied into a variable sharing its local) `local.set l`.
    fn ins(&mut self, i: I<'_>) {
        let vanish = self.vanish.take();
        if let Some((l, tee)) = self.pending_set.take() {
            match i {
                I::LocalGet(g) if g == l && vanish == Some(l) => return,
                I::LocalGet(g) if g == l && !tee => {
                    self.out.instruction(&I::LocalTee(l));
                    return;
                }
                I::LocalSet(g) if g == l && tee => {
                    self.pending_set = Some((l, false));
                    return;
                }
                _ if tee => self.out.instruction(&I::LocalTee(l)),
                _ => self.out.instruction(&I::LocalSet(l)),
            };
        }
        match i {
            I::LocalSet(l) => self.pending_set = Some((l, false)),
            I::LocalTee(l) => self.pending_set = Some((l, true)),
            _ => {
                self.out.instruction(&i);
            }
        }
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

    fn convert(&mut self, have: ValType, want: Want) {
        match (have, want) {
            (ValType::I32, Want::V(ValType::I64)) => self.ins(I::I64ExtendI32U),
            (ValType::I64, Want::V(ValType::I32)) => self.ins(I::I32WrapI64),
            (ValType::I64, Want::Truth) => {
                self.ins(I::I64Eqz);
                self.ins(I::I32Eqz);
            }
            (ValType::I64, Want::Index) => {
                // select(wrap(s), u32::MAX, s <=u u32::MAX)
                self.ins(I::LocalTee(self.scratch));
                self.ins(I::I32WrapI64);
                self.ins(I::I32Const(-1));
                self.ins(I::LocalGet(self.scratch));
                self.ins(I::I64Const(u32::MAX as i64));
                self.ins(I::I64LeU);
                self.ins(I::Select);
            }
            _ => {}
        }
    }

    /// Pushes `o` (not a stackified variable) as `want`.
    fn leaf(&mut self, o: Operand, want: Want) {
        let wv = match want {
            Want::V(t) => t,
            Want::Truth | Want::Index => ValType::I32,
        };
        match o {
            Operand::Var(v) => {
                // A value left on the stack is there already, on top.
                if !self.st.stacked[v] {
                    self.ins(I::LocalGet(locals::index(&self.local, v)));
                }
                self.convert(val_type(self.f.var_type(v)), want);
            }
            Operand::Const(c) => match want {
                Want::Truth => self.ins(I::I32Const((c != 0) as i32)),
                Want::Index => self.ins(I::I32Const(u32::try_from(c).unwrap_or(u32::MAX) as i32)),
                Want::V(ValType::I32) => self.ins(I::I32Const(c as i32)),
                Want::V(ValType::I64) => self.ins(I::I64Const(c)),
                Want::V(ValType::F32) => self.ins(I::F32Const(f32::from_bits(c as u32).into())),
                Want::V(ValType::F64) => self.ins(I::F64Const(f64::from_bits(c as u64).into())),
                Want::V(ValType::V128) => self.ins(I::V128Const(c as i128)),
                Want::V(ValType::Ref(_)) => self.zero(wv),
            },
            Operand::Undef => self.zero(wv),
        }
    }

    /// Stores the top value into `v` (kept on the stack when stackified,
    /// dropped when never read).
    fn set(&mut self, v: Var) {
        if self.st.on_stack[v] || self.st.stacked[v] {
            return;
        }
        if self.st.dead[v] {
            self.ins(I::Drop);
            return;
        }
        if self.tee_now {
            self.ins(I::LocalTee(locals::index(&self.local, v)));
            return;
        }
        self.ins(I::LocalSet(locals::index(&self.local, v)));
    }

    /// Emits the tree rooted at `root` (see [`stackify`]), iteratively.
    fn tree(&mut self, root: Node) -> Result<(), WasmError> {
        let mut st = std::mem::take(&mut self.frames);
        st.clear();
        let r = self.tree_in(root, &mut st);
        self.frames = st;
        r
    }

    /// [`Emitter::tree`] with its scratch.
    fn tree_in(&mut self, root: Node, st: &mut Vec<Frame>) -> Result<(), WasmError> {
        let plan = self.plan;
        let (next, end) = plan.reads(root)?;
        st.push(Frame {
            node: root,
            next,
            end,
            conv: None,
        });
        while let Some(top) = st.last_mut() {
            if top.next < top.end {
                let ((o, want), user) = (plan.op(top.next), top.node);
                top.next += 1;
                let child = match o {
                    Operand::Var(t) => self.st.child(user, t).map(|d| (t, d)),
                    _ => None,
                };
                match child {
                    Some((t, d)) => {
                        let node = Node::Inst(d);
                        let (next, end) = plan.reads(node)?;
                        st.push(Frame {
                            node,
                            next,
                            end,
                            conv: Some((val_type(self.f.var_type(t)), want)),
                        });
                    }
                    None => self.leaf(o, want),
                }
            } else {
                let fr = st.pop().expect("a frame");
                if let Node::Inst(i) = fr.node {
                    self.tee_now = self.st.teed[i];
                    self.finish(i)?;
                }
                if let Some((have, want)) = fr.conv {
                    self.convert(have, want);
                }
            }
        }
        Ok(())
    }

    /// The action of `inst` and the stores of its results, its operands
    /// being on the stack ([`Plan`]).
    fn finish(&mut self, inst: Inst) -> Result<(), WasmError> {
        let plan = self.plan;
        match plan.action(inst)? {
            Action::Nothing => return Ok(()),
            Action::Store => {}
            Action::Op(k) => self.ins(plan.instruction(k).clone()),
            Action::Truth(k, extend) => {
                self.ins(plan.instruction(k).clone());
                if extend {
                    self.ins(I::I64ExtendI32U);
                }
            }
            Action::Call(k, drops) => {
                self.ins(plan.instruction(k).clone());
                for _ in 0..drops {
                    self.ins(I::Drop);
                }
            }
        }
        for &r in plan.dsts(inst).iter().rev() {
            self.set(r);
        }
        Ok(())
    }

    fn body(&mut self, b: Block) -> Result<(), WasmError> {
        for &i in self.f.block_insts(b) {
            if !self.st.absorbed[i] && !self.skip(i) {
                self.tree(Node::Inst(i))?;
            }
        }
        Ok(())
    }

    /// A copy that moves nothing (into a variable never read, or from a
    /// variable to itself: one local), or a literal nothing reads.
    fn skip(&self, i: Inst) -> bool {
        // Whatever its source: [`stackify`] made it no user, so a source
        // on the stack is another user's child, which must not run again.
        if self.st.drops(self.f, i) || self.zero[i] {
            return true;
        }
        let InstData::Copy { dst, src } = *self.f.inst(i) else {
            return false;
        };
        let src_local = match src {
            // Its source's definition is emitted in its tree.
            Operand::Var(s) if self.st.child(Node::Inst(i), s).is_some() => return false,
            Operand::Var(s) if self.st.stacked[s] => return false,
            Operand::Var(s) => Some(self.local[s]),
            _ => None,
        };
        if self.st.on_stack[dst] || self.st.stacked[dst] {
            return false;
        }
        src_local == Some(self.local[dst])
    }
}

/// Emits `f` (destructed) as a function body (see the module
/// documentation).
///
/// # Errors
/// An irreducible CFG, a phi, an operation that is not a WebAssembly
/// operator or has bad immediates, a callee or `print` arity the lowering
/// does not map.
///
/// ```
/// # use ssakit::ir::Type;
/// # let f = ssakit::text::parse_module("function f(a, b) {\nentry:\n  branch a, l, r\nl:\n  ret a\nr:\n  ret b\n}\n").unwrap().functions.remove(0);
/// # let ops = ssakit_wasm::emit::OpTable::new(f.symbols());
/// # let sig = ssakit_wasm::module::Signature { params: vec![Type::I64; 2], results: vec![Type::I64] };
/// # let types = [Some(sig)];
/// # let low = ssakit_wasm::emit::Lowering {
/// #     ops: &ops, callees: &[], func_types: &[0], types: &types, globals: &[], print: &[],
/// # };
/// let e = ssakit_wasm::emit::emit_function(&f, &low).unwrap();
/// assert_eq!(e.locals, 0);
/// // Two entries into the loop of `a` and `b`: irreducible.
/// let g = ssakit::text::parse_module(
///     "function g(c) {\nentry:\n  branch c, a, b\na:\n  jump b\nb:\n  jump a\n}\n",
/// )
/// .unwrap();
/// assert!(ssakit_wasm::emit::emit_function(&g.functions[0], &low).is_err());
/// ```
pub fn emit_function(f: &Function, low: &Lowering<'_>) -> Result<EmittedFunction, WasmError> {
    let e = emit_unchecked(f, low)?;
    let needed = f.params().len() + e.locals;
    if needed > MAX_LOCALS {
        // Values live at once each need a local of their own: a module
        // that keeps more of them on its operand stack across a block
        // than there may be locals cannot be emitted this way.
        return Err(err(
            f,
            format!(
                "not supported: it needs {needed} locals (values live at once across \
                 a block or loop), more than the {MAX_LOCALS} WebAssembly engines accept; \
                 the emitter keeps no value on the operand stack across a block"
            ),
        ));
    }
    Ok(e)
}

/// [`emit_function`] without the limit on locals: the caller checks
/// `params + locals` against [`MAX_LOCALS`] ([`crate::rewrite`] keeps
/// the input's body of a function over it).
pub(crate) fn emit_unchecked(
    f: &Function,
    low: &Lowering<'_>,
) -> Result<EmittedFunction, WasmError> {
    Steps::run(f, low)?.emit(f)
}

/// The steps of emission before the code is written, each one's result
/// (`ssakit wasm opt --dump` prints them: `emit/dump.rs`).
pub(crate) struct Steps {
    /// Structure: Ramsey's structured control flow, tidied
    /// ([`structure`]); exit: a final `ret` moved after the loops around
    /// it (`emit/exit.rs`).
    pub(crate) structured: structure::Structured,
    /// Each instruction's operands with their wants, and its action
    /// (`emit/plan.rs`).
    pub(crate) plan: Plan,
    /// Stackify: what stays on the stack, is teed, dropped, absorbed
    /// ([`stackify`]).
    pub(crate) stackified: Stackified,
    /// Locals: each variable's local and the declarations ([`locals`]),
    /// with the scratch `i64` of a wide `switch` selector last.
    pub(crate) locals: locals::Assignment,
    /// The scratch local's index (declared only when a selector is an
    /// `i64`): the first past the assigned locals.
    pub(crate) scratch: u32,
    /// Results: per structured item, what it does with an `if`'s result
    /// (`emit/results.rs`).
    pub(crate) carried: Vec<Option<results::Carry>>,
    /// Zeros: per instruction slot, a store of zero into a local still
    /// zero, left out (`emit/zeros.rs`).
    pub(crate) zero: SecondaryMap<Inst, bool>,
}

impl Steps {
    /// Runs the steps on `f` (destructed), in order: structure → exit →
    /// plan → stackify → locals → results and zeros.
    pub(crate) fn run(f: &Function, low: &Lowering<'_>) -> Result<Steps, WasmError> {
        let structured = Steps::structure(f)?;
        let plan = Plan::new(f, low, &structured);
        let stackified = stackify::stackify_planned(f, &plan, &structured)?;
        let (locals, scratch) = Steps::locals(f, &structured, &stackified);
        let carried = results::if_results(f, &structured, &stackified, &locals.local);
        let zero = zeros::implicit_zeros(f, &structured, &stackified, &locals.local, locals.count);
        Ok(Steps {
            structured,
            plan,
            stackified,
            locals,
            scratch,
            carried,
            zero,
        })
    }

    /// Structure and exit: the structured form of `f`, or the edge that
    /// makes it irreducible.
    fn structure(f: &Function) -> Result<structure::Structured, WasmError> {
        let mut s = structure::structure(f).map_err(|e| {
            err(
                f,
                format!(
                    "irreducible control flow (edge {} -> {})",
                    f.block_name(e.from),
                    f.block_name(e.to)
                ),
            )
        })?;
        exit::hoist_final_ret(&mut s);
        Ok(s)
    }

    /// Locals: the assignment, and the scratch `i64` after the assigned
    /// locals, declared when a selector is `i64`.
    fn locals(
        f: &Function,
        s: &structure::Structured,
        st: &Stackified,
    ) -> (locals::Assignment, u32) {
        let mut alloc = locals::assign(f, s, st);
        let scratch = (f.params().len() + alloc.count) as u32;
        let wide_selector = f.layout().iter().any(|&b| match *f.term(b) {
            Terminator::Switch {
                value: Operand::Var(v),
                ..
            } => f.var_type(v) == Type::I64,
            _ => false,
        });
        if wide_selector {
            alloc.groups.push((1, ValType::I64));
            alloc.count += 1;
        }
        (alloc, scratch)
    }

    /// Emission: the code of `f`, item by item of the structure.
    fn emit(self, f: &Function) -> Result<EmittedFunction, WasmError> {
        let Steps {
            structured: s,
            plan,
            stackified: st,
            locals: alloc,
            scratch,
            carried,
            zero,
        } = self;
        let returns: Vec<ValType> = f
            .returns()
            .map(|r| r.iter().map(|&t| val_type(t)).collect())
            .unwrap_or_default();
        let mut e = Emitter {
            f,
            plan: &plan,
            local: alloc.local,
            st,
            out: wasm_encoder::Function::new(alloc.groups),
            returns,
            scratch,
            pending_set: None,
            frames: Vec::new(),
            tee_now: false,
            zero,
            vanish: None,
        };
        let last = s.items.len().wrapping_sub(1);
        for (k, &c) in s.items.iter().enumerate() {
            match c {
                Ctl::Body(b) => {
                    e.body(b)?;
                    // The last store of an arm of an `if` with a result: its
                    // value stays on the stack (`emit/results.rs`).
                    if let Some(results::Carry::Keep(l)) = carried[k] {
                        if e.pending_set.take() != Some((l, false)) {
                            return Err(err(f, "an `if` result is not stored last"));
                        }
                    }
                }
                Ctl::Block => e.ins(I::Block(BlockType::Empty)),
                Ctl::Loop => e.ins(I::Loop(BlockType::Empty)),
                Ctl::If(b) => {
                    e.tree(Node::Term(b))?;
                    e.ins(I::If(match carried[k] {
                        Some(results::Carry::Result(t)) => BlockType::Result(t),
                        _ => BlockType::Empty,
                    }));
                }
                Ctl::Else => e.ins(I::Else),
                Ctl::End => {
                    e.ins(I::End);
                    if let Some(results::Carry::Store(_, l, once)) = carried[k] {
                        e.ins(I::LocalSet(l));
                        e.vanish = once.then_some(l);
                    }
                }
                Ctl::Br(d) => e.ins(I::Br(d)),
                Ctl::BrIf {
                    block,
                    negate,
                    depth,
                } => {
                    e.tree(Node::Term(block))?;
                    if negate {
                        e.ins(I::I32Eqz);
                    }
                    e.ins(I::BrIf(depth));
                }
                Ctl::BrTable {
                    block,
                    start,
                    len,
                    default,
                } => {
                    e.tree(Node::Term(block))?;
                    let depths = &s.depths[start as usize..(start + len) as usize];
                    e.ins(I::BrTable(depths.into(), default));
                }
                Ctl::Ret(b) => {
                    e.tree(Node::Term(b))?;
                    // The last item needs no `return`: the body's `end` follows.
                    if k != last {
                        e.ins(I::Return);
                    }
                }
                Ctl::Unreachable => e.ins(I::Unreachable),
            }
        }
        // After a final `end` the function's results must be on the stack:
        // that point is never reached (every path returned or branched).
        if matches!(s.items.last(), Some(Ctl::End))
            && (f.returns().is_none() || !e.returns.is_empty())
        {
            e.ins(I::Unreachable);
        }
        e.ins(I::End);
        Ok(EmittedFunction {
            func: e.out,
            locals: alloc.count,
        })
    }
}
