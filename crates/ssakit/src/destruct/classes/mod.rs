//! Congruence classes kept as dominance forests, and the test of whether
//! two of them interfere, after Boissinot, Darte, Rastello, Dupont de
//! Dinechin and Guillon, "Revisiting Out-of-SSA Translation for
//! Correctness, Code Quality, and Efficiency" (CGO 2009), section IV-B,
//! and Budimlić et al., "Fast Copy Coalescing and Live-Range
//! Identification" (PLDI 2002).
//!
//! # Terms
//!
//! * **Ranks.** Every variable with a reachable definition gets a *rank*:
//!   its place when definition points are sorted by the preorder of their
//!   block in the dominator tree, then by position in the block (see
//!   [`live_check`](crate::analysis::live_check) for positions). A point
//!   `p` dominates the points whose ranks lie in `[rank(p), end(p)]`,
//!   `end(p)` being the last rank of the dominator subtree of `p`'s block:
//!   dominance is one comparison. Variables defined at one point (the
//!   parameters, the phis of a block, the destinations of a parallel copy)
//!   get consecutive ranks, and the first "dominates" the next.
//! * **Intersection** (Budimlić et al.). If `a` dominates `c`, their live
//!   ranges intersect iff `a` is live just after the definition of `c`.
//!   At one point: parameters, or destinations of one parallel copy,
//!   always intersect (both are written there); two phis of one block
//!   intersect iff either is used (it is then live after the phis). The
//!   phis of a block are ranked used ones first.
//! * **Values.** Two variables *interfere* when they intersect and carry
//!   different values (a copy and its source carry one value).
//! * **Lemma** (the one the walks rest on). If `m` dominates `p`
//!   dominates `c` and `m` intersects `c`, then `m` intersects `p`: a path
//!   from `p` to `c` avoids the definition of `m`. (For phis at one point,
//!   this is why the used ones come first.)
//!
//! # The forest of a class
//!
//! A class `C` with no two members interfering is kept as its members'
//! ranks in sorted *runs* (the logarithmic method: merging two classes
//! appends runs and merges runs of similar lengths, so a member is copied
//! `O(log n)` times over all merges) and, per member `c`:
//!
//! * `fpar(c)`: its parent in the dominance forest of `C`, the member of
//!   `C` nearest above it in the dominator tree;
//! * `eq(c)`: a member above `c` with `c`'s value, such that the chain
//!   `eq(c), eq(eq(c)), ...` holds every member of `C` above `c` that
//!   intersects `c` (the *equal ancestor* of Boissinot et al., kept
//!   lazily: the chain may also hold members that do not intersect `c`,
//!   all with `c`'s value). By the lemma, the members above `c` that
//!   intersect `c` all intersect its forest parent, so all share one
//!   value, and a new member below `c` only has to look at `c`'s chain.
//!
//! # Modules
//!
//! * [`forest`]: the record of the classes ([`Classes`]: union-find, ranks,
//!   forest parents, equal ancestors), the definition points it ranks,
//!   and the intersection test of two members;
//! * [`build`]: building classes from sets known to be related, one walk
//!   each (or one walk for many disjoint sets);
//! * [`walk`]: testing two classes, the walk over the smaller one, and the
//!   merge the test allows ([`Merge`](walk::Merge));
//! * [`runs`]: the sorted runs holding each class's members;
//! * `check`: the debug check of the forests.

mod build;
mod check;
mod forest;
mod runs;
mod walk;

pub(crate) use forest::{Classes, DefPoint, NIL};
