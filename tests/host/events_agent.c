/* An ordinary JVM TI agent: it prints the events it gets, in the order it
 * gets them, prefixed by its options (so two copies can be told apart). It
 * is built against the generated jvmti.h and against the JDK's own. */
#include <stdio.h>
#include <string.h>

#include "jvmti.h"
#include "../agentkit.h"

static jvmtiEnv *jvmti;
static char tag[64] = "agent";

static void say(const char *what)
{
    printf("%s: %s\n", tag, what);
    fflush(stdout);
}

static const char *phase_name(jvmtiPhase p)
{
    switch (p) {
    case JVMTI_PHASE_ONLOAD: return "onload";
    case JVMTI_PHASE_PRIMORDIAL: return "primordial";
    case JVMTI_PHASE_START: return "start";
    case JVMTI_PHASE_LIVE: return "live";
    case JVMTI_PHASE_DEAD: return "dead";
    }
    return "?";
}

static void say_phase(jvmtiEnv *env, const char *event)
{
    jvmtiPhase p;
    char line[128];
    jvmtiError err = (*env)->GetPhase(env, &p);
    snprintf(line, sizeof line, "%s in phase %s", event, err ? "(error)" : phase_name(p));
    say(line);
}

static void JNICALL vm_start(jvmtiEnv *env, JNIEnv *jni)
{
    (void)jni;
    say_phase(env, "VMStart");
}

static void JNICALL vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    say_phase(env, "VMInit");
    char line[160];
    jclass k = (*jni)->FindClass(jni, "java/lang/Thread");
    jthread current = NULL;
    (*env)->GetCurrentThread(env, &current);
    snprintf(line, sizeof line, "VMInit: JNI %s, Thread class %s, thread is current: %s",
             (*jni)->GetVersion(jni) >= JNI_VERSION_1_8 ? "ok" : "old", k ? "found" : "missing",
             (*jni)->IsSameObject(jni, thread, current) ? "yes" : "no");
    say(line);
    /* A JNI function the host does not have fails safely. */
    jfieldID f = (*jni)->GetStaticFieldID(jni, k, "MIN_PRIORITY", "I");
    say(f ? "VMInit: GetStaticFieldID answered" : "VMInit: GetStaticFieldID gave NULL");
    jmethodID m = NULL;
    /* A method ID the host knows, through the trampoline's checks: a NULL
     * output after a valid method, then something that is not a method. */
    m = (*jni)->GetMethodID(jni, k, "getName", "()Ljava/lang/String;");
    snprintf(line, sizeof line, "VMInit: getName %s, GetMethodModifiers: %d, not a method: %d",
             m ? "found" : "missing", (int)(*env)->GetMethodModifiers(env, m, NULL),
             (int)(*env)->GetMethodModifiers(env, (jmethodID)(void *)k, NULL));
    say(line);
    jvmtiCapabilities pot;
    memset(&pot, 0, sizeof pot);
    (*env)->GetPotentialCapabilities(env, &pot);
    /* One capability the host never offers by itself (only with
     * -all-capabilities). */
    say(pot.can_generate_resource_exhaustion_heap_events
            ? "VMInit: can_generate_resource_exhaustion_heap_events offered"
            : "VMInit: can_generate_resource_exhaustion_heap_events not offered");
}

static void JNICALL thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)jni, (void)thread;
    say("ThreadStart");
}

static void JNICALL thread_end(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)jni, (void)thread;
    say("ThreadEnd");
}

static void JNICALL vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)jni;
    say_phase(env, "VMDeath");
    char line[64];
    snprintf(line, sizeof line, "DisposeEnvironment: %d", (int)(*env)->DisposeEnvironment(env));
    say(line);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    if (options && *options)
        snprintf(tag, sizeof tag, "%s", options);
    void *bad;
    char line[128];
    snprintf(line, sizeof line, "OnLoad: GetEnv(0x30000000) %s",
             (*vm)->GetEnv(vm, &bad, 0x30000000) == JNI_EVERSION ? "refused" : "accepted");
    say(line);
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return 1;
    say_phase(jvmti, "OnLoad");
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMStart = vm_start;
    cb.VMInit = vm_init;
    cb.ThreadStart = thread_start;
    cb.ThreadEnd = thread_end;
    cb.VMDeath = vm_death;
    const jvmtiEvent events[] = {JVMTI_EVENT_VM_START, JVMTI_EVENT_VM_INIT,
                                 JVMTI_EVENT_THREAD_START, JVMTI_EVENT_THREAD_END,
                                 JVMTI_EVENT_VM_DEATH};
    if (agentkit_events(jvmti, &cb, (int)(sizeof events / sizeof *events), events) !=
        JVMTI_ERROR_NONE)
        return 2;
    return strcmp(tag, "fail") == 0 ? 7 : JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
    (void)vm;
    say("OnUnload");
}
