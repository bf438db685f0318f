"""The per-binary job of `ssakit x86 stats` on Ray Data: over a list of
ELF paths, one task per binary, each function lifted, constructed in the
three flavours and the pruned form destructed through the Python package
`ssakit`; one JSON line per function with the figures of `ssakit x86
stats --format json` (its `functions` records without the times, which a
rerun does not reproduce) and the binary's path (docs/scale.md).

    python scripts/ray-stats.py [--address ADDR] [--cpus-per-task N]
        [--output DIR] [--paths-from FILE] [PATH ...]

Without `--address` Ray starts a local cluster in this process (local
mode); with it, the job runs on that cluster (`auto`: the one this machine
belongs to), whose workers need the package installed and the paths
readable. The JSON lines go to standard output, or with `--output` to
DIR (a local directory or a URI Ray Data writes to, one file per block).
A binary that cannot be read, or a function the pipeline fails on, is a
line with `error` set (the exception's class and message) instead of a
failed job.
"""

import argparse
import json
import os
import sys

FLAVORS = ("minimal", "semi-pruned", "pruned")
KINDS = ("registers", "flags", "vectors")


def line(path, address=None, name=None, error=None):
    """A line with every field (a failure's figures null)."""
    return {
        "binary": path,
        "address": None if address is None else hex(address),
        "name": name,
        "blocks": None,
        "instructions": None,
        "jump_tables": None,
        "invokes": None,
        "lost": None,
        "phis": None,
        "copies_after_destruct": None,
        "error": None if error is None else f"{type(error).__name__}: {error}",
    }


def lost_code(ranges):
    """`lost` as `x86 stats --format json` writes it for one function."""
    out = []
    for r in ranges:
        d = {"end": hex(r["end"]), "instructions": r["instructions"]}
        if r["jump"] is not None:
            d["jump"] = hex(r["jump"])
        d.update(reason=r["reason"], start=hex(r["start"]))
        out.append(d)
    return {
        "bytes": sum(r["end"] - r["start"] for r in ranges),
        "instructions": sum(r["instructions"] for r in ranges),
        "ranges": out,
    }


def failure(path, error, function=(None, None, None)):
    """The line of a binary, or of one function, the pipeline failed on."""
    return line(path, function[1], function[0], error)


def lift_each(path, elf, flavor):
    """Every function of `elf` constructed in `flavor`, or the failure line
    of each one that fails, by start address (when the lift of them all
    fails, one function at a time)."""
    import ssakit

    try:
        return {f.address: f for f in elf.lift(construct=flavor)}
    except ssakit.SsakitError:
        out = {}
        for function in elf.functions:
            try:
                out[function[1]] = elf.function(function[1], construct=flavor)
            except ssakit.SsakitError as e:
                out[function[1]] = failure(path, e, function)
        return out


def binary_stats(row):
    """The lines of one binary (the task of one binary)."""
    import ssakit

    path = row["path"]
    try:
        elf = ssakit.Elf(path)
    except (ssakit.SsakitError, OSError) as e:
        return [failure(path, e)]
    lines, failed = {}, {}
    for flavor in FLAVORS:
        for start, f in lift_each(path, elf, flavor).items():
            if isinstance(f, dict) or start in failed:
                failed.setdefault(start, f)
                continue
            if start not in lines:
                lines[start] = line(path, start, f.name)
                lines[start].update(
                    blocks=len(f.blocks),
                    instructions=f.machine_instructions,
                    jump_tables=f.jump_tables,
                    invokes=f.invokes,
                    lost=lost_code(f.lost),
                    phis={},
                )
                # `found` as the CLI writes it: absent without discovery.
                if f.found is not None:
                    lines[start]["found"] = f.found
                if f.fragment_instructions:
                    lines[start]["fragment_instructions"] = f.fragment_instructions
            lines[start]["phis"][flavor] = dict(zip(KINDS, f.phi_counts()))
            if flavor == "pruned":
                try:
                    lines[start]["copies_after_destruct"] = f.destruct().num_copies
                except ssakit.SsakitError as e:
                    failed[start] = failure(path, e, (f.name, start, None))
    # As the CLI: a function that fails in any stage is a failure only.
    return [failed.get(a) or lines[a] for a in sorted(lines.keys() | failed.keys())]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="ELF files")
    parser.add_argument("--paths-from", help="a file of paths, one per line")
    parser.add_argument("--address", help="the Ray cluster (default: a local one)")
    parser.add_argument("--cpus-per-task", type=int, default=1,
                        help="CPUs reserved per binary, and the threads its lifting uses (default 1)")
    parser.add_argument("--output", help="write the JSON lines to this directory or URI (Ray Data's write_json)")
    args = parser.parse_args(argv)
    paths = list(args.paths)
    if args.paths_from:
        with open(args.paths_from) as f:
            paths += [p.strip() for p in f if p.strip()]
    if not paths:
        parser.error("no binary: give paths or --paths-from")

    import ray

    # The package lifts a binary's functions in parallel (rayon): as many
    # threads as the CPUs Ray reserves for the task.
    ray.init(
        address=args.address,
        runtime_env={"env_vars": {"RAYON_NUM_THREADS": str(args.cpus_per_task)}},
        log_to_driver=False,
    )
    ray.data.DataContext.get_current().enable_progress_bars = False
    # One block, so one task, per binary.
    ds = ray.data.from_items([{"path": os.path.abspath(p)} for p in paths], override_num_blocks=len(paths))
    ds = ds.flat_map(binary_stats, num_cpus=args.cpus_per_task)
    if args.output:
        ds.write_json(args.output)
    else:
        for line in ds.iter_rows():
            print(json.dumps(line, default=int, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
