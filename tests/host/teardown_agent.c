/* An agent that misbehaves the way real ones do at VM exit: in VMInit it
 * starts two threads of its own (one a plain native thread, one attached
 * through JNI) that call JVM TI in a loop and never stop, so they are still
 * calling while the VM tears down. Built against the JDK's own jvmti.h.
 *
 * In OnLoad it also calls an environment it has just disposed, many times
 * over (HotSpot answers JVMTI_ERROR_INVALID_ENVIRONMENT).
 *
 * What it checks, and prints (tests/host/test.sh compares):
 *   - OnLoad: every call to a disposed environment is INVALID_ENVIRONMENT;
 *   - the threads: calls allowed in every phase and on any thread (memory,
 *     raw monitors) succeed, before and after VMDeath; on the attached
 *     thread, calls allowed only in the live (or start) phase fail with
 *     JVMTI_ERROR_WRONG_PHASE once the phase is dead (Agent_OnUnload waits
 *     until each thread made some calls in the dead phase);
 *   - nothing crashes: the host exits 0 while the threads still run.
 * (test.sh also runs it with linger.c preloaded, which keeps the process
 * alive 300 ms after the host's main returned, the threads still calling.) */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmti.h"
#include "../agentkit.h"

static JavaVM *vm;
static jvmtiEnv *jvmti;
static jrawMonitorID lock;

typedef struct looper {
    const char *name;
    int attached;
    long calls;      /* atomic */
    long dead_calls; /* atomic: calls whose phase was dead before and after */
    long wrong;      /* atomic: answers that were not the expected ones */
    char first_wrong[160];
} looper;

static looper loopers[2] = {{"native", 0, 0, 0, 0, ""}, {"attached", 1, 0, 0, 0, ""}};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void wrong(looper *l, const char *what, jvmtiError err, jvmtiPhase phase)
{
    if (__atomic_fetch_add(&l->wrong, 1, __ATOMIC_SEQ_CST) == 0)
        snprintf(l->first_wrong, sizeof l->first_wrong, "%s gave %d in phase %d", what, (int)err,
                 (int)phase);
}

static int dead_seen; /* atomic: VMDeath came */

/* The phase, as a thread that may call GetPhase knows it; a native thread
 * (not attached: it may only use raw monitors and memory) goes by VMDeath. */
static jvmtiPhase phase_now(looper *l)
{
    if (!l->attached)
        return __atomic_load_n(&dead_seen, __ATOMIC_SEQ_CST) ? JVMTI_PHASE_DEAD : JVMTI_PHASE_LIVE;
    jvmtiPhase p = 0;
    jvmtiError err = (*jvmti)->GetPhase(jvmti, &p);
    if (err != JVMTI_ERROR_NONE)
        wrong(l, "GetPhase", err, p);
    return p;
}

static void one_round(looper *l)
{
    jvmtiPhase before = phase_now(l);
    unsigned char *mem = NULL;
    jvmtiError err = (*jvmti)->Allocate(jvmti, 64, &mem);
    if (err != JVMTI_ERROR_NONE)
        wrong(l, "Allocate", err, before);
    else
        (*jvmti)->Deallocate(jvmti, mem);
    err = (*jvmti)->RawMonitorEnter(jvmti, lock);
    if (err != JVMTI_ERROR_NONE)
        wrong(l, "RawMonitorEnter", err, before);
    else if ((err = (*jvmti)->RawMonitorExit(jvmti, lock)) != JVMTI_ERROR_NONE)
        wrong(l, "RawMonitorExit", err, before);
    jvmtiError mode = JVMTI_ERROR_NONE, cur = JVMTI_ERROR_NONE;
    if (l->attached) {
        /* OnLoad or live only. */
        mode = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE, JVMTI_EVENT_CLASS_LOAD, NULL);
        /* Start or live only. */
        jthread t = NULL;
        cur = (*jvmti)->GetCurrentThread(jvmti, &t);
    }
    jvmtiPhase after = phase_now(l);
    if (before == JVMTI_PHASE_DEAD && after == JVMTI_PHASE_DEAD) {
        if (l->attached && mode != JVMTI_ERROR_WRONG_PHASE)
            wrong(l, "SetEventNotificationMode", mode, after);
        if (l->attached && cur != JVMTI_ERROR_WRONG_PHASE)
            wrong(l, "GetCurrentThread", cur, after);
        __atomic_add_fetch(&l->dead_calls, 1, __ATOMIC_SEQ_CST);
    } else if (before == JVMTI_PHASE_LIVE && after == JVMTI_PHASE_LIVE) {
        if (mode != JVMTI_ERROR_NONE)
            wrong(l, "SetEventNotificationMode", mode, after);
        if (cur != JVMTI_ERROR_NONE)
            wrong(l, "GetCurrentThread", cur, after);
    }
    __atomic_add_fetch(&l->calls, 1, __ATOMIC_SEQ_CST);
}

static void *loop(void *arg)
{
    looper *l = arg;
    if (l->attached) {
        JNIEnv *jni = NULL;
        if ((*vm)->AttachCurrentThread(vm, (void **)&jni, NULL) != JNI_OK)
            wrong(l, "AttachCurrentThread", JVMTI_ERROR_INTERNAL, 0);
    }
    for (;;) /* until the process ends */
        one_round(l);
    return NULL;
}

static void JNICALL vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)jni, (void)thread;
    (*env)->CreateRawMonitor(env, "teardown", &lock);
    for (int i = 0; i < 2; i++) {
        pthread_t id;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        pthread_create(&id, &a, loop, &loopers[i]);
        pthread_attr_destroy(&a);
    }
    /* Calls in flight before VMDeath. */
    for (int i = 0; i < 2; i++)
        for (int w = 0; w < 2000 && __atomic_load_n(&loopers[i].calls, __ATOMIC_SEQ_CST) < 100; w++)
            sleep_ms(1);
}

static void JNICALL vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env, (void)jni;
    __atomic_store_n(&dead_seen, 1, __ATOMIC_SEQ_CST);
}

static void onload_disposed(void)
{
    int stale_ok = 0, n = 1000;
    for (int i = 0; i < n; i++) {
        jvmtiEnv *e = NULL;
        if (!(e = agentkit_env(vm, JVMTI_VERSION_1_2)))
            break;
        (*e)->SetEnvironmentLocalStorage(e, &stale_ok);
        (*e)->DisposeEnvironment(e);
        jvmtiPhase p;
        void *data;
        stale_ok += (*e)->GetPhase(e, &p) == JVMTI_ERROR_INVALID_ENVIRONMENT &&
                    (*e)->GetEnvironmentLocalStorage(e, &data) == JVMTI_ERROR_INVALID_ENVIRONMENT;
    }
    printf("teardown: OnLoad: %d of %d calls to a disposed environment: INVALID_ENVIRONMENT\n",
           stale_ok, n);
    fflush(stdout);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *jvm, char *options, void *reserved)
{
    (void)options, (void)reserved;
    vm = jvm;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return JNI_ERR;
    onload_disposed();
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = vm_init;
    cb.VMDeath = vm_death;
    const jvmtiEvent enable[] = {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH};
    agentkit_events(jvmti, &cb, 2, enable);
    return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *jvm)
{
    (void)jvm;
    /* Each thread makes some calls in the dead phase before the VM goes on
     * tearing down; they keep calling afterwards. */
    for (int i = 0; i < 2; i++) {
        for (int w = 0; w < 2000 && __atomic_load_n(&loopers[i].dead_calls, __ATOMIC_SEQ_CST) < 100; w++)
            sleep_ms(1);
        looper *l = &loopers[i];
        printf("teardown: %s thread: %s calls after VMDeath, %ld unexpected answers%s%s\n", l->name,
               __atomic_load_n(&l->dead_calls, __ATOMIC_SEQ_CST) >= 100 ? "100 or more" : "too few",
               __atomic_load_n(&l->wrong, __ATOMIC_SEQ_CST), l->wrong ? ": " : "", l->first_wrong);
    }
    fflush(stdout);
}
