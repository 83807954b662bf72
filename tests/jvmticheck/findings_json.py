#!/usr/bin/env python3
"""Checks jvmticheck's machine-readable output against its text lines.

  findings_json.py json TEXT JSON   each line of JSON (a format=json run's
      standard error) parsed, its fields exactly those documented, and
      rebuilt into the text line of the same finding in TEXT (the same run
      in the text format); prints per line its kind and rule (and the
      thread of a finding, the count of a repeat, the summary's numbers)
  findings_json.py sarif SARIF TEXT the SARIF report's rules are the man
      page's (MAN in the environment) and its results, rebuilt into text
      lines, are the lines of TEXT (the same run's standard error), in
      order; prints per result its rule, count and whether suppressed
  findings_json.py man MAN           prints the rule ids docs/jvmticheck.7 lists

Exits 1 (saying why on standard error) on any difference.
"""
import json
import os
import re
import sys

FINDING_KEYS = ["jvmticheck", "rule", "function", "parameter", "error", "message", "site", "thread", "time", "agent"]
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$")


def fail(why):
    sys.stderr.write(why + "\n")
    sys.exit(1)


def man_rules(path):
    """The ids of the man page's RULE IDS section: the `.B id` of each `.TP`."""
    ids, inside, tag = [], False, False
    with open(path) as f:
        for line in f:
            if line.startswith(".SH"):
                inside = line.strip() == ".SH RULE IDS"
            elif inside and tag and line.startswith(".B "):
                ids.append(line[3:].strip())
            tag = line.startswith(".TP")
    return ids


def site_text(site):
    if site is None:
        return "?"
    where = "%s+%s" % (site["object"], site["offset"])
    return "%s (%s)" % (site["symbol"], where) if site["symbol"] is not None else where


def text_of(o, with_site):
    line = "%s: %s%s" % (o["function"], o["parameter"] + " " if o["parameter"] is not None else "", o["message"])
    if o["error"] is not None:
        line += " (%s)" % o["error"]
    if with_site:
        line += ", called from " + site_text(o["site"])
    return line


def check_json(text_path, json_path):
    with open(text_path) as f:
        text = [l.rstrip("\n") for l in f]
    with open(json_path) as f:
        lines = [l.rstrip("\n") for l in f]
    if len(text) != len(lines):
        fail("%d text lines, %d JSON lines" % (len(text), len(lines)))
    for t, j in zip(text, lines):
        try:
            o = json.loads(j)
        except ValueError as e:
            fail("not JSON (%s): %s" % (e, j))
        kind = o.get("jvmticheck")
        if kind == "summary":
            if list(o) != ["jvmticheck", "findings", "distinct", "suppressed", "agent"]:
                fail("summary's fields: %s" % list(o))
            want = "jvmticheck: %d finding%s, %d distinct%s" % (
                o["findings"], "" if o["findings"] == 1 else "s", o["distinct"],
                ", %d suppressed" % o["suppressed"] if o["suppressed"] else "")
            if t != want:
                fail("summary %r, text line %r" % (want, t))
            print("summary %d %d %d" % (o["findings"], o["distinct"], o["suppressed"]))
            continue
        keys = FINDING_KEYS if kind == "finding" else FINDING_KEYS[:1] + ["count"] + FINDING_KEYS[1:]
        if kind not in ("finding", "repeated") or list(o) != keys:
            fail("fields %s, expected %s" % (list(o), keys))
        if not TIME.match(o["time"]):
            fail("time %r" % o["time"])
        if o["agent"] != "libbuggy.so":
            fail("agent %r" % o["agent"])
        site = o["site"]
        if site is not None and (list(site) != ["symbol", "object", "offset"] or
                                 not re.match(r"^0x[0-9a-f]+$", site["offset"])):
            fail("site %r" % site)
        want = "jvmticheck: " + text_of(o, o["rule"] != "leak")
        if kind == "repeated":
            want = "jvmticheck: %d times: %s" % (o["count"], want[len("jvmticheck: "):])
        if t != want:
            fail("rebuilt %r\n text line %r" % (want, t))
        if kind == "finding":
            print("finding %s %s" % (o["rule"], o["thread"] if o["thread"] is not None else "-"))
        else:
            print("repeated %s %d" % (o["rule"], o["count"]))


def check_sarif(sarif_path, text_path):
    with open(sarif_path) as f:
        s = json.load(f)
    run = s["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    if rules != man_rules(os.environ["MAN"]):
        fail("SARIF's rules %s are not the man page's %s" % (rules, man_rules(os.environ["MAN"])))
    with open(text_path) as f:
        text = [l.rstrip("\n") for l in f if not re.match(r"^jvmticheck: (\d+ times: |\d+ findings?, )", l)]
    out = []
    for r in run["results"]:
        if rules[r["ruleIndex"]] != r["ruleId"]:
            fail("ruleIndex %d is not %s" % (r["ruleIndex"], r["ruleId"]))
        line = "jvmticheck: " + r["message"]["text"]
        for loc in r.get("locations", []):
            addr = loc["physicalLocation"]["address"]
            where = "%s+0x%x" % (loc["physicalLocation"]["artifactLocation"]["uri"], addr["absoluteAddress"])
            name = addr.get("fullyQualifiedName")
            line += ", called from " + ("%s (%s)" % (name, where) if name else where)
        if not r.get("suppressions"):
            out.append(line)
        print("%s %d%s" % (r["ruleId"], r["occurrenceCount"], " suppressed" if r.get("suppressions") else ""))
    if out != text:
        fail("SARIF's results:\n%s\nthe text lines:\n%s" % ("\n".join(out), "\n".join(text)))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "json":
        check_json(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "sarif":
        check_sarif(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "man":
        print("\n".join(man_rules(sys.argv[2])))
    else:
        fail(__doc__)
