//! The construction trace tells the truth in every flavour: the blocks
//! the phi-insertion table says received a phi for a variable (the
//! `inserted` cells of its rows, and F after the last step) are exactly
//! the blocks holding a phi of that variable, both between the two phases
//! (`x = phi(...)`, names still the original's) and after renaming (a
//! version of `x`). The trace goldens check the unpruned flavours only: a
//! phi reported `placed` before pruned SSA's liveness check, a block where
//! the variable is dead and gets no phi, passed them all (issue 46, item
//! 17). On the chapter's example and on generated programs (any CFG), for
//! every variable, flavour and DF⁺ method.

mod common;

use common::example;
use common::random_program::program;
use proptest::prelude::*;
use ssakit::construct::{construct_observed, Flavor, Idf, Options};
use ssakit::ir::{Block, Function, InstData};
use ssakit::text::parse_module;
use std::collections::BTreeSet;

/// The blocks holding a phi whose destination `named` accepts.
fn phi_blocks(f: &Function, named: impl Fn(ssakit::ir::Var) -> bool) -> BTreeSet<Block> {
    f.layout()
        .iter()
        .copied()
        .filter(|&b| {
            f.block_phis(b)
                .iter()
                .any(|&i| matches!(f.inst(i), InstData::Phi { dst, .. } if named(*dst)))
        })
        .collect()
}

/// Checks every variable of `f` in every flavour and DF⁺ method; the
/// first disagreement, described.
fn check(f: &Function) -> Result<(), String> {
    let names: Vec<String> = f.vars().map(|v| f.base_name(v).to_string()).collect();
    for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
        for idf in [Idf::Worklist, Idf::Linear] {
            let opts = Options {
                flavor,
                idf,
                ..Default::default()
            };
            for name in &names {
                let mut g = f.clone();
                let mut between = BTreeSet::new();
                let (_, trace) = construct_observed(&mut g, &opts, Some(name), &mut |h| {
                    let v = h.var_by_name(name).unwrap();
                    between = phi_blocks(h, |d| d == v);
                })
                .map_err(|e| format!("{name}: {}", e.describe(&g)))?;
                let trace = trace.expect("a trace was asked for");
                let after = phi_blocks(&g, |d| g.base_name(d) == name.as_str());
                let mut inserted = BTreeSet::new();
                for row in &trace.insert {
                    assert_eq!(row.inserted.len(), row.inserted_len, "a small program");
                    inserted.extend(row.inserted.iter().copied());
                }
                let last_f: BTreeSet<Block> = trace
                    .insert
                    .last()
                    .map(|r| r.f.iter().copied().collect())
                    .unwrap_or_default();
                let blocks = |s: &BTreeSet<Block>| {
                    s.iter()
                        .map(|&b| g.block_name(b).to_string())
                        .collect::<Vec<_>>()
                };
                let what = format!("{flavor:?}, {idf:?}, variable {name}");
                if inserted != between || inserted != after {
                    return Err(format!(
                        "{what}: the trace says phis at {:?}, the function has them at {:?} \
                         (after renaming {:?})",
                        blocks(&inserted),
                        blocks(&between),
                        blocks(&after)
                    ));
                }
                if last_f != inserted {
                    return Err(format!(
                        "{what}: F = {:?}, the phis placed {:?}",
                        blocks(&last_f),
                        blocks(&inserted)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The chapter's running example: in pruned SSA `tmp` and `y` at E get
/// no phi (dead there), and the trace must not say they did.
#[test]
fn the_trace_of_the_seed_names_the_blocks_given_phis() {
    let m = parse_module(&example("seed.ssa")).unwrap();
    check(&m.functions[0]).unwrap();
}

proptest! {
    #![proptest_config(common::config(1000))]

    #[test]
    fn the_trace_names_the_blocks_given_phis(p in program(12, 4)) {
        let f = p.build();
        if let Err(e) = check(&f) {
            return Err(TestCaseError::fail(format!("{e}\n{}", ssakit::text::print_function(&f))));
        }
    }
}
