//! Timing of the analyses on generated shapes of 10k, 100k and 1M blocks.
//!
//! `cargo bench -p ssakit --bench analysis` prints one JSON object per line:
//! `{"bench": ..., "shape": ..., "blocks": ..., "ns_per_block": ..., "ms": ...}`,
//! the best of three runs. Shapes are those of `src/tests/analysis_shapes.rs`:
//! `chain`, `diamonds` and Cytron's `ladder`. Two pairings are skipped
//! because they are quadratic by nature, not by implementation: DF_all (and
//! the worklist DF⁺ that needs it) on the ladder, whose frontiers have Θ(n²)
//! elements, and Cooper–Harvey–Kennedy on ladders above 100k blocks, whose
//! `intersect` walks Θ(n²) steps in all. Set `SSAKIT_BENCH_SLOW=1` to run
//! the latter anyway. Arguments (`cargo bench -- 10000`) pick the sizes.

#[path = "../src/tests/analysis_shapes.rs"]
mod shapes;

use shapes::{chain, diamonds, function_from_graph, Ladder};
use ssakit::analysis::{
    CsrGraph, DepthFirst, DomAlgorithm, DomTree, DominanceFrontiers, Graph, IdfCalculator,
    Liveness, WorklistIdf,
};
use ssakit::ir::{Block, Cfg};
use std::hint::black_box;
use std::time::Instant;

/// Best of three runs of `f`, in nanoseconds.
fn best_of_3<T>(mut f: impl FnMut() -> T) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_nanos() as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn report(bench: &str, shape: &str, blocks: usize, ns: f64) {
    println!(
        "{{\"bench\": \"{bench}\", \"shape\": \"{shape}\", \"blocks\": {blocks}, \
         \"ns_per_block\": {:.1}, \"ms\": {:.2}}}",
        ns / blocks as f64,
        ns / 1e6
    );
}

fn run_shape(shape: &str, g: &CsrGraph, defs: &[Block], quadratic: bool, slow: bool) {
    let n = g.num_nodes();
    report("dfs", shape, n, best_of_3(|| DepthFirst::new(g)));
    report(
        "dom_fast",
        shape,
        n,
        best_of_3(|| DomTree::with_algorithm(g, DomAlgorithm::Fast)),
    );
    if !quadratic || n <= 100_000 || slow {
        let runs = if quadratic && n > 100_000 { 1 } else { 3 };
        let mut best = f64::INFINITY;
        for _ in 0..runs {
            let t = Instant::now();
            black_box(DomTree::with_algorithm(g, DomAlgorithm::Simple));
            best = best.min(t.elapsed().as_nanos() as f64);
        }
        report("dom_simple", shape, n, best);
    }
    let tree = DomTree::new(g);
    let mut calc = IdfCalculator::new(g, &tree);
    let mut out = Vec::new();
    report(
        "idf_linear",
        shape,
        n,
        best_of_3(|| calc.compute(defs, &mut out)),
    );
    if !quadratic {
        report(
            "df_all",
            shape,
            n,
            best_of_3(|| DominanceFrontiers::new(g, &tree)),
        );
        let df = DominanceFrontiers::new(g, &tree);
        let mut chapter = WorklistIdf::new(&df);
        report(
            "idf_worklist",
            shape,
            n,
            best_of_3(|| chapter.compute(defs, &mut out)),
        );
    }
    let f = function_from_graph(g);
    let cfg = Cfg::new(&f);
    report("liveness", shape, n, best_of_3(|| Liveness::new(&f, &cfg)));
}

fn main() {
    let slow = std::env::var_os("SSAKIT_BENCH_SLOW").is_some();
    let mut sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = vec![10_000, 100_000, 1_000_000];
    }
    for n in sizes {
        // Defining blocks: one in 64, as for a variable assigned often.
        let every_64 = |g: &CsrGraph| -> Vec<Block> {
            (1..g.num_nodes()).step_by(64).map(Block::new).collect()
        };
        let g = chain(n);
        run_shape("chain", &g, &every_64(&g), false, slow);
        let g = diamonds(n);
        run_shape("diamonds", &g, &every_64(&g), false, slow);
        let ladder = Ladder::with_nodes(n);
        let g = ladder.graph();
        run_shape("ladder", &g, &[ladder.r(0)], true, slow);
    }
}
