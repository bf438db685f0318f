//! `ssakit emit-llvm`: print a non-SSA program as LLVM 14 IR with one
//! `alloca` per variable, ready for `opt -passes=mem2reg`.

use crate::exit::{self, Failed};
use crate::input;
use crate::out::Out;

/// Arguments of `ssakit emit-llvm`.
#[derive(clap::Args)]
pub struct Args {
    /// Input `.ssa` file (not in SSA form), or `-` for standard input.
    pub file: String,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (_, parsed) = input::parse(&a.file)?;
    let ir = match ssakit::backend::llvm::emit_module(&parsed.module) {
        Ok(ir) => ir,
        Err(e) => {
            crate::errln!("error: {}: {e}", a.file);
            return Err(Failed(exit::INPUT));
        }
    };
    let mut out = Out::stdout();
    out.write_str(&ir)?;
    out.finish()
}
