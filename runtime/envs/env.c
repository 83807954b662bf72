/* Environments: creation through GetEnv (the versions it accepts),
 * environment-local storage, the phase, GetVersionNumber. Their slots and
 * grace periods are base's (base/base.c); start-up, DisposeEnvironment and
 * shutdown are the lifecycle's (lifecycle/lifecycle.c). */
#include <stdlib.h>

#include "rt.h"

/* The versions GetEnv accepts: what JDKs have shipped as JVMTI_VERSION_*
 * (1.0, 1.1, 1.2, 9, 11) and, from 13 on, any minor of any feature
 * release up to this runtime's own. Micro versions are not looked at. */
int jvmtirt_version_supported(jint version)
{
    if ((version & JVMTI_VERSION_MASK_INTERFACE_TYPE) != JVMTI_VERSION_INTERFACE_JVMTI)
        return 0;
    int major = (version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR;
    int minor = (version & JVMTI_VERSION_MASK_MINOR) >> JVMTI_VERSION_SHIFT_MINOR;
    int own = (JVMTI_VERSION & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR;
    switch (major) {
    case 1:
        return minor <= 2;
    case 9:
    case 11:
        return minor == 0;
    default:
        return major >= 13 && major <= own;
    }
}

jint jvmtirt_get_env(void **penv, jint version)
{
    *penv = NULL;
    if (!rt_ready("jvmtirt_get_env"))
        return JNI_ERR;
    if (!jvmtirt_version_supported(version))
        return JNI_EVERSION;
    pthread_mutex_lock(&rt.lock);
    rt_env *e = rt_env_slot_take();
    if (!e) {
        pthread_mutex_unlock(&rt.lock);
        return JNI_ENOMEM;
    }
    rt.ext_frozen = 1;
    if (rt.n_ext_events > 0) {
        e->ext_callbacks = calloc((size_t)rt.n_ext_events, sizeof *e->ext_callbacks);
        if (!e->ext_callbacks) {
            rt_env_slot_free(e); /* back to the free list */
            pthread_mutex_unlock(&rt.lock);
            return JNI_ENOMEM;
        }
    }
    e->head.functions = rt.table;
    e->version = version;
    STORE_SC(&e->head.magic, JVMTIGEN_ENV_MAGIC);
    rt_env **tail = &rt.envs;
    while (*tail)
        tail = &(*tail)->next;
    STORE_SC(tail, e); /* fully built before a cursor can reach it */
    rt.n_envs++;
    pthread_mutex_unlock(&rt.lock);
    *penv = e;
    return JNI_OK;
}

jint jvmtirt_env_version(jvmtiEnv *env) { return rt_env_of(env)->version; }

jvmtiError jvmti_impl_GetEnvironmentLocalStorage(jvmtiEnv *env, void **data_ptr)
{
    *data_ptr = LOAD(&rt_env_of(env)->local_storage);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_SetEnvironmentLocalStorage(jvmtiEnv *env, const void *data)
{
    STORE(&rt_env_of(env)->local_storage, (void *)(uintptr_t)data);
    return JVMTI_ERROR_NONE;
}

void jvmtirt_set_phase(jvmtiPhase phase)
{
    if (rt_ready("jvmtirt_set_phase"))
        jvmtigen_set_phase(phase);
}

jvmtiError jvmti_impl_GetPhase(jvmtiEnv *env, jvmtiPhase *phase_ptr)
{
    (void)env;
    *phase_ptr = JVMTIGEN_PHASE(env);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetVersionNumber(jvmtiEnv *env, jint *version_ptr)
{
    (void)env;
    *version_ptr = JVMTI_VERSION;
    return JVMTI_ERROR_NONE;
}
