#!/usr/bin/env bash
# lib/libjvmticheck.so in HotSpot 17 and in jvmti-host: a deliberately
# buggy agent (buggy.c), one misuse per run, each finding line asserted
# exactly (in both VMs); warn and fatal
# modes; tracing of calls and events; the options; the JDK's own
# java.lang.instrument agent through it with no finding and the same output
# as -javaagent; JDWP under jdb; Agent_OnAttach; the conformance agent. The
# HotSpot part is skipped where no JDK 17 java is installed, and under ASan.
. tests/lib.sh

RT_SO=${RT_SO:-lib/libjvmtirt.so}
CHECK_SO=$(cd "$(dirname "$RT_SO")" && pwd)/libjvmticheck.so
[ -f "$CHECK_SO" ] || { not_ok "jvmticheck: $CHECK_SO not built"; exit 0; }
JNI_INCLUDE=$(jni_include)
jdk=$(dirname "$JNI_INCLUDE")
JAVA=$jdk/bin/java JAVAC=$jdk/bin/javac JAR=$jdk/bin/jar
here=tests/jvmticheck
d=$(scratch jvmticheck)
"${CC:-cc}" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -g -shared -fPIC \
    -I"$JNI_INCLUDE" -I"$JNI_INCLUDE/linux" -o "$d/libbuggy.so" $here/buggy.c -pthread ||
    { not_ok "jvmticheck: buggy.c does not build"; exit 0; }
# The same agent as another library, whose lines start "other:": two
# agents in one checker.
"${CC:-cc}" -std=c11 -D_POSIX_C_SOURCE=200809L -DAGENT='"other"' -Wall -Wextra -Werror -O2 -g -shared \
    -fPIC -I"$JNI_INCLUDE" -I"$JNI_INCLUDE/linux" -o "$d/libother.so" $here/buggy.c -pthread ||
    { not_ok "jvmticheck: buggy.c does not build as libother.so"; exit 0; }

# finds NAME EXPECTED_STDERR: the run ended well and printed exactly that.
finds() {
    local name=$1 want=$2
    check "jvmticheck: $name: status 0" test "$(cat "$d/$name.status")" -eq 0
    check "jvmticheck: $name: the finding, exactly" diff <([ -z "$want" ] || printf '%s\n' "$want") "$d/$name.err"
}

# Extension functions and events (check/extensions.c) in one VM: the
# agent calls the VM's extension function through the checker and gets the
# VM's answer, exactly as without the checker; a NULL out-pointer is a
# finding; the extension event reaches the agent with its own environment;
# the info arrays are buffers the agent must deallocate.
# extensions VM FUNCTION_ID PARAM EVENT_ID RUNNER...: RUNNER NAME
# CHECKER_OPTIONS AGENT_OPTIONS runs buggy (with the checker when
# CHECKER_OPTIONS is not "-") into $d/NAME.{out,err,status}.
extensions() {
    local vm=$1 fn=$2 param=$3 ev=$4
    shift 4
    "$@" "$vm-ext-plain" - ext-call
    "$@" "$vm-ext-call" "" ext-call
    check "jvmticheck: $vm: an extension function answers through the checker ($fn)" \
        grep -qx "buggy: $fn returned 0, value [0-9]*" "$d/$vm-ext-plain.out"
    check "jvmticheck: $vm: ... the same answer as without the checker, no finding" \
        bash -c 'diff "$1" "$2" && test ! -s "$3"' _ "$d/$vm-ext-plain.out" "$d/$vm-ext-call.out" "$d/$vm-ext-call.err"
    "$@" "$vm-ext-trace" "trace=$fn," ext-call
    check "jvmticheck: $vm: trace=: a selected extension function's call is one line, with what it stored" \
        grep -Eqx "jvmti: \\[env 0x[0-9a-f]+\\] $fn\\($param=0x[0-9a-f]+\\) = JVMTI_ERROR_NONE; \\*$param=[0-9a-z]+ \\([0-9]+ ns\\)" "$d/$vm-ext-trace.err"
    "$@" "$vm-ext-null" "" ext-null
    finds "$vm-ext-null" "jvmticheck: $fn: $param must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_ext_null (libbuggy.so)"
    check "jvmticheck: $vm: the extension function's NULL out-pointer: warn mode forwards it (the VM's 100)" \
        grep -qx "buggy: $fn(NULL) returned 100" "$d/$vm-ext-null.out"
    "$@" "$vm-ext-event" "" ext-event
    check "jvmticheck: $vm: the extension event $ev reaches the agent with its own environment" \
        bash -c 'grep -qx "buggy: SetExtensionEventCallback($2) returned 0" "$1" &&
                 grep -qx "buggy: $2 came with its own environment" "$1"' _ "$d/$vm-ext-event.out" "$ev"
    finds "$vm-ext-event" ""
    "$@" "$vm-ext-leak" "leaks=results," ext-leak
    finds "$vm-ext-leak" "jvmticheck: GetExtensionFunctions: 5 buffers never deallocated (memory leak)"
}

# Two agents, each through its own -agentpath of the checker (one copy of
# the library): each has its own options (leaks=results for the first
# only), environments and callbacks (its VMInit, its own environment), its
# own Agent_OnUnload once, and each finding names its agent.
# two_agents VM LAUNCHER...: LAUNCHER runs the VM with the arguments given.
two_agents() {
    local vm=$1
    shift
    "$@" -agentpath:"$CHECK_SO=leaks=results,agent=$d/libbuggy.so=leak" \
        -agentpath:"$CHECK_SO=agent=$d/libother.so=null" >"$d/$vm-two.out" 2>"$d/$vm-two.err"
    echo $? >"$d/$vm-two.status"
    finds "$vm-two" "jvmticheck: [libother.so] GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libother.so)
jvmticheck: [libbuggy.so] GetSystemProperty: 2 buffers never deallocated (memory leak)"
    check "jvmticheck: $vm: two agents in one checker: each gets its VMInit, with its own environment, and unloads once" \
        diff <(printf '%s\n' 'buggy: VMInit done' 'other: GetThreadState returned 100' 'other: VMInit done' \
            'buggy: unloaded' 'other: unloaded') <(grep -v -e '^buggy: options' -e '^other: options' -e '^hello' "$d/$vm-two.out")
}

# Each misuse: a name, the checker's options, buggy's option (the misuse
# it commits) and the one line found. The same in HotSpot and in the host.
misuses=(
    "clean||clean|"
    "null||null|jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so)"
    "phase||phase|jvmticheck: GetCurrentThread: may only be called during the start or live phase, not the OnLoad phase (JVMTI_ERROR_WRONG_PHASE), called from buggy_phase (libbuggy.so)"
    "after-death||after-death|jvmticheck: GetLoadedClasses: may only be called during the live phase, not the dead phase (JVMTI_ERROR_WRONG_PHASE), called from buggy_after_death (libbuggy.so)"
    "dispose||dispose|jvmticheck: GetPhase: env must be a valid environment (used after DisposeEnvironment) (JVMTI_ERROR_INVALID_ENVIRONMENT), called from buggy_dispose (libbuggy.so)"
    "dealloc-foreign||dealloc-foreign|jvmticheck: Deallocate: mem was not allocated by JVM TI, or was already deallocated, called from buggy_dealloc_foreign (libbuggy.so)"
    "dealloc-twice||dealloc-twice|jvmticheck: Deallocate: mem was not allocated by JVM TI, or was already deallocated, called from buggy_dealloc_twice (libbuggy.so)"
    "leak|leaks=results,|leak|jvmticheck: GetSystemProperty: 2 buffers never deallocated (memory leak)"
    "leak-default||leak|"
    "capability||capability|jvmticheck: GetBytecodes: requires the capability can_get_bytecodes (JVMTI_ERROR_MUST_POSSESS_CAPABILITY), called from buggy_capability (libbuggy.so)"
    "monitor-exit||monitor-exit|jvmticheck: RawMonitorExit: monitor must be held by the calling thread (RawMonitorEnter), called from buggy_monitor_exit (libbuggy.so)"
    "monitor-destroy||monitor-destroy|jvmticheck: DestroyRawMonitor: monitor must not be destroyed while another thread holds it, called from buggy_monitor_destroy (libbuggy.so)"
    # Correct use under a race: two threads hand a raw monitor back and
    # forth with wait and notify 200,000 times; no finding (the checker's
    # record of the holder once went wrong here, and JDWP under jdb showed it).
    "monitor-pingpong||monitor-pingpong|"
    # A SetEventCallbacks the VM refuses leaves the agent's callbacks as
    # they were (VMInit still reaches it: checked below).
    "refused-callbacks||refused-callbacks|jvmticheck: SetEventCallbacks: may only be called during the OnLoad or live phase, not the start phase (JVMTI_ERROR_WRONG_PHASE), called from buggy_refused_callbacks (libbuggy.so)"
)

# In bin/jvmti-host (any build: a sanitized host loads the checker built
# with the same sanitizer, the way java cannot).
if [ -n "${JVMTI_HOST:-}" ] && [ -x "$JVMTI_HOST" ]; then
    for m in "${misuses[@]}"; do
        IFS='|' read -r name copts aopts want <<<"$m"
        "$JVMTI_HOST" -agentpath:"$CHECK_SO=${copts}agent=$d/libbuggy.so=$aopts" Hello \
            >"$d/host-$name.out" 2>"$d/host-$name.err"
        echo $? >"$d/host-$name.status"
        finds "host-$name" "$want"
        check "jvmticheck: host-$name: the agent ran to its end" \
            bash -c 'grep -qx "buggy: VMInit done" "$1" && grep -qx "buggy: unloaded" "$1"' _ "$d/host-$name.out"
    done
    host_run() {
        local name=$1 copts=$2 aopts=$3
        if [ "$copts" = - ]; then
            "$JVMTI_HOST" -agentpath:"$d/libbuggy.so=$aopts" Hello
        else
            "$JVMTI_HOST" -agentpath:"$CHECK_SO=${copts}agent=$d/libbuggy.so=$aopts" Hello
        fi >"$d/$name.out" 2>"$d/$name.err"
        echo $? >"$d/$name.status"
    }
    extensions host jvmtigen.host.functions.GetEnvironmentVersion version_ptr \
        jvmtigen.host.events.MainReturned host_run
    host_launch() { "$JVMTI_HOST" "$@" Hello; }
    two_agents host host_launch
else
    skip "jvmticheck: the buggy agent in the host needs JVMTI_HOST (run through make check)"
fi

if [ ! -x "$JAVA" ] || [ ! -x "$JAVAC" ] || [ ! -x "$JAR" ] ||
    ! "$JAVA" -version 2>&1 | grep -q 'version "17[."]'; then
    skip "jvmticheck: no JDK 17 java, javac and jar in $jdk (apt-get install openjdk-17-jdk-headless)"
    exit 0
fi
# The library is built with the sanitizer of the build; java is not, and a
# sanitizer's runtime must come first in a process (the host runs above).
if [ -n "${SANITIZE:-}" ]; then
    skip "jvmticheck: in HotSpot: a $SANITIZE build of libjvmticheck.so cannot be loaded into java, which is not built with it"
    exit 0
fi
"$JAVAC" -d "$d" $here/Hello.java $here/Unload.java $here/Premain.java &&
    (cd "$d" && "$JAR" cfm premain.jar "$OLDPWD/$here/premain.mf" Premain.class 'Premain$1.class') ||
    { not_ok "jvmticheck: the Java classes do not build"; exit 0; }

# run NAME CHECKER_OPTIONS AGENT_OPTIONS: java with buggy wrapped; stdout in
# $d/NAME.out, stderr in $d/NAME.err, the status in $d/NAME.status.
run() {
    local name=$1 copts=$2 aopts=$3
    "$JAVA" -agentpath:"$CHECK_SO=${copts}agent=$d/libbuggy.so=$aopts" -cp "$d" Hello \
        >"$d/$name.out" 2>"$d/$name.err"
    echo $? >"$d/$name.status"
}

for m in "${misuses[@]}"; do
    IFS='|' read -r name copts aopts want <<<"$m"
    run "$name" "$copts" "$aopts"
    finds "$name" "$want"
done
# HotSpot 17's extensions: IsClassUnloadingEnabled (its one parameter is
# named after the function) and the ClassUnload event, which Unload.java
# makes the VM post.
java_unload() {
    local name=$1 copts=$2 aopts=$3
    local seen=
    [ "$aopts" = ext-event ] && seen=$d/$name.seen
    if [ "$copts" = - ]; then
        BUGGY_SEEN=$seen "$JAVA" -agentpath:"$d/libbuggy.so=$aopts" -cp "$d" Unload "$d" $seen
    else
        BUGGY_SEEN=$seen "$JAVA" -agentpath:"$CHECK_SO=${copts}agent=$d/libbuggy.so=$aopts" -cp "$d" Unload "$d" $seen
    fi >"$d/$name.out" 2>"$d/$name.err"
    echo $? >"$d/$name.status"
}
extensions hotspot com.sun.hotspot.functions.IsClassUnloadingEnabled IsClassUnloadingEnabled \
    com.sun.hotspot.events.ClassUnload java_unload
java_launch() { "$JAVA" "$@" -cp "$d" Hello; }
two_agents hotspot java_launch
check "jvmticheck: a correct agent runs to the end" \
    diff <(printf 'buggy: options "clean"\nbuggy: VMInit done\nhello 0\nbuggy: unloaded\n') "$d/clean.out"
check "jvmticheck: warn mode forwards the call (HotSpot's own JVMTI_ERROR_NULL_POINTER, 100)" \
    grep -qx 'buggy: GetThreadState returned 100' "$d/null.out"
check "jvmticheck: refused-callbacks: VMInit still reaches the agent" grep -qx 'buggy: VMInit done' "$d/refused-callbacks.out"

# fatal: the finding, a backtrace through the agent's function, SIGABRT,
# and the call never reached the VM (the agent never saw its result).
run fatal "mode=fatal," null
check "jvmticheck: mode=fatal aborts (status 134)" test "$(cat "$d/fatal.status")" -eq 134
check "jvmticheck: mode=fatal: the finding comes first" \
    bash -c 'head -1 "$1" | grep -qx "jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so)"' _ "$d/fatal.err"
check "jvmticheck: mode=fatal: then a backtrace through the agent" grep -q 'libbuggy.so(buggy_null+' "$d/fatal.err"
check "jvmticheck: mode=fatal: the call was not forwarded" bash -c '! grep -q "GetThreadState returned" "$1"' _ "$d/fatal.out"

# Tracing: calls in JVMTI_TRACE's format, events with thread and time.
run trace "trace=GetThreadState:VM*:-VMDeath," clean
check "jvmticheck: trace=: the call line" grep -Eqx 'jvmti: \[env 0x[0-9a-f]+\] GetThreadState\(thread=0x[0-9a-f]+, thread_state_ptr=0x[0-9a-f]+\) = JVMTI_ERROR_NONE; \*thread_state_ptr=[0-9]+ \([0-9]+ ns\)' "$d/trace.err"
check "jvmticheck: trace=: the event line, with the thread's name and the time" \
    grep -Eqx 'jvmti: event VMInit on thread "main" at [0-9]+\.[0-9]{9} s \([0-9]+ ns\)' "$d/trace.err"
check "jvmticheck: trace=: nothing else (GetSystemProperty is not selected)" \
    test "$(wc -l <"$d/trace.err")" -eq 2
JVMTI_TRACE=GetSystemProperty run trace-env "" clean
check "jvmticheck: JVMTI_TRACE selects too" \
    bash -c 'test "$(grep -c "^jvmti: \[env 0x[0-9a-f]*\] GetSystemProperty(property=\"java.vm.name\"" "$1")" -eq 1' _ "$d/trace-env.err"

# The options.
run verbatim "" 'a,b=c,agent=d'
check "jvmticheck: the wrapped agent's options pass verbatim (commas, '=', agent=)" \
    grep -qx 'buggy: options "a,b=c,agent=d"' "$d/verbatim.out"
run log "log=$d/findings.log," null
check "jvmticheck: log=FILE takes the findings" \
    bash -c 'test ! -s "$1" && grep -q "^jvmticheck: GetThreadState: thread_state_ptr must not be NULL" "$2"' _ "$d/log.err" "$d/findings.log"
run unknown "colour=red," clean
check "jvmticheck: an unknown option is refused, and the VM does not start" \
    bash -c 'test "$(cat "$1")" -ne 0 && grep -q "^jvmticheck: unknown option '"'"'colour'"'"'" "$2"' _ "$d/unknown.status" "$d/unknown.err"
"$JAVA" -agentpath:"$CHECK_SO=mode=warn" -cp "$d" Hello >"$d/noagent.out" 2>&1
check "jvmticheck: no agent= is refused" \
    bash -c 'test "$1" -ne 0 && grep -q "^jvmticheck: no agent to wrap" "$2"' _ $? "$d/noagent.out"
"$JAVA" -agentpath:"$CHECK_SO=agent=$d/no-such.so" -cp "$d" Hello >"$d/missing.out" 2>&1
check "jvmticheck: an agent that cannot be loaded is refused, with dlerror's reason" \
    bash -c 'test "$1" -ne 0 && grep -q "^jvmticheck: cannot load agent .*/no-such.so: " "$2"' _ $? "$d/missing.out"
JAVA_TOOL_OPTIONS="-agentpath:$CHECK_SO=agent=$d/libbuggy.so=null" "$JAVA" -cp "$d" Hello \
    >"$d/tool.out" 2>"$d/tool.err"
check "jvmticheck: through JAVA_TOOL_OPTIONS too" \
    grep -qx "jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so)" "$d/tool.err"
check "jvmticheck: the agent's callbacks get its own (checking) environment" \
    bash -c '! grep -q "another environment" "$@"' _ "$d"/*.out

# java.lang.instrument (libinstrument, as -javaagent loads it) through the
# checker: the same output, no finding.
"$JAVA" -javaagent:"$d/premain.jar=x,y=z" -cp "$d" Hello >"$d/instrument-plain.txt" 2>&1
"$JAVA" -agentpath:"$CHECK_SO=agent=$jdk/lib/libinstrument.so=$d/premain.jar=x,y=z" -cp "$d" Hello \
    >"$d/instrument-checked.txt" 2>&1
check "jvmticheck: java.lang.instrument: premain and the transformer see the application" \
    diff <(printf 'premain: x,y=z\ntransform: Hello %s bytes\nhello 0\n' \
        "$(sed -n 's/^transform: Hello \([0-9]*\) bytes$/\1/p' "$d/instrument-plain.txt")") \
    "$d/instrument-plain.txt"
check "jvmticheck: java.lang.instrument: the same output through jvmticheck, no finding" \
    diff "$d/instrument-plain.txt" "$d/instrument-checked.txt"

# The generated half covers the whole table: a checking entry per function.
gen=${RT_OUT:-out}/jvmticheck_forward.c
check "jvmticheck: one checking entry per function of the table" \
    test "$(grep -c '^jvmticheck_entry_' "$gen")" -eq "$(grep -c '^jvmtigen_entry_' "${RT_OUT:-out}/jvmtigen_entry.c")"

# make install puts the library and its man page in place; the installed
# library works; make uninstall takes both away.
dest=$(scratch jvmticheck-install)
prefix=${PREFIX:-/usr/local}
if ${MAKE:-make} --no-print-directory install DESTDIR="$dest" >"$d/install.log" 2>&1; then
    lib=$dest$prefix/lib/libjvmticheck.so man7=$dest$prefix/share/man/man7/jvmticheck.7
    check "jvmticheck: make install: lib/libjvmticheck.so and man7/jvmticheck.7" test -f "$lib" -a -f "$man7"
    need_tool "jvmticheck: groff -man -ww -z on jvmticheck.7" groff &&
        check "jvmticheck: groff -man -ww -z is silent on jvmticheck.7" \
            bash -c 'test -z "$(groff -man -ww -z "$1" 2>&1)"' _ "$man7"
    "$JAVA" -agentpath:"$lib=agent=$d/libbuggy.so=null" -cp "$d" Hello >/dev/null 2>"$d/installed.err"
    check "jvmticheck: the installed library finds what the built one does" \
        grep -qx "jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so)" "$d/installed.err"
    ${MAKE:-make} --no-print-directory uninstall DESTDIR="$dest" >/dev/null 2>&1
    check "jvmticheck: make uninstall removes them" test ! -e "$lib" -a ! -e "$man7"
else
    not_ok "jvmticheck: make install"; tail -5 "$d/install.log"
fi

# The conformance agent (tests/conformance: 1,200+ cases, most of them
# deliberate misuse) through jvmticheck in warn mode (the runner's
# CONFORMANCE_WRAP), in HotSpot and in jvmti-host: every case gets the same
# answer as without it, and the two VMs differ only where they do without it.
if [ ! -f "$SHARED_SPECS/jdk17/jvmti.xml" ] || [ -z "${JVMTI_HOST:-}" ]; then
    skip "jvmticheck: the conformance agent needs $SHARED_SPECS/jdk17/jvmti.xml and jvmti-host (run through make check)"
elif need_tool "jvmticheck: the conformance agent through jvmticheck" python3; then
    conf=$d/conformance wrapped=$d/conformance-wrapped
    conf_run() {
        CONFORMANCE_ITERS=1000 SHARED_SPECS="$SHARED_SPECS" SPEC="${RT_SPEC:-spec/jvmti.xml}" \
            tests/conformance/run "$@"
    }
    conf_run "$conf" >"$d/conformance.log" 2>&1
    CONFORMANCE_WRAP=$CHECK_SO conf_run "$wrapped" >"$d/conformance-wrapped.log" 2>&1
    check "jvmticheck: the conformance agent through jvmticheck: HotSpot and the host differ only as documented ($(tail -1 "$d/conformance-wrapped.log"))" \
        test $? -eq 0
    for vm in hotspot host; do
        if [ -s "$conf/$vm.out" ] && [ -s "$wrapped/$vm.out" ]; then
            python3 tests/conformance/compare.py "$conf/$vm.out" "$wrapped/$vm.out" /dev/null \
                --min 1000 >"$d/conformance-$vm.txt" 2>&1
            check "jvmticheck: the conformance agent in $vm gets the same answers through jvmticheck ($(tail -1 "$d/conformance-$vm.txt"))" \
                test $? -eq 0
            check "jvmticheck: ... and its deliberate misuse in $vm is found (over 300 findings)" \
                test "$(grep -c '^jvmticheck: ' "$wrapped/$vm-findings.log")" -gt 300
        else
            not_ok "jvmticheck: the conformance agent did not run in $vm"; tail -5 "$d/conformance"*.log
        fi
    done
fi

# JDWP (libjdwp, as -agentlib:jdwp loads it) through jvmticheck: it loads,
# listens, the program runs to its end, and nothing is found.
"$JAVA" -agentpath:"$CHECK_SO=agent=$jdk/lib/libjdwp.so=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0" \
    -cp "$d" Hello >"$d/jdwp.out" 2>"$d/jdwp.err"
check "jvmticheck: JDWP runs a program through jvmticheck with no finding" \
    bash -c 'test "$1" -eq 0 && grep -q "^Listening for transport dt_socket at address: " "$2" &&
             grep -qx "hello 0" "$2" && ! grep -q "^jvmticheck" "$3"' _ $? "$d/jdwp.out" "$d/jdwp.err"

# JDWP debugged by jdb through jvmticheck (jdb_session.py): a deferred
# breakpoint, the stack, arguments and locals, a step and cont give the
# same transcript as without the checker, the program its output, and
# nothing is found.
if [ ! -x "$jdk/bin/jdb" ]; then
    lack "jvmticheck: the jdb session" "$jdk/bin/jdb" "Debian: openjdk-17-jdk-headless"
elif need_tool "jvmticheck: the jdb session" python3; then
    "$JAVAC" -g -d "$d" $here/Debuggee.java
    jdwp_opts=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0
    mkdir -p "$d/jdb-plain" "$d/jdb-checked"
    python3 $here/jdb_session.py "$jdk/bin/jdb" $here "$d/jdb-plain" \
        "$JAVA" -agentlib:jdwp=$jdwp_opts -cp "$d" Debuggee >"$d/jdb-plain.txt" 2>"$d/jdb-plain.log"
    check "jvmticheck: jdb without the checker: the session's every answer" \
        bash -c 'test "$1" -eq 0 && grep -qx "Set deferred breakpoint Debuggee:6" "$2" &&
                 grep -qx "\[2\] Debuggee.main (Debuggee.java:12)" "$2" && grep -qx "height = 7" "$2" &&
                 grep -qx "Step completed: \"thread=main\", Debuggee.area(), line=7 bci=4" "$2" &&
                 grep -qx "product = 42" "$2" && grep -qx "The application exited" "$2"' \
        _ $? "$d/jdb-plain.txt"
    python3 $here/jdb_session.py "$jdk/bin/jdb" $here "$d/jdb-checked" \
        "$JAVA" -agentpath:"$CHECK_SO=agent=$jdk/lib/libjdwp.so=$jdwp_opts" -cp "$d" Debuggee \
        >"$d/jdb-checked.txt" 2>"$d/jdb-checked.log"
    check "jvmticheck: jdb through jvmticheck: the same transcript" \
        bash -c 'test "$1" -eq 0 && diff "$2" "$3"' _ $? "$d/jdb-plain.txt" "$d/jdb-checked.txt"
    check "jvmticheck: jdb through jvmticheck: the program's output, no finding" \
        bash -c 'grep -qx "total 46" "$1" && test ! -s "$2"' _ "$d/jdb-checked/vm.out" "$d/jdb-checked/vm.err"
fi

# Agent_OnAttach: the checker, wrapping buggy, loaded into a running VM by
# jcmd JVMTI.agent_load and by the Attach API (Attacher.java).
# attached NAME HOW OPTIONS: Waiter runs until $d/NAME.go exists; HOW
# (jcmd or api) loads the checker with OPTIONS meanwhile.
attached() {
    local name=$1 how=$2 opts=$3 pid i
    "$JAVA" -XX:ErrorFile="$d/hs_err_%p.log" -cp "$d" Waiter "$d/$name.go" >"$d/$name.out" 2>"$d/$name.err" &
    pid=$!
    for i in $(seq 300); do grep -q waiting "$d/$name.out" && break; sleep 0.1; done
    if [ "$how" = jcmd ]; then
        # jcmd parses its arguments as NAME=VALUE: the options go in quotes.
        "$jdk/bin/jcmd" "$pid" JVMTI.agent_load "$CHECK_SO" "\"$opts\"" >"$d/$name.load" 2>&1
    else
        "$JAVA" -cp "$d" Attacher "$pid" "$CHECK_SO" "$opts" >"$d/$name.load" 2>&1
    fi
    echo $? >"$d/$name.loadstatus"
    touch "$d/$name.go"
    wait "$pid"
    echo $? >"$d/$name.status"
}
if "$JAVAC" -d "$d" $here/Waiter.java $here/Attacher.java; then
    for how in jcmd api; do
        attached attach-$how-null $how "agent=$d/libbuggy.so=null"
        check "jvmticheck: attached by $how: the agent gets its options and runs in the live phase" \
            diff <(printf 'waiting\nbuggy: attached, options "null"\nbuggy: GetThreadState returned 100\nbuggy: attach done\ndone\nbuggy: unloaded\n') \
            "$d/attach-$how-null.out"
        finds attach-$how-null "jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so)"
        attached attach-$how-clean $how "agent=$d/libbuggy.so=clean"
        check "jvmticheck: attached by $how: a correct agent, no finding" \
            bash -c 'grep -qx "buggy: attach done" "$1" && test ! -s "$2"' _ "$d/attach-$how-clean.out" "$d/attach-$how-clean.err"
    done
    check "jvmticheck: jcmd JVMTI.agent_load says the agent loaded (return code 0)" \
        grep -qx 'return code: 0' "$d/attach-jcmd-null.load"
    attached attach-api-missing api "agent=$d/no-such.so"
    check "jvmticheck: attached, an agent that cannot be loaded: the Attach API is told, the VM runs on" \
        bash -c 'test "$(cat "$1")" -eq 1 && grep -q "^jvmticheck: cannot load agent .*/no-such.so: " "$2" &&
                 test "$(cat "$3")" -eq 0' _ "$d/attach-api-missing.loadstatus" "$d/attach-api-missing.err" "$d/attach-api-missing.status"
    # The VM unloads the library of a failed Agent_OnAttach: the checker
    # stays loaded, since its environment's callbacks (and the agent's,
    # through the checker's wrappers) still get events.
    attached attach-api-fails api "agent=$d/libbuggy.so=fail-attach"
    check "jvmticheck: attached, the agent's Agent_OnAttach fails: the Attach API is told, the VM ends well, the agent's VMDeath comes" \
        bash -c 'test "$(cat "$1")" -eq 1 && test "$(cat "$2")" -eq 0 && grep -qx "buggy: VMDeath" "$3"' \
        _ "$d/attach-api-fails.loadstatus" "$d/attach-api-fails.status" "$d/attach-api-fails.out"
else
    not_ok "jvmticheck: Waiter.java and Attacher.java do not build"
fi
