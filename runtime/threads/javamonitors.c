/* Java monitors (the objects' monitors, not raw monitors):
 * GetOwnedMonitorInfo, GetOwnedMonitorStackDepthInfo,
 * GetCurrentContendedMonitor and GetObjectMonitorUsage over the VM's
 * owned_monitors, contended_monitor and monitor_usage. The core resolves
 * the thread, lays out what the agent Deallocates, turns thread ids into
 * thread objects (platform threads only, as the spec says of the usage) and
 * gives back through release_ref what it does not hand over; the VM only
 * reports what a thread holds or waits for. No state per environment. */
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_impl.h"
#include "rt.h"
#include "threads.h"

static const rt_need needs[] = {
    {RT_SLOT(GetOwnedMonitorInfo), {RT_OP(owned_monitors)}},
    {RT_SLOT(GetOwnedMonitorStackDepthInfo), {RT_OP(owned_monitors)}},
    {RT_SLOT(GetCurrentContendedMonitor), {RT_OP(contended_monitor)}},
    {RT_SLOT(GetObjectMonitorUsage), {RT_OP(monitor_usage)}},
};

const rt_area rt_area_javamonitors = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};

/* What owned_monitors visits, grown as it goes. */
typedef struct owned {
    jvmtiMonitorStackDepthInfo *at;
    size_t n, cap;
    int oom;
} owned;

static int add_owned(void *arg, jobject monitor, jint depth)
{
    owned *o = arg;
    if (!monitor)
        return 0;
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 8;
        jvmtiMonitorStackDepthInfo *at = cap <= INT32_MAX ? realloc(o->at, cap * sizeof *at) : NULL;
        if (!at) {
            o->oom = 1;
            rt_release_ref(monitor);
            return 1; /* stops the VM's walk */
        }
        o->at = at;
        o->cap = cap;
    }
    o->at[o->n].monitor = monitor;
    o->at[o->n++].stack_depth = depth < 0 ? -1 : depth;
    return 0;
}

/* The monitors the thread (NULL: the caller) owns, in *o; on an error
 * nothing is left to release. */
static jvmtiError owned_of(jvmtiEnv *env, jthread thread, owned *o)
{
    memset(o, 0, sizeof *o);
    if (!rt.config.owned_monitors)
        return JVMTI_ERROR_NOT_AVAILABLE;
    uintptr_t id;
    jvmtiError err = jvmtirt_resolve_thread(env, thread, 1, &id);
    if (err == JVMTI_ERROR_NONE)
        err = rt.config.owned_monitors(id, add_owned, o);
    if (err == JVMTI_ERROR_NONE && o->oom)
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    if (err != JVMTI_ERROR_NONE) {
        for (size_t i = 0; i < o->n; i++)
            rt_release_ref(o->at[i].monitor);
        free(o->at);
        o->at = NULL;
        o->n = 0;
    }
    return err;
}

/* GetOwnedMonitorInfo (with_depths 0: an array of jobject) and
 * GetOwnedMonitorStackDepthInfo (1: of jvmtiMonitorStackDepthInfo). */
static jvmtiError owned_out(jvmtiEnv *env, jthread thread, int with_depths, jint *count_ptr,
                            void **out_ptr)
{
    owned o;
    jvmtiError err = owned_of(env, thread, &o);
    size_t size = with_depths ? sizeof *o.at : sizeof o.at->monitor;
    unsigned char *out = NULL;
    if (err == JVMTI_ERROR_NONE)
        err = jvmti_impl_Allocate(env, (jlong)(o.n * size), &out);
    for (size_t i = 0; i < o.n; i++) {
        if (err != JVMTI_ERROR_NONE)
            rt_release_ref(o.at[i].monitor);
        else if (with_depths)
            memcpy(out + i * size, &o.at[i], size);
        else
            memcpy(out + i * size, &o.at[i].monitor, size);
    }
    if (err == JVMTI_ERROR_NONE) {
        *count_ptr = (jint)o.n;
        *out_ptr = out;
    }
    free(o.at);
    return err;
}

jvmtiError jvmti_impl_GetOwnedMonitorInfo(jvmtiEnv *env, jthread thread,
                                          jint *owned_monitor_count_ptr,
                                          jobject **owned_monitors_ptr)
{
    return owned_out(env, thread, 0, owned_monitor_count_ptr, (void **)owned_monitors_ptr);
}

jvmtiError jvmti_impl_GetOwnedMonitorStackDepthInfo(jvmtiEnv *env, jthread thread,
                                                    jint *monitor_info_count_ptr,
                                                    jvmtiMonitorStackDepthInfo **monitor_info_ptr)
{
    return owned_out(env, thread, 1, monitor_info_count_ptr, (void **)monitor_info_ptr);
}

jvmtiError jvmti_impl_GetCurrentContendedMonitor(jvmtiEnv *env, jthread thread,
                                                 jobject *monitor_ptr)
{
    if (!rt.config.contended_monitor)
        return JVMTI_ERROR_NOT_AVAILABLE;
    uintptr_t id;
    jvmtiError err = jvmtirt_resolve_thread(env, thread, 1, &id);
    jobject monitor = NULL;
    if (err == JVMTI_ERROR_NONE)
        err = rt.config.contended_monitor(id, &monitor);
    if (err != JVMTI_ERROR_NONE) {
        rt_release_ref(monitor);
        return err;
    }
    *monitor_ptr = monitor;
    return JVMTI_ERROR_NONE;
}

/* The ids monitor_usage visits: waiting to own (0) and to be notified (1). */
typedef struct waiting {
    uintptr_t *ids[2];
    size_t n[2], cap[2];
    int oom;
} waiting;

static int add_waiting(void *arg, int notify, uintptr_t thread_id)
{
    waiting *w = arg;
    int k = notify ? 1 : 0;
    if (w->n[k] == w->cap[k]) {
        size_t cap = w->cap[k] ? w->cap[k] * 2 : 8;
        uintptr_t *ids = cap <= INT32_MAX ? realloc(w->ids[k], cap * sizeof *ids) : NULL;
        if (!ids) {
            w->oom = 1;
            return 1;
        }
        w->ids[k] = ids;
        w->cap[k] = cap;
    }
    w->ids[k][w->n[k]++] = thread_id;
    return 0;
}

static int is_virtual(uintptr_t id)
{
    if (!rt.config.thread_is_virtual)
        return 0;
    pthread_mutex_lock(&rt.lock); /* thread_is_virtual is called under it */
    int v = rt.config.thread_is_virtual(id);
    pthread_mutex_unlock(&rt.lock);
    return v;
}

static jthread thread_of(uintptr_t id)
{
    return rt.config.thread_ref ? rt.config.thread_ref(id) : (jthread)id;
}

/* The platform threads among ids as an array the agent Deallocates, in
 * *out (NULL when there are none), and their number in *count. */
static jvmtiError threads_of(jvmtiEnv *env, const uintptr_t *ids, size_t n, jint *count,
                             jthread **out)
{
    jthread *threads = NULL;
    jvmtiError err =
        jvmti_impl_Allocate(env, (jlong)(n * sizeof *threads), (unsigned char **)(void *)&threads);
    if (err != JVMTI_ERROR_NONE)
        return err;
    jint kept = 0;
    for (size_t i = 0; i < n; i++) {
        jthread t = is_virtual(ids[i]) ? NULL : thread_of(ids[i]);
        if (t)
            threads[kept++] = t;
    }
    if (kept == 0) {
        jvmti_impl_Deallocate(env, (unsigned char *)threads);
        threads = NULL;
    }
    *count = kept;
    *out = threads;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetObjectMonitorUsage(jvmtiEnv *env, jobject object,
                                            jvmtiMonitorUsage *info_ptr)
{
    if (!rt.config.monitor_usage)
        return JVMTI_ERROR_NOT_AVAILABLE;
    if (!object)
        return JVMTI_ERROR_INVALID_OBJECT;
    uintptr_t owner = 0;
    jint entries = 0;
    waiting w;
    memset(&w, 0, sizeof w);
    jvmtiError err = rt.config.monitor_usage(object, &owner, &entries, add_waiting, &w);
    if (err == JVMTI_ERROR_NONE && w.oom)
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    jvmtiMonitorUsage u;
    memset(&u, 0, sizeof u);
    if (err == JVMTI_ERROR_NONE)
        err = threads_of(env, w.ids[0], w.n[0], &u.waiter_count, &u.waiters);
    if (err == JVMTI_ERROR_NONE) {
        err = threads_of(env, w.ids[1], w.n[1], &u.notify_waiter_count, &u.notify_waiters);
        if (err != JVMTI_ERROR_NONE) {
            for (jint i = 0; i < u.waiter_count; i++)
                rt_release_ref(u.waiters[i]);
            jvmti_impl_Deallocate(env, (unsigned char *)u.waiters);
        }
    }
    free(w.ids[0]);
    free(w.ids[1]);
    if (err != JVMTI_ERROR_NONE)
        return err;
    /* Owned by a virtual thread: no owner and no count, as the spec says. */
    if (owner && !is_virtual(owner) && (u.owner = thread_of(owner)) != NULL)
        u.entry_count = entries;
    *info_ptr = u;
    return JVMTI_ERROR_NONE;
}
