/* Checking environments, and the answers the generated checks ask for:
 * validity, phase, the calling thread, capabilities. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmticheck.h"

/* Environments are few (one or two per agent) and never freed: an
 * append-only array read without a lock. */
#define MAX_ENVS 256
static jvmticheck_env *envs[MAX_ENVS];
static int n_envs; /* atomic */
static pthread_mutex_t envs_lock = PTHREAD_MUTEX_INITIALIZER;

const struct jvmtiInterface_1_ *jvmticheck_table = &jvmticheck_functions;
JavaVM *jvmticheck_vm;
jvmtiEnv *jvmticheck_self;

static jvmticheck_env *find(jvmtiEnv *env)
{
    int n = __atomic_load_n(&n_envs, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if ((jvmtiEnv *)(void *)envs[i] == env)
            return envs[i];
    return NULL;
}

int jvmticheck_env_valid(jvmtiEnv *env)
{
    jvmticheck_env *e = find(env);
    return e && __atomic_load_n(&e->magic, __ATOMIC_RELAXED) == JVMTICHECK_MAGIC;
}

int jvmticheck_env_disposed(jvmtiEnv *env)
{
    jvmticheck_env *e = find(env);
    return e && __atomic_load_n(&e->magic, __ATOMIC_RELAXED) == JVMTICHECK_DISPOSED;
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
jvmtiEnv *jvmticheck_env_new(jvmtiEnv *real)
{
    jvmticheck_env *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->functions = jvmticheck_table;
    e->real = real;
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
typedef unsigned int __attribute__((may_alias)) cap_word;
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

jvmtiCapabilities jvmticheck_caps_of(jvmtiEnv *env)
{
    jvmtiCapabilities c;
    const cap_word *src = (const cap_word *)(const void *)&((jvmticheck_env *)(void *)env)->caps;
    cap_word *dst = (cap_word *)(void *)&c;
    for (size_t i = 0; i < CAP_WORDS; i++)
        dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
    return c;
}

/* HotSpot answers GetPhase on any thread it knows; on a native thread it
 * does not, the last answer stands (phases only move forward). */
static int last_phase = JVMTI_PHASE_ONLOAD; /* atomic */

jvmtiPhase jvmticheck_phase_now(void)
{
    jvmtiPhase p;
    if ((*jvmticheck_self)->GetPhase(jvmticheck_self, &p) == JVMTI_ERROR_NONE) {
        __atomic_store_n(&last_phase, (int)p, __ATOMIC_RELAXED);
        return p;
    }
    return (jvmtiPhase)__atomic_load_n(&last_phase, __ATOMIC_RELAXED);
}

/* A thread the VM attached (a Java thread, or a native one through JNI)
 * is one JNI's GetEnv answers on. The VM's own threads (GC, compiler) are
 * not: they are taken for VM threads, which callbacksafe functions accept;
 * so an unattached native thread calling one of those goes unreported (the
 * VM answers for it). During OnLoad the VM has no threads yet. */
int jvmticheck_attached(int rule)
{
    if (rule == JVMTICHECK_JAVA_OR_VM)
        return 1;
    if (rule == JVMTICHECK_JAVA_IF_THREADS && jvmticheck_phase_now() == JVMTI_PHASE_ONLOAD)
        return 1;
    void *jni = NULL;
    return (*jvmticheck_vm)->GetEnv(jvmticheck_vm, &jni, JNI_VERSION_1_2) == JNI_OK;
}

long long jvmticheck_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
