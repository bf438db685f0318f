//! `ssakit x86 lift` and `ssakit x86 stats`: functions of x86-64 ELF
//! binaries through the front end of `ssakit-x86` (lifting rules in its
//! `lift` module, docs/x86.md).

use super::construct::{ConstructFlags, FlavorArg};
use super::wasm::{passes, secs, table, Ran};
use crate::exit::{self, Failed};
use crate::out::{Out, OutputArg};
use crate::par;
use crate::passes::{Passes, PassesParser};
use clap::Subcommand;
use ssakit::ir::{Function, InstData, Module, Operand, Terminator, VarNames};
use ssakit_x86::binary::{Binary, FuncInfo};
use ssakit_x86::lift::Origins;
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
    /// Put the functions into SSA form (verified), with the options below.
    #[arg(long)]
    pub construct: bool,
    #[command(flatten)]
    pub flags: ConstructFlags,
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
    /// The flavour optimised and destructed (all three are constructed
    /// and counted).
    #[arg(long, value_enum, default_value = "pruned")]
    pub flavor: FlavorArg,
    /// Optimisation passes after construction, comma-separated
    /// (`copy-prop`, `const-prop`, `dce`).
    #[arg(long, value_name = "LIST", value_parser = PassesParser::default())]
    pub passes: Option<Passes>,
    /// Stop after the passes: no destruction.
    #[arg(long)]
    pub no_destruct: bool,
    /// Construct and verify only `--flavor` (decode, CFG, lift, one SSA,
    /// verify, destruct); the other flavours' phis are `-` (null in
    /// JSON).
    #[arg(long)]
    pub only_flavor: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: crate::json::Format,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    match a.command {
        X86Command::Lift(a) => run_lift(a),
        X86Command::Stats(a) => run_stats(a),
    }
}

fn bad(name: &str, e: &X86Error) -> Failed {
    crate::errln!("error: {name}: {e}");
    Failed(exit::INPUT)
}

/// Reads the binary at `path` (and the debug file); `then` gets it.
fn with_binary<T>(
    path: &str,
    symbols: &Option<String>,
    then: impl FnOnce(&str, &Binary<'_>) -> Result<T, Failed>,
) -> Result<T, Failed> {
    let (name, bytes) = crate::input::read_elf_bytes(path)?;
    let mut bin = Binary::parse(&bytes).map_err(|e| bad(&name, &e))?;
    if let Some(dbg) = symbols {
        let (dname, dbytes) = crate::input::read_elf_bytes(dbg)?;
        bin.add_symbols(&dbytes).map_err(|e| bad(&dname, &e))?;
    }
    then(&name, &bin)
}

/// The function named `sel`, or starting at address `sel` (`0x...`).
fn find<'b>(bin: &'b Binary<'_>, sel: &str) -> Option<&'b FuncInfo> {
    let addr = sel
        .strip_prefix("0x")
        .and_then(|h| u64::from_str_radix(h, 16).ok());
    match addr {
        Some(a) => bin.function_at(a),
        None => bin.functions().iter().find(|f| f.name == sel),
    }
}

fn run_lift(a: LiftArgs) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let opts = a.flags.options();
    let module = with_binary(a.file.as_deref().unwrap_or("-"), &a.symbols, |name, bin| {
        let chosen: Vec<&FuncInfo> = match &a.func {
            Some(sels) => sels
                .split(',')
                .map(|sel| {
                    find(bin, sel).ok_or_else(|| {
                        crate::errln!(
                            "error: {name}: no function `{sel}` (a name or a start address 0x...)"
                        );
                        Failed(exit::INPUT)
                    })
                })
                .collect::<Result<_, _>>()?,
            None => bin.functions().iter().collect(),
        };
        let (mut functions, origins): (Vec<_>, Vec<_>) = {
            use rayon::prelude::*;
            chosen
                .par_iter()
                .map(|info| {
                    let l = ssakit_x86::lift::lift(bin, info);
                    (l.func, l.origins)
                })
                .unzip()
        };
        if a.construct {
            let results = par::each_function(&mut functions, |f| {
                crate::stats::construct_verified(f, &opts)
            });
            for ((r, _), info) in results.iter().zip(&chosen) {
                if let Err(msg) = r {
                    crate::errln!(
                        "internal error: {name}: function `{}` at {:#x}: construction: {msg}",
                        info.name,
                        info.extent.start
                    );
                    return Err(Failed(exit::INTERNAL));
                }
            }
        }
        if a.format == crate::json::Format::Json {
            let fs: Vec<serde_json::Value> = functions
                .iter()
                .zip(&origins)
                .zip(&chosen)
                .map(|((f, o), info)| lift_json(f, o, info))
                .collect();
            let flavor = a.construct.then_some(match opts.flavor {
                ssakit::construct::Flavor::Minimal => "minimal",
                ssakit::construct::Flavor::SemiPruned => "semi-pruned",
                ssakit::construct::Flavor::Pruned => "pruned",
            });
            let v = serde_json::json!({ "binary": name, "ssa": flavor, "functions": fs });
            return Ok(Err(v));
        }
        Ok(Ok(Module { functions }))
    })?;
    match module {
        Ok(module) => par::print_module(&module, &mut out)?,
        Err(v) => {
            let mut s = serde_json::to_string(&v).expect("JSON values serialise");
            s.push('\n');
            out.write_str(&s)?;
        }
    }
    out.finish()
}

/// `x86 lift --format json` of one function: what the emulator oracle
/// (scripts/x86-emu-oracle.py) needs to follow the CPU through the IR.
/// Every read and write is a pair `[register, value]`: the location (the
/// variable's name before construction) and the printed name of the
/// value (SSA name after `--construct`). Schema in docs/x86.md.
fn lift_json(f: &Function, o: &Origins, info: &FuncInfo) -> serde_json::Value {
    use serde_json::{json, Value};
    let names = VarNames::new(f);
    let pair = |op: Operand| match op {
        Operand::Var(v) => json!([f.base_name(v), names.get(v)]),
        Operand::Const(c) => json!([Value::Null, c]),
        Operand::Undef => json!([Value::Null, Value::Null]),
    };
    let hex = |a: Option<u64>| a.map_or(Value::Null, |a| json!(format!("{a:#x}")));
    let blocks: Vec<Value> = f
        .layout()
        .iter()
        .map(|&b| {
            let phis: Vec<Value> = f
                .block_phis(b)
                .iter()
                .map(|&i| {
                    let dst = f.def(i).expect("a phi defines");
                    let args: Vec<Value> = f
                        .phi_args(i)
                        .iter()
                        .map(|a| json!([f.block_name(a.block), pair(a.value)[1]]))
                        .collect();
                    json!({ "register": f.base_name(dst), "def": names.get(dst), "args": args })
                })
                .collect();
            let insts: Vec<Value> = f
                .block_insts(b)
                .iter()
                .map(|&i| {
                    let (mut reads, mut writes) = (Vec::new(), Vec::new());
                    f.for_each_operand(i, |op| reads.push(pair(op)));
                    f.for_each_def(i, |v| writes.push(pair(Operand::Var(v))));
                    let op = match f.inst(i) {
                        InstData::Op { op, .. } => f.operator_name(*op).to_string(),
                        InstData::Call { callee, .. } => f.callee_name(*callee).to_string(),
                        _ => String::new(),
                    };
                    let origin = o.inst(i);
                    json!({
                        "address": hex(origin.map(|o| o.address)),
                        "size": origin.map(|o| o.size),
                        "op": op,
                        "call": matches!(f.inst(i), InstData::Call { .. })
                            || op.starts_with("x86.call") || op == "x86.syscall.x",
                        "reads": reads,
                        "writes": writes,
                    })
                })
                .collect();
            let mut reads = Vec::new();
            f.for_each_term_operand(b, |op| reads.push(pair(op)));
            let mut succs = Vec::new();
            f.for_each_succ(b, |s| succs.push(f.block_name(s).to_string()));
            let kind = match f.term(b) {
                Terminator::Jump(_) => "jump",
                Terminator::Branch { .. } => "branch",
                Terminator::Switch { .. } => "switch",
                Terminator::Ret(_) => "ret",
                Terminator::Unreachable => "unreachable",
            };
            let t = o.term(b);
            json!({
                "label": f.block_name(b),
                "address": hex(o.block(b)),
                "phis": phis,
                "instructions": insts,
                "terminator": {
                    "kind": kind,
                    "address": hex(t.map(|t| t.address)),
                    "size": t.map(|t| t.size),
                    "reads": reads,
                    "successors": succs,
                },
            })
        })
        .collect();
    json!({
        "name": info.name,
        "address": format!("{:#x}", info.extent.start),
        "end": format!("{:#x}", info.extent.end),
        "label": f.name(),
        "params": f.params().iter().map(|&v| names.get(v)).collect::<Vec<_>>(),
        "blocks": blocks,
    })
}

fn run_stats(a: StatsArgs) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let opts = Options {
        construct: crate::stats::construct_options(a.flavor),
        passes: passes(a.passes),
        destruct: !a.no_destruct,
        only_chosen: a.only_flavor,
    };
    let (name, stats) = with_binary(a.file.as_deref().unwrap_or("-"), &a.symbols, |name, bin| {
        let bar = crate::stats::Progress::new(bin.functions().len() as u64);
        let stats = pipeline::run(bin, &opts, &|| bar.inc());
        bar.finish();
        Ok((name.to_string(), stats))
    })?;
    let text = match a.format {
        crate::json::Format::Text => render_text(&name, &stats, &opts),
        crate::json::Format::Json => render_json(&name, &stats, &opts),
    };
    out.write_str(&text)?;
    out.finish()?;
    for f in &stats.failures {
        crate::errln!(
            "internal error: {name}: function `{}` at {:#x}: {}: {}",
            f.name,
            f.address,
            f.stage,
            f.message
        );
    }
    if stats.failures.is_empty() {
        Ok(())
    } else {
        Err(Failed(exit::INTERNAL))
    }
}

const FLAVOR_NAMES: [&str; 3] = ["minimal", "semi-pruned", "pruned"];

fn render_text(name: &str, stats: &BinaryStats, opts: &Options) -> String {
    let t = stats.total();
    let phis = |p: &PhiCounts| {
        format!(
            "{} ({} registers, {} flags, {} vectors)",
            p.total(),
            p.registers,
            p.flags,
            p.vectors
        )
    };
    let mut r: Vec<(String, String)> = vec![
        (
            "functions".into(),
            (stats.functions.len() + stats.failures.len()).to_string(),
        ),
        ("blocks".into(), t.blocks.to_string()),
        ("instructions".into(), t.instructions.to_string()),
        ("jump tables resolved".into(), t.jump_tables.to_string()),
    ];
    let built = |k: usize| !opts.only_chosen || pipeline::FLAVORS[k] == opts.construct.flavor;
    for (k, f) in FLAVOR_NAMES.iter().enumerate() {
        let v = if built(k) {
            phis(&t.phis[k])
        } else {
            "-".into()
        };
        r.push((format!("phis {f}"), v));
    }
    crate::stats::push_pass_rows(&mut r, &opts.passes, t.copies);
    r.push(("time decode+cfg".into(), secs(t.times.decode)));
    r.push(("time lift".into(), secs(t.times.lift)));
    for (k, f) in FLAVOR_NAMES.iter().enumerate() {
        let v = if built(k) {
            secs(t.times.construct[k])
        } else {
            "-".into()
        };
        r.push((format!("time construct {f}"), v));
    }
    let times = [t.times.verify, t.times.opt, t.times.destruct];
    let (wall, failed) = (stats.wall, stats.failures.len());
    Ran::new(times, &opts.passes, opts.destruct, wall, failed).push_rows(&mut r);
    table(&format!("binary: {name}"), r)
}

fn render_json(name: &str, stats: &BinaryStats, opts: &Options) -> String {
    use serde_json::json;
    let built = |k: usize| !opts.only_chosen || pipeline::FLAVORS[k] == opts.construct.flavor;
    let phis = |p: &[PhiCounts; 3]| {
        let one = |k: usize| {
            let p = &p[k];
            let v = json!({ "registers": p.registers, "flags": p.flags, "vectors": p.vectors });
            if built(k) {
                v
            } else {
                serde_json::Value::Null
            }
        };
        json!({ "minimal": one(0), "semi-pruned": one(1), "pruned": one(2) })
    };
    let construct = |t: &[f64; 3]| {
        let one = |k: usize| {
            if built(k) {
                json!(t[k])
            } else {
                serde_json::Value::Null
            }
        };
        json!({ "minimal": one(0), "semi-pruned": one(1), "pruned": one(2) })
    };
    let times = |t: &pipeline::Times| {
        json!({
            "decode": t.decode,
            "lift": t.lift,
            "construct": construct(&t.construct),
            "verify": t.verify,
            "passes": t.opt,
            "destruct": t.destruct,
        })
    };
    let counts = |f: &pipeline::FunctionStats| {
        json!({
            "blocks": f.blocks,
            "instructions": f.instructions,
            "jump_tables": f.jump_tables,
            "phis": phis(&f.phis),
            "copies_after_destruct": f.copies,
            "times": times(&f.times),
        })
    };
    let functions: Vec<serde_json::Value> = stats
        .functions
        .iter()
        .map(|f| {
            let mut v = counts(f);
            v["address"] = json!(format!("{:#x}", f.address));
            v["name"] = json!(f.name);
            v
        })
        .collect();
    let failures: Vec<serde_json::Value> = stats
        .failures
        .iter()
        .map(|f| json!({ "address": format!("{:#x}", f.address), "name": f.name, "stage": f.stage, "message": f.message }))
        .collect();
    let v = json!({
        "binary": name,
        "passes": opts.passes.iter().map(|p| p.name()).collect::<Vec<_>>(),
        "total": counts(&stats.total()),
        "wall": stats.wall,
        "threads": rayon::current_num_threads(),
        "functions": functions,
        "failures": failures,
    });
    let mut s = serde_json::to_string_pretty(&v).expect("JSON values serialise");
    s.push('\n');
    s
}
