/* stacks_agent.c: an ordinary agent (built against the JDK's own jvmti.h)
 * that reads stacks and class lists in jvmti-host: in VMInit (the main
 * thread, no frames), at a breakpoint in getName (a worker thread in
 * getName called by run), and in VMDeath (the worker has ended). Run with
 * -threads:1. One line per result: "stacks: what: answer". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmti.h"
#include "../agentkit.h"

static jvmtiEnv *jvmti;
static jmethodID run, get_name;
static jthread main_thread, worker; /* the host's references are stable */

static const char *err(jvmtiError e)
{
    static _Thread_local char buf[16];
    switch (e) {
    case JVMTI_ERROR_NONE: return "NONE";
    case JVMTI_ERROR_NO_MORE_FRAMES: return "NO_MORE_FRAMES";
    case JVMTI_ERROR_ILLEGAL_ARGUMENT: return "ILLEGAL_ARGUMENT";
    case JVMTI_ERROR_INVALID_THREAD: return "INVALID_THREAD";
    case JVMTI_ERROR_THREAD_NOT_ALIVE: return "THREAD_NOT_ALIVE";
    case JVMTI_ERROR_NOT_AVAILABLE: return "NOT_AVAILABLE";
    default: snprintf(buf, sizeof buf, "%d", (int)e); return buf;
    }
}

static void say(const char *what, const char *answer)
{
    printf("stacks: %s: %s\n", what, answer);
    fflush(stdout);
}

/* "getName@1 run@2", or the error. */
static const char *frames_text(jvmtiError e, const jvmtiFrameInfo *f, jint n)
{
    static _Thread_local char buf[256];
    if (e != JVMTI_ERROR_NONE)
        return err(e);
    snprintf(buf, sizeof buf, "%d:", (int)n);
    for (jint i = 0; i < n; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s@%d",
                 f[i].method == run ? "run" : f[i].method == get_name ? "getName" : "?",
                 (int)f[i].location);
    return buf;
}

static void trace(jthread t, jint start, jint max, const char *what)
{
    jvmtiFrameInfo f[8];
    jint n = 0;
    jvmtiError e = (*jvmti)->GetStackTrace(jvmti, t, start, max, f, &n);
    say(what, frames_text(e, f, n));
}

static void count(jthread t, const char *what)
{
    jint n = -1;
    jvmtiError e = (*jvmti)->GetFrameCount(jvmti, t, &n);
    char buf[32];
    snprintf(buf, sizeof buf, "%d", (int)n);
    say(what, e == JVMTI_ERROR_NONE ? buf : err(e));
}

static void location(jthread t, jint depth, const char *what)
{
    jmethodID m = NULL;
    jlocation at = -2;
    jvmtiError e = (*jvmti)->GetFrameLocation(jvmti, t, depth, &m, &at);
    jvmtiFrameInfo f = {m, at};
    say(what, frames_text(e, &f, 1));
}

/* "N threads: frames a b ...; one block" for a jvmtiStackInfo array. */
static void infos(jvmtiError e, jvmtiStackInfo *info, jint n, const char *what)
{
    if (e != JVMTI_ERROR_NONE) {
        say(what, err(e));
        return;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%d threads, frames", (int)n);
    const jvmtiFrameInfo *next = (const jvmtiFrameInfo *)(const void *)(info + n);
    int one_block = 1;
    for (jint i = 0; i < n; i++) {
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %d%s", (int)info[i].frame_count,
                 info[i].state & JVMTI_THREAD_STATE_TERMINATED ? "(terminated)"
                 : info[i].state & JVMTI_THREAD_STATE_ALIVE    ? ""
                                                               : "(?)");
        one_block &= info[i].frame_buffer == next;
        next += info[i].frame_count;
    }
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ", %s",
             one_block ? "one block" : "buffers outside the block");
    say(what, buf);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)info);
}

/* How many classes, and whether java/lang/Thread is one of them. */
static void classes(jvmtiError e, jint n, jclass *c, const char *what)
{
    if (e != JVMTI_ERROR_NONE) {
        say(what, err(e));
        return;
    }
    int thread = 0;
    for (jint i = 0; i < n; i++) {
        char *sig = NULL;
        if ((*jvmti)->GetClassSignature(jvmti, c[i], &sig, NULL) == JVMTI_ERROR_NONE &&
            strcmp(sig, "Ljava/lang/Thread;") == 0)
            thread = 1;
        (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)c);
    char buf[64];
    snprintf(buf, sizeof buf, "%s java/lang/Thread", n >= 4 && thread ? "4 or more, with" : "without");
    say(what, buf);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    main_thread = thread;
    jclass k = (*jni)->FindClass(jni, "java/lang/Thread");
    run = (*jni)->GetMethodID(jni, k, "run", "()V");
    get_name = (*jni)->GetMethodID(jni, k, "getName", "()Ljava/lang/String;");
    count(NULL, "VMInit: GetFrameCount(current)");
    trace(NULL, 0, 5, "VMInit: GetStackTrace(current, 0, 5)");
    trace(NULL, 1, 5, "VMInit: GetStackTrace(current, 1, 5)");
    trace(NULL, -1, 5, "VMInit: GetStackTrace(current, -1, 5)");
    location(NULL, 0, "VMInit: GetFrameLocation(current, 0)");
    count((jthread)k, "VMInit: GetFrameCount(a class)");
    jint n = 0;
    jclass *c = NULL;
    jvmtiError e = (*jvmti)->GetLoadedClasses(jvmti, &n, &c);
    classes(e, n, c, "VMInit: GetLoadedClasses");
    e = (*jvmti)->GetClassLoaderClasses(jvmti, NULL, &n, &c);
    classes(e, n, c, "VMInit: GetClassLoaderClasses(bootstrap)");
    say("SetBreakpoint(getName, 1)", err((*jvmti)->SetBreakpoint(jvmti, get_name, 1)));
}

static void JNICALL on_breakpoint(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jlocation at)
{
    (void)env, (void)jni, (void)m, (void)at;
    __atomic_store_n(&worker, t, __ATOMIC_RELAXED); /* four workers may race here */
    count(NULL, "Breakpoint: GetFrameCount(current)");
    count(main_thread, "Breakpoint: GetFrameCount(main)");
    trace(NULL, 0, 5, "Breakpoint: GetStackTrace(current, 0, 5)");
    trace(t, 0, 1, "Breakpoint: GetStackTrace(thread, 0, 1)");
    trace(NULL, 1, 5, "Breakpoint: GetStackTrace(current, 1, 5)");
    trace(NULL, -1, 5, "Breakpoint: GetStackTrace(current, -1, 5)");
    trace(NULL, -2, 1, "Breakpoint: GetStackTrace(current, -2, 1)");
    trace(NULL, 0, 0, "Breakpoint: GetStackTrace(current, 0, 0)");
    trace(NULL, 2, 5, "Breakpoint: GetStackTrace(current, 2, 5)");
    trace(NULL, 2, 0, "Breakpoint: GetStackTrace(current, 2, 0)");
    trace(NULL, -3, 5, "Breakpoint: GetStackTrace(current, -3, 5)");
    location(NULL, 0, "Breakpoint: GetFrameLocation(current, 0)");
    location(NULL, 1, "Breakpoint: GetFrameLocation(current, 1)");
    location(NULL, 2, "Breakpoint: GetFrameLocation(current, 2)");
    jvmtiStackInfo *info = NULL;
    jint n = 0;
    jvmtiError e = (*jvmti)->GetAllStackTraces(jvmti, 5, &info, &n);
    infos(e, info, n, "Breakpoint: GetAllStackTraces(5)");
    jthread list[] = {t, main_thread, t};
    e = (*jvmti)->GetThreadListStackTraces(jvmti, 3, list, 1, &info);
    infos(e, info, 3, "Breakpoint: GetThreadListStackTraces(current, main, current; 1)");
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env, (void)jni;
    jthread worker_seen = __atomic_load_n(&worker, __ATOMIC_RELAXED);
    count(worker_seen, "VMDeath: GetFrameCount(ended worker)");
    trace(worker_seen, 0, 5, "VMDeath: GetStackTrace(ended worker, 0, 5)");
    jthread list[] = {worker_seen, main_thread};
    jvmtiStackInfo *info = NULL;
    jvmtiError e = (*jvmti)->GetThreadListStackTraces(jvmti, 2, list, 5, &info);
    infos(e, info, 2, "VMDeath: GetThreadListStackTraces(ended worker, main)");
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)options, (void)reserved;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return 1;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_breakpoint_events = 1;
    if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE)
        return 2;
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    cb.Breakpoint = on_breakpoint;
    cb.VMDeath = on_vm_death;
    const jvmtiEvent enable[] = {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_BREAKPOINT, JVMTI_EVENT_VM_DEATH};
    agentkit_events(jvmti, &cb, 3, enable);
    return 0;
}
