//! `ssakit fmt`: parse and print back in canonical form.

use crate::exit::Failed;
use crate::out::{Out, OutputArg};

/// Arguments of `ssakit fmt`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    #[command(flatten)]
    pub emit: crate::format::EmitArg,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let p = crate::format::load(&a.input)?.parsed;
    crate::format::emit(&p.module, &a.emit, &mut out)?;
    out.finish()
}
