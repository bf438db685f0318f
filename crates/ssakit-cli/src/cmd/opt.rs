//! `ssakit opt`: run optimisation passes on SSA.

use crate::input::{self, Failed, EXIT_INPUT};
use ssakit::opt::{self, Pass};

/// Exit code for a pass that produced invalid SSA (a bug in ssakit).
const EXIT_INTERNAL: i32 = 3;

/// Arguments of `ssakit opt`.
#[derive(clap::Args)]
pub struct Args {
    /// Input `.ssa` file in SSA form, or `-` for standard input.
    pub file: String,
    /// Comma-separated passes, run in order, repeats allowed:
    /// `copy-prop`, `const-prop`, `dce`.
    #[arg(long, value_name = "LIST")]
    pub passes: String,
    /// Print per-phase wall times on standard error.
    #[arg(long)]
    pub time_passes: bool,
    /// Print what the passes did on standard error.
    #[arg(long)]
    pub stats: bool,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let passes = match Pass::parse(&a.passes) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --passes: {e}");
            return Err(Failed(EXIT_INPUT));
        }
    };
    let (src, parsed) = input::parse(&a.file)?;
    let mut module = parsed.module.clone();
    let mut times = ssakit::timing::PassTimes::default();
    let mut stats = opt::Stats::default();
    for f in module.functions.iter_mut() {
        if let Err(errs) = times.time("verification", || ssakit::verify::verify_valid(f)) {
            eprintln!(
                "error: function `{}` is not valid SSA ({} error(s)); `ssakit construct` puts a program into SSA form",
                f.name,
                errs.len()
            );
            for e in errs.iter().take(20) {
                input::report_ir(&src, Some(&parsed), f, e);
            }
            return Err(Failed(EXIT_INPUT));
        }
        match opt::run_passes(f, &passes, &mut times) {
            Ok(s) => stats.add(&s),
            Err(e) => {
                eprintln!("internal error: {}", e.describe(f));
                return Err(Failed(EXIT_INTERNAL));
            }
        }
        if let Err(errs) = times.time("verification", || ssakit::verify::verify_valid(f)) {
            for e in &errs {
                eprintln!(
                    "internal error: optimisation produced invalid SSA: {}",
                    e.describe(f)
                );
            }
            return Err(Failed(EXIT_INTERNAL));
        }
    }
    print!("{}", ssakit::text::print_module(&module));
    if a.stats {
        eprint!("{}", stats.render());
    }
    if a.time_passes {
        eprint!("{}", times.render());
    }
    Ok(())
}
