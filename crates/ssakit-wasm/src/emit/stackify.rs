//! Values that stay on the operand stack instead of going through a
//! local, as LLVM's WebAssembly register stackifier does
//! (`WebAssemblyRegStackify.cpp`: a def with one use becomes the operand
//! of its user's expression tree, moved down to it when nothing it
//! conflicts with lies between).
//!
//! Within a block, the instructions and the terminator are scanned in
//! order; for each (the *user*), its operands are matched from the last to
//! the first against the instruction just before the user's tree so far:
//! an operand that is a variable defined exactly once, used exactly once
//! (in the emitted code), by an instruction with that single result, which
//! sits right there, becomes a *child*: its value stays on the stack, and
//! the match goes on before the child's own tree. An operand that does
//! not match (a literal, a local, a value from elsewhere) is pushed by the
//! user itself and the match continues with the next operand to the left.
//!
//! **Moving down** (LLVM's `isSafeToMove`, conservatively): when the
//! definition of such an operand is not right there but up to [`REACH`]
//! instructions earlier in the block, its tree moves into the user's,
//! past the instructions between, if no instruction between writes a
//! variable the tree reads and every node of the tree is [`movable`] (no
//! effect, no trap: it crosses anything). A moved tree's operands are read at its user's position, which
//! [`Stackified::moved_to`] tells [`super::locals`].
//!
//! A tree is emitted in post-order ([`super`]): children in operand order
//! are earlier instructions, so every instruction not moved runs in its
//! original order; only the pushes of the user's own non-child operands
//! (`local.get`, literals) happen before its children run. That is safe:
//! a child writes no local (its only result stays on the stack), so no
//! `local.get` can see a different value, and a push has no effect to
//! reorder. A variable never read is dropped instead of stored.

use super::structure::{Ctl, Structured};
use super::{operands, Lowering};
use crate::error::WasmError;
use ssakit::ir::{BinOp, Block, Function, Inst, InstData, Operand, Var};

/// A tree's root: an instruction, or a block's terminator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// An instruction.
    Inst(Inst),
    /// The terminator of a block.
    Term(Block),
}

/// Which values stay on the stack.
#[derive(Clone, Debug)]
pub struct Stackified {
    /// Per variable: its value stays on the stack.
    pub on_stack: Vec<bool>,
    /// Per variable: never read (its definitions drop their value).
    pub dead: Vec<bool>,
    /// Per variable: its one definition (meaningful when `on_stack`).
    pub def: Vec<Inst>,
    /// Per instruction slot: emitted inside its user's tree.
    pub absorbed: Vec<bool>,
    /// Per instruction slot: the index in its block of the user whose
    /// tree it moved into, past the instructions between them (the
    /// block's length: its terminator); `u32::MAX`: it runs in its place.
    pub moved_to: Vec<u32>,
}

/// How many instructions a definition may move past.
const REACH: usize = 16;

/// Whether `i` may run later than its place, past any instruction: no
/// effect and no trap. The built-in `/` and `%` trap in wasm on
/// `i64::MIN / -1` whatever the divisor, so they never move. (Loads could
/// cross instructions of this kind, as LLVM's stackifier lets them; an
/// attempt at that made one wasm-smith module of `tests/wasmi_diff.rs`
/// differ in the conventional mode, not understood yet, so they stay.)
fn movable(f: &Function, i: Inst) -> bool {
    f.effects(i).is_pure()
        && !matches!(
            f.inst(i),
            InstData::Binary {
                op: BinOp::Div | BinOp::Rem,
                ..
            }
        )
}

/// The single result of `i` when it can be a child.
fn single_def(f: &Function, i: Inst) -> Option<Var> {
    match *f.inst(i) {
        InstData::Copy {
            src: Operand::Undef,
            ..
        } => None,
        InstData::Copy { dst, .. } | InstData::Unary { dst, .. } | InstData::Binary { dst, .. } => {
            Some(dst)
        }
        InstData::Call { results, .. } | InstData::Op { results, .. } => {
            match results.as_slice(f) {
                [r] => Some(*r),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Decides the stack values of `f` emitted in the order of `s`.
pub fn stackify(f: &Function, low: &Lowering<'_>, s: &Structured) -> Result<Stackified, WasmError> {
    let nv = f.num_vars();
    let mut uses = vec![0u32; nv];
    let mut defs = vec![0u32; nv];
    let mut def = vec![Inst::new(0); nv];
    for c in &s.items {
        let Ctl::Body(b) = *c else { continue };
        for &i in f.block_insts(b) {
            f.for_each_operand(i, |o| {
                if let Operand::Var(v) = o {
                    uses[v.index()] += 1;
                }
            });
            f.for_each_def(i, |v| {
                defs[v.index()] += 1;
                def[v.index()] = i;
            });
        }
        f.for_each_term_use(b, |v| uses[v.index()] += 1);
    }
    let mut is_param = vec![false; nv];
    for &p in f.params() {
        is_param[p.index()] = true;
    }
    let mut st = Stackified {
        on_stack: vec![false; nv],
        dead: (0..nv).map(|v| uses[v] == 0 && !is_param[v]).collect(),
        def,
        absorbed: vec![false; f.inst_slots()],
        moved_to: vec![u32::MAX; f.inst_slots()],
    };
    let mut start: Vec<usize> = Vec::new();
    // Per index in the block: its tree may move (every node movable, and
    // no moved child inside, so that a movable tree is contiguous).
    let mut can_move: Vec<bool> = Vec::new();
    let mut reads: Vec<Var> = Vec::new();
    for c in &s.items {
        let Ctl::Body(b) = *c else { continue };
        let insts = f.block_insts(b);
        start.clear();
        can_move.clear();
        for j in 0..=insts.len() {
            let node = if j < insts.len() {
                Node::Inst(insts[j])
            } else {
                Node::Term(b)
            };
            let ops = operands(f, low, node)?;
            // Position just before the user's tree so far, plus one.
            let mut cursor = j;
            let mut tree_moves = matches!(node, Node::Inst(i) if movable(f, i));
            for &(o, _) in ops.iter().rev() {
                let Operand::Var(t) = o else { continue };
                let ti = t.index();
                if cursor == 0 || is_param[ti] || defs[ti] != 1 || uses[ti] != 1 {
                    continue;
                }
                let cand = insts[cursor - 1];
                if !st.absorbed[cand.index()] && single_def(f, cand) == Some(t) {
                    st.absorbed[cand.index()] = true;
                    st.on_stack[ti] = true;
                    tree_moves &= can_move[cursor - 1];
                    cursor = start[cursor - 1];
                    continue;
                }
                // Move the definition's tree down past the instructions
                // between it and the cursor when it is movable and none
                // of them writes a variable it reads (its locals are
                // assigned knowing it runs here).
                let d = st.def[ti];
                let Some(k) = insts[cursor.saturating_sub(REACH)..cursor - 1]
                    .iter()
                    .rposition(|&i| i == d)
                    .map(|k| k + cursor.saturating_sub(REACH))
                else {
                    continue;
                };
                if st.absorbed[d.index()] || single_def(f, d) != Some(t) || !can_move[k] {
                    continue;
                }
                reads.clear();
                for &i in &insts[start[k]..=k] {
                    f.for_each_use(i, |v| reads.push(v));
                }
                let mut clash = false;
                for &i in &insts[k + 1..cursor] {
                    f.for_each_def(i, |v| clash |= reads.contains(&v));
                }
                if clash {
                    continue;
                }
                for &i in &insts[start[k]..=k] {
                    st.moved_to[i.index()] = j as u32;
                }
                st.absorbed[d.index()] = true;
                st.on_stack[ti] = true;
                tree_moves = false;
            }
            can_move.push(tree_moves);
            start.push(cursor);
        }
    }
    Ok(st)
}
