//! The chapter's pipeline over one function, in its order: construction
//! (chapter, sections 13.1 to 13.5: dominance frontiers on the DJ-graph,
//! phi insertion at DF⁺, renaming, in the flavour asked for, or in all
//! three for their phi counts), verification of each construction,
//! optimisation passes, and destruction (13.6 and 13.7: phi webs or
//! copies, critical edges, parallel copies sequentialized).
//!
//! Every front end lifts a function into the IR and hands it to
//! [`Pipeline::run`]: `ssakit wasm stats`, `wasm opt`, `x86 stats` and
//! the fuzz checks run this code, not a copy of it. What a front end
//! counts on the SSA form that the pipeline does not (x86's phis of
//! registers, flags and vector registers) it reads through an
//! [`Observer`], as construction's own observer lets a caller watch
//! renaming.
//!
//! * **Flavours**: only the chosen one ([`Flavors::Chosen`]) or all three
//!   ([`Flavors::All`]; the others are built on copies, verified,
//!   counted and dropped). Minimal SSA places a phi at the iterated
//!   dominance frontier of every assignment (13.3), quadratic in the
//!   function on a ladder of blocks: a 353 KB WebAssembly module's
//!   minimal SSA took 22 GB, so all three are built only when asked.
//! * **Verification** ([`Pipeline::verify`]): the
//!   [verifier](crate::verify::verify_valid) after each construction.
//!   Destruction then trusts SSA just verified
//!   ([`destruct_trusted`](crate::destruct::destruct_trusted)); after
//!   passes, or unverified, it checks its input itself, and skips its
//!   dead-code walk when dead-code elimination ran last
//!   ([`destruct_swept`](crate::destruct::destruct_swept)).
//! * **Failure**: an [`Error`] naming the [`Stage`] and carrying the
//!   [`IrError`] and its description.
//! * **Time**: each stage is a [`timing::phase`] (`construct minimal`,
//!   `construct semi-pruned`, `construct pruned`, `verify`, `opt`,
//!   `destruct`), with the phases of the passes inside them;
//!   [`Outcome::times`] holds them all (a run collects its own, so an
//!   enclosing [`timing::collect`] does not see them: a front end adds
//!   them to its record of lifting).
//!
//! ```
//! use ssakit::pipeline::{Flavors, Pipeline};
//! use ssakit::construct::Flavor;
//! let src = "function f(n) {\ne:\n    s = 0\n    jump h\nh:\n    c = s < n\n    branch c, b, x\nb:\n    s = s + 1\n    jump h\nx:\n    ret s\n}\n";
//! let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
//! let run = Pipeline {
//!     flavors: Flavors::All,
//!     verify: true,
//!     destruct: Some(Default::default()),
//!     ..Default::default()
//! };
//! let out = run.run(f).unwrap();
//! assert_eq!(out.phis.get(Flavor::Pruned), Some(&1));
//! assert!(ssakit::destruct::is_out_of_ssa(&out.func));
//! assert!(out.times.seconds("verify") >= 0.0);
//! ```

use crate::construct::{self, Flavor};
use crate::destruct::{self, DestructOptions, DestructStats};
use crate::error::IrError;
use crate::ir::Function;
use crate::opt::{self, Pass};
use crate::timing::{self, PassTimes};
use std::fmt;

/// The three flavours, in the order the pipeline builds them and
/// [`PerFlavor`] stores them.
///
/// ```
/// use ssakit::construct::Flavor;
/// assert_eq!(ssakit::pipeline::FLAVORS[0], Flavor::Minimal);
/// ```
pub const FLAVORS: [Flavor; 3] = [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned];

/// The position of `flavor` in [`FLAVORS`].
fn slot(flavor: Flavor) -> usize {
    match flavor {
        Flavor::Minimal => 0,
        Flavor::SemiPruned => 1,
        Flavor::Pruned => 2,
    }
}

/// Which flavours a run constructs.
///
/// ```
/// use ssakit::pipeline::Flavors;
/// assert_eq!(Flavors::default(), Flavors::Chosen);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Flavors {
    /// Only the chosen flavour (the one of [`Pipeline::construct`]).
    #[default]
    Chosen,
    /// All three, the chosen one going on to the passes and destruction;
    /// the other two are constructed, verified and counted.
    All,
}

/// One value per flavour, in [`FLAVORS`] order; `None` for a flavour
/// not constructed.
///
/// ```
/// use ssakit::construct::Flavor;
/// use ssakit::pipeline::PerFlavor;
/// let mut phis = PerFlavor::default();
/// phis.set(Flavor::Pruned, 4);
/// assert_eq!((phis.get(Flavor::Pruned), phis.get(Flavor::Minimal)), (Some(&4), None));
/// assert_eq!(phis.to_array(), [None, None, Some(4)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerFlavor<T>([Option<T>; 3]);

impl<T> Default for PerFlavor<T> {
    fn default() -> Self {
        PerFlavor([None, None, None])
    }
}

impl<T> PerFlavor<T> {
    /// The value of `flavor`, if it was constructed.
    ///
    /// ```
    /// use ssakit::construct::Flavor;
    /// let p = ssakit::pipeline::PerFlavor::<usize>::default();
    /// assert_eq!(p.get(Flavor::SemiPruned), None);
    /// ```
    pub fn get(&self, flavor: Flavor) -> Option<&T> {
        self.0[slot(flavor)].as_ref()
    }

    /// Sets the value of `flavor`.
    ///
    /// ```
    /// use ssakit::construct::Flavor;
    /// let mut p = ssakit::pipeline::PerFlavor::default();
    /// p.set(Flavor::Minimal, "phis");
    /// assert_eq!(p.get(Flavor::Minimal), Some(&"phis"));
    /// ```
    pub fn set(&mut self, flavor: Flavor, value: T) {
        self.0[slot(flavor)] = Some(value);
    }

    /// The value of `flavor`, made first by `make` if there is none.
    ///
    /// ```
    /// use ssakit::construct::Flavor;
    /// let mut p = ssakit::pipeline::PerFlavor::default();
    /// *p.get_or_insert_with(Flavor::Pruned, || 0) += 2;
    /// *p.get_or_insert_with(Flavor::Pruned, || 0) += 3;
    /// assert_eq!(p.get(Flavor::Pruned), Some(&5));
    /// ```
    pub fn get_or_insert_with(&mut self, flavor: Flavor, make: impl FnOnce() -> T) -> &mut T {
        self.0[slot(flavor)].get_or_insert_with(make)
    }

    /// The constructed flavours and their values, in [`FLAVORS`] order.
    ///
    /// ```
    /// use ssakit::construct::Flavor;
    /// let mut p = ssakit::pipeline::PerFlavor::default();
    /// p.set(Flavor::Pruned, 1);
    /// p.set(Flavor::Minimal, 3);
    /// let v: Vec<_> = p.iter().collect();
    /// assert_eq!(v, [(Flavor::Minimal, &3), (Flavor::Pruned, &1)]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (Flavor, &T)> {
        FLAVORS
            .iter()
            .zip(&self.0)
            .filter_map(|(&f, v)| v.as_ref().map(|v| (f, v)))
    }
}

impl<T: Clone> PerFlavor<T> {
    /// The values in [`FLAVORS`] order.
    ///
    /// ```
    /// let p = ssakit::pipeline::PerFlavor::<u8>::default();
    /// assert_eq!(p.to_array(), [None, None, None]);
    /// ```
    pub fn to_array(&self) -> [Option<T>; 3] {
        self.0.clone()
    }
}

/// What a run does: a description that every front end builds from its
/// options and hands a function to.
///
/// The default constructs the chosen flavour of
/// [`construct::Options::default`] (minimal SSA) only, does not verify,
/// runs no pass and does not destruct.
///
/// ```
/// use ssakit::opt::Pass;
/// use ssakit::pipeline::Pipeline;
/// let p = Pipeline { passes: Pass::parse("copy-prop,dce").unwrap(), ..Default::default() };
/// assert!(!p.verify && p.destruct.is_none());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Pipeline {
    /// Construction options; their flavour is the chosen one, which goes
    /// on to the passes and destruction.
    pub construct: construct::Options,
    /// Which flavours to construct.
    pub flavors: Flavors,
    /// Whether to verify each construction.
    pub verify: bool,
    /// Optimisation passes on the chosen flavour's SSA, in order.
    pub passes: Vec<Pass>,
    /// Destruction after the passes, with these options; `None` leaves
    /// the function in SSA form.
    pub destruct: Option<DestructOptions>,
}

/// The stage a run failed in.
///
/// Its `Display` is the stage's name in the messages of the command line
/// (`internal error in opt: ...`, `failed in verify (Pruned): ...`).
///
/// ```
/// use ssakit::construct::Flavor;
/// use ssakit::pipeline::Stage;
/// assert_eq!(Stage::Verify(Flavor::SemiPruned).to_string(), "verify (SemiPruned)");
/// assert_eq!(Stage::Construct(Flavor::Pruned).to_string(), "construct");
/// assert_eq!(Stage::Destruct.to_string(), "destruct");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Construction of a flavour.
    Construct(Flavor),
    /// Verification of a flavour's construction.
    Verify(Flavor),
    /// The optimisation passes.
    Opt,
    /// Destruction.
    Destruct,
}

impl Stage {
    /// The name of the stage's [`timing::phase`] in [`Outcome::times`]:
    /// `construct minimal`, `construct semi-pruned`, `construct pruned`,
    /// `verify` (every flavour's), `opt`, `destruct`.
    ///
    /// ```
    /// use ssakit::construct::Flavor;
    /// use ssakit::pipeline::{Pipeline, Stage};
    /// let f = ssakit::text::parse_module("function f() {\ne:\n    ret\n}\n").unwrap().functions.remove(0);
    /// let out = Pipeline { verify: true, ..Default::default() }.run(f).unwrap();
    /// let phase = Stage::Construct(Flavor::Minimal).phase();
    /// assert_eq!(phase, "construct minimal");
    /// assert!(out.times.phases.iter().any(|p| p.0 == phase));
    /// assert_eq!(Stage::Verify(Flavor::Pruned).phase(), "verify");
    /// ```
    pub fn phase(self) -> &'static str {
        match self {
            Stage::Construct(flavor) => [
                "construct minimal",
                "construct semi-pruned",
                "construct pruned",
            ][slot(flavor)],
            Stage::Verify(_) => "verify",
            Stage::Opt => "opt",
            Stage::Destruct => "destruct",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::Construct(_) => f.write_str("construct"),
            Stage::Verify(flavor) => write!(f, "verify ({flavor:?})"),
            Stage::Opt => f.write_str("opt"),
            Stage::Destruct => f.write_str("destruct"),
        }
    }
}

/// A run that failed: the stage, the pass's error, and that error
/// described with the function's block names as they were when it
/// failed.
///
/// ```
/// use ssakit::error::ErrorKind;
/// use ssakit::pipeline::{Pipeline, Stage};
/// // Construction refuses a program that already holds a phi.
/// let src = "function f(c: bool) {\ne:\n    branch c, a, j\na:\n    jump j\nj:\n    x = phi(e: 1, a: 2)\n    ret x\n}\n";
/// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let e = Pipeline::default().run(f).unwrap_err();
/// assert!(matches!(e.stage, Stage::Construct(_)));
/// assert_eq!(e.error.kind, ErrorKind::Input);
/// assert!(e.to_string().starts_with("construct: function `f`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where it failed.
    pub stage: Stage,
    /// The pass's or the verifier's error (its kind is what callers
    /// decide on).
    pub error: IrError,
    /// `error` described ([`IrError::describe`]) against the function it
    /// was found in.
    pub message: String,
}

impl Error {
    /// The error `error` of `stage`, found in `func`.
    ///
    /// ```
    /// use ssakit::pipeline::{Error, Stage};
    /// let f = ssakit::text::parse_module("function f(a) {\ne:\n    b = a\n    b = 2\n    ret b\n}\n").unwrap().functions.remove(0);
    /// let bad = ssakit::verify::verify_valid(&f).unwrap_err().remove(0);
    /// let e = Error::new(Stage::Opt, bad, &f);
    /// assert!(e.message.starts_with("function `f`, block `e`"));
    /// ```
    pub fn new(stage: Stage, error: IrError, func: &Function) -> Error {
        Error {
            stage,
            message: error.describe(func),
            error,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.stage, self.message)
    }
}

impl std::error::Error for Error {}

/// What a run gives back.
///
/// ```
/// use ssakit::pipeline::Pipeline;
/// let f = ssakit::text::parse_module("function f(a) {\ne:\n    b = a\n    ret b\n}\n").unwrap().functions.remove(0);
/// let out = Pipeline { destruct: Some(Default::default()), ..Default::default() }.run(f).unwrap();
/// // Coalescing gave `a` and `b` one name: the copy went.
/// assert_eq!(out.copies, Some(0));
/// assert!(out.destruct.is_some());
/// ```
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The chosen flavour's SSA after the passes, out of SSA if
    /// [`Pipeline::destruct`] asked.
    pub func: Function,
    /// Phis placed by each flavour constructed.
    pub phis: PerFlavor<usize>,
    /// Copies left after destruction ([`count_copies`]), if it ran.
    pub copies: Option<usize>,
    /// Destruction's counts, if it ran.
    pub destruct: Option<DestructStats>,
    /// Every phase timed during the run: the stages (see the module
    /// doc) and the phases of the passes inside them.
    pub times: PassTimes,
}

/// What a front end sees of a run as it goes: every hook defaults to
/// doing nothing (`()` is the observer of no one).
///
/// ```
/// use ssakit::construct::Flavor;
/// use ssakit::ir::Function;
/// use ssakit::pipeline::{Error, Flavors, Observer, Pipeline};
/// /// Blocks per flavour.
/// struct Blocks(Vec<(Flavor, usize)>);
/// impl Observer for Blocks {
///     fn constructed(&mut self, flavor: Flavor, ssa: &Function, _chosen: bool) -> Result<(), Error> {
///         self.0.push((flavor, ssa.layout().len()));
///         Ok(())
///     }
/// }
/// let f = ssakit::text::parse_module("function f() {\ne:\n    ret\n}\n").unwrap().functions.remove(0);
/// let mut seen = Blocks(Vec::new());
/// Pipeline { flavors: Flavors::All, ..Default::default() }.run_observed(f, &mut seen).unwrap();
/// assert_eq!(seen.0.len(), 3);
/// ```
pub trait Observer {
    /// `flavor` was constructed (and verified, if asked) into `ssa`; in
    /// [`FLAVORS`] order, `chosen` for the flavour that goes on. An error
    /// ends the run with it.
    ///
    /// ```
    /// use ssakit::construct::Flavor;
    /// use ssakit::ir::Function;
    /// use ssakit::pipeline::{Error, Flavors, Observer, Pipeline};
    /// /// The flavour that goes on, and the blocks of its SSA.
    /// struct Chosen(Option<(Flavor, usize)>);
    /// impl Observer for Chosen {
    ///     fn constructed(&mut self, flavor: Flavor, ssa: &Function, chosen: bool) -> Result<(), Error> {
    ///         if chosen {
    ///             self.0 = Some((flavor, ssa.layout().len()));
    ///         }
    ///         Ok(())
    ///     }
    /// }
    /// let f = ssakit::text::parse_module("function f() {\ne:\n    ret\n}\n").unwrap().functions.remove(0);
    /// let mut p = Pipeline { flavors: Flavors::All, ..Default::default() };
    /// p.construct.flavor = Flavor::SemiPruned;
    /// let mut seen = Chosen(None);
    /// p.run_observed(f, &mut seen).unwrap();
    /// assert_eq!(seen.0, Some((Flavor::SemiPruned, 1)));
    /// ```
    fn constructed(&mut self, flavor: Flavor, ssa: &Function, chosen: bool) -> Result<(), Error> {
        let _ = (flavor, ssa, chosen);
        Ok(())
    }

    /// The passes are about to run on `ssa` (only if there are passes).
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// use ssakit::opt::Pass;
    /// use ssakit::pipeline::{Observer, Pipeline};
    /// /// The SSA form as constructed, before the passes change it.
    /// struct Keep(Option<Function>);
    /// impl Observer for Keep {
    ///     fn before_passes(&mut self, ssa: &Function) {
    ///         self.0 = Some(ssa.clone());
    ///     }
    /// }
    /// let f = ssakit::text::parse_module("function f(a) {\ne:\n    b = a\n    ret b\n}\n").unwrap().functions.remove(0);
    /// let p = Pipeline { passes: Pass::parse("copy-prop,dce").unwrap(), ..Default::default() };
    /// let mut keep = Keep(None);
    /// let out = p.run_observed(f, &mut keep).unwrap();
    /// assert!(keep.0.unwrap().num_insts() > out.func.num_insts());
    /// ```
    fn before_passes(&mut self, ssa: &Function) {
        let _ = ssa;
    }

    /// The passes ran on `ssa` (only if there are passes), before
    /// destruction.
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// use ssakit::opt::Pass;
    /// use ssakit::pipeline::{Observer, Pipeline};
    /// /// Whether the passes left valid SSA.
    /// struct Valid(bool);
    /// impl Observer for Valid {
    ///     fn after_passes(&mut self, ssa: &Function) {
    ///         self.0 = ssakit::verify::verify_valid(ssa).is_ok();
    ///     }
    /// }
    /// let f = ssakit::text::parse_module("function f(a) {\ne:\n    b = a + 1\n    ret a\n}\n").unwrap().functions.remove(0);
    /// let p = Pipeline { passes: vec![Pass::Dce], destruct: Some(Default::default()), ..Default::default() };
    /// let mut valid = Valid(false);
    /// let out = p.run_observed(f, &mut valid).unwrap();
    /// assert!(valid.0 && ssakit::destruct::is_out_of_ssa(&out.func));
    /// ```
    fn after_passes(&mut self, ssa: &Function) {
        let _ = ssa;
    }

    /// Destruction is about to run on `ssa` (only if it is asked for).
    /// An error ends the run with it: a caller that cannot afford what
    /// destruction would make of `ssa` stops here.
    ///
    /// ```
    /// use ssakit::error::{ErrorKind, IrError};
    /// use ssakit::ir::Function;
    /// use ssakit::pipeline::{Error, Observer, Pipeline, Stage};
    /// /// Refuses to destruct SSA with more than `0` phis.
    /// struct AtMost(usize);
    /// impl Observer for AtMost {
    ///     fn before_destruct(&mut self, ssa: &Function) -> Result<(), Error> {
    ///         let phis: usize = ssa.layout().iter().map(|&b| ssa.block_phis(b).len()).sum();
    ///         match phis <= self.0 {
    ///             true => Ok(()),
    ///             false => {
    ///                 let message = "too many phis".to_string();
    ///                 let e = IrError { kind: ErrorKind::Options, func: ssa.name().into(), block: None, inst: None, message };
    ///                 Err(Error::new(Stage::Destruct, e, ssa))
    ///             }
    ///         }
    ///     }
    /// }
    /// let src = "function f(c: bool) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}\n";
    /// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
    /// let p = Pipeline { destruct: Some(Default::default()), ..Default::default() };
    /// let e = p.run_observed(f, &mut AtMost(0)).unwrap_err();
    /// assert_eq!(e.stage, Stage::Destruct);
    /// ```
    fn before_destruct(&mut self, ssa: &Function) -> Result<(), Error> {
        let _ = ssa;
        Ok(())
    }
}

impl Observer for () {}

/// The number of copy instructions of `f`.
///
/// ```
/// let src = "function f(a) {\nentry:\n    x = a\n    y = x\n    z = y + 1\n    ret z\n}\n";
/// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// assert_eq!(ssakit::pipeline::count_copies(&f), 2);
/// ```
pub fn count_copies(f: &Function) -> usize {
    destruct::cleanup::count_copies(f)
}

impl Pipeline {
    /// Runs the pipeline on `func`.
    ///
    /// # Errors
    /// The first stage that fails, in the order of the run (the flavours
    /// in [`FLAVORS`] order, each constructed then verified).
    ///
    /// ```
    /// use ssakit::construct::Flavor;
    /// use ssakit::pipeline::Pipeline;
    /// let f = ssakit::text::parse_module("function f(c: bool) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}\n").unwrap().functions.remove(0);
    /// let mut p = Pipeline { verify: true, ..Default::default() };
    /// p.construct.flavor = Flavor::SemiPruned;
    /// let out = p.run(f).unwrap();
    /// assert_eq!(out.phis.to_array(), [None, Some(1), None]);
    /// assert_eq!(out.copies, None); // no destruction asked
    /// ```
    pub fn run(&self, func: Function) -> Result<Outcome, Error> {
        self.run_observed(func, &mut ())
    }

    /// [`Pipeline::run`], telling `observer` what it does.
    ///
    /// # Errors
    /// As [`Pipeline::run`], or the observer's error.
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// use ssakit::opt::Pass;
    /// use ssakit::pipeline::{Observer, Pipeline};
    /// struct Sizes(Vec<usize>);
    /// impl Observer for Sizes {
    ///     fn before_passes(&mut self, ssa: &Function) { self.0.push(ssa.num_insts()); }
    ///     fn after_passes(&mut self, ssa: &Function) { self.0.push(ssa.num_insts()); }
    /// }
    /// let f = ssakit::text::parse_module("function f(a) {\ne:\n    b = a\n    c = b + 1\n    ret a\n}\n").unwrap().functions.remove(0);
    /// let p = Pipeline { passes: vec![Pass::Dce], ..Default::default() };
    /// let mut sizes = Sizes(Vec::new());
    /// p.run_observed(f, &mut sizes).unwrap();
    /// assert!(sizes.0[1] < sizes.0[0]);
    /// ```
    pub fn run_observed(
        &self,
        func: Function,
        observer: &mut dyn Observer,
    ) -> Result<Outcome, Error> {
        let (out, times) = timing::collect(|| self.stages(func, observer));
        out.map(|mut o| {
            o.times = times;
            o
        })
    }

    /// The stages in order (times left to [`Pipeline::run_observed`]).
    fn stages(&self, mut func: Function, observer: &mut dyn Observer) -> Result<Outcome, Error> {
        let chosen = self.construct.flavor;
        let mut phis = PerFlavor::default();
        // The other flavours are built on copies of the input, taken
        // before the chosen one is built in place.
        let input = (self.flavors == Flavors::All).then(|| func.clone());
        for flavor in FLAVORS {
            if flavor == chosen {
                phis.set(flavor, self.construct_one(&mut func, flavor)?);
                observer.constructed(flavor, &func, true)?;
            } else if let Some(input) = &input {
                let mut other = input.clone();
                phis.set(flavor, self.construct_one(&mut other, flavor)?);
                observer.constructed(flavor, &other, false)?;
            }
        }
        if !self.passes.is_empty() {
            observer.before_passes(&func);
            {
                let _t = timing::phase(Stage::Opt.phase());
                opt::run_passes(&mut func, &self.passes)
            }
            .map_err(|e| Error::new(Stage::Opt, e, &func))?;
            observer.after_passes(&func);
        }
        let mut out = Outcome {
            func,
            phis,
            copies: None,
            destruct: None,
            times: PassTimes::default(),
        };
        if let Some(opts) = &self.destruct {
            observer.before_destruct(&out.func)?;
            // SSA just verified (no pass since) need not be checked again;
            // after passes, destruction's check is the oracle on their
            // output.
            let trusted = self.verify && self.passes.is_empty();
            // Dead-code elimination last: no dead phi left for
            // destruction's dead-code walk to find.
            let swept = self.passes.last() == Some(&Pass::Dce);
            let stats = {
                let _t = timing::phase(Stage::Destruct.phase());
                if trusted {
                    destruct::destruct_trusted(&mut out.func, opts)
                } else if swept {
                    destruct::destruct_swept(&mut out.func, opts)
                } else {
                    destruct::destruct(&mut out.func, opts)
                }
            }
            .map_err(|e| Error::new(Stage::Destruct, e, &out.func))?;
            out.copies = Some(count_copies(&out.func));
            out.destruct = Some(stats);
        }
        Ok(out)
    }

    /// Constructs `flavor` in `func` and verifies it if asked; returns
    /// its phis.
    fn construct_one(&self, func: &mut Function, flavor: Flavor) -> Result<usize, Error> {
        let opts = construct::Options {
            flavor,
            ..self.construct
        };
        let stats = {
            let _t = timing::phase(Stage::Construct(flavor).phase());
            construct::construct(func, &opts)
        }
        .map_err(|e| Error::new(Stage::Construct(flavor), e, func))?;
        if self.verify {
            let r = {
                let _t = timing::phase(Stage::Verify(flavor).phase());
                crate::verify::verify_valid(func)
            };
            if let Err(errs) = r {
                let first = errs.into_iter().next().expect("verify reports an error");
                return Err(Error::new(Stage::Verify(flavor), first, func));
            }
        }
        Ok(stats.phis)
    }
}

#[cfg(test)]
mod tests {
    use super::{Error, Flavors, Observer, Pipeline, Stage, FLAVORS};
    use crate::construct::Flavor;
    use crate::destruct::DestructOptions;
    use crate::ir::Function;
    use crate::opt::Pass;

    /// The chapter's running example.
    const SEED: &str = include_str!("../../../examples/seed.ssa");

    fn seed() -> Function {
        crate::text::parse_module(SEED).unwrap().functions.remove(0)
    }

    /// What the pipeline does, written out by hand: construct, verify,
    /// passes, destruct; the run must give the same text.
    fn by_hand(flavor: Flavor, passes: &[Pass], d: DestructOptions) -> (Function, usize) {
        let mut f = seed();
        let opts = crate::construct::Options {
            flavor,
            ..Default::default()
        };
        let phis = crate::construct::construct(&mut f, &opts).unwrap().phis;
        crate::verify::verify_valid(&f).unwrap();
        crate::opt::run_passes(&mut f, passes).unwrap();
        crate::destruct::destruct(&mut f, &d).unwrap();
        (f, phis)
    }

    #[test]
    fn a_run_is_the_stages_written_out() {
        let passes = Pass::parse("copy-prop,dce").unwrap();
        for flavor in FLAVORS {
            for split in [false, true] {
                let d = DestructOptions {
                    split,
                    ..Default::default()
                };
                let mut p = Pipeline {
                    flavors: Flavors::All,
                    verify: true,
                    passes: passes.clone(),
                    destruct: Some(d),
                    ..Default::default()
                };
                p.construct.flavor = flavor;
                let out = p.run(seed()).unwrap();
                let (want, phis) = by_hand(flavor, &passes, d);
                assert_eq!(
                    crate::text::print_function(&out.func),
                    crate::text::print_function(&want)
                );
                assert_eq!(out.phis.get(flavor), Some(&phis));
                let [m, s, p] = out.phis.to_array().map(Option::unwrap);
                assert!(m >= s && s >= p, "{m} {s} {p}");
                assert_eq!(out.copies, Some(super::count_copies(&want)));
            }
        }
    }

    #[test]
    fn only_the_chosen_flavour_is_built_unless_all_are_asked_for() {
        let mut p = Pipeline::default();
        p.construct.flavor = Flavor::Pruned;
        let out = p.run(seed()).unwrap();
        assert_eq!(out.phis.iter().count(), 1);
        let names: Vec<&str> = out.times.phases.iter().map(|t| t.0).collect();
        assert!(names.contains(&"construct pruned"));
        assert!(!names.contains(&"construct minimal") && !names.contains(&"verify"));
        p.flavors = Flavors::All;
        p.verify = true;
        let out = p.run(seed()).unwrap();
        assert_eq!(out.phis.iter().count(), 3);
        let verifies = out.times.phases.iter().filter(|t| t.0 == "verify").count();
        assert_eq!(verifies, 3);
    }

    /// An observer that fails on the second flavour it sees, and records
    /// the order of the hooks.
    struct Failing(Vec<String>);

    impl Observer for Failing {
        fn constructed(&mut self, flavor: Flavor, _: &Function, chosen: bool) -> Result<(), Error> {
            self.0.push(format!("{flavor:?} {chosen}"));
            if self.0.len() == 2 {
                let f = crate::text::parse_module(
                    "function g(a) {\ne:\n    b = a\n    b = 1\n    ret b\n}\n",
                )
                .unwrap()
                .functions
                .remove(0);
                let e = crate::verify::verify_valid(&f).unwrap_err().remove(0);
                return Err(Error::new(Stage::Opt, e, &f));
            }
            Ok(())
        }
    }

    #[test]
    fn hooks_see_the_flavours_in_order_and_an_error_ends_the_run() {
        let mut p = Pipeline {
            flavors: Flavors::All,
            ..Default::default()
        };
        p.construct.flavor = Flavor::SemiPruned;
        let mut obs = Failing(Vec::new());
        let e = p.run_observed(seed(), &mut obs).unwrap_err();
        assert_eq!(obs.0, ["Minimal false", "SemiPruned true"]);
        assert_eq!(e.stage, Stage::Opt);
    }

    #[test]
    fn direct_destruction_refuses_ssa_made_unconventional_by_the_passes() {
        let p = Pipeline {
            passes: vec![Pass::CopyProp],
            destruct: Some(DestructOptions {
                conventional: true,
                ..Default::default()
            }),
            ..Default::default()
        };
        let e = p.run(seed()).unwrap_err();
        assert_eq!(e.stage, Stage::Destruct);
        assert!(e.error.kind.is_not_conventional());
        assert!(e.to_string().starts_with("destruct: function `main`"));
    }
}
