"""ssakit: SSA construction and destruction after the textbook algorithms,
on `.ssa` text, Bril, WebAssembly and x86-64 ELF binaries (docs/python.md)."""

from os import PathLike
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, TypedDict, Union

__version__: str

Operand = Union[str, int, None]
"""A value's printed name, an integer constant, or None for `undef`."""
Flavor = Literal["minimal", "semi-pruned", "pruned"]
At = Union[int, str, Tuple[str, int]]
"""A program point: a machine address (lifted x86), a block label (its
end), or (block label, index of an ordinary instruction) (just before it)."""

class Definition(TypedDict, total=False):
    kind: Literal["param", "phi", "inst"]
    value: str
    variable: str
    block: str
    index: int
    result: int
    address: Optional[int]
    op: Optional[str]

class Use(TypedDict, total=False):
    kind: Literal["operand", "phi", "term"]
    block: str
    index: Optional[int]
    operand: int
    pred: str
    address: Optional[int]
    op: str
    defines: List[str]

class Phi(TypedDict):
    value: str
    variable: str
    block: str
    operands: List[Tuple[str, Operand]]

class Instruction(TypedDict, total=False):
    op: str
    immediates: List[int]
    reads: List[Operand]
    writes: List[str]
    address: Optional[int]

class TerminatorInfo(TypedDict):
    kind: Literal["jump", "branch", "switch", "ret", "unreachable"]
    reads: List[Operand]
    successors: List[str]
    address: Optional[int]

class BlockInfo(TypedDict):
    label: str
    address: Optional[int]
    phis: List[Phi]
    instructions: List[Instruction]
    terminator: TerminatorInfo

class Report(TypedDict):
    phis: int
    minimal: bool
    pruned: bool
    conventional: bool
    strict: bool
    undef_operands: int
    report: str

class SsakitError(Exception):
    kind: str
    message: str

class ParseError(SsakitError):
    line: Optional[int]
    column: Optional[int]
    offset: Optional[int]

class IrError(SsakitError):
    function: Optional[str]
    block: Optional[str]
    errors: List[str]

class ElfError(SsakitError):
    offset: Optional[int]

class WasmError(SsakitError):
    offset: Optional[int]
    function: Optional[int]

class Function:
    """One function, immutable: every pass returns a new one."""

    @property
    def name(self) -> str: ...
    @property
    def blocks(self) -> List[str]: ...
    @property
    def entry(self) -> str: ...
    @property
    def params(self) -> List[str]: ...
    @property
    def address(self) -> Optional[int]: ...
    @property
    def wasm_index(self) -> Optional[int]: ...
    @property
    def num_phis(self) -> int: ...
    @property
    def num_insts(self) -> int: ...
    @property
    def num_copies(self) -> int:
        """`copy` instructions, as `ssakit x86 stats` counts what destruction leaves."""
    @property
    def machine_instructions(self) -> Optional[int]:
        """Machine instructions decoded (lifted x86 code), else None."""
    @property
    def jump_tables(self) -> Optional[int]:
        """Jump tables resolved (lifted x86 code), else None."""
    @property
    def invokes(self) -> Optional[int]:
        """Calls covered by a landing pad (lifted x86 code), else None."""
    @property
    def lost(self) -> Optional[List[Dict[str, Any]]]:
        """The ranges of the extent never decoded (lifted x86 code), else None:
        `start`, `end` (one past), `instructions`, `reason`
        (`unresolved-jump`, `data-in-code`, `unreachable`), `jump` (or None)."""
    def phi_counts(self) -> Tuple[int, int, int]:
        """(registers, flags, vectors), as `ssakit x86 stats` counts them."""
    def to_text(self) -> str: ...
    def dominators(self) -> List[Tuple[str, Optional[str]]]: ...
    def dj_graph(self) -> Dict[str, List[Tuple[str, str]]]: ...
    def frontiers(self) -> List[Tuple[str, List[str]]]: ...
    def idf(self, var: str) -> List[str]: ...
    def liveness(self) -> List[Tuple[str, List[str], List[str]]]: ...
    def construct(
        self,
        flavor: Flavor = "minimal",
        *,
        undef: Literal["operand", "entry", "local"] = "operand",
        renaming: Literal["reaching-def", "stacks"] = "reaching-def",
        idf: Literal["linear", "worklist"] = "linear",
    ) -> "Function": ...
    def construct_traced(
        self,
        var: str,
        flavor: Flavor = "minimal",
        *,
        undef: Literal["operand", "entry", "local"] = "operand",
        renaming: Literal["reaching-def", "stacks"] = "reaching-def",
        idf: Literal["linear", "worklist"] = "linear",
    ) -> Tuple["Function", str]: ...
    def opt(self, passes: Union[str, Sequence[str]]) -> "Function": ...
    def destruct(self, *, split: bool = True, coalesce: bool = True, conventional: bool = False) -> "Function": ...
    def verify(self) -> Report: ...
    def definition(self, value: str) -> Optional[Definition]: ...
    def uses(self, value: str) -> List[Use]: ...
    def reaching(self, var: str, at: At) -> Optional[str]: ...
    def phis(self, block: Optional[str] = None) -> List[Phi]: ...
    def block(self, label: str) -> BlockInfo: ...
    def cfg_edges(self) -> List[Tuple[str, str]]: ...
    def def_use_edges(self) -> List[Tuple[str, str]]: ...
    def to_json(self) -> str: ...

class Builder:
    def __init__(self, name: str, params: Sequence[str] = ...) -> None: ...
    def block(self, label: str) -> None: ...
    def copy(self, dst: str, src: Operand) -> None: ...
    def binary(self, dst: str, op: str, lhs: Operand, rhs: Operand) -> None: ...
    def unary(self, dst: str, op: str, arg: Operand) -> None: ...
    def call(self, callee: str, args: Sequence[Operand], results: Sequence[str] = ...) -> None: ...
    def print(self, args: Sequence[Operand]) -> None: ...
    def phi(self, dst: str, args: Dict[str, Operand]) -> None: ...
    def jump(self, to: str) -> None: ...
    def branch(self, cond: Operand, then: str, else_: str) -> None: ...
    def switch(self, value: Operand, default: str, targets: Sequence[str]) -> None: ...
    def ret(self, *values: Operand) -> None: ...
    def unreachable(self) -> None: ...
    @property
    def text(self) -> str: ...
    def finish(self) -> Function: ...

class Elf:
    def __init__(
        self, path: Union[str, PathLike], symbols: Optional[Union[str, PathLike]] = None, discover: bool = True
    ) -> None: ...
    @property
    def functions(self) -> List[Tuple[str, int, int]]: ...
    def __len__(self) -> int: ...
    def lift(
        self,
        names: Optional[Sequence[Union[str, int]]] = None,
        *,
        construct: Optional[Flavor] = None,
        semantics: bool = False,
    ) -> List[Function]: ...
    def function(self, sel: Union[str, int], *, construct: Optional[Flavor] = None, semantics: bool = False) -> Function: ...

def parse(text: str) -> List[Function]: ...
def to_text(functions: Sequence[Function]) -> str: ...
def parse_bril(src: str, syntax: Literal["auto", "text", "json"] = "auto") -> List[Function]: ...
def to_bril(
    functions: Sequence[Function],
    syntax: Literal["text", "json"] = "text",
    ssa: Literal["set-get", "phi"] = "set-get",
) -> str: ...
def lift_wasm(data: Union[bytes, str, PathLike], *, construct: Optional[Flavor] = None) -> List[Function]: ...
def wasm_opt(data: Union[bytes, str, PathLike], *, level: int = 1, passes: Optional[str] = None) -> bytes: ...
