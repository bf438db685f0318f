//! Phi webs by union-find, and the direct destruction of conventional SSA
//! (chapter section 13.6, "Destrucción de SSA").
//!
//! # Terms
//!
//! Two variables are *phi-related* when they are operands, source or
//! destination, of the same phi. A *phi web* is a class of the transitive
//! closure of that relation. The chapter finds them with union-find:
//!
//! ```text
//! for each variable v do phiweb(v) := {v}
//! for each instruction a_dest = phi(a_1, ..., a_n) do
//!     for each source operand a_i do union(phiweb(a_dest), phiweb(a_i))
//! ```
//!
//! When the SSA form is *conventional* (no two variables of a web
//! interfere, as right after construction or after
//! [`insert_phi_copies`](super::to_cssa::insert_phi_copies)), renaming
//! every variable of a web to one representative makes each phi read and
//! write the same name, `r = phi(r, ..., r)`, and deleting it is a correct
//! destruction: [`destruct_conventional`].
//!
//! This module does not decide conventionality, which needs liveness (the
//! verifier does that); [`same_block_phi_conflict`] is a cheap necessary
//! check, and [`constant_operand_conflict`] finds the constant operands
//! that renaming alone would get wrong. Coalescing
//! ([`coalesce`](super::coalesce::coalesce)) builds bigger [`Webs`]
//! (congruence classes) from the phi webs and the copies, for
//! [`rename_webs`] to rename.

use super::compact::compact_insts;
use crate::entity::EntityVec;
use crate::ir::{Block, BlockData, Function, Inst, InstData, Operand, PhiArg, Var};
use crate::union_find::UnionFind;

/// The phi webs of a function: a partition of its variables.
///
/// Invariant: `min_member[r]`, for a union-find root `r`, is the member of
/// `r`'s web with the smallest index: the web's representative.
#[derive(Clone, Debug)]
pub struct Webs {
    sets: UnionFind,
    min_member: Vec<u32>,
}

impl Webs {
    /// Every variable of `func` alone in its web.
    pub fn singletons(func: &Function) -> Webs {
        let n = func.vars.len();
        Webs {
            sets: UnionFind::new(n),
            min_member: (0..n as u32).collect(),
        }
    }

    /// The partition of the variables that `sets` holds (one web per set),
    /// in `O(variables)`.
    pub fn from_sets(mut sets: UnionFind) -> Webs {
        let mut min_member: Vec<u32> = (0..sets.len() as u32).collect();
        // Variables in decreasing order: the last written for a set is its
        // smallest member.
        for v in (0..sets.len()).rev() {
            let r = sets.find(v);
            min_member[r] = v as u32;
        }
        Webs { sets, min_member }
    }

    /// Merges the webs of `a` and `b`; false if already one web.
    pub fn union(&mut self, a: Var, b: Var) -> bool {
        let (ra, rb) = (self.sets.find(a.index()), self.sets.find(b.index()));
        if ra == rb {
            return false;
        }
        let m = self.min_member[ra].min(self.min_member[rb]);
        let root = self.sets.union(ra, rb);
        self.min_member[root] = m;
        true
    }

    /// The representative of `v`'s web: its member of smallest index (for
    /// freshly built SSA, the earliest-created version).
    pub fn representative(&mut self, v: Var) -> Var {
        let r = self.sets.find(v.index());
        Var(self.min_member[r])
    }

    /// Whether `a` and `b` are in the same web.
    pub fn same_web(&mut self, a: Var, b: Var) -> bool {
        self.sets.same(a.index(), b.index())
    }

    /// The representative of every variable, as a side table.
    pub fn representatives(&mut self) -> EntityVec<Var, Var> {
        EntityVec::from_vec(
            (0..self.sets.len() as u32)
                .map(|v| self.representative(Var(v)))
                .collect(),
        )
    }
}

/// The phi webs of `func` (the chapter's union-find loop), in
/// `O(variables + phi operands)` (times α).
pub fn phi_webs(func: &Function) -> Webs {
    let mut webs = Webs::singletons(func);
    for_each_phi(func, |_, dst, args| {
        for a in args {
            if let Operand::Var(v) = a.value {
                webs.union(dst, v);
            }
        }
    });
    webs
}

/// Calls `f(block, dst, args)` for every phi of every block of the layout.
fn for_each_phi(func: &Function, mut f: impl FnMut(Block, Var, &[PhiArg])) {
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if let InstData::Phi { dst, args } = &func.insts[i] {
                f(b, *dst, args)
            }
        }
    }
}

/// Finds two phis of one block whose destinations are in the same web.
///
/// Both destinations are defined at the block's entry, so if both are
/// used they interfere and the SSA form is not conventional (the swap
/// problem after copy propagation is the classic case). A cheap
/// *necessary* condition only: `None` does not prove conventionality.
pub fn same_block_phi_conflict(func: &Function, webs: &mut Webs) -> Option<(Var, Var)> {
    // `seen[rep]`: the phi destination of the current block already
    // claiming the web, tagged with the block to avoid clearing.
    let mut seen: Vec<(u32, Var)> = vec![(u32::MAX, Var(0)); webs.sets.len()];
    let mut found = None;
    for_each_phi(func, |b, dst, _| {
        if found.is_some() {
            return;
        }
        let r = webs.representative(dst).index();
        if seen[r].0 == b.0 {
            found = Some((seen[r].1, dst));
        } else {
            seen[r] = (b.0, dst);
        }
    });
    found
}

/// A constant phi operand that [`rename_webs`] cannot turn into a copy.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ConstantOperandConflict {
    /// The phi.
    pub phi: crate::ir::Inst,
    /// The predecessor whose end would get the copy `r ← c`.
    pub pred: Block,
    /// A variable of the web still needed at the end of `pred` (live out
    /// of it or read by its terminator), or `None` when the conflict is a
    /// second constant copy into the same web at the end of `pred`.
    pub member: Option<Var>,
}

/// Finds a constant phi operand whose copy, at the end of its predecessor
/// `P`, would overwrite a value of its web that is still needed: a member
/// live out of `P` or read by `P`'s terminator (`P` may have other
/// successors), or another constant copy into the same web at the end of
/// `P`. Conventional SSA (by the verifier's definition, which does not see
/// constants as variables) can still have one when `P` ends in a branch.
///
/// # Preconditions
/// `live` is the liveness of `func`.
pub fn constant_operand_conflict(
    func: &Function,
    webs: &mut Webs,
    live: &crate::analysis::Liveness,
) -> Option<ConstantOperandConflict> {
    // Every constant operand as (predecessor, web, phi).
    let mut consts: Vec<(Block, Var, crate::ir::Inst)> = Vec::new();
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if let InstData::Phi { dst, args } = &func.insts[i] {
                for a in args {
                    if matches!(a.value, Operand::Const(_)) {
                        consts.push((a.block, webs.representative(*dst), i));
                    }
                }
            }
        }
    }
    consts.sort_unstable();
    for (k, &(pred, rep, phi)) in consts.iter().enumerate() {
        if k > 0 && consts[k - 1].0 == pred && consts[k - 1].1 == rep {
            return Some(ConstantOperandConflict {
                phi,
                pred,
                member: None,
            });
        }
        let term_reads = func.blocks[pred].term.operand().and_then(|o| o.var());
        for v in live.live_out(pred).iter().copied().chain(term_reads) {
            if webs.same_web(v, rep) {
                return Some(ConstantOperandConflict {
                    phi,
                    pred,
                    member: Some(v),
                });
            }
        }
    }
    None
}

/// What [`rename_webs`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct RenameStats {
    /// Phis removed.
    pub phis_removed: usize,
    /// Copies added for constant phi operands.
    pub constant_copies: usize,
}

/// Renames every variable to its web's representative and removes the
/// phis: the chapter's destruction of conventional SSA.
///
/// # Preconditions
/// `func` is conventional with respect to `webs` (no two members of a web
/// interfere); this is not checked.
///
/// Phi operands that are not variables: an `undef` operand needs nothing
/// (any value will do). A constant operand `c` on the edge from `P` is read
/// as an implicit fresh web member defined just before the edge, and
/// becomes the copy `r ← c` at the end of `P`, before its terminator; that
/// is correct under the precondition with that member counted (see
/// [`constant_operand_conflict`]), and always after
/// [`insert_phi_copies`](super::to_cssa::insert_phi_copies), which
/// leaves no constant operands.
pub fn rename_webs(func: &mut Function, webs: &mut Webs) -> RenameStats {
    rename(func, &webs.representatives(), |_, _| true)
}

/// [`rename_webs`] with the representatives given as a side table, and
/// `keep(i, data)` deciding, once instruction `i` is renamed (and may be
/// changed), whether it stays: the deletion of copies that the renaming
/// makes useless, in the same pass.
pub(super) fn rename(
    func: &mut Function,
    rep: &EntityVec<Var, Var>,
    mut keep: impl FnMut(Inst, &mut InstData) -> bool,
) -> RenameStats {
    let mut stats = RenameStats::default();
    // Step 1: constant phi operands become copies at the end of their
    // predecessor; then the phis are unlinked.
    let mut constant_copies: Vec<(Block, InstData)> = Vec::new();
    for_each_phi(func, |_, dst, args| {
        for a in args {
            if let Operand::Const(_) = a.value {
                constant_copies.push((
                    a.block,
                    InstData::Copy {
                        dst: rep[dst],
                        src: a.value,
                    },
                ));
            }
        }
    });
    stats.constant_copies = constant_copies.len();
    for (b, copy) in constant_copies {
        func.push_inst(b, copy);
    }
    for b in func.blocks.values_mut() {
        stats.phis_removed += b.phis.len();
        b.phis.clear();
    }
    // Step 2: rename every definition and use.
    let r = |v: &mut Var| *v = rep[*v];
    let ro = |o: &mut Operand| {
        if let Operand::Var(v) = o {
            *v = rep[*v]
        }
    };
    for p in &mut func.params {
        r(p);
    }
    let Function { blocks, insts, .. } = func;
    for BlockData {
        insts: list, term, ..
    } in blocks.values_mut()
    {
        list.retain(|&i| {
            let data = &mut insts[i];
            data.for_each_def_mut(r);
            data.for_each_operand_mut(ro);
            keep(i, data)
        });
        if let Some(o) = term.operand_mut() {
            ro(o);
        }
    }
    compact_insts(func);
    stats
}

/// Destroys conventional SSA directly: phi webs, renaming, phi removal (see
/// [`rename_webs`] for the preconditions).
pub fn destruct_conventional(func: &mut Function) -> RenameStats {
    let mut webs = phi_webs(func);
    rename_webs(func, &mut webs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, FunctionBuilder, Terminator};

    /// Freshly built SSA for `x = 0; while (x < n) x = x + 1; return x`:
    ///
    /// ```text
    /// E: x1 = 0; jump H
    /// H: x2 = phi(E: x1, B: x3); c = x2 < n; branch c, B, X
    /// B: x3 = x2 + 1; jump H
    /// X: ret x2
    /// ```
    #[test]
    fn conventional_loop() {
        let mut b = FunctionBuilder::new("f");
        let n = b.param("n");
        let (be, bh, bb, bx) = (b.block("E"), b.block("H"), b.block("B"), b.block("X"));
        let x = b.var("x");
        let c = b.var("c");
        let (x1, x2, x3) = (b.var("x1"), b.var("x2"), b.var("x3"));
        b.switch_to(be);
        b.copy(x1, Operand::Const(0));
        b.jump(bh);
        b.switch_to(bh);
        b.phi(
            x2,
            vec![
                PhiArg {
                    block: be,
                    value: x1.into(),
                },
                PhiArg {
                    block: bb,
                    value: x3.into(),
                },
            ],
        );
        b.binary(c, BinOp::Lt, x2.into(), n.into());
        b.branch(c.into(), bb, bx);
        b.switch_to(bb);
        b.binary(x3, BinOp::Add, x2.into(), Operand::Const(1));
        b.jump(bh);
        b.switch_to(bx);
        b.ret(Some(x2.into()));
        let mut f = b.finish();
        let mut webs = phi_webs(&f);
        assert!(webs.same_web(x1, x3));
        assert!(!webs.same_web(x1, x));
        assert_eq!(webs.representative(x3), x1);
        assert_eq!(same_block_phi_conflict(&f, &mut webs), None);
        let stats = destruct_conventional(&mut f);
        assert_eq!(stats.phis_removed, 1);
        assert!(f.blocks.values().all(|b| b.phis.is_empty()));
        assert_eq!(f.insts.len(), 3);
        assert_eq!(f.blocks[bx].term, Terminator::Ret(Some(x1.into())));
        assert_eq!(
            f.insts[f.blocks[bb].insts[0]],
            InstData::Binary {
                dst: x1,
                op: BinOp::Add,
                lhs: x1.into(),
                rhs: Operand::Const(1)
            }
        );
    }

    /// `H: a = phi(E: 1, H: b); b = phi(E: 2, H: a)`: the copy-propagated
    /// swap problem puts `a` and `b` in one web. Constant operands become
    /// copies at the end of `E`.
    #[test]
    fn swap_conflict_and_constant_operands() {
        let mut b = FunctionBuilder::new("f");
        let (be, bh) = (b.block("E"), b.block("H"));
        let (va, vb) = (b.var("a"), b.var("b"));
        b.switch_to(be);
        b.jump(bh);
        b.switch_to(bh);
        let arg = |block, value| PhiArg { block, value };
        b.phi(va, vec![arg(be, Operand::Const(1)), arg(bh, vb.into())]);
        b.phi(vb, vec![arg(be, Operand::Const(2)), arg(bh, va.into())]);
        b.jump(bh);
        let mut f = b.finish();
        let mut webs = phi_webs(&f);
        assert_eq!(same_block_phi_conflict(&f, &mut webs), Some((va, vb)));
        let stats = rename_webs(&mut f, &mut webs);
        assert_eq!(stats.constant_copies, 2);
        assert_eq!(f.blocks[be].insts.len(), 2);
    }
}
