/* The functions jvmtigen's runtime core (runtime/) implements itself: those
 * that need nothing from a VM. Everything else is the VM's (see `fill
 * --core`), with a weak NOT_AVAILABLE default in jvmtigen_defaults.c.
 * tests/runtime checks this list against what the runtime library defines. */
#ifndef JVMTIGEN_CORE_H
#define JVMTIGEN_CORE_H

#include <stdbool.h>
#include <stddef.h>

bool core_implements(const char *function_id);
/* The list itself, sorted by strcmp (core_implements searches it). */
const char *const *core_function_list(size_t *n);

#endif
