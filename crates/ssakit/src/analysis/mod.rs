//! Analyses: depth-first orders, dominator tree, DJ-graph, dominance
//! frontiers, iterated dominance frontiers and liveness.
//!
//! Chapter 13 ("Construcción y destrucción estándar de SSA"), section 13.2
//! defines the dominance frontier DF, its iteration DF⁺ and the DJ-graph, and
//! gives the DF_all algorithm; section 13.3 places phis at DF⁺(Defs(v)) with a
//! worklist. This module provides those, the linear-time alternative of
//! Sreedhar and Gao, and liveness (Brandner et al.), which SSA destruction
//! and pruned construction need.
//!
//! Every analysis runs on the small [`Graph`] trait (implemented by the IR's
//! [`Cfg`](crate::ir::Cfg) and by [`CsrGraph`]) and is iterative: no
//! recursion, so graphs of millions of nodes do not overflow the stack.
//! Results live in side tables indexed by [`Block`](crate::ir::Block), in
//! compressed (CSR) form where they are sets. The pipeline, in the order each
//! result feeds the next:
//!
//! 1. [`DepthFirst`]: preorder, postorder, reachability ([`postorder`]);
//! 2. [`DomTree`]: immediate dominators by [`DomAlgorithm::Simple`] or
//!    [`DomAlgorithm::Fast`], O(1) `dominates` ([`domtree`]);
//! 3. [`DjGraph`]: D-edges and J-edges (`dj_graph`);
//! 4. [`DominanceFrontiers`]: DF_all (`frontier`);
//! 5. [`IdfCalculator`] (linear, on the DJ-graph) and [`WorklistIdf`] (the
//!    chapter's worklist over DF) for DF⁺ (`idf`), and `IdfWords`: the
//!    worklist with 64 variables to a word, for pruned SSA when DF is
//!    small (`idf_words`);
//! 6. [`Liveness`]: live-in and live-out sets of variables ([`liveness`]),
//!    and [`LiveCheck`]: per-variable questions on strict SSA, answered
//!    without the sets (`live_check`);
//! 7. `loop_depth`: how many natural loops contain each block (`loops`);
//! 8. [`DefUse`]: each value's definition and uses, and [`ReachingDefs`]:
//!    the version of a variable that reaches a point ([`def_use`]).
//!
//! `brute` holds slow oracles straight from the definitions, for tests;
//! [`report`] renders results as text for the command line.

#[cfg(test)]
pub(crate) mod brute;
pub mod def_use;
pub(crate) mod dj_graph;
pub mod domtree;
pub(crate) mod frontier;
pub(crate) mod graph;
pub(crate) mod idf;
pub(crate) mod idf_words;
pub(crate) mod level_queue;
pub(crate) mod live_check;
pub mod liveness;
pub(crate) mod loops;
pub mod postorder;
pub mod report;
pub(crate) mod stamp;
pub(crate) mod sweep_queue;

pub use def_use::{DefUse, ReachingDefs};
pub use dj_graph::DjGraph;
pub use domtree::{DomAlgorithm, DomEvent, DomTree, DomWalk};
pub use frontier::DominanceFrontiers;
pub use graph::{CsrGraph, Graph};
pub use idf::{IdfCalculator, WorklistIdf};
pub use live_check::LiveCheck;
pub use liveness::{Liveness, VarLiveness};
pub(crate) use loops::loop_depth;
pub use postorder::DepthFirst;
pub(crate) use stamp::StampSet;
