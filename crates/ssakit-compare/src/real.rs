//! The real rows of issue 44: whole lifted modules, every function,
//! side by side with Cranelift's builder and LLVM's mem2reg in one run:
//! `ssakit-compare real FILE... [--reps N] [--sealing early|end]
//! [--limit S] [--no-llvm] [--out DIR]`.
//!
//! A FILE is a WebAssembly module (`.wasm`, `.wat`: lifted here by
//! `ssakit_wasm::lift`, as `ssakit wasm lift` does) or a program in
//! ssakit's text (`.ssa`): what `ssakit x86 lift --semantics BINARY -o
//! FILE.ssa` or `ssakit wasm lift` printed, read back by
//! [`ssakit::text::parse_module`]. Per module, one thread, each figure the
//! median of `--reps` runs of the sum over its functions:
//!
//! * **construct**: ssakit's pruned construction of each function (the
//!   clone it works on not timed);
//! * **destruct**: `destruct_pruned` (edges split, copies coalesced) of
//!   each function's pruned form, as the generated rows' harness times it
//!   (no input verification, no dead-code walk: pruned SSA has none);
//! * **Cranelift**: its `FunctionBuilder` over the same function for the
//!   variables' flow ([`cranelift::build_flow`]), as the WebAssembly
//!   cross-check ([`crate::wasm`]) builds it: Cranelift builds its
//!   instructions and their SSA form together, ssakit's construction
//!   takes the function built;
//! * **LLVM**: `opt -passes=mem2reg` on the module emitted with
//!   `emit-llvm --opaque` (every variable an `i64` slot, operations calls
//!   of externals: the same slots, loads and stores), PromotePass's wall
//!   seconds, once;
//! * phis: ssakit's pruned phis, Cranelift's block parameters, LLVM's
//!   phis (not the same count: Cranelift and LLVM keep no dead phi
//!   either, but see the cross-check for why the counts differ).
//!
//! Prints a Markdown table (one row per module, the ratios the issue's
//! goals name: LLVM ÷ construct at least 20, Cranelift ÷ construct above
//! 1, destruct ÷ construct at most 1.5) and writes `OUT/real.json`. With
//! `--cli SSAKIT`, each module also goes through the release CLI as a
//! user runs it ([`crate::cli`]), in a second table.

use crate::{cranelift, llvm, median, ssa};
use serde::Serialize;
use ssakit::construct::{construct, Flavor};
use ssakit::destruct::{destruct_pruned, DestructOptions};
use ssakit::ir::{Function, Module};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: ssakit-compare real FILE.wasm|FILE.wat|FILE.ssa... [--reps N] \
     [--sealing early|end] [--limit SECONDS] [--no-llvm] [--cli SSAKIT] [--out DIR]";

/// One module's row.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The module's file.
    pub file: String,
    /// Functions measured.
    pub functions: usize,
    /// Functions that did not lift or parse, with the reason (left out).
    pub skipped: Vec<String>,
    /// Blocks of the functions measured.
    pub blocks: usize,
    /// ssakit's pruned phis.
    pub phis: usize,
    /// Median seconds of ssakit's pruned construction of every function.
    pub construct_s: f64,
    /// Median seconds of `destruct_pruned` of every function.
    pub destruct_s: f64,
    /// Median seconds of Cranelift's builder on every function.
    pub cranelift_s: f64,
    /// Cranelift's block parameters (entry's excluded).
    pub cranelift_params: usize,
    /// PromotePass's wall seconds, or why there is none.
    pub llvm: Result<f64, String>,
    /// LLVM's phis in mem2reg's output.
    pub llvm_phis: Option<usize>,
    /// The CLI's figures on the module (`--cli`), or why there are none.
    pub cli: Option<Result<crate::cli::CliRow, String>>,
}

/// The options of a run.
struct Args {
    files: Vec<PathBuf>,
    m: Measure,
    out: PathBuf,
}

/// How each row is measured.
#[derive(Clone, Debug)]
pub struct Measure {
    /// Runs of which the median is taken (LLVM runs once).
    pub reps: usize,
    /// When Cranelift's builder seals its blocks.
    pub sealing: cranelift::Sealing,
    /// Seconds after which `opt` is given up.
    pub limit: Duration,
    /// Whether LLVM runs.
    pub llvm: bool,
    /// The release CLI that also runs each module (`--cli SSAKIT`).
    pub cli: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        files: Vec::new(),
        m: Measure {
            reps: 3,
            sealing: cranelift::Sealing::Early,
            limit: Duration::from_secs(120),
            llvm: true,
            cli: None,
        },
        out: PathBuf::from("target/compare"),
    };
    let mut it = args.iter();
    while let Some(x) = it.next() {
        let mut val = || it.next().cloned().ok_or(format!("{x} needs a value"));
        match x.as_str() {
            "--reps" => {
                a.m.reps = val()?
                    .parse::<usize>()
                    .map_err(|e| format!("--reps: {e}"))?
                    .max(1)
            }
            "--limit" => {
                a.m.limit =
                    Duration::from_secs(val()?.parse::<u64>().map_err(|e| format!("--limit: {e}"))?)
            }
            "--sealing" => {
                a.m.sealing = match val()?.as_str() {
                    "early" => cranelift::Sealing::Early,
                    "end" => cranelift::Sealing::AtEnd,
                    s => return Err(format!("--sealing: `{s}` is not early or end")),
                }
            }
            "--no-llvm" => a.m.llvm = false,
            "--cli" => a.m.cli = Some(PathBuf::from(val()?)),
            "--out" => a.out = PathBuf::from(val()?),
            "-h" | "--help" => return Err(USAGE.to_string()),
            s if s.starts_with('-') => return Err(format!("unknown argument `{s}`\n{USAGE}")),
            s => a.files.push(PathBuf::from(s)),
        }
    }
    if a.files.is_empty() {
        return Err(USAGE.to_string());
    }
    Ok(a)
}

/// The functions of `file`, and a note per function left out.
fn load(file: &Path) -> Result<(Vec<Function>, Vec<String>), String> {
    let raw = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", file.display());
    if file.extension().is_some_and(|x| x == "ssa") {
        let text = String::from_utf8(raw).map_err(|e| at(&e))?;
        // The parser's diagnostic, rendered with its file:line:column.
        let m = ssakit::text::parse_module(&text)
            .map_err(|d| d.render(&file.display().to_string(), &text))?;
        return Ok((m.functions, Vec::new()));
    }
    let bytes = ssakit_wasm::module::to_binary(&raw).map_err(|e| at(&e))?;
    let m = ssakit_wasm::module::parse(&bytes).map_err(|e| at(&e))?;
    let syms = ssakit_wasm::lift::ModuleSymbols::new(&m);
    let mut funcs = Vec::new();
    let mut skipped = Vec::new();
    for body in &m.bodies {
        match ssakit_wasm::lift::lift(&m, &syms, body) {
            Ok(l) => funcs.push(l.func),
            Err(e) => skipped.push(format!("function {}: {e}", body.index)),
        }
    }
    Ok((funcs, skipped))
}

/// Median of `reps` runs of the sum over `funcs` of `time(f)`, the
/// seconds one function took.
fn summed(reps: usize, funcs: &[Function], mut time: impl FnMut(&Function) -> f64) -> f64 {
    median(
        (0..reps)
            .map(|_| funcs.iter().map(&mut time).sum())
            .collect(),
    )
}

/// The rows of `files` (each file's functions), measured as `m` says;
/// `tmp` a folder for `opt`'s files.
pub fn rows(files: &[PathBuf], m: &Measure, tmp: &Path) -> Result<Vec<Row>, String> {
    files.iter().map(|f| row(f, m, tmp)).collect()
}

/// The Markdown table of `rows`, measured as `m` says.
pub fn table(rows: &[Row], m: &Measure) -> String {
    let sealing = match m.sealing {
        cranelift::Sealing::Early => "early",
        cranelift::Sealing::AtEnd => "at the end",
    };
    let mut o = format!(
        "One thread, medians of {} runs of the sum over functions (LLVM once). \
         *construct*: ssakit's pruned construction of the lifted function; *Cranelift*: its \
         FunctionBuilder building the same function for the variables' flow (sealing {sealing}); \
         *destruct*: `destruct_pruned` of the pruned form; *LLVM*: PromotePass on \
         `emit-llvm --opaque`'s module.\n\n",
        m.reps
    );
    o.push_str(
        "| module | functions | blocks | pruned phis | construct s | LLVM PromotePass s | LLVM ÷ \
         construct | Cranelift s | Cranelift ÷ construct | destruct s | destruct ÷ construct |\n",
    );
    o.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        o.push_str(&line(r));
        o.push('\n');
    }
    for r in rows {
        for s in &r.skipped {
            o.push_str(&format!("\n{}: left out: {s}", r.file));
        }
    }
    o
}

/// The row of one module.
fn row(file: &Path, a: &Measure, tmp: &Path) -> Result<Row, String> {
    let (funcs, skipped) = load(file)?;
    eprintln!("== {}: {} functions", file.display(), funcs.len());
    let opts = ssa::options(Flavor::Pruned);
    let mut pruned = Vec::with_capacity(funcs.len());
    let mut phis = 0;
    for f in &funcs {
        let mut g = f.clone();
        phis += construct(&mut g, &opts)
            .map_err(|e| format!("{}: {}: {e}", file.display(), f.name()))?
            .phis;
        pruned.push(g);
    }
    let construct_s = summed(a.reps, &funcs, |f| {
        let mut g = f.clone();
        let t = Instant::now();
        let r = construct(&mut g, &opts);
        let e = t.elapsed().as_secs_f64();
        black_box(r).expect("constructed once already");
        e
    });
    let dopts = DestructOptions::default();
    let destruct_s = summed(a.reps, &pruned, |f| {
        let mut g = f.clone();
        let t = Instant::now();
        let r = destruct_pruned(&mut g, &dopts);
        let e = t.elapsed().as_secs_f64();
        black_box(r).expect("destruction succeeds");
        e
    });
    drop(pruned);
    let mut cranelift_params = 0;
    for f in &funcs {
        let (cl, _) = cranelift::build_flow(f, a.sealing);
        cranelift_params += crate::cranelift::block_params(&cl);
    }
    let cranelift_s = summed(a.reps, &funcs, |f| {
        let t = Instant::now();
        let built = cranelift::build_flow(f, a.sealing);
        let e = t.elapsed().as_secs_f64();
        drop(black_box(built));
        e
    });
    let (llvm, funcs) = if !a.llvm {
        ((Err("not run (--no-llvm)".to_string()), None), funcs)
    } else if llvm::available().is_none() {
        ((Err("no `opt` on the PATH".to_string()), None), funcs)
    } else {
        mem2reg(file, Module { functions: funcs }, a.limit, tmp)?
    };
    let mut r = finish(
        file,
        &funcs,
        skipped,
        phis,
        [construct_s, destruct_s, cranelift_s],
        cranelift_params,
        llvm,
    );
    r.cli = a.cli.as_deref().map(|bin| {
        let program = crate::cli::program_of(bin, file, tmp)?;
        crate::cli::measure(bin, &program, a.reps, tmp)
    });
    Ok(r)
}

/// LLVM's PromotePass seconds (or why there are none) and phis on `m`
/// emitted with `--opaque`; gives back the functions.
#[allow(clippy::type_complexity)]
fn mem2reg(
    file: &Path,
    m: Module,
    limit: Duration,
    tmp: &Path,
) -> Result<((Result<f64, String>, Option<usize>), Vec<Function>), String> {
    let ir = ssakit::backend::llvm::emit_module_with(
        &m,
        &ssakit::backend::llvm::EmitOptions { opaque: true },
    )
    .map_err(|e| format!("{}: emit-llvm: {e}", file.display()))?;
    let path = tmp.join("real.ll");
    std::fs::write(&path, ir).map_err(|e| format!("{}: {e}", path.display()))?;
    let r = llvm::run(&path, limit);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("out.ll"));
    let llvm = match r {
        Ok(r) => (Ok(r.promote_s), Some(r.phis)),
        Err(e) => (Err(e.to_string()), None),
    };
    Ok((llvm, m.functions))
}

/// The row from its measurements: `[construct, destruct, Cranelift]`
/// seconds.
fn finish(
    file: &Path,
    funcs: &[Function],
    skipped: Vec<String>,
    phis: usize,
    secs: [f64; 3],
    cranelift_params: usize,
    (llvm, llvm_phis): (Result<f64, String>, Option<usize>),
) -> Row {
    Row {
        file: file.display().to_string(),
        functions: funcs.len(),
        skipped,
        blocks: funcs.iter().map(|f| f.layout().len()).sum(),
        phis,
        construct_s: secs[0],
        destruct_s: secs[1],
        cranelift_s: secs[2],
        cranelift_params,
        llvm,
        llvm_phis,
        cli: None,
    }
}

impl Row {
    /// The module's file name, as the tables show it.
    pub fn name(&self) -> String {
        Path::new(&self.file)
            .file_name()
            .map_or(self.file.clone(), |n| n.to_string_lossy().into_owned())
    }
}

/// The Markdown line of `r`.
fn line(r: &Row) -> String {
    let name = r.name();
    let llvm = match &r.llvm {
        Ok(s) => format!("{s:.3} | {:.1}", s / r.construct_s),
        Err(why) => format!("{why} | "),
    };
    format!(
        "| {name} | {} | {} | {} | {:.3} | {llvm} | {:.3} | {:.2} | {:.3} | {:.2} |",
        r.functions,
        r.blocks,
        r.phis,
        r.construct_s,
        r.cranelift_s,
        r.cranelift_s / r.construct_s,
        r.destruct_s,
        r.destruct_s / r.construct_s,
    )
}

/// Runs the real rows; the arguments follow `real`.
pub fn run(args: &[String]) -> Result<(), String> {
    let a = parse(args)?;
    let tmp = std::env::temp_dir().join(format!("ssakit-compare-real-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let rows = rows(&a.files, &a.m, &tmp);
    let _ = std::fs::remove_dir_all(&tmp);
    let rows = rows?;
    print!("{}", table(&rows, &a.m));
    if a.m.cli.is_some() {
        print!("{}", crate::report::cli_table(&[], &rows, a.m.reps));
    }
    std::fs::create_dir_all(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let json = a.out.join("real.json");
    let text = serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?;
    std::fs::write(&json, text).map_err(|e| format!("{}: {e}", json.display()))?;
    eprintln!("wrote {}", json.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text module goes through every column but LLVM's: the phis of
    /// both builders, and times that are sums of something.
    #[test]
    fn a_text_module_gives_its_row() {
        let dir = std::env::temp_dir().join(format!("real-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("m.ssa");
        let src = "function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}\n";
        std::fs::write(&file, src).unwrap();
        let args: Vec<String> = [file.to_str().unwrap(), "--no-llvm", "--reps", "1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let a = parse(&args).unwrap();
        let r = row(&file, &a.m, &dir).unwrap();
        assert_eq!((r.functions, r.blocks, r.phis), (1, 3, 1));
        assert_eq!(r.cranelift_params, 1);
        assert!(r.llvm.is_err());
        // A text module that does not parse, a module that is neither
        // text nor WebAssembly, a missing file: errors naming the file
        // (the first with its line and column), no row.
        let bad = dir.join("bad.ssa");
        std::fs::write(&bad, "function f( {\n").unwrap();
        let e = row(&bad, &a.m, &dir).unwrap_err();
        assert!(e.contains("bad.ssa:1:13: expected a parameter name"), "{e}");
        let junk = dir.join("junk.wasm");
        std::fs::write(&junk, [0u8, 0xff, 0x13, 0x37]).unwrap();
        assert!(row(&junk, &a.m, &dir).unwrap_err().contains("junk.wasm"));
        assert!(row(&dir.join("none.ssa"), &a.m, &dir).is_err());
        assert!(
            line(&r).starts_with("| m.ssa | 1 | 3 | 1 |"),
            "{}",
            line(&r)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
