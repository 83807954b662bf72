/* A VM's file, cut down: the include, two definitions, the begin marker
 * quoted in a string and a // comment, and the table. */
#include "jvmtigen_impl.h"

// the table is at the end: /* jvmtigen: registered implementations
static const char *const note = "/* jvmtigen: registered implementations";

jvmtiError JNICALL
jvmti_impl_GetClassMethods(jvmtiEnv *env, jclass klass, jint *method_count_ptr,
                           jmethodID **methods_ptr)
{
    (void)env;
    (void)klass;
    (void)note;
    *method_count_ptr = 0;
    *methods_ptr = NULL;
    return JVMTI_ERROR_NONE;
}

/* jvmtigen stub: GetClassLoader (since 1.0) */
jvmtiError JNICALL
jvmti_impl_GetClassLoader(jvmtiEnv *env, jclass klass, jobject *classloader_ptr)
{
    (void)env;
    (void)klass;
    (void)classloader_ptr;
    return JVMTI_ERROR_NOT_AVAILABLE;
}

/* jvmtigen: registered implementations (`jvmtigen fill --core`
 * rewrites this table on every run). */
const jvmtirt_impl_table jvmtirt_impls = {
    .size = sizeof(jvmtirt_impl_table),
    .GetClassMethods = jvmti_impl_GetClassMethods,
};
/* jvmtigen: end of registered implementations */
