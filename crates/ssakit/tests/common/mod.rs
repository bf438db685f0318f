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

/// Compares `actual` with the golden file `tests/golden/NAME` exactly. With
/// `BLESS=1` in the environment, writes `actual` as the new expectation.
#[track_caller]
pub fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden")).join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "golden file {}: {e} (run with BLESS=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        panic!(
            "output differs from {} (run with BLESS=1 to accept)\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        );
    }
}

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
