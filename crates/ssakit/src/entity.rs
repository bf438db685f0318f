//! Dense typed indices and the vectors they index.
//!
//! As in Cranelift's `cranelift-entity`, every IR object (a block, an
//! instruction, a variable) is named by a `u32` newtype that indexes a vector
//! owned by the [`Function`](crate::ir::Function). Analyses keep their results
//! in side tables of the same shape ([`EntityVec`] indexed by the same key), so
//! there are no pointer graphs, no reference counting and no hashing on hot
//! paths: a lookup is one bounds-checked array access.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A dense index type: a `u32` newtype usable as a vector index.
pub trait EntityRef: Copy + Eq + Ord + fmt::Debug + 'static {
    /// The entity with index `i`. Panics if `i` does not fit in a `u32`.
    fn new(i: usize) -> Self;
    /// This entity's index.
    fn index(self) -> usize;
}

/// Declares a `u32` newtype entity whose `Display` is `prefix` + index.
#[macro_export]
macro_rules! entity_ref {
    ($(#[$attr:meta])* $name:ident, $prefix:literal) => {
        $(#[$attr])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $crate::entity::EntityRef for $name {
            #[inline]
            fn new(i: usize) -> Self {
                assert!(i < u32::MAX as usize, "too many entities");
                $name(i as u32)
            }
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl $name {
            /// The entity with index `i`.
            #[inline]
            pub fn new(i: usize) -> Self {
                <Self as $crate::entity::EntityRef>::new(i)
            }
            /// This entity's index.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

/// A vector indexed by an entity type: the owner of the entities (like
/// Cranelift's `PrimaryMap`) or a side table keyed by them (`SecondaryMap`).
#[derive(Clone, PartialEq, Eq)]
pub struct EntityVec<K: EntityRef, V> {
    data: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> EntityVec<K, V> {
    /// An empty vector.
    pub fn new() -> Self {
        EntityVec {
            data: Vec::new(),
            _key: PhantomData,
        }
    }

    /// An empty vector with room for `n` entities.
    pub fn with_capacity(n: usize) -> Self {
        EntityVec {
            data: Vec::with_capacity(n),
            _key: PhantomData,
        }
    }

    /// A side table of `n` copies of `v`.
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
    pub fn from_vec(data: Vec<V>) -> Self {
        EntityVec {
            data,
            _key: PhantomData,
        }
    }

    /// Appends `v` and returns its new key.
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.data.len());
        self.data.push(v);
        k
    }

    /// The key the next `push` will return.
    pub fn next_key(&self) -> K {
        K::new(self.data.len())
    }

    /// Number of entities.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether there are no entities.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// All keys, in index order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator + 'static {
        (0..self.data.len()).map(K::new)
    }

    /// Values in index order.
    pub fn values(&self) -> std::slice::Iter<'_, V> {
        self.data.iter()
    }

    /// Mutable values in index order.
    pub fn values_mut(&mut self) -> std::slice::IterMut<'_, V> {
        self.data.iter_mut()
    }

    /// `(key, value)` pairs in index order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (K, &V)> + ExactSizeIterator {
        self.data.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }

    /// The value at `k`, or `None` if `k` is out of range.
    pub fn get(&self, k: K) -> Option<&V> {
        self.data.get(k.index())
    }

    /// Grows the table with copies of `v` until `k` is a valid key.
    pub fn ensure(&mut self, k: K, v: V)
    where
        V: Clone,
    {
        if self.data.len() <= k.index() {
            self.data.resize(k.index() + 1, v);
        }
    }

    /// Reserves room for `additional` more entries (see `Vec::reserve`).
    pub fn reserve(&mut self, additional: usize) {
        self.data.reserve(additional);
    }

    /// The underlying slice.
    pub fn as_slice(&self) -> &[V] {
        &self.data
    }

    /// The underlying vector.
    pub fn into_vec(self) -> Vec<V> {
        self.data
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
