//! Errors of passes and of the verifier, located in the IR.
//!
//! A pass knows where a problem is in terms of blocks and instructions, not
//! source text; the command-line tool maps these to `file:line:column`
//! through the parser's [`FunctionSpans`](crate::text::FunctionSpans).
//!
//! Every error has an [`ErrorKind`]: callers (the command-line tool's exit
//! codes and hints, the wasm rewriter's refusals, the differential oracle)
//! decide on it, never on the wording of the message, which is for people
//! and may change.

use crate::ir::{Block, Function, Inst};
use std::fmt;

/// What kind of problem an [`IrError`] is: what a caller decides on.
///
/// ```
/// use ssakit::destruct::{destruct, DestructOptions};
/// use ssakit::error::ErrorKind;
/// // `x` is assigned twice: not SSA, which destruction needs.
/// let src = "function f() {\ne:\n    x = 1\n    x = 2\n    ret x\n}\n";
/// let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let e = destruct(&mut f, &DestructOptions::default()).unwrap_err();
/// assert_eq!(e.kind, ErrorKind::NotSsa);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The program breaks a rule of the IR, or a pass's precondition on
    /// what it is given (a program already in SSA form given to
    /// construction, a variable defined twice): the user's input.
    Input,
    /// A pass that needs valid SSA with the dominance property (destruction)
    /// was given a program that is not: the verifier's first error.
    NotSsa,
    /// The chapter's direct destruction needs conventional SSA, and two
    /// members of one phi web interfere.
    NotConventional,
    /// The chapter's direct destruction needs conventional SSA, and a
    /// constant phi operand would overwrite a live member of its web (the
    /// verifier counts constant operands as members defined at the end of
    /// their predecessor).
    ConstantConflict,
    /// The options name something the function does not have (a variable
    /// to trace).
    Options,
    /// A pass broke an invariant it promises (it produced invalid SSA): a
    /// bug in ssakit, not in the input.
    Internal,
}

impl ErrorKind {
    /// Whether the function, as given, is at fault rather than ssakit: every
    /// kind but [`ErrorKind::Internal`].
    ///
    /// ```
    /// use ssakit::error::ErrorKind;
    /// assert!(ErrorKind::NotSsa.is_input() && !ErrorKind::Internal.is_input());
    /// ```
    pub fn is_input(self) -> bool {
        self != ErrorKind::Internal
    }

    /// Whether direct destruction refused SSA that is not conventional (for
    /// interfering members or for a constant operand).
    ///
    /// ```
    /// use ssakit::error::ErrorKind;
    /// assert!(ErrorKind::ConstantConflict.is_not_conventional());
    /// assert!(!ErrorKind::NotSsa.is_not_conventional());
    /// ```
    pub fn is_not_conventional(self) -> bool {
        matches!(
            self,
            ErrorKind::NotConventional | ErrorKind::ConstantConflict
        )
    }
}

/// A problem found by a pass or the verifier, with where it is and its
/// [kind](ErrorKind).
///
/// ```
/// use ssakit::{error::IrError, text::parse_module};
/// let m = parse_module("function f() {\nentry:\n    ret 0\n}\n").unwrap();
/// let f = &m.functions[0];
/// let e = IrError::new(f, Some(f.entry()), None, "something is off");
/// assert_eq!((e.func.as_str(), e.block, e.inst), ("f", Some(f.entry()), None));
/// assert_eq!(e.to_string(), "function `f`: something is off");
/// assert_eq!(e.kind, ssakit::error::ErrorKind::Input);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrError {
    /// What kind of problem it is (what callers decide on).
    pub kind: ErrorKind,
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
    /// An error in `func` at `block` / `inst`, of kind
    /// [`ErrorKind::Input`] (see `IrError::with_kind`).
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
            kind: ErrorKind::Input,
            func: func.name().to_string(),
            block,
            inst,
            message: message.into(),
        }
    }

    /// The same error, of kind `kind`.
    pub(crate) fn with_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
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
