//! `ssakit destruct`: take a program out of SSA form.

use crate::exit::{self, Failed};
use crate::input;
use crate::json::{self, FormatArg};
use crate::out::{Out, OutputArg};
use crate::par;
use ssakit::destruct::{self, DestructOptions};
use ssakit::error::ErrorKind;

/// How destruction proceeds (shared with `ssakit explain`).
#[derive(clap::Args)]
pub struct ModeArgs {
    /// Do not split critical edges: put the copies at the end of the
    /// predecessors and, where needed, after the phis of the join block.
    #[arg(long)]
    pub no_split: bool,
    /// Do not coalesce: keep every copy the translation inserts.
    #[arg(long)]
    pub no_coalesce: bool,
    /// The chapter's direct destruction: refuse SSA that is not
    /// conventional, else rename every phi web to one variable and drop the
    /// phis (no copies, no splitting).
    #[arg(long, conflicts_with_all = ["no_split", "no_coalesce"])]
    pub conventional: bool,
}

impl ModeArgs {
    /// The library's options for these flags.
    pub fn options(&self) -> DestructOptions {
        DestructOptions {
            split: !self.no_split,
            coalesce: !self.no_coalesce,
            conventional: self.conventional,
        }
    }
}

/// Arguments of `ssakit destruct`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    #[command(flatten)]
    pub mode: ModeArgs,
    /// Print what was done (copies inserted, removed, remaining, ...) on
    /// standard error, per function.
    #[arg(long)]
    pub stats: bool,
    /// Print per-phase wall times on standard error.
    #[arg(long)]
    pub time_passes: bool,
    #[command(flatten)]
    pub format: FormatArg,
    #[command(flatten)]
    pub emit: crate::format::EmitArg,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let mut inp = crate::format::load(&a.input)?;
    let opts = a.mode.options();
    // Functions are independent: destruct them in parallel, then report in
    // module order.
    let mut module = std::mem::take(&mut inp.parsed.module);
    let start = std::time::Instant::now();
    let results = par::each_function(&mut module.functions, |f| destruct::destruct(f, &opts));
    let wall = start.elapsed().as_secs_f64();
    let mut times = ssakit::timing::PassTimes::default();
    let mut stats_text = String::new();
    let mut stats_list = Vec::new();
    for (k, (r, t)) in results.into_iter().enumerate() {
        times.merge(&t);
        match r {
            Ok(stats) => {
                stats_text.push_str(&format!("function {}:\n", module.functions[k].name()));
                for line in stats.render().lines() {
                    stats_text.push_str(&format!("  {line}\n"));
                }
                stats_list.push(json::FunctionStats {
                    function: module.functions[k].name().to_string(),
                    stats,
                });
            }
            Err(e) => {
                // The function was changed in place: report against the
                // program as written.
                let parsed = inp.reparse();
                input::report_ir_in(&inp.src, &parsed, k, &e);
                if e.kind == ErrorKind::NotSsa {
                    crate::errln!("help: `ssakit construct` puts a program into SSA form");
                } else if a.mode.conventional {
                    crate::errln!(
                        "help: without --conventional, copies are inserted to handle this"
                    );
                }
                return Err(Failed(exit::of_ir(e.kind)));
            }
        }
    }
    crate::format::emit(&module, &a.emit, &mut out)?;
    out.finish()?;
    json::report_passes(
        a.format,
        a.stats.then_some((stats_list, stats_text)),
        a.time_passes.then_some((wall, &times)),
    );
    input::skip_freeing((inp, module));
    Ok(())
}
