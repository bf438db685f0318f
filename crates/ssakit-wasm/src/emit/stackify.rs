//! Values that stay on the operand stack instead of going through a
//! local, as LLVM's WebAssembly register stackifier does
//! (`WebAssemblyRegStackify.cpp`: a def with one use becomes the operand
//! of its user's expression tree), moving a definition down to its user
//! only when its tree has no effect at all.
//!
//! Within a block, the instructions and the terminator are scanned in
//! order; for each (the *user*), its operands are matched from the last to
//! the first against the instruction just before the user's tree so far:
//! an operand that is a variable defined exactly once, used exactly once
//! (in the emitted code), by an instruction with that single result, which
//! sits right there, becomes a *child*: its value stays on the stack, and
//! the match goes on before the child's own tree. Defined further up in
//! the block, it becomes a child too, its tree *moved* down (issue 30,
//! item 1), when every instruction of that tree is `movable` (no
//! effect, no trap) and no instruction between it and the user writes a
//! variable the tree reads (the first position after each instruction
//! where one of its operands is written again, from one backward walk of
//! the block, folded into each tree as it grows: linear); the match then
//! goes on at the same place. An operand that does not match (a literal,
//! a local, a value from elsewhere) is pushed by the user itself and the
//! match continues with the next operand to the left.
//!
//! A tree is emitted in post-order ([`super`]): children in operand order,
//! so every instruction with an effect runs in its original order (a moved
//! one has none, and what it reads is not written before its new place);
//! only the pushes of the user's own non-child operands (`local.get`,
//! literals) happen before its later children run. That is safe: a child
//! writes no local (its only result stays on the stack), so no
//! `local.get` can see a different value, and a push has no effect to
//! reorder. Every read of a tree happens where its root is emitted, after
//! the roots before it: [`Stackified::at`] tells [`super::locals`] so,
//! or a variable whose last read moved down would give its local to
//! another written in between. A variable never read is dropped instead of stored, and a
//! copy into it is not emitted at all, so that it does not count as a
//! read of its source (`discount_dead_copies`, by marking).

use super::structure::{Ctl, Structured};
use super::{operands, Lowering};
use crate::error::WasmError;
use ssakit::entity::Csr;
use ssakit::ir::{Block, Function, Inst, InstData, Operand, Var};

/// A tree's root: an instruction, or a block's terminator.
///
/// ```
/// use ssakit::ir::{Block, Inst};
/// use ssakit_wasm::emit::stackify::Node;
/// assert_ne!(Node::Inst(Inst::new(0)), Node::Term(Block::new(0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// An instruction.
    Inst(Inst),
    /// The terminator of a block.
    Term(Block),
}

/// Which values stay on the stack.
///
/// ```
/// # use ssakit_wasm::emit::{stackify::stackify, structure::structure};
/// # use ssakit::ir::Type;
/// # let f = ssakit::text::parse_module("function f(a, b) {\nentry:\n  x = a + b\n  z = a - b\n  y = x * x\n  ret y\n}\n").unwrap().functions.remove(0);
/// # let ops = ssakit_wasm::emit::lower::OpTable::new(f.symbols());
/// # let sig = ssakit_wasm::module::Signature { params: vec![Type::I64; 2], results: vec![Type::I64] };
/// # let types = [Some(sig)];
/// # let low = ssakit_wasm::emit::Lowering {
/// #     ops: &ops, callees: &[], func_types: &[0], types: &types, globals: &[], print: &[],
/// # };
/// let st = stackify(&f, &low, &structure(&f).unwrap()).unwrap();
/// let v = |n| f.var_by_name(n).unwrap().index();
/// assert!(!st.on_stack[v("x")]); // read twice: a local
/// assert!(st.on_stack[v("y")]); // read once, next: stays on the stack
/// assert!(st.dead[v("z")]); // never read: dropped
/// ```
///
/// Copies that feed only copies nothing reads are dead too, in chains and
/// in cycles:
///
/// ```
/// # use ssakit_wasm::emit::{stackify::stackify, structure::structure};
/// # use ssakit::ir::Type;
/// # let f = ssakit::text::parse_module("function f(a) {\nentry:\n  x = a\n  y = x\n  z = y\n  w = a\n  jump l\nl:\n  u = w\n  w = u\n  branch a, l, e\ne:\n  ret a\n}\n").unwrap().functions.remove(0);
/// # let ops = ssakit_wasm::emit::lower::OpTable::new(f.symbols());
/// # let sig = ssakit_wasm::module::Signature { params: vec![Type::I64], results: vec![Type::I64] };
/// # let types = [Some(sig)];
/// # let low = ssakit_wasm::emit::Lowering {
/// #     ops: &ops, callees: &[], func_types: &[0], types: &types, globals: &[], print: &[],
/// # };
/// let st = stackify(&f, &low, &structure(&f).unwrap()).unwrap();
/// let v = |n| f.var_by_name(n).unwrap().index();
/// assert!(st.dead[v("x")] && st.dead[v("y")] && st.dead[v("z")]);
/// assert!(st.dead[v("u")] && st.dead[v("w")]); // read only by each other
/// assert!(!st.dead[v("a")]); // a parameter, and returned
/// ```
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
    /// Per instruction slot: the position in its block of the root of the
    /// tree it is emitted in (the block's length for its terminator), its
    /// own position when it is a root. Every read of a tree happens after
    /// the roots before it and before its root writes, so this is where
    /// its reads are, as far as locals can tell.
    pub at: Vec<u32>,
}

/// Dead copies: a copy into a variable never read is not emitted
/// ([`super`] skips it), so it is not a read of its source either. Marked
/// as dead-code elimination marks what is useful: a variable is *live*
/// when an instruction other than a copy, or a terminator, reads it, or
/// when a copy into a live variable reads it; the copies into the others
/// give back their read of their source. Webs of copies that feed only
/// each other, cycles included (the phis of minimal SSA that nothing
/// reads, after destruction without coalescing), disappear whole. Only
/// copies: any other instruction may trap or have an effect, and keeps
/// its operands read. Linear: the copies grouped by destination
/// ([`Csr`]), each looked at once by the marking and once by the recount.
fn discount_dead_copies(f: &Function, s: &Structured, uses: &mut [u32], is_param: &[bool]) {
    let nv = uses.len();
    // The copies of the emitted code, and how many of each variable's
    // reads are copies.
    let mut copy_reads = vec![0u32; nv];
    let mut copies: Vec<(Var, Var)> = Vec::new();
    for c in &s.items {
        let Ctl::Body(b) = *c else { continue };
        for &i in f.block_insts(b) {
            if let InstData::Copy {
                dst,
                src: Operand::Var(src),
            } = *f.inst(i)
            {
                copies.push((dst, src));
                copy_reads[src.index()] += 1;
            }
        }
    }
    let src_of: Csr<Var, Var> = Csr::from_pairs(nv, copies.iter().copied());
    // Roots: read by something that is not a copy (parameters too: they
    // are never dropped).
    let mut live: Vec<bool> = (0..nv)
        .map(|v| uses[v] > copy_reads[v] || is_param[v])
        .collect();
    let mut work: Vec<usize> = (0..nv).filter(|&v| live[v]).collect();
    while let Some(v) = work.pop() {
        for &src in src_of.of(Var::new(v)) {
            if !live[src.index()] {
                live[src.index()] = true;
                work.push(src.index());
            }
        }
    }
    for &(dst, src) in &copies {
        if !live[dst.index()] {
            uses[src.index()] -= 1;
        }
    }
}

impl Stackified {
    /// `i` is a copy into a variable never read: not emitted, and no user
    /// of its source (the emitter and the tree matching both ask this).
    pub(crate) fn drops_copy(&self, f: &Function, i: Inst) -> bool {
        matches!(*f.inst(i), InstData::Copy { dst, .. } if self.dead[dst.index()])
    }
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

/// Whether instruction `i` may run later than where it is, past other
/// instructions that write none of its operands: it has no effect at all
/// and cannot trap (a builtin `/` or `%` by a constant is pure for
/// [`Function::effects`], but its `i64.div_s` traps on `i64::MIN / -1`).
fn movable(f: &Function, i: Inst) -> bool {
    match *f.inst(i) {
        InstData::Binary { op, .. } if op.may_trap() => false,
        InstData::Copy { .. } | InstData::Unary { .. } | InstData::Binary { .. } => true,
        InstData::Op { .. } => f.effects(i).is_pure(),
        _ => false,
    }
}

/// Decides the stack values of `f` emitted in the order of `s`.
///
/// ```
/// # use ssakit_wasm::emit::{stackify::stackify, structure::structure};
/// # use ssakit::ir::Type;
/// # let f = ssakit::text::parse_module("function f(a, b) {\nentry:\n  x = a + b\n  ret x\n}\n").unwrap().functions.remove(0);
/// # let ops = ssakit_wasm::emit::lower::OpTable::new(f.symbols());
/// # let sig = ssakit_wasm::module::Signature { params: vec![Type::I64; 2], results: vec![Type::I64] };
/// # let types = [Some(sig)];
/// # let low = ssakit_wasm::emit::Lowering {
/// #     ops: &ops, callees: &[], func_types: &[0], types: &types, globals: &[], print: &[],
/// # };
/// let st = stackify(&f, &low, &structure(&f).unwrap()).unwrap();
/// let x = f.var_by_name("x").unwrap().index();
/// assert!(st.on_stack[x] && !st.dead[x]);
/// assert_eq!(st.absorbed.iter().filter(|&&a| a).count(), 1); // `a + b`, inside `ret`
/// ```
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
    discount_dead_copies(f, s, &mut uses, &is_param);
    let mut st = Stackified {
        on_stack: vec![false; nv],
        dead: (0..nv).map(|v| uses[v] == 0 && !is_param[v]).collect(),
        def,
        absorbed: vec![false; f.inst_slots()],
        at: vec![0; f.inst_slots()],
    };
    // Where each instruction sits in its block (checked against the
    // block's list: an instruction of another block is never moved).
    let mut index_of = vec![u32::MAX; f.inst_slots()];
    for c in &s.items {
        let Ctl::Body(b) = *c else { continue };
        for (k, &i) in f.block_insts(b).iter().enumerate() {
            index_of[i.index()] = k as u32;
        }
    }
    // Per variable, scratch: the next definition in the block (backward
    // scan).
    let mut next_def = vec![u32::MAX; nv];
    let mut touched: Vec<Var> = Vec::new();
    let mut start: Vec<usize> = Vec::new();
    // Per position of the block (the terminator last), for the tree
    // rooted there: whether every instruction of it may move
    // ([`movable`]), and the first position after it where a variable
    // it reads from a local is written again.
    let mut moves: Vec<bool> = Vec::new();
    let mut next_write: Vec<u32> = Vec::new();
    // The position of each absorbed instruction's user.
    let mut user: Vec<u32> = Vec::new();
    for c in &s.items {
        let Ctl::Body(b) = *c else { continue };
        let insts = f.block_insts(b);
        let n = insts.len();
        start.clear();
        moves.clear();
        moves.extend(insts.iter().map(|&i| movable(f, i)));
        moves.push(false);
        next_write.clear();
        next_write.resize(n + 1, u32::MAX);
        user.clear();
        user.resize(n + 1, u32::MAX);
        for (k, &i) in insts.iter().enumerate().rev() {
            let mut w = u32::MAX;
            f.for_each_operand(i, |o| {
                if let Operand::Var(v) = o {
                    w = w.min(next_def[v.index()]);
                }
            });
            next_write[k] = w;
            f.for_each_def(i, |v| {
                if next_def[v.index()] == u32::MAX {
                    touched.push(v);
                }
                next_def[v.index()] = k as u32;
            });
        }
        for v in touched.drain(..) {
            next_def[v.index()] = u32::MAX;
        }
        for j in 0..=n {
            let node = if j < n {
                Node::Inst(insts[j])
            } else {
                Node::Term(b)
            };
            // A copy into a dead variable is not emitted: it is no user,
            // and nothing before it can join a tree past it.
            if matches!(node, Node::Inst(i) if st.drops_copy(f, i)) {
                start.push(j);
                continue;
            }
            let ops = operands(f, low, node)?;
            // Position just before the user's tree so far, plus one.
            let mut cursor = j;
            for &(o, _) in ops.iter().rev() {
                let Operand::Var(t) = o else { continue };
                let ti = t.index();
                if is_param[ti] || defs[ti] != 1 || uses[ti] != 1 {
                    continue;
                }
                let d = st.def[ti];
                let k = index_of[d.index()] as usize;
                if k >= cursor
                    || insts[k] != d
                    || st.absorbed[d.index()]
                    || single_def(f, d) != Some(t)
                {
                    continue;
                }
                // Right before the tree: no instruction changes order.
                // Further up: the definition's tree moves down past the
                // instructions in between, when it has no effect and
                // none of them writes what it reads.
                let adjacent = k + 1 == cursor;
                let may_move = moves[k] && next_write[k] as usize >= j;
                if !(adjacent || may_move) {
                    continue;
                }
                st.absorbed[d.index()] = true;
                st.on_stack[ti] = true;
                user[k] = j as u32;
                moves[j] &= moves[k];
                next_write[j] = next_write[j].min(next_write[k]);
                if adjacent {
                    cursor = start[k];
                }
            }
            start.push(cursor);
        }
        // Emitted with its tree's root: users come after their children.
        for k in (0..n).rev() {
            let u = user[k];
            st.at[insts[k].index()] = if u == u32::MAX {
                k as u32
            } else if (u as usize) < n {
                st.at[insts[u as usize].index()]
            } else {
                n as u32
            };
        }
    }
    Ok(st)
}
