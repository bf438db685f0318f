//! Phi components: the components of the relation "linked by a phi or by
//! a copy inserted around one", and the classes of their phi webs (steps 1
//! and 2 of [`coalesce`](super::coalesce); Boissinot et al., CGO 2009,
//! section IV-B, the walk over one set in dominance order).

use super::facts::{Candidate, VarInfo};
use crate::destruct::classes::{Classes, NIL};
use crate::entity::{Csr, EntityVec};
use crate::ir::Var;
use crate::union_find::UnionFind;

/// Step 2 for the phi components in `failed` (ranges of `ranks`, sorted):
/// each phi web's ranked members become one class.
pub(super) fn build_webs(
    classes: &mut Classes,
    info: &VarInfo,
    phi_pairs: &[(Var, Var)],
    ranks: &[u32],
    failed: &[(u32, u32)],
) {
    if failed.is_empty() {
        return;
    }
    let nv = info.rank.len();
    let mut webs = UnionFind::new(nv);
    for &(dst, v) in phi_pairs {
        webs.union(dst.index(), v.index());
    }
    // The ranks of the failed components with their web (the web's root
    // variable), in rank order within each component; then the ranks of
    // each web, in that order. A web lies inside one component.
    let of_web: Vec<(Var, u32)> = failed
        .iter()
        .flat_map(|&(lo, hi)| &ranks[lo as usize..hi as usize])
        .map(|&k| {
            let w = webs.find(info.pts[k as usize].var.index());
            (Var::new(w), k)
        })
        .collect();
    let by_web: Csr<Var, u32> = Csr::build(nv, |emit| {
        for &(w, k) in &of_web {
            emit.push(w, k)
        }
    });
    // Each web once, in the order of its first rank.
    let mut built: EntityVec<Var, bool> = EntityVec::filled(nv, false);
    for &(w, _) in &of_web {
        if !std::mem::replace(&mut built[w], true) {
            let bad = classes.build(by_web.of(w), cfg!(debug_assertions));
            debug_assert!(bad.is_none(), "a phi web interferes: {bad:?}");
        }
    }
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
    let by_root: Csr<Var, u32> = Csr::build(nv, |emit| {
        for (k, &r) in root.iter().enumerate() {
            emit.push(r, k as u32)
        }
    });
    // By root: its group once numbered.
    let mut group: EntityVec<Var, Option<u32>> = EntityVec::filled(nv, None);
    let mut start = vec![0u32];
    let mut ranks: Vec<u32> = Vec::new();
    let mut of_rank = vec![NIL; root.len()];
    for (k, &r) in root.iter().enumerate() {
        let members = by_root.of(r);
        if members.len() < 2 {
            continue;
        }
        of_rank[k] = *group[r].get_or_insert_with(|| {
            ranks.extend_from_slice(members);
            start.push(ranks.len() as u32);
            start.len() as u32 - 2
        });
    }
    Groups {
        start,
        ranks,
        of_rank,
    }
}
