//! `ssakit emit-wasm`: a `.ssa` program as a WebAssembly module
//! (`ssakit_wasm::program`): destructed if in SSA, made reducible with
//! dispatch loops, emitted with structured control flow.

use crate::exit::{self, Failed};
use crate::out::Out;

/// Arguments of `ssakit emit-wasm`: the program and where its result goes.
pub type Args = crate::format::FileArgs;

pub fn run(a: Args) -> Result<(), Failed> {
    a.output.refuse_binary_to_terminal()?;
    let inp = crate::format::load(&a.input)?;
    let wasm = match ssakit_wasm::program::emit_program(&inp.parsed.module) {
        Ok((w, _)) => w,
        Err(e) => {
            crate::stderr::errln!("error: {}: {e}", inp.src.name);
            return Err(Failed(exit::INPUT));
        }
    };
    let mut out = Out::open(&a.output)?;
    out.write_bytes(&wasm)?;
    out.finish()
}
