"""docs/python.md's Python blocks, run as written, in order, in one
namespace (their `assert`s are the checks; the `# ...` lines show what
they print on this machine's libc)."""

import re

from conftest import ROOT


def test_the_tour_runs_as_written(capsys):
    text = (ROOT / "docs/python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    namespace: dict = {}
    for k, code in enumerate(blocks):
        exec(compile(code, f"docs/python.md block {k + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "puts" in out and "parameter" in out
