/* The thread registry: a record per thread the VM started (per-thread
 * event settings, thread-local storage, suspension, raw monitor
 * interrupts), and the resolution of a jthread argument to its record.
 * Records are made and freed by the lifecycle (jvmtirt_thread_start/_end,
 * lifecycle/lifecycle.c). */
#include <stdlib.h>

#include "rt.h"

JVMTIGEN_TLS rt_thread *rt_self;
rt_thread *rt_thread_find(uintptr_t id)
{
    for (rt_thread *t = rt.threads; t; t = t->next)
        if (t->id == id)
            return t;
    return NULL;
}

uintptr_t jvmtirt_current_thread_id(void) { return rt_self ? rt_self->id : 0; }

jvmtiError rt_thread_of_ref(jvmtiEnv *env, jthread thread, rt_thread **out)
{
    if (!thread) {
        *out = rt_self;
        return rt_self ? JVMTI_ERROR_NONE : JVMTI_ERROR_UNATTACHED_THREAD;
    }
    jvmtiError err = JVMTIGEN_CHECK_THREAD(env, thread);
    if (err != JVMTI_ERROR_NONE)
        return err;
    uintptr_t id = rt.config.thread_id ? rt.config.thread_id(thread) : (uintptr_t)thread;
    *out = rt_thread_find(id);
    return *out ? JVMTI_ERROR_NONE : JVMTI_ERROR_THREAD_NOT_ALIVE;
}

jvmtiError jvmtirt_resolve_thread(jvmtiEnv *env, jthread thread, int null_is_current,
                                  uintptr_t *id_out)
{
    uintptr_t id;
    if (thread == NULL) {
        if (!null_is_current)
            return JVMTI_ERROR_INVALID_THREAD;
        /* rt_self is the calling thread's own record: no lock needed. */
        if (!rt_self)
            return JVMTI_ERROR_UNATTACHED_THREAD;
        id = rt_self->id;
    } else {
        if (rt.config.check_thread) {
            jvmtiError err = rt.config.check_thread(env, thread);
            if (err != JVMTI_ERROR_NONE)
                return err;
        }
        id = rt.config.thread_id ? rt.config.thread_id(thread) : (uintptr_t)thread;
        /* Alive: started (jvmtirt_thread_start) and not ended. */
        pthread_mutex_lock(&rt.lock);
        int alive = rt_thread_find(id) != NULL;
        pthread_mutex_unlock(&rt.lock);
        if (!alive)
            return JVMTI_ERROR_THREAD_NOT_ALIVE;
    }
    if (id_out)
        *id_out = id;
    return JVMTI_ERROR_NONE;
}
