/* Findings: one line each, `jvmticheck: ...`, with the calling code named
 * by its object and offset (and its dladdr symbol where it has one). A
 * finding made again (the same line from the same call site) is counted,
 * not printed: the counts and a summary come at exit. In fatal mode a
 * backtrace follows the first and the process aborts. */
#define _GNU_SOURCE /* dladdr1, RTLD_DL_LINKMAP */
#include <dlfcn.h>
#include <execinfo.h>
#include <ffi.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

#include "jvmticheck.h"
#include "jvmtigen_tables.h"

int jvmticheck_log_fd = 2;
int jvmticheck_n_agents;

void jvmticheck_write(const char *line, size_t len)
{
    jvmticheck_write_fd(__atomic_load_n(&jvmticheck_log_fd, __ATOMIC_RELAXED), line, len);
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

/* Every string from outside (the VM, the agent, the command line) goes
 * through here before it reaches a line: as the runtime's tracer writes
 * strings, backslash and quote escaped, control characters and bytes above
 * 0x7e as \xNN, so one finding or trace line stays one line. */
const char *jvmticheck_escape(char *out, size_t n, const char *s)
{
    size_t o = 0;
    if (n == 0)
        return out;
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        char esc[5];
        int len;
        if (ch == '"' || ch == '\\')
            len = snprintf(esc, sizeof esc, "\\%c", ch);
        else if (ch < 0x20 || ch > 0x7e)
            len = snprintf(esc, sizeof esc, "\\x%02x", ch);
        else
            len = snprintf(esc, sizeof esc, "%c", ch);
        if (o + (size_t)len >= n)
            break;
        memcpy(out + o, esc, (size_t)len);
        o += (size_t)len;
    }
    out[o] = '\0';
    return out;
}

/* The address ranges of this library and of libffi (whose closures are
 * the entries of extension functions, extensions.c), found once: frames in
 * them are the checker's, told by two comparisons each rather than a
 * dladdr (which takes the loader's lock and walks its list: a repeated
 * finding cost several microseconds so). */
typedef struct range {
    uintptr_t lo, hi;
} range;
static range ranges[2];
static pthread_once_t ranges_once = PTHREAD_ONCE_INIT;

static int find_range(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    range *r = data;
    uintptr_t want = r->lo, lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t start = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
        if (start < lo)
            lo = start;
        if (start + ph->p_memsz > hi)
            hi = start + ph->p_memsz;
    }
    if (want < lo || want >= hi)
        return 0;
    r->lo = lo;
    r->hi = hi;
    return 1;
}

static void find_ranges(void)
{
    ranges[0].lo = (uintptr_t)(void *)find_ranges;
    ranges[1].lo = (uintptr_t)(void *)ffi_call;
    for (int i = 0; i < 2; i++)
        if (!dl_iterate_phdr(find_range, &ranges[i]))
            ranges[i].lo = ranges[i].hi = 0;
}

/* The first frame outside this library and libffi: the agent's code that
 * called, as the address of its call instruction (the return address less
 * one, so that addr2line names the calling line). NULL if none. The
 * unwinding stops there: each frame unwound costs some hundreds of ns, and
 * the agent's is the third to the fifth (more below it would be wasted). */
typedef struct walk {
    void *pc;
    int frames;
} walk;

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *data)
{
    walk *w = data;
    uintptr_t pc = (uintptr_t)_Unwind_GetIP(ctx);
    if (++w->frames > 64 || pc == 0)
        return _URC_END_OF_STACK;
    if ((pc >= ranges[0].lo && pc < ranges[0].hi) || (pc >= ranges[1].lo && pc < ranges[1].hi))
        return _URC_NO_REASON;
    w->pc = (void *)(pc - 1);
    return _URC_END_OF_STACK;
}

static void *call_site(void)
{
    walk w = {NULL, 0};
    pthread_once(&ranges_once, find_ranges);
    _Unwind_Backtrace(step, &w);
    return w.pc;
}

/* `SYMBOL (OBJECT+0xOFFSET)`, or `OBJECT+0xOFFSET` where dladdr knows no
 * symbol (a static function): the offset from the object's load address is
 * what addr2line -e OBJECT and nm take. */
static void describe_site(void *pc, char *out, size_t n)
{
    Dl_info info;
    struct link_map *map = NULL;
    char obj[160], sym[256];
    snprintf(out, n, "?");
    if (!pc || !dladdr1(pc, &info, (void **)&map, RTLD_DL_LINKMAP) || !map)
        return;
    const char *file = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
    file = file ? file + 1 : (info.dli_fname ? info.dli_fname : "?");
    jvmticheck_escape(obj, sizeof obj, file);
    uintptr_t off = (uintptr_t)pc - (uintptr_t)map->l_addr;
    if (info.dli_sname)
        snprintf(out, n, "%s (%s+0x%jx)", jvmticheck_escape(sym, sizeof sym, info.dli_sname), obj,
                 (uintmax_t)off);
    else
        snprintf(out, n, "%s+0x%jx", obj, (uintmax_t)off);
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

/* ---- each distinct finding once ----
 * A finding is what its text is made of (the agent, the function, the
 * parameter and the rule: the generated code's static strings, or
 * extensions.c's, which live as long as the process; the error and what
 * the detail depends on) and its call site. The first is printed, the rest
 * only counted: a repeat costs the unwinding to its call site and a
 * lookup, no formatting, no dladdr, no write. Chained in a fixed array of
 * buckets under one lock; records live as long as the process (the exit
 * report reads them). */
typedef struct finding_key {
    jvmticheck_agent *agent;
    const char *function, *param, *rule;
    int error, detail;
    void *pc;
} finding_key;

typedef struct seen {
    struct seen *next, *later; /* in the bucket; in the order found */
    finding_key key;
    unsigned long long count;
    char *line; /* as printed, once it was */
} seen;
#define BUCKETS 1024
static seen *buckets[BUCKETS];
static seen *first, **last = &first;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t hash_key(const finding_key *k)
{
    const uintptr_t words[] = {(uintptr_t)k->agent, (uintptr_t)k->function, (uintptr_t)k->param,
                               (uintptr_t)k->rule,  (uintptr_t)k->error,    (uintptr_t)k->detail,
                               (uintptr_t)k->pc};
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        h = (h ^ words[i]) * 1099511628211ULL;
    return (size_t)((h ^ (h >> 29)) % BUCKETS);
}

static int same_key(const finding_key *a, const finding_key *b)
{
    return a->agent == b->agent && a->function == b->function && a->param == b->param &&
           a->rule == b->rule && a->error == b->error && a->detail == b->detail && a->pc == b->pc;
}

/* 1 if the finding is new (*rec: its record, NULL without memory for one,
 * then every such finding is printed), 0 if it was seen before (now counted
 * once more). */
static int first_time(const finding_key *k, seen **rec)
{
    size_t h = hash_key(k);
    seen *s;
    *rec = NULL;
    pthread_mutex_lock(&seen_lock);
    if (k->agent)
        k->agent->findings++;
    for (s = buckets[h]; s; s = s->next)
        if (same_key(&s->key, k)) {
            s->count++;
            pthread_mutex_unlock(&seen_lock);
            return 0;
        }
    s = calloc(1, sizeof *s);
    if (s) {
        s->key = *k;
        s->count = 1;
        s->next = buckets[h];
        buckets[h] = s;
        *last = s;
        last = &s->later;
    }
    if (k->agent)
        k->agent->distinct++;
    pthread_mutex_unlock(&seen_lock);
    *rec = s;
    return 1;
}

/* A leak line (jvmticheck_report_leaks): a finding of its own. */
void jvmticheck_count_finding(jvmticheck_agent *a)
{
    pthread_mutex_lock(&seen_lock);
    a->findings++;
    a->distinct++;
    pthread_mutex_unlock(&seen_lock);
}

int jvmticheck_found_any(jvmticheck_agent *a)
{
    pthread_mutex_lock(&seen_lock);
    int any = a->findings != 0;
    pthread_mutex_unlock(&seen_lock);
    return any;
}

/* At exit, for an agent with findings: the repeated ones with their
 * counts, in the order found, then the summary. */
void jvmticheck_report_counts(jvmticheck_agent *a)
{
    char line[1400];
    pthread_mutex_lock(&seen_lock);
    unsigned long long total = a->findings, distinct = a->distinct;
    if (total == 0) {
        pthread_mutex_unlock(&seen_lock);
        return;
    }
    for (seen *s = first; s; s = s->later) {
        if (s->key.agent != a || s->count < 2 || !s->line)
            continue;
        snprintf(line, sizeof line, "%llu times: %s", s->count, s->line);
        jvmticheck_say(a, line);
    }
    pthread_mutex_unlock(&seen_lock);
    snprintf(line, sizeof line, "%llu finding%s, %llu distinct\n", total, total == 1 ? "" : "s", distinct);
    jvmticheck_say(a, line);
}

/* A new finding: text (without its newline and call site) is printed with
 * its call site, and kept in its record for the exit report. */
static void print_first(jvmticheck_agent *a, seen *rec, void *pc, const char *text)
{
    char who[512], line[1200];
    describe_site(pc, who, sizeof who);
    snprintf(line, sizeof line, "%s, called from %s\n", text, who);
    if (rec) {
        char *copy = strdup(line);
        pthread_mutex_lock(&seen_lock);
        rec->line = copy;
        pthread_mutex_unlock(&seen_lock);
    }
    jvmticheck_say(a, line);
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

/* function and param: the generated code's names, or the VM's as
 * extensions.c keeps them, already escaped. */
void jvmticheck_broke(jvmtiEnv *env, const char *function, const char *param, const char *rule,
                      jvmtiError error)
{
    char text[1024], detail[96] = "";
    /* What the detail says: the phase, or what the environment is. */
    int what = error == JVMTI_ERROR_WRONG_PHASE           ? (int)jvmticheck_phase_now()
               : error != JVMTI_ERROR_INVALID_ENVIRONMENT ? 0
               : env == NULL                               ? 1
               : jvmticheck_env_disposed(env)              ? 2
                                                           : 3;
    finding_key k = {jvmticheck_agent_of(env), function, param, rule, (int)error, what, call_site()};
    seen *rec;
    if (!first_time(&k, &rec))
        return;
    if (error == JVMTI_ERROR_WRONG_PHASE)
        snprintf(detail, sizeof detail, ", not the %s phase", phase_name((jvmtiPhase)what));
    else if (error == JVMTI_ERROR_INVALID_ENVIRONMENT)
        snprintf(detail, sizeof detail, "%s", what == 1   ? " (it is NULL)"
                                              : what == 2 ? " (used after DisposeEnvironment)"
                                                          : " (not one GetEnv returned)");
    const char *name = jvmtigen_error_name(error);
    snprintf(text, sizeof text, "%s: %s%s%s%s (%s)", function, param ? param : "", param ? " " : "", rule,
             detail, name ? name : "?");
    print_first(k.agent, rec, k.pc, text);
}

/* text: a static string, like function and param. */
void jvmticheck_report(jvmtiEnv *env, const char *function, const char *param, const char *text)
{
    char line[1024];
    finding_key k = {jvmticheck_agent_of(env), function, param, text, 0, 0, call_site()};
    seen *rec;
    if (!first_time(&k, &rec))
        return;
    snprintf(line, sizeof line, "%s: %s%s%s", function, param ? param : "", param ? " " : "", text);
    print_first(k.agent, rec, k.pc, line);
}
