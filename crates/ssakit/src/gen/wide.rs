//! Wide shapes: one very wide instruction, as `.ssa` text, for the scale
//! tests and `examples/wide.rs`: each stage must stay near-linear in the
//! width of one instruction, not only in the number of instructions.

use std::fmt::Write;

/// `p0, p1, ..., p{n-1}` for `prefix` `p`: a switch's targets, a parallel
/// copy's variables.
pub(crate) fn numbered(prefix: &str, n: usize) -> String {
    let mut s = String::with_capacity(n * (prefix.len() + 8));
    for i in 0..n {
        let _ = write!(s, "{}{prefix}{i}", if i > 0 { ", " } else { "" });
    }
    s
}

/// `phi`: an `n`-target switch into a join where `x` has `n + 1`
/// definitions, so construction makes an `n + 1`-operand phi.
pub(crate) fn phi(n: usize) -> String {
    let mut s = String::from("function main(a) {\nentry:\n    x = 0\n    switch a, J, [");
    s.push_str(&numbered("B", n));
    s.push_str("]\n");
    for i in 0..n {
        let _ = write!(s, "B{i}:\n    x = {i}\n    jump J\n");
    }
    s.push_str("J:\n    print x\n    ret x\n}\n");
    s
}

/// `switch-loop`: a loop whose header is named `n` times by its own switch
/// (`switch k, X, [L, L, ...]`), with two variables carried around it:
/// every one of those edges is critical.
pub(crate) fn switch_loop(n: usize) -> String {
    let mut s = String::from(
        "function main(a) {\nentry:\n    i = 0\n    s = 0\n    jump L\nL:\n    s = s + i\n    \
         i = i + 1\n    c = i < 3\n    k = c - a\n    switch k, X, [",
    );
    for i in 0..n {
        let _ = write!(s, "{}L", if i > 0 { ", " } else { "" });
    }
    s.push_str("]\nX:\n    print s, i\n    ret s\n}\n");
    s
}

/// `pcopy`: an `n`-wide parallel copy rotating `n` variables in a loop.
pub(crate) fn pcopy(n: usize) -> String {
    let mut s = String::from("function main(a) {\nentry:\n");
    for i in 0..n {
        let _ = writeln!(s, "    w{i} = {i}");
    }
    s.push_str("    i = 0\n    jump L\nL:\n    (");
    s.push_str(&numbered("w", n));
    s.push_str(") = (");
    for i in 0..n {
        let _ = write!(s, "{}w{}", if i > 0 { ", " } else { "" }, (i + 1) % n);
    }
    s.push_str(")\n    i = i + 1\n    c = i < 3\n    branch c, L, X\nX:\n    print w0, w1\n    ret w0\n}\n");
    s
}

/// A wide shape's name and its program of width `n`.
pub(crate) type WideShape = (&'static str, fn(usize) -> String);

/// Every wide shape.
pub const ALL: [WideShape; 3] = [("phi", phi), ("switch-loop", switch_loop), ("pcopy", pcopy)];
