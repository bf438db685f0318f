//! Per-phase wall-clock times, for `--time-passes` (as LLVM's
//! `-time-passes` and rustc's `-Z time-passes`).

use std::time::Instant;

/// Named phase durations, in the order they ran.
#[derive(Clone, Debug, Default)]
pub struct PassTimes {
    /// `(phase, seconds)` pairs; a phase run twice appears twice.
    pub phases: Vec<(&'static str, f64)>,
}

impl PassTimes {
    /// Runs `f`, recording its duration under `name`.
    pub fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = f();
        self.phases.push((name, t.elapsed().as_secs_f64()));
        r
    }

    /// Total seconds over all phases.
    pub fn total(&self) -> f64 {
        self.phases.iter().map(|p| p.1).sum()
    }

    /// Appends another record's phases.
    pub fn extend(&mut self, other: &PassTimes) {
        self.phases.extend_from_slice(&other.phases);
    }

    /// One line `PHASE: SECONDS` per phase, then `total: SECONDS`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (n, s) in &self.phases {
            out.push_str(&format!("{n}: {s:.6}\n"));
        }
        out.push_str(&format!("total: {:.6}\n", self.total()));
        out
    }
}
