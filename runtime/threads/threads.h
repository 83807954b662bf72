/* threads.h: the threads and frames area (thread_storage.c, thread_cpu.c,
 * suspend.c, threadinfo.c, groups.c, stacks.c, monitor.c, breakpoints.c,
 * framepops.c, locals.c): what the lifecycle calls, and the areas' hooks. Locks:
 * base/rt.h. */
#ifndef JVMTIRT_THREADS_H
#define JVMTIRT_THREADS_H

#include "rt.h"

/* GetAllThreads (threadinfo.c), and with ids_ptr not NULL also the
 * registry's id of each thread listed (malloc'd, n of them: free() it), so
 * that GetAllStackTraces hands the VM's walk the ids it gave, never ones
 * read back through config.thread_id. */
jvmtiError rt_all_threads(jvmtiEnv *env, jint *count_ptr, jthread **threads_ptr,
                          uintptr_t **ids_ptr);

/* Raw monitors alive (jvmtirt_get_stats). */
long rt_monitor_count(void);

/* PopFrame removed that frame (its key, config.frame_at's) of that
 * thread: its frame-pop requests are dropped unreported, as the spec asks,
 * and the VM disarms it (framepops.c). Under rt.lock; takes fp_lock. */
void rt_frame_pops_forget(uintptr_t thread, uintptr_t frame);

extern const rt_area rt_area_thread_storage, rt_area_stacks, rt_area_threadinfo,
    rt_area_monitor, rt_area_breakpoints, rt_area_framepops, rt_area_suspend, rt_area_groups,
    rt_area_locals, rt_area_javamonitors;

#endif
