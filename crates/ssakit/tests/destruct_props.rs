//! Property tests of out-of-SSA translation on thousands of random programs
//! (any CFG: irreducible loops, self loops, multi-edges, switches; uses
//! before definitions):
//!
//! random non-SSA program → construction (every flavour and ⊥ mode) → an
//! SSA-to-SSA transformation from [`TRANSFORMS`] → destruction (split or
//! not, coalescing or not, and the direct destruction of conventional SSA)
//! → no phi and no parallel copy is left, the printed program parses back,
//! and it computes what the SSA it came from computes, which computes what
//! the original computed (an `undef` matching any value). This runs in
//! release builds too (`.ci/run`), where destruction's own interference
//! oracle is compiled out.
//!
//! Freshly constructed SSA is conventional; copy propagation
//! ([`copy_propagate`], done here in the test) is what makes it
//! non-conventional (the lost-copy and swap problems appear exactly so), and
//! destruction must handle whatever it produces.

mod common;

use common::random_program::{program, run_module, ARGS, FUEL};
use proptest::prelude::*;
use ssakit::construct::{self, Flavor, Options, UndefMode};
use ssakit::destruct::{self, is_out_of_ssa, DestructOptions};
use ssakit::interp::{self, Outcome};
use ssakit::ir::{Function, InstData, Module, Operand};

/// An SSA-to-SSA transformation applied between construction and
/// destruction: it must keep the function valid SSA with the dominance
/// property and keep its meaning.
type Transform = (&'static str, fn(&mut Function));

/// The transformations tried before destruction, one line each.
const TRANSFORMS: &[Transform] = &[
    ("none", |_| {}),
    ("copy propagation (in this test)", copy_propagate),
    ("opt copy-prop", |f| opt(f, "copy-prop")),
    ("opt const-prop", |f| opt(f, "const-prop")),
    ("opt dce", |f| opt(f, "dce")),
    ("opt const-prop,copy-prop,dce", |f| {
        opt(f, "const-prop,copy-prop,dce")
    }),
];

fn opt(f: &mut Function, passes: &str) {
    let passes = ssakit::opt::Pass::parse(passes).unwrap();
    ssakit::opt::run_passes(f, &passes).unwrap();
}

/// Every destruction mode.
const MODES: [DestructOptions; 5] = [
    DestructOptions {
        split: true,
        coalesce: true,
        conventional: false,
    },
    DestructOptions {
        split: false,
        coalesce: true,
        conventional: false,
    },
    DestructOptions {
        split: true,
        coalesce: false,
        conventional: false,
    },
    DestructOptions {
        split: false,
        coalesce: false,
        conventional: false,
    },
    DestructOptions {
        split: false,
        coalesce: false,
        conventional: true,
    },
];

fn module(f: &Function) -> Module {
    Module {
        functions: vec![f.clone()],
    }
}

/// Copy propagation over SSA: for every copy `x = s` (`s` a variable, a
/// constant or `undef`), every use of `x` reads `s` instead (following
/// chains of copies) and the copy is deleted. Since `s` is defined before
/// `x` on every path, the dominance property is kept.
fn copy_propagate(f: &mut Function) {
    let mut repl: Vec<Option<Operand>> = vec![None; f.num_vars()];
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            if let InstData::Copy { dst, src } = *f.inst(i) {
                repl[dst.index()] = Some(src);
            }
        }
    }
    let resolve = |o: &mut Operand| {
        // In SSA, chains of copies are acyclic; the bound is only a guard.
        for _ in 0..repl.len() {
            match *o {
                Operand::Var(v) => match repl[v.index()] {
                    Some(next) => *o = next,
                    None => return,
                },
                _ => return,
            }
        }
    };
    for b in f.blocks() {
        f.retain_insts(b, |f, i| !matches!(f.inst(i), InstData::Copy { .. }));
        for i in f.block_all_insts(b).collect::<Vec<_>>() {
            f.for_each_operand_mut(i, resolve);
        }
        f.for_each_term_operand_mut(b, resolve);
    }
    f.compact();
}

/// Whether some phi of `f` has a constant operand.
fn has_constant_phi_operand(f: &Function) -> bool {
    f.layout().iter().any(|&b| {
        f.block_phis(b).iter().any(|&i| match f.inst(i) {
            InstData::Phi { args, .. } => args
                .as_slice(f)
                .iter()
                .any(|a| matches!(a.value, Operand::Const(_))),
            _ => false,
        })
    })
}

/// Destroys `ssa` with `opts` and checks the result against `ssa_runs`,
/// the runs of `ssa` itself (an `undef` of the SSA matching anything): an
/// oracle independent of destruction's own checks (its interference oracle
/// runs in debug builds only), and it blames destruction, not what came
/// before it.
fn check_destruction(
    ssa: &Function,
    what: &str,
    opts: &DestructOptions,
    ssa_runs: &[Option<Outcome>],
) -> Result<(), TestCaseError> {
    let mut g = ssa.clone();
    let res = destruct::destruct(&mut g, opts);
    if opts.conventional {
        if let Err(e) = res {
            // Refused: only SSA that is not conventional, or whose constant
            // phi operands cannot become copies at a branching predecessor.
            let report = ssakit::verify::verify(ssa).unwrap();
            prop_assert!(
                !report.conventional() || e.message.contains("constant phi operand"),
                "{}: conventional SSA refused: {}",
                what,
                e.message
            );
            return Ok(());
        }
    }
    let stats = res.map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    if opts.coalesce
        && !opts.conventional
        && !has_constant_phi_operand(ssa)
        && ssakit::verify::verify(ssa).unwrap().conventional()
    {
        // Conventional SSA coalesces back to its phi webs. (A constant
        // operand may need its copy: on an unsplit edge out of a block
        // whose terminator reads the phi's web.)
        prop_assert_eq!(
            stats.inserted_copies_left,
            0,
            "{}: copies from phis left\n{}",
            what,
            ssakit::text::print_function(ssa)
        );
    }
    prop_assert!(is_out_of_ssa(&g), "{}: phis or parallel copies left", what);
    if !opts.coalesce || opts.conventional {
        prop_assert_eq!(stats.coalescing, Default::default());
    }
    let text = ssakit::text::print_function(&g);
    let reparsed = ssakit::text::parse_module(&text)
        .map_err(|d| TestCaseError::fail(format!("{what}: {}\n{text}", d.message)))?;
    for (a, orig) in ARGS.iter().zip(ssa_runs) {
        let Some(o) = orig else { continue };
        let t = run_module(&reparsed, a, 50 * o.dyn_insts + 1000)
            .map_err(|e| TestCaseError::fail(format!("{what} on {a:?}: {e:?}\n{text}")))?;
        prop_assert!(
            interp::outputs_match(o, &t),
            "{} on {:?}: {:?}\n{}\n--- from\n{}",
            what,
            a,
            interp::first_difference(o, &t),
            text,
            ssakit::text::print_function(ssa)
        );
    }
    Ok(())
}

/// Every construction flavour and ⊥ mode, every transformation, every
/// destruction mode, on the program `p` builds.
fn check_program(p: &common::random_program::Program) -> Result<(), TestCaseError> {
    let f = p.build();
    let m = module(&f);
    let originals: Vec<Option<Outcome>> =
        ARGS.iter().map(|a| run_module(&m, a, FUEL).ok()).collect();
    for flavor in [Flavor::Minimal, Flavor::Pruned, Flavor::SemiPruned] {
        for undef in [UndefMode::Operand, UndefMode::EntryDef, UndefMode::Local] {
            let mut ssa = f.clone();
            let opts = Options {
                flavor,
                undef,
                ..Default::default()
            };
            construct::construct(&mut ssa, &opts).unwrap();
            for (name, transform) in TRANSFORMS {
                let mut t = ssa.clone();
                transform(&mut t);
                if let Err(e) = ssakit::verify::verify(&t) {
                    return Err(TestCaseError::fail(format!(
                        "{name} broke SSA: {e:?}\n{}",
                        ssakit::text::print_function(&t)
                    )));
                }
                // The transformed SSA computes what the original computes.
                let m = module(&t);
                let mut ssa_runs = Vec::new();
                for (a, orig) in ARGS.iter().zip(&originals) {
                    let Some(o) = orig else {
                        ssa_runs.push(None);
                        continue;
                    };
                    let r = run_module(&m, a, 50 * o.dyn_insts + 1000).map_err(|e| {
                        TestCaseError::fail(format!("{opts:?}, {name} on {a:?}: {e:?}"))
                    })?;
                    prop_assert!(
                        interp::outputs_match(o, &r),
                        "{:?}, {} on {:?}: {:?}\n{}",
                        opts,
                        name,
                        a,
                        interp::first_difference(o, &r),
                        ssakit::text::print_function(&t)
                    );
                    ssa_runs.push(Some(r));
                }
                for mode in &MODES {
                    let what = format!("{opts:?}, {name}, {mode:?}");
                    check_destruction(&t, &what, mode, &ssa_runs)?;
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::config(2000))]

    #[test]
    fn construct_transform_destruct_preserves_behaviour(p in program(9, 4)) {
        check_program(&p)?;
    }
}

proptest! {
    #![proptest_config(common::config(300))]

    /// Bigger programs: longer copy chains, more phis per block, bigger
    /// classes for the interference test.
    #[test]
    fn bigger_programs(p in program(20, 7)) {
        check_program(&p)?;
    }
}
