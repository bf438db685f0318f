//! Copy propagation on SSA, and the removal of trivial phis.
//!
//! A *copy* is `x = y` with `y` a variable. In SSA `x` and `y` hold the same
//! value wherever `x` is defined, so every use of `x` may read `y` instead
//! and the copy goes (Wegman and Zadeck 1991 note that SSA makes this a
//! simple substitution along def-use chains). A phi is *trivial* when every
//! operand is one variable `y` or the phi's own result: `x = phi(A: y, B: x)`
//! is the copy `x = y` (Aycock and Horspool 2000; Braun et al. 2013,
//! `tryRemoveTrivialPhi`), and goes the same way.
//!
//! # Why the result may be non-conventional
//!
//! Chapter section 13.6: "copy propagation, among others, turns
//! conventional SSA into non-conventional SSA". Construction gives each
//! source variable one phi web whose members never interfere; propagation
//! substitutes across webs, so a phi operand may end up live past another
//! member's definition. The two classic cases (Briggs, Cooper, Harvey and
//! Simpson 1998), reproduced by `examples/lost_copy_source.ssa` and
//! `examples/swap_source.ssa`:
//!
//! ```text
//! lost copy                          swap
//! loop:                              loop:
//!     x2 = phi(entry: x1, loop: x3)      a2 = phi(entry: a1, loop: b2)
//!     y1 = x2        ── removed          b2 = phi(entry: b1, loop: t1 → a2)
//!     x3 = y1 + 1    → x2 + 1            t1 = a2     ── removed
//!     ...                                a3 = b2     ── removed, a3 → b2
//! exit:                                  b3 = t1     ── removed, b3 → a2
//!     ret y1         → ret x2
//! ```
//!
//! After propagation `x2` is live out of `loop` where `x3` is defined (lost
//! copy), and `a2`, `b2` read each other (swap): in both, two members of
//! one web interfere. Destruction must then insert copies (section 13.6).
//!
//! # The steps
//!
//! 1. *Reachability.* Only copies and phis of reachable blocks are
//!    propagated: there every use is dominated by its definition, which is
//!    what makes the substitution sound and the forwarding acyclic. A
//!    depth-first walk of the terminators' successors from the entry.
//! 2. *Copies.* `forward[x] = y` for every copy `x = y`; the copy is marked
//!    for deletion. `CopyForest::find` follows `x → y → z` to the root,
//!    with path compression. The same walk of the layout checks that every
//!    variable is defined once and lists the phis reading each variable.
//! 3. *Trivial phis,* by a worklist seeded with every phi of a reachable
//!    block other than the entry. A phi `x` whose operands all resolve to one
//!    root `y` or to `x` gets `forward[x] = y`; the phis that use `x` are
//!    queued again, since they may have become trivial. Use lists live at
//!    roots and move to the new root when one is forwarded (the smaller
//!    list into the larger).
//! 4. *Rewrite.* Every operand of every instruction and terminator reads
//!    its root (only forwarded variables are written).
//! 5. *Delete* the propagated copies and phis, then compact (`run_passes`
//!    compacts once after its last pass instead).
//!
//! Steps 4 and 5 are one walk of the layout, block by block, and are
//! skipped when nothing was forwarded.
//!
//! # Correctness
//!
//! For a copy `x = y` in a reachable block, the definition of `y`
//! dominates the copy, which dominates every reachable use of `x`. For a
//! trivial phi `x` in block `H` (not the entry), take any path from the
//! entry to `H` and the block `P` just before the first visit of `H`: `H`
//! does not dominate `P`, so `P`'s operand cannot be `x` or anything
//! forwarded to `x` (its definition would have to dominate `P`); it
//! resolves to `y`, whose definition dominates `P`. Hence the definition of
//! `y` lies on every path to `H` and strictly dominates it, so `y` may
//! replace `x` everywhere `x` was dominated. Each forwarding thus points to
//! a strictly dominating definition: the forwarding graph is acyclic.
//! Phis of the entry block are left alone (no such `P` exists).
//!
//! What it deliberately does not do: propagate constants (`x = 5`) or
//! `undef` (`x = undef`), fold phis whose operands are all one constant
//! (see `const_prop`), or split parallel copies.
//!
//! # Preconditions
//! Valid SSA with the dominance property ([`crate::verify::verify`]).
//! Conventional SSA is not required, and not preserved.
//!
//! Cost: `O(instructions + operands)` plus, for phis, one revisit per
//! forwarding of an operand's root: linear on the programs construction
//! produces. The phi-read lists, the worklist and the regrouping's vector
//! are sized before they are filled (from the phi operands and phis of the
//! layout), not grown.

use super::stats::Stats;
use crate::analysis::def_use::definitions;
use crate::entity::EntityVec;
use crate::error::IrError;
use crate::ir::{Block, Function, Inst, InstData, Operand, Var};

/// The forwarding of propagated variables to the variable they copy: a
/// forest whose roots are the variables that stay.
#[derive(Clone, Debug)]
struct CopyForest {
    /// `forward[x]`: the variable `x` was found to copy, if any.
    forward: EntityVec<Var, Option<Var>>,
}

impl CopyForest {
    /// No variable forwarded.
    fn new(num_vars: usize) -> CopyForest {
        CopyForest {
            forward: EntityVec::filled(num_vars, None),
        }
    }

    /// Records that `x` copies `y` (a root).
    fn link(&mut self, x: Var, y: Var) {
        debug_assert!(self.forward[x].is_none() && self.forward[y].is_none() && x != y);
        self.forward[x] = Some(y);
    }

    /// The root of `x`: follow the forwarding to its end, then point every
    /// variable passed straight at the root (two passes, no recursion).
    fn find(&mut self, x: Var) -> Var {
        let mut root = x;
        let mut steps = 0usize;
        while let Some(y) = self.forward[root] {
            root = y;
            steps += 1;
            debug_assert!(steps <= self.forward.len(), "cycle of copies");
        }
        let mut v = x;
        while let Some(y) = self.forward[v] {
            if y != root {
                self.forward[v] = Some(root);
            }
            v = y;
        }
        root
    }

    /// Makes `o` read its root, writing only when its variable was
    /// forwarded.
    #[inline]
    fn rewrite(&mut self, o: &mut Operand) {
        if let Operand::Var(v) = *o {
            if self.forward[v].is_some() {
                *o = Operand::Var(self.find(v));
            }
        }
    }

    /// `o` with its variable replaced by its root.
    fn resolve(&mut self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => Operand::Var(self.find(v)),
            other => other,
        }
    }
}

/// The phis reading each root variable, as linked lists in one node
/// table: one allocation per function where a vector per variable cost an
/// allocation for each variable a phi reads.
///
/// Invariant: `len[v]` is the number of nodes on `v`'s list, `tail[v]`
/// its last node; a list moves to another root in `O(1)`.
struct PhiUsers {
    head: EntityVec<Var, Option<u32>>,
    tail: EntityVec<Var, Option<u32>>,
    len: EntityVec<Var, u32>,
    inst: Vec<Inst>,
    next: Vec<Option<u32>>,
}

/// A list detached from its variable: first node, last node, length.
type UserList = (Option<u32>, Option<u32>, u32);

impl PhiUsers {
    /// No list, room for `reads` nodes.
    fn new(num_vars: usize, reads: usize) -> Self {
        PhiUsers {
            head: EntityVec::filled(num_vars, None),
            tail: EntityVec::filled(num_vars, None),
            len: EntityVec::filled(num_vars, 0),
            inst: Vec::with_capacity(reads),
            next: Vec::with_capacity(reads),
        }
    }

    /// Appends the phi `i` to `v`'s list.
    fn push(&mut self, v: Var, i: Inst) {
        let n = self.inst.len() as u32;
        self.inst.push(i);
        self.next.push(None);
        match self.tail[v] {
            Some(t) => self.next[t as usize] = Some(n),
            None => self.head[v] = Some(n),
        }
        self.tail[v] = Some(n);
        self.len[v] += 1;
    }

    /// Detaches `x`'s list whole.
    fn detach(&mut self, x: Var) -> UserList {
        let list = (self.head[x], self.tail[x], self.len[x]);
        (self.head[x], self.tail[x], self.len[x]) = (None, None, 0);
        list
    }

    /// Detaches `x`'s list, keeps the phis `keep` accepts (in order) and
    /// appends them to `out`.
    fn take(&mut self, x: Var, keep: impl Fn(Inst) -> bool, out: &mut Vec<Inst>) -> UserList {
        let (mut head, mut tail, mut len) = (None, None::<u32>, 0);
        let mut node = self.head[x].take();
        self.tail[x] = None;
        self.len[x] = 0;
        while let Some(n) = node {
            node = self.next[n as usize];
            let i = self.inst[n as usize];
            if !keep(i) {
                continue;
            }
            out.push(i);
            self.next[n as usize] = None;
            match tail {
                Some(t) => self.next[t as usize] = Some(n),
                None => head = Some(n),
            }
            tail = Some(n);
            len += 1;
        }
        (head, tail, len)
    }

    /// Gives `list` to `y`: in front of `y`'s own when it is the longer
    /// (the order the smaller-into-larger merge of vectors gave), after it
    /// otherwise.
    fn join(&mut self, y: Var, list: UserList) {
        let (Some(h), Some(t), len) = list else {
            return;
        };
        if len > self.len[y] {
            self.next[t as usize] = self.head[y];
            if self.tail[y].is_none() {
                self.tail[y] = Some(t);
            }
            self.head[y] = Some(h);
            self.len[y] += len;
        } else {
            self.append(y, list);
        }
    }

    /// Puts `list` after `y`'s own.
    fn append(&mut self, y: Var, (head, tail, len): UserList) {
        let (Some(h), Some(t)) = (head, tail) else {
            return;
        };
        match self.tail[y] {
            Some(yt) => self.next[yt as usize] = Some(h),
            None => self.head[y] = Some(h),
        }
        self.tail[y] = Some(t);
        self.len[y] += len;
    }
}

/// Propagates every copy `x = y` (and every trivial phi) of `func` into the
/// uses of `x` and deletes it. Returns the counts in
/// [`Stats::copies_propagated`] and [`Stats::phis_simplified`].
///
/// Copies and phis have no effect, and only they are deleted; no
/// instruction moves. A copy or phi between variables of different types
/// (which the verifier rejects) is left alone.
///
/// # Errors
/// A variable defined twice (the input is not SSA).
///
/// ```
/// use ssakit::{opt::copy_prop, text::{parse_module, print_function}};
/// let mut m = parse_module("function f(a) {\nentry:\n    b = a\n    c = b + 1\n    ret c\n}\n").unwrap();
/// let f = &mut m.functions[0];
/// assert_eq!(copy_prop(f).unwrap().copies_propagated, 1);
/// assert_eq!(print_function(f), "function f(a) {\nentry:\n    c = a + 1\n    ret c\n}\n");
/// ```
pub fn copy_prop(func: &mut Function) -> Result<Stats, IrError> {
    let stats = run_uncompacted(func)?;
    func.compact();
    Ok(stats)
}

/// [`copy_prop()`] without the final [`Function::compact`]: the deleted
/// copies and phis stay in the instruction table, listed by no block
/// ([`run_passes`](super::run_passes) compacts once after the last pass).
pub(crate) fn run_uncompacted(func: &mut Function) -> Result<Stats, IrError> {
    // Step 1: reachable blocks.
    let reachable = reachable_blocks(func);
    // Step 2, with the single-assignment check and the phis' reads in the
    // same walk.
    let mut steps = Steps {
        reachable,
        forest: CopyForest::new(func.num_vars()),
        users: PhiUsers::new(func.num_vars(), phi_operands(func)),
        state: EntityVec::filled(func.inst_slots(), State::Kept),
        stats: Stats::default(),
    };
    steps.find_copies(func)?;
    // Step 3: trivial phis.
    steps.simplify_phis(func);
    let Steps {
        mut forest,
        state,
        stats,
        ..
    } = steps;
    if stats.copies_propagated == 0 && stats.phis_simplified == 0 {
        // Nothing forwarded: no operand to rewrite, nothing to delete.
        return Ok(stats);
    }
    // Steps 4 and 5, block by block.
    rewrite_and_delete(func, &mut forest, &state);
    Ok(stats)
}

/// What steps 2 and 3 share: the reachable blocks (step 1), the copy
/// forest, the phis reading each variable, each instruction's state and
/// the counts.
struct Steps {
    reachable: EntityVec<Block, bool>,
    forest: CopyForest,
    users: PhiUsers,
    state: EntityVec<Inst, State>,
    stats: Stats,
}

/// What the pass knows of an instruction slot.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Stays (and is not on the trivial-phi worklist).
    Kept,
    /// A phi of a reachable block other than the entry: may be found
    /// trivial (step 3).
    Eligible,
    /// A propagated copy or trivial phi, to delete (step 5).
    Deleted,
}

/// Step 1: the blocks of the layout reachable from the entry, by a
/// depth-first walk of the terminators' successors (blocks outside the
/// layout have no edges, as in [`crate::ir::Cfg`]).
fn reachable_blocks(func: &Function) -> EntityVec<Block, bool> {
    let n = func.num_blocks();
    let mut in_layout: EntityVec<Block, bool> = EntityVec::filled(n, false);
    for &b in func.layout() {
        in_layout[b] = true;
    }
    let mut reached: EntityVec<Block, bool> = EntityVec::filled(n, false);
    let entry = func.entry();
    reached[entry] = true;
    let mut stack: Vec<Block> = vec![entry];
    while let Some(b) = stack.pop() {
        if !in_layout[b] {
            continue;
        }
        func.for_each_succ(b, |s| {
            if !reached[s] {
                reached[s] = true;
                stack.push(s);
            }
        });
    }
    reached
}

/// The number of phi operands in the layout: at most one node each on
/// the phi-read lists, reserved at once rather than grown (growing them
/// cost a tenth of the pass).
fn phi_operands(func: &Function) -> usize {
    let mut n = 0;
    for &b in func.layout() {
        for &i in func.block_phis(b) {
            if let InstData::Phi { args, .. } = func.inst(i) {
                n += args.len();
            }
        }
    }
    n
}

impl Steps {
    /// Step 2: `forward[x] = y` for every copy `x = y` of a reachable block,
    /// the copy marked deleted; on the same walk of the layout, every phi
    /// read is filed under its variable (layout order, an operand read twice
    /// counted twice) and every definition checked to be the only one of its
    /// variable (what [`definitions`] checks, parameters first, then each
    /// block's phis and instructions in layout order).
    fn find_copies(&mut self, func: &Function) -> Result<(), IrError> {
        let Steps {
            reachable,
            forest,
            users,
            state,
            stats,
        } = self;
        let mut defined: EntityVec<Var, bool> = EntityVec::filled(func.num_vars(), false);
        let mut twice = false;
        let mut define = |v: Var| twice |= std::mem::replace(&mut defined[v], true);
        for &p in func.params() {
            define(p);
        }
        for &b in func.layout() {
            for &i in func.block_phis(b) {
                let InstData::Phi { dst, args } = *func.inst(i) else {
                    unreachable!("copy_prop: {i} is listed as a phi");
                };
                define(dst);
                for a in args.as_slice(func) {
                    if let Operand::Var(v) = a.value {
                        users.push(v, i);
                    }
                }
            }
            let live = reachable[b];
            for &i in func.block_insts(b) {
                match *func.inst(i) {
                    InstData::Copy { dst, src } => {
                        define(dst);
                        let Operand::Var(y) = src else { continue };
                        if !live || func.var_type(dst) != func.var_type(y) {
                            continue;
                        }
                        // Copies come in layout order, not dominance order, so
                        // `y` may be forwarded later: link the raw variable.
                        forest.forward[dst] = Some(y);
                        state[i] = State::Deleted;
                        stats.copies_propagated += 1;
                    }
                    InstData::Unary { dst, .. }
                    | InstData::Binary { dst, .. }
                    | InstData::Phi { dst, .. } => define(dst),
                    InstData::Call { results, .. } | InstData::Op { results, .. } => {
                        results.as_slice(func).iter().for_each(|&v| define(v))
                    }
                    InstData::ParCopy { copies } => {
                        copies.as_slice(func).iter().for_each(|&(v, _)| define(v))
                    }
                    InstData::Print { .. } => {}
                }
            }
        }
        if twice {
            return Err(not_ssa(func));
        }
        Ok(())
    }

    /// Step 3: trivial phis, by a worklist seeded with every phi of a
    /// reachable block other than the entry (last block's last phi at the
    /// bottom, so the first phi is looked at first). Each variable's phi
    /// reads are first regrouped at its root, variables in index order.
    fn simplify_phis(&mut self, func: &Function) {
        let Steps {
            reachable,
            forest,
            users,
            state,
            stats,
        } = self;
        let entry = func.entry();
        let eligible = |b: Block| reachable[b] && b != entry;
        let seeds = func.layout().iter().filter(|&&b| eligible(b));
        let mut work: Vec<Inst> =
            Vec::with_capacity(seeds.map(|&b| func.block_phis(b).len()).sum());
        for &b in func.layout().iter().rev() {
            if !eligible(b) {
                continue;
            }
            for &i in func.block_phis(b).iter().rev() {
                state[i] = State::Eligible;
                work.push(i);
            }
        }
        if work.is_empty() {
            return;
        }
        if stats.copies_propagated > 0 {
            let mut read: Vec<(Var, UserList)> =
                Vec::with_capacity(users.inst.len().min(func.num_vars()));
            for v in func.vars() {
                if users.len[v] > 0 {
                    read.push((v, users.detach(v)));
                }
            }
            for (v, list) in read {
                let r = forest.find(v);
                users.append(r, list);
            }
        }
        while let Some(i) = work.pop() {
            if state[i] != State::Eligible {
                continue;
            }
            let InstData::Phi { dst: x, .. } = *func.inst(i) else {
                continue;
            };
            let mut same: Option<Operand> = None;
            let mut trivial = true;
            for a in func.phi_args(i) {
                let r = forest.resolve(a.value);
                if r == Operand::Var(x) {
                    continue;
                }
                match same {
                    None => same = Some(r),
                    Some(s) if s == r => {}
                    Some(_) => {
                        trivial = false;
                        break;
                    }
                }
            }
            let (true, Some(Operand::Var(y))) = (trivial, same) else {
                continue;
            };
            if func.var_type(x) != func.var_type(y) {
                continue;
            }
            forest.link(x, y);
            state[i] = State::Deleted;
            stats.phis_simplified += 1;
            // The phis reading `x` now read `y`: look at them again, and file
            // them under `y` (the smaller list moves into the larger).
            // Deleted phis are dropped from the list as it moves, so lists do
            // not fill up with dead entries along a chain of forwardings.
            let moved = users.take(x, |u| state[u] == State::Eligible, &mut work);
            users.join(y, moved);
        }
    }
}

/// The error [`definitions`] gives for `func`, which defines a variable
/// twice.
#[cold]
#[inline(never)]
fn not_ssa(func: &Function) -> IrError {
    match definitions(func) {
        Err(e) => e,
        Ok(_) => unreachable!("copy_prop: a variable defined twice that `definitions` accepts"),
    }
}

/// Steps 4 and 5, one block at a time: every operand of every kept
/// instruction and of the terminator reads its root, and the propagated
/// copies and phis leave their block.
fn rewrite_and_delete(
    func: &mut Function,
    forest: &mut CopyForest,
    state: &EntityVec<Inst, State>,
) {
    let deleted = |i: Inst| state[i] == State::Deleted;
    for k in 0..func.layout().len() {
        let b = func.layout()[k];
        let mut phis_deleted = false;
        for p in 0..func.block_phis(b).len() {
            let i = func.block_phis(b)[p];
            if deleted(i) {
                phis_deleted = true;
            } else {
                func.for_each_operand_mut(i, |o| forest.rewrite(o));
            }
        }
        if phis_deleted {
            func.retain_phis(b, |_, i| !deleted(i));
        }
        func.retain_insts_mut(b, |f, i| {
            if deleted(i) {
                return false;
            }
            f.for_each_operand_mut(i, |o| forest.rewrite(o));
            true
        });
        func.for_each_term_operand_mut(b, |o| forest.rewrite(o));
    }
}

#[cfg(test)]
mod tests {
    use crate::opt::testing::check;

    #[test]
    fn a_second_definition_gives_the_error_definitions_gives() {
        // A parameter redefined, a copy defined twice (the second in an
        // unreachable block), a phi's result redefined: the error is the
        // one `definitions` reports, and the function is left as it was.
        for src in [
            "function f(a) {\nentry:\n    b = a\n    a = 1\n    ret b\n}\n",
            "function f(a) {\nentry:\n    x = a\n    ret x\ndead:\n    x = a\n    ret x\n}\n",
            "function f(a, c) {\nentry:\n    branch c, l, j\nl:\n    jump j\nj:\n    x = phi(entry: a, l: a)\n    x = a\n    ret x\n}\n",
        ] {
            let mut f = crate::text::parse_module(src).unwrap().functions.remove(0);
            let want = crate::analysis::def_use::definitions(&f).unwrap_err();
            let got = super::run_uncompacted(&mut f).unwrap_err();
            assert_eq!(got.to_string(), want.to_string());
            assert_eq!(crate::text::print_function(&f), src);
        }
    }

    #[test]
    fn chains_of_copies_resolve_to_their_root() {
        // y = x = a, written out of dominance order is impossible in SSA,
        // but a chain across blocks is not: every use, the branch and the
        // return included, reads `a`.
        let s = check(
            "function f(a) {
entry:
    x = a
    y = x
    print x, y
    branch y, t, e
t:
    z = y
    ret z
e:
    ret 0
}",
            "copy-prop",
            "function f(a) {
entry:
    print a, a
    branch a, t, e
t:
    ret a
e:
    ret 0
}
",
        );
        assert_eq!(s.copies_propagated, 3);
    }

    #[test]
    fn copies_of_constants_and_undef_stay() {
        check(
            "function f() {
entry:
    x = 1
    y = undef
    z = x
    print y, z
    ret
}",
            "copy-prop",
            "function f() {
entry:
    x = 1
    y = undef
    print y, x
    ret
}
",
        );
    }

    #[test]
    fn a_loop_invariant_phi_is_trivial() {
        // x2 only ever receives x1 or itself: it is the copy x2 = a.
        check(
            "function f(a, n) {
entry:
    x1 = a
    jump head
head:
    x2 = phi(entry: x1, body: x2)
    i1 = phi(entry: 0, body: i2)
    c = i1 < n
    branch c, body, exit
body:
    i2 = i1 + x2
    jump head
exit:
    ret x2
}",
            "copy-prop",
            "function f(a, n) {
entry:
    jump head
head:
    i1 = phi(entry: 0, body: i2)
    c = i1 < n
    branch c, body, exit
body:
    i2 = i1 + a
    jump head
exit:
    ret a
}
",
        );
    }

    #[test]
    fn simplifying_one_phi_makes_another_trivial() {
        // In layout order h is seen first, with operands a and j: not
        // trivial. Then j = phi(l: h, r: h) is, and forwarding j to h
        // queues h again, now phi(entry: a, join: h): trivial too.
        let s = check(
            "function f(a, c) {
entry:
    jump head
head:
    h = phi(entry: a, join: j)
    branch c, l, r
l:
    jump join
r:
    jump join
join:
    j = phi(l: h, r: h)
    branch j, head, exit
exit:
    ret h
}",
            "copy-prop",
            "function f(a, c) {
entry:
    jump head
head:
    branch c, l, r
l:
    jump join
r:
    jump join
join:
    branch a, head, exit
exit:
    ret a
}
",
        );
        assert_eq!(s.phis_simplified, 2);
    }

    #[test]
    fn phis_of_one_constant_or_with_undef_are_not_copies() {
        let src = "function f(c) {
entry:
    branch c, l, r
l:
    jump join
r:
    jump join
join:
    x = phi(l: 1, r: 1)
    y = phi(l: c, r: undef)
    print x, y
    ret
}
";
        check(src, "copy-prop", src);
    }

    #[test]
    fn the_lost_copy_appears() {
        // Construction of examples/lost_copy_source.ssa, pruned. The result
        // is the golden file that tests/opt.rs (construction, then
        // copy-prop) and the CLI's `opt` test expect too.
        check(
            "function main(n) {
entry:
    x1 = 1
    jump loop
loop:
    x2 = phi(entry: x1, loop: x3)
    y1 = x2
    x3 = y1 + 1
    c1 = x3 < n
    branch c1, loop, exit
exit:
    ret y1
}",
            "copy-prop",
            include_str!("../../tests/golden/lost_copy_source.pruned.copy-prop.ssa"),
        );
    }

    #[test]
    fn the_swap_appears() {
        check(
            "function main(n) {
entry:
    a1 = 1
    b1 = 2
    jump loop
loop:
    a2 = phi(entry: a1, loop: a3)
    b2 = phi(entry: b1, loop: b3)
    t1 = a2
    a3 = b2
    b3 = t1
    c1 = a3 < n
    branch c1, loop, exit
exit:
    ret a2
}",
            "copy-prop",
            "function main(n) {
entry:
    a1 = 1
    b1 = 2
    jump loop
loop:
    a2 = phi(entry: a1, loop: b2)
    b2 = phi(entry: b1, loop: a2)
    c1 = b2 < n
    branch c1, loop, exit
exit:
    ret a2
}
",
        );
    }

    #[test]
    fn unreachable_copies_are_left_alone() {
        // `dead` cannot run: its copy is not propagated (dominance says
        // nothing there), though its uses of reachable copies are rewritten.
        let src = "function f(a) {
entry:
    x = a
    ret x
dead:
    y = x
    z = y
    ret z
}";
        check(
            src,
            "copy-prop",
            "function f(a) {
entry:
    ret a
dead:
    y = a
    z = y
    ret z
}
",
        );
    }

    #[test]
    fn copies_of_results_propagate_and_operations_stay() {
        check(
            "operator i32.pair pure

function f(p: i32) {
entry:
    (s: i32, t: i32) = i32.pair(p)
    u: i32 = t
    (x, y) = g(p)
    z = y
    ret u, z
}",
            "copy-prop",
            "function f(p: i32) {
entry:
    (s: i32, t: i32) = i32.pair(p)
    (x, y) = g(p)
    ret t, y
}
",
        );
    }
}
