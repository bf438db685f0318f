//! `ssakit gen`: print a generated program.
//!
//! The block counts in `--help` are those the doc comments of
//! [`ssakit::gen::Shape`] give, with `N = --blocks`; `tests/gen.rs` checks
//! them against the generator.

use crate::exit::Failed;
use crate::out::{Out, OutputArg};
use ssakit::gen::{generate, second, GenOptions, Shape};
use ssakit::ir::Module;

/// Arguments of `ssakit gen`.
#[derive(clap::Args)]
pub struct Args {
    /// Control-flow shape, and how many blocks it makes of N = --blocks.
    #[arg(long, default_value = "random", value_parser = shape_parser())]
    pub shape: Shape,
    /// Approximate number of blocks (the exact count of each shape is
    /// under --shape), 0 to 10,000,000: ten million blocks take the
    /// generator alone about 5 GB and half a minute.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=MAX_BLOCKS))]
    pub blocks: u64,
    /// Number of program variables `v0 .. v{V-1}`, 1 to 1,000,000.
    #[arg(long, value_name = "V", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=MAX_VARS))]
    pub vars: u64,
    /// Seed: the same options always give the same program.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub seed: u64,
    /// Which generator draws the program: `first`, structured regions with
    /// one or two assignments per block; `second`, an unstructured graph
    /// (loops of every size, overlapping and of several entries; joins of
    /// tens of predecessors) with a quarter to 60% of the variables
    /// assigned per block, for `random`, `irreducible`, `ladder` and
    /// `chain` only (docs/performance.md).
    #[arg(long, value_name = "G", default_value = "first", value_parser = ["first", "second"])]
    pub generator: String,
    #[command(flatten)]
    pub output: OutputArg,
}

/// The largest `--blocks`: the generator's time and memory are linear in
/// it (about 500 bytes a block), so this bound keeps a typo from asking for
/// more memory than the machine has (an abort, not an error).
const MAX_BLOCKS: u64 = 10_000_000;

/// The largest `--vars` (about 200 bytes a variable, whatever the shape).
const MAX_VARS: u64 = 1_000_000;

/// `--shape`: the names of [`Shape::ALL`], each with the blocks it makes
/// in `--help`.
fn shape_parser() -> impl clap::builder::TypedValueParser<Value = Shape> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(Shape::ALL.map(|s| PossibleValue::new(s.name()).help(blocks_made(s))))
        .map(|name| name.parse::<Shape>().expect("one of Shape::ALL"))
}

/// How many blocks `shape` makes of N = `--blocks`, as the doc comments
/// of [`Shape`] say.
fn blocks_made(shape: Shape) -> &'static str {
    match shape {
        Shape::Random => {
            "Structured control flow (diamonds, small switches, loops at most three deep \
             with breaks): max(N, 3) blocks"
        }
        Shape::Ladder => {
            "R = max(1, (N-2)/2) nested repeat-until loops: 2R+2 blocks, N rounded down \
             to even, at least 4"
        }
        Shape::LadderRedundant => {
            "A ladder in which every phi would be redundant: 2R+2 blocks as `ladder`"
        }
        Shape::Chain => "A straight line: max(N, 3) blocks",
        Shape::NestedLoops => {
            "D = max(1, (N-2)/3) nested while loops: 3D+2 blocks, the largest 3k+2 <= N, \
             at least 5"
        }
        Shape::Irreducible => {
            "Loops with two or three entries among random structures: max(N, 3) blocks, \
             an irreducible loop when N >= 6"
        }
        Shape::Switchy => "One switch with max(N, 3) - 2 cases: max(N, 3) blocks",
        Shape::ManyVars => {
            "Random control flow with many assignments; use a large --vars: max(N, 3) blocks"
        }
    }
}

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let opts = GenOptions {
        shape: a.shape,
        blocks: a.blocks as usize,
        vars: a.vars as usize,
        seed: a.seed,
    };
    let f = if a.generator == "second" {
        second::generate(&opts).map_err(|e| {
            crate::stderr::errln!("error: --shape: {e}");
            Failed(crate::exit::INPUT)
        })?
    } else {
        generate(&opts)
    };
    crate::par::print_module(&Module { functions: vec![f] }, &mut out)?;
    out.finish()
}
