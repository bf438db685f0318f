#!/usr/bin/env bash
# Side by side with binaryen's wasm-opt (issue 13, item 6): for each module
# of the node workloads (sql.js, brotli-wasm, esbuild-wasm; fetched by
# scripts/fetch-wasm-corpus.sh), in one run: the wall time and code-section
# size of `ssakit wasm opt --passes copy-prop,const-prop,dce` (release build)
# and of `wasm-opt -O1` (Debian's binaryen, installed with apt-get when
# missing) against the original, and whether the node workload of
# crates/ssakit-wasm/tests/node/ gives the original's output on each output.
# Prints a Markdown table, with the declared locals before and after
# (`--stats`). Not run by .ci/run (esbuild alone takes minutes).
# Usage: scripts/wasm-opt-compare.sh [DIR]   (outputs in DIR, default target/wasm-opt-compare)
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
dir=${1:-target/wasm-opt-compare}
mkdir -p "$dir"
if ! command -v wasm-opt >/dev/null; then
    apt-get update -qq && apt-get install -y -qq binaryen >/dev/null
fi
scripts/fetch-wasm-corpus.sh >&2
cargo build --release -q -p ssakit-cli
ssakit="$top/target/release/ssakit"
packages="$top/target/wasm-corpus/packages"
workloads="$top/crates/ssakit-wasm/tests/node"
# wasm-opt must be told the modules' features: with --all-features its
# output no longer loads in node 20.
features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals)

now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2 - $1:.2f}')"; }
size() { python3 "$top/scripts/wasm-code-size.py" "$1"; }
ratio() { python3 -c "print(f'{$2 / $1:.4f}')"; }

# Runs workload $1 (script) on package $2 with module $3 (path inside the
# package) replaced by $4; prints its standard output.
run_node() {
    local script="$1" pkg="$2" inside="$3" module="$4" tag="$5"
    local copy="$dir/pkg-$tag"
    rm -rf "$copy"
    cp -r "$packages/$pkg" "$copy"
    cp "$module" "$copy/$inside"
    mkdir -p "$copy/scratch"
    node "$workloads/$script" "$copy" "$copy/scratch" 2>"$dir/$tag.stderr" || echo "node failed: exit $?"
    rm -rf "$copy"
}

echo "| module | original code bytes | ssakit time | ssakit code bytes (ratio) | ssakit locals before -> after | ssakit node | wasm-opt -O1 time | wasm-opt code bytes (ratio) | wasm-opt node |"
echo "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |"
while read -r script pkg inside; do
    name=$(basename "$inside")
    stem="${name%.wasm}"
    orig="$packages/$pkg/$inside"
    t0=$(now)
    "$ssakit" wasm opt --stats --passes copy-prop,const-prop,dce "$orig" -o "$dir/$stem.ssakit.wasm" 2>"$dir/$stem.stats"
    t1=$(now)
    wasm-opt -O1 "${features[@]}" "$orig" -o "$dir/$stem.wasm-opt.wasm"
    t2=$(now)
    expected=$(run_node "$script" "$pkg" "$inside" "$orig" "$stem-original")
    verdict() {
        local got
        got=$(run_node "$script" "$pkg" "$inside" "$1" "$2")
        if [[ "$got" == "$expected" ]]; then echo pass; else echo FAIL; fi
    }
    s0=$(size "$orig")
    s1=$(size "$dir/$stem.ssakit.wasm")
    s2=$(size "$dir/$stem.wasm-opt.wasm")
    locals=$(sed -n 's/.*; locals \([0-9]*\) -> \([0-9]*\)$/\1 -> \2/p' "$dir/$stem.stats")
    echo "| $name | $s0 | $(secs "$t0" "$t1") s | $s1 ($(ratio "$s0" "$s1")) | $locals | $(verdict "$dir/$stem.ssakit.wasm" "$stem-ssakit") | $(secs "$t1" "$t2") s | $s2 ($(ratio "$s0" "$s2")) | $(verdict "$dir/$stem.wasm-opt.wasm" "$stem-wasm-opt") |"
done <<'LIST'
sqljs.js sql.js dist/sql-wasm.wasm
brotli.js brotli-wasm pkg.node/brotli_wasm_bg.wasm
esbuild.js esbuild-wasm esbuild.wasm
LIST
