//! Duplicate functions: bodies that are the same bytes as an earlier
//! body of the same type, merged into that one (what binaryen's
//! `duplicate-function-elimination` does at `-O1`, here on the input's
//! bytes; a module pass of `ssakit wasm opt -O1`, beside the per-function
//! pipeline of section 13.8's round trip).
//!
//! Compilers of languages with generics emit one body per instantiation,
//! and many instantiations compile to the same code (Rust's
//! `drop_in_place::<T>` for types without a destructor, accessors of
//! structs of the same layout): `@swc/wasm` has 506 bodies equal to an
//! earlier one, 263 KB of its 15.9 MB code section.
//!
//! # The rule
//!
//! Two functions are **duplicates** when they have the same type index and
//! the same body bytes (locals declarations and operators). The body alone
//! decides what a function does given the module around it, which both
//! share, so a call of either runs the same code: the same callees, the
//! same globals, memories and tables by the same indices.
//!
//! The first function of each class of duplicates is its
//! **representative**. Every other one (a *merged* function)
//!
//! 1. is called by no rewritten body: [`Duplicates::representative`] is
//!    what direct calls are emitted to;
//! 2. keeps its index, its exports, its table slots and its names (the
//!    sections outside the code are copied as they are), with a
//!    **forwarding body** ([`forwarding_body`]): its parameters, in
//!    order, passed to the representative, whose results it returns. A
//!    `call_indirect`, an export or a body copied as it was (kept over the
//!    limit of locals) still reaches it and gets the same results.
//!
//! A forwarding body is one more frame on the call stack where the module
//! calls a merged function through a table or an export.
//!
//! Classes are found in one pass over the bodies, not iterated (binaryen
//! merges again after redirecting calls; on swc one pass finds 262,992 of
//! binaryen's 263,438 bytes).

use crate::module::WasmModule;
use rustc_hash::FxHashMap;

/// The representative of every function of a module (imports first:
/// an import is its own representative).
///
/// Invariant: `rep[rep[f]] == rep[f]`, and `rep[f] <= f`.
pub(crate) struct Duplicates {
    rep: Vec<u32>,
    merged: usize,
}

impl Duplicates {
    /// No function merged (`-O0`, or only some functions rewritten).
    pub(crate) fn none(m: &WasmModule<'_>) -> Duplicates {
        Duplicates {
            rep: (0..m.func_types.len() as u32).collect(),
            merged: 0,
        }
    }

    /// The classes of duplicates of `m`'s defined functions (see the
    /// module documentation).
    pub(crate) fn find(m: &WasmModule<'_>) -> Duplicates {
        let mut d = Duplicates::none(m);
        let mut first: FxHashMap<(u32, &[u8]), u32> = FxHashMap::default();
        first.reserve(m.bodies.len());
        for b in &m.bodies {
            let key = (m.func_types[b.index as usize], b.body.as_bytes());
            let r = *first.entry(key).or_insert(b.index);
            if r != b.index {
                d.rep[b.index as usize] = r;
                d.merged += 1;
            }
        }
        d
    }

    /// The function a call of `f` is emitted to.
    pub(crate) fn representative(&self, f: u32) -> u32 {
        self.rep.get(f as usize).copied().unwrap_or(f)
    }

    /// The representative of `f` if `f` is merged into another function.
    pub(crate) fn merged_into(&self, f: u32) -> Option<u32> {
        Some(self.representative(f)).filter(|&r| r != f)
    }

    /// How many functions are merged into another.
    pub(crate) fn merged(&self) -> usize {
        self.merged
    }
}

/// The body of a function of `params` parameters merged into `rep`:
/// `local.get 0 … local.get (params-1); call rep`, no locals.
pub(crate) fn forwarding_body(params: usize, rep: u32) -> wasm_encoder::Function {
    let mut f = wasm_encoder::Function::new([]);
    let mut ins = f.instructions();
    for p in 0..params as u32 {
        ins.local_get(p);
    }
    ins.call(rep).end();
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::{parse, to_binary};

    #[test]
    fn the_same_bytes_and_type_merge_into_the_first() {
        // 1 and 3 are the same body and type; 2 is the same body of
        // another type (one more parameter); 4 differs in its constant.
        let wasm = to_binary(
            b"(module (import \"env\" \"g\" (func (param i32) (result i32)))
            (func (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
            (func (param i32 f32) (result i32) (i32.add (local.get 0) (i32.const 1)))
            (func (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
            (func (param i32) (result i32) (i32.add (local.get 0) (i32.const 2))))",
        )
        .unwrap();
        let m = parse(&wasm).unwrap();
        let d = Duplicates::find(&m);
        let reps: Vec<u32> = (0..5).map(|f| d.representative(f)).collect();
        assert_eq!(reps, [0, 1, 2, 1, 4]);
        assert_eq!(
            (d.merged(), d.merged_into(3), d.merged_into(1)),
            (1, Some(1), None)
        );
        let none = Duplicates::none(&m);
        assert_eq!((none.merged(), none.merged_into(3)), (0, None));
    }

    #[test]
    fn a_forwarding_body_passes_every_parameter() {
        let mut bytes = Vec::new();
        wasm_encoder::Encode::encode(&forwarding_body(2, 7), &mut bytes);
        // size, no locals, local.get 0, local.get 1, call 7, end.
        assert_eq!(bytes, [8, 0, 0x20, 0, 0x20, 1, 0x10, 7, 0x0b]);
    }
}
