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
}

fn main() {
    let cli = Cli::parse();
    let res = match cli.command {
        Command::Fmt(a) => cmd::fmt::run(a),
    };
    if let Err(input::Failed(code)) = res {
        std::process::exit(code);
    }
}
