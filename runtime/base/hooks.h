/* hooks.h: what sets the state behind jvmtigen_hooks.h (base/hooks.c).
 * Internal: the core calls these (jvmtirt_init from the config's checks,
 * jvmtirt_set_phase, jvmtirt_thread_start / _end), and so do the tests
 * that drive the generated trampolines without the core. A VM plugs its
 * checks in through jvmtirt_config, never here. */
#ifndef JVMTIRT_HOOKS_H
#define JVMTIRT_HOOKS_H

#include "jvmtigen_hooks.h"

void jvmtigen_set_phase(jvmtiPhase phase);

/* On the thread that attaches (JAVA or VM kind) or detaches (UNATTACHED),
 * and once when the VM's first thread exists. */
void jvmtigen_thread_attached(jvmtirt_thread_kind kind);
void jvmtigen_vm_threads_started(void);

/* Installs checks; a NULL member keeps the default (accept). */
void jvmtigen_set_vm_hooks(const jvmtigen_vm_hooks *hooks);
/* Replaces the defaults themselves (non-NULL members only): how the core's
 * areas supply checks they can answer (raw monitor validity, whether a
 * method is native), which jvmtigen_set_vm_hooks() then keeps unless the
 * config gives its own. */
void jvmtigen_set_default_vm_hooks(const jvmtigen_vm_hooks *hooks);

#endif /* JVMTIRT_HOOKS_H */
