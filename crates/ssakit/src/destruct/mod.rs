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
//! * [`sequentialize`]: every parallel copy of a function into copies;
//! * [`fresh`], [`compact`]: fresh variables, and dropping unlisted
//!   instructions.
//!
//! [`destruct_simple`] chains them: the chapter's "simplest, though not
//! most efficient" destruction.

pub mod compact;
pub mod critical_edges;
pub mod fresh;
pub mod parallel_copy;
pub mod phi_webs;
pub mod sequentialize;
pub mod to_cssa;

use crate::ir::{Function, InstData};
pub use critical_edges::{split_critical_edges, SplitStats};
pub use phi_webs::{destruct_conventional, phi_webs, rename_webs, Webs};
pub use sequentialize::{sequentialize_parallel_copies, SequentializeError};
pub use to_cssa::{insert_phi_copies, JoinCopies};

/// What [`destruct_simple`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DestructStats {
    /// Critical edges split (0 without splitting).
    pub edges_split: usize,
    /// Phis removed.
    pub phis_removed: usize,
    /// Copies inserted to make the SSA conventional, one per phi operand
    /// plus one per phi destination that needed a join copy.
    pub phi_copies: usize,
    /// Copies left after sequentialization (self-copies dropped, one per
    /// cycle added).
    pub final_copies: usize,
    /// Temporaries created to break cycles.
    pub temporaries: usize,
}

/// Takes `func` out of SSA form, the simple way: no phi and no parallel
/// copy remains, only ordinary copies.
///
/// The passes, in order:
/// 1. if `split`, [`split_critical_edges`];
/// 2. [`insert_phi_copies`] with [`JoinCopies::WhenNeeded`]: copies at the
///    end of each predecessor, and after the phis where a predecessor does
///    not simply jump (always correct, split or not);
/// 3. *(seam for coalescing: a coalescer would take the webs of step 4 and
///    union copy-related variables that do not interfere before renaming)*;
/// 4. [`phi_webs()`] and [`rename_webs`]: each web renamed to its
///    representative, phis removed;
/// 5. [`sequentialize_parallel_copies`], a fresh temporary per closed cycle.
///
/// # Preconditions
/// `func` is in SSA form with one phi operand per distinct predecessor,
/// labelled by that predecessor (the verifier's checks). Conventionality is
/// not required.
///
/// # Errors
/// A parallel copy already in `func` that writes a variable twice.
pub fn destruct_simple(
    func: &mut Function,
    split: bool,
) -> Result<DestructStats, SequentializeError> {
    let mut stats = DestructStats::default();
    if split {
        stats.edges_split = split_critical_edges(func).edges_split;
    }
    stats.phi_copies = insert_phi_copies(func, JoinCopies::WhenNeeded).copies;
    // Coalescing seam: `webs` may be extended here (`Webs::union`).
    let mut webs = phi_webs(func);
    let renamed = rename_webs(func, &mut webs);
    stats.phis_removed = renamed.phis_removed;
    let seq = sequentialize_parallel_copies(func)?;
    stats.final_copies = seq.copies;
    stats.temporaries = seq.temporaries;
    debug_assert!(is_out_of_ssa(func));
    Ok(stats)
}

/// Whether no block of `func` holds a phi or a parallel copy (the
/// postcondition of [`destruct_simple`]).
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
