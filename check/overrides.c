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

/* ---- raw monitors: who holds each one the agent created ---- */
typedef struct mon {
    jrawMonitorID id;
    pthread_t owner;
    int count; /* entries by owner; 0: free */
    struct mon *next;
} mon;
static pthread_mutex_t mon_lock = PTHREAD_MUTEX_INITIALIZER;
static mon *mons;

static mon *mon_find(jrawMonitorID id) /* under mon_lock */
{
    for (mon *m = mons; m; m = m->next)
        if (m->id == id)
            return m;
    return NULL;
}

/* A monitor the agent did not get from CreateRawMonitor, or destroyed: the
 * VM would take it for one of its own (HotSpot crashes on a made-up one),
 * so it is a finding and is not forwarded, in either mode. NULL is the
 * generated rule's finding, and the VM's to answer. */
static int unknown_monitor(jvmtiEnv *env, const char *function, jrawMonitorID monitor)
{
    if (!monitor)
        return 0;
    pthread_mutex_lock(&mon_lock);
    int known = mon_find(monitor) != NULL;
    pthread_mutex_unlock(&mon_lock);
    if (!known)
        jvmticheck_broke(env, function, "monitor", "must be a raw monitor CreateRawMonitor returned, not destroyed",
                         JVMTI_ERROR_INVALID_MONITOR);
    return !known;
}

/* Whether the calling thread holds a monitor we know (1), not (0), or the
 * monitor is not one the agent created through us (-1: not judged). */
static int held_by_me(jrawMonitorID id)
{
    pthread_mutex_lock(&mon_lock);
    mon *m = mon_find(id);
    int r = !m ? -1 : m->count > 0 && pthread_equal(m->owner, pthread_self());
    pthread_mutex_unlock(&mon_lock);
    return r;
}

jvmtiError jvmticheck_forward_CreateRawMonitor(jvmtiEnv *env, const char *name,
                                               jrawMonitorID *monitor_ptr);
jvmtiError jvmticheck_forward_CreateRawMonitor(jvmtiEnv *env, const char *name,
                                               jrawMonitorID *monitor_ptr)
{
    jvmtiError err = (*REAL(env))->CreateRawMonitor(REAL(env), name, monitor_ptr);
    mon *m = err == JVMTI_ERROR_NONE && monitor_ptr ? calloc(1, sizeof *m) : NULL;
    if (m) {
        m->id = *monitor_ptr;
        pthread_mutex_lock(&mon_lock);
        m->next = mons;
        mons = m;
        pthread_mutex_unlock(&mon_lock);
    }
    return err;
}

jvmtiError jvmticheck_forward_DestroyRawMonitor(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_DestroyRawMonitor(jvmtiEnv *env, jrawMonitorID monitor)
{
    if (unknown_monitor(env, "DestroyRawMonitor", monitor))
        return JVMTI_ERROR_INVALID_MONITOR;
    pthread_mutex_lock(&mon_lock);
    mon **at = &mons;
    while (*at && (*at)->id != monitor)
        at = &(*at)->next;
    int other = *at && (*at)->count > 0 && !pthread_equal((*at)->owner, pthread_self());
    pthread_mutex_unlock(&mon_lock);
    if (other)
        jvmticheck_report(env, "DestroyRawMonitor", "monitor", "must not be destroyed while another thread holds it");
    jvmtiError err = (*REAL(env))->DestroyRawMonitor(REAL(env), monitor);
    if (err == JVMTI_ERROR_NONE) {
        pthread_mutex_lock(&mon_lock);
        for (at = &mons; *at; at = &(*at)->next)
            if ((*at)->id == monitor) {
                mon *gone = *at;
                *at = gone->next;
                free(gone);
                break;
            }
        pthread_mutex_unlock(&mon_lock);
    }
    return err;
}

jvmtiError jvmticheck_forward_RawMonitorEnter(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_RawMonitorEnter(jvmtiEnv *env, jrawMonitorID monitor)
{
    if (unknown_monitor(env, "RawMonitorEnter", monitor))
        return JVMTI_ERROR_INVALID_MONITOR;
    jvmtiError err = (*REAL(env))->RawMonitorEnter(REAL(env), monitor);
    if (err == JVMTI_ERROR_NONE) {
        pthread_mutex_lock(&mon_lock);
        mon *m = mon_find(monitor);
        if (m) {
            m->owner = pthread_self();
            m->count++;
        }
        pthread_mutex_unlock(&mon_lock);
    }
    return err;
}

static void must_hold(jvmtiEnv *env, const char *function, jrawMonitorID monitor)
{
    if (held_by_me(monitor) == 0)
        jvmticheck_report(env, function, "monitor", "must be held by the calling thread (RawMonitorEnter)");
}

jvmtiError jvmticheck_forward_RawMonitorExit(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_RawMonitorExit(jvmtiEnv *env, jrawMonitorID monitor)
{
    if (unknown_monitor(env, "RawMonitorExit", monitor))
        return JVMTI_ERROR_INVALID_MONITOR;
    must_hold(env, "RawMonitorExit", monitor);
    /* The record changes only while its thread holds the VM's monitor:
     * here before the VM's exit (once it is free, a waiter returning from
     * RawMonitorWait writes its own count, which a later decrement would
     * spoil). */
    pthread_mutex_lock(&mon_lock);
    mon *m = mon_find(monitor);
    int dropped = m && m->count > 0 && pthread_equal(m->owner, pthread_self());
    if (dropped)
        m->count--;
    pthread_mutex_unlock(&mon_lock);
    jvmtiError err = (*REAL(env))->RawMonitorExit(REAL(env), monitor);
    if (err != JVMTI_ERROR_NONE && dropped) {
        pthread_mutex_lock(&mon_lock);
        if ((m = mon_find(monitor)) != NULL)
            m->count++;
        pthread_mutex_unlock(&mon_lock);
    }
    return err;
}

jvmtiError jvmticheck_forward_RawMonitorWait(jvmtiEnv *env, jrawMonitorID monitor, jlong millis);
jvmtiError jvmticheck_forward_RawMonitorWait(jvmtiEnv *env, jrawMonitorID monitor, jlong millis)
{
    if (unknown_monitor(env, "RawMonitorWait", monitor))
        return JVMTI_ERROR_INVALID_MONITOR;
    must_hold(env, "RawMonitorWait", monitor);
    /* While waiting the monitor is free for others; it comes back to us,
     * entered as often as before, when the wait ends. */
    int saved = 0;
    pthread_mutex_lock(&mon_lock);
    mon *m = mon_find(monitor);
    if (m && m->count > 0 && pthread_equal(m->owner, pthread_self())) {
        saved = m->count;
        m->count = 0;
    }
    pthread_mutex_unlock(&mon_lock);
    jvmtiError err = (*REAL(env))->RawMonitorWait(REAL(env), monitor, millis);
    if (saved) {
        pthread_mutex_lock(&mon_lock);
        if ((m = mon_find(monitor)) != NULL) {
            m->owner = pthread_self();
            m->count = saved;
        }
        pthread_mutex_unlock(&mon_lock);
    }
    return err;
}

jvmtiError jvmticheck_forward_RawMonitorNotify(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_RawMonitorNotify(jvmtiEnv *env, jrawMonitorID monitor)
{
    if (unknown_monitor(env, "RawMonitorNotify", monitor))
        return JVMTI_ERROR_INVALID_MONITOR;
    must_hold(env, "RawMonitorNotify", monitor);
    return (*REAL(env))->RawMonitorNotify(REAL(env), monitor);
}

jvmtiError jvmticheck_forward_RawMonitorNotifyAll(jvmtiEnv *env, jrawMonitorID monitor);
jvmtiError jvmticheck_forward_RawMonitorNotifyAll(jvmtiEnv *env, jrawMonitorID monitor)
{
    if (unknown_monitor(env, "RawMonitorNotifyAll", monitor))
        return JVMTI_ERROR_INVALID_MONITOR;
    must_hold(env, "RawMonitorNotifyAll", monitor);
    return (*REAL(env))->RawMonitorNotifyAll(REAL(env), monitor);
}
