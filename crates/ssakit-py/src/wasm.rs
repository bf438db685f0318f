//! WebAssembly from Python: `lift_wasm` (every function body of a module
//! through `ssakit_wasm::lift`, in parallel) and `wasm_opt` (the module
//! round trip of `ssakit wasm opt`, `ssakit_wasm::rewrite`).

use crate::errors::{ir_error, value_error, wasm_error};
use crate::function::{PyFunction, Source};
use crate::options::flavor_options;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;
use ssakit_wasm::lift::{lift, ModuleSymbols};
use ssakit_wasm::module::{parse, to_binary};
use ssakit_wasm::rewrite::{optimize, OptLevel, OptOptions};
use std::sync::Arc;

/// Bytes given as `bytes`, or read from a path (`str` or `PathLike`).
fn input(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    let path: std::path::PathBuf = data.extract()?;
    std::fs::read(&path)
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display())))
}

/// Lifts every function body of a WebAssembly module (binary or text;
/// bytes or a path), each instruction with the byte offset of its
/// operator in the module; with `construct`, a flavour, each in SSA form.
#[pyfunction]
#[pyo3(signature = (data, *, construct=None))]
pub fn lift_wasm(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    construct: Option<&str>,
) -> PyResult<Vec<PyFunction>> {
    let bytes = input(data)?;
    let copts = construct.map(flavor_options).transpose()?;
    let r = py.detach(|| -> Result<Vec<_>, ssakit_wasm::WasmError> {
        let wasm = to_binary(&bytes)?;
        let m = parse(&wasm)?;
        let syms = ModuleSymbols::new(&m);
        m.bodies
            .par_iter()
            .map(|body| {
                let l = lift(&m, &syms, body)?;
                let mut f = l.func;
                let c = copts
                    .as_ref()
                    .map(|o| ssakit::construct::construct(&mut f, o));
                Ok((f, body.index, l.offsets, c.and_then(Result::err)))
            })
            .collect()
    });
    let lifted = r.map_err(|e| wasm_error(&e))?;
    lifted
        .into_iter()
        .map(|(f, index, offsets, err)| match err {
            Some(e) => Err(ir_error(&e, &f)),
            None => {
                let offsets = Arc::new(offsets);
                Ok(PyFunction::new(f, Source::Wasm { index, offsets }))
            }
        })
        .collect()
}

/// `ssakit wasm opt` on a module's bytes (or a path): each function
/// lifted, constructed, optimised (`passes`), destructed and emitted
/// again; the new module's bytes.
#[pyfunction]
#[pyo3(signature = (data, *, level=1, passes=None))]
pub fn wasm_opt<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    level: u8,
    passes: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = input(data)?;
    let level = match level {
        0 => OptLevel::O0,
        1 => OptLevel::O1,
        _ => return Err(value_error(format!("level {level}: 0 or 1"))),
    };
    let mut opts = OptOptions::at(level);
    if let Some(p) = passes {
        opts.passes = ssakit::opt::Pass::parse(p).map_err(|e| value_error(e.message))?;
    }
    let out = py
        .detach(|| {
            let wasm = to_binary(&bytes)?;
            optimize(&wasm, &opts)
        })
        .map_err(|e| wasm_error(&e))?;
    Ok(PyBytes::new(py, &out.bytes))
}
