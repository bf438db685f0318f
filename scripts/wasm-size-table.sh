#!/usr/bin/env bash
# The code-section size and locals of `ssakit wasm opt` on the corpus, per
# module and destruction mode, with and without the passes: a Markdown
# table (docs/wasm.md, "Code size"). Needs scripts/fetch-wasm-corpus.sh
# first and a release build (`cargo build --release -p ssakit-cli`).
# Usage: scripts/wasm-size-table.sh [MODULE.wasm ...]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/ssakit
out=target/wasm-size-table
mkdir -p "$out"
mods=("$@")
if [[ ${#mods[@]} -eq 0 ]]; then
    mods=(target/wasm-corpus/sql-wasm.wasm target/wasm-corpus/brotli_wasm_bg.wasm target/wasm-corpus/esbuild.wasm)
fi
modes=("" "--no-split" "--no-coalesce" "--no-split --no-coalesce" "--conventional")
echo "| module | mode | passes | code bytes before -> after | ratio | locals before -> after | time |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: |"
for m in "${mods[@]}"; do
    for mode in "${modes[@]}"; do
        for passes in "" "--passes copy-prop,const-prop,dce"; do
            # shellcheck disable=SC2086
            start=$(date +%s.%N)
            if stats=$("$bin" wasm opt $mode $passes --stats "$m" -o "$out/out.wasm" 2>&1); then
                end=$(date +%s.%N)
                # "...: N functions; code section A -> B bytes; locals C -> D"
                read -r a b c d < <(sed -E 's/.*code section ([0-9]+) -> ([0-9]+) bytes; locals ([0-9]+) -> ([0-9]+).*/\1 \2 \3 \4/' <<<"$stats")
                ratio=$(python3 -c "print(f'{$b/$a:.4f}')")
                t=$(python3 -c "print(f'{$end-$start:.2f} s')")
                echo "| $(basename "$m") | ${mode:-default} | ${passes:+yes} | $a -> $b | $ratio | $c -> $d | $t |"
            else
                echo "| $(basename "$m") | ${mode:-default} | ${passes:+yes} | fails: $(tail -n 1 <<<"$stats") | | | |"
            fi
        done
    done
done
