//! `docs/tutorial.md` cannot drift: every block "```sh\n$ CMD\nOUTPUT```"
//! in it is run, in order, in one scratch directory holding a copy of
//! `examples/seed.ssa` (so that files the tutorial writes, such as
//! `seed.opt.ssa`, are there for the commands after it), and what the
//! command prints (standard output, then standard error) must be OUTPUT
//! exactly; a line `...` in OUTPUT stands for any number of lines. A CMD is
//! `ssakit ARGS`, or such commands joined by ` | `, each reading the
//! previous one's standard output.

mod common;

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// One command of the tutorial and the output shown under it.
struct Shown {
    line: usize,
    command: String,
    output: Vec<String>,
}

/// The commands of every "```sh" block whose first line starts with `$ `.
fn shown_commands(text: &str) -> Vec<Shown> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] == "```sh" && lines.get(i + 1).is_some_and(|l| l.starts_with("$ ")) {
            i += 1;
            while i < lines.len() && lines[i] != "```" {
                let line = i + 1;
                let command = lines[i].strip_prefix("$ ").expect("a command").to_string();
                i += 1;
                let mut output = Vec::new();
                while i < lines.len() && lines[i] != "```" && !lines[i].starts_with("$ ") {
                    output.push(lines[i].to_string());
                    i += 1;
                }
                found.push(Shown {
                    line,
                    command,
                    output,
                });
            }
            assert!(i < lines.len(), "docs/tutorial.md: unclosed ```sh block");
        }
        i += 1;
    }
    found
}

/// Runs `command` (`ssakit ...` stages joined by ` | `) in `dir`; what the
/// last stage printed, standard output then standard error.
fn run(command: &str, dir: &Path) -> String {
    let mut input = Vec::new();
    let mut printed = String::new();
    for stage in command.split(" | ") {
        let words: Vec<&str> = stage.split_whitespace().collect();
        assert_eq!(words[0], "ssakit", "`{stage}` is not an ssakit command");
        let out = common::ssakit_in(dir, &words[1..], &input);
        assert!(
            out.status.success(),
            "`{stage}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        input = out.stdout.clone();
        printed = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
    }
    printed
}

/// Whether `actual` is `shown` where each `...` line of `shown` stands for
/// any number of lines: the pieces between them appear in order, the
/// first at the start and the last at the end.
fn matches(shown: &[String], actual: &[&str]) -> bool {
    let pieces: Vec<&[String]> = shown.split(|l| l == "...").collect();
    let same = |piece: &[String], at: &[&str]| piece.iter().zip(at).all(|(a, b)| a == b);
    if pieces.len() == 1 {
        return shown.len() == actual.len() && same(shown, actual);
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if first.len() + last.len() > actual.len()
        || !same(first, actual)
        || !same(last, &actual[actual.len() - last.len()..])
    {
        return false;
    }
    let mut at = first.len();
    let end = actual.len() - last.len();
    for piece in &pieces[1..pieces.len() - 1] {
        match (at..=end.saturating_sub(piece.len()))
            .find(|&k| k + piece.len() <= end && same(piece, &actual[k..]))
        {
            Some(k) => at = k + piece.len(),
            None => return false,
        }
    }
    true
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
    let commands = shown_commands(&text);
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
