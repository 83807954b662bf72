/* The frames area's hooks into the environment's life (see frames.h). */
#include "frames.h"

void rt_frames_env_disposed(rt_env *e)
{
    rt_breakpoints_env_disposed(e);
    rt_framepops_env_disposed(e);
    rt_prefixes_env_disposed(e);
}

void rt_frames_shutdown(void)
{
    rt_breakpoints_shutdown();
    rt_framepops_shutdown();
    rt_prefixes_shutdown();
    rt_jnitable_shutdown();
}

jvmtiError rt_frames_thread(jvmtiEnv *env, jthread thread, uintptr_t *id)
{
    if (!thread) {
        *id = rt_self ? rt_self->id : 0;
        return JVMTI_ERROR_NONE;
    }
    /* jthread parameters are impl="noconvert": the trampolines leave them
     * to the implementation. */
    jvmtiError err = JVMTIGEN_CHECK_THREAD(env, thread);
    if (err != JVMTI_ERROR_NONE)
        return err;
    *id = rt.config.thread_id ? rt.config.thread_id(thread) : (uintptr_t)thread;
    return JVMTI_ERROR_NONE;
}
