/* prog.c: a tiny VM front end built against an installed libjvmtirt only
 * (tests/install/test.sh compiles it with `pkg-config --cflags --libs
 * jvmtirt` and the JDK's include directories, nothing from the source tree).
 * It creates an environment, calls core functions through the function
 * table, posts an event to a callback and shuts down. Prints "ok - ..." or
 * "not ok - ..." lines; exits 1 on a failure. */
#include <stdio.h>
#include <string.h>

#include "jvmtigen_post.h"
#include "jvmtirt.h"

static int failures;
static int vm_inits;

static void expect(int cond, const char *what)
{
    printf("%s - install: the installed runtime: %s\n", cond ? "ok" : "not ok", what);
    failures += !cond;
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)jni, (void)thread;
    vm_inits++;
}

int main(void)
{
    jvmtirt_config config;
    config = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    jvmtirt_init(&config);

    jvmtiEnv *env = NULL;
    expect(jvmtirt_get_env((void **)&env, JVMTI_VERSION) == JNI_OK && env != NULL,
           "jvmtirt_get_env gives an environment");
    if (!env)
        return 1;

    jvmtiPhase phase = 0;
    expect((*env)->GetPhase(env, &phase) == JVMTI_ERROR_NONE && phase == JVMTI_PHASE_ONLOAD,
           "GetPhase is OnLoad after jvmtirt_init");
    expect((*env)->GetPhase(env, NULL) == JVMTI_ERROR_NULL_POINTER,
           "GetPhase(NULL) is NULL_POINTER (the trampoline's check)");

    unsigned char *mem = NULL;
    expect((*env)->Allocate(env, 64, &mem) == JVMTI_ERROR_NONE && mem != NULL,
           "Allocate 64 bytes");
    if (mem) {
        memset(mem, 0xab, 64);
        expect((*env)->Deallocate(env, mem) == JVMTI_ERROR_NONE, "Deallocate them");
    }

    char *name = NULL;
    expect((*env)->GetErrorName(env, JVMTI_ERROR_INVALID_THREAD, &name) == JVMTI_ERROR_NONE &&
               name && strcmp(name, "JVMTI_ERROR_INVALID_THREAD") == 0,
           "GetErrorName names JVMTI_ERROR_INVALID_THREAD");
    if (name)
        (*env)->Deallocate(env, (unsigned char *)name);

    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.VMInit = on_vm_init;
    expect((*env)->SetEventCallbacks(env, &callbacks, (jint)sizeof callbacks) ==
                   JVMTI_ERROR_NONE &&
               (*env)->SetEventNotificationMode(env, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL) ==
                   JVMTI_ERROR_NONE,
           "VMInit enabled with a callback");
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_thread_start(1, JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_post_VMInit(NULL, NULL);
    expect(vm_inits == 1, "jvmtirt_post_VMInit reaches the callback once");

    jint threads = 0;
    expect((*env)->GetAllThreads(env, &threads, NULL) == JVMTI_ERROR_NULL_POINTER,
           "GetAllThreads checks its parameters");

    expect((*env)->DisposeEnvironment(env) == JVMTI_ERROR_NONE, "DisposeEnvironment");
    jvmtirt_thread_end();
    jvmtirt_shutdown();
    return failures ? 1 : 0;
}
