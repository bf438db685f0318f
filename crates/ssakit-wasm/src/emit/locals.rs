//! Variables → WebAssembly locals: linear scan over live ranges with
//! lifetime holes in the emitted order (Wimmer and Franz, "Linear Scan
//! Register Allocation on SSA Form", CGO 2010, section 4: ranges built by
//! one backward pass per block; Poletto and Sarkar's scan, TOPLAS 1999,
//! for the order), with unboundedly many registers of each type.
//!
//! Positions number the emitted code: block bodies in the order of the
//! structured code ([`super::structure`]), instruction `p` reading its
//! operands at `2r`, where `r` is the root of the tree it is emitted in
//! ([`super::stackify::Stackified::at`]; `p` itself when it is a root),
//! and writing its results at `2p + 1`, a block's terminator at its last
//! position. A variable's **live range** is a list
//! of disjoint segments: per block, a backward walk from the variables
//! live-out ([`ssakit::analysis::liveness`]) opens a segment at a variable's
//! last use and closes it at its definition (or at the block's start when
//! it is live-in); a definition never read still occupies its own position
//! (it writes the local). Two variables whose segments are disjoint never
//! interfere, and share a local when they have one type.
//!
//! **The scan**: variables by their first position (a counting sort:
//! positions are dense). For each, in this order, the first local that
//! fits: the local of a copy partner (the source or destination of a copy
//! that has it on the other side), so that the copy `local.get a;
//! local.set a` is deleted; else the first of its type's locals
//! (parameters included) whose segments leave a hole it fits in, the
//! *lifetime holes* of Wimmer and Franz (a variable live in the `else`
//! arm only takes the local of one live after the `if` but dead in the
//! `then` arm), of the first `HOLE_TRIES` (64) locals made; else a local
//! whose last occupied position is before the variable's first (a
//! min-heap of ends per type, so that is O(log n)); else a new local. A
//! local's segments sit in a `BTreeMap` from start to end: testing a
//! segment against it is one range query. Each variable tries at most its
//! copy partners, `HOLE_TRIES` (64) locals and one free local, so the whole
//! is O(n log n) in the segments, with no interference graph. Without the
//! holes, a local whose variable is live again later is never reused,
//! which in structured code with loops and `if`/`else` is most of them
//! (docs/wasm.md has the figures).
//!
//! **The invariant relied on**: a variable is read only where a
//! definition reaches it on every path, or where its value does not
//! matter (an `undef` of SSA). The lifter makes WebAssembly's zeroing of
//! locals an explicit definition at entry, so lifted code never depends
//! on the zero; a variable read before any definition on some path is
//! live-in at the entry, its range starts at 0, and it gets a local no
//! other variable occupies before it, which still holds its zero.
//!
//! Parameters keep their indices `0..n` (their ranges occupy them, so a
//! copy of a parameter can share its local, and so can any variable once
//! the parameter is dead; never one read before its definition, which
//! relies on a zero: a parameter occupies position 0 even unread); values
//! kept on the stack or never read ([`super::stackify`]) get no local.

use super::stackify::Stackified;
use super::structure::{Ctl, Structured};
use super::val_type;
use ssakit::analysis::VarLiveness;
use ssakit::entity::Csr;
use ssakit::ir::{Block, Cfg, Function, InstData, Operand, Var};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use wasm_encoder::ValType;

/// The local of every variable, and the declarations.
///
/// ```
/// # use ssakit::ir::Type;
/// # use ssakit_wasm::emit::{locals::assign, stackify::stackify, structure::structure};
/// # let f = ssakit::text::parse_module("function f(a, b) {\nentry:\n  x = a + b\n  y = x * x\n  ret y\n}\n").unwrap().functions.remove(0);
/// # let ops = ssakit_wasm::emit::lower::OpTable::new(f.symbols());
/// # let sig = ssakit_wasm::module::Signature { params: vec![Type::I64; 2], results: vec![Type::I64] };
/// # let types = [Some(sig)];
/// # let low = ssakit_wasm::emit::Lowering {
/// #     ops: &ops, callees: &[], func_types: &[0], types: &types, globals: &[], print: &[],
/// # };
/// # let s = structure(&f).unwrap();
/// # let st = stackify(&f, &low, &s).unwrap();
/// let a = assign(&f, &s, &st);
/// assert_eq!(&a.local[..2], [0, 1]); // parameters keep their indices
/// let x = f.var_by_name("x").unwrap().index();
/// // Read twice: a local, `a`'s, as `a` is dead once `x` is written;
/// // `y` stays on the stack.
/// assert_eq!(a.local[x], 0);
/// assert!(a.groups.is_empty());
/// assert_eq!((a.count, a.vars), (0, 1));
/// ```
#[derive(Clone, Debug)]
pub struct Assignment {
    /// Local index per variable index (`u32::MAX`: not emitted).
    pub local: Vec<u32>,
    /// Declarations: `(count, type)` runs after the parameters.
    pub groups: Vec<(u32, ValType)>,
    /// Declared locals (parameters not counted).
    pub count: usize,
    /// Variables given a local (parameters not counted).
    pub vars: usize,
}

const NONE: u32 = u32::MAX;

/// How many locals of its type a variable is tested against for a hole
/// it fits in (the first ones made): a bound, so that the scan stays
/// O(n log n) on a function with thousands of locals.
const HOLE_TRIES: usize = 64;

/// Live segments `(var, start, end)`, inclusive, of the variables that
/// need a local, block by block in the emitted order.
///
/// A variable live out of one block body (read at its terminator,
/// `2 * term`) and live into the next one emitted (from `2 * term + 2`)
/// gets one segment over both, not two: the position between,
/// `2 * term + 1`, starts and ends no segment (a terminator writes
/// nothing), so any segment that covers it overlaps one of the two
/// already, and the interference is the same with fewer segments to test
/// and insert (a variable live across a loop of many blocks would
/// otherwise have one per block).
fn segments(f: &Function, s: &Structured, st: &Stackified) -> (Vec<(u32, u32, u32)>, u32) {
    let nv = f.num_vars();
    let needs = |v: Var| !st.on_stack[v.index()] && !st.stacked[v.index()] && !st.dead[v.index()];
    // Live-out sets of the variables that need a local only (those kept
    // on the stack or dead, most of a lifted function's, are never asked
    // about): one path exploration each (Brandner et al.'s by-variable
    // liveness, [`VarLiveness`]).
    let cfg = Cfg::new(f);
    let live_out: Csr<Block, Var> = {
        let mut by_var = VarLiveness::new(f, &cfg);
        let mut pairs: Vec<(Block, Var)> = Vec::new();
        for v in f.vars() {
            if needs(v) {
                by_var.explore(v, |_| {}, |b| pairs.push((b, v)));
            }
        }
        Csr::from_pairs(f.num_blocks(), pairs)
    };
    let mut segs = Vec::new();
    // Per variable, the end of its open segment (NONE: not open).
    let mut open = vec![NONE; nv];
    let mut opened: Vec<Var> = Vec::new();
    // Per variable, its segment that ends at the terminator of the body
    // last emitted, and that position: `(segment, 2 * term)`, to extend.
    let mut carry = vec![(NONE, NONE); nv];
    // The segments of this body that end at its terminator.
    let mut fresh: Vec<(Var, u32)> = Vec::new();
    let mut pos = 0u32;
    for c in &s.items {
        let Ctl::Body(b) = *c else { continue };
        let insts = f.block_insts(b);
        let first = pos;
        let term = pos + insts.len() as u32;
        // A read moved down with its tree ([`Stackified::at`]) can come
        // later than a read met before it: the segment's end is the
        // latest.
        let use_at = |v: Var, p: u32, open: &mut Vec<u32>, opened: &mut Vec<Var>| {
            if !needs(v) {
                return;
            }
            let o = &mut open[v.index()];
            if *o == NONE {
                *o = p;
                opened.push(v);
            } else {
                *o = (*o).max(p);
            }
        };
        for &v in live_out.of(b) {
            use_at(v, 2 * term, &mut open, &mut opened);
        }
        f.for_each_term_use(b, |v| use_at(v, 2 * term, &mut open, &mut opened));
        for (k, &i) in insts.iter().enumerate().rev() {
            let p = first + k as u32;
            f.for_each_def(i, |v| {
                if !needs(v) {
                    return;
                }
                let end = std::mem::replace(&mut open[v.index()], NONE);
                if end == 2 * term {
                    fresh.push((v, segs.len() as u32));
                }
                segs.push((
                    v.as_u32(),
                    2 * p + 1,
                    if end == NONE { 2 * p + 1 } else { end },
                ));
            });
            let at = first + st.at[i.index()];
            f.for_each_use(i, |v| use_at(v, 2 * at, &mut open, &mut opened));
        }
        for v in opened.drain(..) {
            let end = std::mem::replace(&mut open[v.index()], NONE);
            if end == NONE {
                continue;
            }
            let (k, e) = carry[v.index()];
            let k = if first > 0 && e == 2 * first - 2 {
                segs[k as usize].2 = end;
                k
            } else {
                segs.push((v.as_u32(), 2 * first, end));
                segs.len() as u32 - 1
            };
            if end == 2 * term {
                fresh.push((v, k));
            }
        }
        for (v, k) in fresh.drain(..) {
            carry[v.index()] = (k, 2 * term);
        }
        pos = term + 1;
    }
    (segs, 2 * pos + 2)
}

/// Copy partners: per variable, the variables on the other side of a copy.
fn partners(f: &Function) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); f.num_vars()];
    let mut pair = |d: Var, s: Operand| {
        if let Operand::Var(s) = s {
            if s != d {
                out[d.index()].push(s.as_u32());
                out[s.index()].push(d.as_u32());
            }
        }
    };
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            match *f.inst(i) {
                InstData::Copy { dst, src } => pair(dst, src),
                InstData::ParCopy { copies } => {
                    for &(d, s) in copies.as_slice(f) {
                        pair(d, s);
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// What a local holds: disjoint intervals, start → (end, value), where
/// the value is [`values`]' name of the value the local holds there.
type Occupied = BTreeMap<u32, (u32, u32)>;

/// Whether segment `(lo, hi)` of a variable holding `value` overlaps an
/// interval of `occ` holding another value.
fn conflicts(occ: &Occupied, lo: u32, hi: u32, value: u32) -> bool {
    occ.range(..=hi)
        .rev()
        .take_while(|(_, &(e, _))| e >= lo)
        .any(|(_, &(_, w))| w != value)
}

/// Adds segment `(lo, hi)` holding `value` to `occ`, merged with the
/// intervals it overlaps (which hold `value` too: [`conflicts`] said so).
fn insert(occ: &mut Occupied, lo: u32, hi: u32, value: u32) {
    let (mut a, mut b) = (lo, hi);
    // The intervals it overlaps, latest first, each removed as found (no
    // list collected: this runs once per segment).
    while let Some((&s, &(e, w))) = occ.range(..=hi).next_back() {
        if e < lo {
            break;
        }
        occ.remove(&s);
        debug_assert_eq!(w, value, "overlapping values");
        a = a.min(s);
        b = b.max(e);
    }
    occ.insert(a, (b, value));
}

/// The value each variable holds wherever it is live, named by a
/// variable (value-based interference: Boissinot et al., "Revisiting
/// Out-of-SSA Translation for Correctness, Code Quality, and Efficiency",
/// CGO 2009, section 4.1; the chapter's section on coalescing). Two
/// variables of one value may share a local even where both are live:
/// the copy between them is then `local.get l; local.set l` and goes.
///
/// `x` defined once, by a copy `x = y`, with `y` defined once (a
/// parameter counts its entry as its definition), holds `y`'s value,
/// that is the value `r` of `y`, as long as `r`'s variable is not written
/// again while `x` is live: `r` is defined once, so that is "no segment of
/// `x` contains the position of `r`'s definition" (in strict SSA it never
/// does, Boissinot et al.'s lemma; after destruction a variable defined
/// on some paths only, an `undef` of SSA, can be live there). Otherwise
/// `x` is a value of its own. Every other variable is its own value.
/// Chains are resolved iteratively, sources first.
fn values(f: &Function, segs: &[(u32, u32, u32)], seg_at: &[u32], is_param: &[bool]) -> Vec<u32> {
    let nv = f.num_vars();
    let mut defs = vec![0u32; nv];
    let mut copy_of = vec![NONE; nv];
    for (v, &p) in is_param.iter().enumerate() {
        defs[v] = p as u32;
    }
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            f.for_each_def(i, |v| defs[v.index()] += 1);
            if let InstData::Copy {
                dst,
                src: Operand::Var(src),
            } = *f.inst(i)
            {
                copy_of[dst.index()] = src.as_u32();
            }
        }
    }
    let segs_of = |v: usize| &segs[seg_at[v] as usize..seg_at[v + 1] as usize];
    let has_local = |v: usize| seg_at[v] < seg_at[v + 1];
    // Where `r`'s one definition writes: 0 for a parameter, else the odd
    // start of the segment it opens.
    let def_pos = |r: usize| {
        if is_param[r] {
            Some(0)
        } else {
            segs_of(r).iter().map(|s| s.1).find(|p| p % 2 == 1)
        }
    };
    let chains = |x: usize| {
        let y = copy_of[x];
        (defs[x] == 1
            && y != NONE
            && defs[y as usize] == 1
            && has_local(x)
            && has_local(y as usize))
        .then_some(y as usize)
    };
    let shares = |x: usize, r: u32| {
        def_pos(r as usize).is_some_and(|d| !segs_of(x).iter().any(|&(_, a, b)| a <= d && d <= b))
    };
    // Per variable: 0 not seen, 1 on the current chain, 2 resolved.
    let mut state = vec![0u8; nv];
    let mut value = vec![NONE; nv];
    let mut path: Vec<usize> = Vec::new();
    for v in 0..nv {
        let mut x = v;
        // Up the chain of sources to a resolved variable, one that is no
        // copy, or (in a cycle of copies) one seen on this chain.
        while state[x] == 0 {
            state[x] = 1;
            path.push(x);
            match chains(x) {
                Some(y) => x = y,
                None => break,
            }
        }
        let mut r = (state[x] == 2).then(|| value[x]);
        while let Some(x) = path.pop() {
            value[x] = match r {
                Some(r) if shares(x, r) => r,
                _ => x as u32,
            };
            state[x] = 2;
            r = Some(value[x]);
        }
    }
    value
}

/// Bytes of the unsigned LEB128 encoding of a local index.
fn leb_len(i: u32) -> u64 {
    match i {
        0..=0x7f => 1,
        0x80..=0x3fff => 2,
        0x4000..=0x1f_ffff => 3,
        _ => 4,
    }
}

/// The index of every local past the parameters, numbered so that the
/// most used get the short LEB128 indices, as LLVM's
/// `WebAssemblyRegColoring.cpp` sorts its registers by weight. A local's
/// *weight* is how many `local.get`/`local.set` the emitted code has of it
/// (the reads and writes of its variables). WebAssembly declares locals in
/// runs of one type, so the locals of one type stay together, heaviest
/// first, and the types are ordered to make the weighted index bytes
/// least: every order of the types present is tried when there are at
/// most five (120 orders, each costed in O(types) from prefix sums),
/// else they come in declaration order, heaviest type first.
fn number_by_weight(
    f: &Function,
    st: &Stackified,
    slot_of: &[u32],
    slot_kind: &[usize],
    n_params: u32,
) -> Vec<u32> {
    let n_slots = slot_kind.len();
    let mut weight = vec![0u64; n_slots];
    let mut count = |v: Var| {
        let l = slot_of[v.index()];
        if l != NONE && !st.on_stack[v.index()] && !st.stacked[v.index()] && !st.dead[v.index()] {
            weight[l as usize] += 1;
        }
    };
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            f.for_each_use(i, &mut count);
            f.for_each_def(i, &mut count);
        }
        f.for_each_term_use(b, &mut count);
    }
    // Per type present: its locals, heaviest first (ties by creation).
    let n_types = slot_kind.iter().copied().max().map_or(0, |k| k + 1);
    let mut of_type: Vec<Vec<usize>> = vec![Vec::new(); n_types];
    for l in n_params as usize..n_slots {
        of_type[slot_kind[l]].push(l);
    }
    for ls in &mut of_type {
        ls.sort_by_key(|&l| std::cmp::Reverse(weight[l]));
    }
    let present: Vec<usize> = (0..n_types).filter(|&t| !of_type[t].is_empty()).collect();
    // The weighted bytes of type `t`'s locals numbered from `base`.
    let cost = |t: usize, base: u32| -> u64 {
        of_type[t]
            .iter()
            .enumerate()
            .map(|(k, &l)| weight[l] * leb_len(base + k as u32))
            .sum()
    };
    let mut best: Vec<usize> = present.clone();
    best.sort_by_key(|&t| std::cmp::Reverse(of_type[t].first().map_or(0, |&l| weight[l])));
    if (2..=5).contains(&present.len()) {
        let total = |perm: &[usize]| {
            let mut base = n_params;
            let mut c = 0;
            for &t in perm {
                c += cost(t, base);
                base += of_type[t].len() as u32;
            }
            c
        };
        let mut best_cost = total(&best);
        let mut perm = present.clone();
        // Heap's algorithm, iterative.
        let mut ctr = vec![0usize; perm.len()];
        let mut k = 1;
        while k < perm.len() {
            if ctr[k] < k {
                if k % 2 == 0 {
                    perm.swap(0, k);
                } else {
                    perm.swap(ctr[k], k);
                }
                let c = total(&perm);
                if c < best_cost {
                    best_cost = c;
                    best.clone_from(&perm);
                }
                ctr[k] += 1;
                k = 1;
            } else {
                ctr[k] = 0;
                k += 1;
            }
        }
    }
    let mut index = vec![NONE; n_slots];
    for (k, i) in index.iter_mut().enumerate().take(n_params as usize) {
        *i = k as u32;
    }
    let mut next = n_params;
    for t in best {
        for &l in &of_type[t] {
            index[l] = next;
            next += 1;
        }
    }
    index
}

/// Assigns locals to the variables of `f` emitted in the order of `s`.
///
/// ```
/// # use ssakit::ir::Type;
/// # use ssakit_wasm::emit::{locals::assign, stackify::stackify, structure::structure};
/// # let f = ssakit::text::parse_module("function f(a, b) {\nentry:\n  x = a + b\n  y = x * x\n  z = b + 1\n  w = z * z\n  r = y + w\n  s = r + y\n  ret s\n}\n").unwrap().functions.remove(0);
/// # let ops = ssakit_wasm::emit::lower::OpTable::new(f.symbols());
/// # let sig = ssakit_wasm::module::Signature { params: vec![Type::I64; 2], results: vec![Type::I64] };
/// # let types = [Some(sig)];
/// # let low = ssakit_wasm::emit::Lowering {
/// #     ops: &ops, callees: &[], func_types: &[0], types: &types, globals: &[], print: &[],
/// # };
/// # let s = structure(&f).unwrap();
/// # let st = stackify(&f, &low, &s).unwrap();
/// let a = assign(&f, &s, &st);
/// let v = |n| a.local[f.var_by_name(n).unwrap().index()];
/// assert_eq!(v("x"), v("y")); // `x` dies where `y` is defined: one local
/// assert_ne!(v("y"), v("z")); // `y` is live across `z`
/// assert_eq!((v("x"), v("z")), (0, 1)); // the parameters' locals, once dead
/// assert_eq!(a.count, 0);
/// ```
pub fn assign(f: &Function, s: &Structured, st: &Stackified) -> Assignment {
    let nv = f.num_vars();
    let (made, limit) = segments(f, s, st);
    // Per variable, its segments: `segs[seg_at[v]..seg_at[v + 1]]`, in
    // the order made (a counting sort by variable: nothing below depends
    // on their order within a variable); its first position `lo` and its
    // last `hi` (NONE and 0 without a segment).
    let mut seg_at = vec![0u32; nv + 1];
    let mut lo_of = vec![NONE; nv];
    let mut hi_of = vec![0u32; nv];
    for &(v, a, b) in &made {
        seg_at[v as usize + 1] += 1;
        lo_of[v as usize] = lo_of[v as usize].min(a);
        hi_of[v as usize] = hi_of[v as usize].max(b);
    }
    for k in 1..=nv {
        seg_at[k] += seg_at[k - 1];
    }
    let mut segs = vec![(0u32, 0u32, 0u32); made.len()];
    {
        let mut next = seg_at.clone();
        for &seg in &made {
            let slot = &mut next[seg.0 as usize];
            segs[*slot as usize] = seg;
            *slot += 1;
        }
    }
    drop(made);
    let segs_of = |v: usize| &segs[seg_at[v] as usize..seg_at[v + 1] as usize];
    let lo = |v: usize| lo_of[v];
    let hi = |v: usize| hi_of[v];
    let n_params = f.params().len() as u32;
    let mut local = vec![NONE; nv];
    let mut is_param = vec![false; nv];
    for (k, &p) in f.params().iter().enumerate() {
        local[p.index()] = k as u32;
        is_param[p.index()] = true;
    }
    // Non-parameter variables with a range, by first position (counting sort).
    let mut count_at = vec![0u32; limit as usize + 1];
    let mut n_vars = 0;
    for v in 0..nv {
        if lo(v) != NONE && !is_param[v] {
            count_at[lo(v) as usize + 1] += 1;
            n_vars += 1;
        }
    }
    for k in 1..count_at.len() {
        count_at[k] += count_at[k - 1];
    }
    let mut order = vec![0u32; n_vars];
    for v in 0..nv {
        if lo(v) != NONE && !is_param[v] {
            let slot = &mut count_at[lo(v) as usize];
            order[*slot as usize] = v as u32;
            *slot += 1;
        }
    }
    let types = [
        ValType::I32,
        ValType::I64,
        ValType::F32,
        ValType::F64,
        ValType::V128,
        ValType::FUNCREF,
        ValType::EXTERNREF,
    ];
    let kind = |v: usize| {
        let t = val_type(f.var_type(Var::new(v)));
        types.iter().position(|&u| u == t).unwrap_or(0)
    };
    // Slots: the parameters first, then the locals made, each with its
    // type, its segments and its last occupied position.
    let mut slot_kind: Vec<usize> = Vec::new();
    let mut occ: Vec<Occupied> = Vec::new();
    let mut last: Vec<u32> = Vec::new();
    let mut slot_of = vec![NONE; nv];
    let value = values(f, &segs, &seg_at, &is_param);
    let take =
        |v: usize, l: u32, occ: &mut Vec<Occupied>, last: &mut Vec<u32>, slot_of: &mut Vec<u32>| {
            for &(_, a, b) in segs_of(v) {
                insert(&mut occ[l as usize], a, b, value[v]);
            }
            last[l as usize] = last[l as usize].max(hi(v));
            slot_of[v] = l;
        };
    for &p in f.params() {
        slot_kind.push(kind(p.index()));
        occ.push(BTreeMap::new());
        last.push(0);
        let l = slot_kind.len() as u32 - 1;
        // A parameter holds its argument from the start: a variable read
        // before any definition (which relies on a zero) never shares it.
        insert(&mut occ[l as usize], 0, 0, value[p.index()]);
        take(p.index(), l, &mut occ, &mut last, &mut slot_of);
    }
    let partner = partners(f);
    // Per type: locals by last occupied position (min-heap, stale entries
    // skipped) and locals found free; the parameters are locals too.
    let mut busy: Vec<BinaryHeap<Reverse<(u32, u32)>>> = vec![BinaryHeap::new(); types.len()];
    let mut free: Vec<Vec<u32>> = vec![Vec::new(); types.len()];
    // Per type: its first `HOLE_TRIES` locals, in creation order.
    let mut first_of: Vec<Vec<u32>> = vec![Vec::new(); types.len()];
    for (l, &t) in slot_kind.iter().enumerate() {
        busy[t].push(Reverse((last[l], l as u32)));
        if first_of[t].len() < HOLE_TRIES {
            first_of[t].push(l as u32);
        }
    }
    for &v in &order {
        let v = v as usize;
        let t = kind(v);
        let start = lo(v);
        let fits = |l: u32, occ: &Vec<Occupied>| {
            slot_kind[l as usize] == t
                && segs_of(v)
                    .iter()
                    .all(|&(_, a, b)| !conflicts(&occ[l as usize], a, b, value[v]))
        };
        let hinted = partner[v]
            .iter()
            .map(|&w| slot_of[w as usize])
            .find(|&l| l != NONE && fits(l, &occ));
        let l = hinted
            .or_else(|| first_of[t].iter().copied().find(|&l| fits(l, &occ)))
            .or_else(|| {
                while let Some(&Reverse((end, l))) = busy[t].peek() {
                    if end >= start {
                        break;
                    }
                    busy[t].pop();
                    if last[l as usize] == end {
                        free[t].push(l);
                    }
                }
                while let Some(l) = free[t].pop() {
                    if last[l as usize] < start {
                        return Some(l);
                    }
                }
                None
            });
        let l = l.unwrap_or_else(|| {
            slot_kind.push(t);
            occ.push(BTreeMap::new());
            last.push(0);
            let l = slot_kind.len() as u32 - 1;
            if first_of[t].len() < HOLE_TRIES {
                first_of[t].push(l);
            }
            l
        });
        take(v, l, &mut occ, &mut last, &mut slot_of);
        busy[t].push(Reverse((last[l as usize], l)));
    }
    let index = number_by_weight(f, st, &slot_of, &slot_kind, n_params);
    let mut groups: Vec<(u32, ValType)> = Vec::new();
    let mut by_index: Vec<usize> = (n_params as usize..slot_kind.len()).collect();
    by_index.sort_unstable_by_key(|&l| index[l]);
    for l in by_index {
        let ty = types[slot_kind[l]];
        match groups.last_mut() {
            Some((n, t)) if *t == ty => *n += 1,
            _ => groups.push((1, ty)),
        }
    }
    let next = slot_kind.len() as u32;
    for &v in &order {
        local[v as usize] = index[slot_of[v as usize] as usize];
    }
    Assignment {
        local,
        groups,
        count: (next - n_params) as usize,
        vars: n_vars,
    }
}

#[cfg(test)]
mod tests {
    use super::segments;
    use crate::emit::tests::{run, stackified};

    /// `a` is live from the entry through the bodies of `e`, `h` and `b`
    /// (emitted one after the other) to its last read in `b`: one
    /// segment, not one per body; `x`, defined in `h` and live into `b`,
    /// one too. The locals are those of segments made per body.
    #[test]
    fn one_segment_across_consecutive_bodies() {
        let text = "function f(a) {\ne:\n  print a\n  jump h\nh:\n  x = a + 1\n  print x\n  jump b\nb:\n  print x\n  print a\n  ret 0\n}\n";
        let (f, s, st) = stackified(text);
        let (segs, _) = segments(&f, &s, &st);
        let of = |n: &str| {
            let v = f.var_by_name(n).unwrap().as_u32();
            segs.iter().filter(|s| s.0 == v).count()
        };
        assert_eq!((of("a"), of("x")), (1, 1));
        let (g, _, local) = run(text);
        let l = |n: &str| local[g.var_by_name(n).unwrap().index()];
        assert_ne!(l("a"), l("x"));
    }
}
