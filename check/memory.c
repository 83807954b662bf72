/* Memory ownership: every buffer JVM TI handed out (the generated
 * forwarders report them, Allocate too), so that a Deallocate of anything
 * else, or twice, is seen, and what is left at the end is reported with the
 * function that allocated it. An open-addressing hash set under one spin
 * lock: held for a probe or two (a mutex's unlock is a second atomic
 * operation on every record and every removal). */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmticheck.h"
#include "output.h"

typedef struct slot {
    const void *mem;          /* NULL: empty */
    const char *function;     /* static string of the generated code */
    jvmticheck_agent *agent;  /* whose environment it was handed to */
} slot;

/* The lock, inline: one exchange to take it and a store to give it back,
 * where pthread_spin_lock and _unlock were two calls through the PLT on
 * every buffer recorded and every Deallocate. Held for a probe or two, or
 * a grow; a waiter yields rather than spin the other core away. */
static int lock; /* atomic: 1 while held */

static inline void lock_take(void)
{
    while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&lock, __ATOMIC_RELAXED))
            sched_yield();
}

static inline void lock_give(void)
{
    __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

/* Linear probing with no tombstones: a removal moves the rest of its
 * cluster back (remove_at), so a buffer handed out where the last one was
 * freed (as malloc does) is found in its home slot, and a lookup stops at
 * the first empty slot. */
static slot *table;
static size_t cap, live;

static size_t hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

/* Rare (the table doubles), so out of the recording's way. */
__attribute__((cold, noinline)) static int grow(void)
{
    size_t ncap = cap ? cap * 2 : 1024;
    slot *nt = calloc(ncap, sizeof *nt);
    if (!nt)
        return 0;
    for (size_t i = 0; i < cap; i++)
        if (table[i].mem) {
            size_t j = hash(table[i].mem) & (ncap - 1);
            while (nt[j].mem)
                j = (j + 1) & (ncap - 1);
            nt[j] = table[i];
        }
    free(table);
    table = nt;
    cap = ncap;
    return 1;
}

/* Empties slot i, moving back each later member of its cluster whose home
 * is not between i and where it is (cyclically), so none is cut off from
 * its home by the hole. */
static void remove_at(size_t i)
{
    size_t mask = cap - 1, j = i;
    table[i].mem = NULL;
    for (;;) {
        j = (j + 1) & mask;
        if (!table[j].mem)
            return;
        size_t home = hash(table[j].mem) & mask;
        int stays = i <= j ? i < home && home <= j : i < home || home <= j;
        if (!stays) {
            table[i] = table[j];
            table[j].mem = NULL;
            i = j;
        }
    }
}

void jvmticheck_owned(jvmtiEnv *env, const char *function, const void *mem)
{
    if (!mem)
        return;
    jvmticheck_agent *agent = jvmticheck_agent_of(env);
    lock_take();
    if (JVMTICHECK_UNLIKELY((live + 1) * 2 > cap) && !grow()) {
        lock_give();
        return;
    }
    size_t i = hash(mem) & (cap - 1);
    while (table[i].mem && table[i].mem != mem) /* equal: the VM reused it, the newest owner counts */
        i = (i + 1) & (cap - 1);
    if (!table[i].mem)
        live++;
    table[i].mem = mem;
    table[i].function = function;
    table[i].agent = agent;
    lock_give();
}

int jvmticheck_disown(const void *mem)
{
    int found = 0;
    lock_take();
    for (size_t i = cap ? hash(mem) & (cap - 1) : 0; cap && table[i].mem; i = (i + 1) & (cap - 1))
        if (table[i].mem == mem) {
            remove_at(i);
            live--;
            found = 1;
            break;
        }
    lock_give();
    return found;
}

static int by_function(const void *a, const void *b)
{
    return strcmp(((const slot *)a)->function, ((const slot *)b)->function);
}

/* One line per allocating function, in name order: how many of its buffers
 * were never deallocated. What an agent Allocates for itself it may keep
 * until the end (libinstrument keeps its agent's state so): those count
 * only with leaks=all. */
void jvmticheck_report_leaks(jvmticheck_agent *a)
{
    if (a->leaks == JVMTICHECK_LEAKS_NONE)
        return;
    lock_take();
    slot *left = live ? malloc(live * sizeof *left) : NULL;
    size_t n = 0;
    for (size_t i = 0; left && i < cap; i++)
        if (table[i].mem && table[i].agent == a &&
            (a->leaks == JVMTICHECK_LEAKS_ALL || strcmp(table[i].function, "Allocate") != 0))
            left[n++] = table[i];
    lock_give();
    if (!left)
        return;
    qsort(left, n, sizeof *left, by_function);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && strcmp(left[j].function, left[i].function) == 0)
            j++;
        jvmticheck_leak(a, left[i].function, j - i);
        i = j;
    }
    free(left);
}
