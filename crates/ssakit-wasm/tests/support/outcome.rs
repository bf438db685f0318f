//! What a call under wasmi did, comparable across two modules
//! (`wasmi_diff.rs`, `operators.rs`).
#![allow(dead_code)]

use wasmi::Val;

/// What one call did, comparable across modules.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum Outcome {
    /// Returned these values (floats and vectors as bits, references as
    /// null or not).
    Values(Vec<u128>),
    /// Trapped with this trap code.
    Trap(String),
}

/// One value, comparable: floats and vectors by bits.
pub fn key(v: &Val) -> u128 {
    match v {
        Val::I32(x) => *x as u32 as u128,
        Val::I64(x) => *x as u64 as u128,
        Val::F32(x) => x.to_bits() as u128,
        Val::F64(x) => x.to_bits() as u128,
        Val::V128(x) => x.as_u128(),
        Val::FuncRef(r) => r.is_null() as u128,
        Val::ExternRef(r) => r.is_null() as u128,
    }
}
