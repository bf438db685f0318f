//! What `ssakit wasm stats` and `ssakit x86 stats` share, with the
//! `--construct` of their `lift`: construction as they run it (verified),
//! the progress bar, and the rows of the passes and copies in their
//! tables.

use crate::cmd::construct::{to_options, FlavorArg, IdfArg, RenamingArg, UndefArg};
use ssakit::construct::Options;
use ssakit::ir::Function;
use ssakit::opt::Pass;
use std::io::IsTerminal;

/// Construction of `flavor` as the stats commands run it: `undef` as an
/// operand, the linear IDF, renaming by reachingDef.
pub(crate) fn construct_options(flavor: FlavorArg) -> Options {
    to_options(
        flavor,
        UndefArg::Operand,
        IdfArg::Linear,
        RenamingArg::ReachingDef,
    )
}

/// Constructs `f` and verifies the result; the message of the first
/// failure (each command says which function and stage).
pub(crate) fn construct_verified(f: &mut Function, opts: &Options) -> Result<(), String> {
    ssakit::construct::construct(f, opts).map_err(|e| e.describe(f))?;
    ssakit::verify::verify_valid(f)
        .map_err(|errs| errs.first().map(|e| e.describe(f)).unwrap_or_default())
}

/// A bar of `len` functions on standard error, drawn only when it is a
/// terminal (never in tests or pipes).
pub(crate) struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// A bar at 0 of `len`.
    pub(crate) fn new(len: u64) -> Progress {
        Progress(std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(len);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} functions {elapsed}")
                    .expect("valid template"),
            );
            bar
        }))
    }

    /// One more function done.
    pub(crate) fn inc(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }

    /// Erases the bar.
    pub(crate) fn finish(self) {
        if let Some(b) = self.0 {
            b.finish_and_clear();
        }
    }
}

/// The rows `passes` (when some ran) and `copies after destruct` (when
/// destruction ran).
pub(crate) fn push_pass_rows(
    r: &mut Vec<(String, String)>,
    passes: &[Pass],
    copies: Option<usize>,
) {
    if !passes.is_empty() {
        let names: Vec<&str> = passes.iter().map(|p| p.name()).collect();
        r.push(("passes".into(), names.join(",")));
    }
    if let Some(c) = copies {
        r.push(("copies after destruct".into(), c.to_string()));
    }
}

impl crate::cmd::wasm::Ran {
    /// The tail of a report whose pipeline took `times` seconds to
    /// verify, optimise and destruct: the passes' time when `passes` ran
    /// some, destruction's when `destruct`.
    pub(crate) fn new(
        [verify, opt, destruct_time]: [f64; 3],
        passes: &[Pass],
        destruct: bool,
        wall: f64,
        failures: usize,
    ) -> Self {
        crate::cmd::wasm::Ran {
            verify,
            passes: (!passes.is_empty()).then_some(opt),
            destruct: destruct.then_some(destruct_time),
            wall,
            failures,
        }
    }
}
