//! The verifier's minimality report against its definition, on thousands
//! of random programs: a phi is reported non-minimal exactly when its block
//! is not in DF⁺ (computed by brute force from the definition of dominance
//! frontiers) of its group's non-phi definitions, or when it is a second
//! phi of its group in one block. Groups are original variables when the
//! function knows them, phi webs otherwise (SSA read back from text).
//!
//! The report takes a shortcut (phis shown to be in DF⁺ by their operands
//! alone, full DF⁺ only for the others); the cases here exercise both
//! paths: SSA from every flavour, the same read back from text, after
//! optimisation, and with extra phis added that are usually not minimal.

use super::common;

use common::random_program::program;
use proptest::prelude::*;
use ssakit::analysis::brute;
use ssakit::construct::{self, Flavor, Options};
use ssakit::gen::Rng;
use ssakit::ir::{Block, Cfg, Function, Inst, InstData, Operand, PhiArg, Var};
use ssakit::union_find::UnionFind;

/// The report's definition, by brute force.
fn expected_non_minimal(f: &Function) -> Vec<Inst> {
    let mut webs = UnionFind::new(f.num_vars());
    for &b in f.layout() {
        for &i in f.block_phis(b) {
            if let InstData::Phi { dst, args } = f.inst(i) {
                for a in args.as_slice(f) {
                    if let Operand::Var(v) = a.value {
                        webs.union(dst.index(), v.index());
                    }
                }
            }
        }
    }
    let group = |v: Var, webs: &mut UnionFind| match f.var(v).origin() {
        Some(o) => o.index(),
        None => webs.find(v.index()),
    };
    let n = f.num_vars();
    let mut defs: Vec<Vec<Block>> = vec![Vec::new(); n];
    let mut phis: Vec<Vec<(Block, Inst)>> = vec![Vec::new(); n];
    for &p in f.params() {
        defs[group(p, &mut webs)].push(f.entry());
    }
    for &b in f.layout() {
        for &i in f.block_phis(b) {
            let d = f.def(i).expect("a phi defines");
            phis[group(d, &mut webs)].push((b, i));
        }
        for &i in f.block_insts(b) {
            let mut ds = Vec::new();
            f.for_each_def(i, |d| ds.push(d));
            for d in ds {
                defs[group(d, &mut webs)].push(b);
            }
        }
    }
    let df = brute::dominance_frontiers(&Cfg::new(f));
    let mut out = Vec::new();
    for g in 0..n {
        let idf = brute::iterated_frontier(&df, &defs[g]);
        let mut seen: Vec<Block> = Vec::new();
        for &(b, i) in &phis[g] {
            if !idf.contains(&b) || seen.contains(&b) {
                out.push(i);
            }
            seen.push(b);
        }
    }
    out.sort_unstable();
    out
}

fn check(f: &Function, what: &str) -> Result<(), TestCaseError> {
    let report = ssakit::verify::verify(f)
        .map_err(|e| TestCaseError::fail(format!("{what}: invalid SSA: {}", e[0].describe(f))))?;
    let mut got = report.non_minimal_phis.clone();
    got.sort_unstable();
    prop_assert_eq!(
        got,
        expected_non_minimal(f),
        "{}:\n{}",
        what,
        ssakit::text::print_function(f)
    );
    Ok(())
}

/// Adds phis that keep the program valid SSA: a phi of a parameter at a
/// block with predecessors (the parameter's definition dominates every
/// block), and a copy of an existing phi beside it (a second phi of its
/// group in that block).
fn add_phis(f: &mut Function, rng: &mut Rng) -> usize {
    let cfg = Cfg::new(f);
    let mut added = 0;
    for _ in 0..3 {
        let b = rng.pick(f.layout());
        let preds: Vec<Block> = cfg.unique_preds(b).collect();
        if preds.is_empty() {
            continue;
        }
        if rng.chance(1, 2) && !f.params().is_empty() {
            let p = rng.pick(f.params());
            let w = match f.var(p).origin() {
                Some(o) => f.new_version(o, 1000 + added as u32),
                None => f.new_version(p, 1000 + added as u32),
            };
            let args = f.list_from_iter(preds.iter().map(|&q| PhiArg {
                block: q,
                value: Operand::Var(p),
            }));
            f.push_inst(b, InstData::Phi { dst: w, args });
            added += 1;
        } else if let Some(&i) = f.block_phis(b).first() {
            let dst = f.def(i).unwrap();
            // The same operands, in a list of the new phi's own.
            let args = f.phi_args(i).to_vec();
            let args = f.list(&args);
            let w = f.new_version(dst, 2000 + added as u32);
            f.push_inst(b, InstData::Phi { dst: w, args });
            added += 1;
        }
    }
    added
}

proptest! {
    #![proptest_config(common::config(1500))]

    #[test]
    fn minimality_report_matches_its_definition(p in program(9, 4), seed in any::<u64>()) {
        let f = p.build();
        let mut rng = Rng::new(seed);
        for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
            let mut g = f.clone();
            construct::construct(&mut g, &Options { flavor, ..Default::default() })
                .expect("construction succeeds");
            check(&g, "constructed")?;
            let text = ssakit::text::print_function(&g);
            let read = ssakit::text::parse_module(&text).expect("printed SSA parses");
            check(&read.functions[0], "read back (groups are webs)")?;
            let mut o = g.clone();
            let passes = ssakit::opt::Pass::parse("copy-prop,dce").unwrap();
            ssakit::opt::run_passes(&mut o, &passes)
                .expect("optimisation succeeds");
            check(&o, "optimised")?;
            let mut m = g.clone();
            if add_phis(&mut m, &mut rng) > 0 {
                check(&m, "with phis added")?;
                let text = ssakit::text::print_function(&m);
                let read = ssakit::text::parse_module(&text).expect("printed SSA parses");
                check(&read.functions[0], "with phis added, read back")?;
            }
        }
    }
}
