//! Phase 2 of SSA construction: renaming (chapter, section 13.4).
//!
//! A preorder walk of the dominator tree gives each definition a fresh
//! version and rewrites each use to the version of the unique definition
//! that reaches it — the closest definition that dominates it. Two
//! interchangeable ways of finding that definition implement [`Reaching`]:
//!
//! * [`ReachingDefChains`], the chapter's algorithm: one slot
//!   `v.reachingDef` per variable, and per version `v'.reachingDef` the
//!   definition it shadowed. `updateReachingDef(v, i)` climbs that chain
//!   until it finds a definition that dominates `i`:
//!
//!   ```text
//!   r := v.reachingDef
//!   while not (r == ⊥ or definition(r) dominates i) do r := r.reachingDef
//!   v.reachingDef := r
//!   ```
//!   It needs no stack and no action when the walk leaves a block.
//! * [`VersionStacks`], the classic algorithm (Cytron et al. 1991): one stack
//!   of versions per variable, pushed at each definition and popped, through
//!   an undo log, when the walk leaves the block.
//!
//! Both visit blocks, instructions and uses in the same order and number
//! versions in that order, so they produce identical functions; the tests
//! check it.
//!
//! Order inside a block, as in the chapter: for each instruction its uses are
//! renamed before its definitions; phi operands are uses at the end of the
//! corresponding predecessor, so they are renamed when the walk finishes that
//! predecessor ("foreach phi en un sucesor de BB").
//!
//! Program points are `(block, position)`: phis and parameters are at
//! position 0, then each instruction of the block, the terminator and the
//! successor-phi uses at increasing positions. A definition at `(b, p)`
//! dominates a point `(c, q)` iff `b == c && p < q`, or `b` strictly
//! dominates `c`.
//!
//! The undefined value ⊥ (section 13.5) is the empty chain. [`UndefMode`]
//! says what a use that finds ⊥ becomes.

use super::trace::{RenameRow, Site};
use super::UndefMode;
use crate::analysis::{DomEvent, DomTree};
use crate::entity::EntityVec;
use crate::ir::{Block, Cfg, Function, Inst, InstData, Operand, Var};

/// A program point: block and position within it (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// The block.
    pub block: Block,
    /// The position in the block.
    pub pos: u32,
}

/// How renaming finds the definition reaching a use.
pub trait Reaching {
    /// The walk enters block `b` (after entering its dominators).
    fn enter(&mut self, b: Block);
    /// The walk leaves block `b` (after its dominator subtree).
    fn exit(&mut self, b: Block);
    /// The version of original variable `v` reaching point `at`, or `None`
    /// for ⊥.
    fn lookup(&mut self, v: Var, at: Point, site: Site) -> Option<Var>;
    /// Records that `new`, a version of `v`, is defined at `at`.
    fn define(&mut self, v: Var, new: Var, at: Point, site: Site);
    /// Prepares for variables numbered up to `num_vars` (a hint).
    fn reserve(&mut self, _num_vars: usize) {}
}

/// The chapter's reachingDef chains.
pub struct ReachingDefChains<'a> {
    dt: &'a DomTree,
    /// `v.reachingDef` for each original variable `v`.
    current: EntityVec<Var, Option<Var>>,
    /// `v'.reachingDef` for each version `v'`: the definition it shadowed.
    prev: EntityVec<Var, Option<Var>>,
    /// Where each version (or parameter) is defined.
    site: EntityVec<Var, Point>,
    /// The traced variable and its rows.
    trace: Option<(Var, Vec<RenameRow>)>,
}

impl<'a> ReachingDefChains<'a> {
    /// Chains for a function with `num_vars` variables (more are added as
    /// versions are created).
    pub fn new(dt: &'a DomTree, num_vars: usize, trace: Option<Var>) -> Self {
        let here = Point {
            block: Block(0),
            pos: 0,
        };
        ReachingDefChains {
            dt,
            current: EntityVec::filled(num_vars, None),
            prev: EntityVec::filled(num_vars, None),
            site: EntityVec::filled(num_vars, here),
            trace: trace.map(|v| (v, Vec::new())),
        }
    }

    /// The trace rows recorded, if tracing.
    pub fn into_trace(self) -> Option<Vec<RenameRow>> {
        self.trace.map(|t| t.1)
    }

    fn def_dominates(&self, d: Var, at: Point) -> bool {
        let s = self.site[d];
        if s.block == at.block {
            s.pos < at.pos
        } else {
            self.dt.strictly_dominates(s.block, at.block)
        }
    }

    /// `updateReachingDef(v, i)`; returns the chain values passed over.
    fn update_reaching_def(&mut self, v: Var, at: Point) -> Vec<Option<Var>> {
        let tracing = self.trace.as_ref().is_some_and(|t| t.0 == v);
        let mut climbed = Vec::new();
        let mut r = self.current[v];
        while let Some(d) = r {
            if self.def_dominates(d, at) {
                break;
            }
            r = self.prev[d];
            if tracing {
                climbed.push(r);
            }
        }
        self.current[v] = r;
        climbed
    }

    fn record(&mut self, row: RenameRow) {
        if let Some((_, rows)) = self.trace.as_mut() {
            rows.push(row);
        }
    }
}

impl Reaching for ReachingDefChains<'_> {
    fn enter(&mut self, _: Block) {}
    fn exit(&mut self, _: Block) {}

    fn reserve(&mut self, num_vars: usize) {
        let here = Point {
            block: Block(0),
            pos: 0,
        };
        if num_vars > 0 {
            self.prev.ensure(Var::new(num_vars - 1), None);
            self.site.ensure(Var::new(num_vars - 1), here);
        }
    }

    fn lookup(&mut self, v: Var, at: Point, site: Site) -> Option<Var> {
        let before = self.current[v];
        let climbed = self.update_reaching_def(v, at);
        let after = self.current[v];
        if self.trace.as_ref().is_some_and(|t| t.0 == v) {
            self.record(RenameRow {
                block: at.block,
                site,
                before,
                climbed,
                after,
                defined: None,
            });
        }
        after
    }

    fn define(&mut self, v: Var, new: Var, at: Point, site: Site) {
        let before = self.current[v];
        let climbed = self.update_reaching_def(v, at);
        self.prev.ensure(new, None);
        self.site.ensure(new, at);
        self.prev[new] = self.current[v];
        self.site[new] = at;
        self.current[v] = Some(new);
        if self.trace.as_ref().is_some_and(|t| t.0 == v) {
            self.record(RenameRow {
                block: at.block,
                site,
                before,
                climbed,
                after: Some(new),
                defined: Some(new),
            });
        }
    }
}

/// The classic renaming stacks, with an undo log popped on block exit.
pub struct VersionStacks {
    stacks: EntityVec<Var, Vec<Var>>,
    /// Variables pushed, in order; `marks` holds the log length at each
    /// entered block.
    log: Vec<Var>,
    marks: Vec<usize>,
}

impl VersionStacks {
    /// Stacks for a function with `num_vars` original variables.
    pub fn new(num_vars: usize) -> Self {
        VersionStacks {
            stacks: EntityVec::filled(num_vars, Vec::new()),
            log: Vec::new(),
            marks: Vec::new(),
        }
    }
}

impl Reaching for VersionStacks {
    fn enter(&mut self, _: Block) {
        self.marks.push(self.log.len());
    }
    fn exit(&mut self, _: Block) {
        let mark = self.marks.pop().expect("exit matches enter");
        for v in self.log.drain(mark..) {
            self.stacks[v].pop();
        }
    }
    fn lookup(&mut self, v: Var, _: Point, _: Site) -> Option<Var> {
        self.stacks[v].last().copied()
    }
    fn define(&mut self, v: Var, new: Var, _: Point, _: Site) {
        self.stacks[v].push(new);
        self.log.push(v);
    }
}

/// Statistics of a renaming.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenameStats {
    /// Versions created (phis and ordinary definitions).
    pub versions: usize,
    /// Uses that found ⊥.
    pub undef_uses: usize,
    /// `x = undef` instructions added (entry definitions or local ones).
    pub undef_defs: usize,
}

/// Renames every variable of `func` into SSA form.
///
/// # Preconditions
/// Phis are inserted and still name original variables; `cfg` and `dt`
/// describe `func`; every block of the layout is reachable and the entry
/// has no predecessors. No variable of `func` is an SSA version yet.
pub fn rename(
    func: &mut Function,
    cfg: &Cfg,
    dt: &DomTree,
    undef: UndefMode,
    reaching: &mut impl Reaching,
) -> RenameStats {
    let mut r = Renamer {
        version: EntityVec::filled(func.vars.len(), 0),
        dummy: EntityVec::filled(func.vars.len(), None),
        entry_defs: Vec::new(),
        undef,
        stats: RenameStats::default(),
    };
    let entry = func.entry();
    // One version per definition: reserve them all at once.
    let defs: usize = func
        .layout
        .iter()
        .map(|&b| {
            let bd = &func.blocks[b];
            bd.phis.len()
                + bd.insts
                    .iter()
                    .map(|&i| {
                        let mut n = 0;
                        func.insts[i].for_each_def(|_| n += 1);
                        n
                    })
                    .sum::<usize>()
        })
        .sum();
    func.vars.reserve(defs);
    reaching.reserve(func.vars.len() + defs);
    let succ_slots = SuccSlots::new(func, cfg);
    let mut new_insts: Vec<Inst> = Vec::new();
    for ev in dt.walk() {
        let bb = match ev {
            DomEvent::Enter(b) => b,
            DomEvent::Exit(b) => {
                reaching.exit(b);
                continue;
            }
        };
        reaching.enter(bb);
        if bb == entry {
            // Parameters are the definitions at the entry: they keep their
            // names and head their chains.
            for &p in &func.params {
                reaching.define(p, p, Point { block: bb, pos: 0 }, Site::Param);
            }
        }
        // Phis: definitions at position 0.
        for k in 0..func.blocks[bb].phis.len() {
            let i = func.blocks[bb].phis[k];
            let InstData::Phi { dst, .. } = &func.insts[i] else {
                unreachable!("phi list holds phis")
            };
            let v = *dst;
            let new = r.fresh(func, v);
            reaching.define(v, new, Point { block: bb, pos: 0 }, Site::Inst(i));
            if let InstData::Phi { dst, .. } = &mut func.insts[i] {
                *dst = new;
            }
        }
        // Ordinary instructions: uses, then definitions.
        let mut pos = 1u32;
        let insts = std::mem::take(&mut func.blocks[bb].insts);
        new_insts.clear();
        for &i in &insts {
            let mut data =
                std::mem::replace(&mut func.insts[i], InstData::Print { args: Vec::new() });
            data.for_each_operand_mut(|o| {
                if let Operand::Var(v) = *o {
                    *o = r.resolve(
                        func,
                        reaching,
                        v,
                        bb,
                        &mut pos,
                        &mut new_insts,
                        Site::Inst(i),
                    );
                }
            });
            let at = Point { block: bb, pos };
            data.for_each_def_mut(|d| {
                let v = *d;
                let new = r.fresh(func, v);
                reaching.define(v, new, at, Site::Inst(i));
                *d = new;
            });
            func.insts[i] = data;
            new_insts.push(i);
            pos += 1;
        }
        // The terminator's use.
        let mut term =
            std::mem::replace(&mut func.blocks[bb].term, crate::ir::Terminator::Ret(None));
        if let Some(o) = term.operand_mut() {
            if let Operand::Var(v) = *o {
                *o = r.resolve(
                    func,
                    reaching,
                    v,
                    bb,
                    &mut pos,
                    &mut new_insts,
                    Site::Term(bb),
                );
            }
        }
        func.blocks[bb].term = term;
        pos += 1;
        // Phi operands of successors: uses at the end of this block. Slot k
        // of a phi in s is the operand for s's k-th distinct predecessor.
        for &(s, k) in succ_slots.of(bb) {
            for p in 0..func.blocks[s].phis.len() {
                let i = func.blocks[s].phis[p];
                let InstData::Phi { dst, args } = &func.insts[i] else {
                    unreachable!()
                };
                debug_assert_eq!(
                    args[k as usize].block, bb,
                    "phi operands follow the predecessor order"
                );
                let v = func.original(*dst);
                let val = r.resolve(
                    func,
                    reaching,
                    v,
                    bb,
                    &mut pos,
                    &mut new_insts,
                    Site::SuccPhi(i),
                );
                if let InstData::Phi { args, .. } = &mut func.insts[i] {
                    args[k as usize].value = val;
                }
            }
        }
        func.blocks[bb].insts = std::mem::take(&mut new_insts);
        new_insts = insts;
    }
    if !r.entry_defs.is_empty() {
        let b = &mut func.blocks[entry];
        let rest = std::mem::take(&mut b.insts);
        b.insts = std::mem::take(&mut r.entry_defs);
        b.insts.extend(rest);
    }
    r.stats
}

/// For each block `p`, the pairs `(s, k)` such that `p` is the `k`-th
/// distinct predecessor of `s`: which phi operand slot each edge fills, so
/// that a block with many predecessors is not searched once per edge.
struct SuccSlots {
    start: Vec<u32>,
    slots: Vec<(Block, u32)>,
}

impl SuccSlots {
    fn new(func: &Function, cfg: &Cfg) -> Self {
        let n = func.blocks.len();
        let mut count = vec![0u32; n + 1];
        for &s in &func.layout {
            for p in cfg.unique_preds(s) {
                count[p.index()] += 1;
            }
        }
        let mut start = vec![0u32; n + 1];
        for i in 0..n {
            start[i + 1] = start[i] + count[i];
        }
        let mut fill = start.clone();
        let mut slots = vec![(Block(0), 0); start[n] as usize];
        for &s in &func.layout {
            for (k, p) in cfg.unique_preds(s).enumerate() {
                slots[fill[p.index()] as usize] = (s, k as u32);
                fill[p.index()] += 1;
            }
        }
        SuccSlots { start, slots }
    }

    fn of(&self, p: Block) -> &[(Block, u32)] {
        &self.slots[self.start[p.index()] as usize..self.start[p.index() + 1] as usize]
    }
}

/// Version numbering and ⊥ handling, shared by both [`Reaching`] methods.
struct Renamer {
    /// Last version number given to each original variable.
    version: EntityVec<Var, u32>,
    /// The entry definition `v0 = undef` of each variable, in
    /// [`UndefMode::EntryDef`].
    dummy: EntityVec<Var, Option<Var>>,
    /// Entry definitions to put at the start of the entry block.
    entry_defs: Vec<Inst>,
    undef: UndefMode,
    stats: RenameStats,
}

impl Renamer {
    /// "create fresh variable v'": the next version of `v`.
    fn fresh(&mut self, func: &mut Function, v: Var) -> Var {
        self.version[v] += 1;
        self.stats.versions += 1;
        func.new_version(v, self.version[v])
    }

    /// The operand replacing a use of `v` at `(bb, *pos)`. A use finding ⊥
    /// becomes what [`UndefMode`] says; a local undef definition is placed
    /// just before the use and becomes the reaching definition.
    #[allow(clippy::too_many_arguments)]
    fn resolve(
        &mut self,
        func: &mut Function,
        reaching: &mut impl Reaching,
        v: Var,
        bb: Block,
        pos: &mut u32,
        out: &mut Vec<Inst>,
        site: Site,
    ) -> Operand {
        if let Some(d) = reaching.lookup(
            v,
            Point {
                block: bb,
                pos: *pos,
            },
            site,
        ) {
            return Operand::Var(d);
        }
        self.stats.undef_uses += 1;
        match self.undef {
            UndefMode::Operand => Operand::Undef,
            UndefMode::EntryDef => {
                if let Some(d) = self.dummy[v] {
                    return Operand::Var(d);
                }
                let d = func.new_version(v, 0);
                self.dummy[v] = Some(d);
                self.entry_defs.push(func.insts.push(InstData::Copy {
                    dst: d,
                    src: Operand::Undef,
                }));
                self.stats.undef_defs += 1;
                Operand::Var(d)
            }
            UndefMode::Local => {
                let d = self.fresh(func, v);
                let i = func.insts.push(InstData::Copy {
                    dst: d,
                    src: Operand::Undef,
                });
                reaching.define(
                    v,
                    d,
                    Point {
                        block: bb,
                        pos: *pos,
                    },
                    Site::UndefDef(i),
                );
                out.push(i);
                *pos += 1;
                self.stats.undef_defs += 1;
                Operand::Var(d)
            }
        }
    }
}
