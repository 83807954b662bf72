/* A careless agent: in VMInit it hands NULL to the JNI functions that take
 * a name or a string (FindClass, NewStringUTF). HotSpot answers NULL; the
 * host must too, and not crash. */
#include <stdio.h>
#include <string.h>

#include "jvmti.h"
#include "../agentkit.h"

static void JNICALL vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)thread;
    jclass k = (*jni)->FindClass(jni, NULL);
    printf("FindClass(NULL): %s\n", k ? "a class" : "NULL");
    jstring s = (*jni)->NewStringUTF(jni, NULL);
    printf("NewStringUTF(NULL): %s\n", s ? "a string" : "NULL");
    fflush(stdout);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)options, (void)reserved;
    jvmtiEnv *jvmti;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return 1;
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = vm_init;
    const jvmtiEvent vm_init_event = JVMTI_EVENT_VM_INIT;
    if (agentkit_events(jvmti, &cb, 1, &vm_init_event) != JVMTI_ERROR_NONE)
        return 2;
    return JNI_OK;
}
