//! Typed keys for the emitter's own indices: a position in the
//! structured items ([`super::ctl::Item`]), a local ([`super::locals`]).
//! Each is a `u32` newtype with [`EntityRef`](ssakit::entity::EntityRef),
//! so that the emitter's side tables are the core's
//! [`SecondaryMap`](ssakit::entity::SecondaryMap) and
//! [`EntityVec`](ssakit::entity::EntityVec) keyed by what they index, and
//! an entry that may be absent is a
//! [`PackedOption`](ssakit::entity::PackedOption), not a `u32::MAX` of
//! its own (Cranelift's `entity` crate, waffle's `PerEntity`). Declared
//! here rather than with the core's `entity_ref!`, whose documentation
//! names `ssakit::ir`.

/// Declares `$name`, a private `u32` key with [`EntityRef`](ssakit::entity::EntityRef).
macro_rules! key {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub(crate) struct $name(u32);

        impl ssakit::entity::EntityRef for $name {
            #[inline]
            fn new(i: usize) -> Self {
                debug_assert!(i < u32::MAX as usize, "key out of range");
                $name(i as u32)
            }

            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

pub(crate) use key;
