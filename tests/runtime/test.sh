#!/usr/bin/env bash
# The runtime core (runtime/*.c with the generated code, as libjvmtirt):
#   - runtime/README.md lists the functions a VM writes: the spec's less
#     gen/c/core.c's, with their counts;
#   - jvmtirt.h is the one reference for each operation: every operation
#     of jvmtirt_config has its comment, runtime/README.md no table of them;
#   - the functions gen/c/core.c says the core implements are exactly the
#     strong jvmti_impl_ symbols of the library's own objects, and every
#     other jvmti_impl_ function has a weak NOT_AVAILABLE default;
#   - units.c drives the core through environments' function tables, linked
#     with the static library and with the shared one;
#   - port.c is a tiny VM built with -fvisibility=hidden, static and
#     shared, and with default visibility, shared: the versioned config and
#     registered implementations (no function silently at its default; a
#     jvmti_impl_ definition that is not registered is refused);
#   - events.c checks the posting semantics (chaining, phases, threads),
#     static and shared;
#   - objects.c drives tags, ObjectFree, thread-local storage, thread CPU
#     time and suspend/resume the same way (with stress sections of its own);
#   - tag_bias.c races a second writer against the thread a tag map's
#     shards are biased to (runtime/objects/tags.c), in a new environment each round;
#   - frames.c drives breakpoints, field watches, frame pops, native method
#     prefixes, the JNI table and class-loader search the same two ways;
#   - locals.c drives the local variable functions, PopFrame and
#     ForceEarlyReturn* over the VM's frame operations the same two ways,
#     and reads a suspended thread's locals while it is resumed;
#   - stacks.c drives stack traces and class lists over the VM's walks the
#     same two ways;
#   - metadata.c drives the thread, class and object queries over the VM's
#     records (thread_ref, thread_info, class_info, object_hash) the same
#     two ways, and without them;
#   - groups.c drives the thread-group functions and RunAgentThread over
#     the VM's operations, static and shared (TSan: agent threads started
#     while a group is listed);
#   - members.c drives the metadata of the classes the VM hands over
#     (jvmtirt_class_define's class-file reader, jvmtirt_class_describe):
#     methods, fields, code, line and local tables, versions, source
#     names, the spec's errors, and bad class bytes, the same two ways;
#   - heap.c drives the heap walks (FollowReferences, IterateThroughHeap,
#     the 1.0 functions) over a known graph and a chain of 10^6 objects,
#     static and shared, with walks racing SetTag and DisposeEnvironment;
#   - stress.c runs it from eight threads at once (race-free under
#     SANITIZE=thread);
#   - redefine.c drives RetransformClasses, RedefineClasses and
#     IsModifiableClass (the ClassFileLoadHook chain in the spec's order),
#     static and shared, with retransforms racing class loading;
#   - monitor_limits.c: timed raw monitor waits against a wall clock set
#     ahead, and more than 2^20 raw monitors.
# Needs what `make check` passes: RT_LIB, RT_SO, RT_OUT, JNI_INCLUDE, CC,
# SANITIZE. STRESS_SECONDS sets the stress run's length (default 1.5).
. tests/lib.sh

if [ -z "${RT_LIB:-}" ]; then
    skip "runtime: RT_LIB is not set (run this suite through make check)"
    exit 0
fi
CC=${CC:-cc}
RT_OUT=${RT_OUT:-out}
JNI_INCLUDE=$(jni_include)
d=$(scratch runtime)

CFLAGS=(-std=c11 -Wall -Wextra -Werror -g -O1 -pthread
        -I"$RT_OUT" -Iruntime/include -I"$JNI_INCLUDE" -I"$JNI_INCLUDE/linux")
# The version the core must report (units.c; default JVM TI 25.0.0): the
# specs suite says it for the JDK specs it builds the core from.
[ -n "${RT_VERSION:-}" ] && CFLAGS+=(-DEXPECT_VERSION="$RT_VERSION")
[ -n "${SANITIZE:-}" ] && CFLAGS+=(-fsanitize="$SANITIZE" -fno-omit-frame-pointer -fno-sanitize-recover=all)
# Allocate(1 << 62) must come back as OUT_OF_MEMORY, not abort the run.
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export TSAN_OPTIONS="allocator_may_return_null=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

# ---- gen/c/core.c against the library's symbols ----

# The core's functions this spec has (a core built from an earlier JDK's
# spec leaves out the later functions: ClearAllFramePops from JDK 17's).
listed=$(sed -n 's/^ *"\([A-Za-z0-9_]*\)",$/\1/p' gen/c/core.c | sort)
in_spec=$(grep -o 'jvmti_impl_[A-Za-z0-9_]*(' "$RT_OUT/jvmtigen_impl.h" | sed 's/^jvmti_impl_//; s/($//' | sort -u)
core=$(comm -12 <(echo "$listed") <(echo "$in_spec"))
# member type name, for every jvmti_impl_ symbol the archive defines (not
# the compiler's local pieces of them: jvmti_impl_X.cold, .part.0, ...)
syms=$(nm -A --defined-only "$RT_LIB" 2>"$d/nm.log" |
    awk '$3 ~ /^jvmti_impl_[A-Za-z0-9_]+$/ { n = split($1, a, ":"); sub(/^jvmti_impl_/, "", $3); print a[n-1], $2, $3 }')
if [ -z "$syms" ]; then
    not_ok "runtime: nm finds no jvmti_impl_ symbols in $RT_LIB"; head -5 "$d/nm.log"
else
    n_core=$(grep -c . <<<"$core")
    [ "$n_core" -ge 30 ] && ok "runtime: gen/c/core.c lists $n_core functions" ||
        not_ok "runtime: gen/c/core.c lists only $n_core functions (did its format change?)"
    strong=$(awk '$1 != "jvmtigen_defaults.o" && $2 == "T" { print $3 }' <<<"$syms" | sort)
    if [ "$strong" = "$core" ]; then
        ok "runtime: the core's strong jvmti_impl_ symbols are exactly gen/c/core.c's list"
    else
        not_ok "runtime: the core's strong jvmti_impl_ symbols differ from gen/c/core.c's list (< list only, > library only)"
        diff <(echo "$core") <(echo "$strong") | grep '^[<>]' | head -20
    fi
    odd=$(awk '$1 != "jvmtigen_defaults.o" && $2 != "T" { print $1 ": " $2 " " $3 }' <<<"$syms")
    [ -z "$odd" ] && ok "runtime: the core defines no weak or local jvmti_impl_ symbols" ||
        { not_ok "runtime: the core defines jvmti_impl_ symbols that are not strong"; head -10 <<<"$odd"; }
    weak=$(awk '$1 == "jvmtigen_defaults.o" { print $3 }' <<<"$syms" | sort)
    notweak=$(awk '$1 == "jvmtigen_defaults.o" && $2 != "W" { print $2 " " $3 }' <<<"$syms")
    [ -n "$weak" ] && [ -z "$notweak" ] && ok "runtime: jvmtigen_defaults.o defines only weak symbols ($(grep -c . <<<"$weak"))" ||
        { not_ok "runtime: jvmtigen_defaults.o has no symbols or non-weak ones"; head -10 <<<"$notweak"; }
    both=$(comm -12 <(echo "$core") <(echo "$weak"))
    [ -z "$both" ] && ok "runtime: no weak default for a function the core implements" ||
        { not_ok "runtime: weak defaults generated for core functions"; head -10 <<<"$both"; }
    declared=$in_spec
    defined=$(sort <(echo "$core") <(echo "$weak"))
    if [ "$declared" = "$defined" ]; then
        ok "runtime: every function of jvmtigen_impl.h is defined once, by the core or as a weak default"
    else
        not_ok "runtime: jvmtigen_impl.h and the library's definitions differ (< declared only, > defined only or twice)"
        diff <(echo "$declared") <(echo "$defined") | grep '^[<>]' | head -20
    fi
fi

# runtime/README.md lists the functions a VM still writes: exactly the
# project spec's functions (JDK 25's, whatever spec this core was built
# from) that gen/c/core.c does not list, and says how many of each.
readme_vm=$(sed -n '/^<!-- vm-functions/,/^<!-- end of vm-functions/p' runtime/README.md |
    grep '^- ' | sed 's/^- \*\*[^*]*\*\* ([^)]*): //' | grep -o '`[A-Za-z0-9]*`' | tr -d '`' | sort)
spec_fns=$(grep -o '<function id="[A-Za-z0-9]*"' spec/jvmti.xml | sed 's/.*id="//; s/"$//' | sort)
want_vm=$(comm -23 <(echo "$spec_fns") <(echo "$listed"))
if [ -n "$readme_vm" ] && [ "$readme_vm" = "$want_vm" ]; then
    ok "runtime: runtime/README.md lists the $(grep -c . <<<"$want_vm") functions a VM writes: the spec's less gen/c/core.c's"
else
    not_ok "runtime: runtime/README.md's list of the VM's functions differs from the spec less gen/c/core.c (< README only, > missing from it)"
    diff <(echo "$readme_vm") <(echo "$want_vm") | grep '^[<>]' | head -20
fi
n_spec=$(grep -c . <<<"$spec_fns")
n_core_spec=$(comm -12 <(echo "$spec_fns") <(echo "$listed") | grep -c .)
n_vm=$(grep -c . <<<"$want_vm")
said="With the core's $n_core_spec functions (\`gen/c/core.c\`), these $n_vm of JDK 25's $n_spec"
if grep -qF "$said" runtime/README.md; then
    ok "runtime: runtime/README.md gives the counts ($n_core_spec in the core, $n_vm for the VM, of $n_spec)"
else
    not_ok "runtime: runtime/README.md should say: $said"
fi

# jvmtirt.h is the one reference for each operation (issue 33): every
# function-pointer field of jvmtirt_config has its own comment right before
# it (a section's "---- name ----" line alone is not one), and
# runtime/README.md, which says what each area does, repeats no operation's
# contract in a table (no table headed "operation", no row that starts with
# a config operation or a jvmtirt_ function of the header).
rt_h=runtime/include/jvmtirt.h
bare=$(awk '/^typedef struct jvmtirt_config \{/ { p = 1; next } p && /^\} jvmtirt_config;/ { exit }
    !p { next }
    /^ *$/ { text = ""; closed = 0; next }
    /^ *\/\*/ { text = ""; inc = 1 }
    inc { line = $0; gsub(/\/\*|\*\/|^ *\*|----[^-]*----/, "", line); text = text line }
    inc && /\*\/ *$/ { inc = 0; closed = 1; next }
    inc { next }
    /^    [^ ].*\(\*[a-z_]+\)\(/ {
        name = $0; sub(/^[^(]*\(\*/, "", name); sub(/\).*/, "", name)
        if (!closed || text !~ /[A-Za-z]/) print name
    }
    { closed = 0; text = "" }' "$rt_h")
n_ops=$(sed -n '/^typedef struct jvmtirt_config {/,/^} jvmtirt_config;/p' "$rt_h" |
    grep -cE '^    [^ ].*\(\*[a-z_]+\)\(')
if [ "$n_ops" -gt 40 ] && [ -z "$bare" ]; then
    ok "runtime: each of jvmtirt_config's $n_ops operations has its comment in jvmtirt.h"
else
    not_ok "runtime: jvmtirt_config's operations without a comment right before them ($n_ops found):" $bare
fi
ops=$(sed -n '/^typedef struct jvmtirt_config {/,/^} jvmtirt_config;/p' "$rt_h" |
    grep -oE '^    [^ ].*\(\*[a-z_]+\)\(' | sed 's/^[^(]*(\*//; s/)($//'
    grep -oE '^[a-z].*\bjvmtirt_[a-z_]+\(' "$rt_h" | grep -oE 'jvmtirt_[a-z_]+\($' | tr -d '(')
tables=$(awk -v ops="$(echo $ops)" 'BEGIN { n = split(ops, a, " "); for (i = 1; i <= n; i++) op[a[i]] = 1 }
    /^\| *operation *\|/ { print FILENAME ":" FNR ": a table headed operation"; next }
    /^\| *`/ { c = $0; sub(/^\| *`/, "", c); sub(/[^a-z_].*/, "", c)
               if (c in op) print FILENAME ":" FNR ": a row for " c }' runtime/README.md)
if [ -z "$tables" ]; then
    ok "runtime: runtime/README.md has no table of operations (jvmtirt.h is their reference)"
else
    not_ok "runtime: runtime/README.md repeats operations' contracts in tables ($(grep -c . <<<"$tables") rows and headers; jvmtirt.h is their reference):"
    head -5 <<<"$tables"
fi

# ... and shows each operation's comment, as the header has it, in the list
# tests/runtime/operations.py makes (its section at the README's end).
if command -v python3 >/dev/null; then
    if why=$(python3 tests/runtime/operations.py .); then
        ok "runtime: runtime/README.md lists every operation as jvmtirt.h describes it"
    else
        not_ok "runtime: $why"
    fi
else
    skip "runtime: runtime/README.md's list of operations against jvmtirt.h (needs python3)"
fi

# The implementation header says which parameters the trampolines pass on
# unchecked (a jthread with impl="noconvert" in the spec: JDK 25 has no
# other kind), above the functions that take one.
impl_h="$RT_OUT/jvmtigen_impl.h"
RT_SPEC=${RT_SPEC:-spec/jvmti.xml}
for fn in GetThreadState SuspendThread InterruptThread GetFrameCount; do
    # (JDK 17's spec gives SuspendThread's and GetFrameCount's thread no
    # impl="noconvert": its trampolines check those threads)
    awk -v f="<function id=\"$fn\"" 'index($0, f) { p = 1 } p && /<\/function>/ { exit }
        p && /<jthread[^>]*impl="noconvert"/ { found = 1 } END { exit !found }' "$RT_SPEC" || continue
    block=$(sed -n "/^\/\* $fn (slot/,/^jvmtiError/p" "$impl_h")
    if grep -q 'NOT checked' <<<"$block" && grep -q '^ \*   thread: ' <<<"$block"; then
        ok "runtime: jvmtigen_impl.h says $fn's thread is NOT checked by the trampoline"
    else
        not_ok "runtime: jvmtigen_impl.h does not say that $fn's thread is unchecked"
    fi
done
want=$(grep -c '<jthread[^>]*impl="noconvert"' "$RT_SPEC")
got=$(grep -c '^ \*   [a-z_]*: NULL.*a non-thread or a thread not alive$' "$impl_h")
[ "$want" = "$got" ] &&
    ok "runtime: jvmtigen_impl.h names every unchecked jthread parameter ($got)" ||
    not_ok "runtime: jvmtigen_impl.h names $got unchecked jthread parameters; $RT_SPEC has $want"

# ---- the programs ----

# build NAME OUTPUT SOURCE ARG...: compiles SOURCE and links OUTPUT, or
# says why not. ARGs of the form -f... and -D... are for the compiler, the
# others (the library) for the link. SOURCE is compiled once for each set
# of compiler ARGs: the static and the shared program link the same object
# (half the suite's compiles, which were most of its processor time).
build() {
    local name=$1 out=$2 src=$3 a cf=() ln=() obj
    shift 3
    for a; do case $a in -f* | -D*) cf+=("$a") ;; *) ln+=("$a") ;; esac; done
    obj=$d/$(basename "$src" .c)-$(printf '%s\n' "${cf[@]}" | md5sum | cut -c1-8).o
    if { [ -f "$obj" ] || "$CC" "${CFLAGS[@]}" "${cf[@]}" -c -o "$obj" "$src"; } 2>"$out.log" &&
        "$CC" "${CFLAGS[@]}" -o "$out" "$obj" "${ln[@]}" 2>>"$out.log"; then return 0; fi
    not_ok "runtime: $name does not build"
    head -20 "$out.log"
    return 1
}

# A hang (a broken raw monitor, a corrupted environment list) must not
# stall make check.
LIMIT=()
command -v timeout >/dev/null && LIMIT=(timeout -k 5 "${RUNTIME_TEST_TIMEOUT:-120}")

# run_tap NAME COMMAND...: passes the program's TAP lines through; a
# non-zero exit (a sanitizer's report, a crash, 124: the time limit) is one
# more failure, shown with the start of its stderr.
run_tap() {
    local name=$1 out status
    shift
    out=$("${LIMIT[@]}" "$@" 2>"$d/$name.err")
    status=$?
    grep -E '^(ok|not ok|skip) - ' <<<"$out"
    if [ $status -ne 0 ]; then
        not_ok "runtime: $name exited with status $status"
        # every kind of sanitizer report once, then the first in some detail
        grep 'SUMMARY' "$d/$name.err" | sort | uniq -c | sort -rn | head -8
        grep -E 'ERROR|WARNING|^  [A-Z]|#[0-3] ' "$d/$name.err" | head -24
        [ -s "$d/$name.err" ] || tail -3 <<<"$out"
    elif ! grep -q '^ok - ' <<<"$out"; then
        not_ok "runtime: $name printed no results"
    fi
}

if build units "$d/units" tests/runtime/units.c "$RT_LIB"; then
    run_tap units "$d/units"
fi

sodir=$(dirname "$RT_SO")
if build "units (shared library)" "$d/units-so" tests/runtime/units.c -L"$sodir" -ljvmtirt; then
    if readelf -d "$d/units-so" | grep -q 'NEEDED.*libjvmtirt\.so'; then
        ok "runtime: shared: units is linked with libjvmtirt.so"
    else
        not_ok "runtime: shared: units does not load libjvmtirt.so"
    fi
    run_tap units-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/units-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# redefine.c: RetransformClasses, RedefineClasses and IsModifiableClass
# over the VM's class_modifiable and install_classes, the ClassFileLoadHook
# chain in the spec's order, and retransforms racing class loading.
if build redefine "$d/redefine" tests/runtime/redefine.c "$RT_LIB"; then
    run_tap redefine "$d/redefine"
fi
if build "redefine (shared library)" "$d/redefine-so" tests/runtime/redefine.c -L"$sodir" -ljvmtirt; then
    run_tap redefine-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/redefine-so" |
        sed 's/ - runtime: redefine: / - runtime: redefine: shared: /'
fi

# A wall clock moved ahead and more than a million raw monitors.
if build monitor_limits "$d/monitor_limits" tests/runtime/monitor_limits.c "$RT_LIB"; then
    few=()
    [[ ${SANITIZE:-} == *thread* ]] && few=(--few)
    run_tap monitor_limits "$d/monitor_limits" "${few[@]}"
fi

# port.c: a tiny VM built with -fvisibility=hidden (its jvmti_impl_
# definitions invisible to libjvmtirt.so), static and shared; and with
# default visibility, shared (its definition takes the weak default's place:
# refused unless registered).
if build "port (static, hidden)" "$d/port" tests/runtime/port.c -fvisibility=hidden "$RT_LIB"; then
    run_tap port "$d/port" | sed 's/ - runtime: port: / - runtime: port: static, hidden: /'
fi
if build "port (shared, hidden)" "$d/port-so" tests/runtime/port.c -fvisibility=hidden \
    -DPORT_SHARED_HIDDEN=1 -L"$sodir" -ljvmtirt; then
    run_tap port-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/port-so" |
        sed 's/ - runtime: port: / - runtime: port: shared, hidden: /'
fi
if build "port (shared)" "$d/port-so-default" tests/runtime/port.c -L"$sodir" -ljvmtirt; then
    run_tap port-shared-default env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$d/port-so-default" | sed 's/ - runtime: port: / - runtime: port: shared: /'
fi

# interpose.c: a VM defining jvmti_impl_GetPhase, which the core
# implements: exported from a program linked with libjvmtirt.so it would
# take the core's place, so init refuses it; hidden, the core's answers.
if build "interpose (shared)" "$d/interpose" tests/runtime/interpose.c -L"$sodir" -ljvmtirt; then
    run_tap interpose env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/interpose"
fi
if build "interpose (shared, hidden)" "$d/interpose-hidden" tests/runtime/interpose.c \
    -fvisibility=hidden -DINTERPOSE_HIDDEN=1 -L"$sodir" -ljvmtirt; then
    run_tap interpose-hidden env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$d/interpose-hidden" | sed 's/ - runtime: interpose: / - runtime: interpose: hidden: /'
fi

# events.c: posting semantics (chaining, phases, the event's thread),
# static and shared.
if build events "$d/events" tests/runtime/events.c "$RT_LIB"; then
    run_tap events "$d/events"
fi
if build "events (shared library)" "$d/events-so" tests/runtime/events.c -L"$sodir" -ljvmtirt; then
    run_tap events-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/events-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# objects.c: tags and ObjectFree, thread-local storage, thread CPU time,
# suspend/resume (with its own stress sections), static and shared.
if build objects "$d/objects" tests/runtime/objects.c "$RT_LIB"; then
    run_tap objects "$d/objects" "${STRESS_SECONDS:-1}"
fi
# tag_bias.c: biased shards taken away from a busy owner.
if build "tag bias" "$d/tag_bias" tests/runtime/tag_bias.c "$RT_LIB"; then
    run_tap tag_bias "$d/tag_bias" "${STRESS_SECONDS:-1}"
fi
if build "objects (shared library)" "$d/objects-so" tests/runtime/objects.c -L"$sodir" -ljvmtirt; then
    run_tap objects-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$d/objects-so" 0.3 | sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# frames.c: breakpoints, watches, frame pops, prefixes, the JNI table,
# class-loader search; static and shared.
if build frames "$d/frames" tests/runtime/frames.c "$RT_LIB"; then
    run_tap frames "$d/frames"
fi
if build "frames (shared library)" "$d/frames-so" tests/runtime/frames.c -L"$sodir" -ljvmtirt; then
    run_tap frames-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/frames-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# locals.c: locals, PopFrame and ForceEarlyReturn over the VM's frame
# operations; static and shared (its last section reads a suspended
# thread's locals while other threads resume and suspend it).
if build locals "$d/locals" tests/runtime/locals.c "$RT_LIB"; then
    run_tap locals "$d/locals" "${STRESS_SECONDS:-0.5}"
fi
if build "locals (shared library)" "$d/locals-so" tests/runtime/locals.c -L"$sodir" -ljvmtirt; then
    run_tap locals-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/locals-so" 0.3 |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# stacks.c: stack traces and class lists over the VM's walks; static and
# shared (its last section walks from threads while environments come and go).
if build stacks "$d/stacks" tests/runtime/stacks.c "$RT_LIB"; then
    run_tap stacks "$d/stacks"
fi
if build "stacks (shared library)" "$d/stacks-so" tests/runtime/stacks.c -L"$sodir" -ljvmtirt; then
    run_tap stacks-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/stacks-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# metadata.c: threads, classes and objects answered from the VM's records;
# static and shared.
if build metadata "$d/metadata" tests/runtime/metadata.c "$RT_LIB"; then
    run_tap metadata "$d/metadata"
fi
if build "metadata (shared library)" "$d/metadata-so" tests/runtime/metadata.c -L"$sodir" -ljvmtirt; then
    run_tap metadata-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/metadata-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# groups.c: thread groups and RunAgentThread over the VM's enumeration and
# its start_agent_thread (agent threads started from two threads at once
# while a third lists a group); static and shared.
if build groups "$d/groups" tests/runtime/groups.c "$RT_LIB"; then
    run_tap groups "$d/groups"
fi
if build "groups (shared library)" "$d/groups-so" tests/runtime/groups.c -L"$sodir" -ljvmtirt; then
    run_tap groups-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/groups-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# localrefs.c: the JNI contract's local-reference rule: every reference an
# operation hands the core reaches the agent or goes back through
# release_ref, once; static and shared.
if build localrefs "$d/localrefs" tests/runtime/localrefs.c "$RT_LIB"; then
    run_tap localrefs "$d/localrefs"
fi
if build "localrefs (shared library)" "$d/localrefs-so" tests/runtime/localrefs.c -L"$sodir" -ljvmtirt; then
    run_tap localrefs-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/localrefs-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# javamonitors.c: the Java monitor functions over a VM's owned_monitors,
# contended_monitor and monitor_usage; static and shared.
if build javamonitors "$d/javamonitors" tests/runtime/javamonitors.c "$RT_LIB"; then
    run_tap javamonitors "$d/javamonitors"
fi
if build "javamonitors (shared library)" "$d/javamonitors-so" tests/runtime/javamonitors.c -L"$sodir" -ljvmtirt; then
    run_tap javamonitors-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/javamonitors-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# modules.c: the module functions over a VM's enumeration, lookup, module
# facts and update; static and shared.
if build modules "$d/modules" tests/runtime/modules.c "$RT_LIB"; then
    run_tap modules "$d/modules"
fi
if build "modules (shared library)" "$d/modules-so" tests/runtime/modules.c -L"$sodir" -ljvmtirt; then
    run_tap modules-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/modules-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# members.c: the classes the VM hands over (a class file, a description),
# their methods' and fields' metadata, and bad class bytes; static and shared.
if build members "$d/members" tests/runtime/members.c "$RT_LIB"; then
    run_tap members "$d/members"
fi
if build "members (shared library)" "$d/members-so" tests/runtime/members.c -L"$sodir" -ljvmtirt; then
    run_tap members-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/members-so" |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

# heap.c: the heap walks over a known graph, a chain of 10^6 objects, a VM
# without the enumerations, walks racing SetTag and DisposeEnvironment;
# static and shared.
if build heap "$d/heap" tests/runtime/heap.c "$RT_LIB"; then
    run_tap heap "$d/heap" "${STRESS_SECONDS:-0.5}"
fi
if build "heap (shared library)" "$d/heap-so" tests/runtime/heap.c -L"$sodir" -ljvmtirt; then
    run_tap heap-shared env LD_LIBRARY_PATH="$sodir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$d/heap-so" 0.3 |
        sed 's/^\(\(not \)\{0,1\}ok\) - runtime: /\1 - runtime: shared: /'
fi

if build stress "$d/stress" tests/runtime/stress.c "$RT_LIB"; then
    run_tap stress "$d/stress" "${STRESS_SECONDS:-1.5}"
fi
exit 0
