#!/usr/bin/env bash
# Conformance against a real JVM: the agent (agent.c + cases generated from
# the model) runs in HotSpot 17 and in bin/jvmti-host; every case on which
# they differ must be documented in tests/conformance/differences.md, and at
# least 300 must agree. Skipped where no JDK 17 java is installed.
. tests/lib.sh
# The kit's knobs are for `make conformance`; this suite is HotSpot 17 against the host.
unset JAVA VM_CMD DIFFERENCES CONFORMANCE_CRASH

[ -n "${JVMTI_HOST:-}" ] && [ -x "$JVMTI_HOST" ] ||
    { skip "conformance: JVMTI_HOST not built (run through make check)"; exit 0; }
# The battery is made from what JDK 17's spec and ours both state.
need_refs "conformance: HotSpot 17 against jvmti-host" jdk17 || exit 0
need_tool "conformance" python3 || exit 0
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
# The host's JNI makes an unstarted Thread object too (AllocObject, for
# RunAgentThread), so the unstarted.* cases run in it as well.
check "conformance: ... and skipped no case" \
    bash -c '! grep -q " SKIP(" "$1" && ! grep -q " SKIP(" "$2"' _ "$d/hotspot.out" "$d/host.out"
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

check "conformance: every function of the spec has generated cases or is listed as left out, with why" python3 -c '
import json, re, sys
fns = [f["id"] for f in json.load(open(sys.argv[1]))["functions"] if not f["hide"]]
ran = {l.split()[1].split(".")[1] for l in open(sys.argv[2]) if l.startswith("~ ")}
left = set(re.findall(r"^ \*   (\w+): ", open(sys.argv[3]).read(), re.M))
missing = [f for f in fns if f not in ran and f not in left]
print("# %d of %d functions have generated cases; without: %s" % (len(ran & set(fns)), len(fns), " ".join(sorted(set(fns) - ran))))
sys.exit(1 if missing else 0)' "$d/own.json" "$d/hotspot.out" "$d/cases.c"

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

# The report per area: the spec's categories (generated and hand-written cases).
check "conformance: the report has a line per area, e.g. Heap and Raw Monitor" \
    bash -c 'grep -Eq "^area: Heap +[0-9]+ +[0-9]+ +[0-9]+$" <<<"$1" &&
             grep -Eq "^area: Raw Monitor +[0-9]+ +0 +0$" <<<"$1"' _ "$out"
check "conformance: the areas' counts add up to the summary" python3 -c '
import re, sys
rows = [list(map(int, m.groups())) for m in re.finditer(r"^area: .*? +(\d+) +(\d+) +(\d+)$", sys.argv[1], re.M)]
s = re.search(r"^conformance: (\d+) agree, (\d+) differ \(\d+ documented\), (\d+) not comparable$", sys.argv[1], re.M)
sys.exit(not s or [sum(c) for c in zip(*rows)] != [int(g) for g in s.groups()])' "$out"

# The kit pointed at other VMs, without a second HotSpot: JAVA is a java
# look-alike that runs the host (java-host: no Java code runs, so no
# cflh.final line, which HotSpot's Main prints), VM_CMD the host whose agent
# crashes in one generated case. The crash is that case's answer, the rest
# of the run still happens, and a "Not comparable" row is counted apart.
printf '%s\n' '| `cflh.final` | `-` | `JVMTIGEN_CONFXYP` | Not comparable: the look-alike runs no Java code. |' \
    >"$d/kit.md"
mkdir "$d/cwd" "$d/kit"
cp -p "$d"/cases.c "$d"/*.so "$d"/agent.recipe "$d"/*.class "$d/kit/" # the same agent: not built again
kit=$(cd "$d/cwd" && JAVA="$OLDPWD/$here/java-host" DIFFERENCES="$d/kit.md" CONFORMANCE_ITERS=0 \
      VM_CMD="echo ran >%CP%/vm-cmd.ran && exec $JVMTI_HOST -all-capabilities -threads:0 -heap:5 -agentpath:%AGENT% -load:%CP%/ConfMarked.class -dump-classes:%DEFINED% Main" \
      CONFORMANCE_CRASH=null.GetTag.tag_ptr SHARED_SPECS="$SHARED_SPECS" SPEC="${RT_SPEC:-spec/jvmti.xml}" \
      "$OLDPWD/$here/run" "$d/kit" 2>&1)
kit_status=$?
check "conformance: JAVA= and VM_CMD= run the kit in the VMs they name (the host twice here)" \
    bash -c 'grep -q "^stage.dead done" "$1/hotspot.out" && grep -q "^stage.dead done" "$1/host.out" &&
             ! grep -q "^cflh.final" "$1/hotspot.out" && test -f "$1/vm-cmd.ran"' _ "$d/kit"
check "conformance: a VM that dies in a case is run again without it; the case answers CRASH" \
    bash -c 'grep -q "died (status [0-9]*) in case null.GetTag.tag_ptr" <<<"$1" &&
             grep -qx "null.GetTag.tag_ptr CRASH" "$2/host.out" &&
             grep -q "^null.GetTag.tag_ptr JVMTI_ERROR_NULL_POINTER" "$2/hotspot.out"' _ "$kit" "$d/kit"
check "conformance: ... and the crash is the one undocumented difference, in its area (Heap)" \
    bash -c 'test "$(grep "^undocumented:" <<<"$1")" = "undocumented: null.GetTag.tag_ptr: HotSpot \`JVMTI_ERROR_NULL_POINTER\`, host \`CRASH\`" &&
             grep -Eq "^area: Heap +[0-9]+ +1 +0$" <<<"$1" && test "$2" -eq 1' _ "$kit" $kit_status
check "conformance: a \"Not comparable\" row counts its case apart" \
    bash -c 'grep -Eq "^conformance: [0-9]+ agree, 1 differ \(0 documented\), [0-9]+ not comparable$" <<<"$1" &&
             grep -Eq "^area: cflh +[0-9]+ +0 +1$" <<<"$1"' _ "$kit"
check "conformance: nothing written outside the output directory (no hs_err, no core)" \
    bash -c 'test -z "$(ls -A "$1")"' _ "$d/cwd"
