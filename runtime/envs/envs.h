/* envs.h: the environments and events area (env.c, caps.c, events.c,
 * props.c): what the areas above and the lifecycle call, and its hooks. */
#ifndef JVMTIRT_ENVS_H
#define JVMTIRT_ENVS_H

#include "rt.h"

/* Recomputes every environment's thread_mask and jvmtigen_events_on, and
 * tells the VM. Under rt.lock. */
void rt_events_recompute(void);

/* The groups of environments the calling thread's ClassFileLoadHook posts
 * reach: both (the default: those without can_retransform_classes first,
 * then those with it), the first group only, or the second only. Returns
 * the setting before, to restore: a hook may load a class, whose chain runs
 * inside the outer one on the same thread. */
enum { RT_HOOK_BOTH, RT_HOOK_INCAPABLE, RT_HOOK_CAPABLE };
int rt_class_hook_groups(int groups);

extern const rt_area rt_area_props;

#endif
