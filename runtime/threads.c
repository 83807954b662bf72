/* Threads as the core knows them: a record per thread the VM started, for
 * per-thread event settings and raw monitor interrupts. */
#include <stdlib.h>

#include "frames.h"
#include "rt.h"

JVMTIGEN_TLS rt_thread *rt_self;
static JVMTIGEN_TLS char token; /* its address names the OS thread */

const void *rt_thread_token(void) { return &token; }

rt_thread *rt_thread_find(uintptr_t id)
{
    for (rt_thread *t = rt.threads; t; t = t->next)
        if (t->id == id)
            return t;
    return NULL;
}

static void unlink_thread(rt_thread *t)
{
    for (rt_thread **link = &rt.threads; *link; link = &(*link)->next) {
        if (*link == t) {
            *link = t->next;
            rt.n_threads--;
            break;
        }
    }
    for (rt_thread_events *n = t->events, *next; n; n = next) {
        next = n->next;
        free(n);
    }
    rt_objects_thread_freed(t);
    free(t);
}

void jvmtirt_thread_start(uintptr_t id, jvmtirt_thread_kind kind)
{
    rt_thread *t = calloc(1, sizeof *t);
    pthread_mutex_lock(&rt.lock);
    if (rt_self) /* started twice: the new identity replaces the old */
        unlink_thread(rt_self);
    if (t) {
        t->id = id;
        t->kind = kind;
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
    rt_framepops_thread_ended(jvmtirt_current_thread_id());
    pthread_mutex_lock(&rt.lock);
    if (rt_self) {
        unlink_thread(rt_self);
        rt_self = NULL;
        rt_events_recompute();
    }
    pthread_mutex_unlock(&rt.lock);
    jvmtigen_thread_attached(JVMTIRT_UNATTACHED);
}

uintptr_t jvmtirt_current_thread_id(void) { return rt_self ? rt_self->id : 0; }

void rt_monitor_wake(struct rt_monitor *m);

int jvmtirt_thread_interrupt(uintptr_t id)
{
    pthread_mutex_lock(&rt.lock);
    rt_thread *t = rt_thread_find(id);
    if (t) {
        STORE_SC(&t->interrupted, 1);
        struct rt_monitor *m = LOAD_SC(&t->waiting_on);
        if (m)
            rt_monitor_wake(m);
    }
    pthread_mutex_unlock(&rt.lock);
    return t != NULL;
}
