//! `PackedOption`: an optional key in the space of the key.

use super::*;

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
    #[inline]
    pub(crate) fn is_none(self) -> bool {
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
