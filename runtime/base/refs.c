/* A growing list of the local references a VM's enumeration hands the
 * core (classes, modules, thread groups and their members), and its hand
 * over to the agent: one array the agent Deallocates, or, when the call
 * fails, every reference given back through release_ref ("The JNI
 * contract" in runtime/README.md). */
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_impl.h"
#include "rt.h"

int rt_refs_add(void *list, jobject ref)
{
    rt_refs *r = list;
    if (!ref)
        return 0;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 32;
        jobject *at = cap <= INT32_MAX ? realloc(r->at, cap * sizeof *at) : NULL;
        if (!at) {
            r->oom = 1;
            rt_release_ref(ref);
            return 1; /* stops the VM's enumeration */
        }
        r->at = at;
        r->cap = cap;
    }
    r->at[r->n++] = ref;
    return 0;
}

void rt_refs_release(rt_refs *r, size_t from)
{
    for (size_t i = from; i < r->n; i++)
        rt_release_ref(r->at[i]);
    r->n = from < r->n ? from : r->n;
}

jvmtiError rt_refs_hand_over(jvmtiEnv *env, rt_refs *r, jvmtiError err, jint *count_ptr,
                             jobject **out_ptr)
{
    if (err == JVMTI_ERROR_NONE && r->oom)
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    unsigned char *mem = NULL;
    if (err == JVMTI_ERROR_NONE)
        err = jvmti_impl_Allocate(env, (jlong)(r->n * sizeof *r->at), &mem);
    if (err == JVMTI_ERROR_NONE) {
        if (r->n > 0)
            memcpy(mem, r->at, r->n * sizeof *r->at);
        *count_ptr = (jint)r->n;
        *out_ptr = (jobject *)(void *)mem;
    } else {
        rt_refs_release(r, 0); /* the agent got none of them */
    }
    free(r->at);
    memset(r, 0, sizeof *r);
    return err;
}
