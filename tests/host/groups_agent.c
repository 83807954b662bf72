/* groups_agent.c: an ordinary agent (built against the JDK's own jvmti.h)
 * that asks jvmti-host for its thread groups and starts an agent thread on
 * a java/lang/Thread object it makes with JNI AllocObject, in VMInit; the
 * agent thread reports what it is, and VMInit waits for it. Run with
 * -threads:1. One line per result: "groups: what: answer" (the agent
 * thread's lines and its ThreadEnd come in any order with VMInit's). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jvmti.h"
#include "../agentkit.h"

static jvmtiEnv *jvmti;
static jrawMonitorID done_lock;
static int done;
static jthread agent_thread;

static void say(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const char *what, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("groups: %s: %s\n", what, buf);
    fflush(stdout);
}

static const char *err(jvmtiError e)
{
    static _Thread_local char buf[16];
    switch (e) {
    case JVMTI_ERROR_NONE: return "NONE";
    case JVMTI_ERROR_INVALID_THREAD: return "INVALID_THREAD";
    case JVMTI_ERROR_INVALID_THREAD_GROUP: return "INVALID_THREAD_GROUP";
    case JVMTI_ERROR_INVALID_PRIORITY: return "INVALID_PRIORITY";
    case JVMTI_ERROR_NOT_AVAILABLE: return "NOT_AVAILABLE";
    default: snprintf(buf, sizeof buf, "%d", (int)e); return buf;
    }
}

/* A group's name, or "NULL". */
static void group_name(jthreadGroup g, char *buf, size_t n)
{
    jvmtiThreadGroupInfo info;
    if (!g) {
        snprintf(buf, n, "NULL");
    } else if ((*jvmti)->GetThreadGroupInfo(jvmti, g, &info) == JVMTI_ERROR_NONE) {
        snprintf(buf, n, "%s", info.name);
        (*jvmti)->Deallocate(jvmti, (unsigned char *)info.name);
    } else {
        snprintf(buf, n, "?");
    }
}

static void thread_name(jthread t, char *buf, size_t n)
{
    jvmtiThreadInfo info;
    if ((*jvmti)->GetThreadInfo(jvmti, t, &info) == JVMTI_ERROR_NONE) {
        snprintf(buf, n, "%s", info.name);
        (*jvmti)->Deallocate(jvmti, (unsigned char *)info.name);
    } else {
        snprintf(buf, n, "?");
    }
}

/* "N threads: a b; M groups: c" */
static void children(const char *what, jthreadGroup g)
{
    jint nt = -1, ng = -1;
    jthread *threads = NULL;
    jthreadGroup *groups = NULL;
    jvmtiError e = (*jvmti)->GetThreadGroupChildren(jvmti, g, &nt, &threads, &ng, &groups);
    if (e != JVMTI_ERROR_NONE) {
        say(what, "%s", err(e));
        return;
    }
    char buf[200], name[64];
    snprintf(buf, sizeof buf, "%d threads:", (int)nt);
    for (jint i = 0; i < nt; i++) {
        thread_name(threads[i], name, sizeof name);
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s", name);
    }
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "; %d groups:", (int)ng);
    for (jint i = 0; i < ng; i++) {
        group_name(groups[i], name, sizeof name);
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s", name);
    }
    say(what, "%s", buf);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)threads);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)groups);
}

static void JNICALL agent_proc(jvmtiEnv *env, JNIEnv *jni, void *arg)
{
    jvmtiThreadInfo info;
    char group[64];
    if ((*env)->GetThreadInfo(env, NULL, &info) == JVMTI_ERROR_NONE) {
        group_name(info.thread_group, group, sizeof group);
        say("agent thread", "name %s, priority %d, daemon %d, group %s", info.name,
            (int)info.priority, (int)info.is_daemon, group);
        (*env)->Deallocate(env, (unsigned char *)info.name);
    }
    jthread self = NULL;
    (*env)->GetCurrentThread(env, &self);
    say("agent thread", "GetCurrentThread is the object given: %d, arg %s, JNIEnv %s",
        self == agent_thread, (const char *)arg, jni ? "set" : "NULL");
    jint n = 0;
    jthread *all = NULL;
    int listed = 0;
    if ((*env)->GetAllThreads(env, &n, &all) == JVMTI_ERROR_NONE) {
        for (jint i = 0; i < n; i++)
            listed += all[i] == self;
        (*env)->Deallocate(env, (unsigned char *)all);
    }
    say("agent thread", "GetAllThreads lists it: %d", listed);
    jthreadGroup *top = NULL;
    jint ntop = 0;
    (*env)->GetTopThreadGroups(env, &ntop, &top);
    if (ntop == 1) {
        jint ng = 0;
        jthreadGroup *groups = NULL;
        jint nt = 0;
        jthread *threads = NULL;
        (*env)->GetThreadGroupChildren(env, top[0], &nt, &threads, &ng, &groups);
        if (ng == 1)
            children("agent thread: children(main)", groups[0]);
        (*env)->Deallocate(env, (unsigned char *)threads);
        (*env)->Deallocate(env, (unsigned char *)groups);
    }
    (*env)->Deallocate(env, (unsigned char *)top);
    (*env)->RawMonitorEnter(env, done_lock);
    done = 1;
    (*env)->RawMonitorNotifyAll(env, done_lock);
    (*env)->RawMonitorExit(env, done_lock);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)thread;
    jint n = -1;
    jthreadGroup *top = NULL;
    jvmtiError e = (*env)->GetTopThreadGroups(env, &n, &top);
    char name[64];
    group_name(n == 1 ? top[0] : NULL, name, sizeof name);
    say("GetTopThreadGroups", "%s, %d: %s", err(e), (int)n, name);
    if (e != JVMTI_ERROR_NONE || n != 1)
        return;
    jthreadGroup system = top[0];
    (*env)->Deallocate(env, (unsigned char *)top);
    jvmtiThreadGroupInfo info;
    e = (*env)->GetThreadGroupInfo(env, system, &info);
    if (e == JVMTI_ERROR_NONE) {
        say("GetThreadGroupInfo(system)", "name %s, parent %s, max_priority %d, daemon %d",
            info.name, info.parent ? "set" : "NULL", (int)info.max_priority, (int)info.is_daemon);
        (*env)->Deallocate(env, (unsigned char *)info.name);
    }
    children("children(system)", system);
    jint nt = 0, ng = 0;
    jthread *threads = NULL;
    jthreadGroup *groups = NULL;
    (*env)->GetThreadGroupChildren(env, system, &nt, &threads, &ng, &groups);
    jthreadGroup main_group = ng == 1 ? groups[0] : NULL;
    (*env)->Deallocate(env, (unsigned char *)threads);
    (*env)->Deallocate(env, (unsigned char *)groups);
    children("children(main)", main_group);
    if ((*env)->GetThreadGroupInfo(env, main_group, &info) == JVMTI_ERROR_NONE) {
        say("GetThreadGroupInfo(main)", "parent is system: %d", info.parent == system);
        (*env)->Deallocate(env, (unsigned char *)info.name);
    }
    jvmtiThreadInfo ti;
    if ((*env)->GetThreadInfo(env, NULL, &ti) == JVMTI_ERROR_NONE) {
        group_name(ti.thread_group, name, sizeof name);
        say("GetThreadInfo(NULL)", "group %s", name);
        (*env)->Deallocate(env, (unsigned char *)ti.name);
    }
    say("GetThreadGroupInfo(NULL)", "%s", err((*env)->GetThreadGroupInfo(env, NULL, &info)));
    say("GetThreadGroupInfo(a thread)", "%s", err((*env)->GetThreadGroupInfo(env, thread, &info)));

    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    agent_thread = thread_class ? (*jni)->AllocObject(jni, thread_class) : NULL;
    static char arg[] = "the arg";
    say("RunAgentThread(priority 11)", "%s",
        err((*env)->RunAgentThread(env, agent_thread, agent_proc, arg, 11)));
    say("RunAgentThread(NULL)", "%s", err((*env)->RunAgentThread(env, NULL, agent_proc, arg, 5)));
    say("RunAgentThread(a group)", "%s",
        err((*env)->RunAgentThread(env, (jthread)system, agent_proc, arg, 5)));
    say("RunAgentThread(priority 7)", "%s",
        err((*env)->RunAgentThread(env, agent_thread, agent_proc, arg, 7)));
    (*env)->RawMonitorEnter(env, done_lock);
    for (int i = 0; i < 100 && !done; i++)
        (*env)->RawMonitorWait(env, done_lock, 100);
    (*env)->RawMonitorExit(env, done_lock);
    say("VMInit", "the agent thread ran: %d", done);
    say("RunAgentThread(the same object again)", "%s",
        err((*env)->RunAgentThread(env, agent_thread, agent_proc, arg, 5)));
}

static void JNICALL on_thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)jni;
    char name[64];
    thread_name(thread, name, sizeof name);
    say("ThreadStart", "%s", name);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)options, (void)reserved;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return 1;
    (*jvmti)->CreateRawMonitor(jvmti, "groups done", &done_lock);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    cb.ThreadStart = on_thread_start;
    const jvmtiEvent enable[] = {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_THREAD_START};
    agentkit_events(jvmti, &cb, 2, enable);
    return 0;
}
