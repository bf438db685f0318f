//! `ssakit x86 lift` and `ssakit x86 stats` on the committed fixture of
//! ssakit-x86 (`crates/ssakit-x86/tests/fixture/`): the lifted text of
//! every function and the pruned SSA of `classify` (golden, `BLESS=1`),
//! the text parsing back and going through `construct`, selection by name
//! and address, the figures as text and JSON, and bad input as exit 1 with
//! a located message.

mod common;

use common::{golden, ssakit_bytes, stderr, stdout};

fn fixture(name: &str) -> String {
    format!(
        "{}/../ssakit-x86/tests/fixture/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn ok(args: &[&str]) -> String {
    let o = ssakit_bytes(args, &[]);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn lift_prints_the_golden_text_which_parses_and_constructs() {
    // The golden text is the output before discovery existed: with
    // `--no-discover` it is the same, byte for byte.
    let text = ok(&["x86", "lift", "--no-discover", &fixture("fixture")]);
    golden("fixture.x86.lift.ssa", &text);
    let o = ssakit_bytes(&["construct", "--flavor", "pruned", "-"], text.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ssa = ok(&[
        "x86",
        "lift",
        &fixture("fixture-nopie"),
        "--func",
        "classify",
        "--construct",
        "--flavor",
        "pruned",
    ]);
    golden("fixture-nopie.x86.classify.pruned.ssa", &ssa);
    assert!(ssa.contains("switch sel"), "{ssa}");
}

#[test]
fn lift_selects_a_function_by_name_or_address() {
    let by_name = ok(&["x86", "lift", &fixture("fixture"), "--func", "maxl"]);
    let addr = by_name
        .lines()
        .find_map(|l| l.strip_prefix('b').and_then(|l| l.strip_suffix(':')))
        .expect(&by_name)
        .to_string();
    let by_addr = ok(&[
        "x86",
        "lift",
        &fixture("fixture"),
        "--func",
        &format!("0x{addr}"),
    ]);
    assert_eq!(by_name, by_addr);
    assert_eq!(by_name.matches("function ").count(), 1);
    // The same symbols again from a "debug file" change nothing.
    let with_symbols = ok(&[
        "x86",
        "lift",
        &fixture("fixture"),
        "--func",
        "maxl",
        "--symbols",
        &fixture("fixture"),
    ]);
    assert_eq!(with_symbols, by_name);
}

#[test]
fn stats_counts_phis_by_kind_in_text_and_json() {
    let text = ok(&["x86", "stats", &fixture("fixture")]);
    let row = |label: &str| {
        let line = text.lines().find(|l| l.starts_with(label)).expect(&text);
        line[label.len()..].trim().to_string()
    };
    assert_eq!(row("jump tables resolved"), "3"); // classify, pick, pick2
    assert_eq!(row("failures"), "0");
    assert!(text.contains(" flags, "), "{text}");
    let json = ok(&[
        "x86",
        "stats",
        &fixture("fixture"),
        "--format",
        "json",
        "--passes",
        "copy-prop,dce",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let functions = v["functions"].as_array().unwrap();
    assert!(functions.len() >= 12);
    for f in functions {
        assert!(f["address"].as_str().unwrap().starts_with("0x"), "{f}");
        assert!(
            f["name"].is_string() && f["blocks"].as_u64().unwrap() >= 1,
            "{f}"
        );
        assert!(f["instructions"].as_u64().is_some(), "{f}");
        for flavor in ["minimal", "semi-pruned", "pruned"] {
            for kind in ["registers", "flags", "vectors"] {
                assert!(
                    f["phis"][flavor][kind].as_u64().is_some(),
                    "{flavor} {kind}: {f}"
                );
            }
        }
    }
    let sum = functions.iter().find(|f| f["name"] == "sum").unwrap();
    assert!(
        sum["phis"]["minimal"]["flags"].as_u64().unwrap() > 0,
        "{sum}"
    );
    assert_eq!(sum["phis"]["pruned"]["flags"].as_u64(), Some(0), "{sum}");
    assert_eq!(v["passes"], serde_json::json!(["copy-prop", "dce"]));
}

#[test]
fn bad_input_is_exit_1_with_a_location() {
    let elf = std::fs::read(fixture("fixture")).unwrap();
    for (what, bytes, needle) in [
        (
            "truncated",
            elf[..elf.len() / 2].to_vec(),
            "byte offset 0x28: section header table",
        ),
        ("empty", Vec::new(), "byte offset 0x0: not an ELF file"),
        ("text", b"function f() {\n}\n".to_vec(), "not an ELF file"),
        (
            "32-bit",
            [&elf[..4], &[1u8][..], &elf[5..]].concat(),
            "byte offset 0x4: not a 64-bit ELF file",
        ),
    ] {
        for cmd in ["lift", "stats"] {
            let o = ssakit_bytes(&["x86", cmd, "-"], &bytes);
            assert_eq!(o.status.code(), Some(1), "{what} {cmd}: {}", stderr(&o));
            assert!(stderr(&o).contains(needle), "{what} {cmd}: {}", stderr(&o));
        }
    }
    let o = ssakit_bytes(&["x86", "lift", &fixture("fixture"), "--func", "nope"], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no function `nope`"), "{}", stderr(&o));
    let o = ssakit_bytes(&["x86", "lift", "/nonexistent/file"], &[]);
    assert_eq!(o.status.code(), Some(1));
}

/// Input that does not start with ELF's magic number is refused on its
/// first four bytes: an endless stream on standard input (FILE absent)
/// does not hang, and the fixture read from standard input lifts as from
/// its file.
#[test]
fn standard_input_is_read_and_an_endless_stream_refused_at_once() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_ssakit"))
        .args(["x86", "stats"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Writes until the reader stops reading (a broken pipe), bounded.
    let writer = std::thread::spawn(move || {
        let chunk = vec![0x55u8; 1 << 16];
        for _ in 0..(1 << 14) {
            if stdin.write_all(&chunk).is_err() {
                return true;
            }
        }
        false
    });
    let o = child.wait_with_output().unwrap();
    assert!(writer.join().unwrap(), "the reader went on reading 1 GiB");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("<stdin>: byte offset 0x0: not an ELF file")
            && stderr(&o).contains("55 55 55 55"),
        "{}",
        stderr(&o)
    );
    let elf = std::fs::read(fixture("fixture")).unwrap();
    let piped = ssakit_bytes(&["x86", "lift"], &elf);
    assert_eq!(piped.status.code(), Some(0));
    assert_eq!(stdout(&piped), ok(&["x86", "lift", &fixture("fixture")]));
}

/// `x86 lift --construct --format json`, what the emulator oracle reads
/// (tests/x86_emu.rs): `sum`'s loop header has the phis of `i` (`rax`)
/// and `s` (`rdx`), each operand named with its predecessor, and each
/// instruction its address, size and (register, value) pairs; `--func`
/// takes a comma-separated list.
#[test]
fn lift_json_names_every_read_and_write_with_its_address() {
    let text = ok(&[
        "x86",
        "lift",
        &fixture("fixture"),
        "--func",
        "sum,maxl",
        "--construct",
        "--flavor",
        "pruned",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect(&text);
    let fs = v["functions"].as_array().unwrap();
    assert_eq!((fs.len(), &v["ssa"]), (2, &"pruned".into()));
    let sum = &fs[0];
    assert_eq!(
        (&sum["name"], &sum["address"]),
        (&"sum".into(), &"0x1330".into())
    );
    let header = sum["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["label"] == "b1340")
        .expect(&text);
    assert_eq!(header["address"], "0x1340");
    let phis = serde_json::json!([
        { "register": "rax", "def": "rax2", "args": [["b1335", "rax1"], ["b1340", "rax3"]] },
        { "register": "rdx", "def": "rdx2", "args": [["b1335", "rdx1"], ["b1340", "rdx3"]] },
    ]);
    assert_eq!(header["phis"], phis);
    let first = &header["instructions"][0];
    assert_eq!(first["address"], "0x1340");
    assert_eq!(first["size"], 4);
    assert_eq!(
        first["reads"],
        serde_json::json!([["rax", "rax2"], ["rdi", "rdi"]])
    );
    assert_eq!(first["writes"], serde_json::json!([["rcx", "rcx1"]]));
    let term = &header["terminator"];
    assert_eq!(
        (&term["kind"], &term["address"]),
        (&"branch".into(), &"0x1352".into())
    );
    assert_eq!(term["successors"], serde_json::json!(["b1340", "b1354"]));
}

/// `x86 stats --only-flavor`: the pipeline (one SSA flavour,
/// verified, destructed); the other flavours are `-` in text and null in
/// JSON, the chosen one counted as without the flag.
#[test]
fn stats_only_flavor_constructs_one_flavour() {
    let all = ok(&["x86", "stats", &fixture("fixture")]);
    let one = ok(&["x86", "stats", &fixture("fixture"), "--only-flavor"]);
    let line = |text: &str, key: &str| {
        text.lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("no {key}: {text}"))
            .to_string()
    };
    assert_eq!(line(&one, "phis minimal"), "phis minimal                -");
    assert_eq!(line(&one, "phis pruned"), line(&all, "phis pruned"));
    assert_eq!(line(&one, "copies"), line(&all, "copies"));
    let json = ok(&[
        "x86",
        "stats",
        &fixture("fixture"),
        "--only-flavor",
        "--flavor",
        "minimal",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["total"]["phis"]["pruned"].is_null(), "{json}");
    assert!(v["total"]["phis"]["minimal"]["registers"].as_u64().unwrap() > 0);
    assert!(v["total"]["times"]["construct"]["semi-pruned"].is_null());
}

#[test]
fn stats_refuses_an_unknown_pass_before_reading_the_binary() {
    // The same clap value parser as every other `--passes` (passes.rs):
    // refused with its message and exit 1, even when the file is absent.
    for file in [fixture("fixture"), "no-such-binary".to_string()] {
        let o = ssakit_bytes(&["x86", "stats", "--passes", "dce,bogus", &file], &[]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert_eq!(
            stderr(&o),
            "error: --passes: unknown pass `bogus` (known passes: copy-prop, const-prop, fold, dce)\n"
        );
    }
}

/// `--semantics`: the fixture's integer instructions as operations of the
/// set (golden, `BLESS=1`), flags as `i32`; the text parses back and goes
/// through construction; only what the table does not cover stays an
/// `x86.` operation.
#[test]
fn lift_semantics_prints_the_operation_set() {
    let f = fixture("fixture");
    let text = ok(&["x86", "lift", "--no-discover", "--semantics", &f]);
    golden("fixture.x86.lift.semantics.ssa", &text);
    assert!(text.contains("cf: i32") && text.contains("i64.load[0, 0, 0]("));
    assert!(!text.contains("x86.add[") && !text.contains("x86.mov["));
    let o = ssakit_bytes(&["construct", "--flavor", "pruned", "-"], text.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plain = ok(&["x86", "lift", "--no-discover", &fixture("fixture")]);
    assert_ne!(plain, text);
}

/// The functions of a lifted module, by label: each `function` line to
/// its closing `}`.
fn lifted_functions(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("function ") {
            let label = rest.split(['(', ' ']).next().unwrap_or("").to_string();
            cur = Some((label, String::new()));
        }
        if let Some((_, body)) = &mut cur {
            body.push_str(line);
            body.push('\n');
            if line.starts_with('}') {
                out.push(cur.take().unwrap());
            }
        }
    }
    out
}

/// Discovery (on by default) adds the functions neither a symbol nor an
/// FDE gives (`_init`, `_fini` as entry points, `frame_dummy` through
/// `.init_array`, `register_tm_clones` as a call target); the functions
/// given are lifted as before, byte for byte, and `--no-discover` gives
/// the output of before (the golden text above). JSON says where each
/// function was found.
#[test]
fn discovery_adds_functions_and_no_discover_leaves_them_out() {
    for name in ["fixture", "fixture-stripped"] {
        let f = fixture(name);
        let given = lifted_functions(&ok(&["x86", "lift", "--no-discover", &f]));
        let all = lifted_functions(&ok(&["x86", "lift", &f]));
        assert!(all.len() > given.len(), "{name}: {} functions", all.len());
        for g in &given {
            assert!(all.contains(g), "{name}: `{}` changed", g.0);
        }
        for (label, _) in all.iter().filter(|a| !given.contains(a)) {
            assert!(label.starts_with("sub_"), "{name}: {label}");
        }
    }
    let f = fixture("fixture-stripped");
    let text = ok(&["x86", "stats", &f]);
    let row = text.lines().find(|l| l.starts_with("functions by origin"));
    assert!(row.expect(&text).contains("fde 15, entry 2"), "{text}");
    let json = ok(&["x86", "stats", &f, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let found = &v["functions_found"];
    assert_eq!(found["fde"].as_u64(), Some(15), "{found}");
    assert!(found["call"].as_u64().unwrap() >= 1, "{found}");
    assert!(found["pointer"].as_u64().unwrap() >= 1, "{found}");
    assert_eq!(found["budget_exhausted"], false);
    let functions = v["functions"].as_array().unwrap();
    let origins = ["fde", "entry", "call", "pointer", "gap"];
    for g in functions {
        assert!(origins.contains(&g["found"].as_str().unwrap()), "{g}");
    }
    assert_eq!(v["outside_functions"]["bytes"].as_u64(), Some(0), "{json}");
    let plain = ok(&["x86", "stats", &f, "--no-discover"]);
    assert!(!plain.contains("functions by origin"), "{plain}");
    let json = ok(&["x86", "stats", &f, "--format", "json", "--no-discover"]);
    assert!(!json.contains("\"found\""), "{json}");
    assert!(!json.contains("functions_found"), "{json}");
}

/// `x86 stats --semantics` counts the operations left opaque, by
/// mnemonic; without it the report has no such row.
#[test]
fn stats_semantics_counts_the_opaque_operations() {
    // The figures of the functions the symbols give.
    let f = fixture("fixture");
    let text = ok(&["x86", "stats", "--no-discover", "--semantics", &f]);
    let row = text
        .lines()
        .find(|l| l.starts_with("opaque operations"))
        .expect(&text);
    assert!(row.contains("18 (7.8% of the instructions)"), "{row}");
    assert!(
        text.contains("opaque, most frequent       movsd 4, jmp 3, pxor 3"),
        "{text}"
    );
    // Without the instructions of vector or x87 registers: the jump
    // tables' selectors and `hlt`.
    assert!(
        text.contains("opaque, no vector/x87       4 (1.83% of 218 instructions)")
            && text.contains("no vector/x87, top 12       jmp 3, hlt 1"),
        "{text}"
    );
    let plain = ok(&["x86", "stats", &fixture("fixture")]);
    assert!(!plain.contains("opaque"), "{plain}");
}

/// `x86 stats --semantics --passes`: each flavour before and after the
/// passes, the flag definitions dce leaves (text and JSON), and the
/// opaque operations in full in JSON.
#[test]
fn stats_semantics_reports_what_the_passes_remove() {
    let passes = "copy-prop,const-prop,dce";
    let f = fixture("fixture");
    let text = ok(&[
        "x86",
        "stats",
        "--no-discover",
        "--semantics",
        "--passes",
        passes,
        &f,
    ]);
    assert!(
        text.contains("passes pruned               operations 781 -> 375, phis 11 -> 11, flag defs 135 -> 14 (10.4% kept; 4.4% of the meaning's 317)"),
        "{text}"
    );
    let args = [
        "x86",
        "stats",
        "--no-discover",
        "--semantics",
        "--only-flavor",
        "--passes",
        passes,
    ];
    let json = ok(&[&args[..], &["--format", "json", &f]].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let t = &v["total"];
    assert_eq!(t["passes"]["pruned"]["after"]["flag_defs"], 14, "{t}");
    assert_eq!(t["passes"]["pruned"]["before"]["flag_defs"], 135, "{t}");
    assert_eq!(t["meaning_flag_defs"], 317, "{t}");
    assert!(t["passes"]["minimal"].is_null(), "{t}");
    assert_eq!(t["opaque"]["no_vector"]["jmp"], 3, "{t}");
    assert_eq!(t["opaque"]["all"]["movsd"], 4, "{t}");
    let plain = ok(&["x86", "stats", "--passes", passes, "--format", "json", &f]);
    let v: serde_json::Value = serde_json::from_str(&plain).unwrap();
    let t = v["total"].as_object().unwrap();
    assert!(
        !t.contains_key("opaque") && !t.contains_key("passes"),
        "{plain}"
    );
}

/// Issue 46, item 4: `--func` with a name two functions have is refused,
/// listing both labels; each label picks one; a function named twice is
/// lifted once; an address inside a function names that function.
#[test]
fn func_refuses_an_ambiguous_name_and_lifts_each_function_once() {
    let round4 = fixture("round4");
    let o = ssakit_bytes(&["x86", "lift", &round4, "--func", "helper"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`helper` names 2 functions: `helper` at 0x1220, `helper.2` at 0x1240"),
        "{}",
        stderr(&o)
    );
    let text = ok(&["x86", "lift", &round4, "--func", "helper.2,second"]);
    assert!(text.contains("function helper.2(") && text.contains("= helper.2.call("));
    let twice = ok(&["x86", "lift", &round4, "--func", "first,0x1230,first"]);
    assert_eq!(
        twice.matches("\nfunction ").count() + twice.starts_with("function ") as usize,
        1
    );
    let o = ssakit_bytes(&["x86", "lift", &round4, "--func", "0x1243"], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .contains("no function starts at 0x1243: it is inside `helper.2` (0x1240..0x1245)"),
        "{}",
        stderr(&o)
    );
    // The whole binary's text parses back (two `helper`s, no duplicate).
    let all = ok(&["x86", "lift", &round4]);
    let o = ssakit_bytes(&["construct", "-"], all.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Issue 46, items 5–7 and 9: what used to pass silently or with an
/// unlocated message is refused with exit 1 and a message saying why.
#[test]
fn refusals_of_round_4_say_why() {
    let o = ssakit_bytes(
        &["x86", "lift", &fixture("round4"), "--flavor", "pruned"],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("--construct"), "{}", stderr(&o));
    let mut headless = std::fs::read(fixture("round4")).unwrap();
    headless[0x3c..0x3e].fill(0);
    let (object, badlink) = (fixture("round4-other.o"), fixture("round4-badlink"));
    let (stripped, other_build) = (fixture("round4-stripped"), fixture("round4-O1"));
    for cmd in ["lift", "stats"] {
        let cases: [(Vec<&str>, &[u8], &str); 4] = [
            (
                vec![&object],
                &[],
                "byte offset 0x10: a relocatable object (ET_REL",
            ),
            (vec![&badlink], &[], "sh_link should be a string table"),
            (
                vec![&stripped, "--symbols", &other_build],
                &[],
                "round4-O1: byte offset 0x368: the debug file's build-id",
            ),
            (
                vec!["-"],
                &headless,
                "no function found: the file has no section headers",
            ),
        ];
        for (args, input, needle) in cases {
            let mut all = vec!["x86", cmd];
            all.extend(args);
            let o = ssakit_bytes(&all, input);
            assert_eq!(o.status.code(), Some(1), "{all:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(needle), "{all:?}: {}", stderr(&o));
            assert!(!stderr(&o).contains("byte offset 0x0:"), "{}", stderr(&o));
        }
    }
    let o = ssakit_bytes(
        &[
            "x86",
            "stats",
            &fixture("round4-stripped"),
            "--symbols",
            &fixture("round4"),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Issue 46, item 10: the JSON document is written a batch of functions
/// at a time; it is still one compact document, its functions in the
/// order of the text.
#[test]
fn lift_json_streamed_is_one_compact_document() {
    let text = ok(&[
        "x86",
        "lift",
        &fixture("fixture"),
        "--construct",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&v).unwrap() + "\n", text);
    let labels: Vec<&str> = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["label"].as_str().unwrap())
        .collect();
    let printed = ok(&["x86", "lift", &fixture("fixture")]);
    let names: Vec<&str> = printed
        .lines()
        .filter_map(|l| l.strip_prefix("function "))
        .map(|l| &l[..l.find('(').unwrap()])
        .collect();
    assert_eq!(labels, names);
}

/// `--stack` (issue 41): it requires `--semantics` (exit 1, a usage
/// error); `x86 lift` prints slot variables, `x86 stats` the frame's rows
/// and, in JSON, each function's `stack` and the slots' phis; without it
/// the JSON has neither.
#[test]
fn stack_promotes_slots_and_reports_them() {
    let o = ssakit_bytes(&["x86", "stats", "--stack", &fixture("fixture")], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("--semantics"), "{}", stderr(&o));
    let text = ok(&[
        "x86",
        "lift",
        "--semantics",
        "--stack",
        "--func",
        "main",
        &fixture("fixture"),
    ]);
    assert!(text.contains("    s8 = r14\n"), "{text}");
    let stats = ok(&[
        "x86",
        "stats",
        "--semantics",
        "--stack",
        &fixture("fixture"),
    ]);
    for row in [
        "rsp offset kept",
        "stack accesses promoted",
        "stack accesses left",
        "stack slots)",
    ] {
        assert!(stats.contains(row), "{row}: {stats}");
    }
    let json = ok(&[
        "x86",
        "stats",
        "--semantics",
        "--stack",
        "--format",
        "json",
        &fixture("fixture"),
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let main = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "main")
        .unwrap();
    assert!(main["stack"]["promoted"].as_u64().unwrap() > 0, "{main}");
    assert!(main["phis"]["pruned"]["slots"].is_u64(), "{main}");
    let start = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "_start")
        .unwrap();
    assert_eq!(start["stack"]["lost_reason"], "realigned", "{start}");
    let plain = ok(&[
        "x86",
        "stats",
        "--semantics",
        "--format",
        "json",
        &fixture("fixture"),
    ]);
    assert!(!plain.contains("\"stack\"") && !plain.contains("\"slots\""));
}
