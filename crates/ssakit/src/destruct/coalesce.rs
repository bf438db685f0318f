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
//!   operands count at the end of the predecessor, as in
//!   [`Liveness`](crate::analysis::Liveness). Two
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
//! * **Phi components.** The phis and the copies inserted around them link
//!   variables; a *phi component* is a component of that relation. The
//!   classes after the phi-related copies are all tried lie inside phi
//!   components, and fill a whole component exactly when it is free of
//!   interference (then every test on the way succeeds, whatever the
//!   order).
//!
//! # The method
//!
//! The classes are dominance forests ([`classes`](super::classes)): the
//! members of a class sorted by dominance, with each member's nearest
//! ancestor in its class and its chain of ancestors with the same value,
//! and two classes are tested by Boissinot's walk over the smaller one,
//! looking into the bigger one only next to the smaller one's members.
//! Liveness is never built as sets: each question "is `b` live just after
//! the definition of `a`?" goes to [`LiveCheck`], which explores `b`'s
//! live range the first time it is asked about `b`.
//!
//! 1. **Phi components at once.** Each phi component is walked once in
//!    dominance order (Boissinot's walk over one set). If no two members
//!    interfere (the common case: SSA as construction makes it, before
//!    copy propagation), the component is one class, which is what trying
//!    its phi-related copies one by one would give.
//! 2. **The other phi components, copy by copy**: their phi webs become
//!    classes (each is free of interference), then their phi-related
//!    copies are tried in order.
//! 3. **The other copies**, in order.
//!
//! The decisions are exactly those of trying every copy in order against
//! the pairwise definition (the debug build checks them against it).
//!
//! Worked example, the lost copy after splitting the back edge: the phi
//! web is `{x2, u1, u2}`, with `u1 ← x1` at the end of `entry` and
//! `u2 ← x3` in the new block; the phi component adds `x1` and `x3`. The
//! walk in dominance order meets `x1`, `u1`, `x2`, `x3`, `u2`: at `x3`
//! (defined by `x3 = x2 + 1`), the nearest member above is `x2`, with
//! another value, and `x2` is live after it (the exit reads `x2`): the
//! component is not free. Its web becomes a class; trying `u2 ← x3`
//! (inner loop first) finds `x2` above `x3` again: the copy stays. Trying
//! `u1 ← x1`: `x1` is dead after the copy, `u1` carries its value, and
//! nothing of the web lives across its definition: one class, and
//! `x1 = 1` now writes the web's variable.
//!
//! # Order
//!
//! Copies are tried phi-related first (so conventional SSA coalesces back
//! to its phi webs and keeps no copy from phis), then by decreasing loop
//! depth of the block holding them (copies in inner loops run most often),
//! then in program order.
//!
//! No hashing, no recursion.

use super::classes::{Classes, DefPoint, NIL};
use super::phi_webs::Webs;
use super::to_cssa::Inserted;
use crate::analysis::live_check::DefUse;
use crate::analysis::{loop_depth, DomTree, LiveCheck};
use crate::entity::{Csr, EntityVec};
use crate::ir::{Block, Cfg, Function, InstData, Operand, Point, Var};
use crate::timing;
use crate::union_find::UnionFind;

/// What coalescing did (in [`DestructStats`](super::DestructStats)).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CoalesceStats {
    /// Variable-to-variable copies considered.
    pub candidates: usize,
    /// Copies whose two sides ended in one class (they become `x = x`).
    pub coalesced: usize,
    /// Copies whose two classes interfered when the copy was tried.
    pub refused: usize,
    /// Interference work: intersection tests, plus the steps of the
    /// dominance-forest walks between them.
    pub intersection_tests: usize,
}

/// Groups the variables of `func` into congruence classes: every phi web,
/// then, copy by copy, the classes of a copy's two sides when they do not
/// interfere (copies inserted around phis first, then by decreasing loop
/// depth, then in program order). Returns the classes as [`Webs`], ready for
/// [`rename_webs`](super::phi_webs::rename_webs), and times the phases
/// `dominators`, `loop depth`, `def-use` (one walk of the blocks for the
/// copies, the definitions and the def-use lists liveness questions start
/// from), `affinity` (ranks, values, phi components),
/// `phi classes` (steps 1 and 2 of the module doc) and `coalescing`
/// (step 3).
///
/// # Preconditions
/// `func` is valid SSA with the dominance property (what
/// [`verify`](crate::verify::verify) checks) and its phi webs are free of
/// interference, as after
/// [`insert_phi_copies`](super::to_cssa::insert_phi_copies). The
/// parallel copies marked in `inserted` are those that pass inserted,
/// tried first; pass an empty table when there are none.
pub(crate) fn coalesce(func: &Function, inserted: &Inserted) -> (Webs, CoalesceStats) {
    let nv = func.num_vars();
    let cfg = Cfg::new(func);
    let dt = {
        let _t = timing::phase("dominators");
        DomTree::new(&cfg)
    };
    let depth = {
        let _t = timing::phase("loop depth");
        loop_depth(&cfg, &dt)
    };
    let (g, mut live) = {
        let _t = timing::phase("def-use");
        let (g, du) = Gathered::new(func, &dt, &depth, inserted);
        (g, LiveCheck::from_def_use(du, &cfg, &dt))
    };
    let mut stats = CoalesceStats::default();
    let (candidates, phi_pairs, info, groups) = {
        let _t = timing::phase("affinity");
        let info = VarInfo::new(func, &dt, &g, &live);
        let candidates = sort_candidates(g.candidates);
        let groups = phi_components(nv, &info, &g.phi_pairs, &candidates);
        (candidates, g.phi_pairs, info, groups)
    };
    stats.candidates = candidates.len();
    #[cfg(debug_assertions)]
    let oracle = Oracle::new(func, &info, &dt, &cfg);
    let mut classes = Classes::new(nv, &info.pts, info.rank.as_slice(), &mut live);
    let phi_related = candidates.iter().take_while(|c| c.phi_related).count();
    // By variable, once a phi component has failed: whether it is in one.
    let mut in_failed: Vec<bool> = Vec::new();
    // Whether `x` and `y`, of one phi component, are in one class after
    // step 1 (both ranked, the component found free).
    let settled = |in_failed: &[bool], x: Var, y: Var| {
        info.rank[x] != NIL && info.rank[y] != NIL && !in_failed.get(x.index()).unwrap_or(&false)
    };
    {
        let _t = timing::phase("phi classes");
        // Step 1: each phi component at once, if free of interference.
        let mut failed: Vec<(u32, u32)> = Vec::new();
        let found = classes.build_all(&groups.start, &groups.ranks, &groups.of_rank);
        for (g, pair) in found.into_iter().enumerate() {
            let (lo, hi) = (groups.start[g], groups.start[g + 1]);
            if let Some((_a, _b)) = pair {
                #[cfg(debug_assertions)]
                assert!(
                    !oracle.active() || oracle.interfere(&[_a], &[_b]),
                    "{_a} {_b}"
                );
                failed.push((lo, hi));
            } else {
                #[cfg(debug_assertions)]
                oracle.check_free(&groups.ranks[lo as usize..hi as usize]);
            }
        }
        // Step 2: the webs of the others, then their copies. A pair of
        // ranked variables of a component found free is settled already
        // (the variables without a reachable definition still join).
        build_webs(&mut classes, &info, &phi_pairs, &groups.ranks, &failed);
        in_failed.resize(if failed.is_empty() { 0 } else { nv }, false);
        for &(lo, hi) in &failed {
            for &k in &groups.ranks[lo as usize..hi as usize] {
                in_failed[info.pts[k as usize].var.index()] = true;
            }
        }
        let settled = |x: Var, y: Var| settled(&in_failed, x, y);
        for &(dst, v) in phi_pairs.iter().filter(|p| !settled(p.0, p.1)) {
            let (rx, ry) = (classes.root(dst), classes.root(v));
            if rx != ry {
                let bad = classes.interferes(rx, ry);
                debug_assert!(!bad, "a phi web interferes: {dst} {v}");
                classes.merge(rx, ry);
            }
        }
        for c in candidates[..phi_related]
            .iter()
            .filter(|c| !settled(c.dst, c.src))
        {
            try_copy(
                &mut classes,
                c,
                &mut stats,
                #[cfg(debug_assertions)]
                &oracle,
            );
        }
    }
    {
        let _t = timing::phase("coalescing");
        // Step 3: the other copies.
        for c in &candidates[phi_related..] {
            try_copy(
                &mut classes,
                c,
                &mut stats,
                #[cfg(debug_assertions)]
                &oracle,
            );
        }
        #[cfg(debug_assertions)]
        classes.check_forests(200);
        for (k, c) in candidates.iter().enumerate() {
            let phi_settled = k < phi_related && settled(&in_failed, c.dst, c.src);
            if phi_settled || classes.root(c.dst) == classes.root(c.src) {
                stats.coalesced += 1;
            }
        }
        stats.intersection_tests = classes.work;
    }
    (Webs::from_sets(classes.into_sets()), stats)
}

/// Tries copy `c`: merges the classes of its two sides unless they
/// interfere.
fn try_copy(
    classes: &mut Classes,
    c: &Candidate,
    stats: &mut CoalesceStats,
    #[cfg(debug_assertions)] oracle: &Oracle,
) {
    let (rx, ry) = (classes.root(c.dst), classes.root(c.src));
    if rx == ry {
        return;
    }
    let bad = classes.interferes(rx, ry);
    #[cfg(debug_assertions)]
    if oracle.active() {
        let (x, y) = (classes.members(rx), classes.members(ry));
        if x.len() + y.len() <= 48 {
            assert_eq!(bad, oracle.interfere(&x, &y), "{x:?} {y:?}");
        }
    }
    if bad {
        stats.refused += 1;
    } else {
        classes.merge(rx, ry);
    }
}

/// Step 2 for the phi components in `failed` (ranges of `ranks`, sorted):
/// each phi web's ranked members become one class.
fn build_webs(
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
struct Groups {
    start: Vec<u32>,
    ranks: Vec<u32>,
    /// By rank: its group, or [`NIL`].
    of_rank: Vec<u32>,
}

/// The phi components (phi operands and phi-related copies link
/// variables), as [`Groups`].
fn phi_components(
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

/// A definition in a reachable block, and where its value comes from.
#[derive(Clone, Copy, Debug)]
struct Def {
    var: Var,
    /// Where it is defined.
    pos: Point,
    src: DefSource,
}

/// Where the value of a definition comes from.
#[derive(Clone, Copy, Debug)]
enum DefSource {
    /// It is a value of its own (not a copy, or a copy of `undef`).
    Own,
    /// A copy of this variable.
    Var(Var),
    /// A copy of the constant `Gathered::consts[k].0`, for this `k`.
    Const(u32),
}

/// What coalescing needs from the instructions, gathered in one walk of
/// the blocks in layout order (with the definitions and uses for
/// [`LiveCheck`], block by block while each is in cache).
struct Gathered {
    /// Every copy between two variables (ordinary copies and entries of
    /// parallel copies), in program order.
    candidates: Vec<Candidate>,
    /// `(dst, v)` for every variable operand `v` of every phi `dst`.
    phi_pairs: Vec<(Var, Var)>,
    /// The definitions of the reachable blocks, block by block: phis,
    /// then instructions.
    defs: Vec<Def>,
    /// By block: its definitions in `defs` (start, number of phis, end).
    block_defs: Vec<(u32, u32, u32)>,
    /// `(c, d)`: variable `d` copies constant `c`.
    consts: Vec<(i64, Var)>,
}

impl Gathered {
    fn new(
        func: &Function,
        dt: &DomTree,
        depth: &EntityVec<Block, u32>,
        inserted: &Inserted,
    ) -> (Gathered, DefUse) {
        let mut du = DefUse::new(func);
        let mut g = Gathered {
            candidates: Vec::new(),
            phi_pairs: Vec::new(),
            defs: Vec::new(),
            block_defs: vec![(0, 0, 0); func.num_blocks()],
            consts: Vec::new(),
        };
        for &b in func.layout() {
            let reachable = dt.is_reachable(b);
            if reachable {
                du.add_block(func, dt, b);
            }
            let start = g.defs.len() as u32;
            for &i in func.block_phis(b) {
                if let InstData::Phi { dst, args } = func.inst(i) {
                    let vars = args.as_slice(func).iter().filter_map(|a| a.value.var());
                    g.phi_pairs.extend(vars.map(|v| (*dst, v)));
                    if reachable {
                        g.defs.push(Def {
                            var: *dst,
                            pos: Point::entry(b),
                            src: DefSource::Own,
                        });
                    }
                }
            }
            let nphis = g.defs.len() as u32 - start;
            for (k, &i) in func.block_insts(b).iter().enumerate() {
                let phi_related = inserted[i];
                let copy = |g: &mut Gathered, dst: Var, src: Operand| {
                    let src = match src {
                        Operand::Var(s) => {
                            g.candidates.push(Candidate {
                                dst,
                                src: s,
                                phi_related,
                                depth: depth[b],
                            });
                            DefSource::Var(s)
                        }
                        Operand::Const(c) => {
                            g.consts.push((c, dst));
                            DefSource::Const(g.consts.len() as u32 - 1)
                        }
                        Operand::Undef => DefSource::Own,
                    };
                    if reachable {
                        g.defs.push(Def {
                            var: dst,
                            pos: Point::after(b, k),
                            src,
                        });
                    }
                };
                match func.inst(i) {
                    InstData::Copy { dst, src } => copy(&mut g, *dst, *src),
                    InstData::ParCopy { copies } => {
                        for &(d, s) in copies.as_slice(func) {
                            copy(&mut g, d, s);
                        }
                    }
                    // Calls and operations may define several variables.
                    _ if reachable => func.for_each_def(i, |d| {
                        g.defs.push(Def {
                            var: d,
                            pos: Point::after(b, k),
                            src: DefSource::Own,
                        })
                    }),
                    _ => {}
                }
            }
            g.block_defs[b.index()] = (start, nphis, g.defs.len() as u32);
        }
        (g, du)
    }
}

/// The candidates in the order they are to be tried: a stable counting
/// sort (program order breaks ties) by the key `(not phi-related, maximum
/// depth - depth)`.
fn sort_candidates(out: Vec<Candidate>) -> Vec<Candidate> {
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

/// Definition points (as ranks) and values of the variables.
struct VarInfo {
    /// By variable: its rank, or [`NIL`] if it has no reachable
    /// definition (it never runs, so it interferes with nothing).
    rank: EntityVec<Var, u32>,
    /// By rank: the definition point and value (see [`DefPoint`]).
    pts: Vec<DefPoint>,
}

impl VarInfo {
    /// Ranks and values, in one walk of the dominator tree in preorder
    /// (which sees each definition before its uses): parameters, phis (used
    /// ones first), then instructions, block by block. The value of a copy
    /// is its source's; copies of one constant all get the value of the
    /// first variable (in index order) copying it; any other variable is
    /// its own value.
    fn new(func: &Function, dt: &DomTree, g: &Gathered, live: &LiveCheck) -> VarInfo {
        let nv = func.num_vars();
        let nb = func.num_blocks();
        let mut rank: EntityVec<Var, u32> = EntityVec::filled(nv, NIL);
        // By index in `g.consts`: the variable labelling its constant.
        let mut order: Vec<u32> = (0..g.consts.len() as u32).collect();
        order.sort_unstable_by_key(|&k| g.consts[k as usize]);
        let mut const_label = vec![Var::new(0); g.consts.len()];
        for run in order.chunk_by(|&a, &b| g.consts[a as usize].0 == g.consts[b as usize].0) {
            let label = g.consts[run[0] as usize].1;
            for &k in run {
                const_label[k as usize] = label;
            }
        }
        // By block preorder number: the first rank of the block.
        let mut first_rank: Vec<u32> = Vec::with_capacity(dt.num_reachable() + 1);
        let mut pts: Vec<DefPoint> = Vec::with_capacity(g.defs.len() + func.params().len());
        let mut define = |pts: &mut Vec<DefPoint>, d: Def, b: Block, used: bool| {
            let value = match d.src {
                DefSource::Own => d.var.as_u32(),
                DefSource::Const(k) => const_label[k as usize].as_u32(),
                DefSource::Var(s) => match rank[s] {
                    NIL => s.as_u32(),
                    k => pts[k as usize].value,
                },
            };
            rank[d.var] = pts.len() as u32;
            pts.push(DefPoint {
                var: d.var,
                block: b,
                pos: d.pos,
                end: 0,
                value,
                used,
            });
        };
        for b in dt.preorder() {
            first_rank.push(pts.len() as u32);
            if b == func.entry() {
                // Parameters are defined at the entry, like its phis, and
                // count as used: two of them always intersect.
                for &p in func.params() {
                    let d = Def {
                        var: p,
                        pos: Point::entry(b),
                        src: DefSource::Own,
                    };
                    define(&mut pts, d, b, true);
                }
            }
            let (start, nphis, end) = g.block_defs[b.index()];
            let (phis, rest) = g.defs[start as usize..end as usize].split_at(nphis as usize);
            for used in [true, false] {
                for &d in phis {
                    if live.is_used(d.var) == used {
                        define(&mut pts, d, b, used);
                    }
                }
            }
            for &d in rest {
                define(&mut pts, d, b, false);
            }
        }
        first_rank.push(pts.len() as u32);
        // Subtree sizes, children before parents, then each point's end.
        let mut size = vec![1u32; nb];
        for b in dt.preorder().rev() {
            if let Some(p) = dt.idom(b) {
                size[p.index()] += size[b.index()];
            }
        }
        for p in &mut pts {
            let pre = dt.pre_number(p.block).expect("reachable") as usize;
            p.end = first_rank[pre + size[p.block.index()] as usize] - 1;
        }
        VarInfo { rank, pts }
    }
}

/// Functions with more variables are not checked against the [`Oracle`].
#[cfg(debug_assertions)]
const ORACLE_MAX_VARS: usize = 20_000;

/// The definition of interference, pair by pair, from full liveness sets:
/// the oracle of the class tests in debug builds.
#[cfg(debug_assertions)]
struct Oracle<'a> {
    pts: &'a [DefPoint],
    rank: &'a EntityVec<Var, u32>,
    dt: &'a DomTree,
    /// Full liveness, for functions of up to [`ORACLE_MAX_VARS`] variables
    /// (no checks above).
    live: Option<crate::analysis::Liveness>,
    /// By variable: the points where it is read in reachable blocks,
    /// sorted by block, then position. Phi operands are not included
    /// (they are uses at the end of the predecessor, which liveness
    /// accounts for).
    uses: Csr<Var, Point>,
    /// The parameters (independent of the code under test).
    params: Vec<Var>,
}

#[cfg(debug_assertions)]
impl<'a> Oracle<'a> {
    /// Gathers the uses: blocks are scanned in index order, so each
    /// variable's uses come sorted by block, then position. Functions of
    /// more than [`ORACLE_MAX_VARS`] variables get no liveness (and no
    /// checks).
    fn new(func: &Function, info: &'a VarInfo, dt: &'a DomTree, cfg: &Cfg) -> Oracle<'a> {
        let nv = func.num_vars();
        let uses = Csr::build(nv, |emit| {
            for b in func.blocks().filter(|&b| dt.is_reachable(b)) {
                let insts = func.block_insts(b);
                for (k, &i) in insts.iter().enumerate() {
                    func.for_each_use(i, |v| emit.push(v, Point::before(b, k)));
                }
                func.for_each_term_use(b, |v| emit.push(v, Point::before(b, insts.len())));
            }
        });
        let live = (nv <= ORACLE_MAX_VARS).then(|| crate::analysis::Liveness::new(func, cfg));
        Oracle {
            pts: &info.pts,
            rank: &info.rank,
            dt,
            live,
            uses,
            params: func.params().to_vec(),
        }
    }

    /// Whether the oracle checks anything (small functions).
    fn active(&self) -> bool {
        self.live.is_some()
    }

    /// Debug builds: no two members of a component found free interfere
    /// (components of up to 48 members).
    fn check_free(&self, members: &[u32]) {
        if !self.active() || members.len() > 48 {
            return;
        }
        let vars: Vec<Var> = members.iter().map(|&k| self.pts[k as usize].var).collect();
        for (k, &x) in vars.iter().enumerate() {
            assert!(!self.interfere(&[x], &vars[k + 1..]), "{vars:?}");
        }
    }

    /// Whether some member of `red` interferes with some member of `blue`.
    ///
    /// # Panics
    /// If the oracle is not [`Oracle::active`].
    fn interfere(&self, red: &[Var], blue: &[Var]) -> bool {
        red.iter().any(|&x| {
            blue.iter().any(|&y| {
                let (rx, ry) = (self.rank[x], self.rank[y]);
                if rx == NIL || ry == NIL {
                    return false;
                }
                let (anc, a) = if rx < ry { (x, y) } else { (y, x) };
                let (pa, pn) = (self.point(a), self.point(anc));
                pa.value != pn.value && self.dominates(anc, a) && self.intersect(a, anc)
            })
        })
    }

    fn point(&self, v: Var) -> DefPoint {
        self.pts[self.rank[v] as usize]
    }

    /// The last point where `v` is read in block `b`, if any.
    fn last_use(&self, v: Var, b: Block) -> Option<Point> {
        let uses = self.uses.of(v);
        let after = uses.partition_point(|u| u.block() <= b);
        (after > 0 && uses[after - 1].block() == b).then(|| uses[after - 1])
    }

    /// Whether the definition point of `x` dominates that of `y`, for
    /// ranked variables with `x` ranked first.
    fn dominates(&self, x: Var, y: Var) -> bool {
        let (px, py) = (self.point(x), self.point(y));
        if px.block == py.block {
            px.pos <= py.pos
        } else {
            self.dt.dominates(px.block, py.block)
        }
    }

    /// Whether the live ranges of `a` and of `anc` intersect, where the
    /// definition of `anc` dominates that of `a`: `anc` is live just after
    /// `a` is defined. Two phis of one block intersect when either is live
    /// after the phis; two parameters, or two destinations of one parallel
    /// copy, always do.
    fn intersect(&self, a: Var, anc: Var) -> bool {
        let (pa, pn) = (self.point(a), self.point(anc));
        let at = pa.pos;
        if pn.pos == at {
            let params = self.is_param(a) || self.is_param(anc);
            return !at.is_entry() || params || self.live_after(a, at) || self.live_after(anc, at);
        }
        self.live_after(anc, at)
    }

    /// Whether `v` is a parameter.
    fn is_param(&self, v: Var) -> bool {
        self.params.contains(&v)
    }

    /// Whether `v`, defined at or before `at`, is live just after it: live
    /// out of its block, or read later in it.
    fn live_after(&self, v: Var, at: Point) -> bool {
        let live = self.live.as_ref().expect("an active oracle");
        live.is_live_out(at.block(), v) || self.last_use(v, at.block()).is_some_and(|p| p > at)
    }
}

/// Small programs that the tests of class interference and of coalescing
/// share.
#[cfg(test)]
pub(super) mod fixtures {
    use crate::ir::{BinOp, Function, FunctionBuilder, Operand, Var};

    /// `e(a): b = a; c = a; d = a + 1; print a, b, c, d; ret`, with
    /// `[a, b, c, d]`.
    pub fn copies_of_one_value() -> (Function, [Var; 4]) {
        let mut fb = FunctionBuilder::new("f");
        let a = fb.param("a");
        let e = fb.block("e");
        let (b, c, d) = (fb.var("b"), fb.var("c"), fb.var("d"));
        fb.switch_to(e);
        fb.copy(b, a.into());
        fb.copy(c, a.into());
        fb.binary(d, BinOp::Add, a.into(), Operand::Const(1));
        fb.print(&[a.into(), b.into(), c.into(), d.into()]);
        fb.ret(None);
        (fb.finish(), [a, b, c, d])
    }

    /// `e(a, b): (p, q) = (P, Q); (r, s) = (R, S); print p, r; ret` with
    /// `sources` the parameter names `[P, Q, R, S]`, each `"a"` or `"b"`;
    /// with `[a, b, p, q, r, s]`.
    pub fn two_parallel_copies(sources: [&str; 4]) -> (Function, [Var; 6]) {
        let mut fb = FunctionBuilder::new("f");
        let (a, b) = (fb.param("a"), fb.param("b"));
        let e = fb.block("e");
        let (p, q, r, s) = (fb.var("p"), fb.var("q"), fb.var("r"), fb.var("s"));
        fb.switch_to(e);
        let src = sources.map(|name| match name {
            "a" => Operand::Var(a),
            "b" => Operand::Var(b),
            _ => panic!("no parameter {name}"),
        });
        fb.par_copy(&[(p, src[0]), (q, src[1])]);
        fb.par_copy(&[(r, src[2]), (s, src[3])]);
        fb.print(&[p.into(), r.into()]);
        fb.ret(None);
        (fb.finish(), [a, b, p, q, r, s])
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures;
    use super::*;
    use crate::destruct::to_cssa::{insert_phi_copies, JoinCopies};
    use crate::entity::SecondaryMap;

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
        let src = "function f(n) {
entry:
    x1 = 1
    jump loop
loop:
    x2 = phi(entry: x1, loop: x3)
    x3 = x2 + 1
    c = x3 < n
    branch c, loop, exit
exit:
    ret x2
}
";
        let mut f = crate::text::parse_module(src)
            .unwrap()
            .functions
            .swap_remove(0);
        let var = |name: &str| f.var_by_name(name).unwrap();
        let (x1, x2, x3) = (var("x1"), var("x2"), var("x3"));
        let (cssa, inserted) = insert_phi_copies(&mut f, JoinCopies::WhenNeeded);
        assert_eq!(cssa.copies, 3);
        let (mut webs, stats) = coalesce(&f, &inserted);
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
        let (mut webs, stats) = coalesce(&f, &SecondaryMap::new(false));
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
        let (mut webs, _) = coalesce(&f, &SecondaryMap::new(false));
        assert!(webs.same_web(p, q) && webs.same_web(p, a));
        assert!(webs.same_web(r, a));
        // `s` is dead, but written where `r` is: it cannot join `r`'s
        // class, so it stays with `b`.
        assert!(webs.same_web(s, bb) && !webs.same_web(s, r));
    }

    /// The pairs of variables of `f` whose classes interfere with every
    /// variable alone in its class, as sorted pairs of names.
    fn interfering_pairs(f: &Function) -> Vec<(String, String)> {
        let cfg = Cfg::new(f);
        let dt = DomTree::new(&cfg);
        let depth = loop_depth(&cfg, &dt);
        let (g, du) = Gathered::new(f, &dt, &depth, &SecondaryMap::new(false));
        let mut live = LiveCheck::from_def_use(du, &cfg, &dt);
        let info = VarInfo::new(f, &dt, &g, &live);
        let nv = f.num_vars();
        let mut classes = Classes::new(nv, &info.pts, info.rank.as_slice(), &mut live);
        let mut out = Vec::new();
        for a in 0..nv {
            for b in a + 1..nv {
                let (a, b) = (Var::new(a), Var::new(b));
                if classes.interferes(a, b) {
                    out.push((f.base_name(a).to_string(), f.base_name(b).to_string()));
                }
            }
        }
        out.sort();
        out
    }

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|&(a, b)| (a.into(), b.into())).collect()
    }

    /// ```text
    /// e(a, b): (p, q) = (a, b); (r, s) = (a, a); print p, r; ret
    /// ```
    ///
    /// Parameters always intersect (`a — b`). `p` and `q` are written by
    /// one parallel copy with different values, so intersect though `q`
    /// is dead; `q` also meets `a`, read later. `r` and `s` copy one value:
    /// no interference, nor with `a` or `p`, whatever their liveness.
    #[test]
    fn parallel_copy_destinations_and_parameters() {
        let (f, _) = fixtures::two_parallel_copies(["a", "b", "a", "a"]);
        assert_eq!(
            interfering_pairs(&f),
            pairs(&[("a", "b"), ("a", "q"), ("p", "q")])
        );
    }

    /// Only `x` is live after the phis: it meets `y` and `z`, which,
    /// both dead, do not meet each other. The operands are used at the
    /// ends of `l` and `r`, not in `j`.
    #[test]
    fn phis_intersect_when_either_is_live() {
        let src = "function f(a, b, c) {
e:
    branch c, l, r
l:
    jump j
r:
    jump j
j:
    x = phi(l: a, r: b)
    y = phi(l: b, r: a)
    z = phi(l: a, r: a)
    print x
    ret
}
";
        let m = crate::text::parse_module(src).unwrap();
        assert_eq!(
            interfering_pairs(&m.functions[0]),
            pairs(&[("a", "b"), ("a", "c"), ("b", "c"), ("x", "y"), ("x", "z")])
        );
    }

    /// ```text
    /// e(a): b = a; c = a; d = a + 1; print a, b, c, d; ret
    /// ```
    ///
    /// `a`, `b`, `c` are live together with one value: they do not
    /// interfere; `d` meets all three.
    #[test]
    fn live_copies_of_one_value() {
        let (f, _) = fixtures::copies_of_one_value();
        assert_eq!(
            interfering_pairs(&f),
            pairs(&[("a", "d"), ("b", "d"), ("c", "d")])
        );
    }
}
