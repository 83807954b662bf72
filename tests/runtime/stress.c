/* stress.c: the runtime core under concurrency.
 *
 * usage: stress [SECONDS]   (default 1.5)
 *
 * Eight threads, all known to the core (jvmtirt_thread_start), run for the
 * given time:
 *   2 posters   send ClassLoad (a per-thread event) in a loop, each on its
 *               own thread, through the generated jvmtirt_post_ClassLoad;
 *   2 togglers  enable and disable ClassLoad in two long-lived
 *               environments, globally and for single posters, and add
 *               and relinquish a capability of one of them;
 *   2 churners  create environments (local storage, callbacks, ClassLoad
 *               enabled globally or for one poster), dispose of them, and
 *               create, use and destroy raw monitors;
 *   2 lockers   enter one raw monitor (sometimes recursively), increment a
 *               plain counter inside it, wait with a timeout, notify, and
 *               call a function that needs a capability their environment
 *               keeps (while the toggler changes another one); the main
 *               thread interrupts them now and then.
 * Then it stops them and checks the invariants, one TAP-like line each:
 * the counter is exact, no environment got an event after its
 * DisposeEnvironment returned, per-thread enabling held, every call
 * returned what it should, and the core's statistics are back where they
 * started. Under -fsanitize=thread it must run race-free. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmtigen_post.h"
#include "jvmtirt.h"

#define N_POSTERS 2
#define N_TOGGLERS 2
#define N_CHURNERS 2
#define N_LOCKERS 2

#define ADD(p, v) __atomic_add_fetch((p), (v), __ATOMIC_RELAXED)
#define GET(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define PUT(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

#define TAP_PREFIX "stress: "
#include "tap.h"
#define line tap_line

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000L};
    nanosleep(&ts, NULL);
}

/* ---- shared state ---- */

static int stop_work;    /* togglers, churners, lockers */
static int stop_posting; /* posters, after the others */

/* What an environment's local storage points to. */
enum { KIND_E0, KIND_E1, KIND_CHURN };
typedef struct tag {
    int kind;
    jvmtiEnv *env;         /* atomic: the environment it belongs to */
    uint64_t disposed_seq; /* atomic: set once DisposeEnvironment returned */
    struct tag *next;      /* the churner's list, freed at the end */
} tag;

/* Bumped after each DisposeEnvironment returns; a post that read a value
 * >= an environment's disposed_seq started after that disposal. */
static uint64_t dispose_seq;

static jvmtiEnv *E0, *E1;
static tag tag_e0 = {KIND_E0, NULL, 0, NULL}, tag_e1 = {KIND_E1, NULL, 0, NULL};
/* Each churner's latest tag: how a callback whose environment is already
 * invalid (so its local storage cannot be read) still finds its tag. */
/* The tag of the environment most recently created at an address (by a
 * hash of it). An environment being delivered to is not freed, so it is
 * the newest at its address: its own tag is found here, never that of an
 * older one freed before it (disposed environments are freed quickly and
 * their addresses come back). */
#define N_BY_ADDR 4096
static tag *by_addr[N_BY_ADDR];
static size_t addr_slot(const void *env) { return ((uintptr_t)env >> 4) % N_BY_ADDR; }

typedef struct poster {
    char obj;     /* its thread object */
    pthread_t pt;
    long posts;
} poster;
static poster posters[N_POSTERS];
#define POSTER_T(i) ((jthread)(void *)&posters[i].obj)
#define POSTER_ID(i) ((uintptr_t)&posters[i].obj)

static _Thread_local uint64_t post_started; /* dispose_seq when the current post began */
static _Thread_local int my_poster = -1;

/* counters (atomic) */
static long deliveries, deliveries_e0[N_POSTERS], deliveries_e1[N_POSTERS], deliveries_churn;
static long late_strict;       /* delivered to an env disposed before the post started */
static long inflight_flagged;  /* its post began before the disposal finished, the callback after */
static long inflight_invalid;  /* its env was already invalid inside the callback */
static long invalid_untraced;  /* ... and its tag could not be found */
static long wrong_thread;      /* callback's thread is not the posting thread */
static long callback_errors;
static long call_errors;       /* JVM TI calls that returned something unexpected */
static char first_error[256];
static long envs_churned, monitors_churned, stale_refused, toggles;

static void call_error(const char *what, jvmtiError got)
{
    if (ADD(&call_errors, 1) == 1)
        snprintf(first_error, sizeof first_error, "%s returned %d", what, (int)got);
}

#define EXPECT(call, want, what)                  \
    do {                                          \
        jvmtiError e_ = (call);                   \
        if (e_ != (want))                         \
            call_error(what, e_);                 \
    } while (0)

static void JNICALL on_class_load(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jni, (void)klass;
    int who = -1;
    for (int i = 0; i < N_POSTERS; i++)
        if (thread == POSTER_T(i))
            who = i;
    if (who < 0 || who != my_poster) {
        ADD(&wrong_thread, 1);
        return;
    }
    void *p = NULL;
    jvmtiError err = (*env)->GetEnvironmentLocalStorage(env, &p);
    if (err == JVMTI_ERROR_INVALID_ENVIRONMENT) {
        /* Disposed at least as late as this post began (else it is a
         * late delivery, found through by_addr). */
        ADD(&inflight_invalid, 1);
        tag *c = GET(&by_addr[addr_slot(env)]);
        if (c && GET(&c->env) == env)
            p = c;
        if (!p) {
            ADD(&invalid_untraced, 1);
            return;
        }
    } else if (err != JVMTI_ERROR_NONE || !p) {
        ADD(&callback_errors, 1);
        return;
    }
    tag *t = p;
    ADD(&deliveries, 1);
    switch (t->kind) {
    case KIND_E0:
        ADD(&deliveries_e0[who], 1);
        break;
    case KIND_E1:
        ADD(&deliveries_e1[who], 1);
        break;
    default: {
        ADD(&deliveries_churn, 1);
        uint64_t d = GET(&t->disposed_seq);
        if (d != 0 && d <= post_started)
            ADD(&late_strict, 1);
        else if (d != 0)
            ADD(&inflight_flagged, 1);
    }
    }
}

static jvmtiEventCallbacks callbacks(void)
{
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassLoad = on_class_load;
    return cb;
}

/* Everyone starts together. */
static pthread_barrier_t start_line;

/* ---- posters ---- */

static void *poster_main(void *arg)
{
    int i = (int)(intptr_t)arg;
    jvmtirt_thread_start(POSTER_ID(i), JVMTIRT_JAVA_THREAD);
    my_poster = i;
    pthread_barrier_wait(&start_line);
    long n = 0;
    while (!GET(&stop_posting)) {
        post_started = GET(&dispose_seq);
        jvmtirt_post_ClassLoad(NULL, POSTER_T(i), NULL);
        n++;
    }
    posters[i].posts = n;
    jvmtirt_thread_end();
    return NULL;
}

/* ---- togglers ---- */

static void *toggler_main(void *arg)
{
    int i = (int)(intptr_t)arg;
    static char ids[N_TOGGLERS];
    jvmtirt_thread_start((uintptr_t)&ids[i], JVMTIRT_JAVA_THREAD);
    jvmtiEventCallbacks cb = callbacks();
    jvmtiCapabilities tag_objects;
    memset(&tag_objects, 0, sizeof tag_objects);
    tag_objects.can_tag_objects = 1;
    pthread_barrier_wait(&start_line);
    long n = 0;
    while (!GET(&stop_work)) {
        if (i == 0) {
            /* a capability of E0 other than the one the lockers need */
            EXPECT((*E0)->AddCapabilities(E0, &tag_objects), JVMTI_ERROR_NONE,
                   "AddCapabilities(E0, can_tag_objects)");
            EXPECT((*E0)->RelinquishCapabilities(E0, &tag_objects), JVMTI_ERROR_NONE,
                   "RelinquishCapabilities(E0, can_tag_objects)");
            /* E0: globally, and for poster 1 */
            EXPECT((*E0)->SetEventNotificationMode(E0, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, NULL),
                   JVMTI_ERROR_NONE, "SetEventNotificationMode(E0, ENABLE, global)");
            EXPECT((*E0)->SetEventNotificationMode(E0, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, POSTER_T(1)),
                   JVMTI_ERROR_NONE, "SetEventNotificationMode(E0, ENABLE, poster 1)");
            EXPECT((*E0)->SetEventNotificationMode(E0, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD, NULL),
                   JVMTI_ERROR_NONE, "SetEventNotificationMode(E0, DISABLE, global)");
            EXPECT((*E0)->SetEventNotificationMode(E0, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD,
                                                   POSTER_T(1)),
                   JVMTI_ERROR_NONE, "SetEventNotificationMode(E0, DISABLE, poster 1)");
        } else {
            /* E1: only ever for poster 0; E0 for poster 0 too */
            EXPECT((*E1)->SetEventNotificationMode(E1, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, POSTER_T(0)),
                   JVMTI_ERROR_NONE, "SetEventNotificationMode(E1, ENABLE, poster 0)");
            EXPECT((*E0)->SetEventNotificationMode(E0, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, POSTER_T(0)),
                   JVMTI_ERROR_NONE, "SetEventNotificationMode(E0, ENABLE, poster 0)");
            sleep_us(20);
            EXPECT((*E1)->SetEventNotificationMode(E1, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD,
                                                   POSTER_T(0)),
                   JVMTI_ERROR_NONE, "SetEventNotificationMode(E1, DISABLE, poster 0)");
            EXPECT((*E0)->SetEventNotificationMode(E0, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD,
                                                   POSTER_T(0)),
                   JVMTI_ERROR_NONE, "SetEventNotificationMode(E0, DISABLE, poster 0)");
            if (n % 64 == 0)
                EXPECT((*E1)->SetEventCallbacks(E1, &cb, (jint)sizeof cb), JVMTI_ERROR_NONE,
                       "SetEventCallbacks(E1)");
        }
        n++;
        if (n % 16 == 0)
            sleep_us(10);
    }
    ADD(&toggles, n);
    jvmtirt_thread_end();
    return NULL;
}

/* ---- churners ---- */

static tag *churn_tags[N_CHURNERS];

static void *churner_main(void *arg)
{
    int i = (int)(intptr_t)arg;
    static char ids[N_CHURNERS];
    jvmtirt_thread_start((uintptr_t)&ids[i], JVMTIRT_JAVA_THREAD);
    jvmtiEventCallbacks cb = callbacks();
    pthread_barrier_wait(&start_line);
    long n = 0, mons = 0, stale = 0;
    while (!GET(&stop_work)) {
        void *p = NULL;
        if (jvmtirt_get_env(&p, JVMTI_VERSION) != JNI_OK || !p) {
            call_error("jvmtirt_get_env", JVMTI_ERROR_INTERNAL);
            break;
        }
        jvmtiEnv *e = p;
        tag *t = calloc(1, sizeof *t);
        t->kind = KIND_CHURN;
        t->env = e;
        t->next = churn_tags[i];
        churn_tags[i] = t;
        PUT(&by_addr[addr_slot(e)], t);
        EXPECT((*e)->SetEnvironmentLocalStorage(e, t), JVMTI_ERROR_NONE, "SetEnvironmentLocalStorage");
        EXPECT((*e)->SetEventCallbacks(e, &cb, (jint)sizeof cb), JVMTI_ERROR_NONE, "SetEventCallbacks");
        jthread on = n % 2 ? NULL : POSTER_T((n / 2) % N_POSTERS);
        EXPECT((*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, on),
               JVMTI_ERROR_NONE, "SetEventNotificationMode(churned env, ENABLE)");
        if (n % 8 == 0) {
            /* a raw monitor's life, with a stale handle at the end */
            jrawMonitorID m = NULL;
            EXPECT((*e)->CreateRawMonitor(e, "churn", &m), JVMTI_ERROR_NONE, "CreateRawMonitor");
            EXPECT((*e)->RawMonitorEnter(e, m), JVMTI_ERROR_NONE, "RawMonitorEnter(churned)");
            EXPECT((*e)->RawMonitorExit(e, m), JVMTI_ERROR_NONE, "RawMonitorExit(churned)");
            EXPECT((*e)->DestroyRawMonitor(e, m), JVMTI_ERROR_NONE, "DestroyRawMonitor(churned)");
            jvmtiError err = (*e)->RawMonitorEnter(e, m);
            if (err == JVMTI_ERROR_INVALID_MONITOR)
                stale++;
            else
                call_error("RawMonitorEnter(destroyed handle)", err);
            mons++;
        } else if (n % 3 == 0) {
            sleep_us(5); /* let some events arrive */
        }
        EXPECT((*e)->DisposeEnvironment(e), JVMTI_ERROR_NONE, "DisposeEnvironment");
        PUT(&t->disposed_seq, __atomic_add_fetch(&dispose_seq, 1, __ATOMIC_SEQ_CST));
        n++;
    }
    ADD(&envs_churned, n);
    ADD(&monitors_churned, mons);
    ADD(&stale_refused, stale);
    jvmtirt_thread_end();
    return NULL;
}

/* ---- lockers ---- */

static jrawMonitorID lock;
static long counter;            /* plain: only touched inside `lock` */
static long enters[N_LOCKERS], waits_ok[N_LOCKERS], waits_interrupted[N_LOCKERS];
static char locker_ids[N_LOCKERS];

static void *locker_main(void *arg)
{
    int i = (int)(intptr_t)arg;
    jvmtirt_thread_start((uintptr_t)&locker_ids[i], JVMTIRT_JAVA_THREAD);
    jvmtiEnv *e = E0;
    pthread_barrier_wait(&start_line);
    long n = 0, ok = 0, intr = 0, inside = 0;
    while (!GET(&stop_work)) {
        jlong cpu;
        EXPECT((*e)->GetCurrentThreadCpuTime(e, &cpu), JVMTI_ERROR_NONE,
               "GetCurrentThreadCpuTime(E0, which keeps can_get_current_thread_cpu_time)");
        EXPECT((*e)->RawMonitorEnter(e, lock), JVMTI_ERROR_NONE, "RawMonitorEnter");
        counter++;
        inside++;
        if (n % 16 == 0) {
            EXPECT((*e)->RawMonitorEnter(e, lock), JVMTI_ERROR_NONE, "RawMonitorEnter (recursive)");
            jvmtiError err = (*e)->RawMonitorWait(e, lock, 1);
            if (err == JVMTI_ERROR_NONE)
                ok++;
            else if (err == JVMTI_ERROR_INTERRUPT)
                intr++;
            else
                call_error("RawMonitorWait", err);
            counter++; /* owned again after the wait */
            inside++;
            EXPECT((*e)->RawMonitorExit(e, lock), JVMTI_ERROR_NONE, "RawMonitorExit (recursive, after wait)");
        }
        if (n % 8 == 0)
            EXPECT(n % 16 ? (*e)->RawMonitorNotify(e, lock) : (*e)->RawMonitorNotifyAll(e, lock),
                   JVMTI_ERROR_NONE, "RawMonitorNotify");
        EXPECT((*e)->RawMonitorExit(e, lock), JVMTI_ERROR_NONE, "RawMonitorExit");
        n++;
    }
    EXPECT((*e)->RawMonitorExit(e, lock), JVMTI_ERROR_NOT_MONITOR_OWNER,
           "RawMonitorExit once more than entered");
    enters[i] = inside;
    waits_ok[i] = ok;
    waits_interrupted[i] = intr;
    jvmtirt_thread_end();
    return NULL;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.5;
    if (seconds <= 0 || seconds > 600) {
        fprintf(stderr, "usage: stress [SECONDS]\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    jvmtirt_config cfg;
    cfg = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* the capability machinery, not the VM functions */
    cfg.potential.can_tag_objects = 1;
    cfg.potential.can_get_current_thread_cpu_time = 1;
    jvmtirt_init(&cfg);
    static char main_obj;
    jvmtirt_thread_start((uintptr_t)&main_obj, JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_stats base;
    jvmtirt_get_stats(&base);

    void *p0 = NULL, *p1 = NULL;
    jvmtirt_get_env(&p0, JVMTI_VERSION);
    jvmtirt_get_env(&p1, JVMTI_VERSION);
    E0 = p0;
    E1 = p1;
    jvmtiEventCallbacks cb = callbacks();
    jvmtiCapabilities cpu_time;
    memset(&cpu_time, 0, sizeof cpu_time);
    cpu_time.can_get_current_thread_cpu_time = 1;
    (*E0)->AddCapabilities(E0, &cpu_time);
    (*E0)->SetEnvironmentLocalStorage(E0, &tag_e0);
    (*E1)->SetEnvironmentLocalStorage(E1, &tag_e1);
    (*E0)->SetEventCallbacks(E0, &cb, (jint)sizeof cb);
    (*E1)->SetEventCallbacks(E1, &cb, (jint)sizeof cb);
    (*E0)->CreateRawMonitor(E0, "stress", &lock);

    pthread_barrier_init(&start_line, NULL, N_POSTERS + N_TOGGLERS + N_CHURNERS + N_LOCKERS + 1);
    pthread_t togglers[N_TOGGLERS], churners[N_CHURNERS], lockers[N_LOCKERS];
    for (int i = 0; i < N_POSTERS; i++)
        pthread_create(&posters[i].pt, NULL, poster_main, (void *)(intptr_t)i);
    for (int i = 0; i < N_TOGGLERS; i++)
        pthread_create(&togglers[i], NULL, toggler_main, (void *)(intptr_t)i);
    for (int i = 0; i < N_CHURNERS; i++)
        pthread_create(&churners[i], NULL, churner_main, (void *)(intptr_t)i);
    for (int i = 0; i < N_LOCKERS; i++)
        pthread_create(&lockers[i], NULL, locker_main, (void *)(intptr_t)i);
    pthread_barrier_wait(&start_line);

    /* The main thread interrupts the lockers and watches the backlog of
     * disposed environments. */
    long long end = now_ns() + (long long)(seconds * 1e9);
    long interrupts = 0, max_pending = 0;
    for (int k = 0; now_ns() < end; k++) {
        sleep_us(2000);
        interrupts += jvmtirt_thread_interrupt((uintptr_t)&locker_ids[k % N_LOCKERS]);
        jvmtirt_stats s;
        jvmtirt_get_stats(&s);
        if (s.pending_disposal > max_pending)
            max_pending = s.pending_disposal;
    }
    PUT(&stop_work, 1);
    for (int i = 0; i < N_TOGGLERS; i++)
        pthread_join(togglers[i], NULL);
    for (int i = 0; i < N_CHURNERS; i++)
        pthread_join(churners[i], NULL);
    for (int i = 0; i < N_LOCKERS; i++)
        pthread_join(lockers[i], NULL);
    PUT(&stop_posting, 1);
    for (int i = 0; i < N_POSTERS; i++)
        pthread_join(posters[i].pt, NULL);

    /* ---- invariants ---- */
    long total_posts = posters[0].posts + posters[1].posts;
    line(call_errors == 0, "every JVM TI call of the threads returned what it should (%ld unexpected%s%s)",
         call_errors, call_errors ? ": first: " : "", first_error);
    long total_enters = 0, total_ok = 0, total_intr = 0;
    for (int i = 0; i < N_LOCKERS; i++) {
        total_enters += enters[i];
        total_ok += waits_ok[i];
        total_intr += waits_interrupted[i];
    }
    (*E0)->RawMonitorEnter(E0, lock);
    long final_counter = counter;
    (*E0)->RawMonitorExit(E0, lock);
    line(final_counter == total_enters && total_enters > 0,
         "raw monitor: the counter incremented inside it is exact (%ld, expected %ld)", final_counter,
         total_enters);
    line(total_ok + total_intr > 0 && total_intr > 0 && interrupts > 0,
         "raw monitor: waits returned NONE (%ld) or INTERRUPT (%ld) after %ld interrupts", total_ok,
         total_intr, interrupts);
    line(late_strict == 0,
         "no delivery to an environment after its DisposeEnvironment returned (%ld; deliveries racing "
         "with a disposal: %ld saw it finished, %ld found the environment invalid, %ld of those untraced)",
         late_strict, inflight_flagged, inflight_invalid, invalid_untraced);
    line(deliveries_e1[1] == 0, "E1, enabled only for poster 0, got nothing on poster 1 (%ld; %ld on poster 0)",
         deliveries_e1[1], deliveries_e1[0]);
    line(wrong_thread == 0 && callback_errors == 0,
         "callbacks ran on the posting thread with their environment's storage (%ld wrong thread, %ld errors)",
         wrong_thread, callback_errors);
    line(deliveries > 0 && deliveries_e0[0] > 0 && deliveries_e0[1] > 0 && deliveries_churn > 0,
         "events were delivered: %ld in all (E0: %ld + %ld, churned: %ld) of %ld posts", deliveries,
         deliveries_e0[0], deliveries_e0[1], deliveries_churn, total_posts);
    line(envs_churned > 0 && toggles > 0, "%ld environments created and disposed, %ld toggle rounds",
         envs_churned, toggles);
    line(stale_refused == monitors_churned && monitors_churned > 0,
         "raw monitors created and destroyed concurrently: stale handles refused (%ld of %ld)", stale_refused,
         monitors_churned);

    (*E0)->DestroyRawMonitor(E0, lock);
    (*E0)->DisposeEnvironment(E0);
    (*E1)->DisposeEnvironment(E1);
    jvmtirt_stats st;
    jvmtirt_get_stats(&st);
    line(st.environments == base.environments, "environments back to the baseline (%ld, expected %ld)",
         st.environments, base.environments);
    line(st.pending_disposal == 0, "no disposed environment left unreclaimed (%ld; at most %ld during the run)",
         st.pending_disposal, max_pending);
    line(st.threads == base.threads, "threads back to the baseline (%ld, expected %ld)", st.threads,
         base.threads);
    line(st.raw_monitors == base.raw_monitors, "raw monitors back to the baseline (%ld, expected %ld)",
         st.raw_monitors, base.raw_monitors);
    line(!jvmtirt_event_enabled(JVMTI_EVENT_CLASS_LOAD), "ClassLoad is off once every environment is gone");

    jvmtirt_thread_end();
    jvmtirt_shutdown();
    pthread_barrier_destroy(&start_line);
    for (int i = 0; i < N_CHURNERS; i++)
        for (tag *t = churn_tags[i], *next; t; t = next) {
            next = t->next;
            free(t);
        }
    return tap_failures ? 1 : 0;
}
