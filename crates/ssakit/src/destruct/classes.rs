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
//! # Building a class: one walk
//!
//! The members sorted by rank, a stack of the members dominating the
//! current one (Boissinot's walk): the top `p` is the current member `c`'s
//! forest parent; if `c` and `p` carry one value, `eq(c) = p`; otherwise
//! every member of `p`'s chain is tested against `c`, and one that
//! intersects interferes. The set is free of interference iff no test
//! fails. `O(members)` tests plus the chains (short in practice). The
//! chains do not depend on the answers, so the liveness questions are
//! gathered first and answered sorted by variable: each variable asked
//! about is explored once, and nothing is kept. `Classes::build_all`
//! walks many disjoint sets at once, in one pass over the ranks in order
//! (each set's stack is the `fpar` chain of its latest member), which
//! reads the definition points in memory order.
//!
//! # Testing two classes
//!
//! Walking both classes costs `O(|X| + |Y|)` per test, quadratic when a
//! big class grows one member at a time (a web across a ladder of loops, a
//! switch with a million cases). Here the walk goes over the smaller class
//! `X` only, and looks into `Y` near `X`'s members:
//!
//! * (A) for each `x` of `X`, its nearest ancestor `ŷ` in `Y` (the run
//!   predecessor of `x`, then up `fpar` while it does not dominate `x`):
//!   by the lemma only `ŷ`'s chain can hold members of `Y` that intersect
//!   `x`, all with `ŷ`'s value, so they are tested only if that value is
//!   not `x`'s;
//! * (B) for each member `c` of `Y` after `x` in rank order (before the
//!   next member of `X`) with an ancestor in `X`, the nearest such `x̂`
//!   (the walk's stack): only `x̂`'s chain can hold members of `X` that
//!   intersect `c`. If none does, neither does any member of `Y` below `c`
//!   whose nearest ancestor in `X` is `x̂` (lemma), and the walk jumps over
//!   `c`'s subtree (remembering, with `x̂` on the stack, how far: a member
//!   of `X` inside that subtree interrupts the jump, and when the walk
//!   comes back to `x̂` the rest of the subtree is still clear); if one
//!   does, it interferes unless `c` has `x̂`'s value.
//!
//! The test also computes what the merge changes: `fpar` and `eq` of the
//! members of `X`, and of the members of `Y` whose nearest ancestor in
//! the union is now in `X` (the first members of `Y` met below each `x`,
//! which (B) visits anyway). A test costs the size of `X` and the members
//! of `Y` met next to it (times a logarithm), not the size of `Y`.
//!
//! Worked example, the lost copy after splitting the back edge (see
//! [`coalesce`](mod@super::coalesce)): ranks in dominance order `x1`,
//! `u1` (end of `entry`), `x2` (the loop's phi), `x3`, `u2` (the split
//! block); the web `Y = {u1, x2, u2}`. Testing `X = {x3}` for `u2 ← x3`:
//! (A) the run predecessor of `x3` in `Y` is `x2`, which dominates it;
//! its value is not `x3`'s, and it is live after `x3 = x2 + 1` (the exit
//! reads it): refused. Testing `X = {x1}` for `u1 ← x1`: (A) nothing of
//! `Y` lies above `x1`; (B) the first member of `Y` after it is `u1`, below
//! `x1`; `x1` is dead after the parallel copy that reads it, so the walk
//! jumps over `u1`'s subtree, which is all of `Y`: merged, with
//! `fpar(u1) = eq(u1) = x1`.
//!
//! A refused test leaves the interfering pair with both classes (the two
//! latest *blockers* of each): classes only grow, so the pair still
//! blocks any later test between their successors, in `O(1)`. Each class
//! also keeps its few latest *hot* members, those found interfering, most
//! recent first; a test between two big classes first tries each hot
//! member alone against the other class, with a small budget of work. A
//! class refused in turn against many others usually meets each on the
//! same few members (the phis of a join every class has one in, say),
//! which the walk in rank order may only reach at its end.

use crate::analysis::LiveCheck;
use crate::ir::{Block, Point, Var};
use crate::union_find::UnionFind;

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
    pub var: Var,
    /// Its block.
    pub block: Block,
    /// Where it is defined (parameters and phis at the entry of their
    /// block), for its liveness questions.
    pub pos: Point,
    /// The last rank dominated by this point (the dominator subtree of
    /// `block`).
    pub end: u32,
    /// Its value label.
    pub value: u32,
    /// Whether anything reachable reads it, or it is a parameter (decides
    /// intersection between definitions at the entry of one block).
    pub used: bool,
}

/// A run of sorted ranks: `arena[start .. start + len]`.
#[derive(Clone, Copy, Debug)]
struct Run {
    start: u32,
    len: u32,
}

/// Work allowed to a probe, and the smaller class size from which tests
/// start with probes (see [`Classes::interferes`]).
const PROBE_BUDGET: usize = 64;

/// Hot members kept per class.
const HOT: usize = 4;

/// How a walk of [`Classes::walk_smaller`] ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Walk {
    Interferes,
    Free,
    GaveUp,
}

/// An update of `fpar` and `eq` that the last successful test computed for
/// the merge: `(rank, fpar, eq)`.
type Update = (u32, u32, u32);

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
    pending: Vec<Update>,
    /// Intersection tests, chain and forest steps, members of the bigger
    /// class visited: the work of the tests, for the statistics.
    pub work: usize,
}

impl<'a> Classes<'a> {
    /// Every variable alone in its class (`nv` variables; `pts` by rank,
    /// `rank` by variable).
    pub fn new(
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
    pub fn root(&mut self, v: Var) -> Var {
        Var::new(self.sets.find(v.index()))
    }

    /// The partition into classes.
    pub fn into_sets(self) -> UnionFind {
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

    /// Boissinot's walk over `members` (ranks, sorted), setting `fpar` and
    /// `eq` as if they were one class. With `check`, returns an interfering
    /// pair if there is one (then `fpar` and `eq` of `members` are reset
    /// and nothing else changes); without, the set must be free of
    /// interference. On success the variables become one class.
    pub fn build(&mut self, members: &[u32], check: bool) -> Option<(Var, Var)> {
        debug_assert!(members.windows(2).all(|w| w[0] < w[1]));
        self.stack.clear();
        // The liveness questions, `(m, c)`: is `m` live after `c`? Chains
        // follow `fpar` where values agree, so they do not depend on the
        // answers: asked together, one variable at a time, each is
        // explored once.
        let mut questions = std::mem::take(&mut self.questions);
        questions.clear();
        for &c in members {
            while let Some(&t) = self.stack.last() {
                if c <= self.pts[t as usize].end {
                    break;
                }
                self.stack.pop();
            }
            let (mut fpar, mut eq) = (NIL, NIL);
            if let Some(&p) = self.stack.last() {
                fpar = p;
                if self.pts[c as usize].value == self.pts[p as usize].value {
                    eq = p;
                } else if check {
                    let mut m = p;
                    while m != NIL {
                        questions.push((m, c));
                        m = self.eq[m as usize];
                    }
                }
            }
            self.fpar[c as usize] = fpar;
            self.eq[c as usize] = eq;
            self.stack.push(c);
        }
        questions.sort_unstable();
        let mut found = None;
        for &(m, c) in &questions {
            let (pm, pc) = (self.pts[m as usize], self.pts[c as usize]);
            if pm.pos != pc.pos {
                self.live.explore(pm.var);
            }
            if self.intersect(m, c) {
                found = Some((pm.var, pc.var));
                break;
            }
        }
        self.questions = questions;
        if found.is_some() {
            for &r in members {
                self.fpar[r as usize] = NIL;
                self.eq[r as usize] = NIL;
            }
            return found;
        }
        let &first = members.first()?;
        let v0 = self.pts[first as usize].var.index();
        for &r in &members[1..] {
            self.sets.union(v0, self.pts[r as usize].var.index());
        }
        let root = self.sets.find(v0);
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(members);
        let s = self.new_slot(Run {
            start,
            len: members.len() as u32,
        });
        self.slot[root] = s;
        None
    }

    /// [`Classes::build`] with `check` for many sets at once, all
    /// variables still alone in their classes: set `g` is `ranks[start[g]
    /// .. start[g + 1]]` (sorted), and `of_rank[k]` the set of rank `k`
    /// (or [`NIL`]). One walk over the ranks in order (each set's stack is
    /// the `fpar` chain of its latest member), then the liveness questions
    /// of all sets sorted by variable. Returns, per set, an interfering
    /// pair if there is one; the other sets become classes.
    pub fn build_all(
        &mut self,
        start: &[u32],
        ranks: &[u32],
        of_rank: &[u32],
    ) -> Vec<Option<(Var, Var)>> {
        let ng = start.len() - 1;
        let mut top = vec![NIL; ng];
        let mut questions = std::mem::take(&mut self.questions);
        questions.clear();
        for (k, &g) in of_rank.iter().enumerate() {
            if g == NIL {
                continue;
            }
            let c = k as u32;
            let pc = self.pts[k];
            let mut p = top[g as usize];
            while p != NIL && c > self.pts[p as usize].end {
                p = self.fpar[p as usize];
            }
            let mut eq = NIL;
            if p != NIL {
                if pc.value == self.pts[p as usize].value {
                    eq = p;
                } else {
                    let mut m = p;
                    while m != NIL {
                        questions.push((m, c));
                        m = self.eq[m as usize];
                    }
                }
            }
            self.fpar[k] = p;
            self.eq[k] = eq;
            top[g as usize] = c;
        }
        drop(top);
        questions.sort_unstable();
        let mut failed: Vec<Option<(Var, Var)>> = vec![None; ng];
        for &(m, c) in &questions {
            let g = of_rank[c as usize] as usize;
            if failed[g].is_some() {
                continue;
            }
            let (pm, pc) = (self.pts[m as usize], self.pts[c as usize]);
            if pm.pos != pc.pos {
                self.live.explore(pm.var);
            }
            if self.intersect(m, c) {
                failed[g] = Some((pm.var, pc.var));
            }
        }
        self.questions = questions;
        for (g, f) in failed.iter().enumerate() {
            let members = &ranks[start[g] as usize..start[g + 1] as usize];
            if f.is_some() {
                for &r in members {
                    self.fpar[r as usize] = NIL;
                    self.eq[r as usize] = NIL;
                }
                continue;
            }
            let root = self.pts[members[0] as usize].var.index();
            let others = members[1..]
                .iter()
                .map(|&r| self.pts[r as usize].var.index());
            self.sets.join_singletons(root, others);
            let run_start = self.arena.len() as u32;
            self.arena.extend_from_slice(members);
            let s = self.new_slot(Run {
                start: run_start,
                len: members.len() as u32,
            });
            self.slot[root] = s;
        }
        failed
    }

    /// A fresh slot holding one run, without blockers.
    fn new_slot(&mut self, run: Run) -> u32 {
        self.head.push(self.runs.len() as u32);
        self.counts.push(run.len);
        self.runs.push((run, NIL));
        self.blockers.push([(NIL, NIL); 2]);
        self.hot.push([NIL; HOT]);
        self.head.len() as u32 - 1
    }

    /// The runs of slot `s`.
    fn runs_of(&self, s: u32) -> impl Iterator<Item = &[u32]> + '_ {
        let mut r = self.head[s as usize];
        std::iter::from_fn(move || {
            if r == NIL {
                return None;
            }
            let (run, next) = self.runs[r as usize];
            r = next;
            Some(&self.arena[run.start as usize..(run.start + run.len) as usize])
        })
    }

    /// The slot of root `r`'s class, created for a ranked variable alone in
    /// its class; [`NIL`] if the class has no ranked member.
    fn slot_of(&mut self, r: Var) -> u32 {
        let s = self.slot[r.index()];
        if s != NIL {
            return s;
        }
        let k = self.rank[r.index()];
        if k == NIL {
            return NIL;
        }
        let start = self.arena.len() as u32;
        self.arena.push(k);
        let s = self.new_slot(Run { start, len: 1 });
        self.slot[r.index()] = s;
        s
    }

    /// Number of ranked members of the class in slot `s`.
    fn count(&self, s: u32) -> usize {
        self.counts[s as usize] as usize
    }

    /// The largest member of the class in slot `s` ranked below `k`, or
    /// [`NIL`].
    fn pred(&self, s: u32, k: u32) -> u32 {
        let mut best = NIL;
        for run in self.runs_of(s) {
            let i = run.partition_point(|&e| e < k);
            if i > 0 && (best == NIL || run[i - 1] > best) {
                best = run[i - 1];
            }
        }
        best
    }

    /// The smallest member of the class in slot `s` ranked above `k`, or
    /// [`NIL`].
    fn succ(&self, s: u32, k: u32) -> u32 {
        let mut best = NIL;
        for run in self.runs_of(s) {
            let i = run.partition_point(|&e| e <= k);
            if i < run.len() && run[i] < best {
                best = run[i];
            }
        }
        best
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

    /// Whether the classes of roots `rx` and `ry` (distinct) interfere. If
    /// not, [`Classes::merge`] of the same pair must follow before any other
    /// test.
    pub fn interferes(&mut self, rx: Var, ry: Var) -> bool {
        self.pending.clear();
        let (sx, sy) = (self.slot_of(rx), self.slot_of(ry));
        if sx == NIL || sy == NIL {
            return false;
        }
        for (s, other) in [(sx, ry), (sy, rx)] {
            for (_, n) in self.blockers[s as usize] {
                if n != NIL && self.sets.find(n as usize) == other.index() {
                    return true;
                }
            }
        }
        let (nx, ny) = (self.count(sx), self.count(sy));
        // Probes, when the walk may be long: the hot members of either
        // class, alone against the other class, with a small budget.
        if nx.min(ny) > PROBE_BUDGET {
            for (s, other) in [(sx, sy), (sy, sx)] {
                for h in 0..HOT {
                    let k = self.hot[s as usize][h];
                    if k == NIL {
                        break;
                    }
                    let found = self.walk_smaller(&[k], other, PROBE_BUDGET);
                    self.pending.clear();
                    if found == Walk::Interferes {
                        return true;
                    }
                }
            }
        }
        let (sx, sy) = if nx <= ny { (sx, sy) } else { (sy, sx) };
        let mut xs = std::mem::take(&mut self.xs);
        xs.clear();
        let mut runs = 0;
        for run in self.runs_of(sx) {
            xs.extend_from_slice(run);
            runs += 1;
        }
        if runs > 1 {
            xs.sort_unstable();
        }
        let found = self.walk_smaller(&xs, sy, usize::MAX);
        self.xs = xs;
        found == Walk::Interferes
    }

    /// The test of [`Classes::interferes`]: `xs`, the smaller class
    /// sorted (or some of its members), against the class in slot `sy`;
    /// fills `pending`. Gives up after `budget` units of work.
    fn walk_smaller(&mut self, xs: &[u32], sy: u32, budget: usize) -> Walk {
        let give_up = self.work.saturating_add(budget);
        // The members of X above the current point, each with the end of
        // the subtrees of Y already found clear of it (see below).
        let mut stack = std::mem::take(&mut self.xstack);
        stack.clear();
        let found = 'walk: {
            for (i, &x) in xs.iter().enumerate() {
                if self.work > give_up {
                    break 'walk Walk::GaveUp;
                }
                let px = self.pts[x as usize];
                while stack
                    .last()
                    .is_some_and(|&(t, _)| x > self.pts[t as usize].end)
                {
                    stack.pop();
                }
                // (A): the nearest ancestor of `x` in Y, and its chain.
                let mut y = self.pred(sy, x);
                while y != NIL && x > self.pts[y as usize].end {
                    self.work += 1;
                    y = self.fpar[y as usize];
                }
                let (mut fpar, mut eq) = (self.fpar[x as usize], self.eq[x as usize]);
                if y != NIL {
                    if fpar == NIL || y > fpar {
                        fpar = y;
                    }
                    if self.pts[y as usize].value == px.value {
                        if eq == NIL || y > eq {
                            eq = y;
                        }
                    } else {
                        let m = self.chain_hit(y, x);
                        if m != NIL {
                            self.block(x, m);
                            break 'walk Walk::Interferes;
                        }
                    }
                }
                self.pending.push((x, fpar, eq));
                stack.push((x, x));
                // (B): the members of Y up to the next member of X.
                let limit = xs.get(i + 1).copied().unwrap_or(NIL);
                let mut cur = self.succ(sy, x);
                while cur < limit {
                    if self.work > give_up {
                        break 'walk Walk::GaveUp;
                    }
                    let c = cur;
                    let pc = self.pts[c as usize];
                    while stack
                        .last()
                        .is_some_and(|&(t, _)| c > self.pts[t as usize].end)
                    {
                        stack.pop();
                    }
                    // No member of X above `c`, nor above the rest of the gap.
                    let Some(&mut (xh, ref mut clear)) = stack.last_mut() else {
                        break;
                    };
                    // Inside a subtree of Y found clear of `xh` before a
                    // member of X below `xh` interrupted it: still clear.
                    if c <= *clear {
                        cur = self.succ(sy, *clear);
                        continue;
                    }
                    let (f, e) = (self.fpar[c as usize], self.eq[c as usize]);
                    let frontier = f == NIL || f < xh;
                    let fpar = if frontier { xh } else { f };
                    let same = pc.value == self.pts[xh as usize].value;
                    self.work += 1;
                    let hit = self.chain_hit(xh, c);
                    if hit != NIL {
                        if !same {
                            self.block(c, hit);
                            break 'walk Walk::Interferes;
                        }
                        let eq = if e == NIL || xh > e { xh } else { e };
                        self.pending.push((c, fpar, eq));
                        cur = self.succ(sy, c);
                    } else {
                        if frontier {
                            // `eq` follows `fpar` where the values agree.
                            self.pending.push((c, fpar, if same { xh } else { e }));
                        }
                        let stack_top = stack.last_mut().expect("xh is on the stack");
                        stack_top.1 = stack_top.1.max(pc.end);
                        cur = self.succ(sy, pc.end);
                    }
                }
            }
            Walk::Free
        };
        self.xstack = stack;
        found
    }

    /// Merges the classes of roots `rx` and `ry`, just found not to
    /// interfere by [`Classes::interferes`].
    pub fn merge(&mut self, rx: Var, ry: Var) {
        for &(k, f, e) in &self.pending {
            self.fpar[k as usize] = f;
            self.eq[k as usize] = e;
        }
        self.pending.clear();
        let (sx, sy) = (self.slot[rx.index()], self.slot[ry.index()]);
        let r = self.sets.union(rx.index(), ry.index());
        self.slot[rx.index()] = NIL;
        self.slot[ry.index()] = NIL;
        self.slot[r] = match (sx, sy) {
            (NIL, s) | (s, NIL) => s,
            _ => {
                self.merge_slots(sx, sy);
                sx
            }
        };
    }

    /// Moves the runs and blockers of slot `from` into slot `to`, then
    /// merges runs until each is at least twice as long as the next.
    fn merge_slots(&mut self, to: u32, from: u32) {
        let (t, f) = (to as usize, from as usize);
        // The runs of both slots (their nodes are reused for the result).
        let (mut ids, mut list) = (
            std::mem::take(&mut self.run_ids),
            std::mem::take(&mut self.run_list),
        );
        ids.clear();
        list.clear();
        for mut r in [self.head[t], self.head[f]] {
            while r != NIL {
                ids.push(r);
                list.push(self.runs[r as usize].0);
                r = self.runs[r as usize].1;
            }
        }
        loop {
            list.sort_unstable_by_key(|r| std::cmp::Reverse(r.len));
            let Some(i) = (0..list.len().saturating_sub(1))
                .rev()
                .find(|&i| list[i].len < 2 * list[i + 1].len)
            else {
                break;
            };
            let (a, b) = (list[i], list[i + 1]);
            let mut merged = std::mem::take(&mut self.merged);
            merged.clear();
            {
                let (x, y) = (
                    &self.arena[a.start as usize..(a.start + a.len) as usize],
                    &self.arena[b.start as usize..(b.start + b.len) as usize],
                );
                let (mut p, mut q) = (0, 0);
                while p < x.len() && q < y.len() {
                    if x[p] < y[q] {
                        merged.push(x[p]);
                        p += 1;
                    } else {
                        merged.push(y[q]);
                        q += 1;
                    }
                }
                merged.extend_from_slice(&x[p..]);
                merged.extend_from_slice(&y[q..]);
            }
            let start = self.arena.len() as u32;
            self.arena.extend_from_slice(&merged);
            self.merged = merged;
            self.garbage += (a.len + b.len) as usize;
            list[i] = Run {
                start,
                len: a.len + b.len,
            };
            list.remove(i + 1);
        }
        // Relink the first nodes to hold the runs, longest first.
        for (k, (&id, &run)) in ids.iter().zip(&list).enumerate() {
            let next = ids.get(k + 1).copied().filter(|_| k + 1 < list.len());
            self.runs[id as usize] = (run, next.unwrap_or(NIL));
        }
        self.head[t] = ids[0];
        self.head[f] = NIL;
        self.counts[t] += self.counts[f];
        self.counts[f] = 0;
        self.run_ids = ids;
        self.run_list = list;
        // Hot members: alternately from each side.
        let (ht, hf) = (self.hot[t], self.hot[f]);
        let mut hot = [NIL; HOT];
        let both = (0..HOT).flat_map(|k| [ht[k], hf[k]]).filter(|&h| h != NIL);
        for (slot, h) in hot.iter_mut().zip(both) {
            *slot = h;
        }
        self.hot[t] = hot;
        let (bt, bf) = (self.blockers[t], self.blockers[f]);
        self.blockers[t] = match (bt[0].0 != NIL, bf[0].0 != NIL) {
            (true, true) => [bt[0], bf[0]],
            (true, false) => bt,
            (false, _) => bf,
        };
        if self.garbage > 1 << 16 && self.garbage > self.arena.len() / 2 {
            self.compact();
        }
    }

    /// Copies the live runs to a fresh arena.
    fn compact(&mut self) {
        let mut arena = Vec::with_capacity(self.arena.len() - self.garbage);
        for &h in &self.head {
            let mut r = h;
            while r != NIL {
                let (run, next) = &mut self.runs[r as usize];
                let start = arena.len() as u32;
                arena.extend_from_slice(
                    &self.arena[run.start as usize..(run.start + run.len) as usize],
                );
                run.start = start;
                r = *next;
            }
        }
        self.arena = arena;
        self.garbage = 0;
    }

    /// The ranked members of the class of root `r`, sorted (allocates: for
    /// checks).
    #[cfg(debug_assertions)]
    pub fn members(&mut self, r: Var) -> Vec<Var> {
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

    /// Debug builds: the forest of every class with a slot is right
    /// (`fpar` is the nearest member above, `eq` is above with the same
    /// value), for classes of up to `limit` members.
    #[cfg(debug_assertions)]
    pub fn check_forests(&mut self, limit: usize) {
        for s in 0..self.head.len() as u32 {
            let mut ms: Vec<u32> = Vec::new();
            for run in self.runs_of(s) {
                ms.extend_from_slice(run);
            }
            if ms.len() > limit {
                continue;
            }
            ms.sort_unstable();
            for (k, &c) in ms.iter().enumerate() {
                let above = ms[..k]
                    .iter()
                    .rev()
                    .find(|&&m| c <= self.pts[m as usize].end)
                    .copied()
                    .unwrap_or(NIL);
                assert_eq!(self.fpar[c as usize], above, "fpar of rank {c}");
                let e = self.eq[c as usize];
                if e != NIL {
                    assert!(e < c && c <= self.pts[e as usize].end);
                    assert_eq!(self.pts[e as usize].value, self.pts[c as usize].value);
                    assert!(ms.binary_search(&e).is_ok());
                }
            }
        }
    }
}
