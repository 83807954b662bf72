/* metadata.c: unit tests of what the core answers from the VM's records
 * (runtime/threads/threadinfo.c, classes/classinfo.c, objects/objectinfo.c) through real function
 * tables: GetCurrentThread, GetAllThreads (which threads, their order, one
 * array), GetThreadInfo (the name copied), GetThreadState (threads not
 * started or ended, SUSPENDED added by the core; from the VM's thread_state
 * without a walk where it has one), the six class functions
 * over class_info (array and primitive classes told by their signature),
 * GetObjectSize between heap_pause calls, GetObjectHashCode with and
 * without the VM's hash; and a VM without the operations or built against
 * the config before them: NOT_AVAILABLE, reported, the capability withdrawn.
 * This program plays the VM; expected values are written by hand from the
 * spec and the VM below. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define TAP_PREFIX "metadata: "
#include "tap.h"
#include "vm_threads.h"

#define EXPECT(got, want, ...) TAP_CHECK_EQ(got, want, __VA_ARGS__)

/* ---- the VM's threads: thread objects are the addresses of these ---- */

enum { MAIN, WORKER, VM_OWN, VIRTUAL, GONE, NEW, DEAD, INVALID, N_THREADS };
static char thread_objs[N_THREADS];
#define T(i) ((jthread)(void *)&thread_objs[i])
static int thread_no(uintptr_t id) { return (int)((char *)id - thread_objs); }

static jvmtiError check_thread(jvmtiEnv *env, jthread thread)
{
    (void)env;
    char *p = (char *)(void *)thread;
    if (p < thread_objs || p >= thread_objs + N_THREADS || p == (char *)T(INVALID))
        return JVMTI_ERROR_INVALID_THREAD;
    return p == (char *)T(NEW) || p == (char *)T(DEAD) ? JVMTI_ERROR_THREAD_NOT_ALIVE
                                                        : JVMTI_ERROR_NONE;
}

/* GONE's object is collected already: the VM has no reference for it. */
static jthread thread_ref(uintptr_t id) { return thread_no(id) == GONE ? NULL : (jthread)(void *)id; }

static int thread_is_virtual(uintptr_t id) { return thread_no(id) == VIRTUAL; }

static long frames_walked; /* atomic */

/* Every live thread runs with two frames; the VM reports no suspension
 * itself, so SUSPENDED can only come from the core. */
static jvmtiError walk_stacks(const uintptr_t *ids, jint n, jint *states,
                              int (*visit)(void *, jint, jmethodID, jlocation), void *arg)
{
    static char method;
    for (jint i = 0; i < n; i++) {
        int t = thread_no(ids[i]);
        states[i] = t == NEW    ? 0
                    : t == DEAD ? JVMTI_THREAD_STATE_TERMINATED
                                : JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_WAITING |
                                      JVMTI_THREAD_STATE_WAITING_INDEFINITELY;
        for (int d = 0; (states[i] & JVMTI_THREAD_STATE_ALIVE) && d < 2; d++) {
            __atomic_fetch_add(&frames_walked, 1, __ATOMIC_RELAXED);
            if (visit(arg, i, (jmethodID)(void *)&method, d))
                break;
        }
    }
    return JVMTI_ERROR_NONE;
}

static jvmtiError suspend_thread(uintptr_t id, int is_current)
{
    (void)id, (void)is_current;
    return JVMTI_ERROR_NONE;
}
static jvmtiError resume_thread(uintptr_t id)
{
    (void)id;
    return JVMTI_ERROR_NONE;
}

/* The name lives in one buffer the VM reuses: the agent must get a copy. */
static char name_buf[32];
static jvmtiError thread_info(jthread thread, jvmtirt_thread_info *out)
{
    static char group, loader;
    int t = thread_no((uintptr_t)thread);
    snprintf(name_buf, sizeof name_buf, "thread-%d", t);
    out->name = t == NEW ? NULL : name_buf; /* NULL reads as "" */
    out->priority = t + 1;
    out->is_daemon = t == WORKER;
    out->thread_group = t == DEAD ? NULL : (jthreadGroup)(void *)&group;
    out->context_class_loader = (jobject)(void *)&loader;
    return JVMTI_ERROR_NONE;
}

/* ---- classes ---- */

static const jvmtirt_class_info vm_classes[] = {
    {"Ljava/lang/String;", NULL, 0x11, 7, "String.java"},
    {"Ljava/util/List;", "<E:Ljava/lang/Object;>Ljava/lang/Object;Ljava/util/Collection<TE;>;",
     0x601, 7, "List.java"},
    /* The VM's answers that the core must not pass on: a status and a
     * source file for an array class, an interface bit on an array of
     * interfaces, no modifiers for a primitive class. */
    {"[Ljava/util/List;", NULL, 0x611, 7, "List.java"},
    {"[I", NULL, 0x411, 0, NULL},
    {"I", NULL, 0, 7, "Integer.java"},
    {"LGen;", NULL, 0x1, JVMTI_CLASS_STATUS_VERIFIED | JVMTI_CLASS_STATUS_PREPARED, NULL},
    {"LBroken;", NULL, 0x1, JVMTI_CLASS_STATUS_ERROR | 0x100, "Broken.java"},
};
enum { STRING, LIST, LIST_ARRAY, INT_ARRAY, INT, GEN, BROKEN, N_CLASSES };
#define C(i) ((jclass)(void *)&vm_classes[i])

static jvmtiError check_class(jvmtiEnv *env, jclass klass, int of_member)
{
    (void)env, (void)of_member;
    const jvmtirt_class_info *c = (const void *)klass;
    return c >= vm_classes && c < vm_classes + N_CLASSES ? JVMTI_ERROR_NONE
                                                          : JVMTI_ERROR_INVALID_CLASS;
}

static long class_info_calls;
static jvmtiError class_info(jclass klass, jvmtirt_class_info *out)
{
    class_info_calls++;
    *out = *(const jvmtirt_class_info *)(const void *)klass;
    return JVMTI_ERROR_NONE;
}

/* ---- objects: identities are 1..3; anything else is no object ---- */

static char objs[4];
#define O(i) ((jobject)(void *)&objs[i])
static uintptr_t object_id(jobject o)
{
    char *p = (char *)(void *)o;
    return p > objs && p < objs + 4 ? (uintptr_t)(p - objs) : 0;
}

static int paused, pause_calls, info_while_paused;
static void heap_pause(int on)
{
    paused = on;
    pause_calls++;
}
static jvmtiError heap_object_info(uintptr_t id, jvmtirt_heap_object *out)
{
    info_while_paused += paused;
    out->size = (jlong)id * 16;
    return id == 3 ? JVMTI_ERROR_INVALID_OBJECT : JVMTI_ERROR_NONE; /* 3 died meanwhile */
}
static jint object_hash(uintptr_t id) { return (jint)(0x1000 + id); }

/* GetThreadState without a walk: RUNNABLE where the walk says WAITING, so
 * the answer tells which of the two the core asked. */
static long states_read; /* atomic */
static jint thread_state(uintptr_t id)
{
    __atomic_fetch_add(&states_read, 1, __ATOMIC_RELAXED);
    int t = thread_no(id);
    return t == NEW    ? 0
           : t == DEAD ? JVMTI_THREAD_STATE_TERMINATED
                       : JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE;
}
static int with_thread_state; /* vm_start sets config.thread_state */

/* ---- the VM's life ---- */

/* WORKER, VM_OWN (one of the VM's own threads), VIRTUAL and GONE, each
 * started once the one before is (vm_threads.h). */
static const vm_thread others[] = {{(uintptr_t)T(WORKER), JVMTIRT_JAVA_THREAD},
                                   {(uintptr_t)T(VM_OWN), JVMTIRT_VM_THREAD},
                                   {(uintptr_t)T(VIRTUAL), JVMTIRT_JAVA_THREAD},
                                   {(uintptr_t)T(GONE), JVMTIRT_JAVA_THREAD}};

static void threads_start(void) { vm_threads_start(others, 4); }
static void threads_stop(void) { vm_threads_stop(); }

/* with_ops: 1 every operation; 0: none of the new ones; 2: all but
 * thread_ref; size: the config's
 * size as a VM compiled against an older jvmtirt.h says it (0: current). */
static void vm_start(int with_ops, size_t size, int with_hash)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    if (size)
        c.size = size;
    c.check_thread = check_thread;
    c.check_class = check_class;
    c.object_id = object_id;
    c.thread_is_virtual = thread_is_virtual;
    c.suspend_thread = suspend_thread;
    c.resume_thread = resume_thread;
    c.walk_stacks = walk_stacks;
    c.heap_pause = heap_pause;
    c.heap_object_info = heap_object_info;
    c.potential.can_get_source_file_name = 1;
    c.potential.can_suspend = 1;
    if (with_ops) {
        c.thread_ref = with_ops == 2 ? NULL : thread_ref;
        c.thread_info = thread_info;
        c.class_info = class_info;
    }
    if (with_hash)
        c.object_hash = object_hash;
    if (with_thread_state)
        c.thread_state = thread_state;
    if (jvmtirt_init(&c) != JVMTI_ERROR_NONE)
        tap_line(0, "jvmtirt_init refused the config");
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start((uintptr_t)T(MAIN), JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
}

static jvmtiEnv *env_new(void)
{
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION_1_2);
    jvmtiCapabilities caps = {0};
    caps.can_get_source_file_name = 1;
    caps.can_suspend = 1;
    (*e)->AddCapabilities(e, &caps);
    return e;
}

/* ---- threads ---- */

static void *unattached_current(void *arg)
{
    jvmtiEnv *e = arg;
    jthread t = T(MAIN);
    static jvmtiError err;
    err = (*e)->GetCurrentThread(e, &t);
    return &err;
}

/* The VM's state (from source) never says SUSPENDED: the core adds it
 * while it holds the worker suspended, and drops it once resumed. */
static void expect_suspended_added(jvmtiEnv *e, const char *source)
{
    jint state = -1;
    EXPECT((*e)->SuspendThread(e, T(WORKER)), JVMTI_ERROR_NONE, "SuspendThread(worker)");
    (*e)->GetThreadState(e, T(WORKER), &state);
    EXPECT(state & JVMTI_THREAD_STATE_SUSPENDED, JVMTI_THREAD_STATE_SUSPENDED,
           "... GetThreadState adds SUSPENDED, which %s does not say", source);
    (*e)->ResumeThread(e, T(WORKER));
    (*e)->GetThreadState(e, T(WORKER), &state);
    EXPECT(state & JVMTI_THREAD_STATE_SUSPENDED, 0, "... and drops it once resumed (%s)", source);
}

static void section_threads(void)
{
    vm_start(1, 0, 0);
    threads_start();
    jvmtiEnv *e = env_new();

    jthread t = NULL;
    EXPECT((*e)->GetCurrentThread(e, &t), JVMTI_ERROR_NONE, "GetCurrentThread");
    EXPECT(t == T(MAIN), 1, "... the calling thread's object");
    pthread_t other;
    void *res = NULL;
    pthread_create(&other, NULL, unattached_current, e);
    pthread_join(other, &res);
    EXPECT(*(jvmtiError *)res, JVMTI_ERROR_UNATTACHED_THREAD,
           "GetCurrentThread from a thread the VM never started: UNATTACHED_THREAD");

    jint n = -1;
    jthread *all = NULL;
    EXPECT((*e)->GetAllThreads(e, &n, &all), JVMTI_ERROR_NONE, "GetAllThreads");
    EXPECT(n, 2, "... 2 threads: not the VM's own, the virtual one, nor one without an object");
    if (n == 2)
        EXPECT(all[0] == T(MAIN) && all[1] == T(WORKER), 1, "... main, then worker: start order");
    EXPECT((*e)->Deallocate(e, (unsigned char *)all), JVMTI_ERROR_NONE,
           "... one array, Deallocated once");

    /* GetThreadState: the walk's state, stopped before its first frame. */
    jint state = -1;
    __atomic_store_n(&frames_walked, 0, __ATOMIC_RELAXED);
    EXPECT((*e)->GetThreadState(e, T(WORKER), &state), JVMTI_ERROR_NONE, "GetThreadState(worker)");
    EXPECT(state,
           JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_WAITING |
               JVMTI_THREAD_STATE_WAITING_INDEFINITELY,
           "... the state the VM's walk gives");
    EXPECT(__atomic_load_n(&frames_walked, __ATOMIC_RELAXED), 1,
           "... no frame walked past the first");
    EXPECT((*e)->GetThreadState(e, NULL, &state), JVMTI_ERROR_NONE, "GetThreadState(NULL)");
    EXPECT(state & JVMTI_THREAD_STATE_ALIVE, JVMTI_THREAD_STATE_ALIVE, "... the caller, alive");
    EXPECT((*e)->GetThreadState(e, T(NEW), &state), JVMTI_ERROR_NONE,
           "GetThreadState of a thread not started: no error");
    EXPECT(state, 0, "... state 0");
    EXPECT((*e)->GetThreadState(e, T(DEAD), &state), JVMTI_ERROR_NONE,
           "GetThreadState of a thread that ended: no error");
    EXPECT(state, JVMTI_THREAD_STATE_TERMINATED, "... TERMINATED");
    state = -7;
    EXPECT((*e)->GetThreadState(e, T(INVALID), &state), JVMTI_ERROR_INVALID_THREAD,
           "GetThreadState of what is no thread: INVALID_THREAD");
    EXPECT(state, -7, "... state untouched");
    expect_suspended_added(e, "the VM's walk");

    /* GetThreadInfo: the VM's facts, the name copied. */
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    EXPECT((*e)->GetThreadInfo(e, T(WORKER), &info), JVMTI_ERROR_NONE, "GetThreadInfo(worker)");
    strcpy(name_buf, "overwritten");
    EXPECT(info.name && strcmp(info.name, "thread-1") == 0, 1,
           "... its name, a copy the VM's next use of its buffer does not change");
    EXPECT(info.priority * 10 + info.is_daemon, 21, "... priority 2, daemon");
    EXPECT(info.thread_group != NULL && info.context_class_loader != NULL, 1,
           "... its group and context class loader");
    EXPECT((*e)->Deallocate(e, (unsigned char *)info.name), JVMTI_ERROR_NONE,
           "... the name Deallocated by the agent");
    EXPECT((*e)->GetThreadInfo(e, NULL, &info), JVMTI_ERROR_NONE, "GetThreadInfo(NULL)");
    EXPECT(info.name && strcmp(info.name, "thread-0") == 0, 1, "... the calling thread's");
    (*e)->Deallocate(e, (unsigned char *)info.name);
    EXPECT((*e)->GetThreadInfo(e, T(NEW), &info), JVMTI_ERROR_NONE,
           "GetThreadInfo of a thread not started: no error");
    EXPECT(info.name && info.name[0] == '\0', 1, "... a NULL name from the VM reads as \"\"");
    (*e)->Deallocate(e, (unsigned char *)info.name);
    EXPECT((*e)->GetThreadInfo(e, T(DEAD), &info), JVMTI_ERROR_NONE,
           "GetThreadInfo of a thread that ended: no error");
    EXPECT(info.thread_group == NULL, 1, "... no group any more");
    (*e)->Deallocate(e, (unsigned char *)info.name);
    EXPECT((*e)->GetThreadInfo(e, T(INVALID), &info), JVMTI_ERROR_INVALID_THREAD,
           "GetThreadInfo of what is no thread: INVALID_THREAD");

    (*e)->DisposeEnvironment(e);
    threads_stop();
    jvmtirt_shutdown();
}

/* GetThreadState from the VM's thread_state: no stack walked, the core's
 * checks and SUSPENDED as with the walk. */
static void section_thread_state(void)
{
    with_thread_state = 1;
    vm_start(1, 0, 0);
    with_thread_state = 0;
    threads_start();
    jvmtiEnv *e = env_new();
    jint state = -1;
    __atomic_store_n(&frames_walked, 0, __ATOMIC_RELAXED);
    EXPECT((*e)->GetThreadState(e, T(WORKER), &state), JVMTI_ERROR_NONE,
           "with thread_state: GetThreadState(worker)");
    EXPECT(state, JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE,
           "... the state thread_state gives, not the walk's");
    EXPECT(__atomic_load_n(&frames_walked, __ATOMIC_RELAXED), 0, "... no stack walked");
    EXPECT((*e)->GetThreadState(e, T(NEW), &state), JVMTI_ERROR_NONE,
           "with thread_state: a thread not started");
    EXPECT(state, 0, "... state 0");
    EXPECT((*e)->GetThreadState(e, T(DEAD), &state), JVMTI_ERROR_NONE,
           "with thread_state: a thread that ended");
    EXPECT(state, JVMTI_THREAD_STATE_TERMINATED, "... TERMINATED");
    long before = __atomic_load_n(&states_read, __ATOMIC_RELAXED);
    state = -7;
    EXPECT((*e)->GetThreadState(e, T(INVALID), &state), JVMTI_ERROR_INVALID_THREAD,
           "with thread_state: what is no thread is INVALID_THREAD");
    EXPECT(state == -7 && __atomic_load_n(&states_read, __ATOMIC_RELAXED) == before, 1,
           "... the VM not asked, the state untouched");
    expect_suspended_added(e, "thread_state");
    (*e)->DisposeEnvironment(e);
    threads_stop();
    jvmtirt_shutdown();
}

/* ---- classes ---- */

static void expect_source(jvmtiEnv *e, int k, jvmtiError want_err, const char *want,
                          const char *desc)
{
    char *s = NULL;
    jvmtiError err = (*e)->GetSourceFileName(e, C(k), &s);
    EXPECT(err, want_err, "GetSourceFileName(%s): %s", vm_classes[k].signature, desc);
    if (want)
        EXPECT(s && strcmp(s, want) == 0, 1, "... \"%s\"", want);
    (*e)->Deallocate(e, (unsigned char *)s);
}

static void section_classes(void)
{
    vm_start(1, 0, 0);
    jvmtiEnv *e = env_new();

    char *sig = NULL, *gen = (char *)"x";
    EXPECT((*e)->GetClassSignature(e, C(STRING), &sig, &gen), JVMTI_ERROR_NONE,
           "GetClassSignature(String)");
    EXPECT(sig && strcmp(sig, "Ljava/lang/String;") == 0 && sig != vm_classes[STRING].signature,
           1, "... a copy of its signature");
    EXPECT(gen == NULL, 1, "... no generic signature: NULL");
    (*e)->Deallocate(e, (unsigned char *)sig);
    EXPECT((*e)->GetClassSignature(e, C(LIST), NULL, &gen), JVMTI_ERROR_NONE,
           "GetClassSignature(List) with signature_ptr NULL");
    EXPECT(gen && strcmp(gen, vm_classes[LIST].generic) == 0, 1, "... its generic signature");
    (*e)->Deallocate(e, (unsigned char *)gen);
    sig = NULL;
    EXPECT((*e)->GetClassSignature(e, C(INT_ARRAY), &sig, NULL), JVMTI_ERROR_NONE,
           "GetClassSignature([I) with generic_ptr NULL");
    EXPECT(sig && strcmp(sig, "[I") == 0, 1, "... \"[I\"");
    (*e)->Deallocate(e, (unsigned char *)sig);

    static const struct {
        int k;
        jint status, modifiers;
        jboolean interface, array;
    } want[] = {
        {STRING, 7, 0x11, 0, 0},
        {LIST, 7, 0x601, 1, 0},
        {LIST_ARRAY, JVMTI_CLASS_STATUS_ARRAY, 0x611, 0, 1},
        {INT_ARRAY, JVMTI_CLASS_STATUS_ARRAY, 0x411, 0, 1},
        {INT, JVMTI_CLASS_STATUS_PRIMITIVE, 0x411, 0, 0},
        {GEN, JVMTI_CLASS_STATUS_VERIFIED | JVMTI_CLASS_STATUS_PREPARED, 0x1, 0, 0},
        {BROKEN, JVMTI_CLASS_STATUS_ERROR, 0x1, 0, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const char *name = vm_classes[want[i].k].signature;
        jint status = -1, modifiers = -1;
        jboolean is_interface = 9, is_array = 9;
        (*e)->GetClassStatus(e, C(want[i].k), &status);
        EXPECT(status, want[i].status, "GetClassStatus(%s)", name);
        (*e)->GetClassModifiers(e, C(want[i].k), &modifiers);
        EXPECT(modifiers, want[i].modifiers, "GetClassModifiers(%s)", name);
        (*e)->IsInterface(e, C(want[i].k), &is_interface);
        EXPECT(is_interface, want[i].interface, "IsInterface(%s)", name);
        (*e)->IsArrayClass(e, C(want[i].k), &is_array);
        EXPECT(is_array, want[i].array, "IsArrayClass(%s)", name);
    }
    expect_source(e, STRING, JVMTI_ERROR_NONE, "String.java", "its SourceFile");
    expect_source(e, GEN, JVMTI_ERROR_ABSENT_INFORMATION, NULL, "none: ABSENT_INFORMATION");
    expect_source(e, LIST_ARRAY, JVMTI_ERROR_ABSENT_INFORMATION, NULL,
                  "an array class: ABSENT_INFORMATION, whatever the VM says");
    expect_source(e, INT, JVMTI_ERROR_ABSENT_INFORMATION, NULL,
                  "a primitive class: ABSENT_INFORMATION, whatever the VM says");
    jint status;
    long calls = class_info_calls;
    EXPECT((*e)->GetClassStatus(e, (jclass)(void *)&objs[1], &status), JVMTI_ERROR_INVALID_CLASS,
           "GetClassStatus of what is no class: INVALID_CLASS");
    EXPECT(class_info_calls - calls, 0, "... class_info not asked");
    jvmtiEnv *bare = NULL;
    jvmtirt_get_env((void **)&bare, JVMTI_VERSION_1_2);
    char *s = NULL;
    EXPECT((*bare)->GetSourceFileName(bare, C(STRING), &s), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
           "GetSourceFileName without can_get_source_file_name");
    (*bare)->DisposeEnvironment(bare);
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
}

/* ---- objects ---- */

static void section_objects(void)
{
    vm_start(1, 0, 0);
    jvmtiEnv *e = env_new();
    jlong size = -1;
    pause_calls = info_while_paused = 0;
    EXPECT((*e)->GetObjectSize(e, O(2), &size), JVMTI_ERROR_NONE, "GetObjectSize");
    EXPECT(size, 32, "... heap_object_info's size");
    EXPECT(pause_calls * 10 + info_while_paused + paused, 21,
           "... asked between heap_pause(1) and heap_pause(0)");
    size = -1;
    EXPECT((*e)->GetObjectSize(e, (jobject)(void *)&thread_objs[0], &size),
           JVMTI_ERROR_INVALID_OBJECT, "GetObjectSize of what object_id does not know");
    EXPECT((*e)->GetObjectSize(e, O(3), &size), JVMTI_ERROR_INVALID_OBJECT,
           "GetObjectSize: heap_object_info's INVALID_OBJECT");
    EXPECT(size * 10 + paused, -10, "... size untouched, the heap resumed");

    jint h1 = 0, h1b = 1, h2 = 0;
    EXPECT((*e)->GetObjectHashCode(e, O(1), &h1), JVMTI_ERROR_NONE,
           "GetObjectHashCode without the VM's hash");
    (*e)->GetObjectHashCode(e, O(1), &h1b);
    (*e)->GetObjectHashCode(e, O(2), &h2);
    EXPECT(h1 == h1b && h1 != h2, 1, "... the same for one object, another for another");
    EXPECT((*e)->GetObjectHashCode(e, (jobject)(void *)&thread_objs[0], &h1),
           JVMTI_ERROR_INVALID_OBJECT, "GetObjectHashCode of what object_id does not know");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();

    vm_start(1, 0, 1);
    e = env_new();
    EXPECT((*e)->GetObjectHashCode(e, O(2), &h2), JVMTI_ERROR_NONE,
           "GetObjectHashCode with the VM's object_hash");
    EXPECT(h2, 0x1002, "... the VM's hash");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
}

/* ---- without the operations ---- */

static char *report_text(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    jvmtirt_report_defaults(out);
    fclose(out);
    return text;
}

static void expect_missing(const char *how)
{
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION_1_2);
    jthread t;
    jint n;
    jthread *all;
    jvmtiThreadInfo info;
    char *sig;
    jboolean b;
    jint status;
    jvmtiStackInfo *stacks;
    EXPECT((*e)->GetCurrentThread(e, &t), JVMTI_ERROR_NOT_AVAILABLE, "%s: GetCurrentThread", how);
    EXPECT((*e)->GetAllThreads(e, &n, &all), JVMTI_ERROR_NOT_AVAILABLE, "%s: GetAllThreads", how);
    EXPECT((*e)->GetAllStackTraces(e, 1, &stacks, &n), JVMTI_ERROR_NOT_AVAILABLE,
           "%s: GetAllStackTraces (it lists GetAllThreads' threads)", how);
    EXPECT((*e)->GetThreadInfo(e, T(MAIN), &info), JVMTI_ERROR_NOT_AVAILABLE,
           "%s: GetThreadInfo", how);
    EXPECT((*e)->GetClassSignature(e, C(STRING), &sig, NULL), JVMTI_ERROR_NOT_AVAILABLE,
           "%s: GetClassSignature", how);
    EXPECT((*e)->GetClassStatus(e, C(STRING), &status), JVMTI_ERROR_NOT_AVAILABLE,
           "%s: GetClassStatus", how);
    EXPECT((*e)->IsArrayClass(e, C(STRING), &b), JVMTI_ERROR_NOT_AVAILABLE, "%s: IsArrayClass", how);
    EXPECT((*e)->GetThreadState(e, T(MAIN), &status), JVMTI_ERROR_NONE,
           "%s: GetThreadState still works (walk_stacks)", how);
    jlong size;
    EXPECT((*e)->GetObjectSize(e, O(1), &size), JVMTI_ERROR_NONE,
           "%s: GetObjectSize still works (heap_object_info)", how);
    jvmtiCapabilities pot;
    (*e)->GetPotentialCapabilities(e, &pot);
    EXPECT(pot.can_get_source_file_name, 0,
           "%s: can_get_source_file_name withdrawn (GetSourceFileName would only fail)", how);
    EXPECT(pot.can_suspend, 1, "%s: can_suspend stays", how);
    char *text = report_text();
    EXPECT(strstr(text, "function GetCurrentThread answers") != NULL &&
               strstr(text, "function GetAllThreads answers") != NULL &&
               strstr(text, "function GetThreadInfo answers") != NULL &&
               strstr(text, "function IsInterface answers") != NULL &&
               strstr(text, "capability can_get_source_file_name withdrawn") != NULL &&
               strstr(text, "GetThreadState") == NULL && strstr(text, "GetObjectSize") == NULL,
           1, "%s: jvmtirt_report_defaults names them (and the capability), not the others", how);
    free(text);
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
}

static void section_missing(void)
{
    vm_start(0, 0, 0);
    expect_missing("no operations");
    /* A VM compiled before the operations existed: its struct ends where
     * they begin. They are set here, past its size: the core must not
     * read them. */
    vm_start(1, offsetof(jvmtirt_config, thread_ref), 0);
    expect_missing("a config from before them");
    /* GetThreadInfo of the current thread (NULL) needs thread_ref too. */
    vm_start(2, 0, 0);
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION_1_2);
    jvmtiThreadInfo info;
    EXPECT((*e)->GetThreadInfo(e, NULL, &info), JVMTI_ERROR_NOT_AVAILABLE,
           "without thread_ref: GetThreadInfo(NULL)");
    char *text = report_text();
    EXPECT(strstr(text, "function GetThreadInfo answers") != NULL, 1,
           "without thread_ref: jvmtirt_report_defaults names GetThreadInfo");
    free(text);
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
    vm_start(1, 0, 0);
    text = report_text();
    EXPECT(strstr(text, "GetCurrentThread") == NULL && strstr(text, "GetClassSignature") == NULL &&
               strstr(text, "GetSourceFileName") == NULL && strstr(text, "withdrawn") == NULL,
           1, "with the operations the report names none of these");
    free(text);
    jvmtirt_shutdown();
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    section_threads();
    section_thread_state();
    section_classes();
    section_objects();
    section_missing();
    return tap_failures ? 1 : 0;
}
