/* An agent whose library takes both routes to a JVM TI environment that
 * jvmticheck cannot wrap: it calls JNI_GetCreatedJavaVMs (a weak
 * reference: jvmti-host has none) and defines JNI_OnLoad. When the class
 * Hello is prepared it gets an environment from the JavaVM
 * JNI_GetCreatedJavaVMs returns and calls GetThreadState with a NULL
 * out-pointer on it: the VM answers, and no finding comes (the
 * environment is the VM's own). */
#include <stdio.h>
#include <string.h>

#include <jni.h>
#include <jvmti.h>

#include "../agentkit.h"

extern jint JNICALL JNI_GetCreatedJavaVMs(JavaVM **vms, jsize n, jsize *count) __attribute__((weak));

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)vm;
    (void)reserved;
    return JNI_VERSION_1_8;
}

/* When Hello is prepared: JNI_GetCreatedJavaVMs counts the VM only once
 * JNI_CreateJavaVM has returned, after VMInit. */
static void JNICALL on_class_prepare(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jni;
    char *sig = NULL;
    if ((*env)->GetClassSignature(env, klass, &sig, NULL) != JVMTI_ERROR_NONE)
        return;
    int hello = strcmp(sig, "LHello;") == 0;
    (*env)->Deallocate(env, (unsigned char *)sig);
    if (!hello)
        return;
    JavaVM *created = NULL;
    jsize n = 0;
    jvmtiEnv *jvmti = NULL;
    if (!JNI_GetCreatedJavaVMs || JNI_GetCreatedJavaVMs(&created, 1, &n) != JNI_OK || n != 1) {
        printf("routes: no JNI_GetCreatedJavaVMs\n");
    } else if ((*created)->GetEnv(created, (void **)&jvmti, JVMTI_VERSION_1_2) == JNI_OK) {
        printf("routes: GetThreadState(NULL) on its environment returned %d\n",
               (int)(*jvmti)->GetThreadState(jvmti, thread, NULL));
    }
    fflush(stdout);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)options;
    (void)reserved;
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassPrepare = on_class_prepare;
    jvmtiEnv *jvmti = agentkit_env(vm, JVMTI_VERSION_1_2);
    if (!jvmti ||
        agentkit_events(jvmti, &cb, 1, (jvmtiEvent[]){JVMTI_EVENT_CLASS_PREPARE}) != JVMTI_ERROR_NONE)
        return JNI_ERR;
    return JNI_OK;
}
