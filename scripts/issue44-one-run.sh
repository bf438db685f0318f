#!/usr/bin/env bash
# Issue 44's whole table in one run of the comparison harness
# (crates/ssakit-compare, outside the workspace: it builds Cranelift):
# both generators' six rows (random, ladder, irreducible, chain at
# 100k blocks x 16 variables; random and ladder at 10k x 256), then the
# real rows, whole lifted modules: sql-wasm and esbuild from
# target/wasm-corpus (scripts/fetch-wasm-corpus.sh --only
# sql.js,esbuild-wasm), libc and libpython 3.11 as `ssakit x86 lift
# --semantics` prints them (scripts/install-x86-corpus.sh); a missing
# module is left out with a note. Each row: ssakit's pruned
# construction, LLVM 14's PromotePass, Cranelift's builder, destruction
# (`destruct_pruned`), in one process, one thread; then the same
# program as text through the release CLI as a user runs it (`--cli`:
# `construct --flavor pruned --no-verify --time-passes` and `destruct
# --time-passes` totals, the peak resident set; section "Through the
# CLI" with its verdicts). Writes target/compare/issue44/results.md and
# results.json.
#
# Usage: scripts/issue44-one-run.sh [REPS]   (default 3; LLVM_LIMIT
# seconds per `opt` run, default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
out=target/compare/issue44
mkdir -p "$out"
cargo build --release -q -p ssakit-cli
cargo build --release -q --manifest-path crates/ssakit-compare/Cargo.toml
compare=crates/ssakit-compare/target/release/ssakit-compare
[ -n "${CARGO_TARGET_DIR:-}" ] && compare="$CARGO_TARGET_DIR/release/ssakit-compare"
ssakit=target/release/ssakit
[ -n "${CARGO_TARGET_DIR:-}" ] && ssakit="$CARGO_TARGET_DIR/release/ssakit"
real=()
for m in sql-wasm esbuild; do
    f=target/wasm-corpus/$m.wasm
    if [ -s "$f" ]; then real+=("$f"); else echo "note: $f absent: its row is left out" >&2; fi
done
lib=/usr/lib/x86_64-linux-gnu
for b in libc.so.6 libpython3.11.so.1.0; do
    if [ -r "$lib/$b" ]; then
        "$ssakit" x86 lift --semantics "$lib/$b" -o "$out/$b.ssa" 2>/dev/null
        real+=("$out/$b.ssa")
    else
        echo "note: $lib/$b absent: its row is left out" >&2
    fi
done
list=$(IFS=,; echo "${real[*]}")
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
"$compare" --generator both --by-blocks --sizes 100000 --vars 16 \
    --shapes random,ladder,irreducible,chain \
    --sweep-vars 256 --sweep-shapes random,ladder --sweep-size 10000 \
    --reps "$reps" --limit "${LLVM_LIMIT:-60}" --out "$out" ${list:+--real "$list"} \
    --cli "$ssakit"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
