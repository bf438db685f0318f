//! Issue 32's four commands that were quadratic on a ladder of nested
//! loops (`construct --trace`, `explain`, `emit-wasm`, `wasm stats`) grow
//! at most linearly: ×4 blocks costs at most ×6 CPU time and ×6 peak
//! memory, from 5,000 to 40,000 blocks. So do `wasm opt --dump structure`
//! and `--dump stackify` (the structure's text, indented by nesting, was
//! quadratic on the ladder's nested loops before its indentation stopped
//! growing: 40 MB at 5,000 blocks, 653 MB at 20,000).
//!
//! Each command runs as a child process; its CPU time (user + system) and
//! peak resident memory come from `wait4`'s resource usage, so other
//! processes on the machine change them little. A quadratic command gives
//! ×16 at ×4 blocks (`construct --trace` took 0.47 / 1.43 / 4.75 s at 5k /
//! 10k / 20k blocks before issue 32's fix). Below [`CPU_FLOOR`] seconds
//! and [`RSS_FLOOR`] bytes a run counts as that much: process start-up and
//! rounding are not growth.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};

/// CPU seconds below which a run counts as this many.
const CPU_FLOOR: f64 = 0.25;
/// Peak memory below which a run counts as this many bytes.
const RSS_FLOOR: f64 = 16e6;
/// The largest growth allowed for ×4 blocks.
const MAX_RATIO: f64 = 6.0;

/// Runs `ssakit args` in `dir`, standard output discarded; returns its CPU
/// seconds and peak resident bytes. The child is reaped by `wait4`, which
/// gives its resource usage (`Child::wait` does not).
#[allow(clippy::zombie_processes)]
fn measure(dir: &Path, args: &[&str]) -> (f64, f64) {
    let child = Command::new(env!("CARGO_BIN_EXE_ssakit"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn ssakit");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data, and `wait4` on our own child writes
    // only through the two pointers given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        let r = libc::wait4(pid, &mut status, 0, &mut usage);
        assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
        usage
    };
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "ssakit {args:?}: status {status:#x}"
    );
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    (
        secs(usage.ru_utime) + secs(usage.ru_stime),
        usage.ru_maxrss as f64 * 1024.0,
    )
}

#[test]
fn ladder_commands_grow_linearly() {
    let dir = std::env::temp_dir().join(format!("ssakit-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sizes = [5_000usize, 10_000, 20_000, 40_000];
    for n in sizes {
        let (ssa, wasm) = (format!("ladder{n}.ssa"), format!("ladder{n}.wasm"));
        let blocks = n.to_string();
        measure(
            &dir,
            &["gen", "--shape", "ladder", "--blocks", &blocks, "-o", &ssa],
        );
        measure(&dir, &["emit-wasm", &ssa, "-o", &wasm]);
    }
    type Args = fn(&str, &str) -> Vec<String>;
    let commands: [(&str, Args, &[usize]); 6] = [
        (
            "construct --trace",
            |ssa, _| {
                vec![
                    "construct".into(),
                    "--trace".into(),
                    "v0".into(),
                    ssa.into(),
                ]
            },
            &sizes,
        ),
        // explain writes about 19 KB a block: 10k and 40k only.
        (
            "explain",
            |ssa, _| vec!["explain".into(), ssa.into()],
            &[10_000, 40_000],
        ),
        (
            "emit-wasm",
            |ssa, _| {
                vec![
                    "emit-wasm".into(),
                    ssa.into(),
                    "-o".into(),
                    "out.wasm".into(),
                ]
            },
            &sizes,
        ),
        (
            "wasm stats",
            |_, wasm| vec!["wasm".into(), "stats".into(), wasm.into()],
            &sizes,
        ),
        // R nested loops: the structure's indentation stops growing.
        (
            "wasm opt --dump structure",
            |_, wasm| {
                ["wasm", "opt", "--dump", "structure", wasm]
                    .map(String::from)
                    .to_vec()
            },
            &sizes,
        ),
        (
            "wasm opt --dump stackify",
            |_, wasm| {
                ["wasm", "opt", "--dump", "stackify", wasm]
                    .map(String::from)
                    .to_vec()
            },
            &sizes,
        ),
    ];
    let mut report = String::new();
    for (name, args, ns) in commands {
        let run = |n: usize| {
            let a = args(&format!("ladder{n}.ssa"), &format!("ladder{n}.wasm"));
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            measure(&dir, &a)
        };
        let mut runs: Vec<(usize, f64, f64)> = ns
            .iter()
            .map(|&n| {
                let (cpu, rss) = run(n);
                report += &format!("{name} {n}: {cpu:.2} s, {:.0} MB\n", rss / 1e6);
                (n, cpu, rss)
            })
            .collect();
        for i in 0..runs.len() {
            let n = runs[i].0;
            let Some(j) = runs.iter().position(|r| r.0 * 4 == n) else {
                continue;
            };
            let growth = |runs: &[(usize, f64, f64)]| {
                let ((_, cpu, rss), (_, cpu0, rss0)) = (runs[i], runs[j]);
                (
                    cpu.max(CPU_FLOOR) / cpu0.max(CPU_FLOOR),
                    rss.max(RSS_FLOOR) / rss0.max(RSS_FLOOR),
                )
            };
            let (mut time, mut memory) = growth(&runs);
            if time > MAX_RATIO || memory > MAX_RATIO {
                // A shared machine can slow one run down: both sizes are
                // measured once more and each keeps its smaller figures.
                for k in [j, i] {
                    let (cpu, rss) = run(runs[k].0);
                    report += &format!(
                        "{name} {} again: {cpu:.2} s, {:.0} MB\n",
                        runs[k].0,
                        rss / 1e6
                    );
                    runs[k].1 = runs[k].1.min(cpu);
                    runs[k].2 = runs[k].2.min(rss);
                }
                (time, memory) = growth(&runs);
            }
            assert!(
                time <= MAX_RATIO && memory <= MAX_RATIO,
                "{name}: ×{time:.1} time, ×{memory:.1} memory from {} to {n} blocks\n{report}",
                n / 4
            );
        }
    }
    eprint!("{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}
