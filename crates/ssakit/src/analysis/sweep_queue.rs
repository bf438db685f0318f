//! A worklist of block indices taken highest first, in downward sweeps:
//! the order for the word-parallel liveness walks
//! ([`VarLiveness`](super::VarLiveness)'s `explore_live_in_words`,
//! [`LiveCheck`](super::LiveCheck)'s `explore_words`), which carry up to
//! 64 variables at once backwards along the CFG's edges (the backward
//! `Up_and_Mark` of Brandner et al., "Computing Liveness Sets for SSA-Form
//! Programs", 2011).
//!
//! A block queued twice before it is taken is visited once, with the
//! variables of both arrivals in one word: the fewer visits, the more
//! bits each carries. A stack visits a block once per arrival, and
//! arrivals from different uses come at different times. Blocks are
//! numbered about in reverse postorder (the layout order construction
//! and destruction keep), so taking the highest index first visits a
//! block after most of its successors, as a backward data-flow problem
//! wants: a sweep down the indices finishes an acyclic region in one
//! pass; a block queued above the sweep's position (along a loop's back
//! edge) waits for the next sweep.
//!
//! ```text
//!   queued {2, 7, 9}: take 9, its predecessor 8 queued (above 7: kept
//!   for the next sweep), take 7, 2, then the next sweep takes 8.
//! ```
//!
//! One bit per block and one cursor; a sweep costs one word read per 64
//! blocks below its start.

/// Block indices waiting, at most one entry each.
///
/// Invariant: `len` bits of `words` are set; every set bit is in a word
/// at or below `at`, or at or below `next` (pushed above the cursor
/// during this sweep).
#[derive(Debug, Default)]
pub(crate) struct SweepQueue {
    words: Vec<u64>,
    /// The word the current sweep reads.
    at: usize,
    /// The highest word pushed above `at` during this sweep: where the
    /// next sweep starts.
    next: usize,
    len: usize,
}

impl SweepQueue {
    /// An empty queue for indices below `n`.
    pub(crate) fn new(n: usize) -> SweepQueue {
        let words = n.div_ceil(64).max(1);
        SweepQueue {
            words: vec![0; words],
            at: words - 1,
            next: 0,
            len: 0,
        }
    }

    /// Queues `i` unless it is queued already.
    #[inline]
    pub(crate) fn push(&mut self, i: u32) {
        let (w, bit) = (i as usize / 64, 1u64 << (i % 64));
        if self.words[w] & bit == 0 {
            self.words[w] |= bit;
            self.len += 1;
            if w > self.at {
                self.next = self.next.max(w);
            }
        }
    }

    /// Takes the highest index queued at or below the sweep's position,
    /// starting the next sweep when none is left; `None` when empty.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        loop {
            let w = self.words[self.at];
            if w != 0 {
                let bit = 63 - w.leading_zeros() as usize;
                self.words[self.at] &= !(1 << bit);
                self.len -= 1;
                return Some((self.at * 64 + bit) as u32);
            }
            if self.at == 0 {
                self.at = std::mem::take(&mut self.next);
            } else {
                self.at -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SweepQueue;

    #[test]
    fn sweeps_down_and_keeps_what_is_pushed_above_for_the_next() {
        let mut q = SweepQueue::new(200);
        for i in [2, 9, 7, 9, 130] {
            q.push(i);
        }
        assert_eq!(q.pop(), Some(130));
        assert_eq!(q.pop(), Some(9));
        q.push(150); // above the sweep: next sweep
        q.push(8); // below 9, in the word being read: this sweep
        q.push(3);
        let rest: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(rest, [8, 7, 3, 2, 150]);
        assert_eq!(q.pop(), None);
        q.push(0);
        q.push(199);
        // The sweep is past 199's word: 0 first, then the next sweep.
        assert_eq!((q.pop(), q.pop(), q.pop()), (Some(0), Some(199), None));
    }

    /// Every index pushed comes out once per time it was pushed while not
    /// queued, whatever the order, against a plain set.
    #[test]
    fn takes_every_index_once() {
        let mut q = SweepQueue::new(1000);
        let mut queued = std::collections::BTreeSet::new();
        let mut x: u64 = 12345;
        let mut taken = 0;
        for step in 0..20_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (x >> 33) as u32 % 1000;
            if step % 3 == 0 {
                match q.pop() {
                    Some(j) => assert!(queued.remove(&j), "{j} not queued"),
                    None => assert!(queued.is_empty()),
                }
                taken += 1;
            } else {
                q.push(i);
                queued.insert(i);
            }
        }
        while let Some(j) = q.pop() {
            assert!(queued.remove(&j));
        }
        assert!(queued.is_empty() && taken > 6000);
    }
}
