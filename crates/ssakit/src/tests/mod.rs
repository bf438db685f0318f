//! Tests that reach inside the library: they call items that are
//! `pub(crate)` (the steps inside the passes, the brute-force oracles'
//! helpers, the IR's internal queries), so they live in the crate as unit
//! tests instead of under `crates/ssakit/tests`, which sees only the public
//! API. They share `tests/common` and `tests/support`
//! with the integration tests. `ssakit::` paths resolve here through the
//! `extern crate self as ssakit` of `lib.rs`, so each file reads as it
//! did as an integration test.

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../../tests/support/mod.rs"]
mod support;

mod analysis_big;
mod analysis_chapter;
mod analysis_props;
mod analysis_shapes;
mod baseline_counts;
mod bril;
mod construct_props;
mod def_use;
mod destruct;
mod destruct_big;
mod examples;
mod gen;
mod interp;
mod opt_big;
mod opt_props;
mod reducible;
mod text;
mod typed;
mod verify_minimal;
