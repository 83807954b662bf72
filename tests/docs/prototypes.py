#!/usr/bin/env python3
"""Every C prototype the documentation shows against the declaration in the
generated jvmti.h, white space normalized: functions (as called through the
function table), event handlers and their callback typedefs, callback
typedefs. The header is read here with regular expressions, independently
of jvmtigen.

  prototypes.py JVMTI_H PAGE MANDIR LABEL

Prints one 'ok - ' or 'not ok - ' line for the page and one for the man
pages, with the first differences under a failed one."""
import html
import os
import re
import sys


def norm(text):
    """One blank for any run of white space, none just inside parentheses or
    before a comma or semicolon: the layout may differ, the tokens not."""
    text = re.sub(r'\s+', ' ', text).strip()
    text = re.sub(r'\(\s', '(', text)
    text = re.sub(r'\s([),;])', r'\1', text)
    return text


def header_decls(path):
    """NAME -> the normalized declaration the docs must show for it."""
    src = open(path, encoding='utf-8').read()
    want = {}
    for name, params in re.findall(r'jvmtiError \(JNICALL \*(\w+)\) \((.*?)\);', src, re.S):
        want[name] = norm('jvmtiError %s(%s)' % (name, params))
    for m in re.finditer(r'typedef (\w[\w *]*?) \(JNICALL \*(\w+)\)\s*\((.*?)\);', src, re.S):
        ret, name, params = m.groups()
        if name == 'jvmtiEventReserved':
            continue
        want[name] = norm(m.group(0))
        if name.startswith('jvmtiEvent'):  # the handler an agent writes
            want[name[len('jvmtiEvent'):]] = norm('void JNICALL %s(%s)' % (name[len('jvmtiEvent'):],
                                                                         params))
    return want


def shown_name(proto):
    m = re.match(r'typedef [\w *]*?\(JNICALL \*(\w+)\)', proto) or re.match(r'[\w ]*?(\w+)\(', proto)
    return m.group(1) if m else None


def compare(shown, want, what):
    """shown: [(where, prototype)]. Problems, and the number compared."""
    problems = []
    for where, proto in shown:
        p = norm(proto)
        call = re.match(r'jvmtiError err = \(\*env\)->(\w+)\((.*)\);$', p)
        if call:
            # A man page's call form: the prototype's parameter names, in
            # its order, the environment first (no extra arguments for a
            # "...").
            name, args = call.groups()
            decl = re.match(r'[\w ]*?\w+\((.*)\)$', want.get(name, ''))
            names = [re.findall(r'\w+', a)[-1] for a in decl.group(1).split(',')
                     if a.strip() != '...'] if decl else None
            if names is None:
                problems.append('%s: the call form calls %s, which jvmti.h does not declare' % (where, name))
            elif [a.strip() for a in args.split(',')] != names:
                problems.append('%s: the call form passes (%s), jvmti.h names (%s)' % (where, args, ', '.join(names)))
            continue
        name = shown_name(p)
        if name not in want:
            problems.append('%s: %s is not declared in jvmti.h' % (where, name))
        elif want[name] != p:
            problems.append('%s: %s\n#     shown:    %s\n#     jvmti.h:  %s' % (where, name, p, want[name]))
    if not shown:
        problems.append('no prototype found in the ' + what)
    return problems


def is_struct(text):
    """A struct's synopsis is the templates' own layout of its fields, not a
    declaration jvmti.h has in that form."""
    return re.match(r'typedef (struct|union) \{', text) is not None


def page_prototypes(path):
    page = open(path, encoding='utf-8').read()
    out = []
    for m in re.finditer(r'<pre class="synopsis"><code>(.*?)</code></pre>', page, re.S):
        text = html.unescape(re.sub(r'<[^>]+>', '', m.group(1)))
        if not is_struct(text):
            out.append(('jvmti.html', text))
    return out


def man_prototypes(mandir):
    """The C in each page's SYNOPSIS (.nf to .fi), split at .PP: the
    prototypes and a function's call form."""
    out = []
    for f in sorted(os.listdir(mandir)):
        text = open(os.path.join(mandir, f), encoding='utf-8').read()
        m = re.search(r'^\.SH SYNOPSIS\n\.nf\n(.*?)^\.fi$', text, re.S | re.M)
        if not m:
            continue
        for chunk in re.split(r'^\.PP\n', m.group(1), flags=re.M):
            lines = [line for line in chunk.splitlines() if not line.startswith('.')]
            text = '\n'.join(lines).replace('\\e', '\\')
            if lines and not is_struct(text):
                out.append((f, text))
    return out


def report(label, problems, n):
    if problems:
        print('not ok - %s (%d of %d differ)' % (label, len(problems), n))
        for p in problems[:10]:
            print('#   ' + p)
    else:
        print('ok - %s' % label)


def main():
    header, page, mandir, label = sys.argv[1:5]
    want = header_decls(header)
    shown = page_prototypes(page)
    report('%s: the %d prototypes on the page are jvmti.h\'s, token for token' % (label, len(shown)),
           compare(shown, want, 'page'), len(shown))
    shown = man_prototypes(mandir)
    report('%s: the %d prototypes of the man pages are jvmti.h\'s, token for token' % (label, len(shown)),
           compare(shown, want, 'man pages'), len(shown))
    return 0


if __name__ == '__main__':
    sys.exit(main())
