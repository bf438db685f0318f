//! Building a class from a set of variables known to be related (a phi
//! web, a phi component), after Boissinot et al. (CGO 2009), section IV-B
//! (the walk over one set in dominance order).
//!
//! The members sorted by rank, a stack of the members dominating the
//! current one (Boissinot's walk): the top `p` is the current member `c`'s
//! forest parent; if `c` and `p` carry one value, `eq(c) = p`; otherwise
//! every member of `p`'s chain is tested against `c`, and one that
//! intersects interferes. The set is free of interference iff no test
//! fails. `O(members)` tests plus the chains (short in practice). The
//! chains do not depend on the answers, so the liveness questions are
//! gathered first and answered sorted by variable: each variable asked
//! about is explored once, and nothing is kept. `Classes::build_all`
//! walks many disjoint sets at once, in one pass over the ranks in order
//! (each set's stack is the `fpar` chain of its latest member), which
//! reads the definition points in memory order.

use super::forest::{Classes, Run, NIL};
use crate::ir::Var;

impl Classes<'_> {
    /// Boissinot's walk over `members` (ranks, sorted), setting `fpar` and
    /// `eq` as if they were one class. With `check`, returns an interfering
    /// pair if there is one (then `fpar` and `eq` of `members` are reset
    /// and nothing else changes); without, the set must be free of
    /// interference. On success the variables become one class.
    pub(crate) fn build(&mut self, members: &[u32], check: bool) -> Option<(Var, Var)> {
        debug_assert!(members.windows(2).all(|w| w[0] < w[1]));
        self.stack.clear();
        // The liveness questions, `(m, c)`: is `m` live after `c`? Chains
        // follow `fpar` where values agree, so they do not depend on the
        // answers: asked together, one variable at a time, each is
        // explored once.
        let mut questions = std::mem::take(&mut self.questions);
        questions.clear();
        for &c in members {
            while let Some(&t) = self.stack.last() {
                if c <= self.pts[t as usize].end {
                    break;
                }
                self.stack.pop();
            }
            let (mut fpar, mut eq) = (NIL, NIL);
            if let Some(&p) = self.stack.last() {
                fpar = p;
                if self.pts[c as usize].value == self.pts[p as usize].value {
                    eq = p;
                } else if check {
                    let mut m = p;
                    while m != NIL {
                        questions.push((m, c));
                        m = self.eq[m as usize];
                    }
                }
            }
            self.fpar[c as usize] = fpar;
            self.eq[c as usize] = eq;
            self.stack.push(c);
        }
        questions.sort_unstable();
        let mut found = None;
        for &(m, c) in &questions {
            let (pm, pc) = (self.pts[m as usize], self.pts[c as usize]);
            if pm.pos != pc.pos {
                self.live.explore(pm.var);
            }
            if self.intersect(m, c) {
                found = Some((pm.var, pc.var));
                break;
            }
        }
        self.questions = questions;
        if found.is_some() {
            for &r in members {
                self.fpar[r as usize] = NIL;
                self.eq[r as usize] = NIL;
            }
            return found;
        }
        let &first = members.first()?;
        let v0 = self.pts[first as usize].var.index();
        for &r in &members[1..] {
            self.sets.union(v0, self.pts[r as usize].var.index());
        }
        let root = self.sets.find(v0);
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(members);
        let s = self.new_slot(Run {
            start,
            len: members.len() as u32,
        });
        self.slot[root] = s;
        None
    }

    /// [`Classes::build`] with `check` for many sets at once, all
    /// variables still alone in their classes: set `g` is `ranks[start[g]
    /// .. start[g + 1]]` (sorted), and `of_rank[k]` the set of rank `k`
    /// (or [`NIL`]). One walk over the ranks in order (each set's stack is
    /// the `fpar` chain of its latest member), then the liveness questions
    /// of all sets sorted by variable. Returns, per set, an interfering
    /// pair if there is one; the other sets become classes.
    ///
    /// A set marked in `known_free` (by set; shorter means unmarked) is
    /// known to be free of interference: it is walked, but its liveness
    /// questions are not asked, only counted in [`Classes::work`] as the
    /// tests they would have been. Also returns the part of that work
    /// spent on the sets found free (all their questions are asked).
    pub(crate) fn build_all(
        &mut self,
        start: &[u32],
        ranks: &[u32],
        of_rank: &[u32],
        known_free: &[bool],
    ) -> (Vec<Option<(Var, Var)>>, usize) {
        let ng = start.len() - 1;
        let mut top = vec![NIL; ng];
        let mut free_work = 0;
        let mut questions = std::mem::take(&mut self.questions);
        questions.clear();
        for (k, &g) in of_rank.iter().enumerate() {
            if g == NIL {
                continue;
            }
            let c = k as u32;
            let pc = self.pts[k];
            let mut p = top[g as usize];
            while p != NIL && c > self.pts[p as usize].end {
                p = self.fpar[p as usize];
            }
            let mut eq = NIL;
            if p != NIL {
                if pc.value == self.pts[p as usize].value {
                    eq = p;
                } else {
                    let mut m = p;
                    while m != NIL {
                        questions.push((m, c));
                        m = self.eq[m as usize];
                    }
                }
            }
            self.fpar[k] = p;
            self.eq[k] = eq;
            top[g as usize] = c;
        }
        drop(top);
        if !known_free.is_empty() {
            // The questions of the sets known free are counted, not asked.
            let before = questions.len();
            questions.retain(|q| known_free.get(of_rank[q.1 as usize] as usize) != Some(&true));
            free_work = before - questions.len();
            self.work += free_work;
        }
        sort_by_first(&mut questions, self.pts.len());
        let mut failed: Vec<Option<(Var, Var)>> = vec![None; ng];
        // The variables explored by the last `explore_words`, and the
        // index of the first question past them.
        let mut batch: Vec<Var> = Vec::with_capacity(64);
        let mut batch_end = 0;
        for (q, &(m, c)) in questions.iter().enumerate() {
            let g = of_rank[c as usize] as usize;
            if failed[g].is_some() {
                continue;
            }
            let (pm, pc) = (self.pts[m as usize], self.pts[c as usize]);
            if pm.pos != pc.pos && q >= batch_end {
                // The next 64 variables asked about (the questions are
                // sorted by `m`), explored at once.
                batch.clear();
                batch_end = q;
                while batch_end < questions.len() {
                    let (m2, c2) = questions[batch_end];
                    let (p2, pc2) = (self.pts[m2 as usize], self.pts[c2 as usize]);
                    if p2.pos != pc2.pos && batch.last() != Some(&p2.var) {
                        if batch.len() == 64 {
                            break;
                        }
                        batch.push(p2.var);
                    }
                    batch_end += 1;
                }
                self.live.explore_words(&batch);
            }
            if self.intersect(m, c) {
                failed[g] = Some((pm.var, pc.var));
            }
        }
        // The questions of the sets found free: all of them, unless some
        // set failed (then a walk over the questions).
        free_work += if failed.iter().all(Option::is_none) {
            questions.len()
        } else {
            questions
                .iter()
                .filter(|q| failed[of_rank[q.1 as usize] as usize].is_none())
                .count()
        };
        self.questions = questions;
        for (g, f) in failed.iter().enumerate() {
            let members = &ranks[start[g] as usize..start[g + 1] as usize];
            if f.is_some() {
                for &r in members {
                    self.fpar[r as usize] = NIL;
                    self.eq[r as usize] = NIL;
                }
                continue;
            }
            let root = self.pts[members[0] as usize].var.index();
            let others = members[1..]
                .iter()
                .map(|&r| self.pts[r as usize].var.index());
            self.sets.join_singletons(root, others);
            let run_start = self.arena.len() as u32;
            self.arena.extend_from_slice(members);
            let s = self.new_slot(Run {
                start: run_start,
                len: members.len() as u32,
            });
            self.slot[root] = s;
        }
        (failed, free_work)
    }
}

/// Sorts `questions`, pushed in increasing order of their second rank, by
/// `(first, second)`: a stable counting sort by the first rank (below
/// `num_ranks`) keeps each first rank's questions in push order, so the
/// result is `sort_unstable`'s, in `O(questions + num_ranks)`. Few
/// questions among many ranks are left to `sort_unstable`.
fn sort_by_first(questions: &mut Vec<(u32, u32)>, num_ranks: usize) {
    debug_assert!(questions.windows(2).all(|w| w[0].1 <= w[1].1));
    if questions.len() < num_ranks / 8 {
        questions.sort_unstable();
        return;
    }
    let mut start = vec![0u32; num_ranks + 1];
    for &(m, _) in questions.iter() {
        start[m as usize + 1] += 1;
    }
    for k in 0..num_ranks {
        start[k + 1] += start[k];
    }
    let mut sorted = vec![(0, 0); questions.len()];
    for &(m, c) in questions.iter() {
        let slot = &mut start[m as usize];
        sorted[*slot as usize] = (m, c);
        *slot += 1;
    }
    *questions = sorted;
}

#[cfg(test)]
mod tests {
    use super::sort_by_first;

    /// Questions pushed by increasing second rank come out as
    /// `sort_unstable` orders them, duplicates included.
    #[test]
    fn counting_sort_of_questions_is_the_comparison_sort() {
        let mut q = vec![
            (5, 1),
            (2, 1),
            (5, 3),
            (0, 3),
            (2, 4),
            (5, 4),
            (2, 4),
            (1, 7),
        ];
        let mut expected = q.clone();
        expected.sort_unstable();
        sort_by_first(&mut q, 6);
        assert_eq!(q, expected);
    }
}
