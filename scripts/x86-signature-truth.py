#!/usr/bin/python3
"""Parameter counts of `ssakit x86 stats --signatures` against DWARF
(issue 41, item 5; docs/x86.md, "Signatures").

Usage: x86-signature-truth.py SSAKIT BINARY [DEBUGFILE]

DWARF (of DEBUGFILE, else of BINARY itself; Debian's pyelftools) gives,
per concrete function (a DW_TAG_subprogram with a DW_AT_low_pc), its
DW_TAG_formal_parameter children: the expected count. A variadic
function (DW_TAG_unspecified_parameters) counts its named parameters.
ssakit's count is the System V positional one: the integer argument
registers `rdi rsi rdx rcx r8 r9` up to the last one in the signature's
parameters, plus the vector ones `xmm0`-`xmm7` likewise, plus its stack
words. A function is compared when both sides know it (by start
address); functions whose signature is the convention's (recursion) are
counted as what the convention says (6 + 8). Prints the accuracy (exact
count), the share off by one, and the time of each side.
"""
import json
import subprocess
import sys
import time

from elftools.elf.elffile import ELFFile

INT_ARGS = ["rdi", "rsi", "rdx", "rcx", "r8", "r9"]
VEC_ARGS = ["xmm%d" % i for i in range(8)]


def dwarf_counts(path):
    """{low_pc: formal parameter count} of the concrete functions."""
    out = {}
    with open(path, "rb") as f:
        elf = ELFFile(f)
        if not elf.has_dwarf_info():
            sys.exit("%s: no DWARF" % path)
        dwarf = elf.get_dwarf_info()
        for cu in dwarf.iter_CUs():
            for die in cu.iter_DIEs():
                if die.tag != "DW_TAG_subprogram" or "DW_AT_low_pc" not in die.attributes:
                    continue
                n = sum(1 for c in die.iter_children() if c.tag == "DW_TAG_formal_parameter")
                out[die.attributes["DW_AT_low_pc"].value] = n
    return out


def positional(names, order):
    last = -1
    for k, r in enumerate(order):
        if r in names:
            last = k
    return last + 1


def ssakit_counts(ssakit, binary, debug):
    cmd = [ssakit, "x86", "stats", "--semantics", "--stack", "--signatures",
           "--only-flavor", "--format", "json", binary]
    if debug:
        cmd += ["--symbols", debug]
    doc = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    out = {}
    for f in doc["functions"]:
        s = f.get("signature")
        if s is None:
            continue
        params = set(s["params"])
        n = positional(params, INT_ARGS) + positional(params, VEC_ARGS) + len(s["stack_params"])
        out[int(f["address"], 16)] = n
    return out


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    ssakit, binary = sys.argv[1], sys.argv[2]
    debug = sys.argv[3] if len(sys.argv) == 4 else None
    t0 = time.time()
    truth = dwarf_counts(debug or binary)
    t1 = time.time()
    ours = ssakit_counts(ssakit, binary, debug)
    t2 = time.time()
    both = sorted(set(truth) & set(ours))
    exact = sum(1 for a in both if truth[a] == ours[a])
    near = sum(1 for a in both if abs(truth[a] - ours[a]) == 1)
    over = sum(1 for a in both if ours[a] > truth[a])
    n = max(len(both), 1)
    print("%s: %d functions described by DWARF, %d signed by ssakit, %d compared; "
          "exact %d (%.1f%%), off by one %d (%.1f%%), more than DWARF %d (%.1f%%); "
          "DWARF read in %.1f s, ssakit in %.1f s"
          % (binary, len(truth), len(ours), len(both), exact, 100.0 * exact / n,
             near, 100.0 * near / n, over, 100.0 * over / n, t1 - t0, t2 - t1))


if __name__ == "__main__":
    main()
