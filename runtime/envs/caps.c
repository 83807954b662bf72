/* Capabilities: what the VM can offer (its potential set, some only during
 * OnLoad, some to one environment at a time) and what each environment
 * holds.
 *
 * An OnLoad-only capability that some environment added during OnLoad
 * stays potential afterwards, for every environment (solo rules apply): the
 * VM started with it. This is HotSpot's rule (the spec leaves it to the VM);
 * one nobody added during OnLoad is gone once OnLoad is over. */
#include "jvmtigen_impl.h"
#include "rt.h"

/* What env could hold now: what it holds, plus each potential capability
 * that is not OnLoad-only outside OnLoad and not held solo by another. */
static void potential_of(const rt_env *e, jvmtiCapabilities *out)
{
    int onload = JVMTIGEN_PHASE((jvmtiEnv *)(void *)(uintptr_t)e) == JVMTI_PHASE_ONLOAD;
    *out = jvmtigen_capabilities_load(&e->head.capabilities);
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++) {
        if (!jvmtirt_capability_get(&rt.config.potential, b))
            continue;
        if (!onload && jvmtirt_capability_get(&rt.config.onload_only, b) &&
            !jvmtirt_capability_get(&rt.onload_added, b))
            continue;
        if (rt.solo_holder[b] && rt.solo_holder[b] != e)
            continue;
        jvmtirt_capability_set(out, b, 1);
    }
}

jvmtiError jvmti_impl_GetPotentialCapabilities(jvmtiEnv *env, jvmtiCapabilities *capabilities_ptr)
{
    pthread_mutex_lock(&rt.lock);
    potential_of(rt_env_of(env), capabilities_ptr);
    pthread_mutex_unlock(&rt.lock);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_AddCapabilities(jvmtiEnv *env, const jvmtiCapabilities *capabilities_ptr)
{
    rt_env *e = rt_env_of(env);
    jvmtiError err = JVMTI_ERROR_NONE;
    pthread_mutex_lock(&rt.lock);
    jvmtiCapabilities may;
    potential_of(e, &may);
    /* All or nothing: check every bit before adding any. */
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++)
        if (jvmtirt_capability_get(capabilities_ptr, b) && !jvmtirt_capability_get(&may, b))
            err = JVMTI_ERROR_NOT_AVAILABLE;
    if (err == JVMTI_ERROR_NONE) {
        jvmtiCapabilities now = jvmtigen_capabilities_load(&e->head.capabilities);
        int onload = JVMTIGEN_PHASE(env) == JVMTI_PHASE_ONLOAD;
        for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++) {
            if (!jvmtirt_capability_get(capabilities_ptr, b))
                continue;
            jvmtirt_capability_set(&now, b, 1);
            if (onload)
                jvmtirt_capability_set(&rt.onload_added, b, 1);
            if (jvmtirt_capability_get(&rt.config.solo, b))
                rt.solo_holder[b] = e;
        }
        jvmtigen_capabilities_store(&e->head.capabilities, &now);
    }
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_RelinquishCapabilities(jvmtiEnv *env, const jvmtiCapabilities *capabilities_ptr)
{
    rt_env *e = rt_env_of(env);
    pthread_mutex_lock(&rt.lock);
    jvmtiCapabilities now = jvmtigen_capabilities_load(&e->head.capabilities);
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++) {
        if (!jvmtirt_capability_get(capabilities_ptr, b))
            continue;
        jvmtirt_capability_set(&now, b, 0);
        if (rt.solo_holder[b] == e)
            rt.solo_holder[b] = NULL;
    }
    jvmtigen_capabilities_store(&e->head.capabilities, &now);
    pthread_mutex_unlock(&rt.lock);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetCapabilities(jvmtiEnv *env, jvmtiCapabilities *capabilities_ptr)
{
    pthread_mutex_lock(&rt.lock);
    *capabilities_ptr = jvmtigen_capabilities_load(&rt_env_of(env)->head.capabilities);
    pthread_mutex_unlock(&rt.lock);
    return JVMTI_ERROR_NONE;
}
