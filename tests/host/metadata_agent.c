/* metadata_agent.c: an ordinary agent (built against the JDK's own jvmti.h)
 * that asks jvmti-host about threads, classes and objects: in VMInit (the
 * main thread; the classes java/lang/Thread and, with -heap, int[]; an
 * object made with AllocObject), in ThreadStart of the worker, and in
 * VMDeath (the worker has ended). Run with -threads:1 -heap:1. One line per
 * result: "metadata: what: answer". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmti.h"
#include "../agentkit.h"

static jvmtiEnv *jvmti;
static jthread main_thread, worker; /* the host's references are stable */

static void say(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const char *what, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("metadata: %s: %s\n", what, buf);
    fflush(stdout);
}

static const char *err(jvmtiError e)
{
    static _Thread_local char buf[16];
    switch (e) {
    case JVMTI_ERROR_NONE: return "NONE";
    case JVMTI_ERROR_ABSENT_INFORMATION: return "ABSENT_INFORMATION";
    case JVMTI_ERROR_INVALID_THREAD: return "INVALID_THREAD";
    case JVMTI_ERROR_INVALID_CLASS: return "INVALID_CLASS";
    case JVMTI_ERROR_INVALID_OBJECT: return "INVALID_OBJECT";
    case JVMTI_ERROR_NOT_AVAILABLE: return "NOT_AVAILABLE";
    default: snprintf(buf, sizeof buf, "%d", (int)e); return buf;
    }
}

/* "N: main worker", the threads named by GetThreadInfo. */
static void all_threads(const char *what)
{
    jint n = -1;
    jthread *t = NULL;
    jvmtiError e = (*jvmti)->GetAllThreads(jvmti, &n, &t);
    if (e != JVMTI_ERROR_NONE) {
        say(what, "%s", err(e));
        return;
    }
    char buf[200];
    snprintf(buf, sizeof buf, "%d:", (int)n);
    for (jint i = 0; i < n; i++) {
        jvmtiThreadInfo info;
        if ((*jvmti)->GetThreadInfo(jvmti, t[i], &info) == JVMTI_ERROR_NONE) {
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s", info.name);
            (*jvmti)->Deallocate(jvmti, (unsigned char *)info.name);
        }
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)t);
    say(what, "%s", buf);
}

static void state(jthread t, const char *what)
{
    jint s = -1;
    jvmtiError e = (*jvmti)->GetThreadState(jvmti, t, &s);
    if (e != JVMTI_ERROR_NONE)
        say(what, "%s", err(e));
    else
        say(what, "0x%x", (unsigned)s);
}

static void thread_info(jthread t, const char *what)
{
    jvmtiThreadInfo info;
    jvmtiError e = (*jvmti)->GetThreadInfo(jvmti, t, &info);
    if (e != JVMTI_ERROR_NONE) {
        say(what, "%s", err(e));
        return;
    }
    say(what, "name %s, priority %d, daemon %d", info.name, (int)info.priority,
        (int)info.is_daemon);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)info.name);
}

/* Every class function on one class. */
static void describe(jclass k, const char *name)
{
    char what[96];
    char *sig = NULL, *gen = (char *)"unset";
    jvmtiError e = (*jvmti)->GetClassSignature(jvmti, k, &sig, &gen);
    snprintf(what, sizeof what, "GetClassSignature(%s)", name);
    if (e == JVMTI_ERROR_NONE)
        say(what, "%s, generic %s", sig, gen ? gen : "NULL");
    else
        say(what, "%s", err(e));
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)gen);
    jint status = -1, modifiers = -1;
    jboolean is_interface = 9, is_array = 9;
    jvmtiError e1 = (*jvmti)->GetClassStatus(jvmti, k, &status);
    jvmtiError e2 = (*jvmti)->GetClassModifiers(jvmti, k, &modifiers);
    jvmtiError e3 = (*jvmti)->IsInterface(jvmti, k, &is_interface);
    jvmtiError e4 = (*jvmti)->IsArrayClass(jvmti, k, &is_array);
    snprintf(what, sizeof what, "status, modifiers, interface, array (%s)", name);
    say(what, "%s 0x%x, %s 0x%x, %s %d, %s %d", err(e1), (unsigned)status, err(e2),
        (unsigned)modifiers, err(e3), (int)is_interface, err(e4), (int)is_array);
    char *src = NULL;
    e = (*jvmti)->GetSourceFileName(jvmti, k, &src);
    snprintf(what, sizeof what, "GetSourceFileName(%s)", name);
    say(what, "%s %s", err(e), e == JVMTI_ERROR_NONE ? src : "-");
    (*jvmti)->Deallocate(jvmti, (unsigned char *)src);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    main_thread = thread;
    jthread t = NULL;
    jvmtiError e = (*jvmti)->GetCurrentThread(jvmti, &t);
    say("VMInit: GetCurrentThread", "%s, %s", err(e),
        t == thread ? "VMInit's thread" : "another thread");
    all_threads("VMInit: GetAllThreads");
    thread_info(NULL, "VMInit: GetThreadInfo(NULL)");
    state(NULL, "VMInit: GetThreadState(NULL)");
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    state((jthread)thread_class, "VMInit: GetThreadState(a class)");
    describe(thread_class, "java/lang/Thread");
    /* int[] is one of the -heap model's classes. */
    describe((*jni)->FindClass(jni, "[I"), "int[]");
    jint status = 0;
    say("VMInit: GetClassStatus(a thread)", "%s",
        err((*jvmti)->GetClassStatus(jvmti, (jclass)thread, &status)));

    jclass object_class = (*jni)->FindClass(jni, "java/lang/Object");
    jobject o = (*jni)->AllocObject(jni, object_class);
    jobject o2 = (*jni)->NewGlobalRef(jni, o);
    jlong size = -1;
    e = (*jvmti)->GetObjectSize(jvmti, o, &size);
    say("VMInit: GetObjectSize(a new Object)", "%s, %s", err(e),
        size > 0 ? "more than 0 bytes" : "0 bytes or less");
    jint h1 = 0, h2 = 1;
    jvmtiError e1 = (*jvmti)->GetObjectHashCode(jvmti, o, &h1);
    jvmtiError e2 = (*jvmti)->GetObjectHashCode(jvmti, o2, &h2);
    say("VMInit: GetObjectHashCode(the object, another reference to it)", "%s %s, %s", err(e1),
        err(e2), h1 == h2 ? "the same" : "different");
    e = (*jvmti)->GetObjectSize(jvmti, thread_class, &size);
    say("VMInit: GetObjectSize(a class)", "%s, %s", err(e),
        size > 0 ? "more than 0 bytes" : "0 bytes or less");
    (*jni)->DeleteGlobalRef(jni, o2);
    (*jni)->DeleteLocalRef(jni, o);
}

static void JNICALL on_thread_start(jvmtiEnv *env, JNIEnv *jni, jthread t)
{
    (void)env, (void)jni;
    if (t == main_thread)
        return;
    worker = t;
    jthread current = NULL;
    (*jvmti)->GetCurrentThread(jvmti, &current);
    say("ThreadStart: GetCurrentThread", "%s", current == t ? "the worker" : "another thread");
    all_threads("ThreadStart: GetAllThreads");
    state(t, "ThreadStart: GetThreadState(worker)");
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env, (void)jni;
    state(worker, "VMDeath: GetThreadState(ended worker)");
    thread_info(worker, "VMDeath: GetThreadInfo(ended worker)");
    all_threads("VMDeath: GetAllThreads");
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)options, (void)reserved;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return 1;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_get_source_file_name = 1;
    jvmtiError e = (*jvmti)->AddCapabilities(jvmti, &caps);
    if (e != JVMTI_ERROR_NONE) {
        fprintf(stderr, "metadata: AddCapabilities(can_get_source_file_name): %s\n", err(e));
        return 2;
    }
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    cb.ThreadStart = on_thread_start;
    cb.VMDeath = on_vm_death;
    const jvmtiEvent enable[] = {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_THREAD_START,
                                 JVMTI_EVENT_VM_DEATH};
    agentkit_events(jvmti, &cb, 3, enable);
    return 0;
}
