//! Reading a WebAssembly module: `.wasm` bytes or `.wat` text (through the
//! `wat` crate), validated with wasmparser's `Validator` for the features
//! real modules use (WebAssembly 2.0: the MVP, mutable globals, sign
//! extension, saturating float-to-int, multi-value, bulk memory, reference
//! types, SIMD); any other proposal is refused with the byte offset (and
//! the function index, inside a body). The signatures, the function names
//! (from the `name` section, else the import's field name, else
//! `f{index}`, made valid and unique `.ssa` names) and the function bodies
//! are kept for the lifter; bodies are validated as they are lifted, each
//! on its own thread ([`crate::lift`]).

use crate::error::WasmError;
use ssakit::ir::{Type, RESERVED};
use std::borrow::Cow;
use std::collections::HashSet;
use wasmparser::{
    FuncToValidate, FunctionBody, Parser, Payload, ValType, Validator, ValidatorResources,
    WasmFeatures,
};

/// The features a module may use.
///
/// ```
/// use wasmparser::WasmFeatures;
/// let f = ssakit_wasm::module::features();
/// assert!(f.contains(WasmFeatures::SIMD | WasmFeatures::MULTI_VALUE));
/// assert!(!f.contains(WasmFeatures::GC));
/// ```
pub fn features() -> WasmFeatures {
    WasmFeatures::WASM2
}

/// A function signature in ssakit types.
///
/// ```
/// # use ssakit_wasm::module::{parse, to_binary};
/// use ssakit::ir::Type;
/// let wasm = to_binary(b"(module (func (param i32 f64) (result i64) i64.const 0))").unwrap();
/// let sig = parse(&wasm).unwrap().signature(0).clone();
/// assert_eq!((sig.params, sig.results), (vec![Type::I32, Type::F64], vec![Type::I64]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Signature {
    /// Parameter types.
    pub params: Vec<Type>,
    /// Result types.
    pub results: Vec<Type>,
}

/// One function body, with what its validation needs.
///
/// ```
/// # use ssakit_wasm::module::{parse, to_binary};
/// let wasm = to_binary(b"(module (import \"env\" \"g\" (func)) (func (local i32)))").unwrap();
/// let m = parse(&wasm).unwrap();
/// assert_eq!(m.bodies[0].index, 1); // imports come first
/// assert_eq!(m.bodies[0].body.get_locals_reader().unwrap().get_count(), 1);
/// ```
pub struct Body<'a> {
    /// The function's index (imports first).
    pub index: u32,
    /// The body's bytes (locals and operators).
    pub body: FunctionBody<'a>,
    validate: FuncToValidate<ValidatorResources>,
}

impl Body<'_> {
    /// A fresh validator of this body (every lift validates again).
    pub(crate) fn validator(&self) -> FuncToValidate<ValidatorResources> {
        FuncToValidate {
            resources: self.validate.resources.clone(),
            index: self.validate.index,
            ty: self.validate.ty,
            features: self.validate.features,
        }
    }
}

/// A validated module: what the lifter needs of it.
///
/// ```
/// # use ssakit_wasm::module::{parse, to_binary};
/// let wasm = to_binary(b"(module (import \"env\" \"log\" (func (param i32)))
///     (func $main (call 0 (i32.const 1))))").unwrap();
/// let m = parse(&wasm).unwrap();
/// assert_eq!(m.num_imported, 1);
/// assert_eq!(m.names, ["log", "main"]);
/// assert_eq!(m.bodies.len(), 1);
/// assert_eq!(m.func_types.len(), 2);
/// ```
pub struct WasmModule<'a> {
    /// Function types, by type index (`None` for a type that is not a
    /// function type).
    pub types: Vec<Option<Signature>>,
    /// The type index of every function (imports first).
    pub func_types: Vec<u32>,
    /// Number of imported functions.
    pub num_imported: u32,
    /// The `.ssa` name of every function: valid, unique, never a keyword
    /// or an operator name.
    pub names: Vec<String>,
    /// The bodies of the defined functions, in order.
    pub bodies: Vec<Body<'a>>,
    /// The other names a function answers to in [`find`](Self::find),
    /// `(name, function index)`: its name in the name section (or its
    /// import's field name) as written, before [`function_names`] rewrote
    /// it, and its export names.
    pub aliases: Vec<(String, u32)>,
}

impl WasmModule<'_> {
    /// The signature of function `index`.
    ///
    /// ```
    /// # use ssakit_wasm::module::{parse, to_binary};
    /// let wasm = to_binary(b"(module (func (param i32)) (func (result f32) f32.const 1))").unwrap();
    /// let m = parse(&wasm).unwrap();
    /// assert_eq!(m.signature(0).params, [ssakit::ir::Type::I32]);
    /// assert_eq!(m.signature(1).results, [ssakit::ir::Type::F32]);
    /// ```
    pub fn signature(&self, index: u32) -> &Signature {
        self.types[self.func_types[index as usize] as usize]
            .as_ref()
            .expect("validated: a function has a function type")
    }

    /// The index of the function named `name`: its `.ssa` name, else one
    /// of its [`aliases`](Self::aliases) (its own name as the module writes
    /// it, an export name), else its decimal index.
    ///
    /// ```
    /// # use ssakit_wasm::module::{parse, to_binary};
    /// let wasm = to_binary(br#"(module (func $a) (func $b-c (export "run")))"#).unwrap();
    /// let m = parse(&wasm).unwrap();
    /// assert_eq!(m.names, ["a", "b_c"]);
    /// assert_eq!(m.find("b_c"), Some(1));
    /// assert_eq!(m.find("b-c"), Some(1));
    /// assert_eq!(m.find("run"), Some(1));
    /// assert_eq!(m.find("0"), Some(0));
    /// assert_eq!(m.find("2"), None);
    /// assert_eq!(m.find("c"), None);
    /// ```
    pub fn find(&self, name: &str) -> Option<u32> {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return Some(i as u32);
        }
        if let Some((_, i)) = self.aliases.iter().find(|(n, _)| n == name) {
            return Some(*i);
        }
        name.parse::<u32>()
            .ok()
            .filter(|&i| (i as usize) < self.names.len())
    }
}

/// Whether `input` is to be read as a binary module rather than as text:
/// it starts with the binary magic `\0asm`, or one of its first four bytes
/// is a control character other than tab, line feed and carriage return (a
/// damaged or truncated magic number: WebAssembly text has none).
///
/// ```
/// use ssakit_wasm::module::looks_binary;
/// assert!(looks_binary(b"\0asm\x01\0\0\0"));
/// assert!(looks_binary(b"\0asn\x01\0\0\0"));
/// assert!(looks_binary(b"\0"));
/// assert!(!looks_binary(b"(module)"));
/// assert!(!looks_binary(b"\n\t(module)"));
/// assert!(!looks_binary(b""));
/// ```
pub fn looks_binary(input: &[u8]) -> bool {
    input.starts_with(b"\0asm")
        || input
            .iter()
            .take(4)
            .any(|&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f)
}

/// The binary module of `input`: itself if it [looks binary](looks_binary),
/// else assembled from WebAssembly text.
///
/// # Errors
/// Text that does not assemble (the message has `line:column`); a binary
/// whose magic number is wrong (with its byte offset).
///
/// ```
/// use ssakit_wasm::module::to_binary;
/// let wasm = to_binary(b"(module)").unwrap();
/// assert_eq!(&wasm[..], b"\0asm\x01\0\0\0");
/// assert!(matches!(to_binary(&wasm).unwrap(), std::borrow::Cow::Borrowed(_)));
/// assert_eq!(to_binary(b"(module\n  (oops))").unwrap_err().line_col, Some((2, 4)));
/// assert_eq!(to_binary(b"\0asn\x01\0\0\0").unwrap_err().offset, Some(0));
/// ```
pub fn to_binary(input: &[u8]) -> Result<Cow<'_, [u8]>, WasmError> {
    if looks_binary(input) {
        check_magic(input)?;
        return Ok(Cow::Borrowed(input));
    }
    wat::parse_bytes(input).map_err(|e| text_error(&e.to_string()))
}

/// Refuses `input` unless it starts with the binary magic `\0asm`: the
/// error wasmparser gives for the module's header (a byte offset), so that
/// an empty or damaged binary is reported as a binary, not as text.
///
/// # Errors
/// No magic number, or a wrong one.
///
/// ```
/// use ssakit_wasm::module::check_magic;
/// assert!(check_magic(b"\0asm\x01\0\0\0").is_ok());
/// let e = check_magic(b"").unwrap_err();
/// assert_eq!(e.offset, Some(0));
/// assert!(e.line_col.is_none());
/// assert_eq!(check_magic(b"\x7fELF").unwrap_err().offset, Some(0));
/// ```
pub fn check_magic(input: &[u8]) -> Result<(), WasmError> {
    if input.starts_with(b"\0asm") {
        return Ok(());
    }
    let found = input
        .iter()
        .take(4)
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ");
    Err(WasmError::at(
        0,
        if input.is_empty() {
            "empty file: a binary module starts with the magic number 00 61 73 6d (\\0asm)"
                .to_string()
        } else {
            format!("bad magic number: expected 00 61 73 6d (\\0asm), found {found}")
        },
    ))
}

/// The message and `line:column` of `wat`'s rendered error (`MESSAGE`,
/// then a line ` --> FILE:LINE:COLUMN`, then the source line).
fn text_error(rendered: &str) -> WasmError {
    let mut lines = rendered.lines();
    let message = lines.next().unwrap_or("invalid text").trim().to_string();
    let line_col = lines
        .find_map(|l| l.trim().strip_prefix("--> "))
        .and_then(|loc| {
            let mut parts = loc.rsplitn(3, ':');
            let col = parts.next()?.parse().ok()?;
            let line = parts.next()?.parse().ok()?;
            Some((line, col))
        });
    WasmError {
        kind: crate::error::ErrorKind::Input,
        message,
        offset: None,
        func: None,
        line_col,
    }
}

/// The ssakit type of a WebAssembly value type (a reference type other
/// than `funcref` and `externref` is an error at `offset`).
///
/// ```
/// use ssakit::ir::Type;
/// use wasmparser::{RefType, ValType};
/// use ssakit_wasm::module::val_type;
/// assert_eq!(val_type(ValType::I64, 0), Ok(Type::I64));
/// assert_eq!(val_type(ValType::Ref(RefType::FUNCREF), 0), Ok(Type::FuncRef));
/// assert_eq!(val_type(ValType::Ref(RefType::ANYREF), 9).unwrap_err().offset, Some(9));
/// ```
pub fn val_type(t: ValType, offset: u64) -> Result<Type, WasmError> {
    Ok(match t {
        ValType::I32 => Type::I32,
        ValType::I64 => Type::I64,
        ValType::F32 => Type::F32,
        ValType::F64 => Type::F64,
        ValType::V128 => Type::V128,
        ValType::Ref(r) if r == wasmparser::RefType::FUNCREF => Type::FuncRef,
        ValType::Ref(r) if r == wasmparser::RefType::EXTERNREF => Type::ExternRef,
        ValType::Ref(r) => {
            return Err(
                WasmError::at(offset, format!("reference type {r} is not supported"))
                    .with_kind(crate::error::ErrorKind::Unsupported),
            )
        }
    })
}

/// Parses and validates `bytes` (a binary module), keeping its function
/// bodies unvalidated for the lifter.
///
/// # Errors
/// The first malformed or invalid section, with its byte offset.
///
/// ```
/// use ssakit_wasm::module::{parse, to_binary};
/// let wasm = to_binary(b"(module (func (result i32) i32.const 7))").unwrap();
/// assert_eq!(parse(&wasm).unwrap().bodies.len(), 1);
/// // A type mismatch is found when the body is lifted, not here; a
/// // truncated module is not.
/// let Err(e) = parse(&wasm[..wasm.len() - 1]) else { panic!() };
/// assert!(e.offset.is_some());
/// ```
pub fn parse(bytes: &[u8]) -> Result<WasmModule<'_>, WasmError> {
    let mut validator = Validator::new_with_features(features());
    let mut m = WasmModule {
        types: Vec::new(),
        func_types: Vec::new(),
        num_imported: 0,
        names: Vec::new(),
        bodies: Vec::new(),
        aliases: Vec::new(),
    };
    let mut exports: Vec<(String, u32)> = Vec::new();
    let mut import_names: Vec<String> = Vec::new();
    let mut section_names: Vec<(u32, String)> = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload?;
        let valid = validator
            .payload(&payload)
            .map_err(|e| const_expr_refusal(&payload, e))?;
        match valid {
            wasmparser::ValidPayload::Func(validate, body) => m.bodies.push(Body {
                index: validate.index,
                body,
                validate,
            }),
            wasmparser::ValidPayload::Parser(_) => {
                return Err(WasmError::at(0, "components are not supported")
                    .with_kind(crate::error::ErrorKind::Unsupported))
            }
            _ => {}
        }
        match payload {
            Payload::TypeSection(reader) => {
                for group in reader {
                    let group = group?;
                    for sub in group.into_types() {
                        let sig = match &sub.composite_type.inner {
                            wasmparser::CompositeInnerType::Func(f) => {
                                let conv = |ts: &[ValType]| -> Result<Vec<Type>, WasmError> {
                                    ts.iter().map(|&t| val_type(t, 0)).collect()
                                };
                                Some(Signature {
                                    params: conv(f.params())?,
                                    results: conv(f.results())?,
                                })
                            }
                            _ => None,
                        };
                        m.types.push(sig);
                    }
                }
            }
            Payload::ImportSection(reader) => {
                for imp in reader.into_imports() {
                    let imp = imp?;
                    if let wasmparser::TypeRef::Func(t) = imp.ty {
                        m.func_types.push(t);
                        import_names.push(imp.name.to_string());
                        m.num_imported += 1;
                    }
                }
            }
            Payload::FunctionSection(reader) => {
                for t in reader {
                    m.func_types.push(t?);
                }
            }
            Payload::ExportSection(reader) => {
                for e in reader {
                    let e = e?;
                    if e.kind == wasmparser::ExternalKind::Func {
                        exports.push((e.name.to_string(), e.index));
                    }
                }
            }
            Payload::CustomSection(c) => {
                // A malformed name section is ignored, as engines do.
                if let wasmparser::KnownCustom::Name(names) = c.as_known() {
                    for sub in names.into_iter().flatten() {
                        if let wasmparser::Name::Function(map) = sub {
                            section_names.extend(
                                map.into_iter()
                                    .flatten()
                                    .map(|n| (n.index, n.name.to_string())),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }
    m.names = function_names(m.func_types.len(), &import_names, &section_names);
    // The names as written, where the `.ssa` name differs, then exports.
    let written = import_names
        .into_iter()
        .enumerate()
        .map(|(i, n)| (n, i as u32))
        .chain(section_names.into_iter().map(|(i, n)| (n, i)));
    m.aliases = written
        .chain(exports)
        .filter(|(n, i)| m.names.get(*i as usize).is_some_and(|s| s != n))
        .collect();
    Ok(m)
}

/// The validator's error `e` on `payload`, or, when it refuses a
/// constant expression (`constant expression required: ...`), the
/// proposal that expression needs, named as every other refusal names
/// one: arithmetic (`i32.add`, `i64.mul`, ...) is the extended-const
/// proposal, at the first such operator; a `global.get` of a global the
/// module defines (not imported) is the gc proposal's.
fn const_expr_refusal(payload: &Payload<'_>, e: wasmparser::BinaryReaderError) -> WasmError {
    const REQUIRED: &str = "constant expression required";
    if !e.message().starts_with(REQUIRED) {
        return e.into();
    }
    let unsupported = |offset, msg: String| {
        WasmError::at(offset, msg).with_kind(crate::error::ErrorKind::Unsupported)
    };
    if let Some((op, offset)) = const_expr_arithmetic(payload) {
        return unsupported(
            offset,
            format!(
                "`{op}` in a constant expression: the extended-const proposal is not supported"
            ),
        );
    }
    if e.message().contains("global.get of locally defined global") {
        return unsupported(
            e.offset(),
            "`global.get` of a global the module defines, in a constant expression: \
             the gc proposal is not supported (only imported globals)"
                .to_string(),
        );
    }
    e.into()
}

/// The first operator of the extended-const proposal (integer `add`,
/// `sub`, `mul`) in a constant expression of the section `payload`
/// (globals, tables, elements, data), and its byte offset.
fn const_expr_arithmetic(payload: &Payload<'_>) -> Option<(&'static str, u64)> {
    let mut exprs: Vec<wasmparser::ConstExpr<'_>> = Vec::new();
    match payload {
        Payload::GlobalSection(r) => {
            exprs.extend(r.clone().into_iter().flatten().map(|g| g.init_expr))
        }
        Payload::TableSection(r) => {
            exprs.extend(
                r.clone()
                    .into_iter()
                    .flatten()
                    .filter_map(|t| match t.init {
                        wasmparser::TableInit::Expr(e) => Some(e),
                        wasmparser::TableInit::RefNull => None,
                    }),
            )
        }
        Payload::ElementSection(r) => {
            for el in r.clone().into_iter().flatten() {
                if let wasmparser::ElementKind::Active { offset_expr, .. } = el.kind {
                    exprs.push(offset_expr);
                }
                if let wasmparser::ElementItems::Expressions(_, items) = el.items {
                    exprs.extend(items.into_iter().flatten());
                }
            }
        }
        Payload::DataSection(r) => {
            for d in r.clone().into_iter().flatten() {
                if let wasmparser::DataKind::Active { offset_expr, .. } = d.kind {
                    exprs.push(offset_expr);
                }
            }
        }
        _ => {}
    }
    use wasmparser::Operator as O;
    exprs.iter().find_map(|e| {
        let mut ops = e.get_operators_reader();
        while let Ok((op, offset)) = ops.read_with_offset() {
            let name = match op {
                O::I32Add => "i32.add",
                O::I32Sub => "i32.sub",
                O::I32Mul => "i32.mul",
                O::I64Add => "i64.add",
                O::I64Sub => "i64.sub",
                O::I64Mul => "i64.mul",
                O::End => return None,
                _ => continue,
            };
            return Some((name, offset));
        }
        None
    })
}

/// Valid, unique `.ssa` names for `n` functions: the name section's, else
/// an import's field name, else `f{index}`; characters outside
/// `[A-Za-z0-9_]` become `_`, a leading digit gets a `_` before it, and a
/// keyword, an operator name (`select`, `call_indirect`) or a name taken
/// gets `_{index}` after it.
///
/// ```
/// let imports = ["log".to_string()];
/// let section = [(1, "my-func".to_string()), (2, "log".to_string()), (3, "ret".to_string())];
/// let names = ssakit_wasm::module::function_names(5, &imports, &section);
/// assert_eq!(names, ["log", "my_func", "log_2", "ret_3", "f4"]);
/// ```
pub fn function_names(n: usize, imports: &[String], section: &[(u32, String)]) -> Vec<String> {
    let mut chosen: Vec<Option<String>> = vec![None; n];
    for (i, name) in imports.iter().enumerate() {
        chosen[i] = Some(name.clone());
    }
    for (i, name) in section {
        if let Some(c) = chosen.get_mut(*i as usize) {
            *c = Some(name.clone());
        }
    }
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(n);
    for (i, c) in chosen.into_iter().enumerate() {
        let mut s: String = c
            .unwrap_or_default()
            .chars()
            .map(|ch| {
                if ch.is_ascii_alphanumeric() || ch == '_' {
                    ch
                } else {
                    '_'
                }
            })
            .collect();
        if s.is_empty() {
            s = format!("f{i}");
        } else if s.starts_with(|ch: char| ch.is_ascii_digit()) {
            s.insert(0, '_');
        }
        let reserved = |s: &str| {
            RESERVED.contains(&s)
                || Type::from_name(s).is_some()
                || s == "select"
                || s == "call_indirect"
        };
        if reserved(&s) || taken.contains(&s) {
            s = format!("{s}_{i}");
            while taken.contains(&s) {
                s.push('_');
            }
        }
        taken.insert(s.clone());
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_valid_and_unique() {
        let imports = vec!["env.abort".to_string()];
        let section = vec![
            (1, "main".to_string()),
            (2, "main".to_string()),
            (3, "9lives".to_string()),
            (4, "phi".to_string()),
            (5, "std::vec::Vec<T>::push".to_string()),
            (6, "f7".to_string()),
        ];
        let names = function_names(8, &imports, &section);
        assert_eq!(
            names,
            [
                "env_abort",
                "main",
                "main_2",
                "_9lives",
                "phi_4",
                "std__vec__Vec_T___push",
                "f7",
                "f7_7"
            ]
        );
    }
}
