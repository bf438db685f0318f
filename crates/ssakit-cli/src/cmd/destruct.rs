//! `ssakit destruct`: take a program out of SSA form.

use crate::exit::{self, Failed};
use crate::input;
use crate::json;
use crate::transform::{transform, OutArgs};
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
    pub out: OutArgs,
}

pub fn run(a: Args) -> Result<(), Failed> {
    // Destruction's passes each build and drop tables sized by the
    // function (see `heap`).
    crate::heap::keep_freed_memory();
    let (out, mut inp) = crate::format::open(&a.input, &a.out.output)?;
    let opts = a.mode.options();
    let mut done = transform(
        &mut inp,
        |f| destruct::destruct(f, &opts),
        |inp, k, _, e| {
            input::report_ir_in(&inp.src, &inp.reparse(), k, &e);
            if e.kind == ErrorKind::NotSsa {
                crate::stderr::errln!("help: `ssakit construct` puts a program into SSA form");
            } else if a.mode.conventional {
                crate::stderr::errln!(
                    "help: without --conventional, copies are inserted to handle this"
                );
            }
            Failed(exit::of_ir(e.kind))
        },
    )?;
    let mut stats_text = String::new();
    let mut stats_list = Vec::new();
    for (f, stats) in done
        .module
        .functions
        .iter()
        .zip(std::mem::take(&mut done.results))
    {
        stats_text.push_str(&format!("function {}:\n", f.name()));
        for line in stats.render().lines() {
            stats_text.push_str(&format!("  {line}\n"));
        }
        stats_list.push(json::FunctionStats {
            function: f.name().to_string(),
            stats,
        });
    }
    let stats = a.stats.then_some((stats_list, stats_text));
    done.finish(inp, &a.out, out, stats, a.time_passes)
}
