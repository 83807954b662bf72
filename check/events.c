/* Events delivered to the agent, traced (when selected) as one line each
 * after the agent's callback returns: the event, the thread it came on (its
 * name, as the VM knows it) and the time, since the checker was loaded, and
 * how long the agent's callback took. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmticheck.h"

static char *patterns; /* comma-separated, as JVMTI_TRACE; NULL: no event traced */
static long long t_start;

/* The same selection as calls: '*' and '?' wildcards, a '-' prefix
 * removes, the last pattern that matches decides. */
static int selected(const char *name)
{
    int on = 0;
    for (const char *p = patterns; p && *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        int off = *p == '-';
        char pat[128];
        if (n - (size_t)off < sizeof pat) {
            memcpy(pat, p + off, n - (size_t)off);
            pat[n - (size_t)off] = '\0';
            if (fnmatch(pat, name, 0) == 0)
                on = !off;
        }
        p = end ? end + 1 : p + n;
    }
    return on;
}

int jvmticheck_trace_selected(const char *name)
{
    return patterns && selected(name);
}

int jvmticheck_trace_events(const char *p)
{
    free(patterns);
    patterns = p && *p ? strdup(p) : NULL;
    t_start = jvmticheck_now_ns();
    return patterns != NULL;
}

void jvmticheck_event_begin(jvmticheck_event_call *c, jvmticheck_env *e, const char *name)
{
    (void)e;
    c->name = name;
    c->traced = patterns && selected(name);
    if (c->traced)
        c->t0 = jvmticheck_now_ns();
}

/* The calling thread's name, asked of the checker's own environment. */
static void thread_name(char *out, size_t n)
{
    jvmtiThreadInfo info;
    void *jni = NULL;
    snprintf(out, n, "-");
    if ((*jvmticheck_vm)->GetEnv(jvmticheck_vm, &jni, JNI_VERSION_1_2) != JNI_OK)
        return; /* a VM thread (GC, compiler) */
    memset(&info, 0, sizeof info);
    if ((*jvmticheck_self)->GetThreadInfo(jvmticheck_self, NULL, &info) != JVMTI_ERROR_NONE)
        return;
    if (info.name) {
        snprintf(out, n, "\"%s\"", info.name);
        (*jvmticheck_self)->Deallocate(jvmticheck_self, (unsigned char *)info.name);
    }
}

void jvmticheck_event_end(jvmticheck_event_call *c)
{
    if (!c->traced)
        return;
    long long t1 = jvmticheck_now_ns();
    char who[160], line[320];
    thread_name(who, sizeof who);
    long long at = c->t0 - t_start;
    snprintf(line, sizeof line, "jvmti: event %s on thread %s at %lld.%09lld s (%lld ns)\n", c->name,
             who, at / 1000000000LL, at % 1000000000LL, t1 - c->t0);
    jvmticheck_write(line, strlen(line));
}
