//! What SSA construction lets an observer see: the steps of both phases,
//! as the chapter's traces show them ("Traza completa para la variable x",
//! "Traza del renombrado").
//!
//! * Phi insertion (section 13.3, `phi_insert`) reports the chapter's
//!   worklist for each variable the observer [watches](Observer::watches):
//!   the blocks put in W, each block X taken from W, each phi placed (its
//!   block enters F), and the end of the step with what it showed of
//!   DF(X).
//! * Renaming (section 13.4, `rename`) reports every use and definition
//!   with where it is ([`Site`]).
//!
//! The trace of `construct --trace` and `explain` (`trace::TraceObserver`)
//! is one observer, which builds its tables from these events alone.
//! `()` observes nothing: every method is an empty default, the passes are
//! generic over the observer, and phi insertion runs a variable no
//! observer watches without asking for anything to show, so construction
//! without a trace costs nothing for it.
//!
//! This module imports no other module of `construct`: the passes and the
//! trace import it, and not each other's observation types.

use crate::ir::{Block, Inst, Var};

/// Where a mention of a variable is, as renaming reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Site {
    /// A parameter of the function (a definition at the entry).
    Param,
    /// An instruction (a phi's definition, or an ordinary instruction).
    Inst(Inst),
    /// The terminator of a block.
    Term(Block),
    /// An operand of a phi in a successor, used at the end of the block.
    SuccPhi(Inst),
    /// An `x = undef` created just before a use that found ⊥.
    UndefDef(Inst),
}

/// Sees the steps of SSA construction. Every method does nothing by
/// default.
///
/// For a watched variable `v`, phi insertion reports, in this order:
/// [`added`](Self::added) for each block of Defs(v) (W's first content);
/// then for each step, [`taken`](Self::taken) (X removed from W),
/// [`placed`](Self::placed) for each block of DF(X) given a phi, each
/// followed by [`added`](Self::added) when that block enters W, and
/// [`stepped`](Self::stepped) to close the step. W after a step is
/// therefore what was added and not yet taken, and F the blocks placed.
pub(crate) trait Observer {
    /// Whether phi insertion reports the worklist steps of variable `v`
    /// (only the variable of a trace: computing what a step shows of DF(X)
    /// costs more than the step itself).
    fn watches(&self, _v: Var) -> bool {
        false
    }
    /// Phi insertion: block `b` is added to W for `v`.
    fn added(&mut self, _v: Var, _b: Block) {}
    /// Phi insertion: block `x` is removed from W for `v` ("remove a basic
    /// block X from W"), starting a step.
    fn taken(&mut self, _v: Var, _x: Block) {}
    /// Phi insertion: a phi for `v` is placed at `y`, which enters F.
    fn placed(&mut self, _v: Var, _y: Block) {}
    /// Phi insertion: the step of `x` ends; `df` holds the first blocks of
    /// DF(x), sorted, and `df_len` its size.
    fn stepped(&mut self, _v: Var, _x: Block, _df: &[Block], _df_len: usize) {}
    /// Renaming: a use of original variable `v` at `site`, in block
    /// `block`, became `found` (a version, or `None` for ⊥).
    fn used(&mut self, _v: Var, _site: Site, _block: Block, _found: Option<Var>) {}
    /// Renaming: `new`, a version of `v`, is defined at `site` in block
    /// `block`.
    fn defined(&mut self, _v: Var, _site: Site, _block: Block, _new: Var) {}
}

/// The observer that observes nothing.
impl Observer for () {}

/// An observer lent to a pass: both phases report to the same one.
impl<O: Observer + ?Sized> Observer for &mut O {
    fn watches(&self, v: Var) -> bool {
        (**self).watches(v)
    }
    fn added(&mut self, v: Var, b: Block) {
        (**self).added(v, b);
    }
    fn taken(&mut self, v: Var, x: Block) {
        (**self).taken(v, x);
    }
    fn placed(&mut self, v: Var, y: Block) {
        (**self).placed(v, y);
    }
    fn stepped(&mut self, v: Var, x: Block, df: &[Block], df_len: usize) {
        (**self).stepped(v, x, df, df_len);
    }
    fn used(&mut self, v: Var, site: Site, block: Block, found: Option<Var>) {
        (**self).used(v, site, block, found);
    }
    fn defined(&mut self, v: Var, site: Site, block: Block, new: Var) {
        (**self).defined(v, site, block, new);
    }
}
