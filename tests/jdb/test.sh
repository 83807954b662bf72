#!/usr/bin/env bash
# OpenJDK 17's own libjdwp.so, unmodified, in bin/jvmti-host built from the
# JDK 17 spec (the build jdks makes too, shared: the host and the
# placeholders of libjvm.so and libjava.so, host/placeholders), debugged by JDK 17's jdb through
# tests/jdb_session.py. Over the host's built-in program: threads, classes,
# cont (host.session; with -agentpath, with -agentlib:jdwp found in
# JAVA_HOME's lib, and wrapped by the checker built from the same spec).
# Over a real program, Steps.java compiled with javac -g and interpreted
# (-cp), with a worker thread of its own: threads, where all, classes (the
# program's), breakpoints, where, locals, print, step, next, step up,
# suspend, where and resume of the worker, suspend, resume, clear
# (program.session; alone and through the checker), and the same session
# in HotSpot 17, differing only in hotspot.diff's lines. Each transcript
# equal to its .expected once object ids are masked, the VM listening on
# the port it chose, exiting 0 with nothing on stderr (the checker: its
# summary, no finding). Built with SANITIZE when make check passes it, so
# the sanitized passes (ASan/UBSan, TSan) run the same sessions on the host.
# Skips without ../shared/spec/jdk17, JDK 17's jdb (javac for Steps) or python3.
. tests/lib.sh
CC=${CC:-cc}
here=tests/jdb

# ---- JDK 25: its own libjdwp.so and jdb, in a host built from the JDK 25
# spec against that JDK's jni.h (IsVirtualThread, can_support_virtual_threads);
# threads, classes, cont to a clean exit, once, with -agentpath. Optional:
# where no JDK 25 is installed (CI has Debian's 17 only) a plain skip saying
# so, also under STRICT=1. A function, so that the JDK 17 part's early exits
# do not depend on it.
jdk25_session() {
    local jdk=${JDK25_HOME:-$(ls -d /usr/lib/jvm/*25* 2>/dev/null | head -1)}
    if ! grep -qs '^JAVA_VERSION="25[."]' "$jdk/release" || [ ! -x "$jdk/bin/jdb" ] ||
        [ ! -f "$jdk/lib/libjdwp.so" ] || [ ! -f "$jdk/include/jni.h" ]; then
        skip "jdb: jdk25: no JDK 25 with jdb, libjdwp.so and jni.h on this machine (JDK25_HOME, or /usr/lib/jvm/*25*)"
        return 0
    fi
    need_refs "jdb: jdk25: the JDK 25 host" jdk25 || return 0
    need_tool "jdb: jdk25: the session against jvmti-host" python3 || return 0
    local o d
    o=$(scratch jdb-jdk25)
    d=$o/session
    if ! make -s -j2 CC="$CC" SANITIZE="${SANITIZE:-}" JNI_INCLUDE="$jdk/include" BINDIR="$o/bin" \
        LIBDIR="$o/lib" OUT="$o/out" RTDIR="$o/rt" CHECKDIR="$o/check" LINKED_BY="$o/linked-by" \
        SPEC="$SHARED_SPECS/jdk25/jvmti.xml" JVMTIGEN_FLAGS="--no-docs --templates $PWD/templates --jvmti-version=25" \
        "$o/bin/jvmti-host" "$o/lib/jvmti-host/libjvm.so" "$o/lib/jvmti-host/libjava.so" >"$o.log" 2>&1; then
        not_ok "jdb: jdk25: jvmti-host builds from the JDK 25 spec with $jdk/include"
        grep -E 'error|Error' "$o.log" | head -20
        return 0
    fi
    ok "jdb: jdk25: jvmti-host builds from the JDK 25 spec with $jdk/include${SANITIZE:+ (SANITIZE=$SANITIZE)}"
    mkdir -p "$d"
    JAVA_HOME=$jdk LSAN_OPTIONS=suppressions=$PWD/$here/lsan.supp:print_suppressions=0 \
        TSAN_OPTIONS=suppressions=$PWD/$here/tsan.supp:print_suppressions=0 \
        python3 tests/jdb_session.py --session $here/host.session "$jdk/bin/jdb" $here "$d" "$o/bin/jvmti-host" \
        "-agentpath:$jdk/lib/libjdwp.so=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0" Main \
        >"$d/transcript" 2>"$d/session.err"
    local rc=$?
    check "jdb: jdk25: every answer came (cont resumes: no caller blocked in ResumeAllVirtualThreads)" \
        test "$rc" -eq 0
    check "jdb: jdk25: threads, classes and cont as jdk25.expected says (object ids masked)" \
        diff $here/jdk25.expected <(sed -E 's/^\((java\.lang\.Thread)\)[0-9]+ /(\1)ID /' "$d/transcript")
    check "jdb: jdk25: the VM listened on the port it chose, exited 0, nothing on stderr" \
        bash -c 'grep -Eqx "Listening for transport dt_socket at address: [0-9]+" "$1/vm.out" &&
                 test "$(cat "$1/vm.status")" = 0 && test ! -s "$1/vm.err"' _ "$d"
    [ -s "$d/vm.err" ] && head -5 "$d/vm.err"
    return 0
}
jdk25_session

need_refs "jdb: the JDK 17 host" jdk17 || exit 0
jdk=${JDK17_HOME:-$(ls -d /usr/lib/jvm/java-17-openjdk-* 2>/dev/null | head -1)}
if [ ! -x "$jdk/bin/jdb" ] || [ ! -f "$jdk/lib/libjdwp.so" ]; then
    lack "jdb: the sessions against jvmti-host" "JDK 17's jdb and libjdwp.so" "Debian: openjdk-17-jdk-headless"
    exit 0
fi
need_tool "jdb: the sessions against jvmti-host" python3 || exit 0

# The host and the checker (with the core and the placeholders) from the
# JDK 17 spec: the build the jdks suite makes too, shared with it
# (shared_build in tests/lib.sh); the sessions' files in a scratch folder.
o=$(scratch jdb-jdk17)
if ! shared_build jdk17 "$SHARED_SPECS/jdk17/jvmti.xml" "--no-docs --templates $PWD/templates --jvmti-version=17" runtime; then
    not_ok "jdb: jvmti-host and libjvmticheck.so build from the JDK 17 spec"
    grep -E 'error|Error' "$SHARED_BUILD.log" | head -20
    exit 0
fi
ok "jdb: jvmti-host and libjvmticheck.so build from the JDK 17 spec${SANITIZE:+ (SANITIZE=$SANITIZE)}"

opts=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0
# Under ASan: what libjdwp itself never gives back (lsan.supp); under TSan:
# libjdwp closing its socket under its own reader (tsan.supp). Unreported.
lsan=suppressions=$PWD/$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}
tsan=suppressions=$PWD/$here/tsan.supp:print_suppressions=0${TSAN_OPTIONS:+:$TSAN_OPTIONS}
# Object ids masked as ID: a thread's in `threads` (its columns, as wide as
# the longest name and id there, squeezed to one space) and an object's
# (id=N) in print and locals.
mask() {
    sed -E '/^\(/{s/^\(([^)]*)\)[0-9]+ +/(\1)ID /; s/  +/ /g}; s/([(, ]id=)[0-9]+\)/\1ID)/g' "$1"
}
# The program's threads and classes: of threads, where all and classes,
# only these are compared (HotSpot's system threads and JDK classes are
# not the program's; tests/jdb_session.py --only).
program_only=(--only main,worker:Steps)
# session LABEL NAME STDERR VM...: the session NAME.session against VM...,
# its transcript (object ids masked) equal to NAME.expected, and the VM's
# end (its stderr empty, or the one line STDERR, an extended regex).
session() {
    local label=$1 name=$2 err=$3 d=$o/$1
    shift 3
    mkdir -p "$d"
    local only=()
    [ "$name" = program ] && only=("${program_only[@]}")
    JAVA_HOME=$jdk LSAN_OPTIONS=$lsan TSAN_OPTIONS=$tsan python3 tests/jdb_session.py --session $here/$name.session \
        "${only[@]}" "$jdk/bin/jdb" $here "$d" "$@" >"$d/transcript.raw" 2>"$d/session.err"
    local rc=$?
    mask "$d/transcript.raw" >"$d/transcript"
    check "jdb: $label: every answer came" test "$rc" -eq 0
    check "jdb: $label: the transcript is $name.expected (object ids masked)" diff $here/$name.expected "$d/transcript"
    local says="nothing on stderr"
    [ -n "$err" ] && says="on stderr only the summary: $err"
    check "jdb: $label: the VM listened on the port it chose, exited 0, $says" \
        bash -c 'grep -Eqx "Listening for transport dt_socket at address: [0-9]+" "$1" &&
                 test "$(cat "$2")" = 0 &&
                 if [ -n "$4" ]; then test "$(wc -l <"$3")" -eq 1 && grep -Eqx "$4" "$3"; else test ! -s "$3"; fi' \
        _ "$d/vm.out" "$d/vm.status" "$d/vm.err" "$err"
    [ -s "$d/vm.err" ] && head -5 "$d/vm.err"
    return 0
}
host=$SHARED_BUILD/bin/jvmti-host
checked="-agentpath:$SHARED_BUILD/lib/libjvmticheck.so=leaks=results,suppressions=check/jdwp.supp,agent=$jdk/lib/libjdwp.so=$opts"
findings="jvmticheck: 0 findings, 0 distinct, [0-9]+ suppressed"
# The host's built-in program (no -cp): threads, classes, cont.
session agentpath host "" "$host" "-agentpath:$jdk/lib/libjdwp.so=$opts" Main
session agentlib host "" "$host" "-agentlib:jdwp=$opts" Main
# Through the checker built from the same spec: the same transcript and no
# finding; with leaks=results, what JDWP keeps to the end is what
# check/jdwp.supp names (as in HotSpot, tests/jvmticheck).
session jvmticheck host "$findings" "$host" "$checked" Main

# A real program: Steps.java, compiled with javac -g, interpreted by the
# host (-cp): threads, where all, classes, breakpoints at a line and in a
# method, where, locals, print, step, next, step up, suspend, where and
# resume of the worker thread, suspend, resume, clear, resume to the end.
# Alone and through the checker.
if [ ! -x "$jdk/bin/javac" ] || ! "$jdk/bin/javac" -g -d "$o/classes" $here/Steps.java 2>"$o/javac.err"; then
    lack "jdb: the sessions over Steps.java" "JDK 17's javac" "Debian: openjdk-17-jdk-headless"
    exit 0
fi
session program program "" "$host" "-agentlib:jdwp=$opts" -cp "$o/classes" Steps
session program-jvmticheck program "$findings" "$host" "$checked" -cp "$o/classes" Steps
# The same session in HotSpot 17: its transcript differs from the host's in
# the lines hotspot.diff holds, each explained in
# tests/conformance/differences.md ("Under jdb"). HotSpot is not what a
# sanitized pass tests: the plain pass only.
if [ -z "${SANITIZE:-}" ]; then
    d=$o/hotspot
    mkdir -p "$d"
    python3 tests/jdb_session.py --session $here/program.session "${program_only[@]}" "$jdk/bin/jdb" $here "$d" \
        "$jdk/bin/java" "-agentlib:jdwp=$opts" -cp "$o/classes" Steps >"$d/transcript.raw" 2>"$d/session.err"
    rc=$?
    mask "$d/transcript.raw" >"$d/transcript"
    check "jdb: HotSpot 17: every answer came, the VM exited 0" test "$rc" -eq 0 -a "$(cat "$d/vm.status" 2>/dev/null)" = 0
    check "jdb: HotSpot 17: the same session differs from the host's in hotspot.diff's lines only" \
        diff $here/hotspot.diff <(diff $here/program.expected "$d/transcript")
fi
exit 0
