//! The uninterpreted differential on lifted WebAssembly (issue 29, item 6):
//! the interpreter runs every lifted function with its operations as
//! uninterpreted functions ([`Mode::Uninterpreted`]: a result is a fixed
//! hash of the operator, its immediates and its arguments, and the
//! operations with an effect form a trace), before and after each of
//! `wasm opt`'s modes, and the results, prints, external calls and traces
//! must agree. Two comparisons per mode:
//!
//! * **in the IR**: the lifted functions through construction, the passes
//!   and destruction, as [`rewrite::optimize`] runs them before the emitter;
//! * **the whole round trip**: the module `wasm opt` writes, lifted again,
//!   so the emitter (stackify, locals, structure) is checked too, without
//!   an engine and whatever the operators mean.
//!
//! An original run that ends in an error other than running out of fuel
//! must end in the same error after; one that runs out of fuel is not
//! compared (counted). Modules: `examples/wasm_tour.wat`, hand-written
//! classics, `SSAKIT_UNINTERP_SMITH=N` wasm-smith modules (40 by default),
//! and sql-wasm from the corpus when present (every function, one input
//! each, in the `split+coalesce` mode: 7 s in the test profile). The
//! comparison of one run is [`agree_uninterpreted`], shared with
//! `ssakit-x86`'s test.

#[path = "support/modes.rs"]
mod modes;
#[cfg(feature = "smith")]
#[path = "support/seeded.rs"]
mod seeded;
mod support;

use ssakit::construct;
use ssakit::destruct::destruct;
use ssakit::interp::{Interpreter, Mode};
use ssakit::ir::Function;
use ssakit::opt;
use ssakit::oracle::naive_out_of_ssa;
use ssakit::oracle::uninterpreted::{agree_uninterpreted, Agreement};
use ssakit_wasm::rewrite::{optimize, OptOptions};

/// Fuel of an original run (see [`agree_uninterpreted`] for the
/// transformed one's).
const FUEL: u64 = 200_000;

#[derive(Default, Debug)]
struct Counts {
    runs: usize,
    out_of_fuel: usize,
    errors: usize,
    effects: usize,
}

/// The lifted functions through `opts`' construction, passes and
/// destruction.
fn transform(funcs: &[Function], opts: &OptOptions) -> Vec<Function> {
    funcs
        .iter()
        .map(|f| {
            let mut f = f.clone();
            construct::construct(&mut f, &opts.construct).unwrap();
            if !opts.passes.is_empty() {
                opt::run_passes(&mut f, &opts.passes).unwrap();
            }
            destruct(&mut f, &opts.destruct).unwrap_or_else(|e| panic!("{}", e.describe(&f)));
            f
        })
        .collect()
}

/// Runs every function of `original` and `transformed` (the same
/// functions, in the same order) on `inputs` argument vectors each, drawn
/// from `seed`; the first difference, described.
fn compare(
    original: &[Function],
    transformed: &[Function],
    seed: u64,
    inputs: usize,
    counts: &mut Counts,
) -> Result<(), String> {
    assert_eq!(original.len(), transformed.len(), "function count");
    let a = Interpreter::with_mode(original, Mode::Uninterpreted).unwrap();
    let b = Interpreter::with_mode(transformed, Mode::Uninterpreted).unwrap();
    let mut state = seed | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 2000) as i64 - 1000
    };
    for (i, f) in original.iter().enumerate() {
        for _ in 0..inputs {
            let args: Vec<i64> = f.params().iter().map(|_| next()).collect();
            counts.runs += 1;
            match agree_uninterpreted(&a, &b, i, &args, FUEL) {
                Ok(Agreement::Compared { effects }) => counts.effects += effects,
                Ok(Agreement::OutOfFuel) => counts.out_of_fuel += 1,
                Ok(Agreement::SameError) => counts.errors += 1,
                Err(d) => return Err(format!("function {} on {args:?}: {d}", f.name())),
            }
        }
    }
    Ok(())
}

/// Both comparisons of `wasm` in every mode (or `only` the modes named),
/// `inputs` argument vectors per function; panics on a difference.
fn check_module(
    name: &str,
    wasm: &[u8],
    only: Option<&[&str]>,
    inputs: usize,
    counts: &mut Counts,
) {
    let original = support::lift_all(wasm).unwrap();
    for (mode, opts) in modes::modes() {
        if only.is_some_and(|o| !o.contains(&mode)) {
            continue;
        }
        let seed = 0x5eed ^ ((mode.len() as u64) << 7);
        let in_ir = transform(&original, &opts);
        if let Err(d) = compare(&original, &in_ir, seed, inputs, counts) {
            panic!("{name}, {mode}, in the IR: {d}");
        }
        let out = optimize(wasm, &opts).unwrap_or_else(|e| panic!("{name}, {mode}: {e}"));
        let relifted = support::lift_all(&out.bytes).unwrap();
        if let Err(d) = compare(&original, &relifted, seed, inputs, counts) {
            panic!("{name}, {mode}, round trip: {d}");
        }
    }
}

/// The lost-copy and swap problems, with memory effects between.
const CLASSICS: &[u8] = br#"(module
      (memory 1)
      (func $swap (export "swap") (param i32 i32 i32) (result i32)
        (local i32)
        (block (loop
          (br_if 1 (i32.eqz (local.get 2)))
          (i32.store (local.get 0) (local.get 1))
          (local.set 3 (local.get 0))
          (local.set 0 (local.get 1))
          (local.set 1 (local.get 3))
          (local.set 2 (i32.sub (local.get 2) (i32.const 1)))
          (br 0)))
        (i32.add (local.get 0) (i32.load (local.get 1))))
      (func $lost (export "lost") (param i32) (result i32)
        (local i32 i32)
        (local.set 1 (i32.const 1))
        (loop
          (local.set 2 (local.get 1))
          (local.set 1 (i32.add (local.get 1) (i32.load (local.get 0))))
          (br_if 0 (i32.lt_s (local.get 1) (local.get 0))))
        (local.get 2)))"#;

#[test]
fn wasm_tour_and_classics_agree_uninterpreted() {
    let mut counts = Counts::default();
    let tour = include_bytes!("../../../examples/wasm_tour.wat");
    check_module("wasm_tour.wat", tour, None, 3, &mut counts);
    check_module("classics", CLASSICS, None, 3, &mut counts);
    eprintln!("{counts:?}");
    assert!(
        counts.effects > 0 && counts.runs > counts.out_of_fuel * 2,
        "{counts:?}"
    );
}

/// The classic wrong translation (each phi a copy at the end of its
/// predecessors, in order, no edge split) after copy propagation is
/// caught: the lost copy and the swap give other values to the effects.
#[test]
fn naive_out_of_ssa_is_caught() {
    let original = support::lift_all(CLASSICS).unwrap();
    let naive: Vec<Function> = original
        .iter()
        .map(|f| {
            let mut s = f.clone();
            let pruned = construct::Options {
                flavor: construct::Flavor::Pruned,
                ..Default::default()
            };
            construct::construct(&mut s, &pruned).unwrap();
            opt::run_passes(&mut s, &opt::Pass::parse("copy-prop").unwrap()).unwrap();
            naive_out_of_ssa(&s)
        })
        .collect();
    let mut counts = Counts::default();
    let d = compare(&original, &naive, 1, 3, &mut counts).unwrap_err();
    eprintln!("{d}");
    assert!(d.contains("expected"), "{d}");
}

#[cfg(feature = "smith")]
#[test]
fn wasm_smith_modules_agree_uninterpreted() {
    let n: u64 = std::env::var("SSAKIT_UNINTERP_SMITH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let mut state = 0x0123_4567_89ab_cdefu64;
    let mut counts = Counts::default();
    let mut made = 0;
    for k in 0..n {
        let data = seeded::bytes(&mut state, 16_384);
        let Some(wasm) = ssakit_wasm::check::fuzz_smith(&data) else {
            continue;
        };
        made += 1;
        check_module(
            &format!("wasm-smith module {k}"),
            &wasm,
            None,
            3,
            &mut counts,
        );
    }
    eprintln!("{made} modules: {counts:?}");
    assert!(made > n / 2 && counts.runs > 0, "{made} of {n}: {counts:?}");
}

#[test]
fn sql_wasm_agrees_uninterpreted() {
    let Some(wasm) = support::corpus("sql-wasm.wasm") else {
        return;
    };
    let mut counts = Counts::default();
    check_module("sql-wasm", &wasm, Some(&["split+coalesce"]), 1, &mut counts);
    eprintln!("{counts:?}");
    assert!(counts.effects > 1000, "{counts:?}");
}
