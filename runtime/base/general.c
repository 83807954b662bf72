/* The functions that need nothing from the VM: memory, error names, the
 * version, timers, processors, the verbose flag, the jlocation format. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jvmtigen_impl.h"
#include "rt.h"

jvmtiError jvmti_impl_Allocate(jvmtiEnv *env, jlong size, unsigned char **mem_ptr)
{
    (void)env;
    if (size < 0)
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    if (size == 0) {
        *mem_ptr = NULL;
        return JVMTI_ERROR_NONE;
    }
    /* A failure stores NULL, as HotSpot does: an agent that frees the
     * result whatever the error frees nothing. */
    unsigned char *p = (unsigned long long)size > (size_t)-1 ? NULL : malloc((size_t)size);
    *mem_ptr = p;
    return p ? JVMTI_ERROR_NONE : JVMTI_ERROR_OUT_OF_MEMORY;
}

jvmtiError jvmti_impl_Deallocate(jvmtiEnv *env, unsigned char *mem)
{
    (void)env;
    free(mem);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetErrorName(jvmtiEnv *env, jvmtiError error, char **name_ptr)
{
    (void)env;
    const char *name = jvmtigen_error_name(error);
    if (!name)
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    char *copy = rt_strdup(name);
    if (!copy)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    *name_ptr = copy;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetJLocationFormat(jvmtiEnv *env, jvmtiJlocationFormat *format_ptr)
{
    (void)env;
    *format_ptr = rt.config.jlocation_format;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_SetVerboseFlag(jvmtiEnv *env, jvmtiVerboseFlag flag, jboolean value)
{
    (void)env;
    if (!jvmtigen_constant_name(&jvmtigen_constants_jvmtiVerboseFlag, flag))
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    return rt.config.set_verbose ? rt.config.set_verbose(flag, value) : JVMTI_ERROR_NONE;
}

static jlong nanos(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (jlong)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void timer_info(jvmtiTimerInfo *info, jvmtiTimerKind kind)
{
    info->max_value = -1; /* all 64 bits: the full unsigned range */
    info->may_skip_forward = JNI_FALSE;
    info->may_skip_backward = JNI_FALSE;
    info->kind = kind;
    info->reserved1 = 0;
    info->reserved2 = 0;
}

jvmtiError jvmti_impl_GetTime(jvmtiEnv *env, jlong *nanos_ptr)
{
    (void)env;
    *nanos_ptr = nanos(CLOCK_MONOTONIC);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetTimerInfo(jvmtiEnv *env, jvmtiTimerInfo *info_ptr)
{
    (void)env;
    timer_info(info_ptr, JVMTI_TIMER_ELAPSED);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetCurrentThreadCpuTime(jvmtiEnv *env, jlong *nanos_ptr)
{
    (void)env;
    *nanos_ptr = nanos(CLOCK_THREAD_CPUTIME_ID);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetCurrentThreadCpuTimerInfo(jvmtiEnv *env, jvmtiTimerInfo *info_ptr)
{
    (void)env;
    timer_info(info_ptr, JVMTI_TIMER_TOTAL_CPU);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetAvailableProcessors(jvmtiEnv *env, jint *processor_count_ptr)
{
    (void)env;
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    if (n <= 0)
        n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    *processor_count_ptr = n > 0 ? n : 1;
    return JVMTI_ERROR_NONE;
}
