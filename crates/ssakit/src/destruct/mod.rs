//! Out-of-SSA translation (chapter section 13.6, "Destrucción de SSA", and
//! section 13.7, "Secuencializar copias paralelas").
//!
//! Phis are not executable, so they must go before code generation. When
//! SSA is *conventional* (no two variables of a phi web interfere) it is
//! enough to rename each web to one variable and drop the phis. After
//! optimisation it usually is not (the lost-copy and swap problems of
//! Briggs et al., 1998), so copies are inserted first to make it
//! conventional again, and the parallel copies that result are then
//! sequentialized.
//!
//! One concept per module:
//!
//! * [`parallel_copy`]: sequentializing one parallel copy over any
//!   location type, with a temporary or with swaps (13.7);
//! * [`critical_edges`]: splitting critical edges (13.6);
//! * `to_cssa`: copies around every phi, making SSA conventional (13.6,
//!   Sreedhar's Method I);
//! * [`phi_webs`](mod@phi_webs): phi webs by union-find, renaming and phi
//!   removal (13.6);
//! * `coalesce`: merging the two sides of copies that do not interfere, by
//!   liveness, dominance and values (Boissinot et al.), split into the
//!   facts it gathers, the phi components and the debug oracle;
//! * `classes`: congruence classes as dominance forests (building them,
//!   the walk testing two of them, which returns the merge it allows, the
//!   run sets, the debug check of the forests);
//! * `cleanup`: deleting dead phis and copies before coalescing, and the
//!   copies it makes useless after;
//! * `sequentialize`: every parallel copy of a function into copies;
//! * `fresh`: fresh variables, versions of the variables they stand for
//!   (so of their types).
//!
//! Only [`destruct`], [`parallel_copy`] and what the tests reach are
//! public; the other modules are helpers of [`destruct`].
//!
//! Each pass that adds instructions or blocks returns what it added (the
//! blocks made by splitting, the parallel copies inserted around phis),
//! and the passes after it take that; instructions are renumbered once,
//! by sequentialization's [`Function::compact`], after phis and copies go.
//!
//! Destruction works on variables of any [type](crate::ir::Type): copies,
//! phis and parallel copies move values without looking at them. Every
//! other instruction (calls and operations with several results,
//! `unreachable` terminators) is kept as it is, its variables renamed.
//!
//! # The pipeline
//!
//! [`destruct`] chains them as one flat list of passes, the same whoever
//! calls it: [`destruct_observed`] (what `ssakit explain` shows) is
//! [`destruct`] with a hook called at each [`DestructStep`], and
//! [`destruct_trusted`] is [`destruct`] without the input check
//! ([`destruct_pruned`] also without the dead-code walk, for pruned SSA,
//! where it finds nothing); [`destruct_swept`] checks its input but skips
//! the dead-code walk, for SSA just swept by dead-code elimination. The
//! options choose the variant of a step, never a second driver. With
//! coalescing (the default), the copies around phis are *virtualized*
//! (Boissinot et al., CGO 2009, section IV-C):
//!
//! ```text
//! verify ─ split critical edges into phi blocks? ─ drop dead phis
//!        ─ copies of constant phi operands ─ coalesce, each phi's
//!          operands standing for their copies (a component that
//!          interferes: Method I copies for its phis, coalesce again,
//!          the components found free left as they were)
//!        ─ [ParallelCopies] ─ rename classes, remove phis, drop x = x
//!        ─ [Coalesced] ─ sequentialize parallel copies
//!        ─ remove empty split blocks
//! ```
//!
//! The critical edges are split *lazily* there: counted first, split
//! only when a copy has to go on one (a constant phi operand on one, or a
//! phi component that interferes, whose copies are then decided again on
//! the split graph); otherwise coalescing runs on the unsplit graph, its
//! dominator tree numbered as splitting would number it, and the blocks
//! that would have stayed empty are never made (see `Lazy`). The result
//! and the statistics are those of splitting first. [`destruct_observed`]
//! splits first, as the steps it shows say, and so does [`destruct_swept`]:
//! after the optimisation passes phi components often interfere, and
//! deciding twice (unsplit, then split) cost more there than the split
//! blocks do (issue 41's command, +0.7%).
//!
//! without coalescing ([`DestructOptions::coalesce`] off), Sreedhar's
//! Method I as published:
//!
//! ```text
//! verify ─ split critical edges? ─ insert copies ─ [ParallelCopies]
//!        ─ rename phi webs, remove phis, drop x = x ─ [Coalesced]
//!        ─ sequentialize parallel copies ─ remove empty split blocks
//! ```
//!
//! or, with [`DestructOptions::conventional`], the chapter's direct
//! destruction of conventional SSA: rename each phi web, drop the phis
//! (`[Coalesced]` only).
//!
//! Method I followed by coalescing, every copy materialized first, stays
//! as [`destruct_method_one`]: the baseline the virtualized pipeline is
//! tested against (`tests/virtual_copies.rs`), not what [`destruct`] runs.

pub(crate) mod classes;
pub(crate) mod cleanup;
pub(crate) mod coalesce;
pub mod critical_edges;
pub(crate) mod fresh;
pub mod parallel_copy;
pub mod phi_webs;
pub(crate) mod sequentialize;
pub(crate) mod to_cssa;

use crate::analysis::DomTree;
use crate::entity::SecondaryMap;
use crate::error::{ErrorKind, IrError};
use crate::ir::{Block, Cfg, Function, Inst, InstData, Operand, Var, VarNames};
use crate::timing;
use coalesce::coalesce;
pub(crate) use coalesce::CoalesceStats;
use critical_edges::split_critical_edges;
use phi_webs::phi_webs;
use sequentialize::sequentialize_parallel_copies;
use to_cssa::{insert_phi_copies, JoinCopies};

/// How [`destruct`] proceeds.
///
/// # Example
///
/// ```
/// use ssakit::destruct::{destruct, DestructOptions};
/// const SRC: &str = "function f(c) {
/// e:
///     x1 = 1
///     branch c, j, l
/// l:
///     x2 = 2
///     jump j
/// j:
///     x3 = phi(e: x1, l: x2)
///     ret x3
/// }
/// ";
/// let naive = DestructOptions { coalesce: false, ..DestructOptions::default() };
/// let mut a = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// let mut b = a.clone();
/// let naive = destruct(&mut a, &naive).unwrap();
/// let coalesced = destruct(&mut b, &DestructOptions::default()).unwrap();
/// // Coalescing never leaves more copies than the naive translation.
/// assert!(coalesced.copies_remaining <= naive.copies_remaining);
/// assert_eq!(coalesced.coalescing.coalesced, 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DestructOptions {
    /// Split critical edges first, so that the copies of each edge get a
    /// block of their own; otherwise copies go at the end of predecessors
    /// and, where needed, after the phis of the join block.
    pub split: bool,
    /// Coalesce copies whose two sides do not interfere (by liveness,
    /// dominance and values, after Boissinot et al.); otherwise only the
    /// phi webs are renamed.
    pub coalesce: bool,
    /// The chapter's direct destruction instead: refuse SSA that is not
    /// conventional, else rename the phi webs and drop the phis. `split`
    /// and `coalesce` are ignored.
    pub conventional: bool,
}

impl Default for DestructOptions {
    /// Split and coalesce.
    fn default() -> Self {
        DestructOptions {
            split: true,
            coalesce: true,
            conventional: false,
        }
    }
}

/// What [`destruct`] did.
///
/// # Example
///
/// ```
/// use ssakit::destruct::{destruct, DestructOptions};
/// const SRC: &str = "function f(c) {
/// e:
///     x1 = 1
///     branch c, j, l
/// l:
///     x2 = 2
///     jump j
/// j:
///     x3 = phi(e: x1, l: x2)
///     ret x3
/// }
/// ";
/// let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// let stats = destruct(&mut f, &DestructOptions::default()).unwrap();
/// assert_eq!((stats.edges_split, stats.phis_removed), (1, 1));
/// assert_eq!(stats.copies_inserted, 2);
/// ```
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DestructStats {
    /// Critical edges split.
    pub edges_split: usize,
    /// Blocks made by splitting that got no copy, removed at the end.
    pub(crate) empty_split_blocks_removed: usize,
    /// Phis removed.
    pub phis_removed: usize,
    /// Copies inserted to make the SSA conventional (Method I: one per phi
    /// operand, one per phi destination that needs a join copy), counting
    /// those [`destruct`] leaves virtual (never materialized, all
    /// coalesced), but not those of dead phis, which [`destruct`] deletes
    /// before any copy exists.
    pub copies_inserted: usize,
    /// Copies whose destination and source ended in one class, deleted as
    /// `x = x`, or left virtual by [`destruct`]: by coalescing, or (rarely)
    /// already by the phi webs.
    pub(crate) copies_coalesced: usize,
    /// Inserted copies of a variable still there after coalescing (before
    /// sequentialization); copies of constants, always needed, aside.
    pub inserted_copies_left: usize,
    /// Copies of `undef` deleted from parallel copies: the destination may
    /// keep any value.
    pub(crate) undef_copies_removed: usize,
    /// Entries of parallel copies whose destination is never needed,
    /// deleted before coalescing (the copies of dead phis); the dead phis
    /// count in `phis_removed`.
    pub dead_copies_removed: usize,
    /// Copy instructions in the result (of variables and of constants,
    /// inserted or already in the program, temporaries' included).
    pub copies_remaining: usize,
    /// Temporaries created to break cycles of parallel copies.
    pub temporaries: usize,
    /// What coalescing did (zero without coalescing).
    pub coalescing: CoalesceStats,
}

impl DestructStats {
    /// The statistics as `name: value` lines.
    ///
    /// # Example
    ///
    /// ```
    /// use ssakit::destruct::{destruct, DestructOptions};
    /// const SRC: &str = "function f(c) {
    /// e:
    ///     x1 = 1
    ///     branch c, j, l
    /// l:
    ///     x2 = 2
    ///     jump j
    /// j:
    ///     x3 = phi(e: x1, l: x2)
    ///     ret x3
    /// }
    /// ";
    /// let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
    /// let text = destruct(&mut f, &DestructOptions::default()).unwrap().render();
    /// assert!(text.starts_with("edges split: 1\n"));
    /// assert!(text.contains("phis removed: 1\n"));
    /// ```
    pub fn render(&self) -> String {
        let rows = [
            ("edges split", self.edges_split),
            (
                "empty split blocks removed",
                self.empty_split_blocks_removed,
            ),
            ("phis removed", self.phis_removed),
            ("copies inserted", self.copies_inserted),
            ("copies removed by coalescing", self.copies_coalesced),
            ("inserted copies left", self.inserted_copies_left),
            ("undef copies removed", self.undef_copies_removed),
            ("dead copies removed", self.dead_copies_removed),
            ("copies remaining", self.copies_remaining),
            ("temporaries", self.temporaries),
            ("copies refused (interference)", self.coalescing.refused),
            ("intersection tests", self.coalescing.intersection_tests),
        ];
        rows.iter().map(|(n, v)| format!("{n}: {v}\n")).collect()
    }
}

/// Takes `func` out of SSA form: afterwards no phi and no parallel copy
/// remains, only ordinary instructions and copies (see the module doc for
/// the passes).
///
/// The general method is correct for any valid SSA, conventional or not
/// (after copy propagation, with the lost-copy and swap problems): copies
/// are inserted around every phi (edges split or not), then coalescing
/// removes those it can, the classes are renamed to one variable each
/// (as for [phi webs](mod@phi_webs)), copies that became `x = x` are
/// dropped, and the parallel copies are sequentialized with a fresh
/// temporary per cycle ([`parallel_copy`]).
///
/// Each phase is timed with [`timing::phase`] (`verification`, `critical
/// edges`, `parallel copies`, `dead code`, the phases of coalescing or
/// `phi webs`, `renaming`, `sequentialization`; `phi webs`, `liveness`
/// and `renaming` for the direct destruction): [`timing::collect`] gets
/// them.
///
/// # Errors
/// If `func` is not valid SSA with the dominance property (the first error
/// of [`verify`](crate::verify::verify), its message prefixed); with
/// [`DestructOptions::conventional`], if it is not conventional, naming
/// two interfering variables of one web, if a constant phi operand
/// would overwrite a live member of its web, or if two destinations of one
/// parallel copy are in one web. `func` is unchanged then.
///
/// # Example
///
/// Out of SSA after copy propagation; the interpreter gives the
/// original's result.
///
/// ```
/// use ssakit::destruct::{destruct, is_out_of_ssa, DestructOptions};
/// use ssakit::interp::{run, RunOptions};
/// const SEED: &str = "function main(p, q) {
/// r:
///     jump A
/// A:
///     branch p, B, C
/// B:
///     y = 0
///     x = 0
///     jump D
/// C:
///     tmp = x
///     x = y
///     y = tmp
///     branch q, D, E
/// D:
///     x = f(x, y)
///     branch q, E, A
/// E:
///     ret x
/// }
/// ";
/// let mut m = ssakit::text::parse_module(SEED).unwrap();
/// let before = run(&m, &m.functions[0], &[1, 1], &RunOptions::default()).unwrap();
/// let f = &mut m.functions[0];
/// ssakit::construct::construct(f, &Default::default()).unwrap();
/// ssakit::opt::run_passes(f, &[ssakit::opt::Pass::CopyProp]).unwrap();
/// let stats = destruct(f, &DestructOptions::default()).unwrap();
/// assert!(is_out_of_ssa(f) && stats.temporaries == 1);
/// let after = run(&m, &m.functions[0], &[1, 1], &RunOptions::default()).unwrap();
/// assert_eq!(after.render(), before.render());
/// assert_eq!(after.render(), "=> 65\n");
/// ```
pub fn destruct(func: &mut Function, opts: &DestructOptions) -> Result<DestructStats, IrError> {
    pipeline(func, opts, Check::Input, &mut |_, _| {})
}

/// [`destruct`] without checking first that `func` is valid SSA, for a
/// caller that has just built or verified it (the check is the
/// [verifier](crate::verify::verify_valid), a whole pass over the
/// function: 10–30% of [`destruct`] on generated programs). Debug builds
/// still check.
///
/// # Preconditions
/// `func` is valid SSA with the dominance property (what
/// [`verify_valid`](crate::verify::verify_valid) accepts); on anything else
/// the result is unspecified and may panic.
///
/// # Errors
/// Only with [`DestructOptions::conventional`], as [`destruct`].
///
/// # Example
///
/// ```
/// use ssakit::destruct::{destruct_trusted, is_out_of_ssa, DestructOptions};
/// let mut f = ssakit::text::parse_module("function f(n) {
/// e:
///     i0 = 0
///     jump l
/// l:
///     i1 = phi(e: i0, l: i2)
///     i2 = i1 + 1
///     c = i2 < n
///     branch c, l, x
/// x:
///     ret i1
/// }
/// ").unwrap().functions.remove(0);
/// // Verified once here; destruction does not verify again.
/// ssakit::verify::verify_valid(&f).unwrap();
/// let stats = destruct_trusted(&mut f, &DestructOptions::default()).unwrap();
/// assert!(is_out_of_ssa(&f));
/// // The lost-copy problem: `i1` is live where `i2` enters the phi.
/// assert_eq!(stats.inserted_copies_left, 1);
/// ```
pub fn destruct_trusted(
    func: &mut Function,
    opts: &DestructOptions,
) -> Result<DestructStats, IrError> {
    pipeline(func, opts, Check::Trusted, &mut |_, _| {})
}

/// [`destruct_trusted`] for pruned SSA as
/// [`construct`](crate::construct::construct) makes it: the caller also
/// vouches that every phi and parallel-copy entry is *needed* (some
/// instruction other than a phi or a parallel copy, or a terminator,
/// reads its destination, or a needed phi or entry does), so the dead-code
/// walk, a worklist over every phi operand that finds nothing to delete
/// in pruned SSA, is skipped. The result is [`destruct_trusted`]'s, byte
/// for byte; debug builds check that the walk would delete nothing.
///
/// Pruned construction ([`Flavor::Pruned`](crate::construct::Flavor::Pruned))
/// places a phi for a variable only where the variable is live, so every
/// phi it makes reaches a real use, through other phis at most; minimal
/// and semi-pruned SSA may hold dead phis, and need [`destruct_trusted`].
///
/// # Preconditions
/// Those of [`destruct_trusted`], and no phi or parallel-copy entry of
/// `func` is dead: pruned construction's output of a function without
/// parallel copies, for instance.
///
/// # Errors
/// Only with [`DestructOptions::conventional`], as [`destruct`].
///
/// # Example
///
/// ```
/// use ssakit::construct::{construct, Flavor, Options};
/// use ssakit::destruct::{destruct_pruned, destruct_trusted, DestructOptions};
/// let src = ssakit::gen::generate(&ssakit::gen::GenOptions::default());
/// let mut a = src.clone();
/// let pruned = Options { flavor: Flavor::Pruned, ..Options::default() };
/// construct(&mut a, &pruned).unwrap();
/// let mut b = a.clone();
/// let opts = DestructOptions::default();
/// let (x, y) = (destruct_pruned(&mut a, &opts).unwrap(), destruct_trusted(&mut b, &opts).unwrap());
/// assert_eq!(x.render(), y.render());
/// assert_eq!(ssakit::text::print_function(&a), ssakit::text::print_function(&b));
/// ```
pub fn destruct_pruned(
    func: &mut Function,
    opts: &DestructOptions,
) -> Result<DestructStats, IrError> {
    pipeline(func, opts, Check::Pruned, &mut |_, _| {})
}

/// [`destruct`] for SSA that dead-code elimination by mark and sweep
/// ([`Pass::Dce`](crate::opt::Pass::Dce)) has just swept, no pass after
/// it: `func` is verified and refused as [`destruct`] does, but the
/// dead-code walk before coalescing, which finds nothing there, is
/// skipped. The result is [`destruct`]'s, byte for byte; debug builds
/// check that the walk would delete nothing.
///
/// Why the walk finds nothing: it keeps a phi or parallel-copy entry of
/// the layout when an instruction other than a phi or a parallel copy, or
/// a terminator, of the layout reads its destination, or a kept phi or
/// entry does. Dead-code elimination kept only what it marked: the
/// operands of its roots (critical instructions and terminators of the
/// layout, instructions other than phis and parallel copies), then the
/// operands of the definitions of marked variables. By induction on the
/// marking order each kept phi or entry is read by a root, by an
/// instruction that is neither a phi nor a parallel copy, or by a phi or
/// entry marked before it, so the walk keeps it; every definition on the
/// way dominates its use, so lies in the layout (the input is checked to
/// be valid SSA before anything else). A block outside the layout, which
/// the elimination does not sweep, may still hold phis or parallel copies
/// (the walk deletes them); then the walk runs.
///
/// # Preconditions
/// No phi or parallel-copy entry of the layout of `func` is dead in the
/// walk's sense: for instance, [`Pass::Dce`](crate::opt::Pass::Dce) was the
/// last pass to change `func`. On anything else the statistics and the
/// copies left may differ from [`destruct`]'s (the result is still out
/// of SSA and computes the same).
///
/// # Errors
/// As [`destruct`].
///
/// # Example
///
/// ```
/// use ssakit::destruct::{destruct, destruct_swept, DestructOptions};
/// use ssakit::opt::{run_passes, Pass};
/// let mut a = ssakit::text::parse_module("function f(n) {
/// e:
///     i0 = 0
///     jump l
/// l:
///     i1 = phi(e: i0, l: i2)
///     s1 = phi(e: i0, l: s2)
///     s2 = s1 + i1
///     i2 = i1 + 1
///     c = i2 < n
///     branch c, l, x
/// x:
///     ret i1
/// }
/// ").unwrap().functions.remove(0);
/// run_passes(&mut a, &[Pass::Dce]).unwrap(); // `s1` and `s2` go
/// let mut b = a.clone();
/// let opts = DestructOptions::default();
/// let (x, y) = (destruct_swept(&mut a, &opts).unwrap(), destruct(&mut b, &opts).unwrap());
/// assert_eq!(x.render(), y.render());
/// assert_eq!(ssakit::text::print_function(&a), ssakit::text::print_function(&b));
/// ```
pub fn destruct_swept(
    func: &mut Function,
    opts: &DestructOptions,
) -> Result<DestructStats, IrError> {
    pipeline(func, opts, Check::Swept, &mut |_, _| {})
}

/// What [`pipeline`] checks of its input, and what the caller vouches for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Verify, and refuse invalid SSA.
    Input,
    /// As `Input`, and the function is shown between steps: the critical
    /// edges are split first, as the steps shown say (not lazily; `Swept`
    /// too, see the module doc).
    Observed,
    /// As `Input`, and no phi or parallel-copy entry of the layout is dead:
    /// the dead-code walk is skipped unless a block outside the layout
    /// holds a phi or a parallel copy (checked in debug builds only).
    Swept,
    /// The caller vouches for it (checked in debug builds only).
    Trusted,
    /// As `Trusted`, and no phi or parallel-copy entry is dead: the
    /// dead-code walk is skipped (checked in debug builds only).
    Pruned,
}

/// A point between two steps of [`destruct`], where
/// [`destruct_observed`] shows the function (see the module doc for where
/// each falls in each mode).
///
/// # Example
///
/// ```
/// use ssakit::destruct::{destruct_observed, DestructOptions, DestructStep};
/// const SRC: &str = "function f(c) {
/// e:
///     x1 = 1
///     branch c, j, l
/// l:
///     x2 = 2
///     jump j
/// j:
///     x3 = phi(e: x1, l: x2)
///     ret x3
/// }
/// ";
/// let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// let mut seen = Vec::new();
/// destruct_observed(&mut f, &DestructOptions::default(), &mut |step, _| seen.push(step)).unwrap();
/// assert_eq!(seen, [DestructStep::ParallelCopies, DestructStep::Coalesced]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DestructStep {
    /// Critical edges split (unless [`DestructOptions::split`] is off) and
    /// the copies that will exist inserted as parallel copies: with
    /// coalescing, after the dead phis are dropped, those of constant phi
    /// operands and of the phis of components that interfere (the others
    /// stay virtual, and coalescing has decided the classes); without, one
    /// for every phi operand and, where needed, after the phis (Method I):
    /// the SSA is conventional. Not reached with
    /// [`DestructOptions::conventional`].
    ParallelCopies,
    /// Classes renamed to one variable each and the phis removed: after
    /// coalescing (or the phi webs alone), with the copies that became
    /// `x = x` dropped. Parallel copies remain.
    Coalesced,
}

/// [`destruct`], calling `observe` with the function after each
/// [`DestructStep`] it reaches; the function it returns is the state after
/// sequentialization. `ssakit explain` shows those states. The passes are
/// those of [`destruct`], so the result, the names and the statistics are
/// [`destruct`]'s exactly.
///
/// # Example
///
/// ```
/// use ssakit::destruct::{destruct_observed, is_out_of_ssa, DestructOptions, DestructStep};
/// const SRC: &str = "function f(c) {
/// e:
///     x1 = 1
///     branch c, j, l
/// l:
///     x2 = 2
///     jump j
/// j:
///     x3 = phi(e: x1, l: x2)
///     ret x3
/// }
/// ";
/// let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// let mut phis_left = Vec::new();
/// destruct_observed(&mut f, &DestructOptions::default(), &mut |step, g| {
///     let phis: usize = g.blocks().map(|b| g.block_phis(b).len()).sum();
///     phis_left.push((step, phis));
/// })
/// .unwrap();
/// // The phi stays until its class is renamed.
/// assert_eq!(phis_left, [(DestructStep::ParallelCopies, 1), (DestructStep::Coalesced, 0)]);
/// assert!(is_out_of_ssa(&f));
/// ```
pub fn destruct_observed(
    func: &mut Function,
    opts: &DestructOptions,
    observe: &mut dyn FnMut(DestructStep, &Function),
) -> Result<DestructStats, IrError> {
    pipeline(func, opts, Check::Observed, observe)
}

/// Sreedhar's Method I followed by coalescing, as published: every copy
/// around phis materialized (edges split or not) before coalescing
/// decides which to keep. Not what [`destruct`] runs, which leaves the
/// copies of phi components free of interference virtual and so may keep
/// fewer copies (those of phis that are not used) and fresh variables:
/// the baseline `tests/virtual_copies.rs` checks [`destruct`] against.
/// Without [`DestructOptions::coalesce`] or with
/// [`DestructOptions::conventional`], it is [`destruct`].
///
/// # Errors
/// As [`destruct`].
///
/// # Example
///
/// ```
/// use ssakit::destruct::{destruct, destruct_method_one, is_out_of_ssa, DestructOptions};
/// const SRC: &str = "function f(c) {
/// e:
///     x1 = 1
///     branch c, j, l
/// l:
///     x2 = 2
///     jump j
/// j:
///     x3 = phi(e: x1, l: x2)
///     ret x3
/// }
/// ";
/// let mut a = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// let mut b = a.clone();
/// let opts = DestructOptions::default();
/// let one = destruct_method_one(&mut a, &opts).unwrap();
/// let virtualized = destruct(&mut b, &opts).unwrap();
/// assert!(is_out_of_ssa(&a));
/// assert!(virtualized.copies_remaining <= one.copies_remaining);
/// ```
pub fn destruct_method_one(
    func: &mut Function,
    opts: &DestructOptions,
) -> Result<DestructStats, IrError> {
    if opts.conventional || !opts.coalesce {
        return destruct(func, opts);
    }
    verified(func, opts, Check::Input)?;
    let mut stats = DestructStats::default();
    let split_blocks = method_one(func, opts, &mut stats, &mut |_, _| {});
    Ok(finish(func, &split_blocks, stats))
}

/// The one pipeline of [`destruct`], [`destruct_trusted`],
/// [`destruct_pruned`], [`destruct_swept`] and [`destruct_observed`] (the module doc draws
/// it): check, the mode's
/// steps up to renaming, then sequentialization.
fn pipeline(
    func: &mut Function,
    opts: &DestructOptions,
    check: Check,
    observe: &mut dyn FnMut(DestructStep, &Function),
) -> Result<DestructStats, IrError> {
    let (report, graph) = verified(func, opts, check)?;
    let mut stats = DestructStats::default();
    let split_blocks = if opts.conventional {
        conventional(func, &report, &mut stats)?;
        Vec::new()
    } else if opts.coalesce {
        virtualized(func, opts, check, graph, &mut stats, observe)
    } else {
        method_one(func, opts, &mut stats, observe)
    };
    observe(DestructStep::Coalesced, func);
    Ok(finish(func, &split_blocks, stats))
}

/// The check before destruction: `func` must be valid SSA (unless
/// `check` trusts it), and conventional for the direct destruction, which
/// needs the property report (returned; the default otherwise). When it
/// checks valid SSA alone, also returns the control-flow graph and
/// dominator tree it built, for the steps after.
fn verified(
    func: &Function,
    opts: &DestructOptions,
    check: Check,
) -> Result<(crate::verify::Report, Option<(Cfg, DomTree)>), IrError> {
    {
        let _t = timing::phase("verification");
        if opts.conventional {
            crate::verify::verify(func).map(|report| (report, None))
        } else if !matches!(check, Check::Input | Check::Observed | Check::Swept) {
            debug_assert!(crate::verify::verify_valid(func).is_ok());
            Ok(Default::default())
        } else {
            crate::verify::verify_valid_flow(func).map(|graph| (Default::default(), Some(graph)))
        }
    }
    .map_err(|errs| {
        let e = errs.into_iter().next().expect("verify reports an error");
        IrError {
            kind: ErrorKind::NotSsa,
            message: format!("input is not valid SSA: {}", e.message),
            ..e
        }
    })
}

/// The steps after renaming: sequentialize the parallel copies, remove the
/// split blocks that stayed empty, count the copies left.
fn finish(func: &mut Function, split_blocks: &[Block], mut stats: DestructStats) -> DestructStats {
    let seq = {
        let _t = timing::phase("sequentialization");
        sequentialize_parallel_copies(func)
    }
    .expect("no parallel copy writes one variable twice after renaming");
    stats.temporaries = seq.temporaries;
    stats.empty_split_blocks_removed +=
        critical_edges::remove_empty_split_blocks(func, split_blocks);
    stats.copies_remaining = cleanup::count_copies(func);
    debug_assert!(is_out_of_ssa(func));
    stats
}

/// Sreedhar's Method I, up to sequentialization: split, copies around
/// every phi, then coalescing (only for [`destruct_method_one`]) or the phi
/// webs alone, deletion of useless copies, renaming. Returns the blocks
/// made by splitting.
fn method_one(
    func: &mut Function,
    opts: &DestructOptions,
    stats: &mut DestructStats,
    observe: &mut dyn FnMut(DestructStep, &Function),
) -> Vec<Block> {
    let split_blocks = if opts.split {
        let _t = timing::phase("critical edges");
        split_critical_edges(func)
    } else {
        Vec::new()
    };
    stats.edges_split = split_blocks.len();
    let (cssa, inserted) = {
        let _t = timing::phase("parallel copies");
        insert_phi_copies(func, JoinCopies::WhenNeeded)
    };
    stats.copies_inserted = cssa.copies;
    observe(DestructStep::ParallelCopies, func);
    let mut webs = if opts.coalesce {
        let dead = {
            let _t = timing::phase("dead code");
            cleanup::remove_dead_phis_and_copies(func)
        };
        stats.dead_copies_removed = dead.copies;
        stats.phis_removed = dead.phis;
        let (webs, cs) = coalesce(func, &inserted);
        stats.coalescing = cs;
        webs
    } else {
        let _t = timing::phase("phi webs");
        phi_webs(func)
    };
    let rep = webs.representatives();
    let (renamed, dropped) = {
        let _t = timing::phase("renaming");
        cleanup::rename_and_drop(func, &rep, opts.coalesce, &inserted)
    };
    stats.copies_coalesced = dropped.self_copies;
    stats.undef_copies_removed = dropped.undef_copies;
    stats.inserted_copies_left = dropped.inserted_left;
    stats.phis_removed += renamed.phis_removed;
    split_blocks
}

/// The general method with virtualized copies (Boissinot et al., CGO
/// 2009, section IV-C), up to sequentialization: split, delete the dead
/// phis and copies, materialize the copies of constant phi operands, and
/// coalesce with the other copies around phis virtual, each phi's
/// destination and operands standing for them. Only when a phi component
/// interferes do its phis get Method I's copies, and coalescing runs again
/// ([`coalesce_virtual`](coalesce::coalesce_virtual)). Then renaming, as in
/// [`method_one`]; the copies left virtual count as inserted and coalesced.
/// Returns the blocks made by splitting.
fn virtualized(
    func: &mut Function,
    opts: &DestructOptions,
    check: Check,
    graph: Option<(Cfg, DomTree)>,
    stats: &mut DestructStats,
    observe: &mut dyn FnMut(DestructStep, &Function),
) -> Vec<Block> {
    // The critical edges into phi blocks are counted here and split only
    // when a copy has to go on one (see `Lazy`); the graph and dominator
    // tree of the check are kept true of `func`: the steps after, up to
    // coalescing, add and remove phis and instructions, never blocks or
    // edges.
    let eager = matches!(check, Check::Observed | Check::Swept);
    let (mut lazy, mut graph) = Lazy::plan(func, opts, graph, eager);
    stats.edges_split = lazy.as_ref().map_or(0, |l| l.plan.count);
    let mut split_blocks = Vec::new();
    if eager && lazy.is_some() {
        (split_blocks, graph) = lazy.take().expect("checked").split(func, graph);
    }
    let nothing_dead = match check {
        Check::Pruned => true,
        Check::Swept => !off_layout_copies_or_phis(func),
        Check::Input | Check::Observed | Check::Trusted => false,
    };
    let dead = if nothing_dead {
        // The caller vouches for it.
        debug_assert_eq!(
            cleanup::remove_dead_phis_and_copies(&mut func.clone()),
            cleanup::DeadRemoved::default(),
            "destruct_pruned or destruct_swept: the input has dead phis or parallel-copy entries"
        );
        cleanup::DeadRemoved::default()
    } else {
        let _t = timing::phase("dead code");
        cleanup::remove_dead_phis_and_copies(func)
    };
    stats.dead_copies_removed = dead.copies;
    stats.phis_removed = dead.phis;
    if lazy
        .as_ref()
        .is_some_and(|l| l.plan.has_constant_on_split_edge(func))
    {
        // A constant operand on a split edge: its copy goes into the new
        // block.
        (split_blocks, graph) = lazy.take().expect("checked").split(func, graph);
    }
    let first_fresh = func.num_vars();
    let mut inserted = to_cssa::Inserted::new(false);
    // The versions in use, found by the first insertion that needs them
    // and kept up to date by both.
    let mut fresh = None;
    let constants = {
        let _t = timing::phase("parallel copies");
        to_cssa::insert_copies(
            func,
            to_cssa::Selection::Constants,
            &mut inserted,
            &mut fresh,
        )
    };
    stats.copies_inserted = constants.copies;
    let first = match (
        lazy.take(),
        coalesce::coalesce_virtual(func, &inserted, graph),
    ) {
        (Some(l), coalesce::Virtual::Interfering(retry)) => {
            // The copies of the failing components go on edges: split,
            // and decide again on the graph they go in (the same verdicts,
            // see `Plan`, but the retry's tables are by block of the split
            // function).
            let graph;
            (split_blocks, graph) = l.split(func, Some(retry.into_graph()));
            let again = coalesce::coalesce_virtual(func, &inserted, graph);
            debug_assert!(matches!(again, coalesce::Virtual::Interfering(_)));
            again
        }
        (l, first) => {
            lazy = l;
            first
        }
    };
    let (mut webs, mut cs) = match first {
        coalesce::Virtual::Coalesced(webs, cs) => (webs, cs),
        coalesce::Virtual::Interfering(retry) => {
            {
                let _t = timing::phase("parallel copies");
                let which = to_cssa::Selection::Phis {
                    phis: retry.failed(),
                    first_fresh,
                };
                let more = to_cssa::insert_copies(func, which, &mut inserted, &mut fresh);
                stats.copies_inserted += more.copies;
            }
            // Copies only: the blocks and edges are those of the first
            // try, and its free phi components are still free.
            coalesce::coalesce_again(func, &inserted, *retry)
        }
    };
    observe(DestructStep::ParallelCopies, func);
    // The copies still virtual: every one coalesced.
    let left_virtual = virtual_copies(func, first_fresh, lazy.as_ref().map(|l| &l.plan));
    // The blocks never made would have stayed empty.
    stats.empty_split_blocks_removed = lazy.map_or(0, |l| l.plan.count);
    stats.copies_inserted += left_virtual;
    cs.candidates += left_virtual;
    cs.coalesced += left_virtual;
    stats.coalescing = cs;
    let rep = webs.representatives();
    let (renamed, dropped) = {
        let _t = timing::phase("renaming");
        cleanup::rename_and_drop(func, &rep, true, &inserted)
    };
    stats.copies_coalesced = dropped.self_copies + left_virtual;
    stats.undef_copies_removed = dropped.undef_copies;
    stats.inserted_copies_left = dropped.inserted_left;
    stats.phis_removed += renamed.phis_removed;
    split_blocks
}

/// The critical edges into phi blocks destruction would split, not split
/// yet: they are split only when a copy has to go on one (a constant phi
/// operand on one, or a phi component that interferes), all at once and
/// as splitting them first would have (the same blocks, names and layout).
/// Otherwise every block splitting would make stays empty, and the end of
/// destruction counts them as made and removed again.
struct Lazy {
    plan: critical_edges::Plan,
}

impl Lazy {
    /// The plan for `func` (none without splitting or without an edge to
    /// split), and the graph and dominator tree of `func` (`graph`, kept;
    /// unless `eager`, its tree numbered as after splitting).
    fn plan(
        func: &Function,
        opts: &DestructOptions,
        graph: Option<(Cfg, DomTree)>,
        eager: bool,
    ) -> (Option<Lazy>, Option<(Cfg, DomTree)>) {
        if !opts.split || func.blocks().all(|b| func.block_phis(b).is_empty()) {
            return (None, graph);
        }
        let _t = timing::phase("critical edges");
        let (cfg, dt) = match graph {
            Some((cfg, dt)) => (Some(cfg), Some(dt)),
            None => (None, None),
        };
        let cfg = cfg.unwrap_or_else(|| Cfg::new(func));
        let plan = critical_edges::Plan::new(func, &cfg);
        if plan.count == 0 {
            return (None, dt.map(|dt| (cfg, dt)));
        }
        let dt = dt.unwrap_or_else(|| {
            let _t = timing::phase("dominators");
            DomTree::new(&cfg)
        });
        let dt = if eager {
            dt
        } else {
            plan.tree_as_split(func, &cfg, dt)
        };
        (Some(Lazy { plan }), Some((cfg, dt)))
    }

    /// Splits the planned edges of `func`; `graph`, the graph and
    /// dominator tree of `func` ([`Lazy::plan`] returned them), is
    /// returned true after.
    fn split(
        self,
        func: &mut Function,
        graph: Option<(Cfg, DomTree)>,
    ) -> (Vec<Block>, Option<(Cfg, DomTree)>) {
        let _t = timing::phase("critical edges");
        let (cfg, dt) = graph.expect("the graph is kept with a plan");
        critical_edges::split_planned(func, &self.plan, &cfg, Some(dt))
    }
}

/// Whether a block outside the layout of `func` holds a phi or a parallel
/// copy (which the dead-code walk deletes, and dead-code elimination does
/// not sweep). Looks only at those blocks.
fn off_layout_copies_or_phis(func: &Function) -> bool {
    if func.layout().len() == func.num_blocks() {
        return false;
    }
    let mut listed = vec![false; func.num_blocks()];
    for &b in func.layout() {
        listed[b.index()] = true;
    }
    func.blocks().any(|b| {
        !listed[b.index()]
            && (!func.block_phis(b).is_empty()
                || func
                    .block_insts(b)
                    .iter()
                    .any(|&i| func.inst(i).is_par_copy()))
    })
}

/// The copies Method I would put around the phis of `func` that are still
/// virtual: a copy per operand that is a variable numbered below
/// `first_fresh` (not one materialized), and a join copy per phi whose
/// destination is such a variable, in a block with a predecessor that does
/// not end with a jump to it.
///
/// With `unsplit`, the edges it names were not split: their sources count
/// as the new blocks that would jump to the phi's block.
fn virtual_copies(
    func: &Function,
    first_fresh: usize,
    unsplit: Option<&critical_edges::Plan>,
) -> usize {
    let old = |v: Operand| v.var().is_some_and(|x| x.index() < first_fresh);
    let mut n = 0;
    for &b in func.layout() {
        let phis = func.block_phis(b);
        if phis.is_empty() {
            continue;
        }
        let join = match unsplit {
            None => !to_cssa::all_preds_jump_to(func, b),
            Some(plan) => !func.phi_args(phis[0]).iter().all(|a| {
                plan.splits(a.block, b) || *func.term(a.block) == crate::ir::Terminator::Jump(b)
            }),
        };
        for &phi in phis {
            n += func.phi_args(phi).iter().filter(|a| old(a.value)).count();
            n += (join && func.def(phi).is_some_and(|d| d.index() < first_fresh)) as usize;
        }
    }
    n
}

/// The chapter's direct destruction of conventional SSA, up to
/// sequentialization: refuse what it would get wrong, else rename the phi
/// webs and drop the phis. `func` is unchanged on error.
fn conventional(
    func: &mut Function,
    report: &crate::verify::Report,
    stats: &mut DestructStats,
) -> Result<(), IrError> {
    let names = VarNames::new(func);
    if let Some((a, b)) = report.interference {
        let (block, inst) = definition_of(func, b);
        return Err(IrError::new(
            func,
            block,
            inst,
            format!(
                "SSA is not conventional: `{}` and `{}` are in one phi web and interfere, \
                 so renaming the web to one variable would be wrong",
                &names[a], &names[b]
            ),
        )
        .with_kind(ErrorKind::NotConventional));
    }
    // The verifier's definition of conventional counts constant phi
    // operands as web members defined at the end of their predecessor.
    if let Some(c) = &report.constant_conflict {
        return Err(IrError::new(
            func,
            Some(c.pred),
            Some(c.phi),
            format!("SSA is not conventional: {}", c.describe(func)),
        )
        .with_kind(ErrorKind::ConstantConflict));
    }
    let mut webs = {
        let _t = timing::phase("phi webs");
        phi_webs(func)
    };
    let rep = webs.representatives();
    let (renamed, dropped) = {
        let _t = timing::phase("renaming");
        // Nothing was inserted: no parallel copy counts in `inserted_left`.
        cleanup::rename_and_drop(func, &rep, false, &SecondaryMap::new(false))
    };
    stats.copies_coalesced = dropped.self_copies;
    stats.undef_copies_removed = dropped.undef_copies;
    stats.phis_removed = renamed.phis_removed;
    Ok(())
}

/// Where `v` is defined: its block and instruction (none for a parameter),
/// by a scan of the function.
fn definition_of(func: &Function, v: Var) -> (Option<Block>, Option<Inst>) {
    for &b in func.layout() {
        for i in func.block_all_insts(b) {
            let mut found = false;
            func.for_each_def(i, |d| found |= d == v);
            if found {
                return (Some(b), Some(i));
            }
        }
    }
    (None, None)
}

/// Whether no block of `func` holds a phi or a parallel copy (the
/// postcondition of [`destruct`]).
///
/// # Example
///
/// ```
/// use ssakit::destruct::{destruct, is_out_of_ssa, DestructOptions};
/// const SRC: &str = "function f(c) {
/// e:
///     x1 = 1
///     branch c, j, l
/// l:
///     x2 = 2
///     jump j
/// j:
///     x3 = phi(e: x1, l: x2)
///     ret x3
/// }
/// ";
/// let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
/// assert!(!is_out_of_ssa(&f));
/// destruct(&mut f, &DestructOptions::default()).unwrap();
/// assert!(is_out_of_ssa(&f));
/// ```
pub fn is_out_of_ssa(func: &Function) -> bool {
    func.blocks().all(|b| {
        func.block_phis(b).is_empty()
            && func.block_insts(b).iter().all(|&i| {
                !matches!(
                    func.inst(i),
                    InstData::Phi { .. } | InstData::ParCopy { .. }
                )
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pruned construction's output of every generated shape: without
    /// the dead-code walk (no `dead code` phase), [`destruct_pruned`]
    /// gives [`destruct_trusted`]'s function and statistics, byte for
    /// byte, in both splitting modes.
    #[test]
    fn destruct_pruned_skips_the_dead_code_walk_and_changes_nothing() {
        use crate::construct::{construct, Flavor, Options};
        use crate::gen::{generate, GenOptions, Shape};
        let pruned = Options {
            flavor: Flavor::Pruned,
            ..Options::default()
        };
        for shape in Shape::ALL {
            let opts = GenOptions {
                shape,
                blocks: 60,
                vars: 6,
                seed: 3,
            };
            let mut f = generate(&opts);
            construct(&mut f, &pruned).unwrap();
            same_without_the_dead_code_walk(&f, destruct_pruned, destruct_trusted, shape);
        }
    }

    /// `fast` (which vouches that nothing is dead) gives `slow`'s function
    /// and statistics on `f`, byte for byte, in both splitting modes, and
    /// times no `dead code` phase.
    fn same_without_the_dead_code_walk(
        f: &Function,
        fast: fn(&mut Function, &DestructOptions) -> Result<DestructStats, IrError>,
        slow: fn(&mut Function, &DestructOptions) -> Result<DestructStats, IrError>,
        shape: crate::gen::Shape,
    ) {
        for split in [true, false] {
            let opts = DestructOptions {
                split,
                ..DestructOptions::default()
            };
            let (mut a, mut b) = (f.clone(), f.clone());
            let (x, times) = timing::collect(|| fast(&mut a, &opts));
            let y = slow(&mut b, &opts).unwrap();
            assert_eq!(x.unwrap().render(), y.render(), "{shape:?}");
            let text = crate::text::print_function;
            assert_eq!(text(&a), text(&b), "{shape:?}");
            assert!(!times.phases.iter().any(|p| p.0 == "dead code"));
        }
    }

    /// Minimal SSA of every generated shape (dead phis) after copy
    /// propagation, constant propagation and dead-code elimination:
    /// [`destruct_swept`] skips the dead-code walk and gives [`destruct`]'s
    /// function and statistics, byte for byte, in both splitting modes.
    #[test]
    fn destruct_swept_skips_the_dead_code_walk_and_changes_nothing() {
        use crate::construct::{construct, Flavor, Options};
        use crate::gen::{generate, GenOptions, Shape};
        use crate::opt::{run_passes, Pass};
        let minimal = Options {
            flavor: Flavor::Minimal,
            ..Options::default()
        };
        for shape in Shape::ALL {
            let mut f = generate(&GenOptions {
                shape,
                blocks: 60,
                vars: 6,
                seed: 5,
            });
            construct(&mut f, &minimal).unwrap();
            let passes = [Pass::CopyProp, Pass::ConstProp, Pass::Dce];
            run_passes(&mut f, &passes).unwrap();
            same_without_the_dead_code_walk(&f, destruct_swept, destruct, shape);
        }
    }

    /// The lazy split ([`destruct`]) gives the eager one's function and
    /// statistics ([`destruct_observed`] splits first), byte for byte, on
    /// every generated shape, pruned and after the passes (constants on
    /// critical edges, interfering components).
    #[test]
    fn lazy_split_is_the_eager_split() {
        use crate::construct::{construct, Flavor, Options};
        use crate::gen::{generate, GenOptions, Shape};
        use crate::opt::{run_passes, Pass};
        for shape in Shape::ALL {
            for (flavor, passes) in [
                (Flavor::Pruned, &[][..]),
                (
                    Flavor::Minimal,
                    &[Pass::CopyProp, Pass::ConstProp, Pass::Dce][..],
                ),
            ] {
                let mut f = generate(&GenOptions {
                    shape,
                    blocks: 80,
                    vars: 6,
                    seed: 7,
                });
                construct(
                    &mut f,
                    &Options {
                        flavor,
                        ..Options::default()
                    },
                )
                .unwrap();
                run_passes(&mut f, passes).unwrap();
                let (mut a, mut b) = (f.clone(), f);
                let opts = DestructOptions::default();
                let x = destruct(&mut a, &opts).unwrap();
                let y = destruct_observed(&mut b, &opts, &mut |_, _| {}).unwrap();
                assert_eq!(x.render(), y.render(), "{shape:?}");
                let text = crate::text::print_function;
                assert_eq!(text(&a), text(&b), "{shape:?}");
            }
        }
    }

    /// A phi in a block outside the layout, which dead-code elimination
    /// does not sweep: [`destruct_swept`] runs the dead-code walk, which
    /// deletes it, as [`destruct`] does.
    #[test]
    fn destruct_swept_walks_when_a_block_outside_the_layout_has_phis() {
        let src = "function f(c) {
e:
    x1 = 1
    branch c, j, l
l:
    x2 = 2
    jump j
j:
    x3 = phi(e: x1, l: x2)
    ret x3
u:
    y = phi(u: y)
    jump u
}";
        let mut f = crate::text::parse_module(src).unwrap().functions.remove(0);
        let u = f.block_by_name("u").unwrap();
        f.retain_layout(|&b| b != u);
        assert!(off_layout_copies_or_phis(&f));
        let opts = DestructOptions::default();
        let (mut a, mut b) = (f.clone(), f);
        let (x, times) = timing::collect(|| destruct_swept(&mut a, &opts));
        let y = destruct(&mut b, &opts).unwrap();
        assert_eq!(x.unwrap().render(), y.render());
        assert_eq!(y.phis_removed, 2);
        assert!(times.phases.iter().any(|p| p.0 == "dead code"));
    }

    /// A straight line has no phi and no copy: destruction leaves it as
    /// it is, and coalescing returns before its analyses (no `def-use`,
    /// `dominators` or `affinity` phase), in every mode that coalesces.
    #[test]
    fn nothing_to_coalesce_skips_the_analyses() {
        use crate::construct::{construct, Flavor, Options};
        use crate::gen::{generate, GenOptions, Shape};
        let mut f = generate(&GenOptions {
            shape: Shape::Chain,
            blocks: 40,
            vars: 5,
            seed: 2,
        });
        let pruned = Options {
            flavor: Flavor::Pruned,
            ..Options::default()
        };
        construct(&mut f, &pruned).unwrap();
        let before = crate::text::print_function(&f);
        for split in [true, false] {
            let opts = DestructOptions {
                split,
                ..DestructOptions::default()
            };
            let mut g = f.clone();
            let (stats, times) = timing::collect(|| destruct_pruned(&mut g, &opts));
            assert_eq!(stats.unwrap().render(), DestructStats::default().render());
            assert_eq!(crate::text::print_function(&g), before);
            for skipped in ["def-use", "dominators", "affinity"] {
                assert!(!times.phases.iter().any(|p| p.0 == skipped), "{skipped}");
            }
        }
    }

    use crate::ir::{BinOp, Effects, FunctionBuilder, Operand, PhiArg, Terminator, Type};

    /// The swap problem over `f64` variables, with a pure operation and a
    /// call of two results each, and a trap:
    ///
    /// ```text
    /// function f(n, x0: f64, y0: f64) {
    /// e:    jump l
    /// l:    x = phi(e: x0, l: y); y = phi(e: y0, l: x); i = phi(e: 0, l: i2)
    ///       (q, r) = fsplit(x, y); (s, t) = pair(q, r)
    ///       i2 = i + 1; k = i2 < n; branch k, l, exit
    /// exit: branch n, done, trap
    /// done: ret x, y, s, t
    /// trap: unreachable
    /// }
    /// ```
    ///
    /// Every mode keeps the operation, the call and the trap, and every
    /// variable it makes has the type of the variable it stands for.
    #[test]
    fn typed_operations_calls_and_traps_are_kept() {
        let mut b = FunctionBuilder::new("f");
        let n = b.param("n");
        let x0 = b.typed_param("x0", Type::F64);
        let y0 = b.typed_param("y0", Type::F64);
        let blocks = ["e", "l", "exit", "done", "trap"].map(|name| b.block(name));
        let [e, l, exit, done, trap] = blocks;
        let [x, y, q, r, s, t] = ["x", "y", "q", "r", "s", "t"].map(|v| b.typed_var(v, Type::F64));
        let (i, i2, k) = (b.var("i"), b.var("i2"), b.var("k"));
        let arg = |block, value: Operand| PhiArg { block, value };
        b.switch_to(e);
        b.jump(l);
        b.switch_to(l);
        b.phi(x, &[arg(e, x0.into()), arg(l, y.into())]);
        b.phi(y, &[arg(e, y0.into()), arg(l, x.into())]);
        b.phi(i, &[arg(e, Operand::Const(0)), arg(l, i2.into())]);
        b.op("fsplit", Effects::PURE, &[], &[x.into(), y.into()], &[q, r])
            .unwrap();
        b.call_multi(&[s, t], "pair", &[q.into(), r.into()]);
        b.binary(i2, BinOp::Add, i.into(), Operand::Const(1));
        b.binary(k, BinOp::Lt, i2.into(), n.into());
        b.branch(k.into(), l, exit);
        b.switch_to(exit);
        b.branch(n.into(), done, trap);
        b.switch_to(done);
        b.ret_values(&[x.into(), y.into(), s.into(), t.into()]);
        b.switch_to(trap);
        b.unreachable();
        let f = b.finish();
        for (split, coalesce) in [(true, true), (false, true), (true, false), (false, false)] {
            let mut g = f.clone();
            let opts = DestructOptions {
                split,
                coalesce,
                conventional: false,
            };
            destruct(&mut g, &opts).unwrap();
            assert!(is_out_of_ssa(&g));
            let insts: Vec<Inst> = g
                .layout()
                .iter()
                .flat_map(|&b| g.block_insts(b).to_vec())
                .collect();
            let kept = |what: fn(&InstData) -> bool| {
                let found: Vec<Inst> = insts.iter().copied().filter(|&i| what(g.inst(i))).collect();
                assert_eq!(found.len(), 1, "split {split}, coalesce {coalesce}");
                let mut results = Vec::new();
                g.for_each_def(found[0], |d| results.push(g.var_type(d)));
                assert_eq!(results, [Type::F64, Type::F64]);
            };
            kept(|d| matches!(d, InstData::Op { .. }));
            kept(|d| matches!(d, InstData::Call { .. }));
            assert_eq!(*g.term(trap), Terminator::Unreachable);
            for v in g.vars().skip(f.num_vars()) {
                assert_eq!(g.var_type(v), f.var_type(g.original(v)), "{v}");
            }
            for &i in &insts {
                if let InstData::Copy {
                    dst,
                    src: Operand::Var(src),
                } = *g.inst(i)
                {
                    assert_eq!(g.var_type(dst), g.var_type(src), "{i}");
                }
            }
        }
    }
}
