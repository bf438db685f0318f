//! `ssakit opt`: run optimisation passes on SSA.

use crate::exit::{self, Failed};
use crate::input;
use crate::passes::{Passes, PassesParser};
use crate::transform::{transform, OutArgs};
use ssakit::opt;

/// Arguments of `ssakit opt`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    /// Comma-separated passes, run in order, repeats allowed:
    /// `copy-prop`, `const-prop`, `fold`, `dce`.
    #[arg(long, value_name = "LIST", value_parser = PassesParser::default())]
    pub passes: Passes,
    /// Print per-phase wall times on standard error.
    #[arg(long)]
    pub time_passes: bool,
    /// Print what the passes did on standard error.
    #[arg(long)]
    pub stats: bool,
    /// Verify the result too (the input is always verified; debug builds
    /// verify after every pass).
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub out: OutArgs,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let passes = &a.passes.0;
    let (out, mut inp) = crate::format::open(&a.input, &a.out.output)?;
    // Functions are independent: verify, optimise (and, with --verify,
    // verify again) in parallel, then report in module order. The passes
    // preserve valid SSA (the property tests check it on thousands of
    // programs), so a second check costs as much as the first and finds
    // only internal errors.
    enum Fail {
        Input(Vec<ssakit::error::IrError>),
        Pass(ssakit::error::IrError),
        Invalid(Vec<ssakit::error::IrError>),
    }
    let verify = || ssakit::timing::phase("verification");
    let done = transform(
        &mut inp,
        |f| {
            {
                let _t = verify();
                ssakit::verify::verify_valid(f).map_err(Fail::Input)?;
            }
            let stats = opt::run_passes(f, passes).map_err(Fail::Pass)?;
            if a.verify {
                let _t = verify();
                ssakit::verify::verify_valid(f).map_err(Fail::Invalid)?;
            }
            Ok(stats)
        },
        |inp, k, f, fail| match fail {
            Fail::Input(errs) => {
                crate::stderr::errln!(
                    "error: function `{}` is not valid SSA ({} error(s)); `ssakit construct` puts a program into SSA form",
                    f.name(),
                    errs.len()
                );
                // Verification changed nothing, but report against the
                // program as written all the same.
                let parsed = inp.reparse();
                for e in errs.iter().take(20) {
                    input::report_ir_in(&inp.src, &parsed, k, e);
                }
                Failed(exit::INPUT)
            }
            Fail::Pass(e) => {
                crate::stderr::errln!("internal error: {}", e.describe(f));
                Failed(exit::INTERNAL)
            }
            Fail::Invalid(errs) => crate::transform::invalid("optimisation", f, &errs),
        },
    )?;
    let mut stats = opt::Stats::default();
    for s in &done.results {
        stats.add(s);
    }
    let stats = a.stats.then(|| (stats, stats.render()));
    done.finish(inp, &a.out, out, stats, a.time_passes)
}
