/* Thread CPU time (GetThreadCpuTime, GetThreadCpuTimerInfo) for any
 * thread the VM started: the VM's thread_cpu_time operation, or by default
 * the CPU clock of the OS thread that started it (recorded by
 * jvmtirt_thread_start), read while rt.lock keeps the thread from ending. */
#include <time.h>

#include "jvmtigen_impl.h"
#include "rt.h"

static jlong clock_nanos(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0)
        return -1;
    return (jlong)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

jvmtiError jvmti_impl_GetThreadCpuTime(jvmtiEnv *env, jthread thread, jlong *nanos_ptr)
{
    if (!nanos_ptr)
        return JVMTI_ERROR_NULL_POINTER;
    pthread_mutex_lock(&rt.lock);
    rt_thread *t;
    jvmtiError err = rt_thread_of_ref(env, thread, &t);
#ifdef JVMTIGEN_HAS_GetThreadCpuTime_JVMTI_ERROR_UNSUPPORTED_OPERATION /* JVM TI 21 on */
    if (err == JVMTI_ERROR_NONE && rt.config.thread_is_virtual && rt.config.thread_is_virtual(t->id))
        err = JVMTI_ERROR_UNSUPPORTED_OPERATION;
#endif
    uintptr_t id = err == JVMTI_ERROR_NONE ? t->id : 0;
    if (err == JVMTI_ERROR_NONE && !rt.config.thread_cpu_time) {
        clockid_t clock;
        jlong ns = -1;
        if (t == rt_self)
            ns = clock_nanos(CLOCK_THREAD_CPUTIME_ID);
        else if (pthread_getcpuclockid(t->pthread, &clock) == 0)
            ns = clock_nanos(clock);
        if (ns < 0)
            err = JVMTI_ERROR_INTERNAL;
        else
            *nanos_ptr = ns;
    }
    pthread_mutex_unlock(&rt.lock);
    if (err == JVMTI_ERROR_NONE && rt.config.thread_cpu_time)
        err = rt.config.thread_cpu_time(id, nanos_ptr);
    return err;
}

/* The same clock as GetCurrentThreadCpuTime's. */
jvmtiError jvmti_impl_GetThreadCpuTimerInfo(jvmtiEnv *env, jvmtiTimerInfo *info_ptr)
{
    return jvmti_impl_GetCurrentThreadCpuTimerInfo(env, info_ptr);
}
