//! Runtime errors of the interpreter and where they happened.

use crate::ir::{BinOp, Inst, OpTrap, Opcode};
use std::fmt;

/// Where in a block an error happened.
///
/// ```
/// use ssakit::interp::{run, ErrorKind, Position, RunOptions};
/// use ssakit::ir::BinOp;
/// use ssakit::text::parse_module;
/// let m = parse_module("function main(a) {\nentry:\n    b = a\n    c = 1 / a\n    ret c\n}\n").unwrap();
/// let err = run(&m, &m.functions[0], &[0], &RunOptions::default()).unwrap_err();
/// assert_eq!(err.location.unwrap().position, Position::Inst(1)); // the second instruction
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Position {
    /// The instruction at this 0-based index, counting the block's phis
    /// first, then its ordinary instructions.
    Inst(usize),
    /// The block's terminator.
    Terminator,
}

/// Where a runtime error happened.
///
/// ```
/// use ssakit::interp::{run, ErrorKind, Position, RunOptions};
/// use ssakit::ir::BinOp;
/// use ssakit::text::parse_module;
/// let m = parse_module("function main(a) {\nentry:\n    b = a\n    c = 1 / a\n    ret c\n}\n").unwrap();
/// let err = run(&m, &m.functions[0], &[0], &RunOptions::default()).unwrap_err();
/// let loc = err.location.unwrap();
/// assert_eq!((&*loc.function, &*loc.block), ("main", "entry"));
/// assert!(loc.inst.is_some());
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Location {
    /// The function's name.
    pub function: Box<str>,
    /// The block's label.
    pub block: Box<str>,
    /// The position in the block.
    pub position: Position,
    /// The instruction entity, unless the terminator failed.
    pub inst: Option<Inst>,
}

/// What went wrong.
///
/// ```
/// use ssakit::interp::{run, ErrorKind, Position, RunOptions};
/// use ssakit::ir::BinOp;
/// use ssakit::text::parse_module;
/// let m = parse_module("function main(a) {\nentry:\n    b = a\n    c = 1 / a\n    ret c\n}\n").unwrap();
/// let err = run(&m, &m.functions[0], &[0], &RunOptions::default()).unwrap_err();
/// assert_eq!(err.kind, ErrorKind::DivisionByZero(BinOp::Div));
/// assert_eq!(err.kind.to_string(), "division by zero");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ErrorKind {
    /// `/` or `%` (the operator) with a right operand of 0
    /// (`Trap::DivisionByZero`).
    DivisionByZero(BinOp),
    /// `/` or `%` (the operator) with an `undef` right operand
    /// (`Trap::DivisionByUndef`).
    DivisionByUndef(BinOp),
    /// An operation of the [set](crate::ir::Opcode) trapped: a division
    /// by zero, an out-of-bounds access, a truncation of a NaN, an
    /// `undef` operand where the operation may trap ([`OpTrap`]).
    Trap {
        /// The operation.
        op: Opcode,
        /// Why it trapped.
        trap: OpTrap,
    },
    /// `branch` on `undef`.
    BranchOnUndef,
    /// `switch` on `undef`.
    SwitchOnUndef,
    /// A phi has no argument for the predecessor the block was entered from
    /// (`None`: the block was entered at function entry).
    MissingPhiArg {
        /// The predecessor's label.
        pred: Option<Box<str>>,
    },
    /// A function was called with the wrong number of arguments (also the
    /// entry function, with no location).
    ArityMismatch {
        /// The callee.
        callee: Box<str>,
        /// Its number of parameters.
        expected: usize,
        /// The number of arguments given.
        got: usize,
    },
    /// A callee returned a number of values that the call does not take
    /// (see the rules of calls in [the semantics](super#semantics)).
    ResultCountMismatch {
        /// The callee.
        callee: Box<str>,
        /// The number of values its `ret` gave.
        returned: usize,
        /// The number of results of the call.
        expected: usize,
    },
    /// An `unreachable` terminator was executed.
    Unreachable,
    /// The program holds what the interpreter cannot run (a generic
    /// operation, a variable of a type other than `i64`, a call of an
    /// external with several results), found when it is translated: the
    /// message names it.
    Unsupported(String),
    /// The call stack reached [`RunOptions::max_depth`](super::RunOptions::max_depth) frames.
    CallDepthExceeded {
        /// The limit.
        limit: usize,
    },
    /// The run reached [`RunOptions::fuel`](super::RunOptions::fuel) steps.
    OutOfFuel {
        /// The limit.
        fuel: u64,
    },
    /// The program breaks an IR invariant the interpreter relies on.
    Malformed(String),
    /// A variable holding `undef` was read, with
    /// [`RunOptions::strict_reads`](super::RunOptions::strict_reads).
    UndefinedVariable {
        /// The variable's name.
        name: Box<str>,
    },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::DivisionByZero(BinOp::Rem) => f.write_str("remainder by zero"),
            ErrorKind::DivisionByZero(_) => f.write_str("division by zero"),
            ErrorKind::DivisionByUndef(BinOp::Rem) => f.write_str("remainder by undef"),
            ErrorKind::DivisionByUndef(_) => f.write_str("division by undef"),
            ErrorKind::Trap { op, trap } => write!(f, "{op} trapped: {trap}"),
            ErrorKind::BranchOnUndef => f.write_str("branch on undef"),
            ErrorKind::SwitchOnUndef => f.write_str("switch on undef"),
            ErrorKind::MissingPhiArg { pred: Some(p) } => {
                write!(f, "phi has no argument for predecessor {p}")
            }
            ErrorKind::MissingPhiArg { pred: None } => {
                f.write_str("phi in a block entered at function entry (no predecessor)")
            }
            ErrorKind::ArityMismatch {
                callee,
                expected,
                got,
            } => write!(
                f,
                "function {callee} takes {expected} argument{}, got {got}",
                if *expected == 1 { "" } else { "s" }
            ),
            ErrorKind::ResultCountMismatch {
                callee,
                returned,
                expected,
            } => write!(
                f,
                "function {callee} returned {returned} value{}, the call takes {expected}",
                if *returned == 1 { "" } else { "s" }
            ),
            ErrorKind::Unreachable => f.write_str("unreachable executed"),
            ErrorKind::Unsupported(m) => f.write_str(m),
            ErrorKind::CallDepthExceeded { limit } => {
                write!(f, "call depth limit of {limit} frames exceeded")
            }
            ErrorKind::OutOfFuel { fuel } => write!(
                f,
                "out of fuel after {fuel} steps (the program may not terminate)"
            ),
            ErrorKind::Malformed(m) => write!(f, "malformed program: {m}"),
            ErrorKind::UndefinedVariable { name } => write!(f, "undefined variable {name}"),
        }
    }
}

/// A run that stopped with an error.
///
/// ```
/// use ssakit::interp::{run, ErrorKind, Position, RunOptions};
/// use ssakit::ir::BinOp;
/// use ssakit::text::parse_module;
/// let m = parse_module("function main(a) {\nentry:\n    b = a\n    c = 1 / a\n    ret c\n}\n").unwrap();
/// let err = run(&m, &m.functions[0], &[0], &RunOptions::default()).unwrap_err();
/// assert_eq!(err.to_string(), "runtime error in function main, block entry, instruction 1: division by zero");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RuntimeError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Where, when it happened inside a block.
    pub location: Option<Location>,
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            None => write!(f, "runtime error: {}", self.kind),
            Some(l) => {
                write!(
                    f,
                    "runtime error in function {}, block {}, ",
                    l.function, l.block
                )?;
                match l.position {
                    Position::Inst(i) => write!(f, "instruction {i}")?,
                    Position::Terminator => f.write_str("terminator")?,
                }
                write!(f, ": {}", self.kind)
            }
        }
    }
}

impl std::error::Error for RuntimeError {}

pub(super) fn malformed(msg: String) -> RuntimeError {
    RuntimeError {
        kind: ErrorKind::Malformed(msg),
        location: None,
    }
}
