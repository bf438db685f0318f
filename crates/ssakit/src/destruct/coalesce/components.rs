//! Phi components: the components of the relation "linked by a phi or by
//! a copy inserted around one", and the classes of their phi webs (steps 1
//! and 2 of [`coalesce`](super::coalesce); Boissinot et al., CGO 2009,
//! section IV-B, the walk over one set in dominance order).

use super::facts::{Candidate, VarInfo};
use crate::destruct::classes::{Classes, NIL};
use crate::entity::EntityVec;
use crate::ir::Var;
use crate::union_find::UnionFind;

/// Step 2 for the phi components in `failed` (ranges of `ranks`, sorted;
/// their ranked members marked in `in_failed`): each phi web's ranked
/// members become one class.
pub(super) fn build_webs(
    classes: &mut Classes,
    info: &VarInfo,
    phi_pairs: &[(Var, Var)],
    ranks: &[u32],
    failed: &[(u32, u32)],
    in_failed: &[bool],
) {
    if failed.is_empty() {
        return;
    }
    let nv = info.rank.len();
    let mut webs = UnionFind::new(nv);
    // Only the webs inside `failed` are wanted. A pair lies in one phi
    // component; if it has a ranked side, that side is marked exactly when
    // the component failed (a failed component's ranked members are all in
    // its group). Pairs of two unranked variables, rare (unreachable
    // phis), are all kept: they may link two marked members.
    let unranked = |v: Var| info.rank[v] == NIL;
    let wanted = |&&(dst, v): &&(Var, Var)| {
        in_failed[dst.index()] || in_failed[v.index()] || (unranked(dst) && unranked(v))
    };
    for &(dst, v) in phi_pairs.iter().filter(wanted) {
        webs.union(dst.index(), v.index());
    }
    // The ranks of the failed components with their web, numbered in the
    // order of the web's first rank (by root variable: one more than its
    // number, 0 before), in rank order within each component; then the
    // ranks of each web, in that order. A web lies inside one component.
    let mut number: EntityVec<Var, u32> = EntityVec::filled(nv, 0);
    let mut size: Vec<u32> = Vec::new();
    let of_web: Vec<(u32, u32)> = failed
        .iter()
        .flat_map(|&(lo, hi)| &ranks[lo as usize..hi as usize])
        .map(|&k| {
            let w = Var::new(webs.find(info.pts[k as usize].var.index()));
            if number[w] == 0 {
                size.push(0);
                number[w] = size.len() as u32;
            }
            size[number[w] as usize - 1] += 1;
            (number[w] - 1, k)
        })
        .collect();
    let mut start = Vec::with_capacity(size.len() + 1);
    start.push(0u32);
    for &n in &size {
        start.push(start[start.len() - 1] + n);
    }
    let mut fill = start.clone();
    let mut by_web = vec![0u32; of_web.len()];
    for &(w, k) in &of_web {
        by_web[fill[w as usize] as usize] = k;
        fill[w as usize] += 1;
    }
    // Each web once, in the order of its first rank. Debug builds check
    // that the web is free; that check is the oracle's work, not the
    // algorithm's: `work` (the statistics' intersection tests) counts
    // the same in every build.
    let work = classes.work;
    classes.reserve_slots(size.len(), by_web.len());
    for w in start.windows(2) {
        let bad = classes.build(
            &by_web[w[0] as usize..w[1] as usize],
            cfg!(debug_assertions),
        );
        debug_assert!(bad.is_none(), "a phi web interferes: {bad:?}");
    }
    classes.work = work;
}

/// The ranked members of each phi component with two or more of them, in
/// CSR form, each sorted by rank, in the order of their first rank (the
/// form [`Classes::build_all`] takes).
pub(super) struct Groups {
    pub(super) start: Vec<u32>,
    pub(super) ranks: Vec<u32>,
    /// By rank: its group, or [`NIL`].
    pub(super) of_rank: Vec<u32>,
}

/// In `phi_components`' count of a root's members: the root's group is
/// numbered (in the low bits).
const NUMBERED: u32 = 1 << 31;

/// The phi components (phi operands and phi-related copies link
/// variables), as [`Groups`].
pub(super) fn phi_components(
    nv: usize,
    info: &VarInfo,
    phi_pairs: &[(Var, Var)],
    candidates: &[Candidate],
) -> Groups {
    let mut sets = UnionFind::new(nv);
    for &(dst, v) in phi_pairs {
        sets.union(dst.index(), v.index());
    }
    for c in candidates.iter().take_while(|c| c.phi_related) {
        sets.union(c.dst.index(), c.src.index());
    }
    // The root of each rank's component (one `find` each), the ranked
    // members per root, then groups of two or more, in rank order.
    let root: Vec<Var> = info
        .pts
        .iter()
        .map(|p| Var::new(sets.find(p.var.index())))
        .collect();
    drop(sets);
    // By root: how many ranked members it has, then, once its group is
    // numbered (at its first rank), `NUMBERED | group`. Tables by rank
    // only, but this one: no per-variable list is built.
    let mut count: EntityVec<Var, u32> = EntityVec::filled(nv, 0);
    for &r in &root {
        count[r] += 1;
    }
    // A group has two ranks or more.
    let mut start = Vec::with_capacity(root.len() / 2 + 1);
    start.push(0u32);
    let mut of_rank = vec![NIL; root.len()];
    for (k, &r) in root.iter().enumerate() {
        let c = count[r];
        if c & NUMBERED != 0 {
            of_rank[k] = c & !NUMBERED;
        } else if c >= 2 {
            let g = start.len() as u32 - 1;
            start.push(start[g as usize] + c);
            count[r] = NUMBERED | g;
            of_rank[k] = g;
        }
    }
    // Each group's ranks, in rank order.
    let mut fill: Vec<u32> = start[..start.len() - 1].to_vec();
    let mut ranks = vec![0u32; *start.last().expect("one start at least") as usize];
    for (k, &g) in of_rank.iter().enumerate() {
        if g != NIL {
            ranks[fill[g as usize] as usize] = k as u32;
            fill[g as usize] += 1;
        }
    }
    Groups {
        start,
        ranks,
        of_rank,
    }
}

/// By group of `groups`: whether it is a phi component an earlier run
/// found free (its members lie below `failed_before.len()` and are not
/// marked there), which [`Classes::build_all`] need not test again (see
/// [`Retry`](super::Retry) for why the verdict holds). Empty when
/// `failed_before` is (no earlier run).
pub(super) fn known_free(groups: &Groups, info: &VarInfo, failed_before: &[bool]) -> Vec<bool> {
    if failed_before.is_empty() {
        return Vec::new();
    }
    groups
        .start
        .windows(2)
        .map(|w| {
            // Components are closed: the first member speaks for all.
            let v = info.pts[groups.ranks[w[0] as usize] as usize].var.index();
            failed_before.get(v) == Some(&false)
        })
        .collect()
}
