//! The chapter's pipeline ([`ssakit::pipeline`]) on every function of a
//! module, in parallel (rayon; results in module order): lift, then the
//! core's run (construction of the chosen flavour, or of all three for
//! their phi counts, verification, passes, destruction); counts and time
//! per phase.

use crate::error::WasmError;
use crate::lift::{lift, Lifted, ModuleSymbols};
use crate::module::WasmModule;
use rayon::prelude::*;
use ssakit::pipeline::{self, PerFlavor, Pipeline};
use ssakit::timing::{self, PassTimes};
use std::time::Instant;

pub use ssakit::pipeline::count_copies;

/// One function's figures.
///
/// ```
/// # use ssakit::pipeline::{Flavors, Pipeline};
/// # use ssakit_wasm::pipeline::run;
/// # let wasm = ssakit_wasm::module::to_binary(b"(module (func (param i32) (result i32) (local i32)
/// #     (block (loop (br_if 1 (i32.eqz (local.get 0)))
/// #         (local.set 1 (i32.add (local.get 1) (local.get 0)))
/// #         (local.set 0 (i32.sub (local.get 0) (i32.const 1))) (br 0)))
/// #     local.get 1))").unwrap();
/// # let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let all = Pipeline { flavors: Flavors::All, verify: true, ..Default::default() };
/// let f = &run(&m, &all, &|| {}).unwrap().functions[0];
/// assert_eq!((f.index, f.locals), (0, 2));
/// assert!(f.blocks >= 3 && f.insts > 0);
/// let [Some(minimal), Some(semi_pruned), Some(pruned)] = f.phis.to_array() else { panic!() };
/// assert!(minimal >= semi_pruned && semi_pruned >= pruned && pruned >= 2);
/// let phases: Vec<&str> = f.times.phases.iter().map(|p| p.0).collect();
/// assert!(phases.contains(&"lift") && phases.contains(&"construct semi-pruned"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct FunctionStats {
    /// Function index.
    pub index: u32,
    /// Blocks of the lifted function.
    pub blocks: usize,
    /// Instructions of the lifted function (terminators not counted).
    pub insts: usize,
    /// Copies among them.
    pub copies_lifted: usize,
    /// Locals (parameters included).
    pub locals: usize,
    /// Phis placed by each flavour constructed
    /// ([`Pipeline::flavors`]).
    pub phis: PerFlavor<usize>,
    /// Copies left after destruction, if it ran.
    pub copies: Option<usize>,
    /// The phases timed: `lift`, then the core's
    /// ([`ssakit::pipeline::Outcome::times`]).
    pub times: PassTimes,
}

/// A function the pipeline failed on (an internal error: the input was
/// valid).
///
/// ```
/// # use ssakit_wasm::pipeline::run;
/// # let wasm = ssakit_wasm::module::to_binary(b"(module (func (param i32) (result i32) (local i32)
/// #     (block (loop (br_if 1 (i32.eqz (local.get 0)))
/// #         (local.set 1 (i32.add (local.get 1) (local.get 0)))
/// #         (local.set 0 (i32.sub (local.get 0) (i32.const 1))) (br 0)))
/// #     local.get 1))").unwrap();
/// # let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let stats = run(&m, &Default::default(), &|| {}).unwrap();
/// for f in &stats.failures {
///     panic!("function {} failed in {}", f.index, f.error);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Failure {
    /// Function index.
    pub index: u32,
    /// The stage that failed and why.
    pub error: pipeline::Error,
}

/// The module's figures.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use ssakit_wasm::pipeline::run;
/// let wasm = ssakit_wasm::module::to_binary(b"(module (import \"env\" \"g\" (func))
///     (func) (func (call 0)))").unwrap();
/// let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let done = AtomicUsize::new(0);
/// let stats = run(&m, &Default::default(), &|| {
///     done.fetch_add(1, Ordering::Relaxed);
/// })
/// .unwrap();
/// assert_eq!(done.into_inner(), 2);
/// assert_eq!((stats.imported, stats.functions.len()), (1, 2));
/// assert_eq!(stats.functions[1].index, 2);
/// assert!(stats.failures.is_empty() && stats.wall >= 0.0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ModuleStats {
    /// Per defined function, in module order.
    pub functions: Vec<FunctionStats>,
    /// Imported functions.
    pub imported: u32,
    /// Functions the pipeline failed on.
    pub failures: Vec<Failure>,
    /// Wall-clock seconds of the whole parallel loop.
    pub wall: f64,
}

impl ModuleStats {
    /// The sum over functions.
    ///
    /// ```
    /// # use ssakit_wasm::pipeline::run;
    /// let wasm = ssakit_wasm::module::to_binary(b"(module (func (local i32)) (func (local i64 i64)))").unwrap();
    /// let m = ssakit_wasm::module::parse(&wasm).unwrap();
    /// let stats = run(&m, &Default::default(), &|| {}).unwrap();
    /// assert_eq!(stats.total().locals, 3);
    /// ```
    pub fn total(&self) -> FunctionStats {
        let mut t = FunctionStats::default();
        for f in &self.functions {
            t.blocks += f.blocks;
            t.insts += f.insts;
            t.copies_lifted += f.copies_lifted;
            t.locals += f.locals;
            for (flavor, p) in f.phis.iter() {
                *t.phis.get_or_insert_with(flavor, || 0) += p;
            }
            if let Some(c) = f.copies {
                *t.copies.get_or_insert(0) += c;
            }
            t.times.merge(&f.times);
        }
        t
    }
}

/// Lifts every function of `m`, in parallel, in module order.
///
/// # Errors
/// The first function (in module order) that does not lift.
///
/// ```
/// use ssakit_wasm::lift::ModuleSymbols;
/// use ssakit_wasm::pipeline::lift_module;
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func) (func (result i32) i32.const 0)
///     (func (result i32) f32.const 0))").unwrap();
/// let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let syms = ModuleSymbols::new(&m);
/// assert_eq!(lift_module(&m, &syms).unwrap_err().func, Some(2));
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func) (func))").unwrap();
/// let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// assert_eq!(lift_module(&m, &ModuleSymbols::new(&m)).unwrap().len(), 2);
/// ```
pub fn lift_module(m: &WasmModule<'_>, syms: &ModuleSymbols) -> Result<Vec<Lifted>, WasmError> {
    m.bodies.par_iter().map(|b| lift(m, syms, b)).collect()
}

/// Runs the pipeline on every function of `m` in parallel; `done` is
/// called after each function (for a progress bar).
///
/// # Errors
/// The first function (in module order) that does not lift: the module is
/// invalid. A later stage failing is a [`Failure`] in the result.
///
/// ```
/// use ssakit::construct::Flavor;
/// use ssakit::opt::Pass;
/// use ssakit::pipeline::Pipeline;
/// use ssakit_wasm::pipeline::run;
/// # let wasm = ssakit_wasm::module::to_binary(b"(module (func (param i32) (result i32) (local i32)
/// #     (block (loop (br_if 1 (i32.eqz (local.get 0)))
/// #         (local.set 1 (i32.add (local.get 1) (local.get 0)))
/// #         (local.set 0 (i32.sub (local.get 0) (i32.const 1))) (br 0)))
/// #     local.get 1))").unwrap();
/// # let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let p = Pipeline {
///     passes: Pass::parse("copy-prop,dce").unwrap(),
///     destruct: Some(Default::default()),
///     ..Default::default()
/// };
/// let stats = run(&m, &p, &|| {}).unwrap();
/// assert!(stats.functions[0].copies.is_some()); // destruction ran
/// let no_destruct = run(&m, &Pipeline::default(), &|| {}).unwrap();
/// assert_eq!(no_destruct.functions[0].copies, None);
/// // Only the chosen flavour (minimal by default) is constructed.
/// let phis = no_destruct.functions[0].phis;
/// assert_eq!(phis.iter().map(|(f, _)| f).collect::<Vec<_>>(), [Flavor::Minimal]);
/// // A body that does not lift: the module is invalid.
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func (result i32) i64.const 0))").unwrap();
/// let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// assert_eq!(run(&m, &Default::default(), &|| {}).unwrap_err().func, Some(0));
/// ```
pub fn run(
    m: &WasmModule<'_>,
    pipeline: &Pipeline,
    done: &(dyn Fn() + Sync),
) -> Result<ModuleStats, WasmError> {
    let syms = ModuleSymbols::new(m);
    let start = Instant::now();
    let results: Vec<Result<Result<FunctionStats, Failure>, WasmError>> = m
        .bodies
        .par_iter()
        .map(|b| {
            let r = one_function(m, &syms, b, pipeline);
            done();
            r
        })
        .collect();
    let wall = start.elapsed().as_secs_f64();
    let mut stats = ModuleStats {
        imported: m.num_imported,
        wall,
        ..Default::default()
    };
    for r in results {
        match r? {
            Ok(s) => stats.functions.push(s),
            Err(f) => stats.failures.push(f),
        }
    }
    Ok(stats)
}

/// Lifts one function and runs `pipeline` on it: its figures, or the
/// stage that failed (an `Err` only for a body that does not lift).
fn one_function(
    m: &WasmModule<'_>,
    syms: &ModuleSymbols,
    body: &crate::module::Body<'_>,
    pipeline: &Pipeline,
) -> Result<Result<FunctionStats, Failure>, WasmError> {
    let (lifted, mut times) = timing::collect(|| {
        let _t = timing::phase("lift");
        lift(m, syms, body)
    });
    let lifted = lifted?;
    let f = lifted.func;
    let mut s = FunctionStats {
        index: body.index,
        blocks: f.layout().len(),
        insts: f.num_insts(),
        copies_lifted: count_copies(&f),
        locals: lifted.locals,
        ..Default::default()
    };
    let out = match pipeline.run(f) {
        Ok(out) => out,
        Err(error) => {
            let index = body.index;
            return Ok(Err(Failure { index, error }));
        }
    };
    s.phis = out.phis;
    s.copies = out.copies;
    times.phases.extend(out.times.phases);
    s.times = times;
    Ok(Ok(s))
}
