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
//! With the copies around phis virtual ([`coalesce_virtual`]), a phi
//! component that interferes stops the run after step 1: its phis get
//! Method I's copies, and [`coalesce_again`] runs steps 1 to 3 on the
//! result. It does not ask again the questions of the components the
//! first run found free (their verdict holds, see [`Retry`]), and when
//! the function has no copy but those around phis (step 3 has nothing to
//! try) it gathers, ranks and tests only the variables of the failing
//! components, walking only the blocks where those appear (or their
//! copies go), the free components keeping the first run's classes (see
//! [`Known`]). Its classes and statistics are those of a full run.
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
//!//!
//! # Modules
//!
//! * [`facts`]: the copies, definitions, values and ranks, gathered in
//!   one walk of the blocks and one of the dominator tree;
//! * [`components`]: the phi components and the classes of their phi
//!   webs (steps 1 and 2);
//! * `oracle`: the debug check of every decision against the pairwise
//!   definition, which the coalescer holds as a [`DebugCheck`] (empty in
//!   release builds);
//! * the classes themselves, their dominance-forest walk and run sets,
//!   are [`classes`](super::classes).
//!
//! No hashing, no recursion.

mod components;
pub(super) mod facts;
mod oracle;

use crate::analysis::live_check::ByBlock;
use crate::analysis::{loop_depth, DomTree, LiveCheck};
use crate::destruct::classes::{Classes, NIL};
use crate::destruct::phi_webs::Webs;
use crate::destruct::to_cssa::Inserted;
use crate::entity::EntityVec;
use crate::ir::Block;
use crate::ir::{Cfg, Function, InstData, Var};
use crate::timing;
use crate::union_find::UnionFind;
use components::{build_webs, known_free, phi_components, Groups};
use facts::{sort_candidates, Candidate, Gathered, Values, VarInfo};
use oracle::DebugCheck;

/// What coalescing did (in [`DestructStats`](super::DestructStats)).
///
/// # Example
///
/// ```
/// use ssakit::destruct::{destruct, DestructOptions};
/// // The lost-copy problem: `x2` is live out of the loop where `x3` is
/// // copied into the phi's class, so one copy must stay.
/// const SRC: &str = "function f(n) {
/// entry:
///     x1 = 1
///     jump loop
/// loop:
///     x2 = phi(entry: x1, loop: x3)
///     x3 = x2 + 1
///     c = x3 < n
///     branch c, loop, exit
/// exit:
///     ret x2
/// }
/// ";
/// let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// let c = destruct(&mut f, &DestructOptions::default()).unwrap().coalescing;
/// assert_eq!(c.candidates, c.coalesced + c.refused);
/// assert_eq!(c.refused, 1);
/// ```
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
    coalesced(run(func, inserted, false, Given::Nothing))
}

/// [`coalesce`] after [`coalesce_virtual`] found a phi component that
/// interferes and the copies of those components' phis were
/// materialized: takes what the first run knew ([`Retry`]), so the
/// control-flow facts are not computed twice and the phi components the
/// first run found free are not tested again.
///
/// # Preconditions
/// Those of [`coalesce`]; `func` is the function of the first run with
/// Method I's copies added for the phis [`Retry::failed`] marks, nothing
/// else changed.
pub(crate) fn coalesce_again(
    func: &Function,
    inserted: &Inserted,
    retry: Retry,
) -> (Webs, CoalesceStats) {
    match retry.known {
        Some(known) => coalesced(rerun(func, inserted, retry.flow, &retry.failed, *known)),
        None => {
            let retry = Retry {
                known: None,
                ..retry
            };
            coalesced(run(func, inserted, false, Given::Retry(retry)))
        }
    }
}

/// The classes of a run of Method I coalescing, which never stops at
/// step 1.
fn coalesced(v: Virtual) -> (Webs, CoalesceStats) {
    match v {
        Virtual::Coalesced(webs, stats) => (webs, stats),
        Virtual::Interfering(..) => unreachable!("Method I coalescing never stops at step 1"),
    }
}

/// The control-flow facts coalescing asks of a function: its graph,
/// dominator tree and loop depths. They depend on the blocks and their
/// terminators only, so they stay true while copies are inserted.
pub(crate) struct Flow {
    cfg: Cfg,
    dt: DomTree,
    depth: EntityVec<Block, u32>,
}

impl Flow {
    /// The facts of `func`, each timed as its phase (`dominators`, `loop
    /// depth`).
    fn new(func: &Function) -> Flow {
        let cfg = Cfg::new(func);
        let dt = {
            let _t = timing::phase("dominators");
            DomTree::new(&cfg)
        };
        Flow::with_graph(cfg, dt)
    }

    /// The facts from the graph and dominator tree of the function, built
    /// already (by the verifier, say): only the loop depths are computed
    /// (timed as `loop depth`).
    fn with_graph(cfg: Cfg, dt: DomTree) -> Flow {
        let depth = {
            let _t = timing::phase("loop depth");
            loop_depth(&cfg, &dt)
        };
        Flow { cfg, dt, depth }
    }
}

/// What [`coalesce_virtual`] found.
pub(crate) enum Virtual {
    /// Every phi component is free of interference: the classes (the
    /// copies around phis were never needed) and what coalescing did.
    Coalesced(Webs, CoalesceStats),
    /// Some phi component interferes: its phis need Method I's copies
    /// materialized, and [`coalesce_again`] runs again, given this.
    Interfering(Box<Retry>),
}

/// What a run of [`coalesce_virtual`] that found a phi component
/// interfering knows, for [`coalesce_again`].
///
/// Why a component found free stays free, untested, after the copies
/// are materialized: those copies link only variables of the components
/// that interfere (an operand or the destination of their phis, and fresh
/// variables), so the other components keep their members; the uses and
/// definitions of those members do not move relative to one another
/// (copies add instructions, never blocks); and values keep their
/// partition (a fresh copy carries its source's value; the join copy
/// `a0 ← a0'` gives `a0`, and what copies it, the value `a0'`, which no
/// other variable had). So each intersection test of such a component
/// has the answer it had.
pub(crate) struct Retry {
    flow: Flow,
    /// By variable of the first run: whether it lies in a phi component
    /// that is not free.
    failed: Vec<bool>,
    /// What the second run can take as settled, when it can be confined
    /// to those components.
    known: Option<Box<Known>>,
}

impl Retry {
    /// By variable of the first run: whether its phi needs Method I's
    /// copies (it lies in a phi component that is not free).
    pub(crate) fn failed(&self) -> &[bool] {
        &self.failed
    }

    /// The graph and dominator tree the first run was given or built,
    /// for a caller that changes the blocks and runs again from the start.
    pub(crate) fn into_graph(self) -> (Cfg, DomTree) {
        (self.flow.cfg, self.flow.dt)
    }
}

/// [`coalesce`] with the copies around phis *virtual* (Boissinot et al.,
/// CGO 2009, section IV-C): `func` has its phis without Method I's copies
/// (but with the copies of constant operands, which are always needed),
/// each phi's destination and operands standing for the fresh variables of
/// those copies. Step 1 tests each phi component as it is; when all are
/// free of interference, the copies were never needed, and the rest of
/// coalescing goes on with those classes ([`Virtual::Coalesced`]).
/// Otherwise returns, by variable, which variables lie in a component that
/// is not free ([`Virtual::Interfering`]): their phis need their copies
/// materialized, and [`coalesce`] runs again.
///
/// Why the verdict of step 1 is the same as with Method I's copies: a
/// fresh `ai'` carries `ai`'s value and lives from the end of `Bi` to the
/// edge, where `ai`, read by the phi, lives too; a fresh `a0'` carries
/// the phi's value and lives from the phis to the join copy, where `a0`
/// lives in the virtual program. So each member of a component with its
/// copies is live only where its virtual stand-in is, with the same value,
/// and the live ranges of a stand-in are the union of its own and its
/// copy's: one component is free exactly when the other is.
///
/// # Preconditions
/// Those of [`coalesce`], but the phi webs may interfere.
///
/// `graph`, when given, is the control-flow graph and dominator tree of
/// `func` as it is; they are built otherwise.
pub(crate) fn coalesce_virtual(
    func: &Function,
    inserted: &Inserted,
    graph: Option<(Cfg, DomTree)>,
) -> Virtual {
    let flow = match graph {
        Some((cfg, dt)) => Given::Graph(cfg, dt),
        None => Given::Nothing,
    };
    run(func, inserted, true, flow)
}

/// The control-flow facts [`run`] is given, if any.
enum Given {
    /// None: [`run`] computes them (if it needs them).
    Nothing,
    /// The graph and the dominator tree; [`run`] adds the loop depths.
    Graph(Cfg, DomTree),
    /// All of them, and which variables lay in phi components that were
    /// not free, from an earlier run.
    Retry(Retry),
}

/// [`coalesce`] and [`coalesce_virtual`]: with `virtual_copies`, stops
/// after step 1 if a phi component is not free; with `flow`, takes those
/// facts instead of computing them.
fn run(func: &Function, inserted: &Inserted, virtual_copies: bool, flow: Given) -> Virtual {
    let nv = func.num_vars();
    if !has_affinities(func) {
        // No phi and no copy: nothing to try, every variable alone.
        let sets = crate::union_find::UnionFind::new(nv);
        return Virtual::Coalesced(Webs::from_sets(sets), CoalesceStats::default());
    }
    // By variable of an earlier run (empty if none): whether it lay in a
    // phi component that was not free.
    let (flow, failed_before) = match flow {
        Given::Nothing => (Flow::new(func), Vec::new()),
        Given::Graph(cfg, dt) => (Flow::with_graph(cfg, dt), Vec::new()),
        Given::Retry(retry) => (retry.flow, retry.failed),
    };
    debug_assert_eq!(flow.depth.len(), func.num_blocks());
    let (cfg, dt, depth) = (&flow.cfg, &flow.dt, &flow.depth);
    let (g, mut live) = {
        let _t = timing::phase("def-use");
        let (g, du) = Gathered::new(func, cfg, dt, depth, inserted, |_| true, None);
        (g, LiveCheck::from_def_use(du, cfg, dt))
    };
    let mut stats = CoalesceStats::default();
    let (candidates, phi_pairs, info, groups) = {
        let _t = timing::phase("affinity");
        let info = VarInfo::new(func, dt, &g, &live, None);
        let candidates = sort_candidates(g.candidates);
        let groups = phi_components(nv, &info, &g.phi_pairs, &candidates);
        (candidates, g.phi_pairs, info, groups)
    };
    stats.candidates = candidates.len();
    let check = DebugCheck::new(func, &info, dt, cfg);
    let mut classes = Classes::new(nv, &info.pts, info.rank.as_slice(), &mut live);
    let phi_related = candidates.iter().take_while(|c| c.phi_related).count();
    let in_failed = {
        let _t = timing::phase("phi classes");
        // Step 1: each phi component at once, if free of interference.
        let free = known_free(&groups, &info, &failed_before);
        drop(failed_before);
        let found = classes.build_all(&groups.start, &groups.ranks, &groups.of_rank, &free);
        let (failed, free_work) = (failed_components(found.0, &groups, &check), found.1);
        let in_failed = ranked_members(nv, &info, &groups.ranks, &failed);
        if virtual_copies && !failed.is_empty() {
            // The variables of phi operands are ranked (so are those of
            // the copies materialized for them) and step 3 has nothing
            // to try: the second run can leave the free components as
            // they are (see `Known`).
            let ranked = |&(dst, v): &(Var, Var)| info.rank[dst] != NIL && info.rank[v] != NIL;
            let known = if candidates.is_empty() && phi_pairs.iter().all(ranked) {
                let sets = classes.into_sets();
                let walk = blocks_to_gather(func, dt, &live, &in_failed);
                Some(Box::new(Known {
                    values: info.values(),
                    sets,
                    free_work,
                    walk,
                    by_block: live.into_blocks(),
                }))
            } else {
                None
            };
            return Virtual::Interfering(Box::new(Retry {
                flow,
                failed: in_failed,
                known,
            }));
        }
        let steps = Steps {
            info: &info,
            phi_pairs: &phi_pairs,
            candidates: &candidates[..phi_related],
            check: &check,
        };
        steps.step_two(&mut classes, &groups, &failed, &in_failed, &mut stats);
        in_failed
    };
    {
        let _t = timing::phase("coalescing");
        // Step 3: the other copies.
        for c in &candidates[phi_related..] {
            try_copy(&mut classes, c, &mut stats, &check);
        }
        check.forests(&mut classes, 200);
        stats.coalesced =
            count_coalesced(&mut classes, &info, &candidates, phi_related, &in_failed);
        stats.intersection_tests = classes.work;
    }
    Virtual::Coalesced(Webs::from_sets(classes.into_sets()), stats)
}

/// [`coalesce_again`] when the first run left [`Known`]: coalescing
/// confined to the variables of the failing phi components (marked in
/// `failed`, or made since). Only their definitions, uses, copies and
/// phi operands are gathered and ranked (in the order of the whole
/// function's ranks: dominance is decided alike), and they take the values
/// the first run gave (renamed consistently, see [`Known`]). Their
/// components go through steps 1 and 2 as in [`run`], asking the same
/// questions in the same order, on top of the first run's classes, where
/// they are alone (the free components are classes there, never tested
/// again); step 3 has nothing to try. So the classes and the statistics
/// are [`run`]'s.
fn rerun(
    func: &Function,
    inserted: &Inserted,
    flow: Flow,
    failed: &[bool],
    known: Known,
) -> Virtual {
    let nv = func.num_vars();
    let keep = |v: Var| failed.get(v.index()).is_none_or(|&f| f);
    let (cfg, dt, depth) = (&flow.cfg, &flow.dt, &flow.depth);
    let (g, mut live) = {
        let _t = timing::phase("def-use");
        let gathered = Gathered::new(func, cfg, dt, depth, inserted, keep, Some(&known.walk));
        #[cfg(debug_assertions)]
        {
            let all = Gathered::new(func, cfg, dt, depth, inserted, keep, None);
            let same = facts::same_but_constants(&gathered, &all);
            debug_assert!(same, "rerun: the blocks to walk miss a variable kept");
        }
        let (g, du) = gathered;
        (g, LiveCheck::with_blocks(du, known.by_block))
    };
    let mut stats = CoalesceStats::default();
    let (candidates, phi_pairs, info, groups) = {
        let _t = timing::phase("affinity");
        let values = values_after_copies(func, inserted, known.values);
        let given = Values {
            values: &values,
            keep: &keep,
        };
        let info = VarInfo::new(func, dt, &g, &live, Some(given));
        let candidates = sort_candidates(g.candidates);
        let groups = phi_components(nv, &info, &g.phi_pairs, &candidates);
        (candidates, g.phi_pairs, info, groups)
    };
    debug_assert!(candidates.iter().all(|c| c.phi_related));
    stats.candidates = candidates.len();
    let check = DebugCheck::new(func, &info, dt, cfg);
    // The free components are classes already; the variables of the
    // failing ones, and those made since, are alone.
    let mut sets = known.sets;
    sets.grow(nv);
    let mut classes = Classes::with_sets(sets, &info.pts, info.rank.as_slice(), &mut live);
    let in_failed = {
        let _t = timing::phase("phi classes");
        let found = classes.build_all(&groups.start, &groups.ranks, &groups.of_rank, &[]);
        let failed = failed_components(found.0, &groups, &check);
        let in_failed = ranked_members(nv, &info, &groups.ranks, &failed);
        let steps = Steps {
            info: &info,
            phi_pairs: &phi_pairs,
            candidates: &candidates,
            check: &check,
        };
        steps.step_two(&mut classes, &groups, &failed, &in_failed, &mut stats);
        in_failed
    };
    {
        let _t = timing::phase("coalescing");
        let n = candidates.len();
        stats.coalesced = count_coalesced(&mut classes, &info, &candidates, n, &in_failed);
        stats.intersection_tests = classes.work + known.free_work;
    }
    Virtual::Coalesced(Webs::from_sets(classes.into_sets()), stats)
}

/// What [`rerun`] takes from the first run besides the control-flow
/// facts, when the function had no copy but those around phis (step 3
/// tries nothing) and every variable of a phi operand or destination has
/// a reachable definition.
///
/// Then the classes of the free components are final after step 1 (no
/// copy of step 3 can merge them with anything), and each is one class
/// of the first run's sets. The values: a copy `ai' ← ai` materialized
/// takes `ai`'s value, and a join copy `a0 ← a0'` makes the value of `a0`
/// (a phi's, so `a0` itself) that of `a0'`; giving `a0'` the label `a0`
/// instead renames that value, which no other variable carries, so the
/// values stay equal exactly where they were.
pub(crate) struct Known {
    /// By variable of the first run: its value.
    values: Vec<u32>,
    /// The classes after step 1 of the first run: each free phi component
    /// one class, every other variable alone.
    sets: UnionFind,
    /// The intersection tests of the free components in step 1.
    free_work: usize,
    /// By block: whether [`rerun`] gathers it (see [`blocks_to_gather`]).
    walk: Vec<bool>,
    /// The first run's liveness tables by block (the blocks, graph and
    /// dominator tree are the same).
    by_block: ByBlock,
}

/// By block: those where a variable of a failing phi component
/// (`failed`, by variable) was defined or read in the first run (by
/// `live`, built from every variable), the blocks of the failing phis and
/// their predecessors (where their copies go), and the unreachable blocks
/// (whose copies and phis are gathered all the same). The other blocks
/// hold no definition, use, phi or copy of a variable [`rerun`] keeps:
/// the copies materialized make new variables only in the blocks of
/// their phis and in the predecessors, and move no use of an old one to
/// another block. Only their constant copies are missed, whose values
/// [`rerun`] does not compute (it is given them).
fn blocks_to_gather(func: &Function, dt: &DomTree, live: &LiveCheck, failed: &[bool]) -> Vec<bool> {
    let mut walk: Vec<bool> = func.blocks().map(|b| !dt.is_reachable(b)).collect();
    for v in (0..failed.len()).filter(|&v| failed[v]) {
        live.for_each_block_of(Var::new(v), |b| walk[b.index()] = true);
    }
    for b in func.blocks() {
        for &i in func.block_phis(b) {
            let InstData::Phi { dst, args } = func.inst(i) else {
                continue;
            };
            if failed[dst.index()] {
                walk[b.index()] = true;
                for a in args.as_slice(func) {
                    walk[a.block.index()] = true;
                }
            }
        }
    }
    walk
}

/// The values of the variables of `func` as [`Known`] explains: those of
/// the first run (`values`, by its variables), and, for the variables
/// made since, of the copies materialized in `inserted` (the first and
/// last instruction of a block).
fn values_after_copies(func: &Function, inserted: &Inserted, mut values: Vec<u32>) -> Vec<u32> {
    let first_new = values.len();
    values.extend((first_new..func.num_vars()).map(|v| v as u32));
    for &b in func.layout() {
        let insts = func.block_insts(b);
        let ends = insts
            .first()
            .into_iter()
            .chain(insts.last().filter(|_| insts.len() > 1));
        for &i in ends.filter(|&&i| inserted[i]) {
            let InstData::ParCopy { copies } = func.inst(i) else {
                continue;
            };
            for &(d, s) in copies.as_slice(func) {
                let Some(s) = s.var() else { continue };
                if d.index() >= first_new {
                    values[d.index()] = values[s.index()];
                } else if s.index() >= first_new {
                    values[s.index()] = values[d.index()];
                }
            }
        }
    }
    values
}

/// The phi components whose walk in step 1 found two members interfering
/// (`found`, by group of `groups`), as ranges of `groups.ranks`.
fn failed_components(
    found: Vec<Option<(Var, Var)>>,
    groups: &Groups,
    check: &DebugCheck,
) -> Vec<(u32, u32)> {
    let mut failed = Vec::new();
    for (g, pair) in found.into_iter().enumerate() {
        let (lo, hi) = (groups.start[g], groups.start[g + 1]);
        if let Some((a, b)) = pair {
            check.component_interferes(a, b);
            failed.push((lo, hi));
        } else {
            check.component_free(&groups.ranks[lo as usize..hi as usize]);
        }
    }
    failed
}

/// What step 2 reads.
struct Steps<'a> {
    info: &'a VarInfo,
    phi_pairs: &'a [(Var, Var)],
    /// The copies inserted around phis, in the order they are tried.
    candidates: &'a [Candidate],
    check: &'a DebugCheck<'a>,
}

impl Steps<'_> {
    /// Step 2: the webs of the phi components `failed` become classes,
    /// then their copies are tried. A pair of ranked variables of a
    /// component found free is settled already (the variables without a
    /// reachable definition still join).
    fn step_two(
        &self,
        classes: &mut Classes,
        groups: &Groups,
        failed: &[(u32, u32)],
        in_failed: &[bool],
        stats: &mut CoalesceStats,
    ) {
        let info = self.info;
        build_webs(
            classes,
            info,
            self.phi_pairs,
            &groups.ranks,
            failed,
            in_failed,
        );
        let settled = |x: Var, y: Var| settled(info, in_failed, x, y);
        for &(dst, v) in self.phi_pairs.iter().filter(|p| !settled(p.0, p.1)) {
            let (rx, ry) = (classes.root(dst), classes.root(v));
            if rx != ry {
                // A phi web is free of interference (to_cssa made it so).
                let merge = classes.test(rx, ry);
                merge.expect("a phi web interferes").apply();
            }
        }
        for c in self.candidates.iter().filter(|c| !settled(c.dst, c.src)) {
            try_copy(classes, c, stats, self.check);
        }
    }
}

/// Whether `x` and `y`, of one phi component, are in one class after
/// step 1 (both ranked, the component found free; `in_failed` marks the
/// ranked members of the others, or is empty).
fn settled(info: &VarInfo, in_failed: &[bool], x: Var, y: Var) -> bool {
    info.rank[x] != NIL && info.rank[y] != NIL && !in_failed.get(x.index()).unwrap_or(&false)
}

/// The copies of `candidates` (the first `phi_related` of them inserted
/// around phis) whose two sides ended in one class.
fn count_coalesced(
    classes: &mut Classes,
    info: &VarInfo,
    candidates: &[Candidate],
    phi_related: usize,
    in_failed: &[bool],
) -> usize {
    let mut n = 0;
    for (k, c) in candidates.iter().enumerate() {
        let phi_settled = k < phi_related && settled(info, in_failed, c.dst, c.src);
        if phi_settled || classes.root(c.dst) == classes.root(c.src) {
            n += 1;
        }
    }
    n
}

/// By variable: whether it is a ranked member of one of the phi
/// components `failed` (ranges of `ranks`).
fn ranked_members(nv: usize, info: &VarInfo, ranks: &[u32], failed: &[(u32, u32)]) -> Vec<bool> {
    if failed.is_empty() {
        return Vec::new();
    }
    let mut marked = vec![false; nv];
    for &(lo, hi) in failed {
        for &k in &ranks[lo as usize..hi as usize] {
            marked[info.pts[k as usize].var.index()] = true;
        }
    }
    marked
}

/// Whether `func` has a phi, a copy or a parallel copy: without, coalescing
/// has no candidate and no phi web, and leaves every variable alone (the
/// dominator tree, the def-use lists and the ranks are not needed). One
/// look at each instruction, against the walks those would take.
fn has_affinities(func: &Function) -> bool {
    func.layout().iter().any(|&b| {
        !func.block_phis(b).is_empty()
            || func.block_insts(b).iter().any(|&i| {
                matches!(
                    func.inst(i),
                    InstData::Copy { .. } | InstData::ParCopy { .. }
                )
            })
    })
}

/// Tries copy `c`: merges the classes of its two sides unless they
/// interfere.
fn try_copy(classes: &mut Classes, c: &Candidate, stats: &mut CoalesceStats, check: &DebugCheck) {
    let (rx, ry) = (classes.root(c.dst), classes.root(c.src));
    if rx == ry {
        return;
    }
    let expected = check.expect(classes, rx, ry);
    let merge = classes.test(rx, ry);
    check.confirm(expected, merge.is_none());
    match merge {
        Some(merge) => merge.apply(),
        None => stats.refused += 1,
    }
}

/// Small programs that the tests of class interference and of coalescing
/// share.
#[cfg(test)]
pub(super) mod fixtures {
    use crate::ir::{BinOp, Function, FunctionBuilder, Operand, Var};

    /// `e(a): b = a; c = a; d = a + 1; print a, b, c, d; ret`, with
    /// `[a, b, c, d]`.
    pub(crate) fn copies_of_one_value() -> (Function, [Var; 4]) {
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
    pub(crate) fn two_parallel_copies(sources: [&str; 4]) -> (Function, [Var; 6]) {
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
        let (g, du) = Gathered::new(
            f,
            &cfg,
            &dt,
            &depth,
            &SecondaryMap::new(false),
            |_| true,
            None,
        );
        let mut live = LiveCheck::from_def_use(du, &cfg, &dt);
        let info = VarInfo::new(f, &dt, &g, &live, None);
        let nv = f.num_vars();
        let mut classes = Classes::new(nv, &info.pts, info.rank.as_slice(), &mut live);
        let mut out = Vec::new();
        for a in 0..nv {
            for b in a + 1..nv {
                let (a, b) = (Var::new(a), Var::new(b));
                if classes.test(a, b).is_none() {
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
