# Sourced by tests/checks/test.sh: the names jvmtigen refuses cover what the
# generated outputs (of the fixture valid.xml, spec/jvmti.xml and the JDK 17
# spec), the runtime headers they include, jni.h and the C library headers
# they include declare (reserved.py collects them with ctags and $CC).
check_reserved_derived() {
    local name="checks: every name the outputs, jni.h and the C library declare is refused"
    local inc specs d probe missing counts
    need_tool "$name" ctags python3 || return
    if ! ctags --version 2>/dev/null | grep -q Universal; then
        lack "$name" ctags "Debian: universal-ctags; this ctags is not Universal Ctags"; return
    fi
    if ! inc=$(jni_include); then skip "$name (no jni.h; set JNI_INCLUDE)"; return; fi
    need_tool "$name" "$CC" || return
    specs=("$FIXTURES/valid.xml" spec/jvmti.xml)
    if need_refs "$name: the JDK 17 spec's outputs" jdk17; then specs+=("$SHARED_SPECS/jdk17/jvmti.xml"); fi
    d=$(scratch reserved)
    probe=$d/probe.xml
    if ! python3 tests/checks/reserved.py probe "$JVMTIGEN" "$inc" "$CC" "$d" "${specs[@]}" \
        >"$probe" 2>"$d/counts"; then
        not_ok "$name (collecting the names failed)"; sed 's/^/# /' "$d/counts" | head -10; return
    fi
    counts=$(head -1 "$d/counts")
    # The collection finds what it must: a name of each source.
    local n absent=()
    for n in NULL EOF size_t memcpy va_list uint32_t JNI_OK JavaVM JVMTI_ERROR_MAX \
        JVMTI_VERSION_1_2 jvmtiError registered jvmtigen_phase_now; do
        grep -q "<constant id=\"$n\" " "$probe" || absent+=("$n")
    done
    for n in env functions; do
        grep -q "<param id=\"$n\">" "$probe" || absent+=("parameter $n")
    done
    if [ "${#absent[@]}" -gt 0 ]; then
        not_ok "$name (the collection misses: ${absent[*]})"; return
    fi
    missing=$("$JVMTIGEN" check --max-errors 0 "$probe" 2>&1 | python3 tests/checks/reserved.py refused "$probe")
    if [ -z "$missing" ]; then
        ok "$name ($counts)"
    else
        not_ok "$name ($counts)"; echo "# accepted: $missing" | fold -w 200 | head -20
    fi
}
check_reserved_derived
