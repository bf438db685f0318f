//! What the binary front ends' subcommands share (`wasm lift` with
//! `x86 lift`, `wasm stats` with `x86 stats`), written once: the
//! `--construct` of `lift` and construction as it runs there (verified),
//! the options of the stats pipeline, the progress bar, and the report:
//! its rows of passes, copies and times, its table, and its end (the
//! failures, exit 3 if any).

use crate::cmd::construct::{to_options, FlavorArg, IdfArg, RenamingArg, UndefArg};
use crate::exit::{self, Failed};
use crate::json::ReportArgs;
use crate::out::Out;
use crate::par;
use crate::passes::{Passes, PassesParser};
use ssakit::construct::{Flavor, Options};
use ssakit::destruct::DestructOptions;
use ssakit::ir::Function;
use ssakit::opt::Pass;
use ssakit::pipeline::{Flavors, Pipeline, Stage};
use ssakit::timing::PassTimes;
use std::io::IsTerminal;

/// `--construct` of `wasm lift` and `x86 lift`, with construction's
/// choices: each of them requires `--construct` (without it nothing is
/// constructed, and a choice would be silently ignored).
#[derive(clap::Args)]
pub struct LiftConstruct {
    /// Put the functions into SSA form (verified), with the options below.
    #[arg(long)]
    pub construct: bool,
    /// SSA flavour, with `--construct` [default: minimal].
    #[arg(long, value_enum, requires = "construct")]
    pub flavor: Option<FlavorArg>,
    /// What a use reached by no definition (⊥) becomes, with
    /// `--construct` [default: operand].
    #[arg(long, value_enum, requires = "construct")]
    pub undef: Option<UndefArg>,
    /// How DF+ is computed, with `--construct` [default: linear].
    #[arg(long, value_enum, requires = "construct")]
    pub idf: Option<IdfArg>,
    /// Renaming algorithm, with `--construct` [default: reaching-def].
    #[arg(long, value_enum, requires = "construct")]
    pub renaming: Option<RenamingArg>,
}

impl LiftConstruct {
    /// The flavour constructed (the default where not given).
    pub fn flavor(&self) -> FlavorArg {
        self.flavor.unwrap_or(FlavorArg::Minimal)
    }

    /// The library's options: the choices given, else the defaults of
    /// `ssakit construct`.
    fn options(&self) -> Options {
        to_options(
            self.flavor(),
            self.undef.unwrap_or(UndefArg::Operand),
            self.idf.unwrap_or(IdfArg::Linear),
            self.renaming.unwrap_or(RenamingArg::ReachingDef),
        )
    }

    /// Puts every function of `functions` into SSA form (verified) when
    /// `--construct` asks, in parallel. The first function, in order, that
    /// fails is reported as an internal error, `who` naming it by its index
    /// and itself (`FILE: function ...`).
    pub fn apply(
        &self,
        functions: &mut [Function],
        who: impl Fn(usize, &Function) -> String,
    ) -> Result<(), Failed> {
        if !self.construct {
            return Ok(());
        }
        let opts = self.options();
        let results = par::each_function(functions, |f| construct_verified(f, &opts));
        for (k, ((r, _), f)) in results.iter().zip(functions.iter()).enumerate() {
            if let Err(msg) = r {
                crate::stderr::errln!("internal error: {}: construction: {msg}", who(k, f));
                return Err(Failed(exit::INTERNAL));
            }
        }
        Ok(())
    }
}

/// `--passes` and `--no-destruct` of `wasm stats` and `x86 stats`.
#[derive(clap::Args)]
pub struct PipelineArgs {
    /// Optimisation passes after construction, comma-separated
    /// (`copy-prop`, `const-prop`, `fold`, `dce`).
    #[arg(long, value_name = "LIST", value_parser = PassesParser::default())]
    pub passes: Option<Passes>,
    /// Stop after the passes: no destruction.
    #[arg(long)]
    pub no_destruct: bool,
}

impl PipelineArgs {
    /// The pipeline both stats commands run: construction of `flavor` (as
    /// [`construct_options`]) in `flavors`, each verified, the passes
    /// (none without `--passes`), and destruction unless `--no-destruct`.
    pub fn pipeline(&self, flavor: FlavorArg, flavors: Flavors) -> Pipeline {
        Pipeline {
            construct: construct_options(flavor),
            flavors,
            verify: true,
            passes: self.passes.clone().map(|p| p.0).unwrap_or_default(),
            destruct: (!self.no_destruct).then(DestructOptions::default),
        }
    }
}

impl ReportArgs {
    /// Writes the report of `wasm stats` or `x86 stats` (`text` or
    /// `json`, as `--format` asks) to `out` (opened by `-o` before the
    /// work), then each of `failures` on standard error as an internal
    /// error: exit 3 if there is one.
    pub fn write_stats(
        &self,
        mut out: Out,
        text: impl FnOnce() -> String,
        json: impl FnOnce() -> String,
        failures: impl Iterator<Item = String>,
    ) -> Result<(), Failed> {
        out.write_str(&if self.json() { json() } else { text() })?;
        out.finish()?;
        let mut failed = false;
        for f in failures {
            crate::stderr::errln!("internal error: {f}");
            failed = true;
        }
        if failed {
            Err(Failed(exit::INTERNAL))
        } else {
            Ok(())
        }
    }
}

/// Construction of `flavor` as the stats commands run it: `undef` as an
/// operand, the linear IDF, renaming by reachingDef.
pub(crate) fn construct_options(flavor: FlavorArg) -> Options {
    to_options(
        flavor,
        UndefArg::Operand,
        IdfArg::Linear,
        RenamingArg::ReachingDef,
    )
}

/// Constructs `f` and verifies the result (the core's pipeline, stopped
/// there); the message of the first failure (each command says which
/// function and stage). `f` is left empty on failure.
pub(crate) fn construct_verified(f: &mut Function, opts: &Options) -> Result<(), String> {
    let run = Pipeline {
        construct: *opts,
        verify: true,
        ..Default::default()
    };
    let input = std::mem::replace(f, Function::new(""));
    *f = run.run(input).map_err(|e| e.message)?.func;
    Ok(())
}

/// A bar of `len` functions on standard error, drawn only when it is a
/// terminal (never in tests or pipes).
pub(crate) struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// Runs `work` with a bar of `len` functions, which `work` moves on by
    /// calling the function it is given once per function done; the bar is
    /// erased after.
    pub(crate) fn over<T>(len: usize, work: impl FnOnce(&(dyn Fn() + Sync)) -> T) -> T {
        let bar = Progress::new(len as u64);
        let done = work(&|| bar.inc());
        bar.finish();
        done
    }

    /// A bar at 0 of `len`.
    fn new(len: u64) -> Progress {
        Progress(std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(len);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} functions {elapsed}")
                    .expect("valid template"),
            );
            bar
        }))
    }

    /// One more function done.
    fn inc(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }

    /// Erases the bar.
    fn finish(self) {
        if let Some(b) = self.0 {
            b.finish_and_clear();
        }
    }
}

/// The rows `passes` (when some ran) and `copies after destruct` (when
/// destruction ran).
pub(crate) fn push_pass_rows(
    r: &mut Vec<(String, String)>,
    passes: &[Pass],
    copies: Option<usize>,
) {
    if !passes.is_empty() {
        let names: Vec<&str> = passes.iter().map(|p| p.name()).collect();
        r.push(("passes".into(), names.join(",")));
    }
    if let Some(c) = copies {
        r.push(("copies after destruct".into(), c.to_string()));
    }
}

/// What every `stats` report (`wasm stats`, `x86 stats`) ends with:
/// verification's time, the passes' and destruction's when they ran, the
/// wall clock and the failures.
pub(crate) struct Ran {
    /// Seconds of verification.
    pub verify: f64,
    /// Seconds of the passes, when `--passes` gave some.
    pub passes: Option<f64>,
    /// Seconds of destruction, unless `--no-destruct`.
    pub destruct: Option<f64>,
    /// Wall-clock seconds of the whole run.
    pub wall: f64,
    /// Functions that failed.
    pub failures: usize,
}

impl Ran {
    /// The tail of a report of `pipeline`, whose phases took `times`:
    /// the passes' time when it ran some, destruction's when it
    /// destructed.
    pub(crate) fn new(times: &PassTimes, pipeline: &Pipeline, wall: f64, failures: usize) -> Self {
        let secs = |stage: Stage| times.seconds(stage.phase());
        Ran {
            verify: secs(Stage::Verify(Flavor::Minimal)),
            passes: (!pipeline.passes.is_empty()).then(|| secs(Stage::Opt)),
            destruct: pipeline.destruct.map(|_| secs(Stage::Destruct)),
            wall,
            failures,
        }
    }

    /// Appends the report's last rows to `r`.
    pub(crate) fn push_rows(&self, r: &mut Vec<(String, String)>) {
        r.push(("time verify".into(), secs(self.verify)));
        if let Some(t) = self.passes {
            r.push(("time passes".into(), secs(t)));
        }
        if let Some(t) = self.destruct {
            r.push(("time destruct".into(), secs(t)));
        }
        r.push((
            "wall".into(),
            format!(
                "{} ({} threads)",
                secs(self.wall),
                rayon::current_num_threads()
            ),
        ));
        r.push(("failures".into(), self.failures.to_string()));
    }
}

/// Seconds as a report shows them.
pub(crate) fn secs(s: f64) -> String {
    format!("{s:.3} s")
}

/// A report: `header`, then one row per line, labels padded to one width.
pub(crate) fn table(header: &str, rows: Vec<(String, String)>) -> String {
    let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    let mut s = format!("{header}\n");
    for (l, v) in rows {
        s.push_str(&format!("{l:<width$}  {v}\n"));
    }
    s
}
