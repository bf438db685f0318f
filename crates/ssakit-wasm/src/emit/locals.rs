//! Variables → WebAssembly locals: linear scan over live ranges with
//! lifetime holes in the emitted order (Wimmer and Franz, "Linear Scan
//! Register Allocation on SSA Form", CGO 2010, section 4: ranges built by
//! one backward pass per block; Poletto and Sarkar's scan, TOPLAS 1999,
//! for the order), with unboundedly many registers of each type.
//!
//! Positions number the emitted code: block bodies in the order of the
//! structured code ([`super::structure`]), instruction `p` reading its
//! operands at `2p` and writing its results at `2p + 1`, a block's
//! terminator at its last position. A variable's **live range** is a list
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
//! local.set a` is deleted; else a local whose last occupied position is
//! before the variable's first (a min-heap of ends per type, so that is
//! O(log n)); else a new local. A local's segments sit in a `BTreeMap`
//! from start to end: testing a segment against it is one range query.
//! Each variable tries at most its copy partners and one free local, so
//! the whole is O(n log n) in the segments, with no interference graph.
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
//! copy of a parameter can share its local); values kept on the stack or
//! never read ([`super::stackify`]) get no local.

use super::stackify::Stackified;
use super::structure::{Ctl, Structured};
use super::val_type;
use ssakit::analysis::liveness::Liveness;
use ssakit::ir::{Cfg, Function, InstData, Operand, Var};
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
/// assert_eq!(a.local[x], 2); // read twice: a local; `y` stays on the stack
/// assert_eq!(a.groups, [(1, wasm_encoder::ValType::I64)]);
/// assert_eq!((a.count, a.vars), (1, 1));
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

/// Live segments `(var, start, end)`, inclusive, of the variables that
/// need a local, block by block in the emitted order.
fn segments(f: &Function, s: &Structured, st: &Stackified) -> (Vec<(u32, u32, u32)>, u32) {
    let nv = f.num_vars();
    let needs = |v: Var| !st.on_stack[v.index()] && !st.dead[v.index()];
    let cfg = Cfg::new(f);
    let live = Liveness::new(f, &cfg);
    let mut segs = Vec::new();
    // Per variable, the end of its open segment (NONE: not open).
    let mut open = vec![NONE; nv];
    let mut opened: Vec<Var> = Vec::new();
    let mut pos = 0u32;
    for c in &s.items {
        let Ctl::Body(b) = *c else { continue };
        let insts = f.block_insts(b);
        let first = pos;
        let term = pos + insts.len() as u32;
        let use_at = |v: Var, p: u32, open: &mut Vec<u32>, opened: &mut Vec<Var>| {
            if needs(v) && open[v.index()] == NONE {
                open[v.index()] = p;
                opened.push(v);
            }
        };
        for &v in live.live_out(b) {
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
                segs.push((
                    v.as_u32(),
                    2 * p + 1,
                    if end == NONE { 2 * p + 1 } else { end },
                ));
            });
            f.for_each_use(i, |v| use_at(v, 2 * p, &mut open, &mut opened));
        }
        for v in opened.drain(..) {
            let end = std::mem::replace(&mut open[v.index()], NONE);
            if end != NONE {
                segs.push((v.as_u32(), 2 * first, end));
            }
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

/// Whether segment `(lo, hi)` overlaps any segment of `occ`.
fn overlaps(occ: &BTreeMap<u32, u32>, lo: u32, hi: u32) -> bool {
    occ.range(..=hi).next_back().is_some_and(|(_, &e)| e >= lo)
}

/// Assigns locals to the variables of `f` emitted in the order of `s`.
///
/// ```
/// # use ssakit::ir::Type;
/// # use ssakit_wasm::emit::{locals::assign, stackify::stackify, structure::structure};
/// # let f = ssakit::text::parse_module("function f(a, b) {\nentry:\n  x = a + b\n  y = x * x\n  z = b + 1\n  w = z * z\n  r = y + w\n  ret r\n}\n").unwrap().functions.remove(0);
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
/// assert_eq!(a.count, 2);
/// ```
pub fn assign(f: &Function, s: &Structured, st: &Stackified) -> Assignment {
    let nv = f.num_vars();
    let (mut segs, limit) = segments(f, s, st);
    segs.sort_unstable();
    // Per variable, its segments: `segs[seg_at[v]..seg_at[v + 1]]`.
    let mut seg_at = vec![0u32; nv + 1];
    for &(v, _, _) in &segs {
        seg_at[v as usize + 1] += 1;
    }
    for k in 1..=nv {
        seg_at[k] += seg_at[k - 1];
    }
    let segs_of = |v: usize| &segs[seg_at[v] as usize..seg_at[v + 1] as usize];
    let lo = |v: usize| segs_of(v).first().map_or(NONE, |s| s.1);
    let hi = |v: usize| segs_of(v).iter().map(|s| s.2).max().unwrap_or(0);
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
    let mut occ: Vec<BTreeMap<u32, u32>> = Vec::new();
    let mut last: Vec<u32> = Vec::new();
    let mut slot_of = vec![NONE; nv];
    let take = |v: usize,
                l: u32,
                occ: &mut Vec<BTreeMap<u32, u32>>,
                last: &mut Vec<u32>,
                slot_of: &mut Vec<u32>| {
        for &(_, a, b) in segs_of(v) {
            occ[l as usize].insert(a, b);
        }
        last[l as usize] = last[l as usize].max(hi(v));
        slot_of[v] = l;
    };
    for &p in f.params() {
        slot_kind.push(kind(p.index()));
        occ.push(BTreeMap::new());
        last.push(0);
        let l = slot_kind.len() as u32 - 1;
        take(p.index(), l, &mut occ, &mut last, &mut slot_of);
        // A parameter holds its argument from the start: a variable read
        // before any definition (which relies on a zero) never shares it.
        occ[l as usize].entry(0).or_insert(0);
    }
    let partner = partners(f);
    // Per type: locals by last occupied position (min-heap, stale entries
    // skipped) and locals found free.
    let mut busy: Vec<BinaryHeap<Reverse<(u32, u32)>>> = vec![BinaryHeap::new(); types.len()];
    let mut free: Vec<Vec<u32>> = vec![Vec::new(); types.len()];
    for &v in &order {
        let v = v as usize;
        let t = kind(v);
        let start = lo(v);
        let fits = |l: u32, occ: &Vec<BTreeMap<u32, u32>>| {
            slot_kind[l as usize] == t
                && segs_of(v)
                    .iter()
                    .all(|&(_, a, b)| !overlaps(&occ[l as usize], a, b))
        };
        let hinted = partner[v]
            .iter()
            .map(|&w| slot_of[w as usize])
            .find(|&l| l != NONE && fits(l, &occ));
        let l = hinted.or_else(|| {
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
            slot_kind.len() as u32 - 1
        });
        take(v, l, &mut occ, &mut last, &mut slot_of);
        busy[t].push(Reverse((last[l as usize], l)));
    }
    // Locals numbered type by type after the parameters.
    let mut index = vec![NONE; slot_kind.len()];
    let mut next = n_params;
    let mut groups = Vec::new();
    for (t, &ty) in types.iter().enumerate() {
        let n0 = next;
        for l in n_params as usize..slot_kind.len() {
            if slot_kind[l] == t {
                index[l] = next;
                next += 1;
            }
        }
        if next > n0 {
            groups.push((next - n0, ty));
        }
    }
    for (k, i) in index.iter_mut().enumerate().take(n_params as usize) {
        *i = k as u32;
    }
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
