//! The `.ssa` text format: lexer, parser (with spans for diagnostics) and
//! printer. The grammar is documented in the README ("The .ssa format").

pub mod diag;
mod lexer;
pub mod parser;
pub mod printer;

pub use diag::Diagnostic;
pub use parser::{parse, parse_module, FunctionSpans, Parsed};
pub use printer::{print_declarations, print_function, print_module};
