#!/usr/bin/env bash
# Issue 44's six rows (blocks x variables) from both program generators
# (`ssakit gen`, `--generator first|second`), and real functions as
# lifted (`ssakit wasm lift` of sql-wasm and esbuild from
# target/wasm-corpus, `ssakit x86 lift --semantics` of libc and
# libpython 3.11), timed through the CLI as a user runs it, side by side
# with LLVM 14's mem2reg in one run:
#   - construct: `ssakit construct --flavor pruned --no-verify --time-passes`,
#     its `total`, best of REPS;
#   - destruct: `ssakit destruct --time-passes` on that output, its `total`
#     less its input `verification`, best of REPS;
#   - LLVM: `opt -passes=mem2reg -time-passes` on `ssakit emit-llvm`'s
#     module of the same program (`emit-llvm --opaque` for the real
#     functions, whose types and operations LLVM's `i64` world cannot
#     express: same slots, loads and stores), PromotePass's wall seconds,
#     once;
#   - peak: `/usr/bin/time`'s maximum resident set of the construct run;
#   - phis: pruned phis in the output.
# A real row is a whole module (every function, in one command); a
# missing corpus file skips its row with a note on standard error
# (scripts/fetch-wasm-corpus.sh, scripts/install-x86-corpus.sh).
# Usage: scripts/cli-vs-llvm.sh [SSAKIT] [REPS]  (SSAKIT defaults to
# target/release/ssakit; build it with `cargo build --release -p ssakit-cli`).
# Prints a Markdown table. LLVM_TIMEOUT (seconds, default 120) bounds opt;
# REAL=0 leaves out the real functions, GENERATED=0 the generated programs.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/ssakit}"
reps="${2:-3}"
limit="${LLVM_TIMEOUT:-120}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
best() { sort -g | head -1; }
# row GENERATOR SHAPE SIZE PROGRAM [EMIT-LLVM-OPTION]: one line of the table.
row() {
    local gen=$1 shape=$2 size=$3 p=$4 c d peak phis llvm ratio dr
    c=$(for _ in $(seq "$reps"); do
        "$bin" construct --flavor pruned --no-verify --time-passes "$p" -o "$tmp/s.ssa" 2>&1 >/dev/null |
            awk '$1 == "total:" { print $2 }'
    done | best)
    peak=$(/usr/bin/time -f "%M" "$bin" construct --flavor pruned --no-verify "$p" -o "$tmp/s.ssa" 2>&1 >/dev/null | tail -1)
    phis=$(grep -c ' = phi(' "$tmp/s.ssa" || true)
    d=$(for _ in $(seq "$reps"); do
        "$bin" destruct --time-passes "$tmp/s.ssa" -o "$tmp/d.ssa" 2>&1 >/dev/null |
            awk '$1 == "total:" { t = $2 } /^verification:/ { v = $2 } END { print t - v }'
    done | best)
    "$bin" emit-llvm ${5:-} "$p" -o "$tmp/p.ll"
    llvm=$(timeout "$limit" opt -passes=mem2reg -time-passes "$tmp/p.ll" -o /dev/null 2>&1 |
        awk '/PromotePass/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) last = $i; print last; exit }' || true)
    [ -n "$llvm" ] || llvm="> $limit"
    ratio=$(awk -v l="$llvm" -v c="$c" 'BEGIN { if (l ~ />/) print "> " substr(l, 3) / c; else printf "%.1f", l / c }')
    dr=$(awk -v d="$d" -v c="$c" 'BEGIN { printf "%.2f", d / c }')
    printf "| %s | %s | %s | %s | %.3f | %s | %s | %.3f | %s | %.0f |\n" \
        "$gen" "$shape" "$size" "$phis" "$c" "$llvm" "$ratio" "$d" "$dr" "$((peak / 1024))"
}
echo "| generator | shape | blocks × vars | pruned phis | construct s | LLVM PromotePass s | LLVM ÷ construct | destruct s | destruct ÷ construct | peak MB |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
if [ "${GENERATED:-1}" != 0 ]; then
    for gen in first second; do
        for r in "random 100000 16" "ladder 100000 16" "irreducible 100000 16" "chain 100000 16" "random 10000 256" "ladder 10000 256"; do
            set -- $r
            "$bin" gen --generator "$gen" --shape "$1" --blocks "$2" --vars "$3" --seed 1 -o "$tmp/p.ssa"
            row "$gen" "$1" "$2 × $3" "$tmp/p.ssa"
        done
    done
fi
[ "${REAL:-1}" != 0 ] || exit 0
lib=/usr/lib/x86_64-linux-gnu
for r in "wasm sql-wasm target/wasm-corpus/sql-wasm.wasm" "wasm esbuild target/wasm-corpus/esbuild.wasm" \
    "x86 libc $lib/libc.so.6" "x86 libpython $lib/libpython3.11.so.1.0"; do
    set -- $r
    if [ ! -f "$3" ]; then
        echo "note: $3 absent: its row is left out" >&2
        continue
    fi
    case $1 in
        wasm) "$bin" wasm lift "$3" -o "$tmp/p.ssa" ;;
        x86) "$bin" x86 lift --semantics "$3" -o "$tmp/p.ssa" 2>/dev/null ;;
    esac
    n=$(grep -c '^function ' "$tmp/p.ssa")
    blocks=$(grep -c '^[^ ].*:$' "$tmp/p.ssa" || true)
    row real "$2 ($1)" "$n functions, $blocks blocks" "$tmp/p.ssa" --opaque
done
