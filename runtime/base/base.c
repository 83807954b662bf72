/* The core's shared state (rt) and its environments' slots: how a disposed
 * environment is freed while events are posted, and how slots are reused.
 *
 * Disposal while events are posted: DisposeEnvironment marks the
 * environment dead, unlinks it from the list and queues it; it is freed
 * once no posting cursor that might have seen it is open. Cursors count
 * themselves in one of two epochs (rt.posting[rt.epoch]); a grace period
 * flips rt.epoch, and the environments unlinked before the flip are freed
 * as soon as the old epoch's count is zero. New cursors count in the new
 * epoch, so under continuous posting the old count still drains as the
 * posts under way end: disposed environments do not pile up while events
 * keep coming (the host's soak test measures the backlog).
 *
 * Why it is safe: a cursor raises its epoch's count, then reads rt.epoch
 * again and starts over if it changed; only then does it read the list
 * (all sequentially consistent). A cursor that can reach an environment
 * read the list before the unlink, so its second read of rt.epoch came
 * before the flip that follows the unlink: it counts in the old epoch,
 * and the environment waits for it. A callback may dispose of its own
 * environment: its cursor holds the old epoch up until it is done.
 *
 * "Freed" means emptied and put on a free list: slots are never unmapped
 * while the core runs, so a stale jvmtiEnv* finds a dead magic (see
 * rt_env_slot_free). What an area keeps for an environment it frees in its
 * env_freed hook, reached through rt.areas: base calls no area by name. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

struct rt_state rt = {.lock = PTHREAD_MUTEX_INITIALIZER};

char *rt_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int rt_ready(const char *fn)
{
    if (LOAD(&rt.ready))
        return 1;
    fprintf(stderr, "jvmtirt: error: %s called before jvmtirt_init (or after jvmtirt_shutdown): "
                    "refused\n", fn);
    return 0;
}

/* A cursor may stand on one of e's per-thread settings (threads read their
 * lists without the lock): n->next stays intact, and n is freed with e,
 * once no cursor is open. */
void rt_env_unlink_thread_events(rt_env *e)
{
    for (rt_thread *t = rt.threads; t; t = t->next) {
        rt_thread_events **link = &t->events;
        while (*link) {
            rt_thread_events *n = *link;
            if (n->env == e) {
                STORE_SC(link, n->next);
                n->dead_next = e->dead_events;
                e->dead_events = n;
            } else {
                link = &n->next;
            }
        }
    }
}

/* Frees what the core keeps for e outside its slot. Under rt.lock. */
static void free_env_state(rt_env *e)
{
    rt_env_unlink_thread_events(e);
    for (rt_thread_events *n = e->dead_events, *next; n; n = next) {
        next = n->dead_next;
        free(n);
    }
    e->dead_events = NULL;
    free(e->ext_callbacks);
    e->ext_callbacks = NULL;
    for (const struct rt_area *const *a = rt.areas; a && *a; a++)
        if ((*a)->env_freed)
            (*a)->env_freed(e);
}

/* Environment slots are never unmapped while the core runs: a disposed
 * environment's slot goes, emptied, to the end of a free list, keeping
 * its function table and its dead magic, so that a stale jvmtiEnv* calls
 * into the trampolines and gets JVMTI_ERROR_INVALID_ENVIRONMENT. A slot is
 * reused (first in, first out) only while more than RT_ENV_RESERVE wait:
 * a stale handle is detected for at least that many later creations, and
 * memory stays bounded by the most environments alive at once. Under
 * rt.lock. */
void rt_env_slot_free(rt_env *e)
{
    free_env_state(e);
    /* Everything but the head and `disposed`; the head's capabilities word
     * by word, as the trampolines read them; magic stays RT_ENV_DEAD.
     * `disposed` stays 1 throughout: a walk that opens its cursor on a
     * stale handle reads it with no lock (heap.c's walk_begin), and a
     * passing 0 would let it into the state freed here. */
    size_t from = sizeof e->head, at = offsetof(rt_env, disposed),
           past = at + sizeof e->disposed;
    memset((char *)e + from, 0, at - from);
    memset((char *)e + past, 0, sizeof *e - past);
    jvmtiCapabilities none;
    memset(&none, 0, sizeof none);
    jvmtigen_capabilities_store(&e->head.capabilities, &none);
    STORE(&e->disposed, 1);
    if (rt.free_tail)
        rt.free_tail->pending_next = e;
    else
        rt.free_head = e;
    rt.free_tail = e;
    rt.n_free++;
}

rt_env *rt_env_slot_take(void)
{
    if (rt.n_free > RT_ENV_RESERVE) {
        rt_env *e = rt.free_head;
        rt.free_head = e->pending_next;
        if (!rt.free_head)
            rt.free_tail = NULL;
        rt.n_free--;
        e->pending_next = NULL;
        STORE(&e->disposed, 0);
        return e;
    }
    rt_env *e = calloc(1, sizeof *e);
    if (e)
        rt.n_slots++;
    return e;
}

void rt_env_destroy(rt_env *e)
{
    free_env_state(e);
    free(e);
}

int rt_walk_begin(void)
{
    for (;;) {
        int p = LOAD_SC(&rt.epoch);
        __atomic_add_fetch(&rt.posting[p], 1, __ATOMIC_SEQ_CST);
        if (LOAD_SC(&rt.epoch) == p)
            return p;
        rt_walk_end(p); /* a grace period began meanwhile: count in the new epoch */
    }
}

void rt_walk_end(int p)
{
    /* The last cursor of an epoch frees what waits for it. Its decrement
     * comes before its look at n_pending, and the reclaimer queues before
     * it looks at the count: one of the two sees the other. */
    if (__atomic_sub_fetch(&rt.posting[p], 1, __ATOMIC_SEQ_CST) == 0 &&
        LOAD_SC(&rt.n_pending) != 0)
        rt_reclaim_if_quiet();
}

static int free_list(rt_env *e)
{
    int n = 0;
    for (rt_env *next; e; e = next, n++) {
        next = e->pending_next;
        rt_env_slot_free(e);
    }
    return n;
}

void rt_reclaim_if_quiet(void)
{
    if (LOAD_SC(&rt.n_pending) == 0)
        return;
    pthread_mutex_lock(&rt.lock);
    for (;;) {
        if (rt.waiting) {
            if (LOAD_SC(&rt.posting[rt.waiting_epoch]) != 0)
                break; /* its last cursor will call again */
            int n = free_list(rt.waiting);
            rt.waiting = NULL;
            STORE_SC(&rt.n_pending, rt.n_pending - n);
        }
        if (!rt.pending)
            break;
        /* A grace period: what is pending now was unlinked before the flip;
         * cursors that may hold it count in the epoch being left. */
        rt.waiting = rt.pending;
        rt.pending = NULL;
        rt.waiting_epoch = rt.epoch;
        STORE_SC(&rt.epoch, 1 - rt.epoch);
    }
    pthread_mutex_unlock(&rt.lock);
}
