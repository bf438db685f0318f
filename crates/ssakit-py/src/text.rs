//! Programs in and out as text: the `.ssa` format (`ssakit::text`) and
//! Bril (`ssakit::bril`, both its text and its JSON form).

use crate::errors::{bril_error, parse_error, value_error};
use crate::function::{PyFunction, Source};
use pyo3::prelude::*;
use ssakit::bril::{SsaForm, Syntax};
use ssakit::ir::Module;

/// The module of `functions`, copied.
fn module_of(functions: &[PyRef<'_, PyFunction>]) -> Module {
    Module {
        functions: functions.iter().map(|f| f.func().clone()).collect(),
    }
}

fn wrap(m: Module) -> Vec<PyFunction> {
    m.functions
        .into_iter()
        .map(|f| PyFunction::new(f, Source::Text))
        .collect()
}

/// The functions of a `.ssa` program (`ParseError` with its line and
/// column).
#[pyfunction]
pub fn parse(py: Python<'_>, text: &str) -> PyResult<Vec<PyFunction>> {
    let m = py
        .detach(|| ssakit::text::parse_module(text))
        .map_err(|d| parse_error(&d, text))?;
    Ok(wrap(m))
}

/// Functions as one `.ssa` program (with the operator declarations their
/// operations need).
#[pyfunction]
pub fn to_text(functions: Vec<PyRef<'_, PyFunction>>) -> String {
    ssakit::text::print_module(&module_of(&functions))
}

fn syntax(name: &str, src: &str) -> PyResult<Syntax> {
    match name {
        "text" => Ok(Syntax::Text),
        "json" => Ok(Syntax::Json),
        "auto" if src.trim_start().starts_with('{') => Ok(Syntax::Json),
        "auto" => Ok(Syntax::Text),
        _ => Err(value_error(format!("syntax `{name}`: text, json or auto"))),
    }
}

/// The functions of a Bril program, text or JSON (`syntax="auto"` tells
/// them apart by a leading `{`).
#[pyfunction]
#[pyo3(signature = (src, syntax="auto"))]
pub fn parse_bril(src: &str, syntax: &str) -> PyResult<Vec<PyFunction>> {
    let s = self::syntax(syntax, src)?;
    let l = ssakit::bril::read(src, s).map_err(|e| bril_error(&e, src))?;
    Ok(wrap(l.module))
}

/// Functions as a Bril program, text or JSON; SSA phis as `set`/`get`
/// (`ssa="set-get"`) or the old `phi` instruction (`ssa="phi"`).
#[pyfunction]
#[pyo3(signature = (functions, syntax="text", ssa="set-get"))]
pub fn to_bril(functions: Vec<PyRef<'_, PyFunction>>, syntax: &str, ssa: &str) -> PyResult<String> {
    let s = self::syntax(syntax, "")?;
    let form = match ssa {
        "set-get" | "set_get" => SsaForm::SetGet,
        "phi" => SsaForm::Phi,
        _ => return Err(value_error(format!("ssa `{ssa}`: set-get or phi"))),
    };
    ssakit::bril::write(&module_of(&functions), s, form).map_err(|e| bril_error(&e, ""))
}
