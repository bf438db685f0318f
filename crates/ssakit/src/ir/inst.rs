//! Instructions, operands and terminators.

use super::{Block, Var};

/// An instruction operand: a variable, an integer literal, or the undefined
/// value ⊥ (written `undef`).
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
    pub fn var(self) -> Option<Var> {
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
    pub fn symbol(self) -> &'static str {
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

    /// The operator spelled `s`, if any.
    pub fn from_symbol(s: &str) -> Option<BinOp> {
        BinOp::ALL.iter().copied().find(|op| op.symbol() == s)
    }

    /// Evaluates the operator with `i64` wrapping semantics: `/` and `%`
    /// truncate toward zero, shifts use the low 6 bits of the amount, `>>` is
    /// arithmetic. Returns `None` for division or remainder by zero.
    pub fn eval(self, a: i64, b: i64) -> Option<i64> {
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
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UnOp {
    /// Wrapping negation, `-x`.
    Neg,
    /// Logical not, `!x`: 1 if `x` is 0, else 0.
    Not,
}

impl UnOp {
    /// The operator's spelling in the text format.
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "!",
        }
    }

    /// Evaluates the operator.
    pub fn eval(self, a: i64) -> i64 {
        match self {
            UnOp::Neg => a.wrapping_neg(),
            UnOp::Not => (a == 0) as i64,
        }
    }
}

/// One operand of a phi, labelled by the predecessor block it flows from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PhiArg {
    /// The predecessor block.
    pub block: Block,
    /// The value flowing in along the edge from `block`.
    pub value: Operand,
}

/// A non-terminator instruction.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum InstData {
    /// `dst = src`: a copy of a variable, a constant (`i = 0`) or the
    /// undefined value (`x = undef`, the chapter's undef pseudo-operation).
    Copy {
        /// Destination.
        dst: Var,
        /// Source.
        src: Operand,
    },
    /// `dst = op arg`.
    Unary {
        /// Destination.
        dst: Var,
        /// Operator.
        op: UnOp,
        /// Operand.
        arg: Operand,
    },
    /// `dst = lhs op rhs`.
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
    /// `dst = func(args)`, or `func(args)` when the result is discarded.
    Call {
        /// Destination, if the result is kept.
        dst: Option<Var>,
        /// Callee name: a function of the module or an external.
        func: Box<str>,
        /// Arguments.
        args: Vec<Operand>,
    },
    /// `print a, b, ...`: one output line.
    Print {
        /// Values printed, separated by one space.
        args: Vec<Operand>,
    },
    /// `dst = phi(B1: a1, ..., Bn: an)`: at the start of a block, one
    /// operand per predecessor, evaluated simultaneously with the block's
    /// other phis on entry from the predecessor taken.
    Phi {
        /// Destination.
        dst: Var,
        /// One operand per predecessor block.
        args: Vec<PhiArg>,
    },
    /// `(d1, ..., dn) = (s1, ..., sn)`: a parallel copy. Every source is read
    /// before any destination is written; destinations are distinct.
    ParCopy {
        /// `(destination, source)` pairs.
        copies: Vec<(Var, Operand)>,
    },
}

impl InstData {
    /// Whether this is a phi.
    pub fn is_phi(&self) -> bool {
        matches!(self, InstData::Phi { .. })
    }

    /// Calls `f` on every variable this instruction defines, in order.
    pub fn for_each_def(&self, mut f: impl FnMut(Var)) {
        match self {
            InstData::Copy { dst, .. }
            | InstData::Unary { dst, .. }
            | InstData::Binary { dst, .. }
            | InstData::Phi { dst, .. } => f(*dst),
            InstData::Call { dst, .. } => {
                if let Some(d) = dst {
                    f(*d)
                }
            }
            InstData::Print { .. } => {}
            InstData::ParCopy { copies } => copies.iter().for_each(|(d, _)| f(*d)),
        }
    }

    /// Calls `f` on every variable this instruction defines, mutably.
    pub fn for_each_def_mut(&mut self, mut f: impl FnMut(&mut Var)) {
        match self {
            InstData::Copy { dst, .. }
            | InstData::Unary { dst, .. }
            | InstData::Binary { dst, .. }
            | InstData::Phi { dst, .. } => f(dst),
            InstData::Call { dst, .. } => {
                if let Some(d) = dst {
                    f(d)
                }
            }
            InstData::Print { .. } => {}
            InstData::ParCopy { copies } => copies.iter_mut().for_each(|(d, _)| f(d)),
        }
    }

    /// The single variable defined, for instructions that define at most one.
    /// A parallel copy returns `None`; use [`InstData::for_each_def`].
    pub fn def(&self) -> Option<Var> {
        match self {
            InstData::Copy { dst, .. }
            | InstData::Unary { dst, .. }
            | InstData::Binary { dst, .. }
            | InstData::Phi { dst, .. } => Some(*dst),
            InstData::Call { dst, .. } => *dst,
            InstData::Print { .. } | InstData::ParCopy { .. } => None,
        }
    }

    /// Calls `f` on every operand read by this instruction, in order. For a
    /// phi these are the incoming values (uses at the end of predecessors).
    pub fn for_each_operand(&self, mut f: impl FnMut(Operand)) {
        match self {
            InstData::Copy { src, .. } => f(*src),
            InstData::Unary { arg, .. } => f(*arg),
            InstData::Binary { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs)
            }
            InstData::Call { args, .. } | InstData::Print { args } => {
                args.iter().for_each(|a| f(*a))
            }
            InstData::Phi { args, .. } => args.iter().for_each(|a| f(a.value)),
            InstData::ParCopy { copies } => copies.iter().for_each(|(_, s)| f(*s)),
        }
    }

    /// Calls `f` on every operand, mutably.
    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut Operand)) {
        match self {
            InstData::Copy { src, .. } => f(src),
            InstData::Unary { arg, .. } => f(arg),
            InstData::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs)
            }
            InstData::Call { args, .. } | InstData::Print { args } => args.iter_mut().for_each(f),
            InstData::Phi { args, .. } => args.iter_mut().for_each(|a| f(&mut a.value)),
            InstData::ParCopy { copies } => copies.iter_mut().for_each(|(_, s)| f(s)),
        }
    }

    /// Calls `f` on every variable read by this instruction.
    pub fn for_each_use(&self, mut f: impl FnMut(Var)) {
        self.for_each_operand(|o| {
            if let Operand::Var(v) = o {
                f(v)
            }
        })
    }
}

/// The instruction that ends a block.
#[derive(Clone, PartialEq, Eq, Debug)]
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
        targets: Vec<Block>,
    },
    /// `ret v` or `ret`.
    Ret(Option<Operand>),
}

impl Terminator {
    /// Calls `f` on each successor edge, in order (duplicates kept: `branch
    /// c, L, L` has two edges to `L`). The order is: `then`, `else` for a
    /// branch; `default`, then targets for a switch.
    pub fn for_each_succ(&self, mut f: impl FnMut(Block)) {
        match self {
            Terminator::Jump(b) => f(*b),
            Terminator::Branch {
                then_dest,
                else_dest,
                ..
            } => {
                f(*then_dest);
                f(*else_dest)
            }
            Terminator::Switch {
                default, targets, ..
            } => {
                f(*default);
                targets.iter().for_each(|t| f(*t))
            }
            Terminator::Ret(_) => {}
        }
    }

    /// Calls `f` on each successor edge target, mutably (used to redirect an
    /// edge when splitting it).
    pub fn for_each_succ_mut(&mut self, mut f: impl FnMut(&mut Block)) {
        match self {
            Terminator::Jump(b) => f(b),
            Terminator::Branch {
                then_dest,
                else_dest,
                ..
            } => {
                f(then_dest);
                f(else_dest)
            }
            Terminator::Switch {
                default, targets, ..
            } => {
                f(default);
                targets.iter_mut().for_each(f)
            }
            Terminator::Ret(_) => {}
        }
    }

    /// The operand read by the terminator, if any.
    pub fn operand(&self) -> Option<Operand> {
        match self {
            Terminator::Jump(_) => None,
            Terminator::Branch { cond, .. } => Some(*cond),
            Terminator::Switch { value, .. } => Some(*value),
            Terminator::Ret(v) => *v,
        }
    }

    /// The operand read by the terminator, mutably.
    pub fn operand_mut(&mut self) -> Option<&mut Operand> {
        match self {
            Terminator::Jump(_) => None,
            Terminator::Branch { cond, .. } => Some(cond),
            Terminator::Switch { value, .. } => Some(value),
            Terminator::Ret(v) => v.as_mut(),
        }
    }
}
