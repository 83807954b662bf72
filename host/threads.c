/* The calling thread (thread-local: which host_thread a JNIEnv, an event
 * or a JNI call is on) and the VM's own threads: the main thread and the
 * -threads:N workers, the members of group main. Their objects live until
 * the process ends: agents may keep references. (Threads begin and
 * finish in lifecycle.c.) */
#include <stdlib.h>

#include "host.h"
#include "jvmtigen_impl.h"

static JVMTIGEN_TLS host_thread *current;

JNIEnv *host_current_jni(void) { return current ? (JNIEnv *)&current->jni : NULL; }

host_thread *host_current(void) { return current; }

void host_current_set(host_thread *t) { current = t; }

host_thread host_main_thread = {.obj = {HOST_THREAD}};
static host_thread *workers;
static int n_workers;

/* Made before any agent can list them (group main); n + 1: never calloc(0). */
int host_workers_make(int n)
{
    workers = calloc((size_t)n + 1, sizeof *workers);
    n_workers = workers ? n : 0;
    for (int i = 0; i < n_workers; i++) {
        workers[i].obj.kind = HOST_THREAD;
        workers[i].index = i;
    }
    return workers != NULL;
}

host_thread *host_worker(int i) { return &workers[i]; }

int host_n_workers(void) { return n_workers; }

void host_threads_each(int (*fn)(void *arg, jthread thread), void *arg)
{
    if (fn(arg, host_jthread(&host_main_thread)))
        return;
    for (int i = 0; i < n_workers; i++)
        if (fn(arg, host_jthread(&workers[i])))
            return;
}
