//! Why a function cannot be emitted: one [`EmitError`] variant per
//! reason, holding the entities it is about, so that the steps and their
//! tests decide on the variant; the [`WasmError`] a caller sees is made
//! from it at the front door ([`EmitError::located`]), with the message
//! naming the function.

use crate::error::WasmError;
use ssakit::ir::{Block, Callee, Function, Operator};

/// Why a function cannot be emitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EmitError {
    /// A retreating edge whose target does not dominate its source
    /// (`emit/structure.rs`).
    Irreducible {
        /// The edge's source.
        from: Block,
        /// Its target.
        to: Block,
    },
    /// More locals than engines accept, parameters included.
    TooManyLocals {
        /// Parameters and declared locals.
        needed: usize,
        /// The most engines accept (`MAX_LOCALS`).
        limit: usize,
    },
    /// The last store of an arm of an `if` with a result was not the last
    /// instruction written (`emit/results.rs` and the emitter disagree).
    IfResultNotStoredLast,
    /// A `ret` with another number of values than the signature's.
    ReturnCount {
        /// The values returned.
        values: usize,
        /// The signature's results.
        results: usize,
    },
    /// A callee the lowering maps to no function.
    NoFunction(Callee),
    /// A function index past the lowering's `func_types`.
    FunctionOutOfRange(u32),
    /// A type index that is not a function type.
    NotFunctionType(u32),
    /// A `print` of an arity the lowering maps to no import.
    NoPrint {
        /// The number of arguments.
        arity: usize,
    },
    /// A phi (the function is not destructed).
    Phi,
    /// An operation that is not a WebAssembly operator.
    NotOperator(Operator),
    /// An operator with operands or immediates of the wrong shape.
    Malformed(Shape),
    /// A `global.set` of a global the lowering does not know.
    GlobalOutOfRange(i64),
    /// Immediates the operator's builder refuses.
    BadImmediates(Operator),
    /// The operator could not be re-encoded.
    Reencode(String),
}

/// The operators whose shape the lowering checks itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `select`: three operands, one result.
    Select,
    /// `call_indirect`: immediates `[type, table]`, an index last.
    CallIndirect,
    /// `global.set`: immediate `[global]`, one operand.
    GlobalSet,
}

impl EmitError {
    /// The error as callers see it: of kind
    /// [`Input`](crate::error::ErrorKind::Input), its message naming `f`.
    pub(crate) fn located(&self, f: &Function) -> WasmError {
        WasmError::new(format!("emitting `{}`: {}", f.name(), self.message(f)))
    }

    /// What is wrong, with `f`'s names for its entities.
    fn message(&self, f: &Function) -> String {
        match self {
            EmitError::Irreducible { from, to } => format!(
                "irreducible control flow (edge {} -> {})",
                f.block_name(*from),
                f.block_name(*to)
            ),
            EmitError::TooManyLocals { needed, limit } => format!(
                "not supported: it needs {needed} locals (values live at once across \
                 a block or loop), more than the {limit} WebAssembly engines accept; \
                 the emitter keeps no value on the operand stack across a block"
            ),
            EmitError::IfResultNotStoredLast => "an `if` result is not stored last".into(),
            EmitError::ReturnCount { values, results } => {
                format!("returns {values} values, the signature {results}")
            }
            EmitError::NoFunction(c) => {
                format!("no function for callee `{}`", f.callee_name(*c))
            }
            EmitError::FunctionOutOfRange(k) => format!("function {k} out of range"),
            EmitError::NotFunctionType(t) => format!("type {t} is not a function type"),
            EmitError::NoPrint { arity } => format!("no import for print of {arity}"),
            EmitError::Phi => "a phi is left (destruct first)".into(),
            EmitError::NotOperator(op) => {
                format!("`{}` is not a WebAssembly operator", f.operator_name(*op))
            }
            EmitError::Malformed(Shape::Select) => {
                "select needs three operands and one result".into()
            }
            EmitError::Malformed(Shape::CallIndirect) => {
                "call_indirect needs [type, table] and an index".into()
            }
            EmitError::Malformed(Shape::GlobalSet) => {
                "global.set needs [global] and one operand".into()
            }
            EmitError::GlobalOutOfRange(g) => format!("global {g} out of range"),
            EmitError::BadImmediates(op) => {
                format!("bad immediates for `{}`", f.operator_name(*op))
            }
            EmitError::Reencode(e) => format!("re-encoding: {e}"),
        }
    }
}
