//! The same rows through the command line, as a user runs them (issue
//! 44, item 2: the CLI's `--time-passes` totals beside the library's).
//!
//! With `--cli SSAKIT` (the release binary, `target/release/ssakit`),
//! every row's program is also written as text and given to the CLI, each
//! command `--reps` times, the median taken:
//!
//! * **construct**: `ssakit construct --flavor pruned --no-verify
//!   --time-passes PROGRAM -o OUT`, its `total` line: the phases summed
//!   over the threads (one function: its wall time; a module: what one
//!   thread would take), the input's type check included (the CLI always
//!   runs it, `verification` in its phases), parsing and printing not;
//! * **destruct**: `ssakit destruct --time-passes OUT -o /dev/null`, its
//!   `total` less its `verification` line (the input check a user can
//!   turn off nowhere, but which the library's `destruct_pruned` does not
//!   do; its dead-code walk stays in);
//! * **peak**: the largest resident set of the construct runs
//!   (`/usr/bin/time`'s `%M`, the parse and the printer's names included);
//! * **phis**: ` = phi(` lines in OUT, which must be the library's count.
//!
//! A generated row's program is printed by [`ssakit::text::print_module`]
//! (what `ssakit gen` prints); a real row's is its `.ssa` file, or what
//! `ssakit wasm lift` makes of its `.wasm`/`.wat` (run here, untimed).

use crate::median;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The CLI's figures on one program.
#[derive(Clone, Debug, Serialize)]
pub struct CliRow {
    /// Median `total` seconds of `construct --flavor pruned --no-verify`.
    pub construct_s: f64,
    /// Median seconds of `destruct`'s `total` less its `verification`.
    pub destruct_s: f64,
    /// Median seconds of `destruct`'s input `verification`, left out of
    /// `destruct_s`.
    pub destruct_check_s: f64,
    /// Largest resident set of the construct runs, bytes (none without
    /// `/usr/bin/time`).
    pub peak_rss: Option<u64>,
    /// Pruned phis in the CLI's output.
    pub phis: usize,
}

/// The `name: seconds` lines of `--time-passes` on standard error.
fn phase(err: &str, name: &str) -> Option<f64> {
    err.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
        .and_then(|s| s.trim().parse().ok())
}

/// Runs `bin args`, wrapped in `/usr/bin/time` when there is one; its
/// standard error and the peak resident set in bytes.
fn run(bin: &Path, args: &[&std::ffi::OsStr]) -> Result<(String, Option<u64>), String> {
    let timed = Path::new("/usr/bin/time").exists();
    let mut cmd = if timed {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-f", "maxrss_kb=%M"]).arg(bin);
        c
    } else {
        Command::new(bin)
    };
    let out = cmd
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        let why = err.lines().find(|l| l.starts_with("error")).unwrap_or("");
        return Err(format!("{} {:?} failed: {why}", bin.display(), args));
    }
    let peak = err
        .lines()
        .find_map(|l| l.strip_prefix("maxrss_kb="))
        .and_then(|k| k.trim().parse::<u64>().ok())
        .map(|k| k * 1024);
    Ok((err, peak))
}

/// The program a real row's `file` gives the CLI: the file itself if it
/// is text, else what `ssakit wasm lift` prints of it (in `tmp`).
pub fn program_of(bin: &Path, file: &Path, tmp: &Path) -> Result<PathBuf, String> {
    if file.extension().is_some_and(|x| x == "ssa") {
        return Ok(file.to_path_buf());
    }
    let out = tmp.join("cli-lifted.ssa");
    let args = [
        "wasm".as_ref(),
        "lift".as_ref(),
        file.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ];
    run(bin, &args)?;
    Ok(out)
}

/// Measures `program` through `bin`, `reps` times each command, its
/// pruned output kept in `tmp` meanwhile.
pub fn measure(bin: &Path, program: &Path, reps: usize, tmp: &Path) -> Result<CliRow, String> {
    let ssa = tmp.join("cli-pruned.ssa");
    let mut construct = Vec::new();
    let mut peak_rss: Option<u64> = None;
    for _ in 0..reps {
        let args = [
            "construct".as_ref(),
            "--flavor".as_ref(),
            "pruned".as_ref(),
            "--no-verify".as_ref(),
            "--time-passes".as_ref(),
            program.as_os_str(),
            "-o".as_ref(),
            ssa.as_os_str(),
        ];
        let (err, peak) = run(bin, &args)?;
        construct.push(phase(&err, "total").ok_or("construct printed no `total`")?);
        peak_rss = peak_rss.max(peak);
    }
    let text = std::fs::read_to_string(&ssa).map_err(|e| format!("{}: {e}", ssa.display()))?;
    let phis = text.lines().filter(|l| l.contains(" = phi(")).count();
    drop(text);
    let (mut destruct, mut check) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let args = [
            "destruct".as_ref(),
            "--time-passes".as_ref(),
            ssa.as_os_str(),
            "-o".as_ref(),
            "/dev/null".as_ref(),
        ];
        let (err, _) = run(bin, &args)?;
        let total = phase(&err, "total").ok_or("destruct printed no `total`")?;
        let verification = phase(&err, "verification").unwrap_or(0.0);
        destruct.push(total - verification);
        check.push(verification);
    }
    let _ = std::fs::remove_file(&ssa);
    Ok(CliRow {
        construct_s: median(construct),
        destruct_s: median(destruct),
        destruct_check_s: median(check),
        peak_rss,
        phis,
    })
}

/// The CLI's columns of a row, after its library's pruned phis `phis`
/// and PromotePass seconds `llvm`: construct s, LLVM ÷ construct,
/// destruct s, destruct ÷ construct, peak MB (a mismatch of phis is
/// flagged).
pub fn columns(r: &Result<CliRow, String>, phis: usize, llvm: Option<f64>) -> String {
    let c = match r {
        Ok(c) => c,
        Err(why) => return format!("{why} | | | | |"),
    };
    let llvm = llvm.map_or(String::new(), |l| format!("{:.1}", l / c.construct_s));
    let peak = c
        .peak_rss
        .map_or(String::new(), |b| format!("{:.0}", b as f64 / 1048576.0));
    let flag = if c.phis == phis {
        String::new()
    } else {
        format!(" (**{} phis**)", c.phis)
    };
    format!(
        "{:.3}{flag} | {llvm} | {:.3} | {:.2} | {peak} |",
        c.construct_s,
        c.destruct_s,
        c.destruct_s / c.construct_s
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_are_read_by_name() {
        let err = "wall: 0.077\nverification: 0.013\nrenaming: 0.002\ntotal: 0.075\n";
        assert_eq!(phase(err, "total"), Some(0.075));
        assert_eq!(phase(err, "verification"), Some(0.013));
        assert_eq!(phase(err, "dead code"), None);
    }

    /// The columns of a measured row and of one the CLI failed on.
    #[test]
    fn columns_flag_a_phi_mismatch() {
        let c = CliRow {
            construct_s: 0.5,
            destruct_s: 0.6,
            destruct_check_s: 0.1,
            peak_rss: Some(100 << 20),
            phis: 7,
        };
        assert_eq!(
            columns(&Ok(c.clone()), 7, Some(10.0)),
            "0.500 | 20.0 | 0.600 | 1.20 | 100 |"
        );
        assert!(columns(&Ok(c), 8, None).starts_with("0.500 (**7 phis**) |  |"));
        assert!(columns(&Err("no".into()), 1, None).starts_with("no |"));
    }

    /// A CLI that is not there, or a program it rejects: an error naming
    /// them, no row.
    #[test]
    fn a_missing_cli_or_a_bad_program_is_an_error() {
        let dir = std::env::temp_dir().join(format!("cli-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join("p.ssa");
        std::fs::write(&program, "function f( {\n").unwrap();
        let e = measure(Path::new("/nonexistent/ssakit"), &program, 1, &dir).unwrap_err();
        assert!(e.contains("/nonexistent/ssakit"), "{e}");
        // `false` runs and fails: the command's failure, not a row.
        let e = measure(Path::new("/bin/false"), &program, 1, &dir).unwrap_err();
        assert!(e.contains("failed"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
