//! `ssakit emit-llvm`: print a non-SSA program as LLVM 14 IR with one
//! `alloca` per variable, ready for `opt -passes=mem2reg`.

use crate::exit::{self, Failed};
use crate::input;
use crate::out::{Out, OutputArg};

/// Arguments of `ssakit emit-llvm`.
#[derive(clap::Args)]
pub struct Args {
    /// Input `.ssa` file (not in SSA form), or `-` for standard input.
    pub file: String,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let (_, parsed) = input::parse(&a.file)?;
    let ir = match ssakit::backend::llvm::emit_module(&parsed.module) {
        Ok(ir) => ir,
        Err(e) => {
            crate::errln!("error: {}: {e}", a.file);
            return Err(Failed(exit::INPUT));
        }
    };
    out.write_str(&ir)?;
    out.finish()
}
