//! Wide shapes: one very wide instruction through every stage, to show each
//! stage stays near-linear in its width.
//!
//! ```sh
//! cargo run --release -p ssakit --example wide -- 25000 50000 100000 200000
//! ```
//!
//! For each width `N` and shape, the `.ssa` text is parsed, put into pruned
//! SSA, optimised by each pass, destroyed (edges split, coalescing) and run
//! by the interpreter; one line per shape and width with the seconds of each
//! stage. The shapes ([`ssakit::gen::wide`]):
//!
//! * `phi`: an `N`-target switch into a join where `x` has `N + 1`
//!   definitions, so construction makes an `N + 1`-operand phi;
//! * `switch-loop`: a loop whose header is named `N` times by its own
//!   switch (`switch k, X, [L, L, ...]`), with two variables carried around
//!   it: every one of those edges is critical;
//! * `pcopy`: an `N`-wide parallel copy rotating `N` variables in a loop.

use ssakit::construct::{construct, Flavor, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::interp::{run, RunOptions};
use ssakit::opt::Pass;
use ssakit::text::parse_module;
use std::time::Instant;

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}

fn main() {
    let widths: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .map(|a| a.parse().expect("a width"))
        .collect();
    let widths = if widths.is_empty() {
        vec![25_000, 50_000, 100_000]
    } else {
        widths
    };
    println!("| shape | N | parse | construct | copy-prop | const-prop | dce | destruct | run original | run result |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, make) in ssakit::gen::wide::ALL {
        for &n in &widths {
            let src = make(n);
            let (m, parse_s) = time(|| parse_module(&src).expect("the program parses"));
            let opts = RunOptions::default();
            let (want, run0) = time(|| run(&m, &m.functions[0], &[1], &opts).expect("runs"));
            let mut f = m.functions[0].clone();
            let pruned = Options {
                flavor: Flavor::Pruned,
                ..Options::default()
            };
            let (_, construct_s) = time(|| construct(&mut f, &pruned).expect("constructs"));
            let mut pass_s = Vec::new();
            for pass in ["copy-prop", "const-prop", "dce"] {
                let mut g = f.clone();
                let passes = Pass::parse(pass).unwrap();
                let ((), s) = time(|| {
                    ssakit::opt::run_passes(&mut g, &passes).expect("optimises");
                });
                pass_s.push(s);
            }
            let (_, destruct_s) =
                time(|| destruct(&mut f, &DestructOptions::default()).expect("destructs"));
            let m2 = ssakit::ir::Module { functions: vec![f] };
            let (got, run1) = time(|| run(&m2, &m2.functions[0], &[1], &opts).expect("runs"));
            assert!(
                ssakit::interp::outputs_match(&want, &got),
                "{name} {n}: the result computes something else"
            );
            println!(
                "| {name} | {n} | {parse_s:.3} | {construct_s:.3} | {:.3} | {:.3} | {:.3} | {destruct_s:.3} | {run0:.3} | {run1:.3} |",
                pass_s[0], pass_s[1], pass_s[2]
            );
        }
    }
}
