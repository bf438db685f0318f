//! Errors of the x86-64 front end, located by byte offset in the file,
//! each with an [`ErrorKind`] that callers decide on (the command-line
//! tool's exit code), never the wording of the message.
//!
//! The kinds follow what a caller can do about the input: it is no ELF
//! file at all ([`ErrorKind::NotElf`]); an ELF file of a class, byte
//! order, machine or type the front end does not read
//! ([`ErrorKind::Unsupported`]); a damaged one ([`ErrorKind::Malformed`],
//! with the [`Field`] that is wrong); a debug file of another build
//! ([`ErrorKind::OtherBuild`]); a binary in which no function is found
//! ([`ErrorKind::NoFunctions`]); a selection of functions that names none,
//! or several ([`ErrorKind::NoSuchFunction`], [`ErrorKind::Ambiguous`]).
//! None is a bug of ssakit: lifting never fails (an instruction it does not
//! know stays an opaque operation), and a later stage's failure is a
//! [`pipeline::Failure`](crate::pipeline::Failure), not an `X86Error`.

use std::fmt;

/// The part of an ELF file that an [`ErrorKind::Unsupported`] or
/// [`ErrorKind::Malformed`] error is about (System V gABI names).
///
/// ```
/// use ssakit_x86::error::{ErrorKind, Field};
/// let mut elf = vec![0u8; 64];
/// elf[..4].copy_from_slice(b"\x7fELF");
/// elf[4] = 1; // ELFCLASS32
/// let e = ssakit_x86::binary::Binary::parse(&elf).unwrap_err();
/// assert_eq!(e.kind, ErrorKind::Unsupported(Field::Class));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `e_ident[EI_CLASS]`: not 64-bit.
    Class,
    /// `e_ident[EI_DATA]`: not little-endian.
    ByteOrder,
    /// `e_machine`: not x86-64.
    Machine,
    /// `e_type`: not an executable or shared object (a relocatable
    /// object, a core file, another type).
    Type,
    /// The file header: shorter than its 64 bytes.
    Header,
    /// The program header table (`e_phoff`, `e_phentsize`, `e_phnum`):
    /// outside the file.
    ProgramHeaders,
    /// The section header table (`e_shoff`, `e_shentsize`, `e_shnum`):
    /// outside the file, or entries too short.
    SectionHeaders,
    /// `e_shstrndx`: the section name table's index out of range.
    SectionNames,
    /// A section's contents (`sh_offset`, `sh_size`): outside the file,
    /// or not readable.
    SectionContents,
    /// A section's address range (`sh_addr`, `sh_size`) overflows.
    SectionAddress,
    /// A section's `sh_link`: out of range or naming a section of the
    /// wrong type.
    SectionLink,
    /// The contents of `.eh_frame`: not readable as call frame
    /// information.
    EhFrame,
    /// Another part that the ELF reader (`object`) refuses.
    Other,
}

/// What kind of problem an [`X86Error`] is.
///
/// ```
/// use ssakit_x86::error::ErrorKind;
/// let e = ssakit_x86::binary::Binary::parse(b"MZ\x90\0").unwrap_err();
/// assert_eq!(e.kind, ErrorKind::NotElf);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Not an ELF file: no `\x7fELF` magic number.
    NotElf,
    /// A well-formed ELF file that the front end does not read: its
    /// class, byte order, machine or type ([`Field`]) says why.
    Unsupported(Field),
    /// A damaged ELF file: the [`Field`] that is wrong.
    Malformed(Field),
    /// A separate debug file that comes from another build than the
    /// binary (build-id or `.gnu_debuglink` CRC).
    OtherBuild,
    /// A binary read without error in which no function is found (no
    /// section headers, no symbols and no `.eh_frame`).
    NoFunctions,
    /// A selection (`--func`) that names no function: no such name or
    /// label, or an address at which none starts.
    NoSuchFunction,
    /// A selection that names several functions (a name they share).
    Ambiguous,
}

/// Why a binary could not be read, or a function not chosen: a message,
/// when known the byte offset in the file it refers to (the header
/// field, section header or section that is wrong), and its
/// [kind](ErrorKind).
///
/// ```
/// use ssakit_x86::error::{ErrorKind, Field};
/// let Err(e) = ssakit_x86::binary::Binary::parse(b"\x7fELF") else { panic!() };
/// assert_eq!(e.kind, ErrorKind::Malformed(Field::Header));
/// assert_eq!(e.offset, Some(4));
/// assert!(e.to_string().starts_with("byte offset 0x4: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct X86Error {
    /// What kind of problem it is (what callers decide on).
    pub kind: ErrorKind,
    /// What is wrong, for people.
    pub message: String,
    /// The byte offset in the file, if known.
    pub offset: Option<u64>,
}

impl X86Error {
    /// An error of kind `kind` at byte `offset` of the file.
    ///
    /// ```
    /// use ssakit_x86::error::{ErrorKind, Field};
    /// let e = ssakit_x86::X86Error::at(0x12, ErrorKind::Unsupported(Field::Machine), "not x86-64");
    /// assert_eq!(e.to_string(), "byte offset 0x12: not x86-64");
    /// ```
    pub fn at(offset: u64, kind: ErrorKind, message: impl Into<String>) -> Self {
        X86Error {
            kind,
            message: message.into(),
            offset: Some(offset),
        }
    }

    /// An error of kind `kind` without a location in the file.
    ///
    /// ```
    /// use ssakit_x86::{error::ErrorKind, X86Error};
    /// let e = X86Error::new(ErrorKind::NoSuchFunction, "no function `nope`");
    /// assert_eq!((e.offset, e.to_string()), (None, "no function `nope`".to_string()));
    /// ```
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        X86Error {
            kind,
            message: message.into(),
            offset: None,
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
