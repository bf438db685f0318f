//! The lost-copy and swap problems (Briggs, Cooper, Harvey and Simpson
//! 1998; chapter section 13.6) produced the way a compiler meets them: a
//! program not in SSA form (`examples/lost_copy_source.ssa`,
//! `examples/swap_source.ssa`) is put into SSA form, which is conventional,
//! then copy propagation makes it non-conventional. The result is still
//! valid SSA and still computes the same thing, and so does its
//! translation out of SSA.

mod common;

use ssakit::construct::{self, Flavor, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::interp::{self, Outcome, RunOptions};
use ssakit::ir::{Function, Module};
use ssakit::opt::{self, Pass};
use ssakit::text::{parse_module, print_function};

fn run(f: &Function, n: i64) -> Outcome {
    let m = Module {
        functions: vec![f.clone()],
    };
    interp::run(&m, &m.functions[0], &[n], &RunOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{}", print_function(f)))
}

/// Constructs `example` in `flavor`, checks it is conventional, runs
/// copy propagation and returns the result after checking that it is valid
/// SSA, not conventional, and (as SSA and after `destruct`, with and
/// without edge splitting) computes what the source computes.
fn construct_then_copy_prop(example: &str, flavor: Flavor) -> Function {
    let src = parse_module(&common::example(example)).unwrap();
    let source = &src.functions[0];
    let mut f = source.clone();
    let opts = Options {
        flavor,
        ..Default::default()
    };
    construct::construct(&mut f, &opts).unwrap();
    assert!(ssakit::verify::verify(&f).unwrap().conventional());
    let passes = Pass::parse("copy-prop").unwrap();
    let stats = opt::run_passes(&mut f, &passes).unwrap();
    assert!(stats.copies_propagated > 0);
    let report = ssakit::verify::verify(&f)
        .unwrap_or_else(|e| panic!("{example} {flavor:?}: invalid SSA {e:?}"));
    assert!(
        !report.conventional(),
        "{example} {flavor:?}: still conventional\n{}",
        print_function(&f)
    );
    for n in [0, 1, 2, 3, 5] {
        let expected = run(source, n);
        assert!(interp::outputs_match(&expected, &run(&f, n)));
        for split in [false, true] {
            let mut g = f.clone();
            destruct(
                &mut g,
                &DestructOptions {
                    split,
                    coalesce: split,
                    conventional: false,
                },
            )
            .unwrap();
            assert!(
                interp::outputs_match(&expected, &run(&g, n)),
                "{example} {flavor:?} n={n} split={split}\n{}",
                print_function(&g)
            );
        }
    }
    f
}

const FLAVORS: [Flavor; 3] = [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned];

#[test]
fn lost_copy_from_source() {
    for flavor in FLAVORS {
        construct_then_copy_prop("lost_copy_source.ssa", flavor);
    }
    // Pruned, the classic picture: x2 is returned after the loop, but x3
    // of its phi web is defined while x2 is live.
    let f = construct_then_copy_prop("lost_copy_source.ssa", Flavor::Pruned);
    common::golden("lost_copy_source.pruned.copy-prop.ssa", &print_function(&f));
    let r = ssakit::verify::verify(&f).unwrap();
    let names = ssakit::ir::VarNames::new(&f);
    let (a, b) = r.interference.unwrap();
    let mut pair = [names[a].to_string(), names[b].to_string()];
    pair.sort();
    assert_eq!(pair, ["x2", "x3"]);
}

#[test]
fn swap_from_source() {
    for flavor in FLAVORS {
        construct_then_copy_prop("swap_source.ssa", flavor);
    }
    // Pruned, the classic picture: the phis of `loop` read each other.
    let f = construct_then_copy_prop("swap_source.ssa", Flavor::Pruned);
    assert_eq!(
        print_function(&f),
        "function main(n) {
entry:
    a1 = 1
    b1 = 2
    i1 = 0
    jump loop
loop:
    a2 = phi(entry: a1, loop: b2)
    b2 = phi(entry: b1, loop: a2)
    i2 = phi(entry: i1, loop: i3)
    print a2, b2
    i3 = i2 + 1
    c1 = i3 < n
    branch c1, loop, exit
exit:
    ret b2
}
"
    );
}

#[test]
fn the_examples_run_as_their_comments_say() {
    let m = parse_module(&common::example("lost_copy_source.ssa")).unwrap();
    assert_eq!(run(&m.functions[0], 5).render(), "=> 4\n");
    let m = parse_module(&common::example("swap_source.ssa")).unwrap();
    assert_eq!(run(&m.functions[0], 3).render(), "1 2\n2 1\n1 2\n=> 2\n");
}
