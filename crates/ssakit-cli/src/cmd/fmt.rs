//! `ssakit fmt`: parse and print back in canonical form, comments kept
//! ([`ssakit::text::comments`]).

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
    let (src, p) = input::parse(&a.file)?;
    match ssakit::text::print_module_with_comments(&src.text, &p.module) {
        Ok(text) => out.write_str(&text)?,
        Err(d) => {
            input::report(&src, &d);
            return Err(Failed(crate::exit::INPUT));
        }
    }
    out.finish()
}
