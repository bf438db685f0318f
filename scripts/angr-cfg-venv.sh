#!/usr/bin/env bash
# angr 9.2.213 from its wheel in its own virtual environment,
# ${CARGO_TARGET_DIR:-target}/angr-cfg-venv (a hundred megabytes of
# wheels; created once, pinned as in scripts/python-vs-angr.sh), for
# scripts/x86-vs-angr.sh and scripts/x86-signature-vs-angr.sh. Prints the
# environment's directory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${CARGO_TARGET_DIR:-$root/target}/angr-cfg-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import angr" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check --prefer-binary \
        angr==9.2.213 pycparser==3.0 bitstring==4.4.0 >&2
fi
echo "$venv"
