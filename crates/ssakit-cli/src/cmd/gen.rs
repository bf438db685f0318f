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
    /// Approximate number of blocks (each shape documents its exact count).
    #[arg(long, default_value_t = 20)]
    pub blocks: usize,
    /// Number of program variables `v0 .. v{V-1}`.
    #[arg(long, default_value_t = 4)]
    pub vars: usize,
    /// Seed: the same options always give the same program.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

fn parse_shape(s: &str) -> Result<Shape, String> {
    s.parse()
        .map_err(|e: ssakit::gen::UnknownShape| e.to_string())
}

pub fn run(a: Args) -> Result<(), Failed> {
    let f = generate(&GenOptions {
        shape: a.shape,
        blocks: a.blocks,
        vars: a.vars,
        seed: a.seed,
    });
    let text = ssakit::text::print_module(&Module { functions: vec![f] });
    let mut out = Out::stdout();
    out.write_str(&text)?;
    out.finish()
}
