//! `ssakit destruct` end to end: the pipeline `construct | destruct - |
//! run -`, statistics on standard error, and the errors of `--conventional`
//! and of input that is not SSA.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn examples() -> std::path::PathBuf {
    std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"))
}

/// Runs `ssakit ARGS` with `stdin` as standard input.
fn ssakit(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ssakit"))
        .args(args)
        .current_dir(examples())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn construct_destruct_run_pipeline() {
    let ssa = ssakit(&["construct", "seed.ssa"], "");
    assert!(ssa.status.success(), "{}", stderr(&ssa));
    for mode in [
        &[][..],
        &["--no-split"],
        &["--no-coalesce"],
        &["--conventional"],
    ] {
        let mut args = vec!["destruct"];
        args.extend_from_slice(mode);
        args.push("-");
        let out = ssakit(&args, &stdout(&ssa));
        assert!(out.status.success(), "{mode:?}: {}", stderr(&out));
        assert!(!stdout(&out).contains("phi"));
        let run = ssakit(&["run", "-", "1", "1"], &stdout(&out));
        assert_eq!(stdout(&run), "=> 65\n", "{mode:?}");
    }
}

#[test]
fn stats_and_times_go_to_standard_error() {
    let out = ssakit(&["destruct", "--stats", "--time-passes", "swap.ssa"], "");
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(err.contains("function main:\n  edges split: 1\n"), "{err}");
    assert!(
        err.contains("  copies remaining: 6\n  temporaries: 1\n"),
        "{err}"
    );
    assert!(err.contains("coalescing: "), "{err}");
    assert!(stdout(&out).starts_with("function main(n) {\n"));
}

#[test]
fn conventional_refuses_the_lost_copy() {
    let out = ssakit(&["destruct", "--conventional", "lost_copy.ssa"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "error: lost_copy.ssa:13:5: SSA is not conventional: `x2` and `x3` are in one \
             phi web and interfere"
        ),
        "{err}"
    );
    assert!(err.contains("help: without --conventional"), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn input_not_in_ssa_form() {
    let out = ssakit(&["destruct", "seed.ssa"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "error: seed.ssa:18:5: input is not valid SSA: `x` is assigned more than once"
        ),
        "{err}"
    );
    assert!(err.contains("help: `ssakit construct` puts a program into SSA form"));
}
