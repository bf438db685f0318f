//! Big generated programs through destruction, to show that coalescing
//! stays near linear where congruence classes grow one variable at a time
//! (Boissinot et al.'s test costs `O(|X| + |Y|)` per merge, which a naive
//! implementation pays again and again on these), and that nothing
//! recurses:
//!
//! * a chain of 50,000 lost-copy loops, each reading the previous loop's
//!   phi: every class test interferes or not inside one loop;
//! * 100,000 copies in a row: one class of 100,001 variables;
//! * 3,000 diamonds each copying `x` on one side, after construction;
//! * generated ladders of nested loops, deep loop nests, random programs
//!   and switches, as built and after copy propagation, and a wide switch
//!   (where classes could grow across a deep dominator tree, or where
//!   one block has thousands of predecessors), at two sizes: the
//!   interference work grows linearly.

use ssakit::construct::{self, Flavor, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::interp::{self, RunOptions};
use ssakit::ir::{Function, Module};
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

/// Destroys `f` (in SSA), returning the interference work of coalescing
/// per instruction of the input (`intersection tests`: liveness and
/// same-point intersection tests, plus the steps of the dominance-forest
/// walks between them).
fn work_per_inst(mut f: Function) -> f64 {
    let insts: usize = f.layout().iter().map(|&b| f.block_insts(b).len()).sum();
    let stats = destruct(&mut f, &DestructOptions::default()).unwrap();
    stats.coalescing.intersection_tests as f64 / insts as f64
}

/// `ssakit gen --shape SHAPE --blocks N --vars 16 --seed 1`, in pruned SSA.
fn generated(shape: Shape, blocks: usize) -> Function {
    let mut f = generate(&GenOptions {
        shape,
        blocks,
        vars: 16,
        seed: 1,
    });
    let opts = Options {
        flavor: Flavor::Pruned,
        ..Default::default()
    };
    construct::construct(&mut f, &opts).unwrap();
    f
}

/// Ladders of nested loops and deep nests made classes grow across a
/// dominator tree as deep as the program, where walking class lists in
/// dominance order cost their length per merge; on a switch of thousands
/// of cases, a class refused in turn against many others met each at the
/// join's phis, which a walk in dominance order reaches last: the work
/// per instruction now stays flat (a logarithmic factor aside) from 2,000
/// to 8,000 blocks.
#[test]
fn generated_shapes_take_linear_work() {
    for shape in [
        Shape::Ladder,
        Shape::NestedLoops,
        Shape::Random,
        Shape::Switchy,
    ] {
        let small = work_per_inst(generated(shape, 2_000));
        let big = work_per_inst(generated(shape, 8_000));
        assert!(
            big <= 1.5 * small,
            "{}: {small:.1} per instruction at 2,000 blocks, {big:.1} at 8,000",
            shape.name()
        );
    }
}

/// The same after copy propagation, which leaves phi webs interfering
/// with the values they copy (the lost-copy and swap problems, thousands of
/// times): their phi components are tried copy by copy, where a class test
/// once walked, again and again, the members of a big class under a
/// variable live across it.
#[test]
fn generated_shapes_after_copy_propagation_take_linear_work() {
    for shape in [Shape::Ladder, Shape::NestedLoops, Shape::Random] {
        let work = |blocks| {
            let mut f = generated(shape, blocks);
            ssakit::opt::copy_prop(&mut f).unwrap();
            work_per_inst(f)
        };
        let (small, big) = (work(2_000), work(8_000));
        assert!(
            big <= 1.5 * small,
            "{}: {small:.1} per instruction at 2,000 blocks, {big:.1} at 8,000",
            shape.name()
        );
    }
}

/// One switch with `n` cases joining in one block of three phis, whose
/// operands mix the parameters and the cases' own values (many copies of
/// one class refused against several others):
///
/// ```text
/// entry(a, b, c): switch c, exit, [k0, ..., k(n-1)]
/// kI:   xI = a + I; jump exit
/// exit: r = phi(entry: a, kI: xI if I even, else a)
///       s = phi(entry: b, kI: b if 3 divides I, else a)
///       t = phi(entry: a, kI: xI if 5 divides I, else b)
///       print r, s, t; ret r
/// ```
fn wide_switch(n: usize) -> Module {
    let mut src = String::from("function main(a, b, c) {\nentry:\n    switch c, exit, [");
    src.push_str(&ssakit::gen::wide::numbered("k", n));
    src.push_str("]\n");
    for k in 0..n {
        let _ = write!(src, "k{k}:\n    x{k} = a + {k}\n    jump exit\n");
    }
    src.push_str("exit:\n");
    let mut phi = |name: &str, entry: &str, pick: &dyn Fn(usize) -> String| {
        let _ = write!(src, "    {name} = phi(entry: {entry}");
        for k in 0..n {
            let _ = write!(src, ", k{k}: {}", pick(k));
        }
        src.push_str(")\n");
    };
    phi("r", "a", &|k| {
        if k % 2 == 0 {
            format!("x{k}")
        } else {
            "a".into()
        }
    });
    phi("s", "b", &|k| {
        if k % 3 == 0 {
            "b".into()
        } else {
            "a".into()
        }
    });
    phi("t", "a", &|k| {
        if k % 5 == 0 {
            format!("x{k}")
        } else {
            "b".into()
        }
    });
    src.push_str("    print r, s, t\n    ret r\n}\n");
    parse_module(&src).unwrap()
}

#[test]
fn wide_switch_takes_linear_work() {
    let (small, big) = (wide_switch(2_000), wide_switch(20_000));
    let (ws, wb) = (
        work_per_inst(small.functions[0].clone()),
        work_per_inst(big.functions[0].clone()),
    );
    assert!(
        ws > 0.0 && wb <= 1.5 * ws,
        "{ws:.2} then {wb:.2} per instruction"
    );
    // And the result computes what the switch does.
    for split in [true, false] {
        destruct_and_run(&big, modes(split), &[3, 4, 7]);
        destruct_and_run(&big, modes(split), &[3, 4, 100_000]);
    }
}
