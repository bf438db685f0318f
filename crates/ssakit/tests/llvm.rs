//! `backend::llvm` against LLVM 14 itself: the IR emitted for every example
//! and for generated programs of every shape passes `opt -passes=verify`,
//! `opt -passes=mem2reg` leaves no `alloca`, and `lli` runs it printing what
//! the interpreter prints (an `undef` of the interpreter matching any value).
//!
//! The tests need `opt` (and `lli` for the run) on the PATH; without them
//! they print `skipped: ...` on standard error and pass, unless
//! `SSAKIT_REQUIRE_LLVM=1` is set (as `.ci/run` does), which makes a
//! missing tool a failure.

use ssakit::backend::llvm::emit_module;
use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::interp::{self, RunOptions, Value};
use ssakit::ir::Module;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("SSAKIT_REQUIRE_LLVM").is_none(),
            "`{tool}` (LLVM 14) is not on the PATH and SSAKIT_REQUIRE_LLVM is set"
        );
        eprintln!("skipped: `{tool}` (LLVM 14) is not on the PATH");
    }
    ok
}

/// Runs `tool args` with `input` on standard input; panics with its error
/// output on failure.
fn pipe(tool: &str, args: &[&str], input: &str) -> String {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tool starts");
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().expect("tool runs");
    writer.join().unwrap().expect("input written");
    assert!(
        out.status.success(),
        "{tool} {args:?} failed:\n{}\n--- input (first 3000 bytes) ---\n{}",
        String::from_utf8_lossy(&out.stderr),
        &input[..input.len().min(3000)]
    );
    String::from_utf8(out.stdout).unwrap()
}

fn examples() -> Vec<(PathBuf, Module)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "ssa") {
            let text = std::fs::read_to_string(&p).unwrap();
            out.push((p, ssakit::text::parse_module(&text).unwrap()));
        }
    }
    assert!(out.len() >= 5, "examples found in {}", dir.display());
    out
}

fn generated() -> Vec<(String, Module)> {
    let mut out = Vec::new();
    for shape in Shape::ALL {
        for (blocks, vars, seed) in [(12, 3, 1), (60, 8, 2), (300, 20, 3)] {
            let f = generate(&GenOptions {
                shape,
                blocks,
                vars,
                seed,
            });
            out.push((
                format!("{shape} blocks={blocks} vars={vars} seed={seed}"),
                Module { functions: vec![f] },
            ));
        }
    }
    out
}

/// Verifies `m`'s IR and checks that mem2reg promotes every slot.
fn check_module(what: &str, m: &Module) {
    let ir = emit_module(m).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(ir.contains("alloca i64"), "{what}");
    pipe("opt", &["-passes=verify", "-disable-output"], &ir);
    let promoted = pipe("opt", &["-S", "-passes=mem2reg"], &ir);
    assert!(
        !promoted.contains(" = alloca "),
        "{what}: mem2reg left an alloca:\n{promoted}"
    );
}

#[test]
fn every_example_verifies_and_promotes() {
    if !have("opt") {
        return;
    }
    for (p, m) in examples() {
        check_module(&p.display().to_string(), &m);
    }
}

#[test]
fn generated_programs_verify_and_promote() {
    if !have("opt") {
        return;
    }
    for (what, m) in generated() {
        check_module(&what, &m);
    }
}

/// Definitions of the print helpers and a `main` calling the program's
/// entry, renamed `ssa_main`, on the arguments.
fn runtime(args: &[i64]) -> String {
    let params: Vec<String> = args.iter().map(|a| format!("i64 {a}")).collect();
    format!(
        r#"@fmt = private constant [6 x i8] c"%lld \00"
@nl = private constant [2 x i8] c"\0A\00"
declare i32 @printf(i8*, ...)
define void @print_i64(i64 %x) {{
  call i32 (i8*, ...) @printf(i8* getelementptr ([6 x i8], [6 x i8]* @fmt, i64 0, i64 0), i64 %x)
  ret void
}}
define void @print_newline() {{
  call i32 (i8*, ...) @printf(i8* getelementptr ([2 x i8], [2 x i8]* @nl, i64 0, i64 0))
  ret void
}}
define i32 @main() {{
  call i64 @ssa_main({})
  ret i32 0
}}
"#,
        params.join(", ")
    )
}

/// Runs the generated programs (no calls, control independent of undef)
/// under `lli` and compares the printed lines with the interpreter's.
#[test]
fn generated_programs_print_what_the_interpreter_prints() {
    if !have("lli") {
        return;
    }
    for (what, m) in generated() {
        let args = [3i64, -2];
        let expected = interp::run(&m, &m.functions[0], &args, &RunOptions::default())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let ir = emit_module(&m)
            .unwrap()
            .replace("declare void @print_i64(i64)\n", "")
            .replace("declare void @print_newline()\n", "")
            .replace("define i64 @main(", "define i64 @ssa_main(");
        let out = pipe("lli", &[], &format!("{ir}\n{}", runtime(&args)));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), expected.output.len(), "{what}: line count");
        for (k, (line, exp)) in lines.iter().zip(&expected.output).enumerate() {
            let got: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(got.len(), exp.len(), "{what}: line {k}");
            for (g, e) in got.iter().zip(exp) {
                if let Value::Int(v) = e {
                    assert_eq!(*g, v.to_string(), "{what}: line {k}: {line}");
                }
            }
        }
    }
}
