#!/usr/bin/env bash
# Signatures against DWARF (issue 41, item 5; docs/x86.md, "Signatures"):
# installs what scripts/x86-signature-truth.py needs (Debian's
# python3-pyelftools, and libc6-dbg for libc's debug file, found by its
# build-id), compiles the x86 fixtures' C sources with `gcc -O0|-O2 -g`
# into target/sigtruth/, and runs the comparison on libc and on each of
# them. The DWARF read of libc's debug file takes minutes.
#
# Usage: scripts/x86-signature-truth.sh [SSAKIT]   (default target/release/ssakit)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ssakit="${1:-$root/target/release/ssakit}"
[ -x "$ssakit" ] || { echo "error: no ssakit at $ssakit (cargo build --release -p ssakit-cli)" >&2; exit 1; }
need=()
/usr/bin/python3 -c 'import elftools' 2>/dev/null || need+=(python3-pyelftools)
libc=/usr/lib/x86_64-linux-gnu/libc.so.6
id=$(readelf -n "$libc" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
debug="/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
[ -f "$debug" ] || need+=(libc6-dbg)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${need[@]}"
fi
out="$root/target/sigtruth"
mkdir -p "$out"
fx="$root/crates/ssakit-x86/tests/fixture"
for opt in -O0 -O2; do
    gcc "$opt" -g -o "$out/fixture.c$opt" "$fx/fixture.c"
    gcc "$opt" -g -masm=intel -o "$out/round4.c$opt" "$fx/round4.c" "$fx/round4-other.c"
done
echo "== $libc (libc6-dbg: $debug)"
/usr/bin/python3 "$root/scripts/x86-signature-truth.py" "$ssakit" "$libc" "$debug"
for f in "$out"/*; do
    echo "== $f"
    /usr/bin/python3 "$root/scripts/x86-signature-truth.py" "$ssakit" "$f"
done
