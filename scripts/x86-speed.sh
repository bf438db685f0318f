#!/usr/bin/env bash
# Issue 40's speed figure, in one run: a binary's whole pipeline with
# meaning through the CLI (decode, CFG, lift with the semantics table,
# pruned SSA, verification, copy-prop,const-prop,dce, destruction:
# `ssakit x86 stats --semantics --only-flavor --passes ...`, release
# build, both threads) beside Ghidra's SLEIGH translator alone (pypcode,
# from its wheel, in a virtual environment under target/) turning the
# same binary's `.text` into p-code one instruction at a time (a linear
# sweep: one `translate(max_instructions=1)` per instruction, an
# undecodable byte skipped). Prints each side's instructions, seconds
# and instructions per second (ssakit: the median of three runs' wall
# clock, and the user + system CPU of that run), and the ratio.
#
# Usage: scripts/x86-speed.sh [BINARY]   (default: libpython3.11 of
# scripts/install-x86-corpus.sh). Goals (docs/x86.md, "Speed"): ssakit's
# wall clock at most 2 s on libpython, and at least twice pypcode's rate.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0}
[ -r "$bin" ] || { echo "error: cannot read $bin (scripts/install-x86-corpus.sh)" >&2; exit 1; }
cargo build --release -q -p ssakit-cli
venv=target/pypcode-venv
if ! "$venv/bin/python" -c "import pypcode" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "pypcode==3.3.3"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "binary: $bin"
for run in 1 2 3; do
    /usr/bin/time -f "%e %U %S" -o "$tmp/time$run" target/release/ssakit x86 stats --semantics \
        --only-flavor --passes copy-prop,const-prop,dce --format json -o "$tmp/stats.json" "$bin"
done
python3 - "$tmp" <<'EOF'
import json, sys
tmp = sys.argv[1]
runs = sorted(tuple(map(float, open('%s/time%d' % (tmp, k)).read().split())) for k in (1, 2, 3))
wall, user, sys_ = runs[1]
d = json.load(open(tmp + '/stats.json'))
n = d['total']['instructions']
t = d['total']['times']
print('ssakit: %d instructions, %d functions, %d failures; wall %.2f s (runs: %s), CPU %.2f s; %.0f instructions/s'
      % (n, len(d['functions']), len(d['failures']), wall,
         ' '.join('%.2f' % r[0] for r in runs), user + sys_, n / wall))
def secs(v):
    return sum(x or 0 for x in v.values()) if isinstance(v, dict) else v
print('ssakit phases (seconds per function summed over the threads): %s' % ', '.join(
    '%s %.2f' % (k, secs(v)) for k, v in sorted(t.items())))
open(tmp + '/ssakit', 'w').write('%d %f %f' % (n, wall, user + sys_))
EOF
"$venv/bin/python" - "$bin" "$tmp" <<'EOF'
import struct, sys, time
import pypcode
path, tmp = sys.argv[1], sys.argv[2]
elf = open(path, 'rb').read()
# The .text section: the section headers and their names.
shoff, = struct.unpack_from('<Q', elf, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', elf, 0x3a)
def section(k):
    name, typ, flags, addr, off, size = struct.unpack_from('<IIQQQQ', elf, shoff + k * shentsize)
    return name, addr, off, size
strtab = section(shstrndx)[2]
for k in range(shnum):
    name, addr, off, size = section(k)
    if elf[strtab + name:elf.index(b'\0', strtab + name)] == b'.text':
        break
text = elf[off:off + size]
ctx = pypcode.Context('x86:LE:64:default')
insns = ops = bad = 0
pos = 0
start, cpu = time.perf_counter(), time.process_time()
while pos < len(text):
    try:
        tx = ctx.translate(text, addr + pos, offset=pos, max_instructions=1)
    except (pypcode.BadDataError, pypcode.UnimplError):
        bad += 1
        pos += 1
        continue
    length = tx.ops[0].inputs[0].size
    insns += 1
    ops += len(tx.ops) - 1
    pos += length
secs, cpu = time.perf_counter() - start, time.process_time() - cpu
print('pypcode %s: %d instructions of .text (%d bytes; %d undecodable or unimplemented skipped), wall %.2f s, CPU %.2f s, %.1f p-code ops per instruction; %.0f instructions/s'
      % (pypcode.__version__, insns, len(text), bad, secs, cpu, ops / max(insns, 1), insns / secs))
n, wall, scpu = open(tmp + '/ssakit').read().split()
n, wall, scpu = int(n), float(wall), float(scpu)
print('ssakit / pypcode, instructions per second of wall clock: %.2fx; per CPU second: %.2fx (goals: ssakit wall <= 2 s, ratio >= 2)'
      % ((n / wall) / (insns / secs), (n / scpu) / (insns / cpu)))
EOF
