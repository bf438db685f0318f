#!/bin/sh
# Corpus throughput: the functions of one module processed with 1 and with 2
# rayon threads by `ssakit construct`, `opt` and `destruct` (release build).
# Prints, per command and thread count, the parallel loop's wall time
# (`--time-passes`, parse and print excluded) and the whole command's
# elapsed time, for REPS runs each (medians are the reader's job).
# Usage: scripts/corpus-speedup.sh [FUNCTIONS] [BLOCKS] [REPS]
set -eu
n=${1:-64}
blocks=${2:-8000}
reps=${3:-3}
cargo build --release -q -p ssakit-cli
s=target/release/ssakit
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
    case $((i % 8)) in
        0) shape=random ;; 1) shape=ladder ;; 2) shape=irreducible ;; 3) shape=nested-loops ;;
        4) shape=many-vars ;; 5) shape=switchy ;; 6) shape=chain ;; *) shape=ladder-redundant ;;
    esac
    $s gen --shape "$shape" --blocks "$blocks" --vars 16 --seed "$i" | sed "s/^function main(/function f$i(/" >> "$dir/mod.ssa"
    echo >> "$dir/mod.ssa"
    i=$((i + 1))
done
$s construct --flavor pruned "$dir/mod.ssa" > "$dir/mod_ssa.ssa"
echo "module: $n functions, $(wc -c < "$dir/mod.ssa") bytes; SSA $(wc -c < "$dir/mod_ssa.ssa") bytes"
for r in $(seq "$reps"); do
    for t in 1 2; do
        for cmd in "construct --flavor pruned $dir/mod.ssa" \
                   "opt --passes copy-prop,const-prop,dce $dir/mod_ssa.ssa" \
                   "destruct $dir/mod_ssa.ssa"; do
            start=$(date +%s.%N)
            wall=$(RAYON_NUM_THREADS=$t $s $cmd --time-passes 2>&1 >/dev/null | sed -n 's/^wall: //p')
            end=$(date +%s.%N)
            echo "threads=$t ${cmd%% *} loop=$wall elapsed=$(awk "BEGIN { printf \"%.3f\", $end - $start }")"
        done
    done
done
