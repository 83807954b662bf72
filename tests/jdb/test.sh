#!/usr/bin/env bash
# OpenJDK 17's own libjdwp.so, unmodified, in bin/jvmti-host built from the
# JDK 17 spec (a scratch build: the host and the placeholders of libjvm.so
# and libjava.so, host/placeholders), debugged by JDK 17's jdb through
# tests/jdb_session.py: threads, classes, cont; the transcript equal to
# host.expected once object ids are masked, the VM listening on the port
# it chose, exiting 0 with nothing on stderr. Once with -agentpath, once
# with -agentlib:jdwp (found in JAVA_HOME's lib), once wrapped by the
# checker built from the same spec (no finding). Built with SANITIZE when
# make check passes it, so the sanitized passes (ASan/UBSan, TSan) run the
# same sessions.
# Skips without ../shared/spec/jdk17, JDK 17's jdb or python3.
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

o=$(scratch jdb-jdk17)
dirs=(BINDIR="$o/bin" LIBDIR="$o/lib" OUT="$o/out" RTDIR="$o/rt" CHECKDIR="$o/check"
      LINKED_BY="$o/linked-by" SPEC="$SHARED_SPECS/jdk17/jvmti.xml"
      JVMTIGEN_FLAGS="--no-docs --templates $PWD/templates --jvmti-version=17")
if ! make -s -j2 CC="$CC" SANITIZE="${SANITIZE:-}" "${dirs[@]}" "$o/bin/jvmti-host" \
    "$o/lib/jvmti-host/libjvm.so" "$o/lib/jvmti-host/libjava.so" "$o/lib/libjvmticheck.so" >"$o.log" 2>&1; then
    not_ok "jdb: jvmti-host and libjvmticheck.so build from the JDK 17 spec"
    grep -E 'error|Error' "$o.log" | head -20
    exit 0
fi
ok "jdb: jvmti-host and libjvmticheck.so build from the JDK 17 spec${SANITIZE:+ (SANITIZE=$SANITIZE)}"

opts=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0
# Under ASan: what libjdwp itself never gives back (lsan.supp); under TSan:
# libjdwp closing its socket under its own reader (tsan.supp). Unreported.
lsan=suppressions=$PWD/$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}
tsan=suppressions=$PWD/$here/tsan.supp:print_suppressions=0${TSAN_OPTIONS:+:$TSAN_OPTIONS}
# session LABEL AGENT-OPTION [STDERR]: the session, its transcript and the
# VM's end (its stderr empty, or the one line STDERR, an extended regex).
session() {
    local label=$1 d=$o/$1 err=${3:-}
    mkdir -p "$d"
    JAVA_HOME=$jdk LSAN_OPTIONS=$lsan TSAN_OPTIONS=$tsan python3 tests/jdb_session.py --session $here/host.session "$jdk/bin/jdb" $here "$d" \
        "$o/bin/jvmti-host" "$2" Main >"$d/transcript" 2>"$d/session.err"
    local rc=$?
    check "jdb: $label: every answer came" test "$rc" -eq 0
    check "jdb: $label: threads, classes and cont as expected (object ids masked)" \
        diff $here/host.expected <(sed -E 's/^\((java\.lang\.Thread)\)[0-9]+ /(\1)ID /' "$d/transcript")
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
session agentpath "-agentpath:$jdk/lib/libjdwp.so=$opts"
session agentlib "-agentlib:jdwp=$opts"
# Through the checker built from the same spec: the same transcript and no
# finding; with leaks=results, what JDWP keeps to the end is what
# check/jdwp.supp names (as in HotSpot, tests/jvmticheck).
session jvmticheck "-agentpath:$o/lib/libjvmticheck.so=leaks=results,suppressions=check/jdwp.supp,agent=$jdk/lib/libjdwp.so=$opts" \
    "jvmticheck: 0 findings, 0 distinct, [0-9]+ suppressed"
exit 0
