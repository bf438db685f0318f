//! The interpreter: the oracle of every round trip.
//!
//! Every transformation in ssakit (construction, optimisation, destruction)
//! must leave a program's observable behaviour unchanged, and this module is
//! what checks it: run the program before and after, and compare the
//! [`Outcome`]s with [`outputs_match`]. It is therefore written to be simple
//! and obviously correct first, and fast enough for property tests second:
//! [`Interpreter::new`] translates each function once into dense tables
//! (variables are slot numbers, call targets are function indices, the phis
//! of every CFG edge are a precomputed parallel copy), so the inner loop does
//! no string lookups and no hashing.
//!
//! # Semantics
//!
//! * **Values** are [`Value::Int`] (an `i64`) or [`Value::Undef`], the
//!   chapter's ⊥. Arithmetic wraps ([`BinOp::eval`], [`UnOp::eval`]): `/` and
//!   `%` truncate toward zero, shifts use the low 6 bits of the amount, `>>`
//!   is arithmetic, comparisons and `!` give 0 or 1.
//! * **Undef propagates.** An operation with an `undef` operand yields
//!   `undef`, comparisons included; copies copy it; `print` and `ret` show it
//!   as `undef`. The one exception is division or remainder by the constant
//!   value 0, which is an error whatever the left operand is (every
//!   refinement of `undef / 0` fails). Dividing *by* `undef` gives `undef`,
//!   not an error.
//! * **Uninitialised variables read as `undef`.** Every variable of a frame
//!   starts as `undef`, so a non-SSA program may read a variable on a path
//!   that never assigned it (the chapter's `x` on the path r→A→C) and get ⊥,
//!   exactly what SSA construction makes explicit with `undef` operands.
//! * **Branching or switching on `undef` is an error**: control flow must
//!   not depend on ⊥.
//! * **Phis** are evaluated when a block is entered along an edge from `P`:
//!   all the arguments labelled `P` are read first, then all the destinations
//!   written (simultaneous semantics, so two phis may swap values). A phi
//!   with no argument for `P` is an error; if it has several, the first one
//!   is used. A block with phis entered at function entry (the entry block)
//!   has no predecessor, which is the same error.
//! * **Parallel copies** read every source before writing any destination.
//! * **`switch v, D, [L0, ..., Ln-1]`** goes to `Li` if `0 <= v < n`, else
//!   to `D`.
//! * **Calls** to a function of the module bind its parameters to the
//!   arguments (an arity mismatch is an error) and run it in a new frame.
//!   Frames live on an explicit stack, so recursion as deep as the depth
//!   limit ([`RunOptions::max_depth`]) never touches the native stack. A
//!   callee that returns with a bare `ret` gives `undef` to a call that keeps
//!   its result.
//! * **External calls.** A call to a name that is not a function of the
//!   module is an *uninterpreted external*: a pure, deterministic function of
//!   its name and arguments (see [`external_call_result`]):
//!
//!   ```text
//!   h = 0xcbf29ce484222325                      (FNV-1a 64-bit offset basis)
//!   for byte in name (UTF-8), then in each argument as 8 little-endian bytes:
//!       h = (h ^ byte) * 0x100000001b3  (mod 2^64)
//!   result = h % 1000                           (an Int in 0..=999)
//!   ```
//!
//!   If any argument is `undef` the result is `undef`, like any other
//!   operation: an original program that calls `f(undef)` must match a
//!   transformed one that happened to define the argument. The small range
//!   keeps printed values and later arithmetic readable.
//! * **Fuel.** Every executed phi, ordinary instruction and terminator costs
//!   one step; a parallel copy costs one step per copy. A run that would
//!   exceed [`RunOptions::fuel`] steps stops with [`ErrorKind::OutOfFuel`],
//!   turning non-termination into an error. The steps taken are reported as
//!   [`Outcome::dyn_insts`] (the `--profile` count).
//! * **Observable behaviour** is the list of printed lines, the entry
//!   function's return value, and (with [`RunOptions::trace_calls`]) the
//!   external calls made, each with its arguments and result.
//!
//! # The differential oracle
//!
//! A transformation may *refine* ⊥: SSA construction turns an uninitialised
//! read into an explicit `undef`, and out-of-SSA translation may drop an
//! `x = undef` copy so that `x` keeps whatever it held before. So
//! [`outputs_match`] lets an `undef` of the original match any value of the
//! transformed program, but a defined value of the original only itself.
//!
//! # Errors
//!
//! A [`RuntimeError`] names where it happened: the function, the block, and
//! the instruction's position in the block (0-based, phis first, then the
//! ordinary instructions) or the terminator:
//!
//! ```text
//! runtime error in function main, block loop, instruction 3: division by zero
//! ```

use crate::ir::{BinOp, Block, Function, Inst, InstData, Module, Operand, Terminator, UnOp, Var};
use std::collections::HashMap;
use std::fmt;

/// Default step limit of [`RunOptions::fuel`].
pub const DEFAULT_FUEL: u64 = 100_000_000;
/// Default frame limit of [`RunOptions::max_depth`].
pub const DEFAULT_MAX_DEPTH: usize = 100_000;
/// External calls return their hash modulo this number.
pub const EXTERNAL_MODULUS: u64 = 1000;

const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// A runtime value: an integer or the undefined value ⊥.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// A 64-bit integer.
    Int(i64),
    /// The undefined value, printed `undef`.
    Undef,
}

impl Value {
    /// The integer, unless the value is `undef`.
    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(v),
            Value::Undef => None,
        }
    }

    /// Whether this is `undef`.
    pub fn is_undef(self) -> bool {
        self == Value::Undef
    }

    /// Whether `transformed` may stand where this value of the original
    /// program stood: `undef` admits any value, an integer only itself.
    pub fn admits(self, transformed: Value) -> bool {
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
            Value::Undef => f.write_str("undef"),
        }
    }
}

/// Limits and switches of one run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Maximum number of steps (see the module documentation for the cost of
    /// each instruction).
    pub fuel: u64,
    /// Maximum number of simultaneously live frames, the entry's included.
    pub max_depth: usize,
    /// Record every external call in [`Outcome::calls`].
    pub trace_calls: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            fuel: DEFAULT_FUEL,
            max_depth: DEFAULT_MAX_DEPTH,
            trace_calls: false,
        }
    }
}

/// One call to an uninterpreted external function.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CallRecord {
    /// The callee's name.
    pub func: Box<str>,
    /// The argument values.
    pub args: Vec<Value>,
    /// The result returned.
    pub result: Value,
}

impl fmt::Display for CallRecord {
    /// `name(a, b) = r`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.func)?;
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{a}")?;
        }
        write!(f, ") = {}", self.result)
    }
}

/// What a run that finished produced.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Outcome {
    /// The values of each executed `print`, one entry per line.
    pub output: Vec<Vec<Value>>,
    /// The entry function's return value; `None` after a bare `ret`.
    pub ret: Option<Value>,
    /// The external calls, in order (empty unless
    /// [`RunOptions::trace_calls`]).
    pub calls: Vec<CallRecord>,
    /// Steps executed: the dynamic instruction count.
    pub dyn_insts: u64,
}

impl Outcome {
    /// The printed lines: each `print`'s values separated by one space.
    pub fn lines(&self) -> Vec<String> {
        self.output.iter().map(|l| join_values(l)).collect()
    }

    /// The text the CLI prints: one line per `print`, then `=> V` if the entry
    /// function returned a value. Every line ends in a newline.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for line in self.lines() {
            s.push_str(&line);
            s.push('\n');
        }
        if let Some(v) = self.ret {
            s.push_str(&format!("=> {v}\n"));
        }
        s
    }
}

fn join_values(vals: &[Value]) -> String {
    vals.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `transformed` behaves like `original`: the same printed lines, the
/// same return value and the same external calls, where an `undef` in the
/// original matches any value (a transformation may define what was
/// undefined) but not the other way round.
pub fn outputs_match(original: &Outcome, transformed: &Outcome) -> bool {
    first_difference(original, transformed).is_none()
}

/// The first way in which `transformed` does not match `original` (see
/// [`outputs_match`]), described for a test failure message.
pub fn first_difference(original: &Outcome, transformed: &Outcome) -> Option<String> {
    let all_admit =
        |o: &[Value], t: &[Value]| o.len() == t.len() && o.iter().zip(t).all(|(o, t)| o.admits(*t));
    for (i, (o, t)) in original.output.iter().zip(&transformed.output).enumerate() {
        if !all_admit(o, t) {
            return Some(format!(
                "print line {}: expected `{}`, got `{}`",
                i + 1,
                join_values(o),
                join_values(t)
            ));
        }
    }
    if original.output.len() != transformed.output.len() {
        return Some(format!(
            "expected {} printed lines, got {}",
            original.output.len(),
            transformed.output.len()
        ));
    }
    match (original.ret, transformed.ret) {
        (None, None) => {}
        (Some(o), Some(t)) if o.admits(t) => {}
        (o, t) => {
            let show = |v: Option<Value>| v.map_or("no value".to_string(), |v| v.to_string());
            return Some(format!(
                "return value: expected {}, got {}",
                show(o),
                show(t)
            ));
        }
    }
    for (i, (o, t)) in original.calls.iter().zip(&transformed.calls).enumerate() {
        if o.func != t.func || !all_admit(&o.args, &t.args) || !o.result.admits(t.result) {
            return Some(format!("external call {}: expected {o}, got {t}", i + 1));
        }
    }
    if original.calls.len() != transformed.calls.len() {
        return Some(format!(
            "expected {} external calls, got {}",
            original.calls.len(),
            transformed.calls.len()
        ));
    }
    None
}

/// The result of the uninterpreted external function `name` applied to
/// `args`: FNV-1a 64-bit over the name's bytes then each argument's 8
/// little-endian bytes, modulo [`EXTERNAL_MODULUS`]; `undef` if any argument
/// is `undef`.
pub fn external_call_result(name: &str, args: &[Value]) -> Value {
    external_result(fnv1a(FNV_OFFSET_BASIS, name.as_bytes()), args)
}

/// [`external_call_result`] from `seed`, the hash of the name.
fn external_result(seed: u64, args: &[Value]) -> Value {
    let mut h = seed;
    for a in args {
        match a {
            Value::Int(v) => h = fnv1a(h, &v.to_le_bytes()),
            Value::Undef => return Value::Undef,
        }
    }
    Value::Int((h % EXTERNAL_MODULUS) as i64)
}

fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

// ---------------------------------------------------------------------------
// Errors

/// Where in a block an error happened.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Position {
    /// The instruction at this 0-based index, counting the block's phis
    /// first, then its ordinary instructions.
    Inst(usize),
    /// The block's terminator.
    Terminator,
}

/// Where a runtime error happened.
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
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ErrorKind {
    /// `/` or `%` (the operator) with a right operand of 0.
    DivisionByZero(BinOp),
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
    /// The call stack reached [`RunOptions::max_depth`] frames.
    CallDepthExceeded {
        /// The limit.
        limit: usize,
    },
    /// The run reached [`RunOptions::fuel`] steps.
    OutOfFuel {
        /// The limit.
        fuel: u64,
    },
    /// The program breaks an IR invariant the interpreter relies on.
    Malformed(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::DivisionByZero(BinOp::Rem) => f.write_str("remainder by zero"),
            ErrorKind::DivisionByZero(_) => f.write_str("division by zero"),
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
            ErrorKind::CallDepthExceeded { limit } => {
                write!(f, "call depth limit of {limit} frames exceeded")
            }
            ErrorKind::OutOfFuel { fuel } => write!(
                f,
                "out of fuel after {fuel} steps (the program may not terminate)"
            ),
            ErrorKind::Malformed(m) => write!(f, "malformed program: {m}"),
        }
    }
}

/// A run that stopped with an error.
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

fn malformed(msg: String) -> RuntimeError {
    RuntimeError {
        kind: ErrorKind::Malformed(msg),
        location: None,
    }
}

// ---------------------------------------------------------------------------
// Compiled form: one table per function, indexed by block and variable index.

/// An operand with its variable resolved to a frame slot.
#[derive(Clone, Copy, Debug)]
enum Op {
    Slot(u32),
    Const(i64),
    Undef,
}

#[derive(Clone, Copy, Debug)]
enum Callee<'m> {
    /// Index of a function of the interpreter.
    Internal(u32),
    /// An external: its name and the FNV-1a state after the name's bytes.
    External { name: &'m str, seed: u64 },
}

/// An ordinary instruction. Phis are not here: they live on the edges.
#[derive(Debug)]
enum Code<'m> {
    Copy {
        dst: u32,
        src: Op,
    },
    Unary {
        dst: u32,
        op: UnOp,
        arg: Op,
    },
    Binary {
        dst: u32,
        op: BinOp,
        lhs: Op,
        rhs: Op,
    },
    Call {
        dst: Option<u32>,
        callee: Callee<'m>,
        args: Box<[Op]>,
    },
    Print {
        args: Box<[Op]>,
    },
    ParCopy {
        dsts: Box<[u32]>,
        srcs: Box<[Op]>,
    },
}

/// A CFG edge with the phis of its target resolved: taking it runs `moves`
/// as one parallel copy, unless a phi of the target has no argument for the
/// source block (`missing`, the phi's index).
#[derive(Debug)]
struct Edge {
    target: u32,
    moves: Box<[(u32, Op)]>,
    missing: Option<u32>,
}

#[derive(Debug)]
enum Term {
    Jump(Edge),
    Branch {
        cond: Op,
        then_edge: Edge,
        else_edge: Edge,
    },
    Switch {
        value: Op,
        default: Edge,
        targets: Box<[Edge]>,
    },
    Ret(Option<Op>),
}

#[derive(Debug)]
struct CBlock<'m> {
    nphis: u32,
    insts: Box<[Code<'m>]>,
    term: Term,
}

/// A function's tables; `blocks` is indexed by [`Block`] index.
#[derive(Debug)]
struct CFunc<'m> {
    src: &'m Function,
    nvars: usize,
    params: Box<[u32]>,
    entry: u32,
    blocks: Box<[CBlock<'m>]>,
}

/// Translates one function; `by_name` resolves call targets.
struct Compiler<'a, 'm> {
    func: &'m Function,
    by_name: &'a HashMap<&'m str, u32>,
}

impl<'m> Compiler<'_, 'm> {
    fn err(&self, what: String) -> RuntimeError {
        malformed(format!("function {}: {what}", self.func.name))
    }

    fn slot(&self, v: Var) -> Result<u32, RuntimeError> {
        if v.index() < self.func.vars.len() {
            Ok(v.0)
        } else {
            Err(self.err(format!("variable {v} out of range")))
        }
    }

    fn op(&self, o: Operand) -> Result<Op, RuntimeError> {
        Ok(match o {
            Operand::Var(v) => Op::Slot(self.slot(v)?),
            Operand::Const(c) => Op::Const(c),
            Operand::Undef => Op::Undef,
        })
    }

    fn ops(&self, os: &[Operand]) -> Result<Box<[Op]>, RuntimeError> {
        os.iter().map(|&o| self.op(o)).collect()
    }

    fn block_ok(&self, b: Block) -> Result<(), RuntimeError> {
        if b.index() < self.func.blocks.len() {
            Ok(())
        } else {
            Err(self.err(format!("block {b} out of range")))
        }
    }

    fn function(&self) -> Result<CFunc<'m>, RuntimeError> {
        let f = self.func;
        if f.layout.is_empty() {
            return Err(self.err("no blocks".into()));
        }
        self.block_ok(f.entry())?;
        for data in f.blocks.values() {
            for (k, &i) in data.phis.iter().chain(&data.insts).enumerate() {
                let Some(inst) = f.insts.get(i) else {
                    return Err(self.err(format!("{i} in block {} out of range", data.name)));
                };
                if inst.is_phi() != (k < data.phis.len()) {
                    let what = if inst.is_phi() {
                        "a phi among"
                    } else {
                        "not a phi, among"
                    };
                    return Err(self.err(format!("{i} is {what} the phis of {}", data.name)));
                }
            }
        }
        let params = f
            .params
            .iter()
            .map(|&p| self.slot(p))
            .collect::<Result<_, _>>()?;
        let blocks = f
            .blocks
            .keys()
            .map(|b| self.block(b))
            .collect::<Result<_, _>>()?;
        Ok(CFunc {
            src: f,
            nvars: f.vars.len(),
            params,
            entry: f.entry().0,
            blocks,
        })
    }

    fn block(&self, b: Block) -> Result<CBlock<'m>, RuntimeError> {
        let data = &self.func.blocks[b];
        let insts = data
            .insts
            .iter()
            .map(|&i| self.inst(&self.func.insts[i]))
            .collect::<Result<_, _>>()?;
        let term = match &data.term {
            Terminator::Jump(t) => Term::Jump(self.edge(b, *t)?),
            Terminator::Branch {
                cond,
                then_dest,
                else_dest,
            } => Term::Branch {
                cond: self.op(*cond)?,
                then_edge: self.edge(b, *then_dest)?,
                else_edge: self.edge(b, *else_dest)?,
            },
            Terminator::Switch {
                value,
                default,
                targets,
            } => Term::Switch {
                value: self.op(*value)?,
                default: self.edge(b, *default)?,
                targets: targets
                    .iter()
                    .map(|&t| self.edge(b, t))
                    .collect::<Result<_, _>>()?,
            },
            Terminator::Ret(v) => Term::Ret(v.map(|v| self.op(v)).transpose()?),
        };
        Ok(CBlock {
            nphis: data.phis.len() as u32,
            insts,
            term,
        })
    }

    /// The edge `from → to`: for each phi of `to`, its first argument
    /// labelled `from`.
    fn edge(&self, from: Block, to: Block) -> Result<Edge, RuntimeError> {
        self.block_ok(to)?;
        let mut moves = Vec::with_capacity(self.func.blocks[to].phis.len());
        let mut missing = None;
        for (k, &i) in self.func.blocks[to].phis.iter().enumerate() {
            let InstData::Phi { dst, args } = &self.func.insts[i] else {
                unreachable!("checked by function()")
            };
            match args.iter().find(|a| a.block == from) {
                Some(a) => moves.push((self.slot(*dst)?, self.op(a.value)?)),
                None => {
                    missing = Some(k as u32);
                    break;
                }
            }
        }
        Ok(Edge {
            target: to.0,
            moves: moves.into(),
            missing,
        })
    }

    fn inst(&self, data: &'m InstData) -> Result<Code<'m>, RuntimeError> {
        Ok(match data {
            InstData::Copy { dst, src } => Code::Copy {
                dst: self.slot(*dst)?,
                src: self.op(*src)?,
            },
            InstData::Unary { dst, op, arg } => Code::Unary {
                dst: self.slot(*dst)?,
                op: *op,
                arg: self.op(*arg)?,
            },
            InstData::Binary { dst, op, lhs, rhs } => Code::Binary {
                dst: self.slot(*dst)?,
                op: *op,
                lhs: self.op(*lhs)?,
                rhs: self.op(*rhs)?,
            },
            InstData::Call { dst, func, args } => Code::Call {
                dst: dst.map(|d| self.slot(d)).transpose()?,
                callee: match self.by_name.get(&**func) {
                    Some(&g) => Callee::Internal(g),
                    None => Callee::External {
                        name: func,
                        seed: fnv1a(FNV_OFFSET_BASIS, func.as_bytes()),
                    },
                },
                args: self.ops(args)?,
            },
            InstData::Print { args } => Code::Print {
                args: self.ops(args)?,
            },
            InstData::ParCopy { copies } => Code::ParCopy {
                dsts: copies
                    .iter()
                    .map(|&(d, _)| self.slot(d))
                    .collect::<Result<_, _>>()?,
                srcs: copies
                    .iter()
                    .map(|&(_, s)| self.op(s))
                    .collect::<Result<_, _>>()?,
            },
            InstData::Phi { .. } => unreachable!("checked by function()"),
        })
    }
}

// ---------------------------------------------------------------------------
// Running

/// A set of functions translated for execution, with call targets resolved.
/// Build it once, run it many times.
#[derive(Debug)]
pub struct Interpreter<'m> {
    funcs: Vec<CFunc<'m>>,
    by_name: HashMap<&'m str, u32>,
}

impl<'m> Interpreter<'m> {
    /// Translates every function of `module`.
    pub fn new(module: &'m Module) -> Result<Self, RuntimeError> {
        Self::from_functions(module.functions.iter())
    }

    /// Translates `funcs`; a call resolves to the first function of that name,
    /// any other callee is external.
    pub fn from_functions(
        funcs: impl IntoIterator<Item = &'m Function>,
    ) -> Result<Self, RuntimeError> {
        let funcs: Vec<&'m Function> = funcs.into_iter().collect();
        let mut by_name = HashMap::with_capacity(funcs.len());
        for (i, f) in funcs.iter().enumerate() {
            by_name.entry(&*f.name).or_insert(i as u32);
        }
        let funcs = funcs
            .iter()
            .map(|&func| {
                Compiler {
                    func,
                    by_name: &by_name,
                }
                .function()
            })
            .collect::<Result<_, _>>()?;
        Ok(Interpreter { funcs, by_name })
    }

    /// The index of the function named `name`, for [`Interpreter::run`].
    pub fn function_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).map(|&i| i as usize)
    }

    /// Runs function number `entry` on `args`.
    pub fn run(
        &self,
        entry: usize,
        args: &[i64],
        opts: &RunOptions,
    ) -> Result<Outcome, RuntimeError> {
        if entry >= self.funcs.len() {
            return Err(malformed(format!("no function number {entry}")));
        }
        let mut m = Machine {
            funcs: &self.funcs,
            opts,
            vals: Vec::new(),
            frames: Vec::new(),
            scratch: Vec::new(),
            dyn_insts: 0,
            output: Vec::new(),
            calls: Vec::new(),
        };
        let ret = m.exec(entry as u32, args)?;
        Ok(Outcome {
            output: m.output,
            ret,
            calls: m.calls,
            dyn_insts: m.dyn_insts,
        })
    }
}

/// Runs `entry` on `args`, calls resolving to the functions of `module`.
///
/// `entry` is normally one of `module`'s functions (for example
/// `module.entry_function(None)`); a function outside the module is run as
/// if appended to it (so `run(&Module::default(), &f, ...)` runs a lone `f`).
///
/// ```
/// use ssakit::interp::{run, RunOptions};
/// use ssakit::ir::{BinOp, FunctionBuilder, Module, Operand};
/// let mut b = FunctionBuilder::new("main");
/// let n = b.param("n");
/// let entry = b.block("entry");
/// b.switch_to(entry);
/// let x = b.var("x");
/// b.binary(x, BinOp::Mul, n.into(), Operand::Const(2));
/// b.print(vec![x.into(), Operand::Undef]);
/// b.ret(Some(x.into()));
/// let module = Module { functions: vec![b.finish()] };
/// let main = module.entry_function(None).unwrap();
/// let out = run(&module, main, &[21], &RunOptions::default()).unwrap();
/// assert_eq!(out.render(), "42 undef\n=> 42\n");
/// assert_eq!(out.dyn_insts, 3);
/// ```
pub fn run(
    module: &Module,
    entry: &Function,
    args: &[i64],
    opts: &RunOptions,
) -> Result<Outcome, RuntimeError> {
    match module.functions.iter().position(|f| std::ptr::eq(f, entry)) {
        Some(i) => Interpreter::new(module)?.run(i, args, opts),
        None => Interpreter::from_functions(module.functions.iter().chain([entry]))?.run(
            module.functions.len(),
            args,
            opts,
        ),
    }
}

/// An activation: the function, where it is, and its variables
/// `vals[base..base + nvars]`.
#[derive(Clone, Copy, Debug)]
struct Frame {
    func: u32,
    block: u32,
    /// Index of the next ordinary instruction of `block`.
    ip: usize,
    base: usize,
    /// The caller's slot receiving the result.
    ret_dst: Option<u32>,
}

struct Machine<'a, 'm> {
    funcs: &'a [CFunc<'m>],
    opts: &'a RunOptions,
    /// The variables of every frame, the callee's on top.
    vals: Vec<Value>,
    /// Suspended callers (the running frame is kept apart).
    frames: Vec<Frame>,
    /// Values read before any is written: the sources of a parallel copy or
    /// of an edge's phis, the arguments of an external call.
    scratch: Vec<Value>,
    dyn_insts: u64,
    output: Vec<Vec<Value>>,
    calls: Vec<CallRecord>,
}

#[inline]
fn read(vals: &[Value], base: usize, op: Op) -> Value {
    match op {
        Op::Slot(s) => vals[base + s as usize],
        Op::Const(c) => Value::Int(c),
        Op::Undef => Value::Undef,
    }
}

impl Machine<'_, '_> {
    fn error(&self, func: u32, block: u32, position: Position, kind: ErrorKind) -> RuntimeError {
        let f = self.funcs[func as usize].src;
        let b = &f.blocks[Block(block)];
        let inst = match position {
            Position::Inst(i) => b.phis.iter().chain(&b.insts).nth(i).copied(),
            Position::Terminator => None,
        };
        RuntimeError {
            kind,
            location: Some(Location {
                function: f.name.clone(),
                block: b.name.clone(),
                position,
                inst,
            }),
        }
    }

    /// Charges `cost` steps for the instruction at `(func, block, position)`.
    #[inline]
    fn charge(&mut self, cost: u64, fr: &Frame, position: Position) -> Result<(), RuntimeError> {
        if cost > self.opts.fuel - self.dyn_insts {
            let fuel = self.opts.fuel;
            return Err(self.error(fr.func, fr.block, position, ErrorKind::OutOfFuel { fuel }));
        }
        self.dyn_insts += cost;
        Ok(())
    }

    /// A new frame for function `g` at its entry block, on top of the value
    /// stack, every variable `undef`; the caller binds the parameters.
    fn enter(&mut self, g: u32, ret_dst: Option<u32>) -> Result<Frame, RuntimeError> {
        let gf = &self.funcs[g as usize];
        let base = self.vals.len();
        self.vals.resize(base + gf.nvars, Value::Undef);
        let fr = Frame {
            func: g,
            block: gf.entry,
            ip: 0,
            base,
            ret_dst,
        };
        if gf.blocks[gf.entry as usize].nphis > 0 {
            let kind = ErrorKind::MissingPhiArg { pred: None };
            return Err(self.error(g, gf.entry, Position::Inst(0), kind));
        }
        Ok(fr)
    }

    fn exec(&mut self, entry: u32, args: &[i64]) -> Result<Option<Value>, RuntimeError> {
        let funcs = self.funcs;
        let ef = &funcs[entry as usize];
        if args.len() != ef.params.len() {
            return Err(RuntimeError {
                kind: ErrorKind::ArityMismatch {
                    callee: ef.src.name.clone(),
                    expected: ef.params.len(),
                    got: args.len(),
                },
                location: None,
            });
        }
        let mut fr = self.enter(entry, None)?;
        for (&p, &a) in ef.params.iter().zip(args) {
            self.vals[p as usize] = Value::Int(a);
        }
        'frame: loop {
            let block = &funcs[fr.func as usize].blocks[fr.block as usize];
            // Ordinary instructions.
            while let Some(code) = block.insts.get(fr.ip) {
                let pos = Position::Inst(block.nphis as usize + fr.ip);
                let base = fr.base;
                let cost = match code {
                    Code::ParCopy { dsts, .. } => dsts.len() as u64,
                    _ => 1,
                };
                self.charge(cost, &fr, pos)?;
                match code {
                    Code::Copy { dst, src } => {
                        self.vals[base + *dst as usize] = read(&self.vals, base, *src);
                    }
                    Code::Unary { dst, op, arg } => {
                        let v = match read(&self.vals, base, *arg) {
                            Value::Int(a) => Value::Int(op.eval(a)),
                            Value::Undef => Value::Undef,
                        };
                        self.vals[base + *dst as usize] = v;
                    }
                    Code::Binary { dst, op, lhs, rhs } => {
                        let a = read(&self.vals, base, *lhs);
                        let b = read(&self.vals, base, *rhs);
                        let v = match (a, b) {
                            (Value::Int(a), Value::Int(b)) => op.eval(a, b).map(Value::Int),
                            (_, Value::Int(0)) if matches!(op, BinOp::Div | BinOp::Rem) => None,
                            _ => Some(Value::Undef),
                        };
                        let Some(v) = v else {
                            let kind = ErrorKind::DivisionByZero(*op);
                            return Err(self.error(fr.func, fr.block, pos, kind));
                        };
                        self.vals[base + *dst as usize] = v;
                    }
                    Code::Print { args } => {
                        let line = args.iter().map(|&a| read(&self.vals, base, a)).collect();
                        self.output.push(line);
                    }
                    Code::ParCopy { dsts, srcs } => {
                        // All reads, then all writes.
                        self.scratch.clear();
                        for &s in srcs.iter() {
                            let v = read(&self.vals, base, s);
                            self.scratch.push(v);
                        }
                        for (&d, &v) in dsts.iter().zip(&self.scratch) {
                            self.vals[base + d as usize] = v;
                        }
                    }
                    Code::Call {
                        dst,
                        callee: Callee::External { name, seed },
                        args,
                    } => {
                        self.scratch.clear();
                        for &a in args.iter() {
                            let v = read(&self.vals, base, a);
                            self.scratch.push(v);
                        }
                        let result = external_result(*seed, &self.scratch);
                        if self.opts.trace_calls {
                            self.calls.push(CallRecord {
                                func: (*name).into(),
                                args: self.scratch.clone(),
                                result,
                            });
                        }
                        if let Some(d) = dst {
                            self.vals[base + *d as usize] = result;
                        }
                    }
                    Code::Call {
                        dst,
                        callee: Callee::Internal(g),
                        args,
                    } => {
                        let gf = &funcs[*g as usize];
                        if args.len() != gf.params.len() {
                            let kind = ErrorKind::ArityMismatch {
                                callee: gf.src.name.clone(),
                                expected: gf.params.len(),
                                got: args.len(),
                            };
                            return Err(self.error(fr.func, fr.block, pos, kind));
                        }
                        // Live frames: the suspended callers, this one, the callee.
                        if self.frames.len() + 2 > self.opts.max_depth {
                            let kind = ErrorKind::CallDepthExceeded {
                                limit: self.opts.max_depth,
                            };
                            return Err(self.error(fr.func, fr.block, pos, kind));
                        }
                        let callee = self.enter(*g, *dst)?;
                        // The caller's slots stay below the callee's.
                        for (&p, &a) in gf.params.iter().zip(args.iter()) {
                            let v = read(&self.vals, base, a);
                            self.vals[callee.base + p as usize] = v;
                        }
                        fr.ip += 1;
                        self.frames.push(fr);
                        fr = callee;
                        continue 'frame;
                    }
                }
                fr.ip += 1;
            }

            // The terminator.
            self.charge(1, &fr, Position::Terminator)?;
            let cur = fr.base;
            let edge = match &block.term {
                Term::Jump(e) => e,
                Term::Branch {
                    cond,
                    then_edge,
                    else_edge,
                } => match read(&self.vals, cur, *cond) {
                    Value::Int(0) => else_edge,
                    Value::Int(_) => then_edge,
                    Value::Undef => {
                        let kind = ErrorKind::BranchOnUndef;
                        return Err(self.error(fr.func, fr.block, Position::Terminator, kind));
                    }
                },
                Term::Switch {
                    value,
                    default,
                    targets,
                } => match read(&self.vals, cur, *value) {
                    Value::Int(v) => usize::try_from(v)
                        .ok()
                        .and_then(|i| targets.get(i))
                        .unwrap_or(default),
                    Value::Undef => {
                        let kind = ErrorKind::SwitchOnUndef;
                        return Err(self.error(fr.func, fr.block, Position::Terminator, kind));
                    }
                },
                Term::Ret(v) => {
                    let v = v.map(|v| read(&self.vals, cur, v));
                    self.vals.truncate(fr.base);
                    let Some(caller) = self.frames.pop() else {
                        return Ok(v);
                    };
                    if let Some(d) = fr.ret_dst {
                        self.vals[caller.base + d as usize] = v.unwrap_or(Value::Undef);
                    }
                    fr = caller;
                    continue 'frame;
                }
            };

            // Take the edge: the target's phis as one parallel copy.
            let target = &funcs[fr.func as usize].blocks[edge.target as usize];
            if target.nphis > 0 {
                let from = fr.block;
                fr.block = edge.target;
                fr.ip = 0;
                self.charge(u64::from(target.nphis), &fr, Position::Inst(0))?;
                if let Some(k) = edge.missing {
                    let pred = funcs[fr.func as usize].src.blocks[Block(from)].name.clone();
                    let kind = ErrorKind::MissingPhiArg { pred: Some(pred) };
                    return Err(self.error(fr.func, fr.block, Position::Inst(k as usize), kind));
                }
                self.scratch.clear();
                for &(_, s) in edge.moves.iter() {
                    let v = read(&self.vals, cur, s);
                    self.scratch.push(v);
                }
                for (&(d, _), &v) in edge.moves.iter().zip(&self.scratch) {
                    self.vals[cur + d as usize] = v;
                }
            } else {
                fr.block = edge.target;
                fr.ip = 0;
            }
        }
    }
}
