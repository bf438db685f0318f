#!/usr/bin/env bash
# Issue 14, item 4: parse and print (`ssakit fmt`, output to /dev/null)
# against pruned construction (the passes of `ssakit construct --flavor
# pruned --no-verify --time-passes`, its `total`) on a ~1M-instruction
# generated program of each shape, 16 variables; medians of 3, the two
# alternating, and fmt's peak memory (RSS, by /usr/bin/time) in bytes per
# input byte. Prints a Markdown table. Not run by .ci/run.
# With BASE=/path/to/an/older/ssakit, that binary's fmt is timed too, in
# the same alternation, for a ratio measured side by side.
# Usage: [BASE=old-ssakit] scripts/parse-print-vs-construct.sh [REPS]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
cargo build --release -q -p ssakit-cli
ssakit="$(pwd)/target/release/ssakit"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
now() { date +%s.%N; }
base=${BASE:-}
if [ -n "$base" ]; then
    echo "| shape | input MB | fmt s (parse+print) | construct passes s | fmt / construct | whole construct s | fmt peak B/B | base fmt s | base / now | base peak B/B |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
    echo "| shape | input MB | fmt s (parse+print) | construct passes s | fmt / construct | whole construct s | fmt peak B/B |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
fi
# Block counts that give about a million instructions (ssakit-compare's sizes).
for sb in random:284131 ladder:317000 ladder-redundant:872000 chain:470256 \
          nested-loops:440000 irreducible:279000 switchy:470000 many-vars:208681; do
    s=${sb%%:*}; b=${sb##*:}
    f="$dir/$s.ssa"
    "$ssakit" gen --shape "$s" --blocks "$b" --vars 16 > "$f"
    fm=(); cp=(); wh=(); bf=(); pk=(); bp=()
    for _ in $(seq "$reps"); do
        t0=$(now); /usr/bin/time -f %M -o "$dir/peak" "$ssakit" fmt "$f" > /dev/null; t1=$(now)
        fm+=("$(python3 -c "print($t1 - $t0)")"); pk+=("$(cat "$dir/peak")")
        if [ -n "$base" ]; then
            t0=$(now); /usr/bin/time -f %M -o "$dir/peak" "$base" fmt "$f" > /dev/null; t1=$(now)
            bf+=("$(python3 -c "print($t1 - $t0)")"); bp+=("$(cat "$dir/peak")")
        fi
        t0=$(now)
        c=$("$ssakit" construct --flavor pruned --no-verify --time-passes "$f" 2>&1 >/dev/null | awk '/^total:/{print $2}')
        t1=$(now)
        cp+=("$c"); wh+=("$(python3 -c "print($t1 - $t0)")")
    done
    python3 - "$s" "$(stat -c %s "$f")" "${fm[*]}" "${cp[*]}" "${wh[*]}" "${pk[*]}" "${bf[*]:-}" "${bp[*]:-}" <<'PY'
import sys, statistics as st
s, size, fm, cp, wh, pk, bf, bp = sys.argv[1:]
m = lambda x: st.median(map(float, x.split()))
# /usr/bin/time's %M is in KiB.
per_byte = lambda x: m(x) * 1024 / int(size)
a, b, c = m(fm), m(cp), m(wh)
row = f"| {s} | {int(size) / 1e6:.1f} | {a:.2f} | {b:.2f} | {a / b:.2f} | {c:.2f} | {per_byte(pk):.2f} |"
if bf.strip():
    d = m(bf)
    row += f" {d:.2f} | {d / a:.2f} | {per_byte(bp):.2f} |"
print(row)
PY
    rm -f "$f"
done
