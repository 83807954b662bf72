/* What the VM runs without -cp: two tiny programs over the built-in
 * methods (builtins.c), one instruction per jlocation, moving through
 * frames.c as every interpreter of the host does (a call posts
 * MethodEntry, each instruction SingleStep and Breakpoint, a return
 * MethodExit and FramePop).
 *
 *   Main.main -> ConfChain.a -> b -> c   the main thread's, once the VM is
 *                      live: each method's one instruction at location 0
 *                      calls the next (c's returns), as javac compiles
 *                      tests/conformance/Main.java
 *   Thread.run()       each worker's: locations 0..7: at 2 it calls
 *                      getName(), at 4 it writes Thread.priority, at 5 it
 *                      calls hashCode(); its local 1, an int, is the
 *                      location it is at
 *   Thread.getName()   locations 0..3: at 1 it reads Thread.name
 *   Object.hashCode()  native: bound once, with the agents' prefixes */
#include <stdio.h>
#include <stdlib.h>

#include "host.h"
#include "jvmtirt.h"

/* After the instruction's step (where an agent may have asked, at a
 * breakpoint), a PopFrame removes the top frame and its caller runs its
 * call again; a ForceEarlyReturn returns from it, and its callers return
 * in turn, as they would after their call. */
void host_programs_main(host_thread *t)
{
    static const char *const chain[] = {"main", "a", "b", "c"};
    int n = 0; /* frames of the chain on the stack */
    while (n < 4) {
        host_member *m = host_member_named(chain[n]);
        host_frames_enter(t, m);
        n++;
        host_stack_unwindable(t, 1);
        host_frames_step(t, m, 0); /* the call of the next, or c's return */
        host_stack_unwindable(t, 0);
        int u = host_stack_take_unwind(t);
        if (u == JVMTIRT_FRAME_POP) {
            host_stack_pop(t); /* no FramePop: the frame did not return */
            n--;               /* the caller calls it again */
        } else if (u == JVMTIRT_FRAME_RETURN) {
            break;
        }
    }
    while (n-- > 0)
        host_frames_return(t);
}

/* Binding a native method: a VM whose plain lookup fails retries with the
 * prefixes, in the order the core gives them. The host has no native
 * libraries: it prints the prefixes it would use (when there are any). */
static void resolve_native(host_member *m)
{
    jint n = 0;
    char **prefixes = jvmtirt_native_method_prefixes(&n);
    if (n > 0) {
        printf("jvmti-host: native %s: prefixes", m->name);
        for (jint i = 0; i < n; i++)
            printf(" %s", prefixes[i]);
        printf("\n");
        fflush(stdout);
    }
    free(prefixes);
}

void host_programs_worker(host_thread *t)
{
    static int resolved; /* atomic: hashCode is bound once */
    host_member *run = host_member_named("run"), *get_name = host_member_named("getName"),
                *hash_code = host_member_named("hashCode"), *name = host_member_named("name"),
                *priority = host_member_named("priority");
    host_frames_enter(t, run);
    for (jlocation at = 0; at < run->code_length; at++) {
        host_stack_store(t, 1, 'I', (jvalue){.i = (jint)at}); /* i = at */
        host_frames_step(t, run, at);
        if (at == 2) {
            host_frames_enter(t, get_name);
            for (jlocation g = 0; g < get_name->code_length; g++) {
                host_frames_step(t, get_name, g);
                if (g == 1)
                    host_frames_field(t, get_name, g, name, NULL);
            }
            host_frames_return(t);
        } else if (at == 4) {
            jvalue v = {.i = 5};
            host_frames_field(t, run, at, priority, &v);
        } else if (at == 5) {
            host_frames_enter(t, hash_code);
            if (!__atomic_exchange_n(&resolved, 1, __ATOMIC_ACQ_REL))
                resolve_native(hash_code);
            host_frames_return(t);
        }
    }
    host_frames_return(t);
}
