//! Helpers shared by the end-to-end tests of the `ssakit` binary: run it on
//! arguments and standard input, and read what it printed.
#![allow(dead_code)]

#[path = "../../../ssakit/tests/support/golden.rs"]
mod golden_file;
pub mod shown;
#[allow(unused_imports)]
pub use golden_file::golden;

use std::io::{ErrorKind, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// The repository's `examples/` folder, where the binary runs, so that
/// tests name example files by their bare names.
pub fn examples() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"))
}

/// The absolute path of `examples/NAME`.
pub fn example(name: &str) -> String {
    examples().join(name).to_str().unwrap().to_string()
}

/// Runs `ssakit ARGS` in [`examples`] with `stdin` as standard input
/// (`None`: an empty one).
pub fn ssakit(args: &[&str], stdin: Option<&str>) -> Output {
    ssakit_bytes(args, stdin.unwrap_or("").as_bytes())
}

/// Runs `ssakit ARGS` in [`examples`] with the bytes `stdin` as standard
/// input. A thread writes them, so that a large input cannot block against
/// a full output pipe; a child that exits before reading all of it (a
/// broken pipe) is no error here, as its exit code and messages tell.
pub fn ssakit_bytes(args: &[&str], stdin: &[u8]) -> Output {
    ssakit_in(&examples(), args, stdin)
}

/// Runs `ssakit ARGS` in the directory `dir`, as [`ssakit_bytes`] does.
pub fn ssakit_in(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ssakit"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ssakit runs");
    let mut pipe = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || pipe.write_all(&data));
    let out = child.wait_with_output().unwrap();
    if let Err(e) = writer.join().unwrap() {
        assert_eq!(e.kind(), ErrorKind::BrokenPipe, "writing stdin: {e}");
    }
    out
}

/// One call of every subcommand that prints to standard output, on the
/// examples (`run --trace-calls` prints before the program's output).
pub const EVERY_COMMAND: &[&[&str]] = &[
    &["construct", "lost_copy_source.ssa"],
    &["construct", "--trace", "x", "seed.ssa"],
    &["opt", "--passes", "copy-prop,dce", "lost_copy.ssa"],
    &["destruct", "lost_copy.ssa"],
    &["fmt", "seed.ssa"],
    &["check", "lost_copy.ssa"],
    &[
        "analyze", "--dom", "--dj", "--df", "--idf", "x", "--live", "seed.ssa",
    ],
    &["run", "--trace-calls", "sum.ssa", "4"],
    &["gen", "--blocks", "2000"],
    &["emit-llvm", "seed.ssa"],
    &["dot", "--dj", "seed.ssa"],
    &["dot", "--svg", "sum.ssa"],
    &["explain", "--trace", "x", "seed.ssa"],
    &["check", "--format", "json", "lost_copy.ssa"],
    &["reduce", "--args", "5", "lost_copy_source.ssa"],
    &["wasm", "lift", "--construct", "wasm_tour.wat"],
];

/// The columns of `ssakit explain seed.ssa`, in order (`data-phase`).
pub const EXPLAIN_SEED_PHASES: [&str; 8] = [
    "input",
    "phis",
    "renamed",
    "copy-prop",
    "dce",
    "parallel-copies",
    "coalesced",
    "sequentialized",
];

/// Where a [`spawn`]ed `ssakit` writes its standard output or error.
pub enum Sink {
    /// A pipe the test reads.
    Piped,
    /// A pipe whose reading end is closed before `ssakit` starts: every
    /// write fails with `EPIPE`.
    Closed,
    /// `/dev/full`: every write fails with `ENOSPC`.
    Full,
}

impl Sink {
    fn stdio(&self) -> Stdio {
        match self {
            Sink::Piped => Stdio::piped(),
            Sink::Closed => {
                let (reader, writer) = std::io::pipe().expect("a pipe");
                drop(reader);
                Stdio::from(writer)
            }
            Sink::Full => Stdio::from(std::fs::File::create("/dev/full").expect("/dev/full")),
        }
    }
}

/// Runs `ssakit ARGS` in [`examples`] with an empty standard input and the
/// given standard output and error, and waits at most `limit` for it (a
/// hang is a test failure, not a stuck test). Returns its exit code (`None`
/// if a signal ended it) and whatever was captured.
pub fn spawn(args: &[&str], stdout: Sink, stderr: Sink, limit: Duration) -> (Option<i32>, Output) {
    spawn_with_input(args, Stdio::null(), stdout, stderr, limit)
}

/// [`spawn`] with `stdin` as standard input.
pub fn spawn_with_input(
    args: &[&str],
    stdin: Stdio,
    stdout: Sink,
    stderr: Sink,
    limit: Duration,
) -> (Option<i32>, Output) {
    let child = Command::new(env!("CARGO_BIN_EXE_ssakit"))
        .args(args)
        .current_dir(examples())
        .stdin(stdin)
        .stdout(stdout.stdio())
        .stderr(stderr.stdio())
        .spawn()
        .expect("ssakit runs");
    let id = child.id();
    let (done, wait) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let out = child.wait_with_output();
        let _ = done.send(());
        out
    });
    if wait.recv_timeout(limit).is_err() {
        // Ends the child (by its id, which we started) so that the waiter
        // returns; the test fails.
        let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
        panic!("ssakit {args:?} did not finish within {limit:?}");
    }
    let out = waiter.join().unwrap().unwrap();
    (out.status.code(), out)
}

/// The standard output of `o`, which must be UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The standard error of `o`, which must be UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Runs `ssakit ARGS` on `stdin`, asserts that it succeeded, and returns
/// its standard output.
#[track_caller]
pub fn ok(args: &[&str], stdin: Option<&str>) -> String {
    let o = ssakit(args, stdin);
    assert!(o.status.success(), "ssakit {args:?} failed: {}", stderr(&o));
    stdout(&o)
}
