//! # ssakit from Python
//!
//! The PyO3 extension module `ssakit` (abi3, CPython 3.9 and later),
//! built by maturin (`pip install ./crates/ssakit-py`; docs/python.md):
//! the `.ssa` text and Bril in and out ([`text`], [`builder`]); one
//! function's analyses, construction, passes, destruction, verifier and
//! def-use questions ([`function`], [`methods`], their keyword arguments
//! and answers in [`options`] and [`objects`]); WebAssembly and x86-64
//! lifted, with each instruction's address ([`wasm`], [`x86`]); errors as
//! exceptions with their location ([`errors`]).
//!
//! Objects are made lazily: a lifted function is the Rust function and
//! its side table until a question asks for more, so reading the phi
//! counts of every function of a binary costs what the CLI's `x86 stats`
//! costs (docs/python.md, measured).

mod builder;
mod errors;
mod function;
mod methods;
mod objects;
mod options;
mod text;
mod wasm;
mod x86;

use pyo3::prelude::*;

/// The Python module `ssakit`.
#[pymodule]
#[pyo3(name = "ssakit")]
fn ssakit_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<function::PyFunction>()?;
    m.add_class::<builder::Builder>()?;
    m.add_class::<x86::Elf>()?;
    m.add_function(wrap_pyfunction!(text::parse, m)?)?;
    m.add_function(wrap_pyfunction!(text::to_text, m)?)?;
    m.add_function(wrap_pyfunction!(text::parse_bril, m)?)?;
    m.add_function(wrap_pyfunction!(text::to_bril, m)?)?;
    m.add_function(wrap_pyfunction!(wasm::lift_wasm, m)?)?;
    m.add_function(wrap_pyfunction!(wasm::wasm_opt, m)?)?;
    m.add("SsakitError", py.get_type::<errors::SsakitError>())?;
    m.add("ParseError", py.get_type::<errors::ParseError>())?;
    m.add("IrError", py.get_type::<errors::IrError>())?;
    m.add("ElfError", py.get_type::<errors::ElfError>())?;
    m.add("WasmError", py.get_type::<errors::WasmError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
