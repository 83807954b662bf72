/* Breakpoints and field watches: which environment set which, arming in
 * the VM only when the first environment sets one and disarming when the
 * last clears it, and the filters that deliver Breakpoint, FieldAccess and
 * FieldModification only to the environments that set or watch them.
 *
 * One table of (kind, key, environment) records under its own lock, scanned
 * linearly: debuggers set tens of breakpoints, not thousands, and the
 * scan runs only on set, clear, dispose and a hit of an armed location. */
#include <stdlib.h>

#include "jvmtigen_impl.h"
#include "jvmtigen_post.h"
#include "rt.h"
#include "threads.h"

typedef enum { BP_BREAKPOINT, BP_ACCESS, BP_MODIFICATION } bp_kind;

typedef struct bp_rec {
    bp_kind kind;
    uintptr_t a;  /* the method, or the class id */
    intptr_t b;   /* the location, or the field */
    rt_env *env;
} bp_rec;

static pthread_mutex_t bp_lock = PTHREAD_MUTEX_INITIALIZER; /* lock order: base/rt.h */
static bp_rec *recs;
static size_t n_recs, cap_recs;

static int same_key(const bp_rec *r, bp_kind kind, uintptr_t a, intptr_t b)
{
    return r->kind == kind && r->a == a && r->b == b;
}

/* The index of env's record, or of any environment's (env NULL), or -1. */
static long find(bp_kind kind, uintptr_t a, intptr_t b, const rt_env *env)
{
    for (size_t i = 0; i < n_recs; i++)
        if (same_key(&recs[i], kind, a, b) && (!env || recs[i].env == env))
            return (long)i;
    return -1;
}

/* The VM's arming operation for a kind, or NOT_AVAILABLE without one. */
static jvmtiError arm(bp_kind kind, uintptr_t a, intptr_t b, int on)
{
    if (kind == BP_BREAKPOINT)
        return rt.config.breakpoint_arm ? rt.config.breakpoint_arm((jmethodID)a, (jlocation)b, on)
                                        : JVMTI_ERROR_NOT_AVAILABLE;
    return rt.config.field_watch_arm
               ? rt.config.field_watch_arm(a, (jfieldID)b,
                                           kind == BP_ACCESS ? JVMTI_EVENT_FIELD_ACCESS
                                                             : JVMTI_EVENT_FIELD_MODIFICATION,
                                           on)
               : JVMTI_ERROR_NOT_AVAILABLE;
}

static jvmtiError set(jvmtiEnv *env, bp_kind kind, uintptr_t a, intptr_t b)
{
    rt_env *e = rt_env_of(env);
    jvmtiError err = JVMTI_ERROR_NONE;
    pthread_mutex_lock(&bp_lock);
    if (find(kind, a, b, e) >= 0) {
        err = JVMTI_ERROR_DUPLICATE;
    } else if (n_recs == cap_recs) {
        size_t cap = cap_recs ? 2 * cap_recs : 16;
        bp_rec *grown = realloc(recs, cap * sizeof *grown);
        if (!grown)
            err = JVMTI_ERROR_OUT_OF_MEMORY;
        else
            recs = grown, cap_recs = cap;
    }
    /* The VM sees a location or field only once, however many set it. */
    if (err == JVMTI_ERROR_NONE && find(kind, a, b, NULL) < 0)
        err = arm(kind, a, b, 1);
    if (err == JVMTI_ERROR_NONE)
        recs[n_recs++] = (bp_rec){kind, a, b, e};
    pthread_mutex_unlock(&bp_lock);
    return err;
}

/* Removes record i (under bp_lock); disarms its key if it was the last. */
static void drop(size_t i)
{
    bp_rec r = recs[i];
    recs[i] = recs[--n_recs];
    if (find(r.kind, r.a, r.b, NULL) < 0)
        (void)arm(r.kind, r.a, r.b, 0);
}

static jvmtiError clear(jvmtiEnv *env, bp_kind kind, uintptr_t a, intptr_t b)
{
    pthread_mutex_lock(&bp_lock);
    long i = find(kind, a, b, rt_env_of(env));
    if (i >= 0)
        drop((size_t)i);
    pthread_mutex_unlock(&bp_lock);
    return i >= 0 ? JVMTI_ERROR_NONE : JVMTI_ERROR_NOT_FOUND;
}

static int has(jvmtiEnv *env, bp_kind kind, uintptr_t a, intptr_t b)
{
    pthread_mutex_lock(&bp_lock);
    int yes = find(kind, a, b, rt_env_of(env)) >= 0;
    pthread_mutex_unlock(&bp_lock);
    return yes;
}

static uintptr_t class_id(jclass klass)
{
    return rt.config.class_id ? rt.config.class_id(klass) : (uintptr_t)klass;
}

static void env_disposed(rt_env *e)
{
    pthread_mutex_lock(&bp_lock);
    for (size_t i = n_recs; i-- > 0;)
        if (recs[i].env == e)
            drop(i);
    pthread_mutex_unlock(&bp_lock);
}

static void shutdown(void)
{
    pthread_mutex_lock(&bp_lock);
    free(recs);
    recs = NULL;
    n_recs = cap_recs = 0;
    pthread_mutex_unlock(&bp_lock);
}

/* ---- the JVM TI functions (the trampolines checked the rest) ---- */

jvmtiError jvmti_impl_SetBreakpoint(jvmtiEnv *env, jmethodID method, jlocation location)
{
    return set(env, BP_BREAKPOINT, (uintptr_t)method, (intptr_t)location);
}

jvmtiError jvmti_impl_ClearBreakpoint(jvmtiEnv *env, jmethodID method, jlocation location)
{
    return clear(env, BP_BREAKPOINT, (uintptr_t)method, (intptr_t)location);
}

jvmtiError jvmti_impl_SetFieldAccessWatch(jvmtiEnv *env, jclass klass, jfieldID field)
{
    return set(env, BP_ACCESS, class_id(klass), (intptr_t)field);
}

jvmtiError jvmti_impl_ClearFieldAccessWatch(jvmtiEnv *env, jclass klass, jfieldID field)
{
    return clear(env, BP_ACCESS, class_id(klass), (intptr_t)field);
}

jvmtiError jvmti_impl_SetFieldModificationWatch(jvmtiEnv *env, jclass klass, jfieldID field)
{
    return set(env, BP_MODIFICATION, class_id(klass), (intptr_t)field);
}

jvmtiError jvmti_impl_ClearFieldModificationWatch(jvmtiEnv *env, jclass klass, jfieldID field)
{
    return clear(env, BP_MODIFICATION, class_id(klass), (intptr_t)field);
}

/* ---- the posting filters (jvmtigen_post_filter_NAME, set when the core starts) ---- */

static int filter_Breakpoint(jvmtiEnv *env, JNIEnv *jni_env, jthread thread,
                         jmethodID method, jlocation location)
{
    (void)jni_env, (void)thread;
    return has(env, BP_BREAKPOINT, (uintptr_t)method, (intptr_t)location);
}

static int filter_FieldAccess(jvmtiEnv *env, JNIEnv *jni_env, jthread thread,
                          jmethodID method, jlocation location, jclass field_klass,
                          jobject object, jfieldID field)
{
    (void)jni_env, (void)thread, (void)method, (void)location, (void)object;
    return has(env, BP_ACCESS, class_id(field_klass), (intptr_t)field);
}

static int filter_FieldModification(jvmtiEnv *env, JNIEnv *jni_env, jthread thread,
                                jmethodID method, jlocation location,
                                jclass field_klass, jobject object, jfieldID field,
                                char signature_type, jvalue new_value)
{
    (void)jni_env, (void)thread, (void)method, (void)location, (void)object;
    (void)signature_type, (void)new_value;
    return has(env, BP_MODIFICATION, class_id(field_klass), (intptr_t)field);
}

static void started(void)
{
    jvmtigen_post_filter_Breakpoint = filter_Breakpoint;
    jvmtigen_post_filter_FieldAccess = filter_FieldAccess;
    jvmtigen_post_filter_FieldModification = filter_FieldModification;
}

static const rt_need needs[] = {
    {RT_SLOT(SetBreakpoint), {RT_OP(breakpoint_arm)}},
    {RT_SLOT(ClearBreakpoint), {RT_OP(breakpoint_arm)}},
    {RT_SLOT(SetFieldAccessWatch), {RT_OP(field_watch_arm)}},
    {RT_SLOT(ClearFieldAccessWatch), {RT_OP(field_watch_arm)}},
    {RT_SLOT(SetFieldModificationWatch), {RT_OP(field_watch_arm)}},
    {RT_SLOT(ClearFieldModificationWatch), {RT_OP(field_watch_arm)}},
};

const rt_area rt_area_breakpoints = {.started = started,
                                     .env_disposed = env_disposed,
                                     .shutdown = shutdown,
                                     .needs = needs,
                                     .n_needs = sizeof needs / sizeof *needs};
