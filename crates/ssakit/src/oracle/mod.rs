//! The differential oracle: one check used by the property tests, the soak,
//! the fuzz targets and `ssakit reduce`.
//!
//! A non-SSA program is run in the interpreter, then put through every
//! stage of the pipeline the [`Plan`] asks for — each construction flavour
//! and ⊥ mode, each optimisation list, each destruction mode — and every
//! intermediate program is (1) checked by the verifier where it must be SSA,
//! or checked to be free of phis and parallel copies after destruction,
//! (2) printed and parsed back, and (3) run on the same arguments. Outputs,
//! return values and the sequence of external calls must match the
//! original's, an `undef` of the original matching anything
//! ([`interp::outputs_match`]). Runs of the original that fail (a runtime
//! error or running out of fuel) are not compared: there is nothing to
//! preserve.
//!
//! The first disagreement is a [`Mismatch`] naming the stage that broke;
//! [`reduce`] shrinks the program while the same stage keeps failing.

mod reduce;
pub mod uninterpreted;

pub use reduce::{reduce, reduce_by};

use crate::construct::{Flavor, Idf, Options, Renaming, UndefMode};
use crate::destruct;
use crate::error::ErrorKind;
use crate::interp::{self, Interpreter, Outcome, RunOptions};
use crate::ir::{Function, InstData, Module};
use crate::opt::Pass;
use crate::text;
use std::fmt;

/// How a program leaves SSA in one pipeline.
///
/// # Example
///
/// ```
/// use ssakit::oracle::DestructMode;
/// // Printed as the `ssakit` command line it stands for, in mismatch stages.
/// let mode = DestructMode { split: false, coalesce: true };
/// assert_eq!(mode.to_string(), "destruct --no-split");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DestructMode {
    /// Split critical edges (else Method I copies around the phis).
    pub split: bool,
    /// Coalesce the copies afterwards.
    pub coalesce: bool,
}

impl fmt::Display for DestructMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("destruct")?;
        if !self.split {
            f.write_str(" --no-split")?;
        }
        if !self.coalesce {
            f.write_str(" --no-coalesce")?;
        }
        Ok(())
    }
}

/// Every destruction mode: with and without edge splitting, with and
/// without coalescing.
pub(crate) const DESTRUCT_MODES: [DestructMode; 4] = [
    DestructMode {
        split: true,
        coalesce: true,
    },
    DestructMode {
        split: true,
        coalesce: false,
    },
    DestructMode {
        split: false,
        coalesce: true,
    },
    DestructMode {
        split: false,
        coalesce: false,
    },
];

/// The optimisation lists the full plan tries.
pub(crate) const PASS_LISTS: [&str; 6] = [
    "",
    "copy-prop",
    "dce",
    "const-prop",
    "copy-prop,dce",
    "const-prop,copy-prop,dce",
];

/// Which pipelines to run on a program.
///
/// # Example
///
/// ```
/// use ssakit::construct::Options;
/// use ssakit::oracle::{check, DestructMode, Plan};
/// // `f(n)` prints and returns 0 + 1 + ... + (n - 1), computed in a loop.
/// # let src = "function f(n) {
/// # e:
/// #     s = 0
/// #     i = 0
/// #     jump h
/// # h:
/// #     c = i < n
/// #     branch c, b, x
/// # b:
/// #     s = s + i
/// #     i = i + 1
/// #     jump h
/// # x:
/// #     print s
/// #     ret s
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// // One pipeline: default construction, no optimisation, split and coalesce.
/// let plan = Plan {
///     constructions: vec![Options::default()],
///     pass_lists: vec![vec![]],
///     destructions: vec![DestructMode { split: true, coalesce: true }],
///     args: vec![vec![0], vec![4]],
///     fuel: 10_000,
/// };
/// let cov = check(f, &plan).unwrap();
/// // The SSA form, its destruction, and its direct (conventional) destruction,
/// // each run on both argument vectors.
/// assert_eq!((cov.programs, cov.comparisons), (3, 6));
/// ```
#[derive(Clone, Debug)]
pub struct Plan {
    /// Construction options.
    pub constructions: Vec<Options>,
    /// Optimisation lists applied to each constructed program.
    pub pass_lists: Vec<Vec<Pass>>,
    /// Destruction modes applied after each optimisation list.
    pub destructions: Vec<DestructMode>,
    /// Argument vectors each program is run on.
    pub args: Vec<Vec<i64>>,
    /// Fuel of the original run; transformed runs get more (phis and copies
    /// cost steps).
    pub fuel: u64,
}

impl Plan {
    /// Every flavour × ⊥ mode; no optimisation, then `copy-prop`, `dce`,
    /// `const-prop`, `copy-prop,dce` and `const-prop,copy-prop,dce`; every
    /// destruction mode (with and without edge splitting and coalescing).
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::oracle::Plan;
    /// let plan = Plan::full(vec![vec![1, 2]]);
    /// // 3 flavours × 3 ⊥ modes, 6 optimisation lists, 4 destruction modes.
    /// assert_eq!(plan.constructions.len(), 9);
    /// assert_eq!(plan.pass_lists.len(), 6);
    /// assert_eq!(plan.destructions.len(), 4);
    /// assert_eq!(plan.args, [vec![1, 2]]);
    /// ```
    pub fn full(args: Vec<Vec<i64>>) -> Plan {
        let mut constructions = Vec::new();
        for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
            for undef in [UndefMode::Operand, UndefMode::EntryDef, UndefMode::Local] {
                constructions.push(Options {
                    flavor,
                    undef,
                    ..Default::default()
                });
            }
        }
        Plan {
            constructions,
            pass_lists: PASS_LISTS
                .iter()
                .map(|l| {
                    if l.is_empty() {
                        Vec::new()
                    } else {
                        Pass::parse(l).expect("known passes")
                    }
                })
                .collect(),
            destructions: DESTRUCT_MODES.to_vec(),
            args,
            fuel: 100_000,
        }
    }

    /// A cheaper plan for case number `k` of a long run: one construction
    /// (rotating through flavours, ⊥ modes, renamings and DF⁺ methods), all
    /// optimisation lists and destruction modes.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::oracle::Plan;
    /// let (a, b) = (Plan::rotating(0, vec![]), Plan::rotating(1, vec![]));
    /// assert_eq!(a.constructions.len(), 1); // one construction per case
    /// // The next case, the next ⊥ mode; every ninth, the other renaming.
    /// use ssakit::construct::{Renaming, UndefMode};
    /// assert!(matches!(a.constructions[0].undef, UndefMode::Operand));
    /// assert!(matches!(b.constructions[0].undef, UndefMode::EntryDef));
    /// let c = Plan::rotating(9, vec![]);
    /// assert!(matches!(c.constructions[0].renaming, Renaming::Stacks));
    /// assert_eq!(a.destructions.len(), Plan::full(vec![]).destructions.len());
    /// ```
    pub fn rotating(k: usize, args: Vec<Vec<i64>>) -> Plan {
        let mut p = Plan::full(args);
        let mut opts = p.constructions[k % p.constructions.len()];
        opts.renaming = if (k / 9).is_multiple_of(2) {
            Renaming::ReachingDef
        } else {
            Renaming::Stacks
        };
        opts.idf = if (k / 18).is_multiple_of(2) {
            Idf::Linear
        } else {
            Idf::Worklist
        };
        p.constructions = vec![opts];
        p
    }
}

/// A disagreement between the original program and a transformed one.
///
/// # Example
///
/// ```
/// use ssakit::oracle::{agree, Plan};
/// // `f(n)` prints and returns 0 + 1 + ... + (n - 1), computed in a loop.
/// # let src = "function f(n) {
/// # e:
/// #     s = 0
/// #     i = 0
/// #     jump h
/// # h:
/// #     c = i < n
/// #     branch c, b, x
/// # b:
/// #     s = s + i
/// #     i = i + 1
/// #     jump h
/// # x:
/// #     print s
/// #     ret s
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// // A "transformation" that breaks the program: it returns s + 1.
/// let src2 = src.replace("ret s", "t = s + 1\n    ret t");
/// let broken = &ssakit::text::parse_module(&src2).unwrap().functions[0];
/// let m = agree(f, broken, "my-pass", &Plan::full(vec![vec![3]])).unwrap_err();
/// assert_eq!(m.stage, "my-pass");
/// assert!(m.to_string().starts_with("my-pass: on [3]:"), "{m}");
/// assert!(m.program.contains("t = s + 1")); // the failing program, printed
/// ```
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The pipeline, e.g. `construct --flavor pruned | opt copy-prop | destruct`.
    pub stage: String,
    /// What went wrong.
    pub detail: String,
    /// The transformed program, printed (empty if it could not be made).
    pub program: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.stage, self.detail)
    }
}

/// What a successful check covered.
///
/// # Example
///
/// ```
/// use ssakit::oracle::{check, Plan};
/// // `f(n)` prints and returns 0 + 1 + ... + (n - 1), computed in a loop.
/// # let src = "function f(n) {
/// # e:
/// #     s = 0
/// #     i = 0
/// #     jump h
/// # h:
/// #     c = i < n
/// #     branch c, b, x
/// # b:
/// #     s = s + i
/// #     i = i + 1
/// #     jump h
/// # x:
/// #     print s
/// #     ret s
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// let cov = check(f, &Plan::rotating(0, vec![vec![2]])).unwrap();
/// // Every program transformed was run on the one argument vector.
/// assert!(cov.programs > 1);
/// assert_eq!(cov.comparisons, cov.programs);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Programs transformed (each stage of each pipeline counts one).
    pub programs: usize,
    /// Runs compared with the original's.
    pub comparisons: usize,
}

fn describe(o: &Options) -> String {
    let flavor = match o.flavor {
        Flavor::Minimal => "minimal",
        Flavor::SemiPruned => "semi-pruned",
        Flavor::Pruned => "pruned",
    };
    let undef = match o.undef {
        UndefMode::Operand => "operand",
        UndefMode::EntryDef => "entry",
        UndefMode::Local => "local",
    };
    let ren = match o.renaming {
        Renaming::ReachingDef => "reaching-def",
        Renaming::Stacks => "stacks",
    };
    let idf = match o.idf {
        Idf::Linear => "linear",
        Idf::Worklist => "worklist",
    };
    format!("construct --flavor {flavor} --undef {undef} --renaming {ren} --idf {idf}")
}

fn run(f: &Function, args: &[i64], fuel: u64) -> Result<Outcome, interp::RuntimeError> {
    let m = Module {
        functions: vec![f.clone()],
    };
    let interp = Interpreter::new(&m)?;
    interp.run(
        0,
        args,
        &RunOptions {
            fuel,
            trace_calls: true,
            ..Default::default()
        },
    )
}

/// The original's runs on each argument vector, with the plan's fuel.
///
/// # Example
///
/// ```
/// # use ssakit::oracle::{original_runs, Plan};
/// # use ssakit::interp::Value;
/// let src = "function f(a) {\ne:\n    q = 10 / a\n    ret q\n}\n";
/// let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// let runs = original_runs(f, &Plan::full(vec![vec![0], vec![2]]));
/// assert!(runs[0].is_err()); // division by zero
/// assert_eq!(runs[1].as_ref().unwrap().ret, Some(Value::Int(5)));
/// ```
pub fn original_runs(func: &Function, plan: &Plan) -> Vec<Result<Outcome, interp::RuntimeError>> {
    plan.args.iter().map(|a| run(func, a, plan.fuel)).collect()
}

/// The original's outcomes on each argument vector (`None` where it fails).
pub(crate) fn original_outcomes(func: &Function, plan: &Plan) -> Vec<Option<Outcome>> {
    original_runs(func, plan)
        .into_iter()
        .map(Result::ok)
        .collect()
}

/// The classic *wrong* translation out of SSA, kept to show that an oracle
/// catches it: each phi `x = phi(P: a, ...)` becomes a copy `x = a` at the
/// end of `P`, in order, with no edge split and no parallel copy. After copy
/// propagation it shows the chapter's lost-copy and swap problems (Briggs
/// et al. 1998, section 13.9); never use it to leave SSA.
///
/// ```
/// use ssakit::construct::{construct, Options};
/// use ssakit::interp::{run, RunOptions};
/// use ssakit::oracle::naive_out_of_ssa;
/// use ssakit::opt::{run_passes, Pass};
/// // The swap problem: the loop exchanges a and b.
/// let src = "function main(a, b, n) {\ne:\n    jump h\nh:\n    t = a\n    a = b\n    b = t\n    n = n - 1\n    branch n, h, x\nx:\n    ret a, b\n}\n";
/// let m = ssakit::text::parse_module(src).unwrap();
/// let mut f = m.functions[0].clone();
/// construct(&mut f, &Options::default()).unwrap();
/// run_passes(&mut f, &Pass::parse("copy-prop").unwrap()).unwrap();
/// let wrong = naive_out_of_ssa(&f);
/// let opts = RunOptions::default();
/// let before = run(&m, &m.functions[0], &[1, 2, 1], &opts).unwrap();
/// let after = run(&m, &wrong, &[1, 2, 1], &opts).unwrap();
/// assert_ne!(before.render(), after.render());
/// ```
pub fn naive_out_of_ssa(f: &Function) -> Function {
    let mut g = f.clone();
    for &b in f.layout() {
        for &i in f.block_phis(b) {
            let dst = f.def(i).expect("a phi defines a variable");
            for a in f.phi_args(i) {
                g.push_inst(a.block, InstData::Copy { dst, src: a.value });
            }
        }
    }
    for &b in f.layout() {
        g.retain_phis(b, |_, _| false);
    }
    g
}

/// The error construction gives `func` if it is not a program the oracle
/// can start from (one with phis: it is in SSA form already), or the first
/// type error of [`verify_types`](crate::verify::verify_types) if it is
/// ill-typed (its construction would be too). [`check`]
/// would report it as a mismatch of the first construction, and
/// [`reduce`] shrink it as one; this is an error of the input instead.
///
/// # Example
///
/// ```
/// # use ssakit::oracle::check_input;
/// let src = "function f(c) {
/// e:
///     a = 1
///     b = 2
///     print a, b
///     branch c, l, j
/// l:
///     jump j
/// j:
///     x = phi(e: a, l: b)
///     ret x
/// }
/// ";
/// let with_phi = &ssakit::text::parse_module(src).unwrap().functions[0];
/// assert!(check_input(with_phi).is_err()); // already SSA: not a starting point
/// let plain = ssakit::text::parse_module("function g(a) {\ne:\n    ret a\n}\n").unwrap();
/// assert!(check_input(&plain.functions[0]).is_ok());
/// ```
pub fn check_input(func: &Function) -> Result<(), crate::error::IrError> {
    if let Err(mut errs) = crate::verify::verify_types(func) {
        return Err(errs.swap_remove(0));
    }
    construction(func, &Options::default()).map(|_| ())
}

/// `func` constructed with `opts`: the first stage of the core's
/// [pipeline](crate::pipeline), from which the oracle branches into every
/// pass list and destruction mode (a tree of runs, compared at each node,
/// rather than one run).
fn construction(func: &Function, opts: &Options) -> Result<Function, crate::error::IrError> {
    let run = crate::pipeline::Pipeline {
        construct: *opts,
        ..Default::default()
    };
    run.run(func.clone())
        .map(|out| out.func)
        .map_err(|e| e.error)
}

/// Checks every pipeline of `plan` on `func`, a non-SSA function whose
/// parameters match the plan's argument vectors.
///
/// # Example
///
/// ```
/// # use ssakit::oracle::{check, Plan};
/// // `f(n)` prints and returns 0 + 1 + ... + (n - 1), computed in a loop.
/// # let src = "function f(n) {
/// # e:
/// #     s = 0
/// #     i = 0
/// #     jump h
/// # h:
/// #     c = i < n
/// #     branch c, b, x
/// # b:
/// #     s = s + i
/// #     i = i + 1
/// #     jump h
/// # x:
/// #     print s
/// #     ret s
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// let plan = Plan::full(vec![vec![0], vec![4]]);
/// let cov = check(f, &plan).unwrap();
/// // Every pipeline agreed with the original on both argument vectors.
/// assert_eq!(cov.comparisons, 2 * cov.programs);
/// assert!(cov.programs > plan.constructions.len() * plan.destructions.len());
/// ```
pub fn check(func: &Function, plan: &Plan) -> Result<Coverage, Mismatch> {
    let originals = original_outcomes(func, plan);
    let mut cov = Coverage::default();
    for copts in &plan.constructions {
        let stage = describe(copts);
        let ssa = construction(func, copts)
            .map_err(|e| fail(&stage, format!("construction failed: {e}"), func))?;
        compare_ssa(&ssa, &stage, &originals, plan, &mut cov)?;
        for passes in &plan.pass_lists {
            let mut opt = ssa.clone();
            let stage = if passes.is_empty() {
                stage.clone()
            } else {
                let names: Vec<&str> = passes.iter().map(|p| p.name()).collect();
                let stage = format!("{stage} | opt --passes {}", names.join(","));
                crate::opt::run_passes(&mut opt, passes)
                    .map_err(|e| fail(&stage, format!("optimisation failed: {e}"), &opt))?;
                compare_ssa(&opt, &stage, &originals, plan, &mut cov)?;
                stage
            };
            for mode in &plan.destructions {
                let stage = format!("{stage} | {mode}");
                let mut out = opt.clone();
                destruct::destruct(
                    &mut out,
                    &destruct::DestructOptions {
                        split: mode.split,
                        coalesce: mode.coalesce,
                        conventional: false,
                    },
                )
                .map_err(|e| fail(&stage, format!("destruction failed: {e}"), &opt))?;
                if !destruct::is_out_of_ssa(&out) {
                    return Err(fail(&stage, "phis or parallel copies left".into(), &out));
                }
                compare(&out, &stage, &originals, plan, &mut cov)?;
            }
            conventional_destruction(&opt, &stage, &originals, plan, &mut cov)?;
        }
    }
    Ok(cov)
}

/// `destruct --conventional` of `ssa` when it is conventional SSA (always
/// so after construction, rarely after optimisation), which it must accept
/// unless a constant phi operand would need a copy at a branching
/// predecessor, and translate to a program that computes the same.
fn conventional_destruction(
    ssa: &Function,
    stage: &str,
    originals: &[Option<Outcome>],
    plan: &Plan,
    cov: &mut Coverage,
) -> Result<(), Mismatch> {
    if !crate::verify::verify(ssa).is_ok_and(|r| r.conventional()) {
        return Ok(());
    }
    let stage = format!("{stage} | destruct --conventional");
    let mut out = ssa.clone();
    let opts = destruct::DestructOptions {
        split: false,
        coalesce: false,
        conventional: true,
    };
    match destruct::destruct(&mut out, &opts) {
        Ok(_) => {}
        Err(e) if e.kind == ErrorKind::ConstantConflict => return Ok(()),
        Err(e) => {
            return Err(fail(&stage, format!("conventional SSA refused: {e}"), ssa));
        }
    }
    if !destruct::is_out_of_ssa(&out) {
        return Err(fail(&stage, "phis or parallel copies left".into(), &out));
    }
    compare(&out, &stage, originals, plan, cov)
}

/// `f` printed as a module of its own: its text, after the declarations of
/// the operators it uses (none for today's programs), so that it parses
/// back alone.
fn print_alone(f: &Function) -> String {
    let uses_operators = f.layout().iter().any(|&b| {
        f.block_insts(b)
            .iter()
            .any(|&i| matches!(f.inst(i), InstData::Op { .. }))
    });
    if uses_operators {
        text::print_module(&Module {
            functions: vec![f.clone()],
        })
    } else {
        text::print_function(f)
    }
}

fn fail(stage: &str, detail: String, f: &Function) -> Mismatch {
    Mismatch {
        stage: stage.to_string(),
        detail,
        program: print_alone(f),
    }
}

fn compare_ssa(
    f: &Function,
    stage: &str,
    originals: &[Option<Outcome>],
    plan: &Plan,
    cov: &mut Coverage,
) -> Result<(), Mismatch> {
    if let Err(errs) = crate::verify::verify(f) {
        return Err(fail(
            stage,
            format!("invalid SSA: {}", errs[0].describe(f)),
            f,
        ));
    }
    compare(f, stage, originals, plan, cov)
}

/// Compares `transformed` (any form: SSA or not) with `original` on the
/// plan's arguments, as [`check`] does after each stage.
///
/// # Example
///
/// ```
/// # use ssakit::oracle::{agree, Plan};
/// # use ssakit::construct::{construct, Options};
/// // `f(n)` prints and returns 0 + 1 + ... + (n - 1), computed in a loop.
/// # let src = "function f(n) {
/// # e:
/// #     s = 0
/// #     i = 0
/// #     jump h
/// # h:
/// #     c = i < n
/// #     branch c, b, x
/// # b:
/// #     s = s + i
/// #     i = i + 1
/// #     jump h
/// # x:
/// #     print s
/// #     ret s
/// # }
/// # ";
/// # let f = &ssakit::text::parse_module(src).unwrap().functions[0];
/// // Check your own transformation: here, construction alone.
/// let mut ssa = f.clone();
/// construct(&mut ssa, &Options::default()).unwrap();
/// let cov = agree(f, &ssa, "construct", &Plan::full(vec![vec![0], vec![5]])).unwrap();
/// assert_eq!((cov.programs, cov.comparisons), (1, 2));
/// ```
pub fn agree(
    original: &Function,
    transformed: &Function,
    stage: &str,
    plan: &Plan,
) -> Result<Coverage, Mismatch> {
    let originals = original_outcomes(original, plan);
    let mut cov = Coverage::default();
    compare(transformed, stage, &originals, plan, &mut cov)?;
    Ok(cov)
}

/// Print and parse back, then run on every argument vector.
fn compare(
    f: &Function,
    stage: &str,
    originals: &[Option<Outcome>],
    plan: &Plan,
    cov: &mut Coverage,
) -> Result<(), Mismatch> {
    cov.programs += 1;
    let printed = print_alone(f);
    let reparsed = match text::parse_module(&printed) {
        Ok(m) if m.functions.len() == 1 => m.functions.into_iter().next().expect("one function"),
        Ok(_) => {
            return Err(fail(
                stage,
                "printed text holds several functions".into(),
                f,
            ))
        }
        Err(d) => {
            return Err(fail(
                stage,
                format!(
                    "printed text does not parse: {}",
                    d.render("<printed>", &printed)
                ),
                f,
            ))
        }
    };
    for (a, orig) in plan.args.iter().zip(originals) {
        let Some(o) = orig else { continue };
        cov.comparisons += 1;
        let t = run(&reparsed, a, 50 * o.dyn_insts + 10_000).map_err(|e| {
            fail(
                stage,
                format!("on {a:?}: the original ran, this fails: {e}"),
                f,
            )
        })?;
        if let Some(d) = interp::first_difference(o, &t) {
            return Err(fail(stage, format!("on {a:?}: {d}"), f));
        }
    }
    Ok(())
}

/// The fuzz target's body: parse arbitrary bytes; on success, check the
/// printer round trip and every pipeline on the entry function if it is not
/// in SSA form. Panics on any violation (that is what the fuzzer looks for).
///
/// # Example
///
/// ```
/// # use ssakit::oracle::fuzz_source;
/// // Returns quietly on bytes that are not a program, and on programs that
/// // pass every check; panics (which the fuzzer reports) on a violation.
/// fuzz_source(b"\xff not UTF-8");
/// fuzz_source(b"function f( {");
/// fuzz_source(b"function f(a) {\ne:\n    b = a * 2\n    print b\n    ret b\n}\n");
/// ```
pub fn fuzz_source(data: &[u8]) {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = match text::parse(src) {
        Ok(p) => p,
        Err(d) => {
            // Rendering any diagnostic must not panic.
            let _ = d.render("fuzz", src);
            return;
        }
    };
    let printed = text::print_module(&parsed.module);
    let again = text::parse_module(&printed).expect("printed text parses");
    assert_eq!(
        text::print_module(&again),
        printed,
        "printing is a fixpoint"
    );
    let Some(f) = parsed.module.entry_function(None) else {
        return;
    };
    if f.layout().iter().any(|&b| !f.block_phis(b).is_empty())
        || f.num_insts() > 200
        || f.params().len() > 3
    {
        let _ = crate::verify::verify(f);
        return;
    }
    let args = vec![vec![0; f.params().len()], vec![3; f.params().len()]];
    let mut plan = Plan::full(args);
    plan.fuel = 20_000;
    if let Err(m) = check(f, &plan) {
        panic!("{m}\n--- program\n{}", m.program);
    }
}

/// The generated-program fuzz target's body: the first bytes choose a shape,
/// a size, a variable count and a seed; the program goes through every
/// pipeline. Panics on any mismatch.
///
/// # Example
///
/// ```
/// # use ssakit::oracle::fuzz_generated;
/// // Shape 3 (`chain`), 3 + 5 blocks, 1 + 2 variables, seed 42: passes every
/// // check, so it returns; a mismatch would panic with the reduced program.
/// fuzz_generated(&[3, 5, 2, 42]);
/// ```
pub fn fuzz_generated(data: &[u8]) {
    use crate::gen::{generate, GenOptions, Shape};
    if data.len() < 4 {
        return;
    }
    let shape = Shape::ALL[data[0] as usize % Shape::ALL.len()];
    let blocks = 3 + data[1] as usize % 60;
    let vars = 1 + data[2] as usize % 8;
    let mut seed = 0u64;
    for &b in &data[3..data.len().min(11)] {
        seed = seed << 8 | b as u64;
    }
    let f = generate(&GenOptions {
        shape,
        blocks,
        vars,
        seed,
    });
    let plan = Plan::full(vec![vec![0, 0], vec![data[1] as i64 - 128, data[2] as i64]]);
    if let Err(m) = check(&f, &plan) {
        let (small, m) = reduce(&f, &plan, &m);
        panic!("{m}\n--- reduced program\n{}", text::print_function(&small));
    }
}
