//! The `ssakit` command-line tool. Each subcommand lives in its own module
//! under `cmd/` and holds no algorithm: it parses arguments, calls the
//! library and prints. Results go to standard output, diagnostics to
//! standard error; `FILE` may be `-` for standard input.

mod cmd;
mod input;

use clap::{Parser, Subcommand};

/// Static Single Assignment construction and destruction, after the
/// textbook algorithms.
#[derive(Parser)]
#[command(name = "ssakit", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a program and print it back in canonical form.
    Fmt(cmd::fmt::Args),
    /// Print a generated, terminating non-SSA program of a chosen shape
    /// and size (random, ladder, ladder-redundant, chain, nested-loops,
    /// irreducible, switchy, many-vars).
    Gen(cmd::gen::Args),
}

fn main() {
    let cli = Cli::parse();
    let res = match cli.command {
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Gen(a) => cmd::gen::run(a),
    };
    if let Err(input::Failed(code)) = res {
        std::process::exit(code);
    }
}
