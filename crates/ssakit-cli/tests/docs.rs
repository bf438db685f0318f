//! The documentation cannot drift from the code: in `README.md` and every
//! page under `docs/`,
//!
//! - every relative link (`[text](path#anchor)`, `<img src="path">`)
//!   names a file or folder that exists, and an `#anchor` names a heading
//!   of the page it points into (GitHub's slugs: lower case, spaces as
//!   `-`, punctuation dropped, `-1`, `-2`, ... for repeated headings);
//! - every command shown in a "```sh" block runs. Blocks of `$ CMD` lines
//!   (as `common::shown` reads them) are run in order and must print the
//!   output shown under each command; in other blocks, each line (`\` at
//!   the end continuing it, `# ...` a comment) that starts with `ssakit`
//!   runs with the `ssakit` stages of its pipeline, and must succeed. A
//!   command naming a file that is not there (the WebAssembly corpus
//!   before `scripts/fetch-wasm-corpus.sh`) only has its arguments parsed
//!   (`--help` appended). The commands of one page run in one scratch
//!   directory, where `examples/`, `target/` and `crates/` are the repository's and
//!   each "```ssa file=NAME" block of the page is written as NAME first;
//!   a picture the page shows must be the file of the same name its
//!   commands draw. `docs/tutorial.md`'s commands are `tests/tutorial.rs`'s.
//!
//! `BLESS=1` rewrites the shown output of every `$ CMD` without a `...`
//! line (after a change of `--help`, for instance) instead of comparing.

mod common;

use common::shown::{matches, shown_commands};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// `README.md` and every `.md` file under `docs/`, as paths relative to
/// the repository, sorted.
fn pages() -> Vec<PathBuf> {
    let root = repo();
    let mut found = vec![PathBuf::from("README.md")];
    let mut dirs = vec![PathBuf::from("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(root.join(&dir)).unwrap() {
            let entry = entry.unwrap();
            let rel = dir.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                dirs.push(rel);
            } else if rel.extension().is_some_and(|e| e == "md") {
                found.push(rel);
            }
        }
    }
    found.sort();
    found
}

/// A fenced block: its info string (after the backticks), the line of
/// its opening fence (from 1) and its lines.
struct Block {
    info: String,
    line: usize,
    lines: Vec<String>,
}

/// The fenced blocks of `text`, and `text` with every line of a block
/// (fences included) blanked, where links and headings are looked for.
fn blocks(text: &str) -> (Vec<Block>, String) {
    let mut found = Vec::new();
    let mut prose = String::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        // A fence's info string holds no backtick (CommonMark): "```` ```sh
        // ````" at the start of a line is inline code.
        let fence = line.strip_prefix("```").filter(|info| !info.contains('`'));
        match (&mut open, fence) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_string(),
                    line: i + 1,
                    lines: Vec::new(),
                })
            }
            (Some(_), Some(_)) => found.extend(open.take()),
            (Some(b), None) => b.lines.push(line.to_string()),
            (None, None) => prose.push_str(line),
        }
        prose.push('\n');
    }
    assert!(open.is_none(), "unclosed fenced block");
    (found, prose)
}

/// GitHub's anchor for a heading's text: letters and digits lower-cased,
/// spaces as `-`, `-` and `_` kept, everything else (backticks,
/// punctuation) dropped.
fn slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The anchors of a page's headings (outside fenced blocks), a repeated
/// one numbered `-1`, `-2`, ... as GitHub does.
fn anchors(prose: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut found = HashSet::new();
    for line in prose.lines() {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim());
        let n = seen.entry(base.clone()).or_insert(0);
        found.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    found
}

/// `text` without its inline code spans, a paragraph (lines up to a
/// blank one) at a time, so that a span may run over a line end; a
/// paragraph with an odd number of backticks is kept whole.
fn without_code_spans(text: &str) -> String {
    let mut out = String::new();
    for paragraph in text.split("\n\n") {
        if paragraph.matches('`').count() % 2 == 1 {
            out.push_str(paragraph);
        } else {
            let mut in_code = false;
            for c in paragraph.chars() {
                if c == '`' {
                    in_code = !in_code;
                } else if !in_code {
                    out.push(c);
                }
            }
        }
        out.push_str("\n\n");
    }
    out
}

/// The targets of a page's links and pictures: `](TARGET)`, `src="TARGET"`
/// and `href="TARGET"` outside code, with the line of each.
fn link_targets(prose: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in without_code_spans(prose).lines().enumerate() {
        for (open, close) in [("](", ')'), ("src=\"", '"'), ("href=\"", '"')] {
            let mut rest = line;
            while let Some(at) = rest.find(open) {
                rest = &rest[at + open.len()..];
                if let Some(end) = rest.find(close) {
                    found.push((i + 1, rest[..end].to_string()));
                    rest = &rest[end..];
                }
            }
        }
    }
    found
}

/// Why the link `target` of the page `page` does not resolve, if it does not.
fn broken(page: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        repo().join(page)
    } else {
        repo().join(page.parent().unwrap()).join(path)
    };
    if !file.exists() {
        return Some(format!("{} does not exist", file.display()));
    }
    let anchor = anchor?;
    if file.extension().is_none_or(|e| e != "md") {
        return Some(format!("#{anchor} into a file that is not Markdown"));
    }
    let (_, prose) = blocks(&std::fs::read_to_string(&file).unwrap());
    (!anchors(&prose).contains(anchor)).then(|| format!("no heading has the anchor #{anchor}"))
}

#[test]
fn slugs_and_links_are_read_as_github_does() {
    assert_eq!(slug("The `.ssa` format"), "the-ssa-format");
    assert_eq!(
        slug("Blocks in pools, printing in pieces (2026-12-03)"),
        "blocks-in-pools-printing-in-pieces-2026-12-03"
    );
    assert_eq!(
        slug("Against binaryen's wasm-opt"),
        "against-binaryens-wasm-opt"
    );
    let page = "# A\n## A\n```sh\n# not a heading\n```\n#not one either\n";
    let (_, prose) = blocks(page);
    let found = anchors(&prose);
    assert!(found.contains("a") && found.contains("a-1"));
    assert_eq!(found.len(), 2, "{found:?}");
    let text = "See [x](a.md#b) and `[y](code.md)`, <img src=\"p.svg\">,\n\
                a span `over\nlines [z](no.md)` and [w](\nnot-a-link.";
    let targets: Vec<String> = link_targets(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(targets, ["a.md#b", "p.svg"]);
    assert!(broken(Path::new("README.md"), "docs/README.md").is_none());
    assert!(broken(Path::new("README.md"), "docs/nowhere.md").is_some());
    assert!(broken(Path::new("docs/cli.md"), "#explain").is_none());
    assert!(broken(Path::new("docs/cli.md"), "#nowhere").is_some());
    assert!(broken(Path::new("docs/cli.md"), "format.md#the-interpreter").is_none());
}

#[test]
fn every_relative_link_resolves() {
    let mut wrong = Vec::new();
    let mut count = 0;
    for page in pages() {
        let text = std::fs::read_to_string(repo().join(&page)).unwrap();
        let (_, prose) = blocks(&text);
        for (line, target) in link_targets(&prose) {
            count += 1;
            if let Some(why) = broken(&page, &target) {
                wrong.push(format!("{}:{line}: ({target}): {why}", page.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "broken links:\n{}", wrong.join("\n"));
    assert!(count >= 50, "only {count} links found");
}

/// The commands of the lines of a plain "```sh" block: a line ending in
/// `\` continues on the next, `#` after a blank starts a comment; only the
/// commands starting with `ssakit`, with their line.
fn plain_commands(block: &Block) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut command = String::new();
    for (i, line) in block.lines.iter().enumerate() {
        let code = match line.find(" #") {
            Some(at) => &line[..at],
            None if line.starts_with('#') => "",
            None => line,
        };
        let code = code.trim_end();
        match code.strip_suffix('\\') {
            Some(head) => command.push_str(head),
            None => {
                command.push_str(code);
                let c = std::mem::take(&mut command);
                let c = c.split_whitespace().collect::<Vec<_>>().join(" ");
                if c.starts_with("ssakit ") {
                    found.push((block.line + 1 + i, c));
                }
            }
        }
    }
    found
}

/// Runs the `ssakit` stages of the pipeline `command` in `dir` (the
/// stages from the first that is not `ssakit` on are not ours: `brili`,
/// `head`); when a word that looks like a file (a `/` in it, not an
/// option) names none, only their arguments are parsed. An error message
/// if a stage fails.
fn run_pipeline(command: &str, dir: &Path) -> Result<(), String> {
    let stages: Vec<Vec<&str>> = command
        .split(" | ")
        .map(|s| s.split_whitespace().collect())
        .take_while(|w: &Vec<&str>| w.first() == Some(&"ssakit"))
        .collect();
    let missing = stages.iter().flatten().any(|w| {
        w.contains('/') && !w.starts_with('-') && !w.contains('=') && !dir.join(w).exists()
    });
    let mut input = Vec::new();
    for words in &stages {
        let mut args = words[1..].to_vec();
        if missing {
            args.push("--help");
        }
        let out = common::ssakit_in(dir, &args, &input);
        if !out.status.success() {
            return Err(format!(
                "`{}` failed: {}",
                words.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        input = out.stdout;
    }
    Ok(())
}

/// A scratch directory for `page`'s commands, with the repository's
/// `examples/`, `target/` and `crates/` (the x86 fixtures) linked in and the page's "```ssa file=NAME"
/// blocks written.
#[cfg(unix)]
fn scratch(page: &Path, blocks: &[Block]) -> PathBuf {
    let name = page.to_str().unwrap().replace(['/', '.'], "_");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("docs")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for linked in ["examples", "target", "crates"] {
        std::os::unix::fs::symlink(repo().join(linked), dir.join(linked)).unwrap();
    }
    for b in blocks {
        if let Some(file) = b.info.strip_prefix("ssa file=") {
            std::fs::write(dir.join(file), b.lines.join("\n") + "\n").unwrap();
        }
    }
    dir
}

/// Rewrites, in `text`, the output shown under the command of each line
/// of `outputs` (from 1) with the output given.
fn blessed(text: &str, outputs: &[(usize, String)]) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        out.push_str(lines[i]);
        out.push('\n');
        i += 1;
        if let Some((_, printed)) = outputs.iter().find(|(l, _)| *l == i) {
            for line in printed.lines() {
                out.push_str(line.trim_end());
                out.push('\n');
            }
            while i < lines.len() && lines[i] != "```" && !lines[i].starts_with("$ ") {
                i += 1;
            }
        }
    }
    out
}

#[cfg(unix)]
#[test]
fn every_shown_command_runs_and_prints_what_is_shown() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut wrong = Vec::new();
    let (mut shown_count, mut plain_count) = (0, 0);
    for page in pages() {
        if page == Path::new("docs/tutorial.md") {
            continue;
        }
        let path = repo().join(&page);
        let text = std::fs::read_to_string(&path).unwrap();
        let (blocks, prose) = blocks(&text);
        let shown = shown_commands(page.to_str().unwrap(), &text);
        let plain: Vec<(usize, String)> = blocks
            .iter()
            .filter(|b| b.info == "sh" && !b.lines.first().is_some_and(|l| l.starts_with("$ ")))
            .flat_map(plain_commands)
            .collect();
        if shown.is_empty() && plain.is_empty() {
            continue;
        }
        let dir = scratch(&page, &blocks);
        let mut outputs = Vec::new();
        for c in &shown {
            shown_count += 1;
            let printed = common::shown::run(&c.command, &dir);
            let actual: Vec<&str> = printed.lines().collect();
            if bless && !c.output.iter().any(|l| l == "...") {
                outputs.push((c.line, printed.clone()));
            } else if !matches(&c.output, &actual) {
                wrong.push(format!(
                    "{}:{}: `{}` printed\n{printed}\nbut the page shows\n{}",
                    page.display(),
                    c.line,
                    c.command,
                    c.output.join("\n")
                ));
            }
        }
        for (line, command) in &plain {
            plain_count += 1;
            if let Err(e) = run_pipeline(command, &dir) {
                wrong.push(format!("{}:{line}: {e}", page.display()));
            }
        }
        if bless && !outputs.is_empty() {
            std::fs::write(&path, blessed(&text, &outputs)).unwrap();
        }
        // A picture the page shows that its commands drew is what they draw.
        for (line, target) in link_targets(&prose) {
            let Some(name) = Path::new(&target).file_name() else {
                continue;
            };
            let drawn = dir.join(name);
            let linked = path.parent().unwrap().join(&target);
            if drawn.is_file()
                && linked.is_file()
                && !target.ends_with(".md")
                && std::fs::read(&drawn).unwrap() != std::fs::read(&linked).unwrap()
            {
                wrong.push(format!(
                    "{}:{line}: {target} is not what the page's commands draw",
                    page.display()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    assert!(
        shown_count >= 30 && plain_count >= 10,
        "{shown_count} shown and {plain_count} plain commands found"
    );
}

#[test]
fn plain_blocks_are_read_line_by_line() {
    let block = Block {
        info: "sh".into(),
        line: 10,
        lines: [
            "# a comment",
            "ssakit run f.ssa 1   # => 2",
            "ssakit construct f.ssa | ssakit opt --passes dce - \\",
            "  | ssakit destruct -",
            "cargo test",
        ]
        .map(String::from)
        .to_vec(),
    };
    assert_eq!(
        plain_commands(&block),
        [
            (12, "ssakit run f.ssa 1".to_string()),
            (
                14,
                "ssakit construct f.ssa | ssakit opt --passes dce - | ssakit destruct -"
                    .to_string()
            ),
        ]
    );
    let text = "```sh\n$ ssakit a\nold\nlines\n$ ssakit b\nkept\n```\n";
    assert_eq!(
        blessed(text, &[(2, "new\n".to_string())]),
        "```sh\n$ ssakit a\nnew\n$ ssakit b\nkept\n```\n"
    );
}

/// A new user's path, as the README's "Your own program" gives it: the
/// program of its "```ssa file=NAME" block, saved in an empty directory
/// (nothing of the repository beside it), runs as shown, and the README's
/// `ssakit explain NAME -o PAGE` writes PAGE, an explain page with every
/// phase from the input to sequentialization and every block of the
/// program.
#[cfg(unix)]
#[test]
fn the_readme_takes_a_program_of_ones_own_to_its_explain_page() {
    let text = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let start = text
        .find("\n## Your own program\n")
        .expect("README.md has a section \"Your own program\"");
    let section = &text[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let (found, _) = blocks(section);
    let files: Vec<&Block> = found
        .iter()
        .filter(|b| b.info.starts_with("ssa file="))
        .collect();
    assert_eq!(files.len(), 1, "one program to save in the section");
    let name = files[0].info.strip_prefix("ssa file=").unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("own-program");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), files[0].lines.join("\n") + "\n").unwrap();
    let commands = shown_commands("README.md", section);
    let explain = commands
        .iter()
        .find(|c| c.command.starts_with("ssakit explain ") && c.command.contains(name))
        .expect("the section shows `ssakit explain` on its program");
    let words: Vec<&str> = explain.command.split_whitespace().collect();
    let page = words
        .iter()
        .position(|&w| w == "-o")
        .map(|k| words[k + 1])
        .expect("the explain command writes its page with -o");
    for c in &commands {
        let printed = common::shown::run(&c.command, &dir);
        let actual: Vec<&str> = printed.lines().collect();
        assert!(
            matches(&c.output, &actual),
            "README.md: `{}` printed\n{printed}\nbut the README shows\n{}",
            c.command,
            c.output.join("\n")
        );
    }
    let html = std::fs::read_to_string(dir.join(page)).expect("the explain page is written");
    for phase in [
        "input",
        "phis",
        "renamed",
        "parallel-copies",
        "coalesced",
        "sequentialized",
    ] {
        assert!(
            html.contains(&format!("data-phase=\"{phase}\"")),
            "{page} has no phase {phase}"
        );
    }
    for line in &files[0].lines {
        if let Some(label) = line
            .strip_suffix(':')
            .filter(|l| !l.starts_with([' ', '#']))
        {
            assert!(
                html.contains(&format!("data-block=\"{label}\"")),
                "{page} does not show block {label}"
            );
        }
    }
}
