#!/usr/bin/env bash
# User CPU cycles of a CLI run, split by phase from perf's call stacks
# (a sample every 200,000 user cycles, DWARF unwinding), for measuring on
# a loaded machine where wall times (--time-passes) are not comparable:
# `construct` = the passes of `construct --flavor pruned --no-verify`
# (construct_impl), `destruct` = the passes of `destruct` less its input
# verification, `parse` and `print` the CLI's own. Prints one line of
# millions of cycles per phase, the whole run's user seconds and peak RSS.
# Usage: scripts/phase-cycles.sh SSAKIT construct|destruct PROGRAM.ssa
set -euo pipefail
bin=$1; cmd=$2; prog=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $cmd in
    construct) args=(construct --flavor pruned --no-verify) ;;
    destruct) args=(destruct) ;;
    *) echo "construct or destruct" >&2; exit 1 ;;
esac
/usr/bin/time -f "%U %M" -o "$tmp/time" "$bin" "${args[@]}" "$prog" -o "$tmp/out" 2>/dev/null
perf record -q -e cycles:u -c 200000 --call-graph dwarf,8192 -o "$tmp/perf.data" \
    "$bin" "${args[@]}" "$prog" -o "$tmp/out" 2>/dev/null >/dev/null
perf script -i "$tmp/perf.data" 2>/dev/null | python3 -c '
import sys, collections
count = collections.Counter()
stack = []
def flush():
    if not stack:
        return
    s = " ".join(stack)
    if "construct_impl" in s:
        count["construct"] += 1
    elif "ssakit::destruct::" in s and "verify" not in s:
        count["destruct"] += 1
    elif "print_module" in s:
        count["print"] += 1
    elif "parser" in s:
        count["parse"] += 1
    else:
        count["other"] += 1
for line in sys.stdin:
    line = line.rstrip()
    if not line:
        flush(); stack.clear()
    elif line[0] in " \t":
        stack.append(line.strip())
flush()
print(" ".join(f"{k}={v * 0.2:.0f}" for k, v in sorted(count.items())), end=" ")
'
read -r user peak < "$tmp/time"
echo "user_s=$user peak_MB=$((peak / 1024))"
