#!/usr/bin/env python3
"""No text of the spec makes a roff request in a man page, whichever
attribute or element it comes from (the DTD says which there are).

roff_requests.py JVMTIGEN DTD SPEC WORKDIR

For every attribute the DTD declares (of free text: CDATA) and every
element whose content may hold text (#PCDATA or ANY), a copy of SPEC gets,
in every instance of it, text that would be roff requests if it reached a
man page unescaped: a leading ".so FILE", and after newlines (a character
reference in an attribute) ".so FILE" and "'so FILE", FILE a canary of its
own. Elements SPEC lacks (pre, blockquote, sup, br) are added to a
description first. Each is first tried alone: one `jvmtigen check` refuses
(its C names, numbers and references are checked) or accepts. Then one
spec carries every accepted one and is generated: no line of any man page
may start a request with "so", `groff -man` and `man -l` over all the
pages together may read no canary, and the canaries' text must reach the
pages (so that the test tests something). Prints ok/not ok lines.
"""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET


def dtd_model(path):
    """(elements {name: content}, attributes [(element, name, type)]), with
    the DTD's parameter entities expanded."""
    text = re.sub(r"<!--.*?-->", "", open(path).read(), flags=re.S)
    entities = dict(re.findall(r"<!ENTITY\s+%\s+(\S+)\s+\"([^\"]*)\"\s*>", text))
    entities.update(re.findall(r"<!ENTITY\s+%\s+(\S+)\s+'([^']*)'\s*>", text))
    text = re.sub(r"<!ENTITY\s+%[^>]*>", "", text)
    for _ in range(10):
        text = re.sub(r"%([\w.-]+);", lambda m: entities.get(m.group(1), m.group(0)), text)
    elements = dict((n, " ".join(c.split()))
                    for n, c in re.findall(r"<!ELEMENT\s+(\S+)\s+(.*?)>", text, re.S))
    attributes = []
    for element, body in re.findall(r"<!ATTLIST\s+(\S+)\s+(.*?)>", text, re.S):
        for name, kind in re.findall(
                r"([\w:.-]+)\s+(CDATA|ID|IDREFS?|NMTOKENS?|ENTITY|\([^)]*\))\s+"
                r"(?:#REQUIRED|#IMPLIED|#FIXED\s+(?:\"[^\"]*\"|'[^']*')|\"[^\"]*\"|'[^']*')", body):
            attributes.append((element, name, kind))
    return elements, attributes


def main():
    jvmtigen, dtd, spec, work = sys.argv[1:5]
    elements, attributes = dtd_model(dtd)
    doctype = re.search(r"<!DOCTYPE[^>]*>", open(spec).read()).group(0)
    doctype = re.sub(r'SYSTEM\s+"[^"]*"', 'SYSTEM "%s"' % os.path.abspath(dtd), doctype)
    tree = ET.parse(spec)
    root = tree.getroot()
    # The elements a spec seldom has, added where the DTD allows them.
    desc = root.find(".//function/description")
    extra = ET.fromstring("<x><sup class='c'>1</sup><br/><pre>p</pre>"
                          "<blockquote>q</blockquote></x>")
    for child in list(extra):
        desc.append(child)

    canaries = os.path.join(work, "canaries")
    os.makedirs(canaries, exist_ok=True)
    targets = []  # (description, apply(tree root, payload function))
    for element, name, kind in attributes:
        if kind != "CDATA":
            continue  # the DTD allows only listed values
        targets.append(("attribute %s@%s" % (element, name), element, name))
    for element, content in sorted(elements.items()):
        if "#PCDATA" in content or content == "ANY":
            targets.append(("text of <%s>" % element, element, None))

    def payload(n):
        path = os.path.join(canaries, "c%d" % n)
        with open(path, "w") as fh:
            fh.write("CANARY-%d-READ\n" % n)
        return ".so %s\n.so %s\n'so %s\n" % (path, path, path)

    def apply(r, target, n):
        """Puts the payload in; returns how to take it out again."""
        _, element, name = target
        undo = []
        for node in r.iter(element):
            if name:
                undo.append((node, node.get(name)))
                node.set(name, payload(n))
            else:
                undo.append((node, node.text))
                node.text = payload(n) + (node.text or "")
        return undo

    def take_out(target, undo):
        for node, old in undo:
            if target[2] is None:
                node.text = old
            elif old is None:
                del node.attrib[target[2]]
            else:
                node.set(target[2], old)

    def write(r, path):
        body = ET.tostring(r, encoding="unicode")
        with open(path, "w") as fh:
            fh.write('<?xml version="1.0" encoding="UTF-8"?>\n%s\n%s\n' % (doctype, body))

    def check(path):
        return subprocess.run([jvmtigen, "check", path], capture_output=True).returncode

    accepted, refused, absent = [], [], []
    probe = os.path.join(work, "probe.xml")
    for n, target in enumerate(targets):
        undo = apply(root, target, n)
        if not undo:
            absent.append(target[0])
            continue
        write(root, probe)
        (accepted if check(probe) == 0 else refused).append((n, target))
        take_out(target, undo)

    for n, target in accepted:
        apply(root, target, n)
    combined = os.path.join(work, "combined.xml")
    write(root, combined)
    out = os.path.join(work, "out")
    # The version too may carry a payload: it is given.
    gen = subprocess.run([jvmtigen, "-q", "--jvmti-version", "25.0.0", "-o", out, combined],
                         capture_output=True, text=True)
    if gen.returncode != 0:
        print("not ok - docs: roff: the spec with every accepted payload generates "
              "(status %d)" % gen.returncode)
        print("# " + gen.stderr[:400].replace("\n", "\n# "))
        return
    mandir = os.path.join(out, "man", "man3")
    pages = sorted(os.listdir(mandir))
    bad, reached = [], set()
    request = re.compile(r"^[.'][ \t]*so\b")
    for page in pages:
        with open(os.path.join(mandir, page), errors="replace") as fh:
            for i, line in enumerate(fh, 1):
                for m in re.finditer(r"c(\d+)\b", line):
                    if canaries in line:
                        reached.add(int(m.group(1)))
                if request.match(line):
                    m = re.search(r"/c(\d+)", line)
                    who = targets[int(m.group(1))][0] if m else "?"
                    bad.append("%s:%d: %s (from %s)" % (page, i, line.strip()[:80], who))
    names = {n: t[0] for n, t in accepted}
    desc_line = "%d attributes and elements: %d reach the man pages, %d refused by check, %d not " \
                "in the spec" % (len(targets), len(reached), len(refused), len(absent))
    if bad:
        print("not ok - docs: roff: no man page line is a request from the spec (%s)" % desc_line)
        for b in bad[:20]:
            print("# " + b)
    else:
        print("ok - docs: roff: no man page line is a request from the spec (%s)" % desc_line)
    if len(reached) < 20:
        print("not ok - docs: roff: the payloads reach the man pages (only %d: %s)"
              % (len(reached), ", ".join(names.get(n, "?") for n in sorted(reached))))
    else:
        print("ok - docs: roff: the payloads of %d attributes and elements reach the man pages"
              % len(reached))
    if absent:
        print("# not in the spec, so not tried: " + ", ".join(absent))
    whole = os.path.join(work, "all.3")
    with open(whole, "w") as fh:
        for page in pages:
            with open(os.path.join(mandir, page), errors="replace") as p:
                fh.write(p.read())
    for tool, cmd in (("groff", ["groff", "-man", "-Tutf8", whole]),
                      ("man", ["man", "-l", whole])):
        if not shutil.which(tool):
            print("skip - docs: roff: %s reads no canary (%s is not installed)" % (tool, tool))
            continue
        env = dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat")
        res = subprocess.run(cmd, capture_output=True, text=True, errors="replace", env=env,
                             cwd=work)
        leaked = sorted(set(re.findall(r"CANARY-(\d+)-READ", res.stdout + res.stderr)))
        if leaked:
            print("not ok - docs: roff: %s reads canaries: %s" % (
                " ".join(cmd[:-1]), ", ".join(targets[int(n)][0] for n in leaked)))
        elif res.returncode != 0 or len(res.stdout) < 1000:
            print("not ok - docs: roff: %s over the pages (status %d)" % (tool, res.returncode))
        else:
            print("ok - docs: roff: %s over every page reads no canary" % " ".join(cmd[:-1]))


if __name__ == "__main__":
    main()
