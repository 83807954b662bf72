/* Raw monitors: reentrant locks with wait/notify, owned by OS threads.
 *
 * A jrawMonitorID is not a pointer: it encodes a slot number and the slot's
 * generation ((slot << 32 | generation) << 1 | 1 on 64-bit), so any value an
 * agent passes, including one destroyed long ago, is checked without
 * touching freed memory. Slots live in chunks that are never moved or freed
 * before shutdown; a destroyed slot is reused with its generation bumped.
 * Chunk c holds CHUNK << c slots, so 24 chunks cover every 32-bit slot
 * number (no cap short of that) and a handle still finds its slot with one
 * table load. A chunk's memory is calloc'd (untouched pages cost nothing)
 * and each slot is initialised when it is first handed out.
 *
 * Ownership is one atomic word: an uncontended enter is a compare-and-swap
 * of NULL to the caller's token and its exit a store, with no mutex. The
 * mutex and condition serve only the threads that block (entrants that
 * found the monitor owned, RawMonitorWait): an entrant counts itself in
 * `blocked` under the mutex before it retries the swap, and an exit that
 * stores NULL then reads `blocked` (both sequentially consistent, so one of
 * the two sees the other) takes the mutex to wake them only when there are
 * any. A destroyed monitor's owner is DEAD until its slot is handed out
 * again, so a swap by a thread still holding the old handle fails.
 *
 * Timed waits measure CLOCK_MONOTONIC: a step of the wall clock neither
 * stretches nor cuts them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmtigen_impl.h"
#include "rt.h"
#include "threads.h"

#define CHUNK 256u
#define MAX_CHUNKS 24 /* CHUNK * (2^24 - 1) slots: all a 32-bit slot number names */

typedef struct rt_waiter {
    int notified;
    struct rt_waiter *next;
} rt_waiter;

typedef struct rt_monitor {
    /* What an uncontended enter and exit touch, first. */
    const void *owner;     /* atomic: thread token, NULL, or DEAD */
    uint32_t generation;   /* atomic; odd while the slot is in use */
    unsigned blocked;      /* atomic: threads that may sleep on cond */
    long recursions;       /* the owner's alone */
    pthread_mutex_t mutex; /* guards the fields below; held briefly */
    pthread_cond_t cond;   /* entry and notification waits */
    rt_waiter *waiters;    /* in RawMonitorWait, oldest first */
    uint32_t slot;
    char *name;
    struct rt_monitor *free_next;
} rt_monitor;

static rt_monitor *chunks[MAX_CHUNKS];
static uint32_t n_slots;       /* slots made so far */
static rt_monitor *free_list;
static long live;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER; /* lock order: base/rt.h */
static const char dead_token;
#define DEAD ((const void *)&dead_token) /* the owner of a destroyed monitor */
/* An owner token: the address of a thread-local, read inline (an
 * initial-exec thread-local is an offset from the thread pointer), where
 * a call to a function returning it was a tenth of an uncontended enter
 * and exit.
 * Only this file compares owners. */
static JVMTIGEN_TLS char token;
#define ME() ((const void *)&token)

/* The first slot of chunk c, and the chunk that holds a slot. */
static uint32_t chunk_base(unsigned c) { return CHUNK * ((1u << c) - 1); }
static unsigned chunk_of(uint32_t slot)
{
    return 31u - (unsigned)__builtin_clz(slot / CHUNK + 1);
}

static rt_monitor *slot_monitor(uint32_t slot)
{
    unsigned c = chunk_of(slot);
    return &LOAD(&chunks[c])[slot - chunk_base(c)];
}

static jrawMonitorID encode(const rt_monitor *m)
{
    uint64_t v = ((uint64_t)m->slot << 32 | m->generation) << 1 | 1;
    return (jrawMonitorID)(uintptr_t)v;
}

/* The generation a handle names (of a handle decode accepted). */
static uint32_t live_generation(jrawMonitorID id) { return (uint32_t)((uintptr_t)id >> 1); }

/* The monitor a handle names while it is live, or NULL. Inline: every
 * raw monitor function starts with it. */
static inline __attribute__((always_inline)) rt_monitor *decode(jrawMonitorID id)
{
    uint64_t v = (uint64_t)(uintptr_t)id;
    if (!(v & 1))
        return NULL;
    v >>= 1;
    uint32_t slot = (uint32_t)(v >> 32), gen = (uint32_t)v;
    if (slot >= LOAD(&n_slots) || !(gen & 1))
        return NULL;
    rt_monitor *m = slot_monitor(slot);
    return LOAD(&m->generation) == gen ? m : NULL;
}

/* The trampolines' raw monitor check: the core owns raw monitors. */
static jvmtiError check_monitor(jvmtiEnv *env, jrawMonitorID monitor)
{
    (void)env;
    return decode(monitor) ? JVMTI_ERROR_NONE : JVMTI_ERROR_INVALID_MONITOR;
}

static void started(void)
{
    jvmtigen_vm_hooks h = {0};
    h.check_monitor = check_monitor;
    jvmtigen_set_default_vm_hooks(&h);
}

static void shutdown(void)
{
    pthread_mutex_lock(&table_lock);
    for (uint32_t slot = 0; slot < n_slots; slot++) {
        rt_monitor *m = slot_monitor(slot);
        pthread_mutex_destroy(&m->mutex);
        pthread_cond_destroy(&m->cond);
        free(m->name);
    }
    for (unsigned c = 0; c < MAX_CHUNKS && chunks[c]; c++) {
        free(chunks[c]);
        chunks[c] = NULL;
    }
    STORE(&n_slots, 0);
    free_list = NULL;
    live = 0;
    pthread_mutex_unlock(&table_lock);
}

long rt_monitor_count(void)
{
    pthread_mutex_lock(&table_lock);
    long n = live;
    pthread_mutex_unlock(&table_lock);
    return n;
}

jvmtiError jvmti_impl_CreateRawMonitor(jvmtiEnv *env, const char *name, jrawMonitorID *monitor_ptr)
{
    (void)env;
    char *copy = rt_strdup(name);
    if (!copy)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&table_lock);
    rt_monitor *m = free_list;
    if (m) {
        free_list = m->free_next;
    } else {
        uint32_t slot = n_slots;
        unsigned c = chunk_of(slot);
        if (slot == chunk_base(c)) {
            rt_monitor *chunk = c < MAX_CHUNKS ? calloc((size_t)CHUNK << c, sizeof *chunk) : NULL;
            if (!chunk) {
                pthread_mutex_unlock(&table_lock);
                free(copy);
                return JVMTI_ERROR_OUT_OF_MEMORY;
            }
            STORE(&chunks[c], chunk);
        }
        m = &chunks[c][slot - chunk_base(c)];
        pthread_condattr_t attr;
        pthread_condattr_init(&attr);
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        pthread_mutex_init(&m->mutex, NULL);
        pthread_cond_init(&m->cond, &attr);
        pthread_condattr_destroy(&attr);
        m->slot = slot;
        STORE(&n_slots, slot + 1);
    }
    pthread_mutex_lock(&m->mutex);
    m->name = copy;
    m->recursions = 0;
    m->waiters = NULL;
    STORE_SC(&m->owner, NULL);
    STORE(&m->generation, m->generation + 1); /* even -> odd: live */
    pthread_mutex_unlock(&m->mutex);
    live++;
    pthread_mutex_unlock(&table_lock);
    *monitor_ptr = encode(m);
    return JVMTI_ERROR_NONE;
}

/* Locks m's mutex if id still names it; the check is repeated under the
 * mutex because a destroy may have raced with the lookup. */
static rt_monitor *lock_live(jrawMonitorID id)
{
    rt_monitor *m = decode(id);
    if (!m)
        return NULL;
    pthread_mutex_lock(&m->mutex);
    if (encode(m) != id) {
        pthread_mutex_unlock(&m->mutex);
        return NULL;
    }
    return m;
}

jvmtiError jvmti_impl_DestroyRawMonitor(jvmtiEnv *env, jrawMonitorID monitor)
{
    (void)env;
    const void *me = ME();
    pthread_mutex_lock(&table_lock);
    rt_monitor *m = lock_live(monitor);
    if (!m) {
        pthread_mutex_unlock(&table_lock);
        return JVMTI_ERROR_INVALID_MONITOR;
    }
    /* Entered by this thread: exited first. By another: refused. The
     * swap to DEAD races with an uncontended enter's swap: one wins. */
    const void *was = NULL;
    if (!__atomic_compare_exchange_n(&m->owner, &was, DEAD, 0, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST)) {
        if (was != me) {
            pthread_mutex_unlock(&m->mutex);
            pthread_mutex_unlock(&table_lock);
            return JVMTI_ERROR_NOT_MONITOR_OWNER;
        }
        STORE_SC(&m->owner, DEAD);
    }
    m->recursions = 0;
    STORE(&m->generation, m->generation + 1); /* odd -> even: dead */
    free(m->name);
    m->name = NULL;
    pthread_cond_broadcast(&m->cond); /* waiters wake to find it gone */
    pthread_mutex_unlock(&m->mutex);
    m->free_next = free_list;
    free_list = m;
    live--;
    pthread_mutex_unlock(&table_lock);
    return JVMTI_ERROR_NONE;
}

static int try_own(rt_monitor *m, const void *me)
{
    const void *none = NULL;
    return __atomic_compare_exchange_n(&m->owner, &none, me, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_RELAXED);
}

/* Lets go of m (owned by the caller), waking blocked threads if there are
 * any. With m->mutex held when locked is set. */
static void release(rt_monitor *m, int locked)
{
    STORE_SC(&m->owner, NULL);
    if (LOAD_SC(&m->blocked)) {
        if (!locked)
            pthread_mutex_lock(&m->mutex);
        pthread_cond_broadcast(&m->cond);
        if (!locked)
            pthread_mutex_unlock(&m->mutex);
    }
}

/* Takes ownership, sleeping while another thread has it; m->mutex is held.
 * Fails if m was destroyed meanwhile. */
static int acquire(rt_monitor *m, jrawMonitorID id, const void *me)
{
    __atomic_add_fetch(&m->blocked, 1, __ATOMIC_SEQ_CST);
    int ok;
    for (;;) {
        if (encode(m) != id) {
            ok = 0;
            break;
        }
        if (try_own(m, me)) {
            ok = 1;
            break;
        }
        pthread_cond_wait(&m->cond, &m->mutex);
    }
    __atomic_sub_fetch(&m->blocked, 1, __ATOMIC_SEQ_CST);
    return ok;
}

jvmtiError jvmti_impl_RawMonitorEnter(jvmtiEnv *env, jrawMonitorID monitor)
{
    (void)env;
    const void *me = ME();
    rt_monitor *m = decode(monitor);
    if (!m)
        return JVMTI_ERROR_INVALID_MONITOR;
    if (LOAD(&m->owner) == me) { /* only this thread stores its token */
        m->recursions++;
        return JVMTI_ERROR_NONE;
    }
    if (try_own(m, me)) {
        /* The handle was checked before the swap: a destroy (and a
         * create reusing the slot) may have come between. */
        if (LOAD(&m->generation) == live_generation(monitor)) {
            m->recursions = 1;
            return JVMTI_ERROR_NONE;
        }
        release(m, 0);
        return JVMTI_ERROR_INVALID_MONITOR;
    }
    m = lock_live(monitor);
    if (!m)
        return JVMTI_ERROR_INVALID_MONITOR;
    jvmtiError err = JVMTI_ERROR_INVALID_MONITOR;
    if (acquire(m, monitor, me)) {
        m->recursions = 1;
        err = JVMTI_ERROR_NONE;
    }
    pthread_mutex_unlock(&m->mutex);
    return err;
}

jvmtiError jvmti_impl_RawMonitorExit(jvmtiEnv *env, jrawMonitorID monitor)
{
    (void)env;
    rt_monitor *m = decode(monitor);
    if (!m)
        return JVMTI_ERROR_INVALID_MONITOR;
    if (LOAD(&m->owner) != ME())
        return JVMTI_ERROR_NOT_MONITOR_OWNER;
    if (--m->recursions == 0)
        release(m, 0);
    return JVMTI_ERROR_NONE;
}

/* Called with rt.lock held by jvmtirt_thread_interrupt. */
static void wake(rt_monitor *m)
{
    pthread_mutex_lock(&m->mutex);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->mutex);
}

static int take_interrupt(void)
{
    return rt_self && __atomic_exchange_n(&rt_self->interrupted, 0, __ATOMIC_SEQ_CST);
}

jvmtiError jvmti_impl_RawMonitorWait(jvmtiEnv *env, jrawMonitorID monitor, jlong millis)
{
    (void)env;
    const void *me = ME();
    rt_monitor *m = lock_live(monitor);
    if (!m)
        return JVMTI_ERROR_INVALID_MONITOR;
    if (LOAD(&m->owner) != me) {
        pthread_mutex_unlock(&m->mutex);
        return JVMTI_ERROR_NOT_MONITOR_OWNER;
    }
    struct timespec deadline;
    if (millis > 0) {
        clock_gettime(CLOCK_MONOTONIC, &deadline); /* the cond's clock */
        jlong sec = millis / 1000, nsec = (millis % 1000) * 1000000 + deadline.tv_nsec;
        deadline.tv_sec += (time_t)(sec + nsec / 1000000000);
        deadline.tv_nsec = (long)(nsec % 1000000000);
    }
    /* Queue as a waiter, then let go of the monitor entirely. */
    rt_waiter self = {0};
    rt_waiter **tail = &m->waiters;
    while (*tail)
        tail = &(*tail)->next;
    *tail = &self;
    long saved = m->recursions;
    m->recursions = 0;
    if (rt_self)
        STORE_SC(&rt_self->waiting_on, m);
    release(m, 1); /* a waiter is not blocked: notify, interrupt or destroy wake it */

    jvmtiError err = JVMTI_ERROR_NONE;
    int gone = 0;
    for (;;) {
        if (encode(m) != monitor) {
            gone = 1;
            break;
        }
        if (self.notified)
            break;
        if (take_interrupt()) {
            err = JVMTI_ERROR_INTERRUPT;
            break;
        }
        if (millis > 0) {
            if (pthread_cond_timedwait(&m->cond, &m->mutex, &deadline) == ETIMEDOUT)
                break;
        } else {
            pthread_cond_wait(&m->cond, &m->mutex);
        }
    }
    if (rt_self)
        STORE_SC(&rt_self->waiting_on, NULL);
    if (gone) { /* destroyed while we waited: nothing to re-enter */
        pthread_mutex_unlock(&m->mutex);
        return JVMTI_ERROR_INVALID_MONITOR;
    }
    for (rt_waiter **w = &m->waiters; *w; w = &(*w)->next) {
        if (*w == &self) {
            *w = self.next;
            break;
        }
    }
    if (!acquire(m, monitor, me)) {
        pthread_mutex_unlock(&m->mutex);
        return JVMTI_ERROR_INVALID_MONITOR;
    }
    m->recursions = saved;
    pthread_mutex_unlock(&m->mutex);
    return err;
}

static jvmtiError notify(jrawMonitorID monitor, int all)
{
    rt_monitor *m = lock_live(monitor);
    if (!m)
        return JVMTI_ERROR_INVALID_MONITOR;
    jvmtiError err = JVMTI_ERROR_NONE;
    if (LOAD(&m->owner) != ME()) {
        err = JVMTI_ERROR_NOT_MONITOR_OWNER;
    } else {
        int woke = 0;
        for (rt_waiter *w = m->waiters; w && (all || !woke); w = w->next) {
            if (!w->notified) {
                w->notified = 1;
                woke = 1;
            }
        }
        if (woke)
            pthread_cond_broadcast(&m->cond);
    }
    pthread_mutex_unlock(&m->mutex);
    return err;
}

jvmtiError jvmti_impl_RawMonitorNotify(jvmtiEnv *env, jrawMonitorID monitor)
{
    (void)env;
    return notify(monitor, 0);
}

jvmtiError jvmti_impl_RawMonitorNotifyAll(jvmtiEnv *env, jrawMonitorID monitor)
{
    (void)env;
    return notify(monitor, 1);
}

/* Interrupts a raw monitor wait of that thread (its record's flag, then a
 * wake-up of the monitor it waits in). */
int jvmtirt_thread_interrupt(uintptr_t id)
{
    pthread_mutex_lock(&rt.lock);
    rt_thread *t = rt_thread_find(id);
    if (t) {
        STORE_SC(&t->interrupted, 1);
        struct rt_monitor *m = LOAD_SC(&t->waiting_on);
        if (m)
            wake(m);
    }
    pthread_mutex_unlock(&rt.lock);
    return t != NULL;
}

const rt_area rt_area_monitor = {.started = started, .shutdown = shutdown};
