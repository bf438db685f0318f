//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod random_program;

use std::path::PathBuf;

/// The repository's `examples/` folder.
pub fn examples_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"))
}

/// Reads `examples/NAME`.
pub fn example(name: &str) -> String {
    std::fs::read_to_string(examples_dir().join(name))
        .unwrap_or_else(|e| panic!("examples/{name}: {e}"))
}

#[path = "../support/golden.rs"]
mod golden_file;
#[allow(unused_imports)]
pub use golden_file::golden;

/// `n` property-test cases, times `SSAKIT_PROPTEST_SCALE` when it is set:
/// the randomized soak (`.ci/run` fixes proptest's seed with
/// `PROPTEST_RNG_SEED`; without it every run draws new programs).
pub fn cases(n: u32) -> u32 {
    let scale: u32 = std::env::var("SSAKIT_PROPTEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    n.saturating_mul(scale)
}
