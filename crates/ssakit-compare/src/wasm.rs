//! The phi cross-check on lifted WebAssembly:
//! `ssakit-compare wasm FILE.wasm [--reps N] [--out DIR]`.
//!
//! Every function of the module is lifted once (`ssakit_wasm::lift`), then:
//!
//! * ssakit: pruned construction, copy propagation (`ssakit::opt`
//!   `copy-prop`, which also removes trivial phis), then the removal of
//!   the phis still trivial once copies of constants are folded
//!   ([`ssa::redundant_phis`] with `undef` an operand like any other);
//! * Cranelift: its `FunctionBuilder` over the same function for the
//!   variables' flow ([`cranelift::build_flow`], sealing each block as soon
//!   as its last predecessor is emitted, as Cranelift recommends, or all
//!   at the end with `--sealing end`), then the
//!   same removal on its block parameters ([`cranelift::trivial_params`]).
//!
//! WebAssembly's control flow is reducible, so Braun et al. (2013, section
//! 4.1) give minimal pruned SSA after the removal: the two counts should
//! agree per function; the functions where they do not are listed.
//!
//! Construction time of the whole module, on one thread, as medians of
//! `--reps` runs of the sum over functions: ssakit's pruned construction
//! (the lift and the clone of the lifted function not timed) against
//! Cranelift's builder (the drop of its function not timed).
//!
//! Results on standard output and in `OUT/wasm-STEM.json`.

use crate::{cranelift, median, ssa};
use serde::Serialize;
use ssakit::construct::{construct, Flavor};
use ssakit::ir::Function;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

const USAGE: &str =
    "usage: ssakit-compare wasm FILE.wasm|FILE.wat [--reps N] [--sealing early|end] [--out DIR]";

/// One function whose counts differ.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    /// Function index (imports first).
    pub index: u32,
    /// Its name.
    pub name: String,
    /// Blocks of the lifted function.
    pub blocks: usize,
    /// ssakit: pruned phis, after copy propagation, after the removal.
    pub ssakit: [usize; 3],
    /// Cranelift: block parameters, trivial in the first round, after the
    /// removal.
    pub cranelift: [usize; 3],
}

/// The results on one module.
#[derive(Clone, Debug, Serialize)]
pub struct Results {
    /// The module's file.
    pub file: String,
    /// Defined functions.
    pub functions: usize,
    /// Functions that did not lift, with the error.
    pub lift_errors: Vec<(u32, String)>,
    /// Functions whose counts agree.
    pub agree: usize,
    /// ssakit: pruned phis, after copy propagation, after the removal.
    pub ssakit_phis: [usize; 3],
    /// Cranelift: block parameters, trivial in the first round, after the
    /// removal.
    pub cranelift_params: [usize; 3],
    /// Functions whose counts differ.
    pub differences: Vec<Difference>,
    /// The smallest functions (by blocks, up to 5) in which Cranelift's
    /// builder left trivial parameters: `(index, name, blocks, counts)`.
    pub cranelift_trivial_examples: Vec<(u32, String, usize, [usize; 3])>,
    /// When Cranelift's blocks were sealed: `early` or `end`.
    pub sealing: String,
    /// Repetitions of the timings.
    pub reps: usize,
    /// Median seconds of ssakit's pruned construction of every function.
    pub ssakit_construct_s: f64,
    /// Median seconds of Cranelift's builder on every function.
    pub cranelift_build_s: f64,
    /// The function Cranelift's builder took longest on (first run):
    /// `(index, name, blocks, ssakit seconds, Cranelift seconds)`.
    pub cranelift_slowest: Option<(u32, String, usize, f64, f64)>,
}

/// ssakit's counts on `f`: pruned phis, after copy propagation, after the
/// removal of trivial phis.
fn ssakit_counts(f: &Function) -> Result<[usize; 3], String> {
    let mut g = f.clone();
    let pruned = construct(&mut g, &ssa::options(Flavor::Pruned))
        .map_err(|e| e.to_string())?
        .phis;
    ssakit::opt::copy_prop::copy_prop(&mut g).map_err(|e| e.to_string())?;
    let after_cp: usize = g.layout().iter().map(|&b| g.block_phis(b).len()).sum();
    let removed = ssa::redundant_phis(&g, ssa::UndefRule::Value);
    Ok([pruned, after_cp, after_cp - removed])
}

/// Cranelift's counts on `f`: block parameters, those trivial in the
/// first round of the removal, those left after it.
fn cranelift_counts(f: &Function, sealing: cranelift::Sealing) -> [usize; 3] {
    let (cl, literals) = cranelift::build_flow(f, sealing);
    let (params, removed, first) = cranelift::trivial_params(&cl, &literals);
    [params, first, params - removed]
}

/// Runs the cross-check; the arguments follow `wasm`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut file = None;
    let mut reps = 5usize;
    let mut out = PathBuf::from("target/compare");
    let mut sealing = cranelift::Sealing::Early;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--reps" => {
                reps = val()?
                    .parse::<usize>()
                    .map_err(|e| format!("--reps: {e}"))?
                    .max(1)
            }
            "--out" => out = PathBuf::from(val()?),
            "--sealing" => {
                sealing = match val()?.as_str() {
                    "early" => cranelift::Sealing::Early,
                    "end" => cranelift::Sealing::AtEnd,
                    s => return Err(format!("--sealing: `{s}` is not early or end")),
                }
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            s if s.starts_with('-') => return Err(format!("unknown argument `{s}`\n{USAGE}")),
            s => file = Some(PathBuf::from(s)),
        }
    }
    let file = file.ok_or(USAGE.to_string())?;
    let raw = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let bytes =
        ssakit_wasm::module::to_binary(&raw).map_err(|e| format!("{}: {e}", file.display()))?;
    let m = ssakit_wasm::module::parse(&bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    let syms = ssakit_wasm::lift::ModuleSymbols::new(&m);
    let mut funcs: Vec<(u32, Function)> = Vec::new();
    let mut lift_errors = Vec::new();
    for body in &m.bodies {
        match ssakit_wasm::lift::lift(&m, &syms, body) {
            Ok(l) => funcs.push((body.index, l.func)),
            Err(e) => lift_errors.push((body.index, e.to_string())),
        }
    }
    eprintln!("{}: {} functions lifted", file.display(), funcs.len());

    let mut r = Results {
        file: file.display().to_string(),
        functions: m.bodies.len(),
        lift_errors,
        agree: 0,
        ssakit_phis: [0; 3],
        cranelift_params: [0; 3],
        differences: Vec::new(),
        cranelift_trivial_examples: Vec::new(),
        sealing: match sealing {
            cranelift::Sealing::Early => "early".into(),
            cranelift::Sealing::AtEnd => "end".into(),
        },
        reps,
        ssakit_construct_s: 0.0,
        cranelift_build_s: 0.0,
        cranelift_slowest: None,
    };
    for (index, f) in &funcs {
        let s = ssakit_counts(f).map_err(|e| format!("function {index}: {e}"))?;
        let c = cranelift_counts(f, sealing);
        for (sum, x) in r.ssakit_phis.iter_mut().zip(s) {
            *sum += x;
        }
        for (sum, x) in r.cranelift_params.iter_mut().zip(c) {
            *sum += x;
        }
        if c[0] > c[2] {
            r.cranelift_trivial_examples
                .push((*index, f.name().to_string(), f.layout().len(), c));
        }
        if s[2] == c[2] {
            r.agree += 1;
        } else {
            r.differences.push(Difference {
                index: *index,
                name: f.name().to_string(),
                blocks: f.layout().len(),
                ssakit: s,
                cranelift: c,
            });
        }
    }

    r.cranelift_trivial_examples.sort_by_key(|e| (e.2, e.0));
    r.cranelift_trivial_examples.truncate(5);

    let opts = ssa::options(Flavor::Pruned);
    let mut ssakit_runs = Vec::new();
    let mut cranelift_runs = Vec::new();
    let mut first = vec![(0.0, 0.0); funcs.len()];
    for rep in 0..reps {
        let mut total = 0.0;
        for (k, (_, f)) in funcs.iter().enumerate() {
            let mut g = f.clone();
            let t = Instant::now();
            let res = construct(&mut g, &opts);
            let e = t.elapsed().as_secs_f64();
            total += e;
            first[k].0 = e;
            black_box(res).map_err(|e| e.to_string())?;
        }
        ssakit_runs.push(total);
        let mut total = 0.0;
        for (k, (_, f)) in funcs.iter().enumerate() {
            let t = Instant::now();
            let built = cranelift::build_flow(f, sealing);
            let e = t.elapsed().as_secs_f64();
            total += e;
            first[k].1 = e;
            drop(black_box(built));
        }
        cranelift_runs.push(total);
        if rep == 0 {
            r.cranelift_slowest = first
                .iter()
                .enumerate()
                .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
                .map(|(k, &(s, c))| {
                    let (i, f) = &funcs[k];
                    (*i, f.name().to_string(), f.layout().len(), s, c)
                });
        }
    }
    r.ssakit_construct_s = median(ssakit_runs);
    r.cranelift_build_s = median(cranelift_runs);

    println!(
        "{}: {} / {} functions agree; ssakit pruned phis {} -> copy-prop {} -> trivial removed {}; \
         Cranelift block params {} ({} trivial in the first round) -> trivial removed {}",
        r.file,
        r.agree,
        funcs.len(),
        r.ssakit_phis[0],
        r.ssakit_phis[1],
        r.ssakit_phis[2],
        r.cranelift_params[0],
        r.cranelift_params[1],
        r.cranelift_params[2],
    );
    println!(
        "construction of every function, one thread, median of {reps}: ssakit pruned {:.3} s, \
         Cranelift FunctionBuilder (sealing {}) {:.3} s",
        r.ssakit_construct_s, r.sealing, r.cranelift_build_s
    );
    if let Some((i, name, blocks, s, c)) = &r.cranelift_slowest {
        println!(
            "Cranelift's slowest function: {i} ({name}), {blocks} blocks: ssakit {s:.4} s, \
             Cranelift {c:.4} s"
        );
    }
    for (i, e) in &r.lift_errors {
        println!("function {i} not lifted: {e}");
    }
    for (i, name, blocks, c) in &r.cranelift_trivial_examples {
        println!(
            "Cranelift left trivial parameters: function {i} ({name}), {blocks} blocks: {c:?}"
        );
    }
    for d in &r.differences {
        println!(
            "differs: function {} ({}), {} blocks: ssakit {:?}, Cranelift {:?}",
            d.index, d.name, d.blocks, d.ssakit, d.cranelift
        );
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let stem = file
        .file_stem()
        .map_or("module".into(), |s| s.to_string_lossy());
    let json = out.join(format!("wasm-{stem}.json"));
    let text = serde_json::to_string_pretty(&r).map_err(|e| e.to_string())?;
    std::fs::write(&json, text).map_err(|e| format!("{}: {e}", json.display()))?;
    eprintln!("wrote {}", json.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts of the first function of the text module `wat`.
    fn counts(wat: &str) -> ([usize; 3], [usize; 3]) {
        let bytes = ssakit_wasm::module::to_binary(wat.as_bytes()).unwrap();
        let m = ssakit_wasm::module::parse(&bytes).unwrap();
        let syms = ssakit_wasm::lift::ModuleSymbols::new(&m);
        let f = ssakit_wasm::lift::lift(&m, &syms, &m.bodies[0])
            .unwrap()
            .func;
        (
            ssakit_counts(&f).unwrap(),
            cranelift_counts(&f, cranelift::Sealing::Early),
        )
    }

    #[test]
    fn nested_loops_agree_after_removal() {
        // l1 has a phi at both headers, l2 at the outer one; the parameter
        // p is only read, so every phi of it is trivial.
        let (s, c) = counts(
            r#"(module (func (param i32) (result i32) (local i32 i32)
                loop $outer
                  loop $inner
                    local.get 1 i32.const 1 i32.add local.set 1
                    local.get 1 local.get 0 i32.lt_s br_if $inner
                  end
                  local.get 2 i32.const 1 i32.add local.set 2
                  local.get 2 local.get 0 i32.lt_s br_if $outer
                end
                local.get 2))"#,
        );
        assert_eq!(s[2], 3, "ssakit {s:?}");
        assert_eq!(c[2], 3, "Cranelift {c:?}");
    }

    #[test]
    fn equal_constants_are_one_value() {
        // Both arms set l1 to 7: the merge's phi is trivial on both sides
        // (literals identified), while l1 = 7 / 8 needs one.
        let same = r#"(module (func (param i32) (result i32) (local i32)
            local.get 0
            if  i32.const 7 local.set 1
            else i32.const 7 local.set 1 end
            local.get 1))"#;
        let (s, c) = counts(same);
        assert_eq!((s[2], c[2]), (0, 0), "ssakit {s:?}, Cranelift {c:?}");
        let (s, c) = counts(&same.replacen("i32.const 7", "i32.const 8", 1));
        assert_eq!((s[2], c[2]), (1, 1), "ssakit {s:?}, Cranelift {c:?}");
    }
}
