//! The phases `ssakit explain` shows: one snapshot of the function after
//! each step of construction (chapter 13.1 to 13.5), optimisation and
//! destruction (13.6 and 13.7).
//!
//! [`phases`] runs the same library calls as `ssakit construct`, `opt` and
//! `destruct` ([`construct_observed`], [`run_passes`] one pass at a time,
//! [`destruct_observed`], which is `destruct`'s pipeline with hooks) and
//! clones the function at every point they expose: the last column is
//! what `destruct` gives. A program that already has phis starts at optimisation.

use crate::construct::{self, construct_observed, Trace};
use crate::destruct::{destruct_observed, DestructOptions, DestructStep};
use crate::error::IrError;
use crate::ir::Function;
use crate::opt::{run_passes, Pass};

/// What [`phases`] runs.
///
/// ```
/// use ssakit::backend::explain::{phases, Options};
/// use ssakit::opt::Pass;
/// let m = ssakit::text::parse_module("function f() {\ne:\n    x = 1\n    y = x\n    ret y\n}").unwrap();
/// let opts = Options { passes: vec![Pass::CopyProp, Pass::Dce], ..Options::default() };
/// let ids: Vec<String> = phases(&m.functions[0], &opts).unwrap().phases.into_iter().map(|p| p.id).collect();
/// assert!(ids.contains(&"copy-prop".to_string()) && ids.contains(&"dce".to_string()));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Construction (its renaming is forced to reachingDef chains when a
    /// trace is taken, as for `construct --trace`).
    pub construct: construct::Options,
    /// Optimisations, one column each, in order.
    pub passes: Vec<Pass>,
    /// Destruction.
    pub destruct: DestructOptions,
    /// The variable whose construction is traced; `None`: the first
    /// variable, in index order, that gets a phi.
    pub trace: Option<String>,
}

/// Which stage of the pipeline a phase belongs to.
///
/// ```
/// use ssakit::backend::explain::{phases, Options, Stage};
/// let m = ssakit::text::parse_module("function f() {\ne:\n    ret\n}").unwrap();
/// let e = phases(&m.functions[0], &Options::default()).unwrap();
/// assert_eq!(e.phases[0].stage, Stage::Construction);
/// assert_eq!(e.phases.last().unwrap().stage, Stage::Destruction);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The input and construction's two phases (dominator tree and
    /// DJ-graph are shown for these).
    Construction,
    /// One optimisation pass.
    Optimisation,
    /// A step of destruction.
    Destruction,
}

/// The function after one phase.
///
/// ```
/// use ssakit::backend::explain::{phases, Options};
/// let m = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap();
/// let e = phases(&m.functions[0], &Options::default()).unwrap();
/// let renamed = e.phases.iter().find(|p| p.id == "renamed").unwrap();
/// assert!(ssakit::text::print_function(&renamed.func).contains("x3 = phi(e: x1, a: x2)"));
/// assert!(!renamed.title.is_empty() && !renamed.note.is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct Phase {
    /// Short name, also the column's `data-phase`: `input`, `phis`,
    /// `renamed`, a pass name, `parallel-copies`, `coalesced`,
    /// `sequentialized`.
    pub id: String,
    /// The column's heading.
    pub title: String,
    /// One sentence saying what the phase did.
    pub note: String,
    /// Its stage.
    pub stage: Stage,
    /// The function after it.
    pub func: Function,
}

/// Every phase's snapshot and the construction trace.
///
/// ```
/// use ssakit::backend::explain::{phases, Options};
/// let m = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap();
/// let e = phases(&m.functions[0], &Options::default()).unwrap();
/// let (trace, table) = e.trace.unwrap(); // `x`, the first variable with a phi
/// assert_eq!(trace.var, "x");
/// assert!(table.contains("Phi insertion for x"));
/// ```
#[derive(Clone, Debug)]
pub struct Explained {
    /// The phases in order, the input first.
    pub phases: Vec<Phase>,
    /// The phi-insertion and renaming trace of one variable, rendered
    /// against the constructed function; `None` when the input was in SSA
    /// already or no variable gets a phi (and none was asked for).
    pub trace: Option<(Trace, String)>,
}

fn phase(id: &str, title: &str, note: &str, stage: Stage, func: &Function) -> Phase {
    Phase {
        id: id.to_string(),
        title: title.to_string(),
        note: note.to_string(),
        stage,
        func: func.clone(),
    }
}

/// Runs construction (unless `func` has phis), the passes and destruction
/// on a copy of `func`, keeping the function after each phase.
///
/// # Errors
/// What construction, the passes or destruction report (a variable to
/// trace that does not exist, input already in SSA that is not valid SSA,
/// ...), the function named.
///
/// ```
/// use ssakit::backend::explain::{phases, Options};
/// let m = ssakit::text::parse_module("function f() {\ne:\n    ret\n}").unwrap();
/// let e = phases(&m.functions[0], &Options::default()).unwrap();
/// assert_eq!(e.phases[0].id, "input");
/// let ask = Options { trace: Some("nope".into()), ..Options::default() };
/// assert!(phases(&m.functions[0], &ask).is_err());
/// ```
pub fn phases(func: &Function, opts: &Options) -> Result<Explained, IrError> {
    let mut f = func.clone();
    let mut out = vec![phase(
        "input",
        "input",
        "the program as read",
        Stage::Construction,
        &f,
    )];
    let in_ssa = f.layout().iter().any(|&b| !f.block_phis(b).is_empty());
    let mut trace = None;
    if in_ssa {
        crate::verify::verify_valid(&f).map_err(|errs| {
            let e = errs.into_iter().next().expect("verify reports an error");
            IrError {
                kind: crate::error::ErrorKind::NotSsa,
                message: format!("input has phis but is not valid SSA: {}", e.message),
                ..e
            }
        })?;
    } else {
        let var = match &opts.trace {
            Some(v) => Some(v.clone()),
            None => first_var_with_phi(&f, &opts.construct)?,
        };
        let mut copts = opts.construct;
        if var.is_some() {
            copts.renaming = construct::Renaming::ReachingDef;
        }
        let (_, t) = construct_observed(&mut f, &copts, var.as_deref(), &mut |g| {
            out.push(phase(
                "phis",
                "phi insertion",
                "phis at DF+(Defs(v)) of every variable, names not yet renamed",
                Stage::Construction,
                g,
            ))
        })?;
        trace = t.map(|t| {
            let text = t.render(&f);
            (t, text)
        });
        out.push(phase(
            "renamed",
            "renaming",
            "versions by a preorder walk of the dominator tree (reachingDef)",
            Stage::Construction,
            &f,
        ));
    }
    for &p in &opts.passes {
        run_passes(&mut f, &[p])?;
        out.push(phase(
            p.name(),
            p.name(),
            pass_note(p),
            Stage::Optimisation,
            &f,
        ));
    }
    let d = opts.destruct;
    destruct_observed(&mut f, &d, &mut |step, g| {
        let (id, title, note) = match step {
            DestructStep::ParallelCopies => (
                "parallel-copies",
                if d.split {
                    "split edges, parallel copies"
                } else {
                    "parallel copies"
                },
                if d.coalesce {
                    "critical edges into phis split, dead phis dropped, copies where needed \
                     (constant operands, phis whose component interferes; the rest virtual)"
                } else {
                    "critical edges split, a parallel copy per phi operand (Method I): \
                     conventional SSA"
                },
            ),
            DestructStep::Coalesced if d.conventional => (
                "coalesced",
                "phi webs renamed",
                "each phi web renamed to one variable, the phis dropped",
            ),
            DestructStep::Coalesced => (
                "coalesced",
                if d.coalesce { "coalescing" } else { "phi webs" },
                "classes renamed to one variable each, phis and x = x copies dropped",
            ),
        };
        out.push(phase(id, title, note, Stage::Destruction, g));
    })?;
    out.push(phase(
        "sequentialized",
        "sequentialization",
        "parallel copies as ordinary copies, a temporary per cycle",
        Stage::Destruction,
        &f,
    ));
    Ok(Explained { phases: out, trace })
}

fn pass_note(p: Pass) -> &'static str {
    match p {
        Pass::CopyProp => "copies and trivial phis propagated",
        Pass::ConstProp => "sparse conditional constant propagation (Wegman-Zadeck)",
        Pass::Dce => "dead instructions and phis removed",
        Pass::Fold => "peephole folds on the operation set (identities, negated comparisons)",
    }
}

/// The name of the first variable (in index order) that construction
/// gives a phi, found by constructing a copy.
fn first_var_with_phi(
    func: &Function,
    opts: &construct::Options,
) -> Result<Option<String>, IrError> {
    let mut g = func.clone();
    let mut first = None;
    construct_observed(&mut g, opts, None, &mut |h| {
        first = h
            .layout()
            .iter()
            .flat_map(|&b| h.block_phis(b))
            .filter_map(|&i| {
                let mut d = None;
                h.for_each_def(i, |v| d = Some(v));
                d
            })
            .min()
            .map(|v| h.base_name(v).to_string());
    })?;
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::InstData;
    use crate::text::parse_module;

    const SEED: &str = include_str!("../../../../../examples/seed.ssa");

    fn count(f: &Function, what: fn(&InstData) -> bool) -> usize {
        f.layout()
            .iter()
            .map(|&b| f.block_all_insts(b).filter(|&i| what(f.inst(i))).count())
            .sum()
    }

    /// Each snapshot is the state its column claims, checked by the
    /// verifier and by what it contains.
    #[test]
    fn each_snapshot_of_the_seed_example_is_the_state_it_names() {
        let m = parse_module(SEED).unwrap();
        let opts = Options {
            passes: vec![Pass::CopyProp, Pass::Dce],
            trace: Some("x".into()),
            ..Default::default()
        };
        let e = phases(&m.functions[0], &opts).unwrap();
        let ids: Vec<&str> = e.phases.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "input",
                "phis",
                "renamed",
                "copy-prop",
                "dce",
                "parallel-copies",
                "coalesced",
                "sequentialized"
            ]
        );
        let [input, phis, renamed, _, dce, pcopies, coalesced, seq] = &e.phases[..] else {
            unreachable!()
        };
        assert!(input.func == m.functions[0]);
        // Phis placed, nothing renamed: every variable is an original.
        let is_phi = |d: &InstData| matches!(d, InstData::Phi { .. });
        let is_pcopy = |d: &InstData| matches!(d, InstData::ParCopy { .. });
        assert_eq!(count(&phis.func, is_phi), 9);
        assert!(phis.func.vars().all(|v| phis.func.original(v) == v));
        let r = crate::verify::verify(&renamed.func).unwrap();
        assert!(r.minimal() && r.conventional() && r.phis == 9);
        // After dce's dead phis are gone, the copies make SSA conventional
        // again; coalescing drops the phis, sequentialization the
        // parallel copies.
        let r = crate::verify::verify(&pcopies.func).unwrap();
        assert!(r.conventional());
        assert_eq!(count(&pcopies.func, is_phi), count(&dce.func, is_phi));
        assert!(count(&pcopies.func, is_pcopy) > 0);
        assert_eq!(count(&coalesced.func, is_phi), 0);
        assert!(count(&coalesced.func, is_pcopy) > 0);
        assert!(crate::destruct::is_out_of_ssa(&seq.func));
        let (t, text) = e.trace.as_ref().unwrap();
        assert_eq!(t.var, "x");
        assert!(text.starts_with("Phi insertion for x: Defs(x) = {B, C, D}"));
        // The stages.
        let stages: Vec<Stage> = e.phases.iter().map(|p| p.stage).collect();
        assert_eq!(stages[..3], [Stage::Construction; 3]);
        assert_eq!(stages[3..5], [Stage::Optimisation; 2]);
        assert_eq!(stages[5..], [Stage::Destruction; 3]);
    }
}
