//! The module round trip of `ssakit wasm opt` (section 13.8, part 2):
//! every function body lifted, put into SSA form, optimised, destructed
//! and emitted again ([`crate::emit`]); everything outside the function
//! bodies carried over unchanged.
//!
//! * **Sections**: every section but the code section is copied byte for
//!   byte (types, imports, functions, tables, memories, globals, exports,
//!   start, elements, data count, data, and every custom section), in its
//!   place; the code section is encoded anew by `wasm_encoder`.
//! * **The name section** keeps its module, function and other names; its
//!   local names (subsection 2) and label names (subsection 3, of the
//!   extended name section) are dropped: after emission the locals past
//!   the parameters are other locals and the labels other blocks (a
//!   printer would name the new `loop` after an old `block`), and a
//!   parameter's name alone was not worth a second encoder.
//! * **Functions** run in parallel (rayon), results in module order:
//!   lift, construct (the flavour of the options), the passes, destruct
//!   (the options), emit.
//! * **Some functions only** ([`OptOptions::only`], `wasm opt --func`):
//!   the functions named are rewritten, every other body is validated and
//!   copied as it is; [`dump`] shows the functions named only.
//! * **A body kept as it was**, listed with its reason in
//!   [`OptStats::kept`] (`wasm opt` names each on standard error): one
//!   over the limit of locals (values live at once on the input's
//!   operand stack across a block, tens of thousands of them, each
//!   needing a local once emitted), and one whose destruction without
//!   coalescing would insert more than [`OptOptions::max_copies`] copies
//!   (minimal SSA has a phi for every lifter temporary at every join it
//!   reaches: 22 million phis in one function of esbuild's module, whose
//!   copies, one per phi operand and one per phi, do not fit in memory).
//! * **Validation**: the output is validated by wasmparser's validator
//!   before it is returned; an invalid output is an internal error naming
//!   the function, never returned.

use crate::duplicates::{self, Duplicates};
use crate::emit::{self, Lowering, OpTable};
use crate::error::{ErrorKind, WasmError};
use crate::lift::{lift, ModuleSymbols};
use crate::module::{self, val_type, WasmModule};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use ssakit::construct;
use ssakit::destruct::DestructOptions;
use ssakit::error::IrError;
use ssakit::ir::{Function, Type};
use ssakit::opt::Pass;
use ssakit::pipeline::{self, Observer, Pipeline, Stage};
use wasmparser::{Parser, Payload};

/// What to run on every function.
///
/// ```
/// use ssakit::opt::Pass;
/// use ssakit_wasm::rewrite::{optimize, OptOptions};
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func (export \"f\") (param i32) (result i32) (local i32 i32)
///     (local.set 1 (local.get 0)) (local.set 2 (local.get 1)) (i32.add (local.get 2) (i32.const 1))))").unwrap();
/// let options = OptOptions { passes: Pass::parse("copy-prop,dce").unwrap(), ..Default::default() };
/// let out = optimize(&wasm, &options).unwrap();
/// assert!(out.stats.locals_after < out.stats.locals_before);
/// ```
///
/// The default is what `ssakit wasm opt -O0` does: pruned SSA (not the
/// chapter's minimal SSA, [`construct::Options`]'s default: on real
/// modules minimal SSA gives a phi to every lifter temporary at every join
/// it reaches, quadratic on a lifted `br_table` with its cases), no
/// passes, edges split and coalescing. [`OptOptions::at`] gives each
/// level of `-O`.
///
/// ```
/// use ssakit::construct::Flavor;
/// assert_eq!(ssakit_wasm::rewrite::OptOptions::default().construct.flavor, Flavor::Pruned);
/// ```
#[derive(Clone, Debug)]
pub struct OptOptions {
    /// Construction options (the flavour; pruned by default).
    pub construct: construct::Options,
    /// Optimisation passes on the SSA form.
    pub passes: Vec<Pass>,
    /// Destruction options (split, coalesce, conventional).
    pub destruct: DestructOptions,
    /// The functions rewritten (indices, imports counted; see
    /// [`WasmModule::find`]), or `None` for every one. A body not listed
    /// is validated and copied as it is; an imported function listed is
    /// an error.
    ///
    /// ```
    /// use ssakit_wasm::rewrite::{optimize, OptOptions};
    /// let wasm = ssakit_wasm::module::to_binary(b"(module
    ///     (func (param i32) (result i32) (local i32) (local.set 1 (local.get 0)) (local.get 1))
    ///     (func (param i32) (result i32) (local i32) (local.set 1 (local.get 0)) (local.get 1)))").unwrap();
    /// let options = OptOptions { only: Some(vec![1]), ..Default::default() };
    /// let out = optimize(&wasm, &options).unwrap();
    /// // Function 0 keeps its local, function 1 needs none after the round trip.
    /// assert_eq!((out.stats.rewritten, out.stats.locals_before, out.stats.locals_after), (1, 2, 1));
    /// ```
    pub only: Option<Vec<u32>>,
    /// Merge duplicate functions (`-O1`): a body of the same bytes and
    /// type as an earlier one becomes a call of that one, and direct calls
    /// go to the earlier one ([`OptStats::merged`]). Ignored when
    /// [`OptOptions::only`] is given.
    ///
    /// ```
    /// use ssakit_wasm::rewrite::{optimize, OptOptions};
    /// let wasm = ssakit_wasm::module::to_binary(b"(module
    ///     (func (export \"a\") (param i32) (result i32) (i32.mul (local.get 0) (i32.const 3)))
    ///     (func (export \"b\") (param i32) (result i32) (i32.mul (local.get 0) (i32.const 3))))").unwrap();
    /// let merged = OptOptions { merge_duplicates: true, ..Default::default() };
    /// let out = optimize(&wasm, &merged).unwrap();
    /// assert_eq!(out.stats.merged, 1);
    /// // Function 1's body is `local.get 0; call 0`: smaller than the multiplication.
    /// let kept = optimize(&wasm, &OptOptions::default()).unwrap();
    /// assert!(out.stats.code_bytes_after < kept.stats.code_bytes_after);
    /// ```
    pub merge_duplicates: bool,
    /// The most copies destruction without coalescing may insert in one
    /// function (Sreedhar's Method I: one per phi operand and one per
    /// phi, each a variable and an instruction until the emitter drops
    /// the dead ones); a function that would need more is kept as it
    /// was ([`KeptReason::TooManyCopies`]). [`MAX_COPIES`] by default.
    /// Destruction with coalescing keeps the copies virtual and is not
    /// limited.
    ///
    /// ```
    /// use ssakit::construct::{self, Flavor};
    /// use ssakit::destruct::DestructOptions;
    /// use ssakit_wasm::rewrite::{optimize, KeptReason, OptOptions};
    /// let wasm = ssakit_wasm::module::to_binary(b"(module (func (export \"f\") (param i32) (result i32) (local i32)
    ///     (if (local.get 0) (then (local.set 1 (i32.const 7)))) (local.get 1)))").unwrap();
    /// let naive = OptOptions {
    ///     construct: construct::Options { flavor: Flavor::Minimal, ..Default::default() },
    ///     destruct: DestructOptions { coalesce: false, ..Default::default() },
    ///     max_copies: 2,
    ///     ..Default::default()
    /// };
    /// let out = optimize(&wasm, &naive).unwrap();
    /// // One phi of two operands: three copies.
    /// assert_eq!(out.stats.kept[0].reason, KeptReason::TooManyCopies { copies: 3, limit: 2 });
    /// assert_eq!(out.stats.code_bytes_after, out.stats.code_bytes_before);
    /// ```
    pub max_copies: usize,
}

/// [`OptOptions::max_copies`]'s default: 2^24 copies, about 2 GB for
/// one function (a function of esbuild's module with 137,712 minimal
/// phis takes 32 million copies, and `wasm opt --func` on it 3.9 GB at
/// its peak).
pub const MAX_COPIES: usize = 1 << 24;

impl Default for OptOptions {
    fn default() -> Self {
        OptOptions {
            construct: construct::Options {
                flavor: construct::Flavor::Pruned,
                ..Default::default()
            },
            passes: Vec::new(),
            destruct: DestructOptions::default(),
            only: None,
            merge_duplicates: false,
            max_copies: MAX_COPIES,
        }
    }
}

/// The levels of `ssakit wasm opt -O`, spelled as binaryen's `wasm-opt`
/// users expect. Which passes make a level was measured on the corpus
/// (docs/wasm.md, "Levels"): dead code elimination makes every module
/// smaller and costs no time (the emitter has less to emit); constant
/// propagation makes them larger (a literal costs more bytes than the
/// `local.get` it replaces) and so does copy propagation (longer live
/// ranges, more locals and `local.set`s).
///
/// ```
/// use ssakit::opt::Pass;
/// use ssakit_wasm::rewrite::{OptLevel, OptOptions};
/// assert!(OptOptions::at(OptLevel::O0).passes.is_empty());
/// assert_eq!(OptOptions::at(OptLevel::O1).passes, [Pass::Fold, Pass::Dce]);
/// assert!(OptOptions::at(OptLevel::O1).merge_duplicates);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptLevel {
    /// The round trip only: lift, pruned SSA, destruction, emission.
    O0,
    /// The round trip with the passes that make the output smaller:
    /// `dce`, and duplicate functions merged
    /// ([`OptOptions::merge_duplicates`]). The default of `ssakit wasm
    /// opt`.
    O1,
}

impl OptOptions {
    /// The options of `level`: [`OptOptions::default`] with its passes.
    ///
    /// ```
    /// use ssakit_wasm::rewrite::{optimize, OptLevel, OptOptions};
    /// // Local 1 is written and never read: dead code elimination drops it.
    /// let wasm = ssakit_wasm::module::to_binary(b"(module (func (export \"f\") (param i32) (result i32) (local i32)
    ///     (local.set 1 (i32.mul (local.get 0) (i32.const 3))) (local.get 0)))").unwrap();
    /// let size = |l| optimize(&wasm, &OptOptions::at(l)).unwrap().stats.code_bytes_after;
    /// assert!(size(OptLevel::O1) < size(OptLevel::O0));
    /// ```
    pub fn at(level: OptLevel) -> OptOptions {
        let passes = match level {
            OptLevel::O0 => Vec::new(),
            OptLevel::O1 => vec![Pass::Fold, Pass::Dce],
        };
        OptOptions {
            passes,
            merge_duplicates: level == OptLevel::O1,
            ..OptOptions::default()
        }
    }
}

/// Figures of one round trip.
///
/// ```
/// # use ssakit_wasm::rewrite::optimize;
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func (export \"f\") (param i32) (result i32) (local i32 i32)
///     (local.set 1 (local.get 0)) (local.set 2 (local.get 1)) (i32.add (local.get 2) (i32.const 1))))").unwrap();
/// let s = optimize(&wasm, &Default::default()).unwrap().stats;
/// assert_eq!((s.functions, s.rewritten, s.locals_before, s.kept.len()), (1, 1, 2, 0));
/// assert!(s.code_bytes_before > 0 && s.code_bytes_after > 0);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptStats {
    /// Functions with a body.
    pub functions: usize,
    /// Functions rewritten: every function with a body, or those of
    /// [`OptOptions::only`] (the others are copied as they are).
    pub rewritten: usize,
    /// Size in bytes of the input's code section (its contents).
    pub code_bytes_before: usize,
    /// Size in bytes of the output's code section.
    pub code_bytes_after: usize,
    /// Declared locals over all bodies (parameters not counted), before.
    pub locals_before: usize,
    /// Declared locals over all bodies (parameters not counted), after.
    pub locals_after: usize,
    /// Functions whose input body was kept as it was, in module order,
    /// each with why (they count in [`OptStats::rewritten`]).
    pub kept: Vec<Kept>,
    /// Functions merged into an earlier one of the same body
    /// ([`OptOptions::merge_duplicates`]): their bodies forward to it.
    pub merged: usize,
}

/// A function whose input body was kept as it was ([`OptStats::kept`]).
///
/// ```
/// use ssakit_wasm::rewrite::{Kept, KeptReason};
/// let k = Kept { index: 4, reason: KeptReason::TooManyLocals { needed: 60_000 } };
/// assert_eq!(k.to_string(), "function 4: emitted anew it would need 60000 locals (engines accept 50000)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The function's index (imports counted).
    pub index: u32,
    /// Why it was kept.
    pub reason: KeptReason,
}

/// Why a body was kept as it was.
///
/// ```
/// use ssakit_wasm::rewrite::KeptReason;
/// let r = KeptReason::TooManyCopies { copies: 110_000_000, limit: 1 << 24 };
/// assert!(r.to_string().ends_with("insert 110000000 copies (one per phi operand and one per phi), over the limit of 16777216"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeptReason {
    /// Emitted anew it would need more locals (parameters included) than
    /// the 50,000 engines accept.
    TooManyLocals {
        /// The locals it would need.
        needed: usize,
    },
    /// Destruction without coalescing would insert more copies than
    /// [`OptOptions::max_copies`].
    TooManyCopies {
        /// The copies it would insert.
        copies: usize,
        /// The limit ([`OptOptions::max_copies`]).
        limit: usize,
    },
}

impl std::fmt::Display for KeptReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            KeptReason::TooManyLocals { needed } => write!(
                f,
                "emitted anew it would need {needed} locals (engines accept {})",
                emit::MAX_LOCALS
            ),
            KeptReason::TooManyCopies { copies, limit } => write!(
                f,
                "destruction without coalescing would insert {copies} copies (one per phi \
                 operand and one per phi), over the limit of {limit}"
            ),
        }
    }
}

impl std::fmt::Display for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "function {}: {}", self.index, self.reason)
    }
}

/// The rewritten module and its figures.
///
/// ```
/// # use ssakit_wasm::rewrite::optimize;
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func (export \"f\") (param i32) (result i32) (local i32 i32)
///     (local.set 1 (local.get 0)) (local.set 2 (local.get 1)) (i32.add (local.get 2) (i32.const 1))))").unwrap();
/// let out = optimize(&wasm, &Default::default()).unwrap();
/// let m = ssakit_wasm::module::parse(&out.bytes).unwrap();
/// assert_eq!(m.signature(0).params, [ssakit::ir::Type::I32]);
/// assert_eq!(out.stats.functions, m.bodies.len());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Optimized {
    /// The output module, binary.
    pub bytes: Vec<u8>,
    /// Its figures.
    pub stats: OptStats,
}

/// The types of the module's globals (imported first).
fn global_types(bytes: &[u8]) -> Result<Vec<Type>, WasmError> {
    let mut out = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        match payload? {
            Payload::ImportSection(reader) => {
                for imp in reader.into_imports() {
                    if let wasmparser::TypeRef::Global(g) = imp?.ty {
                        out.push(val_type(g.content_type, 0)?);
                    }
                }
            }
            Payload::GlobalSection(reader) => {
                for g in reader {
                    let g = g?;
                    out.push(val_type(g.ty.content_type, 0)?);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// What becomes of one function body.
enum Rewritten {
    /// Emitted anew.
    Emitted(emit::EmittedFunction),
    /// The input's body, kept, for this reason.
    Kept(KeptReason),
    /// The input's body, validated and copied: not one of
    /// [`OptOptions::only`].
    Copied,
    /// A call of the function it was merged into, with its parameters.
    Forwarding(u32),
}

/// One function through the pipeline and the emitter, and its declared
/// locals before.
fn one(
    m: &WasmModule<'_>,
    syms: &ModuleSymbols,
    low: &Lowering<'_>,
    body: &module::Body<'_>,
    options: &OptOptions,
    dups: &Duplicates,
) -> Result<(Rewritten, usize), WasmError> {
    if let Some(rep) = dups.merged_into(body.index) {
        validate_body(body)?;
        return Ok((Rewritten::Forwarding(rep), declared_locals(body)?));
    }
    if !selected(options, body.index) {
        validate_body(body)?;
        return Ok((Rewritten::Copied, declared_locals(body)?));
    }
    let (f, locals_before) = match prepare(m, syms, body, options)? {
        Prepared::Destructed(f, locals_before) => (f, locals_before),
        Prepared::TooManyCopies(copies, locals_before) => {
            let limit = options.max_copies;
            return Ok((
                Rewritten::Kept(KeptReason::TooManyCopies { copies, limit }),
                locals_before,
            ));
        }
    };
    let n_params = m.signature(body.index).params.len();
    let e = emit::emit_unchecked(&f, low).map_err(|e| e.in_func(body.index))?;
    // Values the input keeps on its operand stack across a block each
    // need a local once emitted (the emitter keeps no value on the stack
    // across a block): tens of thousands of them, all live at once, are
    // more locals than engines accept. The input's body is valid and
    // means the same: it is kept.
    let needed = n_params + e.locals;
    if needed > emit::MAX_LOCALS {
        return Ok((
            Rewritten::Kept(KeptReason::TooManyLocals { needed }),
            locals_before,
        ));
    }
    Ok((Rewritten::Emitted(e), locals_before))
}

/// Whether function `index` is rewritten ([`OptOptions::only`]).
fn selected(options: &OptOptions, index: u32) -> bool {
    options
        .only
        .as_ref()
        .is_none_or(|only| only.contains(&index))
}

/// Refuses an imported function in [`OptOptions::only`] (it has no body)
/// or an index past the module's functions.
fn check_only(m: &WasmModule<'_>, options: &OptOptions) -> Result<(), WasmError> {
    for &i in options.only.iter().flatten() {
        if i < m.num_imported || i as usize >= m.names.len() {
            let what = if i < m.num_imported {
                "is imported: it has no body"
            } else {
                "does not exist"
            };
            return Err(
                WasmError::new(format!("function {i} {what}")).with_kind(ErrorKind::Options)
            );
        }
    }
    Ok(())
}

/// The locals `body` declares (parameters not counted).
fn declared_locals(body: &module::Body<'_>) -> Result<usize, WasmError> {
    let mut n = 0usize;
    for l in body.body.get_locals_reader()? {
        n += l?.0 as usize;
    }
    Ok(n)
}

/// One function lifted, put into SSA form, optimised and destructed, and
/// its declared locals before.
/// A function through the pipeline ([`prepare`]), with its declared
/// locals before.
enum Prepared {
    /// Out of SSA form.
    Destructed(Box<Function>, usize),
    /// Not destructed: it would take this many copies, over
    /// [`OptOptions::max_copies`].
    TooManyCopies(usize, usize),
}

/// Refuses destruction without coalescing of SSA whose copies (Method I:
/// one per phi operand, one per phi) would be more than `limit`; counts
/// them in `over` when it does.
struct CopyBudget {
    limit: usize,
    over: Option<usize>,
}

impl Observer for CopyBudget {
    fn before_destruct(&mut self, ssa: &Function) -> Result<(), pipeline::Error> {
        if self.limit == usize::MAX {
            return Ok(());
        }
        let copies: usize = (ssa.layout().iter())
            .flat_map(|&b| ssa.block_phis(b))
            .map(|&i| ssa.phi_args(i).len() + 1)
            .sum();
        if copies <= self.limit {
            return Ok(());
        }
        self.over = Some(copies);
        let e = IrError {
            kind: ssakit::error::ErrorKind::Options,
            func: ssa.name().to_string(),
            block: None,
            inst: None,
            message: format!("{copies} copies over the limit of {}", self.limit),
        };
        Err(pipeline::Error::new(Stage::Destruct, e, ssa))
    }
}

/// Lifts `body`, then constructs, runs the passes and destructs as
/// `options` say: the function out of SSA form, or, without coalescing,
/// the copies it would take when they are over the limit.
fn prepare(
    m: &WasmModule<'_>,
    syms: &ModuleSymbols,
    body: &module::Body<'_>,
    options: &OptOptions,
) -> Result<Prepared, WasmError> {
    let index = body.index;
    let lifted = lift(m, syms, body)?;
    let n_params = m.signature(index).params.len();
    let locals_before = lifted.locals - n_params;
    let run = Pipeline {
        construct: options.construct,
        passes: options.passes.clone(),
        destruct: Some(options.destruct),
        ..Default::default()
    };
    let d = &options.destruct;
    let limit = match d.coalesce || d.conventional {
        true => usize::MAX,
        false => options.max_copies,
    };
    let mut budget = CopyBudget { limit, over: None };
    let out = run.run_observed(lifted.func, &mut budget);
    if let Some(copies) = budget.over {
        return Ok(Prepared::TooManyCopies(copies, locals_before));
    }
    let out = out.map_err(|e| {
        // Construction makes conventional SSA; passes such as copy
        // propagation may not keep it so. The chapter's direct
        // destruction then refuses, which is the user's choice of
        // options meeting this function, not a fault of ours.
        let refused = e.stage == Stage::Destruct && e.error.kind.is_not_conventional();
        if refused && !options.passes.is_empty() {
            WasmError::new(format!(
                "--conventional: {} (after the passes, which need not keep SSA \
                 conventional; drop --passes, or --conventional to have copies inserted)",
                e.message
            ))
            .with_kind(ErrorKind::Options)
            .in_func(index)
        } else {
            WasmError::new(format!("internal error in {e}"))
                .with_kind(ErrorKind::Internal)
                .in_func(index)
        }
    })?;
    Ok(Prepared::Destructed(Box::new(out.func), locals_before))
}

/// Rewrites every function body of the module `bytes` (binary, or text
/// assembled first) through `options`.
///
/// # Errors
/// An invalid input (located), or an internal error naming the function.
///
/// ```
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func (result i32) i32.const 1))").unwrap();
/// let out = ssakit_wasm::rewrite::optimize(&wasm, &Default::default()).unwrap();
/// assert!(ssakit_wasm::module::parse(&out.bytes).is_ok());
/// ```
pub fn optimize(bytes: &[u8], options: &OptOptions) -> Result<Optimized, WasmError> {
    let binary = module::to_binary(bytes)?;
    let m = module::parse(&binary)?;
    check_only(&m, options)?;
    let syms = ModuleSymbols::new(&m);
    let dups = match options.merge_duplicates && options.only.is_none() {
        true => Duplicates::find(&m),
        false => Duplicates::none(&m),
    };
    let tables = Tables::new(&m, &syms, &binary, &dups)?;
    let low = tables.lowering(&m);
    let emitted: Vec<(Rewritten, usize)> = m
        .bodies
        .par_iter()
        .map(|b| one(&m, &syms, &low, b, options, &dups))
        .collect::<Result<_, _>>()?;
    let mut stats = OptStats {
        functions: m.bodies.len(),
        merged: dups.merged(),
        ..OptStats::default()
    };
    let mut code = wasm_encoder::CodeSection::new();
    for ((e, before), body) in emitted.iter().zip(&m.bodies) {
        stats.locals_before += before;
        match e {
            Rewritten::Emitted(e) => {
                stats.rewritten += 1;
                stats.locals_after += e.locals;
                code.function(&e.func);
            }
            Rewritten::Kept(reason) => {
                stats.rewritten += 1;
                stats.locals_after += before;
                let index = body.index;
                stats.kept.push(Kept {
                    index,
                    reason: *reason,
                });
                code.raw(body.body.as_bytes());
            }
            Rewritten::Copied => {
                stats.locals_after += before;
                code.raw(body.body.as_bytes());
            }
            Rewritten::Forwarding(rep) => {
                stats.rewritten += 1;
                let params = m.signature(body.index).params.len();
                code.function(&duplicates::forwarding_body(params, *rep));
            }
        }
    }
    let out = reassemble(&binary, &code, &mut stats)?;
    if let Err(e) = module::parse(&out).and_then(|m2| validate_bodies(&m2)) {
        return Err(WasmError {
            kind: ErrorKind::Internal,
            message: format!(
                "internal error: the rewritten module is invalid: {}",
                e.message
            ),
            ..e
        });
    }
    Ok(Optimized { bytes: out, stats })
}

/// The tables of a [`Lowering`] for the functions of a module: its
/// operators, its callees' function indices, its globals' types.
struct Tables {
    ops: OpTable,
    callees: Vec<Option<u32>>,
    globals: Vec<Type>,
}

impl Tables {
    /// The tables of module `m` (binary `binary`), calls going to the
    /// representatives of `dups`.
    fn new(
        m: &WasmModule<'_>,
        syms: &ModuleSymbols,
        binary: &[u8],
        dups: &Duplicates,
    ) -> Result<Tables, WasmError> {
        let by_name: FxHashMap<&str, u32> = m
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i as u32))
            .collect();
        let callees = (0..syms.shared().num_callees())
            .map(|c| {
                let name = syms.shared().callee_name(ssakit::ir::Callee::new(c));
                by_name.get(name).map(|&f| dups.representative(f))
            })
            .collect();
        Ok(Tables {
            ops: OpTable::new(syms.shared()),
            callees,
            globals: global_types(binary)?,
        })
    }

    /// The lowering of `m`'s functions.
    fn lowering<'a>(&'a self, m: &'a WasmModule<'_>) -> Lowering<'a> {
        Lowering {
            ops: &self.ops,
            callees: &self.callees,
            func_types: &m.func_types,
            types: &m.types,
            globals: &self.globals,
            print: &[],
        }
    }
}

/// What `ssakit wasm opt --dump` prints: every function of the module
/// `bytes` (those of [`OptOptions::only`], when given) through
/// `options`'s pipeline, then the emitter's steps up to `what`, whose
/// result is printed ([`emit::Dump`]), in module order.
///
/// # Errors
/// As [`optimize`], up to that step.
///
/// ```
/// use ssakit_wasm::{emit::Dump, rewrite::{dump, OptOptions}};
/// let wasm = ssakit_wasm::module::to_binary(b"(module (func $f (param i32) (result i32)
///     (i32.add (local.get 0) (i32.const 1))))").unwrap();
/// let text = dump(&wasm, &OptOptions::default(), Dump::Stackify).unwrap();
/// assert!(text.starts_with("function f:\n"), "{text}");
/// assert!(text.contains("on the stack"), "{text}");
/// ```
pub fn dump(bytes: &[u8], options: &OptOptions, what: emit::Dump) -> Result<String, WasmError> {
    let binary = module::to_binary(bytes)?;
    let m = module::parse(&binary)?;
    check_only(&m, options)?;
    let syms = ModuleSymbols::new(&m);
    let tables = Tables::new(&m, &syms, &binary, &Duplicates::none(&m))?;
    let low = tables.lowering(&m);
    let texts: Vec<String> = m
        .bodies
        .par_iter()
        .filter(|b| selected(options, b.index))
        .map(|b| {
            let f = match prepare(&m, &syms, b, options)? {
                Prepared::Destructed(f, _) => f,
                Prepared::TooManyCopies(copies, _) => {
                    let limit = options.max_copies;
                    let reason = KeptReason::TooManyCopies { copies, limit };
                    let kept = Kept {
                        index: b.index,
                        reason,
                    };
                    return Ok(format!("{kept}; kept as it was\n"));
                }
            };
            emit::dump::function(&f, &low, what).map_err(|e| e.in_func(b.index))
        })
        .collect::<Result<_, _>>()?;
    Ok(texts.join("\n"))
}

/// Validates every function body of `m` (`module::parse` leaves them to
/// the lifter).
fn validate_bodies(m: &WasmModule<'_>) -> Result<(), WasmError> {
    m.bodies.par_iter().try_for_each(validate_body)
}

/// Validates one function body.
fn validate_body(b: &module::Body<'_>) -> Result<(), WasmError> {
    let mut v = b
        .validator()
        .into_validator(wasmparser::FuncValidatorAllocations::default());
    v.validate(&b.body)
        .map_err(|e| WasmError::from(e).in_func(b.index))
}

/// `input` with its code section replaced by `code` and the local and
/// label names dropped from its name section.
fn reassemble(
    input: &[u8],
    code: &wasm_encoder::CodeSection,
    stats: &mut OptStats,
) -> Result<Vec<u8>, WasmError> {
    let mut module = wasm_encoder::Module::new();
    for payload in Parser::new(0).parse_all(input) {
        let payload = payload?;
        match &payload {
            Payload::CodeSectionStart {
                unchecked_range, ..
            } => {
                stats.code_bytes_before = (unchecked_range.end - unchecked_range.start) as usize;
                let mut bytes = Vec::new();
                wasm_encoder::Encode::encode(code, &mut bytes);
                // The section's contents, without its id and size.
                stats.code_bytes_after = {
                    let mut r = wasmparser::BinaryReader::new(&bytes, 0);
                    let size = r.read_var_u32()? as usize;
                    debug_assert_eq!(size, bytes.len() - r.current_position());
                    size
                };
                module.section(code);
            }
            Payload::CustomSection(c) if c.name() == "name" => {
                module.section(&drop_body_names(c));
            }
            _ => {
                if let Some((id, range)) = payload.as_section() {
                    module.section(&wasm_encoder::RawSection {
                        id,
                        data: &input[range.start as usize..range.end as usize],
                    });
                }
            }
        }
    }
    Ok(module.finish())
}

/// The name section `c` without its local-names and label-names
/// subsections (ids 2 and 3); a
/// malformed one as it is (engines ignore it).
fn drop_body_names(
    c: &wasmparser::CustomSectionReader<'_>,
) -> wasm_encoder::CustomSection<'static> {
    let data = c.data();
    let strip = || -> Result<Vec<u8>, wasmparser::BinaryReaderError> {
        let mut out = Vec::with_capacity(data.len());
        let mut r = wasmparser::BinaryReader::new(data, 0);
        while !r.eof() {
            let start = r.current_position();
            let id = r.read_u8()?;
            let size = r.read_var_u32()? as usize;
            r.read_bytes(size)?;
            if id != 2 && id != 3 {
                out.extend_from_slice(&data[start..r.current_position()]);
            }
        }
        Ok(out)
    };
    wasm_encoder::CustomSection {
        name: "name".into(),
        data: strip().unwrap_or_else(|_| data.to_vec()).into(),
    }
}
