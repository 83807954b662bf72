/* Suspend and resume (SuspendThread, ResumeThread, their list forms and
 * the all-virtual-threads forms) with the spec's error rules, over the
 * VM's suspend_thread / resume_thread operations.
 *
 * The core keeps whether each thread is suspended (rt_thread.suspended);
 * every change happens under rt.lock, with the VM's operation called
 * inside it, so a suspend and a resume of the same thread never cross. A
 * thread that suspends itself waits on `resumed` (with rt.lock) until
 * another thread resumes it: the VM is only told, never asked to block it,
 * so a resume that comes at once cannot be lost. */
#include <stdlib.h>

#include "jvmtigen_impl.h"
#include "rt.h"

static pthread_cond_t resumed = PTHREAD_COND_INITIALIZER;

static int available(void) { return rt.config.suspend_thread && rt.config.resume_thread; }

/* Suspends t (not the caller). Under rt.lock. */
static jvmtiError suspend_other(rt_thread *t)
{
    if (t->suspended)
        return JVMTI_ERROR_THREAD_SUSPENDED;
    jvmtiError err = rt.config.suspend_thread(t->id, 0);
    if (err == JVMTI_ERROR_NONE)
        t->suspended = 1;
    return err;
}

/* Marks the caller suspended; the caller then calls block_self. */
static jvmtiError suspend_self(void)
{
    if (rt_self->suspended)
        return JVMTI_ERROR_THREAD_SUSPENDED;
    jvmtiError err = rt.config.suspend_thread(rt_self->id, 1);
    if (err == JVMTI_ERROR_NONE)
        rt_self->suspended = 1;
    return err;
}

static void block_self(void)
{
    while (rt_self->suspended)
        pthread_cond_wait(&resumed, &rt.lock);
}

static jvmtiError resume(rt_thread *t)
{
    if (!t->suspended)
        return JVMTI_ERROR_THREAD_NOT_SUSPENDED;
    jvmtiError err = rt.config.resume_thread(t->id);
    if (err == JVMTI_ERROR_NONE) {
        t->suspended = 0;
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

jvmtiError jvmti_impl_SuspendThread(jvmtiEnv *env, jthread thread)
{
    if (!available())
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    rt_thread *t;
    jvmtiError err = rt_thread_of_ref(env, thread, &t);
    if (err == JVMTI_ERROR_NONE && t == rt_self) {
        err = suspend_self();
        if (err == JVMTI_ERROR_NONE)
            block_self();
    } else if (err == JVMTI_ERROR_NONE) {
        err = suspend_other(t);
    }
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_SuspendThreadList(jvmtiEnv *env, jint request_count,
                                        const jthread *request_list, jvmtiError *results)
{
    if (!available())
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    /* Every other thread first; the caller last, since it then blocks. */
    int self_listed = 0;
    for (jint i = 0; i < request_count; i++) {
        rt_thread *t;
        results[i] = element(env, request_list[i], &t);
        if (results[i] != JVMTI_ERROR_NONE)
            continue;
        if (t == rt_self)
            self_listed = 1; /* decided below */
        else
            results[i] = suspend_other(t);
    }
    int block = 0;
    for (jint i = 0; self_listed && i < request_count; i++) {
        rt_thread *t;
        if (results[i] == JVMTI_ERROR_NONE && element(env, request_list[i], &t) == JVMTI_ERROR_NONE &&
            t == rt_self) {
            results[i] = suspend_self(); /* a second mention: already suspended */
            block |= results[i] == JVMTI_ERROR_NONE;
        }
    }
    if (block)
        block_self();
    pthread_mutex_unlock(&rt.lock);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_ResumeThread(jvmtiEnv *env, jthread thread)
{
    if (!available())
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    rt_thread *t;
    jvmtiError err = rt_thread_of_ref(env, thread, &t);
    if (err == JVMTI_ERROR_NONE)
        err = resume(t);
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_ResumeThreadList(jvmtiEnv *env, jint request_count,
                                       const jthread *request_list, jvmtiError *results)
{
    if (!available())
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    for (jint i = 0; i < request_count; i++) {
        rt_thread *t;
        results[i] = element(env, request_list[i], &t);
        if (results[i] == JVMTI_ERROR_NONE)
            results[i] = resume(t);
    }
    pthread_mutex_unlock(&rt.lock);
    return JVMTI_ERROR_NONE;
}

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

jvmtiError jvmti_impl_SuspendAllVirtualThreads(jvmtiEnv *env, jint except_count,
                                               const jthread *except_list)
{
    if (!available())
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    uintptr_t *ids;
    jvmtiError err = except_ids(env, except_count, except_list, &ids);
    int self = 0;
    for (rt_thread *t = rt.threads; err == JVMTI_ERROR_NONE && t; t = t->next) {
        if (t->suspended || !chosen(t, ids, except_count))
            continue; /* suspended ones do not change state */
        if (t == rt_self)
            self = 1;
        else
            suspend_other(t); /* a thread that cannot be suspended is left running */
    }
    if (self && suspend_self() == JVMTI_ERROR_NONE)
        block_self();
    free(ids);
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_ResumeAllVirtualThreads(jvmtiEnv *env, jint except_count,
                                              const jthread *except_list)
{
    if (!available())
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    uintptr_t *ids;
    jvmtiError err = except_ids(env, except_count, except_list, &ids);
    for (rt_thread *t = rt.threads; err == JVMTI_ERROR_NONE && t; t = t->next)
        if (t->suspended && chosen(t, ids, except_count))
            resume(t);
    free(ids);
    pthread_mutex_unlock(&rt.lock);
    return err;
}
