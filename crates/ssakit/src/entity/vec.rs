//! `EntityVec`: the primary table that allocates the keys of one entity.

use super::*;

/// A vector indexed by an entity type: the owner of the entities (like
/// Cranelift's `PrimaryMap`) or a side table filled up front.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct EntityVec<K: EntityRef, V> {
    data: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> EntityVec<K, V> {
    /// An empty vector.
    pub(crate) fn new() -> Self {
        EntityVec {
            data: Vec::new(),
            _key: PhantomData,
        }
    }

    /// An empty vector with room for `n` entities.
    pub(crate) fn with_capacity(n: usize) -> Self {
        EntityVec {
            data: Vec::with_capacity(n),
            _key: PhantomData,
        }
    }

    /// A side table of `n` copies of `v`.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Var;
    /// let mut seen: EntityVec<Var, bool> = EntityVec::filled(3, false);
    /// seen[Var::new(2)] = true;
    /// assert_eq!((seen[Var::new(1)], seen[Var::new(2)]), (false, true));
    /// ```
    pub fn filled(n: usize, v: V) -> Self
    where
        V: Clone,
    {
        EntityVec {
            data: vec![v; n],
            _key: PhantomData,
        }
    }

    /// Wraps an existing vector.
    pub(crate) fn from_vec(data: Vec<V>) -> Self {
        EntityVec {
            data,
            _key: PhantomData,
        }
    }

    /// Appends `v` and returns its new key.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let mut names: EntityVec<Block, &str> = EntityVec::default();
    /// let b = names.push("entry");
    /// assert_eq!((b, names[b]), (Block::new(0), "entry"));
    /// ```
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.data.len());
        self.data.push(v);
        k
    }

    /// Number of entities.
    pub(crate) fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether there are no entities.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let mut v: EntityVec<Block, u8> = EntityVec::new();
    /// assert!(v.is_empty());
    /// v.push(1);
    /// assert!(!v.is_empty());
    /// ```
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// All keys, in index order.
    pub(crate) fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator + 'static {
        (0..self.data.len()).map(K::new)
    }

    /// Values in index order.
    pub(crate) fn values(&self) -> std::slice::Iter<'_, V> {
        self.data.iter()
    }

    /// Mutable values in index order.
    pub(crate) fn values_mut(&mut self) -> std::slice::IterMut<'_, V> {
        self.data.iter_mut()
    }

    /// `(key, value)` pairs in index order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = (K, &V)> + ExactSizeIterator {
        self.data.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }

    /// The value at `k`, or `None` if `k` is out of range.
    pub fn get(&self, k: K) -> Option<&V> {
        self.data.get(k.index())
    }

    /// Grows the table with copies of `v` until `k` is a valid key.
    pub(crate) fn ensure(&mut self, k: K, v: V)
    where
        V: Clone,
    {
        if self.data.len() <= k.index() {
            self.data.resize(k.index() + 1, v);
        }
    }

    /// Reserves room for exactly `additional` more entries (see
    /// `Vec::reserve_exact`): for a count known once, where doubling
    /// would leave up to half the table unused.
    pub(crate) fn reserve_exact(&mut self, additional: usize) {
        self.data.reserve_exact(additional);
    }

    /// The underlying slice.
    pub(crate) fn as_slice(&self) -> &[V] {
        &self.data
    }

    /// Moves the value of key `i` to key `new_of[i]`, in place and in
    /// `O(len)`, by following each cycle of the permutation once (no second
    /// table: renumbering a million blocks does not hold two copies of
    /// them). `new_of` must be a permutation of `0..len`.
    pub(crate) fn permute(&mut self, new_of: &[u32]) {
        let n = self.data.len();
        assert_eq!(new_of.len(), n, "permute: not a permutation of the keys");
        let mut placed = vec![false; n];
        for start in 0..n {
            if placed[start] {
                continue;
            }
            // Invariant: `data[start]` holds the value of `i`, and every
            // value met before it on the cycle is in its new place.
            let mut i = start;
            loop {
                placed[i] = true;
                let j = new_of[i] as usize;
                if j == start {
                    break;
                }
                assert!(!placed[j], "permute: not a permutation of the keys");
                self.data.swap(start, j);
                i = j;
            }
        }
    }
}

impl<K: EntityRef, V> Default for EntityVec<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V> Index<K> for EntityVec<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        &self.data[k.index()]
    }
}

impl<K: EntityRef, V> IndexMut<K> for EntityVec<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.data[k.index()]
    }
}

impl<K: EntityRef, V: fmt::Debug> fmt::Debug for EntityVec<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}
