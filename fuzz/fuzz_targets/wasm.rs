//! `wasm-smith` modules (WebAssembly 2.0, the features ssakit accepts)
//! from the fuzzer's bytes through the WebAssembly front end: every
//! function lifts, round-trips through text, constructs in all three
//! flavours, verifies, optimises and destructs.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ssakit_wasm::check::fuzz_smith(data);
});
