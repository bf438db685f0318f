#!/usr/bin/env bash
# The Python package's tests (crates/ssakit-py, docs/python.md): a fresh
# virtual environment under target/, maturin, pytest and networkx in it,
# the package installed with the README's one command
# (`pip install ./crates/ssakit-py`), then pytest on
# crates/ssakit-py/tests (the tour of docs/python.md included). The
# extension is built in the dev profile (MATURIN_PEP517_ARGS; not `test`,
# which makes a test harness of the library) unless SSAKIT_PY_PROFILE says
# otherwise (`release` is pip's default); the tests compare with the CLI,
# built here in the test profile, which `cargo test` built already in
# .ci/run (or SSAKIT_BIN).
#
# With SSAKIT_RAY=1, Ray Data from its wheels goes into the environment
# too, and tests/test_ray.py (scripts/ray-stats.py in local mode against
# `x86 stats`) must run rather than skip: the wheels alone took 2 to 3.3
# minutes to install here (docs/scale.md); .ci/run sets it.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
venv="$target/py-venv"
profile="${SSAKIT_PY_PROFILE:-dev}"
if ! python3 -m venv --help >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
fi
rm -rf "$venv"
python3 -m venv "$venv"
pip=("$venv/bin/pip" install -q --disable-pip-version-check)
"${pip[@]}" maturin==1.16.0 pytest==9.2.0 networkx==3.6.1
if [ "${SSAKIT_RAY:-}" = 1 ]; then
    "${pip[@]}" "ray[data]==2.60.0"
    export SSAKIT_REQUIRE_RAY=1
fi
if [ -z "${SSAKIT_BIN:-}" ]; then
    cargo build -q --profile test -p ssakit-cli
    export SSAKIT_BIN="$PWD/$target/debug/ssakit"
fi
# The README's command; pip builds the extension through maturin.
MATURIN_PEP517_ARGS="--profile $profile" "${pip[@]}" ./crates/ssakit-py
# Run from outside the source tree, so that `import ssakit` is the
# installed package.
cd crates/ssakit-py/tests
"../../../$venv/bin/python" -m pytest -q -p no:cacheprovider .
