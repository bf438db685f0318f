//! Corpus throughput: the functions of a module are independent, so the
//! transforming subcommands (`construct`, `opt`, `destruct`) work on them in
//! parallel with rayon and print them in parallel, keeping module order in
//! their output and in their reports (the first failing function, in module
//! order, is the one reported).

use rayon::prelude::*;
use ssakit::ir::{Function, Module};
use ssakit::timing::{self, PassTimes};
use std::io::Write;

/// Runs `work` on every function, in parallel; results in module order,
/// each with the phases it timed ([`timing::collect`] on the thread that
/// ran it).
pub fn each_function<T: Send>(
    functions: &mut [Function],
    work: impl Fn(&mut Function) -> T + Sync + Send,
) -> Vec<(T, PassTimes)> {
    functions
        .par_iter_mut()
        .map(|f| timing::collect(|| work(f)))
        .collect()
}

/// Writes the module to standard output exactly as
/// [`ssakit::text::print_module`] would, printing the functions in parallel.
pub fn print_module(m: &Module) {
    let parts: Vec<String> = m
        .functions
        .par_iter()
        .map(ssakit::text::print_function)
        .collect();
    let mut out = std::io::stdout().lock();
    if out
        .write_all(ssakit::text::print_declarations(m).as_bytes())
        .is_err()
    {
        return;
    }
    for (i, p) in parts.iter().enumerate() {
        // A closed pipe (`ssakit construct f | head`) is not an error of ours.
        let sep: &[u8] = if i > 0 { b"\n" } else { b"" };
        if out
            .write_all(sep)
            .and_then(|_| out.write_all(p.as_bytes()))
            .is_err()
        {
            return;
        }
    }
    let _ = out.flush();
}

/// `--time-passes` on standard error: `wall: SECONDS`, the elapsed time of
/// the parallel loop over functions, then the phases summed over functions
/// ([`PassTimes::merge`]) and their `total`.
pub fn report_times(wall: f64, times: &PassTimes) {
    eprintln!("wall: {wall:.6}");
    eprint!("{}", times.render());
}
