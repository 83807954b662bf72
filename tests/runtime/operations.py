#!/usr/bin/env python3
"""runtime/README.md's list of the VM's operations, made from jvmtirt.h.

Usage: operations.py [--write] [ROOT]
jvmtirt.h is the one place each operation of jvmtirt_config is described
(when the core calls it, on which thread, under which lock, what the VM
does); the README shows the same text, grouped by the struct's sections,
between its `<!-- operations` and `<!-- end of operations -->` lines.
Without --write: exit 1, saying so, when the README's list is not what the
header makes (the runtime suite runs this); with --write: replace it."""
import re
import sys
import textwrap

BEGIN = "<!-- operations: made from include/jvmtirt.h by tests/runtime/operations.py --write; edit the header, not this -->"
END = "<!-- end of operations -->"


def comment_text(lines):
    """A block comment's text, its markers and leading stars removed."""
    out = []
    for line in lines:
        line = line.strip()
        line = re.sub(r"^/\*+", "", line)
        line = re.sub(r"\*+/$", "", line)
        line = re.sub(r"^\*(?!/)", "", line)
        out.append(line.strip())
    return " ".join(w for w in out if w)


def operations(header):
    """[(section title, section note, [(name, params, returns, text)])] of
    jvmtirt_config, in the header's order."""
    body = header.split("typedef struct jvmtirt_config {", 1)[1].split("} jvmtirt_config;", 1)[0]
    lines = body.split("\n")
    sections = []
    comment = None  # the text of the comment just before, if nothing came between
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("/*"):
            block = [line]
            while "*/" not in block[-1]:
                i += 1
                block.append(lines[i])
            text = comment_text(block)
            m = re.match(r"---- (.*?) ----\s*(.*)", text)
            if m:
                # a title may run on into a sentence before its closing ----
                title, _, more = m.group(1).partition(". ")
                title = re.sub(r"\s*\([^)]*\)", "", title).rstrip(".")
                note = (more + (". " if more and not more.endswith(".") else " ") + m.group(2)).strip()
                sections.append((title, note, []))
                comment = None
            else:
                comment = text
            i += 1
            continue
        if not stripped:
            comment = None
            i += 1
            continue
        decl = stripped
        while ";" not in decl:
            i += 1
            decl += " " + lines[i].strip()
        m = re.match(r"(.*?)\s*\(\*([a-z_]+)\)\((.*)\);", decl)
        if m and sections:
            sections[-1][2].append((m.group(2), m.group(3), m.group(1), comment or ""))
        comment = None
        i += 1
    return [s for s in sections if s[2]]


def render(header):
    out = [BEGIN, ""]
    for title, note, ops in operations(header):
        out.append("### " + title[0].upper() + title[1:])
        out.append("")
        if note:
            out += textwrap.wrap(note, 76) + [""]
        for name, params, returns, text in ops:
            head = "- **`%s`** `(%s)` → `%s`:" % (name, params, returns)
            out += textwrap.wrap(head + " " + text, 76, subsequent_indent="  ", break_on_hyphens=False)
        out.append("")
    out.append(END)
    return "\n".join(out)


def main(argv):
    write = "--write" in argv
    args = [a for a in argv if a != "--write"]
    root = args[0] if args else "."
    header = open(root + "/runtime/include/jvmtirt.h", encoding="utf-8").read()
    readme_path = root + "/runtime/README.md"
    readme = open(readme_path, encoding="utf-8").read()
    begin = readme.find("<!-- operations")
    end = readme.find(END)
    if begin < 0 or end < begin:
        print("runtime/README.md: no `<!-- operations` ... `%s` block" % END)
        return 1
    made = render(header)
    now = readme[begin:end + len(END)]
    if now == made:
        return 0
    if write:
        with open(readme_path, "w", encoding="utf-8") as f:
            f.write(readme[:begin] + made + readme[end + len(END):])
        return 0
    print("runtime/README.md: its list of operations is not what jvmtirt.h says "
          "(run tests/runtime/operations.py --write)")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
