"""The chapter's running example (examples/seed.ssa) through Python: the
analyses of section 13.2, construction in each flavour with the trace,
verification and destruction, each the same as the CLI's."""

import ssakit
from conftest import ROOT, cli_json, run_cli

SEED = ROOT / "examples/seed.ssa"


def seed():
    return ssakit.parse(SEED.read_text())[0]


def test_construction_prints_what_the_cli_prints():
    for flavor in ["minimal", "semi-pruned", "pruned"]:
        ours = seed().construct(flavor).to_text()
        theirs = run_cli("construct", "--flavor", flavor, str(SEED))
        assert ours == theirs, flavor


def test_analyses_agree_with_analyze_json():
    f = seed()
    doc = cli_json("analyze", "--dom", "--df", "--dj", "--idf", "x", "--live", "--format", "json", str(SEED))
    assert [(r["block"], r["idom"]) for r in doc["dom"]] == f.dominators()
    assert [(r["block"], r["df"]) for r in doc["df"]] == f.frontiers()
    dj = f.dj_graph()
    assert [(e["from"], e["to"]) for e in doc["dj"]["d_edges"]] == dj["d"]
    assert [(e["from"], e["to"]) for e in doc["dj"]["j_edges"]] == dj["j"]
    assert doc["idf"]["idf"] == f.idf("x") == ["A", "D", "E"]
    assert [(r["block"], r["live_in"], r["live_out"]) for r in doc["live"]] == f.liveness()


def test_the_trace_of_x():
    g, trace = seed().construct_traced("x")
    assert g.num_phis == 9
    cli = run_cli("construct", "--trace", "x", str(SEED))
    comments = [l[2:] if l.startswith("# ") else l[1:] for l in cli.splitlines() if l.startswith("#")]
    assert trace.strip("\n").splitlines() == [c for c in comments][: len(trace.strip("\n").splitlines())]
    assert "Defs(x) = {B, C, D}" in trace


def test_properties_and_destruction(tmp_path):
    minimal = seed().construct("minimal")
    pruned = seed().construct("pruned")
    r = minimal.verify()
    assert (r["phis"], r["minimal"], r["pruned"]) == (9, True, False)
    assert pruned.verify()["pruned"]
    out = pruned.destruct()
    assert out.num_phis == 0
    path = tmp_path / "pruned.ssa"
    path.write_text(pruned.to_text())
    assert out.to_text() == run_cli("destruct", str(path))
