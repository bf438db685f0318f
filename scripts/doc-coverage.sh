#!/usr/bin/env bash
# Documentation coverage of the libraries `ssakit`, `ssakit-wasm` and `ssakit-x86`
# (issue 15, item 5): rustdoc's
# `--show-coverage` (unstable, hence RUSTC_BOOTSTRAP=1) counts, per file,
# the public items with a doc comment and those with an example (a code
# block, which `cargo test --doc` runs). It prints the table, then fails if
# a file has more public items without an example than the allow-list
# `scripts/doc-coverage-allow.txt` grants it (one file for both packages:
# paths are per crate) ("path count" per line; a file
# not listed is granted 0). The allow-list is a ratchet: it records today's
# gaps and may only shrink. `--update` rewrites it from the current counts.
#
# What rustdoc counts: "Documented" counts every public item, struct fields
# and enum variants included; "Examples" counts functions, methods, structs,
# enums, traits, and the like, but not fields, variants, modules, constants,
# statics, type aliases, or associated types/consts (rustdoc's
# `should_have_doc_example`).
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
        out.write("# A ratchet: lower the counts as examples land; never raise them.\n")
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
print(f"doc-coverage: {have} of {total} items that rustdoc expects an example for have one "
      f"({total - have} missing)")
sys.exit(1 if bad else 0)
PY
