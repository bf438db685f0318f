//! Errors of passes and of the verifier, located in the IR.
//!
//! A pass knows where a problem is in terms of blocks and instructions, not
//! source text; the command-line tool maps these to `file:line:column`
//! through the parser's [`FunctionSpans`](crate::text::FunctionSpans).

use crate::ir::{Block, Function, Inst};
use std::fmt;

/// A problem found by a pass or the verifier, with where it is.
///
/// ```
/// use ssakit::{error::IrError, text::parse_module};
/// let m = parse_module("function f() {\nentry:\n    ret 0\n}\n").unwrap();
/// let f = &m.functions[0];
/// let e = IrError::new(f, Some(f.entry()), None, "something is off");
/// assert_eq!((e.func.as_str(), e.block, e.inst), ("f", Some(f.entry()), None));
/// assert_eq!(e.to_string(), "function `f`: something is off");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrError {
    /// The function's name.
    pub func: String,
    /// The block concerned, if any.
    pub block: Option<Block>,
    /// The instruction concerned, if any (`None` with a block: its terminator
    /// or the block as a whole).
    pub inst: Option<Inst>,
    /// What is wrong.
    pub message: String,
}

impl IrError {
    /// An error in `func` at `block` / `inst`.
    ///
    /// ```
    /// use ssakit::{error::IrError, text::parse_module};
    /// let m = parse_module("function g() {\nentry:\n    ret 0\n}\n").unwrap();
    /// let e = IrError::new(&m.functions[0], None, None, "no block");
    /// assert_eq!((e.func.as_str(), e.message.as_str()), ("g", "no block"));
    /// ```
    pub fn new(
        func: &Function,
        block: Option<Block>,
        inst: Option<Inst>,
        message: impl Into<String>,
    ) -> Self {
        IrError {
            func: func.name().to_string(),
            block,
            inst,
            message: message.into(),
        }
    }

    /// Renders `function F, block B: message` using `func`'s labels.
    ///
    /// ```
    /// use ssakit::{error::IrError, text::parse_module};
    /// let m = parse_module("function f() {\nstart:\n    ret 0\n}\n").unwrap();
    /// let f = &m.functions[0];
    /// let e = IrError::new(f, Some(f.entry()), None, "bad");
    /// assert_eq!(e.describe(f), "function `f`, block `start`: bad");
    /// ```
    pub fn describe(&self, func: &Function) -> String {
        match self.block {
            Some(b) => format!(
                "function `{}`, block `{}`: {}",
                self.func,
                func.block_name(b),
                self.message
            ),
            None => format!("function `{}`: {}", self.func, self.message),
        }
    }
}

impl fmt::Display for IrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "function `{}`: {}", self.func, self.message)
    }
}

impl std::error::Error for IrError {}
