#!/usr/bin/env bash
# Conformance against a real JVM: the agent (agent.c + cases generated from
# the model) runs in HotSpot 17 and in bin/jvmti-host; every case on which
# they differ must be documented in tests/conformance/differences.md, and at
# least 300 must agree. Skipped where no JDK 17 java is installed.
. tests/lib.sh

[ -n "${JVMTI_HOST:-}" ] && [ -x "$JVMTI_HOST" ] ||
    { skip "conformance: JVMTI_HOST not built (run through make check)"; exit 0; }
# The battery is made from what JDK 17's spec and ours both state.
need_refs "conformance: HotSpot 17 against jvmti-host" jdk17 || exit 0
d=$(scratch conformance)
here=tests/conformance
MIN=300

# Few timing calls here: `make conformance` and `make bench` time for real.
out=$(CONFORMANCE_ITERS=${CONFORMANCE_ITERS:-100000} SHARED_SPECS="$SHARED_SPECS" SPEC="${RT_SPEC:-spec/jvmti.xml}" \
      $here/run "$d" --min $MIN 2>&1)
status=$?
if [ $status -eq 4 ]; then
    skip "conformance: $(tail -1 <<<"$out")"
    exit 0
fi
check "conformance: the agent builds and HotSpot and jvmti-host both run it" test $status -ne 3
[ $status -eq 3 ] && { printf '%s\n' "$out" | head -40; exit 0; }
summary=$(grep '^conformance: [0-9]* agree' <<<"$out")
echo "# $summary"
grep '^timing:' <<<"$out" | sed 's/^/# /'
check "conformance: both VMs got through every stage" \
    grep -q '^stage.dead done' "$d/hotspot.out" "$d/host.out"
check "conformance: ... and skipped no case" bash -c '! grep -q " SKIP(" "$1" "$2"' _ \
    "$d/hotspot.out" "$d/host.out"
check "conformance: every difference is documented in differences.md" \
    bash -c '! grep "^undocumented:" <<<"$1"' _ "$out"
check "conformance: every row of differences.md still matches a difference" \
    bash -c '! grep "^stale:" <<<"$1"' _ "$out"
agree=$(sed -n 's/^conformance: \([0-9]*\) agree.*/\1/p' <<<"$summary")
check "conformance: at least $MIN cases agree (${agree:-none})" test "${agree:-0}" -ge $MIN
check "conformance: compare.py's verdict" test $status -eq 0

# The generator works from both models: what the oracle's spec lacks is out.
check "conformance: functions newer than JDK 17 are left out of the battery" \
    grep -q 'SuspendAllVirtualThreads: not in the oracle' "$d/cases.c"
check "conformance: a NULL case per checked pointer, e.g. GetTag's tag_ptr" \
    grep -q '"null.GetTag.tag_ptr"' "$d/cases.c"

# The comparison can fail: one changed answer, one stale row, too few.
sed 's/^monitor.exit-extra .*/monitor.exit-extra JVMTI_ERROR_NONE/' "$d/host.out" >"$d/changed.out"
python3 $here/compare.py "$d/hotspot.out" "$d/changed.out" $here/differences.md >"$d/changed.txt"
check "conformance: compare.py fails on a changed answer, naming it" \
    bash -c 'test "$1" -eq 1 && grep -q "^undocumented: monitor.exit-extra" "$2"' _ $? "$d/changed.txt"
cp $here/differences.md "$d/extra.md"
echo '| `no.such.case` | `A` | `B` | a row nothing matches |' >>"$d/extra.md"
python3 $here/compare.py "$d/hotspot.out" "$d/host.out" "$d/extra.md" >"$d/extra.txt"
check "conformance: compare.py fails on a stale row, naming it" \
    bash -c 'test "$1" -eq 1 && grep -q "^stale: .*no.such.case" "$2"' _ $? "$d/extra.txt"
python3 $here/compare.py "$d/hotspot.out" "$d/host.out" $here/differences.md --min 100000 >/dev/null
check "conformance: compare.py fails when too few agree" test $? -eq 1
