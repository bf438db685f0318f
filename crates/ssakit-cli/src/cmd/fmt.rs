//! `ssakit fmt`: parse and print back in canonical form.

use crate::exit::Failed;
use crate::input;
use crate::out::Out;

/// Arguments of `ssakit fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// Input `.ssa` file, or `-` for standard input.
    pub file: String,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (_, p) = input::parse(&a.file)?;
    let mut out = Out::stdout();
    out.write_str(&ssakit::text::print_module(&p.module))?;
    out.finish()
}
