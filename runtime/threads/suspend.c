/* Suspend and resume (SuspendThread, ResumeThread, their list forms and
 * the all-virtual-threads forms) with the spec's error rules, over the
 * VM's suspend_thread / resume_thread operations.
 *
 * The core keeps whether each thread is suspended (rt_thread.suspended);
 * every change happens under rt.lock, with the VM's operation called
 * inside it, so a suspend and a resume of the same thread never cross. A
 * thread that suspends itself waits on `resumed` (with rt.lock) until
 * another thread resumes it: the VM is only told, never asked to block it,
 * so a resume that comes at once cannot be lost. Only a call that itself
 * suspended its caller blocks it (SuspendThread and SuspendThreadList naming
 * it, as the spec says, and SuspendAllVirtualThreads): a caller that another
 * thread suspended while it ran native code returns from every call, and a
 * resume never blocks its caller (as in HotSpot: it blocks a self-suspender
 * only, and its resumes return at once). */
#include <stdlib.h>

#include "jvmtigen_impl.h"
#include "rt.h"
#include "threads.h"

static pthread_cond_t resumed = PTHREAD_COND_INITIALIZER;

static int available(void) { return rt.config.suspend_thread && rt.config.resume_thread; }

/* Without both operations the six functions answer NOT_AVAILABLE: the port
 * counts them as defaults, so can_suspend is not offered (it was, and
 * AddCapabilities succeeded for functions that could do nothing). */
#define SUSPEND_OPS {RT_OP(suspend_thread), RT_OP(resume_thread)}
static const rt_need needs[] = {
    {RT_SLOT(SuspendThread), SUSPEND_OPS},
    {RT_SLOT(SuspendThreadList), SUSPEND_OPS},
    {RT_SLOT(ResumeThread), SUSPEND_OPS},
    {RT_SLOT(ResumeThreadList), SUSPEND_OPS},
#ifdef JVMTIGEN_HAS_SuspendAllVirtualThreads /* JVM TI 21 on */
    {RT_SLOT(SuspendAllVirtualThreads), SUSPEND_OPS},
    {RT_SLOT(ResumeAllVirtualThreads), SUSPEND_OPS},
#endif
};

const rt_area rt_area_suspend = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};

/* Suspends t; when t is the caller, only marks it (the caller then calls
 * block_self). Under rt.lock. */
static jvmtiError suspend(rt_thread *t)
{
    if (t->suspended)
        return JVMTI_ERROR_THREAD_SUSPENDED;
    jvmtiError err = rt.config.suspend_thread(t->id, t == rt_self);
    if (err == JVMTI_ERROR_NONE) {
        t->suspended = 1;
        STORE_SC(&rt.n_suspended, rt.n_suspended + 1);
    }
    return err;
}

static void block_self(void)
{
    while (rt_self && rt_self->suspended)
        pthread_cond_wait(&resumed, &rt.lock);
}

static jvmtiError resume(rt_thread *t)
{
    if (!t->suspended)
        return JVMTI_ERROR_THREAD_NOT_SUSPENDED;
    jvmtiError err = rt.config.resume_thread(t->id);
    if (err == JVMTI_ERROR_NONE) {
        t->suspended = 0;
        STORE_SC(&rt.n_suspended, rt.n_suspended - 1);
        pthread_cond_broadcast(&resumed); /* it may be blocked in block_self */
    }
    return err;
}

/* A list element: a thread, never NULL (NULL means the current thread only
 * for parameters that say so). Under rt.lock. */
static jvmtiError element(jvmtiEnv *env, jthread thread, rt_thread **out)
{
    if (!thread)
        return JVMTI_ERROR_INVALID_THREAD;
    return rt_thread_of_ref(env, thread, out);
}

/* SuspendThread and ResumeThread: act on one thread, under rt.lock. */
static jvmtiError on_one(jvmtiEnv *env, jthread thread, jvmtiError (*act)(rt_thread *))
{
    if (!available())
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    rt_thread *t;
    jvmtiError err = rt_thread_of_ref(env, thread, &t);
    if (err == JVMTI_ERROR_NONE)
        err = act(t);
    pthread_mutex_unlock(&rt.lock);
    return err;
}

/* The caller suspending itself returns only once resumed. */
static jvmtiError suspend_and_wait(rt_thread *t)
{
    jvmtiError err = suspend(t);
    if (err == JVMTI_ERROR_NONE && t == rt_self)
        block_self();
    return err;
}

jvmtiError jvmti_impl_SuspendThread(jvmtiEnv *env, jthread thread)
{
    return on_one(env, thread, suspend_and_wait);
}

/* The list forms: one result per element, the function itself NONE. The
 * caller's own element comes last, since suspending the caller blocks it
 * (once every other listed thread is suspended); only this call suspending
 * it does: one already suspended by another thread gets THREAD_SUSPENDED
 * and returns. Under rt.lock. */
static jvmtiError on_list(jvmtiEnv *env, jint n, const jthread *list, jvmtiError *results,
                          jvmtiError (*act)(rt_thread *))
{
    if (!available())
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    int self_suspended = 0;
    for (int self_pass = 0; self_pass < 2; self_pass++) {
        for (jint i = 0; i < n; i++) {
            rt_thread *t;
            jvmtiError err = element(env, list[i], &t);
            if (!self_pass)
                results[i] = err;
            if (err == JVMTI_ERROR_NONE && (t == rt_self) == self_pass) {
                results[i] = act(t);
                self_suspended |= self_pass && act == suspend && results[i] == JVMTI_ERROR_NONE;
            }
        }
    }
    if (self_suspended)
        block_self();
    pthread_mutex_unlock(&rt.lock);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_SuspendThreadList(jvmtiEnv *env, jint request_count,
                                        const jthread *request_list, jvmtiError *results)
{
    return on_list(env, request_count, request_list, results, suspend);
}

jvmtiError jvmti_impl_ResumeThread(jvmtiEnv *env, jthread thread)
{
    return on_one(env, thread, resume);
}

jvmtiError jvmti_impl_ResumeThreadList(jvmtiEnv *env, jint request_count,
                                       const jthread *request_list, jvmtiError *results)
{
    return on_list(env, request_count, request_list, results, resume);
}

#ifdef JVMTIGEN_HAS_SuspendAllVirtualThreads /* and ResumeAllVirtualThreads: JVM TI 21 on */
/* The except list's threads, as ids (*ids: malloc'd, or NULL when empty).
 * Every element must be a thread (alive or not). Under rt.lock. */
static jvmtiError except_ids(jvmtiEnv *env, jint n, const jthread *list, uintptr_t **ids)
{
    *ids = NULL;
    if (n == 0)
        return JVMTI_ERROR_NONE;
    if (!list)
        return JVMTI_ERROR_NULL_POINTER;
    uintptr_t *out = malloc((size_t)n * sizeof *out);
    if (!out)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    for (jint i = 0; i < n; i++) {
        jvmtiError err = list[i] ? JVMTIGEN_CHECK_THREAD(env, list[i]) : JVMTI_ERROR_INVALID_THREAD;
        if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_THREAD_NOT_ALIVE) {
            free(out);
            return JVMTI_ERROR_INVALID_THREAD;
        }
        out[i] = rt.config.thread_id ? rt.config.thread_id(list[i]) : (uintptr_t)list[i];
    }
    *ids = out;
    return JVMTI_ERROR_NONE;
}

/* Whether t is a virtual thread not in the except list. */
static int chosen(const rt_thread *t, const uintptr_t *ids, jint n)
{
    if (!rt.config.thread_is_virtual || !rt.config.thread_is_virtual(t->id))
        return 0;
    for (jint i = 0; i < n; i++)
        if (ids[i] == t->id)
            return 0;
    return 1;
}

/* The all-virtual-threads forms: act on every virtual thread not excepted,
 * the caller last; one already in the state asked for does not change (act
 * answers THREAD_SUSPENDED or THREAD_NOT_SUSPENDED without asking the VM),
 * and one the VM cannot change is left as it is. The caller blocks only
 * when this call suspended it. */
static jvmtiError on_virtual(jvmtiEnv *env, jint except_count, const jthread *except_list,
                             jvmtiError (*act)(rt_thread *))
{
    if (!available())
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    uintptr_t *ids;
    jvmtiError err = except_ids(env, except_count, except_list, &ids);
    int self_suspended = 0;
    for (int self_pass = 0; err == JVMTI_ERROR_NONE && self_pass < 2; self_pass++)
        for (rt_thread *t = rt.threads; t; t = t->next)
            if ((t == rt_self) == self_pass && chosen(t, ids, except_count))
                self_suspended |= act(t) == JVMTI_ERROR_NONE && self_pass && act == suspend;
    free(ids);
    if (self_suspended)
        block_self();
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_SuspendAllVirtualThreads(jvmtiEnv *env, jint except_count,
                                               const jthread *except_list)
{
    return on_virtual(env, except_count, except_list, suspend);
}

jvmtiError jvmti_impl_ResumeAllVirtualThreads(jvmtiEnv *env, jint except_count,
                                              const jthread *except_list)
{
    return on_virtual(env, except_count, except_list, resume);
}
#endif
