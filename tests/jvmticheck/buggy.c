/* A deliberately buggy agent: its option names the misuse it commits, each
 * in a function of its own (exported, not inlined) so that jvmticheck's
 * finding names it as the caller. "clean" uses everything correctly. */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jvmti.h>

#include "../agentkit.h"

#define BUG __attribute__((noinline, visibility("default")))
/* What its lines start with: built a second time as another agent
 * (-DAGENT='"other"'), for two agents in one checker. */
#ifndef AGENT
#define AGENT "buggy"
#endif

static jvmtiEnv *jvmti;
static char what[64];
static volatile int sink; /* results are used, so no call is a tail call */

static int is(const char *name) { return strcmp(what, name) == 0; }

BUG void buggy_null(JNIEnv *jni, jthread thread);
BUG void buggy_null(JNIEnv *jni, jthread thread)
{
    (void)jni;
    jvmtiError err = (*jvmti)->GetThreadState(jvmti, thread, NULL);
    printf(AGENT ": GetThreadState returned %d\n", (int)err);
    fflush(stdout);
}

/* The same misuse many times from one call site: one line, then a count. */
BUG void buggy_null_many(JNIEnv *jni, jthread thread);
BUG void buggy_null_many(JNIEnv *jni, jthread thread)
{
    (void)jni;
    for (int i = 0; i < 100000; i++)
        sink = (*jvmti)->GetThreadState(jvmti, thread, NULL);
}

/* A misuse from a function that dladdr cannot name (not exported): the
 * finding gives its object and offset, which addr2line resolves. */
__attribute__((noinline)) static void static_null(jthread thread)
{
    sink = (*jvmti)->GetThreadState(jvmti, thread, NULL);
}

/* A raw monitor the agent never created: the checker must not hand it to
 * the VM (HotSpot crashes on it). */
BUG void buggy_monitor_unknown(void);
BUG void buggy_monitor_unknown(void)
{
    jrawMonitorID made_up = (jrawMonitorID)(uintptr_t)0x10;
    jvmtiError err = (*jvmti)->RawMonitorEnter(jvmti, made_up);
    printf(AGENT ": RawMonitorEnter(made up) returned %d\n", (int)err);
    fflush(stdout);
}

/* ... and one it has destroyed (HotSpot has freed it). */
BUG void buggy_monitor_destroyed(void);
BUG void buggy_monitor_destroyed(void)
{
    jrawMonitorID m;
    sink = (*jvmti)->CreateRawMonitor(jvmti, "destroyed", &m);
    sink = (*jvmti)->DestroyRawMonitor(jvmti, m);
    jvmtiError err = (*jvmti)->RawMonitorEnter(jvmti, m);
    printf(AGENT ": RawMonitorEnter(destroyed) returned %d\n", (int)err);
    fflush(stdout);
}

BUG void buggy_phase(void);
BUG void buggy_phase(void)
{
    jthread t;
    sink = (*jvmti)->GetCurrentThread(jvmti, &t);
}

BUG void buggy_after_death(void);
BUG void buggy_after_death(void)
{
    jint n = 0;
    jclass *classes = NULL;
    sink = (*jvmti)->GetLoadedClasses(jvmti, &n, &classes);
}

BUG void buggy_dispose(void);
BUG void buggy_dispose(void)
{
    jvmtiPhase p;
    sink = (*jvmti)->DisposeEnvironment(jvmti);
    sink = (*jvmti)->GetPhase(jvmti, &p);
}

BUG void buggy_dealloc_foreign(void);
BUG void buggy_dealloc_foreign(void)
{
    unsigned char *mine = malloc(16);
    sink = (*jvmti)->Deallocate(jvmti, mine);
    free(mine);
}

BUG void buggy_dealloc_twice(void);
BUG void buggy_dealloc_twice(void)
{
    unsigned char *mem = NULL;
    sink = (*jvmti)->Allocate(jvmti, 16, &mem);
    sink = (*jvmti)->Deallocate(jvmti, mem);
    sink = (*jvmti)->Deallocate(jvmti, mem);
}

BUG void buggy_leak(void);
BUG void buggy_leak(void)
{
    char *v = NULL;
    sink = (*jvmti)->GetSystemProperty(jvmti, "java.vm.name", &v);
    sink = (*jvmti)->GetSystemProperty(jvmti, "java.vm.name", &v);
}

BUG void buggy_capability(JNIEnv *jni);
BUG void buggy_capability(JNIEnv *jni)
{
    jclass c = (*jni)->FindClass(jni, "java/lang/Object");
    jmethodID m = (*jni)->GetMethodID(jni, c, "<init>", "()V");
    jint n = 0;
    unsigned char *code = NULL;
    sink = (*jvmti)->GetBytecodes(jvmti, m, &n, &code);
}

/* A NULL class (null-handle), a negative depth (below-minimum), a call
 * from a thread the VM does not know (unattached-thread). */
BUG void buggy_null_class(void);
BUG void buggy_null_class(void)
{
    char *sig = NULL;
    sink = (*jvmti)->GetClassSignature(jvmti, NULL, &sig, NULL);
}

BUG void buggy_negative_depth(void);
BUG void buggy_negative_depth(void)
{
    jmethodID m;
    jlocation at;
    sink = (*jvmti)->GetFrameLocation(jvmti, NULL, -1, &m, &at);
}

BUG void *buggy_unattached(void *unused);
BUG void *buggy_unattached(void *unused)
{
    jthread t = NULL;
    (void)unused;
    sink = (*jvmti)->GetCurrentThread(jvmti, &t);
    return NULL;
}

BUG void buggy_monitor_exit(void);
BUG void buggy_monitor_exit(void)
{
    jrawMonitorID m;
    sink = (*jvmti)->CreateRawMonitor(jvmti, "buggy", &m);
    sink = (*jvmti)->RawMonitorExit(jvmti, m);
    sink = (*jvmti)->DestroyRawMonitor(jvmti, m);
}

/* The VM refuses this (wrong phase): the callbacks set before stay. */
BUG void buggy_refused_callbacks(void);
BUG void buggy_refused_callbacks(void)
{
    sink = (*jvmti)->SetEventCallbacks(jvmti, NULL, 0);
}

/* Extension functions and events: HotSpot's or the host's (whichever
 * the VM has), each with an out-pointer that must not be NULL. */
static const char *const ext_function_ids[] = {"com.sun.hotspot.functions.IsClassUnloadingEnabled",
                                               "jvmtigen.host.functions.GetEnvironmentVersion"};
static const char *const ext_event_ids[] = {"com.sun.hotspot.events.ClassUnload",
                                            "jvmtigen.host.events.MainReturned"};
static char ext_id[128];

static int known(const char *id, const char *const *ids)
{
    return id && (strcmp(id, ids[0]) == 0 || strcmp(id, ids[1]) == 0);
}

static void free_params(jvmtiParamInfo *params, jint n)
{
    for (jint j = 0; params && j < n; j++)
        (*jvmti)->Deallocate(jvmti, (unsigned char *)params[j].name);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)params);
}

/* The VM's extension function of ext_function_ids (its id in ext_id), or
 * NULL; every buffer deallocated, unless keep (a leak on purpose). */
static jvmtiExtensionFunction ext_function(int keep)
{
    jint n = 0;
    jvmtiExtensionFunctionInfo *fi = NULL;
    jvmtiExtensionFunction f = NULL;
    if ((*jvmti)->GetExtensionFunctions(jvmti, &n, &fi) != JVMTI_ERROR_NONE)
        return NULL;
    for (jint i = 0; i < n; i++) {
        if (known(fi[i].id, ext_function_ids)) {
            f = fi[i].func;
            snprintf(ext_id, sizeof ext_id, "%s", fi[i].id);
        }
        if (keep)
            continue;
        (*jvmti)->Deallocate(jvmti, (unsigned char *)fi[i].id);
        (*jvmti)->Deallocate(jvmti, (unsigned char *)fi[i].short_description);
        free_params(fi[i].params, fi[i].param_count);
        (*jvmti)->Deallocate(jvmti, (unsigned char *)fi[i].errors);
    }
    if (!keep)
        (*jvmti)->Deallocate(jvmti, (unsigned char *)fi);
    return f;
}

/* Correct use: the answer is the VM's (compared with a run without the
 * checker). The out-parameter is a jboolean in HotSpot, a jint in the
 * host: a zeroed jint holds either. */
static void ext_call(void)
{
    jvmtiExtensionFunction f = ext_function(0);
    jint value = 0;
    if (!f) {
        printf(AGENT ": no extension function\n");
        return;
    }
    jvmtiError err = f(jvmti, &value);
    printf(AGENT ": %s returned %d, value %d\n", ext_id, (int)err, (int)value);
}

BUG void buggy_ext_null(void);
BUG void buggy_ext_null(void)
{
    jvmtiExtensionFunction f = ext_function(0);
    if (f) {
        jvmtiError err = f(jvmti, NULL);
        printf(AGENT ": %s(NULL) returned %d\n", ext_id, (int)err);
    }
}

BUG void buggy_ext_leak(void);
BUG void buggy_ext_leak(void)
{
    sink = ext_function(1) != NULL;
}

/* The extension event's callback: the environment must be the agent's own. */
static int ext_event_seen; /* atomic */
static void JNICALL ext_event(jvmtiEnv *env, ...)
{
    if (__atomic_exchange_n(&ext_event_seen, 1, __ATOMIC_SEQ_CST))
        return;
    printf(AGENT ": %s came with %s\n", ext_id, env == jvmti ? "its own environment" : "another environment");
    fflush(stdout);
    /* Tells a program waiting for the event (Unload.java) that it came. */
    const char *seen = getenv("BUGGY_SEEN");
    FILE *f = seen && *seen ? fopen(seen, "w") : NULL;
    if (f)
        fclose(f);
}

static void ext_event_enable(void)
{
    jint n = 0;
    jvmtiExtensionEventInfo *ei = NULL;
    if ((*jvmti)->GetExtensionEvents(jvmti, &n, &ei) != JVMTI_ERROR_NONE)
        return;
    for (jint i = 0; i < n; i++) {
        if (known(ei[i].id, ext_event_ids)) {
            snprintf(ext_id, sizeof ext_id, "%s", ei[i].id);
            jvmtiError err = (*jvmti)->SetExtensionEventCallback(jvmti, ei[i].extension_event_index, ext_event);
            printf(AGENT ": SetExtensionEventCallback(%s) returned %d\n", ext_id, (int)err);
        }
        (*jvmti)->Deallocate(jvmti, (unsigned char *)ei[i].id);
        (*jvmti)->Deallocate(jvmti, (unsigned char *)ei[i].short_description);
        free_params(ei[i].params, ei[i].param_count);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)ei);
}

/* thread-start: only so that the event is delivered (and traced). */
static void JNICALL thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)jni, (void)thread;
}

static void JNICALL vm_start(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env;
    (void)jni;
    buggy_refused_callbacks();
}

static jrawMonitorID held;
BUG void *buggy_monitor_destroy(void *arg);
BUG void *buggy_monitor_destroy(void *arg)
{
    (void)arg;
    sink = (*jvmti)->DestroyRawMonitor(jvmti, held);
    return NULL;
}

/* Correct use, and a race: two threads hand a raw monitor back and forth
 * with wait and notify many times; each exit is by the thread that holds
 * the monitor (a checker that updates its record of the holder after the
 * VM's exit loses the race against the waiter's return). */
static jrawMonitorID baton;
static int turn, rounds = 200000;
static void pass_baton(int me)
{
    for (int i = 0; i < rounds; i++) {
        (*jvmti)->RawMonitorEnter(jvmti, baton);
        while (turn != me)
            (*jvmti)->RawMonitorWait(jvmti, baton, 0);
        turn = !me;
        (*jvmti)->RawMonitorNotifyAll(jvmti, baton);
        (*jvmti)->RawMonitorExit(jvmti, baton);
    }
}
static JavaVM *the_vm;
static void *other_side(void *arg)
{
    (void)arg;
    JNIEnv *jni;
    /* Raw monitors need a thread the VM knows. */
    if ((*the_vm)->AttachCurrentThread(the_vm, (void **)&jni, NULL) != JNI_OK)
        return NULL;
    pass_baton(1);
    (*the_vm)->DetachCurrentThread(the_vm);
    return NULL;
}
static void monitor_pingpong(void)
{
    pthread_t t;
    (*jvmti)->CreateRawMonitor(jvmti, "baton", &baton);
    pthread_create(&t, NULL, other_side, NULL);
    pass_baton(0);
    pthread_join(t, NULL);
    (*jvmti)->DestroyRawMonitor(jvmti, baton);
}

/* retrace: while two threads call the VM's extension function through the
 * checker again and again (each call asks whether it is traced: the
 * selection is read, as for every event), another thread gives the checker
 * a new trace= selection 2,000 times, the way repeated `jcmd
 * JVMTI.agent_load ... trace=` do: through the checker's Agent_OnAttach,
 * called directly, with an agent that does not exist (each one is refused
 * after its trace= took effect). */
static long reads;     /* atomic: calls made by the readers */
static int retraced;   /* atomic: the readers stop */
static JavaVM *real_vm;
static void *reader(void *arg)
{
    jvmtiExtensionFunction f = (jvmtiExtensionFunction)arg;
    JNIEnv *jni;
    jint value;
    if ((*the_vm)->AttachCurrentThread(the_vm, (void **)&jni, NULL) != JNI_OK)
        return NULL;
    while (!__atomic_load_n(&retraced, __ATOMIC_ACQUIRE)) {
        jvmtiError err = f(jvmti, &value); /* sink is not for two threads */
        __atomic_add_fetch(&reads, 1, __ATOMIC_RELAXED);
        (void)err;
    }
    (*the_vm)->DetachCurrentThread(the_vm);
    return NULL;
}
static void retrace(void)
{
    const char *checker = getenv("BUGGY_CHECKER");
    void *self = checker ? dlopen(checker, RTLD_NOW | RTLD_NOLOAD) : NULL;
    jint(JNICALL * attach)(JavaVM *, char *, void *) =
        self ? (jint(JNICALL *)(JavaVM *, char *, void *))dlsym(self, "Agent_OnAttach") : NULL;
    jvmtiExtensionFunction f = ext_function(0);
    pthread_t readers[2];
    if (!attach || !f) {
        printf(AGENT ": retrace: no Agent_OnAttach in BUGGY_CHECKER, or no extension function\n");
        return;
    }
    for (int i = 0; i < 2; i++)
        pthread_create(&readers[i], NULL, reader, (void *)f);
    /* The readers are calling before the first new selection, and until
     * after the last. */
    while (__atomic_load_n(&reads, __ATOMIC_RELAXED) < 1000)
        sched_yield();
    for (long n = 0; n < 2000; n++) {
        char options[64];
        snprintf(options, sizeof options, "trace=NoSuchFunction%ld:-Other,agent=", n % 7);
        attach(real_vm, options, NULL);
    }
    __atomic_store_n(&retraced, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 2; i++)
        pthread_join(readers[i], NULL);
    printf(AGENT ": retraced 2000 times while 2 threads read\n");
}

/* Correct use of what the misuses get wrong: no finding. */
static void clean(JNIEnv *jni, jthread thread)
{
    jint state, n = 0;
    char *v = NULL, *sig = NULL, *gen = NULL;
    unsigned char *mem = NULL;
    jrawMonitorID m;
    jvmtiThreadInfo info;
    jmethodID *methods = NULL;
    jclass c = (*jni)->FindClass(jni, "java/lang/String");
    /* A call that fails leaves the buffers NULL, and Deallocate(NULL) is
     * allowed (the host has no thread info: its GetThreadInfo fails). */
    memset(&info, 0, sizeof info);
    (*jvmti)->GetThreadState(jvmti, thread, &state);
    (*jvmti)->GetSystemProperty(jvmti, "java.vm.name", &v);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)v);
    (*jvmti)->GetClassSignature(jvmti, c, &sig, &gen);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)gen);
    (*jvmti)->GetClassSignature(jvmti, c, &sig, NULL); /* an out-pointer may be NULL (nullok) */
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    (*jvmti)->GetClassMethods(jvmti, c, &n, &methods);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)methods);
    (*jvmti)->GetThreadInfo(jvmti, thread, &info);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)info.name);
    (*jvmti)->Allocate(jvmti, 32, &mem);
    (*jvmti)->Deallocate(jvmti, mem);
    (*jvmti)->Deallocate(jvmti, NULL);
    (*jvmti)->CreateRawMonitor(jvmti, "clean", &m);
    (*jvmti)->RawMonitorEnter(jvmti, m);
    (*jvmti)->RawMonitorEnter(jvmti, m);
    (*jvmti)->RawMonitorExit(jvmti, m);
    (*jvmti)->RawMonitorNotifyAll(jvmti, m);
    (*jvmti)->RawMonitorWait(jvmti, m, 1);
    (*jvmti)->RawMonitorExit(jvmti, m);
    (*jvmti)->DestroyRawMonitor(jvmti, m);
}

static void JNICALL vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    if (env != jvmti)
        printf(AGENT ": VMInit got another environment\n");
    if (is("null"))
        buggy_null(jni, thread);
    else if (is("null-many"))
        buggy_null_many(jni, thread);
    else if (is("static-null"))
        static_null(thread);
    else if (is("monitor-unknown"))
        buggy_monitor_unknown();
    else if (is("monitor-destroyed"))
        buggy_monitor_destroyed();
    else if (is("retrace")) {
        (*jni)->GetJavaVM(jni, &real_vm);
        retrace();
    } else if (is("dispose"))
        buggy_dispose();
    else if (is("dealloc-foreign"))
        buggy_dealloc_foreign();
    else if (is("dealloc-twice"))
        buggy_dealloc_twice();
    else if (is("leak"))
        buggy_leak();
    else if (is("capability"))
        buggy_capability(jni);
    else if (is("monitor-exit"))
        buggy_monitor_exit();
    else if (is("monitor-destroy")) {
        pthread_t t;
        (*jvmti)->CreateRawMonitor(jvmti, "held", &held);
        (*jvmti)->RawMonitorEnter(jvmti, held);
        pthread_create(&t, NULL, buggy_monitor_destroy, NULL);
        pthread_join(t, NULL);
        (*jvmti)->RawMonitorExit(jvmti, held);
    } else if (is("monitor-pingpong"))
        monitor_pingpong();
    else if (is("clean"))
        clean(jni, thread);
    else if (is("ext-call"))
        ext_call();
    else if (is("ext-null"))
        buggy_ext_null();
    else if (is("ext-leak"))
        buggy_ext_leak();
    else if (is("ext-event"))
        ext_event_enable();
    else if (is("null-class"))
        buggy_null_class();
    else if (is("negative-depth"))
        buggy_negative_depth();
    else if (is("unattached")) {
        pthread_t t;
        pthread_create(&t, NULL, buggy_unattached, NULL);
        pthread_join(t, NULL);
    } else if (is("several")) { /* five distinct findings in one run, for suppressions */
        buggy_null(jni, thread);
        static_null(thread);
        buggy_capability(jni);
        buggy_dealloc_foreign();
        buggy_leak();
    }
    printf(AGENT ": VMInit done\n");
    fflush(stdout);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    snprintf(what, sizeof what, "%s", options ? options : "(null)");
    printf(AGENT ": options \"%s\"\n", what);
    the_vm = vm;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return JNI_ERR;
    if (is("phase"))
        buggy_phase();
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = vm_init;
    if (is("thread-start")) {
        cb.ThreadStart = thread_start;
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    }
    if (is("refused-callbacks")) {
        cb.VMStart = vm_start;
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_START, NULL);
    }
    agentkit_events(jvmti, &cb, 1, (jvmtiEvent[]){JVMTI_EVENT_VM_INIT});
    return JNI_OK;
}

static void JNICALL vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env;
    (void)jni;
    printf(AGENT ": VMDeath\n");
    fflush(stdout);
}

/* Loaded into a running VM (jcmd JVMTI.agent_load, the Attach API): the
 * live phase, on the VM's attach thread. */
JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    JNIEnv *jni = NULL;
    snprintf(what, sizeof what, "%s", options ? options : "(null)");
    printf(AGENT ": attached, options \"%s\"\n", what);
    the_vm = vm;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)) ||
        (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_2) != JNI_OK)
        return JNI_ERR;
    if (is("null"))
        buggy_null(jni, NULL);
    else if (is("clean"))
        clean(jni, NULL);
    else if (is("fail-attach")) {
        /* Fails after asking for an event: the VM then unloads the
         * library it loaded (the checker), the event still comes. */
        jvmtiEventCallbacks cb;
        memset(&cb, 0, sizeof cb);
        cb.VMDeath = vm_death;
        agentkit_events(jvmti, &cb, 1, (jvmtiEvent[]){JVMTI_EVENT_VM_DEATH});
        return JNI_ERR;
    }
    printf(AGENT ": attach done\n");
    fflush(stdout);
    return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
    (void)vm;
    if (is("after-death"))
        buggy_after_death();
    printf(AGENT ": unloaded\n");
    fflush(stdout);
}
