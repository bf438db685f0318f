#!/usr/bin/env bash
# Fetches the WebAssembly corpus (pinned npm packages, with `npm pack`) into
# target/wasm-corpus/ (git-ignored), one .wasm file per package:
#   sql-wasm.wasm        sql.js@1.16.0        (SQLite by Emscripten)
#   brotli_wasm_bg.wasm  brotli-wasm@3.0.1    (Rust)
#   esbuild.wasm         esbuild-wasm@0.28.2  (Go)
# and the corpus beyond the three (issue 47):
#   swc_wasm_bg.wasm     @swc/wasm@1.16.21    (Rust, 18 MB)
#   hash-wasm-bcrypt.wasm, hash-wasm-sha512.wasm, hash-wasm-blake3.wasm
#                        hash-wasm@4.13.0     (C; its three largest of 22
#                        modules; all 22 are in packages/hash-wasm/ssakit-wasm/)
#   web-tree-sitter.wasm web-tree-sitter@0.27.2 (C, emscripten)
#   tree-sitter-javascript.wasm tree-sitter-javascript@0.25.0 (C, a grammar:
#                        an emscripten side module web-tree-sitter loads)
#   onig.wasm            vscode-oniguruma@2.0.1 (C, emscripten)
#   yoga.wasm            yoga-layout@3.2.1    (C++, emscripten)
#   as-sha256-simd.wasm  @chainsafe/as-sha256@1.2.5 (AssemblyScript, SIMD)
# hash-wasm, yoga-layout and as-sha256 carry their modules inside their
# JavaScript: scripts/wasm-corpus-unembed.py takes them out into files
# and makes the JavaScript read those (same bytes).
# The unpacked package goes to target/wasm-corpus/packages/NAME/ too (the
# node workloads of crates/ssakit-wasm/tests/node.rs run it with a module
# swapped in). Idempotent: a package already there is not fetched again.
# Usage: scripts/fetch-wasm-corpus.sh [--only PACKAGE[,PACKAGE...]]
#   (PACKAGE without its version: sql.js, @swc/wasm, ...)
set -euo pipefail
cd "$(dirname "$0")/.."
dest=target/wasm-corpus
only=""
if [[ "${1:-}" == "--only" ]]; then
    only="${2:?--only needs a package name}"
fi
mkdir -p "$dest"

# package@version, the module's path inside the package (a file name is
# searched for anywhere in it; the top directory is `package/`), the file written; then, optionally, the
# kind of scripts/wasm-corpus-unembed.py to run on the package first (the
# module's path is then one it writes).
fetch() {
    local spec="$1" inside="$2" out="$3" unembed="${4:-}"
    local name="${spec%@*}"
    if [[ -n "$only" && ",$only," != *",$name,"* ]]; then
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
    if [[ -n "$unembed" ]]; then
        python3 scripts/wasm-corpus-unembed.py "$unembed" "$tmp/package" >/dev/null
    fi
    local found
    found="$(find "$tmp/package" -path "*$inside" -name "$(basename "$inside")" | sort | head -n 1)"
    if [[ -z "$found" ]]; then
        echo "error: $inside not found in $spec" >&2
        rm -rf "$tmp"
        exit 1
    fi
    cp "$found" "$dest/$out.tmp"
    mv "$dest/$out.tmp" "$dest/$out"
    mkdir -p "$(dirname "$dest/packages/$name")"
    rm -rf "$dest/packages/$name"
    mv "$tmp/package" "$dest/packages/$name"
    rm -rf "$tmp"
    echo "fetched $dest/$out ($(wc -c <"$dest/$out") bytes) from $spec"
}

fetch sql.js@1.16.0 dist/sql-wasm.wasm sql-wasm.wasm
fetch brotli-wasm@3.0.1 brotli_wasm_bg.wasm brotli_wasm_bg.wasm
fetch esbuild-wasm@0.28.2 esbuild.wasm esbuild.wasm
fetch @swc/wasm@1.16.21 wasm_bg.wasm swc_wasm_bg.wasm
fetch hash-wasm@4.13.0 ssakit-wasm/bcrypt.wasm hash-wasm-bcrypt.wasm hash-wasm
# The other two modules of the side-by-side table, from the package
# already unpacked.
for m in sha512 blake3; do
    if [[ -z "$only" || ",$only," == *,hash-wasm,* ]] && [[ ! -s "$dest/hash-wasm-$m.wasm" ]]; then
        cp "$dest/packages/hash-wasm/ssakit-wasm/$m.wasm" "$dest/hash-wasm-$m.wasm"
    fi
done
fetch web-tree-sitter@0.27.2 package/web-tree-sitter.wasm web-tree-sitter.wasm
fetch tree-sitter-javascript@0.25.0 tree-sitter-javascript.wasm tree-sitter-javascript.wasm
fetch vscode-oniguruma@2.0.1 release/onig.wasm onig.wasm
fetch yoga-layout@3.2.1 ssakit-wasm/yoga.wasm yoga.wasm yoga-layout
fetch @chainsafe/as-sha256@1.2.5 build/optimized.simd.wasm as-sha256-simd.wasm as-sha256
