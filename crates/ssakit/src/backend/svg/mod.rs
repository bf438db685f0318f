//! SVG pictures of a function's CFG, dominator tree or DJ-graph, drawn in
//! process: no Graphviz needed.
//!
//! The `Picture` of [`super::picture`] gives the boxes and edges; the
//! layered layout of `layout` places them; this module measures the
//! boxes and writes the SVG. Text is monospace, so a row's width is its
//! character count times `CHAR_W`.
//!
//! The document is plain SVG 1.1 that browsers, `rsvg-convert` and XML
//! parsers read, and that a page can style or script (the page of
//! [`super::explain`], one picture per phase, tells blocks and edges apart
//! by their attributes):
//!
//! * each block is a `<g class="node" data-block="NAME">` holding a `rect`
//!   and one `<text>` per row; phi rows stand on a yellow band
//!   (`<rect class="phi">`), as in the DOT output;
//! * each edge is one `<path class="edge KIND" data-from="A" data-to="B">`
//!   with KIND `cfg`, `d-edge` or `j-edge`; J-edges are dashed and red.
//!   Edges going down are curves through the lanes the layout gave them;
//!   back edges run up right of every box they pass, never through one;
//!   edges within a rank are arcs below it; parallel edges are spread apart
//!   (the private `route` module says how).

pub(crate) mod layout;
mod route;

use super::dot::{html, J_COLOUR, PHI_COLOUR};
use super::picture::{EdgeStyle, Picture, PictureKind, Row};
use crate::ir::Function;
use std::fmt::Write;

/// Width of one character of text, for a 12-pixel monospace font.
pub(crate) const CHAR_W: f64 = 7.3;
/// Height of one row of text.
pub(crate) const ROW_H: f64 = 16.0;
/// Space between a box's border and its text.
pub(crate) const PAD: f64 = 6.0;

/// The SVG picture of graph `kind` of `func`.
///
/// ```
/// use ssakit::backend::{picture::PictureKind, svg};
/// let m = ssakit::text::parse_module(
///     "function f(c) {\ne:\n    branch c, a, b\na:\n    jump b\nb:\n    ret\n}\n",
/// )
/// .unwrap();
/// let s = svg::svg(&m.functions[0], PictureKind::Cfg);
/// assert!(s.starts_with("<svg"));
/// assert_eq!(s.matches("<g class=\"node\"").count(), 3);
/// assert_eq!(s.matches("<path class=\"edge").count(), 3);
/// ```
pub fn svg(func: &Function, kind: PictureKind) -> String {
    write_svg(&Picture::new(func, kind))
}

/// The size of a node's box.
fn box_size(rows: &[Row]) -> (f64, f64) {
    let chars = rows
        .iter()
        .map(|r| r.text().chars().count())
        .max()
        .unwrap_or(0)
        .max(2);
    (
        chars as f64 * CHAR_W + 2.0 * PAD,
        rows.len() as f64 * ROW_H + 2.0 * PAD,
    )
}

/// The SVG text of a picture.
pub(crate) fn write_svg(p: &Picture) -> String {
    let sizes: Vec<(f64, f64)> = p.nodes.iter().map(|n| box_size(&n.rows)).collect();
    // J-edges do not shape the layout: the DJ-graph is drawn by tree levels.
    let pairs: Vec<(u32, u32)> = p
        .edges
        .iter()
        .filter(|e| e.style == EdgeStyle::Solid)
        .map(|e| (e.from, e.to))
        .collect();
    let l = layout::layout(&sizes, &pairs);
    let mut edges = String::with_capacity(120 * p.edges.len() + 64);
    let (far_x, far_y) = write_edges(&mut edges, p, &sizes, &l);
    let mut out = String::with_capacity(200 * p.nodes.len() + edges.len() + 1024);
    let w = l.width.max(far_x + layout::MARGIN).ceil();
    let h = l.height.max(far_y + layout::MARGIN).ceil();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"monospace\" font-size=\"12\">"
    );
    let _ = writeln!(out, "<title>{} ({})</title>", html(&p.title), p.kind.name());
    let _ = writeln!(
        out,
        "<defs>\
<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333\"/></marker>\
<marker id=\"arrow-j\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{J_COLOUR}\"/></marker>\
</defs>"
    );
    let _ = writeln!(out, "<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>");
    out.push_str(&edges);
    write_nodes(&mut out, p, &sizes, &l);
    out.push_str("</svg>\n");
    out
}

fn write_nodes(out: &mut String, p: &Picture, sizes: &[(f64, f64)], l: &layout::Layout) {
    out.push_str("<g class=\"nodes\">\n");
    for (k, n) in p.nodes.iter().enumerate() {
        let (x, y) = (l.x[k], l.y[k]);
        let (w, h) = sizes[k];
        let name = html(n.rows[0].text());
        let _ = writeln!(out, "<g class=\"node\" data-block=\"{name}\">");
        let _ = writeln!(
            out,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"3\" fill=\"#f8f9fb\" stroke=\"#333\"/>"
        );
        for (r, row) in n.rows.iter().enumerate() {
            let top = y + PAD + r as f64 * ROW_H;
            let base = top + ROW_H - 4.0;
            let tx = x + PAD;
            match row {
                Row::Header(s) => {
                    let cx = if p.kind == PictureKind::Cfg {
                        tx
                    } else {
                        x + w / 2.0 - s.chars().count() as f64 * CHAR_W / 2.0
                    };
                    let _ = writeln!(
                        out,
                        "<text class=\"label\" x=\"{cx:.1}\" y=\"{base:.1}\" font-weight=\"bold\">{}</text>",
                        html(s)
                    );
                    if n.rows.len() > 1 {
                        let ly = top + ROW_H;
                        let _ = writeln!(
                            out,
                            "<line x1=\"{x:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"#bbb\"/>",
                            x + w
                        );
                    }
                }
                Row::Phi(s) => {
                    let _ = writeln!(
                        out,
                        "<rect class=\"phi\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{ROW_H:.1}\" fill=\"{PHI_COLOUR}\"/>",
                        x + 1.0,
                        top + 0.5,
                        w - 2.0
                    );
                    let _ = writeln!(
                        out,
                        "<text class=\"inst phi\" x=\"{tx:.1}\" y=\"{base:.1}\">{}</text>",
                        html(s)
                    );
                }
                Row::Inst(s) => {
                    let _ = writeln!(
                        out,
                        "<text class=\"inst\" x=\"{tx:.1}\" y=\"{base:.1}\">{}</text>",
                        html(s)
                    );
                }
            }
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

/// Writes the edges, routed by [`route::Router`]; returns the largest `x`
/// and `y` their curves reach.
fn write_edges(
    out: &mut String,
    p: &Picture,
    sizes: &[(f64, f64)],
    l: &layout::Layout,
) -> (f64, f64) {
    let mut router = route::Router::new(p, sizes, l);
    // For each edge, how many earlier edges join the same two nodes: edges
    // are grouped by source, so one stamp per target suffices.
    let mut seen_from = vec![u32::MAX; p.nodes.len()];
    let mut seen_count = vec![0u32; p.nodes.len()];
    out.push_str("<g class=\"edges\" fill=\"none\">\n");
    // Edges the layout ranked (the solid ones), counted to find their lanes.
    let mut laid = 0;
    for e in &p.edges {
        let (u, v) = (e.from as usize, e.to as usize);
        if seen_from[v] != e.from {
            seen_from[v] = e.from;
            seen_count[v] = 0;
        }
        let dup = seen_count[v];
        seen_count[v] += 1;
        let (up, lanes) = if e.style == EdgeStyle::Solid {
            laid += 1;
            (l.back[laid - 1], l.route(laid - 1))
        } else {
            // Not ranked: up unless it goes down.
            (l.rank[v] <= l.rank[u], &[][..])
        };
        let d = if u == v {
            router.self_loop(u, dup)
        } else if up && l.rank[u] == l.rank[v] {
            router.arc_below(u, v, dup)
        } else if up {
            router.back_edge(u, v, dup)
        } else {
            router.down_edge(u, v, dup, lanes)
        };
        let (class, stroke, extra) = match (p.kind, e.style) {
            (PictureKind::Cfg, _) => ("cfg", "#333", " marker-end=\"url(#arrow)\""),
            (_, EdgeStyle::Solid) => ("d-edge", "#333", " marker-end=\"url(#arrow)\""),
            (_, EdgeStyle::Dashed) => (
                "j-edge",
                J_COLOUR,
                " stroke-dasharray=\"6,4\" marker-end=\"url(#arrow-j)\"",
            ),
        };
        let _ = writeln!(
            out,
            "<path class=\"edge {class}\" data-from=\"{}\" data-to=\"{}\" d=\"{d}\" stroke=\"{stroke}\" stroke-width=\"1.3\"{extra}/>",
            html(p.nodes[u].rows[0].text()),
            html(p.nodes[v].rows[0].text()),
        );
    }
    out.push_str("</g>\n");
    router.extent()
}
