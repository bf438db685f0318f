#!/usr/bin/env python3
"""Checks two rules of the layout (docs/architecture.md) over the library
crates and the CLI (crates/{ssakit,ssakit-wasm,ssakit-x86,ssakit-cli}/src):

  * no function longer than 150 lines (from its `fn` line to its closing
    brace, nested functions counted in their own right; test code, that is
    `#[cfg(test)]` modules and files, left out);
  * no import circle between modules: module A depends on module B when
    A's code (not its tests, not its comments) names a path into B
    (`use super::b::X`, `crate::b::f(..)`, `use b::X` for a child `b`);
    `mod b;` alone is no dependency, and neither is a re-export (`pub use
    b::X` in a facade module): a path to a re-exported item is a
    dependency on the module that defines it.

Today's offenders are listed in scripts/check-structure-allow.txt, one per
line (`long PATH::FN` or `cycle MOD -> MOD -> ...`, as this script prints
them): an offender not listed fails the check, and so does a listed one
that is gone (remove its line: the list only shrinks).

Usage: scripts/check-structure.py [--list]   (--list: print every
offender in the allow-list's format and exit 0)
"""

import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CRATES = ["ssakit", "ssakit-wasm", "ssakit-x86", "ssakit-cli"]
MAX_LINES = 150
ALLOW = os.path.join(ROOT, "scripts", "check-structure-allow.txt")


def blank_comments_and_strings(text):
    """The text with comments and the insides of string and char literals
    replaced by spaces (newlines kept), so that braces and paths in them
    do not count."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif (
            c == "r"
            and re.match(r'r#*"', text[i:])
            and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))
        ):
            m = re.match(r'r(#*)"', text[i:])
            close = '"' + m.group(1)
            j = text.find(close, i + len(m.group(0)))
            j = n if j < 0 else j + len(close)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2 : j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + re.sub(r"[^\n]", " ", text[i + 1 : j]) + '"')
            i = j + 1
        elif c == "'":
            # A char literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            if m:
                out.append("' '" + " " * (len(m.group(0)) - 3))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(code, open_at):
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def without_test_modules(code):
    """`code` with every `#[cfg(test)]` item (an inline module, a
    function, a `use`) blanked."""
    out = list(code)
    for m in re.finditer(r"#\[cfg\(test\)\]", code):
        k = m.end()
        semi = code.find(";", k)
        brace = code.find("{", k)
        if brace < 0 or (0 <= semi < brace):
            end = semi
        else:
            end = matching_brace(code, brace)
        for j in range(m.start(), end + 1):
            if out[j] != "\n":
                out[j] = " "
    return "".join(out)


FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def long_functions(code):
    """(name, first line, length) of each function over MAX_LINES."""
    found = []
    for m in FN.finditer(code):
        # The body's brace: the first `{` or `;` after the signature at
        # bracket depth 0 (a `;` first: a declaration without a body).
        depth, j = 0, m.end()
        while j < len(code):
            ch = code[j]
            if ch in "([<":
                depth += 1
            elif ch in ")]>" and depth > 0 and code[j - 1] != "-":
                depth -= 1
            elif ch == ";" and depth == 0:
                j = -1
                break
            elif ch == "{" and depth == 0:
                break
            j += 1
        if j < 0 or j >= len(code):
            continue
        end = matching_brace(code, j)
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, end) + 1
        if last - first + 1 > MAX_LINES:
            found.append((m.group(1), first, last - first + 1))
    return found


def crate_modules(crate):
    """Map module path (e.g. ('emit', 'plan')) -> file, for the crate's
    src/, and the set of modules that exist only under `#[cfg(test)]`."""
    src = os.path.join(ROOT, "crates", crate, "src")
    mods = {}
    for dirpath, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), src)
            parts = rel[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            if parts and parts[0] == "bin":
                continue
            mods[tuple(parts)] = os.path.join(dirpath, name)
    test_only = set()
    for path, file in mods.items():
        text = open(file, encoding="utf-8").read()
        for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text):
            test_only.add(path + (m.group(1),))
    return mods, test_only


def expand_use(tree):
    """The paths of a `use` tree (`a::{b, c::{d, e}}` -> a::b, a::c::d,
    a::c::e), each a list of segments."""
    # `x as y` renames x: drop the ` as y` first (with its spaces, so that
    # a segment such as `ast` or `assert` is left alone).
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)

    def expand(t):
        depth = 0
        for k, ch in enumerate(t):
            if ch == "{":
                if depth == 0:
                    head = t[:k].rstrip(":")
                    inner = t[k + 1 : t.rindex("}")]
                    parts, d, start = [], 0, 0
                    for q, c2 in enumerate(inner):
                        if c2 == "{":
                            d += 1
                        elif c2 == "}":
                            d -= 1
                        elif c2 == "," and d == 0:
                            parts.append(inner[start:q])
                            start = q + 1
                    parts.append(inner[start:])
                    res = []
                    for p in parts:
                        if not p:
                            continue
                        for e in expand(p):
                            res.append(([*head.split("::")] if head else []) + e)
                    return res
                depth += 1
        return [t.split("::")]

    return expand(tree)


def resolve(mods, here, segs, reexports=None):
    """The module a path from module `here` leads into (the longest
    module prefix, then through the re-exports of that module), or None
    when it leaves the crate."""
    if not segs:
        return None
    if segs[0] == "crate":
        base, rest = (), segs[1:]
    elif segs[0] == "self":
        base, rest = here, segs[1:]
    elif segs[0] == "super":
        base, rest = here, segs
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    elif here + (segs[0],) in mods:
        base, rest = here, segs
    else:
        return None
    target = base
    for k, s in enumerate(rest):
        if target + (s,) in mods:
            target = target + (s,)
            continue
        seen = set()
        while reexports and (target, s) in reexports and (target, s) not in seen:
            seen.add((target, s))
            target = reexports[(target, s)]
        break
    return target


USE = re.compile(r"(\bpub(?:\([^)]*\))?\s+)?\buse\s+([^;]+);")
PATH = re.compile(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+)")
# A path through a child module (`structure::structure(f)`).
CHILD_PATH = re.compile(r"(?<![\w:])([a-z_]\w*(?:::\w+)+)")


def module_graph(crate):
    mods, test_only = crate_modules(crate)
    graph = {m: set() for m in mods}
    codes = {}
    for here, file in mods.items():
        if any(here[: k + 1] in test_only for k in range(len(here))):
            continue
        codes[here] = without_test_modules(
            blank_comments_and_strings(open(file, encoding="utf-8").read())
        )
    # (module, name) -> the module the re-exported item comes from.
    reexports = {}
    for here, code in codes.items():
        for m in USE.finditer(code):
            if not m.group(1):
                continue
            for p in expand_use(m.group(2)):
                t = resolve(mods, here, p)
                if t is not None and p and p[-1] not in ("self", "*"):
                    reexports[(here, p[-1])] = t
    for here, code in codes.items():
        targets = []
        for m in USE.finditer(code):
            if not m.group(1):
                targets += [resolve(mods, here, p, reexports) for p in expand_use(m.group(2))]
        rest = USE.sub(" ", code)
        for m in PATH.finditer(rest):
            targets.append(resolve(mods, here, m.group(1).split("::"), reexports))
        for m in CHILD_PATH.finditer(rest):
            segs = m.group(1).split("::")
            if here + (segs[0],) in mods:
                targets.append(resolve(mods, here, segs, reexports))
        for t in targets:
            if t is not None and t != here and t in graph:
                graph[here].add(t)
    return graph


def debug_edges(crate):
    for m, ts in sorted(module_graph(crate).items()):
        for t in sorted(ts):
            print(name(crate, m), "->", name(crate, t))


def cycles(graph):
    """One cycle per strongly connected component of more than one module
    (Tarjan's algorithm, iteratively), as a list of modules."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def name(crate, mod):
    return "::".join([crate.replace("-", "_")] + list(mod))


def offenders():
    found = []
    for crate in CRATES:
        mods, test_only = crate_modules(crate)
        for mod, file in sorted(mods.items()):
            if any(mod[: k + 1] in test_only for k in range(len(mod))):
                continue
            code = without_test_modules(blank_comments_and_strings(open(file, encoding="utf-8").read()))
            for fn, line, length in long_functions(code):
                rel = os.path.relpath(file, ROOT)
                found.append((f"long {name(crate, mod)}::{fn}", f"{rel}:{line}: {length} lines"))
        for comp in cycles(module_graph(crate)):
            found.append(("cycle " + " <-> ".join(name(crate, m) for m in comp), "an import circle"))
    return found


def main():
    if "--edges" in sys.argv[1:]:
        debug_edges(sys.argv[-1])
        return 0
    found = offenders()
    if "--list" in sys.argv[1:]:
        for key, _ in found:
            print(key)
        return 0
    allowed = set()
    if os.path.exists(ALLOW):
        for line in open(ALLOW, encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                allowed.add(line)
    keys = {k for k, _ in found}
    bad = 0
    for key, where in found:
        if key not in allowed:
            print(f"error: {key} ({where}): over {MAX_LINES} lines or an import circle", file=sys.stderr)
            bad += 1
    for key in sorted(allowed - keys):
        print(f"error: `{key}` is fixed: remove its line from {os.path.relpath(ALLOW, ROOT)}", file=sys.stderr)
        bad += 1
    if bad:
        return 1
    print(f"check-structure: no new function over {MAX_LINES} lines, no new import circle ({len(allowed)} allowed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
