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
#include "output.h"
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

/* The call site's object (its file name), the offset from its load
 * address (what addr2line -e OBJECT and nm take) and dladdr's symbol,
 * where it knows one (not for a static function). */
static void describe_site(void *pc, jvmticheck_finding *f)
{
    Dl_info info;
    struct link_map *map = NULL;
    f->has_site = f->has_symbol = 0;
    if (!pc || !dladdr1(pc, &info, (void **)&map, RTLD_DL_LINKMAP) || !map)
        return;
    const char *file = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
    file = file ? file + 1 : (info.dli_fname ? info.dli_fname : "?");
    jvmticheck_escape(f->object, sizeof f->object, file);
    f->offset = (unsigned long long)((uintptr_t)pc - (uintptr_t)map->l_addr);
    f->has_site = 1;
    if (info.dli_sname) {
        jvmticheck_escape(f->symbol, sizeof f->symbol, info.dli_sname);
        f->has_symbol = 1;
    }
}

/* The text line: `FUNCTION: [PARAM ]MESSAGE[ (ERROR)], called from
 * SYMBOL (OBJECT+0xOFFSET)` (or `OBJECT+0xOFFSET` without a symbol, `?`
 * without a site); a leak line has no call site. */
static void text_line(const jvmticheck_finding *f, int site, char *out, size_t n)
{
    char who[512] = "?", err[80] = "";
    if (f->has_symbol)
        snprintf(who, sizeof who, "%s (%s+0x%llx)", f->symbol, f->object, f->offset);
    else if (f->has_site)
        snprintf(who, sizeof who, "%s+0x%llx", f->object, f->offset);
    if (f->error)
        snprintf(err, sizeof err, " (%s)", f->error);
    snprintf(out, n, "%s: %s%s%s%s%s%s\n", f->function, f->param ? f->param : "", f->param ? " " : "",
             f->message, err, site ? ", called from " : "", site ? who : "");
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
 * report reads them). A finding a suppression names is recorded so too,
 * and counted apart: never printed, never in the agent's findings. */
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
    char *line; /* the text line, once printed */
    jvmticheck_finding f;
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

/* Under seen_lock: one more of a finding seen before, if it was; 1 then. */
static int counted_again(const finding_key *k)
{
    for (seen *s = buckets[hash_key(k)]; s; s = s->next)
        if (same_key(&s->key, k)) {
            s->count++;
            if (k->agent && !s->f.suppressed)
                k->agent->findings++;
            return 1;
        }
    return 0;
}

static int seen_before(const finding_key *k)
{
    pthread_mutex_lock(&seen_lock);
    int again = counted_again(k);
    pthread_mutex_unlock(&seen_lock);
    return again;
}

/* A new finding, described in rec (NULL without memory for one: then it
 * is printed each time). 0 if another thread recorded the same one
 * meanwhile (this one is then counted as its repeat, and rec freed). */
static int record(const finding_key *k, seen *rec, int suppressed)
{
    pthread_mutex_lock(&seen_lock);
    if (rec && counted_again(k)) {
        pthread_mutex_unlock(&seen_lock);
        free(rec);
        return 0;
    }
    if (rec) {
        size_t h = hash_key(k);
        rec->key = *k;
        rec->count = 1;
        rec->next = buckets[h];
        buckets[h] = rec;
        *last = rec;
        last = &rec->later;
    }
    if (k->agent && !suppressed) {
        k->agent->findings++;
        k->agent->distinct++;
    }
    pthread_mutex_unlock(&seen_lock);
    return 1;
}

int jvmticheck_found_any(jvmticheck_agent *a)
{
    pthread_mutex_lock(&seen_lock);
    int any = a->findings != 0;
    pthread_mutex_unlock(&seen_lock);
    return any;
}

/* The agent's SARIF report and suppressions file, if it asked for them. */
static void write_files(jvmticheck_agent *a)
{
    size_t n = 0, i = 0;
    pthread_mutex_lock(&seen_lock);
    for (seen *s = first; s; s = s->later)
        n++;
    const jvmticheck_finding **all = malloc((n ? n : 1) * sizeof *all);
    unsigned long long *counts = malloc((n ? n : 1) * sizeof *counts);
    for (seen *s = first; all && counts && s; s = s->later, i++) {
        all[i] = &s->f;
        counts[i] = s->count;
    }
    pthread_mutex_unlock(&seen_lock);
    if (all && counts)
        jvmticheck_output_files(a, all, counts, n);
    free(all);
    free(counts);
}

/* At exit, for an agent with findings: the repeated ones with their
 * counts, in the order found, then the summary (with suppressed ones, how
 * many); and its SARIF report and suppressions file. */
void jvmticheck_report_counts(jvmticheck_agent *a)
{
    char line[4096]; /* a JSON line holds every field, each escaped twice at worst */
    int json = jvmticheck_output_json(a);
    unsigned long long suppressed = 0;
    pthread_mutex_lock(&seen_lock);
    unsigned long long total = a->findings, distinct = a->distinct;
    for (seen *s = first; s; s = s->later) {
        if (s->key.agent != a)
            continue;
        if (s->f.suppressed) {
            suppressed += s->count;
            continue;
        }
        if (s->count < 2 || !s->line)
            continue;
        if (json) {
            jvmticheck_output_json_line(&s->f, s->count, line, sizeof line);
            jvmticheck_write_fd(a->log_fd, line, strlen(line));
        } else {
            snprintf(line, sizeof line, "%llu times: %s", s->count, s->line);
            jvmticheck_say(a, line);
        }
    }
    pthread_mutex_unlock(&seen_lock);
    write_files(a);
    if (total == 0 && suppressed == 0)
        return;
    if (json) {
        jvmticheck_output_summary(a, total, distinct, suppressed);
        return;
    }
    char more[64] = "";
    if (suppressed)
        snprintf(more, sizeof more, ", %llu suppressed", suppressed);
    snprintf(line, sizeof line, "%llu finding%s, %llu distinct%s\n", total, total == 1 ? "" : "s", distinct,
             more);
    jvmticheck_say(a, line);
}

/* A new finding f (in rec where there is one), site: whether it has a call
 * site: suppressed, or printed (the text line or its JSON) and kept for the
 * exit report; in fatal mode then the reports, a backtrace and abort(). */
static void found(const finding_key *k, seen *rec, jvmticheck_finding *f, int site)
{
    char line[4096]; /* a JSON line holds every field, each escaped twice at worst */
    f->agent = k->agent;
    if (site)
        describe_site(k->pc, f);
    jvmticheck_output_when(f);
    f->suppressed = jvmticheck_output_suppressed(f);
    if (!record(k, rec, f->suppressed) || f->suppressed)
        return;
    text_line(f, site, line, sizeof line);
    if (rec) {
        char *copy = strdup(line);
        pthread_mutex_lock(&seen_lock);
        rec->line = copy;
        pthread_mutex_unlock(&seen_lock);
    }
    if (jvmticheck_output_json(f->agent)) {
        jvmticheck_output_json_line(f, 0, line, sizeof line);
        jvmticheck_write_fd(f->agent->log_fd, line, strlen(line));
    } else {
        jvmticheck_say(f->agent, line);
    }
    jvmticheck_agent *a = f->agent;
    if (!a || !a->fatal)
        return;
    write_files(a);
    void *frames[64];
    int depth = backtrace(frames, 64);
    backtrace_symbols_fd(frames, depth, a->log_fd);
    abort();
}

/* A record for a new finding, or the stack's (then it is not kept). */
static jvmticheck_finding *new_finding(seen **rec, jvmticheck_finding *fallback)
{
    *rec = calloc(1, sizeof **rec);
    if (*rec)
        return &(*rec)->f;
    memset(fallback, 0, sizeof *fallback);
    return fallback;
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
    char detail[96] = "";
    /* What the detail says: the phase, or what the environment is. */
    int what = error == JVMTI_ERROR_WRONG_PHASE           ? (int)jvmticheck_phase_now()
               : error != JVMTI_ERROR_INVALID_ENVIRONMENT ? 0
               : env == NULL                               ? 1
               : jvmticheck_env_disposed(env)              ? 2
                                                           : 3;
    finding_key k = {jvmticheck_agent_of(env), function, param, rule, (int)error, what, call_site()};
    if (seen_before(&k))
        return;
    if (error == JVMTI_ERROR_WRONG_PHASE)
        snprintf(detail, sizeof detail, ", not the %s phase", phase_name((jvmtiPhase)what));
    else if (error == JVMTI_ERROR_INVALID_ENVIRONMENT)
        snprintf(detail, sizeof detail, "%s", what == 1   ? " (it is NULL)"
                                              : what == 2 ? " (used after DisposeEnvironment)"
                                                          : " (not one GetEnv returned)");
    seen *rec;
    jvmticheck_finding local, *f = new_finding(&rec, &local);
    const char *name = jvmtigen_error_name(error);
    f->rule = jvmticheck_rule_of((int)error, rule);
    f->function = function;
    f->param = param;
    f->error = name ? name : "?";
    snprintf(f->message, sizeof f->message, "%s%s", rule, detail);
    found(&k, rec, f, 1);
}

/* text: a static string, like function and param. */
void jvmticheck_report(jvmtiEnv *env, const char *function, const char *param, const char *text)
{
    finding_key k = {jvmticheck_agent_of(env), function, param, text, 0, 0, call_site()};
    if (seen_before(&k))
        return;
    seen *rec;
    jvmticheck_finding local, *f = new_finding(&rec, &local);
    f->rule = jvmticheck_rule_of(0, text);
    f->function = function;
    f->param = param;
    snprintf(f->message, sizeof f->message, "%s", text);
    found(&k, rec, f, 1);
}

/* A leak line: a finding of its own, made once per function at unload. */
void jvmticheck_leak(jvmticheck_agent *a, const char *function, size_t count)
{
    static const char leak_rule[] = "never deallocated";
    finding_key k = {a, function, NULL, leak_rule, 0, (int)count, NULL};
    if (seen_before(&k))
        return;
    seen *rec;
    jvmticheck_finding local, *f = new_finding(&rec, &local);
    f->rule = jvmticheck_rule_of(0, leak_rule);
    f->function = function;
    snprintf(f->message, sizeof f->message, "%zu buffer%s never deallocated (memory leak)", count,
             count == 1 ? "" : "s");
    found(&k, rec, f, 0);
}
