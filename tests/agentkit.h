/* The set-up the test agents share: an environment from GetEnv, callbacks
 * set and their events enabled, capabilities asked for as far as the VM
 * offers them. Header-only (static inline), so that each suite builds its
 * agents from one .c file as before: an agent includes "../agentkit.h".
 * Each helper makes the same calls, in the same order, that the agents made
 * by hand, so what an agent prints (and what jvmticheck reports of it) is
 * unchanged. */
#ifndef AGENTKIT_H
#define AGENTKIT_H

#include <string.h>

#include <jvmti.h>

/* The JVM TI environment of VERSION, or NULL when GetEnv refuses it. */
static inline jvmtiEnv *agentkit_env(JavaVM *vm, jint version)
{
    void *env = NULL;
    if ((*vm)->GetEnv(vm, &env, version) != JNI_OK)
        return NULL;
    return env;
}

/* Sets CB as ENV's callbacks, then enables each of the N EVENTS for every
 * thread. Every call is made even after one fails (an agent testing the
 * checker wants each call seen); returns the first error. */
static inline jvmtiError agentkit_events(jvmtiEnv *env, const jvmtiEventCallbacks *cb, int n,
                                         const jvmtiEvent *events)
{
    jvmtiError first = (*env)->SetEventCallbacks(env, cb, (jint)sizeof *cb);
    for (int i = 0; i < n; i++) {
        jvmtiError err = (*env)->SetEventNotificationMode(env, JVMTI_ENABLE, events[i], NULL);
        if (first == JVMTI_ERROR_NONE)
            first = err;
    }
    return first;
}

/* Adds the capabilities of WANT that ENV could have (its potential ones):
 * one AddCapabilities, made only when GetPotentialCapabilities answers.
 * Returns the first error. */
static inline jvmtiError agentkit_add_potential(jvmtiEnv *env, const jvmtiCapabilities *want)
{
    jvmtiCapabilities potential, caps;
    jvmtiError err = (*env)->GetPotentialCapabilities(env, &potential);
    if (err != JVMTI_ERROR_NONE)
        return err;
    /* The struct is bit-fields only: a capability is a bit in both. */
    unsigned char *c = (unsigned char *)&caps;
    const unsigned char *w = (const unsigned char *)want, *p = (const unsigned char *)&potential;
    for (size_t i = 0; i < sizeof caps; i++)
        c[i] = (unsigned char)(w[i] & p[i]);
    return (*env)->AddCapabilities(env, &caps);
}

#endif
