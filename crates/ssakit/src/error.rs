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
/// use ssakit::error::ErrorKind;
/// use ssakit::text::parse_module;
/// use ssakit::verify::verify_valid;
/// // `b` is assigned twice: not SSA.
/// let m = parse_module("function f(a) {\nentry:\n    b = a\n    b = 2\n    ret b\n}\n").unwrap();
/// let e = &verify_valid(&m.functions[0]).unwrap_err()[0];
/// assert_eq!((e.func.as_str(), e.kind), ("f", ErrorKind::Input));
/// assert!(e.message.contains("assigned more than once"));
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
    pub(crate) fn new(
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
    /// use ssakit::text::parse_module;
    /// use ssakit::verify::verify_valid;
    /// let m = parse_module("function f(a) {\nentry:\n    b = a\n    b = 2\n    ret b\n}\n").unwrap();
    /// let f = &m.functions[0];
    /// let e = &verify_valid(f).unwrap_err()[0];
    /// assert!(e.describe(f).starts_with("function `f`, block `entry`"));
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
