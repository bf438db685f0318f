//! `emit-wasm` and `wasm opt` at scale (issue 13): a million-block
//! generated function (emitted; its body is past the engines' size limit,
//! so `wasm opt` refuses it), 100,000 blocks, a 100,000-operand phi behind
//! a 100,000-target switch, a loop header named 100,000 times by its own
//! switch, and a 10,000-wide parallel copy (100,000 would need more than
//! the 50,000 locals engines allow). Each `.ssa` program is emitted by
//! `program::emit_program`, the module rewritten by `rewrite::optimize`
//! (which validates its output), and both run under wasmi against `ssakit
//! run`. The emitter and the round trip run on the test's own thread
//! (2 MiB of stack) and rayon's: nothing may recurse per block.
//!
//! Small sizes run by default; the big ones are `--ignored`, and
//! `scale_ratios` prints the times at 10,000 and 100,000
//! (`cargo test --release -p ssakit-wasm --test scale -- --ignored
//! --nocapture`; a benchmark, not a timed assertion).

#[path = "support/run_ssa.rs"]
mod run_ssa;

use run_ssa::{admits, run_wasm_with};
use ssakit::construct::Flavor;
use ssakit::gen::{generate, wide, GenOptions, Shape};
use ssakit::interp::{run, RunOptions};
use ssakit::ir::Module;
use ssakit_wasm::program::emit_program;
use ssakit_wasm::rewrite::{optimize, OptOptions};
use std::time::Instant;

/// Seconds of one emission and of the round trip in minimal SSA (the
/// chapter's flavour) and in pruned SSA (the default of the CLI and of
/// `OptOptions`).
struct Times {
    emit: f64,
    opt: f64,
    opt_pruned: f64,
}

/// Emits `m`, rewrites the module, and checks both against `ssakit run`
/// on `args` (wasmi on a large-stack thread).
fn through(what: &str, m: Module, args: &[i64]) -> Times {
    let t = Instant::now();
    let (wasm, _) = emit_program(&m).unwrap_or_else(|e| panic!("{what}: {e}"));
    let emit = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut minimal = OptOptions::default();
    minimal.construct.flavor = Flavor::Minimal;
    let out = optimize(&wasm, &minimal).unwrap_or_else(|e| panic!("{what}: {e}"));
    let opt = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let out_pruned =
        optimize(&wasm, &OptOptions::default()).unwrap_or_else(|e| panic!("{what}, pruned: {e}"));
    let opt_pruned = t.elapsed().as_secs_f64();
    let f = &m.functions[0];
    let args = args[..f.params().len().min(args.len())].to_vec();
    let opts = RunOptions {
        fuel: u64::MAX / 4,
        ..RunOptions::default()
    };
    let want = run(&m, f, &args, &opts).unwrap_or_else(|e| panic!("{what}: run: {e:?}"));
    let nres = usize::from(want.ret.is_some()) + want.extra_rets.len();
    let what = what.to_string();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            for (side, bytes) in [
                ("emit-wasm", &wasm),
                ("wasm opt", &out.bytes),
                ("wasm opt, pruned", &out_pruned.bytes),
            ] {
                let (lines, rets) = run_wasm_with(bytes, &args, nres, u64::MAX / 4)
                    .unwrap_or_else(|e| panic!("{what}, {side}: {e}"));
                assert_eq!(lines.len(), want.output.len(), "{what}, {side}");
                for (w, g) in want.output.iter().zip(&lines) {
                    assert!(
                        w.len() == g.len() && w.iter().zip(g).all(|(w, &g)| admits(w, g)),
                        "{what}, {side}: {w:?} vs {g:?}"
                    );
                }
                let wr: Vec<_> = want
                    .ret
                    .into_iter()
                    .chain(want.extra_rets.clone())
                    .collect();
                assert!(
                    wr.len() == rets.len() && wr.iter().zip(&rets).all(|(w, &g)| admits(w, g)),
                    "{what}, {side}: {wr:?} vs {rets:?}"
                );
            }
        })
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
    Times {
        emit,
        opt,
        opt_pruned,
    }
}

fn blocks(shape: Shape, n: usize) -> Module {
    let f = generate(&GenOptions {
        shape,
        blocks: n,
        vars: 16,
        seed: 7,
    });
    Module { functions: vec![f] }
}

fn wide_shape(make: fn(usize) -> String, n: usize) -> Module {
    ssakit::text::parse_module(&make(n)).unwrap()
}

/// The shapes at size `n`: generated blocks (random and switchy), and
/// the three wide instructions.
fn shapes(n: usize) -> Vec<(String, Module)> {
    let mut out = vec![
        (format!("random {n} blocks"), blocks(Shape::Random, n)),
        (format!("switchy {n} blocks"), blocks(Shape::Switchy, n)),
    ];
    for (name, make) in wide::ALL {
        out.push((format!("{name} {n}"), wide_shape(make, n)));
    }
    out
}

#[test]
fn every_shape_at_ten_thousand() {
    for (what, m) in shapes(10_000) {
        through(&what, m, &[3, 5]);
    }
}

/// A million blocks: `emit-wasm` makes the module (iteratively: no stack
/// overflow), but its one function body is larger than the
/// 7,654,321-byte limit engines set (wasmparser's too), so `wasm opt`
/// refuses it as input, with a located error and no panic.
#[test]
#[ignore = "slow: a million blocks"]
fn a_million_blocks_emit_but_pass_the_body_size_limit() {
    for shape in [Shape::Random, Shape::Switchy] {
        let m = blocks(shape, 1_000_000);
        let t = Instant::now();
        let (wasm, _) = emit_program(&m).unwrap();
        let emit = t.elapsed().as_secs_f64();
        let e = optimize(&wasm, &OptOptions::default()).unwrap_err();
        assert!(e.message.contains("exceeds limit"), "{e}");
        eprintln!(
            "{shape} 1,000,000 blocks: emit-wasm {emit:.3} s, {} bytes; wasm opt: {e}",
            wasm.len()
        );
    }
}

#[test]
#[ignore = "slow: 100,000 blocks and 100,000-wide instructions"]
fn a_hundred_thousand_blocks_and_wide_instructions() {
    through(
        "random 100,000 blocks",
        blocks(Shape::Random, 100_000),
        &[3, 5],
    );
    for (name, make) in wide::ALL {
        // Not pcopy: 100,000 values live at once need 100,000 locals, past
        // the 50,000 engines allow, and at 40,000 its `print` of every
        // value is an import of 40,000 parameters, which wasmi refuses;
        // it runs at 10,000 in `every_shape_at_ten_thousand`.
        if name == "pcopy" {
            continue;
        }
        through(
            &format!("{name} 100,000"),
            wide_shape(make, 100_000),
            &[3, 5],
        );
    }
}

/// A benchmark row: the shape, its sizes, and its program of size `n`.
type Row = (String, Vec<usize>, Box<dyn Fn(usize) -> Module>);

/// Times at 10,000 and 100,000 (switchy at 3,000, 10,000 and 30,000: at
/// 100,000 `wasm opt` runs out of memory, see docs/scale.md; pcopy at 1,000
/// and 10,000, see `a_hundred_thousand_blocks_and_wide_instructions`).
#[test]
#[ignore = "a benchmark: prints emit and round-trip times"]
fn scale_ratios() {
    eprintln!(
        "| shape | n | emit-wasm s | wasm opt s, minimal | wasm opt s, pruned | \
         × previous n, minimal | × previous n, pruned |"
    );
    eprintln!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut rows: Vec<Row> = vec![
        (
            "random".into(),
            vec![10_000, 100_000],
            Box::new(|n| blocks(Shape::Random, n)),
        ),
        (
            "switchy".into(),
            vec![3_000, 10_000, 30_000],
            Box::new(|n| blocks(Shape::Switchy, n)),
        ),
    ];
    for (name, make) in wide::ALL {
        let sizes = if name == "pcopy" {
            vec![1_000, 10_000]
        } else {
            vec![10_000, 100_000]
        };
        rows.push((name.into(), sizes, Box::new(move |n| wide_shape(make, n))));
    }
    for (name, sizes, make) in rows {
        let mut prev: Option<(f64, f64)> = None;
        for n in sizes {
            let t = through(&format!("{name} {n}"), make(n), &[3, 5]);
            let total = (t.emit + t.opt, t.emit + t.opt_pruned);
            let (r1, r2) = prev.map_or((String::new(), String::new()), |p| {
                (
                    format!("{:.1}", total.0 / p.0),
                    format!("{:.1}", total.1 / p.1),
                )
            });
            eprintln!(
                "| {name} | {n} | {:.3} | {:.3} | {:.3} | {r1} | {r2} |",
                t.emit, t.opt, t.opt_pruned
            );
            prev = Some(total);
        }
    }
}
