//! Output quality pinned against recorded figures: on the examples and on 1,000
//! generated programs, the number of phis each construction flavour places
//! and, after destruction in each mode, the copies left in the program
//! (static) and the instructions executed on one argument vector (dynamic).
//!
//! The figures live in `tests/golden/baseline_counts.txt`, one line per
//! program; a change that places one phi more or leaves one copy more fails
//! here, on the line of the program concerned. Re-bless with `BLESS=1` only
//! for a change meant to improve them, and say so in the commit.

use super::common;

use ssakit::construct::{self, Flavor, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::interp::{self, RunOptions};
use ssakit::ir::{Function, Module};
use ssakit::opt::Pass;
use ssakit::text::parse_module;
use std::fmt::Write;

/// `(tag, passes, destruction)` of each pipeline measured after pruned
/// construction (the minimal one is measured apart).
fn pipelines() -> Vec<(&'static str, &'static str, DestructOptions)> {
    let mode = |split, coalesce| DestructOptions {
        split,
        coalesce,
        conventional: false,
    };
    vec![
        ("copy-prop/split", "copy-prop", mode(true, true)),
        ("copy-prop/nosplit", "copy-prop", mode(false, true)),
        ("copy-prop/split-naive", "copy-prop", mode(true, false)),
        ("copy-prop/nosplit-naive", "copy-prop", mode(false, false)),
        (
            "all/split",
            "const-prop,copy-prop,dce",
            DestructOptions::default(),
        ),
    ]
}

/// Static copies after destruction, and dynamic instructions on `args`.
fn destroyed(f: &Function, opts: &DestructOptions, args: &[i64]) -> (usize, u64) {
    let mut g = f.clone();
    let s = destruct(&mut g, opts).unwrap_or_else(|e| panic!("{}: {e}", f.name()));
    (s.copies_remaining, dynamic(&g, args))
}

fn dynamic(f: &Function, args: &[i64]) -> u64 {
    let m = Module {
        functions: vec![f.clone()],
    };
    let opts = RunOptions {
        fuel: 10_000_000,
        ..Default::default()
    };
    interp::run(&m, &m.functions[0], args, &opts)
        .map(|o| o.dyn_insts)
        .unwrap_or(0)
}

/// One line of figures for a non-SSA program.
fn line(name: &str, f: &Function, args: &[i64]) -> String {
    let mut out = format!("{name}:");
    let mut pruned = None;
    for (tag, flavor) in [
        ("minimal", Flavor::Minimal),
        ("semi", Flavor::SemiPruned),
        ("pruned", Flavor::Pruned),
    ] {
        let mut g = f.clone();
        let s = construct::construct(
            &mut g,
            &Options {
                flavor,
                ..Default::default()
            },
        )
        .unwrap();
        let _ = write!(out, " {tag}={}", s.phis);
        if flavor == Flavor::Minimal {
            let (st, dy) = destroyed(&g, &DestructOptions::default(), args);
            let _ = write!(out, " minimal/split={st}/{dy}");
        }
        if flavor == Flavor::Pruned {
            pruned = Some(g);
        }
    }
    out.push_str(&ssa_line(&pruned.unwrap(), args));
    out
}

/// The figures of the pipelines run on SSA `f`.
fn ssa_line(f: &Function, args: &[i64]) -> String {
    let mut out = String::new();
    for (tag, passes, opts) in pipelines() {
        let mut g = f.clone();
        for p in Pass::parse(passes).unwrap() {
            p.run(&mut g).unwrap();
        }
        let (st, dy) = destroyed(&g, &opts, args);
        let _ = write!(out, " {tag}={st}/{dy}");
    }
    out
}

fn example(name: &str) -> Function {
    parse_module(&common::example(name))
        .unwrap()
        .functions
        .remove(0)
}

fn all_lines() -> String {
    let mut out = String::new();
    for (name, args) in [
        ("seed.ssa", &[1, 1][..]),
        ("sum.ssa", &[4]),
        ("lost_copy_source.ssa", &[5]),
        ("swap_source.ssa", &[3]),
    ] {
        out.push_str(&line(name, &example(name), args));
        out.push('\n');
    }
    for (name, args) in [
        ("lost_copy.ssa", &[5][..]),
        ("swap.ssa", &[3]),
        ("pcopy.ssa", &[3]),
        ("tour.ssa", &[10, 1]),
    ] {
        let _ = writeln!(out, "{name}:{}", ssa_line(&example(name), args));
    }
    for k in 0..1000usize {
        let opts = GenOptions {
            shape: Shape::ALL[k % Shape::ALL.len()],
            blocks: 4 + (k * 7) % 37,
            vars: 2 + k % 5,
            seed: 1000 + k as u64,
        };
        let f = generate(&opts);
        let name = format!(
            "gen {} {} {} {}",
            opts.shape, opts.blocks, opts.vars, opts.seed
        );
        out.push_str(&line(&name, &f, &[7, 3]));
        out.push('\n');
    }
    out
}

/// Phi counts and static and dynamic copy counts equal the recorded ones
/// on the examples and on 1,000 generated programs of every shape.
#[test]
fn phi_and_copy_counts_equal_the_recorded_figures() {
    common::golden("baseline_counts.txt", &all_lines());
}
