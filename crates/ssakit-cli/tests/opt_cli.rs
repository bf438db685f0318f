//! `ssakit opt` end to end: the construct | opt pipe on the lost-copy
//! example, `--time-passes`, and the refusals (input not in SSA form,
//! unknown pass names).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn example(name: &str) -> String {
    format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `ssakit ARGS` with `stdin` as standard input.
fn ssakit(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ssakit"))
        .args(args)
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

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

#[test]
fn construct_then_copy_prop_gives_the_lost_copy() {
    let ssa = ssakit(
        &[
            "construct",
            "--flavor",
            "pruned",
            &example("lost_copy_source.ssa"),
        ],
        "",
    );
    assert!(ssa.status.success());
    let out = ssakit(&["opt", "--passes", "copy-prop", "-"], &text(&ssa.stdout));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "function main(n) {
entry:
    x1 = 1
    jump loop
loop:
    x2 = phi(entry: x1, loop: x3)
    x3 = x2 + 1
    c1 = x3 < n
    branch c1, loop, exit
exit:
    ret x2
}
"
    );
    let check = ssakit(&["check", "-"], &text(&out.stdout));
    assert!(text(&check.stdout).contains("conventional: no (x2 and x3"));
}

#[test]
fn every_pass_is_a_phase_of_time_passes() {
    let ssa = ssakit(&["construct", &example("sum.ssa")], "");
    let out = ssakit(
        &[
            "opt",
            "--passes",
            "const-prop,copy-prop,dce,dce",
            "--time-passes",
            "-",
        ],
        &text(&ssa.stdout),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let phases: Vec<String> = text(&out.stderr)
        .lines()
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    // sum.ssa has two functions: each phase is summed over both, once per
    // run of the pass (dce twice), after the wall time of the whole loop.
    assert_eq!(
        phases,
        [
            "wall",
            "verification",
            "const-prop",
            "copy-prop",
            "dce",
            "dce",
            "verification",
            "total"
        ]
    );
}

#[test]
fn input_not_in_ssa_form_is_refused() {
    let out = ssakit(
        &["opt", "--passes", "dce", &example("lost_copy_source.ssa")],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(err.contains("function `main` is not valid SSA"), "{err}");
    assert!(err.contains("assigned more than once"), "{err}");
}

#[test]
fn unknown_passes_are_refused() {
    let out = ssakit(&["opt", "--passes", "dce,licm", "-"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: --passes: unknown pass `licm` (known passes: copy-prop, const-prop, dce)\n"
    );
}
