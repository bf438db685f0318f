//! The module round trip of `ssakit wasm opt` (section 13.8, part 2):
//! every function body lifted, put into SSA form, optimised, destructed
//! and emitted again; everything outside the function bodies carried over
//! unchanged.
//!
//! **Contract (stub).** Until the emitter lands, [`optimize`] validates
//! its input and returns it unchanged, so that the harnesses built on it
//! (wasmi differential tests, node workloads, the comparison against
//! `wasm-opt`) run today and test the real round trip the day it lands.

use crate::error::WasmError;
use crate::module;
use ssakit::construct;
use ssakit::destruct::DestructOptions;
use ssakit::opt::Pass;

/// What to run on every function.
#[derive(Clone, Debug, Default)]
pub struct OptOptions {
    /// Construction options (the flavour).
    pub construct: construct::Options,
    /// Optimisation passes on the SSA form.
    pub passes: Vec<Pass>,
    /// Destruction options (split, coalesce, conventional).
    pub destruct: DestructOptions,
}

/// Figures of one round trip.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptStats {
    /// Functions with a body.
    pub functions: usize,
    /// Size in bytes of the input's code section (its contents).
    pub code_bytes_before: usize,
    /// Size in bytes of the output's code section.
    pub code_bytes_after: usize,
    /// Declared locals over all bodies (parameters not counted), before.
    pub locals_before: usize,
    /// Declared locals over all bodies (parameters not counted), after.
    pub locals_after: usize,
}

/// The rewritten module and its figures.
#[derive(Clone, Debug, Default)]
pub struct Optimized {
    /// The output module, binary.
    pub bytes: Vec<u8>,
    /// Its figures.
    pub stats: OptStats,
}

/// Rewrites every function body of the module `bytes` (binary, or text
/// assembled first) through `options`.
///
/// ```
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func (result i32) i32.const 1))").unwrap();
/// let out = ssakit_wasm::rewrite::optimize(&wasm, &Default::default()).unwrap();
/// assert!(ssakit_wasm::module::parse(&out.bytes).is_ok());
/// ```
pub fn optimize(bytes: &[u8], options: &OptOptions) -> Result<Optimized, WasmError> {
    let _ = options;
    let binary = module::to_binary(bytes)?;
    let m = module::parse(&binary)?;
    let functions = m.bodies.len();
    Ok(Optimized {
        bytes: binary.to_vec(),
        stats: OptStats {
            functions,
            ..OptStats::default()
        },
    })
}
