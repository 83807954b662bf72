/* soak_agent.c: the agent of the host's soak test (jvmti-host -soak:SECONDS).
 *
 * options: churners=N,togglers=N,lockers=N   (each 0..16, default 2)
 *
 * While the host's worker threads post events in a loop, this agent's own
 * threads (attached to the host like Java threads):
 *   churners  create environments (GetEnv), give them callbacks, enable
 *             ClassLoad (globally or for one worker) and DataDumpRequest,
 *             create and destroy raw monitors in them, and dispose of them;
 *   togglers  enable and disable events in a long-lived environment
 *             (ClassLoad, DataDumpRequest, GarbageCollectionFinish globally,
 *             ClassPrepare for one worker at a time);
 *   lockers   contend for one raw monitor: enter (sometimes twice), count,
 *             wait briefly, notify, exit.
 * A third environment keeps ClassPrepare, DataDumpRequest and
 * GarbageCollectionStart enabled the whole time: it must get every one the
 * host posts (the test compares the counts with the host's).
 *
 * Every delivery is judged with the host's clock (the extension functions
 * jvmtigen.host.Clock and jvmtigen.host.PostStart): a toggler marks an
 * event enabled before it enables it and stamps the time after a disable
 * returns; a churner stamps the time after DisposeEnvironment returns. A
 * callback whose post began after such a stamp (and not in a later enabled
 * window) is a late delivery; one for a thread the event was not enabled
 * for, or for an event never enabled, is a wrong one. At VMDeath the agent
 * stops its threads and prints one TAP line per invariant. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmti.h"

#define MAX_WORKERS 64
#define MAX_THREADS 16
#define RING 4096 /* tags kept per churner: a stalled callback still finds its own */

#define ADD(p, v) __atomic_add_fetch((p), (v), __ATOMIC_RELAXED)
#define GET(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define PUT(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

static JavaVM *vm;
static jvmtiEnv *E_static, *E_toggle;
static jvmtiExtensionFunction clock_fn, post_start_fn;
static int n_churners = 2, n_togglers = 2, n_lockers = 2;
static int stop;                        /* atomic */
static _Thread_local int agent_thread;  /* this thread is one of ours */

static jlong now(void)
{
    jlong t = 0;
    clock_fn(E_static, &t);
    return t;
}

static jlong post_start(void)
{
    jlong t = 0;
    post_start_fn(E_static, &t);
    return t;
}

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000L};
    nanosleep(&ts, NULL);
}

/* ---- counters (atomic) ---- */
enum { EV_CLASS_LOAD, EV_CLASS_PREPARE, EV_DATA_DUMP, EV_GC_START, EV_GC_FINISH, EV_COUNT };
static const char *const ev_names[EV_COUNT] = {"ClassLoad", "ClassPrepare", "DataDumpRequest",
                                               "GarbageCollectionStart",
                                               "GarbageCollectionFinish"};
static long static_got[EV_COUNT], toggle_got[EV_COUNT], churn_got;
static long late_toggled, late_disposed, wrong, untraced, call_errors, static_wrong_thread;
static long envs_churned, monitors_churned, stale_refused, toggles;
static long thread_starts, thread_ends;
static char first_error[256];

static void call_error(const char *what, jvmtiError got)
{
    if (ADD(&call_errors, 1) == 1)
        snprintf(first_error, sizeof first_error, "%s returned %d", what, (int)got);
}

#define EXPECT(call, what)                            \
    do {                                              \
        jvmtiError e_ = (call);                       \
        if (e_ != JVMTI_ERROR_NONE)                   \
            call_error(what, e_);                     \
    } while (0)

/* ---- the host's worker threads, as ThreadStart shows them ---- */
static jthread workers[MAX_WORKERS];  /* atomic each */
static int n_workers;                 /* atomic */

static int worker_index(jthread t)
{
    int n = GET(&n_workers);
    for (int i = 0; i < n && i < MAX_WORKERS; i++)
        if (t && GET(&workers[i]) == t)
            return i;
    return -1;
}

/* Worker i, or NULL while its ThreadStart is still storing it. */
static jthread worker(int i) { return i < MAX_WORKERS ? GET(&workers[i]) : NULL; }

static unsigned next_random(void)
{
    static _Thread_local unsigned x = 2463534242u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

static jthread current_thread(void)
{
    jthread t = NULL;
    (*E_static)->GetCurrentThread(E_static, &t);
    return t;
}

/* ---- enable windows of E_toggle: each owned by one toggler ---- */
typedef struct window {
    int enabled;    /* atomic: set before an enable, cleared after a disable */
    jlong off_done; /* atomic: the clock after the last disable returned */
} window;
static window w_class_load, w_data_dump, w_gc_finish, w_prepare[MAX_WORKERS];

/* A delivery is allowed if its window is open, or its post began before
 * the last disable returned (the post was in flight). */
static void judge(window *w)
{
    jlong s = post_start();
    if (!GET(&w->enabled) && s > GET(&w->off_done))
        ADD(&late_toggled, 1);
}

/* ---- churned environments: a ring of tags per churner ---- */
typedef struct tag {
    unsigned gen;       /* atomic: odd while the churner rewrites it */
    jvmtiEnv *env;      /* atomic */
    jlong born;         /* atomic: the clock when the environment was made */
    jthread target;     /* atomic: the worker ClassLoad is enabled for, or NULL */
    jlong disposed_at;  /* atomic: the clock after DisposeEnvironment returned */
} tag;
static tag rings[MAX_THREADS][RING];

/* The tag of env, read consistently into *out; 0 if it cannot be found
 * (its slot was reused meanwhile). */
static int find_tag(jvmtiEnv *env, tag *out)
{
    void *p = NULL;
    tag *t = NULL;
    if ((*env)->GetEnvironmentLocalStorage(env, &p) == JVMTI_ERROR_NONE && p) {
        t = p;
    } else {
        /* Disposed already: its churner's ring still knows it. An older
         * environment may have had the same address (it is freed, so no
         * callback of it can be running): the latest born is this one. */
        jlong best = -1;
        for (int c = 0; c < n_churners; c++)
            for (int k = 0; k < RING; k++)
                if (GET(&rings[c][k].env) == env && GET(&rings[c][k].born) > best) {
                    t = &rings[c][k];
                    best = GET(&t->born);
                }
    }
    if (!t)
        return 0;
    unsigned g = GET(&t->gen);
    out->env = GET(&t->env);
    out->target = GET(&t->target);
    out->disposed_at = GET(&t->disposed_at);
    return !(g & 1) && GET(&t->gen) == g && out->env == env;
}

/* ---- callbacks ---- */

static void JNICALL static_thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)jni;
    ADD(&thread_starts, 1);
    if (agent_thread)
        return;
    int i = __atomic_fetch_add(&n_workers, 1, __ATOMIC_SEQ_CST);
    if (i < MAX_WORKERS)
        PUT(&workers[i], thread);
}

static void JNICALL static_thread_end(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)jni, (void)thread;
    ADD(&thread_ends, 1);
}

static void JNICALL static_class_prepare(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass k)
{
    (void)env, (void)jni, (void)k;
    ADD(&static_got[EV_CLASS_PREPARE], 1);
    if (thread != current_thread())
        ADD(&static_wrong_thread, 1);
}

static void JNICALL static_data_dump(jvmtiEnv *env)
{
    (void)env;
    ADD(&static_got[EV_DATA_DUMP], 1);
}

static void JNICALL static_gc_start(jvmtiEnv *env)
{
    (void)env;
    ADD(&static_got[EV_GC_START], 1);
}

static void JNICALL toggle_class_load(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass k)
{
    (void)env, (void)jni, (void)thread, (void)k;
    ADD(&toggle_got[EV_CLASS_LOAD], 1);
    judge(&w_class_load);
}

static void JNICALL toggle_class_prepare(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass k)
{
    (void)env, (void)jni, (void)k;
    ADD(&toggle_got[EV_CLASS_PREPARE], 1);
    int w = worker_index(thread);
    if (w < 0 || thread != current_thread())
        ADD(&wrong, 1); /* enabled only ever for workers, on their own threads */
    else
        judge(&w_prepare[w]);
}

static void JNICALL toggle_data_dump(jvmtiEnv *env)
{
    (void)env;
    ADD(&toggle_got[EV_DATA_DUMP], 1);
    judge(&w_data_dump);
}

static void JNICALL toggle_gc_finish(jvmtiEnv *env)
{
    (void)env;
    ADD(&toggle_got[EV_GC_FINISH], 1);
    judge(&w_gc_finish);
}

static void churn_judge(jvmtiEnv *env, jthread thread, int per_thread_event)
{
    jlong s = post_start();
    tag t;
    ADD(&churn_got, 1);
    if (!find_tag(env, &t)) {
        ADD(&untraced, 1);
        return;
    }
    if (t.disposed_at && s > t.disposed_at)
        ADD(&late_disposed, 1);
    if (per_thread_event && t.target && t.target != thread)
        ADD(&wrong, 1);
}

static void JNICALL churn_class_load(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass k)
{
    (void)jni, (void)k;
    churn_judge(env, thread, 1);
}

static void JNICALL churn_data_dump(jvmtiEnv *env) { churn_judge(env, NULL, 0); }

/* ---- the agent's threads ---- */

static JNIEnv *attach(void)
{
    agent_thread = 1;
    void *jni = NULL;
    if ((*vm)->AttachCurrentThread(vm, &jni, NULL) != JNI_OK)
        call_error("AttachCurrentThread", JVMTI_ERROR_INTERNAL);
    return jni;
}

static pthread_barrier_t started;

/* After the barrier: the work starts once the host's workers do, so that
 * the host's baseline (taken after VMInit) sees the agent at rest. */
static void wait_for_workers(void)
{
    while (!GET(&n_workers) && !GET(&stop))
        sleep_us(200);
}

static void *churner_main(void *arg)
{
    int c = (int)(intptr_t)arg;
    attach();
    pthread_barrier_wait(&started);
    wait_for_workers();
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassLoad = churn_class_load;
    cb.DataDumpRequest = churn_data_dump;
    long n = 0, mons = 0, stale = 0;
    while (!GET(&stop)) {
        void *p = NULL;
        if ((*vm)->GetEnv(vm, &p, JVMTI_VERSION) != JNI_OK || !p) {
            call_error("GetEnv", JVMTI_ERROR_INTERNAL);
            break;
        }
        jvmtiEnv *e = p;
        tag *t = &rings[c][n % RING];
        int nw = GET(&n_workers);
        jthread target = n % 2 && nw ? worker((int)((n / 2) % nw)) : NULL;
        ADD(&t->gen, 1);
        PUT(&t->env, e);
        PUT(&t->born, now());
        PUT(&t->target, target);
        PUT(&t->disposed_at, 0);
        ADD(&t->gen, 1);
        EXPECT((*e)->SetEnvironmentLocalStorage(e, t), "SetEnvironmentLocalStorage");
        EXPECT((*e)->SetEventCallbacks(e, &cb, (jint)sizeof cb), "SetEventCallbacks(churned)");
        jvmtiError err = (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, target);
        if (err != JVMTI_ERROR_NONE && !(target && err == JVMTI_ERROR_THREAD_NOT_ALIVE))
            call_error("SetEventNotificationMode(churned, ClassLoad)", err);
        EXPECT((*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_DATA_DUMP_REQUEST, NULL),
               "SetEventNotificationMode(churned, DataDumpRequest)");
        if (n % 4 == 0) {
            jrawMonitorID m = NULL;
            EXPECT((*e)->CreateRawMonitor(e, "churned", &m), "CreateRawMonitor(churned)");
            EXPECT((*e)->RawMonitorEnter(e, m), "RawMonitorEnter(churned)");
            EXPECT((*e)->RawMonitorExit(e, m), "RawMonitorExit(churned)");
            EXPECT((*e)->DestroyRawMonitor(e, m), "DestroyRawMonitor(churned)");
            if ((*e)->RawMonitorEnter(e, m) == JVMTI_ERROR_INVALID_MONITOR)
                stale++;
            mons++;
        }
        if (n % 3 == 0)
            sleep_us(20); /* let some events arrive */
        EXPECT((*e)->DisposeEnvironment(e), "DisposeEnvironment");
        PUT(&t->disposed_at, now());
        n++;
    }
    ADD(&envs_churned, n);
    ADD(&monitors_churned, mons);
    ADD(&stale_refused, stale);
    (*vm)->DetachCurrentThread(vm);
    return NULL;
}

/* One window's enable and disable, for event ev on thread (NULL: global). */
static void toggle(window *w, jvmtiEvent ev, jthread thread)
{
    PUT(&w->enabled, 1);
    jvmtiError err = (*E_toggle)->SetEventNotificationMode(E_toggle, JVMTI_ENABLE, ev, thread);
    if (err == JVMTI_ERROR_NONE) {
        sleep_us((long)(next_random() % 50));
        err = (*E_toggle)->SetEventNotificationMode(E_toggle, JVMTI_DISABLE, ev, thread);
        if (err != JVMTI_ERROR_NONE && !(thread && err == JVMTI_ERROR_THREAD_NOT_ALIVE))
            call_error("SetEventNotificationMode(DISABLE)", err);
    } else if (!(thread && err == JVMTI_ERROR_THREAD_NOT_ALIVE)) {
        call_error("SetEventNotificationMode(ENABLE)", err);
    }
    PUT(&w->off_done, now());
    PUT(&w->enabled, 0);
}

static void *toggler_main(void *arg)
{
    int i = (int)(intptr_t)arg;
    attach();
    pthread_barrier_wait(&started);
    wait_for_workers();
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassLoad = toggle_class_load;
    cb.ClassPrepare = toggle_class_prepare;
    cb.DataDumpRequest = toggle_data_dump;
    cb.GarbageCollectionFinish = toggle_gc_finish;
    long n = 0;
    while (!GET(&stop)) {
        /* The windows this toggler owns: the global ones go to toggler 0,
         * worker k's ClassPrepare to toggler k % n_togglers. */
        if (i == 0) {
            toggle(&w_class_load, JVMTI_EVENT_CLASS_LOAD, NULL);
            toggle(&w_data_dump, JVMTI_EVENT_DATA_DUMP_REQUEST, NULL);
            toggle(&w_gc_finish, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, NULL);
            if (n % 64 == 0) /* the same callbacks again: masks recomputed under fire */
                EXPECT((*E_toggle)->SetEventCallbacks(E_toggle, &cb, (jint)sizeof cb),
                       "SetEventCallbacks(E_toggle)");
        }
        int nw = GET(&n_workers);
        for (int k = i; k < nw && k < MAX_WORKERS; k += n_togglers)
            if (worker(k))
                toggle(&w_prepare[k], JVMTI_EVENT_CLASS_PREPARE, worker(k));
        n++;
    }
    ADD(&toggles, n);
    (*vm)->DetachCurrentThread(vm);
    return NULL;
}

static jrawMonitorID lock;
static long counter; /* plain: only touched inside `lock` */
static long enters[MAX_THREADS];

static void *locker_main(void *arg)
{
    int i = (int)(intptr_t)arg;
    attach();
    pthread_barrier_wait(&started);
    wait_for_workers();
    jvmtiEnv *e = E_static;
    long n = 0, inside = 0;
    while (!GET(&stop)) {
        EXPECT((*e)->RawMonitorEnter(e, lock), "RawMonitorEnter");
        counter++;
        inside++;
        if (n % 8 == 0) {
            EXPECT((*e)->RawMonitorEnter(e, lock), "RawMonitorEnter (recursive)");
            jvmtiError err = (*e)->RawMonitorWait(e, lock, 1);
            if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_INTERRUPT)
                call_error("RawMonitorWait", err);
            counter++;
            inside++;
            EXPECT((*e)->RawMonitorExit(e, lock), "RawMonitorExit (recursive)");
        }
        if (n % 4 == 0)
            EXPECT(n % 8 ? (*e)->RawMonitorNotify(e, lock) : (*e)->RawMonitorNotifyAll(e, lock),
                   "RawMonitorNotify");
        EXPECT((*e)->RawMonitorExit(e, lock), "RawMonitorExit");
        n++;
    }
    enters[i] = inside;
    (*vm)->DetachCurrentThread(vm);
    return NULL;
}

static pthread_t threads[3 * MAX_THREADS];
static int n_threads;

static void JNICALL static_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)jni, (void)thread;
    EXPECT((*env)->CreateRawMonitor(env, "soak", &lock), "CreateRawMonitor");
    pthread_barrier_init(&started, NULL, (unsigned)(n_churners + n_togglers + n_lockers + 1));
    for (int i = 0; i < n_churners; i++)
        pthread_create(&threads[n_threads++], NULL, churner_main, (void *)(intptr_t)i);
    for (int i = 0; i < n_togglers; i++)
        pthread_create(&threads[n_threads++], NULL, toggler_main, (void *)(intptr_t)i);
    for (int i = 0; i < n_lockers; i++)
        pthread_create(&threads[n_threads++], NULL, locker_main, (void *)(intptr_t)i);
    /* Return once every thread is attached: the host takes its memory
     * baseline after VMInit. */
    pthread_barrier_wait(&started);
}

static int failures;

static void line(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s - soak-agent: ", ok ? "ok" : "not ok");
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    va_end(ap);
    failures += !ok;
}

static void JNICALL static_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)jni;
    PUT(&stop, 1);
    for (int i = 0; i < n_threads; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&started);

    printf("soak-agent: the static environment got");
    for (int e = 0; e < EV_COUNT; e++)
        if (e != EV_CLASS_LOAD && e != EV_GC_FINISH)
            printf(" %s=%ld", ev_names[e], static_got[e]);
    printf("\n");
    line(call_errors == 0, "every JVM TI call returned what it should (%ld unexpected%s%s)",
         call_errors, call_errors ? ": first: " : "", first_error);
    line(late_toggled == 0 && late_disposed == 0,
         "no late delivery: none after its event was disabled (%ld) or its environment "
         "disposed (%ld)", late_toggled, late_disposed);
    line(wrong == 0 && static_wrong_thread == 0,
         "no wrong delivery: per-thread events only on the threads they were enabled for "
         "(%ld, %ld)", wrong, static_wrong_thread);
    long total = 0;
    for (int i = 0; i < n_lockers; i++)
        total += enters[i];
    (*env)->RawMonitorEnter(env, lock);
    long final_counter = counter;
    (*env)->RawMonitorExit(env, lock);
    line(final_counter == total && (n_lockers == 0 || total > 0),
         "raw monitor: the counter incremented inside it is exact (%ld, expected %ld)",
         final_counter, total);
    line(n_churners == 0 || (envs_churned > 0 && stale_refused == monitors_churned),
         "%ld environments created and disposed, %ld raw monitors with them (%ld stale handles "
         "refused)", envs_churned, monitors_churned, stale_refused);
    line(n_togglers == 0 || toggles > 0,
         "%ld toggle rounds; the toggled environment got ClassLoad=%ld ClassPrepare=%ld "
         "DataDumpRequest=%ld GarbageCollectionFinish=%ld", toggles, toggle_got[EV_CLASS_LOAD],
         toggle_got[EV_CLASS_PREPARE], toggle_got[EV_DATA_DUMP], toggle_got[EV_GC_FINISH]);
    line(n_churners == 0 || churn_got > 0,
         "churned environments got %ld events (%ld of them racing with their disposal and "
         "untraceable)", churn_got, untraced);
    line(thread_starts == thread_ends,
         "every ThreadStart has its ThreadEnd (%ld, %ld; %d workers)", thread_starts,
         thread_ends, GET(&n_workers));
}

/* ---- loading ---- */

static void parse_options(const char *options)
{
    for (const char *p = options; p && *p;) {
        int v;
        if (sscanf(p, "churners=%d", &v) == 1)
            n_churners = v;
        else if (sscanf(p, "togglers=%d", &v) == 1)
            n_togglers = v;
        else if (sscanf(p, "lockers=%d", &v) == 1)
            n_lockers = v;
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    if (n_churners < 0 || n_churners > MAX_THREADS)
        n_churners = 2;
    if (n_togglers < 0 || n_togglers > MAX_THREADS)
        n_togglers = 2;
    if (n_lockers < 0 || n_lockers > MAX_THREADS)
        n_lockers = 2;
}

static jvmtiExtensionFunction find_extension(jvmtiEnv *env, const char *id)
{
    jint n = 0;
    jvmtiExtensionFunctionInfo *infos = NULL;
    jvmtiExtensionFunction fn = NULL;
    if ((*env)->GetExtensionFunctions(env, &n, &infos) != JVMTI_ERROR_NONE)
        return NULL;
    for (jint i = 0; i < n; i++) {
        if (strcmp(infos[i].id, id) == 0)
            fn = infos[i].func;
        for (jint k = 0; k < infos[i].param_count; k++)
            (*env)->Deallocate(env, (unsigned char *)infos[i].params[k].name);
        (*env)->Deallocate(env, (unsigned char *)infos[i].id);
        (*env)->Deallocate(env, (unsigned char *)infos[i].short_description);
        (*env)->Deallocate(env, (unsigned char *)infos[i].params);
        (*env)->Deallocate(env, (unsigned char *)infos[i].errors);
    }
    (*env)->Deallocate(env, (unsigned char *)infos);
    return fn;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *jvm, char *options, void *reserved)
{
    (void)reserved;
    vm = jvm;
    parse_options(options);
    void *p = NULL, *q = NULL;
    if ((*vm)->GetEnv(vm, &p, JVMTI_VERSION) != JNI_OK ||
        (*vm)->GetEnv(vm, &q, JVMTI_VERSION) != JNI_OK) {
        fprintf(stderr, "soak-agent: no JVM TI environment\n");
        return JNI_ERR;
    }
    E_static = p;
    E_toggle = q;
    clock_fn = find_extension(E_static, "jvmtigen.host.Clock");
    post_start_fn = find_extension(E_static, "jvmtigen.host.PostStart");
    if (!clock_fn || !post_start_fn) {
        fprintf(stderr, "soak-agent: the host has no soak clock (run it with -soak:SECONDS)\n");
        return JNI_ERR;
    }
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_garbage_collection_events = 1;
    if ((*E_static)->AddCapabilities(E_static, &caps) != JVMTI_ERROR_NONE ||
        (*E_toggle)->AddCapabilities(E_toggle, &caps) != JVMTI_ERROR_NONE) {
        fprintf(stderr, "soak-agent: cannot have can_generate_garbage_collection_events\n");
        return JNI_ERR;
    }
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = static_vm_init;
    cb.VMDeath = static_vm_death;
    cb.ThreadStart = static_thread_start;
    cb.ThreadEnd = static_thread_end;
    cb.ClassPrepare = static_class_prepare;
    cb.DataDumpRequest = static_data_dump;
    cb.GarbageCollectionStart = static_gc_start;
    (*E_static)->SetEventCallbacks(E_static, &cb, (jint)sizeof cb);
    static const jvmtiEvent always[] = {
        JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH, JVMTI_EVENT_THREAD_START,
        JVMTI_EVENT_THREAD_END, JVMTI_EVENT_CLASS_PREPARE, JVMTI_EVENT_DATA_DUMP_REQUEST,
        JVMTI_EVENT_GARBAGE_COLLECTION_START,
    };
    for (size_t i = 0; i < sizeof always / sizeof *always; i++)
        EXPECT((*E_static)->SetEventNotificationMode(E_static, JVMTI_ENABLE, always[i], NULL),
               "SetEventNotificationMode(static)");
    memset(&cb, 0, sizeof cb);
    cb.ClassLoad = toggle_class_load;
    cb.ClassPrepare = toggle_class_prepare;
    cb.DataDumpRequest = toggle_data_dump;
    cb.GarbageCollectionFinish = toggle_gc_finish;
    (*E_toggle)->SetEventCallbacks(E_toggle, &cb, (jint)sizeof cb);
    return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *jvm)
{
    (void)jvm;
    (*E_static)->DestroyRawMonitor(E_static, lock);
    (*E_toggle)->DisposeEnvironment(E_toggle);
    (*E_static)->DisposeEnvironment(E_static);
    fflush(stdout);
    if (failures)
        fprintf(stderr, "soak-agent: %d invariants failed\n", failures);
}
