//! Runtime values and the evaluation of the built-in operators on them,
//! `undef` included: the one definition of ssakit's arithmetic, shared by
//! the interpreter ([`crate::interp`]) and constant propagation
//! (`const_prop`, whose lattice only adds ⊤
//! and ⊥ on top).
//!
//! # The rules
//!
//! A value is an integer ([`Value::Int`], an `i64`) or `undef`
//! ([`Value::Undef`], the chapter's ⊥, section 13.5).
//!
//! 1. **Integers.** Arithmetic wraps (`BinOp::eval`, `UnOp::eval`): `/`
//!    and `%` truncate toward zero, shifts use the low 6 bits of the amount,
//!    `>>` is arithmetic, comparisons and `!` give 0 or 1.
//! 2. **Division or remainder by 0 traps** (`Trap::DivisionByZero`),
//!    whatever the left operand is, `undef` included: every refinement of
//!    `undef / 0` fails.
//! 3. **Division or remainder by `undef` traps** (`Trap::DivisionByUndef`):
//!    the divisor may be 0, so, like a branch on `undef`, the behaviour is
//!    undefined from there (a transformation may give the divisor any
//!    definite value, 0 included: destruction drops `x = undef` copies).
//! 4. **Otherwise `undef` propagates:** an operation with an `undef`
//!    operand gives `undef`, comparisons and `!` included, whatever the
//!    other operand is. So `undef / 5`, `undef * 0` and `undef < undef` are
//!    `undef`.
//!
//! Control flow is not arithmetic: a `branch` or `switch` on `undef` is an
//! error of the interpreter ([`ErrorKind`](crate::interp::ErrorKind)), and
//! constant propagation never folds one.

use crate::ir::{BinOp, UnOp};
use std::fmt;

/// A runtime value: an integer or the undefined value ⊥.
///
/// ```
/// use ssakit::eval::Value;
/// assert_eq!(Value::from(7).to_string(), "7");
/// assert_eq!(Value::Undef.to_string(), "undef");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// A 64-bit integer.
    Int(i64),
    /// The undefined value, printed `undef`.
    Undef,
    /// A `bool` as `print` shows it (`true` or `false`): the interpreter
    /// computes on a `bool` as the integer 0 or 1, and makes this value
    /// only for the output of `print`.
    Bool(bool),
}

impl Value {
    /// The integer, unless the value is `undef`.
    pub(crate) fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(v),
            Value::Bool(b) => Some(i64::from(b)),
            Value::Undef => None,
        }
    }

    /// The value an operator computes on: a printed `bool` as its integer.
    fn normal(self) -> Value {
        match self {
            Value::Bool(b) => Value::Int(i64::from(b)),
            v => v,
        }
    }

    /// Whether `transformed` may stand where this value of the original
    /// program stood: `undef` admits any value, an integer only itself.
    pub(crate) fn admits(self, transformed: Value) -> bool {
        self == Value::Undef || self == transformed
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Undef => f.write_str("undef"),
        }
    }
}

/// Why evaluating an operator stopped the program (rules 2 and 3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Trap {
    /// `/` or `%` with a right operand of 0.
    DivisionByZero,
    /// `/` or `%` with an `undef` right operand.
    DivisionByUndef,
}

/// The value of `op a` (rules 1 and 4).
#[inline]
pub(crate) fn unary(op: UnOp, a: Value) -> Value {
    match a.as_int() {
        Some(a) => Value::Int(op.eval(a)),
        None => Value::Undef,
    }
}

/// The value of `a op b`, or the trap it raises (see the rules in the
/// module documentation).
#[inline]
pub(crate) fn binary(op: BinOp, a: Value, b: Value) -> Result<Value, Trap> {
    match (a.normal(), b.normal()) {
        (Value::Int(a), Value::Int(b)) => op.eval(a, b).map(Value::Int).ok_or(Trap::DivisionByZero),
        (_, Value::Int(0)) if op.may_trap() => Err(Trap::DivisionByZero),
        (_, Value::Undef) if op.may_trap() => Err(Trap::DivisionByUndef),
        _ => Ok(Value::Undef),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules() {
        use Value::{Int, Undef};
        assert_eq!(binary(BinOp::Add, Int(i64::MAX), Int(1)), Ok(Int(i64::MIN)));
        assert_eq!(
            binary(BinOp::Div, Int(7), Int(0)),
            Err(Trap::DivisionByZero)
        );
        assert_eq!(binary(BinOp::Rem, Undef, Int(0)), Err(Trap::DivisionByZero));
        assert_eq!(
            binary(BinOp::Div, Int(7), Undef),
            Err(Trap::DivisionByUndef)
        );
        assert_eq!(binary(BinOp::Rem, Undef, Undef), Err(Trap::DivisionByUndef));
        assert_eq!(binary(BinOp::Div, Undef, Int(5)), Ok(Undef));
        assert_eq!(binary(BinOp::Mul, Undef, Int(0)), Ok(Undef));
        assert_eq!(binary(BinOp::Lt, Int(1), Undef), Ok(Undef));
        assert_eq!(unary(UnOp::Not, Undef), Undef);
        assert_eq!(unary(UnOp::Neg, Int(i64::MIN)), Int(i64::MIN));
    }
}
