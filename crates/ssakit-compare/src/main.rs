//! `ssakit-compare`: ssakit's SSA construction and destruction side by side
//! with LLVM 14's `mem2reg` and Cranelift's SSA builder, on the same
//! generated programs, in one run.
//!
//! ```text
//! nice cargo run --release --manifest-path crates/ssakit-compare/Cargo.toml -- [--quick]
//! ```
//!
//! For each shape of `ssakit gen`, each size (instructions) and each
//! variable count it measures, as medians of `--reps` runs:
//!
//! * ssakit construction per flavour, with its phases ([`ssakit::timing`]);
//!   destruction per mode ([`ssa::DESTRUCTORS`]) of the pruned result; the
//!   verifier the CLI runs after construction;
//! * the limits: `Function::clone`, and a copy that reads and rewrites
//!   every operand ([`ssa::copy_rewrite`]);
//! * ssakit building the function through its `FunctionBuilder` and
//!   constructing pruned SSA, against Cranelift's `FunctionBuilder` with
//!   `declare_var`/`def_var`/`use_var` over the same description, sealing
//!   at the end and sealing early;
//! * LLVM 14 `opt -passes=mem2reg` on `emit-llvm`'s module (PromotePass
//!   time), if `opt` is installed;
//! * phi counts of pruned ssakit, LLVM and Cranelift (block parameters);
//! * peak memory of pruned construction against the input's own size,
//!   from a counting global allocator.
//!
//! `--generator both` measures the first generator's rows, then the
//! second's (shapes marked `/2`); `--real FILE,FILE..` adds the real
//! rows of lifted modules ([`real`]), so that one run gives every row of
//! issue 44's table; `--cli SSAKIT` runs every row's program through the
//! release CLI too, as a user does ([`cli`]: `--time-passes` totals and
//! the peak resident set beside the library's figures).
//!
//! Results: a Markdown table on standard output and in `OUT/results.md`,
//! `OUT/results.json`, and `OUT/results.png` (ns per instruction against
//! size, log-log, one panel per shape, one line per tool). `OUT` is
//! `target/compare` unless `--out` says otherwise.
//!
//! `ssakit-compare wasm FILE.wasm` is the phi cross-check on lifted
//! WebAssembly instead ([`wasm`]); `ssakit-compare real FILE...` the real
//! rows, whole lifted modules (WebAssembly, or x86-64 as `ssakit x86 lift
//! --semantics` prints them) against both peers ([`real`]).

mod alloc;
mod cli;
mod cranelift;
mod llvm;
mod real;
mod report;
mod small;
mod ssa;
mod wasm;

use serde::Serialize;
use ssakit::gen::{generate, second, GenOptions, Shape};
use ssakit::ir::Var;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: alloc::Counting = alloc::Counting;

/// What to run.
#[derive(Clone, Debug, Serialize)]
pub struct Config {
    /// Shapes, by `ssakit gen` name.
    pub shapes: Vec<String>,
    /// Target instruction counts of the size sweep.
    pub sizes: Vec<usize>,
    /// Variable count of the size sweep.
    pub vars: usize,
    /// Variable counts of the variable sweep (at `sweep_size`).
    pub sweep_vars: Vec<usize>,
    /// Shapes of the variable sweep.
    pub sweep_shapes: Vec<String>,
    /// Instruction count of the variable sweep.
    pub sweep_size: usize,
    /// Repetitions (medians); LLVM runs once at 1M instructions and above.
    pub reps: usize,
    /// Seconds after which a run of a peer is abandoned (and larger sizes
    /// skipped).
    pub limit_s: u64,
    /// Output folder.
    pub out: PathBuf,
    /// Run LLVM.
    pub llvm: bool,
    /// Run Cranelift.
    pub cranelift: bool,
    /// `sizes` and `sweep_size` count blocks, not instructions (the
    /// generator's `--blocks`).
    pub by_blocks: bool,
    /// Programs of the second generator (`ssakit gen --generator
    /// second`, [`ssakit::gen::second`]) instead of the first: the
    /// generator of the rows being measured.
    pub second: bool,
    /// The generators whose rows are measured, in order (`--generator
    /// both`: the first's, then the second's on the shapes it draws).
    pub generators: Vec<bool>,
    /// Lifted modules whose real rows follow the generated ones
    /// (`--real FILE,FILE..`: [`real`]).
    pub real: Vec<PathBuf>,
    /// The release CLI that also runs every row as a user does
    /// (`--cli SSAKIT`: [`cli`]).
    pub cli: Option<PathBuf>,
}

impl Config {
    fn full() -> Config {
        let all: Vec<String> = Shape::ALL.iter().map(|s| s.name().to_string()).collect();
        Config {
            shapes: all,
            sizes: vec![1_000, 10_000, 100_000, 1_000_000],
            vars: 16,
            sweep_vars: vec![256, 1024],
            sweep_shapes: vec!["random".into(), "chain".into(), "many-vars".into()],
            sweep_size: 100_000,
            reps: 3,
            limit_s: 60,
            out: PathBuf::from("target/compare"),
            llvm: true,
            cranelift: true,
            by_blocks: false,
            second: false,
            generators: vec![false],
            real: Vec::new(),
            cli: None,
        }
    }

    fn quick() -> Config {
        Config {
            sizes: vec![1_000, 10_000, 100_000],
            sweep_vars: vec![256],
            sweep_shapes: vec!["many-vars".into()],
            sweep_size: 10_000,
            reps: 3,
            limit_s: 20,
            ..Config::full()
        }
    }
}

const USAGE: &str = "usage: ssakit-compare [--quick] [--sizes N,N..] [--vars N] \
[--sweep-vars N,N..] [--sweep-shapes S,S..] [--sweep-size N] [--shapes S,S..] [--reps N] \
[--limit SECONDS] [--out DIR] [--no-llvm] [--no-cranelift] [--by-blocks] \
[--generator first|second|both] [--real FILE,FILE..] [--cli SSAKIT]";

fn parse_args() -> Result<Config, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut c = if args.iter().any(|a| a == "--quick") {
        Config::quick()
    } else {
        Config::full()
    };
    let list = |s: &str| -> Vec<String> { s.split(',').map(|x| x.trim().to_string()).collect() };
    let nums = |s: &str| -> Result<Vec<usize>, String> {
        s.split(',')
            .map(|x| {
                x.trim()
                    .replace('_', "")
                    .parse::<usize>()
                    .map_err(|e| format!("{x}: {e}"))
            })
            .collect()
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--quick" => {}
            "--sizes" => c.sizes = nums(&val()?)?,
            "--vars" => c.vars = nums(&val()?)?[0],
            "--sweep-vars" => c.sweep_vars = nums(&val()?)?,
            "--sweep-shapes" => c.sweep_shapes = list(&val()?),
            "--sweep-size" => c.sweep_size = nums(&val()?)?[0],
            "--shapes" => c.shapes = list(&val()?),
            "--reps" => c.reps = nums(&val()?)?[0].max(1),
            "--limit" => c.limit_s = nums(&val()?)?[0] as u64,
            "--out" => c.out = PathBuf::from(val()?),
            "--no-llvm" => c.llvm = false,
            "--no-cranelift" => c.cranelift = false,
            "--by-blocks" => c.by_blocks = true,
            "--generator" => {
                c.generators = match val()?.as_str() {
                    "first" => vec![false],
                    "second" => vec![true],
                    "both" => vec![false, true],
                    g => return Err(format!("unknown generator `{g}`\n{USAGE}")),
                };
                c.second = c.generators == [true];
            }
            "--real" => c.real = list(&val()?).into_iter().map(PathBuf::from).collect(),
            "--cli" => c.cli = Some(PathBuf::from(val()?)),
            "-h" | "--help" => return Err(USAGE.to_string()),
            _ => return Err(format!("unknown argument `{a}`\n{USAGE}")),
        }
    }
    // The default shape lists keep what the second generator draws.
    let drawn = |s: &String| s.parse().map_or(true, |s| second::density(s).is_some());
    if c.second && !args.iter().any(|a| a == "--shapes") {
        c.shapes.retain(drawn);
    }
    if c.second && !args.iter().any(|a| a == "--sweep-shapes") {
        c.sweep_shapes.retain(drawn);
    }
    for s in c.shapes.iter().chain(&c.sweep_shapes) {
        let shape = s.parse::<Shape>().map_err(|e| e.to_string())?;
        if c.second && second::density(shape).is_none() {
            return Err(second::UnsupportedShape(shape).to_string());
        }
    }
    if c.sweep_vars.is_empty() {
        c.sweep_shapes.clear();
    }
    Ok(c)
}

/// A measured time: median seconds, or why there is none.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Time {
    /// Median seconds.
    Secs(f64),
    /// Not measured: the reason.
    Skipped(String),
    /// Not measured: the run passed the time limit (the message says so).
    TimedOut(String),
}

impl Time {
    /// The seconds, if measured.
    pub fn secs(&self) -> Option<f64> {
        match self {
            Time::Secs(s) => Some(*s),
            Time::Skipped(_) | Time::TimedOut(_) => None,
        }
    }
}

/// ssakit construction in one flavour.
#[derive(Clone, Debug, Serialize)]
pub struct Construction {
    /// Median total seconds.
    pub total_s: f64,
    /// Phases of the median run, `(name, seconds)`.
    pub phases: Vec<(String, f64)>,
    /// Phis placed.
    pub phis: usize,
}

/// Everything measured on one program.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Shape name.
    pub shape: String,
    /// Program variables requested.
    pub vars: usize,
    /// Instructions (phis, ordinary, one terminator per block).
    pub insts: usize,
    /// Blocks.
    pub blocks: usize,
    /// Bytes allocated for the input function (a clone of it).
    pub input_bytes: usize,
    /// Construction per flavour.
    pub construct: BTreeMap<String, Construction>,
    /// Destruction per mode (of the pruned SSA), seconds.
    pub destruct: BTreeMap<String, f64>,
    /// Phases of the median run of destruction per mode, `(name, seconds)`.
    pub destruct_phases: BTreeMap<String, Vec<(String, f64)>>,
    /// The verifier on the pruned SSA, seconds.
    pub verify_s: f64,
    /// `Function::clone`, seconds.
    pub clone_s: f64,
    /// Clone and rewrite every operand, seconds.
    pub copy_s: f64,
    /// ssakit `FunctionBuilder` + pruned construction, seconds.
    pub ssakit_build_s: f64,
    /// Cranelift `FunctionBuilder`, sealing at the end.
    pub cranelift_end: Time,
    /// Cranelift `FunctionBuilder`, sealing early.
    pub cranelift_early: Time,
    /// Block parameters Cranelift left (sealing at the end).
    pub cranelift_phis: Option<usize>,
    /// LLVM PromotePass.
    pub llvm: Time,
    /// LLVM DominatorTreeAnalysis (mem2reg's request), seconds.
    pub llvm_domtree_s: Option<f64>,
    /// Phis in LLVM's output.
    pub llvm_phis: Option<usize>,
    /// Peak resident set of `opt` (parsing included), bytes.
    pub llvm_peak_rss: Option<u64>,
    /// Pruned ssakit phis that LLVM's mem2reg would simplify away
    /// ([`ssa::trivially_redundant_phis`]).
    pub redundant_phis: usize,
    /// Peak bytes allocated by pruned construction beyond its input.
    pub peak_bytes: usize,
    /// The CLI's figures on the same program (`--cli`), or why there
    /// are none.
    pub cli: Option<Result<cli::CliRow, String>>,
}

pub(crate) fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Median seconds of `reps` runs of `f`, each on a fresh `setup()` value
/// (not timed).
fn measure<S, T>(reps: usize, mut setup: impl FnMut() -> S, mut f: impl FnMut(S) -> T) -> f64 {
    median(
        (0..reps)
            .map(|_| {
                let s = setup();
                let t = Instant::now();
                let r = f(s);
                let e = t.elapsed().as_secs_f64();
                drop(black_box(r));
                e
            })
            .collect(),
    )
}

/// The program of `opts` by the generator `c` chooses (its shapes were
/// checked by `parse_args`).
fn draw(c: &Config, opts: &GenOptions) -> ssakit::ir::Function {
    if c.second {
        second::generate(opts).expect("a shape of the second generator")
    } else {
        generate(opts)
    }
}

/// The number of blocks that gives about `insts` instructions for `shape`.
fn blocks_for(c: &Config, shape: Shape, vars: usize, insts: usize) -> usize {
    let probe = 2_000;
    let f = draw(
        c,
        &GenOptions {
            shape,
            blocks: probe,
            vars,
            seed: 1,
        },
    );
    let per_block = f.num_insts() as f64 / f.layout().len() as f64;
    ((insts as f64 / per_block).round() as usize).max(3)
}

/// One peer's history on one shape: a size is not tried when the last two
/// sizes predict (by their growth exponent, at least linear) that it would
/// take longer than the limit, or when the peer already failed.
#[derive(Default)]
struct Peer {
    skip: Option<String>,
    history: Vec<(usize, f64)>,
}

impl Peer {
    /// Why `insts` is not tried, if it is not.
    fn skip_reason(&self, insts: usize, limit: f64) -> Option<String> {
        if let Some(why) = &self.skip {
            return Some(why.clone());
        }
        let &(n1, s1) = self.history.last()?;
        let exponent = match self.history.len() {
            0 | 1 => 1.0,
            k => {
                let (n0, s0) = self.history[k - 2];
                ((s1 / s0).ln() / (n1 as f64 / n0 as f64).ln()).clamp(1.0, 3.0)
            }
        };
        let predicted = s1 * (insts as f64 / n1 as f64).max(1.0).powf(exponent);
        (predicted > limit).then(|| {
            format!("skipped: predicted {predicted:.0} s (n^{exponent:.1} from {s1:.2} s at {n1})")
        })
    }

    fn record(&mut self, insts: usize, secs: f64) {
        self.history.push((insts, secs));
    }
}

/// Peers' histories on one shape.
#[derive(Default)]
struct Abandoned {
    llvm: Peer,
    cranelift_end: Peer,
    cranelift_early: Peer,
}

fn run_one(
    c: &Config,
    shape: Shape,
    vars: usize,
    size: usize,
    ab: &mut Abandoned,
    tmp: &Path,
) -> Row {
    let blocks = if c.by_blocks {
        size
    } else {
        blocks_for(c, shape, vars, size)
    };
    let src = draw(
        c,
        &GenOptions {
            shape,
            blocks,
            vars,
            seed: 1,
        },
    );
    let insts = src.num_insts();
    let reps = c.reps;
    eprintln!(
        "== {shape} vars={vars} insts={insts} blocks={}",
        src.layout().len()
    );
    let cli = c
        .cli
        .as_deref()
        .map(|bin| through_cli(bin, &src, reps, tmp));
    let before = alloc::current();
    let copy = src.clone();
    let input_bytes = alloc::current() - before;
    drop(copy);

    // ssakit construction per flavour: the median run's phases.
    let mut construct = BTreeMap::new();
    for (name, flavor) in ssa::FLAVORS {
        let mut runs: Vec<(f64, Construction)> = (0..reps)
            .map(|_| {
                let mut f = src.clone();
                let t = Instant::now();
                let (stats, times) = ssakit::timing::collect(|| {
                    ssakit::construct::construct(&mut f, &ssa::options(flavor))
                });
                let e = t.elapsed().as_secs_f64();
                let stats = stats.expect("construction succeeds");
                let phases = times
                    .phases
                    .iter()
                    .map(|(n, s)| (n.to_string(), *s))
                    .collect();
                let c = Construction {
                    total_s: e,
                    phases,
                    phis: stats.phis,
                };
                (e, c)
            })
            .collect();
        runs.sort_by(|a, b| a.0.total_cmp(&b.0));
        construct.insert(name.to_string(), runs.swap_remove(runs.len() / 2).1);
    }
    let mut pruned = src.clone();
    ssakit::construct::construct(
        &mut pruned,
        &ssa::options(ssakit::construct::Flavor::Pruned),
    )
    .expect("construction succeeds");
    let redundant_phis = ssa::trivially_redundant_phis(&pruned);
    let verify_s = measure(
        reps,
        || (),
        |_| ssakit::verify::verify(&pruned).expect("valid SSA"),
    );
    let mut destruct = BTreeMap::new();
    let mut destruct_phases = BTreeMap::new();
    for &(name, run) in ssa::DESTRUCTORS {
        // As `measure`, keeping the phases of the median run.
        let mut runs: Vec<(f64, Vec<(String, f64)>)> = (0..reps)
            .map(|_| {
                let mut f = pruned.clone();
                let t = Instant::now();
                let times = run(&mut f);
                let e = t.elapsed().as_secs_f64();
                drop(black_box(f));
                let phases = times
                    .phases
                    .iter()
                    .map(|(n, s)| (n.to_string(), *s))
                    .collect();
                (e, phases)
            })
            .collect();
        runs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (s, phases) = runs.swap_remove(runs.len() / 2);
        destruct.insert(name.to_string(), s);
        destruct_phases.insert(name.to_string(), phases);
    }
    drop(pruned);

    // Limits.
    let clone_s = measure(reps, || (), |_| src.clone());
    let table: Vec<Var> = src.vars().collect();
    let copy_s = measure(reps, || (), |_| ssa::copy_rewrite(&src, &table));

    // Peak memory of pruned construction beyond its input.
    let peak_bytes = {
        let mut f = src.clone();
        let base = alloc::current();
        alloc::reset_peak();
        ssakit::construct::construct(&mut f, &ssa::options(ssakit::construct::Flavor::Pruned))
            .expect("construction succeeds");
        alloc::peak() - base
    };

    // Builders from the same description.
    let ssakit_build_s = measure(reps, || (), |_| ssa::build_and_construct(&src));
    let limit = c.limit_s as f64;
    let mut cranelift_phis = None;
    let mut cl = |which: cranelift::Sealing, peer: &mut Peer| -> Time {
        if !c.cranelift {
            return Time::Skipped("not run".into());
        }
        if let Some(why) = peer.skip_reason(insts, limit) {
            return Time::Skipped(why);
        }
        // One run first: if it is too slow, do not repeat it.
        let t = Instant::now();
        let (_, phis) = cranelift::build(&src, which);
        let first = t.elapsed().as_secs_f64();
        if which == cranelift::Sealing::AtEnd {
            cranelift_phis = Some(phis);
        }
        let s = if first > limit / 10.0 {
            first
        } else {
            measure(reps, || (), |_| cranelift::build(&src, which))
        };
        peer.record(insts, s);
        Time::Secs(s)
    };
    let cranelift_end = cl(cranelift::Sealing::AtEnd, &mut ab.cranelift_end);
    let cranelift_early = cl(cranelift::Sealing::Early, &mut ab.cranelift_early);

    // LLVM.
    let (mut llvm, mut llvm_domtree_s, mut llvm_phis, mut llvm_peak_rss) =
        (Time::Skipped("opt not found".into()), None, None, None);
    if !c.llvm {
        llvm = Time::Skipped("not run".into());
    } else if let Some(why) = ab.llvm.skip_reason(insts, limit) {
        llvm = Time::Skipped(why);
    } else if llvm::available().is_some() {
        let module = ssakit::ir::Module {
            functions: vec![src.clone()],
        };
        let ir = ssakit::backend::llvm::emit_module(&module).expect("emit-llvm succeeds");
        let path = tmp.join(format!("{shape}-{vars}-{insts}.ll"));
        std::fs::write(&path, ir).expect("temporary file written");
        let llvm_reps = if insts >= 1_000_000 { 1 } else { reps };
        let mut runs = Vec::new();
        for _ in 0..llvm_reps {
            match llvm::run(&path, Duration::from_secs(c.limit_s)) {
                Ok(r) => runs.push(r),
                Err(e) => {
                    ab.llvm.skip = Some(format!("skipped: {e} at {insts} instructions"));
                    llvm = match e {
                        llvm::OptFailure::TimedOut(_) => Time::TimedOut(e.to_string()),
                        llvm::OptFailure::Failed(why) => Time::Skipped(why),
                    };
                    break;
                }
            }
        }
        let _ = std::fs::remove_file(&path);
        if !runs.is_empty() {
            runs.sort_by(|a, b| a.promote_s.total_cmp(&b.promote_s));
            let r = runs.swap_remove(runs.len() / 2);
            ab.llvm.record(insts, r.promote_s);
            llvm = Time::Secs(r.promote_s);
            llvm_domtree_s = Some(r.domtree_s);
            llvm_phis = Some(r.phis);
            llvm_peak_rss = r.peak_rss;
        }
    }
    Row {
        // The second generator's rows say so: `random/2`.
        shape: format!("{}{}", shape.name(), if c.second { "/2" } else { "" }),
        vars,
        insts,
        blocks: src.layout().len(),
        input_bytes,
        construct,
        destruct,
        destruct_phases,
        verify_s,
        clone_s,
        copy_s,
        ssakit_build_s,
        cranelift_end,
        cranelift_early,
        cranelift_phis,
        llvm,
        llvm_domtree_s,
        llvm_phis,
        llvm_peak_rss,
        redundant_phis,
        peak_bytes,
        cli,
    }
}

/// The CLI's figures on `src`, printed as `ssakit gen` prints it.
fn through_cli(
    bin: &Path,
    src: &ssakit::ir::Function,
    reps: usize,
    tmp: &Path,
) -> Result<cli::CliRow, String> {
    let module = ssakit::ir::Module {
        functions: vec![src.clone()],
    };
    let program = tmp.join("cli-program.ssa");
    std::fs::write(&program, ssakit::text::print_module(&module))
        .map_err(|e| format!("{}: {e}", program.display()))?;
    let r = cli::measure(bin, &program, reps, tmp);
    let _ = std::fs::remove_file(&program);
    r
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "small") {
        if let Err(e) = small::run(&args[1..]) {
            eprintln!("{e}");
            std::process::exit(1);
        }
        return;
    }
    if args.first().is_some_and(|a| a == "real") {
        if let Err(e) = real::run(&args[1..]) {
            eprintln!("{e}");
            std::process::exit(1);
        }
        return;
    }
    if args.first().is_some_and(|a| a == "wasm") {
        if let Err(e) = wasm::run(&args[1..]) {
            eprintln!("{e}");
            std::process::exit(1);
        }
        return;
    }
    let c = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let opt_version = if c.llvm { llvm::available() } else { None };
    if c.llvm && opt_version.is_none() {
        eprintln!("note: `opt` (LLVM 14) is not on the PATH: the LLVM columns are skipped");
    }
    std::fs::create_dir_all(&c.out).expect("output folder");
    let tmp = std::env::temp_dir().join(format!("ssakit-compare-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temporary folder");
    let started = Instant::now();
    let mut rows = Vec::new();
    // The second generator's rows on the shapes it draws.
    let drawn = |s: &String| s.parse().map_or(true, |s| second::density(s).is_some());
    for &gen in &c.generators {
        let mut g = c.clone();
        g.second = gen;
        if gen {
            g.shapes.retain(drawn);
            g.sweep_shapes.retain(drawn);
        }
        for name in &g.shapes {
            let shape: Shape = name.parse().unwrap();
            let mut ab = Abandoned::default();
            for &size in &g.sizes {
                rows.push(run_one(&g, shape, g.vars, size, &mut ab, &tmp));
            }
        }
        for name in &g.sweep_shapes {
            let shape: Shape = name.parse().unwrap();
            let mut ab = Abandoned::default();
            for &v in &g.sweep_vars {
                rows.push(run_one(&g, shape, v, g.sweep_size, &mut ab, &tmp));
            }
        }
    }
    let llvm_on = c.llvm && opt_version.is_some();
    let limit = Duration::from_secs(c.limit_s);
    let measure = real::Measure {
        reps: c.reps,
        sealing: cranelift::Sealing::Early,
        limit,
        llvm: llvm_on,
        cli: c.cli.clone(),
    };
    let real_rows = match real::rows(&c.real, &measure, &tmp) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let _ = std::fs::remove_dir_all(&tmp);
    let meta = report::Meta {
        command: std::env::args().collect::<Vec<_>>().join(" "),
        opt_version,
        cranelift_version: "cranelift-frontend 0.135".into(),
        seconds: started.elapsed().as_secs_f64(),
        config: c.clone(),
    };
    let mut md = report::markdown(&meta, &rows);
    if !real_rows.is_empty() {
        md.push_str("\n## Real functions\n\n");
        md.push_str(&real::table(&real_rows, &measure));
    }
    if c.cli.is_some() {
        md.push_str(&report::cli_table(&rows, &real_rows, c.reps));
    }
    md.push_str(&report::goals_table(&rows, &real_rows));
    print!("{md}");
    std::fs::write(c.out.join("results.md"), &md).expect("results.md written");
    let json = serde_json::to_string_pretty(&report::Json {
        meta: &meta,
        rows: &rows,
        real: &real_rows,
    })
    .expect("JSON");
    std::fs::write(c.out.join("results.json"), json).expect("results.json written");
    match report::plot(&rows, &c, &c.out.join("results.png")) {
        Ok(()) => eprintln!("wrote {}", c.out.join("results.png").display()),
        Err(e) => eprintln!("note: no plot: {e}"),
    }
}
