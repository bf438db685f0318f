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
//! * **Affinity components.** Phis and copies link variables (the
//!   *affinity* relation); two variables can only end in one class if a
//!   chain of such links joins them, so only pairs inside one component of
//!   that relation ever need an interference test.
//!
//! # Interference between classes
//!
//! Two classes interfere when some member of one interferes with some
//! member of the other. Boissinot et al. (§ IV-B) answer that without any
//! graph, by a linear walk of both member lists in dominance order; but
//! merging copy by copy then costs `O(|X| + |Y|)` per merge, quadratic
//! when a class grows a few members at a time across a program whose
//! dominator tree is deep (a ladder of nested loops, a switch with a
//! hundred thousand cases), and windows into the bigger list do not help
//! there: the smaller class's members dominate, or are live across, most
//! of the bigger one.
//!
//! Here the pairwise relation is computed once, as an interference graph
//! restricted to what can matter ([`Interference`]): only between two
//! variables of one affinity component with different values, found by a
//! backward walk of each block over its live variables, in
//! `O(instructions + liveness + edges)`, with the cliques of variables
//! defined at one point kept as groups. Many live copies of one value
//! cost nothing, unlike in a plain interference graph. Then:
//!
//! * each class keeps its *active* members, those with an edge or a group
//!   mate (a circular list, spliced in `O(1)` on a merge), and its
//!   *weight*: its active members plus their edges and group mates;
//! * two classes interfere iff an edge (or group mate) of an active member
//!   of the lighter one leads into the other: one union-find query each;
//! * the pair found by a refused test is remembered by both classes (the
//!   two latest *blockers* of each): classes only grow, so it still blocks
//!   any later test between their successors, in `O(1)` (a copy repeated
//!   on every case of a switch is refused once); and the member found
//!   moves to the front of its list, so a class refused against several
//!   others in turn finds each conflict among its first members.
//!
//! A successful test walks the lighter class, which then at least doubles
//! its weight by the merge, so each member and edge is walked `O(log)`
//! times over all successful tests. A refused test costs at most the
//! lighter weight; the blockers and the move to the front make repeated
//! refusals cheap in practice, without a better bound. The decisions are
//! exactly those of the pairwise definition (the debug build checks them
//! against it), so the result is the one of Boissinot's walk for the same
//! order.
//!
//! Worked example, the lost copy after splitting the back edge: the phi
//! web is `{x2, u1, u2}`, with `u1 ← x1` at the end of `entry` and
//! `u2 ← x3` in the new block. `x2` is live after `x3 = x2 + 1` (the exit
//! reads it) and `V(x2) = x2 ≠ V(x3) = x3`: an edge `x2 — x3`. Trying
//! `u2 ← x3` (inner loop first): the class `{x3}` has one edge, into the
//! web: the copy stays. Trying `u1 ← x1`: `x1` has no edge at all (it is
//! dead after the copy, and `u1` carries its value): one class, and
//! `x1 = 1` now writes the web's variable.
//!
//! # Order
//!
//! Copies are tried phi-related first (so conventional SSA coalesces back
//! to its phi webs and keeps no copy from phis), then by decreasing loop
//! depth of the block holding them (copies in inner loops run most often),
//! then in program order. Before that, every affinity component without a
//! single edge becomes one class at once (what merging it copy by copy
//! would give), and the phi webs are merged.
//!
//! No hashing, no recursion.

use super::interference::Interference;
use super::phi_webs::Webs;
use crate::analysis::{loop_depth, DomTree, Liveness};
use crate::entity::EntityVec;
use crate::ir::{Block, Cfg, Function, InstData, Operand, Var};
use crate::timing::PassTimes;
use crate::union_find::UnionFind;

/// Rank of a variable with no reachable definition: it never runs, so it
/// interferes with nothing and takes no part in interference tests.
const NO_RANK: u32 = u32::MAX;

/// No variable, no component (in `u32` tables).
const NIL: u32 = u32::MAX;

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
    /// Interference work: explicit edges of the interference graph (pairs
    /// of one affinity component that intersect with different values at
    /// different points) plus the neighbours looked at by class tests.
    pub intersection_tests: usize,
}

/// Groups the variables of `func` into congruence classes: every phi web,
/// then, copy by copy, the classes of a copy's two sides when they do not
/// interfere (copies inserted around phis first, then by decreasing loop
/// depth, then in program order). Returns the classes as [`Webs`], ready for
/// [`rename_webs`](super::phi_webs::rename_webs), and records the phases
/// `dominators`, `liveness`, `loop depth`, `affinity` (candidates, values
/// and components), `interference` (the graph) and `coalescing` (the
/// classes) in `times`.
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
    let nv = func.vars.len();
    let cfg = Cfg::new(func);
    let dt = times.time("dominators", || DomTree::new(&cfg));
    let live = times.time("liveness", || Liveness::new(func, &cfg));
    let depth = times.time("loop depth", || loop_depth(&cfg, &dt));
    let mut stats = CoalesceStats::default();
    let (candidates, phi_pairs, info, mut affinity, comp) = times.time("affinity", || {
        let candidates = candidates(func, &depth, inserted_from);
        let mut info = VarInfo::new(func, &dt);
        let phi_pairs = phi_operands(func);
        let mut affinity = UnionFind::new(nv);
        for &(dst, v) in &phi_pairs {
            affinity.union(dst.index(), v.index());
        }
        for c in &candidates {
            affinity.union(c.dst.index(), c.src.index());
        }
        let comp = info.components(&mut affinity);
        (candidates, phi_pairs, info, affinity, comp)
    });
    let graph = times.time("interference", || {
        Interference::build(func, &dt, &live, &comp, &info.value)
    });
    times.time("coalescing", || {
        #[cfg(debug_assertions)]
        let oracle = Oracle::new(func, &info, &dt, &live);
        #[cfg(debug_assertions)]
        oracle.check_graph(&graph, &comp);
        let mut classes = Classes::new(func, &graph, &mut affinity);
        #[cfg(debug_assertions)]
        classes.check_free_components(&oracle);
        stats.candidates = candidates.len();
        // Phi webs: they must share one name whatever happens.
        for &(dst, v) in &phi_pairs {
            let (rx, ry) = (classes.root(dst), classes.root(v));
            if rx != ry {
                debug_assert!(
                    !classes.interferes(&graph, rx, ry),
                    "a phi web interferes: {dst} {v}"
                );
                classes.merge(rx, ry);
            }
        }
        // Then copy by copy, in order.
        for c in &candidates {
            let (rx, ry) = (classes.root(c.dst), classes.root(c.src));
            if rx == ry {
                continue;
            }
            let bad = classes.interferes(&graph, rx, ry);
            #[cfg(debug_assertions)]
            classes.check_test(&oracle, rx, ry, bad);
            if bad {
                stats.refused += 1;
            } else {
                classes.merge(rx, ry);
            }
        }
        for c in &candidates {
            if classes.root(c.dst) == classes.root(c.src) {
                stats.coalesced += 1;
            }
        }
        stats.intersection_tests = graph.num_edges() + classes.edges_looked_at;
        (Webs::from_sets(classes.sets), stats)
    })
}

/// `(dst, v)` for every variable operand `v` of every phi `dst`.
fn phi_operands(func: &Function) -> Vec<(Var, Var)> {
    let mut out = Vec::new();
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if let InstData::Phi { dst, args } = &func.insts[i] {
                out.extend(args.iter().filter_map(|a| a.value.var()).map(|v| (*dst, v)));
            }
        }
    }
    out
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
    // A stable counting sort (program order breaks ties) by the key
    // `(not phi-related, maximum depth - depth)`.
    let max_depth = out.iter().map(|c| c.depth).max().unwrap_or(0) as usize;
    let key =
        |c: &Candidate| (!c.phi_related as usize) * (max_depth + 1) + max_depth - c.depth as usize;
    let mut start = vec![0usize; 2 * (max_depth + 1) + 1];
    for c in &out {
        start[key(c) + 1] += 1;
    }
    for k in 0..start.len() - 1 {
        start[k + 1] += start[k];
    }
    let mut sorted = out.clone();
    for c in &out {
        let k = key(c);
        sorted[start[k]] = *c;
        start[k] += 1;
    }
    sorted
}

/// Definition points and values of the variables.
struct VarInfo {
    /// By variable: the block of its definition (meaningless if unranked).
    def_block: EntityVec<Var, Block>,
    /// By variable: the position of its definition in its block (0 for
    /// parameters, 1 for phis, `k + 2` for instruction `k`).
    def_pos: EntityVec<Var, u32>,
    /// By variable: its place in the dominance order of definition points
    /// (preorder of the block in the dominator tree, then position), or
    /// [`NO_RANK`] if it has no reachable definition.
    rank: EntityVec<Var, u32>,
    /// By variable: its SSA value, the variable whose definition it copies
    /// (through any chain of copies), or itself; for copies of a constant,
    /// one variable copying that constant (after [`VarInfo::components`],
    /// one of the variable's own component).
    value: EntityVec<Var, Var>,
}

impl VarInfo {
    fn new(func: &Function, dt: &DomTree) -> VarInfo {
        let nv = func.vars.len();
        let mut info = VarInfo {
            def_block: EntityVec::filled(nv, Block(0)),
            def_pos: EntityVec::filled(nv, 0),
            rank: EntityVec::filled(nv, NO_RANK),
            value: EntityVec::from_vec((0..nv).map(Var::new).collect()),
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
        info
    }

    /// The component of every variable for the interference graph: the
    /// root of its set in `affinity` if the set has two ranked variables
    /// or more and the variable is ranked, else [`NIL`] (untracked). Also
    /// relabels the values of constants per component, as
    /// [`Interference::build`] wants: a copy and its source are in one
    /// component, so only constant labels can come from another, and all
    /// the variables of one component with one such label get the first of
    /// them instead.
    fn components(&mut self, affinity: &mut UnionFind) -> Vec<u32> {
        let nv = affinity.len();
        let mut ranked = vec![0u32; nv];
        for v in (0..nv).filter(|&v| self.rank[Var::new(v)] != NO_RANK) {
            ranked[affinity.find(v)] += 1;
        }
        let comp: Vec<u32> = (0..nv)
            .map(|v| {
                let c = affinity.find(v);
                if self.rank[Var::new(v)] != NO_RANK && ranked[c] >= 2 {
                    c as u32
                } else {
                    NIL
                }
            })
            .collect();
        // (component, old label, variable) for labels from elsewhere.
        let mut foreign: Vec<(u32, Var, Var)> = (0..nv)
            .map(Var::new)
            .filter(|&v| comp[v.index()] != NIL)
            .filter(|&v| comp[self.value[v].index()] != comp[v.index()])
            .map(|v| (comp[v.index()], self.value[v], v))
            .collect();
        foreign.sort_unstable();
        let mut k = 0;
        while k < foreign.len() {
            let (c, old, first) = foreign[k];
            while k < foreign.len() && foreign[k].0 == c && foreign[k].1 == old {
                self.value[foreign[k].2] = first;
                k += 1;
            }
        }
        comp
    }
}

/// Congruence classes, with their members and weights.
///
/// A member is *active* when a test may have something to look at for it
/// ([`Interference::weight`] is not zero); the others (no edge, alone at
/// their definition point) can never make their class interfere, so tests
/// skip them: a class of many such members stays cheap to test, however
/// often its copies are refused.
///
/// Invariants, for every class `C` (keyed by its root `r` in `sets`):
/// * `head[r]` is an active member of `C`, or `NIL` if there is none, and
///   `next` links the active members of `C` in a circular list; a member
///   found interfering by a test moves to just after the head, so that a
///   class refused against several others in turn finds each conflict
///   among its first members;
/// * `weight[r]` is the sum over the active members of `C` of one plus
///   what a test may look at for them: the cost of walking `C`;
/// * each entry of `blockers[r]`, unless `NIL`, is a pair `(m, n)` of
///   interfering variables with `m` in `C`, `n` outside it, found by a
///   refused test: `C` interferes with `n`'s class. Two are kept, the
///   latest first, so that a class refused alternately against two others
///   (a web against the two parameters a switch's cases copy, say) stays
///   blocked against both;
/// * no two members of `C` interfere (phi webs aside, which the
///   preconditions say are free of interference).
struct Classes {
    sets: UnionFind,
    head: Vec<u32>,
    next: Vec<u32>,
    weight: Vec<u64>,
    blockers: Vec<[(u32, u32); 2]>,
    /// Edges looked at by tests, for the statistics.
    edges_looked_at: usize,
    /// Debug builds: every member of each class, in a circular list.
    #[cfg(debug_assertions)]
    all_next: Vec<u32>,
}

impl Classes {
    /// Every variable alone in its class, except that every component of
    /// `affinity` without an edge in `graph` becomes one class at once:
    /// merging it copy by copy would give that class, and testing it costs
    /// nothing (the optimistic pass).
    fn new(func: &Function, graph: &Interference, affinity: &mut UnionFind) -> Classes {
        let nv = func.vars.len();
        let mut interfering = vec![false; nv];
        for v in 0..nv {
            let (any, _) = graph.any_neighbor(Var::new(v), |_| true);
            if any {
                interfering[affinity.find(v)] = true;
            }
        }
        let mut sets = UnionFind::new(nv);
        for v in 0..nv {
            let c = affinity.find(v);
            if !interfering[c] {
                sets.union(v, c);
            }
        }
        let mut classes = Classes {
            sets,
            head: vec![NIL; nv],
            next: (0..nv as u32).collect(),
            weight: vec![0; nv],
            blockers: vec![[(NIL, NIL); 2]; nv],
            edges_looked_at: 0,
            #[cfg(debug_assertions)]
            all_next: (0..nv as u32).collect(),
        };
        // The circular lists: each variable goes right after the head.
        for v in 0..nv {
            let r = classes.sets.find(v);
            #[cfg(debug_assertions)]
            if r != v {
                classes.all_next[v] = classes.all_next[r];
                classes.all_next[r] = v as u32;
            }
            let w = graph.weight(Var::new(v));
            if w == 0 {
                continue;
            }
            classes.weight[r] += 1 + w as u64;
            let h = classes.head[r];
            if h == NIL {
                classes.head[r] = v as u32;
            } else {
                classes.next[v] = classes.next[h as usize];
                classes.next[h as usize] = v as u32;
            }
        }
        classes
    }

    /// The root of `v`'s class.
    fn root(&mut self, v: Var) -> Var {
        Var::new(self.sets.find(v.index()))
    }

    /// Whether the classes of roots `rx` and `ry` (distinct) interfere:
    /// the blockers first, then every neighbour of every active member of
    /// the lighter one.
    fn interferes(&mut self, graph: &Interference, rx: Var, ry: Var) -> bool {
        for (r, other) in [(rx, ry), (ry, rx)] {
            for (_, n) in self.blockers[r.index()] {
                if n != NIL && self.sets.find(n as usize) == other.index() {
                    return true;
                }
            }
        }
        let (light, heavy) = if self.weight[rx.index()] <= self.weight[ry.index()] {
            (rx, ry)
        } else {
            (ry, rx)
        };
        let first = self.head[light.index()];
        if first == NIL {
            return false;
        }
        let (mut prev, mut m) = (NIL, first);
        loop {
            let sets = &mut self.sets;
            let mut found = None;
            let (_, looked) = graph.any_neighbor(Var(m), |n| {
                let hit = sets.find(n.index()) == heavy.index();
                found = found.or(hit.then_some(n));
                hit
            });
            self.edges_looked_at += looked;
            if let Some(n) = found {
                for (r, pair) in [(light, (m, n.0)), (heavy, (n.0, m))] {
                    let b = &mut self.blockers[r.index()];
                    *b = [pair, b[0]];
                }
                // Move `m` to just after the head: the members that made
                // recent tests fail are walked first next time.
                if prev != NIL && prev != first {
                    self.next[prev as usize] = self.next[m as usize];
                    self.next[m as usize] = self.next[first as usize];
                    self.next[first as usize] = m;
                }
                return true;
            }
            (prev, m) = (m, self.next[m as usize]);
            if m == first {
                return false;
            }
        }
    }

    /// Merges the classes of roots `rx` and `ry` (distinct).
    fn merge(&mut self, rx: Var, ry: Var) {
        let (x, y) = (rx.index(), ry.index());
        let r = self.sets.union(x, y);
        let o = if r == x { y } else { x };
        // Splice the two circular lists: swap the successors of one member
        // of each.
        let (hx, hy) = (self.head[x], self.head[y]);
        self.head[r] = if hx == NIL {
            hy
        } else {
            if hy != NIL {
                self.next.swap(hx as usize, hy as usize);
            }
            hx
        };
        #[cfg(debug_assertions)]
        self.all_next.swap(x, y);
        self.weight[r] = self.weight[x] + self.weight[y];
        // The latest blocker of each side, or both of the side that has.
        let (br, bo) = (self.blockers[r], self.blockers[o]);
        self.blockers[r] = match (br[0].0 != NIL, bo[0].0 != NIL) {
            (true, true) => [br[0], bo[0]],
            (true, false) => br,
            (false, _) => bo,
        };
    }

    /// The members of the class of root `r`, up to `limit` of them.
    #[cfg(debug_assertions)]
    fn members(&self, r: Var, limit: usize) -> Vec<Var> {
        let mut out = vec![r];
        let mut m = self.all_next[r.index()];
        while m != r.0 && out.len() < limit {
            out.push(Var(m));
            m = self.all_next[m as usize];
        }
        out
    }

    /// Debug builds: the class test agreed with the pairwise definition
    /// (for small classes).
    #[cfg(debug_assertions)]
    fn check_test(&self, oracle: &Oracle, rx: Var, ry: Var, bad: bool) {
        let (x, y) = (self.members(rx, 49), self.members(ry, 49));
        if x.len() + y.len() <= 48 {
            assert_eq!(bad, oracle.interfere(&x, &y), "{x:?} {y:?}");
        }
    }

    /// Debug builds: the classes made at once have no interference (for
    /// small classes).
    #[cfg(debug_assertions)]
    fn check_free_components(&mut self, oracle: &Oracle) {
        for v in 0..self.next.len() {
            let v = Var::new(v);
            if self.root(v) == v {
                let list = self.members(v, 49);
                if (2..=48).contains(&list.len()) {
                    for (k, &x) in list.iter().enumerate() {
                        assert!(!oracle.interfere(&[x], &list[k + 1..]), "{list:?}");
                    }
                }
            }
        }
    }
}

/// The definition of interference, pair by pair: the oracle of the class
/// tests in debug builds.
#[cfg(debug_assertions)]
struct Oracle<'a> {
    info: &'a VarInfo,
    dt: &'a DomTree,
    live: &'a Liveness,
    /// CSR by variable (`use_start[v] .. use_start[v + 1]` in `uses`): the
    /// last position where it is read in each reachable block that reads
    /// it, sorted by block. Phi operands are not included (they are uses at
    /// the end of the predecessor, which liveness accounts for).
    use_start: Vec<u32>,
    uses: Vec<(Block, u32)>,
}

#[cfg(debug_assertions)]
impl<'a> Oracle<'a> {
    /// Gathers the last uses: blocks are scanned in index order, so a
    /// stable counting sort by variable leaves each variable's uses sorted
    /// by block, then position; the last of each block is kept.
    fn new(func: &Function, info: &'a VarInfo, dt: &'a DomTree, live: &'a Liveness) -> Oracle<'a> {
        let nv = func.vars.len();
        let mut pairs: Vec<(Var, Block, u32)> = Vec::new();
        for b in func.blocks.keys() {
            if !dt.is_reachable(b) {
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
        pairs.sort_by_key(|p| p.0);
        let mut use_start = Vec::with_capacity(nv + 1);
        let mut uses: Vec<(Block, u32)> = Vec::new();
        let mut k = 0;
        for v in 0..nv {
            use_start.push(uses.len() as u32);
            let first = uses.len();
            while k < pairs.len() && pairs[k].0.index() == v {
                let (_, b, pos) = pairs[k];
                let n = uses.len();
                if n > first && uses[n - 1].0 == b {
                    uses[n - 1].1 = pos;
                } else {
                    uses.push((b, pos));
                }
                k += 1;
            }
        }
        use_start.push(uses.len() as u32);
        Oracle {
            info,
            dt,
            live,
            use_start,
            uses,
        }
    }

    /// The graph has an edge exactly between the pairs of one component
    /// that interfere (for functions of up to 300 variables).
    fn check_graph(&self, graph: &Interference, comp: &[u32]) {
        let nv = comp.len();
        if nv > 300 {
            return;
        }
        for a in (0..nv).filter(|&a| comp[a] != NIL) {
            let (a, ns) = (Var::new(a), graph.interfering_with(Var::new(a)));
            for b in (0..nv).filter(|&b| b != a.index() && comp[b] == comp[a.index()]) {
                let b = Var::new(b);
                assert_eq!(
                    ns.contains(&b),
                    self.interfere(&[a], &[b]),
                    "edge {a} - {b}"
                );
            }
            assert!(ns.iter().all(|n| comp[n.index()] == comp[a.index()]));
        }
    }

    /// Whether some member of `red` interferes with some member of `blue`.
    fn interfere(&self, red: &[Var], blue: &[Var]) -> bool {
        let rank = &self.info.rank;
        red.iter().any(|&x| {
            blue.iter().any(|&y| {
                if rank[x] == NO_RANK || rank[y] == NO_RANK {
                    return false;
                }
                let (anc, a) = if rank[x] < rank[y] { (x, y) } else { (y, x) };
                self.info.value[x] != self.info.value[y]
                    && self.dominates(anc, a)
                    && self.intersect(a, anc)
            })
        })
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
    /// ranked variables with `x` ranked first.
    fn dominates(&self, x: Var, y: Var) -> bool {
        let (bx, by) = (self.info.def_block[x], self.info.def_block[y]);
        if bx == by {
            self.info.def_pos[x] <= self.info.def_pos[y]
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
        let (b, pos) = (self.info.def_block[a], self.info.def_pos[a]);
        if self.info.def_block[anc] == b && self.info.def_pos[anc] == pos {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::destruct::interference::fixtures;
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
        let (f, [a, b, c, d]) = fixtures::copies_of_one_value();
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
        let (f, [a, bb, p, q, r, s]) = fixtures::two_parallel_copies(["a", "a", "a", "b"]);
        let (mut webs, _) = coalesce(&f, f.insts.len(), &mut PassTimes::default());
        assert!(webs.same_web(p, q) && webs.same_web(p, a));
        assert!(webs.same_web(r, a));
        // `s` is dead, but written where `r` is: it cannot join `r`'s
        // class, so it stays with `b`.
        assert!(webs.same_web(s, bb) && !webs.same_web(s, r));
    }
}
