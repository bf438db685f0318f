//! Many small functions: `ssakit-compare small
//! [--functions N] [--blocks MIN-MAX] [--vars V] [--reps R] [--seed S]
//! [--only ssakit|early|end]`.
//!
//! Real modules are thousands of functions of tens to hundreds of
//! instructions (the WebAssembly corpus), where per-function setup (tables
//! sized to the function, their allocation) weighs more than on one big
//! function. This generates `N` functions (`ssakit::gen`, the eight shapes
//! in turn, block counts spread over `MIN-MAX`, seeds `S, S+1, ...`), then
//! times, as medians of `R` runs of the sum over the functions, on one
//! thread:
//!
//! * `clone`: cloning each function (what ssakit's timing excludes: it
//!   constructs on a clone made before the clock starts);
//! * ssakit's pruned construction on each (a fresh clone each time);
//! * Cranelift's `FunctionBuilder` over each ([`cranelift::build_flow`]),
//!   in both sealing modes (its function built from nothing, so it also
//!   pays what ssakit's clone pays).
//!
//! Built with `--features mimalloc`, both use mimalloc. The phi counts of
//! the two sides (after Cranelift's trivial-parameter removal against
//! ssakit's pruned phis after the same removal) are not compared here:
//! `ssakit-compare wasm` does that on real modules.

use crate::{cranelift, median, ssa};
use ssakit::construct::{construct, Flavor};
use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::ir::Function;
use std::hint::black_box;
use std::time::Instant;

const USAGE: &str = "usage: ssakit-compare small [--functions N] [--blocks MIN-MAX] [--vars V] \
                     [--reps R] [--seed S] [--only ssakit|early|end]";

/// Runs the measurement; the arguments follow `small`.
pub fn run(args: &[String]) -> Result<(), String> {
    let (mut n, mut lo, mut hi, mut vars, mut reps, mut seed) = (1000usize, 3, 30, 8, 11, 1u64);
    // `--only ssakit|early|end`: time one side alone (for a profiler).
    let mut only: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().ok_or(format!("{a} needs a value"));
        let num = |s: String| s.parse::<usize>().map_err(|e| format!("{a}: {e}"));
        match a.as_str() {
            "--functions" => n = num(val()?)?.max(1),
            "--vars" => vars = num(val()?)?.max(1),
            "--reps" => reps = num(val()?)?.max(1),
            "--seed" => seed = num(val()?)? as u64,
            "--only" => only = Some(val()?),
            "--blocks" => {
                let v = val()?;
                let (a, b) = v
                    .split_once('-')
                    .ok_or(format!("--blocks: `{v}` is not MIN-MAX"))?;
                lo = a.parse::<usize>().map_err(|e| format!("--blocks: {e}"))?;
                hi = b
                    .parse::<usize>()
                    .map_err(|e| format!("--blocks: {e}"))?
                    .max(lo);
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            s => return Err(format!("unknown argument `{s}`\n{USAGE}")),
        }
    }
    let funcs: Vec<Function> = (0..n)
        .map(|k| {
            generate(&GenOptions {
                shape: Shape::ALL[k % Shape::ALL.len()],
                blocks: lo + (k * 7919) % (hi - lo + 1),
                vars,
                seed: seed + k as u64,
            })
        })
        .collect();
    let insts: usize = funcs.iter().map(|f| f.num_insts()).sum();
    let blocks: usize = funcs.iter().map(|f| f.layout().len()).sum();
    let opts = ssa::options(Flavor::Pruned);
    let runs = |side: &str| only.as_deref().is_none_or(|o| o == side);
    let time = |f: &mut dyn FnMut() -> f64| median((0..reps).map(|_| f()).collect());
    let clone_s = time(&mut || {
        let t = Instant::now();
        for f in &funcs {
            drop(black_box(f.clone()));
        }
        t.elapsed().as_secs_f64()
    });
    let mut phis = 0usize;
    let ssakit_s = time(&mut || {
        if !runs("ssakit") {
            return f64::NAN;
        }
        let mut total = 0.0;
        phis = 0;
        for f in &funcs {
            let mut g = f.clone();
            let t = Instant::now();
            let s = construct(&mut g, &opts).expect("generated programs construct");
            total += t.elapsed().as_secs_f64();
            phis += s.phis;
            drop(black_box(g));
        }
        total
    });
    let cl = |sealing, side| {
        time(&mut || {
            if !runs(side) {
                return f64::NAN;
            }
            let t = Instant::now();
            for f in &funcs {
                drop(black_box(cranelift::build_flow(f, sealing)));
            }
            t.elapsed().as_secs_f64()
        })
    };
    let early_s = cl(cranelift::Sealing::Early, "early");
    let end_s = cl(cranelift::Sealing::AtEnd, "end");
    let alloc = if cfg!(feature = "mimalloc") {
        "mimalloc"
    } else {
        "system"
    };
    let ns = |s: f64| s * 1e9 / insts as f64;
    println!(
        "{n} functions ({lo}-{hi} blocks, {vars} vars, the eight shapes), {blocks} blocks, \
         {insts} instructions, {phis} pruned phis; allocator {alloc}; one thread, median of {reps}"
    );
    println!("| | seconds | ns/inst | vs ssakit |");
    println!("|---|---:|---:|---:|");
    for (name, s) in [
        ("clone (ssakit, not in its time)", clone_s),
        ("ssakit pruned construction", ssakit_s),
        ("ssakit clone + construction", clone_s + ssakit_s),
        ("Cranelift builder, sealing early", early_s),
        ("Cranelift builder, sealing at end", end_s),
    ] {
        println!("| {name} | {s:.4} | {:.1} | {:.2} |", ns(s), s / ssakit_s);
    }
    Ok(())
}
