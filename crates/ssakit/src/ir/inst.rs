//! Instructions, operands and terminators.
//!
//! An instruction ([`InstData`]) and a terminator ([`Terminator`]) are small
//! `Copy` values: their variable-length parts (call and print arguments,
//! phi operands, parallel copies, operation operands, results and
//! immediates, switch targets, returned values) are [`EntityList`]s whose
//! items live in the pools of the [`Function`](super::Function). Read them
//! with `list.as_slice(&func)`, edit them in place with
//! `list.as_mut_slice(&mut func)`; the function's methods
//! ([`Function::for_each_operand`](super::Function::for_each_operand) and
//! friends) visit every operand or definition of any instruction.

use super::{Block, Callee, Operator, Var};
use crate::entity::EntityList;

/// An instruction operand: a variable, an integer literal, or the undefined
/// value ⊥ (written `undef`).
///
/// ```
/// use ssakit::ir::{InstData, Operand};
/// let f = ssakit::text::parse_module("function f(a) {\ne:\n    print a, 5, undef\n    ret\n}").unwrap().functions.remove(0);
/// let InstData::Print { args } = f.inst(f.block_insts(f.entry())[0]) else { panic!() };
/// let a = f.params()[0];
/// assert_eq!(args.as_slice(&f), [Operand::Var(a), Operand::Const(5), Operand::Undef]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Operand {
    /// The current value of a variable.
    Var(Var),
    /// An integer literal.
    Const(i64),
    /// The undefined value ⊥ of the chapter (section 13.5).
    Undef,
}

impl Operand {
    /// The variable read by this operand, if any.
    #[inline]
    pub(crate) fn var(self) -> Option<Var> {
        match self {
            Operand::Var(v) => Some(v),
            _ => None,
        }
    }
}

impl From<Var> for Operand {
    fn from(v: Var) -> Self {
        Operand::Var(v)
    }
}

/// Binary integer operators. Arithmetic wraps on `i64`; comparisons give 0 or 1.
///
/// ```
/// use ssakit::interp::{run, RunOptions};
/// // `a - b` wraps on i64; `a < b` gives 0 or 1.
/// let src = "function f(a, b) {\ne:\n    d = a - b\n    c = a < b\n    print d, c\n    ret d\n}\n";
/// let m = ssakit::text::parse_module(src).unwrap();
/// let out = run(&m, &m.functions[0], &[3, 5], &RunOptions::default()).unwrap();
/// assert_eq!(out.render(), "-2 1\n=> -2\n");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    /// Every operator, in a fixed order.
    pub const ALL: [BinOp; 16] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
    ];

    /// The operator's spelling in the text format.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }

    /// Whether evaluating the operator may fail (division and remainder by
    /// zero).
    ///
    /// ```
    /// use ssakit::ir::BinOp;
    /// assert!(BinOp::Div.may_trap() && BinOp::Rem.may_trap());
    /// assert!(!BinOp::Mul.may_trap());
    /// ```
    pub fn may_trap(self) -> bool {
        matches!(self, BinOp::Div | BinOp::Rem)
    }

    /// Evaluates the operator with `i64` wrapping semantics: `/` and `%`
    /// truncate toward zero, shifts use the low 6 bits of the amount, `>>` is
    /// arithmetic. Returns `None` for division or remainder by zero.
    pub(crate) fn eval(self, a: i64, b: i64) -> Option<i64> {
        Some(match self {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div => {
                if b == 0 {
                    return None;
                }
                a.wrapping_div(b)
            }
            BinOp::Rem => {
                if b == 0 {
                    return None;
                }
                a.wrapping_rem(b)
            }
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Shl => a.wrapping_shl((b & 63) as u32),
            BinOp::Shr => a.wrapping_shr((b & 63) as u32),
            BinOp::Eq => (a == b) as i64,
            BinOp::Ne => (a != b) as i64,
            BinOp::Lt => (a < b) as i64,
            BinOp::Le => (a <= b) as i64,
            BinOp::Gt => (a > b) as i64,
            BinOp::Ge => (a >= b) as i64,
        })
    }
}

/// Unary integer operators: `-` (wrapping negation) and `!` (0 → 1, else 0).
///
/// ```
/// use ssakit::interp::{run, RunOptions};
/// let src = "function f(a) {\ne:\n    n = -a\n    z = !a\n    print n, z\n    ret z\n}\n";
/// let m = ssakit::text::parse_module(src).unwrap();
/// let out = run(&m, &m.functions[0], &[5], &RunOptions::default()).unwrap();
/// assert_eq!(out.render(), "-5 0\n=> 0\n");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UnOp {
    /// Wrapping negation, `-x`.
    Neg,
    /// Logical not, `!x`: 1 if `x` is 0, else 0.
    Not,
}

impl UnOp {
    /// The operator's spelling in the text format.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "!",
        }
    }

    /// Evaluates the operator.
    pub(crate) fn eval(self, a: i64) -> i64 {
        match self {
            UnOp::Neg => a.wrapping_neg(),
            UnOp::Not => (a == 0) as i64,
        }
    }
}

/// One operand of a phi, labelled by the predecessor block it flows from.
///
/// ```
/// use ssakit::ir::{Operand, PhiArg};
/// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
/// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
/// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
/// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
/// # let phi = f.block_phis(j)[0];
/// let x1 = f.def(f.block_insts(e)[0]).unwrap();
/// assert_eq!(f.phi_args(phi)[0], PhiArg { block: e, value: Operand::Var(x1) });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PhiArg {
    /// The predecessor block.
    pub block: Block,
    /// The value flowing in along the edge from `block`.
    pub value: Operand,
}

/// A non-terminator instruction.
///
/// ```
/// use ssakit::ir::{BinOp, InstData, Operand};
/// let f = ssakit::text::parse_module("function f(n) {\ne:\n    m = n * 2\n    ret m\n}").unwrap().functions.remove(0);
/// let n = f.params()[0];
/// let InstData::Binary { dst, op, lhs, rhs } = *f.inst(f.block_insts(f.entry())[0]) else { panic!() };
/// assert_eq!((f.base_name(dst), op, lhs, rhs), ("m", BinOp::Mul, Operand::Var(n), Operand::Const(2)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InstData {
    /// `dst = src`: a copy of a variable, a constant (`i = 0`) or the
    /// undefined value (`x = undef`, the chapter's undef pseudo-operation).
    Copy {
        /// Destination.
        dst: Var,
        /// Source.
        src: Operand,
    },
    /// `dst = op arg` on `i64`.
    Unary {
        /// Destination.
        dst: Var,
        /// Operator.
        op: UnOp,
        /// Operand.
        arg: Operand,
    },
    /// `dst = lhs op rhs` on `i64`.
    Binary {
        /// Destination.
        dst: Var,
        /// Operator.
        op: BinOp,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
    },
    /// `(r1, ..., rn) = f(args)`: a call of a function of the module or of
    /// an external; `f(args)` keeps no result, `r = f(args)` one.
    Call {
        /// The callee.
        callee: Callee,
        /// Arguments.
        args: EntityList<Operand>,
        /// Variables receiving the results.
        results: EntityList<Var>,
    },
    /// `print a, b, ...`: one output line.
    Print {
        /// Values printed, separated by one space.
        args: EntityList<Operand>,
    },
    /// `dst = phi(B1: a1, ..., Bn: an)`: at the start of a block, one
    /// operand per predecessor, evaluated simultaneously with the block's
    /// other phis on entry from the predecessor taken.
    Phi {
        /// Destination.
        dst: Var,
        /// One operand per predecessor block.
        args: EntityList<PhiArg>,
    },
    /// `(d1, ..., dn) = (s1, ..., sn)`: a parallel copy. Every source is read
    /// before any destination is written; destinations are distinct.
    ParCopy {
        /// `(destination, source)` pairs.
        copies: EntityList<(Var, Operand)>,
    },
    /// `(r1, ..., rn) = name[imm1, ...](a1, ...)`: a generic operation of
    /// the module's operator table ([`Symbols`](super::Symbols)), with
    /// integer immediates, any number of operands and typed results, and the
    /// operator's [`Effects`](super::Effects).
    Op {
        /// The operator.
        op: Operator,
        /// Immediates (offsets, alignments, constant bits, indices).
        imms: EntityList<i64>,
        /// Operands.
        args: EntityList<Operand>,
        /// Variables receiving the results.
        results: EntityList<Var>,
    },
}

impl InstData {
    /// Whether this is a phi.
    pub(crate) fn is_phi(&self) -> bool {
        matches!(self, InstData::Phi { .. })
    }

    /// Whether this is a parallel copy.
    pub(crate) fn is_par_copy(&self) -> bool {
        matches!(self, InstData::ParCopy { .. })
    }
}

/// The instruction that ends a block.
///
/// ```
/// use ssakit::ir::{Operand, Terminator};
/// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
/// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
/// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
/// # let x = f.var_by_name("x").unwrap();
/// let c = f.params()[0];
/// assert_eq!(f.term(e), &Terminator::Branch { cond: Operand::Var(c), then_dest: a, else_dest: j });
/// assert_eq!(f.term(a), &Terminator::Jump(j));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Terminator {
    /// `jump L`.
    Jump(Block),
    /// `branch c, T, F`: to `T` if `c` is non-zero, else to `F`.
    Branch {
        /// Condition.
        cond: Operand,
        /// Target when `cond != 0`.
        then_dest: Block,
        /// Target when `cond == 0`.
        else_dest: Block,
    },
    /// `switch v, D, [L0, L1, ...]`: to `Li` if `v == i` for a valid index
    /// `i`, else to the default `D`.
    Switch {
        /// Selector.
        value: Operand,
        /// Target when `value` is out of range.
        default: Block,
        /// Targets indexed by `value`.
        targets: EntityList<Block>,
    },
    /// `ret`, `ret v` or `ret v1, v2, ...`.
    Ret(EntityList<Operand>),
    /// `unreachable`: executing it traps (WebAssembly's `unreachable`).
    Unreachable,
}

impl Terminator {
    /// `ret` with no value.
    pub(crate) fn ret_void() -> Terminator {
        Terminator::Ret(EntityList::new())
    }
}
