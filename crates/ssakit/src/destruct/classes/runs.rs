//! The members of each class as sorted runs of ranks, merged by the
//! logarithmic method (Bentley and Saxe, "Decomposable searching problems
//! I", 1980): merging two classes appends runs and merges runs of similar
//! lengths, so a member is copied `O(log n)` times over all merges, and a
//! predecessor or successor query costs a binary search per run. These
//! are the sets the walk of Boissinot et al. (CGO 2009, section IV-B)
//! looks into.

use super::forest::{Classes, Run, HOT, NIL};
use crate::ir::Var;

impl Classes<'_> {
    /// A fresh slot holding one run, without blockers.
    pub(super) fn new_slot(&mut self, run: Run) -> u32 {
        self.head.push(self.runs.len() as u32);
        self.counts.push(run.len);
        self.runs.push((run, NIL));
        self.blockers.push([(NIL, NIL); 2]);
        self.hot.push([NIL; HOT]);
        self.head.len() as u32 - 1
    }

    /// Room for `n` more slots and `ranks` more ranks in the arena, for a
    /// caller about to make many (one vector growth each, instead of one
    /// per doubling).
    pub(crate) fn reserve_slots(&mut self, n: usize, ranks: usize) {
        self.head.reserve(n);
        self.counts.reserve(n);
        self.runs.reserve(n);
        self.blockers.reserve(n);
        self.hot.reserve(n);
        self.arena.reserve(ranks);
    }

    /// The runs of slot `s`.
    pub(super) fn runs_of(&self, s: u32) -> impl Iterator<Item = &[u32]> + '_ {
        let mut r = self.head[s as usize];
        std::iter::from_fn(move || {
            if r == NIL {
                return None;
            }
            let (run, next) = self.runs[r as usize];
            r = next;
            Some(&self.arena[run.start as usize..(run.start + run.len) as usize])
        })
    }

    /// The slot of root `r`'s class, created for a ranked variable alone in
    /// its class; [`NIL`] if the class has no ranked member.
    pub(super) fn slot_of(&mut self, r: Var) -> u32 {
        let s = self.slot[r.index()];
        if s != NIL {
            return s;
        }
        let k = self.rank[r.index()];
        if k == NIL {
            return NIL;
        }
        let start = self.arena.len() as u32;
        self.arena.push(k);
        let s = self.new_slot(Run { start, len: 1 });
        self.slot[r.index()] = s;
        s
    }

    /// Number of ranked members of the class in slot `s`.
    pub(super) fn count(&self, s: u32) -> usize {
        self.counts[s as usize] as usize
    }

    /// The largest member of the class in slot `s` ranked below `k`, or
    /// [`NIL`].
    pub(super) fn pred(&self, s: u32, k: u32) -> u32 {
        let mut best = NIL;
        for run in self.runs_of(s) {
            let i = run.partition_point(|&e| e < k);
            if i > 0 && (best == NIL || run[i - 1] > best) {
                best = run[i - 1];
            }
        }
        best
    }

    /// The smallest member of the class in slot `s` ranked above `k`, or
    /// [`NIL`].
    pub(super) fn succ(&self, s: u32, k: u32) -> u32 {
        let mut best = NIL;
        for run in self.runs_of(s) {
            let i = run.partition_point(|&e| e <= k);
            if i < run.len() && run[i] < best {
                best = run[i];
            }
        }
        best
    }

    /// Moves the runs and blockers of slot `from` into slot `to`, then
    /// merges runs until each is at least twice as long as the next.
    pub(super) fn merge_slots(&mut self, to: u32, from: u32) {
        let (t, f) = (to as usize, from as usize);
        // The runs of both slots (their nodes are reused for the result).
        let (mut ids, mut list) = (
            std::mem::take(&mut self.run_ids),
            std::mem::take(&mut self.run_list),
        );
        ids.clear();
        list.clear();
        for mut r in [self.head[t], self.head[f]] {
            while r != NIL {
                ids.push(r);
                list.push(self.runs[r as usize].0);
                r = self.runs[r as usize].1;
            }
        }
        loop {
            list.sort_unstable_by_key(|r| std::cmp::Reverse(r.len));
            let Some(i) = (0..list.len().saturating_sub(1))
                .rev()
                .find(|&i| list[i].len < 2 * list[i + 1].len)
            else {
                break;
            };
            let (a, b) = (list[i], list[i + 1]);
            let mut merged = std::mem::take(&mut self.merged);
            merged.clear();
            {
                let (x, y) = (
                    &self.arena[a.start as usize..(a.start + a.len) as usize],
                    &self.arena[b.start as usize..(b.start + b.len) as usize],
                );
                let (mut p, mut q) = (0, 0);
                while p < x.len() && q < y.len() {
                    if x[p] < y[q] {
                        merged.push(x[p]);
                        p += 1;
                    } else {
                        merged.push(y[q]);
                        q += 1;
                    }
                }
                merged.extend_from_slice(&x[p..]);
                merged.extend_from_slice(&y[q..]);
            }
            let start = self.arena.len() as u32;
            self.arena.extend_from_slice(&merged);
            self.merged = merged;
            self.garbage += (a.len + b.len) as usize;
            list[i] = Run {
                start,
                len: a.len + b.len,
            };
            list.remove(i + 1);
        }
        // Relink the first nodes to hold the runs, longest first.
        for (k, (&id, &run)) in ids.iter().zip(&list).enumerate() {
            let next = ids.get(k + 1).copied().filter(|_| k + 1 < list.len());
            self.runs[id as usize] = (run, next.unwrap_or(NIL));
        }
        self.head[t] = ids[0];
        self.head[f] = NIL;
        self.counts[t] += self.counts[f];
        self.counts[f] = 0;
        self.run_ids = ids;
        self.run_list = list;
        // Hot members: alternately from each side.
        let (ht, hf) = (self.hot[t], self.hot[f]);
        let mut hot = [NIL; HOT];
        let both = (0..HOT).flat_map(|k| [ht[k], hf[k]]).filter(|&h| h != NIL);
        for (slot, h) in hot.iter_mut().zip(both) {
            *slot = h;
        }
        self.hot[t] = hot;
        let (bt, bf) = (self.blockers[t], self.blockers[f]);
        self.blockers[t] = match (bt[0].0 != NIL, bf[0].0 != NIL) {
            (true, true) => [bt[0], bf[0]],
            (true, false) => bt,
            (false, _) => bf,
        };
        if self.garbage > 1 << 16 && self.garbage > self.arena.len() / 2 {
            self.compact();
        }
    }

    /// Copies the live runs to a fresh arena.
    pub(super) fn compact(&mut self) {
        let mut arena = Vec::with_capacity(self.arena.len() - self.garbage);
        for &h in &self.head {
            let mut r = h;
            while r != NIL {
                let (run, next) = &mut self.runs[r as usize];
                let start = arena.len() as u32;
                arena.extend_from_slice(
                    &self.arena[run.start as usize..(run.start + run.len) as usize],
                );
                run.start = start;
                r = *next;
            }
        }
        self.arena = arena;
        self.garbage = 0;
    }
}
