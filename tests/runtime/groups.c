/* groups.c: unit tests of the thread-group functions and RunAgentThread
 * (runtime/threads/groups.c) through real function tables: which groups
 * and members are listed (live platform threads only, never an agent
 * thread), the copied name, the spec's errors (INVALID_THREAD_GROUP,
 * INVALID_PRIORITY, INVALID_THREAD, UNSUPPORTED_OPERATION, WRONG_PHASE),
 * the agent's function run on a registered thread with its env and arg, a
 * VM's refusal to start one, a VM without the operations (NOT_AVAILABLE,
 * reported); and agent threads started from two threads at once while a
 * third lists a group (race-free under SANITIZE=thread). This program plays
 * the VM; expected values are written by hand from the spec and the VM
 * below. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define TAP_PREFIX "groups: "
#include "tap.h"
#include "vm_threads.h"

#define EXPECT(got, want, ...) TAP_CHECK_EQ(got, want, __VA_ARGS__)

/* ---- the VM: thread objects and groups are the addresses of these ---- */

enum {
    MAIN, WORKER, NEW, ENDED, VIRTUAL, NEW_VIRTUAL, AGENT, STARTER_A, STARTER_B, LISTER,
    N_FIXED, N_THREADS = N_FIXED + 16
};
static char thread_objs[N_THREADS];
#define T(i) ((jthread)(void *)&thread_objs[i])
enum { SYSTEM, MAIN_GROUP, SUB, OTHER, N_GROUPS };
static char group_objs[N_GROUPS];
#define G(i) ((jthreadGroup)(void *)&group_objs[i])
static char not_a_group, not_a_thread;

static int is_thread(jobject o)
{
    char *p = (char *)(void *)o;
    return p >= thread_objs && p < thread_objs + N_THREADS;
}

/* The objects made for agent threads (and NEW, NEW_VIRTUAL) are not
 * started as far as this check knows; the rest are. */
static jvmtiError check_thread(jvmtiEnv *env, jthread thread)
{
    (void)env;
    if (!is_thread(thread))
        return JVMTI_ERROR_INVALID_THREAD;
    char *p = (char *)(void *)thread;
    return p == (char *)T(NEW) || p == (char *)T(NEW_VIRTUAL) || p == (char *)T(AGENT) ||
                   p >= (char *)T(N_FIXED)
               ? JVMTI_ERROR_THREAD_NOT_ALIVE
               : JVMTI_ERROR_NONE;
}

static jthread thread_ref(uintptr_t id) { return (jthread)(void *)id; }
static int thread_is_virtual(uintptr_t id)
{
    return id == (uintptr_t)T(VIRTUAL) || id == (uintptr_t)T(NEW_VIRTUAL);
}

static int group_no(jthreadGroup g)
{
    char *p = (char *)(void *)g;
    return p >= group_objs && p < group_objs + N_GROUPS ? (int)(p - group_objs) : -1;
}

static long members_calls; /* atomic */

/* system > main > sub; other, a second top group. The VM lists in main
 * every thread whose object names it, started or not, the agent threads'
 * objects too (their Thread objects were made in it): the core keeps the
 * live platform threads that are no agent threads. */
static jvmtiError members(jthreadGroup group, int (*visit_thread)(void *, jthread),
                          int (*visit_group)(void *, jthreadGroup), void *arg)
{
    __atomic_fetch_add(&members_calls, 1, __ATOMIC_RELAXED);
    if (!group) {
        if (!visit_group(arg, G(SYSTEM)))
            visit_group(arg, G(OTHER));
        return JVMTI_ERROR_NONE;
    }
    switch (group_no(group)) {
    case SYSTEM:
        visit_group(arg, G(MAIN_GROUP));
        return JVMTI_ERROR_NONE;
    case MAIN_GROUP:
        for (int i = 0; i < N_THREADS; i++)
            if (visit_thread(arg, T(i)))
                return JVMTI_ERROR_NONE;
        visit_group(arg, G(SUB));
        return JVMTI_ERROR_NONE;
    case SUB:
    case OTHER:
        return JVMTI_ERROR_NONE;
    default:
        return JVMTI_ERROR_INVALID_THREAD_GROUP;
    }
}

static jvmtiError group_info(jthreadGroup group, jvmtirt_thread_group_info *out)
{
    static const char *const names[N_GROUPS] = {"system", "main", "sub", NULL};
    int g = group_no(group);
    if (g < 0)
        return JVMTI_ERROR_INVALID_THREAD_GROUP;
    out->parent = g == MAIN_GROUP ? G(SYSTEM) : g == SUB ? G(MAIN_GROUP) : NULL;
    out->name = names[g]; /* other's: NULL, read as "" */
    out->max_priority = g == SUB ? 7 : 10;
    out->is_daemon = g == SUB;
    return JVMTI_ERROR_NONE;
}

/* ---- agent threads: the VM starts an OS thread, registers it, runs the
 * core's body, then ends it ---- */

typedef struct agent_os {
    jthread thread;
    void (*body)(JNIEnv *, void *);
    void *ctx;
    int started;
} agent_os;

static pthread_mutex_t agents_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t agents_cond = PTHREAD_COND_INITIALIZER;
static pthread_t agents_os[64];
static agent_os *agents_arg[64];
static int agents_n;
static int refuse_start;
static char jni_of_agents; /* what the agents' JNIEnv pointer is */
#define AGENT_JNI ((JNIEnv *)(void *)&jni_of_agents)
static int priorities_seen[11];

static void *agent_main(void *arg)
{
    agent_os *a = arg;
    jvmtirt_thread_start((uintptr_t)a->thread, JVMTIRT_JAVA_THREAD);
    pthread_mutex_lock(&agents_lock);
    a->started = 1;
    pthread_cond_broadcast(&agents_cond);
    pthread_mutex_unlock(&agents_lock);
    a->body(AGENT_JNI, a->ctx);
    jvmtirt_thread_end();
    return NULL;
}

static jvmtiError start_agent_thread(jthread thread, jint priority,
                                     void (*body)(JNIEnv *, void *), void *ctx)
{
    if (refuse_start)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    agent_os *a = calloc(1, sizeof *a);
    if (!a)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    *a = (agent_os){thread, body, ctx, 0};
    pthread_mutex_lock(&agents_lock);
    int i = agents_n++;
    agents_arg[i] = a;
    priorities_seen[priority]++;
    pthread_create(&agents_os[i], NULL, agent_main, a);
    while (!a->started) /* the spec: started by the time RunAgentThread returns */
        pthread_cond_wait(&agents_cond, &agents_lock);
    pthread_mutex_unlock(&agents_lock);
    return JVMTI_ERROR_NONE;
}

static void agents_join(void)
{
    for (int i = 0; i < agents_n; i++) {
        pthread_join(agents_os[i], NULL);
        free(agents_arg[i]);
    }
    agents_n = 0;
}

/* ---- the agent ---- */

static jvmtiEnv *new_env(void)
{
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION);
    return e;
}

/* What the agent function saw, and a gate that holds it until released. */
static struct {
    jvmtiEnv *env;
    JNIEnv *jni;
    void *arg;
    jthread current;
    jvmtiError current_err;
    int ran, release;
} seen;

static void JNICALL agent_proc(jvmtiEnv *env, JNIEnv *jni, void *arg)
{
    jthread cur = NULL;
    jvmtiError err = (*env)->GetCurrentThread(env, &cur);
    pthread_mutex_lock(&agents_lock);
    seen.env = env;
    seen.jni = jni;
    seen.arg = arg;
    seen.current = cur;
    seen.current_err = err;
    seen.ran = 1;
    pthread_cond_broadcast(&agents_cond);
    while (!seen.release)
        pthread_cond_wait(&agents_cond, &agents_lock);
    pthread_mutex_unlock(&agents_lock);
}

static void agent_wait_ran(void)
{
    pthread_mutex_lock(&agents_lock);
    while (!seen.ran)
        pthread_cond_wait(&agents_cond, &agents_lock);
    pthread_mutex_unlock(&agents_lock);
}

static void agent_release(void)
{
    pthread_mutex_lock(&agents_lock);
    seen.release = 1;
    pthread_cond_broadcast(&agents_cond);
    pthread_mutex_unlock(&agents_lock);
}

static void core_up(int with_ops)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    c.check_thread = check_thread;
    c.thread_ref = thread_ref;
    c.thread_is_virtual = thread_is_virtual;
    if (with_ops) {
        c.thread_group_members = members;
        c.thread_group_info = group_info;
        c.start_agent_thread = start_agent_thread;
    }
    if (jvmtirt_init(&c) != JVMTI_ERROR_NONE)
        tap_line(0, "jvmtirt_init refused the config");
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start((uintptr_t)T(MAIN), JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_START);
}

static void core_down(void)
{
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

static int contains(jthread *list, jint n, jthread t)
{
    for (jint i = 0; i < n; i++)
        if (list[i] == t)
            return 1;
    return 0;
}

static void section_groups(jvmtiEnv *e)
{
    jint n = -1;
    jthreadGroup *groups = NULL;
    EXPECT((*e)->GetTopThreadGroups(e, &n, &groups), JVMTI_ERROR_NONE, "GetTopThreadGroups");
    EXPECT(n, 2, "... two top groups");
    EXPECT(n == 2 && groups[0] == G(SYSTEM) && groups[1] == G(OTHER), 1,
           "... system and other, in the VM's order");
    (*e)->Deallocate(e, (unsigned char *)groups);

    jvmtiThreadGroupInfo info;
    memset(&info, 0, sizeof info);
    EXPECT((*e)->GetThreadGroupInfo(e, G(MAIN_GROUP), &info), JVMTI_ERROR_NONE,
           "GetThreadGroupInfo(main)");
    EXPECT(info.parent == G(SYSTEM), 1, "... its parent is system");
    EXPECT(info.name && strcmp(info.name, "main") == 0, 1, "... its name is main");
    EXPECT(info.max_priority, 10, "... max_priority");
    EXPECT(info.is_daemon, JNI_FALSE, "... not a daemon group");
    EXPECT((*e)->Deallocate(e, (unsigned char *)info.name), JVMTI_ERROR_NONE,
           "... its name is the agent's to Deallocate");
    EXPECT((*e)->GetThreadGroupInfo(e, G(SUB), &info), JVMTI_ERROR_NONE, "GetThreadGroupInfo(sub)");
    EXPECT(info.parent == G(MAIN_GROUP) && info.max_priority == 7 && info.is_daemon == JNI_TRUE, 1,
           "... parent main, max_priority 7, a daemon group");
    (*e)->Deallocate(e, (unsigned char *)info.name);
    EXPECT((*e)->GetThreadGroupInfo(e, G(OTHER), &info), JVMTI_ERROR_NONE,
           "GetThreadGroupInfo(other)");
    EXPECT(info.parent == NULL && info.name && info.name[0] == '\0', 1,
           "... a top group (parent NULL), the VM's NULL name is \"\"");
    (*e)->Deallocate(e, (unsigned char *)info.name);
    EXPECT((*e)->GetThreadGroupInfo(e, NULL, &info), JVMTI_ERROR_INVALID_THREAD_GROUP,
           "GetThreadGroupInfo(NULL): INVALID_THREAD_GROUP");
    EXPECT((*e)->GetThreadGroupInfo(e, (jthreadGroup)(void *)&not_a_group, &info),
           JVMTI_ERROR_INVALID_THREAD_GROUP, "GetThreadGroupInfo(not a group): the VM's INVALID_THREAD_GROUP");
    EXPECT((*e)->GetThreadGroupInfo(e, G(MAIN_GROUP), NULL), JVMTI_ERROR_NULL_POINTER,
           "GetThreadGroupInfo(main, NULL): NULL_POINTER");

    jint nt = -1, ng = -1;
    jthread *threads = NULL;
    jthreadGroup *children = NULL;
    EXPECT((*e)->GetThreadGroupChildren(e, G(MAIN_GROUP), &nt, &threads, &ng, &children),
           JVMTI_ERROR_NONE, "GetThreadGroupChildren(main)");
    EXPECT(nt, 2, "... two live platform threads");
    EXPECT(contains(threads, nt, T(MAIN)) && contains(threads, nt, T(WORKER)), 1,
           "... main and worker (not the unstarted, ended or virtual ones)");
    EXPECT(ng == 1 && children[0] == G(SUB), 1, "... and one child group, sub");
    (*e)->Deallocate(e, (unsigned char *)threads);
    (*e)->Deallocate(e, (unsigned char *)children);
    EXPECT((*e)->GetThreadGroupChildren(e, G(SUB), &nt, &threads, &ng, &children),
           JVMTI_ERROR_NONE, "GetThreadGroupChildren(sub)");
    EXPECT(nt == 0 && ng == 0, 1, "... an empty group: no threads, no groups");
    (*e)->Deallocate(e, (unsigned char *)threads);
    (*e)->Deallocate(e, (unsigned char *)children);
    EXPECT((*e)->GetThreadGroupChildren(e, NULL, &nt, &threads, &ng, &children),
           JVMTI_ERROR_INVALID_THREAD_GROUP, "GetThreadGroupChildren(NULL): INVALID_THREAD_GROUP");
    EXPECT((*e)->GetThreadGroupChildren(e, (jthreadGroup)(void *)&not_a_group, &nt, &threads, &ng,
                                        &children),
           JVMTI_ERROR_INVALID_THREAD_GROUP, "GetThreadGroupChildren(not a group): INVALID_THREAD_GROUP");
}

static char agent_arg;

static void section_run_agent_thread(jvmtiEnv *e)
{
    EXPECT((*e)->RunAgentThread(e, T(AGENT), agent_proc, &agent_arg, 0),
           JVMTI_ERROR_INVALID_PRIORITY, "RunAgentThread(priority 0): INVALID_PRIORITY");
    EXPECT((*e)->RunAgentThread(e, T(AGENT), agent_proc, &agent_arg, 11),
           JVMTI_ERROR_INVALID_PRIORITY, "RunAgentThread(priority 11): INVALID_PRIORITY");
    EXPECT((*e)->RunAgentThread(e, NULL, agent_proc, &agent_arg, 5), JVMTI_ERROR_INVALID_THREAD,
           "RunAgentThread(NULL thread): INVALID_THREAD");
    EXPECT((*e)->RunAgentThread(e, (jthread)(void *)&not_a_thread, agent_proc, &agent_arg, 5),
           JVMTI_ERROR_INVALID_THREAD, "RunAgentThread(not a thread): INVALID_THREAD");
#ifdef JVMTIGEN_HAS_RunAgentThread_JVMTI_ERROR_UNSUPPORTED_OPERATION /* virtual threads: 21 on */
    EXPECT((*e)->RunAgentThread(e, T(NEW_VIRTUAL), agent_proc, &agent_arg, 5),
           JVMTI_ERROR_UNSUPPORTED_OPERATION, "RunAgentThread(a virtual thread): UNSUPPORTED_OPERATION");
#endif
    EXPECT((*e)->RunAgentThread(e, T(MAIN), agent_proc, &agent_arg, 0), JVMTI_ERROR_INVALID_THREAD,
           "RunAgentThread(a live thread, priority 0): INVALID_THREAD first, as HotSpot 17");
    EXPECT((*e)->RunAgentThread(e, T(AGENT), NULL, &agent_arg, 5), JVMTI_ERROR_NULL_POINTER,
           "RunAgentThread(proc NULL): NULL_POINTER");
    EXPECT(agents_n, 0, "... none of them asked the VM to start a thread");
    refuse_start = 1;
    EXPECT((*e)->RunAgentThread(e, T(AGENT), agent_proc, &agent_arg, 5), JVMTI_ERROR_OUT_OF_MEMORY,
           "RunAgentThread: the VM's refusal to start is the answer (and nothing leaks)");
    refuse_start = 0;

    memset(&seen, 0, sizeof seen);
    EXPECT((*e)->RunAgentThread(e, T(AGENT), agent_proc, &agent_arg, JVMTI_THREAD_MAX_PRIORITY),
           JVMTI_ERROR_NONE, "RunAgentThread(priority 10)");
    EXPECT(priorities_seen[10], 1, "... the VM was asked to start it at priority 10");
    agent_wait_ran();
    EXPECT(seen.env == e && seen.arg == &agent_arg && seen.jni == AGENT_JNI, 1,
           "... the agent's function gets the environment, the new thread's JNIEnv and arg");
    EXPECT(seen.current_err, JVMTI_ERROR_NONE, "... on a thread the core knows (GetCurrentThread)");
    EXPECT(seen.current == T(AGENT), 1, "... which is the thread object given");
    EXPECT((*e)->RunAgentThread(e, T(AGENT), agent_proc, &agent_arg, 5), JVMTI_ERROR_INVALID_THREAD,
           "RunAgentThread of it again while it runs (the VM's check says not alive): INVALID_THREAD");
    jint n = 0;
    jthread *all = NULL;
    (*e)->GetAllThreads(e, &n, &all);
    EXPECT(contains(all, n, T(AGENT)), 1, "GetAllThreads lists the running agent thread");
    (*e)->Deallocate(e, (unsigned char *)all);
    jint nt = 0, ng = 0;
    jthread *threads = NULL;
    jthreadGroup *children = NULL;
    (*e)->GetThreadGroupChildren(e, G(MAIN_GROUP), &nt, &threads, &ng, &children);
    EXPECT(contains(threads, nt, T(AGENT)), 0,
           "GetThreadGroupChildren leaves it out, though the VM listed its object in main");
    EXPECT(nt, 2, "... main and worker only");
    (*e)->Deallocate(e, (unsigned char *)threads);
    (*e)->Deallocate(e, (unsigned char *)children);
    agent_release();
    agents_join();
}

/* Agent threads started from two threads at once, each running briefly,
 * while a third lists main's members: every one started, none listed. */
static jvmtiEnv *race_env;
static long race_listed_agent, race_done; /* atomic */

static void JNICALL short_proc(jvmtiEnv *env, JNIEnv *jni, void *arg)
{
    (void)env, (void)jni;
    __atomic_fetch_add((long *)arg, 1, __ATOMIC_RELAXED);
}

static long race_ran; /* atomic */

static void *starter(void *arg)
{
    int first = (int)(intptr_t)arg;
    jvmtirt_thread_start((uintptr_t)T(first == N_FIXED ? STARTER_A : STARTER_B), JVMTIRT_JAVA_THREAD);
    for (int i = first; i < first + 8; i++)
        if ((*race_env)->RunAgentThread(race_env, T(i), short_proc, &race_ran, 1 + i % 10) !=
            JVMTI_ERROR_NONE)
            tap_line(0, "groups: race: RunAgentThread(%d) failed", i);
    jvmtirt_thread_end();
    return NULL;
}

static void *lister(void *arg)
{
    (void)arg;
    jvmtirt_thread_start((uintptr_t)T(LISTER), JVMTIRT_JAVA_THREAD);
    while (!__atomic_load_n(&race_done, __ATOMIC_ACQUIRE)) {
        jint nt = 0, ng = 0;
        jthread *threads = NULL;
        jthreadGroup *children = NULL;
        if ((*race_env)->GetThreadGroupChildren(race_env, G(MAIN_GROUP), &nt, &threads, &ng,
                                                &children) != JVMTI_ERROR_NONE)
            continue;
        for (jint i = 0; i < nt; i++)
            if (threads[i] >= T(N_FIXED))
                __atomic_fetch_add(&race_listed_agent, 1, __ATOMIC_RELAXED);
        (*race_env)->Deallocate(race_env, (unsigned char *)threads);
        (*race_env)->Deallocate(race_env, (unsigned char *)children);
    }
    jvmtirt_thread_end();
    return NULL;
}

static void section_race(jvmtiEnv *e)
{
    race_env = e;
    pthread_t a, b, l;
    pthread_create(&l, NULL, lister, NULL);
    pthread_create(&a, NULL, starter, (void *)(intptr_t)N_FIXED);
    pthread_create(&b, NULL, starter, (void *)(intptr_t)(N_FIXED + 8));
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    agents_join();
    __atomic_store_n(&race_done, 1, __ATOMIC_RELEASE);
    pthread_join(l, NULL);
    EXPECT(__atomic_load_n(&race_ran, __ATOMIC_RELAXED), 16,
           "race: 16 agent threads started from two threads, each ran its function once");
    EXPECT(__atomic_load_n(&race_listed_agent, __ATOMIC_RELAXED), 0,
           "... and no listing of main's members, made meanwhile, had one");
}

int main(void)
{
    static const vm_thread others[] = {{(uintptr_t)T(WORKER), JVMTIRT_JAVA_THREAD},
                                       {(uintptr_t)T(VIRTUAL), JVMTIRT_JAVA_THREAD}};
    core_up(1);
    jvmtiEnv *e = new_env();
    jvmtiThreadGroupInfo info;
    EXPECT((*e)->GetThreadGroupInfo(e, G(MAIN_GROUP), &info), JVMTI_ERROR_WRONG_PHASE,
           "GetThreadGroupInfo in the start phase: WRONG_PHASE");
    EXPECT((*e)->RunAgentThread(e, T(AGENT), agent_proc, &agent_arg, 5), JVMTI_ERROR_WRONG_PHASE,
           "RunAgentThread in the start phase: WRONG_PHASE");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    /* ENDED started and ended; WORKER and VIRTUAL run; NEW never starts. */
    vm_thread ended = {(uintptr_t)T(ENDED), JVMTIRT_JAVA_THREAD};
    vm_threads_start(&ended, 1);
    vm_threads_stop();
    vm_threads_start(others, 2);
    section_groups(e);
    section_run_agent_thread(e);
    vm_threads_stop();
    vm_threads_start(others, 1); /* WORKER, beside the race */
    section_race(e);
    vm_threads_stop();
    (*e)->DisposeEnvironment(e);
    core_down();

    /* A VM without the operations: NOT_AVAILABLE, and the report names
     * them (they need no capability: every VM should have them). */
    core_up(0);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    e = new_env();
    jint n;
    jthreadGroup *groups;
    EXPECT((*e)->GetTopThreadGroups(e, &n, &groups), JVMTI_ERROR_NOT_AVAILABLE,
           "no operations: GetTopThreadGroups is NOT_AVAILABLE");
    EXPECT((*e)->RunAgentThread(e, T(AGENT), agent_proc, &agent_arg, 5), JVMTI_ERROR_NOT_AVAILABLE,
           "... RunAgentThread too");
    FILE *f = tmpfile();
    if (f) {
        jvmtirt_report_defaults(f);
        rewind(f);
        char buf[512];
        int named = 0;
        while (fgets(buf, sizeof buf, f))
            named += strstr(buf, "function GetThreadGroupChildren answers") != NULL ||
                     strstr(buf, "function RunAgentThread answers JVMTI_ERROR_NOT_AVAILABLE "
                                 "(the core's, needs config.start_agent_thread") != NULL;
        fclose(f);
        EXPECT(named, 2, "... and jvmtirt_report_defaults names them, with the operation");
    }
    (*e)->DisposeEnvironment(e);
    core_down();
    EXPECT(members_calls > 0, 1, "the VM's enumeration was used");
    return tap_failures ? 1 : 0;
}
