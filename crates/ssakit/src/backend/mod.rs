//! Printers of ssakit programs in other compilers' formats, and pictures.
//!
//! * [`llvm`]: LLVM 14 textual IR with one `alloca` per variable, the input
//!   of LLVM's `mem2reg` in the side-by-side benchmark.
//! * [`picture`]: the CFG, dominator tree or DJ-graph of a function as
//!   nodes and styled edges, which [`dot`] writes as Graphviz DOT and
//!   [`svg`] lays out and draws as SVG, in process.
//! * [`explain`]: every phase of construction, optimisation and
//!   destruction side by side in one HTML page.

pub mod dot;
pub mod explain;
pub mod llvm;
pub mod picture;
pub mod svg;
