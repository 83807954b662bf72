/* GetObjectSize and GetObjectHashCode: an object's size is what the heap
 * walks already ask of it (config.heap_object_info, between heap_pause(1)
 * and heap_pause(0), as the port promises that operation), its hash the VM's
 * (config.object_hash) or, without one, a mix of its identity, which is
 * stable for the object's life as the spec asks. */
#include "jvmtigen_impl.h"
#include "objects.h"
#include "rt.h"

static const rt_need needs[] = {
    {RT_SLOT(GetObjectSize), {RT_OP(heap_object_info)}},
};

const rt_area rt_area_objectinfo = {.needs = needs, .n_needs = 1};

jvmtiError jvmti_impl_GetObjectSize(jvmtiEnv *env, jobject object, jlong *size_ptr)
{
    (void)env;
    if (!rt.config.heap_object_info)
        return JVMTI_ERROR_NOT_AVAILABLE;
    uintptr_t id = rt_object_identity(object);
    if (id == 0)
        return JVMTI_ERROR_INVALID_OBJECT;
    jvmtirt_heap_object info = {0};
    if (rt.config.heap_pause)
        rt.config.heap_pause(1);
    jvmtiError err = rt.config.heap_object_info(id, &info);
    if (rt.config.heap_pause)
        rt.config.heap_pause(0);
    if (err == JVMTI_ERROR_NONE)
        *size_ptr = info.size;
    return err;
}

jvmtiError jvmti_impl_GetObjectHashCode(jvmtiEnv *env, jobject object, jint *hash_code_ptr)
{
    (void)env;
    uintptr_t id = rt_object_identity(object);
    if (id == 0)
        return JVMTI_ERROR_INVALID_OBJECT;
    if (rt.config.object_hash) {
        *hash_code_ptr = rt.config.object_hash(id);
        return JVMTI_ERROR_NONE;
    }
    /* Identities are often aligned addresses: mix every bit into the low
     * 32 (the finalizer of MurmurHash3's 64-bit variant). */
    uint64_t h = (uint64_t)id;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    *hash_code_ptr = (jint)(uint32_t)h;
    return JVMTI_ERROR_NONE;
}
