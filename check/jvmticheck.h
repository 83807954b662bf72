/* jvmticheck.h: what the generated half of libjvmticheck
 * (out/jvmticheck_forward.c) needs from the hand-written half (this folder).
 * See README.md for the design. */
#ifndef JVMTICHECK_H
#define JVMTICHECK_H

#include <stdint.h>

#include "jvmti.h"

#define JVMTICHECK_WEAK __attribute__((weak))
#define JVMTICHECK_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define JVMTICHECK_LIKELY(x) __builtin_expect(!!(x), 1)
/* The generated entries' full checks: run only when the quick test of a
 * call fails, so kept out of the way of the calls that pass. */
#define JVMTICHECK_COLD __attribute__((cold, noinline))
/* The tracing wrappers are jvmtigen_entry.c's, shared with the trampolines. */
#define JVMTIGEN_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define JVMTICHECK_MAGIC 0x4A43484B    /* "JCHK": a live checking environment */
#define JVMTICHECK_DISPOSED 0x44495350 /* "DISP": after DisposeEnvironment */

/* One wrapped agent. The library is loaded once however many times the
 * command line names it (dlopen shares it), so each -agentpath of it is
 * one of these: its options, its library, its JavaVM. */
typedef struct jvmticheck_agent {
    const struct JNIInvokeInterface_ *vm;   /* the agent's JavaVM points here (first member) */
    struct JNIInvokeInterface_ vm_table;    /* the VM's, with GetEnv and the rest wrapped */
    void *handle;                           /* the agent's library */
    void(JNICALL *on_unload)(JavaVM *vm);   /* its Agent_OnUnload, or NULL */
    char name[64];                          /* its file name, in findings once there are two */
    int fatal;                              /* mode=fatal */
    int leaks;                              /* leaks=none|results|all */
    int log_fd;                             /* findings; 2 by default */
    int exitcode;                           /* exitcode=N: the process's status if it found any; -1 */
    unsigned long long findings, distinct;  /* under finding.c's lock */
    const struct jvmtiInterface_1_ *table;  /* checked, or checked and traced */
    int unloaded;
    struct jvmticheck_agent *next;
} jvmticheck_agent;

/* A checking environment: what the wrapped agent holds as its jvmtiEnv.
 * Never freed, so a use after DisposeEnvironment is seen, not a crash. */
typedef struct jvmticheck_env {
    const struct jvmtiInterface_1_ *functions; /* jvmtiEnv points here */
    int magic;                                 /* atomic */
    jvmtiEnv *real;                            /* the VM's environment */
    jvmtiCapabilities caps;                    /* mirror of the real one's, word by word atomic */
    jvmtiEventCallbacks callbacks;             /* the agent's own; each member atomic */
    jvmticheck_agent *agent;                   /* whose */
    /* What functions points at: the environment's own copy of its agent's
     * table, which the agent may patch (profilers hook slots so), with
     * every empty slot filled (tables.c). */
    struct jvmtiInterface_1_ table;
} jvmticheck_env;

#define JVMTICHECK_REAL(env) (((jvmticheck_env *)(void *)(env))->real)
#define JVMTICHECK_CALLBACK(e, name) __atomic_load_n(&(e)->callbacks.name, __ATOMIC_ACQUIRE)

/* ---- the checks' answers (env.c) ---- */
/* Every checking environment made (env.c appends, never removes), NULL
 * after the last: a checked call's validity test is this short walk,
 * inline (a call to it, twice in every entry, was a third of what the
 * checker added to a RawMonitorEnter), with no count to load first. */
#define JVMTICHECK_MAX_ENVS 256
#define JVMTICHECK_HIDDEN __attribute__((visibility("hidden"))) /* no GOT load */
extern JVMTICHECK_HIDDEN jvmticheck_env *jvmticheck_envs[JVMTICHECK_MAX_ENVS + 1];
static inline jvmticheck_env *jvmticheck_env_find(jvmtiEnv *env)
{
    jvmticheck_env *e;
    for (jvmticheck_env **p = jvmticheck_envs; (e = __atomic_load_n(p, __ATOMIC_ACQUIRE)) != NULL; p++)
        if ((jvmtiEnv *)(void *)e == env)
            return e;
    return NULL;
}
static inline int jvmticheck_env_valid(jvmtiEnv *env)
{
    jvmticheck_env *e = jvmticheck_env_find(env);
    return e && __atomic_load_n(&e->magic, __ATOMIC_RELAXED) == JVMTICHECK_MAGIC;
}
int jvmticheck_env_disposed(jvmtiEnv *env);
#define JVMTICHECK_ENV_VALID(env) jvmticheck_env_valid(env)
/* The phase, as the checker's own environment of the VM sees it. */
jvmtiPhase jvmticheck_phase_now(void);
void jvmticheck_phase_set(jvmtiPhase p);
void jvmticheck_phase_ask_vm(void); /* from VMDeath on */
/* Inline until VMDeath: the phase env.c keeps (both atomic). */
extern JVMTICHECK_HIDDEN int jvmticheck_phase_cached, jvmticheck_phase_asking;
static inline jvmtiPhase jvmticheck_phase_fast(void)
{
    if (!__atomic_load_n(&jvmticheck_phase_asking, __ATOMIC_RELAXED))
        return (jvmtiPhase)__atomic_load_n(&jvmticheck_phase_cached, __ATOMIC_RELAXED);
    return jvmticheck_phase_now();
}
#define JVMTICHECK_PHASE() jvmticheck_phase_fast()
/* The quick path's phase test: one load of 1 << the cached phase, or of 0
 * from VMDeath on (when only the VM can tell: the full checks ask it). */
extern JVMTICHECK_HIDDEN unsigned jvmticheck_phase_bits; /* atomic */
#define JVMTICHECK_PHASE_IN(a, b) \
    ((__atomic_load_n(&jvmticheck_phase_bits, __ATOMIC_RELAXED) & (1u << (a) | 1u << (b))) != 0)

enum { JVMTICHECK_JAVA, JVMTICHECK_JAVA_OR_VM, JVMTICHECK_JAVA_IF_THREADS };
int jvmticheck_attached(int rule);
/* Set once JNI's GetEnv answered on this thread (env.c). */
extern JVMTICHECK_HIDDEN __thread int jvmticheck_attached_here
    __attribute__((tls_model("initial-exec")));
static inline int jvmticheck_attached_fast(int rule)
{
    return rule == JVMTICHECK_JAVA_OR_VM || jvmticheck_attached_here || jvmticheck_attached(rule);
}
#define JVMTICHECK_ATTACHED(rule) jvmticheck_attached_fast(rule)
/* The quick path's: known attached (else the full checks ask JNI). */
#define JVMTICHECK_ATTACHED_HERE() (jvmticheck_attached_here != 0)

/* Only asked once the environment was found valid. The capability is
 * named by a constant mask (a compound literal with that one bit), so the
 * test compiles to one load of the word holding it: copying the whole set
 * word by word and reading a bit-field back cost some 7 ns per call. */
typedef unsigned int __attribute__((may_alias)) jvmticheck_cap_word;
static inline int jvmticheck_has_capability(jvmtiEnv *env, const jvmtiCapabilities *mask)
{
    const jvmticheck_cap_word *m = (const jvmticheck_cap_word *)(const void *)mask;
    const jvmticheck_cap_word *c =
        (const jvmticheck_cap_word *)(const void *)&((const jvmticheck_env *)(const void *)env)->caps;
    for (size_t i = 0; i < sizeof *mask / sizeof *m; i++)
        if (m[i])
            return (__atomic_load_n(&c[i], __ATOMIC_RELAXED) & m[i]) != 0;
    return 0;
}
#define JVMTICHECK_HAS_CAPABILITY(env, cap) \
    jvmticheck_has_capability(env, &(const jvmtiCapabilities){.cap = 1})

/* The checking environment of a real one (NULL: not ours). */
jvmticheck_env *jvmticheck_env_of(jvmtiEnv *real);
/* A new checking environment of the agent's around a real one. */
jvmtiEnv *jvmticheck_env_new(jvmtiEnv *real, jvmticheck_agent *agent);
/* The agent of a checking environment (live or disposed); for anything
 * else the agent loaded last. Inline (every buffer recorded asks). */
static inline jvmticheck_agent *jvmticheck_agent_of(jvmtiEnv *env);
/* After the real capabilities changed. */
void jvmticheck_caps_refresh(jvmticheck_env *e);

/* ---- findings (finding.c) ----
 * One broken rule: prints `jvmticheck: FUNCTION: [PARAM ]RULE (ERROR), called
 * from SYMBOL (OBJECT+0xOFFSET)` the first time it is made from that call
 * site, and counts it; in fatal mode then a backtrace and abort(). The
 * strings are text for the line as they are (escaped where they come from
 * outside) and live as long as the process: a finding is known again by
 * their addresses. */
void jvmticheck_broke(jvmtiEnv *env, const char *function, const char *param, const char *rule,
                      jvmtiError error);
/* A finding that is not a broken parameter rule (memory, monitors). */
void jvmticheck_report(jvmtiEnv *env, const char *function, const char *param, const char *text);
/* A line of the agent's: `jvmticheck: [NAME] ` once two agents are wrapped. */
void jvmticheck_say(jvmticheck_agent *a, const char *text);
void jvmticheck_write_fd(int fd, const char *line, size_t len);
/* s as it may appear in a line: quote and backslash escaped, control
 * characters and bytes above 0x7e as \xNN (cut to fit n); returns out. */
const char *jvmticheck_escape(char *out, size_t n, const char *s);
int jvmticheck_found_any(jvmticheck_agent *a);
/* At exit: the agent's repeated findings with their counts, its summary,
 * its SARIF report and suppressions file (output.c). */
void jvmticheck_report_counts(jvmticheck_agent *a);
void jvmticheck_write(const char *line, size_t len); /* trace lines */
extern int jvmticheck_log_fd; /* trace lines: the last log= given; 2 by default */
extern int jvmticheck_n_agents; /* atomic */

/* ---- memory (memory.c) ---- */
void jvmticheck_owned(jvmtiEnv *env, const char *function, const void *mem);
/* 1 if mem was handed out and not deallocated yet (it is then forgotten). */
int jvmticheck_disown(const void *mem);
/* What is left of the agent's, as its leaks= option says. */
void jvmticheck_report_leaks(jvmticheck_agent *a);
enum { JVMTICHECK_LEAKS_NONE, JVMTICHECK_LEAKS_RESULTS, JVMTICHECK_LEAKS_ALL };

/* ---- events (events.c) ---- */
typedef struct jvmticheck_event_call {
    const char *name;
    long long t0;
    int traced;
} jvmticheck_event_call;
void jvmticheck_event_begin(jvmticheck_event_call *c, jvmticheck_env *e, const char *name);
void jvmticheck_event_end(jvmticheck_event_call *c);
int jvmticheck_trace_events(const char *patterns);
void jvmticheck_trace_clock(void); /* at each start: the first one is the events' time origin */
/* Whether calls or events named name are traced (the same selection). */
int jvmticheck_trace_selected(const char *name);
void jvmticheck_wrap_callbacks(const jvmtiEventCallbacks *agent, jvmtiEventCallbacks *vm);

/* ---- the tables (generated; each environment copies its agent's) ---- */
extern const struct jvmtiInterface_1_ jvmticheck_functions;
extern const struct jvmtiInterface_1_ jvmticheck_traced_functions;
/* Per slot an entry that reports a call through it and answers
 * JVMTI_ERROR_NOT_AVAILABLE: what an environment's table holds where the
 * spec reserves the slot or the VM's table has no function. One signature
 * for all: the agent's arguments after env are never read. */
typedef jvmtiError(JNICALL jvmticheck_empty_entry)(jvmtiEnv *env);
jvmtiError jvmticheck_empty_slot(jvmtiEnv *env, int num);
#define JVMTICHECK_EMPTY(num)                                       \
    static jvmtiError JNICALL jvmticheck_empty_##num(jvmtiEnv *env) \
    {                                                               \
        return jvmticheck_empty_slot(env, num);                     \
    }
extern jvmticheck_empty_entry *const jvmticheck_empty_entries[];

/* ---- versions and tables (tables.c) ---- */
/* Once, at the first load: the VM's version; says so if it is newer than
 * the spec the checker was built from. */
void jvmticheck_versions(jvmticheck_agent *a);
/* Whether GetEnv must refuse a version (a JVM TI version after the spec's:
 * its functions and events are ones the checker does not know). */
int jvmticheck_version_refused(jint version);
/* A jvmtiEventCallbacks longer than the spec's (a newer jvmti.h's, size
 * bytes): a finding if it sets a callback after the spec's last. */
void jvmticheck_newer_callbacks(jvmtiEnv *env, const jvmtiEventCallbacks *callbacks, jint size);
/* e's table: a copy of from, each empty slot filled. */
void jvmticheck_table_init(jvmticheck_env *e, const struct jvmtiInterface_1_ *from);

/* ---- routes to an environment the checker cannot wrap (routes.c) ---- */
/* Says once, at the agent's load, which its library takes (entry: its
 * Agent_OnLoad or Agent_OnAttach). */
void jvmticheck_unchecked_routes(jvmticheck_agent *a, void *entry);

/* ---- the VM ---- */
extern JavaVM *jvmticheck_vm;      /* the real one */
extern jvmtiEnv *jvmticheck_self;  /* the checker's own environment */
extern JVMTICHECK_HIDDEN jvmticheck_agent *jvmticheck_latest; /* the agent loaded last; atomic */
static inline jvmticheck_agent *jvmticheck_agent_of(jvmtiEnv *env)
{
    jvmticheck_env *e = jvmticheck_env_find(env);
    return e ? e->agent : __atomic_load_n(&jvmticheck_latest, __ATOMIC_ACQUIRE);
}
long long jvmticheck_now_ns(void);

#endif
