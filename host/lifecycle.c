/* A thread's life in the VM: it begins on its OS thread (the core's
 * jvmtirt_thread_start, then ThreadStart) and finishes there (ThreadEnd,
 * jvmtirt_thread_end). Here the three kinds of threads the VM starts
 * itself: agent threads (RunAgentThread, config.start_agent_thread), the
 * -threads:N workers, each running Thread.run (programs.c) unless a test
 * hook runs something else (hooks.h), and the core's thread operations:
 * which handles are live threads, and each one's facts. */
#include <stdio.h>
#include <stdlib.h>

#include "hooks.h"
#include "host.h"
#include "jvmtigen_post.h"
#include "jvmtirt.h"

void host_thread_begin(host_thread *t, const char *name, int post)
{
    if (t->obj.kind != HOST_THREAD) /* set already where others may read it */
        t->obj.kind = HOST_THREAD;
    host_frames_thread_begin(t); /* its JNIEnv: the JNI table of the moment */
    host_stacks_thread_begin(t);
    if (name != t->name) /* a worker's name is set already: copying it onto itself emptied it */
        snprintf(t->name, sizeof t->name, "%s", name);
    __atomic_store_n(&t->alive, 1, __ATOMIC_RELEASE);
    host_current_set(t);
    jvmtirt_thread_start((uintptr_t)t, JVMTIRT_JAVA_THREAD);
    if (post)
        jvmtirt_post_ThreadStart((JNIEnv *)&t->jni, host_jthread(t));
}

void host_thread_finish(host_thread *t, int post)
{
    if (post)
        jvmtirt_post_ThreadEnd((JNIEnv *)&t->jni, host_jthread(t));
    jvmtirt_thread_end();
    host_frames_thread_end(t);
    host_stacks_thread_end(t);
    __atomic_store_n(&t->alive, 0, __ATOMIC_RELEASE);
    host_current_set(NULL);
}

/* ---- agent threads ---- */

static pthread_mutex_t agents_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t agent_started = PTHREAD_COND_INITIALIZER;

typedef struct agent_run {
    host_thread *t;
    void (*body)(JNIEnv *jni, void *ctx);
    void *ctx;
    int running;
} agent_run;

static void *agent_main(void *arg)
{
    agent_run run = *(agent_run *)arg;
    /* registers it, posts ThreadStart; named by its constructor, if any */
    host_thread_begin(run.t, run.t->name[0] ? run.t->name : "agent", 1);
    pthread_mutex_lock(&agents_lock);
    ((agent_run *)arg)->running = 1;
    pthread_cond_broadcast(&agent_started);
    pthread_mutex_unlock(&agents_lock);
    run.body(host_current_jni(), run.ctx);
    host_thread_finish(run.t, 1);
    return NULL;
}

/* On the agent's thread: the thread runs, registered, before this returns
 * (the spec: started by the time RunAgentThread returns). */
static jvmtiError start_agent_thread(jthread thread, jint priority,
                                     void (*body)(JNIEnv *jni, void *ctx), void *ctx)
{
    host_thread *t = host_thread_of(thread);
    /* A thread object that runs, or ran, already: the host runs each once. */
    if (!t || t->agent_priority || __atomic_load_n(&t->alive, __ATOMIC_ACQUIRE) || t->jni)
        return JVMTI_ERROR_INVALID_THREAD;
    t->agent_priority = priority;
    agent_run run = {t, body, ctx, 0};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED); /* a daemon: nobody joins it */
    pthread_t os;
    int rc = pthread_create(&os, &attr, agent_main, &run);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        t->agent_priority = 0;
        return JVMTI_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&agents_lock);
    while (!run.running)
        pthread_cond_wait(&agent_started, &agents_lock);
    pthread_mutex_unlock(&agents_lock);
    return JVMTI_ERROR_NONE;
}

/* ---- the workers ---- */

static int workers_running; /* atomic */

static int workers_busy(void) { return __atomic_load_n(&workers_running, __ATOMIC_ACQUIRE) > 0; }

static void *worker_main(void *arg)
{
    host_thread *t = arg;
    const host_hooks *h = host_hooks_get();
    host_thread_begin(t, t->name, 1);
    if (h->worker)
        h->worker(t, host_programs_worker);
    else
        host_programs_worker(t);
    host_thread_finish(t, 1);
    __atomic_sub_fetch(&workers_running, 1, __ATOMIC_RELEASE);
    return NULL;
}

void host_workers_run(void)
{
    const host_hooks *h = host_hooks_get();
    int n = host_n_workers();
    pthread_t *ids = calloc((size_t)n + 1, sizeof *ids);
    if (h->workers_start)
        h->workers_start();
    __atomic_store_n(&workers_running, n, __ATOMIC_RELEASE);
    for (int i = 0; i < n; i++) {
        host_thread *t = host_worker(i);
        snprintf(t->name, sizeof t->name, "worker-%d", i);
        pthread_create(&ids[i], NULL, worker_main, t);
    }
    if (h->workers_running)
        h->workers_running(workers_busy);
    for (int i = 0; i < n; i++)
        pthread_join(ids[i], NULL);
    free(ids);
}

/* ---- the core's thread operations ---- */

static jvmtiError check_thread(jvmtiEnv *env, jthread thread)
{
    (void)env;
    host_thread *t = host_thread_of(thread);
    if (!t)
        return JVMTI_ERROR_INVALID_THREAD;
    return __atomic_load_n(&t->alive, __ATOMIC_ACQUIRE) ? JVMTI_ERROR_NONE
                                                        : JVMTI_ERROR_THREAD_NOT_ALIVE;
}

static uintptr_t thread_id(jthread thread) { return (uintptr_t)host_thread_of(thread); }

/* The core's GetCurrentThread and GetAllThreads ask for the thread object
 * of an id: ids are host_thread addresses, and thread objects live until
 * the process ends. */
static jthread thread_ref(uintptr_t id) { return host_jthread((host_thread *)id); }

/* GetThreadInfo's facts. The main thread and the workers are in group
 * main at Java's default priority, 5; an agent thread is a daemon in no
 * group, at the priority RunAgentThread gave (above). The host has no
 * class loaders (NULL). */
static jvmtiError thread_info(jthread thread, jvmtirt_thread_info *out)
{
    host_thread *t = host_thread_of(thread);
    out->name = t->name;
    out->priority = t->agent_priority ? t->agent_priority : 5;
    out->is_daemon = t->agent_priority ? JNI_TRUE : JNI_FALSE;
    out->thread_group = host_thread_group_of(t);
    return JVMTI_ERROR_NONE;
}

void host_threads_configure(jvmtirt_config *c)
{
    c->thread_id = thread_id;
    c->thread_ref = thread_ref; /* GetCurrentThread, GetAllThreads */
    c->thread_info = thread_info;
    c->check_thread = check_thread;
    c->start_agent_thread = start_agent_thread;
    /* The samples jvmtirt_init tries thread_id/thread_ref and the object
     * identity on: the main thread, whose object exists before it starts. */
    c->sample_thread = (uintptr_t)&host_main_thread;
    c->sample_object = host_jthread(&host_main_thread);
}
