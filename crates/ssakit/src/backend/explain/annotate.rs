//! A function's `.ssa` text as HTML in which every variable and block
//! name is a clickable span.
//!
//! The text is the printer's ([`print_function`]), unchanged; the lexer of
//! [`crate::text`] splits it, and each identifier is classified by where
//! it stands:
//!
//! * a label: alone before `:` on its line, after `jump`, after the first
//!   comma of `branch` and `switch`, before `:` inside `phi(...)`: a
//!   `<span class="b" data-block="L">`;
//! * a callee or operator (followed by `(` or `[`), a keyword or a type:
//!   plain text;
//! * otherwise a printed variable name: `<span class="v" data-var="x">`,
//!   where `x` is the name of the variable it is a version of
//!   ([`Function::original`]), so that `x`, `x1`, `x2`, ... share it.

use crate::backend::dot::html;
use crate::ir::{Function, VarNames};
use crate::text::lexer::{lex, Tok};
use crate::text::print_function;
use std::collections::HashMap;
use std::fmt::Write;

/// The printed text of `f`, escaped for HTML, names wrapped in spans.
pub(crate) fn annotated(f: &Function) -> String {
    let text = print_function(f);
    let names = VarNames::new(f);
    let var_of: HashMap<&str, &str> = f
        .vars()
        .map(|v| (names.get(v), f.base_name(f.original(v))))
        .collect();
    // The printer's output always lexes; were it not to, it is shown
    // plain rather than not at all.
    let Ok(toks) = lex(&text) else {
        return html(&text).into_owned();
    };
    let mut out = String::with_capacity(text.len() * 3);
    let mut at = 0;
    let mut line_start = 0;
    while line_start < toks.len() {
        let mut end = line_start;
        while !matches!(toks[end].kind, Tok::Newline | Tok::Eof) {
            end += 1;
        }
        let line = &toks[line_start..end];
        let spell = |k: usize| &text[line[k].span.clone()];
        let first = if line.is_empty() { "" } else { spell(0) };
        let is_label_line = line.len() == 2 && spell(1) == ":";
        let skip = first == "operator";
        let mut commas = 0;
        let mut in_phi = 0usize;
        for k in 0..line.len() {
            let span = line[k].span.clone();
            out.push_str(&html(&text[at..span.start]));
            at = span.end;
            let s = spell(k);
            let next = if k + 1 < line.len() { spell(k + 1) } else { "" };
            match s {
                "," => commas += 1,
                "(" if k > 0 && spell(k - 1) == "phi" => in_phi = 1,
                "(" if in_phi > 0 => in_phi += 1,
                ")" if in_phi > 0 => in_phi -= 1,
                _ => {}
            }
            if line[k].kind != Tok::Ident || skip {
                out.push_str(&html(s));
                continue;
            }
            let label = (is_label_line && k == 0)
                || (first == "jump" && k == 1)
                || ((first == "branch" || first == "switch") && commas > 0)
                || (in_phi == 1 && next == ":");
            if label {
                let _ = write!(out, "<span class=\"b\" data-block=\"{s}\">{s}</span>");
            } else if let (Some(orig), false) = (var_of.get(s), next == "(" || next == "[") {
                let _ = write!(
                    out,
                    "<span class=\"v\" data-var=\"{}\">{s}</span>",
                    html(orig)
                );
            } else {
                out.push_str(s);
            }
        }
        if end < toks.len() {
            let span = toks[end].span.clone();
            out.push_str(&html(&text[at..span.end]));
            at = span.end;
        }
        line_start = end + 1;
    }
    out.push_str(&html(&text[at..]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_module;

    /// Every kind of place a name stands in, and the printed text kept.
    #[test]
    fn names_are_classified_by_place() {
        let src =
            "function main(p, x) {\nA:\n    x1 = f(x, 2)\n    branch p, B, C\nB:\n    jump C\n\
                   C:\n    y = phi(A: x1, B: p)\n    s = y << 1\n    switch s, A, [B]\n}\n";
        let m = parse_module(src).unwrap();
        let h = annotated(&m.functions[0]);
        let v = |n: &str| format!("<span class=\"v\" data-var=\"{n}\">{n}</span>");
        let b = |n: &str| format!("<span class=\"b\" data-block=\"{n}\">{n}</span>");
        for want in [
            format!("function main({}, {}) {{", v("p"), v("x")),
            format!("{}:", b("A")),
            format!("{} = f({}, 2)", v("x1"), v("x")),
            format!("branch {}, {}, {}", v("p"), b("B"), b("C")),
            format!("jump {}", b("C")),
            format!(
                "{} = phi({}: {}, {}: {})",
                v("y"),
                b("A"),
                v("x1"),
                b("B"),
                v("p")
            ),
            format!("{} = {} &lt;&lt; 1", v("s"), v("y")),
            format!("switch {}, {}, [{}]", v("s"), b("A"), b("B")),
        ] {
            assert!(h.contains(&want), "{want}\nnot in\n{h}");
        }
        let plain = h.replace("</span>", "");
        let plain = regex_free_strip(&plain);
        assert_eq!(plain.replace("&lt;", "<"), print_function(&m.functions[0]));
    }

    /// `s` without its `<span ...>` openings.
    fn regex_free_strip(s: &str) -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(i) = rest.find("<span") {
            out.push_str(&rest[..i]);
            rest = &rest[i + rest[i..].find('>').unwrap() + 1..];
        }
        out.push_str(rest);
        out
    }

    /// Versions share their original's name.
    #[test]
    fn versions_carry_the_original_name() {
        let mut m = parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, b\na:\n    x = 2\n    jump b\nb:\n    ret x\n}\n").unwrap();
        crate::construct::construct(&mut m.functions[0], &Default::default()).unwrap();
        let h = annotated(&m.functions[0]);
        for n in ["x1", "x2", "x3"] {
            assert!(
                h.contains(&format!("<span class=\"v\" data-var=\"x\">{n}</span>")),
                "{n} in\n{h}"
            );
        }
    }
}
