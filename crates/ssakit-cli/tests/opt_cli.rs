//! `ssakit opt` end to end: the construct | opt pipe on the lost-copy
//! example, `--time-passes`, and the refusals (input not in SSA form,
//! unknown pass names).

mod common;

use common::{example, ssakit, stderr, stdout};

#[test]
fn construct_then_copy_prop_gives_the_lost_copy() {
    let ssa = ssakit(
        &[
            "construct",
            "--flavor",
            "pruned",
            &example("lost_copy_source.ssa"),
        ],
        None,
    );
    assert!(ssa.status.success());
    let out = ssakit(&["opt", "--passes", "copy-prop", "-"], Some(&stdout(&ssa)));
    assert!(out.status.success(), "{}", stderr(&out));
    // The library's expectation for this construction and copy-prop.
    assert_eq!(
        stdout(&out),
        include_str!("../../ssakit/tests/golden/lost_copy_source.pruned.copy-prop.ssa")
    );
    let check = ssakit(&["check", "-"], Some(&stdout(&out)));
    assert!(stdout(&check).contains("conventional: no (x2 and x3"));
}

#[test]
fn every_pass_is_a_phase_of_time_passes_and_the_input_is_verified_once() {
    let ssa = ssakit(&["construct", &example("sum.ssa")], None);
    let phases = |extra: &[&str]| -> Vec<String> {
        let mut args = vec![
            "opt",
            "--passes",
            "const-prop,copy-prop,dce,dce",
            "--time-passes",
        ];
        args.extend_from_slice(extra);
        args.push("-");
        let out = ssakit(&args, Some(&stdout(&ssa)));
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
            .lines()
            .map(|l| l.split(':').next().unwrap().to_string())
            .collect()
    };
    // sum.ssa has two functions: each phase is summed over both, once per
    // run of the pass (dce twice), after the wall time of the whole loop.
    // The input is verified; the result only with --verify.
    let passes = ["const-prop", "copy-prop", "dce", "dce"];
    let with = |tail: &[&str]| -> Vec<String> {
        ["wall", "verification"]
            .iter()
            .chain(&passes)
            .chain(tail)
            .chain(&["total"])
            .map(|s| s.to_string())
            .collect()
    };
    assert_eq!(phases(&[]), with(&[]));
    assert_eq!(phases(&["--verify"]), with(&["verification"]));
}

#[test]
fn input_not_in_ssa_form_is_refused() {
    let out = ssakit(
        &["opt", "--passes", "dce", &example("lost_copy_source.ssa")],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(err.contains("function `main` is not valid SSA"), "{err}");
    assert!(err.contains("assigned more than once"), "{err}");
}

#[test]
fn unknown_passes_are_refused() {
    let out = ssakit(&["opt", "--passes", "dce,licm", "-"], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: --passes: unknown pass `licm` (known passes: copy-prop, const-prop, fold, dce)\n"
    );
}
