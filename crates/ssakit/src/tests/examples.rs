//! The examples that documented items now `pub(crate)` (issue 31,
//! item 5): a doctest can reach only the public API, so each example runs
//! here as a unit test, named after the file and the item it shows.
#![allow(
    unused_imports,
    unused_variables,
    unused_mut,
    clippy::needless_range_loop
)]

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
    // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
    let edges = [
        (0, 1),
        (1, 2),
        (1, 3),
        (2, 4),
        (3, 4),
        (3, 5),
        (4, 5),
        (4, 1),
    ];
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
    // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
    let edges = [
        (0, 1),
        (1, 2),
        (1, 3),
        (2, 4),
        (3, 4),
        (3, 5),
        (4, 5),
        (4, 1),
    ];
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
    // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
    let edges = [
        (0, 1),
        (1, 2),
        (1, 3),
        (2, 4),
        (3, 4),
        (3, 5),
        (4, 5),
        (4, 1),
    ];
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
    // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
    let edges = [
        (0, 1),
        (1, 2),
        (1, 3),
        (2, 4),
        (3, 4),
        (3, 5),
        (4, 5),
        (4, 1),
    ];
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
    // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
    let edges = [
        (0, 1),
        (1, 2),
        (1, 3),
        (2, 4),
        (3, 4),
        (3, 5),
        (4, 5),
        (4, 1),
    ];
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
    // The chapter's CFG: r = 0, A = 1, B = 2, C = 3, D = 4, E = 5.
    let edges = [
        (0, 1),
        (1, 2),
        (1, 3),
        (2, 4),
        (3, 4),
        (3, 5),
        (4, 5),
        (4, 1),
    ];
    let g = CsrGraph::from_edges(6, b(0), &edges);
    let tree = DomTree::new(&g);
    let idf = IdfCalculator::new(&g, &tree);
    assert!(idf.is_empty(&[b(0), b(5)])); // DF(r) and DF(E) are empty
    assert!(!idf.is_empty(&[b(2)]));
}

/// `explore` (analysis/live_check.rs).
#[test]
fn analysis_live_check_explore() {
    use ssakit::analysis::{DomTree, LiveCheck};
    use ssakit::ir::{Cfg, Point};
    // `f` is `i = 0; while i < n { i = i + 1 }` in SSA: e → h ⇄ b, h → x.
    let src = "function f(n) {
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
    ";
    let f = &ssakit::text::parse_module(src).unwrap().functions[0];
    let var = |s: &str| f.var_by_name(s).unwrap();
    let block = |s: &str| f.block_by_name(s).unwrap();
    let cfg = Cfg::new(f);
    let dt = DomTree::new(&cfg);
    let mut lc = LiveCheck::new(f, &cfg, &dt);
    lc.explore(var("n")); // then many questions about n
    assert!(["e", "h", "b"]
        .iter()
        .all(|b| lc.is_live_out(var("n"), block(b))));
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
#[test]
fn bril_ast_name() {
    use ssakit::bril::ast::Ty;
    assert_eq!(Ty::Bool.name(), "bool");
    assert_eq!(Ty::Other("float".into()).name(), "float");
}

/// `from_name` (bril/ast.rs).
#[test]
fn bril_ast_from_name() {
    use ssakit::bril::ast::Ty;
    assert_eq!(Ty::from_name("int"), Ty::Int);
    assert_eq!(Ty::from_name("char"), Ty::Other("char".into()));
}

/// `at` (bril/mod.rs).
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
#[test]
fn bril_text_is_ident() {
    use ssakit::bril::text::is_ident;
    assert!(is_ident("x.1") && is_ident("%t") && is_ident("_"));
    assert!(!is_ident("a b") && !is_ident("ü") && !is_ident("1a") && !is_ident(""));
}

/// `check` (bril/text.rs).
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

/// `reserve` (entity.rs).
#[test]
fn entity_reserve() {
    use ssakit::entity::ListPool;
    let mut pool: ListPool<u8> = ListPool::new();
    pool.reserve(64);
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
    // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    let (e, a, j) = (
        f.block_by_name("e").unwrap(),
        f.block_by_name("a").unwrap(),
        f.block_by_name("j").unwrap(),
    );
    let x = f.var_by_name("x").unwrap();
    assert_eq!(Cfg::new(&f).entry(), e);
}

/// `num_blocks` (ir/cfg.rs).
#[test]
fn ir_cfg_num_blocks() {
    use ssakit::ir::Cfg;
    // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    let (e, a, j) = (
        f.block_by_name("e").unwrap(),
        f.block_by_name("a").unwrap(),
        f.block_by_name("j").unwrap(),
    );
    let x = f.var_by_name("x").unwrap();
    assert_eq!(Cfg::new(&f).num_blocks(), 3);
}

/// `num_edges` (ir/cfg.rs).
#[test]
fn ir_cfg_num_edges() {
    use ssakit::ir::Cfg;
    // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    let (e, a, j) = (
        f.block_by_name("e").unwrap(),
        f.block_by_name("a").unwrap(),
        f.block_by_name("j").unwrap(),
    );
    let x = f.var_by_name("x").unwrap();
    assert_eq!(Cfg::new(&f).num_edges(), 3);
}

/// `preds` (ir/cfg.rs).
#[test]
fn ir_cfg_preds() {
    use ssakit::ir::Cfg;
    // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    let (e, a, j) = (
        f.block_by_name("e").unwrap(),
        f.block_by_name("a").unwrap(),
        f.block_by_name("j").unwrap(),
    );
    let x = f.var_by_name("x").unwrap();
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
    // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    let (e, a, j) = (
        f.block_by_name("e").unwrap(),
        f.block_by_name("a").unwrap(),
        f.block_by_name("j").unwrap(),
    );
    let x = f.var_by_name("x").unwrap();
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
    // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    let (e, a, j) = (
        f.block_by_name("e").unwrap(),
        f.block_by_name("a").unwrap(),
        f.block_by_name("j").unwrap(),
    );
    let x = f.var_by_name("x").unwrap();
    f.retain_layout(|&b| b != a);
    assert_eq!(f.layout(), [e, j]);
}

/// `inst_block` (ir/function.rs).
#[test]
fn ir_function_inst_block() {
    // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    let (e, a, j) = (
        f.block_by_name("e").unwrap(),
        f.block_by_name("a").unwrap(),
        f.block_by_name("j").unwrap(),
    );
    let x = f.var_by_name("x").unwrap();
    let i = f.block_insts(a)[0];
    assert_eq!(f.inst_block(i), Some(a));
    f.retain_insts(a, |_, _| false);
    assert_eq!(f.inst_block(i), None);
}

/// `list_from_iter` (ir/function.rs).
#[test]
fn ir_function_list_from_iter() {
    use ssakit::ir::{InstData, Operand};
    // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    let (e, a, j) = (
        f.block_by_name("e").unwrap(),
        f.block_by_name("a").unwrap(),
        f.block_by_name("j").unwrap(),
    );
    let x = f.var_by_name("x").unwrap();
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
    // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    let (e, a, j) = (
        f.block_by_name("e").unwrap(),
        f.block_by_name("a").unwrap(),
        f.block_by_name("j").unwrap(),
    );
    let x = f.var_by_name("x").unwrap();
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
