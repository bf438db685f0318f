//! Sets over dense indices that clear in O(1), for analyses run many times.
//!
//! An analysis answering many small queries on one big graph (the iterated
//! dominance frontier of each variable, the liveness of each variable) must
//! not pay O(number of nodes) per query to reset its marks. A [`StampSet`]
//! keeps one `u32` stamp per index; an index is in the set when its stamp
//! equals the set's current generation, so [`StampSet::clear`] only bumps the
//! generation. The O(n) reset happens once every 2³² − 1 clears.

/// A set of indices `0 .. capacity` with O(1) insert, lookup and clear.
#[derive(Clone, Debug, Default)]
pub(crate) struct StampSet {
    /// `stamp[i] == generation` iff `i` is in the set. Invariant: every stamp
    /// is at most `generation`, and `generation >= 1`.
    stamp: Vec<u32>,
    generation: u32,
}

impl StampSet {
    /// An empty set over `0 .. capacity`.
    pub(crate) fn new(capacity: usize) -> StampSet {
        StampSet {
            stamp: vec![0; capacity],
            generation: 1,
        }
    }

    /// Empties the set, in O(1) except once every 2³² − 1 calls.
    #[inline]
    pub(crate) fn clear(&mut self) {
        if self.generation == u32::MAX {
            self.stamp.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// Adds `i`; returns whether it was absent.
    #[inline]
    pub(crate) fn insert(&mut self, i: usize) -> bool {
        let s = &mut self.stamp[i];
        if *s == self.generation {
            false
        } else {
            *s = self.generation;
            true
        }
    }

    /// Whether `i` is in the set.
    #[inline]
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.stamp[i] == self.generation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clear_forgets_and_wraparound_resets() {
        let mut s = StampSet::new(4);
        assert!(s.insert(1));
        assert!(!s.insert(1));
        assert!(s.contains(1) && !s.contains(2));
        s.clear();
        assert!(!s.contains(1));
        s.generation = u32::MAX - 1;
        s.insert(3);
        s.clear();
        assert!(!s.contains(3));
        s.clear(); // wraps: stamps reset, generation restarts at 1
        assert_eq!(s.generation, 1);
        assert!(!s.contains(3) && s.insert(3));
    }
}
