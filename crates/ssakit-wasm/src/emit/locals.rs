//! Variables → WebAssembly locals: linear scan over live intervals in the
//! emitted order (Poletto and Sarkar, "Linear Scan Register Allocation",
//! TOPLAS 1999), with unboundedly many registers of each type.
//!
//! Positions number the emitted code: block bodies in the order of the
//! structured code ([`super::structure`]), instruction `p` reading its
//! operands at `2p` and writing its results at `2p + 1`, a block's
//! terminator at its last position. A variable's interval is the hull of
//! its definitions, its uses, and the starts (ends) of the blocks where
//! liveness ([`ssakit::analysis::liveness`]) has it live-in (live-out).
//! Every point where a variable is live lies in its interval, so two
//! variables whose intervals are disjoint never interfere, and share a
//! local when they have one type. Intervals sorted by start (a counting
//! sort: positions are dense) and a free list per type with a min-heap of
//! ends make this O(n log n) in the number of variables, linear in the
//! code.
//!
//! **The invariant relied on**: a variable is read only where a
//! definition reaches it on every path, or where its value does not
//! matter (an `undef` of SSA). The lifter makes WebAssembly's zeroing of
//! locals an explicit definition at entry, so lifted code never depends
//! on the zero; a variable read before any definition on some path is
//! live-in at the entry, its interval starts at 0, and it gets a local no
//! variable used before, which still holds its zero.
//!
//! Parameters keep their indices `0..n` and are never shared; values
//! kept on the stack or never read ([`super::stackify`]) get no local.

use super::stackify::Stackified;
use super::structure::{Ctl, Structured};
use super::val_type;
use ssakit::analysis::liveness::Liveness;
use ssakit::ir::{Cfg, Function};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use wasm_encoder::ValType;

/// The local of every variable, and the declarations.
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

/// Assigns locals to the variables of `f` emitted in the order of `s`.
pub fn assign(f: &Function, s: &Structured, st: &Stackified) -> Assignment {
    let nv = f.num_vars();
    let mut lo = vec![NONE; nv];
    let mut hi = vec![0u32; nv];
    let mut touch = |v: usize, p: u32| {
        if st.on_stack[v] || st.dead[v] {
            return;
        }
        if lo[v] == NONE || p < lo[v] {
            lo[v] = p;
        }
        if p > hi[v] {
            hi[v] = p;
        }
    };
    let cfg = Cfg::new(f);
    let live = Liveness::new(f, &cfg);
    let mut pos = 0u32;
    for c in &s.items {
        let Ctl::Body(b) = *c else { continue };
        let start = 2 * pos;
        for &v in live.live_in(b) {
            touch(v.index(), start);
        }
        for &i in f.block_insts(b) {
            f.for_each_use(i, |v| touch(v.index(), 2 * pos));
            f.for_each_def(i, |v| touch(v.index(), 2 * pos + 1));
            pos += 1;
        }
        f.for_each_term_use(b, |v| touch(v.index(), 2 * pos));
        for &v in live.live_out(b) {
            touch(v.index(), 2 * pos);
        }
        pos += 1;
    }
    let n_params = f.params().len() as u32;
    let mut local = vec![NONE; nv];
    for (k, &p) in f.params().iter().enumerate() {
        local[p.index()] = k as u32;
    }
    // Non-parameter variables with an interval, by start (counting sort).
    let limit = 2 * pos as usize + 2;
    let mut count_at = vec![0u32; limit + 1];
    let mut n_vars = 0;
    for v in 0..nv {
        if lo[v] != NONE && local[v] == NONE {
            count_at[lo[v] as usize + 1] += 1;
            n_vars += 1;
        }
    }
    for k in 1..count_at.len() {
        count_at[k] += count_at[k - 1];
    }
    let mut order = vec![0u32; n_vars];
    for v in 0..nv {
        if lo[v] != NONE && local[v] == NONE {
            let slot = &mut count_at[lo[v] as usize];
            order[*slot as usize] = v as u32;
            *slot += 1;
        }
    }
    // Per type: locals in use (min-heap of (end, local)) and free locals.
    let types = [
        ValType::I32,
        ValType::I64,
        ValType::F32,
        ValType::F64,
        ValType::V128,
        ValType::FUNCREF,
        ValType::EXTERNREF,
    ];
    let kind = |t: ValType| types.iter().position(|&u| u == t).unwrap_or(0);
    let mut busy: Vec<BinaryHeap<Reverse<(u32, u32)>>> = vec![BinaryHeap::new(); types.len()];
    let mut free: Vec<Vec<u32>> = vec![Vec::new(); types.len()];
    // Per type, its locals in creation order (numbered per type first).
    let mut made: Vec<u32> = vec![0; types.len()];
    let mut slot_of = vec![NONE; nv];
    for &v in &order {
        let v = v as usize;
        let t = kind(val_type(f.var_type(ssakit::ir::Var::new(v))));
        while let Some(&Reverse((end, l))) = busy[t].peek() {
            if end >= lo[v] {
                break;
            }
            busy[t].pop();
            free[t].push(l);
        }
        let l = free[t].pop().unwrap_or_else(|| {
            made[t] += 1;
            made[t] - 1
        });
        busy[t].push(Reverse((hi[v], l)));
        slot_of[v] = l;
    }
    // Locals numbered type by type after the parameters.
    let mut base = vec![0u32; types.len()];
    let mut next = n_params;
    let mut groups = Vec::new();
    for (t, &n) in made.iter().enumerate() {
        base[t] = next;
        next += n;
        if n > 0 {
            groups.push((n, types[t]));
        }
    }
    for &v in &order {
        let v = v as usize;
        let t = kind(val_type(f.var_type(ssakit::ir::Var::new(v))));
        local[v] = base[t] + slot_of[v];
    }
    Assignment {
        local,
        groups,
        count: (next - n_params) as usize,
        vars: n_vars,
    }
}
