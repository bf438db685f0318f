#!/usr/bin/env bash
# docs/python.md's question (where does the value rdi holds at an address
# come from, on every path) answered by ssakit, angr's ReachingDefinitions
# and Miasm's ReachingDefinitions side by side: lines of code, wall time,
# the answers, where they differ and why (scripts/python-vs-angr.py).
# Arguments: [ELF [FUNCTION [REGISTER]]], default libc's puts and rdi;
# RUNS (default 3) runs per tool, each a fresh process, the median kept.
#
# The three tools go into their own virtual environment,
# target/py-angr-venv (Miasm pins pyparsing 2, angr pulls a hundred
# megabytes of wheels: not the test venv, and not run by .ci/run). angr is
# pinned to 9.2.213, the last release for CPython 3.10 and 3.11 (Debian
# 12's python3 is 3.11), with the versions of pycparser and bitstring it
# imports with; Miasm 0.1.5 has no wheel on PyPI, so pip builds its
# sdist (a C compiler; about 4 minutes on the 2-core machine). ssakit is
# installed with the README's command, in release.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
venv="$target/py-angr-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import angr, miasm" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check --prefer-binary \
        angr==9.2.213 pycparser==3.0 bitstring==4.4.0 miasm==0.1.5 maturin==1.16.0
fi
"$venv/bin/pip" install -q --disable-pip-version-check ./crates/ssakit-py
RUNS="${RUNS:-3}"
exec "$venv/bin/python" scripts/python-vs-angr.py --runs "$RUNS" "$@"
