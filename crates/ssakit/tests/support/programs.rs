//! Classic SSA programs for destruction tests, built with
//! [`FunctionBuilder`]. Each takes one parameter `n` (a trip count).

use ssakit::ir::{BinOp, Block, Function, FunctionBuilder, Operand, PhiArg, Var};

fn arg(block: Block, value: impl Into<Operand>) -> PhiArg {
    PhiArg {
        block,
        value: value.into(),
    }
}

/// The **lost-copy problem** (Briggs, Cooper, Harvey, Simpson 1998): the
/// copy `y = x2` in the loop was propagated into its use after the loop,
/// so `x2` is live out of the loop while `x3` is live in its back edge.
///
/// ```text
///        entry: x1 = 1; jump L
///          |
///          v
///   +---> L: x2 = phi(entry: x1, L: x3)
///   |        x3 = x2 + 1
///   |        c = x3 < n
///   +------- branch c, L, X            (L → L is critical)
///            |
///            v
///        X: ret x2
/// ```
pub fn lost_copy() -> Function {
    let mut b = FunctionBuilder::new("lost_copy");
    let n = b.param("n");
    let (entry, l, x) = (b.block("entry"), b.block("L"), b.block("X"));
    let (x1, x2, x3, c) = (b.var("x1"), b.var("x2"), b.var("x3"), b.var("c"));
    b.switch_to(entry);
    b.copy(x1, Operand::Const(1));
    b.jump(l);
    b.switch_to(l);
    b.phi(x2, &[arg(entry, x1), arg(l, x3)]);
    b.binary(x3, BinOp::Add, x2.into(), Operand::Const(1));
    b.binary(c, BinOp::Lt, x3.into(), n.into());
    b.branch(c.into(), l, x);
    b.switch_to(x);
    b.ret(Some(x2.into()));
    b.finish()
}

/// The **swap problem** (Briggs et al. 1998): after copy propagation the
/// loop's `t = a; a = b; b = t` leaves two phis that read each other.
///
/// ```text
///        entry: a1 = 1; b1 = 2; i1 = 0; jump L
///          |
///          v
///   +---> L: a2 = phi(entry: a1, L: b2)
///   |        b2 = phi(entry: b1, L: a2)
///   |        i2 = phi(entry: i1, L: i3)
///   |        i3 = i2 + 1; c = i3 < n
///   +------- branch c, L, X
///            |
///            v
///        X: t = a2 * 10; r = t + b2; ret r
/// ```
pub fn swap_problem() -> Function {
    let mut b = FunctionBuilder::new("swap");
    let n = b.param("n");
    let (entry, l, x) = (b.block("entry"), b.block("L"), b.block("X"));
    let (a1, b1, i1) = (b.var("a1"), b.var("b1"), b.var("i1"));
    let (a2, b2, i2, i3) = (b.var("a2"), b.var("b2"), b.var("i2"), b.var("i3"));
    let (c, t, r) = (b.var("c"), b.var("t"), b.var("r"));
    b.switch_to(entry);
    b.copy(a1, Operand::Const(1));
    b.copy(b1, Operand::Const(2));
    b.copy(i1, Operand::Const(0));
    b.jump(l);
    b.switch_to(l);
    b.phi(a2, &[arg(entry, a1), arg(l, b2)]);
    b.phi(b2, &[arg(entry, b1), arg(l, a2)]);
    b.phi(i2, &[arg(entry, i1), arg(l, i3)]);
    b.binary(i3, BinOp::Add, i2.into(), Operand::Const(1));
    b.binary(c, BinOp::Lt, i3.into(), n.into());
    b.branch(c.into(), l, x);
    b.switch_to(x);
    b.binary(t, BinOp::Mul, a2.into(), Operand::Const(10));
    b.binary(r, BinOp::Add, t.into(), b2.into());
    b.ret(Some(r.into()));
    b.finish()
}

/// A three-way rotation `(a, b, c) = (b, c, a)` per iteration: one cycle of
/// length three among the phis, plus the counter.
pub fn rotation() -> Function {
    let mut b = FunctionBuilder::new("rotation");
    let n = b.param("n");
    let (entry, l, x) = (b.block("entry"), b.block("L"), b.block("X"));
    let (a2, b2, c2) = (b.var("a2"), b.var("b2"), b.var("c2"));
    let (i2, i3, t) = (b.var("i2"), b.var("i3"), b.var("t"));
    b.switch_to(entry);
    b.jump(l);
    b.switch_to(l);
    b.phi(a2, &[arg(entry, Operand::Const(1)), arg(l, b2)]);
    b.phi(b2, &[arg(entry, Operand::Const(2)), arg(l, c2)]);
    b.phi(c2, &[arg(entry, Operand::Const(3)), arg(l, a2)]);
    b.phi(i2, &[arg(entry, Operand::Const(0)), arg(l, i3)]);
    b.binary(i3, BinOp::Add, i2.into(), Operand::Const(1));
    b.binary(t, BinOp::Lt, i3.into(), n.into());
    b.branch(t.into(), l, x);
    b.switch_to(x);
    b.print(&[a2.into(), b2.into(), c2.into()]);
    b.ret(Some(i2.into()));
    b.finish()
}

/// A countdown whose branch reads a phi operand (`k3`, copied at the end of
/// `L` before the branch) and whose exit reads the phi (`k2`); the
/// parameter itself is a phi operand.
///
/// ```text
/// entry: jump L
/// L: k2 = phi(entry: n, L: k3); s2 = phi(entry: 0, L: s3)
///    s3 = s2 + k2; k3 = k2 - 1
///    branch k3, L, X
/// X: print k2, s3; ret s2
/// ```
pub fn countdown() -> Function {
    let mut b = FunctionBuilder::new("countdown");
    let n = b.param("n");
    let (entry, l, x) = (b.block("entry"), b.block("L"), b.block("X"));
    let (k2, k3, s2, s3) = (b.var("k2"), b.var("k3"), b.var("s2"), b.var("s3"));
    b.switch_to(entry);
    b.jump(l);
    b.switch_to(l);
    b.phi(k2, &[arg(entry, n), arg(l, k3)]);
    b.phi(s2, &[arg(entry, Operand::Const(0)), arg(l, s3)]);
    b.binary(s3, BinOp::Add, s2.into(), k2.into());
    b.binary(k3, BinOp::Sub, k2.into(), Operand::Const(1));
    b.branch(k3.into(), l, x);
    b.switch_to(x);
    b.print(&[k2.into(), s3.into()]);
    b.ret(Some(s2.into()));
    b.finish()
}

/// Multi-edges and a switch into one join block, with phis:
///
/// ```text
/// entry: c = n < 3; branch c, J, A          (entry → J critical)
/// A: m = n % 4; switch m, J, [J, B, J]       (A → J three times: critical)
/// B: d = n < 5; branch d, J, J               (two parallel edges)
/// J: v = phi(entry: 10, A: n, B: 30)
///    w = phi(entry: n, A: 20, B: n)
///    print v, w; ret v
/// ```
pub fn multi_edges() -> Function {
    let mut b = FunctionBuilder::new("multi_edges");
    let n = b.param("n");
    let (entry, a, bb, j) = (b.block("entry"), b.block("A"), b.block("B"), b.block("J"));
    let (c, m, d, v, w) = (b.var("c"), b.var("m"), b.var("d"), b.var("v"), b.var("w"));
    b.switch_to(entry);
    b.binary(c, BinOp::Lt, n.into(), Operand::Const(3));
    b.branch(c.into(), j, a);
    b.switch_to(a);
    b.binary(m, BinOp::Rem, n.into(), Operand::Const(4));
    b.switch(m.into(), j, &[j, bb, j]);
    b.switch_to(bb);
    b.binary(d, BinOp::Lt, n.into(), Operand::Const(5));
    b.branch(d.into(), j, j);
    b.switch_to(j);
    b.phi(
        v,
        &[
            arg(entry, Operand::Const(10)),
            arg(a, n),
            arg(bb, Operand::Const(30)),
        ],
    );
    b.phi(w, &[arg(entry, n), arg(a, Operand::Const(20)), arg(bb, n)]);
    b.print(&[v.into(), w.into()]);
    b.ret(Some(v.into()));
    b.finish()
}

/// A loop header with `k = sources.len()` phis `p_i`; on entry `p_i = 100 +
/// i`, around the back edge `p_i` gets `sources[i]`: `Some(j)` for `p_j`
/// (any map: permutations, fan-out, self loops), `None` for `p_i * 2 + 1`
/// computed in the body. Prints every `p_i` after the loop. With `n`
/// iterations.
pub fn phi_shuffle(sources: &[Option<usize>]) -> Function {
    let k = sources.len();
    let mut b = FunctionBuilder::new("phi_shuffle");
    let n = b.param("n");
    let (entry, l, x) = (b.block("entry"), b.block("L"), b.block("X"));
    let p: Vec<Var> = (0..k).map(|i| b.var(&format!("p{i}"))).collect();
    let q: Vec<Var> = (0..k).map(|i| b.var(&format!("q{i}"))).collect();
    let (i2, i3, c) = (b.var("i2"), b.var("i3"), b.var("c"));
    b.switch_to(entry);
    b.jump(l);
    b.switch_to(l);
    for i in 0..k {
        let back = match sources[i] {
            Some(j) => p[j],
            None => q[i],
        };
        b.phi(
            p[i],
            &[arg(entry, Operand::Const(100 + i as i64)), arg(l, back)],
        );
    }
    b.phi(i2, &[arg(entry, Operand::Const(0)), arg(l, i3)]);
    for i in 0..k {
        if sources[i].is_none() {
            let t = b.var("t");
            b.binary(t, BinOp::Mul, p[i].into(), Operand::Const(2));
            b.binary(q[i], BinOp::Add, t.into(), Operand::Const(1));
        }
    }
    b.binary(i3, BinOp::Add, i2.into(), Operand::Const(1));
    b.binary(c, BinOp::Lt, i3.into(), n.into());
    b.branch(c.into(), l, x);
    b.switch_to(x);
    let shown: Vec<Operand> = p.iter().map(|&v| v.into()).collect();
    b.print(&shown);
    b.ret(Some(i2.into()));
    b.finish()
}
