#!/usr/bin/env bash
# Negative tests for the model checks (gen/spec/check.c, gen/spec/build.c) and for the
# loader's XML errors.
#
#   tests/checks/fixtures/valid.xml     a small spec that must pass and whose
#                                       jvmti.h must compile
#   tests/checks/fixtures/NAME.xml      a trimmed copy of it breaking one rule
#   tests/checks/fixtures/ok_NAME.xml   a spec near a rule's edge that must pass
#   tests/checks/fixtures/NAME.expected the exact stderr for it, as printed by
#                                       `$JVMTIGEN -o DIR tests/checks/fixtures/NAME.xml`
#                                       run from the project root
#
# Each invalid spec must exit with status 1, print exactly the expected
# diagnostics and leave the output directory as it found it.
# Run from the project root: JVMTIGEN=bin/jvmtigen bash tests/checks/test.sh
# Environment: JVMTIGEN, CC (default gcc), JNI_INCLUDE (the directory holding
# jni.h; default: $JAVA_HOME/include or the Debian OpenJDK 17 one).
set -u
own_tmp=${TESTS_TMP:+no}
. tests/lib.sh
# Standalone runs get a temp dir from lib.sh; remove it when done.
[ -z "$own_tmp" ] && trap 'rm -rf "$TESTS_TMP"' EXIT

FIXTURES=tests/checks/fixtures
CC="${CC:-gcc}"

if [ ! -x "$JVMTIGEN" ]; then
    not_ok "checks: generator '$JVMTIGEN' is not an executable file"
    exit 1
fi

# ---- the valid spec ----


check_valid() {
    local out err status
    out=$(scratch valid)
    err=$("$JVMTIGEN" -o "$out" "$FIXTURES/valid.xml" 2>&1 >/dev/null)
    status=$?
    if [ "$status" -ne 0 ] || [ ! -f "$out/jvmti.h" ]; then
        not_ok "checks: valid"
        echo "# exit status $status (expected 0); output: $(ls -A "$out" | tr '\n' ' ')"
        printf '%s\n' "$err" | head -20 | cat -v | sed 's/^/# /'
        return
    fi
    ok "checks: valid"

    local inc
    inc=$(jni_include) || { lack "checks: valid jvmti.h compiles" jni.h; return; }
    need_tool "checks: valid jvmti.h compiles" "$CC" || return
    local cerr
    if cerr=$("$CC" -fsyntax-only -I"$inc" -I"$inc/linux" -x c "$out/jvmti.h" 2>&1); then
        ok "checks: valid jvmti.h compiles"
    else
        not_ok "checks: valid jvmti.h compiles"
        printf '%s\n' "$cerr" | head -20 | sed 's/^/# /'
    fi
}

# ---- the invalid specs ----

check_invalid() {
    local name=$1 spec="$FIXTURES/$1.xml" expected="$FIXTURES/$1.expected"
    local out actual status problems=()
    out=$(scratch "$name")
    actual="$out.stderr"
    printf 'untouched\n' >"$out/keep.txt"
    # A fixed, old mtime: any rewrite of keep.txt shows, however fast the run.
    touch -d '2001-02-03 04:05:06' "$out/keep.txt"
    local mtime_before
    mtime_before=$(stat -c %Y "$out/keep.txt")

    "$JVMTIGEN" -o "$out" "$spec" 2>"$actual" >/dev/null
    status=$?

    [ "$status" -eq 1 ] || problems+=("exit status $status (expected 1)")
    local diffout
    if ! diffout=$(diff -u "$expected" "$actual" 2>&1); then
        problems+=("stderr differs from $expected")
    fi
    local listing
    listing=$(ls -A "$out")
    if [ "$listing" != "keep.txt" ]; then
        problems+=("output directory holds: $(printf '%s' "$listing" | tr '\n' ' ')")
    fi
    if [ -f "$out/keep.txt" ]; then
        [ "$(cat "$out/keep.txt")" = "untouched" ] || problems+=("keep.txt was changed")
        [ "$(stat -c %Y "$out/keep.txt")" = "$mtime_before" ] ||
            problems+=("keep.txt has a new mtime")
    else
        problems+=("keep.txt is gone")
    fi

    if [ "${#problems[@]}" -eq 0 ]; then
        ok "checks: $name"
    else
        not_ok "checks: $name"
        local p
        for p in "${problems[@]}"; do
            echo "# $p"
        done
        # cat -v: a stray byte in a diagnostic must not turn the log binary.
        [ -n "$diffout" ] && printf '%s\n' "$diffout" | cat -v | sed 's/^/# /'
    fi
}

check_valid

# ok_NAME.xml: specs near a rule's edge that must still be accepted.
for spec in "$FIXTURES"/ok_*.xml; do
    [ -e "$spec" ] || continue
    name=$(basename "$spec" .xml)
    err=$("$JVMTIGEN" check "$spec" 2>&1)
    if [ $? -eq 0 ] && [ -z "$err" ]; then ok "checks: $name is accepted"
    else not_ok "checks: $name is accepted"; printf '%s\n' "$err" | cat -v | sed 's/^/# /'; fi
done

found=0
for expected in "$FIXTURES"/*.expected; do
    [ -e "$expected" ] || continue
    name=$(basename "$expected" .expected)
    if [ ! -f "$FIXTURES/$name.xml" ]; then
        not_ok "checks: $name (no $FIXTURES/$name.xml)"
        continue
    fi
    found=$((found + 1))
    check_invalid "$name"
done

# Every fixture but the valid one needs an expectation.
for spec in "$FIXTURES"/*.xml; do
    name=$(basename "$spec" .xml)
    case "$name" in valid | ok_*) continue ;; esac
    [ -f "$FIXTURES/$name.expected" ] || not_ok "checks: $name (no $FIXTURES/$name.expected)"
done

[ "$found" -gt 0 ] || not_ok "checks: no fixtures found in $FIXTURES"
exit 0
