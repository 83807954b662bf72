# Sourced by test.sh (uses its $d, $here, $CHECK_SO, $JNI_INCLUDE, $JAVA,
# $JAVAC): each checking environment's own function table.
#  - patcher.c patches RetransformClasses, RedefineClasses and
#    GetThreadState in its table; its hooks call the entries they
#    replaced, which still check (a NULL out-pointer through the hook is
#    found, named after the hook); a second agent (libplain.so) in the same
#    VM makes the same calls on its own table, which the patch never
#    reached. In the host and in HotSpot 17.

tables_agent() { # NAME SOURCE [CFLAGS...]: $d/libNAME.so
    local name=$1 src=$2
    shift 2
    "${CC:-cc}" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -g -shared -fPIC "$@" \
        -I"$JNI_INCLUDE" -I"$JNI_INCLUDE/linux" -o "$d/lib$name.so" "$here/$src"
}
if ! tables_agent patcher patcher.c || ! tables_agent plain patcher.c -DAGENT='"plain"'; then
    not_ok "jvmticheck: patcher.c does not build"
    return 0
fi

# tables_run NAME CHECKER VM_COMMAND...: the VM with the checker CHECKER
# wrapping patcher (patch) and plain; out, err and status in $d/NAME.*.
tables_run() {
    local name=$1 so=$2
    shift 2
    case $name in
    *patch*) "$@" -agentpath:"$so=agent=$d/libpatcher.so=patch" -agentpath:"$so=agent=$d/libplain.so=plain" ;;
    esac >"$d/$name.out" 2>"$d/$name.err"
    echo $? >"$d/$name.status"
}

# The calls at VMInit (0: RetransformClasses and RedefineClasses of no
# class in HotSpot; 99, MUST_POSSESS_CAPABILITY, in the host, which has
# neither capability), GetThreadState, GetThreadState(NULL) (the VM's own
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
if [ -n "${JVMTI_HOST:-}" ] && [ -x "$JVMTI_HOST" ]; then
    host_hello() { "$JVMTI_HOST" "$@" Hello; }
    tables_run host-patch "$CHECK_SO" host_hello
    check "jvmticheck: host: an agent patches its table (RetransformClasses, RedefineClasses, GetThreadState), a second agent's is untouched" \
        bash -c 'test "$(cat "$1")" -eq 0 && diff <(cat) "$2"' _ "$d/host-patch.status" "$d/host-patch.out" < <(patch_out 99)
    check "jvmticheck: host: the entries the hooks call still check (named after the hook), the other agent's calls are its own" \
        diff <(printf '%s\n' \
            "jvmticheck: [libpatcher.so] RetransformClasses: requires the capability can_retransform_classes (JVMTI_ERROR_MUST_POSSESS_CAPABILITY), called from hook_RetransformClasses (libpatcher.so)" \
            "jvmticheck: [libpatcher.so] RedefineClasses: requires the capability can_redefine_classes (JVMTI_ERROR_MUST_POSSESS_CAPABILITY), called from hook_RedefineClasses (libpatcher.so)" \
            "$(null_findings | head -1)" \
            "jvmticheck: [libplain.so] RetransformClasses: requires the capability can_retransform_classes (JVMTI_ERROR_MUST_POSSESS_CAPABILITY), called from on_vm_init (libplain.so)" \
            "jvmticheck: [libplain.so] RedefineClasses: requires the capability can_redefine_classes (JVMTI_ERROR_MUST_POSSESS_CAPABILITY), called from on_vm_init (libplain.so)" \
            "$(null_findings | tail -1)") "$d/host-patch.err"
else
    skip "jvmticheck: patched tables in the host need JVMTI_HOST (run through make check)"
fi

if [ -n "${SANITIZE:-}" ]; then
    skip "jvmticheck: patched tables in HotSpot: a $SANITIZE build of libjvmticheck.so cannot be loaded into java"
    return 0
fi
if [ ! -x "$JAVA" ] || [ ! -x "$JAVAC" ] || ! "$JAVA" -version 2>&1 | grep -q 'version "17[."]'; then
    skip "jvmticheck: patched tables in HotSpot 17: no JDK 17 java and javac in $jdk"
    return 0
fi
tables_classes=$(scratch jvmticheck-tables)
"$JAVAC" -d "$tables_classes" $here/Hello.java || { not_ok "jvmticheck: Hello.java does not build"; return 0; }
java17_hello() { "$JAVA" -XX:ErrorFile="$d/hs_err_%p.log" "$@" -cp "$tables_classes" Hello; }
tables_run hotspot-patch "$CHECK_SO" java17_hello
check "jvmticheck: HotSpot 17: an agent patches its table (RetransformClasses, RedefineClasses, GetThreadState), a second agent's is untouched" \
    bash -c 'test "$(cat "$1")" -eq 0 && diff <(cat) "$2"' _ "$d/hotspot-patch.status" "$d/hotspot-patch.out" < <(patch_out 0 "hello 0")
check "jvmticheck: HotSpot 17: the entry the hook calls still checks (named after the hook), the other agent's calls are its own" \
    diff <(null_findings) "$d/hotspot-patch.err"
