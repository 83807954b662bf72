#!/usr/bin/env bash
# The layout `jvmtigen model` gives (each typedef's "layout", the top-level
# "abi") against the C compilers: asserts.py turns the JSON into C static
# assertions, compiled against the jvmti.h the same spec generates, with gcc
# and clang, for LP64 (-m64) and ILP32 (-m32, where the 32-bit C library
# headers are installed: Debian's gcc-multilib). For the project's spec, the
# model suite's tiny fixture (its JSON written by hand) and
# jdk17, jdk25 and mainline (skipped when ../shared is absent). Then the
# example consumer, ctypes_binding.py: a Python ctypes binding written from
# the JSON, whose sizes and offsets must be the JSON's.
set -u
. tests/lib.sh

JNI_INC=$(jni_include)
[ -f "$JNI_INC/jni.h" ] || { lack "abi" jni.h; exit 0; }
need_tool "abi" python3 || exit 0
d=$(scratch abi)

# The compilers and data models this machine can build for: "CC FLAG" pairs.
targets=()
printf '#include <stdio.h>\nint probe;\n' >"$d/probe.c"
for cc in gcc clang; do
    need_tool "abi: with $cc" "$cc" || continue
    for m in -m64 -m32; do
        if "$cc" "$m" -c "$d/probe.c" -o "$d/probe.o" 2>"$d/probe.err"; then
            targets+=("$cc $m")
        elif [ "$m" = -m32 ]; then
            # the 32-bit C library headers
            lack "abi: $cc -m32" -m32
        else
            skip "abi: $cc $m cannot compile against the C library here ($(head -1 "$d/probe.err"); Debian: gcc-multilib)"
        fi
    done
done

# compile NAME DIR: the assertions of DIR/model.json against DIR/jvmti.h,
# for every target; ok per target.
compile() {
    local name=$1 dir=$2 t cc m
    if ! python3 tests/abi/asserts.py "$dir/model.json" >"$dir/layout.c" 2>"$dir/asserts.err"; then
        not_ok "abi: $name: asserts.py reads the JSON"; cat "$dir/asserts.err"; return
    fi
    for t in "${targets[@]}"; do
        read -r cc m <<<"$t"
        check "abi: $name: $(grep -c _Static_assert "$dir/layout.c") static assertions of sizes, alignments and offsets hold under $cc $m" \
            "$cc" "$m" -std=c11 -Wall -Wextra -Werror -I"$dir" -I"$JNI_INC" -I"$JNI_INC/linux" \
            -fsyntax-only "$dir/layout.c"
    done
}

# setup NAME SPEC: DIR with jvmti.h and model.json; echoes DIR.
setup() {
    local dir
    dir=$(scratch "$1")
    "$JVMTIGEN" -q --no-docs -o "$dir" "$2" && "$JVMTIGEN" model "$2" >"$dir/model.json" && echo "$dir"
}

specs=("own spec/jvmti.xml" "tiny tests/model/fixtures/tiny.xml")
for name in jdk17 jdk25 mainline; do
    if need_refs "abi: $name layout against the compilers" "$name"; then
        specs+=("$name $SHARED_SPECS/$name/jvmti.xml")
    fi
done
for pair in "${specs[@]}"; do
    read -r name spec <<<"$pair"
    if ! dir=$(setup "$name" "$spec"); then not_ok "abi: $name: jvmti.h and the model JSON generate"; continue; fi
    compile "$name" "$dir"
    # The example consumer: a ctypes binding from the JSON alone, its sizes
    # and offsets (ctypes follows this machine's C ABI) against the JSON's.
    check "abi: $name: the ctypes binding written from the JSON has its sizes, alignments and offsets" \
        python3 tests/abi/ctypes_binding.py "$dir/model.json" "$dir/binding.py"
done

# The binding's check can fail: a struct's field offset off by 4 in the JSON.
wrong_ctypes() {
    python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))
t=next(t for t in m["typedefs"] if t["id"]=="jvmtiTimerInfo"); t["layout"]["lp64"]["offsets"]["kind"]+=4
json.dump(m, open(sys.argv[2], "w"))' "$1" "$2" && ! python3 tests/abi/ctypes_binding.py "$2" >"$2.out" &&
        grep -q "jvmtiTimerInfo.kind: offset 12 in ctypes, 16 in the JSON" "$2.out"
}
dir=$(setup own-ctypes spec/jvmti.xml) &&
    check "abi: a wrong offset in the JSON fails the ctypes binding's check, naming it" \
        wrong_ctypes "$dir/model.json" "$dir/wrong.json"

# The assertions can fail: one number off in the JSON, in each place they
# read, is a compile error naming it.
dir=$(setup own-wrong spec/jvmti.xml) || { not_ok "abi: own spec generates"; exit 0; }
for edit in "typedefs|jvmtiTimerInfo|offsetof(jvmtiTimerInfo, kind)" \
            "typedefs|jvmtiFrameInfo|sizeof(jvmtiFrameInfo)" \
            "typedefs|jvmtiHeapReferenceInfo|_Alignof(jvmtiHeapReferenceInfo)" \
            "abi|function_table|offsetof(jvmtiInterface_1, GetThreadState)" \
            "abi|event_callbacks|offsetof(jvmtiEventCallbacks, Breakpoint)" \
            "abi|capabilities|sizeof(jvmtiCapabilities)" \
            "abi|scalars|_Alignof(jlong)"; do
    IFS='|' read -r where what says <<<"$edit"
    python3 - "$dir/model.json" "$where" "$what" "$says" >"$dir/wrong.json" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
where, what, says = sys.argv[2:]
kind, arg = re.match(r"(\w+)\((?:\w+, )?(\w+)\)", says).groups()
for dm in m["abi"]["data_models"]:
    if where == "typedefs":
        lay = next(t for t in m["typedefs"] if t["id"] == what)["layout"][dm]
    elif what == "scalars":
        lay = m["abi"]["scalars"][dm][arg]
    else:
        lay = m["abi"][what]["layout"][dm]
    if kind == "offsetof":
        lay["offsets"][arg] += 4
    else:
        lay[{"sizeof": "size", "_Alignof": "align"}[kind]] *= 2
print(json.dumps(m, indent=2))
PY
    mkdir -p "$dir/wrong" && cp "$dir/jvmti.h" "$dir/wrong/" && mv "$dir/wrong.json" "$dir/wrong/model.json"
    python3 tests/abi/asserts.py "$dir/wrong/model.json" >"$dir/wrong/layout.c"
    for t in "${targets[@]}"; do
        read -r cc m <<<"$t"
        if "$cc" "$m" -std=c11 -I"$dir/wrong" -I"$JNI_INC" -I"$JNI_INC/linux" -fsyntax-only "$dir/wrong/layout.c" \
            >"$dir/wrong/err" 2>&1; then
            not_ok "abi: a wrong $says in the JSON fails under $cc $m (it compiled)"
        elif grep -qF "\"$says\"" "$dir/wrong/err"; then
            ok "abi: a wrong $says in the JSON fails under $cc $m, naming it"
        else
            not_ok "abi: a wrong $says in the JSON fails under $cc $m, naming it"; head -5 "$dir/wrong/err"
        fi
    done
done
exit 0
