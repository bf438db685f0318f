//! Real modules under node (issue 13, item 5): each npm package of the
//! corpus (`scripts/fetch-wasm-corpus.sh` unpacks them into
//! `target/wasm-corpus/packages/`) is copied into a temporary directory,
//! its modules replaced by the ones [`rewrite::optimize`] makes of them,
//! and a workload of `tests/node/` runs on the original and on the copy
//! under node: the standard outputs must be byte-identical. sql.js and the
//! small modules of the corpus beyond the three (hash-wasm's 22,
//! web-tree-sitter with the JavaScript grammar, vscode-oniguruma,
//! yoga-layout, @chainsafe/as-sha256's SIMD module) run in every
//! destruction mode (and in CI); brotli-wasm, esbuild-wasm and @swc/wasm,
//! slower, are `#[ignore]`d (`cargo test -p ssakit-wasm --test node --
//! --ignored`).
//! A test skips with a message when node or the package is absent.
//! `SSAKIT_NODE_MODES=split,neither` (names of `support/modes.rs`) runs
//! only the modes listed.
//!
//! While `optimize` is the identity, a planted change to the module (a
//! byte of SQLite's version string, in its data) must be reported.

#[path = "support/absent.rs"]
mod absent;
#[path = "support/modes.rs"]
mod modes;

use absent::absent;
use modes::modes;
use ssakit_wasm::rewrite::{self, OptOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One workload: the package, the modules that are replaced, what of the
/// unpacked packages the workload needs, and its script in `tests/node/`.
/// Paths are relative to `target/wasm-corpus/packages/` (a workload may
/// read another package beside its own: a grammar).
struct Workload {
    package: &'static str,
    modules: &'static [&'static str],
    copy: &'static [&'static str],
    script: &'static str,
    /// Modes not run on this workload, with the reason.
    skip: &'static [(&'static str, &'static str)],
}

const SQLJS: Workload = Workload {
    package: "sql.js",
    modules: &["sql.js/dist/sql-wasm.wasm"],
    copy: &[
        "sql.js/package.json",
        "sql.js/dist/sql-wasm.js",
        "sql.js/dist/sql-wasm.wasm",
    ],
    script: "sqljs.js",
    skip: &[],
};

const BROTLI: Workload = Workload {
    package: "brotli-wasm",
    modules: &["brotli-wasm/pkg.node/brotli_wasm_bg.wasm"],
    copy: &[
        "brotli-wasm/package.json",
        "brotli-wasm/index.node.js",
        "brotli-wasm/pkg.node",
    ],
    script: "brotli.js",
    skip: &[],
};

const ESBUILD: Workload = Workload {
    package: "esbuild-wasm",
    modules: &["esbuild-wasm/esbuild.wasm"],
    copy: &["esbuild-wasm"],
    script: "esbuild.js",
    // Minimal SSA (34.6 million phis on esbuild) destructed with neither
    // splitting nor coalescing, no pass having removed its dead phis: five
    // functions would take 24 to 111 million copies each and are kept as
    // they were (`OptOptions::max_copies`); rewritten, wasm-function 4488
    // (7,238 locals instead of 19: without splitting, the copies for every
    // target of its `br_table` are live at once) overflowed node's stack
    // in its recursion (2026-12-02), and function 3855 did not fit in 20 GB.
    skip: &[],
};

const SWC: Workload = Workload {
    package: "@swc/wasm",
    modules: &["@swc/wasm/wasm_bg.wasm"],
    copy: &["@swc/wasm"],
    script: "swc.js",
    skip: &[],
};

/// All 22 modules, each rewritten in every mode.
const HASH_WASM: Workload = Workload {
    package: "hash-wasm",
    modules: &[
        "hash-wasm/ssakit-wasm/adler32.wasm",
        "hash-wasm/ssakit-wasm/argon2.wasm",
        "hash-wasm/ssakit-wasm/bcrypt.wasm",
        "hash-wasm/ssakit-wasm/blake2b.wasm",
        "hash-wasm/ssakit-wasm/blake2s.wasm",
        "hash-wasm/ssakit-wasm/blake3.wasm",
        "hash-wasm/ssakit-wasm/crc32.wasm",
        "hash-wasm/ssakit-wasm/crc64.wasm",
        "hash-wasm/ssakit-wasm/md4.wasm",
        "hash-wasm/ssakit-wasm/md5.wasm",
        "hash-wasm/ssakit-wasm/ripemd160.wasm",
        "hash-wasm/ssakit-wasm/scrypt.wasm",
        "hash-wasm/ssakit-wasm/sha1.wasm",
        "hash-wasm/ssakit-wasm/sha256.wasm",
        "hash-wasm/ssakit-wasm/sha3.wasm",
        "hash-wasm/ssakit-wasm/sha512.wasm",
        "hash-wasm/ssakit-wasm/sm3.wasm",
        "hash-wasm/ssakit-wasm/whirlpool.wasm",
        "hash-wasm/ssakit-wasm/xxhash128.wasm",
        "hash-wasm/ssakit-wasm/xxhash3.wasm",
        "hash-wasm/ssakit-wasm/xxhash32.wasm",
        "hash-wasm/ssakit-wasm/xxhash64.wasm",
    ],
    copy: &[
        "hash-wasm/package.json",
        "hash-wasm/dist",
        "hash-wasm/ssakit-wasm",
    ],
    script: "hash-wasm.js",
    skip: &[],
};

/// The runtime and the grammar it loads (an emscripten side module).
const TREE_SITTER: Workload = Workload {
    package: "web-tree-sitter",
    modules: &[
        "web-tree-sitter/web-tree-sitter.wasm",
        "tree-sitter-javascript/tree-sitter-javascript.wasm",
    ],
    copy: &[
        "web-tree-sitter/package.json",
        "web-tree-sitter/web-tree-sitter.js",
        "web-tree-sitter/web-tree-sitter.wasm",
        "tree-sitter-javascript/tree-sitter-javascript.wasm",
    ],
    script: "tree-sitter.js",
    skip: &[],
};

const ONIGURUMA: Workload = Workload {
    package: "vscode-oniguruma",
    modules: &["vscode-oniguruma/release/onig.wasm"],
    copy: &["vscode-oniguruma/package.json", "vscode-oniguruma/release"],
    script: "oniguruma.js",
    skip: &[],
};

const YOGA: Workload = Workload {
    package: "yoga-layout",
    modules: &["yoga-layout/ssakit-wasm/yoga.wasm"],
    copy: &["yoga-layout"],
    script: "yoga.js",
    skip: &[],
};

/// The SIMD module (the one the package loads where SIMD validates).
const AS_SHA256: Workload = Workload {
    package: "@chainsafe/as-sha256",
    modules: &["@chainsafe/as-sha256/build/optimized.simd.wasm"],
    copy: &["@chainsafe/as-sha256"],
    script: "as-sha256.js",
    skip: &[],
};

/// `target/wasm-corpus/packages/`, or `None` (with a message) when node
/// or one of the workload's modules is absent.
fn packages(w: &Workload) -> Option<PathBuf> {
    if Command::new("node").arg("--version").output().is_err() {
        absent("node is not installed");
        return None;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/wasm-corpus/packages");
    for m in w.modules {
        if !root.join(m).is_file() {
            absent(&format!(
                "{} is absent (run scripts/fetch-wasm-corpus.sh)",
                root.join(m).display()
            ));
            return None;
        }
    }
    Some(root)
}

/// Copies `from` to `to`, directories included (iteratively).
fn copy_tree(from: &Path, to: &Path) {
    let mut stack = vec![(from.to_path_buf(), to.to_path_buf())];
    while let Some((src, dst)) = stack.pop() {
        if src.is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
            for e in std::fs::read_dir(&src).unwrap() {
                let e = e.unwrap();
                stack.push((e.path(), dst.join(e.file_name())));
            }
        } else {
            std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Runs the workload on the package in `root` (a copy of, or,
/// `target/wasm-corpus/packages/`): its standard output; panics (with its
/// standard error) when node fails.
fn run(w: &Workload, root: &Path) -> Vec<u8> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/node")
        .join(w.script);
    let dir = root.join(w.package);
    let scratch = root.join("scratch");
    std::fs::create_dir_all(&scratch).unwrap();
    let out = Command::new("node")
        .arg(&script)
        .arg(&dir)
        .arg(&scratch)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{} on {}: {}\n{}",
        w.script,
        dir.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A copy of what the workload needs of `root` with its modules replaced
/// by `modules` (in the order of `w.modules`), in a fresh temporary
/// directory named after `tag`.
fn swapped(w: &Workload, root: &Path, tag: &str, modules: &[Vec<u8>]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ssakit-node-{}-{}-{tag}",
        w.package.replace('/', "+"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for entry in w.copy {
        copy_tree(&root.join(entry), &dir.join(entry));
    }
    for (path, module) in w.modules.iter().zip(modules) {
        std::fs::write(dir.join(path), module).unwrap();
    }
    dir
}

/// The workload on the original package and on a copy with each `mode`'s
/// module: the outputs must be the same.
fn same_output(w: &Workload, modes: &[(&str, OptOptions)]) {
    let Some(root) = packages(w) else { return };
    let expected = run(w, &root);
    assert!(!expected.is_empty());
    let originals: Vec<Vec<u8>> = w
        .modules
        .iter()
        .map(|m| std::fs::read(root.join(m)).unwrap())
        .collect();
    // `SSAKIT_NODE_MODES=coalesce,neither` runs only those modes (the
    // esbuild workload takes minutes per mode).
    let only = std::env::var("SSAKIT_NODE_MODES").ok();
    if let Some(only) = &only {
        for m in only.split(',') {
            assert!(
                modes.iter().any(|(name, _)| *name == m),
                "SSAKIT_NODE_MODES: no mode {m:?}"
            );
        }
    }
    for (name, options) in modes {
        if let Some((_, why)) = w.skip.iter().find(|(m, _)| m == name) {
            eprintln!("{} {name}: skipped: {why}", w.package);
            continue;
        }
        if let Some(only) = &only {
            if !only.split(',').any(|m| m == *name) {
                eprintln!("{} {name}: not selected by SSAKIT_NODE_MODES", w.package);
                continue;
            }
        }
        let mut rewritten = Vec::new();
        for (path, original) in w.modules.iter().zip(&originals) {
            let out = rewrite::optimize(original, options)
                .unwrap_or_else(|e| panic!("{path} {name}: {e}"));
            ssakit_wasm::module::parse(&out.bytes)
                .unwrap_or_else(|e| panic!("{path} {name}: the output does not validate: {e}"));
            for k in &out.stats.kept {
                eprintln!("{path} {name}: {k}; kept as it was");
            }
            rewritten.push(out.bytes);
        }
        let dir = swapped(w, &root, name, &rewritten);
        let got = run(w, &dir);
        assert!(
            got == expected,
            "{} {name}: the output differs from the original's:\n--- original\n{}\n--- rewritten\n{}",
            w.package,
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(&got)
        );
        std::fs::remove_dir_all(&dir).unwrap();
        eprintln!(
            "{} {name}: {} bytes of output, identical",
            w.package,
            got.len()
        );
    }
}

#[test]
fn sql_js_gives_the_same_output_in_every_mode() {
    same_output(&SQLJS, &modes());
}

#[test]
fn a_planted_change_to_sql_js_is_reported() {
    let Some(root) = packages(&SQLJS) else { return };
    let expected = run(&SQLJS, &root);
    let mut module = std::fs::read(root.join(SQLJS.modules[0])).unwrap();
    let version = b"3.54.1";
    let at = module
        .windows(version.len())
        .position(|w| w == version)
        .expect("SQLite's version string is in the data");
    module[at + 5] = b'7';
    let dir = swapped(&SQLJS, &root, "planted", &[module]);
    let got = run(&SQLJS, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_ne!(got, expected, "the planted change went unseen");
    let text = String::from_utf8_lossy(&got);
    assert!(text.contains("\"3.54.7\""), "{text}");
}

#[test]
#[ignore = "slow: brotli over a few MB in every mode"]
fn brotli_wasm_gives_the_same_output() {
    same_output(&BROTLI, &modes());
}

#[test]
#[ignore = "slow: a 14 MB module in every mode"]
fn esbuild_wasm_gives_the_same_output_in_every_mode() {
    same_output(&ESBUILD, &modes());
}

#[test]
#[ignore = "slow: an 18 MB module in every mode"]
fn swc_wasm_gives_the_same_output_in_every_mode() {
    same_output(&SWC, &modes());
}

#[test]
fn hash_wasm_gives_the_same_output_in_every_mode() {
    same_output(&HASH_WASM, &modes());
}

#[test]
fn web_tree_sitter_with_a_grammar_gives_the_same_output_in_every_mode() {
    same_output(&TREE_SITTER, &modes());
}

#[test]
fn vscode_oniguruma_gives_the_same_output_in_every_mode() {
    same_output(&ONIGURUMA, &modes());
}

#[test]
fn yoga_layout_gives_the_same_output_in_every_mode() {
    same_output(&YOGA, &modes());
}

#[test]
fn as_sha256_with_simd_gives_the_same_output_in_every_mode() {
    same_output(&AS_SHA256, &modes());
}
