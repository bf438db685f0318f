//! Comments kept through formatting (`ssakit fmt`), as `rustfmt` and
//! `gofmt` keep them: the grammar of docs/format.md
//! has comments from `#` to the end of the line, which the lexer skips and
//! the IR does not hold, so they are put back into the canonical text here.
//!
//! Statements are the lines of the format (`;` also ends one, a function's
//! `{` ends its header and its `}` is one of its own). The
//! canonical text [`print_module`] makes has one line per statement, in
//! the source's order, except for `operator` declarations (printed in
//! order of first use, unused ones dropped). So the `k`-th statement of
//! the source other than a declaration is the `k`-th such line of the
//! canonical text, and each comment goes with one: a comment after code on
//! its line trails that line's last statement; a comment on a line of its
//! own leads the next statement (one of a declaration, the next statement
//! after the declarations), on a line of its own at that statement's
//! indentation; comments after the last statement end the text.

use super::diag::Diagnostic;
use super::lexer::{lex, Tok};
use super::printer::print_module;
use crate::ir::Module;

/// Comments attached to one statement.
#[derive(Default, Clone)]
struct Attached<'a> {
    leading: Vec<&'a str>,
    trailing: Option<&'a str>,
}

/// `m` (parsed from `src`) in canonical form with the comments of `src`.
///
/// # Errors
/// If `src` does not lex, or it has comments and its statements do not
/// line up with the canonical text's (a label and an instruction on one
/// line): the message says where, and nothing is printed without its
/// comments. Without comments, the canonical text is all there is.
///
/// ```
/// use ssakit::text::{parse_module, print_module_with_comments};
/// let src = "# doubles n\nfunction f(n) {\nentry:\n    m = n  +  n   # sum\n    ret m\n}\n";
/// let m = parse_module(src).unwrap();
/// let out = print_module_with_comments(src, &m).unwrap();
/// assert_eq!(out, "# doubles n\nfunction f(n) {\nentry:\n    m = n + n # sum\n    ret m\n}\n");
/// ```
pub fn print_module_with_comments(src: &str, m: &Module) -> Result<String, Diagnostic> {
    let canonical = print_module(m);
    // `#` starts a comment and is no other token: without one, there is
    // nothing to put back (and no token vector to hold).
    if !src.as_bytes().contains(&b'#') {
        return Ok(canonical);
    }
    let toks = lex(src)?;
    let text = |k: usize| &src[toks[k].span.clone()];
    // Source statements other than declarations: (first token, is a
    // declaration) for every statement, in order.
    let mut stmts: Vec<(usize, bool)> = Vec::new();
    let mut stmt_of_tok: Vec<Option<usize>> = vec![None; toks.len()];
    let mut start = true;
    for (k, t) in toks.iter().enumerate() {
        match t.kind {
            Tok::Newline | Tok::Eof => start = true,
            _ => {
                // `}` (the end of a function) is a line of its own.
                let close = t.kind == Tok::Punct && text(k) == "}";
                if start || close {
                    stmts.push((k, text(k) == "operator"));
                }
                stmt_of_tok[k] = Some(stmts.len() - 1);
                // So is a function's header, up to its `{`.
                start = close || (t.kind == Tok::Punct && text(k) == "{");
            }
        }
    }
    // Each comment, from the gaps between tokens (a comment runs to the end
    // of its line, where a newline token or the end follows).
    let mut attached: Vec<Attached> = vec![Attached::default(); stmts.len() + 1];
    let mut gap_start = if src.starts_with('\u{feff}') { 3 } else { 0 };
    for (k, t) in toks.iter().enumerate() {
        let gap = &src[gap_start..t.span.start.max(gap_start)];
        if let Some(h) = gap.find('#') {
            let comment = gap[h..].trim_end();
            let prev = k.checked_sub(1).filter(|&p| toks[p].kind != Tok::Newline);
            match prev.and_then(|p| stmt_of_tok[p]) {
                Some(s) => attached[s].trailing = Some(comment),
                None => {
                    // The next statement (or the end of the text).
                    let next = toks[k..]
                        .iter()
                        .position(|t| !matches!(t.kind, Tok::Newline | Tok::Eof))
                        .and_then(|j| stmt_of_tok[k + j])
                        .unwrap_or(stmts.len());
                    attached[next].leading.push(comment);
                }
            }
        }
        gap_start = gap_start.max(t.span.end);
    }
    // Declarations' comments go to the next statement that is not one.
    let mut carry: Vec<&str> = Vec::new();
    let mut kept: Vec<Attached> = Vec::new();
    for (s, &(_, decl)) in stmts.iter().enumerate() {
        let a = std::mem::take(&mut attached[s]);
        carry.extend(a.leading);
        if decl {
            carry.extend(a.trailing);
        } else {
            kept.push(Attached {
                leading: std::mem::take(&mut carry),
                trailing: a.trailing,
            });
        }
    }
    carry.extend(std::mem::take(&mut attached[stmts.len()].leading));
    let lines: Vec<&str> = canonical.lines().collect();
    let is_stmt = |l: &str| !l.trim().is_empty() && !l.starts_with("operator ");
    let n_lines = lines.iter().filter(|l| is_stmt(l)).count();
    let any = carry.len()
        + kept
            .iter()
            .map(|a| a.leading.len() + usize::from(a.trailing.is_some()))
            .sum::<usize>();
    if any == 0 {
        return Ok(canonical);
    }
    if n_lines != kept.len() {
        let at = stmts
            .iter()
            .find(|s| !s.1)
            .map_or(0, |s| toks[s.0].span.start);
        return Err(Diagnostic {
            message: format!(
                "cannot keep the comments: {} statements here, {} lines in canonical form \
                 (put each statement on a line of its own)",
                kept.len(),
                n_lines
            ),
            span: at..at,
            label: "statements counted from here".into(),
            help: None,
        });
    }
    let mut out = String::with_capacity(canonical.len() + src.len() / 4);
    let mut next = kept.into_iter();
    for l in lines {
        if is_stmt(l) {
            let a = next.next().expect("counted");
            let indent = &l[..l.len() - l.trim_start().len()];
            for c in a.leading {
                out.push_str(indent);
                out.push_str(c);
                out.push('\n');
            }
            out.push_str(l);
            if let Some(c) = a.trailing {
                out.push(' ');
                out.push_str(c);
            }
        } else {
            out.push_str(l);
        }
        out.push('\n');
    }
    for c in carry {
        out.push_str(c);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_module;

    fn fmt(src: &str) -> String {
        print_module_with_comments(src, &parse_module(src).unwrap()).unwrap()
    }

    #[test]
    fn leading_trailing_and_final_comments_are_kept() {
        let src = "# header\noperator g pure  # unused\nfunction main(n) {\n# entry block\nentry:\n   x = n+1   # add\n      # before ret\n ret x\n}\n# the end\n";
        assert_eq!(
            fmt(src),
            "# header\n# unused\nfunction main(n) {\n# entry block\nentry:\n    x = n + 1 # add\n    # before ret\n    ret x\n}\n# the end\n"
        );
    }

    #[test]
    fn formatting_twice_changes_nothing_and_the_text_parses() {
        let src = "function f(a) { # opens\ne: # label\n  b = a ; c = b # two on a line\n  ret c\n}\n\n# between\nfunction g() {\ne:\n  ret\n}\n";
        let once = fmt(src);
        assert_eq!(fmt(&once), once);
        assert_eq!(
            crate::text::print_module(&parse_module(&once).unwrap()),
            crate::text::print_module(&parse_module(src).unwrap())
        );
        assert!(once.contains("    c = b # two on a line\n"), "{once}");
        assert!(once.contains("\n# between\nfunction g() {"), "{once}");
    }

    #[test]
    fn one_line_functions_keep_their_comments() {
        let src = "function main() { # c\ne:\n ret 1 } # d\n";
        assert_eq!(fmt(src), "function main() { # c\ne:\n    ret 1\n} # d\n");
        // A label sharing its line: canonical text, unless comments would
        // be lost.
        let src = "function main() { e: ret 1 }\n";
        assert_eq!(
            fmt(src),
            crate::text::print_module(&parse_module(src).unwrap())
        );
        let src = "function main() { e: ret 1 } # c\n";
        let e = print_module_with_comments(src, &parse_module(src).unwrap()).unwrap_err();
        assert!(
            e.message.contains("cannot keep the comments"),
            "{}",
            e.message
        );
    }

    #[test]
    fn crlf_and_lone_cr_comments_lose_their_line_ends_only() {
        let src = "function f() {\r\ne: # x\r\n  ret # y\r}\r\n";
        assert_eq!(fmt(src), "function f() {\ne: # x\n    ret # y\n}\n");
    }
}
