//! Replacing every parallel copy of a function by ordinary copies (chapter
//! section 13.7), with [`parallel_copy`](super::parallel_copy) in
//! temporary mode.
//!
//! Each closed cycle of a parallel copy gets a fresh temporary variable, a
//! new version of the variable whose value it saves (the cycle's first
//! destination in the parallel copy's order), so that `(a, b) = (b, a)`
//! becomes `a3 = a; a = b; b = a3`.
//! Constant and `undef` sources are copied last.

use super::fresh::FreshVars;
use super::parallel_copy::{Move, Sequentializer, Src};
use crate::entity::{EntityVec, ListStore, PackedOption};
use crate::ir::{Block, Function, Inst, InstData, Operand, Var};
use std::fmt;

/// What [`sequentialize_parallel_copies`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct SequentializeStats {
    /// Parallel copies replaced.
    pub(crate) parallel_copies: usize,
    /// Copies emitted in their place.
    pub(crate) copies: usize,
    /// Temporaries created (one per closed cycle).
    pub(crate) temporaries: usize,
}

/// A parallel copy that cannot be sequentialized.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct SequentializeError {
    /// The block holding it.
    pub(crate) block: Block,
    /// The parallel copy.
    pub(crate) inst: Inst,
    /// The variable it writes twice.
    pub(crate) var: Var,
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
/// the size of the parallel copies (plus one scan of the variables when a
/// temporary is needed).
/// Temporaries are versions of the variable they save, so they have its
/// type. Instructions are renumbered at the end ([`Function::compact`]).
///
/// # Errors
/// If a parallel copy writes a variable twice; `func` is then unchanged
/// (every parallel copy is checked before any is replaced).
pub(crate) fn sequentialize_parallel_copies(
    func: &mut Function,
) -> Result<SequentializeStats, SequentializeError> {
    check_destinations(func)?;
    // The versions in use, scanned for at the first temporary (few
    // functions need one).
    let mut fresh: Option<FreshVars> = None;
    let mut seq: Sequentializer<Var> = Sequentializer::new();
    let mut stats = SequentializeStats::default();
    let mut pc: Vec<(Var, Src<Var, Operand>)> = Vec::new();
    let mut moves: Vec<Move<Var, Operand>> = Vec::new();
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for b in func.blocks() {
        if !func
            .block_insts(b)
            .iter()
            .any(|&i| func.inst(i).is_par_copy())
        {
            continue;
        }
        func.take_insts_into(b, &mut old);
        new.clear();
        new.reserve(old.len());
        for &i in &old {
            let InstData::ParCopy { mut copies } = *func.inst(i) else {
                new.push(i);
                continue;
            };
            pc.clear();
            pc.extend(copies.as_slice(func).iter().map(|&(d, s)| {
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
                    let fresh = fresh.get_or_insert_with(|| FreshVars::new(func));
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
                        func.set_inst(i, data);
                        new.push(i);
                    }
                    None => new.push(func.new_inst(data)),
                }
            }
            if slot.is_none() {
                // Its pairs are garbage now, for `compact` to reclaim.
                ListStore::<(Var, Operand)>::pool_mut(func).free(&mut copies);
            }
        }
        func.set_insts(b, &new);
    }
    func.compact();
    Ok(stats)
}

/// Checks that no parallel copy of `func` writes a variable twice, in
/// `O(variables + copies)`.
fn check_destinations(func: &Function) -> Result<(), SequentializeError> {
    // `stamp[v]`: the last parallel copy that wrote `v`.
    let mut stamp: EntityVec<Var, PackedOption<Inst>> =
        EntityVec::filled(func.num_vars(), PackedOption::NONE);
    for b in func.blocks() {
        for &i in func.block_insts(b) {
            if let InstData::ParCopy { copies } = func.inst(i) {
                for &(d, _) in copies.as_slice(func) {
                    if stamp[d] == PackedOption::some(i) {
                        return Err(SequentializeError {
                            block: b,
                            inst: i,
                            var: d,
                        });
                    }
                    stamp[d] = PackedOption::some(i);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{FunctionBuilder, Type};

    #[test]
    fn swap_becomes_three_copies() {
        let mut b = FunctionBuilder::new("f");
        let e = b.block("e");
        b.switch_to(e);
        let (x, y) = (b.param("x"), b.param("y"));
        b.par_copy(&[(x, y.into()), (y, x.into())]);
        b.par_copy(&[(x, x.into())]);
        b.par_copy(&[(x, Operand::Const(4)), (y, x.into())]);
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
        assert_eq!(f.inst_slots(), 5);
        let t = Var::new(2);
        assert_eq!((f.var(t).origin(), f.var(t).version()), (Some(x), 1));
        let copies: Vec<(Var, Operand)> = f
            .block_insts(e)
            .iter()
            .map(|&i| match *f.inst(i) {
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

    /// A cycle of `f64` variables gets an `f64` temporary.
    #[test]
    fn temporaries_have_the_type_of_the_saved_variable() {
        let mut b = FunctionBuilder::new("f");
        let e = b.block("e");
        b.switch_to(e);
        let (x, y) = (b.typed_param("x", Type::F64), b.typed_param("y", Type::F64));
        b.par_copy(&[(x, y.into()), (y, x.into())]);
        b.ret_values(&[x.into(), y.into()]);
        let mut f = b.finish();
        assert_eq!(
            sequentialize_parallel_copies(&mut f).unwrap().temporaries,
            1
        );
        let InstData::Copy { dst: t, .. } = *f.inst(f.block_insts(e)[0]) else {
            panic!("a copy")
        };
        assert_eq!((f.original(t), f.var_type(t)), (x, Type::F64));
    }

    #[test]
    fn duplicate_destination_is_an_error() {
        let mut b = FunctionBuilder::new("f");
        let e = b.block("e");
        b.switch_to(e);
        let (x, y) = (b.param("x"), b.param("y"));
        let pc = b.par_copy(&[(x, y.into()), (x, Operand::Const(1))]);
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
