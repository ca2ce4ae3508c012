#!/usr/bin/env python3
"""The house rules a reader relies on, checked on the source tree:

- no two source files import each other, directly or around a longer circle (a file
  imports another when it names an item of the other's module: `use crate::a::b`,
  `super::x`, or a path written inline);
- no source file in `src/` over 400 lines, no function over 80 lines;
- every relative link in the README and `docs/` names a file the repository holds (a
  picture or a sound left out of a commit is a dead link on every fresh checkout);
- no doc in `docs/` over 400 lines (a reader finds a design in it, not a diary);
- no `#[path]` in `src/` outside a test module (a module lives where its path says);
- at most 12 `.rs` files directly in `src/engine/` (it is a house of rooms);
- every `unsafe` block, fn or impl in `src/` has a `// SAFETY:` comment just above it
  (or, for an `unsafe fn`, a `# Safety` section in its doc comment).

It prints the longest files and functions either way, and exits 1 when a rule is broken
(`--report` only prints; `--sizes report` enforces the circles and only lists what is
over a size limit). Files or functions still over their limit are named, so a split can
be planned from the output.
"""

import argparse
import os
import re
import subprocess
import sys

MAX_FILE_LINES = 400
MAX_FN_LINES = 80
MAX_DOC_LINES = 400
MAX_ENGINE_FILES = 12

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SRC = os.path.join(ROOT, "src")


def rust_files():
    for dirpath, _, names in os.walk(SRC):
        for n in sorted(names):
            if n.endswith(".rs"):
                yield os.path.relpath(os.path.join(dirpath, n), ROOT)


def module_of(path):
    """The module path of a file under src/ (the crate's, or a binary's)."""
    parts = path.split(os.sep)[1:]  # drop "src"
    if parts[0] == "bin":
        crate = "bin:" + parts[1].removesuffix(".rs")
        parts = parts[2:]
    else:
        crate = "crate"
    if parts and parts[-1] in ("mod.rs", "lib.rs", "main.rs"):
        parts = parts[:-1]
    elif parts:
        parts[-1] = parts[-1].removesuffix(".rs")
    return crate, tuple(parts)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def test_block_free(text):
    """The text without `#[cfg(test)]` modules (tests may reach anywhere)."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


USE_RE = re.compile(r"\buse\s+([^;]+);", re.S)
PUB_USE_RE = re.compile(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", re.S)
PATH_RE = re.compile(r"\b((?:crate|super|self)(?:::\w+)+)")


def expand_use(tree):
    """`a::{b, c::{d}}` -> ["a::b", "a::c::d"] (enough for module resolution)."""
    tree = re.sub(r"\s+as\s+", "@as@", tree.strip())
    tree = re.sub(r"\s+", "", tree)
    m = re.match(r"^(.*?)::\{(.*)\}$", tree)
    if not m:
        return [tree.replace("@as@", " as ")]
    head, body = m.groups()
    items, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        cur += ch
    items.append(cur)
    out = []
    for it in filter(None, items):
        for e in expand_use(it):
            out.append(head if e.split(" as ")[0] == "self" else head + "::" + e)
    return out


def resolve(path, here, modules, reexports, depth=0):
    """The longest known module that `path` (seen in module `here`) names."""
    crate, mod = here
    segs = path.split("::")
    if segs[0] == "crate":
        base, rest = (), segs[1:]
    elif segs[0] in ("super", "self"):
        base = list(mod)
        rest = segs
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super" and base:
                base.pop()
            rest = rest[1:]
        base = tuple(base)
    else:
        # A path from the current module (`use child::item;`).
        base, rest = tuple(mod), segs
    if segs[0] == "crate" and crate != "crate":
        crate_key = crate
    else:
        crate_key = crate
    best, used = None, 0
    for k in range(0 if segs[0] in ("crate", "super", "self") else 1, len(rest) + 1):
        cand = (crate_key, base + tuple(rest[:k]))
        if cand in modules:
            best, used = cand, k
    # An item a module re-exports (`pub use a::b::Item;`) is the origin's, not the
    # facade's: follow it.
    if best and used < len(rest) and depth < 8:
        origin = reexports.get(best, {}).get(rest[used])
        if origin:
            return resolve(origin + "::" + "::".join(rest[used + 1 :]) if used + 1 < len(rest) else origin, best, modules, reexports, depth + 1)
    return best


PATH_MOD_RE = re.compile(r'((?:#\[cfg\(test\)\]\s*)?)#\[path\s*=\s*"([^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;')


def path_modules(files):
    """Files placed by `#[path = "…"] mod name;`: their real module paths, and the
    test-only ones (left out: tests may reach anywhere)."""
    placed, tests = {}, set()
    for f in files:
        text = open(os.path.join(ROOT, f)).read()
        for m in PATH_MOD_RE.finditer(text):
            target = os.path.normpath(os.path.join(os.path.dirname(f), m.group(2)))
            if m.group(1):
                tests.add(target)
            else:
                crate, mod = module_of(f)
                placed[target] = (crate, mod + (m.group(3),))
    return placed, tests


def import_graph(files):
    placed, tests = path_modules(files)
    files = [f for f in files if f not in tests]
    mod_of = {f: placed.get(f, module_of(f)) for f in files}
    modules = {m: f for f, m in mod_of.items()}
    texts = {f: test_block_free(strip_comments(open(os.path.join(ROOT, f)).read())) for f in files}
    # A visibility (`pub(in crate::engine)`) names a module without importing it.
    texts = {f: re.sub(r"pub\(in\s[^)]*\)", "pub", t) for f, t in texts.items()}
    reexports = {}
    for f in files:
        names = {}
        for m in PUB_USE_RE.finditer(texts[f]):
            for p in expand_use(m.group(1)):
                alias = re.search(r" as (\w+)$", p)
                p = p.split(" as ")[0]
                if not p.endswith("*"):
                    names[alias.group(1) if alias else p.split("::")[-1]] = p
        reexports[mod_of[f]] = names
    graph = {f: set() for f in files}
    for f in files:
        here = mod_of[f]
        text = texts[f]
        paths = []
        for m in USE_RE.finditer(text):
            paths += expand_use(m.group(1))
        paths += PATH_RE.findall(text)
        for p in paths:
            target = resolve(p.split(" as ")[0], here, modules, reexports)
            if target and modules[target] != f:
                # A file declaring a child module (`mod x;`) is not an import of it.
                graph[f].add(modules[target])
    return graph


def circles(graph):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


FN_RE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)")


def functions(path):
    """(name, first line, length in lines) of every fn with a body."""
    lines = open(os.path.join(ROOT, path)).read().splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = FN_RE.match(lines[i])
        if not m:
            i += 1
            continue
        depth, started, j = 0, False, i
        while j < len(lines):
            code = lines[j].split("//")[0]
            if not started and ";" in code and "{" not in code:
                break
            depth += code.count("{") - code.count("}")
            started = started or "{" in code
            if started and depth <= 0:
                out.append((m.group(1), i + 1, j - i + 1))
                break
            j += 1
        i += 1
    return out


LINK = re.compile(r"\]\(([^)#\s]+)")


def held_files():
    """The files the repository holds: git's list when this is a checkout (so a file
    present here but never committed counts as missing), else what is on disk."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        return {os.path.normpath(f) for f in out.decode().split("\0") if f}
    except (OSError, subprocess.CalledProcessError):
        return None


def dead_links():
    held = held_files()
    docs = ["README.md"] + sorted(
        os.path.join("docs", n) for n in os.listdir(os.path.join(ROOT, "docs")) if n.endswith(".md")
    )
    dead = []
    for doc in docs:
        text = open(os.path.join(ROOT, doc)).read()
        for m in LINK.finditer(text):
            link = m.group(1)
            if re.match(r"[a-z]+:", link):
                continue
            path = os.path.normpath(os.path.join(os.path.dirname(doc), link))
            if held is None:
                ok = os.path.exists(os.path.join(ROOT, path))
            else:
                ok = path in held or any(h.startswith(path + os.sep) for h in held)
            if not ok:
                dead.append(f"dead link in {doc}: {link}")
    return dead


def long_docs():
    docs = os.path.join(ROOT, "docs")
    out = []
    for n in sorted(os.listdir(docs)):
        if n.endswith(".md"):
            lines = sum(1 for _ in open(os.path.join(docs, n)))
            if lines > MAX_DOC_LINES:
                out.append(f"doc over {MAX_DOC_LINES} lines: docs/{n} ({lines})")
    return out


def blank_comments(text):
    """The text with comments and string literals blanked, lines kept in place."""
    pat = re.compile(r'//[^\n]*|/\*.*?\*/|r#*"(?:.|\n)*?"#*|"(?:\\.|[^"\\])*"', re.S)
    return pat.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def test_spans(code):
    """Line ranges (first, last, 0-based) of `#[cfg(test)]` modules, inline or not."""
    spans = []
    for m in re.finditer(r"#\[cfg\(test\)\](?:\s*#\[[^\]]*\])*\s*mod\s+\w+\s*([{;])", code):
        first = code.count("\n", 0, m.start())
        if m.group(1) == ";":
            spans.append((first, code.count("\n", 0, m.end())))
            continue
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        spans.append((first, code.count("\n", 0, j)))
    return spans


def stray_paths(files):
    """`#[path]` attributes outside a `#[cfg(test)]` module."""
    out = []
    for f in files:
        code = blank_comments(open(os.path.join(ROOT, f)).read())
        spans = test_spans(code)
        for m in re.finditer(r"#\[path\s*=", code):
            line = code.count("\n", 0, m.start())
            if not any(a <= line <= b for a, b in spans):
                out.append(f"#[path] outside a test module: {f}:{line + 1}")
    return out


def crowded_engine():
    engine = os.path.join(SRC, "engine")
    n = sum(1 for e in os.listdir(engine) if e.endswith(".rs"))
    if n > MAX_ENGINE_FILES:
        return [f"{n} .rs files directly in src/engine/ (at most {MAX_ENGINE_FILES}: put them in rooms)"]
    return []


UNSAFE_RE = re.compile(r"\bunsafe\s*\{|\bunsafe\s+impl\b|\bunsafe\s+(?:extern\s+(?:\S+\s+)?)?fn\s+\w")


def unexplained_unsafe(files):
    """`unsafe` blocks, fns and impls with no `// SAFETY:` comment just above them (the
    comment and attribute lines right above the line), nor, for an `unsafe fn`, a
    `# Safety` section in its doc comment."""
    out = []
    for f in files:
        text = open(os.path.join(ROOT, f)).read()
        lines = text.splitlines()
        code = blank_comments(text)
        for m in UNSAFE_RE.finditer(code):
            i = code.count("\n", 0, m.start())
            above = []
            j = i - 1
            while j >= 0 and re.match(r"\s*(//|#\[)", lines[j]):
                above.append(lines[j])
                j -= 1
            said = any(re.match(r"\s*//\s*SAFETY:", a) for a in above)
            if "fn" in m.group(0):
                said = said or any(re.match(r"\s*///\s*# Safety\s*$", a) for a in above)
            if not said:
                out.append(f"unsafe without a SAFETY comment: {f}:{i + 1}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--report", action="store_true", help="print only, never fail")
    ap.add_argument("--top", type=int, default=8, help="how many longest to list")
    ap.add_argument(
        "--sizes",
        choices=["enforce", "report"],
        default="enforce",
        help="whether a file or function over its limit fails the check",
    )
    args = ap.parse_args()

    files = list(rust_files())
    broken = []

    loops = circles(import_graph(files))
    for c in loops:
        broken.append("import circle: " + " -> ".join(c))
    print(f"import circles: {len(loops)}")

    sizes = sorted(((sum(1 for _ in open(os.path.join(ROOT, f))), f) for f in files), reverse=True)
    print(f"longest files (limit {MAX_FILE_LINES} lines):")
    for n, f in sizes[: args.top]:
        print(f"  {n:5d}  {f}")
    over = [f"file over {MAX_FILE_LINES} lines: {f} ({n})" for n, f in sizes if n > MAX_FILE_LINES]

    fns = sorted(((n, f"{f}:{line} {name}") for f in files for name, line, n in functions(f)), reverse=True)
    print(f"longest functions (limit {MAX_FN_LINES} lines):")
    for n, where in fns[: args.top]:
        print(f"  {n:5d}  {where}")
    over += [f"function over {MAX_FN_LINES} lines: {w} ({n})" for n, w in fns if n > MAX_FN_LINES]
    if args.sizes == "enforce":
        broken += over
    else:
        for o in over:
            print("over:", o)

    dead = dead_links()
    print(f"dead links in README.md and docs/: {len(dead)}")
    broken += dead

    for name, found in [
        ("docs over the limit", long_docs()),
        ("#[path] outside tests", stray_paths(files)),
        ("engine crowded", crowded_engine()),
        ("unsafe without SAFETY", unexplained_unsafe(files)),
    ]:
        print(f"{name}: {len(found)}")
        broken += found

    for b in broken:
        print("BROKEN:", b)
    if broken and not args.report:
        sys.exit(1)


if __name__ == "__main__":
    main()
