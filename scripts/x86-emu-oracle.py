#!/usr/bin/env python3
"""The emulator oracle of issue 29 (item 7): lifted SSA against the real CPU.

Runs functions of an x86-64 ELF binary under Unicorn and checks that every
operand of their SSA form (`ssakit x86 lift --construct --format json`,
pruned and minimal) names the definition whose value the CPU actually read.

How (docs/x86.md, "The emulator oracle"):

* the ELF's PT_LOAD segments are mapped at their addresses (code read and
  execute only), a stack and a thread block (`fs`) beside them; memory the
  function touches elsewhere is mapped on the fault, as zero pages (at most
  MAX_PAGES of them);
* the registers start random (pointer-like canonical values, but an
  argument register a small integer below 32 one time in three, so that
  switches take their cases; random flags but DF clear, random xmm), and each SSA parameter holds its register's
  initial value;
* before each instruction, every (register, value) it reads must hold: the
  CPU's register equals the value the SSA value was given when its
  definition ran. A definition takes the CPU's register right after its
  instruction; a phi, on entry to its block, its operand from the
  predecessor the CPU came from (and that operand must equal the CPU's
  register at the edge); `cc` and `sel` are the IR's, not the CPU's, and
  are not compared;
* a call (and `syscall`) is not run: as in the SSA, it reads its
  arguments, then the CPU skips it and the registers it writes (the
  caller-saved ones, flags, xmm0-15) get fresh random values, which its
  SSA results take;
* a run stops at `ret` (its reads checked), a tail call or any jump out
  of the extent and of the fragments' code the function holds, a call that never returns, an edge the CFG does not have,
  an emulator fault it cannot map, or after STEPS instructions. An edge the
  CFG does not have (a jump table resolved wrong) is a mismatch too.

Every function gets RUNS random inputs. A function passes when it compared
at least one read and no run found a mismatch; it is skipped, with its
reason counted, when no run compared anything. `--fault` plants a
renaming fault in the JSON (each phi's first two operands exchanged, and
each read of a register defined in the block by an earlier instruction
names the block's incoming value instead) to show the oracle catches it.

Usage: x86-emu-oracle.py --ssakit BIN [--sample N] [--seed S] [--fault]
       [--with-tables] ELF
Exit 1 on a mismatch (or, with --fault, when nothing is caught), 2 on bad
use; --min-pass N fails unless at least N functions pass.
"""

import argparse
import collections
import json
import random
import struct
import subprocess
import sys

from unicorn import (UC_ARCH_X86, UC_HOOK_CODE, UC_HOOK_MEM_FETCH_UNMAPPED,
                     UC_HOOK_MEM_READ_UNMAPPED, UC_HOOK_MEM_WRITE_UNMAPPED,
                     UC_MODE_64, UC_PROT_ALL, UC_PROT_EXEC, UC_PROT_READ, Uc,
                     UcError)
from unicorn import x86_const as X

STEPS = 4000
RUNS = 3
MAX_PAGES = 512
PAGE = 0x1000
STACK = 0x7ff0_0000_0000
STACK_SIZE = 0x40000
TLS = 0x7fe0_0000_0000
TLS_SIZE = 0x20000

GPRS = ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
        "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
FLAG_BITS = {"cf": 0, "pf": 2, "af": 4, "zf": 6, "sf": 7, "of": 11, "df": 10}
XMMS = ["xmm%d" % i for i in range(16)]
ARGS = ["rdi", "rsi", "rdx", "rcx", "r8", "r9"]
UC_REG = {r: getattr(X, "UC_X86_REG_" + r.upper()) for r in GPRS + XMMS}
CPU_REGS = set(GPRS) | set(FLAG_BITS) | set(XMMS)


def segments(elf):
    """(vaddr, memsz, file bytes, executable) of each PT_LOAD segment."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2:
        raise SystemExit("error: not a 64-bit ELF file")
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    out = []
    for k in range(phnum):
        (p_type, p_flags, off, vaddr, _, filesz,
         memsz, _) = struct.unpack_from("<IIQQQQQQ", elf, phoff + k * phentsize)
        if p_type == 1:
            out.append((vaddr, memsz, elf[off:off + filesz], bool(p_flags & 1)))
    return out


class Flavor:
    """One function's SSA form (one flavour) and the state of its check."""

    def __init__(self, fj, fault):
        self.blocks = {b["label"]: b for b in fj["blocks"]}
        self.entry = fj["blocks"][0]["label"]
        self.start = {}
        self.at = {}  # (label, address) -> instruction records
        for b in fj["blocks"]:
            if b["address"] is not None:
                self.start[int(b["address"], 16)] = b["label"]
            for r in b["instructions"]:
                if r["address"] is not None:
                    self.at.setdefault((b["label"], int(r["address"], 16)), []).append(r)
        # Every address of the function's decoded code: with the extent,
        # the code of the cold fragments it jumps into (docs/x86.md, "cold
        # fragments"), whose blocks it holds.
        self.code = set(self.start)
        for b in fj["blocks"]:
            for r in b["instructions"] + [b["terminator"]]:
                if r.get("address") is not None:
                    self.code.add(int(r["address"], 16))
        self.params = fj["params"]
        if fault:
            plant_fault(fj)

    def reset(self, cpu0):
        self.dyn = {p: cpu0[p] for p in self.params if p in cpu0}
        self.cur = self.entry
        self.fresh = self.blocks[self.entry]["address"] is not None
        self.pending = []
        self.compared = 0
        self.switched = 0
        self.mismatches = []

    def read(self, reg, val, cpu, where):
        if reg not in CPU_REGS:
            return
        if val not in self.dyn:
            self.mismatches.append("%s: reads %s, never defined on this path" % (where, val))
            return
        self.compared += 1
        if self.dyn[val] != cpu(reg):
            self.mismatches.append("%s: %s is %#x on the CPU, but the SSA reads %s = %#x"
                                   % (where, reg, cpu(reg), val, self.dyn[val]))

    def step(self, pc, cpu):
        """Follows the CPU to instruction `pc` (not yet run): returns
        ("run",), ("skip", writes) for a call, or ("stop", reason)."""
        for reg, val in self.pending:
            if reg in CPU_REGS:
                self.dyn[val] = cpu(reg)
        self.pending = []
        label = self.start.get(pc)
        if label is not None and not self.fresh:
            b = self.blocks[self.cur]
            if label not in b["terminator"]["successors"]:
                self.mismatches.append("%#x: the CPU went from %s to %s, an edge not in the CFG"
                                       % (pc, self.cur, label))
                return ("stop", "edge not in the CFG")
            if b["terminator"]["kind"] == "switch":
                self.switched += 1
            new = {}
            for phi in self.blocks[label]["phis"]:
                arg = [v for p, v in phi["args"] if p == self.cur]
                if len(arg) != 1:
                    return ("stop", "phi without an operand for the edge")
                self.read(phi["register"], arg[0], cpu, "%#x phi %s" % (pc, phi["def"]))
                if arg[0] in self.dyn:
                    new[phi["def"]] = self.dyn[arg[0]]
            self.dyn.update(new)
            self.cur = label
        elif label is not None:
            if label != self.cur:  # from the fresh entry block
                self.cur = label
        self.fresh = False
        b = self.blocks[self.cur]
        recs = self.at.get((self.cur, pc), [])
        term = b["terminator"]
        at_term = term["address"] is not None and int(term["address"], 16) == pc
        if not recs and not at_term:
            return ("run",)
        action = ("run",)
        for r in recs:
            for reg, val in r["reads"]:
                self.read(reg, val, cpu, "%#x %s" % (pc, r["op"]))
            self.pending.extend(r["writes"])
            if r["call"]:
                action = ("skip", r["writes"])
        if at_term and term["kind"] == "ret":
            if recs:
                return ("stop", "tail call")
            for reg, val in term["reads"]:
                self.read(reg, val, cpu, "%#x ret" % pc)
            return ("stop", "ret")
        last = b["instructions"][-1] if b["instructions"] else None
        if term["kind"] == "unreachable" and recs and recs[-1] is last:
            return ("stop", "never returns")
        return action


def plant_fault(fj):
    """A renaming fault: phi operands exchanged, and a register's second
    read in a block names the block's incoming value."""
    for b in fj["blocks"]:
        for phi in b["phis"]:
            if len(phi["args"]) >= 2:
                a = phi["args"]
                a[0][1], a[1][1] = a[1][1], a[0][1]
        incoming = {}
        for phi in b["phis"]:
            incoming[phi["register"]] = phi["def"]
        defined = {}
        for r in b["instructions"]:
            for pair in r["reads"]:
                if pair[0] in defined and pair[0] in incoming:
                    pair[1] = incoming[pair[0]]
            for reg, val in r["writes"]:
                defined[reg] = val


def canonical(rng):
    return rng.randrange(0x10000, 0x7fff_ffff_f000)


class Emu:
    """One Unicorn machine for every run: the ELF's segments, a stack and
    a thread block mapped once; pages mapped on a fault stay mapped (at
    most MAX_PAGES per run). Memory is not reset between runs: the check
    compares registers with SSA values, whatever memory holds."""

    def __init__(self, elf_segs):
        self.uc = Uc(UC_ARCH_X86, UC_MODE_64)
        self.mapped = set()
        for vaddr, memsz, data, exe in elf_segs:
            self.map_range(vaddr, vaddr + max(memsz, 1),
                           (UC_PROT_READ | UC_PROT_EXEC) if exe else UC_PROT_ALL)
            self.uc.mem_write(vaddr, bytes(data))
        self.map_range(STACK, STACK + STACK_SIZE, UC_PROT_ALL)
        self.map_range(TLS, TLS + TLS_SIZE, UC_PROT_ALL)
        self.uc.hook_add(UC_HOOK_CODE, self.on_code)
        self.uc.hook_add(UC_HOOK_MEM_READ_UNMAPPED | UC_HOOK_MEM_WRITE_UNMAPPED, self.on_unmapped)
        self.uc.hook_add(UC_HOOK_MEM_FETCH_UNMAPPED, lambda *a: False)

    def map_range(self, lo, hi, prot):
        """Maps the pages of [lo, hi) not mapped yet, runs of them at once."""
        lo, hi = lo & ~(PAGE - 1), (hi + PAGE - 1) & ~(PAGE - 1)
        p = lo
        while p < hi:
            if p in self.mapped:
                p += PAGE
                continue
            q = p
            while q < hi and q not in self.mapped:
                self.mapped.add(q)
                q += PAGE
            self.uc.mem_map(p, q - p, prot)
            p = q

    def cpu(self, reg):
        if reg in FLAG_BITS:
            return (self.uc.reg_read(X.UC_X86_REG_EFLAGS) >> FLAG_BITS[reg]) & 1
        return self.uc.reg_read(UC_REG[reg])

    def stop(self, reason):
        self.reason = reason
        self.uc.emu_stop()

    def on_code(self, uc, pc, size, _):
        if self.last == pc and is_rep(uc, pc, size):
            return  # the next iteration of a rep string instruction
        self.last = pc
        self.steps += 1
        if self.steps > STEPS:
            return self.stop("step budget")
        if not self.start <= pc < self.end:
            if pc not in self.flavors[0].code:
                return self.stop("left the function")
            self.in_fragments += 1
        actions = [fl.step(pc, self.cpu) for fl in self.flavors]
        a = actions[0]
        if any(x[0] != a[0] for x in actions):
            return self.stop("flavours disagree on control")
        if a[0] == "stop":
            return self.stop(a[1])
        if a[0] == "skip":
            rng = self.rng
            for reg, _ in a[1]:
                if reg in UC_REG:
                    uc.reg_write(UC_REG[reg], rng.getrandbits(128) if reg in XMMS else canonical(rng))
            ef = sum(rng.getrandbits(1) << FLAG_BITS[f] for f in FLAG_BITS if f != "df")
            uc.reg_write(X.UC_X86_REG_EFLAGS, ef | 2)
            uc.reg_write(X.UC_X86_REG_RIP, pc + size)

    def on_unmapped(self, uc, access, addr, size, value, _):
        if self.pages >= MAX_PAGES:
            self.reason = "memory: too many pages"
            return False
        try:
            self.map_range(addr, addr + max(size, 1), UC_PROT_ALL)
        except UcError:
            self.reason = "memory: unmappable address"
            return False
        self.pages += 1
        return True

    def run(self, flavors, start, end, rng):
        """One run of one function on random inputs: the reason it stopped."""
        cpu0 = {}
        for r in GPRS:
            small = r in ARGS and rng.randrange(3) == 0
            cpu0[r] = rng.randrange(32) if small else canonical(rng)
        cpu0["rsp"] = STACK + STACK_SIZE - 0x2008
        for f in FLAG_BITS:
            cpu0[f] = 0 if f == "df" else rng.getrandbits(1)
        for r in XMMS:
            cpu0[r] = rng.getrandbits(128)
        uc = self.uc
        for r in GPRS + XMMS:
            uc.reg_write(UC_REG[r], cpu0[r])
        uc.reg_write(X.UC_X86_REG_EFLAGS, sum(cpu0[f] << b for f, b in FLAG_BITS.items()) | 2)
        uc.reg_write(X.UC_X86_REG_FS_BASE, TLS + TLS_SIZE // 2)
        uc.mem_write(cpu0["rsp"], struct.pack("<Q", 0xdead_0000))
        for fl in flavors:
            fl.reset(cpu0)
        self.flavors, self.start, self.end, self.rng = flavors, start, end, rng
        self.steps, self.pages, self.last, self.reason = 0, 0, None, "step budget"
        try:
            uc.emu_start(start, 0xdead_0000, count=0)
        except UcError as e:
            if self.reason == "step budget":
                self.reason = "emulator: %s" % e
        return self.reason


def is_rep(uc, pc, size):
    """Whether the instruction at `pc` has a rep/repne prefix."""
    for b in bytes(uc.mem_read(pc, size)):
        if b in (0xf2, 0xf3):
            return True
        if not (b in (0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67) or 0x40 <= b <= 0x4f):
            return False
    return False


def lift(ssakit, elf_path, addrs, flavor):
    out = subprocess.run([ssakit, "x86", "lift", elf_path, "--func", ",".join(addrs),
                          "--construct", "--flavor", flavor, "--format", "json"],
                         check=True, capture_output=True)
    return json.loads(out.stdout)["functions"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("elf")
    ap.add_argument("--ssakit", required=True)
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--fault", action="store_true")
    ap.add_argument("--min-pass", type=int, default=0)
    ap.add_argument("--with-tables", action="store_true",
                    help="sample only functions with a resolved jump table")
    ap.add_argument("--only", help="sample only these functions (start addresses, comma-separated)")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    with open(a.elf, "rb") as fh:
        elf = fh.read()
    segs = segments(elf)
    listing = subprocess.run([a.ssakit, "x86", "stats", a.elf, "--format", "json",
                              "--flavor", "minimal", "--only-flavor", "--no-destruct"],
                             check=True, capture_output=True)
    funcs = json.loads(listing.stdout)["functions"]
    if a.with_tables:
        funcs = [f for f in funcs if f["jump_tables"] > 0]
    if a.only:
        only = {int(x, 16) for x in a.only.split(",")}
        funcs = [f for f in funcs if int(f["address"], 16) in only]
    rng = random.Random(a.seed)
    chosen = sorted(rng.sample(funcs, min(a.sample, len(funcs))), key=lambda f: int(f["address"], 16))
    addrs = [f["address"] for f in chosen]
    flavors = ["pruned", "minimal"]
    lifted = {fl: lift(a.ssakit, a.elf, addrs, fl) for fl in flavors}
    emu = Emu(segs)
    passed, mismatched, skipped = 0, [], collections.Counter()
    ends = collections.Counter()
    compared = switched = 0
    emu.in_fragments = 0
    for k, addr in enumerate(addrs):
        fjs = [lifted[fl][k] for fl in flavors]
        checkers = [Flavor(fj, a.fault) for fj in fjs]
        start, end = int(fjs[0]["address"], 16), int(fjs[0]["end"], 16)
        frng = random.Random("%d:%s" % (a.seed, addr))
        reasons, bad, n = [], [], 0
        for _ in range(RUNS):
            reasons.append(emu.run(checkers, start, end, frng))
            for fl, c in zip(flavors, checkers):
                n += c.compared
                bad.extend("%s: %s" % (fl, m) for m in c.mismatches)
            switched += checkers[0].switched
        ends.update(reasons)
        compared += n
        name = "%s %s" % (addr, fjs[0]["name"])
        if bad:
            mismatched.append((name, bad))
        elif n == 0:
            skipped[reasons[0]] += 1
        else:
            passed += 1
        if a.verbose:
            print("%s: %d reads compared, %d mismatches, %s" % (name, n, len(bad), reasons))
    total = len(addrs)
    print("emulator oracle: %s, %d functions sampled (seed %d), %d runs each%s"
          % (a.elf, total, a.seed, RUNS, ", planted fault" if a.fault else ""))
    print("  passed (no mismatch, pruned and minimal): %d" % passed)
    print("  with a mismatch: %d" % len(mismatched))
    print("  skipped (nothing compared): %d %s" % (sum(skipped.values()), dict(skipped)))
    print("  reads compared: %d" % compared)
    print("  jump-table edges followed: %d" % switched)
    print("  instructions run in cold fragments: %d" % emu.in_fragments)
    print("  runs ended by: %s" % dict(sorted(ends.items(), key=lambda kv: -kv[1])))
    for name, bad in mismatched[:5]:
        print("  mismatch in %s: %s" % (name, bad[0]))
    if a.fault:
        return 0 if mismatched else 1
    if mismatched or passed < a.min_pass:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
