//! Timing of SSA construction (every flavour) and destruction on generated
//! programs of every shape.
//!
//! `cargo bench -p ssakit --bench construct -- [BLOCKS [VARS [REPS [SHAPE..]]]]`
//! prints one JSON object per line and run kind:
//! `{"bench": "construct-pruned", "shape": ..., "blocks": ..., "insts": ...,
//! "ns_per_inst": ..., "ms": ..., "phases": {...}}`, the best of `REPS` runs
//! (default 100,000 blocks, 16 variables, 3 runs, every shape). It is also the
//! driver to profile: `perf record target/release/deps/construct-* 100000`;
//! `SSAKIT_BENCH_ONLY=pruned` runs only the benches whose name contains
//! `pruned`.
//! The side-by-side comparison with LLVM and Cranelift is `ssakit-compare`.

use ssakit::construct::{construct, Flavor, Options};
use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::timing::PassTimes;
use std::time::Instant;

fn report(bench: &str, shape: Shape, blocks: usize, insts: usize, ns: f64, t: &PassTimes) {
    let phases: Vec<String> = t
        .phases
        .iter()
        .map(|(n, s)| format!("\"{n}\": {:.3}", s * 1e3))
        .collect();
    println!(
        "{{\"bench\": \"{bench}\", \"shape\": \"{shape}\", \"blocks\": {blocks}, \"insts\": {insts}, \
         \"ns_per_inst\": {:.1}, \"ms\": {:.2}, \"phases\": {{{}}}}}",
        ns / insts as f64,
        ns / 1e6,
        phases.join(", ")
    );
}

fn wanted(bench: &str) -> bool {
    std::env::var("SSAKIT_BENCH_ONLY").map_or(true, |f| bench.contains(&f))
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let num = |k: usize, d: usize| args.get(k).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (blocks, vars, reps) = (num(0, 100_000), num(1, 16), num(2, 3).max(1));
    let shapes: Vec<Shape> = if args.len() > 3 {
        args[3..]
            .iter()
            .map(|s| s.parse().expect("a shape"))
            .collect()
    } else {
        Shape::ALL.to_vec()
    };
    for shape in shapes {
        let src = generate(&GenOptions {
            shape,
            blocks,
            vars,
            seed: 1,
        });
        let insts = src.num_insts();
        let nb = src.layout().len();
        for (name, flavor) in [
            ("construct-minimal", Flavor::Minimal),
            ("construct-semi-pruned", Flavor::SemiPruned),
            ("construct-pruned", Flavor::Pruned),
        ] {
            if !wanted(name) {
                continue;
            }
            let opts = Options {
                flavor,
                ..Options::default()
            };
            let mut best = (f64::INFINITY, PassTimes::default());
            for _ in 0..reps {
                let mut f = src.clone();
                let t = Instant::now();
                let (stats, times) = ssakit::timing::collect(|| construct(&mut f, &opts));
                let ns = t.elapsed().as_nanos() as f64;
                stats.expect("construction succeeds");
                if ns < best.0 {
                    best = (ns, times);
                }
            }
            report(name, shape, nb, insts, best.0, &best.1);
        }
        let mut ssa = src.clone();
        construct(
            &mut ssa,
            &Options {
                flavor: Flavor::Pruned,
                ..Options::default()
            },
        )
        .expect("construction succeeds");
        let mut best = f64::INFINITY;
        for _ in 0..reps {
            if !wanted("verify") {
                break;
            }
            let t = Instant::now();
            std::hint::black_box(ssakit::verify::verify(&ssa).expect("valid SSA"));
            best = best.min(t.elapsed().as_nanos() as f64);
        }
        if wanted("verify") {
            report("verify", shape, nb, insts, best, &PassTimes::default());
        }
        for (name, split) in [("destruct-split", true), ("destruct-no-split", false)] {
            if !wanted(name) {
                continue;
            }
            let mut best = f64::INFINITY;
            for _ in 0..reps {
                let mut f = ssa.clone();
                let t = Instant::now();
                let opts = ssakit::destruct::DestructOptions {
                    split,
                    coalesce: true,
                    conventional: false,
                };
                ssakit::destruct::destruct(&mut f, &opts).expect("destruction succeeds");
                best = best.min(t.elapsed().as_nanos() as f64);
            }
            report(name, shape, nb, insts, best, &PassTimes::default());
        }
    }
}
