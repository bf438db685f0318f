//! Program points: where a definition or a use is, with one dominance test
//! for all (Cranelift's `ProgramPoint`, regalloc2's `ProgPoint`).
//!
//! In a block with ordinary instructions `0 .. n` (the terminator is
//! number `n`), the points are, in execution order:
//!
//! ```text
//!   entry            parameters (of the entry block) and phis are defined
//!   before(0)        instruction 0 reads its operands
//!   after(0)         instruction 0 has defined its results
//!   ...
//!   before(n)        the terminator reads its operand
//!   exit             the phis of successors read their operands (the
//!                    chapter's convention, section 13.3: a phi operand is
//!                    used at the end of the corresponding predecessor)
//! ```
//!
//! A definition at point `d` dominates a use at point `u` when both are in
//! one block and `d` comes first, or `d`'s block strictly dominates `u`'s.

use super::Block;

/// A point of a block (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point {
    block: Block,
    /// 0 at entry, `2k + 1` before instruction `k`, `2k + 2` after it,
    /// `u32::MAX` at exit.
    slot: u32,
}

impl Point {
    /// The entry of `b`: where its phis (and, in the entry block, the
    /// parameters) are defined.
    #[inline]
    pub(crate) fn entry(b: Block) -> Point {
        Point { block: b, slot: 0 }
    }

    /// Just before instruction `k` of `b` (`k` = the number of ordinary
    /// instructions: its terminator), where it reads its operands.
    #[inline]
    pub(crate) fn before(b: Block, k: usize) -> Point {
        Point {
            block: b,
            slot: 2 * k as u32 + 1,
        }
    }

    /// Just after instruction `k` of `b`, where its results are defined.
    #[inline]
    pub(crate) fn after(b: Block, k: usize) -> Point {
        Point {
            block: b,
            slot: 2 * k as u32 + 2,
        }
    }

    /// The exit of `b`, after its terminator: where the phis of its
    /// successors read their operands.
    #[inline]
    pub(crate) fn exit(b: Block) -> Point {
        Point {
            block: b,
            slot: u32::MAX,
        }
    }

    /// The block of the point.
    #[inline]
    pub(crate) fn block(self) -> Block {
        self.block
    }

    /// Whether this point is the entry of its block.
    #[inline]
    pub(crate) fn is_entry(self) -> bool {
        self.slot == 0
    }

    /// Whether a definition at `self` dominates a use at `other`: `self`
    /// comes first in one block, or its block strictly dominates.
    #[inline]
    pub(crate) fn dominates(self, other: Point, dom: &impl Dominance) -> bool {
        if self.block == other.block {
            self.slot < other.slot
        } else {
            dom.strictly_dominates(self.block, other.block)
        }
    }
}

/// Dominance between blocks, as the dominator tree answers it.
pub trait Dominance {
    /// Whether `a` strictly dominates `b`.
    fn strictly_dominates(&self, a: Block, b: Block) -> bool;
}
