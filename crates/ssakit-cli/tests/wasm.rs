//! `ssakit wasm lift`, `ssakit wasm stats` and `ssakit wasm opt` end to
//! end: the example module's golden lift, one function by index or name,
//! SSA output that `check` accepts, the stats table and its JSON, the
//! golden `wasm opt --wat` text, and bad modules (exit 1 with a byte
//! offset).

mod common;

use common::{golden, ok, ssakit, ssakit_bytes, stderr, stdout};

const GOLDEN: &str = include_str!("../../ssakit-wasm/tests/golden/wasm_tour.ssa");
const GOLDEN_PRUNED: &str = include_str!("../../ssakit-wasm/tests/golden/wasm_tour.pruned.ssa");

#[test]
fn lift_prints_the_golden_text_from_wat_and_from_binary_input() {
    assert_eq!(ok(&["wasm", "lift", "wasm_tour.wat"], None), GOLDEN);
    let wasm = wat::parse_file(common::example("wasm_tour.wat")).unwrap();
    let o = ssakit_bytes(&["wasm", "lift", "-"], &wasm);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), GOLDEN);
    assert_eq!(
        ok(
            &[
                "wasm",
                "lift",
                "--construct",
                "--flavor",
                "pruned",
                "wasm_tour.wat"
            ],
            None
        ),
        GOLDEN_PRUNED
    );
}

#[test]
fn lift_output_goes_through_every_command() {
    let text = ok(&["wasm", "lift", "wasm_tour.wat"], None);
    assert_eq!(ok(&["fmt", "-"], Some(&text)), text);
    let ssa = ok(&["construct", "--flavor", "pruned", "-"], Some(&text));
    assert_eq!(ssa, GOLDEN_PRUNED);
    let report = ok(&["check", "-"], Some(&ssa));
    assert!(report.contains("pruned: yes"), "{report}");
    let opt = ok(
        &["opt", "--passes", "copy-prop,const-prop,dce", "-"],
        Some(&ssa),
    );
    let out = ok(&["destruct", "-"], Some(&opt));
    assert!(!out.contains("phi("), "{out}");
}

#[test]
fn func_picks_one_function_by_index_or_name() {
    let by_name = ok(
        &["wasm", "lift", "--func", "classify", "wasm_tour.wat"],
        None,
    );
    let by_index = ok(&["wasm", "lift", "--func", "1", "wasm_tour.wat"], None);
    assert_eq!(by_name, by_index);
    assert!(
        by_name.starts_with("operator i32.eqz pure\n\nfunction classify(l0: i32) -> i32 {"),
        "{by_name}"
    );
    assert_eq!(by_name.matches("function ").count(), 1);
    for bad in ["nosuch", "3"] {
        let o = ssakit(&["wasm", "lift", "--func", bad, "wasm_tour.wat"], None);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            stderr(&o),
            format!(
                "error: wasm_tour.wat: no function `{bad}`; the module's functions, \
                 by name or index: `sum` (0), `classify` (1), `pick` (2)\n"
            )
        );
    }
    let src = r#"(module (import "env" "f" (func)) (func call 0))"#;
    let o = ssakit(&["wasm", "lift", "--func", "0", "-"], Some(src));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: <stdin>: function 0 (`f`) is imported: it has no body\n"
    );
}

#[test]
fn stats_prints_the_table_and_json() {
    let t = ok(
        &[
            "wasm",
            "stats",
            "--passes",
            "copy-prop,dce",
            "--all-flavors",
            "wasm_tour.wat",
        ],
        None,
    );
    // Label and value, however wide the label column.
    let rows: Vec<(String, String)> = t
        .lines()
        .map(|l| match l.split_once("  ") {
            Some((a, b)) => (a.to_string(), b.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect();
    for (label, value) in [
        ("module: wasm_tour.wat", ""),
        ("functions", "3 defined, 0 imported"),
        ("blocks", "16"),
        ("phis minimal", "6"),
        ("phis pruned", "4"),
        ("passes", "copy-prop,dce"),
        ("failures", "0"),
    ] {
        assert!(
            rows.contains(&(label.to_string(), value.to_string())),
            "{label}: {value} in\n{t}"
        );
    }
    let j = ok(
        &["wasm", "stats", "--format", "json", "wasm_tour.wat"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&j).unwrap();
    assert_eq!(v["defined"], 3);
    assert_eq!(v["functions"][1]["name"], "classify");
    assert_eq!(v["total"]["blocks"], 16);
    assert_eq!(v["total"]["phis"]["pruned"], 4);
    assert!(v["total"]["copies_after_destruct"].as_u64().is_some());
    // The keys of every object are in alphabetical order, as the first
    // version wrote them; `total` has no index and no name.
    let first = |key: &str| j.find(&format!("\n  \"{key}\": ")).unwrap_or(usize::MAX);
    let top = [
        "defined",
        "failures",
        "functions",
        "imported",
        "module",
        "passes",
        "threads",
        "total",
        "wall",
    ];
    assert!(top.windows(2).all(|w| first(w[0]) < first(w[1])), "{j}");
    let record = &j[j.find("\"functions\"").unwrap()..];
    let at = |key: &str| record.find(&format!("\"{key}\": ")).unwrap();
    let keys = [
        "blocks",
        "copies_after_destruct",
        "copies_lifted",
        "index",
        "instructions",
    ];
    assert!(keys.windows(2).all(|w| at(w[0]) < at(w[1])), "{record}");
    assert!(at("locals") < at("name") && at("name") < at("phis") && at("phis") < at("times"));
    assert!(v["total"].get("index").is_none() && v["total"].get("name").is_none());
    let o = ssakit(
        &["wasm", "stats", "--passes", "nosuch", "wasm_tour.wat"],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: --passes: unknown pass `nosuch` (known passes: copy-prop, const-prop, fold, dce)\n"
    );
}

#[test]
fn bad_modules_are_one_error_with_a_byte_offset_and_exit_1() {
    let wasm = wat::parse_file(common::example("wasm_tour.wat")).unwrap();
    let mut cases: Vec<(Vec<u8>, &str)> = vec![
        (wasm[..20].to_vec(), "error: <stdin>: byte offset 0x"),
        (
            b"\0asm\x02\0\0\0".to_vec(),
            "error: <stdin>: byte offset 0x4: ",
        ),
        (
            b"(module (func (result i32)))".to_vec(),
            "in function 0: type mismatch",
        ),
        (
            b"(module (func".to_vec(),
            "error: <stdin>:1:14: expected `)`",
        ),
        (
            b"\xff\xfegarbage".to_vec(),
            "error: <stdin>:1:1: not a binary module and not UTF-8 text",
        ),
        (Vec::new(), "error: <stdin>:1:1: "),
    ];
    // `nop` (0x01) before the body's `end` (0x0b) made an unassigned opcode.
    let mut bad_op = wat::parse_str("(module (func nop))").unwrap();
    let at = bad_op.windows(2).rposition(|w| w == [0x01, 0x0b]).unwrap();
    bad_op[at] = 0x27;
    cases.push((bad_op, "in function 0: "));
    for cmd in ["lift", "stats"] {
        for (input, msg) in &cases {
            let o = ssakit_bytes(&["wasm", cmd, "-"], input);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{cmd} {input:?}: {err}");
            assert!(err.contains(msg), "{cmd}: {msg:?} in {err:?}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(o.stdout.is_empty());
        }
    }
}

#[test]
fn wasm_help_ends_with_the_exit_codes() {
    for cmd in [
        &["wasm", "--help"][..],
        &["wasm", "lift", "--help"],
        &["wasm", "stats", "--help"],
    ] {
        let help = ok(cmd, None);
        assert!(
            help.contains("Exit codes:\n  0  success\n"),
            "{cmd:?}: {help}"
        );
        assert!(help.contains("  3  internal error"), "{cmd:?}: {help}");
    }
}

/// `wasm opt --wat` prints the rewritten example as text (golden,
/// `BLESS=1`), the same module as the binary output: the text assembles
/// and lifts to what the binary lifts to.
#[test]
fn opt_wat_prints_the_golden_text_of_the_binary_output() {
    let text = ok(&["wasm", "opt", "--wat", "wasm_tour.wat"], None);
    golden("wasm_tour.opt.wat", &text);
    let o = ssakit_bytes(&["wasm", "opt", "wasm_tour.wat"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.starts_with(b"\0asm"));
    let from_binary = stdout(&ssakit_bytes(&["wasm", "lift", "-"], &o.stdout));
    let assembled = wat::parse_str(&text).unwrap();
    let from_text = stdout(&ssakit_bytes(&["wasm", "lift", "-"], &assembled));
    assert!(from_binary.contains("function"), "{from_binary}");
    assert_eq!(from_text, from_binary);
    // Text output may go to a terminal; `-o` writes it to a file too.
    let dir = std::env::temp_dir().join(format!("ssakit-wat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("out.wat");
    ok(
        &[
            "wasm",
            "opt",
            "--wat",
            "wasm_tour.wat",
            "-o",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `wasm opt --dump STEP` prints the result of one step of the emitter
/// per function instead of the module (goldens, `BLESS=1`): the
/// structured control flow, what stackify keeps on the stack, the locals.
/// An unknown step, or `--dump` with `--wat` or `--stats`, is a usage
/// error: exit 1, naming `--dump`.
#[test]
fn opt_dump_prints_each_step_of_the_emitter() {
    for step in ["structure", "stackify", "locals"] {
        let text = ok(&["wasm", "opt", "--dump", step, "wasm_tour.wat"], None);
        assert!(text.starts_with("function sum:\n"), "{step}: {text}");
        golden(&format!("wasm_tour.dump-{step}.txt"), &text);
    }
    for bad in [["bogus", "-O1"], ["locals", "--wat"], ["locals", "--stats"]] {
        let o = ssakit(
            &["wasm", "opt", "--dump", bad[0], bad[1], "wasm_tour.wat"],
            None,
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{bad:?}: {err}");
        assert!(err.contains("--dump"), "{bad:?}: {err}");
    }
}

/// `--conventional` after passes that leave SSA not conventional (copy
/// propagation makes the loop's old value and its increment one phi web
/// that interferes: the lost-copy problem) is refused as the options'
/// conflict, exit 1 with the function and a way out; without the passes
/// the same module goes through.
#[test]
fn opt_conventional_after_passes_that_break_it_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("ssakit-wasm-conv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wat = dir.join("lost_copy.wat");
    std::fs::write(
        &wat,
        "(module (func (export \"f\") (param i32) (result i32) (local i32 i32)\n\
         (loop\n\
           (local.set 2 (local.get 1))\n\
           (local.set 1 (i32.add (local.get 1) (i32.const 1)))\n\
           (br_if 0 (i32.lt_s (local.get 1) (local.get 0))))\n\
         (local.get 2)))\n",
    )
    .unwrap();
    let wat = wat.to_str().unwrap();
    let out = dir.join("out.wasm");
    let out = out.to_str().unwrap();
    let o = ssakit(
        &[
            "wasm",
            "opt",
            "--conventional",
            "--passes",
            "copy-prop",
            wat,
            "-o",
            out,
        ],
        None,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("in function 0"), "{err}");
    assert!(err.contains("SSA is not conventional"), "{err}");
    assert!(err.contains("drop --passes"), "{err}");
    assert!(!err.contains("internal error"), "{err}");
    assert!(
        !std::path::Path::new(out).exists(),
        "nothing written on error"
    );
    let o = ssakit(&["wasm", "opt", "--conventional", wat, "-o", out], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 32, defect 10: every wasm command reads standard input when FILE
/// is absent (as when it is `-`), and `wasm opt`'s usage shows neither
/// FILE nor `-o` as required.
#[test]
fn wasm_commands_read_standard_input_without_file() {
    let src = std::fs::read_to_string(common::example("wasm_tour.wat")).unwrap();
    for cmd in ["lift", "stats"] {
        let o = ssakit(&["wasm", cmd], Some(&src));
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        assert!(stdout(&o).contains("<stdin>") || cmd == "lift", "{cmd}");
    }
    assert_eq!(ok(&["wasm", "lift"], Some(&src)), GOLDEN);
    let o = ssakit(&["wasm", "opt", "--wat"], Some(&src));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        ok(&["wasm", "opt", "--wat", "wasm_tour.wat"], None)
    );
    for cmd in ["lift", "stats", "opt"] {
        let help = ok(&["wasm", cmd, "--help"], None);
        let usage = help.lines().find(|l| l.starts_with("Usage:")).unwrap();
        assert_eq!(usage, format!("Usage: ssakit wasm {cmd} [OPTIONS] [FILE]"));
    }
}

/// Issue 32, defect 11: an empty `.wasm` file, a `.wasm` file of text, and
/// input whose first bytes are a damaged magic number are binary errors at
/// byte offset 0, never text errors ("expected at least one module
/// field", "unexpected character '\u{0}'").
#[test]
fn damaged_binaries_are_binary_errors() {
    let dir = std::env::temp_dir().join(format!("ssakit-badmagic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("empty.wasm"), b"").unwrap();
    std::fs::write(dir.join("text.wasm"), b"(module)").unwrap();
    std::fs::write(dir.join("magic.WASM"), b"\0asn\x01\0\0\0").unwrap();
    let mut cases: Vec<(&str, &[u8], &str)> = vec![
        ("empty.wasm", b"", "empty file"),
        ("text.wasm", b"", "bad magic number"),
        ("magic.WASM", b"", "bad magic number"),
    ];
    for input in [
        &b"\0asn\x01\0\0\0"[..],
        b"\0\0\0\0",
        b"\0",
        b"\0\xff\xfe",
        b"\x7fELF\x02\x01",
    ] {
        cases.push(("-", input, "bad magic number"));
    }
    for cmd in ["lift", "stats", "opt"] {
        for (file, input, what) in &cases {
            let args: &[&str] = if cmd == "opt" {
                &["wasm", cmd, "--wat", file]
            } else {
                &["wasm", cmd, file]
            };
            let o = common::ssakit_in(&dir, args, input);
            let err = stderr(&o);
            let name = if *file == "-" { "<stdin>" } else { file };
            assert_eq!(o.status.code(), Some(1), "{cmd} {file} {input:?}: {err}");
            assert!(
                err.starts_with(&format!("error: {name}: byte offset 0x0: {what}")),
                "{cmd} {file} {input:?}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(o.stdout.is_empty());
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 32, defect 12: `--func` takes the module's own names as written
/// in its name section (`foo-bar`, `i32.add`, which `.ssa` names cannot
/// hold), its export names and import field names, beside the `.ssa`
/// names and indices; a missing one lists the names there are.
#[test]
fn func_takes_the_modules_own_names_and_exports() {
    let src = r#"(module
        (import "env" "log.it" (func $log.it (param i32)))
        (func $foo-bar (export "run") (result i32) i32.const 1)
        (func $i32.add (export "add") (export "plus") (param i32 i32) (result i32)
            local.get 0 local.get 1 i32.add))"#;
    let lift = |sel: &str| ssakit(&["wasm", "lift", "--func", sel, "-"], Some(src));
    let by_index = ok(&["wasm", "lift", "--func", "1", "-"], Some(src));
    for sel in ["foo-bar", "foo_bar", "run"] {
        let o = lift(sel);
        assert_eq!(o.status.code(), Some(0), "{sel}: {}", stderr(&o));
        assert_eq!(stdout(&o), by_index, "{sel}");
    }
    let add = ok(&["wasm", "lift", "--func", "2", "-"], Some(src));
    assert!(add.contains("function i32_add("), "{add}");
    for sel in ["i32.add", "i32_add", "add", "plus"] {
        let o = lift(sel);
        assert_eq!(o.status.code(), Some(0), "{sel}: {}", stderr(&o));
        assert_eq!(stdout(&o), add, "{sel}");
    }
    let o = lift("log.it");
    assert_eq!(
        stderr(&o),
        "error: <stdin>: function 0 (`log_it`) is imported: it has no body\n"
    );
    let o = lift("nosuch");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: <stdin>: no function `nosuch`; the module's functions, by name or index: \
         `log_it` (0), `foo_bar` (1), `i32_add` (2)\n"
    );
    // A long list is cut short.
    let many = format!("(module {})", "(func)".repeat(20));
    let o = ssakit(&["wasm", "lift", "--func", "x", "-"], Some(&many));
    let err = stderr(&o);
    assert!(
        err.ends_with("`f7` (7), and 12 more (`ssakit wasm lift` prints them all)\n"),
        "{err}"
    );
}

/// Issue 32, defect 5: `wasm stats` constructs only the chosen flavour
/// (pruned by default; minimal SSA is quadratic on ladders, 22 GB on a
/// 353 KB module): the others' phi counts and construction times are `-`
/// in the table and null in JSON, the same keys as with `--all-flavors`.
#[test]
fn stats_builds_only_the_chosen_flavor_unless_asked() {
    let json = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["wasm", "stats", "--format", "json"];
        all.extend_from_slice(args);
        all.push("wasm_tour.wat");
        serde_json::from_str(&ok(&all, None)).unwrap()
    };
    let phis = |v: &serde_json::Value| {
        ["minimal", "semi-pruned", "pruned"].map(|f| v["total"]["phis"][f].as_u64())
    };
    let times = |v: &serde_json::Value| {
        ["minimal", "semi-pruned", "pruned"]
            .map(|f| v["total"]["times"]["construct"][f].is_number())
    };
    let default = json(&[]);
    assert_eq!(phis(&default), [None, None, Some(4)]);
    assert_eq!(times(&default), [false, false, true]);
    assert_eq!(
        default["functions"][0]["phis"]["minimal"],
        serde_json::Value::Null
    );
    let minimal = json(&["--flavor", "minimal"]);
    assert_eq!(phis(&minimal), [Some(6), None, None]);
    let all = json(&["--all-flavors"]);
    assert_eq!(phis(&all)[0], Some(6));
    assert_eq!(phis(&all)[2], Some(4));
    assert_eq!(times(&all), [true; 3]);
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v["total"].as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(&default), keys(&all));
    let t = ok(&["wasm", "stats", "wasm_tour.wat"], None);
    for row in ["phis minimal", "phis semi-pruned", "time construct minimal"] {
        let line = t.lines().find(|l| l.starts_with(row)).unwrap();
        assert!(line.ends_with("  -"), "{line}");
    }
}

/// Issue 32, defect 9: a valid module with 60,000 call results on the
/// operand stack across an `if` needs 60,000 locals once each value
/// crossing the block gets one, more than engines accept. `wasm opt`
/// said "internal error: too many locals" (exit 3), then refused the
/// function (exit 1); it now keeps that function's body as it was and
/// writes the module (validated before it is written), so no valid input
/// fails. A thousand such values are rewritten.
#[test]
fn too_many_values_across_a_block_keeps_the_body() {
    let module = |n: usize| {
        let text = format!(
            "(module (func $f (result i32) i32.const 1)
               (func $g (export \"g\") (param i32) (result i32)
                 {} local.get 0 if nop end {}))",
            "call $f ".repeat(n),
            "i32.add ".repeat(n - 1)
        );
        wat::parse_str(text).unwrap()
    };
    let input = module(60_000);
    let o = ssakit_bytes(&["wasm", "opt", "-"], &input);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // `g`'s body kept byte for byte, and `f` emitted to the bytes it had.
    assert!(o.stdout == input, "{err}");
    let o = ssakit_bytes(&["wasm", "opt", "--wat", "-"], &module(1_000));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Issue 30, item 4: `wasm opt -O0` is the round trip only, `-O1` adds
/// dead code elimination (local 1, written and never read, goes) and is
/// the default; `-O2`, `-O3`, `-Os`, `-Oz` are `-O1`, as binaryen's users
/// type them; `-O` with `--passes`, or an unknown level, is a usage error.
#[test]
fn opt_levels_are_spelled_as_binaryen_spells_them() {
    let wat = "(module (func (export \"f\") (param i32) (result i32) (local i32)\n\
               (local.set 1 (i32.mul (local.get 0) (i32.const 3))) (local.get 0)))\n";
    let opt = |args: &[&str]| {
        let mut all = vec!["wasm", "opt"];
        all.extend_from_slice(args);
        all.push("-");
        let o = ssakit_bytes(&all, wat.as_bytes());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        o.stdout
    };
    let (o0, o1) = (opt(&["-O0"]), opt(&["-O1"]));
    assert!(o1.len() < o0.len(), "{} {}", o1.len(), o0.len());
    assert_eq!(opt(&[]), o1);
    assert_eq!(opt(&["--passes", "dce"]), o1);
    for level in ["-O2", "-O3", "-Os", "-Oz", "-O=1"] {
        assert_eq!(opt(&[level]), o1, "{level}");
    }
    for bad in [&["-O1", "--passes", "dce"][..], &["-O9"]] {
        let mut all = vec!["wasm", "opt"];
        all.extend_from_slice(bad);
        all.push("-");
        let o = ssakit_bytes(&all, wat.as_bytes());
        assert_eq!(o.status.code(), Some(1), "{bad:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

/// The function bodies of a binary module, in order.
fn bodies(wasm: &[u8]) -> Vec<Vec<u8>> {
    let m = ssakit_wasm::module::parse(wasm).unwrap();
    m.bodies
        .iter()
        .map(|b| b.body.as_bytes().to_vec())
        .collect()
}

/// Issue 46, item 11: `wasm opt --func` names functions (indices or
/// names, comma-separated, as `wasm lift --func`): `--dump` shows those
/// only (each once, in module order), and the output module has them
/// rewritten and every other body copied byte for byte; `--stats` says
/// how many were rewritten. A name missing, or an imported function, is
/// exit 1 as for `lift`.
#[test]
fn opt_func_rewrites_and_dumps_only_the_functions_named() {
    let dump = ok(&["wasm", "opt", "--dump", "locals", "wasm_tour.wat"], None);
    let parts: Vec<String> = dump
        .split("\n\n")
        .map(|p| format!("{}\n", p.trim_end()))
        .collect();
    assert_eq!(parts.len(), 3, "{dump}");
    for (sel, want) in [
        ("classify", parts[1].clone()),
        ("1", parts[1].clone()),
        ("pick,0,sum", format!("{}\n{}", parts[0], parts[2])),
    ] {
        let got = ok(
            &[
                "wasm",
                "opt",
                "--dump",
                "locals",
                "--func",
                sel,
                "wasm_tour.wat",
            ],
            None,
        );
        assert_eq!(got, want, "--func {sel}");
    }
    let input = wat::parse_file(common::example("wasm_tour.wat")).unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["wasm", "opt"];
        all.extend_from_slice(args);
        all.push("-");
        let o = ssakit_bytes(&all, &input);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        o
    };
    let (before, all) = (bodies(&input), bodies(&run(&[]).stdout));
    assert_ne!(all[0], before[0], "sum is rewritten by default");
    assert_ne!(all[2], before[2], "pick is rewritten by default");
    let o = run(&["--func", "sum,pick", "--stats"]);
    let some = bodies(&o.stdout);
    assert_eq!(some, [all[0].clone(), before[1].clone(), all[2].clone()]);
    assert!(
        stderr(&o).starts_with("<stdin>: 3 functions (2 rewritten, --func); "),
        "{}",
        stderr(&o)
    );
    // The same function twice is rewritten once.
    assert_eq!(
        run(&["--func", "0,sum"]).stdout,
        run(&["--func", "sum"]).stdout
    );
    let o = ssakit(
        &["wasm", "opt", "--func", "sum,nosuch", "wasm_tour.wat"],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .starts_with("error: wasm_tour.wat: no function `nosuch`; the module's functions"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
    let src = r#"(module (import "env" "f" (func)) (func call 0))"#;
    for cmd in ["lift", "opt"] {
        let o = ssakit(&["wasm", cmd, "--func", "1,0", "-"], Some(src));
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        assert_eq!(
            stderr(&o),
            "error: <stdin>: function 0 (`f`) is imported: it has no body\n"
        );
    }
    // `lift --func` takes several too, printed once each in module order.
    let lifted = ok(
        &["wasm", "lift", "--func", "pick,sum,0", "wasm_tour.wat"],
        None,
    );
    let heads: Vec<&str> = lifted
        .lines()
        .filter(|l| l.starts_with("function "))
        .collect();
    assert_eq!(
        heads,
        [
            "function sum(l0: i32) -> i32 {",
            "function pick(l0: i32, l1: i32) -> i64 {"
        ]
    );
}

/// Without coalescing, a function whose destruction would insert more
/// copies than `--max-copies` keeps its body as it was, and is named on
/// standard error whether or not `--stats` is given; under the limit it
/// is rewritten.
#[test]
fn opt_keeps_and_names_a_function_over_the_copy_limit() {
    let input = wat::parse_file(common::example("wasm_tour.wat")).unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["wasm", "opt", "--flavor", "minimal"];
        all.extend_from_slice(args);
        all.push("-");
        let o = ssakit_bytes(&all, &input);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        o
    };
    let before = bodies(&input);
    let o = run(&["--no-coalesce", "--max-copies", "0", "--stats"]);
    assert_eq!(
        bodies(&o.stdout),
        before,
        "every function with a phi is kept"
    );
    let err = stderr(&o);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert!(!warnings.is_empty(), "{err}");
    for w in &warnings {
        assert!(
            w.starts_with("warning: <stdin>: function ")
                && w.contains("copies (one per phi operand and one per phi), over the limit of 0; its body is kept as it was"),
            "{w}"
        );
    }
    let kept = format!(" ({} kept as they were); ", warnings.len());
    assert!(err.contains(&kept), "{err}");
    // Without --stats the warnings are still there.
    let o = run(&["--no-coalesce", "--max-copies", "0"]);
    assert_eq!(stderr(&o).lines().count(), warnings.len(), "{}", stderr(&o));
    // `--dump` says so of each function instead of showing a step.
    let o = run(&["--no-coalesce", "--max-copies", "0", "--dump", "locals"]);
    let dump = stdout(&o);
    assert_eq!(
        dump.matches("; kept as it was\n").count(),
        warnings.len(),
        "{dump}"
    );
    // Under the limit, or with coalescing (virtual copies), nothing is kept.
    for args in [&["--no-coalesce"][..], &["--max-copies", "0"][..]] {
        let o = run(args);
        assert!(stderr(&o).is_empty(), "{args:?}: {}", stderr(&o));
        assert_ne!(bodies(&o.stdout), before, "{args:?}");
    }
}
