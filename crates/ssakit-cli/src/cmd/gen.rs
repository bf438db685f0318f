//! `ssakit gen`: print a generated program.

use crate::exit::Failed;
use crate::out::Out;
use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::ir::Module;

/// Arguments of `ssakit gen`.
#[derive(clap::Args)]
pub struct Args {
    /// Control-flow shape.
    #[arg(long, default_value = "random", value_parser = parse_shape)]
    pub shape: Shape,
    /// Approximate number of blocks (the exact count of each shape is
    /// under --shape), 0 to 10,000,000: ten million blocks take the
    /// generator alone about 5 GB and half a minute.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=MAX_BLOCKS))]
    pub blocks: u64,
    /// Number of program variables `v0 .. v{V-1}`, 1 to 1,000,000.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=MAX_VARS))]
    pub vars: u64,
    /// Seed: the same options always give the same program.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// The largest `--blocks`: the generator's time and memory are linear in
/// it (about 500 bytes a block), so this bound keeps a typo from asking for
/// more memory than the machine has (an abort, not an error).
const MAX_BLOCKS: u64 = 10_000_000;

/// The largest `--vars` (about 200 bytes a variable, whatever the shape).
const MAX_VARS: u64 = 1_000_000;

fn parse_shape(s: &str) -> Result<Shape, String> {
    s.parse()
        .map_err(|e: ssakit::gen::UnknownShape| e.to_string())
}

pub fn run(a: Args) -> Result<(), Failed> {
    let f = generate(&GenOptions {
        shape: a.shape,
        blocks: a.blocks as usize,
        vars: a.vars as usize,
        seed: a.seed,
    });
    let text = ssakit::text::print_module(&Module { functions: vec![f] });
    let mut out = Out::stdout();
    out.write_str(&text)?;
    out.finish()
}
