//! Random valid modules from `wasm-smith` (the features ssakit accepts)
//! through the fuzz target's body ([`fuzz_smith`]): every function lifts
//! and passes the checks. A fixed seed; `SSAKIT_SMITH=N` modules, 200 by
//! default (docs/testing.md's figure is from 10,000).
#![cfg(feature = "smith")]

#[path = "support/seeded.rs"]
mod seeded;

use ssakit_wasm::check::fuzz_smith;

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
        let data = seeded::bytes(&mut state, 16_384);
        match std::panic::catch_unwind(|| fuzz_smith(&data)) {
            Ok(Some(wasm)) => {
                made += 1;
                let m = ssakit_wasm::module::parse(&wasm).expect("wasm-smith modules validate");
                functions += m.bodies.len();
            }
            Ok(None) => {}
            Err(_) => {
                let path = std::env::temp_dir().join(format!("ssakit-smith-{k}.bin"));
                std::fs::write(&path, &data).unwrap();
                panic!(
                    "module {k} failed: its fuzzer bytes saved as {}",
                    path.display()
                );
            }
        }
    }
    assert!(made > n / 2, "{made} of {n} modules generated");
    eprintln!("{made} wasm-smith modules checked, {functions} functions");
}
