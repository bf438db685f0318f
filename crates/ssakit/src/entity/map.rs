//! `SecondaryMap`: a side table keyed by an entity, growing on demand.

use super::*;

/// A side table that reads as `default` for every key never written and
/// grows on first write, so that it never has to be sized up front (like
/// Cranelift's `SecondaryMap`).
///
/// ```
/// use ssakit::entity::SecondaryMap;
/// use ssakit::ir::Var;
/// let mut uses: SecondaryMap<Var, u32> = SecondaryMap::new(0);
/// uses[Var::new(5)] += 1;
/// assert_eq!((uses[Var::new(5)], uses[Var::new(99)]), (1, 0));
/// ```
#[derive(Clone)]
pub struct SecondaryMap<K: EntityRef, V: Clone> {
    data: Vec<V>,
    default: V,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// An empty map answering `default` everywhere.
    ///
    /// ```
    /// use ssakit::entity::SecondaryMap;
    /// use ssakit::ir::Var;
    /// let m: SecondaryMap<Var, i8> = SecondaryMap::new(-1);
    /// assert_eq!(m[Var::new(3)], -1);
    /// ```
    pub fn new(default: V) -> Self {
        SecondaryMap {
            data: Vec::new(),
            default,
            _key: PhantomData,
        }
    }

    /// An empty map with room for keys below `n` before it grows.
    ///
    /// ```
    /// use ssakit::entity::SecondaryMap;
    /// use ssakit::ir::Var;
    /// let mut m: SecondaryMap<Var, i8> = SecondaryMap::with_capacity(100, -1);
    /// m[Var::new(50)] = 7;
    /// assert_eq!((m[Var::new(50)], m[Var::new(3)]), (7, -1));
    /// ```
    pub fn with_capacity(n: usize, default: V) -> Self {
        SecondaryMap {
            data: Vec::with_capacity(n),
            default,
            _key: PhantomData,
        }
    }
}

impl<K: EntityRef, V: Clone> Index<K> for SecondaryMap<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        self.data.get(k.index()).unwrap_or(&self.default)
    }
}

impl<K: EntityRef, V: Clone> IndexMut<K> for SecondaryMap<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        if k.index() >= self.data.len() {
            self.grow_to(k.index());
        }
        &mut self.data[k.index()]
    }
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// Makes room for key `i`: fills the table with the default up to
    /// its capacity, or up to `i` if beyond it (then `Vec`'s amortised
    /// growth doubles the room). A map written in increasing key order,
    /// as most are, grows here once per doubling, not once per key;
    /// reads are the same either way (a key never written reads as the
    /// default, stored or not).
    fn grow_to(&mut self, i: usize) {
        let n = (i + 1).max(self.data.capacity());
        self.data.resize(n, self.default.clone());
    }
}

impl<K: EntityRef, V: Clone + fmt::Debug> fmt::Debug for SecondaryMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.data.iter().enumerate().map(|(i, v)| (K::new(i), v)))
            .finish()
    }
}
