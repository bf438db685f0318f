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
//! * [`to_cssa`]: copies around every phi, making SSA conventional (13.6,
//!   Sreedhar's Method I);
//! * [`phi_webs`](mod@phi_webs): phi webs by union-find, renaming and phi removal (13.6);
//! * [`coalesce`](mod@coalesce): merging the two sides of copies that do
//!   not interfere, by liveness, dominance and values (Boissinot et al.);
//! * [`classes`](mod@classes): congruence classes as dominance forests, and
//!   the test of whether two interfere (Boissinot's walk over the smaller);
//! * [`cleanup`]: deleting dead phis and copies before coalescing, and the
//!   copies it makes useless after;
//! * [`sequentialize`]: every parallel copy of a function into copies;
//! * [`fresh`], [`compact`]: fresh variables, and dropping unlisted
//!   instructions.
//!
//! [`destruct`] chains them, as a flat list of passes:
//!
//! ```text
//! verify ─ split critical edges? ─ insert copies ─ coalesce? ─ drop x = x
//!        ─ rename classes, remove phis ─ sequentialize parallel copies
//!        ─ remove the split blocks that stayed empty
//! ```
//!
//! or, with [`DestructOptions::conventional`], the chapter's direct
//! destruction of conventional SSA: rename each phi web, drop the phis.

pub mod classes;
pub mod cleanup;
pub mod coalesce;
pub mod compact;
pub mod critical_edges;
pub mod fresh;
pub mod parallel_copy;
pub mod phi_webs;
pub mod sequentialize;
pub mod to_cssa;

use crate::analysis::Liveness;
use crate::error::IrError;
use crate::ir::{Cfg, Function, InstData, Var, VarNames};
use crate::timing::PassTimes;
pub use coalesce::{coalesce, CoalesceStats};
pub use critical_edges::{split_critical_edges, SplitStats};
pub use phi_webs::{destruct_conventional, phi_webs, rename_webs, Webs};
pub use sequentialize::{sequentialize_parallel_copies, SequentializeError};
pub use to_cssa::{insert_phi_copies, JoinCopies};

/// How [`destruct`] proceeds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DestructOptions {
    /// Split critical edges first, so that the copies of each edge get a
    /// block of their own; otherwise copies go at the end of predecessors
    /// and, where needed, after the phis of the join block.
    pub split: bool,
    /// Coalesce copies whose two sides do not interfere
    /// ([`coalesce`](mod@coalesce)); otherwise only the phi webs are
    /// renamed.
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
#[derive(Clone, Debug, Default)]
pub struct DestructStats {
    /// Critical edges split.
    pub edges_split: usize,
    /// Blocks made by splitting that got no copy, removed at the end.
    pub empty_split_blocks_removed: usize,
    /// Phis removed.
    pub phis_removed: usize,
    /// Copies inserted to make the SSA conventional (Method I: one per phi
    /// operand, one per phi destination that needs a join copy).
    pub copies_inserted: usize,
    /// Copies whose destination and source ended in one class, deleted as
    /// `x = x`: by coalescing, or (rarely) already by the phi webs.
    pub copies_coalesced: usize,
    /// Inserted copies of a variable still there after coalescing (before
    /// sequentialization); copies of constants, always needed, aside.
    pub inserted_copies_left: usize,
    /// Copies of `undef` deleted from parallel copies: the destination may
    /// keep any value.
    pub undef_copies_removed: usize,
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
    /// Per-phase wall-clock times.
    pub times: PassTimes,
}

impl DestructStats {
    /// The statistics as `name: value` lines (times aside).
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
/// are inserted around every phi ([`insert_phi_copies`], edges split or
/// not), then [`coalesce`](mod@coalesce) removes those it can,
/// the classes are renamed to one variable each ([`rename_webs`]), copies
/// that became `x = x` are dropped, and the parallel copies are
/// sequentialized with a fresh temporary per cycle
/// ([`sequentialize_parallel_copies`]).
///
/// # Errors
/// If `func` is not valid SSA with the dominance property (the first error
/// of [`verify`](crate::verify::verify), its message prefixed); with
/// [`DestructOptions::conventional`], if it is not conventional, naming
/// two interfering variables of one web, if a constant phi operand
/// would overwrite a live member of its web, or if two destinations of one
/// parallel copy are in one web. `func` is unchanged then.
pub fn destruct(func: &mut Function, opts: &DestructOptions) -> Result<DestructStats, IrError> {
    let mut stats = DestructStats::default();
    let mut t = PassTimes::default();
    // The property report (conventionality) is needed by the direct
    // destruction only; the general method needs valid SSA.
    let report = t
        .time("verification", || {
            if opts.conventional {
                crate::verify::verify(func)
            } else {
                crate::verify::verify_valid(func).map(|()| Default::default())
            }
        })
        .map_err(|errs| {
            let e = errs.into_iter().next().expect("verify reports an error");
            IrError {
                message: format!("input is not valid SSA: {}", e.message),
                ..e
            }
        })?;
    let first_split_block = func.blocks.len();
    if opts.conventional {
        conventional(func, &report, &mut stats, &mut t)?;
    } else {
        general(func, opts, &mut stats, &mut t);
    }
    let seq = t
        .time("sequentialization", || sequentialize_parallel_copies(func))
        .expect("no parallel copy writes one variable twice after renaming");
    stats.temporaries = seq.temporaries;
    stats.empty_split_blocks_removed =
        critical_edges::remove_empty_split_blocks(func, first_split_block);
    stats.copies_remaining = cleanup::count_copies(func);
    stats.times = t;
    debug_assert!(is_out_of_ssa(func));
    Ok(stats)
}

/// The general method, up to sequentialization: split, copies, coalescing
/// (or phi webs only), deletion of useless copies, renaming.
fn general(
    func: &mut Function,
    opts: &DestructOptions,
    stats: &mut DestructStats,
    t: &mut PassTimes,
) {
    if opts.split {
        stats.edges_split = t
            .time("critical edges", || split_critical_edges(func))
            .edges_split;
    }
    let first_inserted = func.insts.len();
    stats.copies_inserted = t
        .time("parallel copies", || {
            insert_phi_copies(func, JoinCopies::WhenNeeded)
        })
        .copies;
    let mut webs = if opts.coalesce {
        let dead = t.time("dead code", || cleanup::remove_dead_phis_and_copies(func));
        stats.dead_copies_removed = dead.copies;
        stats.phis_removed = dead.phis;
        let (webs, cs) = coalesce(func, first_inserted, t);
        stats.coalescing = cs;
        webs
    } else {
        t.time("phi webs", || phi_webs(func))
    };
    let rep = webs.representatives();
    let (renamed, dropped) = t.time("renaming", || {
        cleanup::rename_and_drop(func, &rep, opts.coalesce, first_inserted)
    });
    stats.copies_coalesced = dropped.self_copies;
    stats.undef_copies_removed = dropped.undef_copies;
    stats.inserted_copies_left = dropped.inserted_left;
    stats.phis_removed += renamed.phis_removed;
}

/// The chapter's direct destruction of conventional SSA, up to
/// sequentialization: refuse what it would get wrong, else rename the phi
/// webs and drop the phis. `func` is unchanged on error.
fn conventional(
    func: &mut Function,
    report: &crate::verify::Report,
    stats: &mut DestructStats,
    t: &mut PassTimes,
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
        ));
    }
    let mut webs = t.time("phi webs", || phi_webs(func));
    let cfg = Cfg::new(func);
    let live = t.time("liveness", || Liveness::new(func, &cfg));
    if let Some(c) = phi_webs::constant_operand_conflict(func, &mut webs, &live) {
        let what = match c.member {
            Some(m) => format!("`{}` of the same web is still needed there", &names[m]),
            None => "another constant goes into the same web there".to_string(),
        };
        return Err(IrError::new(
            func,
            Some(c.pred),
            Some(c.phi),
            format!(
                "a constant phi operand would be copied at the end of `{}`, but {what}",
                func.blocks[c.pred].name
            ),
        ));
    }
    let rep = webs.representatives();
    if let Some((b, i, x, y)) = parallel_copy_web_clash(func, &rep) {
        return Err(IrError::new(
            func,
            Some(b),
            Some(i),
            format!(
                "`{}` and `{}`, written by one parallel copy, are in one phi web",
                &names[x], &names[y]
            ),
        ));
    }
    let (renamed, dropped) = t.time("renaming", || {
        cleanup::rename_and_drop(func, &rep, false, func.insts.len())
    });
    stats.copies_coalesced = dropped.self_copies;
    stats.undef_copies_removed = dropped.undef_copies;
    stats.phis_removed = renamed.phis_removed;
    Ok(())
}

/// Two destinations of one parallel copy with the same representative in
/// `rep` (renaming would make the copy write one variable twice), with
/// where they are.
fn parallel_copy_web_clash(
    func: &Function,
    rep: &crate::entity::EntityVec<Var, Var>,
) -> Option<(crate::ir::Block, crate::ir::Inst, Var, Var)> {
    // `writer[r] = (k + 1, v)`: class `r` written by `v` in parallel copy `k`.
    let mut writer: Vec<(u32, Var)> = vec![(0, Var(0)); func.vars.len()];
    for &b in &func.layout {
        for &i in &func.blocks[b].insts {
            if let InstData::ParCopy { copies } = &func.insts[i] {
                for &(d, _) in copies {
                    let w = &mut writer[rep[d].index()];
                    if w.0 == i.0 + 1 {
                        return Some((b, i, w.1, d));
                    }
                    *w = (i.0 + 1, d);
                }
            }
        }
    }
    None
}

/// Where `v` is defined: its block and instruction (none for a parameter),
/// by a scan of the function.
fn definition_of(func: &Function, v: Var) -> (Option<crate::ir::Block>, Option<crate::ir::Inst>) {
    for &b in &func.layout {
        let data = &func.blocks[b];
        for &i in data.phis.iter().chain(&data.insts) {
            let mut found = false;
            func.insts[i].for_each_def(|d| found |= d == v);
            if found {
                return (Some(b), Some(i));
            }
        }
    }
    (None, None)
}

/// Whether no block of `func` holds a phi or a parallel copy (the
/// postcondition of [`destruct`]).
pub fn is_out_of_ssa(func: &Function) -> bool {
    func.blocks.values().all(|b| {
        b.phis.is_empty()
            && b.insts.iter().all(|&i| {
                !matches!(
                    func.insts[i],
                    InstData::Phi { .. } | InstData::ParCopy { .. }
                )
            })
    })
}
