"""xml_added.py OLD.xml NEW.xml DIFF.txt: the functions, events,
capabilities and errors present in one spec and not the other, read from the
XML with ElementTree (items inside <elide> do not count), must be exactly
the "+"/"-" lines of those kinds in DIFF.txt (the text of `jvmtigen diff OLD
NEW`), with the numbers and since versions the XML gives. Written for the
tests, independently of jvmtigen."""
import re
import sys
import xml.etree.ElementTree as ET


def items(path, tag, facts):
    root = ET.parse(path).getroot()
    elided = {id(e) for x in root.iter("elide") for e in x.iter(tag)}
    out = {}
    for pos, e in enumerate(x for x in root.iter(tag) if id(x) not in elided):
        f = []
        for key in facts:
            if key == "since":
                f.append(f"since {e.get('since', '1.0')}")
            elif key == "position":
                f.append(f"position {pos}")
            else:
                f.append(f"{key} {e.get(key).strip()}")
        out[e.get("id")] = " (" + ", ".join(f) + ")"
    return out


KINDS = [("function", "function", ["num", "since"]),
         ("event", "event", ["num", "since"]),
         ("capability", "capabilityfield", ["position", "since"]),
         ("error", "errorid", ["num"])]

old, new, diff = sys.argv[1:4]
lines = [l.rstrip("\n") for l in open(diff)]
failed = False
for noun, tag, facts in KINDS:
    o, n = items(old, tag, facts), items(new, tag, facts)
    want = sorted([f"+ {noun} {i}{n[i]}" for i in n if i not in o] +
                  [f"- {noun} {i}{o[i]}" for i in o if i not in n])
    got = sorted(l for l in lines if re.match(rf"[-+] {noun} ", l))
    if want != got:
        failed = True
        print(f"{noun}s: expected {want}, got {got}")
    else:
        print(f"{noun}s: {len(want)} added or removed, as expected: {want}")
sys.exit(1 if failed else 0)
