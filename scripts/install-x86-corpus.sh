#!/usr/bin/env bash
# Installs the binaries of issue 29's corpus (and issue 46's libstdc++,
# whose two functions of one name once made `x86 lift` unparseable) from Debian's packages (as
# root) and prints the SSAKIT_X86_CORPUS line that adds them to
# crates/ssakit-x86/tests/binaries.rs, and the libc debug file for
# `ssakit x86 stats --symbols`, and the SSAKIT_X86_LOST_CORPUS line of
# issue 42's lost-code table (scripts/x86-lost-code.sh, docs/x86.md:
# Rust's ripgrep and fd-find, libstdc++, zstd, busybox). Versions drift: the tests check properties
# on them (every function goes through), never exact counts. golang-go
# builds the Go fixture of the calling-convention test
# (scripts/build-go-fixture.sh).
set -euo pipefail
packages=(coreutils bash sqlite3 libsqlite3-0 libpython3.11 python3.11-minimal libc6 libc6-dbg
    libstdc++6 ripgrep fd-find zstd busybox-static golang-go)
if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${packages[@]}" >/dev/null
lib=/usr/lib/x86_64-linux-gnu
corpus=(/usr/bin/ls /usr/bin/bash /usr/bin/sqlite3 "$lib/libsqlite3.so.0"
    "$lib/libpython3.11.so.1.0" /usr/bin/python3.11 "$lib/libc.so.6"
    "$lib/libstdc++.so.6")
lost=(/usr/bin/fdfind /usr/bin/rg "$lib/libstdc++.so.6" /usr/bin/zstd /bin/busybox)
for f in "${corpus[@]}" "${lost[@]}"; do
    [ -e "$f" ] || { echo "missing after install: $f" >&2; exit 1; }
done
# libc6-dbg files its debug file under the build id of libc.so.6.
id=$(readelf -n "$lib/libc.so.6" | awk '/Build ID/ { print $3 }')
debug="/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
echo "SSAKIT_X86_CORPUS=$(IFS=:; echo "${corpus[*]}")"
echo "SSAKIT_X86_LOST_CORPUS=$(IFS=:; echo "${lost[*]}")"
if [ -e "$debug" ]; then
    echo "libc debug file: $debug"
else
    echo "libc debug file: not found at $debug" >&2
fi
