//! SVG pictures of a function's CFG, dominator tree or DJ-graph, drawn in
//! process: no Graphviz needed.
//!
//! The [`Picture`] of [`super::picture`] gives the boxes and edges; the
//! layered layout of [`layout`] places them; this module measures the
//! boxes and writes the SVG. Text is monospace, so a row's width is its
//! character count times [`CHAR_W`].
//!
//! The document is plain SVG 1.1 that browsers, `rsvg-convert` and XML
//! parsers read, and that a page can style or script (`ssakit explain`
//! embeds one per phase):
//!
//! * each block is a `<g class="node" data-block="NAME">` holding a `rect`
//!   and one `<text>` per row; phi rows stand on a yellow band
//!   (`<rect class="phi">`), as in the DOT output;
//! * each edge is one `<path class="edge KIND" data-from="A" data-to="B">`
//!   with KIND `cfg`, `d-edge` or `j-edge`; J-edges are dashed and red.
//!   Edges going down are curves from the bottom of their source to the top
//!   of their target, through the lanes the layout gave them. Back edges
//!   (loops, drawn upwards) run up right of every box and lane of the ranks
//!   they span (a sparse table answers that maximum in O(1)), leaving their
//!   source by its right side, or by its bottom when a box stands to its
//!   right, and entering their target by its right side, or its top; they
//!   never cross a box. Edges within a rank are arcs below it; a self loop
//!   is a small arc on the right. Parallel edges of a multi-edge are spread
//!   apart.

pub mod layout;

use super::dot::{html, J_COLOUR, PHI_COLOUR};
use super::picture::{EdgeStyle, Picture, PictureKind, Row};
use crate::ir::Function;
use std::fmt::Write;

/// Width of one character of text, for a 12-pixel monospace font.
pub const CHAR_W: f64 = 7.3;
/// Height of one row of text.
pub const ROW_H: f64 = 16.0;
/// Space between a box's border and its text.
pub const PAD: f64 = 6.0;

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
pub fn write_svg(p: &Picture) -> String {
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

/// Spacing of the parallel edges of a multi-edge.
const SPREAD: f64 = 10.0;
/// Parallel edges spread apart at most; later ones are drawn over the
/// last.
const MAX_SPREAD: u32 = 3;

/// Writes the edges; returns the largest `x` and `y` their curves reach
/// (their control points bound them).
fn write_edges(
    out: &mut String,
    p: &Picture,
    sizes: &[(f64, f64)],
    l: &layout::Layout,
) -> (f64, f64) {
    let (mut far_x, mut far_y) = (0f64, 0f64);
    // For each edge, how many earlier edges join the same two nodes: edges
    // are grouped by source, so one stamp per target suffices.
    let mut seen_from = vec![u32::MAX; p.nodes.len()];
    let mut seen_count = vec![0u32; p.nodes.len()];
    out.push_str("<g class=\"edges\" fill=\"none\">\n");
    let mut laid = 0;
    let mut points = Vec::new();
    // A back edge may leave or enter a box's side when no box stands to
    // its right (crossing lanes is fine), and runs up right of every box
    // and lane.
    let (rank_right, all_right) = rank_rights(p, sizes, l);
    let rights = RangeMax::new(all_right);
    let mut k_up = 0u32;
    for e in &p.edges {
        // Upwards: a back edge of the layout, or an edge the layout did not
        // rank that does not go down.
        let up = if e.style == EdgeStyle::Solid {
            laid += 1;
            l.back[laid - 1]
        } else {
            l.rank[e.to as usize] <= l.rank[e.from as usize]
        };
        let (u, v) = (e.from as usize, e.to as usize);
        if seen_from[v] != e.from {
            seen_from[v] = e.from;
            seen_count[v] = 0;
        }
        // Parallel edges beyond the first few share the last offset: a
        // switch naming one block 100,000 times stays as wide as the rest.
        let dup = seen_count[v].min(MAX_SPREAD) as f64;
        seen_count[v] += 1;
        let (ux, uy, uw, uh) = (l.x[u], l.y[u], sizes[u].0, sizes[u].1);
        let (vx, vy, vw, vh) = (l.x[v], l.y[v], sizes[v].0, sizes[v].1);
        let d = if u == v {
            // A self loop on the right side.
            let (x, y) = (ux + uw, uy + uh / 2.0);
            let r = 18.0 + dup * SPREAD;
            far_x = far_x.max(x + r);
            format!(
                "M{x:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {x:.1},{:.1}",
                y - 6.0,
                x + r,
                y - 6.0 - r,
                x + r,
                y + 6.0 + r,
                y + 6.0
            )
        } else if up && l.rank[u] == l.rank[v] {
            // Within a rank: an arc under both boxes.
            let (x1, y1) = (ux + uw / 2.0, uy + uh);
            let (x2, y2) = (vx + vw / 2.0, vy + vh);
            // At most three quarters of the gap down: the next rank's boxes start there.
            let depth = (14.0 + dup * SPREAD + (x2 - x1).abs() / 12.0).min(0.75 * layout::V_GAP);
            let low = y1.max(y2) + depth;
            far_y = far_y.max(low);
            format!("M{x1:.1},{y1:.1} C{x1:.1},{low:.1} {x2:.1},{low:.1} {x2:.1},{y2:.1}")
        } else if up {
            // Up: out of the source's right side if nothing stands to its
            // right in its rank, else out of its bottom and across the gap
            // below; right beyond every box of the ranks spanned; up; and
            // into the target's right side or, if something stands there,
            // its top.
            let (ru, rv) = (l.rank[u] as usize, l.rank[v] as usize);
            let stagger = dup * SPREAD + (k_up % 3) as f64 * 6.0;
            k_up += 1;
            let right = rights.max(rv.min(ru), rv.max(ru)) + 16.0 + stagger;
            far_x = far_x.max(right);
            points.clear();
            if ux + uw >= rank_right[ru] - 0.5 {
                let y = uy + uh / 2.0 + dup * 4.0;
                points.extend([(ux + uw, y), (right, y)]);
            } else {
                let x = ux + uw - 10.0 - dup * 4.0;
                let below = l.rank_top[ru] + l.rank_height[ru] + BACK_RUN + stagger / 3.0;
                far_y = far_y.max(below);
                points.extend([(x, uy + uh), (x, below), (right, below)]);
            }
            if vx + vw >= rank_right[rv] - 0.5 {
                let y = vy + vh / 2.0 - dup * 4.0;
                points.extend([(right, y), (vx + vw, y)]);
            } else {
                let x = vx + vw - 10.0 - dup * 4.0;
                let above = (l.rank_top[rv] - BACK_RUN - stagger / 3.0).max(2.0);
                points.extend([(right, above), (x, above), (x, vy)]);
            }
            round_path(&points)
        } else {
            // Down: bottom centre to top centre through the edge's lanes,
            // parallel edges spread.
            let k = (seen_count[v] - 1).min(MAX_SPREAD);
            let side = if k % 2 == 1 { 1.0 } else { -1.0 };
            let off = SPREAD * k.div_ceil(2) as f64 * side;
            points.clear();
            points.push((ux + uw / 2.0 + off, uy + uh));
            if e.style == EdgeStyle::Solid {
                for &(r, x) in l.route(laid - 1) {
                    let top = l.rank_top[r as usize];
                    points.push((x, top));
                    points.push((x, top + l.rank_height[r as usize]));
                }
            }
            points.push((vx + vw / 2.0 + off, vy));
            down_path(&points)
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
    (far_x, far_y)
}

/// How far from the boxes a back edge runs across a gap between ranks.
const BACK_RUN: f64 = 12.0;

/// The right edge of the rightmost box of each rank, and of the rightmost
/// box or lane.
fn rank_rights(p: &Picture, sizes: &[(f64, f64)], l: &layout::Layout) -> (Vec<f64>, Vec<f64>) {
    let mut boxes = vec![0f64; l.rank_top.len()];
    for (k, size) in sizes.iter().enumerate().take(p.nodes.len()) {
        let r = l.rank[k] as usize;
        boxes[r] = boxes[r].max(l.x[k] + size.0);
    }
    let mut all = boxes.clone();
    for &(r, x) in &l.waypoints {
        let r = r as usize;
        all[r] = all[r].max(x + layout::LANE_W / 2.0);
    }
    (boxes, all)
}

/// Maxima over ranges of ranks in O(1), by a sparse table: `table[j][i]`
/// is the maximum of the `2^j` values from `i`. O(R log R) to build.
struct RangeMax {
    table: Vec<Vec<f64>>,
}

impl RangeMax {
    fn new(values: Vec<f64>) -> RangeMax {
        let mut table = vec![values];
        let mut width = 1;
        while 2 * width <= table[0].len() {
            let prev = table.last().expect("one level at least");
            let next: Vec<f64> = (0..prev.len() - width)
                .map(|i| prev[i].max(prev[i + width]))
                .collect();
            table.push(next);
            width *= 2;
        }
        RangeMax { table }
    }

    /// The maximum of the values `lo..=hi`.
    fn max(&self, lo: usize, hi: usize) -> f64 {
        let level = (usize::BITS - 1 - (hi - lo + 1).leading_zeros()) as usize;
        let row = &self.table[level];
        row[lo].max(row[hi + 1 - (1 << level)])
    }
}

/// A polyline through `points` (horizontal and vertical runs) with rounded
/// corners.
fn round_path(points: &[(f64, f64)]) -> String {
    const R: f64 = 6.0;
    let mut d = format!("M{:.1},{:.1}", points[0].0, points[0].1);
    for w in points.windows(3) {
        let (a, b, c) = (w[0], w[1], w[2]);
        // Stop R before the corner, curve around it, go on R after it.
        let toward = |from: (f64, f64), to: (f64, f64)| {
            let (dx, dy) = (to.0 - from.0, to.1 - from.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let r = R.min(len / 2.0);
            (to.0 - dx / len * r, to.1 - dy / len * r)
        };
        let p = toward(a, b);
        let q = toward(c, b);
        let _ = write!(
            d,
            " L{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}",
            p.0, p.1, b.0, b.1, q.0, q.1
        );
    }
    let last = points[points.len() - 1];
    let _ = write!(d, " L{:.1},{:.1}", last.0, last.1);
    d
}

/// A path through `points`: curves with vertical tangents from each point
/// at the bottom of a rank (or of the source) to the next at the top of a
/// rank (or of the target), straight lines through the ranks.
fn down_path(points: &[(f64, f64)]) -> String {
    let mut d = format!("M{:.1},{:.1}", points[0].0, points[0].1);
    for (i, w) in points.windows(2).enumerate() {
        let ((x1, y1), (x2, y2)) = (w[0], w[1]);
        if i % 2 == 1 {
            let _ = write!(d, " L{x2:.1},{y2:.1}");
        } else {
            let mid = (y2 - y1) / 2.0;
            let _ = write!(
                d,
                " C{x1:.1},{:.1} {x2:.1},{:.1} {x2:.1},{y2:.1}",
                y1 + mid,
                y2 - mid
            );
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_max_agrees_with_a_scan() {
        for n in 1..40usize {
            let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % 31) as f64).collect();
            let t = RangeMax::new(values.clone());
            for lo in 0..n {
                for hi in lo..n {
                    let scan = values[lo..=hi].iter().copied().fold(f64::MIN, f64::max);
                    assert_eq!(t.max(lo, hi), scan, "{n} {lo} {hi}");
                }
            }
        }
    }

    #[test]
    fn round_paths_turn_at_each_corner() {
        let d = round_path(&[(0.0, 0.0), (0.0, 20.0), (30.0, 20.0)]);
        assert_eq!(d, "M0.0,0.0 L0.0,14.0 Q0.0,20.0 6.0,20.0 L30.0,20.0");
    }
}
