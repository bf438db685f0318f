//! `ssakit gen`: prints a parseable program, the same one for the same
//! options, and rejects unknown shapes with the list of known ones.

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
    assert_eq!(m.functions[0].layout.len(), 20);
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
