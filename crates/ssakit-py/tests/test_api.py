"""The rest of the surface: building a function, Bril in and out, the
passes, WebAssembly lifted and optimised, JSON and networkx edges."""

import json

import ssakit
from conftest import ROOT, run_cli


def built():
    b = ssakit.Builder("count", ["n"])
    b.block("e")
    b.copy("i", 0)
    b.jump("h")
    b.block("h")
    b.binary("c", "<", "i", "n")
    b.branch("c", "body", "x")
    b.block("body")
    b.binary("i", "+", "i", 1)
    b.print(["i"])
    b.jump("h")
    b.block("x")
    b.ret("i")
    return b.finish()


def test_builder_makes_what_the_parser_makes():
    f = built()
    assert f.blocks == ["e", "h", "body", "x"]
    g = f.construct("pruned")
    assert [p["value"] for p in g.phis("h")] == ["i2"]
    assert g.phis("h")[0]["operands"] == [("e", "i1"), ("body", "i3")]
    assert g.reaching("i", at="body") == "i3"
    assert g.reaching("i", at=("body", 0)) == "i2"
    assert ssakit.parse(f.to_text())[0].to_text() == f.to_text()


def test_builder_errors_name_the_statement():
    b = ssakit.Builder("f")
    b.block("e")
    b.jump("nowhere")
    try:
        b.finish()
    except ssakit.ParseError as e:
        assert e.line == 3 and "nowhere" in e.text
    else:
        raise AssertionError("no error")


def test_passes_and_destruction_options():
    g = built().construct("minimal")
    o = g.opt("copy-prop,dce")
    assert o.verify()["phis"] <= g.verify()["phis"]
    assert o.opt(["const-prop"]).num_insts <= o.num_insts
    for kw in [{}, {"split": False}, {"coalesce": False}]:
        assert g.destruct(**kw).num_phis == 0
    assert g.destruct(conventional=True).num_phis == 0


def test_def_use_and_edges():
    g = built().construct("pruned")
    assert g.definition("i3")["kind"] == "inst"
    assert g.definition("i3")["op"] == "add"
    kinds = sorted(u["kind"] for u in g.uses("i2"))
    assert kinds == ["operand", "operand", "term"]
    assert ("i2", "i3") in g.def_use_edges() and ("i3", "i2") in g.def_use_edges()
    assert set(g.cfg_edges()) == {("e", "h"), ("h", "body"), ("h", "x"), ("body", "h")}
    doc = json.loads(g.to_json())
    assert [b["label"] for b in doc["blocks"]] == g.blocks
    try:
        import networkx as nx
    except ImportError:
        return
    cfg = nx.DiGraph(g.cfg_edges())
    assert nx.has_path(cfg, "e", "x")
    du = nx.DiGraph(g.def_use_edges())
    assert "i1" in nx.ancestors(du, "i3")


def test_bril_round_trip():
    paths = sorted((ROOT / "examples/bril").glob("*.bril"))
    assert paths
    text = paths[0].read_text()
    fs = ssakit.parse_bril(text)
    out = ssakit.to_bril(fs)
    assert ssakit.to_text(ssakit.parse_bril(out)) == ssakit.to_text(fs)
    as_json = ssakit.to_bril(fs, syntax="json")
    assert json.loads(as_json)["functions"]
    assert ssakit.to_text(ssakit.parse_bril(as_json)) == ssakit.to_text(fs)


def test_wasm_lift_and_opt(tmp_path):
    wat = ROOT / "examples/wasm_tour.wat"
    fs = ssakit.lift_wasm(wat)
    assert ssakit.to_text(fs) == run_cli("wasm", "lift", str(wat))
    ssa = ssakit.lift_wasm(wat.read_bytes(), construct="pruned")
    assert all(f.verify()["pruned"] for f in ssa)
    out = ssakit.wasm_opt(wat.read_bytes())
    assert out[:4] == b"\x00asm"
    path = tmp_path / "o.wasm"
    run_cli("wasm", "opt", str(wat), "-o", str(path))
    assert out == path.read_bytes()
    assert [f.wasm_index for f in ssakit.lift_wasm(out)] == [f.wasm_index for f in fs]


# (module (func (param i32) (result i32) local.get 0 i32.const 1 i32.add))
ADD_ONE = bytes.fromhex("0061736d01000000" "01060160017f017f" "03020100" "0a0901070020004101 6a0b".replace(" ", ""))


def test_wasm_instructions_carry_their_byte_offsets():
    f = ssakit.lift_wasm(ADD_ONE, construct="pruned")[0]
    (add,) = f.block(f.entry)["instructions"]
    assert add["op"] == "i32.add" and ADD_ONE[add["address"]] == 0x6A
    assert ADD_ONE[f.block(f.entry)["terminator"]["address"]] == 0x0B  # end
    assert f.reaching("l0", at=add["address"]) == "l0"
    assert [u["address"] for u in f.uses("l0")] == [add["address"]]
    assert f.definition(add["writes"][0])["address"] == add["address"]
