//! Graphviz DOT text of a function's CFG, dominator tree or DJ-graph (the
//! `Picture` of [`super::picture`]), for `dot -Tsvg` and the many tools
//! that read DOT.
//!
//! ```text
//! digraph "main" {
//!   node [shape=plain, fontname="monospace", fontsize=11];
//!   b0 [label=<<table ...><tr><td ...><b>r</b></td></tr>...</table>>];
//!   b0 -> b1;
//!   b4 -> b1 [style=dashed, color="#c0392b", constraint=false];   // a J-edge
//! }
//! ```
//!
//! Nodes are `b0`, `b1`, ... in layout order (the block's name is in the
//! label, so any label works as a DOT identifier). CFG nodes are HTML-like
//! tables: the block's name in bold, then one row per phi on a yellow
//! background (set apart from the instructions, as the chapter's figures put
//! phis at the top of their block), then the instructions and the
//! terminator, left-aligned. Dominator-tree and DJ-graph nodes are boxes
//! with the block's name. D-edges (and CFG edges) are solid, J-edges dashed
//! and red, and do not constrain the layout (the DJ-graph is drawn by
//! dominator-tree levels, as in the chapter). The output is a deterministic function of the program.

use super::picture::{EdgeStyle, Picture, PictureKind, Row};
use crate::ir::Function;
use std::fmt::Write;

/// Background of phi rows, in DOT and SVG alike.
pub(crate) const PHI_COLOUR: &str = "#fff3c4";
/// Colour of J-edges.
pub(crate) const J_COLOUR: &str = "#c0392b";

/// The DOT text of graph `kind` of `func`.
///
/// ```
/// use ssakit::backend::{dot::dot, picture::PictureKind};
/// let m = ssakit::text::parse_module("function f(c) {
/// e:
///     branch c, a, j
/// a:
///     jump j
/// j:
///     ret
/// }").unwrap();
/// let cfg = dot(&m.functions[0], PictureKind::Cfg);
/// assert!(cfg.starts_with("digraph \"f\" {"));
/// assert_eq!(cfg.matches(" -> ").count(), 3);
/// let dj = dot(&m.functions[0], PictureKind::Dj);
/// assert_eq!(dj.matches("style=dashed").count(), 1); // the J-edge a→j
/// ```
pub fn dot(func: &Function, kind: PictureKind) -> String {
    write_dot(&Picture::new(func, kind))
}

/// The DOT text of a picture.
pub(crate) fn write_dot(p: &Picture) -> String {
    let mut out = String::with_capacity(64 * p.nodes.len() + 24 * p.edges.len() + 128);
    let title = quoted(&p.title);
    let _ = writeln!(out, "digraph \"{title}\" {{");
    let _ = writeln!(out, "  label=\"{title} ({})\";", p.kind.name());
    out.push_str("  labelloc=t;\n");
    match p.kind {
        PictureKind::Cfg => {
            out.push_str("  node [shape=plain, fontname=\"monospace\", fontsize=11];\n")
        }
        PictureKind::Dom | PictureKind::Dj => {
            out.push_str("  node [shape=box, fontname=\"monospace\", fontsize=11];\n")
        }
    }
    for (k, n) in p.nodes.iter().enumerate() {
        if p.kind != PictureKind::Cfg {
            let _ = writeln!(out, "  b{k} [label=\"{}\"];", quoted(n.rows[0].text()));
            continue;
        }
        let _ = write!(
            out,
            "  b{k} [label=<<table border=\"1\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"2\">"
        );
        for r in &n.rows {
            match r {
                Row::Header(s) => {
                    let _ = write!(out, "<tr><td align=\"left\"><b>{}</b></td></tr>", html(s));
                }
                Row::Phi(s) => {
                    let _ = write!(
                        out,
                        "<tr><td align=\"left\" bgcolor=\"{PHI_COLOUR}\">{}</td></tr>",
                        html(s)
                    );
                }
                Row::Inst(s) => {
                    let _ = write!(out, "<tr><td align=\"left\">{}</td></tr>", html(s));
                }
            }
        }
        out.push_str("</table>>];\n");
    }
    for e in &p.edges {
        let _ = write!(out, "  b{} -> b{}", e.from, e.to);
        match e.style {
            EdgeStyle::Solid => out.push_str(";\n"),
            EdgeStyle::Dashed => {
                let _ = writeln!(
                    out,
                    " [style=dashed, color=\"{J_COLOUR}\", constraint=false];"
                );
            }
        }
    }
    out.push_str("}\n");
    out
}

/// `s` for the inside of a DOT string: `"` and `\\` escaped.
fn quoted(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `s` with the characters XML gives a meaning escaped (DOT's HTML-like
/// labels and SVG text are both XML).
pub(crate) fn html(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"', '\'']) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_operators() {
        assert_eq!(
            html("c = a < b && d > 1"),
            "c = a &lt; b &amp;&amp; d &gt; 1"
        );
        assert_eq!(html("x = y"), "x = y");
    }
}
