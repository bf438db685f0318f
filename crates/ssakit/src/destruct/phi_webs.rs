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
//! interfere, as right after construction or after the copies of
//! `to_cssa` are inserted around every phi), renaming
//! every variable of a web to one representative makes each phi read and
//! write the same name, `r = phi(r, ..., r)`, and deleting it is a correct
//! destruction: `destruct_conventional`.
//!
//! This module does not decide conventionality, which needs liveness: the
//! verifier does that, constant phi operands included
//! ([`ConstantConflict`](crate::verify::ConstantConflict)). Coalescing builds bigger
//! webs (congruence classes) from the phi webs and the copies, for the
//! same renaming.

use crate::entity::EntityVec;
use crate::ir::{Block, Function, Inst, InstData, Operand, PhiArg, Var};
use crate::union_find::UnionFind;

/// The phi webs of a function: a partition of its variables.
///
/// Invariant: `min_member[r]`, for a union-find root `r`, is the member of
/// `r`'s web with the smallest index: the web's representative.
#[derive(Clone, Debug)]
pub(crate) struct Webs {
    sets: UnionFind,
    min_member: Vec<Var>,
}

impl Webs {
    /// Every variable of `func` alone in its web.
    pub(crate) fn singletons(func: &Function) -> Webs {
        let n = func.num_vars();
        Webs {
            sets: UnionFind::new(n),
            min_member: (0..n).map(Var::new).collect(),
        }
    }

    /// The partition of the variables that `sets` holds (one web per set),
    /// in `O(variables)`.
    pub(crate) fn from_sets(mut sets: UnionFind) -> Webs {
        let mut min_member: Vec<Var> = (0..sets.len()).map(Var::new).collect();
        // Variables in decreasing order: the last written for a set is its
        // smallest member.
        for v in (0..sets.len()).rev() {
            let r = sets.find(v);
            min_member[r] = Var::new(v);
        }
        Webs { sets, min_member }
    }

    /// Merges the webs of `a` and `b`; false if already one web.
    pub(crate) fn union(&mut self, a: Var, b: Var) -> bool {
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
    pub(crate) fn representative(&mut self, v: Var) -> Var {
        let r = self.sets.find(v.index());
        self.min_member[r]
    }

    /// Whether `a` and `b` are in the same web.
    #[cfg(test)]
    pub(crate) fn same_web(&mut self, a: Var, b: Var) -> bool {
        self.sets.same(a.index(), b.index())
    }

    /// The representative of every variable, as a side table.
    pub(crate) fn representatives(&mut self) -> EntityVec<Var, Var> {
        EntityVec::from_vec(
            (0..self.sets.len())
                .map(|v| self.representative(Var::new(v)))
                .collect(),
        )
    }
}

/// The phi webs of `func` (the chapter's union-find loop), in
/// `O(variables + phi operands)` (times α).
pub(crate) fn phi_webs(func: &Function) -> Webs {
    let mut webs = Webs::singletons(func);
    for_each_phi(func, |_, _, dst, args| {
        for a in args {
            if let Operand::Var(v) = a.value {
                webs.union(dst, v);
            }
        }
    });
    webs
}

/// Calls `f(block, phi, dst, args)` for every phi of every block of the
/// layout.
fn for_each_phi(func: &Function, mut f: impl FnMut(Block, Inst, Var, &[PhiArg])) {
    for &b in func.layout() {
        for &i in func.block_phis(b) {
            if let InstData::Phi { dst, args } = func.inst(i) {
                f(b, i, *dst, args.as_slice(func))
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
#[cfg(test)]
fn same_block_phi_conflict(func: &Function, webs: &mut Webs) -> Option<(Var, Var)> {
    // `seen[rep]`: the phi destination of the current block already
    // claiming the web, tagged with the block to avoid clearing.
    let mut seen: EntityVec<Var, Option<(Block, Var)>> = EntityVec::filled(webs.sets.len(), None);
    let mut found = None;
    for_each_phi(func, |b, _, dst, _| {
        if found.is_some() {
            return;
        }
        let r = webs.representative(dst);
        match seen[r] {
            Some((blk, other)) if blk == b => found = Some((other, dst)),
            _ => seen[r] = Some((b, dst)),
        }
    });
    found
}

/// What `destruct_conventional` did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct RenameStats {
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
/// [`ConstantConflict`](crate::verify::ConstantConflict)), and always after
/// [`insert_phi_copies`](super::to_cssa::insert_phi_copies), which
/// leaves no constant operands.
#[cfg(test)]
pub(crate) fn rename_webs(func: &mut Function, webs: &mut Webs) -> RenameStats {
    let stats = rename(func, &webs.representatives(), |_, _| true);
    func.compact();
    stats
}

/// [`rename_webs`] with the representatives given as a side table, and
/// `keep(func, i)` deciding, once instruction `i` is renamed (it may
/// change `i`), whether it stays: the deletion of copies that the renaming
/// makes useless, in the same pass. What it removes stays in the
/// instruction table, listed by no block, until the caller's
/// [`Function::compact`]: destruction's sequentialization, which comes
/// next in every mode, compacts once for both.
pub(super) fn rename(
    func: &mut Function,
    rep: &EntityVec<Var, Var>,
    mut keep: impl FnMut(&mut Function, Inst) -> bool,
) -> RenameStats {
    let mut stats = RenameStats::default();
    // Step 1: constant phi operands become copies at the end of their
    // predecessor; then the phis are removed.
    let mut constant_copies: Vec<(Block, InstData)> = Vec::new();
    for_each_phi(func, |_, _, dst, args| {
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
    for b in func.blocks() {
        stats.phis_removed += func.block_phis(b).len();
        func.retain_phis(b, |_, _| false);
    }
    // Step 2: rename every definition and use.
    let r = |v: &mut Var| *v = rep[*v];
    let ro = |o: &mut Operand| {
        if let Operand::Var(v) = o {
            *v = rep[*v]
        }
    };
    for p in func.params_mut() {
        r(p);
    }
    for b in func.blocks() {
        func.retain_insts_mut(b, |func, i| {
            func.map_vars(i, |v| rep[v]);
            keep(func, i)
        });
        func.for_each_term_operand_mut(b, ro);
    }
    stats
}

/// Destroys conventional SSA directly: phi webs, renaming, phi removal.
///
/// # Preconditions
/// `func` is conventional (no two members of a phi web interfere); this is
/// not checked ([`destruct`](super::destruct) with
/// [`conventional`](super::DestructOptions::conventional) checks it). A
/// constant phi operand becomes a copy at the end of its predecessor.
///
/// # Example
///
/// ```
/// use ssakit::destruct::{is_out_of_ssa, phi_webs::destruct_conventional};
/// use ssakit::interp::{run, RunOptions};
/// const SRC: &str = "function f(c) {
/// e:
///     x1 = 1
///     branch c, j, l
/// l:
///     x2 = 2
///     jump j
/// j:
///     x3 = phi(e: x1, l: x2)
///     ret x3
/// }
/// ";
/// let mut m = ssakit::text::parse_module(SRC).unwrap();
/// let before = run(&m, &m.functions[0], &[0], &RunOptions::default()).unwrap();
/// destruct_conventional(&mut m.functions[0]);
/// assert!(is_out_of_ssa(&m.functions[0]));
/// let after = run(&m, &m.functions[0], &[0], &RunOptions::default()).unwrap();
/// assert_eq!(after.render(), before.render());
/// ```
#[cfg(test)]
pub(crate) fn destruct_conventional(func: &mut Function) -> RenameStats {
    let mut webs = phi_webs(func);
    rename_webs(func, &mut webs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, Terminator};

    use crate::text::parse_one as parse;

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
        let mut f = parse(
            "function f(n) {
E:
    x1 = 0
    jump H
H:
    x2 = phi(E: x1, B: x3)
    c = x2 < n
    branch c, B, X
B:
    x3 = x2 + 1
    jump H
X:
    ret x2
}
",
        );
        let var = |f: &Function, name: &str| f.var_by_name(name).unwrap();
        let (c, x1, x3) = (var(&f, "c"), var(&f, "x1"), var(&f, "x3"));
        let (bb, bx) = (f.block_by_name("B").unwrap(), f.block_by_name("X").unwrap());
        let mut webs = phi_webs(&f);
        assert!(webs.same_web(x1, x3));
        assert!(!webs.same_web(x1, c));
        assert_eq!(webs.representative(x3), x1);
        assert_eq!(same_block_phi_conflict(&f, &mut webs), None);
        let stats = destruct_conventional(&mut f);
        assert_eq!(stats.phis_removed, 1);
        assert!(f.blocks().all(|b| f.block_phis(b).is_empty()));
        assert_eq!(f.inst_slots(), 3);
        let Terminator::Ret(vals) = *f.term(bx) else {
            panic!("X returns")
        };
        assert_eq!(vals.as_slice(&f), [x1.into()]);
        assert_eq!(
            *f.inst(f.block_insts(bb)[0]),
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
        let mut f = parse(
            "function f() {
E:
    jump H
H:
    a = phi(E: 1, H: b)
    b = phi(E: 2, H: a)
    jump H
}
",
        );
        let (va, vb) = (f.var_by_name("a").unwrap(), f.var_by_name("b").unwrap());
        let be = f.block_by_name("E").unwrap();
        let mut webs = phi_webs(&f);
        assert_eq!(same_block_phi_conflict(&f, &mut webs), Some((va, vb)));
        let stats = rename_webs(&mut f, &mut webs);
        assert_eq!(stats.constant_copies, 2);
        assert_eq!(f.block_insts(be).len(), 2);
    }
}
