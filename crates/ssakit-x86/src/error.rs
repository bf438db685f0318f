//! Errors of the x86-64 front end, located by byte offset in the file.

use std::fmt;

/// Why a binary could not be read: a message and, when known, the byte
/// offset in the file it refers to (the header field, section header or
/// section that is wrong).
///
/// ```
/// let Err(e) = ssakit_x86::binary::Binary::parse(b"\x7fELF") else { panic!() };
/// assert_eq!(e.offset, Some(4));
/// assert!(e.to_string().starts_with("byte offset 0x4: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct X86Error {
    /// What is wrong.
    pub message: String,
    /// The byte offset in the file, if known.
    pub offset: Option<u64>,
}

impl X86Error {
    /// An error at byte `offset` of the file.
    ///
    /// ```
    /// let e = ssakit_x86::X86Error::at(0x12, "not x86-64");
    /// assert_eq!(e.to_string(), "byte offset 0x12: not x86-64");
    /// ```
    pub fn at(offset: u64, message: impl Into<String>) -> Self {
        X86Error {
            message: message.into(),
            offset: Some(offset),
        }
    }
}

impl fmt::Display for X86Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(o) => write!(f, "byte offset {o:#x}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for X86Error {}
