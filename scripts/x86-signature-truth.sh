#!/usr/bin/env bash
# Signatures against DWARF (issue 41, items 1 and 2; docs/x86.md,
# "Signatures"): installs what scripts/x86-signature-truth.py needs
# (Debian's python3-pyelftools, and libc6-dbg for libc's debug file,
# found by its build-id; clang-14 if absent), compiles the x86 fixtures'
# C sources with `gcc -O0|-O2 -g` into target/sigtruth/, fetches the
# `-g` corpus's source (Debian's zlib 1:1.2.13.dfsg-1, by `apt-get
# source --download-only` through a deb-src list of its own under
# target/sigtruth/apt, not the system's), compiles its 15 C files
# (10,072 lines) with gcc and clang at -O0 and -O2 with -g into shared
# objects, and runs the comparison on libc and on each of them. The
# DWARF read of libc's debug file takes from 40 s to minutes.
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
command -v clang-14 >/dev/null || need+=(clang-14)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${need[@]}"
fi
out="$root/target/sigtruth"
mkdir -p "$out/bin"
fx="$root/crates/ssakit-x86/tests/fixture"
for opt in -O0 -O2; do
    gcc "$opt" -g -o "$out/bin/fixture.c$opt" "$fx/fixture.c"
    gcc "$opt" -g -masm=intel -o "$out/bin/round4.c$opt" "$fx/round4.c" "$fx/round4-other.c"
done
# The -g corpus: zlib's library sources, pinned.
zlib=zlib_1.2.13.dfsg-1
apt="$out/apt"
if [ ! -f "$apt/$zlib.dsc" ]; then
    mkdir -p "$apt/lists/partial"
    cat >"$apt/deb-src.sources" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    aptopt=(-o Dir::Etc::SourceParts="$apt" -o Dir::Etc::SourceList=/dev/null
        -o Dir::State::Lists="$apt/lists")
    apt-get "${aptopt[@]}" update -qq
    (cd "$apt" && apt-get "${aptopt[@]}" source --download-only "zlib=1:1.2.13.dfsg-1")
fi
src="$apt/zlib-1.2.13.dfsg"
[ -d "$src" ] || tar -C "$apt" -xjf "$apt/zlib_1.2.13.dfsg.orig.tar.bz2"
for cc in gcc clang-14; do
    for opt in -O0 -O2; do
        "$cc" "$opt" -g -fPIC -shared -w -o "$out/bin/libz-$cc$opt.so" "$src"/*.c
    done
done
# SIGTRUTH_BUILD_ONLY=1 (scripts/x86-signature-vs-angr.sh): the corpus only.
[ -z "${SIGTRUTH_BUILD_ONLY:-}" ] || exit 0
echo "== $libc (libc6-dbg: $debug)"
/usr/bin/python3 "$root/scripts/x86-signature-truth.py" "$ssakit" "$libc" "$debug"
for f in "$out"/bin/*; do
    echo "== $f"
    /usr/bin/python3 "$root/scripts/x86-signature-truth.py" "$ssakit" "$f"
done
