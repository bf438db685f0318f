#!/usr/bin/python3
"""Parameter counts of `ssakit x86 stats --signatures` against DWARF
(issue 41, item 5; docs/x86.md, "Signatures").

Usage: x86-signature-truth.py SSAKIT BINARY [DEBUGFILE]

DWARF (of DEBUGFILE, else of BINARY itself; Debian's pyelftools) gives,
per concrete function (a DW_TAG_subprogram with a DW_AT_low_pc), its
DW_TAG_formal_parameter children: the expected count. A variadic
function (DW_TAG_unspecified_parameters) counts its named parameters.
Functions of assembly units (DW_AT_language DW_LANG_Mips_Assembler,
glibc's `.S` files: syscall wrappers, string functions) have no formal
parameters in DWARF whatever they take: they are counted apart ("C
only" is the accuracy without them). Whether DWARF describes a
function's parameters at all is whether its subprogram is prototyped
(DW_AT_prototyped on it or on its abstract origin or specification):
a C function without parameters is `(void)`, prototyped with none; an
assembly unit's subprogram has no prototype, no type and no parameter
(glibc: no assembly subprogram is prototyped, every C one is). The
accuracy on those is printed too: the issue's "functions that DWARF
describes", read as those whose parameters it describes.
ssakit's count is the System V positional one: the integer argument
registers `rdi rsi rdx rcx r8 r9` up to the last one in the signature's
parameters, plus the vector ones `xmm0`-`xmm7` likewise, plus its stack
words; a variadic function's `unnamed` registers (those it only saves
for `va_arg`) are left out. A function is compared when both sides know it (by start
address); functions whose signature is the convention's (recursion) are
counted as what the convention says (6 + 8). Prints the accuracy (exact
count), the share off by one, and the time of each side; then, for the
C functions counted too high, why each extra integer register is a
parameter: the first use found of its entry value
(`SSAKIT_SIGNATURE_WHY=1`), followed through direct calls to the callee
where the use is (a table of causes by count).
"""
import collections
import json
import os
import subprocess
import sys
import time

from elftools.elf.elffile import ELFFile

INT_ARGS = ["rdi", "rsi", "rdx", "rcx", "r8", "r9"]
VEC_ARGS = ["xmm%d" % i for i in range(8)]
ASSEMBLER = 0x8001


def prototyped(die):
    """Whether DWARF gives `die` a prototype: DW_AT_prototyped on it or on
    the DIE it completes (DW_AT_abstract_origin, DW_AT_specification)."""
    for _ in range(4):
        if "DW_AT_prototyped" in die.attributes:
            return True
        ref = next((r for r in ("DW_AT_abstract_origin", "DW_AT_specification")
                    if r in die.attributes), None)
        if ref is None:
            return False
        die = die.get_DIE_from_attribute(ref)
    return False


def dwarf_counts(path):
    """{low_pc: (formal parameter count, whether of an assembly unit,
    whether prototyped)}."""
    out = {}
    with open(path, "rb") as f:
        elf = ELFFile(f)
        if not elf.has_dwarf_info():
            sys.exit("%s: no DWARF" % path)
        dwarf = elf.get_dwarf_info()
        for cu in dwarf.iter_CUs():
            lang = cu.get_top_DIE().attributes.get("DW_AT_language")
            asm = lang is not None and lang.value == ASSEMBLER
            for die in cu.iter_DIEs():
                if die.tag != "DW_TAG_subprogram" or "DW_AT_low_pc" not in die.attributes:
                    continue
                n = sum(1 for c in die.iter_children() if c.tag == "DW_TAG_formal_parameter")
                out[die.attributes["DW_AT_low_pc"].value] = (n, asm, prototyped(die))
    return out


def positional(names, order):
    last = -1
    for k, r in enumerate(order):
        if r in names:
            last = k
    return last + 1


def ssakit_run(ssakit, binary, debug):
    """({address: (count, name, params)}, {name: {register: (reason, site)}})."""
    cmd = [ssakit, "x86", "stats", "--semantics", "--stack", "--signatures",
           "--only-flavor", "--format", "json", binary]
    if debug:
        cmd += ["--symbols", debug]
    env = dict(os.environ, SSAKIT_SIGNATURE_WHY="1")
    run = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
    doc = json.loads(run.stdout)
    out = {}
    for f in doc["functions"]:
        s = f.get("signature")
        if s is None:
            continue
        # A variadic function's unnamed arguments (its register save
        # area) are not formal parameters in DWARF.
        params = set(s["params"]) - set(s.get("unnamed", []))
        n = positional(params, INT_ARGS) + positional(params, VEC_ARGS) + len(s["stack_params"])
        out[int(f["address"], 16)] = (n, f["name"], params)
    why = collections.defaultdict(dict)
    for line in run.stderr.splitlines():
        if line.startswith("WHY "):
            parts = line.split(" ")
            why[parts[1]][parts[2]] = " ".join(parts[4:])
    return out, why


def cause(why, name, reg):
    """The first use of `reg`'s entry value in `name`, followed through
    the direct calls whose callee's parameter it is."""
    seen = set()
    while True:
        r = why.get(name, {}).get(reg, "unknown")
        if not r.startswith("call known "):
            break
        callee = r.split(" ", 2)[2].removesuffix(".call")
        if (callee, reg) in seen:
            break
        seen.add((callee, reg))
        name = callee
    if r.startswith("op "):
        op = r[3:]
        kind = {"x86.syscall.x": "a syscall", "x86.call.x": "an indirect call",
                "x86.jmp.x": "an indirect jump"}.get(op)
        if kind is None:
            kind = "a store to memory" if "store" in op else "an operation (%s)" % op
        r = kind
    elif r == "call unknown":
        r = "a call of an unknown callee (PLT, GOT)"
    elif r == "call fallback":
        r = "a call within a recursion cycle"
    elif r == "term":
        r = "a branch or a return"
    return r


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    ssakit, binary = sys.argv[1], sys.argv[2]
    debug = sys.argv[3] if len(sys.argv) == 4 else None
    t0 = time.time()
    truth = dwarf_counts(debug or binary)
    t1 = time.time()
    ours, why = ssakit_run(ssakit, binary, debug)
    t2 = time.time()
    both = sorted(set(truth) & set(ours))
    exact = sum(1 for a in both if truth[a][0] == ours[a][0])
    near = sum(1 for a in both if abs(truth[a][0] - ours[a][0]) == 1)
    over = sum(1 for a in both if ours[a][0] > truth[a][0])
    under = sum(1 for a in both if ours[a][0] < truth[a][0])
    n = max(len(both), 1)
    c_only = [a for a in both if not truth[a][1]]
    c_exact = sum(1 for a in c_only if truth[a][0] == ours[a][0])
    # The functions whose parameters DWARF describes: a prototyped
    # subprogram (an assembly unit's carries no prototype, no type, no
    # formal parameter, whatever the function takes).
    described = [a for a in both if truth[a][2]]
    d_exact = sum(1 for a in described if truth[a][0] == ours[a][0])
    print("%s: %d functions with a DWARF subprogram, %d signed by ssakit, %d compared; "
          "exact %d (%.1f%%), off by one %d (%.1f%%), more than DWARF %d (%.1f%%), "
          "fewer %d (%.1f%%); "
          "C only (without %d of assembly units): %d of %d exact (%.1f%%); "
          "prototyped in DWARF (parameters described): %d of %d exact (%.1f%%); "
          "DWARF read in %.1f s, ssakit in %.1f s"
          % (binary, len(truth), len(ours), len(both), exact, 100.0 * exact / n,
             near, 100.0 * near / n, over, 100.0 * over / n, under, 100.0 * under / n,
             len(both) - len(c_only), c_exact, len(c_only),
             100.0 * c_exact / max(len(c_only), 1), d_exact, len(described),
             100.0 * d_exact / max(len(described), 1), t1 - t0, t2 - t1))
    causes = collections.Counter()
    vec_over = 0
    for a in c_only:
        want, (got, name, params) = truth[a][0], ours[a]
        if got <= want:
            continue
        extra = [r for r in INT_ARGS[want:] if r in params]
        if not extra:
            vec_over += 1
        for r in extra:
            causes[cause(why, name, r)] += 1
    c_over = sum(1 for a in c_only if ours[a][0] > truth[a][0])
    c_under = sum(1 for a in c_only if ours[a][0] < truth[a][0])
    print("  C only: %d counted too high, %d too low" % (c_over, c_under))
    if causes or vec_over:
        print("  extra integer parameters of the C functions counted too high, by cause:")
        for c, k in causes.most_common():
            print("  %6d  %s" % (k, c))
        print("  (and %d functions too high by vector registers or stack words only)" % vec_over)


if __name__ == "__main__":
    main()
