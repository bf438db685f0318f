#!/usr/bin/env bash
# Signatures beside angr's (issue 41, item 6; docs/x86.md, "Signatures
# beside angr"): the parameter counts of ssakit's signatures and of
# angr's CompleteCallingConventions, each against DWARF, on the `-g`
# corpus of scripts/x86-signature-truth.sh (zlib compiled by gcc and
# clang at -O0 and -O2, and the x86 fixtures), in one run, with each
# side's wall time. The corpus is built by that script
# (SIGTRUTH_BUILD_ONLY=1: without its comparisons); angr goes into the
# virtual environment of scripts/x86-vs-angr.sh (target/angr-cfg-venv,
# pinned; not run by .ci/run).
#
# Usage: scripts/x86-signature-vs-angr.sh [SSAKIT]   (default target/release/ssakit)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ssakit="${1:-$root/target/release/ssakit}"
[ -x "$ssakit" ] || { echo "error: no ssakit at $ssakit (cargo build --release -p ssakit-cli)" >&2; exit 1; }
SIGTRUTH_BUILD_ONLY=1 "$root/scripts/x86-signature-truth.sh" "$ssakit"
venv=$("$root/scripts/angr-cfg-venv.sh")
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
bins=("$root"/target/sigtruth/bin/libz-* "$root"/target/sigtruth/bin/fixture.c-* "$root"/target/sigtruth/bin/round4.c-*)
"$venv/bin/python" "$root/scripts/x86-signature-vs-angr.py" "$ssakit" "${bins[@]}"
