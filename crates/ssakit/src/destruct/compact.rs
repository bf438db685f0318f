//! Dropping instructions that no block lists any more.
//!
//! Passes that delete instructions (phi removal, sequentialization of a
//! parallel copy into nothing) only unlink them from their block; the
//! [`Function`] invariant wants every instruction of `func.insts` to be
//! listed by exactly one block, so they finish with [`compact_insts`].

use crate::entity::EntityVec;
use crate::ir::{Function, Inst, InstData};

/// Removes every instruction that no block lists, renumbering the others
/// in their previous relative order, in `O(instructions + blocks)`. Returns
/// how many were removed.
///
/// Instruction numbers change, so side tables keyed by [`Inst`] become
/// stale.
pub fn compact_insts(func: &mut Function) -> usize {
    const GONE: u32 = u32::MAX;
    // Each instruction is listed at most once: if the lists hold as many
    // as there are, none is unlisted and nothing moves.
    let listed: usize = func
        .blocks
        .values()
        .map(|b| b.phis.len() + b.insts.len())
        .sum();
    if listed == func.insts.len() {
        return 0;
    }
    let mut new_index = vec![GONE; func.insts.len()];
    for b in func.blocks.values() {
        for &i in b.phis.iter().chain(&b.insts) {
            new_index[i.index()] = 0;
        }
    }
    let old = std::mem::take(&mut func.insts).into_vec();
    let removed = old.len();
    let mut kept: EntityVec<Inst, InstData> = EntityVec::with_capacity(old.len());
    for (i, data) in old.into_iter().enumerate() {
        if new_index[i] != GONE {
            new_index[i] = kept.push(data).0;
        }
    }
    let removed = removed - kept.len();
    func.insts = kept;
    if removed > 0 {
        for b in func.blocks.values_mut() {
            for i in b.phis.iter_mut().chain(b.insts.iter_mut()) {
                *i = Inst(new_index[i.index()]);
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{FunctionBuilder, Operand};

    #[test]
    fn unlisted_instructions_are_dropped() {
        let mut b = FunctionBuilder::new("f");
        let e = b.block("e");
        b.switch_to(e);
        let x = b.var("x");
        b.copy(x, Operand::Const(1));
        b.copy(x, Operand::Const(2));
        b.copy(x, Operand::Const(3));
        b.ret(Some(x.into()));
        let mut f = b.finish();
        f.blocks[e].insts.remove(1);
        assert_eq!(compact_insts(&mut f), 1);
        assert_eq!(f.insts.len(), 2);
        assert_eq!(f.blocks[e].insts, vec![Inst(0), Inst(1)]);
        assert_eq!(
            f.insts[Inst(1)],
            InstData::Copy {
                dst: x,
                src: Operand::Const(3)
            }
        );
        assert_eq!(compact_insts(&mut f), 0);
    }
}
