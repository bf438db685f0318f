//! `Csr`: per-entity lists built by counting sort, in one vector.

use super::*;

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
    /// place) and must push the same pairs both times (debug builds check
    /// it); no pair vector is materialised.
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
            debug_assert_eq!(
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
    /// Room for `n` more items (when the generator knows about how many it
    /// will push, the items grow once instead of by doubling).
    pub(crate) fn reserve(&mut self, n: usize) {
        self.items.reserve(n);
    }

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
