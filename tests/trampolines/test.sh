#!/usr/bin/env bash
# The generated C beyond jvmti.h: it compiles warning-free everywhere we
# promise, and the trampolines make every check the spec asks for, in order
# (a driver generated per spec by gen_driver.c, hand-written cases of JDK 25
# in handwritten.c, the tables in tables.c). Mutants of the generated code
# must make the driver fail, so the driver is known to be able to fail.
. tests/lib.sh

GEN_DRIVER="${GEN_DRIVER:-build/${CC:-cc}/gen-driver}"
JNI_INC=$(jni_include)
INC=(-Iruntime/include -Iruntime/base -Icheck -Itests/trampolines -I"$JNI_INC" -I"$JNI_INC/linux")
RUNTIME=(runtime/base/hooks.c runtime/base/trace.c)
SAN=()
[ -n "${SANITIZE:-}" ] && SAN=(-fsanitize="$SANITIZE" -fno-omit-frame-pointer -fno-sanitize-recover=all)

[ -f "$JNI_INC/jni.h" ] || { lack "trampolines" jni.h; exit 0; }

# build_driver OUTDIR DRIVER_C BINARY: the driver (compiled once, to
# DRIVER_C's .o) linked with the generated code of OUTDIR.
build_driver() {
    local out=$1 src=$2 bin=$3
    [ -f "${src%.c}.o" ] || ${CC:-cc} -std=c11 -O0 -w "${SAN[@]}" -I"$out" "${INC[@]}" \
        -c "$src" -o "${src%.c}.o" || return 1
    ${CC:-cc} -std=c11 -O1 -g -w "${SAN[@]}" -I"$out" "${INC[@]}" \
        -o "$bin" "${src%.c}.o" "$out/jvmtigen_entry.c" "$out/jvmtigen_tables.c" "${RUNTIME[@]}"
}

# compile_all NAME OUTDIR CC STD: every generated C file and the runtime.
# C11 is compiled at -O2, where the warnings that need the optimizer's
# analysis (uninitialized uses, bounds, overflows) are given; C99 for its
# front end only (-fsyntax-only): what differs between the two modes is the
# language the front end accepts, and the -O2 compile of the largest file
# (the checker's forwarder) takes seconds of the suite's time per run.
compile_all() {
    local name=$1 out=$2 cc=$3 std=$4 errs="" f mode=(-O2 -c)
    [ "$std" = c99 ] && mode=(-fsyntax-only)
    for f in "$out"/*.c "${RUNTIME[@]}"; do
        $cc -std=$std "${mode[@]}" -Wall -Wextra -Werror -I"$out" "${INC[@]}" "$f" \
            -o "$out/../$cc-$std-$(basename "$f").o" 2>>"$out/../$cc-$std.log" || errs+=" $(basename "$f")"
    done
    if [ -z "$errs" ]; then ok "trampolines: $name: generated C compiles ($cc -std=$std ${mode[0]} -Wall -Wextra -Werror)"
    else not_ok "trampolines: $name: $cc -std=$std fails on:$errs"; head -20 "$out/../$cc-$std.log"; fi
}

# own: spec/jvmti.xml, the facts of JDK 25 (its generated C is JDK 25's:
# tests/spec); the reference specs where they are here.
for name in own jdk17 jdk25 mainline; do
    if [ "$name" = own ]; then spec=spec/jvmti.xml
    else need_refs "trampolines: $name" "$name" || continue; spec="$SHARED_SPECS/$name/jvmti.xml"; fi
    d=$(scratch "tramp-$name")
    if ! "$JVMTIGEN" -q -o "$d/out" "$spec"; then not_ok "trampolines: $name: generation failed"; continue; fi

    # Every generated C file and the runtime it links with, warning-free
    # (two compilers at a time: the machine has two cores).
    for std in c99 c11; do
        for cc in gcc clang; do
            if command -v $cc >/dev/null; then compile_all "$name" "$d/out" $cc $std >"$d/$cc-$std.res" &
            else lack "trampolines: $name: generated C compiles with $cc -std=$std" $cc >"$d/$cc-$std.res"; fi
        done
        wait
        cat "$d"/*-$std.res
    done
    for cxx in g++ clang++; do
        need_tool "trampolines: $name: headers compile as C++ with $cxx" $cxx || continue
        printf '#include "jvmtigen_impl.h"\n#include "jvmtigen_tables.h"\n#include "jvmtigen_hooks.h"\n#include "jvmtigen_trace.h"\n' >"$d/h.cc"
        check "trampolines: $name: headers compile as C++ ($cxx -std=c++11)" \
            $cxx -std=c++11 -Wall -Wextra -Werror -I"$d/out" "${INC[@]}" -c "$d/h.cc" -o "$d/h.o"
    done

    # The generated driver: every check of every function.
    if ! "$GEN_DRIVER" "$spec" >"$d/driver.c"; then not_ok "trampolines: $name: gen-driver failed"; continue; fi
    if build_driver "$d/out" "$d/driver.c" "$d/driver" 2>"$d/build.log"; then
        out=$("$d/driver"); status=$?
        printf '%s\n' "$out" | sed "s/^\(\(not \)\{0,1\}ok\) - /\1 - $name: /"
        [ $status -eq 0 ] || not_ok "trampolines: $name: driver exited $status"
        [ "$(grep -c '^ok' <<<"$out")" -eq 3 ] || not_ok "trampolines: $name: driver ran fewer than 3 passes"
    else
        not_ok "trampolines: $name: driver does not build"; head -20 "$d/build.log"
    fi

    [ "$name" = own ] || continue
    # Hand-written cases and tables (facts of JDK 25, which spec/jvmti.xml states).
    "$GEN_DRIVER" --stubs "$spec" >"$d/stubs.c"
    if ${CC:-cc} -std=c11 -O1 -g -Wall -Wextra -Werror "${SAN[@]}" -I"$d" -I"$d/out" "${INC[@]}" \
        -o "$d/hand" tests/trampolines/handwritten.c "$d/out/jvmtigen_entry.c" \
        "$d/out/jvmtigen_tables.c" "${RUNTIME[@]}" 2>"$d/hand.log"; then
        "$d/hand" || not_ok "trampolines: handwritten cases exited $?"
    else
        not_ok "trampolines: handwritten cases do not build"; head -20 "$d/hand.log"
    fi
    ncaps=$(grep -c ': 1;' "$d/out/jvmti.h")
    if ${CC:-cc} -std=c11 -Wall -Wextra -Werror "${SAN[@]}" -DNCAPS="$ncaps" -I"$d/out" "${INC[@]}" \
        -o "$d/tables" tests/trampolines/tables.c "$d/out/jvmtigen_tables.c" 2>"$d/tables.log"; then
        "$d/tables" || not_ok "trampolines: tables exited $?"
    else
        not_ok "trampolines: tables test does not build"; head -20 "$d/tables.log"
    fi

    # Coverage (gcc's gcov; the sanitizer run leaves it to the plain one).
    if [ -z "${SANITIZE:-}" ] && need_tool "trampolines: coverage" gcov; then
        if cov=$(tests/trampolines/coverage "$spec" "$d/cov" 2>&1); then
            ok "trampolines: $(tail -1 <<<"$cov") (goal: 95%)"
        else
            not_ok "trampolines: coverage below 95% or not measured"; tail -5 <<<"$cov"
        fi
    fi

    # Mutants: the driver must catch each.
    mutate() { # DESCRIPTION PYTHON-EXPRESSION-ON-s
        need_tool "trampolines: the driver catches a mutant: $1" python3 || return
        local m="$d/mutant"; mkdir -p "$m"; cp "$d"/out/* "$m/"
        python3 -c "import sys; s=open(sys.argv[1]).read(); t=$2; assert t != s; open(sys.argv[1],'w').write(t)" \
            "$m/jvmtigen_entry.c" || { not_ok "trampolines: mutant '$1' could not be made"; return; }
        if build_driver "$m" "$d/driver.c" "$m/driver" 2>/dev/null && ! "$m/driver" >/dev/null; then
            ok "trampolines: the driver catches a mutant: $1"
        else
            not_ok "trampolines: the driver misses a mutant: $1"
        fi
    }
    mutate "capability check dropped" \
        "s.replace('if (JVMTIGEN_UNLIKELY(!JVMTIGEN_HAS_CAPABILITY(env, can_get_line_numbers)))\n        return JVMTI_ERROR_MUST_POSSESS_CAPABILITY;\n', '', 1)"
    mutate "NULL check on an output dropped" \
        "s.replace('if (JVMTIGEN_UNLIKELY(thread_state_ptr == NULL))\n        return JVMTI_ERROR_NULL_POINTER;\n', '', 1)"
    mutate "environment checked before the phase" \
        "s.replace('JVMTIGEN_PHASE(env) != JVMTI_PHASE_LIVE', '!JVMTIGEN_ENV_VALID(env)', 1)"
    mutate "wrong error for a bad frame depth" \
        "s.replace('depth < 0))\n        return JVMTI_ERROR_ILLEGAL_ARGUMENT', 'depth < 0))\n        return JVMTI_ERROR_INVALID_SLOT', 1)"
    mutate "argument swapped on the way to the implementation" \
        "s.replace('return jvmti_impl_GetTag(env, object, tag_ptr)', 'return jvmti_impl_GetTag(env, NULL, tag_ptr)', 1)"
    mutate "trace switch ignored" \
        "s.replace('if (JVMTIGEN_UNLIKELY(jvmtigen_trace_flags[17 /* GetThreadState */]))', 'if (0)', 1)"
done

# hide: a function the JDK leaves out of the table (no real spec uses it yet).
d=$(scratch tramp-hide)
sed -e 's/<function id="GetStrokes" num="2"/<function id="GetStrokes" num="2" hide="yes"/' \
    -e "s|SYSTEM \"[^\"]*jvmti.dtd\"|SYSTEM \"$PWD/spec/jvmti.dtd\"|" \
    tests/checks/fixtures/valid.xml >"$d/hide.xml"
if "$JVMTIGEN" -q -o "$d/out" "$d/hide.xml"; then
    check "trampolines: hide: slot 2 is reserved in the table" grep -q '\.reserved2 = NULL' "$d/out/jvmtigen_entry.c"
    check "trampolines: hide: no trampoline and no implementation function" \
        bash -c "! grep -q GetStrokes '$d/out/jvmtigen_entry.c' '$d/out/jvmtigen_impl.h'"
    check "trampolines: hide: the other functions stay" grep -q '\.SetStrokes = jvmtigen_entry_SetStrokes' "$d/out/jvmtigen_entry.c"
else
    not_ok "trampolines: hide: generation failed"
fi
