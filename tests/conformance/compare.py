#!/usr/bin/env python3
"""Compares the conformance agent's output in HotSpot and in bin/jvmti-host.

usage: compare.py HOTSPOT.out HOST.out DIFFERENCES.md [--min N] [--areas AREAS.txt]

A case line is "case-id answer..." (the id: lower-case first, at least one
dot); "timing.NAME NS" lines are timings; anything else (a VM's own
messages) is ignored. A case agrees when both outputs have it with the same
answer; it differs when the answers differ or only one output has it; a
case SKIPped by either is not compared.

DIFFERENCES.md documents the differences: a table row
    | `CASE-GLOB` | `HOTSPOT ANSWER` | `HOST ANSWER` | why |
covers a differing case whose id matches the glob (fnmatch: * and ?) and
whose two answers are exactly those (a missing answer is written `-`). A
row whose reason begins with "Not comparable" counts the cases it covers as
not comparable rather than as differences (the reason says why the two
answers cannot be judged against each other); so does a SKIP on either side.

Areas: a generated case ("KIND.FUNCTION[.PARAM]") belongs to its function's
category (AREAS.txt, "FUNCTION<tab>CATEGORY" lines from gen_cases.py), a
hand-written one to the category its prefix names (PREFIX_AREAS), any other
to the first part of its id ("cflh", "frames", "stacks", "heap", ...).

Prints the undocumented differences, the documented rows no difference
matched any more (stale), the timings with their ratios, a table of areas
(agree, differ, not comparable), and last
    conformance: N agree, M differ (K documented), L not comparable
Exit status 0 when every difference is documented, no row is stale and at
least --min cases agree (default 0); 1 otherwise; 2 for bad usage or input.
"""
import fnmatch
import re
import sys

CASE = re.compile(r"^([a-z][A-Za-z0-9_+^.-]*\.[A-Za-z0-9_+^.-]+) (.+)$")


def read_output(path):
    cases, timings = {}, {}
    with open(path, errors="replace") as f:
        for line in f:
            m = CASE.match(line.rstrip("\n"))
            if not m:
                continue
            cid, answer = m.group(1), m.group(2).strip()
            if cid.startswith("timing."):
                try:
                    timings[cid[len("timing."):]] = float(answer)
                except ValueError:
                    pass
            else:
                cases[cid] = answer
    return cases, timings


def read_documented(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            cells = [c.strip() for c in line.strip().split("|")]
            # | `glob` | `hotspot` | `host` | why |  ->  ['', glob, hs, host, why, '']
            if len(cells) < 6 or not cells[1].startswith("`"):
                continue
            code = [c.strip("`") for c in cells[1:4]]
            if not all(cells[i].startswith("`") and cells[i].endswith("`") for i in (1, 2, 3)):
                raise ValueError("%s:%d: the first three cells must be `code`" % (path, n))
            rows.append({"line": n, "glob": code[0], "hotspot": code[1], "host": code[2],
                         "why": cells[4], "used": 0,
                         "comparable": not cells[4].startswith("Not comparable")})
    return rows


def read_areas(path):
    areas = {}
    if path:
        with open(path) as f:
            for line in f:
                fn, _, label = line.rstrip("\n").partition("\t")
                if fn and label:
                    areas[fn] = label
    return areas


# The hand-written cases' prefixes that belong to one of the spec's categories.
PREFIX_AREAS = {
    "allocate": "Memory Management", "deallocate": "Memory Management",
    "callbacks": "Event Management", "event": "Event Management",
    "generate-events": "Event Management", "caps": "Capability", "clock": "Timers",
    "cpu": "Timers", "cpu-time": "Timers", "error-name": "General", "phase": "General",
    "version": "General", "verbose": "General", "local-storage": "General",
    "dispose": "General", "getenv": "General", "extension": "Extension Mechanism",
    "monitor": "Raw Monitor", "monitor-onload": "Raw Monitor",
    "property": "System Properties", "suspend": "Thread", "resume": "Thread",
    "tls": "Thread", "tags": "Heap", "setup": "(agent)", "stage": "(agent)",
}


def area_of(cid, areas):
    parts = cid.split(".")
    if len(parts) >= 2 and parts[1] in areas:
        return areas[parts[1]]
    return PREFIX_AREAS.get(parts[0], parts[0])


def main(argv):
    args, minimum, areas_file = [], 0, None
    i = 1
    while i < len(argv):
        if argv[i] == "--min" and i + 1 < len(argv):
            minimum = int(argv[i + 1])
            i += 2
        elif argv[i] == "--areas" and i + 1 < len(argv):
            areas_file = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 3:
        sys.stderr.write("usage: compare.py HOTSPOT.out HOST.out DIFFERENCES.md [--min N] "
                         "[--areas AREAS.txt]\n")
        return 2
    try:
        hs, hs_t = read_output(args[0])
        host, host_t = read_output(args[1])
        rows = read_documented(args[2])
        areas = read_areas(areas_file)
    except (OSError, ValueError) as e:
        sys.stderr.write("compare.py: %s\n" % e)
        return 2

    agree = skipped = 0
    differ, undocumented, incomparable = [], [], []
    table = {}  # area -> [agree, differ, not comparable]
    ids = list(hs) + [c for c in host if c not in hs]
    for cid in ids:
        a, b = hs.get(cid, "-"), host.get(cid, "-")
        counts = table.setdefault(area_of(cid, areas), [0, 0, 0])
        if a.startswith("SKIP") or b.startswith("SKIP"):
            skipped += 1
            counts[2] += 1
            continue
        if a == b:
            agree += 1
            counts[0] += 1
            continue
        row = next((r for r in rows if fnmatch.fnmatchcase(cid, r["glob"])
                    and r["hotspot"] == a and r["host"] == b), None)
        if row:
            row["used"] += 1
        if row and not row["comparable"]:
            incomparable.append(cid)
            counts[2] += 1
            continue
        differ.append(cid)
        counts[1] += 1
        if not row:
            undocumented.append((cid, a, b))

    for cid, a, b in undocumented:
        print("undocumented: %s: HotSpot `%s`, host `%s`" % (cid, a, b))
    stale = [r for r in rows if not r["used"]]
    for r in stale:
        print("stale: %s:%d: `%s` (HotSpot `%s`, host `%s`) matches no difference" % (
            args[2], r["line"], r["glob"], r["hotspot"], r["host"]))
    if any(name in host_t and hs_t[name] > 0 for name in hs_t):
        print("timing: ns per call, the agent's thread CPU time (CLOCK_THREAD_CPUTIME_ID), "
              "best of 150 rounds (GetObjectsWithTags-100k: 15), paced by the agent's span option if set, the same loop in both VMs, nothing subtracted")
    for name in hs_t:
        if name in host_t and hs_t[name] > 0:
            print("timing: %-32s HotSpot %8.2f ns  host %8.2f ns  host/HotSpot %6.2f" % (
                name, hs_t[name], host_t[name], host_t[name] / hs_t[name]))
    print("area: %-28s %6s %6s %6s" % ("", "agree", "differ", "not comparable"))
    for name in sorted(table, key=lambda n: (n[0].islower(), n)):
        print("area: %-28s %6d %6d %6d" % ((name,) + tuple(table[name])))
    if skipped:
        print("conformance: %d cases skipped (not compared)" % skipped)
    documented = len(differ) - len(undocumented)
    print("conformance: %d agree, %d differ (%d documented), %d not comparable" % (
        agree, len(differ), documented, skipped + len(incomparable)))
    ok = not undocumented and not stale and agree >= minimum
    if agree < minimum:
        print("conformance: fewer than %d agree" % minimum)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
