//! The dominance forest of congruence classes (Boissinot et al., CGO 2009,
//! section IV-B): the [`Classes`] record with its per-rank tables, the
//! definition points it ranks, and the intersection test of two members.
//! Its runs are kept by [`runs`](super::runs), its walks by
//! [`walk`](super::walk); see [`classes`](super) for the terms.

use crate::analysis::LiveCheck;
use crate::ir::{Block, Point, Var};
use crate::union_find::UnionFind;

/// A run of sorted ranks: `arena[start .. start + len]` (the runs of a
/// class are kept by [`runs`](super::runs)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

/// An update of `fpar` and `eq` that the last successful test computed for
/// the merge: `(rank, fpar, eq)`.
pub(crate) type Update = (u32, u32, u32);

/// No rank, no slot, no parent.
///
/// Ranks stay plain `u32`s with this marker rather than
/// [`PackedOption`](crate::entity::PackedOption)s: the walks compare them
/// as numbers, `NIL` standing for "after every rank" (the end of a gap in
/// [`Classes::walk_smaller`], the best successor not found yet).
pub(crate) const NIL: u32 = u32::MAX;

/// A definition point and what the walks need about the variable defined
/// there, by rank.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DefPoint {
    /// The variable.
    pub(crate) var: Var,
    /// Its block.
    pub(crate) block: Block,
    /// Where it is defined (parameters and phis at the entry of their
    /// block), for its liveness questions.
    pub(crate) pos: Point,
    /// The last rank dominated by this point (the dominator subtree of
    /// `block`).
    pub(crate) end: u32,
    /// Its value label.
    pub(crate) value: u32,
    /// Whether anything reachable reads it, or it is a parameter (decides
    /// intersection between definitions at the entry of one block).
    pub(crate) used: bool,
}

/// Hot members kept per class.
pub(crate) const HOT: usize = 4;

/// Congruence classes over the variables of a function, with the
/// dominance forests of their ranked members.
///
/// Invariants, for every class `C` (keyed by its union-find root `r`):
/// * `slot[r]` is `NIL` when `C` has no ranked member, or is one
///   variable not yet tested ([`Classes::slot_of`] makes its slot);
///   otherwise it is `C`'s slot `s`: the runs linked from `head[s]` in
///   `runs` are sorted and hold the ranks of `C`'s ranked members, each
///   exactly once, `counts[s]` of them;
/// * for every ranked member `c`, `fpar[c]` and `eq[c]` are as in the
///   module doc, relative to `C`;
/// * no two members of `C` interfere;
/// * each entry of `blockers[slot[r]]`, unless `NIL`, is a pair of
///   interfering variables, the first in `C`, the second not.
pub(crate) struct Classes<'a> {
    pub(super) pts: &'a [DefPoint],
    /// By variable: its rank, or [`NIL`].
    pub(super) rank: &'a [u32],
    pub(super) live: &'a mut LiveCheck,
    pub(super) sets: UnionFind,
    pub(super) fpar: Vec<u32>,
    pub(super) eq: Vec<u32>,
    pub(super) slot: Vec<u32>,
    /// By slot: its first run in `runs`, and its number of members.
    pub(super) head: Vec<u32>,
    pub(super) counts: Vec<u32>,
    /// The runs of all slots, each with the next run of its slot (or
    /// [`NIL`]).
    pub(super) runs: Vec<(Run, u32)>,
    pub(super) blockers: Vec<[(u32, u32); 2]>,
    /// By slot: the ranks of the members that made the latest refused
    /// tests, the latest first ([`NIL`]-padded).
    pub(super) hot: Vec<[u32; HOT]>,
    pub(super) arena: Vec<u32>,
    /// Ranks in `arena` no run covers any more.
    pub(super) garbage: usize,
    // Scratch.
    pub(super) stack: Vec<u32>,
    pub(super) xstack: Vec<(u32, u32)>,
    pub(super) xs: Vec<u32>,
    pub(super) merged: Vec<u32>,
    pub(super) run_ids: Vec<u32>,
    pub(super) run_list: Vec<Run>,
    pub(super) questions: Vec<(u32, u32)>,
    pub(super) pending: Vec<Update>,
    /// Intersection tests, chain and forest steps, members of the bigger
    /// class visited: the work of the tests, for the statistics.
    pub(crate) work: usize,
}

impl<'a> Classes<'a> {
    /// Every variable alone in its class (`nv` variables; `pts` by rank,
    /// `rank` by variable).
    pub(crate) fn new(
        nv: usize,
        pts: &'a [DefPoint],
        rank: &'a [u32],
        live: &'a mut LiveCheck,
    ) -> Classes<'a> {
        Classes::with_sets(UnionFind::new(nv), pts, rank, live)
    }

    /// The classes `sets` (over every variable), without their forests:
    /// only variables alone in their set may be tested and merged (the
    /// members of the others are not recorded).
    pub(crate) fn with_sets(
        sets: UnionFind,
        pts: &'a [DefPoint],
        rank: &'a [u32],
        live: &'a mut LiveCheck,
    ) -> Classes<'a> {
        let (nv, nr) = (sets.len(), pts.len());
        Classes {
            pts,
            rank,
            live,
            sets,
            fpar: vec![NIL; nr],
            eq: vec![NIL; nr],
            slot: vec![NIL; nv],
            head: Vec::new(),
            counts: Vec::new(),
            runs: Vec::new(),
            blockers: Vec::new(),
            hot: Vec::new(),
            arena: Vec::new(),
            garbage: 0,
            stack: Vec::new(),
            xstack: Vec::new(),
            xs: Vec::new(),
            merged: Vec::new(),
            run_ids: Vec::new(),
            run_list: Vec::new(),
            questions: Vec::new(),
            pending: Vec::new(),
            work: 0,
        }
    }

    /// The root of `v`'s class.
    pub(crate) fn root(&mut self, v: Var) -> Var {
        Var::new(self.sets.find(v.index()))
    }

    /// The partition into classes.
    pub(crate) fn into_sets(self) -> UnionFind {
        self.sets
    }

    /// Whether `m`, whose definition dominates that of `c` (`m < c` in
    /// rank), intersects `c`.
    pub(super) fn intersect(&mut self, m: u32, c: u32) -> bool {
        self.work += 1;
        let (pm, pc) = (self.pts[m as usize], self.pts[c as usize]);
        if pm.pos == pc.pos {
            return !pc.pos.is_entry() || pm.used || pc.used;
        }
        self.live.is_live_after(pm.var, pc.pos)
    }

    /// The first member of `m`'s chain (`m` included) that intersects `c`,
    /// or [`NIL`].
    pub(super) fn chain_hit(&mut self, mut m: u32, c: u32) -> u32 {
        while m != NIL {
            if self.intersect(m, c) {
                return m;
            }
            m = self.eq[m as usize];
        }
        NIL
    }

    /// Records that `a` and `b` (ranks, in different classes) interfere:
    /// a blocker pair and a hot member for each class.
    pub(super) fn block(&mut self, a: u32, b: u32) {
        for (m, n) in [(a, b), (b, a)] {
            let (vm, vn) = (self.pts[m as usize].var, self.pts[n as usize].var);
            let r = self.sets.find(vm.index());
            let s = self.slot[r] as usize;
            let bl = &mut self.blockers[s];
            *bl = [(vm.as_u32(), vn.as_u32()), bl[0]];
            // Move (or insert) `m` to the front.
            let hot = &mut self.hot[s];
            let k = hot.iter().position(|&h| h == m).unwrap_or(HOT - 1);
            hot.copy_within(0..k, 1);
            hot[0] = m;
        }
    }

    /// The ranked members of the class of root `r`, sorted (allocates: for
    /// checks).
    pub(crate) fn members(&mut self, r: Var) -> Vec<Var> {
        let s = self.slot_of(r);
        if s == NIL {
            return Vec::new();
        }
        let mut out: Vec<u32> = Vec::new();
        for run in self.runs_of(s) {
            out.extend_from_slice(run);
        }
        out.sort_unstable();
        out.iter().map(|&k| self.pts[k as usize].var).collect()
    }
}
