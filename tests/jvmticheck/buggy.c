/* A deliberately buggy agent: its option names the misuse it commits, each
 * in a function of its own (exported, not inlined) so that jvmticheck's
 * finding names it as the caller. "clean" uses everything correctly. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jvmti.h>

#define BUG __attribute__((noinline, visibility("default")))

static jvmtiEnv *jvmti;
static char what[64];
static volatile int sink; /* results are used, so no call is a tail call */

static int is(const char *name) { return strcmp(what, name) == 0; }

BUG void buggy_null(JNIEnv *jni, jthread thread);
BUG void buggy_null(JNIEnv *jni, jthread thread)
{
    (void)jni;
    jvmtiError err = (*jvmti)->GetThreadState(jvmti, thread, NULL);
    printf("buggy: GetThreadState returned %d\n", (int)err);
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
        printf("buggy: VMInit got another environment\n");
    if (is("null"))
        buggy_null(jni, thread);
    else if (is("dispose"))
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
    printf("buggy: VMInit done\n");
    fflush(stdout);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    snprintf(what, sizeof what, "%s", options ? options : "(null)");
    printf("buggy: options \"%s\"\n", what);
    the_vm = vm;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) != JNI_OK)
        return JNI_ERR;
    if (is("phase"))
        buggy_phase();
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = vm_init;
    if (is("refused-callbacks")) {
        cb.VMStart = vm_start;
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_START, NULL);
    }
    (*jvmti)->SetEventCallbacks(jvmti, &cb, (jint)sizeof cb);
    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
    return JNI_OK;
}

static void JNICALL vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env;
    (void)jni;
    printf("buggy: VMDeath\n");
    fflush(stdout);
}

/* Loaded into a running VM (jcmd JVMTI.agent_load, the Attach API): the
 * live phase, on the VM's attach thread. */
JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    JNIEnv *jni = NULL;
    snprintf(what, sizeof what, "%s", options ? options : "(null)");
    printf("buggy: attached, options \"%s\"\n", what);
    the_vm = vm;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) != JNI_OK ||
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
        (*jvmti)->SetEventCallbacks(jvmti, &cb, (jint)sizeof cb);
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
        return JNI_ERR;
    }
    printf("buggy: attach done\n");
    fflush(stdout);
    return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
    (void)vm;
    if (is("after-death"))
        buggy_after_death();
    printf("buggy: unloaded\n");
    fflush(stdout);
}
