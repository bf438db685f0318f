//! Jump tables by data flow: the target of an indirect `jmp` the shape
//! matcher of [`mod@crate::cfg`] left unresolved, as an expression over
//! the function's values found by a backward slice, and its index's
//! range from the conditions on the paths that reach it (section 13.8 of
//! the chapter: the CFG of a binary is recovered together with the values
//! that decide its edges; the approach of angr's backward slicing and of
//! Ghidra's jump-table models, here without a solver: the expressions
//! have one shape).
//!
//! **The target.** Walking back from `jmp r` (or `jmp [m]`) along the
//! recovered CFG, each instruction that writes a register of the
//! expression replaces it by what it computes ([`Walker::define`]):
//! `mov`, `movzx`, `movsx`, `movsxd`, `cdqe`, `lea`, `add`, `sub`, `and`,
//! `shl`, `xor r, r`, `xchg`, `bsf`/`bsr` (below the width), loads, and
//! `cmovcc` after `cmp x, N` that keeps `x` only below `N` (a clamp); a
//! 32-bit write zero-extends. Anything else makes the register unknown
//! ([`Node::Top`]). A register whose one definition in the function is
//! `lea r, [rip+X]` is `X` (a table's base hoisted out of a loop; taken
//! to dominate its uses, as a compiler emits it). The walk stops on a
//! path once the expression is a table ([`Table`]): `base + ext(load(T
//! + i × s, size)) × k` with `T` and `base` constants and entries of 1,
//! 2, 4 or 8 bytes, read signed or not (`base` 0 for absolute tables,
//! `T` for GCC's and LLVM's relative ones).
//!
//! **The index.** The walk then follows the index `i` alone, on every
//! path back, until a bound holds on that path ([`Bound`]):
//!
//! * the edge it came along leaves a conditional branch whose flags come
//!   from `cmp x, N` (8 to 64 bits, a register or memory) with `i` the
//!   low bits of `x`, no wider: `ja` / `jae` on the fall-through, `jbe`
//!   / `jb` on the taken edge bound it by `N + 1` / `N` entries, every
//!   one possible;
//! * its definition gives the bound: a constant (that entry alone), `and
//!   x, M` (`M + 1` entries), a clamp, all exact; arithmetic over such
//!   values (their interval: glibc's `strcmp` indexes by the difference
//!   of two masked offsets) and a bit position (`bsf`), upper bounds:
//!   every entry is read when every one is code, else those that lead
//!   inside the extent (glibc's `strncmp` orders the two offsets first,
//!   so only half its interval occurs); or by type only: a zero
//!   extension from a byte, a 32/64-bit load, perhaps less a constant
//!   (an enum's tag whose range only the compiler knew), whose entries
//!   are read while they lead inside the extent, as the shape matcher
//!   does.
//!
//! **Computed jumps.** A target that is no load but arithmetic over
//! constants and one masked value (`and x, M`, `M` below 256) is
//! enumerated: glibc's `memmove` jumps into an unrolled loop at `lea
//! rdx, [rip+X]; add rdx, r8` with `r8 = (ecx & 15) × 96`, 16 targets.
//! Each must be code inside the extent.
//!
//! A path that reaches the entry, an unknown index, or the step budget
//! without a bound leaves the index unbounded, and the jump stays an exit
//! with what the slice saw ([`JumpKind`]: a table whose index is
//! unbounded, a load from a scaled index whose base is not known, a load
//! with no index, a target computed otherwise). A path that comes back to a point already walked
//! with the same expression adds nothing (a loop around a switch does not
//! redefine its index). The table's entries count is the largest over
//! the paths; every path must name the same table.
//!
//! Memory is taken as unchanged between a load the walk substitutes and
//! the stores before it (a table and an index's slot are not written on
//! the way), as the shape matcher takes it too.
//!
//! Worked example (GCC, PIC): `cmp edi, 3; ja D; mov eax, edi; lea rdx,
//! [rip+T]; movsxd rax, [rdx+rax*4]; add rax, rdx; jmp rax`. Back from
//! the `jmp`: `rax` → `rax + rdx` → `sext32(load4(rax×4 + rdx)) + rdx`
//! → (the `lea`) `sext32(load4(rax×4 + T)) + T`: a table at `T`, entries
//! of 4 bytes relative to `T`, index `rax`; (the `mov`) the index is
//! `zext32(rdi)`; across the `ja`'s fall-through, `cmp edi, 3` compares
//! `zext32(rdi)`: the same value, so 4 entries, the default `D`. Had the
//! table read `[rdx+rdi*4]` (the whole `rdi`, whose upper half the
//! 32-bit comparison says nothing of), the index would stay unbounded.

use crate::binary::Binary;
use crate::insn::{ByAddr, End, Insn, JumpKind, Target};
use crate::regs::{Flow, Loc, LocMap, LocSet};
use iced_x86::{Instruction, Mnemonic, OpKind, Register};
use rustc_hash::{FxHashMap, FxHashSet};

/// Most entries a jump table may have.
pub(crate) const MAX_TABLE: u64 = 1 << 16;

/// Most entries read of a table whose index only a type bounds.
pub(crate) const OPEN_TABLE: u64 = 512;

/// Instructions walked back from one jump, over all paths.
const BUDGET: usize = 2048;

/// Most values of a computed jump's masked unknown.
const MAX_COMPUTED: u64 = 256;

/// Deepest expression built (deeper is [`Node::Top`]).
const MAX_DEPTH: u8 = 16;

/// A jump table: entry `k` is read at `table + k × stride` as `size`
/// bytes (`signed` or not), times `mul`, plus `base`, wrapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Table {
    pub table: u64,
    pub stride: u64,
    pub size: u8,
    pub signed: bool,
    pub mul: u64,
    pub base: u64,
}

/// Which entries the index can select: `first` to `count` (excluded),
/// and whether every
/// index below it may occur (`exact`: a comparison or a mask; every
/// entry must then be code) or the bound is the index's type only (the
/// entries read while they lead inside the extent, at least two), with
/// the default target of a comparison's other edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    /// The least index (a constant index: the only one).
    pub first: u64,
    pub count: u64,
    pub exact: bool,
    /// With `exact`, the count is an upper bound only (an interval over
    /// masked values, a bit position): when not every entry is code, the
    /// entries are read while they lead inside the extent instead.
    pub upper: bool,
    pub default: Option<Target>,
}

/// What a resolved jump leads to: a table and its index's bound, or
/// the targets of a computed jump (`lea r, [rip+X]; add r, i × k`,
/// `i` a masked value: every value of the target, enumerated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    Table(Table, Bound),
    Targets(Vec<u64>),
}

/// The targets of the entries of `t` selected by `bound`, and the
/// default: an entry outside the extent (and outside the fragments the
/// walk continues in, [`Binary::in_scope`]) is a tail call; with an exact
/// bound an entry outside the code means `t` was no table.
pub(crate) fn read_table(
    bin: &Binary<'_>,
    extent: &std::ops::Range<u64>,
    t: Table,
    bound: Bound,
) -> Option<(Vec<Target>, Target)> {
    let entry = |k: u64| -> Option<u64> {
        let at = t.table.checked_add(k.checked_mul(t.stride)?)?;
        let b = bin.read(at, t.size as usize)?;
        let mut raw = [0u8; 8];
        raw[..b.len()].copy_from_slice(b);
        let mut v = u64::from_le_bytes(raw);
        let bits = 8 * t.size as u32;
        if t.signed && bits < 64 {
            v = (((v << (64 - bits)) as i64) >> (64 - bits)) as u64;
        }
        Some(t.base.wrapping_add(v.wrapping_mul(t.mul)))
    };
    let target = |a: u64| {
        if bin.in_scope(extent, a) {
            Target::Inside(a)
        } else {
            Target::Outside(a)
        }
    };
    let all_code = || -> Option<Vec<u64>> {
        let all: Option<Vec<u64>> = (bound.first..bound.count).map(entry).collect();
        all?.into_iter().map(|a| bin.code(a).map(|_| a)).collect()
    };
    let addrs: Vec<u64> = match bound.exact.then(all_code).flatten() {
        Some(all) => all,
        None if bound.exact && !bound.upper => return None,
        None => {
            let inside: Vec<u64> = (bound.first..bound.count)
                .map_while(|k| {
                    entry(k).filter(|a| bin.in_scope(extent, *a) && bin.code(*a).is_some())
                })
                .collect();
            if inside.len() < 2 {
                return None;
            }
            inside
        }
    };
    let targets: Vec<Target> = addrs.into_iter().map(target).collect();
    let default = bound.default.unwrap_or(targets[0]);
    Some((targets, default))
}

/// An expression, by its index in [`Exprs`] (hash-consed: equal
/// expressions have equal ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct E(u32);

/// A value: 64 bits wide; `Zext(x, b)` keeps the low `b` bits of `x`,
/// `Sext(x, b)` sign-extends them; a load's bytes are zero-extended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    Const(u64),
    /// A register's value at the point the walk has reached.
    Reg(Loc),
    /// A value written by an instruction the walk does not model.
    Top,
    Add(E, E),
    Mul(E, u64),
    And(E, u64),
    Load(E, u8),
    Zext(E, u8),
    Sext(E, u8),
    /// Below the count (every such value possible), or the value of the
    /// expression.
    Clamp(E, u64),
}

/// The leaves of an expression as [`Exprs::enumerate`] asks: constants
/// only, constants and one masked value (`and x, M`, `M` below
/// [`MAX_COMPUTED`]: that node), or anything else.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Leaves {
    Consts,
    OneMask(E),
    Other,
}

impl Leaves {
    /// The leaves of a node whose operands have leaves `a` and `b`.
    fn both(a: Leaves, b: Leaves) -> Leaves {
        match (a, b) {
            (Leaves::Consts, x) | (x, Leaves::Consts) => x,
            (Leaves::OneMask(v), Leaves::OneMask(w)) if v == w => a,
            _ => Leaves::Other,
        }
    }
}

/// What is known of an expression the moment it is interned, from its
/// node and its operands' facts: the walk asks these of the same
/// expression at every instruction it passes, so each is a lookup.
#[derive(Clone, Copy)]
struct Facts {
    /// The longest path to a leaf, the node included.
    depth: u8,
    /// Whether it holds [`Node::Top`].
    top: bool,
    /// The registers it reads (its [`Node::Reg`] leaves).
    regs: LocSet,
    /// Whether, as an address, it adds a register times a scale above one.
    scaled: bool,
    /// What kind of target it is ([`Exprs::shape`]).
    shape: JumpKind,
    /// Its leaves ([`Exprs::enumerate`]).
    leaves: Leaves,
}

/// The expressions of one walk, hash-consed, with each one's [`Facts`].
#[derive(Default)]
struct Exprs {
    nodes: Vec<Node>,
    facts: Vec<Facts>,
    ids: FxHashMap<Node, E>,
}

impl Exprs {
    fn node(&self, e: E) -> Node {
        self.nodes[e.0 as usize]
    }

    fn facts(&self, e: E) -> Facts {
        self.facts[e.0 as usize]
    }

    /// Whether `e` holds [`Node::Top`].
    fn top(&self, e: E) -> bool {
        self.facts(e).top
    }

    fn intern(&mut self, n: Node) -> E {
        if let Some(&e) = self.ids.get(&n) {
            return e;
        }
        let Some(facts) = self.facts_of(n) else {
            return self.intern(Node::Top);
        };
        let e = E(self.nodes.len() as u32);
        self.nodes.push(n);
        self.facts.push(facts);
        self.ids.insert(n, e);
        e
    }

    /// The facts of node `n` (its operands interned), `None` when it is
    /// deeper than [`MAX_DEPTH`].
    fn facts_of(&self, n: Node) -> Option<Facts> {
        let kids: &[E] = match &n {
            Node::Add(a, b) => &[*a, *b],
            Node::Mul(a, _) | Node::And(a, _) | Node::Load(a, _) => &[*a],
            Node::Zext(a, _) | Node::Sext(a, _) | Node::Clamp(a, _) => &[*a],
            _ => &[],
        };
        let depth = 1 + kids.iter().map(|&k| self.facts(k).depth).max().unwrap_or(0);
        if depth > MAX_DEPTH {
            return None;
        }
        let top = matches!(n, Node::Top) || kids.iter().any(|&k| self.facts(k).top);
        let regs = match n {
            Node::Reg(r) => LocSet::of(&[r]),
            _ => (kids.iter()).fold(LocSet::EMPTY, |s, &k| s.union(self.facts(k).regs)),
        };
        let scaled = match n {
            Node::Add(x, y) => self.facts(x).scaled || self.facts(y).scaled,
            Node::Mul(x, k) => k > 1 && self.as_const(x).is_none(),
            _ => false,
        };
        let shape = match n {
            Node::Load(a, _) if self.facts(a).scaled => JumpKind::UnknownBase,
            Node::Load(..) => JumpKind::Pointer,
            Node::Add(a, b) => self.facts(a).shape.min(self.facts(b).shape),
            Node::Mul(a, _) | Node::And(a, _) | Node::Zext(a, _) | Node::Sext(a, _) => {
                self.facts(a).shape
            }
            _ => JumpKind::Computed,
        };
        let leaves = match n {
            Node::Const(_) => Leaves::Consts,
            // The id `intern` gives this node.
            Node::And(_, m) if m < MAX_COMPUTED => Leaves::OneMask(E(self.nodes.len() as u32)),
            Node::Add(a, b) => Leaves::both(self.facts(a).leaves, self.facts(b).leaves),
            Node::Mul(a, _) | Node::Zext(a, _) | Node::Sext(a, _) => self.facts(a).leaves,
            _ => Leaves::Other,
        };
        Some(Facts {
            depth,
            top,
            regs,
            scaled,
            shape,
            leaves,
        })
    }

    fn konst(&mut self, c: u64) -> E {
        self.intern(Node::Const(c))
    }

    fn as_const(&self, e: E) -> Option<u64> {
        match self.node(e) {
            Node::Const(c) => Some(c),
            _ => None,
        }
    }

    /// `a + b`, constants folded and kept rightmost.
    fn add(&mut self, a: E, b: E) -> E {
        let split = |x: &Self, e: E| match x.node(e) {
            Node::Const(c) => (None, c),
            Node::Add(y, k) => match x.node(k) {
                Node::Const(c) => (Some(y), c),
                _ => (Some(e), 0),
            },
            _ => (Some(e), 0),
        };
        let ((va, ca), (vb, cb)) = (split(self, a), split(self, b));
        let c = ca.wrapping_add(cb);
        let v = match (va, vb) {
            (None, None) => return self.konst(c),
            (Some(v), None) | (None, Some(v)) => v,
            (Some(x), Some(y)) => self.intern(Node::Add(x, y)),
        };
        if c == 0 {
            v
        } else {
            let k = self.konst(c);
            self.intern(Node::Add(v, k))
        }
    }

    fn mul(&mut self, a: E, k: u64) -> E {
        match (self.node(a), k) {
            (_, 1) => a,
            (Node::Const(c), _) => self.konst(c.wrapping_mul(k)),
            _ => self.intern(Node::Mul(a, k)),
        }
    }

    fn and(&mut self, a: E, m: u64) -> E {
        match self.node(a) {
            Node::Const(c) => self.konst(c & m),
            _ => self.intern(Node::And(a, m)),
        }
    }

    /// The low `bits` of `a`, zero-extended.
    fn zext(&mut self, a: E, bits: u8) -> E {
        if bits >= 64 {
            return a;
        }
        let fits = |m: u64| m >> bits == 0;
        match self.node(a) {
            Node::Const(c) => self.konst(c & ((1u64 << bits) - 1)),
            Node::Load(_, size) if size * 8 <= bits => a,
            Node::And(_, m) if fits(m) => a,
            Node::Zext(x, b) => {
                let b = b.min(bits);
                self.intern(Node::Zext(x, b))
            }
            _ => self.intern(Node::Zext(a, bits)),
        }
    }

    /// The low `bits` of `a`, sign-extended.
    fn sext(&mut self, a: E, bits: u8) -> E {
        match self.node(a) {
            Node::Const(c) => {
                let s = 64 - bits as u32;
                self.konst((((c << s) as i64) >> s) as u64)
            }
            // Only the low `bits` are read.
            Node::Zext(x, b) if b >= bits => self.intern(Node::Sext(x, bits)),
            _ => self.intern(Node::Sext(a, bits)),
        }
    }

    /// `e` with register `r` replaced by `v` (at most [`MAX_DEPTH`]
    /// levels deep, so the recursion is bounded).
    fn subst(&mut self, e: E, r: Loc, v: E) -> E {
        match self.node(e) {
            Node::Reg(x) if x == r => v,
            Node::Const(_) | Node::Reg(_) | Node::Top => e,
            Node::Add(a, b) => {
                let (a, b) = (self.subst(a, r, v), self.subst(b, r, v));
                self.add(a, b)
            }
            Node::Mul(a, k) => {
                let a = self.subst(a, r, v);
                self.mul(a, k)
            }
            Node::And(a, m) => {
                let a = self.subst(a, r, v);
                self.and(a, m)
            }
            Node::Load(a, s) => {
                let a = self.subst(a, r, v);
                self.intern(Node::Load(a, s))
            }
            Node::Zext(a, b) => {
                let a = self.subst(a, r, v);
                self.zext(a, b)
            }
            Node::Sext(a, b) => {
                let a = self.subst(a, r, v);
                self.sext(a, b)
            }
            Node::Clamp(a, c) => {
                let a = self.subst(a, r, v);
                self.intern(Node::Clamp(a, c))
            }
        }
    }

    /// Whether `e` reads register `r`.
    fn reads(&self, e: E, r: Loc) -> bool {
        self.facts(e).regs.contains(r)
    }

    /// `e` as a table: `base + ext(load(T + i × s)) × k`, with the index
    /// (none when the address is a constant: one entry).
    fn table(&self, e: E) -> Option<(Table, Option<E>)> {
        let (v, base) = match self.node(e) {
            Node::Add(v, b) => (v, self.as_const(b)?),
            _ => (e, 0),
        };
        let (v, mul) = match self.node(v) {
            Node::Mul(v, k) => (v, k),
            _ => (v, 1),
        };
        let (load, signed) = match self.node(v) {
            Node::Sext(l, bits) => (l, Some(bits)),
            _ => (v, None),
        };
        let Node::Load(addr, size) = self.node(load) else {
            return None;
        };
        if let Some(bits) = signed {
            if bits != 8 * size {
                return None;
            }
        }
        if base == 0 && (size < 4 || signed.is_some()) {
            return None;
        }
        if let Some(at) = self.as_const(addr) {
            // A relative entry at a known address (an index constant on
            // the path); an absolute one would be a function pointer (a
            // GOT slot the dynamic linker may fill otherwise), no table.
            if base == 0 {
                return None;
            }
            let t = Table {
                table: at,
                stride: size as u64,
                size,
                signed: signed.is_some(),
                mul,
                base,
            };
            return Some((t, None));
        }
        let Node::Add(scaled, t) = self.node(addr) else {
            return None;
        };
        let table = self.as_const(t)?;
        let (index, stride) = match self.node(scaled) {
            Node::Mul(i, s) => (i, s),
            _ => (scaled, 1),
        };
        if stride != size as u64 || self.as_const(index).is_some() {
            return None;
        }
        let t = Table {
            table,
            stride,
            size,
            signed: signed.is_some(),
            mul,
            base,
        };
        Some((t, Some(index)))
    }

    /// The least and greatest value of `e` (signed), when its leaves are
    /// constants, masks, bytes or clamps (bounded as [`Exprs::subst`]).
    fn interval(&self, e: E) -> Option<(i128, i128)> {
        let fits = |(lo, hi): (i128, i128), lo_min: i128, hi_max: i128| {
            (lo >= lo_min && hi <= hi_max).then_some((lo, hi))
        };
        match self.node(e) {
            Node::Const(c) => Some((c as i64 as i128, c as i64 as i128)),
            Node::And(_, m) if m >> 63 == 0 => Some((0, m as i128)),
            Node::Load(_, s @ (1 | 2)) => Some((0, (1i128 << (8 * s)) - 1)),
            Node::Zext(x, b) => fits(self.interval(x)?, 0, (1i128 << b) - 1),
            Node::Sext(x, b) => {
                let half = 1i128 << (b - 1);
                fits(self.interval(x)?, -half, half - 1)
            }
            Node::Add(a, b) => {
                let ((la, ha), (lb, hb)) = (self.interval(a)?, self.interval(b)?);
                Some((la.checked_add(lb)?, ha.checked_add(hb)?))
            }
            Node::Mul(a, k) => {
                let (lo, hi) = self.interval(a)?;
                let k = k as i64 as i128;
                let (a, b) = (lo.checked_mul(k)?, hi.checked_mul(k)?);
                Some((a.min(b), a.max(b)))
            }
            Node::Clamp(o, c) => {
                let (lo, hi) = self.interval(o)?;
                Some((lo.min(0), hi.max(c as i128 - 1)))
            }
            _ => None,
        }
    }

    /// Whether `i` is a 32- or 64-bit load plus a constant, perhaps
    /// zero-extended from 32 bits.
    fn loaded_less_constant(&self, i: E) -> bool {
        let mut e = i;
        for _ in 0..4 {
            e = match self.node(e) {
                Node::Zext(y, 32) => y,
                Node::Add(y, k) if self.as_const(k).is_some() => y,
                Node::Load(_, 4 | 8) => return e != i,
                _ => return false,
            };
        }
        false
    }

    /// What kind of target `e` is, for a jump left unresolved: a load
    /// from a scaled index (a table whose base is not known), a load
    /// (a pointer), or neither (the least of its operands' kinds through
    /// additions, multiplications, masks and extensions).
    fn shape(&self, e: E) -> JumpKind {
        self.facts(e).shape
    }

    /// Every value of a computed target `e` whose only unknown is one
    /// masked value (`and x, M`, at most [`MAX_COMPUTED`] values; glibc's
    /// `memmove` jumps to `lea rdx, [rip+X]` plus `(ecx & 15) × 96`),
    /// enumerated; `None` when `e` reads anything else (a register, a
    /// load) or holds no masked value.
    fn enumerate(&self, e: E) -> Option<Vec<u64>> {
        let Leaves::OneMask(v) = self.facts(e).leaves else {
            return None;
        };
        let Node::And(_, m) = self.node(v) else {
            return None;
        };
        (0..=m)
            .map(|k| self.eval(e, v, k))
            .collect::<Option<Vec<u64>>>()
    }

    /// The value of `e` when node `v` is `k` (its leaves constants and
    /// `v`, as [`Exprs::enumerate`] asks).
    fn eval(&self, e: E, v: E, k: u64) -> Option<u64> {
        if e == v {
            return Some(k);
        }
        Some(match self.node(e) {
            Node::Const(c) => c,
            Node::Add(a, b) => self.eval(a, v, k)?.wrapping_add(self.eval(b, v, k)?),
            Node::Mul(a, c) => self.eval(a, v, k)?.wrapping_mul(c),
            Node::And(a, m) => self.eval(a, v, k)? & m,
            Node::Zext(a, b) => {
                self.eval(a, v, k)? & u64::MAX.checked_shr(64 - b as u32).unwrap_or(0)
            }
            Node::Sext(a, b) => {
                let s = 64u32.checked_sub(b as u32).filter(|&s| s < 64)?;
                (((self.eval(a, v, k)? << s) as i64) >> s) as u64
            }
            _ => return None,
        })
    }

    /// The bound the index's own definition gives: a mask, a byte, a
    /// 32- or 64-bit load.
    fn type_bound(&self, i: E) -> Option<Bound> {
        let (first, count, exact, upper) = match self.node(i) {
            Node::Const(c) if c < MAX_TABLE => (c, c + 1, true, false),
            Node::Clamp(o, c) => match self.node(o) {
                Node::Const(k) if k < MAX_TABLE => (0, c.max(k + 1), true, false),
                _ => return None,
            },
            // A mask of a value unknown otherwise (`bsf`'s bit position
            // over a 16- or 32-bit `pmovmskb` mask) bounds it from above
            // only.
            Node::And(x, m) => (
                0,
                m.checked_add(1).filter(|&c| c > 1 && c <= MAX_TABLE)?,
                true,
                self.node(x) == Node::Top,
            ),
            Node::Load(_, 1) | Node::Zext(_, 8) => (0, 256, false, false),
            Node::Load(_, 4 | 8) => (0, OPEN_TABLE, false, false),
            // A loaded tag less a constant (`mov eax, [rax]; add eax,
            // -1`): its range known only to the compiler, as a load's.
            _ if self.loaded_less_constant(i) => (0, OPEN_TABLE, false, false),
            // Arithmetic over masked values (glibc's `strcmp`: `and ecx,
            // 15; and eax, 15; lea r9, [rax+15]; sub r9, rcx`): an upper
            // bound (the two offsets' order, known from a branch, halves
            // it in glibc's `strncmp`).
            _ => match self.interval(i) {
                Some((lo, hi)) if lo >= 0 && hi < MAX_TABLE as i128 => {
                    (lo as u64, hi as u64 + 1, true, true)
                }
                _ => return None,
            },
        };
        Some(Bound {
            first,
            count,
            exact,
            upper,
            default: None,
        })
    }
}

/// Where one path of the walk is: before instruction `at`, the
/// expression `e` (the target, or once a table is found its index).
#[derive(Clone, Copy, PartialEq, Eq)]
struct State {
    at: u32,
    e: E,
    table: Option<Table>,
}

/// How control reaches an instruction from its predecessor.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
    /// The fall-through of a conditional branch.
    Fall,
    /// The taken edge of a conditional branch.
    Taken,
    /// Any other edge.
    Other,
}

/// Each instruction's predecessors with the edge's kind, in one list
/// grouped by instruction (a compressed sparse row): instruction `i`'s
/// are `list[start[i]..start[i + 1]]`, by increasing index, each once.
struct Preds {
    start: Vec<u32>,
    list: Vec<(u32, Edge)>,
}

impl Preds {
    /// The predecessors of `n` instructions from `edges` (to, from,
    /// kind), which list each instruction's sources in increasing order:
    /// a counting sort by target, keeping the first edge of each source.
    fn new(n: usize, edges: &[(u32, u32, Edge)]) -> Preds {
        let mut start = vec![0u32; n + 1];
        for &(to, ..) in edges {
            start[to as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut list = vec![(0, Edge::Other); edges.len()];
        for &(to, from, kind) in edges {
            let k = &mut next[to as usize];
            list[*k as usize] = (from, kind);
            *k += 1;
        }
        // Drop the repeated sources (a branch whose two edges meet, a
        // table naming a target twice), each group's adjacent.
        let mut kept = 0;
        for i in 0..n {
            let (lo, hi) = (start[i] as usize, start[i + 1] as usize);
            start[i] = kept as u32;
            for k in lo..hi {
                if k == lo || list[k].0 != list[k - 1].0 {
                    list[kept] = list[k];
                    kept += 1;
                }
            }
        }
        start[n] = kept as u32;
        list.truncate(kept);
        Preds { start, list }
    }

    /// The positions in `list` of instruction `i`'s predecessors.
    fn range(&self, i: u32) -> std::ops::Range<usize> {
        self.start[i as usize] as usize..self.start[i as usize + 1] as usize
    }

    fn of(&self, i: u32) -> &[(u32, Edge)] {
        &self.list[self.range(i)]
    }
}

/// The backward walker over one function's decoded instructions.
pub(crate) struct Walker<'a> {
    bin: &'a Binary<'a>,
    insts: &'a [Insn],
    extent: std::ops::Range<u64>,
    preds: Preds,
    /// The registers whose one definition in the function is `lea r,
    /// [rip+X]`: `X` (a table's base hoisted out of a loop).
    hoisted: LocMap<Option<u64>>,
    /// The registers with a value in `hoisted`.
    hoisted_regs: LocSet,
    x: Exprs,
    /// The states one [`Walker::resolve`] met, emptied by the next (its
    /// room kept: no table grown anew per jump), each as its instruction
    /// and expression in one word and its table's position in `tables`
    /// plus one (0: none).
    seen: FxHashSet<(u64, u32)>,
    /// The tables the states of one [`Walker::resolve`] name.
    tables: Vec<Table>,
}

impl<'a> Walker<'a> {
    /// The walker over `insts`, whose blocks end as `ends` says (an
    /// instruction without an end continues to the next address).
    pub(crate) fn new(
        bin: &'a Binary<'a>,
        extent: std::ops::Range<u64>,
        insts: &'a [Insn],
        by_addr: &ByAddr<u32>,
        ends: &FxHashMap<u32, End>,
    ) -> Walker<'a> {
        let mut edges = Vec::with_capacity(insts.len());
        let mut edge = |from: u32, to: u64, kind: Edge| {
            if let Some(t) = by_addr.get(to) {
                edges.push((t, from, kind));
            }
        };
        for (i, ins) in insts.iter().enumerate() {
            let i = i as u32;
            match ends.get(&i) {
                None => edge(i, ins.ins.next_ip(), Edge::Other),
                Some(End::Jump(a)) => edge(i, *a, Edge::Other),
                Some(End::Branch(t, f)) => {
                    for (t, kind) in [(t, Edge::Taken), (f, Edge::Fall)] {
                        if let Target::Inside(a) = t {
                            edge(i, *a, kind);
                        }
                    }
                }
                Some(End::Switch(ts, d)) => {
                    for t in ts.iter().chain([d]) {
                        if let Target::Inside(a) = t {
                            edge(i, *a, Edge::Other);
                        }
                    }
                }
                Some(End::Invoke { next, pad }) => {
                    if let Some(n) = next {
                        edge(i, *n, Edge::Other);
                    }
                    if let Target::Inside(a) = pad {
                        edge(i, *a, Edge::Other);
                    }
                }
                Some(End::Ret | End::TailCall(_) | End::NoReturn) => {}
            }
        }
        let preds = Preds::new(insts.len(), &edges);
        let mut hoisted: LocMap<Option<u64>> = LocMap::default();
        let mut defs: LocMap<u32> = LocMap::default();
        for Insn { ins, access } in insts {
            for r in access.writes.intersection(LocSet::GPRS).iter() {
                defs[r] += 1;
                let lea = ins.mnemonic() == Mnemonic::Lea
                    && ins.is_ip_rel_memory_operand()
                    && ins.op0_register().size() == 8;
                hoisted[r] = lea.then(|| ins.ip_rel_memory_address());
            }
        }
        for r in LocSet::GPRS.iter() {
            if defs[r] != 1 {
                hoisted[r] = None;
            }
        }
        Walker {
            bin,
            insts,
            extent,
            preds,
            hoisted_regs: LocSet::GPRS
                .iter()
                .filter(|&r| hoisted[r].is_some())
                .collect(),
            hoisted,
            x: Exprs::default(),
            seen: FxHashSet::default(),
            tables: Vec::new(),
        }
    }

    /// The table behind indirect jump `jmp` and the bound of its index,
    /// or the targets of a computed jump; what the slice could tell of
    /// the jump when neither is found.
    pub(crate) fn resolve(&mut self, jmp: u32) -> Result<Found, JumpKind> {
        let ins = self.insts[jmp as usize].ins;
        let start = if ins.op0_kind() == OpKind::Memory {
            let a = self.address(&ins).ok_or(JumpKind::Pointer)?;
            self.x.intern(Node::Load(a, 8))
        } else {
            let r = Loc::of_register(ins.op0_register()).ok_or(JumpKind::Computed)?;
            self.x.intern(Node::Reg(r))
        };
        let mut found: Option<(Table, Bound)> = None;
        let mut computed: Vec<u64> = Vec::new();
        self.seen.clear();
        self.tables.clear();
        let mut work = vec![State {
            at: jmp,
            e: start,
            table: None,
        }];
        let mut steps = 0;
        let mut any_table = false;
        // The most table-like shape of the target met on any path.
        let mut shape = JumpKind::Computed;
        while let Some(mut s) = work.pop() {
            if !self.first_visit(s) {
                continue;
            }
            steps += 1;
            if steps > BUDGET {
                return Err(failure(any_table, shape));
            }
            if s.table.is_none() {
                let hoisted = self.x.facts(s.e).regs.intersection(self.hoisted_regs);
                for r in hoisted.iter() {
                    if let Some(x) = self.hoisted[r].filter(|_| self.x.reads(s.e, r)) {
                        let c = self.x.konst(x);
                        s.e = self.x.subst(s.e, r, c);
                    }
                }
                shape = shape.min(self.x.shape(s.e));
                if let Some((t, i)) = self.x.table(s.e) {
                    any_table = true;
                    let Some(i) = i else {
                        // One entry, its address known: one target.
                        let one = Bound {
                            first: 0,
                            count: 1,
                            exact: true,
                            upper: false,
                            default: None,
                        };
                        found = Some(merge(found, t, one)?);
                        continue;
                    };
                    s = State {
                        at: s.at,
                        e: i,
                        table: Some(t),
                    };
                } else if let Some(values) = self.x.enumerate(s.e) {
                    computed.extend(values);
                    continue;
                }
            }
            if let Some(t) = s.table {
                if let Some(b) = self.x.type_bound(s.e) {
                    found = Some(merge(found, t, b)?);
                    continue;
                }
            }
            if s.table.is_some() && self.x.top(s.e) {
                // An unknown index never becomes known further back.
                return Err(JumpKind::Unbounded);
            }
            let preds = self.preds.range(s.at);
            if preds.is_empty() {
                return Err(failure(any_table, shape));
            }
            for k in preds {
                let (p, kind) = self.preds.list[k];
                if let (Some(t), Some(b)) = (s.table, self.condition(p, kind, s.e)) {
                    found = Some(merge(found, t, b)?);
                    continue;
                }
                let e = self.define(p, s.e);
                work.push(State {
                    at: p,
                    e,
                    table: s.table,
                });
            }
        }
        match (found, computed.is_empty()) {
            (Some((t, b)), true) => Ok(Found::Table(t, b)),
            (None, false) => {
                computed.sort_unstable();
                computed.dedup();
                Ok(Found::Targets(computed))
            }
            (Some(_), false) => Err(JumpKind::BadTable),
            (None, true) => Err(failure(any_table, shape)),
        }
    }

    /// Whether this [`Walker::resolve`] meets state `s` for the first time.
    fn first_visit(&mut self, s: State) -> bool {
        let table = match s.table {
            None => 0,
            Some(t) => match self.tables.iter().position(|&u| u == t) {
                Some(k) => k + 1,
                None => {
                    self.tables.push(t);
                    self.tables.len()
                }
            },
        };
        let at_e = (s.at as u64) << 32 | s.e.0 as u64;
        self.seen.insert((at_e, table as u32))
    }

    /// The bound on index `i` that holds after the edge of kind `kind`
    /// leaving instruction `p`: `p` a `ja`/`jae`/`jbe`/`jb` whose flags
    /// come from `cmp x, N` with `x` equal to `i` (or `i` a zero or sign
    /// extension of `x`'s low bits that the bound keeps).
    fn condition(&mut self, p: u32, kind: Edge, i: E) -> Option<Bound> {
        let Insn { ins, access } = &self.insts[p as usize];
        if access.flow != Flow::Branch {
            return None;
        }
        let plus = match (ins.mnemonic(), kind) {
            (Mnemonic::Ja, Edge::Fall) | (Mnemonic::Jbe, Edge::Taken) => 1,
            (Mnemonic::Jae, Edge::Fall) | (Mnemonic::Jb, Edge::Taken) => 0,
            _ => return None,
        };
        let other = if kind == Edge::Fall {
            ins.near_branch_target()
        } else {
            ins.next_ip()
        };
        let default = Some(if self.bin.in_scope(&self.extent, other) {
            Target::Inside(other)
        } else {
            Target::Outside(other)
        });
        let (x, n) = self.compared(p)?;
        let count = n.checked_add(plus).filter(|&c| c > 0 && c <= MAX_TABLE)?;
        // `i` is at most `x` when both are the low bits of one value,
        // `i`'s no wider; a sign extension of `x`'s 32 bits keeps a
        // bound below 2^31.
        let low = |x: &Exprs, e: E| match x.node(e) {
            Node::Zext(y, b) => (y, b),
            _ => (e, 64),
        };
        let ((yi, bi), (yx, bx)) = (low(&self.x, i), low(&self.x, x));
        let same = (yi == yx && bi <= bx)
            || matches!(self.x.node(i), Node::Sext(y, 32) if self.x.zext(y, 32) == x && n < 1 << 31);
        same.then_some(Bound {
            first: 0,
            count,
            exact: true,
            upper: false,
            default,
        })
    }

    /// The comparison `cmp x, N` whose flags instruction `p` reads: the
    /// flag writer before `p` in its block (at most 4 back), `x`'s value
    /// as an expression valid at `p` (no register of it written in
    /// between), and `N`.
    fn compared(&mut self, p: u32) -> Option<(E, u64)> {
        let mut at = p;
        let mut written = LocSet::EMPTY;
        let mut back = 0;
        let cmp = loop {
            let prev = match self.preds.of(at) {
                [(q, Edge::Other)]
                    if self.insts[*q as usize].ins.next_ip()
                        == self.insts[at as usize].ins.ip() =>
                {
                    *q
                }
                _ => return None,
            };
            let q = self.insts[prev as usize];
            if q.access.writes.intersects(LocSet::FLAGS) {
                break q.ins;
            }
            written = written.union(q.access.writes);
            at = prev;
            back += 1;
            if back > 4 {
                return None;
            }
        };
        if cmp.mnemonic() != Mnemonic::Cmp || !is_imm(cmp.op1_kind()) {
            return None;
        }
        let x = match cmp.op0_kind() {
            OpKind::Register => {
                let reg = cmp.op0_register();
                let r = Loc::of_register(reg).filter(|r| r.is_gpr())?;
                if written.contains(r) || is_high_byte(reg) {
                    return None;
                }
                let v = self.x.intern(Node::Reg(r));
                self.x.zext(v, 8 * reg.size() as u8)
            }
            OpKind::Memory => {
                let size = cmp.memory_size().size() as u8;
                let a = self.address(&cmp)?;
                if !matches!(size, 1 | 2 | 4 | 8) || written.iter().any(|r| self.x.reads(a, r)) {
                    return None;
                }
                self.x.intern(Node::Load(a, size))
            }
            _ => return None,
        };
        Some((x, cmp.immediate(1)))
    }

    /// The address of `ins`'s memory operand, if plain (no segment).
    fn address(&mut self, ins: &Instruction) -> Option<E> {
        if ins.is_ip_rel_memory_operand() {
            return Some(self.x.konst(ins.ip_rel_memory_address()));
        }
        if ins.segment_prefix() != Register::None || ins.memory_base() == Register::RIP {
            return None;
        }
        let mut a = self.x.konst(ins.memory_displacement64());
        if ins.memory_base() != Register::None {
            let b = Loc::of_register(ins.memory_base()).filter(|r| r.is_gpr())?;
            let b = self.x.intern(Node::Reg(b));
            a = self.x.add(b, a);
        }
        if ins.memory_index() != Register::None {
            let i = Loc::of_register(ins.memory_index()).filter(|r| r.is_gpr())?;
            let i = self.x.intern(Node::Reg(i));
            let i = self.x.mul(i, ins.memory_index_scale() as u64);
            a = self.x.add(i, a);
        }
        Some(a)
    }

    /// `e` before instruction `p`, from `e` after it: each register `p`
    /// writes that `e` reads replaced by what `p` computes.
    fn define(&mut self, p: u32, e: E) -> E {
        let writes = self.insts[p as usize]
            .access
            .writes
            .intersection(LocSet::GPRS);
        if !writes.intersects(self.x.facts(e).regs) {
            return e;
        }
        let ins = self.insts[p as usize].ins;
        let mut e = e;
        for r in writes.iter() {
            if !self.x.reads(e, r) {
                continue;
            }
            let v = self
                .clamp(p, r)
                .or_else(|| self.value(&ins, r))
                .unwrap_or_else(|| self.x.intern(Node::Top));
            e = self.x.subst(e, r, v);
        }
        e
    }

    /// What the `cmovcc d, s` at `p` after `cmp x, N` writes to `d` (`r`)
    /// when one of its two sides is `x` and the condition bounds `x` on
    /// that side (LLVM's clamp of an index: `cmp ecx, 3; mov edx, 3;
    /// cmovb edx, ecx`): below the bound, or the other side's value.
    fn clamp(&mut self, p: u32, r: Loc) -> Option<E> {
        let ins = self.insts[p as usize].ins;
        let width = ins.op0_register().size();
        if Loc::of_register(ins.op0_register()) != Some(r)
            || ins.op1_kind() != OpKind::Register
            || width < 4
        {
            return None;
        }
        // Which side is kept when the flags say `x < N` (or `x <= N`).
        let (low_is_moved, plus) = match ins.mnemonic() {
            Mnemonic::Cmovb => (true, 0),
            Mnemonic::Cmovbe => (true, 1),
            Mnemonic::Cmovae => (false, 0),
            Mnemonic::Cmova => (false, 1),
            _ => return None,
        };
        let (x, n) = self.compared(p)?;
        let reg = |w: &mut Self, k: Register| -> Option<E> {
            let l = Loc::of_register(k).filter(|l| l.is_gpr())?;
            let v = w.x.intern(Node::Reg(l));
            Some(w.x.zext(v, 8 * k.size() as u8))
        };
        let (d, s) = (
            reg(self, ins.op0_register())?,
            reg(self, ins.op1_register())?,
        );
        let (low, other) = if low_is_moved { (s, d) } else { (d, s) };
        if low != x {
            return None;
        }
        let count = n.checked_add(plus).filter(|&c| c > 0 && c <= MAX_TABLE)?;
        Some(self.x.intern(Node::Clamp(other, count)))
    }

    /// What `ins` writes to register `r` (its only register result), in
    /// terms of the values before it.
    fn value(&mut self, ins: &Instruction, r: Loc) -> Option<E> {
        if ins.mnemonic() == Mnemonic::Xchg
            && ins.op0_kind() == OpKind::Register
            && ins.op1_kind() == OpKind::Register
            && ins.op0_register().size() >= 4
        {
            // Each register takes the other's value.
            let (a, b) = (ins.op0_register(), ins.op1_register());
            let other = if Loc::of_register(a) == Some(r) { b } else { a };
            let l = Loc::of_register(other).filter(|l| l.is_gpr())?;
            let v = self.x.intern(Node::Reg(l));
            return Some(if a.size() == 4 { self.x.zext(v, 32) } else { v });
        }
        if ins.mnemonic() == Mnemonic::Cdqe && r == Loc::RAX {
            let rax = self.x.intern(Node::Reg(r));
            let low = self.x.zext(rax, 32);
            return Some(self.x.sext(low, 32));
        }
        if ins.op0_kind() != OpKind::Register || Loc::of_register(ins.op0_register()) != Some(r) {
            return None;
        }
        let width = ins.op0_register().size();
        if width < 4 {
            return None;
        }
        let src = |w: &mut Self, k: u32| -> Option<E> {
            match ins.op_kind(k) {
                OpKind::Register => {
                    let l = Loc::of_register(ins.op_register(k)).filter(|l| l.is_gpr())?;
                    let v = w.x.intern(Node::Reg(l));
                    Some(match ins.op_register(k).size() {
                        8 => v,
                        4 => w.x.zext(v, 32),
                        2 => w.x.zext(v, 16),
                        1 if !is_high_byte(ins.op_register(k)) => w.x.zext(v, 8),
                        _ => return None,
                    })
                }
                OpKind::Memory => {
                    let a = w.address(ins)?;
                    let size = ins.memory_size().size() as u8;
                    matches!(size, 1 | 2 | 4 | 8).then(|| w.x.intern(Node::Load(a, size)))
                }
                k if is_imm(k) => Some(w.x.konst(ins.immediate(1))),
                _ => None,
            }
        };
        let dst = self.x.intern(Node::Reg(r));
        let v = match ins.mnemonic() {
            Mnemonic::Mov | Mnemonic::Movzx => src(self, 1)?,
            Mnemonic::Movsx | Mnemonic::Movsxd => {
                let bits = match ins.op1_kind() {
                    OpKind::Memory => 8 * ins.memory_size().size() as u8,
                    _ => 8 * ins.op1_register().size() as u8,
                };
                let v = src(self, 1)?;
                self.x.sext(v, bits)
            }
            Mnemonic::Lea => self.address(ins)?,
            Mnemonic::Add => {
                let v = src(self, 1)?;
                self.x.add(dst, v)
            }
            Mnemonic::Sub => {
                let v = src(self, 1)?;
                let neg = self.x.mul(v, u64::MAX);
                self.x.add(dst, neg)
            }
            Mnemonic::And if is_imm(ins.op1_kind()) => {
                let m = ins.immediate(1);
                self.x.and(dst, m)
            }
            Mnemonic::Shl if is_imm(ins.op1_kind()) && ins.immediate(1) < 64 => {
                self.x.mul(dst, 1 << ins.immediate(1))
            }
            Mnemonic::Bsf | Mnemonic::Bsr => {
                // A bit's position: below the operand's width, every
                // such value possible.
                let top = self.x.intern(Node::Top);
                self.x.and(top, 8 * width as u64 - 1)
            }
            Mnemonic::Xor
                if ins.op1_kind() == OpKind::Register
                    && ins.op1_register() == ins.op0_register() =>
            {
                self.x.konst(0)
            }
            _ => return None,
        };
        Some(if width == 4 { self.x.zext(v, 32) } else { v })
    }
}

/// An immediate operand of any width.
fn is_imm(k: OpKind) -> bool {
    crate::insn::is_imm(k) || matches!(k, OpKind::Immediate16 | OpKind::Immediate8to16)
}

/// `ah`, `bh`, `ch` or `dh`: bits 8 to 15 of their register.
fn is_high_byte(r: Register) -> bool {
    matches!(r, Register::AH | Register::BH | Register::CH | Register::DH)
}

/// What a walk that found nothing saw: a table (its index unbounded) if
/// any path met one, else the most table-like shape of the target.
fn failure(any_table: bool, shape: JumpKind) -> JumpKind {
    if any_table {
        JumpKind::Unbounded
    } else {
        shape
    }
}

/// A path's table and bound merged into what the other paths found: the
/// same table on every path, the largest count, exact only if every
/// bound is, the first default.
fn merge(found: Option<(Table, Bound)>, t: Table, b: Bound) -> Result<(Table, Bound), JumpKind> {
    match found {
        None => Ok((t, b)),
        Some((t0, _)) if t0 != t => Err(JumpKind::BadTable),
        Some((_, b0)) => Ok((
            t,
            Bound {
                first: b0.first.min(b.first),
                count: b0.count.max(b.count),
                exact: b0.exact && b.exact,
                upper: b0.upper || b.upper,
                default: b0.default.or(b.default),
            },
        )),
    }
}
