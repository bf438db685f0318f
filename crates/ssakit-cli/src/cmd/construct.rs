//! `ssakit construct`: put a program into SSA form.

use crate::exit::{self, Failed};
use crate::input;
use crate::transform::{transform, OutArgs};
use clap::ValueEnum;
use ssakit::construct::{self, Flavor, Idf, Options, Renaming, UndefMode};
use ssakit::timing;

/// SSA flavour.
#[derive(Clone, Copy, ValueEnum)]
pub enum FlavorArg {
    /// Phis at the iterated dominance frontier of every variable (the chapter).
    Minimal,
    /// Only for variables live across a block boundary (Briggs et al.).
    SemiPruned,
    /// Only where the variable is live: no dead phi.
    Pruned,
}

/// What a use reached by no definition becomes.
#[derive(Clone, Copy, ValueEnum)]
pub enum UndefArg {
    /// An `undef` operand.
    Operand,
    /// One `v0 = undef` per variable at the start of the entry block.
    Entry,
    /// A `vN = undef` just before the use.
    Local,
}

/// How DF+ is computed for phi insertion.
#[derive(Clone, Copy, ValueEnum)]
pub enum IdfArg {
    /// Sreedhar-Gao on the DJ-graph, linear (pruned: 64 variables a pass over DF where DF is small).
    Linear,
    /// The chapter's worklist (sets W and F) over DF_all's frontiers.
    Worklist,
}

/// Renaming algorithm.
#[derive(Clone, Copy, ValueEnum)]
pub enum RenamingArg {
    /// The chapter's reachingDef chains with updateReachingDef.
    ReachingDef,
    /// The classic stacks of Cytron et al.
    Stacks,
}

impl From<FlavorArg> for Flavor {
    fn from(f: FlavorArg) -> Flavor {
        match f {
            FlavorArg::Minimal => Flavor::Minimal,
            FlavorArg::SemiPruned => Flavor::SemiPruned,
            FlavorArg::Pruned => Flavor::Pruned,
        }
    }
}

impl From<UndefArg> for UndefMode {
    fn from(u: UndefArg) -> UndefMode {
        match u {
            UndefArg::Operand => UndefMode::Operand,
            UndefArg::Entry => UndefMode::EntryDef,
            UndefArg::Local => UndefMode::Local,
        }
    }
}

/// The choices of construction, shared by `construct` and `wasm lift`.
#[derive(clap::Args)]
pub struct ConstructFlags {
    /// SSA flavour.
    #[arg(long, value_enum, default_value = "minimal")]
    pub flavor: FlavorArg,
    /// What a use reached by no definition (⊥) becomes.
    #[arg(long, value_enum, default_value = "operand")]
    pub undef: UndefArg,
    /// How DF+ is computed (both place the same phis; `--trace` always
    /// shows the worklist).
    #[arg(long, value_enum, default_value = "linear")]
    pub idf: IdfArg,
    /// Renaming algorithm (both give the same result).
    #[arg(long, value_enum, default_value = "reaching-def")]
    pub renaming: RenamingArg,
}

impl ConstructFlags {
    /// The library's options.
    pub fn options(&self) -> Options {
        to_options(self.flavor, self.undef, self.idf, self.renaming)
    }
}

/// Arguments of `ssakit construct`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    #[command(flatten)]
    pub flags: ConstructFlags,
    /// Print the phi-insertion and renaming traces of this variable (in the
    /// entry function), as `#` comments before the program.
    #[arg(long, value_name = "VAR")]
    pub trace: Option<String>,
    /// The function traced (default: `main`, else the first).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// Print per-phase wall times on standard error.
    #[arg(long)]
    pub time_passes: bool,
    /// Skip verifying the result.
    #[arg(long)]
    pub no_verify: bool,
    #[command(flatten)]
    pub out: OutArgs,
}

/// The library's options for these choices (shared with `wasm lift`).
pub fn to_options(
    flavor: FlavorArg,
    undef: UndefArg,
    idf: IdfArg,
    renaming: RenamingArg,
) -> Options {
    Options {
        idf: match idf {
            IdfArg::Linear => Idf::Linear,
            IdfArg::Worklist => Idf::Worklist,
        },
        flavor: flavor.into(),
        undef: undef.into(),
        renaming: match renaming {
            RenamingArg::ReachingDef => Renaming::ReachingDef,
            RenamingArg::Stacks => Renaming::Stacks,
        },
    }
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (mut out, mut inp) = crate::format::open(&a.input, &a.out.output)?;
    let mut opts = a.flags.options();
    let traced = match &a.trace {
        Some(_) => {
            opts.renaming = Renaming::ReachingDef;
            Some(
                input::entry(&inp.parsed.module, a.entry.as_deref())?
                    .name()
                    .to_string(),
            )
        }
        None => None,
    };
    // Functions are independent: construct (and verify) them in parallel,
    // then report in module order. Phase times are summed over functions.
    enum Fail {
        Input(ssakit::error::IrError),
        /// Ill-typed input: construction keeps each variable's type, so
        /// its output would be too, which is the input's fault.
        Types(Vec<ssakit::error::IrError>),
        Invalid(Vec<ssakit::error::IrError>),
    }
    let done = transform(
        &mut inp,
        |f| {
            {
                let _t = timing::phase("verification");
                ssakit::verify::verify_types(f).map_err(Fail::Types)?;
            }
            let mut trace_text = String::new();
            match (&a.trace, traced.as_deref() == Some(f.name())) {
                (Some(v), true) => construct::construct_traced(f, &opts, v).map(|(_, t)| {
                    trace_text = t.render(f);
                }),
                _ => construct::construct(f, &opts).map(|_| ()),
            }
            .map_err(Fail::Input)?;
            if !a.no_verify {
                let _t = timing::phase("verification");
                ssakit::verify::verify_valid(f).map_err(Fail::Invalid)?;
            }
            Ok(trace_text)
        },
        |inp, k, f, fail| match fail {
            Fail::Input(e) => {
                input::report_ir_in(&inp.src, &inp.reparse(), k, &e);
                Failed(exit::of_ir(e.kind))
            }
            Fail::Types(errs) => {
                let parsed = inp.reparse();
                for e in errs.iter().take(20) {
                    input::report_ir_in(&inp.src, &parsed, k, e);
                }
                Failed(exit::INPUT)
            }
            Fail::Invalid(errs) => crate::transform::invalid("construction", f, &errs),
        },
    )?;
    let trace_text = done.results.concat();
    if !trace_text.is_empty() {
        for line in trace_text.lines() {
            writeln!(out, "# {line}")?;
        }
        writeln!(out)?;
    }
    done.finish::<()>(inp, &a.out, out, None, a.time_passes)
}
