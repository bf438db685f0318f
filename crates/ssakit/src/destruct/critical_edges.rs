//! Critical-edge splitting (chapter section 13.6, "Destrucción de SSA").
//!
//! A *critical edge* goes from a block with several successor edges to a
//! block with several predecessor edges. Copies that must happen on such an
//! edge have no block of their own to go in: at the end of the source they
//! would also run on its other out-edges, at the start of the target also on
//! its other in-edges. *Splitting* the edge `(b1, b2)` replaces it by
//! `b1 → n → b2` through a fresh block `n` that only jumps to `b2`.
//!
//! Edges are counted between distinct blocks: a phi has one operand per
//! distinct predecessor block, so the copies of every edge from `b1` to
//! `b2` are the same. An edge is critical when its source has several
//! distinct successor blocks and its target several distinct predecessor
//! blocks, and all the edges from `b1` to `b2` (`switch c, E, [L, L, L]`)
//! share one new block: `branch c, L, L` needs no split at all (copies at
//! the end of the source run on the way to `L` whichever edge is taken).
//!
//! # Phis
//!
//! The operand of a phi in the target labelled `b1` is relabelled, in
//! place, by the new block: `x = phi(b1: a, c: d)` becomes
//! `x = phi(n: a, c: d)`.
//!
//! # Names and layout
//!
//! The block splitting the edge from `A` to `B` is named `A_B`; when that
//! label is taken, `A_B.1`, `A_B.2`, ... (the first free one). Labels of the
//! text format are `[A-Za-z_][A-Za-z0-9_.]*`, and these names stay in that
//! language when `A` and `B` do. New blocks go in the layout right after
//! their source block, in successor order, so a fall-through-minded printer
//! keeps each next to its source; the layout is rebuilt once.
//!
//! When no label of the function contains `_` or `.` (the usual case), no
//! existing label can be of that form, and, labels being distinct (as the
//! text format requires), `A_B` names exactly one pair `(A, B)`, with no
//! lookup. Otherwise a set of the labels taken is kept.

use crate::analysis::DomTree;
use crate::entity::{Csr, EntityVec};
use crate::ir::{Block, Cfg, Function, Operand, Terminator};
use rustc_hash::FxHashSet as HashSet;

/// Picks the names of new blocks (see the module doc).
struct Namer {
    /// The labels taken, when some label contains `_` or `.`; `None` when
    /// none does.
    taken: Option<HashSet<Box<str>>>,
}

impl Namer {
    fn new(func: &Function) -> Namer {
        let plain = func
            .blocks()
            .all(|b| !func.block_name(b).contains(['_', '.']));
        Namer {
            taken: (!plain).then(|| func.blocks().map(|b| func.block_name(b).into()).collect()),
        }
    }

    /// The name of the block splitting the edges from `source` to
    /// `target`, recorded as taken.
    fn name(&mut self, source: &str, target: &str) -> String {
        let Some(taken) = &mut self.taken else {
            // `format!` costs more than the rest of the pass.
            let mut name = String::with_capacity(source.len() + target.len() + 1);
            name.push_str(source);
            name.push('_');
            name.push_str(target);
            return name;
        };
        fresh_name(taken, source, target)
    }
}

/// One split edge: `source → new → target`.
#[derive(Clone, Copy, Debug)]
struct Split {
    source: Block,
    target: Block,
    new: Block,
}

/// For each block, how many distinct predecessor blocks it has.
fn distinct_preds(func: &Function, cfg: &Cfg) -> EntityVec<Block, u32> {
    let mut n = EntityVec::filled(func.num_blocks(), 0u32);
    for b in func.blocks() {
        n[b] = cfg.unique_preds(b).count() as u32;
    }
    n
}

/// The number of distinct blocks among `succs`, using `seen` (stamped with
/// `source`, which `succs` are the successors of).
fn distinct_succs(
    succs: &[Block],
    source: Block,
    seen: &mut EntityVec<Block, Option<Block>>,
) -> usize {
    let mut n = 0;
    for &t in succs {
        if seen[t] != Some(source) {
            seen[t] = Some(source);
            n += 1;
        }
    }
    n
}

/// Splits every critical edge of `func` by a new block that jumps to the
/// edge's target (one block for all the edges between two blocks), and
/// updates the target's phis. Returns the new blocks in the order they
/// were made (sources in layout order, each source's targets in successor
/// order).
///
/// Runs in `O(blocks + edges + phi operands)`, plus the hashing of block
/// labels to pick fresh names when some label contains `_` or `.`.
///
/// # Example
/// ```
/// use ssakit::destruct::critical_edges::split_critical_edges;
/// const SRC: &str = "function f(c) {
/// e:
///     x1 = 1
///     branch c, j, l
/// l:
///     x2 = 2
///     jump j
/// j:
///     x3 = phi(e: x1, l: x2)
///     ret x3
/// }
/// ";
/// let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// // `e -> j`: `e` has two successors, `j` two predecessors.
/// let new = split_critical_edges(&mut f);
/// assert_eq!(f.block_name(new[0]), "e_j"); // the new block on e -> j
/// assert!(ssakit::verify::verify(&f).is_ok());
/// ```
pub fn split_critical_edges(func: &mut Function) -> Vec<Block> {
    let cfg = Cfg::new(func);
    let plan = Plan::where_wanted(func, false, &cfg);
    let splits = split_edges_where(func, &plan, &cfg);
    splits.iter().map(|s| s.new).collect()
}

/// The critical edges [`split_critical_edges_into_phis`] would split in
/// `func` as it is now, counted but not split: destruction coalesces on
/// the unsplit graph and splits them ([`split_planned`]) only if a copy
/// has to go on one of them (see `destruct::virtualized`).
///
/// Why the unsplit graph gives the same verdicts: a split block holds no
/// definition until a copy is put in it, so the definitions, their
/// dominance order among themselves and the values are the same, and a
/// variable read by a phi on `S → T` is live at the end of `S` with or
/// without the block between (the liveness at every other point is that
/// of the same paths).
pub(crate) struct Plan {
    /// By block: whether its incoming critical edges are split (it has
    /// phis and several distinct predecessor blocks).
    into: EntityVec<Block, bool>,
    /// By block: whether it is in the layout with several distinct
    /// successor blocks (its edges into `into` blocks are critical).
    multi: EntityVec<Block, bool>,
    /// How many blocks splitting would make: one per (source, target) pair
    /// of a critical edge into an `into` block.
    pub(crate) count: usize,
}

impl Plan {
    /// The plan of [`split_critical_edges_into_phis`] for `func`, whose
    /// graph is `cfg`.
    pub(crate) fn new(func: &Function, cfg: &Cfg) -> Plan {
        Plan::where_wanted(func, true, cfg)
    }

    /// The critical edges, or with `phis_only` those into blocks with
    /// phis.
    fn where_wanted(func: &Function, phis_only: bool, cfg: &Cfg) -> Plan {
        debug_assert!(cfg.num_blocks() == func.num_blocks());
        let n = func.num_blocks();
        let npreds = distinct_preds(func, cfg);
        let into = EntityVec::from_vec(
            func.blocks()
                .map(|b| (!phis_only || !func.block_phis(b).is_empty()) && npreds[b] >= 2)
                .collect(),
        );
        let mut multi = EntityVec::filled(n, false);
        let mut seen: EntityVec<Block, Option<Block>> = EntityVec::filled(n, None);
        let mut count = 0;
        for &source in func.layout() {
            let succs = cfg.succs(source);
            if succs.len() < 2 || distinct_succs(succs, source, &mut seen) < 2 {
                continue;
            }
            multi[source] = true;
            // `seen` again, stamped by the source's new number: the
            // targets counted (a target reached twice is one split).
            for &t in succs {
                if into[t] && seen[t] == Some(source) {
                    seen[t] = None;
                    count += 1;
                }
            }
        }
        Plan { into, multi, count }
    }

    /// Whether the phi operands of `func` labelled by `source` for `target`
    /// are on an edge the plan splits.
    pub(crate) fn splits(&self, source: Block, target: Block) -> bool {
        self.into[target] && self.multi[source]
    }

    /// `dt`, the dominator tree of `func` (whose graph is `cfg`), with
    /// its preorder as splitting would make it: the same tree over the
    /// old blocks, but a target whose only predecessor outside the blocks
    /// it dominates is a source the plan splits moves below the new block
    /// ([`DomTree::with_edges_split`]), which is numbered after the old
    /// blocks, so it comes after its old siblings (in the order of its
    /// source's successors, that of the new blocks). Coalescing ranks
    /// definitions in this preorder, so its tests (and their count) are
    /// those it makes on the split function.
    pub(crate) fn tree_as_split(&self, func: &Function, cfg: &Cfg, dt: DomTree) -> DomTree {
        let mut last = Vec::new();
        let mut seen: EntityVec<Block, Option<Block>> = EntityVec::filled(func.num_blocks(), None);
        // By target, once found: its only reachable predecessor it does
        // not dominate, if it has exactly one (it does not depend on the
        // source, so a target split from P sources scans its predecessors
        // once, not P times).
        let mut only_outside: EntityVec<Block, Option<Option<Block>>> =
            EntityVec::filled(func.num_blocks(), None);
        for &s in func.layout() {
            if !self.multi[s] || !dt.is_reachable(s) {
                continue;
            }
            for &t in cfg.succs(s) {
                if !self.into[t] || seen[t] == Some(s) {
                    continue;
                }
                seen[t] = Some(s);
                if t == func.entry() || !dt.is_reachable(t) {
                    continue;
                }
                let only = *only_outside[t]
                    .get_or_insert_with(|| dt.sole_entry(t, cfg.unique_preds(t), |p| p));
                if only == Some(s) {
                    last.push(t);
                }
            }
        }
        if last.is_empty() {
            dt
        } else {
            dt.with_children_last(&last)
        }
    }

    /// Whether a constant operand of a phi of `func` is on an edge the
    /// plan splits (its copy would go into the new block).
    pub(crate) fn has_constant_on_split_edge(&self, func: &Function) -> bool {
        func.layout().iter().any(|&t| {
            self.into[t]
                && func.block_phis(t).iter().any(|&phi| {
                    func.phi_args(phi)
                        .iter()
                        .any(|a| matches!(a.value, Operand::Const(_)) && self.multi[a.block])
                })
        })
    }
}

/// Splits the edges `plan` (made for `func` before any block was added)
/// names, as [`split_critical_edges_into_phis`] would have: the same
/// blocks, names and layout. `graph` as there; `cfg` is the graph of
/// `func`.
pub(crate) fn split_planned(
    func: &mut Function,
    plan: &Plan,
    cfg: &Cfg,
    dt: Option<DomTree>,
) -> (Vec<Block>, Option<(Cfg, DomTree)>) {
    let splits = split_edges_where(func, plan, cfg);
    let new = splits.iter().map(|s| s.new).collect();
    let graph = dt.map(|dt| {
        let cfg = Cfg::new(func);
        let edges: Vec<_> = splits.iter().map(|s| (s.source, s.target, s.new)).collect();
        let dt = dt.with_edges_split(&cfg, &edges);
        (cfg, dt)
    });
    (new, graph)
}

/// [`split_critical_edges`], but only the critical edges into blocks with
/// phis: the only ones that get copies when destruction goes out of SSA
/// (the others would stay empty and be removed at the end). `graph`,
/// when given, is the control-flow graph and dominator tree of `func` as
/// it is; they are returned true of `func` after splitting (the graph
/// rebuilt if an edge was split, the tree updated by
/// [`DomTree::with_edges_split`]). Destruction splits lazily ([`Plan`]);
/// this is its eager form, for the tests.
#[cfg(test)]
pub(crate) fn split_critical_edges_into_phis(
    func: &mut Function,
    graph: Option<(Cfg, DomTree)>,
) -> (Vec<Block>, Option<(Cfg, DomTree)>) {
    if func.blocks().all(|b| func.block_phis(b).is_empty()) {
        return (Vec::new(), graph);
    }
    let (cfg, dt) = match graph {
        Some((cfg, dt)) => (cfg, Some(dt)),
        None => (Cfg::new(func), None),
    };
    let plan = Plan::new(func, &cfg);
    if plan.count == 0 {
        return (Vec::new(), dt.map(|dt| (cfg, dt)));
    }
    split_planned(func, &plan, &cfg, dt)
}

/// The edges `plan` names split (see [`split_critical_edges`]); `cfg` is
/// the graph of `func`.
fn split_edges_where(func: &mut Function, plan: &Plan, cfg: &Cfg) -> Vec<Split> {
    if plan.count == 0 {
        return Vec::new();
    }
    debug_assert!(cfg.num_blocks() == func.num_blocks());
    let mut names = Namer::new(func);
    // Stamped by source: the block splitting the edges from the current
    // source to each target.
    let mut split_of: EntityVec<Block, Option<(Block, Block)>> =
        EntityVec::filled(func.num_blocks(), None);

    // Step 1: redirect each critical edge to a new block. Sources are
    // visited in layout order and each source's edges in successor order,
    // so `splits` is grouped by source, in layout order.
    let mut splits: Vec<Split> = Vec::with_capacity(plan.count);
    let layout = func.layout().to_vec();
    // The new target of each successor edge of the current source.
    let mut targets: Vec<Block> = Vec::new();
    for &source in &layout {
        if !plan.multi[source] {
            continue;
        }
        let succs = cfg.succs(source);
        targets.clear();
        for &target in succs {
            if !plan.into[target] {
                targets.push(target);
                continue;
            }
            let new = match split_of[target] {
                Some((s, new)) if s == source => new,
                _ => {
                    let name = names.name(func.block_name(source), func.block_name(target));
                    let new = func.create_block(&name);
                    func.set_term(new, Terminator::Jump(target));
                    splits.push(Split {
                        source,
                        target,
                        new,
                    });
                    split_of[target] = Some((source, new));
                    new
                }
            };
            targets.push(new);
        }
        // `redirect_succs` visits the edges in the order of `cfg.succs`.
        let mut next = targets.iter();
        func.redirect_succs(source, |_| *next.next().expect("one target per edge"));
    }
    debug_assert_eq!(splits.len(), plan.count);
    if splits.is_empty() {
        return Vec::new();
    }

    // Step 2: phi operands. Group the splits by target; each operand
    // labelled by a split source is relabelled by its new block.
    let n = func.num_blocks();
    let by_target: Csr<Block, Split> = Csr::build(n, |sink| {
        for s in &splits {
            sink.push(s.target, *s)
        }
    });
    // `new_of[source]`: the block splitting the edges from `source` to the
    // target being processed; reset after use.
    let mut new_of: EntityVec<Block, Option<Block>> = EntityVec::filled(n, None);
    for target in func.blocks() {
        let group = by_target.of(target);
        if group.is_empty() || func.block_phis(target).is_empty() {
            continue;
        }
        for s in group {
            new_of[s.source] = Some(s.new);
        }
        for p in 0..func.block_phis(target).len() {
            let phi = func.block_phis(target)[p];
            for arg in func.phi_args_mut(phi) {
                if let Some(new) = new_of[arg.block] {
                    arg.block = new;
                }
            }
        }
        for s in group {
            new_of[s.source] = None;
        }
    }

    // Step 3: the layout, rebuilt once: each source followed by its new
    // blocks.
    let mut new_layout = Vec::with_capacity(layout.len() + splits.len());
    let mut next = 0;
    for &b in &layout {
        new_layout.push(b);
        while next < splits.len() && splits[next].source == b {
            new_layout.push(splits[next].new);
            next += 1;
        }
    }
    debug_assert_eq!(next, splits.len());
    func.set_layout(new_layout);
    splits
}

/// Removes the blocks of `new_blocks` (those [`split_critical_edges`]
/// returned) that are still empty and end in a plain jump: the edge goes
/// straight to the target again. Returns how many were removed.
///
/// # Preconditions
/// No phi remains (a phi of the target would be labelled by the block
/// removed). Each such block has a single predecessor block, as splitting
/// made it.
pub(crate) fn remove_empty_split_blocks(func: &mut Function, new_blocks: &[Block]) -> usize {
    // `forward[b]`: where an edge to `b` should go instead.
    let mut forward: EntityVec<Block, Option<Block>> = EntityVec::filled(func.num_blocks(), None);
    let mut removed = 0;
    for &b in new_blocks {
        debug_assert!(func.block_phis(b).is_empty());
        if let (true, &Terminator::Jump(t)) = (func.block_insts(b).is_empty(), func.term(b)) {
            forward[b] = Some(t);
            removed += 1;
        }
    }
    if removed == 0 {
        return 0;
    }
    for b in func.layout().to_vec() {
        func.redirect_succs(b, |s| forward[s].unwrap_or(s));
    }
    func.retain_layout(|&b| forward[b].is_none());
    removed
}

/// `source_target`, or the first free `source_target.k`, `k = 1, 2, ...`;
/// records the name as taken.
fn fresh_name(names: &mut HashSet<Box<str>>, source: &str, target: &str) -> String {
    let base = format!("{source}_{target}");
    let mut name = base.clone();
    let mut k = 1;
    while names.contains(name.as_str()) {
        name = format!("{base}.{k}");
        k += 1;
    }
    names.insert(name.as_str().into());
    name
}

/// Whether `func` has a critical edge: from a block with several distinct
/// successors to a block with several distinct predecessors (a cheap
/// precondition check for passes that require none).
///
/// # Example
///
/// ```
/// use ssakit::destruct::critical_edges::has_critical_edges;
/// let diamond = "function f(c) {
/// e:
///     branch c, l, r
/// l:
///     jump j
/// r:
///     jump j
/// j:
///     ret
/// }
/// ";
/// let f = &ssakit::text::parse_module(diamond).unwrap().functions[0];
/// assert!(!has_critical_edges(f));
/// let triangle = "function f(c) {
/// e:
///     branch c, j, l
/// l:
///     jump j
/// j:
///     ret
/// }
/// ";
/// let f = &ssakit::text::parse_module(triangle).unwrap().functions[0];
/// assert!(has_critical_edges(f));
/// ```
#[cfg(test)]
pub(crate) fn has_critical_edges(func: &Function) -> bool {
    let cfg = Cfg::new(func);
    let npreds = distinct_preds(func, &cfg);
    let mut seen = EntityVec::filled(func.num_blocks(), None);
    func.layout().iter().any(|&b| {
        let succs = cfg.succs(b);
        distinct_succs(succs, b, &mut seen) > 1 && succs.iter().any(|&t| npreds[t] > 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::text::parse_one as parse;

    fn phi_labels(f: &Function, b: Block) -> Vec<Vec<(String, Operand)>> {
        f.block_phis(b)
            .iter()
            .map(|&i| {
                f.phi_args(i)
                    .iter()
                    .map(|a| (f.block_name(a.block).to_string(), a.value))
                    .collect()
            })
            .collect()
    }

    /// The loop header `h` is entered from `e` and from the latch `b`,
    /// both by critical edges: after splitting, the block on `e -> h` is
    /// `h`'s immediate dominator (the latch's does not count, `h`
    /// dominates it), and the tree updated in place is the one built anew.
    ///
    /// ```text
    ///   e ──> e_h ──> h <── b_h <── b
    ///   │             │ ^           ^
    ///   └──> x <──────┘ └────> b ───┘ (b also to x)
    /// ```
    #[test]
    fn dominator_tree_is_updated_across_splitting() {
        let mut f = parse(
            "function f(c) {
e:
    branch c, h, x
h:
    v1 = phi(e: 0, b: v2)
    branch c, b, x
b:
    v2 = v1 + 1
    branch c, h, x
x:
    ret
}
",
        );
        let cfg = Cfg::new(&f);
        let dt = DomTree::new(&cfg);
        let (new, graph) = split_critical_edges_into_phis(&mut f, Some((cfg, dt)));
        assert_eq!(new.len(), 2);
        let (cfg, dt) = graph.expect("the graph is kept");
        let fresh = DomTree::new(&Cfg::new(&f));
        let h = f.block_by_name("h").unwrap();
        assert_eq!(dt.idom(h), f.block_by_name("e_h"));
        for b in f.blocks() {
            assert_eq!(dt.idom(b), fresh.idom(b), "{}", f.block_name(b));
            assert_eq!(cfg.preds(b), Cfg::new(&f).preds(b));
        }
    }

    fn layout_names(f: &Function) -> Vec<&str> {
        f.layout().iter().map(|&b| f.block_name(b)).collect()
    }

    /// ```text
    ///   A --> C        A: branch c, C, B      the edge A → C is critical
    ///   |     ^        B: jump C
    ///   v     |        C: x = phi(A: 1, B: 2)
    ///   B ----+
    /// ```
    #[test]
    fn triangle() {
        let mut f = parse(
            "function f(c) {
A:
    branch c, C, B
B:
    jump C
C:
    x = phi(A: 1, B: 2)
    ret x
}
",
        );
        let block = |f: &Function, name: &str| f.block_by_name(name).unwrap();
        let (ba, bb, bc) = (block(&f, "A"), block(&f, "B"), block(&f, "C"));
        let c = f.var_by_name("c").unwrap();
        assert!(has_critical_edges(&f));
        let new = split_critical_edges(&mut f);
        assert_eq!(new.len(), 1);
        assert!(!has_critical_edges(&f));
        assert_eq!(layout_names(&f), ["A", "A_C", "B", "C"]);
        let n = block(&f, "A_C");
        assert_eq!(new, [n]);
        assert_eq!(*f.term(n), Terminator::Jump(bc));
        assert_eq!(
            *f.term(ba),
            Terminator::Branch {
                cond: c.into(),
                then_dest: n,
                else_dest: bb
            }
        );
        assert_eq!(
            phi_labels(&f, bc),
            [[
                ("A_C".into(), Operand::Const(1)),
                ("B".into(), Operand::Const(2))
            ]]
        );
        // Idempotent.
        assert!(split_critical_edges(&mut f).is_empty());
    }

    /// `branch c, L, L`: two parallel edges from one block to one block
    /// are not critical (the source has one distinct successor): copies at
    /// its end run on the way to `L` whichever edge is taken.
    #[test]
    fn parallel_edges_to_one_block_are_not_critical() {
        let mut f = parse(
            "function f(c) {
E:
    branch c, L, L
L:
    x = phi(E: c)
    ret x
}
",
        );
        assert!(!has_critical_edges(&f));
        assert!(split_critical_edges(&mut f).is_empty());
    }

    /// A critical edge `E → L` whose name `E_L` is taken: the new block is
    /// `E_L.1`.
    #[test]
    fn name_collision() {
        let mut f = parse(
            "function f(c) {
E:
    branch c, L, M
M:
    jump L
L:
    x = phi(E: c, M: 0)
    ret x
E_L:
    ret
}
",
        );
        let bl = f.block_by_name("L").unwrap();
        let c = f.var_by_name("c").unwrap();
        assert_eq!(split_critical_edges(&mut f).len(), 1);
        assert_eq!(layout_names(&f), ["E", "E_L.1", "M", "L", "E_L"]);
        assert_eq!(
            phi_labels(&f, bl),
            [[("E_L.1".into(), c.into()), ("M".into(), Operand::Const(0))]]
        );
    }

    /// A switch whose targets repeat, and a loop back edge; only critical
    /// edges are split (the edge into `X`, which has one predecessor, is
    /// not), and the two edges `H → H` share one block.
    ///
    /// ```text
    /// E: jump H
    /// H: y = phi(E: 0, H: y, Z: 5)     switch c, X, [H, H, Z]
    /// X: ret y   Z: jump H
    /// ```
    #[test]
    fn switch_with_repeated_targets() {
        let mut f = parse(
            "function f(c) {
E:
    jump H
H:
    y = phi(E: 0, H: y, Z: 5)
    switch c, X, [H, H, Z]
X:
    ret y
Z:
    jump H
}
",
        );
        let bh = f.block_by_name("H").unwrap();
        let y = f.var_by_name("y").unwrap();
        // H → H twice: critical, both edges through one new block. H → Z:
        // Z has one predecessor. H → X: one.
        assert_eq!(split_critical_edges(&mut f).len(), 1);
        assert_eq!(layout_names(&f), ["E", "H", "H_H", "X", "Z"]);
        assert_eq!(
            phi_labels(&f, bh),
            [[
                ("E".into(), Operand::Const(0)),
                ("H_H".into(), y.into()),
                ("Z".into(), Operand::Const(5)),
            ]]
        );
        let hh = f.block_by_name("H_H").unwrap();
        let cfg = Cfg::new(&f);
        assert_eq!(cfg.preds(hh), [bh, bh]);
        // Phi operands still follow the predecessor order of the CFG.
        let cfg = Cfg::new(&f);
        let labels: Vec<Block> = cfg.unique_preds(bh).collect();
        let args: Vec<Block> = f
            .phi_args(f.block_phis(bh)[0])
            .iter()
            .map(|a| a.block)
            .collect();
        assert_eq!(labels, args);
    }

    /// The split blocks that got no instruction go again, and the edges
    /// through them go straight to their targets.
    #[test]
    fn empty_split_blocks_are_removed() {
        let src = "function f(c) {
A:
    branch c, C, B
B:
    jump C
C:
    ret
}
";
        let mut f = parse(src);
        let new = split_critical_edges(&mut f);
        assert_eq!(layout_names(&f), ["A", "A_C", "B", "C"]);
        assert_eq!(remove_empty_split_blocks(&mut f, &new), 1);
        assert_eq!(f, parse(src));
    }
}
