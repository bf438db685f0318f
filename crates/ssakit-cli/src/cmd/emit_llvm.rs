//! `ssakit emit-llvm`: print a non-SSA program as LLVM 14 IR with one
//! `alloca` per variable, ready for `opt -passes=mem2reg`.

use crate::exit::{self, Failed};
use crate::out::Out;
use ssakit::backend::llvm::{emit_module_with, EmitOptions};

/// Arguments of `ssakit emit-llvm`: the program, where its result goes,
/// and whether to emit what LLVM's `i64` world cannot express.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub file: crate::format::FileArgs,
    /// For timing `mem2reg` on lifted programs, refuse no type or operation: every
    /// variable an `i64` slot whatever its type, every operation a call of
    /// an external `@op.NAME`; the output keeps the loads and stores but not
    /// the program's meaning
    #[arg(long)]
    pub opaque: bool,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.file.output)?;
    let inp = crate::format::load(&a.file.input)?;
    let parsed = &inp.parsed;
    let opts = EmitOptions { opaque: a.opaque };
    let ir = match emit_module_with(&parsed.module, &opts) {
        Ok(ir) => ir,
        Err(e) => {
            crate::stderr::errln!("error: {}: {e}", inp.src.name);
            return Err(Failed(exit::INPUT));
        }
    };
    out.write_str(&ir)?;
    out.finish()
}
