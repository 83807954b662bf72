/* stacks.h: the core's stacks and classes area (stacks.c, classes.c): what
 * the port asks of it. The area keeps no per-environment state. */
#ifndef JVMTIRT_STACKS_H
#define JVMTIRT_STACKS_H

/* 0 when the function called name is one of this area's and the VM did not
 * supply what it needs (config.walk_stacks, config.each_class, and for
 * GetAllStackTraces config.thread_ref, which the core's GetAllThreads
 * needs): it answers NOT_AVAILABLE, so the port reports it as a default.
 * 1 otherwise. */
int rt_stacks_supplied(const char *function);

#endif
