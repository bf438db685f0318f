#!/usr/bin/env bash
# The per-binary job of `ssakit x86 stats` on Ray Data
# (scripts/ray-stats.py, docs/scale.md): one task per binary, one JSON line
# per function. Arguments are ray-stats.py's: [--address ADDR]
# [--cpus-per-task N] [--output DIR] [--paths-from FILE] [PATH ...].
#
# It runs in a virtual environment (SSAKIT_RAY_VENV, default
# target/py-ray-venv) that it makes the first time: Ray Data from its
# wheels (pinned) and the package with the README's command (release).
# On a cluster, every node needs the same two installs (docs/scale.md).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
venv="${SSAKIT_RAY_VENV:-$target/py-ray-venv}"
pip=("$venv/bin/pip" install -q --disable-pip-version-check)
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import ray.data" 2>/dev/null; then
    "${pip[@]}" "ray[data]==2.60.0"
fi
if ! "$venv/bin/python" -c "import ssakit" 2>/dev/null; then
    "${pip[@]}" maturin==1.16.0
    "${pip[@]}" ./crates/ssakit-py
fi
exec "$venv/bin/python" scripts/ray-stats.py "$@"
