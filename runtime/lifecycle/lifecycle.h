/* lifecycle.h: the top of the core (lifecycle.c, port.c, areas.c): the
 * table of areas and the port, which nothing below calls. */
#ifndef JVMTIRT_LIFECYCLE_H
#define JVMTIRT_LIFECYCLE_H

#include "rt.h"

/* Every area's hooks, NULL-terminated, in the order they are called
 * (areas.c). */
extern const rt_area *const rt_areas[];

/* The port (port.c): rt_port_take copies the VM's config (0 and a message
 * on stderr if its size or version is unknown); rt_port_apply, under
 * rt.lock, installs its checks and implementations and withdraws the
 * capabilities whose functions are all defaults (ILLEGAL_ARGUMENT: a
 * function of the core registered; NOT_AVAILABLE: strict and missing;
 * each with a message on stderr). */
int rt_port_take(jvmtirt_config *to, const jvmtirt_config *from);
/* Tries the VM's identity operations on its samples (config.sample_thread,
 * config.sample_object), no lock held: JVMTI_ERROR_NONE, or
 * ILLEGAL_ARGUMENT after one line on stderr naming the operation. */
jvmtiError rt_port_verify(const jvmtirt_config *c);
jvmtiError rt_port_apply(jvmtirt_config *c);

#endif
