"""x86-64 from Python: every function of /usr/bin/ls lifted and
constructed with the phi counts of `ssakit x86 stats`, and a def-use walk
of the fixture's functions checked against `ssakit x86 lift --construct
--format json`, the document the emulator oracle checks against the CPU
(scripts/x86-emu-oracle.py: every read names the definition whose value
the CPU read; docs/x86.md)."""

import pytest

import ssakit
from conftest import FIXTURE, ROOT, cli_json

LS = "/usr/bin/ls"
FLAVORS = ["minimal", "semi-pruned", "pruned"]


def test_every_function_of_ls_has_the_phis_of_x86_stats():
    stats = cli_json("x86", "stats", LS, "--format", "json")
    assert not stats["failures"]
    want = {int(f["address"], 16): f["phis"] for f in stats["functions"]}
    elf = ssakit.Elf(LS)
    assert len(elf) == len(want) > 100
    for flavor in FLAVORS:
        key = flavor
        got = {f.address: f.phi_counts() for f in elf.lift(construct=flavor)}
        assert got.keys() == want.keys()
        for a, (registers, flags, vectors) in got.items():
            w = want[a][key]
            assert (registers, flags, vectors) == (w["registers"], w["flags"], w["vectors"]), (flavor, hex(a))



def test_every_function_of_ls_has_the_other_figures_of_x86_stats():
    """Blocks, machine instructions, jump tables and the copies destruction
    leaves (pruned SSA, destructed with the default options)."""
    stats = cli_json("x86", "stats", LS, "--format", "json")
    want = {int(f["address"], 16): f for f in stats["functions"]}
    for f in ssakit.Elf(LS).lift(construct="pruned"):
        w = want[f.address]
        got = (len(f.blocks), f.machine_instructions, f.jump_tables, f.destruct().num_copies, f.found,
               f.fragment_instructions)
        assert got == (w["blocks"], w["instructions"], w["jump_tables"], w["copies_after_destruct"], w["found"],
                       w.get("fragment_instructions", 0)), hex(f.address)
    assert sum(f["jump_tables"] for f in want.values()) > 0
    # Discovery found ls's start-up code; without it, no origin.
    assert {"fde", "entry"} <= {f["found"] for f in want.values()}
    assert ssakit.Elf(LS, discover=False).lift()[0].found is None
    # ls's `.cold` fragments: some functions decode code in them.
    assert sum(f.get("fragment_instructions", 0) for f in want.values()) > 0
    # Coalescing leaves no copy in ls: num_copies counts those of the
    # naive destruction, as the instructions listed say.
    f = ssakit.Elf(LS).function(max(want, key=lambda a: want[a]["phis"]["pruned"]["registers"]), construct="pruned")
    naive = f.destruct(coalesce=False)
    listed = sum(i["op"] == "copy" for b in naive.blocks for i in naive.block(b)["instructions"])
    assert naive.num_copies == listed > 0
    text = ssakit.parse((ROOT / "examples/seed.ssa").read_text())[0]
    assert text.machine_instructions is None and text.jump_tables is None and text.found is None


# `cc` and `sel` are the IR's, not the machine's: the oracle does not
# compare them either.
IR_ONLY = {"cc", "sel"}


@pytest.mark.parametrize("binary", ["fixture", "fixture-nopie"])
@pytest.mark.parametrize("flavor", ["pruned", "minimal"])
def test_def_use_walk_agrees_with_the_oracle_document(binary, flavor):
    path = str(FIXTURE / binary)
    doc = cli_json("x86", "lift", path, "--construct", "--flavor", flavor, "--format", "json")
    elf = ssakit.Elf(path)
    by_address = {f.address: f for f in elf.lift(construct=flavor)}
    reads = checked_defs = 0
    for fd in doc["functions"]:
        f = by_address[int(fd["address"], 16)]
        defined_at = {}
        for b in fd["blocks"]:
            for phi in b["phis"]:
                d = f.definition(phi["def"])
                assert d["kind"] == "phi" and d["block"] == b["label"]
                assert sorted(f.phis(b["label"])[k]["value"] for k in range(len(b["phis"]))) == sorted(
                    p["def"] for p in b["phis"]
                )
                for pred, value in phi["args"]:
                    # The value a phi takes from pred is what reaches
                    # pred's end.
                    if phi["register"] not in IR_ONLY and isinstance(value, str):
                        assert f.reaching(phi["register"], at=pred) == value
                        assert any(u["kind"] == "phi" and u["pred"] == pred for u in f.uses(value))
                        reads += 1
            for ins in b["instructions"]:
                if ins["address"] is None:
                    continue
                a = int(ins["address"], 16)
                for reg, value in ins["reads"]:
                    if reg is None or reg in IR_ONLY:
                        continue
                    # The version of reg that reaches the instruction is
                    # the one it reads; it lists this read among its uses.
                    assert f.reaching(reg, at=a) == value, (fd["name"], hex(a), reg)
                    assert any(u["address"] == a for u in f.uses(value)), (fd["name"], hex(a), value)
                    reads += 1
                for reg, value in ins["writes"]:
                    if reg in IR_ONLY:
                        continue
                    defined_at[value] = a
            t = b["terminator"]
            if t["address"] is not None:
                for reg, value in t["reads"]:
                    if reg is None or reg in IR_ONLY:
                        continue
                    assert f.reaching(reg, at=b["label"]) == value
                    reads += 1
        for value, a in defined_at.items():
            d = f.definition(value)
            assert d["kind"] == "inst" and d["address"] == a, (fd["name"], value)
            checked_defs += 1
    assert reads > 500 and checked_defs > 500, (reads, checked_defs)


def test_reaching_rdi_in_sum_is_the_parameter_until_written():
    f = ssakit.Elf(str(FIXTURE / "fixture")).function("sum", construct="pruned")
    assert f.reaching("rdi", at=f.address) == "rdi"
    assert f.definition("rdi") == {
        "value": "rdi", "variable": "rdi", "block": f.entry, "kind": "param",
        "index": f.params.index("rdi"), "address": None, "op": None,
    }


def test_symbols_from_a_debug_file_name_a_stripped_binary():
    stripped = ssakit.Elf(str(FIXTURE / "fixture-stripped"))
    named = ssakit.Elf(str(FIXTURE / "fixture-stripped"), symbols=str(FIXTURE / "fixture"))
    assert "sum" not in [n for n, _, _ in stripped.functions]
    assert "sum" in [n for n, _, _ in named.functions]


def test_passes_and_destruction_drop_the_addresses_construction_keeps():
    f = ssakit.Elf(str(FIXTURE / "fixture")).function("sum", construct="pruned")
    first = f.block(f.entry)["instructions"][0]["address"]
    assert first == f.address
    for g in [f.opt("copy-prop,dce"), f.destruct()]:
        # They renumber instructions (Function::compact): no stale address.
        assert g.address == f.address
        assert all(i["address"] is None for b in g.blocks for i in g.block(b)["instructions"])
        with pytest.raises(ValueError):
            g.reaching("rdi", at=f.address)
