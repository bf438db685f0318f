//! One module per subcommand.

pub mod analyze;
pub mod check;
pub mod construct;
pub mod destruct;
pub mod dot;
pub mod emit_llvm;
pub mod emit_wasm;
pub mod explain;
pub mod fmt;
pub mod gen;
pub mod opt;
pub mod reduce;
pub mod run;
pub mod wasm;
pub mod x86;
