//! The wide shapes of `ssakit::gen::wide` (a phi of N + 1 operands, a
//! switch naming one loop header N times, an N-wide parallel copy) through
//! parse, pruned construction, every pass alone and all together,
//! destruction and the interpreter, the result computing what the original
//! computes (issue 16, defect 7). CI runs N = 10,000 in a debug build; the
//! 100,000 runs are ignored tests for a release build:
//!
//! ```sh
//! cargo test --release -p ssakit --test wide -- --ignored
//! ```
//!
//! Their times per stage are the figures of docs/scale.md, from
//! `examples/wide.rs`; nothing is timed here.

use ssakit::construct::{construct, Flavor, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::interp::{outputs_match, run, RunOptions};
use ssakit::ir::Module;
use ssakit::opt::{run_passes, Pass};
use ssakit::text::parse_module;

fn every_stage(name: &str, make: fn(usize) -> String, n: usize) {
    let m = parse_module(&make(n)).unwrap_or_else(|d| panic!("{name} {n}: {}", d.message));
    let opts = RunOptions::default();
    // 1 goes round switch-loop three times; 3 leaves it at once.
    for arg in [1, 3] {
        let want = run(&m, &m.functions[0], &[arg], &opts).expect("the original runs");
        let mut ssa = m.functions[0].clone();
        let pruned = Options {
            flavor: Flavor::Pruned,
            ..Options::default()
        };
        construct(&mut ssa, &pruned).unwrap();
        for passes in [
            "",
            "copy-prop",
            "const-prop",
            "dce",
            "const-prop,copy-prop,dce",
        ] {
            let mut f = ssa.clone();
            if !passes.is_empty() {
                run_passes(&mut f, &Pass::parse(passes).unwrap()).unwrap();
            }
            ssakit::verify::verify_valid(&f)
                .unwrap_or_else(|e| panic!("{name} {n} {passes}: {e:?}"));
            destruct(&mut f, &DestructOptions::default()).unwrap();
            let out = Module { functions: vec![f] };
            let got = run(&out, &out.functions[0], &[arg], &opts).expect("the result runs");
            assert!(
                outputs_match(&want, &got),
                "{name} {n} {passes} on {arg}: the result differs"
            );
        }
    }
}

/// `back-edges`: a loop header closed by `n` conditional blocks, each
/// branching back to it or on to the next, so that its phi has `n + 1`
/// operands and every one of its `n` back edges, from `n` distinct
/// sources, is critical. Destruction's dominator-tree update after
/// splitting once scanned the header's predecessors once per split edge
/// (36 s at 100,000 in a release build, 0.09 s since).
fn back_edges(n: usize) -> String {
    let mut s = String::from(
        "function main(a) {\nentry:\n    i = 0\n    jump L\nL:\n    i = i + 1\n    \
         c = i < a\n    print i\n    jump B0\n",
    );
    for k in 0..n {
        let next = if k + 1 < n {
            format!("B{}", k + 1)
        } else {
            "X".into()
        };
        s.push_str(&format!("B{k}:\n    branch c, L, {next}\n"));
    }
    s.push_str("X:\n    ret i\n}\n");
    s
}

#[test]
fn wide_shapes_of_10k_through_every_stage() {
    for (name, make) in ssakit::gen::wide::ALL {
        every_stage(name, make, 10_000);
    }
    every_stage("back-edges", back_edges, 10_000);
}

#[test]
#[ignore]
fn wide_shapes_of_100k_through_every_stage() {
    for (name, make) in ssakit::gen::wide::ALL {
        every_stage(name, make, 100_000);
    }
    every_stage("back-edges", back_edges, 100_000);
}
