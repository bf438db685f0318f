"""Runs whole x86-64 functions under Unicorn, for the whole-function value
oracle (crates/ssakit-x86/tests/value_oracle.rs): the CPU's side of each
case, from the start state the test chose, to the function's return.

Usage: unicorn_functions.py ELF CASES. The lines of CASES (numbers in hex):

    map ADDR SIZE PERMS     map a region (PERMS: letters of r, w, x)
    load ADDR OFFSET LEN    write LEN bytes of ELF from OFFSET at ADDR
    fill ADDR BYTES         write the bytes
    func ENTRY SITES MEMS   the next cases run this function; SITES is `-`
                            or KIND:ADDR:SIZE[:MASK],... (below; MASK, hex,
                            what a call there clobbers: bit I the register
                            RAX + I of REGS, bit 16 + K flag K of cf pf af zf
                            sf of df; without it the convention's caller-
                            saved registers and all the flags); MEMS is `-` or
                            ADDR:BASE:INDEX:SCALE:DISP:FS,... for each
                            instruction with a memory operand (registers
                            by number, `x` for none; FS 1 for `fs:`)
    case RFLAGS FS_BASE RET RAX RCX ... R15
                            one run: RET is written at [rsp] (the return
                            address) and the run ends when it is reached

A site is where the CPU does what the lifted function does instead of the
instruction there: `c` a call (its return address stored at rsp - 8, the
call model's results in the caller-saved registers and the flags, then the
next instruction), `t` a tail call or a jump out of the function (the
call model, rsp + 8, then the return), `n` a call that never returns (the
run stops), `s` an operation the lifted function leaves opaque (the run
stops). Before an instruction with a memory operand, the address is
computed: a non-canonical one stops the run (`stop noncanonical ADDR`;
the CPU faults there, where Unicorn would wrap the address to 48 bits).
The call model (number N of the run's calls, result K): see
`mix` below; the value oracle's interpreter computes the same.

Memory a run touches that is not mapped is mapped as zero pages (at most
64 a run, below 4 GiB only: Unicorn wraps a non-canonical address to 48
bits where the CPU faults). After each case the memory is put
back as it was. One output line per case:

    STATUS DETAIL ADDR CALLS TOUCHED ZEROED [RFLAGS RAX ... R15 WRITES]

STATUS DETAIL ADDR: `ret - 0` (the run returned; then the registers and
writes follow), `stop noreturn ADDR` or `stop opaque ADDR` (a site `n` or
`s`), `fault ERROR ADDR` (Unicorn's error, at rip ADDR), `steps - 0` (the
step bound was reached). CALLS: the calls made. TOUCHED: the pages read
or written (`-` for none), ZEROED: the pages mapped on a fault, WRITES:
the bytes written, as ADDR:BYTES;... with their final values.
"""
import os
import struct
import sys

from unicorn import (Uc, UcError, UC_ARCH_X86, UC_MODE_64, UC_HOOK_CODE, UC_HOOK_BLOCK,
                     UC_HOOK_MEM_READ, UC_HOOK_MEM_WRITE,
                     UC_HOOK_MEM_READ_UNMAPPED, UC_HOOK_MEM_WRITE_UNMAPPED,
                     UC_PROT_READ, UC_PROT_WRITE, UC_PROT_EXEC, UC_MEM_WRITE)
from unicorn import x86_const as X

REGS = [X.UC_X86_REG_RAX, X.UC_X86_REG_RCX, X.UC_X86_REG_RDX, X.UC_X86_REG_RBX,
        X.UC_X86_REG_RSP, X.UC_X86_REG_RBP, X.UC_X86_REG_RSI, X.UC_X86_REG_RDI,
        X.UC_X86_REG_R8, X.UC_X86_REG_R9, X.UC_X86_REG_R10, X.UC_X86_REG_R11,
        X.UC_X86_REG_R12, X.UC_X86_REG_R13, X.UC_X86_REG_R14, X.UC_X86_REG_R15]
# What a call writes, in the model's order: rax rcx rdx rsi rdi r8-r11, then
# cf pf af zf sf of (df is cleared).
CALL_GPRS = [X.UC_X86_REG_RAX, X.UC_X86_REG_RCX, X.UC_X86_REG_RDX, X.UC_X86_REG_RSI,
             X.UC_X86_REG_RDI, X.UC_X86_REG_R8, X.UC_X86_REG_R9, X.UC_X86_REG_R10,
             X.UC_X86_REG_R11]
CALL_FLAG_BITS = [0, 2, 4, 6, 7, 11]
# The callee-saved registers a call clobbers when a site's mask says so
# (a callee whose signature does not preserve them): results 16 and up.
EXTRA_GPRS = [X.UC_X86_REG_RBX, X.UC_X86_REG_RBP, X.UC_X86_REG_R12, X.UC_X86_REG_R13,
              X.UC_X86_REG_R14, X.UC_X86_REG_R15]
DF_BIT = 10
PAGE = 4096
MASK = (1 << 64) - 1
STEPS = 20000
MAX_ZEROED = 64


def mix(n, k):
    """Result K of the run's call number N (0-based), before its form."""
    z = ((n * 64 + k + 1) * 0x9E3779B97F4A7C15) & MASK
    z ^= z >> 32
    z = (z * 0xD6E8FEB86659FD93) & MASK
    z ^= z >> 32
    return z


def gpr_result(n, k):
    """A register's value: a small number (below 64) half the time."""
    z = mix(n, k)
    return z >> 58 if z & 2 == 0 else z


class Runner:
    def __init__(self, elf):
        self.elf = elf
        self.uc = Uc(UC_ARCH_X86, UC_MODE_64)
        self.uc.ctl_set_cpu_model(X.UC_CPU_X86_HASWELL)
        self.sites = {}
        self.site_hooks = []
        self.uc.hook_add(UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, self.on_access)
        self.uc.hook_add(UC_HOOK_MEM_READ_UNMAPPED | UC_HOOK_MEM_WRITE_UNMAPPED,
                         self.on_unmapped)
        self.entry = 0

    def map(self, addr, size, perms):
        prot = 0
        if 'r' in perms:
            prot |= UC_PROT_READ
        if 'w' in perms:
            prot |= UC_PROT_WRITE
        if 'x' in perms:
            prot |= UC_PROT_EXEC
        self.uc.mem_map(addr, size, prot)

    def func(self, entry, sites, mems):
        for h in self.site_hooks:
            self.uc.hook_del(h)
        self.site_hooks = []
        self.entry = entry
        self.sites = {}
        if sites != '-':
            for s in sites.split(','):
                kind, addr, size, *mask = s.split(':')
                mask = int(mask[0], 16) if mask else None
                self.sites[int(addr, 16)] = (kind, int(size, 16), mask)
        if os.environ.get('SSAKIT_VALUE_ORACLE_TRACE') == '%x' % entry:
            self.site_hooks.append(self.uc.hook_add(
                UC_HOOK_BLOCK, lambda uc, a, n, d: sys.stderr.write('%x ' % a)))
        self.mems = {}
        if mems != '-':
            for m in mems.split(','):
                a, base, index, scale, disp, fs = m.split(':')
                if int(a, 16) not in self.sites:
                    self.mems[int(a, 16)] = (
                        None if base == 'x' else REGS[int(base)],
                        None if index == 'x' else REGS[int(index)],
                        int(scale), int(disp, 16), fs == '1')
        for a in set(self.sites) | set(self.mems):
            self.site_hooks.append(self.uc.hook_add(UC_HOOK_CODE, self.on_site, begin=a, end=a))
        # Code translated for an earlier function has no hook at this one's
        # sites.
        self.uc.ctl_flush_tb()

    def save(self, addr, size):
        """The pages of addr..addr+size kept as they were before the case."""
        for p in range(addr // PAGE, (addr + size - 1) // PAGE + 1):
            self.touched.add(p)
            if p not in self.saved and p not in self.zeroed:
                try:
                    self.saved[p] = bytes(self.uc.mem_read(p * PAGE, PAGE))
                except UcError:
                    # Not mapped yet: the write hook runs before the
                    # fault maps a zero page (unmapped after the case).
                    pass

    def on_access(self, uc, access, addr, size, value, data):
        if access == UC_MEM_WRITE:
            self.save(addr, size)
            self.written.append((addr, size))
        else:
            for p in range(addr // PAGE, (addr + size - 1) // PAGE + 1):
                self.touched.add(p)

    def on_unmapped(self, uc, access, addr, size, value, data):
        # Below 4 GiB only: Unicorn wraps a non-canonical address to 48
        # bits where the CPU faults (#GP), and the interpreter traps.
        if len(self.zeroed) >= MAX_ZEROED or addr + size > 1 << 32:
            return False
        for p in range(addr // PAGE, (addr + size - 1) // PAGE + 1):
            try:
                uc.mem_map(p * PAGE, PAGE)
            except UcError:
                return False
            self.zeroed.add(p)
        return True

    def call_model(self, mask):
        """MASK: None for the convention's clobbers, else bit I for
        REGS[I] and bit 16 + K for flag K (cf pf af zf sf of df)."""
        n = self.calls
        self.calls += 1
        for k, r in enumerate(CALL_GPRS):
            if mask is None or mask >> REGS.index(r) & 1:
                self.uc.reg_write(r, gpr_result(n, k))
        for j, r in enumerate(EXTRA_GPRS):
            if mask is not None and mask >> REGS.index(r) & 1:
                self.uc.reg_write(r, gpr_result(n, 16 + j))
        fl = self.uc.reg_read(X.UC_X86_REG_RFLAGS)
        for k, b in enumerate(CALL_FLAG_BITS):
            if mask is None or mask >> (16 + k) & 1:
                fl = (fl & ~(1 << b)) | ((mix(n, 9 + k) & 1) << b)
        if mask is None or mask >> 22 & 1:
            fl &= ~(1 << DF_BIT)
        self.uc.reg_write(X.UC_X86_REG_RFLAGS, fl)

    def on_site(self, uc, address, size, data):
        mem = self.mems.get(address)
        if mem:
            base, index, scale, disp, fs = mem
            ea = disp
            if base is not None:
                ea += uc.reg_read(base)
            if index is not None:
                ea += uc.reg_read(index) * scale
            if fs:
                ea += uc.reg_read(X.UC_X86_REG_FS_BASE)
            top = (ea & MASK) >> 47
            if top not in (0, (1 << 17) - 1):
                self.status = ('stop', 'noncanonical', address)
                uc.reg_write(X.UC_X86_REG_RIP, self.ret)
                uc.emu_stop()
            return
        kind, isize, mask = self.sites[address]
        if kind == 'c':
            self.call_model(mask)
            rsp = uc.reg_read(X.UC_X86_REG_RSP)
            self.save(rsp - 8, 8)
            uc.mem_write(rsp - 8, struct.pack('<Q', address + isize))
            self.written.append((rsp - 8, 8))
            uc.reg_write(X.UC_X86_REG_RIP, address + isize)
        elif kind == 't':
            self.call_model(mask)
            uc.reg_write(X.UC_X86_REG_RSP, uc.reg_read(X.UC_X86_REG_RSP) + 8)
            uc.reg_write(X.UC_X86_REG_RIP, self.ret)
        else:
            self.status = ('stop', 'noreturn' if kind == 'n' else 'opaque', address)
            uc.reg_write(X.UC_X86_REG_RIP, self.ret)
            uc.emu_stop()

    def case(self, rflags, fs_base, ret, regs):
        uc = self.uc
        self.saved, self.touched, self.zeroed, self.written = {}, set(), set(), []
        self.calls, self.status, self.ret = 0, None, ret
        rsp = regs[4]
        self.save(rsp, 8)
        uc.mem_write(rsp, struct.pack('<Q', ret))
        for r, v in zip(REGS, regs):
            uc.reg_write(r, v)
        uc.reg_write(X.UC_X86_REG_RFLAGS, rflags)
        uc.reg_write(X.UC_X86_REG_FS_BASE, fs_base)
        uc.reg_write(X.UC_X86_REG_GS_BASE, 0)
        tail = ''
        try:
            uc.emu_start(self.entry, ret, count=STEPS)
            pc = uc.reg_read(X.UC_X86_REG_RIP)
            if self.status:
                _, what, addr = self.status
                head = 'stop %s %x' % (what, addr)
            elif pc == ret:
                head = 'ret - 0'
                tail = ' ' + self.returned()
            else:
                head = 'steps - 0'
        except UcError as e:
            head = 'fault %s %x' % (str(e).split(' (')[0].replace(' ', '_'),
                                    uc.reg_read(X.UC_X86_REG_RIP))
        touched = ','.join('%x' % (p * PAGE) for p in sorted(self.touched)) or '-'
        zeroed = ','.join('%x' % (p * PAGE) for p in sorted(self.zeroed)) or '-'
        line = '%s %d %s %s%s' % (head, self.calls, touched, zeroed, tail)
        if self.site_hooks and os.environ.get('SSAKIT_VALUE_ORACLE_TRACE') == '%x' % self.entry:
            sys.stderr.write('\n' + line[:200] + '\n')
        for p, b in self.saved.items():
            uc.mem_write(p * PAGE, b)
        for p in self.zeroed:
            uc.mem_unmap(p * PAGE, PAGE)
        return line

    def returned(self):
        """RFLAGS, the registers, and the bytes written (coalesced into
        ranges, with their final values)."""
        uc = self.uc
        vals = ['%x' % uc.reg_read(X.UC_X86_REG_RFLAGS)]
        vals += ['%x' % uc.reg_read(r) for r in REGS]
        ranges = []
        for a, n in sorted(self.written):
            if ranges and a <= ranges[-1][1]:
                ranges[-1][1] = max(ranges[-1][1], a + n)
            else:
                ranges.append([a, a + n])
        ws = ';'.join('%x:%s' % (a, bytes(uc.mem_read(a, b - a)).hex()) for a, b in ranges)
        return '%s %s' % (' '.join(vals), ws or '-')


def main(elf_path, path):
    with open(elf_path, 'rb') as f:
        elf = f.read()
    r = Runner(elf)
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if p[0] == 'map':
                r.map(int(p[1], 16), int(p[2], 16), p[3])
            elif p[0] == 'load':
                a, off, n = (int(x, 16) for x in p[1:4])
                r.uc.mem_write(a, elf[off:off + n])
            elif p[0] == 'fill':
                r.uc.mem_write(int(p[1], 16), bytes.fromhex(p[2]))
            elif p[0] == 'func':
                r.func(int(p[1], 16), p[2], p[3])
            elif p[0] == 'case':
                rflags, fs_base, ret = (int(x, 16) for x in p[1:4])
                regs = [int(x, 16) for x in p[4:20]]
                out.append(r.case(rflags, fs_base, ret, regs))
    sys.stdout.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
