//! The trace tables the chapter announces but does not print ("Traza
//! completa para la variable x", "Traza del renombrado").
//!
//! * The phi-insertion trace has one row per worklist step: the block X
//!   taken from W, DF(X), where a phi was inserted, and F and W afterwards.
//! * The renaming trace has one row per mention of the variable, in walk
//!   order: the instruction (labelled `l1`, `l2`, ... as in the chapter's
//!   figure), `v.reachingDef` before, each value the chain climbs to in
//!   `updateReachingDef`, and `v.reachingDef` after.
//!
//! Rendering is linear in the size of the function: a cell longer than
//! `CELL_MAX` characters is cut (a set keeps its first blocks and says how
//! many more it has, an instruction is cut with `…`), and no column is
//! padded wider than `PAD_MAX`. The sets F, W and DF(X) of every step
//! would otherwise make the insertion table grow with the square of the
//! blocks (a 20,000-block ladder printed 3.6 GB). The chapter's small
//! examples are far below the cap and print in full.

use super::observe::{Observer, Site};
use super::rename::Climb;
use crate::analysis::{DomEvent, DomTree};
use crate::entity::Csr;
use crate::ir::{Block, Cfg, Function, Inst, Var, VarNames};
use crate::union_find::UnionFind;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write;

/// One step of the phi-insertion worklist for the traced variable.
///
/// ```
/// use ssakit::construct::{construct_traced, Options};
/// let mut f = ssakit::text::parse_module("function f(c) {
/// e:
///     branch c, t, j
/// t:
///     x = 1
///     jump j
/// j:
///     ret x
/// }").unwrap().functions.remove(0);
/// let (_, trace) = construct_traced(&mut f, &Options::default(), "x").unwrap();
/// let first = &trace.insert[0];
/// let j = f.block_by_name("j").unwrap();
/// assert_eq!(f.block_name(first.x), "t");
/// assert_eq!((first.df.as_slice(), first.inserted.as_slice()), (&[j][..], &[j][..]));
/// assert_eq!((first.f.as_slice(), first.w.as_slice()), (&[j][..], &[j][..]));
/// assert_eq!((first.df_len, first.inserted_len, first.f_len, first.w_len), (1, 1, 1, 1));
/// ```
///
/// Each set keeps only its first [`ROW_SHOWN`] blocks, more than a cell of
/// the table shows, and its size: the rows of a ladder's variable would
/// otherwise hold sets quadratic in the function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsertRow {
    /// The block taken from W.
    pub x: Block,
    /// DF(X), sorted: its first blocks.
    pub df: Vec<Block>,
    /// The size of DF(X).
    pub df_len: usize,
    /// Blocks of DF(X) that received a phi in this step: the first ones.
    pub inserted: Vec<Block>,
    /// How many blocks received a phi in this step.
    pub inserted_len: usize,
    /// F after the step (blocks with a phi for the variable), sorted: its
    /// first blocks.
    pub f: Vec<Block>,
    /// The size of F after the step.
    pub f_len: usize,
    /// W after the step, in removal order: its first blocks.
    pub w: Vec<Block>,
    /// The size of W after the step.
    pub w_len: usize,
}

/// The blocks an [`InsertRow`] keeps of each set: a cell of the table
/// shows at most `CELL_MAX / 3` of them (a name and `, ` each).
///
/// ```
/// assert!(ssakit::construct::trace::ROW_SHOWN >= 20);
/// ```
pub const ROW_SHOWN: usize = 32;

/// The first [`ROW_SHOWN`] blocks of `bs`.
pub(crate) fn shown(bs: impl IntoIterator<Item = Block>) -> Vec<Block> {
    bs.into_iter().take(ROW_SHOWN).collect()
}

/// One mention of the traced variable during renaming.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RenameRow {
    /// The block being renamed.
    pub(crate) block: Block,
    /// The mention.
    pub(crate) site: Site,
    /// `v.reachingDef` before `updateReachingDef`.
    pub(crate) before: Option<crate::ir::Var>,
    /// The values `v.reachingDef` climbed to, in order.
    pub(crate) climbed: Vec<Option<crate::ir::Var>>,
    /// `v.reachingDef` after: the version used, or the new version defined.
    pub(crate) after: Option<crate::ir::Var>,
    /// The version defined, for a definition.
    pub(crate) defined: Option<crate::ir::Var>,
}

/// A full construction trace of one variable.
///
/// ```
/// use ssakit::construct::{construct_traced, Options};
/// let mut f = ssakit::text::parse_module("function f(c) {
/// e:
///     branch c, t, j
/// t:
///     x = 1
///     jump j
/// j:
///     ret x
/// }").unwrap().functions.remove(0);
/// let (_, trace) = construct_traced(&mut f, &Options::default(), "x").unwrap();
/// assert_eq!(trace.var, "x");
/// let names = |bs: &[ssakit::ir::Block]| bs.iter().map(|&b| f.block_name(b).to_string()).collect::<Vec<_>>();
/// assert_eq!(names(&trace.defs), ["t"]);
/// assert_eq!(names(&trace.preorder), ["e", "t", "j"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The traced variable's name.
    pub var: String,
    /// Definition blocks of the variable.
    pub defs: Vec<Block>,
    /// Worklist steps.
    pub insert: Vec<InsertRow>,
    /// Dominator-tree preorder walked by renaming.
    pub preorder: Vec<Block>,
    /// Renaming rows.
    pub(crate) rename: Vec<RenameRow>,
}

/// The [`Observer`] of the trace: builds the insertion rows from the
/// worklist's steps for one variable, and records where each mention of
/// that variable is during renaming, in walk order.
#[derive(Debug)]
pub(crate) struct TraceObserver {
    var: Var,
    /// W as the worklist holds it: every block added, in order;
    /// `w[w_head..]` are still to be taken.
    w: Vec<Block>,
    w_head: usize,
    /// F as the trace shows it: the blocks given a phi, sorted.
    f: BTreeSet<Block>,
    /// The blocks given a phi in the current step: the first
    /// [`ROW_SHOWN`], and how many.
    inserted: Vec<Block>,
    inserted_len: usize,
    /// The rows of the steps done.
    insert: Vec<InsertRow>,
    /// `(block, site, version found or defined, whether a definition)`.
    mentions: Vec<(Block, Site, Option<Var>, bool)>,
}

impl TraceObserver {
    /// An observer of the steps and mentions of `var`.
    pub(crate) fn new(var: Var) -> Self {
        TraceObserver {
            var,
            w: Vec::new(),
            w_head: 0,
            f: BTreeSet::new(),
            inserted: Vec::new(),
            inserted_len: 0,
            insert: Vec::new(),
            mentions: Vec::new(),
        }
    }

    /// The rows of both tables. The renaming rows pair each mention with
    /// the climb of `updateReachingDef` that
    /// [`ReachingDefChains`](super::rename::ReachingDefChains) recorded for
    /// it (one climb per mention, in the same order); without `climbs`
    /// (renaming by stacks) there are none.
    pub(crate) fn into_rows(self, climbs: Option<Vec<Climb>>) -> (Vec<InsertRow>, Vec<RenameRow>) {
        let Some(climbs) = climbs else {
            return (self.insert, Vec::new());
        };
        debug_assert_eq!(self.mentions.len(), climbs.len());
        let rename = self
            .mentions
            .into_iter()
            .zip(climbs)
            .map(|((block, site, v, def), c)| RenameRow {
                block,
                site,
                before: c.before,
                climbed: c.climbed,
                after: v,
                defined: if def { v } else { None },
            })
            .collect();
        (self.insert, rename)
    }
}

impl Observer for TraceObserver {
    fn watches(&self, v: Var) -> bool {
        v == self.var
    }
    fn added(&mut self, _v: Var, b: Block) {
        self.w.push(b);
    }
    fn taken(&mut self, _v: Var, x: Block) {
        debug_assert_eq!(self.w.get(self.w_head), Some(&x), "W is taken in order");
        self.w_head += 1;
        self.inserted.clear();
        self.inserted_len = 0;
    }
    fn placed(&mut self, _v: Var, y: Block) {
        if self.inserted.len() < ROW_SHOWN {
            self.inserted.push(y);
        }
        self.inserted_len += 1;
        self.f.insert(y);
    }
    fn stepped(&mut self, _v: Var, x: Block, df: &[Block], df_len: usize) {
        let w = &self.w[self.w_head..];
        self.insert.push(InsertRow {
            x,
            df: df.to_vec(),
            df_len,
            inserted: std::mem::take(&mut self.inserted),
            inserted_len: self.inserted_len,
            f: shown(self.f.iter().copied()),
            f_len: self.f.len(),
            w: shown(w.iter().copied()),
            w_len: w.len(),
        });
    }
    fn used(&mut self, v: Var, site: Site, block: Block, found: Option<Var>) {
        if v == self.var {
            self.mentions.push((block, site, found, false));
        }
    }
    fn defined(&mut self, v: Var, site: Site, block: Block, new: Var) {
        if v == self.var {
            self.mentions.push((block, site, Some(new), true));
        }
    }
}

/// Cells longer than this many characters are cut.
const CELL_MAX: usize = 60;

/// Columns are padded to the width of their widest cell, at most this many
/// characters (a longer cell, such as a very long label, is written as it
/// is and breaks the alignment of its row only).
const PAD_MAX: usize = 80;

fn block_set(f: &Function, bs: &[Block]) -> String {
    let names: Vec<&str> = bs.iter().map(|&b| f.block_name(b)).collect();
    format!("{{{}}}", names.join(", "))
}

/// `{A, B, ...}` as [`block_set`] if it fits in [`CELL_MAX`] characters,
/// else its first blocks and the count of the others, `{A, B, … 8573 more}`,
/// in about as many characters, whatever the size of the set: `bs` are
/// the set's first blocks (at least as many as fit), `len` its size.
fn block_cell(f: &Function, bs: &[Block], len: usize) -> String {
    let mut out = String::from("{");
    // out.len() after each block written.
    let mut ends = Vec::new();
    for (k, &b) in bs.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(f.block_name(b));
        ends.push(out.len());
        if out.len() + 1 > CELL_MAX && k + 1 < len {
            // Too long with more to come: drop blocks until the count fits.
            loop {
                let more = format!(", … {} more}}", len - ends.len());
                let end = ends.last().copied().unwrap_or(1);
                if ends.len() <= 1 || end + more.chars().count() <= CELL_MAX {
                    out.truncate(end);
                    out.push_str(&more);
                    return out;
                }
                ends.pop();
            }
        }
    }
    out.push('}');
    out
}

/// `text` if it fits in [`CELL_MAX`] characters, else its beginning and `…`.
fn cut(text: &str) -> String {
    match text.char_indices().nth(CELL_MAX) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// `a, b, c` from `items`, cut as [`cut`] does, reading only the items
/// that are shown.
fn list_cell<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (k, item) in items.enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(item);
        if out.chars().count() > CELL_MAX {
            return cut(&out);
        }
    }
    out
}

fn table(rows: &[Vec<String>]) -> String {
    let ncol = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut width = vec![0; ncol];
    for r in rows {
        for (k, c) in r.iter().enumerate() {
            width[k] = width[k].max(c.chars().count().min(PAD_MAX));
        }
    }
    let mut out = String::new();
    for (n, r) in rows.iter().enumerate() {
        let mut line = String::new();
        for (k, c) in r.iter().enumerate() {
            let pad = width[k].saturating_sub(c.chars().count());
            let _ = write!(line, "| {c}{} ", " ".repeat(pad));
        }
        line.push('|');
        out.push_str(&line);
        out.push('\n');
        if n == 0 {
            let mut sep = String::new();
            for w in &width {
                let _ = write!(sep, "|{}", "-".repeat(w + 2));
            }
            sep.push('|');
            out.push_str(&sep);
            out.push('\n');
        }
    }
    out
}

impl Trace {
    /// Renders both tables against the constructed function.
    ///
    /// ```
    /// use ssakit::construct::{construct_traced, Options};
    /// let mut f = ssakit::text::parse_module("function f() {\ne:\n    x = 1\n    ret x\n}")
    ///     .unwrap()
    ///     .functions
    ///     .remove(0);
    /// let (_, trace) = construct_traced(&mut f, &Options::default(), "x").unwrap();
    /// let table = trace.render(&f);
    /// assert!(table.contains("Renaming of x, dominator-tree preorder {e}:"));
    /// assert!(table.contains("| x1 = 1 "));
    /// ```
    pub fn render(&self, f: &Function) -> String {
        let names = VarNames::new(f);
        let v = &self.var;
        let bot = "⊥".to_string();
        let name = |x: Option<crate::ir::Var>| x.map_or(bot.clone(), |x| names[x].to_string());
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Phi insertion for {v}: Defs({v}) = {}",
            block_set(f, &self.defs)
        );
        let mut rows = vec![vec![
            "step".into(),
            "X taken from W".into(),
            "DF(X)".into(),
            "phi inserted at".into(),
            "F after".into(),
            "W after".into(),
        ]];
        for (k, r) in self.insert.iter().enumerate() {
            rows.push(vec![
                (k + 1).to_string(),
                f.block_name(r.x).to_string(),
                block_cell(f, &r.df, r.df_len),
                if r.inserted.is_empty() {
                    "-".into()
                } else {
                    block_cell(f, &r.inserted, r.inserted_len)
                },
                block_cell(f, &r.f, r.f_len),
                block_cell(f, &r.w, r.w_len),
            ]);
        }
        let insert_rows = rows;
        let mut rows = vec![vec![
            "label".into(),
            "block".into(),
            "instruction".into(),
            format!("{v}.reachingDef before"),
            "updated to".into(),
            format!("{v}.reachingDef after"),
        ]];
        // Label the instructions mentioning the variable l1, l2, ... in
        // program order, as the chapter's figure does.
        let key = |s: Site| match s {
            Site::SuccPhi(i) => Site::Inst(i),
            s => s,
        };
        let mentioned: HashSet<Site> = self.rename.iter().map(|r| key(r.site)).collect();
        let mut labels: HashMap<Site, usize> = HashMap::new();
        for &b in f.layout() {
            let sites = f.block_all_insts(b).map(Site::Inst).chain([Site::Term(b)]);
            for s in sites {
                let undef_def = match s {
                    Site::Inst(i) => Some(Site::UndefDef(i)),
                    _ => None,
                };
                for m in std::iter::once(s).chain(undef_def) {
                    if mentioned.contains(&m) {
                        let n = labels.len() + 1;
                        labels.insert(m, n);
                    }
                }
            }
        }
        // The text of each instruction mentioned, made once: a phi with many
        // operands is mentioned once per predecessor.
        let mut inst_text: HashMap<Inst, String> = HashMap::new();
        let mut text_of = |i: Inst| {
            inst_text
                .entry(i)
                .or_insert_with(|| {
                    let mut text = String::new();
                    crate::text::printer::write_inst(&mut text, f, &names, i);
                    cut(&text)
                })
                .clone()
        };
        for r in &self.rename {
            let label = labels
                .get(&key(r.site))
                .map_or("-".to_string(), |l| format!("l{l}"));
            let text = match r.site {
                Site::Param => format!("parameter {}", name(r.defined)),
                Site::Inst(i) | Site::UndefDef(i) => text_of(i),
                Site::SuccPhi(i) => {
                    format!("{}  (operand from {})", text_of(i), f.block_name(r.block))
                }
                Site::Term(b) => {
                    let mut text = String::new();
                    crate::text::printer::write_term(&mut text, f, &names, f.term(b));
                    cut(&text)
                }
            };
            let after = match r.defined {
                Some(d) => format!(
                    "{} (def; {}.reachingDef = {})",
                    names[d].to_owned(),
                    names[d].to_owned(),
                    name(r.climbed.last().copied().unwrap_or(r.before))
                ),
                None => name(r.after),
            };
            rows.push(vec![
                label,
                f.block_name(r.block).to_string(),
                text,
                name(r.before),
                if r.climbed.is_empty() {
                    "-".into()
                } else {
                    list_cell(r.climbed.iter().map(|&c| c.map_or("⊥", |c| &names[c])))
                },
                after,
            ]);
        }
        let was_cut = |rows: &[Vec<String>]| rows.iter().flatten().any(|c| c.contains('…'));
        if was_cut(&insert_rows) || was_cut(&rows) {
            let _ = writeln!(
                out,
                "(cells longer than {CELL_MAX} characters are cut: `…` marks the cut, \
                 `N more` counts the blocks a set has beyond those shown)"
            );
        }
        out.push_str(&table(&insert_rows));
        let _ = writeln!(
            out,
            "\nRenaming of {v}, dominator-tree preorder {}:",
            block_set(f, &self.preorder)
        );
        out.push_str(&table(&rows));
        out
    }
}

/// The steps of the bounded walk [`TracedFrontiers::shown`] takes to list
/// DF(X) (blocks popped and edges looked at): past it, a cell shows the
/// blocks found so far and the size counted beforehand.
const WALK_BUDGET: usize = 256;

/// DF(X) for the rows of the insertion trace, without DF_all and without
/// walking each X's dominator subtree: on a ladder the frontiers of the
/// blocks a variable's worklist takes sum to n², so listing them whole
/// would make `construct --trace` and `explain` quadratic.
///
/// A step needs three things of DF(X); each costs near-linear time over
/// all the steps of a variable:
///
/// * **Its size** `|DF(X)|`, counted for every block at once. Y is in
///   DF(X) iff X dominates a predecessor of Y and does not strictly
///   dominate Y (chapter 13.2), that is, iff X lies on the dominator-tree
///   path from some predecessor P of Y up to idom(Y), idom(Y) excluded.
///   The union of these paths is counted with +1 at each predecessor
///   (sorted by preorder), -1 at the nearest common dominator of each two
///   consecutive ones and -1 at idom(Y): the sum over X's subtree is then
///   1 when the union holds X and 0 otherwise. The common dominators come
///   from Tarjan's offline algorithm (one union-find pass over the tree).
/// * **Its blocks not yet in F**, the ones the step may give a phi. With
///   depth(Y) <= depth(X) equivalent to "X does not strictly dominate Y"
///   when X dominates a predecessor of Y, DF(X) is the set of targets of
///   the edges leaving X's subtree (a preorder interval of sources) whose
///   target is no deeper than X. The edges are kept in a segment tree in
///   source preorder, each holding its target's depth; a query finds the
///   leftmost edge of the interval no deeper than X, and a block entering
///   F takes all its incoming edges out of the tree. Each block is found
///   once and each edge removed once: O(E log E) for the variable.
/// * **Its blocks to show**: the subtree walk of the chapter's definition,
///   stopped after [`WALK_BUDGET`] steps. A DF(X) found whole is shown
///   whole, sorted, as before; a larger one shows the blocks the walk
///   found, sorted, and the counted size (`{A, B, … 8573 more}`).
pub(crate) struct TracedFrontiers<'a> {
    cfg: &'a Cfg,
    dt: &'a DomTree,
    /// `|DF(b)|` by block index.
    df_len: Vec<u32>,
    /// Dominator-tree depth by block index.
    depth: Vec<u32>,
    /// `edge_start[k]`: the first edge (segment-tree leaf) whose source has
    /// preorder number `k` or more; `edge_start[num_reachable]` is the
    /// number of edges.
    edge_start: Vec<u32>,
    /// Preorder number and end of the subtree (one past its last
    /// preorder number) by block index.
    pre: Vec<u32>,
    end: Vec<u32>,
    /// The target of each edge.
    target: Vec<Block>,
    /// The edges into each block.
    into: Csr<Block, u32>,
    /// Segment tree of the targets' depths over the edges (`u32::MAX` for
    /// an edge taken out); leaves from `leaves`.
    tree: Vec<u32>,
    leaves: usize,
    /// Scratch of the bounded walk: `seen[y] == stamp` once y is found.
    seen: Vec<u32>,
    stamp: u32,
}

impl<'a> TracedFrontiers<'a> {
    /// The tables for `cfg`'s reachable blocks, dominated as `dt` says.
    pub(crate) fn new(cfg: &'a Cfg, dt: &'a DomTree) -> Self {
        let n = cfg.num_blocks();
        let none = u32::MAX;
        let (mut pre, mut end) = (vec![none; n], vec![none; n]);
        let mut order: Vec<Block> = Vec::with_capacity(dt.num_reachable());
        for event in dt.walk() {
            match event {
                DomEvent::Enter(b) => {
                    pre[b.index()] = order.len() as u32;
                    order.push(b);
                }
                DomEvent::Exit(b) => end[b.index()] = order.len() as u32,
            }
        }
        let depth: Vec<u32> = (0..n)
            .map(|b| dt.depth(Block::new(b)).unwrap_or(none))
            .collect();
        let reachable = |b: Block| pre[b.index()] != none;
        // The counts at each block, and the pairs of consecutive
        // predecessors whose common dominator takes one off.
        let mut count = vec![0i64; n];
        let mut pairs: Vec<(Block, Block)> = Vec::new();
        let mut preds: Vec<Block> = Vec::new();
        for &y in &order {
            preds.clear();
            preds.extend(cfg.preds(y).iter().copied().filter(|&p| reachable(p)));
            preds.sort_unstable_by_key(|p| pre[p.index()]);
            for &p in &preds {
                count[p.index()] += 1;
            }
            pairs.extend(preds.windows(2).map(|w| (w[0], w[1])));
            if let Some(i) = dt.idom(y) {
                count[i.index()] -= 1;
            }
        }
        for nca in nearest_common_dominators(dt, n, &pairs) {
            count[nca.index()] -= 1;
        }
        // Subtree sums, children before parents.
        for &b in order.iter().rev() {
            if let Some(i) = dt.idom(b) {
                count[i.index()] += count[b.index()];
            }
        }
        let df_len = count.iter().map(|&c| c.max(0) as u32).collect();
        // The edges that can lead into a frontier (target no deeper than
        // source), by the source's preorder number.
        let mut edge_start = vec![0u32; order.len() + 1];
        let mut target = Vec::new();
        let mut into_pairs = Vec::new();
        for (k, &p) in order.iter().enumerate() {
            edge_start[k] = target.len() as u32;
            for &y in cfg.succs(p) {
                if depth[y.index()] <= depth[p.index()] {
                    into_pairs.push((y, target.len() as u32));
                    target.push(y);
                }
            }
        }
        edge_start[order.len()] = target.len() as u32;
        let leaves = target.len().next_power_of_two();
        let mut tree = vec![none; 2 * leaves];
        for (e, &y) in target.iter().enumerate() {
            tree[leaves + e] = depth[y.index()];
        }
        for k in (1..leaves).rev() {
            tree[k] = tree[2 * k].min(tree[2 * k + 1]);
        }
        TracedFrontiers {
            cfg,
            dt,
            df_len,
            depth,
            edge_start,
            pre,
            end,
            target,
            into: Csr::from_pairs(n, into_pairs),
            tree,
            leaves,
            seen: vec![0; n],
            stamp: 0,
        }
    }

    /// `|DF(x)|`.
    pub(crate) fn len(&self, x: Block) -> usize {
        self.df_len[x.index()] as usize
    }

    /// Pushes onto `out` the blocks of DF(x) not found by an earlier call
    /// (the blocks of F, for the worklist's only caller), and takes them
    /// out: each block is found once.
    pub(crate) fn take_new(&mut self, x: Block, out: &mut Vec<Block>) {
        let k = self.pre[x.index()];
        if k == u32::MAX {
            return;
        }
        let lo = self.edge_start[k as usize] as usize;
        let hi = self.edge_start[self.end[x.index()] as usize] as usize;
        let d = self.depth[x.index()];
        while let Some(e) = self.leftmost_at_most(lo, hi, d) {
            let y = self.target[e];
            out.push(y);
            for &e in self.into.of(y) {
                let mut k = self.leaves + e as usize;
                self.tree[k] = u32::MAX;
                while k > 1 {
                    k /= 2;
                    self.tree[k] = self.tree[2 * k].min(self.tree[2 * k + 1]);
                }
            }
        }
    }

    /// The leftmost edge of `lo..hi` whose value is at most `d`.
    fn leftmost_at_most(&self, lo: usize, hi: usize, d: u32) -> Option<usize> {
        // Nodes `(k, first leaf, one past the last)`, left child on top.
        let mut stack = vec![(1usize, 0usize, self.leaves)];
        while let Some((k, a, b)) = stack.pop() {
            if b <= lo || hi <= a || self.tree[k] > d {
                continue;
            }
            if b - a == 1 {
                return Some(a);
            }
            let mid = (a + b) / 2;
            stack.push((2 * k + 1, mid, b));
            stack.push((2 * k, a, mid));
        }
        None
    }

    /// The blocks of DF(x) a trace row keeps: all of them, sorted, when the
    /// walk of x's subtree ends within [`WALK_BUDGET`] steps, else the
    /// ones it found, sorted; at most [`ROW_SHOWN`].
    pub(crate) fn shown(&mut self, x: Block) -> Vec<Block> {
        self.stamp += 1;
        let mut out = Vec::new();
        let mut stack = vec![x];
        let mut steps = 0;
        'walk: while let Some(z) = stack.pop() {
            for &y in self.cfg.succs(z) {
                steps += 1;
                if steps > WALK_BUDGET {
                    break 'walk;
                }
                if self.seen[y.index()] != self.stamp && !self.dt.strictly_dominates(x, y) {
                    self.seen[y.index()] = self.stamp;
                    out.push(y);
                }
            }
            stack.extend_from_slice(self.dt.children(z));
            steps += 1;
        }
        debug_assert!(steps > WALK_BUDGET || out.len() == self.len(x));
        out.sort_unstable();
        out.truncate(ROW_SHOWN);
        out
    }
}

/// The nearest common dominator of each pair, by Tarjan's offline
/// algorithm ("Applications of path compression on balanced trees", 1979)
/// over the events of [`DomTree::walk`]: when a block is left, the other
/// end of each of its pairs already left is in a set whose `anc` is the
/// pair's common dominator. Every block of `pairs` is reachable.
fn nearest_common_dominators(dt: &DomTree, n: usize, pairs: &[(Block, Block)]) -> Vec<Block> {
    let ends = Csr::from_pairs(
        n,
        pairs
            .iter()
            .enumerate()
            .flat_map(|(q, &(a, b))| [(a, q as u32), (b, q as u32)]),
    );
    let mut uf = UnionFind::new(n);
    let mut anc: Vec<Block> = (0..n).map(Block::new).collect();
    let mut left = vec![false; n];
    let mut out = vec![Block::new(0); pairs.len()];
    for event in dt.walk() {
        let DomEvent::Exit(u) = event else { continue };
        left[u.index()] = true;
        for &q in ends.of(u) {
            let (a, b) = pairs[q as usize];
            let other = if a == u { b } else { a };
            if left[other.index()] {
                out[q as usize] = anc[uf.find(other.index())];
            }
        }
        if let Some(p) = dt.idom(u) {
            let r = uf.union(p.index(), u.index());
            anc[r] = p;
        }
    }
    out
}
