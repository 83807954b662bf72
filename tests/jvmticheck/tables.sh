# Sourced by test.sh (uses its $d, $here, $CHECK_SO, $JNI_INCLUDE, $JAVA,
# $JAVAC): each checking environment's own function table.
#  - patcher.c patches RetransformClasses, RedefineClasses and
#    GetThreadState in its table; its hooks call the entries they
#    replaced, which still check (a NULL out-pointer through the hook is
#    found, named after the hook); a second agent (libplain.so) in the same
#    VM makes the same calls on its own table, which the patch never
#    reached. In the host and in HotSpot 17.
#  - slots.c calls slots its JDK 17 header calls reserved: a slot reserved
#    in the checker's spec, and (HotSpot 17 under a checker built from a
#    newer spec) functions the VM's table lacks: each a finding and
#    JVMTI_ERROR_NOT_AVAILABLE (98), never a jump to address 0.
#  - a checker built from the JDK 17 spec (make checker-from) on a JDK 25
#    VM: says so once at load, GetEnv refuses JVM TI 21 (JNI_EVERSION, -3)
#    and slot 118 (SuspendAllVirtualThreads in 21) is a finding; so are
#    callbacks set in JVM TI 25's longer jvmtiEventCallbacks after JDK 17's
#    last event (the VM gets no more than the checker's struct: VMInit
#    still comes).
#  - routes.c imports JNI_GetCreatedJavaVMs and defines JNI_OnLoad, two
#    routes to an environment the checker cannot wrap: a warning for each
#    at load (host and HotSpot 17); in HotSpot, a NULL out-pointer on the
#    environment from JNI_GetCreatedJavaVMs's JavaVM is the VM's answer and
#    no finding.

tables_agent() { # NAME SOURCE [CFLAGS...]: $d/libNAME.so
    local name=$1 src=$2
    shift 2
    "${CC:-cc}" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -g -shared -fPIC "$@" \
        -I"$JNI_INCLUDE" -I"$JNI_INCLUDE/linux" -o "$d/lib$name.so" "$here/$src"
}
if ! tables_agent patcher patcher.c || ! tables_agent plain patcher.c -DAGENT='"plain"' ||
    ! tables_agent slots slots.c || ! tables_agent routes routes.c; then
    not_ok "jvmticheck: patcher.c, slots.c and routes.c do not build"
    return 0
fi

# tables_run NAME CHECKER VM_COMMAND...: the VM with the checker CHECKER
# wrapping patcher (patch) and plain, or with CHECKER wrapping slots
# (NAME's word after "slots-"); out, err and status in $d/NAME.*.
tables_run() {
    local name=$1 so=$2
    shift 2
    case $name in
    *patch*) "$@" -agentpath:"$so=agent=$d/libpatcher.so=patch" -agentpath:"$so=agent=$d/libplain.so=plain" ;;
    *slots-*) "$@" -agentpath:"$so=agent=$d/libslots.so=${name##*slots-}" ;;
    *routes) "$@" -agentpath:"$so=agent=$d/libroutes.so" ;;
    esac >"$d/$name.out" 2>"$d/$name.err"
    echo $? >"$d/$name.status"
}

# The calls at VMInit (0: RetransformClasses and RedefineClasses of no
# class, in HotSpot and in the host, whose core has both since issue 32),
# GetThreadState, GetThreadState(NULL) (the VM's own
# 100, as warn mode forwards); the hooks counted only the patcher's calls.
patch_out() { # VM_RESULT_OF_THE_CLASS_CALLS [LINE_BEFORE_UNLOAD]
    printf '%s\n' "patcher: patched RetransformClasses, RedefineClasses, GetThreadState"
    local a
    for a in patcher plain; do
        printf '%s\n' "$a: RetransformClasses of no class returned $1" \
            "$a: RedefineClasses of no class returned $1" "$a: GetThreadState returned 0, alive 1" \
            "$a: GetThreadState(NULL) returned 100"
    done
    [ -z "${2:-}" ] || printf '%s\n' "$2"
    printf '%s\n' "patcher: hooks ran: RetransformClasses 1, RedefineClasses 1, GetThreadState 2" \
        "plain: hooks ran: RetransformClasses 0, RedefineClasses 0, GetThreadState 0"
}
null_findings() {
    printf '%s\n' "jvmticheck: [libpatcher.so] GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from hook_GetThreadState (libpatcher.so)" \
        "jvmticheck: [libplain.so] GetThreadState: thread_state_ptr must not be NULL (JVMTI_ERROR_NULL_POINTER), called from null_call (libplain.so)"
}
# The findings as these tests compare them: which findings come, from
# which caller. Where finding.c writes a call site as LIB+0xOFFSET and
# ends with a count (`N findings, M distinct`), both depend on the build
# or on the run, and are left out.
tables_err() {
    sed -E 's/(\.so)\+0x[0-9a-f]+\)$/\1)/' "$1" |
        grep -Ev '^jvmticheck: (\[[^]]*\] )?[0-9]+ findings?, [0-9]+ distinct$' || true
}
routes_warnings() {
    printf '%s\n' "jvmticheck: libroutes.so calls JNI_GetCreatedJavaVMs: the JavaVM that returns is the VM's own, and a JVM TI environment from it is unchecked" \
        "jvmticheck: libroutes.so has a JNI_OnLoad: if Java loads the library too (System.loadLibrary), the JavaVM that gets is the VM's own, and a JVM TI environment from it is unchecked"
}
reserved_finding="jvmticheck: reserved1: slot 1 is reserved in JVM TI \
$(sed -n 's/.*JVMTI_VERSION = .*version: \([0-9.]*\) .*/\1/p' "${RT_OUT:-out}/jvmti.h"), the version this checker was built from (JVMTI_ERROR_NOT_AVAILABLE), called from call_slot_1 (libslots.so)"

if [ -n "${JVMTI_HOST:-}" ] && [ -x "$JVMTI_HOST" ]; then
    host_hello() { "$JVMTI_HOST" "$@" Hello; }
    tables_run host-patch "$CHECK_SO" host_hello
    check "jvmticheck: host: an agent patches its table (RetransformClasses, RedefineClasses, GetThreadState), a second agent's is untouched" \
        bash -c 'test "$(cat "$1")" -eq 0 && diff <(cat) "$2"' _ "$d/host-patch.status" "$d/host-patch.out" < <(patch_out 0)
    check "jvmticheck: host: the entry the hook calls still checks (named after the hook), the other agent's calls are its own" \
        diff <(null_findings) <(tables_err "$d/host-patch.err")
    tables_run host-slots-reserved "$CHECK_SO" host_hello
    check "jvmticheck: host: a call through a reserved slot is a finding and JVMTI_ERROR_NOT_AVAILABLE" \
        bash -c 'test "$(cat "$1")" -eq 0 && grep -qx "slots: slot 1 returned 98" "$2" && diff <(echo "$4") "$3"' \
        _ "$d/host-slots-reserved.status" "$d/host-slots-reserved.out" <(tables_err "$d/host-slots-reserved.err") "$reserved_finding"
    tables_run host-routes "$CHECK_SO" host_hello
    check "jvmticheck: host: an agent that calls JNI_GetCreatedJavaVMs and has a JNI_OnLoad: a warning for each at load" \
        bash -c 'test "$(cat "$1")" -eq 0 && diff <(cat) "$2"' _ "$d/host-routes.status" <(tables_err "$d/host-routes.err") < <(routes_warnings)
else
    skip "jvmticheck: patched tables, empty slots and unchecked routes in the host need JVMTI_HOST (run through make check)"
fi

if [ -n "${SANITIZE:-}" ]; then
    skip "jvmticheck: patched tables, empty slots and unchecked routes in HotSpot: a $SANITIZE build of libjvmticheck.so cannot be loaded into java"
    return 0
fi
if [ ! -x "$JAVA" ] || [ ! -x "$JAVAC" ] || ! "$JAVA" -version 2>&1 | grep -q 'version "17[."]'; then
    skip "jvmticheck: patched tables, empty slots and unchecked routes in HotSpot 17: no JDK 17 java and javac in $jdk"
    return 0
fi
tables_classes=$(scratch jvmticheck-tables)
"$JAVAC" -d "$tables_classes" $here/Hello.java || { not_ok "jvmticheck: Hello.java does not build"; return 0; }
java17_hello() { "$JAVA" -XX:ErrorFile="$d/hs_err_%p.log" "$@" -cp "$tables_classes" Hello; }
tables_run hotspot-patch "$CHECK_SO" java17_hello
check "jvmticheck: HotSpot 17: an agent patches its table (RetransformClasses, RedefineClasses, GetThreadState), a second agent's is untouched" \
    bash -c 'test "$(cat "$1")" -eq 0 && diff <(cat) "$2"' _ "$d/hotspot-patch.status" "$d/hotspot-patch.out" < <(patch_out 0 "hello 0")
check "jvmticheck: HotSpot 17: the entry the hook calls still checks (named after the hook), the other agent's calls are its own" \
    diff <(null_findings) <(tables_err "$d/hotspot-patch.err")
tables_run hotspot-slots-reserved "$CHECK_SO" java17_hello
check "jvmticheck: HotSpot 17: a call through a reserved slot is a finding and JVMTI_ERROR_NOT_AVAILABLE" \
    bash -c 'test "$(cat "$1")" -eq 0 && grep -qx "slots: slot 1 returned 98" "$2" && diff <(echo "$4") "$3"' \
    _ "$d/hotspot-slots-reserved.status" "$d/hotspot-slots-reserved.out" <(tables_err "$d/hotspot-slots-reserved.err") "$reserved_finding"
if grep -q 'JNICALL \*ClearAllFramePops' "${RT_OUT:-out}/jvmti.h"; then
    tables_run hotspot-slots-absent "$CHECK_SO" java17_hello
    check "jvmticheck: HotSpot 17, a checker of a newer spec: functions the VM's table lacks (slots 67 and 118) are findings and JVMTI_ERROR_NOT_AVAILABLE" \
        bash -c 'test "$(cat "$1")" -eq 0 && diff <(printf "%s\n" "slots: GetEnv(JVM TI 17) returned 0" "slots: slot 67 returned 98" "slots: slot 118 returned 98" "hello 0") "$2" &&
                 diff <(cat) "$3"' _ "$d/hotspot-slots-absent.status" "$d/hotspot-slots-absent.out" <(tables_err "$d/hotspot-slots-absent.err") <<'EOF'
jvmticheck: ClearAllFramePops: the VM's JVM TI 17.0.0 has no such function (it came in 25) (JVMTI_ERROR_NOT_AVAILABLE), called from call_slot_67 (libslots.so)
jvmticheck: SuspendAllVirtualThreads: the VM's JVM TI 17.0.0 has no such function (it came in 21) (JVMTI_ERROR_NOT_AVAILABLE), called from call_slot_118 (libslots.so)
EOF
else
    skip "jvmticheck: functions HotSpot 17's table lacks: the checker is built from a spec without ClearAllFramePops (${RT_OUT:-out}/jvmti.h)"
fi
tables_run hotspot-routes "$CHECK_SO" java17_hello
check "jvmticheck: HotSpot 17: an agent that calls JNI_GetCreatedJavaVMs and has a JNI_OnLoad: a warning for each at load" \
    bash -c 'test "$(cat "$1")" -eq 0 && diff <(cat) "$2"' _ "$d/hotspot-routes.status" <(tables_err "$d/hotspot-routes.err") < <(routes_warnings)
check "jvmticheck: HotSpot 17: ... and the environment from JNI_GetCreatedJavaVMs's JavaVM is unchecked (the VM's 100 for a NULL out-pointer, no finding)" \
    diff <(printf '%s\n' "routes: GetThreadState(NULL) on its environment returned 100" "hello 0") "$d/hotspot-routes.out"

# A checker built from the JDK 17 spec, on a JDK 25.
java25=${JAVA25:-}
[ -n "$java25" ] || [ -z "${JDK25_HOME:-}" ] || java25=$JDK25_HOME/bin/java
[ -n "$java25" ] || java25=$(ls -d /usr/lib/jvm/*25*/bin/java 2>/dev/null | head -1)
if [ -z "$java25" ] || [ ! -x "$java25" ] || ! "$java25" -version 2>&1 | grep -q 'version "25[."]'; then
    skip "jvmticheck: a checker of the JDK 17 spec on a newer VM: no JDK 25 java${java25:+ at $java25} (set JAVA25 or JDK25_HOME, or install one under /usr/lib/jvm)"
elif need_refs "jvmticheck: a checker of the JDK 17 spec on JDK 25" jdk17; then
    tables_old=$(scratch jvmticheck-jdk17)
    if ${MAKE:-make} --no-print-directory checker-from CHECKER_SPEC="$SHARED_SPECS/jdk17/jvmti.xml" \
        CHECKER_DIR="$tables_old" CHECKER_FLAGS=--jvmti-version=17 >"$d/checker-jdk17.log" 2>&1; then
        java25_hello() { "$java25" -XX:ErrorFile="$d/hs_err_%p.log" "$@" -cp "$tables_classes" Hello; }
        tables_run jdk25-slots-newer "$tables_old/libjvmticheck.so" java25_hello
        check "jvmticheck: JDK 25, a checker of the JDK 17 spec: GetEnv refuses JVM TI 21 (JNI_EVERSION), gives 17; slot 118 answers JVMTI_ERROR_NOT_AVAILABLE" \
            bash -c 'test "$(cat "$1")" -eq 0 && diff <(printf "%s\n" "slots: GetEnv(JVM TI 21) returned -3, NULL" "slots: GetEnv(JVM TI 17) returned 0" "slots: slot 118 returned 98" "slots: SetEventCallbacks of JVM TI 25'"'"'s struct returned 0" "slots: VMInit" "hello 0") "$2"' \
            _ "$d/jdk25-slots-newer.status" "$d/jdk25-slots-newer.out"
        check "jvmticheck: JDK 25, a checker of the JDK 17 spec: says so once at load; slot 118 (SuspendAllVirtualThreads since 21) is a reserved one of its spec; VirtualThreadStart and End callbacks are said to go undelivered" \
            diff - <(tables_err "$d/jdk25-slots-newer.err") <<'EOF'
jvmticheck: the VM's JVM TI is 25.0.0, newer than the 17.0.0 this checker was built from: GetEnv refuses the versions after 17.0 (JNI_EVERSION)
jvmticheck: reserved118: slot 118 is reserved in JVM TI 17.0.0, the version this checker was built from (JVMTI_ERROR_NOT_AVAILABLE), called from call_slot_118 (libslots.so)
jvmticheck: SetEventCallbacks: callbacks sets 2 callbacks after the last event of JVM TI 17.0.0, the version this checker was built from: never delivered, called from set_newer_callbacks (libslots.so)
EOF
        tables_run jdk25-patch "$tables_old/libjvmticheck.so" java25_hello
        check "jvmticheck: JDK 25, a checker of the JDK 17 spec: said once for two agents; a patched table, the other agent's untouched" \
            bash -c 'test "$(cat "$1")" -eq 0 && diff <(cat) "$2" &&
                     diff <(echo "jvmticheck: the VM'"'"'s JVM TI is 25.0.0, newer than the 17.0.0 this checker was built from: GetEnv refuses the versions after 17.0 (JNI_EVERSION)"; printf "%s\n" "$4") "$3"' \
            _ "$d/jdk25-patch.status" "$d/jdk25-patch.out" <(tables_err "$d/jdk25-patch.err") "$(null_findings)" < <(patch_out 0 "hello 0")
    else
        not_ok "jvmticheck: make checker-from the JDK 17 spec"
        tail -5 "$d/checker-jdk17.log"
    fi
fi
