//! Golden files, shared by the tests of both crates (the CLI's tests
//! include this file by path): `tests/golden/NAME` of the crate that
//! includes it.

use std::path::PathBuf;

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
