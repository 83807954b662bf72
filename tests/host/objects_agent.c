/* An ordinary agent, built against the JDK 17 jvmti.h, that uses the core's
 * object and thread functions in bin/jvmti-host: object tags and ObjectFree
 * (objects made with JNI AllocObject, freed by ForceGarbageCollection once
 * their references are deleted), thread-local storage, thread CPU time, and with the option "suspend"
 * (and jvmti-host -work) suspend/resume of a thread running "Java code". It
 * prints one line per finding, which
 * tests/host/test.sh compares with what the spec says. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmti.h"
#include "../agentkit.h"

static jvmtiEnv *jvmti;
static jlong freed[16];
static int n_freed;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("objects: ");
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    va_end(ap);
}

static const char *ok(jvmtiError e) { return e == JVMTI_ERROR_NONE ? "ok" : "failed"; }

static void JNICALL object_free(jvmtiEnv *env, jlong tag)
{
    (void)env;
    if (n_freed < 16)
        freed[n_freed] = tag;
    n_freed++;
}

static void tags(JNIEnv *jni)
{
    jclass object = (*jni)->FindClass(jni, "java/lang/Object");
    jobject o[3];
    for (int i = 0; i < 3; i++)
        o[i] = object ? (*jni)->AllocObject(jni, object) : NULL;
    say("AllocObject: %s", o[0] && o[1] && o[2] ? "three objects" : "failed");
    jvmtiError err = JVMTI_ERROR_NONE;
    for (int i = 0; i < 3 && !err; i++)
        err = (*jvmti)->SetTag(jvmti, o[i], 100 + i);
    jlong t = 0, sum = 0;
    for (int i = 0; i < 3 && !err; i++) {
        err = (*jvmti)->GetTag(jvmti, o[i], &t);
        sum += t;
    }
    say("SetTag/GetTag: %s, tags sum to %ld", ok(err), (long)sum);
    jlong want[] = {100, 102};
    jint count = 0;
    jobject *objs = NULL;
    jlong *found = NULL;
    err = (*jvmti)->GetObjectsWithTags(jvmti, 2, want, &count, &objs, &found);
    int same = count == 2;
    for (jint i = 0; same && i < count; i++)
        same = (*jni)->IsSameObject(jni, objs[i], o[found[i] - 100]);
    say("GetObjectsWithTags(100, 102): %s, %ld objects", ok(err), (long)count);
    say("GetObjectsWithTags: the objects are the ones tagged%s", same ? "" : " NOT");
    for (jint i = 0; i < count; i++)
        (*jni)->DeleteLocalRef(jni, objs[i]);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)objs);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)found);

    /* The first two become unreachable; the third stays referenced. */
    (*jni)->DeleteLocalRef(jni, o[0]);
    (*jni)->DeleteLocalRef(jni, o[1]);
    err = (*jvmti)->ForceGarbageCollection(jvmti);
    jlong fsum = 0;
    for (int i = 0; i < n_freed && i < 16; i++)
        fsum += freed[i];
    say("ForceGarbageCollection: %s, ObjectFree for tags summing to %ld", ok(err), (long)fsum);
    say("ObjectFree events: %d", n_freed);
    t = 0;
    (*jvmti)->GetTag(jvmti, o[2], &t);
    say("the referenced object keeps its tag: %ld", (long)t);
    (*jvmti)->SetTag(jvmti, o[2], 0);
    (*jni)->DeleteLocalRef(jni, o[2]);
    n_freed = 0;
    (*jvmti)->ForceGarbageCollection(jvmti);
    say("an object untagged before it dies: ObjectFree events %d", n_freed);
}

/* ---- suspend/resume (option "suspend", with -work so that the workers run
 * "Java code"): a thread of the agent's own, attached through JNI,
 * suspends and resumes the first worker and watches its CPU time. ---- */
static JavaVM *the_vm;
static int suspend_test;
static jthread target;          /* atomic: the first worker */
static int target_ended;        /* atomic */
static __thread int is_controller;
static pthread_t controller;
static int controller_started;

static const char *name_of(jvmtiError e)
{
    static __thread char bufs[4][64]; /* several in one printf */
    static __thread int next;
    char *n = NULL, *buf = bufs[next++ % 4];
    if ((*jvmti)->GetErrorName(jvmti, e, &n) != JVMTI_ERROR_NONE || !n)
        return "?";
    snprintf(buf, sizeof bufs[0], "%s", n);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)n);
    return buf;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static jlong cpu_of(jthread t)
{
    jlong ns = -1;
    (*jvmti)->GetThreadCpuTime(jvmti, t, &ns);
    return ns;
}

static void *control(void *arg)
{
    (void)arg;
    is_controller = 1;
    JNIEnv *jni;
    if ((*the_vm)->AttachCurrentThread(the_vm, (void **)&jni, NULL) != JNI_OK) {
        say("suspend: cannot attach");
        return NULL;
    }
    jthread t = NULL;
    for (int i = 0; i < 500 && !t; i++) {
        t = __atomic_load_n(&target, __ATOMIC_ACQUIRE);
        if (!t)
            sleep_ms(10);
    }
    if (!t) {
        say("suspend: no worker started");
        (*the_vm)->DetachCurrentThread(the_vm);
        return NULL;
    }
    sleep_ms(100); /* it enters its Java code */
    say("suspend: SuspendThread: %s", name_of((*jvmti)->SuspendThread(jvmti, t)));
    jlong a = cpu_of(t);
    sleep_ms(100);
    jlong b = cpu_of(t);
    say("suspend: the suspended thread's CPU time stands still: %s", b - a < 2000000 ? "yes" : "no");
    say("suspend: SuspendThread again: %s", name_of((*jvmti)->SuspendThread(jvmti, t)));
    say("suspend: ResumeThread: %s", name_of((*jvmti)->ResumeThread(jvmti, t)));
    int grew = 0;
    for (int i = 0; i < 200 && !grew; i++) {
        sleep_ms(10);
        grew = cpu_of(t) - b > 5000000;
    }
    say("suspend: the resumed thread runs again: %s", grew ? "yes" : "no");
    say("suspend: ResumeThread again: %s", name_of((*jvmti)->ResumeThread(jvmti, t)));
    jthread list[] = {t, t, (jthread)(*jni)->FindClass(jni, "java/lang/Object")};
    jvmtiError r[3];
    jvmtiError err = (*jvmti)->SuspendThreadList(jvmti, 3, list, r);
    say("suspend: SuspendThreadList(worker, worker, a class): %s: %s %s", name_of(err),
        name_of(r[0]), name_of(r[1]));
    say("suspend: ... %s", name_of(r[2]));
    err = (*jvmti)->ResumeThreadList(jvmti, 2, list, r);
    say("suspend: ResumeThreadList(worker, worker): %s: %s %s", name_of(err), name_of(r[0]),
        name_of(r[1]));
    /* Ended: its ThreadEnd seen and the thread no longer alive. The worker
     * posts ThreadEnd while it is still alive, so the event alone left a
     * window where SuspendThread succeeded (seen in a loaded run). */
    for (int i = 0; i < 1000; i++) {
        jint state = JVMTI_THREAD_STATE_ALIVE;
        if (__atomic_load_n(&target_ended, __ATOMIC_ACQUIRE) &&
            (*jvmti)->GetThreadState(jvmti, t, &state) == JVMTI_ERROR_NONE &&
            !(state & JVMTI_THREAD_STATE_ALIVE))
            break;
        sleep_ms(10);
    }
    say("suspend: SuspendThread of a worker that ended: %s",
        name_of((*jvmti)->SuspendThread(jvmti, t)));
    (*the_vm)->DetachCurrentThread(the_vm);
    return NULL;
}

/* Thread-local storage: each thread stores its own cell at ThreadStart and
 * must find it again at ThreadEnd. */
static int tls_matched, tls_ends; /* atomic */

static void JNICALL thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    if (suspend_test && !is_controller && !__atomic_load_n(&target, __ATOMIC_ACQUIRE))
        __atomic_store_n(&target, (*jni)->NewGlobalRef(jni, thread), __ATOMIC_RELEASE);
    int *cell = malloc(sizeof *cell);
    if (cell)
        *cell = 12345;
    (*env)->SetThreadLocalStorage(env, NULL, cell);
}

static void JNICALL thread_end(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    jthread t = __atomic_load_n(&target, __ATOMIC_ACQUIRE);
    if (t && (*jni)->IsSameObject(jni, t, thread))
        __atomic_store_n(&target_ended, 1, __ATOMIC_RELEASE);
    void *mine = NULL, *named = NULL;
    (*env)->GetThreadLocalStorage(env, NULL, &mine);
    (*env)->GetThreadLocalStorage(env, thread, &named);
    if (mine && mine == named && *(int *)mine == 12345)
        __atomic_add_fetch(&tls_matched, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&tls_ends, 1, __ATOMIC_SEQ_CST);
    free(mine);
}

static void JNICALL vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    tags(jni);
    void *v = (void *)1;
    jvmtiError err = (*jvmti)->GetThreadLocalStorage(jvmti, thread, &v);
    say("TLS of the VMInit thread before any Set: %s, %s", ok(err), v ? "not NULL" : "NULL");
    jlong a = -1, b = -1;
    jvmtiError e1 = (*jvmti)->GetThreadCpuTime(jvmti, NULL, &a);
    volatile unsigned long x = 0;
    for (long i = 0; i < 20000000; i++)
        x += (unsigned long)i;
    (void)x; /* the loop burns time; clang 14 counts a volatile store as no use */
    jvmtiError e2 = (*jvmti)->GetThreadCpuTime(jvmti, thread, &b);
    say("GetThreadCpuTime: %s, %s; the thread named: %s, %s", ok(e1), a > 0 ? "positive" : "not positive",
        ok(e2), b > a ? "grew" : "did not grow");
    if (suspend_test)
        controller_started = pthread_create(&controller, NULL, control, NULL) == 0;
}

static void JNICALL vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env, (void)jni;
    if (controller_started)
        pthread_join(controller, NULL);
    say("TLS: %d of %d threads found their own value at ThreadEnd",
        __atomic_load_n(&tls_matched, __ATOMIC_SEQ_CST), __atomic_load_n(&tls_ends, __ATOMIC_SEQ_CST));
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    the_vm = vm;
    suspend_test = options && strcmp(options, "suspend") == 0;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_11)))
        return 1;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_tag_objects = 1;
    caps.can_generate_object_free_events = 1;
    caps.can_get_thread_cpu_time = 1;
    caps.can_suspend = 1;
    jvmtiError err = (*jvmti)->AddCapabilities(jvmti, &caps);
    say("AddCapabilities: %s", ok(err));
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = vm_init;
    cb.ObjectFree = object_free;
    cb.ThreadStart = thread_start;
    cb.ThreadEnd = thread_end;
    cb.VMDeath = vm_death;
    const jvmtiEvent enable[] = {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_OBJECT_FREE,
                                 JVMTI_EVENT_THREAD_START, JVMTI_EVENT_THREAD_END,
                                 JVMTI_EVENT_VM_DEATH};
    agentkit_events(jvmti, &cb, 5, enable);
    return JNI_OK;
}
