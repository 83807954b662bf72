/* The host's side of the core's stacks: each thread's stack of frames
 * (their locals, config.frame_slot; popping and returning from the main
 * chain's, config.frame_return), walked for GetStackTrace, GetThreadState
 * and the other stack functions (config.walk_stacks). (GetAllThreads is
 * the core's, from its records of the threads the host started.)
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

/* The moves (and host_stack_store) are safe points (suspend.c): a suspended thread stops
 * before its next one. */
void host_stack_push(host_thread *t, host_member *m)
{
    host_move_begin(t);
    pthread_mutex_lock(&stacks_lock);
    if (t->height < HOST_MAX_FRAMES) {
        host_frame f = {m, host_is_native(m) ? -1 : 0, {{0}}, {0}};
        if (m->max_locals > 0) { /* this (the host's methods run on the thread), or main's args */
            f.locals[0].l = m->is_static ? NULL : (jobject)&t->obj;
            f.tags[0] = 'L';
        }
        t->frames[t->height++] = f;
    }
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

void host_stack_store(host_thread *t, int slot, char tag, jvalue value)
{
    host_move_begin(t); /* a safe point too: a suspended thread's locals stay put */
    pthread_mutex_lock(&stacks_lock);
    if (t->height > 0 && slot < HOST_MAX_LOCALS) {
        t->frames[t->height - 1].locals[slot] = value;
        t->frames[t->height - 1].tags[slot] = tag;
    }
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

/* The core's frame_slot (runtime/README.md, "Locals and frames"): the
 * thread is the caller or suspended, so its frames stay put; stacks_lock
 * only orders this with the walks. A local holds a reference's value: the
 * host's objects are their addresses (a plain object stored by
 * SetLocalObject is not kept alive by the frame: the host's collector
 * counts JNI references only). */
static jvmtiError frame_slot(uintptr_t id, int mode, jvmtirt_frame_slot *s)
{
    host_thread *t = (host_thread *)id;
    jvmtiError err = JVMTI_ERROR_NO_MORE_FRAMES;
    pthread_mutex_lock(&stacks_lock);
    if (s->depth < t->height) {
        host_frame *f = &t->frames[t->height - 1 - s->depth];
        err = JVMTI_ERROR_NONE;
        if (mode == JVMTIRT_FRAME_DESCRIBE) {
            s->method = (jmethodID)f->method;
            s->location = f->at;
            s->is_native = (jboolean)host_is_native(f->method);
            s->is_static = (jboolean)f->method->is_static;
            s->max_locals = f->method->max_locals;
            s->tag = s->slot >= 0 && s->slot < HOST_MAX_LOCALS ? f->tags[s->slot] : 0;
        } else if (mode == JVMTIRT_FRAME_READ) {
            s->value = f->locals[s->slot];
        } else if (mode == JVMTIRT_FRAME_WRITE) {
            f->locals[s->slot] = s->value;
            f->tags[s->slot] = s->type;
        } else {
            err = JVMTI_ERROR_INTERNAL;
        }
    }
    pthread_mutex_unlock(&stacks_lock);
    return err;
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

/* What the core asked of t's top frame at this step (0: nothing). */
int host_stack_take_unwind(host_thread *t)
{
    pthread_mutex_lock(&stacks_lock);
    int u = t->unwind;
    t->unwind = 0;
    pthread_mutex_unlock(&stacks_lock);
    return u;
}

void host_stack_unwindable(host_thread *t, int on)
{
    pthread_mutex_lock(&stacks_lock);
    t->unwindable = on;
    pthread_mutex_unlock(&stacks_lock);
}

/* The core's frame_return (runtime/README.md, "Locals and frames"): only
 * the main chain's frames at an instruction can be unwound; any other
 * frame is OPAQUE_FRAME (the workers' interpreter cannot unwind). */
static jvmtiError frame_return(uintptr_t id, int mode, jvmtirt_frame_return *r)
{
    host_thread *t = (host_thread *)id;
    jvmtiError err = JVMTI_ERROR_NONE;
    pthread_mutex_lock(&stacks_lock);
    if (mode == JVMTIRT_FRAME_DESCRIBE) {
        r->frames = t->height < 2 ? t->height : 2;
        if (t->height > 0) {
            const host_member *top = t->frames[t->height - 1].method;
            const char *close = strchr(top->signature, ')');
            r->top_native = (jboolean)host_is_native(top);
            r->result = close ? close[1] : 'V';
            if (!t->unwindable)
                err = JVMTI_ERROR_OPAQUE_FRAME;
        }
        if (t->height > 1)
            r->caller_native = (jboolean)host_is_native(t->frames[t->height - 2].method);
    } else {
        t->unwind = mode; /* every method of the chain is void: no value to keep */
    }
    pthread_mutex_unlock(&stacks_lock);
    return err;
}

void host_stacks_configure(jvmtirt_config *c)
{
    c->walk_stacks = walk_stacks;
    c->thread_state = thread_state;
    c->frame_slot = frame_slot;
    c->frame_return = frame_return;
}
