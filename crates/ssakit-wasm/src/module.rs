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
pub fn features() -> WasmFeatures {
    WasmFeatures::WASM2
}

/// A function signature in ssakit types.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Signature {
    /// Parameter types.
    pub params: Vec<Type>,
    /// Result types.
    pub results: Vec<Type>,
}

/// One function body, with what its validation needs.
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
}

impl WasmModule<'_> {
    /// The signature of function `index`.
    pub fn signature(&self, index: u32) -> &Signature {
        self.types[self.func_types[index as usize] as usize]
            .as_ref()
            .expect("validated: a function has a function type")
    }

    /// The index of the function named `name` (its `.ssa` name) or written
    /// as its decimal index.
    pub fn find(&self, name: &str) -> Option<u32> {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return Some(i as u32);
        }
        name.parse::<u32>()
            .ok()
            .filter(|&i| (i as usize) < self.names.len())
    }
}

/// The binary module of `input`: itself if it starts with the binary
/// magic `\0asm`, else assembled from WebAssembly text.
///
/// # Errors
/// Text that does not assemble (the message has `line:column`).
pub fn to_binary(input: &[u8]) -> Result<Cow<'_, [u8]>, WasmError> {
    if input.starts_with(b"\0asm") {
        return Ok(Cow::Borrowed(input));
    }
    wat::parse_bytes(input).map_err(|e| text_error(&e.to_string()))
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
        message,
        offset: None,
        func: None,
        line_col,
    }
}

/// The ssakit type of a WebAssembly value type.
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
            return Err(WasmError::at(
                offset,
                format!("reference type {r} is not supported"),
            ))
        }
    })
}

/// Parses and validates `bytes` (a binary module), keeping its function
/// bodies unvalidated for the lifter.
///
/// # Errors
/// The first malformed or invalid section, with its byte offset.
pub fn parse(bytes: &[u8]) -> Result<WasmModule<'_>, WasmError> {
    let mut validator = Validator::new_with_features(features());
    let mut m = WasmModule {
        types: Vec::new(),
        func_types: Vec::new(),
        num_imported: 0,
        names: Vec::new(),
        bodies: Vec::new(),
    };
    let mut import_names: Vec<String> = Vec::new();
    let mut section_names: Vec<(u32, String)> = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload?;
        match validator.payload(&payload)? {
            wasmparser::ValidPayload::Func(validate, body) => m.bodies.push(Body {
                index: validate.index,
                body,
                validate,
            }),
            wasmparser::ValidPayload::Parser(_) => {
                return Err(WasmError::at(0, "components are not supported"))
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
    Ok(m)
}

/// Valid, unique `.ssa` names for `n` functions: the name section's, else
/// an import's field name, else `f{index}`; characters outside
/// `[A-Za-z0-9_]` become `_`, a leading digit gets a `_` before it, and a
/// keyword, an operator name (`select`, `call_indirect`) or a name taken
/// gets `_{index}` after it.
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
