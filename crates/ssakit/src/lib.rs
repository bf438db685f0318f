//! # ssakit
//!
//! Static Single Assignment construction and destruction, after the textbook
//! chapter "Construcción y destrucción estándar de SSA" (the specification in
//! `shared/seed/`): dominance frontiers on the DJ-graph, phi insertion at
//! iterated dominance frontiers, renaming with `reachingDef` chains, and
//! out-of-SSA translation through phi webs, critical-edge splitting and
//! parallel copies.
//!
//! Data flows one way: text → [`ir`] → analyses → construction →
//! optimisation → destruction → printers.
#![deny(missing_docs)]

pub mod analysis;
pub mod backend;
#[cfg(feature = "bril")]
pub mod bril;
pub mod construct;
pub(crate) mod decimal;
pub mod destruct;
pub mod entity;
pub mod error;
pub mod eval;
pub mod gen;
pub(crate) mod intern;
pub mod interp;
pub mod ir;
pub mod opt;
pub mod oracle;
pub mod pipeline;
pub mod reducible;
pub mod text;
pub mod timing;
pub(crate) mod union_find;
pub mod verify;

// The tests that reach inside the crate (`src/tests/`) name it `ssakit`
// as the integration tests under `crates/ssakit/tests` do.
#[cfg(test)]
extern crate self as ssakit;
#[cfg(test)]
mod tests;

/// The Rust examples of the library guide, `docs/library.md`, run as
/// doctests, so that the guide cannot drift from the API. Only under
/// `cargo test --doc`: the published crate does not hold the guide.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
pub struct LibraryGuide;

/// The crate's README (its page on crates.io) runs as a doctest too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
