/* Native method prefixes: each environment's list (SetNativeMethodPrefix,
 * SetNativeMethodPrefixes), and the VM's view of all of them in the order
 * the spec applies them (that of ClassFileLoadHook's transformations). */
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "jvmtigen_impl.h"
#include "rt.h"

static pthread_mutex_t prefix_lock = PTHREAD_MUTEX_INITIALIZER; /* lock order: base/rt.h */

static void free_prefixes(rt_env *e)
{
    for (jint i = 0; i < e->n_native_prefixes; i++)
        free(e->native_prefixes[i]);
    free(e->native_prefixes);
    e->native_prefixes = NULL;
    e->n_native_prefixes = 0;
}

jvmtiError jvmti_impl_SetNativeMethodPrefixes(jvmtiEnv *env, jint prefix_count, char **prefixes)
{
    if (prefix_count < 0) /* the trampoline's check, for the compiler */
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    for (jint i = 0; i < prefix_count; i++)
        if (!prefixes[i])
            return JVMTI_ERROR_NULL_POINTER;
    /* Copied first: the old list stays if memory runs out. */
    char **copy = prefix_count ? calloc((size_t)prefix_count, sizeof *copy) : NULL;
    if (prefix_count && !copy)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    for (jint i = 0; i < prefix_count; i++)
        if (!(copy[i] = rt_strdup(prefixes[i]))) {
            while (i-- > 0)
                free(copy[i]);
            free(copy);
            return JVMTI_ERROR_OUT_OF_MEMORY;
        }
    rt_env *e = rt_env_of(env);
    pthread_mutex_lock(&prefix_lock);
    free_prefixes(e);
    e->native_prefixes = copy;
    e->n_native_prefixes = prefix_count;
    pthread_mutex_unlock(&prefix_lock);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_SetNativeMethodPrefix(jvmtiEnv *env, const char *prefix)
{
    char *one = (char *)(uintptr_t)prefix;
    return jvmti_impl_SetNativeMethodPrefixes(env, prefix ? 1 : 0, &one);
}

static void env_disposed(rt_env *e)
{
    pthread_mutex_lock(&prefix_lock);
    free_prefixes(e);
    pthread_mutex_unlock(&prefix_lock);
}

static void shutdown(void)
{
    pthread_mutex_lock(&prefix_lock);
    for (rt_env *e = rt.envs; e; e = e->next)
        free_prefixes(e);
    pthread_mutex_unlock(&prefix_lock);
}

/* Environments in transformation order: pass 0 those that cannot
 * retransform, pass 1 those that can. Under rt.lock and prefix_lock. */
static int in_pass(const rt_env *e, int pass)
{
    return !LOAD(&e->disposed) &&
           (JVMTIGEN_HAS_CAPABILITY((jvmtiEnv *)(uintptr_t)e, can_retransform_classes) != 0) == pass;
}

char **jvmtirt_native_method_prefixes(jint *count)
{
    *count = 0;
    pthread_mutex_lock(&rt.lock);
    pthread_mutex_lock(&prefix_lock);
    size_t n = 0, bytes = 0;
    for (rt_env *e = rt.envs; e; e = e->next)
        for (jint i = 0; !LOAD(&e->disposed) && i < e->n_native_prefixes; i++)
            n++, bytes += strlen(e->native_prefixes[i]) + 1;
    /* One block: the pointers, then the strings. */
    char **out = n ? malloc(n * sizeof *out + bytes) : NULL;
    if (out) {
        char *text = (char *)(out + n);
        size_t k = 0;
        for (int pass = 0; pass < 2; pass++)
            for (rt_env *e = rt.envs; e; e = e->next)
                for (jint i = 0; in_pass(e, pass) && i < e->n_native_prefixes; i++) {
                    size_t len = strlen(e->native_prefixes[i]) + 1;
                    out[k++] = memcpy(text, e->native_prefixes[i], len);
                    text += len;
                }
        *count = (jint)n;
    }
    pthread_mutex_unlock(&prefix_lock);
    pthread_mutex_unlock(&rt.lock);
    return out;
}

const rt_area rt_area_prefixes = {.env_disposed = env_disposed, .shutdown = shutdown};
