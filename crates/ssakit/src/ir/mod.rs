//! The intermediate representation: functions of basic blocks holding
//! three-address instructions over integer variables.
//!
//! The design follows Cranelift: every object is a dense `u32` index into a
//! vector owned by its [`Function`] (see [`crate::entity`]), and everything an
//! analysis computes lives in side tables, never in the IR itself.
//!
//! * A [`Function`] owns its variables, blocks and instructions. Its
//!   [`layout`](Function::layout) lists blocks in program order; the first is
//!   the entry.
//! * A block ([`BlockData`]) has its phis, then its ordinary instructions, then
//!   exactly one [`Terminator`].
//! * A variable ([`VarData`]) has a name. SSA construction creates new
//!   variables, *versions*, that remember the variable they came from
//!   ([`VarData::origin`]) and their version number: `x` gives `x1`, `x2`, ...
//! * The control-flow graph is not stored: [`Cfg::new`] computes it.

mod builder;
mod cfg;
mod function;
mod inst;
mod names;

pub use builder::FunctionBuilder;
pub use cfg::Cfg;
pub use function::{BlockData, Function, Module, VarData};
pub use inst::{BinOp, InstData, Operand, PhiArg, Terminator, UnOp};
pub use names::VarNames;

crate::entity_ref!(
    /// A basic block.
    Block,
    "block"
);
crate::entity_ref!(
    /// An instruction (phis and parallel copies included; terminators are
    /// stored in their block).
    Inst,
    "inst"
);
crate::entity_ref!(
    /// A variable: an original program variable or an SSA version of one.
    Var,
    "v"
);
