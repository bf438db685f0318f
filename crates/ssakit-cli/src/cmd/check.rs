//! `ssakit check`: verify SSA and report the chapter's properties.

use crate::input::{self, Failed, EXIT_INPUT};

/// Arguments of `ssakit check`.
#[derive(clap::Args)]
pub struct Args {
    /// Input `.ssa` file, or `-` for standard input.
    pub file: String,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (src, p) = input::parse(&a.file)?;
    let mut failed = false;
    for f in &p.module.functions {
        match ssakit::verify::verify(f) {
            Ok(r) => print!("{}", r.render(f)),
            Err(errs) => {
                failed = true;
                println!(
                    "function {}: not valid SSA ({} error(s))",
                    f.name(),
                    errs.len()
                );
                for e in errs.iter().take(20) {
                    input::report_ir(&src, Some(&p), f, e);
                }
            }
        }
    }
    if failed {
        Err(Failed(EXIT_INPUT))
    } else {
        Ok(())
    }
}
