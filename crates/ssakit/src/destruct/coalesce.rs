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

use super::classes::{Classes, Point, NIL};
use super::phi_webs::Webs;
use crate::analysis::live_check::DefUse;
use crate::analysis::live_check::{inst_pos, PARAM_POS, PHI_POS};
use crate::analysis::{loop_depth, DomTree, LiveCheck};
use crate::entity::EntityVec;
use crate::ir::{Block, Cfg, Function, InstData, Operand, Var};
use crate::timing::PassTimes;
use crate::union_find::UnionFind;

/// What [`coalesce`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
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
/// [`rename_webs`](super::phi_webs::rename_webs), and records the phases
/// `dominators`, `loop depth`, `def-use` (one walk of the blocks for the
/// copies, the definitions and the def-use lists liveness questions start
/// from), `affinity` (ranks, values, phi components),
/// `phi classes` (steps 1 and 2 of the module doc) and `coalescing`
/// (step 3) in `times`.
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
    let depth = times.time("loop depth", || loop_depth(&cfg, &dt));
    let (g, mut live) = times.time("def-use", || {
        let (g, du) = Gathered::new(func, &dt, &depth, inserted_from);
        (g, LiveCheck::from_def_use(du, &cfg, &dt))
    });
    let mut stats = CoalesceStats::default();
    let (candidates, phi_pairs, info, groups) = times.time("affinity", || {
        let info = VarInfo::new(func, &dt, &g, &live);
        let candidates = sort_candidates(g.candidates);
        let groups = phi_components(nv, &info, &g.phi_pairs, &candidates);
        (candidates, g.phi_pairs, info, groups)
    });
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
    times.time("phi classes", || {
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
    });
    times.time("coalescing", || {
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
    });
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
    // Group the ranks of the failed components by web, keeping rank order:
    // `next[k]` chains the ranks of one web.
    let mut last: Vec<u32> = vec![NIL; nv];
    let mut first: Vec<u32> = Vec::new();
    let mut next: Vec<u32> = vec![NIL; info.pts.len()];
    for &(lo, hi) in failed {
        for &k in &ranks[lo as usize..hi as usize] {
            let w = webs.find(info.pts[k as usize].var.index());
            if last[w] == NIL {
                first.push(k);
            } else {
                next[last[w] as usize] = k;
            }
            last[w] = k;
        }
    }
    let mut members: Vec<u32> = Vec::new();
    for &f in &first {
        members.clear();
        let mut k = f;
        while k != NIL {
            members.push(k);
            k = next[k as usize];
        }
        let bad = classes.build(&members, cfg!(debug_assertions));
        debug_assert!(bad.is_none(), "a phi web interferes: {bad:?}");
    }
}

/// The ranked members of each phi component with two or more of them, in
/// CSR form, each sorted by rank.
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
    let root: Vec<u32> = info
        .pts
        .iter()
        .map(|p| sets.find(p.var.index()) as u32)
        .collect();
    drop(sets);
    // `count[r]`, then `group[r]` once the group is numbered (its high bit
    // set).
    let mut count = vec![0u32; nv];
    for &r in &root {
        count[r as usize] += 1;
    }
    const NUMBERED: u32 = 1 << 31;
    let mut start = vec![0u32];
    for &r in &root {
        let c = count[r as usize];
        if c >= 2 && c & NUMBERED == 0 {
            count[r as usize] = NUMBERED | (start.len() as u32 - 1);
            let s = *start.last().unwrap();
            start.push(s + c);
        }
    }
    let mut fill: Vec<u32> = start[..start.len() - 1].to_vec();
    let mut ranks = vec![0u32; *start.last().unwrap() as usize];
    let mut of_rank = root;
    for (k, r) in of_rank.iter_mut().enumerate() {
        let c = count[*r as usize];
        *r = NIL;
        if c & NUMBERED != 0 {
            let g = c & !NUMBERED;
            ranks[fill[g as usize] as usize] = k as u32;
            fill[g as usize] += 1;
            *r = g;
        }
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
    /// Its position in the block.
    pos: u32,
    /// [`NIL`]; or the variable it copies; or [`CONST`] and the index in
    /// [`Gathered::consts`] of the constant it copies.
    src: u32,
}

/// In [`Def::src`], the flag of a constant.
const CONST: u32 = 1 << 31;

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
        inserted_from: usize,
    ) -> (Gathered, DefUse) {
        let mut du = DefUse::new(func);
        let mut g = Gathered {
            candidates: Vec::new(),
            phi_pairs: Vec::new(),
            defs: Vec::new(),
            block_defs: vec![(0, 0, 0); func.blocks.len()],
            consts: Vec::new(),
        };
        for &b in &func.layout {
            let reachable = dt.is_reachable(b);
            if reachable {
                du.add_block(func, dt, b);
            }
            let data = &func.blocks[b];
            let start = g.defs.len() as u32;
            for &i in &data.phis {
                if let InstData::Phi { dst, args } = &func.insts[i] {
                    let vars = args.iter().filter_map(|a| a.value.var());
                    g.phi_pairs.extend(vars.map(|v| (*dst, v)));
                    if reachable {
                        g.defs.push(Def {
                            var: *dst,
                            pos: PHI_POS,
                            src: NIL,
                        });
                    }
                }
            }
            let nphis = g.defs.len() as u32 - start;
            for (k, &i) in data.insts.iter().enumerate() {
                let inst = &func.insts[i];
                let phi_related = i.index() >= inserted_from;
                let copy = |g: &mut Gathered, dst: Var, src: Operand| {
                    let src = match src {
                        Operand::Var(s) => {
                            g.candidates.push(Candidate {
                                dst,
                                src: s,
                                phi_related,
                                depth: depth[b],
                            });
                            s.0
                        }
                        Operand::Const(c) => {
                            g.consts.push((c, dst));
                            CONST | (g.consts.len() as u32 - 1)
                        }
                        Operand::Undef => NIL,
                    };
                    if reachable {
                        g.defs.push(Def {
                            var: dst,
                            pos: inst_pos(k),
                            src,
                        });
                    }
                };
                match inst {
                    InstData::Copy { dst, src } => copy(&mut g, *dst, *src),
                    InstData::ParCopy { copies } => {
                        for &(d, s) in copies {
                            copy(&mut g, d, s);
                        }
                    }
                    _ if reachable => inst.for_each_def(|d| {
                        g.defs.push(Def {
                            var: d,
                            pos: inst_pos(k),
                            src: NIL,
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
    /// By rank: the definition point and value (see [`Point`]).
    pts: Vec<Point>,
}

impl VarInfo {
    /// Ranks and values, in one walk of the dominator tree in preorder
    /// (which sees each definition before its uses): parameters, phis (used
    /// ones first), then instructions, block by block. The value of a copy
    /// is its source's; copies of one constant all get the value of the
    /// first variable (in index order) copying it; any other variable is
    /// its own value.
    fn new(func: &Function, dt: &DomTree, g: &Gathered, live: &LiveCheck) -> VarInfo {
        let nv = func.vars.len();
        let nb = func.blocks.len();
        let mut rank: EntityVec<Var, u32> = EntityVec::filled(nv, NIL);
        // By index in `g.consts`: the variable labelling its constant.
        let mut order: Vec<u32> = (0..g.consts.len() as u32).collect();
        order.sort_unstable_by_key(|&k| g.consts[k as usize]);
        let mut const_label = vec![Var(0); g.consts.len()];
        for run in order.chunk_by(|&a, &b| g.consts[a as usize].0 == g.consts[b as usize].0) {
            let label = g.consts[run[0] as usize].1;
            for &k in run {
                const_label[k as usize] = label;
            }
        }
        // By block preorder number: the first rank of the block.
        let mut first_rank: Vec<u32> = Vec::with_capacity(dt.num_reachable() + 1);
        let mut pts: Vec<Point> = Vec::with_capacity(g.defs.len() + func.params.len());
        let mut define = |pts: &mut Vec<Point>, d: Def, b: Block, used: bool| {
            let value = if d.src == NIL {
                d.var.0
            } else if d.src & CONST != 0 {
                const_label[(d.src & !CONST) as usize].0
            } else {
                match rank[Var(d.src)] {
                    NIL => d.src,
                    k => pts[k as usize].value,
                }
            };
            rank[d.var] = pts.len() as u32;
            pts.push(Point {
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
                for &p in &func.params {
                    let d = Def {
                        var: p,
                        pos: PARAM_POS,
                        src: NIL,
                    };
                    define(&mut pts, d, b, false);
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
    pts: &'a [Point],
    rank: &'a EntityVec<Var, u32>,
    dt: &'a DomTree,
    /// Full liveness, for functions of up to [`ORACLE_MAX_VARS`] variables
    /// (no checks above).
    live: Option<crate::analysis::Liveness>,
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
    /// stable sort by variable leaves each variable's uses sorted by block,
    /// then position; the last of each block is kept. Functions of more
    /// than 300 variables get no liveness (and no checks).
    fn new(func: &Function, info: &'a VarInfo, dt: &'a DomTree, cfg: &Cfg) -> Oracle<'a> {
        let nv = func.vars.len();
        let mut pairs: Vec<(Var, Block, u32)> = Vec::new();
        for b in func.blocks.keys() {
            if !dt.is_reachable(b) {
                continue;
            }
            let data = &func.blocks[b];
            for (k, &i) in data.insts.iter().enumerate() {
                func.insts[i].for_each_use(|v| pairs.push((v, b, inst_pos(k))));
            }
            if let Some(Operand::Var(v)) = data.term.operand() {
                pairs.push((v, b, inst_pos(data.insts.len())));
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
        let live = (nv <= ORACLE_MAX_VARS).then(|| crate::analysis::Liveness::new(func, cfg));
        Oracle {
            pts: &info.pts,
            rank: &info.rank,
            dt,
            live,
            use_start,
            uses,
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

    fn point(&self, v: Var) -> Point {
        self.pts[self.rank[v] as usize]
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
        let (b, pos) = (pa.block, pa.pos);
        if pn.block == b && pn.pos == pos {
            return pos != PHI_POS || self.live_after(a, b, pos) || self.live_after(anc, b, pos);
        }
        self.live_after(anc, b, pos)
    }

    /// Whether `v`, defined at or before position `pos` of block `b`, is
    /// live just after that position: live out of `b`, or read later in it.
    fn live_after(&self, v: Var, b: Block, pos: u32) -> bool {
        let live = self.live.as_ref().expect("an active oracle");
        live.is_live_out(b, v) || self.last_use(v, b).is_some_and(|p| p > pos)
    }
}

/// Small programs that the tests of class interference and of coalescing
/// share.
#[cfg(test)]
pub(super) mod fixtures {
    use crate::ir::{BinOp, Function, FunctionBuilder, InstData, Operand, Var};

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
        fb.print(vec![a.into(), b.into(), c.into(), d.into()]);
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
        fb.inst(InstData::ParCopy {
            copies: vec![(p, src[0]), (q, src[1])],
        });
        fb.inst(InstData::ParCopy {
            copies: vec![(r, src[2]), (s, src[3])],
        });
        fb.print(vec![p.into(), r.into()]);
        fb.ret(None);
        (fb.finish(), [a, b, p, q, r, s])
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures;
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

    /// The pairs of variables of `f` whose classes interfere with every
    /// variable alone in its class, as sorted pairs of names.
    fn interfering_pairs(f: &Function) -> Vec<(String, String)> {
        let cfg = Cfg::new(f);
        let dt = DomTree::new(&cfg);
        let depth = loop_depth(&cfg, &dt);
        let (g, du) = Gathered::new(f, &dt, &depth, f.insts.len());
        let mut live = LiveCheck::from_def_use(du, &cfg, &dt);
        let info = VarInfo::new(f, &dt, &g, &live);
        let nv = f.vars.len();
        let mut classes = Classes::new(nv, &info.pts, info.rank.as_slice(), &mut live);
        let mut out = Vec::new();
        for a in 0..nv {
            for b in a + 1..nv {
                let (a, b) = (Var::new(a), Var::new(b));
                if classes.interferes(a, b) {
                    out.push((f.vars[a].name.to_string(), f.vars[b].name.to_string()));
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
