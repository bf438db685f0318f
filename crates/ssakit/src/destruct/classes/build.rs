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
//! reads the definition points in memory order. Most of its questions
//! need no exploration: two members defined at one point, or a member
//! whose live range is local to its block (read there and by the phis of
//! its successors only: a closed form, see
//! [`LiveCheck`](crate::analysis::LiveCheck)). Those are answered during
//! the walk; only the others are sorted and explored, 64 variables at a
//! time. Answering out of order changes nothing: each set's verdict is
//! its least intersecting question, and the tests counted are those up
//! to it, as if all were asked in order.

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
    /// the `fpar` chain of its latest member), answering the questions
    /// that need no exploration on the way (see [`Classes::answer_now`]);
    /// then the other liveness questions of all sets sorted by variable,
    /// explored 64 at a time. Returns, per set, an interfering pair if
    /// there is one; the other sets become classes.
    ///
    /// The result, the pairs and [`Classes::work`] are those of asking
    /// every question in `(m, c)` order and stopping each set at its first
    /// intersection: a set's first intersecting question is the least
    /// among those answered on the way and those asked after, and only
    /// the questions up to it count as tests.
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
        // By set: its least question `(m, c)` found to intersect (`(NIL,
        // NIL)`, after every question, while none is), and how many of its
        // questions were answered on the way.
        let mut first_hit = vec![(NIL, NIL); ng];
        let mut answered = vec![0u32; ng];
        let mut free_work = 0;
        let mut questions = std::mem::take(&mut self.questions);
        questions.clear();
        for (k, &g) in of_rank.iter().enumerate() {
            if g == NIL {
                continue;
            }
            let (c, gi) = (k as u32, g as usize);
            let pc = self.pts[k];
            let mut p = top[gi];
            while p != NIL && c > self.pts[p as usize].end {
                p = self.fpar[p as usize];
            }
            let mut eq = NIL;
            if p != NIL {
                if pc.value == self.pts[p as usize].value {
                    eq = p;
                } else {
                    let known = known_free.get(gi) == Some(&true);
                    let mut m = p;
                    while m != NIL {
                        if known {
                            // Counted, not asked.
                            free_work += 1;
                        } else if let Some(hit) = self.answer_now(m, c) {
                            answered[gi] += 1;
                            if hit && (m, c) < first_hit[gi] {
                                first_hit[gi] = (m, c);
                            }
                        } else {
                            questions.push((m, c));
                        }
                        m = self.eq[m as usize];
                    }
                }
            }
            self.fpar[k] = p;
            self.eq[k] = eq;
            top[gi] = c;
        }
        drop(top);
        self.work += free_work;
        sort_by_first(&mut questions, self.pts.len());
        // The variables explored by the last `explore_words`, and the
        // index of the first question past them.
        let mut batch: Vec<Var> = Vec::with_capacity(64);
        let mut batch_end = 0;
        for (q, &(m, c)) in questions.iter().enumerate() {
            let g = of_rank[c as usize] as usize;
            if first_hit[g] < (m, c) {
                // An earlier question of the set intersects.
                continue;
            }
            if q >= batch_end {
                batch_end = self.next_batch(&questions, q, &mut batch);
                self.live.explore_words(&batch);
            }
            if self.intersect(m, c) {
                first_hit[g] = (m, c);
            }
        }
        // The questions answered on the way that count as tests, and
        // those of the sets found free: all of them, unless some set
        // failed (then a walk over the questions asked after).
        let mut all_free = true;
        for g in 0..ng {
            if first_hit[g].0 == NIL {
                self.work += answered[g] as usize;
                free_work += answered[g] as usize;
            } else {
                all_free = false;
                let members = &ranks[start[g] as usize..start[g + 1] as usize];
                self.work += self.answered_until(members, first_hit[g]);
            }
        }
        free_work += if all_free {
            questions.len()
        } else {
            questions
                .iter()
                .filter(|q| first_hit[of_rank[q.1 as usize] as usize].0 == NIL)
                .count()
        };
        self.questions = questions;
        self.reserve_slots(ng, ranks.len());
        let failed: Vec<Option<(Var, Var)>> = first_hit
            .iter()
            .map(|&(m, c)| (m != NIL).then(|| (self.pts[m as usize].var, self.pts[c as usize].var)))
            .collect();
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

    /// Whether `m` (a member above `c`) intersects `c`, when that needs no
    /// exploration: both defined at one point, or the live range of `m`'s
    /// variable local (see [`LiveCheck`](crate::analysis::LiveCheck), in
    /// closed form). `None` when it needs one. Not counted in
    /// [`Classes::work`].
    fn answer_now(&mut self, m: u32, c: u32) -> Option<bool> {
        let (pm, pc) = (self.pts[m as usize], self.pts[c as usize]);
        if pm.pos == pc.pos {
            return Some(!pc.pos.is_entry() || pm.used || pc.used);
        }
        if !self.live.is_local(pm.var) {
            return None;
        }
        Some(self.live.is_live_after_local(pm.var, pc.pos))
    }

    /// How many questions of the set `members` (sorted ranks, walked by
    /// [`Classes::build_all`]) up to `(m, c)` = `last` were answered on
    /// the way: the questions again, from `fpar` and `eq`.
    fn answered_until(&self, members: &[u32], last: (u32, u32)) -> usize {
        let mut n = 0;
        for &c in members {
            let p = self.fpar[c as usize];
            if p == NIL || self.pts[c as usize].value == self.pts[p as usize].value {
                continue;
            }
            let mut m = p;
            while m != NIL {
                let (pm, pc) = (self.pts[m as usize], self.pts[c as usize]);
                if (m, c) <= last && (pm.pos == pc.pos || self.live.is_local(pm.var)) {
                    n += 1;
                }
                m = self.eq[m as usize];
            }
        }
        n
    }

    /// The next variables to explore at once for the liveness questions
    /// `questions[q..]` (sorted by their first rank, all needing an
    /// exploration): up to 64 variables asked about, in `batch`. Returns
    /// the index of the first question past them.
    fn next_batch(&self, questions: &[(u32, u32)], q: usize, batch: &mut Vec<Var>) -> usize {
        batch.clear();
        let mut end = q;
        while end < questions.len() {
            let v = self.pts[questions[end].0 as usize].var;
            if batch.last() != Some(&v) {
                if batch.len() == 64 {
                    break;
                }
                batch.push(v);
            }
            end += 1;
        }
        end
    }
}

/// Sorts `questions`, pushed in increasing order of their second rank, by
/// `(first, second)`: a stable counting sort by the first rank (below
/// `num_ranks`) keeps each first rank's questions in push order, so the
/// result is `sort_unstable`'s, in `O(questions + num_ranks)`. Few
/// questions among many ranks (fewer than one in 64: a comparison sort
/// costs some ten times `log2(questions)` a question, the counting sort
/// about three words a rank) are left to `sort_unstable`.
fn sort_by_first(questions: &mut Vec<(u32, u32)>, num_ranks: usize) {
    debug_assert!(questions.windows(2).all(|w| w[0].1 <= w[1].1));
    if questions.len() < num_ranks / 64 {
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
