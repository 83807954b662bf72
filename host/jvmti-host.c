/* jvmti-host: plays the VM around jvmtigen's runtime core, to run real
 * JVM TI agents and to show how a VM wires the core in. main is the VM's
 * life, from the command line to its end:
 *
 *   the port            jvmtirt_init: what the VM can do (port.c)
 *   OnLoad              each agent's Agent_OnLoad (agents.c), GetEnv
 *                       handing JVM TI versions to the core (javavm.c)
 *   the phases          primordial, start, live: VMStart, VMInit
 *   the program         -cp's, interpreted (interp.c), else the built-in
 *                       chain (programs.c); then the workers (lifecycle.c)
 *   the end             VMDeath, the dead phase, Agent_OnUnload
 *
 * usage: jvmti-host [-agentpath:PATH[=OPTIONS]]... [-agentlib:NAME[=OPTIONS]]...
 *                   [-threads:N] [-load:FILE]... [-cp DIR CLASS | CLASS]
 * (options.c), and the test scaffolding's options when it is linked in
 * (hooks.h, scaffold/README.md). */
#include "hooks.h"
#include "host.h"
#include "jvmtigen_post.h"
#include "jvmtirt.h"

int main(int argc, char **argv)
{
    host_options o;
    if (!host_options_parse(argc, argv, &o))
        return 2; /* a bad command line: usage */
    if (!host_port_init())
        return 1;
    /* OnLoad: agents start before the VM has any thread. */
    /* The workers' objects are listed (group main) from now on. */
    int rc = host_agents_load(o.agents, o.n_agents) && host_workers_make(o.n_threads) ? 0 : 1;
    int started = rc == 0;
    host_thread *main_thread = &host_main_thread;
    const host_hooks *h = host_hooks_get();
    if (started) {
        jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
        host_thread_begin(main_thread, "main", 0);
        JNIEnv *jni = host_current_jni();
        jthread thread = host_jthread(main_thread);
        jvmtirt_set_phase(JVMTI_PHASE_START);
        jvmtirt_post_VMStart(jni);
        jvmtirt_set_phase(JVMTI_PHASE_LIVE);
        if (h->live && !h->live(main_thread))
            rc = 1;
        jvmtirt_post_VMInit(jni, thread);
        if (!host_classes_load(jni, thread)) /* -load */
            rc = 1;
        if (o.class_path) { /* a real program: CLASS.main's bytecodes */
            /* The launcher's Java code before the main class loads: a safe
             * point, where a thread an agent suspended in VMInit (libjdwp's
             * suspend=y) waits to be resumed, as in HotSpot. */
            host_safepoint(main_thread);
            if (!host_interp_main(main_thread, o.class_path, o.main_class))
                rc = 1;
        } else {
            host_programs_main(main_thread); /* Main.main: a -> b -> c */
        }
        host_extensions_post_main_returned(jni, thread);
        host_workers_run();
        jvmtirt_post_VMDeath(jni);
        if (h->vm_death && h->vm_death() > 0)
            rc = 1;
        jvmtirt_set_phase(JVMTI_PHASE_DEAD);
    }
    /* Agent_OnUnload runs on the main thread, still attached (as in a JVM,
     * where the thread that ends the VM calls it). */
    host_agents_unload();
    if (started)
        host_thread_finish(main_thread, 0);
    /* Teardown. Agents' own threads may still be calling JVM TI, and
     * running their code, after Agent_OnUnload: as a JVM does, the host
     * leaves the agents loaded and the core, the thread objects and the
     * agents' options in place until the process is gone, so that such a
     * call meets the dead phase (JVMTI_ERROR_WRONG_PHASE for a function not
     * allowed in it), never freed memory or unmapped code. A VM that has
     * stopped every thread that could call in may call jvmtirt_shutdown. */
    return rc;
}
