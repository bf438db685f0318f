//! `ssakit fmt`: parse and print back in canonical form.

use crate::exit::Failed;
use crate::input;
use crate::out::{Out, OutputArg};

/// Arguments of `ssakit fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// Input `.ssa` file, or `-` for standard input.
    pub file: String,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let (_, p) = input::parse(&a.file)?;
    out.write_str(&ssakit::text::print_module(&p.module))?;
    out.finish()
}
