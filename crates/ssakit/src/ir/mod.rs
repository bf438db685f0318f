//! The intermediate representation: functions of basic blocks holding
//! three-address instructions and generic operations over typed variables.
//!
//! The design follows Cranelift: every object is a dense `u32` index into a
//! table owned by its [`Function`] (see [`crate::entity`]), and everything an
//! analysis computes lives in side tables, never in the IR itself.
//!
//! The rules, in brief (each is documented where it is kept):
//!
//! * A [`Function`] owns its variables, blocks, instructions and the pools of
//!   their lists; its fields are private and every edit is a method that
//!   keeps the invariants of [`function`](self::Function). An instruction
//!   ([`InstData`]) and a terminator are small `Copy` values whose lists
//!   live in the pools ([`EntityList`](crate::entity::EntityList)).
//! * The [layout](Function::layout) lists blocks in program order; the first
//!   is the entry. A block has its phis, then its ordinary instructions, then
//!   exactly one [`Terminator`].
//! * Deleting an instruction unlists it from its block; [`Function::compact`]
//!   renumbers the instructions without the deleted ones. A pass that adds
//!   instructions or blocks returns what it added.
//! * A variable has a [`Type`] and a name; SSA construction creates
//!   *versions* that remember the variable they came from and their number:
//!   `x` gives `x1`, `x2`, ... ([`VarNames`]).
//! * Operators of generic operations and callees are interned once per
//!   module ([`Symbols`]); an operation carries its operator's [`Effects`].
//! * A program point is one `Point`: the entry of a block, before or
//!   after one of its instructions, or its exit.
//! * The control-flow graph is not stored: [`Cfg::new`] computes it.

mod builder;
mod cfg;
mod effects;
mod function;
mod inst;
mod names;
mod opcode;
mod point;
mod symbols;
mod types;

pub use builder::FunctionBuilder;
pub use cfg::Cfg;
pub use effects::Effects;
#[cfg(test)]
pub(crate) use function::VarData;
pub use function::{Function, Module};
pub use inst::{BinOp, InstData, Operand, PhiArg, Terminator, UnOp};
pub(crate) use names::PushName;
pub use names::{is_reserved, PrintNames, VarNames, RESERVED};
pub(crate) use opcode::Kind as OpKind;
pub use opcode::{Access, OpTrap, Opcode, Slot};
pub(crate) use point::{Dominance, Point};
pub use symbols::{Callee, EffectsConflict, Operator, OperatorData, SharedSymbols, Symbols};
pub use types::Type;

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Instructions, terminators and variables stay small: their lists live
    /// in the function's pools, and a variable's record is 8 bytes (a
    /// version's: its origin, number and type).
    #[test]
    fn ir_records_are_small() {
        use std::mem::size_of;
        assert!(size_of::<InstData>() <= 48, "{}", size_of::<InstData>());
        assert!(size_of::<Terminator>() <= 40, "{}", size_of::<Terminator>());
        assert_eq!(size_of::<VarData>(), 8);
    }

    /// Every type, name, origin and number comes back out of the packed
    /// `VarData`, the largest numbers and the last origin included.
    #[test]
    fn var_data_round_trips() {
        let mut f = Function::new("f");
        for ty in Type::ALL {
            let x = f.new_var("x", ty);
            for number in [0, 1, u32::MAX >> 1, u32::MAX] {
                let v = f.new_version(x, number);
                let d = *f.var(v);
                assert_eq!((d.ty(), d.origin(), d.version()), (ty, Some(x), number));
                assert_eq!((f.base_name(v), f.original(v)), ("x", x));
            }
            assert_eq!((f.var_type(x), f.var(x).origin()), (ty, None));
            f.set_var_type(x, Type::Bool);
            assert_eq!((f.var_type(x), f.base_name(x)), (Type::Bool, "x"));
        }
        assert_eq!(size_of::<PhiArg>(), 24);
    }
}
