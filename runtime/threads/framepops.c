/* Frame-pop requests (NotifyFramePop, ClearAllFramePops) and FramePop
 * delivered only to the environments that asked for that frame.
 *
 * A request is (environment, thread id, frame key), the key being what the
 * VM's frame_at gave for the frame at the requested depth. The VM arms a
 * frame when the first environment asks for it and disarms it when the last
 * request goes; when an armed frame pops it calls jvmtirt_frame_popped,
 * which takes that frame's requests out of the table and posts FramePop
 * through the generated path with the requesting environments as the
 * filter (a thread-local list: the post runs on the popping thread). */
#include <stdlib.h>

#include "jvmtigen_impl.h"
#include "jvmtigen_post.h"
#include "rt.h"
#include "threads.h"

typedef struct fp_req {
    rt_env *env;
    uintptr_t thread, frame;
} fp_req;

static pthread_mutex_t fp_lock = PTHREAD_MUTEX_INITIALIZER; /* lock order: base/rt.h */
static fp_req *reqs;
static size_t n_reqs, cap_reqs;

/* The environments the FramePop being posted on this thread goes to; a
 * callback that pops another armed frame nests a list in front. */
typedef struct fp_popping {
    rt_env **envs;
    size_t n;
    struct fp_popping *outer;
} fp_popping;
static JVMTIGEN_TLS fp_popping *popping;

/* The index of env's request (env NULL: anyone's), or -1. Under fp_lock. */
static long find(const rt_env *env, uintptr_t thread, uintptr_t frame)
{
    for (size_t i = 0; i < n_reqs; i++)
        if (reqs[i].thread == thread && reqs[i].frame == frame && (!env || reqs[i].env == env))
            return (long)i;
    return -1;
}

/* Removes request i; the VM disarms its frame if no request is left. */
static void drop(size_t i)
{
    fp_req r = reqs[i];
    reqs[i] = reqs[--n_reqs];
    if (find(NULL, r.thread, r.frame) < 0)
        rt.config.frame_pop_arm(r.thread, r.frame, 0);
}

/* The thread (NULL: current) in *id, if this call may change its frame
 * pops: the calling thread, or one suspended through JVM TI (the core's
 * own record of it, as SuspendThread keeps it). Its errors are the other
 * thread functions': UNATTACHED_THREAD, check_thread's, THREAD_NOT_ALIVE. */
static jvmtiError target(jvmtiEnv *env, jthread thread, uintptr_t *id)
{
    if (!rt.config.frame_at || !rt.config.frame_pop_arm)
        return JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    rt_thread *t;
    jvmtiError err = rt_thread_of_ref(env, thread, &t);
    if (err == JVMTI_ERROR_NONE) {
        *id = t->id;
        if (t != rt_self && !t->suspended)
            err = JVMTI_ERROR_THREAD_NOT_SUSPENDED;
    }
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_NotifyFramePop(jvmtiEnv *env, jthread thread, jint depth)
{
    uintptr_t id, frame;
    jvmtiError err = target(env, thread, &id);
    if (err != JVMTI_ERROR_NONE)
        return err;
    rt_env *e = rt_env_of(env);
    pthread_mutex_lock(&fp_lock);
    err = rt.config.frame_at(id, depth, &frame);
    /* A second request of the same frame: JVM TI 25 answers DUPLICATE, the
     * earlier specs keep the one request (and post FramePop once). */
    int again = err == JVMTI_ERROR_NONE && find(e, id, frame) >= 0;
#ifdef JVMTIGEN_HAS_NotifyFramePop_JVMTI_ERROR_DUPLICATE
    if (again)
        err = JVMTI_ERROR_DUPLICATE;
#endif
    if (err == JVMTI_ERROR_NONE && !again && n_reqs == cap_reqs) {
        size_t cap = cap_reqs ? 2 * cap_reqs : 16;
        fp_req *grown = realloc(reqs, cap * sizeof *grown);
        if (!grown)
            err = JVMTI_ERROR_OUT_OF_MEMORY;
        else
            reqs = grown, cap_reqs = cap;
    }
    if (err == JVMTI_ERROR_NONE && !again) {
        if (find(NULL, id, frame) < 0)
            rt.config.frame_pop_arm(id, frame, 1);
        reqs[n_reqs++] = (fp_req){e, id, frame};
    }
    pthread_mutex_unlock(&fp_lock);
    return err;
}

#ifdef JVMTIGEN_HAS_ClearAllFramePops /* JVM TI 25 on */
jvmtiError jvmti_impl_ClearAllFramePops(jvmtiEnv *env, jthread thread)
{
    uintptr_t id;
    jvmtiError err = target(env, thread, &id);
    if (err != JVMTI_ERROR_NONE)
        return err;
    pthread_mutex_lock(&fp_lock);
    for (size_t i = n_reqs; i-- > 0;)
        if (reqs[i].env == rt_env_of(env) && reqs[i].thread == id)
            drop(i);
    pthread_mutex_unlock(&fp_lock);
    return JVMTI_ERROR_NONE;
}
#endif

void rt_frame_pops_forget(uintptr_t thread, uintptr_t frame)
{
    pthread_mutex_lock(&fp_lock);
    int had = 0;
    for (size_t i = n_reqs; i-- > 0;)
        if (reqs[i].thread == thread && reqs[i].frame == frame) {
            reqs[i] = reqs[--n_reqs];
            had = 1;
        }
    if (had)
        rt.config.frame_pop_arm(thread, frame, 0);
    pthread_mutex_unlock(&fp_lock);
}

void jvmtirt_frame_popped(JNIEnv *jni, jthread thread, jmethodID method,
                          jboolean was_popped_by_exception, uintptr_t frame)
{
    uintptr_t id = jvmtirt_current_thread_id();
    /* Opened first: an environment found below, disposed while FramePop is
     * posted, is not freed (nor its address reused) until the walk ends. */
    int walk = rt_walk_begin();
    fp_popping p = {NULL, 0, popping};
    pthread_mutex_lock(&fp_lock);
    size_t n = 0;
    for (size_t i = 0; i < n_reqs; i++)
        n += reqs[i].thread == id && reqs[i].frame == frame;
    p.envs = n ? malloc(n * sizeof *p.envs) : NULL;
    for (size_t i = n_reqs; i-- > 0;)
        if (reqs[i].thread == id && reqs[i].frame == frame) {
            if (p.envs)
                p.envs[p.n++] = reqs[i].env;
            reqs[i] = reqs[--n_reqs]; /* popped: nothing to disarm */
        }
    pthread_mutex_unlock(&fp_lock);
    if (p.n) {
        popping = &p;
        jvmtirt_post_FramePop(jni, thread, method, was_popped_by_exception);
        popping = p.outer;
    }
    free(p.envs);
    rt_walk_end(walk);
}

static int filter_FramePop(jvmtiEnv *env, JNIEnv *jni_env, jthread thread,
                       jmethodID method, jboolean was_popped_by_exception)
{
    (void)jni_env, (void)thread, (void)method, (void)was_popped_by_exception;
    if (popping)
        for (size_t i = 0; i < popping->n; i++)
            if (popping->envs[i] == rt_env_of(env))
                return 1;
    return 0; /* posted by the VM itself, not through jvmtirt_frame_popped */
}

static void env_disposed(rt_env *e)
{
    pthread_mutex_lock(&fp_lock);
    for (size_t i = n_reqs; i-- > 0;)
        if (reqs[i].env == e)
            drop(i);
    pthread_mutex_unlock(&fp_lock);
}

static void thread_ended(uintptr_t thread_id)
{
    pthread_mutex_lock(&fp_lock);
    for (size_t i = n_reqs; i-- > 0;)
        if (reqs[i].thread == thread_id)
            reqs[i] = reqs[--n_reqs]; /* its frames are gone: nothing to disarm */
    pthread_mutex_unlock(&fp_lock);
}

static void shutdown(void)
{
    pthread_mutex_lock(&fp_lock);
    free(reqs);
    reqs = NULL;
    n_reqs = cap_reqs = 0;
    pthread_mutex_unlock(&fp_lock);
}

static void started(void) { jvmtigen_post_filter_FramePop = filter_FramePop; }

static const rt_need needs[] = {
    {RT_SLOT(NotifyFramePop), {RT_OP(frame_at), RT_OP(frame_pop_arm)}},
#ifdef JVMTIGEN_HAS_ClearAllFramePops
    {RT_SLOT(ClearAllFramePops), {RT_OP(frame_at), RT_OP(frame_pop_arm)}},
#endif
};

const rt_area rt_area_framepops = {.started = started,
                                   .env_disposed = env_disposed,
                                   .thread_ended = thread_ended,
                                   .shutdown = shutdown,
                                   .needs = needs,
                                   .n_needs = sizeof needs / sizeof *needs};
