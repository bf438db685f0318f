//! Values that stay on the operand stack instead of going through a
//! local, as LLVM's WebAssembly register stackifier does
//! (`WebAssemblyRegStackify.cpp`: a def with one use becomes the operand
//! of its user's expression tree).
//!
//! One scan per block ([`Scan::block`]): each instruction, then the
//! terminator, is a *user* whose operands are matched from the last to
//! the first against the trees before it. The rules, each one method:
//!
//! 1. **Match a child** ([`Scan::match_child`]): an operand defined in the
//!    block before the user's tree so far, by an instruction with that
//!    single result, not absorbed yet.
//! 2. **Stay on the stack**: read once, the definition right before the
//!    tree becomes a child, and the match goes on before its tree.
//! 3. **Move** ([`Scan::may_move`]): further up, the child's tree moves
//!    down to its user when its effects allow (none; or reads and traps,
//!    crossing no write and no other trap), nothing in between writes
//!    what it reads, and nothing reads a value tee'd in it.
//! 4. **Tee** ([`Scan::may_tee`]): a value read more than once (or a
//!    definition of a phi web's variable) ends with `local.tee` in the
//!    tree of its first reader, when that reader reads it once, right
//!    after the definition, and the tee keeps no tree from joining.
//! 5. **Steal a tee** ([`Scan::steal_tee`]): a child tree kept out only
//!    because its user reads, at an earlier operand, a value tee'd in
//!    it gives that tee to the user's read, first in emitted order.
//! 6. **Keep under later trees** ([`Scan::keep_under`]): a value read
//!    once, as its reader's first operand later in the block, stays on
//!    the stack under the trees in between (properly nested: [`nests`];
//!    at most [`WINDOW`] positions when a call is among them). Also a
//!    value read more than once, for its first reader when that reader
//!    could join no tree anyway ([`Scan::tee_under`]): its definition
//!    ends with `local.tee` for the later reads
//!    ([`Stackified::tee_under`]), as LLVM keeps a hash round's sum.
//! 7. **Place the roots** ([`Scan::place_roots`]): where each
//!    instruction's reads happen as far as locals can tell
//!    ([`Stackified::at`]).
//! 8. **Place the reads** ([`Scan::place_reads`]): in a tree emitted in
//!    place, a `local.get` of the user's runs between its children, not
//!    at the root (`(a & b) ^ ((a & c) ^ (b & c))` reads `a` for the
//!    last time before `c`'s tee: one local for both, as LLVM writes
//!    it) ([`Stackified::read_at`]).
//! 9. **Join with a value under trees** ([`Scan::pin_pays`]): a tree
//!    that reads a value left on the stack under trees (rule 6) may
//!    still become a child, as its user's *first* operand, right
//!    before the user's tree (in place, not moved): nothing of the
//!    user is pushed before it, so the value is still right under the
//!    tree's own pushes; the user then reads that value too (it joins
//!    only so in turn). Only when the chain of first readers above
//!    loses no join: a reader right after it taking it at another
//!    operand would have to set a local instead. The point is the tee
//!    (a hash round's `T1`, read twice: `local.tee` in its first
//!    reader instead of `local.set; local.get`).
//! 10. **Commute** ([`Scan::commute_pays`]): a commutative binary
//!     operation (`add`, `mul`, `and`, `or`, `xor`, `eq`, `ne`) whose
//!     second operand's tree, right before it, reads a value under
//!     trees, and whose first operand is a leaf (a `local.get` whatever
//!     the scan decides, [`Scan::leaf`]), takes its operands the other
//!     way round ([`Plan::swap_operands`]): the tree joins as the first
//!     operand (rule 9) and the `local.get` comes after it. Same value,
//!     no effect moved; the read happens later, still before the root
//!     writes.
//! 11. **Join past a later tainted read** (in [`Scan::match_children`]):
//!     a child tree right before its user's tree, holding the tee of a
//!     value the user reads too, joins when every such read is at a
//!     later operand than the child's: the child's tree, tee included,
//!     runs before those `local.get`s are pushed. (Rule *taint* kept it
//!     out because the user's own operands may come first; rule 5 covers
//!     the reads at earlier operands.) A hash round's `Ch(e, f, g)`,
//!     whose `e` is tee'd inside, joins the round's sum that reads `e`
//!     again after it. Not when the user's result would then be kept
//!     out of its own reader, which reads such a value before it
//!     ([`Scan::keeps_join`]).
//!
//! Also: a value never read is dropped, a copy into it not emitted
//! ([`discount_dead_copies`]), nor a literal nothing reads.
//!
//! Why the order stays right: a tree is emitted in post-order, children
//! in operand order, so every instruction with an effect runs in its
//! original order; only the pushes of the user's own non-child operands
//! (`local.get`, literals) happen before its later children run, and a
//! child writes no local (its only result stays on the stack). A tee'd
//! definition writes its local later than its position says: locals see
//! it live from its position, earlier, which only adds interference.

use super::ctl::{Ctl, Structured};
use super::error::EmitError;
use super::key::key;
#[cfg(test)]
use super::lower::Lowering;
use super::plan::{Node, Plan, Want};
use ssakit::entity::{Csr, EntityRef, EntityVec, PackedOption};
use ssakit::ir::{Block, Effects, Function, Inst, InstData, Operand, Var};

key!(
    /// A position in a block: its `k`-th instruction, or its terminator
    /// at the block's length.
    Pos
);

key!(
    /// A position numbered across the blocks of the structure, in their
    /// order: block by block, each instruction then the terminator, so
    /// that a point of an earlier block is smaller than every point of a
    /// later one ([`Scan::in_block`]).
    Point
);

/// Which values stay on the stack: side tables by variable and by
/// instruction.
#[derive(Clone, Debug)]
pub(crate) struct Stackified {
    /// Per variable: its value stays on the stack.
    pub(crate) on_stack: EntityVec<Var, bool>,
    /// Per variable: never read (its definitions drop their value).
    pub(crate) dead: EntityVec<Var, bool>,
    /// Per variable: its value stays on the stack *under* the trees in
    /// between, from its definition, emitted at its own place, to its one
    /// reader, whose first operand it is (see the module documentation).
    pub(crate) stacked: EntityVec<Var, bool>,
    /// Per variable: its first reader, whose first operand it is, when
    /// its value waits on the stack under later trees for that reader,
    /// its definition ending with `local.tee` (the later reads are
    /// `local.get`s).
    pub(crate) tee_under: EntityVec<Var, Option<Node>>,
    /// Per variable: its last definition in the emitted order (the one
    /// when `on_stack` or `tee_in`).
    pub(crate) def: EntityVec<Var, PackedOption<Inst>>,
    /// Per instruction: emitted inside its user's tree.
    pub(crate) absorbed: EntityVec<Inst, bool>,
    /// Per instruction: the position in its block of the root of the
    /// tree it is emitted in (the block's length for its terminator), its
    /// own position when it is a root or absorbed in place up to the
    /// root. Every read of a tree happens after the roots before it and
    /// before its root writes, so this is where its reads are, as far as
    /// locals can tell.
    pub(crate) at: EntityVec<Inst, u32>,
    /// Per instruction emitted in place up to its root, its reads of
    /// locals that come before some child's tree: `(variable, position)`,
    /// the position in its block after which the `local.get` runs (the
    /// start of the instruction's tree, or the position of the child
    /// emitted last before it, plus one), earlier than [`Stackified::at`]
    /// (see [`Stackified::read_at`]). Filled by rule 8; empty for the
    /// others.
    reads: Csr<Inst, (Var, u32)>,
    /// Per variable: the user whose tree takes its value from the stack
    /// through a `local.tee` (the definition, read more than once, is
    /// emitted in that tree, at that operand; every other read is a
    /// `local.get` after it).
    pub(crate) tee_in: EntityVec<Var, Option<Node>>,
    /// Per instruction: its result ends with `local.tee` (a definition in
    /// [`Stackified::tee_in`], or one of a variable with several, in
    /// [`Stackified::child`]).
    pub(crate) teed: EntityVec<Inst, bool>,
    /// The tees of variables with several definitions (phi webs after
    /// destruction, parameters written again): `(user, variable,
    /// definition)`, sorted, for [`Stackified::child`].
    multi_tees: Vec<(Node, Var, Inst)>,
    /// Per variable: one of its definitions is in `multi_tees`.
    multi_teed: EntityVec<Var, bool>,
}

/// Dead copies: a copy into a variable never read is not emitted
/// ([`super`] skips it), so it is not a read of its source either.
/// Copies that feed only copies nothing reads are dead too, in chains and
/// in cycles. Marked
/// as dead-code elimination marks what is useful: a variable is *live*
/// when an instruction other than a copy, or a terminator, reads it, or
/// when a copy into a live variable reads it; the copies into the others
/// give back their read of their source. Webs of copies that feed only
/// each other, cycles included (the phis of minimal SSA that nothing
/// reads, after destruction without coalescing), disappear whole. Only
/// copies: any other instruction may trap or have an effect, and keeps
/// its operands read. Linear: the copies grouped by destination
/// ([`Csr`]), each looked at once by the marking and once by the recount.
fn discount_dead_copies(
    f: &Function,
    s: &Structured,
    uses: &mut EntityVec<Var, u32>,
    is_param: &EntityVec<Var, bool>,
) {
    // The copies of the emitted code, and how many of each variable's
    // reads are copies.
    let nv = f.num_vars();
    let mut copy_reads: EntityVec<Var, u32> = EntityVec::filled(nv, 0);
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
                copy_reads[src] += 1;
            }
        }
    }
    let src_of: Csr<Var, Var> = Csr::from_pairs(f.num_vars(), copies.iter().copied());
    // Roots: read by something that is not a copy (parameters too: they
    // are never dropped).
    let mut live: EntityVec<Var, bool> = EntityVec::filled(nv, false);
    let mut work: Vec<Var> = Vec::new();
    for v in f.vars() {
        if uses[v] > copy_reads[v] || is_param[v] {
            live[v] = true;
            work.push(v);
        }
    }
    while let Some(v) = work.pop() {
        for &src in src_of.of(v) {
            if !live[src] {
                live[src] = true;
                work.push(src);
            }
        }
    }
    for &(dst, src) in &copies {
        if !live[dst] {
            uses[src] -= 1;
        }
    }
}

impl Stackified {
    /// Where, in its block, instruction `i` reads `v` from its local as
    /// far as locals can tell: after the writes of the positions before
    /// the one returned, before those from it on. [`Stackified::at`]
    /// unless rule 8 placed the read earlier, between children emitted
    /// in place (of a variable read twice, the later read).
    pub(crate) fn read_at(&self, i: Inst, v: Var) -> u32 {
        (self.reads.of(i).iter())
            .filter(|&&(w, _)| w == v)
            .map(|&(_, p)| p)
            .max()
            .unwrap_or(self.at[i])
    }

    /// The definition emitted inside `user`'s tree for its operand `t`
    /// (on the stack, or ending with `local.tee`), if any.
    pub(crate) fn child(&self, user: Node, t: Var) -> Option<Inst> {
        if self.on_stack[t] || self.tee_in[t] == Some(user) {
            return self.def[t].expand();
        }
        if !self.multi_teed[t] {
            return None;
        }
        let key = (user, t);
        let at = self.multi_tees.partition_point(|&(u, v, _)| (u, v) < key);
        match self.multi_tees.get(at) {
            Some(&(u, v, d)) if (u, v) == key => Some(d),
            _ => None,
        }
    }

    /// `i` is not emitted, and no user of its operands (the emitter and
    /// the tree matching both ask this): a copy into a variable never
    /// read, or an instruction without effects whose results are never
    /// read and whose operands are all literals (the lifter's explicit
    /// zero at entry of an `f64` local nothing reads, `f64.const[0]()`,
    /// would otherwise be a constant and a `drop`).
    pub(crate) fn drops(&self, f: &Function, i: Inst) -> bool {
        if let InstData::Copy { dst, .. } = *f.inst(i) {
            return self.dead[dst];
        }
        let mut read = false;
        f.for_each_operand(i, |o| read |= matches!(o, Operand::Var(_)));
        let mut live = false;
        f.for_each_def(i, |v| live |= !self.dead[v]);
        !read && !live && effects_of(f, i).is_pure()
    }
}

/// The single result of `i` when it can be a child.
pub(crate) fn single_def(f: &Function, i: Inst) -> Option<Var> {
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

/// The effects of instruction `i` for moving it ([`Function::effects`],
/// except that a builtin `/` or `%` by a constant, pure there, traps: its
/// `i64.div_s` traps on `i64::MIN / -1`).
fn effects_of(f: &Function, i: Inst) -> Effects {
    match *f.inst(i) {
        InstData::Binary { op, .. } if op.may_trap() => Effects::TRAP,
        InstData::Copy { .. }
        | InstData::Unary { .. }
        | InstData::Binary { .. }
        | InstData::ParCopy { .. } => Effects::PURE,
        _ => f.effects(i),
    }
}

/// Whether `i` is emitted as a call (where an engine records the operand
/// stack): a call, or a `print` (a call of the host's).
fn calls(f: &Function, i: Inst) -> bool {
    matches!(f.inst(i), InstData::Print { .. }) || f.effects(i).contains(Effects::CALL)
}

/// How many positions of its block a value may wait under the trees
/// after it when a call comes in between: engines record the operand
/// stack at every call (V8 for its stack maps), so values kept under long
/// runs of statements cost them memory per call times depth (docs/wasm.md
/// has the measurement); Go's pattern (`call; global.get SP; local.set
/// SP; br_if`) needs two. Without a call in between, a value waits under
/// any number of positions (*no call, no window*): LLVM's unrolled hash
/// rounds keep a dozen loads on the stack for hundreds of instructions.
const WINDOW: usize = 8;

/// How many open values [`nests`] looks past before giving up (a bound,
/// so that the whole stays linear).
const NEST_TRIES: usize = 32;

/// Whether a value defined at `k` and read at `j` nests with the values
/// left on the stack so far (`open`, by reader, the innermost last): no
/// value defined before `k` is read between `k` and `j` (it would sit
/// under this one); records it when so. The values read after `k` and
/// defined after it lie inside and are forgotten: any later value that
/// crossed them crosses this one too.
fn nests(open: &mut Vec<(usize, usize)>, k: usize, j: usize) -> bool {
    let inside = open
        .iter()
        .rev()
        .take(NEST_TRIES + 1)
        .take_while(|&&(d, _)| d > k)
        .count();
    if inside > NEST_TRIES {
        return false;
    }
    let keep = open.len() - inside;
    if matches!(open[..keep].last(), Some(&(_, r)) if r > k) {
        return false;
    }
    open.truncate(keep);
    open.push((k, j));
    true
}

/// The root of the tree position `k` is in, following the links `up`
/// from each absorbed position to its user, and pointing each position
/// passed straight at the root (path compression: a tree only ever grows
/// at its root, so an ancestor stays one).
fn root(up: &mut [PackedOption<Pos>], k: usize) -> usize {
    let mut r = k;
    while let Some(u) = up[r].expand() {
        r = u.index();
    }
    let mut p = k;
    while let Some(next) = up[p].expand().map(Pos::index).filter(|&u| u != r) {
        up[p] = PackedOption::some(Pos::new(r));
        p = next;
    }
    r
}

/// The earlier of two positions, an absent one being never (past every
/// position).
fn earlier(a: PackedOption<Pos>, b: PackedOption<Pos>) -> PackedOption<Pos> {
    match (a.expand(), b.expand()) {
        (Some(x), Some(y)) => PackedOption::some(x.min(y)),
        (Some(_), None) => a,
        _ => b,
    }
}

/// A read, by the user being matched, of a value tee'd in an earlier
/// tree: the root of that tree, the variable, the user's operand.
#[derive(Clone, Copy, Debug)]
struct Taint {
    root: usize,
    var: Var,
    operand: usize,
}

/// A tee taken over from a child's tree by its user's earlier operand
/// ([`Scan::steal_tee`]): that operand, the variable, and the position of
/// its definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct StolenTee {
    operand: usize,
    var: Var,
    def: usize,
}

/// A definition that may become a child of the user being matched
/// ([`Scan::match_child`]): the variable read, its definition, the
/// definition's position, and whether the variable has several
/// definitions (or is a parameter written again).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    var: Var,
    def: Inst,
    at: usize,
    multi: bool,
}

/// The state of the per-block scan: function-wide tables, then per
/// block, per position (the terminator last), what the trees matched so
/// far are.
struct Scan<'f, 'p> {
    f: &'f Function,
    plan: &'p mut Plan,
    /// Scratch: the operands of the user being matched.
    ops: Vec<(Operand, Want)>,
    st: Stackified,
    /// Per variable: its reads, the copies into dead variables left out.
    uses: EntityVec<Var, u32>,
    /// Per variable: its definitions.
    defs: EntityVec<Var, u32>,
    is_param: EntityVec<Var, bool>,
    /// Where each instruction sits in its block (checked against the
    /// block's list: an instruction of another block is never moved).
    index_of: EntityVec<Inst, PackedOption<Pos>>,
    /// The first point of the block being scanned.
    base: usize,
    /// Per variable, points of the function: its last read so far, the
    /// user it is tee'd in, its last definition so far, the definition
    /// tee'd in that user, its first reader in the block being scanned.
    /// A point before `base` is of another block.
    last_read: EntityVec<Var, PackedOption<Point>>,
    tee_user: EntityVec<Var, PackedOption<Point>>,
    last_def: EntityVec<Var, PackedOption<Point>>,
    tee_def: EntityVec<Var, PackedOption<Point>>,
    reader: EntityVec<Var, PackedOption<Point>>,
    /// Per variable, scratch: the next definition in the block (backward
    /// walk), and the variables it was set for.
    next_def: EntityVec<Var, PackedOption<Pos>>,
    touched: Vec<Var>,
    /// The block being scanned: its instructions and terminator.
    block: Block,
    insts: &'f [Inst],
    /// Per position: where its tree so far starts.
    start: Vec<usize>,
    /// Per position, for the tree rooted there: the union of its
    /// instructions' effects ([`effects_of`]), and the first position
    /// after it where a variable it reads from a local is written again
    /// (none: never).
    tree_eff: Vec<Effects>,
    next_write: Vec<PackedOption<Pos>>,
    /// Per position: how many instructions before it write (or call),
    /// and how many may trap.
    writes_before: Vec<u32>,
    traps_before: Vec<u32>,
    /// Per position: how many calls ([`calls`]) come before it in the
    /// block ([`WINDOW`]: a value may wait past the window under trees
    /// without a call).
    calls_before: Vec<u32>,
    /// The position of each absorbed instruction's user, and the same
    /// links for [`root`] to compress.
    user: Vec<PackedOption<Pos>>,
    up: Vec<PackedOption<Pos>>,
    /// Per position, for the tree rooted there: the last position after
    /// it that reads a variable tee'd inside it.
    tainted: Vec<PackedOption<Pos>>,
    /// Per position: absorbed right before its user's tree so far (not
    /// moved).
    in_place: Vec<bool>,
    /// Per position: its tree holds a moved child.
    moved_in: Vec<bool>,
    /// Per position: its tree reads a value left on the stack before it
    /// (a child only as rule 9 allows: a first operand, in place).
    pinned: Vec<bool>,
    /// The `(definition, reader)` positions of the values left on the
    /// stack under trees, properly nested, the innermost last.
    open: Vec<(usize, usize)>,
    /// The user's reads of values tee'd in earlier trees.
    taints: Vec<Taint>,
    /// Rule 8's reads placed earlier than their root, of every block so
    /// far ([`Stackified::reads`]), and per position of the block the
    /// positions absorbed into it, as `(user, child)` pairs (scratch).
    early_reads: Vec<(Inst, (Var, u32))>,
    children: Vec<(usize, usize)>,
    /// The positions of the block's definitions whose tee a user took
    /// over ([`Scan::steal_tee`]), sorted: emitted at that user's
    /// operand, before the positions around them.
    stolen: Vec<usize>,
}

impl<'f, 'p> Scan<'f, 'p> {
    /// The function-wide tables: reads and definitions counted in the
    /// emitted code, dead variables, each instruction's position.
    fn new(f: &'f Function, plan: &'p mut Plan, s: &Structured) -> Self {
        let (nv, ni) = (f.num_vars(), f.inst_slots());
        let mut uses: EntityVec<Var, u32> = EntityVec::filled(nv, 0);
        let mut defs: EntityVec<Var, u32> = EntityVec::filled(nv, 0);
        let mut def: EntityVec<Var, PackedOption<Inst>> = EntityVec::filled(nv, PackedOption::NONE);
        let mut index_of: EntityVec<Inst, PackedOption<Pos>> =
            EntityVec::filled(ni, PackedOption::NONE);
        for c in &s.items {
            let Ctl::Body(b) = *c else { continue };
            for (k, &i) in f.block_insts(b).iter().enumerate() {
                f.for_each_operand(i, |o| {
                    if let Operand::Var(v) = o {
                        uses[v] += 1;
                    }
                });
                f.for_each_def(i, |v| {
                    defs[v] += 1;
                    def[v] = PackedOption::some(i);
                });
                index_of[i] = PackedOption::some(Pos::new(k));
            }
            f.for_each_term_use(b, |v| uses[v] += 1);
        }
        let mut is_param: EntityVec<Var, bool> = EntityVec::filled(nv, false);
        for &p in f.params() {
            is_param[p] = true;
        }
        discount_dead_copies(f, s, &mut uses, &is_param);
        let mut dead = EntityVec::filled(nv, false);
        for v in f.vars() {
            dead[v] = uses[v] == 0 && !is_param[v];
        }
        let never = || EntityVec::filled(nv, PackedOption::NONE);
        Scan {
            f,
            plan,
            ops: Vec::new(),
            st: Stackified {
                on_stack: EntityVec::filled(nv, false),
                stacked: EntityVec::filled(nv, false),
                tee_under: EntityVec::filled(nv, None),
                dead,
                def,
                absorbed: EntityVec::filled(ni, false),
                at: EntityVec::filled(ni, 0),
                reads: Csr::from_pairs(0, []),
                tee_in: EntityVec::filled(nv, None),
                teed: EntityVec::filled(ni, false),
                multi_tees: Vec::new(),
                multi_teed: EntityVec::filled(nv, false),
            },
            uses,
            defs,
            is_param,
            index_of,
            base: 0,
            last_read: never(),
            tee_user: never(),
            last_def: never(),
            tee_def: never(),
            reader: never(),
            next_def: EntityVec::filled(nv, PackedOption::NONE),
            touched: Vec::new(),
            block: Block::new(0),
            insts: &[],
            start: Vec::new(),
            tree_eff: Vec::new(),
            next_write: Vec::new(),
            writes_before: Vec::new(),
            traps_before: Vec::new(),
            calls_before: Vec::new(),
            user: Vec::new(),
            up: Vec::new(),
            tainted: Vec::new(),
            in_place: Vec::new(),
            moved_in: Vec::new(),
            pinned: Vec::new(),
            open: Vec::new(),
            taints: Vec::new(),
            early_reads: Vec::new(),
            children: Vec::new(),
            stolen: Vec::new(),
        }
    }

    /// Point `k` of the block being scanned.
    fn point(&self, k: usize) -> Point {
        Point::new(self.base + k)
    }

    /// The position in the block being scanned of point `p`, if it is
    /// one of its points.
    fn in_block(&self, p: PackedOption<Point>) -> Option<usize> {
        p.expand().and_then(|p| p.index().checked_sub(self.base))
    }

    /// A variable defined once and read once (not a parameter).
    fn once(&self, v: Var) -> bool {
        self.uses[v] == 1 && self.defs[v] == 1 && !self.is_param[v]
    }

    /// Scans block `b`: each position in order as a user, then the
    /// roots placed. `term_next`: its terminator's tree is emitted right
    /// after the body (a value may stay on the stack into it).
    fn block(&mut self, b: Block, term_next: bool) -> Result<(), EmitError> {
        self.prepare(b);
        let n = self.insts.len();
        for j in 0..=n {
            self.user_at(j, j < n || term_next)?;
        }
        self.place_roots();
        self.place_reads()?;
        self.base += n + 1;
        Ok(())
    }

    /// The per-position tables of block `b`, and one backward walk: each
    /// variable's first reader in the block, and per position the first
    /// later one where a variable it reads is written again.
    fn prepare(&mut self, b: Block) {
        let f = self.f;
        let insts = f.block_insts(b);
        let n = insts.len();
        (self.block, self.insts) = (b, insts);
        self.pinned.clear();
        self.pinned.resize(n + 1, false);
        self.stolen.clear();
        self.open.clear();
        self.start.clear();
        self.tree_eff.clear();
        self.tree_eff
            .extend(insts.iter().map(|&i| effects_of(f, i)));
        self.tree_eff.push(Effects::CALL);
        self.writes_before.clear();
        self.traps_before.clear();
        self.calls_before.clear();
        let (mut w, mut t, mut c) = (0, 0, 0);
        for (k, e) in self.tree_eff.iter().enumerate() {
            self.writes_before.push(w);
            self.traps_before.push(t);
            self.calls_before.push(c);
            w += e.writes() as u32;
            t += e.may_trap() as u32;
            c += insts.get(k).is_none_or(|&i| calls(f, i)) as u32;
        }
        for table in [&mut self.user, &mut self.up, &mut self.tainted] {
            table.clear();
            table.resize(n + 1, PackedOption::NONE);
        }
        self.next_write.clear();
        self.next_write.resize(n + 1, PackedOption::NONE);
        for table in [&mut self.in_place, &mut self.moved_in] {
            table.clear();
            table.resize(n + 1, false);
        }
        let term = PackedOption::some(self.point(n));
        f.for_each_term_use(b, |v| self.reader[v] = term);
        for (k, &i) in insts.iter().enumerate().rev() {
            let mut w = PackedOption::NONE;
            let here = PackedOption::some(self.point(k));
            f.for_each_operand(i, |o| {
                if let Operand::Var(v) = o {
                    w = earlier(w, self.next_def[v]);
                    self.reader[v] = here;
                }
            });
            self.next_write[k] = w;
            f.for_each_def(i, |v| {
                if self.next_def[v].expand().is_none() {
                    self.touched.push(v);
                }
                self.next_def[v] = PackedOption::some(Pos::new(k));
            });
        }
        for v in self.touched.drain(..) {
            self.next_def[v] = PackedOption::NONE;
        }
    }

    /// The node at position `j` of the block as a user: its operands
    /// matched against the trees before it, then the value under trees
    /// it may read (`may_stack`: its tree is emitted with the body).
    fn user_at(&mut self, j: usize, may_stack: bool) -> Result<(), EmitError> {
        let node = match self.insts.get(j) {
            Some(&i) => Node::Inst(i),
            None => Node::Term(self.block),
        };
        // A copy into a dead variable (or a dead literal) is not
        // emitted: it is no user, and nothing before it can join a
        // tree past it.
        if matches!(node, Node::Inst(i) if self.st.drops(self.f, i)) {
            self.start.push(j);
            return Ok(());
        }
        if matches!(node, Node::Inst(i) if self.commute_pays(i, j)) {
            let Node::Inst(i) = node else { unreachable!() };
            self.plan.swap_operands(i);
        }
        let mut ops = std::mem::take(&mut self.ops);
        ops.clear();
        ops.extend_from_slice(self.plan.operands(node)?);
        self.mark_taints(j, &ops);
        let cursor = self.match_children(node, j, &ops);
        if may_stack {
            self.keep_under(j, &ops, cursor);
        }
        let here = PackedOption::some(self.point(j));
        for &(o, _) in &ops {
            if let Operand::Var(v) = o {
                self.last_read[v] = here;
            }
        }
        self.ops = ops;
        if let Node::Inst(i) = node {
            self.f.for_each_def(i, |v| self.last_def[v] = here);
        }
        self.start.push(cursor);
        Ok(())
    }

    /// Rule *taint*: a read of a variable tee'd in an earlier tree; that
    /// tree may no longer move past here (nor, when this reads it, join
    /// this tree, whose own operands may come first). Not a read of a
    /// later definition (of a variable with several): that definition,
    /// after the tee'd one's reader, keeps the tree holding the tee from
    /// moving here anyway (the reader reads the variable: `next_write`),
    /// and is itself either that tree's root, which joins this reader
    /// only as its tee'd operand, or tee'd, and then `tee_user`'s.
    fn mark_taints(&mut self, j: usize, ops: &[(Operand, Want)]) {
        self.taints.clear();
        for (p, &(o, _)) in ops.iter().enumerate() {
            let Operand::Var(v) = o else { continue };
            let Some(u) = self.in_block(self.tee_user[v]) else {
                continue;
            };
            if self.last_def[v].expand() <= self.tee_def[v].expand() {
                let r = root(&mut self.up, u);
                self.tainted[r] = PackedOption::some(Pos::new(j));
                self.taints.push(Taint {
                    root: r,
                    var: v,
                    operand: p,
                });
            }
        }
    }

    /// The user `node` at `j`: its operands, from the last to the first,
    /// against the tree just before its tree so far (or further up, for
    /// a tree that moves); returns where its tree starts.
    fn match_children(&mut self, node: Node, j: usize, ops: &[(Operand, Want)]) -> usize {
        // Position just before the user's tree so far, plus one.
        let mut cursor = j;
        let mut steal: Option<StolenTee> = None;
        for (q, &(o, _)) in ops.iter().enumerate().rev() {
            let Operand::Var(t) = o else { continue };
            if let Some(s) = steal.filter(|s| s.operand == q) {
                steal = None;
                cursor = self.take_stolen_tee(node, j, s);
                continue;
            }
            let Some(c) = self.match_child(t, cursor) else {
                continue;
            };
            // A tree reading a value under trees joins only as rule 9
            // says (checked once adjacency is known, below).
            // Read more than once: a `local.tee` at this read.
            let tee = c.multi || self.uses[t] != 1;
            let pinned = self.pinned[c.at];
            if pinned && (q != 0 || !matches!(node, Node::Inst(i) if self.pin_pays(i, j))) {
                continue;
            }
            if tee && !self.may_tee(node, ops, o, c) {
                continue;
            }
            let at_j = PackedOption::some(Pos::new(j));
            let k = c.at;
            // Right before the tree: no instruction changes order.
            let right_before = k + 1 == cursor;
            // Rule 11: tainted only by reads at later operands, pushed
            // after the child's tree has run its tees.
            let later = |t: &Taint| t.root != k || t.operand > q;
            let mut adjacent = right_before
                && (self.tainted[k] != at_j
                    || (self.taints.iter().all(later) && self.keeps_join(node, k)));
            // Tainted by this user's read of a value tee'd first in it:
            // the tee moves to that read, first in emitted order.
            let stolen = (right_before && self.tainted[k] == at_j && !tee)
                .then(|| self.steal_tee(ops, k, q))
                .flatten();
            adjacent |= stolen.is_some();
            if pinned && !(right_before && stolen.is_none() && self.tainted[k] != at_j) {
                continue;
            }
            if !(adjacent || self.may_move(k, j, tee)) {
                continue;
            }
            if stolen.is_some() {
                steal = stolen;
            }
            self.absorb(node, j, c, tee, adjacent);
            // Rule 9: the user now reads the value under trees itself.
            self.pinned[j] |= pinned;
            if right_before {
                cursor = self.start[k];
            }
        }
        cursor
    }

    /// Rule *commute*: the user at `j`, a commutative binary operation
    /// ([`Plan::commutes`]) whose second operand's tree is right before
    /// it and reads a value under trees (it may join only as a first
    /// operand: rule 9), and whose first operand is a leaf
    /// ([`Scan::leaf`]), takes its operands the other way round. Pushing
    /// a `local.get` after a tree instead of before it changes no value
    /// and moves no effect; its read happens later, still before the
    /// user's root writes ([`Stackified::at`]).
    fn commute_pays(&self, i: Inst, j: usize) -> bool {
        if !self.plan.commutes(i) {
            return false;
        }
        let Ok(&[(Operand::Var(a), _), (Operand::Var(b), _)]) = self.plan.operands(Node::Inst(i))
        else {
            return false;
        };
        let Some(c) = self.match_child(b, j) else {
            return false;
        };
        a != b && c.at + 1 == j && self.pinned[c.at] && self.leaf(a, j)
    }

    /// Whether `a`, read at `j` or later, is pushed with a `local.get`
    /// whatever the scan decides: a parameter never written, or a
    /// variable defined once outside this block, or in it before `j`
    /// and read since (no child, no value kept under trees, no tee).
    fn leaf(&self, a: Var, j: usize) -> bool {
        if self.is_param[a] {
            return self.defs[a] == 0;
        }
        if self.defs[a] != 1 {
            return false;
        }
        let Some(d) = self.st.def[a].expand() else {
            return false;
        };
        let Some(k) = self.index_of[d].expand().map(Pos::index) else {
            return true;
        };
        if self.insts.get(k) != Some(&d) {
            return true;
        }
        let read_since = self.in_block(self.last_read[a]).is_some_and(|r| r > k);
        k < j && read_since
    }

    /// Rule 9's guard: a tree reading a value under trees joins the user
    /// `i` at `j` only when no join is lost by it: the user, pinned
    /// then, joins its result's first reader only as that reader's first
    /// operand (or its second, of a commutative operation whose first is
    /// a leaf: rule 10 turns it round), and so on up the readers. Lost
    /// is a reader right after a tree of the chain that reads it at
    /// another operand, or a terminator (with the rule, bcrypt's
    /// Blowfish rounds grew by 120 bytes); a reader further away
    /// ([`Scan::nested`]) loses nothing: the tree would not be right
    /// before it. After [`NEST_TRIES`] readers the chain is taken as
    /// paying.
    fn pin_pays(&self, i: Inst, j: usize) -> bool {
        let (mut x, mut at) = (i, j);
        for _ in 0..NEST_TRIES {
            let Some(r) = single_def(self.f, x) else {
                return true;
            };
            // (The first reader in the block of a variable with several
            // definitions may come before this one: not followed.)
            if self.defs[r] != 1 || self.is_param[r] {
                return false;
            }
            let Some(q) = self.in_block(self.reader[r]) else {
                return true;
            };
            let Some(&qi) = self.insts.get(q).filter(|_| q > at) else {
                return false;
            };
            let first = match self.plan.operands(Node::Inst(qi)) {
                Ok(&[(Operand::Var(y), _), ..]) if y == r => true,
                Ok(&[(Operand::Var(a), _), (Operand::Var(b), _)]) => {
                    b == r && a != r && self.plan.commutes(qi) && self.leaf(a, j)
                }
                _ => false,
            };
            if !self.nested(at, q) {
                return true;
            }
            if !first {
                return false;
            }
            (x, at) = (qi, q);
        }
        true
    }

    /// Whether every position strictly between `at` and `q` has a single
    /// result read once, by a position after it up to `q`: the trees
    /// there may all be `q`'s later operands, so that the tree at `at`
    /// may be right before `q`'s (looked at over at most [`WINDOW`] times
    /// [`NEST_TRIES`] positions; further apart, not).
    fn nested(&self, at: usize, q: usize) -> bool {
        if q.saturating_sub(at) > WINDOW * NEST_TRIES {
            return false;
        }
        (at + 1..q).all(|p| {
            single_def(self.f, self.insts[p]).is_some_and(|r| {
                self.uses[r] == 1 && self.in_block(self.reader[r]).is_some_and(|u| u <= q)
            })
        })
    }

    /// Rule 11's guard: the tree at `k`, holding tees, joins the user
    /// `node` only when the user's result can still join its own
    /// reader: that reader reads no variable tee'd in `k`'s tree at an
    /// operand before the user's result (onig's allocator: `select(x,
    /// 0, y <= z)` with `x` tee'd in `y`'s tree, one local more).
    fn keeps_join(&mut self, node: Node, k: usize) -> bool {
        let Node::Inst(i) = node else { return true };
        let Some(r) = single_def(self.f, i) else {
            return true;
        };
        let Some(q) = self.in_block(self.reader[r]) else {
            return true;
        };
        let reader = match self.insts.get(q) {
            Some(&qi) => Node::Inst(qi),
            None => Node::Term(self.block),
        };
        let Ok(ops) = self.plan.operands(reader) else {
            return true;
        };
        let Some(at_r) = ops.iter().position(|&(o, _)| o == Operand::Var(r)) else {
            return true;
        };
        for &(o, _) in &ops[..at_r] {
            let Operand::Var(v) = o else { continue };
            let Some(u) = self.tee_user[v]
                .expand()
                .and_then(|p| p.index().checked_sub(self.base))
            else {
                continue;
            };
            if root(&mut self.up, u) == k {
                return false;
            }
        }
        true
    }

    /// Rule *match a child*: the definition of `t` that may become a
    /// child of the user whose tree so far starts at `cursor`: defined in
    /// this block before that tree, not absorbed, not reading a value
    /// under trees, with `t` its single result. Of a variable with
    /// several definitions (or a parameter's entry value besides), the
    /// one reaching this read is the last in the block before it, if any.
    fn match_child(&self, t: Var, cursor: usize) -> Option<Candidate> {
        let multi = self.is_param[t] || self.defs[t] != 1;
        let d = if multi {
            self.insts[self.in_block(self.last_def[t])?]
        } else {
            self.st.def[t].expand()?
        };
        let k = self.index_of[d].expand()?.index();
        let fits = k < cursor
            && self.insts[k] == d
            && !self.st.absorbed[d]
            && single_def(self.f, d) == Some(t);
        fits.then_some(Candidate {
            var: t,
            def: d,
            at: k,
            multi,
        })
    }

    /// Rule *tee*: a value read more than once is tee'd at this read when
    /// it is the first after the definition (LLVM's
    /// `WebAssemblyRegStackify`: the def's other uses come after its
    /// first), the user's only read of it, and the tee would not keep
    /// the user's tree from joining its own reader ([`Scan::blocks_join`]).
    fn may_tee(&self, node: Node, ops: &[(Operand, Want)], o: Operand, c: Candidate) -> bool {
        let read_before = self.last_read[c.var]
            .expand()
            .is_some_and(|r| r > self.point(c.at));
        !read_before
            && ops.iter().filter(|&&(p, _)| p == o).count() == 1
            && !self.blocks_join(node, c.var)
    }

    /// Whether teeing `t` in `node`'s tree would keep that tree from joining
    /// the one reader of its result, which reads `t` too (`select(1, x, x ==
    /// 0)`: with `x` tee'd in `x == 0`, the `select`'s own `local.get x`
    /// comes first, so `x == 0` would need a local of its own, two bytes more
    /// than the tee saves).
    fn blocks_join(&self, node: Node, t: Var) -> bool {
        let Node::Inst(i) = node else { return false };
        let Some(r) = single_def(self.f, i) else {
            return false;
        };
        if self.uses[r] != 1 {
            return false;
        }
        let Some(q) = self.in_block(self.reader[r]) else {
            return false;
        };
        let mut reads = false;
        match self.insts.get(q) {
            Some(&qi) => self
                .f
                .for_each_operand(qi, |o| reads |= o == Operand::Var(t)),
            None => self.f.for_each_term_use(self.block, |v| reads |= v == t),
        }
        reads
    }

    /// Rule *move*: the tree at `k` moves down to the user at `j` past
    /// the instructions in between when it has no effect (or only reads
    /// and traps, crossing no write or call, and no other trap when it
    /// may trap itself: LLVM's rules), none of them writes what it reads,
    /// and nothing reads a variable tee'd in it before it runs. A tee is
    /// never moved: moving it lengthens its operands' live ranges.
    fn may_move(&self, k: usize, j: usize, tee: bool) -> bool {
        let e = self.tree_eff[k];
        let crossed = |c: &[u32]| c[j] - c[k + 1];
        !tee && self.next_write[k].expand().is_none_or(|w| w.index() >= j)
            && self.tainted[k].expand().is_none()
            && (e.is_pure()
                || (!e.writes()
                    && crossed(&self.writes_before) == 0
                    && (!e.may_trap() || crossed(&self.traps_before) == 0)))
    }

    /// Rule *steal a tee*: the tee to take over when the child tree at
    /// `k`, operand `q` of its user, may not join it only because the
    /// user reads a value tee'd inside it, at an earlier operand (LLVM
    /// tees an address in the store of a call's result, whose operand
    /// comes first, not in the load among the call's arguments). Only
    /// when that is the one such read of the tree (`taints`), of a
    /// variable defined once, tee'd in one use and read once by the
    /// user, with literals only between the two operands, and the
    /// definition's tree emitted first in the child's (it starts the
    /// child's positions, and no child there was moved): it then moves
    /// only past literal pushes and `local.get`s of other variables, read
    /// later than it writes.
    fn steal_tee(&self, ops: &[(Operand, Want)], k: usize, q: usize) -> Option<StolenTee> {
        let mut mine = self.taints.iter().filter(|t| t.root == k);
        let &Taint {
            var: v, operand: p, ..
        } = mine.next()?;
        let defined_once = self.defs[v] == 1 && !self.is_param[v];
        if mine.next().is_some() || p >= q || !defined_once || self.st.tee_in[v].is_none() {
            return None;
        }
        let reads = ops.iter().filter(|&&(o, _)| o == Operand::Var(v)).count();
        let literals = ops[p + 1..q]
            .iter()
            .all(|&(o, _)| !matches!(o, Operand::Var(_)));
        let kd = self.index_of[self.st.def[v].expand()?].expand()?.index();
        let first = !self.moved_in[k] && self.start[k] == self.start[kd];
        (reads == 1 && literals && first).then_some(StolenTee {
            operand: p,
            var: v,
            def: kd,
        })
    }

    /// The stolen tee reached at its operand: the definition joins the
    /// user `node` at `j` there, tee'd; returns where the tree starts.
    fn take_stolen_tee(&mut self, node: Node, j: usize, s: StolenTee) -> usize {
        let at_j = PackedOption::some(Pos::new(j));
        self.st.tee_in[s.var] = Some(node);
        self.tee_user[s.var] = PackedOption::some(self.point(j));
        self.user[s.def] = at_j;
        self.up[s.def] = at_j;
        self.in_place[s.def] = true;
        self.stolen.push(s.def);
        self.start[s.def]
    }

    /// The candidate `c` becomes a child of the user `node` at `j`: on
    /// the stack, or tee'd (`tee`); `adjacent`: right before the user's
    /// tree, not moved.
    fn absorb(&mut self, node: Node, j: usize, c: Candidate, tee: bool, adjacent: bool) {
        let (t, d, k) = (c.var, c.def, c.at);
        self.st.absorbed[d] = true;
        self.moved_in[j] |= self.moved_in[k] || !adjacent;
        if tee {
            if c.multi {
                self.st.multi_tees.push((node, t, d));
                self.st.multi_teed[t] = true;
            } else {
                self.st.tee_in[t] = Some(node);
            }
            self.st.teed[d] = true;
            self.tee_user[t] = PackedOption::some(self.point(j));
            self.tee_def[t] = PackedOption::some(self.point(k));
        } else {
            self.st.on_stack[t] = true;
        }
        let at_j = PackedOption::some(Pos::new(j));
        self.user[k] = at_j;
        self.up[k] = at_j;
        self.in_place[k] = adjacent;
        self.tree_eff[j] = self.tree_eff[j].union(self.tree_eff[k]);
        self.next_write[j] = earlier(self.next_write[j], self.next_write[k]);
    }

    /// Rule *keep under later trees*: the first operand of the user at
    /// `j` (whose tree so far starts at `cursor`) stays on the stack
    /// since its definition, a root of this block before the tree, when
    /// it is a variable defined once and read once (not a parameter),
    /// by a root with one result, at most [`WINDOW`] positions up when a
    /// call comes in between (any number without), and
    /// nesting with the other such values ([`nests`]).
    fn keep_under(&mut self, j: usize, ops: &[(Operand, Want)], cursor: usize) {
        let Some(&(Operand::Var(t), _)) = ops.first() else {
            return;
        };
        let st = &self.st;
        let teed = !self.once(t) && self.tee_under(j, ops, t);
        if !(self.once(t) || teed) || st.on_stack[t] || st.tee_in[t].is_some() || st.multi_teed[t] {
            return;
        }
        let Some(d) = st.def[t].expand() else {
            return;
        };
        let Some(k) = self.index_of[d].expand().map(Pos::index) else {
            return;
        };
        let root_here = k < cursor
            && self.insts.get(k) == Some(&d)
            && !st.absorbed[d]
            && single_def(self.f, d) == Some(t);
        // (`k < cursor <= j` once `root_here` holds)
        let near = |k: usize| j - k <= WINDOW || self.calls_before[j] == self.calls_before[k + 1];
        if root_here && near(k) && nests(&mut self.open, k, j) {
            if teed {
                self.st.teed[d] = true;
                self.st.tee_under[t] = Some(match self.insts.get(j) {
                    Some(&i) => Node::Inst(i),
                    None => Node::Term(self.block),
                });
            } else {
                self.st.stacked[t] = true;
            }
            self.pinned[j] = true;
        }
    }

    /// Rule *keep a tee under later trees*: a value read more than once
    /// (defined once, not a parameter) may wait on the stack for its
    /// first reader as [`Scan::keep_under`] keeps a value read once, its
    /// definition ending with `local.tee` for the later reads, when the
    /// first reader is the one at `j`, reads it once, the definition is
    /// no copy of a variable (one between variables sharing a local is
    /// not emitted), and the reader could join no tree anyway: it is the terminator, or has no single result, or
    /// its result is read in no later position of the block (a reader
    /// kept on the stack under trees may not join its own reader's tree,
    /// and a tee there is worth more: with readers in the block allowed,
    /// hash-wasm's sha512 grew by 10 bytes and 2 locals).
    fn tee_under(&self, j: usize, ops: &[(Operand, Want)], t: Var) -> bool {
        if self.defs[t] != 1 || self.is_param[t] || self.in_block(self.reader[t]) != Some(j) {
            return false;
        }
        // A copy between variables sharing a local is not emitted: its
        // value would not be on the stack.
        let copy = |d: Inst| {
            matches!(
                *self.f.inst(d),
                InstData::Copy {
                    src: Operand::Var(_),
                    ..
                }
            )
        };
        if self.st.def[t].expand().is_none_or(copy) {
            return false;
        }
        if ops.iter().filter(|&&(o, _)| o == Operand::Var(t)).count() != 1 {
            return false;
        }
        let Some(&i) = self.insts.get(j) else {
            return true;
        };
        single_def(self.f, i).is_none_or(|r| self.in_block(self.reader[r]).is_none())
    }

    /// Rule *place the roots*: each instruction's position as far as
    /// locals can tell ([`Stackified::at`]): its tree's root's (users
    /// come after their children), or its own when it and every user up
    /// to the root were absorbed in place (positions `start..=root` are
    /// then emitted in their order, with nothing else in between).
    fn place_roots(&mut self) {
        let n = self.insts.len();
        for k in (0..n).rev() {
            let at_user = match self.user[k].expand().map(Pos::index) {
                None => k as u32,
                Some(u) if u < n => self.st.at[self.insts[u]],
                Some(_) => n as u32,
            };
            let in_place_up_to_root = self.user[k]
                .expand()
                .is_some_and(|u| at_user as usize == u.index());
            self.st.at[self.insts[k]] = if self.in_place[k] && in_place_up_to_root {
                k as u32
            } else {
                at_user
            };
        }
    }
}

impl Scan<'_, '_> {
    /// Rule *place the reads*: for each instruction emitted in place up
    /// to its root (its tree's positions `start..=j` are emitted in their
    /// order), its operands walked in push order: a `local.get` runs
    /// after the children of the operands before it, that is after the
    /// position of the last of them (each child's tree ends at the
    /// child), or at the tree's start when none; a child absorbed from
    /// further up (moved) is emitted at the user's time, so the reads
    /// after it stay at [`Stackified::at`]. Only reads earlier than that
    /// are recorded. Not in a tree whose positions hold a definition
    /// whose tee was stolen (rule 5): that definition is emitted earlier,
    /// at its new user's operand, so the positions are not emitted in
    /// their order.
    ///
    /// A child is recognised by its result among the user's operands: a
    /// child's value is read once by its user (on the stack: read once
    /// in all; tee'd: the user's only read of it, rules 4 and 5).
    fn place_reads(&mut self) -> Result<(), EmitError> {
        let n = self.insts.len();
        self.stolen.sort_unstable();
        self.children.clear();
        for k in 0..n {
            if let Some(u) = self.user[k].expand().map(Pos::index).filter(|&u| u < n) {
                self.children.push((u, k));
            }
        }
        self.children.sort_unstable();
        let mut c = 0;
        for j in 0..n {
            let i = self.insts[j];
            let from = c;
            while self.children.get(c).is_some_and(|&(u, _)| u == j) {
                c += 1;
            }
            let holds_stolen = |s: &[usize]| {
                let at = s.partition_point(|&k| k < self.start[j]);
                s.get(at).is_some_and(|&k| k < j)
            };
            if self.st.at[i] as usize != j || from == c || holds_stolen(&self.stolen) {
                continue;
            }
            // Every read of a local by `i` gets its place (a variable
            // read twice, its last); kept only when one is earlier.
            let mark = self.early_reads.len();
            let mut cur = Some(self.start[j]);
            for &(o, _) in self.plan.operands(Node::Inst(i))? {
                let Operand::Var(t) = o else { continue };
                let child = self.children[from..c]
                    .iter()
                    .map(|&(_, k)| k)
                    .find(|&k| single_def(self.f, self.insts[k]) == Some(t));
                match child {
                    Some(k) if self.st.at[self.insts[k]] as usize == k => {
                        cur = cur.map(|_| k + 1);
                    }
                    Some(_) => cur = None,
                    None => {
                        let at = cur.unwrap_or(j) as u32;
                        self.early_reads.push((i, (t, at)));
                    }
                }
            }
            let earlier = self.early_reads[mark..]
                .iter()
                .any(|&(_, (_, p))| (p as usize) < j);
            if !earlier {
                self.early_reads.truncate(mark);
            }
        }
        Ok(())
    }
}

/// The stack values of `f` with a plan of its own (for tests).
#[cfg(test)]
pub(crate) fn stackify(
    f: &Function,
    low: &Lowering<'_>,
    s: &Structured,
) -> Result<Stackified, EmitError> {
    stackify_planned(f, &mut Plan::new(f, low, s), s)
}

/// Decides the stack values of `f` emitted in the order of `s`, reading
/// each instruction's operands from `plan` (built once per function):
/// one scan per block ([`Scan::block`]).
pub(crate) fn stackify_planned(
    f: &Function,
    plan: &mut Plan,
    s: &Structured,
) -> Result<Stackified, EmitError> {
    let mut scan = Scan::new(f, plan, s);
    for (ci, c) in s.items.iter().enumerate() {
        let Ctl::Body(b) = *c else { continue };
        // The terminator's tree is emitted right after the body: a value
        // may stay on the stack into it.
        let term_next = matches!(
            s.items.get(ci + 1),
            Some(&(Ctl::If(t) | Ctl::IfNot(t) | Ctl::BrIf { block: t, .. } | Ctl::BrTable { block: t, .. } | Ctl::Ret(t))) if t == b
        );
        scan.block(b, term_next)?;
    }
    let mut st = scan.st;
    st.multi_tees.sort_unstable();
    st.reads = Csr::from_pairs(f.inst_slots(), scan.early_reads);
    Ok(st)
}

#[cfg(test)]
mod tests {
    //! The rules of the module documentation on small programs: when
    //! each fires, and the cases where it must not; `rule_*` call one
    //! rule's method on a scan stopped before a user.
    use super::{earlier, nests, root, Pos, Scan};
    use crate::emit::plan::tests::with_function;
    use crate::emit::plan::{Node, Plan};
    use crate::emit::structure::structure;
    use crate::emit::tests::{local_index, run, var};
    use ssakit::entity::{EntityRef, PackedOption};
    use ssakit::ir::Function;

    /// `then` on a scan of the entry block of the one function of
    /// `text`, its first `upto` positions scanned as users.
    fn scanned<T>(
        text: &str,
        upto: usize,
        then: impl FnOnce(&mut Scan<'_, '_>, &Function) -> T,
    ) -> T {
        with_function(text, |f, low| {
            let s = structure(f).unwrap();
            let mut plan = Plan::new(f, low, &s);
            let mut scan = Scan::new(f, &mut plan, &s);
            scan.prepare(f.entry());
            for j in 0..upto {
                scan.user_at(j, true).unwrap();
            }
            then(&mut scan, f)
        })
    }

    /// Match a child: a definition in the block before the user's tree
    /// so far, not a parameter's value, not at or after the cursor.
    #[test]
    fn rule_match_child() {
        let text = "function f(a, b) {\ne:\n  x = a + b\n  y = a * b\n  z = x - y\n  ret z\n}\n";
        scanned(text, 2, |scan, f| {
            let (x, y, a) = (var(f, "x"), var(f, "y"), var(f, "a"));
            assert_eq!(scan.match_child(x, 2).map(|c| c.at), Some(0));
            assert_eq!(scan.match_child(y, 2).map(|c| c.at), Some(1));
            assert!(scan.match_child(x, 0).is_none());
            assert!(scan.match_child(a, 2).is_none());
        });
    }

    /// Tee: at the user's one read of a value read more than once, right
    /// after the definition; not when the user reads it twice, nor when
    /// the tee keeps the user's tree from joining its reader.
    #[test]
    fn rule_may_tee() {
        let tee_at_1 = |text: &str| {
            scanned(text, 1, |scan, f| {
                let x = var(f, "x");
                let node = Node::Inst(f.block_insts(f.entry())[1]);
                let ops = scan.plan.operands(node).unwrap();
                let c = scan.match_child(x, 1).unwrap();
                scan.may_tee(node, ops, ssakit::ir::Operand::Var(x), c)
            })
        };
        let f = |user: &str| {
            format!(
                "function f(a, b) {{\ne:\n  x = a + b\n  y = {user}\n  z = y - b\n  r = z + x\n  ret r\n}}\n"
            )
        };
        assert!(tee_at_1(&f("x * 3")));
        assert!(!tee_at_1(&f("x * x")));
        // Nor when `y`'s one reader reads `x` too: the tee would keep
        // `y`'s tree from joining it.
        assert!(!tee_at_1(
            "function f(a, b) {\ne:\n  x = a + b\n  y = x * 3\n  z = y - x\n  ret z\n}\n"
        ));
    }

    /// Move: a load moves past a pure instruction, not past a store, and
    /// a tee never moves.
    #[test]
    fn rule_may_move() {
        let text = |mid: &str| {
            format!(
                "operator i64.load trap read\noperator i64.store trap write\nfunction f(a, b) {{\ne:\n  x = i64.load[0, 3](a)\n{mid}\n  y = x * 2\n  ret y\n}}\n"
            )
        };
        scanned(&text("  z = a + b"), 2, |scan, _| {
            assert!(scan.may_move(0, 2, false));
            assert!(!scan.may_move(0, 2, true));
        });
        scanned(&text("  i64.store[0, 3](b, a)"), 2, |scan, _| {
            assert!(!scan.may_move(0, 2, false));
        });
    }

    /// Place the roots: a moved child's reads are where its root is
    /// (`x`, moved into `y`, itself in place up to `r`), an in-place
    /// child keeps its own position, a root too.
    #[test]
    fn rule_place_roots() {
        let (f, st, _) = run(
            "function f(a, b) {\ne:\n  x = a + b\n  w = a * a\n  y = x * 2\n  z = y + w\n  r = z * w\n  ret r\n}\n",
        );
        let i = f.block_insts(f.entry());
        let at: Vec<u32> = i.iter().map(|&k| st.at[k]).collect();
        assert!(st.absorbed[i[0]] && !st.absorbed[i[1]]);
        assert_eq!(at, [2, 1, 2, 3, 4]);
    }

    /// Place the reads: in `t5 = t1 ^ ((a & c) ^ (b & c))`, all in
    /// place, `a & c` reads `a` before `c`'s tree runs (`c` is tee'd
    /// there): `a`'s last read is before `c` is written, so the two share
    /// a local (LLVM's shape in a SHA-256 round); the root's own reads
    /// stay at the root.
    #[test]
    fn rule_place_reads() {
        let (f, st, local) = run(
            "function f(p, q, r) {\ne:\n  a = p + 1\n  b = q + 1\n  t1 = a & b\n  c = r + 1\n  t2 = a & c\n  t3 = b & c\n  t4 = t2 ^ t3\n  t5 = t1 ^ t4\n  ret t5\n}\n",
        );
        let i = f.block_insts(f.entry());
        let (a, b, c) = (var(&f, "a"), var(&f, "b"), var(&f, "c"));
        assert!(st.teed[i[0]] && st.teed[i[1]] && st.teed[i[3]], "{st:?}");
        assert_eq!(st.at[i[4]], 4);
        assert_eq!(st.read_at(i[4], a), 3);
        assert_eq!((st.read_at(i[5], b), st.read_at(i[5], c)), (5, 5));
        assert_eq!(local_index(&local, &f, "a"), local_index(&local, &f, "c"));
        assert_ne!(local_index(&local, &f, "a"), local_index(&local, &f, "b"));
    }

    /// Keep under later trees nests values (readers come in order): a
    /// value defined before an open one and read after it holds it; one
    /// defined while another is open and read after that one's reader
    /// would cross it.
    #[test]
    fn rule_keep_under_nests() {
        let mut open = Vec::new();
        assert!(nests(&mut open, 2, 3));
        assert!(nests(&mut open, 1, 4));
        assert_eq!(open, [(1, 4)]);
        assert!(!nests(&mut open, 3, 5));
        assert!(nests(&mut open, 4, 5));
    }

    /// The tree links: a root found through them, the path compressed;
    /// an absent next write is never.
    #[test]
    fn tree_links_and_positions() {
        let p = |k: usize| PackedOption::some(Pos::new(k));
        let mut up = vec![p(1), p(2), PackedOption::NONE];
        assert_eq!(root(&mut up, 0), 2);
        assert_eq!(up[0], p(2));
        assert_eq!(earlier(PackedOption::NONE, p(3)), p(3));
        assert_eq!(earlier(p(2), p(3)), p(2));
        assert_eq!(earlier(p(4), PackedOption::NONE), p(4));
    }

    /// The node of the `k`-th instruction of the entry block.
    fn at(f: &Function, k: usize) -> Option<Node> {
        Some(Node::Inst(f.block_insts(f.entry())[k]))
    }

    /// `x`, read twice, right before its first user: defined in `y`'s
    /// tree with a `local.tee`, read by `print` with a `local.get`.
    #[test]
    fn a_value_read_twice_is_teed_into_its_first_user() {
        let (f, st, local) = run(
            "function f(a, b) {\ne:\n  x = a + b\n  y = x * 3\n  z = y - b\n  print x\n  ret z\n}\n",
        );
        let x = var(&f, "x");
        assert_eq!(st.tee_in[x], at(&f, 1));
        assert!(!st.on_stack[x] && local[x].expand().is_some());
        assert!(st.on_stack[var(&f, "y")] && st.absorbed[f.block_insts(f.entry())[0]]);
    }

    /// Not when the user reads it twice (`x * x`: which read would take
    /// it from the stack?), nor in a later user when an earlier one read
    /// it (`w`'s, before `r`).
    #[test]
    fn no_tee_when_a_read_comes_first() {
        let (f, st, _) =
            run("function f(a, b) {\ne:\n  x = a + b\n  w = x * x\n  r = x - w\n  ret r\n}\n");
        let x = var(&f, "x");
        assert_eq!(st.tee_in[x], None);
        assert!(!st.absorbed[f.block_insts(f.entry())[0]]);
    }

    /// Not past a write in between (`a = 5` separates `x` from its first
    /// user), and not into a user in another block.
    #[test]
    fn no_tee_past_a_write_nor_across_blocks() {
        let (f, st, _) = run(
            "function f(a, b) {\ne:\n  x = a + b\n  a = 5\n  y = x * b\n  print x\n  print a\n  ret y\n}\n",
        );
        assert_eq!(st.tee_in[var(&f, "x")], None);
        let (f, st, _) = run(
            "function f(a, b) {\ne:\n  x = a + b\n  jump l\nl:\n  y = x * 2\n  print x\n  ret y\n}\n",
        );
        assert_eq!(st.tee_in[var(&f, "x")], None);
    }

    /// A tree holding a tee moves down with it when nothing in between
    /// reads the tee'd value (`print a`), not when something does
    /// (`print x` would read the local before the tee writes it).
    #[test]
    fn a_moved_tree_keeps_its_tee_unless_read_in_between() {
        let (f, st, _) = run(
            "function f(a, b) {\ne:\n  x = a + b\n  y = x * 3\n  print a\n  z = y + 1\n  print x\n  ret z\n}\n",
        );
        assert_eq!(st.tee_in[var(&f, "x")], at(&f, 1));
        assert!(st.on_stack[var(&f, "y")]);
        let (f, st, _) = run(
            "function f(a, b) {\ne:\n  x = a + b\n  y = x * 3\n  print x\n  z = y + 1\n  print x\n  ret z\n}\n",
        );
        assert_eq!(st.tee_in[var(&f, "x")], at(&f, 1));
        assert!(!st.on_stack[var(&f, "y")]);
    }

    /// A tree holding a tee of `x` does not join a user reading `x`
    /// itself: the user's own `local.get` of it may come first (`s`, with
    /// `x` tee'd in its child `p`, stays a root below `q = x - s`)...
    /// unless the tee moves to that read (see the next test): here it
    /// does, and `s` joins.
    #[test]
    fn a_teed_tree_does_not_join_a_reader_of_its_value() {
        let (f, st, _) = run(
            "function f(a, b) {\ne:\n  x = a + b\n  p = x + 1\n  s = p * 2\n  q = x - s\n  ret q\n}\n",
        );
        assert_eq!(st.tee_in[var(&f, "x")], at(&f, 3));
        assert!(st.on_stack[var(&f, "p")] && st.on_stack[var(&f, "s")]);
    }

    /// No tee in `e` when `e`'s one reader reads `x` too (wasm-smith's
    /// `select(1, x, x == 0)`): `e` joins its reader instead, two bytes
    /// fewer.
    #[test]
    fn no_tee_that_keeps_its_tree_from_joining() {
        let (f, st, _) =
            run("function f(a, b) {\ne:\n  x = a + b\n  e = x + 1\n  y = x * e\n  ret y\n}\n");
        assert_eq!(st.tee_in[var(&f, "x")], None);
        assert!(st.on_stack[var(&f, "e")]);
    }

    /// A variable with several definitions (a phi web after destruction,
    /// a parameter written again) is tee'd per definition: each
    /// definition right before the tree of its first reader, which reads
    /// it once, ends with `local.tee` there (`x` twice, and `a = 5` in
    /// `y`'s tree after `x`'s, in their order).
    #[test]
    fn each_definition_of_a_web_is_teed_into_its_first_reader() {
        let (f, st, _) = run(
            "function f(a, b) {\ne:\n  x = a + b\n  a = 5\n  y = x * a\n  x = y - b\n  z = b - x\n  print x\n  print a\n  ret z\n}\n",
        );
        let i = f.block_insts(f.entry());
        let (x, a) = (f.var_by_name("x").unwrap(), f.var_by_name("a").unwrap());
        assert_eq!(st.child(at(&f, 2).unwrap(), x), Some(i[0]));
        assert_eq!(st.child(at(&f, 2).unwrap(), a), Some(i[1]));
        assert_eq!(st.child(at(&f, 4).unwrap(), x), Some(i[3]));
        assert!([0, 1, 3].iter().all(|&k| st.teed[i[k]]));
        assert!(st.on_stack[var(&f, "y")] && !st.teed[i[2]]);
    }

    /// Not when another instruction comes between the definition and its
    /// reader's tree (`c`), nor when a read of it comes first (`print x`
    /// before `y`), nor into a reader of the value of another definition.
    #[test]
    fn no_tee_of_a_web_definition_not_right_before_its_first_reader() {
        let (f, st, _) = run(
            "function f(a, b) {\ne:\n  x = a + b\n  print a\n  y = a * x\n  x = 2 * b\n  print x\n  w = x - y\n  x = w + 1\n  ret x\n}\n",
        );
        let i = f.block_insts(f.entry());
        let x = f.var_by_name("x").unwrap();
        assert_eq!(st.child(at(&f, 2).unwrap(), x), None);
        assert!(!st.teed[i[0]]);
        // `x = 2 * b` is tee'd in `print x`, its first reader; `w` reads
        // it later with a `local.get`.
        assert_eq!(st.child(at(&f, 4).unwrap(), x), Some(i[3]));
        assert_eq!(st.child(at(&f, 5).unwrap(), x), None);
    }

    /// An address read by a load among a tree's operands, then by the
    /// store of that tree's value: the tee goes in the store, whose
    /// operand comes first in emitted order (`i64.store (local.tee x
    /// ...) (... (i64.load (local.get x)))`), and the tree joins the store
    /// (a tee in the load would keep it out: the store's `local.get x`
    /// would run first); also past a literal between the two operands
    /// (`select(x, 7, c)`), not past a variable (`select(x, b, c)`).
    #[test]
    fn a_tee_goes_to_the_first_read_in_emitted_order() {
        let text = |tail: &str| {
            format!(
                "operator i64.load trap read\noperator i64.store trap write\noperator select pure\nfunction f(a, b) {{\ne:\n  x = a + b\n  v = i64.load[0, 3](x)\n  w = v + 1\n{tail}\n  ret a\n}}\n"
            )
        };
        let (f, st, _) = run(&text("  i64.store[0, 3](x, w)"));
        assert_eq!(st.tee_in[var(&f, "x")], at(&f, 3));
        assert!(st.on_stack[var(&f, "w")] && st.on_stack[var(&f, "v")]);
        let (f, st, _) = run(&text("  c = w > 0\n  s = select(x, 7, c)\n  print s"));
        assert_eq!(st.tee_in[var(&f, "x")], at(&f, 4));
        assert!(st.on_stack[var(&f, "c")]);
        let (f, st, _) = run(&text("  c = w > 0\n  s = select(x, b, c)\n  print s"));
        assert_eq!(st.tee_in[var(&f, "x")], at(&f, 1));
        assert!(!st.on_stack[var(&f, "c")]);
    }

    /// Place the reads, not past a stolen tee: `x`'s tee goes to the
    /// store, so `x = a + b` is emitted before `w`'s tree, whose own
    /// `local.get b` then runs after `x` is written, though its position
    /// says before: `x` may not take `b`'s local (it did, and the store
    /// wrote `a + a + b` there).
    #[test]
    fn a_read_stays_after_a_stolen_tee() {
        let text = "operator i64.load trap read\noperator i64.store trap write\nfunction f(a, b) {\ne:\n  x = a + b\n  v = i64.load[0, 3](x)\n  w = b - v\n  i64.store[0, 3](x, w)\n  ret a\n}\n";
        let (f, st, local) = run(text);
        assert_eq!(st.tee_in[var(&f, "x")], at(&f, 3));
        assert!(st.on_stack[var(&f, "w")] && st.on_stack[var(&f, "v")]);
        let w = f.block_insts(f.entry())[2];
        assert_eq!(st.read_at(w, var(&f, "b")), 2);
        assert_ne!(local_index(&local, &f, "x"), local_index(&local, &f, "b"));
    }

    /// Keep a tee under later trees: `x`, read by the store (no result:
    /// it joins no tree) as its first operand and again after it, waits
    /// on the stack under `print b`, its definition ending with
    /// `local.tee`; not when its first reader's result is read later in
    /// the block (`s = x + y` could join `print s`), nor when the first
    /// reader is not the one reading it first (`x` read by `print x`
    /// before).
    #[test]
    fn a_value_read_twice_waits_teed_for_a_reader_that_joins_nothing() {
        let head = "operator i64.store trap write\nfunction f(a, b) {\ne:\n  x = a * b\n";
        let (f, st, local) = run(&format!(
            "{head}  print b\n  i64.store[0, 3](x, b)\n  print x\n  ret a\n}}\n"
        ));
        let (x, i) = (var(&f, "x"), f.block_insts(f.entry()));
        assert_eq!(st.tee_under[x], Some(Node::Inst(i[2])));
        assert!(st.teed[i[0]] && !st.absorbed[i[0]] && local[x].expand().is_some());
        let (f, st, _) = run(&format!(
            "{head}  print b\n  y = a + 1\n  s = x + y\n  print s\n  print x\n  ret a\n}}\n"
        ));
        assert_eq!(st.tee_under[var(&f, "x")], None);
        let (f, st, _) = run(&format!(
            "{head}  print x\n  print b\n  i64.store[0, 3](x, b)\n  ret a\n}}\n"
        ));
        assert_eq!(st.tee_under[var(&f, "x")], None);
    }

    /// A value read once as its reader's first operand, later in the
    /// block, stays on the stack under the trees in between (the load
    /// `x`, which may not move past `print`, under two of them, read by
    /// `r`); not as a later operand (`y`), nor when it would sit under
    /// another such value that is read first (`s`, defined after `u` and
    /// read after `u`'s reader: the values would cross).
    #[test]
    fn a_first_operand_stays_on_the_stack_under_trees() {
        let load = "operator i64.load trap read\nfunction f(a, b) {\ne:\n";
        let (f, st, local) = run(&format!(
            "{load}  x = i64.load[0, 3](a)\n  y = i64.load[0, 3](b)\n  print b\n  z = b * y\n  print a\n  r = x + z\n  ret r\n}}\n"
        ));
        assert!(st.stacked[var(&f, "x")] && local[var(&f, "x")].expand().is_none());
        assert!(!st.stacked[var(&f, "y")]);
        let (f, st, _) = run(&format!(
            "{load}  u = i64.load[0, 3](a)\n  s = i64.load[0, 3](b)\n  print b\n  p = u * 2\n  print a\n  q = s * p\n  ret q\n}}\n"
        ));
        assert!(st.stacked[var(&f, "u")] && !st.stacked[var(&f, "s")]);
    }

    /// A value waits under at most [`super::WINDOW`] positions of its
    /// block: `x`, read after eight `print`s, stays on the stack; read
    /// after nine, it takes a local.
    #[test]
    fn a_value_waits_under_a_bounded_run_of_trees() {
        let prints = |n: usize| "  print a\n".repeat(n);
        let src = |n: usize| {
            format!(
                "operator i64.load trap read\nfunction f(a) {{\ne:\n  x = i64.load[0, 3](a)\n{}  r = x + a\n  ret r\n}}\n",
                prints(n)
            )
        };
        let (f, st, _) = run(&src(super::WINDOW - 1));
        assert!(st.stacked[var(&f, "x")]);
        let (f, st, local) = run(&src(super::WINDOW));
        assert!(!st.stacked[var(&f, "x")] && local[var(&f, "x")].expand().is_some());
    }

    /// *No call, no window*: with no call in between, a value waits
    /// under any number of positions (`x` under twenty stores, as LLVM's
    /// unrolled hash rounds keep their loads); one call among them (a
    /// `print`, a call of the host's) bounds the wait again.
    #[test]
    fn a_value_waits_past_the_window_when_nothing_calls() {
        let ops = "operator i64.load trap read\noperator i64.store trap write\n";
        let stores = "  i64.store[0, 3](a, a)\n".repeat(20);
        let src = |call: &str| {
            format!(
                "{ops}function f(a) {{\ne:\n  x = i64.load[0, 3](a)\n{stores}{call}  r = x + a\n  ret r\n}}\n"
            )
        };
        let (f, st, local) = run(&src(""));
        assert!(st.stacked[var(&f, "x")] && local[var(&f, "x")].expand().is_none());
        let (f, st, local) = run(&src("  print a\n"));
        assert!(!st.stacked[var(&f, "x")] && local[var(&f, "x")].expand().is_some());
    }

    /// A literal nothing reads is not emitted (the lifter's zero at entry
    /// of an `f64` local never read: no `f64.const 0; drop`); an unread
    /// result of an instruction that reads a variable, or has an effect,
    /// still is.
    #[test]
    fn an_unread_literal_is_not_emitted() {
        let (f, st, _) = run(
            "operator f64.const pure\noperator memory.size read\nfunction f(a) {\ne:\n  x: f64 = f64.const[0]()\n  y = a + 1\n  z: i32 = memory.size[0]()\n  ret a\n}\n",
        );
        let i = f.block_insts(f.entry());
        assert!(st.dead[var(&f, "x")] && st.drops(&f, i[0]));
        assert!(st.dead[var(&f, "y")] && !st.drops(&f, i[1]));
        assert!(st.dead[var(&f, "z")] && !st.drops(&f, i[2]));
    }

    /// Loads (`trap read`) move past pure instructions, not past a store
    /// nor, since they trap, past a division that may trap.
    #[test]
    fn a_load_moves_past_no_write_and_no_other_trap() {
        let text = |mid: &str| {
            format!(
                "operator i64.load trap read\noperator i64.store trap write\nfunction f(a, b) {{\ne:\n  x = i64.load[0, 3](a)\n{mid}\n  y = x * 2\n  r = y + z\n  s = r * z\n  ret s\n}}\n"
            )
        };
        let (f, st, _) = run(&text("  z = a + b"));
        assert!(st.on_stack[var(&f, "x")]);
        let (f, st, _) = run(&text("  z = a / b"));
        assert!(!st.on_stack[var(&f, "x")]);
        let (f, st, _) = run(&text("  i64.store[0, 3](b, a)\n  z = a + b"));
        assert!(!st.on_stack[var(&f, "x")]);
    }
}
