//! Property tests of SSA construction on thousands of random programs
//! (any CFG shape: irreducible loops, unreachable blocks, self loops,
//! multi-edges, an entry with predecessors; uses before definitions):
//!
//! * the result passes the verifier and is conventional;
//! * minimal SSA has exactly one phi per (variable, block of DF⁺(Defs(v)));
//! * pruned SSA has no dead phi; semi-pruned lies between pruned and minimal;
//! * reachingDef renaming and stack renaming, the worklist DF⁺ and the
//!   linear DF⁺, give the same program;
//! * every flavour and ⊥ mode computes what the original computes (an
//!   `undef` printed by the original matches any value).

use super::common;

use common::random_program::{program, run, ARGS, FUEL};
use proptest::prelude::*;
use ssakit::analysis::{DomTree, IdfCalculator};
use ssakit::construct::{self, phi_insert::DefBlocks, Flavor, Idf, Options, Renaming, UndefMode};
use ssakit::interp::{self, Outcome};
use ssakit::ir::{Block, Cfg, Function, InstData, Var};
use std::collections::BTreeSet;

/// (original variable, block) of every phi.
fn phi_set(f: &Function) -> Vec<(Var, Block)> {
    let mut out = Vec::new();
    for &b in f.layout() {
        for &i in f.block_phis(b) {
            if let InstData::Phi { dst, .. } = f.inst(i) {
                out.push((f.original(*dst), b));
            }
        }
    }
    out.sort();
    out
}

/// The minimal placement straight from its definition: for each variable,
/// the blocks of DF⁺(Defs(v)) of the prepared function.
fn expected_minimal(f: &Function) -> Vec<(Var, Block)> {
    let mut g = f.clone();
    construct::prepare(&mut g).unwrap();
    let cfg = Cfg::new(&g);
    let dt = DomTree::new(&cfg);
    let defs = DefBlocks::new(&g);
    let mut idf = IdfCalculator::new(&cfg, &dt);
    let mut out = Vec::new();
    for v in g.vars() {
        if defs.of(v).is_empty() {
            continue;
        }
        for b in idf.idf(defs.of(v)) {
            out.push((v, b));
        }
    }
    out.sort();
    out
}

proptest! {
    #![proptest_config(common::config(2000))]

    #[test]
    fn construction_verifies_places_minimal_phis_and_preserves_behaviour(p in program(9, 4)) {
        let f = p.build();
        let originals: Vec<Option<Outcome>> = ARGS.iter().map(|a| run(&f, a, FUEL).ok()).collect();
        let minimal = expected_minimal(&f);
        let mut pruned_set = None;
        let mut semi_set = None;
        for flavor in [Flavor::Pruned, Flavor::Minimal, Flavor::SemiPruned] {
            for undef in [UndefMode::Operand, UndefMode::EntryDef, UndefMode::Local] {
                let mut printed = Vec::new();
                for (idf, renaming) in [(Idf::Worklist, Renaming::ReachingDef), (Idf::Linear, Renaming::Stacks), (Idf::Linear, Renaming::ReachingDef)] {
                    let mut g = f.clone();
                    let opts = Options { flavor, undef, renaming, idf };
                    construct::construct(&mut g, &opts).unwrap();
                    let report = ssakit::verify::verify(&g)
                        .unwrap_or_else(|e| panic!("{opts:?}: invalid SSA: {:?}\n{}", e, ssakit::text::print_function(&g)));
                    prop_assert!(report.conventional(), "{:?}: not conventional", opts);
                    let phis = phi_set(&g);
                    match flavor {
                        Flavor::Minimal => prop_assert_eq!(&phis, &minimal),
                        Flavor::Pruned => {
                            prop_assert!(report.pruned(), "{:?}: dead phis {:?}", opts, report.dead_phis);
                            pruned_set = Some(phis.clone());
                        }
                        Flavor::SemiPruned => semi_set = Some(phis.clone()),
                    }
                    printed.push(ssakit::text::print_function(&g));
                    for (a, orig) in ARGS.iter().zip(&originals) {
                        let Some(o) = orig else { continue };
                        let t = run(&g, a, 50 * o.dyn_insts + 1000);
                        let t = t.unwrap_or_else(|e| panic!("{opts:?} on {a:?}: {e:?}"));
                        prop_assert!(
                            interp::outputs_match(o, &t),
                            "{:?} on {:?}: {:?}",
                            opts, a, interp::first_difference(o, &t)
                        );
                    }
                }
                prop_assert_eq!(&printed[0], &printed[1], "worklist+reachingDef and linear+stacks differ");
                prop_assert_eq!(&printed[0], &printed[2], "worklist and linear IDF differ");
            }
        }
        let (pr, se) = (pruned_set.unwrap(), semi_set.unwrap());
        let (pr, se, mi): (BTreeSet<_>, BTreeSet<_>, BTreeSet<_>) =
            (pr.into_iter().collect(), se.into_iter().collect(), minimal.into_iter().collect());
        prop_assert!(pr.is_subset(&se), "pruned ⊄ semi-pruned");
        prop_assert!(se.is_subset(&mi), "semi-pruned ⊄ minimal");
    }
}

/// A failing property test does not rewrite the tracked
/// `.proptest-regressions` file beside it (proptest appended the failing
/// seed there): [`common::config`] replays the seeds of the tracked file
/// and saves a new failure under `target/tmp`.
#[test]
fn failures_leave_the_tracked_regressions_file_alone() {
    use proptest::test_runner::{TestCaseError, TestRunner};
    let fail = |source: &'static str| {
        let mut config = common::config(4);
        config.source_file = Some(source);
        let result =
            TestRunner::new(config).run(&any::<u8>(), |_| Err(TestCaseError::fail("planted")));
        assert!(result.is_err());
    };
    // This file's tracked seeds are read (a failing replay ends the run).
    let tracked = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/tests/construct_props.proptest-regressions"
    );
    let before = std::fs::read(tracked).unwrap();
    assert!(String::from_utf8_lossy(&before).contains("\ncc "));
    fail(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/tests/construct_props.rs"
    ));
    assert_eq!(std::fs::read(tracked).unwrap(), before);
    // A test without a regressions file gets none: its seed goes to target/tmp.
    let beside = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/planted_failure.proptest-regressions"
    );
    let saved = format!(
        "{}/proptest-regressions/planted_failure.proptest-regressions",
        common::tmp_dir()
    );
    let _ = std::fs::remove_file(&saved);
    fail(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/planted_failure.rs"
    ));
    let created = std::path::Path::new(beside).exists();
    let _ = std::fs::remove_file(beside);
    assert!(!created, "{beside} written");
    assert!(std::fs::read_to_string(saved).unwrap().contains("\ncc "));
}
