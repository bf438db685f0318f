//! Property tests of the SSA optimisations on thousands of random programs
//! (any CFG shape, uses before definitions, divisions that may trap):
//! construct SSA in each flavour, run pass lists (each pass alone, the
//! classic combinations, and random lists with repeats), then
//!
//! * the result verifies (valid SSA with the dominance property);
//! * it computes what the original program computes: same printed lines,
//!   return value and external calls, an `undef` of the original matching
//!   anything (programs that fail or run out of fuel are skipped);
//! * each pass leaves what it promises: no copy of a variable or trivial
//!   phi after `copy-prop`, pruned SSA and no unused result after `dce`, no
//!   foldable operation or constant branch after `const-prop`, no
//!   constant branch after `fold`; and running
//!   the pass a second time changes nothing;
//! * translated out of SSA by `destruct` (with critical edges split
//!   or not), it still computes the same.

use super::common;

use common::random_program::{program, run, Program, ARGS, FUEL};
use proptest::prelude::*;
use ssakit::construct::{self, Flavor, Options, UndefMode};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::interp::{self, ErrorKind, Outcome};
use ssakit::ir::{BinOp, Function, Inst, InstData, Operand, Terminator, Var};
use ssakit::opt::{self, Pass, Stats};
use ssakit::text::print_function;

/// The random program, with the `k`-th binary instruction defining one of
/// its variables made a division when `divs[k] == 1` and a remainder when
/// `divs[k] == 2`, by whatever its right operand is: a runtime error
/// (division by 0 or `undef`) must stay the same error. (The generator's
/// own divisions never trap; its scratch instructions, such as the trip
/// counter's, are left alone so that the program still terminates.)
fn build(p: &Program, divs: &[u8]) -> Function {
    let mut f = p.build();
    let ordinary: Vec<Var> = (0..p.vars)
        .filter_map(|k| f.var_by_name(&format!("v{k}")))
        .collect();
    // The k-th such instruction in table order (the order the builder
    // created them).
    let mut k = 0;
    for i in (0..f.inst_slots()).map(Inst::new) {
        if let InstData::Binary { dst, lhs, rhs, .. } = *f.inst(i) {
            if !ordinary.contains(&dst) {
                continue;
            }
            let op = match divs.get(k) {
                Some(1) => Some(BinOp::Div),
                Some(2) => Some(BinOp::Rem),
                _ => None,
            };
            if let Some(op) = op {
                f.set_inst(i, InstData::Binary { dst, op, lhs, rhs });
            }
            k += 1;
        }
    }
    f
}

fn run_passes(f: &mut Function, passes: &[Pass]) -> Stats {
    let before = print_function(f);
    opt::run_passes(f, passes).unwrap_or_else(|e| panic!("{passes:?}: {e}\n{before}"))
}

/// What `pass` promises about its result.
fn check_postcondition(pass: Pass, f: &Function) -> Result<(), String> {
    let entry = f.entry();
    for &b in f.layout() {
        match pass {
            Pass::CopyProp => {
                for &i in f.block_insts(b) {
                    if let InstData::Copy {
                        src: Operand::Var(_),
                        ..
                    } = *f.inst(i)
                    {
                        return Err(format!("copy left: {:?}", *f.inst(i)));
                    }
                }
                for &i in f.block_phis(b) {
                    let dst = f.def(i).unwrap();
                    let mut others = f
                        .phi_args(i)
                        .iter()
                        .map(|a| a.value)
                        .filter(|&o| o != Operand::Var(dst));
                    let first = others.next();
                    if b != entry
                        && matches!(first, Some(Operand::Var(_)))
                        && others.all(|o| Some(o) == first)
                    {
                        return Err(format!("trivial phi left: {:?}", *f.inst(i)));
                    }
                }
            }
            Pass::Dce => {
                let report = ssakit::verify::verify(f).unwrap();
                if !report.pruned() {
                    return Err(format!("dead phis left: {:?}", report.dead_phis));
                }
                let mut used = vec![false; f.num_vars()];
                for &b in f.layout() {
                    for i in f.block_all_insts(b) {
                        f.for_each_use(i, |v| used[v.index()] = true);
                    }
                    f.for_each_term_use(b, |v| used[v.index()] = true);
                }
                for &i in f.block_insts(b) {
                    let mut dead = false;
                    f.for_each_def(i, |v| dead |= !used[v.index()]);
                    if dead && f.effects(i).removable_if_unused() {
                        return Err(format!("unused result left: {:?}", f.inst(i)));
                    }
                }
            }
            Pass::ConstProp => {
                for &i in f.block_insts(b) {
                    let foldable = match f.inst(i) {
                        InstData::Unary {
                            arg: Operand::Const(_),
                            ..
                        } => true,
                        InstData::Binary {
                            op,
                            lhs: Operand::Const(a),
                            rhs: Operand::Const(c),
                            ..
                        } => op.eval(*a, *c).is_some(),
                        InstData::Copy {
                            src: Operand::Const(_),
                            ..
                        } => true,
                        _ => false,
                    };
                    if foldable {
                        return Err(format!("foldable instruction left: {:?}", *f.inst(i)));
                    }
                }
                if let Terminator::Branch {
                    cond: Operand::Const(_),
                    ..
                }
                | Terminator::Switch {
                    value: Operand::Const(_),
                    ..
                } = *f.term(b)
                {
                    return Err(format!("constant branch left: {:?}", f.term(b)));
                }
            }
            Pass::Fold => {
                if let Terminator::Branch {
                    cond: Operand::Const(_),
                    then_dest,
                    else_dest,
                } = *f.term(b)
                {
                    if then_dest != else_dest {
                        return Err(format!("constant branch left: {:?}", f.term(b)));
                    }
                }
            }
        }
    }
    Ok(())
}

fn pass_list() -> impl Strategy<Value = Vec<Pass>> {
    prop::collection::vec(prop::sample::select(Pass::ALL.to_vec()), 1..=6)
}

fn undef_mode() -> impl Strategy<Value = UndefMode> {
    prop::sample::select(vec![
        UndefMode::Operand,
        UndefMode::EntryDef,
        UndefMode::Local,
    ])
}

/// Constructs `f` in every flavour, runs each pass list on it and checks
/// the result (see the module documentation).
fn check_program(f: &Function, undef: UndefMode, random: Vec<Pass>) -> Result<(), TestCaseError> {
    let originals: Vec<Result<Outcome, ErrorKind>> = ARGS.iter().map(|a| run(f, a, FUEL)).collect();
    let mut lists: Vec<Vec<Pass>> = Pass::ALL.iter().map(|&p| vec![p]).collect();
    for l in [
        "copy-prop,dce",
        "const-prop,copy-prop,dce",
        "dce,const-prop,dce",
    ] {
        lists.push(Pass::parse(l).unwrap());
    }
    lists.push(random);
    for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
        let mut ssa = f.clone();
        let opts = Options {
            flavor,
            undef,
            ..Default::default()
        };
        construct::construct(&mut ssa, &opts).unwrap();
        for passes in &lists {
            let mut g = ssa.clone();
            run_passes(&mut g, passes);
            if let Err(e) = ssakit::verify::verify(&g) {
                panic!(
                    "{opts:?} {passes:?}: invalid SSA: {e:?}\n{}\n--- from\n{}",
                    print_function(&g),
                    print_function(&ssa)
                );
            }
            if let [pass] = passes[..] {
                if let Err(e) = check_postcondition(pass, &g) {
                    panic!("{opts:?} {pass}: {e}\n{}", print_function(&g));
                }
                let once = print_function(&g);
                run_passes(&mut g, passes);
                prop_assert_eq!(
                    &once,
                    &print_function(&g),
                    "{:?} {}: not idempotent",
                    opts,
                    pass
                );
            }
            let mut destructed: Option<Function> = None;
            let split = passes.len() % 2 == 0;
            for (a, orig) in ARGS.iter().zip(&originals) {
                let show = || format!("{}\n--- from\n{}", print_function(&g), print_function(&ssa));
                match orig {
                    Ok(o) => {
                        let t = run(&g, a, 100 * o.dyn_insts + 1000).unwrap_or_else(|e| {
                            panic!("{opts:?} {passes:?} on {a:?}: {e:?}\n{}", show())
                        });
                        prop_assert!(
                            interp::outputs_match(o, &t),
                            "{:?} {:?} on {:?}: {:?}\n{}",
                            opts,
                            passes,
                            a,
                            interp::first_difference(o, &t),
                            show()
                        );
                        // And out of SSA: the optimised SSA is usually not
                        // conventional any more.
                        let d = destructed.get_or_insert_with(|| {
                            let mut d = g.clone();
                            destruct(
                                &mut d,
                                &DestructOptions {
                                    split,
                                    coalesce: split,
                                    conventional: false,
                                },
                            )
                            .unwrap();
                            d
                        });
                        let t = run(d, a, 100 * o.dyn_insts + 1000).unwrap_or_else(|e| {
                            panic!("{opts:?} {passes:?} destructed on {a:?}: {e:?}\n{}", show())
                        });
                        prop_assert!(
                            interp::outputs_match(o, &t),
                            "{:?} {:?} destructed (split: {}) on {:?}: {:?}\n{}\n--- from\n{}",
                            opts,
                            passes,
                            split,
                            a,
                            interp::first_difference(o, &t),
                            print_function(d),
                            show()
                        );
                    }
                    // Nothing is refined, so a runtime error (division
                    // by zero, branch on undef) stays the same error.
                    Err(ErrorKind::OutOfFuel { .. }) => {}
                    Err(kind) => {
                        let t = run(&g, a, 500_000);
                        prop_assert_eq!(
                            t.as_ref().err(),
                            Some(kind),
                            "{:?} {:?} on {:?}\n{}",
                            opts,
                            passes,
                            a,
                            show()
                        );
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::config(5000))]

    #[test]
    fn passes_preserve_ssa_and_behaviour(
        p in program(9, 4),
        divs in prop::collection::vec(0u8..12, 0..24),
        undef in undef_mode(),
        random in pass_list(),
    ) {
        check_program(&build(&p, &divs), undef, random)?;
    }
}

proptest! {
    #![proptest_config(common::config(300))]

    #[test]
    fn passes_preserve_ssa_and_behaviour_on_bigger_programs(
        p in program(30, 8),
        divs in prop::collection::vec(0u8..16, 0..100),
        undef in undef_mode(),
        random in pass_list(),
    ) {
        check_program(&build(&p, &divs), undef, random)?;
    }
}
