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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{DomTree, DominanceFrontiers};
    use crate::construct::phi_insert::{IdfMethod, PhiInsertion};
    use crate::construct::Flavor;
    use crate::ir::{Cfg, Function};

    /// The chapter's running example: Defs(x) = {B, C, D}, DF⁺ = {A, D, E}.
    const SEED: &str = "function main(p, q) {
r:
    jump A
A:
    branch p, B, C
B:
    y = 0
    x = 0
    jump D
C:
    tmp = x
    x = y
    y = tmp
    branch q, D, E
D:
    x = f(x, y)
    branch q, E, A
E:
    ret x
}";

    #[derive(Clone, Debug, PartialEq, Eq)]
    enum Event {
        Added(Block),
        Taken(Block),
        Placed(Block),
        Stepped(Block, usize),
    }

    /// Records the phi-insertion events of the variable it watches.
    struct Recorder {
        var: Var,
        events: Vec<Event>,
    }

    impl Observer for Recorder {
        fn watches(&self, v: Var) -> bool {
            v == self.var
        }
        fn added(&mut self, v: Var, b: Block) {
            assert_eq!(v, self.var, "only the watched variable is reported");
            self.events.push(Event::Added(b));
        }
        fn taken(&mut self, v: Var, x: Block) {
            assert_eq!(v, self.var);
            self.events.push(Event::Taken(x));
        }
        fn placed(&mut self, v: Var, y: Block) {
            assert_eq!(v, self.var);
            self.events.push(Event::Placed(y));
        }
        fn stepped(&mut self, v: Var, x: Block, _df: &[Block], df_len: usize) {
            assert_eq!(v, self.var);
            self.events.push(Event::Stepped(x, df_len));
        }
    }

    /// Inserts the phis of SEED by `worklist` or the linear method,
    /// reporting `var`'s steps to a recorder: the events and the phis.
    fn insert(var: &str, worklist: bool) -> (Function, Vec<Event>, usize) {
        let mut f = crate::text::parse_module(SEED).unwrap().functions.remove(0);
        let cfg = Cfg::new(&f);
        let dt = DomTree::new(&cfg);
        let df = DominanceFrontiers::new(&cfg, &dt);
        let ins = PhiInsertion {
            cfg: &cfg,
            idf: if worklist {
                IdfMethod::Worklist(&df)
            } else {
                IdfMethod::Linear(&dt)
            },
            flavor: Flavor::Minimal,
            liveness: None,
        };
        let mut rec = Recorder {
            var: f.var_by_name(var).unwrap(),
            events: Vec::new(),
        };
        let phis = ins.run(&mut f, &mut rec);
        (f, rec.events, phis)
    }

    #[test]
    fn phi_insertion_reports_the_worklist_of_the_watched_variable() {
        let (f, events, phis) = insert("x", true);
        let b = |name: &str| f.block_by_name(name).unwrap();
        use Event::*;
        // W starts as Defs(x) = {B, C, D}; each step takes the oldest
        // block of W, places phis at the blocks of DF(X) not yet in F and
        // adds those not in Defs(x) to W: DF(B) = {D} (in Defs: not
        // added), DF(C) = {D, E} (D already in F), DF(D) = {A, E},
        // DF(E) = {}, DF(A) = {A} (already in F).
        assert_eq!(
            events,
            [
                Added(b("B")),
                Added(b("C")),
                Added(b("D")),
                Taken(b("B")),
                Placed(b("D")),
                Stepped(b("B"), 1),
                Taken(b("C")),
                Placed(b("E")),
                Added(b("E")),
                Stepped(b("C"), 2),
                Taken(b("D")),
                Placed(b("A")),
                Added(b("A")),
                Stepped(b("D"), 2),
                Taken(b("E")),
                Stepped(b("E"), 0),
                Taken(b("A")),
                Stepped(b("A"), 1),
            ]
        );
        // The observer changes nothing: the same phis as unobserved.
        let mut g = crate::text::parse_module(SEED).unwrap().functions.remove(0);
        let cfg = Cfg::new(&g);
        let dt = DomTree::new(&cfg);
        let unobserved = PhiInsertion {
            cfg: &cfg,
            idf: IdfMethod::Linear(&dt),
            flavor: Flavor::Minimal,
            liveness: None,
        }
        .run(&mut g, &mut ());
        assert_eq!(phis, unobserved);
        assert_eq!(
            crate::text::print_function(&f),
            crate::text::print_function(&g)
        );
        // The linear method sends the watched variable through the same
        // worklist, with the same steps.
        assert_eq!(insert("x", false).1, events);
    }
}
