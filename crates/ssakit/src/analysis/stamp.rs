//! Sets over dense indices that clear in O(1), for analyses run many times.
//!
//! An analysis answering many small queries on one big graph (the iterated
//! dominance frontier of each variable, the liveness of each variable) must
//! not pay O(number of nodes) per query to reset its marks. A [`StampSet`]
//! keeps one `u32` stamp per index; an index is in the set when its stamp
//! equals the set's current generation, so [`StampSet::clear`] only bumps the
//! generation. The O(n) reset happens once every 2³² − 1 clears.

/// A set of indices `0 .. capacity` with O(1) insert, lookup and clear.
///
/// # Example
///
/// ```
/// use ssakit::analysis::StampSet;
/// let mut seen = StampSet::new(10);
/// // One set reused across many queries; each clear is O(1).
/// for query in [[1, 2, 1], [2, 3, 3]] {
///     seen.clear();
///     let distinct = query.iter().filter(|&&i| seen.insert(i)).count();
///     assert_eq!(distinct, 2);
/// }
/// ```
#[derive(Clone, Debug, Default)]
pub struct StampSet {
    /// `stamp[i] == generation` iff `i` is in the set. Invariant: every stamp
    /// is at most `generation`, and `generation >= 1`.
    stamp: Vec<u32>,
    generation: u32,
}

impl StampSet {
    /// An empty set over `0 .. capacity`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::StampSet;
    /// let s = StampSet::new(4);
    /// assert!((0..4).all(|i| !s.contains(i)));
    /// ```
    pub fn new(capacity: usize) -> StampSet {
        StampSet {
            stamp: vec![0; capacity],
            generation: 1,
        }
    }

    /// The capacity given to [`StampSet::new`] or [`StampSet::resize`].
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::StampSet;
    /// let mut s = StampSet::new(4);
    /// assert_eq!(s.capacity(), 4);
    /// s.resize(8);
    /// assert_eq!(s.capacity(), 8);
    /// ```
    pub fn capacity(&self) -> usize {
        self.stamp.len()
    }

    /// Empties the set and makes it cover `0 .. capacity`.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::StampSet;
    /// let mut s = StampSet::new(2);
    /// s.insert(1);
    /// s.resize(6);
    /// assert!(!s.contains(1)); // resizing empties the set
    /// assert!(s.insert(5));
    /// ```
    pub fn resize(&mut self, capacity: usize) {
        self.clear();
        self.stamp.resize(capacity, 0);
    }

    /// Empties the set, in O(1) except once every 2³² − 1 calls.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::StampSet;
    /// let mut s = StampSet::new(3);
    /// s.insert(0);
    /// s.insert(2);
    /// s.clear();
    /// assert!(!s.contains(0) && !s.contains(2));
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        if self.generation == u32::MAX {
            self.stamp.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// Adds `i`; returns whether it was absent.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::StampSet;
    /// let mut s = StampSet::new(3);
    /// assert!(s.insert(2)); // absent: added
    /// assert!(!s.insert(2)); // already there
    /// ```
    #[inline]
    pub fn insert(&mut self, i: usize) -> bool {
        let s = &mut self.stamp[i];
        if *s == self.generation {
            false
        } else {
            *s = self.generation;
            true
        }
    }

    /// Whether `i` is in the set.
    ///
    /// # Example
    ///
    /// ```
    /// # use ssakit::analysis::StampSet;
    /// let mut s = StampSet::new(3);
    /// s.insert(1);
    /// assert!(s.contains(1));
    /// assert!(!s.contains(0));
    /// ```
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
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
