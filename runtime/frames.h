/* frames.h: the core's frames area (breakpoints.c, framepops.c,
 * prefixes.c, jnitable.c, loadersearch.c): what env.c and the other areas
 * call. Each area has its own lock, taken after rt.lock when both are held
 * and never while calling an agent. */
#ifndef JVMTIRT_FRAMES_H
#define JVMTIRT_FRAMES_H

#include "rt.h"

/* DisposeEnvironment (under rt.lock): drops the environment's breakpoints,
 * field watches, frame-pop requests and prefixes, disarming in the VM what
 * no other environment still wants. */
void rt_frames_env_disposed(rt_env *e);
/* jvmtirt_shutdown: frees what the areas still hold. */
void rt_frames_shutdown(void);
/* 0 when the function called name is one of this area's and the VM did not
 * supply the operation it needs (it answers NOT_AVAILABLE: the port
 * reports it as a default); 1 otherwise. */
int rt_frames_supplied(const char *function);

void rt_breakpoints_env_disposed(rt_env *e);
void rt_breakpoints_shutdown(void);
void rt_framepops_env_disposed(rt_env *e);
void rt_framepops_shutdown(void);
/* jvmtirt_thread_end: the thread's frames are gone, and so are the
 * requests for them (its id may come back for another thread). */
void rt_framepops_thread_ended(uintptr_t thread_id);
void rt_prefixes_env_disposed(rt_env *e);
void rt_prefixes_shutdown(void);
void rt_jnitable_shutdown(void);

#endif
