#!/usr/bin/env bash
# Documentation coverage of the libraries `ssakit`, `ssakit-wasm` and `ssakit-x86`
# (issue 15, item 5; issue 31, item 5): rustdoc's `--show-coverage`
# (unstable, hence RUSTC_BOOTSTRAP=1) counts, per file, the public items
# with a doc comment and those with an example (a code block, which
# `cargo test --doc` runs). It prints the table, then fails
#
# * if any public item has no doc comment (none is allowed: every public
#   item says what it is), and
# * if a file has more public items without an example than the allow-list
#   `scripts/doc-coverage-allow.txt` grants it ("path count" per line, one
#   file for all packages: paths are per crate; a file not listed is
#   granted 0).
#
# Docs are required; examples are required where they teach. An example
# that only exists to be one (a value compared with itself, a constructor
# checked by its own getter) is filler: it goes, and the item is recorded
# in the allow-list instead. So the allow-list is a ratchet on items
# without an example: it records the items whose example would be filler
# (or could only reach the crate's internals), a count may go down as
# teaching examples land, and raising one is a decision made in review
# (`--update` rewrites the list from the current counts; the diff shows
# which file gained an item without an example).
#
# What rustdoc counts: "Documented" counts every public item, struct fields
# and enum variants included; "Examples" counts functions, methods, structs,
# enums, traits, and the like, but not fields, variants, modules, constants,
# statics, type aliases, or associated types/consts (rustdoc's
# `should_have_doc_example`). It does not see the items of a private module
# re-exported by a public one (most of `ir`); their doc comments are
# required by `#![deny(missing_docs)]` all the same.
set -euo pipefail
cd "$(dirname "$0")/.."
allow=scripts/doc-coverage-allow.txt
# One JSON object per package, merged (file paths differ between crates).
json='{}'
for pkg in ssakit ssakit-wasm ssakit-x86; do
    one=$(RUSTC_BOOTSTRAP=1 cargo rustdoc -q -p "$pkg" --all-features -- \
        -Z unstable-options --show-coverage --output-format json)
    json=$(A="$json" B="$one" python3 -c \
        'import json, os; a = json.loads(os.environ["A"]); a.update(json.loads(os.environ["B"])); print(json.dumps(a))')
    RUSTC_BOOTSTRAP=1 cargo rustdoc -q -p "$pkg" --all-features -- \
        -Z unstable-options --show-coverage
done
COV_JSON="$json" python3 - "$allow" "${1:-}" <<'PY'
import json, os, sys
allow_path, mode = sys.argv[1], sys.argv[2]
cov = json.loads(os.environ["COV_JSON"])
missing = {f: c["total_examples"] - c["with_examples"] for f, c in cov.items()}
undocumented = {f: c["total"] - c["with_docs"] for f, c in cov.items()}
if mode == "--update":
    with open(allow_path, "w") as out:
        out.write("# Public items without an example, per file (scripts/doc-coverage.sh).\n")
        out.write("# Items whose example would be filler; lower a count as a teaching\n")
        out.write("# example lands; raise one only as a reviewed decision (--update).\n")
        for f in sorted(missing):
            if missing[f] > 0:
                out.write(f"{f} {missing[f]}\n")
    print(f"doc-coverage: wrote {allow_path}")
    sys.exit(0)
allowed = {}
try:
    for line in open(allow_path):
        line = line.strip()
        if line and not line.startswith("#"):
            path, count = line.rsplit(" ", 1)
            allowed[path] = int(count)
except FileNotFoundError:
    pass
bad = False
for f in sorted(cov):
    if undocumented[f]:
        print(f"doc-coverage: {f}: {undocumented[f]} public item(s) without documentation")
        bad = True
    if missing[f] > allowed.get(f, 0):
        print(f"doc-coverage: {f}: {missing[f]} public item(s) without an example, "
              f"{allowed.get(f, 0)} allowed by {allow_path}")
        bad = True
    elif missing[f] < allowed.get(f, 0):
        print(f"doc-coverage: {f}: now {missing[f]} without an example; "
              f"lower its count in {allow_path} (scripts/doc-coverage.sh --update)")
total = sum(c["total_examples"] for c in cov.values())
have = sum(c["with_examples"] for c in cov.values())
documented = sum(c["with_docs"] for c in cov.values())
items = sum(c["total"] for c in cov.values())
print(f"doc-coverage: {documented} of {items} public items documented (all are required)")
print(f"doc-coverage: {have} of {total} items that rustdoc expects an example for have one "
      f"({total - have} without, {sum(allowed.values())} allowed by {allow_path})")
sys.exit(1 if bad else 0)
PY
