//! The corpus (`scripts/fetch-wasm-corpus.sh`): every function of real
//! modules nobody here wrote lifts, prints as text that parses back to the
//! same IR, constructs in all three flavours and verifies, goes through
//! `copy-prop,const-prop,dce` and destruction, and prints and parses back.
//! A module that is absent is skipped with a message.

mod support;

use rayon::prelude::*;
use ssakit_wasm::check::check_function;
use support::{corpus, lift_all};

/// Runs every function of `name` through [`check_function`]; panics
/// listing every failure by function index.
fn check_module(name: &str) {
    let Some(bytes) = corpus(name) else { return };
    let functions = lift_all(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(!functions.is_empty());
    let results: Vec<Result<[usize; 3], String>> =
        functions.par_iter().map(check_function).collect();
    let failures: Vec<String> = results
        .iter()
        .zip(&functions)
        .enumerate()
        .filter_map(|(k, (r, f))| r.as_ref().err().map(|e| format!("#{k} {}: {e}", f.name())))
        .collect();
    assert!(
        failures.is_empty(),
        "{name}: {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let mut phis = [0usize; 3];
    for r in results.iter().flatten() {
        for k in 0..3 {
            phis[k] += r[k];
        }
    }
    // Each flavour places a subset of the one before.
    assert!(phis[0] >= phis[1] && phis[1] >= phis[2], "{phis:?}");
    eprintln!("{name}: {} functions, phis {phis:?}", functions.len());
}

#[test]
fn every_function_of_sql_wasm() {
    check_module("sql-wasm.wasm");
}

#[test]
#[ignore = "the larger modules: a few minutes (esbuild's minimal SSA has 35 million phis)"]
fn every_function_of_brotli_and_esbuild() {
    check_module("brotli_wasm_bg.wasm");
    check_module("esbuild.wasm");
}
