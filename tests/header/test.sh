#!/usr/bin/env bash
# jvmti.h against the JDK's own headers, and compiled under every C and C++
# standard the JDK's users build with.
. tests/lib.sh

JDK17_H=/usr/lib/jvm/java-17-openjdk-amd64/include/jvmti.h
JDK25_H=/usr/lib/jvm/temurin-25-jdk-amd64/include/jvmti.h
JNI_INC=$(jni_include)

# The part below the opening comment: the JDK's carries its license there,
# ours the spec's copyright lines; everything after must be the same bytes.
below_banner() { sed '1,/^ \*\/$/d' "$1"; }
# Tokens with comments and layout dropped (one per line).
tokens() { gcc -fpreprocessed -dD -E -P -x c "$1" 2>/dev/null | tr -s ' \t' '\n\n' | sed '/^$/d'; }

compare_with() { # NAME SPEC VERSION REFERENCE [WHAT THE REFERENCE IS]
    local name=$1 spec=$2 version=$3 ref=$4 what=${5:-the JDK\'s jvmti.h} d
    d=$(scratch "$name")
    if ! "$JVMTIGEN" -q --no-docs -o "$d" --jvmti-version "$version" "$spec"; then
        not_ok "header: $name: generation failed"; return
    fi
    # Guard: an empty tokenization on both sides must not pass as "equal".
    check "header: $name: the reference tokenizes ($(tokens "$ref" | wc -l) tokens)" \
        test "$(tokens "$ref" | wc -l)" -gt 1000
    check "header: $name equals $what token for token" \
        diff <(tokens "$ref") <(tokens "$d/jvmti.h")
    check "header: $name equals $what byte for byte below the banner" \
        diff <(below_banner "$ref") <(below_banner "$d/jvmti.h")
}

if need_refs "header: jdk17 equals the JDK's jvmti.h" jdk17; then
    if [ -f "$JDK17_H" ]; then
        compare_with jdk17 "$SHARED_SPECS/jdk17/jvmti.xml" 17 "$JDK17_H"
    else
        lack "header: jdk17 equals the JDK's jvmti.h" "$JDK17_H" "Debian: openjdk-17-jdk-headless"
    fi
fi
if [ ! -f "$JDK25_H" ]; then
    skip "header: jdk25: no JDK 25 header on this machine ($JDK25_H)"
elif need_refs "header: jdk25 equals the JDK's jvmti.h" jdk25; then
    compare_with jdk25 "$SHARED_SPECS/jdk25/jvmti.xml" 25 "$JDK25_H"
fi

# The banner carries the spec's copyright line, and no license text; the
# default version is the spec's latest change. The project's own spec, and
# JDK 17's where it is here.
banner() { # NAME SPEC COPYRIGHT_LINE VERSION
    local d
    d=$(scratch banner)
    "$JVMTIGEN" -q -o "$d" "$2"
    check "header: $1: banner keeps the spec's copyright line" grep -qxF " * $3" "$d/jvmti.h"
    check "header: $1: banner embeds no license text" \
        bash -c "! grep -qi 'General Public License' '$d/jvmti.h'"
    check "header: $1: the default version is the spec's latest change ($4.0.0)" \
        grep -qF "JVMTI_VERSION = 0x30000000 + ($4 * 0x10000) + ( 0 * 0x100) + 0  /* version: $4.0.0 */" "$d/jvmti.h"
}
banner own spec/jvmti.xml 'Copyright (c) 2026, the jvmtigen authors.' 25
need_refs "header: jdk17: the banner of OpenJDK's spec" jdk17 &&
    banner jdk17 "$SHARED_SPECS/jdk17/jvmti.xml" \
        'Copyright (c) 2002, 2021, Oracle and/or its affiliates. All rights reserved.' 17

# Each release's style: tests/header/eras.sh.
. tests/header/eras.sh

# Every spec's header compiles, pedantically, as C and as C++.
probe_c='#include "jvmti.h"
typedef char capabilities_are_128_bits[sizeof(jvmtiCapabilities) == 16 ? 1 : -1];
jvmtiError probe(jvmtiEnv *env, jthread t, jint *state);
jvmtiError probe(jvmtiEnv *env, jthread t, jint *state) {
    jvmtiEventCallbacks cb;
    cb.VMInit = 0;
    (void)cb;
    return (*env)->GetThreadState(env, t, state);
}'
probe_cxx='#include "jvmti.h"
jvmtiError probe(jvmtiEnv *env, jthread t, jint *state) {
    return env->GetThreadState(t, state);
}'
for spec in own jdk17 jdk25 mainline; do
    if [ "$spec" = own ]; then file=spec/jvmti.xml
    else need_refs "header: $spec compiles as C and C++" "$spec" || continue; file=$SHARED_SPECS/$spec/jvmti.xml; fi
    d=$(scratch "compile-$spec")
    "$JVMTIGEN" -q -o "$d" "$file" || { not_ok "header: $spec: generation failed"; continue; }
    printf '%s\n' "$probe_c" > "$d/probe.c"
    printf '%s\n' "$probe_cxx" > "$d/probe.cc"
    for cc in gcc clang; do
        need_tool "header: $spec compiles with $cc" $cc || continue
        for std in c89 c99 c11 c17; do
            check "header: $spec compiles with $cc -std=$std -pedantic" \
                $cc -std=$std -pedantic -Wall -Wextra -Werror -isystem "$JNI_INC" \
                    -isystem "$JNI_INC/linux" -I"$d" -c "$d/probe.c" -o "$d/probe-$cc-$std.o"
        done
    done
    for cxx in g++ clang++; do
        need_tool "header: $spec compiles with $cxx" $cxx || continue
        for std in c++98 c++11 c++17 c++20; do
            check "header: $spec compiles with $cxx -std=$std -pedantic" \
                $cxx -std=$std -pedantic -Wall -Wextra -Werror -isystem "$JNI_INC" \
                    -isystem "$JNI_INC/linux" -I"$d" -c "$d/probe.cc" -o "$d/probe-$cxx-$std.o"
        done
    done
done
