#!/usr/bin/env python3
"""The structure of runtime/: a graph of its files, their loops and layers.

usage: structure.py [--root runtime] [--lib lib/libjvmtirt.a | --objects OBJ...]
                    [--prefix PREFIX] [--exclude DIR]... [--layers FILE]
                    [--check] [--list]

Nodes are runtime's .c and .h files (every folder below --root but the
--exclude ones, named relative to --root). Arrows:
  - include: `#include "name"` naming another file of runtime/ (found by its
    name, which must be unique in runtime/);
  - call: a symbol an object of the static library leaves undefined and
    another runtime object defines (`nm`); the library's members are named
    after their .c files, so each member is a file of runtime/ (members of
    generated code, out/, are not nodes). --objects reads the objects
    themselves instead (host/'s: make builds them one by one, named
    PREFIX + the .c file's name, e.g. host-interp.o for --prefix host-).
Loops are the strongly connected components of more than one file (or a
file with an arrow to itself). With --layers, every file gets a layer
(the longest folder or file prefix the layers file names; a file with none
is an error) and an arrow from a lower layer to a higher one is an upward
arrow. Without it, the layers are worked out from the graph alone (the
files' "floors": the arrows that close a loop, found by a depth-first walk
in name order, are set aside as the ones running back up; every other
arrow goes one floor down or more), so that a tree with no layers declared
still gets figures to compare.

Prints the figures; --list also every loop's files and every upward arrow
with what makes it (the symbols called, or "include"). --check: exit 1 on
any loop, upward arrow or file without a layer.
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def files_of(root, exclude=()):
    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if os.path.relpath(os.path.join(d, x), root)
                         not in exclude)
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(out)


def symbols(paths, prefix=""):
    """member -> (defined globals, undefined) from nm of an archive or of
    objects (a member is named after its object, PREFIX taken off)."""
    text = subprocess.run(["nm", "-A", "-P"] + list(paths), check=True, capture_output=True,
                          text=True).stdout
    members = {}
    for line in text.splitlines():
        # "lib/libjvmtirt.a[env.o]: name T value size", "build/rt/host-jni.o: name U"
        head, _, rest = line.partition(": ")
        m = re.search(r"\[([^]]+)\]$", head)
        member = m.group(1) if m else os.path.basename(head)
        if member.startswith(prefix):
            member = member[len(prefix):]
        if not rest:
            continue
        parts = rest.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        d, u = members.setdefault(member, (set(), set()))
        if kind == "U":
            u.add(name)
        elif kind.isupper() or kind in "vw":  # global, or a weak definition
            d.add(name)
    return members


def build_graph(root, lib, objects=None, prefix="", exclude=()):
    files = files_of(root, exclude)
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)
    dup = {n: fs for n, fs in by_name.items() if len(fs) > 1}
    if dup:
        sys.exit("structure: file names must be unique in %s: %s" % (root, dup))
    arrows = {}  # (from, to) -> set of reasons

    def add(a, b, why):
        arrows.setdefault((a, b), set()).add(why)

    for f in files:
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            for inc in INCLUDE.findall(fh.read()):
                target = by_name.get(os.path.basename(inc))
                if target:
                    add(f, target[0], "include")
    if lib or objects:
        members = symbols(objects or [lib], prefix)
        file_of = {}
        for member in members:
            src = os.path.splitext(member)[0] + ".c"
            if src in by_name:
                file_of[member] = by_name[src][0]
        definer = {}
        for member, (defined, _) in members.items():
            if member in file_of:
                for s in defined:
                    definer[s] = file_of[member]
        for member, (_, undefined) in members.items():
            if member not in file_of:
                continue
            for s in undefined:
                if s in definer and definer[s] != file_of[member]:
                    add(file_of[member], definer[s], s)
        missing = [f for f in files if f.endswith(".c") and
                   os.path.basename(f)[:-2] + ".o" not in file_of]
        if missing:
            sys.exit("structure: not in %s: %s" % (lib if not objects else "the objects",
                                                     " ".join(missing)))
    return files, arrows


def loops(files, arrows):
    """Strongly connected components (Tarjan), those that are loops."""
    succ = {f: sorted(b for (a, b) in arrows if a == f) for f in files}
    index, low, on, stack, comps = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
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
            comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for f in files:
        if f not in index:
            visit(f)
    return [c for c in comps if len(c) > 1 or (c[0], c[0]) in arrows]


def inferred_floors(files, arrows):
    """Floors from the graph alone: back arrows of a name-ordered walk set
    aside, then each file one floor above the highest it points to."""
    succ = {f: sorted(b for (a, b) in arrows if a == f) for f in files}
    state, back = {}, set()

    def walk(v):
        state[v] = 1
        for w in succ[v]:
            if state.get(w) == 1:
                back.add((v, w))
            elif w not in state:
                walk(w)
        state[v] = 2

    for f in files:
        if f not in state:
            walk(f)
    floor = {}

    def height(v):
        if v not in floor:
            floor[v] = 0
            floor[v] = 1 + max([height(w) for w in succ[v] if (v, w) not in back], default=-1)
        return floor[v]

    for f in files:
        height(f)
    return floor, back


def read_layers(path):
    layers = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if len(line) != 2 or not line[1].isdigit():
                sys.exit("%s:%d: error: want PATH LAYER" % (path, n))
            layers.append((line[0].rstrip("/"), int(line[1])))
    return layers


def layer_of(f, layers):
    best = None
    for prefix, layer in layers:
        if f == prefix or f.startswith(prefix + "/") or prefix == ".":
            if best is None or len(prefix) > len(best[0]) or best[0] == ".":
                best = (prefix, layer)
    return best[1] if best else None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", default="runtime")
    p.add_argument("--lib", default="lib/libjvmtirt.a")
    p.add_argument("--objects", nargs="+", help="objects to read instead of --lib")
    p.add_argument("--prefix", default="", help="what the objects' names start with")
    p.add_argument("--exclude", action="append", default=[],
                   help="a folder below --root that is not part of the program")
    p.add_argument("--layers")
    p.add_argument("--check", action="store_true")
    p.add_argument("--list", action="store_true")
    a = p.parse_args()
    files, arrows = build_graph(a.root, a.lib, a.objects, a.prefix,
                                [x.rstrip("/") for x in a.exclude])
    calls = sum(1 for why in arrows.values() if why - {"include"})
    includes = sum(1 for why in arrows.values() if "include" in why)
    found = loops(files, arrows)
    print("files: %d (%d .c, %d .h)" % (len(files), sum(f.endswith(".c") for f in files),
                                       sum(f.endswith(".h") for f in files)))
    print("arrows: %d (%d with calls, %d with includes)" % (len(arrows), calls, includes))
    print("loops: %d%s" % (len(found), (" (files: %s)" % ", ".join(
        str(len(c)) for c in found)) if found else ""))
    bad = bool(found)
    if a.layers:
        layers = read_layers(a.layers)
        layer = {f: layer_of(f, layers) for f in files}
        unplaced = [f for f in files if layer[f] is None]
        up = sorted(ab for ab in arrows if None not in (layer[ab[0]], layer[ab[1]]) and
                    layer[ab[0]] < layer[ab[1]])
        print("layers: %d declared (%s)" % (len(set(layer.values()) - {None}), a.layers))
        print("upward arrows: %d" % len(up))
        if unplaced:
            print("files without a layer: %s" % " ".join(unplaced))
        bad = bad or bool(up) or bool(unplaced)
        up_note = lambda ab: "layer %d -> %d" % (layer[ab[0]], layer[ab[1]])
    else:
        floor, back = inferred_floors(files, arrows)
        up = sorted(back)
        print("floors: %d inferred (no layers declared)" % (max(floor.values(), default=-1) + 1))
        print("upward arrows: %d (arrows closing a loop, on the inferred floors)" % len(up))
        up_note = lambda ab: "floor %d -> %d" % (floor[ab[0]], floor[ab[1]])
    if a.list:
        for c in found:
            print("loop of %d: %s" % (len(c), " ".join(c)))
        for ab in up:
            why = sorted(arrows[ab])
            print("up: %s -> %s (%s): %s" % (ab[0], ab[1], up_note(ab), " ".join(why[:4]) +
                                              (" ..." if len(why) > 4 else "")))
    return 1 if a.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
