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

    /// Adds another function's record to this one, phase by phase: the
    /// k-th run of a phase in `other` is added to the k-th run of the same
    /// phase here (appended if there is none), so a module whose functions
    /// all ran the same passes reports them once each, summed, in order.
    pub fn merge(&mut self, other: &PassTimes) {
        let mut seen: Vec<(&'static str, usize)> = Vec::new();
        for &(name, secs) in &other.phases {
            let k = match seen.iter_mut().find(|(n, _)| *n == name) {
                Some((_, k)) => {
                    *k += 1;
                    *k
                }
                None => {
                    seen.push((name, 0));
                    0
                }
            };
            match self.phases.iter_mut().filter(|(n, _)| *n == name).nth(k) {
                Some(slot) => slot.1 += secs,
                None => self.phases.push((name, secs)),
            }
        }
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

#[cfg(test)]
mod tests {
    use super::PassTimes;

    #[test]
    fn merge_sums_the_kth_run_of_each_phase() {
        let rec = |p: &[(&'static str, f64)]| PassTimes { phases: p.to_vec() };
        let mut a = rec(&[("dce", 1.0), ("copy-prop", 2.0), ("dce", 4.0)]);
        a.merge(&rec(&[("dce", 8.0), ("dce", 16.0), ("verification", 32.0)]));
        a.merge(&rec(&[("copy-prop", 64.0), ("dce", 128.0)]));
        assert_eq!(
            a.phases,
            [
                ("dce", 137.0),
                ("copy-prop", 66.0),
                ("dce", 20.0),
                ("verification", 32.0)
            ]
        );
        assert_eq!(a.total(), 255.0);
    }
}
