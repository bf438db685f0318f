//! Name tables: a name to the entity it names (a variable, a block),
//! found by a hash computed once. The parser's tables take the hash the
//! lexer computed while it scanned the name ([`hash_step`], byte by
//! byte), so that no name read is hashed twice; [`crate::ir::VarNames`]
//! hashes each candidate name once with [`hash_name`].
//!
//! Open addressing with linear probing over slots of (hash, entity); the
//! table holds no strings: a candidate is confirmed by comparing the name
//! with the entity's own (the caller's `same` closure, which looks it up in
//! the function). It doubles at half load, so a probe sequence is short
//! and growing rehashes from the stored hashes alone.

use crate::entity::EntityRef;
use std::marker::PhantomData;

/// One step of the hash of a name's bytes (FxHash's mix, on 32 bits).
#[inline]
pub(crate) fn hash_step(h: u32, b: u8) -> u32 {
    (h.rotate_left(5) ^ b as u32).wrapping_mul(0x9e37_79b9)
}

/// The hash of name `s`: [`hash_step`] over its bytes, as the lexer
/// computes it while scanning.
#[inline]
pub(crate) fn hash_name(s: &str) -> u32 {
    s.bytes().fold(0, hash_step)
}

/// An empty slot's entity: no entity has this index in a table that fits
/// in memory.
const EMPTY: u32 = u32::MAX;

/// Names to entities `K`, keyed by precomputed hashes.
pub(crate) struct NameTable<K> {
    /// (hash, entity index), or `(_, EMPTY)`; the length is a power of two.
    slots: Vec<(u32, u32)>,
    len: usize,
    _k: PhantomData<K>,
}

impl<K: EntityRef> NameTable<K> {
    pub(crate) fn new() -> Self {
        Self::with_capacity(8)
    }

    /// A table that holds `n` names before it grows.
    pub(crate) fn with_capacity(n: usize) -> Self {
        NameTable {
            slots: vec![(0, EMPTY); (2 * n).next_power_of_two().max(16)],
            len: 0,
            _k: PhantomData,
        }
    }

    /// The entity whose name has hash `hash` and for which `same` holds.
    #[inline]
    pub(crate) fn find(&self, hash: u32, mut same: impl FnMut(K) -> bool) -> Option<K> {
        probe(self.slots.len(), hash, |at| match self.slots[at] {
            (_, EMPTY) => Some(None),
            (h, k) if h == hash && same(K::new(k as usize)) => Some(Some(K::new(k as usize))),
            _ => None,
        })
    }

    /// Adds `k`, whose name hashes to `hash` and is in no entry yet.
    #[inline]
    pub(crate) fn insert(&mut self, hash: u32, k: K) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        debug_assert!(k.index() < EMPTY as usize);
        place(&mut self.slots, hash, k.index() as u32);
        self.len += 1;
    }

    fn grow(&mut self) {
        let bigger = vec![(0, EMPTY); 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, bigger);
        for (h, k) in old {
            if k != EMPTY {
                place(&mut self.slots, h, k);
            }
        }
    }
}

/// Names to entities `K` in four bytes a slot, half the room of
/// [`NameTable`]: no hash is stored, so a probe confirms each entity met by
/// comparing names (`same`), and growing asks the caller for the entries'
/// hashes (`hash_of`). For a table built once and read little, where
/// memory matters more than probes: the printer's table of names taken
/// holds every variable of a function.
pub(crate) struct NameSet<K> {
    /// Entity indices, or `EMPTY`; the length is a power of two.
    slots: Vec<u32>,
    len: usize,
    _k: PhantomData<K>,
}

impl<K: EntityRef> NameSet<K> {
    /// A table that holds `n` names before it grows.
    pub(crate) fn with_capacity(n: usize) -> Self {
        NameSet {
            slots: vec![EMPTY; (2 * n).next_power_of_two().max(16)],
            len: 0,
            _k: PhantomData,
        }
    }

    /// The entity whose name has hash `hash` and for which `same` holds.
    #[inline]
    pub(crate) fn find(&self, hash: u32, mut same: impl FnMut(K) -> bool) -> Option<K> {
        probe(self.slots.len(), hash, |at| match self.slots[at] {
            EMPTY => Some(None),
            k if same(K::new(k as usize)) => Some(Some(K::new(k as usize))),
            _ => None,
        })
    }

    /// Makes room for `n` more names at once (`hash_of` gives the hash of
    /// an entry's name).
    pub(crate) fn reserve(&mut self, n: usize, hash_of: impl Fn(K) -> u32) {
        let need = 2 * (self.len + n);
        if need > self.slots.len() {
            let old = std::mem::replace(&mut self.slots, vec![EMPTY; need.next_power_of_two()]);
            for k in old.into_iter().filter(|&k| k != EMPTY) {
                let hash = hash_of(K::new(k as usize));
                let at = probe(self.slots.len(), hash, |at| {
                    (self.slots[at] == EMPTY).then_some(at)
                });
                self.slots[at] = k;
            }
        }
    }

    /// Adds `k`, whose name hashes to `hash` and is in no entry yet
    /// (`hash_of` as for [`NameSet::reserve`], if the table grows).
    #[inline]
    pub(crate) fn insert(&mut self, hash: u32, k: K, hash_of: impl Fn(K) -> u32) {
        self.reserve(1, hash_of);
        debug_assert!(k.index() < EMPTY as usize);
        let at = probe(self.slots.len(), hash, |at| {
            (self.slots[at] == EMPTY).then_some(at)
        });
        self.slots[at] = k.index() as u32;
        self.len += 1;
    }
}

/// Linear probing: visits the slots of a table of `len` slots (a power
/// of two) from the one `hash` probes first (its high bits folded in,
/// since the mask keeps only the low ones) until `visit` answers.
#[inline]
fn probe<T>(len: usize, hash: u32, mut visit: impl FnMut(usize) -> Option<T>) -> T {
    let mask = len - 1;
    let mut at = (hash ^ hash >> 16) as usize & mask;
    loop {
        if let Some(t) = visit(at) {
            return t;
        }
        at = (at + 1) & mask;
    }
}

fn place(slots: &mut [(u32, u32)], hash: u32, k: u32) {
    let at = probe(slots.len(), hash, |at| (slots[at].1 == EMPTY).then_some(at));
    slots[at] = (hash, k);
}

#[cfg(test)]
mod tests {
    use super::{hash_name as name_hash, NameSet, NameTable};
    use crate::ir::Var;

    /// Against a brute-force search over the names, with colliding hashes
    /// forced by a hash that keeps 3 bits: [`NameTable`], and [`NameSet`]
    /// from a capacity of one so that it grows (rehashing through
    /// `hash_of`) many times.
    #[test]
    fn finds_exactly_the_names_inserted() {
        for (bits, set) in [(3u32, false), (32, false), (3, true), (32, true)] {
            let mask = if bits == 32 {
                u32::MAX
            } else {
                (1 << bits) - 1
            };
            let h = |s: &str| name_hash(s) & mask;
            let mut table = NameTable::<Var>::new();
            let mut name_set = NameSet::<Var>::with_capacity(1);
            let mut names: Vec<String> = Vec::new();
            for i in 0..5000 {
                let s = format!("v{}", (i * 7919) % 3000);
                let same = |v: Var| names[v.index()] == s;
                let found = match set {
                    false => table.find(h(&s), same),
                    true => name_set.find(h(&s), same),
                };
                let brute = names.iter().position(|n| *n == s).map(Var::new);
                assert_eq!(found, brute, "{s}");
                if found.is_none() {
                    let k = Var::new(names.len());
                    names.push(s.clone());
                    match set {
                        false => table.insert(h(&s), k),
                        true => name_set.insert(h(&s), k, |v: Var| h(&names[v.index()])),
                    }
                }
            }
            assert_eq!(names.len(), 3000);
        }
    }
}
