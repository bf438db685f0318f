//! The dispatch-loop transformation ([`ssakit::reducible`]) against two
//! independent oracles: a brute-force reducibility check (every retreating
//! edge of a depth-first search goes to a dominator of its source, with the
//! dominators of `ssakit::analysis`), and the interpreter giving the same
//! output before and after, on generated programs of every shape. The
//! result must also verify and go through construction and destruction.

use ssakit::analysis::domtree::DomTree;
use ssakit::construct::{construct, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::interp::{first_difference, outputs_match, run, Outcome, RunOptions};
use ssakit::ir::{Block, Cfg, Function, Module};
use ssakit::reducible::make_reducible;
use ssakit::text::parse_module;

/// Brute force: an iterative DFS from the entry; each edge to a block on
/// the DFS stack (a retreating edge) must go to a dominator of its source.
fn is_reducible(f: &Function) -> bool {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(&cfg);
    let n = cfg.num_blocks();
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut stack: Vec<(Block, usize)> = vec![(cfg.entry(), 0)];
    state[cfg.entry().index()] = 1;
    while let Some(&mut (u, ref mut k)) = stack.last_mut() {
        let su = cfg.succs(u);
        if *k == su.len() {
            state[u.index()] = 2;
            stack.pop();
            continue;
        }
        let v = su[*k];
        *k += 1;
        match state[v.index()] {
            0 => {
                state[v.index()] = 1;
                stack.push((v, 0));
            }
            1 if !dom.dominates(v, u) => return false,
            _ => {}
        }
    }
    true
}

fn run_one(f: &Function, args: &[i64]) -> Result<Outcome, String> {
    let m = Module {
        functions: vec![f.clone()],
    };
    run(&m, &m.functions[0], args, &RunOptions::default()).map_err(|e| e.kind.to_string())
}

fn outcome(f: &Function, args: &[i64]) -> String {
    match run_one(f, args) {
        Ok(o) => o.render(),
        Err(e) => format!("error: {e}"),
    }
}

const ARGS: [[i64; 2]; 4] = [[0, 0], [1, -1], [7, 3], [-20, 45]];

#[track_caller]
fn check(f: &Function, what: &str) -> usize {
    let mut g = f.clone();
    let stats = make_reducible(&mut g).unwrap();
    let text = ssakit::text::print_function(&g);
    assert!(is_reducible(&g), "{what}: not reducible\n{text}");
    // The printed program parses back (fresh block names are unique).
    parse_module(&text).unwrap_or_else(|e| panic!("{what}: {e:?}\n{text}"));
    // Idempotent: a reducible graph needs no dispatcher.
    let mut h = g.clone();
    assert_eq!(
        make_reducible(&mut h).unwrap().dispatchers,
        0,
        "{what}\n{text}"
    );
    let mut ssa = g.clone();
    construct(&mut ssa, &Options::default()).unwrap();
    ssakit::verify::verify(&ssa).unwrap_or_else(|e| panic!("{what}: {e:?}\n{text}"));
    destruct(&mut ssa, &DestructOptions::default()).unwrap();
    for a in ARGS {
        let args = &a[..f.params().len().min(2)];
        let want = outcome(f, args);
        assert_eq!(want, outcome(&g, args), "{what} on {args:?}\n{text}");
        // Construction may define what was undefined: `undef` matches any value.
        match (run_one(f, args), run_one(&ssa, args)) {
            (Ok(o), Ok(t)) => assert!(
                outputs_match(&o, &t),
                "{what} round trip on {args:?}: {:?}\n{text}",
                first_difference(&o, &t)
            ),
            (o, t) => assert_eq!(o.err(), t.err(), "{what} round trip on {args:?}\n{text}"),
        }
    }
    stats.dispatchers
}

/// Thousands of generated programs of every shape; the irreducible ones
/// are irreducible before (the check can fail) and reducible after.
#[test]
fn generated_programs_of_every_shape() {
    let n: usize = std::env::var("SSAKIT_REDUCIBLE_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2400);
    let (mut irreducible_before, mut dispatchers) = (0, 0);
    for k in 0..n {
        let opts = GenOptions {
            shape: Shape::ALL[k % Shape::ALL.len()],
            blocks: 4 + (k * 7) % 41,
            vars: 2 + k % 4,
            seed: k as u64,
        };
        let f = generate(&opts);
        irreducible_before += usize::from(!is_reducible(&f));
        dispatchers += check(&f, &format!("{opts:?}"));
    }
    eprintln!("{n} programs, {irreducible_before} irreducible, {dispatchers} dispatchers");
    assert!(
        irreducible_before * Shape::ALL.len() * 2 >= n,
        "{irreducible_before}"
    );
    assert!(dispatchers >= irreducible_before);
}

fn parse(src: &str) -> Function {
    parse_module(src).unwrap().functions.remove(0)
}

/// The entry block inside a two-entry cycle gets a new entry block.
#[test]
fn entry_in_a_multi_entry_cycle() {
    let f = parse(
        "function main(n) {\ne:\n    n = n - 1\n    c = n > 0\n    branch c, b, x\nb:\n    print n\n    d = n & 1\n    branch d, e, b2\nb2:\n    n = n - 1\n    jump b\nx:\n    ret n\n}\n",
    );
    // e ⇄ b with e the entry: reducible already.
    assert_eq!(check(&f, "entry loop"), 0);
    let g = parse(
        "function main(n) {\ne:\n    c = n & 1\n    branch c, a, b\na:\n    print 1, n\n    n = n - 1\n    d = n > 0\n    branch d, b, x\nb:\n    print 2, n\n    n = n - 1\n    d = n > 0\n    branch d, a, x\nx:\n    ret n\n}\n",
    );
    assert!(!is_reducible(&g));
    assert_eq!(check(&g, "two entries"), 1);
}

/// Nested irreducible cycles: the inner one is found after the outer gets
/// its dispatcher.
#[test]
fn nested_multi_entry_cycles() {
    let f = parse(
        "function main(n) {\ne:\n    c = n & 1\n    branch c, a, b\na:\n    n = n - 1\n    d = n & 2\n    branch d, p, q\np:\n    n = n - 1\n    z = n > 0\n    branch z, q, b\nq:\n    print 3, n\n    n = n - 1\n    z = n > 0\n    branch z, p, a\nb:\n    print 2, n\n    n = n - 1\n    d = n > 0\n    branch d, a, x\nx:\n    ret n\n}\n",
    );
    assert!(!is_reducible(&f));
    assert!(check(&f, "nested") >= 2);
}

/// Phis are refused with the block named.
#[test]
fn phis_are_refused() {
    let mut f = parse("function main(n) {\ne:\n    jump b\nb:\n    x = phi(e: n)\n    ret x\n}\n");
    let e = make_reducible(&mut f).unwrap_err();
    assert!(e.to_string().contains("block b has phis"), "{e}");
}

/// A long chain of two-entry cycles (50,000 blocks) does not overflow the
/// stack.
#[test]
fn many_irreducible_loops() {
    let f = generate(&GenOptions {
        shape: Shape::Irreducible,
        blocks: 50_000,
        vars: 3,
        seed: 5,
    });
    let mut g = f.clone();
    let st = make_reducible(&mut g).unwrap();
    assert!(st.dispatchers > 0);
    assert!(is_reducible(&g));
}
