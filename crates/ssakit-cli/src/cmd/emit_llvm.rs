//! `ssakit emit-llvm`: print a non-SSA program as LLVM 14 IR with one
//! `alloca` per variable, ready for `opt -passes=mem2reg`.

use crate::input::{self, Failed, EXIT_INPUT};
use std::io::Write;

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
            eprintln!("error: {}: {e}", a.file);
            return Err(Failed(EXIT_INPUT));
        }
    };
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(ir.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the module: {e}");
            return Err(Failed(EXIT_INPUT));
        }
    }
    Ok(())
}
