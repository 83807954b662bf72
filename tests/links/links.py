#!/usr/bin/env python3
"""links.py FILE.md...: every relative link of each Markdown file resolves:
the file or folder it names exists, and an #anchor names a heading of the
target (GitHub's rule: lower case, punctuation but '-' and '_' dropped,
spaces to '-'). Prints one "BAD FILE:LINE: target (why)" line per broken
link and exits 1 if there is one. Links to other sites are not followed."""
import os
import re
import sys

LINK = re.compile(r'\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
FENCE = re.compile(r'^\s*(```|~~~)')


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'`', '', s)
    s = re.sub(r'[^\w\- ]', '', s, flags=re.UNICODE)
    return s.replace(' ', '-')


def lines_outside_code(path):
    fenced = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield n, line


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        found = set()
        for _, line in lines_outside_code(path):
            m = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
            if m:
                s = slug(m.group(1))
                k = seen.get(s, 0)
                seen[s] = k + 1
                found.add(s if k == 0 else '%s-%d' % (s, k))
        cache[path] = found
    return cache[path]


def main(files):
    bad = 0
    for md in files:
        base = os.path.dirname(md)
        for n, line in lines_outside_code(md):
            # inline code is not a link
            for target in LINK.findall(re.sub(r'`[^`]*`', '', line)):
                if re.match(r'^[a-z][a-z0-9+.-]*:', target):
                    continue  # https:, mailto:
                path, _, frag = target.partition('#')
                dest = os.path.normpath(os.path.join(base, path)) if path else md
                why = None
                if not os.path.exists(dest):
                    why = 'no such file'
                elif frag and dest.endswith('.md') and frag not in anchors(dest):
                    why = 'no heading #' + frag
                if why:
                    print('BAD %s:%d: %s (%s)' % (md, n, target, why))
                    bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
