/* Checking environments, and the answers the generated checks ask for:
 * validity, phase, the calling thread, capabilities. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmticheck.h"

/* Environments are few (one or two per agent) and never freed: an
 * append-only array read without a lock (jvmticheck.h reads it inline). */
#define MAX_ENVS JVMTICHECK_MAX_ENVS
#define envs jvmticheck_envs
#define n_envs jvmticheck_n_envs
jvmticheck_env *envs[MAX_ENVS];
int n_envs; /* atomic */
static pthread_mutex_t envs_lock = PTHREAD_MUTEX_INITIALIZER;

JavaVM *jvmticheck_vm;
jvmtiEnv *jvmticheck_self;

#define find jvmticheck_env_find

int jvmticheck_env_disposed(jvmtiEnv *env)
{
    jvmticheck_env *e = find(env);
    return e && __atomic_load_n(&e->magic, __ATOMIC_RELAXED) == JVMTICHECK_DISPOSED;
}

jvmticheck_agent *jvmticheck_agent_of(jvmtiEnv *env)
{
    jvmticheck_env *e = find(env);
    return e ? e->agent : __atomic_load_n(&jvmticheck_latest, __ATOMIC_ACQUIRE);
}

jvmticheck_env *jvmticheck_env_of(jvmtiEnv *real)
{
    int n = __atomic_load_n(&n_envs, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if (envs[i]->real == real && __atomic_load_n(&envs[i]->magic, __ATOMIC_RELAXED) == JVMTICHECK_MAGIC)
            return envs[i];
    return NULL;
}

/* NULL when the table is full (the agent then gets the VM's environment
 * itself, unchecked, rather than none). */
jvmtiEnv *jvmticheck_env_new(jvmtiEnv *real, jvmticheck_agent *agent)
{
    jvmticheck_env *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->agent = agent;
    e->real = real;
    jvmticheck_table_init(e, agent->table);
    e->functions = &e->table;
    e->magic = JVMTICHECK_MAGIC;
    jvmticheck_caps_refresh(e);
    pthread_mutex_lock(&envs_lock);
    int n = n_envs;
    if (n == MAX_ENVS) {
        pthread_mutex_unlock(&envs_lock);
        free(e);
        return NULL;
    }
    envs[n] = e;
    __atomic_store_n(&n_envs, n + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&envs_lock);
    return (jvmtiEnv *)(void *)e;
}

/* Capabilities change on one thread while others test them: word by word. */
typedef jvmticheck_cap_word cap_word;
#define CAP_WORDS (sizeof(jvmtiCapabilities) / sizeof(cap_word))

void jvmticheck_caps_refresh(jvmticheck_env *e)
{
    jvmtiCapabilities c;
    memset(&c, 0, sizeof c);
    if ((*e->real)->GetCapabilities(e->real, &c) != JVMTI_ERROR_NONE)
        return;
    const cap_word *src = (const cap_word *)(const void *)&c;
    cap_word *dst = (cap_word *)(void *)&e->caps;
    for (size_t i = 0; i < CAP_WORDS; i++)
        __atomic_store_n(&dst[i], src[i], __ATOMIC_RELAXED);
}

/* The phase, kept by the checker from the VM's own events on its own
 * environment (created before the agent's, so it hears each event first):
 * VMStart and VMInit move it on before the agent's callbacks run. The dead
 * phase begins only after every VMDeath callback has returned, so from
 * VMDeath on the VM is asked each time (GetPhase costs tens of ns in
 * HotSpot; a load costs nothing). On a thread HotSpot does not know,
 * GetPhase fails, and the last phase known stands. */
#define phase_cached jvmticheck_phase_cached
#define phase_ask jvmticheck_phase_asking
int phase_cached = JVMTI_PHASE_ONLOAD; /* atomic; read inline by jvmticheck.h */
int phase_ask;                         /* atomic: 1 from VMDeath on */

void jvmticheck_phase_set(jvmtiPhase p)
{
    __atomic_store_n(&phase_cached, (int)p, __ATOMIC_RELAXED);
}

void jvmticheck_phase_ask_vm(void)
{
    __atomic_store_n(&phase_ask, 1, __ATOMIC_RELAXED);
}

jvmtiPhase jvmticheck_phase_now(void)
{
    jvmtiPhase p;
    if (!__atomic_load_n(&phase_ask, __ATOMIC_RELAXED))
        return (jvmtiPhase)__atomic_load_n(&phase_cached, __ATOMIC_RELAXED);
    if ((*jvmticheck_self)->GetPhase(jvmticheck_self, &p) == JVMTI_ERROR_NONE) {
        jvmticheck_phase_set(p);
        return p;
    }
    return (jvmtiPhase)__atomic_load_n(&phase_cached, __ATOMIC_RELAXED);
}

/* A thread the VM attached (a Java thread, or a native one through JNI)
 * is one JNI's GetEnv answers on; once it has, the answer is kept (a
 * thread that detaches later is still taken for attached: a finding
 * missed, never a false one). The VM's own threads (GC, compiler) are not
 * attached: they are taken for VM threads, which callbacksafe functions
 * accept; so an unattached native thread calling one of those goes
 * unreported (the VM answers for it). During OnLoad the VM has no threads
 * yet. */
/* initial-exec: a plain load from the thread pointer instead of a call to
 * __tls_get_addr on every checked call (one int of the static TLS that
 * glibc keeps spare for libraries loaded later). */
#define attached_here jvmticheck_attached_here
__thread int attached_here __attribute__((tls_model("initial-exec")));

int jvmticheck_attached(int rule)
{
    if (rule == JVMTICHECK_JAVA_OR_VM || attached_here)
        return 1;
    if (rule == JVMTICHECK_JAVA_IF_THREADS && jvmticheck_phase_now() == JVMTI_PHASE_ONLOAD)
        return 1;
    void *jni = NULL;
    attached_here = (*jvmticheck_vm)->GetEnv(jvmticheck_vm, &jni, JNI_VERSION_1_2) == JNI_OK;
    return attached_here;
}

long long jvmticheck_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
