//! Deleting the copies (and phis) that out-of-SSA translation makes
//! useless.
//!
//! * Before coalescing, [`remove_dead_phis_and_copies`]: a phi or a
//!   parallel-copy entry whose result no real instruction ever needs
//!   (minimal SSA has such phis, and Method I gives each its copies). Such
//!   copies only add interferences: two destinations of one parallel copy
//!   may never share a name unless they copy one value, even if one is dead.
//! * After coalescing, [`drop_redundant_copies`]: copies whose two sides
//!   are now one class (`x = x`), copies of `undef` inside parallel copies
//!   (the destination may keep any value), and the second entry writing one
//!   class in a parallel copy (coalescing only allows it when both entries
//!   copy the same value).

use super::compact::compact_insts;
use crate::entity::EntityVec;
use crate::ir::{Function, Inst, InstData, Operand, Var};

/// What [`remove_dead_phis_and_copies`] removed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DeadRemoved {
    /// Phis removed.
    pub phis: usize,
    /// Parallel-copy entries removed.
    pub copies: usize,
}

/// Where a variable is defined, for the dead-code walk.
#[derive(Clone, Copy)]
enum Def {
    /// By something else: a root of the walk or nothing to follow.
    Other,
    /// By this phi.
    Phi(Inst),
    /// By entry `k` of this parallel copy.
    ParCopy(Inst, u32),
}

/// Removes the phis and parallel-copy entries whose destination is not
/// *needed*, then the parallel copies left empty. A variable is needed when
/// an instruction other than a phi or a parallel copy reads it, or a
/// terminator does, or a needed phi or parallel-copy entry does: a
/// worklist from those roots, in `O(instructions + operands)`.
///
/// Removed instructions are only unlinked from their block: instruction
/// numbers do not change until [`compact_insts`] runs.
pub fn remove_dead_phis_and_copies(func: &mut Function) -> DeadRemoved {
    let nv = func.vars.len();
    let mut def = vec![Def::Other; nv];
    let mut needed = vec![false; nv];
    let mut work: Vec<Var> = Vec::new();
    let need = |v: Var, needed: &mut Vec<bool>, work: &mut Vec<Var>| {
        if !needed[v.index()] {
            needed[v.index()] = true;
            work.push(v);
        }
    };
    for &b in &func.layout {
        let data = &func.blocks[b];
        for &i in &data.phis {
            if let Some(d) = func.insts[i].def() {
                def[d.index()] = Def::Phi(i);
            }
        }
        for &i in &data.insts {
            match &func.insts[i] {
                InstData::ParCopy { copies } => {
                    for (k, &(d, _)) in copies.iter().enumerate() {
                        def[d.index()] = Def::ParCopy(i, k as u32);
                    }
                }
                other => other.for_each_use(|v| need(v, &mut needed, &mut work)),
            }
        }
        if let Some(Operand::Var(v)) = data.term.operand() {
            need(v, &mut needed, &mut work);
        }
    }
    while let Some(v) = work.pop() {
        match def[v.index()] {
            Def::Other => {}
            Def::Phi(i) => func.insts[i].for_each_use(|u| need(u, &mut needed, &mut work)),
            Def::ParCopy(i, k) => {
                if let InstData::ParCopy { copies } = &func.insts[i] {
                    if let Operand::Var(u) = copies[k as usize].1 {
                        need(u, &mut needed, &mut work);
                    }
                }
            }
        }
    }
    let mut removed = DeadRemoved::default();
    let Function { blocks, insts, .. } = func;
    for data in blocks.values_mut() {
        data.phis.retain(|&i| {
            let keep = insts[i].def().is_some_and(|d| needed[d.index()]);
            removed.phis += !keep as usize;
            keep
        });
        data.insts.retain(|&i| match &mut insts[i] {
            InstData::ParCopy { copies } => {
                let before = copies.len();
                copies.retain(|c| needed[c.0.index()]);
                removed.copies += before - copies.len();
                !copies.is_empty()
            }
            _ => true,
        });
    }
    removed
}

/// What [`drop_redundant_copies`] removed or kept.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Dropped {
    /// Copies (ordinary, or entries of parallel copies) whose destination
    /// and source are one class, and second writes of one class.
    pub self_copies: usize,
    /// Entries of parallel copies copying `undef`.
    pub undef_copies: usize,
    /// Entries left, copying a variable, in the parallel copies numbered
    /// from `inserted_from`.
    pub inserted_left: usize,
}

/// Deletes the copies that renaming every variable `v` to `rep[v]` turns
/// into nothing: `x = x` (ordinary copies and parallel-copy entries), `x ←
/// undef` entries of parallel copies, and, with `dedupe` (after
/// coalescing), the second of two entries of one parallel copy that write
/// one class. Parallel copies left empty go, then [`compact_insts`] runs.
/// Counts the entries copying a variable left in parallel copies numbered
/// from `inserted_from` (those
/// [`insert_phi_copies`](super::to_cssa::insert_phi_copies) made).
pub fn drop_redundant_copies(
    func: &mut Function,
    rep: &EntityVec<Var, Var>,
    dedupe: bool,
    inserted_from: usize,
) -> Dropped {
    let mut d = Dropped::default();
    // `written[r] == k + 1`: class `r` is written by parallel copy `k`.
    let mut written = vec![0u32; func.vars.len()];
    let Function { blocks, insts, .. } = func;
    for data in blocks.values_mut() {
        data.insts.retain(|&i| match &mut insts[i] {
            InstData::Copy {
                dst,
                src: Operand::Var(s),
            } if rep[*dst] == rep[*s] => {
                d.self_copies += 1;
                false
            }
            InstData::ParCopy { copies } => {
                copies.retain(|&(dst, src)| {
                    let r = rep[dst];
                    match src {
                        Operand::Var(s) if rep[s] == r => d.self_copies += 1,
                        Operand::Undef => d.undef_copies += 1,
                        _ if dedupe && written[r.index()] == i.0 + 1 => d.self_copies += 1,
                        _ => {
                            written[r.index()] = i.0 + 1;
                            return true;
                        }
                    }
                    false
                });
                if i.index() >= inserted_from {
                    d.inserted_left += copies.iter().filter(|c| c.1.var().is_some()).count();
                }
                !copies.is_empty()
            }
            _ => true,
        });
    }
    compact_insts(func);
    d
}

/// Number of copy instructions in the blocks of the layout.
pub fn count_copies(func: &Function) -> usize {
    func.layout
        .iter()
        .flat_map(|&b| &func.blocks[b].insts)
        .filter(|&&i| matches!(func.insts[i], InstData::Copy { .. }))
        .count()
}
