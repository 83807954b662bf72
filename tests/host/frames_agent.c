/* frames_agent.c: an ordinary agent (built against the JDK's own jvmti.h)
 * that uses breakpoints, field watches, frame pops, a native method
 * prefix, the JNI function table and class-loader search in jvmti-host.
 * Options: "TAG" sets them all and prints what happens; "TAG,quiet" only
 * enables the same events with callbacks, and must get none of them (they
 * go only to the environment that set or watched them). At the breakpoint
 * in run, a thread of the agent's suspends the worker, looks at its frames
 * and asks for its frame pop while it stays suspended, then resumes it.
 * One line per result: "TAG: what: answer". */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmti.h"
#include "../agentkit.h"

static jvmtiEnv *jvmti;
static char tag[32];
static int quiet;
static jmethodID run, get_name;
static jfieldID name_field, priority_field;
static jclass thread_class;
static jint (JNICALL *vm_get_version)(JNIEnv *);
/* Calls through the agent's table: in all (atomic: threads start at once)
 * and on the calling thread, which is what a ThreadStart asks about. */
static int version_calls;
static _Thread_local int version_calls_here;
static JavaVM *the_vm;

static const char *err(jvmtiError e)
{
    static char buf[16];
    switch (e) {
    case JVMTI_ERROR_NONE: return "NONE";
    case JVMTI_ERROR_DUPLICATE: return "DUPLICATE";
    case JVMTI_ERROR_NOT_FOUND: return "NOT_FOUND";
    case JVMTI_ERROR_INVALID_LOCATION: return "INVALID_LOCATION";
    case JVMTI_ERROR_NO_MORE_FRAMES: return "NO_MORE_FRAMES";
    case JVMTI_ERROR_OPAQUE_FRAME: return "OPAQUE_FRAME";
    case JVMTI_ERROR_ILLEGAL_ARGUMENT: return "ILLEGAL_ARGUMENT";
    case JVMTI_ERROR_NOT_AVAILABLE: return "NOT_AVAILABLE";
    case JVMTI_ERROR_THREAD_NOT_SUSPENDED: return "THREAD_NOT_SUSPENDED";
    case JVMTI_ERROR_TYPE_MISMATCH: return "TYPE_MISMATCH";
    case JVMTI_ERROR_INVALID_SLOT: return "INVALID_SLOT";
    default: snprintf(buf, sizeof buf, "%d", (int)e); return buf;
    }
}

static void say(const char *what, const char *answer)
{
    printf("%s: %s: %s\n", tag, what, answer);
    fflush(stdout);
}

static const char *method_name(jmethodID m)
{
    return m == run ? "run" : m == get_name ? "getName" : "?";
}

/* ---- another thread's frames, while it is suspended ---- */

static pthread_t controller;
static int controller_started; /* atomic: the first worker at run@2 starts it */
static jthread worker;          /* a global reference */
static int worker_suspended;    /* under lock */
static jvmtiError resume_answer = -1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The worker is in the breakpoint's callback when it is suspended, and
 * returns from it at once: it must stop before its next move (the call of
 * getName), so 50 ms later its frames are still run@2, alone. */
static void *control(void *arg)
{
    (void)arg;
    JNIEnv *jni;
    if ((*the_vm)->AttachCurrentThread(the_vm, (void **)&jni, NULL) != JNI_OK) {
        say("controller", "cannot attach");
        return NULL;
    }
    jvmtiError e = (*jvmti)->SuspendThread(jvmti, worker);
    say("SuspendThread(worker) in its Breakpoint", err(e));
    pthread_mutex_lock(&lock);
    worker_suspended = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    sleep_ms(50);
    jint count = -1;
    jmethodID m = NULL;
    jlocation at = -1;
    (*jvmti)->GetFrameCount(jvmti, worker, &count);
    (*jvmti)->GetFrameLocation(jvmti, worker, 0, &m, &at);
    char answer[64];
    snprintf(answer, sizeof answer, "%d frame, %s@%d", (int)count, method_name(m), (int)at);
    say("the suspended worker, 50 ms after its callback returned", answer);
    say("NotifyFramePop(suspended worker, 0)", err((*jvmti)->NotifyFramePop(jvmti, worker, 0)));
    say("NotifyFramePop(suspended worker, 1)", err((*jvmti)->NotifyFramePop(jvmti, worker, 1)));
    /* its locals (run: this, and i, the location it is at) */
    jobject self = NULL;
    jint i = -1;
    jvmtiError ge = (*jvmti)->GetLocalInstance(jvmti, worker, 0, &self);
    snprintf(answer, sizeof answer, "%s, %s", err(ge),
             ge == JVMTI_ERROR_NONE && (*jni)->IsSameObject(jni, self, worker) ? "the worker" : "?");
    say("GetLocalInstance(suspended worker, 0)", answer);
    ge = (*jvmti)->GetLocalInt(jvmti, worker, 0, 1, &i);
    snprintf(answer, sizeof answer, "%s, %d", err(ge), (int)i);
    say("GetLocalInt(suspended worker, 0, 1)", answer);
    say("GetLocalObject(suspended worker, 0, 1)",
        err((*jvmti)->GetLocalObject(jvmti, worker, 0, 1, &self)));
    say("GetLocalInt(suspended worker, 0, 2)", err((*jvmti)->GetLocalInt(jvmti, worker, 0, 2, &i)));
    say("SetLocalInt(suspended worker, 0, 1)", err((*jvmti)->SetLocalInt(jvmti, worker, 0, 1, 2)));
    /* the host unwinds only the main chain's frames */
    say("PopFrame(suspended worker)", err((*jvmti)->PopFrame(jvmti, worker)));
    say("ForceEarlyReturnVoid(suspended worker)", err((*jvmti)->ForceEarlyReturnVoid(jvmti, worker)));
    resume_answer = (*jvmti)->ResumeThread(jvmti, worker); /* printed at VMDeath */
    (*jni)->DeleteGlobalRef(jni, worker);
    (*the_vm)->DetachCurrentThread(the_vm);
    return NULL;
}

static void start_controller(JNIEnv *jni, jthread t)
{
    worker = (*jni)->NewGlobalRef(jni, t);
    if (pthread_create(&controller, NULL, control, NULL) != 0) {
        say("controller", "not started");
        return;
    }
    pthread_mutex_lock(&lock);
    while (!worker_suspended)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
}

static void JNICALL on_breakpoint(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jlocation at)
{
    char what[64];
    snprintf(what, sizeof what, "Breakpoint %s@%d", method_name(m), (int)at);
    say(what, "hit");
    if (m == run && !__atomic_exchange_n(&controller_started, 1, __ATOMIC_ACQ_REL))
        start_controller(jni, t);
    if (m == get_name) {
        /* getName's frame is at depth 0 (run below it, hashCode not yet). */
        say("NotifyFramePop(current, 0)", err((*env)->NotifyFramePop(env, NULL, 0)));
        say("NotifyFramePop(current, 0) again", err((*env)->NotifyFramePop(env, NULL, 0)));
        say("NotifyFramePop(current, 2)", err((*env)->NotifyFramePop(env, NULL, 2)));
        jint i = -1;
        jvmtiError ge = (*env)->GetLocalInt(env, NULL, 1, 1, &i);
        char answer[32];
        snprintf(answer, sizeof answer, "%s, %d", err(ge), (int)i);
        say("GetLocalInt(current, 1, 1): run's i", answer);
        jobject self = NULL;
        ge = (*env)->GetLocalInstance(env, NULL, 0, &self);
        snprintf(answer, sizeof answer, "%s, %s", err(ge),
                 ge == JVMTI_ERROR_NONE && (*jni)->IsSameObject(jni, self, t) ? "the thread" : "?");
        say("GetLocalInstance(current, 0): getName's this", answer);
    }
}

static void JNICALL on_access(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jlocation at,
                              jclass k, jobject o, jfieldID f)
{
    (void)env, (void)jni, (void)t, (void)k, (void)o;
    char what[80];
    snprintf(what, sizeof what, "FieldAccess %s in %s@%d", f == name_field ? "name" : "?",
             method_name(m), (int)at);
    say(what, "seen");
}

static void JNICALL on_modify(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jlocation at,
                              jclass k, jobject o, jfieldID f, char sig, jvalue v)
{
    (void)env, (void)jni, (void)t, (void)k, (void)o;
    char what[96], answer[32];
    snprintf(what, sizeof what, "FieldModification %s in %s@%d",
             f == priority_field ? "priority" : "?", method_name(m), (int)at);
    snprintf(answer, sizeof answer, "%c %d", sig, (int)v.i);
    say(what, answer);
}

static void JNICALL on_frame_pop(jvmtiEnv *env, JNIEnv *jni, jthread t, jmethodID m, jboolean ex)
{
    (void)jni, (void)t;
    char what[64];
    snprintf(what, sizeof what, "FramePop %s", method_name(m));
    say(what, ex ? "by exception" : "returned");
    say("ClearBreakpoint(getName, 0)", err((*env)->ClearBreakpoint(env, get_name, 0)));
    say("ClearBreakpoint(getName, 0) again", err((*env)->ClearBreakpoint(env, get_name, 0)));
}

static jint JNICALL counting_get_version(JNIEnv *jni)
{
    __atomic_fetch_add(&version_calls, 1, __ATOMIC_RELAXED);
    version_calls_here++;
    return vm_get_version(jni);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)thread;
    thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    run = (*jni)->GetMethodID(jni, thread_class, "run", "()V");
    get_name = (*jni)->GetMethodID(jni, thread_class, "getName", "()Ljava/lang/String;");
    name_field = (*jni)->GetFieldID(jni, thread_class, "name", "Ljava/lang/String;");
    priority_field = (*jni)->GetFieldID(jni, thread_class, "priority", "I");
    if (!run || !get_name || !name_field || !priority_field) {
        say("VMInit", "Thread's members not found");
        return;
    }
    if (quiet)
        return;
    say("SetBreakpoint(run, 2)", err((*env)->SetBreakpoint(env, run, 2)));
    say("SetBreakpoint(run, 2) again", err((*env)->SetBreakpoint(env, run, 2)));
    say("SetBreakpoint(run, 99)", err((*env)->SetBreakpoint(env, run, 99)));
    say("ClearBreakpoint(run, 3)", err((*env)->ClearBreakpoint(env, run, 3)));
    say("SetBreakpoint(getName, 0)", err((*env)->SetBreakpoint(env, get_name, 0)));
    say("SetFieldAccessWatch(name)", err((*env)->SetFieldAccessWatch(env, thread_class, name_field)));
    say("SetFieldAccessWatch(name) again",
        err((*env)->SetFieldAccessWatch(env, thread_class, name_field)));
    say("ClearFieldModificationWatch(name)",
        err((*env)->ClearFieldModificationWatch(env, thread_class, name_field)));
    say("SetFieldModificationWatch(priority)",
        err((*env)->SetFieldModificationWatch(env, thread_class, priority_field)));
    say("NotifyFramePop(current, 0) in VMInit", err((*env)->NotifyFramePop(env, NULL, 0)));

    /* Interpose on GetVersion for every JNIEnv, this one and later ones. */
    jniNativeInterface *table = NULL;
    say("GetJNIFunctionTable", err((*env)->GetJNIFunctionTable(env, &table)));
    if (table) {
        vm_get_version = table->GetVersion;
        table->GetVersion = counting_get_version;
        say("SetJNIFunctionTable", err((*env)->SetJNIFunctionTable(env, table)));
        (*env)->Deallocate(env, (unsigned char *)table);
        jint v = (*jni)->GetVersion(jni);
        say("GetVersion through the new table",
            __atomic_load_n(&version_calls, __ATOMIC_RELAXED) == 1 && v == JNI_VERSION_10
                ? "counted"
                : "missed");
    }

    char *value = NULL;
    (*env)->GetSystemProperty(env, "jdk.boot.class.path.append", &value);
    say("boot class path appended in OnLoad", value ? value : "(none)");
    (*env)->Deallocate(env, (unsigned char *)value);
    say("AddToSystemClassLoaderSearch(a directory) when live",
        err((*env)->AddToSystemClassLoaderSearch(env, "/")));
}

static void JNICALL on_thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)thread;
    if (!quiet && vm_get_version) {
        int before = version_calls_here;
        (*jni)->GetVersion(jni);
        say("a new thread's JNIEnv uses the new table",
            version_calls_here == before + 1 ? "yes" : "no");
    }
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env, (void)jni;
    say("VMDeath", "reached");
    if (__atomic_load_n(&controller_started, __ATOMIC_ACQUIRE)) {
        pthread_join(controller, NULL);
        say("ResumeThread(worker) after NotifyFramePop", err(resume_answer));
    }
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    the_vm = vm;
    snprintf(tag, sizeof tag, "%s", options ? options : "agent");
    char *comma = strchr(tag, ',');
    if (comma) {
        quiet = strcmp(comma + 1, "quiet") == 0;
        *comma = '\0';
    }
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return JNI_ERR;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_breakpoint_events = 1;
    caps.can_generate_field_access_events = 1;
    caps.can_generate_field_modification_events = 1;
    caps.can_generate_frame_pop_events = 1;
    caps.can_set_native_method_prefix = 1;
    caps.can_suspend = 1;
    caps.can_access_local_variables = 1;
    caps.can_pop_frame = 1;
    caps.can_force_early_return = 1;
    say("AddCapabilities", err((*jvmti)->AddCapabilities(jvmti, &caps)));
    if (!quiet) {
        say("SetNativeMethodPrefix", err((*jvmti)->SetNativeMethodPrefix(jvmti, "$$frames_")));
        say("AddToBootstrapClassLoaderSearch in OnLoad",
            err((*jvmti)->AddToBootstrapClassLoaderSearch(jvmti, "/no/such/boot/dir")));
    }
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    cb.VMDeath = on_vm_death;
    cb.ThreadStart = on_thread_start;
    cb.Breakpoint = on_breakpoint;
    cb.FieldAccess = on_access;
    cb.FieldModification = on_modify;
    cb.FramePop = on_frame_pop;
    const jvmtiEvent events[] = {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH,
                                 JVMTI_EVENT_THREAD_START, JVMTI_EVENT_BREAKPOINT,
                                 JVMTI_EVENT_FIELD_ACCESS, JVMTI_EVENT_FIELD_MODIFICATION,
                                 JVMTI_EVENT_FRAME_POP};
    agentkit_events(jvmti, &cb, (int)(sizeof events / sizeof *events), events);
    return JNI_OK;
}
