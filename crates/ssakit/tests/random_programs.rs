//! The random programs of the property tests (`common::random_program`)
//! are worth testing with: nearly every run finishes (the tests compare only
//! those), parallel-copy cycles occur (destruction needs temporaries), and
//! divisions and wide parallel copies are there. Before the generator
//! bounded trip counts and kept conditions defined, 23% of runs finished
//! (53% ran out of fuel, 24% branched on `undef`) and none of 2,000
//! programs needed a temporary.

mod common;

use common::random_program::{census, program, FUEL};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use ssakit::construct::{construct, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::ir::{BinOp, Function, InstData};
use ssakit::opt::{run_passes, Pass};

/// Programs sampled with a fixed seed.
fn sample(max_blocks: u8, max_vars: u8, n: usize) -> Vec<Function> {
    let mut runner = TestRunner::deterministic();
    let s = program(max_blocks, max_vars);
    (0..n)
        .map(|_| s.new_tree(&mut runner).unwrap().current().build())
        .collect()
}

#[test]
fn nearly_every_run_of_a_random_program_finishes() {
    for (b, v) in [(9, 4), (20, 7), (30, 8)] {
        let c = census(b, v, 1000, FUEL);
        eprintln!("program({b}, {v}): {c:?} of {}", c.runs());
        assert!(
            c.finished * 100 >= c.runs() * 90,
            "program({b}, {v}): {c:?}"
        );
    }
}

#[test]
fn parallel_copy_cycles_occur_in_random_programs() {
    let (mut with, mut temps) = (0, 0);
    let fs = sample(9, 4, 1000);
    for f in &fs {
        let mut g = f.clone();
        construct(&mut g, &Options::default()).unwrap();
        run_passes(&mut g, &Pass::parse("copy-prop").unwrap()).unwrap();
        let st = destruct(&mut g, &DestructOptions::default()).unwrap();
        temps += st.temporaries;
        with += usize::from(st.temporaries > 0);
    }
    eprintln!(
        "{} programs, {with} with temporaries, {temps} temporaries",
        fs.len()
    );
    assert!(with * 100 >= fs.len() * 20, "{with} of {}", fs.len());
}

#[test]
fn random_programs_divide_and_copy_in_parallel() {
    let (mut div, mut wide) = (0, 0);
    let fs = sample(9, 4, 1000);
    for f in &fs {
        let (mut d, mut w) = (false, false);
        for &b in f.layout() {
            for &i in f.block_insts(b) {
                match f.inst(i) {
                    InstData::Binary { op, .. } => d |= matches!(op, BinOp::Div | BinOp::Rem),
                    InstData::ParCopy { .. } => {
                        let mut n = 0;
                        f.for_each_def(i, |_| n += 1);
                        w |= n >= 3;
                    }
                    _ => {}
                }
            }
        }
        div += usize::from(d);
        wide += usize::from(w);
    }
    eprintln!(
        "{} programs: {div} divide, {wide} copy 3 or more in parallel",
        fs.len()
    );
    assert!(div * 100 >= fs.len() * 15 && wide * 100 >= fs.len() * 15);
}
