//! The chapter's running example (chapter 13, figure of the introduction and
//! sections 13.2-13.4), pinned: dominator tree, DJ-graph, dominance
//! frontiers, DF⁺ of the definitions of `x`, and liveness before and after
//! SSA construction.
//!
//! ```text
//!               r (entry)
//!               |
//!               v
//!        +----> A
//!        |     / \
//!        |    v   v
//!        |   B     C          B: y <- 0; x <- 0
//!        |    \   / \         C: tmp <- x; x <- y; y <- tmp
//!        |     v v   |
//!        +----- D    |        D: x <- f(x, y)
//!               |    |
//!               v    v
//!                 E           E: ret x
//! ```

use ssakit::analysis::report::{render_df, render_dj, render_dom, render_idf, render_live};
use ssakit::analysis::{
    brute, DjGraph, DomAlgorithm, DomTree, DominanceFrontiers, IdfCalculator, Liveness, WorklistIdf,
};
use ssakit::ir::{
    Block, Cfg, Function, FunctionBuilder, InstData, Operand, PhiArg, Terminator, Type,
};

/// The example before SSA construction.
fn chapter_example() -> Function {
    let mut fb = FunctionBuilder::new("example");
    let x = fb.var("x");
    let y = fb.var("y");
    let tmp = fb.var("tmp");
    let [r, a, b, c, d, e] = ["r", "A", "B", "C", "D", "E"].map(|n| fb.block(n));
    fb.switch_to(r);
    fb.jump(a);
    fb.switch_to(a);
    fb.branch(Operand::Const(1), b, c);
    fb.switch_to(b);
    fb.copy(y, Operand::Const(0));
    fb.copy(x, Operand::Const(0));
    fb.jump(d);
    fb.switch_to(c);
    fb.copy(tmp, x.into());
    fb.copy(x, y.into());
    fb.copy(y, tmp.into());
    fb.branch(Operand::Const(1), d, e);
    fb.switch_to(d);
    fb.call(Some(x), "f", &[x.into(), y.into()]);
    fb.branch(Operand::Const(1), a, e);
    fb.switch_to(e);
    fb.ret(Some(x.into()));
    fb.finish()
}

fn block(f: &Function, name: &str) -> Block {
    f.block_by_name(name).unwrap()
}

#[test]
fn dominator_tree_is_r_a_then_the_rest() {
    let f = chapter_example();
    let cfg = Cfg::new(&f);
    let [r, a, b, c, d, e] = ["r", "A", "B", "C", "D", "E"].map(|n| block(&f, n));
    for alg in [DomAlgorithm::Simple, DomAlgorithm::Fast] {
        let t = DomTree::with_algorithm(&cfg, alg);
        assert_eq!(t.idom(r), None);
        assert_eq!(t.idom(a), Some(r));
        for x in [b, c, d, e] {
            assert_eq!(t.idom(x), Some(a));
        }
        assert_eq!(t.children(a), &[b, c, d, e]);
        assert!(t.strictly_dominates(a, e) && !t.dominates(c, e) && !t.dominates(d, e));
    }
    assert_eq!(
        render_dom(&f),
        "idom(r) = -\nidom(A) = r\nidom(B) = A\nidom(C) = A\nidom(D) = A\nidom(E) = A\n\
         \n\
         r\n  A\n    B\n    C\n    D\n    E\n"
    );
}

#[test]
fn dj_graph() {
    let f = chapter_example();
    let cfg = Cfg::new(&f);
    let dj = DjGraph::new(&cfg, DomTree::new(&cfg));
    assert_eq!(dj.num_j_edges(), 5);
    assert_eq!(
        render_dj(&f),
        "r -D-> A\nA -D-> B\nA -D-> C\nA -D-> D\nA -D-> E\n\
         B -J-> D\nC -J-> D\nC -J-> E\nD -J-> A\nD -J-> E\n"
    );
}

#[test]
fn dominance_frontiers() {
    let f = chapter_example();
    let cfg = Cfg::new(&f);
    let df = DominanceFrontiers::new(&cfg, &DomTree::new(&cfg));
    let oracle = brute::dominance_frontiers(&cfg);
    for &b in f.layout() {
        assert_eq!(df.df(b), &oracle[b.index()][..]);
    }
    // DF(A) = {A}: A dominates D, a predecessor of A, and does not strictly
    // dominate itself (the loop A → ... → D → A).
    assert_eq!(
        render_df(&f),
        "DF(r) = {}\nDF(A) = {A}\nDF(B) = {D}\nDF(C) = {D, E}\nDF(D) = {A, E}\nDF(E) = {}\n"
    );
}

#[test]
fn phis_for_x_go_to_a_d_e() {
    // Section 13.3: Defs(x) = {B, C, D}; DF⁺ = {A, D, E}.
    let f = chapter_example();
    let cfg = Cfg::new(&f);
    let t = DomTree::new(&cfg);
    let df = DominanceFrontiers::new(&cfg, &t);
    let defs = ["B", "C", "D"].map(|n| block(&f, n));
    let expected = ["A", "D", "E"].map(|n| block(&f, n)).to_vec();
    assert_eq!(WorklistIdf::new(&df).idf(&defs), expected);
    assert_eq!(IdfCalculator::new(&cfg, &t).idf(&defs), expected);
    assert_eq!(
        brute::iterated_frontier(&brute::dominance_frontiers(&cfg), &defs),
        expected
    );
    let x = f.var_by_name("x").unwrap();
    let y = f.var_by_name("y").unwrap();
    let tmp = f.var_by_name("tmp").unwrap();
    assert_eq!(
        render_idf(&f, x),
        "Defs(x) = {B, C, D}\nDF+(Defs(x)) = {A, D, E}\n"
    );
    // y is defined in B and C: phis in D, then A and E.
    assert_eq!(
        render_idf(&f, y),
        "Defs(y) = {B, C}\nDF+(Defs(y)) = {A, D, E}\n"
    );
    // tmp, only in C: D and E, then A through DF(D); its phis are dead
    // (the form is not pruned, section 13.5).
    assert_eq!(
        render_idf(&f, tmp),
        "Defs(tmp) = {C}\nDF+(Defs(tmp)) = {A, D, E}\n"
    );
}

#[test]
fn liveness_before_ssa() {
    let f = chapter_example();
    check_against_oracle(&f);
    // x and y are used in C and D before being defined there, and x reaches
    // the ret: both are live around the loop and into the entry (the
    // chapter's "x used without definition on r → A → C").
    assert_eq!(
        render_live(&f),
        "live-in(r) = {x, y}\nlive-out(r) = {x, y}\n\
         live-in(A) = {x, y}\nlive-out(A) = {x, y}\n\
         live-in(B) = {}\nlive-out(B) = {x, y}\n\
         live-in(C) = {x, y}\nlive-out(C) = {x, y}\n\
         live-in(D) = {x, y}\nlive-out(D) = {x, y}\n\
         live-in(E) = {x}\nlive-out(E) = {}\n"
    );
}

/// The example after renaming (section 13.4 figure), built by hand with
/// versions `x1 .. x6`, `y1 .. y5`, `tmp1` and ⊥ for the entry's arguments.
fn chapter_example_ssa() -> Function {
    let mut f = Function::new("example");
    let x = f.new_var("x", Type::I64);
    let y = f.new_var("y", Type::I64);
    let tmp = f.new_var("tmp", Type::I64);
    let xs: Vec<_> = (1..=6).map(|i| f.new_version(x, i)).collect();
    let ys: Vec<_> = (1..=5).map(|i| f.new_version(y, i)).collect();
    let tmp1 = f.new_version(tmp, 1);
    let [r, a, b, c, d, e] = ["r", "A", "B", "C", "D", "E"].map(|n| f.new_block(n));
    let phi = |f: &mut Function, dst, args: &[(Block, Operand)]| InstData::Phi {
        dst,
        args: f.list_from_iter(args.iter().map(|&(block, value)| PhiArg { block, value })),
    };
    let br = |t, e| Terminator::Branch {
        cond: Operand::Const(1),
        then_dest: t,
        else_dest: e,
    };
    f.set_term(r, Terminator::Jump(a));
    let ph = phi(&mut f, xs[0], &[(r, Operand::Undef), (d, xs[4].into())]);
    f.push_inst(a, ph);
    let ph = phi(&mut f, ys[0], &[(r, Operand::Undef), (d, ys[3].into())]);
    f.push_inst(a, ph);
    f.set_term(a, br(b, c));
    f.push_inst(
        b,
        InstData::Copy {
            dst: ys[1],
            src: Operand::Const(0),
        },
    );
    f.push_inst(
        b,
        InstData::Copy {
            dst: xs[1],
            src: Operand::Const(0),
        },
    );
    f.set_term(b, Terminator::Jump(d));
    f.push_inst(
        c,
        InstData::Copy {
            dst: tmp1,
            src: xs[0].into(),
        },
    );
    f.push_inst(
        c,
        InstData::Copy {
            dst: xs[2],
            src: ys[0].into(),
        },
    );
    f.push_inst(
        c,
        InstData::Copy {
            dst: ys[2],
            src: tmp1.into(),
        },
    );
    f.set_term(c, br(d, e));
    let ph = phi(&mut f, xs[3], &[(b, xs[1].into()), (c, xs[2].into())]);
    f.push_inst(d, ph);
    let ph = phi(&mut f, ys[3], &[(b, ys[1].into()), (c, ys[2].into())]);
    f.push_inst(d, ph);
    let call = InstData::Call {
        callee: f.callee("f"),
        args: f.list(&[xs[3].into(), ys[3].into()]),
        results: f.list(&[xs[4]]),
    };
    f.push_inst(d, call);
    f.set_term(d, br(a, e));
    let ph = phi(&mut f, xs[5], &[(c, xs[2].into()), (d, xs[4].into())]);
    f.push_inst(e, ph);
    let ph = phi(&mut f, ys[4], &[(c, ys[2].into()), (d, ys[3].into())]);
    f.push_inst(e, ph);
    let ret = f.ret_term(&[xs[5].into()]);
    f.set_term(e, ret);
    f
}

#[test]
fn liveness_after_ssa() {
    let f = chapter_example_ssa();
    check_against_oracle(&f);
    // Phi operands are live-out of their predecessor only; phi results are
    // defined at the top of their block, so nothing is live into A, D or E.
    assert_eq!(
        render_live(&f),
        "live-in(r) = {}\nlive-out(r) = {}\n\
         live-in(A) = {}\nlive-out(A) = {x1, y1}\n\
         live-in(B) = {}\nlive-out(B) = {x2, y2}\n\
         live-in(C) = {x1, y1}\nlive-out(C) = {x3, y3}\n\
         live-in(D) = {}\nlive-out(D) = {x5, y4}\n\
         live-in(E) = {}\nlive-out(E) = {}\n"
    );
}

fn check_against_oracle(f: &Function) {
    let live = Liveness::new(f, &Cfg::new(f));
    let (live_in, live_out) = brute::liveness(f);
    for &b in f.layout() {
        assert_eq!(live.live_in(b), &live_in[b.index()][..]);
        assert_eq!(live.live_out(b), &live_out[b.index()][..]);
    }
}
