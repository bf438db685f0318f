//! Translation of functions into the interpreter's dense tables: variables
//! become frame slots, call targets function indices, and the phis of every
//! CFG edge a precomputed parallel copy, so that execution does no lookups.
//!
//! What the interpreter cannot run is refused here, before anything runs:
//! generic operations, variables of a type other than `i64` and `bool`, and
//! calls of externals with several results; in [`Mode::Uninterpreted`] all
//! of them run, as uninterpreted functions (see the parent module).

use super::error::{malformed, ErrorKind, Location, Position, RuntimeError};
use super::external::{fnv1a, FNV_OFFSET_BASIS};
use super::options::Mode;
use crate::ir::{
    BinOp, Block, Function, Inst, InstData, OpKind, Opcode, Operand, Operator, Terminator, Type,
    UnOp, Var, VarNames,
};
use rustc_hash::FxHashMap as HashMap;

/// An operand with its variable resolved to a frame slot.
#[derive(Clone, Copy, Debug)]
pub(super) enum Op {
    Slot(u32),
    Const(i64),
    Undef,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Callee<'m> {
    /// Index of a function of the interpreter.
    Internal(u32),
    /// An external: its name and the FNV-1a state after the name's bytes.
    External { name: &'m str, seed: u64 },
}

/// An ordinary instruction. Phis are not here: they live on the edges.
#[derive(Debug)]
pub(super) enum Code<'m> {
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
    /// A generic operation run as an uninterpreted function
    /// ([`Mode::Uninterpreted`] only); boxed, it is rare and large.
    Op(Box<OpCode<'m>>),
    /// An operation of the set, run with its meaning
    /// ([`Mode::Strict`] only).
    Exec(Box<ExecCode<'m>>),
    /// A call; an external one has at most one result outside
    /// [`Mode::Uninterpreted`].
    Call {
        results: Box<[u32]>,
        callee: Callee<'m>,
        args: Box<[Op]>,
    },
    /// `bools[k]`: argument `k` is a `bool` variable, printed `true` or
    /// `false`.
    Print {
        args: Box<[Op]>,
        bools: Box<[bool]>,
    },
    ParCopy {
        dsts: Box<[u32]>,
        srcs: Box<[Op]>,
    },
}

/// A generic operation, ready to be hashed: see the parent module's
/// "Uninterpreted operations".
#[derive(Debug)]
pub(super) struct OpCode<'m> {
    pub(super) results: Box<[u32]>,
    /// `bools[k]`: result `k` is a `bool` variable (its value is 0 or 1).
    pub(super) bools: Box<[bool]>,
    /// The operator's name, for the trace.
    pub(super) name: &'m str,
    pub(super) imms: Box<[i64]>,
    /// FNV-1a state after the name and the immediates.
    pub(super) seed: u64,
    /// Whether the operator has any effect: its results depend on the
    /// effect state.
    pub(super) reads_state: bool,
    /// Whether no pass may delete it (an effect beyond reading): it
    /// advances the effect state and is recorded in the trace.
    pub(super) recorded: bool,
    pub(super) args: Box<[Op]>,
}

/// An operation of the [set](crate::ir::Opcode), ready to run.
#[derive(Debug)]
pub(super) struct ExecCode<'m> {
    pub(super) opcode: Opcode,
    pub(super) imms: Box<[i64]>,
    pub(super) args: Box<[Op]>,
    pub(super) result: Option<u32>,
    /// The address operand of a load or store is 32 bits (an `i32`
    /// variable, or a literal in `i32`'s range): it is read unsigned.
    pub(super) addr32: bool,
    /// In [`Mode::Uninterpreted`], what runs instead where the operation
    /// would trap.
    pub(super) fallback: Option<Box<OpCode<'m>>>,
}

/// A CFG edge with the phis of its target resolved: taking it runs `moves`
/// as one parallel copy, unless a phi of the target has no argument for the
/// source block (`missing`, the phi's index).
#[derive(Debug)]
pub(super) struct Edge {
    pub(super) target: u32,
    pub(super) moves: Box<[(u32, Op)]>,
    pub(super) missing: Option<u32>,
}

#[derive(Debug)]
pub(super) enum Term {
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
    Ret(Box<[Op]>),
    Unreachable,
}

#[derive(Debug)]
pub(super) struct CBlock<'m> {
    pub(super) nphis: u32,
    pub(super) insts: Box<[Code<'m>]>,
    pub(super) term: Term,
}

/// A function's tables; `blocks` is indexed by [`Block`] index.
#[derive(Debug)]
pub(super) struct CFunc<'m> {
    pub(super) src: &'m Function,
    pub(super) nvars: usize,
    pub(super) params: Box<[u32]>,
    pub(super) entry: u32,
    pub(super) blocks: Box<[CBlock<'m>]>,
}

/// Translates one function; `by_name` resolves call targets.
pub(super) struct Compiler<'a, 'm> {
    pub(super) func: &'m Function,
    pub(super) by_name: &'a HashMap<&'m str, u32>,
    pub(super) mode: Mode,
}

/// The position of the first operand of each phi labelled by each block.
type ArgIndex = HashMap<(Inst, Block), u32>;

/// Where the instruction being translated is, for the errors of what the
/// interpreter cannot run.
#[derive(Clone, Copy)]
struct Site {
    block: Block,
    position: Position,
    inst: Option<Inst>,
}

/// The lists of a generic operation, read from the function's pools.
#[derive(Clone, Copy)]
struct Parts<'f> {
    imms: &'f [i64],
    args: &'f [Operand],
    results: &'f [Var],
}

impl<'m> Compiler<'_, 'm> {
    fn err(&self, what: String) -> RuntimeError {
        malformed(format!("function {}: {what}", self.func.name()))
    }

    /// The error refusing what `at` holds.
    fn unsupported(&self, at: Site, what: String) -> RuntimeError {
        RuntimeError {
            kind: ErrorKind::Unsupported(what),
            location: Some(Location {
                function: self.func.name().into(),
                block: self.func.block_name(at.block).into(),
                position: at.position,
                inst: at.inst,
            }),
        }
    }

    /// Whether variables of type `ty` can be run in this mode: the
    /// integers, floats and `bool`, and in [`Mode::Uninterpreted`] any.
    fn runs_type(&self, ty: Type) -> bool {
        ty.is_computed()
            || matches!(ty, Type::I32 | Type::F32 | Type::F64)
            || self.mode == Mode::Uninterpreted
    }

    /// Operand `o` moved into variable `dst`: an integer literal moved
    /// into an `i32` is its low 32 bits, sign-extended (the form every
    /// `i32` value has in the interpreter).
    fn op_into(&self, o: Operand, dst: Var, at: Site) -> Result<Op, RuntimeError> {
        Ok(match o {
            Operand::Const(c) if self.func.var_type(dst) == Type::I32 => Op::Const(c as i32 as i64),
            _ => self.op(o, at)?,
        })
    }

    /// The frame slot of `v`, which must be an `i64` or `bool` variable
    /// outside [`Mode::Uninterpreted`].
    fn slot(&self, v: Var, at: Site) -> Result<u32, RuntimeError> {
        if v.index() >= self.func.num_vars() {
            return Err(self.err(format!("variable {v} out of range")));
        }
        let ty = self.func.var_type(v);
        if !self.runs_type(ty) {
            let names = VarNames::new(self.func);
            return Err(self.unsupported(
                at,
                format!(
                    "the interpreter cannot run variable `{}` of type `{ty}` \
                     (only `i64`, `i32`, `f32`, `f64` and `bool`)",
                    &names[v]
                ),
            ));
        }
        Ok(v.as_u32())
    }

    fn op(&self, o: Operand, at: Site) -> Result<Op, RuntimeError> {
        Ok(match o {
            Operand::Var(v) => Op::Slot(self.slot(v, at)?),
            Operand::Const(c) => Op::Const(c),
            Operand::Undef => Op::Undef,
        })
    }

    fn ops(&self, os: &[Operand], at: Site) -> Result<Box<[Op]>, RuntimeError> {
        os.iter().map(|&o| self.op(o, at)).collect()
    }

    fn slots(&self, vs: &[Var], at: Site) -> Result<Box<[u32]>, RuntimeError> {
        vs.iter().map(|&v| self.slot(v, at)).collect()
    }

    pub(super) fn function(&self) -> Result<CFunc<'m>, RuntimeError> {
        let f = self.func;
        if f.layout().is_empty() {
            return Err(self.err("no blocks".into()));
        }
        if let Some(&p) = f.params().iter().find(|&&p| !self.runs_type(f.var_type(p))) {
            let names = VarNames::new(f);
            return Err(RuntimeError {
                kind: ErrorKind::Unsupported(format!(
                    "function {}: the interpreter cannot run parameter `{}` of type `{}` \
                     (only `i64`, `i32`, `f32`, `f64` and `bool`)",
                    f.name(),
                    &names[p],
                    f.var_type(p)
                )),
                location: None,
            });
        }
        let params = f.params().iter().map(|p| p.as_u32()).collect();
        // Where each phi has its first operand for each predecessor: one
        // pass over the operands, so that an edge finds its moves without
        // searching each phi (a switch with 100,000 targets into a join
        // searched its phis' 100,000 operands once per edge).
        let mut first_arg: ArgIndex = HashMap::default();
        for b in f.blocks() {
            for &i in f.block_phis(b) {
                if let InstData::Phi { args, .. } = f.inst(i) {
                    for (k, a) in args.as_slice(f).iter().enumerate() {
                        first_arg.entry((i, a.block)).or_insert(k as u32);
                    }
                }
            }
        }
        let blocks = f
            .blocks()
            .map(|b| self.block(b, &first_arg))
            .collect::<Result<_, _>>()?;
        Ok(CFunc {
            src: f,
            nvars: f.num_vars(),
            params,
            entry: f.entry().as_u32(),
            blocks,
        })
    }

    fn block(&self, b: Block, first_arg: &ArgIndex) -> Result<CBlock<'m>, RuntimeError> {
        let f = self.func;
        let nphis = f.block_phis(b).len();
        let insts = f
            .block_insts(b)
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let at = Site {
                    block: b,
                    position: Position::Inst(nphis + k),
                    inst: Some(i),
                };
                self.inst(i, at)
            })
            .collect::<Result<_, _>>()?;
        let at = Site {
            block: b,
            position: Position::Terminator,
            inst: None,
        };
        let term = match f.term(b) {
            Terminator::Jump(t) => Term::Jump(self.edge(b, *t, first_arg)?),
            Terminator::Branch {
                cond,
                then_dest,
                else_dest,
            } => Term::Branch {
                cond: self.op(*cond, at)?,
                then_edge: self.edge(b, *then_dest, first_arg)?,
                else_edge: self.edge(b, *else_dest, first_arg)?,
            },
            Terminator::Switch {
                value,
                default,
                targets,
            } => Term::Switch {
                value: self.op(*value, at)?,
                default: self.edge(b, *default, first_arg)?,
                targets: targets
                    .as_slice(f)
                    .iter()
                    .map(|&t| self.edge(b, t, first_arg))
                    .collect::<Result<_, _>>()?,
            },
            Terminator::Ret(vals) => Term::Ret(self.ops(vals.as_slice(f), at)?),
            Terminator::Unreachable => Term::Unreachable,
        };
        Ok(CBlock {
            nphis: nphis as u32,
            insts,
            term,
        })
    }

    /// The edge `from → to`: for each phi of `to`, its first argument
    /// labelled `from`.
    fn edge(&self, from: Block, to: Block, first_arg: &ArgIndex) -> Result<Edge, RuntimeError> {
        let f = self.func;
        if to.index() >= f.num_blocks() {
            return Err(self.err(format!("block {to} out of range")));
        }
        let mut moves = Vec::with_capacity(f.block_phis(to).len());
        let mut missing = None;
        for (k, &i) in f.block_phis(to).iter().enumerate() {
            let InstData::Phi { dst, args } = f.inst(i) else {
                unreachable!("the phis of a block are phis")
            };
            let at = Site {
                block: to,
                position: Position::Inst(k),
                inst: Some(i),
            };
            match first_arg.get(&(i, from)) {
                Some(&k) => {
                    let a = args.as_slice(f)[k as usize];
                    moves.push((self.slot(*dst, at)?, self.op_into(a.value, *dst, at)?))
                }
                None => {
                    missing = Some(k as u32);
                    break;
                }
            }
        }
        Ok(Edge {
            target: to.as_u32(),
            moves: moves.into(),
            missing,
        })
    }

    /// The ordinary instruction `i` translated: the IR's own instructions
    /// here, calls and generic operations by the methods below.
    fn inst(&self, i: Inst, at: Site) -> Result<Code<'m>, RuntimeError> {
        let f = self.func;
        Ok(match f.inst(i) {
            InstData::Copy { dst, src } => Code::Copy {
                dst: self.slot(*dst, at)?,
                src: self.op_into(*src, *dst, at)?,
            },
            InstData::Unary { dst, op, arg } => Code::Unary {
                dst: self.slot(*dst, at)?,
                op: *op,
                arg: self.op(*arg, at)?,
            },
            InstData::Binary { dst, op, lhs, rhs } => Code::Binary {
                dst: self.slot(*dst, at)?,
                op: *op,
                lhs: self.op(*lhs, at)?,
                rhs: self.op(*rhs, at)?,
            },
            InstData::Call {
                callee,
                args,
                results,
            } => self.call(
                f.callee_name(*callee),
                args.as_slice(f),
                results.as_slice(f),
                at,
            )?,
            InstData::Print { args } => Code::Print {
                args: self.ops(args.as_slice(f), at)?,
                bools: args
                    .as_slice(f)
                    .iter()
                    .map(|o| matches!(o, Operand::Var(v) if f.var_type(*v) == Type::Bool))
                    .collect(),
            },
            InstData::ParCopy { copies } => {
                let copies = copies.as_slice(f);
                Code::ParCopy {
                    dsts: copies
                        .iter()
                        .map(|&(d, _)| self.slot(d, at))
                        .collect::<Result<_, _>>()?,
                    srcs: copies
                        .iter()
                        .map(|&(d, s)| self.op_into(s, d, at))
                        .collect::<Result<_, _>>()?,
                }
            }
            InstData::Op {
                op,
                imms,
                args,
                results,
            } => {
                let parts = Parts {
                    imms: imms.as_slice(f),
                    args: args.as_slice(f),
                    results: results.as_slice(f),
                };
                match (self.mode, f.opcode(*op)) {
                    (Mode::Uninterpreted, _) => self.uninterpreted(i, *op, parts, at)?,
                    (Mode::Strict, Some(opcode)) => self.exec(opcode, parts, at)?,
                    (Mode::Strict, None) => {
                        return Err(self.unsupported(
                            at,
                            format!(
                                "the interpreter cannot run operation `{}`",
                                f.operator_name(*op)
                            ),
                        ))
                    }
                }
            }
            InstData::Phi { .. } => unreachable!("the ordinary instructions are no phis"),
        })
    }

    /// A call of `name`: of the function of the program so named, else of
    /// an external (one result at most outside [`Mode::Uninterpreted`]).
    fn call(
        &self,
        name: &'m str,
        args: &[Operand],
        results: &[Var],
        at: Site,
    ) -> Result<Code<'m>, RuntimeError> {
        let callee = match self.by_name.get(name) {
            Some(&g) => Callee::Internal(g),
            None if results.len() > 1 && self.mode == Mode::Strict => {
                return Err(self.unsupported(
                    at,
                    format!(
                        "the interpreter cannot run a call of external `{name}` \
                         with {} results (an external gives one value)",
                        results.len()
                    ),
                ))
            }
            None => Callee::External {
                name,
                seed: fnv1a(FNV_OFFSET_BASIS, name.as_bytes()),
            },
        };
        Ok(Code::Call {
            results: self.slots(results, at)?,
            callee,
            args: self.ops(args, at)?,
        })
    }

    /// Generic operation `i` (operator `op`) in [`Mode::Uninterpreted`]:
    /// the uninterpreted function of its operator, except the operations
    /// of the set that compute, which keep their meaning.
    fn uninterpreted(
        &self,
        i: Inst,
        op: Operator,
        parts: Parts<'_>,
        at: Site,
    ) -> Result<Code<'m>, RuntimeError> {
        let Parts {
            imms,
            args,
            results,
        } = parts;
        let f = self.func;
        let name: &'m str = f.operator_name(op);
        // The negation a back end writes keeps its meaning (see
        // "Uninterpreted operations").
        if matches!(name, "i32.eqz" | "i64.eqz")
            && imms.is_empty()
            && args.len() == 1
            && results.len() == 1
        {
            return Ok(Code::Unary {
                dst: self.slot(results[0], at)?,
                op: UnOp::Not,
                arg: self.op(args[0], at)?,
            });
        }
        let imms: Box<[i64]> = imms.into();
        let mut seed = fnv1a(FNV_OFFSET_BASIS, name.as_bytes());
        for m in imms.iter() {
            seed = fnv1a(seed, &m.to_le_bytes());
        }
        let hashed = Box::new(OpCode {
            results: self.slots(results, at)?,
            bools: results
                .iter()
                .map(|&v| f.var_type(v) == Type::Bool)
                .collect(),
            name,
            imms: imms.clone(),
            seed,
            reads_state: !f.effects(i).is_pure(),
            recorded: !f.effects(i).removable_if_unused(),
            args: self.ops(args, at)?,
        });
        // An operation of the set that computes keeps its meaning
        // (constant propagation folds it); where it would trap it
        // is the uninterpreted function instead (see
        // "Uninterpreted operations").
        Ok(match f.opcode(op) {
            Some(opcode)
                if matches!(opcode.kind(), OpKind::Compute | OpKind::Select)
                    && results.len() == 1
                    && imms.len() == opcode.num_imms() =>
            {
                Code::Exec(Box::new(ExecCode {
                    opcode,
                    addr32: false,
                    imms,
                    args: hashed.args.clone(),
                    result: Some(hashed.results[0]),
                    fallback: Some(hashed),
                }))
            }
            _ => Code::Op(hashed),
        })
    }

    /// An operation of the set, run with its meaning: refused if it names
    /// a memory other than 0 or is malformed.
    fn exec(&self, opcode: Opcode, parts: Parts<'_>, at: Site) -> Result<Code<'m>, RuntimeError> {
        let f = self.func;
        let memory = match (opcode.access(), opcode) {
            (Some(_), _) => parts.imms.get(2).copied().unwrap_or(0),
            (None, Opcode::MemorySize | Opcode::MemoryGrow) => {
                parts.imms.first().copied().unwrap_or(0)
            }
            _ => 0,
        };
        if memory != 0 {
            return Err(self.unsupported(
                at,
                format!("the interpreter has one memory: `{opcode}` accesses memory {memory}"),
            ));
        }
        let least = match opcode.access() {
            Some(_) => 2,
            None => opcode.num_imms(),
        };
        if parts.results.len() > 1 || parts.imms.len() < least {
            return Err(self.unsupported(
                at,
                format!("operation `{opcode}` is malformed (verify it first)"),
            ));
        }
        let addr32 = match parts.args.first() {
            Some(Operand::Var(v)) => f.var_type(*v) == Type::I32,
            Some(Operand::Const(c)) => i32::try_from(*c).is_ok(),
            _ => false,
        };
        Ok(Code::Exec(Box::new(ExecCode {
            opcode,
            addr32,
            fallback: None,
            imms: parts.imms.into(),
            args: self.ops(parts.args, at)?,
            result: parts
                .results
                .first()
                .map(|&r| self.slot(r, at))
                .transpose()?,
        })))
    }
}
