/* Thread-local storage (Get/SetThreadLocalStorage): one pointer per
 * environment and thread, NULL until set.
 *
 * Each thread record keeps a short list of (environment, value) nodes. The
 * thread reads its own list without a lock (the usual call is
 * GetThreadLocalStorage(env, NULL), often from event callbacks); every
 * change and every look at another thread's list happens under rt.lock,
 * which also keeps that thread's record alive. Nodes are only freed with
 * their thread: when an environment is freed its nodes are cleared
 * (environment NULL) and later reused, so a reader on the thread never
 * stands on freed memory, and a new environment at a freed one's address
 * finds nothing of it. */
#include <stdlib.h>

#include "jvmtigen_impl.h"
#include "rt.h"
#include "threads.h"

typedef struct rt_tls {
    rt_env *env;        /* atomic; NULL: free for reuse */
    void *value;        /* atomic */
    struct rt_tls *next; /* atomic; set before the node is published */
} rt_tls;

static rt_tls *find(rt_thread *t, rt_env *e)
{
    for (rt_tls *n = LOAD(&t->tls); n; n = LOAD(&n->next))
        if (LOAD(&n->env) == e)
            return n;
    return NULL;
}

jvmtiError jvmti_impl_GetThreadLocalStorage(jvmtiEnv *env, jthread thread, void **data_ptr)
{
    rt_env *e = rt_env_of(env);
    if (!thread) { /* the calling thread: its own list, no lock */
        if (!rt_self)
            return JVMTI_ERROR_UNATTACHED_THREAD;
        rt_tls *n = find(rt_self, e);
        *data_ptr = n ? LOAD(&n->value) : NULL;
        return JVMTI_ERROR_NONE;
    }
    pthread_mutex_lock(&rt.lock);
    rt_thread *t;
    jvmtiError err = rt_thread_of_ref(env, thread, &t);
    if (err == JVMTI_ERROR_NONE) {
        rt_tls *n = find(t, e);
        *data_ptr = n ? LOAD(&n->value) : NULL;
    }
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_SetThreadLocalStorage(jvmtiEnv *env, jthread thread, const void *data)
{
    rt_env *e = rt_env_of(env);
    void *value = (void *)(uintptr_t)data;
    pthread_mutex_lock(&rt.lock);
    rt_thread *t;
    jvmtiError err = rt_thread_of_ref(env, thread, &t);
    if (err == JVMTI_ERROR_NONE) {
        rt_tls *n = find(t, e);
        if (n) {
            STORE(&n->value, value);
        } else if (value) { /* NULL is what an absent node means */
            for (n = LOAD(&t->tls); n && LOAD(&n->env); n = LOAD(&n->next))
                ;
            if (n) { /* a cleared node: the value first, so a reader of e sees it */
                STORE(&n->value, value);
                STORE(&n->env, e);
            } else if ((n = calloc(1, sizeof *n)) != NULL) {
                n->env = e;
                n->value = value;
                n->next = t->tls;
                STORE(&t->tls, n);
            } else {
                err = JVMTI_ERROR_OUT_OF_MEMORY;
            }
        }
    }
    pthread_mutex_unlock(&rt.lock);
    return err;
}

static void env_freed(rt_env *e)
{
    for (rt_thread *t = rt.threads; t; t = t->next)
        for (rt_tls *n = t->tls; n; n = n->next)
            if (n->env == e) {
                STORE(&n->env, NULL);
                STORE(&n->value, NULL);
            }
}

static void thread_freed(rt_thread *t)
{
    for (rt_tls *n = t->tls, *next; n; n = next) {
        next = n->next;
        free(n);
    }
    t->tls = NULL;
}

const rt_area rt_area_thread_storage = {.env_freed = env_freed, .thread_freed = thread_freed};
