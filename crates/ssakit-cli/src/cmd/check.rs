//! `ssakit check`: verify SSA and report the chapter's properties.

use crate::exit::{self, Failed};
use crate::input;
use crate::out::{Out, OutputArg};

/// Arguments of `ssakit check`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let crate::format::Input { src, parsed: p, .. } = crate::format::load(&a.input)?;
    let mut failed = false;
    for f in &p.module.functions {
        match ssakit::verify::verify(f) {
            Ok(r) => out.write_str(&r.render(f))?,
            Err(errs) => {
                failed = true;
                writeln!(
                    out,
                    "function {}: not valid SSA ({} error(s))",
                    f.name(),
                    errs.len()
                )?;
                // The report line before its errors, on a terminal too.
                out.flush()?;
                for e in errs.iter().take(20) {
                    input::report_ir(&src, Some(&p), f, e);
                }
            }
        }
    }
    out.finish()?;
    if failed {
        Err(Failed(exit::INPUT))
    } else {
        Ok(())
    }
}
