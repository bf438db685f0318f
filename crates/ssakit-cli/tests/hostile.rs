//! Hostile input: every class of malformed file gets a clear, located error
//! and a non-zero exit from every command that reads programs, never a
//! panic (exit 101) or a hang; hostile output: every command writing to a
//! closed pipe or a full device ends cleanly (exit 0 or 1, a message for
//! the full device), never with a panic or an abort; hostile arguments:
//! every usage error is exit 1.

mod common;

use common::{spawn, Sink, EVERY_COMMAND};
use std::time::{Duration, Instant};

/// Runs `ssakit ARGS -` on `input`; returns (exit code, stderr).
fn feed(args: &[&str], input: &[u8]) -> (Option<i32>, String) {
    let mut args = args.to_vec();
    args.push("-");
    let start = Instant::now();
    let out = common::ssakit_bytes(&args, input);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "ssakit {args:?} took too long"
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const PROGRAM: &str = "function main(a) {\nentry:\n    x = a + 1\n    branch x, l, r\nl:\n    jump r\nr:\n    ret x\n}\n";

#[allow(clippy::vec_init_then_push)]
fn cases() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let mut v: Vec<(&'static str, Vec<u8>, &'static str)> = Vec::new();
    // Every proper prefix of a valid program is an error (truncated files).
    v.push((
        "truncated in a statement",
        PROGRAM[..37].into(),
        "<stdin>:3:12: expected an operand",
    ));
    v.push((
        "truncated after a label",
        PROGRAM[..PROGRAM.find("l:").unwrap() + 2].into(),
        "expected `}` closing the function",
    ));
    v.push((
        "non-UTF-8 bytes",
        b"function main() {\ne:\n    x = \xc3\x28\n}\n".to_vec(),
        "invalid UTF-8 at byte offset 29",
    ));
    v.push((
        "absurd integer",
        b"function main() {\ne:\n    x = 123456789012345678901234567890\n    ret x\n}\n".to_vec(),
        "<stdin>:3:9: integer literal",
    ));
    let mut long = b"function main() {\ne:\n    x = 1".to_vec();
    long.extend(b" + 1".repeat(2_500_000));
    long.extend(b"\n    ret x\n}\n");
    v.push((
        "10 MB line",
        long,
        "<stdin>:3:15: expected end of line, found `+`",
    ));
    v.push((
        "label to nowhere",
        b"function main() {\ne:\n    branch 1, e, nowhere\n}\n".to_vec(),
        "<stdin>:3:18: unknown label `nowhere`",
    ));
    v.push(("phi with too few operands", b"function main(a) {\ne:\n    branch a, l, j\nl:\n    jump j\nj:\n    x = phi(e: 1)\n    ret x\n}\n".to_vec(), "<stdin>:7:5: phi has no operand for predecessor `l`"));
    v.push(("phi with too many operands", b"function main(a) {\ne:\n    jump j\nl:\n    jump j\nj:\n    x = phi(e: 1, l: 2, j: 3)\n    ret x\n}\n".to_vec(), "labelled `j`, which is not a predecessor"));
    let mut deep = b"function main() {\ne:\n    x = ".to_vec();
    deep.extend(std::iter::repeat_n(b'(', 100_000));
    deep.extend(b"1\n}\n");
    v.push(("deep nesting", deep, "<stdin>:3:9: expected an operand"));
    v.push(("empty file", Vec::new(), "no function in input"));
    v.push((
        "lines ended by a lone CR",
        b"function main(a) {\rentry:\r    x = a +\r    ret x\r}\r".to_vec(),
        "<stdin>:3:12: expected an operand",
    ));
    v.push((
        "a byte-order mark, then CRLF",
        b"\xef\xbb\xbffunction main(a) {\r\nentry:\r\n    x = a +\r\n}\r\n".to_vec(),
        "<stdin>:3:12: expected an operand",
    ));
    v.push((
        "only comments",
        b"# nothing here\n".to_vec(),
        "no function in input",
    ));
    v.push((
        "NUL byte",
        b"function main() {\ne:\n    \0\n}\n".to_vec(),
        "<stdin>:3:5: unexpected character `\\0`",
    ));
    v.push((
        "huge label list",
        {
            let mut s = b"function main() {\ne:\n    switch 0, e, [".to_vec();
            for k in 0..200_000 {
                s.extend(format!("t{k}, ").as_bytes());
            }
            s.extend(b"]\n}\n");
            s
        },
        "expected a label, found `]`",
    ));
    v
}

/// One call of every subcommand that reads a program.
const READERS: &[&[&str]] = &[
    &["fmt"],
    &["run"],
    &["construct"],
    &["check"],
    &["analyze", "--df"],
    &["opt", "--passes", "dce"],
    &["destruct"],
    &["emit-llvm"],
    &["emit-llvm", "--opaque"],
    &["emit-wasm"],
    &["reduce"],
    &["dot"],
    &["dot", "--svg", "--dom"],
    &["explain"],
    &["check", "--format", "json"],
    &["analyze", "--format", "json", "--dom"],
];

#[test]
fn every_command_rejects_every_bad_input_with_a_located_message() {
    for (name, input, msg) in cases() {
        for &cmd in READERS {
            refused_with(name, cmd, &input, msg);
        }
    }
}

/// `ssakit ARGS` on `input` exits 1 with `msg` in its message, no panic.
fn refused_with(name: &str, args: &[&str], input: &[u8], msg: &str) {
    let (code, err) = feed(args, input);
    assert_eq!(
        code,
        Some(1),
        "{name}: ssakit {args:?} exit code, stderr:\n{err}"
    );
    assert!(
        err.contains(msg),
        "{name}: ssakit {args:?} says\n{err}\nexpected {msg:?}"
    );
    assert!(!err.contains("panicked"), "{name}: panic\n{err}");
}

#[test]
fn duplicate_definitions_in_ssa_input_are_refused() {
    let src = b"function main(a) {\ne:\n    branch a, l, j\nl:\n    x = 1\n    x = 2\n    jump j\nj:\n    y = phi(e: 0, l: x)\n    ret y\n}\n";
    let (code, err) = feed(&["check"], src);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("<stdin>:6:5: `x` is assigned more than once"),
        "{err}"
    );
}

#[test]
fn every_prefix_of_a_program_is_handled() {
    for cut in 0..PROGRAM.len() {
        let (code, err) = feed(&["check"], &PROGRAM.as_bytes()[..cut]);
        assert!(
            matches!(code, Some(0) | Some(1)),
            "prefix {cut}: exit {code:?}\n{err}"
        );
        assert!(!err.contains("panicked"), "prefix {cut}: {err}");
    }
}

const LIMIT: Duration = Duration::from_secs(120);

/// `ssakit ARGS` writing to a closed pipe ends with exit 0 or 1, quietly.
fn closed_pipe_is_quiet(args: &[&str]) {
    let (code, out) = spawn(args, Sink::Closed, Sink::Piped, LIMIT);
    let err = common::stderr(&out);
    assert!(
        matches!(code, Some(0) | Some(1)),
        "ssakit {args:?} on a closed pipe: exit {code:?}\n{err}"
    );
    assert!(!err.contains("panicked"), "ssakit {args:?}: {err}");
}

/// `ssakit ARGS` writing to `/dev/full` (as standard output, and with
/// `dash_o` as `-o`) fails with a message and exit 1.
fn full_device_fails(args: &[&str], dash_o: bool) {
    let (code, out) = spawn(args, Sink::Full, Sink::Piped, LIMIT);
    let err = common::stderr(&out);
    assert_eq!(code, Some(1), "ssakit {args:?} > /dev/full\n{err}");
    assert!(
        err.contains("error: cannot write to standard output: No space left on device"),
        "ssakit {args:?} > /dev/full says\n{err}"
    );
    assert!(!err.contains("panicked"), "ssakit {args:?}: {err}");
    if dash_o {
        let mut to_full = args.to_vec();
        to_full.extend(["-o", "/dev/full"]);
        let (code, out) = spawn(&to_full, Sink::Piped, Sink::Piped, LIMIT);
        let err = common::stderr(&out);
        assert_eq!(code, Some(1), "ssakit {to_full:?}\n{err}");
        assert!(
            err.contains("error: cannot write to /dev/full: No space left on device"),
            "ssakit {to_full:?} says\n{err}"
        );
    }
}

#[test]
fn every_command_ends_quietly_on_a_closed_pipe() {
    for &args in EVERY_COMMAND {
        closed_pipe_is_quiet(args);
    }
}

#[test]
fn every_command_reports_a_full_device() {
    for &args in EVERY_COMMAND {
        full_device_fails(args, true);
    }
}

#[test]
fn usage_errors_are_bad_arguments_exit_1() {
    for args in [
        &[][..],
        &["construct"],
        &["run", "seed.ssa", "abc"],
        &["gen", "--shape", "foo"],
        &["gen", "--blocks", "-1"],
        &["gen", "--blocks", "18446744073709551615"],
        &["gen", "--shape", "many-vars", "--vars", "100000000"],
        &["gen", "--vars", "many"],
        &["analyze", "seed.ssa"],
        &["destruct", "--conventional", "--no-split", "swap.ssa"],
        &["fmt", "--bad", "seed.ssa"],
        &["explain", "--passes", "fold-all", "seed.ssa"],
        &["explain", "--conventional", "--no-split", "seed.ssa"],
        &["nosuch"],
    ] {
        let (code, out) = spawn(args, Sink::Piped, Sink::Piped, LIMIT);
        let err = common::stderr(&out);
        assert_eq!(code, Some(1), "ssakit {args:?}\n{err}");
        assert!(
            err.starts_with("error: ") || err.contains("Usage:"),
            "ssakit {args:?} says\n{err}"
        );
        assert!(out.stdout.is_empty(), "ssakit {args:?}");
    }
}

#[test]
fn an_endless_stream_of_bytes_is_refused_at_its_first_invalid_byte() {
    // Before, the whole stream was read before checking it: forever, until
    // memory ran out.
    let urandom = std::fs::File::open("/dev/urandom").unwrap();
    for cmd in ["construct", "fmt", "check", "run"] {
        let (code, out) = common::spawn_with_input(
            &[cmd, "-"],
            urandom.try_clone().unwrap().into(),
            Sink::Piped,
            Sink::Piped,
            Duration::from_secs(20),
        );
        let err = common::stderr(&out);
        assert_eq!(code, Some(1), "{cmd}: {err}");
        assert!(
            err.starts_with("error: <stdin>:") && err.contains(": invalid UTF-8 at byte offset "),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn help_on_a_closed_pipe_succeeds_and_on_a_full_device_fails() {
    for args in [&["--help"][..], &["gen", "--help"], &["--version"]] {
        let (code, _) = spawn(args, Sink::Closed, Sink::Piped, LIMIT);
        assert_eq!(code, Some(0), "ssakit {args:?} | (closed)");
        let (code, out) = spawn(args, Sink::Full, Sink::Piped, LIMIT);
        assert_eq!(code, Some(1), "ssakit {args:?} > /dev/full");
        assert!(
            common::stderr(&out).contains("cannot write to standard output"),
            "{}",
            common::stderr(&out)
        );
    }
}

#[test]
fn a_full_standard_error_does_not_turn_an_error_into_a_crash() {
    for args in [
        &["fmt", "no-such-file.ssa"][..],
        &["run", "seed.ssa", "1"],
        &["construct", "swap.ssa"],
    ] {
        let (code, _) = spawn(args, Sink::Piped, Sink::Full, LIMIT);
        assert_eq!(code, Some(1), "ssakit {args:?} 2> /dev/full");
    }
    let (code, out) = spawn(
        &["construct", "--time-passes", "seed.ssa"],
        Sink::Piped,
        Sink::Full,
        LIMIT,
    );
    assert_eq!(
        code,
        Some(0),
        "the --time-passes report need not be written"
    );
    assert!(common::stdout(&out).starts_with("function main(p, q) {"));
}

/// `wasm stats` prints timings, so it is not in [`EVERY_COMMAND`] (whose
/// outputs are compared exactly): its closed pipe and full device here.
#[test]
fn wasm_stats_on_a_closed_pipe_and_a_full_device() {
    for format in ["text", "json"] {
        let args = ["wasm", "stats", "--format", format, "wasm_tour.wat"];
        closed_pipe_is_quiet(&args);
        full_device_fails(&args, true);
    }
}

/// The x86 commands, in every output format (`x86 lift --format json` is
/// the emulator oracle's input): a closed pipe and a full device, as
/// standard output and as `-o`.
#[test]
fn x86_commands_on_a_closed_pipe_and_a_full_device() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../ssakit-x86/tests/fixture/fixture"
    );
    for args in [
        &["x86", "lift", fixture][..],
        &["x86", "lift", "--construct", "--format", "json", fixture],
        &["x86", "stats", fixture],
        &["x86", "stats", "--format", "json", fixture],
        // With meaning and the frame's slots promoted (`--stack`), and
        // with the signatures found first (`--signatures`).
        &["x86", "lift", "--semantics", "--stack", fixture],
        &[
            "x86",
            "lift",
            "--semantics",
            "--stack",
            "--signatures",
            fixture,
        ],
        &[
            "x86",
            "stats",
            "--semantics",
            "--signatures",
            "--format",
            "json",
            fixture,
        ],
        &[
            "x86",
            "stats",
            "--semantics",
            "--stack",
            "--format",
            "json",
            fixture,
        ],
    ] {
        closed_pipe_is_quiet(args);
        full_device_fails(args, true);
    }
}

/// The binary writers (`wasm opt`, `emit-wasm`), and `wasm opt --dump`'s
/// text: a closed pipe and a full device, as standard output and as `-o`.
#[test]
fn binary_writers_on_a_closed_pipe_and_a_full_device() {
    for args in [
        &["wasm", "opt", "wasm_tour.wat"][..],
        &["emit-wasm", "seed.ssa"][..],
        &["wasm", "opt", "--dump", "structure", "wasm_tour.wat"][..],
        &["wasm", "opt", "--dump", "stackify", "wasm_tour.wat"][..],
        &["wasm", "opt", "--dump", "locals", "wasm_tour.wat"][..],
    ] {
        closed_pipe_is_quiet(args);
        full_device_fails(args, true);
    }
}

/// Bad Bril: each unsupported extension, malformed text and JSON, bad
/// programs. (format, input, the message with its location)
const BRIL_CASES: &[(&str, &str, &str)] = &[
    ("bril", "@main { p: ptr<int> = alloc n; }", "<stdin>:1:9: type `ptr<int>` is not supported (memory extension)"),
    ("bril", "@main {\n  a: int = const 1;\n  store a a;\n}", "<stdin>:3:3: `store` is not supported (memory extension)"),
    ("bril", "@main { a: float = const 1.5; }", "<stdin>:1:9: type `float` is not supported (float extension)"),
    ("bril", "@main { a: int = const 1; b: int = fadd a a; }", "<stdin>:1:27: `fadd` is not supported (float extension)"),
    ("bril", "@main { c: char = const 'a'; }", "<stdin>:1:9: type `char` is not supported (char extension)"),
    ("bril", "@main { a: int = const 1; b: bool = ceq a a; }", "<stdin>:1:27: `ceq` is not supported (char extension)"),
    ("bril", "@main { speculate; commit; }", "<stdin>:1:9: `speculate` is not supported (speculation extension)"),
    ("bril", "@main { a: int = const 1; b: int = frob a; }", "<stdin>:1:27: unknown Bril instruction `frob`"),
    ("bril", "@main { jmp .nowhere; }", "<stdin>:1:9: unknown label `.nowhere`"),
    ("bril", "@main { a: int = const 1", "<stdin>:1:25: expected an argument or `;`"),
    ("bril", "@main { a: int = add x y; }", "<stdin>:1:9: undefined variable `x`"),
    ("bril", "@main { a: int = const 99999999999999999999; }", "<stdin>:1:24: malformed number"),
    ("bril", "@main { a: int = const 1; b: bool = add a a; }", "<stdin>:1:27: `add` gives `int`, not `bool`"),
    ("bril", "@main { .l: .l: }", "<stdin>:1:13: duplicate label `.l`"),
    ("bril", "@main { x: int = get; }", "<stdin>:1:9: `get` in a block without predecessors"),
    ("bril", "@main { a: int = const 1; call @g a; }", "<stdin>:1:27: call to undefined function `@g`"),
    ("bril", "struct S = {}", "<stdin>:1:1: `struct` (memory extension) is not supported"),
    ("bril", "@main { a: int = const 1; ~ }", "<stdin>:1:27: unexpected character"),
    ("bril-json", r#"{"functions": [{"name": "main", "instrs": [{"op": "alloc", "dest": "p", "type": {"ptr": "int"}, "args": ["n"]}]}]}"#, "<stdin>: function `main`, instruction 0: type `ptr<int>` is not supported (memory extension)"),
    ("bril-json", r#"{"functions": [{"name": "main", "instrs": [{"label": "l"}, {"op": "load", "dest": "p", "type": "int", "args": ["a"]}]}]}"#, "<stdin>: function `main`, instruction 1: `load` is not supported (memory extension)"),
    ("bril-json", r#"{"functions": [{"name": "main", "instrs": [{"op": "const", "dest": "a", "type": "float", "value": 1.5}]}]}"#, "instruction 0: type `float` is not supported (float extension)"),
    ("bril-json", r#"{"functions": [{"name": "main", "instrs": [{"op": "guard", "args": [], "labels": ["x"]}]}]}"#, "instruction 0: `guard` is not supported (speculation extension)"),
    ("bril-json", "{\"functions\": [{\"name\": \"main\",\n \"instrs\": [ {\"op\": \"const\", } ]}]}", "<stdin>:2:31: malformed JSON: trailing comma"),
    ("bril-json", r#"{"functions": [{"name": "main", "instrs": [ {"dest": "x"} ]}]}"#, "instruction 0: an instruction needs an `op` string"),
    ("bril-json", "[1,2]", "<stdin>: a Bril program is a JSON object"),
    ("bril-json", "", "<stdin>:1:1: malformed JSON: EOF while parsing a value"),
    ("bril-json", r#"{"functions": [{"name": "main", "args": [{"name": "c", "type": "char"}], "instrs": []}]}"#, "<stdin>: function `main`: type `char` is not supported (char extension)"),
];

#[test]
fn every_command_rejects_bad_bril_with_a_located_message() {
    for &(format, input, msg) in BRIL_CASES {
        for &cmd in READERS {
            let mut args = cmd.to_vec();
            args.extend(["--input-format", format]);
            refused_with(input, &args, input.as_bytes(), msg);
        }
    }
}

#[test]
fn wasm_commands_refuse_bad_bytes_and_endless_streams() {
    let urandom = std::fs::File::open("/dev/urandom").unwrap();
    for cmd in [
        &["lift"][..],
        &["stats"],
        &["opt"],
        &["opt", "--dump", "structure"],
    ] {
        let cmd: Vec<&str> = std::iter::once("wasm").chain(cmd.iter().copied()).collect();
        let (code, out) = common::spawn_with_input(
            &[&cmd[..], &["-"]].concat(),
            urandom.try_clone().unwrap().into(),
            Sink::Piped,
            Sink::Piped,
            Duration::from_secs(20),
        );
        let err = common::stderr(&out);
        assert_eq!(code, Some(1), "{cmd:?}: {err}");
        assert!(err.starts_with("error: <stdin>:"), "{cmd:?}: {err}");
        // A binary module's magic, then garbage: malformed at a byte offset.
        let mut junk = b"\0asm\x01\0\0\0".to_vec();
        junk.extend((0..10_000u32).map(|k| (k.wrapping_mul(2_654_435_761) >> 24) as u8));
        let (code, err) = feed(&cmd, &junk);
        assert_eq!(code, Some(1), "{cmd:?}: {err}");
        assert!(
            err.starts_with("error: <stdin>: byte offset 0x"),
            "{cmd:?}: {err}"
        );
        // 100,000 nested blocks: no stack overflow in the lifter (the
        // text assembler is iterative on flat instructions).
        let mut deep = String::from("(module (func ");
        deep.push_str(&"block ".repeat(100_000));
        deep.push_str(&"end ".repeat(100_000));
        deep.push_str("))");
        let (code, err) = feed(&cmd, deep.as_bytes());
        assert_eq!(code, Some(0), "{cmd:?}: {err}");
    }
}

#[test]
fn every_prefix_of_a_bril_program_is_handled() {
    let text = std::fs::read_to_string(common::example("bril/bool_logic.bril")).unwrap();
    let json = common::ok(
        &["fmt", "--emit", "bril-json", "bril/bool_logic.bril"],
        None,
    );
    for (format, src) in [("bril", &text), ("bril-json", &json)] {
        for cut in (0..src.len()).step_by(7) {
            let (code, err) = feed(&["check", "--input-format", format], &src.as_bytes()[..cut]);
            assert!(
                matches!(code, Some(0) | Some(1)),
                "{format} prefix {cut}: exit {code:?}\n{err}"
            );
            assert!(!err.contains("panicked"), "{format} prefix {cut}: {err}");
        }
    }
}

/// What the user typed is shown with its control characters escaped in
/// every error that echoes it: an argument of `run`, `--args` of
/// `reduce`, a variable of `--idf` and `--trace`, `--entry`, `--func`, a
/// file name, `-o`, and a value clap refuses. Before, `run seed.ssa 1
/// $'3\r'` said ``argument `3<CR>` `` with an invisible carriage return.
#[test]
fn echoed_arguments_show_their_control_characters_escaped() {
    let o = std::env::temp_dir().join("ssakit-no-such-dir/out\u{1b}[2J.ssa");
    let o = o.to_str().unwrap();
    for (args, shown) in [
        (
            &["run", "seed.ssa", "1", "3\r"][..],
            "argument `3\\r`: expected a 64-bit integer",
        ),
        (
            &["reduce", "--args", "1\r", "seed.ssa"],
            "`--args 1\\r` is not 2",
        ),
        (
            &["analyze", "--idf", "x\t", "seed.ssa"],
            "no variable `x\\t`",
        ),
        (
            &["construct", "--trace", "x\r", "seed.ssa"],
            "no variable named `x\\r`",
        ),
        (
            &["run", "--entry", "ma\u{1}in", "seed.ssa", "1", "2"],
            "no function named `ma\\u{1}in`",
        ),
        (
            &["wasm", "lift", "--func", "sum\r", "wasm_tour.wat"],
            "no function `sum\\r`",
        ),
        (
            &["wasm", "opt", "--func", "0,\u{7f}", "wasm_tour.wat"],
            "no function `\\u{7f}`",
        ),
        (&["fmt", "se\red.ssa"], "cannot read se\\red.ssa: "),
        (
            &["fmt", "seed.ssa", "-o", o],
            "ssakit-no-such-dir/out\\u{1b}[2J.ssa",
        ),
        (
            &["construct", "--flavor", "pruned\r", "seed.ssa"],
            "'pruned\\r'",
        ),
        (&["run", "--fuel", "9\n", "seed.ssa"], "'9\\n'"),
        (
            &["opt", "--passes", "dce,\u{1b}[1m", "seed.ssa"],
            "unknown pass `\\u{1b}[1m`",
        ),
        (&["gen", "--shape", "loop\r"], "'loop\\r'"),
        (&["construct", "--bogus\r", "seed.ssa"], "'--bogus\\r'"),
    ] {
        let out = common::ssakit(args, None);
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(1), "ssakit {args:?}\n{err}");
        assert!(err.contains(shown), "ssakit {args:?} says\n{err}");
        assert!(
            !err.chars().any(|c| c.is_control() && c != '\n'),
            "ssakit {args:?} says\n{err:?}"
        );
    }
}
