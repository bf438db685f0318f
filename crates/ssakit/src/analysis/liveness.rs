//! Live-in and live-out sets of variables, by per-variable path exploration.
//!
//! A variable `v` is *live* at a program point if some path from that point
//! reaches a use of `v` without passing a definition of `v`. `LiveIn(B)` are
//! the variables live at the start of block `B`, `LiveOut(B)` those live at
//! its end. SSA destruction (chapter 13, section 13.6, and the coalescing it
//! points to) and pruned phi placement need them.
//!
//! ## Where uses and definitions happen
//!
//! * A phi `d = phi(P₁: a₁, ..., Pₙ: aₙ)` in `B` *defines* `d` at the start
//!   of `B`, and *uses* `aᵢ` at the end of `Pᵢ` (the chapter's convention of
//!   section 13.3): `aᵢ` is live-out of `Pᵢ` only, not live-in of `B` through
//!   this use; `d` is not live-in of `B`.
//! * An ordinary instruction reads its operands, then writes its results; a
//!   parallel copy reads all its sources before writing any destination.
//! * The terminator's operand is a use at the end of the block.
//! * Parameters get no special treatment: a parameter used before any
//!   definition in the entry is live-in of the entry.
//!
//! With multi-edges a phi has one argument per distinct predecessor block.
//! Blocks outside the layout are ignored (empty sets).
//!
//! ## Algorithm
//!
//! Brandner, Boissinot, Darte, Dupont de Dinechin and Rastello, "Computing
//! Liveness Sets for SSA-Form Programs" (INRIA RR-7503, 2011), the
//! variable-by-variable path exploration (`Compute_LiveSets_SSA_ByVar` with
//! `Up_and_Mark`): from every use of `v`, walk the CFG backwards marking
//! blocks live-in and their predecessors live-out, and stop at blocks
//! already marked or defining `v`. In strict SSA the only stopping definition
//! is the unique one; here it is generalised to any program: a block stops the
//! walk when it defines `v` anywhere (a phi included), while a use in a block
//! *before* any definition there (an *upward-exposed* use) starts a walk
//! from that block itself. Both are gathered in one scan of the function:
//!
//! 1. *Gather*: per block, the upward-exposed uses and the definitions; per
//!    phi argument, the pair (variable, predecessor). All grouped by variable.
//! 2. *Explore*, for each variable `v` in index order: mark the blocks
//!    defining `v`; `Up_and_Mark` from each upward-exposed use (its block is
//!    live-in) and from each phi use (its predecessor is live-out, and live-in
//!    unless it defines `v`); `Up_and_Mark(B)` marks each predecessor `P`
//!    live-out and, unless `P` defines `v` or is already live-in, live-in,
//!    and continues from `P`. An explicit stack replaces the recursion.
//!
//! The per-variable marks are [`StampSet`]s, so a variable costs what its
//! live range touches. Pairs `(block, v)` come out in increasing `v`; a stable
//! counting sort by block yields sorted, duplicate-free sets in CSR form.

use super::stamp::StampSet;
use crate::ir::{Block, Cfg, Function, InstData, Var};

/// Live-in and live-out sets of every block, in compressed (CSR) form.
///
/// Invariant: `live_in(b)` and `live_out(b)` are sorted by variable index
/// and duplicate-free; tables cover every block of the function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Liveness {
    in_start: Vec<u32>,
    in_vars: Vec<Var>,
    out_start: Vec<u32>,
    out_vars: Vec<Var>,
}

impl Liveness {
    /// Computes liveness for `func`.
    ///
    /// # Preconditions
    /// `cfg` is `Cfg::new(func)`; every phi argument is labelled by a
    /// predecessor of the phi's block.
    pub fn new(func: &Function, cfg: &Cfg) -> Liveness {
        let nb = func.blocks.len();
        let mut by_var = VarLiveness::new(func, cfg);
        let mut in_pairs: Vec<(u32, Var)> = Vec::new();
        let mut out_pairs: Vec<(u32, Var)> = Vec::new();
        for v in (0..func.vars.len()).map(Var::new) {
            by_var.explore(v, |b| in_pairs.push((b.0, v)), |b| out_pairs.push((b.0, v)));
        }
        let (in_start, in_vars) = group(nb, &in_pairs);
        let (out_start, out_vars) = group(nb, &out_pairs);
        Liveness {
            in_start,
            in_vars,
            out_start,
            out_vars,
        }
    }

    /// Variables live at the start of `b`, sorted.
    #[inline]
    pub fn live_in(&self, b: Block) -> &[Var] {
        &self.in_vars[self.in_start[b.index()] as usize..self.in_start[b.index() + 1] as usize]
    }

    /// Variables live at the end of `b`, sorted.
    #[inline]
    pub fn live_out(&self, b: Block) -> &[Var] {
        &self.out_vars[self.out_start[b.index()] as usize..self.out_start[b.index() + 1] as usize]
    }

    /// Whether `v` is live at the start of `b` (binary search).
    pub fn is_live_in(&self, b: Block, v: Var) -> bool {
        self.live_in(b).binary_search(&v).is_ok()
    }

    /// Whether `v` is live at the end of `b` (binary search).
    pub fn is_live_out(&self, b: Block, v: Var) -> bool {
        self.live_out(b).binary_search(&v).is_ok()
    }
}

/// Liveness one variable at a time, on demand: step 1 (gather) is done
/// once, step 2 (explore) for each variable asked about, reusing stamped
/// sets. Pruned phi placement uses it to pay only for the variables that
/// may need phis, instead of materialising every live set (which takes
/// variables × blocks space when many variables are live everywhere).
#[derive(Debug)]
pub struct VarLiveness<'a> {
    cfg: &'a Cfg,
    upward_start: Vec<u32>,
    upward: Vec<Block>,
    defs_start: Vec<u32>,
    defs: Vec<Block>,
    phi_start: Vec<u32>,
    phi_uses: Vec<Block>,
    is_def: StampSet,
    live_in: StampSet,
    live_out: StampSet,
    stack: Vec<Block>,
}

impl<'a> VarLiveness<'a> {
    /// Step 1 for `func`.
    ///
    /// # Preconditions
    /// As for [`Liveness::new`].
    pub fn new(func: &Function, cfg: &'a Cfg) -> VarLiveness<'a> {
        let nb = func.blocks.len();
        let nv = func.vars.len();
        debug_assert_eq!(cfg.num_blocks(), nb);
        // Step 1, gather: upward-exposed uses, definitions, phi uses.
        let mut upward: Vec<(u32, Block)> = Vec::new();
        let mut defs: Vec<(u32, Block)> = Vec::new();
        let mut phi_uses: Vec<(u32, Block)> = Vec::new();
        let mut defined_here = StampSet::new(nv);
        let mut exposed_here = StampSet::new(nv);
        for &b in &func.layout {
            defined_here.clear();
            exposed_here.clear();
            let data = &func.blocks[b];
            let mut use_ = |v: Var, defined_here: &StampSet| {
                if !defined_here.contains(v.index()) && exposed_here.insert(v.index()) {
                    upward.push((v.0, b));
                }
            };
            for &i in &data.phis {
                if let InstData::Phi { dst, args } = &func.insts[i] {
                    if defined_here.insert(dst.index()) {
                        defs.push((dst.0, b));
                    }
                    for a in args {
                        debug_assert!(cfg.preds(b).contains(&a.block), "phi label not a pred");
                        if let Some(v) = a.value.var() {
                            phi_uses.push((v.0, a.block));
                        }
                    }
                }
            }
            for &i in &data.insts {
                let inst = &func.insts[i];
                // All reads before all writes (parallel copies included).
                inst.for_each_use(|v| use_(v, &defined_here));
                inst.for_each_def(|v| {
                    if defined_here.insert(v.index()) {
                        defs.push((v.0, b));
                    }
                });
            }
            if let Some(v) = data.term.operand().and_then(|o| o.var()) {
                use_(v, &defined_here);
            }
        }
        let (upward_start, upward) = group(nv, &upward);
        let (defs_start, defs) = group(nv, &defs);
        let (phi_start, phi_uses) = group(nv, &phi_uses);
        VarLiveness {
            cfg,
            upward_start,
            upward,
            defs_start,
            defs,
            phi_start,
            phi_uses,
            is_def: StampSet::new(nb),
            live_in: StampSet::new(nb),
            live_out: StampSet::new(nb),
            stack: Vec::new(),
        }
    }

    /// Step 2 for variable `v`: calls `on_in(b)` once for each block where
    /// `v` is live-in and `on_out(b)` once for each block where it is
    /// live-out; afterwards [`VarLiveness::is_live_in`] answers for `v`.
    /// Costs what `v`'s live range touches.
    pub fn explore(&mut self, v: Var, mut on_in: impl FnMut(Block), mut on_out: impl FnMut(Block)) {
        let range = |start: &[u32]| start[v.index()] as usize..start[v.index() + 1] as usize;
        self.is_def.clear();
        self.live_in.clear();
        self.live_out.clear();
        for &b in &self.defs[range(&self.defs_start)] {
            self.is_def.insert(b.index());
        }
        // An upward-exposed use: v is live-in where it is used.
        for &b in &self.upward[range(&self.upward_start)] {
            if self.live_in.insert(b.index()) {
                on_in(b);
                self.stack.push(b);
            }
        }
        // A phi use: v is live-out of the predecessor.
        for &p in &self.phi_uses[range(&self.phi_start)] {
            if self.live_out.insert(p.index()) {
                on_out(p);
            }
            if !self.is_def.contains(p.index()) && self.live_in.insert(p.index()) {
                on_in(p);
                self.stack.push(p);
            }
        }
        // Up_and_Mark, iteratively: every block on the stack is live-in.
        while let Some(b) = self.stack.pop() {
            for &p in self.cfg.preds(b) {
                if self.live_out.insert(p.index()) {
                    on_out(p);
                }
                if !self.is_def.contains(p.index()) && self.live_in.insert(p.index()) {
                    on_in(p);
                    self.stack.push(p);
                }
            }
        }
    }

    /// Whether the variable last explored is live-in at `b`.
    #[inline]
    pub fn is_live_in(&self, b: Block) -> bool {
        self.live_in.contains(b.index())
    }

    /// Whether the variable last explored is live-out at `b`.
    #[inline]
    pub fn is_live_out(&self, b: Block) -> bool {
        self.live_out.contains(b.index())
    }
}

/// Groups `(key, value)` pairs by key `0 .. n` into CSR form with a stable
/// counting sort: values of one key keep their order in `pairs`.
fn group<T: Copy>(n: usize, pairs: &[(u32, T)]) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0u32; n + 1];
    for &(k, _) in pairs {
        start[k as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    // Any value serves as the placeholder: every slot is overwritten.
    let mut values = match pairs.first() {
        Some(&(_, v)) => vec![v; pairs.len()],
        None => Vec::new(),
    };
    for &(k, v) in pairs {
        values[fill[k as usize] as usize] = v;
        fill[k as usize] += 1;
    }
    (start, values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, FunctionBuilder, Operand, PhiArg};

    /// ```text
    /// entry: i = 0; jump head
    /// head:  i1 = phi(entry: i, body: i2); branch i1, body, exit
    /// body:  i2 = i1 + 1; jump head
    /// exit:  ret n
    /// ```
    #[test]
    fn loop_with_phi() {
        let mut fb = FunctionBuilder::new("f");
        let n = fb.param("n");
        let i = fb.var("i");
        let i1 = fb.var("i1");
        let i2 = fb.var("i2");
        let entry = fb.block("entry");
        let head = fb.block("head");
        let body = fb.block("body");
        let exit = fb.block("exit");
        fb.switch_to(entry);
        fb.copy(i, Operand::Const(0));
        fb.jump(head);
        fb.switch_to(head);
        fb.phi(
            i1,
            vec![
                PhiArg {
                    block: entry,
                    value: i.into(),
                },
                PhiArg {
                    block: body,
                    value: i2.into(),
                },
            ],
        );
        fb.branch(i1.into(), body, exit);
        fb.switch_to(body);
        fb.binary(i2, BinOp::Add, i1.into(), Operand::Const(1));
        fb.jump(head);
        fb.switch_to(exit);
        fb.ret(Some(n.into()));
        let f = fb.finish();
        let live = Liveness::new(&f, &Cfg::new(&f));
        assert_eq!(live.live_in(entry), &[n]);
        assert_eq!(live.live_out(entry), &[n, i]);
        assert_eq!(live.live_in(head), &[n]);
        assert_eq!(live.live_out(head), &[n, i1]);
        assert_eq!(live.live_in(body), &[n, i1]);
        assert_eq!(live.live_out(body), &[n, i2]);
        assert_eq!(live.live_in(exit), &[n]);
        assert!(live.live_out(exit).is_empty());
        assert!(live.is_live_out(body, i2) && !live.is_live_in(head, i2));
        let (bin, bout) = super::super::brute::liveness(&f);
        for b in f.layout.iter() {
            assert_eq!(live.live_in(*b), &bin[b.index()][..]);
            assert_eq!(live.live_out(*b), &bout[b.index()][..]);
        }
    }
}
