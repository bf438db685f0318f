//! `EntityList` and `ListPool`: small lists stored in a shared pool.

use super::*;

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
/// use ssakit::ir::{InstData, Operand};
/// let m = ssakit::text::parse_module("function f(a) {\nentry:\n    print a, 1\n    ret\n}\n").unwrap();
/// let f = &m.functions[0];
/// // An instruction's operand list lives in its function's pool.
/// let InstData::Print { args } = f.inst(f.block_insts(f.entry())[0]) else { unreachable!() };
/// let a = f.var_by_name("a").unwrap();
/// assert_eq!(args.as_slice(f), [Operand::Var(a), Operand::Const(1)]);
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
pub trait ListStore<T> {
    /// The pool of `T` items.
    fn pool(&self) -> &ListPool<T>;
    /// The pool of `T` items, mutably.
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
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Number of items.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the list is empty.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The items.
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// let m = ssakit::text::parse_module("function f(a) {\nentry:\n    print a, 1\n    ret\n}\n").unwrap();
    /// let f = &m.functions[0];
    /// // An instruction's operand list lives in its function's pool.
    /// let InstData::Print { args } = f.inst(f.block_insts(f.entry())[0]) else { unreachable!() };
    /// let a = f.var_by_name("a").unwrap();
    /// assert_eq!(args.as_slice(f), [Operand::Var(a), Operand::Const(1)]);
    /// ```
    #[inline]
    pub fn as_slice<'a>(&self, store: &'a impl ListStore<T>) -> &'a [T] {
        &store.pool().data[self.start as usize..(self.start + self.len) as usize]
    }

    /// The items, mutably (the length cannot change through the slice).
    #[inline]
    pub fn as_mut_slice<'a>(&self, store: &'a mut impl ListStore<T>) -> &'a mut [T] {
        &mut store.pool_mut().data[self.start as usize..(self.start + self.len) as usize]
    }

    /// Appends `x`, moving the list to the end of the pool with twice the
    /// room when it is full (amortised O(1)).
    #[inline]
    pub(crate) fn push(&mut self, x: T, store: &mut impl ListStore<T>) {
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
    #[cfg(test)]
    pub(crate) fn remove(&mut self, i: usize, store: &mut impl ListStore<T>) -> T {
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
    #[cfg(test)]
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// A new list holding `items`, with exactly that room.
    pub(crate) fn alloc(&mut self, items: &[T]) -> EntityList<T> {
        let start = self.data.len();
        self.data.extend_from_slice(items);
        Self::handle(start, items.len(), items.len())
    }

    /// A new list of the items of `iter`, with exactly that room.
    #[cfg(test)]
    pub(crate) fn alloc_iter(&mut self, iter: impl IntoIterator<Item = T>) -> EntityList<T> {
        let start = self.data.len();
        self.data.extend(iter);
        let n = self.data.len() - start;
        Self::handle(start, n, n)
    }

    /// A new empty list with room for `cap` items before it moves; `fill`
    /// is a placeholder for the room (never read).
    pub(crate) fn alloc_room(&mut self, cap: usize, fill: T) -> EntityList<T> {
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
    pub(crate) fn free(&mut self, list: &mut EntityList<T>) {
        self.garbage += list.cap as usize;
        *list = EntityList::default();
    }

    /// Items stored, garbage included.
    pub(crate) fn len(&self) -> usize {
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
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Items no live list holds (moved or freed room).
    pub(crate) fn garbage(&self) -> usize {
        self.garbage
    }

    /// Reserves room for exactly `n` more items (a count known once).
    pub(crate) fn reserve_exact(&mut self, n: usize) {
        self.data.reserve_exact(n);
    }

    /// Copies every live list, in the order given, into a fresh vector with
    /// no room to spare and no garbage, updating the handles. `lists` must
    /// yield every live list of the pool exactly once: a list not given is
    /// lost, and its handle dangles.
    pub(crate) fn compact<'a>(&mut self, lists: impl Iterator<Item = &'a mut EntityList<T>>)
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
