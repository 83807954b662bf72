/* The host's side of the core's stacks and classes: each thread's stack of
 * frames, walked for GetStackTrace, GetThreadState and the other stack
 * functions (config.walk_stacks), and the class enumeration
 * (config.each_class). (GetAllThreads is the core's, from its records of
 * the threads the host started.)
 *
 * How a thread's stack is walked while the thread runs: a thread changes
 * its own stack only under stacks_lock (push, at, pop), and the walk holds
 * stacks_lock while it reads every stack it was asked for. So all of them
 * are sampled at one moment, as GetAllStackTraces wants, without stopping
 * any thread; a VM with a real interpreter would instead bring the threads
 * to a safe point (or a handshake) and walk their frames there. */
#include <stdlib.h>
#include <string.h>

#include "host.h"

static pthread_mutex_t stacks_lock = PTHREAD_MUTEX_INITIALIZER;

void host_stacks_thread_begin(host_thread *t)
{
    pthread_mutex_lock(&stacks_lock);
    t->height = 0;
    pthread_mutex_unlock(&stacks_lock);
}

void host_stacks_thread_end(host_thread *t)
{
    pthread_mutex_lock(&stacks_lock);
    t->height = 0;
    pthread_mutex_unlock(&stacks_lock);
}

/* The three moves are safe points (suspend.c): a suspended thread stops
 * before its next one. */
void host_stack_push(host_thread *t, host_member *m)
{
    host_move_begin(t);
    pthread_mutex_lock(&stacks_lock);
    if (t->height < HOST_MAX_FRAMES)
        t->frames[t->height++] = (host_frame){m, m->is_native ? -1 : 0};
    pthread_mutex_unlock(&stacks_lock);
    host_move_end();
}

void host_stack_at(host_thread *t, jlocation at)
{
    host_move_begin(t);
    pthread_mutex_lock(&stacks_lock);
    if (t->height > 0)
        t->frames[t->height - 1].at = at;
    pthread_mutex_unlock(&stacks_lock);
    host_move_end();
}

void host_stack_pop(host_thread *t)
{
    host_move_begin(t);
    pthread_mutex_lock(&stacks_lock);
    if (t->height > 0)
        t->height--;
    pthread_mutex_unlock(&stacks_lock);
    host_move_end();
}

jvmtiError host_stack_frame(const host_thread *t, jint depth, host_member **method, jint *height)
{
    jvmtiError err = JVMTI_ERROR_NO_MORE_FRAMES;
    pthread_mutex_lock(&stacks_lock);
    if (depth < t->height) {
        *method = t->frames[t->height - 1 - depth].method;
        *height = t->height - depth;
        err = JVMTI_ERROR_NONE;
    }
    pthread_mutex_unlock(&stacks_lock);
    return err;
}

/* Thread ids are host_thread addresses (config.thread_id); thread objects
 * live until the process ends, so any id the core passes is readable. */
static jvmtiError walk_stacks(const uintptr_t *ids, jint n, jint *states,
                              int (*visit)(void *arg, jint index, jmethodID method,
                                           jlocation location),
                              void *arg)
{
    pthread_mutex_lock(&stacks_lock);
    for (jint i = 0; i < n; i++) {
        host_thread *t = (host_thread *)ids[i];
        if (!__atomic_load_n(&t->alive, __ATOMIC_ACQUIRE)) {
            states[i] = JVMTI_THREAD_STATE_TERMINATED; /* every host thread object was started */
            continue;
        }
        states[i] = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE;
        if (__atomic_load_n(&t->suspended, __ATOMIC_ACQUIRE))
            states[i] |= JVMTI_THREAD_STATE_SUSPENDED;
        for (int d = t->height - 1; d >= 0; d--)
            if (visit(arg, i, (jmethodID)t->frames[d].method, t->frames[d].at))
                break;
    }
    pthread_mutex_unlock(&stacks_lock);
    return JVMTI_ERROR_NONE;
}

/* GetThreadState without a walk: alive and suspended are atomic, so no
 * stacks_lock (the state walk_stacks gives, frames aside). */
static jint thread_state(uintptr_t id)
{
    host_thread *t = (host_thread *)id;
    if (!__atomic_load_n(&t->alive, __ATOMIC_ACQUIRE))
        return JVMTI_THREAD_STATE_TERMINATED;
    jint state = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE;
    if (__atomic_load_n(&t->suspended, __ATOMIC_ACQUIRE))
        state |= JVMTI_THREAD_STATE_SUSPENDED;
    return state;
}

/* Every class of the host is the bootstrap loader's (the host has no class
 * loader objects): GetClassLoaderClasses(NULL) lists them all, any other
 * loader none. The host has no hidden classes and no array classes. */
static jvmtiError each_class(jobject initiating_loader, int all,
                             int (*visit)(void *arg, jclass klass), void *arg)
{
    if (!all && initiating_loader)
        return JVMTI_ERROR_NONE;
    for (int i = 0; i < host_n_classes; i++)
        if (visit(arg, (jclass)&host_classes[i].obj))
            return JVMTI_ERROR_NONE;
    host_classes_each_loaded(visit, arg);
    return JVMTI_ERROR_NONE;
}

static host_member *method(const char *name)
{
    for (int i = 0; i < host_n_members; i++)
        if (host_members[i].obj.kind == HOST_METHOD && strcmp(host_members[i].name, name) == 0)
            return &host_members[i];
    return NULL;
}

void host_stacks_run_main(host_thread *t)
{
    static const char *const chain[] = {"main", "a", "b", "c"};
    for (int i = 0; i < 4; i++) {
        host_stack_push(t, method(chain[i]));
        host_frames_step(t, method(chain[i]), 0); /* the call of the next, or c's return */
    }
    for (int i = 0; i < 4; i++)
        host_frames_return(t);
}

void host_stacks_configure(jvmtirt_config *c)
{
    c->walk_stacks = walk_stacks;
    c->thread_state = thread_state;
    c->each_class = each_class;
}
