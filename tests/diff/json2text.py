"""json2text.py DIFF.json DIFF.txt: rebuilds the text form of `jvmtigen
diff` from its JSON form, by the rules docs/model.md states, and compares it
with the text jvmtigen printed. Exit 1 (with a unified diff) if they differ.
Written for the tests, independently of gen/tools/diff.c."""
import difflib
import json
import sys

NOUNS = {"functions": "function", "events": "event", "callbacks": "callback",
         "types": "type", "basetypes": "basetype", "capabilities": "capability",
         "errors": "error", "constant_groups": "constant group", "constants": "constant",
         # --abi
         "structs": "struct", "function_slots": "function", "event_slots": "event",
         "capability_bits": "capability"}


def value(v):
    if v is None:
        return "(none)"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v == "":
        return '""'
    return str(v)


def facts(e):
    keys = [k for k in e if k not in ("id", "changes")]
    if not keys:
        return ""
    return " (" + ", ".join(f"{k} {value(e[k])}" for k in keys) + ")"


def text(doc):
    out = [f"--- {doc['old']['file']} (JVM TI {doc['old']['version'] or 'version unknown'})",
           f"+++ {doc['new']['file']} (JVM TI {doc['new']['version'] or 'version unknown'})"]
    if doc["differences"] == 0:
        return out + ["", "no differences"]
    for kind, noun in NOUNS.items():
        if kind not in doc:  # the API's kinds, or --abi's
            continue
        sec = doc[kind]
        if not (sec["added"] or sec["removed"] or sec["changed"]):
            continue
        out += ["", f"{kind}: {len(sec['added'])} added, {len(sec['removed'])} removed, "
                    f"{len(sec['changed'])} changed"]
        out += [f"- {noun} {e['id']}{facts(e)}" for e in sec["removed"]]
        out += [f"+ {noun} {e['id']}{facts(e)}" for e in sec["added"]]
        for e in sec["changed"]:
            for c in e["changes"]:
                if c["added"] is None:
                    what = f"{value(c['old'])} -> {value(c['new'])}"
                else:
                    what = " ".join(["+" + x for x in c["added"]] + ["-" + x for x in c["removed"]])
                out.append(f"~ {noun} {e['id']}{facts(e)}: {c['what']} {what}")
    return out


def main():
    doc = json.load(open(sys.argv[1]))
    want = text(doc)
    got = open(sys.argv[2]).read().split("\n")
    if got and got[-1] == "":
        got.pop()
    if want != got:
        sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
            want, got, "from the JSON", "the text", lineterm="", n=1))
        sys.exit(1)
    # Every list is sorted by id.
    for kind in (k for k in NOUNS if k in doc):
        for part in ("added", "removed", "changed"):
            ids = [e["id"] for e in doc[kind][part]]
            if ids != sorted(ids):
                print(f"{kind}.{part} is not sorted by id")
                sys.exit(1)


main()
