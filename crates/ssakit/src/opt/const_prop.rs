//! Sparse conditional constant propagation (SCCP).
//!
//! Wegman and Zadeck, "Constant propagation with conditional branches"
//! (TOPLAS 1991), section 4: every variable gets a value of a three-level
//! lattice, optimistically ⊤ ("no value seen yet"), and every CFG edge is
//! assumed not executable until an executable block's terminator can take
//! it. Two worklists drive the propagation: *flow* edges newly found
//! executable, and *SSA* def-use edges whose definition's value dropped.
//! Because a branch whose condition is a constant only makes one edge
//! executable, the values flowing in along the other edge are ignored by
//! the phis it reaches — what plain constant propagation cannot do.
//!
//! # The lattice
//!
//! ```text
//!                 ⊤  (Top: not computed yet, or never executed)
//!     /     /     |     \       \
//!   undef  ...  Const(-1) Const(0) Const(1) ...
//!     \     \     |     /       /
//!                 ⊥  (Bottom: not a constant)
//! ```
//!
//! `undef` is one more constant: the value is ⊥ of the chapter (section
//! 13.5) whenever it is computed. It is never merged with an integer
//! (`undef ⊓ 3 = Bottom`): choosing 3 for the undefined operand would be a
//! legal refinement, but choosing 0 the same way could turn a later `a / v`
//! into a division by the constant 0.
//!
//! Operations on constants and `undef` evaluate by the one arithmetic of
//! [`crate::eval`], which the interpreter uses too (its rules, `undef`
//! included, are stated there); the lattice's transfer function only adds
//! ⊤ and ⊥ to it.
//! Beyond that:
//!
//! * an operation that traps on constants (a division by the constant 0) is
//!   ⊥ and the instruction stays;
//! * the results of a call or of a generic operation are ⊥ (the
//!   instruction stays if it has effects, and its results are never
//!   constants here);
//! * variables of a type other than `i64` are ⊥: they are never replaced
//!   by a constant, and a branch on one is never folded;
//! * a branch or switch on `undef` is a runtime error: its edges are all
//!   taken as executable and it is never folded.
//!
//! # The steps
//!
//! 1. *Propagate* (Wegman–Zadeck's algorithm): the entry is executable;
//!    visiting a block evaluates its phis (meet over the operands of
//!    executable incoming edges), its instructions and its terminator (which
//!    marks feasible out-edges executable); a value that drops queues the
//!    uses of the variable, re-evaluated if their block is executable. A
//!    drop during the first visit of the variable's block queues nothing:
//!    by the dominance property none of its uses has been evaluated yet
//!    (they are later in the block, in blocks it dominates, which cannot be
//!    executable before it, or phi operands on edges not yet executable).
//! 2. *Settle.* A terminator of an executable block whose condition is
//!    still ⊤ (only possible for a phi of the entry block, which no
//!    executable edge reaches) is taken as ⊥, and propagation resumes. Now
//!    every out-edge of an executable block is executable or decided by a
//!    constant.
//! 3. *Fold* every `branch` and `switch` on a constant into a `jump`.
//! 4. *Substitute* each variable whose value is a constant or `undef` at
//!    each of its uses, except a `branch`/`switch` condition that is `undef`
//!    (kept as it is, a runtime error). The uses are found through the
//!    variable's def-use chain (step 1's), not by a walk of every operand:
//!    few variables of lifted code are constants.
//! 5. *Delete* the definitions of substituted variables that have no use
//!    left, unless they have an effect (a division that may trap; see
//!    [`Function::effects`]). Only the blocks defining such a variable are
//!    looked at.
//! 6. *Clean up*: blocks never found executable are now
//!    unreachable and go, and phis lose the operands of edges that folding
//!    removed. When every block was found executable and no branch was
//!    folded there is nothing to clean: the step is skipped.
//!
//! # Correctness
//!
//! After steps 1–2, every out-edge of an executable block that step 3 keeps
//! is executable, so after folding, exactly the executable blocks are
//! reachable, and every phi operand left comes from an executable edge: the
//! meets computed in step 1 cover every value a phi can receive at run
//! time.
//!
//! What it deliberately does not do: algebraic simplification (`x * 0`,
//! `x - x`: with `x` possibly `undef` they are not constants here), folding
//! calls or generic operations, or propagating copies of variables (see
//! [`copy_prop`](mod@super::copy_prop)).
//!
//! # Preconditions
//! Valid SSA with the dominance property ([`crate::verify::verify`]); the
//! result has it too.
//!
//! Cost: each variable's value drops at most twice and each edge becomes
//! executable once, so `O(instructions + operands + edges)` visits. A phi
//! or a parallel copy is not evaluated again as a whole when one operand
//! changes: the phi meets in that operand (values only drop, so the meet of
//! the executable operands is kept incrementally), the parallel copy copies
//! that pair; a 100,000-operand phi or parallel copy costs what it has
//! operands, not their square.

use super::cfg_cleanup::cleanup_cfg;
use super::stats::Stats;
use crate::analysis::def_use::{Def, LinkedChains, UseSite};
use crate::entity::{Csr, EntityVec};
use crate::error::IrError;
use crate::eval::{self, Trap, Value};
use crate::ir::{
    BinOp, Block, Cfg, Function, Inst, InstData, OpKind, Opcode, Operand, Terminator, Type, UnOp,
    Var,
};

/// A value of the constant-propagation lattice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Lattice {
    /// ⊤: no value computed yet (optimistic).
    Top,
    /// Always this integer.
    Const(i64),
    /// Always `undef` (the chapter's ⊥ value, not the lattice's bottom).
    Undef,
    /// ⊥: not a constant.
    Bottom,
}

impl Lattice {
    /// The greatest lower bound: `Top ⊓ x = x`, `x ⊓ x = x`, any two
    /// different constants (`undef` included) give `Bottom`.
    pub(crate) fn meet(self, other: Lattice) -> Lattice {
        match (self, other) {
            (Lattice::Top, x) | (x, Lattice::Top) => x,
            (a, b) if a == b => a,
            _ => Lattice::Bottom,
        }
    }

    /// The runtime value this stands for, if it is a constant or `undef`.
    fn value(self) -> Option<Value> {
        match self {
            Lattice::Const(c) => Some(Value::Int(c)),
            Lattice::Undef => Some(Value::Undef),
            Lattice::Top | Lattice::Bottom => None,
        }
    }

    fn from_value(v: Value) -> Lattice {
        match v.as_int() {
            Some(c) => Lattice::Const(c),
            None => Lattice::Undef,
        }
    }

    /// The value of `op a`: [`eval::unary`], ⊤ and ⊥ staying as they are.
    pub(crate) fn unary(op: UnOp, a: Lattice) -> Lattice {
        match a.value() {
            Some(v) => Lattice::from_value(eval::unary(op, v)),
            None => a,
        }
    }

    /// The value of `a op b`: [`eval::binary`] on constants and `undef`,
    /// with ⊤ and ⊥ added on top.
    ///
    /// * ⊤ gives ⊤.
    /// * A divisor ⊥ gives ⊥: it may be 0. The function is monotone (a
    ///   property test checks it): with `undef / ⊥` giving `undef`, a
    ///   divisor falling from the constant 0 to ⊥ raised the result from ⊥
    ///   back to `undef`, and the pass was not idempotent on such programs.
    /// * Otherwise ⊥ is some integer: the result is `undef` when evaluating
    ///   with any integer in its place gives `undef` (then every integer
    ///   does: an `undef` operand decides alone), else ⊥.
    /// * A trap on a division by `undef` keeps the value `undef` (the
    ///   division is never deleted, so it still traps); one on a division
    ///   by 0 gives ⊥ (never folded).
    pub(crate) fn binary(op: BinOp, a: Lattice, b: Lattice) -> Lattice {
        match (a, b) {
            (Lattice::Top, _) | (_, Lattice::Top) => return Lattice::Top,
            (_, Lattice::Bottom) if op.may_trap() => return Lattice::Bottom,
            _ => {}
        }
        // Any non-zero integer stands for ⊥ (a divisor ⊥ was handled).
        let some_int = Value::Int(1);
        let (x, y) = (a.value().unwrap_or(some_int), b.value().unwrap_or(some_int));
        match eval::binary(op, x, y) {
            Ok(Value::Undef) | Err(Trap::DivisionByUndef) => Lattice::Undef,
            Ok(v) if a != Lattice::Bottom && b != Lattice::Bottom => match v.as_int() {
                Some(c) => Lattice::Const(c),
                None => Lattice::Bottom,
            },
            Ok(_) | Err(Trap::DivisionByZero) => Lattice::Bottom,
        }
    }

    /// The value of an operation of the [set](crate::ir::Opcode) on
    /// these operand values: ⊤ if any is ⊤, `undef` if any is `undef`
    /// (the interpreter gives `undef`, or traps where the operation may
    /// trap; a trapping operation is never deleted), ⊥ if any is ⊥, else
    /// [`Opcode::eval`] (⊥ when it traps: never folded). `select` with a
    /// constant condition is the operand it picks, with a ⊥ condition
    /// the meet of both. Loads and globals are ⊥.
    pub(crate) fn operation(o: Opcode, imms: &[i64], args: &[Lattice]) -> Lattice {
        if args.contains(&Lattice::Top) {
            return Lattice::Top;
        }
        if args.contains(&Lattice::Undef) {
            return Lattice::Undef;
        }
        match o.kind() {
            OpKind::Select => match args {
                [a, b, Lattice::Const(c)] => match *c as i32 {
                    0 => *b,
                    _ => *a,
                },
                [a, b, _] => a.meet(*b),
                _ => Lattice::Bottom,
            },
            OpKind::Compute if !args.contains(&Lattice::Bottom) => {
                let words: Vec<i64> = args
                    .iter()
                    .map(|a| match a {
                        Lattice::Const(c) => *c,
                        _ => 0,
                    })
                    .collect();
                match o.eval(imms, &words) {
                    Ok(c) => Lattice::Const(c),
                    Err(_) => Lattice::Bottom,
                }
            }
            _ => Lattice::Bottom,
        }
    }

    /// The operand standing for this value, if it is a constant or `undef`.
    pub(crate) fn as_operand(self) -> Option<Operand> {
        match self {
            Lattice::Const(c) => Some(Operand::Const(c)),
            Lattice::Undef => Some(Operand::Undef),
            _ => None,
        }
    }
}

/// The state of the propagation (step 1 and 2).
struct Sccp<'a> {
    func: &'a Function,
    du: &'a LinkedChains,
    cfg: &'a Cfg,
    /// Value of each variable.
    value: EntityVec<Var, Lattice>,
    /// Blocks found executable.
    executable: EntityVec<Block, bool>,
    /// Blocks whose terminator condition is taken as `Bottom` (step 2).
    forced: EntityVec<Block, bool>,
    /// Out-edges found executable: `edge_executable.of(b)[k]` for the
    /// `k`-th successor edge of `b`.
    edge_executable: Csr<Block, bool>,
    /// Flow worklist: edges newly found executable, each as its target
    /// and its position among the target's in-edges
    /// ([`PhiOperands::in_edge`]).
    flow_work: Vec<(Block, u32)>,
    /// SSA worklist: variables whose value dropped.
    ssa_work: Vec<Var>,
    /// Whether a drop queues the variable's uses: false while a block is
    /// visited for the first time ([`Sccp::visit_block`]), when no use of
    /// what it defines can have been evaluated yet (see [`Sccp::set`]).
    queue_uses: bool,
    /// The operand each in-edge brings to each phi, for the incremental
    /// meets of a phi (see [`Sccp::edge_into_phis`]).
    phi_operands: PhiOperands,
}

/// Which operand of each phi flows in along each in-edge of its block, in
/// dense tables (no hashing on the propagation's hot path).
///
/// The in-edges of a block `t` are numbered by their position `j` in
/// `cfg.preds(t)`, which lists the sources in layout order, each once per
/// edge (a switch reaching `t` twice from `p` gives two in-edges). Reading
/// the successor lists in the same layout order meets the in-edges of every
/// block in that order, so one counter per block numbers them all in
/// `O(edges)`.
///
/// Invariant: `operand[row[t] + m * cfg.preds(t).len() + j]` is the
/// position of the first operand of `t`'s `m`-th phi labelled by the source
/// of `t`'s in-edge `j`, or [`PhiOperands::NONE`] when it has none; rows
/// take `O(phis × predecessors)` room, the number of phi operands in valid
/// SSA (one operand per predecessor).
struct PhiOperands {
    /// `in_edge.of(b)[k]`: the position of `b`'s `k`-th out-edge among its
    /// target's in-edges.
    in_edge: Csr<Block, u32>,
    /// Where each block's rows start in `operand`.
    row: EntityVec<Block, u32>,
    /// The operand positions, one row per phi (see the invariant).
    operand: Vec<u32>,
}

impl PhiOperands {
    /// No operand labelled by that predecessor.
    const NONE: u32 = u32::MAX;

    fn new(func: &Function, cfg: &Cfg) -> Self {
        let nb = func.num_blocks();
        let mut in_edge = Csr::build(nb, |emit| {
            for b in func.blocks() {
                for _ in cfg.succs(b) {
                    emit.push(b, 0u32);
                }
            }
        });
        // In-edges numbered in the order `cfg.preds` lists them.
        let mut count: EntityVec<Block, u32> = EntityVec::filled(nb, 0);
        for &b in func.layout() {
            for (k, &t) in cfg.succs(b).iter().enumerate() {
                in_edge.of_mut(b)[k] = count[t];
                count[t] += 1;
            }
        }
        let mut row: EntityVec<Block, u32> = EntityVec::filled(nb, 0);
        let mut operand: Vec<u32> = Vec::new();
        // `first[p]`: the first operand of the current phi labelled `p`.
        let mut first: EntityVec<Block, u32> = EntityVec::filled(nb, Self::NONE);
        for &t in func.layout() {
            let phis = func.block_phis(t);
            if phis.is_empty() {
                continue;
            }
            row[t] = operand.len() as u32;
            let preds = cfg.preds(t);
            operand.reserve(phis.len() * preds.len());
            for &i in phis {
                let args = func.phi_args(i);
                for (k, a) in args.iter().enumerate().rev() {
                    first[a.block] = k as u32;
                }
                operand.extend(preds.iter().map(|&p| first[p]));
                for a in args {
                    first[a.block] = Self::NONE;
                }
            }
        }
        PhiOperands {
            in_edge,
            row,
            operand,
        }
    }
}

impl<'a> Sccp<'a> {
    fn new(func: &'a Function, du: &'a LinkedChains, cfg: &'a Cfg) -> Self {
        // ⊤ for what an instruction defines, of a type the operations
        // compute on; ⊥ for parameters (and, defensively, undefined
        // variables) and for the other types.
        let mut value: EntityVec<Var, Lattice> = EntityVec::filled(du.def.len(), Lattice::Bottom);
        for (v, d) in du.def.iter() {
            if matches!(d, Def::Inst { .. }) && computed(func.var_type(v)) {
                value[v] = Lattice::Top;
            }
        }
        let nb = func.num_blocks();
        let edge_executable = Csr::build(nb, |emit| {
            for b in func.blocks() {
                for _ in cfg.succs(b) {
                    emit.push(b, false);
                }
            }
        });
        Sccp {
            func,
            du,
            cfg,
            value,
            executable: EntityVec::filled(nb, false),
            forced: EntityVec::filled(nb, false),
            edge_executable,
            flow_work: Vec::new(),
            ssa_work: Vec::new(),
            queue_uses: true,
            phi_operands: PhiOperands::new(func, cfg),
        }
    }

    /// An edge `p → t` into an executable block was found executable: each
    /// phi of `t` meets its operand from `p`. Values only drop, so the meet
    /// of a phi's executable operands is kept by meeting in each operand
    /// as its edge becomes executable or its value drops, instead of
    /// re-evaluating the whole phi (quadratic on a join of 100,000 edges).
    /// `j` is the edge's position among `t`'s in-edges
    /// ([`PhiOperands::in_edge`]).
    fn edge_into_phis(&mut self, t: Block, j: u32) {
        let func = self.func;
        let np = self.cfg.preds(t).len();
        let row = self.phi_operands.row[t] as usize + j as usize;
        for (m, &i) in func.block_phis(t).iter().enumerate() {
            let k = self.phi_operands.operand[row + m * np];
            if k != PhiOperands::NONE {
                let a = func.phi_args(i)[k as usize];
                let dst = func.def(i).expect("a phi defines one variable");
                self.set(dst, self.operand(a.value));
            }
        }
    }

    /// Operand `k` of instruction `i`, in an executable block, reads a
    /// variable whose value dropped: the definitions it feeds drop too. A
    /// phi meets in that operand alone (if its edge is feasible), a
    /// parallel copy copies that pair alone; anything else is evaluated
    /// again.
    fn operand_dropped(&mut self, i: Inst, k: u32) {
        let func = self.func;
        match func.inst(i) {
            InstData::Phi { dst, args } => {
                let a = args.as_slice(func)[k as usize];
                let Some(t) = func.inst_block(i) else { return };
                if self.feasible(a.block, t) {
                    self.set(*dst, self.operand(a.value));
                }
            }
            InstData::ParCopy { copies } => {
                let (d, s) = copies.as_slice(func)[k as usize];
                self.set(d, self.operand(s));
            }
            // Their results went to ⊥ when their block was first visited,
            // whatever the operands (a call of 32 results and 16
            // arguments would otherwise be visited again per argument).
            InstData::Call { .. } | InstData::Print { .. } => {}
            InstData::Op { op, .. } if func.opcode(*op).is_none() => {}
            _ => self.visit_inst(i),
        }
    }

    fn operand(&self, o: Operand) -> Lattice {
        match o {
            Operand::Var(v) => self.value[v],
            Operand::Const(c) => Lattice::Const(c),
            Operand::Undef => Lattice::Undef,
        }
    }

    /// Lowers `v` to `value[v] ⊓ new`, queueing its uses if it dropped.
    /// An `i32` constant is kept as its low 32 bits sign-extended, the
    /// interpreter's form of an `i32` value.
    ///
    /// During the first visit of `v`'s block the uses are not queued: by
    /// the dominance property every use of `v` is a later instruction or
    /// the terminator of that block (visited next, reading the new value),
    /// an instruction or terminator of a block it dominates, or a phi
    /// operand flowing from such a block or from the block itself. A
    /// block dominated by `b` becomes executable only after `b` does (an
    /// executable path from the entry runs through `b`), and no block
    /// becomes executable while `b` is being visited; an edge leaving
    /// `b` becomes executable only when the terminator is visited, after
    /// the definitions, and the phis it reaches then meet in the values as
    /// they are. Re-evaluating those uses would find nothing new.
    fn set(&mut self, v: Var, new: Lattice) {
        let new = match new {
            Lattice::Const(c) if self.func.var_type(v) == Type::I32 => {
                Lattice::Const(c as i32 as i64)
            }
            _ => new,
        };
        let m = self.value[v].meet(new);
        if m != self.value[v] {
            self.value[v] = m;
            if self.queue_uses {
                self.ssa_work.push(v);
            }
        }
    }

    /// [`Sccp::set`] of `v` to ⊥ (what `x ⊓ ⊥` always is), without the
    /// meet: the results of calls and generic operations, most of lifted
    /// code's definitions.
    fn set_bottom(&mut self, v: Var) {
        if self.value[v] != Lattice::Bottom {
            self.value[v] = Lattice::Bottom;
            if self.queue_uses {
                self.ssa_work.push(v);
            }
        }
    }

    /// The value of `b`'s branch or switch condition (`Bottom` once forced,
    /// or for any other terminator).
    fn cond_value(&self, b: Block) -> Lattice {
        match self.func.term(b) {
            _ if self.forced[b] => Lattice::Bottom,
            Terminator::Branch { cond: o, .. } | Terminator::Switch { value: o, .. } => {
                self.operand(*o)
            }
            Terminator::Jump(_) | Terminator::Ret(_) | Terminator::Unreachable => Lattice::Bottom,
        }
    }

    /// The only successor `b` can go to, when its condition is a constant.
    fn constant_target(&self, b: Block) -> Option<Block> {
        let Lattice::Const(c) = self.cond_value(b) else {
            return None;
        };
        match self.func.term(b) {
            Terminator::Branch {
                then_dest,
                else_dest,
                ..
            } => Some(if c != 0 { *then_dest } else { *else_dest }),
            Terminator::Switch {
                default, targets, ..
            } => Some(
                usize::try_from(c)
                    .ok()
                    .and_then(|k| targets.as_slice(self.func).get(k))
                    .copied()
                    .unwrap_or(*default),
            ),
            Terminator::Jump(_) | Terminator::Ret(_) | Terminator::Unreachable => None,
        }
    }

    /// Whether control may flow from `p` to its successor `t` given what is
    /// known now.
    fn feasible(&self, p: Block, t: Block) -> bool {
        if !self.executable[p] {
            return false;
        }
        match self.func.term(p) {
            Terminator::Jump(_) => true,
            Terminator::Ret(_) | Terminator::Unreachable => false,
            Terminator::Branch { .. } | Terminator::Switch { .. } => match self.cond_value(p) {
                Lattice::Top => false,
                Lattice::Const(_) => self.constant_target(p) == Some(t),
                Lattice::Undef | Lattice::Bottom => true,
            },
        }
    }

    fn visit_phi(&mut self, i: Inst, b: Block) {
        let func = self.func;
        let InstData::Phi { dst, args } = func.inst(i) else {
            return;
        };
        let mut v = Lattice::Top;
        for a in args.as_slice(func) {
            if self.feasible(a.block, b) {
                v = v.meet(self.operand(a.value));
                if v == Lattice::Bottom {
                    break;
                }
            }
        }
        self.set(*dst, v);
    }

    fn visit_inst(&mut self, i: Inst) {
        let func = self.func;
        match func.inst(i) {
            InstData::Copy { dst, src } => self.set(*dst, self.operand(*src)),
            InstData::Unary { dst, op, arg } => {
                self.set(*dst, Lattice::unary(*op, self.operand(*arg)))
            }
            InstData::Binary { dst, op, lhs, rhs } => {
                let v = Lattice::binary(*op, self.operand(*lhs), self.operand(*rhs));
                self.set(*dst, v)
            }
            InstData::Op {
                op,
                imms,
                args,
                results,
            } if func.opcode(*op).is_some() => {
                let o = func.opcode(*op).expect("an operation of the set");
                let args = args.as_slice(func);
                // The set's operations take at most four operands: no
                // allocation per visit.
                let mut buf = [Lattice::Top; 4];
                let many: Vec<Lattice>;
                let vals: &[Lattice] = if args.len() <= buf.len() {
                    for (slot, &a) in buf.iter_mut().zip(args) {
                        *slot = self.operand(a);
                    }
                    &buf[..args.len()]
                } else {
                    many = args.iter().map(|&a| self.operand(a)).collect();
                    &many
                };
                let v = Lattice::operation(o, imms.as_slice(func), vals);
                for &d in results.as_slice(func) {
                    self.set(d, v)
                }
            }
            InstData::Call { results, .. } | InstData::Op { results, .. } => {
                for &d in results.as_slice(func) {
                    self.set_bottom(d)
                }
            }
            InstData::Print { .. } => {}
            InstData::ParCopy { copies } => {
                for &(d, s) in copies.as_slice(func) {
                    self.set(d, self.operand(s));
                }
            }
            InstData::Phi { .. } => {
                if let Some(b) = func.inst_block(i) {
                    self.visit_phi(i, b)
                }
            }
        }
    }

    /// Marks the feasible out-edges of `b` executable.
    fn visit_term(&mut self, b: Block) {
        for (k, &t) in self.cfg.succs(b).iter().enumerate() {
            if !self.edge_executable.of(b)[k] && self.feasible(b, t) {
                self.edge_executable.of_mut(b)[k] = true;
                let j = self.phi_operands.in_edge.of(b)[k];
                self.flow_work.push((t, j));
            }
        }
    }

    /// The first visit of `b`, just found executable: its phis, its
    /// instructions, its terminator. What it defines drops without queueing
    /// its uses (see [`Sccp::set`]).
    fn visit_block(&mut self, b: Block) {
        let func = self.func;
        self.queue_uses = false;
        for &i in func.block_phis(b) {
            self.visit_phi(i, b);
        }
        for &i in func.block_insts(b) {
            self.visit_inst(i);
        }
        self.queue_uses = true;
        self.visit_term(b);
    }

    /// Steps 1 and 2.
    fn run(&mut self) {
        let func = self.func;
        let entry = func.entry();
        self.executable[entry] = true;
        self.visit_block(entry);
        loop {
            // Step 1: drain both worklists.
            loop {
                if let Some((t, j)) = self.flow_work.pop() {
                    if self.executable[t] {
                        self.edge_into_phis(t, j);
                    } else {
                        self.executable[t] = true;
                        self.visit_block(t);
                    }
                } else if let Some(v) = self.ssa_work.pop() {
                    let du = self.du;
                    for site in du.uses(v) {
                        match site {
                            UseSite::Inst(i, k) => {
                                if func.inst_block(i).is_some_and(|b| self.executable[b]) {
                                    self.operand_dropped(i, k)
                                }
                            }
                            UseSite::Term(b) => {
                                if self.executable[b] {
                                    self.visit_term(b)
                                }
                            }
                        }
                    }
                } else {
                    break;
                }
            }
            // Step 2: conditions still ⊤ are taken as ⊥.
            for &b in func.layout() {
                if self.executable[b]
                    && !self.forced[b]
                    && matches!(
                        func.term(b),
                        Terminator::Branch { .. } | Terminator::Switch { .. }
                    )
                    && self.cond_value(b) == Lattice::Top
                {
                    self.forced[b] = true;
                    self.visit_term(b);
                }
            }
            if self.flow_work.is_empty() && self.ssa_work.is_empty() {
                break;
            }
        }
    }
}

/// Sparse conditional constant propagation: replaces every `i64` variable
/// that always holds one constant (or always `undef`) by it, folds
/// branches and switches on constants into jumps, and removes the blocks
/// that can no longer run. Returns the counts in
/// [`Stats::constants_folded`], [`Stats::branches_folded`] and
/// [`Stats::blocks_removed`].
///
/// Instructions with an effect (calls, prints, operations with effects,
/// divisions that may trap) are never deleted, and no instruction moves.
///
/// # Errors
/// A variable defined twice (the input is not SSA).
///
/// What it deletes stays in the instruction table, listed by no block,
/// until the caller's [`Function::compact`] ([`run_passes`](super::run_passes)
/// compacts once after the last pass).
///
/// Also returns the definition of every variable still defined in the
/// layout (the table of its def-use chains, kept true through steps 3 to
/// 5), for `dce` after it, unless step 6 ran (it renumbers the
/// instructions).
pub(crate) fn const_prop(
    func: &mut Function,
) -> Result<(Stats, Option<EntityVec<Var, Def>>), IrError> {
    let du = LinkedChains::new(func)?;
    let cfg = Cfg::new(func);
    let mut sccp = Sccp::new(func, &du, &cfg);
    sccp.run();
    // Step 3 is planned before `func` is borrowed mutably.
    let folds: Vec<(Block, Block)> = func
        .layout()
        .iter()
        .filter(|&&b| sccp.executable[b])
        .filter_map(|&b| sccp.constant_target(b).map(|t| (b, t)))
        .collect();
    let Sccp {
        mut value,
        executable,
        ..
    } = sccp;
    // Whether step 6 has anything to do: a block never found executable,
    // or an edge removed by folding.
    let cleanup = !folds.is_empty() || func.layout().iter().any(|&b| !executable[b]);
    let mut stats = Stats::default();

    // Step 3: fold.
    for &(b, t) in &folds {
        func.set_term(b, Terminator::Jump(t));
        stats.branches_folded += 1;
    }

    // A float constant has no literal: its variable stays (only `undef`
    // replaces it). `substituted`: the variables steps 4 and 5 have to
    // replace; with none they have nothing to do.
    let mut substituted: Vec<Var> = Vec::new();
    for (k, l) in value.values_mut().enumerate() {
        match l {
            Lattice::Const(_) if !func.var_type(Var::new(k)).is_int() => *l = Lattice::Bottom,
            Lattice::Const(_) | Lattice::Undef => substituted.push(Var::new(k)),
            Lattice::Top | Lattice::Bottom => {}
        }
    }
    let mut du = du;
    if !substituted.is_empty() {
        substitute_and_delete(func, &value, &executable, &substituted, &mut du, &mut stats);
    }

    // Step 6: unreachable blocks and phi operands of removed edges.
    if cleanup {
        let cleaned = cleanup_cfg(func);
        stats.blocks_removed = cleaned.blocks_removed;
    }
    // The clean-up renumbers the instructions: the table is only handed
    // on without it.
    let def = (!cleanup).then_some(du.def);
    Ok((stats, def))
}

/// Steps 4 and 5 in the executable blocks: every use of a variable whose
/// `value` is a constant or `undef` (the variables `substituted`) is
/// replaced by it, and the definitions of those left without a use go.
/// The uses are those the chains `du` list (each operand reading the
/// variable, no other); the deletions look only at the blocks defining a
/// variable that goes (and at every block if the layout holds a parallel
/// copy of no pairs, which goes too). `du.def` is kept true for the
/// parallel copies that lose pairs (the slots of the pairs after them
/// move).
fn substitute_and_delete(
    func: &mut Function,
    value: &EntityVec<Var, Lattice>,
    executable: &EntityVec<Block, bool>,
    substituted: &[Var],
    du: &mut LinkedChains,
    stats: &mut Stats,
) {
    // Step 4: substitute (only `i64` and `bool` variables have constant
    // values). `kept[v]`: a use of `v` is left (a condition that is
    // `undef`, a `bool` printed), so its definition must stay.
    let mut kept: EntityVec<Var, bool> = EntityVec::filled(func.num_vars(), false);
    let subst = |o: &mut Operand| {
        if let Operand::Var(v) = *o {
            if let Some(c) = value[v].as_operand() {
                *o = c;
            }
        }
    };
    for &v in substituted {
        for site in du.uses(v) {
            match site {
                UseSite::Inst(i, k) => {
                    if !func.inst_block(i).is_some_and(|b| executable[b]) {
                        continue;
                    }
                    // A `bool` prints `true` or `false`, a literal prints
                    // as an integer: `print` keeps its `bool` variables.
                    if matches!(func.inst(i), InstData::Print { .. })
                        && func.var_type(v) == Type::Bool
                    {
                        kept[v] = true;
                        continue;
                    }
                    let mut n = 0;
                    func.for_each_operand_mut(i, |o| {
                        if n == k {
                            subst(o);
                        }
                        n += 1;
                    });
                }
                UseSite::Term(b) if executable[b] => match *func.term(b) {
                    Terminator::Ret(_) => func.for_each_term_operand_mut(b, subst),
                    Terminator::Branch { .. } | Terminator::Switch { .. } => kept[v] = true,
                    Terminator::Jump(_) | Terminator::Unreachable => {}
                },
                UseSite::Term(_) => {}
            }
        }
    }

    // Step 5: delete the definitions of substituted variables, in the
    // blocks that define one that goes.
    let gone = |v: Var| value[v].as_operand().is_some() && !kept[v];
    let mut defines_gone: EntityVec<Block, bool> =
        EntityVec::filled(func.num_blocks(), du.empty_par_copy);
    for &v in substituted {
        if let Def::Inst { inst, .. } = du.def[v] {
            if let Some(b) = func.inst_block(inst).filter(|_| gone(v)) {
                defines_gone[b] = true;
            }
        }
    }
    let def = &mut du.def;
    for k in 0..func.layout().len() {
        let b = func.layout()[k];
        if !executable[b] || !defines_gone[b] {
            continue;
        }
        let before = func.block_phis(b).len();
        func.retain_phis(b, |func, i| !func.def(i).is_some_and(gone));
        stats.constants_folded += before - func.block_phis(b).len();
        for j in 0..func.block_insts(b).len() {
            let i = func.block_insts(b)[j];
            if func.inst(i).is_par_copy() {
                func.edit_par_copy(i, |copies, func| {
                    let n = copies.len();
                    copies.retain(func, |(d, _)| !gone(*d));
                    if copies.len() < n {
                        stats.constants_folded += n - copies.len();
                        for (slot, &(d, _)) in copies.as_slice(func).iter().enumerate() {
                            def[d] = Def::Inst {
                                inst: i,
                                slot: slot as u32,
                            };
                        }
                    }
                });
            }
        }
        let folded = &mut stats.constants_folded;
        func.retain_insts(b, |func, i| {
            let keep = match func.inst(i) {
                InstData::ParCopy { copies } => return !copies.is_empty(),
                InstData::Copy { dst, .. }
                | InstData::Unary { dst, .. }
                | InstData::Binary { dst, .. } => !gone(*dst),
                InstData::Op { op, results, .. } if func.opcode(*op).is_some() => {
                    results.is_empty() || results.as_slice(func).iter().any(|&r| !gone(r))
                }
                InstData::Phi { .. }
                | InstData::Call { .. }
                | InstData::Print { .. }
                | InstData::Op { .. } => true,
            };
            let keep = keep || !func.effects(i).removable_if_unused();
            *folded += usize::from(!keep);
            keep
        });
    }
}

/// Whether constant propagation computes on values of type `ty`: the
/// integers, `bool` and the floats (a float constant is never substituted,
/// but it folds the operations that read it).
fn computed(ty: Type) -> bool {
    ty.is_computed() || matches!(ty, Type::I32 | Type::F32 | Type::F64)
}

#[cfg(test)]
mod tests {
    use super::Lattice;
    use crate::ir::BinOp;
    use crate::opt::testing::check;

    /// `x ⊑ y` in the flat lattice: ⊥ below everything, ⊤ above.
    fn below(x: Lattice, y: Lattice) -> bool {
        x == y || x == Lattice::Bottom || y == Lattice::Top
    }

    #[test]
    fn transfer_functions_are_monotone() {
        use Lattice::*;
        let values = [
            Top,
            Undef,
            Const(0),
            Const(1),
            Const(-1),
            Const(7),
            Const(i64::MIN),
            Bottom,
        ];
        for op in BinOp::ALL {
            for &a1 in &values {
                for &a2 in values.iter().filter(|&&a2| below(a2, a1)) {
                    for &b1 in &values {
                        for &b2 in values.iter().filter(|&&b2| below(b2, b1)) {
                            let hi = Lattice::binary(op, a1, b1);
                            let lo = Lattice::binary(op, a2, b2);
                            assert!(
                                below(lo, hi),
                                "{op:?}: ({a1:?}, {b1:?}) gives {hi:?}, \
                                 ({a2:?}, {b2:?}) gives {lo:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Folding against the interpreter's evaluation, end to end.
    /// For every operator and every pair of edge constants (0, ±1, ±2, the
    /// shift amounts 63 to 65, the 32-bit edges, 2³², `i64::MIN`,
    /// `i64::MAX` and their neighbours, `undef`), `x = a op b; ret x` is run
    /// as written, then constructed, put through `const_prop` and run
    /// again: the same value, or the same runtime error (a trapping
    /// operation is left in place); and an operation that does not trap
    /// is folded away. A different fold of `i64::MIN / -1` (it wraps to
    /// `i64::MIN`, as in `ssakit run`) fails here.
    #[test]
    fn folding_agrees_with_the_interpreter_on_edge_constants() {
        use crate::interp::{run, RunOptions};
        use crate::ir::{InstData, Module, UnOp};
        let edges: Vec<String> = [
            0,
            1,
            -1,
            2,
            -2,
            63,
            64,
            65,
            i64::from(i32::MIN),
            i64::from(i32::MIN) - 1,
            i64::from(i32::MAX),
            i64::from(i32::MAX) + 1,
            i64::from(u32::MAX),
            1 << 32,
            i64::MIN,
            i64::MIN + 1,
            i64::MAX,
            i64::MAX - 1,
        ]
        .iter()
        .map(i64::to_string)
        .chain(["undef".to_string()])
        .collect();
        let mut exprs: Vec<String> = Vec::new();
        for op in [UnOp::Neg, UnOp::Not] {
            exprs.extend(edges.iter().map(|a| format!("{} {a}", op.symbol())));
        }
        for op in BinOp::ALL {
            for a in &edges {
                exprs.extend(edges.iter().map(|b| format!("{a} {} {b}", op.symbol())));
            }
        }
        let mut folded = 0;
        for expr in &exprs {
            let src = format!("function main() {{\ne:\n    x = {expr}\n    ret x\n}}\n");
            let m = crate::text::parse_module(&src).unwrap_or_else(|e| panic!("{expr}: {e:?}"));
            let opts = RunOptions::default();
            let want = run(&m, &m.functions[0], &[], &opts);
            let mut f = m.functions[0].clone();
            crate::construct::construct(&mut f, &Default::default()).unwrap();
            super::const_prop(&mut f).unwrap();
            let left =
                f.layout().iter().flat_map(|&b| f.block_insts(b)).any(|&i| {
                    matches!(f.inst(i), InstData::Binary { .. } | InstData::Unary { .. })
                });
            let folded_module = Module { functions: vec![f] };
            let got = run(&folded_module, &folded_module.functions[0], &[], &opts);
            match (&want, &got) {
                (Ok(w), Ok(g)) => {
                    assert_eq!(w.ret, g.ret, "{expr}");
                    assert!(!left, "{expr}: not folded");
                    folded += 1;
                }
                (Err(w), Err(g)) => assert_eq!(w.to_string(), g.to_string(), "{expr}"),
                _ => panic!("{expr}: {want:?} as written, {got:?} folded"),
            }
        }
        // Only divisions and remainders by 0 or undef trap.
        assert!(folded > exprs.len() * 8 / 10, "{folded} of {}", exprs.len());
    }

    #[test]
    fn the_lattice_follows_the_interpreter() {
        use Lattice::*;
        assert_eq!(Const(3).meet(Const(3)), Const(3));
        assert_eq!(Const(3).meet(Const(4)), Bottom);
        assert_eq!(Const(3).meet(Undef), Bottom);
        assert_eq!(Top.meet(Undef), Undef);
        assert_eq!(Lattice::binary(BinOp::Add, Const(2), Const(3)), Const(5));
        assert_eq!(Lattice::binary(BinOp::Add, Undef, Bottom), Undef);
        assert_eq!(Lattice::binary(BinOp::Add, Top, Bottom), Top);
        assert_eq!(Lattice::binary(BinOp::Div, Const(7), Const(0)), Bottom);
        assert_eq!(Lattice::binary(BinOp::Rem, Undef, Const(0)), Bottom);
        assert_eq!(Lattice::binary(BinOp::Div, Bottom, Undef), Undef);
        assert_eq!(Lattice::binary(BinOp::Div, Undef, Const(3)), Undef);
        assert_eq!(Lattice::binary(BinOp::Lt, Const(1), Const(2)), Const(1));
    }

    #[test]
    fn arithmetic_on_constants_folds() {
        let s = check(
            "function f(a) {
entry:
    x = 2 + 3
    y = x * 4
    z = -y
    w = z + a
    print y, z, w
    ret
}",
            "const-prop",
            "function f(a) {
entry:
    w = -20 + a
    print 20, -20, w
    ret
}
",
        );
        assert_eq!(s.constants_folded, 3);
    }

    #[test]
    fn division_by_zero_is_not_folded() {
        // `q` would stop the program: it stays, though 8 / 2 folds.
        check(
            "function f() {
entry:
    z = 0
    q = 7 / z
    r = 8 / 2
    print q, r
    ret
}",
            "const-prop",
            "function f() {
entry:
    q = 7 / 0
    print q, 4
    ret
}
",
        );
    }

    #[test]
    fn a_constant_branch_becomes_a_jump() {
        // `else` can no longer run: it goes, and so does the phi operand it
        // labelled; the phi is then the constant 5.
        let s = check(
            "function f(a) {
entry:
    c = 1 < 2
    branch c, then, else
then:
    jump join
else:
    y = a + 1
    jump join
join:
    x = phi(then: 5, else: y)
    ret x
}",
            "const-prop",
            "function f(a) {
entry:
    jump then
then:
    jump join
join:
    ret 5
}
",
        );
        assert_eq!((s.branches_folded, s.blocks_removed), (1, 1));
    }

    #[test]
    fn a_constant_switch_becomes_a_jump_and_phis_lose_the_edge() {
        // `d` stays reachable through `b`, but not from `entry`.
        check(
            "function f(a) {
entry:
    switch 1, d, [b, c]
b:
    branch a, d, e
c:
    jump e
d:
    x = phi(entry: 0, b: 1)
    print x
    jump e
e:
    ret
}",
            "const-prop",
            "function f(a) {
entry:
    jump c
c:
    jump e
e:
    ret
}
",
        );
    }

    #[test]
    fn conditional_propagation_ignores_dead_edges() {
        // Wegman and Zadeck's point: x1 is 1 on entry, so `x1 == 1` holds,
        // `other` never runs, x2 = x1 = 1 and x1 stays 1. Propagation that
        // ignores branch conditions sees x2 = phi(1, 2) and gives up.
        check(
            "function f(n) {
entry:
    jump head
head:
    x1 = phi(entry: 1, latch: x2)
    i1 = phi(entry: 0, latch: i2)
    b = x1 == 1
    branch b, same, other
same:
    jump latch
other:
    jump latch
latch:
    x2 = phi(same: x1, other: 2)
    i2 = i1 + 1
    c = i2 < n
    branch c, head, exit
exit:
    print x1, i2
    ret x2
}",
            "const-prop",
            "function f(n) {
entry:
    jump head
head:
    i1 = phi(entry: 0, latch: i2)
    jump same
same:
    jump latch
latch:
    i2 = i1 + 1
    c = i2 < n
    branch c, head, exit
exit:
    print 1, i2
    ret 1
}
",
        );
    }

    #[test]
    fn undef_propagates_but_a_branch_on_it_stays() {
        // `u` is always undef: printed as such; a branch on it is a runtime
        // error and is neither folded nor rewritten.
        check(
            "function f(a) {
entry:
    u = undef + 1
    v = u < 3
    print u
    branch v, t, e
t:
    ret 1
e:
    ret 2
}",
            "const-prop",
            "function f(a) {
entry:
    v = undef < 3
    print undef
    branch v, t, e
t:
    ret 1
e:
    ret 2
}
",
        );
    }

    #[test]
    fn undef_and_a_constant_do_not_merge() {
        let src = "function f(c) {
entry:
    branch c, l, r
l:
    jump join
r:
    jump join
join:
    x = phi(l: 0, r: undef)
    y = 5 / x
    print y
    ret
}
";
        check(src, "const-prop", src);
    }

    #[test]
    fn operations_of_the_set_fold_generic_ones_and_calls_do_not() {
        // `k` is an i32 constant: `i32.add(k, k)` folds to 10. The store
        // declared `write` (not the set's `trap write`) is a generic
        // operator of the user's and stays; the results of the call are
        // unknown. `c` is an i64 constant.
        check(
            "operator i32.add pure
operator i32.store write

function f(a) {
entry:
    k: i32 = 5
    x: i32 = i32.add(k, k)
    i32.store[0](x, x)
    (u, w) = g(1)
    c = 2 + 3
    print c, u, w
    ret c, u
}",
            "const-prop",
            "function f(a) {
entry:
    i32.store[0](10, 10)
    (u, w) = g(1)
    print 5, u, w
    ret 5, u
}
",
        );
    }

    #[test]
    fn float_constants_fold_what_reads_them_and_stay() {
        // 1.5 + 1.5 < 4.0: the comparison folds and so does the branch;
        // a float has no literal, so `y` and `s` stay (dce may take them).
        check(
            "operator f64.const pure
operator f64.add pure
operator f64.lt pure

function f() {
entry:
    y: f64 = f64.const[4609434218613702656]()
    four: f64 = f64.const[4616189618054758400]()
    s: f64 = f64.add(y, y)
    c: i32 = f64.lt(s, four)
    branch c, t, e
t:
    ret 1
e:
    ret 2
}",
            "const-prop",
            "function f() {
entry:
    y: f64 = f64.const[4609434218613702656]()
    four: f64 = f64.const[4616189618054758400]()
    s: f64 = f64.add(y, y)
    jump t
t:
    ret 1
}
",
        );
    }

    #[test]
    fn a_division_of_the_set_folds_unless_it_traps() {
        check(
            "operator i32.div_s trap

function f(a: i32) -> (i32, i32, i32) {
entry:
    q: i32 = i32.div_s(7, 2)
    z: i32 = i32.div_s(7, 0)
    o: i32 = i32.div_s(-2147483648, -1)
    ret q, z, o
}",
            "const-prop",
            "function f(a: i32) -> (i32, i32, i32) {
entry:
    z: i32 = i32.div_s(7, 0)
    o: i32 = i32.div_s(-2147483648, -1)
    ret 3, z, o
}
",
        );
    }

    #[test]
    fn an_unreachable_terminator_stays() {
        check(
            "function f(a) {
entry:
    c = 1 < 2
    branch c, t, e
t:
    unreachable
e:
    ret a
}",
            "const-prop",
            "function f(a) {
entry:
    jump t
t:
    unreachable
}
",
        );
    }
}
