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

/// Cargo's scratch folder for tests, `target/tmp`: `CARGO_TARGET_TMPDIR`
/// for integration tests; unit tests (`src/tests/`) do not get that
/// variable and use the workspace's `target/tmp`.
pub fn tmp_dir() -> &'static str {
    option_env!("CARGO_TARGET_TMPDIR")
        .unwrap_or(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/tmp"))
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

/// proptest's configuration for [`cases`]`(n)` cases whose failures are
/// read from the test's tracked `.proptest-regressions` file (replayed
/// first, as proptest does) but never written to it: a failing run saves
/// its seed under `target/tmp/proptest-regressions/` and says so, so a
/// test run leaves the work tree as it found it (`.ci/run` checks).
pub fn config(n: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: cases(n),
        failure_persistence: Some(Box::new(ReadOnlyRegressions)),
        ..proptest::test_runner::Config::default()
    }
}

/// Failure persistence that reads `tests/NAME.proptest-regressions` and
/// writes elsewhere ([`config`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReadOnlyRegressions;

impl proptest::test_runner::FailurePersistence for ReadOnlyRegressions {
    fn load_persisted_failures2(
        &self,
        source_file: Option<&'static str>,
    ) -> Vec<proptest::test_runner::PersistedSeed> {
        proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions")
            .load_persisted_failures2(source_file)
    }

    fn save_persisted_failure2(
        &mut self,
        source_file: Option<&'static str>,
        seed: proptest::test_runner::PersistedSeed,
        shrunken_value: &dyn std::fmt::Debug,
    ) {
        let name = source_file
            .and_then(|s| std::path::Path::new(s).file_stem())
            .map_or("unknown".into(), |s| s.to_string_lossy().into_owned());
        let path = format!(
            "{}/proptest-regressions/{name}.proptest-regressions",
            tmp_dir()
        );
        eprintln!(
            "proptest: failing seed saved in {path}; copy its `cc` line into the \
             test's tracked .proptest-regressions file to replay it first"
        );
        // proptest's `Direct` takes a `&'static str`: one small leak per failure.
        let path: &'static str = Box::leak(path.into_boxed_str());
        proptest::test_runner::FileFailurePersistence::Direct(path).save_persisted_failure2(
            source_file,
            seed,
            shrunken_value,
        );
    }

    fn box_clone(&self) -> Box<dyn proptest::test_runner::FailurePersistence> {
        Box::new(*self)
    }

    fn eq(&self, other: &dyn proptest::test_runner::FailurePersistence) -> bool {
        other.as_any().downcast_ref::<Self>().is_some()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
