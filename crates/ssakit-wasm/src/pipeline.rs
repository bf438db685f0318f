//! The chapter's pipeline on every function of a module, in parallel
//! (rayon; results in module order): lift, construct the chosen flavour
//! (and, when asked, the other two: their phi counts), verify each, then,
//! on the chosen flavour, the optimisation passes and destruction; counts
//! and time per phase.
//!
//! Only the chosen flavour is built unless [`Options::all_flavors`] asks
//! for the three: minimal SSA places a phi at the iterated dominance
//! frontier of every assignment (chapter, section 13.2), quadratic in the
//! function on a ladder of blocks, and a 353 KB module's minimal SSA took
//! 22 GB.

use crate::error::WasmError;
use crate::lift::{lift, Lifted, ModuleSymbols};
use crate::module::WasmModule;
use rayon::prelude::*;
use ssakit::construct::{self, Flavor};
use ssakit::destruct::{destruct, destruct_trusted, DestructOptions};
use ssakit::ir::{Function, InstData};
use ssakit::opt::{self, Pass};
use std::time::Instant;

/// The flavours, in the order of [`FunctionStats::phis`].
pub const FLAVORS: [Flavor; 3] = [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned];

/// What to run after construction.
///
/// ```
/// use ssakit::opt::Pass;
/// use ssakit_wasm::pipeline::{run, Options};
/// # let wasm = ssakit_wasm::module::to_binary(b"(module (func (param i32) (result i32) (local i32)
/// #     (block (loop (br_if 1 (i32.eqz (local.get 0)))
/// #         (local.set 1 (i32.add (local.get 1) (local.get 0)))
/// #         (local.set 0 (i32.sub (local.get 0) (i32.const 1))) (br 0)))
/// #     local.get 1))").unwrap();
/// # let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let opts = Options {
///     passes: Pass::parse("copy-prop,dce").unwrap(),
///     destruct: true,
///     ..Default::default()
/// };
/// let stats = run(&m, &opts, &|| {}).unwrap();
/// assert!(stats.functions[0].copies.is_some()); // destruction ran
/// let no_destruct = run(&m, &Options::default(), &|| {}).unwrap();
/// assert_eq!(no_destruct.functions[0].copies, None);
/// // Only the chosen flavour (`construct.flavor`: minimal by default) is
/// // constructed.
/// let [minimal, semi_pruned, pruned] = no_destruct.functions[0].phis;
/// assert!(minimal.is_some() && semi_pruned.is_none() && pruned.is_none());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Construction options; its flavour is the one constructed, counted,
    /// optimised and destructed.
    pub construct: construct::Options,
    /// Also construct, verify and count the other two flavours (minimal
    /// SSA can be quadratic in the function).
    pub all_flavors: bool,
    /// Optimisation passes on the chosen flavour's SSA.
    pub passes: Vec<Pass>,
    /// Whether to destruct (split edges, coalescing) after the passes.
    pub destruct: bool,
}

/// Seconds per phase, summed over functions (each function's phases run
/// on one thread).
///
/// ```
/// # use ssakit_wasm::pipeline::{run, Options};
/// # let wasm = ssakit_wasm::module::to_binary(b"(module (func (param i32) (result i32) (local i32)
/// #     (block (loop (br_if 1 (i32.eqz (local.get 0)))
/// #         (local.set 1 (i32.add (local.get 1) (local.get 0)))
/// #         (local.set 0 (i32.sub (local.get 0) (i32.const 1))) (br 0)))
/// #     local.get 1))").unwrap();
/// # let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let t = run(&m, &Options::default(), &|| {}).unwrap().total().times;
/// assert!(t.lift >= 0.0 && t.construct.iter().all(|&s| s >= 0.0));
/// assert_eq!(t.destruct, 0.0); // not asked for
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Times {
    /// Reading, validating and lifting bodies.
    pub lift: f64,
    /// Construction, per flavour (as [`FLAVORS`]; 0 for one not built).
    pub construct: [f64; 3],
    /// Verification of the constructions.
    pub verify: f64,
    /// The optimisation passes.
    pub opt: f64,
    /// Destruction.
    pub destruct: f64,
}

impl Times {
    fn add(&mut self, o: &Times) {
        self.lift += o.lift;
        for k in 0..3 {
            self.construct[k] += o.construct[k];
        }
        self.verify += o.verify;
        self.opt += o.opt;
        self.destruct += o.destruct;
    }
}

/// One function's figures.
///
/// ```
/// # use ssakit_wasm::pipeline::{run, Options};
/// # let wasm = ssakit_wasm::module::to_binary(b"(module (func (param i32) (result i32) (local i32)
/// #     (block (loop (br_if 1 (i32.eqz (local.get 0)))
/// #         (local.set 1 (i32.add (local.get 1) (local.get 0)))
/// #         (local.set 0 (i32.sub (local.get 0) (i32.const 1))) (br 0)))
/// #     local.get 1))").unwrap();
/// # let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let all = Options { all_flavors: true, ..Default::default() };
/// let f = &run(&m, &all, &|| {}).unwrap().functions[0];
/// assert_eq!((f.index, f.locals), (0, 2));
/// assert!(f.blocks >= 3 && f.insts > 0);
/// let [Some(minimal), Some(semi_pruned), Some(pruned)] = f.phis else { panic!() };
/// assert!(minimal >= semi_pruned && semi_pruned >= pruned && pruned >= 2);
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
    /// Phis placed, per flavour ([`FLAVORS`]); `None` for a flavour not
    /// constructed ([`Options::all_flavors`]).
    pub phis: [Option<usize>; 3],
    /// Copies left after destruction, if it ran.
    pub copies: Option<usize>,
    /// Time per phase.
    pub times: Times,
}

/// A function the pipeline failed on (an internal error: the input was
/// valid).
///
/// ```
/// # use ssakit_wasm::pipeline::{run, Options};
/// # let wasm = ssakit_wasm::module::to_binary(b"(module (func (param i32) (result i32) (local i32)
/// #     (block (loop (br_if 1 (i32.eqz (local.get 0)))
/// #         (local.set 1 (i32.add (local.get 1) (local.get 0)))
/// #         (local.set 0 (i32.sub (local.get 0) (i32.const 1))) (br 0)))
/// #     local.get 1))").unwrap();
/// # let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let stats = run(&m, &Options::default(), &|| {}).unwrap();
/// for f in &stats.failures {
///     panic!("function {} failed in {}: {}", f.index, f.stage, f.message);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Failure {
    /// Function index.
    pub index: u32,
    /// The stage that failed.
    pub stage: String,
    /// Why.
    pub message: String,
}

/// The module's figures.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use ssakit_wasm::pipeline::{run, Options};
/// let wasm = ssakit_wasm::module::to_binary(b"(module (import \"env\" \"g\" (func))
///     (func) (func (call 0)))").unwrap();
/// let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// let done = AtomicUsize::new(0);
/// let stats = run(&m, &Options::default(), &|| {
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
    /// # use ssakit_wasm::pipeline::{run, Options};
    /// let wasm = ssakit_wasm::module::to_binary(b"(module (func (local i32)) (func (local i64 i64)))").unwrap();
    /// let m = ssakit_wasm::module::parse(&wasm).unwrap();
    /// let stats = run(&m, &Options::default(), &|| {}).unwrap();
    /// assert_eq!(stats.total().locals, 3);
    /// ```
    pub fn total(&self) -> FunctionStats {
        let mut t = FunctionStats::default();
        for f in &self.functions {
            t.blocks += f.blocks;
            t.insts += f.insts;
            t.copies_lifted += f.copies_lifted;
            t.locals += f.locals;
            for k in 0..3 {
                if let Some(p) = f.phis[k] {
                    *t.phis[k].get_or_insert(0) += p;
                }
            }
            if let Some(c) = f.copies {
                *t.copies.get_or_insert(0) += c;
            }
            t.times.add(&f.times);
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

/// The number of copy instructions of `f`.
///
/// ```
/// let src = "function f(a) {\nentry:\n    x = a\n    y = x\n    z = y + 1\n    ret z\n}\n";
/// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// assert_eq!(ssakit_wasm::pipeline::count_copies(&f), 2);
/// ```
pub fn count_copies(f: &Function) -> usize {
    f.layout()
        .iter()
        .flat_map(|&b| f.block_insts(b))
        .filter(|&&i| matches!(f.inst(i), InstData::Copy { .. }))
        .count()
}

fn timed<T>(slot: &mut f64, work: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = work();
    *slot += start.elapsed().as_secs_f64();
    out
}

/// Runs the pipeline on every function of `m` in parallel; `done` is
/// called after each function (for a progress bar).
///
/// # Errors
/// The first function (in module order) that does not lift: the module is
/// invalid. A later stage failing is a [`Failure`] in the result.
///
/// ```
/// use ssakit_wasm::pipeline::{run, Options};
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func (result i32) i64.const 0))").unwrap();
/// let m = ssakit_wasm::module::parse(&wasm).unwrap();
/// assert_eq!(run(&m, &Options::default(), &|| {}).unwrap_err().func, Some(0));
/// ```
pub fn run(
    m: &WasmModule<'_>,
    opts: &Options,
    done: &(dyn Fn() + Sync),
) -> Result<ModuleStats, WasmError> {
    let syms = ModuleSymbols::new(m);
    let start = Instant::now();
    let results: Vec<Result<Result<FunctionStats, Failure>, WasmError>> = m
        .bodies
        .par_iter()
        .map(|b| {
            let r = one_function(m, &syms, b, opts);
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

fn one_function(
    m: &WasmModule<'_>,
    syms: &ModuleSymbols,
    body: &crate::module::Body<'_>,
    opts: &Options,
) -> Result<Result<FunctionStats, Failure>, WasmError> {
    let mut s = FunctionStats {
        index: body.index,
        ..Default::default()
    };
    let lifted = timed(&mut s.times.lift, || lift(m, syms, body))?;
    let f = lifted.func;
    s.blocks = f.layout().len();
    s.insts = f.num_insts();
    s.copies_lifted = count_copies(&f);
    s.locals = lifted.locals;
    let fail = |stage: &str, message: String| Failure {
        index: body.index,
        stage: stage.to_string(),
        message,
    };
    let mut chosen = None;
    for (k, &flavor) in FLAVORS.iter().enumerate() {
        if flavor != opts.construct.flavor && !opts.all_flavors {
            continue;
        }
        let mut g = f.clone();
        let copts = construct::Options {
            flavor,
            ..opts.construct
        };
        let cs = timed(&mut s.times.construct[k], || {
            construct::construct(&mut g, &copts)
        })
        .map_err(|e| fail("construct", e.describe(&f)));
        let cs = match cs {
            Ok(c) => c,
            Err(e) => return Ok(Err(e)),
        };
        s.phis[k] = Some(cs.phis);
        if let Err(errs) = timed(&mut s.times.verify, || ssakit::verify::verify_valid(&g)) {
            let msg = errs.first().map(|e| e.describe(&g)).unwrap_or_default();
            return Ok(Err(fail(&format!("verify ({flavor:?})"), msg)));
        }
        if flavor == opts.construct.flavor {
            chosen = Some(g);
        }
    }
    let mut g = chosen.expect("the chosen flavour is one of the three");
    if !opts.passes.is_empty() {
        if let Err(e) = timed(&mut s.times.opt, || opt::run_passes(&mut g, &opts.passes)) {
            return Ok(Err(fail("opt", e.describe(&g))));
        }
    }
    if opts.destruct {
        // Without passes the SSA is the one just verified: destruction
        // need not check it again. After passes, its check is the oracle
        // on their output.
        let trusted = opts.passes.is_empty();
        let r = timed(&mut s.times.destruct, || {
            if trusted {
                destruct_trusted(&mut g, &DestructOptions::default())
            } else {
                destruct(&mut g, &DestructOptions::default())
            }
        });
        if let Err(e) = r {
            return Ok(Err(fail("destruct", e.describe(&g))));
        }
        s.copies = Some(count_copies(&g));
    }
    Ok(Ok(s))
}
