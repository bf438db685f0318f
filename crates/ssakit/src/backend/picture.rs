//! The picture of a function: the nodes and styled edges of its CFG, its
//! dominator tree or its DJ-graph, which [`super::dot`] writes as Graphviz
//! DOT and [`super::svg`] lays out and draws.
//!
//! The three graphs are those of chapter 13, section 13.2: the control-flow
//! graph, the dominator tree (edges `idom(b) → b`) and the DJ-graph (the
//! tree's *D-edges* plus the *J-edges*, the CFG edges `a → b` whose source
//! does not strictly dominate their target; see
//! [`DjGraph`]).
//!
//! * **CFG**: one node per block of the layout, unreachable ones included,
//!   labelled with the block's name, its phis (a `Row::Phi` each, set
//!   apart by the writers), its other instructions and its terminator; one
//!   edge per successor the terminator names, in order, so `branch c, L, L`
//!   gives two edges (the CFG's multi-edge).
//! * **Dominator tree** and **DJ-graph**: one node per reachable block,
//!   labelled with its name only; D-edges `EdgeStyle::Solid`, J-edges
//!   `EdgeStyle::Dashed`.
//!
//! Nodes are listed in layout order and edges by source in that order, so
//! both writers are deterministic. Every row is cut at `MAX_ROW_CHARS`
//! characters (with `…`), so a 200,000-operand phi does not make a node
//! megabytes wide.

use crate::analysis::{DjGraph, DomTree};
use crate::ir::{Block, Cfg, Function, VarNames};
use crate::text::printer::{write_inst, write_term};

/// Which graph of a function to draw.
///
/// ```
/// use ssakit::backend::{dot::dot, picture::PictureKind};
/// let m = ssakit::text::parse_module(
///     "function f(c) {
/// e:
///     branch c, a, j
/// a:
///     jump j
/// j:
///     ret
/// }",
/// )
/// .unwrap();
/// let edges = |kind| dot(&m.functions[0], kind).matches(" -> ").count();
/// // CFG: e→a, e→j, a→j; dominator tree: e→a, e→j; DJ-graph: both plus a→j.
/// assert_eq!(
///     (
///         edges(PictureKind::Cfg),
///         edges(PictureKind::Dom),
///         edges(PictureKind::Dj)
///     ),
///     (3, 2, 3)
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PictureKind {
    /// The control-flow graph, instructions in the nodes.
    Cfg,
    /// The dominator tree.
    Dom,
    /// The DJ-graph: D-edges solid, J-edges dashed.
    Dj,
}

impl PictureKind {
    /// The name used in the command line and in file names: `cfg`, `dom`,
    /// `dj`.
    ///
    /// ```
    /// use ssakit::backend::picture::PictureKind;
    /// let names: Vec<_> = [PictureKind::Cfg, PictureKind::Dom, PictureKind::Dj].map(PictureKind::name).into();
    /// assert_eq!(names, ["cfg", "dom", "dj"]);
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            PictureKind::Cfg => "cfg",
            PictureKind::Dom => "dom",
            PictureKind::Dj => "dj",
        }
    }
}

/// Longest row of a node label, in characters; longer rows end in `…`.
pub(crate) const MAX_ROW_CHARS: usize = 96;

/// One line of a node label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Row {
    /// The block's name, the first row of every node.
    Header(String),
    /// A phi instruction.
    Phi(String),
    /// Any other instruction, or the terminator.
    Inst(String),
}

impl Row {
    /// The row's text.
    pub(crate) fn text(&self) -> &str {
        match self {
            Row::Header(s) | Row::Phi(s) | Row::Inst(s) => s,
        }
    }
}

/// How an edge is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EdgeStyle {
    /// A CFG edge or a D-edge.
    Solid,
    /// A J-edge.
    Dashed,
}

/// A node: a block and its label.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// The block drawn.
    #[allow(dead_code)] // the unit tests read it; the printers draw by position
    pub block: Block,
    /// The label, header first.
    pub rows: Vec<Row>,
}

/// An edge between two nodes, by their positions in `Picture::nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edge {
    /// Source node.
    pub from: u32,
    /// Target node.
    pub to: u32,
    /// How it is drawn.
    pub style: EdgeStyle,
}

/// A graph ready to be written: nodes in layout order, edges by source.
///
/// Invariant: every edge's ends are positions in `nodes`; `nodes[0]` is the
/// entry block.
#[derive(Clone, Debug)]
pub(crate) struct Picture {
    /// The function's name, the graph's title.
    pub title: String,
    /// Which graph this is.
    pub kind: PictureKind,
    /// The nodes.
    pub nodes: Vec<Node>,
    /// The edges.
    pub edges: Vec<Edge>,
}

impl Picture {
    /// The picture of graph `kind` of `func`.
    pub(crate) fn new(func: &Function, kind: PictureKind) -> Picture {
        let cfg = Cfg::new(func);
        match kind {
            PictureKind::Cfg => cfg_picture(func, &cfg),
            PictureKind::Dom | PictureKind::Dj => {
                let dj = DjGraph::new(&cfg, DomTree::new(&cfg));
                tree_picture(func, &dj, kind)
            }
        }
    }
}

/// `s` cut to [`MAX_ROW_CHARS`] characters.
fn cut(mut s: String) -> String {
    if let Some((i, _)) = s.char_indices().nth(MAX_ROW_CHARS) {
        s.truncate(i);
        s.push('…');
    }
    s
}

/// Node position of each block: `u32::MAX` for blocks not drawn.
fn positions(func: &Function, drawn: impl Fn(Block) -> bool) -> (Vec<u32>, Vec<Block>) {
    let mut pos = vec![u32::MAX; func.num_blocks()];
    let mut order = Vec::new();
    for &b in func.layout() {
        if drawn(b) {
            pos[b.index()] = order.len() as u32;
            order.push(b);
        }
    }
    (pos, order)
}

fn cfg_picture(func: &Function, cfg: &Cfg) -> Picture {
    let names = VarNames::new(func);
    let (pos, order) = positions(func, |_| true);
    let mut nodes = Vec::with_capacity(order.len());
    let mut edges = Vec::with_capacity(cfg.num_edges());
    let mut line = String::new();
    for &b in &order {
        let mut rows = vec![Row::Header(func.block_name(b).to_string())];
        for &i in func.block_phis(b) {
            line.clear();
            write_inst(&mut line, func, &names, i);
            rows.push(Row::Phi(cut(line.clone())));
        }
        for &i in func.block_insts(b) {
            line.clear();
            write_inst(&mut line, func, &names, i);
            rows.push(Row::Inst(cut(line.clone())));
        }
        line.clear();
        write_term(&mut line, func, &names, func.term(b));
        rows.push(Row::Inst(cut(line.clone())));
        nodes.push(Node { block: b, rows });
        let from = pos[b.index()];
        for &s in cfg.succs(b) {
            edges.push(Edge {
                from,
                to: pos[s.index()],
                style: EdgeStyle::Solid,
            });
        }
    }
    Picture {
        title: func.name().to_string(),
        kind: PictureKind::Cfg,
        nodes,
        edges,
    }
}

fn tree_picture(func: &Function, dj: &DjGraph, kind: PictureKind) -> Picture {
    let tree = dj.dom_tree();
    let (pos, order) = positions(func, |b| tree.is_reachable(b));
    let nodes = order
        .iter()
        .map(|&b| Node {
            block: b,
            rows: vec![Row::Header(func.block_name(b).to_string())],
        })
        .collect();
    let mut edges = Vec::new();
    let mut targets = Vec::new();
    let mut push_sorted = |from: u32, to: &[Block], style, edges: &mut Vec<Edge>| {
        targets.clear();
        targets.extend(to.iter().map(|t| pos[t.index()]));
        targets.sort_unstable();
        edges.extend(targets.iter().map(|&to| Edge { from, to, style }));
    };
    for &b in &order {
        push_sorted(pos[b.index()], dj.d_succs(b), EdgeStyle::Solid, &mut edges);
    }
    if kind == PictureKind::Dj {
        for &b in &order {
            push_sorted(pos[b.index()], dj.j_succs(b), EdgeStyle::Dashed, &mut edges);
        }
    }
    Picture {
        title: func.name().to_string(),
        kind,
        nodes,
        edges,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_module;

    const SEED: &str = include_str!("../../../../examples/seed.ssa");

    #[test]
    fn seed_counts() {
        let m = parse_module(SEED).unwrap();
        let f = &m.functions[0];
        let cfg = Picture::new(f, PictureKind::Cfg);
        assert_eq!((cfg.nodes.len(), cfg.edges.len()), (6, 8));
        assert_eq!(cfg.nodes[2].rows[0], Row::Header("B".into()));
        assert_eq!(cfg.nodes[2].rows[1], Row::Inst("y = 0".into()));
        let dom = Picture::new(f, PictureKind::Dom);
        assert_eq!((dom.nodes.len(), dom.edges.len()), (6, 5));
        let dj = Picture::new(f, PictureKind::Dj);
        let dashed = dj
            .edges
            .iter()
            .filter(|e| e.style == EdgeStyle::Dashed)
            .count();
        assert_eq!((dj.edges.len(), dashed), (10, 5));
    }

    #[test]
    fn long_rows_are_cut() {
        let s = cut("x".repeat(500));
        assert_eq!(s.chars().count(), MAX_ROW_CHARS + 1);
        assert!(s.ends_with('…'));
        assert_eq!(cut("short".into()), "short");
    }
}
