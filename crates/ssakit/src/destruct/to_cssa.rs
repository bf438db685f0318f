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
use crate::entity::EntityVec;
use crate::ir::{Block, Function, Inst, InstData, Operand, Terminator, Var};

/// Where to put the copy of each phi's destination (step 2 of the module
/// doc).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum JoinCopies {
    /// At every block with phis: Sreedhar's Method I as published.
    Always,
    /// Only at blocks with a predecessor that does not end in a plain
    /// `jump` to it (correct in all cases, see the module doc).
    #[default]
    WhenNeeded,
}

/// What [`insert_phi_copies`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CssaStats {
    /// Phis processed.
    pub phis: usize,
    /// Copies inserted (inside parallel copies), and so fresh variables;
    /// none for `undef` operands.
    pub copies: usize,
    /// Parallel copies created.
    pub parallel_copies: usize,
}

/// Makes `func` conventional by giving every phi operand a fresh variable
/// copied in parallel at the end of its predecessor, and, where
/// [`JoinCopies`] asks, every phi destination a fresh variable copied at
/// the start of its block.
///
/// # Preconditions
/// Each phi operand is labelled by a block of the function (normally a
/// predecessor; the verifier checks that). [`JoinCopies::WhenNeeded`]
/// also relies on strictness (every use dominated by its definition, as SSA
/// construction with `undef` produces): a phi's destination is then never
/// live on entry to its own block. Runs in `O(instructions)`.
pub fn insert_phi_copies(func: &mut Function, join: JoinCopies) -> CssaStats {
    let mut fresh = FreshVars::new(func);
    let mut stats = CssaStats::default();
    // By block: its end-of-block parallel copy, once created.
    let mut end_copy: EntityVec<Block, Option<Inst>> = EntityVec::filled(func.blocks.len(), None);
    // By block: how many copies its end-of-block parallel copy will get,
    // so that each is allocated once.
    let mut end_size: EntityVec<Block, u32> = EntityVec::filled(func.blocks.len(), 0);
    // Room for every fresh variable and parallel copy, reserved once.
    let (mut phis, mut blocks_with_phis) = (0, 0);
    for &b in &func.layout {
        blocks_with_phis += !func.blocks[b].phis.is_empty() as usize;
        for &phi in &func.blocks[b].phis {
            if let InstData::Phi { args, .. } = &func.insts[phi] {
                phis += 1;
                for a in args.iter().filter(|a| a.value != Operand::Undef) {
                    end_size[a.block] += 1;
                }
            }
        }
    }
    let operand_copies: usize = end_size.values().map(|&n| n as usize).sum();
    let end_copies = end_size.values().filter(|&&n| n > 0).count();
    func.vars.reserve(operand_copies + phis);
    func.insts.reserve(end_copies + blocks_with_phis);
    let layout = func.layout.clone();
    for &b in &layout {
        if func.blocks[b].phis.is_empty() {
            continue;
        }
        let need_join = match join {
            JoinCopies::Always => true,
            JoinCopies::WhenNeeded => !all_preds_jump_to(func, b),
        };
        let mut join_copies: Vec<(Var, Operand)> = Vec::new();
        for p in 0..func.blocks[b].phis.len() {
            let phi = func.blocks[b].phis[p];
            let InstData::Phi { dst, mut args } = std::mem::replace(
                &mut func.insts[phi],
                InstData::ParCopy { copies: Vec::new() },
            ) else {
                unreachable!("non-phi in the phis of {}", func.blocks[b].name);
            };
            stats.phis += 1;
            // Step 1: `ai' ← ai` at the end of `Bi` (not for `undef`).
            for arg in &mut args {
                if arg.value == Operand::Undef {
                    continue;
                }
                let fresh_arg = fresh.version_of(func, dst);
                let pc = match end_copy[arg.block] {
                    Some(pc) => pc,
                    None => {
                        let copies = Vec::with_capacity(end_size[arg.block] as usize);
                        let pc = func.push_inst(arg.block, InstData::ParCopy { copies });
                        end_copy[arg.block] = Some(pc);
                        stats.parallel_copies += 1;
                        pc
                    }
                };
                if let InstData::ParCopy { copies } = &mut func.insts[pc] {
                    copies.push((fresh_arg, arg.value));
                }
                arg.value = Operand::Var(fresh_arg);
                stats.copies += 1;
            }
            // Step 2: `a0' = phi(...)`, then `a0 ← a0'` after the phis.
            let dst = if need_join {
                let fresh_dst = fresh.version_of(func, dst);
                join_copies.push((dst, Operand::Var(fresh_dst)));
                stats.copies += 1;
                fresh_dst
            } else {
                dst
            };
            func.insts[phi] = InstData::Phi { dst, args };
        }
        if !join_copies.is_empty() {
            let pc = func.insts.push(InstData::ParCopy {
                copies: join_copies,
            });
            func.blocks[b].insts.insert(0, pc);
            stats.parallel_copies += 1;
        }
    }
    stats
}

/// Whether every block labelling an operand of a phi of `b` ends with
/// `jump b`.
fn all_preds_jump_to(func: &Function, b: Block) -> bool {
    func.blocks[b]
        .phis
        .iter()
        .all(|&phi| match &func.insts[phi] {
            InstData::Phi { args, .. } => args
                .iter()
                .all(|a| func.blocks[a.block].term == Terminator::Jump(b)),
            _ => true,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, FunctionBuilder, PhiArg};

    /// The swap problem's loop header, edges unsplit:
    ///
    /// ```text
    /// E: jump L
    /// L: a2 = phi(E: a1, L: b2); b2 = phi(E: b1, L: a2)
    ///    c = b2 < 10; branch c, L, X
    /// ```
    #[test]
    fn one_parallel_copy_per_block() {
        let mut b = FunctionBuilder::new("f");
        let (be, bl, bx) = (b.block("E"), b.block("L"), b.block("X"));
        let (a1, b1, a2, b2, c) = (
            b.var("a1"),
            b.var("b1"),
            b.var("a2"),
            b.var("b2"),
            b.var("c"),
        );
        b.switch_to(be);
        b.copy(a1, Operand::Const(1));
        b.copy(b1, Operand::Const(2));
        b.jump(bl);
        b.switch_to(bl);
        let arg = |block, v: Var| PhiArg {
            block,
            value: v.into(),
        };
        b.phi(a2, vec![arg(be, a1), arg(bl, b2)]);
        b.phi(b2, vec![arg(be, b1), arg(bl, a2)]);
        b.binary(c, BinOp::Lt, b2.into(), Operand::Const(10));
        b.branch(c.into(), bl, bx);
        b.switch_to(bx);
        b.ret(Some(a2.into()));
        let mut f = b.finish();
        let stats = insert_phi_copies(&mut f, JoinCopies::WhenNeeded);
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
        let last = |blk: Block| f.insts[*f.blocks[blk].insts.last().unwrap()].clone();
        let InstData::ParCopy { copies } = last(be) else {
            panic!()
        };
        assert_eq!(copies.len(), 2);
        assert_eq!(copies[0].1, a1.into());
        let InstData::ParCopy { copies } = last(bl) else {
            panic!()
        };
        assert_eq!(
            copies.iter().map(|c| c.1).collect::<Vec<_>>(),
            [b2.into(), a2.into()]
        );
        let InstData::ParCopy { copies } = &f.insts[f.blocks[bl].insts[0]] else {
            panic!()
        };
        assert_eq!(copies.iter().map(|c| c.0).collect::<Vec<_>>(), [a2, b2]);
        // Fresh variables are versions of the phi destination.
        let InstData::Phi { dst, args } = &f.insts[f.blocks[bl].phis[0]] else {
            panic!()
        };
        assert_eq!(f.original(*dst), a2);
        assert!(args
            .iter()
            .all(|a| f.original(a.value.var().unwrap()) == a2));

        // With `Always` on a block whose predecessors all jump: join copies.
        let mut g = FunctionBuilder::new("g");
        let (e, l) = (g.block("E"), g.block("L"));
        let x = g.var("x");
        g.switch_to(e);
        g.jump(l);
        g.switch_to(l);
        g.phi(
            x,
            vec![PhiArg {
                block: e,
                value: Operand::Const(3),
            }],
        );
        g.ret(Some(x.into()));
        let g = g.finish();
        let mut h = g.clone();
        assert_eq!(insert_phi_copies(&mut h, JoinCopies::WhenNeeded).copies, 1);
        let mut h = g.clone();
        assert_eq!(insert_phi_copies(&mut h, JoinCopies::Always).copies, 2);
    }
}
