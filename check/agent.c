/* libjvmticheck's agent entry points: the options, loading the wrapped
 * agent, the JavaVM it is handed (GetEnv of a JVM TI version returns a
 * checking environment; every other call goes to the VM's JavaVM).
 *
 *   -agentpath:libjvmticheck.so=[OPTION,...,]agent=/path/libreal.so[=AGENT_OPTIONS]
 *
 * Everything after the wrapped agent's path and its '=' is passed to it
 * verbatim, commas and '=' included. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jvmticheck.h"
#include "output.h"
#include "jvmtigen_trace.h"

#define EXPORT __attribute__((visibility("default")))

typedef jint(JNICALL *agent_entry)(JavaVM *vm, char *options, void *reserved);
typedef void(JNICALL *agent_unload)(JavaVM *vm);

/* The wrapped agents, in load order; appended to, never freed (their
 * environments and JavaVMs live as long as the process). */
static jvmticheck_agent *agents;
jvmticheck_agent *jvmticheck_latest;
#define WRAPPED_VM(a) ((JavaVM *)(void *)&(a)->vm)
#define AGENT_OF(vm) ((jvmticheck_agent *)(void *)(vm))

/* One line of the checker's own; a and b (paths, option values, dlerror's
 * text) are escaped. */
static void say(const char *fmt, const char *a, const char *b)
{
    char line[1024], ea[400], eb[400];
    int n = snprintf(line, sizeof line - 1, fmt, jvmticheck_escape(ea, sizeof ea, a),
                     jvmticheck_escape(eb, sizeof eb, b));
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n] = '\n';
    jvmticheck_write(line, (size_t)n + 1);
}

static jint JNICALL vm_DestroyJavaVM(JavaVM *vm)
{
    (void)vm;
    return (*jvmticheck_vm)->DestroyJavaVM(jvmticheck_vm);
}
static jint JNICALL vm_AttachCurrentThread(JavaVM *vm, void **penv, void *args)
{
    (void)vm;
    return (*jvmticheck_vm)->AttachCurrentThread(jvmticheck_vm, penv, args);
}
static jint JNICALL vm_DetachCurrentThread(JavaVM *vm)
{
    (void)vm;
    return (*jvmticheck_vm)->DetachCurrentThread(jvmticheck_vm);
}
static jint JNICALL vm_AttachCurrentThreadAsDaemon(JavaVM *vm, void **penv, void *args)
{
    (void)vm;
    return (*jvmticheck_vm)->AttachCurrentThreadAsDaemon(jvmticheck_vm, penv, args);
}
/* vm is the agent's own JavaVM: its environments are the agent's. */
static jint JNICALL vm_GetEnv(JavaVM *vm, void **penv, jint version)
{
    if (jvmticheck_version_refused(version)) {
        *penv = NULL;
        return JNI_EVERSION;
    }
    jint r = (*jvmticheck_vm)->GetEnv(jvmticheck_vm, penv, version);
    if (r != JNI_OK || (version & JVMTI_VERSION_MASK_INTERFACE_TYPE) != JVMTI_VERSION_INTERFACE_JVMTI)
        return r;
    jvmtiEnv *checking = jvmticheck_env_new((jvmtiEnv *)*penv, AGENT_OF(vm));
    if (checking)
        *penv = checking;
    return r;
}

/* "key=value" options before agent=; returns 0 after saying what is wrong. */
static int option(jvmticheck_agent *a, const char *opt, size_t n)
{
    char buf[1024];
    if (n >= sizeof buf) {
        say("jvmticheck: option too long: %.40s...%s", opt, "");
        return 0;
    }
    memcpy(buf, opt, n);
    buf[n] = '\0';
    char *eq = strchr(buf, '=');
    const char *value = eq ? eq + 1 : "";
    if (eq)
        *eq = '\0';
    if (strcmp(buf, "mode") == 0 && strcmp(value, "warn") == 0) {
        a->fatal = 0;
    } else if (strcmp(buf, "mode") == 0 && strcmp(value, "fatal") == 0) {
        a->fatal = 1;
    } else if (strcmp(buf, "leaks") == 0 && (strcmp(value, "none") == 0 ||
                                             strcmp(value, "results") == 0 ||
                                             strcmp(value, "all") == 0)) {
        a->leaks = *value == 'n' ? JVMTICHECK_LEAKS_NONE
                           : *value == 'r' ? JVMTICHECK_LEAKS_RESULTS : JVMTICHECK_LEAKS_ALL;
    } else if (strcmp(buf, "log") == 0 && *value) {
        int fd = open(value, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd < 0) {
            say("jvmticheck: cannot open log file %s%s", value, "");
            return 0;
        }
        a->log_fd = fd;
        __atomic_store_n(&jvmticheck_log_fd, fd, __ATOMIC_RELAXED);
    } else if (strcmp(buf, "exitcode") == 0 && *value) {
        char *end;
        long code = strtol(value, &end, 10);
        if (*end || code < 0 || code > 255) {
            say("jvmticheck: exitcode=%s: expected a number from 0 to 255%s", value, "");
            return 0;
        }
        a->exitcode = (int)code;
    } else if (strcmp(buf, "trace") == 0) {
        /* Patterns are separated by ':' here (',' separates options). */
        for (char *p = (char *)value; *p; p++)
            if (*p == ':')
                *p = ',';
        jvmtigen_trace_configure(value);
        jvmticheck_trace_events(value);
        a->table = *value ? &jvmticheck_traced_functions : &jvmticheck_functions;
    } else {
        int taken = jvmticheck_output_option(a, buf, value);
        if (taken >= 0)
            return taken;
        say("jvmticheck: unknown option '%s' (expected mode=warn|fatal, trace=PATTERNS, leaks=none|results|all, "
            "log=FILE, exitcode=N, format=text|json, sarif=FILE, suppressions=FILE, suppressions-out=FILE, then "
            "agent=PATH[=OPTIONS])%s", buf, "");
        return 0;
    }
    return 1;
}

static void JNICALL on_vm_start(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env;
    (void)jni;
    jvmticheck_phase_set(JVMTI_PHASE_START);
}
static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    (void)jni;
    (void)thread;
    jvmticheck_phase_set(JVMTI_PHASE_LIVE);
}
static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env;
    (void)jni;
    jvmticheck_phase_ask_vm();
}

/* The checker's own environment follows the phases (see env.c). */
static int watch_phases(void)
{
    jvmtiEventCallbacks cb;
    jvmtiPhase now;
    jvmtiEnv *e = jvmticheck_self;
    memset(&cb, 0, sizeof cb);
    cb.VMStart = on_vm_start;
    cb.VMInit = on_vm_init;
    cb.VMDeath = on_vm_death;
    if ((*e)->GetPhase(e, &now) != JVMTI_ERROR_NONE || (*e)->SetEventCallbacks(e, &cb, (jint)sizeof cb) ||
        (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_VM_START, NULL) ||
        (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL) ||
        (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL))
        return 0;
    jvmticheck_phase_set(now);
    return 1;
}

static void trace_sink(const char *line, size_t len)
{
    jvmticheck_write(line, len);
}

/* The VM unloads an agent whose Agent_OnAttach fails; the checker's own
 * environment (and a wrapped agent's, which has the checker's event
 * wrappers) would then call into unmapped code at the next event. So the
 * library stays loaded for the life of the process once it has started. */
static void stay_loaded(void)
{
    Dl_info self;
    if (dladdr((void *)stay_loaded, &self) && self.dli_fname)
        dlopen(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}

/* At exit (the launcher's after DestroyJavaVM, System.exit's, the host's):
 * each agent's repeated findings and summary; then, if an agent with
 * exitcode=N found anything, the process's status is N. */
static void at_exit(void)
{
    int code = -1;
    for (jvmticheck_agent *a = __atomic_load_n(&agents, __ATOMIC_ACQUIRE); a; a = a->next) {
        jvmticheck_report_counts(a);
        if (a->exitcode >= 0 && code < 0 && jvmticheck_found_any(a))
            code = a->exitcode;
    }
    if (code >= 0) {
        fflush(NULL);
        _exit(code);
    }
}

/* Parses options into a (a new agent: each call, each -agentpath of the
 * checker, is one of its own), loads the agent, finds entry, and adds a to
 * the list; *agent_options gets the wrapped agent's options (NULL when its
 * path has no '='). NULL: a is not added, and is the caller's to free. */
static void *start(JavaVM *vm, char *options, const char *entry, char **agent_options,
                   jvmticheck_agent *a)
{
    static char none[] = "";
    static int exit_hook;
    /* agent=libjvmticheck.so: this library's entry point would be called
     * with a JavaVM of its own, and its GetEnv would call itself. */
    if ((*vm)->GetEnv == vm_GetEnv) {
        say("jvmticheck: the agent to wrap is jvmticheck itself: a checker cannot wrap itself (give the "
            "agent it should wrap as agent=)%s%s", "", "");
        return NULL;
    }
    /* The same VM at each attach: written once, as threads read it. */
    if (jvmticheck_vm != vm)
        jvmticheck_vm = vm;
    stay_loaded();
    jvmticheck_trace_clock();
    if (!exit_hook)
        exit_hook = atexit(at_exit) == 0;
    a->log_fd = 2;
    a->exitcode = -1;
    a->table = &jvmticheck_functions;
    char *opts = options ? options : none;
    /* Tracing from the environment first; trace= overrides it. */
    const char *env_trace = getenv("JVMTI_TRACE");
    if (env_trace && *env_trace) {
        jvmtigen_trace_configure(env_trace);
        jvmticheck_trace_events(env_trace);
        a->table = &jvmticheck_traced_functions;
    }
    /* Once: calls on other threads read the sink. */
    static int sink_set;
    if (!sink_set) {
        jvmtigen_trace_set_sink(trace_sink);
        sink_set = 1;
    }
    char *agent = NULL;
    for (char *p = opts; *p;) {
        if (strncmp(p, "agent=", 6) == 0) {
            agent = p + 6;
            break;
        }
        char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (!option(a, p, n))
            return NULL;
        p += n + (comma ? 1 : 0);
    }
    if (!agent || !*agent) {
        say("jvmticheck: no agent to wrap: give agent=/path/libagent.so[=OPTIONS] last%s%s", "", "");
        return NULL;
    }
    char *eq = strchr(agent, '=');
    *agent_options = eq ? eq + 1 : NULL;
    size_t plen = eq ? (size_t)(eq - agent) : strlen(agent);
    char *path = strndup(agent, plen);
    if (!path)
        return NULL;
    const char *base = strrchr(path, '/');
    jvmticheck_escape(a->name, sizeof a->name, base ? base + 1 : path);
    /* The checker's own environment, once for all its agents. */
    if (!jvmticheck_self) {
        if ((*vm)->GetEnv(vm, (void **)&jvmticheck_self, JVMTI_VERSION_1_2) != JNI_OK) {
            jvmticheck_self = NULL;
            say("jvmticheck: the VM gives no JVM TI environment%s%s", "", "");
            free(path);
            return NULL;
        }
        if (!watch_phases()) {
            say("jvmticheck: cannot follow the VM's phases%s%s", "", "");
            free(path);
            return NULL;
        }
        jvmticheck_versions(a);
    }
    a->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!a->handle) {
        say("jvmticheck: cannot load agent %s: %s", path, dlerror());
        free(path);
        return NULL;
    }
    void *fn = dlsym(a->handle, entry);
    if (!fn) {
        say("jvmticheck: agent %s has no %s", path, entry);
        free(path);
        return NULL;
    }
    free(path);
    a->on_unload = (agent_unload)dlsym(a->handle, "Agent_OnUnload");
    a->vm_table = **vm;
    a->vm_table.DestroyJavaVM = vm_DestroyJavaVM;
    a->vm_table.AttachCurrentThread = vm_AttachCurrentThread;
    a->vm_table.DetachCurrentThread = vm_DetachCurrentThread;
    a->vm_table.GetEnv = vm_GetEnv;
    a->vm_table.AttachCurrentThreadAsDaemon = vm_AttachCurrentThreadAsDaemon;
    a->vm = &a->vm_table;
    /* Agents are loaded one at a time (the VM's OnLoad, or its attach
     * thread): appended without a lock, published for readers. */
    jvmticheck_agent **at = &agents;
    while (*at)
        at = &(*at)->next;
    __atomic_store_n(at, a, __ATOMIC_RELEASE);
    __atomic_store_n(&jvmticheck_latest, a, __ATOMIC_RELEASE);
    __atomic_add_fetch(&jvmticheck_n_agents, 1, __ATOMIC_ACQ_REL);
    jvmticheck_unchecked_routes(a, fn);
    return fn;
}

EXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    char *agent_options = NULL;
    jvmticheck_agent *a = calloc(1, sizeof *a);
    /* A second agent's OnLoad: the phase is OnLoad again (the first one's
     * end moved it on). */
    jvmticheck_phase_set(JVMTI_PHASE_ONLOAD);
    void *fn = a ? start(vm, options, "Agent_OnLoad", &agent_options, a) : NULL;
    if (!fn) {
        free(a);
        return JNI_ERR;
    }
    jint r = ((agent_entry)fn)(WRAPPED_VM(a), agent_options, reserved);
    /* OnLoad ends when the agents' Agent_OnLoad return; no event says so. */
    jvmticheck_phase_set(JVMTI_PHASE_PRIMORDIAL);
    return r;
}

EXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved)
{
    char *agent_options = NULL;
    jvmticheck_agent *a = calloc(1, sizeof *a);
    void *fn = a ? start(vm, options, "Agent_OnAttach", &agent_options, a) : NULL;
    if (!fn) {
        free(a);
        return JNI_ERR;
    }
    return ((agent_entry)fn)(WRAPPED_VM(a), agent_options, reserved);
}

/* The VM calls this once per -agentpath of the checker, and cannot say
 * which: each call unloads the next agent, in load order. */
EXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
    (void)vm;
    jvmticheck_agent *a = agents;
    while (a && a->unloaded)
        a = a->next;
    if (!a)
        return;
    a->unloaded = 1;
    if (a->on_unload)
        a->on_unload(WRAPPED_VM(a));
    jvmticheck_report_leaks(a);
}
