//! The emulator oracle of issue 29 (item 7, docs/x86.md): the fixture's
//! functions run under Unicorn (`scripts/x86-emu-oracle.py`), and every
//! operand of their pruned and minimal SSA form must name the definition
//! whose value the CPU read; a planted renaming fault must be caught.
//!
//! Needs the `unicorn` wheel in the virtual environment that
//! `scripts/install-unicorn.sh` makes (or `SSAKIT_UNICORN_PYTHON`): without
//! it the tests say so and pass, unless `SSAKIT_REQUIRE_UNICORN=1` (as in
//! `.ci/run`). `SSAKIT_X86_EMU_CORPUS=path:path...` adds binaries, each a
//! 200-function sample of which at least 140 must pass with no mismatch
//! (`.ci/run` gives libc).

#[path = "../../ssakit-x86/tests/support/unicorn.rs"]
mod unicorn;

use std::path::PathBuf;
use std::process::{Command, Output};
use unicorn::python;

fn oracle(py: &PathBuf, elf: &str, extra: &[&str]) -> (Output, String) {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/x86-emu-oracle.py"
    );
    let o = Command::new(py)
        .arg(script)
        .args(["--ssakit", env!("CARGO_BIN_EXE_ssakit"), elf])
        .args(extra)
        .output()
        .expect("python runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o, text)
}

/// The count after `label: ` in the oracle's report.
fn count(report: &str, label: &str) -> usize {
    report
        .lines()
        .find_map(|l| l.trim().strip_prefix(label)?.strip_prefix(": "))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no `{label}` in:\n{report}"))
}

fn fixture(name: &str) -> String {
    format!(
        "{}/../ssakit-x86/tests/fixture/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn every_fixture_function_reads_what_the_cpu_read() {
    let Some(py) = python() else { return };
    for bin in ["fixture", "fixture-nopie"] {
        let (o, report) = oracle(&py, &fixture(bin), &["--min-pass", "15"]);
        assert_eq!(o.status.code(), Some(0), "{report}");
        assert_eq!(count(&report, "with a mismatch"), 0, "{report}");
        assert_eq!(count(&report, "skipped (nothing compared)"), 0, "{report}");
        assert!(count(&report, "reads compared") > 10_000, "{report}");
    }
    // Issue 46's fixture: `ret` reading `xmm0` and `xmm1`, the PIC thunk
    // run as the push it is, the saves and restores of the vector
    // registers (`xsavec`, which Unicorn cannot run, ends its runs).
    let (o, report) = oracle(&py, &fixture("round4"), &["--min-pass", "12"]);
    assert_eq!(o.status.code(), Some(0), "{report}");
    assert_eq!(count(&report, "with a mismatch"), 0, "{report}");
    assert!(count(&report, "reads compared") > 1_000, "{report}");
}

#[test]
fn a_planted_renaming_fault_is_caught() {
    let Some(py) = python() else { return };
    let (o, report) = oracle(&py, &fixture("fixture"), &["--fault"]);
    assert_eq!(o.status.code(), Some(0), "the fault went unseen: {report}");
    assert!(count(&report, "with a mismatch") >= 5, "{report}");
}

#[test]
fn corpus_samples_pass() {
    let Some(corpus) = std::env::var_os("SSAKIT_X86_EMU_CORPUS") else {
        eprintln!("SSAKIT_X86_EMU_CORPUS unset: only the fixtures");
        return;
    };
    let Some(py) = python() else { return };
    for elf in std::env::split_paths(&corpus) {
        let elf = elf.to_string_lossy().into_owned();
        let (o, report) = oracle(&py, &elf, &["--sample", "200", "--min-pass", "140"]);
        println!("{report}");
        assert_eq!(o.status.code(), Some(0), "{report}");
        assert_eq!(count(&report, "with a mismatch"), 0, "{report}");
        let (fo, freport) = oracle(&py, &elf, &["--sample", "40", "--fault"]);
        assert_eq!(
            fo.status.code(),
            Some(0),
            "the fault went unseen: {freport}"
        );
    }
}
