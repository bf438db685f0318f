//! The `ssakit` command-line tool. Each subcommand lives in its own module
//! under `cmd/` and holds no algorithm: it parses arguments, calls the
//! library and prints. Results go to standard output, diagnostics to
//! standard error; `FILE` may be `-` for standard input.

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cmd;
mod input;
mod out;
mod par;

use clap::{Parser, Subcommand};

/// Static Single Assignment construction and destruction, after the
/// textbook algorithms.
#[derive(Parser)]
#[command(name = "ssakit", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print dominators, DJ-graph, dominance frontiers, DF+ or liveness.
    Analyze(cmd::analyze::Args),
    /// Put a program into SSA form (phi insertion, then renaming).
    Construct(cmd::construct::Args),
    /// Take a program out of SSA form (copies, coalescing, sequentialization).
    Destruct(cmd::destruct::Args),
    /// Verify SSA form and report minimal / pruned / conventional / strict.
    Check(cmd::check::Args),
    /// Check every pipeline against the original with the interpreter; on a
    /// mismatch, print a minimal failing program (exit 4).
    Reduce(cmd::reduce::Args),
    /// Parse a program and print it back in canonical form.
    Fmt(cmd::fmt::Args),
    /// Optimise SSA: copy propagation, constant propagation, dead code elimination.
    Opt(cmd::opt::Args),
    /// Interpret a program (SSA or not) on integer arguments.
    Run(cmd::run::Args),
    /// Print a generated, terminating non-SSA program of a chosen shape
    /// and size (random, ladder, ladder-redundant, chain, nested-loops,
    /// irreducible, switchy, many-vars).
    Gen(cmd::gen::Args),
    /// Print a non-SSA program as LLVM 14 IR, one `alloca` per variable
    /// (the input of `opt -passes=mem2reg`).
    EmitLlvm(cmd::emit_llvm::Args),
}

fn main() {
    let cli = Cli::parse();
    let res = match cli.command {
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Construct(a) => cmd::construct::run(a),
        Command::Destruct(a) => cmd::destruct::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Reduce(a) => cmd::reduce::run(a),
        Command::Opt(a) => cmd::opt::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Gen(a) => cmd::gen::run(a),
        Command::EmitLlvm(a) => cmd::emit_llvm::run(a),
    };
    if let Err(input::Failed(code)) = res {
        std::process::exit(code);
    }
}
