#!/usr/bin/env bash
# The speed of ssakit from Python against the CLI on `x86 stats` work
# (docs/python.md, "What Python costs"): every function of a binary
# (default libpython) lifted and constructed, its phi counts read. Both
# sides are release builds run as fresh processes, the median of RUNS
# (default 5) wall times each:
#   one flavour:   `ssakit x86 stats --only-flavor --flavor pruned --no-destruct`
#                  against `Elf(path).lift(construct="pruned")` and
#                  `phi_counts()` of every function;
#   all three:     `ssakit x86 stats` (three flavours, verified, pruned
#                  destructed) against three `lift(construct=...)`.
# The phi totals of both sides are printed and must agree.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0}"
runs="${RUNS:-5}"
target="${CARGO_TARGET_DIR:-target}"
venv="$target/py-venv-release"
cargo build --release -q -p ssakit-cli
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check maturin==1.16.0
"$venv/bin/pip" install -q --disable-pip-version-check ./crates/ssakit-py
"$venv/bin/python" - "$bin" "$PWD/$target/release/ssakit" "$runs" "$venv/bin/python" <<'PY'
import json, statistics, subprocess, sys, time

binary, cli, runs, py = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def timed(cmd):
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t, out

def median(cmd):
    times, out = [], None
    for _ in range(runs):
        t, out = timed(cmd)
        times.append(t)
    return statistics.median(times), out

PY_WORK = """
import sys, ssakit
e = ssakit.Elf(sys.argv[1])
total = 0
for flavor in sys.argv[2:]:
    total += sum(sum(f.phi_counts()) for f in e.lift(construct=flavor))
print(total)
"""
rows = []
for label, cli_args, flavors in [
    ("one flavour (pruned)", ["--only-flavor", "--flavor", "pruned", "--no-destruct"], ["pruned"]),
    ("three flavours", [], ["minimal", "semi-pruned", "pruned"]),
]:
    tc, out = median([cli, "x86", "stats", binary, "--format", "json", *cli_args])
    phis = json.loads(out)["total"]["phis"]
    cli_total = sum(sum(v.values()) for k, v in phis.items() if v and k in flavors)
    tp, out = median([py, "-c", PY_WORK, binary, *flavors])
    assert int(out) == cli_total, (label, int(out), cli_total)
    rows.append((label, tc, tp))
    print(f"{label}: CLI {tc:.3f} s, Python {tp:.3f} s, ratio {tp / tc:.2f} (phis {cli_total})")
PY
