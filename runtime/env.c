/* Environments: creation through GetEnv, disposal, environment-local
 * storage, the phase, and the core's set-up and tear-down.
 *
 * Disposal while events are posted: DisposeEnvironment marks the
 * environment dead, unlinks it from the list and queues it; it is freed
 * once no posting cursor that might have seen it is open. Cursors count
 * themselves in one of two epochs (rt.posting[rt.epoch]); a grace period
 * flips rt.epoch, and the environments unlinked before the flip are freed
 * as soon as the old epoch's count is zero. New cursors count in the new
 * epoch, so under continuous posting the old count still drains as the
 * posts under way end: disposed environments do not pile up while events
 * keep coming (the host's soak test measures the backlog).
 *
 * Why it is safe: a cursor raises its epoch's count, then reads rt.epoch
 * again and starts over if it changed; only then does it read the list
 * (all sequentially consistent). A cursor that can reach an environment
 * read the list before the unlink, so its second read of rt.epoch came
 * before the flip that follows the unlink: it counts in the old epoch,
 * and the environment waits for it. A callback may dispose of its own
 * environment: its cursor holds the old epoch up until it is done.
 *
 * "Freed" means emptied and put on a free list: slots are never unmapped
 * while the core runs, so a stale jvmtiEnv* finds a dead magic (see
 * free_env). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "jvmtigen_impl.h"
#include "jvmtigen_post.h"
#include "jvmtigen_trace.h"
#include "rt.h"

struct rt_state rt = {.lock = PTHREAD_MUTEX_INITIALIZER};

char *rt_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static jvmtiError check_raw_monitor(jvmtiEnv *env, jrawMonitorID monitor);

jvmtiError jvmtirt_init(const jvmtirt_config *config)
{
    jvmtirt_config c;
    if (!rt_port_take(&c, config))
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    pthread_mutex_lock(&rt.lock);
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
    pthread_mutex_unlock(&rt.lock);
    rt_monitors_init();
    jvmtigen_post_filter_Breakpoint = rt_filter_Breakpoint;
    jvmtigen_post_filter_FieldAccess = rt_filter_FieldAccess;
    jvmtigen_post_filter_FieldModification = rt_filter_FieldModification;
    jvmtigen_post_filter_FramePop = rt_filter_FramePop;
    jvmtigen_vm_hooks h = {0};
    h.check_monitor = check_raw_monitor;
    jvmtigen_set_default_vm_hooks(&h);
    jvmtigen_set_phase(JVMTI_PHASE_ONLOAD);
    return JVMTI_ERROR_NONE;
}

/* Takes e's per-thread settings out of every thread's list. A cursor may
 * stand on one of them (threads read their lists without the lock): n->next
 * stays intact, and n is freed with e, once no cursor is open. Under rt.lock. */
static void unlink_thread_events(rt_env *e)
{
    for (rt_thread *t = rt.threads; t; t = t->next) {
        rt_thread_events **link = &t->events;
        while (*link) {
            rt_thread_events *n = *link;
            if (n->env == e) {
                STORE_SC(link, n->next);
                n->dead_next = e->dead_events;
                e->dead_events = n;
            } else {
                link = &n->next;
            }
        }
    }
}

/* Frees what the core keeps for e outside its slot. Under rt.lock. */
static void free_env_state(rt_env *e)
{
    unlink_thread_events(e);
    for (rt_thread_events *n = e->dead_events, *next; n; n = next) {
        next = n->dead_next;
        free(n);
    }
    e->dead_events = NULL;
    free(e->ext_callbacks);
    e->ext_callbacks = NULL;
    /* ---- per-environment state of the other areas: one line each,
     * rt_<area>_env_freed(e), here ---- */
    rt_objects_env_freed(e);
}

/* Environment slots are never unmapped while the core runs: a disposed
 * environment's slot goes, emptied, to the end of a free list, keeping
 * its function table and its dead magic, so that a stale jvmtiEnv* calls
 * into the trampolines and gets JVMTI_ERROR_INVALID_ENVIRONMENT. A slot is
 * reused (first in, first out) only while more than RT_ENV_RESERVE wait:
 * a stale handle is detected for at least that many later creations, and
 * memory stays bounded by the most environments alive at once. Under
 * rt.lock. */
static void free_env(rt_env *e)
{
    free_env_state(e);
    /* Everything but the head and `disposed`; the head's capabilities word
     * by word, as the trampolines read them; magic stays RT_ENV_DEAD.
     * `disposed` stays 1 throughout: a walk that opens its cursor on a
     * stale handle reads it with no lock (heap.c's walk_begin), and a
     * passing 0 would let it into the state freed here. */
    size_t from = sizeof e->head, at = offsetof(rt_env, disposed),
           past = at + sizeof e->disposed;
    memset((char *)e + from, 0, at - from);
    memset((char *)e + past, 0, sizeof *e - past);
    jvmtiCapabilities none;
    memset(&none, 0, sizeof none);
    jvmtigen_capabilities_store(&e->head.capabilities, &none);
    STORE(&e->disposed, 1);
    if (rt.free_tail)
        rt.free_tail->pending_next = e;
    else
        rt.free_head = e;
    rt.free_tail = e;
    rt.n_free++;
}

/* A slot for a new environment, empty: reused or new. Under rt.lock. */
static rt_env *take_env_slot(void)
{
    if (rt.n_free > RT_ENV_RESERVE) {
        rt_env *e = rt.free_head;
        rt.free_head = e->pending_next;
        if (!rt.free_head)
            rt.free_tail = NULL;
        rt.n_free--;
        e->pending_next = NULL;
        STORE(&e->disposed, 0);
        return e;
    }
    rt_env *e = calloc(1, sizeof *e);
    if (e)
        rt.n_slots++;
    return e;
}

static void destroy_env(rt_env *e)
{
    free_env_state(e);
    free(e);
}

void jvmtirt_shutdown(void)
{
    rt_frames_shutdown();
    pthread_mutex_lock(&rt.lock);
    for (rt_env *e = rt.envs, *next; e; e = next) {
        next = e->next;
        destroy_env(e);
    }
    for (int list = 0; list < 3; list++)
        for (rt_env *e = list == 0 ? rt.pending : list == 1 ? rt.waiting : rt.free_head, *next; e;
             e = next) {
            next = e->pending_next;
            destroy_env(e);
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
    memset(rt.solo_holder, 0, sizeof rt.solo_holder);
    memset(&rt.onload_added, 0, sizeof rt.onload_added);
    rt_free_properties_and_extensions();
    STORE(&jvmtigen_events_on, 0);
    pthread_mutex_unlock(&rt.lock);
    rt_self = NULL;
    rt_monitors_shutdown();
}

/* The versions GetEnv accepts: what JDKs have shipped as JVMTI_VERSION_*
 * (1.0, 1.1, 1.2, 9, 11) and, from 13 on, any minor of any feature
 * release up to this runtime's own. Micro versions are not looked at. */
int jvmtirt_version_supported(jint version)
{
    if ((version & JVMTI_VERSION_MASK_INTERFACE_TYPE) != JVMTI_VERSION_INTERFACE_JVMTI)
        return 0;
    int major = (version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR;
    int minor = (version & JVMTI_VERSION_MASK_MINOR) >> JVMTI_VERSION_SHIFT_MINOR;
    int own = (JVMTI_VERSION & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR;
    switch (major) {
    case 1:
        return minor <= 2;
    case 9:
    case 11:
        return minor == 0;
    default:
        return major >= 13 && major <= own;
    }
}

jint jvmtirt_get_env(void **penv, jint version)
{
    *penv = NULL;
    if (!jvmtirt_version_supported(version))
        return JNI_EVERSION;
    pthread_mutex_lock(&rt.lock);
    rt_env *e = take_env_slot();
    if (!e) {
        pthread_mutex_unlock(&rt.lock);
        return JNI_ENOMEM;
    }
    rt.ext_frozen = 1;
    if (rt.n_ext_events > 0) {
        e->ext_callbacks = calloc((size_t)rt.n_ext_events, sizeof *e->ext_callbacks);
        if (!e->ext_callbacks) {
            free_env(e); /* back to the free list */
            pthread_mutex_unlock(&rt.lock);
            return JNI_ENOMEM;
        }
    }
    e->head.functions = rt.table;
    e->version = version;
    STORE_SC(&e->head.magic, JVMTIGEN_ENV_MAGIC);
    rt_env **tail = &rt.envs;
    while (*tail)
        tail = &(*tail)->next;
    STORE_SC(tail, e); /* fully built before a cursor can reach it */
    rt.n_envs++;
    pthread_mutex_unlock(&rt.lock);
    *penv = e;
    return JNI_OK;
}

jint jvmtirt_env_version(jvmtiEnv *env) { return rt_env_of(env)->version; }

int rt_walk_begin(void)
{
    for (;;) {
        int p = LOAD_SC(&rt.epoch);
        __atomic_add_fetch(&rt.posting[p], 1, __ATOMIC_SEQ_CST);
        if (LOAD_SC(&rt.epoch) == p)
            return p;
        rt_walk_end(p); /* a grace period began meanwhile: count in the new epoch */
    }
}

void rt_walk_end(int p)
{
    /* The last cursor of an epoch frees what waits for it. Its decrement
     * comes before its look at n_pending, and the reclaimer queues before
     * it looks at the count: one of the two sees the other. */
    if (__atomic_sub_fetch(&rt.posting[p], 1, __ATOMIC_SEQ_CST) == 0 &&
        LOAD_SC(&rt.n_pending) != 0)
        rt_reclaim_if_quiet();
}

static int free_list(rt_env *e)
{
    int n = 0;
    for (rt_env *next; e; e = next, n++) {
        next = e->pending_next;
        free_env(e);
    }
    return n;
}

void rt_reclaim_if_quiet(void)
{
    if (LOAD_SC(&rt.n_pending) == 0)
        return;
    pthread_mutex_lock(&rt.lock);
    for (;;) {
        if (rt.waiting) {
            if (LOAD_SC(&rt.posting[rt.waiting_epoch]) != 0)
                break; /* its last cursor will call again */
            int n = free_list(rt.waiting);
            rt.waiting = NULL;
            STORE_SC(&rt.n_pending, rt.n_pending - n);
        }
        if (!rt.pending)
            break;
        /* A grace period: what is pending now was unlinked before the flip;
         * cursors that may hold it count in the epoch being left. */
        rt.waiting = rt.pending;
        rt.pending = NULL;
        rt.waiting_epoch = rt.epoch;
        STORE_SC(&rt.epoch, 1 - rt.epoch);
    }
    pthread_mutex_unlock(&rt.lock);
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
    unlink_thread_events(e);
    rt_frames_env_disposed(e);
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

jvmtiError jvmti_impl_GetEnvironmentLocalStorage(jvmtiEnv *env, void **data_ptr)
{
    *data_ptr = LOAD(&rt_env_of(env)->local_storage);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_SetEnvironmentLocalStorage(jvmtiEnv *env, const void *data)
{
    STORE(&rt_env_of(env)->local_storage, (void *)(uintptr_t)data);
    return JVMTI_ERROR_NONE;
}

void jvmtirt_set_phase(jvmtiPhase phase) { jvmtigen_set_phase(phase); }

jvmtiError jvmti_impl_GetPhase(jvmtiEnv *env, jvmtiPhase *phase_ptr)
{
    (void)env;
    *phase_ptr = JVMTIGEN_PHASE(env);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetVersionNumber(jvmtiEnv *env, jint *version_ptr)
{
    (void)env;
    *version_ptr = JVMTI_VERSION;
    return JVMTI_ERROR_NONE;
}

/* The trampolines' raw monitor check: the core owns raw monitors. */
jvmtiError rt_monitor_check(jrawMonitorID monitor);
static jvmtiError check_raw_monitor(jvmtiEnv *env, jrawMonitorID monitor)
{
    (void)env;
    return rt_monitor_check(monitor);
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
