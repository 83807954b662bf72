/* monitors_agent.c: an ordinary agent (built against the JDK's own jvmti.h)
 * that asks about Java monitors in jvmti-host (host/monitors.c: Main.main
 * holds class Main's monitor, Thread.run its thread object's): in VMInit
 * (no frames yet), at a breakpoint in ConfChain.c (the main thread in
 * Main.main -> a -> b -> c), at a breakpoint in Thread.getName (a worker in
 * run -> getName; the main chain has returned) and in VMDeath (the worker
 * has ended). Run with -threads:1. One line per result: "monitors: what:
 * answer". */
#include <stdio.h>
#include <string.h>

#include "jvmti.h"
#include "../agentkit.h"

static jvmtiEnv *jvmti;
static jclass main_class;
static jthread worker; /* the host's references are stable */

static void say(const char *what, const char *fmt, jvmtiError e, long a, long b)
{
    char answer[128];
    if (e != JVMTI_ERROR_NONE)
        snprintf(answer, sizeof answer, "error %d", (int)e);
    else
        snprintf(answer, sizeof answer, fmt, a, b);
    printf("monitors: %s: %s\n", what, answer);
    fflush(stdout);
}

/* "Main", "current", "main's", "?" for a monitor or thread. */
static const char *name(JNIEnv *jni, jobject o, jthread current)
{
    if (!o)
        return "null";
    if ((*jni)->IsSameObject(jni, o, main_class))
        return "Main";
    if (current && (*jni)->IsSameObject(jni, o, current))
        return "current";
    return "?";
}

static void owned(JNIEnv *jni, jthread t, jthread current, const char *what)
{
    jint n = -1;
    jvmtiMonitorStackDepthInfo *info = NULL;
    jvmtiError e = (*jvmti)->GetOwnedMonitorStackDepthInfo(jvmti, t, &n, &info);
    char buf[128] = "";
    for (jint i = 0; e == JVMTI_ERROR_NONE && i < n; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s@%d",
                 name(jni, info[i].monitor, current), (int)info[i].stack_depth);
    char line[160];
    snprintf(line, sizeof line, "%s GetOwnedMonitorStackDepthInfo", what);
    printf("monitors: %s: ", line);
    if (e != JVMTI_ERROR_NONE)
        printf("error %d\n", (int)e);
    else
        printf("%d:%s\n", (int)n, buf);

    jobject *mons = NULL;
    jint m = -1;
    jvmtiError e2 = (*jvmti)->GetOwnedMonitorInfo(jvmti, t, &m, &mons);
    int agrees = e2 == e && (e != JVMTI_ERROR_NONE ||
                             (m == n && (n == 0 || (*jni)->IsSameObject(jni, mons[0], info[0].monitor))));
    printf("monitors: %s GetOwnedMonitorInfo: %s\n", what, agrees ? "the same" : "different");
    (*jvmti)->Deallocate(jvmti, (unsigned char *)info);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)mons);
    fflush(stdout);
}

static void usage(JNIEnv *jni, jobject o, jthread current, const char *what)
{
    jvmtiMonitorUsage u;
    memset(&u, 0, sizeof u);
    jvmtiError e = (*jvmti)->GetObjectMonitorUsage(jvmti, o, &u);
    char line[160];
    snprintf(line, sizeof line, "%s GetObjectMonitorUsage", what);
    if (e != JVMTI_ERROR_NONE) {
        say(line, "", e, 0, 0);
        return;
    }
    printf("monitors: %s: owner %s, entries %d, waiters %d, to notify %d\n", line,
           name(jni, u.owner, current), (int)u.entry_count, (int)u.waiter_count,
           (int)u.notify_waiter_count);
    fflush(stdout);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)u.waiters);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)u.notify_waiters);
}

static void contended(JNIEnv *jni, jthread t, const char *what)
{
    jobject m = (jobject)&jvmti; /* must be overwritten */
    jvmtiError e = (*jvmti)->GetCurrentContendedMonitor(jvmti, t, &m);
    if (e != JVMTI_ERROR_NONE)
        printf("monitors: %s: error %d\n", what, (int)e);
    else
        printf("monitors: %s: %s\n", what, name(jni, m, NULL));
    fflush(stdout);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    main_class = (*jni)->FindClass(jni, "Main");
    jclass chain = (*jni)->FindClass(jni, "ConfChain");
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jmethodID c = (*jni)->GetStaticMethodID(jni, chain, "c", "()V");
    jmethodID get_name = (*jni)->GetMethodID(jni, thread_class, "getName", "()Ljava/lang/String;");
    owned(jni, NULL, thread, "VMInit:");
    usage(jni, main_class, thread, "VMInit: Main's:");
    usage(jni, NULL, thread, "VMInit: null's:");
    say("VMInit: SetBreakpoint(ConfChain.c, 0)", "NONE", (*jvmti)->SetBreakpoint(jvmti, c, 0), 0, 0);
    say("VMInit: SetBreakpoint(getName, 1)", "NONE", (*jvmti)->SetBreakpoint(jvmti, get_name, 1), 0,
        0);
}

static void JNICALL on_breakpoint(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jlocation at)
{
    (void)env, (void)at;
    char *method = NULL;
    (*jvmti)->GetMethodName(jvmti, m, &method, NULL, NULL);
    int in_c = method && strcmp(method, "c") == 0;
    (*jvmti)->Deallocate(jvmti, (unsigned char *)method);
    if (in_c) {
        owned(jni, NULL, t, "c:");
        contended(jni, NULL, "c: GetCurrentContendedMonitor");
        usage(jni, main_class, t, "c: Main's:");
        usage(jni, t, t, "c: the main thread's:");
    } else {
        worker = t;
        owned(jni, NULL, t, "getName:");
        usage(jni, t, t, "getName: the worker's:");
        usage(jni, main_class, t, "getName: Main's:");
        contended(jni, t, "getName: GetCurrentContendedMonitor");
    }
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env;
    if (!worker)
        return;
    owned(jni, worker, NULL, "VMDeath: the worker's");
    contended(jni, worker, "VMDeath: GetCurrentContendedMonitor(the worker)");
    usage(jni, worker, NULL, "VMDeath: the worker's:");
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)options, (void)reserved;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return 1;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_get_owned_monitor_info = 1;
    caps.can_get_owned_monitor_stack_depth_info = 1;
    caps.can_get_current_contended_monitor = 1;
    caps.can_get_monitor_info = 1;
    caps.can_generate_breakpoint_events = 1;
    caps.can_get_source_file_name = 1;
    jvmtiError e = (*jvmti)->AddCapabilities(jvmti, &caps);
    printf("monitors: AddCapabilities: %d\n", (int)e);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    cb.Breakpoint = on_breakpoint;
    cb.VMDeath = on_vm_death;
    const jvmtiEvent enable[] = {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_BREAKPOINT, JVMTI_EVENT_VM_DEATH};
    agentkit_events(jvmti, &cb, 3, enable);
    return e == JVMTI_ERROR_NONE ? 0 : 1;
}
