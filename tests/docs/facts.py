#!/usr/bin/env python3
"""Facts on jvmti.html checked against the spec's XML, read here
independently of jvmtigen's model (ElementTree), and, where given, against
the JDK's own rendering of the same spec.

  facts.py SPEC PAGE [JDK_PAGE [LABEL [MANDIR]]]

Prints one 'ok - ' or 'not ok - ' line per fact, with the first
differences under a failed one."""
import html
import re
import sys
import xml.etree.ElementTree as ET

POINTERS = {'ptrtype', 'outptr', 'outbuf', 'allocfieldbuf', 'inptr', 'inbuf',
            'vmbuf', 'allocbuf', 'agentbuf', 'allocallocbuf'}
# The universal errors, which no function lists.
UNIVERSAL = {'JVMTI_ERROR_NONE', 'JVMTI_ERROR_NULL_POINTER', 'JVMTI_ERROR_OUT_OF_MEMORY',
             'JVMTI_ERROR_ACCESS_DENIED', 'JVMTI_ERROR_UNATTACHED_THREAD',
             'JVMTI_ERROR_INVALID_ENVIRONMENT', 'JVMTI_ERROR_WRONG_PHASE',
             'JVMTI_ERROR_INTERNAL'}


def visible(root, path):
    """Elements at path that are not inside <elide>."""
    parent = {c: p for p in root.iter() for c in p}
    out = []
    for e in root.iterfind(path):
        p, hidden = parent.get(e), False
        while p is not None:
            hidden |= p.tag == 'elide'
            p = parent.get(p)
        if not hidden:
            out.append(e)
    return out


def shown(root, tag):
    """<tag> elements the page shows: not inside <elide>, nor inside an
    open issue or to-do (which the page leaves out)."""
    parent = {c: p for p in root.iter() for c in p}
    out = []
    for e in root.iter(tag):
        p = parent.get(e)
        while p is not None and p.tag not in ('elide', 'issue', 'todo'):
            p = parent.get(p)
        if p is None:
            out.append(e)
    return out


def trim_lines(text):
    """Text without its blank first and last lines and trailing blanks."""
    lines = text.split('\n')
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return '\n'.join(lines).rstrip()


def pre_blocks(page):
    """(attributes, text) of every <pre> of the page, the text as a browser
    shows it: tags dropped, entities decoded, and a line break right after
    <pre> dropped as the HTML parser does."""
    out = []
    for m in re.finditer(r'<pre([^>]*)>(.*?)</pre>', page, re.S):
        body = m.group(2)[1:] if m.group(2).startswith('\n') else m.group(2)
        out.append((m.group(1), html.unescape(re.sub(r'<[^>]+>', '', body))))
    return out


def release(version):
    """The release a change history entry belongs to, as since attributes
    name releases: '11.0.0' -> '11', '1.1.47' -> '1.1', 'v40' -> None."""
    parts = (version or '').split('.')
    if len(parts) < 2 or not parts[0].isdigit():
        return None
    return parts[0] if int(parts[0]) >= 9 else parts[0] + '.' + parts[1]


def item_heads(page, caps_id):
    """id -> the heading of each item that can carry a since attribute: a
    section's <h3>, a capability's row header, a constants table's
    caption."""
    out = {}
    for m in re.finditer(r'<section id="([^"]+)" class="item [^"]*"[^>]*>\s*<h3>(.*?)</h3>', page, re.S):
        out[m.group(1)] = m.group(2)
    for m in re.finditer(r'<th scope="row"><code id="(%s\.\w+)">\w+</code>(.*?)</th>' % re.escape(caps_id), page, re.S):
        out[m.group(1)] = m.group(2)
    for m in re.finditer(r'<table id="([^"]+)" class="wide constants">\s*<caption>(.*?)</caption>', page, re.S):
        out[m.group(1)] = m.group(2)
    return out


def in_prototype(param):
    """A <jclass method=...> parameter pairs a method with its class in the
    spec's text only; C has no such parameter."""
    t = param_type(param)
    return not (t is not None and t.tag == 'jclass' and t.get('method'))


def in_table(param):
    """Parameter tables leave out the varargs of SetEventNotificationMode."""
    t = param_type(param)
    return in_prototype(param) and not (t is not None and t.tag == 'varargs')


def param_type(param):
    for c in param:
        if c.tag != 'description':
            return c
    return None


def implied_errors(param):
    """What a parameter's type lets a function return (the JDK's rendering
    lists the same): pointers may be NULL, handles invalid, depths out of
    range, numbers below their minimum."""
    t = param_type(param)
    if t is None or not in_prototype(param):
        return set()
    if t.tag in POINTERS:
        return set() if t.find('nullok') is not None else {'JVMTI_ERROR_NULL_POINTER'}
    simple = {'jrawMonitorID': ['JVMTI_ERROR_INVALID_MONITOR'],
              'jthreadGroup': ['JVMTI_ERROR_INVALID_THREAD_GROUP'],
              'jobject': ['JVMTI_ERROR_INVALID_OBJECT'],
              'jframeID': ['JVMTI_ERROR_ILLEGAL_ARGUMENT', 'JVMTI_ERROR_NO_MORE_FRAMES'],
              'jclass': ['JVMTI_ERROR_INVALID_CLASS'],
              'jfieldID': ['JVMTI_ERROR_INVALID_FIELDID'],
              'jlocation': ['JVMTI_ERROR_INVALID_LOCATION']}
    if t.tag in simple:
        return set(simple[t.tag])
    if t.tag == 'jthread':
        errs = {'JVMTI_ERROR_INVALID_THREAD'}
        if t.get('started', 'yes') == 'yes':
            errs.add('JVMTI_ERROR_THREAD_NOT_ALIVE')
        return errs
    if t.tag == 'jmethodID':
        errs = {'JVMTI_ERROR_INVALID_METHODID'}
        if 'error' in (t.get('native') or ''):
            errs.add('JVMTI_ERROR_NATIVE_METHOD')
        return errs
    if t.tag == 'enum':
        return {'JVMTI_ERROR_INVALID_EVENT_TYPE' if (t.text or '').strip() == 'jvmtiEvent'
                else 'JVMTI_ERROR_ILLEGAL_ARGUMENT'}
    if t.tag == 'jint' and t.get('min') is not None:
        return {'JVMTI_ERROR_ILLEGAL_ARGUMENT'}
    return set()


def expected_errors(fn):
    errs = set()
    if fn.find('capabilities/required') is not None:
        errs.add('JVMTI_ERROR_MUST_POSSESS_CAPABILITY')
    for p in fn.iterfind('parameters/param'):
        errs |= implied_errors(p)
    errs |= {e.get('id') for e in fn.iterfind('errors/error')}
    return errs


def passed_pointer(t):
    """An event's or callback's pointer that C passes by value: an outptr of
    void (`void*`) or of an environment struct. Nothing is stored through it."""
    return t.tag == 'outptr' and (t.find('void') is not None or t.find('struct') is not None)


def ownership_problems(owner, param, note):
    """What a callback parameter's note must and must not say, from its type:
    the ownership jvmtigen's model gives it (agentbuf, vmbuf, inptr, outptr)."""
    t, name, out = param_type(param), '%s.%s' % (owner, param.get('id')), []
    if t is None:
        return out
    if t.tag == 'agentbuf' and (t.get('incount') or t.get('outcount')):
        # The agent allocates the replacement with Allocate; the VM takes it
        # over and frees it with Deallocate.
        if not ('Allocate' in note and 'Deallocate' in note and 'VM' in note) \
                or 'belongs to the agent' in note or 'free it' in note:
            out.append('%s (agentbuf with a count): %r' % (name, note))
    elif t.tag == 'agentbuf' and ('Allocate' in note or 'belongs to the agent' in note):
        out.append('%s (agentbuf, a pointer the callback may store): %r' % (name, note))
    if passed_pointer(t) and 'store' in note:
        out.append('%s (a pointer passed in): %r' % (name, note))
    if t.tag in ('inptr', 'inbuf') and 'agent passes in' in note:
        out.append('%s (the VM passes it in): %r' % (name, note))
    if t.tag == 'vmbuf' and 'belongs to the VM' not in note:
        out.append('%s (vmbuf): %r' % (name, note))
    if t.tag == 'outptr' and not passed_pointer(t) and 'may store' not in note:
        out.append('%s (storage the VM provides): %r' % (name, note))
    return out


TYPE_NOTE_AFTER = re.compile(r'.*?<span class="type-note">(.*?)</span></td></tr>', re.S)


def type_note(page, key):
    """The type note of the parameter row whose code has id KEY (the code
    found by str.find, the note matched from there: a search of the whole
    page by a pattern made for each key took most of this script's time)."""
    code = '<code id="%s">' % key
    at = page.find(code)
    while at != -1:
        m = TYPE_NOTE_AFTER.match(page, at + len(code))
        if m:
            return re.sub(r'<[^>]+>', '', m.group(1))
        at = page.find(code, at + 1)
    return None


def man_note(mandir, owner, name):
    """The text of a parameter's paragraph in OWNER.3 (fonts dropped)."""
    try:
        roff = open('%s/%s.3' % (mandir, owner), encoding='utf-8').read()
    except OSError:
        return None
    m = re.search(r'^\.IR "%s" .*?\n(.*?)(?=^\.(TP|SH)\b)' % re.escape(name), roff, re.S | re.M)
    return re.sub(r'\\f[BIRP]', '', m.group(1)).replace('\n', ' ') if m else None


def man_see_also(mandir, page):
    """The names a man page's SEE ALSO lists, in order; None without the
    page or the section."""
    try:
        roff = open('%s/%s.3' % (mandir, page), encoding='utf-8').read()
    except OSError:
        return None
    m = re.search(r'^\.SH "?SEE ALSO"?\n(.*?)(?=^\.SH|\Z)', roff, re.S | re.M)
    return re.findall(r'^\.BR (\S+) \(3\)', m.group(1), re.M) if m else None


def sections(page, kind):
    """id -> the HTML of each <section class="item KIND">, up to the next
    function or event (a function's types are sections inside it)."""
    starts = [(m.start(), m.group(1), m.group(2)) for m in
              re.finditer(r'<section id="([^"]+)" class="item (function|event)"', page)]
    out = {}
    for i, (pos, ident, k) in enumerate(starts):
        if k == kind:
            out[ident] = page[pos:starts[i + 1][0] if i + 1 < len(starts) else len(page)]
    return out


def div(html, cls):
    """A part of an item (<div class=CLS>): up to the next part or section."""
    start = html.find('<div class="%s">' % cls)
    if start < 0:
        return ''
    ends = [html.find(x, start + 1) for x in ('<div class="capabilities"', '<div class="parameters"',
                                               '<div class="errors"', '<section', '</section>')]
    end = min([i for i in ends if i >= 0] or [len(html)])
    return html[start:end]


def listed_errors(html):
    return set(re.findall(r'<th scope="row"><a href="#(JVMTI_ERROR_\w+)"', div(html, 'errors')))


def param_rows(html):
    return re.findall(r'<th scope="row"><code id="[^"]*\.([^".]+)">', div(html, 'parameters'))


def jdk_errors(jdk_page):
    """Function id -> the errors the JDK's page lists for it (a function runs
    from its <hr id=...> to the next <hr>; its errors are one table)."""
    out = {}
    for m in re.finditer(r'<hr class="thin" id="(\w+)">', jdk_page):
        end = jdk_page.find('<hr', m.end())
        part = jdk_page[m.end():end if end >= 0 else len(jdk_page)]
        k = part.find('captionTitle">Errors<')
        if k >= 0:
            out[m.group(1)] = set(re.findall(r'JVMTI_ERROR_\w+', part[k:part.find('</table>', k)]))
    return out


class Report:
    def __init__(self):
        self.failed = 0

    def fact(self, name, problems):
        if problems:
            self.failed += 1
            print('not ok - %s (%d)' % (name, len(problems)))
            for p in problems[:15]:
                print('#   ' + p)
        else:
            print('ok - ' + name)


def main():
    spec, page = sys.argv[1], open(sys.argv[2], encoding='utf-8').read()
    label = sys.argv[4] if len(sys.argv) > 4 else spec
    root = ET.parse(spec).getroot()
    funcs = visible(root, './/function')
    events = visible(root, './/event')
    fsec, esec = sections(page, 'function'), sections(page, 'event')
    r = Report()

    # Every error a function can return is listed: its parameters' (checked
    # on entry or by the implementation alike), its capability's, its own.
    probs = []
    for fn in funcs:
        got = listed_errors(fsec.get(fn.get('id'), ''))
        missing = expected_errors(fn) - got
        extra = got - expected_errors(fn)
        if missing or extra:
            probs.append('%s: missing %s, extra %s' % (fn.get('id'), sorted(missing), sorted(extra)))
    r.fact('%s: each function lists every error its parameters, capabilities and text give' % label, probs)

    # Parameter tables show exactly the C prototype's parameters.
    probs = []
    for item, sec in [(f, fsec) for f in funcs] + [(e, esec) for e in events]:
        want = [p.get('id') for p in item.iterfind('parameters/param') if in_table(p)]
        got = param_rows(sec.get(item.get('id'), ''))
        if want != got:
            probs.append('%s: %s, page %s' % (item.get('id'), want, got))
    r.fact('%s: parameter tables list the prototype\'s parameters' % label, probs)

    # "Can be enabled for one thread" exactly where the event is filtered by
    # thread (filtered="thread"); the rest only globally.
    probs = []
    for ev in events:
        html = esec.get(ev.get('id'), '')
        one = 'Can be enabled for one thread' in html
        if one != (ev.get('filtered') == 'thread'):
            probs.append('%s: filtered=%s, page says %s' % (ev.get('id'), ev.get('filtered'),
                                                          'one thread' if one else 'global'))
    r.fact('%s: each event\'s thread filter follows its filtered attribute' % label, probs)

    # An event's parameters are passed to the callback: none of them carries
    # a note about storage the agent provides.
    probs = [ev.get('id') for ev in events
             if 'storage the agent provides' in esec.get(ev.get('id'), '')]
    r.fact('%s: no event parameter is described as an output' % label, probs)

    # Who owns the memory an event's or callback's pointer parameter points
    # to, as its type says (ClassFileLoadHook's new_class_data: the agent
    # allocates it, the VM frees it).
    probs = []
    for item in events + visible(root, './/callback'):
        for p in item.iterfind('parameters/param'):
            if param_type(p) is None or param_type(p).tag not in POINTERS or not in_table(p):
                continue
            note = type_note(page, '%s.%s' % (item.get('id'), p.get('id')))
            if note is None:
                probs.append('%s.%s: no row' % (item.get('id'), p.get('id')))
            else:
                probs += ownership_problems(item.get('id'), p, note)
    r.fact('%s: each event and callback pointer says who owns its memory' % label, probs)

    # The same on the events' man pages.
    if len(sys.argv) > 5:
        probs = []
        for ev in events:
            for p in ev.iterfind('parameters/param'):
                if param_type(p) is None or param_type(p).tag not in POINTERS or not in_table(p):
                    continue
                note = man_note(sys.argv[5], ev.get('id'), p.get('id'))
                if note is None:
                    probs.append('%s.3: no paragraph for %s' % (ev.get('id'), p.get('id')))
                else:
                    probs += ownership_problems(ev.get('id'), p, note)
        r.fact('%s: each event\'s man page says who owns its pointers\' memory' % label, probs)

        # SEE ALSO: what the item's text links to (functionlink to a
        # function, eventlink to an event, typelink to a struct, union,
        # callback or constants group, none of them elided), once each, in
        # the order the text first links it, the item itself left out; then
        # the types (pages) its parameters or fields name in a <struct> or
        # <enum> at any depth, in the spec's order; for a function the other
        # functions of its category; then the capabilities page where the
        # item names capabilities, the errors page for a function, the
        # overview. A type's page starts with the function or event it is
        # defined in and, after its types, lists its users: the functions,
        # events, callbacks and structs whose parameters or fields name it,
        # in the spec's order. No page twice.
        typed = [t for tag in ('typedef', 'uniontypedef', 'constants') for t in visible(root, './/' + tag)]
        parent = {c: p for p in root.iter() for c in p}
        typed += [c for c in visible(root, './/callback') if parent.get(c) is not None and parent[c].tag == 'category']
        order = {e: i for i, e in enumerate(root.iter())}
        typed.sort(key=order.get)
        types = {t.get('id') for t in typed}
        targets = {'functionlink': {f.get('id') for f in funcs},
                   'eventlink': {e.get('id') for e in events}, 'typelink': types}
        caps = visible(root, './/capabilitiestypedef')
        caps_id = caps[0].get('id') if caps else 'jvmtiCapabilities'

        def named(members):
            return {n.text.strip() for m in members for n in m.iter() if n.tag in ('struct', 'enum') and n.text}

        pages = set(funcs) | set(events) | set(typed)
        users = {}
        for m in visible(root, './/param') + visible(root, './/field'):
            owner = parent[parent[m]] if m.tag == 'param' else parent[m]
            if owner in pages and (owner.tag != 'callback' or owner in typed):
                for t in named([m]):
                    users.setdefault(t, set()).add(owner)
        probs, listed = [], 0
        for item in funcs + events + typed:
            ident = item.get('id')
            want = []
            if item in typed:
                p = parent.get(item)
                while p is not None and p.tag not in ('function', 'event'):
                    p = parent.get(p)
                if p is not None:
                    want.append(p.get('id'))
            for link in item.iter():
                lid = link.get('id')
                if link.tag in targets and lid in targets[link.tag] and lid != ident and lid not in want:
                    want.append(lid)
            members = item.findall('parameters/param') + item.findall('field')
            want += [t.get('id') for t in typed if t.get('id') in named(members) and t.get('id') not in want + [ident]]
            if item.tag == 'function':
                want += [f.get('id') for f in parent[item].findall('function') if f is not item and f.get('id') not in want]
            if item in typed:
                want += [u.get('id') for u in sorted(users.get(ident, ()), key=order.get)
                         if u.get('id') not in want + [ident]]
            if item not in typed and (item.find('capabilities/required') is not None or
                                      item.find('capabilities/capability') is not None or
                                      item.find('eventcapabilities') is not None):
                want.append(caps_id)
            if item.tag == 'function':
                want.append('jvmtiError')
            want.append('jvmti')
            got = man_see_also(sys.argv[5], ident)
            listed += len(want)
            if got != want:
                probs.append('%s.3: SEE ALSO %s, want %s' % (ident, got, want))
        r.fact('%s: each man page\'s SEE ALSO lists what its text links to, the types it names, its category, its users, once each, in order (%d entries)'
               % (label, listed), probs)

    # NAME: a function's and an event's man page says what it does in the
    # first sentence of its description (what apropos and whatis show), not
    # its synopsis, which is mostly its name in words ("Get Stack Trace");
    # the synopsis (the event's label) only where the description has no
    # text before its first block.
    if len(sys.argv) > 5:
        blocks = {'p', 'ul', 'ol', 'dl', 'pre', 'example', 'table', 'blockquote', 'constants'}
        skipped = {'issue', 'todo', 'elide', 'rationale', 'typedef', 'uniontypedef', 'capabilitiestypedef'}

        def lead(e, out):
            """The text of e up to its first block; False at that block."""
            out.append(e.text or '')
            for c in e:
                if c.tag in blocks:
                    return False
                if c.tag not in skipped:
                    if c.tag == 'jvmti':
                        out.append('JVM TI')
                    elif c.tag == 'vmspec':
                        out.append('The Java Virtual Machine Specification' +
                                   (', chapter ' + c.get('chapter') if c.get('chapter') else ''))
                    elif len(c) == 0 and not (c.text or '').strip():
                        out.append(c.get('id') or '')
                    elif not lead(c, out):
                        return False
                out.append(c.tail or '')
            return True

        probs, named = [], 0
        for item in funcs + events:
            text = []
            d = item.find('description')
            if d is not None:
                lead(d, text)
            text = ' '.join(''.join(text).split())
            m = re.match(r'(.*?)[.:](?: |$)', text + ' ')
            while m and re.search(r'(?:^|[ (])(?:e\.g|i\.e|etc|vs|cf)$', m.group(1)):
                m = re.match(r'(%s\. .*?)[.:](?: |$)' % re.escape(m.group(1)), text + ' ')
            want = m.group(1) if m else text
            if not want:
                want = ' '.join((item.findtext('synopsis') or '').split()) if item.tag == 'function' \
                    else item.get('label') + ' event'
            try:
                roff = open('%s/%s.3' % (sys.argv[5], item.get('id')), encoding='utf-8').read()
            except OSError:
                roff = ''
            got = re.search(r'^\.SH NAME\n(.*)$', roff, re.M)
            got = got and re.sub(r'\\&|\\f[BIRP]', '', got.group(1)).replace('\\(dq', '"').replace('\\e', '\\')
            named += 1
            if got != '%s \\- %s' % (item.get('id'), want):
                probs.append('%s.3: NAME %r, want %r' % (item.get('id'), got, want))
        r.fact('%s: each function\'s and event\'s man page NAME is the first sentence of its description (%d pages)'
               % (label, named), probs)

    # New JNI local references: a function's parameter that returns a
    # jobject, jclass, jthread or jthreadGroup (outptr, or an array the
    # function fills or allocates), and such a field of every struct that is
    # not only ever passed in to functions (the JDK's page notes the same
    # ones), say the agent is to manage them; nothing else does. Worked out
    # here from the XML: which structs reach the agent, through which
    # parameters, nested structs included.
    refs = {'jobject', 'jclass', 'jthread', 'jthreadGroup'}
    out_wrappers = {'outptr', 'allocbuf', 'allocallocbuf', 'outbuf'}
    def inner(t):
        while t is not None and t.tag not in refs and t.tag != 'struct' and len(t):
            t = t[0]
        return t
    uses = {}
    for fn in funcs:
        for p in fn.iterfind('parameters/param'):
            t = param_type(p)
            i = inner(t)
            if t is not None and i is not None and i.tag == 'struct':
                uses.setdefault((i.text or '').strip(), set()).add(t.tag)
    for cb in events + visible(root, './/callback'):
        for p in cb.iterfind('parameters/param'):
            i = inner(param_type(p))
            if i is not None and i.tag == 'struct':
                uses.setdefault((i.text or '').strip(), set()).add('callback')
    structs = visible(root, './/typedef') + visible(root, './/uniontypedef')
    for _ in structs:  # nested structs go where their holder goes
        for st in structs:
            for f in st.iterfind('field'):
                i = inner(param_type(f))
                if i is not None and i.tag == 'struct':
                    uses.setdefault((i.text or '').strip(), set()).update(uses.get(st.get('id'), {'unpassed'}))
    want = set()
    for fn in funcs:
        for p in fn.iterfind('parameters/param'):
            t = param_type(p)
            i = inner(t)
            if t is not None and t.tag in out_wrappers and i is not None and i.tag in refs:
                want.add((fn.get('id'), p.get('id')))
    for st in structs:
        passed_in = uses.get(st.get('id')) and uses[st.get('id')] <= {'inptr', 'inbuf'}
        for f in st.iterfind('field'):
            i = inner(param_type(f))
            if not passed_in and i is not None and i.tag in refs:
                want.add((st.get('id'), f.get('id')))
    said = re.compile(r'JNI local references?, (to be managed|which the agent manages)').search
    probs = []
    rows = [(fn, p) for fn in funcs + events for p in fn.iterfind('parameters/param') if in_table(p)]
    rows += [(st, f) for st in structs for f in st.iterfind('field')]
    for owner, m in rows:
        key = (owner.get('id'), m.get('id'))
        note = type_note(page, '%s.%s' % key) or ''
        if bool(said(note)) != (key in want):
            probs.append('%s.%s: page %r' % (key + (note,)))
        if len(sys.argv) > 5 and owner.tag != 'event':
            mnote = man_note(sys.argv[5], key[0], key[1]) or ''
            if bool(said(mnote)) != (key in want):
                probs.append('%s.%s: man page %r' % (key + (mnote,)))
    r.fact('%s: the %d parameters and fields that return JNI local references say so, no other'
           % (label, len(want)), probs)

    # The errors tables state the spec: which error jvmtigen's function
    # table checks on entry is this implementation's fact, left out of the
    # reference (it read as arbitrary beside the spec's text).
    probs = [fn.get('id') for fn in funcs
             if '<th scope="col">Checked</th>' in fsec.get(fn.get('id'), '')
             or 'Checked <em>on entry' in fsec.get(fn.get('id'), '')]
    if len(sys.argv) > 5:
        for fn in funcs:
            try:
                roff = open('%s/%s.3' % (sys.argv[5], fn.get('id')), encoding='utf-8').read()
            except OSError:
                continue
            if 'Checked on entry' in roff or 'Checked by the implementation' in roff:
                probs.append(fn.get('id') + '.3')
    r.fact('%s: no errors table or man page says which errors our function table checks' % label, probs)

    # When each function may be called, from its phase attribute, in the
    # page's phase cell and the man page's DESCRIPTION. The words are the
    # spec's phases written out here: "any" is every phase, OnLoad and dead
    # included (GetPhase, Allocate, the raw monitors).
    phase_words = {None: 'in the live phase only', 'live': 'in the live phase only',
                   'onload': 'in the OnLoad or the live phase',
                   'onloadOnly': 'in the OnLoad phase only',
                   'start': 'in the start or the live phase', 'any': 'in any phase'}
    probs = []
    for fn in funcs:
        want = 'May be called ' + phase_words[fn.get('phase')]
        if '<td>%s</td>' % want not in fsec.get(fn.get('id'), ''):
            probs.append('%s (phase %s): page' % (fn.get('id'), fn.get('phase')))
        if len(sys.argv) > 5:
            try:
                roff = open('%s/%s.3' % (sys.argv[5], fn.get('id')), encoding='utf-8').read()
            except OSError:
                roff = ''
            if want + '.' not in roff.replace('\n', ' '):
                probs.append('%s (phase %s): man page' % (fn.get('id'), fn.get('phase')))
    r.fact('%s: each function says the phases it may be called in, as its phase attribute says'
           % label, probs)

    # The line under each function's prototype, on the page and below the
    # man page's SYNOPSIS: phase, callback-safe, the capabilities it needs,
    # the release that added it, from the function's attributes and
    # capabilities as the XML says them.
    short_phase = {None: 'live phase only', 'live': 'live phase only',
                   'onload': 'OnLoad or live phase', 'onloadOnly': 'OnLoad phase only',
                   'start': 'start or live phase', 'any': 'any phase'}
    probs = []
    for fn in funcs:
        caps = [c.get('id') for c in fn.iterfind('capabilities/required')]
        need = ('needs the event\'s capabilities' if fn.find('eventcapabilities') is not None
                else '') + ('needs ' + ', '.join(caps) if caps else '')
        want = [short_phase[fn.get('phase')],
                'callback-safe' if fn.get('callbacksafe') == 'safe' else 'not callback-safe',
                need or 'no capability needed', 'since ' + (fn.get('since') or '1.0')]
        m = re.search(r'<p class="proto-facts">(.*?)</p>', fsec.get(fn.get('id'), ''), re.S)
        got = re.findall(r'<span data-fact="[^"]*">([^<]*)</span>', m.group(1)) if m else None
        if got != want:
            probs.append('%s: page %s, want %s' % (fn.get('id'), got, want))
        if len(sys.argv) > 5:
            try:
                roff = open('%s/%s.3' % (sys.argv[5], fn.get('id')), encoding='utf-8').read()
            except OSError:
                roff = ''
            line = '\n.PP\n%s.\n.SH DESCRIPTION' % '; '.join(w.replace('\\', '\\e') for w in want)
            if line not in roff:
                probs.append('%s: man page lacks %r' % (fn.get('id'), line))
    r.fact('%s: each function\'s line under its prototype (page and man page) gives its phase, '
           'callback safety, capabilities and since, as the XML says' % label, probs)

    # Events the spec sends in any phase are sent in the primordial, start
    # and live phases: never "in any phase".
    probs = [ev.get('id') for ev in events if 'Sent in any phase' in esec.get(ev.get('id'), '')]
    r.fact('%s: no event is "sent in any phase"' % label, probs)

    # A function with <eventcapabilities/> shows each event with the
    # capabilities that enabling it needs.
    probs = []
    for fn in funcs:
        if fn.find('eventcapabilities') is None:
            continue
        html = div(fsec.get(fn.get('id'), ''), 'capabilities')
        for ev in events:
            caps = [c.get('id') for c in ev.iterfind('capabilities/required')]
            row = re.search(r'<tr><th scope="row"><a href="#%s">.*?</tr>' % ev.get('id'), html, re.S)
            if caps and not row:
                probs.append('%s: no row for %s' % (fn.get('id'), ev.get('id')))
            for c in caps if row else []:
                if c not in row.group(0):
                    probs.append('%s: %s without %s' % (fn.get('id'), ev.get('id'), c))
    r.fact('%s: the event capabilities table lists each event\'s capabilities' % label, probs)

    # The error index counts each function that lists the error.
    probs = []
    for err in {e for fn in funcs for e in expected_errors(fn)} - UNIVERSAL:
        m = re.search(r'<dt id="%s".*?<span class="xref-label">Returned by</span>(.*?)</p>' % err,
                      page, re.S)
        users = sorted(set(re.findall(r'<a href="#(\w+)">', m.group(1)))) if m else []
        want = sorted(f.get('id') for f in funcs if err in expected_errors(f))
        if users != want:
            probs.append('%s: %d functions on its entry, %d return it' % (err, len(users), len(want)))
    r.fact('%s: the error index names every function that can return each error' % label, probs)

    # Code examples: no <pre> of the page starts or ends with a blank line;
    # one <pre class="example"> per example the spec shows, in order, and
    # an example that is plain text shows exactly its lines.
    pres = pre_blocks(page)
    probs = ['a <pre%s> starts or ends with a blank line: %r' % (a, t[:70])
             for a, t in pres if not t.split('\n')[0].strip() or not t.split('\n')[-1].strip()]
    want = shown(root, 'example')
    got = [t for a, t in pres if 'class="example"' in a]
    if len(want) != len(got):
        probs.append('%d examples in the spec, %d on the page' % (len(want), len(got)))
    for e, t in zip(want, got):
        if len(e) == 0 and trim_lines(e.text or '') != t:
            probs.append('example %r shown as %r' % (trim_lines(e.text or '')[:60], t[:60]))
    r.fact('%s: code examples (%d) and every other <pre> (%d) have no blank first or last line'
           % (label, len(want), len(pres) - len(got)), probs)

    # The version that added each item (its since attribute; absent or 1.0:
    # the original): one marker in the item's heading saying it, linked to
    # the first change history entry of that release, which the page shows
    # with that entry's date; none on an original item.
    caps = visible(root, './/capabilitiestypedef')
    caps_id = caps[0].get('id') if caps else 'jvmtiCapabilities'
    heads = item_heads(page, caps_id)
    first = {}
    for c in root.iter('change'):
        first.setdefault(release(c.get('version')), c)
    probs, marked = [], 0
    for tag in ('function', 'event', 'callback', 'typedef', 'uniontypedef', 'constants', 'capabilityfield'):
        for item in visible(root, './/' + tag):
            ident = item.get('id') if tag != 'capabilityfield' else '%s.%s' % (caps_id, item.get('id'))
            if ident not in heads:
                probs.append('%s: no heading found' % ident)
                continue
            since = item.get('since') if item.get('since') not in (None, '1.0') else None
            got = re.findall(r'<(?:a|span) class="since"([^>]*)>since ([^<]*)<', heads[ident])
            if since is None:
                if got:
                    probs.append('%s: original, but marked %s' % (ident, [v for _, v in got]))
                continue
            marked += 1
            if [v for _, v in got] != [since]:
                probs.append('%s: since %s, marked %s' % (ident, since, [v for _, v in got]))
            elif since in first:
                want = ' href="#version-%s"' % since
                if want not in got[0][0]:
                    probs.append('%s: marker links %r, not the change history\'s %s' % (ident, got[0][0], since))
                row = re.search(r'<tr id="version-%s"><td>([^<]*)</td>' % re.escape(since), page)
                if not row or row.group(1) != first[since].get('date'):
                    probs.append('%s: the change history row of %s is not %s\'s entry of %s'
                                 % (ident, since, first[since].get('version'), first[since].get('date')))
    if marked == 0:
        probs.append('no item with a since version: the check checked nothing')
    r.fact('%s: each of the %d items a later version added is marked with its since version, linked to the change history'
           % (label, marked), probs)

    if len(sys.argv) > 3 and sys.argv[3]:
        jdk = jdk_errors(open(sys.argv[3], encoding='utf-8', errors='replace').read())
        probs = []
        for fid, errs in sorted(jdk.items()):
            if fid in fsec:
                missing = errs - UNIVERSAL - listed_errors(fsec[fid])
                if missing:
                    probs.append('%s: %s' % (fid, sorted(missing)))
        r.fact('%s: every error the JDK\'s page lists for a function is on ours (%d functions)'
               % (label, len(jdk)), probs)
    return 1 if r.failed else 0


if __name__ == '__main__':
    sys.exit(main())
