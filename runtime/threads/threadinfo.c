/* GetCurrentThread, GetAllThreads and GetThreadInfo over the core's thread
 * records and two small operations of the VM (config.thread_ref,
 * config.thread_info); GetThreadState over the stack walk's state
 * (config.walk_stacks). The core chooses the threads, resolves NULL to the
 * caller, adds what it knows itself (suspension) and lays out what the agent
 * Deallocates. */
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_impl.h"
#include "rt.h"
#include "threads.h"

/* GetThreadInfo needs thread_ref too: NULL is the current thread. */
static const rt_need needs[] = {
    {RT_SLOT(GetCurrentThread), {RT_OP(thread_ref)}},
    {RT_SLOT(GetAllThreads), {RT_OP(thread_ref)}},
    {RT_SLOT(GetThreadInfo), {RT_OP(thread_info), RT_OP(thread_ref)}},
    {RT_SLOT(GetThreadState), {RT_OP(walk_stacks)}},
};

const rt_area rt_area_threadinfo = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};

jvmtiError jvmti_impl_GetCurrentThread(jvmtiEnv *env, jthread *thread_ptr)
{
    (void)env;
    if (!rt.config.thread_ref)
        return JVMTI_ERROR_NOT_AVAILABLE;
    /* rt_self is the calling thread's own record: no lock needed. */
    if (!rt_self)
        return JVMTI_ERROR_UNATTACHED_THREAD;
    *thread_ptr = rt.config.thread_ref(rt_self->id);
    return JVMTI_ERROR_NONE;
}

/* The live platform threads: every Java thread started and not ended (the
 * VM's own threads and virtual threads are not listed), in start order. */
jvmtiError rt_all_threads(jvmtiEnv *env, jint *count_ptr, jthread **threads_ptr,
                          uintptr_t **ids_ptr)
{
    if (!rt.config.thread_ref)
        return JVMTI_ERROR_NOT_AVAILABLE;
    /* The ids are taken under rt.lock, the references without it (the VM
     * is asked with no lock of the core held): a thread that ended in
     * between has no reference and is left out. */
    pthread_mutex_lock(&rt.lock);
    size_t n = 0;
    uintptr_t *ids = malloc((rt.n_threads > 0 ? (size_t)rt.n_threads : 1) * sizeof *ids);
    for (rt_thread *t = rt.threads; ids && t; t = t->next)
        if (t->kind == JVMTIRT_JAVA_THREAD &&
            !(rt.config.thread_is_virtual && rt.config.thread_is_virtual(t->id)))
            ids[n++] = t->id;
    pthread_mutex_unlock(&rt.lock);
    if (!ids)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    uintptr_t *listed = ids_ptr ? malloc((n > 0 ? n : 1) * sizeof *listed) : NULL;
    unsigned char *mem = NULL;
    jvmtiError err = ids_ptr && !listed ? JVMTI_ERROR_OUT_OF_MEMORY
                                        : jvmti_impl_Allocate(env, (jlong)(n * sizeof(jthread)), &mem);
    if (err == JVMTI_ERROR_NONE) {
        jthread *out = (jthread *)(void *)mem;
        jint count = 0;
        for (size_t i = n; i-- > 0;) { /* the registry is newest first */
            jthread t = rt.config.thread_ref(ids[i]);
            if (t) {
                if (listed)
                    listed[count] = ids[i];
                out[count++] = t;
            }
        }
        *count_ptr = count;
        *threads_ptr = out;
        if (ids_ptr)
            *ids_ptr = listed;
    } else {
        free(listed);
    }
    free(ids);
    return err;
}

jvmtiError jvmti_impl_GetAllThreads(jvmtiEnv *env, jint *threads_count_ptr,
                                    jthread **threads_ptr)
{
    return rt_all_threads(env, threads_count_ptr, threads_ptr, NULL);
}

/* The stack walk's state of one thread, stopped before its first frame;
 * SUSPENDED added where the core holds the thread suspended. */
static int stop_at_once(void *arg, jint index, jmethodID method, jlocation location)
{
    (void)arg, (void)index, (void)method, (void)location;
    return 1;
}

jvmtiError jvmti_impl_GetThreadState(jvmtiEnv *env, jthread thread, jint *thread_state_ptr)
{
    if (!rt.config.walk_stacks && !rt.config.thread_state)
        return JVMTI_ERROR_NOT_AVAILABLE;
    uintptr_t id;
    if (thread == NULL) {
        jvmtiError err = jvmtirt_resolve_thread(env, NULL, 1, &id);
        if (err != JVMTI_ERROR_NONE)
            return err;
    } else {
        /* A thread not started or ended has a state too (0, TERMINATED):
         * only what is no thread at all is an error. */
        if (rt.config.check_thread &&
            rt.config.check_thread(env, thread) == JVMTI_ERROR_INVALID_THREAD)
            return JVMTI_ERROR_INVALID_THREAD;
        id = rt.config.thread_id ? rt.config.thread_id(thread) : (uintptr_t)thread;
    }
    jint state = 0;
    if (rt.config.thread_state) {
        state = rt.config.thread_state(id); /* the VM's state read, no walk */
    } else {
        jvmtiError err = rt.config.walk_stacks(&id, 1, &state, stop_at_once, NULL);
        if (err != JVMTI_ERROR_NONE)
            return err;
    }
    /* No thread suspended through JVM TI (the usual case): nothing to add,
     * and no lock taken. A suspend that races with this call may or may
     * not be seen, as with the lock. */
    if ((state & JVMTI_THREAD_STATE_ALIVE) && LOAD_SC(&rt.n_suspended) > 0) {
        pthread_mutex_lock(&rt.lock);
        rt_thread *t = rt_thread_find(id);
        if (t && t->suspended)
            state |= JVMTI_THREAD_STATE_SUSPENDED;
        pthread_mutex_unlock(&rt.lock);
    }
    *thread_state_ptr = state;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetThreadInfo(jvmtiEnv *env, jthread thread, jvmtiThreadInfo *info_ptr)
{
    if (!rt.config.thread_info || (!thread && !rt.config.thread_ref))
        return JVMTI_ERROR_NOT_AVAILABLE;
    jthread own = NULL; /* the current thread's object, asked for here */
    if (thread == NULL) {
        if (!rt_self)
            return JVMTI_ERROR_UNATTACHED_THREAD;
        thread = own = rt.config.thread_ref(rt_self->id);
        if (!thread) /* no thread object yet (the start phase), as HotSpot answers */
            return JVMTI_ERROR_INVALID_THREAD;
    } else if (rt.config.check_thread) {
        /* Any thread object, started or not, ended or not, has its info. */
        jvmtiError err = rt.config.check_thread(env, thread);
        if (err == JVMTI_ERROR_INVALID_THREAD)
            return err;
    }
    jvmtirt_thread_info in = {0};
    jvmtiError err = rt.config.thread_info(thread, &in);
    rt_release_ref(own);
    if (err != JVMTI_ERROR_NONE)
        return err;
    const char *name = in.name ? in.name : "";
    unsigned char *copy = NULL;
    err = jvmti_impl_Allocate(env, (jlong)strlen(name) + 1, &copy);
    if (err != JVMTI_ERROR_NONE) {
        rt_release_ref(in.thread_group);
        rt_release_ref(in.context_class_loader);
        return err;
    }
    memcpy(copy, name, strlen(name) + 1);
    info_ptr->name = (char *)copy;
    info_ptr->priority = in.priority;
    info_ptr->is_daemon = in.is_daemon ? JNI_TRUE : JNI_FALSE;
    info_ptr->thread_group = in.thread_group;
    info_ptr->context_class_loader = in.context_class_loader;
    return JVMTI_ERROR_NONE;
}
