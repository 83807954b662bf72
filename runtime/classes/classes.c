/* GetLoadedClasses and GetClassLoaderClasses over the VM's class
 * enumeration (config.each_class): the core gathers the classes the VM
 * visits into the one array the agent frees with Deallocate. */
#include <stdlib.h>

#include "classes.h"
#include "jvmtigen_impl.h"
#include "rt.h"

static const rt_need needs[] = {
    {RT_SLOT(GetLoadedClasses), {RT_OP(each_class)}},
    {RT_SLOT(GetClassLoaderClasses), {RT_OP(each_class)}},
};

const rt_area rt_area_classes = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};

typedef struct class_list {
    jclass *at;
    size_t n, cap;
    int oom;
} class_list;

static int add_class(void *arg, jclass klass)
{
    class_list *l = arg;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        jclass *at = cap <= INT32_MAX ? realloc(l->at, cap * sizeof *at) : NULL;
        if (!at) {
            l->oom = 1;
            return 1;
        }
        l->at = at;
        l->cap = cap;
    }
    l->at[l->n++] = klass;
    return 0;
}

static jvmtiError classes(jvmtiEnv *env, jobject loader, int all, jint *count_ptr,
                          jclass **classes_ptr)
{
    if (!rt.config.each_class)
        return JVMTI_ERROR_NOT_AVAILABLE;
    class_list l = {0};
    jvmtiError err = rt.config.each_class(loader, all, add_class, &l);
    if (err == JVMTI_ERROR_NONE && l.oom)
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    unsigned char *mem = NULL;
    if (err == JVMTI_ERROR_NONE)
        err = jvmti_impl_Allocate(env, (jlong)(l.n * sizeof *l.at), &mem);
    if (err == JVMTI_ERROR_NONE) {
        for (size_t i = 0; i < l.n; i++)
            ((jclass *)(void *)mem)[i] = l.at[i];
        *count_ptr = (jint)l.n;
        *classes_ptr = (jclass *)(void *)mem;
    } else {
        for (size_t i = 0; i < l.n; i++)
            rt_release_ref(l.at[i]); /* the agent got none of them */
    }
    free(l.at);
    return err;
}

jvmtiError jvmti_impl_GetLoadedClasses(jvmtiEnv *env, jint *class_count_ptr, jclass **classes_ptr)
{
    return classes(env, NULL, 1, class_count_ptr, classes_ptr);
}

jvmtiError jvmti_impl_GetClassLoaderClasses(jvmtiEnv *env, jobject initiating_loader,
                                            jint *class_count_ptr, jclass **classes_ptr)
{
    return classes(env, initiating_loader, 0, class_count_ptr, classes_ptr);
}
