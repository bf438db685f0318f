//! Going back to conventional SSA by inserting copies around every phi
//! (chapter section 13.6; Sreedhar, Ju, Gillies and Santhanam, "Translating
//! Out of Static Single Assignment Form", SAS 1999, Method I; Boissinot et
//! al., "Revisiting Out-of-SSA Translation", CGO 2009, section 3).
//!
//! # Terms
//!
//! Variables are *phi-related* when they are operands (source or
//! destination) of the same phi; the classes of the transitive closure are
//! the *phi webs*. SSA is *conventional* (CSSA) when no two variables of a
//! web interfere, so renaming each web to one name and deleting the phis is
//! a correct destruction ([`super::phi_webs`](mod@super::phi_webs)). Optimisations such as copy
//! propagation break this (the *lost-copy* and *swap* problems of Briggs,
//! Cooper, Harvey and Simpson, 1998).
//!
//! # The transformation
//!
//! For every phi `a0 = phi(B1: a1, ..., Bn: an)` of a block `B`:
//!
//! 1. **Predecessor copies** (the chapter's algorithm): for each operand
//!    `ai` other than `undef`, a fresh `ai'` and the copy `ai' ← ai` in the parallel copy
//!    `PCi` at the end of `Bi` (before its terminator); `ai` is replaced by
//!    `ai'` in the phi. There is one parallel copy per block, shared by all
//!    phis of all its successors, not one copy per phi: the copies of one
//!    edge must be simultaneous, exactly as the phis are.
//! 2. **Join copy** (Method I): a fresh `a0'` becomes the phi's
//!    destination, and `a0 ← a0'` goes in one parallel copy at the start of
//!    `B`, right after the phis.
//!
//! An `undef` operand stays as it is: it has no live range, so it cannot
//! interfere, and the destination may hold anything on that edge (a copy
//! `ai' ← undef` would only add a variable, and for two phis taking `undef`
//! from one predecessor, two variables defined together that could never
//! share a name).
//!
//! Afterwards the web of the phi is `{a0', a1', ..., an'}`: `ai'` lives
//! only from the end of `Bi` to the edge, and `a0'` only from the phis to
//! the join copy, so no two members interfere, whatever the CFG, and the
//! result is conventional *without splitting any edge*. The old names `ai`
//! and `a0` are no longer phi operands and keep their own live ranges.
//!
//! # Terminators that read web variables
//!
//! `PCi` goes *before* the terminator of `Bi`, which may read a variable
//! (`branch a1, B, C`). That is still correct: `PCi` writes only fresh
//! variables, which nothing but the phi reads, so the terminator sees the
//! same values as before. After renaming, `ai'` is the web's
//! representative `r` and `PCi` becomes `r ← ai`; the terminator still
//! reads `ai`, not `r`. And when `Bi` has other successors, `r ← ai` is
//! executed on those paths too, harmlessly: the web is not live there
//! (Step 2 ended the live range of the old destination at the join copy).
//!
//! # When the join copy can be left out
//!
//! The join copy is only needed when `a0` could be live where some `ai'`
//! is, i.e. at the end of a predecessor, after `PCi`. If every predecessor
//! of `B` ends with `jump B`, the end of `Bi` flows only into `B`, where
//! `a0` is not yet defined, and the jump reads nothing, so `a0` is dead
//! there: the web `{a0, a1', ..., an'}` is already conventional.
//! [`JoinCopies::WhenNeeded`] uses this to save the copy after critical
//! edges have been split (split blocks end with `jump`). Counter-example
//! when `Bi` branches: the lost-copy problem, where `a0` is live out of
//! `Bi` along the loop exit.

use super::fresh::FreshVars;
use crate::entity::{EntityList, EntityVec, SecondaryMap};
use crate::ir::{Block, Function, Inst, InstData, Operand, Terminator, Var};

/// Where to put the copy of each phi's destination (step 2 of the module
/// doc).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) enum JoinCopies {
    /// At every block with phis: Sreedhar's Method I as published (only
    /// the tests ask for it, to compare).
    #[cfg_attr(not(test), allow(dead_code))]
    Always,
    /// Only at blocks with a predecessor that does not end in a plain
    /// `jump` to it (correct in all cases, see the module doc).
    #[default]
    WhenNeeded,
}

/// What [`insert_phi_copies`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct CssaStats {
    /// Phis processed.
    pub(crate) phis: usize,
    /// Copies inserted (inside parallel copies), and so fresh variables;
    /// none for `undef` operands.
    pub(crate) copies: usize,
    /// Parallel copies created.
    pub(crate) parallel_copies: usize,
}

/// The parallel copies [`insert_phi_copies`] inserted: `true` for each of
/// them, `false` for every other instruction. Valid as long as instruction
/// numbers are (until [`Function::compact`]).
pub(crate) type Inserted = SecondaryMap<Inst, bool>;

/// The pairs of a parallel copy.
type CopyList = EntityList<(Var, Operand)>;

/// Which of Method I's copies [`insert_copies`] materializes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Selection<'a> {
    /// Every copy Method I asks for (the join copies as [`JoinCopies`]
    /// says).
    All(JoinCopies),
    /// The copies of constant operands only, no join copy: the copies
    /// virtualization materializes whatever coalescing decides (a constant
    /// has no live range to stand for the copy's destination).
    Constants,
    /// Method I for the phis whose destination is marked in `phis` (by
    /// variable), skipping the operands already materialized (variables
    /// numbered from `first_fresh` on, made by an earlier call), with join
    /// copies where needed.
    Phis {
        /// By variable: whether its phi gets copies.
        phis: &'a [bool],
        /// The first variable an earlier call made.
        first_fresh: usize,
    },
}

impl Selection<'_> {
    /// Whether the phi defining `dst` gets copies at all.
    fn phi(&self, dst: Var) -> bool {
        match self {
            Selection::Phis { phis, .. } => phis[dst.index()],
            _ => true,
        }
    }

    /// Whether operand `v` of a selected phi gets a copy.
    fn operand(&self, v: Operand) -> bool {
        match (self, v) {
            (_, Operand::Undef) => false,
            (Selection::All(_), _) => true,
            (Selection::Constants, v) => v.var().is_none(),
            (Selection::Phis { first_fresh, .. }, v) => {
                v.var().is_some_and(|x| x.index() < *first_fresh)
            }
        }
    }

    /// Whether block `b`, with phis, gets a join copy for each selected phi.
    fn join(&self, func: &Function, b: Block) -> bool {
        match self {
            Selection::All(JoinCopies::Always) => true,
            Selection::Constants => false,
            _ => !all_preds_jump_to(func, b),
        }
    }
}

/// Makes `func` conventional by giving every phi operand a fresh variable
/// copied in parallel at the end of its predecessor, and, where
/// [`JoinCopies`] asks, every phi destination a fresh variable copied at
/// the start of its block. Returns what it did and the parallel copies it
/// inserted.
///
/// Fresh variables are versions of the phi destination, so they have its
/// type.
///
/// # Preconditions
/// Each phi operand is labelled by a block of the function (normally a
/// predecessor; the verifier checks that). [`JoinCopies::WhenNeeded`]
/// also relies on strictness (every use dominated by its definition, as SSA
/// construction with `undef` produces): a phi's destination is then never
/// live on entry to its own block. Runs in `O(instructions)`.
pub(crate) fn insert_phi_copies(func: &mut Function, join: JoinCopies) -> (CssaStats, Inserted) {
    let mut inserted = Inserted::new(false);
    let stats = insert_copies(func, Selection::All(join), &mut inserted, &mut None);
    (stats, inserted)
}

/// The copies of [`insert_phi_copies`] that `which` selects, marking the
/// parallel copies it creates in `inserted`. The copies of a predecessor
/// go into the parallel copy an earlier call inserted at its end (marked
/// in `inserted`), if there is one, so that they stay simultaneous. Runs
/// in `O(instructions)`, plus a scan of the variables when `fresh` is
/// `None` and a copy is inserted: the [`FreshVars`] left there knows the
/// fresh variables of this call, so a second call handed it does not scan
/// again.
pub(crate) fn insert_copies(
    func: &mut Function,
    which: Selection<'_>,
    inserted: &mut Inserted,
    fresh: &mut Option<FreshVars>,
) -> CssaStats {
    let mut stats = CssaStats::default();
    // By block: its end-of-block parallel copy, once created, and the
    // list of its copies, filled here and set in the instruction at the
    // end.
    let mut end_copy: EntityVec<Block, Option<(Inst, CopyList)>> =
        EntityVec::filled(func.num_blocks(), None);
    // By block: how many copies its end-of-block parallel copy will get,
    // so that each is allocated once.
    let mut end_size: EntityVec<Block, u32> = EntityVec::filled(func.num_blocks(), 0);
    // Room for every fresh variable and parallel copy, reserved once.
    let (mut phis, mut blocks_with_phis) = (0, 0);
    for &b in func.layout() {
        blocks_with_phis += !func.block_phis(b).is_empty() as usize;
        for &phi in func.block_phis(b) {
            let Some(dst) = func.def(phi) else { continue };
            if !which.phi(dst) {
                continue;
            }
            phis += 1;
            for a in func.phi_args(phi) {
                if which.operand(a.value) {
                    end_size[a.block] += 1;
                }
            }
        }
    }
    let operand_copies: usize = end_size.values().map(|&n| n as usize).sum();
    if operand_copies == 0 && matches!(which, Selection::Constants) {
        // No constant operand (no join copy either): nothing to insert,
        // and no second walk of the phis.
        stats.phis = phis;
        return stats;
    }
    // Made here, after the early return: a walk of every variable.
    let fresh = fresh.get_or_insert_with(|| FreshVars::new(func));
    let end_copies = end_size.values().filter(|&&n| n > 0).count();
    func.reserve_vars(operand_copies + phis);
    func.reserve_insts(end_copies + blocks_with_phis);
    // The end-of-block parallel copies an earlier call inserted.
    for b in func.blocks() {
        if end_size[b] == 0 {
            continue;
        }
        if let Some(&last) = func.block_insts(b).last() {
            if let InstData::ParCopy { copies } = *func.inst(last) {
                if inserted[last] {
                    end_copy[b] = Some((last, copies));
                }
            }
        }
    }
    let layout = func.layout().to_vec();
    for &b in &layout {
        if func.block_phis(b).is_empty() {
            continue;
        }
        let need_join = which.join(func, b);
        let mut join_copies: Vec<(Var, Operand)> = Vec::new();
        for p in 0..func.block_phis(b).len() {
            let phi = func.block_phis(b)[p];
            let InstData::Phi { dst, args } = *func.inst(phi) else {
                unreachable!("non-phi in the phis of {}", func.block_name(b));
            };
            if !which.phi(dst) {
                continue;
            }
            stats.phis += 1;
            // Step 1: `ai' ← ai` at the end of `Bi` (not for `undef`).
            for k in 0..args.len() {
                let arg = args.as_slice(func)[k];
                if !which.operand(arg.value) {
                    continue;
                }
                let fresh_arg = fresh.version_of(func, dst);
                let copy = (fresh_arg, arg.value);
                let (_, copies) = end_copy[arg.block].get_or_insert_with(|| {
                    let copies = func.list_with_room(end_size[arg.block] as usize, copy);
                    let pc = func.push_inst(arg.block, InstData::ParCopy { copies });
                    inserted[pc] = true;
                    stats.parallel_copies += 1;
                    (pc, copies)
                });
                copies.push(copy, func);
                args.as_mut_slice(func)[k].value = Operand::Var(fresh_arg);
                stats.copies += 1;
            }
            // Step 2: `a0' = phi(...)`, then `a0 ← a0'` after the phis.
            if need_join {
                let fresh_dst = fresh.version_of(func, dst);
                join_copies.push((dst, Operand::Var(fresh_dst)));
                stats.copies += 1;
                func.set_inst(
                    phi,
                    InstData::Phi {
                        dst: fresh_dst,
                        args,
                    },
                );
            }
        }
        if !join_copies.is_empty() {
            let copies = func.list(&join_copies);
            let pc = func.insert_inst(b, 0, InstData::ParCopy { copies });
            inserted[pc] = true;
            stats.parallel_copies += 1;
        }
    }
    for (pc, copies) in end_copy.values().flatten() {
        func.set_inst(*pc, InstData::ParCopy { copies: *copies });
    }
    stats
}

/// Whether every block labelling an operand of a phi of `b` ends with
/// `jump b`.
///
/// # Preconditions
/// Every phi of `b` has one operand per predecessor (valid SSA): the
/// first phi's labels are every phi's, so only they are read (a block of
/// a ladder holds hundreds of phis).
pub(crate) fn all_preds_jump_to(func: &Function, b: Block) -> bool {
    func.block_phis(b).first().is_none_or(|&phi| {
        func.phi_args(phi)
            .iter()
            .all(|a| *func.term(a.block) == Terminator::Jump(b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Type;

    use crate::text::parse_one as parse;

    /// The swap problem's loop header, edges unsplit:
    ///
    /// ```text
    /// E: jump L
    /// L: a2 = phi(E: a1, L: b2); b2 = phi(E: b1, L: a2)
    ///    c = b2 < 10; branch c, L, X
    /// ```
    #[test]
    fn one_parallel_copy_per_block() {
        let mut f = parse(
            "function f() {
E:
    a1 = 1
    b1 = 2
    jump L
L:
    a2 = phi(E: a1, L: b2)
    b2 = phi(E: b1, L: a2)
    c = b2 < 10
    branch c, L, X
X:
    ret a2
}
",
        );
        let var = |name: &str| f.var_by_name(name).unwrap();
        let (a1, a2, b2) = (var("a1"), var("a2"), var("b2"));
        let (be, bl) = (f.block_by_name("E").unwrap(), f.block_by_name("L").unwrap());
        let (stats, inserted) = insert_phi_copies(&mut f, JoinCopies::WhenNeeded);
        // L branches, so join copies are needed: 2 phis × (2 operands + 1).
        assert_eq!(
            stats,
            CssaStats {
                phis: 2,
                copies: 6,
                parallel_copies: 3
            }
        );
        // E: two copies, then the jump; L: the join copy first, the
        // end copy last, the branch still reads `c`.
        let last = |blk: Block| *f.block_insts(blk).last().unwrap();
        let copies = f.par_copy(last(be));
        assert_eq!(copies.len(), 2);
        assert_eq!(copies[0].1, a1.into());
        let copies = f.par_copy(last(bl));
        assert_eq!(
            copies.iter().map(|c| c.1).collect::<Vec<_>>(),
            [b2.into(), a2.into()]
        );
        let join = f.block_insts(bl)[0];
        let copies = f.par_copy(join);
        assert_eq!(copies.iter().map(|c| c.0).collect::<Vec<_>>(), [a2, b2]);
        // The three parallel copies are those reported inserted.
        assert!([last(be), last(bl), join].iter().all(|&i| inserted[i]));
        let marked = f.blocks().flat_map(|b| f.block_insts(b).to_vec());
        assert_eq!(marked.filter(|&i| inserted[i]).count(), 3);
        // Fresh variables are versions of the phi destination.
        let phi = f.block_phis(bl)[0];
        let InstData::Phi { dst, .. } = *f.inst(phi) else {
            panic!()
        };
        assert_eq!(f.original(dst), a2);
        assert!(f
            .phi_args(phi)
            .iter()
            .all(|a| f.original(a.value.var().unwrap()) == a2));
    }

    /// With `Always` on a block whose predecessors all jump: join copies.
    #[test]
    fn join_copies_when_needed_or_always() {
        let g = parse(
            "function g() {
E:
    jump L
L:
    x = phi(E: 3)
    ret x
}
",
        );
        let mut h = g.clone();
        assert_eq!(
            insert_phi_copies(&mut h, JoinCopies::WhenNeeded).0.copies,
            1
        );
        let mut h = g.clone();
        assert_eq!(insert_phi_copies(&mut h, JoinCopies::Always).0.copies, 2);
    }

    /// Phis of any type get copies of their type, and `undef` operands
    /// none.
    #[test]
    fn copies_have_the_type_of_their_phi() {
        let mut f = Function::new("f");
        let c = f.new_var("c", Type::I64);
        f.add_param(c);
        let (e, l, r, j) = (
            f.new_block("e"),
            f.new_block("l"),
            f.new_block("r"),
            f.new_block("j"),
        );
        let (a, b, x) = (
            f.new_var("a", Type::F64),
            f.new_var("b", Type::F64),
            f.new_var("x", Type::F64),
        );
        let v = f.new_var("v", Type::V128);
        f.set_term(
            e,
            Terminator::Branch {
                cond: c.into(),
                then_dest: l,
                else_dest: r,
            },
        );
        let phi = |f: &mut Function, dst: Var, args: [(Block, Operand); 2]| {
            let args =
                f.list_from_iter(args.map(|(block, value)| crate::ir::PhiArg { block, value }));
            f.push_inst(j, InstData::Phi { dst, args });
        };
        for (blk, var) in [(l, a), (r, b)] {
            let name = f.callee("get");
            let results = f.list(&[var]);
            let args = f.list(&[]);
            f.push_inst(
                blk,
                InstData::Call {
                    callee: name,
                    args,
                    results,
                },
            );
            f.set_term(blk, Terminator::Jump(j));
        }
        phi(&mut f, x, [(l, a.into()), (r, b.into())]);
        phi(&mut f, v, [(l, Operand::Undef), (r, Operand::Undef)]);
        let (stats, _) = insert_phi_copies(&mut f, JoinCopies::WhenNeeded);
        assert_eq!(stats.copies, 2);
        for blk in [l, r] {
            let pc = *f.block_insts(blk).last().unwrap();
            let &[(d, _)] = f.par_copy(pc) else {
                panic!("one copy")
            };
            assert_eq!((f.original(d), f.var_type(d)), (x, Type::F64));
        }
    }
}
