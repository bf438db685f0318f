#!/usr/bin/env python3
"""Prints the size in bytes of the code section's contents of each
WebAssembly module given (binary format, section id 10), one per line."""
import sys


def leb(b, i):
    n = shift = 0
    while True:
        x = b[i]
        i += 1
        n |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            return n, i


def code_size(path):
    b = open(path, "rb").read()
    if b[:4] != b"\0asm":
        sys.exit(f"error: {path}: not a binary WebAssembly module")
    i = 8
    while i < len(b):
        sid = b[i]
        size, i = leb(b, i + 1)
        if sid == 10:
            return size
        i += size
    return 0


for p in sys.argv[1:]:
    print(code_size(p))
