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

static jvmtiError classes(jvmtiEnv *env, jobject loader, int all, jint *count_ptr,
                          jclass **classes_ptr)
{
    if (!rt.config.each_class)
        return JVMTI_ERROR_NOT_AVAILABLE;
    rt_refs l = {0};
    jvmtiError err = rt.config.each_class(loader, all, rt_refs_add, &l);
    return rt_refs_hand_over(env, &l, err, count_ptr, classes_ptr);
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
