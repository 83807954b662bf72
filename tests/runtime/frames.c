/* frames.c: unit tests of the core's frames area (runtime/threads/breakpoints.c,
 * framepops.c, prefixes.c, jnitable.c, loadersearch.c) through real
 * function tables: breakpoints and field watches (DUPLICATE, NOT_FOUND,
 * arming only on the first set and disarming on the last clear), Breakpoint,
 * FieldAccess, FieldModification and FramePop delivered only to the
 * environments that asked, frame-pop requests, native method prefixes in
 * the spec's order, the JNI function table and class-loader search.
 * This program plays the VM: its operations log what the core asks of it.
 * Expected values are the spec's, written by hand. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jvmtigen_post.h"
#include "jvmtigen_tables.h"
#include "jvmtirt.h"

static int failures;

static void report(int ok, const char *desc, long long got, long long want)
{
    if (ok)
        printf("ok - runtime: frames: %s\n", desc);
    else
        printf("not ok - runtime: frames: %s (expected %lld, got %lld)\n", desc, want, got), failures++;
}

#define EXPECT(got, want, desc)                                  \
    do {                                                         \
        long long g_ = (long long)(got), w_ = (long long)(want); \
        report(g_ == w_, desc, g_, w_);                          \
    } while (0)

/* What the core asked of the VM, as text ("arm m1@5 on; ..."). */
static char vm_log[1024];

static void logf_(const char *fmt, long long a, long long b, int on)
{
    size_t n = strlen(vm_log);
    snprintf(vm_log + n, sizeof vm_log - n, fmt, a, b, on ? "on" : "off");
}

static int log_is(const char *want)
{
    int same = strcmp(vm_log, want) == 0;
    if (!same)
        printf("# VM log: \"%s\", expected \"%s\"\n", vm_log, want);
    vm_log[0] = '\0';
    return same;
}

/* ---- the VM: methods, fields, classes and one thread's stack ---- */

static char m1, m2, f1, k1, k2, main_obj, other_obj;
#define M1 ((jmethodID)(void *)&m1)
#define M2 ((jmethodID)(void *)&m2)
#define F1 ((jfieldID)(void *)&f1)
#define K1 ((jclass)(void *)&k1)
#define K2 ((jclass)(void *)&k2)
#define MAIN_T ((jthread)(void *)&main_obj)
#define OTHER_T ((jthread)(void *)&other_obj)

static jvmtiError breakpoint_arm(jmethodID method, jlocation location, int on)
{
    if (location > 10) /* m1 and m2 have 11 instructions */
        return JVMTI_ERROR_INVALID_LOCATION;
    logf_("bp %lld@%lld %s;", method == M1 ? 1 : 2, (long long)location, on);
    return JVMTI_ERROR_NONE;
}

static jvmtiError field_watch_arm(uintptr_t class_id, jfieldID field, jvmtiEvent kind, int on)
{
    (void)field;
    logf_(kind == JVMTI_EVENT_FIELD_ACCESS ? "access k%lld f%lld %s;" : "modify k%lld f%lld %s;",
          class_id == (uintptr_t)K1 ? 1 : 2, 1, on);
    return JVMTI_ERROR_NONE;
}

/* The main thread has three frames: depth 0 (key 3), 1 (key 2), and a
 * native one at depth 2 (key 1). The other thread has one. */
static int other_suspended;

static jvmtiError frame_at(uintptr_t thread, jint depth, uintptr_t *frame)
{
    jint height = thread == (uintptr_t)MAIN_T ? 3 : 1;
    if (depth >= height)
        return JVMTI_ERROR_NO_MORE_FRAMES;
    if (thread == (uintptr_t)MAIN_T && depth == 2)
        return JVMTI_ERROR_OPAQUE_FRAME;
    *frame = (uintptr_t)(height - depth);
    return JVMTI_ERROR_NONE;
}

static void frame_pop_arm(uintptr_t thread, uintptr_t frame, int on)
{
    logf_("frame t%lld#%lld %s;", thread == (uintptr_t)MAIN_T ? 1 : 2, (long long)frame, on);
}

/* What a VM would say of its own threads: the core must not go by it (a
 * thread counts as suspended only when JVM TI suspended it). */
static int thread_suspended(uintptr_t thread)
{
    return thread == (uintptr_t)OTHER_T && other_suspended;
}

/* Suspension as the core asks for it: counted, nothing stops. */
static int vm_suspends; /* atomic */
static jvmtiError suspend_thread(uintptr_t thread, int is_current)
{
    (void)thread, (void)is_current;
    __atomic_add_fetch(&vm_suspends, 1, __ATOMIC_RELAXED);
    return JVMTI_ERROR_NONE;
}
static jvmtiError resume_thread(uintptr_t thread)
{
    (void)thread;
    __atomic_sub_fetch(&vm_suspends, 1, __ATOMIC_RELAXED);
    return JVMTI_ERROR_NONE;
}

static void nap(void)
{
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

/* OTHER_T as a started thread: it starts, says so, waits for `other_go`,
 * and ends. */
static int other_started, other_go; /* atomic */
static void *other_main(void *arg)
{
    (void)arg;
    jvmtirt_thread_start((uintptr_t)OTHER_T, JVMTIRT_JAVA_THREAD);
    __atomic_store_n(&other_started, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&other_go, __ATOMIC_ACQUIRE))
        nap();
    jvmtirt_thread_end();
    return NULL;
}

static int start_other(pthread_t *t)
{
    __atomic_store_n(&other_started, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&other_go, 0, __ATOMIC_RELAXED);
    if (pthread_create(t, NULL, other_main, NULL) != 0)
        return 0;
    while (!__atomic_load_n(&other_started, __ATOMIC_ACQUIRE))
        nap();
    return 1;
}

/* NotifyFramePop(NULL) from a thread the core does not know. */
static jvmtiEnv *unattached_env;
static jvmtiError unattached_answer;
static void *unattached_main(void *arg)
{
    (void)arg;
    unattached_answer = (*unattached_env)->NotifyFramePop(unattached_env, NULL, 0);
    return NULL;
}

static struct JNINativeInterface_ vm_jni;
static const struct JNINativeInterface_ *vm_jni_now = &vm_jni;
static const struct JNINativeInterface_ *jni_table(void) { return vm_jni_now; }
static void jni_table_changed(const struct JNINativeInterface_ *t) { vm_jni_now = t; }

static jvmtiError class_path_append(int system, const char *segment, jvmtiPhase phase)
{
    size_t n = strlen(vm_log);
    snprintf(vm_log + n, sizeof vm_log - n, "%s %s %s;", system ? "system" : "boot", segment,
             phase == JVMTI_PHASE_ONLOAD ? "onload" : "live");
    return system && phase == JVMTI_PHASE_LIVE && strstr(segment, "unsupported")
               ? JVMTI_ERROR_CLASS_LOADER_UNSUPPORTED
               : JVMTI_ERROR_NONE;
}

static void vm_start(int with_ops)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    c.offer_defaults = 1; /* every capability, the VM's functions or not */
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++)
        jvmtirt_capability_set(&c.potential, b, 1);
    if (with_ops) {
        c.breakpoint_arm = breakpoint_arm;
        c.field_watch_arm = field_watch_arm;
        c.frame_at = frame_at;
        c.frame_pop_arm = frame_pop_arm;
        c.thread_suspended = thread_suspended;
        c.suspend_thread = suspend_thread;
        c.resume_thread = resume_thread;
        c.jni_table = jni_table;
        c.jni_table_changed = jni_table_changed;
        c.class_path_append = class_path_append;
    }
    jvmtirt_init(&c);
    vm_log[0] = '\0';
}

static void vm_live(void)
{
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start((uintptr_t)MAIN_T, JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
}

/* ---- agents: environments that log the events they get ---- */

static char got[64]; /* one letter per delivery: the environment's */

static char letter(jvmtiEnv *env)
{
    void *p = NULL;
    (*env)->GetEnvironmentLocalStorage(env, &p);
    return (char)(intptr_t)p;
}

static void delivered(jvmtiEnv *env)
{
    size_t n = strlen(got);
    if (n + 1 < sizeof got)
        got[n] = letter(env), got[n + 1] = '\0';
}

static int got_is(const char *want)
{
    int same = strcmp(got, want) == 0;
    if (!same)
        printf("# delivered to \"%s\", expected \"%s\"\n", got, want);
    got[0] = '\0';
    return same;
}

static void JNICALL on_breakpoint(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jlocation l)
{
    (void)jni, (void)t, (void)m, (void)l;
    delivered(env);
}

static void JNICALL on_access(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jlocation l,
                              jclass k, jobject o, jfieldID f)
{
    (void)jni, (void)t, (void)m, (void)l, (void)k, (void)o, (void)f;
    delivered(env);
}

static void JNICALL on_modify(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jlocation l,
                              jclass k, jobject o, jfieldID f, char sig, jvalue v)
{
    (void)jni, (void)t, (void)m, (void)l, (void)k, (void)o, (void)f, (void)sig, (void)v;
    delivered(env);
}

static void JNICALL on_frame_pop(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jboolean ex)
{
    (void)jni, (void)t, (void)m, (void)ex;
    delivered(env);
}

/* An environment with every capability, every one of these events enabled
 * with a callback, and its letter in its local storage. */
static jvmtiEnv *agent(char name)
{
    void *p = NULL;
    if (jvmtirt_get_env(&p, JVMTI_VERSION) != JNI_OK || !p) {
        report(0, "jvmtirt_get_env gives an environment", 0, 1);
        exit(1);
    }
    jvmtiEnv *e = p;
    (*e)->SetEnvironmentLocalStorage(e, (const void *)(intptr_t)name);
    jvmtiCapabilities caps;
    (*e)->GetPotentialCapabilities(e, &caps);
    caps.can_retransform_classes = name == 'R';
    (*e)->AddCapabilities(e, &caps);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.Breakpoint = on_breakpoint;
    cb.FieldAccess = on_access;
    cb.FieldModification = on_modify;
    cb.FramePop = on_frame_pop;
    (*e)->SetEventCallbacks(e, &cb, (jint)sizeof cb);
    jvmtiEvent evs[] = {JVMTI_EVENT_BREAKPOINT, JVMTI_EVENT_FIELD_ACCESS,
                        JVMTI_EVENT_FIELD_MODIFICATION, JVMTI_EVENT_FRAME_POP};
    for (size_t i = 0; i < sizeof evs / sizeof *evs; i++)
        (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, evs[i], NULL);
    return e;
}

static jvalue no_value;

/* ---- breakpoints and field watches ---- */

static void section_breakpoints(void)
{
    vm_start(1);
    vm_live();
    jvmtiEnv *a = agent('A'), *b = agent('B');
    EXPECT((*a)->SetBreakpoint(a, M1, 5), JVMTI_ERROR_NONE, "SetBreakpoint");
    EXPECT(log_is("bp 1@5 on;"), 1, "... arms the location in the VM");
    EXPECT((*a)->SetBreakpoint(a, M1, 5), JVMTI_ERROR_DUPLICATE, "SetBreakpoint again: DUPLICATE");
    EXPECT((*b)->SetBreakpoint(b, M1, 5), JVMTI_ERROR_NONE,
           "SetBreakpoint at the same place from another environment");
    EXPECT(log_is(""), 1, "... the VM is not asked again (and not for the DUPLICATE)");
    EXPECT((*a)->SetBreakpoint(a, M1, 11), JVMTI_ERROR_INVALID_LOCATION,
           "SetBreakpoint where the VM has no instruction: the VM's INVALID_LOCATION");
    EXPECT((*a)->ClearBreakpoint(a, M1, 11), JVMTI_ERROR_NOT_FOUND,
           "... and nothing was recorded (ClearBreakpoint: NOT_FOUND)");
    EXPECT((*a)->SetBreakpoint(a, M1, 7), JVMTI_ERROR_NONE, "a second breakpoint, in A only");
    EXPECT(log_is("bp 1@7 on;"), 1, "... armed");

    jvmtirt_post_Breakpoint(NULL, MAIN_T, M1, 5);
    EXPECT(got_is("AB"), 1, "Breakpoint at m1@5 reaches both environments that set it");
    jvmtirt_post_Breakpoint(NULL, MAIN_T, M1, 7);
    EXPECT(got_is("A"), 1, "Breakpoint at m1@7 reaches only A, which set it");
    jvmtirt_post_Breakpoint(NULL, MAIN_T, M2, 5);
    EXPECT(got_is(""), 1, "Breakpoint at m2@5 (nobody set it) reaches nobody");

    EXPECT((*a)->ClearBreakpoint(a, M1, 5), JVMTI_ERROR_NONE, "ClearBreakpoint");
    EXPECT(log_is(""), 1, "... B still has it: not disarmed");
    EXPECT((*a)->ClearBreakpoint(a, M1, 5), JVMTI_ERROR_NOT_FOUND, "ClearBreakpoint again: NOT_FOUND");
    jvmtirt_post_Breakpoint(NULL, MAIN_T, M1, 5);
    EXPECT(got_is("B"), 1, "after A cleared m1@5, only B gets it");

    /* Field watches: per kind, per class and field. */
    EXPECT((*a)->SetFieldAccessWatch(a, K1, F1), JVMTI_ERROR_NONE, "SetFieldAccessWatch");
    EXPECT((*a)->SetFieldAccessWatch(a, K1, F1), JVMTI_ERROR_DUPLICATE,
           "SetFieldAccessWatch again: DUPLICATE");
    EXPECT((*b)->SetFieldModificationWatch(b, K1, F1), JVMTI_ERROR_NONE,
           "SetFieldModificationWatch on the same field (another kind)");
    EXPECT((*b)->SetFieldAccessWatch(b, K2, F1), JVMTI_ERROR_NONE,
           "SetFieldAccessWatch: the same field ID in another class is another field");
    EXPECT(log_is("access k1 f1 on;modify k1 f1 on;access k2 f1 on;"), 1,
           "... each armed in the VM once");
    jvmtirt_post_FieldAccess(NULL, MAIN_T, M1, 0, K1, NULL, F1);
    EXPECT(got_is("A"), 1, "FieldAccess of k1.f1 reaches only A");
    jvmtirt_post_FieldModification(NULL, MAIN_T, M1, 0, K1, NULL, F1, 'I', no_value);
    EXPECT(got_is("B"), 1, "FieldModification of k1.f1 reaches only B");
    jvmtirt_post_FieldAccess(NULL, MAIN_T, M1, 0, K2, NULL, F1);
    EXPECT(got_is("B"), 1, "FieldAccess of k2.f1 reaches only B");
    EXPECT((*b)->ClearFieldAccessWatch(b, K1, F1), JVMTI_ERROR_NOT_FOUND,
           "ClearFieldAccessWatch of a watch another environment set: NOT_FOUND");
    EXPECT((*b)->ClearFieldModificationWatch(b, K2, F1), JVMTI_ERROR_NOT_FOUND,
           "ClearFieldModificationWatch where only an access watch is: NOT_FOUND");
    EXPECT((*a)->ClearFieldAccessWatch(a, K1, F1), JVMTI_ERROR_NONE, "ClearFieldAccessWatch");
    EXPECT(log_is("access k1 f1 off;"), 1, "... the last watch of k1.f1 access: disarmed");
    jvmtirt_post_FieldAccess(NULL, MAIN_T, M1, 0, K1, NULL, F1);
    EXPECT(got_is(""), 1, "FieldAccess of k1.f1 after the clear reaches nobody");

    /* Disposing B drops its breakpoint and watches; what nobody else holds
     * is disarmed. A new environment starts with none. */
    EXPECT((*b)->DisposeEnvironment(b), JVMTI_ERROR_NONE, "DisposeEnvironment");
    EXPECT(log_is("modify k1 f1 off;access k2 f1 off;bp 1@5 off;"), 1,
           "... disarms its breakpoint and watches");
    jvmtiEnv *c = agent('C');
    EXPECT((*c)->ClearBreakpoint(c, M1, 5), JVMTI_ERROR_NOT_FOUND,
           "a new environment has no breakpoint of a disposed one");
    EXPECT((*c)->ClearFieldModificationWatch(c, K1, F1), JVMTI_ERROR_NOT_FOUND,
           "... nor its field watches");
    jvmtirt_post_Breakpoint(NULL, MAIN_T, M1, 7);
    EXPECT(got_is("A"), 1, "A's breakpoint outlives B");
    jvmtirt_shutdown(); /* A's breakpoint is still set: freed here (LSan) */

    vm_start(0);
    vm_live();
    a = agent('A');
    EXPECT((*a)->SetBreakpoint(a, M1, 5), JVMTI_ERROR_NOT_AVAILABLE,
           "SetBreakpoint without the VM's breakpoint_arm: NOT_AVAILABLE");
    EXPECT((*a)->SetFieldAccessWatch(a, K1, F1), JVMTI_ERROR_NOT_AVAILABLE,
           "SetFieldAccessWatch without field_watch_arm: NOT_AVAILABLE");
    jvmtirt_shutdown();
}

/* ---- frame pops ---- */

static void section_frame_pops(void)
{
    vm_start(1);
    vm_live();
    jvmtiEnv *a = agent('A'), *b = agent('B'), *c = agent('C');
    EXPECT((*a)->NotifyFramePop(a, NULL, 0), JVMTI_ERROR_NONE, "NotifyFramePop(current, 0)");
    EXPECT(log_is("frame t1#3 on;"), 1, "... arms the frame in the VM");
#ifdef JVMTIGEN_HAS_NotifyFramePop_JVMTI_ERROR_DUPLICATE /* JVM TI 25 on */
    EXPECT((*a)->NotifyFramePop(a, MAIN_T, 0), JVMTI_ERROR_DUPLICATE,
           "NotifyFramePop of the same frame (named by its thread): DUPLICATE");
#else /* earlier specs: the request stands, once (FramePop below reaches A once) */
    EXPECT((*a)->NotifyFramePop(a, MAIN_T, 0), JVMTI_ERROR_NONE,
           "NotifyFramePop of the same frame (named by its thread): NONE (no DUPLICATE before JVM TI 25)");
#endif
    EXPECT((*b)->NotifyFramePop(b, NULL, 0), JVMTI_ERROR_NONE,
           "NotifyFramePop of that frame from another environment");
    EXPECT((*a)->NotifyFramePop(a, NULL, 1), JVMTI_ERROR_NONE, "NotifyFramePop(current, 1)");
    EXPECT(log_is("frame t1#2 on;"), 1, "... each frame armed once");
    EXPECT((*a)->NotifyFramePop(a, NULL, 2), JVMTI_ERROR_OPAQUE_FRAME,
           "NotifyFramePop of a native frame: OPAQUE_FRAME");
    EXPECT((*a)->NotifyFramePop(a, NULL, 3), JVMTI_ERROR_NO_MORE_FRAMES,
           "NotifyFramePop below the bottom: NO_MORE_FRAMES");
    EXPECT((*a)->NotifyFramePop(a, NULL, -1), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "NotifyFramePop at depth -1: ILLEGAL_ARGUMENT");
    EXPECT((*a)->NotifyFramePop(a, OTHER_T, 0), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "NotifyFramePop on a thread not started: THREAD_NOT_ALIVE");
#ifdef JVMTIGEN_HAS_ClearAllFramePops /* JVM TI 25 on */
    EXPECT((*a)->ClearAllFramePops(a, OTHER_T), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "ClearAllFramePops on a thread not started: THREAD_NOT_ALIVE");
#endif
    pthread_t other, lost;
    if (!start_other(&other)) {
        report(0, "pthread_create", 0, 1);
        jvmtirt_shutdown();
        return;
    }
    EXPECT((*a)->NotifyFramePop(a, OTHER_T, 0), JVMTI_ERROR_THREAD_NOT_SUSPENDED,
           "NotifyFramePop on another thread that runs: THREAD_NOT_SUSPENDED");
#ifdef JVMTIGEN_HAS_ClearAllFramePops
    EXPECT((*a)->ClearAllFramePops(a, OTHER_T), JVMTI_ERROR_THREAD_NOT_SUSPENDED,
           "ClearAllFramePops on another thread that runs: THREAD_NOT_SUSPENDED");
#endif
    other_suspended = 1;
    EXPECT((*a)->NotifyFramePop(a, OTHER_T, 0), JVMTI_ERROR_THREAD_NOT_SUSPENDED,
           "NotifyFramePop on a thread the VM calls suspended but JVM TI did not suspend: "
           "THREAD_NOT_SUSPENDED");
    other_suspended = 0;
    EXPECT((*a)->SuspendThread(a, OTHER_T), JVMTI_ERROR_NONE, "SuspendThread(other)");
    EXPECT((*a)->NotifyFramePop(a, OTHER_T, 0), JVMTI_ERROR_NONE,
           "NotifyFramePop on a thread SuspendThread suspended (whatever the VM's "
           "thread_suspended says)");
#ifdef JVMTIGEN_HAS_ClearAllFramePops
    EXPECT((*a)->ClearAllFramePops(a, OTHER_T), JVMTI_ERROR_NONE, "ClearAllFramePops on it");
    EXPECT(log_is("frame t2#1 on;frame t2#1 off;"), 1, "... armed, then disarmed");
#else /* the request ends with the thread, its frames gone: nothing to disarm */
    EXPECT(log_is("frame t2#1 on;"), 1, "... armed");
#endif
    EXPECT((*a)->ResumeThread(a, OTHER_T), JVMTI_ERROR_NONE, "ResumeThread(other)");
    EXPECT((*a)->NotifyFramePop(a, OTHER_T, 0), JVMTI_ERROR_THREAD_NOT_SUSPENDED,
           "NotifyFramePop on it once resumed: THREAD_NOT_SUSPENDED");
    __atomic_store_n(&other_go, 1, __ATOMIC_RELEASE);
    pthread_join(other, NULL);
    EXPECT((*a)->NotifyFramePop(a, OTHER_T, 0), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "NotifyFramePop on a thread that ended: THREAD_NOT_ALIVE");
#ifdef JVMTIGEN_HAS_ClearAllFramePops
    EXPECT((*a)->ClearAllFramePops(a, OTHER_T), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "ClearAllFramePops on a thread that ended: THREAD_NOT_ALIVE");
#endif
    unattached_env = a;
    unattached_answer = JVMTI_ERROR_NONE;
    if (pthread_create(&lost, NULL, unattached_main, NULL) == 0)
        pthread_join(lost, NULL);
    EXPECT(unattached_answer, JVMTI_ERROR_UNATTACHED_THREAD,
           "NotifyFramePop(NULL) from a thread the core does not know: UNATTACHED_THREAD");
    EXPECT(log_is(""), 1, "... none of these armed a frame");

    jvmtirt_frame_popped(NULL, MAIN_T, M1, JNI_FALSE, 3);
    EXPECT(got_is("AB"), 1, "FramePop of the top frame reaches A and B (which asked), not C");
    jvmtirt_frame_popped(NULL, MAIN_T, M1, JNI_FALSE, 3);
    EXPECT(got_is(""), 1, "a frame at the same height popping later reaches nobody (requests end)");
    jvmtirt_post_FramePop(NULL, MAIN_T, M1, JNI_FALSE);
    EXPECT(got_is(""), 1, "FramePop posted outside jvmtirt_frame_popped reaches nobody");
    EXPECT((*a)->NotifyFramePop(a, NULL, 0), JVMTI_ERROR_NONE,
           "NotifyFramePop of the frame at that height again: a new request");
#ifdef JVMTIGEN_HAS_ClearAllFramePops
    EXPECT((*a)->ClearAllFramePops(a, NULL), JVMTI_ERROR_NONE, "ClearAllFramePops(current)");
    EXPECT(log_is("frame t1#3 on;frame t1#3 off;frame t1#2 off;"), 1,
           "... disarms both of A's frames");
    jvmtirt_frame_popped(NULL, MAIN_T, M1, JNI_TRUE, 2);
    EXPECT(got_is(""), 1, "a cleared frame popping reaches nobody");
#else /* no ClearAllFramePops before JVM TI 25: both of A's frames pop */
    EXPECT(log_is("frame t1#3 on;"), 1, "... armed again");
    jvmtirt_frame_popped(NULL, MAIN_T, M1, JNI_TRUE, 2);
    EXPECT(got_is("A"), 1, "the frame below popping reaches A, which asked for it");
    jvmtirt_frame_popped(NULL, MAIN_T, M1, JNI_FALSE, 3);
    EXPECT(got_is("A"), 1, "... and the top frame, asked for again, reaches A once");
#endif

    EXPECT((*a)->NotifyFramePop(a, NULL, 0), JVMTI_ERROR_NONE, "A asks for the top frame");
    jvmtirt_thread_end();
    jvmtirt_thread_start((uintptr_t)MAIN_T, JVMTIRT_JAVA_THREAD);
    EXPECT(log_is("frame t1#3 on;"), 1, "... armed");
    jvmtirt_frame_popped(NULL, MAIN_T, M1, JNI_FALSE, 3);
    EXPECT(got_is(""), 1,
           "the thread ended and a thread with its id started: the old request is gone");

    EXPECT((*c)->NotifyFramePop(c, NULL, 1), JVMTI_ERROR_NONE, "C asks for a frame");
    EXPECT((*c)->DisposeEnvironment(c), JVMTI_ERROR_NONE, "... and is disposed");
    EXPECT(log_is("frame t1#2 on;frame t1#2 off;"), 1, "... which disarms its frame");
    EXPECT((*b)->NotifyFramePop(b, NULL, 1), JVMTI_ERROR_NONE, "B asks for a frame");
    (void)b;
    jvmtirt_shutdown(); /* B's request is still there: freed here (LSan) */
}

/* ---- native method prefixes ---- */

static int prefixes_are(const char *want)
{
    jint n = -1;
    char **p = jvmtirt_native_method_prefixes(&n);
    char buf[256] = "";
    for (jint i = 0; i < n; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "", p[i]);
    free(p);
    int same = strcmp(buf, want) == 0;
    if (!same)
        printf("# prefixes \"%s\", expected \"%s\"\n", buf, want);
    return same;
}

static void section_prefixes(void)
{
    vm_start(1);
    jvmtiEnv *a = agent('A'), *r = agent('R'), *c = agent('C');
    EXPECT(prefixes_are(""), 1, "no prefixes at first");
    EXPECT((*r)->SetNativeMethodPrefixes(r, 2, (char *[]){"r1_", "r2_"}), JVMTI_ERROR_NONE,
           "SetNativeMethodPrefixes in OnLoad, in an environment that can retransform");
    EXPECT((*c)->SetNativeMethodPrefix(c, "c_"), JVMTI_ERROR_NONE, "SetNativeMethodPrefix");
    char a_ [] = "a_";
    EXPECT((*a)->SetNativeMethodPrefix(a, a_), JVMTI_ERROR_NONE, "SetNativeMethodPrefix (another)");
    a_[0] = 'x';
    EXPECT(prefixes_are("a_ c_ r1_ r2_"), 1,
           "the VM gets them copied, in transformation order: the retransformation-incapable "
           "environments first, creation order within each, each one's in its own order");
    EXPECT((*c)->SetNativeMethodPrefixes(c, 2, (char *[]){"c1_", NULL}), JVMTI_ERROR_NULL_POINTER,
           "SetNativeMethodPrefixes with a NULL prefix: NULL_POINTER");
    EXPECT(prefixes_are("a_ c_ r1_ r2_"), 1, "... and the previous prefixes stay");
    vm_live();
    EXPECT((*c)->SetNativeMethodPrefix(c, NULL), JVMTI_ERROR_NONE,
           "SetNativeMethodPrefix(NULL) in the live phase");
    EXPECT((*r)->SetNativeMethodPrefixes(r, 1, (char *[]){"r_"}), JVMTI_ERROR_NONE,
           "SetNativeMethodPrefixes replaces the previous ones");
    EXPECT(prefixes_are("a_ r_"), 1, "... the VM sees C's cancelled and R's replaced");
    EXPECT((*a)->DisposeEnvironment(a), JVMTI_ERROR_NONE, "DisposeEnvironment");
    EXPECT(prefixes_are("r_"), 1, "... its prefixes go with it");
    jvmtirt_shutdown(); /* R's prefix still set: freed here (LSan) */
}

/* ---- the JNI function table ---- */

static jint JNICALL vm_version(JNIEnv *jni)
{
    (void)jni;
    return JNI_VERSION_1_8;
}

static jint JNICALL agent_version(JNIEnv *jni)
{
    (void)jni;
    return 42;
}

static void section_jni_table(void)
{
    vm_start(1);
    vm_jni.GetVersion = vm_version;
    vm_jni_now = &vm_jni;
    jvmtiEnv *a = agent('A');
    jniNativeInterface *t = NULL;
    EXPECT((*a)->GetJNIFunctionTable(a, &t), JVMTI_ERROR_WRONG_PHASE,
           "GetJNIFunctionTable in OnLoad: WRONG_PHASE");
    vm_live();
    EXPECT((*a)->GetJNIFunctionTable(a, &t), JVMTI_ERROR_NONE, "GetJNIFunctionTable");
    EXPECT(t && t != &vm_jni && memcmp(t, &vm_jni, sizeof vm_jni) == 0, 1,
           "... a copy of the VM's table, in memory of its own");
    t->GetVersion = agent_version;
    EXPECT(vm_jni_now->GetVersion == vm_version, 1, "changing the copy changes nothing");
    EXPECT((*a)->SetJNIFunctionTable(a, t), JVMTI_ERROR_NONE, "SetJNIFunctionTable");
    EXPECT(vm_jni_now != t && vm_jni_now->GetVersion == agent_version, 1,
           "... the VM is told to use a copy of the agent's table");
    t->GetVersion = vm_version;
    EXPECT(vm_jni_now->GetVersion == agent_version, 1,
           "... which later changes to the agent's own table do not reach");
    (*a)->Deallocate(a, (unsigned char *)t);
    EXPECT((*a)->GetJNIFunctionTable(a, &t), JVMTI_ERROR_NONE, "GetJNIFunctionTable again");
    EXPECT(t && t->GetVersion == agent_version, 1, "... gives the modified table");
    (*a)->Deallocate(a, (unsigned char *)t);
    jvmtirt_shutdown(); /* the core's copy is freed here (LSan) */

    vm_start(0);
    vm_live();
    a = agent('A');
    EXPECT((*a)->GetJNIFunctionTable(a, &t), JVMTI_ERROR_NOT_AVAILABLE,
           "GetJNIFunctionTable without the VM's jni_table: NOT_AVAILABLE");
    jvmtirt_shutdown();
}

/* ---- class-loader search ---- */

static void section_loader_search(void)
{
    char dir[] = "/tmp/jvmtirt-frames-XXXXXX";
    if (!mkdtemp(dir)) {
        report(0, "mkdtemp", 0, 1);
        return;
    }
    char jar[64], text[64];
    snprintf(jar, sizeof jar, "%s/a.jar", dir);
    snprintf(text, sizeof text, "%s/a.txt", dir);
    FILE *f = fopen(jar, "wb");
    if (f)
        fwrite("PK\3\4rest", 1, 8, f), fclose(f);
    f = fopen(text, "wb");
    if (f)
        fputs("not a jar\n", f), fclose(f);

    vm_start(1);
    jvmtiEnv *a = agent('A');
    EXPECT((*a)->AddToBootstrapClassLoaderSearch(a, "/no/such/dir"), JVMTI_ERROR_NONE,
           "AddToBootstrapClassLoaderSearch in OnLoad: any segment goes to the VM");
    EXPECT((*a)->AddToSystemClassLoaderSearch(a, dir), JVMTI_ERROR_NONE,
           "AddToSystemClassLoaderSearch in OnLoad: a directory");
    char want[256];
    snprintf(want, sizeof want, "boot /no/such/dir onload;system %s onload;", dir);
    EXPECT(log_is(want), 1, "... the VM appends both, told the phase");
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start((uintptr_t)MAIN_T, JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_START);
    EXPECT((*a)->AddToBootstrapClassLoaderSearch(a, jar), JVMTI_ERROR_WRONG_PHASE,
           "AddToBootstrapClassLoaderSearch in the start phase: WRONG_PHASE");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    EXPECT((*a)->AddToBootstrapClassLoaderSearch(a, jar), JVMTI_ERROR_NONE,
           "AddToBootstrapClassLoaderSearch in the live phase: a JAR file");
    EXPECT((*a)->AddToBootstrapClassLoaderSearch(a, dir), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "... a directory in the live phase: ILLEGAL_ARGUMENT");
    EXPECT((*a)->AddToSystemClassLoaderSearch(a, text), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "... a file that is not a JAR: ILLEGAL_ARGUMENT");
    EXPECT((*a)->AddToSystemClassLoaderSearch(a, "/no/such.jar"), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "... a JAR that does not exist: ILLEGAL_ARGUMENT");
    char unsupported[80];
    snprintf(unsupported, sizeof unsupported, "%s/unsupported.jar", dir);
    if (rename(jar, unsupported) != 0)
        report(0, "rename", 0, 1);
    EXPECT((*a)->AddToSystemClassLoaderSearch(a, unsupported),
           JVMTI_ERROR_CLASS_LOADER_UNSUPPORTED,
           "AddToSystemClassLoaderSearch: the VM's CLASS_LOADER_UNSUPPORTED");
    snprintf(want, sizeof want, "boot %s live;system %s live;", jar, unsupported);
    EXPECT(log_is(want), 1, "the VM saw only the segments that passed the checks");
    jvmtirt_shutdown();
    unlink(unsupported);
    unlink(text);
    rmdir(dir);
}

/* ---- what the port says of a VM without the area's operations ---- */

static const char *const area_functions[] = {
    "SetBreakpoint", "ClearBreakpoint", "SetFieldAccessWatch", "ClearFieldAccessWatch",
    "SetFieldModificationWatch", "ClearFieldModificationWatch", "NotifyFramePop",
#ifdef JVMTIGEN_HAS_ClearAllFramePops
    "ClearAllFramePops",
#endif
    "GetJNIFunctionTable", "SetJNIFunctionTable",
    "AddToBootstrapClassLoaderSearch", "AddToSystemClassLoaderSearch"};
#define N_AREA (sizeof area_functions / sizeof *area_functions)

/* The lines of jvmtirt_report_defaults naming one of the area's functions
 * (" NAME answers JVMTI_ERROR_NOT_AVAILABLE"), and its count. */
static int report_names(int *count)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return -1;
    *count = jvmtirt_report_defaults(out);
    fclose(out);
    int named = 0;
    for (size_t i = 0; i < N_AREA; i++) {
        char line[128];
        snprintf(line, sizeof line, " %s answers JVMTI_ERROR_NOT_AVAILABLE", area_functions[i]);
        named += strstr(text, line) != NULL;
    }
    free(text);
    return named;
}

static void section_defaults(void)
{
    int without, with;
    vm_start(0);
    EXPECT(report_names(&without), (long long)N_AREA,
           "without the VM's operations, jvmtirt_report_defaults names the 12 breakpoint, "
           "watch, frame-pop, JNI-table and loader-search functions");
    jvmtirt_shutdown();
    vm_start(1);
    EXPECT(report_names(&with), 0, "with them it names none");
    jvmtirt_shutdown();
    EXPECT(without - with, 4,
           "... and counts 4 more functions that need no capability without them (the JNI "
           "table's two, the loader search's two)");

    /* Without offer_defaults the capabilities of functions that cannot work
     * are withdrawn; a strict VM does not start. */
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++)
        jvmtirt_capability_set(&c.potential, b, 1);
    jvmtirt_init(&c);
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION);
    jvmtiCapabilities p;
    memset(&p, 0, sizeof p);
    if (e)
        (*e)->GetPotentialCapabilities(e, &p);
    EXPECT(p.can_generate_breakpoint_events + p.can_generate_field_access_events +
               p.can_generate_field_modification_events + p.can_generate_frame_pop_events,
           0, "the breakpoint, field watch and frame-pop capabilities are withdrawn");
    jvmtirt_shutdown();
    c.strict = 1;
    char *text = NULL;
    size_t len = 0;
    fflush(stderr);
    int saved = dup(2);
    FILE *capture = tmpfile();
    jvmtiError err = JVMTI_ERROR_NONE;
    if (capture && saved >= 0 && dup2(fileno(capture), 2) >= 0) {
        err = jvmtirt_init(&c);
        fflush(stderr);
        dup2(saved, 2);
        rewind(capture);
        FILE *out = open_memstream(&text, &len);
        char buf[512];
        while (out && fgets(buf, sizeof buf, capture))
            fputs(buf, out);
        if (out)
            fclose(out);
    }
    if (saved >= 0)
        close(saved);
    if (capture)
        fclose(capture);
    EXPECT(err, JVMTI_ERROR_NOT_AVAILABLE, "strict: init refuses");
    EXPECT(text && strstr(text, " SetJNIFunctionTable answers") &&
               strstr(text, " AddToSystemClassLoaderSearch answers") &&
               strstr(text, "capability can_generate_frame_pop_events withdrawn"),
           1, "... naming the area's missing functions and capabilities");
    free(text);
}

/* ---- threads meeting: a thread posting while another sets, clears and
 * disposes (what SANITIZE=thread is for) ---- */

static int posting_done, poster_started; /* atomic */
static long popped_to; /* deliveries of FramePop, counted on the posting thread */

static void *poster(void *arg)
{
    (void)arg;
    jvmtirt_thread_start((uintptr_t)OTHER_T, JVMTIRT_JAVA_THREAD);
    __atomic_store_n(&poster_started, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&posting_done, __ATOMIC_ACQUIRE)) {
        jvmtirt_post_Breakpoint(NULL, OTHER_T, M1, 5);
        jvmtirt_post_FieldAccess(NULL, OTHER_T, M1, 0, K1, NULL, F1);
        size_t before = strlen(got);
        jvmtirt_frame_popped(NULL, OTHER_T, M1, JNI_FALSE, 1);
        popped_to += (long)(strlen(got) - before);
        got[0] = '\0';
    }
    jvmtirt_thread_end();
    return NULL;
}

static void section_threads(void)
{
    vm_start(1);
    vm_live();
    jvmtiEnv *a = agent('A');
    (*a)->SetBreakpoint(a, M1, 5);
    (*a)->SetFieldAccessWatch(a, K1, F1);
    EXPECT(log_is("bp 1@5 on;access k1 f1 on;"), 1, "A arms a breakpoint and a watch");
    pthread_t t;
    if (pthread_create(&t, NULL, poster, NULL) != 0) {
        report(0, "pthread_create", 0, 1);
        jvmtirt_shutdown();
        return;
    }
    while (!__atomic_load_n(&poster_started, __ATOMIC_ACQUIRE))
        nap();
    /* the test VM's suspension stops nothing: the thread posts on */
    EXPECT((*a)->SuspendThread(a, OTHER_T), JVMTI_ERROR_NONE, "the posting thread is suspended");
    int rounds = 0, errors = 0;
    for (; rounds < 2000; rounds++) {
        jvmtiEnv *x = agent('X');
        errors += (*x)->SetBreakpoint(x, M1, 5) != JVMTI_ERROR_NONE;
        errors += (*x)->SetFieldAccessWatch(x, K1, F1) != JVMTI_ERROR_NONE;
        jvmtiError np = (*x)->NotifyFramePop(x, OTHER_T, 0);
        errors += np != JVMTI_ERROR_NONE && np != JVMTI_ERROR_DUPLICATE;
        if (rounds % 2)
            errors += (*x)->ClearBreakpoint(x, M1, 5) != JVMTI_ERROR_NONE;
        errors += (*x)->DisposeEnvironment(x) != JVMTI_ERROR_NONE;
    }
    (*a)->ResumeThread(a, OTHER_T);
    __atomic_store_n(&posting_done, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    EXPECT(errors, 0, "2000 environments set, clear and are disposed while another thread posts");
    EXPECT(strstr(vm_log, "bp ") == NULL && strstr(vm_log, "access ") == NULL, 1,
           "... A kept the breakpoint and the watch armed throughout: never re-armed or disarmed");
    vm_log[0] = '\0';
    EXPECT((*a)->ClearBreakpoint(a, M1, 5), JVMTI_ERROR_NONE, "A's breakpoint is still its own");
    EXPECT(log_is("bp 1@5 off;"), 1, "... and clearing it disarms the location");
    printf("# FramePop deliveries to X while it came and went: %ld\n", popped_to);
    jvmtirt_shutdown();
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    section_breakpoints();
    section_frame_pops();
    section_prefixes();
    section_jni_table();
    section_loader_search();
    section_defaults();
    section_threads();
    return failures ? 1 : 0;
}
