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

mod csr;
mod list;
mod map;
mod packed;
mod vec;
pub use csr::Csr;
pub use list::{EntityList, ListPool, ListStore};
pub use map::SecondaryMap;
pub use packed::PackedOption;
pub use vec::EntityVec;

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
/// inherent methods, with `as_u32`, and `from_u32` inside the crate) convert. The examples it
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
            /// The entity with index `i` (for the crate's tables of `u32`;
            /// not every key reads one).
            #[inline]
            #[allow(dead_code)]
            pub(crate) fn from_u32(i: u32) -> Self {
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
