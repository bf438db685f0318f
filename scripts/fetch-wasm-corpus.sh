#!/usr/bin/env bash
# Fetches the WebAssembly corpus (pinned npm packages, with `npm pack`) into
# target/wasm-corpus/ (git-ignored), one .wasm file per package:
#   sql-wasm.wasm        sql.js@1.16.0        (SQLite by Emscripten)
#   brotli_wasm_bg.wasm  brotli-wasm@3.0.1    (Rust)
#   esbuild.wasm         esbuild-wasm@0.28.2  (Go)
# The unpacked package goes to target/wasm-corpus/packages/NAME/ too (the
# node workloads of crates/ssakit-wasm/tests/node.rs run it with a module
# swapped in). Idempotent: a package already there is not fetched again.
# Usage: scripts/fetch-wasm-corpus.sh [--only sql.js|brotli-wasm|esbuild-wasm]
set -euo pipefail
cd "$(dirname "$0")/.."
dest=target/wasm-corpus
only=""
if [[ "${1:-}" == "--only" ]]; then
    only="${2:?--only needs a package name}"
fi
mkdir -p "$dest"

# package@version, the module's path inside the package (a file name is
# searched for anywhere in it), the file written.
fetch() {
    local spec="$1" inside="$2" out="$3"
    local name="${spec%@*}"
    if [[ -n "$only" && "$only" != "$name" ]]; then
        return
    fi
    if [[ -s "$dest/$out" && -d "$dest/packages/$name" ]]; then
        echo "have $dest/$out and $dest/packages/$name"
        return
    fi
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "$spec" >/dev/null)
    tar -xzf "$tmp"/*.tgz -C "$tmp"
    local found
    found="$(find "$tmp/package" -path "*$inside" -name "$(basename "$inside")" | sort | head -n 1)"
    if [[ -z "$found" ]]; then
        echo "error: $inside not found in $spec" >&2
        rm -rf "$tmp"
        exit 1
    fi
    cp "$found" "$dest/$out.tmp"
    mv "$dest/$out.tmp" "$dest/$out"
    mkdir -p "$dest/packages"
    rm -rf "$dest/packages/$name"
    mv "$tmp/package" "$dest/packages/$name"
    rm -rf "$tmp"
    echo "fetched $dest/$out ($(wc -c <"$dest/$out") bytes) from $spec"
}

fetch sql.js@1.16.0 dist/sql-wasm.wasm sql-wasm.wasm
fetch brotli-wasm@3.0.1 brotli_wasm_bg.wasm brotli_wasm_bg.wasm
fetch esbuild-wasm@0.28.2 esbuild.wasm esbuild.wasm
