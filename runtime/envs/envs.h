/* envs.h: the environments and events area (env.c, caps.c, events.c,
 * props.c): what the areas above and the lifecycle call, and its hooks. */
#ifndef JVMTIRT_ENVS_H
#define JVMTIRT_ENVS_H

#include "rt.h"

/* Recomputes every environment's thread_mask and jvmtigen_events_on, and
 * tells the VM. Under rt.lock. */
void rt_events_recompute(void);

extern const rt_area rt_area_props;

#endif
