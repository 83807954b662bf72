#!/usr/bin/env bash
# bin/jvmti-host runs ordinary agents: events in the VM's order, several
# agents at once, an agent built against the JDK's own jvmti.h, and the
# errors a java user would expect (agent not found, Agent_OnLoad failing);
# a soak of the core under a busy agent (soak_agent.c, host/scaffold/soak.c); and the
# frames area (frames_agent.c, host/frames.c); stacks and classes
# (stacks_agent.c, host/stacks.c, host/classes.c); threads, classes and objects
# (metadata_agent.c); the heap walks over the host's heap
# model (heap_agent.c, host/scaffold/heap_model.c); thread groups and RunAgentThread
# (groups_agent.c, host/groups.c); Java monitors (monitors_agent.c,
# host/monitors.c); modules (modules_agent.c, host/modules.c).
. tests/lib.sh

[ -n "${JVMTI_HOST:-}" ] && [ -x "$JVMTI_HOST" ] || { skip "host: JVMTI_HOST not built (run through make check)"; exit 0; }
JDK_INC=$(jni_include)
CC=${CC:-cc}
san=()
[ -n "${SANITIZE:-}" ] && san=(-fsanitize="$SANITIZE" -fno-omit-frame-pointer)
d=$(scratch host)

build() { # OUT HEADER_DIR
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC "${san[@]}" -I"$2" -I"$JDK_INC" \
        -I"$JDK_INC/linux" -o "$1" tests/host/events_agent.c
}
check "host: the agent builds against the generated jvmti.h" build "$d/gen.so" "$RT_OUT"
check "host: the agent builds against the JDK's own jvmti.h" build "$d/jdk.so" "$JDK_INC"

# Under a sanitizer the host and the agents are instrumented alike.
run_host() { "$JVMTI_HOST" "$@"; }

expected_one() { # TAG: everything but the thread events
    cat <<EOT
$1: OnLoad: GetEnv(0x30000000) refused
$1: OnLoad in phase onload
$1: VMStart in phase start
$1: VMInit in phase live
$1: VMInit: JNI ok, Thread class found, thread is current: yes
$1: VMInit: GetStaticFieldID gave NULL
$1: VMInit: getName found, GetMethodModifiers: 100, not a method: 23
$1: VMInit: can_generate_resource_exhaustion_heap_events not offered
$1: VMDeath in phase live
$1: DisposeEnvironment: 0
$1: OnUnload
EOT
}

for h in gen jdk; do
    out=$(run_host -agentpath:"$d/$h.so"=one -threads:3 Main 2>"$d/$h.err")
    status=$?
    check "host: $h agent: exit status 0 (got $status)" test "$status" = 0
    check "host: $h agent: VM events in order, in the right phases" \
        diff <(expected_one one) <(grep -v 'Thread\(Start\|End\)$' <<<"$out")
    # Threads interleave: three of each, all between VMInit and VMDeath.
    between=$(sed -n '/VMInit: can_generate_resource_exhaustion_heap_events/,/VMDeath/p' <<<"$out")
    check "host: $h agent: 3 ThreadStart between VMInit and VMDeath" \
        test "$(grep -c 'one: ThreadStart$' <<<"$between")" = 3
    check "host: $h agent: 3 ThreadEnd between VMInit and VMDeath" \
        test "$(grep -c 'one: ThreadEnd$' <<<"$between")" = 3
done
check "host: an unsupported JNI call is reported, not fatal" \
    grep -q "JNI function the host does not support" "$d/gen.err"

out=$(run_host -agentpath:"$d/gen.so"=first -agentpath:"$d/jdk.so"=second -threads:0 2>/dev/null)
check "host: two agents load in command-line order" \
    diff <(printf 'first: OnLoad: GetEnv(0x30000000) refused\nfirst: OnLoad in phase onload\nsecond: OnLoad: GetEnv(0x30000000) refused\nsecond: OnLoad in phase onload\nfirst: VMStart in phase start\nsecond: VMStart in phase start\n') \
         <(head -6 <<<"$out")
check "host: both agents get VMDeath, then unload in order" \
    diff <(printf 'first: VMDeath in phase live\nfirst: DisposeEnvironment: 0\nsecond: VMDeath in phase live\nsecond: DisposeEnvironment: 0\nfirst: OnUnload\nsecond: OnUnload\n') \
         <(tail -6 <<<"$out")

out=$(run_host -all-capabilities -agentpath:"$d/gen.so"=all -threads:0 2>/dev/null)
check "host: -all-capabilities offers every capability" \
    grep -qx "all: VMInit: can_generate_resource_exhaustion_heap_events offered" <<<"$out"

err=$(run_host -agentpath:"$d/missing.so" 2>&1 >/dev/null)
status=$?
check "host: a missing agent exits 1 (got $status)" test "$status" = 1
check "host: ... and says which agent" grep -q "cannot load agent $d/missing.so" <<<"$err"
err=$(run_host -agentpath:"$d/gen.so"=fail 2>&1 >/dev/null)
status=$?
check "host: Agent_OnLoad returning an error exits 1 (got $status)" test "$status" = 1
check "host: ... and says so" grep -q "Agent_OnLoad of $d/gen.so returned 7" <<<"$err"
run_host -bogus >/dev/null 2>&1
check "host: an unknown option is a usage error (2)" test $? = 2

# NULL where JNI wants a class name or a string: NULL back, as in HotSpot.
null_build() {
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC "${san[@]}" -I"$RT_OUT" -I"$JDK_INC" \
        -I"$JDK_INC/linux" -o "$d/null_jni.so" tests/host/null_jni_agent.c
}
if check "host: the NULL-passing JNI agent builds" null_build; then
    out=$(run_host -agentpath:"$d/null_jni.so" -threads:0 2>"$d/null_jni.err")
    status=$?
    check "host: FindClass(NULL) and NewStringUTF(NULL) do not crash the host (status $status)" \
        test "$status" = 0
    check "host: ... and both return NULL" \
        diff <(printf 'FindClass(NULL): NULL\nNewStringUTF(NULL): NULL\n') <(echo "$out")
fi

# ---- objects_agent.c (built against the JDK's jvmti.h): the core's object
# tags and ObjectFree over the host's heap (host/objects.c), thread-local
# storage, thread CPU time; suspend/resume of a thread running "Java code"
# (-work) ----
obj_build() {
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC -pthread "${san[@]}" -I"$JDK_INC" \
        -I"$JDK_INC/linux" -o "$d/objects.so" tests/host/objects_agent.c
}
if check "host: objects: the agent builds against the JDK's jvmti.h" obj_build; then
    out=$(run_host -agentpath:"$d/objects.so" -threads:3 Main 2>"$d/objects.err")
    status=$?
    check "host: objects: exit status 0 (got $status)" test "$status" = 0
    [ "$status" = 0 ] || grep -E 'ERROR|WARNING|SUMMARY|#[0-3] ' "$d/objects.err" | head -20
    objects_expect() {
        cat <<'EOT'
objects: AddCapabilities: ok
objects: AllocObject: three objects
objects: SetTag/GetTag: ok, tags sum to 303
objects: GetObjectsWithTags(100, 102): ok, 2 objects
objects: GetObjectsWithTags: the objects are the ones tagged
objects: ForceGarbageCollection: ok, ObjectFree for tags summing to 201
objects: ObjectFree events: 2
objects: the referenced object keeps its tag: 102
objects: an object untagged before it dies: ObjectFree events 0
objects: TLS of the VMInit thread before any Set: ok, NULL
objects: GetThreadCpuTime: ok, positive; the thread named: ok, grew
objects: TLS: 3 of 3 threads found their own value at ThreadEnd
EOT
    }
    check "host: objects: tags, GetObjectsWithTags, ObjectFree on GC, thread-local storage as the spec says" \
        diff <(objects_expect) <(grep '^objects: ' <<<"$out")
    out=$(run_host -agentpath:"$d/objects.so"=suspend -threads:2 -work:1.5 Main 2>"$d/suspend.err")
    status=$?
    check "host: objects: suspend: exit status 0 (got $status)" test "$status" = 0
    [ "$status" = 0 ] || grep -E 'ERROR|WARNING|SUMMARY|#[0-3] ' "$d/suspend.err" | head -20
    suspend_expect() {
        cat <<'EOT'
objects: suspend: SuspendThread: JVMTI_ERROR_NONE
objects: suspend: the suspended thread's CPU time stands still: yes
objects: suspend: SuspendThread again: JVMTI_ERROR_THREAD_SUSPENDED
objects: suspend: ResumeThread: JVMTI_ERROR_NONE
objects: suspend: the resumed thread runs again: yes
objects: suspend: ResumeThread again: JVMTI_ERROR_THREAD_NOT_SUSPENDED
objects: suspend: SuspendThreadList(worker, worker, a class): JVMTI_ERROR_NONE: JVMTI_ERROR_NONE JVMTI_ERROR_THREAD_SUSPENDED
objects: suspend: ... JVMTI_ERROR_INVALID_THREAD
objects: suspend: ResumeThreadList(worker, worker): JVMTI_ERROR_NONE: JVMTI_ERROR_NONE JVMTI_ERROR_THREAD_NOT_SUSPENDED
objects: suspend: SuspendThread of a worker that ended: JVMTI_ERROR_THREAD_NOT_ALIVE
EOT
    }
    check "host: objects: suspend: a suspended worker stops at its safe point; the spec's errors" \
        diff <(suspend_expect) <(grep '^objects: suspend: ' <<<"$out")
fi

# ---- the soak: many threads, environments created and disposed, events
# toggled and posted, raw monitors contended, for SOAK_SECONDS (default 3);
# every delivery judged, memory back to its baseline (soak_agent.c, soak.c) ----
soak_build() {
    $CC -std=c11 -Wall -Wextra -Werror -g -O1 -shared -fPIC -pthread "${san[@]}" -I"$RT_OUT" \
        -I"$JDK_INC" -I"$JDK_INC/linux" -o "$d/soak.so" tests/host/soak_agent.c
}
if check "host: soak: the agent builds" soak_build; then
    secs=${SOAK_SECONDS:-3}
    out=$(timeout -k 10 $((${secs%.*} + 120)) "$JVMTI_HOST" \
        -agentpath:"$d/soak.so"=churners=2,togglers=2,lockers=2 -threads:6 -soak:"$secs" 2>"$d/soak.err")
    status=$?
    grep -E '^(ok|not ok) - ' <<<"$out" |
        sed -e 's/ - jvmti-host: soak: / - host: soak: /' -e 's/ - soak-agent: / - host: soak: agent: /'
    check "host: soak: the host exits 0 (got $status)" test "$status" = 0
    [ "$status" = 0 ] || { grep -E 'ERROR|WARNING|SUMMARY|#[0-3] ' "$d/soak.err" | head -20; tail -3 "$d/soak.err"; }
    # The environment that keeps them enabled got every one the host posted.
    posted=$(sed -n 's/^jvmti-host: soak: posted //p' <<<"$out")
    got=$(sed -n 's/^soak-agent: the static environment got //p' <<<"$out")
    for ev in ClassPrepare DataDumpRequest GarbageCollectionStart; do
        p=$(grep -o "$ev=[0-9]*" <<<"$posted"); g=$(grep -o "$ev=[0-9]*" <<<"$got")
        check "host: soak: every $ev posted was delivered where enabled (${p#*=} posted, ${g#*=} delivered)" \
            test -n "$p" -a "$p" = "$g" -a "${p#*=}" != 0
    done
fi

# ---- teardown: an agent's own threads (one native, one attached through
# JNI) call JVM TI in a loop while the host ends; after VMDeath their calls
# fail cleanly (WRONG_PHASE), and nothing crashes, also when the process
# lingers 300 ms after the host is done (teardown_agent.c). In OnLoad the
# agent also calls an environment it disposed. ----
teardown_build() {
    $CC -std=c11 -Wall -Wextra -Werror -g -O1 -shared -fPIC -pthread "${san[@]}" \
        -I"$JDK_INC" -I"$JDK_INC/linux" -o "$d/teardown.so" tests/host/teardown_agent.c &&
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC -o "$d/linger.so" tests/host/linger.c
}
if check "host: teardown: the agent builds against the JDK's own jvmti.h" teardown_build; then
    expected_teardown='teardown: OnLoad: 1000 of 1000 calls to a disposed environment: INVALID_ENVIRONMENT
teardown: native thread: 100 or more calls after VMDeath, 0 unexpected answers
teardown: attached thread: 100 or more calls after VMDeath, 0 unexpected answers'
    runs=${TEARDOWN_RUNS:-10}
    for how in exit linger; do
        pre=()
        # the preloaded library is not instrumented: ASan must not insist on coming first
        [ $how = linger ] && pre=(env LD_PRELOAD="$d/linger.so" ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}")
        crashed=0 differ=0 first=""
        for i in $(seq "$runs"); do
            out=$("${pre[@]}" timeout -k 5 60 "$JVMTI_HOST" -agentpath:"$d/teardown.so" -threads:1 2>"$d/teardown.err")
            status=$?
            [ "$status" = 0 ] || { crashed=$((crashed + 1)); [ -n "$first" ] || first="exit $status: $(grep -E 'ERROR|SUMMARY|#[0-3] ' "$d/teardown.err" | head -3)"; }
            [ "$out" = "$expected_teardown" ] || { differ=$((differ + 1)); [ -n "$first" ] || first="output: $out"; }
        done
        check "host: teardown ($how): $runs runs exit 0 with the expected answers ($crashed failed, $differ differed${first:+; first: $first})" \
            test "$crashed" = 0 -a "$differ" = 0
    done
fi

# ---- classes from class files: -load posts ClassFileLoadHook, ClassLoad and
# ClassPrepare; two environments of one agent (built against the JDK's
# jvmti.h) chain their transformations (classes_agent.c); -dump-classes
# shows the bytes the host defined ----
if need_tool "host: classes" javac; then
    cd_=$d/classes; mkdir -p "$cd_/in" "$cd_/both" "$cd_/retransform"
    check "host: classes: the test classes compile" \
        javac -d "$cd_/in" tests/host/classes/Marked.java tests/host/classes/Plain.java
    cls_build() {
        $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC "${san[@]}" -I"$JDK_INC" -I"$JDK_INC/linux" \
            -o "$cd_/agent.so" tests/host/classes_agent.c
    }
    check "host: classes: the agent builds against the JDK's jvmti.h" cls_build
    # expected_dump OUT LETTERS: Marked.class with the marker's slots filled by hand.
    expected_dump() {
        python3 -c 'import sys; b = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(b.replace(b"JVMTIGEN_MARK__", b"JVMTIGEN_MARK" + sys.argv[3].encode(), 1))' \
            "$cd_/in/Marked.class" "$1" "$2"
    }
    out=$(run_host -agentpath:"$cd_/agent.so"=watch=Plain -threads:0 -load:"$cd_/in/Marked.class" \
        -load:"$cd_/in/Plain.class" -dump-classes:"$cd_/both" 2>"$cd_/both.err")
    check "host: classes: two incapable environments: exit status 0" test $? = 0
    check "host: classes: A transforms first, B sees A's bytes; ClassLoad and ClassPrepare follow, for each class" \
        diff <(printf '%s\n' "A: ClassFileLoadHook Marked: saw JVMTIGEN_MARK__" \
            "B: ClassFileLoadHook Marked: saw JVMTIGEN_MARKA_" "A: ClassLoad Marked" "B: ClassLoad Marked" \
            "A: ClassPrepare Marked" "B: ClassPrepare Marked" "A: ClassFileLoadHook Plain: no mark" \
            "B: ClassFileLoadHook Plain: no mark" "A: ClassLoad Plain" "B: ClassLoad Plain" \
            "A: ClassPrepare Plain" "B: ClassPrepare Plain") <(printf '%s\n' "$out")
    if need_tool "host: classes: the host defines Marked with B's bytes (built on A's)" python3; then
        expected_dump "$cd_/MarkedAB.class" AB
        check "host: classes: the host defines Marked with B's bytes (built on A's)" \
            cmp "$cd_/MarkedAB.class" "$cd_/both/Marked.class"
    fi
    check "host: classes: the host defines Plain with its own bytes" \
        cmp "$cd_/in/Plain.class" "$cd_/both/Plain.class"
    out=$(run_host -all-capabilities -agentpath:"$cd_/agent.so"=retransform=A -threads:0 \
        -load:"$cd_/in/Marked.class" -dump-classes:"$cd_/retransform" 2>"$cd_/retransform.err")
    check "host: classes: A capable of retransformation: exit status 0" test $? = 0
    check "host: classes: the incapable B goes first, A sees B's bytes" \
        diff <(printf '%s\n' "B: ClassFileLoadHook Marked: saw JVMTIGEN_MARK__" \
            "A: ClassFileLoadHook Marked: saw JVMTIGEN_MARKB_" "A: ClassLoad Marked" "B: ClassLoad Marked" \
            "A: ClassPrepare Marked" "B: ClassPrepare Marked") <(printf '%s\n' "$out")
    if need_tool "host: classes: ... and the host defines Marked with A's bytes (built on B's)" python3; then
        expected_dump "$cd_/MarkedBA.class" BA
        check "host: classes: ... and the host defines Marked with A's bytes (built on B's)" \
            cmp "$cd_/MarkedBA.class" "$cd_/retransform/Marked.class"
    fi
    printf 'not a class' >"$cd_/bad.class"
    run_host -threads:0 -load:"$cd_/bad.class" >/dev/null 2>"$cd_/bad.err"
    check "host: classes: a file that is not a class file: exit 1 with a message" \
        sh -c "test $? = 1 && grep -q 'bad.class: not a class file' '$cd_/bad.err'"
fi

# ---- the frames area (host/frames.c): breakpoints, field watches, frame
# pops, a native method prefix, the JNI table and class-loader search, used
# by an agent built against the JDK's own jvmti.h; a second copy of it only
# enables the events, and must get none of them ----
frames_build() {
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC -pthread "${san[@]}" -I"$JDK_INC" -I"$JDK_INC/linux" \
        -o "$d/frames_a.so" tests/host/frames_agent.c && cp "$d/frames_a.so" "$d/frames_b.so"
}
if check "host: frames: the agent builds against the JDK's own jvmti.h" frames_build; then
    out=$(run_host -agentpath:"$d/frames_a.so"=A -agentpath:"$d/frames_b.so"=B,quiet -threads:1 Main 2>"$d/frames.err")
    status=$?
    check "host: frames: exit status 0 (got $status)" test "$status" = 0
    expected_frames() {
        cat <<'EOT'
A: AddCapabilities: NONE
A: SetNativeMethodPrefix: NONE
A: AddToBootstrapClassLoaderSearch in OnLoad: NONE
B: AddCapabilities: NONE
A: SetBreakpoint(run, 2): NONE
A: SetBreakpoint(run, 2) again: DUPLICATE
A: SetBreakpoint(run, 99): INVALID_LOCATION
A: ClearBreakpoint(run, 3): NOT_FOUND
A: SetBreakpoint(getName, 0): NONE
A: SetFieldAccessWatch(name): NONE
A: SetFieldAccessWatch(name) again: DUPLICATE
A: ClearFieldModificationWatch(name): NOT_FOUND
A: SetFieldModificationWatch(priority): NONE
A: NotifyFramePop(current, 0) in VMInit: NO_MORE_FRAMES
A: GetJNIFunctionTable: NONE
A: SetJNIFunctionTable: NONE
A: GetVersion through the new table: counted
A: boot class path appended in OnLoad: /no/such/boot/dir
A: AddToSystemClassLoaderSearch(a directory) when live: ILLEGAL_ARGUMENT
A: a new thread's JNIEnv uses the new table: yes
A: Breakpoint run@2: hit
A: a new thread's JNIEnv uses the new table: yes
A: SuspendThread(worker) in its Breakpoint: NONE
A: the suspended worker, 50 ms after its callback returned: 1 frame, run@2
A: NotifyFramePop(suspended worker, 0): NONE
A: NotifyFramePop(suspended worker, 1): NO_MORE_FRAMES
A: GetLocalInstance(suspended worker, 0): NONE, the worker
A: GetLocalInt(suspended worker, 0, 1): NONE, 2
A: GetLocalObject(suspended worker, 0, 1): TYPE_MISMATCH
A: GetLocalInt(suspended worker, 0, 2): INVALID_SLOT
A: SetLocalInt(suspended worker, 0, 1): NONE
A: PopFrame(suspended worker): OPAQUE_FRAME
A: ForceEarlyReturnVoid(suspended worker): OPAQUE_FRAME
A: Breakpoint getName@0: hit
A: NotifyFramePop(current, 0): NONE
A: NotifyFramePop(current, 0) again: DUPLICATE
A: NotifyFramePop(current, 2): NO_MORE_FRAMES
A: GetLocalInt(current, 1, 1): run's i: NONE, 2
A: GetLocalInstance(current, 0): getName's this: NONE, the thread
A: FieldAccess name in getName@1: seen
A: FramePop getName: returned
A: ClearBreakpoint(getName, 0): NONE
A: ClearBreakpoint(getName, 0) again: NOT_FOUND
A: FieldModification priority in run@4: I 5
jvmti-host: native hashCode: prefixes $$frames_
A: FramePop run: returned
A: ClearBreakpoint(getName, 0): NOT_FOUND
A: ClearBreakpoint(getName, 0) again: NOT_FOUND
A: VMDeath: reached
A: ResumeThread(worker) after NotifyFramePop: NONE
B: VMDeath: reached
EOT
    }
    check "host: frames: breakpoint hit, field watched, frame pop delivered (also one asked for by another thread while the worker was suspended: it stops before its next move), the locals of the suspended worker and of the current thread read, JNI table interposed, prefix and boot path seen by the VM; nothing reaches the environment that did not ask" \
        diff <(expected_frames) <(cat <<<"$out")
    # Four threads through the same breakpoints, watches and frame pops at
    # once (what SANITIZE=thread is for).
    out=$(run_host -agentpath:"$d/frames_a.so"=A -agentpath:"$d/frames_b.so"=B,quiet -threads:4 Main 2>"$d/frames4.err")
    status=$?
    check "host: frames: four threads at once: exit status 0 (got $status)" test "$status" = 0
    [ "$status" = 0 ] || grep -E 'ERROR|WARNING|SUMMARY|#[0-3] ' "$d/frames4.err" | head -20
    check "host: frames: four threads at once: 4 hits of run@2, none for B" \
        test "$(grep -c '^A: Breakpoint run@2: hit$' <<<"$out"),$(grep -c '^B: [BF]' <<<"$out")" = "4,0"
fi

# ---- stacks and classes (host/stacks.c, host/classes.c): the core's stack functions over
# the host's walk, from the main thread with no frames (VMInit), a worker
# stopped at a breakpoint in getName called by run, and after the worker
# ended (VMDeath); the class lists. The agent is built against the JDK's
# own jvmti.h. The answers are the spec's, written by hand. ----
stacks_build() {
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC "${san[@]}" -I"$JDK_INC" -I"$JDK_INC/linux" \
        -o "$d/stacks.so" tests/host/stacks_agent.c
}
if check "host: stacks: the agent builds against the JDK's own jvmti.h" stacks_build; then
    out=$(run_host -agentpath:"$d/stacks.so" -threads:1 Main 2>"$d/stacks.err")
    status=$?
    check "host: stacks: exit status 0 (got $status)" test "$status" = 0
    expected_stacks() {
        cat <<'EOT'
stacks: VMInit: GetFrameCount(current): 0
stacks: VMInit: GetStackTrace(current, 0, 5): 0:
stacks: VMInit: GetStackTrace(current, 1, 5): ILLEGAL_ARGUMENT
stacks: VMInit: GetStackTrace(current, -1, 5): ILLEGAL_ARGUMENT
stacks: VMInit: GetFrameLocation(current, 0): NO_MORE_FRAMES
stacks: VMInit: GetFrameCount(a class): INVALID_THREAD
stacks: VMInit: GetLoadedClasses: 4 or more, with java/lang/Thread
stacks: VMInit: GetClassLoaderClasses(bootstrap): 4 or more, with java/lang/Thread
stacks: SetBreakpoint(getName, 1): NONE
stacks: Breakpoint: GetFrameCount(current): 2
stacks: Breakpoint: GetFrameCount(main): 0
stacks: Breakpoint: GetStackTrace(current, 0, 5): 2: getName@1 run@2
stacks: Breakpoint: GetStackTrace(thread, 0, 1): 1: getName@1
stacks: Breakpoint: GetStackTrace(current, 1, 5): 1: run@2
stacks: Breakpoint: GetStackTrace(current, -1, 5): 1: run@2
stacks: Breakpoint: GetStackTrace(current, -2, 1): 1: getName@1
stacks: Breakpoint: GetStackTrace(current, 0, 0): 0:
stacks: Breakpoint: GetStackTrace(current, 2, 5): ILLEGAL_ARGUMENT
stacks: Breakpoint: GetStackTrace(current, 2, 0): ILLEGAL_ARGUMENT
stacks: Breakpoint: GetStackTrace(current, -3, 5): ILLEGAL_ARGUMENT
stacks: Breakpoint: GetFrameLocation(current, 0): 1: getName@1
stacks: Breakpoint: GetFrameLocation(current, 1): 1: run@2
stacks: Breakpoint: GetFrameLocation(current, 2): NO_MORE_FRAMES
stacks: Breakpoint: GetAllStackTraces(5): 2 threads, frames 0 2, one block
stacks: Breakpoint: GetThreadListStackTraces(current, main, current; 1): 3 threads, frames 1 0 1, one block
stacks: VMDeath: GetFrameCount(ended worker): THREAD_NOT_ALIVE
stacks: VMDeath: GetStackTrace(ended worker, 0, 5): THREAD_NOT_ALIVE
stacks: VMDeath: GetThreadListStackTraces(ended worker, main): 2 threads, frames 0(terminated) 0, one block
EOT
    }
    check "host: stacks: depths from both ends, max_frame_count, errors, stack infos in one block, class lists" \
        diff <(expected_stacks) <(cat <<<"$out")
    # Four workers stopped at the breakpoint while the others run: walks
    # of every thread's stack while stacks change (what SANITIZE=thread is for).
    out=$(run_host -agentpath:"$d/stacks.so" -threads:4 Main 2>"$d/stacks4.err")
    status=$?
    check "host: stacks: four threads at once: exit status 0 (got $status)" test "$status" = 0
    [ "$status" = 0 ] || grep -E 'ERROR|WARNING|SUMMARY|#[0-3] ' "$d/stacks4.err" | head -20
    check "host: stacks: four threads at once: each sees its own 2 frames" \
        test "$(grep -c '^stacks: Breakpoint: GetStackTrace(current, 0, 5): 2: getName@1 run@2$' <<<"$out")" = 4
fi

# ---- metadata_agent.c (JDK 17 header): the core's thread, class and object
# queries over the host's records (config.thread_ref, thread_info,
# class_info; walk_stacks' state; heap_object_info's size): the main thread
# in VMInit, the worker in ThreadStart and once it ended, java/lang/Thread
# and int[], an object. The answers are the spec's and the host's model
# (host/README.md), written by hand. ----
metadata_build() {
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC "${san[@]}" -I"$JDK_INC" \
        -I"$JDK_INC/linux" -o "$d/metadata.so" tests/host/metadata_agent.c
}
if check "host: metadata: the agent builds against the JDK's own jvmti.h" metadata_build; then
    out=$(run_host -agentpath:"$d/metadata.so" -threads:1 -heap:1 Main 2>"$d/metadata.err")
    status=$?
    check "host: metadata: exit status 0 (got $status)" test "$status" = 0
    expected_metadata() {
        cat <<'EOT'
metadata: VMInit: GetCurrentThread: NONE, VMInit's thread
metadata: VMInit: GetAllThreads: 1: main
metadata: VMInit: GetThreadInfo(NULL): name main, priority 5, daemon 0
metadata: VMInit: GetThreadState(NULL): 0x5
metadata: VMInit: GetThreadState(a class): INVALID_THREAD
metadata: GetClassSignature(java/lang/Thread): Ljava/lang/Thread;, generic NULL
metadata: status, modifiers, interface, array (java/lang/Thread): NONE 0x7, NONE 0x21, NONE 0, NONE 0
metadata: GetSourceFileName(java/lang/Thread): NONE Thread.java
metadata: GetClassSignature(int[]): [I, generic NULL
metadata: status, modifiers, interface, array (int[]): NONE 0x10, NONE 0x411, NONE 0, NONE 1
metadata: GetSourceFileName(int[]): ABSENT_INFORMATION -
metadata: VMInit: GetClassStatus(a thread): INVALID_CLASS
metadata: VMInit: GetObjectSize(a new Object): NONE, more than 0 bytes
metadata: VMInit: GetObjectHashCode(the object, another reference to it): NONE NONE, the same
metadata: VMInit: GetObjectSize(a class): NONE, more than 0 bytes
metadata: ThreadStart: GetCurrentThread: the worker
metadata: ThreadStart: GetAllThreads: 2: main worker-0
metadata: ThreadStart: GetThreadState(worker): 0x5
metadata: VMDeath: GetThreadState(ended worker): 0x2
metadata: VMDeath: GetThreadInfo(ended worker): name worker-0, priority 5, daemon 0
metadata: VMDeath: GetAllThreads: 1: main
EOT
    }
    check "host: metadata: threads (the worker named worker-0), classes (int[] told by its signature), objects" \
        diff <(expected_metadata) <(cat <<<"$out")
fi

# ---- heap_agent.c (built against the JDK's jvmti.h): every heap walk of
# the core over the host's heap model (host/scaffold/heap_model.c, -heap:5); the counts
# are worked out by hand from the model's shape (see heap_agent.c) ----
heap_build() {
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC "${san[@]}" -I"$JDK_INC" \
        -I"$JDK_INC/linux" -o "$d/heap.so" tests/host/heap_agent.c
}
if check "host: heap: the agent builds against the JDK's jvmti.h" heap_build; then
    out=$(run_host -agentpath:"$d/heap.so" -threads:1 -heap:5 Main 2>"$d/heap.err")
    status=$?
    check "host: heap: exit status 0 (got $status)" test "$status" = 0
    [ "$status" = 0 ] || grep -E 'ERROR|WARNING|SUMMARY|#[0-3] ' "$d/heap.err" | head -20
    heap_expect() {
        cat <<'EOT'
heap: AddCapabilities(can_tag_objects): JVMTI_ERROR_NONE
heap: IterateOverInstancesOfClass(HeapRoot): JVMTI_ERROR_NONE, 1 instance(s), tagged 1
heap: FollowReferences(from the root): JVMTI_ERROR_NONE, 34 references: CLASS 16 FIELD 7 ARRAY_ELEMENT 5 SUPERCLASS 6
heap: ... int fields 6 (sum 15), int arrays 1 (sum 6), strings 1, self-references 1
heap: FollowReferences(klass HeapNode): JVMTI_ERROR_NONE, 9 references, 5 int fields (sum 10)
heap: ... tags set by the primitive field callback: JVMTI_ERROR_NONE, 5 nodes tagged 1000..1004
heap: FollowReferences(HEAP_FILTER_UNTAGGED): JVMTI_ERROR_NONE, 11 references to tagged objects
heap: FollowReferences(from the roots): JVMTI_ERROR_NONE, 48 references, JNI_GLOBAL 1 STACK_LOCAL 1 THREAD 1 SYSTEM_CLASS 8
heap: FollowReferences(VISIT_ABORT at once): JVMTI_ERROR_NONE, 1 reference
heap: IterateThroughHeap(klass HeapNode): JVMTI_ERROR_NONE, 5 objects, 5 int fields (sum 10)
heap: IterateThroughHeap(HEAP_FILTER_UNTAGGED): JVMTI_ERROR_NONE, 6 tagged objects
heap: IterateOverObjectsReachableFromObject(root): JVMTI_ERROR_NONE, 34 references: CLASS 22 FIELD 7 ARRAY_ELEMENT 5
heap: IterateOverReachableObjects: JVMTI_ERROR_NONE, roots JNI_GLOBAL 1 STACK_LOCAL 1 THREAD 1 SYSTEM_CLASS 8, 37 references
heap: IterateOverHeap: JVMTI_ERROR_NONE, 18 objects, 6 tagged
heap: IterateOverInstancesOfClass(HeapNode, TAGGED): JVMTI_ERROR_NONE, 5
heap: FollowReferences(NULL callbacks): JVMTI_ERROR_NULL_POINTER
EOT
    }
    check "host: heap: every heap walk over the model (-heap:5) reports what the spec says" \
        diff <(heap_expect) <(grep '^heap: ' <<<"$out")
    [ "$(grep -c '^heap: ' <<<"$out")" = 16 ] || { echo "$out" | head -30; cat "$d/heap.err" | head; }
fi

# The same walks against HotSpot 17 over the same shape are the kit's heap
# area (tests/conformance/area_heap.c).

# ---- groups_agent.c (built against the JDK's jvmti.h): the core's thread
# group functions over the host's groups (system > main, host/groups.c) and
# RunAgentThread on a Thread object made with AllocObject; the agent
# thread's lines interleave with VMInit's, so they are compared sorted ----
groups_build() {
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC "${san[@]}" -I"$JDK_INC" \
        -I"$JDK_INC/linux" -o "$d/groups.so" tests/host/groups_agent.c
}
if check "host: groups: the agent builds against the JDK's jvmti.h" groups_build; then
    out=$(run_host -agentpath:"$d/groups.so" -threads:1 Main 2>"$d/groups.err")
    status=$?
    check "host: groups: exit status 0 (got $status)" test "$status" = 0
    groups_expect() {
        sort <<'EOT'
groups: GetTopThreadGroups: NONE, 1: system
groups: GetThreadGroupInfo(system): name system, parent NULL, max_priority 10, daemon 0
groups: children(system): 0 threads:; 1 groups: main
groups: children(main): 1 threads: main; 0 groups:
groups: GetThreadGroupInfo(main): parent is system: 1
groups: GetThreadInfo(NULL): group main
groups: GetThreadGroupInfo(NULL): INVALID_THREAD_GROUP
groups: GetThreadGroupInfo(a thread): INVALID_THREAD_GROUP
groups: RunAgentThread(priority 11): INVALID_PRIORITY
groups: RunAgentThread(NULL): INVALID_THREAD
groups: RunAgentThread(a group): INVALID_THREAD
groups: ThreadStart: agent
groups: agent thread: name agent, priority 7, daemon 1, group NULL
groups: agent thread: GetCurrentThread is the object given: 1, arg the arg, JNIEnv set
groups: agent thread: GetAllThreads lists it: 1
groups: agent thread: children(main): 1 threads: main; 0 groups:
groups: RunAgentThread(priority 7): NONE
groups: VMInit: the agent thread ran: 1
groups: RunAgentThread(the same object again): INVALID_THREAD
groups: ThreadStart: worker-0
EOT
    }
    check "host: groups: the groups system > main, an agent thread in none, RunAgentThread's errors" \
        diff <(groups_expect) <(grep '^groups: ' <<<"$out" | sort)
fi

# ---- a real program: -cp DIR CLASS interprets Debuggee.main's bytecodes
# (host/interp.c); interp_agent.c debugs it (a breakpoint at a line, the
# stack with line numbers, the local variable table, int and String
# locals, SetLocalInt, single steps, FramePop, MethodEntry / MethodExit)
# and must print the same in HotSpot 17 and in the host: the text below,
# written by hand from Debuggee.java (javap -c -l shows the locations) ----
jdk=$(dirname "$JDK_INC")
JAVAC=$jdk/bin/javac; [ -x "$JAVAC" ] || JAVAC=$(command -v javac || true)
JAVA=$jdk/bin/java; [ -x "$JAVA" ] || JAVA=$(command -v java || true)
if [ -z "$JAVAC" ]; then
    lack "host: interp: Debuggee.java compiled with javac -g" javac
else
    id_=$d/interp; mkdir -p "$id_/in"
    check "host: interp: Debuggee.java, Arith.java, Outside.java and Workers.java compile (javac -g)" \
        "$JAVAC" -g -d "$id_/in" tests/host/Debuggee.java tests/host/Arith.java tests/host/Outside.java \
        tests/host/Workers.java
    interp_build() { # OUT [SANITIZER FLAGS]
        local out=$1
        shift
        $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC -pthread "$@" -I"$JDK_INC" \
            -I"$JDK_INC/linux" -o "$out" tests/host/interp_agent.c
    }
    check "host: interp: the agent builds against the JDK's jvmti.h" interp_build "$id_/agent.so" "${san[@]}"
    # HotSpot loads it uninstrumented (a sanitized agent needs its runtime preloaded).
    check "host: interp: ... and without sanitizers, for HotSpot" interp_build "$id_/hotspot.so"
    interp_expect() {
        cat <<'EOT'
interp: prepared Debuggee: sum at locations 0..30, line 20 at location 12
start
interp: breakpoint: Debuggee.sum location 12 line 20
interp:   2 frames
interp:   at Debuggee.sum line 20
interp:   at Debuggee.main line 9
interp:   local 0: n I, locations 0..30
interp:   local 1: label Ljava/lang/String;, locations 3..30
interp:   local 2: total I, locations 5..30
interp:   local 3: i I, locations 7..21
interp:   n = 4, total = 0, i = 1
interp:   label = "sum"
interp:   GetLocalInt of label: JVMTI_ERROR_TYPE_MISMATCH
interp:   GetLocalInt of slot 9: JVMTI_ERROR_INVALID_SLOT
interp:   total set to 100
interp: watcher: suspended at Debuggee.sum location 12, i = 1, total = 100
interp: watcher: GetLocalInt of i at depth 1: JVMTI_ERROR_INVALID_SLOT
interp: watcher: resumed
interp: step: Debuggee.sum location 13 line 20
interp: step: Debuggee.sum location 14 line 20
interp: step: Debuggee.sum location 15 line 20
interp: step: Debuggee.sum location 16 line 19
interp: step: Debuggee.sum location 19 line 19
interp: step: Debuggee.sum location 7 line 19
sum
interp: MethodExit: Debuggee.sum returns 110
interp: FramePop: Debuggee.sum, by exception: 0
interp:   GetLocalInt of i at the return: JVMTI_ERROR_INVALID_SLOT
110
interp: MethodExit: Debuggee.twice returns 42
42
interp: MethodExit: Debuggee.big returns 3000000021
3000000021
end
interp: main: 1 MethodEntry, 1 MethodExit
interp: sum: 1 MethodEntry, 1 MethodExit
interp: twice: 1 MethodEntry, 1 MethodExit
interp: big: 1 MethodEntry, 1 MethodExit
interp: 1 FramePop
EOT
    }
    out=$(run_host -agentpath:"$id_/agent.so"=sum:20 -cp "$id_/in" Debuggee 2>"$id_/host.err")
    status=$?
    check "host: interp: exit status 0 (got $status)" test "$status" = 0
    check "host: interp: the agent sees Debuggee run as written (stack, lines, locals, steps, events)" \
        diff <(interp_expect) <(printf '%s\n' "$out")
    check "host: interp: nothing on stderr" test ! -s "$id_/host.err"
    if [ -n "$JAVA" ] && "$JAVA" -version 2>&1 | grep -q 'version "17'; then
        out=$("$JAVA" -agentpath:"$id_/hotspot.so"=sum:20 -cp "$id_/in" Debuggee 2>"$id_/hotspot.err")
        check "host: interp: HotSpot 17 prints the same" diff <(interp_expect) <(printf '%s\n' "$out")
    else
        lack "host: interp: the same agent and program in HotSpot 17" "java (17)"
    fi
    # PopFrame and ForceEarlyReturn: the interpreted frames are opaque (the
    # host's choice, tests/conformance/differences.md), and the program runs on.
    out=$(run_host -agentpath:"$id_/agent.so"=sum:20:unwind -threads:0 -cp "$id_/in" Debuggee 2>&1)
    check "host: interp: PopFrame and ForceEarlyReturnInt on an interpreted frame answer OPAQUE_FRAME" \
        diff <(printf 'interp:   PopFrame: JVMTI_ERROR_OPAQUE_FRAME\ninterp:   ForceEarlyReturnInt: JVMTI_ERROR_OPAQUE_FRAME\n') \
             <(grep -E '(PopFrame|ForceEarlyReturnInt):' <<<"$out")
    check "host: interp: ... and the program runs to its end" grep -qx end <<<"$out"
    # Without an agent the program's own output is all there is.
    out=$(run_host -threads:0 -cp "$id_/in" Debuggee 2>&1)
    check "host: interp: without an agent, the program's output only" \
        diff <(printf '%s\n' start sum 10 42 3000000021 end) <(printf '%s\n' "$out")
    # The subset's arithmetic where C and Java part ways (Arith.java's comments).
    arith_expect() {
        printf '%s\n' -3 -2 -5 15 -136 5 -17 -22 17 -2147483648 -2147483648 0 \
            -3 -2 -5 15 -18691697672192 0 -17 0 -4 -7
    }
    out=$(run_host -threads:0 -cp "$id_/in" Arith 2>&1)
    check "host: interp: int and long arithmetic as Java has it" diff <(arith_expect) <(printf '%s\n' "$out")
    if [ -n "$JAVA" ]; then
        check "host: interp: ... and as HotSpot prints it" \
            diff <(arith_expect) <("$JAVA" -cp "$id_/in" Arith 2>&1)
    fi
    # Threads of the program's own class: started, run, joined, a static
    # field shared; as HotSpot prints it. A second start() stops the program.
    out=$(run_host -threads:0 -cp "$id_/in" Workers 2>&1)
    status=$?
    check "host: interp: a thread of the program's class started, run and joined (exit $status)" \
        diff <(printf '%s\n' main worker 2 end) <(printf '%s\n' "$out")
    if [ -n "$JAVA" ]; then
        check "host: interp: ... and as HotSpot prints it" \
            diff <(printf '%s\n' main worker 2 end) <("$JAVA" -cp "$id_/in" Workers 2>&1)
    fi
    err=$(run_host -threads:0 -cp "$id_/in" Restart 2>&1 >"$id_/restart.out")
    status=$?
    check "host: interp: a second start() stops the program, exit 1 (got $status), after what came before" \
        bash -c 'test "$1" = 1 && test "$(cat "$2")" = ran' _ "$status" "$id_/restart.out"
    check "host: interp: ... naming it" grep -qx \
        "jvmti-host: Restart.main(\[Ljava/lang/String;)V at location 25: a second start() (IllegalThreadStateException is outside the subset)" <<<"$err"
    # Outside the subset: a clear stop naming the instruction and where, exit 1.
    err=$(run_host -threads:0 -cp "$id_/in" Outside 2>&1 >"$id_/outside.out")
    status=$?
    check "host: interp: an instruction outside the subset exits 1 (got $status)" test "$status" = 1
    check "host: interp: ... naming the instruction, the method and the location" \
        grep -qx "jvmti-host: Outside.main(\[Ljava/lang/String;)V at location 8: new (0xbb) is outside the interpreter's subset (host/interp.c)" <<<"$err"
    check "host: interp: ... after running what came before it" \
        diff <(echo before) "$id_/outside.out"
    err=$(run_host -threads:0 -cp "$id_/in" Missing 2>&1)
    status=$?
    check "host: interp: a class that is not there exits 1 (got $status)" test "$status" = 1
    check "host: interp: ... naming the file" grep -q "Missing.class: No such file" <<<"$err"
    run_host -cp "$id_/in" >/dev/null 2>&1
    status=$?
    check "host: interp: -cp without a class is a usage error (got $status)" test "$status" = 2
fi

# ---- monitors_agent.c (built against the JDK's jvmti.h): the core's Java
# monitor functions over the host's model (host/monitors.c: Main.main holds
# class Main's monitor, Thread.run its own thread object's; nothing waits),
# at VMInit, at breakpoints in ConfChain.c (main) and Thread.getName (the
# worker), and at VMDeath ----
monitors_build() {
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC "${san[@]}" -I"$JDK_INC" \
        -I"$JDK_INC/linux" -o "$d/monitors.so" tests/host/monitors_agent.c
}
if check "host: monitors: the agent builds against the JDK's jvmti.h" monitors_build; then
    out=$(run_host -agentpath:"$d/monitors.so" -threads:1 Main 2>"$d/monitors.err")
    status=$?
    check "host: monitors: exit status 0 (got $status)" test "$status" = 0
    monitors_expect() {
        cat <<'EOT'
monitors: AddCapabilities: 0
monitors: VMInit: GetOwnedMonitorStackDepthInfo: 0:
monitors: VMInit: GetOwnedMonitorInfo: the same
monitors: VMInit: Main's: GetObjectMonitorUsage: owner null, entries 0, waiters 0, to notify 0
monitors: VMInit: null's: GetObjectMonitorUsage: error 20
monitors: VMInit: SetBreakpoint(ConfChain.c, 0): NONE
monitors: VMInit: SetBreakpoint(getName, 1): NONE
monitors: c: GetOwnedMonitorStackDepthInfo: 1: Main@3
monitors: c: GetOwnedMonitorInfo: the same
monitors: c: GetCurrentContendedMonitor: null
monitors: c: Main's: GetObjectMonitorUsage: owner current, entries 1, waiters 0, to notify 0
monitors: c: the main thread's: GetObjectMonitorUsage: owner null, entries 0, waiters 0, to notify 0
monitors: getName: GetOwnedMonitorStackDepthInfo: 1: current@1
monitors: getName: GetOwnedMonitorInfo: the same
monitors: getName: the worker's: GetObjectMonitorUsage: owner current, entries 1, waiters 0, to notify 0
monitors: getName: Main's: GetObjectMonitorUsage: owner null, entries 0, waiters 0, to notify 0
monitors: getName: GetCurrentContendedMonitor: null
monitors: VMDeath: the worker's GetOwnedMonitorStackDepthInfo: error 15
monitors: VMDeath: the worker's GetOwnedMonitorInfo: the same
monitors: VMDeath: GetCurrentContendedMonitor(the worker): error 15
monitors: VMDeath: the worker's: GetObjectMonitorUsage: owner null, entries 0, waiters 0, to notify 0
EOT
    }
    check "host: monitors: Main.main holds Main's monitor at depth 3, Thread.run its thread's at 1, none after" \
        diff <(monitors_expect) <(grep '^monitors: ' <<<"$out")
fi

# ---- modules_agent.c (built against the JDK's jvmti.h): the core's module
# functions over the host's two modules (host/modules.c: java.base with
# java/lang, and the unnamed module); the host prints each update the core
# passes on, and nothing for the spec's no-ops and the refused ones ----
modules_build() {
    $CC -std=c11 -Wall -Wextra -Werror -shared -fPIC "${san[@]}" -I"$JDK_INC" \
        -I"$JDK_INC/linux" -o "$d/modules.so" tests/host/modules_agent.c
}
if check "host: modules: the agent builds against the JDK's jvmti.h" modules_build; then
    out=$(run_host -agentpath:"$d/modules.so" -threads:0 Main 2>"$d/modules.err")
    status=$?
    check "host: modules: exit status 0 (got $status)" test "$status" = 0
    modules_expect() {
        cat <<'EOT'
modules: GetNamedModule(NULL, java/lang): 0
modules: GetNamedModule(NULL, no/such): 0
modules: ... java/lang's is a module, no/such's is null
modules: GetNamedModule(a thread, java/lang): 103
modules: GetAllModules: 0
modules: ... 2 modules, java.base among them: 1
modules: IsModifiableModule(java.base): 0
modules: ... 1
modules: IsModifiableModule(unnamed): 0
modules: ... 1
modules: IsModifiableModule(a thread): 26
jvmti-host: module java.base: reads unnamed
modules: AddModuleReads(java.base, unnamed): 0
modules: AddModuleReads(unnamed, java.base): a no-op: 0
modules: AddModuleReads(java.base, a thread): 26
jvmti-host: module java.base: exports java/lang to unnamed
modules: AddModuleExports(java.base, java/lang, unnamed): 0
modules: AddModuleExports(java.base, no/such, unnamed): 103
jvmti-host: module java.base: opens java/lang to unnamed
modules: AddModuleOpens(java.base, java/lang, unnamed): 0
modules: AddModuleOpens(a thread, java/lang, unnamed): 26
jvmti-host: module java.base: uses java/lang/Thread
modules: AddModuleUses(java.base, Thread): 0
jvmti-host: module java.base: provides java/lang/Thread with java/lang/Object
modules: AddModuleProvides(java.base, Thread, Object): 0
modules: AddModuleUses(unnamed, Thread): a no-op: 0
EOT
    }
    check "host: modules: listed, found by package, checked (INVALID_MODULE, ILLEGAL_ARGUMENT), updated or a no-op" \
        diff <(modules_expect) <(grep -E '^(modules: |jvmti-host: module )' <<<"$out")
fi
