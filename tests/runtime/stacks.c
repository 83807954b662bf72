/* stacks.c: unit tests of the core's stacks and classes area
 * (runtime/threads/stacks.c, classes/classes.c) through real function tables: GetStackTrace
 * with start depths from the top and from the bottom and max_frame_count,
 * GetFrameCount, GetFrameLocation, GetThreadListStackTraces and
 * GetAllStackTraces (one block the agent frees once), the thread errors,
 * GetLoadedClasses and GetClassLoaderClasses, the functions answering
 * NOT_AVAILABLE (and reported) without the VM's operations, and walks from
 * several threads while environments come and go (run under TSan too).
 * This program plays the VM. Expected values are the spec's, written by
 * hand from the stacks below. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define TAP_PREFIX "stacks: "
#include "tap.h"
#include "vm_threads.h"

static void report(int ok, const char *desc, long long got, long long want)
{
    if (ok)
        tap_line(1, "%s", desc);
    else
        tap_line(0, "%s (expected %lld, got %lld)", desc, want, got);
}

#define EXPECT(got, want, desc)                                  \
    do {                                                         \
        long long g_ = (long long)(got), w_ = (long long)(want); \
        report(g_ == w_, desc, g_, w_);                          \
    } while (0)

/* ---- the VM: methods m1..m5, threads and their stacks ---- */

static char methods[6];
#define M(i) ((jmethodID)(void *)&methods[i])
static int method_no(jmethodID m) { return (int)((char *)(void *)m - methods); }

/* Threads are the addresses of these; their stacks, top first. */
enum { MAIN, OTHER, EMPTY, DEEP, ENDING, NEW, DEAD, INVALID, N_THREADS };
static char thread_objs[N_THREADS];
#define T(i) ((jthread)(void *)&thread_objs[i])
static int thread_no(uintptr_t id) { return (int)((char *)id - thread_objs); }

#define DEEP_FRAMES 1000
static pthread_mutex_t vm_lock = PTHREAD_MUTEX_INITIALIZER; /* the stacks */
static jvmtiFrameInfo stacks[N_THREADS][DEEP_FRAMES];
static jint heights[N_THREADS];
static long frames_visited; /* by the VM's walks, under vm_lock */

static void vm_stacks(void)
{
    /* main: m3@30 called by m2@20 called by m1@10 */
    heights[MAIN] = 3;
    stacks[MAIN][0] = (jvmtiFrameInfo){M(3), 30};
    stacks[MAIN][1] = (jvmtiFrameInfo){M(2), 20};
    stacks[MAIN][2] = (jvmtiFrameInfo){M(1), 10};
    /* other: a native m5 on top of m4@7 */
    heights[OTHER] = 2;
    stacks[OTHER][0] = (jvmtiFrameInfo){M(5), -1};
    stacks[OTHER][1] = (jvmtiFrameInfo){M(4), 7};
    heights[EMPTY] = 0;
    heights[DEEP] = DEEP_FRAMES;
    for (int i = 0; i < DEEP_FRAMES; i++)
        stacks[DEEP][i] = (jvmtiFrameInfo){M(1 + i % 5), DEEP_FRAMES - i};
    heights[ENDING] = 4; /* started, but ends before the walk reaches it */
}

static jvmtiError check_thread(jvmtiEnv *env, jthread thread)
{
    (void)env;
    char *p = (char *)(void *)thread;
    if (p < thread_objs || p >= thread_objs + N_THREADS || p == (char *)T(INVALID))
        return JVMTI_ERROR_INVALID_THREAD;
    return p == (char *)T(NEW) || p == (char *)T(DEAD) ? JVMTI_ERROR_THREAD_NOT_ALIVE
                                                        : JVMTI_ERROR_NONE;
}

static jvmtiError walk_stacks(const uintptr_t *ids, jint n, jint *states,
                              int (*visit)(void *, jint, jmethodID, jlocation), void *arg)
{
    pthread_mutex_lock(&vm_lock); /* every stack sampled at one moment */
    for (jint i = 0; i < n; i++) {
        int t = thread_no(ids[i]);
        if (t == NEW) {
            states[i] = 0;
            continue;
        }
        if (t == DEAD || t == ENDING) {
            states[i] = JVMTI_THREAD_STATE_TERMINATED;
            continue;
        }
        states[i] = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE;
        for (jint d = 0; d < heights[t]; d++) {
            frames_visited++;
            if (visit(arg, i, stacks[t][d].method, stacks[t][d].location))
                break;
        }
    }
    pthread_mutex_unlock(&vm_lock);
    return JVMTI_ERROR_NONE;
}

static long visited(void)
{
    pthread_mutex_lock(&vm_lock);
    long n = frames_visited;
    frames_visited = 0;
    pthread_mutex_unlock(&vm_lock);
    return n;
}

/* GetAllStackTraces lists the threads the core knows (GetAllThreads), each
 * through the VM's thread object: the ending one has none any more. */
static jthread thread_ref(uintptr_t id)
{
    return thread_no(id) == ENDING ? NULL : (jthread)(void *)id;
}

/* ---- classes: who defined each, which loaders initiated it ---- */

enum { BOOT, APP, OTHER_LOADER };
static char loader_objs[3];
#define LOADER(i) ((i) == BOOT ? NULL : (jobject)(void *)&loader_objs[i])
static const struct vm_class {
    const char *name;
    int hidden, array;
    int initiated[3]; /* by BOOT, APP, OTHER_LOADER */
} vm_classes[] = {
    {"java/lang/Object", 0, 0, {1, 1, 1}}, /* boot's, found through the others too */
    {"java/lang/String", 0, 0, {1, 1, 0}},
    {"[I", 0, 1, {0, 0, 0}},               /* arrays: no loader finds them by name here */
    {"app/Main", 0, 0, {0, 1, 0}},
    {"app/Main$$Lambda", 1, 0, {0, 0, 0}}, /* hidden: only GetLoadedClasses lists it */
    {"other/Plugin", 0, 0, {0, 0, 1}},
};
#define N_CLASSES (sizeof vm_classes / sizeof *vm_classes)
#define CLASS(i) ((jclass)(void *)&vm_classes[i])

static int loader_no(jobject loader)
{
    return loader ? (int)((char *)(void *)loader - loader_objs) : BOOT;
}

static jvmtiError each_class(jobject loader, int all, int (*visit)(void *, jclass), void *arg)
{
    for (size_t i = 0; i < N_CLASSES; i++)
        if ((all || vm_classes[i].initiated[loader_no(loader)]) && visit(arg, CLASS(i)))
            break;
    return JVMTI_ERROR_NONE;
}

static void vm_start(int with_ops)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    c.check_thread = check_thread;
    if (with_ops) {
        c.walk_stacks = walk_stacks;
        c.each_class = each_class;
        c.thread_ref = thread_ref;
    }
    jvmtirt_init(&c);
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start((uintptr_t)T(MAIN), JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
}

/* The other threads (vm_threads.h), in this order. */
static const vm_thread others[] = {{(uintptr_t)T(OTHER), JVMTIRT_JAVA_THREAD},
                                   {(uintptr_t)T(EMPTY), JVMTIRT_JAVA_THREAD},
                                   {(uintptr_t)T(DEEP), JVMTIRT_JAVA_THREAD},
                                   {(uintptr_t)T(ENDING), JVMTIRT_JAVA_THREAD}};

static void threads_start(void) { vm_threads_start(others, 4); }
static void threads_stop(void) { vm_threads_stop(); }

static jvmtiEnv *env_new(void)
{
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION_1_2);
    return e;
}

/* "m3@30 m2@20" */
static const char *trace(const jvmtiFrameInfo *f, jint n)
{
    static char buf[256];
    buf[0] = '\0';
    for (jint i = 0; i < n && strlen(buf) < sizeof buf - 32; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%sm%d@%lld", i ? " " : "",
                 method_no(f[i].method), (long long)f[i].location);
    return buf;
}

static void expect_trace(jvmtiEnv *e, int thread, jint start, jint max, jvmtiError want_err,
                         const char *want)
{
    jvmtiFrameInfo f[8];
    jint n = -7;
    jvmtiError err = (*e)->GetStackTrace(e, T(thread), start, max, f, &n);
    char desc[160];
    snprintf(desc, sizeof desc, "GetStackTrace(thread %d, start_depth %d, max_frame_count %d): %s",
             thread, (int)start, (int)max, want ? want : "error");
    if (err != want_err) {
        report(0, desc, err, want_err);
    } else if (want) {
        const char *got = trace(f, n);
        int same = strcmp(got, want) == 0;
        if (!same)
            printf("# got \"%s\"\n", got);
        report(same, desc, n, n);
    } else {
        report(n == -7, desc, n, -7); /* count untouched on an error */
    }
}

static void section_stack_trace(void)
{
    vm_start(1);
    threads_start();
    jvmtiEnv *e = env_new();
    /* From the top. */
    expect_trace(e, MAIN, 0, 8, JVMTI_ERROR_NONE, "m3@30 m2@20 m1@10");
    expect_trace(e, MAIN, 0, 2, JVMTI_ERROR_NONE, "m3@30 m2@20");
    expect_trace(e, MAIN, 1, 1, JVMTI_ERROR_NONE, "m2@20");
    expect_trace(e, MAIN, 2, 8, JVMTI_ERROR_NONE, "m1@10");
    expect_trace(e, MAIN, 0, 0, JVMTI_ERROR_NONE, "");
    expect_trace(e, MAIN, 2, 0, JVMTI_ERROR_NONE, "");
    /* start_depth at or beyond the depth: ILLEGAL_ARGUMENT, even for 0 frames */
    expect_trace(e, MAIN, 3, 8, JVMTI_ERROR_ILLEGAL_ARGUMENT, NULL);
    expect_trace(e, MAIN, 4, 0, JVMTI_ERROR_ILLEGAL_ARGUMENT, NULL);
    /* From the bottom: -1 is the oldest frame alone. */
    expect_trace(e, MAIN, -1, 8, JVMTI_ERROR_NONE, "m1@10");
    expect_trace(e, MAIN, -2, 8, JVMTI_ERROR_NONE, "m2@20 m1@10");
    expect_trace(e, MAIN, -3, 8, JVMTI_ERROR_NONE, "m3@30 m2@20 m1@10");
    expect_trace(e, MAIN, -3, 2, JVMTI_ERROR_NONE, "m3@30 m2@20");
    expect_trace(e, MAIN, -2, 0, JVMTI_ERROR_NONE, "");
    expect_trace(e, MAIN, -4, 8, JVMTI_ERROR_ILLEGAL_ARGUMENT, NULL);
    expect_trace(e, MAIN, -4, 0, JVMTI_ERROR_ILLEGAL_ARGUMENT, NULL);
    /* An empty stack: depth 0 is no error, anything else is. */
    expect_trace(e, EMPTY, 0, 8, JVMTI_ERROR_NONE, "");
    expect_trace(e, EMPTY, 1, 8, JVMTI_ERROR_ILLEGAL_ARGUMENT, NULL);
    expect_trace(e, EMPTY, -1, 8, JVMTI_ERROR_ILLEGAL_ARGUMENT, NULL);
    /* A native frame's location is -1. */
    expect_trace(e, OTHER, 0, 8, JVMTI_ERROR_NONE, "m5@-1 m4@7");
    expect_trace(e, MAIN, 0, -1, JVMTI_ERROR_ILLEGAL_ARGUMENT, NULL);
    /* Thread errors. */
    expect_trace(e, NEW, 0, 8, JVMTI_ERROR_THREAD_NOT_ALIVE, NULL);
    expect_trace(e, DEAD, 0, 8, JVMTI_ERROR_THREAD_NOT_ALIVE, NULL);
    expect_trace(e, INVALID, 0, 8, JVMTI_ERROR_INVALID_THREAD, NULL);
    expect_trace(e, ENDING, 0, 8, JVMTI_ERROR_THREAD_NOT_ALIVE, NULL);
    jvmtiFrameInfo f[8];
    jint n = 0;
    EXPECT((*e)->GetStackTrace(e, NULL, 0, 8, f, &n), JVMTI_ERROR_NONE,
           "GetStackTrace(NULL): the calling thread");
    EXPECT(n, 3, "... its 3 frames");
    /* Only what is asked for is walked: from the top, start_depth +
     * max_frame_count frames (and one more that ends the walk). */
    visited();
    EXPECT((*e)->GetStackTrace(e, T(DEEP), 10, 5, f, &n), JVMTI_ERROR_NONE,
           "GetStackTrace of a 1000-frame stack from depth 10");
    EXPECT(n, 5, "... 5 frames");
    EXPECT(f[0].location, DEEP_FRAMES - 10, "... the first at depth 10");
    EXPECT(visited(), 16, "... after a walk of 16 frames, not 1000");
    EXPECT((*e)->GetStackTrace(e, T(DEEP), -2, 5, f, &n), JVMTI_ERROR_NONE,
           "GetStackTrace of a 1000-frame stack from the bottom");
    EXPECT(n, 2, "... the 2 oldest frames");
    EXPECT(f[1].location, 1, "... the oldest last");
    (*e)->DisposeEnvironment(e);
    threads_stop();
    jvmtirt_shutdown();
}

static void section_frames(void)
{
    vm_start(1);
    threads_start();
    jvmtiEnv *e = env_new();
    jint n = -1;
    EXPECT((*e)->GetFrameCount(e, T(MAIN), &n), JVMTI_ERROR_NONE, "GetFrameCount(main)");
    EXPECT(n, 3, "... 3");
    EXPECT((*e)->GetFrameCount(e, NULL, &n), JVMTI_ERROR_NONE, "GetFrameCount(NULL)");
    EXPECT(n, 3, "... the calling thread's 3");
    EXPECT((*e)->GetFrameCount(e, T(EMPTY), &n), JVMTI_ERROR_NONE, "GetFrameCount(empty stack)");
    EXPECT(n, 0, "... 0");
    EXPECT((*e)->GetFrameCount(e, T(DEEP), &n), JVMTI_ERROR_NONE, "GetFrameCount(deep)");
    EXPECT(n, DEEP_FRAMES, "... every frame counted");
    EXPECT((*e)->GetFrameCount(e, T(NEW), &n), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "GetFrameCount(not started)");
    EXPECT((*e)->GetFrameCount(e, T(ENDING), &n), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "GetFrameCount(a thread that ends before the walk)");
    EXPECT((*e)->GetFrameCount(e, T(INVALID), &n), JVMTI_ERROR_INVALID_THREAD,
           "GetFrameCount(not a thread)");
    jmethodID m = NULL;
    jlocation l = 0;
    EXPECT((*e)->GetFrameLocation(e, T(MAIN), 0, &m, &l), JVMTI_ERROR_NONE,
           "GetFrameLocation(main, 0)");
    EXPECT(method_no(m) * 1000 + l, 3030, "... m3 at 30");
    EXPECT((*e)->GetFrameLocation(e, T(MAIN), 2, &m, &l), JVMTI_ERROR_NONE,
           "GetFrameLocation(main, 2)");
    EXPECT(method_no(m) * 1000 + l, 1010, "... m1 at 10");
    EXPECT((*e)->GetFrameLocation(e, T(MAIN), 3, &m, &l), JVMTI_ERROR_NO_MORE_FRAMES,
           "GetFrameLocation(main, 3): below the oldest frame");
    EXPECT((*e)->GetFrameLocation(e, T(EMPTY), 0, &m, &l), JVMTI_ERROR_NO_MORE_FRAMES,
           "GetFrameLocation(empty stack, 0)");
    EXPECT((*e)->GetFrameLocation(e, T(MAIN), -1, &m, &l), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "GetFrameLocation(main, -1)");
    EXPECT((*e)->GetFrameLocation(e, T(OTHER), 0, &m, &l), JVMTI_ERROR_NONE,
           "GetFrameLocation(a native frame)");
    EXPECT(l, -1, "... location -1");
    EXPECT((*e)->GetFrameLocation(e, T(DEAD), 0, &m, &l), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "GetFrameLocation(ended)");
    visited();
    EXPECT((*e)->GetFrameLocation(e, T(DEEP), 1, &m, &l), JVMTI_ERROR_NONE,
           "GetFrameLocation(deep, 1)");
    EXPECT(visited(), 3, "... walks 3 frames, not 1000");
    (*e)->DisposeEnvironment(e);
    threads_stop();
    jvmtirt_shutdown();
}

/* One block: the infos, then every frame buffer inside it, in order. */
static int one_block(const jvmtiStackInfo *info, jint n)
{
    const jvmtiFrameInfo *next = (const jvmtiFrameInfo *)(const void *)(info + n);
    for (jint i = 0; i < n; i++) {
        if (info[i].frame_buffer != next)
            return 0;
        next += info[i].frame_count;
    }
    return 1;
}

static void section_stack_infos(void)
{
    vm_start(1);
    threads_start();
    jvmtiEnv *e = env_new();
    jvmtiStackInfo *info = NULL;
    jint n = -1;
    EXPECT((*e)->GetAllStackTraces(e, 2, &info, &n), JVMTI_ERROR_NONE, "GetAllStackTraces(2)");
    EXPECT(n, 4, "... the 4 live threads that still have a thread object");
    if (n == 4 && info) {
        EXPECT(info[0].thread == T(MAIN) && info[1].thread == T(OTHER) &&
                   info[2].thread == T(EMPTY) && info[3].thread == T(DEEP),
               1, "... in the order they started");
        EXPECT(info[0].frame_count * 1000 + info[1].frame_count * 100 + info[2].frame_count * 10 +
                   info[3].frame_count,
               2202, "... frame counts 2, 2, 0, 2 (max_frame_count 2)");
        EXPECT(strcmp(trace(info[0].frame_buffer, info[0].frame_count), "m3@30 m2@20"), 0,
               "... main's two topmost frames");
        EXPECT(info[1].state, JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE,
               "... each thread's state from the walk");
        EXPECT(one_block(info, n), 1, "... the frame buffers inside the one block, in order");
    }
    EXPECT((*e)->Deallocate(e, (unsigned char *)info), JVMTI_ERROR_NONE,
           "... freed with one Deallocate (leak-checked under ASan)");
    EXPECT((*e)->GetAllStackTraces(e, -1, &info, &n), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "GetAllStackTraces(-1)");

    jthread list[] = {T(MAIN), T(NEW), T(DEAD), T(DEEP), T(MAIN)};
    info = NULL;
    EXPECT((*e)->GetThreadListStackTraces(e, 5, list, 3, &info), JVMTI_ERROR_NONE,
           "GetThreadListStackTraces of 5 (not started, ended, repeated)");
    if (info) {
        EXPECT(info[1].frame_count + info[2].frame_count, 0,
               "... the threads not alive have empty stacks");
        EXPECT(info[1].state, 0, "... not started: state 0");
        EXPECT(info[2].state, JVMTI_THREAD_STATE_TERMINATED, "... ended: TERMINATED");
        EXPECT(info[1].thread == T(NEW) && info[4].thread == T(MAIN), 1,
               "... each entry names its thread, in the list's order");
        EXPECT(info[3].frame_count, 3, "... 3 of the deep thread's frames");
        EXPECT(strcmp(trace(info[4].frame_buffer, info[4].frame_count), "m3@30 m2@20 m1@10"), 0,
               "... main's whole stack (repeated)");
        EXPECT(one_block(info, 5), 1, "... one block");
    }
    (*e)->Deallocate(e, (unsigned char *)info);
    jthread bad[] = {T(MAIN), T(INVALID)};
    info = (jvmtiStackInfo *)(void *)&n;
    EXPECT((*e)->GetThreadListStackTraces(e, 2, bad, 3, &info), JVMTI_ERROR_INVALID_THREAD,
           "GetThreadListStackTraces with a non-thread: INVALID_THREAD");
    EXPECT(info == (jvmtiStackInfo *)(void *)&n, 1, "... and nothing allocated");
    jthread with_null[] = {T(MAIN), NULL};
    EXPECT((*e)->GetThreadListStackTraces(e, 2, with_null, 3, &info), JVMTI_ERROR_INVALID_THREAD,
           "GetThreadListStackTraces with a NULL element: INVALID_THREAD");
    EXPECT((*e)->GetThreadListStackTraces(e, 0, list, 3, &info), JVMTI_ERROR_NONE,
           "GetThreadListStackTraces of none");
    EXPECT(info == NULL, 1, "... gives NULL");
    EXPECT((*e)->GetThreadListStackTraces(e, -1, list, 3, &info), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "GetThreadListStackTraces(-1 threads)");
    (*e)->DisposeEnvironment(e);
    threads_stop();
    jvmtirt_shutdown();
}

/* The names of the classes a call returned, in order. */
static const char *class_names(const jclass *c, jint n)
{
    static char buf[512];
    buf[0] = '\0';
    for (jint i = 0; i < n; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "",
                 ((const struct vm_class *)(const void *)c[i])->name);
    return buf;
}

static void expect_classes(jvmtiEnv *e, int loader, const char *want, const char *desc)
{
    jclass *c = NULL;
    jint n = -1;
    jvmtiError err = loader < 0 ? (*e)->GetLoadedClasses(e, &n, &c)
                                : (*e)->GetClassLoaderClasses(e, LOADER(loader), &n, &c);
    const char *got = err == JVMTI_ERROR_NONE ? class_names(c, n) : "(error)";
    int same = strcmp(got, want) == 0;
    if (!same)
        printf("# got \"%s\"\n", got);
    report(same, desc, same, 1);
    (*e)->Deallocate(e, (unsigned char *)c);
}

static void section_classes(void)
{
    vm_start(1);
    jvmtiEnv *e = env_new();
    expect_classes(e, -1, "java/lang/Object java/lang/String [I app/Main app/Main$$Lambda other/Plugin",
                   "GetLoadedClasses: every class, arrays and hidden ones too");
    expect_classes(e, BOOT, "java/lang/Object java/lang/String",
                   "GetClassLoaderClasses(NULL): the bootstrap loader's");
    expect_classes(e, APP, "java/lang/Object java/lang/String app/Main",
                   "GetClassLoaderClasses(app): what it defined and what it found by delegation");
    expect_classes(e, OTHER_LOADER, "java/lang/Object other/Plugin",
                   "GetClassLoaderClasses(other)");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
}

/* Without the VM's operations the functions answer NOT_AVAILABLE, and the
 * port's report names them (they need no capability: every VM should
 * have them). */
static void section_not_supplied(void)
{
    vm_start(0);
    jvmtiEnv *e = env_new();
    jvmtiFrameInfo f[2];
    jint n;
    jclass *c;
    jvmtiStackInfo *info;
    EXPECT((*e)->GetStackTrace(e, NULL, 0, 2, f, &n), JVMTI_ERROR_NOT_AVAILABLE,
           "no walk_stacks: GetStackTrace answers NOT_AVAILABLE");
    EXPECT((*e)->GetAllStackTraces(e, 2, &info, &n), JVMTI_ERROR_NOT_AVAILABLE,
           "no walk_stacks: GetAllStackTraces answers NOT_AVAILABLE");
    EXPECT((*e)->GetLoadedClasses(e, &n, &c), JVMTI_ERROR_NOT_AVAILABLE,
           "no each_class: GetLoadedClasses answers NOT_AVAILABLE");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    jvmtirt_report_defaults(out);
    fclose(out);
    EXPECT(strstr(text, "function GetStackTrace answers") != NULL, 1,
           "... jvmtirt_report_defaults names GetStackTrace");
    EXPECT(strstr(text, "function GetClassLoaderClasses answers") != NULL, 1,
           "... and GetClassLoaderClasses");
    free(text);
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
    vm_start(1);
    out = open_memstream(&text, &len);
    jvmtirt_report_defaults(out);
    fclose(out);
    EXPECT(strstr(text, "GetStackTrace") == NULL && strstr(text, "GetAllStackTraces") == NULL &&
               strstr(text, "GetLoadedClasses") == NULL,
           1, "with the operations (and thread_ref) the report names none of them");
    free(text);
    jvmtirt_shutdown();
}

/* Walks from several threads while environments are created and disposed
 * and the VM's stacks change: no race (TSan), nothing leaked (ASan). */
static int stop_walkers;
static int walk_errors; /* atomic */

static void *walker(void *arg)
{
    jvmtirt_thread_start((uintptr_t)arg, JVMTIRT_JAVA_THREAD);
    long rounds = 0;
    while (!__atomic_load_n(&stop_walkers, __ATOMIC_ACQUIRE) || rounds < 50) {
        jvmtiEnv *e = env_new();
        jvmtiStackInfo *info = NULL;
        jint n = 0;
        jvmtiFrameInfo f[4];
        if ((*e)->GetAllStackTraces(e, 4, &info, &n) != JVMTI_ERROR_NONE ||
            (*e)->GetStackTrace(e, T(MAIN), -1, 4, f, &n) != JVMTI_ERROR_NONE)
            __atomic_fetch_add(&walk_errors, 1, __ATOMIC_RELAXED);
        (*e)->Deallocate(e, (unsigned char *)info);
        (*e)->DisposeEnvironment(e);
        rounds++;
    }
    jvmtirt_thread_end();
    return NULL;
}

static void section_concurrent(void)
{
    vm_start(1);
    pthread_t w[3];
    static const int as[3] = {OTHER, EMPTY, DEEP};
    stop_walkers = 0;
    for (int i = 0; i < 3; i++)
        pthread_create(&w[i], NULL, walker, (void *)T(as[i]));
    for (int round = 0; round < 2000; round++) { /* the VM's main thread calls and returns */
        pthread_mutex_lock(&vm_lock);
        heights[MAIN] = 2 + round % 2;
        pthread_mutex_unlock(&vm_lock);
    }
    __atomic_store_n(&stop_walkers, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 3; i++)
        pthread_join(w[i], NULL);
    heights[MAIN] = 3;
    EXPECT(walk_errors, 0, "walks from 3 threads while environments come and go");
    jvmtirt_shutdown();
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    vm_stacks();
    section_stack_trace();
    section_frames();
    section_stack_infos();
    section_classes();
    section_not_supplied();
    section_concurrent();
    return tap_failures ? 1 : 0;
}
