/* The core's life: jvmtirt_init, DisposeEnvironment, a thread's start and
 * end, jvmtirt_shutdown. Each walks the areas' hooks (rt_areas,
 * lifecycle/areas.c) rather than calling an area by name, so every area
 * stays below this file. Locks: base/rt.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envs.h"
#include "jvmtigen_impl.h"
#include "jvmtigen_trace.h"
#include "lifecycle.h"
#include "rt.h"
#include "threads.h"

/* Each area's hook of that name, in the table's order, called with ARGS
 * (in parentheses). */
#define EACH_AREA(hook, ARGS)                                                                      \
    do {                                                                                           \
        for (const rt_area *const *a_ = rt_areas; *a_; a_++)                                       \
            if ((*a_)->hook)                                                                       \
                (*a_)->hook ARGS;                                                                  \
    } while (0)

jvmtiError jvmtirt_init(const jvmtirt_config *config)
{
    jvmtirt_config c;
    if (LOAD(&rt.ready)) {
        fprintf(stderr, "jvmtirt: error: jvmtirt_init called a second time: refused (the core "
                        "keeps its first config; jvmtirt_shutdown ends it)\n");
        return JVMTI_ERROR_WRONG_PHASE;
    }
    if (!rt_port_take(&c, config))
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    /* The VM's identity operations, tried on its samples before anything
     * is set up (they are called with no lock of the core held). */
    jvmtiError wrong = rt_port_verify(&c);
    if (wrong != JVMTI_ERROR_NONE)
        return wrong;
    pthread_mutex_lock(&rt.lock);
    rt.areas = rt_areas;
    rt.config = c;
    if (rt.config.jlocation_format == 0)
        rt.config.jlocation_format = JVMTI_JLOCATION_JVMBCI;
    jvmtiError refused = rt_port_apply(&rt.config);
    if (refused != JVMTI_ERROR_NONE) {
        memset(&rt.config, 0, sizeof rt.config);
        pthread_mutex_unlock(&rt.lock);
        return refused;
    }
    /* The VM cannot offer what it does not have. */
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++) {
        if (!jvmtirt_capability_get(&rt.config.potential, b)) {
            jvmtirt_capability_set(&rt.config.onload_only, b, 0);
            jvmtirt_capability_set(&rt.config.solo, b, 0);
        }
    }
    rt.table = jvmtigen_trace_configure_from_env() != 0 ? &jvmtigen_traced_functions
                                                        : &jvmtigen_functions;
    STORE(&rt.ready, 1);
    pthread_mutex_unlock(&rt.lock);
    EACH_AREA(started, ());
    jvmtigen_set_phase(JVMTI_PHASE_ONLOAD);
    return JVMTI_ERROR_NONE;
}

void jvmtirt_shutdown(void)
{
    pthread_mutex_lock(&rt.lock);
    EACH_AREA(shutdown, ());
    for (rt_env *e = rt.envs, *next; e; e = next) {
        next = e->next;
        rt_env_destroy(e);
    }
    for (int list = 0; list < 3; list++)
        for (rt_env *e = list == 0 ? rt.pending : list == 1 ? rt.waiting : rt.free_head, *next; e;
             e = next) {
            next = e->pending_next;
            rt_env_destroy(e);
        }
    rt.free_head = rt.free_tail = NULL;
    rt.n_free = rt.n_slots = 0;
    rt.envs = rt.pending = rt.waiting = NULL;
    rt.n_pending = 0;
    rt.n_envs = 0;
    for (rt_thread *t = rt.threads, *next; t; t = next) {
        next = t->next;
        free(t);
    }
    rt.threads = NULL;
    rt.n_threads = 0;
    STORE_SC(&rt.n_suspended, 0);
    memset(rt.solo_holder, 0, sizeof rt.solo_holder);
    memset(&rt.onload_added, 0, sizeof rt.onload_added);
    STORE(&jvmtigen_events_on, 0);
    STORE(&rt.ready, 0);
    pthread_mutex_unlock(&rt.lock);
    rt_self = NULL;
}

jvmtiError jvmti_impl_DisposeEnvironment(jvmtiEnv *env)
{
    rt_env *e = rt_env_of(env);
    pthread_mutex_lock(&rt.lock);
    if (LOAD(&e->disposed)) { /* lost a race with another Dispose */
        pthread_mutex_unlock(&rt.lock);
        return JVMTI_ERROR_INVALID_ENVIRONMENT;
    }
    STORE(&e->head.magic, RT_ENV_DEAD);
    STORE(&e->disposed, 1);
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++)
        if (rt.solo_holder[b] == e)
            rt.solo_holder[b] = NULL;
    for (rt_env **link = &rt.envs; *link; link = &(*link)->next) {
        if (*link == e) {
            STORE_SC(link, e->next);
            break;
        }
    }
    rt.n_envs--;
    rt_env_unlink_thread_events(e);
    EACH_AREA(env_disposed, (e));
    rt_events_recompute();
    pthread_mutex_unlock(&rt.lock);
    /* Unlinked but not queued: nothing reclaims it while the VM looks. */
    if (rt.config.env_disposed)
        rt.config.env_disposed(env);
    pthread_mutex_lock(&rt.lock);
    e->pending_next = rt.pending;
    rt.pending = e;
    STORE_SC(&rt.n_pending, rt.n_pending + 1);
    pthread_mutex_unlock(&rt.lock);
    rt_reclaim_if_quiet();
    return JVMTI_ERROR_NONE;
}

/* Takes t out of the registry and frees it. Under rt.lock. */
static void unlink_thread(rt_thread *t)
{
    for (rt_thread **link = &rt.threads; *link; link = &(*link)->next) {
        if (*link == t) {
            *link = t->next;
            rt.n_threads--;
            if (t->suspended)
                STORE_SC(&rt.n_suspended, rt.n_suspended - 1);
            break;
        }
    }
    for (rt_thread_events *n = t->events, *next; n; n = next) {
        next = n->next;
        free(n);
    }
    EACH_AREA(thread_freed, (t));
    free(t);
}

void jvmtirt_thread_start(uintptr_t id, jvmtirt_thread_kind kind)
{
    if (!rt_ready("jvmtirt_thread_start"))
        return;
    rt_thread *t = calloc(1, sizeof *t);
    pthread_mutex_lock(&rt.lock);
    if (rt_self) /* started twice: the new identity replaces the old */
        unlink_thread(rt_self);
    if (t) {
        t->id = id;
        t->kind = kind;
        /* A thread RunAgentThread is starting is an agent thread before any
         * query can see it (in no thread group). */
        for (rt_agent_start **a = &rt.agent_starts; *a; a = &(*a)->next)
            if ((*a)->id == id) {
                t->agent = 1;
                *a = (*a)->next;
                break;
            }
        t->pthread = pthread_self();
        t->next = rt.threads;
        rt.threads = t;
        rt.n_threads++;
    }
    rt_self = t;
    rt_events_recompute();
    pthread_mutex_unlock(&rt.lock);
    jvmtigen_vm_threads_started();
    jvmtigen_thread_attached(kind);
}

void jvmtirt_thread_end(void)
{
    EACH_AREA(thread_ended, (jvmtirt_current_thread_id()));
    pthread_mutex_lock(&rt.lock);
    if (rt_self) {
        unlink_thread(rt_self);
        rt_self = NULL;
        rt_events_recompute();
    }
    pthread_mutex_unlock(&rt.lock);
    jvmtigen_thread_attached(JVMTIRT_UNATTACHED);
}

void jvmtirt_get_stats(jvmtirt_stats *out)
{
    pthread_mutex_lock(&rt.lock);
    out->environments = rt.n_envs;
    out->pending_disposal = LOAD(&rt.n_pending);
    out->threads = rt.n_threads;
    out->env_slots = rt.n_slots;
    out->env_slot_bytes = rt.n_slots * (long)sizeof(rt_env);
    pthread_mutex_unlock(&rt.lock);
    out->raw_monitors = rt_monitor_count();
}
