/* units.c: unit tests of the runtime core (libjvmtirt).
 *
 * Every JVM TI call goes through the function table of an environment from
 * jvmtirt_get_env, so the generated trampolines run in front of the core.
 * Events are sent with the generated jvmtirt_post_NAME functions. Expected
 * values are the spec's, written by hand. Prints one TAP-like line per
 * check (tests/lib.sh): "ok - runtime: ..." or "not ok - runtime: ...
 * (expected ..., got ...)".
 *
 * jvmtirt_init and jvmtirt_shutdown are global, so the program runs in
 * sections, each on a freshly initialised core. Worker threads are real
 * pthreads that the core knows through jvmtirt_thread_start. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmtigen_impl.h"
#include "jvmtigen_post.h"
#include "jvmtigen_tables.h"
#include "jvmtirt.h"

/* Allocate(1 << 62) must fail with OUT_OF_MEMORY, not abort the sanitizers'
 * allocators (test.sh sets the same through ASAN_OPTIONS / TSAN_OPTIONS). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
const char *__tsan_default_options(void);
const char *__tsan_default_options(void) { return "allocator_may_return_null=1"; }

/* ---- reporting ---- */

static int failures;

/* The version the core must report: the release of the spec it was built
 * from, said by the suite (tests/runtime/test.sh's RT_VERSION), never read
 * from the generated header under test. */
#ifndef EXPECT_VERSION
#define EXPECT_VERSION 0x30190000 /* JVM TI 25.0.0 */
#endif
#define EXPECT_MAJOR ((EXPECT_VERSION >> 16) & 0xfff)

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

static void line(int ok, const char *desc, const char *why)
{
    if (ok) {
        printf("ok - runtime: %s\n", desc);
    } else {
        printf("not ok - runtime: %s (%s)\n", desc, why);
        failures++;
    }
    fflush(stdout);
}

#define FORMAT_DESC(buf, fmt)                     \
    do {                                          \
        va_list ap_;                              \
        va_start(ap_, fmt);                       \
        vsnprintf(buf, sizeof buf, fmt, ap_);     \
        va_end(ap_);                              \
    } while (0)

/* For messages only: the expected values are written by hand. */
static const char *ename(jvmtiError e)
{
    const char *n = jvmtigen_error_name(e);
    return n ? n : "not an error";
}

PRINTF_LIKE(3, 4) static void expect_err(jvmtiError got, jvmtiError want, const char *fmt, ...)
{
    char desc[512], why[256];
    FORMAT_DESC(desc, fmt);
    snprintf(why, sizeof why, "expected %s (%d), got %s (%d)", ename(want), (int)want, ename(got),
             (int)got);
    line(got == want, desc, why);
}

PRINTF_LIKE(3, 4) static void expect_int(long long got, long long want, const char *fmt, ...)
{
    char desc[512], why[128];
    FORMAT_DESC(desc, fmt);
    snprintf(why, sizeof why, "expected %lld, got %lld", want, got);
    line(got == want, desc, why);
}

PRINTF_LIKE(2, 3) static void expect_true(int cond, const char *fmt, ...)
{
    char desc[512];
    FORMAT_DESC(desc, fmt);
    line(cond, desc, "expected true, got false");
}

PRINTF_LIKE(3, 4) static void expect_str(const char *got, const char *want, const char *fmt, ...)
{
    char desc[512], why[512];
    FORMAT_DESC(desc, fmt);
    snprintf(why, sizeof why, "expected \"%s\", got %s%s%s", want, got ? "\"" : "",
             got ? got : "NULL", got ? "\"" : "");
    line(got && strcmp(got, want) == 0, desc, why);
}

/* ---- helpers ---- */

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static jvmtirt_stats stats(void)
{
    jvmtirt_stats s;
    jvmtirt_get_stats(&s);
    return s;
}

static jvmtiEnv *env_new(void)
{
    void *p = NULL;
    if (jvmtirt_get_env(&p, JVMTI_VERSION) != JNI_OK || p == NULL) {
        line(0, "jvmtirt_get_env(JVMTI_VERSION) gives an environment", "it did not; giving up");
        exit(1);
    }
    return p;
}

/* An environment whose local storage holds a letter, for the event log. */
static jvmtiEnv *tagged_env(char letter)
{
    jvmtiEnv *e = env_new();
    (*e)->SetEnvironmentLocalStorage(e, (const void *)(intptr_t)letter);
    return e;
}

static char main_obj;
#define ID_MAIN ((uintptr_t)&main_obj)
#define MAIN_T ((jthread)(void *)&main_obj)

/* The main thread is a Java thread in every section. */
static void main_start(void) { jvmtirt_thread_start(ID_MAIN, JVMTIRT_JAVA_THREAD); }

static jvmtiCapabilities no_caps(void)
{
    jvmtiCapabilities c;
    memset(&c, 0, sizeof c);
    return c;
}

/* "" if equal, else the first differing capability (named for the message). */
static const char *caps_diff(const jvmtiCapabilities *got, const jvmtiCapabilities *want)
{
    static char buf[128];
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++) {
        int g = jvmtirt_capability_get(got, b), w = jvmtirt_capability_get(want, b);
        if (g != w) {
            snprintf(buf, sizeof buf, "%s: expected %d, got %d", jvmtigen_capabilities[b].name, w, g);
            return buf;
        }
    }
    return memcmp(got, want, sizeof *got) == 0 ? "" : "bits outside the known capabilities differ";
}

PRINTF_LIKE(3, 4) static void expect_caps(const jvmtiCapabilities *got, const jvmtiCapabilities *want,
                                          const char *fmt, ...)
{
    char desc[512];
    FORMAT_DESC(desc, fmt);
    const char *d = caps_diff(got, want);
    line(*d == '\0', desc, d);
}

/* ---- worker threads: real pthreads that run jobs on request ---- */

typedef struct worker {
    pthread_t pt;
    uintptr_t id;          /* the core's id of the thread; 0: the core never sees it */
    char obj;              /* what its jthread points to by default */
    jthread jt;            /* its thread object */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void (*job)(struct worker *);
    int quit;
    /* job inputs and outputs */
    jvmtiEnv *env;
    jrawMonitorID mon;
    jvmtiError err[8];
    long long elapsed_ns;
    int ready;             /* atomic */
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    if (w->id)
        jvmtirt_thread_start(w->id, JVMTIRT_JAVA_THREAD);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->job && !w->quit)
            pthread_cond_wait(&w->cv, &w->mu);
        if (!w->job)
            break;
        void (*job)(worker *) = w->job;
        pthread_mutex_unlock(&w->mu);
        job(w);
        pthread_mutex_lock(&w->mu);
        w->job = NULL;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    if (w->id)
        jvmtirt_thread_end();
    return NULL;
}

static void job_nothing(worker *w) { (void)w; }

static void worker_async(worker *w, void (*job)(worker *))
{
    pthread_mutex_lock(&w->mu);
    while (w->job)
        pthread_cond_wait(&w->cv, &w->mu);
    w->job = job;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static void worker_wait(worker *w)
{
    pthread_mutex_lock(&w->mu);
    while (w->job)
        pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

static void worker_do(worker *w, void (*job)(worker *))
{
    worker_async(w, job);
    worker_wait(w);
}

/* attached: known to the core as a Java thread with id (0: the address of
 * w->obj), jt its thread object (NULL: &w->obj). Returns once started. */
static void worker_start(worker *w, int attached, uintptr_t id, jthread jt)
{
    memset(w, 0, sizeof *w);
    w->id = attached ? (id ? id : (uintptr_t)&w->obj) : 0;
    w->jt = jt ? jt : (jthread)(void *)&w->obj;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    pthread_create(&w->pt, NULL, worker_main, w);
    worker_do(w, job_nothing);
}

static void worker_stop(worker *w)
{
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->pt, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
}

/* ---- the event log: "A@1 B@m" = env A got the event on thread 1, then B
 * on the main thread ---- */

#define LOG_MAX 64
static struct {
    char env;
    jthread thread;
} evlog[LOG_MAX];
static int n_evlog;
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;

static struct {
    jthread t;
    char label;
} labels[8];

static void label_thread(jthread t, char label)
{
    for (int i = 0; i < 8; i++)
        if (labels[i].t == NULL || labels[i].t == t) {
            labels[i].t = t;
            labels[i].label = label;
            return;
        }
}

static char thread_label(jthread t)
{
    for (int i = 0; i < 8; i++)
        if (labels[i].t == t)
            return labels[i].label;
    return '?';
}

static void log_event(jvmtiEnv *env, jthread thread)
{
    void *p = NULL;
    char tag = (*env)->GetEnvironmentLocalStorage(env, &p) == JVMTI_ERROR_NONE ? (char)(intptr_t)p
                                                                                : '!';
    pthread_mutex_lock(&log_mu);
    if (n_evlog < LOG_MAX) {
        evlog[n_evlog].env = tag;
        evlog[n_evlog].thread = thread;
        n_evlog++;
    }
    pthread_mutex_unlock(&log_mu);
}

PRINTF_LIKE(2, 3) static void expect_log(const char *want, const char *fmt, ...)
{
    char desc[512], got[8 * LOG_MAX] = "", why[1024];
    FORMAT_DESC(desc, fmt);
    pthread_mutex_lock(&log_mu);
    for (int i = 0; i < n_evlog; i++) {
        char item[8];
        if (evlog[i].thread)
            snprintf(item, sizeof item, "%s%c@%c", i ? " " : "", evlog[i].env,
                     thread_label(evlog[i].thread));
        else
            snprintf(item, sizeof item, "%s%c", i ? " " : "", evlog[i].env);
        strcat(got, item);
    }
    n_evlog = 0;
    pthread_mutex_unlock(&log_mu);
    snprintf(why, sizeof why, "expected deliveries \"%s\", got \"%s\"", want, got);
    line(strcmp(got, want) == 0, desc, why);
}

static void clear_log(void)
{
    pthread_mutex_lock(&log_mu);
    n_evlog = 0;
    pthread_mutex_unlock(&log_mu);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)jni;
    log_event(env, thread);
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)jni;
    log_event(env, NULL);
}

static void JNICALL on_thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)jni;
    log_event(env, thread);
}

static void JNICALL on_class_load(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jni, (void)klass;
    log_event(env, thread);
}

static jvmtiEventCallbacks logging_callbacks(void)
{
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    cb.VMDeath = on_vm_death;
    cb.ThreadStart = on_thread_start;
    cb.ClassLoad = on_class_load;
    return cb;
}

static jvmtiError set_callbacks(jvmtiEnv *e, const jvmtiEventCallbacks *cb, jint size)
{
    return (*e)->SetEventCallbacks(e, cb, size);
}

static jvmtiError set_mode(jvmtiEnv *e, jvmtiEventMode mode, jvmtiEvent ev, jthread t)
{
    return (*e)->SetEventNotificationMode(e, mode, ev, t);
}

/* Posts ClassLoad on the worker's thread, as the VM would there. */
static void job_post_class_load(worker *w) { jvmtirt_post_ClassLoad(NULL, w->jt, NULL); }

/* ======================================================================
 * environments: versions, local storage, independence
 * ====================================================================== */

static void section_environments(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    jvmtirt_init(&cfg);

    static const struct {
        jint version;
        const char *name;
    } good[] = {
        {0x30010000, "JVMTI_VERSION_1_0"}, {0x30010100, "JVMTI_VERSION_1_1"},
        {0x30010200, "JVMTI_VERSION_1_2"}, {0x30090000, "JVMTI_VERSION_9"},
        {0x300B0000, "JVMTI_VERSION_11"},  {0x30130000, "JVMTI_VERSION_19"},
        {0x30150000, "JVMTI_VERSION_21"},  {0x30190000, "0x30190000 (25.0)"},
        {0x300D0000, "0x300D0000 (13)"},   {0x30010203, "0x30010203 (1.2.3, micro ignored)"},
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        void *p = NULL;
        jint rc = jvmtirt_get_env(&p, good[i].version);
        if (((good[i].version >> 16) & 0xfff) > EXPECT_MAJOR) { /* later than the core's spec */
            expect_int(rc, JNI_EVERSION, "jvmtirt_get_env rejects %s (after JVM TI %d)",
                       good[i].name, EXPECT_MAJOR);
            continue;
        }
        expect_true(rc == JNI_OK && p != NULL, "jvmtirt_get_env accepts %s", good[i].name);
        if (rc == JNI_OK && p) {
            jvmtiEnv *e = p;
            expect_int(jvmtirt_env_version(e), good[i].version,
                       "jvmtirt_env_version of a %s environment", good[i].name);
            (*e)->DisposeEnvironment(e);
        }
    }
    void *p0 = NULL;
    expect_true(jvmtirt_get_env(&p0, JVMTI_VERSION) == JNI_OK && p0,
                "jvmtirt_get_env accepts JVMTI_VERSION");
    if (p0)
        (*(jvmtiEnv *)p0)->DisposeEnvironment(p0);

    static const struct {
        jint version;
        const char *name;
    } bad[] = {
        {0x30000000, "0x30000000 (0.0)"}, {0x30010300, "0x30010300 (1.3)"},
        {0x30090100, "0x30090100 (9.1)"}, {0x300A0000, "0x300A0000 (10)"},
        {0x300C0000, "0x300C0000 (12)"},  {0x30000000 | (EXPECT_MAJOR + 1) << 16, "the next release"},
        {0x300B0100, "0x300B0100 (11.1)"}, {0x20010000, "0x20010000 (not JVMTI-typed)"},
        {0x00010006, "0x00010006 (JNI_VERSION_1_6)"}, {-1, "-1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        void *p = (void *)&p0; /* must be cleared */
        jint rc = jvmtirt_get_env(&p, bad[i].version);
        expect_int(rc, JNI_EVERSION, "jvmtirt_get_env rejects %s with JNI_EVERSION", bad[i].name);
        expect_true(p == NULL, "jvmtirt_get_env(%s) leaves *penv NULL", bad[i].name);
    }

    jvmtirt_stats s0 = stats();
    expect_int(s0.environments, 0, "jvmtirt_get_stats: no environments left after disposing all");
    jvmtiEnv *a = env_new(), *b = env_new();
    expect_true(a != b, "two environments are distinct");
    expect_int(stats().environments, 2, "jvmtirt_get_stats counts live environments");

    void *v = (void *)&p0;
    expect_err((*a)->GetEnvironmentLocalStorage(a, &v), JVMTI_ERROR_NONE,
               "GetEnvironmentLocalStorage on a new environment");
    expect_true(v == NULL, "environment-local storage is NULL until first set");
    static int da, db;
    expect_err((*a)->SetEnvironmentLocalStorage(a, &da), JVMTI_ERROR_NONE, "SetEnvironmentLocalStorage");
    expect_err((*b)->SetEnvironmentLocalStorage(b, &db), JVMTI_ERROR_NONE,
               "SetEnvironmentLocalStorage on a second environment");
    expect_err((*a)->GetEnvironmentLocalStorage(a, &v), JVMTI_ERROR_NONE, "GetEnvironmentLocalStorage");
    expect_true(v == &da, "environment-local storage round trip");
    (*b)->GetEnvironmentLocalStorage(b, &v);
    expect_true(v == &db, "environment-local storage is per environment");
    expect_err((*a)->GetEnvironmentLocalStorage(a, NULL), JVMTI_ERROR_NULL_POINTER,
               "GetEnvironmentLocalStorage(NULL)");
    expect_err((*a)->SetEnvironmentLocalStorage(a, NULL), JVMTI_ERROR_NONE,
               "SetEnvironmentLocalStorage(NULL)");
    (*a)->GetEnvironmentLocalStorage(a, &v);
    expect_true(v == NULL, "environment-local storage can be reset to NULL");

    jint version = 0;
    expect_err((*a)->GetVersionNumber(a, &version), JVMTI_ERROR_NONE, "GetVersionNumber");
    expect_int(version, EXPECT_VERSION, "GetVersionNumber is 0x%x (the spec's release)", EXPECT_VERSION);
    expect_int(version, JVMTI_VERSION, "GetVersionNumber is JVMTI_VERSION");
    void *old = NULL;
    jvmtirt_get_env(&old, 0x30010000);
    jint v10 = 0;
    (*(jvmtiEnv *)old)->GetVersionNumber(old, &v10);
    expect_int(v10, EXPECT_VERSION, "GetVersionNumber in a 1.0 environment is the runtime's own version");

    expect_err((*a)->DisposeEnvironment(a), JVMTI_ERROR_NONE, "DisposeEnvironment");
    expect_int(stats().environments, 2, "jvmtirt_get_stats: disposing one environment of three");
    expect_int(stats().pending_disposal, 0, "an environment disposed outside any post is reclaimed at once");
    jvmtirt_shutdown();
    expect_int(stats().environments, 0, "jvmtirt_shutdown frees every environment");
}

/* ======================================================================
 * phases
 * ====================================================================== */

static void section_phases(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    cfg.potential.can_tag_objects = 1;
    jvmtirt_init(&cfg);
    jvmtirt_property_define("test.writable", "a", 1);
    jvmtiEnv *e = env_new();
    main_start();

    jvmtiPhase ph = 0;
    expect_err((*e)->GetPhase(e, &ph), JVMTI_ERROR_NONE, "GetPhase");
    expect_int(ph, 1, "the phase after jvmtirt_init is OnLoad (1)");
    jthread t = NULL;
    expect_err((*e)->GetCurrentThread(e, &t), JVMTI_ERROR_WRONG_PHASE,
               "GetCurrentThread (start or live only) in OnLoad");
    jvmtiCapabilities none = no_caps(), tag = no_caps();
    tag.can_tag_objects = 1;
    expect_err((*e)->AddCapabilities(e, &none), JVMTI_ERROR_NONE, "AddCapabilities in OnLoad");
    expect_err((*e)->SetSystemProperty(e, "test.writable", "b"), JVMTI_ERROR_NONE,
               "SetSystemProperty in OnLoad");
    jrawMonitorID m = NULL;
    expect_err((*e)->CreateRawMonitor(e, "m", &m), JVMTI_ERROR_NONE, "CreateRawMonitor in OnLoad");

    static const struct {
        jvmtiPhase phase;
        int value;
        const char *name;
        jvmtiError add_caps, set_prop, create_mon, get_thread;
    } phases[] = {
        {JVMTI_PHASE_PRIMORDIAL, 2, "primordial", JVMTI_ERROR_WRONG_PHASE, JVMTI_ERROR_WRONG_PHASE,
         JVMTI_ERROR_WRONG_PHASE, JVMTI_ERROR_WRONG_PHASE},
        {JVMTI_PHASE_START, 6, "start", JVMTI_ERROR_WRONG_PHASE, JVMTI_ERROR_WRONG_PHASE,
         JVMTI_ERROR_WRONG_PHASE, JVMTI_ERROR_NOT_AVAILABLE},
        {JVMTI_PHASE_LIVE, 4, "live", JVMTI_ERROR_NONE, JVMTI_ERROR_WRONG_PHASE, JVMTI_ERROR_NONE,
         JVMTI_ERROR_NOT_AVAILABLE},
        {JVMTI_PHASE_DEAD, 8, "dead", JVMTI_ERROR_WRONG_PHASE, JVMTI_ERROR_WRONG_PHASE,
         JVMTI_ERROR_WRONG_PHASE, JVMTI_ERROR_WRONG_PHASE},
        {JVMTI_PHASE_ONLOAD, 1, "OnLoad (set again)", JVMTI_ERROR_NONE, JVMTI_ERROR_NONE,
         JVMTI_ERROR_NONE, JVMTI_ERROR_WRONG_PHASE},
    };
    for (size_t i = 0; i < sizeof phases / sizeof *phases; i++) {
        jvmtirt_set_phase(phases[i].phase);
        ph = 0;
        expect_err((*e)->GetPhase(e, &ph), JVMTI_ERROR_NONE, "GetPhase in the %s phase", phases[i].name);
        expect_int(ph, phases[i].value, "GetPhase after jvmtirt_set_phase(%s) is %d", phases[i].name,
                   phases[i].value);
        expect_err((*e)->AddCapabilities(e, &tag), phases[i].add_caps,
                   "AddCapabilities (OnLoad or live) in the %s phase", phases[i].name);
        (*e)->RelinquishCapabilities(e, &tag);
        expect_err((*e)->SetSystemProperty(e, "test.writable", "c"), phases[i].set_prop,
                   "SetSystemProperty (OnLoad only) in the %s phase", phases[i].name);
        jrawMonitorID m2 = NULL;
        jvmtiError err = (*e)->CreateRawMonitor(e, "m2", &m2);
        expect_err(err, phases[i].create_mon, "CreateRawMonitor (OnLoad or live) in the %s phase",
                   phases[i].name);
        if (err == JVMTI_ERROR_NONE)
            (*e)->DestroyRawMonitor(e, m2);
        /* start/live: passes the phase check and reaches the missing VM function */
        expect_err((*e)->GetCurrentThread(e, &t), phases[i].get_thread,
                   "GetCurrentThread (start or live) in the %s phase", phases[i].name);
    }
    (*e)->DestroyRawMonitor(e, m);
    jvmtirt_shutdown();
}

/* ======================================================================
 * capabilities
 * ====================================================================== */

static void section_capabilities(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    jvmtiCapabilities P = no_caps(); /* what the VM can offer */
    P.can_tag_objects = 1;
    P.can_get_current_thread_cpu_time = 1;
    P.can_generate_compiled_method_load_events = 1;
    P.can_signal_thread = 1;     /* OnLoad only */
    P.can_redefine_classes = 1;  /* OnLoad only */
    P.can_suspend = 1;           /* solo */
    P.can_generate_breakpoint_events = 1; /* solo */
    cfg.potential = P;
    cfg.onload_only.can_signal_thread = 1;
    cfg.onload_only.can_redefine_classes = 1;
    cfg.onload_only.can_pop_frame = 1;     /* not potential: ignored */
    cfg.solo.can_suspend = 1;
    cfg.solo.can_generate_breakpoint_events = 1;
    cfg.solo.can_get_line_numbers = 1;     /* not potential: ignored */
    jvmtirt_init(&cfg);
    main_start();
    jvmtiEnv *A = env_new(), *B = env_new();
    jvmtiCapabilities got, want, req, none = no_caps();

    expect_err((*A)->GetPotentialCapabilities(A, &got), JVMTI_ERROR_NONE, "GetPotentialCapabilities");
    expect_caps(&got, &P, "potential capabilities in OnLoad are the VM's full set");
    (*A)->GetCapabilities(A, &got);
    expect_caps(&got, &none, "a new environment possesses no capabilities");

    req = no_caps();
    req.can_signal_thread = 1;
    req.can_tag_objects = 1;
    expect_err((*A)->AddCapabilities(A, &req), JVMTI_ERROR_NONE,
               "AddCapabilities(can_signal_thread, can_tag_objects) in OnLoad");
    expect_err((*A)->GetCapabilities(A, &got), JVMTI_ERROR_NONE, "GetCapabilities");
    expect_caps(&got, &req, "GetCapabilities shows what was added");
    (*B)->GetCapabilities(B, &got);
    expect_caps(&got, &none, "capabilities are per environment");

    req = no_caps();
    req.can_pop_frame = 1;
    expect_err((*A)->AddCapabilities(A, &req), JVMTI_ERROR_NOT_AVAILABLE,
               "AddCapabilities of a capability the VM lacks (listed OnLoad-only)");
    req.can_pop_frame = 0;
    req.can_get_line_numbers = 1;
    expect_err((*A)->AddCapabilities(A, &req), JVMTI_ERROR_NOT_AVAILABLE,
               "AddCapabilities of a capability the VM lacks (listed solo)");

    req = no_caps();
    req.can_suspend = 1;
    expect_err((*A)->AddCapabilities(A, &req), JVMTI_ERROR_NONE, "AddCapabilities(solo can_suspend) by A");
    want = P;
    want.can_suspend = 0;
    (*B)->GetPotentialCapabilities(B, &got);
    expect_caps(&got, &want, "a solo capability held by A is not potential for B");
    expect_err((*B)->AddCapabilities(B, &req), JVMTI_ERROR_NOT_AVAILABLE,
               "AddCapabilities of a solo capability A holds, by B");
    (*A)->GetPotentialCapabilities(A, &got);
    expect_caps(&got, &P, "a solo capability A holds stays potential for A");

    req = no_caps();
    req.can_tag_objects = 1;
    req.can_pop_frame = 1;
    expect_err((*B)->AddCapabilities(B, &req), JVMTI_ERROR_NOT_AVAILABLE,
               "AddCapabilities mixing available and unavailable");
    (*B)->GetCapabilities(B, &got);
    expect_caps(&got, &none, "a failed AddCapabilities adds nothing (all or nothing)");
    req = no_caps();
    req.can_tag_objects = 1;
    req.can_suspend = 1;
    expect_err((*B)->AddCapabilities(B, &req), JVMTI_ERROR_NOT_AVAILABLE,
               "AddCapabilities mixing available and solo-held-elsewhere");
    (*B)->GetCapabilities(B, &got);
    expect_caps(&got, &none, "... adds nothing either");

    req = no_caps();
    req.can_tag_objects = 1;
    req.can_generate_breakpoint_events = 1;
    expect_err((*B)->AddCapabilities(B, &req), JVMTI_ERROR_NONE,
               "AddCapabilities(can_tag_objects held by A too, solo breakpoints) by B");
    (*A)->GetPotentialCapabilities(A, &got);
    want = P;
    want.can_generate_breakpoint_events = 0;
    expect_caps(&got, &want, "B's solo capability is no longer potential for A");

    req = no_caps();
    req.can_suspend = 1;
    expect_err((*A)->RelinquishCapabilities(A, &req), JVMTI_ERROR_NONE, "RelinquishCapabilities(can_suspend)");
    (*A)->GetCapabilities(A, &got);
    want = no_caps();
    want.can_signal_thread = 1;
    want.can_tag_objects = 1;
    expect_caps(&got, &want, "GetCapabilities after relinquishing");
    (*B)->GetPotentialCapabilities(B, &got);
    expect_caps(&got, &P, "a relinquished solo capability is potential for B again");
    expect_err((*B)->AddCapabilities(B, &req), JVMTI_ERROR_NONE,
               "AddCapabilities of the relinquished solo capability by B");
    req = no_caps();
    req.can_redefine_classes = 1;
    expect_err((*A)->RelinquishCapabilities(A, &req), JVMTI_ERROR_NONE,
               "RelinquishCapabilities of a capability not possessed");
    (*A)->GetCapabilities(A, &got);
    expect_caps(&got, &want, "relinquishing a capability not possessed changes nothing");

    /* live: OnLoad-only capabilities nobody added during OnLoad vanish; the
     * ones added then (can_signal_thread, by A) stay, as in HotSpot */
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    (*A)->GetPotentialCapabilities(A, &got);
    want = P;
    want.can_redefine_classes = 0;  /* OnLoad only, not held */
    want.can_suspend = 0;           /* held by B */
    want.can_generate_breakpoint_events = 0;
    expect_caps(&got, &want, "potential in live: OnLoad-only ones vanish unless added during OnLoad");
    (*B)->GetPotentialCapabilities(B, &got);
    want = P;
    want.can_redefine_classes = 0;
    expect_caps(&got, &want,
                "potential in live for B (holds the solo ones; A's OnLoad-only one stays potential)");
    req = no_caps();
    req.can_redefine_classes = 1;
    expect_err((*A)->AddCapabilities(A, &req), JVMTI_ERROR_NOT_AVAILABLE,
               "AddCapabilities of an OnLoad-only capability in live");
    req = no_caps();
    req.can_get_current_thread_cpu_time = 1;
    expect_err((*A)->AddCapabilities(A, &req), JVMTI_ERROR_NONE,
               "AddCapabilities of an ordinary capability in live");
    req = no_caps();
    req.can_signal_thread = 1;
    expect_err((*A)->AddCapabilities(A, &req), JVMTI_ERROR_NONE,
               "AddCapabilities in live of an OnLoad-only capability already held");
    expect_err((*A)->RelinquishCapabilities(A, &req), JVMTI_ERROR_NONE,
               "RelinquishCapabilities of an OnLoad-only capability in live");
    expect_err((*A)->AddCapabilities(A, &req), JVMTI_ERROR_NONE,
               "an OnLoad-only capability added during OnLoad can be added back in live");
    expect_err((*B)->AddCapabilities(B, &req), JVMTI_ERROR_NONE,
               "... and added in live by another environment");
    (*A)->RelinquishCapabilities(A, &req);
    (*B)->RelinquishCapabilities(B, &req);

    jvmtiEnv *C = env_new();
    (*C)->GetPotentialCapabilities(C, &got);
    want = P;
    want.can_redefine_classes = 0;
    want.can_suspend = 0;
    want.can_generate_breakpoint_events = 0;
    expect_caps(&got, &want, "potential of an environment created in live");

    expect_err((*B)->DisposeEnvironment(B), JVMTI_ERROR_NONE, "DisposeEnvironment of the solo holder");
    (*C)->GetPotentialCapabilities(C, &got);
    want.can_suspend = 1;
    want.can_generate_breakpoint_events = 1;
    expect_caps(&got, &want, "solo capabilities of a disposed environment are potential again");
    req = no_caps();
    req.can_suspend = 1;
    expect_err((*C)->AddCapabilities(C, &req), JVMTI_ERROR_NONE,
               "AddCapabilities of a solo capability freed by disposal");
    (*A)->GetCapabilities(A, &got);
    want = no_caps();
    want.can_tag_objects = 1;
    want.can_get_current_thread_cpu_time = 1;
    expect_caps(&got, &want, "GetCapabilities of A at the end");
    jvmtirt_shutdown();
}

/* ======================================================================
 * events
 * ====================================================================== */

static int events_changed_calls; /* atomic */
static void on_events_changed(void) { __atomic_add_fetch(&events_changed_calls, 1, __ATOMIC_SEQ_CST); }

static jvmtiEnv *gen_env;
static jvmtiEvent gen_event;
static int gen_calls;
static jvmtiError on_generate(jvmtiEnv *env, jvmtiEvent ev)
{
    gen_env = env;
    gen_event = ev;
    gen_calls++;
    return JVMTI_ERROR_NONE;
}

static struct {
    jvmtiError dispose, dispose_again, els, get_phase;
    jvmtirt_stats st;
} self_disp;

static void JNICALL on_thread_start_dispose_self(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)jni;
    log_event(env, thread);
    self_disp.dispose = (*env)->DisposeEnvironment(env);
    self_disp.dispose_again = (*env)->DisposeEnvironment(env);
    void *p = NULL;
    self_disp.els = (*env)->GetEnvironmentLocalStorage(env, &p);
    jvmtiPhase ph;
    self_disp.get_phase = (*env)->GetPhase(env, &ph);
    jvmtirt_get_stats(&self_disp.st);
}

static jvmtiEnv *victim;
static jvmtiError victim_err;
static void JNICALL on_thread_start_dispose_victim(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)jni;
    log_event(env, thread);
    victim_err = (*victim)->DisposeEnvironment(victim);
}

/* Disposes of itself, then of the environment after it in the list. */
static void JNICALL on_thread_start_dispose_self_and_next(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)jni;
    log_event(env, thread);
    self_disp.dispose = (*env)->DisposeEnvironment(env);
    victim_err = (*victim)->DisposeEnvironment(victim);
}

static char bad_thread_obj, dead_thread_obj, unknown_thread_obj;
static jvmtiError strict_check_thread(jvmtiEnv *env, jthread thread)
{
    (void)env;
    if (thread == (jthread)(void *)&bad_thread_obj)
        return JVMTI_ERROR_INVALID_THREAD;
    if (thread == (jthread)(void *)&dead_thread_obj)
        return JVMTI_ERROR_THREAD_NOT_ALIVE;
    return JVMTI_ERROR_NONE;
}

static void section_events(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    cfg.check_thread = strict_check_thread; /* NONE but for the two objects below */
    cfg.potential.can_generate_single_step_events = 1;
    cfg.potential.can_generate_compiled_method_load_events = 1;
    cfg.generate_events = on_generate;
    cfg.events_changed = on_events_changed;
    jvmtirt_init(&cfg);
    main_start();
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    label_thread(MAIN_T, 'm');
    clear_log();

    jvmtiEnv *A = tagged_env('A'), *B = tagged_env('B'), *C = tagged_env('C');
    jvmtiEventCallbacks cbs = logging_callbacks();

    /* enabling and callbacks */
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL), JVMTI_ERROR_NONE,
               "SetEventNotificationMode(ENABLE, VMInit, NULL)");
    expect_true(!jvmtirt_event_enabled(JVMTI_EVENT_VM_INIT),
                "jvmtirt_event_enabled: an event enabled without a callback is off");
    jvmtirt_post_VMInit(NULL, MAIN_T);
    expect_log("", "no event is delivered before SetEventCallbacks");
    int changed = __atomic_load_n(&events_changed_calls, __ATOMIC_SEQ_CST);
    expect_err(set_callbacks(A, &cbs, (jint)sizeof cbs), JVMTI_ERROR_NONE, "SetEventCallbacks");
    expect_true(__atomic_load_n(&events_changed_calls, __ATOMIC_SEQ_CST) > changed,
                "config.events_changed is called when callbacks change");
    expect_true(jvmtirt_event_enabled(JVMTI_EVENT_VM_INIT),
                "jvmtirt_event_enabled: enabled with a callback is on");
    expect_true(!jvmtirt_event_enabled(JVMTI_EVENT_VM_DEATH),
                "jvmtirt_event_enabled: a callback without enabling is off");
    jvmtirt_post_VMInit(NULL, MAIN_T);
    expect_log("A@m", "jvmtirt_post_VMInit delivers to the enabled environment");
    jvmtirt_post_VMDeath(NULL);
    expect_log("", "an event with a callback but not enabled is not delivered");

    set_callbacks(B, &cbs, (jint)sizeof cbs);
    set_callbacks(C, &cbs, (jint)sizeof cbs);
    set_mode(B, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
    set_mode(C, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
    jvmtirt_post_VMInit(NULL, MAIN_T);
    expect_log("A@m B@m C@m", "an event goes to every enabled environment, in creation order");
    changed = __atomic_load_n(&events_changed_calls, __ATOMIC_SEQ_CST);
    expect_err(set_mode(B, JVMTI_DISABLE, JVMTI_EVENT_VM_INIT, NULL), JVMTI_ERROR_NONE,
               "SetEventNotificationMode(DISABLE, VMInit, NULL)");
    expect_true(__atomic_load_n(&events_changed_calls, __ATOMIC_SEQ_CST) > changed,
                "config.events_changed is called when enabling changes");
    jvmtirt_post_VMInit(NULL, MAIN_T);
    expect_log("A@m C@m", "a disabled environment is skipped");
    expect_err(set_callbacks(C, NULL, 0), JVMTI_ERROR_NONE, "SetEventCallbacks(NULL, 0)");
    jvmtirt_post_VMInit(NULL, MAIN_T);
    expect_log("A@m", "SetEventCallbacks(NULL) removes every callback");

    /* short and long structures */
    set_mode(C, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
    set_mode(C, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    expect_err(set_callbacks(C, &cbs, (jint)offsetof(jvmtiEventCallbacks, ThreadStart)),
               JVMTI_ERROR_NONE, "SetEventCallbacks with a short structure (VMInit, VMDeath only)");
    jvmtirt_post_VMDeath(NULL);
    expect_log("C", "a short structure sets the callbacks it covers");
    jvmtirt_post_ThreadStart(NULL, MAIN_T);
    expect_log("", "a callback beyond size_of_callbacks is not set");
    expect_true(!jvmtirt_event_enabled(JVMTI_EVENT_THREAD_START),
                "jvmtirt_event_enabled: off for the callback beyond the short size");
    set_callbacks(C, &cbs, (jint)(offsetof(jvmtiEventCallbacks, ThreadStart) + sizeof(void *) - 1));
    jvmtirt_post_ThreadStart(NULL, MAIN_T);
    expect_log("", "a callback only partly inside size_of_callbacks is not set");
    struct {
        jvmtiEventCallbacks cb;
        void *extra[4];
    } big;
    memset(&big, 0, sizeof big);
    big.cb = cbs;
    for (int i = 0; i < 4; i++)
        big.extra[i] = (void *)&big;
    expect_err(set_callbacks(C, &big.cb, (jint)sizeof big), JVMTI_ERROR_NONE,
               "SetEventCallbacks with a longer structure (a newer jvmti.h)");
    jvmtirt_post_ThreadStart(NULL, MAIN_T);
    expect_log("C@m", "a longer structure sets the known callbacks");
    expect_err(set_callbacks(A, &cbs, -1), JVMTI_ERROR_ILLEGAL_ARGUMENT, "SetEventCallbacks(size -1)");
    jvmtirt_post_VMInit(NULL, MAIN_T);
    expect_log("A@m C@m", "a refused SetEventCallbacks keeps the old callbacks");
    set_callbacks(C, NULL, 0);
    set_mode(C, JVMTI_DISABLE, JVMTI_EVENT_VM_INIT, NULL);
    set_mode(C, JVMTI_DISABLE, JVMTI_EVENT_VM_DEATH, NULL);
    set_mode(C, JVMTI_DISABLE, JVMTI_EVENT_THREAD_START, NULL);
    expect_true(!jvmtirt_event_enabled(JVMTI_EVENT_THREAD_START), "jvmtirt_event_enabled: all off again");

    /* SetEventNotificationMode errors */
    expect_err(set_mode(A, (jvmtiEventMode)2, JVMTI_EVENT_VM_INIT, NULL), JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "SetEventNotificationMode(mode 2)");
    expect_err(set_mode(A, (jvmtiEventMode)-1, JVMTI_EVENT_VM_INIT, NULL), JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "SetEventNotificationMode(mode -1)");
    static const int bad_events[] = {0, 49, 72, 77, 78, 79, 85, 89, 1000, -1};
    for (size_t i = 0; i < sizeof bad_events / sizeof *bad_events; i++) {
        expect_err(set_mode(A, JVMTI_ENABLE, (jvmtiEvent)bad_events[i], NULL),
                   JVMTI_ERROR_INVALID_EVENT_TYPE, "SetEventNotificationMode(ENABLE, event %d)",
                   bad_events[i]);
        expect_true(!jvmtirt_event_enabled((jvmtiEvent)bad_events[i]),
                    "jvmtirt_event_enabled(%d) is off (not an event)", bad_events[i]);
    }
    expect_err(set_mode(A, JVMTI_DISABLE, (jvmtiEvent)72, NULL), JVMTI_ERROR_INVALID_EVENT_TYPE,
               "SetEventNotificationMode(DISABLE, reserved event 72)");
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, NULL),
               JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
               "SetEventNotificationMode(ENABLE, SingleStep) without can_generate_single_step_events");
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, MAIN_T),
               JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
               "SetEventNotificationMode(ENABLE, SingleStep, thread) without the capability");
    expect_err(set_mode(A, JVMTI_DISABLE, JVMTI_EVENT_SINGLE_STEP, NULL), JVMTI_ERROR_NONE,
               "SetEventNotificationMode(DISABLE, SingleStep) without the capability");
    jvmtiCapabilities ss = no_caps();
    ss.can_generate_single_step_events = 1;
    (*A)->AddCapabilities(A, &ss);
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, NULL), JVMTI_ERROR_NONE,
               "SetEventNotificationMode(ENABLE, SingleStep) with the capability");
    set_mode(A, JVMTI_DISABLE, JVMTI_EVENT_SINGLE_STEP, NULL);
    static const struct {
        jvmtiEvent ev;
        const char *name;
    } global_only[] = {
        {JVMTI_EVENT_VM_INIT, "VMInit"},
        {JVMTI_EVENT_VM_START, "VMStart"},
        {JVMTI_EVENT_VM_DEATH, "VMDeath"},
        {JVMTI_EVENT_THREAD_START, "ThreadStart"},
        {JVMTI_EVENT_DYNAMIC_CODE_GENERATED, "DynamicCodeGenerated"},
        {JVMTI_EVENT_DATA_DUMP_REQUEST, "DataDumpRequest"},
    };
    for (size_t i = 0; i < sizeof global_only / sizeof *global_only; i++)
        expect_err(set_mode(A, JVMTI_ENABLE, global_only[i].ev, MAIN_T), JVMTI_ERROR_ILLEGAL_ARGUMENT,
                   "SetEventNotificationMode(ENABLE, %s, thread): global-only event",
                   global_only[i].name);
    expect_err(set_mode(A, JVMTI_DISABLE, JVMTI_EVENT_VM_DEATH, MAIN_T), JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "SetEventNotificationMode(DISABLE, VMDeath, thread): global-only event");
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, (jthread)(void *)&unknown_thread_obj),
               JVMTI_ERROR_THREAD_NOT_ALIVE,
               "SetEventNotificationMode for a thread the VM never started");
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, (jthread)(void *)&bad_thread_obj),
               JVMTI_ERROR_INVALID_THREAD, "SetEventNotificationMode with a non-thread (VM hook)");
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, (jthread)(void *)&dead_thread_obj),
               JVMTI_ERROR_THREAD_NOT_ALIVE, "SetEventNotificationMode with a dead thread (VM hook)");
    /* Several errors at once: HotSpot's order (thread, event type, global-only,
     * mode, capability), which tests/conformance compares against. */
    expect_err(set_mode(A, JVMTI_ENABLE, (jvmtiEvent)1000, (jthread)(void *)&bad_thread_obj),
               JVMTI_ERROR_INVALID_THREAD, "SetEventNotificationMode: a non-thread before a bad event");
    expect_err(set_mode(A, (jvmtiEventMode)3, JVMTI_EVENT_CLASS_LOAD, (jthread)(void *)&bad_thread_obj),
               JVMTI_ERROR_INVALID_THREAD, "SetEventNotificationMode: a non-thread before a bad mode");
    expect_err(set_mode(A, (jvmtiEventMode)3, (jvmtiEvent)1000, NULL), JVMTI_ERROR_INVALID_EVENT_TYPE,
               "SetEventNotificationMode: a bad event before a bad mode");
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_COMPILED_METHOD_LOAD, MAIN_T),
               JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "SetEventNotificationMode: global-only before the missing capability");
    expect_err(set_mode(A, (jvmtiEventMode)3, JVMTI_EVENT_VM_DEATH, MAIN_T), JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "SetEventNotificationMode: global-only with a bad mode");
    expect_true(!jvmtirt_event_enabled(JVMTI_EVENT_CLASS_LOAD), "refused enablings enabled nothing");

    /* per thread */
    static worker w1, w2;
    worker_start(&w1, 1, 0, NULL);
    worker_start(&w2, 1, 0, NULL);
    label_thread(w1.jt, '1');
    label_thread(w2.jt, '2');
    expect_int(stats().threads, 3, "jvmtirt_get_stats counts started threads (main and two workers)");
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, w1.jt), JVMTI_ERROR_NONE,
               "SetEventNotificationMode(ENABLE, ClassLoad, thread 1)");
    expect_err(set_mode(B, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, NULL), JVMTI_ERROR_NONE,
               "SetEventNotificationMode(ENABLE, ClassLoad, NULL)");
    worker_do(&w1, job_post_class_load);
    expect_log("A@1 B@1", "ClassLoad on thread 1: the per-thread and the global environment");
    worker_do(&w2, job_post_class_load);
    expect_log("B@2", "ClassLoad on thread 2: only the global environment");
    jvmtirt_post_ClassLoad(NULL, MAIN_T, NULL);
    expect_log("B@m", "ClassLoad on the main thread: only the global environment");
    expect_true(jvmtirt_event_enabled_for_thread(JVMTI_EVENT_CLASS_LOAD, w1.id),
                "jvmtirt_event_enabled_for_thread(ClassLoad, thread 1)");
    expect_true(jvmtirt_event_enabled_for_thread(JVMTI_EVENT_CLASS_LOAD, w2.id),
                "jvmtirt_event_enabled_for_thread(ClassLoad, thread 2) through the global enabling");
    set_mode(B, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD, NULL);
    expect_true(jvmtirt_event_enabled(JVMTI_EVENT_CLASS_LOAD),
                "jvmtirt_event_enabled: on while enabled for one thread only");
    expect_true(!jvmtirt_event_enabled_for_thread(JVMTI_EVENT_CLASS_LOAD, w2.id),
                "jvmtirt_event_enabled_for_thread: off for thread 2 once the global one is gone");
    expect_true(jvmtirt_event_enabled_for_thread(JVMTI_EVENT_CLASS_LOAD, w1.id),
                "jvmtirt_event_enabled_for_thread: still on for thread 1");
    worker_do(&w2, job_post_class_load);
    expect_log("", "ClassLoad on thread 2 after the global disable");
    worker_do(&w1, job_post_class_load);
    expect_log("A@1", "ClassLoad on thread 1 still reaches the per-thread environment");
    set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, NULL);
    expect_err(set_mode(A, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD, w2.jt), JVMTI_ERROR_NONE,
               "SetEventNotificationMode(DISABLE, ClassLoad, thread 2) never enabled for it");
    worker_do(&w2, job_post_class_load);
    expect_log("A@2", "disabling for a thread has no effect while enabled globally");
    set_mode(A, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD, NULL);
    worker_do(&w1, job_post_class_load);
    worker_do(&w2, job_post_class_load);
    expect_log("A@1", "disabling globally keeps the per-thread enabling of thread 1");
    set_mode(A, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD, w1.jt);
    expect_true(!jvmtirt_event_enabled(JVMTI_EVENT_CLASS_LOAD),
                "jvmtirt_event_enabled: off after the last per-thread disable");
    worker_do(&w1, job_post_class_load);
    expect_log("", "ClassLoad after the last per-thread disable");

    /* a thread's end drops its settings */
    set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, w1.jt);
    uintptr_t id1 = w1.id;
    worker_stop(&w1);
    expect_int(stats().threads, 2, "jvmtirt_thread_end: the thread count drops");
    expect_true(!jvmtirt_event_enabled_for_thread(JVMTI_EVENT_CLASS_LOAD, id1),
                "jvmtirt_event_enabled_for_thread: off for an ended thread");
    expect_true(!jvmtirt_event_enabled(JVMTI_EVENT_CLASS_LOAD),
                "jvmtirt_event_enabled: off once the only enabled thread ended");
    worker_start(&w1, 1, id1, NULL);
    worker_do(&w1, job_post_class_load);
    expect_log("", "a thread started again with the same id has no per-thread settings");
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, w1.jt), JVMTI_ERROR_NONE,
               "SetEventNotificationMode for the restarted thread");
    worker_do(&w1, job_post_class_load);
    expect_log("A@1", "ClassLoad on the restarted thread");
    set_mode(A, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD, w1.jt);

    /* disposal while posting */
    set_mode(A, JVMTI_DISABLE, JVMTI_EVENT_VM_INIT, NULL);
    jvmtiEnv *D = tagged_env('D'), *E = tagged_env('E');
    jvmtiEventCallbacks dcb;
    memset(&dcb, 0, sizeof dcb);
    dcb.ThreadStart = on_thread_start_dispose_self;
    set_callbacks(D, &dcb, (jint)sizeof dcb);
    set_callbacks(E, &cbs, (jint)sizeof cbs);
    set_mode(D, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    set_mode(E, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    jvmtirt_stats before = stats();
    jvmtirt_post_ThreadStart(NULL, MAIN_T);
    expect_log("D@m E@m", "an environment disposing itself in its callback: the next one still gets the event");
    expect_err(self_disp.dispose, JVMTI_ERROR_NONE, "DisposeEnvironment from the environment's own callback");
    expect_err(self_disp.dispose_again, JVMTI_ERROR_INVALID_ENVIRONMENT,
               "DisposeEnvironment again, still in the callback");
    expect_err(self_disp.els, JVMTI_ERROR_INVALID_ENVIRONMENT,
               "GetEnvironmentLocalStorage on the disposed environment (not yet reclaimed)");
    expect_err(self_disp.get_phase, JVMTI_ERROR_INVALID_ENVIRONMENT,
               "GetPhase on the disposed environment (not yet reclaimed)");
    expect_int(self_disp.st.pending_disposal, 1, "jvmtirt_get_stats: pending disposal while the post runs");
    expect_int(self_disp.st.environments, before.environments - 1,
               "jvmtirt_get_stats: the disposed environment is no longer counted as live");
    jvmtirt_stats after = stats();
    expect_int(after.pending_disposal, 0, "jvmtirt_get_stats: pending disposal back to 0 after the post");
    expect_int(after.environments, before.environments - 1, "jvmtirt_get_stats: one environment fewer");
    jvmtirt_post_ThreadStart(NULL, MAIN_T);
    expect_log("E@m", "the disposed environment gets nothing more");

    jvmtiEnv *F = tagged_env('F'), *G = tagged_env('G');
    victim = G;
    dcb.ThreadStart = on_thread_start_dispose_victim;
    set_callbacks(F, &dcb, (jint)sizeof dcb);
    set_callbacks(G, &cbs, (jint)sizeof cbs);
    set_mode(F, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    set_mode(G, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    jvmtirt_post_ThreadStart(NULL, MAIN_T);
    expect_log("E@m F@m", "an environment disposed by an earlier one's callback during the post is skipped");
    expect_err(victim_err, JVMTI_ERROR_NONE, "DisposeEnvironment of another environment from a callback");
    expect_int(stats().pending_disposal, 0, "jvmtirt_get_stats: nothing pending after that post");
    set_mode(E, JVMTI_DISABLE, JVMTI_EVENT_THREAD_START, NULL);
    set_mode(F, JVMTI_DISABLE, JVMTI_EVENT_THREAD_START, NULL);
    expect_true(!jvmtirt_event_enabled(JVMTI_EVENT_THREAD_START),
                "jvmtirt_event_enabled: off once the enabling environments are disposed or disabled");

    /* the cursor sits on a disposed environment whose successor is then
     * disposed too: the successor must still be skipped */
    jvmtiEnv *I = tagged_env('I'), *K = tagged_env('K'), *L = tagged_env('L');
    victim = K;
    dcb.ThreadStart = on_thread_start_dispose_self_and_next;
    set_callbacks(I, &dcb, (jint)sizeof dcb);
    set_callbacks(K, &cbs, (jint)sizeof cbs);
    set_callbacks(L, &cbs, (jint)sizeof cbs);
    set_mode(I, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    set_mode(K, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    set_mode(L, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    jvmtirt_post_ThreadStart(NULL, MAIN_T);
    expect_log("I@m L@m",
               "a callback disposing of its environment and the next one: the next one is skipped");
    expect_true(self_disp.dispose == JVMTI_ERROR_NONE && victim_err == JVMTI_ERROR_NONE,
                "both disposals in the callback succeed");
    expect_int(stats().pending_disposal, 0, "jvmtirt_get_stats: nothing pending after that post");
    set_mode(L, JVMTI_DISABLE, JVMTI_EVENT_THREAD_START, NULL);

    jvmtiEnv *H = tagged_env('H');
    set_callbacks(H, &cbs, (jint)sizeof cbs);
    set_mode(H, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, w2.jt);
    expect_true(jvmtirt_event_enabled(JVMTI_EVENT_CLASS_LOAD), "per-thread enabling by H is on");
    (*H)->DisposeEnvironment(H);
    expect_true(!jvmtirt_event_enabled(JVMTI_EVENT_CLASS_LOAD),
                "DisposeEnvironment drops the environment's per-thread enablings");
    worker_do(&w2, job_post_class_load);
    expect_log("", "nothing delivered to a disposed per-thread environment");

    /* GenerateEvents */
    expect_err((*A)->GenerateEvents(A, JVMTI_EVENT_THREAD_START), JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "GenerateEvents(ThreadStart)");
    expect_err((*A)->GenerateEvents(A, (jvmtiEvent)1000), JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "GenerateEvents(1000)");
    jvmtiEnv *N = env_new();
    expect_err((*N)->GenerateEvents(N, JVMTI_EVENT_COMPILED_METHOD_LOAD), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
               "GenerateEvents(CompiledMethodLoad) without can_generate_compiled_method_load_events");
    expect_int(gen_calls, 0, "config.generate_events not called for refused requests");
    expect_err((*N)->GenerateEvents(N, JVMTI_EVENT_DYNAMIC_CODE_GENERATED), JVMTI_ERROR_NONE,
               "GenerateEvents(DynamicCodeGenerated)");
    expect_true(gen_calls == 1 && gen_env == N && gen_event == 70,
                "config.generate_events called once with the environment and event 70");
    jvmtiCapabilities cml = no_caps();
    cml.can_generate_compiled_method_load_events = 1;
    (*N)->AddCapabilities(N, &cml);
    expect_err((*N)->GenerateEvents(N, JVMTI_EVENT_COMPILED_METHOD_LOAD), JVMTI_ERROR_NONE,
               "GenerateEvents(CompiledMethodLoad) with the capability");
    expect_true(gen_calls == 2 && gen_event == 68, "config.generate_events called with event 68");

    worker_stop(&w1);
    worker_stop(&w2);
    jvmtirt_shutdown();
    memset(labels, 0, sizeof labels);
}

/* A VM whose thread references are not stable: config.thread_id maps them. */
typedef struct fake_thread {
    char pad[3];
    uintptr_t id;
} fake_thread;

/* The core maps every event's thread, the main thread's too. */
static uintptr_t fake_thread_id(jthread t)
{
    return t == MAIN_T ? ID_MAIN : ((fake_thread *)(void *)t)->id;
}

static void section_thread_id_hook(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    cfg.thread_id = fake_thread_id;
    jvmtirt_init(&cfg);
    main_start();
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    static fake_thread ft1 = {{0}, 5001}, ft2 = {{0}, 5002};
    static worker w1, w2;
    worker_start(&w1, 1, 5001, (jthread)(void *)&ft1);
    worker_start(&w2, 1, 5002, (jthread)(void *)&ft2);
    label_thread(w1.jt, '1');
    label_thread(w2.jt, '2');
    label_thread(MAIN_T, 'm');
    clear_log();
    jvmtiEnv *A = tagged_env('A');
    jvmtiEventCallbacks cbs = logging_callbacks();
    set_callbacks(A, &cbs, (jint)sizeof cbs);
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, w2.jt), JVMTI_ERROR_NONE,
               "config.thread_id: SetEventNotificationMode for thread 2");
    worker_do(&w1, job_post_class_load);
    worker_do(&w2, job_post_class_load);
    jvmtirt_post_ClassLoad(NULL, MAIN_T, NULL);
    expect_log("A@2", "config.thread_id: the per-thread enabling follows the VM's thread id");
    expect_true(jvmtirt_event_enabled_for_thread(JVMTI_EVENT_CLASS_LOAD, 5002),
                "config.thread_id: jvmtirt_event_enabled_for_thread takes the VM's id");
    expect_true(!jvmtirt_event_enabled_for_thread(JVMTI_EVENT_CLASS_LOAD, 5001),
                "config.thread_id: not enabled for the other thread");
    expect_int(jvmtirt_current_thread_id(), ID_MAIN, "jvmtirt_current_thread_id on the main thread");
    static fake_thread gone = {{0}, 5003};
    expect_err(set_mode(A, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, (jthread)(void *)&gone),
               JVMTI_ERROR_THREAD_NOT_ALIVE, "config.thread_id: an id the core never saw");
    worker_stop(&w1);
    worker_stop(&w2);
    jvmtirt_shutdown();
    memset(labels, 0, sizeof labels);
}

/* ======================================================================
 * memory
 * ====================================================================== */

static void section_memory(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    jvmtirt_init(&cfg);
    main_start();
    jvmtiEnv *e = env_new();
    unsigned char *mem = (unsigned char *)&mem;
    expect_err((*e)->Allocate(e, 0, &mem), JVMTI_ERROR_NONE, "Allocate(0)");
    expect_true(mem == NULL, "Allocate(0) stores NULL");
    expect_err((*e)->Allocate(e, -1, &mem), JVMTI_ERROR_ILLEGAL_ARGUMENT, "Allocate(-1)");
    expect_err((*e)->Allocate(e, 100, NULL), JVMTI_ERROR_NULL_POINTER, "Allocate(100, NULL)");
    mem = NULL;
    expect_err((*e)->Allocate(e, 100, &mem), JVMTI_ERROR_NONE, "Allocate(100)");
    if (mem) {
        memset(mem, 0xA5, 100);
        expect_true(mem[0] == 0xA5 && mem[99] == 0xA5, "Allocate(100): all 100 bytes writable");
    }
    expect_err((*e)->Deallocate(e, mem), JVMTI_ERROR_NONE, "Deallocate of an Allocate'd block");
    mem = (unsigned char *)&mem;
    expect_err((*e)->Allocate(e, 1LL << 62, &mem), JVMTI_ERROR_OUT_OF_MEMORY, "Allocate(1 << 62)");
    expect_true(mem == NULL, "a failed Allocate stores NULL (as HotSpot does)");
    expect_err((*e)->Deallocate(e, NULL), JVMTI_ERROR_NONE, "Deallocate(NULL)");
    jvmtirt_set_phase(JVMTI_PHASE_DEAD);
    mem = NULL;
    expect_err((*e)->Allocate(e, 8, &mem), JVMTI_ERROR_NONE, "Allocate works in the dead phase");
    expect_err((*e)->Deallocate(e, mem), JVMTI_ERROR_NONE, "Deallocate works in the dead phase");
    jvmtirt_shutdown();
}

/* ======================================================================
 * raw monitors
 * ====================================================================== */

static void job_not_owner(worker *w)
{
    jvmtiEnv *e = w->env;
    w->err[0] = (*e)->RawMonitorExit(e, w->mon);
    w->err[1] = (*e)->RawMonitorWait(e, w->mon, 10);
    w->err[2] = (*e)->RawMonitorNotify(e, w->mon);
    w->err[3] = (*e)->RawMonitorNotifyAll(e, w->mon);
    w->err[4] = (*e)->DestroyRawMonitor(e, w->mon);
}

/* Enters twice, says it is ready (inside the monitor), waits up to 5 s,
 * then exits as often as it entered, and once more. */
static void job_wait_long(worker *w)
{
    jvmtiEnv *e = w->env;
    (*e)->RawMonitorEnter(e, w->mon);
    (*e)->RawMonitorEnter(e, w->mon);
    __atomic_store_n(&w->ready, 1, __ATOMIC_SEQ_CST);
    long long t0 = now_ns();
    w->err[0] = (*e)->RawMonitorWait(e, w->mon, 5000);
    w->elapsed_ns = now_ns() - t0;
    w->err[1] = (*e)->RawMonitorExit(e, w->mon);
    w->err[2] = (*e)->RawMonitorExit(e, w->mon);
    w->err[3] = (*e)->RawMonitorExit(e, w->mon);
}

static void job_enter(worker *w) { w->err[0] = (*w->env)->RawMonitorEnter(w->env, w->mon); }
static void job_exit(worker *w) { w->err[0] = (*w->env)->RawMonitorExit(w->env, w->mon); }

/* Returns once w is inside RawMonitorWait (it said ready while owning the
 * monitor, and we could enter it). */
static void await_waiting(jvmtiEnv *e, worker *w)
{
    for (;;) {
        (*e)->RawMonitorEnter(e, w->mon);
        int r = __atomic_load_n(&w->ready, __ATOMIC_SEQ_CST);
        (*e)->RawMonitorExit(e, w->mon);
        if (r)
            return;
        sleep_ms(1);
    }
}

static void section_monitors(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    jvmtirt_init(&cfg);
    main_start();
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtiEnv *e = env_new();
    long base = stats().raw_monitors;
    jrawMonitorID m = NULL;
    expect_err((*e)->CreateRawMonitor(e, "units", &m), JVMTI_ERROR_NONE, "CreateRawMonitor");
    expect_true(m != NULL, "CreateRawMonitor gives a handle");
    expect_int(stats().raw_monitors, base + 1, "jvmtirt_get_stats counts raw monitors");
    expect_err((*e)->CreateRawMonitor(e, NULL, &m), JVMTI_ERROR_NULL_POINTER, "CreateRawMonitor(NULL name)");

    for (int i = 1; i <= 3; i++)
        expect_err((*e)->RawMonitorEnter(e, m), JVMTI_ERROR_NONE, "RawMonitorEnter #%d (recursive)", i);
    for (int i = 1; i <= 3; i++)
        expect_err((*e)->RawMonitorExit(e, m), JVMTI_ERROR_NONE, "RawMonitorExit #%d", i);
    expect_err((*e)->RawMonitorExit(e, m), JVMTI_ERROR_NOT_MONITOR_OWNER, "RawMonitorExit #4 (one too many)");
    expect_err((*e)->RawMonitorWait(e, m, 1), JVMTI_ERROR_NOT_MONITOR_OWNER, "RawMonitorWait without owning");
    expect_err((*e)->RawMonitorNotify(e, m), JVMTI_ERROR_NOT_MONITOR_OWNER, "RawMonitorNotify without owning");
    expect_err((*e)->RawMonitorNotifyAll(e, m), JVMTI_ERROR_NOT_MONITOR_OWNER,
               "RawMonitorNotifyAll without owning");

    /* another thread, while main owns it */
    static worker w, u;
    worker_start(&w, 1, 0, NULL);
    worker_start(&u, 0, 0, NULL); /* a thread the core does not know */
    w.env = u.env = e;
    w.mon = u.mon = m;
    (*e)->RawMonitorEnter(e, m);
    worker_do(&w, job_not_owner);
    expect_err(w.err[0], JVMTI_ERROR_NOT_MONITOR_OWNER, "RawMonitorExit by a non-owner thread");
    expect_err(w.err[1], JVMTI_ERROR_NOT_MONITOR_OWNER, "RawMonitorWait by a non-owner thread");
    expect_err(w.err[2], JVMTI_ERROR_NOT_MONITOR_OWNER, "RawMonitorNotify by a non-owner thread");
    expect_err(w.err[3], JVMTI_ERROR_NOT_MONITOR_OWNER, "RawMonitorNotifyAll by a non-owner thread");
    expect_err(w.err[4], JVMTI_ERROR_NOT_MONITOR_OWNER,
               "DestroyRawMonitor by a non-owner while another thread holds it");
    worker_do(&u, job_not_owner);
    expect_err(u.err[0], JVMTI_ERROR_NOT_MONITOR_OWNER, "RawMonitorExit by an unattached non-owner thread");
    expect_err(u.err[4], JVMTI_ERROR_NOT_MONITOR_OWNER, "DestroyRawMonitor by an unattached non-owner");
    expect_err((*e)->RawMonitorExit(e, m), JVMTI_ERROR_NONE, "the owner still owns it after the refusals");

    /* mutual exclusion: w holds it, main's timed wait etc. */
    worker_do(&w, job_enter);
    expect_err(w.err[0], JVMTI_ERROR_NONE, "RawMonitorEnter by the worker");
    expect_err((*e)->RawMonitorExit(e, m), JVMTI_ERROR_NOT_MONITOR_OWNER,
               "RawMonitorExit by main while the worker owns it");
    worker_do(&w, job_exit);
    expect_err(w.err[0], JVMTI_ERROR_NONE, "RawMonitorExit by the worker");

    /* timed wait, recursion restored */
    (*e)->RawMonitorEnter(e, m);
    (*e)->RawMonitorEnter(e, m);
    (*e)->RawMonitorEnter(e, m);
    long long t0 = now_ns();
    jvmtiError err = (*e)->RawMonitorWait(e, m, 50);
    long long ms = (now_ns() - t0) / 1000000;
    expect_err(err, JVMTI_ERROR_NONE, "RawMonitorWait(50 ms) times out with NONE");
    expect_true(ms >= 45 && ms < 5000, "RawMonitorWait(50 ms) lasts about 50 ms (took %lld ms)", ms);
    for (int i = 1; i <= 3; i++)
        expect_err((*e)->RawMonitorExit(e, m), JVMTI_ERROR_NONE,
                   "RawMonitorExit #%d after a wait entered 3 times (entry count restored)", i);
    expect_err((*e)->RawMonitorExit(e, m), JVMTI_ERROR_NOT_MONITOR_OWNER,
               "RawMonitorExit #4 after the wait");

    /* notify wakes a waiter */
    w.ready = 0;
    worker_async(&w, job_wait_long);
    await_waiting(e, &w);
    (*e)->RawMonitorEnter(e, m);
    expect_err((*e)->RawMonitorNotify(e, m), JVMTI_ERROR_NONE, "RawMonitorNotify by the owner");
    (*e)->RawMonitorExit(e, m);
    worker_wait(&w);
    expect_err(w.err[0], JVMTI_ERROR_NONE, "RawMonitorNotify wakes a waiting thread");
    expect_true(w.elapsed_ns < 4000000000LL, "the notified wait ended early (%lld ms of 5000)",
                w.elapsed_ns / 1000000);
    expect_err(w.err[1], JVMTI_ERROR_NONE, "the woken thread owns the monitor again (exit 1 of 2)");
    expect_err(w.err[2], JVMTI_ERROR_NONE, "the woken thread's entry count is restored (exit 2 of 2)");
    expect_err(w.err[3], JVMTI_ERROR_NOT_MONITOR_OWNER, "the woken thread's third exit is refused");

    /* NotifyAll */
    w.ready = 0;
    worker_async(&w, job_wait_long);
    await_waiting(e, &w);
    (*e)->RawMonitorEnter(e, m);
    expect_err((*e)->RawMonitorNotifyAll(e, m), JVMTI_ERROR_NONE, "RawMonitorNotifyAll by the owner");
    (*e)->RawMonitorExit(e, m);
    worker_wait(&w);
    expect_true(w.err[0] == JVMTI_ERROR_NONE && w.elapsed_ns < 4000000000LL,
                "RawMonitorNotifyAll wakes a waiting thread (%s after %lld ms)", ename(w.err[0]),
                w.elapsed_ns / 1000000);

    /* interrupt */
    w.ready = 0;
    worker_async(&w, job_wait_long);
    await_waiting(e, &w);
    expect_int(jvmtirt_thread_interrupt(w.id), 1, "jvmtirt_thread_interrupt of a known thread");
    worker_wait(&w);
    expect_err(w.err[0], JVMTI_ERROR_INTERRUPT, "jvmtirt_thread_interrupt ends a RawMonitorWait");
    expect_true(w.elapsed_ns < 4000000000LL, "the interrupted wait ended early (%lld ms of 5000)",
                w.elapsed_ns / 1000000);
    expect_err(w.err[1], JVMTI_ERROR_NONE, "the interrupted thread owns the monitor again (exit 1 of 2)");
    expect_err(w.err[2], JVMTI_ERROR_NONE, "the interrupted thread's entry count is restored (exit 2 of 2)");
    expect_err(w.err[3], JVMTI_ERROR_NOT_MONITOR_OWNER, "the interrupted thread's third exit is refused");
    expect_int(jvmtirt_thread_interrupt(987654321), 0, "jvmtirt_thread_interrupt of an unknown id");
    /* an interrupt before the wait ends the next wait */
    expect_int(jvmtirt_thread_interrupt(w.id), 1, "jvmtirt_thread_interrupt of a thread not waiting");
    w.ready = 0;
    worker_do(&w, job_wait_long);
    expect_true(w.err[0] == JVMTI_ERROR_INTERRUPT && w.elapsed_ns < 4000000000LL,
                "a pending interrupt ends the next RawMonitorWait (%s after %lld ms)", ename(w.err[0]),
                w.elapsed_ns / 1000000);
    w.ready = 0;
    worker_async(&w, job_wait_long);
    await_waiting(e, &w);
    (*e)->RawMonitorEnter(e, m);
    (*e)->RawMonitorNotify(e, m);
    (*e)->RawMonitorExit(e, m);
    worker_wait(&w);
    expect_err(w.err[0], JVMTI_ERROR_NONE, "an interrupt is consumed by the wait it ended");

    /* destroy */
    (*e)->RawMonitorEnter(e, m);
    worker_do(&w, job_not_owner);
    expect_err(w.err[4], JVMTI_ERROR_NOT_MONITOR_OWNER, "DestroyRawMonitor while main owns it, by the worker");
    expect_err((*e)->DestroyRawMonitor(e, m), JVMTI_ERROR_NONE, "DestroyRawMonitor by its owner (entered)");
    expect_int(stats().raw_monitors, base, "jvmtirt_get_stats: the raw monitor is gone");
    expect_err((*e)->RawMonitorEnter(e, m), JVMTI_ERROR_INVALID_MONITOR, "RawMonitorEnter after destroy");
    expect_err((*e)->RawMonitorExit(e, m), JVMTI_ERROR_INVALID_MONITOR, "RawMonitorExit after destroy");
    expect_err((*e)->RawMonitorWait(e, m, 1), JVMTI_ERROR_INVALID_MONITOR, "RawMonitorWait after destroy");
    expect_err((*e)->RawMonitorNotify(e, m), JVMTI_ERROR_INVALID_MONITOR, "RawMonitorNotify after destroy");
    expect_err((*e)->RawMonitorNotifyAll(e, m), JVMTI_ERROR_INVALID_MONITOR,
               "RawMonitorNotifyAll after destroy");
    expect_err((*e)->DestroyRawMonitor(e, m), JVMTI_ERROR_INVALID_MONITOR, "DestroyRawMonitor twice");
    jrawMonitorID m2 = NULL;
    (*e)->CreateRawMonitor(e, "reuse", &m2);
    expect_err((*e)->RawMonitorEnter(e, m), JVMTI_ERROR_INVALID_MONITOR,
               "a destroyed handle stays invalid after a new monitor is created");
    expect_err((*e)->RawMonitorEnter(e, m2), JVMTI_ERROR_NONE, "the new monitor works");
    (*e)->RawMonitorExit(e, m2);
    (*e)->DestroyRawMonitor(e, m2);
    jrawMonitorID m3 = NULL;
    (*e)->CreateRawMonitor(e, "unowned", &m3);
    expect_err((*e)->DestroyRawMonitor(e, m3), JVMTI_ERROR_NONE, "DestroyRawMonitor of an unowned monitor");

    static int stack_thing;
    const struct {
        jrawMonitorID id;
        const char *name;
    } garbage[] = {
        {NULL, "NULL"},
        {(jrawMonitorID)(uintptr_t)0x10, "0x10"},
        {(jrawMonitorID)(uintptr_t)0xdeadbeef, "0xdeadbeef"},
        {(jrawMonitorID)(uintptr_t)0x7fffffff00000003ULL, "0x7fffffff00000003"},
        {(jrawMonitorID)~(uintptr_t)0, "all ones"},
        {(jrawMonitorID)(void *)&stack_thing, "a pointer to a static int"},
    };
    for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
        expect_err((*e)->RawMonitorEnter(e, garbage[i].id), JVMTI_ERROR_INVALID_MONITOR,
                   "RawMonitorEnter(%s)", garbage[i].name);
        expect_err((*e)->DestroyRawMonitor(e, garbage[i].id), JVMTI_ERROR_INVALID_MONITOR,
                   "DestroyRawMonitor(%s)", garbage[i].name);
    }
    worker_stop(&w);
    worker_stop(&u);
    jvmtirt_shutdown();
    expect_int(stats().raw_monitors, 0, "jvmtirt_shutdown frees raw monitors");
}

/* ======================================================================
 * misc: errors, versions, timers, verbose, jlocation, properties
 * ====================================================================== */

static jvmtiVerboseFlag verbose_flag = -1;
static jboolean verbose_value;
static jvmtiError on_set_verbose(jvmtiVerboseFlag flag, jboolean value)
{
    verbose_flag = flag;
    verbose_value = value;
    return JVMTI_ERROR_NONE;
}

static void section_misc(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    cfg.potential.can_get_current_thread_cpu_time = 1;
    cfg.set_verbose = on_set_verbose;
    jvmtirt_init(&cfg);
    main_start();
    jvmtiEnv *e = env_new();

    static const struct {
        int err;
        const char *name;
    } names[] = {
        {0, "JVMTI_ERROR_NONE"},
        {10, "JVMTI_ERROR_INVALID_THREAD"},
        {15, "JVMTI_ERROR_THREAD_NOT_ALIVE"},
        {26, "JVMTI_ERROR_INVALID_MODULE"},
        {50, "JVMTI_ERROR_INVALID_MONITOR"},
        {52, "JVMTI_ERROR_INTERRUPT"},
        {80, "JVMTI_ERROR_UNMODIFIABLE_MODULE"},
        {98, "JVMTI_ERROR_NOT_AVAILABLE"},
        {99, "JVMTI_ERROR_MUST_POSSESS_CAPABILITY"},
        {103, "JVMTI_ERROR_ILLEGAL_ARGUMENT"},
        {112, "JVMTI_ERROR_WRONG_PHASE"},
        {116, "JVMTI_ERROR_INVALID_ENVIRONMENT"},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *n = NULL;
        jvmtiError err = (*e)->GetErrorName(e, (jvmtiError)names[i].err, &n);
        expect_err(err, JVMTI_ERROR_NONE, "GetErrorName(%d)", names[i].err);
        expect_str(n, names[i].name, "GetErrorName(%d)", names[i].err);
        if (err == JVMTI_ERROR_NONE)
            expect_err((*e)->Deallocate(e, (unsigned char *)n), JVMTI_ERROR_NONE,
                       "Deallocate of GetErrorName's string");
    }
    static const int not_errors[] = {-1, 1, 9, 105, 114, 117, 9999};
    for (size_t i = 0; i < sizeof not_errors / sizeof *not_errors; i++) {
        char *n = NULL;
        expect_err((*e)->GetErrorName(e, (jvmtiError)not_errors[i], &n), JVMTI_ERROR_ILLEGAL_ARGUMENT,
                   "GetErrorName(%d) (not an error)", not_errors[i]);
    }
    expect_err((*e)->GetErrorName(e, JVMTI_ERROR_NONE, NULL), JVMTI_ERROR_NULL_POINTER,
               "GetErrorName(.., NULL)");

    jvmtiJlocationFormat fmt = 0;
    expect_err((*e)->GetJLocationFormat(e, &fmt), JVMTI_ERROR_NONE, "GetJLocationFormat");
    expect_int(fmt, 1, "GetJLocationFormat by default is JVMTI_JLOCATION_JVMBCI (1)");

    static const int bad_flags[] = {3, 5, 8, -1};
    for (size_t i = 0; i < sizeof bad_flags / sizeof *bad_flags; i++)
        expect_err((*e)->SetVerboseFlag(e, (jvmtiVerboseFlag)bad_flags[i], JNI_TRUE),
                   JVMTI_ERROR_ILLEGAL_ARGUMENT, "SetVerboseFlag(%d)", bad_flags[i]);
    expect_int((int)verbose_flag, -1, "config.set_verbose not called for a bad flag");
    static const int good_flags[] = {0, 1, 2, 4};
    for (size_t i = 0; i < sizeof good_flags / sizeof *good_flags; i++)
        expect_err((*e)->SetVerboseFlag(e, (jvmtiVerboseFlag)good_flags[i], JNI_FALSE), JVMTI_ERROR_NONE,
                   "SetVerboseFlag(%d)", good_flags[i]);
    (*e)->SetVerboseFlag(e, JVMTI_VERBOSE_GC, JNI_TRUE);
    expect_true(verbose_flag == 1 && verbose_value == JNI_TRUE,
                "config.set_verbose gets the flag and the value");

    /* properties, in OnLoad */
    expect_err(jvmtirt_property_define("java.vm.name", "unit-vm", 0), JVMTI_ERROR_NONE,
               "jvmtirt_property_define (read-only)");
    expect_err(jvmtirt_property_define("java.class.path", ".", 1), JVMTI_ERROR_NONE,
               "jvmtirt_property_define (writable)");
    jvmtirt_property_define("user.dir", "/tmp", 1);
    jvmtirt_property_define("user.dir", "/work", 0); /* redefined: read-only now */
    jint count = -1;
    char **props = NULL;
    expect_err((*e)->GetSystemProperties(e, &count, &props), JVMTI_ERROR_NONE, "GetSystemProperties");
    expect_int(count, 3, "GetSystemProperties: three properties");
    if (count == 3 && props) {
        expect_true(strcmp(props[0], "java.vm.name") == 0 && strcmp(props[1], "java.class.path") == 0 &&
                        strcmp(props[2], "user.dir") == 0,
                    "GetSystemProperties: the keys in the VM's order");
    }
    for (jint i = 0; props && i < count; i++)
        (*e)->Deallocate(e, (unsigned char *)props[i]);
    expect_err((*e)->Deallocate(e, (unsigned char *)props), JVMTI_ERROR_NONE,
               "Deallocate of GetSystemProperties' array");
    char *val = NULL;
    expect_err((*e)->GetSystemProperty(e, "java.vm.name", &val), JVMTI_ERROR_NONE, "GetSystemProperty");
    expect_str(val, "unit-vm", "GetSystemProperty(java.vm.name)");
    (*e)->Deallocate(e, (unsigned char *)val);
    val = NULL;
    (*e)->GetSystemProperty(e, "user.dir", &val);
    expect_str(val, "/work", "a redefined property has the new value");
    (*e)->Deallocate(e, (unsigned char *)val);
    expect_err((*e)->GetSystemProperty(e, "no.such.property", &val), JVMTI_ERROR_NOT_AVAILABLE,
               "GetSystemProperty of an unknown key");
    expect_err((*e)->SetSystemProperty(e, "java.vm.name", "x"), JVMTI_ERROR_NOT_AVAILABLE,
               "SetSystemProperty of a read-only property");
    expect_err((*e)->SetSystemProperty(e, "user.dir", "x"), JVMTI_ERROR_NOT_AVAILABLE,
               "SetSystemProperty of a property redefined read-only");
    expect_err((*e)->SetSystemProperty(e, "no.such.property", "x"), JVMTI_ERROR_NOT_AVAILABLE,
               "SetSystemProperty of an unknown key");
    expect_err((*e)->SetSystemProperty(e, "java.vm.name", NULL), JVMTI_ERROR_NOT_AVAILABLE,
               "SetSystemProperty(read-only, NULL) (writability check)");
    expect_err((*e)->SetSystemProperty(e, "java.class.path", NULL), JVMTI_ERROR_NONE,
               "SetSystemProperty(writable, NULL) (writability check)");
    expect_str(jvmtirt_property_value("java.class.path"), ".", "SetSystemProperty(.., NULL) sets nothing");
    expect_err((*e)->SetSystemProperty(e, "java.class.path", "app.jar"), JVMTI_ERROR_NONE,
               "SetSystemProperty of a writable property");
    val = NULL;
    (*e)->GetSystemProperty(e, "java.class.path", &val);
    expect_str(val, "app.jar", "GetSystemProperty sees the new value");
    (*e)->Deallocate(e, (unsigned char *)val);
    expect_str(jvmtirt_property_value("java.class.path"), "app.jar", "jvmtirt_property_value sees it too");
    expect_true(jvmtirt_property_value("no.such.property") == NULL,
                "jvmtirt_property_value of an unknown key is NULL");

    /* live */
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    expect_err((*e)->SetSystemProperty(e, "java.class.path", "x"), JVMTI_ERROR_WRONG_PHASE,
               "SetSystemProperty in live");
    val = NULL;
    expect_err((*e)->GetSystemProperty(e, "java.class.path", &val), JVMTI_ERROR_NONE,
               "GetSystemProperty in live");
    (*e)->Deallocate(e, (unsigned char *)val);

    jlong t1 = 0, t2 = 0;
    expect_err((*e)->GetTime(e, &t1), JVMTI_ERROR_NONE, "GetTime");
    sleep_ms(2);
    (*e)->GetTime(e, &t2);
    expect_true(t2 - t1 >= 1500000, "GetTime advances with time (2 ms sleep: %lld ns)", (long long)(t2 - t1));
    int monotonic = 1;
    for (int i = 0; i < 1000; i++) {
        (*e)->GetTime(e, &t2);
        if (t2 < t1)
            monotonic = 0;
        t1 = t2;
    }
    expect_true(monotonic, "GetTime never goes backwards (1000 calls)");
    jvmtiTimerInfo ti;
    memset(&ti, 0xff, sizeof ti);
    expect_err((*e)->GetTimerInfo(e, &ti), JVMTI_ERROR_NONE, "GetTimerInfo");
    expect_int(ti.kind, 32, "GetTimerInfo: kind JVMTI_TIMER_ELAPSED (32)");
    expect_true(ti.may_skip_backward == JNI_FALSE, "GetTimerInfo: a monotonic clock does not skip backward");

    jlong cpu = -1;
    expect_err((*e)->GetCurrentThreadCpuTime(e, &cpu), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
               "GetCurrentThreadCpuTime without can_get_current_thread_cpu_time");
    expect_err((*e)->GetCurrentThreadCpuTimerInfo(e, &ti), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
               "GetCurrentThreadCpuTimerInfo without can_get_current_thread_cpu_time");
    jvmtiCapabilities c = no_caps();
    c.can_get_current_thread_cpu_time = 1;
    (*e)->AddCapabilities(e, &c);
    expect_err((*e)->GetCurrentThreadCpuTime(e, &cpu), JVMTI_ERROR_NONE,
               "GetCurrentThreadCpuTime with the capability");
    long long spin_end = now_ns() + 20000000;
    volatile unsigned long sink = 0;
    while (now_ns() < spin_end)
        sink++;
    jlong cpu2 = -1;
    (*e)->GetCurrentThreadCpuTime(e, &cpu2);
    expect_true(cpu >= 0 && cpu2 > cpu, "GetCurrentThreadCpuTime grows while the thread works (%lld -> %lld)",
                (long long)cpu, (long long)cpu2);
    memset(&ti, 0, sizeof ti);
    (*e)->GetCurrentThreadCpuTimerInfo(e, &ti);
    expect_int(ti.kind, 31, "GetCurrentThreadCpuTimerInfo: kind JVMTI_TIMER_TOTAL_CPU (31)");
    jint procs = 0;
    expect_err((*e)->GetAvailableProcessors(e, &procs), JVMTI_ERROR_NONE, "GetAvailableProcessors");
    expect_true(procs >= 1, "GetAvailableProcessors >= 1 (%d)", (int)procs);
    jvmtirt_shutdown();

    cfg.jlocation_format = JVMTI_JLOCATION_MACHINEPC;
    jvmtirt_init(&cfg);
    e = env_new();
    (*e)->GetJLocationFormat(e, &fmt);
    expect_int(fmt, 2, "GetJLocationFormat follows config.jlocation_format (MACHINEPC, 2)");
    jvmtirt_shutdown();
}

/* ======================================================================
 * extensions
 * ====================================================================== */

static jvmtiError JNICALL ext_frobnicate(jvmtiEnv *env, ...)
{
    (void)env;
    return JVMTI_ERROR_NONE;
}

static jvmtiError JNICALL ext_nop(jvmtiEnv *env, ...)
{
    (void)env;
    return JVMTI_ERROR_NONE;
}

static void JNICALL ext_tick_a(jvmtiEnv *env, ...) { (void)env; }
static void JNICALL ext_tick_b(jvmtiEnv *env, ...) { (void)env; }

static struct {
    int calls, stop_after;
    jvmtiEnv *env[4];
    jvmtiExtensionEvent cb[4];
} each;

static int each_fn(jvmtiEnv *env, jvmtiExtensionEvent cb, void *arg)
{
    (void)arg;
    if (each.calls < 4) {
        each.env[each.calls] = env;
        each.cb[each.calls] = cb;
    }
    each.calls++;
    return each.stop_after && each.calls >= each.stop_after;
}

static void each_reset(int stop_after)
{
    memset(&each, 0, sizeof each);
    each.stop_after = stop_after;
}

static char *scratch_copy(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    strcpy(d, s);
    return d;
}

/* Frees a string the registry must have copied, scribbling on it first. */
static void scribble_free(char *s)
{
    memset(s, 'X', strlen(s));
    free(s);
}

static void free_function_infos(jvmtiEnv *e, jvmtiExtensionFunctionInfo *fi, jint n, int *bad)
{
    for (jint i = 0; i < n; i++) {
        *bad |= (*e)->Deallocate(e, (unsigned char *)fi[i].id) != JVMTI_ERROR_NONE;
        *bad |= (*e)->Deallocate(e, (unsigned char *)fi[i].short_description) != JVMTI_ERROR_NONE;
        for (jint p = 0; p < fi[i].param_count; p++)
            *bad |= (*e)->Deallocate(e, (unsigned char *)fi[i].params[p].name) != JVMTI_ERROR_NONE;
        *bad |= (*e)->Deallocate(e, (unsigned char *)fi[i].params) != JVMTI_ERROR_NONE;
        *bad |= (*e)->Deallocate(e, (unsigned char *)fi[i].errors) != JVMTI_ERROR_NONE;
    }
    *bad |= (*e)->Deallocate(e, (unsigned char *)fi) != JVMTI_ERROR_NONE;
}

static void free_event_infos(jvmtiEnv *e, jvmtiExtensionEventInfo *ei, jint n, int *bad)
{
    for (jint i = 0; i < n; i++) {
        *bad |= (*e)->Deallocate(e, (unsigned char *)ei[i].id) != JVMTI_ERROR_NONE;
        *bad |= (*e)->Deallocate(e, (unsigned char *)ei[i].short_description) != JVMTI_ERROR_NONE;
        for (jint p = 0; p < ei[i].param_count; p++)
            *bad |= (*e)->Deallocate(e, (unsigned char *)ei[i].params[p].name) != JVMTI_ERROR_NONE;
        *bad |= (*e)->Deallocate(e, (unsigned char *)ei[i].params) != JVMTI_ERROR_NONE;
    }
    *bad |= (*e)->Deallocate(e, (unsigned char *)ei) != JVMTI_ERROR_NONE;
}

static void section_extensions(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    jvmtirt_init(&cfg);
    main_start();

    /* registered from heap copies that are scribbled on and freed at once */
    jvmtiParamInfo params[2] = {
        {scratch_copy("depth"), JVMTI_KIND_IN, JVMTI_TYPE_JINT, JNI_FALSE},
        {scratch_copy("result_ptr"), JVMTI_KIND_OUT, JVMTI_TYPE_JLONG, JNI_TRUE},
    };
    jvmtiError errors[2] = {JVMTI_ERROR_INVALID_THREAD, JVMTI_ERROR_ILLEGAL_ARGUMENT};
    jvmtiExtensionFunctionInfo f1 = {ext_frobnicate, scratch_copy("com.example.ext.frobnicate"),
                                     scratch_copy("Frobnicates."), 2, params, 2, errors};
    jvmtiExtensionFunctionInfo f2 = {ext_nop, scratch_copy("com.example.ext.nop"),
                                     scratch_copy("Does nothing."), 0, NULL, 0, NULL};
    jvmtiParamInfo eparams[1] = {{scratch_copy("count"), JVMTI_KIND_IN, JVMTI_TYPE_JINT, JNI_FALSE}};
    jvmtiExtensionEventInfo e1 = {42, scratch_copy("com.example.ext.tick"), scratch_copy("Ticks."), 1,
                                  eparams};
    jvmtiExtensionEventInfo e2 = {7, scratch_copy("com.example.ext.tock"), scratch_copy("Tocks."), 0, NULL};
    expect_err(jvmtirt_extension_function_add(&f1), JVMTI_ERROR_NONE, "jvmtirt_extension_function_add #1");
    expect_err(jvmtirt_extension_function_add(&f2), JVMTI_ERROR_NONE, "jvmtirt_extension_function_add #2");
    expect_err(jvmtirt_extension_event_add(&e1), JVMTI_ERROR_NONE, "jvmtirt_extension_event_add #1");
    expect_err(jvmtirt_extension_event_add(&e2), JVMTI_ERROR_NONE, "jvmtirt_extension_event_add #2");
    scribble_free(params[0].name);
    scribble_free(params[1].name);
    scribble_free(f1.id);
    scribble_free(f1.short_description);
    scribble_free(f2.id);
    scribble_free(f2.short_description);
    scribble_free(eparams[0].name);
    scribble_free(e1.id);
    scribble_free(e1.short_description);
    scribble_free(e2.id);
    scribble_free(e2.short_description);
    errors[0] = errors[1] = JVMTI_ERROR_INTERNAL;
    params[0].kind = params[1].kind = JVMTI_KIND_OUT;

    jvmtiEnv *A = env_new(), *B = env_new();
    jvmtiExtensionFunction ff = ext_nop;
    jvmtiExtensionFunctionInfo late = {ff, "com.example.late", "Too late.", 0, NULL, 0, NULL};
    expect_true(jvmtirt_extension_function_add(&late) != JVMTI_ERROR_NONE,
                "jvmtirt_extension_function_add is refused once an environment exists");
    jvmtiExtensionEventInfo late_ev = {99, "com.example.late", "Too late.", 0, NULL};
    expect_true(jvmtirt_extension_event_add(&late_ev) != JVMTI_ERROR_NONE,
                "jvmtirt_extension_event_add is refused once an environment exists");

    jint n = -1;
    jvmtiExtensionFunctionInfo *fi = NULL;
    expect_err((*A)->GetExtensionFunctions(A, &n, &fi), JVMTI_ERROR_NONE, "GetExtensionFunctions");
    expect_int(n, 2, "GetExtensionFunctions: two functions");
    if (n == 2 && fi) {
        expect_true(fi[0].func == ext_frobnicate && fi[1].func == ext_nop,
                    "GetExtensionFunctions: the function pointers, in registration order");
        expect_str(fi[0].id, "com.example.ext.frobnicate", "GetExtensionFunctions: id #1");
        expect_str(fi[0].short_description, "Frobnicates.", "GetExtensionFunctions: short_description #1");
        expect_int(fi[0].param_count, 2, "GetExtensionFunctions: param_count #1");
        if (fi[0].param_count == 2 && fi[0].params) {
            expect_str(fi[0].params[0].name, "depth", "GetExtensionFunctions: param 1 name");
            expect_true(fi[0].params[0].kind == 91 && fi[0].params[0].base_type == 104 &&
                            fi[0].params[0].null_ok == JNI_FALSE,
                        "GetExtensionFunctions: param 1 is JVMTI_KIND_IN (91) JVMTI_TYPE_JINT (104), not null_ok");
            expect_str(fi[0].params[1].name, "result_ptr", "GetExtensionFunctions: param 2 name");
            expect_true(fi[0].params[1].kind == 96 && fi[0].params[1].base_type == 105 &&
                            fi[0].params[1].null_ok == JNI_TRUE,
                        "GetExtensionFunctions: param 2 is JVMTI_KIND_OUT (96) JVMTI_TYPE_JLONG (105), null_ok");
        }
        expect_int(fi[0].error_count, 2, "GetExtensionFunctions: error_count #1");
        if (fi[0].error_count == 2 && fi[0].errors)
            expect_true(fi[0].errors[0] == 10 && fi[0].errors[1] == 103,
                        "GetExtensionFunctions: errors INVALID_THREAD (10), ILLEGAL_ARGUMENT (103)");
        expect_str(fi[1].id, "com.example.ext.nop", "GetExtensionFunctions: id #2");
        expect_true(fi[1].param_count == 0 && fi[1].error_count == 0,
                    "GetExtensionFunctions: #2 has no parameters and no errors");
        fi[0].id[0] = '#'; /* the caller owns its copy */
    }
    int bad = 0;
    if (fi)
        free_function_infos(A, fi, n, &bad);
    expect_int(bad, 0, "every piece of GetExtensionFunctions' result is freed with Deallocate");
    fi = NULL;
    (*B)->GetExtensionFunctions(B, &n, &fi);
    expect_str(n == 2 && fi ? fi[0].id : NULL, "com.example.ext.frobnicate",
               "GetExtensionFunctions returns a fresh copy each time");
    bad = 0;
    if (fi)
        free_function_infos(B, fi, n, &bad);

    jvmtiExtensionEventInfo *ei = NULL;
    n = -1;
    expect_err((*A)->GetExtensionEvents(A, &n, &ei), JVMTI_ERROR_NONE, "GetExtensionEvents");
    expect_int(n, 2, "GetExtensionEvents: two events");
    if (n == 2 && ei) {
        expect_true(ei[0].extension_event_index == 42 && ei[1].extension_event_index == 7,
                    "GetExtensionEvents: the indexes 42 and 7, in registration order");
        expect_str(ei[0].id, "com.example.ext.tick", "GetExtensionEvents: id #1");
        expect_str(ei[0].short_description, "Ticks.", "GetExtensionEvents: short_description #1");
        expect_int(ei[0].param_count, 1, "GetExtensionEvents: param_count #1");
        if (ei[0].param_count == 1 && ei[0].params)
            expect_str(ei[0].params[0].name, "count", "GetExtensionEvents: param name");
        expect_str(ei[1].id, "com.example.ext.tock", "GetExtensionEvents: id #2");
        expect_int(ei[1].param_count, 0, "GetExtensionEvents: param_count #2");
    }
    bad = 0;
    if (ei)
        free_event_infos(A, ei, n, &bad);
    expect_int(bad, 0, "every piece of GetExtensionEvents' result is freed with Deallocate");

    expect_err((*A)->SetExtensionEventCallback(A, 99, (jvmtiExtensionEvent)ext_tick_a),
               JVMTI_ERROR_ILLEGAL_ARGUMENT, "SetExtensionEventCallback(unknown index 99)");
    expect_err((*A)->SetExtensionEventCallback(A, -1, (jvmtiExtensionEvent)ext_tick_a),
               JVMTI_ERROR_ILLEGAL_ARGUMENT, "SetExtensionEventCallback(index -1)");
    expect_err((*A)->SetExtensionEventCallback(A, 1, (jvmtiExtensionEvent)ext_tick_a),
               JVMTI_ERROR_ILLEGAL_ARGUMENT, "SetExtensionEventCallback(1: a position, not an index)");
    each_reset(0);
    jvmtirt_extension_event_each(42, each_fn, NULL);
    expect_int(each.calls, 0, "jvmtirt_extension_event_each: nobody has a callback yet");
    expect_err((*A)->SetExtensionEventCallback(A, 42, (jvmtiExtensionEvent)ext_tick_a), JVMTI_ERROR_NONE,
               "SetExtensionEventCallback(42)");
    each_reset(0);
    jvmtirt_extension_event_each(42, each_fn, NULL);
    expect_true(each.calls == 1 && each.env[0] == A && each.cb[0] == (jvmtiExtensionEvent)ext_tick_a,
                "jvmtirt_extension_event_each calls the registered callback with its environment");
    (*B)->SetExtensionEventCallback(B, 42, (jvmtiExtensionEvent)ext_tick_b);
    each_reset(0);
    jvmtirt_extension_event_each(42, each_fn, NULL);
    expect_true(each.calls == 2 && each.env[0] == A && each.env[1] == B &&
                    each.cb[1] == (jvmtiExtensionEvent)ext_tick_b,
                "jvmtirt_extension_event_each: every environment, in creation order");
    each_reset(1);
    jvmtirt_extension_event_each(42, each_fn, NULL);
    expect_int(each.calls, 1, "jvmtirt_extension_event_each stops when fn returns non-zero");
    each_reset(0);
    jvmtirt_extension_event_each(7, each_fn, NULL);
    expect_int(each.calls, 0, "jvmtirt_extension_event_each: no callback for the other event");
    each_reset(0);
    jvmtirt_extension_event_each(99, each_fn, NULL);
    expect_int(each.calls, 0, "jvmtirt_extension_event_each: an unknown index calls nothing");
    expect_err((*A)->SetExtensionEventCallback(A, 42, NULL), JVMTI_ERROR_NONE,
               "SetExtensionEventCallback(42, NULL)");
    each_reset(0);
    jvmtirt_extension_event_each(42, each_fn, NULL);
    expect_true(each.calls == 1 && each.env[0] == B, "a NULL callback turns the extension event off");
    (*B)->DisposeEnvironment(B);
    each_reset(0);
    jvmtirt_extension_event_each(42, each_fn, NULL);
    expect_int(each.calls, 0, "jvmtirt_extension_event_each skips disposed environments");
    jvmtirt_shutdown();

    /* after shutdown the registries are empty and open again */
    jvmtirt_init(&cfg);
    expect_err(jvmtirt_extension_function_add(&late), JVMTI_ERROR_NONE,
               "jvmtirt_extension_function_add works again after shutdown and init");
    jvmtiEnv *C = env_new();
    fi = NULL;
    (*C)->GetExtensionFunctions(C, &n, &fi);
    expect_int(n, 1, "jvmtirt_shutdown cleared the old registry");
    bad = 0;
    if (fi)
        free_function_infos(C, fi, n, &bad);
    jvmtiExtensionEventInfo *none = NULL;
    n = -1;
    expect_err((*C)->GetExtensionEvents(C, &n, &none), JVMTI_ERROR_NONE, "GetExtensionEvents with none");
    expect_int(n, 0, "GetExtensionEvents: zero events");
    (*C)->Deallocate(C, (unsigned char *)none);
    jvmtirt_shutdown();
}

/* ======================================================================
 * VM functions the core does not implement
 * ====================================================================== */

/* A VM's own implementation, registered, replaces the NOT_AVAILABLE
 * default (the collector: a function that stays the VM's). */
static int gc_calls;
static jvmtiError vm_force_gc(jvmtiEnv *env)
{
    (void)env;
    gc_calls++;
    return JVMTI_ERROR_NONE;
}

static void section_not_available(void)
{
    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    jvmtirt_impl_table impls = JVMTIRT_IMPL_TABLE_INIT;
    impls.ForceGarbageCollection = vm_force_gc;
    cfg.impls = &impls;
    jvmtirt_init(&cfg);
    main_start();
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtiEnv *e = env_new();
    jint state = 0;
    expect_err((*e)->GetThreadState(e, MAIN_T, &state), JVMTI_ERROR_NOT_AVAILABLE,
               "GetThreadState (no stack walk from the VM)");
    jint n = 0;
    jclass *classes = NULL;
    expect_err((*e)->GetLoadedClasses(e, &n, &classes), JVMTI_ERROR_NOT_AVAILABLE,
               "GetLoadedClasses (no class enumeration from the VM)");
    jint frames = 0;
    expect_err((*e)->GetFrameCount(e, MAIN_T, &frames), JVMTI_ERROR_NOT_AVAILABLE,
               "GetFrameCount (no stack walk from the VM)");
    jthread t = NULL;
    expect_err((*e)->GetCurrentThread(e, &t), JVMTI_ERROR_NOT_AVAILABLE,
               "GetCurrentThread (no thread_ref from the VM)");
    expect_err((*e)->ForceGarbageCollection(e), JVMTI_ERROR_NONE,
               "ForceGarbageCollection registered by the VM (this program) replaces the default");
    expect_int(gc_calls, 1, "ForceGarbageCollection reaches the VM's implementation");
    jvmtirt_shutdown();
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    section_environments();
    section_phases();
    section_capabilities();
    section_events();
    section_thread_id_hook();
    section_memory();
    section_monitors();
    section_misc();
    section_extensions();
    section_not_available();
    return failures ? 1 : 0;
}
