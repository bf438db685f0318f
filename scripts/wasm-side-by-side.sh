#!/usr/bin/env bash
# ssakit's `wasm opt` beside binaryen's `wasm-opt`, in one run (issue 30,
# item 3): for each module (default: every module of
# scripts/fetch-wasm-corpus.sh, the three and the corpus beyond them),
# `ssakit wasm opt -O0` (the round trip only), `ssakit wasm opt` (the
# default, -O1), `ssakit wasm opt --passes copy-prop,const-prop,dce`,
# `wasm-opt -O1` and `wasm-opt` without -O (parse and write only;
# Debian's binaryen, installed with apt-get when missing): the code
# section's size against the original's (scripts/wasm-code-size.py),
# declared locals (parameters not counted),
# the median wall time and peak memory of 3 runs (ROUNDS=N in the
# environment: N runs), the tools alternated.
# Prints one Markdown table; with --kinds, then the per-instruction-kind
# table of every module (crates/ssakit-wasm/examples/code_profile.rs:
# counts and bytes per class, original, ssakit -O0, ssakit -O1, wasm-opt -O1).
# Usage: scripts/wasm-side-by-side.sh [--kinds] [MODULE.wasm ...]
#   (outputs in target/wasm-side-by-side/)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=target/wasm-side-by-side
mkdir -p "$dir"
kinds=0
if [[ "${1:-}" == "--kinds" ]]; then
    kinds=1
    shift
fi
if ! command -v wasm-opt >/dev/null; then
    apt-get update -qq && apt-get install -y -qq binaryen >/dev/null
fi
if [[ $# -eq 0 ]]; then
    scripts/fetch-wasm-corpus.sh >&2
    set -- target/wasm-corpus/{sql-wasm,brotli_wasm_bg,esbuild,swc_wasm_bg,hash-wasm-bcrypt,hash-wasm-sha512,hash-wasm-blake3,web-tree-sitter,tree-sitter-javascript,onig,yoga,as-sha256-simd}.wasm
fi
cargo build --release -q -p ssakit-cli
cargo build --release -q -p ssakit-wasm --example code_profile
ssakit=target/release/ssakit
profile=target/release/examples/code_profile
# The features the corpus uses (with --all-features wasm-opt's output no
# longer loads in node 20; SIMD for @chainsafe/as-sha256).
features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-simd)
tools=("ssakit -O0" "ssakit (default, -O1)" "ssakit --passes copy-prop,const-prop,dce" "wasm-opt -O1" "wasm-opt (parse and write)")
# The command of tool number $1 on $2, writing $3, into the array cmd.
command_of() {
    case $1 in
        0) cmd=("$ssakit" wasm opt -O0 "$2" -o "$3") ;;
        1) cmd=("$ssakit" wasm opt "$2" -o "$3") ;;
        2) cmd=("$ssakit" wasm opt --passes copy-prop,const-prop,dce "$2" -o "$3") ;;
        3) cmd=(wasm-opt -O1 "${features[@]}" "$2" -o "$3") ;;
        4) cmd=(wasm-opt -q "${features[@]}" "$2" -o "$3") ;;
    esac
}
median() { python3 -c "import sys; v=sorted(map(float, sys.argv[1:])); print(f'{v[len(v)//2]:.2f}')" "$@"; }
# Declared locals of a module: the profile's declarations row.
locals() { "$profile" "$1" | sed -n 's/^| locals declarations (runs; locals) | [0-9]* ; \([0-9]*\) .*/\1/p'; }
echo "| module | tool | code section | ratio | locals | wall (median of ${ROUNDS:-3}) | peak memory |"
echo "|---|---|---:|---:|---:|---:|---:|"
for m in "$@"; do
    name=$(basename "$m" .wasm)
    before=$(python3 scripts/wasm-code-size.py "$m")
    declare -A wall=() mem=()
    for ((round = 1; round <= ${ROUNDS:-3}; round++)); do
        for t in 0 1 2 3 4; do
            command_of "$t" "$m" "$dir/$name.$t.wasm"
            /usr/bin/time -f "%e %M" -o "$dir/time" "${cmd[@]}"
            read -r w k <"$dir/time"
            wall[$t]="${wall[$t]:-} $w"
            mem[$t]="${mem[$t]:-} $k"
        done
    done
    echo "| $name | original | $before | 1 | $(locals "$m") | | |"
    for t in 0 1 2 3 4; do
        out="$dir/$name.$t.wasm"
        after=$(python3 scripts/wasm-code-size.py "$out")
        ratio=$(python3 -c "print(f'{$after / $before:.4f}')")
        # shellcheck disable=SC2086
        echo "| $name | ${tools[$t]} | $after | $ratio | $(locals "$out") | $(median ${wall[$t]}) s | $(($(median ${mem[$t]} | cut -d. -f1) / 1024)) MB |"
    done
done
if [[ $kinds -eq 1 ]]; then
    for m in "$@"; do
        name=$(basename "$m" .wasm)
        echo
        echo "### $name, per instruction kind"
        echo
        "$profile" "$m" "$dir/$name.0.wasm" "$dir/$name.1.wasm" "$dir/$name.3.wasm" | sed -e '/^most grown/,$d' \
            -e "s#$m count#original count#; s#$dir/$name.0.wasm count#ssakit -O0 count#" \
            -e "s#$dir/$name.1.wasm count#ssakit -O1 count#; s#$dir/$name.3.wasm count#wasm-opt -O1 count#"
    done
fi
