//! `ssakit explain` in a real browser: the page for `examples/seed.ssa` is
//! loaded in headless Chromium (Debian's `chromium`), a script added to a
//! copy of it clicks as a reader would and writes what the DOM then holds
//! into the page, and `--dump-dom` gives it back. Checked: every phase
//! column is there, clicking `x` highlights x1..x6 (and nothing of another
//! variable), the toggles make every SVG visible, clicking a block in a
//! picture highlights it in text and pictures. A screenshot of the page
//! after the clicks is kept in `target/tmp/explain/seed.png`.
//!
//! Skipped, with a message, where no `chromium` is on the PATH
//! (`apt-get install chromium`), unless `SSAKIT_REQUIRE_CHROMIUM` is set:
//! then its absence fails the test. `.ci/run` installs Chromium and sets
//! it wherever Chromium is there, so that CI cannot pass without running
//! this test.

mod common;

use common::ok;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What the reader does, and what the DOM says afterwards, as JSON in
/// `<pre id="test-results">`.
const CLICKS: &str = r#"<script>
(function () {
  var r = {};
  function all(sel) { return Array.from(document.querySelectorAll(sel)); }
  // The content of a closed <details> keeps a box in Chromium (it is
  // hidden by content-visibility), so the box alone says nothing.
  function visible(e) {
    var b = e.getBoundingClientRect();
    return b.width > 0 && b.height > 0 && e.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true });
  }
  r.columns = all('section.phase').map(function (s) { return s.dataset.phase; });
  r.svgs_before = all('details svg').filter(visible).length;
  document.getElementById('show-cfg').click();
  document.getElementById('show-dom').click();
  document.getElementById('show-dj').click();
  r.svgs = all('svg').length;
  r.svgs_visible = all('svg').filter(visible).length;
  var d = document.querySelector('section[data-phase="renamed"] details.cfg g.node[data-block="D"] text');
  d.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  r.block_text = all('span.b.hl').map(function (e) { return e.textContent; });
  r.block_nodes = all('g.node.hl').length;
  r.block_edges = all('path.edge.hl').length;
  document.getElementById('show-dom').click();
  document.getElementById('show-dj').click();
  document.querySelector('section[data-phase="input"] span.v[data-var="x"]').click();
  var hl = all('span.v.hl');
  r.var_text = Array.from(new Set(hl.map(function (e) { return e.textContent; }))).sort();
  r.var_others = hl.filter(function (e) { return e.dataset.var !== 'x'; }).length;
  r.var_colour = hl.length ? getComputedStyle(hl[0]).backgroundColor : '';
  r.plain_colour = getComputedStyle(document.querySelector('span.v[data-var="y"]')).backgroundColor;
  r.selection = document.getElementById('selection').textContent;
  var pre = document.createElement('pre');
  pre.id = 'test-results';
  pre.style.display = 'none';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
})();
</script>
"#;

/// `chromium` on the PATH, if any.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// Runs headless Chromium on `page` with `extra` arguments, its own
/// profile directory and no network services; its standard output (through
/// a file: a pipe would fill and stall it), or a panic after two minutes.
fn headless(chromium: &Path, profile: &Path, extra: &[&str], page: &Path) -> String {
    let stdout = profile.with_extension("out");
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium did not finish in two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    String::from_utf8_lossy(&std::fs::read(&stdout).unwrap()).into_owned()
}

#[test]
fn clicking_x_in_chromium_highlights_x1_to_x6_and_the_pictures_show() {
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var_os("SSAKIT_REQUIRE_CHROMIUM").is_none(),
            "`chromium` is not on the PATH and SSAKIT_REQUIRE_CHROMIUM is set"
        );
        eprintln!("skipped: `chromium` is not on the PATH (apt-get install chromium)");
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explain");
    let profile = dir.join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let page = ok(&["explain", "--trace", "x", "seed.ssa"], None);
    let at = page.rfind("</body>").expect("the page ends its body");
    let tested = format!("{}{CLICKS}{}", &page[..at], &page[at..]);
    let path = dir.join("seed.html");
    std::fs::write(&path, &tested).unwrap();
    let dom = headless(&chromium, &profile, &["--dump-dom"], &path);
    let start = dom
        .find("<pre id=\"test-results\" style=\"display: none;\">")
        .unwrap_or_else(|| panic!("the script ran and wrote its results:\n{dom}"));
    let json = &dom[dom[start..].find('>').unwrap() + start + 1..];
    let json = &json[..json.find("</pre>").unwrap()];
    let r: serde_json::Value = serde_json::from_str(&json.replace("&quot;", "\""))
        .unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(r["columns"], serde_json::json!(common::EXPLAIN_SEED_PHASES));
    // Behind their toggles at first, all visible after.
    assert_eq!(r["svgs_before"], 0, "{r}");
    assert_eq!(r["svgs"], 8 + 3 * 2, "{r}");
    assert_eq!(r["svgs_visible"], r["svgs"], "{r}");
    // Block D: its label in the text of every column, its box in every
    // picture that has it (CFGs, dominator trees, DJ-graphs), its edges.
    let d = r["block_text"].as_array().unwrap();
    assert!(d.len() >= 8 && d.iter().all(|b| b == "D"), "{r}");
    assert_eq!(r["block_nodes"], 8 + 3 * 2, "{r}");
    assert!(r["block_edges"].as_u64().unwrap() > 8, "{r}");
    // Variable x: every version, in every column, and only those.
    let want: Vec<String> = std::iter::once("x".to_string())
        .chain((1..=6).map(|k| format!("x{k}")))
        .collect();
    let got: Vec<String> = r["var_text"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    for w in &want {
        assert!(got.contains(w), "{w} not highlighted: {r}");
    }
    assert!(got.iter().all(|g| g.starts_with('x')), "{r}");
    assert_eq!(r["var_others"], 0, "{r}");
    assert_eq!(r["var_colour"], "rgb(249, 231, 159)", "{r}");
    assert_ne!(r["plain_colour"], r["var_colour"], "{r}");
    assert!(
        r["selection"].as_str().unwrap().starts_with("variable x: "),
        "{r}"
    );
    // The screenshot, in the state the clicks left: CFGs open, x chosen.
    let png = dir.join("seed.png");
    let _ = std::fs::remove_file(&png);
    headless(
        &chromium,
        &profile,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1800,1150",
        ],
        &path,
    );
    let bytes = std::fs::read(&png).expect("chromium wrote the screenshot");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 10_000);
    eprintln!("screenshot: {}", png.display());
}
