//! The differential oracle over generated programs and over the classic
//! failure classes of SSA destruction, each in a test named after it.
//! Every pipeline stage's output must compute what the original computes.
//! The `*_is_caught` tests show the oracle rejects the classic wrong
//! out-of-SSA translation (phis replaced by sequential copies at the end of
//! each predecessor, no edge splitting, no parallel copies).

mod common;

use ssakit::construct::{self, Flavor, Options};
use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::ir::{Function, InstData, Operand};
use ssakit::opt::Pass;
use ssakit::oracle::{self, naive_out_of_ssa, Plan};
use ssakit::text::parse_module;

fn args2() -> Vec<Vec<i64>> {
    vec![vec![0, 0], vec![1, -1], vec![7, 3], vec![-20, 45]]
}

fn args1() -> Vec<Vec<i64>> {
    vec![vec![0], vec![1], vec![4], vec![9]]
}

fn example(name: &str) -> Function {
    parse_module(&common::example(name))
        .unwrap()
        .functions
        .remove(0)
}

#[track_caller]
fn check_full(f: &Function, args: Vec<Vec<i64>>) -> oracle::Coverage {
    let cov = oracle::check(f, &Plan::full(args))
        .unwrap_or_else(|m| panic!("{m}\n--- program\n{}", m.program));
    assert!(
        cov.comparisons > 0,
        "no run of the original finished: nothing was compared"
    );
    cov
}

/// 2,100 generated programs of every shape and small sizes; each goes
/// through one construction (rotating flavours, ⊥ modes, renamings and DF⁺
/// methods), every optimisation list and every destruction mode.
#[test]
fn mixed_shapes_2100_generated_programs() {
    let mut total = oracle::Coverage::default();
    for k in 0..2100usize {
        let shape = Shape::ALL[k % Shape::ALL.len()];
        let opts = GenOptions {
            shape,
            blocks: 4 + (k * 7) % 37,
            vars: 2 + k % 5,
            seed: k as u64,
        };
        let f = generate(&opts);
        let plan = Plan::rotating(k, args2());
        match oracle::check(&f, &plan) {
            Ok(c) => {
                total.programs += c.programs;
                total.comparisons += c.comparisons;
            }
            Err(m) => {
                let (small, m) = oracle::reduce(&f, &plan, &m);
                panic!(
                    "{opts:?}: {m}\n--- reduced program\n{}",
                    ssakit::text::print_function(&small)
                );
            }
        }
    }
    // Generated programs always terminate: every run was compared.
    assert!(total.comparisons >= 2100 * 30 * 4, "{total:?}");
}

#[test]
fn lost_copy() {
    check_full(&example("lost_copy_source.ssa"), args1());
}

#[test]
fn swap() {
    check_full(&example("swap_source.ssa"), args1());
}

/// The chapter's example: x and y are undefined on the path r → A → C.
#[test]
fn undef_paths() {
    check_full(&example("seed.ssa"), args2());
    check_full(&example("sum.ssa"), args1());
}

#[test]
fn irreducible_loops() {
    for seed in 0..40 {
        let f = generate(&GenOptions {
            shape: Shape::Irreducible,
            blocks: 12 + seed as usize % 20,
            vars: 3,
            seed,
        });
        check_full(&f, args2());
    }
}

/// Critical edges everywhere: a loop whose latch branches both back and
/// out, and joins reached from branches.
#[test]
fn critical_edges() {
    let src = "function main(n) {\ne:\n    i = 0\n    s = 0\n    t = 1\n    jump h\nh:\n    u = s\n    s = t\n    t = u + t\n    i = i + 1\n    c = i < n\n    branch c, h, x\nx:\n    d = n & 1\n    branch d, h2, j\nh2:\n    s = 0 - s\n    branch c, j, j\nj:\n    print s, t, u\n    ret s\n}\n";
    check_full(&parse_module(src).unwrap().functions.remove(0), args1());
}

#[test]
fn entry_with_predecessors() {
    let src = "function main(n) {\ne:\n    n = n - 1\n    k = k + n\n    c = n > 0\n    branch c, e, x\nx:\n    print k\n    ret n\n}\n";
    check_full(&parse_module(src).unwrap().functions.remove(0), args1());
}

/// Construction then copy propagation: the non-conventional SSA of the
/// lost-copy and swap problems.
fn copy_propagated(name: &str) -> (Function, Function) {
    let f = example(name);
    let mut s = f.clone();
    construct::construct(
        &mut s,
        &Options {
            flavor: Flavor::Pruned,
            ..Default::default()
        },
    )
    .unwrap();
    ssakit::opt::run_passes(&mut s, &Pass::parse("copy-prop").unwrap()).unwrap();
    (f, s)
}

#[test]
fn lost_copy_is_caught() {
    let (f, s) = copy_propagated("lost_copy_source.ssa");
    let m = oracle::agree(&f, &naive_out_of_ssa(&s), "naive", &Plan::full(args1())).unwrap_err();
    assert!(m.detail.contains("on ["), "{m}");
}

#[test]
fn swap_is_caught() {
    let (f, s) = copy_propagated("swap_source.ssa");
    assert!(oracle::agree(&f, &naive_out_of_ssa(&s), "naive", &Plan::full(args1())).is_err());
}

/// Splitting the critical back edge alone fixes the lost copy, and the
/// oracle accepts it: what it caught above was the missing split.
#[test]
fn critical_edge_split_is_what_the_lost_copy_needs() {
    let (f, mut s) = copy_propagated("lost_copy_source.ssa");
    ssakit::destruct::critical_edges::split_critical_edges(&mut s);
    oracle::agree(
        &f,
        &naive_out_of_ssa(&s),
        "split then naive",
        &Plan::full(args1()),
    )
    .unwrap();
}

/// An undefined value must not be invented where the original had one.
#[test]
fn undef_where_the_original_had_a_value_is_caught() {
    let f = example("sum.ssa");
    let mut g = f.clone();
    for b in g.layout().to_vec() {
        for i in g.block_insts(b).to_vec() {
            if let InstData::Copy { dst, src } = *g.inst(i) {
                if src == Operand::Const(0) {
                    g.set_inst(
                        i,
                        InstData::Copy {
                            dst,
                            src: Operand::Undef,
                        },
                    );
                }
            }
        }
    }
    assert!(oracle::agree(&f, &g, "undef", &Plan::full(args1())).is_err());
}

/// The reducer shrinks a failing program to the instructions that matter:
/// the naive translation of the swap loop, padded with unrelated code,
/// comes down to the loop and its phis.
#[test]
fn reducer_shrinks_a_failure() {
    let src = "function main(n) {\nentry:\n    a = 1\n    b = 2\n    i = 0\n    z = n * 3\n    print z\n    jump loop\nloop:\n    w = z + i\n    print w\n    t = a\n    a = b\n    b = t\n    i = i + 1\n    c = i < n\n    branch c, loop, exit\nexit:\n    q = w - 1\n    print q\n    ret a\n}\n";
    let f = parse_module(src).unwrap().functions.remove(0);
    let plan = Plan::full(args1());
    let naive_fails = |f: &Function| {
        let mut s = f.clone();
        construct::construct(&mut s, &Options::default()).ok()?;
        ssakit::opt::run_passes(&mut s, &Pass::parse("copy-prop,dce").unwrap()).ok()?;
        oracle::agree(f, &naive_out_of_ssa(&s), "naive", &plan).err()
    };
    let first = naive_fails(&f).expect("the naive translation fails");
    let (small, _) = oracle::reduce_by(&f, &first, naive_fails);
    assert!(naive_fails(&small).is_some());
    assert!(
        small.num_insts() * 3 < f.num_insts() * 2,
        "{}",
        ssakit::text::print_function(&small)
    );
    let text = ssakit::text::print_function(&small);
    assert!(
        !text.contains("print z") && !text.contains("q ="),
        "unrelated code survived:\n{text}"
    );
}

/// The long soak: 100,000 generated programs of every shape, larger sizes.
/// Run with `cargo test --release -p ssakit --test differential -- --ignored`.
/// `SSAKIT_SOAK=N` changes the count, `SSAKIT_SOAK_START=K` the first seed.
#[test]
#[ignore]
fn soak_100k_generated_programs() {
    let n: usize = std::env::var("SSAKIT_SOAK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let start: usize = std::env::var("SSAKIT_SOAK_START")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    for k in start..start + n {
        let shape = Shape::ALL[k % Shape::ALL.len()];
        let opts = GenOptions {
            shape,
            blocks: 4 + (k * 13) % 120,
            vars: 1 + k % 9,
            seed: k as u64,
        };
        let f = generate(&opts);
        let plan = Plan::rotating(k, args2());
        if let Err(m) = oracle::check(&f, &plan) {
            let (small, m) = oracle::reduce(&f, &plan, &m);
            panic!(
                "{opts:?}: {m}\n--- reduced program\n{}",
                ssakit::text::print_function(&small)
            );
        }
        if (k - start) % 10_000 == 9_999 {
            eprintln!("soak: {} programs", k - start + 1);
        }
    }
}

/// A one-second smoke run of the fuzz targets' bodies on the examples, on
/// every prefix of one example, and on pseudo-random byte strings (the
/// fuzzers themselves live in `fuzz/`, outside the default build).
#[test]
fn fuzz_target_smoke() {
    for e in std::fs::read_dir(common::examples_dir()).unwrap() {
        let path = e.unwrap().path();
        if !path.is_file() {
            continue; // examples/bril/
        }
        let src = std::fs::read(path).unwrap();
        oracle::fuzz_source(&src);
    }
    let seed = common::example("seed.ssa");
    for cut in (0..seed.len()).step_by(7) {
        oracle::fuzz_source(&seed.as_bytes()[..cut]);
    }
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..40 {
        let mut bytes = Vec::new();
        for _ in 0..24 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            bytes.push(x as u8);
        }
        oracle::fuzz_generated(&bytes);
        oracle::fuzz_source(&bytes);
    }
}
