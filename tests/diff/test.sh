#!/usr/bin/env bash
# jvmtigen diff OLD NEW:
#   - fixtures/old.xml -> new.xml: every kind of item added, removed and
#     changed in each fact; the text is expected.txt, written by hand
#     (definitions compare as C tokens: jthread's, laid out anew with a
#     comment, is no change, and jmoved's changed one prints on one line);
#   - the JSON is valid, has the documented shape, and says exactly what the
#     text says (the text rebuilt from the JSON by docs/model.md's rules);
#   - jdk17 -> jdk25 (and jdk25 -> mainline): the functions, events,
#     capabilities and errors added or removed are those python finds in the
#     two XML files, with their numbers and since versions;
#   - the same facts in other words and lines are no difference (a spec with
#     itself, tiny.xml and tiny-reworded.xml, JDK 25's spec and ours);
#   - reversed, added and removed swap;
#   - invalid specs, missing files and usage errors; valgrind.
. tests/lib.sh
F=tests/diff/fixtures
d=$(scratch diff)
S17=$SHARED_SPECS/jdk17/jvmti.xml
S25=$SHARED_SPECS/jdk25/jvmti.xml
SMAIN=$SHARED_SPECS/mainline/jvmti.xml

# ---- --abi: layouts, on a pair made from the model suite's tiny fixture ----
# abi-new.xml grows an agent-allocated struct and retypes a field (sizes and
# an offset change), moves a function to a new slot, reuses a removed
# function's slot, changes an event callback's signature, moves an event's
# slot and inserts a capability bit; abi-expected.txt is written by hand.
"$JVMTIGEN" diff --abi $F/abi-old.xml $F/abi-new.xml >"$d/abi.txt" 2>"$d/abi.err"
status=$?
if [ "$status" -eq 0 ] && [ ! -s "$d/abi.err" ] && diff -u $F/abi-expected.txt "$d/abi.txt" >"$d/abi.diff"; then
    ok "diff --abi: abi-old.xml -> abi-new.xml prints abi-expected.txt ($(grep -c '^[-+~] ' $F/abi-expected.txt) lines of changes)"
else
    not_ok "diff --abi: abi-old.xml -> abi-new.xml prints abi-expected.txt (status $status)"
    head -30 "$d/abi.diff" "$d/abi.err"
fi
"$JVMTIGEN" diff --abi --json $F/abi-old.xml $F/abi-new.xml >"$d/abi.json"
abi_json_shape() {
    python3 - "$d/abi.json" <<'EOF' && python3 tests/diff/json2text.py "$d/abi.json" "$d/abi.txt"
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["format", "old", "new", "differences", "structs", "function_slots",
                   "event_slots", "capability_bits"], list(d)
assert d["differences"] == 10, d["differences"]  # 3 structs, 3 functions, 2 events, 2 bits
spot = next(e for e in d["structs"]["changed"] if e["id"] == "jvmtiSpot")
assert spot["allocated_by"] == "agent", spot
EOF
}
with_tool python3 check "diff --abi: --json has the ABI kinds and rebuilds the same text (json2text.py)" abi_json_shape
check "diff --abi: a spec against itself: no differences" \
    bash -c "'$JVMTIGEN' diff --abi spec/jvmti.xml spec/jvmti.xml | tail -1 | grep -qx 'no differences'"
if need_refs "diff --abi: jdk17 -> jdk25 -> mainline" jdk17 jdk25 mainline; then
    "$JVMTIGEN" diff --abi --json "$S17" "$S25" >"$d/abi1725.json"
    "$JVMTIGEN" diff --abi --json "$S25" "$SMAIN" >"$d/abi25m.json"
    with_tool python3 check "diff --abi: jdk17 -> jdk25 and jdk25 -> mainline: the slots, bits and sizes the XML gives" python3 - "$d/abi1725.json" "$d/abi25m.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
def ids(doc, kind, part): return {e["id"]: {k: v for k, v in e.items() if k != "id"} for e in doc[kind][part]}
# JDK 21's virtual thread functions in reserved slots 118 and 119, JDK 25's
# ClearAllFramePops in reserved 67; events 87 and 88 grow the callbacks by two
# pointers; can_support_virtual_threads is bit 44; nothing moves.
assert ids(a, "function_slots", "added") == {"ClearAllFramePops": {"slot": 67, "other": None},
    "SuspendAllVirtualThreads": {"slot": 118, "other": None},
    "ResumeAllVirtualThreads": {"slot": 119, "other": None}}, a["function_slots"]
assert ids(a, "event_slots", "added") == {"VirtualThreadStart": {"slot": 87, "other": None},
    "VirtualThreadEnd": {"slot": 88, "other": None}}, a["event_slots"]
assert ids(a, "capability_bits", "added") == {"can_support_virtual_threads": {"bit": 44}}
assert [(e["id"], [(c["what"], c["old"], c["new"]) for c in e["changes"]]) for e in a["structs"]["changed"]] == \
    [("jvmtiEventCallbacks", [("lp64.size", 37 * 8, 39 * 8), ("ilp32.size", 37 * 4, 39 * 4)])], a["structs"]
assert not any(a[k]["removed"] or a[k]["changed"] for k in ("function_slots", "event_slots", "capability_bits"))
# mainline adds one capability bit, 45; no struct, slot or callback changes.
assert b["differences"] == 1 and ids(b, "capability_bits", "added") == {"can_support_value_objects": {"bit": 45}}, b
EOF
fi

# ---- the fixture, by hand ----
"$JVMTIGEN" diff $F/old.xml $F/new.xml >"$d/fixture.txt" 2>"$d/fixture.err"
status=$?
if [ "$status" -eq 0 ] && diff -u $F/expected.txt "$d/fixture.txt" >"$d/fixture.diff"; then
    ok "diff: old.xml -> new.xml prints expected.txt ($(grep -c '^[-+~] ' $F/expected.txt) lines of changes)"
else
    not_ok "diff: old.xml -> new.xml differs from expected.txt (status $status)"
    head -30 "$d/fixture.diff" "$d/fixture.err"
fi
[ ! -s "$d/fixture.err" ] && ok "diff: nothing on stderr" || not_ok "diff: something on stderr"

"$JVMTIGEN" diff --json $F/old.xml $F/new.xml >"$d/fixture.json"
with_tool python3 check "diff: --json is valid JSON" python3 -m json.tool "$d/fixture.json"

# The JSON's shape, and a few of its facts written out by hand.
with_tool python3 check "diff: --json has the documented shape and facts" python3 - "$d/fixture.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
kinds = ["functions", "events", "callbacks", "types", "basetypes", "capabilities",
         "errors", "constant_groups", "constants"]
assert list(doc) == ["format", "old", "new", "differences"] + kinds, list(doc)
assert doc["format"] == 1
assert doc["old"] == {"file": "tests/diff/fixtures/old.xml", "version": "1.1.0"}, doc["old"]
assert doc["new"] == {"file": "tests/diff/fixtures/new.xml", "version": "2.0.0"}, doc["new"]
total = 0
for k in kinds:
    assert list(doc[k]) == ["added", "removed", "changed"], (k, list(doc[k]))
    for e in doc[k]["changed"]:
        assert list(e) == ["id", "changes"], e
        for c in e["changes"]:
            assert list(c) == ["what", "old", "new", "added", "removed"], c
            if c["added"] is None:
                assert c["removed"] is None and c["old"] != c["new"], c
            else:
                assert isinstance(c["old"], list) and isinstance(c["new"], list), c
                assert c["added"] == [x for x in c["new"] if x not in c["old"]], c
                assert c["removed"] == [x for x in c["old"] if x not in c["new"]], c
    total += sum(len(doc[k][x]) for x in ("added", "removed", "changed"))
assert doc["differences"] == total == 34, (doc["differences"], total)
def item(kind, part, id):
    return next(e for e in doc[kind][part] if e["id"] == id)
assert item("functions", "added", "Fresh") == {"id": "Fresh", "num": 11, "since": "2.0"}
assert item("constants", "removed", "JVMTI_OLD_THING") == \
    {"id": "JVMTI_OLD_THING", "num": "1", "group": "jvmtiOld"}
assert item("types", "added", "jvmtiFresh") == {"id": "jvmtiFresh", "union": False, "since": "2.0"}
assert item("capabilities", "added", "can_hear") == {"id": "can_hear", "position": 1, "since": "2.0"}
look = {c["what"]: c for c in item("functions", "changed", "Look")["changes"]}
assert look["num"] == {"what": "num", "old": 7, "new": 14, "added": None, "removed": None}
assert look["phase"]["old"] == "onload" and look["phase"]["new"] == "live"
assert look["callbacksafe"]["old"] is True and look["callbacksafe"]["new"] is False
assert look["capabilities.required"] == {"what": "capabilities.required", "old": ["can_look"],
    "new": ["can_hear"], "added": ["can_hear"], "removed": ["can_look"]}
assert look["parameters.depth.min"]["old"] == -1 and look["parameters.depth.min"]["new"] == 0
hush = {c["what"]: c for c in item("functions", "changed", "Hush")["changes"]}
assert hush["impl"]["old"] == "notrace" and hush["impl"]["new"] is None
assert "Stay" not in [e["id"] for e in doc["functions"]["changed"]]
EOF

# The text, rebuilt from the JSON by the rules docs/model.md gives, must be the
# text jvmtigen printed: both forms carry the same facts.
with_tool python3 check "diff: the JSON and the text say the same (fixture)" python3 tests/diff/json2text.py "$d/fixture.json" "$d/fixture.txt"
"$JVMTIGEN" diff $F/new.xml $F/old.xml >"$d/reverse.txt"
with_tool python3 check "diff: reversed, what was added is removed and the other way round" python3 - $F/expected.txt "$d/reverse.txt" <<'EOF'
import sys, re
def items(path):
    out = set()
    for line in open(path):
        m = re.match(r"([-+]) (.*?) (\S+)(?: \(|$)", line.rstrip("\n"))
        if m:
            out.add((m.group(1), m.group(2), m.group(3)))
    return out
fwd, rev = items(sys.argv[1]), items(sys.argv[2])
swap = {("+" if s == "-" else "-", k, i) for s, k, i in fwd}
assert fwd and rev == swap, (sorted(rev ^ swap))
EOF

# ---- no difference where the facts are the same ----
no_diff() { # DESC OLD NEW
    local out
    out=$("$JVMTIGEN" diff "$2" "$3" 2>&1)
    if [ $? -eq 0 ] && [ "$(tail -n +3 <<<"$out")" = $'\nno differences' ]; then ok "diff: $1"
    else not_ok "diff: $1"; head -10 <<<"$out"; fi
}
no_diff "a spec against itself: no differences" $F/old.xml $F/old.xml
no_diff "tiny.xml and tiny-reworded.xml (same facts, other prose and lines): no differences" \
    tests/model/fixtures/tiny.xml tests/model/fixtures/tiny-reworded.xml
if [ -f "$S25" ]; then
    no_diff "JDK 25's spec and spec/jvmti.xml: no differences" "$S25" spec/jvmti.xml
fi

# ---- the JDK's specs, against their XML read by python ----
if [ ! -f "$S17" ] || [ ! -f "$S25" ]; then
    skip "diff: the reference specs are not in $SHARED_SPECS"
else
    "$JVMTIGEN" diff "$S17" "$S25" >"$d/17-25.txt"
    with_tool python3 check "diff: jdk17 -> jdk25 names every function, event, capability and error added or removed, with num and since" \
        python3 tests/diff/xml_added.py "$S17" "$S25" "$d/17-25.txt"
    "$JVMTIGEN" diff --json "$S17" "$S25" >"$d/17-25.json"
    with_tool python3 check "diff: the JSON and the text say the same (jdk17 -> jdk25)" \
        python3 tests/diff/json2text.py "$d/17-25.json" "$d/17-25.txt"
    summary=$(grep -E '^[a-z_]+: ' "$d/17-25.txt" | tr '\n' ';')
    echo "# jdk17 -> jdk25: $summary"
    if [ -f "$SMAIN" ]; then
        "$JVMTIGEN" diff "$S25" "$SMAIN" >"$d/25-main.txt"
        with_tool python3 check "diff: jdk25 -> mainline likewise" python3 tests/diff/xml_added.py "$S25" "$SMAIN" "$d/25-main.txt"
    fi
fi

# ---- errors ----
status_is() { # DESC EXPECTED_STATUS STDERR_PATTERN ARGS...
    local desc=$1 want=$2 pattern=$3; shift 3
    local out
    out=$("$JVMTIGEN" "$@" 2>"$d/err")
    local status=$?
    if [ "$status" -eq "$want" ] && grep -q -- "$pattern" "$d/err" && [ -z "$out" ]; then ok "diff: $desc"
    else not_ok "diff: $desc (status $status, wanted $want)"; head -5 "$d/err"; fi
}
status_is "an invalid NEW spec is exit 1 with its FILE:LINE errors, nothing on stdout" 1 \
    "^tests/checks/fixtures/bad_id_function.xml:[0-9]*: error: " diff $F/old.xml tests/checks/fixtures/bad_id_function.xml
status_is "an invalid OLD spec too, and NEW is still checked" 1 \
    "^tests/checks/fixtures/bad_id_event.xml:[0-9]*: error: " diff tests/checks/fixtures/bad_id_event.xml $F/new.xml
status_is "both invalid: the errors of both" 1 "bad_id_function.xml:[0-9]*: error: " \
    diff tests/checks/fixtures/bad_id_event.xml tests/checks/fixtures/bad_id_function.xml
grep -q "bad_id_event.xml:[0-9]*: error: " "$d/err" && ok "diff: ... and of the first one" ||
    not_ok "diff: both invalid, the first one's errors are missing"
status_is "a missing spec is exit 3" 3 "^nothere.xml: error: cannot read" diff $F/old.xml nothere.xml
status_is "one spec is a usage error" 2 "diff needs two specs" diff $F/old.xml
status_is "three specs are a usage error" 2 "'$F/old.xml' is a third" diff $F/old.xml $F/new.xml $F/old.xml
status_is "an option of generate is a usage error" 2 "diff takes only --abi, --json and -q" diff -o x $F/old.xml $F/new.xml
status_is "--json outside diff is a usage error" 2 "unknown option '--json'" model --json $F/old.xml

# ---- valgrind ----
if [ -n "${SANITIZE:-}" ]; then
    skip "diff: valgrind (a sanitizer build)"
elif need_tool "diff: valgrind" valgrind; then
    if valgrind -q "$JVMTIGEN" --version >/dev/null 2>&1; then
        valgrind_check "diff" "the fixture under valgrind: no error, no leak" 0 diff $F/old.xml $F/new.xml
        valgrind_check "diff" "--json the fixture under valgrind" 0 diff --json $F/old.xml $F/new.xml
        [ -f "$S25" ] && valgrind_check "diff" "jdk17 -> jdk25 --json under valgrind" 0 diff --json "$S17" "$S25"
        valgrind_check "diff" "an invalid spec under valgrind" 1 diff $F/old.xml tests/checks/fixtures/bad_id_function.xml
    else
        skip "diff: valgrind cannot run $JVMTIGEN"
    fi
fi
