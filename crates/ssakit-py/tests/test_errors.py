"""Bad input raises the right exception, with its kind and location,
never a crash of the interpreter."""

import pytest

import ssakit
from conftest import FIXTURE


def test_parse_error_has_line_and_column():
    with pytest.raises(ssakit.ParseError) as e:
        ssakit.parse("function f() {\ne:\n    x = 1 +\n    ret x\n}\n")
    assert (e.value.line, e.value.column, e.value.kind) == (3, 12, "parse")
    assert isinstance(e.value, ssakit.SsakitError)


def test_bril_error_is_a_parse_error():
    with pytest.raises(ssakit.ParseError):
        ssakit.parse_bril("@main {\n  v: int = const;\n}\n")


def test_elf_error_has_the_byte_offset(tmp_path):
    bad = tmp_path / "bad"
    data = bytearray((FIXTURE / "fixture").read_bytes())
    bad.write_bytes(b"\x7fELF" + bytes(12))
    with pytest.raises(ssakit.ElfError) as e:
        ssakit.Elf(bad)
    assert e.value.offset is not None and e.value.kind == "elf"
    not_elf = tmp_path / "text"
    not_elf.write_text("hello")
    with pytest.raises(ssakit.ElfError) as e:
        ssakit.Elf(not_elf)
    assert e.value.offset == 0 or e.value.offset == 4
    with pytest.raises(OSError):
        ssakit.Elf(tmp_path / "absent")
    assert len(data) > 0


def test_wasm_error_has_offset_and_function():
    with pytest.raises(ssakit.WasmError) as e:
        ssakit.lift_wasm(b"(module (func (result i32) i64.const 1))")
    assert e.value.function == 0 and e.value.offset is not None
    with pytest.raises(ssakit.WasmError) as e:
        ssakit.lift_wasm(b"\x00asm\x01\x00\x00\x00\x01\xff")
    assert e.value.offset is not None


def test_not_ssa_is_an_ir_error():
    f = ssakit.parse("function f() {\ne:\n    x = 1\n    x = 2\n    ret x\n}\n")[0]
    with pytest.raises(ssakit.IrError) as e:
        f.definition("x")
    assert e.value.kind == "input" and e.value.function == "f"
    assert "assigned more than once" in str(e.value)
    with pytest.raises(ssakit.IrError) as e:
        f.destruct()
    assert e.value.kind == "not-ssa"


def test_ill_typed_input_is_refused_before_construction():
    src = "operator i32.add pure\nfunction f(n) {\ne:\n    x: i32 = i32.add(n, n)\n    ret x\n}\n"
    f = ssakit.parse(src)[0]
    for construct in (lambda: f.construct("pruned"), lambda: f.construct_traced("x")):
        with pytest.raises(ssakit.IrError) as e:
            construct()
        assert e.value.kind == "input" and e.value.function == "f"
        assert "`i32.add` operand 1 is a `i64`, not i32" in str(e.value)


def test_unknown_names_and_options():
    f = ssakit.parse("function f(a) {\ne:\n    ret a\n}\n")[0]
    with pytest.raises(KeyError):
        f.uses("nope")
    with pytest.raises(KeyError):
        f.reaching("a", at="nope")
    with pytest.raises(ValueError):
        f.reaching("a", at=0x1000)  # not lifted: no addresses
    with pytest.raises(ValueError):
        f.construct("maximal")
    with pytest.raises(ValueError):
        f.opt("no-such-pass")
    elf = ssakit.Elf(FIXTURE / "fixture")
    with pytest.raises(KeyError):
        elf.function("no_such_function")
    with pytest.raises(KeyError):
        elf.function("sum", construct="pruned").reaching("rdi", at=1)
