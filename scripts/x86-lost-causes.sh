#!/usr/bin/env bash
# Why code is lost (issue 42, item 1): the lost ranges `ssakit x86 lift
# FILE --format json` reports per function, classified by cause, with
# the instructions they hold (decoded linearly, as `x86 stats` counts).
#
# The cause of a range, from its reason and `objdump -d` around it:
#
# * unresolved-jump, by what ssakit's backward slice saw of the jump
#   (the JSON's `kind`: `table-unbounded`, a table whose index no
#   condition bounds; `table-unknown-base`, a load from a scaled index
#   whose base is no constant; `pointer`, a load with no index;
#   `computed`, no load at all; `bad-table`, a table whose entries are
#   not code), and for the largest ranges also by the jump's shape in
#   objdump's linear listing (the jump and the instructions before it):
#   - `table-relative`: `jmp r` after `add r, B` and a 4-byte load
#     `movsxd r, [B + i*4]` (a relative table whose index stayed
#     unbounded);
#   - `table-absolute`: `jmp [T + i*8]` or `jmp r` after `mov r, [T +
#     i*8]`;
#   - `pointer`: `jmp [m]` / `jmp r` after `mov r, [m]` with no index
#     register (a function pointer or vtable slot: a tail call);
#   - `register`: any other `jmp r` (its value computed otherwise);
# * unreachable, by what precedes the range: `after-call` (a call the
#   walk took as returning whose next instruction ended elsewhere, or
#   the code after a call the walk took as never returning), `after-ud2`,
#   `after-jmp`, `after-ret`, `referenced` (its first address is the
#   target of a direct branch or a `lea` somewhere in the binary: a
#   landing pad no table names, a block of another function), `other`;
# * data-in-code.
#
# Usage: scripts/x86-lost-causes.sh [--ssakit PATH] [--top N] FILE...
# Prints per binary the instructions lost by cause, and the N largest
# ranges (default 10) with their cause.
set -euo pipefail
ssakit=target/release/ssakit
top=10
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --ssakit) ssakit=$2; shift 2 ;;
        --top) top=$2; shift 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
[ ${#files[@]} -gt 0 ] || { echo "usage: $0 [--ssakit PATH] [--top N] FILE..." >&2; exit 2; }
command -v objdump >/dev/null || { echo "objdump (binutils) is needed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${files[@]}"; do
    "$ssakit" x86 lift "$f" --format json 2>/dev/null >"$tmp/lift.json"
    objdump -d -w --no-show-raw-insn -M intel "$f" >"$tmp/objdump.txt"
    python3 - "$f" "$tmp/lift.json" "$tmp/objdump.txt" "$top" <<'EOF'
import bisect, collections, json, re, sys

name, lift, dump, top = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
doc = json.load(open(lift))
line = re.compile(r"^\s*([0-9a-f]+):\t(.*)$")
target = re.compile(r"\b(?:j[a-z]+|call|lea)\b[^#<]*?\b([0-9a-f]{4,})\b")
addrs, texts, referenced = [], [], set()
for t in open(dump):
    m = line.match(t)
    if not m:
        continue
    a, ins = int(m.group(1), 16), re.sub(r"\s+", " ", m.group(2).strip())
    addrs.append(a)
    texts.append(ins)
    r = re.search(r"# ([0-9a-f]+) <", ins) or target.match(ins)
    if r:
        referenced.add(int(r.group(1), 16))

def before(a, n):
    """objdump's n instructions before address a, nearest last."""
    i = bisect.bisect_left(addrs, a)
    return texts[max(i - n, 0):i]

def at(a):
    i = bisect.bisect_left(addrs, a)
    return texts[i] if i < len(addrs) and addrs[i] == a else ""

def jump_shape(a):
    j = at(a)
    m = re.match(r"jmp (?:QWORD PTR )?(.*)", j)
    op = m.group(1) if m else j
    if "[" in op:
        return "table-absolute" if "*" in op else "pointer"
    prev = before(a, 12)
    reg = op.strip()
    for ins in reversed(prev):
        if re.match(rf"add {reg},", ins):
            for ins2 in reversed(prev):
                if ins2.startswith("movsxd") and "*4" in ins2:
                    return "table-relative"
            return "register"
        if re.match(rf"(mov|movsxd|lea) {reg},", ins):
            if "*" in ins and "[" in ins:
                return "table-absolute"
            if "[" in ins and ins.startswith("mov "):
                return "pointer"
            return "register"
    return "register"

def unreachable_shape(start):
    if start in referenced:
        return "referenced"
    p = before(start, 1)
    while p and re.match(r"(nop|xchg ax,ax|int3|data16|cs nop)", p[-1]):
        k = bisect.bisect_left(addrs, start) - 1
        start = addrs[k]
        p = before(start, 1)
    last = p[-1] if p else ""
    for key, pat in [("after-call", r"call"), ("after-ud2", r"ud2"), ("after-jmp", r"jmp"),
                     ("after-ret", r"ret"), ("after-hlt", r"hlt")]:
        if re.match(pat, last):
            return key
    return "other"

causes = collections.Counter()
ranges = []
for fn in doc["functions"]:
    for r in fn.get("lost") or []:
        if r["reason"] == "unresolved-jump":
            cause = "unresolved-jump/" + r.get("kind", "?")
        elif r["reason"] == "unreachable":
            cause = "unreachable/" + unreachable_shape(int(r["start"], 16))
        else:
            cause = r["reason"]
        causes[cause] += r["instructions"]
        ranges.append((r["instructions"], r["start"], fn["label"], cause, r.get("jump")))
total = sum(causes.values())
print(f"{name}: {total} instructions in lost ranges")
for c, n in causes.most_common():
    print(f"  {c:34} {n:8}  ({100.0 * n / max(total, 1):.1f}%)")
ranges.sort(reverse=True)
for n, start, label, cause, jump in ranges[:top]:
    where = f" (jump at {jump}: {at(int(jump, 16))}, shape {jump_shape(int(jump, 16))})" if jump else ""
    print(f"    {n:6} at {start} in {label}: {cause}{where}")
EOF
done
