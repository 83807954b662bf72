#!/usr/bin/env python3
"""The names a spec may not give, collected from what declares them.

reserved.py probe JVMTIGEN JNI_INCLUDE CC OUT SPEC [SPEC...] > probe.xml
    Generates each SPEC into OUT/N and collects, with ctags (and CC for the
    C library's headers):
      - file scope: what the generated outputs, the runtime headers they
        include, jni.h and jni_md.h declare (macros, types, tags,
        enumerators, functions, variables), and what the C library headers
        they include declare under -std=c11 -D_POSIX_C_SOURCE=200809L;
      - the other parameters and the locals of every generated function made
        for one of the spec's functions or events, and the members of
        jvmti.h's C++ class (they meet the spec's parameter names);
    less the names the spec itself gives. Writes tests/checks/fixtures/
    valid.xml (the first SPEC; names composed with another SPEC's items are
    left out) with every file-scope name as a constant, every name meeting a
    function's parameters as a parameter of its function Paint, and every
    name meeting an event's as a parameter of its event Painted. Prints the
    counts on stderr.
reserved.py refused PROBE.xml < STDERR
    Prints each probe name that no diagnostic of `jvmtigen check` names.
"""
import glob
import json
import os
import re
import subprocess
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
FILE_KINDS = {"macro", "typedef", "struct", "union", "enum", "enumerator", "function",
              "prototype", "variable", "externvar", "class"}


def spec_names(jvmtigen, spec):
    out = subprocess.run([jvmtigen, "model", spec], capture_output=True, text=True,
                         check=True).stdout
    names = set()

    def walk(o):
        if isinstance(o, dict):
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
        elif isinstance(o, str) and IDENT.match(o):
            names.add(o)

    walk(json.loads(out))
    return names


def tags(files):
    """(name, kind, scope) of every tag ctags finds, read as C++ (the header's
    C++ class too)."""
    out = subprocess.run(["ctags", "-x", "--language-force=C++", "--c++-kinds=*",
                          "--_xformat=%N\t%K\t%s"] + files,
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        name, kind, scope = (line.split("\t") + ["", ""])[:3]
        yield name, kind, scope


def file_scope(files):
    return {n for n, k, s in tags(files)
            if k in FILE_KINDS and (not s or k == "enumerator") and not n.startswith("__anon")}


def includes(files):
    found = set()
    for f in files:
        with open(f, errors="replace") as fh:
            found.update(re.findall(r"^\s*#\s*include\s*<([^>]+)>", fh.read(), re.M))
    return sorted(found)


def libc(cc, headers, tmp):
    flags = ["-std=c11", "-D_POSIX_C_SOURCE=200809L"]
    src = os.path.join(tmp, "libc.c")
    with open(src, "w") as fh:
        fh.write("".join("#include <%s>\n" % h for h in headers))
    pre = os.path.join(tmp, "libc.i")
    subprocess.run([cc] + flags + ["-E", "-P", "-o", pre, src], check=True)
    macros = subprocess.run([cc] + flags + ["-E", "-dM", src], capture_output=True, text=True,
                            check=True).stdout
    builtin = subprocess.run([cc] + flags + ["-E", "-dM", "-x", "c", "/dev/null"],
                             capture_output=True, text=True, check=True).stdout
    names = file_scope([pre])
    names |= {m.split()[1].split("(")[0] for m in macros.splitlines() if m.startswith("#define")}
    names -= {m.split()[1].split("(")[0] for m in builtin.splitlines() if m.startswith("#define")}
    return names


def probe(jvmtigen, jni, cc, out, specs):
    root = os.getcwd()
    fixture = os.path.join(root, "tests/checks/fixtures/valid.xml")
    own = spec_names(jvmtigen, fixture)
    file_names, fn_params, ev_params = set(), set(), set()
    sources = []
    for i, spec in enumerate(specs):
        d = os.path.join(out, str(i))
        subprocess.run([jvmtigen, "-q", "--no-docs", "-o", d, spec], check=True)
        names = spec_names(jvmtigen, spec)
        model = json.loads(subprocess.run([jvmtigen, "model", spec], capture_output=True,
                                          text=True, check=True).stdout)
        functions = {f["id"] for f in model["functions"]}
        events = {e["id"] for e in model["events"]}
        files = sorted(glob.glob(d + "/*.h") + glob.glob(d + "/*.c"))
        sources += files
        declared = file_scope(files) - names
        if i:  # names composed with another spec's items are that spec's
            items = functions | events | {g["id"] for g in model["constant_groups"]}
            declared = {n for n in declared if not any(n.endswith(x) for x in items)}
        file_names |= declared
        # Scopes made for one of the spec's items: jvmtigen_entry_GetTag,
        # _jvmtiEnv::GetTag, jvmtirt_post_VMInit, ...
        for n, k, s in tags(files):
            last = re.split(r"::|\.", s)[-1] if s else ""
            item = next((x for x in functions | events
                         if last == x or last.endswith("_" + x)), None)
            if k in ("parameter", "local") and item and n not in names:
                (fn_params if item in functions else ev_params).add(n)
            if s.endswith("_jvmtiEnv") and k == "member":
                fn_params.add(n)
    # The project's headers the outputs include (runtime/ and its folders,
    # check/).
    local = sorted(set(re.findall(r'#\s*include\s*"([^"]+)"',
                                  "".join(open(f, errors="replace").read() for f in sources))))
    headers = [p for h in local
               for p in glob.glob("runtime/" + h) + glob.glob("runtime/*/" + h) + glob.glob("check/" + h)]
    file_names |= file_scope(headers)
    jni_files = [os.path.join(jni, "jni.h"), os.path.join(jni, "linux", "jni_md.h")]
    file_names |= file_scope(jni_files)
    file_names |= libc(cc, includes(sources + jni_files + headers), out)
    file_names -= own
    fn_params -= own
    ev_params -= own
    with open(fixture) as fh:
        text = fh.read()
    consts = "".join('          <constant id="%s" num="%d">Probe.</constant>\n' % (n, 1000 + i)
                     for i, n in enumerate(sorted(file_names)))
    text = text.replace(
        '        <constants id="jvmtiLimits"',
        '        <constants id="jvmtiReservedProbe" label="Probe" kind="const">\n%s'
        '        </constants>\n        <constants id="jvmtiLimits"' % consts, 1)

    def params(names):
        return "".join('<param id="%s"><jint/><description>Probe.</description></param>' % n
                       for n in sorted(names))

    text = text.replace(
        '<param id="point_ptr"><outptr><struct>jvmtiPoint</struct></outptr><description>'
        'Where the paint ended up.</description></param>',
        '<param id="point_ptr"><outptr><struct>jvmtiPoint</struct></outptr><description>'
        'Where the paint ended up.</description></param>' + params(fn_params), 1)
    text = text.replace(
        '<param id="color"><enum>jvmtiColor</enum><description>The color it used.'
        '</description></param>',
        '<param id="color"><enum>jvmtiColor</enum><description>The color it used.'
        '</description></param>' + params(ev_params), 1)
    text = text.replace('SYSTEM "../../../spec/jvmti.dtd"',
                        'SYSTEM "%s"' % os.path.join(root, "spec/jvmti.dtd"), 1)
    sys.stdout.write(text)
    print("file scope %d, function parameters %d, event parameters %d"
          % (len(file_names), len(fn_params), len(ev_params)), file=sys.stderr)
    print(" ".join(sorted(file_names | fn_params | ev_params)), file=sys.stderr)


def refused(probe_xml):
    with open(probe_xml) as fh:
        text = fh.read()
    wanted = set(re.findall(r'<constant id="([^"]+)" num="\d+">Probe\.', text))
    wanted |= set(re.findall(r'<param id="([^"]+)"><jint/><description>Probe\.', text))
    named = set()
    for line in sys.stdin:
        m = re.search(r"error: (?:constant|parameter) '([^']+)'.* has a reserved name", line)
        if m:
            named.add(m.group(1))
    print(" ".join(sorted(wanted - named)))


if __name__ == "__main__":
    if sys.argv[1] == "probe":
        probe(*sys.argv[2:6], sys.argv[6:])
    else:
        refused(sys.argv[2])
