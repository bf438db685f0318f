//! The structured code: a function's control flow as a flat list of
//! [`Ctl`] items in emission order, what Ramsey's translation
//! (`emit/structure.rs`) makes, the peephole rules (`emit/tidy.rs`)
//! shrink, and every later step (stack values, locals, `if` results,
//! the emitter) reads. Its own module, so that the translation and the
//! rules both depend on it and not on each other.

use super::key::key;
use ssakit::ir::Block;

key!(
    /// A position in [`Structured::items`].
    Item
);

/// One item of the structured code, in emission order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctl {
    /// The instructions of a block (not its terminator).
    Body(Block),
    /// `block` (empty type).
    Block,
    /// `loop` (empty type).
    Loop,
    /// The condition of `Block`'s `branch`, then `if` (empty type).
    If(Block),
    /// The condition of `Block`'s `branch` negated, then `if` (empty
    /// type): the arm runs when the branch goes to its else-target
    /// (`emit/tidy.rs`, rule 5).
    IfNot(Block),
    /// `else`.
    Else,
    /// `end`.
    End,
    /// `br depth`.
    Br(u32),
    /// The condition of the block's `branch` (negated when `negate`),
    /// then `br_if depth`: one arm of the branch was a `br`
    /// (`emit/tidy.rs`).
    BrIf {
        /// The block ending in the branch.
        block: Block,
        /// Branch when the condition is false.
        negate: bool,
        /// The depth of the target.
        depth: u32,
    },
    /// The selector of the block's `switch`, then `br_table` whose
    /// depths are `depths[start..start + len]`, then the default depth.
    BrTable {
        /// The block ending in the switch.
        block: Block,
        /// Where its depths start in [`Structured::depths`].
        start: u32,
        /// Number of targets.
        len: u32,
        /// Depth of the default target.
        default: u32,
    },
    /// The block's `ret` values, then `return`.
    Ret(Block),
    /// `unreachable`.
    Unreachable,
}

/// The structured form of a function.
#[derive(Clone, Debug, Default)]
pub(crate) struct Structured {
    /// Items in emission order.
    pub(crate) items: Vec<Ctl>,
    /// Depths of every `br_table`.
    pub(crate) depths: Vec<u32>,
}
