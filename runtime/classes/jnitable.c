/* The JNI function table: GetJNIFunctionTable copies the table the VM
 * says JNIEnvs use now; SetJNIFunctionTable copies the agent's table into
 * the core's own memory and tells the VM to use that copy. */
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "jvmtigen_impl.h"
#include "rt.h"

static pthread_mutex_t jni_lock = PTHREAD_MUTEX_INITIALIZER; /* lock order: base/rt.h */
/* The core's copies: the one the VM uses, and the ones it used before (a
 * JNI call may still be on its way through an older one, so none is freed
 * before jvmtirt_shutdown). */
typedef struct jni_copy {
    jniNativeInterface table;
    struct jni_copy *older;
} jni_copy;
static jni_copy *copies;

jvmtiError jvmti_impl_GetJNIFunctionTable(jvmtiEnv *env, jniNativeInterface **function_table)
{
    if (!rt.config.jni_table)
        return JVMTI_ERROR_NOT_AVAILABLE;
    unsigned char *mem;
    jvmtiError err = jvmti_impl_Allocate(env, sizeof **function_table, &mem);
    if (err != JVMTI_ERROR_NONE)
        return err;
    pthread_mutex_lock(&jni_lock);
    memcpy(mem, rt.config.jni_table(), sizeof **function_table);
    pthread_mutex_unlock(&jni_lock);
    *function_table = (jniNativeInterface *)(void *)mem;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_SetJNIFunctionTable(jvmtiEnv *env, const jniNativeInterface *function_table)
{
    (void)env;
    if (!rt.config.jni_table_changed)
        return JVMTI_ERROR_NOT_AVAILABLE;
    jni_copy *c = malloc(sizeof *c);
    if (!c)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    c->table = *function_table;
    pthread_mutex_lock(&jni_lock);
    c->older = copies;
    copies = c;
    rt.config.jni_table_changed(&c->table);
    pthread_mutex_unlock(&jni_lock);
    return JVMTI_ERROR_NONE;
}

static void shutdown(void)
{
    pthread_mutex_lock(&jni_lock);
    for (jni_copy *c = copies, *older; c; c = older) {
        older = c->older;
        free(c);
    }
    copies = NULL;
    pthread_mutex_unlock(&jni_lock);
}

static const rt_need needs[] = {
    {RT_SLOT(GetJNIFunctionTable), {RT_OP(jni_table)}},
    {RT_SLOT(SetJNIFunctionTable), {RT_OP(jni_table_changed)}},
};

const rt_area rt_area_jnitable = {
    .shutdown = shutdown, .needs = needs, .n_needs = sizeof needs / sizeof *needs};
