/* Events delivered to the agent, traced (when selected) as one line each
 * after the agent's callback returns: the event, the thread it came on (its
 * name, as the VM knows it) and the time, since the checker was loaded, and
 * how long the agent's callback took. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmticheck.h"

/* The selection, comma-separated as JVMTI_TRACE. Replaced whole by a later
 * trace= (an Agent_OnAttach) while event threads may be reading the one
 * before: published with one atomic store, and never freed (each links to
 * the one made before it, so all stay reachable); a few bytes per attach. */
typedef struct selection {
    const struct selection *before;
    char text[];
} selection;
static const selection *current; /* atomic; NULL: no event traced */
static const selection *made;    /* the last one made */
static long long t_start;        /* atomic; set once, at the checker's first start */

/* The same selection as calls: '*' and '?' wildcards, a '-' prefix
 * removes, the last pattern that matches decides. */
static int selected(const selection *sel, const char *name)
{
    int on = 0;
    for (const char *p = sel ? sel->text : NULL; p && *p;) {
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
    const selection *sel = __atomic_load_n(&current, __ATOMIC_ACQUIRE);
    return sel && selected(sel, name);
}

/* The time origin: the checker's first start (each later one, and each
 * trace=, leaves it). */
void jvmticheck_trace_clock(void)
{
    long long zero = 0;
    __atomic_compare_exchange_n(&t_start, &zero, jvmticheck_now_ns(), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* Called one at a time (the VM's OnLoad, its attach thread). */
int jvmticheck_trace_events(const char *p)
{
    size_t n = p && *p ? strlen(p) : 0;
    selection *sel = n ? malloc(sizeof *sel + n + 1) : NULL;
    if (sel) {
        memcpy(sel->text, p, n + 1);
        sel->before = made;
        made = sel;
    }
    __atomic_store_n(&current, sel, __ATOMIC_RELEASE);
    return sel != NULL;
}

void jvmticheck_event_begin(jvmticheck_event_call *c, jvmticheck_env *e, const char *name)
{
    (void)e;
    c->name = name;
    c->traced = jvmticheck_trace_selected(name);
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
        char name[128];
        snprintf(out, n, "\"%s\"", jvmticheck_escape(name, sizeof name, info.name));
        (*jvmticheck_self)->Deallocate(jvmticheck_self, (unsigned char *)info.name);
    }
}

void jvmticheck_event_end(jvmticheck_event_call *c)
{
    if (!c->traced)
        return;
    long long t1 = jvmticheck_now_ns();
    char who[160], line[400];
    thread_name(who, sizeof who);
    long long at = c->t0 - __atomic_load_n(&t_start, __ATOMIC_RELAXED);
    /* The event's name: the generated code's, or an extension event's id
     * as extensions.c keeps it, escaped. */
    snprintf(line, sizeof line, "jvmti: event %s on thread %s at %lld.%09lld s (%lld ns)\n", c->name,
             who, at / 1000000000LL, at % 1000000000LL, t1 - c->t0);
    jvmticheck_write(line, strlen(line));
}
