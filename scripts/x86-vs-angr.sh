#!/usr/bin/env bash
# Jump tables beside angr's CFGFast (issue 42, item 5): for each binary,
# in one run, ssakit's whole pipeline (`x86 stats FILE --only-flavor`:
# functions and jump tables resolved, wall time) and angr 9.2.213's
# CFGFast with indirect-jump resolution alone (functions, jump tables:
# the indirect jumps it resolved of kind jump table, wall time), one
# line per binary.
#
# A system call number angr has no prototype for (in busybox-static)
# made CFGFast stop on an assertion; the script skips that number's
# metadata instead (angr itself is unchanged).
#
# angr goes into its own virtual environment, target/angr-cfg-venv (a
# hundred megabytes of wheels; not run by .ci/run), pinned as in
# scripts/python-vs-angr.sh.
#
# angr's count is of its indirect jumps (keyed by the block that holds
# the jump: a jump in two overlapping blocks counts twice); the next
# column counts the distinct jump instructions among them.
#
# --dump DIR writes, per binary, DIR/NAME.angr.json (angr's resolved
# tables: jump instruction, block, function, table address, entry size,
# targets) and DIR/NAME.ssakit.json (`x86 lift --format json`), for
# scripts/x86-vs-angr-tables.py, which compares them jump by jump.
#
# Usage: scripts/x86-vs-angr.sh [--ssakit PATH] [--dump DIR] FILE...
set -euo pipefail
cd "$(dirname "$0")/.."
ssakit=target/release/ssakit
dump=
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --ssakit) ssakit=$2; shift 2 ;;
        --dump) dump=$2; shift 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
[ ${#files[@]} -gt 0 ] || { echo "usage: $0 [--ssakit PATH] FILE..." >&2; exit 2; }
venv=$(scripts/angr-cfg-venv.sh)
[ -z "$dump" ] || mkdir -p "$dump"
echo "binary | ssakit functions | ssakit tables | ssakit wall s | angr functions | angr tables | angr distinct jumps | angr wall s"
for f in "${files[@]}"; do
    start=$(date +%s.%N)
    ours=$("$ssakit" x86 stats "$f" --only-flavor --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(len(d["functions"]), sum(f["jump_tables"] for f in d["functions"]))
')
    end=$(date +%s.%N)
    out=
    [ -z "$dump" ] || out="$dump/$(basename "$f")"
    theirs=$("$venv/bin/python" - "$f" "$out" <<'EOF'
import logging, sys, time
logging.disable(logging.CRITICAL)
import angr
from angr.knowledge_plugins.cfg import IndirectJumpType
from angr.procedures.definitions import SimSyscallLibrary

# angr 9.2.213 asserts when a system call number has a procedure but no
# prototype (busybox-static's); the number's metadata is then left out
# instead, and CFGFast goes on.
_apply = SimSyscallLibrary._apply_numerical_metadata


def _tolerant(self, proc, number, arch, abi):
    try:
        _apply(self, proc, number, arch, abi)
    except AssertionError:
        pass


SimSyscallLibrary._apply_numerical_metadata = _tolerant
start = time.time()
try:
    p = angr.Project(sys.argv[1], auto_load_libs=False)
    cfg = p.analyses.CFGFast(resolve_indirect_jumps=True, normalize=False)
except Exception as e:  # angr's own failure is a result too
    print("-", f"failed({type(e).__name__}:{e})".replace(" ", "_"), "-", f"{time.time() - start:.1f}")
    sys.exit(0)
wall = time.time() - start
# Every kind of jump table angr knows (loaded, computed, byte-indexed).
kinds = {getattr(IndirectJumpType, n) for n in dir(IndirectJumpType) if n.startswith("Jumptable")}
tables = [j for j in cfg.indirect_jumps.values()
          if j.jumpkind == "Ijk_Boring" and j.type in kinds and j.resolved_targets]
print(len(cfg.kb.functions), len(tables), len({j.ins_addr for j in tables}), f"{wall:.1f}")
if sys.argv[2]:
    # Addresses as the file links them (angr loads a PIE at 0x400000).
    import json
    main = p.loader.main_object
    d = main.mapped_base - main.linked_base
    linked = lambda a: None if a is None else a - d
    with open(sys.argv[2] + ".angr.json", "w") as out:
        json.dump([{"jump": linked(j.ins_addr), "block": linked(j.addr),
                    "function": linked(j.func_addr), "table": linked(j.jumptable_addr),
                    "entry_size": j.jumptable_entry_size, "type": str(j.type),
                    "targets": sorted(linked(t) for t in j.resolved_targets)} for j in tables],
                  out)
EOF
)
    if [ -n "$dump" ]; then
        "$ssakit" x86 lift "$f" --format json >"$dump/$(basename "$f").ssakit.json" 2>/dev/null
    fi
    set -- $ours $theirs
    echo "$f | $1 | $2 | $(python3 -c "print(f'{$end - $start:.1f}')") | $3 | $4 | $5 | $6"
done
