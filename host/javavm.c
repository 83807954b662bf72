/* The invocation interface: the JavaVM an agent's Agent_OnLoad is given.
 * GetEnv hands JVM TI versions to the core (jvmtirt_get_env) and answers
 * JNI versions with the calling thread's JNIEnv; a native thread attaches
 * (AttachCurrentThread: a new VM thread, ThreadStart) and detaches. The
 * VM is never destroyed from inside: the host decides when it ends. */
#include <stdlib.h>

#include "host.h"
#include "jvmtirt.h"

static jint JNICALL get_env(JavaVM *vm, void **penv, jint version)
{
    (void)vm;
    if ((version & JVMTI_VERSION_MASK_INTERFACE_TYPE) == JVMTI_VERSION_INTERFACE_JVMTI)
        return jvmtirt_get_env(penv, version);
    /* JNI: a thread that is not attached learns that first (as in HotSpot,
     * whatever the version). */
    *penv = NULL;
    if (!host_current_jni())
        return JNI_EDETACHED;
    switch (version) {
    case JNI_VERSION_1_1: case JNI_VERSION_1_2: case JNI_VERSION_1_4: case JNI_VERSION_1_6:
    case JNI_VERSION_1_8: case JNI_VERSION_9: case JNI_VERSION_10:
        *penv = host_current_jni();
        return JNI_OK;
    }
    return JNI_EVERSION;
}

static jint JNICALL destroy_vm(JavaVM *vm)
{
    (void)vm;
    return JNI_ERR; /* the host decides when it ends */
}

/* Threads attached through JNI: their objects live until the host exits
 * (agents may keep references), on this list. */
static host_thread *attached;
static pthread_mutex_t attached_lock = PTHREAD_MUTEX_INITIALIZER;

static jint JNICALL attach(JavaVM *vm, void **penv, void *args)
{
    (void)vm, (void)args;
    if (!host_current()) {
        host_thread *t = calloc(1, sizeof *t);
        if (!t)
            return JNI_ENOMEM;
        pthread_mutex_lock(&attached_lock);
        t->next_attached = attached;
        attached = t;
        pthread_mutex_unlock(&attached_lock);
        host_thread_begin(t, "attached", 1);
    }
    *penv = host_current_jni();
    return JNI_OK;
}

static jint JNICALL detach(JavaVM *vm)
{
    (void)vm;
    if (host_current())
        host_thread_finish(host_current(), 1);
    return JNI_OK;
}

static const struct JNIInvokeInterface_ invoke = {
    .DestroyJavaVM = destroy_vm,
    .AttachCurrentThread = attach,
    .DetachCurrentThread = detach,
    .GetEnv = get_env,
    .AttachCurrentThreadAsDaemon = attach,
};
JavaVM host_vm = &invoke;
