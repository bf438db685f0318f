//! Virtualized copies against Method I, on thousands of random programs:
//! [`destruct`] decides coalescing with the copies around phis virtual
//! (Boissinot et al., CGO 2009, section IV-C) and materializes only those
//! of phi components that interfere; [`destruct_method_one`] inserts every
//! Method I copy first and coalesces them away (the baseline). Both must compute what the SSA computes, and the virtual path
//! must leave no more copies, statically or dynamically, nor create more
//! variables; on conventional SSA it must create none but the copies of
//! constant phi operands and the temporaries of cycles.
//!
//! random non-SSA program → construction (every flavour) → a
//! transformation (none: conventional; copy propagation and the whole
//! pipeline: the lost-copy and swap problems) → both destructions, split
//! and not.

mod common;

use common::random_program::{program, run_module, ARGS, FUEL};
use proptest::prelude::*;
use ssakit::construct::{self, Flavor, Options};
use ssakit::destruct::{destruct, destruct_method_one, DestructOptions, DestructStats};
use ssakit::interp::{self, Outcome};
use ssakit::ir::{Function, InstData, Module, Operand};

fn module(f: &Function) -> Module {
    Module {
        functions: vec![f.clone()],
    }
}

/// Operands of phis that are constants: each needs a materialized copy.
fn constant_phi_operands(f: &Function) -> usize {
    f.layout()
        .iter()
        .flat_map(|&b| f.block_phis(b))
        .map(|&i| match f.inst(i) {
            InstData::Phi { args, .. } => args
                .as_slice(f)
                .iter()
                .filter(|a| matches!(a.value, Operand::Const(_)))
                .count(),
            _ => 0,
        })
        .sum()
}

/// The destroyed function, its statistics, and its dynamic instruction
/// counts on [`ARGS`] (checked against `runs`, those of the SSA).
fn destroyed(
    ssa: &Function,
    what: &str,
    runs: &[Option<Outcome>],
    method_one: bool,
    opts: &DestructOptions,
) -> Result<(Function, DestructStats, Vec<u64>), TestCaseError> {
    let mut g = ssa.clone();
    let res = if method_one {
        destruct_method_one(&mut g, opts)
    } else {
        destruct(&mut g, opts)
    };
    let stats = res.map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    let m = module(&g);
    let mut dyns = Vec::new();
    for (a, orig) in ARGS.iter().zip(runs) {
        let Some(o) = orig else { continue };
        let t = run_module(&m, a, 50 * o.dyn_insts + 1000)
            .map_err(|e| TestCaseError::fail(format!("{what} on {a:?}: {e:?}")))?;
        prop_assert!(
            interp::outputs_match(o, &t),
            "{} (Method I: {}) on {:?}: {:?}\n{}",
            what,
            method_one,
            a,
            interp::first_difference(o, &t),
            ssakit::text::print_function(ssa)
        );
        dyns.push(t.dyn_insts);
    }
    Ok((g, stats, dyns))
}

fn check_program(p: &common::random_program::Program) -> Result<(), TestCaseError> {
    let f = p.build();
    for flavor in [Flavor::Minimal, Flavor::Pruned, Flavor::SemiPruned] {
        let mut ssa = f.clone();
        let opts = Options {
            flavor,
            ..Default::default()
        };
        construct::construct(&mut ssa, &opts).unwrap();
        for passes in ["", "copy-prop", "const-prop,copy-prop,dce"] {
            let mut t = ssa.clone();
            if !passes.is_empty() {
                let passes = ssakit::opt::Pass::parse(passes).unwrap();
                ssakit::opt::run_passes(&mut t, &passes).unwrap();
            }
            let m = module(&t);
            let runs: Vec<Option<Outcome>> =
                ARGS.iter().map(|a| run_module(&m, a, FUEL).ok()).collect();
            for split in [true, false] {
                let d = DestructOptions {
                    split,
                    ..Default::default()
                };
                let what = format!("{flavor:?}, passes `{passes}`, split {split}");
                let (gv, sv, dv) = destroyed(&t, &what, &runs, false, &d)?;
                let (gm, sm, dm) = destroyed(&t, &what, &runs, true, &d)?;
                let text = || ssakit::text::print_function(&t);
                prop_assert!(
                    sv.copies_remaining <= sm.copies_remaining,
                    "{}: {} copies virtualized, {} with Method I\n{}",
                    what,
                    sv.copies_remaining,
                    sm.copies_remaining,
                    text()
                );
                for (v, m) in dv.iter().zip(&dm) {
                    prop_assert!(v <= m, "{}: dynamic {} > {}\n{}", what, v, m, text());
                }
                prop_assert!(gv.num_vars() <= gm.num_vars(), "{}", what);
                // Same accounting: the copies Method I would insert (those
                // of dead phis aside: the virtual path deletes the phis
                // before any copy exists), the candidates.
                prop_assert_eq!(
                    sv.copies_inserted + sm.dead_copies_removed,
                    sm.copies_inserted + sv.dead_copies_removed,
                    "{}",
                    what
                );
                prop_assert_eq!(sv.coalescing.candidates, sm.coalescing.candidates);
                if passes.is_empty() && split {
                    // Conventional SSA: nothing materialized but constants
                    // (and the temporaries of cycles of parallel copies).
                    let made = gv.num_vars() - t.num_vars();
                    let expected = constant_phi_operands(&t) + sv.temporaries;
                    prop_assert_eq!(made, expected, "{}\n{}", what, text());
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::config(2000))]

    #[test]
    fn virtualized_copies_never_lose_to_method_one(p in program(9, 4)) {
        check_program(&p)?;
    }
}

proptest! {
    #![proptest_config(common::config(300))]

    /// Bigger programs: bigger phi components, more of them interfering.
    #[test]
    fn bigger_programs(p in program(20, 7)) {
        check_program(&p)?;
    }
}
