//! Bril programs as written: the syntax tree shared by the text format
//! and the JSON format (Bril's canonical form, `docs/lang/syntax.md`), one
//! [`Code`] per line of a function body, in order.

use std::ops::Range;

/// A Bril program: its functions, in order.
///
/// ```
/// use ssakit::bril::{parse, Syntax};
/// let p = parse("@f { ret; }\n@main { call @f; }", Syntax::Text).unwrap();
/// let names: Vec<&str> = p.functions.iter().map(|f| f.name.as_str()).collect();
/// assert_eq!(names, ["f", "main"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Program {
    /// The functions.
    pub functions: Vec<Func>,
}

/// A Bril type as written.
///
/// ```
/// use ssakit::bril::{ast::Ty, parse, Syntax};
/// let p = parse("@f(a: int, b: bool, c: ptr<int>) { ret; }", Syntax::Text).unwrap();
/// let tys: Vec<&Ty> = p.functions[0].args.iter().map(|(_, t)| t).collect();
/// assert_eq!(tys, [&Ty::Int, &Ty::Bool, &Ty::Other("ptr<int>".into())]);
/// ```
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
    pub(crate) fn name(&self) -> &str {
        match self {
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Other(s) => s,
        }
    }

    /// The type named `s` (a parameterised type is `Other`).
    pub(crate) fn from_name(s: &str) -> Ty {
        match s {
            "int" => Ty::Int,
            "bool" => Ty::Bool,
            _ => Ty::Other(s.to_string()),
        }
    }
}

/// A `const` literal as written.
///
/// ```
/// use ssakit::bril::{ast::{Code, Literal}, parse, Syntax};
/// let p = parse("@main { a: int = const -3; b: bool = const true; }", Syntax::Text).unwrap();
/// let values: Vec<_> = p.functions[0].body.iter().map(|c| match c {
///     Code::Instr(i) => i.value.clone(),
///     Code::Label { .. } => None,
/// }).collect();
/// assert_eq!(values, [Some(Literal::Int(-3)), Some(Literal::Bool(true))]);
/// ```
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
///
/// ```
/// use ssakit::bril::{ast::{Code, Loc}, parse, Syntax};
/// let text = parse("@main { nop; }", Syntax::Text).unwrap();
/// let Code::Instr(nop) = &text.functions[0].body[0] else { panic!() };
/// assert_eq!(nop.loc, Loc::Text(8..12)); // the bytes of `nop;`
/// let json = parse(r#"{"functions": [{"name": "main", "instrs": [{"op": "nop"}]}]}"#, Syntax::Json).unwrap();
/// let Code::Instr(nop) = &json.functions[0].body[0] else { panic!() };
/// assert_eq!(nop.loc, Loc::Index(0));
/// ```
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
///
/// ```
/// use ssakit::bril::{ast::Ty, parse, Syntax};
/// let p = parse("@sq(x: int): int {\n  y: int = mul x x;\n  ret y;\n}", Syntax::Text).unwrap();
/// let f = &p.functions[0];
/// assert_eq!((f.name.as_str(), f.args.len(), f.ret.clone()), ("sq", 1, Some(Ty::Int)));
/// assert_eq!(f.body.len(), 2);
/// ```
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
///
/// ```
/// use ssakit::bril::{ast::Code, parse, Syntax};
/// let p = parse("@main {\n.top:\n  jmp .top;\n}", Syntax::Text).unwrap();
/// let body = &p.functions[0].body;
/// assert!(matches!(&body[0], Code::Label { name, .. } if name == "top"));
/// assert!(matches!(&body[1], Code::Instr(i) if i.labels == ["top"]));
/// ```
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
///
/// ```
/// use ssakit::bril::{ast::{Code, Ty}, parse, Syntax};
/// let p = parse("@main { r: int = call @f a b; }", Syntax::Text).unwrap();
/// let Code::Instr(call) = &p.functions[0].body[0] else { panic!() };
/// assert_eq!((call.op.as_str(), call.dest.as_deref(), call.ty.clone()), ("call", Some("r"), Some(Ty::Int)));
/// assert_eq!((call.funcs.as_slice(), call.args.as_slice()), (&["f".to_string()][..], &["a".to_string(), "b".to_string()][..]));
/// ```
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
