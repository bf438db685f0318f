#!/usr/bin/env python3
"""Parameter counts of ssakit's signatures and of angr's calling
convention recovery, both against DWARF, in one run (issue 41, item 6;
docs/x86.md, "Signatures beside angr").

Usage: x86-signature-vs-angr.py SSAKIT BINARY...   (run by the Python of
scripts/x86-signature-vs-angr.sh's virtual environment, which has angr)

For each BINARY (built with -g):
- DWARF: the formal parameters of each concrete function, as
  scripts/x86-signature-truth.py reads them (the same code, imported);
- ssakit: `x86 stats --semantics --stack --signatures`, counted as that
  script counts (System V positions of the integer and vector argument
  registers, stack words; a variadic function's unnamed registers left
  out);
- angr 9.2.213: `CFGFast` then `CompleteCallingConventions` (variable
  recovery on, call sites analysed), the count being the arguments of
  each function's recovered prototype (`len(prototype.args)`); a
  function with no prototype counts as not exact.
Both are compared on every function DWARF describes (by start address;
angr's are rebased to the file's link-time addresses): a function a
tool does not describe counts against it. Prints, per binary, each
tool's exact count and share, how many it counted higher and lower, its
functions without an answer, and its wall time; then the totals.
"""
import importlib.util
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "truth", os.path.join(HERE, "x86-signature-truth.py"))
truth_mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(truth_mod)


def angr_counts(binary):
    """{link-time address: parameter count or None}, and the wall time."""
    import logging
    logging.disable(logging.CRITICAL)
    import angr
    t0 = time.time()
    proj = angr.Project(binary, auto_load_libs=False)
    cfg = proj.analyses.CFGFast(normalize=True, data_references=True)
    proj.analyses.CompleteCallingConventions(
        recover_variables=True, analyze_callsites=True, cfg=cfg.model)
    obj = proj.loader.main_object
    out = {}
    for f in cfg.kb.functions.values():
        if f.is_plt or f.is_simprocedure or not obj.contains_addr(f.addr):
            continue
        addr = f.addr - obj.mapped_base + obj.linked_base
        proto = f.prototype
        out[addr] = None if proto is None else len(proto.args)
    return out, time.time() - t0


def score(truth, got):
    """(exact, higher, lower, without an answer) over truth's functions."""
    exact = higher = lower = none = 0
    for a, (want, _asm) in truth.items():
        n = got.get(a)
        if n is None:
            none += 1
        elif n == want:
            exact += 1
        elif n > want:
            higher += 1
        else:
            lower += 1
    return exact, higher, lower, none


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ssakit = sys.argv[1]
    print("| binary | functions DWARF describes | ssakit exact | ssakit higher / lower / none "
          "| ssakit wall s | angr exact | angr higher / lower / none | angr wall s |")
    print("|---|---:|---:|---|---:|---:|---|---:|")
    total = [0, 0, 0]
    for binary in sys.argv[2:]:
        truth = truth_mod.dwarf_counts(binary)
        t0 = time.time()
        ours, _why = truth_mod.ssakit_run(ssakit, binary, None)
        ours_wall = time.time() - t0
        ours = {a: n for a, (n, _name, _params) in ours.items()}
        theirs, theirs_wall = angr_counts(binary)
        s, t = score(truth, ours), score(truth, theirs)
        n = max(len(truth), 1)
        total[0] += len(truth)
        total[1] += s[0]
        total[2] += t[0]
        print("| %s | %d | %d (%.1f%%) | %d / %d / %d | %.1f | %d (%.1f%%) | %d / %d / %d | %.1f |"
              % (os.path.basename(binary), len(truth), s[0], 100.0 * s[0] / n, s[1], s[2], s[3],
                 ours_wall, t[0], 100.0 * t[0] / n, t[1], t[2], t[3], theirs_wall))
        sys.stdout.flush()
    n = max(total[0], 1)
    print("| all | %d | %d (%.1f%%) | | | %d (%.1f%%) | | |"
          % (total[0], total[1], 100.0 * total[1] / n, total[2], 100.0 * total[2] / n))


if __name__ == "__main__":
    main()
