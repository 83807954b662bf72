#!/usr/bin/env bash
# Negative tests for the model checks (gen/model/check.c, gen/model/build.c) and for the
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

# warn_NAME.xml: valid specs that get warnings: exit 0, exactly the expected
# stderr, every output written.
check_warned() {
    local name=$1 out status problems=()
    out=$(scratch "$name")
    "$JVMTIGEN" -o "$out" "$FIXTURES/$name.xml" 2>"$out.stderr" >/dev/null
    status=$?
    [ "$status" -eq 0 ] || problems+=("exit status $status (expected 0)")
    local diffout
    diffout=$(diff -u "$FIXTURES/$name.expected" "$out.stderr" 2>&1) ||
        problems+=("stderr differs from $FIXTURES/$name.expected")
    [ -f "$out/jvmti.h" ] && [ -f "$out/jvmti.html" ] || problems+=("outputs missing")
    if [ "${#problems[@]}" -eq 0 ]; then
        ok "checks: $name warns and generates"
    else
        not_ok "checks: $name warns and generates"
        printf '# %s\n' "${problems[@]}"
        [ -n "$diffout" ] && printf '%s\n' "$diffout" | cat -v | sed 's/^/# /'
    fi
}
for spec in "$FIXTURES"/warn_*.xml; do
    [ -e "$spec" ] || continue
    check_warned "$(basename "$spec" .xml)"
done

# What the warned specs generate. A blank synopsis leaves no link, index
# entry or man page NAME empty: the item's id stands in (a function's NAME
# is its description's first sentence, when it has one).
name_line() { grep -A1 -x '.SH NAME' "$1" | tail -1; }
blank_synopsis_html() {
    ! grep -Eq '<a href="#(GetStrokes|jvmtiVisitCallback)"></a>|<td></td>' "$1/jvmti.html" &&
        grep -q '<li><a href="#GetStrokes">GetStrokes</a></li>' "$1/jvmti.html"
}
blank_synopsis_man() {
    [ "$(name_line "$1/man/man3/GetStrokes.3")" = 'GetStrokes \- Returns the strokes, each a jvmtiPoint' ] &&
        [ "$(name_line "$1/man/man3/jvmtiVisitCallback.3")" = 'jvmtiVisitCallback \- jvmtiVisitCallback' ]
}
d=$(scratch synopsis)
"$JVMTIGEN" -o "$d" "$FIXTURES/warn_empty_synopsis.xml" 2>/dev/null
check "checks: a blank synopsis gives no empty link in jvmti.html" blank_synopsis_html "$d"
check "checks: a blank synopsis gives a man page NAME with the description's first sentence (a function) or the id (a callback)" blank_synopsis_man "$d"
# <specification majorversion= minorversion=> is the version (2.0.0), not
# the change history's 1.1.0.
stated_version() {
    grep -Fq 'JVMTI_VERSION = 0x30000000 + (2 * 0x10000) + (0 * 0x100) + 0  /* version: 2.0.0 */' "$1/jvmti.h" &&
        grep -Fq 'class="version">Version 2.0.0<' "$1/jvmti.html"
}
d=$(scratch stated)
"$JVMTIGEN" -o "$d" "$FIXTURES/warn_since_attributes.xml" 2>/dev/null
check "checks: <specification majorversion=2 minorversion=0> makes JVMTI_VERSION 2.0.0" stated_version "$d"

# ok_const_c_values.xml: the values C gives its constants, written by hand,
# asserted against the jvmti.h it generates, and the values `model` prints
# for its literals equal to them (-0xFFFFFFFF is 1 in C).
check_const_values() {
    local name="checks: ok_const_c_values: C computes the values written by hand"
    local inc out
    if ! inc=$(jni_include); then skip "$name (no jni.h; set JNI_INCLUDE)"; return; fi
    if ! command -v "$CC" >/dev/null 2>&1; then skip "$name (no compiler '$CC')"; return; fi
    out=$(scratch const-values)
    if ! "$JVMTIGEN" -o "$out" "$FIXTURES/ok_const_c_values.xml" 2>"$out.err"; then
        not_ok "$name"; sed 's/^/# /' "$out.err"; return
    fi
    cat >"$out/values.c" <<'C'
#include "jvmti.h"
_Static_assert(JVMTI_INT_MIN == -2147483647 - 1, "JVMTI_INT_MIN");
_Static_assert(JVMTI_NEG_WRAP == 1, "JVMTI_NEG_WRAP");
_Static_assert(JVMTI_LOW == 0x10000000, "JVMTI_LOW");
_Static_assert(JVMTI_WRAP == 0, "JVMTI_WRAP");
_Static_assert(JVMTI_NOT_TOP == 2147483647, "JVMTI_NOT_TOP");
_Static_assert(JVMTI_MINUS_ONE == -1, "JVMTI_MINUS_ONE");
_Static_assert(JVMTI_TOP == 2147483647, "JVMTI_TOP");
_Static_assert(JVMTI_WIDE_WRAP == 1, "JVMTI_WIDE_WRAP");
_Static_assert(JVMTI_PRECEDENCE == 3, "JVMTI_PRECEDENCE");
C
    local cerr json
    if ! cerr=$("$CC" -std=c11 -fsyntax-only -I"$inc" -I"$inc/linux" -I"$out" "$out/values.c" 2>&1); then
        not_ok "$name"; printf '%s\n' "$cerr" | head -20 | sed 's/^/# /'; return
    fi
    json=$("$JVMTIGEN" model "$FIXTURES/ok_const_c_values.xml" | tr -d ' \n')
    case "$json" in
    *'"id":"JVMTI_INT_MIN","num":"-2147483648","value":-2147483648'*'"id":"JVMTI_NEG_WRAP","num":"-0xFFFFFFFF","value":1}'*)
        ok "$name" ;;
    *) not_ok "$name"; echo "# model does not give JVMTI_INT_MIN -2147483648 and JVMTI_NEG_WRAP 1" ;;
    esac
}
check_const_values

# The function table's last slot is derived from the spec (gen/model/facts.h):
# at least 1024, else 8 for each function. valid.xml with its Paint written
# over and over up to 129 functions (1032 slots): the last at 1032 is
# accepted, at 1033 refused, naming the range and why.
check_derived_range() {
    local d last others
    d=$(scratch derived-range)
    # the functions beside Paint that the table holds (an elided one is not)
    others=$(($(grep -c '<function ' "$FIXTURES/valid.xml") - $(grep -c '<elide ' "$FIXTURES/valid.xml") - 1))
    for last in 1032 1033; do
        awk -v last="$last" -v copies=$((129 - others)) -v dtd="$PWD/spec/jvmti.dtd" '
            /<function id="Paint"/ { infn = 1 }
            infn { body = body $0 "\n" }
            !infn { sub(/SYSTEM "[^"]*"/, "SYSTEM \"" dtd "\""); print }
            infn && /<\/function>/ {
                infn = 0
                for (i = 1; i <= copies; i++) {
                    b = body
                    sub(/id="Paint" num="1"/, "id=\"Paint" i "\" num=\"" (i == copies ? last : 100 + i) "\"", b)
                    printf "%s", b
                }
            }' "$FIXTURES/valid.xml" >"$d/fns-$last.xml"
    done
    local err status line want
    err=$("$JVMTIGEN" check "$d/fns-1032.xml" 2>&1)
    status=$?
    if [ "$status" -eq 0 ] && [ -z "$err" ]; then ok "checks: 129 functions may number up to 1032 (8 each)"
    else not_ok "checks: 129 functions may number up to 1032 (8 each)"; printf '%s\n' "$err" | sed 's/^/# /'; fi
    err=$("$JVMTIGEN" check "$d/fns-1033.xml" 2>&1)
    status=$?
    line=$(grep -n "num=\"1033\"" "$d/fns-1033.xml" | cut -d: -f1)
    want="$d/fns-1033.xml:$line: error: function 'Paint$((129 - others))': num 1033 is out of range 1..1032 (the larger of 1024 and 8 times the spec's 129 functions)"
    if [ "$status" -eq 1 ] && [ "$err" = "$want" ]; then ok "checks: 129 functions may not number 1033"
    else not_ok "checks: 129 functions may not number 1033"; printf '# status %s\n# got:  %s\n# want: %s\n' "$status" "$err" "$want"; fi
}
check_derived_range
. tests/checks/reserved.sh

found=0
for expected in "$FIXTURES"/*.expected; do
    [ -e "$expected" ] || continue
    name=$(basename "$expected" .expected)
    case "$name" in warn_*) continue ;; esac
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
