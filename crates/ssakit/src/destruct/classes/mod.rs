//! Congruence classes kept as dominance forests, and the test of whether
//! two of them interfere, after Boissinot, Darte, Rastello, Dupont de
//! Dinechin and Guillon, "Revisiting Out-of-SSA Translation for
//! Correctness, Code Quality, and Efficiency" (CGO 2009), section IV-B,
//! and Budimlić et al., "Fast Copy Coalescing and Live-Range
//! Identification" (PLDI 2002).
//!
//! # Terms
//!
//! * **Ranks.** Every variable with a reachable definition gets a *rank*:
//!   its place when definition points are sorted by the preorder of their
//!   block in the dominator tree, then by position in the block (see
//!   [`live_check`](crate::analysis::live_check) for positions). A point
//!   `p` dominates the points whose ranks lie in `[rank(p), end(p)]`,
//!   `end(p)` being the last rank of the dominator subtree of `p`'s block:
//!   dominance is one comparison. Variables defined at one point (the
//!   parameters, the phis of a block, the destinations of a parallel copy)
//!   get consecutive ranks, and the first "dominates" the next.
//! * **Intersection** (Budimlić et al.). If `a` dominates `c`, their live
//!   ranges intersect iff `a` is live just after the definition of `c`.
//!   At one point: parameters, or destinations of one parallel copy,
//!   always intersect (both are written there); two phis of one block
//!   intersect iff either is used (it is then live after the phis). The
//!   phis of a block are ranked used ones first.
//! * **Values.** Two variables *interfere* when they intersect and carry
//!   different values (a copy and its source carry one value).
//! * **Lemma** (the one the walks rest on). If `m` dominates `p`
//!   dominates `c` and `m` intersects `c`, then `m` intersects `p`: a path
//!   from `p` to `c` avoids the definition of `m`. (For phis at one point,
//!   this is why the used ones come first.)
//!
//! # The forest of a class
//!
//! A class `C` with no two members interfering is kept as its members'
//! ranks in sorted *runs* (the logarithmic method: merging two classes
//! appends runs and merges runs of similar lengths, so a member is copied
//! `O(log n)` times over all merges) and, per member `c`:
//!
//! * `fpar(c)`: its parent in the dominance forest of `C`, the member of
//!   `C` nearest above it in the dominator tree;
//! * `eq(c)`: a member above `c` with `c`'s value, such that the chain
//!   `eq(c), eq(eq(c)), ...` holds every member of `C` above `c` that
//!   intersects `c` (the *equal ancestor* of Boissinot et al., kept
//!   lazily: the chain may also hold members that do not intersect `c`,
//!   all with `c`'s value). By the lemma, the members above `c` that
//!   intersect `c` all intersect its forest parent, so all share one
//!   value, and a new member below `c` only has to look at `c`'s chain.
//!
//! # Modules
//!
//! * [`build`]: building classes from sets known to be related, one walk
//!   each (or one walk for many disjoint sets);
//! * [`walk`]: testing two classes, the walk over the smaller one, and the
//!   merge the test allows ([`Merge`](walk::Merge));
//! * [`runs`]: the sorted runs holding each class's members;
//! * `check`: the debug check of the forests.

mod build;
mod check;
mod runs;
mod walk;

use crate::analysis::LiveCheck;
use crate::ir::{Block, Point, Var};
use crate::union_find::UnionFind;
use runs::Run;

/// No rank, no slot, no parent.
///
/// Ranks stay plain `u32`s with this marker rather than
/// [`PackedOption`](crate::entity::PackedOption)s: the walks compare them
/// as numbers, `NIL` standing for "after every rank" (the end of a gap in
/// [`Classes::walk_smaller`], the best successor not found yet).
pub(super) const NIL: u32 = u32::MAX;

/// A definition point and what the walks need about the variable defined
/// there, by rank.
#[derive(Clone, Copy, Debug)]
pub(super) struct DefPoint {
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
const HOT: usize = 4;

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
pub(super) struct Classes<'a> {
    pts: &'a [DefPoint],
    /// By variable: its rank, or [`NIL`].
    rank: &'a [u32],
    live: &'a mut LiveCheck,
    sets: UnionFind,
    fpar: Vec<u32>,
    eq: Vec<u32>,
    slot: Vec<u32>,
    /// By slot: its first run in `runs`, and its number of members.
    head: Vec<u32>,
    counts: Vec<u32>,
    /// The runs of all slots, each with the next run of its slot (or
    /// [`NIL`]).
    runs: Vec<(Run, u32)>,
    blockers: Vec<[(u32, u32); 2]>,
    /// By slot: the ranks of the members that made the latest refused
    /// tests, the latest first ([`NIL`]-padded).
    hot: Vec<[u32; HOT]>,
    arena: Vec<u32>,
    /// Ranks in `arena` no run covers any more.
    garbage: usize,
    // Scratch.
    stack: Vec<u32>,
    xstack: Vec<(u32, u32)>,
    xs: Vec<u32>,
    merged: Vec<u32>,
    run_ids: Vec<u32>,
    run_list: Vec<Run>,
    questions: Vec<(u32, u32)>,
    pending: Vec<walk::Update>,
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
        let nr = pts.len();
        Classes {
            pts,
            rank,
            live,
            sets: UnionFind::new(nv),
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
    fn intersect(&mut self, m: u32, c: u32) -> bool {
        self.work += 1;
        let (pm, pc) = (self.pts[m as usize], self.pts[c as usize]);
        if pm.pos == pc.pos {
            return !pc.pos.is_entry() || pm.used || pc.used;
        }
        self.live.is_live_after(pm.var, pc.pos)
    }

    /// The first member of `m`'s chain (`m` included) that intersects `c`,
    /// or [`NIL`].
    fn chain_hit(&mut self, mut m: u32, c: u32) -> u32 {
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
    fn block(&mut self, a: u32, b: u32) {
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
