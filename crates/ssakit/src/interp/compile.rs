//! Translation of functions into the interpreter's dense tables: variables
//! become frame slots, call targets function indices, and the phis of every
//! CFG edge a precomputed parallel copy, so that execution does no lookups.

use super::error::{malformed, RuntimeError};
use super::{fnv1a, FNV_OFFSET_BASIS};
use crate::ir::{BinOp, Block, Function, InstData, Operand, Terminator, UnOp, Var};
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
    Ret(Option<Op>),
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

    pub(super) fn function(&self) -> Result<CFunc<'m>, RuntimeError> {
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
