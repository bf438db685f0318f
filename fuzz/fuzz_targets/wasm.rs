//! `wasm-smith` modules (WebAssembly 2.0, the features ssakit accepts)
//! from the fuzzer's bytes through the WebAssembly front end: every
//! function lifts, round-trips through text, constructs in all three
//! flavours, verifies, optimises and destructs
//! (`ssakit_wasm::check::fuzz_module`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = arbitrary::Unstructured::new(data);
    let config = wasm_smith::Config {
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
    };
    if let Ok(m) = wasm_smith::Module::new(config, &mut u) {
        ssakit_wasm::check::fuzz_module(&m.to_bytes());
    }
});
