#!/usr/bin/env python3
"""Identifiers of the spec that the man pages, as man shows them at 80
columns (groff -man -Tutf8 with man-db's line length), split with a hyphen at a line end ("GetThread-" / "State").

  hyphens.py SPEC LABEL PAGE.3...

The identifiers are read from the spec's XML (every id attribute: functions,
events, parameters, fields, types, constants, errors, capabilities). Prints
one 'ok - ' or 'not ok - ' line, the first splits under a failed one."""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HYPHENS = ('\u2010', '-')


def identifiers(spec):
    ids = set()
    for e in ET.parse(spec).getroot().iter():
        v = e.get('id')
        if v and re.fullmatch(r'\w+', v):
            ids.add(v)
    return ids


def rendered(pages):
    """The pages as `MANWIDTH=80 man -l PAGE` lays them out (man-db gives
    groff a line length of 78 ens at 80 columns), as plain text. One groff
    for them all: before each page, hyphenation and adjustment go back to
    what groff -man starts a page with (.hy 4, .ad b), so a page gets
    nothing from the one before it."""
    with tempfile.NamedTemporaryFile('w', suffix='.roff') as reset:
        reset.write('.hy 4\n.ad b\n')
        reset.flush()
        args = [a for page in pages for a in (reset.name, page)]
        env = dict(os.environ, LC_ALL='C.UTF-8')
        out = subprocess.run(['groff', '-man', '-Tutf8', '-rLL=78n', '-P-cbou'] + args, env=env,
                             capture_output=True, text=True)
    return out.stdout


def splits(text, ids):
    found = []
    lines = text.splitlines()
    for i, line in enumerate(lines[:-1]):
        m = re.search(r'(\w+)[\u2010-]$', line.rstrip())
        nxt = re.match(r'\s*(\w+)', lines[i + 1])
        if m and nxt and m.group(1) + nxt.group(1) in ids:
            found.append('%s- / %s' % (m.group(1), nxt.group(1)))
    return found


def main():
    spec, label, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
    ids = identifiers(spec)
    problems = []
    problems = splits(rendered(pages), ids)
    if problems:
        print('not ok - %s: man at 80 columns splits no identifier of the spec with a hyphen '
              '(%d splits in %d pages)' % (label, len(problems), len(pages)))
        for p in problems[:10]:
            print('#   ' + p)
    else:
        print('ok - %s: man at 80 columns splits no identifier of the spec with a hyphen '
              '(%d pages)' % (label, len(pages)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
