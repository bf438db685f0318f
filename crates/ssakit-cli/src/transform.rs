//! The per-function driver of the transforming subcommands (`construct`,
//! `opt`, `destruct`), written once: the module taken out of its input,
//! every function transformed in parallel ([`par::each_function`]), the
//! phases summed, the first failure in module order reported, then the
//! module printed (`--emit`) and the reports of `--stats` and
//! `--time-passes` written.

use crate::exit::{self, Failed};
use crate::format::{EmitArg, Input};
use crate::json::{self, FormatArg};
use crate::out::{Out, OutputArg};
use crate::{input, par};
use ssakit::error::IrError;
use ssakit::ir::{Function, Module};
use ssakit::timing::PassTimes;

/// The last options of `construct`, `opt` and `destruct`: the report's
/// format, the program's and where it goes.
#[derive(clap::Args)]
pub struct OutArgs {
    #[command(flatten)]
    pub format: FormatArg,
    #[command(flatten)]
    pub emit: EmitArg,
    #[command(flatten)]
    pub output: OutputArg,
}

/// Reports that the pass `what` (`construction`, `optimisation`) left
/// `f` invalid, one line per error: an internal error (exit 3).
pub fn invalid(what: &str, f: &Function, errs: &[IrError]) -> Failed {
    for e in errs {
        crate::stderr::errln!(
            "internal error: {what} produced invalid SSA: {}",
            e.describe(f)
        );
    }
    Failed(exit::INTERNAL)
}

/// What [`transform`] did: the module, each function's result in module
/// order, the wall time of the parallel loop and the phases summed over
/// functions.
pub struct Transformed<T> {
    /// The transformed module.
    pub module: Module,
    /// Each function's result, in module order.
    pub results: Vec<T>,
    /// The elapsed time of the loop over functions, in seconds.
    pub wall: f64,
    /// The phases timed, summed over functions.
    pub times: PassTimes,
}

/// Runs `work` on every function of `inp`'s module in parallel. The first
/// function (in module order) whose `work` fails goes to `fail` with its
/// index: `fail` reports it (against `inp`, the program as written, since
/// the function may be changed in place) and returns the exit. The text
/// is let go while the functions are transformed
/// ([`input::Source::release`])
/// and read again for `fail`.
pub fn transform<T: Send, E: Send>(
    inp: &mut Input,
    work: impl Fn(&mut Function) -> Result<T, E> + Sync + Send,
    fail: impl FnOnce(&Input, usize, &Function, E) -> Failed,
) -> Result<Transformed<T>, Failed> {
    let mut module = std::mem::take(&mut inp.parsed.module);
    // A failure is reported against the program parsed again
    // (`Input::reparse`): the spans (eight bytes per instruction and per
    // block) need not stay through the transformation and the printing.
    inp.parsed.spans = Vec::new();
    // Nor the text, if it can be read again from its file.
    inp.src.release();
    let start = std::time::Instant::now();
    let ran = par::each_function(&mut module.functions, work);
    let wall = start.elapsed().as_secs_f64();
    let mut times = PassTimes::default();
    let mut results = Vec::with_capacity(ran.len());
    for (k, (r, t)) in ran.into_iter().enumerate() {
        times.merge(&t);
        match r {
            Ok(v) => results.push(v),
            Err(e) => {
                inp.src.restore()?;
                return Err(fail(inp, k, &module.functions[k], e));
            }
        }
    }
    Ok(Transformed {
        module,
        results,
        wall,
        times,
    })
}

impl<T> Transformed<T> {
    /// Prints the module to `out` as `--emit` asks, then `stats` (as JSON
    /// with `--format json`, else its text) and, with `time_passes`, the
    /// times, on standard error; the memory goes with the process.
    pub fn finish<S: serde::Serialize>(
        self,
        mut inp: Input,
        args: &OutArgs,
        mut out: Out,
        stats: Option<(S, String)>,
        time_passes: bool,
    ) -> Result<(), Failed> {
        // Nothing reports against the text any more (read from standard
        // input, it is still here): its memory goes before the printer
        // takes its own.
        inp.src.text = String::new();
        crate::format::emit(&self.module, &args.emit, &mut out)?;
        out.finish()?;
        json::report_passes(
            args.format,
            stats,
            time_passes.then_some((self.wall, &self.times)),
        );
        input::skip_freeing((inp, self.module));
        Ok(())
    }
}
