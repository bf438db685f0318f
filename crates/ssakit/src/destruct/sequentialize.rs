//! Replacing every parallel copy of a function by ordinary copies (chapter
//! section 13.7), with [`parallel_copy`](super::parallel_copy) in
//! temporary mode.
//!
//! Each closed cycle of a parallel copy gets a fresh temporary variable, a
//! new version of the variable whose value it saves (the cycle's first
//! destination in the parallel copy's order), so that `(a, b) = (b, a)`
//! becomes `a3 = a; a = b; b = a3`.
//! Constant and `undef` sources are copied last.

use super::compact::compact_insts;
use super::fresh::FreshVars;
use super::parallel_copy::{Move, Sequentializer, Src};
use crate::ir::{Block, Function, Inst, InstData, Operand, Var};
use std::fmt;

/// What [`sequentialize_parallel_copies`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SequentializeStats {
    /// Parallel copies replaced.
    pub parallel_copies: usize,
    /// Copies emitted in their place.
    pub copies: usize,
    /// Temporaries created (one per closed cycle).
    pub temporaries: usize,
}

/// A parallel copy that cannot be sequentialized.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SequentializeError {
    /// The block holding it.
    pub block: Block,
    /// The parallel copy.
    pub inst: Inst,
    /// The variable it writes twice.
    pub var: Var,
}

impl fmt::Display for SequentializeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "parallel copy {} in {} writes {} twice",
            self.inst, self.block, self.var
        )
    }
}

impl std::error::Error for SequentializeError {}

/// Replaces every [`InstData::ParCopy`] of the blocks of `func` by a
/// sequence of [`InstData::Copy`] with the same effect, in time linear in
/// the size of the parallel copies (plus one scan of the variables).
///
/// # Errors
/// If a parallel copy writes a variable twice; `func` is then unchanged
/// (every parallel copy is checked before any is replaced).
pub fn sequentialize_parallel_copies(
    func: &mut Function,
) -> Result<SequentializeStats, SequentializeError> {
    check_destinations(func)?;
    let mut fresh = FreshVars::new(func);
    let mut seq: Sequentializer<Var> = Sequentializer::new();
    let mut stats = SequentializeStats::default();
    let mut pc: Vec<(Var, Src<Var, Operand>)> = Vec::new();
    let mut moves: Vec<Move<Var, Operand>> = Vec::new();
    for b in func.blocks.keys() {
        if !func.blocks[b]
            .insts
            .iter()
            .any(|&i| matches!(func.insts[i], InstData::ParCopy { .. }))
        {
            continue;
        }
        let old = std::mem::take(&mut func.blocks[b].insts);
        let mut new = Vec::with_capacity(old.len());
        for &i in &old {
            let InstData::ParCopy { copies } = &func.insts[i] else {
                new.push(i);
                continue;
            };
            pc.clear();
            pc.extend(copies.iter().map(|&(d, s)| {
                (
                    d,
                    match s {
                        Operand::Var(v) => Src::Loc(v),
                        other => Src::Val(other),
                    },
                )
            }));
            moves.clear();
            let mut temporaries = 0;
            let result = seq.with_temp(
                &pc,
                |saved| {
                    temporaries += 1;
                    fresh.version_of(func, saved)
                },
                &mut moves,
            );
            debug_assert!(result.is_ok(), "checked by check_destinations");
            stats.parallel_copies += 1;
            stats.temporaries += temporaries;
            stats.copies += moves.len();
            // The parallel copy's own number goes to the first copy.
            let mut slot = Some(i);
            for m in &moves {
                let data = match *m {
                    Move::Copy { dst, src } => InstData::Copy {
                        dst,
                        src: Operand::Var(src),
                    },
                    Move::Set { dst, val } => InstData::Copy { dst, src: val },
                    Move::Swap(..) => unreachable!("temporary mode emits no swaps"),
                };
                match slot.take() {
                    Some(i) => {
                        func.insts[i] = data;
                        new.push(i);
                    }
                    None => new.push(func.insts.push(data)),
                }
            }
        }
        func.blocks[b].insts = new;
    }
    compact_insts(func);
    Ok(stats)
}

/// Checks that no parallel copy of `func` writes a variable twice, in
/// `O(variables + copies)`.
fn check_destinations(func: &Function) -> Result<(), SequentializeError> {
    // `stamp[v]`: the last parallel copy (index + 1) that wrote `v`.
    let mut stamp = vec![0u32; func.vars.len()];
    for (b, data) in func.blocks.iter() {
        for &i in &data.insts {
            if let InstData::ParCopy { copies } = &func.insts[i] {
                for &(d, _) in copies {
                    if stamp[d.index()] == i.0 + 1 {
                        return Err(SequentializeError {
                            block: b,
                            inst: i,
                            var: d,
                        });
                    }
                    stamp[d.index()] = i.0 + 1;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::FunctionBuilder;

    #[test]
    fn swap_becomes_three_copies() {
        let mut b = FunctionBuilder::new("f");
        let e = b.block("e");
        b.switch_to(e);
        let (x, y) = (b.param("x"), b.param("y"));
        b.inst(InstData::ParCopy {
            copies: vec![(x, y.into()), (y, x.into())],
        });
        b.inst(InstData::ParCopy {
            copies: vec![(x, x.into())],
        });
        b.inst(InstData::ParCopy {
            copies: vec![(x, Operand::Const(4)), (y, x.into())],
        });
        b.ret(Some(x.into()));
        let mut f = b.finish();
        let stats = sequentialize_parallel_copies(&mut f).unwrap();
        assert_eq!(
            stats,
            SequentializeStats {
                parallel_copies: 3,
                // 3 for the swap, none for `x = x`, 2 for the last one.
                copies: 5,
                temporaries: 1
            }
        );
        assert_eq!(f.insts.len(), 5);
        let t = Var(2);
        assert_eq!((f.vars[t].origin, f.vars[t].version), (Some(x), 1));
        let copies: Vec<(Var, Operand)> = f.blocks[e]
            .insts
            .iter()
            .map(|&i| match f.insts[i] {
                InstData::Copy { dst, src } => (dst, src),
                _ => panic!(),
            })
            .collect();
        // The temporary saves `x`, the first destination on the cycle.
        assert_eq!(
            copies,
            [
                (t, x.into()),
                (x, y.into()),
                (y, t.into()),
                (y, x.into()),
                (x, Operand::Const(4))
            ]
        );
    }

    #[test]
    fn duplicate_destination_is_an_error() {
        let mut b = FunctionBuilder::new("f");
        let e = b.block("e");
        b.switch_to(e);
        let (x, y) = (b.param("x"), b.param("y"));
        let pc = b.inst(InstData::ParCopy {
            copies: vec![(x, y.into()), (x, Operand::Const(1))],
        });
        b.ret(None);
        let mut f = b.finish();
        let before = f.clone();
        let err = sequentialize_parallel_copies(&mut f).unwrap_err();
        assert_eq!(
            err,
            SequentializeError {
                block: e,
                inst: pc,
                var: x
            }
        );
        assert_eq!(f, before);
    }
}
