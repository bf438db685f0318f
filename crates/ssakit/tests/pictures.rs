//! Pictures of the chapter's running example (examples/seed.ssa, blocks r A
//! B C D E) before and after construction:
//!
//! ```text
//!        r
//!        |
//!        A <------+      CFG: 6 blocks, 8 edges
//!       / \       |      r-A, A-B, A-C, B-D, C-D, C-E, D-E, D-A
//!      B   C      |      dominator tree: A dominates B C D E (5 edges)
//!       \ / \     |      DJ-graph: those 5 D-edges and 5 J-edges
//!        D---E    |      (B-D, C-D, C-E, D-E, D-A)
//!        +--------+
//! ```
//!
//! The DOT text is compared with golden files exactly; the SVG is parsed as
//! XML and its nodes, edges, phi bands and texts counted; the pictures in
//! `docs/pictures/` must be what the renderer draws today (`BLESS=1`
//! rewrites them); generated programs of 10,000 blocks in a chain and in
//! one switch are drawn to the end.

mod common;

use common::{example, golden};
use ssakit::backend::picture::PictureKind;
use ssakit::backend::{dot, svg};
use ssakit::construct::{self, Options};
use ssakit::gen::{self, GenOptions, Shape};
use ssakit::ir::Function;

fn seed() -> Function {
    ssakit::text::parse_module(&example("seed.ssa"))
        .unwrap()
        .functions
        .remove(0)
}

fn seed_ssa() -> Function {
    let mut f = seed();
    construct::construct(&mut f, &Options::default()).unwrap();
    f
}

const KINDS: [PictureKind; 3] = [PictureKind::Cfg, PictureKind::Dom, PictureKind::Dj];

#[test]
fn seed_dot_golden() {
    for kind in KINDS {
        golden(
            &format!("seed.{}.dot", kind.name()),
            &dot::dot(&seed(), kind),
        );
    }
    golden("seed-ssa.cfg.dot", &dot::dot(&seed_ssa(), PictureKind::Cfg));
}

/// What a test reads back from an SVG picture.
#[derive(Debug, Default)]
struct Drawn {
    /// `data-block` of each node, in document order.
    nodes: Vec<String>,
    /// `(class, from, to)` of each edge.
    edges: Vec<(String, String, String)>,
    /// Phi bands.
    phi_bands: usize,
    /// Texts of the phi rows.
    phi_texts: Vec<String>,
    /// Node rectangles `(x, y, w, h)`.
    boxes: Vec<(f64, f64, f64, f64)>,
    /// The width and height of the drawing.
    size: (f64, f64),
}

fn parse_svg(text: &str) -> Drawn {
    let doc = roxmltree::Document::parse(text).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let num = |n: roxmltree::Node, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
    let mut d = Drawn {
        size: (num(root, "width"), num(root, "height")),
        ..Drawn::default()
    };
    for n in doc.descendants() {
        let class = n.attribute("class").unwrap_or("");
        match (n.tag_name().name(), class) {
            ("g", "node") => {
                d.nodes.push(n.attribute("data-block").unwrap().to_string());
                let r = n.children().find(|c| c.has_tag_name("rect")).unwrap();
                d.boxes
                    .push((num(r, "x"), num(r, "y"), num(r, "width"), num(r, "height")));
            }
            ("path", c) if c.starts_with("edge ") => d.edges.push((
                c["edge ".len()..].to_string(),
                n.attribute("data-from").unwrap().to_string(),
                n.attribute("data-to").unwrap().to_string(),
            )),
            ("rect", "phi") => d.phi_bands += 1,
            ("text", "inst phi") => d.phi_texts.push(n.text().unwrap().to_string()),
            _ => {}
        }
    }
    d
}

fn edge_list(d: &Drawn, class: &str) -> Vec<String> {
    d.edges
        .iter()
        .filter(|e| e.0 == class)
        .map(|e| format!("{}-{}", e.1, e.2))
        .collect()
}

/// No two node boxes overlap, and all lie inside the drawing.
fn assert_no_overlap(d: &Drawn) {
    for (i, a) in d.boxes.iter().enumerate() {
        assert!(a.0 >= 0.0 && a.1 >= 0.0 && a.0 + a.2 <= d.size.0 && a.1 + a.3 <= d.size.1);
        for b in &d.boxes[i + 1..] {
            let apart =
                a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0 || a.1 + a.3 <= b.1 || b.1 + b.3 <= a.1;
            assert!(apart, "{a:?} and {b:?} overlap");
        }
    }
}

#[test]
fn seed_svg_cfg_before_construction() {
    let d = parse_svg(&svg::svg(&seed(), PictureKind::Cfg));
    assert_eq!(d.nodes, ["r", "A", "B", "C", "D", "E"]);
    assert_eq!(
        edge_list(&d, "cfg"),
        ["r-A", "A-B", "A-C", "B-D", "C-D", "C-E", "D-E", "D-A"]
    );
    assert_eq!(d.edges.len(), 8);
    assert_eq!(d.phi_bands, 0);
    assert_no_overlap(&d);
}

#[test]
fn seed_svg_cfg_after_construction() {
    let f = seed_ssa();
    let d = parse_svg(&svg::svg(&f, PictureKind::Cfg));
    assert_eq!(d.nodes.len(), 6);
    assert_eq!(d.edges.len(), 8);
    // Minimal SSA: phis of tmp, x and y at A, D and E.
    assert_eq!(d.phi_bands, 9);
    assert_eq!(d.phi_texts.len(), 9);
    assert!(d
        .phi_texts
        .contains(&"x1 = phi(r: undef, D: x5)".to_string()));
    assert!(d.phi_texts.contains(&"x6 = phi(C: x3, D: x5)".to_string()));
    assert_no_overlap(&d);
}

#[test]
fn seed_svg_dominator_tree_and_dj_graph() {
    let d = parse_svg(&svg::svg(&seed(), PictureKind::Dom));
    assert_eq!(d.nodes.len(), 6);
    assert_eq!(edge_list(&d, "d-edge"), ["r-A", "A-B", "A-C", "A-D", "A-E"]);
    assert_eq!(d.edges.len(), 5);
    assert_no_overlap(&d);
    let d = parse_svg(&svg::svg(&seed(), PictureKind::Dj));
    assert_eq!(d.nodes.len(), 6);
    assert_eq!(edge_list(&d, "d-edge"), ["r-A", "A-B", "A-C", "A-D", "A-E"]);
    assert_eq!(edge_list(&d, "j-edge"), ["B-D", "C-D", "C-E", "D-A", "D-E"]);
    assert_eq!(d.edges.len(), 10);
    assert_no_overlap(&d);
}

/// The pictures of the README and docs/ are what `ssakit dot --svg` draws today.
#[test]
fn readme_pictures_are_current() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/pictures"));
    for (name, f, kind) in [
        ("seed-cfg.svg", seed(), PictureKind::Cfg),
        ("seed-ssa.svg", seed_ssa(), PictureKind::Cfg),
        ("seed-dj.svg", seed(), PictureKind::Dj),
    ] {
        let actual = svg::svg(&f, kind);
        let path = dir.join(name);
        if std::env::var_os("BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (BLESS=1 writes it)", path.display()));
        assert!(expected == actual, "{name} is stale: run with BLESS=1");
    }
}

#[test]
fn ten_thousand_blocks_in_a_chain_and_in_one_switch_are_drawn() {
    for (shape, blocks) in [(Shape::Chain, 10_000), (Shape::Switchy, 10_002)] {
        let f = gen::generate(&GenOptions {
            shape,
            blocks,
            vars: 4,
            seed: 1,
        });
        for kind in KINDS {
            let text = svg::svg(&f, kind);
            let d = parse_svg(&text);
            assert_eq!(d.nodes.len(), f.layout().len(), "{shape:?} {kind:?}");
            let dot = dot::dot(&f, kind);
            assert_eq!(
                dot.matches(" -> ").count(),
                d.edges.len(),
                "{shape:?} {kind:?}"
            );
        }
    }
}

/// 100,000 blocks of every shape that has loops, switches and long edges
/// (`cargo test -- --ignored`: a few seconds each unoptimised).
#[test]
#[ignore]
fn a_hundred_thousand_blocks_are_drawn() {
    for shape in [
        Shape::Random,
        Shape::Ladder,
        Shape::NestedLoops,
        Shape::Irreducible,
    ] {
        let f = gen::generate(&GenOptions {
            shape,
            blocks: 100_000,
            vars: 4,
            seed: 2,
        });
        let text = svg::svg(&f, PictureKind::Cfg);
        assert_eq!(text.matches("<g class=\"node\"").count(), f.layout().len());
    }
}
