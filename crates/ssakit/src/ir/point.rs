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
///
/// ```
/// use ssakit::analysis::DomTree;
/// use ssakit::ir::{Cfg, Point};
/// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
/// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
/// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
/// # let x = f.var_by_name("x").unwrap();
/// let dt = DomTree::new(&Cfg::new(&f));
/// // `x = 1` (instruction 0 of e) is defined after it and dominates j's entry.
/// assert!(Point::after(e, 0).dominates(Point::entry(j), &dt));
/// assert!(!Point::after(a, 0).dominates(Point::entry(j), &dt));
/// ```
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
    ///
    /// ```
    /// use ssakit::ir::{Block, Point};
    /// let b = Block::new(0);
    /// assert!(Point::entry(b).is_entry());
    /// assert!(Point::entry(b) < Point::before(b, 0));
    /// ```
    #[inline]
    pub fn entry(b: Block) -> Point {
        Point { block: b, slot: 0 }
    }

    /// Just before instruction `k` of `b` (`k` = the number of ordinary
    /// instructions: its terminator), where it reads its operands.
    #[inline]
    pub fn before(b: Block, k: usize) -> Point {
        Point {
            block: b,
            slot: 2 * k as u32 + 1,
        }
    }

    /// Just after instruction `k` of `b`, where its results are defined.
    ///
    /// ```
    /// use ssakit::ir::{Block, Point};
    /// let b = Block::new(3);
    /// assert_eq!(Point::after(b, 2).block(), b);
    /// assert!(Point::after(b, 2) < Point::exit(b));
    /// ```
    #[inline]
    pub fn after(b: Block, k: usize) -> Point {
        Point {
            block: b,
            slot: 2 * k as u32 + 2,
        }
    }

    /// The exit of `b`, after its terminator: where the phis of its
    /// successors read their operands.
    ///
    /// ```
    /// use ssakit::ir::{Block, Point};
    /// let b = Block::new(0);
    /// assert!(Point::before(b, 1000) < Point::exit(b));
    /// ```
    #[inline]
    pub fn exit(b: Block) -> Point {
        Point {
            block: b,
            slot: u32::MAX,
        }
    }

    /// The block of the point.
    #[inline]
    pub fn block(self) -> Block {
        self.block
    }

    /// Whether this point is the entry of its block.
    #[inline]
    pub fn is_entry(self) -> bool {
        self.slot == 0
    }

    /// Whether a definition at `self` dominates a use at `other`: `self`
    /// comes first in one block, or its block strictly dominates.
    ///
    /// ```
    /// use ssakit::analysis::DomTree;
    /// use ssakit::ir::{Cfg, Point};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let dt = DomTree::new(&Cfg::new(&f));
    /// assert!(Point::after(a, 0).dominates(Point::exit(a), &dt)); // same block, earlier
    /// assert!(!Point::exit(a).dominates(Point::after(a, 0), &dt));
    /// assert!(Point::entry(e).dominates(Point::before(j, 0), &dt)); // e strictly dominates j
    /// ```
    #[inline]
    pub fn dominates(self, other: Point, dom: &impl Dominance) -> bool {
        if self.block == other.block {
            self.slot < other.slot
        } else {
            dom.strictly_dominates(self.block, other.block)
        }
    }
}

/// Dominance between blocks, as the dominator tree answers it.
///
/// ```
/// use ssakit::ir::{Block, Dominance, Point};
/// // Blocks in a chain 0 → 1 → 2: a block strictly dominates the later ones.
/// struct Chain;
/// impl Dominance for Chain {
///     fn strictly_dominates(&self, a: Block, b: Block) -> bool {
///         a < b
///     }
/// }
/// assert!(Point::exit(Block::new(0)).dominates(Point::entry(Block::new(2)), &Chain));
/// ```
pub trait Dominance {
    /// Whether `a` strictly dominates `b`.
    ///
    /// ```
    /// use ssakit::analysis::DomTree;
    /// use ssakit::ir::{Cfg, Dominance};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let dt = DomTree::new(&Cfg::new(&f));
    /// assert!(dt.strictly_dominates(e, j));
    /// assert!(!dt.strictly_dominates(a, j) && !dt.strictly_dominates(j, j));
    /// ```
    fn strictly_dominates(&self, a: Block, b: Block) -> bool;
}
