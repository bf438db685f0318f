//! The `.ssa` format: printer/parser round trips on every example, and one
//! test per class of bad input asserting the message and its location.

use ssakit::text::{parse, parse_module, print_module};

fn examples() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("examples/ exists") {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "ssa") {
            out.push((
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    assert!(out.len() >= 5, "expected the bundled examples");
    out
}

#[test]
fn round_trip_every_example() {
    for (name, src) in examples() {
        let m = parse_module(&src).unwrap_or_else(|d| panic!("{}", d.render(&name, &src)));
        let printed = print_module(&m);
        let m2 = parse_module(&printed).unwrap_or_else(|d| panic!("{}", d.render(&name, &printed)));
        assert_eq!(m, m2, "{name}: printing then parsing changed the function");
        assert_eq!(
            printed,
            print_module(&m2),
            "{name}: printing is not a fixpoint"
        );
    }
}

#[test]
fn printer_keeps_negative_literals_and_negations_apart() {
    let src = "function f(a) {\ne:\n    x = -5\n    y = - 5\n    z = -a\n    w = a - -3\n    v = - -9223372036854775808\n    ret x\n}\n";
    let m = parse_module(src).unwrap();
    let printed = print_module(&m);
    assert_eq!(
        printed,
        "function f(a) {\ne:\n    x = -5\n    y = - 5\n    z = -a\n    w = a - -3\n    v = - -9223372036854775808\n    ret x\n}\n"
    );
    assert_eq!(parse_module(&printed).unwrap(), m);
}

#[test]
fn ssa_versions_print_like_the_chapter_and_avoid_collisions() {
    let mut m = parse_module("function f(x, x1) {\ne:\n    ret x\n}\n").unwrap();
    let f = &mut m.functions[0];
    let x = f.var_by_name("x").unwrap();
    let v1 = f.new_version(x, 1);
    let v2 = f.new_version(x, 2);
    let names = ssakit::ir::VarNames::new(f);
    assert_eq!(&names[v1], "x_1", "x1 is taken by a parameter");
    assert_eq!(&names[v2], "x2");
}

/// Parses `src`, expecting an error whose message contains `msg`, located
/// at `line:col`.
#[track_caller]
fn bad(src: &str, msg: &str, line: usize, col: usize) {
    match parse(src) {
        Ok(_) => panic!("expected an error containing {msg:?} for:\n{src}"),
        Err(d) => {
            assert!(
                d.message.contains(msg),
                "message {:?} lacks {msg:?}",
                d.message
            );
            assert_eq!(
                d.line_col(src),
                (line, col),
                "wrong location for {:?}",
                d.message
            );
            let rendered = d.render("t.ssa", src);
            assert!(
                rendered.starts_with(&format!("error: t.ssa:{line}:{col}: ")),
                "{rendered}"
            );
        }
    }
}

#[test]
fn unknown_label() {
    bad(
        "function f() {\ne:\n    jump nowhere\n}\n",
        "unknown label `nowhere`",
        3,
        10,
    );
}

#[test]
fn duplicate_label() {
    bad(
        "function f() {\ne:\n    jump e\ne:\n    ret\n}\n",
        "duplicate label `e`",
        4,
        1,
    );
}

#[test]
fn block_without_terminator() {
    bad(
        "function f() {\ne:\n    x = 1\nn:\n    ret\n}\n",
        "block `e` has no terminator",
        2,
        1,
    );
    bad(
        "function f() {\ne:\n    x = 1\n}\n",
        "block `e` has no terminator",
        2,
        1,
    );
}

#[test]
fn statement_after_terminator() {
    bad(
        "function f() {\ne:\n    ret\n    x = 1\n}\n",
        "statement after the terminator of block `e`",
        4,
        5,
    );
}

#[test]
fn phi_labels_must_be_the_predecessors() {
    let head = "function f(p) {\na:\n    branch p, b, c\nb:\n    jump c\nc:\n";
    bad(
        &format!("{head}    x = phi(a: 1)\n    ret x\n}}\n"),
        "phi has no operand for predecessor `b`",
        7,
        5,
    );
    bad(
        &format!("{head}    x = phi(a: 1, b: 2, c: 3)\n    ret x\n}}\n"),
        "labelled `c`, which is not a predecessor",
        7,
        5,
    );
    bad(
        &format!("{head}    x = phi(a: 1, a: 2)\n    ret x\n}}\n"),
        "two operands for predecessor `a`",
        7,
        5,
    );
}

#[test]
fn phi_after_ordinary_instruction() {
    bad(
        "function f() {\na:\n    jump b\nb:\n    y = 1\n    x = phi(a: 1)\n    ret x\n}\n",
        "phi after an ordinary instruction",
        6,
        5,
    );
}

#[test]
fn wrong_arity_of_a_module_function() {
    bad(
        "function f() {\na:\n    x = g(1, 2)\n    ret x\n}\nfunction g(a) {\nb:\n    ret a\n}\n",
        "function `g` takes 1 argument(s), called with 2",
        3,
        5,
    );
}

#[test]
fn syntax_errors() {
    bad(
        "function f() {\na:\n    x = 1 +\n    ret\n}\n",
        "expected an operand",
        3,
        12,
    );
    bad(
        "function f() {\na:\n    x = 1 2\n    ret\n}\n",
        "expected end of line, found `2`",
        3,
        11,
    );
    bad(
        "function f( {\n",
        "expected a parameter name, found `{`",
        1,
        13,
    );
    bad(
        "function f() {\na:\n    ret\n",
        "expected `}` closing the function",
        4,
        1,
    );
    bad("fn f() {}", "expected `function`, found `fn`", 1, 1);
    bad("", "no function in input", 1, 1);
    bad(
        "function f() {\n    x = 1\n}\n",
        "statement before the first label",
        2,
        5,
    );
    bad("function f() {\n}\n", "function `f` has no blocks", 2, 1);
    bad(
        "function f() {\na:\n    x = 1 @ 2\n}\n",
        "unexpected character `@`",
        3,
        11,
    );
    bad(
        "function f() {\na:\n    x = 12ab\n}\n",
        "malformed number `12ab`",
        3,
        9,
    );
    bad(
        "function f() {\na:\n    phi = 1\n    ret\n}\n",
        "`phi` is a keyword",
        3,
        5,
    );
}

/// Type names are contextual, types only follow `:`
/// or `->`. A program naming values `v0 ... vN` reaches `v128`; `i32`,
/// `f64`, `bool` name variables, labels, functions; typed definitions and
/// signatures still read their types; everything prints and parses back.
#[test]
fn type_names_are_contextual() {
    let src = "function bool(v128: i32, i64) -> f64 {\n\
               f32:\n    v128 = i64 + 1\n    i32 = v128 * 2\n    f64 = phi_free(i32)\n    \
               (bool, externref) = (i32, f64)\n    x: i32 = v128\n    branch bool, f32, funcref\n\
               funcref:\n    print i32, f64, bool, externref\n    ret x\n}\n";
    let m = parse_module(src).unwrap_or_else(|e| panic!("{e:?}"));
    let f = &m.functions[0];
    assert_eq!(f.name(), "bool");
    let text = print_module(&m);
    for line in [
        "function bool(v128: i32, i64) -> f64 {",
        "    v128: i32 = i64 + 1",
        "    i32 = v128 * 2",
        "    f64 = phi_free(i32)",
        "    x: i32 = v128",
        "funcref:",
    ] {
        assert!(text.contains(line), "{line} not in\n{text}");
    }
    assert_eq!(print_module(&parse_module(&text).unwrap()), text);
    // The statement keywords stay reserved, types are still checked.
    bad(
        "function f() {\na:\n    print = 1\n    ret\n}\n",
        "expected an operand",
        3,
        11,
    );
    bad(
        "function f(a: v0) {\na:\n    ret\n}\n",
        "expected a type",
        1,
        15,
    );
}

#[test]
fn absurd_integers() {
    bad(
        "function f() {\na:\n    x = 99999999999999999999999\n    ret x\n}\n",
        "does not fit in 64 bits",
        3,
        9,
    );
    bad(
        "function f() {\na:\n    x = -9223372036854775809\n    ret x\n}\n",
        "does not fit in 64 bits",
        3,
        9,
    );
    assert!(parse("function f() {\na:\n    x = -9223372036854775808\n    ret x\n}\n").is_ok());
}

#[test]
fn duplicates() {
    bad(
        "function f(a, a) {\nb:\n    ret\n}\n",
        "duplicate parameter `a`",
        1,
        15,
    );
    bad(
        "function f() {\nb:\n    ret\n}\nfunction f() {\nb:\n    ret\n}\n",
        "duplicate function `f`",
        5,
        10,
    );
    bad(
        "function f() {\nb:\n    (x, x) = (1, 2)\n    ret\n}\n",
        "`x` is written twice by one parallel copy",
        3,
        9,
    );
    bad(
        "function f() {\nb:\n    (x, y) = (1)\n    ret\n}\n",
        "2 destination(s) but 1 source(s)",
        3,
        6,
    );
}

#[test]
fn huge_line_and_non_ascii_do_not_panic() {
    let long = format!(
        "function f() {{\nb:\n    x = {}\n    ret\n}}\n",
        "1".repeat(1 << 20)
    );
    bad(&long, "does not fit in 64 bits", 3, 9);
    bad(
        "function f() {\nb:\n    x = é\n}\n",
        "unexpected character `é`",
        3,
        9,
    );
}

#[test]
fn line_col_counts_every_line_ending_and_skips_a_byte_order_mark() {
    use ssakit::text::diag::{line_col, Diagnostic};
    // Lines: "ab" (CRLF), "c" (CR), "d" (LF), "é" (CRLF), "" (CR), "f".
    let src = "\u{feff}ab\r\nc\rd\né\r\n\rf";
    let expect = [
        (0, (1, 1)),
        (3, (1, 1)),
        (4, (1, 2)),
        (5, (1, 3)), // the `\r` of a CRLF ends line 1 at column 3
        (6, (1, 3)), // its `\n` is the same line end
        (7, (2, 1)),
        (8, (2, 2)), // a lone `\r`
        (9, (3, 1)),
        (11, (4, 1)),
        (13, (4, 2)), // after the two bytes of `é`
        (15, (5, 1)), // an empty line ended by `\r`
        (16, (6, 1)),
        (17, (6, 2)), // end of input
    ];
    let index = ssakit::text::diag::LineIndex::new(src);
    for (offset, lc) in expect {
        assert_eq!(line_col(src, offset), lc, "offset {offset}");
    }
    // The index, built once for many diagnostics, agrees everywhere.
    for offset in 0..=src.len() + 2 {
        assert_eq!(
            index.line_col(src, offset),
            line_col(src, offset),
            "offset {offset}"
        );
        let d = Diagnostic::new("m", offset..offset + 1, "l");
        assert_eq!(
            d.render_indexed("t.ssa", src, &index),
            d.render("t.ssa", src)
        );
    }
    // Every offset renders without panicking, with its line in the margin
    // and the line's text (no line end, no byte-order mark) beside it.
    for offset in 0..=src.len() + 2 {
        let d = Diagnostic::new("m", offset..offset + 1, "l");
        let (line, col) = d.line_col(src);
        let r = d.render("t.ssa", src);
        assert!(
            r.starts_with(&format!("error: t.ssa:{line}:{col}: m\n")),
            "{r}"
        );
        let shown = r.lines().nth(2).unwrap();
        assert!(shown.starts_with(&format!("{line} | ")), "{offset}: {r:?}");
        assert!(!shown.contains(['\r', '\u{feff}']), "{offset}: {r:?}");
    }
}

/// A phi in a block without predecessors is refused
/// with its location by the parser, and by the verifier when built.
#[test]
fn a_phi_in_a_block_without_predecessors_is_refused() {
    let src = "function main(n) {\nentry:\n    x = phi()\n    print x\n    ret x\n}\n";
    let d = ssakit::text::parse_module(src).unwrap_err();
    assert!(d.message.contains("no predecessors"), "{}", d.message);
    assert_eq!(d.line_col(src), (3, 5));
    let mut fb = ssakit::ir::FunctionBuilder::new("main");
    let x = fb.var("x");
    let entry = fb.block("entry");
    fb.switch_to(entry);
    fb.phi(x, &[]);
    fb.ret(Some(ssakit::ir::Operand::Var(x)));
    let errs = ssakit::verify::verify(&fb.finish()).unwrap_err();
    assert!(
        errs.iter().any(|e| e.message.contains("no predecessors")),
        "{errs:?}"
    );
}
