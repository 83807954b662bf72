#!/usr/bin/env python3
"""A spec N times the size of another: every <function> and <event> written
N times, the copies after the original with "_2" ... "_N" on their ids (and
on an event's const), numbered on past the originals (a function's num plus
k times the largest, an event's plus k times the span of the events'), so
that every copy is an item of its own in every output. The types and
constants an item's description defines are the original's alone.

    scale-spec.py N SPEC > SCALED

Text in, text out: the document type declaration, entities and comments
stay as they are (an XML library would drop the internal subset the spec
is validated against). Used by tests/bench/run's scaling lines."""
import re
import sys

FUNCTION = re.compile(r'<function\b[^>]*>.*?</function>', re.S)
EVENT = re.compile(r'<event\b[^>]*>.*?</event>', re.S)
START = re.compile(r'<[^>]*>')
# What an item's description defines beside it (JDK 25's GetThreadState holds
# the jvmtiThreadState constants): the copies leave it out, and their links
# reach the original's.
DEFINED = re.compile(r'<(constants|typedef|uniontypedef|callback)\b.*?</\1>', re.S)


def attr(tag, name):
    m = re.search(r'\s%s="([^"]*)"' % name, tag)
    return m.group(1) if m else None


def with_attr(tag, name, value):
    return re.sub(r'(\s%s=")[^"]*(")' % name, lambda m: m.group(1) + value + m.group(2), tag, count=1)


def copies(element, n, step, consts):
    start = START.match(element).group(0)
    rest = DEFINED.sub('', element[len(start):])
    out = [element]
    for k in range(2, n + 1):
        tag = with_attr(start, 'id', '%s_%d' % (attr(start, 'id'), k))
        tag = with_attr(tag, 'num', str(int(attr(start, 'num'), 0) + (k - 1) * step))
        if consts:
            tag = with_attr(tag, 'const', '%s_%d' % (attr(start, 'const'), k))
        out.append(tag + rest)
    return '\n'.join(out)


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit('usage: scale-spec.py N SPEC')
    n = int(sys.argv[1])
    with open(sys.argv[2], encoding='utf-8') as f:
        text = f.read()
    fnums = [int(attr(START.match(m.group(0)).group(0), 'num'), 0) for m in FUNCTION.finditer(text)]
    enums = [int(attr(START.match(m.group(0)).group(0), 'num'), 0) for m in EVENT.finditer(text)]
    if not fnums or not enums:
        sys.exit('scale-spec.py: %s has no functions or no events' % sys.argv[2])
    fstep = max(fnums)
    estep = max(enums) - min(enums) + 1
    text = FUNCTION.sub(lambda m: copies(m.group(0), n, fstep, False), text)
    text = EVENT.sub(lambda m: copies(m.group(0), n, estep, True), text)
    sys.stdout.write(text)


main()
