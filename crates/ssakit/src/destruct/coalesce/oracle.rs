//! The definition of interference, pair by pair, from full liveness sets
//! (Boissinot et al., CGO 2009, section III-A, with the intersection test
//! of Budimlić et al., PLDI 2002): the oracle every decision of coalescing
//! is checked against, and [`DebugCheck`], the coalescer's hold on it,
//! which checks in debug builds and costs nothing in release builds (the
//! oracle is never built there).

use super::facts::VarInfo;
use crate::analysis::DomTree;
use crate::destruct::classes::{Classes, DefPoint, NIL};
use crate::entity::{Csr, EntityVec};
use crate::ir::{Block, Cfg, Function, Point, Var};

/// Components and classes of up to this many members are checked.
const CHECKED_MEMBERS: usize = 48;

/// The coalescer's debug check: every verdict of the class tests against
/// the [`Oracle`] (debug builds, functions of up to [`ORACLE_MAX_VARS`]
/// variables), and the dominance forests against their definition. Empty,
/// and every check a no-op, in release builds.
pub(super) struct DebugCheck<'a>(Option<Oracle<'a>>);

/// What the oracle expects of one class test, taken before it runs.
pub(super) struct Expected(Option<(bool, Vec<Var>, Vec<Var>)>);

impl<'a> DebugCheck<'a> {
    /// The oracle in debug builds; nothing in release builds.
    pub(super) fn new(
        func: &Function,
        info: &'a VarInfo,
        dt: &'a DomTree,
        cfg: &Cfg,
    ) -> DebugCheck<'a> {
        let oracle = cfg!(debug_assertions).then(|| Oracle::new(func, info, dt, cfg));
        DebugCheck(oracle.filter(Oracle::active))
    }

    /// A component whose walk found `a` and `b` interfering: the oracle
    /// agrees.
    pub(super) fn component_interferes(&self, a: Var, b: Var) {
        if let Some(o) = &self.0 {
            assert!(o.interfere(&[a], &[b]), "{a} {b}");
        }
    }

    /// A component found free: no two members interfere (components of up
    /// to [`CHECKED_MEMBERS`] members).
    pub(super) fn component_free(&self, members: &[u32]) {
        if let Some(o) = &self.0 {
            o.check_free(members);
        }
    }

    /// Before the classes of roots `rx` and `ry` are tested: whether the
    /// oracle says they interfere (classes of up to [`CHECKED_MEMBERS`]
    /// members together).
    pub(super) fn expect(&self, classes: &mut Classes, rx: Var, ry: Var) -> Expected {
        Expected(self.0.as_ref().and_then(|o| {
            let (x, y) = (classes.members(rx), classes.members(ry));
            let checked = x.len() + y.len() <= CHECKED_MEMBERS;
            checked.then(|| (o.interfere(&x, &y), x, y))
        }))
    }

    /// After the test: it refused the merge exactly when the oracle said
    /// the classes interfere.
    pub(super) fn confirm(&self, expected: Expected, refused: bool) {
        if let Some((bad, x, y)) = expected.0 {
            assert_eq!(refused, bad, "{x:?} {y:?}");
        }
    }

    /// At the end: the forests of the classes of up to `limit` members are
    /// right.
    pub(super) fn forests(&self, classes: &mut Classes, limit: usize) {
        if self.0.is_some() {
            classes.check_forests(limit);
        }
    }
}

/// Functions with more variables are not checked against the [`Oracle`].
pub(super) const ORACLE_MAX_VARS: usize = 20_000;

/// The definition of interference, pair by pair, from full liveness sets:
/// the oracle of the class tests in debug builds.
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

    /// No two members of a component found free interfere (components of
    /// up to [`CHECKED_MEMBERS`] members).
    fn check_free(&self, members: &[u32]) {
        if !self.active() || members.len() > CHECKED_MEMBERS {
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
