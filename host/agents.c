/* Agents: each -agentpath library (or -agentlib:NAME, the JDK's library of
 * that name) loaded with dlopen and its Agent_OnLoad called with the
 * JavaVM (javavm.c) and its options, in command-line order, in the OnLoad
 * phase, before the VM has any thread; Agent_OnUnload on the main thread
 * once the VM is dead. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include "host.h"

typedef jint (JNICALL *agent_onload_fn)(JavaVM *, char *, void *);
typedef void (JNICALL *agent_onunload_fn)(JavaVM *);

static int load_agent(host_agent *a)
{
    if (a->by_name) { /* -agentlib:NAME: the JDK's library of that name (javahome.c) */
        char *path = host_agentlib_path(a->path);
        if (!path)
            return 0;
        a->arg = a->path; /* NAME, and the options after it */
        a->path = path;
    }
    a->handle = dlopen(a->path, RTLD_NOW | RTLD_LOCAL);
    if (!a->handle) {
        fprintf(stderr, "jvmti-host: cannot load agent %s: %s\n", a->path, dlerror());
        return 0;
    }
    agent_onload_fn onload = (agent_onload_fn)(uintptr_t)dlsym(a->handle, "Agent_OnLoad");
    if (!onload) {
        fprintf(stderr, "jvmti-host: %s has no Agent_OnLoad\n", a->path);
        return 0;
    }
    jint rc = onload(&host_vm, a->options, NULL);
    if (rc != JNI_OK) {
        fprintf(stderr, "jvmti-host: Agent_OnLoad of %s returned %d\n", a->path, (int)rc);
        return 0;
    }
    return 1;
}

/* Calls Agent_OnUnload; the library stays loaded (as in HotSpot): the
 * agent's own threads may still be running its code. */
static void unload_agent(host_agent *a)
{
    agent_onunload_fn onunload =
        (agent_onunload_fn)(uintptr_t)dlsym(a->handle, "Agent_OnUnload");
    if (onunload)
        onunload(&host_vm);
}

/* The agents that loaded (and one whose Agent_OnLoad failed: its library
 * is loaded), for host_agents_unload. */
static host_agent *agents;
static int n_loaded;

int host_agents_load(host_agent *list, int n)
{
    agents = list;
    if (n > 0)
        host_jdk_placeholders_load(); /* libjdwp.so needs libjvm.so and libjava.so */
    for (int i = 0; i < n; i++)
        if (!load_agent(&agents[i])) {
            n_loaded = i + (agents[i].handle != NULL);
            return 0;
        }
    n_loaded = n;
    return 1;
}

void host_agents_unload(void)
{
    for (int i = 0; i < n_loaded; i++)
        if (agents[i].handle)
            unload_agent(&agents[i]);
}
