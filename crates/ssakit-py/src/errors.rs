//! The library's errors as Python exceptions, each with its kind and its
//! location: `SsakitError` (every one, with `kind` and `message`), then
//! `ParseError` (`line`, `column`, `offset` in the `.ssa` or Bril text),
//! `IrError` (`function`, `block`: a function the library refuses, or
//! that a pass left invalid), `ElfError` (`offset` in the ELF file) and
//! `WasmError` (`offset` in the module, `function` index). Unknown names
//! (a block, a value, a function) are Python's `KeyError`, bad option
//! values `ValueError`.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use ssakit::error::IrError as RsIrError;
use ssakit::ir::Function;
use ssakit::text::Diagnostic;
use ssakit_wasm::WasmError as RsWasmError;
use ssakit_x86::X86Error;

create_exception!(
    ssakit,
    SsakitError,
    PyException,
    "Every error of ssakit: `kind` (a word) and `message`."
);
create_exception!(
    ssakit,
    ParseError,
    SsakitError,
    "Text that does not parse: `line`, `column` (1-based) and `offset` (bytes)."
);
create_exception!(
    ssakit,
    IrError,
    SsakitError,
    "A function refused or left invalid: `function`, `block` (or None)."
);
create_exception!(
    ssakit,
    ElfError,
    SsakitError,
    "An ELF file that cannot be read: `offset` in the file (or None)."
);
create_exception!(
    ssakit,
    WasmError,
    SsakitError,
    "A WebAssembly module that cannot be read or lifted: `offset`, `function`."
);

/// An exception of type `T` with `kind`, `message` and the pairs of
/// `attrs` as attributes.
fn raise<T: pyo3::PyTypeInfo>(
    kind: &str,
    message: String,
    attrs: &[(&str, Option<i64>)],
    names: &[(&str, Option<String>)],
) -> PyErr {
    Python::attach(|py| {
        let err = PyErr::new::<T, _>(message.clone());
        let v = err.value(py);
        let set = || -> PyResult<()> {
            v.setattr("kind", kind)?;
            v.setattr("message", &message)?;
            for (k, x) in attrs {
                v.setattr(*k, *x)?;
            }
            for (k, x) in names {
                v.setattr(*k, x.clone())?;
            }
            Ok(())
        };
        match set() {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// A `.ssa` parse error, located in `src`.
pub fn parse_error(d: &Diagnostic, src: &str) -> PyErr {
    let (line, col) = ssakit::text::diag::line_col(src, d.span.start.min(src.len()));
    raise::<ParseError>(
        "parse",
        format!("{}:{}: {}", line, col, d.message),
        &[
            ("line", Some(line as i64)),
            ("column", Some(col as i64)),
            ("offset", Some(d.span.start as i64)),
        ],
        &[],
    )
}

/// A Bril error: a parse error in the text form, else located by
/// function and instruction index.
pub fn bril_error(e: &ssakit::bril::Error, src: &str) -> PyErr {
    match e {
        ssakit::bril::Error::Text(d) => parse_error(d, src),
        ssakit::bril::Error::At {
            function, index, ..
        } => raise::<ParseError>(
            "bril",
            e.describe(),
            &[
                ("line", None),
                ("column", None),
                ("offset", None),
                ("index", index.map(|i| i as i64)),
            ],
            &[("function", function.clone())],
        ),
    }
}

/// The word for an [`RsIrError`]'s kind.
fn ir_kind(e: &RsIrError) -> &'static str {
    use ssakit::error::ErrorKind as K;
    match e.kind {
        K::Input => "input",
        K::NotSsa => "not-ssa",
        K::NotConventional => "not-conventional",
        K::ConstantConflict => "constant-conflict",
        K::Options => "options",
        K::Internal => "internal",
    }
}

/// An error of function `f`.
pub fn ir_error(e: &RsIrError, f: &Function) -> PyErr {
    let block = e.block.map(|b| f.block_name(b).to_string());
    raise::<IrError>(
        ir_kind(e),
        e.describe(f),
        &[],
        &[("function", Some(e.func.clone())), ("block", block)],
    )
}

/// The errors of a verification: the first raised, all in `errors`.
pub fn ir_errors(errs: &[RsIrError], f: &Function) -> PyErr {
    let first = ir_error(&errs[0], f);
    Python::attach(|py| {
        let all: Vec<String> = errs.iter().map(|e| e.describe(f)).collect();
        match first.value(py).setattr("errors", all) {
            Ok(()) => first,
            Err(e) => e,
        }
    })
}

/// An ELF error, `name` the file.
pub fn elf_error(e: &X86Error, name: &str) -> PyErr {
    raise::<ElfError>(
        "elf",
        format!("{name}: {e}"),
        &[("offset", e.offset.map(|o| o as i64))],
        &[],
    )
}

/// A WebAssembly error.
pub fn wasm_error(e: &RsWasmError) -> PyErr {
    use ssakit_wasm::error::ErrorKind as K;
    let kind = match e.kind {
        K::Input => "input",
        K::Unsupported => "unsupported",
        K::Options => "options",
        K::Internal => "internal",
    };
    raise::<WasmError>(
        kind,
        e.to_string(),
        &[
            ("offset", e.offset.map(|o| o as i64)),
            ("function", e.func.map(i64::from)),
        ],
        &[],
    )
}

/// `KeyError(what)`.
pub fn key_error(what: String) -> PyErr {
    pyo3::exceptions::PyKeyError::new_err(what)
}

/// `ValueError(what)`.
pub fn value_error(what: String) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(what)
}
