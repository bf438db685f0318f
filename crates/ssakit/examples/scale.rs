//! Scale check: one generated function through construction and
//! destruction, reporting times and peak memory as one JSON line.
//!
//! ```sh
//! cargo run --release -p ssakit --example scale -- chain 1000000 16
//! cargo run --release -p ssakit --example scale -- many-vars 20000 100000
//! cargo run --release -p ssakit --example scale -- nested-loops 30002 4
//! ```
//! Arguments: shape, blocks, variables. Run each case in its own process:
//! peak memory is the process's high-water mark (`VmHWM`).

use ssakit::construct::{construct, Flavor, Options};
use ssakit::gen::{generate, GenOptions, Shape};
use std::time::Instant;

fn peak_rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let shape: Shape = a
        .get(1)
        .map_or("chain", |s| s.as_str())
        .parse()
        .expect("a shape name");
    let blocks: usize = a
        .get(2)
        .map_or(100_000, |s| s.parse().expect("a block count"));
    let vars: usize = a
        .get(3)
        .map_or(16, |s| s.parse().expect("a variable count"));
    let flavor = match a.get(4).map(|s| s.as_str()) {
        Some("minimal") => Flavor::Minimal,
        Some("semi-pruned") => Flavor::SemiPruned,
        _ => Flavor::Pruned,
    };
    let t = Instant::now();
    let mut f = generate(&GenOptions {
        shape,
        blocks,
        vars,
        seed: 1,
    });
    let gen_s = t.elapsed().as_secs_f64();
    let insts = f.num_insts();
    let rss_input = peak_rss_bytes();
    let t = Instant::now();
    let stats = construct(
        &mut f,
        &Options {
            flavor,
            ..Default::default()
        },
    )
    .expect("construction");
    let construct_s = t.elapsed().as_secs_f64();
    let ssa_insts = f.num_insts();
    let t = Instant::now();
    ssakit::destruct::destruct(&mut f, &Default::default()).expect("destruction");
    let destruct_s = t.elapsed().as_secs_f64();
    let peak = peak_rss_bytes();
    println!(
        "{{\"shape\":\"{shape}\",\"blocks\":{},\"vars\":{vars},\"insts\":{insts},\"phis\":{},\"ssa_insts\":{ssa_insts},\
\"gen_s\":{gen_s:.3},\"construct_s\":{construct_s:.3},\"destruct_s\":{destruct_s:.3},\
\"peak_rss_after_gen_mb\":{:.1},\"peak_rss_mb\":{:.1},\"peak_bytes_per_inst\":{:.0}}}",
        f.layout().len(),
        stats.phis,
        rss_input as f64 / 1e6,
        peak as f64 / 1e6,
        peak as f64 / insts as f64,
    );
}
