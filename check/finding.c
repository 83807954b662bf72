/* Findings: one line each, `jvmticheck: ...`, with the calling code named
 * by dladdr; in fatal mode a backtrace follows and the process aborts. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <execinfo.h>
#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jvmticheck.h"
#include "jvmtigen_tables.h"

int jvmticheck_log_fd = 2;
int jvmticheck_n_agents;

void jvmticheck_write(const char *line, size_t len)
{
    jvmticheck_write_fd(jvmticheck_log_fd, line, len);
}

void jvmticheck_write_fd(int fd, const char *line, size_t len)
{
    /* One write per line: lines from several threads do not mix. */
    while (len > 0) {
        ssize_t w = write(fd, line, len);
        if (w <= 0)
            return;
        line += w;
        len -= (size_t)w;
    }
}

/* The first frame outside this library and libffi (whose closures are
 * the entries of extension functions, extensions.c): the agent's code
 * that called. */
static void caller(char *out, size_t n)
{
    void *frames[32];
    Dl_info self, ffi, info;
    int depth = backtrace(frames, 32);
    snprintf(out, n, "?");
    if (!dladdr((void *)caller, &self))
        return;
    if (!dladdr((void *)ffi_call, &ffi))
        ffi.dli_fbase = self.dli_fbase;
    for (int i = 1; i < depth; i++) {
        if (!dladdr(frames[i], &info) || info.dli_fbase == self.dli_fbase || info.dli_fbase == ffi.dli_fbase)
            continue;
        const char *obj = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
        obj = obj ? obj + 1 : (info.dli_fname ? info.dli_fname : "?");
        snprintf(out, n, "%s (%s)", info.dli_sname ? info.dli_sname : "?", obj);
        return;
    }
}

/* text: what follows `jvmticheck: `, with its newline. With several
 * agents in one checker, the agent's name comes first. */
void jvmticheck_say(jvmticheck_agent *a, const char *text)
{
    char line[1200];
    int fd = a ? a->log_fd : 2;
    if (a && __atomic_load_n(&jvmticheck_n_agents, __ATOMIC_ACQUIRE) > 1)
        snprintf(line, sizeof line, "jvmticheck: [%s] %s", a->name, text);
    else
        snprintf(line, sizeof line, "jvmticheck: %s", text);
    jvmticheck_write_fd(fd, line, strlen(line));
}

static void finish(jvmticheck_agent *a, const char *text)
{
    jvmticheck_say(a, text);
    if (!a || !a->fatal)
        return;
    void *frames[64];
    int depth = backtrace(frames, 64);
    backtrace_symbols_fd(frames, depth, a->log_fd);
    abort();
}

static const char *phase_name(jvmtiPhase p)
{
    switch (p) {
    case JVMTI_PHASE_ONLOAD: return "OnLoad";
    case JVMTI_PHASE_PRIMORDIAL: return "primordial";
    case JVMTI_PHASE_START: return "start";
    case JVMTI_PHASE_LIVE: return "live";
    case JVMTI_PHASE_DEAD: return "dead";
    }
    return "?";
}

void jvmticheck_broke(jvmtiEnv *env, const char *function, const char *param, const char *rule,
                      jvmtiError error)
{
    char line[1024], who[512], detail[96] = "";
    caller(who, sizeof who);
    if (error == JVMTI_ERROR_WRONG_PHASE) {
        snprintf(detail, sizeof detail, ", not the %s phase", phase_name(jvmticheck_phase_now()));
    } else if (error == JVMTI_ERROR_INVALID_ENVIRONMENT) {
        /* A disposed environment is still ours: say so. */
        int disposed = jvmticheck_env_disposed(env);
        snprintf(detail, sizeof detail, "%s", env == NULL ? " (it is NULL)"
                                              : disposed ? " (used after DisposeEnvironment)"
                                                         : " (not one GetEnv returned)");
    }
    const char *name = jvmtigen_error_name(error);
    snprintf(line, sizeof line, "%s: %s%s%s%s (%s), called from %s\n", function,
             param ? param : "", param ? " " : "", rule, detail, name ? name : "?", who);
    finish(jvmticheck_agent_of(env), line);
}

void jvmticheck_report(jvmtiEnv *env, const char *function, const char *param, const char *text)
{
    char line[1024], who[512];
    caller(who, sizeof who);
    snprintf(line, sizeof line, "%s: %s%s%s, called from %s\n", function,
             param ? param : "", param ? " " : "", text, who);
    finish(jvmticheck_agent_of(env), line);
}
