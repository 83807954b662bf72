/* The host's extension function and extension event, registered before
 * agents load: small, but enough for an agent (or a tool standing between
 * it and the VM, like jvmticheck) to exercise the extension mechanism.
 *
 *   jvmtigen.host.functions.GetEnvironmentVersion(jvmtiEnv *env, jint *version_ptr)
 *       the JVM TI version the environment was created for (GetEnv's
 *       version); the environment must be one of the VM's
 *       (JVMTI_ERROR_INVALID_ENVIRONMENT otherwise), as for every
 *       function of the table;
 *   jvmtigen.host.events.MainReturned(jvmtiEnv *env, JNIEnv *jni, jthread thread)
 *       (extension event index 1) on the main thread, when Main.main
 *       has returned. */
#include <stdarg.h>

#include "host.h"
#include "jvmtigen_hooks.h"

#define MAIN_RETURNED 1

static jvmtiError JNICALL environment_version(jvmtiEnv *env, ...)
{
    if (!JVMTIGEN_ENV_VALID(env))
        return JVMTI_ERROR_INVALID_ENVIRONMENT;
    va_list ap;
    va_start(ap, env);
    jint *version_ptr = va_arg(ap, jint *);
    va_end(ap);
    if (!version_ptr)
        return JVMTI_ERROR_NULL_POINTER;
    *version_ptr = jvmtirt_env_version(env);
    return JVMTI_ERROR_NONE;
}

void host_extensions_setup(void)
{
    static jvmtiParamInfo version_param = {"version_ptr", JVMTI_KIND_OUT, JVMTI_TYPE_JINT, JNI_FALSE};
    jvmtiExtensionFunctionInfo fn = {environment_version, "jvmtigen.host.functions.GetEnvironmentVersion",
                                     "The JVM TI version the environment was created for", 1,
                                     &version_param, 0, NULL};
    jvmtirt_extension_function_add(&fn);
    static jvmtiParamInfo event_params[] = {
        {"jni", JVMTI_KIND_IN_PTR, JVMTI_TYPE_JNIENV, JNI_FALSE},
        {"thread", JVMTI_KIND_IN, JVMTI_TYPE_JTHREAD, JNI_FALSE},
    };
    jvmtiExtensionEventInfo ev = {MAIN_RETURNED, "jvmtigen.host.events.MainReturned",
                                  "Main.main has returned", 2, event_params};
    jvmtirt_extension_event_add(&ev);
}

typedef struct main_returned {
    JNIEnv *jni;
    jthread thread;
} main_returned;

static int post_one(jvmtiEnv *env, jvmtiExtensionEvent callback, void *arg)
{
    const main_returned *m = arg;
    callback(env, m->jni, m->thread);
    return 0;
}

void host_extensions_post_main_returned(JNIEnv *jni, jthread thread)
{
    main_returned m = {jni, thread};
    jvmtirt_extension_event_each(MAIN_RETURNED, post_one, &m);
}
