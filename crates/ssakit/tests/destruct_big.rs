//! Big generated programs through destruction, to show that coalescing
//! stays near linear where congruence classes grow one variable at a time
//! (Boissinot et al.'s test costs `O(|X| + |Y|)` per merge, which a naive
//! implementation pays again and again on these), and that nothing
//! recurses:
//!
//! * a chain of 50,000 lost-copy loops, each reading the previous loop's
//!   phi: every class test interferes or not inside one loop;
//! * 100,000 copies in a row: one class of 100,001 variables;
//! * 3,000 diamonds each copying `x` on one side, after construction.

use ssakit::construct::{self, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::interp::{self, RunOptions};
use ssakit::ir::Module;
use ssakit::text::{parse_module, print_module};
use std::fmt::Write;

/// Destroys `m`'s only function with `opts`; checks the printed result
/// computes what `m` computes on `args`; returns (copies left,
/// temporaries).
fn destruct_and_run(m: &Module, opts: DestructOptions, args: &[i64]) -> (usize, usize) {
    let mut g = m.clone();
    let stats = destruct(&mut g.functions[0], &opts).unwrap();
    let text = print_module(&g);
    let g = parse_module(&text).unwrap();
    let run = |m: &Module| {
        let opts = RunOptions {
            fuel: 10_000_000,
            ..Default::default()
        };
        interp::run(m, &m.functions[0], args, &opts).unwrap()
    };
    let (o, t) = (run(m), run(&g));
    assert!(interp::outputs_match(&o, &t) && o.ret == t.ret);
    (stats.copies_remaining, stats.temporaries)
}

fn modes(split: bool) -> DestructOptions {
    DestructOptions {
        split,
        ..Default::default()
    }
}

/// ```text
/// entry: a0 = 1; jump L0
/// Lk:    pk = phi(L(k-1): p(k-1), Lk: qk); qk = pk + 1; ck = qk < n
///        branch ck, Lk, L(k+1)
/// Ln:    ret p(n-1)
/// ```
#[test]
fn chain_of_50k_lost_copy_loops() {
    let n = 50_000;
    let mut src = String::from("function main(n) {\nentry:\n    a0 = 1\n    jump L0\n");
    let (mut prev, mut pv) = ("entry".to_string(), "a0".to_string());
    for k in 0..n {
        let _ = write!(
            src,
            "L{k}:\n    p{k} = phi({prev}: {pv}, L{k}: q{k})\n    q{k} = p{k} + 1\n    \
             c{k} = q{k} < n\n    branch c{k}, L{k}, L{}\n",
            k + 1
        );
        (prev, pv) = (format!("L{k}"), format!("p{k}"));
    }
    let _ = write!(src, "L{n}:\n    ret {pv}\n}}\n");
    let m = parse_module(&src).unwrap();
    // Split: `a0 = 1` and the back-edge copy of each loop (the lost copy's
    // minimum). Not split: the copy into the next loop's web and the
    // copy after its phi, per loop.
    assert_eq!(destruct_and_run(&m, modes(true), &[3]), (n + 1, 0));
    assert_eq!(destruct_and_run(&m, modes(false), &[3]), (2 * n, 0));
}

#[test]
fn copy_chain_of_100k() {
    let n = 100_000;
    let mut src = String::from("function main(a) {\nentry:\n    x0 = a\n");
    for k in 1..n {
        let _ = writeln!(src, "    x{k} = x{}", k - 1);
    }
    let _ = write!(src, "    print x{}, x0\n    ret x{}\n}}\n", n - 1, n / 2);
    let m = parse_module(&src).unwrap();
    assert_eq!(destruct_and_run(&m, modes(true), &[7]), (0, 0));
}

#[test]
fn diamonds_after_construction() {
    let n = 3_000;
    let mut src = String::from("function main(n) {\nentry:\n    x = 0\n    jump b0\n");
    for i in 0..n {
        let _ = write!(
            src,
            "b{i}:\n    c = n > {i}\n    branch c, t{i}, e{i}\nt{i}:\n    y = x\n    \
             x = y + 1\n    jump b{j}\ne{i}:\n    z = x\n    x = z\n    jump b{j}\n",
            j = i + 1
        );
    }
    let _ = write!(src, "b{n}:\n    ret x\n}}\n");
    let mut m = parse_module(&src).unwrap();
    construct::construct_module(&mut m, &Options::default()).unwrap();
    // Only `x = 0` is left: every version of x, y and z is one variable.
    for split in [true, false] {
        assert_eq!(destruct_and_run(&m, modes(split), &[1500]), (1, 0));
    }
}
