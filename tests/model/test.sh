#!/usr/bin/env bash
# `jvmtigen model SPEC`: the model as JSON.
#
#   fixtures/tiny.xml           a small spec with one of each thing the JSON carries
#   fixtures/tiny.json          its JSON, written by hand from the XML
#   fixtures/tiny-reworded.xml  the same facts in other prose, on other lines,
#                               attributes reordered, more elided items and
#                               changes: must print the very same bytes
#
# Then the reference specs: the output parses, is laid out exactly as
# json.dumps(indent=2) would lay it out, and its counts and lists agree with
# the XML as xmllint reads it; spot facts read by hand from the XML. Also
# determinism, exit statuses, valgrind, and own-spec (the project's spec
# against JDK 25's).
set -u
. tests/lib.sh
FIX=tests/model/fixtures

if [ ! -x "$JVMTIGEN" ]; then not_ok "model: generator '$JVMTIGEN' is not executable"; exit 0; fi
need_tool "model" python3 || exit 0

d=$(scratch model)

# same DESC FILE_A FILE_B: byte-identical, else the start of the diff.
same() {
    if cmp -s "$2" "$3"; then ok "model: $1"
    else not_ok "model: $1"; diff -u "$2" "$3" | head -40; fi
}

# ---- the hand-written fixture ----

"$JVMTIGEN" model "$FIX/tiny.xml" >"$d/tiny.json" 2>"$d/tiny.err"
status=$?
if [ "$status" -eq 0 ] && [ ! -s "$d/tiny.err" ]; then ok "model: tiny.xml exits 0, quietly"
else not_ok "model: tiny.xml exits 0, quietly (status $status)"; head -20 "$d/tiny.err"; fi
same "tiny.xml prints exactly the hand-written tiny.json" "$FIX/tiny.json" "$d/tiny.json"

# The layout is canonical: what Python's json.dumps(indent=2) makes of the
# parsed document, with control characters as \u00XX.
canonical() {
    python3 - "$1" <<'EOF'
import json, json.encoder, sys
def encode(s):
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append('\\' + ch)
        elif ord(ch) < 0x20:
            out.append('\\u%04x' % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return ''.join(out)
json.encoder.encode_basestring = encode  # used with ensure_ascii=False and an indent
with open(sys.argv[1], encoding='utf-8') as f:
    text = f.read()
again = json.dumps(json.loads(text), indent=2, ensure_ascii=False) + '\n'
if again != text:
    import difflib
    sys.stdout.writelines(list(difflib.unified_diff(text.splitlines(True), again.splitlines(True),
                                                    'output', 'json.dumps'))[:30])
    sys.exit(1)
EOF
}
check "model: tiny.json is canonical JSON (json.dumps indent=2 of itself)" canonical "$d/tiny.json"

# ---- facts, not prose or lines ----

"$JVMTIGEN" model "$FIX/tiny-reworded.xml" >"$d/reworded.json" 2>&1
same "other prose, blank lines, comments, attribute order, elided items and changes print the same JSON" \
    "$d/tiny.json" "$d/reworded.json"
"$JVMTIGEN" model "$FIX/tiny.xml" >"$d/tiny2.json" 2>&1
same "two runs print the same bytes" "$d/tiny.json" "$d/tiny2.json"
# ... and a changed fact does change it (the comparison above can fail).
cp spec/jvmti.dtd "$d/jvmti.dtd"
sed -e 's/id="Poke" num="10"/id="Poke" num="12"/' -e 's|SYSTEM "../../../spec/jvmti.dtd"|SYSTEM "jvmti.dtd"|' \
    "$FIX/tiny.xml" >"$d/changed.xml"
"$JVMTIGEN" model "$d/changed.xml" >"$d/changed.json" 2>&1
# (The function table's slots in "abi" move with it: compared apart.)
noabi() { python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); t=m.pop("abi")["function_table"]
print(json.dumps(m, indent=2)); print([(x["num"], x["function"]) for x in t["slots"] if x["function"]])' "$1"; }
changed_num() {
    diff <(noabi "$d/tiny.json") <(noabi "$d/changed.json") >"$d/changed.diff"
    grep -c '^[<>]' "$d/changed.diff" | grep -qx 4 && grep -q '^> *"num": 12,' "$d/changed.diff" &&
        noabi "$d/changed.json" | tail -1 | grep -qxF "[(7, 'Look'), (12, 'Poke')]"
}
check "model: a changed function number changes exactly that number, and its slot in the table" changed_num

# ---- exit statuses ----

run_model() { # runs jvmtigen with ARGS; sets OUT, ERR, STATUS
    OUT=$("$JVMTIGEN" "$@" 2>"$d/err")
    STATUS=$?
    ERR=$(cat "$d/err")
}
BAD=tests/checks/fixtures/dup_event_num
run_model model "$BAD.xml"
if [ "$STATUS" -eq 1 ] && [ -z "$OUT" ] && [ "$ERR" = "$(cat "$BAD.expected")" ]; then
    ok "model: an invalid spec exits 1, prints nothing on stdout and the checks' diagnostics"
else
    not_ok "model: an invalid spec exits 1, prints nothing on stdout and the checks' diagnostics (status $STATUS)"
    printf 'stdout: %s\nstderr: %s\n' "$(head -c 300 <<<"$OUT")" "$ERR"
fi
printf '<specification label="x">\n  <unclosed>\n</specification>\n' >"$d/broken.xml"
run_model model "$d/broken.xml"
if [ "$STATUS" -eq 1 ] && [ -z "$OUT" ] && grep -q "^$d/broken.xml:[0-9]*: error: " <<<"$ERR"; then
    ok "model: malformed XML exits 1 with FILE:LINE: error and no stdout"
else not_ok "model: malformed XML exits 1 with FILE:LINE: error and no stdout (status $STATUS)"; echo "$ERR"; fi
run_model model "$d/no-such.xml"
if [ "$STATUS" -eq 3 ] && [ -z "$OUT" ] && grep -q "no-such.xml: error: cannot read" <<<"$ERR"; then
    ok "model: a missing spec exits 3 with no stdout"
else not_ok "model: a missing spec exits 3 with no stdout (status $STATUS)"; echo "$ERR"; fi
if [ -w /dev/full ]; then
    "$JVMTIGEN" model "$FIX/tiny.xml" >/dev/full 2>"$d/err"
    STATUS=$?
    if [ "$STATUS" -eq 3 ] && grep -q "<stdout>: error: cannot write" "$d/err"; then
        ok "model: a stdout that cannot be written exits 3"
    else not_ok "model: a stdout that cannot be written exits 3 (status $STATUS)"; cat "$d/err"; fi
else
    skip "model: no /dev/full to fail a write"
fi
# Without SPEC, model reads the spec that comes with jvmtigen (here
# spec/jvmti.xml beside bin/; installed, share/jvmtigen's).
run_model model
if [ "$STATUS" -eq 0 ] && [ "$OUT" = "$("$JVMTIGEN" model spec/jvmti.xml)" ]; then
    ok "model: without SPEC it reads the spec that comes with it"
else not_ok "model: without SPEC it reads the spec that comes with it (status $STATUS)"; echo "$ERR"; fi
for args in "model -o x $FIX/tiny.xml" "model --jvmti-version 17 $FIX/tiny.xml" \
            "model -MD $FIX/tiny.xml" "model -v $FIX/tiny.xml" "model $FIX/tiny.xml $FIX/tiny.xml" \
            "model --frobnicate $FIX/tiny.xml"; do
    # shellcheck disable=SC2086 # word splitting wanted
    run_model $args
    if [ "$STATUS" -eq 2 ] && [ -z "$OUT" ] && grep -q "^jvmtigen: error: " <<<"$ERR"; then
        ok "model: '$args' is a usage error"
    else not_ok "model: '$args' is a usage error (status $STATUS)"; echo "$ERR"; fi
done
run_model model -q "$FIX/tiny.xml"
if [ "$STATUS" -eq 0 ] && [ "$OUT" = "$(cat "$FIX/tiny.json")" ]; then ok "model: -q is accepted"
else not_ok "model: -q is accepted (status $STATUS)"; echo "$ERR"; fi
check "model: --help describes the model command" \
    bash -c "'$JVMTIGEN' --help | grep -q '^       jvmtigen model ' && '$JVMTIGEN' model --help | grep -q '^  model  *check SPEC and print its model as JSON'"

# ---- the reference specs ----

# xcount SPEC XPATH: a number as xmllint counts it.
xcount() { xmllint --xpath "count($2)" "$1" 2>/dev/null; }
# xattrs SPEC XPATH: attribute values, one a line, in document order.
xattrs() { xmllint --xpath "$2" "$1" 2>/dev/null | sed -e 's/^ *[a-z]*="//' -e 's/"$//'; }
# jq_ JSON PYEXPR: one value a line from the parsed JSON as m.
jsonl() {
    python3 -c 'import json,sys
m = json.load(open(sys.argv[1], encoding="utf-8"))
for v in eval(sys.argv[2]): print(v)' "$1" "$2"
}

for name in jdk17 jdk25 mainline; do
    spec="$SHARED_SPECS/$name/jvmti.xml"
    if [ ! -f "$spec" ]; then skip "model: $name ($spec is not here)"; continue; fi
    json="$d/$name.json"
    "$JVMTIGEN" model "$spec" >"$json" 2>"$d/$name.err"
    status=$?
    if [ "$status" -ne 0 ]; then
        not_ok "model: $name exits 0 (status $status)"; head -20 "$d/$name.err"; continue
    fi
    check "model: $name output parses (python3 -m json.tool)" python3 -m json.tool "$json" /dev/null
    check "model: $name output is canonical JSON" canonical "$json"
    "$JVMTIGEN" model "$spec" >"$d/$name.again.json" 2>/dev/null
    same "$name: two runs print the same bytes" "$json" "$d/$name.again.json"
    check "model: $name has no line numbers (no key names a line)" \
        bash -c "! grep -qi '\"line\"\\|\"loc\"' '$json'"

    need_tool "model: $name counts" xmllint || continue
    problems=()
    while IFS='|' read -r what xpath pyexpr; do
        want=$(xcount "$spec" "$xpath")
        got=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$json" "$pyexpr")
        [ "$want" = "$got" ] || problems+=("$what: the XML has $want, the JSON $got")
    done <<'EOF'
functions|//function[not(ancestor::elide)]|len(m["functions"])
events|//event[not(ancestor::elide)]|len(m["events"])
errors|//errorid|len(m["errors"])
callbacks|//callback[not(ancestor::elide)]|len(m["callbacks"])
categories|//category|len(m["categories"])
typedefs and unions|//*[self::typedef or self::uniontypedef][not(ancestor::elide)]|len(m["typedefs"])
unions|//uniontypedef[not(ancestor::elide)]|sum(t["union"] for t in m["typedefs"])
constant groups|//constants|len(m["constant_groups"])
constants|//constant|sum(len(g["constants"]) for g in m["constant_groups"])
capabilities|//capabilityfield|len(m["capabilities"]["fields"])
base types|//basetype|len(m["basetypes"])
error categories|//errorcategory|len(m["error_categories"])
function parameters|//function[not(ancestor::elide)]/parameters/param|sum(len(f["parameters"]) for f in m["functions"])
event parameters|//event[not(ancestor::elide)]/parameters/param|sum(len(e["parameters"]) for e in m["events"])
function errors|//function[not(ancestor::elide)]/errors/error|sum(len(f["errors"]) for f in m["functions"])
required capabilities|//function[not(ancestor::elide)]/capabilities/required|sum(len(f["capabilities"]["required"]) for f in m["functions"])
hidden functions|//function[not(ancestor::elide)][@hide]|sum(f["hide"] for f in m["functions"])
nullok|//nullok[not(ancestor::elide)]|len(__import__("re").findall(r'"nullok": true', open(sys.argv[1]).read()))
EOF
    # Lists in document order, attribute by attribute.
    for pair in "//function[not(ancestor::elide)]/@id|[f['id'] for f in m['functions']]" \
                "//function[not(ancestor::elide)]/@num|[f['num'] for f in m['functions']]" \
                "//event[not(ancestor::elide)]/@id|[e['id'] for e in m['events']]" \
                "//event[not(ancestor::elide)]/@num|[e['num'] for e in m['events']]" \
                "//event[not(ancestor::elide)]/@const|[e['const'] for e in m['events']]" \
                "//errorid/@id|[e['id'] for e in m['errors']]" \
                "//errorid/@num|[e['num'] for e in m['errors']]" \
                "//capabilityfield/@id|[c['id'] for c in m['capabilities']['fields']]" \
                "//constant/@id|[c['id'] for g in m['constant_groups'] for c in g['constants']]"; do
        xpath=${pair%%|*} pyexpr=${pair#*|}
        if ! diff <(xattrs "$spec" "$xpath") <(jsonl "$json" "$pyexpr") >"$d/list.diff"; then
            problems+=("$xpath differs: $(head -6 "$d/list.diff" | tr '\n' ' ')")
        fi
    done
    # The highest of the change versions that are versions (old ones read "v40").
    want=$(xattrs "$spec" "//change/@version" | grep -E '^[0-9]+(\.[0-9]+){0,2}$' | sort -V | tail -1)
    got=$(jsonl "$json" "[m['version']]")
    [ "$want" = "$got" ] || problems+=("version: the highest change is $want, the JSON says $got")
    if [ "${#problems[@]}" -eq 0 ]; then ok "model: $name counts, lists and version agree with the XML"
    else not_ok "model: $name counts, lists and version agree with the XML"; printf '# %s\n' "${problems[@]}"; fi
    check "model: $name: each function returns the universal errors and those its XML implies" \
        python3 tests/model/returns.py "$spec" "$json"
done

# Facts read by hand from the XML of each release.
facts() { # NAME PYTHON-ASSERTIONS
    local name=$1 json="$d/$1.json"
    if [ ! -s "$json" ]; then skip "model: $name spot facts (no output)"; return; fi
    python3 - "$json" "$name" <<EOF
import json, sys
m = json.load(open(sys.argv[1], encoding="utf-8"))
fn = {f["id"]: f for f in m["functions"]}
ev = {e["id"]: e for e in m["events"]}
er = {e["id"]: e for e in m["errors"]}
caps = [c["id"] for c in m["capabilities"]["fields"]]
def pnames(x): return [p["name"] for p in x["parameters"]]
def fact(desc, cond):
    print(("ok - " if cond else "not ok - ") + "model: " + sys.argv[2] + ": " + desc)
$2
EOF
}

facts jdk17 '
fact("version 17.0.0", m["version"] == "17.0.0")
fact("GetThreadState is number 17, phase absent, since 1.0", fn["GetThreadState"]["num"] == 17 and fn["GetThreadState"]["phase"] is None and fn["GetThreadState"]["since"] == "1.0")
fact("no virtual threads yet", "VirtualThreadStart" not in ev and "can_support_virtual_threads" not in caps and "SuspendAllVirtualThreads" not in fn)
fact("SetEventNotificationMode is number 2, onload, jkernel yes, event capabilities", fn["SetEventNotificationMode"]["num"] == 2 and fn["SetEventNotificationMode"]["phase"] == "onload" and fn["SetEventNotificationMode"]["jkernel"] == "yes" and fn["SetEventNotificationMode"]["eventcapabilities"])
'
facts jdk25 '
f = fn["SetEventNotificationMode"]
fact("version 25.0.0", m["version"] == "25.0.0")
fact("GetThreadState is number 17, phase absent", fn["GetThreadState"]["num"] == 17 and fn["GetThreadState"]["phase"] is None)
fact("SetEventNotificationMode: number 2, onload, jkernel, event capabilities", f["num"] == 2 and f["phase"] == "onload" and f["jkernel"] == "yes" and f["eventcapabilities"])
fact("SetEventNotificationMode: parameters mode, event_type, event_thread, ...", pnames(f) == ["mode", "event_type", "event_thread", "..."])
r = fn["GetThreadState"]["returns"]
def ret(err, param=None): return [x for x in r if x["error"] == err and x["param"] == param]
fact("GetThreadState returns INVALID_THREAD for thread, checked by the implementation (noconvert)", [x["checked_on_entry"] for x in ret("JVMTI_ERROR_INVALID_THREAD", "thread")] == [False])
fact("GetThreadState returns NULL_POINTER for thread_state_ptr, checked on entry", [x["checked_on_entry"] for x in ret("JVMTI_ERROR_NULL_POINTER", "thread_state_ptr")] == [True])
own = lambda x, n: next(p["ownership"] for p in x["parameters"] if p["name"] == n)
cflh = ev["ClassFileLoadHook"]
fact("ownership: ClassFileLoadHook jni_env value, new_class_data_len caller-storage, new_class_data agent-owned, class_data vm-owned", (own(cflh, "jni_env"), own(cflh, "new_class_data_len"), own(cflh, "new_class_data"), own(cflh, "class_data")) == ("value", "caller-storage", "agent-owned", "vm-owned"))
fact("ownership: GetAllThreads threads_ptr callee-allocated; GetLoadedClasses classes_ptr too; SetEventCallbacks callbacks caller-in", own(fn["GetAllThreads"], "threads_ptr") == "callee-allocated" and own(fn["GetLoadedClasses"], "classes_ptr") == "callee-allocated" and own(fn["SetEventCallbacks"], "callbacks") == "caller-in")
dr = lambda x, n: next((p["direction"], p["reference"]) for p in x["parameters"] if p["name"] == n)
td = {t["id"]: {f["name"]: (f["direction"], f["reference"]) for f in t["fields"]} for t in m["typedefs"]}
fact("direction and reference: GetAllThreads threads_ptr out, local; GetThreadInfo thread in, caller; info_ptr out, no reference", dr(fn["GetAllThreads"], "threads_ptr") == ("out", "local") and dr(fn["GetThreadInfo"], "thread") == ("in", "caller") and dr(fn["GetThreadInfo"], "info_ptr") == ("out", None))
fact("direction and reference: ClassFileLoadHook loader callback-local, jni_env in, new_class_data out", dr(cflh, "loader") == ("in", "callback-local") and dr(cflh, "jni_env") == ("in", None) and dr(cflh, "new_class_data") == ("out", None))
cb = {c["id"]: c for c in m["callbacks"]}
fact("values passed in to callbacks (void*, environments): NativeMethodBind address, heap callbacks user_data, jvmtiStartFunction jvmti_env and arg are in, value; ClassFileLoadHook new_class_data_len stays out", (own(ev["NativeMethodBind"], "address"), dr(ev["NativeMethodBind"], "address")[0]) == ("value", "in") and (own(cb["jvmtiHeapIterationCallback"], "user_data"), dr(cb["jvmtiHeapIterationCallback"], "user_data")[0]) == ("value", "in") and [(own(cb["jvmtiStartFunction"], n), dr(cb["jvmtiStartFunction"], n)[0]) for n in ("jvmti_env", "arg")] == [("value", "in")] * 2 and dr(cflh, "new_class_data_len")[0] == "out" and dr(ev["NativeMethodBind"], "new_address_ptr")[0] == "out")
fact("references in fields: jvmtiThreadInfo thread_group local (the VM fills it), jvmtiClassDefinition klass caller (only passed in), jvmtiMonitorUsage waiters out and local", td["jvmtiThreadInfo"]["thread_group"] == ("in", "local") and td["jvmtiClassDefinition"]["klass"] == ("in", "caller") and td["jvmtiMonitorUsage"]["waiters"] == ("out", "local"))
fact("GetThreadState: WRONG_PHASE universal, checked on entry; INTERNAL not", ret("JVMTI_ERROR_WRONG_PHASE")[0]["checked_on_entry"] and ret("JVMTI_ERROR_WRONG_PHASE")[0]["origin"] == "universal" and not ret("JVMTI_ERROR_INTERNAL")[0]["checked_on_entry"])
t = f["parameters"][2]["type"]
fact("SetEventNotificationMode: event_thread is a nullok ptrtype of a noconvert jthread", t["kind"] == "ptrtype" and t["nullok"] and t["elem"]["kind"] == "jthread" and t["elem"]["impl"] == "noconvert")
fact("SetEventNotificationMode: enums and varargs", [p["type"]["name"] for p in f["parameters"][:2]] == ["jvmtiEventMode", "jvmtiEvent"] and f["parameters"][3]["type"]["kind"] == "varargs")
fact("SetEventNotificationMode: errors", f["errors"] == ["JVMTI_ERROR_INVALID_THREAD", "JVMTI_ERROR_THREAD_NOT_ALIVE", "JVMTI_ERROR_ILLEGAL_ARGUMENT", "JVMTI_ERROR_MUST_POSSESS_CAPABILITY"])
g = fn["GetFrameLocation"]
fact("GetFrameLocation: number 19, origin jvmdiClone, its parameters", g["num"] == 19 and g["origin"] == "jvmdiClone" and pnames(g) == ["thread", "depth", "method_ptr", "location_ptr"])
th = g["parameters"][0]["type"]
fact("GetFrameLocation: thread is null=current, frame=frame, impl=noconvert", (th["kind"], th["null"], th["frame"], th["impl"], th["started"]) == ("jthread", "current", "frame", "noconvert", None))
fact("GetFrameLocation: depth is a jframeID of thread; outptrs of jmethodID and jlocation", g["parameters"][1]["type"]["kind"] == "jframeID" and g["parameters"][1]["type"]["thread"] == "thread" and [(p["type"]["kind"], p["type"]["elem"]["kind"]) for p in g["parameters"][2:]] == [("outptr", "jmethodID"), ("outptr", "jlocation")])
s = fn["SuspendAllVirtualThreads"]
fact("SuspendAllVirtualThreads: number 118, since 21, two required capabilities", s["num"] == 118 and s["since"] == "21" and s["capabilities"]["required"] == ["can_suspend", "can_support_virtual_threads"])
fact("SuspendAllVirtualThreads: except_count min 0; except_list a nullok inbuf of jthread counted by it", s["parameters"][0]["type"]["min"] == 0 and s["parameters"][1]["type"]["kind"] == "inbuf" and s["parameters"][1]["type"]["incount"] == "except_count" and s["parameters"][1]["type"]["nullok"] and s["parameters"][1]["type"]["elem"]["kind"] == "jthread")
fact("ClearAllFramePops: number 67, since 25, needs can_generate_frame_pop_events", fn["ClearAllFramePops"]["num"] == 67 and fn["ClearAllFramePops"]["since"] == "25" and fn["ClearAllFramePops"]["capabilities"]["required"] == ["can_generate_frame_pop_events"])
b = ev["Breakpoint"]
fact("Breakpoint: number 62, thread-filtered, no phase, its capability and parameters", (b["num"], b["const"], b["filtered"], b["phase"]) == (62, "JVMTI_EVENT_BREAKPOINT", "thread", None) and b["capabilities"]["required"] == ["can_generate_breakpoint_events"] and pnames(b) == ["jni_env", "thread", "klass", "method", "location"])
fact("Breakpoint: klass names its method, method its class", b["parameters"][2]["type"]["method"] == "method" and b["parameters"][3]["type"]["class"] == "klass")
fact("VirtualThreadStart: number 87, phase start, since 21", (ev["VirtualThreadStart"]["num"], ev["VirtualThreadStart"]["phase"], ev["VirtualThreadStart"]["since"]) == (87, "start", "21"))
fact("errors INVALID_THREAD 10 and NOT_AVAILABLE 98", er["JVMTI_ERROR_INVALID_THREAD"]["num"] == 10 and er["JVMTI_ERROR_NOT_AVAILABLE"]["num"] == 98)
fact("the last capability is can_support_virtual_threads, since 21", caps[-1] == "can_support_virtual_threads" and m["capabilities"]["fields"][-1]["since"] == "21")
'
facts mainline '
fact("version 28.0.0", m["version"] == "28.0.0")
fact("the last capability is can_support_value_objects, since 28", caps[-1] == "can_support_value_objects" and m["capabilities"]["fields"][-1]["since"] == "28")
fact("ClearAllFramePops is still number 67", fn["ClearAllFramePops"]["num"] == 67)
'

# ---- the project's own spec says what JDK 25 says ----

bash tests/model/own-spec

# ---- valgrind ----

if [ -n "${SANITIZE:-}" ]; then
    skip "model: valgrind (sanitizer build)"
elif ! need_tool "model: valgrind" valgrind; then
    :
elif ! valgrind -q --error-exitcode=99 "$JVMTIGEN" --version >/dev/null 2>"$d/vg-probe.log" ||
     [ -s "$d/vg-probe.log" ]; then
    # e.g. an older valgrind cannot read clang's DWARF 5 debug information
    skip "model: valgrind cannot run $JVMTIGEN ($(grep -m1 -v '^###' "$d/vg-probe.log"))"
else
    vg() { valgrind_check "model: valgrind" "$@"; }
    if [ -f "$SHARED_SPECS/jdk25/jvmti.xml" ]; then
        vg "the model of jdk25 is clean" 0 model "$SHARED_SPECS/jdk25/jvmti.xml"
    else
        skip "model: valgrind on jdk25 (not here)"
    fi
    vg "the model of tiny.xml is clean" 0 model "$FIX/tiny.xml"
    vg "an invalid spec is clean" 1 model "$BAD.xml"
    vg "malformed XML is clean (libxml2 frees its file names before diagnostics print)" 1 \
        model "$d/broken.xml"
fi
exit 0
