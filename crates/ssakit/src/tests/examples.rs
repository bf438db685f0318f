//! The examples of items that are `pub(crate)`: a doctest can reach only
//! the public API, so each example runs here as a unit test, named after
//! the file and the item it shows.
#![allow(
    unused_imports,
    unused_variables,
    unused_mut,
    clippy::needless_range_loop
)]

/// `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`, with
/// its blocks e, a, j and its variable x.
fn diamond() -> (
    ssakit::ir::Function,
    [ssakit::ir::Block; 3],
    ssakit::ir::Var,
) {
    let src = "function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}";
    let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
    let blocks = ["e", "a", "j"].map(|n| f.block_by_name(n).unwrap());
    let x = f.var_by_name("x").unwrap();
    (f, blocks, x)
}

/// `i = 0; while i < n { i = i + 1 }` in SSA (e → h ⇄ b, h → x), the
/// function the liveness examples ask about.
fn counting_loop() -> ssakit::ir::Module {
    ssakit::text::parse_module(
        "function f(n) {
e:
    i = 0
    jump h
h:
    i1 = phi(e: i, b: i2)
    c = i1 < n
    branch c, b, x
b:
    i2 = i1 + 1
    jump h
x:
    ret i1
}
",
    )
    .unwrap()
}

/// `reachable_without` (analysis/brute.rs).
#[test]
fn analysis_brute_reachable_without() {
    use ssakit::analysis::brute::reachable_without;
    use ssakit::analysis::CsrGraph;
    use ssakit::ir::Block;
    let b = Block::new;
    // 0 → 1 → 2, and 3 unreachable.
    let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (1, 2)]);
    assert_eq!(reachable_without(&g, None), [true, true, true, false]);
    // Without 1, 2 is cut off: 1 dominates 2.
    assert_eq!(
        reachable_without(&g, Some(b(1))),
        [true, false, false, false]
    );
}

/// `dominance_matrix` (analysis/brute.rs).
#[test]
fn analysis_brute_dominance_matrix() {
    use ssakit::analysis::brute::dominance_matrix;
    use ssakit::analysis::{CsrGraph, DomTree};
    use ssakit::ir::Block;
    let b = Block::new;
    let edges = ssakit::analysis::graph::CHAPTER_EDGES;
    let g = CsrGraph::from_edges(6, b(0), &edges);
    let m = dominance_matrix(&g);
    let tree = DomTree::new(&g);
    for x in 0..6 {
        for y in 0..6 {
            assert_eq!(m[x][y], tree.dominates(b(x), b(y)));
        }
    }
}

/// `idoms` (analysis/brute.rs).
#[test]
fn analysis_brute_idoms() {
    use ssakit::analysis::brute::idoms;
    use ssakit::analysis::CsrGraph;
    use ssakit::ir::Block;
    let b = Block::new;
    let edges = ssakit::analysis::graph::CHAPTER_EDGES;
    let g = CsrGraph::from_edges(6, b(0), &edges);
    let a = Some(b(1));
    assert_eq!(idoms(&g), [None, Some(b(0)), a, a, a, a]);
}

/// `dominance_frontiers` (analysis/brute.rs).
#[test]
fn analysis_brute_dominance_frontiers() {
    use ssakit::analysis::brute::dominance_frontiers;
    use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers};
    use ssakit::ir::Block;
    let b = Block::new;
    let edges = ssakit::analysis::graph::CHAPTER_EDGES;
    let g = CsrGraph::from_edges(6, b(0), &edges);
    let slow = dominance_frontiers(&g);
    assert_eq!(slow[3], [b(4), b(5)]); // DF(C) = {D, E}
    let fast = DominanceFrontiers::new(&g, &DomTree::new(&g));
    assert!((0..6).all(|x| fast.df(b(x)) == slow[x].as_slice()));
}

/// `iterated_frontier` (analysis/brute.rs).
#[test]
fn analysis_brute_iterated_frontier() {
    use ssakit::analysis::brute::{dominance_frontiers, iterated_frontier};
    use ssakit::analysis::CsrGraph;
    use ssakit::ir::Block;
    let b = Block::new;
    let edges = ssakit::analysis::graph::CHAPTER_EDGES;
    let g = CsrGraph::from_edges(6, b(0), &edges);
    let df = dominance_frontiers(&g);
    // DF⁺({B}): DF(B) = {D}, DF(D) = {A, E}, DF(A) = {A}.
    assert_eq!(iterated_frontier(&df, &[b(2)]), [b(1), b(4), b(5)]);
}

/// `join_set` (analysis/brute.rs).
#[test]
fn analysis_brute_join_set() {
    use ssakit::analysis::brute::join_set;
    use ssakit::analysis::CsrGraph;
    use ssakit::ir::Block;
    let b = Block::new;
    // A diamond 0 → {1, 2} → 3: paths from 1 and from 2 first meet at 3.
    let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    assert_eq!(join_set(&g, &[b(1), b(2)]), [b(3)]);
    assert!(join_set(&g, &[b(1)]).is_empty()); // one node: nothing to join
}

/// `with_virtual_entry` (analysis/brute.rs).
#[test]
fn analysis_brute_with_virtual_entry() {
    use ssakit::analysis::brute::with_virtual_entry;
    use ssakit::analysis::{CsrGraph, Graph};
    use ssakit::ir::Block;
    let b = Block::new;
    // The entry 0 has a predecessor: 0 ⇄ 1.
    let g = CsrGraph::from_edges(2, b(0), &[(0, 1), (1, 0)]);
    let v = with_virtual_entry(&g);
    assert_eq!(v.entry(), b(2));
    assert_eq!(v.succs(b(2)), &[b(0)]);
    assert!(v.preds(b(2)).is_empty());
}

/// `liveness` (analysis/brute.rs).
#[test]
fn analysis_brute_liveness() {
    use ssakit::analysis::{brute, Liveness};
    use ssakit::ir::Cfg;
    let src = "function f(n) {
    e:
        i = 0
        jump h
    h:
        c = i < n
        branch c, b, x
    b:
        i = i + 1
        jump h
    x:
        ret i
    }
    ";
    let f = &ssakit::text::parse_module(src).unwrap().functions[0];
    let (live_in, live_out) = brute::liveness(f);
    let fast = Liveness::new(f, &Cfg::new(f));
    for b in f.blocks() {
        assert_eq!(live_in[b.index()], fast.live_in(b));
        assert_eq!(live_out[b.index()], fast.live_out(b));
    }
    let h = f.block_by_name("h").unwrap();
    assert_eq!(live_in[h.index()].len(), 2); // i and n
}

/// `dom_tree` (analysis/dj_graph.rs).
#[test]
fn analysis_dj_graph_dom_tree() {
    use ssakit::analysis::{CsrGraph, DjGraph, DomTree};
    use ssakit::ir::Block;
    let g = CsrGraph::from_edges(2, Block::new(0), &[(0, 1)]);
    let dj = DjGraph::new(&g, DomTree::new(&g));
    assert_eq!(dj.dom_tree().idom(Block::new(1)), Some(Block::new(0)));
}

/// `num_j_edges` (analysis/dj_graph.rs).
#[test]
fn analysis_dj_graph_num_j_edges() {
    use ssakit::analysis::{CsrGraph, DjGraph, DomTree};
    use ssakit::ir::Block;
    // A multi-edge gives one J-edge: 1 ⇒ 0 twice.
    let g = CsrGraph::from_edges(2, Block::new(0), &[(0, 1), (1, 0), (1, 0)]);
    assert_eq!(DjGraph::new(&g, DomTree::new(&g)).num_j_edges(), 1);
}

/// `is_reachable` (analysis/domtree.rs).
#[test]
fn analysis_domtree_is_reachable() {
    use ssakit::analysis::{CsrGraph, DomTree};
    use ssakit::ir::Block;
    let b = Block::new;
    // 2 → 1 but nothing reaches 2.
    let g = CsrGraph::from_edges(3, b(0), &[(0, 1), (2, 1)]);
    let tree = DomTree::new(&g);
    assert!(tree.is_reachable(b(1)));
    assert!(!tree.is_reachable(b(2)));
}

/// `unreachable_blocks` (analysis/domtree.rs).
#[test]
fn analysis_domtree_unreachable_blocks() {
    use ssakit::analysis::{CsrGraph, DomTree};
    use ssakit::ir::Block;
    let b = Block::new;
    let g = CsrGraph::from_edges(4, b(0), &[(0, 2), (3, 1)]);
    let tree = DomTree::new(&g);
    assert_eq!(tree.unreachable_blocks().collect::<Vec<_>>(), [b(1), b(3)]);
}

/// `num_reachable` (analysis/domtree.rs).
#[test]
fn analysis_domtree_num_reachable() {
    use ssakit::analysis::{CsrGraph, DomTree};
    use ssakit::ir::Block;
    let g = CsrGraph::from_edges(4, Block::new(0), &[(0, 2), (3, 1)]);
    assert_eq!(DomTree::new(&g).num_reachable(), 2); // 0 and 2
}

/// `depth` (analysis/domtree.rs).
#[test]
fn analysis_domtree_depth() {
    use ssakit::analysis::{CsrGraph, DomTree};
    use ssakit::ir::Block;
    let b = Block::new;
    // A chain 0 → 1 → 2, and 3 unreachable.
    let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (1, 2)]);
    let tree = DomTree::new(&g);
    assert_eq!(tree.depth(b(0)), Some(0));
    assert_eq!(tree.depth(b(2)), Some(2));
    assert_eq!(tree.depth(b(3)), None);
}

/// `pre_number` (analysis/domtree.rs).
#[test]
fn analysis_domtree_pre_number() {
    use ssakit::analysis::{CsrGraph, DomTree};
    use ssakit::ir::Block;
    let b = Block::new;
    // 0 → {1, 2}, 1 → 3: the tree is 0 → {1 → 3, 2}.
    let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (0, 2), (1, 3)]);
    let tree = DomTree::new(&g);
    let pre: Vec<_> = (0..4).map(|i| tree.pre_number(b(i)).unwrap()).collect();
    assert_eq!(pre, [0, 1, 3, 2]);
}

/// `preorder` (analysis/domtree.rs).
#[test]
fn analysis_domtree_preorder() {
    use ssakit::analysis::{CsrGraph, DomTree};
    use ssakit::ir::Block;
    let b = Block::new;
    // 0 → {1, 2}, 1 → 3, and 4 unreachable.
    let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3)]);
    let tree = DomTree::new(&g);
    assert_eq!(
        tree.preorder().collect::<Vec<_>>(),
        [b(0), b(1), b(3), b(2)]
    );
}

/// `walk` (analysis/domtree.rs).
#[test]
fn analysis_domtree_walk() {
    use ssakit::analysis::{CsrGraph, DomEvent, DomTree};
    use ssakit::ir::Block;
    let b = Block::new;
    let g = CsrGraph::from_edges(3, b(0), &[(0, 1), (0, 2)]);
    let events: Vec<_> = DomTree::new(&g).walk().collect();
    use DomEvent::{Enter, Exit};
    assert_eq!(
        events,
        [
            Enter(b(0)),
            Enter(b(1)),
            Exit(b(1)),
            Enter(b(2)),
            Exit(b(2)),
            Exit(b(0))
        ]
    );
}

/// `total_size` (analysis/frontier.rs).
#[test]
fn analysis_frontier_total_size() {
    use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers};
    use ssakit::ir::Block;
    let b = Block::new;
    let edges = ssakit::analysis::graph::CHAPTER_EDGES;
    let g = CsrGraph::from_edges(6, b(0), &edges);
    let df = DominanceFrontiers::new(&g, &DomTree::new(&g));
    // DF(A) = {A}, DF(B) = {D}, DF(C) = {D, E}, DF(D) = {A, E}.
    assert_eq!(df.total_size(), 6);
}

/// `from_graph` (analysis/graph.rs).
#[test]
fn analysis_graph_from_graph() {
    use ssakit::analysis::{CsrGraph, Graph};
    use ssakit::ir::Block;
    let f = &ssakit::text::parse_module("function f() {\na:\n    jump b\nb:\n    jump a\n}\n")
        .unwrap()
        .functions[0];
    let g = CsrGraph::from_graph(&ssakit::ir::Cfg::new(f));
    assert_eq!(g.num_edges(), 2);
    assert_eq!(g.preds(Block::new(0)), &[Block::new(1)]);
}

/// `num_edges` (analysis/graph.rs).
#[test]
fn analysis_graph_num_edges() {
    use ssakit::analysis::CsrGraph;
    use ssakit::ir::Block;
    let g = CsrGraph::from_edges(2, Block::new(0), &[(0, 1), (0, 1), (1, 1)]);
    assert_eq!(g.num_edges(), 3); // multi-edges count once each
}

/// `is_empty` (analysis/idf.rs).
#[test]
fn analysis_idf_is_empty() {
    use ssakit::analysis::{CsrGraph, DomTree, IdfCalculator};
    use ssakit::ir::Block;
    let b = Block::new;
    let edges = ssakit::analysis::graph::CHAPTER_EDGES;
    let g = CsrGraph::from_edges(6, b(0), &edges);
    let tree = DomTree::new(&g);
    let idf = IdfCalculator::new(&g, &tree);
    assert!(idf.is_empty(&[b(0), b(5)])); // DF(r) and DF(E) are empty
    assert!(!idf.is_empty(&[b(2)]));
}

/// `explore` and `is_live_after` (analysis/live_check.rs).
#[test]
fn analysis_live_check_explore() {
    use ssakit::analysis::{DomTree, LiveCheck};
    use ssakit::ir::{Cfg, Point};
    let m = counting_loop();
    let f = &m.functions[0];
    let var = |s: &str| f.var_by_name(s).unwrap();
    let block = |s: &str| f.block_by_name(s).unwrap();
    let cfg = Cfg::new(f);
    let dt = DomTree::new(&cfg);
    let mut lc = LiveCheck::new(f, &cfg, &dt);
    lc.explore(var("n")); // then many questions about n
    assert!(["e", "h", "b"]
        .iter()
        .all(|b| lc.is_live_out(var("n"), block(b))));
    // `is_live_after` at a program point.
    let h = block("h");
    assert!(lc.is_live_after(var("c"), Point::after(h, 0))); // read by the branch
    assert!(!lc.is_live_after(var("c"), Point::exit(h)));
}

/// `reverse_postorder` (analysis/postorder.rs).
#[test]
fn analysis_postorder_reverse_postorder() {
    use ssakit::analysis::{CsrGraph, DepthFirst};
    use ssakit::ir::Block;
    let b = Block::new;
    // 0 → {1, 2} → 3; node 4 is unreachable.
    let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    let dfs = DepthFirst::new(&g);
    let rpo: Vec<_> = dfs.reverse_postorder().collect();
    assert_eq!(rpo, [b(0), b(2), b(1), b(3)]); // 3 after both its predecessors
}

/// `rpo_number` (analysis/postorder.rs).
#[test]
fn analysis_postorder_rpo_number() {
    use ssakit::analysis::{CsrGraph, DepthFirst};
    use ssakit::ir::Block;
    let b = Block::new;
    // 0 → {1, 2} → 3; node 4 is unreachable.
    let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    let dfs = DepthFirst::new(&g);
    assert_eq!(dfs.rpo_number(b(0)), Some(0));
    assert_eq!(dfs.rpo_number(b(3)), Some(3));
    assert_eq!(dfs.rpo_number(b(4)), None);
}

/// `dfs_parent` (analysis/postorder.rs).
#[test]
fn analysis_postorder_dfs_parent() {
    use ssakit::analysis::{CsrGraph, DepthFirst};
    use ssakit::ir::Block;
    let b = Block::new;
    // 0 → {1, 2} → 3; node 4 is unreachable.
    let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    let dfs = DepthFirst::new(&g);
    assert_eq!(dfs.dfs_parent(b(3)), Some(b(1))); // entered from 1, not 2
    assert_eq!(dfs.dfs_parent(b(0)), None);
}

/// `unreachable` (analysis/postorder.rs).
#[test]
fn analysis_postorder_unreachable() {
    use ssakit::analysis::{CsrGraph, DepthFirst};
    use ssakit::ir::Block;
    let b = Block::new;
    // 0 → {1, 2} → 3; node 4 is unreachable.
    let g = CsrGraph::from_edges(5, b(0), &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    let dfs = DepthFirst::new(&g);
    assert_eq!(dfs.unreachable().collect::<Vec<_>>(), [b(4)]);
}

/// `text` (backend/picture.rs).
#[test]
fn backend_picture_text() {
    use ssakit::backend::picture::Row;
    assert_eq!(
        Row::Phi("x3 = phi(e: x1, a: x2)".into()).text(),
        "x3 = phi(e: x1, a: x2)"
    );
}

/// `new` (backend/picture.rs).
#[test]
fn backend_picture_new() {
    use ssakit::backend::picture::{Picture, PictureKind};
    // `branch c, l, l` is two CFG edges, one tree edge.
    let m = ssakit::text::parse_module("function f(c) {\ne:\n    branch c, l, l\nl:\n    ret\n}")
        .unwrap();
    assert_eq!(
        Picture::new(&m.functions[0], PictureKind::Cfg).edges.len(),
        2
    );
    assert_eq!(
        Picture::new(&m.functions[0], PictureKind::Dom).edges.len(),
        1
    );
}

/// `name` (bril/ast.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_ast_name() {
    use ssakit::bril::ast::Ty;
    assert_eq!(Ty::Bool.name(), "bool");
    assert_eq!(Ty::Other("float".into()).name(), "float");
}

/// `from_name` (bril/ast.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_ast_from_name() {
    use ssakit::bril::ast::Ty;
    assert_eq!(Ty::from_name("int"), Ty::Int);
    assert_eq!(Ty::from_name("char"), Ty::Other("char".into()));
}

/// `at` (bril/mod.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_at() {
    use ssakit::bril::Error;
    let e = Error::at(Some("main"), Some(3), "unknown opcode `frob`");
    assert_eq!(
        e.describe(),
        "function `main`, instruction 3: unknown opcode `frob`"
    );
}

/// `parse` (bril/text.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_text_parse() {
    use ssakit::bril::text::parse;
    let p = parse("@main {\n  v: int = const 5;\n  print v;\n}").unwrap();
    assert_eq!(p.functions[0].body.len(), 2);
    let err = parse("@main {\n  v: int = const 5\n}").unwrap_err();
    assert!(err
        .render("p.bril", "@main {\n  v: int = const 5\n}")
        .contains("p.bril:"));
}

/// `is_ident` (bril/text.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_text_is_ident() {
    use ssakit::bril::text::is_ident;
    assert!(is_ident("x.1") && is_ident("%t") && is_ident("_"));
    assert!(!is_ident("a b") && !is_ident("ü") && !is_ident("1a") && !is_ident(""));
}

/// `check` (bril/text.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_text_check() {
    use ssakit::bril::{parse, text, Syntax};
    let p = parse(
        r#"{"functions": [{"name": "main", "instrs": [{"label": "a b"}]}]}"#,
        Syntax::Json,
    )
    .unwrap();
    let err = text::check(&p).unwrap_err();
    assert!(err
        .describe()
        .contains("label `a b` has no Bril text spelling"));
}

/// `print` (bril/text.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_text_print() {
    use ssakit::bril::text::{parse, print};
    let src = "@main {\n  v: int = const 5;\n  print v;\n}\n";
    assert_eq!(print(&parse(src).unwrap()), src);
}

/// `new` (construct/phi_insert.rs).
#[test]
fn construct_phi_insert_new() {
    use ssakit::construct::phi_insert::DefBlocks;
    // Parameters are defined in the entry block.
    let f = ssakit::text::parse_module("function f(p) {\ne:\n    ret p\n}")
        .unwrap()
        .functions
        .remove(0);
    let p = f.params()[0];
    assert_eq!(DefBlocks::new(&f).of(p), [f.entry()]);
}

/// `new` (entity.rs).
#[test]
fn entity_new() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let v: EntityVec<Block, u8> = EntityVec::new();
    assert!(v.is_empty());
}

/// `filled` (entity.rs).
#[test]
fn entity_filled() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let seen: EntityVec<Block, bool> = EntityVec::filled(3, false);
    assert_eq!(seen.len(), 3);
    assert!(!seen[Block::new(2)]);
}

/// `len` (entity.rs).
#[test]
fn entity_len() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let v: EntityVec<Block, u8> = EntityVec::from_vec(vec![5, 6]);
    assert_eq!(v.len(), 2);
}

/// `as_slice` (entity.rs).
#[test]
fn entity_as_slice() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let v: EntityVec<Block, u8> = EntityVec::filled(2, 7);
    assert_eq!(v.as_slice(), &[7, 7]);
}

/// `new` (entity.rs).
#[test]
fn entity_new_2() {
    use ssakit::entity::EntityList;
    let l: EntityList<u32> = EntityList::new();
    assert!(l.is_empty());
}

/// `len` (entity.rs).
#[test]
fn entity_len_2() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    assert_eq!(pool.alloc(&[1u8, 2]).len(), 2);
}

/// `push` (entity.rs).
#[test]
fn entity_push_2() {
    use ssakit::entity::{EntityList, ListPool};
    let mut pool = ListPool::new();
    let mut l = EntityList::new();
    for i in 0..10 {
        l.push(i, &mut pool);
    }
    assert_eq!(l.as_slice(&pool), (0..10).collect::<Vec<_>>());
}

/// `remove` (entity.rs).
#[test]
fn entity_remove() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let mut l = pool.alloc(&['a', 'b', 'c']);
    assert_eq!(l.remove(1, &mut pool), 'b');
    assert_eq!(l.as_slice(&pool), ['a', 'c']);
}

/// `alloc_iter` (entity.rs).
#[test]
fn entity_alloc_iter() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let l = pool.alloc_iter((1..=3).map(|i| i * i));
    assert_eq!(l.as_slice(&pool), [1, 4, 9]);
}

/// `alloc_room` (entity.rs).
#[test]
fn entity_alloc_room() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let mut l = pool.alloc_room(4, 0);
    assert!(l.is_empty());
    l.push(5, &mut pool);
    assert_eq!((l.as_slice(&pool), pool.len()), (&[5][..], 4));
}

/// `free` (entity.rs).
#[test]
fn entity_free() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let mut l = pool.alloc(&[1, 2]);
    pool.free(&mut l);
    assert!(l.is_empty());
    assert_eq!(pool.garbage(), 2);
}

/// `len` (entity.rs).
#[test]
fn entity_len_3() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let mut l = pool.alloc(&[1, 2]);
    pool.free(&mut l);
    assert_eq!(pool.len(), 2); // garbage still stored
}

/// `garbage` (entity.rs).
#[test]
fn entity_garbage() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let mut a = pool.alloc(&[1, 2]);
    let _b = pool.alloc(&[3]);
    a.push(4, &mut pool); // full and not last: moves, leaving its room behind
    assert_eq!(pool.garbage(), 2);
}

/// `reserve_exact` (entity.rs).
#[test]
fn entity_reserve_exact() {
    use ssakit::entity::ListPool;
    let mut pool: ListPool<u8> = ListPool::new();
    pool.reserve_exact(64);
    assert_eq!(pool.len(), 0);
}

/// `compact` (entity.rs).
#[test]
fn entity_compact() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let mut a = pool.alloc(&[1, 2]);
    let mut b = pool.alloc(&[3]);
    a.push(4, &mut pool);
    pool.compact([&mut a, &mut b].into_iter());
    assert_eq!((pool.garbage(), pool.len()), (0, 4));
    assert_eq!(
        (a.as_slice(&pool), b.as_slice(&pool)),
        (&[1, 2, 4][..], &[3][..])
    );
}

/// `chance` (gen/rng.rs).
#[test]
fn gen_rng_chance() {
    use ssakit::gen::Rng;
    let mut r = Rng::new(5);
    assert!((0..50).all(|_| r.chance(4, 4)));
    assert!((0..50).all(|_| !r.chance(0, 4)));
}

/// `pick` (gen/rng.rs).
#[test]
fn gen_rng_pick() {
    use ssakit::gen::Rng;
    let mut r = Rng::new(5);
    assert!(['a', 'b'].contains(&r.pick(&['a', 'b'])));
    assert_eq!(r.pick(&[7]), 7);
}

/// `numbered` (gen/wide.rs).
#[test]
fn gen_wide_numbered() {
    use ssakit::gen::wide::numbered;
    assert_eq!(numbered("B", 3), "B0, B1, B2");
    assert_eq!(numbered("x", 0), "");
}

/// `entry` (ir/cfg.rs).
#[test]
fn ir_cfg_entry() {
    use ssakit::ir::Cfg;
    let (mut f, [e, a, j], x) = diamond();
    assert_eq!(Cfg::new(&f).entry(), e);
}

/// `num_blocks` (ir/cfg.rs).
#[test]
fn ir_cfg_num_blocks() {
    use ssakit::ir::Cfg;
    let (mut f, [e, a, j], x) = diamond();
    assert_eq!(Cfg::new(&f).num_blocks(), 3);
}

/// `num_edges` (ir/cfg.rs).
#[test]
fn ir_cfg_num_edges() {
    use ssakit::ir::Cfg;
    let (mut f, [e, a, j], x) = diamond();
    assert_eq!(Cfg::new(&f).num_edges(), 3);
}

/// `preds` (ir/cfg.rs).
#[test]
fn ir_cfg_preds() {
    use ssakit::ir::Cfg;
    let (mut f, [e, a, j], x) = diamond();
    let cfg = Cfg::new(&f);
    assert_eq!(cfg.preds(j), [e, a]);
    assert!(cfg.preds(e).is_empty());
}

/// `unique_preds` (ir/cfg.rs).
#[test]
fn ir_cfg_unique_preds() {
    use ssakit::ir::Cfg;
    let f = ssakit::text::parse_module("function f(c) {\ne:\n    branch c, l, l\nl:\n    ret\n}")
        .unwrap()
        .functions
        .remove(0);
    let (cfg, l) = (Cfg::new(&f), f.block_by_name("l").unwrap());
    assert_eq!(cfg.preds(l).len(), 2);
    assert_eq!(cfg.unique_preds(l).collect::<Vec<_>>(), [f.entry()]);
}

/// `ty` (ir/function.rs).
#[test]
fn ir_function_ty() {
    use ssakit::ir::{Function, Type};
    let mut f = Function::new("f");
    let b = f.new_var("b", Type::Bool);
    assert_eq!(f.var(b).ty(), Type::Bool);
}

/// `origin` (ir/function.rs).
#[test]
fn ir_function_origin() {
    use ssakit::ir::{Function, Type};
    let mut f = Function::new("f");
    let x = f.new_var("x", Type::I64);
    let x2 = f.new_version(x, 2);
    assert_eq!((f.var(x).origin(), f.var(x2).origin()), (None, Some(x)));
}

/// `version` (ir/function.rs).
#[test]
fn ir_function_version() {
    use ssakit::ir::{Function, Type};
    let mut f = Function::new("f");
    let x = f.new_var("x", Type::I64);
    let x7 = f.new_version(x, 7);
    assert_eq!((f.var(x).version(), f.var(x7).version()), (0, 7));
}

/// `var` (ir/function.rs).
#[test]
fn ir_function_var() {
    let (mut f, [e, a, j], x) = diamond();
    assert_eq!(f.var(x).origin(), None);
}

/// `original` (ir/function.rs).
#[test]
fn ir_function_original() {
    use ssakit::ir::{Function, Type};
    let mut f = Function::new("f");
    let x = f.new_var("x", Type::I64);
    let x3 = f.new_version(x, 3);
    assert_eq!((f.original(x), f.original(x3)), (x, x));
}

/// `retain_layout` (ir/function.rs).
#[test]
fn ir_function_retain_layout() {
    let (mut f, [e, a, j], x) = diamond();
    f.retain_layout(|&b| b != a);
    assert_eq!(f.layout(), [e, j]);
}

/// `inst_block` (ir/function.rs).
#[test]
fn ir_function_inst_block() {
    let (mut f, [e, a, j], x) = diamond();
    let i = f.block_insts(a)[0];
    assert_eq!(f.inst_block(i), Some(a));
    f.retain_insts(a, |_, _| false);
    assert_eq!(f.inst_block(i), None);
}

/// `list_from_iter` (ir/function.rs).
#[test]
fn ir_function_list_from_iter() {
    use ssakit::ir::{InstData, Operand};
    let (mut f, [e, a, j], x) = diamond();
    let args = f.list_from_iter((1..=3).map(Operand::Const));
    f.push_inst(j, InstData::Print { args });
    assert!(ssakit::text::print_function(&f).contains("print 1, 2, 3"));
}

/// `eval` (ir/inst.rs).
#[test]
fn ir_inst_eval_2() {
    use ssakit::ir::UnOp;
    assert_eq!(UnOp::Neg.eval(i64::MIN), i64::MIN); // wraps
}

/// `before` (ir/point.rs).
#[test]
fn ir_point_before() {
    use ssakit::ir::{Block, Point};
    let b = Block::new(0);
    assert!(Point::before(b, 1) < Point::after(b, 1) && Point::after(b, 0) < Point::before(b, 1));
}

/// `block` (ir/point.rs).
#[test]
fn ir_point_block() {
    use ssakit::ir::{Block, Point};
    assert_eq!(Point::exit(Block::new(4)).block(), Block::new(4));
}

/// `is_entry` (ir/point.rs).
#[test]
fn ir_point_is_entry() {
    use ssakit::ir::{Block, Point};
    assert!(!Point::before(Block::new(0), 0).is_entry());
}

/// `dominates` (ir/point.rs).
#[test]
fn ir_point_dominates() {
    use ssakit::analysis::DomTree;
    use ssakit::ir::{Cfg, Point};
    let (mut f, [e, a, j], x) = diamond();
    let dt = DomTree::new(&Cfg::new(&f));
    assert!(Point::after(a, 0).dominates(Point::exit(a), &dt)); // same block, earlier
    assert!(!Point::exit(a).dominates(Point::after(a, 0), &dt));
    assert!(Point::entry(e).dominates(Point::before(j, 0), &dt)); // e strictly dominates j
}

/// `run` (opt/mod.rs).
#[test]
fn opt_run() {
    use ssakit::{opt::Pass, text::parse_module};
    let mut m = parse_module("function f(a) {\nentry:\n    b = a + 0\n    ret a\n}\n").unwrap();
    let stats = Pass::Dce.run(&mut m.functions[0]).unwrap();
    assert_eq!(stats.insts_removed, 1); // `b` is never used
}

/// `len` (union_find.rs).
#[test]
fn union_find_len() {
    use ssakit::union_find::UnionFind;
    let mut uf = UnionFind::new(5);
    uf.union(0, 4);
    assert_eq!(uf.len(), 5); // elements, not sets
}

/// `find` (union_find.rs).
#[test]
fn union_find_find() {
    use ssakit::union_find::UnionFind;
    let mut uf = UnionFind::new(3);
    let r = uf.union(1, 2);
    assert_eq!(uf.find(1), r);
    assert_eq!(uf.find(2), r);
    assert_eq!(uf.find(0), 0);
}

/// `nearest_common_dominator` (analysis/domtree.rs).
#[test]
fn analysis_domtree_nearest_common_dominator() {
    use ssakit::analysis::{CsrGraph, DomTree};
    use ssakit::ir::Block;
    let b = Block::new;
    // 0 → 1 → {2, 3}, 0 → 4, and 5 unreachable.
    let g = CsrGraph::from_edges(6, b(0), &[(0, 1), (1, 2), (1, 3), (0, 4)]);
    let tree = DomTree::new(&g);
    assert_eq!(tree.nearest_common_dominator(b(2), b(3)), Some(b(1)));
    assert_eq!(tree.nearest_common_dominator(b(2), b(4)), Some(b(0)));
    assert_eq!(tree.nearest_common_dominator(b(2), b(5)), None);
}

/// `sequentialize_with_temp` (destruct/parallel_copy.rs).
#[test]
fn destruct_parallel_copy_sequentialize_with_temp() {
    use ssakit::destruct::parallel_copy::{sequentialize_with_temp, Move, Src};
    let copies = [(0u32, Src::Loc(1)), (1, Src::Loc(0)), (2, Src::Val(5))];
    let moves = sequentialize_with_temp(&copies, |_| 9).unwrap();
    assert_eq!(
        moves,
        [
            Move::Copy { dst: 9, src: 0 },
            Move::Copy { dst: 0, src: 1 },
            Move::Copy { dst: 1, src: 9 },
            Move::Set { dst: 2, val: 5 },
        ]
    );
}

/// `sequentialize_with_swaps` (destruct/parallel_copy.rs).
#[test]
fn destruct_parallel_copy_sequentialize_with_swaps() {
    use ssakit::destruct::parallel_copy::{sequentialize_with_swaps, Move, Src};
    // a rotation a <- b <- c <- a: two swaps
    let copies: [(u32, Src<u32, i64>); 3] = [(0, Src::Loc(1)), (1, Src::Loc(2)), (2, Src::Loc(0))];
    assert_eq!(
        sequentialize_with_swaps(&copies).unwrap(),
        [Move::Swap(0, 1), Move::Swap(1, 2)]
    );
}

/// `new` (entity/list.rs).
#[test]
fn entity_list_new() {
    use ssakit::entity::ListPool;
    let pool: ListPool<u32> = ListPool::new();
    assert!(pool.is_empty());
}

/// `is_reducible` (reducible.rs).
#[test]
fn reducible_is_reducible() {
    use ssakit::reducible::is_reducible;
    let parse = |s: &str| ssakit::text::parse_module(s).unwrap().functions.remove(0);
    // A loop h ⇄ b entered at h only.
    let natural = parse(
        "function f(c) {\ne:\n    jump h\nh:\n    branch c, b, x\n\
        b:\n    jump h\nx:\n    ret\n}\n",
    );
    assert!(is_reducible(&natural));
    // A loop a ⇄ b entered at both a and b.
    let two_entries = parse(
        "function f(c) {\ne:\n    branch c, a, b\na:\n    branch c, b, x\n\
        b:\n    branch c, a, x\nx:\n    ret\n}\n",
    );
    assert!(!is_reducible(&two_entries));
}

/// `Liveness::is_live_out` (analysis/liveness.rs).
#[test]
fn analysis_liveness_liveness_is_live_out() {
    use ssakit::analysis::Liveness;
    use ssakit::ir::Cfg;
    let m = counting_loop();
    let f = &m.functions[0];
    let var = |s: &str| f.var_by_name(s).unwrap();
    let block = |s: &str| f.block_by_name(s).unwrap();
    let live = Liveness::new(f, &Cfg::new(f));
    assert!(live.is_live_out(block("h"), var("i1")));
    assert!(!live.is_live_out(block("b"), var("i1"))); // the next i1 is a new value
}

/// `loop_depth` (analysis/loops.rs).
#[test]
fn analysis_loops_loop_depth() {
    use ssakit::analysis::{loop_depth, CsrGraph, DomTree};
    use ssakit::ir::Block;
    let b = Block::new;
    // Two nested loops: 1 → 2 → 1 around the self loop 2 → 2; exit 1 → 3.
    let g = CsrGraph::from_edges(4, b(0), &[(0, 1), (1, 2), (2, 2), (2, 1), (1, 3)]);
    let depth = loop_depth(&g, &DomTree::new(&g));
    assert_eq!(
        [depth[b(0)], depth[b(1)], depth[b(2)], depth[b(3)]],
        [0, 1, 2, 0]
    );
}

/// `Row` (backend/picture.rs).
#[test]
fn backend_picture_row() {
    use ssakit::backend::picture::{Picture, PictureKind, Row};
    let m = ssakit::text::parse_module(
        "function f(c) {
    e:
        x1 = 1
        branch c, a, j
    a:
        x2 = 2
        jump j
    j:
        x3 = phi(e: x1, a: x2)
        ret x3
    }",
    )
    .unwrap();
    let p = Picture::new(&m.functions[0], PictureKind::Cfg);
    assert_eq!(
        p.nodes[2].rows,
        [
            Row::Header("j".into()),
            Row::Phi("x3 = phi(e: x1, a: x2)".into()),
            Row::Inst("ret x3".into()),
        ]
    );
}

/// `EdgeStyle` (backend/picture.rs).
#[test]
fn backend_picture_edge_style() {
    use ssakit::backend::picture::{EdgeStyle, Picture, PictureKind};
    let m = ssakit::text::parse_module(
        "function f(c) {
    e:
        branch c, a, j
    a:
        jump j
    j:
        ret
    }",
    )
    .unwrap();
    let p = Picture::new(&m.functions[0], PictureKind::Dj);
    // a→j is a J-edge: a does not strictly dominate j.
    let dashed: Vec<(u32, u32)> = p
        .edges
        .iter()
        .filter(|e| e.style == EdgeStyle::Dashed)
        .map(|e| (e.from, e.to))
        .collect();
    assert_eq!(dashed, [(1, 2)]);
}

/// `Node` (backend/picture.rs).
#[test]
fn backend_picture_node() {
    use ssakit::backend::picture::{Picture, PictureKind};
    let m = ssakit::text::parse_module("function f() {\ne:\n    x = 1\n    ret x\n}").unwrap();
    let f = &m.functions[0];
    let p = Picture::new(f, PictureKind::Cfg);
    assert_eq!(p.nodes[0].block, f.entry());
    let rows: Vec<&str> = p.nodes[0].rows.iter().map(|r| r.text()).collect();
    assert_eq!(rows, ["e", "x = 1", "ret x"]);
}

/// `Edge` (backend/picture.rs).
#[test]
fn backend_picture_edge() {
    use ssakit::backend::picture::{Edge, EdgeStyle, Picture, PictureKind};
    let m = ssakit::text::parse_module("function f() {\ne:\n    jump l\nl:\n    ret\n}").unwrap();
    let p = Picture::new(&m.functions[0], PictureKind::Cfg);
    assert_eq!(
        p.edges,
        [Edge {
            from: 0,
            to: 1,
            style: EdgeStyle::Solid
        }]
    );
}

/// `Picture` (backend/picture.rs).
#[test]
fn backend_picture_picture() {
    use ssakit::backend::picture::{Picture, PictureKind};
    // An unreachable block is drawn in the CFG, not in the dominator tree.
    let m = ssakit::text::parse_module("function g() {\ne:\n    ret\nu:\n    ret\n}").unwrap();
    let cfg = Picture::new(&m.functions[0], PictureKind::Cfg);
    let dom = Picture::new(&m.functions[0], PictureKind::Dom);
    assert_eq!((cfg.title.as_str(), cfg.kind), ("g", PictureKind::Cfg));
    assert_eq!((cfg.nodes.len(), dom.nodes.len()), (2, 1));
}

/// `Error::describe` (bril/mod.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_error_describe() {
    use ssakit::bril::Error;
    assert_eq!(
        Error::at(None, None, "no functions").describe(),
        "no functions"
    );
    assert_eq!(
        Error::at(Some("f"), None, "bad").describe(),
        "function `f`: bad"
    );
}

/// `Error::render` (bril/mod.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_error_render() {
    use ssakit::bril::{read, Error, Syntax};
    let src = "@main {\n  x: int = frob;\n}\n";
    let e = read(src, Syntax::Text).unwrap_err();
    assert!(e.render("p.bril", src).starts_with("error: p.bril:2:"));
    let e = Error::at(Some("main"), Some(0), "bad");
    assert_eq!(
        e.render("p.json", "{}"),
        "error: p.json: function `main`, instruction 0: bad\n"
    );
}

/// `encode` (bril/names.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_names_encode() {
    use ssakit::bril::names::encode;
    assert_eq!(encode("x.1"), "x.1");
    assert_eq!(encode("my_var"), "my__var");
    assert_eq!(encode("phi"), "_kphi"); // a `.ssa` keyword
    assert_eq!(encode("a%b"), "a_x25_b");
}

/// `decode` (bril/names.rs).
#[cfg(feature = "bril")]
#[test]
fn bril_names_decode() {
    use ssakit::bril::names::{decode, encode};
    assert_eq!(decode(&encode("a%b")).as_deref(), Some("a%b"));
    assert_eq!(decode("x_1"), None); // not made by `encode`
}

/// `DefBlocks` (construct/phi_insert.rs).
#[test]
fn construct_phi_insert_def_blocks() {
    use ssakit::construct::phi_insert::DefBlocks;
    let f = ssakit::text::parse_module(
        "function f(c) {
    e:
        x = 1
        branch c, t, j
    t:
        x = 2
        jump j
    j:
        ret x
    }",
    )
    .unwrap()
    .functions
    .remove(0);
    let defs = DefBlocks::new(&f);
    let x = f.var_by_name("x").unwrap();
    let names: Vec<&str> = defs.of(x).iter().map(|&b| f.block_name(b)).collect();
    assert_eq!(names, ["e", "t"]);
}

/// `DefBlocks::of` (construct/phi_insert.rs).
#[test]
fn construct_phi_insert_def_blocks_of() {
    use ssakit::construct::phi_insert::DefBlocks;
    // A block that assigns `x` twice is listed once.
    let f = ssakit::text::parse_module("function f() {\ne:\n    x = 1\n    x = 2\n    ret x\n}")
        .unwrap()
        .functions
        .remove(0);
    let x = f.var_by_name("x").unwrap();
    assert_eq!(DefBlocks::new(&f).of(x).len(), 1);
}

/// `RenameStats` (destruct/phi_webs.rs).
#[test]
fn destruct_phi_webs_rename_stats() {
    use ssakit::destruct::phi_webs::destruct_conventional;
    const SRC: &str = "function f(c) {
    e:
        x1 = 1
        branch c, j, l
    l:
        x2 = 2
        jump j
    j:
        x3 = phi(e: x1, l: x2)
        ret x3
    }
    ";
    let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
    let stats = destruct_conventional(&mut f);
    assert_eq!((stats.phis_removed, stats.constant_copies), (1, 0));
}

/// `EntityList` (entity/list.rs).
#[test]
fn entity_list_entity_list() {
    use ssakit::entity::{EntityList, ListPool};
    let mut pool = ListPool::new();
    let mut args: EntityList<u32> = pool.alloc(&[1, 2]);
    args.push(3, &mut pool);
    assert_eq!(args.as_slice(&pool), [1, 2, 3]);
}

/// `ListStore` (entity/list.rs).
#[test]
fn entity_list_list_store() {
    use ssakit::entity::{EntityList, ListPool, ListStore};
    fn total(list: EntityList<u32>, store: &impl ListStore<u32>) -> u32 {
        list.as_slice(store).iter().sum()
    }
    let mut pool = ListPool::new();
    let l = pool.alloc(&[4, 5]);
    assert_eq!(total(l, &pool), 9);
}

/// `ListStore::pool` (entity/list.rs).
#[test]
fn entity_list_list_store_pool() {
    use ssakit::entity::{ListPool, ListStore};
    let mut pool: ListPool<u8> = ListPool::new();
    pool.alloc(&[1]);
    assert_eq!(ListStore::pool(&pool).len(), 1);
}

/// `ListStore::pool_mut` (entity/list.rs).
#[test]
fn entity_list_list_store_pool_mut() {
    use ssakit::entity::{ListPool, ListStore};
    let mut pool: ListPool<u8> = ListPool::new();
    let l = ListStore::pool_mut(&mut pool).alloc(&[1]);
    assert_eq!(l.as_slice(&pool), [1]);
}

/// `EntityList::is_empty` (entity/list.rs).
#[test]
fn entity_list_entity_list_is_empty() {
    use ssakit::entity::ListPool;
    let mut pool: ListPool<u8> = ListPool::new();
    assert!(pool.alloc(&[]).is_empty());
}

/// `EntityList::as_slice` (entity/list.rs).
#[test]
fn entity_list_entity_list_as_slice() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let l = pool.alloc(&['a', 'b']);
    assert_eq!(l.as_slice(&pool), ['a', 'b']);
}

/// `EntityList::as_mut_slice` (entity/list.rs).
#[test]
fn entity_list_entity_list_as_mut_slice() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let l = pool.alloc(&[1, 2]);
    l.as_mut_slice(&mut pool)[0] = 9;
    assert_eq!(l.as_slice(&pool), [9, 2]);
}

/// `ListPool` (entity/list.rs).
#[test]
fn entity_list_list_pool() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let a = pool.alloc(&[1, 2]);
    let b = pool.alloc(&[3]);
    assert_eq!(
        (a.as_slice(&pool), b.as_slice(&pool)),
        (&[1, 2][..], &[3][..])
    );
    assert_eq!(pool.len(), 3);
}

/// `ListPool::alloc` (entity/list.rs).
#[test]
fn entity_list_list_pool_alloc() {
    use ssakit::entity::ListPool;
    let mut pool = ListPool::new();
    let l = pool.alloc(&[7, 8]);
    assert_eq!(l.as_slice(&pool), [7, 8]);
}

/// `PackedOption::some` (entity/packed.rs).
#[test]
fn entity_packed_packed_option_some() {
    use ssakit::entity::PackedOption;
    use ssakit::ir::Block;
    assert!(!PackedOption::some(Block::new(0)).is_none());
}

/// `PackedOption::is_none` (entity/packed.rs).
#[test]
fn entity_packed_packed_option_is_none() {
    use ssakit::entity::PackedOption;
    use ssakit::ir::Block;
    assert!(PackedOption::<Block>::default().is_none());
}

/// `EntityVec` (entity/vec.rs).
#[test]
fn entity_vec_entity_vec() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let mut names: EntityVec<Block, &str> = EntityVec::new();
    let entry = names.push("entry");
    assert_eq!(names[entry], "entry");
}

/// `EntityVec::from_vec` (entity/vec.rs).
#[test]
fn entity_vec_entity_vec_from_vec() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let depth: EntityVec<Block, u32> = EntityVec::from_vec(vec![0, 1, 1]);
    assert_eq!(depth[Block::new(2)], 1);
}

/// `EntityVec::push` (entity/vec.rs).
#[test]
fn entity_vec_entity_vec_push() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let mut v: EntityVec<Block, char> = EntityVec::new();
    assert_eq!(v.push('a'), Block::new(0));
    assert_eq!(v.push('b'), Block::new(1));
}

/// `EntityVec::values` (entity/vec.rs).
#[test]
fn entity_vec_entity_vec_values() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let v: EntityVec<Block, u8> = EntityVec::from_vec(vec![5, 6]);
    assert_eq!(v.values().sum::<u8>(), 11);
}

/// `EntityVec::iter` (entity/vec.rs).
#[test]
fn entity_vec_entity_vec_iter() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let v: EntityVec<Block, char> = EntityVec::from_vec(vec!['a', 'b']);
    let pairs: Vec<_> = v.iter().map(|(k, c)| (k.index(), *c)).collect();
    assert_eq!(pairs, [(0, 'a'), (1, 'b')]);
}

/// `EntityVec::get` (entity/vec.rs).
#[test]
fn entity_vec_entity_vec_get() {
    use ssakit::entity::EntityVec;
    use ssakit::ir::Block;
    let v: EntityVec<Block, char> = EntityVec::from_vec(vec!['a']);
    assert_eq!(v.get(Block::new(0)), Some(&'a'));
    assert_eq!(v.get(Block::new(1)), None);
}

/// `IrError` (error.rs).
#[test]
fn error_ir_error() {
    use ssakit::{error::IrError, text::parse_module};
    let m = parse_module("function f() {\nentry:\n    ret 0\n}\n").unwrap();
    let f = &m.functions[0];
    let e = IrError::new(f, Some(f.entry()), None, "something is off");
    assert_eq!(
        (e.func.as_str(), e.block, e.inst),
        ("f", Some(f.entry()), None)
    );
    assert_eq!(e.to_string(), "function `f`: something is off");
    assert_eq!(e.kind, ssakit::error::ErrorKind::Input);
}

/// `IrError::new` (error.rs).
#[test]
fn error_ir_error_new() {
    use ssakit::{error::IrError, text::parse_module};
    let m = parse_module("function g() {\nentry:\n    ret 0\n}\n").unwrap();
    let e = IrError::new(&m.functions[0], None, None, "no block");
    assert_eq!((e.func.as_str(), e.message.as_str()), ("g", "no block"));
}

/// `IrError::describe` (error.rs).
#[test]
fn error_ir_error_describe() {
    use ssakit::{error::IrError, text::parse_module};
    let m = parse_module("function f() {\nstart:\n    ret 0\n}\n").unwrap();
    let f = &m.functions[0];
    let e = IrError::new(f, Some(f.entry()), None, "bad");
    assert_eq!(e.describe(f), "function `f`, block `start`: bad");
}

/// `Value::as_int` (eval.rs).
#[test]
fn eval_value_as_int() {
    use ssakit::eval::Value;
    assert_eq!(Value::Int(-3).as_int(), Some(-3));
    assert_eq!(Value::Bool(false).as_int(), Some(0));
    assert_eq!(Value::Undef.as_int(), None);
}

/// `Shape` (gen/mod.rs).
#[test]
fn gen_shape() {
    use ssakit::analysis::{loop_depth, DomTree};
    use ssakit::gen::{generate, GenOptions, Shape};
    use ssakit::ir::Cfg;
    let deepest = |shape| {
        let f = generate(&GenOptions {
            shape,
            blocks: 11,
            ..GenOptions::default()
        });
        let cfg = Cfg::new(&f);
        loop_depth(&cfg, &DomTree::new(&cfg))
            .iter()
            .map(|(_, &d)| d)
            .max()
    };
    assert_eq!(deepest(Shape::NestedLoops), Some(3)); // (11 - 2) / 3 loops
    assert_eq!(deepest(Shape::Chain), Some(0)); // straight-line code
}

/// `Rng` (gen/rng.rs).
#[test]
fn gen_rng_rng() {
    use ssakit::gen::Rng;
    let (mut a, mut b) = (Rng::new(3), Rng::new(3));
    assert_eq!(a.next_u64(), b.next_u64()); // one seed, one sequence
}

/// `Rng::new` (gen/rng.rs).
#[test]
fn gen_rng_rng_new() {
    use ssakit::gen::Rng;
    assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
}

/// `Rng::next_u64` (gen/rng.rs).
#[test]
fn gen_rng_rng_next_u64() {
    use ssakit::gen::Rng;
    let mut r = Rng::new(0);
    let (x, y) = (r.next_u64(), r.next_u64());
    assert_ne!(x, y);
}

/// `VarData` (ir/function/mod.rs).
#[test]
fn ir_function_var_data() {
    use ssakit::ir::{Function, Type};
    let mut f = Function::new("f");
    let x = f.new_var("x", Type::I32);
    let x1 = f.new_version(x, 1);
    let d = f.var(x1);
    assert_eq!((d.ty(), d.origin(), d.version()), (Type::I32, Some(x), 1));
}

/// `Function::new_version` (ir/function/vars.rs).
#[test]
fn ir_function_vars_function_new_version() {
    use ssakit::ir::{Function, Type, VarNames};
    let mut f = Function::new("f");
    let x = f.new_var("x", Type::I64);
    let x1 = f.new_version(x, 1);
    let x2 = f.new_version(x1, 2); // a version of a version is one of `x`
    assert_eq!((f.original(x2), VarNames::new(&f).get(x2)), (x, "x2"));
}

/// `Function::base_name` (ir/function/vars.rs).
#[test]
fn ir_function_vars_function_base_name() {
    use ssakit::ir::{Function, Type};
    let mut f = Function::new("f");
    let x = f.new_var("x", Type::I64);
    let x3 = f.new_version(x, 3);
    assert_eq!(f.base_name(x3), "x");
}

/// `BinOp` (ir/inst.rs).
#[test]
fn ir_inst_bin_op() {
    use ssakit::ir::BinOp;
    assert_eq!(BinOp::Sub.eval(3, 5), Some(-2));
    assert_eq!(BinOp::Lt.eval(3, 5), Some(1));
    assert_eq!(BinOp::Add.eval(i64::MAX, 1), Some(i64::MIN)); // wraps
}

/// `BinOp::eval` (ir/inst.rs).
#[test]
fn ir_inst_bin_op_eval() {
    use ssakit::ir::BinOp;
    assert_eq!(BinOp::Div.eval(-7, 2), Some(-3)); // toward zero
    assert_eq!(BinOp::Rem.eval(1, 0), None);
    assert_eq!(BinOp::Shr.eval(-8, 65), Some(-4)); // amount mod 64, arithmetic
}

/// `UnOp` (ir/inst.rs).
#[test]
fn ir_inst_un_op() {
    use ssakit::ir::UnOp;
    assert_eq!(
        (UnOp::Neg.eval(5), UnOp::Not.eval(5), UnOp::Not.eval(0)),
        (-5, 0, 1)
    );
}

/// `VarNames` (ir/names.rs).
#[test]
fn ir_names_var_names() {
    use ssakit::ir::{Function, Type, VarNames};
    let mut f = Function::new("f");
    let x = f.new_var("x", Type::I64);
    let x1 = f.new_version(x, 1);
    let taken = f.new_var("x1", Type::I64); // a variable really named `x1`
    let names = VarNames::new(&f);
    assert_ne!(names.get(x1), names.get(taken));
    assert_eq!(names[x], *"x");
}

/// `VarNames::new` (ir/names.rs).
#[test]
fn ir_names_var_names_new() {
    use ssakit::ir::{Function, Type, VarNames};
    let mut f = Function::new("f");
    let i = f.new_var("i", Type::I64);
    let v32 = f.new_version(i, 32);
    assert_eq!(VarNames::new(&f).get(v32), "i32"); // type names are not keywords
    f.new_var("i32", Type::I64); // a variable really named `i32`
    assert_eq!(VarNames::new(&f).get(v32), "i_32");
}

/// `VarNames::get` (ir/names.rs).
#[test]
fn ir_names_var_names_get() {
    use ssakit::ir::{Function, Type, VarNames};
    let mut f = Function::new("f");
    let x = f.new_var("x", Type::I64);
    let x2 = f.new_version(x, 2);
    assert_eq!(VarNames::new(&f).get(x2), "x2");
}

/// `Point` (ir/point.rs).
#[test]
fn ir_point_point() {
    use ssakit::analysis::DomTree;
    use ssakit::ir::{Cfg, Point};
    let (mut f, [e, a, j], x) = diamond();
    let dt = DomTree::new(&Cfg::new(&f));
    // `x = 1` (instruction 0 of e) is defined after it and dominates j's entry.
    assert!(Point::after(e, 0).dominates(Point::entry(j), &dt));
    assert!(!Point::after(a, 0).dominates(Point::entry(j), &dt));
}

/// `Point::entry` (ir/point.rs).
#[test]
fn ir_point_point_entry() {
    use ssakit::ir::{Block, Point};
    let b = Block::new(0);
    assert!(Point::entry(b).is_entry());
    assert!(Point::entry(b) < Point::before(b, 0));
}

/// `Point::after` (ir/point.rs).
#[test]
fn ir_point_point_after() {
    use ssakit::ir::{Block, Point};
    let b = Block::new(3);
    assert_eq!(Point::after(b, 2).block(), b);
    assert!(Point::after(b, 2) < Point::exit(b));
}

/// `Point::exit` (ir/point.rs).
#[test]
fn ir_point_point_exit() {
    use ssakit::ir::{Block, Point};
    let b = Block::new(0);
    assert!(Point::before(b, 1000) < Point::exit(b));
}

/// `Dominance` (ir/point.rs).
#[test]
fn ir_point_dominance() {
    use ssakit::ir::{Block, Dominance, Point};
    // Blocks in a chain 0 → 1 → 2: a block strictly dominates the later ones.
    struct Chain;
    impl Dominance for Chain {
        fn strictly_dominates(&self, a: Block, b: Block) -> bool {
            a < b
        }
    }
    assert!(Point::exit(Block::new(0)).dominates(Point::entry(Block::new(2)), &Chain));
}

/// `Effects::removable_if_unused` (ir/symbols.rs).
#[test]
fn ir_symbols_effects_removable_if_unused() {
    use ssakit::ir::Effects;
    assert!(Effects::PURE.removable_if_unused());
    assert!(!Effects::TRAP.removable_if_unused() && !Effects::CALL.removable_if_unused());
}

/// `OperatorData` (ir/symbols.rs).
#[test]
fn ir_symbols_operator_data() {
    use ssakit::ir::{Effects, Symbols};
    let mut s = Symbols::new();
    let op = s
        .operator("i32.load", Effects::TRAP.union(Effects::READ))
        .unwrap();
    let data = s.operator_data(op);
    assert_eq!(
        (&*data.name, data.effects),
        ("i32.load", Effects::TRAP.union(Effects::READ))
    );
}

/// `Symbols::operator_data` (ir/symbols.rs).
#[test]
fn ir_symbols_symbols_operator_data() {
    use ssakit::ir::{Effects, Symbols};
    let mut s = Symbols::new();
    let op = s.operator("memory.grow", Effects::WRITE).unwrap();
    assert_eq!(s.operator_data(op).effects, Effects::WRITE);
}

/// `Symbols::num_operators` (ir/symbols.rs).
#[test]
fn ir_symbols_symbols_num_operators() {
    use ssakit::ir::{Effects, Symbols};
    let mut s = Symbols::new();
    s.operator("a", Effects::PURE).unwrap();
    s.operator("a", Effects::PURE).unwrap();
    assert_eq!(s.num_operators(), 1);
}

/// `Diagnostic::line_col` (text/diag.rs).
#[test]
fn text_diag_diagnostic_line_col() {
    use ssakit::text::Diagnostic;
    let src = "ab\ncd\n";
    assert_eq!(Diagnostic::new("m", 4..5, "l").line_col(src), (2, 2));
}

/// `UnionFind` (union_find.rs).
#[test]
fn union_find_union_find() {
    use ssakit::union_find::UnionFind;
    let mut uf = UnionFind::new(4);
    uf.union(0, 1);
    uf.union(2, 3);
    assert!(uf.same(0, 1) && uf.same(3, 2));
    assert!(!uf.same(1, 2));
}

/// `UnionFind::new` (union_find.rs).
#[test]
fn union_find_union_find_new() {
    use ssakit::union_find::UnionFind;
    let mut uf = UnionFind::new(3);
    assert_eq!(uf.len(), 3);
    assert_eq!((uf.find(0), uf.find(1), uf.find(2)), (0, 1, 2));
}

/// `UnionFind::union` (union_find.rs).
#[test]
fn union_find_union_find_union() {
    use ssakit::union_find::UnionFind;
    let mut uf = UnionFind::new(4);
    let r = uf.union(0, 1);
    assert!(r == 0 || r == 1);
    assert_eq!(uf.union(1, 0), r); // already one set
    let r2 = uf.union(2, 0);
    assert_eq!(r2, r); // the larger set's representative stays
}

/// `Dominance::strictly_dominates` (ir/point.rs).
#[test]
fn ir_point_dominance_strictly_dominates() {
    use ssakit::analysis::DomTree;
    use ssakit::ir::{Cfg, Dominance};
    let (mut f, [e, a, j], x) = diamond();
    let dt = DomTree::new(&Cfg::new(&f));
    assert!(dt.strictly_dominates(e, j));
    assert!(!dt.strictly_dominates(a, j) && !dt.strictly_dominates(j, j));
}
