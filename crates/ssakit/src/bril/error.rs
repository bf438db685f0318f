//! Errors of Bril input and output: a place in a text, or a function and
//! instruction index in a JSON program or a module being written.

use super::ast::Loc;
use crate::text::Diagnostic;

/// Bad Bril input, or a module Bril cannot express.
///
/// ```
/// use ssakit::bril::{read, Error, Syntax};
/// let text = read("@main { x: int = const 1 }", Syntax::Text).unwrap_err();
/// assert!(matches!(text, Error::Text(_)));
/// let json = read(r#"{"functions": [{"name": "main", "instrs": [{"op": "load"}]}]}"#, Syntax::Json);
/// assert!(matches!(json.unwrap_err(), Error::At { index: Some(0), .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// At a place in a text (Bril text, or malformed JSON).
    Text(Diagnostic),
    /// In a JSON program (or a module being written): the function, and
    /// the index of the instruction in its `instrs`.
    At {
        /// What is wrong.
        message: String,
        /// The function, if known.
        function: Option<String>,
        /// The instruction's index in the function's `instrs`.
        index: Option<usize>,
    },
}

impl Error {
    /// An error in `function` at instruction `index`.
    pub(crate) fn at(function: Option<&str>, index: Option<usize>, message: &str) -> Error {
        Error::At {
            message: message.to_string(),
            function: function.map(str::to_string),
            index,
        }
    }

    /// An error at `loc` of `function`; `label` names the instruction.
    pub(crate) fn located(function: Option<&str>, loc: &Loc, message: String, op: &str) -> Error {
        match loc {
            Loc::Text(r) => {
                let label = if op.is_empty() {
                    "here".to_string()
                } else {
                    format!("in this `{op}`")
                };
                Error::Text(Diagnostic::new(message, r.clone(), label))
            }
            Loc::Index(i) if *i != usize::MAX => Error::at(function, Some(*i), &message),
            _ => Error::at(function, None, &message),
        }
    }

    /// The message with where it is, without the file: `LINE:COL:
    /// MESSAGE` is for [`Error::render`]; this gives `function `f`,
    /// instruction K: MESSAGE` or the message alone.
    ///
    /// ```
    /// use ssakit::bril::{read, Syntax};
    /// let e = read("@main {\n  x: int = frob;\n}\n", Syntax::Text).err().unwrap();
    /// assert!(e.describe().contains("frob"));
    /// ```
    pub fn describe(&self) -> String {
        match self {
            Error::Text(d) => d.message.clone(),
            Error::At {
                message,
                function,
                index,
            } => {
                let mut s = String::new();
                if let Some(f) = function {
                    s.push_str(&format!("function `{f}`"));
                    if let Some(i) = index {
                        s.push_str(&format!(", instruction {i}"));
                    }
                    s.push_str(": ");
                }
                s.push_str(message);
                s
            }
        }
    }

    /// The report: `error: FILE:LINE:COL: MESSAGE` with the source line
    /// for a text, `error: FILE: function `f`, instruction K: MESSAGE` for
    /// JSON (K counts from 0 over `instrs`, labels included).
    ///
    /// ```
    /// use ssakit::bril::{read, Syntax};
    /// let src = "@main {\n  x: int = frob;\n}\n";
    /// let e = read(src, Syntax::Text).err().unwrap();
    /// assert!(e.render("p.bril", src).starts_with("error: p.bril:2:"));
    /// ```
    pub fn render(&self, file: &str, src: &str) -> String {
        match self {
            Error::Text(d) => d.render(file, src),
            Error::At { .. } => format!("error: {file}: {}\n", self.describe()),
        }
    }
}
