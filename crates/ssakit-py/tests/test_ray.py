"""scripts/ray-stats.py, the per-binary job on Ray Data (docs/scale.md),
in Ray's local mode on a handful of binaries: every function's figures
are those of `ssakit x86 stats --format json` (its records without the
times), and a file that is no ELF is a line with the error, not a failed
job. Ray comes from its wheel, installed into the test environment by
scripts/test-python.sh; without it the test skips, unless
SSAKIT_REQUIRE_RAY is set."""

import json
import os
import subprocess
import sys
from collections import defaultdict

import pytest

from conftest import FIXTURE, ROOT, cli_json

# `eh` (C++) has calls covered by landing pads.
BINARIES = [str(FIXTURE / n) for n in ("fixture", "fixture-nopie", "eh")] + ["/usr/bin/true", "/usr/bin/ls"]


def test_the_ray_job_gives_the_figures_of_x86_stats(tmp_path):
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("SSAKIT_REQUIRE_RAY"):
            raise
        pytest.skip("Ray is not installed (scripts/test-python.sh installs it)")
    not_elf = tmp_path / "not-an-elf"
    not_elf.write_bytes(b"#!/bin/sh\nexit 0\n")
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts/ray-stats.py"), *BINARIES, str(not_elf)],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    lines = defaultdict(list)
    for text in out.stdout.splitlines():
        line = json.loads(text)
        lines[line.pop("binary")].append(line)
    assert sorted(lines) == sorted(BINARIES + [str(not_elf)])
    for binary in BINARIES:
        stats = cli_json("x86", "stats", binary, "--format", "json")
        want = {f["address"]: {k: v for k, v in f.items() if k != "times"} for f in stats["functions"]}
        want.update({f["address"]: f["name"] for f in stats["failures"]})
        got = {}
        for line in lines[binary]:
            error = line.pop("error")
            # The CLI leaves `fragment_instructions` out when 0; Ray Data's
            # schema, unified over every line, gives those lines a null.
            if line.get("fragment_instructions", 0) is None:
                del line["fragment_instructions"]
            got[line["address"]] = line["name"] if error else line
        assert len(got) == len(lines[binary]) == len(want) > 0, binary
        assert got == want, binary
    [bad] = lines[str(not_elf)]
    assert bad["error"].startswith("ElfError") and bad["address"] is None
