//! Generated programs (shape, size, seed from the fuzzer's bytes) through
//! the differential oracle.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ssakit::oracle::fuzz_generated(data));
