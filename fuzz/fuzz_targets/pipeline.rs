//! Parsed programs through every construction, optimisation and destruction
//! pipeline, checked by the differential oracle.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ssakit::oracle::fuzz_source(data));
