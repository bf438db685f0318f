//! Errors of the WebAssembly front end, located by byte offset, each with
//! an [`ErrorKind`] that callers decide on (the command-line tool's exit
//! code), never the wording of the message.

use std::fmt;

/// What kind of problem a [`WasmError`] is.
///
/// ```
/// use ssakit_wasm::error::ErrorKind;
/// let Err(e) = ssakit_wasm::module::parse(b"\0asm\x02\0\0\0") else { panic!() };
/// assert_eq!(e.kind, ErrorKind::Input);
/// assert!(!ErrorKind::Input.is_internal() && ErrorKind::Internal.is_internal());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The module is malformed or invalid, or a function cannot be lifted
    /// or emitted as given.
    Input,
    /// Valid WebAssembly that ssakit does not handle (components,
    /// reference types, the operators of some proposals).
    Unsupported,
    /// The options chosen refuse this module (`--conventional` after
    /// passes that did not keep SSA conventional).
    Options,
    /// A stage after lifting failed, or the rewritten module is invalid: a
    /// bug in ssakit.
    Internal,
}

impl ErrorKind {
    /// Whether the error is a bug of ssakit rather than the input's.
    ///
    /// ```
    /// assert!(ssakit_wasm::error::ErrorKind::Internal.is_internal());
    /// ```
    pub fn is_internal(self) -> bool {
        self == ErrorKind::Internal
    }
}

/// Why a module could not be read, validated or lifted: a message, the
/// byte offset in the binary module it refers to (for a `.wat` input, the
/// offset in the module it assembles to, or `line:column` in the message
/// when the text does not assemble), and the function index when the
/// error is inside a function body; and its [kind](ErrorKind).
///
/// ```
/// let Err(e) = ssakit_wasm::module::parse(b"\0asm\x02\0\0\0") else { panic!() };
/// assert_eq!(e.offset, Some(4));
/// assert!(e.to_string().starts_with("byte offset 0x4: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WasmError {
    /// What kind of problem it is (what callers decide on).
    pub kind: ErrorKind,
    /// What is wrong.
    pub message: String,
    /// The byte offset, if known.
    pub offset: Option<u64>,
    /// The function (in the module's function index space), if inside one.
    pub func: Option<u32>,
    /// For WebAssembly text that does not assemble: line and column.
    pub line_col: Option<(usize, usize)>,
}

impl WasmError {
    /// An error at `offset`, of kind [`ErrorKind::Input`] (see
    /// [`WasmError::with_kind`]).
    ///
    /// ```
    /// let e = ssakit_wasm::WasmError::at(0x1a, "bad opcode");
    /// assert_eq!(e.to_string(), "byte offset 0x1a: bad opcode");
    /// ```
    pub fn at(offset: u64, message: impl Into<String>) -> Self {
        WasmError {
            kind: ErrorKind::Input,
            message: message.into(),
            offset: Some(offset),
            func: None,
            line_col: None,
        }
    }

    /// An error without a location (of emission), of kind
    /// [`ErrorKind::Input`].
    ///
    /// ```
    /// let e = ssakit_wasm::WasmError::new("no block to branch to");
    /// assert_eq!((e.offset, e.func), (None, None));
    /// assert_eq!(e.to_string(), "no block to branch to");
    /// ```
    pub fn new(message: impl Into<String>) -> Self {
        WasmError {
            kind: ErrorKind::Input,
            message: message.into(),
            offset: None,
            func: None,
            line_col: None,
        }
    }

    /// The same error, of kind `kind`.
    ///
    /// ```
    /// use ssakit_wasm::{error::ErrorKind, WasmError};
    /// let e = WasmError::new("internal error in opt: ...").with_kind(ErrorKind::Internal);
    /// assert!(e.kind.is_internal());
    /// ```
    pub fn with_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// The error in function `index`.
    ///
    /// ```
    /// let e = ssakit_wasm::WasmError::at(0x30, "type mismatch").in_func(2);
    /// assert_eq!(e.to_string(), "byte offset 0x30: in function 2: type mismatch");
    /// ```
    pub fn in_func(mut self, index: u32) -> Self {
        self.func = Some(index);
        self
    }
}

impl From<wasmparser::BinaryReaderError> for WasmError {
    fn from(e: wasmparser::BinaryReaderError) -> Self {
        WasmError::at(e.offset(), e.message())
    }
}

impl fmt::Display for WasmError {
    /// `byte offset 0x1a2b: in function 12: MESSAGE`, or `LINE:COLUMN:
    /// MESSAGE` for text.
    ///
    /// ```
    /// let e = ssakit_wasm::module::to_binary(b"(module\n  (func (bogus)))").unwrap_err();
    /// let (line, col) = e.line_col.unwrap();
    /// assert!(e.to_string().starts_with(&format!("{line}:{col}: ")));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((l, c)) = self.line_col {
            write!(f, "{l}:{c}: ")?;
        }
        if let Some(o) = self.offset {
            write!(f, "byte offset {o:#x}: ")?;
        }
        if let Some(i) = self.func {
            write!(f, "in function {i}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for WasmError {}
