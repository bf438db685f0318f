//! `ssakit emit-llvm`: print a non-SSA program as LLVM 14 IR with one
//! `alloca` per variable, ready for `opt -passes=mem2reg`.

use crate::exit::{self, Failed};
use crate::out::Out;

/// Arguments of `ssakit emit-llvm`: the program and where its result goes.
pub type Args = crate::format::FileArgs;

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let inp = crate::format::load(&a.input)?;
    let parsed = &inp.parsed;
    let ir = match ssakit::backend::llvm::emit_module(&parsed.module) {
        Ok(ir) => ir,
        Err(e) => {
            crate::errln!("error: {}: {e}", inp.src.name);
            return Err(Failed(exit::INPUT));
        }
    };
    out.write_str(&ir)?;
    out.finish()
}
