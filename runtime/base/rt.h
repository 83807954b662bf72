/* rt.h: the runtime core's shared state, the base every area stands on
 * (base/base.c defines it), and the hooks an area gives the lifecycle.
 *
 * Locks, and the order in which they are taken (the one place it is
 * written; every other file points here):
 *   0. redefine_lock (classes/redefine.c): one RetransformClasses or
 *      RedefineClasses at a time, from its checks to the VM's install;
 *      recursive, and held while agents' ClassFileLoadHook callbacks and
 *      the VM's class_modifiable and install_classes run. Before any other.
 *   1. rt.lock (below): everything that changes rarely: the environment
 *      list, the thread registry, capabilities held solo, per-thread event
 *      settings, properties, extension registries. Outermost.
 *   2. one area's own lock, after rt.lock when both are held, never two
 *      areas' at once, never while calling an agent: bp_lock
 *      (threads/breakpoints.c), fp_lock (threads/framepops.c), prefix_lock
 *      (classes/prefixes.c), jni_lock (classes/jnitable.c), kept_lock
 *      (classes/redefine.c: the class files kept for retransformation), table_lock
 *      (threads/monitor.c: the raw monitors' table), meta_lock
 *      (classes/members.c: the classes handed over; a read-write lock,
 *      held while answering copies into Allocate'd memory).
 *   3. a raw monitor's own mutex (threads/monitor.c), after table_lock or
 *      rt.lock (jvmtirt_thread_interrupt wakes a waiter), held briefly.
 *   4. a tag map shard's spin lock (objects/tags.c), innermost, with no
 *      other lock taken inside it.
 * The posting path takes no lock: it reads the environment list, masks and
 * callbacks with atomic loads, and holds a `posting` count up while it
 * walks, so that no environment it may see is freed under it (base.c). */
#ifndef JVMTIRT_RT_H
#define JVMTIRT_RT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "hooks.h"
#include "jvmtigen_post_support.h"
#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define RT_EVENTS (JVMTI_MAX_EVENT_TYPE_VAL - JVMTI_MIN_EVENT_TYPE_VAL + 1)
#define RT_ENV_DEAD 0x44454144 /* "DEAD": the magic of a disposed environment */
/* Freed environment slots kept back before one is reused (base.c). */
#define RT_ENV_RESERVE 16

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define LOAD_SC(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define STORE_SC(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

typedef struct rt_env {
    jvmtigen_env_head head;    /* first: a jvmtiEnv* points here */
    jint version;              /* what GetEnv was asked for */
    void *local_storage;       /* atomic */
    uint64_t global_mask;      /* atomic: events enabled for every thread */
    uint64_t thread_mask;      /* atomic: events enabled for some thread */
    uint64_t callback_mask;    /* atomic: events with a callback */
    jvmtigen_callback callbacks[RT_EVENTS]; /* atomic each */
    jvmtiExtensionEvent *ext_callbacks;     /* rt.n_ext_events, atomic each */
    int disposed;              /* atomic */
    struct rt_env *next;       /* atomic: the environment list */
    struct rt_env *pending_next; /* disposed, waiting to be freed; or free */
    struct rt_thread_events *dead_events; /* its per-thread settings, unlinked */
    /* ---- objects (objects/tags.c) ---- */
    struct rt_tag_map *tags;   /* atomic: created by the first SetTag */
    /* ---- classes (classes/prefixes.c): under its prefix_lock ---- */
    char **native_prefixes;
    jint n_native_prefixes;
    /* ---- end classes ---- */
} rt_env;

/* A thread's events enabled in one environment. */
typedef struct rt_thread_events {
    rt_env *env;
    uint64_t mask;                 /* atomic */
    struct rt_thread_events *next; /* atomic */
    struct rt_thread_events *dead_next; /* on its env's dead_events */
} rt_thread_events;

typedef struct rt_thread {
    uintptr_t id;
    rt_thread_events *events;      /* atomic head; read lock-free by the thread */
    int interrupted;               /* atomic */
    struct rt_monitor *waiting_on; /* atomic: the raw monitor it waits in */
    struct rt_thread *next;        /* registry, under rt.lock */
    /* ---- threads (threads/thread_storage.c, suspend.c, thread_cpu.c) ---- */
    struct rt_tls *tls;            /* atomic head; read lock-free by the thread */
    pthread_t pthread;             /* the OS thread that started it */
    int suspended;                 /* under rt.lock: suspended by JVM TI */
    int kind;                      /* jvmtirt_thread_kind: GetAllThreads lists JAVA ones */
    int agent;                     /* under rt.lock: started by RunAgentThread (in no group) */
} rt_thread;

/* A RunAgentThread under way (threads/groups.c): the thread that registers
 * with this id is an agent thread from its start. On that call's stack,
 * linked in rt.agent_starts under rt.lock. */
typedef struct rt_agent_start {
    uintptr_t id;
    struct rt_agent_start *next;
} rt_agent_start;

typedef struct rt_property {
    char *name, *value;
    int writable;
    struct rt_property *next;
} rt_property;

struct rt_state {
    pthread_mutex_t lock;
    jvmtirt_config config;
    const struct jvmtiInterface_1_ *table; /* plain or tracing */
    rt_env *envs;            /* atomic head; creation order */
    /* Disposed environments, freed in grace periods (base.c): */
    rt_env *pending;         /* unlinked, waiting for the next grace period */
    rt_env *waiting;         /* unlinked before the last flip of `epoch` */
    long posting[2];         /* atomic: open posting cursors, by their epoch */
    int epoch;               /* atomic: the grace-period epoch new cursors count in (0, 1) */
    int waiting_epoch;       /* the epoch whose cursors `waiting` waits for */
    int n_pending;           /* atomic: environments on both lists */
    rt_env *free_head, *free_tail; /* emptied slots, oldest first (base.c) */
    long n_free, n_slots;    /* slots free, and allocated in all */
    long n_envs;
    rt_thread *threads;
    long n_threads;
    rt_agent_start *agent_starts; /* RunAgentThread calls under way */
    long n_suspended;        /* atomic, changed under lock: records with suspended set */
    rt_env *solo_holder[JVMTIRT_CAPABILITY_COUNT];
    jvmtiCapabilities onload_added; /* OnLoad-only ones some environment added in OnLoad */
    rt_property *properties;
    jvmtiExtensionFunctionInfo *ext_functions;
    jint n_ext_functions;
    jvmtiExtensionEventInfo *ext_events;
    jint n_ext_events;
    int ext_frozen;          /* set once an environment exists */
    /* atomic: jvmtirt_init succeeded and jvmtirt_shutdown has not run since;
     * the VM's calls before (or twice) are refused (rt_ready). */
    int ready;
    /* The areas' hooks, NULL-terminated (lifecycle/areas.c); set by
     * jvmtirt_init, walked here in base.c when an environment is freed. */
    const struct rt_area *const *areas;
};

extern struct rt_state rt;
extern JVMTIGEN_TLS rt_thread *rt_self;

static inline rt_env *rt_env_of(jvmtiEnv *env) { return (rt_env *)(void *)env; }
/* The local references a VM's enumeration visits (refs.c); start from
 * {0}. rt_refs_add is a visit callback: it appends ref (NULL is skipped),
 * or, out of memory, releases it, marks the list and answers 1 (stop).
 * rt_refs_release gives back those from index `from` on and keeps the
 * others. rt_refs_hand_over (given the enumeration's result) lays the list
 * out in one array the agent Deallocates, or releases every reference when
 * the call fails; either way the list is emptied. */
typedef struct rt_refs {
    jobject *at;
    size_t n, cap;
    int oom;
} rt_refs;
int rt_refs_add(void *list, jobject ref);
void rt_refs_release(rt_refs *r, size_t from);
jvmtiError rt_refs_hand_over(jvmtiEnv *env, rt_refs *r, jvmtiError err, jint *count_ptr,
                             jobject **out_ptr);

/* The core is done with a local reference an operation handed it and
 * gives it to no agent: the VM's release_ref frees it (runtime/README.md,
 * "The JNI contract"). */
static inline void rt_release_ref(jobject ref)
{
    if (ref && rt.config.release_ref)
        rt.config.release_ref(ref);
}

/* ---- base.c: environments' slots and their grace periods ---- */
/* Frees the disposed environments no posting cursor can reach any more,
 * and starts a grace period for the rest. */
void rt_reclaim_if_quiet(void);
/* A posting cursor opens (returns its grace-period epoch) and closes (with
 * it). */
int rt_walk_begin(void);
void rt_walk_end(int epoch);
/* A slot for a new environment, empty: reused or new (NULL: out of
 * memory); a slot given back to the free list; a slot freed for good (at
 * shutdown). Under rt.lock. */
rt_env *rt_env_slot_take(void);
void rt_env_slot_free(rt_env *e);
void rt_env_destroy(rt_env *e);
/* Takes e's per-thread settings out of every thread's list. Under rt.lock. */
void rt_env_unlink_thread_events(rt_env *e);
/* malloc'd copy (NULL on out of memory). */
char *rt_strdup(const char *s);
/* 1 once jvmtirt_init succeeded (until jvmtirt_shutdown); else 0, after
 * one line on stderr naming the VM's call `fn` that came too early. */
int rt_ready(const char *fn);

/* ---- threads.c: the thread registry ---- */
/* The registry's record for id, or NULL. Under rt.lock. */
rt_thread *rt_thread_find(uintptr_t id);
/* The record of a jthread argument (NULL: the calling thread), after the
 * VM's check_thread hook: JVMTI_ERROR_NONE and *out, or INVALID_THREAD,
 * THREAD_NOT_ALIVE (no record: never started or ended), UNATTACHED_THREAD
 * (NULL from a thread the core does not know). Under rt.lock; *out is
 * valid while it is held. */
jvmtiError rt_thread_of_ref(jvmtiEnv *env, jthread thread, rt_thread **out);

/* ---- areas ----
 * An area (a file of envs/, objects/, threads/, classes/) gives the
 * lifecycle one struct of hooks; lifecycle/areas.c lists them, and
 * nothing below the lifecycle calls an area by name. Every hook may be
 * NULL. */

/* The JVM TI function slot of the function table's member NAME (1-based,
 * as jvmtigen_functions_info is indexed). */
#define RT_SLOT(NAME) ((int)(offsetof(struct jvmtiInterface_1_, NAME) / sizeof(void *)) + 1)
/* An operation of the VM: its place in jvmtirt_config, and its name (for
 * the port's messages). */
#define RT_OP(NAME) {offsetof(jvmtirt_config, NAME), #NAME}
typedef struct rt_op {
    size_t offset;
    const char *name; /* NULL ends a list */
} rt_op;

/* A function of the core that answers NOT_AVAILABLE unless the VM supplied
 * the operations it needs; the port counts it as a default then. */
typedef struct rt_need {
    int slot;
    rt_op ops[4];
} rt_need;

typedef struct rt_area {
    /* jvmtirt_init, once the port is applied; no lock held. */
    void (*started)(void);
    /* DisposeEnvironment, under rt.lock: drop what e asked for. */
    void (*env_disposed)(rt_env *e);
    /* e is freed, under rt.lock, once no posting cursor can reach it: free
     * what the area keeps for it. */
    void (*env_freed)(rt_env *e);
    /* jvmtirt_thread_end, before rt.lock is taken: the thread's frames are
     * gone (its id may come back for another thread). */
    void (*thread_ended)(uintptr_t thread_id);
    /* t is freed, under rt.lock, unlinked from the registry. */
    void (*thread_freed)(rt_thread *t);
    /* jvmtirt_shutdown, under rt.lock, before the environments and
     * threads are freed: free what the area still holds. */
    void (*shutdown)(void);
    const rt_need *needs;
    size_t n_needs;
} rt_area;

#endif
