//! Bril programs as written: the syntax tree shared by the text format
//! and the JSON format (Bril's canonical form, `docs/lang/syntax.md`), one
//! [`Code`] per line of a function body, in order.

use std::ops::Range;

/// A Bril program: its functions, in order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Program {
    /// The functions.
    pub functions: Vec<Func>,
}

/// A Bril type as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `int`: a 64-bit integer.
    Int,
    /// `bool`.
    Bool,
    /// Any other type (`float`, `char`, `ptr<int>`, ...), as written: the
    /// lowering refuses it.
    Other(String),
}

impl Ty {
    /// The type's text (`int`, `ptr<int>`).
    pub fn name(&self) -> &str {
        match self {
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Other(s) => s,
        }
    }

    /// The type named `s` (a parameterised type is `Other`).
    pub fn from_name(s: &str) -> Ty {
        match s {
            "int" => Ty::Int,
            "bool" => Ty::Bool,
            _ => Ty::Other(s.to_string()),
        }
    }
}

/// A `const` literal as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// An integer.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A float, a character, `nullptr`: refused by the lowering.
    Other(String),
}

/// Where a piece of a program was written.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Loc {
    /// Made by ssakit (an emitted program).
    #[default]
    None,
    /// Bytes of a text (`.bril`) source.
    Text(Range<usize>),
    /// The index of the line in its function's `instrs` (JSON); `usize::MAX`
    /// for the function itself.
    Index(usize),
}

/// A function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    /// Its name, without the `@`.
    pub name: String,
    /// Parameters: name and type.
    pub args: Vec<(String, Ty)>,
    /// The return type, if any.
    pub ret: Option<Ty>,
    /// The body: labels and instructions, in order.
    pub body: Vec<Code>,
    /// Where the function's header is.
    pub loc: Loc,
}

/// One line of a function body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Code {
    /// `.name:` (the name without the dot).
    Label {
        /// The label.
        name: String,
        /// Where it is.
        loc: Loc,
    },
    /// An instruction.
    Instr(Instr),
}

/// An instruction: an operation with its destination, type, arguments,
/// called functions, labels and (for `const`) value.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Instr {
    /// The opcode (`add`, `br`, ...).
    pub op: String,
    /// The destination of a value operation.
    pub dest: Option<String>,
    /// The destination's type.
    pub ty: Option<Ty>,
    /// Variable arguments.
    pub args: Vec<String>,
    /// Function arguments (`call`), without the `@`.
    pub funcs: Vec<String>,
    /// Label arguments (`jmp`, `br`, `phi`), without the dot.
    pub labels: Vec<String>,
    /// The literal of a `const`.
    pub value: Option<Literal>,
    /// Where it is.
    pub loc: Loc,
}
