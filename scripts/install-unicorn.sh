#!/usr/bin/env bash
# Installs the Unicorn emulator (the `unicorn` wheel from PyPI, pinned) in
# a virtual environment under target/, for the emulator oracle of issue 29
# (scripts/x86-emu-oracle.py, crates/ssakit-cli/tests/x86_emu.rs; see
# docs/x86.md). Prints the environment's python. Skipped when present.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${CARGO_TARGET_DIR:-target}/unicorn-venv"
py="$venv/bin/python"
if ! "$py" -c 'import unicorn' 2>/dev/null; then
    if ! python3 -m venv --help >/dev/null 2>&1; then
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    fi
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check unicorn==2.1.4
fi
"$py" -c 'import unicorn' || { echo "error: unicorn did not install in $venv" >&2; exit 1; }
echo "$(cd "$(dirname "$py")" && pwd)/python"
