//! `ssakit dot` end to end: the three graphs as DOT and SVG, the function
//! chosen, `-o FILE`, and the errors (the library's `tests/pictures.rs`
//! checks the pictures themselves).

mod common;

use common::{ok, ssakit, stderr};

#[test]
fn the_graph_flags_choose_the_picture() {
    let cfg = ok(&["dot", "seed.ssa"], None);
    assert_eq!(cfg, ok(&["dot", "--cfg", "seed.ssa"], None));
    assert!(cfg.starts_with("digraph \"main\" {\n  label=\"main (cfg)\";\n"));
    assert_eq!(cfg.matches(" -> ").count(), 8);
    assert!(cfg.contains("<b>D</b></td></tr><tr><td align=\"left\">x = f(x, y)</td>"));
    let dom = ok(&["dot", "--dom", "seed.ssa"], None);
    assert_eq!(dom.matches(" -> ").count(), 5);
    let dj = ok(&["dot", "--dj", "seed.ssa"], None);
    assert_eq!(dj.matches(" -> ").count(), 10);
    assert_eq!(dj.matches("style=dashed").count(), 5);
    for graph in ["--cfg", "--dom", "--dj"] {
        let svg = ok(&["dot", "--svg", graph, "seed.ssa"], None);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<g class=\"node\"").count(), 6, "{graph}");
    }
    let o = ssakit(&["dot", "--dom", "--dj", "seed.ssa"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

#[test]
fn the_function_is_chosen_by_name_and_ssa_input_shows_its_phis() {
    let src =
        "function f() {\na:\n    ret\n}\nfunction g(c) {\nb:\n    branch c, b, d\nd:\n    ret\n}\n";
    let g = ok(&["dot", "--function", "g", "-"], Some(src));
    assert!(g.starts_with("digraph \"g\""));
    assert_eq!(g.matches(" -> ").count(), 2);
    assert_eq!(g, ok(&["dot", "--entry", "g", "-"], Some(src)));
    assert!(ok(&["dot", "-"], Some(src)).starts_with("digraph \"f\""));
    let o = ssakit(&["dot", "--function", "h", "-"], Some(src));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: no function named `h`\n");
    let ssa = ok(&["construct", "seed.ssa"], None);
    let svg = ok(&["dot", "--svg", "-"], Some(&ssa));
    assert_eq!(svg.matches("<rect class=\"phi\"").count(), 9);
}

#[test]
fn output_goes_to_the_file_named_by_o() {
    let dir = std::env::temp_dir().join(format!("ssakit-dot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("seed.svg");
    let p = path.to_str().unwrap();
    let o = ssakit(&["dot", "--svg", "seed.ssa", "-o", p], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        ok(&["dot", "--svg", "seed.ssa"], None)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
