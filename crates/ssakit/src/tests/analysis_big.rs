//! Big generated graphs through every analysis, to show that nothing
//! recurses: a 200,000-node chain, chain of diamonds and ladder (see
//! `analysis_shapes/mod.rs`) have depth-first and dominator trees about
//! 70,000-200,000 deep, far beyond what recursion on a test thread's 2 MiB
//! stack survives. (Cooper–Harvey–Kennedy is Θ(n²) on the ladder, so that
//! one pairing runs on a smaller ladder; it has no recursion either way.)

use super::analysis_shapes;

use analysis_shapes::{chain, diamonds, function_from_graph, Ladder};
use ssakit::analysis::{
    brute, DepthFirst, DomAlgorithm, DomTree, DominanceFrontiers, Graph, IdfCalculator, Liveness,
    WorklistIdf,
};
use ssakit::ir::{Block, Cfg};

const N: usize = 200_000;
const BOTH: [DomAlgorithm; 2] = [DomAlgorithm::Simple, DomAlgorithm::Fast];

/// Liveness of the shape's function equals the dataflow oracle.
fn check_liveness_on_shape<G: Graph>(g: &G) {
    let f = function_from_graph(g);
    let live = Liveness::new(&f, &Cfg::new(&f));
    let (live_in, live_out) = brute::liveness(&f);
    for &b in f.layout() {
        assert_eq!(live.live_in(b), &live_in[b.index()][..], "live-in({b})");
        assert_eq!(live.live_out(b), &live_out[b.index()][..], "live-out({b})");
    }
    let (a, p) = (f.var_by_name("a").unwrap(), f.var_by_name("p").unwrap());
    assert!(live.is_live_in(Block::from_u32(1), a) && live.is_live_in(Block::from_u32(1), p));
}

#[test]
fn chain_of_200k() {
    let g = chain(N);
    assert_eq!(
        DepthFirst::new(&g).postorder()[0],
        Block::from_u32(N as u32 - 1)
    );
    for alg in BOTH {
        let t = DomTree::with_algorithm(&g, alg);
        for i in 1..N as u32 {
            assert_eq!(t.idom(Block::from_u32(i)), Some(Block::from_u32(i - 1)));
        }
        assert_eq!(t.depth(Block::from_u32(N as u32 - 1)), Some(N as u32 - 1));
        assert!(t.dominates(Block::from_u32(7), Block::from_u32(N as u32 - 2)));
        assert_eq!(t.walk().count(), 2 * N);
        // DF(i) = {1} for every i ≥ 1: all dominate the back edge's source.
        let df = DominanceFrontiers::new(&g, &t);
        assert!(df.df(Block::from_u32(0)).is_empty());
        assert!((1..N).all(|i| df.df(Block::new(i)) == [Block::from_u32(1)]));
        let defs = [Block::from_u32(N as u32 - 1), Block::from_u32(5)];
        assert_eq!(
            IdfCalculator::new(&g, &t).idf(&defs),
            vec![Block::from_u32(1)]
        );
        assert_eq!(WorklistIdf::new(&df).idf(&defs), vec![Block::from_u32(1)]);
    }
    check_liveness_on_shape(&g);
}

#[test]
fn diamonds_of_200k() {
    let g = diamonds(N);
    let h = |i: u32| Block::from_u32(1 + 3 * i);
    let k = (g.num_nodes() as u32 - 2) / 3;
    for alg in BOTH {
        let t = DomTree::with_algorithm(&g, alg);
        for i in 0..k {
            assert_eq!(t.idom(h(i + 1)), Some(h(i)));
            assert_eq!(t.idom(Block::new(h(i).index() + 2)), Some(h(i)));
        }
        assert_eq!(t.depth(h(k)), Some(k + 1));
        let df = DominanceFrontiers::new(&g, &t);
        assert_eq!(df.df(Block::new(h(3).index() + 1)), &[h(4)]);
        assert_eq!(df.df(h(3)), &[h(0)]);
        // A definition in one arm: a phi at the join, then at the loop head.
        let defs = [Block::new(h(9).index() + 1)];
        assert_eq!(IdfCalculator::new(&g, &t).idf(&defs), vec![h(0), h(10)]);
        assert_eq!(WorklistIdf::new(&df).idf(&defs), vec![h(0), h(10)]);
    }
    check_liveness_on_shape(&g);
}

/// Checks the ladder's dominator tree and DF⁺ (never materialising DF).
fn check_ladder(ladder: &Ladder, alg: DomAlgorithm) {
    let g = ladder.graph();
    let k = ladder.k;
    let (l, r, x) = (|i| ladder.l(i), |i| ladder.r(i), ladder.x());
    let t = DomTree::with_algorithm(&g, alg);
    assert_eq!(t.idom(l(0)), Some(Block::from_u32(0)));
    for i in 1..k {
        assert_eq!(t.idom(l(i)), Some(l(i - 1)));
    }
    for i in 0..k {
        assert_eq!(t.idom(r(i)), Some(l(0)));
    }
    assert_eq!(t.idom(x), Some(l(0)));
    assert_eq!(t.depth(l(k - 1)), Some(k));
    // DF+({R0}) = {L0} ∪ {R1 .. Rk-1} ∪ {X}: DF(R_i) = {R_i+1},
    // DF(R_k-1) = {X}, DF(X) = {L0}.
    let mut calc = IdfCalculator::new(&g, &t);
    let mut expected: Vec<Block> = vec![l(0)];
    expected.extend((1..k).map(r));
    expected.push(x);
    expected.sort();
    assert_eq!(calc.idf(&[r(0)]), expected);
    // DF(L5) = {R5 .. Rk-1, X}: DF+({L5}) = {L0, R5 .. Rk-1, X}.
    let mut expected: Vec<Block> = vec![l(0)];
    expected.extend((5..k).map(r));
    expected.push(x);
    expected.sort();
    assert_eq!(calc.idf(&[l(5)]), expected);
    // A small query after big ones is still right.
    assert_eq!(calc.idf(&[Block::from_u32(0)]), Vec::<Block>::new());
}

#[test]
fn ladder_of_200k() {
    let ladder = Ladder::with_nodes(N);
    check_ladder(&ladder, DomAlgorithm::Fast);
    check_ladder(&Ladder::with_nodes(20_000), DomAlgorithm::Simple);
    check_liveness_on_shape(&ladder.graph());
}
