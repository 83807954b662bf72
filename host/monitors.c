/* Java monitors (runtime/README.md, "Java monitors"): the core's
 * owned_monitors, contended_monitor and monitor_usage over the host's
 * stacks. The model: Main.main is static synchronized (a frame of it holds
 * the monitor of class Main) and Thread.run is synchronized (a frame of it
 * holds its own thread object's monitor); nothing else locks, so no thread
 * ever waits for a monitor. The stacks are read with the host's own
 * walk_stacks, which samples every thread asked for at one moment. */
#include <string.h>

#include "host.h"

/* The stack walk stacks.c gave the config (host_stacks_configure first). */
static jvmtiError (*walk)(const uintptr_t *, jint, jint *,
                          int (*)(void *, jint, jmethodID, jlocation), void *);

/* The monitor a frame of method m holds, for thread t, or NULL. */
static jobject held_by(host_member *m, uintptr_t t)
{
    const host_class *c = host_member_class(m);
    if (strcmp(c->name, "Main") == 0 && strcmp(m->name, "main") == 0)
        return (jobject)(void *)c;
    if (strcmp(c->name, "java/lang/Thread") == 0 && strcmp(m->name, "run") == 0)
        return (jobject)(void *)&((host_thread *)t)->obj;
    return NULL;
}

/* What a walk of one or more threads found: each (thread, monitor) pair
 * once, with the depth of its most recent frame and its number of frames
 * (entries). */
typedef struct found {
    const uintptr_t *ids;
    jint depth[8];   /* per thread walked: the next frame's depth */
    struct {
        jint thread;
        jobject monitor;
        jint depth, entries;
    } at[2 * HOST_MAX_FRAMES];
    int n;
} found;

static int frame(void *arg, jint index, jmethodID method, jlocation location)
{
    (void)location;
    found *f = arg;
    jint depth = f->depth[index]++;
    jobject mon = held_by((host_member *)method, f->ids[index]);
    if (!mon)
        return 0;
    for (int i = 0; i < f->n; i++)
        if (f->at[i].thread == index && f->at[i].monitor == mon) {
            f->at[i].entries++; /* a deeper frame of the same monitor: re-entered */
            return 0;
        }
    if (f->n < (int)(sizeof f->at / sizeof *f->at)) {
        f->at[f->n].thread = index;
        f->at[f->n].monitor = mon;
        f->at[f->n].depth = depth;
        f->at[f->n++].entries = 1;
    }
    return 0;
}

static jvmtiError walk_all(const uintptr_t *ids, jint n, jint *states, found *f)
{
    memset(f, 0, sizeof *f);
    f->ids = ids;
    return walk(ids, n, states, frame, f);
}

static jvmtiError owned_monitors(uintptr_t id, int (*visit)(void *arg, jobject monitor, jint depth),
                                 void *arg)
{
    found f;
    jint state = 0;
    jvmtiError err = walk_all(&id, 1, &state, &f);
    if (err != JVMTI_ERROR_NONE)
        return err;
    if (!(state & JVMTI_THREAD_STATE_ALIVE))
        return JVMTI_ERROR_THREAD_NOT_ALIVE; /* it ended since the core's check */
    for (int i = 0; i < f.n; i++)
        if (visit(arg, f.at[i].monitor, f.at[i].depth))
            break;
    return JVMTI_ERROR_NONE;
}

static jvmtiError contended_monitor(uintptr_t id, jobject *monitor)
{
    (void)id;
    *monitor = NULL; /* nothing in the model ever waits */
    return JVMTI_ERROR_NONE;
}

typedef struct candidates {
    uintptr_t ids[8];
    jint n;
} candidates;

static int add_candidate(void *arg, jthread thread)
{
    candidates *c = arg;
    c->ids[c->n++] = (uintptr_t)host_thread_of(thread);
    return c->n == (jint)(sizeof c->ids / sizeof *c->ids);
}

static jvmtiError monitor_usage(jobject object, uintptr_t *owner, jint *entry_count,
                                int (*visit)(void *arg, int notify, uintptr_t thread_id),
                                void *arg)
{
    (void)visit, (void)arg; /* no waiters in the model */
    host_kind kind = ((host_object *)(void *)object)->kind;
    if (kind < HOST_THREAD || kind > HOST_MODULE)
        return JVMTI_ERROR_INVALID_OBJECT;
    /* The main thread and the workers: the threads that run Main.main or
     * Thread.run (at most 8 looked at: the tests run fewer). */
    candidates c = {{0}, 0};
    host_threads_each(add_candidate, &c);
    jint states[8];
    found f;
    jvmtiError err = walk_all(c.ids, c.n, states, &f);
    *owner = 0;
    *entry_count = 0;
    for (int i = 0; err == JVMTI_ERROR_NONE && i < f.n; i++)
        if (f.at[i].monitor == object) {
            *owner = c.ids[f.at[i].thread];
            *entry_count = f.at[i].entries;
        }
    return err;
}

void host_monitors_configure(jvmtirt_config *c)
{
    walk = c->walk_stacks;
    c->owned_monitors = owned_monitors;
    c->contended_monitor = contended_monitor;
    c->monitor_usage = monitor_usage;
    c->potential.can_get_owned_monitor_info = 1;
    c->potential.can_get_owned_monitor_stack_depth_info = 1;
    c->potential.can_get_current_contended_monitor = 1;
    c->potential.can_get_monitor_info = 1;
}
