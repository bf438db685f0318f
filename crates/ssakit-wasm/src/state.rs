//! A module's memory and globals as the interpreter's [`State`]: what an
//! instance of the module holds before any of its functions runs, so that
//! the interpreter can run lifted functions with their meaning (the
//! [operation set](ssakit::ir::Opcode)) and be compared with a real engine.
//!
//! Instantiation as WebAssembly defines it, for what the interpreter runs:
//!
//! * memory 0, defined by the module, of its minimum size in pages and
//!   growable to its maximum (or to 65,536 pages);
//! * each defined global, with the value of its constant initialiser
//!   (`i32.const`, `i64.const`, `f32.const`, `f64.const`, or `global.get`
//!   of an earlier global);
//! * each active data segment of memory 0 copied at its constant offset,
//!   in order; a segment out of bounds is the instantiation's trap.
//!
//! What the interpreter cannot hold is refused with
//! [`ErrorKind::Unsupported`](crate::error::ErrorKind): an imported memory
//! or global, a second memory, a 64-bit memory. A global of a reference or
//! `v128` type is held as `undef` (a function reading it is refused: the
//! interpreter has no variable of its type). The start function is the
//! caller's to run.

use crate::error::{ErrorKind, WasmError};
use ssakit::interp::{Memory, State, Value, WASM_PAGE};
use wasmparser::{ConstExpr, DataKind, Operator, Parser, Payload, TypeRef, ValType};

/// The initial [`State`] of `bytes` (a valid module; see [the module
/// documentation](self)).
///
/// # Errors
/// An `Unsupported` error for what the interpreter cannot hold, an `Input`
/// one for a malformed module or a data segment out of bounds.
///
/// ```
/// use ssakit_wasm::module::to_binary;
/// let wasm = to_binary(b"(module (memory 1 2) (global i32 (i32.const 7)) (data (i32.const 3) \"hi\"))").unwrap();
/// let s = ssakit_wasm::state::initial_state(&wasm).unwrap();
/// assert_eq!(s.memory.read(3, 2), Ok(0x6968));
/// assert_eq!(s.globals, [ssakit::interp::Value::Int(7)]);
/// ```
pub fn initial_state(bytes: &[u8]) -> Result<State, WasmError> {
    let unsupported = |offset: u64, what: &str| {
        WasmError::at(offset, format!("the interpreter cannot hold {what}"))
            .with_kind(ErrorKind::Unsupported)
    };
    let mut state = State {
        memory: Memory::linear(0, 0),
        ..State::default()
    };
    let mut memories = 0;
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload?;
        match payload {
            Payload::ImportSection(r) => {
                for import in r.into_imports() {
                    let import = import?;
                    match import.ty {
                        TypeRef::Memory(_) => return Err(unsupported(0u64, "an imported memory")),
                        TypeRef::Global(_) => return Err(unsupported(0u64, "an imported global")),
                        _ => {}
                    }
                }
            }
            Payload::MemorySection(r) => {
                let offset = r.range().start;
                for m in r {
                    let m = m?;
                    memories += 1;
                    if memories > 1 {
                        return Err(unsupported(offset, "a second memory"));
                    }
                    if m.memory64 {
                        return Err(unsupported(offset, "a 64-bit memory"));
                    }
                    let max = m.maximum.unwrap_or(WASM_PAGE).min(WASM_PAGE);
                    state.memory = Memory::linear(m.initial, max);
                }
            }
            Payload::GlobalSection(r) => {
                for g in r {
                    let g = g?;
                    let offset = g.init_expr.get_binary_reader().original_position();
                    // A `v128` or reference global is held as `undef`: the
                    // functions that read it have a variable of its type,
                    // which the interpreter refuses.
                    if !matches!(
                        g.ty.content_type,
                        ValType::I32 | ValType::I64 | ValType::F32 | ValType::F64
                    ) {
                        state.globals.push(Value::Undef);
                        continue;
                    }
                    let v = constant(&g.init_expr, &state)
                        .ok_or_else(|| unsupported(offset, "this global's initialiser"))?;
                    state.globals.push(v);
                }
            }
            Payload::DataSection(r) => {
                for d in r {
                    let d = d?;
                    let DataKind::Active {
                        memory_index,
                        offset_expr,
                    } = d.kind
                    else {
                        continue;
                    };
                    let at = offset_expr.get_binary_reader().original_position();
                    if memory_index != 0 {
                        return Err(unsupported(at, "a data segment of another memory"));
                    }
                    let Some(Value::Int(start)) = constant(&offset_expr, &state) else {
                        return Err(unsupported(at, "this data segment's offset"));
                    };
                    state
                        .memory
                        .write(start as u32 as u64, d.data)
                        .map_err(|_| WasmError::at(at, "data segment out of bounds"))?;
                }
            }
            _ => {}
        }
    }
    Ok(state)
}

/// The value of a constant expression: one constant, or `global.get` of
/// a global already in `state`.
fn constant(e: &ConstExpr<'_>, state: &State) -> Option<Value> {
    let mut ops = e.get_operators_reader();
    let v = match ops.read().ok()? {
        Operator::I32Const { value } => Value::Int(value as i64),
        Operator::I64Const { value } => Value::Int(value),
        Operator::F32Const { value } => Value::Int(value.bits() as i64),
        Operator::F64Const { value } => Value::Int(value.bits() as i64),
        Operator::GlobalGet { global_index } => *state.globals.get(global_index as usize)?,
        _ => return None,
    };
    matches!(ops.read().ok()?, Operator::End).then_some(v)
}
