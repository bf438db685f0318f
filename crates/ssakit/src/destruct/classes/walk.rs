//! Testing whether two classes interfere, by the walk over the smaller one,
//! and merging them when not, after Boissinot et al. (CGO 2009), section
//! IV-B, and Budimlić et al. (PLDI 2002).
//!
//!
//! Walking both classes costs `O(|X| + |Y|)` per test, quadratic when a
//! big class grows one member at a time (a web across a ladder of loops, a
//! switch with a million cases). Here the walk goes over the smaller class
//! `X` only, and looks into `Y` near `X`'s members:
//!
//! * (A) for each `x` of `X`, its nearest ancestor `ŷ` in `Y` (the run
//!   predecessor of `x`, then up `fpar` while it does not dominate `x`):
//!   by the lemma only `ŷ`'s chain can hold members of `Y` that intersect
//!   `x`, all with `ŷ`'s value, so they are tested only if that value is
//!   not `x`'s;
//! * (B) for each member `c` of `Y` after `x` in rank order (before the
//!   next member of `X`) with an ancestor in `X`, the nearest such `x̂`
//!   (the walk's stack): only `x̂`'s chain can hold members of `X` that
//!   intersect `c`. If none does, neither does any member of `Y` below `c`
//!   whose nearest ancestor in `X` is `x̂` (lemma), and the walk jumps over
//!   `c`'s subtree (remembering, with `x̂` on the stack, how far: a member
//!   of `X` inside that subtree interrupts the jump, and when the walk
//!   comes back to `x̂` the rest of the subtree is still clear); if one
//!   does, it interferes unless `c` has `x̂`'s value.
//!
//! The test also computes what the merge changes: `fpar` and `eq` of the
//! members of `X`, and of the members of `Y` whose nearest ancestor in
//! the union is now in `X` (the first members of `Y` met below each `x`,
//! which (B) visits anyway). A test costs the size of `X` and the members
//! of `Y` met next to it (times a logarithm), not the size of `Y`.
//!
//! Worked example, the lost copy after splitting the back edge (see
//! [`coalesce`](mod@super::coalesce)): ranks in dominance order `x1`,
//! `u1` (end of `entry`), `x2` (the loop's phi), `x3`, `u2` (the split
//! block); the web `Y = {u1, x2, u2}`. Testing `X = {x3}` for `u2 ← x3`:
//! (A) the run predecessor of `x3` in `Y` is `x2`, which dominates it;
//! its value is not `x3`'s, and it is live after `x3 = x2 + 1` (the exit
//! reads it): refused. Testing `X = {x1}` for `u1 ← x1`: (A) nothing of
//! `Y` lies above `x1`; (B) the first member of `Y` after it is `u1`, below
//! `x1`; `x1` is dead after the parallel copy that reads it, so the walk
//! jumps over `u1`'s subtree, which is all of `Y`: merged, with
//! `fpar(u1) = eq(u1) = x1`.
//!
//! A refused test leaves the interfering pair with both classes (the two
//! latest *blockers* of each): classes only grow, so the pair still
//! blocks any later test between their successors, in `O(1)`. Each class
//! also keeps its few latest *hot* members, those found interfering, most
//! recent first; a test between two big classes first tries each hot
//! member alone against the other class, with a small budget of work. A
//! class refused in turn against many others usually meets each on the
//! same few members (the phis of a join every class has one in, say),
//! which the walk in rank order may only reach at its end.
//!
//! The test returns the [`Merge`] it allows, holding the class structure
//! until it is applied or dropped: nothing can run another test between a
//! test and its merge, so the merge always gets the updates of its own
//! test.

use super::forest::{Classes, HOT, NIL};
use crate::ir::Var;

/// Work allowed to a probe, and the smaller class size from which tests
/// start with probes (see [`Classes::test`]).
const PROBE_BUDGET: usize = 64;

/// How a walk of [`Classes::walk_smaller`] ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Walk {
    Interferes,
    Free,
    GaveUp,
}

/// Permission to merge two classes just found not to interfere, with the
/// updates of the forest their test computed. It borrows the classes, so no
/// other test can come between; dropping it merges nothing.
#[must_use = "a test that allows a merge does not merge by itself"]
pub(crate) struct Merge<'c, 'a> {
    classes: &'c mut Classes<'a>,
    rx: Var,
    ry: Var,
}

impl Merge<'_, '_> {
    /// Merges the two classes (roots `rx` and `ry`) that the test found not
    /// to interfere.
    pub(crate) fn apply(self) {
        let Merge {
            classes: this,
            rx,
            ry,
        } = self;
        for &(k, f, e) in &this.pending {
            this.fpar[k as usize] = f;
            this.eq[k as usize] = e;
        }
        this.pending.clear();
        let (sx, sy) = (this.slot[rx.index()], this.slot[ry.index()]);
        let r = this.sets.union(rx.index(), ry.index());
        this.slot[rx.index()] = NIL;
        this.slot[ry.index()] = NIL;
        this.slot[r] = match (sx, sy) {
            (NIL, s) | (s, NIL) => s,
            _ => {
                this.merge_slots(sx, sy);
                sx
            }
        };
    }
}

impl<'a> Classes<'a> {
    /// Tests the classes of roots `rx` and `ry` (distinct): `None` if they
    /// interfere (the pair that does is kept as a blocker), else the
    /// [`Merge`] the test allows.
    pub(crate) fn test(&mut self, rx: Var, ry: Var) -> Option<Merge<'_, 'a>> {
        if self.interferes(rx, ry) {
            return None;
        }
        Some(Merge {
            classes: self,
            rx,
            ry,
        })
    }

    /// Whether the classes of roots `rx` and `ry` (distinct) interfere;
    /// if not, `pending` holds the updates of the forest for the merge.
    fn interferes(&mut self, rx: Var, ry: Var) -> bool {
        self.pending.clear();
        let (sx, sy) = (self.slot_of(rx), self.slot_of(ry));
        if sx == NIL || sy == NIL {
            return false;
        }
        for (s, other) in [(sx, ry), (sy, rx)] {
            for (_, n) in self.blockers[s as usize] {
                if n != NIL && self.sets.find(n as usize) == other.index() {
                    return true;
                }
            }
        }
        let (nx, ny) = (self.count(sx), self.count(sy));
        // Probes, when the walk may be long: the hot members of either
        // class, alone against the other class, with a small budget.
        if nx.min(ny) > PROBE_BUDGET {
            for (s, other) in [(sx, sy), (sy, sx)] {
                for h in 0..HOT {
                    let k = self.hot[s as usize][h];
                    if k == NIL {
                        break;
                    }
                    let found = self.walk_smaller(&[k], other, PROBE_BUDGET);
                    self.pending.clear();
                    if found == Walk::Interferes {
                        return true;
                    }
                }
            }
        }
        let (sx, sy) = if nx <= ny { (sx, sy) } else { (sy, sx) };
        let mut xs = std::mem::take(&mut self.xs);
        xs.clear();
        let mut runs = 0;
        for run in self.runs_of(sx) {
            xs.extend_from_slice(run);
            runs += 1;
        }
        if runs > 1 {
            xs.sort_unstable();
        }
        let found = self.walk_smaller(&xs, sy, usize::MAX);
        self.xs = xs;
        found == Walk::Interferes
    }

    /// The test of [`Classes::interferes`]: `xs`, the smaller class
    /// sorted (or some of its members), against the class in slot `sy`;
    /// fills `pending`. Gives up after `budget` units of work.
    fn walk_smaller(&mut self, xs: &[u32], sy: u32, budget: usize) -> Walk {
        let give_up = self.work.saturating_add(budget);
        // The members of X above the current point, each with the end of
        // the subtrees of Y already found clear of it (see below).
        let mut stack = std::mem::take(&mut self.xstack);
        stack.clear();
        let found = 'walk: {
            for (i, &x) in xs.iter().enumerate() {
                if self.work > give_up {
                    break 'walk Walk::GaveUp;
                }
                let px = self.pts[x as usize];
                while stack
                    .last()
                    .is_some_and(|&(t, _)| x > self.pts[t as usize].end)
                {
                    stack.pop();
                }
                // (A): the nearest ancestor of `x` in Y, and its chain.
                let mut y = self.pred(sy, x);
                while y != NIL && x > self.pts[y as usize].end {
                    self.work += 1;
                    y = self.fpar[y as usize];
                }
                let (mut fpar, mut eq) = (self.fpar[x as usize], self.eq[x as usize]);
                if y != NIL {
                    if fpar == NIL || y > fpar {
                        fpar = y;
                    }
                    if self.pts[y as usize].value == px.value {
                        if eq == NIL || y > eq {
                            eq = y;
                        }
                    } else {
                        let m = self.chain_hit(y, x);
                        if m != NIL {
                            self.block(x, m);
                            break 'walk Walk::Interferes;
                        }
                    }
                }
                self.pending.push((x, fpar, eq));
                stack.push((x, x));
                // (B): the members of Y up to the next member of X.
                let limit = xs.get(i + 1).copied().unwrap_or(NIL);
                let mut cur = self.succ(sy, x);
                while cur < limit {
                    if self.work > give_up {
                        break 'walk Walk::GaveUp;
                    }
                    let c = cur;
                    let pc = self.pts[c as usize];
                    while stack
                        .last()
                        .is_some_and(|&(t, _)| c > self.pts[t as usize].end)
                    {
                        stack.pop();
                    }
                    // No member of X above `c`, nor above the rest of the gap.
                    let Some(&mut (xh, ref mut clear)) = stack.last_mut() else {
                        break;
                    };
                    // Inside a subtree of Y found clear of `xh` before a
                    // member of X below `xh` interrupted it: still clear.
                    if c <= *clear {
                        cur = self.succ(sy, *clear);
                        continue;
                    }
                    let (f, e) = (self.fpar[c as usize], self.eq[c as usize]);
                    let frontier = f == NIL || f < xh;
                    let fpar = if frontier { xh } else { f };
                    let same = pc.value == self.pts[xh as usize].value;
                    self.work += 1;
                    let hit = self.chain_hit(xh, c);
                    if hit != NIL {
                        if !same {
                            self.block(c, hit);
                            break 'walk Walk::Interferes;
                        }
                        let eq = if e == NIL || xh > e { xh } else { e };
                        self.pending.push((c, fpar, eq));
                        cur = self.succ(sy, c);
                    } else {
                        if frontier {
                            // `eq` follows `fpar` where the values agree.
                            self.pending.push((c, fpar, if same { xh } else { e }));
                        }
                        let stack_top = stack.last_mut().expect("xh is on the stack");
                        stack_top.1 = stack_top.1.max(pc.end);
                        cur = self.succ(sy, pc.end);
                    }
                }
            }
            Walk::Free
        };
        self.xstack = stack;
        found
    }
}
