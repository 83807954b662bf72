/* The table of test hooks (hooks.h): none until scaffolding registers its
 * own, before main runs. */
#include "hooks.h"

static const host_hooks none;
static const host_hooks *table = &none;

const host_hooks *host_hooks_get(void) { return table; }

void host_hooks_register(const host_hooks *h) { table = h ? h : &none; }
