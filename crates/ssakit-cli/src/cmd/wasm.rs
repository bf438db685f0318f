//! `ssakit wasm lift`, `ssakit wasm stats` and `ssakit wasm opt`: WebAssembly modules through
//! the front end of `ssakit-wasm` (lifting rules in its `lift` module).

use super::construct::FlavorArg;
use crate::exit::{self, Failed};
use crate::input;
use crate::json::{self, ReportArgs};
use crate::out::{Out, OutputArg};
use crate::par;
use crate::passes::{Passes, PassesParser};
use crate::stats::{push_pass_rows, secs, table, LiftConstruct, PipelineArgs, Ran};
use clap::Subcommand;
use ssakit::ir::Module;
use ssakit::pipeline::{Flavors, Pipeline, Stage, FLAVORS};
use ssakit_wasm::emit::Dump;
use ssakit_wasm::lift::{lift, ModuleSymbols};
use ssakit_wasm::module::{self, WasmModule};
use ssakit_wasm::pipeline::{self, ModuleStats};
use ssakit_wasm::rewrite::{self, OptLevel};
use ssakit_wasm::WasmError;

/// Arguments of `ssakit wasm`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: WasmCommand,
}

/// The `wasm` subcommands.
#[derive(Subcommand)]
pub enum WasmCommand {
    /// Print the functions of a module (`.wasm` or `.wat`) as `.ssa`
    /// programs, before construction or, with `--construct`, in SSA form.
    #[command(after_help = exit::HELP)]
    Lift(LiftArgs),
    /// Run every function through lift, construction (`--flavor`; the
    /// three flavours with `--all-flavors`), verification, `--passes` and
    /// destruction, and print the module's figures.
    #[command(after_help = exit::HELP)]
    Stats(StatsArgs),
    /// Rewrite a module: every function body lifted, put into SSA form,
    /// optimised (`-O`, `--passes`), destructed and emitted again;
    /// everything outside the bodies is carried over unchanged.
    ///
    /// The binary module goes to standard output, or to `-o FILE` (needed
    /// only when standard output is a terminal); `--wat` prints text.
    #[command(after_help = exit::HELP)]
    Opt(OptArgs),
}

/// Arguments of `ssakit wasm opt`.
#[derive(clap::Args)]
pub struct OptArgs {
    /// Input module, binary (`.wasm`) or text (`.wat`) (standard input if
    /// absent or `-`).
    pub file: Option<String>,
    /// The SSA flavour constructed.
    #[arg(long, value_enum, default_value = "pruned")]
    pub flavor: FlavorArg,
    /// Optimisation level, as binaryen's `wasm-opt` spells it: `-O0` the
    /// round trip only, `-O1` (the default) with the passes that make the
    /// output smaller (`fold`, `dce`) and duplicate functions merged (a body the
    /// same as an earlier one's calls it); `-O2`, `-O3`, `-Os` and `-Oz`
    /// are `-O1`.
    #[arg(
        short = 'O',
        value_name = "LEVEL",
        value_enum,
        conflicts_with = "passes"
    )]
    pub level: Option<LevelArg>,
    /// Optimisation passes after construction, comma-separated
    /// (`copy-prop`, `const-prop`, `fold`, `dce`), instead of a level's.
    #[arg(long, value_name = "LIST", value_parser = PassesParser::default())]
    pub passes: Option<Passes>,
    #[command(flatten)]
    pub mode: super::destruct::ModeArgs,
    /// With `--no-coalesce`: the most copies destruction may insert in
    /// one function (one per phi operand and one per phi); a function
    /// that would need more keeps its body as it was, and is named on
    /// standard error (minimal SSA of a big lifted function can need
    /// hundreds of millions).
    #[arg(long, value_name = "N", default_value_t = rewrite::MAX_COPIES)]
    pub max_copies: usize,
    /// Print the figures (functions, code section and locals before and
    /// after) to standard error.
    #[arg(long)]
    pub stats: bool,
    /// Write the output module as text (WebAssembly's text format, by
    /// `wasmprinter`) instead of binary.
    #[arg(long)]
    pub wat: bool,
    /// Print, per function, the result of one step of the emitter as
    /// text instead of the module: `structure` (the structured control
    /// flow, labels resolved), `stackify` (what stays on the stack, is
    /// teed, dropped, absorbed), `locals` (each local's type and
    /// variables).
    #[arg(long, value_name = "STEP", value_enum, conflicts_with_all = ["wat", "stats"])]
    pub dump: Option<DumpArg>,
    /// Only these functions, comma-separated: indices (imports counted)
    /// or names. They alone are rewritten (every other body is copied as
    /// it is) and dumped by `--dump`.
    #[arg(long, value_name = "INDEX|NAME,...")]
    pub func: Option<String>,
    #[command(flatten)]
    pub output: OutputArg,
}

/// The value of `wasm opt --dump`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DumpArg {
    /// The structured control flow.
    Structure,
    /// What stays on the operand stack.
    Stackify,
    /// The locals and their variables.
    Locals,
}

/// The value of `wasm opt -O`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LevelArg {
    /// The round trip only.
    #[value(name = "0")]
    O0,
    /// With the passes that make the output smaller.
    #[value(name = "1", alias = "2", alias = "3", alias = "s", alias = "z")]
    O1,
}

/// Arguments of `ssakit wasm lift`.
#[derive(clap::Args)]
pub struct LiftArgs {
    /// Input module, binary (`.wasm`) or text (`.wat`) (standard input if
    /// absent or `-`).
    pub file: Option<String>,
    /// Only these functions, comma-separated: indices (imports counted)
    /// or names.
    #[arg(long, value_name = "INDEX|NAME,...")]
    pub func: Option<String>,
    #[command(flatten)]
    pub construct: LiftConstruct,
    #[command(flatten)]
    pub output: OutputArg,
}

/// Arguments of `ssakit wasm stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// Input module, binary (`.wasm`) or text (`.wat`) (standard input if
    /// absent or `-`).
    pub file: Option<String>,
    /// The flavour constructed, counted, optimised and destructed.
    #[arg(long, value_enum, default_value = "pruned")]
    pub flavor: FlavorArg,
    /// Also construct, verify and count the other two flavours (minimal
    /// SSA can take memory quadratic in a function; without this flag their
    /// phi counts are `-` in the table and null in JSON).
    #[arg(long)]
    pub all_flavors: bool,
    #[command(flatten)]
    pub pipeline: PipelineArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

pub fn run(a: Args) -> Result<(), Failed> {
    match a.command {
        WasmCommand::Lift(a) => run_lift(a),
        WasmCommand::Stats(a) => run_stats(a),
        WasmCommand::Opt(a) => run_opt(a),
    }
}

/// The input's path: `-` (standard input) when FILE is absent.
fn file(f: &Option<String>) -> &str {
    f.as_deref().unwrap_or("-")
}

fn run_opt(a: OptArgs) -> Result<(), Failed> {
    if !a.wat && a.dump.is_none() {
        a.output.refuse_binary_to_terminal()?;
    }
    let (name, bytes) = input::read_module_bytes(file(&a.file))?;
    let (bytes, only) = match &a.func {
        None => (bytes, None),
        Some(sel) => {
            let binary = module::to_binary(&bytes)
                .map_err(|e| bad(&name, &e))?
                .into_owned();
            let m = module::parse(&binary).map_err(|e| bad(&name, &e))?;
            let only = select(&name, &m, sel)?;
            (binary, Some(only))
        }
    };
    let at_o1 = a.passes.is_none() && !matches!(a.level, Some(LevelArg::O0));
    let opts = rewrite::OptOptions {
        construct: crate::stats::construct_options(a.flavor),
        passes: match (a.passes, a.level) {
            (Some(p), _) => p.0,
            (None, Some(LevelArg::O0)) => rewrite::OptOptions::at(OptLevel::O0).passes,
            (None, Some(LevelArg::O1) | None) => rewrite::OptOptions::at(OptLevel::O1).passes,
        },
        destruct: a.mode.options(),
        only,
        merge_duplicates: at_o1,
        max_copies: a.max_copies,
    };
    if let Some(step) = a.dump {
        let step = match step {
            DumpArg::Structure => Dump::Structure,
            DumpArg::Stackify => Dump::Stackify,
            DumpArg::Locals => Dump::Locals,
        };
        let text = rewrite::dump(&bytes, &opts, step).map_err(|e| bad(&name, &e))?;
        let mut out = Out::open(&a.output)?;
        out.write_str(&text)?;
        return out.finish();
    }
    let done = rewrite::optimize(&bytes, &opts).map_err(|e| bad(&name, &e))?;
    let mut out = Out::open(&a.output)?;
    if a.wat {
        let text = wasmprinter::print_bytes(&done.bytes).map_err(|e| {
            crate::stderr::errln!("internal error: printing the output module: {e}");
            Failed(exit::INTERNAL)
        })?;
        out.write_str(&text)?;
    } else {
        out.write_bytes(&done.bytes)?;
    }
    out.finish()?;
    // Every body kept as it was is named: a count alone would hide that
    // these functions did not go through.
    for k in &done.stats.kept {
        crate::stderr::errln!("warning: {name}: {k}; its body is kept as it was");
    }
    if a.stats {
        let s = &done.stats;
        let rewritten = match a.func {
            Some(_) => format!(" ({} rewritten, --func)", s.rewritten),
            None => String::new(),
        };
        let kept = match s.kept.len() {
            0 => String::new(),
            n => format!(" ({n} kept as they were)"),
        };
        crate::stderr::errln!(
            "{name}: {} functions{rewritten}{kept}; code section {} -> {} bytes; locals {} -> {}",
            s.functions,
            s.code_bytes_before,
            s.code_bytes_after,
            s.locals_before,
            s.locals_after
        );
    }
    Ok(())
}

/// Reports a front-end error against the file and fails with the exit
/// code of its kind.
fn bad(name: &str, e: &WasmError) -> Failed {
    match e.line_col {
        Some(_) => crate::stderr::errln!("error: {name}:{e}"),
        None => crate::stderr::errln!("error: {name}: {e}"),
    }
    Failed(exit::of_wasm(e.kind))
}

/// The defined functions `--func` names (`sel`): one index or name (as
/// [`WasmModule::find`] takes it), or several comma-separated, each
/// once, in module order. A name missing lists the module's functions; an
/// imported function (no body) is an error too.
fn select(name: &str, m: &WasmModule<'_>, sel: &str) -> Result<Vec<u32>, Failed> {
    // A module's own name may hold a comma: the whole selector first.
    let parts: Vec<&str> = match m.find(sel) {
        Some(_) => vec![sel],
        None => sel.split(',').collect(),
    };
    let mut chosen = Vec::with_capacity(parts.len());
    for part in parts {
        let Some(index) = m.find(part) else {
            crate::stderr::errln!(
                "error: {name}: no function `{}`; {}",
                crate::echo::echo(part),
                known_names(m)
            );
            return Err(Failed(exit::INPUT));
        };
        if index < m.num_imported {
            crate::stderr::errln!(
                "error: {name}: function {index} (`{}`) is imported: it has no body",
                m.names[index as usize]
            );
            return Err(Failed(exit::INPUT));
        }
        chosen.push(index);
    }
    chosen.sort_unstable();
    chosen.dedup();
    Ok(chosen)
}

/// Reads, assembles (`.wat`) and validates the module at `path`; `then`
/// gets it.
fn with_module<T>(
    path: &str,
    then: impl FnOnce(&str, &WasmModule<'_>) -> Result<T, Failed>,
) -> Result<T, Failed> {
    let (name, bytes) = input::read_module_bytes(path)?;
    let binary = module::to_binary(&bytes).map_err(|e| bad(&name, &e))?;
    let m = module::parse(&binary).map_err(|e| bad(&name, &e))?;
    then(&name, &m)
}

/// The functions that `--func` can name, for the error of one missing:
/// the first few `.ssa` names with their indices, and how many more.
fn known_names(m: &WasmModule<'_>) -> String {
    const SHOWN: usize = 8;
    let n = m.names.len();
    if n == 0 {
        return "the module has no function".into();
    }
    let list: Vec<String> = m
        .names
        .iter()
        .take(SHOWN)
        .enumerate()
        .map(|(i, s)| format!("`{s}` ({i})"))
        .collect();
    let more = match n.saturating_sub(SHOWN) {
        0 => String::new(),
        k => format!(", and {k} more (`ssakit wasm lift` prints them all)"),
    };
    format!(
        "the module's functions, by name or index: {}{more}",
        list.join(", ")
    )
}

fn run_lift(a: LiftArgs) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let module = with_module(file(&a.file), |name, m| {
        let syms = ModuleSymbols::new(m);
        let mut functions = match &a.func {
            Some(sel) => select(name, m, sel)?
                .into_iter()
                .map(|index| {
                    let body = &m.bodies[(index - m.num_imported) as usize];
                    Ok(lift(m, &syms, body).map_err(|e| bad(name, &e))?.func)
                })
                .collect::<Result<Vec<_>, Failed>>()?,
            None => pipeline::lift_module(m, &syms)
                .map_err(|e| bad(name, &e))?
                .into_iter()
                .map(|l| l.func)
                .collect(),
        };
        a.construct.apply(&mut functions, |_, f| {
            format!("{name}: function `{}`", f.name())
        })?;
        Ok(Module { functions })
    })?;
    par::print_module(&module, &mut out)?;
    out.finish()?;
    input::skip_freeing(module);
    Ok(())
}

fn run_stats(a: StatsArgs) -> Result<(), Failed> {
    let out = Out::open(&a.report.output)?;
    let flavors = match a.all_flavors {
        true => Flavors::All,
        false => Flavors::Chosen,
    };
    let opts = a.pipeline.pipeline(a.flavor, flavors);
    let (name, stats, names) = with_module(file(&a.file), |name, m| {
        let stats =
            crate::stats::Progress::over(m.bodies.len(), |done| pipeline::run(m, &opts, done))
                .map_err(|e| bad(name, &e))?;
        Ok((name.to_string(), stats, m.names.clone()))
    })?;
    a.report.write_stats(
        out,
        || render_text(&name, &stats, &opts),
        || render_json(&name, &stats, &names, &opts),
        stats.failures.iter().map(|f| {
            format!(
                "{name}: function {} (`{}`): {}: {}",
                f.index, names[f.index as usize], f.error.stage, f.error.message
            )
        }),
    )
}
/// The rows of the table: `(label, value)`.
fn rows(stats: &ModuleStats, opts: &Pipeline) -> Vec<(String, String)> {
    let t = stats.total();
    let mut r: Vec<(String, String)> = vec![
        (
            "functions".into(),
            format!(
                "{} defined, {} imported",
                stats.functions.len() + stats.failures.len(),
                stats.imported
            ),
        ),
        ("blocks".into(), t.blocks.to_string()),
        ("instructions".into(), t.insts.to_string()),
        ("copies lifted".into(), t.copies_lifted.to_string()),
        ("locals".into(), t.locals.to_string()),
    ];
    let names = ["minimal", "semi-pruned", "pruned"];
    for (flavor, f) in FLAVORS.into_iter().zip(names) {
        r.push((format!("phis {f}"), or_dash(t.phis.get(flavor))));
    }
    push_pass_rows(&mut r, &opts.passes, t.copies);
    r.push(("time lift".into(), secs(t.times.seconds("lift"))));
    for (flavor, f) in FLAVORS.into_iter().zip(names) {
        let phase = Stage::Construct(flavor).phase();
        let time = t.phis.get(flavor).map(|_| secs(t.times.seconds(phase)));
        r.push((format!("time construct {f}"), or_dash(time)));
    }
    let (wall, failed) = (stats.wall, stats.failures.len());
    Ran::new(&t.times, opts, wall, failed).push_rows(&mut r);
    r
}

/// A figure, or `-` for a flavour not constructed.
fn or_dash<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

fn render_text(name: &str, stats: &ModuleStats, opts: &Pipeline) -> String {
    table(&format!("module: {name}"), rows(stats, opts))
}

fn render_json(name: &str, stats: &ModuleStats, names: &[String], opts: &Pipeline) -> String {
    let report = json::WasmStats {
        defined: stats.functions.len() + stats.failures.len(),
        failures: stats
            .failures
            .iter()
            .map(|f| json::WasmFailure {
                index: f.index,
                message: f.error.message.clone(),
                name: names[f.index as usize].clone(),
                stage: f.error.stage.to_string(),
            })
            .collect(),
        functions: stats
            .functions
            .iter()
            .map(|f| json::WasmCounts::new(f, Some(&names[f.index as usize])))
            .collect(),
        imported: stats.imported,
        module: name.to_string(),
        passes: opts.passes.iter().map(|p| p.name()).collect(),
        threads: rayon::current_num_threads(),
        total: json::WasmCounts::new(&stats.total(), None),
        wall: stats.wall,
    };
    json::to_string(&report)
}
