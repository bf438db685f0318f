//! `ssakit destruct` end to end: the pipeline `construct | destruct - |
//! run -`, statistics on standard error, and the errors of `--conventional`
//! and of input that is not SSA.

mod common;

use common::{ssakit, stderr, stdout};

#[test]
fn construct_destruct_run_pipeline() {
    let ssa = ssakit(&["construct", "seed.ssa"], None);
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
        let out = ssakit(&args, Some(&stdout(&ssa)));
        assert!(out.status.success(), "{mode:?}: {}", stderr(&out));
        assert!(!stdout(&out).contains("phi"));
        let run = ssakit(&["run", "-", "1", "1"], Some(&stdout(&out)));
        assert_eq!(stdout(&run), "=> 65\n", "{mode:?}");
    }
}

#[test]
fn stats_and_times_go_to_standard_error() {
    let out = ssakit(&["destruct", "--stats", "--time-passes", "swap.ssa"], None);
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
    let out = ssakit(&["destruct", "--conventional", "lost_copy.ssa"], None);
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
    let out = ssakit(&["destruct", "seed.ssa"], None);
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
