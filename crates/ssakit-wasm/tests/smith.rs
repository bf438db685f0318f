//! Random valid modules from `wasm-smith` (the features ssakit accepts)
//! through [`fuzz_module`]: every function lifts and passes the checks.
//! The fuzz target `fuzz/fuzz_targets/wasm.rs` does the same with the
//! fuzzer's bytes; here, a fixed seed (`SSAKIT_SMITH=N` modules, 200 by
//! default; the README's figure is from 10,000).

use arbitrary::Unstructured;
use ssakit_wasm::check::fuzz_module;

/// wasm-smith's configuration for WebAssembly 2.0 (ssakit's features).
pub fn config() -> wasm_smith::Config {
    wasm_smith::Config {
        exceptions_enabled: false,
        gc_enabled: false,
        memory64_enabled: false,
        relaxed_simd_enabled: false,
        tail_call_enabled: false,
        threads_enabled: false,
        wide_arithmetic_enabled: false,
        extended_const_enabled: false,
        custom_page_sizes_enabled: false,
        compact_imports_enabled: false,
        max_memories: 1,
        min_funcs: 1,
        ..Default::default()
    }
}

#[test]
fn wasm_smith_modules_lift_and_pass_every_check() {
    let n: u64 = std::env::var("SSAKIT_SMITH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut made = 0;
    let mut functions = 0;
    for k in 0..n {
        let bytes: Vec<u8> = (0..16_384)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        let mut u = Unstructured::new(&bytes);
        let Ok(m) = wasm_smith::Module::new(config(), &mut u) else {
            continue;
        };
        let wasm = m.to_bytes();
        let r = std::panic::catch_unwind(|| fuzz_module(&wasm));
        if r.is_err() {
            let path = std::env::temp_dir().join(format!("ssakit-smith-{k}.wasm"));
            std::fs::write(&path, &wasm).unwrap();
            panic!("module {k} failed: saved as {}", path.display());
        }
        made += 1;
        let binary = ssakit_wasm::module::parse(&wasm).expect("wasm-smith modules validate");
        functions += binary.bodies.len();
    }
    assert!(made > n / 2, "{made} of {n} modules generated");
    eprintln!("{made} wasm-smith modules checked, {functions} functions");
}
