/* rt.h: the runtime core's internal state, shared by its source files.
 *
 * Locking: one mutex (rt.lock) guards everything that changes rarely: the
 * environment list, the thread registry, capabilities held solo, per-thread
 * event settings, properties, extension registries. The posting path takes
 * no lock: it reads the environment list, masks and callbacks with atomic
 * loads, and holds a `posting` count up while it walks, so that no
 * environment it may see is freed under it (see env.c). */
#ifndef JVMTIRT_RT_H
#define JVMTIRT_RT_H

#include <pthread.h>
#include <stdint.h>

#include "jvmtigen_post_support.h"
#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define RT_EVENTS (JVMTI_MAX_EVENT_TYPE_VAL - JVMTI_MIN_EVENT_TYPE_VAL + 1)
#define RT_ENV_DEAD 0x44454144 /* "DEAD": the magic of a disposed environment */
/* Freed environment slots kept back before one is reused (env.c). */
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
    /* ---- objects (tags.c, thread_storage.c) ---- */
    struct rt_tag_map *tags;   /* atomic: created by the first SetTag */
    /* ---- frames (prefixes.c): under its prefix lock ---- */
    char **native_prefixes;
    jint n_native_prefixes;
    /* ---- end frames ---- */
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
    /* ---- objects (thread_storage.c, suspend.c, thread_cpu.c) ---- */
    struct rt_tls *tls;            /* atomic head; read lock-free by the thread */
    pthread_t pthread;             /* the OS thread that started it */
    int suspended;                 /* under rt.lock: suspended by JVM TI */
    int kind;                      /* jvmtirt_thread_kind: GetAllThreads lists JAVA ones */
} rt_thread;

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
    /* Disposed environments, freed in grace periods (env.c): */
    rt_env *pending;         /* unlinked, waiting for the next grace period */
    rt_env *waiting;         /* unlinked before the last flip of `epoch` */
    long posting[2];         /* atomic: open posting cursors, by their epoch */
    int epoch;               /* atomic: the grace-period epoch new cursors count in (0, 1) */
    int waiting_epoch;       /* the epoch whose cursors `waiting` waits for */
    int n_pending;           /* atomic: environments on both lists */
    rt_env *free_head, *free_tail; /* emptied slots, oldest first (env.c) */
    long n_free, n_slots;    /* slots free, and allocated in all */
    long n_envs;
    rt_thread *threads;
    long n_threads;
    rt_env *solo_holder[JVMTIRT_CAPABILITY_COUNT];
    jvmtiCapabilities onload_added; /* OnLoad-only ones some environment added in OnLoad */
    rt_property *properties;
    jvmtiExtensionFunctionInfo *ext_functions;
    jint n_ext_functions;
    jvmtiExtensionEventInfo *ext_events;
    jint n_ext_events;
    int ext_frozen;          /* set once an environment exists */
};

extern struct rt_state rt;
extern JVMTIGEN_TLS rt_thread *rt_self;

static inline rt_env *rt_env_of(jvmtiEnv *env) { return (rt_env *)(void *)env; }

/* Recomputes every environment's thread_mask and jvmtigen_events_on, and
 * tells the VM. Under rt.lock. */
void rt_events_recompute(void);
/* Frees the disposed environments no posting cursor can reach any more,
 * and starts a grace period for the rest. */
void rt_reclaim_if_quiet(void);
/* A posting cursor opens (returns its grace-period epoch) and closes (with
 * it). */
int rt_walk_begin(void);
void rt_walk_end(int epoch);
/* The calling OS thread, for raw monitor ownership (works on any thread,
 * attached or not). */
const void *rt_thread_token(void);
/* The registry's record for id, or NULL. Under rt.lock. */
rt_thread *rt_thread_find(uintptr_t id);
/* Called by jvmtirt_init / jvmtirt_shutdown. */
void rt_monitors_init(void);
void rt_monitors_shutdown(void);
long rt_monitor_count(void);
void rt_free_properties_and_extensions(void);

/* The port (port.c): rt_port_take copies the VM's config (0 and a message
 * on stderr if its size or version is unknown); rt_port_apply, under
 * rt.lock, installs its checks and implementations and withdraws the
 * capabilities whose functions are all defaults (ILLEGAL_ARGUMENT: a
 * function of the core registered; NOT_AVAILABLE: strict and missing;
 * each with a message on stderr). */
int rt_port_take(jvmtirt_config *to, const jvmtirt_config *from);
jvmtiError rt_port_apply(jvmtirt_config *c);

/* ---- objects ----
 * Frees what e holds of this area (tags, thread-local storage); called when
 * e itself is freed (env.c), under rt.lock, once no posting cursor can
 * reach e. */
void rt_objects_env_freed(rt_env *e);
void rt_tls_env_freed(rt_env *e);
/* Frees t's thread-local storage (threads.c, under rt.lock, t unlinked). */
void rt_objects_thread_freed(rt_thread *t);
/* The record of a jthread argument (NULL: the calling thread), after the
 * VM's check_thread hook: JVMTI_ERROR_NONE and *out, or INVALID_THREAD,
 * THREAD_NOT_ALIVE (no record: never started or ended), UNATTACHED_THREAD
 * (NULL from a thread the core does not know). Under rt.lock; *out is
 * valid while it is held. */
jvmtiError rt_thread_of_ref(jvmtiEnv *env, jthread thread, rt_thread **out);

/* The object's identity (config.object_id, or the reference's value); 0
 * for NULL or what is no object. The tag map's key (tags.c). */
uintptr_t rt_object_identity(jobject object);
/* The environment's tag of the object with that identity (0: none), and
 * setting it (0 removes it); for the heap walks. No lock held by the caller. */
jlong rt_tag_get(rt_env *e, uintptr_t key);
jvmtiError rt_tag_put(rt_env *e, uintptr_t key, jlong tag);

/* ---- heap (heap.c) ----
 * 0 when function is one of the heap walks and the VM left out an
 * enumeration they need (port.c counts it as a default). */
int rt_heap_supplied(const char *function);

/* malloc'd copy (NULL on out of memory). */
char *rt_strdup(const char *s);


/* ---- frames: who gets Breakpoint, FieldAccess, FieldModification and
 * FramePop (breakpoints.c, framepops.c); jvmtirt_init installs them as the
 * generated jvmtigen_post_filter_NAME ---- */
int rt_filter_Breakpoint(jvmtiEnv *env, JNIEnv *jni_env, jthread thread, jmethodID method,
                         jlocation location);
int rt_filter_FieldAccess(jvmtiEnv *env, JNIEnv *jni_env, jthread thread, jmethodID method,
                          jlocation location, jclass field_klass, jobject object, jfieldID field);
int rt_filter_FieldModification(jvmtiEnv *env, JNIEnv *jni_env, jthread thread,
                                jmethodID method, jlocation location, jclass field_klass,
                                jobject object, jfieldID field, char signature_type,
                                jvalue new_value);
int rt_filter_FramePop(jvmtiEnv *env, JNIEnv *jni_env, jthread thread, jmethodID method,
                       jboolean was_popped_by_exception);

#endif
