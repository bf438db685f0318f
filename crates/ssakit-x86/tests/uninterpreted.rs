//! The uninterpreted differential on machine code (issue 29, item 6): each
//! lifted function runs in the interpreter's [`Mode::Uninterpreted`] (an
//! instruction's results are a fixed hash of its mnemonic, address,
//! immediates and the registers and flags it reads; memory and calls take
//! part through the effect state and are traced) on three random register
//! inputs, before and after two pipelines (pruned SSA destructed; minimal
//! SSA through `copy-prop,const-prop,dce` then destructed). Results (the
//! registers `ret` reads), external calls and the trace of effects must
//! agree, `undef` of the original matching anything; a run that ends in an
//! error ends in the same one after; one out of fuel before is counted, not
//! compared. On the committed fixtures and `/usr/bin/ls` (skipped with a
//! message where absent); `SSAKIT_X86_DIFF_CORPUS` (paths separated by `:`)
//! adds binaries (`.ci/run` adds bash and sqlite3 when it could install
//! them), which must be there, as the fixtures must: one absent fails the
//! test.

mod support {
    pub mod corpus;
}

use ssakit::construct::{self, Flavor};
use ssakit::destruct::DestructOptions;
use ssakit::interp::{Interpreter, Mode};
use ssakit::ir::{Function, Type};
use ssakit::opt::Pass;
use ssakit::oracle::uninterpreted::{agree_uninterpreted, Agreement};
use ssakit::pipeline::Pipeline;
use ssakit_x86::binary::Binary;
use ssakit_x86::lift::lift;

const FUEL: u64 = 100_000;

#[derive(Default, Debug)]
struct Counts {
    functions: usize,
    runs: usize,
    out_of_fuel: usize,
    errors: usize,
    effects: usize,
}

/// The two pipelines the lifted function goes through.
fn pipelines(f: &Function) -> [(&'static str, Function); 2] {
    let mut pruned = Pipeline {
        destruct: Some(DestructOptions::default()),
        ..Default::default()
    };
    pruned.construct.flavor = Flavor::Pruned;
    let minimal = Pipeline {
        passes: Pass::parse("copy-prop,const-prop,dce").unwrap(),
        destruct: Some(DestructOptions::default()),
        ..Default::default()
    };
    let run = |p: &Pipeline| p.run(f.clone()).unwrap_or_else(|e| panic!("{e}")).func;
    [("pruned", run(&pruned)), ("minimal+passes", run(&minimal))]
}

/// Runs `f` and `g` on three random register inputs from `state`; the
/// first difference, described.
fn compare(f: &Function, g: &Function, state: &mut u64, counts: &mut Counts) -> Result<(), String> {
    let a = Interpreter::with_mode([f], Mode::Uninterpreted).map_err(|e| e.to_string())?;
    let b = Interpreter::with_mode([g], Mode::Uninterpreted).map_err(|e| e.to_string())?;
    for _ in 0..3 {
        let args: Vec<i64> = f
            .params()
            .iter()
            .map(|&p| {
                *state ^= *state << 13;
                *state ^= *state >> 7;
                *state ^= *state << 17;
                match f.var_type(p) {
                    Type::Bool => (*state & 1) as i64,
                    _ => *state as i64,
                }
            })
            .collect();
        counts.runs += 1;
        match agree_uninterpreted(&a, &b, 0, &args, FUEL) {
            Ok(Agreement::Compared { effects }) => counts.effects += effects,
            Ok(Agreement::OutOfFuel) => counts.out_of_fuel += 1,
            Ok(Agreement::SameError) => counts.errors += 1,
            Err(d) => return Err(d),
        }
    }
    Ok(())
}

/// Every function of the binary `entry` through both pipelines.
fn check_binary(entry: &support::corpus::Entry, counts: &mut Counts) {
    let Some(elf) = support::corpus::read(entry) else {
        return;
    };
    let path = &entry.path;
    let bin = Binary::parse(&elf).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for info in bin.functions() {
        let f = lift(&bin, info).func;
        counts.functions += 1;
        for (name, g) in pipelines(&f) {
            if let Err(d) = compare(&f, &g, &mut state, counts) {
                panic!(
                    "{path}: {} at {:#x}, {name}: {d}",
                    info.name, info.extent.start
                );
            }
        }
    }
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixture/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn lifted_machine_code_agrees_uninterpreted() {
    let paths = support::corpus::corpus(
        &["/usr/bin/ls"],
        &[fixture("fixture"), fixture("fixture-nopie")],
        "SSAKIT_X86_DIFF_CORPUS",
    );
    let mut counts = Counts::default();
    for p in &paths {
        check_binary(p, &mut counts);
        eprintln!("{}: {counts:?}", p.path);
    }
    assert!(counts.functions > 10 && counts.effects > 0, "{counts:?}");
    assert!(counts.runs > 4 * counts.out_of_fuel, "{counts:?}");
}

/// The oracle can fail: a renaming fault (each phi's first two operands
/// exchanged between their predecessors, as a renamer that mixed up the
/// order of a block's predecessors would leave them) is caught on some
/// fixture functions (run in SSA form), while the faithful pipelines above
/// agree.
#[test]
fn a_renaming_fault_is_caught_on_machine_code() {
    let elf = std::fs::read(fixture("fixture")).unwrap();
    let bin = Binary::parse(&elf).unwrap();
    let mut caught = Vec::new();
    let mut counts = Counts::default();
    let mut state = 1u64;
    for info in bin.functions() {
        let f = lift(&bin, info).func;
        let mut s = f.clone();
        let opts = construct::Options {
            flavor: Flavor::Pruned,
            ..Default::default()
        };
        construct::construct(&mut s, &opts).unwrap();
        for b in s.layout().to_vec() {
            for i in s.block_phis(b).to_vec() {
                let args = s.phi_args_mut(i);
                if args.len() >= 2 {
                    let v = args[0].value;
                    args[0].value = args[1].value;
                    args[1].value = v;
                }
            }
        }
        // Not destructed: `destruct` verifies its input, and the verifier
        // rejects most such faults by dominance; the interpreter runs phis.
        if let Err(d) = compare(&f, &s, &mut state, &mut counts) {
            caught.push(format!("{}: {d}", info.name));
        }
    }
    eprintln!("{caught:#?}");
    assert!(caught.len() >= 3, "{counts:?}");
}
