/* Checking environments, and the answers the generated checks ask for:
 * validity, phase, the calling thread, capabilities. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmticheck.h"

/* Environments are few (one or two per agent) and never freed: an
 * append-only array, NULL after the last, read without a lock
 * (jvmticheck.h reads it inline). */
#define MAX_ENVS JVMTICHECK_MAX_ENVS
#define envs jvmticheck_envs
jvmticheck_env *envs[MAX_ENVS + 1]; /* each entry atomic; the last stays NULL */
static int n_envs;              /* under envs_lock */
static pthread_mutex_t envs_lock = PTHREAD_MUTEX_INITIALIZER;

JavaVM *jvmticheck_vm;
jvmtiEnv *jvmticheck_self;

#define find jvmticheck_env_find

int jvmticheck_env_disposed(jvmtiEnv *env)
{
    jvmticheck_env *e = find(env);
    return e && __atomic_load_n(&e->magic, __ATOMIC_RELAXED) == JVMTICHECK_DISPOSED;
}

jvmticheck_env *jvmticheck_env_of(jvmtiEnv *real)
{
    jvmticheck_env *e;
    for (jvmticheck_env **p = envs; (e = __atomic_load_n(p, __ATOMIC_ACQUIRE)) != NULL; p++)
        if (e->real == real && __atomic_load_n(&e->magic, __ATOMIC_RELAXED) == JVMTICHECK_MAGIC)
            return e;
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
    __atomic_store_n(&envs[n], e, __ATOMIC_RELEASE);
    n_envs = n + 1;
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
#define phase_bits jvmticheck_phase_bits
int phase_cached = JVMTI_PHASE_ONLOAD; /* atomic; read inline by jvmticheck.h */
int phase_ask;                         /* atomic: 1 from VMDeath on */
/* 1 << phase_cached until VMDeath, then 0: the generated entries' quick
 * test reads this one word. Written under phase_lock (a VMInit racing a
 * VMDeath cannot leave a live phase in it). */
unsigned phase_bits = 1u << JVMTI_PHASE_ONLOAD;
static pthread_mutex_t phase_lock = PTHREAD_MUTEX_INITIALIZER;

void jvmticheck_phase_set(jvmtiPhase p)
{
    pthread_mutex_lock(&phase_lock);
    __atomic_store_n(&phase_cached, (int)p, __ATOMIC_RELAXED);
    if (!__atomic_load_n(&phase_ask, __ATOMIC_RELAXED))
        __atomic_store_n(&phase_bits, 1u << p, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&phase_lock);
}

void jvmticheck_phase_ask_vm(void)
{
    pthread_mutex_lock(&phase_lock);
    __atomic_store_n(&phase_ask, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&phase_bits, 0u, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&phase_lock);
}

jvmtiPhase jvmticheck_phase_now(void)
{
    jvmtiPhase p;
    if (!__atomic_load_n(&phase_ask, __ATOMIC_RELAXED))
        return (jvmtiPhase)__atomic_load_n(&phase_cached, __ATOMIC_RELAXED);
    if ((*jvmticheck_self)->GetPhase(jvmticheck_self, &p) == JVMTI_ERROR_NONE) {
        __atomic_store_n(&phase_cached, (int)p, __ATOMIC_RELAXED);
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
