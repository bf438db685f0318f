#!/usr/bin/env python3
"""Compares angr's jump tables with ssakit's, jump by jump (issue 42).

Reads the two files `scripts/x86-vs-angr.sh --dump DIR` writes per
binary, DIR/NAME.angr.json (angr's CFGFast: each resolved jump table's
jump instruction, function and targets) and DIR/NAME.ssakit.json (`x86
lift --format json`), and sorts each distinct jump instruction angr
resolved into one kind:

  * same: a switch of ssakit at that instruction with the same targets;
  * angr reads more: ssakit's targets a proper subset of angr's (angr
    read entries past the bound the code checks, or the bytes after the
    table);
  * ssakit reads more: angr's targets a proper subset of ssakit's;
  * other targets: a switch at that instruction, the sets differing
    both ways;
  * unresolved by ssakit: ssakit decoded the instruction and left it
    without a switch;
  * in an extent, not decoded: inside a function's extent, among the
    instructions ssakit never reached;
  * outside every extent: in no function ssakit lifted;

and counts ssakit's switches at instructions angr did not resolve.
With --list KIND (a prefix of a kind's name) it prints those jumps.
--rebase HEX subtracts HEX from angr's addresses (dumps written before
the script stored them as the file links them: angr loads a PIE at
0x400000).

A switch's targets are its successors after the first (the default
edge), as block addresses; a successor that is no block of the
function (a tail call of the switch) counts by its label.

Usage: scripts/x86-vs-angr-tables.py [--list KIND] [--rebase HEX] DIR/NAME
"""

import json
import sys

KINDS = ["same", "angr reads more", "ssakit reads more", "other targets",
         "unresolved by ssakit", "in an extent, not decoded", "outside every extent"]


def ssakit_view(path):
    """The switches (jump address -> set of targets), the decoded
    instruction addresses and the extents of `x86 lift --format json`."""
    switches, decoded, extents = {}, set(), []
    for f in json.load(open(path))["functions"]:
        extents.append((int(f["address"], 16), int(f["end"], 16), f["name"]))
        for b in f["blocks"]:
            for i in b["instructions"]:
                if i["address"]:
                    decoded.add(int(i["address"], 16))
            t = b["terminator"]
            if not t["address"]:
                continue
            at = int(t["address"], 16)
            decoded.add(at)
            if t["kind"] == "switch":
                targets = set()
                for s in t["successors"][1:]:
                    try:
                        targets.add(int(s[1:], 16))
                    except ValueError:
                        targets.add(s)
                switches.setdefault(at, set()).update(targets)
    return switches, decoded, extents


def kind_of(jump, targets, switches, decoded, extents):
    """The kind (one of KINDS) of angr's jump at `jump` with `targets`."""
    if jump in switches:
        ours = switches[jump]
        if ours == targets:
            return "same"
        if ours < targets:
            return "angr reads more"
        if targets < ours:
            return "ssakit reads more"
        return "other targets"
    if jump in decoded:
        return "unresolved by ssakit"
    if any(lo <= jump < hi for lo, hi, _ in extents):
        return "in an extent, not decoded"
    return "outside every extent"


def main():
    args = sys.argv[1:]
    listing, rebase = None, 0
    while args[:1] in (["--list"], ["--rebase"]):
        if args[0] == "--list":
            listing = args[1]
        else:
            rebase = int(args[1], 16)
        args = args[2:]
    if len(args) != 1:
        sys.exit(__doc__.split("\n\n")[-1].strip())
    base = args[0]
    switches, decoded, extents = ssakit_view(base + ".ssakit.json")
    angr = {}
    for j in json.load(open(base + ".angr.json")):
        angr.setdefault(j["jump"] - rebase, set()).update(t - rebase for t in j["targets"])
    counts = dict.fromkeys(KINDS, 0)
    for jump, targets in sorted(angr.items()):
        k = kind_of(jump, targets, switches, decoded, extents)
        counts[k] += 1
        if listing and k.startswith(listing):
            ours = switches.get(jump, set())
            where = next((n for lo, hi, n in extents if lo <= jump < hi), "-")
            print(f"{jump:#x} in {where}: angr {len(targets)} targets, ssakit {len(ours)}"
                  f" (angr only: {sorted(hex(t) for t in targets - ours if isinstance(t, int))[:6]})")
    only_ours = sum(1 for j in switches if j not in angr)
    print(f"{base}: angr {len(angr)} distinct jumps, ssakit {len(switches)} switches; " +
          ", ".join(f"{k} {n}" for k, n in counts.items()) + f"; ssakit only {only_ours}")


if __name__ == "__main__":
    main()
