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
//!   falls through anyway goes, and so does a label no branch targets, a
//!   `block` left by a `br_if 0` after straight code only becomes an
//!   `if` on the negated condition; a
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
//!   `local.tee`; a comparison then `i32.eqz` is the opposite comparison,
//!   a negated condition loses its `i32.eqz`, and `x + C` is `x - (-C)`
//!   when `-C` is shorter (`emit/peephole.rs`); an `if`/`else` whose arms both end storing one local
//!   carries the value as its result (`emit/results.rs`); a store of zero
//!   at entry into a local still zero (`0`, `+0.0`, the zero vector, the
//!   null reference) is left out (`emit/zeros.rs`).
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
// the code (`emitter`, writing through `peephole`). `dump` prints the
// result of one (`wasm opt --dump`).
mod ctl;
pub(crate) mod dump;
mod emitter;
mod error;
mod exit;
mod key;
mod locals;
mod lower;
mod peephole;
mod plan;
mod results;
mod stackify;
mod structure;
#[cfg(test)]
mod tests;
mod tidy;
mod zeros;

use crate::error::WasmError;
use ctl::Structured;
use emitter::{Emitter, Inputs};
use error::EmitError;
pub(crate) use locals::MAX_LOCALS;
pub use lower::{Lowering, OpTable};
pub use plan::val_type;
use plan::Plan;
use ssakit::entity::SecondaryMap;
use ssakit::ir::{Function, Inst, Operand, Terminator, Type};
use stackify::Stackified;
use wasm_encoder::ValType;

/// Which step's result `ssakit wasm opt --dump` prints
/// ([`crate::rewrite::dump`]).
///
/// ```
/// use ssakit_wasm::{emit::Dump, rewrite::dump};
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func $f (param i64) (result i64)
///     (local i64) (local.set 1 (i64.mul (local.get 0) (local.get 0)))
///     (i64.add (local.get 1) (local.get 1))))").unwrap();
/// let text = dump(&wasm, &Default::default(), Dump::Locals).unwrap();
/// // The square, read twice, takes the parameter's local, dead by then.
/// assert!(text.contains("local 0 i64 (param): "), "{text}");
/// assert!(text.contains("0 declared locals"), "{text}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dump {
    /// The structured control flow, after tidying and the final `ret`.
    Structure,
    /// What stays on the stack, is teed, dropped, absorbed.
    Stackify,
    /// Each variable's local, the locals' types and groups.
    Locals,
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
        let limit = MAX_LOCALS;
        return Err(EmitError::TooManyLocals { needed, limit }.located(f));
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
    emit_steps(f, low).map_err(|e| e.located(f))
}

/// The steps, then the code, with the error of the step that failed.
fn emit_steps(f: &Function, low: &Lowering<'_>) -> Result<EmittedFunction, EmitError> {
    Steps::run(f, low)?.emit(f)
}

/// The steps of emission before the code is written, each one's result
/// (`ssakit wasm opt --dump` prints them: `emit/dump.rs`).
pub(crate) struct Steps {
    /// Structure: Ramsey's structured control flow, tidied
    /// ([`structure`]); exit: a final `ret` moved after the loops around
    /// it (`emit/exit.rs`).
    pub(crate) structured: Structured,
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
    pub(crate) fn run(f: &Function, low: &Lowering<'_>) -> Result<Steps, EmitError> {
        let structured = Steps::structure(f)?;
        let mut plan = Plan::new(f, low, &structured);
        let stackified = stackify::stackify_planned(f, &mut plan, &structured)?;
        let (locals, scratch) = Steps::locals(f, &structured, &stackified)?;
        let carried = results::if_results(f, &structured, &stackified, &locals.local);
        let zero = zeros::implicit_zeros(
            f,
            low.ops,
            &structured,
            &stackified,
            &locals.local,
            locals.count,
        );
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
    fn structure(f: &Function) -> Result<Structured, EmitError> {
        let mut s = structure::structure(f).map_err(|e| EmitError::Irreducible {
            from: e.from,
            to: e.to,
        })?;
        exit::hoist_final_ret(&mut s);
        Ok(s)
    }

    /// Locals: the assignment, and the scratch `i64` after the assigned
    /// locals, declared when a selector is `i64`; or the two values the
    /// assignment put in one local where both are live.
    fn locals(
        f: &Function,
        s: &Structured,
        st: &Stackified,
    ) -> Result<(locals::Assignment, u32), EmitError> {
        let mut alloc = locals::assign(f, s, st);
        if let Some((a, b)) = alloc.clash {
            return Err(EmitError::SharedLocal(a, b));
        }
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
        Ok((alloc, scratch))
    }

    /// Emission: the code of `f`, item by item of the structure
    /// (`emit/emitter.rs`).
    fn emit(self, f: &Function) -> Result<EmittedFunction, EmitError> {
        let inputs = Inputs {
            plan: &self.plan,
            st: self.stackified,
            local: self.locals.local,
            groups: self.locals.groups,
            scratch: self.scratch,
            zero: self.zero,
        };
        let func = Emitter::new(f, inputs).function(&self.structured, &self.carried)?;
        Ok(EmittedFunction {
            func,
            locals: self.locals.count,
        })
    }
}
