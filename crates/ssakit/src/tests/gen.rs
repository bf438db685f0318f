//! The program generator (`ssakit::gen`): for every shape and many seeds the
//! program prints and parses back to the same function, runs to completion
//! in the interpreter on awkward arguments within a bounded number of steps,
//! is deterministic, has the documented number of blocks and variables, and
//! has the control flow its shape promises (irreducible loops only where
//! asked for, a 10,000-way switch, a 10,000-deep nest, a million blocks).

use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::interp::{run, Outcome, RunOptions};
use ssakit::ir::{Block, Cfg, Function, InstData, Module, Terminator};
use ssakit::text::{parse_module, print_module};

/// Argument pairs: zero, signs, and the extremes.
const ARGS: [(i64, i64); 7] = [
    (0, 0),
    (1, -1),
    (-7, 3),
    (5, 12),
    (-1, -1),
    (i64::MAX, i64::MIN),
    (i64::MIN, 2),
];

const FUEL: u64 = 10_000_000;

fn gen(shape: Shape, blocks: usize, vars: usize, seed: u64) -> Function {
    generate(&GenOptions {
        shape,
        blocks,
        vars,
        seed,
    })
}

fn label(f: &Function, shape: Shape, seed: u64) -> String {
    format!("{shape} seed {seed} ({} blocks)", f.layout().len())
}

/// Prints, parses back, and asserts the same function; returns the text.
fn round_trip(f: &Function, what: &str) -> String {
    let m = Module {
        functions: vec![f.clone()],
    };
    let text = print_module(&m);
    let back = parse_module(&text)
        .unwrap_or_else(|d| panic!("{what}: does not parse: {}", d.render("gen", &text)));
    assert!(
        back == m,
        "{what}: printing then parsing changed it:\n{text}"
    );
    text
}

/// Runs on every argument pair, asserting completion within `bound` steps.
fn run_all(f: &Function, what: &str, bound: u64) -> Vec<Outcome> {
    let opts = RunOptions {
        fuel: FUEL,
        ..RunOptions::default()
    };
    ARGS.iter()
        .map(|&(a, b)| {
            let out = run(&Module::default(), f, &[a, b], &opts)
                .unwrap_or_else(|e| panic!("{what}: main({a}, {b}) failed: {e}\n{}", print_fn(f)));
            assert!(
                out.dyn_insts <= bound,
                "{what}: main({a}, {b}) took {} steps, more than {bound}",
                out.dyn_insts
            );
            out
        })
        .collect()
}

fn print_fn(f: &Function) -> String {
    if f.layout().len() > 200 {
        return String::from("(too large to show)");
    }
    ssakit::text::print_function(f)
}

/// The step bound promised: loops nest at most three deep with at most
/// three trips each (27), deep nests re-run their innermost loop a little.
fn step_bound(f: &Function) -> u64 {
    30 * f.num_insts() as u64 + 100
}

/// Number of distinct `v` variables.
fn num_v(f: &Function) -> usize {
    f.vars()
        .map(|v| f.base_name(v))
        .filter(|n| n.starts_with('v') && n[1..].bytes().all(|c| c.is_ascii_digit()))
        .count()
}

#[test]
fn every_shape_round_trips_and_runs_for_200_seeds() {
    for shape in Shape::ALL {
        for seed in 0..200u64 {
            let blocks = 3 + (seed as usize * 7) % 60;
            let vars = 1 + seed as usize % 12;
            let f = gen(shape, blocks, vars, seed);
            let what = label(&f, shape, seed);
            round_trip(&f, &what);
            run_all(&f, &what, step_bound(&f));
            assert_eq!(f.layout().len(), shape.block_count(blocks), "{what}");
            assert!(num_v(&f) <= vars, "{what}: more than {vars} v variables");
            if blocks >= 8 * vars {
                assert!(
                    2 * num_v(&f) >= vars,
                    "{what}: fewer than {vars}/2 v variables"
                );
            }
            assert_eq!(f.params().len(), 2, "{what}");
        }
    }
}

#[test]
fn medium_programs_round_trip_and_run() {
    for shape in Shape::ALL {
        for seed in [1u64, 2, 3] {
            let f = gen(shape, 3000, 20, seed);
            let what = label(&f, shape, seed);
            round_trip(&f, &what);
            run_all(&f, &what, step_bound(&f));
        }
    }
}

#[test]
fn same_seed_same_program_other_seeds_other_programs() {
    for shape in Shape::ALL {
        let text = |seed| round_trip(&gen(shape, 40, 6, seed), shape.name());
        assert_eq!(text(5), text(5), "{shape}: not deterministic");
        let mut texts: Vec<String> = (0..20).map(text).collect();
        texts.sort();
        texts.dedup();
        assert!(
            texts.len() >= 15,
            "{shape}: only {} distinct programs",
            texts.len()
        );
    }
}

#[test]
fn a_seed_pins_the_program() {
    // Changing the generator changes every seed's program: do it
    // deliberately, and update this text. (A while loop on `k0`, `v1` read
    // before written on the path through b1.)
    let f = gen(Shape::Random, 8, 3, 1);
    let text = print_module(&Module { functions: vec![f] });
    assert_eq!(
        text,
        "\
function main(a, b) {
entry:
    v0 = b - -4
    jump b1
b1:
    v2 = v1 > v0
    v2 = v0 + v0
    v2 = v2 - v1
    c = v0 >= v0
    branch c, then2, exit
then2:
    v0 = v0 | a
    v1 = v0 ^ b
    v2 = v0 + v1
    k0 = b & 3
    jump head3
head3:
    c = k0 > 0
    branch c, body4, exit
body4:
    v0 = v0 ^ v0
    v1 = v2
    branch a, latch6, then5
then5:
    v1 = -v2
    v0 = -b
    jump latch6
latch6:
    v2 = v0 + v0
    k0 = k0 - 1
    jump head3
exit:
    print v0, v1, v2
    ret v0
}
"
    );
}

#[test]
fn block_counts_match_the_documented_formulas() {
    let cases = [
        (Shape::Random, 100, 100),
        (Shape::Irreducible, 100, 100),
        (Shape::ManyVars, 100, 100),
        (Shape::Chain, 100, 100),
        (Shape::Switchy, 100, 100),
        (Shape::Ladder, 100, 100),
        (Shape::Ladder, 101, 100),
        (Shape::LadderRedundant, 7, 6),
        (Shape::NestedLoops, 100, 98),
        (Shape::NestedLoops, 3, 5),
        (Shape::Random, 0, 3),
    ];
    for (shape, asked, got) in cases {
        assert_eq!(shape.block_count(asked), got, "{shape} {asked}");
        assert_eq!(
            gen(shape, asked, 4, 9).layout().len(),
            got,
            "{shape} {asked}"
        );
    }
}

#[test]
fn shapes_parse_from_their_names() {
    for s in Shape::ALL {
        assert_eq!(s.name().parse::<Shape>(), Ok(s));
    }
    let err = "spiral".parse::<Shape>().unwrap_err().to_string();
    assert!(
        err.contains("spiral") && err.contains("nested-loops"),
        "{err}"
    );
}

#[test]
fn many_vars_has_every_variable_live_to_the_exit() {
    let f = gen(Shape::ManyVars, 2000, 1000, 3);
    assert_eq!(num_v(&f), 1000);
    let exit = *f.layout().last().unwrap();
    let printed: usize = f
        .block_insts(exit)
        .iter()
        .map(|&i| match f.inst(i) {
            InstData::Print { args } => args.len(),
            _ => 0,
        })
        .sum();
    assert_eq!(printed, 1000);
    run_all(&f, "many-vars 2000x1000", step_bound(&f));
}

#[test]
fn variables_are_read_before_written() {
    for shape in Shape::ALL {
        if shape == Shape::LadderRedundant {
            continue; // assigns every variable in the entry, by design
        }
        let undef_seen = (0..20u64).any(|seed| {
            let f = gen(shape, 30, 6, seed);
            run_all(&f, shape.name(), step_bound(&f))
                .iter()
                .any(|o| o.render().contains("undef"))
        });
        assert!(undef_seen, "{shape}: no variable ever printed as undef");
    }
}

#[test]
fn switchy_10002_blocks_has_a_10000_way_switch() {
    let f = gen(Shape::Switchy, 10002, 8, 1);
    assert_eq!(f.layout().len(), 10002);
    let widest = f
        .layout()
        .iter()
        .map(|&b| match f.term(b) {
            Terminator::Switch { targets, .. } => targets.len(),
            _ => 0,
        })
        .max();
    assert_eq!(widest, Some(10_000));
    round_trip(&f, "switchy 10002");
    run_all(&f, "switchy 10002", step_bound(&f));
}

#[test]
fn ten_thousand_deep_nests_generate_and_run() {
    let f = gen(Shape::NestedLoops, 30_002, 8, 1);
    assert_eq!(f.layout().len(), 30_002);
    round_trip(&f, "nested-loops depth 10000");
    run_all(&f, "nested-loops depth 10000", step_bound(&f));
    let f = gen(Shape::Ladder, 20_002, 8, 1);
    round_trip(&f, "ladder 10000 rungs");
    run_all(&f, "ladder 10000 rungs", step_bound(&f));
    let f = gen(Shape::LadderRedundant, 20_002, 8, 1);
    run_all(&f, "ladder-redundant 10000 rungs", step_bound(&f));
}

#[test]
fn a_million_blocks_generate_without_recursion() {
    for shape in [Shape::Random, Shape::Chain, Shape::NestedLoops] {
        let f = gen(shape, 1_000_000, 16, 1);
        assert_eq!(f.layout().len(), shape.block_count(1_000_000), "{shape}");
    }
}

#[test]
#[ignore = "slow: prints, parses and runs a million-block program (~6 s)"]
fn a_million_block_program_round_trips_and_runs() {
    let f = gen(Shape::Random, 1_000_000, 16, 1);
    round_trip(&f, "random 1M");
    let opts = RunOptions {
        fuel: 1_000_000_000,
        ..RunOptions::default()
    };
    run(&Module::default(), &f, &[3, -5], &opts).unwrap();
}

#[test]
fn ladder_redundant_assigns_v_variables_only_in_the_entry() {
    for seed in 0..20 {
        let f = gen(Shape::LadderRedundant, 50, 5, seed);
        for &b in &f.layout()[1..] {
            for &i in f.block_insts(b) {
                if let Some(d) = f.def(i) {
                    let name = &f.base_name(d);
                    assert!(
                        name.starts_with('k'),
                        "seed {seed}: {name} assigned in a rung"
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Reducibility, checked from the definitions: a CFG is reducible iff every
// retreating edge of a depth-first search (an edge to a block still on the
// DFS stack) goes to a block that dominates its source.

/// Immediate dominators by the iterative algorithm of Cooper, Harvey and
/// Kennedy ("A Simple, Fast Dominance Algorithm", 2001), over `rpo`.
fn idoms(cfg: &Cfg, rpo: &[Block]) -> Vec<usize> {
    let n = cfg.num_blocks();
    let mut order = vec![usize::MAX; n];
    for (i, b) in rpo.iter().enumerate() {
        order[b.index()] = i;
    }
    let mut idom = vec![usize::MAX; n];
    let entry = rpo[0].index();
    idom[entry] = entry;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &rpo[1..] {
            let mut new = usize::MAX;
            for &p in cfg.preds(b) {
                let p = p.index();
                if idom[p] == usize::MAX {
                    continue;
                }
                new = if new == usize::MAX {
                    p
                } else {
                    let (mut x, mut y) = (p, new);
                    while x != y {
                        while order[x] > order[y] {
                            x = idom[x];
                        }
                        while order[y] > order[x] {
                            y = idom[y];
                        }
                    }
                    x
                };
            }
            if idom[b.index()] != new {
                idom[b.index()] = new;
                changed = true;
            }
        }
    }
    idom
}

/// Retreating edges of an iterative DFS from the entry, and the reverse
/// postorder.
fn retreating_edges(cfg: &Cfg) -> (Vec<(Block, Block)>, Vec<Block>) {
    let n = cfg.num_blocks();
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut post = Vec::new();
    let mut edges = Vec::new();
    let mut stack = vec![(cfg.entry(), 0usize)];
    state[cfg.entry().index()] = 1;
    while let Some(top) = stack.last_mut() {
        let b = top.0;
        if let Some(&s) = cfg.succs(b).get(top.1) {
            top.1 += 1;
            match state[s.index()] {
                0 => {
                    state[s.index()] = 1;
                    stack.push((s, 0));
                }
                1 => edges.push((b, s)),
                _ => {}
            }
        } else {
            state[b.index()] = 2;
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    (edges, post)
}

fn is_reducible(f: &Function) -> bool {
    let cfg = Cfg::new(f);
    let (edges, rpo) = retreating_edges(&cfg);
    let idom = idoms(&cfg, &rpo);
    let dominates = |h: usize, mut b: usize| loop {
        if b == h {
            return true;
        }
        if idom[b] == b {
            return false;
        }
        b = idom[b];
    };
    edges
        .iter()
        .all(|&(src, dst)| dominates(dst.index(), src.index()))
}

#[test]
fn only_the_irreducible_shape_is_irreducible() {
    for seed in 0..100u64 {
        let blocks = 6 + seed as usize % 60;
        for shape in Shape::ALL {
            let f = gen(shape, blocks, 5, seed);
            let reducible = is_reducible(&f);
            if shape == Shape::Irreducible {
                assert!(!reducible, "{}: reducible", label(&f, shape, seed));
            } else {
                assert!(reducible, "{}: irreducible", label(&f, shape, seed));
            }
        }
    }
}

#[test]
fn every_block_is_reachable_and_one_returns() {
    for shape in Shape::ALL {
        for seed in 0..30u64 {
            let f = gen(shape, 40, 5, seed);
            let cfg = Cfg::new(&f);
            let (_, rpo) = retreating_edges(&cfg);
            assert_eq!(
                rpo.len(),
                f.layout().len(),
                "{shape} seed {seed}: unreachable block"
            );
            let exits = f
                .layout()
                .iter()
                .filter(|&&b| matches!(f.term(b), Terminator::Ret(_)))
                .count();
            assert_eq!(exits, 1, "{shape} seed {seed}");
        }
    }
}
