//! A tiny interpreter, for tests only (the real one lives in the library's
//! `interp` module, written elsewhere): it runs a function on `i64`
//! arguments and returns what it printed and returned.
//!
//! Semantics: phis of a block are evaluated simultaneously on entry, with
//! the operand labelled by the block control came from; a parallel copy
//! reads all sources, then writes all destinations. `undef` and variables
//! never written hold ⊥, which may be copied but not computed with,
//! branched on, printed or returned (an error, so that a destruction bug
//! that reads a stale temporary shows up).

use ssakit::ir::{Block, Function, InstData, Operand, Terminator};

/// What a run produced.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// One line per `print`.
    pub output: Vec<Vec<i64>>,
    /// The returned value, if any.
    pub ret: Option<i64>,
}

/// Runs `func` on `args`, for at most `fuel` blocks.
pub fn run(func: &Function, args: &[i64], fuel: usize) -> Result<Outcome, String> {
    if args.len() != func.params.len() {
        return Err(format!(
            "{} arguments for {} parameters",
            args.len(),
            func.params.len()
        ));
    }
    let mut vals: Vec<Option<i64>> = vec![None; func.vars.len()];
    for (p, a) in func.params.iter().zip(args) {
        vals[p.index()] = Some(*a);
    }
    let read = |vals: &[Option<i64>], o: Operand| -> Option<i64> {
        match o {
            Operand::Var(v) => vals[v.index()],
            Operand::Const(c) => Some(c),
            Operand::Undef => None,
        }
    };
    let defined = |x: Option<i64>, what: &str| x.ok_or_else(|| format!("{what} reads ⊥"));
    let mut output = Vec::new();
    let mut prev: Option<Block> = None;
    let mut block = func.entry();
    for _ in 0..fuel {
        let data = &func.blocks[block];
        // Phis, simultaneously.
        let mut incoming = Vec::with_capacity(data.phis.len());
        for &i in &data.phis {
            let InstData::Phi { dst, args } = &func.insts[i] else {
                return Err(format!("{i} in the phis is not a phi"));
            };
            let from = prev.ok_or("phi in the entry block")?;
            let arg = args
                .iter()
                .find(|a| a.block == from)
                .ok_or_else(|| format!("phi {i} has no operand for {}", func.blocks[from].name))?;
            incoming.push((*dst, read(&vals, arg.value)));
        }
        for (d, v) in incoming {
            vals[d.index()] = v;
        }
        for &i in &data.insts {
            match &func.insts[i] {
                InstData::Copy { dst, src } => vals[dst.index()] = read(&vals, *src),
                InstData::Unary { dst, op, arg } => {
                    vals[dst.index()] = Some(op.eval(defined(read(&vals, *arg), "unary")?))
                }
                InstData::Binary { dst, op, lhs, rhs } => {
                    let l = defined(read(&vals, *lhs), "binary")?;
                    let r = defined(read(&vals, *rhs), "binary")?;
                    vals[dst.index()] = Some(op.eval(l, r).ok_or("division by zero")?);
                }
                InstData::Print { args } => {
                    let line = args
                        .iter()
                        .map(|a| defined(read(&vals, *a), "print"))
                        .collect::<Result<Vec<_>, _>>()?;
                    output.push(line);
                }
                InstData::ParCopy { copies } => {
                    let read_all: Vec<_> =
                        copies.iter().map(|(d, s)| (*d, read(&vals, *s))).collect();
                    for (d, v) in read_all {
                        vals[d.index()] = v;
                    }
                }
                InstData::Phi { .. } => return Err(format!("phi {i} among ordinary instructions")),
                InstData::Call { .. } => return Err("calls are not supported".into()),
            }
        }
        prev = Some(block);
        block = match &data.term {
            Terminator::Jump(t) => *t,
            Terminator::Branch {
                cond,
                then_dest,
                else_dest,
            } => {
                if defined(read(&vals, *cond), "branch")? != 0 {
                    *then_dest
                } else {
                    *else_dest
                }
            }
            Terminator::Switch {
                value,
                default,
                targets,
            } => {
                let v = defined(read(&vals, *value), "switch")?;
                usize::try_from(v)
                    .ok()
                    .and_then(|i| targets.get(i))
                    .copied()
                    .unwrap_or(*default)
            }
            Terminator::Ret(v) => {
                let ret = match v {
                    Some(o) => Some(defined(read(&vals, *o), "ret")?),
                    None => None,
                };
                return Ok(Outcome { output, ret });
            }
        };
    }
    Err("out of fuel".into())
}
