#!/usr/bin/env bash
# Builds the Go fixture of the calling-convention test
# (crates/ssakit-x86/tests/conv.rs) with Debian's golang-go (installed by
# scripts/install-x86-corpus.sh): crates/ssakit-x86/tests/fixture/go/main.go
# into OUT (default target/go-fixture/gofixture), symbols kept, DWARF left
# out. Prints the binary's path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/target/go-fixture/gofixture}"
mkdir -p "$(dirname "$out")"
cd "$root/crates/ssakit-x86/tests/fixture/go"
GOFLAGS=-mod=mod GOCACHE="${GOCACHE:-$root/target/go-fixture/cache}" \
    go build -trimpath -ldflags=-w -o "$out" .
echo "$out"
