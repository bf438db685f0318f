//! Dense typed indices and the tables they index.
//!
//! As in Cranelift's `cranelift-entity`, every IR object (a block, an
//! instruction, a variable) is named by a `u32` newtype that indexes a table
//! owned by the [`Function`](crate::ir::Function). Analyses keep their results
//! in side tables of the same shape, indexed by the same key, so there are no
//! pointer graphs, no reference counting and no hashing on hot paths: a lookup
//! is one bounds-checked array access. The `u32` inside a key is private: a
//! key is made by [`EntityRef::new`] and read by [`EntityRef::index`], so a
//! block number cannot be used where a variable is meant.
//!
//! The tables:
//!
//! * [`EntityVec`]: the owner of a kind of entity (Cranelift's `PrimaryMap`),
//!   or a side table filled up front;
//! * [`SecondaryMap`]: a side table that answers a default for keys never
//!   written and grows on first write (Cranelift's `SecondaryMap`);
//! * [`PackedOption`]: an optional key in four bytes, for large tables;
//! * [`Csr`]: a list per key in compressed sparse row form, built from
//!   `(key, item)` pairs by one stable counting sort (every "list per block"
//!   and "list per variable" of the analyses);
//! * [`EntityList`] over a [`ListPool`]: a growable list per instruction,
//!   all of one function's lists in one vector (Cranelift's `EntityList`),
//!   so that an instruction is a small `Copy` value with no allocation of
//!   its own.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A dense index type: a `u32` newtype usable as a table index.
///
/// ```
/// use ssakit::entity::EntityRef;
/// use ssakit::ir::Block;
/// fn second<K: EntityRef>(k: K) -> K { K::new(k.index() + 1) }
/// assert_eq!(second(Block::new(4)), Block::new(5));
/// ```
pub trait EntityRef: Copy + Eq + Ord + std::hash::Hash + fmt::Debug + 'static {
    /// The entity with index `i`. Panics if `i` does not fit in a `u32`
    /// below the reserved value of [`PackedOption`].
    ///
    /// ```
    /// use ssakit::entity::EntityRef;
    /// use ssakit::ir::Var;
    /// assert_eq!(<Var as EntityRef>::new(7).to_string(), "v7");
    /// ```
    fn new(i: usize) -> Self;
    /// This entity's index.
    ///
    /// ```
    /// use ssakit::entity::EntityRef;
    /// use ssakit::ir::Var;
    /// assert_eq!(EntityRef::index(Var::new(7)), 7);
    /// ```
    fn index(self) -> usize;
}

/// Declares a `u32` newtype entity whose `Display` is `prefix` + index.
/// The `u32` is private; [`EntityRef::new`] and [`EntityRef::index`] (also
/// inherent methods, with `from_u32`/`as_u32`) convert. The examples it
/// writes into the type's documentation name it `ssakit::ir::$name`, where
/// every entity of the library is declared.
#[macro_export]
macro_rules! entity_ref {
    ($(#[$attr:meta])* $name:ident, $prefix:literal) => {
        $(#[$attr])*
        ///
        /// ```
        #[doc = concat!("use ssakit::ir::", stringify!($name), ";")]
        #[doc = concat!("let k = ", stringify!($name), "::new(3);")]
        #[doc = concat!("assert_eq!(k.to_string(), \"", $prefix, "3\");")]
        #[doc = concat!("assert!(k < ", stringify!($name), "::new(4));")]
        /// ```
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

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
            ///
            /// ```
            #[doc = concat!("use ssakit::ir::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(2).index(), 2);")]
            /// ```
            #[inline]
            pub fn new(i: usize) -> Self {
                <Self as $crate::entity::EntityRef>::new(i)
            }
            /// This entity's index.
            ///
            /// ```
            #[doc = concat!("use ssakit::ir::", stringify!($name), ";")]
            /// let table = ['a', 'b'];
            #[doc = concat!("assert_eq!(table[", stringify!($name), "::new(1).index()], 'b');")]
            /// ```
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// The entity with index `i` (for tables of `u32`).
            ///
            /// ```
            #[doc = concat!("use ssakit::ir::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_u32(5), ", stringify!($name), "::new(5));")]
            /// ```
            #[inline]
            pub fn from_u32(i: u32) -> Self {
                <Self as $crate::entity::EntityRef>::new(i as usize)
            }
            /// This entity's index as a `u32` (for tables of `u32`).
            ///
            /// ```
            #[doc = concat!("use ssakit::ir::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(5).as_u32(), 5u32);")]
            /// ```
            #[inline]
            pub fn as_u32(self) -> u32 {
                self.0
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
/// Cranelift's `PrimaryMap`) or a side table filled up front.
///
/// ```
/// use ssakit::entity::EntityVec;
/// use ssakit::ir::Block;
/// let mut names: EntityVec<Block, &str> = EntityVec::new();
/// let entry = names.push("entry");
/// assert_eq!(names[entry], "entry");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct EntityVec<K: EntityRef, V> {
    data: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> EntityVec<K, V> {
    /// An empty vector.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let v: EntityVec<Block, u8> = EntityVec::new();
    /// assert!(v.is_empty());
    /// ```
    pub fn new() -> Self {
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
    /// use ssakit::ir::Block;
    /// let seen: EntityVec<Block, bool> = EntityVec::filled(3, false);
    /// assert_eq!(seen.len(), 3);
    /// assert!(!seen[Block::new(2)]);
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
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let depth: EntityVec<Block, u32> = EntityVec::from_vec(vec![0, 1, 1]);
    /// assert_eq!(depth[Block::new(2)], 1);
    /// ```
    pub fn from_vec(data: Vec<V>) -> Self {
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
    /// let mut v: EntityVec<Block, char> = EntityVec::new();
    /// assert_eq!(v.push('a'), Block::new(0));
    /// assert_eq!(v.push('b'), Block::new(1));
    /// ```
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.data.len());
        self.data.push(v);
        k
    }

    /// The key the next `push` will return.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let mut v: EntityVec<Block, char> = EntityVec::new();
    /// let k = v.next_key();
    /// assert_eq!(v.push('a'), k);
    /// ```
    pub fn next_key(&self) -> K {
        K::new(self.data.len())
    }

    /// Number of entities.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let v: EntityVec<Block, u8> = EntityVec::from_vec(vec![5, 6]);
    /// assert_eq!(v.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
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
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// All keys, in index order.
    pub(crate) fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator + 'static {
        (0..self.data.len()).map(K::new)
    }

    /// Values in index order.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let v: EntityVec<Block, u8> = EntityVec::from_vec(vec![5, 6]);
    /// assert_eq!(v.values().sum::<u8>(), 11);
    /// ```
    pub fn values(&self) -> std::slice::Iter<'_, V> {
        self.data.iter()
    }

    /// Mutable values in index order.
    pub(crate) fn values_mut(&mut self) -> std::slice::IterMut<'_, V> {
        self.data.iter_mut()
    }

    /// `(key, value)` pairs in index order.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let v: EntityVec<Block, char> = EntityVec::from_vec(vec!['a', 'b']);
    /// let pairs: Vec<_> = v.iter().map(|(k, c)| (k.index(), *c)).collect();
    /// assert_eq!(pairs, [(0, 'a'), (1, 'b')]);
    /// ```
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (K, &V)> + ExactSizeIterator {
        self.data.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }

    /// The value at `k`, or `None` if `k` is out of range.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let v: EntityVec<Block, char> = EntityVec::from_vec(vec!['a']);
    /// assert_eq!(v.get(Block::new(0)), Some(&'a'));
    /// assert_eq!(v.get(Block::new(1)), None);
    /// ```
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

    /// Reserves room for `additional` more entries (see `Vec::reserve`).
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.data.reserve(additional);
    }

    /// Keeps the first `n` entries.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let mut v: EntityVec<Block, u8> = EntityVec::from_vec(vec![1, 2, 3]);
    /// v.truncate(1);
    /// assert_eq!(v.as_slice(), [1]);
    /// ```
    pub fn truncate(&mut self, n: usize) {
        self.data.truncate(n);
    }

    /// The underlying slice.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let v: EntityVec<Block, u8> = EntityVec::filled(2, 7);
    /// assert_eq!(v.as_slice(), &[7, 7]);
    /// ```
    pub fn as_slice(&self) -> &[V] {
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

    /// The underlying vector.
    ///
    /// ```
    /// use ssakit::entity::EntityVec;
    /// use ssakit::ir::Block;
    /// let v: EntityVec<Block, u8> = EntityVec::filled(2, 1);
    /// assert_eq!(v.into_vec(), vec![1, 1]);
    /// ```
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
    pub(crate) fn with_capacity(n: usize, default: V) -> Self {
        SecondaryMap {
            data: Vec::with_capacity(n),
            default,
            _key: PhantomData,
        }
    }

    /// Resets every entry to the default, keeping the memory.
    ///
    /// ```
    /// use ssakit::entity::SecondaryMap;
    /// use ssakit::ir::Var;
    /// let mut m: SecondaryMap<Var, u8> = SecondaryMap::new(0);
    /// m[Var::new(2)] = 4;
    /// m.clear();
    /// assert_eq!(m[Var::new(2)], 0);
    /// ```
    pub fn clear(&mut self) {
        self.data.clear();
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
            self.data.resize(k.index() + 1, self.default.clone());
        }
        &mut self.data[k.index()]
    }
}

impl<K: EntityRef, V: Clone + fmt::Debug> fmt::Debug for SecondaryMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.data.iter().enumerate().map(|(i, v)| (K::new(i), v)))
            .finish()
    }
}

/// An `Option<K>` in the four bytes of `K`: the reserved index `u32::MAX`
/// (which [`EntityRef::new`] never returns) stands for `None`.
///
/// ```
/// use ssakit::entity::PackedOption;
/// use ssakit::ir::Block;
/// let idom: PackedOption<Block> = Some(Block::new(1)).into();
/// assert_eq!(idom.expand(), Some(Block::new(1)));
/// assert_eq!(std::mem::size_of::<PackedOption<Block>>(), 4);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedOption<K: EntityRef> {
    raw: u32,
    _key: PhantomData<K>,
}

impl<K: EntityRef> PackedOption<K> {
    /// `None`.
    pub const NONE: Self = PackedOption {
        raw: u32::MAX,
        _key: PhantomData,
    };

    /// `Some(k)`.
    ///
    /// ```
    /// use ssakit::entity::PackedOption;
    /// use ssakit::ir::Block;
    /// assert!(!PackedOption::some(Block::new(0)).is_none());
    /// ```
    #[inline]
    pub fn some(k: K) -> Self {
        PackedOption {
            raw: k.index() as u32,
            _key: PhantomData,
        }
    }

    /// The option unpacked.
    ///
    /// ```
    /// use ssakit::entity::PackedOption;
    /// use ssakit::ir::Block;
    /// assert_eq!(PackedOption::some(Block::new(3)).expand(), Some(Block::new(3)));
    /// assert_eq!(PackedOption::<Block>::NONE.expand(), None);
    /// ```
    #[inline]
    pub fn expand(self) -> Option<K> {
        (self.raw != u32::MAX).then(|| K::new(self.raw as usize))
    }

    /// Whether this is `None`.
    ///
    /// ```
    /// use ssakit::entity::PackedOption;
    /// use ssakit::ir::Block;
    /// assert!(PackedOption::<Block>::default().is_none());
    /// ```
    #[inline]
    pub fn is_none(self) -> bool {
        self.raw == u32::MAX
    }
}

impl<K: EntityRef> Default for PackedOption<K> {
    fn default() -> Self {
        Self::NONE
    }
}

impl<K: EntityRef> From<Option<K>> for PackedOption<K> {
    fn from(o: Option<K>) -> Self {
        o.map_or(Self::NONE, Self::some)
    }
}

impl<K: EntityRef> fmt::Debug for PackedOption<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.expand().fmt(f)
    }
}

/// A list of items per key in compressed sparse row form: the items of key
/// `k` are `items[start[k] .. start[k + 1]]`.
///
/// Built from `(key, item)` pairs by one stable counting sort: items of one
/// key keep the order in which their pairs came. Building costs
/// `O(keys + pairs)` and two allocations, reading a list one slice.
///
/// ```
/// use ssakit::entity::Csr;
/// use ssakit::ir::Block;
/// let pairs = [(Block::new(2), 'a'), (Block::new(0), 'b'), (Block::new(2), 'c')];
/// let csr = Csr::from_pairs(3, pairs);
/// assert_eq!(csr.of(Block::new(2)), ['a', 'c']);
/// assert!(csr.of(Block::new(1)).is_empty());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Csr<K: EntityRef, V> {
    start: Vec<u32>,
    items: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V: Copy> Csr<K, V> {
    /// The lists of `num_keys` keys from `pairs` (keys below `num_keys`).
    ///
    /// ```
    /// use ssakit::entity::Csr;
    /// use ssakit::ir::Block;
    /// let csr = Csr::from_pairs(2, [(Block::new(1), 10), (Block::new(1), 11)]);
    /// assert_eq!(csr.of(Block::new(1)), [10, 11]);
    /// ```
    pub fn from_pairs(num_keys: usize, pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        let pairs: Vec<(K, V)> = pairs.into_iter().collect();
        let mut start = vec![0u32; num_keys + 1];
        for &(k, _) in &pairs {
            start[k.index() + 1] += 1;
        }
        for i in 0..num_keys {
            start[i + 1] += start[i];
        }
        let mut items = match pairs.first() {
            Some(&(_, v)) => vec![v; pairs.len()],
            None => Vec::new(),
        };
        let mut fill: Vec<u32> = start[..num_keys].to_vec();
        for &(k, v) in &pairs {
            let slot = &mut fill[k.index()];
            items[*slot as usize] = v;
            *slot += 1;
        }
        Csr {
            start,
            items,
            _key: PhantomData,
        }
    }

    /// The lists of `num_keys` keys from the pairs `gen` pushes into the
    /// sink it is given. `gen` is called twice (once to count, once to
    /// place) and must push the same pairs both times; no pair vector is
    /// materialised.
    pub(crate) fn build(num_keys: usize, mut gen: impl FnMut(&mut CsrSink<'_, K, V>)) -> Self {
        let mut start = vec![0u32; num_keys + 1];
        let mut items: Vec<V> = Vec::new();
        let mut sink = CsrSink {
            pos: &mut start[1..],
            items: None,
            placeholder: None,
            _key: PhantomData,
        };
        gen(&mut sink);
        // Any item fills the table before each slot gets its own.
        let placeholder = sink.placeholder;
        for i in 0..num_keys {
            start[i + 1] += start[i];
        }
        let total = start[num_keys] as usize;
        if let Some(v) = placeholder {
            items = vec![v; total];
        }
        let mut fill: Vec<u32> = start[..num_keys].to_vec();
        let mut sink = CsrSink {
            pos: &mut fill,
            items: Some(&mut items),
            placeholder: None,
            _key: PhantomData,
        };
        gen(&mut sink);
        for k in 0..num_keys {
            assert_eq!(
                fill[k],
                start[k + 1],
                "Csr::build: the generator pushed other pairs the second time"
            );
        }
        Csr {
            start,
            items,
            _key: PhantomData,
        }
    }

    /// The lists of `num_keys` keys from pairs that `gen` pushes in
    /// increasing key order (one pass, no counting). Panics if a key comes
    /// after a greater one.
    pub(crate) fn build_in_key_order(
        num_keys: usize,
        gen: impl FnOnce(&mut CsrAppender<K, V>),
    ) -> Self {
        let mut app = CsrAppender {
            start: Vec::with_capacity(num_keys + 1),
            items: Vec::new(),
            _key: PhantomData,
        };
        app.start.push(0);
        gen(&mut app);
        let CsrAppender {
            mut start, items, ..
        } = app;
        while start.len() <= num_keys {
            start.push(items.len() as u32);
        }
        Csr {
            start,
            items,
            _key: PhantomData,
        }
    }

    /// The items of key `k`.
    ///
    /// ```
    /// use ssakit::entity::Csr;
    /// use ssakit::ir::Block;
    /// let csr = Csr::from_pairs(2, [(Block::new(0), 'x')]);
    /// assert_eq!(csr.of(Block::new(0)), ['x']);
    /// ```
    #[inline]
    pub fn of(&self, k: K) -> &[V] {
        &self.items[self.start[k.index()] as usize..self.start[k.index() + 1] as usize]
    }

    /// The items of key `k`, mutably.
    #[inline]
    pub(crate) fn of_mut(&mut self, k: K) -> &mut [V] {
        let (a, b) = (
            self.start[k.index()] as usize,
            self.start[k.index() + 1] as usize,
        );
        &mut self.items[a..b]
    }

    /// Number of keys.
    pub(crate) fn num_keys(&self) -> usize {
        self.start.len() - 1
    }

    /// Number of items in all lists.
    pub(crate) fn num_items(&self) -> usize {
        self.items.len()
    }

    /// Every item, key by key.
    ///
    /// ```
    /// use ssakit::entity::Csr;
    /// use ssakit::ir::Block;
    /// let csr = Csr::from_pairs(2, [(Block::new(1), 'b'), (Block::new(0), 'a')]);
    /// assert_eq!(csr.items(), ['a', 'b']);
    /// ```
    pub fn items(&self) -> &[V] {
        &self.items
    }
}

/// Where [`Csr::build`]'s generator pushes its pairs: a counter in the
/// first pass, the table in the second.
pub(crate) struct CsrSink<'a, K, V> {
    /// First pass: the count of each key. Second pass: the next free slot
    /// of each key.
    pos: &'a mut [u32],
    /// The items (second pass only).
    items: Option<&'a mut Vec<V>>,
    placeholder: Option<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V: Copy> CsrSink<'_, K, V> {
    /// Adds `v` to the list of `k`.
    #[inline]
    pub(crate) fn push(&mut self, k: K, v: V) {
        let p = &mut self.pos[k.index()];
        match &mut self.items {
            None => {
                if self.placeholder.is_none() {
                    self.placeholder = Some(v);
                }
            }
            Some(items) => items[*p as usize] = v,
        }
        *p += 1;
    }
}

/// Where [`Csr::build_in_key_order`]'s generator pushes its pairs.
pub(crate) struct CsrAppender<K, V> {
    start: Vec<u32>,
    items: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> CsrAppender<K, V> {
    /// Adds `v` to the list of `k`, which is no smaller than the keys
    /// pushed before.
    #[inline]
    pub(crate) fn push(&mut self, k: K, v: V) {
        assert!(
            k.index() + 1 >= self.start.len(),
            "Csr::build_in_key_order: keys out of order"
        );
        while self.start.len() <= k.index() {
            self.start.push(self.items.len() as u32);
        }
        self.items.push(v);
    }
}

impl<K: EntityRef, V: fmt::Debug + Copy> fmt::Debug for Csr<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries((0..self.num_keys()).map(|i| (K::new(i), self.of(K::new(i)))))
            .finish()
    }
}

/// A list stored in a [`ListPool`]: where it starts, how long it is and
/// how much room it has (three `u32`s, `Copy`); the items live in the
/// pool, so a list is read and edited through the pool that holds it
/// (`list.as_slice(&pool)`, `list.push(x, &mut pool)`).
///
/// A handle copied is the same list, not a new one: an instruction that
/// owns a list must not share its handle with another instruction that
/// edits it (the IR never does; `ListPool::alloc` makes a fresh list).
///
/// ```
/// use ssakit::entity::{EntityList, ListPool};
/// let mut pool = ListPool::new();
/// let mut args: EntityList<u32> = pool.alloc(&[1, 2]);
/// args.push(3, &mut pool);
/// assert_eq!(args.as_slice(&pool), [1, 2, 3]);
/// ```
pub struct EntityList<T> {
    start: u32,
    len: u32,
    cap: u32,
    _item: PhantomData<T>,
}

impl<T> Clone for EntityList<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for EntityList<T> {}
impl<T> PartialEq for EntityList<T> {
    fn eq(&self, o: &Self) -> bool {
        (self.start, self.len, self.cap) == (o.start, o.len, o.cap)
    }
}
impl<T> Eq for EntityList<T> {}
impl<T> std::hash::Hash for EntityList<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.start, self.len, self.cap).hash(h)
    }
}
impl<T> Default for EntityList<T> {
    fn default() -> Self {
        EntityList {
            start: 0,
            len: 0,
            cap: 0,
            _item: PhantomData,
        }
    }
}
impl<T> fmt::Debug for EntityList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "list[{}; {}]", self.start, self.len)
    }
}

/// Where the items of lists of `T` are stored: a [`ListPool`], or an owner
/// of pools such as a [`Function`](crate::ir::Function), so that a list is
/// read as `list.as_slice(&func)`.
///
/// ```
/// use ssakit::entity::{EntityList, ListPool, ListStore};
/// fn total(list: EntityList<u32>, store: &impl ListStore<u32>) -> u32 {
///     list.as_slice(store).iter().sum()
/// }
/// let mut pool = ListPool::new();
/// let l = pool.alloc(&[4, 5]);
/// assert_eq!(total(l, &pool), 9);
/// ```
pub trait ListStore<T> {
    /// The pool of `T` items.
    ///
    /// ```
    /// use ssakit::entity::{ListPool, ListStore};
    /// let mut pool: ListPool<u8> = ListPool::new();
    /// pool.alloc(&[1]);
    /// assert_eq!(ListStore::pool(&pool).len(), 1);
    /// ```
    fn pool(&self) -> &ListPool<T>;
    /// The pool of `T` items, mutably.
    ///
    /// ```
    /// use ssakit::entity::{ListPool, ListStore};
    /// let mut pool: ListPool<u8> = ListPool::new();
    /// let l = ListStore::pool_mut(&mut pool).alloc(&[1]);
    /// assert_eq!(l.as_slice(&pool), [1]);
    /// ```
    fn pool_mut(&mut self) -> &mut ListPool<T>;
}

impl<T> ListStore<T> for ListPool<T> {
    #[inline]
    fn pool(&self) -> &ListPool<T> {
        self
    }
    #[inline]
    fn pool_mut(&mut self) -> &mut ListPool<T> {
        self
    }
}

impl<T: Copy> EntityList<T> {
    /// The empty list (no storage).
    ///
    /// ```
    /// use ssakit::entity::EntityList;
    /// let l: EntityList<u32> = EntityList::new();
    /// assert!(l.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of items.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// assert_eq!(pool.alloc(&[1u8, 2]).len(), 2);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the list is empty.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool: ListPool<u8> = ListPool::new();
    /// assert!(pool.alloc(&[]).is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The items.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let l = pool.alloc(&['a', 'b']);
    /// assert_eq!(l.as_slice(&pool), ['a', 'b']);
    /// ```
    #[inline]
    pub fn as_slice<'a>(&self, store: &'a impl ListStore<T>) -> &'a [T] {
        &store.pool().data[self.start as usize..(self.start + self.len) as usize]
    }

    /// The items, mutably (the length cannot change through the slice).
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let l = pool.alloc(&[1, 2]);
    /// l.as_mut_slice(&mut pool)[0] = 9;
    /// assert_eq!(l.as_slice(&pool), [9, 2]);
    /// ```
    #[inline]
    pub fn as_mut_slice<'a>(&self, store: &'a mut impl ListStore<T>) -> &'a mut [T] {
        &mut store.pool_mut().data[self.start as usize..(self.start + self.len) as usize]
    }

    /// Appends `x`, moving the list to the end of the pool with twice the
    /// room when it is full (amortised O(1)).
    ///
    /// ```
    /// use ssakit::entity::{EntityList, ListPool};
    /// let mut pool = ListPool::new();
    /// let mut l = EntityList::new();
    /// for i in 0..10 {
    ///     l.push(i, &mut pool);
    /// }
    /// assert_eq!(l.as_slice(&pool), (0..10).collect::<Vec<_>>());
    /// ```
    #[inline]
    pub fn push(&mut self, x: T, store: &mut impl ListStore<T>) {
        if self.len == self.cap {
            self.grow_to((self.cap * 2).max(4), x, store.pool_mut());
        }
        store.pool_mut().data[(self.start + self.len) as usize] = x;
        self.len += 1;
    }

    /// Gives the list room for `cap` items (`cap` > its room): in place
    /// when it is the last list of the pool, otherwise by moving it to the
    /// end (its old room becomes garbage). New room is filled with `fill`.
    #[cold]
    #[inline(never)]
    fn grow_to(&mut self, cap: u32, fill: T, pool: &mut ListPool<T>) {
        debug_assert!(cap > self.cap);
        if self.start + self.cap == pool.data.len() as u32 && self.cap > 0 {
            // Last in the pool: grow in place.
            pool.data.resize((self.start + cap) as usize, fill);
        } else {
            let start = pool.data.len() as u32;
            pool.data
                .extend_from_within(self.start as usize..(self.start + self.len) as usize);
            pool.data.resize((start + cap) as usize, fill);
            pool.garbage += self.cap as usize;
            self.start = start;
        }
        assert!(
            (self.start as usize + cap as usize) < u32::MAX as usize,
            "list pool too large"
        );
        self.cap = cap;
    }

    /// Makes room for `additional` more items without moving the list
    /// again while they are pushed (`fill` fills the new room).
    pub(crate) fn reserve(&mut self, additional: usize, fill: T, store: &mut impl ListStore<T>) {
        let want = self.len as usize + additional;
        if want > self.cap as usize {
            let want = u32::try_from(want).expect("list pool too large");
            self.grow_to(want, fill, store.pool_mut());
        }
    }

    /// Inserts `x` at position `i` (at most the length), shifting the
    /// items after it.
    pub(crate) fn insert(&mut self, i: usize, x: T, store: &mut impl ListStore<T>) {
        assert!(
            i <= self.len(),
            "insert at {i} past the length {}",
            self.len
        );
        self.push(x, store);
        let s = self.as_mut_slice(store);
        s.copy_within(i..s.len() - 1, i + 1);
        s[i] = x;
    }

    /// Replaces the items by `items`: in the list's own room when they
    /// fit, otherwise in new room at the end of the pool.
    pub(crate) fn assign(&mut self, items: &[T], store: &mut impl ListStore<T>) {
        let pool = store.pool_mut();
        if items.len() <= self.cap as usize {
            let start = self.start as usize;
            pool.data[start..start + items.len()].copy_from_slice(items);
            self.len = items.len() as u32;
        } else {
            pool.garbage += self.cap as usize;
            *self = pool.alloc(items);
        }
    }

    /// Empties the list, keeping its room for later pushes.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the items for which `keep` is true, in order.
    pub(crate) fn retain(
        &mut self,
        store: &mut impl ListStore<T>,
        mut keep: impl FnMut(&T) -> bool,
    ) {
        let s = self.as_mut_slice(store);
        let mut w = 0;
        for r in 0..s.len() {
            if keep(&s[r]) {
                s[w] = s[r];
                w += 1;
            }
        }
        self.len = w as u32;
    }

    /// Keeps the first `n` items.
    pub(crate) fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n as u32);
    }

    /// Removes the item at `i`, shifting the rest down.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let mut l = pool.alloc(&['a', 'b', 'c']);
    /// assert_eq!(l.remove(1, &mut pool), 'b');
    /// assert_eq!(l.as_slice(&pool), ['a', 'c']);
    /// ```
    pub fn remove(&mut self, i: usize, store: &mut impl ListStore<T>) -> T {
        let s = self.as_mut_slice(store);
        let x = s[i];
        s.copy_within(i + 1.., i);
        self.len -= 1;
        x
    }
}

/// The storage of many [`EntityList`]s of one item type: one vector, lists
/// one after the other.
///
/// Allocation appends; a list that outgrows its room moves to the end and
/// its old room becomes *garbage*, as does a freed list. Garbage is
/// reclaimed by `ListPool::compact`, which the owner (the
/// [`Function`](crate::ir::Function)) runs with every live handle.
///
/// ```
/// use ssakit::entity::ListPool;
/// let mut pool = ListPool::new();
/// let a = pool.alloc(&[1, 2]);
/// let b = pool.alloc(&[3]);
/// assert_eq!((a.as_slice(&pool), b.as_slice(&pool)), (&[1, 2][..], &[3][..]));
/// assert_eq!(pool.len(), 3);
/// ```
#[derive(Clone)]
pub struct ListPool<T> {
    data: Vec<T>,
    garbage: usize,
}

impl<T> Default for ListPool<T> {
    fn default() -> Self {
        ListPool {
            data: Vec::new(),
            garbage: 0,
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for ListPool<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ListPool({} items, {} garbage)",
            self.data.len(),
            self.garbage
        )
    }
}

impl<T: Copy> ListPool<T> {
    /// An empty pool.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let pool: ListPool<u32> = ListPool::new();
    /// assert!(pool.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// A new list holding `items`, with exactly that room.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let l = pool.alloc(&[7, 8]);
    /// assert_eq!(l.as_slice(&pool), [7, 8]);
    /// ```
    pub fn alloc(&mut self, items: &[T]) -> EntityList<T> {
        let start = self.data.len();
        self.data.extend_from_slice(items);
        Self::handle(start, items.len(), items.len())
    }

    /// A new list of the items of `iter`, with exactly that room.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let l = pool.alloc_iter((1..=3).map(|i| i * i));
    /// assert_eq!(l.as_slice(&pool), [1, 4, 9]);
    /// ```
    pub fn alloc_iter(&mut self, iter: impl IntoIterator<Item = T>) -> EntityList<T> {
        let start = self.data.len();
        self.data.extend(iter);
        let n = self.data.len() - start;
        Self::handle(start, n, n)
    }

    /// A new empty list with room for `cap` items before it moves; `fill`
    /// is a placeholder for the room (never read).
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let mut l = pool.alloc_room(4, 0);
    /// assert!(l.is_empty());
    /// l.push(5, &mut pool);
    /// assert_eq!((l.as_slice(&pool), pool.len()), (&[5][..], 4));
    /// ```
    pub fn alloc_room(&mut self, cap: usize, fill: T) -> EntityList<T> {
        let start = self.data.len();
        self.data.resize(start + cap, fill);
        Self::handle(start, 0, cap)
    }

    fn handle(start: usize, len: usize, cap: usize) -> EntityList<T> {
        assert!(start + cap < u32::MAX as usize, "list pool too large");
        EntityList {
            start: start as u32,
            len: len as u32,
            cap: cap as u32,
            _item: PhantomData,
        }
    }

    /// Gives `list`'s room back (as garbage) and empties the handle.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let mut l = pool.alloc(&[1, 2]);
    /// pool.free(&mut l);
    /// assert!(l.is_empty());
    /// assert_eq!(pool.garbage(), 2);
    /// ```
    pub fn free(&mut self, list: &mut EntityList<T>) {
        self.garbage += list.cap as usize;
        *list = EntityList::default();
    }

    /// Items stored, garbage included.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let mut l = pool.alloc(&[1, 2]);
    /// pool.free(&mut l);
    /// assert_eq!(pool.len(), 2); // garbage still stored
    /// ```
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether nothing is stored.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// assert!(pool.is_empty());
    /// pool.alloc(&[1]);
    /// assert!(!pool.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Items no live list holds (moved or freed room).
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let mut a = pool.alloc(&[1, 2]);
    /// let _b = pool.alloc(&[3]);
    /// a.push(4, &mut pool); // full and not last: moves, leaving its room behind
    /// assert_eq!(pool.garbage(), 2);
    /// ```
    pub fn garbage(&self) -> usize {
        self.garbage
    }

    /// Reserves room for `n` more items.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool: ListPool<u8> = ListPool::new();
    /// pool.reserve(64);
    /// assert_eq!(pool.len(), 0);
    /// ```
    pub fn reserve(&mut self, n: usize) {
        self.data.reserve(n);
    }

    /// Copies every live list, in the order given, into a fresh vector with
    /// no room to spare and no garbage, updating the handles. `lists` must
    /// yield every live list of the pool exactly once: a list not given is
    /// lost, and its handle dangles.
    ///
    /// ```
    /// use ssakit::entity::ListPool;
    /// let mut pool = ListPool::new();
    /// let mut a = pool.alloc(&[1, 2]);
    /// let mut b = pool.alloc(&[3]);
    /// a.push(4, &mut pool);
    /// pool.compact([&mut a, &mut b].into_iter());
    /// assert_eq!((pool.garbage(), pool.len()), (0, 4));
    /// assert_eq!((a.as_slice(&pool), b.as_slice(&pool)), (&[1, 2, 4][..], &[3][..]));
    /// ```
    pub fn compact<'a>(&mut self, lists: impl Iterator<Item = &'a mut EntityList<T>>)
    where
        T: 'a,
    {
        let mut data = Vec::with_capacity(self.data.len() - self.garbage.min(self.data.len()));
        for l in lists {
            let start = data.len();
            data.extend_from_slice(l.as_slice(self));
            *l = Self::handle(start, l.len(), l.len());
        }
        self.data = data;
        self.garbage = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, Var};

    #[test]
    fn secondary_map_reads_default_and_grows_on_write() {
        let mut m: SecondaryMap<Var, u8> = SecondaryMap::new(7);
        assert_eq!(m[Var::new(1000)], 7);
        m[Var::new(3)] = 1;
        assert_eq!((m[Var::new(2)], m[Var::new(3)], m[Var::new(4)]), (7, 1, 7));
    }

    #[test]
    fn packed_option_round_trips() {
        let p: PackedOption<Block> = Some(Block::new(5)).into();
        assert_eq!(p.expand(), Some(Block::new(5)));
        assert_eq!(PackedOption::<Block>::NONE.expand(), None);
        assert_eq!(std::mem::size_of::<PackedOption<Block>>(), 4);
    }

    #[test]
    fn csr_is_a_stable_counting_sort() {
        let pairs: Vec<(Block, u32)> = (0..50).map(|i| (Block::new(i * 7 % 5), i as u32)).collect();
        let csr = Csr::from_pairs(6, pairs.iter().copied());
        for k in 0..6 {
            let want: Vec<u32> = pairs
                .iter()
                .filter(|p| p.0.index() == k)
                .map(|p| p.1)
                .collect();
            assert_eq!(csr.of(Block::new(k)), want);
        }
        assert_eq!(csr.num_items(), 50);
    }

    #[test]
    fn csr_in_key_order_equals_the_counting_sort() {
        let pairs: Vec<(Block, u32)> = (0..40).map(|i| (Block::new(i / 7 * 2), i as u32)).collect();
        let a = Csr::from_pairs(13, pairs.iter().copied());
        let b = Csr::build_in_key_order(13, |out| {
            for &(k, v) in &pairs {
                out.push(k, v)
            }
        });
        assert!(a == b);
    }

    #[test]
    #[should_panic(expected = "keys out of order")]
    fn csr_in_key_order_refuses_a_smaller_key() {
        Csr::build_in_key_order(4, |out| {
            out.push(Block::new(2), 0);
            out.push(Block::new(1), 0);
        });
    }

    #[test]
    fn lists_grow_move_and_compact() {
        let mut pool: ListPool<u32> = ListPool::new();
        let mut a = pool.alloc(&[1, 2]);
        let mut b = pool.alloc(&[10]);
        a.push(3, &mut pool); // moves a to the end
        b.push(11, &mut pool); // moves b
        for k in 0..20 {
            a.push(100 + k, &mut pool);
        }
        assert_eq!(&a.as_slice(&pool)[..4], [1, 2, 3, 100]);
        assert_eq!(a.len(), 23);
        assert_eq!(b.as_slice(&pool), [10, 11]);
        assert!(pool.garbage() > 0);
        a.retain(&mut pool, |&x| x % 2 == 1);
        assert_eq!(&a.as_slice(&pool)[..3], [1, 3, 101]);
        pool.compact([&mut b, &mut a].into_iter());
        assert_eq!(pool.garbage(), 0);
        assert_eq!(pool.len(), 2 + a.len());
        assert_eq!(b.as_slice(&pool), [10, 11]);
        assert_eq!(a.as_slice(&pool)[0], 1);
        assert_eq!(a.remove(0, &mut pool), 1);
        assert_eq!(a.as_slice(&pool)[0], 3);
    }
}
