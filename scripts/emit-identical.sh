#!/usr/bin/env bash
# Proof that a refactor of the WebAssembly emitter changes no byte: runs a
# release `ssakit` over a fixed set of inputs and prints one md5 per
# output (exit code and standard error included), so that two runs, before
# and after a change, can be compared with `diff`.
#   - `wasm opt` on the three corpus modules (scripts/fetch-wasm-corpus.sh)
#     and every `.wat` of the repository, in each mode below;
#   - `wasm opt --dump structure|stackify|locals` on the `.wat` files and
#     on brotli_wasm_bg.wasm;
#   - `emit-wasm` on examples/*.ssa and on generated programs (`ssakit gen`).
# Usage: scripts/emit-identical.sh [SSAKIT] > before.txt   (then again > after.txt; diff)
# EMIT_IDENTICAL_QUICK=1 leaves esbuild.wasm out (the slowest; about a
# third of the time). SSAKIT defaults to target/release/ssakit; build it first with
# `cargo build --release -p ssakit-cli`. Missing corpus modules are skipped
# with a note (the comparison then covers less).
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/ssakit}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Prints "md5 label" for the output, standard error and exit code of a command.
record() {
    local label="$1"
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    echo "$(cat "$tmp/out" "$tmp/err" <(echo "rc=$rc") | md5sum | cut -c1-32) $label"
}

modes=(
    "-O0"
    "-O1"
    "-O0 --no-split"
    "-O0 --no-coalesce"
    "-O0 --no-split --no-coalesce"
    "-O1 --no-split --no-coalesce"
    "-O0 --conventional"
    "-O1 --conventional"
    "-O0 --flavor minimal --no-coalesce"
    "--passes copy-prop,const-prop,dce"
)

inputs=()
corpus=(sql-wasm brotli_wasm_bg esbuild)
[[ -n "${EMIT_IDENTICAL_QUICK:-}" ]] && corpus=(sql-wasm brotli_wasm_bg)
for m in "${corpus[@]}"; do
    if [[ -s "target/wasm-corpus/$m.wasm" ]]; then
        inputs+=("target/wasm-corpus/$m.wasm")
    else
        echo "skipped: target/wasm-corpus/$m.wasm missing" >&2
    fi
done
while IFS= read -r w; do inputs+=("$w"); done < <(git ls-files '*.wat' | sort)

for input in "${inputs[@]}"; do
    for mode in "${modes[@]}"; do
        # shellcheck disable=SC2086
        record "wasm opt $mode $input" "$bin" wasm opt $mode -o - "$input"
    done
done

dumps=("target/wasm-corpus/brotli_wasm_bg.wasm")
while IFS= read -r w; do dumps+=("$w"); done < <(git ls-files '*.wat' | sort)
for input in "${dumps[@]}"; do
    [[ -s "$input" ]] || continue
    for step in structure stackify locals; do
        record "wasm opt --dump $step $input" "$bin" wasm opt --dump "$step" "$input"
        record "wasm opt -O0 --no-coalesce --dump $step $input" \
            "$bin" wasm opt -O0 --no-coalesce --dump "$step" "$input"
    done
done

while IFS= read -r s; do
    record "emit-wasm $s" "$bin" emit-wasm -o - "$s"
done < <(git ls-files 'examples/*.ssa' 'examples/**/*.bril' | sort)

for shape in random ladder chain nested-loops irreducible switchy many-vars; do
    for seed in 0 1 2 3; do
        vars=4
        [[ "$shape" == many-vars ]] && vars=40
        "$bin" gen --shape "$shape" --blocks 60 --vars "$vars" --seed "$seed" >"$tmp/g.ssa"
        record "emit-wasm gen $shape seed $seed" "$bin" emit-wasm -o - "$tmp/g.ssa"
    done
done
