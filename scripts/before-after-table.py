"""The table of scripts/before-after.sh: old and new side by side per shape and size."""
import glob
import json
import os
import sys

data = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*-*-*/results.json"))):
    rev, rest = os.path.basename(os.path.dirname(f)).split("-", 1)
    shape, size = rest.rsplit("-", 1)
    for r in json.load(open(f))["rows"]:
        # Only the rows of the shape asked for, with 16 variables (the
        # harness's variable sweep adds others).
        if r["shape"] != shape or r["vars"] != 16:
            continue
        e = data.setdefault((int(size), shape), {}).setdefault(rev, {"t": [], "d": []})
        e["t"].append(r["construct"]["pruned"]["total_s"])
        e["d"].append(r["destruct"]["split"])
        e.update(peak=r["peak_bytes"], insts=r["insts"], phis=r["construct"]["pruned"]["phis"])
print("| shape | insts | pruned before ms | after ms | after ÷ before | destruct before ms | after ms | after ÷ before "
      "| peak before B/inst | after B/inst | after ÷ before | phis |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (size, shape), e in sorted(data.items()):
    if "old" not in e or "new" not in e:
        continue
    o, n = e["old"], e["new"]
    assert o["phis"] == n["phis"], (shape, size, o["phis"], n["phis"])
    to, tn, do, dn = (min(x) * 1e3 for x in (o["t"], n["t"], o["d"], n["d"]))
    po, pn = o["peak"] / o["insts"], n["peak"] / n["insts"]
    print(f"| {shape} | {n['insts'] / 1e3:.0f}k | {to:.1f} | {tn:.1f} | {tn / to:.2f} | {do:.1f} | {dn:.1f} "
          f"| {dn / do:.2f} | {po:.0f} | {pn:.0f} | {pn / po:.2f} | {n['phis']} |")
