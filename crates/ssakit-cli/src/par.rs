//! Corpus throughput: the functions of a module are independent, so the
//! transforming subcommands (`construct`, `opt`, `destruct`) work on them in
//! parallel with rayon and print them in parallel, keeping module order in
//! their output and in their reports (the first failing function, in module
//! order, is the one reported).

use crate::exit::Failed;
use crate::out::Out;
use rayon::prelude::*;
use ssakit::ir::{Function, Module};
use ssakit::timing::{self, PassTimes};

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

/// Writes the module to `out` exactly as [`ssakit::text::print_module`]
/// would, printing the functions in parallel.
pub fn print_module(m: &Module, out: &mut Out) -> Result<(), Failed> {
    let parts: Vec<String> = m
        .functions
        .par_iter()
        .map(ssakit::text::print_function)
        .collect();
    out.write_str(&ssakit::text::print_declarations(m))?;
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.write_str("\n")?;
        }
        out.write_str(p)?;
    }
    Ok(())
}

/// `--time-passes` on standard error: `wall: SECONDS`, the elapsed time of
/// the parallel loop over functions, then the phases summed over functions
/// ([`PassTimes::merge`]) and their `total`.
pub fn report_times(wall: f64, times: &PassTimes) {
    crate::errln!("wall: {wall:.6}");
    crate::err!("{}", times.render());
}
