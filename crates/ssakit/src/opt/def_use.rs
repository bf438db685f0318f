//! Definition sites and use lists of every variable, the *def-use chains* of
//! SSA (Cytron et al. 1991, section 1: in SSA each use is reached by exactly
//! one definition, so a use list per variable is the whole chain).
//!
//! Built once per pass in `O(instructions + operands)`, in dense side tables
//! indexed by [`Var`] and [`Inst`]; the use lists are in compressed (CSR)
//! form. Only blocks of the layout are looked at: a block dropped from the
//! layout never runs and is ignored, whatever it still lists.

use crate::entity::EntityVec;
use crate::error::IrError;
use crate::ir::{Block, Function, Inst, Var, VarNames};

/// Where a variable is defined.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Def {
    /// No definition in the layout.
    None,
    /// A parameter, defined on entry.
    Param,
    /// Instruction `inst` of block `block`; for a parallel copy, pair number
    /// `slot` (0 for every other instruction).
    Inst {
        /// The defining instruction.
        inst: Inst,
        /// Its block.
        block: Block,
        /// Index of the `(dst, src)` pair in a parallel copy, else 0.
        slot: u32,
    },
}

/// One use of a variable: an operand of an instruction (phis included: a
/// phi operand is listed once per occurrence) or of a block's terminator.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UseSite {
    /// An operand of this instruction.
    Inst(Inst),
    /// The operand of this block's terminator.
    Term(Block),
}

/// Definition and uses of every variable of a function.
///
/// Invariants: `def[v]` is the unique definition of `v` in the layout;
/// `uses[use_start[v] .. use_start[v + 1]]` lists every operand reading
/// `v`, in layout order (an instruction reading `v` twice appears twice).
#[derive(Clone, Debug)]
pub struct DefUse {
    /// Definition of each variable.
    pub def: EntityVec<Var, Def>,
    /// Block of each instruction listed in the layout (`None` for the
    /// others).
    pub inst_block: EntityVec<Inst, Option<Block>>,
    use_start: Vec<u32>,
    uses: Vec<UseSite>,
}

impl DefUse {
    /// Computes the definitions and uses of `func`'s variables.
    ///
    /// # Errors
    /// A variable defined twice (the single-assignment property of SSA is
    /// the one precondition every optimisation relies on).
    pub fn new(func: &Function) -> Result<DefUse, IrError> {
        let nv = func.vars.len();
        let mut def: EntityVec<Var, Def> = EntityVec::filled(nv, Def::None);
        let mut inst_block: EntityVec<Inst, Option<Block>> =
            EntityVec::filled(func.insts.len(), None);
        let twice = |v: Var, b: Option<Block>, i: Option<Inst>| {
            let names = VarNames::new(func);
            IrError::new(
                func,
                b,
                i,
                format!("`{}` is assigned more than once: not SSA", &names[v]),
            )
        };
        for &p in &func.params {
            if def[p] != Def::None {
                return Err(twice(p, None, None));
            }
            def[p] = Def::Param;
        }
        let mut count = vec![0u32; nv + 1];
        for &b in &func.layout {
            let data = &func.blocks[b];
            for &i in data.phis.iter().chain(&data.insts) {
                inst_block[i] = Some(b);
                let mut slot = 0;
                let mut err = None;
                func.insts[i].for_each_def(|v| {
                    if def[v] != Def::None {
                        err = Some(v);
                    }
                    def[v] = Def::Inst {
                        inst: i,
                        block: b,
                        slot,
                    };
                    slot += 1;
                });
                if let Some(v) = err {
                    return Err(twice(v, Some(b), Some(i)));
                }
                func.insts[i].for_each_use(|v| count[v.index()] += 1);
            }
            if let Some(v) = data.term.operand().and_then(|o| o.var()) {
                count[v.index()] += 1;
            }
        }
        // Prefix sums: use_start[v] is where v's uses begin.
        let mut use_start = vec![0u32; nv + 1];
        for v in 0..nv {
            use_start[v + 1] = use_start[v] + count[v];
        }
        let mut fill = use_start.clone();
        let mut uses = vec![UseSite::Term(Block(0)); use_start[nv] as usize];
        let mut put = |v: Var, site: UseSite| {
            uses[fill[v.index()] as usize] = site;
            fill[v.index()] += 1;
        };
        for &b in &func.layout {
            let data = &func.blocks[b];
            for &i in data.phis.iter().chain(&data.insts) {
                func.insts[i].for_each_use(|v| put(v, UseSite::Inst(i)));
            }
            if let Some(v) = data.term.operand().and_then(|o| o.var()) {
                put(v, UseSite::Term(b));
            }
        }
        Ok(DefUse {
            def,
            inst_block,
            use_start,
            uses,
        })
    }

    /// Every use of `v`.
    #[inline]
    pub fn uses(&self, v: Var) -> &[UseSite] {
        &self.uses[self.use_start[v.index()] as usize..self.use_start[v.index() + 1] as usize]
    }

    /// The instruction defining `v`, if an instruction does.
    #[inline]
    pub fn def_inst(&self, v: Var) -> Option<Inst> {
        match self.def[v] {
            Def::Inst { inst, .. } => Some(inst),
            _ => None,
        }
    }
}
