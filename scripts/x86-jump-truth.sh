#!/usr/bin/env bash
# Jump tables against the compiler's own listing (issue 42, item 4): the
# sources of scripts/jump-truth/ (an interpreter loop, a lexer, switches
# over 16- and 8-bit values, in a loop, over masked arithmetic, a C++
# switch inside try/catch) compiled here by gcc/g++ at -O1, -O2, -O3 and
# -Os; each assembly listing (`-S`) names every table GCC emitted (a
# `.L` label in `.rodata` followed by `.long .Lk-.Lt` or `.quad .Lk`
# entries), the listing is assembled keeping its local labels (`-Wa,-L`)
# so that `nm` gives each label's address, and the switches `ssakit x86
# lift --format json` resolved are compared with them, entry by entry:
#
# * exact: a switch of ssakit has exactly the table's entries, in order
#   (every switch with them is explained by the table);
# * wrong: a switch holds some of them but not exactly these;
# * missing: no switch holds any;
# * extra: switches of ssakit that no table of the listing explains.
#
# Then the Rust source scripts/jump-truth/switches.rs (a `match` over a
# big enum, a bytecode interpreter's loop, a lexer, `?` error paths,
# values with `Drop` live across calls that may panic), by rustc at `-C
# opt-level=1,2,3,s` as a library (`--emit asm`: LLVM's `.LJTI` tables);
# the listing is assembled with `gcc -Wa,-L` and linked as a shared
# object with `-nostdlib` (std's symbols stay undefined: it is never
# run), and compared the same way. Its listing's call-site tables
# (`.gcc_except_table`: `start, length, pad, action` after each
# `.Lcst_begin`) name every landing pad: each must start a block of the
# lifted function (`pads: N of N are blocks`).
#
# Usage: scripts/x86-jump-truth.sh [--ssakit PATH] [--cc GCC] [--cxx G++]
#        [--rustc RUSTC] (--rustc none skips Rust)
set -euo pipefail
ssakit=target/release/ssakit
cc=gcc
cxx=g++
rustc=rustc
while [ $# -gt 0 ]; do
    case "$1" in
        --ssakit) ssakit=$2; shift 2 ;;
        --cc) cc=$2; shift 2 ;;
        --cxx) cxx=$2; shift 2 ;;
        --rustc) rustc=$2; shift 2 ;;
        *) echo "usage: $0 [--ssakit PATH] [--cc GCC] [--cxx G++] [--rustc RUSTC]" >&2; exit 2 ;;
    esac
done
# A compiler named like Debian's clang packages (clang-14) is installed
# when absent; gcc/g++ come with build-essential.
for tool in "$cc" "$cxx"; do
    if ! command -v "$tool" >/dev/null; then
        case "$tool" in
            clang-[0-9]*|clang++-[0-9]*)
                pkg="clang-${tool##*-}"
                apt-get update -qq && apt-get install -y -qq "$pkg" ;;
            *) echo "error: $tool is not installed" >&2; exit 1 ;;
        esac
    fi
done
src="$(cd "$(dirname "$0")" && pwd)/jump-truth"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# check NAME OUT: compares the tables (and landing pads) of listing
# OUT.s with what `x86 lift` gives for binary OUT.
check() {
    local name=$1 out=$2
    nm "$out" >"$out.nm"
    "$ssakit" x86 lift "$out" --format json 2>/dev/null >"$out.json"
    python3 - "$name" "$out.s" "$out.nm" "$out.json" <<'EOF'
import json, re, sys

name, listing, nm, lift = sys.argv[1:5]
addr = {}
for line in open(nm):
    parts = line.split()
    if len(parts) == 3:
        addr.setdefault(parts[2], int(parts[0], 16))
# Tables: a label whose next lines are entries naming other labels.
tables, current = {}, None
label = re.compile(r"^(\.L\w+):\s*$")
entry = re.compile(r"^\s*\.(long|quad)\s+(\.L\w+)(?:-(\.L\w+))?\s*$")
for line in open(listing):
    m = label.match(line)
    if m:
        current = m.group(1)
        continue
    m = entry.match(line)
    if m and current:
        tables.setdefault(current, []).append(m.group(2))
        continue
    if line.strip().startswith((".align", ".p2align", ".section", ".text")):
        continue
    current = None
switches, blocks = [], set()
for f in json.load(open(lift))["functions"]:
    for b in f["blocks"]:
        if b.get("address"):
            blocks.add(int(b["address"], 16))
        t = b["terminator"]
        if t["kind"] == "switch":
            switches.append([int(s[1:], 16) for s in t["successors"][1:]])
exact = wrong = missing = 0
used = set()
for t, labels in sorted(tables.items()):
    want = [addr.get(l) for l in labels]
    if None in want:
        print(f"  {name}: table {t}: a label has no address", file=sys.stderr)
        missing += 1
        continue
    hit = [i for i, s in enumerate(switches) if s == want]
    if hit:
        # One table may serve several jumps (a loop's peeled first
        # iteration jumps through it too).
        exact += 1
        used.update(hit)
        continue
    near = [i for i, s in enumerate(switches) if set(s) & set(want)]
    if near:
        wrong += 1
        used.update(near)
        print(f"  {name}: table {t} ({len(want)} entries): wrong", file=sys.stderr)
    else:
        missing += 1
        print(f"  {name}: table {t} ({len(want)} entries): missing", file=sys.stderr)
extra = len(switches) - len(used)
# Landing pads: the third field of each call site (`.uleb128 .LtmpC -
# .Lfunc_beginN`, or `.byte 0` for none) between `.Lcst_beginN:` and
# `.Lcst_endN:`.
pads, fields, inside = set(), [], False
for line in open(listing):
    t = line.strip()
    if re.match(r"^\.Lcst_begin\d+:$", t):
        inside, fields = True, []
        continue
    if re.match(r"^\.Lcst_end\d+:$", t):
        inside = False
        continue
    if inside and t.startswith((".uleb128", ".byte")):
        fields.append(t)
        if len(fields) == 4:
            m = re.match(r"\.uleb128\s+(\.L\w+)-\.Lfunc_begin\d+$", fields[2])
            if m:
                pads.add(m.group(1))
            fields = []
pad_note = ""
if pads:
    at = [addr.get(p) for p in sorted(pads)]
    found = sum(1 for a in at if a is not None and a in blocks)
    pad_note = f"; pads: {found} of {len(pads)} are blocks"
    for p, a in zip(sorted(pads), at):
        if a is None or a not in blocks:
            print(f"  {name}: landing pad {p} is no block", file=sys.stderr)
print(f"{name}: {len(tables)} tables in the listing: {exact} exact, {wrong} wrong, "
      f"{missing} missing; {extra} other switches{pad_note}")
EOF
}
echo "$($cc --version | head -1)"
for file in "$src"/*.c "$src"/*.cpp; do
    base=$(basename "$file")
    case "$file" in *.cpp) comp=$cxx ;; *) comp=$cc ;; esac
    for opt in -O1 -O2 -O3 -Os; do
        out="$tmp/${base%.*}$opt"
        "$comp" "$opt" -S -o "$out.s" "$file"
        "$comp" -Wa,-L -o "$out" "$out.s"
        check "$base $opt" "$out"
    done
done
if [ "$rustc" != none ]; then
    echo "$($rustc --version)"
    for opt in 1 2 3 s; do
        out="$tmp/switches-rs-O$opt"
        "$rustc" --edition 2021 --crate-type=lib -C opt-level=$opt --emit asm -o "$out.s" \
            "$src/switches.rs"
        "$cc" -c -Wa,-L -o "$out.o" "$out.s"
        "$cc" -shared -nostdlib -o "$out" "$out.o"
        check "switches.rs -C opt-level=$opt" "$out"
    done
fi
