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

use super::rename::{Climb, Observer};
use crate::ir::{Block, Function, Inst, Var, VarNames};
use std::collections::{HashMap, HashSet};
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

/// Where a mention of the traced variable is.
///
/// ```
/// use ssakit::construct::{construct_traced, trace::Site, Options};
/// let mut f = ssakit::text::parse_module("function f(x) {\ne:\n    ret x\n}").unwrap().functions.remove(0);
/// let (_, trace) = construct_traced(&mut f, &Options::default(), "x").unwrap();
/// let sites: Vec<Site> = trace.rename.iter().map(|r| r.site).collect();
/// assert_eq!(sites, [Site::Param, Site::Term(f.entry())]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Site {
    /// A parameter of the function (a definition at the entry).
    Param,
    /// An instruction (a phi's definition, or an ordinary instruction).
    Inst(Inst),
    /// The terminator of a block.
    Term(Block),
    /// An operand of a phi in a successor, used at the end of the block.
    SuccPhi(Inst),
    /// An `x = undef` created just before a use that found ⊥.
    UndefDef(Inst),
}

/// One mention of the traced variable during renaming.
///
/// ```
/// use ssakit::construct::{construct_traced, Options};
/// let mut f = ssakit::text::parse_module("function f() {
/// e:
///     x = 1
///     x = add(x, 1)
///     ret x
/// }").unwrap().functions.remove(0);
/// let (_, trace) = construct_traced(&mut f, &Options::default(), "x").unwrap();
/// // x1 = 1, then the use and the definition of `x2 = add(x1, 1)`, then `ret x2`.
/// let defined: Vec<_> = trace.rename.iter().map(|r| r.defined.is_some()).collect();
/// assert_eq!(defined, [true, false, true, false]);
/// let last = trace.rename.last().unwrap();
/// assert_eq!(last.after, last.before);
/// assert!(last.climbed.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameRow {
    /// The block being renamed.
    pub block: Block,
    /// The mention.
    pub site: Site,
    /// `v.reachingDef` before `updateReachingDef`.
    pub before: Option<crate::ir::Var>,
    /// The values `v.reachingDef` climbed to, in order.
    pub climbed: Vec<Option<crate::ir::Var>>,
    /// `v.reachingDef` after: the version used, or the new version defined.
    pub after: Option<crate::ir::Var>,
    /// The version defined, for a definition.
    pub defined: Option<crate::ir::Var>,
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
    pub rename: Vec<RenameRow>,
}

/// The renaming [`Observer`] of the trace: records where each mention of
/// one variable is, in walk order.
#[derive(Debug)]
pub(crate) struct TraceObserver {
    var: Var,
    /// `(block, site, version found or defined, whether a definition)`.
    mentions: Vec<(Block, Site, Option<Var>, bool)>,
}

impl TraceObserver {
    /// An observer of the mentions of `var`.
    pub fn new(var: Var) -> Self {
        TraceObserver {
            var,
            mentions: Vec::new(),
        }
    }

    /// The rows of the renaming trace: each mention with the climb of
    /// `updateReachingDef` that [`ReachingDefChains`](super::rename::ReachingDefChains)
    /// recorded for it (one climb per mention, in the same order).
    pub fn into_rows(self, climbs: Vec<Climb>) -> Vec<RenameRow> {
        debug_assert_eq!(self.mentions.len(), climbs.len());
        self.mentions
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
            .collect()
    }
}

impl Observer for TraceObserver {
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
