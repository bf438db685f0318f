#!/usr/bin/env python3
"""Takes the WebAssembly modules a package carries inside its JavaScript
(base64 strings, byte arrays) out into .wasm files, and rewrites the
JavaScript to read those files, so that a module can be swapped by
writing a file (the node workloads of crates/ssakit-wasm/tests/node.rs).
The bytes are unchanged: the package behaves as before. Called by
scripts/fetch-wasm-corpus.sh on a freshly unpacked package.

Usage: scripts/wasm-corpus-unembed.py hash-wasm|yoga-layout|as-sha256 PACKAGE_DIR
  hash-wasm:   dist/index.umd.js's 22 `var data$N = "AGFzbQ..."` strings
               -> ssakit-wasm/NAME.wasm (NAME from `var name$N`)
  yoga-layout: dist/binaries/yoga-wasm-base64-esm.js's data: URL
               -> ssakit-wasm/yoga.wasm
  as-sha256:   lib/wasmSimdCode.js's byte array -> build/optimized.simd.wasm
               (the same bytes; checked)
"""
import base64
import os
import re
import sys


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def hash_wasm(pkg):
    js = os.path.join(pkg, "dist/index.umd.js")
    text = open(js).read()
    names = dict(re.findall(r'var name(\$\w+|) = "([^"]+)";', text))
    count = 0

    def swap(m):
        nonlocal count
        suffix, data = m.group(1), m.group(2)
        name = names[suffix]
        write(os.path.join(pkg, "ssakit-wasm", name + ".wasm"), base64.b64decode(data))
        count += 1
        return (f'var data{suffix} = require("fs").readFileSync(require("path").join('
                f'__dirname, "../ssakit-wasm/{name}.wasm")).toString("base64");')

    text = re.sub(r'var data(\$\w+|) = "(AGFzbQ[^"]*)";', swap, text)
    if count != len(names) or count == 0:
        sys.exit(f"error: {js}: {count} modules for {len(names)} names")
    open(js, "w").write(text)
    print(f"{pkg}: {count} modules in ssakit-wasm/")


def yoga(pkg):
    js = os.path.join(pkg, "dist/binaries/yoga-wasm-base64-esm.js")
    text = open(js).read()
    prefix = "data:application/octet-stream;base64,"
    found = re.findall(r'"' + re.escape(prefix) + r'([A-Za-z0-9+/=]+)"', text)
    if len(found) != 1:
        sys.exit(f"error: {js}: {len(found)} embedded modules, expected 1")
    write(os.path.join(pkg, "ssakit-wasm/yoga.wasm"), base64.b64decode(found[0]))
    text = text.replace(
        f'"{prefix}{found[0]}"',
        f'"{prefix}"+__ssakitRead(new URL("../../ssakit-wasm/yoga.wasm",import.meta.url)).toString("base64")',
    )
    open(js, "w").write('import { readFileSync as __ssakitRead } from "node:fs";\n' + text)
    print(f"{pkg}: ssakit-wasm/yoga.wasm")


def as_sha256(pkg):
    js = os.path.join(pkg, "lib/wasmSimdCode.js")
    text = open(js).read()
    m = re.search(r"Uint8Array\.from\(\[([0-9, \n]*)\]\)", text)
    data = bytes(int(x) for x in m.group(1).split(","))
    wasm = os.path.join(pkg, "build/optimized.simd.wasm")
    if open(wasm, "rb").read() != data:
        sys.exit(f"error: {js}'s bytes are not {wasm}'s")
    text = (text[: m.start()]
            + 'new Uint8Array(__ssakitRead(new URL("../build/optimized.simd.wasm", import.meta.url)))'
            + text[m.end():])
    open(js, "w").write('import { readFileSync as __ssakitRead } from "node:fs";\n' + text)
    print(f"{pkg}: lib/wasmSimdCode.js reads build/optimized.simd.wasm")


kinds = {"hash-wasm": hash_wasm, "yoga-layout": yoga, "as-sha256": as_sha256}
if len(sys.argv) != 3 or sys.argv[1] not in kinds:
    sys.exit(__doc__)
kinds[sys.argv[1]](sys.argv[2])
