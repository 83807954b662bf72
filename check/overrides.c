/* The forwarders that do more than forward: they replace the generated
 * (weak) ones of out/jvmticheck_forward.c. Memory ownership, environment
 * disposal, event callbacks, capabilities and raw monitor ownership. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "jvmticheck.h"

#define REAL(env) JVMTICHECK_REAL(env)
#define ENV(env) ((jvmticheck_env *)(void *)(env))

jvmtiError jvmticheck_forward_Allocate(jvmtiEnv *env, jlong size, unsigned char **mem_ptr);
jvmtiError jvmticheck_forward_Allocate(jvmtiEnv *env, jlong size, unsigned char **mem_ptr)
{
    jvmtiError err = (*REAL(env))->Allocate(REAL(env), size, mem_ptr);
    if (err == JVMTI_ERROR_NONE && mem_ptr)
        jvmticheck_owned(env, "Allocate", *mem_ptr);
    return err;
}

jvmtiError jvmticheck_forward_Deallocate(jvmtiEnv *env, unsigned char *mem);
jvmtiError jvmticheck_forward_Deallocate(jvmtiEnv *env, unsigned char *mem)
{
    /* Not forwarded: the VM would free memory it does not own (a heap
     * corruption, not an error code). */
    if (mem && !jvmticheck_disown(mem)) {
        jvmticheck_report(env, "Deallocate", "mem",
                          "was not allocated by JVM TI, or was already deallocated");
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    }
    return (*REAL(env))->Deallocate(REAL(env), mem);
}

jvmtiError jvmticheck_forward_DisposeEnvironment(jvmtiEnv *env);
jvmtiError jvmticheck_forward_DisposeEnvironment(jvmtiEnv *env)
{
    jvmtiEnv *real = REAL(env);
    /* From now on the agent's calls on env are findings; the struct stays. */
    __atomic_store_n(&ENV(env)->magic, JVMTICHECK_DISPOSED, __ATOMIC_RELEASE);
    return (*real)->DisposeEnvironment(real);
}

/* Every member is a function pointer, read by events on other threads. */
static void store_callbacks(jvmtiEventCallbacks *to, const jvmtiEventCallbacks *from)
{
    void (**dst)(void) = (void (**)(void))(void *)to;
    void (*const *src)(void) = (void (*const *)(void))(const void *)from;
    for (size_t i = 0; i < sizeof *to / sizeof *dst; i++)
        __atomic_store_n(&dst[i], __atomic_load_n(&src[i], __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
}

jvmtiError jvmticheck_forward_SetEventCallbacks(jvmtiEnv *env, const jvmtiEventCallbacks *callbacks,
                                                jint size_of_callbacks);
jvmtiError jvmticheck_forward_SetEventCallbacks(jvmtiEnv *env, const jvmtiEventCallbacks *callbacks,
                                                jint size_of_callbacks)
{
    /* The agent's struct may be shorter (an older jvmti.h): only what it
     * has is read. */
    jvmtiEventCallbacks mine, theirs, before;
    memset(&mine, 0, sizeof mine);
    if (callbacks && size_of_callbacks > 0)
        memcpy(&mine, callbacks, (size_t)size_of_callbacks < sizeof mine ? (size_t)size_of_callbacks
                                                                        : sizeof mine);
    /* Or longer (a newer jvmti.h): the VM gets the wrappers' struct, so no
     * more than its size, and a callback of an event after the spec's,
     * which the checker has no wrapper for, is said to go undelivered. */
    if (callbacks && size_of_callbacks > (jint)sizeof theirs) {
        jvmticheck_newer_callbacks(env, callbacks, size_of_callbacks);
        size_of_callbacks = (jint)sizeof theirs;
    }
    /* Stored before the VM has the wrappers (an event may come at once),
     * and put back if the VM refuses the call (wrong phase, bad size). */
    store_callbacks(&before, &ENV(env)->callbacks);
    store_callbacks(&ENV(env)->callbacks, &mine);
    jvmticheck_wrap_callbacks(&mine, &theirs);
    jvmtiError err = (*REAL(env))->SetEventCallbacks(REAL(env), callbacks ? &theirs : NULL,
                                                     size_of_callbacks);
    if (err != JVMTI_ERROR_NONE)
        store_callbacks(&ENV(env)->callbacks, &before);
    return err;
}

jvmtiError jvmticheck_forward_AddCapabilities(jvmtiEnv *env, const jvmtiCapabilities *capabilities_ptr);
jvmtiError jvmticheck_forward_AddCapabilities(jvmtiEnv *env, const jvmtiCapabilities *capabilities_ptr)
{
    jvmtiError err = (*REAL(env))->AddCapabilities(REAL(env), capabilities_ptr);
    jvmticheck_caps_refresh(ENV(env));
    return err;
}

jvmtiError jvmticheck_forward_RelinquishCapabilities(jvmtiEnv *env,
                                                     const jvmtiCapabilities *capabilities_ptr);
jvmtiError jvmticheck_forward_RelinquishCapabilities(jvmtiEnv *env,
                                                     const jvmtiCapabilities *capabilities_ptr)
{
    jvmtiError err = (*REAL(env))->RelinquishCapabilities(REAL(env), capabilities_ptr);
    jvmticheck_caps_refresh(ENV(env));
    return err;
}

/* ---- raw monitors: who holds each one the agent created ----
 * A list of records, read without a lock: a record is never freed (a
 * destroyed monitor's is emptied, id NULL, and reused by the next
 * CreateRawMonitor), so a reader never meets freed memory. mon_lock only
 * orders the writers (create, destroy). A record's owner and count are
 * written only by the thread that holds the VM's monitor, read by others
 * for their own checks: atomics, no lock, so an uncontended
 * RawMonitorEnter and Exit cost two walks of a short list. The records
 * hang from buckets by the monitor's address (libjdwp creates dozens of
 * monitors, and a single list put its busiest, made first, at the end);
 * a record stays in its bucket for good, reused only by a monitor of the
 * same bucket. */
typedef struct mon {
    jrawMonitorID id;  /* atomic: NULL while the record is free */
    const void *owner; /* atomic: the holder's ME() */
    int count;         /* atomic: entries by owner; 0: free */
    struct mon *next;  /* atomic: set before the record is published */
} mon;
static pthread_mutex_t mon_lock = PTHREAD_MUTEX_INITIALIZER;
#define MON_BUCKET_BITS 6
static mon *mons[1 << MON_BUCKET_BITS]; /* atomic heads */

#define MON_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define MON_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* The calling thread, as a record's owner: the address of an initial-exec
 * thread-local, read inline (pthread_self is a call through the PLT, two
 * on every uncontended RawMonitorEnter and Exit). */
static __thread char me_mark __attribute__((tls_model("initial-exec")));
#define ME() ((const void *)&me_mark)

/* The bucket of a monitor's address (a multiplicative hash's top bits). */
static inline mon **mon_bucket(jrawMonitorID id)
{
    uint64_t h = (uint64_t)(uintptr_t)id * 0x9E3779B97F4A7C15u;
    return &mons[h >> (64 - MON_BUCKET_BITS)];
}

/* The record of id in bucket b (id NULL: a free record there). */
static inline mon *mon_in(mon **b, jrawMonitorID id)
{
    for (mon *m = MON_LOAD(b); m; m = MON_LOAD(&m->next))
        if (MON_LOAD(&m->id) == id)
            return m;
    return NULL;
}

static inline mon *mon_find(jrawMonitorID id) { return mon_in(mon_bucket(id), id); }

/* A monitor the agent did not get from CreateRawMonitor, or destroyed: the
 * VM would take it for one of its own (HotSpot crashes on a made-up one),
 * so it is a finding and is not forwarded, in either mode. NULL is the
 * generated rule's finding, and the VM's to answer. *m: its record. */
static inline int unknown_monitor(jvmtiEnv *env, const char *function, jrawMonitorID monitor, mon **m)
{
    *m = monitor ? mon_find(monitor) : NULL;
    if (JVMTICHECK_LIKELY(!monitor || *m))
        return 0;
    jvmticheck_broke(env, function, "monitor", "must be a raw monitor CreateRawMonitor returned, not destroyed",
                     JVMTI_ERROR_INVALID_MONITOR);
    return 1;
}

/* Whether the calling thread holds the monitor of record m (1), not (0),
 * or the monitor is not one the agent created through us (-1: not judged). */
static int held_by_me(const mon *m)
{
    if (!m)
        return -1;
    return MON_LOAD(&m->count) > 0 && MON_LOAD(&m->owner) == ME();
}

jvmtiError jvmticheck_forward_CreateRawMonitor(jvmtiEnv *env, const char *name,
                                               jrawMonitorID *monitor_ptr);
jvmtiError jvmticheck_forward_CreateRawMonitor(jvmtiEnv *env, const char *name,
                                               jrawMonitorID *monitor_ptr)
{
    jvmtiError err = (*REAL(env))->CreateRawMonitor(REAL(env), name, monitor_ptr);
    if (err != JVMTI_ERROR_NONE || !monitor_ptr)
        return err;
    pthread_mutex_lock(&mon_lock);
    mon **b = mon_bucket(*monitor_ptr);
    mon *m = mon_in(b, NULL); /* a free record of that bucket */
    if (!m && (m = calloc(1, sizeof *m)) != NULL) {
        m->next = *b;
        MON_STORE(b, m);
    }
    if (m) {
        MON_STORE(&m->count, 0);
        MON_STORE(&m->id, *monitor_ptr);
    }
    pthread_mutex_unlock(&mon_lock);
    return err;
}

jvmtiError jvmticheck_forward_DestroyRawMonitor(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_DestroyRawMonitor(jvmtiEnv *env, jrawMonitorID monitor)
{
    mon *m;
    if (unknown_monitor(env, "DestroyRawMonitor", monitor, &m))
        return JVMTI_ERROR_INVALID_MONITOR;
    if (m && MON_LOAD(&m->count) > 0 && MON_LOAD(&m->owner) != ME())
        jvmticheck_report(env, "DestroyRawMonitor", "monitor", "must not be destroyed while another thread holds it");
    jvmtiError err = (*REAL(env))->DestroyRawMonitor(REAL(env), monitor);
    if (err == JVMTI_ERROR_NONE) {
        pthread_mutex_lock(&mon_lock);
        if ((m = mon_find(monitor)) != NULL)
            MON_STORE(&m->id, NULL);
        pthread_mutex_unlock(&mon_lock);
    }
    return err;
}

/* m's record after the VM's monitor was entered: still the monitor's
 * unless a destroy (a finding of its own) came between. */
static mon *still(mon *m, jrawMonitorID monitor)
{
    return m && MON_LOAD(&m->id) == monitor ? m : NULL;
}

jvmtiError jvmticheck_forward_RawMonitorEnter(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_RawMonitorEnter(jvmtiEnv *env, jrawMonitorID monitor)
{
    mon *m;
    if (unknown_monitor(env, "RawMonitorEnter", monitor, &m))
        return JVMTI_ERROR_INVALID_MONITOR;
    jvmtiError err = (*REAL(env))->RawMonitorEnter(REAL(env), monitor);
    if (err == JVMTI_ERROR_NONE && (m = still(m, monitor)) != NULL) {
        MON_STORE(&m->owner, ME());
        MON_STORE(&m->count, MON_LOAD(&m->count) + 1);
    }
    return err;
}

static void not_held(jvmtiEnv *env, const char *function)
{
    jvmticheck_report(env, function, "monitor", "must be held by the calling thread (RawMonitorEnter)");
}

static void must_hold(jvmtiEnv *env, const char *function, const mon *m)
{
    if (held_by_me(m) == 0)
        not_held(env, function);
}

jvmtiError jvmticheck_forward_RawMonitorExit(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_RawMonitorExit(jvmtiEnv *env, jrawMonitorID monitor)
{
    mon *m;
    if (unknown_monitor(env, "RawMonitorExit", monitor, &m))
        return JVMTI_ERROR_INVALID_MONITOR;
    int held = held_by_me(m);
    if (held == 0)
        not_held(env, "RawMonitorExit");
    /* The record changes only while its thread holds the VM's monitor:
     * here before the VM's exit (once it is free, a waiter returning from
     * RawMonitorWait writes its own count, which a later decrement would
     * spoil). */
    if (held == 1)
        MON_STORE(&m->count, MON_LOAD(&m->count) - 1);
    jvmtiError err = (*REAL(env))->RawMonitorExit(REAL(env), monitor);
    if (err != JVMTI_ERROR_NONE && held == 1 && still(m, monitor))
        MON_STORE(&m->count, MON_LOAD(&m->count) + 1);
    return err;
}

jvmtiError jvmticheck_forward_RawMonitorWait(jvmtiEnv *env, jrawMonitorID monitor, jlong millis);
jvmtiError jvmticheck_forward_RawMonitorWait(jvmtiEnv *env, jrawMonitorID monitor, jlong millis)
{
    mon *m;
    if (unknown_monitor(env, "RawMonitorWait", monitor, &m))
        return JVMTI_ERROR_INVALID_MONITOR;
    must_hold(env, "RawMonitorWait", m);
    /* While waiting the monitor is free for others; it comes back to us,
     * entered as often as before, when the wait ends. */
    int saved = held_by_me(m) == 1 ? MON_LOAD(&m->count) : 0;
    if (saved)
        MON_STORE(&m->count, 0);
    jvmtiError err = (*REAL(env))->RawMonitorWait(REAL(env), monitor, millis);
    if (saved && still(m, monitor)) {
        MON_STORE(&m->owner, ME());
        MON_STORE(&m->count, saved);
    }
    return err;
}

jvmtiError jvmticheck_forward_RawMonitorNotify(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_RawMonitorNotify(jvmtiEnv *env, jrawMonitorID monitor)
{
    mon *m;
    if (unknown_monitor(env, "RawMonitorNotify", monitor, &m))
        return JVMTI_ERROR_INVALID_MONITOR;
    must_hold(env, "RawMonitorNotify", m);
    return (*REAL(env))->RawMonitorNotify(REAL(env), monitor);
}

jvmtiError jvmticheck_forward_RawMonitorNotifyAll(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_RawMonitorNotifyAll(jvmtiEnv *env, jrawMonitorID monitor)
{
    mon *m;
    if (unknown_monitor(env, "RawMonitorNotifyAll", monitor, &m))
        return JVMTI_ERROR_INVALID_MONITOR;
    must_hold(env, "RawMonitorNotifyAll", m);
    return (*REAL(env))->RawMonitorNotifyAll(REAL(env), monitor);
}
