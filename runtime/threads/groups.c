/* Thread groups (GetTopThreadGroups, GetThreadGroupInfo,
 * GetThreadGroupChildren) over the VM's thread_group_members and
 * thread_group_info, and RunAgentThread over its start_agent_thread. The
 * core makes the spec's checks, lays out what the agent Deallocates, keeps
 * only live platform threads among a group's members and leaves agent
 * threads out of every group (the spec: a thread RunAgentThread started is
 * in no group), so the VM only enumerates and starts. */
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_impl.h"
#include "rt.h"
#include "threads.h"

static const rt_need needs[] = {
    {RT_SLOT(GetTopThreadGroups), {RT_OP(thread_group_members)}},
    {RT_SLOT(GetThreadGroupInfo), {RT_OP(thread_group_info)}},
    {RT_SLOT(GetThreadGroupChildren), {RT_OP(thread_group_members)}},
    {RT_SLOT(RunAgentThread), {RT_OP(start_agent_thread)}},
};

const rt_area rt_area_groups = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};

typedef struct members {
    rt_refs threads, groups;
} members;

static int add_thread(void *arg, jthread thread)
{
    return rt_refs_add(&((members *)arg)->threads, thread);
}

static int add_group(void *arg, jthreadGroup group)
{
    return rt_refs_add(&((members *)arg)->groups, group);
}

jvmtiError jvmti_impl_GetTopThreadGroups(jvmtiEnv *env, jint *group_count_ptr,
                                         jthreadGroup **groups_ptr)
{
    if (!rt.config.thread_group_members)
        return JVMTI_ERROR_NOT_AVAILABLE;
    members m = {{0}, {0}};
    jvmtiError err = rt.config.thread_group_members(NULL, add_thread, add_group, &m);
    if (err == JVMTI_ERROR_NONE && m.threads.oom)
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    rt_refs_release(&m.threads, 0); /* top-level members are groups only */
    free(m.threads.at);
    return rt_refs_hand_over(env, &m.groups, err, group_count_ptr, groups_ptr);
}

jvmtiError jvmti_impl_GetThreadGroupInfo(jvmtiEnv *env, jthreadGroup group,
                                         jvmtiThreadGroupInfo *info_ptr)
{
    if (!rt.config.thread_group_info)
        return JVMTI_ERROR_NOT_AVAILABLE;
    if (!group)
        return JVMTI_ERROR_INVALID_THREAD_GROUP;
    jvmtirt_thread_group_info in;
    memset(&in, 0, sizeof in);
    jvmtiError err = rt.config.thread_group_info(group, &in);
    if (err != JVMTI_ERROR_NONE)
        return err;
    const char *name = in.name ? in.name : "";
    size_t len = strlen(name) + 1;
    unsigned char *copy = NULL;
    err = jvmti_impl_Allocate(env, (jlong)len, &copy);
    if (err != JVMTI_ERROR_NONE)
        return err;
    memcpy(copy, name, len);
    info_ptr->parent = in.parent;
    info_ptr->name = (char *)copy;
    info_ptr->max_priority = in.max_priority;
    info_ptr->is_daemon = in.is_daemon ? JNI_TRUE : JNI_FALSE;
    return JVMTI_ERROR_NONE;
}

/* Whether the thread with that id is one GetThreadGroupChildren lists: a
 * Java thread started and not ended, not virtual, not an agent thread.
 * Under rt.lock. */
static int listed_member(uintptr_t id)
{
    rt_thread *t = rt_thread_find(id);
    return t && t->kind == JVMTIRT_JAVA_THREAD && !t->agent &&
           !(rt.config.thread_is_virtual && rt.config.thread_is_virtual(id));
}

jvmtiError jvmti_impl_GetThreadGroupChildren(jvmtiEnv *env, jthreadGroup group,
                                             jint *thread_count_ptr, jthread **threads_ptr,
                                             jint *group_count_ptr, jthreadGroup **groups_ptr)
{
    if (!rt.config.thread_group_members)
        return JVMTI_ERROR_NOT_AVAILABLE;
    if (!group)
        return JVMTI_ERROR_INVALID_THREAD_GROUP;
    members m = {{0}, {0}};
    jvmtiError err = rt.config.thread_group_members(group, add_thread, add_group, &m);
    if (err == JVMTI_ERROR_NONE && m.groups.oom)
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    if (err == JVMTI_ERROR_NONE && !m.threads.oom) {
        /* thread_id is asked with no lock held, the registry under rt.lock. */
        uintptr_t *ids = malloc((m.threads.n > 0 ? m.threads.n : 1) * sizeof *ids);
        for (size_t i = 0; ids && i < m.threads.n; i++)
            ids[i] = rt.config.thread_id ? rt.config.thread_id(m.threads.at[i])
                                         : (uintptr_t)m.threads.at[i];
        /* Kept members move to the front, the others to the back, whose
         * references are released once the lock is let go. */
        size_t kept = 0;
        pthread_mutex_lock(&rt.lock);
        for (size_t i = 0; ids && i < m.threads.n; i++)
            if (listed_member(ids[i])) {
                jthread t = m.threads.at[kept];
                m.threads.at[kept++] = m.threads.at[i];
                m.threads.at[i] = t;
            }
        pthread_mutex_unlock(&rt.lock);
        if (ids)
            rt_refs_release(&m.threads, kept);
        else
            err = JVMTI_ERROR_OUT_OF_MEMORY;
        free(ids);
    }
    jint n_threads = 0;
    jthread *threads = NULL;
    err = rt_refs_hand_over(env, &m.threads, err, &n_threads, &threads);
    if (err != JVMTI_ERROR_NONE) {
        rt_refs_release(&m.groups, 0);
        free(m.groups.at);
        return err;
    }
    err = rt_refs_hand_over(env, &m.groups, err, group_count_ptr, groups_ptr);
    if (err != JVMTI_ERROR_NONE) {
        for (jint i = 0; i < n_threads; i++)
            rt_release_ref(threads[i]);
        jvmti_impl_Deallocate(env, (unsigned char *)threads);
        return err;
    }
    *thread_count_ptr = n_threads;
    *threads_ptr = threads;
    return JVMTI_ERROR_NONE;
}

/* ---- RunAgentThread ---- */

typedef struct agent_start {
    jvmtiEnv *env;
    jvmtiStartFunction proc;
    const void *arg;
} agent_start;

/* On the new thread, which the VM registered (jvmtirt_thread_start marked
 * it an agent thread) and attached: runs the agent's function. */
static void agent_body(JNIEnv *jni, void *ctx)
{
    agent_start start = *(agent_start *)ctx;
    free(ctx);
    start.proc(start.env, jni, (void *)start.arg);
}

jvmtiError jvmti_impl_RunAgentThread(jvmtiEnv *env, jthread thread, jvmtiStartFunction proc,
                                     const void *arg, jint priority)
{
    if (!rt.config.start_agent_thread)
        return JVMTI_ERROR_NOT_AVAILABLE;
    /* The thread is unchecked by the trampoline (impl="noconvert"): it must
     * be a thread object not started yet (the VM's check answers
     * THREAD_NOT_ALIVE for it); a live one is INVALID_THREAD, as HotSpot 17
     * answers, before the priority is looked at. */
    if (!thread)
        return JVMTI_ERROR_INVALID_THREAD;
    jvmtiError checked = rt.config.check_thread ? rt.config.check_thread(env, thread)
                                                : JVMTI_ERROR_THREAD_NOT_ALIVE;
    if (checked != JVMTI_ERROR_THREAD_NOT_ALIVE)
        return JVMTI_ERROR_INVALID_THREAD;
    uintptr_t id = rt.config.thread_id ? rt.config.thread_id(thread) : (uintptr_t)thread;
    pthread_mutex_lock(&rt.lock);
    int is_virtual = rt.config.thread_is_virtual && rt.config.thread_is_virtual(id);
    int started = rt_thread_find(id) != NULL;
    pthread_mutex_unlock(&rt.lock);
    if (started)
        return JVMTI_ERROR_INVALID_THREAD;
#ifdef JVMTIGEN_HAS_RunAgentThread_JVMTI_ERROR_UNSUPPORTED_OPERATION
    /* A virtual thread (JDK 21 on) cannot be an agent thread. */
    if (is_virtual)
        return JVMTI_ERROR_UNSUPPORTED_OPERATION;
#else
    (void)is_virtual;
#endif
    if (priority < JVMTI_THREAD_MIN_PRIORITY || priority > JVMTI_THREAD_MAX_PRIORITY)
        return JVMTI_ERROR_INVALID_PRIORITY;
    agent_start *start = malloc(sizeof *start);
    if (!start)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    *start = (agent_start){env, proc, arg};
    /* The new thread registers (jvmtirt_thread_start) before the VM's
     * operation returns: marked there, it is in no group from its first
     * moment (marked by the thread itself, a query could list it first). */
    rt_agent_start pending = {id, NULL};
    pthread_mutex_lock(&rt.lock);
    pending.next = rt.agent_starts;
    rt.agent_starts = &pending;
    pthread_mutex_unlock(&rt.lock);
    jvmtiError err = rt.config.start_agent_thread(thread, priority, agent_body, start);
    pthread_mutex_lock(&rt.lock);
    for (rt_agent_start **a = &rt.agent_starts; *a; a = &(*a)->next)
        if (*a == &pending) { /* the thread never registered with that id */
            *a = pending.next;
            break;
        }
    pthread_mutex_unlock(&rt.lock);
    if (err != JVMTI_ERROR_NONE)
        free(start); /* the VM started nothing: agent_body never runs */
    return err;
}
