/* The one seam between the reference VM and test scaffolding
 * (scaffold/README.md): a table of optional hooks, each called at one
 * point of the VM's life. The VM calls nothing else of the scaffolding; a
 * VM built without it (the installed example) has no hooks, and each point
 * does what the VM alone does. The scaffolding registers its table before
 * main runs (host_hooks_register, from a constructor). */
#ifndef JVMTI_HOST_HOOKS_H
#define JVMTI_HOST_HOOKS_H

#include "host.h"

typedef struct host_hooks {
    /* usage(): lines describing the options the hooks take */
    const char *usage;
    /* an option the VM does not know: 1 taken, 0 not the hooks' either,
     * -1 malformed (both: a usage error) */
    int (*option)(const char *arg);
    /* the port, last before jvmtirt_init: capabilities and operations to
     * add or wrap (port.c) */
    void (*configure)(jvmtirt_config *c);
    /* after jvmtirt_init, before any agent loads: extension functions */
    void (*initialized)(void);
    /* the live phase, on the main thread before VMInit; 0: failed (exit 1) */
    int (*live)(host_thread *main_thread);
    /* the bytes a class was defined with, or that RetransformClasses or
     * RedefineClasses installed for it (classes.c) */
    void (*class_bytes)(const char *name, const unsigned char *b, size_t n);
    /* classes and objects the VM does not have: JNI FindClass and the
     * core's class_by_name, JNI GetObjectClass (NULL: none) */
    jclass (*class_by_name)(const char *name);
    jclass (*class_of)(jobject obj);
    /* the workers (lifecycle.c): before the first starts; each worker's
     * life between ThreadStart and ThreadEnd, given the program it runs
     * otherwise; the main thread while they run (running: whether one
     * still does) */
    void (*workers_start)(void);
    void (*worker)(host_thread *t, void (*program)(host_thread *t));
    void (*workers_running)(int (*running)(void));
    /* after VMDeath: how many of the hooks' checks failed (exit 1 if any) */
    int (*vm_death)(void);
} host_hooks;

/* The registered table (one with no hooks when none is); register replaces it. */
const host_hooks *host_hooks_get(void);
void host_hooks_register(const host_hooks *h);

#endif
