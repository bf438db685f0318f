//! `ssakit explain`: every phase of construction, optimisation and
//! destruction of one function side by side in one self-contained HTML
//! page (`ssakit::backend::explain`).

use crate::cmd::construct::{FlavorArg, UndefArg};
use crate::cmd::destruct::ModeArgs;
use crate::exit::{self, Failed};
use crate::input;
use crate::out::OutputArg;
use crate::passes::{Passes, PassesParser};
use ssakit::backend::explain;
use ssakit::construct;

/// Arguments of `ssakit explain`.
#[derive(clap::Args)]
pub struct Args {
    // The input (`.ssa` or Bril): a program not in SSA form (all phases),
    // or in SSA form (from the optimisations on).
    #[command(flatten)]
    pub input: crate::format::InputArg,
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
    #[arg(
        long,
        value_name = "LIST",
        default_value = "copy-prop,dce",
        value_parser = PassesParser::OR_NONE
    )]
    pub passes: Passes,
    /// The variable whose phi-insertion and renaming traces are shown
    /// (default: the first variable that gets a phi).
    #[arg(long, value_name = "VAR")]
    pub trace: Option<String>,
    #[command(flatten)]
    pub destruct: ModeArgs,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (mut out, inp) = crate::format::open(&a.input, &a.output)?;
    let crate::format::Input { src, parsed, .. } = inp;
    let f = input::entry(&parsed.module, a.function.as_deref())?;
    let opts = explain::Options {
        construct: construct::Options {
            flavor: a.flavor.into(),
            undef: a.undef.into(),
            ..Default::default()
        },
        passes: a.passes.0,
        destruct: a.destruct.options(),
        trace: a.trace.clone(),
    };
    let explained = explain::phases(f, &opts).map_err(|e| {
        input::report_ir(&src, Some(&parsed), f, &e);
        Failed(exit::of_ir(e.kind))
    })?;
    explain::write_page(&explained, &mut |part| out.write_str(part))?;
    out.finish()
}
