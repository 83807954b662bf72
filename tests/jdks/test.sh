#!/usr/bin/env bash
# The runtime core, bin/jvmti-host and libjvmticheck.so built from OpenJDK's
# own specs (../shared/spec: jdk17, jdk25, mainline), each in a scratch
# build of its own (bin/, lib/ and out/ are the other suites'): each builds
# warning-free, its host reports the spec's release through GetVersionNumber
# (directly and through its checker) and refuses GetEnv of the release
# after it; the runtime suite (tests/runtime/test.sh) runs on the JDK 17
# and JDK 25 cores, its lines prefixed with the spec's name (mainline only
# builds and reports its version: it differs from 25 by a capability).
# Needs what `make check` passes (CC, SANITIZE, JNI_INCLUDE); skips each
# spec that ../shared/spec lacks.
. tests/lib.sh
CC=${CC:-cc}
JNI_INCLUDE=$(jni_include)

# The release each spec states, as JDK 17's and JDK 25's own jvmti.h write
# JVMTI_VERSION (0x30000000 + feature << 16 + minor << 8 + micro): written
# here, never read from the generated header under test.
declare -A version=([jdk17]=0x30110000 [jdk25]=0x30190000 [mainline]=0x301c0000)
declare -A flags=([jdk17]=--jvmti-version=17 [jdk25]= [mainline]=)

for v in jdk17 jdk25 mainline; do
    need_refs "jdks: $v" "$v" || continue
    spec=$SHARED_SPECS/$v/jvmti.xml
    # The build (tests/lib.sh's shared_build: the jdb suite uses JDK 17's
    # too, and a build still up to date from an earlier run is kept); the
    # agent in a scratch folder.
    a=$(scratch "jdks-$v")
    if ! shared_build "$v" "$spec" "--no-docs --templates $PWD/templates ${flags[$v]}" runtime; then
        not_ok "jdks: $v: the core, jvmti-host and libjvmticheck.so build"
        grep -E 'error|Error' "$SHARED_BUILD.log" | head -20
        continue
    fi
    o=$SHARED_BUILD
    ok "jdks: $v: the core, jvmti-host and libjvmticheck.so build${flags[$v]:+ (${flags[$v]})}"

    # The version the host reports, to an agent compiled with the spec's jvmti.h.
    san=()
    [ -n "${SANITIZE:-}" ] && san=(-fsanitize="$SANITIZE")
    if "$CC" -std=c11 -Wall -Wextra -Werror -fPIC -shared "${san[@]}" -I"$o/out" -I"$JNI_INCLUDE" \
        -I"$JNI_INCLUDE/linux" -o "$a/version_agent.so" tests/jdks/version_agent.c 2>"$a/agent.log"; then
        next=$(printf '0x%x' $(( ${version[$v]} + 0x10000 )))
        want="version-agent: GetVersionNumber error 0 version ${version[$v]}; GetEnv($next) refused"
        got=$("$o/bin/jvmti-host" -agentpath:"$a/version_agent.so" 2>&1)
        [ "$got" = "$want" ] && ok "jdks: $v: jvmti-host reports ${version[$v]} and refuses GetEnv($next)" ||
            { not_ok "jdks: $v: jvmti-host should report ${version[$v]}"; echo "$got" | head -5; }
        got=$("$o/bin/jvmti-host" -agentpath:"$o/lib/libjvmticheck.so=agent=$a/version_agent.so" 2>&1)
        [ "$got" = "$want" ] && ok "jdks: $v: ... and so through its libjvmticheck.so, with no finding" ||
            { not_ok "jdks: $v: through libjvmticheck.so the agent should see ${version[$v]}"; echo "$got" | head -5; }
    else
        not_ok "jdks: $v: the version agent does not build"; head -10 "$a/agent.log"
    fi

    [ "$v" = mainline ] && continue
    RT_LIB=$o/lib/libjvmtirt.a RT_SO=$o/lib/libjvmtirt.so RT_OUT=$o/out RT_SPEC=$spec \
        RT_VERSION=${version[$v]} JVMTI_HOST=$o/bin/jvmti-host bash tests/runtime/test.sh 2>&1 |
        sed -E "s/^(ok|not ok|skip) - /\1 - jdks: $v: /"
done
exit 0
