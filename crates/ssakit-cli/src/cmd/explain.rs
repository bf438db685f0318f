//! `ssakit explain`: every phase of construction, optimisation and
//! destruction of one function side by side in one self-contained HTML
//! page (`ssakit::backend::explain`).

use crate::cmd::construct::{FlavorArg, UndefArg};
use crate::exit::{self, Failed};
use crate::input;
use crate::out::{Out, OutputArg};
use ssakit::backend::explain;
use ssakit::construct::{self, Flavor, UndefMode};
use ssakit::destruct::DestructOptions;
use ssakit::opt::Pass;

/// Arguments of `ssakit explain`.
#[derive(clap::Args)]
pub struct Args {
    /// Input `.ssa` file, or `-` for standard input: a program not in SSA
    /// form (all phases), or in SSA form (from the optimisations on).
    pub file: String,
    /// The function shown (default: `main`, else the first).
    #[arg(long, visible_alias = "entry", value_name = "NAME")]
    pub function: Option<String>,
    /// SSA flavour of construction.
    #[arg(long, value_enum, default_value = "minimal")]
    pub flavor: FlavorArg,
    /// What a use reached by no definition (⊥) becomes.
    #[arg(long, value_enum, default_value = "operand")]
    pub undef: UndefArg,
    /// Comma-separated optimisation passes, one column each (`copy-prop`,
    /// `const-prop`, `dce`), or `none`.
    #[arg(long, value_name = "LIST", default_value = "copy-prop,dce")]
    pub passes: String,
    /// The variable whose phi-insertion and renaming traces are shown
    /// (default: the first variable that gets a phi).
    #[arg(long, value_name = "VAR")]
    pub trace: Option<String>,
    /// Do not split critical edges in destruction.
    #[arg(long)]
    pub no_split: bool,
    /// Do not coalesce in destruction.
    #[arg(long)]
    pub no_coalesce: bool,
    /// The chapter's direct destruction of conventional SSA.
    #[arg(long, conflicts_with_all = ["no_split", "no_coalesce"])]
    pub conventional: bool,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let passes = if a.passes.trim() == "none" {
        Vec::new()
    } else {
        Pass::parse(&a.passes).map_err(|e| {
            crate::errln!("error: --passes: {e}");
            Failed(exit::INPUT)
        })?
    };
    let (src, parsed) = input::parse(&a.file)?;
    let f = input::entry(&parsed.module, a.function.as_deref())?;
    let opts = explain::Options {
        construct: construct::Options {
            flavor: match a.flavor {
                FlavorArg::Minimal => Flavor::Minimal,
                FlavorArg::SemiPruned => Flavor::SemiPruned,
                FlavorArg::Pruned => Flavor::Pruned,
            },
            undef: match a.undef {
                UndefArg::Operand => UndefMode::Operand,
                UndefArg::Entry => UndefMode::EntryDef,
                UndefArg::Local => UndefMode::Local,
            },
            ..Default::default()
        },
        passes,
        destruct: DestructOptions {
            split: !a.no_split,
            coalesce: !a.no_coalesce,
            conventional: a.conventional,
        },
        trace: a.trace.clone(),
    };
    let explained = explain::phases(f, &opts).map_err(|e| {
        input::report_ir(&src, Some(&parsed), f, &e);
        Failed(exit::INPUT)
    })?;
    out.write_str(&explain::html_page(&explained))?;
    out.finish()
}
