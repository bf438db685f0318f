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
use crate::entity::EntityVec;
use crate::ir::{Block, Function, InstData, Operand, Var};

/// What [`remove_dead_phis_and_copies`] removed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DeadRemoved {
    /// Phis removed.
    pub phis: usize,
    /// Parallel-copy entries removed.
    pub copies: usize,
}

/// No phi or parallel copy defines the variable: a root of the walk or
/// nothing to follow.
const OTHER: u32 = u32::MAX;

/// Removes the phis and parallel-copy entries whose destination is not
/// *needed*, then the parallel copies left empty. A variable is needed when
/// an instruction other than a phi or a parallel copy reads it, or a
/// terminator does, or a needed phi or parallel-copy entry does: a
/// worklist from those roots, in `O(instructions + operands)`: one walk
/// of the blocks gathers the entries and the roots, and only the blocks
/// holding an unneeded entry are rewritten (none, for pruned SSA).
///
/// Only variables defined by a phi or a parallel copy can be unneeded, so
/// only those are marked and followed: the walk touches the copies and
/// phis, not every variable (most uses read variables that ordinary
/// instructions define).
///
/// Removed instructions are only unlinked from their block: instruction
/// numbers do not change until
/// [`compact_insts`](super::compact::compact_insts) runs.
pub fn remove_dead_phis_and_copies(func: &mut Function) -> DeadRemoved {
    let nv = func.vars.len();
    let mut in_layout = vec![false; func.blocks.len()];
    for &b in &func.layout {
        in_layout[b.index()] = true;
    }
    // `def[v]`: the number of the phi or parallel-copy entry defining `v`,
    // or `OTHER`. Entry `k`, in block `entry_block[k]`, reads the
    // variables `srcs[srcs_start[k] .. srcs_start[k + 1]]` (its source, or
    // its phi's operands), copied out so that the walk below touches only
    // these dense tables; `roots` are the variables the other instructions
    // and the terminators of the layout read. One walk of the blocks.
    let mut def = vec![OTHER; nv];
    let mut srcs_start: Vec<u32> = vec![0];
    let mut srcs: Vec<Var> = Vec::new();
    let mut entry_block: Vec<Block> = Vec::new();
    let mut roots: Vec<Var> = Vec::new();
    for (b, data) in func.blocks.iter() {
        for &i in &data.phis {
            if let Some(d) = func.insts[i].def() {
                def[d.index()] = srcs_start.len() as u32 - 1;
                func.insts[i].for_each_use(|u| srcs.push(u));
                srcs_start.push(srcs.len() as u32);
                entry_block.push(b);
            }
        }
        let root = in_layout[b.index()];
        for &i in &data.insts {
            match &func.insts[i] {
                InstData::ParCopy { copies } => {
                    for &(d, s) in copies {
                        def[d.index()] = srcs_start.len() as u32 - 1;
                        srcs.extend(s.var());
                        srcs_start.push(srcs.len() as u32);
                        entry_block.push(b);
                    }
                }
                other if root => other.for_each_use(|v| roots.push(v)),
                _ => {}
            }
        }
        if let (true, Some(Operand::Var(v))) = (root, data.term.operand()) {
            roots.push(v);
        }
    }
    // `needed[k]` for entry `k`.
    let entries = srcs_start.len() - 1;
    let mut needed = vec![false; entries];
    let mut work: Vec<u32> = Vec::new();
    let mut count = 0;
    let mut need = |v: Var, needed: &mut Vec<bool>, work: &mut Vec<u32>| {
        let k = def[v.index()];
        if k != OTHER && !needed[k as usize] {
            needed[k as usize] = true;
            count += 1;
            work.push(k);
        }
    };
    for &v in &roots {
        need(v, &mut needed, &mut work);
    }
    drop(roots);
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
    let mut touched = vec![false; func.blocks.len()];
    for k in (0..entries).filter(|&k| !needed[k]) {
        touched[entry_block[k].index()] = true;
    }
    let is_needed = |d: Var| def[d.index()] != OTHER && needed[def[d.index()] as usize];
    let Function { blocks, insts, .. } = func;
    for (data, _) in blocks.values_mut().zip(&touched).filter(|(_, &t)| t) {
        data.phis.retain(|&i| {
            let keep = insts[i].def().is_some_and(is_needed);
            removed.phis += !keep as usize;
            keep
        });
        data.insts.retain(|&i| match &mut insts[i] {
            InstData::ParCopy { copies } => {
                let before = copies.len();
                copies.retain(|c| is_needed(c.0));
                removed.copies += before - copies.len();
                !copies.is_empty()
            }
            _ => true,
        });
    }
    removed
}

/// What [`rename_and_drop`] removed or kept.
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

/// Renames every variable `v` to `rep[v]` and removes the phis
/// (as [`rename_webs`](super::phi_webs::rename_webs) does), deleting in the same pass the
/// copies the renaming turns into nothing: `x = x` (ordinary copies and
/// parallel-copy entries), `x ← undef` entries of parallel copies, and,
/// with `dedupe` (after coalescing), the second of two entries of one
/// parallel copy that write one class. Parallel copies left empty go.
/// Counts the entries copying a variable left in parallel copies numbered
/// from `inserted_from` (those
/// [`insert_phi_copies`](super::to_cssa::insert_phi_copies) made).
pub fn rename_and_drop(
    func: &mut Function,
    rep: &EntityVec<Var, Var>,
    dedupe: bool,
    inserted_from: usize,
) -> (RenameStats, Dropped) {
    let mut d = Dropped::default();
    // `written[r] == k + 1`: class `r` is written by parallel copy `k`.
    let mut written = vec![0u32; func.vars.len()];
    let renamed = rename(func, rep, |i, data| match data {
        InstData::Copy {
            dst,
            src: Operand::Var(s),
        } if dst == s => {
            d.self_copies += 1;
            false
        }
        InstData::ParCopy { copies } => {
            copies.retain(|&(dst, src)| {
                match src {
                    Operand::Var(s) if s == dst => d.self_copies += 1,
                    Operand::Undef => d.undef_copies += 1,
                    _ if dedupe && written[dst.index()] == i.0 + 1 => d.self_copies += 1,
                    _ => {
                        written[dst.index()] = i.0 + 1;
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
    (renamed, d)
}

/// Number of copy instructions in the blocks of the layout.
pub fn count_copies(func: &Function) -> usize {
    func.layout
        .iter()
        .flat_map(|&b| &func.blocks[b].insts)
        .filter(|&&i| matches!(func.insts[i], InstData::Copy { .. }))
        .count()
}
