//! Helpers of the front end's tests: lifting text or bytes, and the checks
//! every lifted function must pass.
#![allow(dead_code)]

pub mod absent;

use ssakit::ir::{Function, Module};
use ssakit::text::print_module;
use ssakit_wasm::lift::{lift, ModuleSymbols};
use ssakit_wasm::module;
use ssakit_wasm::pipeline;
use ssakit_wasm::WasmError;

/// Every function of the module `bytes` (binary or text), lifted.
pub fn lift_all(bytes: &[u8]) -> Result<Vec<Function>, WasmError> {
    let binary = module::to_binary(bytes)?;
    let m = module::parse(&binary)?;
    let syms = ModuleSymbols::new(&m);
    Ok(pipeline::lift_module(&m, &syms)?
        .into_iter()
        .map(|l| l.func)
        .collect())
}

/// The lifted module of `wat`, which must lift.
pub fn lift_wat(wat: &str) -> Vec<Function> {
    lift_all(wat.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// One function of `wat`, lifted.
pub fn lift_one(wat: &str, index: usize) -> Function {
    let binary = module::to_binary(wat.as_bytes()).unwrap();
    let m = module::parse(&binary).unwrap();
    let syms = ModuleSymbols::new(&m);
    lift(&m, &syms, &m.bodies[index]).unwrap().func
}

/// The module's text.
pub fn text(functions: Vec<Function>) -> String {
    print_module(&Module { functions })
}

/// Where the corpus is (see `scripts/fetch-wasm-corpus.sh`).
pub fn corpus(name: &str) -> Option<Vec<u8>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/wasm-corpus/").to_string() + name;
    match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(_) => {
            absent::absent(&format!(
                "{path} is absent (run scripts/fetch-wasm-corpus.sh)"
            ));
            None
        }
    }
}
