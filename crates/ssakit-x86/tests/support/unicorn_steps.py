"""Runs single x86-64 instructions under Unicorn, for the value oracle of
the semantics table (crates/ssakit-x86/tests/sem_unicorn.rs).

Input, one case a line (hex numbers):
    IP CODE RFLAGS RAX RCX RDX RBX RSP RBP RSI RDI R8 ... R15 PAGE,PAGE,... ADDR:BYTES;ADDR:BYTES... [FS_BASE GS_BASE]
Each page (4 KiB) is mapped once, the windows written, the code written at
IP, the registers (and the segment bases, 0 if absent) set, and one
instruction run. Output, one line a case:
    ok RFLAGS RAX ... R15 ADDR:BYTES;...   (the windows read back)
    err MESSAGE
"""
import sys

from unicorn import Uc, UcError, UC_ARCH_X86, UC_MODE_64
from unicorn import x86_const as X

REGS = [X.UC_X86_REG_RAX, X.UC_X86_REG_RCX, X.UC_X86_REG_RDX, X.UC_X86_REG_RBX,
        X.UC_X86_REG_RSP, X.UC_X86_REG_RBP, X.UC_X86_REG_RSI, X.UC_X86_REG_RDI,
        X.UC_X86_REG_R8, X.UC_X86_REG_R9, X.UC_X86_REG_R10, X.UC_X86_REG_R11,
        X.UC_X86_REG_R12, X.UC_X86_REG_R13, X.UC_X86_REG_R14, X.UC_X86_REG_R15]


def main(path):
    uc = Uc(UC_ARCH_X86, UC_MODE_64)
    # A CPU with BMI1 and LZCNT, so that tzcnt and lzcnt are not bsf, bsr.
    uc.ctl_set_cpu_model(X.UC_CPU_X86_HASWELL)
    mapped = set()
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            ip, code, rflags = int(p[0], 16), bytes.fromhex(p[1]), int(p[2], 16)
            regs = [int(x, 16) for x in p[3:19]]
            pages = [int(x, 16) for x in p[19].split(',')]
            windows = [(int(a, 16), bytes.fromhex(b))
                       for a, b in (w.split(':') for w in p[20].split(';'))]
            for pg in pages:
                if pg not in mapped:
                    uc.mem_map(pg, 4096)
                    mapped.add(pg)
            for a, b in windows:
                uc.mem_write(a, b)
            uc.mem_write(ip, code)
            for r, v in zip(REGS, regs):
                uc.reg_write(r, v)
            uc.reg_write(X.UC_X86_REG_RFLAGS, rflags)
            segs = [int(x, 16) for x in p[21:23]] + [0, 0]
            uc.reg_write(X.UC_X86_REG_FS_BASE, segs[0])
            uc.reg_write(X.UC_X86_REG_GS_BASE, segs[1])
            try:
                uc.emu_start(ip, ip + len(code), count=1)
            except UcError as e:
                out.append('err %s' % e)
                continue
            if uc.reg_read(X.UC_X86_REG_RIP) != ip + len(code):
                out.append('err did not reach the next instruction')
                continue
            vals = ['%x' % uc.reg_read(X.UC_X86_REG_RFLAGS)]
            vals += ['%x' % uc.reg_read(r) for r in REGS]
            ws = ';'.join('%x:%s' % (a, bytes(uc.mem_read(a, len(b))).hex()) for a, b in windows)
            out.append('ok ' + ' '.join(vals) + ' ' + ws)
    sys.stdout.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main(sys.argv[1])
