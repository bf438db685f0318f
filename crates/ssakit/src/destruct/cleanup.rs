//! Deleting the copies (and phis) that out-of-SSA translation makes
//! useless.
//!
//! * Before coalescing, [`remove_dead_phis_and_copies`]: a phi or a
//!   parallel-copy entry whose result no real instruction ever needs
//!   (minimal SSA has such phis, and Method I gives each its copies). Such
//!   copies only add interferences: two destinations of one parallel copy
//!   may never share a name unless they copy one value, even if one is dead.
//! * After coalescing, while renaming, [`rename_and_drop`]: copies whose
//!   two sides are now one class (`x = x`), copies of `undef` inside parallel copies
//!   (the destination may keep any value), and the second entry writing one
//!   class in a parallel copy (coalescing only allows it when both entries
//!   copy the same value).

use super::phi_webs::{rename, RenameStats};
use super::to_cssa::Inserted;
use crate::entity::{EntityVec, PackedOption};
use crate::ir::{Block, Function, Inst, InstData, Operand, Var};

/// What [`remove_dead_phis_and_copies`] removed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct DeadRemoved {
    /// Phis removed.
    pub(crate) phis: usize,
    /// Parallel-copy entries removed.
    pub(crate) copies: usize,
}

/// No phi or parallel copy defines the variable: a root of the walk or
/// nothing to follow.
const OTHER: u32 = u32::MAX;

/// Removes the phis and parallel-copy entries whose destination is not
/// *needed*, then the parallel copies left empty. A variable is needed when
/// an instruction other than a phi or a parallel copy reads it, or a
/// terminator does, or a needed phi or parallel-copy entry does: a
/// worklist from those roots, in `O(instructions + operands)`: one walk
/// of the phis and parallel copies gathers the entries (a function
/// without any stops there), one of the other instructions and the
/// terminators marks the roots as it meets them, and only the blocks
/// holding an unneeded entry are rewritten (none, for pruned SSA).
///
/// Only variables defined by a phi or a parallel copy can be unneeded, so
/// only those are marked and followed: the walk touches the copies and
/// phis, not every variable (most uses read variables that ordinary
/// instructions define). Instructions this pass does not know (calls,
/// operations) are roots like any other: they are never removed.
///
/// Removed instructions are only unlisted from their block: instruction
/// numbers do not change until [`Function::compact`] runs.
pub(crate) fn remove_dead_phis_and_copies(func: &mut Function) -> DeadRemoved {
    let nv = func.num_vars();
    // `def[v]`: the number of the phi or parallel-copy entry defining `v`,
    // or `OTHER`. Entry `k`, in block `entry_block[k]`, reads the
    // variables `srcs[srcs_start[k] .. srcs_start[k + 1]]` (its source, or
    // its phi's operands), copied out so that the walk below touches only
    // these dense tables. One walk of the phis and parallel copies.
    // Each entry defines its own variable: at most `nv` of them (the
    // sources, a guess of one each), one vector growth at most.
    let mut def = vec![OTHER; nv];
    let mut srcs_start: Vec<u32> = Vec::with_capacity(nv + 1);
    srcs_start.push(0);
    let mut srcs: Vec<Var> = Vec::with_capacity(nv);
    let mut entry_block: Vec<Block> = Vec::with_capacity(nv);
    for b in func.blocks() {
        for &i in func.block_phis(b) {
            if let Some(d) = func.def(i) {
                def[d.index()] = srcs_start.len() as u32 - 1;
                func.for_each_use(i, |u| srcs.push(u));
                srcs_start.push(srcs.len() as u32);
                entry_block.push(b);
            }
        }
        for &i in func.block_insts(b) {
            if let InstData::ParCopy { copies } = func.inst(i) {
                for &(d, s) in copies.as_slice(func) {
                    def[d.index()] = srcs_start.len() as u32 - 1;
                    srcs.extend(s.var());
                    srcs_start.push(srcs.len() as u32);
                    entry_block.push(b);
                }
            }
        }
    }
    // `needed[k]` for entry `k`.
    let entries = srcs_start.len() - 1;
    if entries == 0 {
        return DeadRemoved::default();
    }
    let mut needed = vec![false; entries];
    // Each entry is pushed once, when first needed.
    let mut work: Vec<u32> = Vec::with_capacity(entries);
    let mut count = 0;
    let mut need = |v: Var, needed: &mut Vec<bool>, work: &mut Vec<u32>| {
        let k = def[v.index()];
        if k != OTHER && !needed[k as usize] {
            needed[k as usize] = true;
            count += 1;
            work.push(k);
        }
    };
    // The roots: what the other instructions and the terminators of the
    // layout read, marked as they are met (the needed entries are the
    // same whatever the order).
    for &b in func.layout() {
        for &i in func.block_insts(b) {
            if !func.inst(i).is_par_copy() {
                func.for_each_use(i, |v| need(v, &mut needed, &mut work));
            }
        }
        func.for_each_term_use(b, |v| need(v, &mut needed, &mut work));
    }
    while let Some(k) = work.pop() {
        let (lo, hi) = (srcs_start[k as usize], srcs_start[k as usize + 1]);
        for &u in &srcs[lo as usize..hi as usize] {
            need(u, &mut needed, &mut work);
        }
    }
    let mut removed = DeadRemoved::default();
    if count == entries {
        return removed;
    }
    // Only the blocks holding an unneeded entry change.
    let mut touched: EntityVec<Block, bool> = EntityVec::filled(func.num_blocks(), false);
    for k in (0..entries).filter(|&k| !needed[k]) {
        touched[entry_block[k]] = true;
    }
    let is_needed = |d: Var| def[d.index()] != OTHER && needed[def[d.index()] as usize];
    for b in func.blocks().filter(|&b| touched[b]) {
        func.retain_phis(b, |func, i| {
            let keep = func.def(i).is_some_and(is_needed);
            removed.phis += !keep as usize;
            keep
        });
        for k in 0..func.block_insts(b).len() {
            let i = func.block_insts(b)[k];
            if func.inst(i).is_par_copy() {
                func.edit_par_copy(i, |copies, func| {
                    let before = copies.len();
                    copies.retain(func, |c| is_needed(c.0));
                    removed.copies += before - copies.len();
                });
            }
        }
        func.retain_insts(
            b,
            |func, i| !matches!(func.inst(i), InstData::ParCopy { copies } if copies.is_empty()),
        );
    }
    removed
}

/// What [`rename_and_drop`] removed or kept.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct Dropped {
    /// Copies (ordinary, or entries of parallel copies) whose destination
    /// and source are one class, and second writes of one class.
    pub(crate) self_copies: usize,
    /// Entries of parallel copies copying `undef`.
    pub(crate) undef_copies: usize,
    /// Entries left, copying a variable, in the parallel copies of
    /// `inserted`.
    pub(crate) inserted_left: usize,
}

/// Renames every variable `v` to `rep[v]` and removes the phis
/// (as [`rename_webs`](super::phi_webs::rename_webs) does), deleting in the same pass the
/// copies the renaming turns into nothing: `x = x` (ordinary copies and
/// parallel-copy entries), `x ← undef` entries of parallel copies, and,
/// with `dedupe` (after coalescing), the second of two entries of one
/// parallel copy that write one class. Parallel copies left empty go.
/// Counts the entries copying a variable left in the parallel copies
/// marked in `inserted` (those
/// [`insert_phi_copies`](super::to_cssa::insert_phi_copies) made).
pub(crate) fn rename_and_drop(
    func: &mut Function,
    rep: &EntityVec<Var, Var>,
    dedupe: bool,
    inserted: &Inserted,
) -> (RenameStats, Dropped) {
    let mut d = Dropped::default();
    // `written[r] == Some(i)`: class `r` is written by parallel copy `i`.
    let mut written: EntityVec<Var, PackedOption<Inst>> =
        EntityVec::filled(func.num_vars(), PackedOption::NONE);
    let renamed = rename(func, rep, |func, i| match *func.inst(i) {
        InstData::Copy {
            dst,
            src: Operand::Var(s),
        } if dst == s => {
            d.self_copies += 1;
            false
        }
        InstData::ParCopy { .. } => {
            let this = PackedOption::some(i);
            func.edit_par_copy(i, |copies, func| {
                copies.retain(func, |&(dst, src)| {
                    match src {
                        Operand::Var(s) if s == dst => d.self_copies += 1,
                        Operand::Undef => d.undef_copies += 1,
                        _ if dedupe && written[dst] == this => d.self_copies += 1,
                        _ => {
                            written[dst] = this;
                            return true;
                        }
                    }
                    false
                })
            });
            let copies = func.par_copy(i);
            if inserted[i] {
                d.inserted_left += copies.iter().filter(|c| c.1.var().is_some()).count();
            }
            !copies.is_empty()
        }
        _ => true,
    });
    (renamed, d)
}

/// Number of copy instructions in the blocks of the layout.
pub(crate) fn count_copies(func: &Function) -> usize {
    func.layout()
        .iter()
        .flat_map(|&b| func.block_insts(b))
        .filter(|&&i| matches!(func.inst(i), InstData::Copy { .. }))
        .count()
}
