//! What a test does when node or a module of the corpus is absent: skips
//! with a message on a laptop, fails where `SSAKIT_REQUIRE_CORPUS` is set
//! (`.ci/run` sets it after installing node and fetching sql.js, so its
//! workloads cannot pass by skipping).

/// Reports `what` (an absent tool or file, and how to get it): a panic
/// when `SSAKIT_REQUIRE_CORPUS` is set, else a `skipped:` line.
pub fn absent(what: &str) {
    absent_if(std::env::var_os("SSAKIT_REQUIRE_CORPUS").is_some(), what);
}

/// [`absent`] with the variable's presence given.
fn absent_if(required: bool, what: &str) {
    assert!(
        !required,
        "{what}, and SSAKIT_REQUIRE_CORPUS is set: install node and run scripts/fetch-wasm-corpus.sh"
    );
    eprintln!("skipped: {what}");
}

#[test]
fn an_absent_input_fails_only_where_required() {
    absent_if(false, "nothing (a skip)");
    assert!(std::panic::catch_unwind(|| absent_if(true, "nothing")).is_err());
}
