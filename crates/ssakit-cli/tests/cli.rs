//! The `ssakit` binary end to end: exact outputs, exit codes, error
//! locations, standard input.

mod common;

use common::{ok, ssakit, ssakit_bytes, stderr, stdout, EVERY_COMMAND};

#[test]
fn run_prints_what_the_examples_promise() {
    assert_eq!(ok(&["run", "seed.ssa", "1", "1"], None), "=> 65\n");
    assert_eq!(ok(&["run", "seed.ssa", "0", "1"], None), "=> undef\n");
    assert_eq!(ok(&["run", "lost_copy.ssa", "5"], None), "=> 4\n");
    assert_eq!(ok(&["run", "swap.ssa", "3"], None), "1 2\n2 1\n1 2\n=> 1\n");
    assert_eq!(ok(&["run", "pcopy.ssa", "3"], None), "20 10\n=> 3\n");
    assert_eq!(
        ok(&["run", "sum.ssa", "4"], None),
        "1 0\n2 1\n3 3\n4 6\n36 665\n=> 6\n"
    );
    assert_eq!(
        ok(&["run", "--trace-calls", "sum.ssa", "4"], None)
            .lines()
            .next(),
        Some("call mix(36, 4) = 665")
    );
    let o = ssakit(&["run", "--profile", "sum.ssa", "4"], None);
    assert_eq!(stderr(&o), "total_dyn_inst: 35\n");
}

/// Issue 32, defect 1: what a program printed before a runtime error or
/// the fuel limit is written out, then the error (exit 2), as the program
/// compiled to wasm under node does; `--trace-calls` keeps its order.
#[test]
fn run_keeps_the_output_printed_before_an_error() {
    let src = "function main(a) {\ne:\n    print 1\n    x = 1 / a\n    print x\n    ret x\n}\n";
    let o = ssakit(&["run", "-", "0"], Some(src));
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(2), "1\n"));
    assert!(stderr(&o).contains("division by zero"), "{}", stderr(&o));
    let looping = "function main() {\ne:\n    print 7\n    jump e\n}\n";
    let o = ssakit(&["run", "--fuel", "20", "-"], Some(looping));
    assert_eq!((o.status.code(), stdout(&o)), (Some(2), "7\n".repeat(10)));
    assert!(stderr(&o).contains("out of fuel"), "{}", stderr(&o));
    let calls =
        "function main(a) {\ne:\n    c = ext(a)\n    print c\n    x = 1 / a\n    ret x\n}\n";
    let o = ssakit(&["run", "--trace-calls", "-", "0"], Some(calls));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "call ext(0) = 268\n268\n");
}

/// Lifted code runs with `--uninterpreted` (issue 29, item 6): each
/// operation a fixed hash of its inputs, the effects traced; without the
/// flag it is refused with a hint.
#[test]
fn run_uninterpreted_hashes_operations_and_traces_effects() {
    let src = "operator i32.add pure\noperator i32.store trap write\n\n\
               function main(a: i32) -> i32 {\ne:\n    x: i32 = i32.add(a, 1)\n    \
               i32.store[0, 2](a, x)\n    print x\n    ret x\n}\n";
    // With their meaning, the store traps: `ssakit run` has no memory.
    let o = ssakit(&["run", "-", "5"], Some(src));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "runtime error in function main, block e, instruction 1: \
         i32.store trapped: out of bounds memory access\n"
    );
    let out = ok(
        &["run", "--uninterpreted", "--trace-calls", "-", "5"],
        Some(src),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let x = lines[1];
    assert_eq!(lines[0], format!("op i32.store[0, 2](5, {x})"));
    assert_eq!(lines[2], format!("=> {x}"));
    assert_eq!(
        out,
        ok(
            &["run", "--uninterpreted", "--trace-calls", "-", "5"],
            Some(src)
        )
    );
}

/// `--memory PAGES` gives the program a linear memory; floats are given
/// and shown as numbers, an `i32` as a signed 32-bit integer.
#[test]
fn run_with_memory_floats_and_i32() {
    let src = "operator f64.sqrt pure\noperator i32.store trap write\n\
               operator i32.load trap read\n\n\
               function main(x: f64, p: i32) -> (f64, i32) {\ne:\n    \
               y: f64 = f64.sqrt(x)\n    i32.store[0, 2](p, -5)\n    \
               w: i32 = i32.load[0, 2](p)\n    ret y, w\n}\n";
    assert_eq!(
        ok(&["run", "--memory", "1", "-", "2.25", "8"], Some(src)),
        "=> 1.5 -5\n"
    );
    let o = ssakit(&["run", "--memory", "1", "-", "2.25", "65533"], Some(src));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("i32.store trapped: out of bounds memory access"));
    let o = ssakit(&["run", "--memory", "1", "-", "two", "8"], Some(src));
    assert_eq!(
        (o.status.code(), stderr(&o)),
        (Some(1), "error: argument `two`: expected a number\n".into())
    );
    let o = ssakit(&["run", "--memory", "1", "-", "2", "4294967296"], Some(src));
    assert!(
        stderr(&o).contains("expected a 32-bit integer"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_errors_exit_2_with_a_location() {
    let src = "function main(a) {\ne:\n    x = 1 / a\n    ret x\n}\n";
    let o = ssakit(&["run", "-", "0"], Some(src));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "runtime error in function main, block e, instruction 0: division by zero\n"
    );
    let o = ssakit(
        &["run", "--fuel", "100", "-"],
        Some("function main() {\ne:\n    jump e\n}\n"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("fuel"), "{}", stderr(&o));
    let o = ssakit(&["run", "seed.ssa", "1"], None);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: function `main` takes 2 argument(s), 1 given\n"
    );
}

#[test]
fn an_entry_the_module_lacks_is_an_input_error() {
    for cmd in [
        &["run", "--entry", "nosuch", "seed.ssa", "1", "1"][..],
        &["analyze", "--df", "--entry", "nosuch", "seed.ssa"],
        &["reduce", "--entry", "nosuch", "seed.ssa"],
        &["construct", "--trace", "x", "--entry", "nosuch", "seed.ssa"],
    ] {
        let o = ssakit(cmd, None);
        assert_eq!(o.status.code(), Some(1), "{cmd:?}");
        assert_eq!(stderr(&o), "error: no function named `nosuch`\n", "{cmd:?}");
        assert!(o.stdout.is_empty(), "{cmd:?}");
    }
}

#[test]
fn parse_errors_name_file_line_and_column() {
    let o = ssakit(
        &["fmt", "-"],
        Some("function f() {\ne:\n    jump nowhere\n}\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("error: <stdin>:3:10: unknown label `nowhere`\n"),
        "{e}"
    );
    let o = ssakit(&["fmt", "no-such-file.ssa"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("error: cannot read no-such-file.ssa"));
}

#[test]
fn non_utf8_input_is_an_error_with_its_offset() {
    let o = ssakit_bytes(&["fmt", "-"], b"function f() {\ne:\n  \xff\n}\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: <stdin>:3:3: invalid UTF-8 at byte offset 20\n"
    );
}

#[test]
fn construct_check_and_run_through_pipes() {
    let ssa = ok(&["construct", "seed.ssa"], None);
    assert!(ssa.contains("x4 = phi(B: x2, C: x3)"));
    let report = ok(&["check", "-"], Some(&ssa));
    assert!(
        report.contains("minimal: yes") && report.contains("conventional: yes"),
        "{report}"
    );
    assert_eq!(ok(&["run", "-", "1", "1"], Some(&ssa)), "=> 65\n");
    let traced = ok(&["construct", "--trace", "x", "seed.ssa"], None);
    assert!(
        traced.starts_with("# Phi insertion for x: Defs(x) = {B, C, D}\n"),
        "{traced}"
    );
    // The trace is made of comments: the output still parses and runs.
    assert_eq!(ok(&["run", "-", "1", "1"], Some(&traced)), "=> 65\n");
    let o = ssakit(
        &[
            "construct",
            "--time-passes",
            "--flavor",
            "pruned",
            "--idf",
            "worklist",
            "seed.ssa",
        ],
        None,
    );
    assert_eq!(
        stdout(&o),
        ok(&["construct", "--flavor", "pruned", "seed.ssa"], None)
    );
    let times = stderr(&o);
    for phase in [
        "dominators",
        "frontiers",
        "liveness",
        "phi insertion",
        "renaming",
        "verification",
        "total",
    ] {
        assert!(
            times.lines().any(|l| l.starts_with(&format!("{phase}: "))),
            "no {phase} in {times}"
        );
    }
}

#[test]
fn check_rejects_invalid_ssa_with_a_location() {
    let o = ssakit(
        &["check", "-"],
        Some("function f(a) {\ne:\n    x = 1\n    x = 2\n    ret x\n}\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: <stdin>:4:5: `x` is assigned more than once"),
        "{}",
        stderr(&o)
    );
}

/// An ill-typed program (`i32.add` reading an `i64` variable, defined in a
/// branch) is the input's fault for every command that takes a program
/// before construction: exit 1 at its line, not the internal error
/// (exit 3) construction's output check used to give, nor a run on
/// values of the wrong width, nor a mismatch (exit 4) of `reduce`.
#[test]
fn ill_typed_input_is_an_input_error_with_its_line() {
    let src = "operator i32.add pure\nfunction main(n) {\nentry:\n    c = n < 3\n    branch c, a, j\na:\n    n = 5\n    jump j\nj:\n    x: i32 = i32.add(n, n)\n    ret x\n}\n";
    for args in [
        &["construct", "-"][..],
        &["construct", "--trace", "n", "-"],
        &["run", "-", "1"],
        &["reduce", "-"],
    ] {
        let o = ssakit(args, Some(src));
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with("error: <stdin>:10:5: `i32.add` operand 1 is a `i64`, not i32"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// Issue 16, defect 7: `check` on 20,000 small invalid functions reports
/// each error at its line, in time linear in the input: each report
/// searched the functions by name and counted the lines from the start
/// (15 s of a debug build's CPU before, 0.1 s after; not timed here).
#[test]
fn check_reports_20000_invalid_functions_each_at_its_line() {
    let n = 20_000;
    let src: String = (0..n)
        .map(|k| format!("function g{k}(n) {{\ne:\n    x = 1\n    x = 2\n    ret x\n}}\n"))
        .collect();
    let o = ssakit(&["check", "-"], Some(&src));
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    let located: Vec<&str> = e.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(located.len(), n);
    for (k, l) in located.iter().enumerate() {
        let want = format!(
            "error: <stdin>:{}:5: `x` is assigned more than once",
            6 * k + 4
        );
        assert_eq!(*l, want);
    }
}

#[test]
fn construct_refuses_ssa_input() {
    let o = ssakit(&["construct", "swap.ssa"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: swap.ssa:13:5: this program already has phis"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn analyze_shows_the_chapters_frontiers() {
    let out = ok(&["analyze", "--df", "--idf", "x", "seed.ssa"], None);
    for line in [
        "DF(B) = {D}",
        "DF(C) = {D, E}",
        "DF(D) = {A, E}",
        "DF+(Defs(x)) = {A, D, E}",
    ] {
        assert!(out.lines().any(|l| l == line), "missing {line} in\n{out}");
    }
    let o = ssakit(&["analyze", "seed.ssa"], None);
    assert_eq!(
        o.status.code(),
        Some(1),
        "a call with no analysis is a usage error"
    );
}

/// The subcommands `ssakit --help` lists (without `help`).
fn subcommands() -> Vec<String> {
    let help = ok(&["--help"], None);
    let list = help
        .split("Commands:\n")
        .nth(1)
        .expect("a list of commands");
    let names: Vec<String> = list
        .lines()
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&n| n != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 10, "{help}");
    names
}

#[test]
fn every_help_lists_the_exit_codes_on_standard_output() {
    let mut calls = vec![vec!["--help".to_string()]];
    for c in subcommands() {
        calls.push(vec![c.clone(), "--help".into()]);
        calls.push(vec!["help".into(), c]);
    }
    for call in calls {
        let args: Vec<&str> = call.iter().map(String::as_str).collect();
        let o = ssakit(&args, None);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(o.stderr.is_empty(), "{args:?}: {}", stderr(&o));
        let help = stdout(&o);
        for line in [
            "Exit codes:",
            "  0  success",
            "  1  bad input or arguments",
            "  2  runtime error of `run`",
            "  3  internal error",
            "  4  `reduce` found a mismatch",
        ] {
            assert!(help.contains(line), "{args:?}: no {line:?} in\n{help}");
        }
    }
    let o = ssakit(&["--version"], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("ssakit "), "{}", stdout(&o));
}

/// A module of `n` generated functions `f0 .. f{n-1}`, every shape.
fn generated_module(n: usize) -> ssakit::ir::Module {
    use ssakit::gen::{generate, GenOptions, Shape};
    let functions = (0..n)
        .map(|k| {
            let mut f = generate(&GenOptions {
                shape: Shape::ALL[k % Shape::ALL.len()],
                blocks: 40 + 7 * k,
                vars: 5,
                seed: k as u64,
            });
            f.set_name(&format!("f{k}"));
            f
        })
        .collect();
    ssakit::ir::Module { functions }
}

#[test]
fn functions_done_in_parallel_come_out_in_module_order() {
    // The CLI works on the functions of a module in parallel (rayon) and
    // prints them in parallel: the output must be the library's, function
    // by function, in module order.
    use ssakit::text::print_module;
    let mut m = generated_module(24);
    let src = print_module(&m);
    let pruned = ssakit::construct::Options {
        flavor: ssakit::construct::Flavor::Pruned,
        ..Default::default()
    };
    for f in &mut m.functions {
        ssakit::construct::construct(f, &pruned).unwrap();
    }
    let ssa = ok(&["construct", "--flavor", "pruned", "-"], Some(&src));
    assert_eq!(ssa, print_module(&m));

    let mut o = m.clone();
    let passes = ssakit::opt::Pass::parse("copy-prop,const-prop,dce").unwrap();
    for f in &mut o.functions {
        ssakit::opt::run_passes(f, &passes).unwrap();
    }
    let out = ok(
        &["opt", "--passes", "copy-prop,const-prop,dce", "-"],
        Some(&ssa),
    );
    assert_eq!(out, print_module(&o));

    for f in &mut m.functions {
        ssakit::destruct::destruct(f, &Default::default()).unwrap();
    }
    let out = ok(&["destruct", "-"], Some(&ssa));
    assert_eq!(out, print_module(&m));
}

#[test]
fn the_first_failing_function_in_module_order_is_reported() {
    // Functions 9 and 17 are already in SSA form (construct refuses them):
    // whichever thread finishes first, the report is about `f9`, at its
    // line in the input.
    let mut m = generated_module(24);
    let ssa_fn =
        "function f{K}(a) {\nentry:\n    jump b\nb:\n    x = phi(entry: a)\n    ret x\n}\n";
    let mut src = String::new();
    for (k, f) in m.functions.iter_mut().enumerate() {
        if k == 9 || k == 17 {
            src.push_str(&ssa_fn.replace("{K}", &k.to_string()));
        } else {
            src.push_str(&ssakit::text::print_function(f));
        }
        src.push('\n');
    }
    let line = 1 + src[..src.find("function f9(").unwrap()]
        .matches('\n')
        .count();
    let o = ssakit(&["construct", "-"], Some(&src));
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let first = err.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "error: <stdin>:{}:5: this program already has phis: \
             construction expects a program not in SSA form",
            line + 4
        ),
        "{err}"
    );
    assert!(!err.contains("f17"), "{err}");
}

/// A fresh empty directory for one test's files.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ssakit-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names of the files in `dir`.
fn files(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn dash_o_writes_to_file_what_every_command_prints() {
    let dir = scratch("dash-o");
    for &args in EVERY_COMMAND {
        let printed = ssakit(args, None);
        let path = dir.join("out.txt");
        std::fs::write(&path, "an older file, replaced\n").unwrap();
        let mut call = args.to_vec();
        call.extend(["-o", path.to_str().unwrap()]);
        let o = ssakit(&call, None);
        assert_eq!(o.status.code(), printed.status.code(), "{call:?}");
        assert!(o.stdout.is_empty(), "{call:?}");
        assert_eq!(std::fs::read(&path).unwrap(), printed.stdout, "{call:?}");
        assert_eq!(files(&dir), ["out.txt"], "{call:?}: a file left behind");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dash_o_leaves_the_file_as_it_was_when_the_command_fails() {
    let dir = scratch("dash-o-fails");
    let path = dir.join("out.ssa");
    let p = path.to_str().unwrap();
    for call in [
        &["construct", "swap.ssa", "-o", p][..],
        &["run", "-o", p, "seed.ssa", "1"],
        &["fmt", "no-such-file.ssa", "-o", p],
        &["opt", "--passes", "dce", "-o", p, "seed.ssa"],
    ] {
        std::fs::write(&path, "keep\n").unwrap();
        let o = ssakit(call, None);
        assert_eq!(o.status.code(), Some(1), "{call:?}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "keep\n",
            "{call:?}"
        );
        assert_eq!(files(&dir), ["out.ssa"], "{call:?}: a file left behind");
    }
    // In place: the input is read before the output replaces it.
    let seed = dir.join("seed.ssa");
    std::fs::copy(common::example("seed.ssa"), &seed).unwrap();
    let s = seed.to_str().unwrap();
    ok(&["fmt", s, "-o", s], None);
    assert_eq!(
        std::fs::read_to_string(&seed).unwrap(),
        ok(&["fmt", "seed.ssa"], None)
    );
    // A directory is no FILE.
    let o = ssakit(&["gen", "-o", dir.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("it is a directory"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reduce_refuses_ssa_input_as_construct_does() {
    // It reported a mismatch of the first construction ("found a bug",
    // exit 4) and a "minimal failing program".
    let o = ssakit(&["reduce", "lost_copy.ssa"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "{}", stdout(&o));
    let err = stderr(&o);
    let first = err.lines().next().unwrap();
    assert_eq!(
        first,
        "error: lost_copy.ssa:12:5: this program already has phis: \
         construction expects a program not in SSA form"
    );
    let c = ssakit(&["construct", "lost_copy.ssa"], None);
    assert_eq!(stderr(&c).lines().next(), Some(first));
}

#[test]
fn reduce_fails_when_nothing_was_compared() {
    // It said "no mismatch: 270 transformed programs, 0 runs compared".
    let forever = "function main(a) {\ne:\n    jump e\n}\n";
    let o = ssakit(&["reduce", "-"], Some(forever));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("note: not compared on [0], where the original fails: ")
            && err.contains("out of fuel after 100000 steps"),
        "{err}"
    );
    assert!(err.contains("error: nothing compared"), "{err}");
    // Vectors on which the original fails are named; the others compared.
    let div = "function main(a) {\ne:\n    x = 10 / a\n    print x\n    ret x\n}\n";
    let o = ssakit(&["reduce", "-"], Some(div));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "note: not compared on [0], where the original fails: runtime error in \
         function main, block e, instruction 0: division by zero\n"
    );
    assert_eq!(
        stdout(&o),
        "no mismatch: 324 transformed programs, 648 runs compared\n"
    );
    // (270 programs: 9 constructions x 6 pass lists x (1 + 4 destruction
    // modes); 54 more by `destruct --conventional` of the conventional SSA,
    // here all of it.)
    // More fuel, and a program without parameters is run once, not thrice.
    let o = ssakit(&["reduce", "--fuel", "200000", "sum.ssa"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lasts = "function main() {\ne:\n    print 1\n    ret\n}\n";
    assert_eq!(
        ok(&["reduce", "-"], Some(lasts)),
        "no mismatch: 324 transformed programs, 324 runs compared\n"
    );
}

/// `gen --shape SHAPE --blocks n --vars 2`.
fn generated(shape: ssakit::gen::Shape, n: usize) -> String {
    let f = ssakit::gen::generate(&ssakit::gen::GenOptions {
        shape,
        blocks: n,
        vars: 2,
        seed: 1,
    });
    ssakit::text::print_module(&ssakit::ir::Module { functions: vec![f] })
}

/// `gen --shape chain --blocks n`: a straight line, its dominator tree a
/// path of depth `n - 1`.
fn chain(n: usize) -> String {
    generated(ssakit::gen::Shape::Chain, n)
}

#[test]
fn analyze_prints_deep_trees_in_linear_size() {
    // 40,000 levels: `{:indent$}` panicked past a width of 65,535, and the
    // output grew with the square of the depth.
    let n = 40_000;
    let src = chain(n);
    for flag in ["--dom", "--dj", "--df", "--live"] {
        let o = ssakit(&["analyze", flag, "-"], Some(&src));
        assert_eq!(o.status.code(), Some(0), "{flag}: {}", stderr(&o));
        assert!(
            o.stdout.len() < 100 * n,
            "{flag}: {} bytes for {n} blocks",
            o.stdout.len()
        );
    }
    let out = ok(&["analyze", "--dom", "-"], Some(&src));
    let tree: Vec<&str> = out.split("\n\n").nth(1).unwrap().lines().collect();
    assert_eq!(tree.len(), n);
    // Today's look down to depth 32, then the depth in brackets.
    assert_eq!(tree[0], "entry");
    assert_eq!(tree[1], "  b1");
    assert_eq!(tree[32], format!("{}b32", "  ".repeat(32)));
    assert_eq!(tree[33], format!("{}[33] b33", "  ".repeat(32)));
    assert_eq!(tree[n - 1], format!("{}[{}] exit", "  ".repeat(32), n - 1));
}

#[test]
fn construct_trace_is_linear_in_the_function() {
    // Rows were padded to the widest cell and carried F, W and DF(X) in
    // full: a 2,000-block ladder printed 34.6 MB (17 KB a block), a
    // 4,000-block switch 636 MB (its phi once per case).
    use ssakit::gen::Shape;
    for shape in [Shape::Ladder, Shape::Switchy] {
        let mut sizes = Vec::new();
        for n in [2_000, 8_000] {
            let out = ok(
                &["construct", "--trace", "v0", "-"],
                Some(&generated(shape, n)),
            );
            let trace: Vec<&str> = out.lines().take_while(|l| l.starts_with('#')).collect();
            let bytes: usize = trace.iter().map(|l| l.len() + 1).sum();
            assert!(bytes < 1_500 * n, "{shape} {n}: {bytes} bytes");
            // The header lines list blocks in full; table rows are capped.
            let widest = trace
                .iter()
                .filter(|l| l.starts_with("# |"))
                .map(|l| l.chars().count())
                .max()
                .unwrap();
            assert!(widest < 600, "{shape} {n}: a row of {widest} characters");
            assert!(
                trace[1].starts_with("# (cells longer than 60 characters are cut"),
                "{}",
                trace[1]
            );
            sizes.push(bytes);
        }
        assert!(
            sizes[1] < 5 * sizes[0],
            "{shape}: {sizes:?} for 2,000 and 8,000 blocks"
        );
    }
}

#[test]
fn errors_have_one_location_and_one_message_for_every_line_ending() {
    // A lone `\r` was no line end to the lexer but one to the excerpt
    // (`cr_only.ssa:1:45` above a line 4), CRLF put the end of a line one
    // column right, and every error was printed twice (our line, then
    // miette's box).
    let lines = [
        "function main(a) {",
        "entry:",
        "    x = a + 1",
        "    y = x +",
        "    ret y",
        "}",
    ];
    for eol in ["\n", "\r\n", "\r"] {
        let src = lines.join(eol) + eol;
        let o = ssakit(&["fmt", "-"], Some(&src));
        assert_eq!(o.status.code(), Some(1), "{eol:?}");
        let message = "expected an operand (variable, integer or `undef`), found end of line";
        assert_eq!(
            stderr(&o),
            format!(
                "error: <stdin>:4:12: {message}\n  |\n4 |     y = x +\n  |            ^ \
                 expected an operand (variable, integer or `undef`)\n"
            ),
            "{eol:?}"
        );
        // The same program, right, parses and runs alike.
        let good = src.replace("x +", "x + 2");
        assert_eq!(ok(&["run", "-", "1"], Some(&good)), "=> 4\n", "{eol:?}");
        assert_eq!(
            ok(&["fmt", "-"], Some(&good)),
            ok(
                &["fmt", "-"],
                Some(&lines.join("\n").replace("x +", "x + 2"))
            ),
            "{eol:?}"
        );
    }
    // A byte-order mark is skipped, and is no column.
    let bom = "\u{feff}function main() {\ne:\n    ret 1\n}\n";
    assert_eq!(ok(&["run", "-"], Some(bom)), "=> 1\n");
    let o = ssakit(&["fmt", "-"], Some("\u{feff}fun main() {}\n"));
    let err = stderr(&o);
    assert!(
        err.starts_with("error: <stdin>:1:1: expected `function`"),
        "{err}"
    );
    assert!(err.contains("\n1 | fun main() {}\n  | ^^^ "), "{err}");
    // A tab before the error: the caret stays under it.
    let o = ssakit(
        &["fmt", "-"],
        Some("function main() {\ne:\n\tjump nowhere\n}\n"),
    );
    assert!(
        stderr(&o).ends_with("3 | \tjump nowhere\n  | \t     ^^^^^^^ no block has this label\n"),
        "{}",
        stderr(&o)
    );
}

/// Issue 16, defect 13: `fmt` keeps comments (leading ones on their own
/// line at the statement's indentation, trailing ones after their line),
/// on every example: each comment is still there, formatting twice changes
/// nothing, and the program is the same.
#[test]
fn fmt_keeps_every_comment() {
    let src = "# top\nfunction main(n) { # header\nentry:\n  # about x\n  x = n+1 # trailing\n  ret x\n}\n# end\n";
    assert_eq!(
        ok(&["fmt", "-"], Some(src)),
        "# top\nfunction main(n) { # header\nentry:\n    # about x\n    x = n + 1 # trailing\n    ret x\n}\n# end\n"
    );
    let comments = |s: &str| -> Vec<String> {
        s.lines()
            .filter_map(|l| l.find('#').map(|h| l[h..].trim_end().to_string()))
            .collect()
    };
    let mut seen = 0;
    for e in std::fs::read_dir(common::examples()).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "ssa") {
            continue;
        }
        let p = path.to_str().unwrap();
        let src = std::fs::read_to_string(&path).unwrap();
        let once = ok(&["fmt", p], None);
        assert_eq!(comments(&once), comments(&src), "{p}");
        assert_eq!(ok(&["fmt", "-"], Some(&once)), once, "{p}: not idempotent");
        let bare = |s: &str| {
            s.lines()
                .map(|l| l.find('#').map_or(l, |h| &l[..h]))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(
            ok(&["fmt", "-"], Some(&bare(&once))),
            ok(&["fmt", "-"], Some(&bare(&src))),
            "{p}: another program"
        );
        seen += usize::from(!comments(&src).is_empty());
    }
    assert!(seen > 5, "only {seen} examples have comments");
}

/// Issue 32, defect 13: SIGTERM or SIGINT while `-o FILE` is being written
/// (`gen -o`, `explain -o`) removes the temporary file beside FILE, leaves
/// FILE as it was (absent here), and ends the process by the signal.
///
/// A signal ignored when ssakit starts stays ignored (`signals.rs`, as
/// `nohup` and a shell's background jobs expect): SIGINT sent to a child
/// started with SIGINT ignored leaves it running, still writing its
/// temporary file, and SIGTERM then ends it as above. Each child's SIGINT
/// disposition is set before it starts (issue 46, item 14): the test
/// expects the same whatever it inherited itself (before, started as
/// `cargo test &`, it waited for a SIGINT death that the inherited ignore
/// forbids, and failed).
#[cfg(unix)]
#[test]
fn a_termination_signal_removes_the_temporary_output() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let dir = std::env::temp_dir().join(format!("ssakit-signal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("big.ssa");
    let o = ssakit(
        &["gen", "--blocks", "6000", "-o", program.to_str().unwrap()],
        None,
    );
    assert!(o.status.success());
    let temporaries = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect::<Vec<_>>()
    };
    let kill = |signal: &str, pid: u32| {
        let kill = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(pid.to_string())
            .status()
            .unwrap();
        assert!(kill.success());
    };
    let big = program.to_str().unwrap();
    let gen = vec!["gen", "--blocks", "5000000", "-o", "out.ssa"];
    // (arguments, signal sent, whether the child starts with SIGINT ignored)
    for (args, signal, int_ignored) in [
        (gen.clone(), "TERM", false),
        (gen.clone(), "INT", false),
        (gen.clone(), "INT", true),
        (vec!["explain", big, "-o", "out.html"], "TERM", false),
    ] {
        let what = format!("{args:?} SIG{signal} (SIGINT ignored: {int_ignored})");
        let mut command = Command::new(env!("CARGO_BIN_EXE_ssakit"));
        command
            .args(&args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec the closure calls signal(2) only,
        // which is async-signal-safe, and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                let action = if int_ignored {
                    libc::SIG_IGN
                } else {
                    libc::SIG_DFL
                };
                libc::signal(libc::SIGINT, action);
                Ok(())
            });
        }
        let mut child = command.spawn().unwrap();
        let start = Instant::now();
        while temporaries().is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{what}: no temporary file"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        kill(signal, child.id());
        let mut expected = if signal == "TERM" { 15 } else { 2 };
        if int_ignored {
            std::thread::sleep(Duration::from_millis(300));
            assert!(
                child.try_wait().unwrap().is_none(),
                "{what}: an ignored SIGINT ended the process"
            );
            assert_eq!(temporaries().len(), 1, "{what}: still writing");
            kill("TERM", child.id());
            expected = 15;
        }
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(expected), "{what}: {status:?}");
        assert_eq!(temporaries(), Vec::<String>::new(), "{what}");
        let out = dir.join(args[args.len() - 1]);
        assert!(!out.exists(), "{what}: FILE was not finished");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
