//! `ssakit dot`: a picture of one function's CFG, dominator tree or
//! DJ-graph, as Graphviz DOT or, with `--svg`, as SVG drawn in process
//! (`ssakit::backend::{dot, svg}`).

use crate::exit::Failed;
use crate::input;
use crate::out::OutputArg;
use ssakit::backend::picture::PictureKind;

/// Arguments of `ssakit dot`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("graph").multiple(false)))]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    /// The control-flow graph, instructions in the blocks and phis set
    /// apart (the default).
    #[arg(long, group = "graph")]
    pub cfg: bool,
    /// The dominator tree.
    #[arg(long, group = "graph")]
    pub dom: bool,
    /// The DJ-graph: D-edges solid, J-edges dashed.
    #[arg(long, group = "graph")]
    pub dj: bool,
    /// Draw SVG (laid out by ssakit, no Graphviz needed) instead of
    /// writing DOT.
    #[arg(long)]
    pub svg: bool,
    /// The function drawn (default: `main`, else the first).
    #[arg(long, visible_alias = "entry", value_name = "NAME")]
    pub function: Option<String>,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (mut out, inp) = crate::format::open(&a.input, &a.output)?;
    let p = inp.parsed;
    let f = input::entry(&p.module, a.function.as_deref())?;
    let kind = if a.dom {
        PictureKind::Dom
    } else if a.dj {
        PictureKind::Dj
    } else {
        PictureKind::Cfg
    };
    let text = if a.svg {
        ssakit::backend::svg::svg(f, kind)
    } else {
        ssakit::backend::dot::dot(f, kind)
    };
    out.write_str(&text)?;
    out.finish()
}
