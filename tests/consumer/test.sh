#!/usr/bin/env bash
# A project that embeds jvmtigen in its build (this folder: main.c, Makefile,
# CMakeLists.txt), built in a temporary copy with the project's spec and DTD:
#   - with make (-MD -MT stamp) and with CMake (add_custom_command with a
#     DEPFILE; Unix Makefiles, and Ninja where installed);
#   - the program prints what the spec says;
#   - a second build does nothing; touching the spec or its DTD re-runs
#     jvmtigen and compiles nothing; a spec whose content changes rebuilds
#     the program, which then prints the new facts.
# Uses JVMTIGEN, CC and JNI_INCLUDE (from make check).
. tests/lib.sh
need_tool "consumer" make || exit 0
CC=${CC:-cc}
JNI_INCLUDE=$(jni_include)
case $JVMTIGEN in /*) ;; *) JVMTIGEN=$PWD/$JVMTIGEN ;; esac
d=$(scratch consumer)

# What the program must print, read from the spec (not from jvmtigen): the
# version of its latest change, and the number of JVMTI_ERROR_INVALID_THREAD.
invalid_thread=$(sed -n 's/.*<errorid id="JVMTI_ERROR_INVALID_THREAD" num="\([0-9]*\)".*/\1/p' spec/jvmti.xml)
latest=$(sed -n 's/.*<change date="[^"]*" version="\([0-9]*\)\.0\.0">.*/\1/p' spec/jvmti.xml | sort -n | tail -1)
version_hex() { printf '0x%08x' $((0x30000000 + ($1 << 16))); }

new_copy() { # DIR: the consumer project with the spec and its DTD
    mkdir -p "$1"
    cp tests/consumer/main.c tests/consumer/Makefile tests/consumer/CMakeLists.txt spec/jvmti.xml spec/jvmti.dtd "$1/"
}
# The spec with one more change: a new version, so JVMTI_VERSION changes.
bump_version() {
    sed -i 's|</changehistory>|<change date="1 January 2099" version="99.0.0">A test.</change></changehistory>|' "$1"
}
expect_output() { # DESC PROGRAM VERSION
    local out
    out=$("$2" 2>&1)
    if [ "$(sed -n 1p <<<"$out")" = "version $(version_hex "$3")" ] &&
       [ "$(sed -n 2p <<<"$out")" = "$invalid_thread JVMTI_ERROR_INVALID_THREAD" ]; then
        ok "$1"
    else
        not_ok "$1 (wanted version $(version_hex "$3"), error $invalid_thread)"; printf '%s\n' "$out"
    fi
}
stamps() { # the times of the files a build writes, but the stamp and depfile
    find "$1" -type f ! -name stamp ! -name '*.d' ! -path '*/CMakeFiles/*' ! -name '.ninja*' \
        ! -name 'CMakeCache.txt' ! -name jvmti.xml ! -name jvmti.dtd -printf '%p %T@\n' | sort
}

# ---- make ----
m=$d/make
new_copy "$m"
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$m" --no-print-directory \
        JVMTIGEN="$JVMTIGEN" JNI_INCLUDE="$JNI_INCLUDE" CC="$CC" "$@" 2>&1; }
if out=$(mk); then
    ok "consumer: make: the consumer builds ($(grep -c "$CC .* -c " <<<"$out") compilations)"
    expect_output "consumer: make: the program prints the spec's version ($latest) and an error number" "$m/consumer" "$latest"
    check "consumer: make: -MD -MT wrote gen/jvmtigen.d with the stamp as the target of the spec, DTD and templates" \
        bash -c "grep -q '^gen/stamp: ' '$m/gen/jvmtigen.d' && grep -q '^ jvmti.xml ' '$m/gen/jvmtigen.d' \
                 && grep -q '^ jvmti.dtd ' '$m/gen/jvmtigen.d' && grep -q 'templates/html.xsl' '$m/gen/jvmtigen.d'"
    before=$(stamps "$m")
    out=$(mk)
    [ "$out" = "make: 'consumer' is up to date." ] && [ "$(stamps "$m")" = "$before" ] &&
        ok "consumer: make: a second make does nothing" || { not_ok "consumer: make: a second make did something"; echo "$out"; }
    for f in jvmti.xml jvmti.dtd; do
        sleep 0.01; touch "$m/$f"
        out=$(mk)
        if grep -q -- "-MD -MT gen/stamp -o gen jvmti.xml" <<<"$out" && ! grep -q " -c " <<<"$out" &&
           [ "$(stamps "$m")" = "$before" ]; then
            ok "consumer: make: touching $f re-runs jvmtigen, which changes nothing, so nothing is compiled"
        else
            not_ok "consumer: make: after touching $f"; echo "$out"
        fi
        out=$(mk)
        [ "$out" = "make: 'consumer' is up to date." ] && ok "consumer: make: ... and the make after that does nothing" ||
            { not_ok "consumer: make: the make after touching $f did something"; echo "$out"; }
    done
    bump_version "$m/jvmti.xml"
    out=$(mk)
    [ "$(grep -c -e " -c -o main.o" -e " -c -o jvmtigen_tables.o" <<<"$out")" -eq 2 ] &&
        ok "consumer: make: a new version in the spec regenerates and recompiles" ||
        { not_ok "consumer: make: a new version in the spec"; echo "$out"; }
    expect_output "consumer: make: the program prints the new version" "$m/consumer" 99
    out=$(mk)
    [ "$out" = "make: 'consumer' is up to date." ] && ok "consumer: make: and a second make does nothing" ||
        { not_ok "consumer: make: after the new version, a second make did something"; echo "$out"; }
else
    not_ok "consumer: make: the consumer does not build"; echo "$out" | tail -20
fi

# ---- CMake ----
need_tool "consumer: cmake" cmake || exit 0
generators=("Unix Makefiles")
need_tool "consumer: cmake with Ninja (Unix Makefiles only)" ninja && generators+=(Ninja)
for gen in "${generators[@]}"; do
    c=$d/cmake-${gen// /-}
    new_copy "$c/src"
    b=$c/build
    cm() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL cmake --build "$b" 2>&1; }
    if ! env -u MAKEFLAGS cmake -S "$c/src" -B "$b" -G "$gen" -DCMAKE_C_COMPILER="$CC" -DJVMTIGEN="$JVMTIGEN" \
            -DJNI_INCLUDE_DIR="$JNI_INCLUDE" >"$c/configure.log" 2>&1; then
        not_ok "consumer: cmake ($gen): configure fails"; tail -10 "$c/configure.log"; continue
    fi
    if ! out=$(cm); then
        not_ok "consumer: cmake ($gen): the consumer does not build"; tail -20 <<<"$out"; continue
    fi
    grep -q "Generating JVM TI files with jvmtigen" <<<"$out" && ok "consumer: cmake ($gen): the consumer builds, jvmtigen runs" ||
        { not_ok "consumer: cmake ($gen): jvmtigen did not run"; echo "$out"; }
    expect_output "consumer: cmake ($gen): the program prints the spec's version and an error number" "$b/consumer" "$latest"
    before=$(stamps "$b")
    out=$(cm)
    ! grep -q "Generating\|Building C\|Linking" <<<"$out" && [ "$(stamps "$b")" = "$before" ] &&
        ok "consumer: cmake ($gen): a second build does nothing" || { not_ok "consumer: cmake ($gen): a second build did something"; echo "$out"; }
    for f in jvmti.xml jvmti.dtd; do
        sleep 0.01; touch "$c/src/$f"
        out=$(cm)
        grep -q "Generating JVM TI files" <<<"$out" && ! grep -q "Building C\|Linking" <<<"$out" &&
            [ "$(stamps "$b")" = "$before" ] &&
            ok "consumer: cmake ($gen): touching $f re-runs jvmtigen (the depfile names it), nothing is compiled" ||
            { not_ok "consumer: cmake ($gen): after touching $f"; echo "$out"; }
        out=$(cm)
        ! grep -q "Generating\|Building C\|Linking" <<<"$out" && ok "consumer: cmake ($gen): ... and the build after that does nothing" ||
            { not_ok "consumer: cmake ($gen): the build after touching $f did something"; echo "$out"; }
    done
    bump_version "$c/src/jvmti.xml"
    out=$(cm)
    grep -q "Generating JVM TI files" <<<"$out" && grep -q "Linking C executable consumer" <<<"$out" &&
        ok "consumer: cmake ($gen): a new version in the spec regenerates and relinks" ||
        { not_ok "consumer: cmake ($gen): a new version in the spec"; echo "$out"; }
    expect_output "consumer: cmake ($gen): the program prints the new version" "$b/consumer" 99
    out=$(cm)
    ! grep -q "Generating\|Building C\|Linking" <<<"$out" && ok "consumer: cmake ($gen): and a second build does nothing" ||
        { not_ok "consumer: cmake ($gen): after the new version, a second build did something"; echo "$out"; }
done
