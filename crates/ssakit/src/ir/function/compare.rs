//! Equality of functions by contents ([`Function`]'s `PartialEq`): lists
//! compared item by item wherever they sit in the pools, operators and
//! callees by name.

use super::{Function, VarData, VarKind};
use crate::ir::{Inst, InstData, Terminator};

impl PartialEq for Function {
    /// Two functions are equal when they print the same: same name,
    /// signature, variables (names, versions and types by index), layout,
    /// labels, and, block by block, instructions with the same contents
    /// (instruction numbers and where lists sit in the pools do not
    /// matter); operators and callees compare by name.
    fn eq(&self, o: &Self) -> bool {
        let same_var = |a: &VarData, b: &VarData| {
            a.ty() == b.ty()
                && match (a.kind(), b.kind()) {
                    (VarKind::Named { name: x }, VarKind::Named { name: y }) => {
                        self.names.get(x) == o.names.get(y)
                    }
                    (x, y) => x == y,
                }
        };
        self.name == o.name
            && self.params == o.params
            && self.returns == o.returns
            && self.vars.len() == o.vars.len()
            && self
                .vars
                .values()
                .zip(o.vars.values())
                .all(|(a, b)| same_var(a, b))
            && self.layout == o.layout
            && self.layout.iter().all(|&b| {
                let (x, y) = (&self.blocks[b], &o.blocks[b]);
                self.block_name(b) == o.block_name(b)
                    && x.phis.len() == y.phis.len()
                    && x.insts.len() == y.insts.len()
                    && self
                        .block_phis(b)
                        .iter()
                        .zip(o.block_phis(b))
                        .chain(self.block_insts(b).iter().zip(o.block_insts(b)))
                        .all(|(&i, &j)| same_inst(self, i, o, j))
                    && same_term(self, &x.term, o, &y.term)
            })
    }
}

impl Eq for Function {}

/// Whether instruction `i` of `f` and `j` of `g` have the same contents.
fn same_inst(f: &Function, i: Inst, g: &Function, j: Inst) -> bool {
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
fn same_term(f: &Function, s: &Terminator, g: &Function, t: &Terminator) -> bool {
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
