//! `ssakit x86 lift` and `ssakit x86 stats`: functions of x86-64 ELF
//! binaries through the front end of `ssakit-x86` (lifting rules in its
//! `lift` module, docs/x86.md).

use super::construct::FlavorArg;
use crate::exit::{self, Failed};
use crate::json::{self, ReportArgs, ValueName};
use crate::out::{Out, OutputArg};
use crate::par;
use crate::stats::{push_pass_rows, secs, table, LiftConstruct, PipelineArgs, Ran};
use clap::Subcommand;
use ssakit::ir::{Block, Function, InstData, Module, Operand, Terminator, VarNames};
use ssakit::pipeline::{Flavors, Stage, FLAVORS};
use ssakit_x86::binary::{Binary, FuncInfo, Origin};
use ssakit_x86::discover::Discovery;
use ssakit_x86::error::ErrorKind;
use ssakit_x86::lift::Origins;
use ssakit_x86::lost::Outside;
use ssakit_x86::pipeline::{self, BinaryStats, Options, PhiCounts};
use ssakit_x86::X86Error;

/// Arguments of `ssakit x86`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: X86Command,
}

/// The `x86` subcommands.
#[derive(Subcommand)]
pub enum X86Command {
    /// Print the functions of an x86-64 ELF binary as `.ssa` programs
    /// (registers and flags as variables), before construction or, with
    /// `--construct`, in SSA form.
    #[command(after_help = exit::HELP)]
    Lift(LiftArgs),
    /// Run every function through control-flow recovery, lifting,
    /// construction in each flavour, verification, `--passes` and
    /// destruction, and print the binary's figures.
    #[command(after_help = exit::HELP)]
    Stats(StatsArgs),
}

/// Arguments of `ssakit x86 lift`.
#[derive(clap::Args)]
pub struct LiftArgs {
    /// Input ELF file (standard input if absent or `-`).
    pub file: Option<String>,
    /// Only these functions: names or start addresses (`0x1270`),
    /// comma-separated.
    #[arg(long, value_name = "NAME|0xADDR,...")]
    pub func: Option<String>,
    /// A separate debug file (Debian's `-dbg`) whose symbols name and
    /// delimit the functions of a stripped binary.
    #[arg(long, value_name = "DEBUGFILE")]
    pub symbols: Option<String>,
    /// Only the functions the symbols and `.eh_frame` give: no
    /// discovery of call targets, entry points, code pointers and code
    /// after padding between extents (docs/x86.md, "Functions beyond the
    /// FDEs").
    #[arg(long)]
    pub no_discover: bool,
    /// Lift the integer instructions onto the operation set (`i64.add`,
    /// `i32.load`, `select`, ...; flags as `i32` 0 or 1), the others
    /// staying `x86.MNEMONIC` operations (docs/x86.md).
    #[arg(long)]
    pub semantics: bool,
    /// With `--semantics`: the frame's slots of fixed offset become
    /// variables `sN` (N bytes below the entry `rsp`) before
    /// construction: those whose address does not escape wholly, the
    /// others guarded (stores kept, a load read from the variable only
    /// where nothing since the last store could change the slot;
    /// docs/x86.md, "The stack frame").
    #[arg(long, requires = "semantics")]
    pub stack: bool,
    /// With `--semantics`: find every function's signature (parameters,
    /// results, preserved registers; docs/x86.md, "Signatures"), lift
    /// each call and return by it, and print it before the functions
    /// (`# LABEL: SIGNATURE`).
    #[arg(long, requires = "semantics")]
    pub signatures: bool,
    #[command(flatten)]
    pub construct: LiftConstruct,
    /// `text` (the `.ssa` program) or `json`: per block its address,
    /// phis and instructions, each with its machine address and the
    /// (register, value) pairs it reads and writes (docs/x86.md).
    #[arg(long, value_enum, default_value = "text")]
    pub format: crate::json::Format,
    #[command(flatten)]
    pub output: OutputArg,
}

/// Arguments of `ssakit x86 stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// Input ELF file (standard input if absent or `-`).
    pub file: Option<String>,
    /// A separate debug file (Debian's `-dbg`) whose symbols name and
    /// delimit the functions of a stripped binary.
    #[arg(long, value_name = "DEBUGFILE")]
    pub symbols: Option<String>,
    /// Only the functions the symbols and `.eh_frame` give: no
    /// discovery of call targets, entry points, code pointers and code
    /// after padding between extents (docs/x86.md, "Functions beyond the
    /// FDEs").
    #[arg(long)]
    pub no_discover: bool,
    /// The flavour optimised and destructed (all three are constructed
    /// and counted).
    #[arg(long, value_enum, default_value = "pruned")]
    pub flavor: FlavorArg,
    #[command(flatten)]
    pub pipeline: PipelineArgs,
    /// Construct and verify only `--flavor` (decode, CFG, lift, one SSA,
    /// verify, destruct); the other flavours' phis are `-` (null in
    /// JSON).
    #[arg(long)]
    pub only_flavor: bool,
    /// Lift with the semantics table (as `x86 lift --semantics`) and
    /// count the operations left opaque, by mnemonic (with and without
    /// the vector and x87 instructions), and, with `--passes`, each
    /// flavour's operations, phis and flag definitions before and after
    /// them, and the flag definitions of the instructions' meaning (before
    /// the lift leaves out the flags no one reads).
    #[arg(long)]
    pub semantics: bool,
    /// With `--semantics`: track the stack pointer and promote the
    /// frame's slots to variables before construction (guarded where
    /// their address escapes or they overlap); count the functions whose `rsp` offset is kept or
    /// lost (by reason), the accesses promoted and those left in memory
    /// (by reason), and the slots' phis.
    #[arg(long, requires = "semantics")]
    pub stack: bool,
    /// With `--semantics`: find every function's signature first and
    /// lift each call and return by it (docs/x86.md, "Signatures"); count
    /// them, and give each function's in JSON.
    #[arg(long, requires = "semantics")]
    pub signatures: bool,
    #[command(flatten)]
    pub report: ReportArgs,
}

pub fn run(a: Args) -> Result<(), Failed> {
    match a.command {
        X86Command::Lift(a) => run_lift(a),
        X86Command::Stats(a) => run_stats(a),
    }
}

/// Prints `e` about the file `name`; the exit code is the kind's.
fn bad(name: &str, e: &X86Error) -> Failed {
    crate::stderr::errln!("error: {name}: {e}");
    Failed(exit::of_x86(e.kind))
}

/// Reads the binary at `path` (and the debug file) and, unless
/// `no_discover`, discovers the functions beyond the symbols and FDEs;
/// `then` gets it and the discovery. A binary in which no function is
/// found is refused, saying why.
fn with_binary<T>(
    path: &str,
    symbols: &Option<String>,
    no_discover: bool,
    then: impl FnOnce(&str, &Binary<'_>, Option<&Discovery>) -> Result<T, Failed>,
) -> Result<T, Failed> {
    let (name, bytes) = crate::input::read_elf_bytes(path)?;
    let mut bin = Binary::parse(&bytes).map_err(|e| bad(&name, &e))?;
    if let Some(dbg) = symbols {
        let (dname, dbytes) = crate::input::read_elf_bytes(dbg)?;
        bin.add_symbols(&dbytes).map_err(|e| bad(&dname, &e))?;
    }
    let found = (!no_discover).then(|| ssakit_x86::discover::discover(&mut bin));
    bin.check_functions().map_err(|e| bad(&name, &e))?;
    then(&name, &bin, found.as_ref())
}

/// The function `sel` names: a start address (`0x...`), a label, or a
/// symbol's name that only one function has. The error says why not: no
/// such function, an address inside a function (naming it), or a name
/// several functions have (listing them): of kind
/// [`ErrorKind::NoSuchFunction`] or [`ErrorKind::Ambiguous`].
fn find<'b>(bin: &'b Binary<'_>, sel: &str) -> Result<&'b FuncInfo, X86Error> {
    let shown = crate::echo::echo(sel);
    let addr = sel
        .strip_prefix("0x")
        .and_then(|h| u64::from_str_radix(h, 16).ok());
    let none = |why: String| X86Error::new(ErrorKind::NoSuchFunction, why);
    if let Some(a) = addr {
        return bin
            .function_at(a)
            .ok_or_else(|| match bin.function_containing(a) {
                Some(f) => format!(
                    "no function starts at {a:#x}: it is inside `{}` ({:#x}..{:#x}); \
                 give its start address {:#x}",
                    f.label, f.extent.start, f.extent.end, f.extent.start
                ),
                None => format!("no function at {a:#x}"),
            })
            .map_err(none);
    }
    let named: Vec<&FuncInfo> = bin.functions().iter().filter(|f| f.name == sel).collect();
    if named.len() > 1 {
        let list: Vec<String> = named
            .iter()
            .map(|f| format!("`{}` at {:#x}", f.label, f.extent.start))
            .collect();
        return Err(X86Error::new(
            ErrorKind::Ambiguous,
            format!(
                "`{shown}` names {} functions: {}; give one of these labels or a start address",
                named.len(),
                list.join(", ")
            ),
        ));
    }
    bin.functions()
        .iter()
        .find(|f| f.label == sel)
        .or(named.first().copied())
        .ok_or_else(|| {
            none(format!(
                "no function `{shown}` (a name or a start address 0x...)"
            ))
        })
}

/// The functions `--func` chooses (each once, in the order first named),
/// or all of them.
fn choose<'b>(
    bin: &'b Binary<'_>,
    name: &str,
    sels: Option<&str>,
) -> Result<Vec<&'b FuncInfo>, Failed> {
    let Some(sels) = sels else {
        return Ok(bin.functions().iter().collect());
    };
    let mut chosen: Vec<&FuncInfo> = Vec::new();
    for sel in sels.split(',') {
        let f = find(bin, sel).map_err(|e| bad(name, &e))?;
        if !chosen.iter().any(|g| g.extent.start == f.extent.start) {
            chosen.push(f);
        }
    }
    Ok(chosen)
}

/// How many functions `x86 lift --format json` lifts, constructs and
/// writes at a time, per thread.
const JSON_BATCH_PER_THREAD: usize = 4;

fn run_lift(a: LiftArgs) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let file = a.file.as_deref().unwrap_or("-");
    with_binary(file, &a.symbols, a.no_discover, |name, bin, _| {
        let chosen = choose(bin, name, a.func.as_deref())?;
        let opts = LiftOptions {
            lift: ssakit_x86::lift::Options {
                semantics: a.semantics,
            },
            stack: a.stack,
            sigs: a
                .signatures
                .then(|| ssakit_x86::signature::Signatures::infer(bin, a.stack)),
            cover: ssakit_x86::lost::FragmentCover::for_lifting(bin, chosen.iter().copied()),
        };
        let who = |info: &FuncInfo| {
            format!(
                "{name}: function `{}` at {:#x}",
                info.label, info.extent.start
            )
        };
        if a.format == crate::json::Format::Json {
            let failed = std::cell::Cell::new(None);
            let batches = Batches {
                bin,
                chosen: &chosen,
                opts: &opts,
                construct: &a.construct,
                who: &who,
                failed: &failed,
            };
            return write_json(&mut out, name, batches);
        }
        let (mut functions, lost): (Vec<Function>, Vec<_>) = {
            use rayon::prelude::*;
            chosen
                .par_iter()
                .map(|info| {
                    let l = opts.lift(bin, info);
                    (l.func, l.lost)
                })
                .unzip()
        };
        for (info, lost) in chosen.iter().zip(&lost) {
            if let Some(note) = lost_note(&who(info), lost) {
                crate::stderr::errln!("{note}");
            }
        }
        a.construct.apply(&mut functions, |k, _| who(chosen[k]))?;
        if let Some(sigs) = &opts.sigs {
            let mut head = String::new();
            for info in &chosen {
                if let Some(sig) = sigs.at(info.extent.start) {
                    head.push_str(&format!("# {}: {sig}\n", info.label));
                }
            }
            out.write_str(&head)?;
        }
        par::print_module(&Module { functions }, &mut out)
    })?;
    out.finish()
}

/// How `x86 lift` lifts each function.
struct LiftOptions {
    lift: ssakit_x86::lift::Options,
    /// `--stack`: promote the frame's slots after lifting.
    stack: bool,
    /// `--signatures`: the binary's.
    sigs: Option<ssakit_x86::signature::Signatures>,
    /// What the functions decoded in fragments, when one is lifted: its
    /// lost ranges are those of `x86 stats`.
    cover: ssakit_x86::lost::FragmentCover,
}

impl LiftOptions {
    fn lift(&self, bin: &Binary<'_>, info: &FuncInfo) -> ssakit_x86::lift::Lifted {
        let mut l = match &self.sigs {
            Some(sigs) => ssakit_x86::signature::lift_with_signatures(bin, info, &self.lift, sigs),
            None => ssakit_x86::lift::lift_with(bin, info, &self.lift),
        };
        match (&self.sigs, self.stack) {
            (Some(sigs), true) => {
                ssakit_x86::signature::promote_signed(&mut l.func, &mut l.origins, bin, info, sigs);
            }
            (None, true) => {
                ssakit_x86::slots::promote(&mut l.func, &mut l.origins);
            }
            (_, false) => {}
        }
        l.lost = self.cover.subtract(bin, info, std::mem::take(&mut l.lost));
        l
    }
}

/// `x86 lift --format json`: the document written as it is made, a batch
/// of functions at a time (lifted and constructed in parallel, then
/// written), so that only a batch is in memory (docs/x86.md measures it).
fn write_json(out: &mut Out, name: &str, functions: Batches<'_, '_, '_>) -> Result<(), Failed> {
    let (construct, failed) = (functions.construct, functions.failed);
    let doc = json::X86Lift {
        binary: name.to_string(),
        functions,
        ssa: construct.construct.then_some(match construct.flavor() {
            FlavorArg::Minimal => "minimal",
            FlavorArg::SemiPruned => "semi-pruned",
            FlavorArg::Pruned => "pruned",
        }),
    };
    let mut w = OutWriter { out, failed };
    let res = serde_json::to_writer(&mut w, &doc);
    if let Some(f) = failed.take() {
        return Err(f);
    }
    res.expect("the document serialises");
    out.write_str("\n")
}

/// [`Out`] as an `io::Write` for `serde_json`, keeping its failure.
struct OutWriter<'a, 'c> {
    out: &'a mut Out,
    failed: &'c std::cell::Cell<Option<Failed>>,
}

impl std::io::Write for OutWriter<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.out.write_bytes(buf) {
            Ok(()) => Ok(buf.len()),
            Err(f) => {
                self.failed.set(Some(f));
                Err(std::io::Error::other("output failed"))
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The `functions` list of the JSON document: serialising it lifts (and
/// constructs) the chosen functions a batch at a time.
struct Batches<'a, 'b, 'd> {
    bin: &'a Binary<'d>,
    chosen: &'a [&'b FuncInfo],
    opts: &'a LiftOptions,
    construct: &'a LiftConstruct,
    who: &'a dyn Fn(&FuncInfo) -> String,
    failed: &'a std::cell::Cell<Option<Failed>>,
}

impl serde::Serialize for Batches<'_, '_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use rayon::prelude::*;
        use serde::ser::{Error, SerializeSeq};
        let mut seq = s.serialize_seq(Some(self.chosen.len()))?;
        let batch = JSON_BATCH_PER_THREAD * rayon::current_num_threads();
        for infos in self.chosen.chunks(batch.max(1)) {
            let (mut functions, origins): (Vec<_>, Vec<_>) = infos
                .par_iter()
                .map(|info| {
                    let l = self.opts.lift(self.bin, info);
                    (l.func, (l.origins, l.lost))
                })
                .unzip();
            if let Err(f) = self
                .construct
                .apply(&mut functions, |k, _| (self.who)(infos[k]))
            {
                self.failed.set(Some(f));
                return Err(S::Error::custom("construction failed"));
            }
            for ((f, (o, lost)), info) in functions.iter().zip(&origins).zip(infos) {
                if let Some(note) = lost_note(&(self.who)(info), lost) {
                    crate::stderr::errln!("{note}");
                }
                seq.serialize_element(&lift_json(f, o, lost, info))?;
            }
        }
        seq.end()
    }
}

/// `x86 lift --format json` of one function: every read and write is a
/// pair `[register, value]`, the location (the variable's name before
/// construction) and the printed name of the value (SSA name after
/// `--construct`). Schema in [`json::X86Lift`] and docs/x86.md. The
/// blocks are made as they are written.
fn lift_json<'a>(
    f: &'a Function,
    o: &'a Origins,
    lost: &[ssakit_x86::lost::LostRange],
    info: &FuncInfo,
) -> json::X86Function<LazyBlocks<'a>> {
    let names = VarNames::new(f);
    let hex = |a: u64| format!("{a:#x}");
    json::X86Function {
        address: hex(info.extent.start),
        end: hex(info.extent.end),
        label: f.name().to_string(),
        lost: lost.iter().map(json::X86LostRange::new).collect(),
        name: info.name.clone(),
        params: f
            .params()
            .iter()
            .map(|&v| names.get(v).to_string())
            .collect(),
        blocks: LazyBlocks { f, o, names },
    }
}

/// The blocks of one function, each made into its [`json::X86Block`] as
/// it is written.
struct LazyBlocks<'a> {
    f: &'a Function,
    o: &'a Origins,
    names: VarNames,
}

impl serde::Serialize for LazyBlocks<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.f.layout().iter().map(|&b| self.block(b)))
    }
}

impl LazyBlocks<'_> {
    fn block(&self, b: Block) -> json::X86Block {
        let (f, o, names) = (self.f, self.o, &self.names);
        let value = |op: Operand| match op {
            Operand::Var(v) => ValueName::Name(names.get(v).to_string()),
            Operand::Const(c) => ValueName::Const(c),
            Operand::Undef => ValueName::Undef,
        };
        let pair = |op: Operand| match op {
            Operand::Var(v) => (Some(f.base_name(v).to_string()), value(op)),
            _ => (None, value(op)),
        };
        let hex = |a: u64| format!("{a:#x}");
        let phi = |i| {
            let dst = f.def(i).expect("a phi defines");
            json::X86Phi {
                args: f
                    .phi_args(i)
                    .iter()
                    .map(|a| (f.block_name(a.block).to_string(), value(a.value)))
                    .collect(),
                def: names.get(dst).to_string(),
                register: f.base_name(dst).to_string(),
            }
        };
        let inst = |i| {
            let (mut reads, mut writes) = (Vec::new(), Vec::new());
            f.for_each_operand(i, |op| reads.push(pair(op)));
            f.for_each_def(i, |v| writes.push(pair(Operand::Var(v))));
            let op = match f.inst(i) {
                InstData::Op { op, .. } => f.operator_name(*op).to_string(),
                InstData::Call { callee, .. } => f.callee_name(*callee).to_string(),
                _ => String::new(),
            };
            let origin = o.inst(i);
            json::X86Inst {
                address: origin.map(|o| hex(o.address)),
                call: matches!(f.inst(i), InstData::Call { .. })
                    || op == "x86.call.x"
                    || op == "x86.syscall.x",
                op,
                reads,
                size: origin.map(|o| o.size),
                writes,
            }
        };
        let terminator = || {
            let mut reads = Vec::new();
            f.for_each_term_operand(b, |op| reads.push(pair(op)));
            let mut successors = Vec::new();
            f.for_each_succ(b, |s| successors.push(f.block_name(s).to_string()));
            let t = o.term(b);
            json::X86Terminator {
                address: t.map(|t| hex(t.address)),
                kind: match f.term(b) {
                    Terminator::Jump(_) => "jump",
                    Terminator::Branch { .. } => "branch",
                    Terminator::Switch { .. } => "switch",
                    Terminator::Ret(_) => "ret",
                    Terminator::Unreachable => "unreachable",
                },
                reads,
                size: t.map(|t| t.size),
                successors,
            }
        };
        json::X86Block {
            address: o.block(b).map(hex),
            instructions: f.block_insts(b).iter().map(|&i| inst(i)).collect(),
            label: f.block_name(b).to_string(),
            phis: f.block_phis(b).iter().map(|&i| phi(i)).collect(),
            terminator: terminator(),
        }
    }
}

fn run_stats(a: StatsArgs) -> Result<(), Failed> {
    let out = Out::open(&a.report.output)?;
    let flavors = match a.only_flavor {
        true => Flavors::Chosen,
        false => Flavors::All,
    };
    let opts = Options {
        pipeline: a.pipeline.pipeline(a.flavor, flavors),
        semantics: a.semantics,
        stack: a.stack,
        signatures: a.signatures,
    };
    let file = a.file.as_deref().unwrap_or("-");
    let (name, stats, outside, found) =
        with_binary(file, &a.symbols, a.no_discover, |name, bin, found| {
            let stats = crate::stats::Progress::over(bin.functions().len(), |done| {
                pipeline::run(bin, &opts, done)
            });
            let outside = ssakit_x86::lost::outside_functions(bin);
            let found = found.map(|d| Found::of(bin, d));
            Ok((name.to_string(), stats, outside, found))
        })?;
    let report = Report {
        name: &name,
        stats: &stats,
        outside: &outside,
        found: found.as_ref(),
        opts: &opts,
    };
    a.report.write_stats(
        out,
        || render_text(&report),
        || render_json(&report),
        stats.failures.iter().map(|f| {
            format!(
                "{name}: function `{}` at {:#x}: {}: {}",
                f.name, f.address, f.error.stage, f.error.message
            )
        }),
    )
}

const FLAVOR_NAMES: [&str; 3] = ["minimal", "semi-pruned", "pruned"];

/// Whether `opts` constructs the `k`-th of [`FLAVORS`] (a flavour not
/// built shows `-` in the table, null in JSON).
fn built(opts: &Options, k: usize) -> bool {
    opts.pipeline.flavors == Flavors::All || FLAVORS[k] == opts.pipeline.construct.flavor
}

/// What `x86 stats` reports on one binary.
#[derive(Clone, Copy)]
struct Report<'a> {
    name: &'a str,
    stats: &'a BinaryStats,
    outside: &'a Outside,
    found: Option<&'a Found>,
    opts: &'a Options,
}

/// The functions' origins (with discovery): each function's by start
/// address, and the counts.
struct Found {
    /// (start, origin), by start.
    origins: Vec<(u64, Origin)>,
    discovery: Discovery,
}

impl Found {
    fn of(bin: &Binary<'_>, d: &Discovery) -> Found {
        Found {
            origins: bin
                .functions()
                .iter()
                .map(|f| (f.extent.start, f.origin))
                .collect(),
            discovery: d.clone(),
        }
    }

    /// The origin of the function at `a`.
    fn origin(&self, a: u64) -> Option<Origin> {
        let i = self.origins.binary_search_by_key(&a, |&(s, _)| s).ok()?;
        Some(self.origins[i].1)
    }

    /// The functions of each origin, in [`Origin::ALL`]'s order.
    fn counts(&self) -> [usize; 6] {
        let mut n = [0; 6];
        for &(_, o) in &self.origins {
            n[Origin::ALL.iter().position(|&k| k == o).unwrap_or(0)] += 1;
        }
        n
    }
}

/// `functions by origin`: the count of each origin, and what discovery
/// rejected.
fn found_row(f: &Found) -> String {
    let parts: Vec<String> = Origin::ALL
        .iter()
        .zip(f.counts())
        .map(|(o, n)| format!("{} {n}", o.key()))
        .collect();
    let spent = if f.discovery.exhausted {
        ", budget exhausted"
    } else {
        ""
    };
    format!(
        "{} ({} candidates rejected{spent})",
        parts.join(", "),
        f.discovery.rejected
    )
}

fn render_text(report: &Report<'_>) -> String {
    let (name, stats, outside) = (report.name, report.stats, report.outside);
    let (found, opts) = (report.found, report.opts);
    let t = stats.total();
    let phis = |p: &PhiCounts| {
        let slots = if opts.stack {
            format!(", {} stack slots", p.slots)
        } else {
            String::new()
        };
        format!(
            "{} ({} registers, {} flags, {} vectors{slots})",
            p.total(),
            p.registers,
            p.flags,
            p.vectors
        )
    };
    let mut r: Vec<(String, String)> = vec![(
        "functions".into(),
        (stats.functions.len() + stats.failures.len()).to_string(),
    )];
    if let Some(f) = found {
        r.push(("functions by origin".into(), found_row(f)));
    }
    r.extend([
        ("blocks".into(), t.blocks.to_string()),
        ("instructions".into(), t.instructions.to_string()),
        ("jump tables resolved".into(), t.jump_tables.to_string()),
        ("calls with a landing pad".into(), t.invokes.to_string()),
    ]);
    if t.fragment_instructions > 0 {
        r.push((
            "instructions in cold fragments".into(),
            t.fragment_instructions.to_string(),
        ));
    }
    let built = |k: usize| built(opts, k);
    for (k, f) in FLAVOR_NAMES.iter().enumerate() {
        let v = if built(k) {
            phis(&t.phis.get(FLAVORS[k]).copied().unwrap_or_default())
        } else {
            "-".into()
        };
        r.push((format!("phis {f}"), v));
    }
    push_pass_rows(&mut r, &opts.pipeline.passes, t.copies);
    if let Some(p) = &t.stack {
        stack_rows(&mut r, stats, p);
    }
    if opts.signatures && opts.semantics {
        signature_rows(&mut r, stats);
    }
    if opts.semantics {
        opaque_rows(&mut r, &t);
        for (k, f) in FLAVOR_NAMES.iter().enumerate() {
            if let Some([b, a]) = t.passes.get(FLAVORS[k]) {
                r.push((format!("passes {f}"), shrink(b, a, t.meaning_flag_defs)));
            }
        }
    }
    r.push(("time decode+cfg".into(), secs(t.times.seconds("decode"))));
    r.push(("time lift".into(), secs(t.times.seconds("lift"))));
    for (k, f) in FLAVOR_NAMES.iter().enumerate() {
        let v = if built(k) {
            secs(t.times.seconds(Stage::Construct(FLAVORS[k]).phase()))
        } else {
            "-".into()
        };
        r.push((format!("time construct {f}"), v));
    }
    let (wall, failed) = (stats.wall, stats.failures.len());
    Ran::new(&t.times, &opts.pipeline, wall, failed).push_rows(&mut r);
    r.push(("lost code".into(), lost_row(stats)));
    r.push(("code outside functions".into(), outside_row(outside)));
    table(&format!("binary: {name}"), r)
}

/// `lost code`: the instructions and bytes of extents never decoded
/// (padding apart), the functions they belong to, and the split by
/// reason; `0` when every byte was reached.
fn lost_row(stats: &BinaryStats) -> String {
    let t = stats.lost();
    if t.functions == 0 {
        return "0".into();
    }
    let reasons: Vec<String> = ["unresolved indirect jumps", "data in code", "unreachable"]
        .iter()
        .zip(t.by_reason)
        .filter(|(_, (b, _))| *b > 0)
        .map(|(k, (b, i))| format!("{k} {i} ({b} bytes)"))
        .collect();
    format!(
        "{} instructions ({} bytes) in {} of {} functions: {}",
        t.instructions,
        t.bytes,
        t.functions,
        stats.functions.len() + stats.failures.len(),
        reasons.join(", ")
    )
}

/// `code outside functions`: the executable bytes no function's extent
/// covers (padding apart), which nothing lifts; `0` when there are none.
fn outside_row(o: &Outside) -> String {
    if o.bytes == 0 {
        return "0".into();
    }
    format!(
        "{} bytes ({:.2}% of {} executable), {} instructions in {} ranges: not lifted",
        o.bytes,
        100.0 * o.bytes as f64 / o.executable.max(1) as f64,
        o.executable,
        o.instructions,
        o.ranges
    )
}

/// The note `x86 lift` prints on standard error for a function that lost
/// code: its instructions and bytes never decoded, by reason.
fn lost_note(who: &str, lost: &[ssakit_x86::lost::LostRange]) -> Option<String> {
    if lost.is_empty() {
        return None;
    }
    let mut t = ssakit_x86::lost::LostTotals::default();
    t.add(lost);
    let first_jump = lost.iter().find_map(|r| match r.reason {
        ssakit_x86::lost::Reason::UnresolvedJump(a, _) => Some(a),
        _ => None,
    });
    let reasons: Vec<String> = [
        "after unresolved indirect jumps",
        "data in code",
        "unreachable",
    ]
    .iter()
    .zip(t.by_reason)
    .filter(|(_, (b, _))| *b > 0)
    .map(|(k, (_, i))| match (k, first_jump) {
        (k, Some(a)) if k.starts_with("after") => format!("{i} {k} (the first at {a:#x})"),
        _ => format!("{i} {k}"),
    })
    .collect();
    Some(format!(
        "note: {who}: {} instructions ({} bytes) never decoded: {}",
        t.instructions,
        t.bytes,
        reasons.join(", ")
    ))
}

/// With `--signatures`: how many functions have one found with SSA and how
/// many the convention's, their parameters and results on average, and
/// the time of finding them.
fn signature_rows(r: &mut Vec<(String, String)>, stats: &BinaryStats) {
    let sigs: Vec<_> = stats
        .functions
        .iter()
        .filter_map(|f| f.signature.as_ref())
        .collect();
    let found: Vec<_> = sigs.iter().filter(|s| !s.fallback).collect();
    let mean = |n: usize| match found.len() {
        0 => 0.0,
        k => n as f64 / k as f64,
    };
    let params: usize = found.iter().map(|s| s.params.len()).sum();
    let stack: usize = found.iter().map(|s| s.stack_params.len()).sum();
    let results: usize = found.iter().map(|s| s.results.len()).sum();
    r.push((
        "signatures".into(),
        format!(
            "{} found, {} the convention's; per function {:.2} register and {:.2} stack parameters, {:.2} results",
            found.len(),
            sigs.len() - found.len(),
            mean(params),
            mean(stack),
            mean(results)
        ),
    ));
    r.push((
        "signatures time".into(),
        format!("{:.3} s wall", stats.signatures_wall),
    ));
}

/// With `--stack`: the functions whose `rsp` offset is kept or lost, by
/// reason; the frame accesses promoted to variables and those left in
/// memory, by reason.
fn stack_rows(
    r: &mut Vec<(String, String)>,
    stats: &BinaryStats,
    p: &ssakit_x86::slots::Promotion,
) {
    use ssakit_x86::frame::LostReason;
    let mut lost = [0usize; LostReason::ALL.len()];
    for f in &stats.functions {
        if let Some(l) = f.stack.and_then(|s| s.lost) {
            lost[LostReason::ALL
                .iter()
                .position(|&x| x == l.reason)
                .unwrap_or(0)] += 1;
        }
    }
    let n = stats.functions.len();
    let kept = n - lost.iter().sum::<usize>();
    let reasons: Vec<String> = LostReason::ALL
        .iter()
        .zip(lost)
        .map(|(w, k)| format!("{} {k}", w.name()))
        .collect();
    r.push((
        "rsp offset kept".into(),
        format!("{kept} of {n} functions (lost: {})", reasons.join(", ")),
    ));
    let left: usize = p.left.iter().sum();
    r.push((
        "stack accesses promoted".into(),
        format!(
            "{} of {} ({} slots; {} stores written through for calls)",
            p.promoted,
            p.promoted + left,
            p.slots,
            p.written_through
        ),
    ));
    let reasons: Vec<String> = ssakit_x86::slots::Left::ALL
        .iter()
        .zip(p.left)
        .map(|(w, k)| format!("{} {k}", w.name()))
        .collect();
    r.push(("stack accesses left".into(), reasons.join(", ")));
}

/// `opaque operations`: how many `x86.MNEMONIC` operations the
/// semantics left, their share of the instructions, and the most frequent
/// mnemonics; then the same without the instructions that use a vector or
/// x87 register (the share the goal of at most 1% counts).
fn opaque_rows(r: &mut Vec<(String, String)>, t: &pipeline::FunctionStats) {
    let n: usize = t.opaque.values().sum();
    let share = 100.0 * n as f64 / t.instructions.max(1) as f64;
    r.push((
        "opaque operations".into(),
        format!("{n} ({share:.1}% of the instructions)"),
    ));
    r.push(("opaque, most frequent".into(), top(&t.opaque)));
    let n: usize = t.opaque_scalar.values().sum();
    let scalar = t.instructions - t.vector_instructions;
    let share = 100.0 * n as f64 / scalar.max(1) as f64;
    r.push((
        "opaque, no vector/x87".into(),
        format!("{n} ({share:.2}% of {scalar} instructions)"),
    ));
    r.push(("no vector/x87, top 12".into(), top(&t.opaque_scalar)));
}

/// What the passes did to one flavour: operations, phis and flag
/// definitions before and after, the share of flag definitions kept, and
/// the share of the `meaning` ones (the instructions' flag definitions
/// before the lift left out those overwritten unread in their block).
fn shrink(b: &pipeline::Size, a: &pipeline::Size, meaning: usize) -> String {
    let kept = 100.0 * a.flag_defs as f64 / b.flag_defs.max(1) as f64;
    let of_meaning = 100.0 * a.flag_defs as f64 / meaning.max(1) as f64;
    format!(
        "operations {} -> {}, phis {} -> {}, flag defs {} -> {} ({kept:.1}% kept; {of_meaning:.1}% of the meaning's {meaning})",
        b.operations, a.operations, b.phis, a.phis, b.flag_defs, a.flag_defs
    )
}

/// The twelve most frequent mnemonics of `counts`, `NAME N` each.
fn top(counts: &std::collections::BTreeMap<String, usize>) -> String {
    let mut top: Vec<(&String, &usize)> = counts.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let top: Vec<String> = top
        .iter()
        .take(12)
        .map(|(m, k)| format!("{m} {k}"))
        .collect();
    top.join(", ")
}

fn render_json(report: &Report<'_>) -> String {
    let (name, stats, outside) = (report.name, report.stats, report.outside);
    let (found, opts) = (report.found, report.opts);
    let built = |k: usize| built(opts, k);
    let doc = json::to_string(&json::X86Stats {
        binary: name.to_string(),
        failures: stats
            .failures
            .iter()
            .map(|f| json::X86Failure {
                address: format!("{:#x}", f.address),
                message: f.error.message.clone(),
                name: f.name.clone(),
                stage: f.error.stage.to_string(),
            })
            .collect(),
        // Spliced in below, serialised in parallel.
        functions: Vec::new(),
        functions_found: found.map(|f| {
            let n = f.counts();
            json::X86Found {
                budget_exhausted: f.discovery.exhausted,
                call: n[3],
                entry: n[2],
                fde: n[1],
                gap: n[5],
                pointer: n[4],
                rejected: f.discovery.rejected,
                symbol: n[0],
            }
        }),
        outside_functions: json::X86Outside {
            bytes: outside.bytes,
            executable: outside.executable,
            instructions: outside.instructions,
            ranges: outside.ranges,
        },
        passes: opts.pipeline.passes.iter().map(|p| p.name()).collect(),
        threads: rayon::current_num_threads(),
        total: {
            let mut t = json::X86Counts::new(&stats.total(), built, false, opts.semantics);
            t.lost = json::X86Lost::of_totals(&stats.lost());
            t
        },
        wall: stats.wall,
    });
    // One record per function, most of the document: serialised on every
    // thread, each as the whole document's pretty printer writes it at
    // its depth (two levels: every line indented by four spaces, a JSON
    // string holding no raw newline), then put in the empty array's place.
    let records: Vec<String> = {
        use rayon::prelude::*;
        stats
            .functions
            .par_iter()
            .map(|f| {
                let mut c = json::X86Counts::new(f, built, true, opts.semantics);
                c.found = found.and_then(|o| o.origin(f.address)).map(|o| o.key());
                let text = serde_json::to_string_pretty(&c).expect("reports serialise");
                format!("    {}", text.replace('\n', "\n    "))
            })
            .collect()
    };
    json::splice_array(doc, "functions", &records)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--func` decides by kind: a name two functions share is
    /// ambiguous, an unknown name or an address inside a function names
    /// none, and a label or a start address names one.
    #[test]
    fn a_selection_is_decided_by_its_kind() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../ssakit-x86/tests/fixture/round4"
        );
        let elf = std::fs::read(path).unwrap();
        let bin = Binary::parse(&elf).unwrap();
        let kind = |sel: &str| find(&bin, sel).err().map(|e| e.kind);
        assert_eq!(kind("helper"), Some(ErrorKind::Ambiguous));
        assert_eq!(kind("nope"), Some(ErrorKind::NoSuchFunction));
        assert_eq!(kind("0x1243"), Some(ErrorKind::NoSuchFunction));
        assert_eq!(kind("0x5"), Some(ErrorKind::NoSuchFunction));
        assert_eq!(kind("helper.2"), None);
        assert_eq!(kind("0x1240"), None);
    }
}
