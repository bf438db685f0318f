//! Definition sites and use lists of every variable, the *def-use chains* of
//! SSA (Cytron et al. 1991, section 1: in SSA each use is reached by exactly
//! one definition, so a use list per variable is the whole chain).
//!
//! Built once per pass in `O(instructions + operands)`, in dense side tables
//! indexed by [`Var`]; the use lists are one [`Csr`]. Only blocks of the
//! layout are looked at: a block dropped from the layout never runs and is
//! ignored, whatever it still lists.

use crate::entity::{Csr, EntityVec};
use crate::error::IrError;
use crate::ir::{Block, Function, Inst, Operand, Var, VarNames};

/// Where a variable is defined.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Def {
    /// No definition in the layout.
    None,
    /// A parameter, defined on entry.
    Param,
    /// Instruction `inst`; for an instruction defining several variables (a
    /// parallel copy, a call or an operation with several results), the
    /// variable's position `slot` among them (0 for every other
    /// instruction).
    Inst {
        /// The defining instruction.
        inst: Inst,
        /// Index of the variable among the instruction's definitions.
        slot: u32,
    },
}

/// One use of a variable: an operand of an instruction (phis included: a
/// phi operand is listed once per occurrence) or of a block's terminator.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum UseSite {
    /// Operand number `k` of this instruction, counted as
    /// [`Function::for_each_operand`] visits them (for a phi, its `k`-th
    /// operand; for a parallel copy, the source of its `k`-th pair).
    Inst(Inst, u32),
    /// An operand of this block's terminator.
    Term(Block),
}

/// Definition and uses of every variable of a function.
///
/// Invariants: `def[v]` is the unique definition of `v` in the layout;
/// `uses.of(v)` lists every operand reading `v`, in layout order (an
/// instruction reading `v` twice appears twice).
#[derive(Clone, Debug)]
pub(crate) struct DefUse {
    /// Definition of each variable.
    pub(crate) def: EntityVec<Var, Def>,
    uses: Csr<Var, UseSite>,
}

impl DefUse {
    /// Computes the definitions and uses of `func`'s variables.
    ///
    /// # Errors
    /// A variable defined twice (the single-assignment property of SSA is
    /// the one precondition every optimisation relies on).
    pub(crate) fn new(func: &Function) -> Result<DefUse, IrError> {
        let nv = func.num_vars();
        let mut def: EntityVec<Var, Def> = EntityVec::filled(nv, Def::None);
        let twice = |v: Var, b: Option<Block>, i: Option<Inst>| {
            let names = VarNames::new(func);
            IrError::new(
                func,
                b,
                i,
                format!("`{}` is assigned more than once: not SSA", &names[v]),
            )
        };
        for &p in func.params() {
            if def[p] != Def::None {
                return Err(twice(p, None, None));
            }
            def[p] = Def::Param;
        }
        for &b in func.layout() {
            for i in func.block_all_insts(b) {
                let mut slot = 0;
                let mut err = None;
                func.for_each_def(i, |v| {
                    if def[v] != Def::None {
                        err = Some(v);
                    }
                    def[v] = Def::Inst { inst: i, slot };
                    slot += 1;
                });
                if let Some(v) = err {
                    return Err(twice(v, Some(b), Some(i)));
                }
            }
        }
        let uses = Csr::build(nv, |emit| {
            for &b in func.layout() {
                for i in func.block_all_insts(b) {
                    let mut k = 0;
                    func.for_each_operand(i, |o| {
                        if let Operand::Var(v) = o {
                            emit.push(v, UseSite::Inst(i, k));
                        }
                        k += 1;
                    });
                }
                func.for_each_term_use(b, |v| emit.push(v, UseSite::Term(b)));
            }
        });
        Ok(DefUse { def, uses })
    }

    /// Every use of `v`.
    #[inline]
    pub(crate) fn uses(&self, v: Var) -> &[UseSite] {
        self.uses.of(v)
    }
}
