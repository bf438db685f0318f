//! Commands shown in Markdown, and the output shown under them: every
//! "```sh" block whose first line starts with `$ ` holds commands
//! `$ CMD`, each followed by the lines it prints (standard output, then
//! standard error). A line `...` in the shown output stands for any
//! number of lines. A CMD is `ssakit ARGS`, or such commands joined by
//! ` | `, each reading the previous one's standard output. Used by
//! `tests/tutorial.rs` (`docs/tutorial.md`, in order) and `tests/docs.rs`
//! (the README and every page of `docs/`).

use std::path::Path;

/// One command and the output shown under it.
pub struct Shown {
    /// The command's line, counted from 1.
    pub line: usize,
    /// The command, without its `$ `.
    pub command: String,
    /// The lines shown under it, up to the next command or the block's end.
    pub output: Vec<String>,
}

/// The commands of every "```sh" block of `text` whose first line starts
/// with `$ `; `name` names the file in the panic of an unclosed block.
pub fn shown_commands(name: &str, text: &str) -> Vec<Shown> {
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
            assert!(i < lines.len(), "{name}: unclosed ```sh block");
        }
        i += 1;
    }
    found
}

/// Runs `command` (`ssakit ...` stages joined by ` | `) in `dir`; what the
/// last stage printed, standard output then standard error. A stage that
/// is not an ssakit command, or that fails, is a panic naming it.
pub fn run(command: &str, dir: &Path) -> String {
    let mut input = Vec::new();
    let mut printed = String::new();
    for stage in command.split(" | ") {
        let words: Vec<&str> = stage.split_whitespace().collect();
        assert_eq!(words[0], "ssakit", "`{stage}` is not an ssakit command");
        let out = super::ssakit_in(dir, &words[1..], &input);
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
/// first at the start and the last at the end. Lines are compared without
/// their trailing blanks (which editors strip from Markdown).
pub fn matches(shown: &[String], actual: &[&str]) -> bool {
    let pieces: Vec<&[String]> = shown.split(|l| l == "...").collect();
    let same = |piece: &[String], at: &[&str]| {
        piece
            .iter()
            .zip(at)
            .all(|(a, b)| a.trim_end() == b.trim_end())
    };
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
