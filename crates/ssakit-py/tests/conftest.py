"""Shared fixtures: the repository's paths and the `ssakit` CLI the
Python answers are checked against (SSAKIT_BIN, else target/debug/ssakit,
built by scripts/test-python.sh)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "crates/ssakit-x86/tests/fixture"


def cli_path() -> Path:
    p = Path(os.environ.get("SSAKIT_BIN", ROOT / "target/debug/ssakit"))
    assert p.exists(), f"no ssakit CLI at {p} (cargo build -p ssakit-cli, or SSAKIT_BIN)"
    return p


def run_cli(*args: str) -> str:
    out = subprocess.run([str(cli_path()), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def cli_json(*args: str):
    return json.loads(run_cli(*args))


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def fixture_dir() -> Path:
    return FIXTURE
