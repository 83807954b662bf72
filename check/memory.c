/* Memory ownership: every buffer JVM TI handed out (the generated
 * forwarders report them, Allocate too), so that a Deallocate of anything
 * else, or twice, is seen, and what is left at the end is reported with the
 * function that allocated it. An open-addressing hash set under one spin
 * lock: held for a probe or two (a mutex's unlock is a second atomic
 * operation on every record and every removal). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmticheck.h"
#include "output.h"

typedef struct slot {
    const void *mem;          /* NULL: empty; TOMB: removed */
    const char *function;     /* static string of the generated code */
    jvmticheck_agent *agent;  /* whose environment it was handed to */
} slot;

static const char tomb_mark;
#define TOMB ((const void *)&tomb_mark)

static pthread_spinlock_t lock;

__attribute__((constructor)) static void lock_init(void)
{
    pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
}
static slot *table;
static size_t cap, used, live; /* used counts tombstones too */

static size_t hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static int grow(void)
{
    size_t ncap = cap ? cap * 2 : 1024;
    if (live * 4 < cap) /* mostly tombstones: rehash at the same size */
        ncap = cap;
    slot *nt = calloc(ncap, sizeof *nt);
    if (!nt)
        return 0;
    for (size_t i = 0; i < cap; i++)
        if (table[i].mem && table[i].mem != TOMB) {
            size_t j = hash(table[i].mem) & (ncap - 1);
            while (nt[j].mem)
                j = (j + 1) & (ncap - 1);
            nt[j] = table[i];
        }
    free(table);
    table = nt;
    cap = ncap;
    used = live;
    return 1;
}

void jvmticheck_owned(jvmtiEnv *env, const char *function, const void *mem)
{
    if (!mem)
        return;
    jvmticheck_agent *agent = jvmticheck_agent_of(env);
    pthread_spin_lock(&lock);
    if ((used + 1) * 2 > cap && !grow()) {
        pthread_spin_unlock(&lock);
        return;
    }
    size_t i = hash(mem) & (cap - 1), tomb = SIZE_MAX;
    for (; table[i].mem; i = (i + 1) & (cap - 1)) {
        if (table[i].mem == mem) { /* the VM reused it: the newest owner counts */
            table[i].function = function;
            table[i].agent = agent;
            pthread_spin_unlock(&lock);
            return;
        }
        if (table[i].mem == TOMB && tomb == SIZE_MAX)
            tomb = i;
    }
    if (tomb != SIZE_MAX)
        i = tomb;
    else
        used++;
    table[i].mem = mem;
    table[i].function = function;
    table[i].agent = agent;
    live++;
    pthread_spin_unlock(&lock);
}

int jvmticheck_disown(const void *mem)
{
    int found = 0;
    pthread_spin_lock(&lock);
    for (size_t i = cap ? hash(mem) & (cap - 1) : 0; cap && table[i].mem; i = (i + 1) & (cap - 1))
        if (table[i].mem == mem) {
            table[i].mem = TOMB;
            live--;
            found = 1;
            break;
        }
    pthread_spin_unlock(&lock);
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
    pthread_spin_lock(&lock);
    slot *left = live ? malloc(live * sizeof *left) : NULL;
    size_t n = 0;
    for (size_t i = 0; left && i < cap; i++)
        if (table[i].mem && table[i].mem != TOMB && table[i].agent == a &&
            (a->leaks == JVMTICHECK_LEAKS_ALL || strcmp(table[i].function, "Allocate") != 0))
            left[n++] = table[i];
    pthread_spin_unlock(&lock);
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
