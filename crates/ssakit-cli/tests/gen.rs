//! `ssakit gen`: prints a parseable program, the same one for the same
//! options, says in `--help` how many blocks each shape makes, rejects
//! unknown shapes with the list of known ones and bounds its sizes.

mod common;

use common::{ssakit, stderr, stdout};

#[test]
fn gen_prints_the_library_program() {
    let args = [
        "gen", "--shape", "switchy", "--blocks", "12", "--vars", "3", "--seed", "5",
    ];
    let out = ssakit(&args, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert_eq!(text, stdout(&ssakit(&args, None)));
    let f = ssakit::gen::generate(&ssakit::gen::GenOptions {
        shape: ssakit::gen::Shape::Switchy,
        blocks: 12,
        vars: 3,
        seed: 5,
    });
    let m = ssakit::ir::Module { functions: vec![f] };
    assert_eq!(text, ssakit::text::print_module(&m));
    assert_eq!(ssakit::text::parse_module(&text).unwrap(), m);
}

#[test]
fn gen_defaults_to_a_small_random_program() {
    let out = ssakit(&["gen"], None);
    assert!(out.status.success());
    let m = ssakit::text::parse_module(&stdout(&out)).unwrap();
    assert_eq!(m.functions[0].layout().len(), 20);
}

#[test]
fn gen_rejects_an_unknown_shape() {
    let out = ssakit(&["gen", "--shape", "spiral"], None);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("spiral") && err.contains("ladder-redundant"),
        "{err}"
    );
}

#[test]
fn gen_bounds_its_arguments_instead_of_running_out_of_memory() {
    for (args, bound) in [
        (&["--blocks", "18446744073709551615"][..], "0..=10000000"),
        (&["--blocks", "10000001"], "0..=10000000"),
        (
            &["--shape", "many-vars", "--vars", "100000000"],
            "1..=1000000",
        ),
        (&["--vars", "0"], "1..=1000000"),
    ] {
        let mut call = vec!["gen"];
        call.extend_from_slice(args);
        let out = ssakit(&call, None);
        assert_eq!(out.status.code(), Some(1), "{call:?}");
        assert!(stderr(&out).contains(bound), "{call:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    // A million blocks still work.
    let out = ssakit(
        &[
            "gen", "--shape", "switchy", "--blocks", "1000000", "--vars", "2",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("    switch ") && text.ends_with("}\n"));
}

/// The block count `gen --help` states for `shape` and `--blocks n`.
fn stated(shape: &str, n: usize) -> usize {
    match shape {
        // "R = max(1, (N-2)/2) nested repeat-until loops: 2R+2 blocks"
        "ladder" | "ladder-redundant" => 2 * (n.saturating_sub(2) / 2).max(1) + 2,
        // "D = max(1, (N-2)/3) nested while loops: 3D+2 blocks"
        "nested-loops" => 3 * (n.saturating_sub(2) / 3).max(1) + 2,
        _ => n.max(3),
    }
}

#[test]
fn gen_help_lists_every_shape_with_the_blocks_it_makes() {
    let help = stdout(&ssakit(&["gen", "--help"], None));
    for shape in ssakit::gen::Shape::ALL {
        let name = shape.name();
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("- {name}:")))
            .unwrap_or_else(|| panic!("{name} is not listed in\n{help}"));
        assert!(line.contains(" blocks"), "{line}");
        for n in (0..=40).chain([99, 100, 1001, 10002]) {
            let count = stated(name, n);
            assert_eq!(count, shape.block_count(n), "{name} {n}");
            // The words beside the formulas.
            match name {
                "ladder" | "ladder-redundant" => assert_eq!(count, (n - n % 2).max(4)),
                "nested-loops" => assert_eq!(count, (n.saturating_sub(2) / 3 * 3 + 2).max(5)),
                _ => {}
            }
            if n <= 40 {
                let out = ssakit(&["gen", "--shape", name, "--blocks", &n.to_string()], None);
                let m = ssakit::text::parse_module(&stdout(&out)).unwrap();
                assert_eq!(m.functions[0].layout().len(), count, "{name} {n}");
            }
        }
    }
}
