"""docs/python.md's Python blocks, run as written, in order, in one
namespace (their `assert`s are the checks; the `# ...` lines show what
they print on this machine's libc), and ssakit's side of the page's
comparison with angr and Miasm (scripts/python-vs-angr.py)."""

import importlib.util
import re
import sys

import ssakit
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


def test_the_comparison_with_angr_and_miasm_asks_ssakit_as_the_page_says(monkeypatch):
    """ssakit's side of scripts/python-vs-angr.py (angr and Miasm are not
    installed here; docs/python.md has the three side by side): at every
    call of `puts`, which reads rdi, pruned SSA names the definitions
    minimal SSA names, every one an instruction of the function (in its
    extent or in the cold fragment it enters) or its entry."""
    spec = importlib.util.spec_from_file_location("python_vs_angr", ROOT / "scripts/python-vs-angr.py")
    script = importlib.util.module_from_spec(spec)
    # No scripts/__pycache__: the tests leave the work tree as it was.
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    spec.loader.exec_module(script)
    libc = "/lib/x86_64-linux-gnu/libc.so.6"
    minimal = script.ssakit_answer(libc, "puts", "rdi")
    pruned = script.ssakit_answer(libc, "puts", "rdi", flavor="pruned")
    f = ssakit.Elf(libc).function("puts")
    start, end = next((s, e) for n, s, e in ssakit.Elf(libc).functions if n == "puts")
    calls = [i["address"] for b in f.blocks for i in f.block(b)["instructions"] if "call" in i["op"]]
    own = {i["address"] for b in f.blocks for i in f.block(b)["instructions"]}
    assert len(calls) >= 3 and minimal.keys() == pruned.keys()
    for at in calls:
        assert minimal[at] == pruned[at] and minimal[at], hex(at)
        assert all(d == "entry" or d in own for d in minimal[at]), hex(at)
    # Most are in its extent; `puts.cold` holds the rest.
    assert sum(d != "entry" and start <= d < end for at in calls for d in minimal[at]) > 0
    assert any(len(minimal[at]) > 1 for at in calls)
