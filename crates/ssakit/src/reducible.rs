//! Making a control-flow graph reducible with dispatch loops.
//!
//! WebAssembly's structured control flow (and Ramsey's translation,
//! "Beyond Relooper", ICFP 2022) needs a *reducible* CFG: every cycle is
//! entered through one block, its header, which dominates the cycle.
//! The generator's `irreducible` shape makes loops with two or three
//! entries. [`make_reducible`] rewrites every multi-entry cycle into a
//! single-entry one by a *dispatch loop* (the "controlled node splitting"
//! alternative of Janssen and Corporaal 1997, the `switch` loop of
//! Erosa and Hendren 1994 and of Emscripten's Relooper "multiple" blocks):
//! a new header `D` ends in `switch lbl, E0, [E0, E1, ...]` over the
//! cycle's entries, and every edge to an entry `Ei` (from outside the
//! cycle and from inside it) goes through a new block `lbl = i; jump D`.
//! `D` then dominates the cycle, and the old entries are ordinary blocks
//! of its body.
//!
//! Why a dispatch loop and not node splitting: node splitting (Cocke and
//! Miller; Hecht 1977, T1/T2) copies blocks and can grow the program
//! exponentially on nested irreducible regions (Carter, Ferrante and
//! Thomborson 2003); a dispatcher adds one block per cycle, one block per
//! redirected edge and one `i64` variable per cycle, so the output is
//! linear in the input. The cost is a `switch` per entry into the cycle.
//!
//! The cycles are found as in Havlak's and Ramalingam's loop-nesting forests
//! ("On loops, dominators, and dominance frontiers", TOPLAS 2002): the
//! strongly connected components (Tarjan 1972, iteratively) of the
//! reachable graph; a component with one entry keeps it as header, one with
//! several gets a dispatcher as header; then the components of each
//! component minus its header (edges into the header removed), and so on,
//! with a worklist. A graph is reducible exactly when every component of
//! this forest has one entry, which is what the rewrite makes true. Each
//! level of nesting scans its region's edges once: the time is
//! O(edges × loop-nesting depth), linear for a bounded depth.
//!
//! A reducible graph, the common case, is recognised first in linear time
//! (`is_reducible`) and left alone without building the forest: a ladder
//! of 20,000 nested loops has a nesting depth of 10,000, and the forest
//! alone made `emit-wasm` quadratic on it. The test is the classic one
//! (Hecht and Ullman 1974; Tarjan 1974): a graph is reducible exactly
//! when it is acyclic once its *back edges*, the edges `u → v` where `v`
//! dominates `u`, are removed.
//!
//! Works on a function without phis (before construction or after
//! destruction); unreachable blocks are left alone.

use std::collections::HashSet;

use crate::analysis::DomTree;
use crate::ir::{Block, Cfg, Function, InstData, Operand, Terminator, Type, Var};

/// What [`make_reducible`] did.
///
/// # Example
///
/// ```
/// use ssakit::reducible::{make_reducible, ReducibleStats};
/// // A loop a ⇄ b entered at both a and b: irreducible.
/// let src = "function f(c) {
/// e:
///     i = 0
///     branch c, a, b
/// a:
///     i = i + 1
///     d = i < 3
///     branch d, b, x
/// b:
///     i = i + 2
///     g = i < 3
///     branch g, a, x
/// x:
///     ret i
/// }
/// ";
/// let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let stats = make_reducible(&mut f).unwrap();
/// // One dispatcher; the edges e → a, e → b, a → b and b → a go through it.
/// assert_eq!(stats, ReducibleStats { dispatchers: 1, redirected_edges: 4 });
/// // Once reducible, there is nothing left to do.
/// assert_eq!(make_reducible(&mut f).unwrap(), ReducibleStats::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReducibleStats {
    /// Multi-entry cycles given a dispatcher.
    pub dispatchers: usize,
    /// Edges redirected through a block setting the label.
    pub redirected_edges: usize,
}

/// The error of [`make_reducible`] on a function with phis.
///
/// # Example
///
/// ```
/// # use ssakit::reducible::make_reducible;
/// let src = "function f(c) {
/// e:
///     branch c, l, j
/// l:
///     jump j
/// j:
///     x = phi(e: 1, l: 2)
///     ret x
/// }
/// ";
/// let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let err = make_reducible(&mut f).unwrap_err();
/// assert_eq!(err.block, "j");
/// assert!(err.to_string().starts_with("block j has phis"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HasPhis {
    /// The first block with a phi.
    pub block: String,
}

impl std::fmt::Display for HasPhis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "block {} has phis: make the CFG reducible before construction or after destruction",
            self.block
        )
    }
}

impl std::error::Error for HasPhis {}

const NONE: u32 = u32::MAX;

/// Whether the reachable part of `func`'s CFG is reducible: acyclic once
/// the edges `u → v` with `v` dominating `u` are removed (see the module
/// documentation). Linear in the blocks and edges, after the dominator
/// tree.
#[cfg(test)]
pub(crate) fn is_reducible(func: &Function) -> bool {
    reducible_cfg(&Cfg::new(func))
}

/// [`is_reducible`] of a CFG: Kahn's topological sort of the reachable
/// blocks over the edges that are not back edges; a block never freed is
/// on a cycle without a dominating header.
fn reducible_cfg(cfg: &Cfg) -> bool {
    let dom = DomTree::new(cfg);
    let n = cfg.num_blocks();
    let forward = |u: Block, v: Block| dom.is_reachable(u) && !dom.dominates(v, u);
    // Incoming forward edges of each block, counted once per edge.
    let mut waiting: Vec<u32> = vec![0; n];
    for u in (0..n).map(Block::new) {
        for &v in cfg.succs(u) {
            if forward(u, v) {
                waiting[v.index()] += 1;
            }
        }
    }
    let mut ready: Vec<Block> = (0..n)
        .map(Block::new)
        .filter(|&b| dom.is_reachable(b) && waiting[b.index()] == 0)
        .collect();
    let mut freed = 0;
    while let Some(u) = ready.pop() {
        freed += 1;
        for &v in cfg.succs(u) {
            if forward(u, v) {
                waiting[v.index()] -= 1;
                if waiting[v.index()] == 0 {
                    ready.push(v);
                }
            }
        }
    }
    freed == dom.num_reachable()
}

/// Makes `func`'s reachable CFG reducible, preserving its meaning (see the
/// module documentation). Refuses a function with phis.
///
/// # Example
/// ```
/// use ssakit::interp::{run, RunOptions};
/// use ssakit::ir::Module;
/// use ssakit::reducible::make_reducible;
/// // A loop a ⇄ b entered at both a and b: irreducible.
/// let src = "function f(c) {
/// e:
///     i = 0
///     branch c, a, b
/// a:
///     i = i + 1
///     d = i < 3
///     branch d, b, x
/// b:
///     i = i + 2
///     g = i < 3
///     branch g, a, x
/// x:
///     ret i
/// }
/// ";
/// let m = ssakit::text::parse_module(src).unwrap();
/// let mut f = m.functions[0].clone();
/// make_reducible(&mut f).unwrap();
/// // The program computes what it did.
/// let after = Module { functions: vec![f] };
/// for c in [0, 1] {
///     let opts = RunOptions::default();
///     let old = run(&m, &m.functions[0], &[c], &opts).unwrap();
///     let new = run(&after, &after.functions[0], &[c], &opts).unwrap();
///     assert_eq!(old.ret, new.ret);
/// }
/// ```
pub fn make_reducible(func: &mut Function) -> Result<ReducibleStats, HasPhis> {
    make_reducible_counted(func).map(|(stats, _)| stats)
}

/// [`make_reducible`], and the work of its loop-nesting forest: the
/// blocks of every region scanned, summed (0 for a reducible graph).
fn make_reducible_counted(func: &mut Function) -> Result<(ReducibleStats, usize), HasPhis> {
    if let Some(&b) = func
        .layout()
        .iter()
        .find(|&&b| !func.block_phis(b).is_empty())
    {
        return Err(HasPhis {
            block: func.block_name(b).to_string(),
        });
    }
    let cfg = Cfg::new(func);
    if reducible_cfg(&cfg) {
        return Ok((ReducibleStats::default(), 0));
    }
    let succs: Vec<Vec<u32>> = (0..cfg.num_blocks())
        .map(|b| {
            cfg.succs(Block::new(b))
                .iter()
                .map(|s| s.index() as u32)
                .collect()
        })
        .collect();
    let names = Namer {
        names: func
            .layout()
            .iter()
            .map(|&b| func.block_name(b).into())
            .collect(),
        next: 0,
    };
    let entry = func.entry().index() as u32;
    let n = succs.len();
    let mut rw = Rewrite {
        func,
        succs,
        names,
        stats: ReducibleStats::default(),
        scc: Scc::default(),
        region_of: vec![NONE; n],
        comp_of: vec![NONE; n],
        entry_idx: vec![NONE; n],
        region_no: 0,
        entry,
    };
    let mut work: Vec<(Vec<u32>, u32)> = vec![(rw.reachable(), NONE)];
    let mut scanned = 0;
    while let Some((nodes, header)) = work.pop() {
        scanned += nodes.len();
        rw.region(nodes, header, &mut work);
    }
    Ok((rw.stats, scanned))
}

/// The state of [`make_reducible`]'s rewrite: the graph as successor lists
/// by node (the function's blocks, then the blocks it adds), and by node
/// the region being scanned (its number), its component in it and its
/// index among the entries of that component (`NONE` where none).
struct Rewrite<'f> {
    func: &'f mut Function,
    succs: Vec<Vec<u32>>,
    names: Namer,
    stats: ReducibleStats,
    scc: Scc,
    region_of: Vec<u32>,
    comp_of: Vec<u32>,
    entry_idx: Vec<u32>,
    region_no: u32,
    /// The function's entry block.
    entry: u32,
}

/// A component's dispatcher: its block and label variable (`NONE` and
/// `None` for a component with one entry).
type Dispatcher = (u32, Option<Var>);

impl Rewrite<'_> {
    /// The reachable blocks: the top region, without a header.
    fn reachable(&self) -> Vec<u32> {
        let mut seen = vec![false; self.succs.len()];
        let mut top = vec![self.entry];
        seen[self.entry as usize] = true;
        let mut i = 0;
        while i < top.len() {
            for &s in &self.succs[top[i] as usize] {
                if !seen[s as usize] {
                    seen[s as usize] = true;
                    top.push(s);
                }
            }
            i += 1;
        }
        top
    }

    /// A node added to the graph (a new block) with successors `succs`.
    fn add_node(&mut self, succs: Vec<u32>) {
        self.succs.push(succs);
        self.region_of.push(NONE);
        self.comp_of.push(NONE);
        self.entry_idx.push(NONE);
    }

    /// Rewrites the region `nodes` under `header` (`NONE` for the top
    /// region): a dispatcher for each of its components with several
    /// entries, then its components pushed on `work` as nested regions.
    fn region(&mut self, nodes: Vec<u32>, header: u32, work: &mut Vec<(Vec<u32>, u32)>) {
        self.region_no += 1;
        for &n in &nodes {
            self.region_of[n as usize] = self.region_no;
        }
        let comps = self.scc.run(
            &nodes,
            header,
            &self.succs,
            &self.region_of,
            self.region_no,
            &mut self.comp_of,
        );
        let entries = self.entries(&nodes, header, comps.len());
        let dispatcher = self.dispatchers(&entries);
        let inner = self.redirect(&nodes, header, &dispatcher);
        if header == NONE {
            self.enter_dispatcher(&dispatcher);
        }
        // The nested regions.
        for (c, mut members) in comps.into_iter().enumerate() {
            for &m in &members {
                self.entry_idx[m as usize] = NONE;
            }
            let h = if dispatcher[c].0 != NONE {
                members.push(dispatcher[c].0);
                members.extend_from_slice(&inner[c]);
                dispatcher[c].0
            } else {
                entries[c].first().copied().unwrap_or(members[0])
            };
            work.push((members, h));
        }
        for &n in &nodes {
            self.comp_of[n as usize] = NONE;
        }
    }

    /// Entries of each of the region's `ncomps` components: targets of
    /// edges from another component of the region (or the header), and
    /// the function entry; numbered in `entry_idx`.
    fn entries(&mut self, nodes: &[u32], header: u32, ncomps: usize) -> Vec<Vec<u32>> {
        let mut entries: Vec<Vec<u32>> = vec![Vec::new(); ncomps];
        if header == NONE && self.comp_of[self.entry as usize] != NONE {
            self.mark_entry(self.entry, &mut entries);
        }
        for &u in nodes {
            for k in 0..self.succs[u as usize].len() {
                let v = self.succs[u as usize][k];
                if v == header || self.region_of[v as usize] != self.region_no {
                    continue;
                }
                let cv = self.comp_of[v as usize];
                if cv != NONE && (u == header || self.comp_of[u as usize] != cv) {
                    self.mark_entry(v, &mut entries);
                }
            }
        }
        entries
    }

    /// Records `v` as an entry of its component, once.
    fn mark_entry(&mut self, v: u32, entries: &mut [Vec<u32>]) {
        let c = self.comp_of[v as usize] as usize;
        if self.entry_idx[v as usize] == NONE {
            self.entry_idx[v as usize] = entries[c].len() as u32;
            entries[c].push(v);
        }
    }

    /// Dispatchers for the multi-entry components: a block switching on a
    /// new label variable over the entries.
    fn dispatchers(&mut self, entries: &[Vec<u32>]) -> Vec<Dispatcher> {
        let mut dispatcher: Vec<Dispatcher> = vec![(NONE, None); entries.len()];
        for (c, es) in entries.iter().enumerate() {
            if es.len() < 2 {
                continue;
            }
            let func = &mut *self.func;
            let lbl = func.new_var("lbl", Type::I64);
            let d = func.create_block(&self.names.fresh("dispatch"));
            let targets: Vec<Block> = es.iter().map(|&e| Block::new(e as usize)).collect();
            let t = func.switch_term(Operand::Var(lbl), targets[0], &targets);
            func.set_term(d, t);
            func.append_to_layout(d);
            self.add_node(es.clone());
            dispatcher[c] = (d.index() as u32, Some(lbl));
            self.stats.dispatchers += 1;
        }
        dispatcher
    }

    /// Redirects every edge of the region into an entry of a multi-entry
    /// component through a new block setting the label; the new blocks
    /// inside each component, by component.
    fn redirect(&mut self, nodes: &[u32], header: u32, dispatcher: &[Dispatcher]) -> Vec<Vec<u32>> {
        let mut inner: Vec<Vec<u32>> = vec![Vec::new(); dispatcher.len()];
        for &u in nodes {
            let mut changed = false;
            let mut made: Vec<(u32, u32)> = Vec::new();
            let mut new_succs = self.succs[u as usize].clone();
            for s in new_succs.iter_mut() {
                let v = *s;
                if v == header || self.region_of[v as usize] != self.region_no {
                    continue;
                }
                let c = self.comp_of[v as usize];
                if c == NONE
                    || dispatcher[c as usize].0 == NONE
                    || self.entry_idx[v as usize] == NONE
                {
                    continue;
                }
                let (d, Some(lbl)) = dispatcher[c as usize] else {
                    unreachable!()
                };
                let setter = match made.iter().find(|m| m.0 == v) {
                    Some(m) => m.1,
                    None => {
                        let to = format!("to_{}", self.func.block_name(Block::new(v as usize)));
                        let name = self.names.fresh(&to);
                        let b = label_setter(self.func, &name, lbl, self.entry_idx[v as usize], d);
                        self.func.append_to_layout(b);
                        self.add_node(vec![d]);
                        self.stats.redirected_edges += 1;
                        if self.comp_of[u as usize] == c {
                            inner[c as usize].push(b.index() as u32);
                        }
                        made.push((v, b.index() as u32));
                        b.index() as u32
                    }
                };
                *s = setter;
                changed = true;
            }
            if changed {
                let mut it = new_succs.iter();
                self.func.redirect_succs(Block::new(u as usize), |_| {
                    Block::new(*it.next().expect("one target per edge") as usize)
                });
                self.succs[u as usize] = new_succs;
            }
        }
        inner
    }

    /// The function entry inside a multi-entry cycle: a new entry block
    /// sets the label and jumps to the dispatcher.
    fn enter_dispatcher(&mut self, dispatcher: &[Dispatcher]) {
        let c = self.comp_of[self.entry as usize];
        if c != NONE && dispatcher[c as usize].0 != NONE {
            let (d, Some(lbl)) = dispatcher[c as usize] else {
                unreachable!()
            };
            let name = self.names.fresh("start");
            let b = label_setter(
                self.func,
                &name,
                lbl,
                self.entry_idx[self.entry as usize],
                d,
            );
            self.func.insert_entry(b);
            self.add_node(vec![d]);
            self.stats.redirected_edges += 1;
        }
    }
}

/// Fresh block names: `base`, or `base.K` with `K` from one counter, so
/// the probes stay few however many blocks share a base.
struct Namer {
    names: HashSet<Box<str>>,
    next: usize,
}

impl Namer {
    fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        while self.names.contains(name.as_str()) {
            self.next += 1;
            name = format!("{base}.{}", self.next);
        }
        self.names.insert(name.as_str().into());
        name
    }
}

/// Iterative Tarjan over a region's nodes minus its header.
#[derive(Default)]
struct Scc {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
}

impl Scc {
    /// The cyclic components (several nodes, or one with a self edge) of
    /// `nodes` minus `header`, edges leaving the region or entering the
    /// header ignored. Sets `comp_of` of their members to their number.
    fn run(
        &mut self,
        nodes: &[u32],
        header: u32,
        succs: &[Vec<u32>],
        region_of: &[u32],
        region: u32,
        comp_of: &mut [u32],
    ) -> Vec<Vec<u32>> {
        let n = succs.len();
        if self.index.len() < n {
            self.index.resize(n, NONE);
            self.low.resize(n, 0);
            self.on_stack.resize(n, false);
        }
        let inside = |v: u32| v != header && region_of[v as usize] == region;
        let mut comps = Vec::new();
        let mut counter = 0u32;
        let mut stack: Vec<u32> = Vec::new();
        let mut call: Vec<(u32, usize)> = Vec::new();
        for &root in nodes {
            if root == header || self.index[root as usize] != NONE {
                continue;
            }
            call.push((root, 0));
            self.index[root as usize] = counter;
            self.low[root as usize] = counter;
            counter += 1;
            stack.push(root);
            self.on_stack[root as usize] = true;
            while let Some(&mut (u, ref mut k)) = call.last_mut() {
                let su = &succs[u as usize];
                if *k < su.len() {
                    let v = su[*k];
                    *k += 1;
                    if !inside(v) {
                        continue;
                    }
                    if self.index[v as usize] == NONE {
                        self.index[v as usize] = counter;
                        self.low[v as usize] = counter;
                        counter += 1;
                        stack.push(v);
                        self.on_stack[v as usize] = true;
                        call.push((v, 0));
                    } else if self.on_stack[v as usize] {
                        let l = self.low[u as usize].min(self.index[v as usize]);
                        self.low[u as usize] = l;
                    }
                    continue;
                }
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    let l = self.low[p as usize].min(self.low[u as usize]);
                    self.low[p as usize] = l;
                }
                if self.low[u as usize] == self.index[u as usize] {
                    let mut comp = Vec::new();
                    loop {
                        let w = stack.pop().expect("u is on the stack");
                        self.on_stack[w as usize] = false;
                        comp.push(w);
                        if w == u {
                            break;
                        }
                    }
                    let cyclic = comp.len() > 1 || su.contains(&u);
                    if cyclic {
                        for &w in &comp {
                            comp_of[w as usize] = comps.len() as u32;
                        }
                        comps.push(comp);
                    }
                }
            }
        }
        for &v in nodes {
            self.index[v as usize] = NONE;
        }
        comps
    }
}

/// A new block `name: lbl = k; jump d` (not yet in the layout): the way
/// into dispatcher `d` towards its `k`-th entry.
fn label_setter(func: &mut Function, name: &str, lbl: Var, k: u32, d: u32) -> Block {
    let b = func.create_block(name);
    func.push_inst(
        b,
        InstData::Copy {
            dst: lbl,
            src: Operand::Const(i64::from(k)),
        },
    );
    func.set_term(b, Terminator::Jump(Block::new(d as usize)));
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate, GenOptions, Shape};

    /// The loop-nesting forest is built only for an
    /// irreducible graph, so a ladder of 1,000 nested loops (depth 1,000)
    /// costs no region scan at all, where the forest scanned 2,000 blocks
    /// a level; on irreducible loops of bounded depth the scan stays linear.
    #[test]
    fn the_forest_is_linear_on_ladders_and_bounded_nesting() {
        for (shape, blocks) in [
            (Shape::Ladder, 2002),
            (Shape::NestedLoops, 2000),
            (Shape::Irreducible, 2000),
        ] {
            let mut f = generate(&GenOptions {
                shape,
                blocks,
                ..Default::default()
            });
            let reducible = is_reducible(&f);
            assert_eq!(reducible, shape != Shape::Irreducible, "{shape:?}");
            let (stats, scanned) = make_reducible_counted(&mut f).unwrap();
            assert!(is_reducible(&f), "{shape:?}");
            if reducible {
                assert_eq!((stats, scanned), (ReducibleStats::default(), 0));
            } else {
                assert!(stats.dispatchers > 0);
                assert!(scanned <= 8 * blocks, "{shape:?}: {scanned}");
            }
        }
    }
}
