/* The host's thread groups and the thread objects JNI makes: what the
 * core's GetTopThreadGroups, GetThreadGroupInfo and GetThreadGroupChildren
 * ask of the VM (config.thread_group_members, config.thread_group_info).
 * Two groups, as a JVM starts with: "system" at the top and its child
 * "main", which holds the main thread and the workers. A thread object an
 * agent makes with JNI AllocObject is in no group; with NewObject, in the
 * group and with the name its constructor was given (jni_calls.c). An
 * agent thread runs on one (RunAgentThread, lifecycle.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

static host_object group_system = {HOST_THREAD_GROUP};
static host_object group_main = {HOST_THREAD_GROUP};
#define SYSTEM ((jthreadGroup)&group_system)
#define MAIN ((jthreadGroup)&group_main)

jthreadGroup host_thread_group_of(host_thread *t)
{
    if (t->group)
        return t->group; /* made by JNI with Thread's constructor (jni_calls.c) */
    return t->agent_priority ? NULL : MAIN;
}

static void made_each(jthreadGroup group, int (*visit_thread)(void *arg, jthread thread), void *arg);

static jvmtiError members(jthreadGroup group, int (*visit_thread)(void *arg, jthread thread),
                          int (*visit_group)(void *arg, jthreadGroup child), void *arg)
{
    if (!group)
        visit_group(arg, SYSTEM);
    else if (group == SYSTEM)
        visit_group(arg, MAIN);
    else if (group == MAIN)
        host_threads_each(visit_thread, arg); /* the core keeps the live ones */
    else
        return JVMTI_ERROR_INVALID_THREAD_GROUP;
    made_each(group, visit_thread, arg); /* agent threads constructed in the group */
    return JVMTI_ERROR_NONE;
}

static jvmtiError group_info(jthreadGroup group, jvmtirt_thread_group_info *out)
{
    if (group != SYSTEM && group != MAIN)
        return JVMTI_ERROR_INVALID_THREAD_GROUP;
    out->parent = group == MAIN ? SYSTEM : NULL;
    out->name = group == MAIN ? "main" : "system";
    out->max_priority = JVMTI_THREAD_MAX_PRIORITY;
    out->is_daemon = JNI_FALSE;
    return JVMTI_ERROR_NONE;
}

/* ---- thread objects made through JNI ---- */

/* Thread objects made through JNI: kept until the process ends, like every
 * thread object of the host (agents may hold references). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static host_thread **made;
static size_t n_made, cap_made;

jobject host_thread_new(void)
{
    host_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->obj.kind = HOST_THREAD;
    pthread_mutex_lock(&lock);
    if (n_made == cap_made) {
        size_t cap = cap_made ? cap_made * 2 : 8;
        host_thread **grown = realloc(made, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&lock);
            free(t);
            return NULL;
        }
        made = grown;
        cap_made = cap;
    }
    made[n_made++] = t;
    pthread_mutex_unlock(&lock);
    return (jobject)&t->obj;
}

/* Thread(ThreadGroup, String) (jni_calls.c): under the lock, since the
 * object is listed (made) before its constructor runs. */
void host_thread_construct(host_thread *t, jthreadGroup group, const char *name)
{
    pthread_mutex_lock(&lock);
    t->group = group;
    if (name)
        snprintf(t->name, sizeof t->name, "%s", name);
    pthread_mutex_unlock(&lock);
}

/* The thread objects JNI made in group (their constructor's). */
static void made_each(jthreadGroup group, int (*visit_thread)(void *arg, jthread thread), void *arg)
{
    pthread_mutex_lock(&lock);
    size_t n = n_made;
    pthread_mutex_unlock(&lock);
    for (size_t i = 0; group && i < n; i++) {
        pthread_mutex_lock(&lock);
        host_thread *t = made[i];
        int in_group = t->group == group;
        pthread_mutex_unlock(&lock);
        if (in_group && visit_thread(arg, (jthread)&t->obj))
            return;
    }
}

void host_groups_configure(jvmtirt_config *c)
{
    c->thread_group_members = members;
    c->thread_group_info = group_info;
}
