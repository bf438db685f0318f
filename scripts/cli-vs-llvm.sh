#!/usr/bin/env bash
# Issue 44's six rows (blocks x variables) from both program generators
# (`ssakit gen`, `--generator first|second`), timed through the CLI as a
# user runs it, side by side with LLVM 14's mem2reg in one run:
#   - construct: `ssakit construct --flavor pruned --no-verify --time-passes`,
#     its `total`, best of REPS;
#   - destruct: `ssakit destruct --time-passes` on that output, its `total`
#     less its input `verification`, best of REPS;
#   - LLVM: `opt -passes=mem2reg -time-passes` on `ssakit emit-llvm`'s
#     module of the same program, PromotePass's wall seconds, once;
#   - peak: `/usr/bin/time`'s maximum resident set of the construct run;
#   - phis: pruned phis in the output.
# Usage: scripts/cli-vs-llvm.sh [SSAKIT] [REPS]  (SSAKIT defaults to
# target/release/ssakit; build it with `cargo build --release -p ssakit-cli`).
# Prints a Markdown table. LLVM_TIMEOUT (seconds, default 120) bounds opt.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/ssakit}"
reps="${2:-3}"
limit="${LLVM_TIMEOUT:-120}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
best() { sort -g | head -1; }
echo "| generator | shape | blocks × vars | pruned phis | construct s | LLVM PromotePass s | LLVM ÷ construct | destruct s | destruct ÷ construct | peak MB |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
for gen in first second; do
    for row in "random 100000 16" "ladder 100000 16" "irreducible 100000 16" "chain 100000 16" "random 10000 256" "ladder 10000 256"; do
        set -- $row
        p="$tmp/p.ssa"
        "$bin" gen --generator "$gen" --shape "$1" --blocks "$2" --vars "$3" --seed 1 -o "$p"
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
        "$bin" emit-llvm "$p" -o "$tmp/p.ll"
        llvm=$(timeout "$limit" opt -passes=mem2reg -time-passes "$tmp/p.ll" -o /dev/null 2>&1 |
            awk '/PromotePass/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) last = $i; print last; exit }' || true)
        [ -n "$llvm" ] || llvm="> $limit"
        ratio=$(awk -v l="$llvm" -v c="$c" 'BEGIN { if (l ~ />/) print "> " substr(l, 3) / c; else printf "%.1f", l / c }')
        dr=$(awk -v d="$d" -v c="$c" 'BEGIN { printf "%.2f", d / c }')
        printf "| %s | %s | %s × %s | %s | %.3f | %s | %s | %.3f | %s | %.0f |\n" \
            "$gen" "$1" "$2" "$3" "$phis" "$c" "$llvm" "$ratio" "$d" "$dr" "$((peak / 1024))"
    done
done
