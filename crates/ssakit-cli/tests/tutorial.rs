//! `docs/tutorial.md` cannot drift: every block "```sh\n$ CMD\nOUTPUT```"
//! in it (as `common::shown` reads them) is run, in order, in one scratch
//! directory holding a copy of
//! `examples/seed.ssa` (so that files the tutorial writes, such as
//! `seed.opt.ssa`, are there for the commands after it), and what the
//! command prints (standard output, then standard error) must be OUTPUT
//! exactly; a line `...` in OUTPUT stands for any number of lines. A CMD is
//! `ssakit ARGS`, or such commands joined by ` | `, each reading the
//! previous one's standard output.

mod common;

use common::shown::{matches, run, shown_commands};
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn the_dots_match_any_lines() {
    let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&s(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(
        &s(&["a", "...", "c", "...", "e"]),
        &["a", "b", "c", "d", "e"]
    ));
    assert!(matches(&s(&["a", "..."]), &["a"]));
    assert!(!matches(&s(&["a", "...", "x"]), &["a", "b"]));
    assert!(!matches(&s(&["a", "...", "x", "...", "b"]), &["a", "b"]));
    assert!(!matches(&s(&["a", "b"]), &["a", "b", "c"]));
}

#[test]
fn every_command_of_the_tutorial_prints_what_it_shows() {
    let text = std::fs::read_to_string(repo().join("docs/tutorial.md")).unwrap();
    let commands = shown_commands("docs/tutorial.md", &text);
    assert!(commands.len() >= 15, "{} commands found", commands.len());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tutorial");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    std::fs::copy(
        repo().join("examples/seed.ssa"),
        dir.join("examples/seed.ssa"),
    )
    .unwrap();
    for c in &commands {
        let printed = run(&c.command, &dir);
        let actual: Vec<&str> = printed.lines().collect();
        assert!(
            matches(&c.output, &actual),
            "docs/tutorial.md:{}: `{}` printed\n{printed}\nbut the tutorial shows\n{}",
            c.line,
            c.command,
            c.output.join("\n")
        );
    }
    // The pictures the tutorial draws are the ones it links.
    for name in ["seed-cfg.svg", "seed-ssa.svg"] {
        let drawn = std::fs::read_to_string(dir.join(name)).unwrap();
        let linked = std::fs::read_to_string(repo().join("docs/pictures").join(name)).unwrap();
        assert!(
            drawn == linked,
            "{name}: docs/pictures/{name} is not what the tutorial draws"
        );
    }
    let page = std::fs::read_to_string(dir.join("seed.html")).unwrap();
    assert!(
        page.contains("data-phase=\"sequentialized\""),
        "seed.html has every phase"
    );
}
