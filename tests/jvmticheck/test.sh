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

# A call site is `called from SYMBOL (LIB+0xOFFSET)` (or `LIB+0xOFFSET`
# without a symbol); the offset depends on the build, so the exact lines
# are compared with it as 0xOFF, and each offset into an agent built here
# is checked apart: addr2line puts it in the function the line names.
offsets() { sed -E 's/\.so\+0x[0-9a-f]+/.so+0xOFF/g' "$1"; }
# sites_resolve FILE: every `called from SYMBOL (LIB+0xOFFSET)` of FILE
# whose LIB is in $d is in SYMBOL, as addr2line says.
sites_resolve() {
    local sym lib off
    while read -r sym lib off; do
        [ -f "$d/$lib" ] || continue
        [ "$(addr2line -f -e "$d/$lib" "$off" | head -1)" = "$sym" ] || { echo "$off in $lib is not $sym"; return 1; }
    done < <(sed -nE 's/.* called from ([A-Za-z_0-9]+) \((lib[a-z]+\.so)\+(0x[0-9a-f]+)\)$/\1 \2 \3/p' "$1")
}
# finds NAME EXPECTED_STDERR: the run ended well and printed exactly that
# (lines separated by newlines or by a literal \n).
finds() {
    local name=$1 want=${2//\\n/$'\n'}
    check "jvmticheck: $name: status 0" test "$(cat "$d/$name.status")" -eq 0
    check "jvmticheck: $name: the finding, exactly" diff <([ -z "$want" ] || printf '%s\n' "$want") <(offsets "$d/$name.err")
    if grep -q ' called from ' "$d/$name.err"; then
        check "jvmticheck: $name: the call site's offset is in the function named (addr2line)" sites_resolve "$d/$name.err"
    fi
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
    finds "$vm-ext-null" "jvmticheck: $fn: $param must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_ext_null (libbuggy.so+0xOFF)
jvmticheck: 1 finding, 1 distinct"
    check "jvmticheck: $vm: the extension function's NULL out-pointer: warn mode forwards it (the VM's 100)" \
        grep -qx "buggy: $fn(NULL) returned 100" "$d/$vm-ext-null.out"
    "$@" "$vm-ext-event" "" ext-event
    check "jvmticheck: $vm: the extension event $ev reaches the agent with its own environment" \
        bash -c 'grep -qx "buggy: SetExtensionEventCallback($2) returned 0" "$1" &&
                 grep -qx "buggy: $2 came with its own environment" "$1"' _ "$d/$vm-ext-event.out" "$ev"
    finds "$vm-ext-event" ""
    "$@" "$vm-ext-leak" "leaks=results," ext-leak
    finds "$vm-ext-leak" "jvmticheck: GetExtensionFunctions: 5 buffers never deallocated (memory leak)
jvmticheck: 1 finding, 1 distinct"
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
    finds "$vm-two" "jvmticheck: [libother.so] GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libother.so+0xOFF)
jvmticheck: [libbuggy.so] GetSystemProperty: 2 buffers never deallocated (memory leak)
jvmticheck: [libbuggy.so] 1 finding, 1 distinct
jvmticheck: [libother.so] 1 finding, 1 distinct"
    check "jvmticheck: $vm: two agents in one checker: each gets its VMInit, with its own environment, and unloads once" \
        diff <(printf '%s\n' 'buggy: VMInit done' 'other: GetThreadState returned 100' 'other: VMInit done' \
            'buggy: unloaded' 'other: unloaded') <(grep -v -e '^buggy: options' -e '^other: options' -e '^hello' "$d/$vm-two.out")
}

# after_misuses VM LAUNCHER...: what the misuses' runs in VM say beyond
# their lines: the static call site resolves, a made-up monitor is not
# forwarded; exitcode=; the checker wrapping itself.
after_misuses() {
    local vm=$1 off fn
    shift
    off=$(sed -nE 's/.*called from libbuggy\.so\+(0x[0-9a-f]+)$/\1/p' "$d/$vm-static-null.err")
    check "jvmticheck: $vm: a static caller's offset: addr2line names static_null" \
        test "$(addr2line -f -e "$d/libbuggy.so" "${off:-0}" | head -1)" = static_null
    check "jvmticheck: $vm: ... and nm puts it inside static_null" \
        bash -c 'read -r start size _ < <(nm -S "$1" | grep " [tT] static_null$") &&
                 test $((0x$start)) -le $(($2)) && test $(($2)) -lt $((0x$start + 0x$size))' _ "$d/libbuggy.so" "${off:-0}"
    check "jvmticheck: $vm: a made-up raw monitor is not forwarded: JVMTI_ERROR_INVALID_MONITOR (50)" \
        grep -qx 'buggy: RawMonitorEnter(made up) returned 50' "$d/$vm-monitor-unknown.out"
    check "jvmticheck: $vm: nor a destroyed one: JVMTI_ERROR_INVALID_MONITOR (50)" \
        grep -qx 'buggy: RawMonitorEnter(destroyed) returned 50' "$d/$vm-monitor-destroyed.out"
    "$@" -agentpath:"$CHECK_SO=exitcode=3,agent=$d/libbuggy.so=null" >"$d/$vm-exitcode.out" 2>"$d/$vm-exitcode.err"
    check "jvmticheck: $vm: exitcode=3: a run with a finding exits with 3, after the summary" \
        bash -c 'test "$1" -eq 3 && test "$(tail -1 "$2")" = "jvmticheck: 1 finding, 1 distinct"' _ $? "$d/$vm-exitcode.err"
    "$@" -agentpath:"$CHECK_SO=exitcode=3,agent=$d/libbuggy.so=clean" >"$d/$vm-exitcode-clean.out" 2>"$d/$vm-exitcode-clean.err"
    check "jvmticheck: $vm: exitcode=3: a run without one exits with 0, and says nothing" \
        bash -c 'test "$1" -eq 0 && test ! -s "$2"' _ $? "$d/$vm-exitcode-clean.err"
    "$@" -agentpath:"$CHECK_SO=exitcode=x,agent=$d/libbuggy.so=clean" >"$d/$vm-exitcode-bad.out" 2>"$d/$vm-exitcode-bad.err"
    check "jvmticheck: $vm: exitcode=x is refused" \
        bash -c 'test "$1" -ne 0 && grep -qx "jvmticheck: exitcode=x: expected a number from 0 to 255" "$2"' _ $? "$d/$vm-exitcode-bad.err"
    # agent=libjvmticheck.so: the inner checker refuses, before its GetEnv
    # could call itself (it did until the stack overflowed).
    "$@" -agentpath:"$CHECK_SO=agent=$CHECK_SO=agent=$d/libbuggy.so=clean" >"$d/$vm-self.out" 2>"$d/$vm-self.err"
    check "jvmticheck: $vm: the checker wrapping itself refuses with one line, and the VM does not start" \
        bash -c 'test "$1" -ge 1 && test "$1" -lt 128 && grep -qx "jvmticheck: the agent to wrap is jvmticheck itself: a checker cannot wrap itself (give the agent it should wrap as agent=)" "$2"' \
        _ $? "$d/$vm-self.err"
    # Two copies of the checker (another file, so another library: each its
    # own state) chain: each checks, each finds the NULL, the agent gets
    # the VM's answer. (The outer one's call site is the inner one's
    # forwarder or the agent, as the compiler made the forwarder's call.)
    cp "$CHECK_SO" "$d/libjvmticheck-copy.so"
    "$@" -agentpath:"$CHECK_SO=agent=$d/libjvmticheck-copy.so=agent=$d/libbuggy.so=null" >"$d/$vm-chain.out" 2>"$d/$vm-chain.err"
    check "jvmticheck: $vm: two copies of the checker in a chain: each finds the NULL once, the agent runs to its end" \
        bash -c 'test "$1" -eq 0 && grep -qx "buggy: GetThreadState returned 100" "$2" && grep -qx "buggy: unloaded" "$2" &&
                 test "$(grep -c "^jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from " "$3")" -eq 2 &&
                 test "$(grep -cx "jvmticheck: 1 finding, 1 distinct" "$3")" -eq 2 && test "$(wc -l <"$3")" -eq 4' \
        _ $? "$d/$vm-chain.out" "$d/$vm-chain.err"
}

# Each misuse: a name, the checker's options, buggy's option (the misuse
# it commits) and the one line found. The same in HotSpot and in the host.
misuses=(
    "clean||clean|"
    "null||null|jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "phase||phase|jvmticheck: GetCurrentThread: may only be called during the start or live phase, not the OnLoad phase (JVMTI_ERROR_WRONG_PHASE), called from buggy_phase (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "after-death||after-death|jvmticheck: GetLoadedClasses: may only be called during the live phase, not the dead phase (JVMTI_ERROR_WRONG_PHASE), called from buggy_after_death (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "dispose||dispose|jvmticheck: GetPhase: env must be a valid environment (used after DisposeEnvironment) (JVMTI_ERROR_INVALID_ENVIRONMENT), called from buggy_dispose (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "dealloc-foreign||dealloc-foreign|jvmticheck: Deallocate: mem was not allocated by JVM TI, or was already deallocated, called from buggy_dealloc_foreign (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "dealloc-twice||dealloc-twice|jvmticheck: Deallocate: mem was not allocated by JVM TI, or was already deallocated, called from buggy_dealloc_twice (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "leak|leaks=results,|leak|jvmticheck: GetSystemProperty: 2 buffers never deallocated (memory leak)\njvmticheck: 1 finding, 1 distinct"
    "leak-default||leak|"
    "capability||capability|jvmticheck: GetBytecodes: requires the capability can_get_bytecodes (JVMTI_ERROR_MUST_POSSESS_CAPABILITY), called from buggy_capability (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "monitor-exit||monitor-exit|jvmticheck: RawMonitorExit: monitor must be held by the calling thread (RawMonitorEnter), called from buggy_monitor_exit (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "monitor-destroy||monitor-destroy|jvmticheck: DestroyRawMonitor: monitor must not be destroyed while another thread holds it, called from buggy_monitor_destroy (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    # Correct use under a race: two threads hand a raw monitor back and
    # forth with wait and notify 200,000 times; no finding (the checker's
    # record of the holder once went wrong here, and JDWP under jdb showed it).
    "monitor-pingpong||monitor-pingpong|"
    # A SetEventCallbacks the VM refuses leaves the agent's callbacks as
    # they were (VMInit still reaches it: checked below).
    # The same misuse 100,000 times from one call site: printed once, its
    # count and the summary at exit.
    "null-many||null-many|jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null_many (libbuggy.so+0xOFF)\njvmticheck: 100000 times: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null_many (libbuggy.so+0xOFF)\njvmticheck: 100000 findings, 1 distinct"
    # From a static function, which dladdr cannot name: its object and
    # offset (checked with addr2line and nm below).
    "static-null||static-null|jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from libbuggy.so+0xOFF\njvmticheck: 1 finding, 1 distinct"
    # A raw monitor never created: not forwarded (HotSpot crashed on it),
    # the agent gets JVMTI_ERROR_INVALID_MONITOR (checked below).
    "monitor-unknown||monitor-unknown|jvmticheck: RawMonitorEnter: monitor must be a raw monitor CreateRawMonitor returned, not destroyed (JVMTI_ERROR_INVALID_MONITOR), called from buggy_monitor_unknown (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "monitor-destroyed||monitor-destroyed|jvmticheck: RawMonitorEnter: monitor must be a raw monitor CreateRawMonitor returned, not destroyed (JVMTI_ERROR_INVALID_MONITOR), called from buggy_monitor_destroyed (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "refused-callbacks||refused-callbacks|jvmticheck: SetEventCallbacks: may only be called during the OnLoad or live phase, not the start phase (JVMTI_ERROR_WRONG_PHASE), called from buggy_refused_callbacks (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    # A NULL class, a negative depth, a thread the VM does not know.
    "null-class||null-class|jvmticheck: GetClassSignature: klass must be a class, not NULL (JVMTI_ERROR_INVALID_CLASS), called from buggy_null_class (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "negative-depth||negative-depth|jvmticheck: GetFrameLocation: depth must be zero or greater (JVMTI_ERROR_ILLEGAL_ARGUMENT), called from buggy_negative_depth (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
    "unattached||unattached|jvmticheck: GetCurrentThread: must be called on an attached thread (JVMTI_ERROR_UNATTACHED_THREAD), called from buggy_unattached (libbuggy.so+0xOFF)\njvmticheck: 1 finding, 1 distinct"
)

# The machine-readable forms, in one VM, of the misuses' runs above (their
# text in $d/PREFIXNAME.err): each again with format=json, every JSON line
# parsed and rebuilt into the text line of the same finding
# (findings_json.py), with its rule id and thread exactly as listed here.
json_expected=(
    "null|finding null-pointer main;summary 1 1 0"
    "phase|finding wrong-phase -;summary 1 1 0"
    "after-death|finding wrong-phase -;summary 1 1 0"
    "dispose|finding invalid-environment main;summary 1 1 0"
    "dealloc-foreign|finding bad-deallocate main;summary 1 1 0"
    "dealloc-twice|finding bad-deallocate main;summary 1 1 0"
    "leak|finding leak -;summary 1 1 0"
    "capability|finding missing-capability main;summary 1 1 0"
    "monitor-exit|finding monitor-not-held main;summary 1 1 0"
    "monitor-destroy|finding monitor-held-elsewhere -;summary 1 1 0"
    "null-many|finding null-pointer main;repeated null-pointer 100000;summary 100000 1 0"
    "static-null|finding null-pointer main;summary 1 1 0"
    "monitor-unknown|finding unknown-monitor main;summary 1 1 0"
    "monitor-destroyed|finding unknown-monitor main;summary 1 1 0"
    "refused-callbacks|finding wrong-phase -;summary 1 1 0"
    "null-class|finding null-handle main;summary 1 1 0"
    "negative-depth|finding below-minimum main;summary 1 1 0"
    "unattached|finding unattached-thread -;summary 1 1 0"
    "clean|"
)
# The five findings of buggy's `several` (leaks=results), as
# suppressions-out= writes them (the static caller by its offset).
several_supp='# jvmticheck suppressions (suppressions=FILE), one a line: what this run found
rule=null-pointer function=GetThreadState param=thread_state_ptr object=libbuggy.so symbol=buggy_null
rule=null-pointer function=GetThreadState param=thread_state_ptr object=libbuggy.so offset=0xOFF
rule=missing-capability function=GetBytecodes object=libbuggy.so symbol=buggy_capability
rule=bad-deallocate function=Deallocate param=mem object=libbuggy.so symbol=buggy_dealloc_foreign
rule=leak function=GetSystemProperty'
# machine_readable VM PREFIX LAUNCHER...: LAUNCHER ARGS... runs Hello with ARGS.
machine_readable() {
    local vm=$1 prefix=$2 m name copts aopts want
    shift 2
    need_tool "jvmticheck: $vm: the JSON, SARIF and suppressions checks" python3 || return
    for m in "${misuses[@]}"; do
        IFS='|' read -r name copts aopts want <<<"$m"
        "$@" -agentpath:"$CHECK_SO=format=json,${copts}agent=$d/libbuggy.so=$aopts" >/dev/null 2>"$d/$vm-json-$name.err"
    done
    for m in "${json_expected[@]}"; do
        name=${m%%|*} want=${m#*|}
        check "jvmticheck: $vm: format=json: $name: each line parsed, rebuilt into its text line, rule ids and threads exactly" \
            diff <(printf '%s\n' "$want" | tr ';' '\n' | sed '/^$/d') \
                 <(python3 $here/findings_json.py json "$d/$prefix$name.err" "$d/$vm-json-$name.err")
    done
    # SARIF: the several findings (one suppressed) and a repeated one.
    printf 'rule=missing-capability\n' >"$d/$vm-one.supp"
    "$@" -agentpath:"$CHECK_SO=leaks=results,sarif=$d/$vm-several.sarif,suppressions=$d/$vm-one.supp,agent=$d/libbuggy.so=several" \
        >/dev/null 2>"$d/$vm-sarif-several.err"
    "$@" -agentpath:"$CHECK_SO=sarif=$d/$vm-many.sarif,agent=$d/libbuggy.so=null-many" >/dev/null 2>"$d/$vm-sarif-many.err"
    check "jvmticheck: $vm: sarif=: results rebuilt into the run's text lines, the man page's rule ids, counts and suppression" \
        diff <(printf '%s\n' "null-pointer 1" "null-pointer 1" "missing-capability 1 suppressed" "bad-deallocate 1" "leak 1" "null-pointer 100000") \
             <(MAN=docs/jvmticheck.7 python3 $here/findings_json.py sarif "$d/$vm-several.sarif" "$d/$vm-sarif-several.err" &&
               MAN=docs/jvmticheck.7 python3 $here/findings_json.py sarif "$d/$vm-many.sarif" "$d/$vm-sarif-many.err")
    with_tool python3 check "jvmticheck: $vm: sarif=: the driver names jvmticheck and the release (VERSION)" \
        bash -c 'test "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]))[\"runs\"][0][\"tool\"][\"driver\"]; print(d[\"name\"], d.get(\"version\"))" "$1")" = "jvmticheck $(cat VERSION)"' _ "$d/$vm-several.sarif"
    if [ -n "$sarif_validator" ]; then
        check "jvmticheck: $vm: sarif=: both reports valid against the SARIF 2.1.0 schema (Ajv)" \
            diff <(printf 'valid %s\n' "$d/$vm-several.sarif" "$d/$vm-many.sarif") \
                 <(node $here/sarif_valid.mjs "$d/$vm-several.sarif" "$d/$vm-many.sarif")
    fi
    # Suppressions: generated by a run, fed back they silence it all (and
    # exitcode= sees no finding); a file naming three silences those three.
    "$@" -agentpath:"$CHECK_SO=leaks=results,suppressions-out=$d/$vm-gen.supp,agent=$d/libbuggy.so=several" \
        >/dev/null 2>"$d/$vm-gen.err"
    check "jvmticheck: $vm: suppressions-out=: one line per distinct finding, exactly" \
        diff <(printf '%s\n' "$several_supp") <(offsets "$d/$vm-gen.supp" | sed -E 's/offset=0x[0-9a-f]+/offset=0xOFF/')
    "$@" -agentpath:"$CHECK_SO=leaks=results,exitcode=3,suppressions=$d/$vm-gen.supp,agent=$d/libbuggy.so=several" \
        >/dev/null 2>"$d/$vm-fed.err"
    check "jvmticheck: $vm: the generated suppressions fed back: every finding silenced, counted, exit status 0" \
        bash -c 'test "$1" -eq 0 && diff <(echo "jvmticheck: 0 findings, 0 distinct, 5 suppressed") "$2"' _ $? "$d/$vm-fed.err"
    printf '# three of the five\nrule=null-pointer symbol=buggy_null\n\nfunction=Deal*   # any Deallocate\nrule=leak function=GetSystemProperty\n' >"$d/$vm-three.supp"
    "$@" -agentpath:"$CHECK_SO=leaks=results,suppressions=$d/$vm-three.supp,agent=$d/libbuggy.so=several" \
        >/dev/null 2>"$d/$vm-three.err"
    check "jvmticheck: $vm: suppressions=: exactly the findings named are silenced, and no other" \
        diff <(printf '%s\n' "jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from libbuggy.so+0xOFF" \
                   "jvmticheck: GetBytecodes: requires the capability can_get_bytecodes (JVMTI_ERROR_MUST_POSSESS_CAPABILITY), called from buggy_capability (libbuggy.so+0xOFF)" \
                   "jvmticheck: 2 findings, 2 distinct, 3 suppressed") <(offsets "$d/$vm-three.err")
    printf 'rule=leak\nrule=leak color=red\n' >"$d/$vm-bad.supp"
    "$@" -agentpath:"$CHECK_SO=suppressions=$d/$vm-bad.supp,agent=$d/libbuggy.so=clean" >/dev/null 2>"$d/$vm-bad-supp.err"
    check "jvmticheck: $vm: a wrong suppressions line: FILE:LINE: error:, and the VM does not start" \
        bash -c 'test "$1" -ne 0 && grep -qx "jvmticheck: $2:2: error: '"'"'color=red'"'"': expected rule=, function=, param=, object=, symbol= or offset= and a pattern, each once" "$3"' \
        _ $? "$d/$vm-bad.supp" "$d/$vm-bad-supp.err"
    "$@" -agentpath:"$CHECK_SO=format=yaml,agent=$d/libbuggy.so=clean" >/dev/null 2>"$d/$vm-bad-format.err"
    check "jvmticheck: $vm: format=yaml is refused" \
        bash -c 'test "$1" -ne 0 && grep -qx "jvmticheck: format=yaml: expected text or json" "$2"' _ $? "$d/$vm-bad-format.err"
    "$@" -agentpath:"$CHECK_SO=sarif=$d/no/such/dir.sarif,agent=$d/libbuggy.so=clean" >/dev/null 2>"$d/$vm-bad-sarif.err"
    check "jvmticheck: $vm: a sarif= file that cannot be made is refused" \
        bash -c 'test "$1" -ne 0 && grep -qx "jvmticheck: sarif=$2/no/such/dir.sarif: cannot create the file" "$3"' _ $? "$d" "$d/$vm-bad-sarif.err"
}
sarif_validator=
if ! need_tool "jvmticheck: SARIF validation" node; then
    :
elif [ ! -d $here/node_modules/ajv-draft-04 ] || [ ! -d $here/node_modules/@microsoft/jest-sarif ]; then
    lack "jvmticheck: SARIF validation" ajv "npm: cd $here && npm ci"
else
    sarif_validator=node
fi
with_tool python3 check "jvmticheck: the man page lists the rule ids the code has (rules.c), in its order" \
    diff <(sed -nE 's/^    \{"([a-z-]+)", .*/\1/p' check/rules.c) <(python3 $here/findings_json.py man docs/jvmticheck.7)

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
    after_misuses host host_launch
    machine_readable host host- host_launch
    # Escaped, each string from outside in one line: an option's name, an
    # agent's path.
    "$JVMTI_HOST" -agentpath:"$CHECK_SO=col"$'\n'"our=red,agent=$d/libbuggy.so" Hello >/dev/null 2>"$d/host-nl-option.err"
    check "jvmticheck: host: an option with a newline: one line, the newline escaped" \
        grep -q "^jvmticheck: unknown option 'col\\\\x0aour' (expected " "$d/host-nl-option.err"
    "$JVMTI_HOST" -agentpath:"$CHECK_SO=agent=$d/no"$'\n'"such.so" Hello >/dev/null 2>"$d/host-nl-path.err"
    check "jvmticheck: host: an agent path with a newline: one line, the newline escaped" \
        grep -q "^jvmticheck: cannot load agent $d/no\\\\x0asuch.so: " "$d/host-nl-path.err"
    # A new trace= while other threads read the selection (repeated jcmd
    # JVMTI.agent_load ... trace= while MethodEntry is on, in HotSpot):
    # buggy's thread calls the checker's Agent_OnAttach 2,000 times while
    # two others call the host's extension function through the checker
    # (each call reads the selection, as each event does). The selection
    # replaced was freed under the readers (ASan: heap-use-after-free; TSan:
    # a race); the run must end well, with no sanitizer report.
    BUGGY_CHECKER=$CHECK_SO "$JVMTI_HOST" -agentpath:"$CHECK_SO=agent=$d/libbuggy.so=retrace" Hello \
        >"$d/host-retrace.out" 2>"$d/host-retrace.err"
    check "jvmticheck: host: trace= replaced while other threads read it: the run ends well, no sanitizer report" \
        bash -c 'test "$1" -eq 0 && grep -qx "buggy: retraced 2000 times while 2 threads read" "$2" &&
                 ! grep -q -e Sanitizer -e "runtime error" "$3"' _ $? "$d/host-retrace.out" "$d/host-retrace.err"
else
    skip "jvmticheck: the buggy agent in the host needs JVMTI_HOST (run through make check)"
fi

# Each checking environment's own function table (tables.sh), in the
# host and in HotSpot.
. $here/tables.sh

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
"$JAVAC" -d "$d" $here/Hello.java $here/Unload.java $here/Premain.java $here/ThreadName.java &&
    (cd "$d" && "$JAR" cfm premain.jar "$OLDPWD/$here/premain.mf" Premain.class 'Premain$1.class') ||
    { not_ok "jvmticheck: the Java classes do not build"; exit 0; }

# run NAME CHECKER_OPTIONS AGENT_OPTIONS [CLASS]: java with buggy wrapped
# running CLASS (Hello); stdout in $d/NAME.out, stderr in $d/NAME.err, the
# status in $d/NAME.status.
run() {
    local name=$1 copts=$2 aopts=$3
    "$JAVA" -XX:ErrorFile="$d/hs_err_%p.log" -agentpath:"$CHECK_SO=${copts}agent=$d/libbuggy.so=$aopts" -cp "$d" "${4:-Hello}" \
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
java_launch() { "$JAVA" -XX:ErrorFile="$d/hs_err_%p.log" "$@" -cp "$d" Hello; }
two_agents hotspot java_launch
for m in static-null monitor-unknown monitor-destroyed; do cp "$d/$m.err" "$d/hotspot-$m.err"; cp "$d/$m.out" "$d/hotspot-$m.out"; done
after_misuses hotspot java_launch
machine_readable hotspot "" java_launch
# The same misuses, the same lines, in JDK 25's HotSpot where one is
# installed (JAVA25, or the first /usr/lib/jvm/*25*/bin/java).
java25=${JAVA25:-}
if [ -z "$java25" ]; then
    for j in /usr/lib/jvm/*25*/bin/java; do [ -x "$j" ] && { java25=$j; break; }; done
fi
if [ -n "$java25" ] && "$java25" -version 2>&1 | grep -q 'version "25[."]'; then
    for m in "${misuses[@]}"; do
        IFS='|' read -r name copts aopts want <<<"$m"
        "$java25" -XX:ErrorFile="$d/hs_err_%p.log" -agentpath:"$CHECK_SO=${copts}agent=$d/libbuggy.so=$aopts" -cp "$d" Hello \
            >"$d/jdk25-$name.out" 2>"$d/jdk25-$name.err"
        echo $? >"$d/jdk25-$name.status"
        finds "jdk25-$name" "$want"
    done
else
    skip "jvmticheck: no JDK 25 java (JAVA25, or /usr/lib/jvm/*25*/bin/java) for the misuses in HotSpot 25"
fi
# The selection replaced under its readers, in HotSpot (its extension
# function read through the checker): no sanitizer here, so a run that
# ends well with every call made.
BUGGY_CHECKER=$CHECK_SO run retrace "" retrace
check "jvmticheck: trace= replaced 2,000 times while 2 threads read it: the run ends well" \
    bash -c 'test "$(cat "$1")" -eq 0 && grep -qx "buggy: retraced 2000 times while 2 threads read" "$2"' \
    _ "$d/retrace.status" "$d/retrace.out"
# A thread's name with a newline cannot forge a trace line: escaped.
run thread-name "trace=ThreadStart," thread-start ThreadName
check "jvmticheck: a thread's name with a newline is escaped in the event's trace line" \
    bash -c 'grep -q "^jvmti: event ThreadStart on thread \"evil\\\\x0ajvmti: event VMInit on thread \\\\\"main\\\\\" at 0.000000000 s (0 ns)\" at " "$1" &&
             ! grep -q "^jvmti: event VMInit" "$1"' _ "$d/thread-name.err"
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
    bash -c 'head -1 "$1" | grep -qx "jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so+0x[0-9a-f]*)"' _ "$d/fatal.err"
check "jvmticheck: mode=fatal: then a backtrace through the agent" grep -q 'libbuggy.so(buggy_null+' "$d/fatal.err"
check "jvmticheck: mode=fatal: the call was not forwarded" bash -c '! grep -q "GetThreadState returned" "$1"' _ "$d/fatal.out"
run fatal-sarif "mode=fatal,sarif=$d/fatal.sarif," null
with_tool python3 check "jvmticheck: mode=fatal with sarif=: the report is written before the abort, with the finding" \
    bash -c 'test "$(cat "$1")" -eq 134 && diff <(echo "null-pointer 1") <(MAN=docs/jvmticheck.7 python3 $2/findings_json.py sarif "$3" <(grep "^jvmticheck: " "$4"))' \
    _ "$d/fatal-sarif.status" $here "$d/fatal.sarif" "$d/fatal-sarif.err"

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
    grep -qx "jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so+0x[0-9a-f]*)" "$d/tool.err"
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
    supp=$dest$prefix/share/jvmtigen/jvmticheck/jdwp.supp
    check "jvmticheck: make install: lib/libjvmticheck.so and man7/jvmticheck.7" test -f "$lib" -a -f "$man7"
    check "jvmticheck: make install: share/jvmtigen/jvmticheck/jdwp.supp, the source tree's" cmp "$supp" check/jdwp.supp
    need_tool "jvmticheck: groff -man -ww -z on jvmticheck.7" groff &&
        check "jvmticheck: groff -man -ww -z is silent on jvmticheck.7" \
            bash -c 'test -z "$(groff -man -ww -z "$1" 2>&1)"' _ "$man7"
    "$JAVA" -agentpath:"$lib=agent=$d/libbuggy.so=null" -cp "$d" Hello >/dev/null 2>"$d/installed.err"
    check "jvmticheck: the installed library finds what the built one does" \
        grep -qx "jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so+0x[0-9a-f]*)" "$d/installed.err"
    ${MAKE:-make} --no-print-directory uninstall DESTDIR="$dest" >/dev/null 2>&1
    check "jvmticheck: make uninstall removes them" test ! -e "$lib" -a ! -e "$man7" -a ! -e "$(dirname "$supp")"
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
    # The same agent runs wrapped: its build is copied (with its times and
    # recipe, so tests/conformance/run finds it up to date), not made again.
    mkdir -p "$wrapped" && cp -p "$conf"/cases.c "$conf"/*.so "$conf"/agent.recipe "$conf"/*.class \
        "$conf"/javac.flags "$wrapped/" 2>/dev/null
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
# With leaks=results JDWP's kept buffers are found, and check/jdwp.supp
# silences exactly those.
jdwp_leaks() {
    "$JAVA" -agentpath:"$CHECK_SO=leaks=results,$1agent=$jdk/lib/libjdwp.so=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0" \
        -cp "$d" Hello >/dev/null 2>"$d/jdwp-leaks$2.err"
}
jdwp_leaks "" ""
check "jvmticheck: JDWP with leaks=results: the class signatures, system properties and thread groups it keeps" \
    diff <(printf '%s\n' GetClassSignature GetSystemProperty GetTopThreadGroups "jvmticheck: 3 findings, 3 distinct") \
         <(sed -E 's/^jvmticheck: ([A-Za-z]+): [0-9]+ buffers? never deallocated \(memory leak\)$/\1/' "$d/jdwp-leaks.err")
jdwp_leaks "suppressions=check/jdwp.supp," -supp
check "jvmticheck: JDWP with leaks=results and check/jdwp.supp: all suppressed, no finding" \
    diff <(echo "jvmticheck: 0 findings, 0 distinct, 3 suppressed") "$d/jdwp-leaks-supp.err"

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
    python3 tests/jdb_session.py "$jdk/bin/jdb" $here "$d/jdb-plain" \
        "$JAVA" -agentlib:jdwp=$jdwp_opts -cp "$d" Debuggee >"$d/jdb-plain.txt" 2>"$d/jdb-plain.log"
    check "jvmticheck: jdb without the checker: the session's every answer" \
        bash -c 'test "$1" -eq 0 && grep -qx "Set deferred breakpoint Debuggee:6" "$2" &&
                 grep -qx "\[2\] Debuggee.main (Debuggee.java:12)" "$2" && grep -qx "height = 7" "$2" &&
                 grep -qx "Step completed: \"thread=main\", Debuggee.area(), line=7 bci=4" "$2" &&
                 grep -qx "product = 42" "$2" && grep -qx "The application exited" "$2"' \
        _ $? "$d/jdb-plain.txt"
    python3 tests/jdb_session.py "$jdk/bin/jdb" $here "$d/jdb-checked" \
        "$JAVA" -agentpath:"$CHECK_SO=leaks=results,suppressions=check/jdwp.supp,agent=$jdk/lib/libjdwp.so=$jdwp_opts" \
        -cp "$d" Debuggee >"$d/jdb-checked.txt" 2>"$d/jdb-checked.log"
    check "jvmticheck: jdb through jvmticheck: the same transcript" \
        bash -c 'test "$1" -eq 0 && diff "$2" "$3"' _ $? "$d/jdb-plain.txt" "$d/jdb-checked.txt"
    # With leaks=results and check/jdwp.supp: what JDWP keeps (the line
    # table of the breakpoint's method too) suppressed, nothing else found;
    # 4 suppressed, or up to 6 when jdb's disconnect raced the VM's death
    # and JDWP cleared a breakpoint and destroyed a raw monitor in the dead
    # phase (seen once in a loaded make check; jdwp.supp names both).
    check "jvmticheck: jdb through jvmticheck: the program's output, no finding (leaks=results, JDWP's kept buffers suppressed)" \
        bash -c 'grep -qx "total 46" "$1" && test "$(wc -l <"$2")" -eq 1 && grep -Eqx "jvmticheck: 0 findings, 0 distinct, [4-6] suppressed" "$2"' \
        _ "$d/jdb-checked/vm.out" "$d/jdb-checked/vm.err"
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
        finds attach-$how-null "jvmticheck: GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from buggy_null (libbuggy.so+0xOFF)
jvmticheck: 1 finding, 1 distinct"
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
