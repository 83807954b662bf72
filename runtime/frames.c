/* The frames area's hooks into the environment's life, and what it needs
 * of the VM (see frames.h). */
#include <string.h>

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

int rt_frames_supplied(const char *function)
{
    static const struct {
        const char *name;
        int op; /* which operations it needs, below */
    } needs[] = {
        {"SetBreakpoint", 0},
        {"ClearBreakpoint", 0},
        {"SetFieldAccessWatch", 1},
        {"ClearFieldAccessWatch", 1},
        {"SetFieldModificationWatch", 1},
        {"ClearFieldModificationWatch", 1},
        {"NotifyFramePop", 2},
        {"ClearAllFramePops", 2},
        {"GetJNIFunctionTable", 3},
        {"SetJNIFunctionTable", 4},
        {"AddToBootstrapClassLoaderSearch", 5},
        {"AddToSystemClassLoaderSearch", 5},
    };
    const jvmtirt_config *c = &rt.config;
    int have[] = {c->breakpoint_arm != NULL, c->field_watch_arm != NULL,
                  c->frame_at && c->frame_pop_arm, c->jni_table != NULL,
                  c->jni_table_changed != NULL, c->class_path_append != NULL};
    for (size_t i = 0; i < sizeof needs / sizeof *needs; i++)
        if (strcmp(function, needs[i].name) == 0)
            return have[needs[i].op];
    return 1;
}
