#!/bin/sh
# Side by side: ssakit-compare built from an earlier revision (default
# b3d4ebd, main before issue 11's IR change) and from the working tree, run
# shape by shape and size by size, alternating, so that both see the same
# machine. Results: DIR/{old,new}-SHAPE-SIZE/results.json, and a Markdown
# table of pruned construction time (best of the repetitions), destruction
# time and peak bytes per instruction on standard output.
# Usage: scripts/before-after.sh [REV] [SIZES] [REPS] [DIR]
set -eu
rev=${1:-b3d4ebd}
sizes=${2:-100000}
reps=${3:-5}
dir=${4:-target/before-after}
top=$(pwd)
mkdir -p "$dir"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$top/target/compare-build}"
old="$dir/old-tree"
[ -d "$old" ] || git worktree add -q --detach "$old" "$rev"
(cd "$old/crates/ssakit-compare" && cargo build --release -q)
cp "$CARGO_TARGET_DIR/release/ssakit-compare" "$dir/cmp-old"
(cd crates/ssakit-compare && cargo build --release -q)
cp "$CARGO_TARGET_DIR/release/ssakit-compare" "$dir/cmp-new"
for size in $(echo "$sizes" | tr , ' '); do
    for shape in random ladder ladder-redundant chain nested-loops irreducible switchy many-vars; do
        for which in old new; do
            "$dir/cmp-$which" --shapes "$shape" --sizes "$size" --vars 16 --reps "$reps" \
                --no-llvm --no-cranelift --limit 60 \
                --sweep-vars 16 --sweep-shapes "$shape" --sweep-size "$size" --out "$dir/$which-$shape-$size" > "$dir/$which-$shape-$size.log" 2>&1
        done
        echo "$shape $size done" >&2
    done
done
python3 scripts/before-after-table.py "$dir"
