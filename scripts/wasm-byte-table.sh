#!/usr/bin/env bash
# Where the code bytes go, per class of instruction (issue 30, item 3):
# for each module of the corpus (scripts/fetch-wasm-corpus.sh), the
# original, `ssakit wasm opt` without passes, `ssakit wasm opt --passes
# copy-prop,const-prop,dce`, and binaryen's `wasm-opt -O1` (installed with
# apt-get when missing), side by side: counts and bytes per class
# (crates/ssakit-wasm/examples/code_profile.rs), declared locals, and the
# median wall time of 3 runs of each tool, alternated. Prints Markdown.
# Usage: scripts/wasm-byte-table.sh [MODULE.wasm ...]
#   (default: the three corpus modules; outputs in target/wasm-byte-table/)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=target/wasm-byte-table
mkdir -p "$dir"
if ! command -v wasm-opt >/dev/null; then
    apt-get update -qq && apt-get install -y -qq binaryen >/dev/null
fi
if [[ $# -eq 0 ]]; then
    scripts/fetch-wasm-corpus.sh >&2
    set -- target/wasm-corpus/sql-wasm.wasm target/wasm-corpus/brotli_wasm_bg.wasm target/wasm-corpus/esbuild.wasm
fi
cargo build --release -q -p ssakit-cli
cargo build --release -q -p ssakit-wasm --example code_profile
ssakit=target/release/ssakit
profile=target/release/examples/code_profile
# The features the corpus uses (with --all-features wasm-opt's output no
# longer loads in node 20).
features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals)
now() { date +%s.%N; }
median() { python3 -c "import sys; v=sorted(map(float, sys.argv[1:])); print(f'{v[len(v)//2]:.2f}')" "$@"; }
for m in "$@"; do
    name=$(basename "$m" .wasm)
    o0="$dir/$name.ssakit-O0.wasm"
    o1="$dir/$name.ssakit-passes.wasm"
    bo="$dir/$name.wasm-opt-O1.wasm"
    t0=() t1=() tb=()
    for _ in 1 2 3; do
        s=$(now); "$ssakit" wasm opt "$m" -o "$o0"; e=$(now); t0+=("$(python3 -c "print($e - $s)")")
        s=$(now); "$ssakit" wasm opt --passes copy-prop,const-prop,dce "$m" -o "$o1"; e=$(now); t1+=("$(python3 -c "print($e - $s)")")
        s=$(now); wasm-opt -O1 "${features[@]}" "$m" -o "$bo"; e=$(now); tb+=("$(python3 -c "print($e - $s)")")
    done
    echo "### $name"
    echo
    echo "Median wall time of 3: ssakit without passes $(median "${t0[@]}") s, with passes $(median "${t1[@]}") s, wasm-opt -O1 $(median "${tb[@]}") s."
    echo
    "$profile" "$m" "$o0" "$o1" "$bo" | sed -e '/^most grown/,$d' \
        -e "s#$m count#original count#; s#$o0 count#ssakit count#; s#$o1 count#ssakit + passes count#; s#$bo count#wasm-opt -O1 count#"
    echo
done
