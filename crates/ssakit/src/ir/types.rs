//! Value types of variables.

use std::fmt;

/// The type of a variable.
///
/// Today's `.ssa` programs compute on 64-bit integers, [`Type::I64`], the
/// default: a variable written without a type has it, and the interpreter,
/// constant propagation and the built-in operators (`+`, `<`, `!`, ...) work
/// on it alone. The other types are WebAssembly's value types, carried by
/// variables that only copies, phis, parallel copies, calls and generic
/// [operations](super::InstData::Op) touch, and [`Type::Bool`], the
/// one-bit flag of Bril programs. Machine registers would be further
/// variants.
///
/// ```
/// use ssakit::ir::Type;
/// let f = ssakit::text::parse_module("function f(a: i32, b) {\ne:\n    ret\n}").unwrap().functions.remove(0);
/// let tys: Vec<Type> = f.params().iter().map(|&p| f.var_type(p)).collect();
/// assert_eq!(tys, [Type::I32, Type::I64]); // untyped is i64
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub enum Type {
    /// A 64-bit integer (the default; `int` of the interpreter).
    #[default]
    I64,
    /// A 32-bit integer.
    I32,
    /// A 32-bit IEEE float.
    F32,
    /// A 64-bit IEEE float.
    F64,
    /// A 128-bit SIMD vector.
    V128,
    /// A reference to a function (WebAssembly `funcref`).
    FuncRef,
    /// An opaque host reference (WebAssembly `externref`).
    ExternRef,
    /// A one-bit integer, 0 or 1 (Bril's `bool`): comparisons and the
    /// logical operators `!`, `&`, `|` may write it, `!`, `&`, `|` and
    /// `^` compute on it, a branch tests it, and the interpreter prints it
    /// `true` or `false`. Its literals are 0 and 1.
    Bool,
}

impl Type {
    /// Every type, in a fixed order.
    pub(crate) const ALL: [Type; 8] = [
        Type::I64,
        Type::I32,
        Type::F32,
        Type::F64,
        Type::V128,
        Type::FuncRef,
        Type::ExternRef,
        Type::Bool,
    ];

    /// `Type::ALL[i % 8]` (eight types), by a `match` the compiler folds
    /// into the discriminant: no table, no bounds check (`VarData` keeps
    /// the type's index in three bits).
    #[inline(always)]
    pub(crate) fn from_index(i: u32) -> Type {
        const _: () = assert!(Type::ALL.len() == 8);
        match i % 8 {
            0 => Type::I64,
            1 => Type::I32,
            2 => Type::F32,
            3 => Type::F64,
            4 => Type::V128,
            5 => Type::FuncRef,
            6 => Type::ExternRef,
            _ => Type::Bool,
        }
    }

    /// The type's name in the text format.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Type::I64 => "i64",
            Type::I32 => "i32",
            Type::F32 => "f32",
            Type::F64 => "f64",
            Type::V128 => "v128",
            Type::FuncRef => "funcref",
            Type::ExternRef => "externref",
            Type::Bool => "bool",
        }
    }

    /// The type named `s`, if any.
    ///
    /// ```
    /// use ssakit::ir::Type;
    /// assert_eq!(Type::from_name("v128"), Some(Type::V128));
    /// assert_eq!(Type::from_name("int"), None);
    /// ```
    pub fn from_name(s: &str) -> Option<Type> {
        Type::ALL.into_iter().find(|t| t.name() == s)
    }

    /// Whether an integer literal operand may stand for a value of this
    /// type (its bits, truncated for `i32`; 0 or 1 for `bool`), and a
    /// branch may test it.
    pub(crate) fn is_int(self) -> bool {
        matches!(self, Type::I64 | Type::I32 | Type::Bool)
    }

    /// Whether the interpreter and constant propagation compute on values
    /// of this type (`i64`, and `bool` as the integers 0 and 1).
    pub(crate) fn is_computed(self) -> bool {
        matches!(self, Type::I64 | Type::Bool)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
