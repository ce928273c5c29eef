#!/usr/bin/env python3
"""check-circles.py — fails when files depend on each other in a loop, and names each loop.

Usage: check-circles.py BUILD_DIR [--root DIR]

The graph, over the files of src/, python/src and web/client/src under DIR (default: this
repository):
- C (src/, python/src): A depends on B when A calls a function or uses a global that B
  defines, read from `nm` of the object files under BUILD_DIR (A's undefined symbols resolved
  to the object that defines them), or when A includes B's header (static inline functions
  and macros count through the include). A .c file and the header of the same name beside it
  are one node, as is its private header NAME_internal.h (what the file shares with the files
  that sit above it, such as server.c's server_internal.h); any other header without its .c is
  a node of its own.
- JavaScript (web/client/src): A depends on B when A imports from, or re-exports, './B.js'.
Each strongly connected component of more than one file (Tarjan) is a circle: it is printed
with its edges and the names (symbols, includes, imports) that tie them, and the exit status
is 1. Python 3's standard library only; needs binutils' nm. BUILD_DIR is any build of the
project: the calls of a Debug build (build-sanitize) include those inside assertions, which a
Release build (build) compiles out, so a Debug build may show a few more edges.
"""
import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

C_DIRS = ("src", "python/src")
JS_DIR = "web/client/src"
# Where a quoted #include is looked for after the including file's own folder (the build's
# include paths that lead back into src/).
INCLUDE_DIRS = ("src", "src/server", "src/wasm/include", "python/src")
OBJECT_SUFFIXES = (".o", ".obj")
DEFINED_TYPES = set("TDBRCGSVW")  # nm -P: upper case is global; U is undefined
MAX_NAMES = 6


def files_under(root, top, suffixes):
    """Paths relative to root of the files under root/top ending with one of suffixes."""
    found = []
    for folder, dirs, names in os.walk(os.path.join(root, top)):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(suffixes):
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return found


def c_node(path, sources):
    """A header is the node of the .c file of the same name beside it, when there is one
    (NAME.h, or NAME_internal.h: the file's own private header)."""
    stem, ext = os.path.splitext(path)
    if ext != ".h":
        return path
    for owner in (stem, stem[:-len("_internal")] if stem.endswith("_internal") else None):
        if owner and owner + ".c" in sources:
            return owner + ".c"
    return path


class Graph:
    """Edges between nodes, each with the names that make it."""

    def __init__(self):
        self.nodes = set()
        self.edges = defaultdict(lambda: defaultdict(set))

    def add(self, a, b, name):
        self.nodes.update((a, b))
        if a != b:
            self.edges[a][b].add(name)


# ---- C: symbols from nm, then includes ----


def object_sources(build_dir, sources):
    """{object file: the source under src/ or python/src it was compiled from}. CMake names an
    object after its source's path (CMakeFiles/T.dir/src/core/game.c.o, or the absolute path
    for sources outside the project, as in the WebAssembly build): a known source path that
    ends the object's path is its source."""
    found = {}
    for folder, _, names in os.walk(build_dir):
        for name in names:
            suffix = next((s for s in OBJECT_SUFFIXES if name.endswith(s)), None)
            if not suffix:
                continue
            parts = os.path.join(folder, name)[: -len(suffix)].split(os.sep)
            for i in range(len(parts)):
                candidate = "/".join(parts[i:])
                if candidate in sources:
                    found[os.path.join(folder, name)] = candidate
                    break
    return found


def read_symbols(objects):
    """{object: (defined globals, undefined symbols)} from `nm -A -P`, many objects a call.
    Objects nm cannot read (the WebAssembly build's) are left out."""
    symbols = {o: (set(), set()) for o in objects}
    batch = 200
    for start in range(0, len(objects), batch):
        chunk = objects[start : start + batch]
        run = subprocess.run(["nm", "-A", "-P", *chunk], capture_output=True, text=True)
        for line in run.stdout.splitlines():
            head, _, rest = line.partition(": ")
            fields = rest.split()
            if head not in symbols or len(fields) < 2:
                continue
            name, kind = fields[0], fields[1]
            if kind == "U":
                symbols[head][1].add(name)
            elif kind in DEFINED_TYPES:
                symbols[head][0].add(name)
    return symbols


def add_symbol_edges(graph, build_dir, sources):
    objects = object_sources(build_dir, set(sources))
    if not objects:
        sys.exit(f"check-circles: no object files of src/ or python/src under {build_dir}: "
                 "build first")
    symbols = read_symbols(sorted(objects))
    defined_in = defaultdict(set)
    for obj, (defined, _) in symbols.items():
        for name in defined:
            defined_in[name].add(c_node(objects[obj], sources))
    for obj, (_, undefined) in symbols.items():
        user = c_node(objects[obj], sources)
        graph.nodes.add(user)
        for name in undefined:
            for definer in defined_in.get(name, ()):
                graph.add(user, definer, name)
    return len(objects)


INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def resolve_include(root, including, target, sources):
    for folder in (os.path.dirname(including),) + INCLUDE_DIRS:
        path = os.path.normpath(os.path.join(folder, target))
        if path in sources:
            return path
    return None


def add_include_edges(graph, root, sources):
    for path in sources:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        user = c_node(path, sources)
        graph.nodes.add(user)
        for target in INCLUDE_RE.findall(text):
            header = resolve_include(root, path, target, sources)
            if header:
                graph.add(user, c_node(header, sources), f'#include "{target}"')


# ---- JavaScript: imports ----

JS_COMMENT_RE = re.compile(r"/\*.*?\*/|^\s*//[^\n]*", re.S | re.M)
JS_FROM_RE = re.compile(r"\b(import|export)\s+([^;'\"`]*?)\s*\bfrom\s*['\"]([^'\"]+)['\"]", re.S)
JS_BARE_RE = re.compile(r"\bimport\s*\(?\s*['\"]([^'\"]+)['\"]")


def add_import_edges(graph, root):
    sources = set(files_under(root, JS_DIR, (".js", ".mjs", ".jsx")))
    for path in sorted(sources):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = JS_COMMENT_RE.sub("", f.read())
        graph.nodes.add(path)
        imports = [(m.group(3), " ".join(m.group(2).split())) for m in JS_FROM_RE.finditer(text)]
        imports += [(m.group(1), "import") for m in JS_BARE_RE.finditer(text)]
        for spec, names in imports:
            if not spec.startswith("."):
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), spec))
            if target in sources:
                graph.add(path, target, f"{names} from '{spec}'")
    return len(sources)


# ---- circles ----


def strongly_connected(graph):
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph.nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.edges[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return components


def describe(graph, component):
    members = set(component)
    lines = [f"circle of {len(component)} files: {', '.join(component)}"]
    for a in component:
        for b in sorted(graph.edges[a]):
            if b not in members:
                continue
            names = sorted(graph.edges[a][b])
            shown = ", ".join(names[:MAX_NAMES])
            more = f" (+{len(names) - MAX_NAMES} more)" if len(names) > MAX_NAMES else ""
            lines.append(f"  {a} -> {b}: {shown}{more}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build_dir", help="a build directory holding the C object files")
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))), help="the source tree (default: this repository)")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    c_sources = []
    for top in C_DIRS:
        c_sources += files_under(root, top, (".c", ".h"))
    graph = Graph()
    objects = add_symbol_edges(graph, os.path.abspath(args.build_dir), c_sources)
    add_include_edges(graph, root, c_sources)
    scripts = add_import_edges(graph, root)
    circles = [c for c in strongly_connected(graph) if len(c) > 1]
    for component in sorted(circles):
        print(describe(graph, component))
    edges = sum(len(targets) for targets in graph.edges.values())
    print(f"check-circles: {len(graph.nodes)} files ({objects} objects read, {scripts} scripts), "
          f"{edges} dependencies, {len(circles)} circle{'s' if len(circles) != 1 else ''}")
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main())
