#!/usr/bin/env python3
"""Ratios of two ssakit-compare runs side by side (docs/performance.md).

Usage: scripts/compare-runs.py BEFORE/results.json NOW/results.json

One row per (shape, variables, size) present in both runs, each ratio
taken within one run (milliseconds of two runs on a shared machine are not
comparable; ratios are): ns per instruction of pruned construction, LLVM's
PromotePass over pruned construction, Cranelift's builder (better sealing
mode) over ssakit's builder plus construction, pruned construction over
clone+rewrite, destruction (split, coalescing) over pruned construction,
and the peak bytes of pruned construction over the input function's.
"""
import json
import sys


def load(path):
    rows = json.load(open(path))["rows"]
    return {(r["shape"], r["vars"], size_label(r["insts"])): r for r in rows}


def size_label(n):
    for label, k in (("10k", 1e4), ("100k", 1e5), ("1M", 1e6)):
        if 0.5 * k <= n < 5 * k:
            return label
    return str(n)


def ratios(r):
    pruned = r["construct"]["pruned"]["total_s"]
    cl = [x for x in (r.get("cranelift_end"), r.get("cranelift_early")) if isinstance(x, (int, float))]
    build = r.get("ssakit_build_s")
    llvm = r.get("llvm")
    return {
        "ns": f"{pruned / r['insts'] * 1e9:.0f}",
        # Not a number when LLVM was skipped or timed out.
        "llvm": f"{llvm / pruned:.1f}" if isinstance(llvm, (int, float)) else "–",
        "cl": f"{min(cl) / build:.2f}" if cl and build else "–",
        "copy": f"{pruned / r['copy_s']:.1f}",
        "destr": f"{r['destruct']['split'] / pruned:.2f}",
        "peak": f"{r['peak_bytes'] / r['input_bytes']:.2f}",
    }


def main():
    before, now = load(sys.argv[1]), load(sys.argv[2])
    print("| shape | vars | insts | ns/inst before → now | LLVM ÷ pruned | Cranelift ÷ build "
          "| pruned ÷ clone+rewrite | destruct ÷ pruned | peak ÷ input |")
    print("|---|---:|---|---|---|---|---|---|---|")
    for key, r in now.items():
        if key not in before:
            continue
        a, b = ratios(before[key]), ratios(r)
        cells = " | ".join(f"{a[c]} → {b[c]}" for c in ("ns", "llvm", "cl", "copy", "destr", "peak"))
        print(f"| {key[0]} | {key[1]} | {key[2]} | {cells} |")


if __name__ == "__main__":
    main()
