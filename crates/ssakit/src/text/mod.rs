//! The `.ssa` text format: lexer, parser (with spans for diagnostics),
//! printer, and comments kept through formatting. The grammar is
//! documented in docs/format.md.

pub(crate) mod comments;
pub mod diag;
pub(crate) mod lexer;
pub(crate) mod parser;
pub(crate) mod printer;

pub use comments::print_module_with_comments;
pub use diag::{Diagnostic, Span};
pub use parser::{parse, parse_module, FunctionSpans, Parsed};
pub use printer::{
    print_declarations, print_function, print_function_in_pieces, print_module, text_estimate,
};

/// The first function of `src`, for unit tests written as `.ssa` text.
/// Panics with the rendered diagnostic if `src` does not parse.
#[cfg(test)]
pub(crate) fn parse_one(src: &str) -> crate::ir::Function {
    match parse_module(src) {
        Ok(mut m) => m.functions.swap_remove(0),
        Err(d) => panic!("{}", d.render("test", src)),
    }
}
