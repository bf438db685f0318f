//! `ssakit explain` end to end, without a browser: the page parses as
//! balanced HTML, has one column per phase in order, names every variable
//! version by its original (`data-var`), inlines its pictures and names no
//! external resource; each column's text, spans taken out, is what the
//! corresponding commands print (`construct`, `opt`, `destruct`). The
//! page in Chromium is `explain_browser.rs`.

mod common;

use common::{ok, ssakit, stderr};

/// Elements that have no closing tag.
const VOID: [&str; 4] = ["meta", "input", "br", "img"];

/// One element of the page: its name and attributes, and the byte range
/// of its content.
#[derive(Debug)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    content: std::ops::Range<usize>,
}

impl Element {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    fn has_class(&self, class: &str) -> bool {
        self.attr("class")
            .is_some_and(|c| c.split(' ').any(|k| k == class))
    }
}

/// Every element of `page`, in document order, checking that tags are
/// balanced and properly nested (`<style>` and `<script>` taken as text,
/// SVG elements closed by `/>` allowed).
fn parse_html(page: &str) -> Vec<Element> {
    let mut elements: Vec<Element> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut at = 0;
    while let Some(k) = page[at..].find('<') {
        let start = at + k;
        if page[start..].starts_with("<!") {
            at = start + page[start..].find('>').unwrap() + 1;
            continue;
        }
        let end = start + page[start..].find('>').expect("tag closed") + 1;
        let tag = &page[start + 1..end - 1];
        if let Some(name) = tag.strip_prefix('/') {
            let e = open.pop().unwrap_or_else(|| panic!("stray </{name}>"));
            assert_eq!(
                elements[e].name, name,
                "</{name}> closes <{}>",
                elements[e].name
            );
            elements[e].content.end = start;
            at = end;
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let name_end = tag.find([' ', '\n']).unwrap_or(tag.len());
        let name = tag[..name_end].to_string();
        let mut attrs = Vec::new();
        let mut rest = &tag[name_end..];
        while let Some(eq) = rest.find("=\"") {
            let key = rest[..eq].trim().to_string();
            let close = rest[eq + 2..].find('"').expect("attribute quoted");
            attrs.push((key, rest[eq + 2..eq + 2 + close].to_string()));
            rest = &rest[eq + 3 + close..];
        }
        elements.push(Element {
            name: name.clone(),
            attrs,
            content: end..end,
        });
        at = end;
        if name == "style" || name == "script" {
            let close = format!("</{name}>");
            let c = at + page[at..].find(&close).expect("closed");
            elements.last_mut().unwrap().content.end = c;
            at = c + close.len();
        } else if !self_closing && !VOID.contains(&name.as_str()) {
            open.push(elements.len() - 1);
        }
    }
    assert!(open.is_empty(), "unclosed: {:?}", open);
    elements
}

/// The text of `s` with its tags removed and its entities decoded.
fn text_of(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        rest = &rest[i + rest[i..].find('>').unwrap() + 1..];
    }
    out.push_str(rest);
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The columns of a page: `(data-phase, IR text)`.
fn columns<'p>(page: &'p str, els: &[Element]) -> Vec<(&'p str, String)> {
    let sections: Vec<&Element> = els
        .iter()
        .filter(|e| e.name == "section" && e.has_class("phase"))
        .collect();
    sections
        .iter()
        .map(|s| {
            let pre = els
                .iter()
                .find(|e| e.has_class("ir") && s.content.contains(&e.content.start))
                .expect("a column has its text");
            (phase_id(page, s), text_of(&page[pre.content.clone()]))
        })
        .collect()
}

fn phase_id<'p>(page: &'p str, s: &Element) -> &'p str {
    let v = s.attr("data-phase").expect("a column names its phase");
    let k = page.find(&format!("data-phase=\"{v}\"")).unwrap() + 12;
    &page[k..k + v.len()]
}

/// `fmt`'s output without the comments it keeps (the page shows the
/// program as the printer prints it, without them).
fn without_comments(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let code = line.split('#').next().unwrap().trim_end();
        if !code.is_empty() {
            out.push_str(code);
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_seed_page_has_every_phase_and_its_text_is_what_the_commands_print() {
    let page = ok(&["explain", "--trace", "x", "seed.ssa"], None);
    let els = parse_html(&page);
    let cols = columns(&page, &els);
    let ids: Vec<&str> = cols.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, common::EXPLAIN_SEED_PHASES);
    let fmt = without_comments(&ok(&["fmt", "seed.ssa"], None));
    let ssa = ok(&["construct", "seed.ssa"], None);
    let cp = ok(&["opt", "--passes", "copy-prop", "-"], Some(&ssa));
    let dce = ok(&["opt", "--passes", "dce", "-"], Some(&cp));
    assert_eq!(cols[0].1, fmt);
    assert_eq!(cols[2].1, ssa);
    assert_eq!(cols[3].1, cp);
    assert_eq!(cols[4].1, dce);
    // Destruction in process keeps the versions' originals, which a
    // reparsed program has lost, so the classes' names may differ from the
    // pipe's: every column must compute what the input computes, and the
    // SSA columns must be valid SSA.
    for (id, text) in &cols {
        for args in [["0", "0"], ["0", "1"], ["1", "1"]] {
            let mut run = vec!["run", "-"];
            run.extend(args);
            let mut orig = vec!["run", "seed.ssa"];
            orig.extend(args);
            assert_eq!(ok(&run, Some(text)), ok(&orig, None), "{id} {args:?}");
        }
    }
    for (id, text) in &cols[2..6] {
        assert!(ok(&["check", "-"], Some(text)).contains("valid"), "{id}");
    }
    // Phi insertion: the chapter's phis, nothing renamed yet.
    assert!(
        cols[1].1.contains("    x = phi(r: x, D: x)\n"),
        "{}",
        cols[1].1
    );
    assert!(!cols[1].1.contains("x1"));
    // The parallel copies before coalescing, and none after sequentializing.
    assert!(cols[5].1.contains(") = ("), "{}", cols[5].1);
    assert!(!cols[6].1.contains(" = phi(") && !cols[7].1.contains(") = ("));
    // x1..x6 all carry data-var="x", in the renaming column and after.
    let renamed = &els
        .iter()
        .find(|e| e.attr("data-phase") == Some("renamed"))
        .unwrap()
        .content;
    let x_spans: Vec<String> = els
        .iter()
        .filter(|e| e.attr("data-var") == Some("x") && renamed.contains(&e.content.start))
        .map(|e| page[e.content.clone()].to_string())
        .collect();
    for k in 1..=6 {
        assert!(x_spans.contains(&format!("x{k}")), "x{k} in {x_spans:?}");
    }
    assert!(x_spans.iter().all(|s| s == "x" || s.starts_with('x')));
    // Every block label is a span in every column.
    for b in ["r", "A", "B", "C", "D", "E"] {
        let n = els
            .iter()
            .filter(|e| e.name == "span" && e.attr("data-block") == Some(b))
            .count();
        assert!(n >= 8, "block {b}: {n} spans");
    }
    // Pictures: a CFG per column, a dominator tree and DJ-graph per
    // construction column, behind toggles, inline.
    let svgs: Vec<&Element> = els.iter().filter(|e| e.name == "svg").collect();
    assert_eq!(svgs.len(), 8 + 3 * 2);
    for kind in ["cfg", "dom", "dj"] {
        let n = els
            .iter()
            .filter(|e| e.name == "details" && e.has_class(kind))
            .count();
        assert_eq!(n, if kind == "cfg" { 8 } else { 3 }, "{kind}");
    }
    // The input's CFG, dominator tree and DJ-graph: the six blocks each.
    let input = &els
        .iter()
        .find(|e| e.attr("data-phase") == Some("input"))
        .unwrap()
        .content;
    let nodes = els
        .iter()
        .filter(|e| e.name == "g" && e.has_class("node") && input.contains(&e.content.start))
        .count();
    assert_eq!(nodes, 3 * 6);
    // The trace of x under the construction columns.
    let trace = els.iter().find(|e| e.has_class("trace")).unwrap();
    assert_eq!(trace.attr("style"), Some("--span: 3"));
    let t = text_of(&page[trace.content.clone()]);
    assert!(
        t.contains("Phi insertion for x: Defs(x) = {B, C, D}"),
        "{t}"
    );
    assert!(t.contains("Renaming of x"), "{t}");
    // Self-contained: no resource outside the page.
    for bad in ["src=", "<link", "href=", "url(http", "@import", "fetch("] {
        assert!(!page.contains(bad), "the page contains {bad}");
    }
    for e in &els {
        for (k, v) in &e.attrs {
            assert!(
                !v.contains("http") || (k == "xmlns" && v == "http://www.w3.org/2000/svg"),
                "<{} {k}=\"{v}\">",
                e.name
            );
        }
    }
}

#[test]
fn the_traced_variable_defaults_to_the_first_with_a_phi() {
    let page = ok(&["explain", "seed.ssa"], None);
    assert!(page.contains("Construction trace of <span class=\"v\" data-var=\"y\">y</span>"));
    let straight = "function main(a) {\ne:\n    x = a + 1\n    ret x\n}\n";
    let page = ok(&["explain", "-"], Some(straight));
    assert!(!page.contains("class=\"trace\""));
    assert_eq!(
        parse_html(&page).iter().filter(|e| e.name == "svg").count(),
        3 * 3 + 5
    );
}

#[test]
fn ssa_input_starts_at_the_optimisations() {
    let page = ok(&["explain", "--passes", "none", "lost_copy.ssa"], None);
    let els = parse_html(&page);
    let ids: Vec<&str> = columns(&page, &els).iter().map(|(i, _)| *i).collect();
    assert_eq!(
        ids,
        ["input", "parallel-copies", "coalesced", "sequentialized"]
    );
    assert!(!page.contains("class=\"trace\""));
    let page = ok(
        &[
            "explain",
            "--passes",
            "const-prop,dce",
            "--no-split",
            "--function",
            "main",
            "swap.ssa",
        ],
        None,
    );
    let els = parse_html(&page);
    let cols = columns(&page, &els);
    let ids: Vec<&str> = cols.iter().map(|(i, _)| *i).collect();
    assert_eq!(
        ids,
        [
            "input",
            "const-prop",
            "dce",
            "parallel-copies",
            "coalesced",
            "sequentialized"
        ]
    );
    assert!(page.contains("<h2>parallel copies</h2>"));
    let dce = ok(&["opt", "--passes", "const-prop,dce", "swap.ssa"], None);
    assert_eq!(cols[5].1, ok(&["destruct", "--no-split", "-"], Some(&dce)));
    let conv = ok(
        &["explain", "--conventional", "--passes", "none", "seed.ssa"],
        None,
    );
    let els = parse_html(&conv);
    let ids: Vec<&str> = columns(&conv, &els).iter().map(|(i, _)| *i).collect();
    assert_eq!(
        ids,
        ["input", "phis", "renamed", "coalesced", "sequentialized"]
    );
    assert!(conv.contains("<h2>phi webs renamed</h2>"));
}

#[test]
fn output_goes_to_the_file_named_by_o() {
    let dir = std::env::temp_dir().join(format!("ssakit-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("seed.html");
    let p = path.to_str().unwrap();
    let o = ssakit(&["explain", "seed.ssa", "-o", p], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        ok(&["explain", "seed.ssa"], None)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_requests_are_errors_with_a_location() {
    let o = ssakit(&["explain", "--trace", "nosuch", "seed.ssa"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("seed.ssa:7:10: no variable named `nosuch`"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
    let o = ssakit(&["explain", "--passes", "fold-all", "seed.ssa"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("unknown pass `fold-all`"),
        "{}",
        stderr(&o)
    );
    let o = ssakit(&["explain", "--function", "g", "seed.ssa"], None);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: no function named `g`\n");
    // Phis, but not valid SSA: `x` defined twice.
    let bad = "function main(a) {\ne:\n    x = 1\n    x = 2\n    branch a, e, f\nf:\n    y = phi(e: x)\n    ret y\n}\n";
    let o = ssakit(&["explain", "-"], Some(bad));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("<stdin>:4:5: input has phis but is not valid SSA"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn every_bundled_example_explains() {
    let mut names: Vec<String> = std::fs::read_dir(common::examples())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".ssa"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    for name in &names {
        let page = ok(&["explain", name], None);
        let els = parse_html(&page);
        let cols = columns(&page, &els);
        let ids: Vec<&str> = cols.iter().map(|(i, _)| *i).collect();
        let in_ssa = without_comments(&ok(&["fmt", name], None)).contains(" = phi(");
        let want: &[&str] = if in_ssa {
            &["input", "copy-prop", "dce"]
        } else {
            &["input", "phis", "renamed", "copy-prop", "dce"]
        };
        assert_eq!(ids[..want.len()], *want, "{name}");
        assert_eq!(
            ids[want.len()..],
            ["parallel-copies", "coalesced", "sequentialized"],
            "{name}"
        );
        let last = &cols.last().unwrap().1;
        assert!(
            !last.contains(" = phi(") && !last.contains(") = ("),
            "{name}\n{last}"
        );
    }
}

#[test]
fn bril_input_and_a_lifted_wasm_function_explain() {
    // A Bril program (read as Bril by its extension) and one function of a
    // WebAssembly module, lifted and piped in: all the phases of a program
    // not in SSA form, with clickable variables.
    let lifted = ok(&["wasm", "lift", "--func", "sum", "wasm_tour.wat"], None);
    for (page, var) in [
        (ok(&["explain", "bril/swap_loop.bril"], None), "data-var=\""),
        (ok(&["explain", "-"], Some(&lifted)), "data-var=\"l1\""),
    ] {
        let els = parse_html(&page);
        let ids: Vec<&str> = columns(&page, &els).iter().map(|(i, _)| *i).collect();
        assert_eq!(ids[..3], ["input", "phis", "renamed"], "{ids:?}");
        assert_eq!(
            ids[ids.len() - 3..],
            ["parallel-copies", "coalesced", "sequentialized"]
        );
        assert!(page.contains(var), "{var}");
    }
}
