//! `ssakit explain`: every phase of construction and destruction side by
//! side in one self-contained HTML page, after the Go compiler's
//! `GOSSAFUNC` page (ssa.html).
//!
//! * [`phases`](mod@phases) runs the pipeline and keeps the function after
//!   each phase (chapter 13.1 to 13.7);
//! * `annotate` turns a function's `.ssa` text into HTML
//!   whose variable and block names are spans (`data-var`, `data-block`);
//! * this module writes the page: one column per phase with the text and,
//!   behind a toggle, the CFG drawn by [`super::svg`] (and the dominator
//!   tree and DJ-graph for the construction columns), the construction
//!   trace under the construction columns, and a short script: clicking a
//!   variable highlights every element with its `data-var` (all its
//!   versions, in every column), clicking a block every element with its
//!   `data-block` (text and pictures).
//!
//! The page needs nothing outside itself: CSS, script and SVG are inline,
//! and it names no URL but the SVG namespace.

pub(crate) mod annotate;
pub mod phases;

pub use phases::{phases, Explained, Options, Phase, Stage};

use super::dot::html;
use super::picture::PictureKind;
use super::svg::svg;
use std::fmt::Write;

const STYLE: &str = r#"
body { font: 14px system-ui, sans-serif; margin: 0; background: #f6f6f6; color: #222; }
header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ccc; padding: 6px 12px; z-index: 2; }
header h1 { font-size: 16px; display: inline; margin-right: 1.5em; }
header label { margin-right: 1em; }
#selection { color: #555; }
main { display: grid; grid-auto-flow: column; grid-template-rows: auto auto; gap: 10px; padding: 10px; align-items: start; width: max-content; }
section.phase { grid-row: 1; background: #fff; border: 1px solid #ccc; border-radius: 4px; padding: 6px 8px; min-width: 16em; }
section.phase.construction { border-top: 3px solid #2e86c1; }
section.phase.optimisation { border-top: 3px solid #28b463; }
section.phase.destruction { border-top: 3px solid #ca6f1e; }
section.phase h2 { font-size: 14px; margin: 0 0 2px 0; }
p.note { font-size: 12px; color: #555; margin: 0 0 6px 0; max-width: 28em; }
pre { font: 12px/1.35 ui-monospace, monospace; margin: 0; }
pre.ir { padding: 4px; background: #fafafa; border: 1px solid #eee; }
details { margin-top: 6px; }
summary { cursor: pointer; font-size: 12px; color: #333; }
details svg { display: block; margin-top: 4px; max-width: none; }
.v, .b { cursor: pointer; border-radius: 2px; }
.b { font-weight: bold; }
.v:hover, .b:hover { background: #e8e8e8; }
.v.hl { background: #f9e79f; outline: 1px solid #d4ac0d; }
.b.hl { background: #aed6f1; outline: 1px solid #2e86c1; }
g.node.hl rect:not(.phi) { stroke: #2e86c1; stroke-width: 3; }
path.edge.hl { stroke: #2e86c1; stroke-width: 2.5; }
section.trace { grid-row: 2; grid-column: 1 / span var(--span); background: #fff; border: 1px solid #ccc; border-radius: 4px; padding: 6px 8px; }
section.trace h2 { font-size: 14px; margin: 0 0 4px 0; }
"#;

const SCRIPT: &str = r#"
(function () {
  var current = null;
  function select(attr, name) {
    document.querySelectorAll('.hl').forEach(function (e) { e.classList.remove('hl'); });
    var key = attr + '=' + name;
    var info = document.getElementById('selection');
    if (current === key) { current = null; info.textContent = ''; return; }
    current = key;
    var sel = '[' + attr + '="' + CSS.escape(name) + '"]';
    var n = 0;
    document.querySelectorAll(sel).forEach(function (e) { e.classList.add('hl'); n++; });
    if (attr === 'data-block') {
      document.querySelectorAll('[data-from="' + CSS.escape(name) + '"],[data-to="' + CSS.escape(name) + '"]')
        .forEach(function (e) { e.classList.add('hl'); });
    }
    info.textContent = (attr === 'data-var' ? 'variable ' : 'block ') + name + ': ' + n + ' elements';
  }
  document.addEventListener('click', function (ev) {
    var t = ev.target;
    if (!(t instanceof Element)) return;
    var v = t.closest('[data-var]');
    if (v) { select('data-var', v.getAttribute('data-var')); return; }
    var b = t.closest('[data-block]');
    if (b) { select('data-block', b.getAttribute('data-block')); }
  });
  function toggle(box, cls) {
    box.addEventListener('change', function () {
      document.querySelectorAll('details.' + cls).forEach(function (d) { d.open = box.checked; });
    });
  }
  toggle(document.getElementById('show-cfg'), 'cfg');
  toggle(document.getElementById('show-dom'), 'dom');
  toggle(document.getElementById('show-dj'), 'dj');
})();
"#;

/// The page for the phases of `e`, titled with the function's name.
///
/// ```
/// use ssakit::backend::explain::{html_page, phases, Options};
/// let m = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap();
/// let page = html_page(&phases(&m.functions[0], &Options::default()).unwrap());
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// assert!(page.contains("ssakit explain: function f"));
/// assert!(page.contains("<svg"));
/// ```
pub fn html_page(e: &Explained) -> String {
    let mut out = String::new();
    let _ = write_page(e, &mut |part: &str| {
        out.push_str(part);
        Ok::<(), std::convert::Infallible>(())
    });
    out
}

/// The page of [`html_page`], handed to `emit` in parts (the head, one
/// column at a time with its pictures, the trace, the end), so a writer
/// holds one column in memory, not the whole page: at 20,000 blocks a
/// page is hundreds of megabytes, most of it pictures. Stops at the first
/// error of `emit`.
///
/// ```
/// use ssakit::backend::explain::{html_page, phases, write_page, Options};
/// let m = ssakit::text::parse_module("function f() {\ne:\n    ret\n}").unwrap();
/// let e = phases(&m.functions[0], &Options::default()).unwrap();
/// let mut parts = Vec::new();
/// write_page(&e, &mut |s: &str| {
///     parts.push(s.to_string());
///     Ok::<(), ()>(())
/// }).unwrap();
/// assert!(parts.len() > 2);
/// assert_eq!(parts.concat(), html_page(&e));
/// // The first error stops the writing.
/// let mut calls = 0;
/// assert_eq!(write_page(&e, &mut |_| { calls += 1; Err("full") }), Err("full"));
/// assert_eq!(calls, 1);
/// ```
pub fn write_page<E>(e: &Explained, emit: &mut dyn FnMut(&str) -> Result<(), E>) -> Result<(), E> {
    let name = e.phases.first().map_or("", |p| p.func.name());
    emit(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>ssakit explain: {n}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header><h1>ssakit explain: function {n}</h1>\
         <label><input type=\"checkbox\" id=\"show-cfg\"> CFGs</label>\
         <label><input type=\"checkbox\" id=\"show-dom\"> dominator trees</label>\
         <label><input type=\"checkbox\" id=\"show-dj\"> DJ-graphs</label>\
         <span id=\"selection\"></span></header>\n<main>\n",
        n = html(name)
    ))?;
    for p in &e.phases {
        let mut column = String::new();
        write_column(&mut column, p);
        emit(&column)?;
    }
    let construction = e
        .phases
        .iter()
        .filter(|p| p.stage == Stage::Construction)
        .count();
    if let Some((t, text)) = &e.trace {
        emit(&format!(
            "<section class=\"trace\" style=\"--span: {construction}\">\
             <h2>Construction trace of <span class=\"v\" data-var=\"{v}\">{v}</span></h2>\
             <pre>{}</pre></section>\n",
            html(text),
            v = html(&t.var)
        ))?;
    }
    emit(&format!(
        "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    ))
}

fn write_column(out: &mut String, p: &Phase) {
    let stage = match p.stage {
        Stage::Construction => "construction",
        Stage::Optimisation => "optimisation",
        Stage::Destruction => "destruction",
    };
    let _ = write!(
        out,
        "<section class=\"phase {stage}\" data-phase=\"{id}\">\n<h2>{title}</h2>\n\
         <p class=\"note\">{note}</p>\n<pre class=\"ir\">{text}</pre>\n",
        id = html(&p.id),
        title = html(&p.title),
        note = html(&p.note),
        text = annotate::annotated(&p.func),
    );
    let mut kinds = vec![(PictureKind::Cfg, "CFG")];
    if p.stage == Stage::Construction {
        kinds.push((PictureKind::Dom, "dominator tree"));
        kinds.push((PictureKind::Dj, "DJ-graph"));
    }
    for (kind, label) in kinds {
        let _ = write!(
            out,
            "<details class=\"{k}\"><summary>{label}</summary>\n{}</details>\n",
            svg(&p.func, kind),
            k = kind.name()
        );
    }
    out.push_str("</section>\n");
}
