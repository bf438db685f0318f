#!/usr/bin/env bash
# Function discovery (docs/x86.md, "Functions beyond the FDEs"): for each
# binary, `ssakit x86 stats --format json` without (`--no-discover`, the
# output of before discovery) and with it, and `ssakit x86 lift` both
# ways. Prints per binary: functions before → after (and by origin), the
# code outside every function, the jump tables resolved, the instructions
# never decoded inside extents, failures, the wall time of `x86 stats`
# (best of --runs), and how many of the functions given (symbols, FDEs)
# lift to the same text with discovery as without.
#
# Usage: scripts/x86-discover.sh [--ssakit PATH] [--runs N] FILE...
set -euo pipefail
ssakit=target/release/ssakit
runs=1
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --ssakit) ssakit=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
[ ${#files[@]} -gt 0 ] || { echo "usage: $0 [--ssakit PATH] [--runs N] FILE..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${files[@]}"; do
    for mode in before after; do
        flag=(); [ $mode = before ] && flag=(--no-discover)
        best=
        for _ in $(seq "$runs"); do
            s=$(date +%s.%N)
            "$ssakit" x86 stats "${flag[@]}" --format json "$f" > "$tmp/$mode.json"
            e=$(date +%s.%N)
            t=$(echo "$e - $s" | bc)
            if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
        done
        echo "$best" > "$tmp/$mode.time"
        "$ssakit" x86 lift "${flag[@]}" "$f" > "$tmp/$mode.ssa" 2>/dev/null
    done
    python3 - "$f" "$tmp" <<'PY'
import json, sys
name, tmp = sys.argv[1], sys.argv[2]
def functions(path):
    out, cur, buf = {}, None, []
    for line in open(path, errors="replace"):
        if line.startswith("function "):
            cur, buf = line.split()[1].split("(")[0], []
        if cur is not None:
            buf.append(line)
            if line.startswith("}"):
                out[cur] = "".join(buf)
                cur = None
    return out
b, a = (json.load(open(f"{tmp}/{m}.json")) for m in ("before", "after"))
tb, ta = (float(open(f"{tmp}/{m}.time").read()) for m in ("before", "after"))
fb, fa = functions(f"{tmp}/before.ssa"), functions(f"{tmp}/after.ssa")
same = sum(1 for k, v in fb.items() if fa.get(k) == v)
o = lambda d: d["outside_functions"]
pct = lambda d: 100.0 * o(d)["bytes"] / max(o(d)["executable"], 1)
found = a.get("functions_found", {})
origins = ", ".join(f"{k} {found[k]}" for k in ("symbol", "fde", "entry", "call", "pointer", "gap"))
lost = lambda d: d["total"]["lost"]["instructions"]
insts = lambda d: d["total"]["instructions"]
print(f"{name}:")
print(f"  functions        {len(b['functions'])} -> {len(a['functions'])} ({origins}; {found.get('rejected')} rejected)")
print(f"  outside          {o(b)['bytes']} bytes ({pct(b):.2f}%), {o(b)['instructions']} instructions -> {o(a)['bytes']} bytes ({pct(a):.2f}%), {o(a)['instructions']} instructions")
print(f"  jump tables      {b['total']['jump_tables']} -> {a['total']['jump_tables']}")
print(f"  never decoded    {lost(b)} of {insts(b)} -> {lost(a)} of {insts(a)} instructions")
print(f"  failures         {len(b['failures'])} -> {len(a['failures'])}")
print(f"  x86 stats wall   {tb:.2f} s -> {ta:.2f} s")
print(f"  given functions  {same} of {len(fb)} lift to the same text")
PY
done
