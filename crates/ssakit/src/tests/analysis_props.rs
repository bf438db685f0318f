//! Property tests: every analysis against its brute-force oracle
//! (`ssakit::analysis::brute`) on thousands of random graphs and functions.
//!
//! Graphs come from two generators: arbitrary edge lists (irreducible loops,
//! unreachable nodes, self loops, multi-edges, an entry anywhere and often
//! with predecessors) and "spanning tree plus extra edges" graphs, where every
//! node is reachable. Functions come from random specifications: a few
//! variables, random definitions and uses, parallel copies, random
//! terminators (jumps, branches with equal targets, switches, returns) and
//! random phis with one argument per distinct predecessor.

use super::common;

use proptest::prelude::*;
use ssakit::analysis::{
    brute, CsrGraph, DepthFirst, DjGraph, DomAlgorithm, DomEvent, DomTree, DominanceFrontiers,
    Graph, IdfCalculator, Liveness, WorklistIdf,
};
use ssakit::ir::{Block, Cfg, Function, FunctionBuilder, Operand, PhiArg};

const ALGORITHMS: [DomAlgorithm; 2] = [DomAlgorithm::Simple, DomAlgorithm::Fast];

fn arbitrary_graph() -> impl Strategy<Value = CsrGraph> {
    (1usize..40)
        .prop_flat_map(|n| {
            let e = n as u32;
            (Just(n), 0..e, prop::collection::vec((0..e, 0..e), 0..3 * n))
        })
        .prop_map(|(n, entry, edges)| CsrGraph::from_edges(n, Block::from_u32(entry), &edges))
}

fn connected_graph() -> impl Strategy<Value = CsrGraph> {
    (1usize..40)
        .prop_flat_map(|n| {
            let e = n as u32;
            (
                Just(n),
                prop::collection::vec(any::<u32>(), n),
                prop::collection::vec((0..e, 0..e), 0..2 * n),
            )
        })
        .prop_map(|(n, parents, extra)| {
            // Node i > 0 hangs from a random earlier node: all reachable.
            let mut edges: Vec<(u32, u32)> = (1..n as u32)
                .map(|i| (parents[i as usize] % i, i))
                .collect();
            edges.extend(extra);
            CsrGraph::from_edges(n, Block::from_u32(0), &edges)
        })
}

fn any_graph() -> impl Strategy<Value = CsrGraph> {
    prop_oneof![arbitrary_graph(), connected_graph()]
}

/// Checks both dominator algorithms against the removal oracle, plus the
/// tree's internal invariants.
fn check_dominators<G: Graph>(g: &G) {
    let n = g.num_nodes();
    let idoms = brute::idoms(g);
    let matrix = brute::dominance_matrix(g);
    let reach = brute::reachable_without(g, None);
    let dfs = DepthFirst::new(g);
    for alg in ALGORITHMS {
        let t = DomTree::with_dfs(g, &dfs, alg);
        let mut preorder_seen = vec![false; n];
        for b in (0..n).map(Block::new) {
            assert_eq!(t.idom(b), idoms[b.index()], "idom({b}) by {alg:?}");
            assert_eq!(t.is_reachable(b), reach[b.index()]);
            assert_eq!(dfs.is_reachable(b), reach[b.index()]);
            for a in (0..n).map(Block::new) {
                assert_eq!(
                    t.dominates(a, b),
                    matrix[a.index()][b.index()],
                    "{a} dom {b}"
                );
                assert_eq!(
                    t.strictly_dominates(a, b),
                    a != b && matrix[a.index()][b.index()]
                );
            }
            match t.idom(b) {
                Some(p) => {
                    assert_eq!(t.depth(b), t.depth(p).map(|d| d + 1));
                    assert!(t.children(p).contains(&b));
                }
                None => assert_eq!(t.depth(b), reach[b.index()].then_some(0)),
            }
            for w in t.children(b).windows(2) {
                assert!(w[0] < w[1]);
            }
        }
        for b in t.preorder() {
            if let Some(p) = t.idom(b) {
                assert!(preorder_seen[p.index()], "preorder: {p} before {b}");
            }
            preorder_seen[b.index()] = true;
        }
        assert_eq!(preorder_seen, reach);
        let unreachable: Vec<Block> = t.unreachable_blocks().collect();
        let expected: Vec<Block> = (0..n).filter(|&i| !reach[i]).map(Block::new).collect();
        assert_eq!(unreachable, expected);
        // The walk enters each reachable node once, after its idom, and
        // exits in LIFO order.
        let mut open: Vec<Block> = Vec::new();
        let mut entered = 0;
        for e in t.walk() {
            match e {
                DomEvent::Enter(b) => {
                    assert_eq!(open.last().copied(), t.idom(b));
                    open.push(b);
                    entered += 1;
                }
                DomEvent::Exit(b) => assert_eq!(open.pop(), Some(b)),
            }
        }
        assert!(open.is_empty());
        assert_eq!(entered, t.num_reachable());
    }
}

/// Reverse postorder: every forward (non-back) edge goes forward.
fn check_postorder<G: Graph>(g: &G) {
    let dfs = DepthFirst::new(g);
    let t = DomTree::new(g);
    for a in (0..g.num_nodes()).map(Block::new) {
        let Some(ra) = dfs.rpo_number(a) else {
            continue;
        };
        for &b in g.succs(a) {
            let rb = dfs
                .rpo_number(b)
                .expect("successor of reachable is reachable");
            // A back edge in a DFS goes to an ancestor; b dominates a iff
            // the edge is a back edge of a natural loop, which must go back.
            if t.dominates(b, a) {
                assert!(rb <= ra);
            }
            if rb <= ra {
                // Then b is a DFS ancestor of a (or a itself).
                let mut x = Some(a);
                while x.is_some() && x != Some(b) {
                    x = dfs.dfs_parent(x.unwrap());
                }
                assert_eq!(x, Some(b), "retreating edge {a}->{b} to a non-ancestor");
            }
        }
    }
}

fn check_frontiers_and_dj<G: Graph>(g: &G) {
    let expected = brute::dominance_frontiers(g);
    let matrix = brute::dominance_matrix(g);
    for alg in ALGORITHMS {
        let t = DomTree::with_algorithm(g, alg);
        let df = DominanceFrontiers::new(g, &t);
        for x in (0..g.num_nodes()).map(Block::new) {
            assert_eq!(df.df(x), &expected[x.index()][..], "DF({x})");
        }
        let dj = DjGraph::new(g, t);
        for a in (0..g.num_nodes()).map(Block::new) {
            let mut j: Vec<Block> = if dj.dom_tree().is_reachable(a) {
                g.succs(a)
                    .iter()
                    .copied()
                    .filter(|&b| !(a != b && matrix[a.index()][b.index()]))
                    .collect()
            } else {
                Vec::new()
            };
            j.sort();
            j.dedup();
            assert_eq!(dj.j_succs(a), &j[..], "J-edges of {a}");
        }
    }
}

fn check_idf<G: Graph>(g: &G, sets: &[Vec<u32>]) {
    let n = g.num_nodes();
    let brute_df = brute::dominance_frontiers(g);
    let t = DomTree::new(g);
    let df = DominanceFrontiers::new(g, &t);
    let mut chapter = WorklistIdf::new(&df);
    let mut linear = IdfCalculator::new(g, &t);
    let virtual_entry = brute::with_virtual_entry(g);
    let entry_has_preds = !g.preds(g.entry()).is_empty();
    // Several queries on the same calculators: the stamps must reset.
    for raw in sets {
        let s: Vec<Block> = raw.iter().map(|&x| Block::from_u32(x % n as u32)).collect();
        let fixpoint = brute::iterated_frontier(&brute_df, &s);
        let a = chapter.idf(&s);
        let b = linear.idf(&s);
        assert_eq!(a, fixpoint, "worklist DF+({s:?})");
        assert_eq!(b, fixpoint, "linear DF+({s:?})");
        assert_eq!(
            linear.is_empty(&s),
            fixpoint.is_empty(),
            "DF+({s:?}) = {{}}"
        );
        // DF+(S) = J(S ∪ {r0}) on the graph with a virtual entry r0.
        let mut reachable: Vec<Block> = s.iter().copied().filter(|&x| t.is_reachable(x)).collect();
        let mut with_r0 = reachable.clone();
        with_r0.push(Block::from_u32(n as u32));
        let mut j = brute::join_set(&virtual_entry, &with_r0);
        j.retain(|&x| x.index() < n);
        assert_eq!(fixpoint, j, "DF+ vs J(S ∪ {{r0}}) for {s:?}");
        // And the chapter's DF+(S) = J(S ∪ {r}) when r has no predecessors.
        if !entry_has_preds {
            reachable.push(g.entry());
            assert_eq!(fixpoint, brute::join_set(g, &reachable), "J(S ∪ {{r}})");
        }
    }
}

/// The word-parallel worklist (`IdfWords`) against the linear method: each
/// set one bit of a word, every join live and then some dead (a fixed
/// pseudo-random pattern per block and bit), as pruned SSA asks.
fn check_idf_words<G: Graph>(g: &G, sets: &[Vec<u32>]) {
    use ssakit::analysis::idf_words::IdfWords;
    let n = g.num_nodes() as u32;
    let t = DomTree::new(g);
    let mut linear = IdfCalculator::new(g, &t);
    let mut words = IdfWords::new(g, &t, usize::MAX).expect("no bound");
    let sets: Vec<Vec<Block>> = sets
        .iter()
        .map(|raw| raw.iter().map(|&x| Block::from_u32(x % n)).collect())
        .collect();
    let def = |y: Block| {
        (0..sets.len())
            .filter(|&k| sets[k].contains(&y))
            .fold(0u64, |w, k| w | 1 << k)
    };
    let pattern = |y: Block| (y.as_u32().wrapping_mul(0x9E37_79B9) >> 7) as u64;
    for live in [&(|_: Block| u64::MAX) as &dyn Fn(Block) -> u64, &pattern] {
        let defs = sets
            .iter()
            .enumerate()
            .flat_map(|(k, s)| s.iter().map(move |&x| (x, 1u64 << k)));
        let got: Vec<(Block, u64)> = words.compute(defs, def, live).collect();
        for (k, s) in sets.iter().enumerate() {
            let mut want = Vec::new();
            linear.compute_live(s, &mut want, |y| live(y) >> k & 1 != 0);
            let mut have: Vec<Block> = got
                .iter()
                .filter(|&&(_, w)| w >> k & 1 != 0)
                .map(|&(b, _)| b)
                .collect();
            have.sort();
            assert_eq!(have, want, "word DF+ of set {k}, {s:?}");
        }
    }
    // Within a bound: all or nothing.
    let df = DominanceFrontiers::new(g, &t);
    let size: usize = (0..n).map(|x| df.df(Block::from_u32(x)).len()).sum();
    assert!(IdfWords::new(g, &t, size).is_some());
    if size > 0 {
        assert!(IdfWords::new(g, &t, size - 1).is_none());
    }
}

proptest! {
    #![proptest_config(common::config(2000))]

    #[test]
    fn dominators_match_oracle(g in any_graph()) {
        check_dominators(&g);
        check_postorder(&g);
    }

    #[test]
    fn frontiers_and_dj_match_definitions(g in any_graph()) {
        check_frontiers_and_dj(&g);
    }

    #[test]
    fn idf_matches_fixpoint_and_join_sets(
        g in any_graph(),
        sets in prop::collection::vec(prop::collection::vec(any::<u32>(), 0..6), 1..4),
    ) {
        check_idf(&g, &sets);
        check_idf_words(&g, &sets);
    }
}

/// A random function: specification, built on demand.
#[derive(Clone, Debug)]
struct FnSpec {
    nvars: usize,
    nparams: usize,
    blocks: Vec<BlockSpec>,
}

/// (kind, destination, operand, operand, parallel-copy pairs).
type InstSpec = (u8, u8, u8, u8, Vec<(u8, u8)>);

#[derive(Clone, Debug)]
struct BlockSpec {
    /// (destination, argument operand choices; one is picked per pred).
    phis: Vec<(u8, Vec<u8>)>,
    insts: Vec<InstSpec>,
    /// (kind, operand, target, target, switch targets).
    term: (u8, u8, u8, u8, Vec<u8>),
}

fn fn_spec() -> impl Strategy<Value = FnSpec> {
    (1usize..10, 1usize..5, 0usize..2).prop_flat_map(|(nb, nvars, nparams)| {
        let byte = any::<u8>();
        let block = (
            prop::collection::vec((byte, prop::collection::vec(byte, 1..4)), 0..3),
            prop::collection::vec(
                (
                    0u8..5,
                    byte,
                    byte,
                    byte,
                    prop::collection::vec((byte, byte), 1..4),
                ),
                0..4,
            ),
            (0u8..4, byte, byte, byte, prop::collection::vec(byte, 0..3)),
        )
            .prop_map(|(phis, insts, term)| BlockSpec { phis, insts, term });
        prop::collection::vec(block, nb).prop_map(move |blocks| FnSpec {
            nvars,
            nparams: nparams.min(nvars),
            blocks,
        })
    })
}

impl FnSpec {
    fn build(&self) -> Function {
        let mut fb = FunctionBuilder::new("f");
        let mut vars = Vec::new();
        for i in 0..self.nvars {
            let name = format!("v{i}");
            vars.push(if i < self.nparams {
                fb.param(&name)
            } else {
                fb.var(&name)
            });
        }
        let blocks: Vec<Block> = (0..self.blocks.len())
            .map(|i| fb.block(&format!("b{i}")))
            .collect();
        let nv = self.nvars;
        let op = |x: u8| -> Operand {
            match x as usize % (nv + 2) {
                i if i < nv => Operand::Var(vars[i]),
                i if i == nv => Operand::Const(x as i64),
                _ => Operand::Undef,
            }
        };
        let var = |x: u8| vars[x as usize % nv];
        let target = |x: u8| blocks[x as usize % blocks.len()];
        for (spec, &b) in self.blocks.iter().zip(&blocks) {
            fb.switch_to(b);
            for (kind, d, a, c, pairs) in &spec.insts {
                match kind {
                    0 => {
                        fb.copy(var(*d), op(*a));
                    }
                    1 => {
                        fb.binary(var(*d), ssakit::ir::BinOp::Add, op(*a), op(*c));
                    }
                    2 => {
                        let dst = (*a % 2 == 0).then(|| var(*d));
                        fb.call(dst, "g", &[op(*a), op(*c)]);
                    }
                    3 => {
                        fb.print(&[op(*a)]);
                    }
                    _ => {
                        let mut copies: Vec<(ssakit::ir::Var, Operand)> = Vec::new();
                        for &(d, s) in pairs {
                            if !copies.iter().any(|(x, _)| *x == var(d)) {
                                copies.push((var(d), op(s)));
                            }
                        }
                        fb.par_copy(&copies);
                    }
                }
            }
            let (kind, o, t, e, ts) = &spec.term;
            match kind {
                0 => fb.ret((*o % 2 == 0).then(|| op(*o / 2))),
                1 => fb.jump(target(*t)),
                2 => fb.branch(op(*o), target(*t), target(*e)),
                _ => {
                    let targets: Vec<Block> = ts.iter().map(|&x| target(x)).collect();
                    fb.switch(op(*o), target(*t), &targets)
                }
            }
        }
        // Phis need the final CFG: one argument per distinct predecessor.
        let cfg = Cfg::new(fb.func());
        for (spec, &b) in self.blocks.iter().zip(&blocks) {
            let preds: Vec<Block> = cfg.unique_preds(b).collect();
            if preds.is_empty() {
                continue;
            }
            fb.switch_to(b);
            let mut dsts = Vec::new();
            for (d, choices) in &spec.phis {
                if dsts.contains(&var(*d)) {
                    continue; // phis of a block define distinct variables
                }
                dsts.push(var(*d));
                let args: Vec<PhiArg> = preds
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| PhiArg {
                        block: p,
                        value: op(choices[i % choices.len()]),
                    })
                    .collect();
                fb.phi(var(*d), &args);
            }
        }
        fb.finish()
    }
}

proptest! {
    #![proptest_config(common::config(3000))]

    #[test]
    fn liveness_matches_dataflow(spec in fn_spec()) {
        let f = spec.build();
        let cfg = Cfg::new(&f);
        let live = Liveness::new(&f, &cfg);
        let (live_in, live_out) = brute::liveness(&f);
        for &b in f.layout() {
            prop_assert_eq!(live.live_in(b), &live_in[b.index()][..], "live-in({})", b);
            prop_assert_eq!(live.live_out(b), &live_out[b.index()][..], "live-out({})", b);
            for v in f.vars() {
                prop_assert_eq!(live.is_live_in(b, v), live_in[b.index()].contains(&v));
                prop_assert_eq!(live.is_live_out(b, v), live_out[b.index()].contains(&v));
            }
        }
    }

    #[test]
    fn function_cfgs_match_oracles(spec in fn_spec()) {
        let f = spec.build();
        let cfg = Cfg::new(&f);
        check_dominators(&cfg);
        check_frontiers_and_dj(&cfg);
    }
}

/// [`LiveCheck`](ssakit::analysis::LiveCheck) against [`Liveness`] on
/// generated programs of every shape in pruned SSA (with copy propagation
/// or not), every variable asked about every block, twice, in an order
/// that mixes the last variable explored, kept lists asked again (sorted
/// then) and batched explorations.
#[test]
fn live_check_matches_liveness_on_generated_ssa() {
    use ssakit::analysis::LiveCheck;
    use ssakit::construct::{construct, Flavor, Options};
    use ssakit::gen::{generate, GenOptions, Shape};
    for shape in Shape::ALL {
        for seed in 0..12 {
            let mut f = generate(&GenOptions {
                shape,
                blocks: 40,
                vars: 4,
                seed,
            });
            let opts = Options {
                flavor: Flavor::Pruned,
                ..Default::default()
            };
            construct(&mut f, &opts).unwrap();
            if seed % 2 == 1 {
                ssakit::opt::copy_prop(&mut f).unwrap();
            }
            let cfg = Cfg::new(&f);
            let dt = DomTree::new(&cfg);
            let live = Liveness::new(&f, &cfg);
            let mut check = LiveCheck::new(&f, &cfg, &dt);
            let vars: Vec<_> = f.vars().collect();
            for round in 0..2 {
                for (k, &v) in vars.iter().enumerate() {
                    if round == 1 && k % 3 == 0 {
                        check.explore(v);
                    }
                    for &b in f.layout() {
                        assert_eq!(
                            check.is_live_out(v, b),
                            live.is_live_out(b, v),
                            "{} seed {seed}: {v} out of {b}",
                            shape.name()
                        );
                    }
                }
            }
        }
    }
}
