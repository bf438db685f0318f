//! Instruction equality by contents, for [`Function`]'s `PartialEq`: lists
//! compared item by item wherever they sit in the pools, operators and
//! callees by name.

use super::{Function, Inst, InstData, Terminator};

/// Whether instruction `i` of `f` and `j` of `g` have the same contents.
pub(super) fn same_inst(f: &Function, i: Inst, g: &Function, j: Inst) -> bool {
    use InstData as I;
    match (f.inst(i), g.inst(j)) {
        (I::Copy { .. }, I::Copy { .. })
        | (I::Unary { .. }, I::Unary { .. })
        | (I::Binary { .. }, I::Binary { .. }) => f.inst(i) == g.inst(j),
        (
            I::Call {
                callee: c,
                args: a,
                results: r,
            },
            I::Call {
                callee: d,
                args: b,
                results: s,
            },
        ) => {
            f.callee_name(*c) == g.callee_name(*d)
                && a.as_slice(f) == b.as_slice(g)
                && r.as_slice(f) == s.as_slice(g)
        }
        (I::Print { args: a }, I::Print { args: b }) => a.as_slice(f) == b.as_slice(g),
        (I::Phi { dst: x, args: a }, I::Phi { dst: y, args: b }) => {
            x == y && a.as_slice(f) == b.as_slice(g)
        }
        (I::ParCopy { copies: a }, I::ParCopy { copies: b }) => a.as_slice(f) == b.as_slice(g),
        (
            I::Op {
                op: o,
                imms: m,
                args: a,
                results: r,
            },
            I::Op {
                op: p,
                imms: n,
                args: b,
                results: s,
            },
        ) => {
            f.symbols().operator_data(*o) == g.symbols().operator_data(*p)
                && m.as_slice(f) == n.as_slice(g)
                && a.as_slice(f) == b.as_slice(g)
                && r.as_slice(f) == s.as_slice(g)
        }
        _ => false,
    }
}

/// Whether terminator `s` of `f` and `t` of `g` have the same contents.
pub(super) fn same_term(f: &Function, s: &Terminator, g: &Function, t: &Terminator) -> bool {
    match (s, t) {
        (
            Terminator::Switch {
                value: v,
                default: d,
                targets: a,
            },
            Terminator::Switch {
                value: w,
                default: e,
                targets: b,
            },
        ) => v == w && d == e && a.as_slice(f) == b.as_slice(g),
        (Terminator::Ret(a), Terminator::Ret(b)) => a.as_slice(f) == b.as_slice(g),
        _ => s == t,
    }
}
