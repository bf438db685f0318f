//! The `ssakit` command-line tool. Each subcommand lives in its own module
//! under `cmd/` and holds no algorithm: it parses arguments, calls the
//! library and prints. Results go to standard output, diagnostics to
//! standard error; without `FILE` (or with `-`) the program is read from
//! standard input. Programs are `.ssa` or Bril (`format.rs`).

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cmd;
mod echo;
mod exit;
mod format;
mod heap;
mod input;
mod json;
mod out;
mod par;
mod passes;
mod signals;
mod stats;
mod stderr;
mod transform;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

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
    /// Parse a program and print it back in canonical form, comments kept.
    Fmt(cmd::fmt::Args),
    /// Optimise SSA: copy propagation, constant propagation, dead code elimination.
    Opt(cmd::opt::Args),
    /// Interpret a program (SSA or not) on its arguments.
    Run(cmd::run::Args),
    /// Print a generated, terminating non-SSA program of a chosen shape
    /// and size (`gen --help` lists the shapes and their sizes).
    Gen(cmd::gen::Args),
    /// Draw a function's CFG, dominator tree or DJ-graph as Graphviz DOT,
    /// or as SVG laid out in process (`--svg`).
    Dot(cmd::dot::Args),
    /// Print a non-SSA program as LLVM 14 IR, one `alloca` per variable
    /// (the input of `opt -passes=mem2reg`).
    EmitLlvm(cmd::emit_llvm::Args),
    /// Compile a program to a WebAssembly module (made reducible with
    /// dispatch loops; `print` and externals are imports of `ssakit`).
    EmitWasm(cmd::emit_wasm::Args),
    /// Lift WebAssembly modules into programs (`wasm lift`), run the
    /// pipeline on every function (`wasm stats`) or rewrite a module
    /// through it (`wasm opt`).
    Wasm(cmd::wasm::Args),
    /// Lift functions of x86-64 ELF binaries into programs whose variables
    /// are registers and flags (`x86 lift`) and run the pipeline on every
    /// function (`x86 stats`).
    X86(cmd::x86::Args),
    /// One HTML page with every phase of construction, optimisation and
    /// destruction side by side (click a variable or block to highlight it).
    Explain(cmd::explain::Args),
}

fn main() {
    let cli = match parse_arguments() {
        Ok(cli) => cli,
        Err(code) => std::process::exit(code),
    };
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
        Command::EmitWasm(a) => cmd::emit_wasm::run(a),
        Command::Dot(a) => cmd::dot::run(a),
        Command::Wasm(a) => cmd::wasm::run(a),
        Command::X86(a) => cmd::x86::run(a),
        Command::Explain(a) => cmd::explain::run(a),
    };
    if let Err(exit::Failed(code)) = res {
        std::process::exit(code);
    }
}

/// The command line, or the exit code after clap's message: `--help` and
/// `--version` print on standard output and succeed (a closed pipe too,
/// any other write error is exit 1); a usage error is bad arguments, exit
/// 1 (clap's own code, 2, is `run`'s runtime error here). Every
/// subcommand's help ends with the exit codes.
fn parse_arguments() -> Result<Cli, i32> {
    let command = Cli::command()
        .after_help(exit::HELP)
        .mut_subcommands(|c| c.after_help(exit::HELP));
    let e = match command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => return Ok(cli),
        Err(e) => e,
    };
    let e = echo_context(e);
    let printed = e.print();
    if e.use_stderr() {
        return Err(exit::INPUT);
    }
    match printed {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            stderr::errln!("error: cannot write to standard output: {e}");
            Err(exit::INPUT)
        }
        _ => Err(0),
    }
}

/// clap's error `e` with the values it quotes as the user typed them (a
/// bad value, an unknown argument, the tip that repeats it) shown through
/// [`echo::echo`]; a styled tip that needs it loses its style.
fn echo_context(mut e: clap::Error) -> clap::Error {
    use clap::builder::StyledStr;
    use clap::error::ContextValue as V;
    let fix = |s: &str| match echo::echo(s) {
        std::borrow::Cow::Owned(t) => Some(t),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let fix_all = |ss: Vec<String>| {
        let fixed: Vec<Option<String>> = ss.iter().map(|s| fix(s)).collect();
        fixed.iter().any(Option::is_some).then(|| {
            ss.into_iter()
                .zip(fixed)
                .map(|(s, f)| f.unwrap_or(s))
                .collect::<Vec<_>>()
        })
    };
    let echoed: Vec<_> = e
        .context()
        .filter_map(|(kind, value)| {
            let value = match value {
                V::String(s) => V::String(fix(s)?),
                V::Strings(ss) => V::Strings(fix_all(ss.clone())?),
                V::StyledStr(s) => V::StyledStr(StyledStr::from(fix(&s.to_string())?)),
                V::StyledStrs(ss) => V::StyledStrs(
                    fix_all(ss.iter().map(|s| s.to_string()).collect())?
                        .into_iter()
                        .map(StyledStr::from)
                        .collect(),
                ),
                _ => return None,
            };
            Some((kind, value))
        })
        .collect();
    for (kind, value) in echoed {
        e.insert(kind, value);
    }
    e
}
