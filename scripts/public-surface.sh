#!/usr/bin/env bash
# The core library's public surface (issue 31, item 5; docs/library.md,
# "The public surface"): functions declared `pub` and `pub(crate)` in
# crates/ssakit/src, and the public functions and methods rustdoc reaches
# from the crate root (its JSON output, unstable, hence RUSTC_BOOTSTRAP=1;
# trait methods not counted). Prints three counts.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "pub fn: $(grep -rE '^\s*pub (const |unsafe )?fn ' --exclude-dir=tests crates/ssakit/src | wc -l)"
echo "pub(crate) fn: $(grep -rE '^\s*pub\(crate\) (const |unsafe )?fn ' --exclude-dir=tests crates/ssakit/src | wc -l)"
RUSTC_BOOTSTRAP=1 cargo rustdoc -q -p ssakit --all-features -- \
    -Z unstable-options --output-format json
python3 - <<'PY'
import json
import os
d = json.load(open(os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "doc", "ssakit.json")))
n = sum(1 for i in d["index"].values()
        if i["crate_id"] == 0 and "function" in i["inner"] and i["visibility"] == "public")
print(f"public functions reachable (rustdoc): {n}")
PY
