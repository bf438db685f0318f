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
