//! The analyses of a function as plain data in print order, and their text
//! renderings, for `ssakit analyze` (its `--format json` serialises the
//! plain data).
//!
//! Each function computes what it returns from the [`Function`] alone, in a
//! deterministic order: blocks appear in layout order, and set elements
//! are listed in layout order (blocks) or variable order (variables). The
//! `render_*` functions print that data line by line, blocks named by their
//! labels, variables by their printed names ([`VarNames`]), sets as
//! `{A, B}`. Golden tests pin these formats.

use super::dj_graph::DjGraph;
use super::domtree::DomTree;
use super::frontier::DominanceFrontiers;
use super::idf::IdfCalculator;
use super::liveness::Liveness;
use crate::ir::{Block, Cfg, Function, Var, VarNames};
use std::fmt::Write;

/// Block names and layout positions of a function.
struct Blocks<'a> {
    func: &'a Function,
    /// Position in the layout, or `u32::MAX` for blocks outside it.
    pos: Vec<u32>,
}

impl<'a> Blocks<'a> {
    fn new(func: &'a Function) -> Self {
        let mut pos = vec![u32::MAX; func.num_blocks()];
        for (i, &b) in func.layout().iter().enumerate() {
            pos[b.index()] = i as u32;
        }
        Blocks { func, pos }
    }

    fn name(&self, b: Block) -> &str {
        self.func.block_name(b)
    }

    /// `blocks` in layout order.
    fn sorted(&self, blocks: &[Block]) -> Vec<Block> {
        let mut v = blocks.to_vec();
        v.sort_by_key(|b| (self.pos[b.index()], b.as_u32()));
        v
    }

    /// `{A, B, ...}`, for blocks already in layout order.
    fn set(&self, blocks: &[Block]) -> String {
        let names: Vec<&str> = blocks.iter().map(|&b| self.name(b)).collect();
        format!("{{{}}}", names.join(", "))
    }
}

/// `{x, y, ...}` in the given (variable index) order.
fn var_set(names: &VarNames, vars: &[Var]) -> String {
    let names: Vec<&str> = vars.iter().map(|&v| names.get(v)).collect();
    format!("{{{}}}", names.join(", "))
}

/// Levels of the dominator tree drawn by indentation; deeper blocks are
/// drawn at this indentation after their depth in brackets, so that a tree
/// of `n` blocks prints in O(n) characters, not O(depth × n) (a straight
/// line of 32,767 blocks printed a gigabyte).
const MAX_INDENT_DEPTH: usize = 32;

/// A block and its immediate dominator.
///
/// # Example
///
/// ```
/// use ssakit::analysis::report::{dom_rows, DomRow};
/// let src = "function f(c) {
/// e:
///     x = 1
///     branch c, l, j
/// l:
///     x = 2
///     jump j
/// j:
///     ret x
/// }
/// ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let rows = dom_rows(f);
/// let l = DomRow { block: block("l"), idom: Some(block("e")), reachable: true };
/// assert_eq!(rows[1], l);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DomRow {
    /// The block.
    pub block: Block,
    /// Its immediate dominator (`None` for the entry and unreachable blocks).
    pub idom: Option<Block>,
    /// Whether the entry reaches it.
    pub reachable: bool,
}

/// The immediate dominator of each block, in layout order.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::dom_rows;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let idoms: Vec<_> = dom_rows(f).iter().map(|r| r.idom).collect();
/// assert_eq!(idoms, [None, Some(block("e")), Some(block("e"))]);
/// ```
pub fn dom_rows(func: &Function) -> Vec<DomRow> {
    dom_rows_of(func, &DomTree::new(&Cfg::new(func)))
}

fn dom_rows_of(func: &Function, tree: &DomTree) -> Vec<DomRow> {
    func.layout()
        .iter()
        .map(|&b| DomRow {
            block: b,
            idom: tree.idom(b),
            reachable: tree.is_reachable(b),
        })
        .collect()
}

/// The dominator tree: `idom(B) = A` for each block in layout order (`-` for
/// the entry, `unreachable` for unreachable blocks), a blank line, then the
/// tree in preorder, indented two spaces per level, children in layout
/// order. A block deeper than 32 (`MAX_INDENT_DEPTH`) is indented as that
/// level and preceded by its depth: `[40] B40` (the entry is depth 0).
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::render_dom;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let text = "idom(e) = -\nidom(l) = e\nidom(j) = e\n\ne\n  l\n  j\n";
/// assert_eq!(render_dom(f), text);
/// ```
pub fn render_dom(func: &Function) -> String {
    let cfg = Cfg::new(func);
    let tree = DomTree::new(&cfg);
    let blocks = Blocks::new(func);
    let mut out = String::new();
    for row in dom_rows_of(func, &tree) {
        let idom = match row.idom {
            Some(d) => blocks.name(d),
            None if row.reachable => "-",
            None => "unreachable",
        };
        let _ = writeln!(out, "idom({}) = {idom}", blocks.name(row.block));
    }
    out.push('\n');
    // Iterative preorder with children in layout order.
    let mut stack = vec![(func.entry(), 0usize)];
    while let Some((b, depth)) = stack.pop() {
        for _ in 0..depth.min(MAX_INDENT_DEPTH) {
            out.push_str("  ");
        }
        if depth > MAX_INDENT_DEPTH {
            let _ = write!(out, "[{depth}] ");
        }
        let _ = writeln!(out, "{}", blocks.name(b));
        let mut kids = tree.children(b).to_vec();
        kids.sort_by_key(|k| std::cmp::Reverse((blocks.pos[k.index()], k.as_u32())));
        stack.extend(kids.into_iter().map(|k| (k, depth + 1)));
    }
    out
}

/// Each block and its dominance frontier (DF_all), in layout order.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::df_rows;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let rows = df_rows(f);
/// assert_eq!(rows[1], (block("l"), vec![block("j")]));
/// assert!(rows[0].1.is_empty()); // DF(e)
/// ```
pub fn df_rows(func: &Function) -> Vec<(Block, Vec<Block>)> {
    let cfg = Cfg::new(func);
    let tree = DomTree::new(&cfg);
    let df = DominanceFrontiers::new(&cfg, &tree);
    let blocks = Blocks::new(func);
    func.layout()
        .iter()
        .map(|&b| (b, blocks.sorted(df.df(b))))
        .collect()
}

/// The dominance frontiers (DF_all): `DF(B) = {...}` for each block in
/// layout order.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::render_df;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// assert_eq!(render_df(f), "DF(e) = {}\nDF(l) = {j}\nDF(j) = {}\n");
/// ```
pub fn render_df(func: &Function) -> String {
    let blocks = Blocks::new(func);
    let mut out = String::new();
    for (b, df) in df_rows(func) {
        let _ = writeln!(out, "DF({}) = {}", blocks.name(b), blocks.set(&df));
    }
    out
}

/// The blocks defining `var` (an instruction or phi writing it; the entry if
/// it is a parameter) and their iterated dominance frontier, where minimal
/// SSA puts the phis of `var`; both in layout order.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::idf_sets;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let (defs, idf) = idf_sets(f, f.var_by_name("x").unwrap());
/// assert_eq!(defs, [block("e"), block("l")]);
/// assert_eq!(idf, [block("j")]); // where minimal SSA puts x's phi
/// ```
pub fn idf_sets(func: &Function, var: Var) -> (Vec<Block>, Vec<Block>) {
    let cfg = Cfg::new(func);
    let tree = DomTree::new(&cfg);
    let blocks = Blocks::new(func);
    let mut defs = Vec::new();
    if func.params().contains(&var) {
        defs.push(func.entry());
    }
    for &b in func.layout() {
        let mut defines = false;
        for i in func.block_all_insts(b) {
            func.for_each_def(i, |d| defines |= d == var);
        }
        if defines && defs.last() != Some(&b) {
            defs.push(b);
        }
    }
    let idf = IdfCalculator::new(&cfg, &tree).idf(&defs);
    (blocks.sorted(&defs), blocks.sorted(&idf))
}

/// [`idf_sets`] on two lines: `Defs(x) = {...}` and `DF+(Defs(x)) = {...}`.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::render_idf;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let text = render_idf(f, f.var_by_name("x").unwrap());
/// assert_eq!(text, "Defs(x) = {e, l}\nDF+(Defs(x)) = {j}\n");
/// ```
pub fn render_idf(func: &Function, var: Var) -> String {
    let blocks = Blocks::new(func);
    let names = VarNames::new(func);
    let (defs, idf) = idf_sets(func, var);
    let name = names.get(var);
    format!(
        "Defs({name}) = {}\nDF+(Defs({name})) = {}\n",
        blocks.set(&defs),
        blocks.set(&idf)
    )
}

/// Edges `(from, to)`.
pub(crate) type EdgeList = Vec<(Block, Block)>;

/// The D-edges and the J-edges of the DJ-graph, each by source then target
/// in layout order.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::dj_edges;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let (d, j) = dj_edges(f);
/// assert_eq!(d, [(block("e"), block("l")), (block("e"), block("j"))]);
/// assert_eq!(j, [(block("l"), block("j"))]);
/// ```
pub fn dj_edges(func: &Function) -> (EdgeList, EdgeList) {
    let cfg = Cfg::new(func);
    let dj = DjGraph::new(&cfg, DomTree::new(&cfg));
    let blocks = Blocks::new(func);
    let (mut d, mut j) = (Vec::new(), Vec::new());
    for &a in func.layout() {
        if dj.dom_tree().is_reachable(a) {
            d.extend(blocks.sorted(dj.d_succs(a)).into_iter().map(|b| (a, b)));
            j.extend(blocks.sorted(dj.j_succs(a)).into_iter().map(|b| (a, b)));
        }
    }
    (d, j)
}

/// The DJ-graph: `A -D-> B` for each dominator-tree edge, then `A -J-> B`
/// for each join edge, by source then target in layout order.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::render_dj;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// assert_eq!(render_dj(f), "e -D-> l\ne -D-> j\nl -J-> j\n");
/// ```
pub fn render_dj(func: &Function) -> String {
    let blocks = Blocks::new(func);
    let (d, j) = dj_edges(func);
    let mut out = String::new();
    for (kind, edges) in [("D", d), ("J", j)] {
        for (a, b) in edges {
            let _ = writeln!(out, "{} -{kind}-> {}", blocks.name(a), blocks.name(b));
        }
    }
    out
}

/// Each block with its live-in and live-out variables, in layout order,
/// variables in index order.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::live_rows;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let (c, x) = (f.var_by_name("c").unwrap(), f.var_by_name("x").unwrap());
/// let rows = live_rows(f);
/// assert_eq!(rows[0], (block("e"), vec![c], vec![x]));
/// assert_eq!(rows[2], (block("j"), vec![x], vec![]));
/// ```
pub fn live_rows(func: &Function) -> Vec<(Block, Vec<Var>, Vec<Var>)> {
    let cfg = Cfg::new(func);
    let live = Liveness::new(func, &cfg);
    func.layout()
        .iter()
        .map(|&b| (b, live.live_in(b).to_vec(), live.live_out(b).to_vec()))
        .collect()
}

/// Liveness: `live-in(B) = {...}` and `live-out(B) = {...}` for each block
/// in layout order, variables in index order.
///
/// # Example
///
/// ```
/// # use ssakit::analysis::report::render_live;
/// // `f` is `x = 1; if c { x = 2 }; return x`: e → {l, j}, l → j.
/// # let src = "function f(c) {
/// # e:
/// #     x = 1
/// #     branch c, l, j
/// # l:
/// #     x = 2
/// #     jump j
/// # j:
/// #     ret x
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// # let block = |s: &str| f.block_by_name(s).unwrap();
/// let text = render_live(f);
/// assert!(text.starts_with("live-in(e) = {c}\nlive-out(e) = {x}\n"));
/// assert!(text.ends_with("live-in(j) = {x}\nlive-out(j) = {}\n"));
/// ```
pub fn render_live(func: &Function) -> String {
    let blocks = Blocks::new(func);
    let names = VarNames::new(func);
    let mut out = String::new();
    for (b, live_in, live_out) in live_rows(func) {
        let n = blocks.name(b);
        let _ = writeln!(out, "live-in({n}) = {}", var_set(&names, &live_in));
        let _ = writeln!(out, "live-out({n}) = {}", var_set(&names, &live_out));
    }
    out
}
