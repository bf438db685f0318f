//! Coalescing the copies of out-of-SSA translation (chapter section 13.6,
//! "coalescing agresivo"), after Boissinot, Darte, Rastello, Dupont de
//! Dinechin and Guillon, "Revisiting Out-of-SSA Translation for
//! Correctness, Code Quality, and Efficiency" (CGO 2009), sections III-A
//! and IV-B, and Budimlić et al., "Fast Copy Coalescing and Live-Range
//! Identification" (PLDI 2002).
//!
//! # Terms
//!
//! After [`insert_phi_copies`](super::to_cssa::insert_phi_copies) every phi
//! web is free of interference, and the program is full of copies. A
//! *congruence class* is a set of variables that will share one name; the
//! classes start as the phi webs (which must share a name) and single
//! variables. *Coalescing* a copy `b ← a` merges the classes of `a` and
//! `b`, after which the copy reads and writes one name and is deleted.
//! That is only correct when no two variables of the merged class
//! *interfere*.
//!
//! * **Definition points, dominance order.** In SSA with the dominance
//!   property each variable has one definition point: a parameter at the
//!   entry (position 0), a phi at the start of its block (position 1),
//!   instruction `k` of its block (position `k + 2`; all destinations of a
//!   parallel copy share it). Points are ordered by the preorder of their
//!   block in the dominator tree, then by position: a *pre-DFS order* `≺`
//!   of the dominance tree of points, in which a point comes after every
//!   point dominating it. `VarInfo::rank` numbers the variables in that
//!   order.
//! * **Intersection.** Two live ranges intersect only if the definition of
//!   one, say `b`, dominates that of the other, `a`, and then exactly when
//!   `b` is live just after `a`'s definition (Budimlić et al.): `b` is
//!   live-out of `a`'s block, or is read later in that block. Uses as phi
//!   operands count at the end of the predecessor, as in [`Liveness`]. Two
//!   destinations of one parallel copy (or two parameters) always intersect
//!   here, even if one is dead: both are written there, so they cannot
//!   share a name unless they carry the same value (the pipeline deletes
//!   parallel-copy entries whose destination is never read beforehand). Two
//!   phis of one block intersect when either is live after the phis: a phi
//!   writes nothing itself, the copies on its incoming edges do, and those
//!   meet in the parallel copies of the predecessors, where the previous
//!   rule applies.
//! * **Values.** In SSA a variable has one value, that of its definition;
//!   a copy `b ← a` gives `b` the value of `a`. `V(b) = V(a)` for copies
//!   (ordinary or inside a parallel copy), the same label for every copy
//!   of one constant, `V(b) = b` otherwise, computed in one walk of the
//!   dominator tree. Two variables *interfere* when their live ranges
//!   intersect **and** `V(a) ≠ V(b)`: a copy's source and destination hold
//!   the same value wherever both are live, so one name can serve both.
//!   This is what lets the lost-copy and swap programs keep only the
//!   copies they need, whatever copy propagation did before.
//!
//! # The interference test between two classes (Boissinot et al., § IV-B)
//!
//! Each class keeps its members sorted by `≺`. To test two classes, walk
//! both lists in merged order with a stack simulating a depth-first walk of
//! their *dominance forest* (the parent of a variable is the nearest
//! earlier variable whose definition dominates it): before visiting `a`,
//! pop what does not dominate it; the top is then `a`'s parent `b`. In a
//! set without intersections, if `a` intersects any earlier variable it
//! intersects its parent (an earlier `c` live at `a`'s definition is live
//! at `b`'s, which lies between), so one test per variable suffices.
//!
//! With values, members of one class may intersect (same value), so the
//! parent is not enough. Each variable remembers its *equal intersecting
//! ancestor*: the nearest dominating variable with the same value whose
//! live range intersects its own, in its own class (`anc_in`) and in the
//! class being tested against (`anc_out`, computed during the walk). Every
//! earlier variable that can intersect `a` lies on the chain `b, anc(b),
//! anc(anc(b)), ...`, and only variables of the other class need testing,
//! so `interference(a, b)` follows that chain in the other class. Merging
//! two classes merges the sorted lists and sets `anc_in(a)` to the nearer
//! of `anc_in(a)` and `anc_out(a)`.
//!
//! Worked example, the lost copy after splitting the back edge: the phi
//! web is `{x2, u1, u2}`, with `u1 ← x1` at the end of `entry` and
//! `u2 ← x3` in the new block; in dominance order `x1 ≺ u1 ≺ x2 ≺ x3 ≺
//! u2`. Trying `u2 ← x3` (inner loop first): `x3`'s parent is `x2`, of the
//! other class and with another value, and `x2` is live after
//! `x3 = x2 + 1` (the exit reads it): interference, the copy stays. Trying
//! `u1 ← x1`: `x1` has no parent; `u1`'s parent `x1` has its value; `x1` is
//! dead after the copy, so the later members meet no intersection: one
//! class, and `x1 = 1` now writes the web's variable.
//!
//! # Cost
//!
//! Two refinements keep the whole pass near linear where the paper's
//! per-merge cost `O(|X| + |Y|)` would make a class grown one variable at
//! a time quadratic:
//!
//! * **Optimistic components.** The phi webs and copies link variables
//!   into components (the *affinity* graph). Each component is first
//!   tested as a single set, in one walk of its sorted list; if nothing in
//!   it interferes, it becomes one class at once, exactly what merging copy
//!   by copy would give. Only components with an interference are then
//!   coalesced copy by copy.
//! * **Windows.** A test walks the smaller list whole, and of the bigger
//!   one only the members ranked from the smaller's first member until the
//!   smaller list is done and off the stack; the bigger list's earlier
//!   members are needed only as ancestors, found by scanning backwards on
//!   demand. The smaller list is merged into the bigger in place, moving
//!   only the part ranked after its first member. When classes grow in
//!   program order (the usual case), both cost `O(smaller list)`.
//!
//! An intersection query is `O(log)` (binary searches in liveness sets and
//! use lists). No hashing, no recursion.

//! # Order
//!
//! Copies are tried phi-related first (so conventional SSA coalesces back
//! to its phi webs and keeps no copy from phis), then by decreasing loop
//! depth of the block holding them (copies in inner loops run most often),
//! then in program order.

use super::phi_webs::Webs;
use crate::analysis::{loop_depth, DomTree, Liveness};
use crate::entity::EntityVec;
use crate::ir::{Block, Cfg, Function, InstData, Operand, Var};
use crate::timing::PassTimes;
use crate::union_find::UnionFind;

/// Rank of a variable with no reachable definition: it never runs, so it
/// interferes with nothing and takes no part in interference tests.
const NO_RANK: u32 = u32::MAX;

/// Position of the phis of a block (parameters are at 0, instruction `k`
/// at `k + 2`).
const PHI_POS: u32 = 1;

/// What [`coalesce`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CoalesceStats {
    /// Variable-to-variable copies considered.
    pub candidates: usize,
    /// Copies whose two sides ended in one class (they become `x = x`).
    pub coalesced: usize,
    /// Copies whose two classes interfered when the copy was tried.
    pub refused: usize,
    /// Live-range intersection queries made.
    pub intersection_tests: usize,
}

/// Groups the variables of `func` into congruence classes: every phi web,
/// then, copy by copy, the classes of a copy's two sides when they do not
/// interfere (copies inserted around phis first, then by decreasing loop
/// depth, then in program order). Returns the classes as [`Webs`], ready for
/// [`rename_webs`](super::phi_webs::rename_webs), and records the phases
/// `dominators`, `liveness`, `loop depth` and `coalescing` in `times`.
///
/// # Preconditions
/// `func` is valid SSA with the dominance property (what
/// [`verify`](crate::verify::verify) checks) and its phi webs are free of
/// interference, as after
/// [`insert_phi_copies`](super::to_cssa::insert_phi_copies). The
/// instructions numbered from `inserted_from` on are the parallel copies
/// that pass inserted (`func.insts.len()` just before it ran), tried
/// first; pass `func.insts.len()` when there are none.
pub fn coalesce(
    func: &Function,
    inserted_from: usize,
    times: &mut PassTimes,
) -> (Webs, CoalesceStats) {
    let cfg = Cfg::new(func);
    let dt = times.time("dominators", || DomTree::new(&cfg));
    let live = times.time("liveness", || Liveness::new(func, &cfg));
    let depth = times.time("loop depth", || loop_depth(&cfg, &dt));
    times.time("coalescing", || {
        let info = VarInfo::new(func, &dt, &live);
        let mut classes = Classes::new(func, &info);
        let mut stats = CoalesceStats::default();
        let candidates = candidates(func, &depth, inserted_from);
        stats.candidates = candidates.len();
        // Optimistic pass: a component of the affinity graph (phi webs and
        // copies) with no interference at all becomes one class at once.
        let mut affinity = UnionFind::new(func.vars.len());
        for_each_phi_operand(func, |dst, v| {
            affinity.union(dst.index(), v.index());
        });
        for c in &candidates {
            affinity.union(c.dst.index(), c.src.index());
        }
        classes.adopt_free_components(&info, &mut affinity);
        // Phi webs first: they must share one name whatever happens.
        for_each_phi_operand(func, |dst, v| {
            classes.merge(&info, dst, v, true);
        });
        // Then copy by copy, in order.
        for c in &candidates {
            if !classes.merge(&info, c.dst, c.src, false) {
                stats.refused += 1;
            }
        }
        for c in &candidates {
            if classes.webs.same_web(c.dst, c.src) {
                stats.coalesced += 1;
            }
        }
        stats.intersection_tests = info.tests.get();
        (classes.webs, stats)
    })
}

/// Calls `f(dst, v)` for every variable operand `v` of every phi.
fn for_each_phi_operand(func: &Function, mut f: impl FnMut(Var, Var)) {
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if let InstData::Phi { dst, args } = &func.insts[i] {
                for a in args {
                    if let Operand::Var(v) = a.value {
                        f(*dst, v);
                    }
                }
            }
        }
    }
}

/// A copy `dst ← src` between two variables, with its priority.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    dst: Var,
    src: Var,
    /// Whether the copy is one of those inserted around phis.
    phi_related: bool,
    /// Loop depth of the block holding the copy.
    depth: u32,
}

/// Every variable-to-variable copy of `func` (ordinary copies and the
/// entries of parallel copies), in the order they are to be tried.
fn candidates(
    func: &Function,
    depth: &EntityVec<Block, u32>,
    inserted_from: usize,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for &b in &func.layout {
        for &i in &func.blocks[b].insts {
            let mut push = |dst: Var, src: Var| {
                out.push(Candidate {
                    dst,
                    src,
                    phi_related: i.index() >= inserted_from,
                    depth: depth[b],
                })
            };
            match &func.insts[i] {
                InstData::Copy {
                    dst,
                    src: Operand::Var(s),
                } => push(*dst, *s),
                InstData::ParCopy { copies } => {
                    for &(d, s) in copies {
                        if let Operand::Var(s) = s {
                            push(d, s);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // Stable: program order breaks ties.
    out.sort_by_key(|c| (!c.phi_related, std::cmp::Reverse(c.depth)));
    out
}

/// What the interference test needs to know about each variable.
struct VarInfo<'a> {
    dt: &'a DomTree,
    live: &'a Liveness,
    /// By variable: the block of its definition (meaningless if unranked).
    def_block: EntityVec<Var, Block>,
    /// By variable: the position of its definition in its block (0 for
    /// parameters, 1 for phis, `k + 2` for instruction `k`).
    def_pos: EntityVec<Var, u32>,
    /// By variable: its place in the dominance order `≺` of definition
    /// points, or [`NO_RANK`] if it has no reachable definition.
    rank: EntityVec<Var, u32>,
    /// The ranked variables in rank order (the inverse of `rank`).
    by_rank: Vec<Var>,
    /// By variable: its SSA value, the variable whose definition it copies
    /// (through any chain of copies), or itself; for copies of a constant,
    /// one variable copying that constant.
    value: EntityVec<Var, Var>,
    /// CSR by variable (`use_start[v] .. use_start[v + 1]` in `uses`): the
    /// last position where it is read in each reachable block that reads
    /// it, sorted by block. Phi operands are not included (they are uses at
    /// the end of the predecessor, which liveness accounts for).
    use_start: Vec<u32>,
    uses: Vec<(Block, u32)>,
    /// Number of intersection queries, for the statistics.
    tests: std::cell::Cell<usize>,
}

impl<'a> VarInfo<'a> {
    fn new(func: &Function, dt: &'a DomTree, live: &'a Liveness) -> VarInfo<'a> {
        let nv = func.vars.len();
        let mut info = VarInfo {
            dt,
            live,
            def_block: EntityVec::filled(nv, Block(0)),
            def_pos: EntityVec::filled(nv, 0),
            rank: EntityVec::filled(nv, NO_RANK),
            by_rank: Vec::new(),
            value: EntityVec::from_vec((0..nv).map(Var::new).collect()),
            use_start: Vec::new(),
            uses: Vec::new(),
            tests: std::cell::Cell::new(0),
        };
        // Copies of one constant all have the same value: label it by the
        // first variable (in index order) that copies the constant.
        let mut consts: Vec<(i64, Var)> = Vec::new();
        for &b in &func.layout {
            for &i in &func.blocks[b].insts {
                match &func.insts[i] {
                    InstData::Copy {
                        dst,
                        src: Operand::Const(c),
                    } => consts.push((*c, *dst)),
                    InstData::ParCopy { copies } => {
                        for &(d, s) in copies {
                            if let Operand::Const(c) = s {
                                consts.push((c, d));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        consts.sort_unstable();
        consts.dedup_by_key(|p| p.0);
        let const_value = |c: i64| consts[consts.binary_search_by_key(&c, |p| p.0).unwrap()].1;
        // Definition points in dominance order, and values: a preorder of
        // the dominator tree sees each definition before its uses.
        let mut next = 0u32;
        let mut define = |info: &mut VarInfo, v: Var, b: Block, pos: u32| {
            info.def_block[v] = b;
            info.def_pos[v] = pos;
            info.rank[v] = next;
            info.by_rank.push(v);
            next += 1;
        };
        for b in dt.preorder() {
            if b == func.entry() {
                for &p in &func.params {
                    define(&mut info, p, b, 0);
                }
            }
            for &i in &func.blocks[b].phis {
                if let Some(d) = func.insts[i].def() {
                    define(&mut info, d, b, PHI_POS);
                }
            }
            for (k, &i) in func.blocks[b].insts.iter().enumerate() {
                let data = &func.insts[i];
                data.for_each_def(|d| define(&mut info, d, b, k as u32 + 2));
                let mut copy = |d: Var, s: Operand| match s {
                    Operand::Var(s) => info.value[d] = info.value[s],
                    Operand::Const(c) => info.value[d] = const_value(c),
                    Operand::Undef => {}
                };
                match data {
                    InstData::Copy { dst, src } => copy(*dst, *src),
                    InstData::ParCopy { copies } => {
                        for &(d, s) in copies {
                            copy(d, s);
                        }
                    }
                    _ => {}
                }
            }
        }
        info.gather_last_uses(func);
        info
    }

    /// Fills `use_start` and `uses`: blocks are scanned in index order, so
    /// a stable counting sort by variable leaves each variable's uses
    /// sorted by block, then position; the last of each block is kept.
    fn gather_last_uses(&mut self, func: &Function) {
        let nv = func.vars.len();
        let mut pairs: Vec<(Var, Block, u32)> = Vec::new();
        for b in func.blocks.keys() {
            if !self.dt.is_reachable(b) {
                continue;
            }
            let data = &func.blocks[b];
            for (k, &i) in data.insts.iter().enumerate() {
                func.insts[i].for_each_use(|v| pairs.push((v, b, k as u32 + 2)));
            }
            if let Some(Operand::Var(v)) = data.term.operand() {
                pairs.push((v, b, data.insts.len() as u32 + 2));
            }
        }
        let mut start = vec![0u32; nv + 1];
        for &(v, _, _) in &pairs {
            start[v.index() + 1] += 1;
        }
        for i in 0..nv {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut grouped = vec![(Block(0), 0u32); pairs.len()];
        for &(v, b, pos) in &pairs {
            grouped[fill[v.index()] as usize] = (b, pos);
            fill[v.index()] += 1;
        }
        self.use_start = Vec::with_capacity(nv + 1);
        self.uses = Vec::with_capacity(grouped.len());
        for v in 0..nv {
            self.use_start.push(self.uses.len() as u32);
            let first = self.uses.len();
            for &(b, pos) in &grouped[start[v] as usize..start[v + 1] as usize] {
                let n = self.uses.len();
                if n > first && self.uses[n - 1].0 == b {
                    self.uses[n - 1].1 = pos;
                } else {
                    self.uses.push((b, pos));
                }
            }
        }
        self.use_start.push(self.uses.len() as u32);
    }

    /// The last position where `v` is read in block `b`, if any.
    fn last_use(&self, v: Var, b: Block) -> Option<u32> {
        let uses =
            &self.uses[self.use_start[v.index()] as usize..self.use_start[v.index() + 1] as usize];
        uses.binary_search_by_key(&b, |u| u.0)
            .ok()
            .map(|k| uses[k].1)
    }

    /// Whether the definition point of `x` dominates that of `y`, for
    /// ranked variables with `x ≺ y` (so at equal points, `x` comes first).
    fn dominates(&self, x: Var, y: Var) -> bool {
        let (bx, by) = (self.def_block[x], self.def_block[y]);
        if bx == by {
            self.def_pos[x] <= self.def_pos[y]
        } else {
            self.dt.dominates(bx, by)
        }
    }

    /// Whether the live ranges of `a` and of `anc` intersect, where the
    /// definition of `anc` dominates that of `a`: `anc` is live just after
    /// `a` is defined. Two phis of one block intersect when either is live
    /// after the phis; two parameters, or two destinations of one parallel
    /// copy, always do.
    fn intersect(&self, a: Var, anc: Var) -> bool {
        self.tests.set(self.tests.get() + 1);
        debug_assert!(self.dominates(anc, a));
        let (b, pos) = (self.def_block[a], self.def_pos[a]);
        if self.def_block[anc] == b && self.def_pos[anc] == pos {
            return pos != PHI_POS || self.live_after(a, b, pos) || self.live_after(anc, b, pos);
        }
        self.live_after(anc, b, pos)
    }

    /// Whether `v`, defined at or before position `pos` of block `b`, is
    /// live just after that position: live out of `b`, or read later in it.
    fn live_after(&self, v: Var, b: Block, pos: u32) -> bool {
        self.live.is_live_out(b, v) || self.last_use(v, b).is_some_and(|p| p > pos)
    }
}

/// Congruence classes, with each class's members in dominance order and
/// the equal intersecting ancestors of the module doc.
///
/// Invariants, for every class `C` (keyed by its representative, the
/// member of smallest index, as in [`Webs`]):
/// * `members[rep(C)]` lists the ranked members of `C` by increasing rank;
///   other entries of `members` are empty;
/// * no two members of `C` interfere;
/// * `anc_in[a]`, for a member `a`, is the nearest (largest-ranked) member
///   of `C` that dominates `a`, has `a`'s value and intersects `a`.
struct Classes {
    webs: Webs,
    members: EntityVec<Var, Vec<Var>>,
    anc_in: EntityVec<Var, Option<Var>>,
    /// Valid when `out_round[a] == round`: for `a` visited by the current
    /// test, its equal intersecting ancestor in the other class.
    anc_out: EntityVec<Var, Option<Var>>,
    out_round: EntityVec<Var, u32>,
    round: u32,
    /// The traversal stack: a variable, and whether it is from the smaller
    /// list of the test.
    stack: Vec<(Var, bool)>,
}

impl Classes {
    /// Every variable alone in its class.
    fn new(func: &Function, info: &VarInfo) -> Classes {
        let nv = func.vars.len();
        Classes {
            webs: Webs::singletons(func),
            members: EntityVec::from_vec(
                (0..nv)
                    .map(|v| {
                        if info.rank[Var::new(v)] == NO_RANK {
                            Vec::new()
                        } else {
                            vec![Var::new(v)]
                        }
                    })
                    .collect(),
            ),
            anc_in: EntityVec::filled(nv, None),
            anc_out: EntityVec::filled(nv, None),
            out_round: EntityVec::filled(nv, 0),
            round: 0,
            stack: Vec::new(),
        }
    }

    /// The optimistic pass: every component of `affinity` (all singletons
    /// in `self` so far) whose variables interfere nowhere becomes one
    /// class, in `O(variables)` plus the intersection tests.
    fn adopt_free_components(&mut self, info: &VarInfo, affinity: &mut UnionFind) {
        let nv = affinity.len();
        // The ranked variables of each component, in rank order: a counting
        // sort by component of the variables taken in rank order.
        let mut start = vec![0u32; nv + 1];
        for &v in &info.by_rank {
            start[affinity.find(v.index()) + 1] += 1;
        }
        for i in 0..nv {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut sorted = vec![Var(0); info.by_rank.len()];
        for &v in &info.by_rank {
            let c = affinity.find(v.index());
            sorted[fill[c] as usize] = v;
            fill[c] += 1;
        }
        let mut free = vec![false; nv];
        for c in 0..nv {
            let list = &sorted[start[c] as usize..start[c + 1] as usize];
            let bad = list.len() >= 2 && self.set_interferes(info, list);
            #[cfg(debug_assertions)]
            if list.len() <= 48 {
                debug_assert_eq!(bad, brute_interfere_set(info, list), "{list:?}");
            }
            if list.len() >= 2 && !bad {
                free[c] = true;
                // `anc_out` holds the equal intersecting ancestors found.
                for &v in list {
                    self.anc_in[v] = self.anc_out[v];
                }
            }
        }
        // Unite each free component, unranked variables included, and give
        // its representative the sorted list.
        for v in (0..nv).map(Var::new) {
            let c = affinity.find(v.index());
            if free[c] {
                self.webs.union(v, Var::new(c));
            }
        }
        for c in (0..nv).filter(|&c| free[c]) {
            let list = &sorted[start[c] as usize..start[c + 1] as usize];
            for &v in list {
                self.members[v] = Vec::new();
            }
            let r = self.webs.representative(list[0]);
            self.members[r] = list.to_vec();
        }
    }

    /// Whether two variables of `list` (sorted by rank) interfere:
    /// Algorithm 2 of Boissinot et al. on one set, with values. Sets
    /// `anc_out[a]` to the equal intersecting ancestor of `a` in the list.
    ///
    /// Invariant of the walk: the visited variables do not interfere, so
    /// every visited variable intersecting `a` lies on the chain of equal
    /// intersecting ancestors starting at `a`'s parent `b`, all with `b`'s
    /// value (see [`Classes::interference`]).
    fn set_interferes(&mut self, info: &VarInfo, list: &[Var]) -> bool {
        self.stack.clear();
        for &a in list {
            while let Some(&(top, _)) = self.stack.last() {
                if info.dominates(top, a) {
                    break;
                }
                self.stack.pop();
            }
            self.anc_out[a] = None;
            if let Some(&(b, _)) = self.stack.last() {
                let mut tmp = Some(b);
                while let Some(t) = tmp {
                    if info.intersect(a, t) {
                        break;
                    }
                    tmp = self.anc_out[t];
                }
                if tmp.is_some() && info.value[a] != info.value[b] {
                    return true;
                }
                self.anc_out[a] = tmp;
            }
            self.stack.push((a, true));
        }
        false
    }

    /// Merges the classes of `x` and `y` unless they interfere; returns
    /// whether they are one class afterwards. With `force` (phi webs) they
    /// are merged anyway, and must not interfere.
    fn merge(&mut self, info: &VarInfo, x: Var, y: Var, force: bool) -> bool {
        let (rx, ry) = (self.webs.representative(x), self.webs.representative(y));
        if rx == ry {
            return true;
        }
        // The bigger list is `rb`'s: it is merged into in place.
        let (rb, rs) = if self.members[rx].len() >= self.members[ry].len() {
            (rx, ry)
        } else {
            (ry, rx)
        };
        let mut big = std::mem::take(&mut self.members[rb]);
        let small = std::mem::take(&mut self.members[rs]);
        let walk = self.interfere(info, &big, &small);
        #[cfg(debug_assertions)]
        if big.len() + small.len() <= 48 {
            debug_assert_eq!(
                walk.is_none(),
                brute_interfere(info, &big, &small),
                "{big:?} {small:?}"
            );
        }
        debug_assert!(
            !(walk.is_none() && force),
            "a phi web interferes: {big:?} {small:?}"
        );
        let Some(window) = walk.or(force.then_some(0..0)) else {
            // Interference: put the lists back.
            self.members[rb] = big;
            self.members[rs] = small;
            return false;
        };
        // Each visited member's nearest equal intersecting ancestor is now
        // the nearer of the one in its class and the one in the other.
        for &v in small.iter().chain(&big[window]) {
            if self.out_round[v] == self.round {
                if let Some(o) = self.anc_out[v] {
                    let nearer = match self.anc_in[v] {
                        Some(a) if info.rank[a] > info.rank[o] => a,
                        _ => o,
                    };
                    self.anc_in[v] = Some(nearer);
                }
            }
        }
        merge_sorted_into(info, &mut big, &small);
        self.webs.union(rx, ry);
        let r = self.webs.representative(rx);
        self.members[r] = big;
        true
    }

    /// Whether some member of `small` interferes with some member of `big`
    /// (two classes without inner interference): Algorithm 2 of Boissinot
    /// et al. over the two lists in merged order, with the value-aware
    /// `interference`. Returns `None` on interference, else the range of
    /// `big` visited (whose `anc_out`, like that of every member of `small`,
    /// is set).
    ///
    /// Only a window of `big` is walked: from the first member ranked after
    /// `small[0]` until `small` is exhausted and none of its members is on
    /// the stack (later members of `big` have no ancestor in `small`). The
    /// members of `big` ranked before `small[0]` matter only as ancestors;
    /// they are found when needed by scanning backwards from the window
    /// (`back`): in a pre-DFS order, the nearest ancestor of `cur` among
    /// earlier variables is the first one dominating it when going
    /// backwards, and those skipped dominate nothing after `cur`. They have
    /// no ancestor in `small`, so their `anc_out` is ⊥.
    fn interfere(
        &mut self,
        info: &VarInfo,
        big: &[Var],
        small: &[Var],
    ) -> Option<std::ops::Range<usize>> {
        self.round += 1;
        self.stack.clear();
        let Some(&first) = small.first() else {
            return Some(0..0);
        };
        let lo = big.partition_point(|&v| info.rank[v] < info.rank[first]);
        let (mut i, mut j, mut back) = (0, lo, lo);
        // Members of `small` on the stack.
        let mut n_small = 0usize;
        while i < small.len() || (n_small > 0 && j < big.len()) {
            let from_small =
                j == big.len() || (i < small.len() && info.rank[small[i]] < info.rank[big[j]]);
            let cur = if from_small {
                i += 1;
                small[i - 1]
            } else {
                j += 1;
                big[j - 1]
            };
            while let Some(&(top, top_small)) = self.stack.last() {
                if info.dominates(top, cur) {
                    break;
                }
                self.stack.pop();
                n_small -= top_small as usize;
            }
            if self.stack.is_empty() {
                while back > 0 {
                    back -= 1;
                    let anc = big[back];
                    if info.dominates(anc, cur) {
                        self.anc_out[anc] = None;
                        self.out_round[anc] = self.round;
                        self.stack.push((anc, false));
                        break;
                    }
                }
            }
            self.anc_out[cur] = None;
            self.out_round[cur] = self.round;
            if let Some(&(parent, parent_small)) = self.stack.last() {
                if self.interference(info, cur, parent, parent_small == from_small) {
                    return None;
                }
            }
            self.stack.push((cur, from_small));
            n_small += from_small as usize;
        }
        Some(lo..j)
    }

    /// Function `interference` of Boissinot et al.: whether `a` interferes
    /// with a visited variable of the other class, given its parent `b` in
    /// the dominance forest; sets `anc_out[a]`.
    ///
    /// Every visited variable `c` of the other class whose live range
    /// intersects `a`'s dominates `b` (or is `b`) and intersects `b` too, so
    /// has `b`'s value: it is on the chain of equal intersecting ancestors
    /// that starts at `b` (if `b` is in the other class) or at `anc_out[b]`
    /// (if `b` is in `a`'s class), and that chain stays in the other class.
    fn interference(&mut self, info: &VarInfo, a: Var, b: Var, same_class: bool) -> bool {
        let b = if same_class {
            match self.anc_out[b] {
                Some(o) => o,
                None => return false,
            }
        } else {
            b
        };
        if info.value[a] != info.value[b] {
            // chain_intersect: any intersection on the chain interferes.
            let mut tmp = Some(b);
            while let Some(t) = tmp {
                if info.intersect(a, t) {
                    return true;
                }
                tmp = self.anc_in[t];
            }
            false
        } else {
            // update_equal_anc_out: same value, no interference; remember
            // the nearest one that intersects.
            let mut tmp = Some(b);
            while let Some(t) = tmp {
                if info.intersect(a, t) {
                    break;
                }
                tmp = self.anc_in[t];
            }
            self.anc_out[a] = tmp;
            false
        }
    }
}

/// Merges `small` into `big`, both sorted by rank, in place: only the part
/// of `big` ranked after `small[0]` moves.
fn merge_sorted_into(info: &VarInfo, big: &mut Vec<Var>, small: &[Var]) {
    let Some(&first) = small.first() else {
        return;
    };
    let lo = big.partition_point(|&v| info.rank[v] < info.rank[first]);
    let tail: Vec<Var> = big.drain(lo..).collect();
    let (mut i, mut j) = (0, 0);
    while i < tail.len() || j < small.len() {
        if j == small.len() || (i < tail.len() && info.rank[tail[i]] < info.rank[small[j]]) {
            big.push(tail[i]);
            i += 1;
        } else {
            big.push(small[j]);
            j += 1;
        }
    }
}

/// The definition of interference between two classes, pair by pair: the
/// oracle of the linear test, in debug builds.
#[cfg(debug_assertions)]
fn brute_interfere(info: &VarInfo, red: &[Var], blue: &[Var]) -> bool {
    red.iter().any(|&x| {
        blue.iter().any(|&y| {
            let (anc, a) = if info.rank[x] < info.rank[y] {
                (x, y)
            } else {
                (y, x)
            };
            info.value[x] != info.value[y] && info.dominates(anc, a) && info.intersect(a, anc)
        })
    })
}

/// The definition of interference inside one set, pair by pair.
#[cfg(debug_assertions)]
fn brute_interfere_set(info: &VarInfo, list: &[Var]) -> bool {
    list.iter()
        .enumerate()
        .any(|(k, &x)| brute_interfere(info, &[x], &list[k + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::destruct::to_cssa::{insert_phi_copies, JoinCopies};
    use crate::ir::{BinOp, FunctionBuilder, PhiArg};

    /// The lost-copy problem after copy insertion without splitting:
    ///
    /// ```text
    /// entry: x1 = 1; (u1) = (x1); jump loop
    /// loop:  u0 = phi(entry: u1, loop: u2); (x2) = (u0)
    ///        x3 = x2 + 1; c = x3 < n; (u2) = (x3); branch c, loop, exit
    /// exit:  ret x2
    /// ```
    ///
    /// `x2` is live out of `loop`, where `u2` is defined with another
    /// value: `x2 ← u0` stays; every other copy goes (Figure 4 of
    /// Boissinot et al.).
    #[test]
    fn lost_copy_keeps_one_copy() {
        let mut b = FunctionBuilder::new("f");
        let n = b.param("n");
        let (entry, lp, exit) = (b.block("entry"), b.block("loop"), b.block("exit"));
        let (x1, x2, x3, c) = (b.var("x1"), b.var("x2"), b.var("x3"), b.var("c"));
        b.switch_to(entry);
        b.copy(x1, Operand::Const(1));
        b.jump(lp);
        b.switch_to(lp);
        b.phi(
            x2,
            vec![
                PhiArg {
                    block: entry,
                    value: x1.into(),
                },
                PhiArg {
                    block: lp,
                    value: x3.into(),
                },
            ],
        );
        b.binary(x3, BinOp::Add, x2.into(), Operand::Const(1));
        b.binary(c, BinOp::Lt, x3.into(), n.into());
        b.branch(c.into(), lp, exit);
        b.switch_to(exit);
        b.ret(Some(x2.into()));
        let mut f = b.finish();
        let n_before = f.insts.len();
        let cssa = insert_phi_copies(&mut f, JoinCopies::WhenNeeded);
        assert_eq!(cssa.copies, 3);
        let (mut webs, stats) = coalesce(&f, n_before, &mut PassTimes::default());
        assert_eq!(stats.candidates, 3);
        assert_eq!(stats.coalesced, 2);
        assert_eq!(stats.refused, 1);
        assert!(webs.same_web(x1, x3));
        assert!(!webs.same_web(x1, x2));
    }

    /// Two copies of one value live at once do not interfere: `b ← a` and
    /// `c ← a` with `a`, `b`, `c` all used after (section III-A of
    /// Boissinot et al.), so all three coalesce; `d = a + 1` does not.
    #[test]
    fn copies_of_one_value_share_a_name() {
        let mut fb = FunctionBuilder::new("f");
        let a = fb.param("a");
        let e = fb.block("e");
        let (b, c, d) = (fb.var("b"), fb.var("c"), fb.var("d"));
        fb.switch_to(e);
        fb.copy(b, a.into());
        fb.copy(c, a.into());
        fb.binary(d, BinOp::Add, a.into(), Operand::Const(1));
        fb.print(vec![a.into(), b.into(), c.into(), d.into()]);
        fb.ret(None);
        let f = fb.finish();
        let (mut webs, stats) = coalesce(&f, f.insts.len(), &mut PassTimes::default());
        assert_eq!(stats.coalesced, 2);
        assert!(webs.same_web(a, b) && webs.same_web(b, c));
        assert!(!webs.same_web(a, d));
    }

    /// Two destinations of one parallel copy intersect even when one is
    /// dead, unless they copy the same value: `(p, q) = (a, a)` may share
    /// a name, `(r, s) = (a, b)` may not.
    #[test]
    fn parallel_copy_destinations() {
        let mut fb = FunctionBuilder::new("f");
        let (a, bb) = (fb.param("a"), fb.param("b"));
        let e = fb.block("e");
        let (p, q, r, s) = (fb.var("p"), fb.var("q"), fb.var("r"), fb.var("s"));
        fb.switch_to(e);
        fb.inst(InstData::ParCopy {
            copies: vec![(p, a.into()), (q, a.into())],
        });
        fb.inst(InstData::ParCopy {
            copies: vec![(r, a.into()), (s, bb.into())],
        });
        fb.print(vec![p.into(), r.into()]);
        fb.ret(None);
        let f = fb.finish();
        let (mut webs, _) = coalesce(&f, f.insts.len(), &mut PassTimes::default());
        assert!(webs.same_web(p, q) && webs.same_web(p, a));
        assert!(webs.same_web(r, a));
        // `s` is dead, but written where `r` is: it cannot join `r`'s
        // class, so it stays with `b`.
        assert!(webs.same_web(s, bb) && !webs.same_web(s, r));
    }
}
