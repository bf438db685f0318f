//! Coalescing checked from scratch, in release builds too: the names
//! `destruct` gives the SSA variables must never put two variables that
//! interfere under one name. Interference is recomputed here from its
//! definition on the SSA input, sharing nothing with `destruct`: liveness
//! by a round-robin data-flow fixpoint over the reachable blocks (a phi
//! operand is live at the end of its predecessor; phis and copies whose
//! results are never needed, which `destruct` deletes first, read nothing),
//! value labels by
//! following copies (`V(b) = V(a)` for `b = a`, one label per constant),
//! and two variables interfere when one is defined where the other is live
//! after the definition and their labels differ (Boissinot et al., CGO 2009,
//! section III-A; the chapter's section 13.6).
//!
//! The name of an SSA variable is read off the destructed program:
//! `destruct` keeps every instruction other than copies, parallel copies
//! and phis, in order in its block, and every terminator's operands, so
//! the `k`-th such instruction of a block in the SSA and in the result are
//! the same one, and their definitions and operands pair up. A variable
//! named two ways is an error too. (`destruct`'s own interference oracle,
//! in `destruct/coalesce/oracle.rs`, runs in debug builds only and reads the data
//! coalescing built.)

mod common;

use common::random_program::program;
use proptest::prelude::*;
use ssakit::construct::{self, Flavor, Options, UndefMode};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::ir::{Block, Cfg, Function, Inst, InstData, Operand, Var};
use ssakit::opt::{run_passes, Pass};
use ssakit::text::print_function;

/// The instructions of `b` that `destruct` keeps as they are.
fn kept(f: &Function, b: Block) -> Vec<Inst> {
    f.block_insts(b)
        .iter()
        .copied()
        .filter(|&i| !matches!(f.inst(i), InstData::Copy { .. } | InstData::ParCopy { .. }))
        .collect()
}

/// The name in `out` of each variable of `ssa` that a kept instruction or
/// a terminator defines or reads.
fn names(ssa: &Function, out: &Function) -> Result<Vec<Option<Var>>, String> {
    let mut name: Vec<Option<Var>> = vec![None; ssa.num_vars()];
    let mut pair = |x: Var, y: Var| match name[x.index()] {
        None => {
            name[x.index()] = Some(y);
            Ok(())
        }
        Some(z) if z == y => Ok(()),
        Some(z) => Err(format!("{x:?} is named both {z:?} and {y:?}")),
    };
    for &b in ssa.layout() {
        let (ks, ko) = (kept(ssa, b), kept(out, b));
        if ks.len() != ko.len() {
            return Err(format!(
                "block {b:?}: {} kept instructions, then {}",
                ks.len(),
                ko.len()
            ));
        }
        for (&i, &j) in ks.iter().zip(&ko) {
            let (mut ds, mut dt) = (Vec::new(), Vec::new());
            ssa.for_each_def(i, |v| ds.push(v));
            out.for_each_def(j, |v| dt.push(v));
            let (mut os, mut ot) = (Vec::new(), Vec::new());
            ssa.for_each_operand(i, |o| os.push(o));
            out.for_each_operand(j, |o| ot.push(o));
            if ds.len() != dt.len() || os.len() != ot.len() {
                return Err(format!("{:?} became {:?}", ssa.inst(i), out.inst(j)));
            }
            for (x, y) in ds.into_iter().zip(dt) {
                pair(x, y)?;
            }
            for (x, y) in os.into_iter().zip(ot) {
                if let (Operand::Var(x), Operand::Var(y)) = (x, y) {
                    pair(x, y)?;
                }
            }
        }
        let (mut os, mut ot) = (Vec::new(), Vec::new());
        ssa.for_each_term_operand(b, |o| os.push(o));
        out.for_each_term_operand(b, |o| ot.push(o));
        for (x, y) in os.into_iter().zip(ot) {
            if let (Operand::Var(x), Operand::Var(y)) = (x, y) {
                pair(x, y)?;
            }
        }
    }
    Ok(name)
}

/// Value labels: a variable's own index, that of the variable it copies
/// (transitively), or `num_vars + k` for the constant of index `k`.
fn labels(f: &Function) -> Vec<usize> {
    let n = f.num_vars();
    let mut src: Vec<Option<Operand>> = vec![None; n];
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            match f.inst(i) {
                InstData::Copy { dst, src: s } => src[dst.index()] = Some(*s),
                InstData::ParCopy { copies } => {
                    for &(d, s) in copies.as_slice(f) {
                        src[d.index()] = Some(s);
                    }
                }
                _ => {}
            }
        }
    }
    let mut consts: Vec<i64> = Vec::new();
    (0..n)
        .map(|v| {
            let mut cur = v;
            // In SSA, copy chains are acyclic; the bound is only a guard.
            for _ in 0..n {
                match src[cur] {
                    Some(Operand::Var(s)) => cur = s.index(),
                    Some(Operand::Const(c)) => {
                        let k = consts.iter().position(|&x| x == c).unwrap_or_else(|| {
                            consts.push(c);
                            consts.len() - 1
                        });
                        return n + k;
                    }
                    _ => break,
                }
            }
            cur
        })
        .collect()
}

/// Called at each definition with the variables it defines and the
/// variables live just after it.
type AtDef<'a> = dyn FnMut(&[Var], &[bool]) + 'a;

/// Whether `i` is a copy or a parallel copy.
fn is_copy(f: &Function, i: Inst) -> bool {
    matches!(f.inst(i), InstData::Copy { .. } | InstData::ParCopy { .. })
}

/// The `(destination, source)` pairs of a copy or parallel copy.
fn copies(f: &Function, i: Inst) -> Vec<(Var, Operand)> {
    match f.inst(i) {
        InstData::Copy { dst, src } => vec![(*dst, *src)],
        InstData::ParCopy { copies } => copies.as_slice(f).to_vec(),
        _ => Vec::new(),
    }
}

/// Checks that no two variables of `ssa` that interfere share a name.
fn check_interference(ssa: &Function, name: &[Option<Var>]) -> Result<(), String> {
    let n = ssa.num_vars();
    let cfg = Cfg::new(ssa);
    let nb = ssa.blocks().count();
    // Reachable blocks, from the entry.
    let mut reach = vec![false; nb];
    let mut stack = vec![ssa.entry()];
    reach[ssa.entry().index()] = true;
    let mut order = Vec::new();
    while let Some(b) = stack.pop() {
        order.push(b);
        for &s in cfg.succs(b) {
            if !reach[s.index()] {
                reach[s.index()] = true;
                stack.push(s);
            }
        }
    }
    // Needed variables: read by an instruction other than a copy or a phi,
    // or by a terminator, or copied into a needed one. `destruct` deletes
    // the other phis and copies first.
    let mut needed = vec![false; n];
    let mut moves: Vec<(Var, Var)> = Vec::new();
    for &b in &order {
        for i in ssa.block_all_insts(b) {
            match ssa.inst(i) {
                InstData::Phi { dst, args } => {
                    for a in args.as_slice(ssa) {
                        if let Operand::Var(v) = a.value {
                            moves.push((*dst, v));
                        }
                    }
                }
                _ => {
                    for (d, src) in copies(ssa, i) {
                        if let Operand::Var(v) = src {
                            moves.push((d, v));
                        }
                    }
                    if !is_copy(ssa, i) {
                        ssa.for_each_use(i, |v| needed[v.index()] = true);
                    }
                }
            }
        }
        ssa.for_each_term_use(b, |v| needed[v.index()] = true);
    }
    loop {
        let mut changed = false;
        for &(d, v) in &moves {
            if needed[d.index()] && !needed[v.index()] {
                needed[v.index()] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Operands of needed phis flowing out of each block, and needed phi
    // destinations.
    let mut phi_out: Vec<Vec<Var>> = vec![Vec::new(); nb];
    let mut phi_dsts: Vec<Vec<Var>> = vec![Vec::new(); nb];
    for &b in &order {
        for &i in ssa.block_phis(b) {
            let d = ssa.def(i).unwrap();
            if !needed[d.index()] {
                continue;
            }
            phi_dsts[b.index()].push(d);
            for a in ssa.phi_args(i) {
                if let Operand::Var(v) = a.value {
                    phi_out[a.block.index()].push(v);
                }
            }
        }
    }
    // Live at the top of each block (after its phis, phi destinations
    // excluded), to a fixpoint.
    let live_out = |b: Block, live_in: &[Vec<bool>]| -> Vec<bool> {
        let mut l = vec![false; n];
        for &s in cfg.succs(b) {
            for v in 0..n {
                l[v] |= live_in[s.index()][v];
            }
        }
        for &v in &phi_out[b.index()] {
            l[v.index()] = true;
        }
        l
    };
    let step = |b: Block, l: &mut Vec<bool>, at_def: &mut AtDef| {
        ssa.for_each_term_use(b, |v| l[v.index()] = true);
        for &i in ssa.block_insts(b).iter().rev() {
            let mut ds = Vec::new();
            if is_copy(ssa, i) {
                // Only the needed entries are kept.
                let cs: Vec<(Var, Operand)> = copies(ssa, i)
                    .into_iter()
                    .filter(|(d, _)| needed[d.index()])
                    .collect();
                ds.extend(cs.iter().map(|c| c.0));
                at_def(&ds, l);
                for d in &ds {
                    l[d.index()] = false;
                }
                for (_, src) in cs {
                    if let Operand::Var(v) = src {
                        l[v.index()] = true;
                    }
                }
                continue;
            }
            ssa.for_each_def(i, |v| ds.push(v));
            at_def(&ds, l);
            for d in ds {
                l[d.index()] = false;
            }
            ssa.for_each_use(i, |v| l[v.index()] = true);
        }
    };
    let mut live_in = vec![vec![false; n]; nb];
    loop {
        let mut changed = false;
        for &b in order.iter().rev() {
            let mut l = live_out(b, &live_in);
            step(b, &mut l, &mut |_, _| {});
            for &d in &phi_dsts[b.index()] {
                l[d.index()] = false;
            }
            if l != live_in[b.index()] {
                live_in[b.index()] = l;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let value = labels(ssa);
    let mut bad: Option<String> = None;
    let mut test = |ds: &[Var], live: &[bool], dead_ok: bool| {
        for &d in ds {
            if dead_ok && !live[d.index()] {
                continue;
            }
            for y in (0..n).filter(|&y| live[y] && y != d.index()) {
                let same = name[d.index()].is_some() && name[d.index()] == name[y];
                if same && value[d.index()] != value[y] && bad.is_none() {
                    bad = Some(format!(
                        "{d:?} and variable {y} share the name {:?} and interfere",
                        name[y]
                    ));
                }
            }
        }
    };
    for &b in &order {
        let mut l = live_out(b, &live_in);
        step(b, &mut l, &mut |ds, live| test(ds, live, false));
        // The needed phis (and the parameters of the entry) are defined
        // together at the top; a dead one writes nothing.
        let mut top = phi_dsts[b.index()].clone();
        if b == ssa.entry() {
            top.extend(ssa.params());
        }
        test(&top, &l, true);
    }
    match bad {
        Some(m) => Err(m),
        None => Ok(()),
    }
}

/// Constructs `p`'s function with `flavor`, applies `passes`, destroys it
/// with `opts` and checks the names of the result from scratch.
fn check(
    p: &common::random_program::Program,
    flavor: Flavor,
    passes: &str,
    opts: &DestructOptions,
) -> Result<(), TestCaseError> {
    let mut ssa = p.build();
    let copts = Options {
        flavor,
        undef: UndefMode::Operand,
        ..Default::default()
    };
    construct::construct(&mut ssa, &copts).unwrap();
    if !passes.is_empty() {
        run_passes(&mut ssa, &Pass::parse(passes).unwrap()).unwrap();
    }
    let mut out = ssa.clone();
    destruct(&mut out, opts).unwrap();
    let show = || {
        format!(
            "{flavor:?} {passes} {opts:?}\n{}\n--- became\n{}",
            print_function(&ssa),
            print_function(&out)
        )
    };
    let name = names(&ssa, &out).map_err(|e| TestCaseError::fail(format!("{e}\n{}", show())))?;
    check_interference(&ssa, &name).map_err(|e| TestCaseError::fail(format!("{e}\n{}", show())))
}

proptest! {
    #![proptest_config(common::config(1500))]

    #[test]
    fn coalesced_names_never_join_interfering_variables(p in program(9, 4)) {
        for flavor in [Flavor::Minimal, Flavor::Pruned] {
            for passes in ["", "copy-prop", "const-prop,copy-prop,dce"] {
                for (split, coalesce) in [(true, true), (false, true), (true, false)] {
                    let opts = DestructOptions { split, coalesce, conventional: false };
                    check(&p, flavor, passes, &opts)?;
                }
            }
        }
    }
}

/// The check itself catches what it is for: the lost-copy program, with
/// the loop's phi and the value it copies from put under one name.
#[test]
fn the_check_catches_a_shared_name_for_interfering_variables() {
    let src = common::example("lost_copy_source.ssa");
    let mut ssa = ssakit::text::parse_module(&src)
        .unwrap()
        .functions
        .remove(0);
    construct::construct(&mut ssa, &Options::default()).unwrap();
    run_passes(&mut ssa, &Pass::parse("copy-prop").unwrap()).unwrap();
    let mut out = ssa.clone();
    destruct(&mut out, &DestructOptions::default()).unwrap();
    let mut name = names(&ssa, &out).unwrap();
    check_interference(&ssa, &name).unwrap();
    // Name every variable alike: some pair interferes.
    let one = name.iter().flatten().next().copied();
    for n in name.iter_mut() {
        *n = one;
    }
    assert!(check_interference(&ssa, &name).is_err());
}
