#!/usr/bin/env bash
# Code inside function extents that ssakit never decoded, checked against
# objdump (issue 42's table): for each binary, `ssakit x86 lift FILE
# --format json` gives every function's extent and the machine
# instructions its blocks hold (address and size); `objdump -d` decodes
# the same bytes linearly. An objdump instruction inside an extent that
# starts no decoded instruction of that function is never decoded.
# Padding is excluded on both sides: `nop` (every form), `int3`, `ud2`,
# `endbr64` (which the lifter emits nothing for) and runs of zero bytes
# (`add [rax], al`).
#
# Usage: scripts/x86-lost-code.sh [--ssakit PATH] [--json] FILE...
# Prints per binary: functions, functions that lose code, objdump's
# instructions inside extents (padding excluded) and those never decoded.
set -euo pipefail
ssakit=target/release/ssakit
json=0
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --ssakit) ssakit=$2; shift 2 ;;
        --json) json=1; shift ;;
        *) files+=("$1"); shift ;;
    esac
done
[ ${#files[@]} -gt 0 ] || { echo "usage: $0 [--ssakit PATH] [--json] FILE..." >&2; exit 2; }
command -v objdump >/dev/null || { echo "objdump (binutils) is needed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${files[@]}"; do
    "$ssakit" x86 lift "$f" --format json >"$tmp/lift.json"
    objdump -d -w --no-show-raw-insn -M intel "$f" >"$tmp/objdump.txt"
    python3 - "$f" "$tmp/lift.json" "$tmp/objdump.txt" "$json" <<'EOF'
import bisect, json, re, sys

name, lift, dump, as_json = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
doc = json.load(open(lift))
extents, decoded = [], set()
for f in doc["functions"]:
    lo, hi = int(f["address"], 16), int(f["end"], 16)
    starts = set()
    for b in f["blocks"]:
        for r in b["instructions"] + [b["terminator"]]:
            if r["address"] is not None:
                starts.add(int(r["address"], 16))
    extents.append((lo, hi, f["label"], starts))
extents.sort()
los = [e[0] for e in extents]

line = re.compile(r"^\s*([0-9a-f]+):\t(.*)$")
padding = re.compile(r"^(nop|xchg\s+ax,\s*ax|int3|ud2|endbr64|(data16|cs|ds|ss|es|fs|gs)\b)")
zero = re.compile(r"^add\s+BYTE PTR \[rax\],\s*al")
total, lost, lost_by = 0, 0, {}
for text in open(dump):
    m = line.match(text)
    if not m:
        continue
    a, ins = int(m.group(1), 16), m.group(2).strip()
    if not ins or padding.match(ins) or zero.match(ins):
        continue
    i = bisect.bisect_right(los, a) - 1
    # The extents holding `a` (they may overlap: the last few before it).
    for lo, hi, label, starts in extents[max(i - 3, 0):i + 1][::-1]:
        if lo <= a < hi:
            total += 1
            if a not in starts:
                lost += 1
                lost_by[label] = lost_by.get(label, 0) + 1
            break
share = 100.0 * lost / max(total, 1)
if as_json:
    print(json.dumps({"binary": name, "functions": len(extents), "losing": len(lost_by),
                      "instructions": total, "never_decoded": lost}))
else:
    print(f"{name}: {len(lost_by)} of {len(extents)} functions lose code; "
          f"{lost} of {total} instructions never decoded ({share:.2f}%)")
EOF
done
