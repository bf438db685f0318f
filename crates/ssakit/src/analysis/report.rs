//! Text renderings of the analyses of a function, for `ssakit analyze`.
//!
//! Each function computes what it prints from the [`Function`] alone and
//! returns a deterministic, line-oriented text: blocks appear in layout
//! order and are named by their labels, variables by their printed names
//! ([`VarNames`]), and set elements are listed in layout order (blocks) or
//! variable order (variables), as `{A, B}`. Golden tests pin these formats.

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

    /// `{A, B, ...}` in layout order.
    fn set(&self, blocks: &[Block]) -> String {
        let mut v = blocks.to_vec();
        v.sort_by_key(|b| (self.pos[b.index()], b.as_u32()));
        let names: Vec<&str> = v.iter().map(|&b| self.name(b)).collect();
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

/// The dominator tree: `idom(B) = A` for each block in layout order (`-` for
/// the entry, `unreachable` for unreachable blocks), a blank line, then the
/// tree in preorder, indented two spaces per level, children in layout
/// order. A block deeper than [`MAX_INDENT_DEPTH`] is indented as that
/// level and preceded by its depth: `[40] B40` (the entry is depth 0).
pub fn render_dom(func: &Function) -> String {
    let cfg = Cfg::new(func);
    let tree = DomTree::new(&cfg);
    let blocks = Blocks::new(func);
    let mut out = String::new();
    for &b in func.layout() {
        let idom = match tree.idom(b) {
            Some(d) => blocks.name(d).to_string(),
            None if tree.is_reachable(b) => "-".to_string(),
            None => "unreachable".to_string(),
        };
        let _ = writeln!(out, "idom({}) = {idom}", blocks.name(b));
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

/// The dominance frontiers (DF_all): `DF(B) = {...}` for each block in
/// layout order.
pub fn render_df(func: &Function) -> String {
    let cfg = Cfg::new(func);
    let tree = DomTree::new(&cfg);
    let df = DominanceFrontiers::new(&cfg, &tree);
    let blocks = Blocks::new(func);
    let mut out = String::new();
    for &b in func.layout() {
        let _ = writeln!(out, "DF({}) = {}", blocks.name(b), blocks.set(df.df(b)));
    }
    out
}

/// The blocks defining `var` (an instruction or phi writing it; the entry if
/// it is a parameter) and their iterated dominance frontier, on two lines:
/// `Defs(x) = {...}` and `DF+(Defs(x)) = {...}`: where minimal SSA puts the
/// phis of `var`.
pub fn render_idf(func: &Function, var: Var) -> String {
    let cfg = Cfg::new(func);
    let tree = DomTree::new(&cfg);
    let blocks = Blocks::new(func);
    let names = VarNames::new(func);
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
    let name = names.get(var);
    format!(
        "Defs({name}) = {}\nDF+(Defs({name})) = {}\n",
        blocks.set(&defs),
        blocks.set(&idf)
    )
}

/// The DJ-graph: `A -D-> B` for each dominator-tree edge, then `A -J-> B`
/// for each join edge, by source then target in layout order.
pub fn render_dj(func: &Function) -> String {
    let cfg = Cfg::new(func);
    let dj = DjGraph::new(&cfg, DomTree::new(&cfg));
    let blocks = Blocks::new(func);
    let order: Vec<Block> = func
        .layout()
        .iter()
        .copied()
        .filter(|&b| dj.dom_tree().is_reachable(b))
        .collect();
    dj.render(&order, |b| blocks.name(b).to_string())
}

/// Liveness: `live-in(B) = {...}` and `live-out(B) = {...}` for each block
/// in layout order, variables in index order.
pub fn render_live(func: &Function) -> String {
    let cfg = Cfg::new(func);
    let live = Liveness::new(func, &cfg);
    let blocks = Blocks::new(func);
    let names = VarNames::new(func);
    let mut out = String::new();
    for &b in func.layout() {
        let n = blocks.name(b);
        let _ = writeln!(out, "live-in({n}) = {}", var_set(&names, live.live_in(b)));
        let _ = writeln!(out, "live-out({n}) = {}", var_set(&names, live.live_out(b)));
    }
    out
}
