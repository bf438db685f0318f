//! `ssakit.Builder`: a function built from Python, block by block, one
//! call per instruction and terminator. Each call writes one statement
//! of the `.ssa` format; `finish()` reads them with the parser, so a
//! built function obeys every rule a parsed one does (a `ParseError`
//! names the statement, with `text` the program built).

use crate::errors::parse_error;
use crate::function::{PyFunction, Source};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;

/// An operand: a name, an integer, `None` for `undef`.
fn operand(x: &Bound<'_, PyAny>) -> PyResult<String> {
    if x.is_none() {
        return Ok("undef".into());
    }
    if let Ok(i) = x.extract::<i64>() {
        return Ok(i.to_string());
    }
    x.extract::<String>()
}

fn operands(xs: &[Bound<'_, PyAny>]) -> PyResult<String> {
    Ok(xs
        .iter()
        .map(operand)
        .collect::<PyResult<Vec<_>>>()?
        .join(", "))
}

/// A function under construction: `Builder(name, params)`.
#[pyclass(name = "Builder", module = "ssakit")]
pub struct Builder {
    text: Mutex<String>,
}

impl Builder {
    fn line(&self, s: &str) {
        let mut t = self.text.lock().expect("not poisoned");
        t.push_str("    ");
        t.push_str(s);
        t.push('\n');
    }
}

#[pymethods]
impl Builder {
    #[new]
    #[pyo3(signature = (name, params=Vec::new()))]
    fn new(name: &str, params: Vec<String>) -> Builder {
        Builder {
            text: Mutex::new(format!("function {name}({}) {{\n", params.join(", "))),
        }
    }

    /// Starts block `label` (the first is the entry).
    fn block(&self, label: &str) {
        self.text
            .lock()
            .expect("not poisoned")
            .push_str(&format!("{label}:\n"));
    }

    /// `dst = src`.
    fn copy(&self, dst: &str, src: &Bound<'_, PyAny>) -> PyResult<()> {
        self.line(&format!("{dst} = {}", operand(src)?));
        Ok(())
    }

    /// `dst = lhs OP rhs`, `op` one of `+ - * / % & | ^ << >> == != < <= > >=`.
    fn binary(
        &self,
        dst: &str,
        op: &str,
        lhs: &Bound<'_, PyAny>,
        rhs: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.line(&format!("{dst} = {} {op} {}", operand(lhs)?, operand(rhs)?));
        Ok(())
    }

    /// `dst = OP arg`, `op` `-` or `!`.
    fn unary(&self, dst: &str, op: &str, arg: &Bound<'_, PyAny>) -> PyResult<()> {
        self.line(&format!("{dst} = {op}{}", operand(arg)?));
        Ok(())
    }

    /// `(results) = callee(args)`.
    #[pyo3(signature = (callee, args, results=Vec::new()))]
    fn call(
        &self,
        callee: &str,
        args: Vec<Bound<'_, PyAny>>,
        results: Vec<String>,
    ) -> PyResult<()> {
        let call = format!("{callee}({})", operands(&args)?);
        match results.len() {
            0 => self.line(&call),
            1 => self.line(&format!("{} = {call}", results[0])),
            _ => self.line(&format!("({}) = {call}", results.join(", "))),
        }
        Ok(())
    }

    /// `print args`.
    fn print(&self, args: Vec<Bound<'_, PyAny>>) -> PyResult<()> {
        self.line(&format!("print {}", operands(&args)?));
        Ok(())
    }

    /// `dst = phi(pred: value, ...)`, from a dict predecessor → value.
    fn phi(&self, dst: &str, args: &Bound<'_, PyDict>) -> PyResult<()> {
        let mut parts = Vec::new();
        for (k, v) in args.iter() {
            parts.push(format!("{}: {}", k.extract::<String>()?, operand(&v)?));
        }
        self.line(&format!("{dst} = phi({})", parts.join(", ")));
        Ok(())
    }

    /// `jump to`.
    fn jump(&self, to: &str) {
        self.line(&format!("jump {to}"));
    }

    /// `branch cond, then, else_`.
    fn branch(&self, cond: &Bound<'_, PyAny>, then: &str, else_: &str) -> PyResult<()> {
        self.line(&format!("branch {}, {then}, {else_}", operand(cond)?));
        Ok(())
    }

    /// `switch value, default, [targets]`.
    fn switch(
        &self,
        value: &Bound<'_, PyAny>,
        default: &str,
        targets: Vec<String>,
    ) -> PyResult<()> {
        self.line(&format!(
            "switch {}, {default}, [{}]",
            operand(value)?,
            targets.join(", ")
        ));
        Ok(())
    }

    /// `ret values...`.
    #[pyo3(signature = (*values))]
    fn ret(&self, values: Vec<Bound<'_, PyAny>>) -> PyResult<()> {
        if values.is_empty() {
            self.line("ret");
        } else {
            self.line(&format!("ret {}", operands(&values)?));
        }
        Ok(())
    }

    /// `unreachable`.
    fn unreachable(&self) {
        self.line("unreachable");
    }

    /// The program written so far.
    #[getter]
    fn text(&self) -> String {
        let mut t = self.text.lock().expect("not poisoned").clone();
        t.push_str("}\n");
        t
    }

    /// The function (`ParseError` when it breaks a rule of the format).
    fn finish(&self) -> PyResult<PyFunction> {
        let text = self.text();
        let mut m = ssakit::text::parse_module(&text).map_err(|d| {
            let e = parse_error(&d, &text);
            Python::attach(|py| match e.value(py).setattr("text", &text) {
                Ok(()) => e,
                Err(x) => x,
            })
        })?;
        Ok(PyFunction::new(m.functions.remove(0), Source::Text))
    }
}
