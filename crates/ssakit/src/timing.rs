//! Per-phase wall-clock times, for `--time-passes` (as LLVM's
//! `-time-passes` and rustc's `-Z time-passes`).
//!
//! A pass marks a phase with a drop guard, as Cranelift's `timing` module
//! does, instead of threading a record through its arguments:
//!
//! ```
//! use ssakit::timing;
//! let ((), times) = timing::collect(|| {
//!     let _t = timing::phase("renaming");
//!     // ... the phase's work ...
//! });
//! assert_eq!(times.phases[0].0, "renaming");
//! ```
//!
//! Times are recorded per thread, only inside [`collect`]: a function's
//! passes run on one thread, so the command line collects each function's
//! record where it runs and [`PassTimes::merge`]s them. Outside `collect`
//! a guard costs one thread-local read.

use std::cell::RefCell;
use std::time::Instant;

/// Named phase durations, in the order they ran.
///
/// ```
/// use ssakit::timing::PassTimes;
/// let t = PassTimes { phases: vec![("parse", 0.25), ("verify", 0.5)] };
/// assert_eq!(t.phases[1].0, "verify");
/// assert_eq!(t.total(), 0.75);
/// ```
#[derive(Clone, Debug, Default)]
pub struct PassTimes {
    /// `(phase, seconds)` pairs; a phase run twice appears twice.
    pub phases: Vec<(&'static str, f64)>,
}

/// The phases a record made by [`collect`] has room for at its start.
const PHASES_RESERVED: usize = 16;

thread_local! {
    static RECORD: RefCell<Option<PassTimes>> = const { RefCell::new(None) };
}

/// Times the phase `name` until the guard is dropped.
///
/// ```
/// use ssakit::timing::{collect, phase};
/// let ((), times) = collect(|| {
///     let _g = phase("work");
/// });
/// assert_eq!(times.phases.len(), 1);
/// assert_eq!(times.phases[0].0, "work");
/// // Outside `collect` nothing is recorded (and nothing is timed).
/// drop(phase("ignored"));
/// ```
#[must_use = "the phase ends when the guard is dropped"]
pub fn phase(name: &'static str) -> PhaseGuard {
    let recording = RECORD.with(|r| r.borrow().is_some());
    PhaseGuard {
        name,
        start: recording.then(Instant::now),
    }
}

/// The guard of [`phase`]: records the phase's duration when dropped.
///
/// ```
/// use ssakit::timing::{collect, phase};
/// let (_, times) = collect(|| {
///     let g = phase("a");
///     drop(g); // "a" ends here
///     let _b = phase("b");
/// });
/// let names: Vec<_> = times.phases.iter().map(|p| p.0).collect();
/// assert_eq!(names, ["a", "b"]);
/// ```
#[derive(Debug)]
pub struct PhaseGuard {
    name: &'static str,
    start: Option<Instant>,
}

impl Drop for PhaseGuard {
    fn drop(&mut self) {
        if let Some(start) = self.start {
            let secs = start.elapsed().as_secs_f64();
            RECORD.with(|r| {
                if let Some(rec) = r.borrow_mut().as_mut() {
                    rec.phases.push((self.name, secs));
                }
            });
        }
    }
}

/// Runs `f` and returns, with its result, the phases it timed (on this
/// thread). Nested calls each get their own phases.
///
/// ```
/// use ssakit::timing::{collect, phase};
/// let (v, outer) = collect(|| {
///     let _o = phase("outer");
///     let (_, inner) = collect(|| drop(phase("inner")));
///     assert_eq!(inner.phases.len(), 1);
///     40 + 2
/// });
/// assert_eq!(v, 42);
/// assert_eq!(outer.phases.len(), 1); // "inner" went to the nested call
/// assert!(outer.phases[0].1 >= 0.0);
/// ```
pub fn collect<T>(f: impl FnOnce() -> T) -> (T, PassTimes) {
    // Room for the phases of one function through the pipeline (about a
    // dozen): the record is not grown phase by phase.
    let record = PassTimes {
        phases: Vec::with_capacity(PHASES_RESERVED),
    };
    let outer = RECORD.with(|r| r.borrow_mut().replace(record));
    // Put the outer record back even if `f` unwinds.
    struct Restore(Option<Option<PassTimes>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(outer) = self.0.take() {
                RECORD.with(|r| *r.borrow_mut() = outer);
            }
        }
    }
    let mut restore = Restore(Some(outer));
    let out = f();
    let mine = RECORD
        .with(|r| r.borrow_mut().take())
        .expect("collect's record is in place");
    let outer = restore.0.take().expect("restored once");
    RECORD.with(|r| *r.borrow_mut() = outer);
    (out, mine)
}

impl PassTimes {
    /// Total seconds over all phases.
    ///
    /// ```
    /// use ssakit::timing::PassTimes;
    /// assert_eq!(PassTimes::default().total(), 0.0);
    /// assert_eq!(PassTimes { phases: vec![("x", 1.0), ("x", 2.0)] }.total(), 3.0);
    /// ```
    pub fn total(&self) -> f64 {
        // From +0.0: a sum of no `f64` is -0.0, which reports print as
        // `-0.0`.
        self.phases.iter().fold(0.0, |s, p| s + p.1)
    }

    /// Seconds spent in the phase `name`, over all its runs (0 if it did
    /// not run).
    ///
    /// ```
    /// use ssakit::timing::PassTimes;
    /// let t = PassTimes { phases: vec![("verify", 1.0), ("dce", 2.0), ("verify", 0.5)] };
    /// assert_eq!((t.seconds("verify"), t.seconds("opt")), (1.5, 0.0));
    /// // Not -0.0, which JSON would print as `-0.0`.
    /// assert!(t.seconds("opt").is_sign_positive());
    /// ```
    pub fn seconds(&self, name: &str) -> f64 {
        self.phases
            .iter()
            .filter(|p| p.0 == name)
            .fold(0.0, |s, p| s + p.1)
    }

    /// Adds another function's record to this one, phase by phase: the
    /// k-th run of a phase in `other` is added to the k-th run of the same
    /// phase here (appended if there is none), so a module whose functions
    /// all ran the same passes reports them once each, summed, in order.
    ///
    /// ```
    /// use ssakit::timing::PassTimes;
    /// let mut a = PassTimes { phases: vec![("dce", 1.0), ("dce", 2.0)] };
    /// a.merge(&PassTimes { phases: vec![("dce", 0.5), ("dce", 0.25), ("dce", 4.0)] });
    /// assert_eq!(a.phases, [("dce", 1.5), ("dce", 2.25), ("dce", 4.0)]);
    /// ```
    pub fn merge(&mut self, other: &PassTimes) {
        let mut seen: Vec<(&'static str, usize)> = Vec::with_capacity(other.phases.len());
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
    ///
    /// ```
    /// use ssakit::timing::PassTimes;
    /// let t = PassTimes { phases: vec![("parse", 0.5)] };
    /// assert_eq!(t.render(), "parse: 0.500000\ntotal: 0.500000\n");
    /// ```
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
    use super::{collect, phase, PassTimes};

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

    #[test]
    fn guards_record_in_order_and_nested_collects_are_separate() {
        let (inner, outer) = collect(|| {
            let _a = phase("a");
            let ((), inner) = collect(|| {
                let _b = phase("b");
            });
            drop(_a);
            let _c = phase("c");
            inner
        });
        let names = |t: &PassTimes| t.phases.iter().map(|p| p.0).collect::<Vec<_>>();
        assert_eq!(names(&inner), ["b"]);
        assert_eq!(names(&outer), ["a", "c"]);
        // Outside collect nothing is recorded and nothing fails.
        drop(phase("unrecorded"));
    }
}
