//! The def-use API ([`ssakit::analysis::def_use`]) against brute-force
//! oracles straight from the definitions, on thousands of random programs
//! put into SSA form in every flavour:
//!
//! * definitions and uses: every instruction and terminator of the layout
//!   scanned, its operands counted by hand;
//! * reaching definitions: from each point, every path searched backwards
//!   for the last definition of a version of the variable (⊥ where a path
//!   reaches the start of the function without one). In minimal SSA every
//!   point but the entry of a block with phis sees exactly one, the answer;
//!   in every flavour, a point that sees one sees the answer, and every use
//!   reads the version that reaches it;
//!
//! and by hand on the chapter's running example (`examples/seed.ssa`).

use super::common;

use common::random_program::program;
use proptest::prelude::*;
use ssakit::analysis::def_use::{At, DefUse, Definition, ReachingDefs, Use};
use ssakit::construct::{self, Flavor, Options, UndefMode};
use ssakit::ir::{Block, Cfg, Function, Inst, InstData, Operand, Terminator, Var, VarNames};
use ssakit::opt::Pass;
use std::collections::BTreeSet;

/// The operands of `i`, by matching its kind (not through the visitor the
/// library uses).
fn operands(f: &Function, i: Inst) -> Vec<Operand> {
    match f.inst(i) {
        InstData::Copy { src, .. } => vec![*src],
        InstData::Unary { arg, .. } => vec![*arg],
        InstData::Binary { lhs, rhs, .. } => vec![*lhs, *rhs],
        InstData::Call { args, .. } | InstData::Print { args } | InstData::Op { args, .. } => {
            args.as_slice(f).to_vec()
        }
        InstData::Phi { args, .. } => args.as_slice(f).iter().map(|a| a.value).collect(),
        InstData::ParCopy { copies } => copies.as_slice(f).iter().map(|c| c.1).collect(),
    }
}

/// The variables `i` defines, in order.
fn results(f: &Function, i: Inst) -> Vec<Var> {
    match f.inst(i) {
        InstData::Copy { dst, .. }
        | InstData::Unary { dst, .. }
        | InstData::Binary { dst, .. }
        | InstData::Phi { dst, .. } => vec![*dst],
        InstData::Call { results, .. } | InstData::Op { results, .. } => {
            results.as_slice(f).to_vec()
        }
        InstData::Print { .. } => vec![],
        InstData::ParCopy { copies } => copies.as_slice(f).iter().map(|c| c.0).collect(),
    }
}

fn term_operands(f: &Function, b: Block) -> Vec<Operand> {
    match f.term(b) {
        Terminator::Branch { cond, .. } => vec![*cond],
        Terminator::Switch { value, .. } => vec![*value],
        Terminator::Ret(vals) => vals.as_slice(f).to_vec(),
        Terminator::Jump(_) | Terminator::Unreachable => vec![],
    }
}

/// Definitions and uses of every variable by scanning the whole function.
fn brute_def_use(f: &Function) -> (Vec<Option<Definition>>, Vec<Vec<Use>>) {
    let mut defs = vec![None; f.num_vars()];
    let mut uses = vec![Vec::new(); f.num_vars()];
    for (index, &p) in f.params().iter().enumerate() {
        defs[p.index()] = Some(Definition::Param {
            block: f.entry(),
            index: index as u32,
        });
    }
    for &block in f.layout() {
        for &inst in f.block_phis(block) {
            defs[f.def(inst).unwrap().index()] = Some(Definition::Phi { inst, block });
            for (k, a) in f.phi_args(inst).iter().enumerate() {
                if let Operand::Var(v) = a.value {
                    uses[v.index()].push(Use::Phi {
                        inst,
                        block,
                        pred: a.block,
                        index: k as u32,
                    });
                }
            }
        }
        for &inst in f.block_insts(block) {
            for (k, v) in results(f, inst).into_iter().enumerate() {
                defs[v.index()] = Some(Definition::Inst {
                    inst,
                    block,
                    result: k as u32,
                });
            }
            for (k, o) in operands(f, inst).into_iter().enumerate() {
                if let Operand::Var(v) = o {
                    uses[v.index()].push(Use::Operand {
                        inst,
                        block,
                        index: k as u32,
                    });
                }
            }
        }
        for o in term_operands(f, block) {
            if let Operand::Var(v) = o {
                uses[v.index()].push(Use::Term { block });
            }
        }
    }
    (defs, uses)
}

/// Blocks reachable from the entry.
fn reachable(f: &Function, cfg: &Cfg) -> Vec<bool> {
    let mut seen = vec![false; f.num_blocks()];
    let mut work = vec![f.entry()];
    seen[f.entry().index()] = true;
    while let Some(b) = work.pop() {
        for &s in cfg.succs(b) {
            if !seen[s.index()] {
                seen[s.index()] = true;
                work.push(s);
            }
        }
    }
    seen
}

/// The last definitions of versions of `x` on the paths from the entry to
/// `at`, found by searching every path backwards; `None` stands for ⊥ (a
/// path from the start of the function with no definition).
fn brute_reaching(f: &Function, cfg: &Cfg, live: &[bool], x: Var, at: At) -> BTreeSet<Option<Var>> {
    let preds = |b: Block| -> Vec<Block> {
        f.layout()
            .iter()
            .copied()
            .filter(|&p| live[p.index()] && cfg.succs(p).contains(&b))
            .collect()
    };
    // The instructions of `b` before the point, phis first, newest last.
    let before = |b: Block, at: Option<Inst>| -> Vec<Inst> {
        let mut out: Vec<Inst> = Vec::new();
        if at.is_some_and(|i| f.block_phis(b).contains(&i)) {
            return out;
        }
        out.extend(f.block_phis(b));
        for &i in f.block_insts(b) {
            if Some(i) == at {
                break;
            }
            out.push(i);
        }
        out
    };
    let mut found = BTreeSet::new();
    let mut seen = vec![false; f.num_blocks()];
    let (start, first) = match at {
        At::Before(i) => (f.inst_block(i).unwrap(), Some(i)),
        At::End(b) => (b, None),
    };
    let mut work = vec![(start, first)];
    while let Some((b, at)) = work.pop() {
        let last = before(b, at)
            .into_iter()
            .rev()
            .find_map(|i| results(f, i).into_iter().find(|&v| f.original(v) == x));
        if let Some(v) = last {
            found.insert(Some(v));
            continue;
        }
        if b == f.entry() {
            let p = f.params().iter().copied().find(|&p| f.original(p) == x);
            found.insert(p);
        }
        for p in preds(b) {
            if !seen[p.index()] {
                seen[p.index()] = true;
                work.push((p, None));
            }
        }
    }
    found
}

/// Every point of the reachable blocks.
fn points(f: &Function, live: &[bool]) -> Vec<At> {
    let mut out = Vec::new();
    for &b in f.layout().iter().filter(|b| live[b.index()]) {
        out.extend(f.block_all_insts(b).map(At::Before));
        out.push(At::End(b));
    }
    out
}

/// Definitions and uses against [`brute_def_use`].
fn check_def_use(f: &Function) -> Result<(), TestCaseError> {
    let text = || ssakit::text::print_function(f);
    let du = DefUse::new(f).unwrap();
    let (defs, uses) = brute_def_use(f);
    for v in f.vars() {
        prop_assert_eq!(du.definition(v), defs[v.index()], "{}\n{}", v, text());
        let got: Vec<Use> = du.uses(v).collect();
        prop_assert_eq!(&got, &uses[v.index()], "{}\n{}", v, text());
        prop_assert_eq!(du.uses(v).len(), uses[v.index()].len());
    }
    Ok(())
}

/// Reaching definitions against [`brute_reaching`], and every use against
/// the version reaching it.
fn check_reaching(f: &Function, originals: &[Var], minimal: bool) -> Result<(), TestCaseError> {
    let text = || ssakit::text::print_function(f);
    let du = DefUse::new(f).unwrap();
    let rd = ReachingDefs::new(f);
    let cfg = Cfg::new(f);
    let live = reachable(f, &cfg);
    for at in points(f, &live) {
        let at_phi = matches!(at, At::Before(i) if f.inst(i).is_phi());
        for &x in originals {
            let got = rd.reaching_def(x, at);
            let want = brute_reaching(f, &cfg, &live, x, at);
            if minimal && !at_phi {
                prop_assert_eq!(want.len(), 1, "{} at {:?}: {:?}\n{}", x, at, want, text());
            }
            if want.len() == 1 {
                prop_assert_eq!(Some(&got), want.first(), "{} at {:?}\n{}", x, at, text());
            }
            // A version asked for gives the same answer as its original.
            if let Some(v) = got {
                prop_assert_eq!(rd.reaching_def(v, at), got);
            }
        }
    }
    // Every use reads the version that reaches it.
    for v in f.vars() {
        for u in du.uses(v) {
            let at = match u {
                Use::Operand { inst, .. } => At::Before(inst),
                Use::Phi { pred, .. } => At::End(pred),
                Use::Term { block } => At::End(block),
            };
            let reads = match u {
                Use::Phi { block, pred, .. } => live[block.index()] && live[pred.index()],
                Use::Operand { block, .. } | Use::Term { block } => live[block.index()],
            };
            if reads {
                prop_assert_eq!(
                    rd.reaching_def(v, at),
                    Some(v),
                    "{} at {:?}\n{}",
                    v,
                    at,
                    text()
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::config(400))]

    #[test]
    fn def_use_and_reaching_defs_match_brute_force(p in program(7, 4)) {
        let f = p.build();
        let originals: Vec<Var> = f.vars().collect();
        for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
            for undef in [UndefMode::Operand, UndefMode::EntryDef, UndefMode::Local] {
                let mut g = f.clone();
                let opts = Options { flavor, undef, ..Options::default() };
                construct::construct(&mut g, &opts).unwrap();
                // Local ⊥ definitions join other versions without a phi.
                let minimal = flavor == Flavor::Minimal && undef != UndefMode::Local;
                check_def_use(&g)?;
                check_reaching(&g, &originals, minimal)?;
            }
        }
        // After the optimisations, which delete, fold and rewire.
        let mut g = f.clone();
        construct::construct(&mut g, &Options::default()).unwrap();
        ssakit::opt::run_passes(&mut g, &[Pass::CopyProp, Pass::ConstProp, Pass::Dce]).unwrap();
        check_def_use(&g)?;
    }
}

/// The chapter's example in minimal SSA (`ssakit construct
/// examples/seed.ssa`): where does the `x` that `E` returns come from?
///
/// ```text
/// A:  x1 = phi(r: undef, D: x5)   y1 = phi(r: undef, D: y4)
/// B:  y2 = 0   x2 = 0
/// C:  tmp2 = x1   x3 = y1   y3 = tmp2
/// D:  x4 = phi(B: x2, C: x3)   y4 = phi(B: y2, C: y3)   x5 = f(x4, y4)
/// E:  x6 = phi(C: x3, D: x5)   ret x6
/// ```
#[test]
fn seed_where_x_comes_from_at_e() {
    let src = common::example("seed.ssa");
    let mut f = ssakit::text::parse_module(&src)
        .unwrap()
        .functions
        .remove(0);
    construct::construct(&mut f, &Options::default()).unwrap();
    let names = VarNames::new(&f);
    let block = |s: &str| f.block_by_name(s).unwrap();
    let var = |s: &str| f.vars().find(|&v| names[v] == *s).unwrap();
    let (x, y) = (f.var_by_name("x").unwrap(), f.var_by_name("y").unwrap());
    let rd = ReachingDefs::new(&f);
    let du = DefUse::new(&f).unwrap();

    // At the end of E, x is x6, the phi of E.
    let x6 = rd.reaching_def(x, At::End(block("E"))).unwrap();
    assert_eq!(names[x6], *"x6");
    let Some(Definition::Phi {
        inst: phi,
        block: e,
    }) = du.definition(x6)
    else {
        panic!("x6 is a phi")
    };
    assert_eq!(e, block("E"));
    let args: Vec<(&str, &str)> = f
        .phi_args(phi)
        .iter()
        .map(|a| match a.value {
            Operand::Var(v) => (f.block_name(a.block), names.get(v)),
            _ => panic!("a variable"),
        })
        .collect();
    assert_eq!(args, [("C", "x3"), ("D", "x5")]);
    // Each operand is the version reaching the end of its predecessor.
    assert_eq!(rd.reaching_def(x, At::End(block("C"))), Some(var("x3")));
    assert_eq!(rd.reaching_def(x, At::End(block("D"))), Some(var("x5")));
    // x3 = y1 in C, x5 = f(x4, y4) in D.
    let c_insts = f.block_insts(block("C"));
    assert_eq!(
        du.definition(var("x3")),
        Some(Definition::Inst {
            inst: c_insts[1],
            block: block("C"),
            result: 0
        })
    );
    assert_eq!(du.definition(var("x5")).unwrap().block(), block("D"));
    // Before `x3 = y1`, x is still x1 (the phi of A) and y is y1.
    assert_eq!(rd.reaching_def(x, At::Before(c_insts[1])), Some(var("x1")));
    assert_eq!(rd.reaching_def(y, At::Before(c_insts[1])), Some(var("y1")));
    // x5 flows into the phis of A (from D) and E (from D).
    let uses: Vec<(&str, Option<&str>)> = du
        .uses(var("x5"))
        .map(|u| match u {
            Use::Phi { block, pred, .. } => (f.block_name(block), Some(f.block_name(pred))),
            Use::Operand { block, .. } | Use::Term { block } => (f.block_name(block), None),
        })
        .collect();
    assert_eq!(uses, [("A", Some("D")), ("E", Some("D"))]);
    // On the path r -> A, nothing defines x: x at the end of r is ⊥.
    assert_eq!(rd.reaching_def(x, At::End(block("r"))), None);
}

/// A phi of 100,000 operands costs what it has operands: one use each,
/// found in one pass.
#[test]
fn wide_phi_is_linear() {
    let n = 100_000;
    let mut src = String::from("function f(a) {\ne:\n    switch a, j, [");
    for k in 0..n {
        src.push_str(&format!("{}b{k}", if k > 0 { ", " } else { "" }));
    }
    src.push_str("]\n");
    for k in 0..n {
        src.push_str(&format!("b{k}:\n    jump j\n"));
    }
    src.push_str("j:\n    x = phi(e: a");
    for k in 0..n {
        src.push_str(&format!(", b{k}: a"));
    }
    src.push_str(")\n    ret x\n}\n");
    let f = ssakit::text::parse_module(&src)
        .unwrap()
        .functions
        .remove(0);
    let a = f.params()[0];
    let start = std::time::Instant::now();
    let du = DefUse::new(&f).unwrap();
    assert_eq!(du.uses(a).len(), n + 2); // the switch, then the phi's operands
    let x = f.var_by_name("x").unwrap();
    let j = f.block_by_name("j").unwrap();
    let from_last = du.uses(a).last().unwrap();
    assert!(
        matches!(from_last, Use::Phi { block, index, .. } if block == j && index as usize == n)
    );
    let rd = ReachingDefs::new(&f);
    assert_eq!(rd.reaching_def(x, At::End(j)), Some(x));
    assert_eq!(
        rd.reaching_def(a, At::End(f.block_by_name("b7").unwrap())),
        Some(a)
    );
    // Generous: a quadratic build would take minutes.
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
