/* The findings' other forms, each asked for by an option of the agent's:
 * format=json (one JSON object a line instead of the text line), sarif=FILE
 * (a SARIF 2.1.0 report written at exit), suppressions=FILE (findings it
 * names are neither printed nor counted) and suppressions-out=FILE (a
 * suppressions file naming what the run found, written at exit). */
#define _GNU_SOURCE /* open_memstream, strndup */
#include <ctype.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output.h"

/* One suppression: each field NULL (any) or an fnmatch pattern. */
enum { S_RULE, S_FUNCTION, S_PARAM, S_OBJECT, S_SYMBOL, S_OFFSET, S_FIELDS };
static const char *const field_names[S_FIELDS] = {"rule", "function", "param", "object", "symbol", "offset"};
typedef struct suppression {
    char *field[S_FIELDS];
} suppression;

/* What the agent's options asked for. Made while its options are parsed
 * (one agent at a time), published for the threads that find. */
typedef struct outputs {
    jvmticheck_agent *agent;
    int json;
    int sarif_fd, supp_out_fd; /* opened (and emptied) at load; -1: none */
    suppression *supps;
    size_t n_supps;
    struct outputs *next;
} outputs;
static outputs *all_outputs;

static outputs *outputs_of(jvmticheck_agent *a)
{
    for (outputs *o = __atomic_load_n(&all_outputs, __ATOMIC_ACQUIRE); o; o = o->next)
        if (o->agent == a)
            return o;
    return NULL;
}

static outputs *outputs_new(jvmticheck_agent *a)
{
    outputs *o = outputs_of(a);
    if (o)
        return o;
    o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->agent = a;
    o->sarif_fd = o->supp_out_fd = -1;
    o->next = all_outputs;
    __atomic_store_n(&all_outputs, o, __ATOMIC_RELEASE);
    return o;
}

/* `jvmticheck: ` and text (escaped pieces already), as agent.c's say. */
static void complain(const char *fmt, const char *a, long line, const char *b)
{
    char text[1200], ea[400], eb[400];
    jvmticheck_escape(ea, sizeof ea, a);
    jvmticheck_escape(eb, sizeof eb, b);
    int n = snprintf(text, sizeof text - 1, fmt, ea, line, eb);
    if (n < 0)
        return;
    if ((size_t)n > sizeof text - 2)
        n = (int)sizeof text - 2;
    text[n] = '\n';
    jvmticheck_write(text, (size_t)n + 1);
}

/* A suppressions file: one suppression a line, `KEY=PATTERN` fields
 * separated by blanks; `#` starts a comment. */
static int read_suppressions(outputs *o, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        complain("jvmticheck: cannot read suppressions file %s%.0ld%s", path, 0, "");
        return 0;
    }
    char *text = NULL;
    size_t cap = 0;
    long lineno = 0;
    int ok = 1;
    while (ok && getline(&text, &cap, f) >= 0) {
        lineno++;
        char *hash = strchr(text, '#');
        if (hash)
            *hash = '\0';
        suppression s;
        memset(&s, 0, sizeof s);
        int fields = 0;
        for (char *save = NULL, *tok = strtok_r(text, " \t\r\n", &save); ok && tok;
             tok = strtok_r(NULL, " \t\r\n", &save)) {
            char *eq = strchr(tok, '=');
            int k = 0;
            while (eq && k < S_FIELDS &&
                   !(strlen(field_names[k]) == (size_t)(eq - tok) && strncmp(tok, field_names[k], (size_t)(eq - tok)) == 0))
                k++;
            if (!eq || k == S_FIELDS || !eq[1] || s.field[k]) {
                complain("jvmticheck: %s:%ld: error: '%s': expected rule=, function=, param=, object=, symbol= or "
                         "offset= and a pattern, each once", path, lineno, tok);
                ok = 0;
                break;
            }
            s.field[k] = strdup(eq + 1);
            fields++;
        }
        if (!ok || fields == 0) {
            for (int k = 0; k < S_FIELDS; k++)
                free(s.field[k]);
            continue;
        }
        suppression *more = realloc(o->supps, (o->n_supps + 1) * sizeof *more);
        if (!more) {
            ok = 0;
            break;
        }
        o->supps = more;
        o->supps[o->n_supps++] = s;
    }
    free(text);
    fclose(f);
    return ok;
}

static int open_output(const char *key, const char *path, int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (*fd < 0) {
        complain("jvmticheck: %s=%.0ld%s: cannot create the file", key, 0, path);
        return 0;
    }
    return 1;
}

int jvmticheck_output_option(jvmticheck_agent *a, const char *key, const char *value)
{
    int format = strcmp(key, "format") == 0, sarif = strcmp(key, "sarif") == 0,
        supp = strcmp(key, "suppressions") == 0, supp_out = strcmp(key, "suppressions-out") == 0;
    if (!format && !sarif && !supp && !supp_out)
        return -1;
    if (format && strcmp(value, "text") != 0 && strcmp(value, "json") != 0) {
        complain("jvmticheck: format=%s: expected text or json%.0ld%s", value, 0, "");
        return 0;
    }
    if (!*value) {
        complain("jvmticheck: %s= needs a file%.0ld%s", key, 0, "");
        return 0;
    }
    outputs *o = outputs_new(a);
    if (!o)
        return 0;
    if (format)
        o->json = strcmp(value, "json") == 0;
    if (sarif)
        return open_output(key, value, &o->sarif_fd);
    if (supp_out)
        return open_output(key, value, &o->supp_out_fd);
    if (supp)
        return read_suppressions(o, value);
    return 1;
}

int jvmticheck_output_json(jvmticheck_agent *a)
{
    outputs *o = a ? outputs_of(a) : NULL;
    return o && o->json;
}

/* The time, and the calling thread's name, asked of the checker's own
 * environment (as events.c does for the event trace): none on a thread
 * the VM does not know, or before it has threads. */
void jvmticheck_output_when(jvmticheck_finding *f)
{
    struct timespec ts;
    struct tm tm;
    void *jni = NULL;
    jvmtiThreadInfo info;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(f->time, sizeof f->time, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(f->time + n, sizeof f->time - n, ".%09ldZ", ts.tv_nsec);
    f->has_thread = 0;
    /* Only the JSON line and the SARIF report show the thread. */
    outputs *o = outputs_of(f->agent);
    if (!o || (!o->json && o->sarif_fd < 0))
        return;
    if (!jvmticheck_vm || !jvmticheck_self ||
        (*jvmticheck_vm)->GetEnv(jvmticheck_vm, &jni, JNI_VERSION_1_2) != JNI_OK)
        return;
    memset(&info, 0, sizeof info);
    if ((*jvmticheck_self)->GetThreadInfo(jvmticheck_self, NULL, &info) != JVMTI_ERROR_NONE || !info.name)
        return;
    jvmticheck_escape(f->thread, sizeof f->thread, info.name);
    f->has_thread = 1;
    (*jvmticheck_self)->Deallocate(jvmticheck_self, (unsigned char *)info.name);
}

static int matches(const char *pattern, const char *value)
{
    return !pattern || (value && fnmatch(pattern, value, 0) == 0);
}

int jvmticheck_output_suppressed(const jvmticheck_finding *f)
{
    outputs *o = outputs_of(f->agent);
    char offset[32];
    snprintf(offset, sizeof offset, "0x%llx", f->offset);
    for (size_t i = 0; o && i < o->n_supps; i++) {
        char *const *s = o->supps[i].field;
        if (matches(s[S_RULE], f->rule) && matches(s[S_FUNCTION], f->function) &&
            matches(s[S_PARAM], f->param) && matches(s[S_OBJECT], f->has_site ? f->object : NULL) &&
            matches(s[S_SYMBOL], f->has_symbol ? f->symbol : NULL) &&
            matches(s[S_OFFSET], f->has_site ? offset : NULL))
            return 1;
    }
    return 0;
}

/* s as a JSON string (NULL as null). The strings are already escaped for
 * the text line, so only the quote and backslash that escaping wrote need
 * JSON's. */
static void json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    putc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch > 0x7e)
            fprintf(out, "\\u%04x", ch);
        else
            putc(ch, out);
    }
    putc('"', out);
}

static void json_fields(FILE *m, const jvmticheck_finding *f)
{
    fputs("\"rule\":", m);
    json_string(m, f->rule);
    fputs(",\"function\":", m);
    json_string(m, f->function);
    fputs(",\"parameter\":", m);
    json_string(m, f->param);
    fputs(",\"error\":", m);
    json_string(m, f->error);
    fputs(",\"message\":", m);
    json_string(m, f->message);
    fputs(",\"site\":", m);
    if (f->has_site) {
        fputs("{\"symbol\":", m);
        json_string(m, f->has_symbol ? f->symbol : NULL);
        fputs(",\"object\":", m);
        json_string(m, f->object);
        fprintf(m, ",\"offset\":\"0x%llx\"}", f->offset);
    } else {
        fputs("null", m);
    }
    fputs(",\"thread\":", m);
    json_string(m, f->has_thread ? f->thread : NULL);
    fputs(",\"time\":", m);
    json_string(m, f->time);
    fputs(",\"agent\":", m);
    json_string(m, f->agent ? f->agent->name : NULL);
}

/* Writes the memory stream's text into out (cut to fit). */
static void take(FILE *m, char **buf, char *out, size_t n)
{
    fclose(m);
    snprintf(out, n, "%s", *buf ? *buf : "");
    free(*buf);
}

void jvmticheck_output_json_line(const jvmticheck_finding *f, unsigned long long count, char *out, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        snprintf(out, n, "{}\n");
        return;
    }
    fprintf(m, "{\"jvmticheck\":\"%s\",", count ? "repeated" : "finding");
    if (count)
        fprintf(m, "\"count\":%llu,", count);
    json_fields(m, f);
    fputs("}\n", m);
    take(m, &buf, out, n);
}

void jvmticheck_output_summary(jvmticheck_agent *a, unsigned long long findings, unsigned long long distinct,
                               unsigned long long suppressed)
{
    char *buf = NULL, line[600];
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    fprintf(m, "{\"jvmticheck\":\"summary\",\"findings\":%llu,\"distinct\":%llu,\"suppressed\":%llu,\"agent\":",
            findings, distinct, suppressed);
    json_string(m, a->name);
    fputs("}\n", m);
    take(m, &buf, line, sizeof line);
    jvmticheck_write_fd(a->log_fd, line, strlen(line));
}

/* The text line of a finding (as finding.c prints it), without its
 * newline: SARIF's message. */
static void text_of(FILE *m, const jvmticheck_finding *f)
{
    fprintf(m, "%s: %s%s%s", f->function, f->param ? f->param : "", f->param ? " " : "", f->message);
    if (f->error)
        fprintf(m, " (%s)", f->error);
}

static void write_all(int fd, FILE *m, char **buf)
{
    fclose(m);
    if (*buf)
        jvmticheck_write_fd(fd, *buf, strlen(*buf));
    free(*buf);
}

/* SARIF's artifact URI: the object's file name, percent-encoded past
 * the characters a relative reference may hold as they are. */
static void uri_of(FILE *m, const char *name)
{
    putc('"', m);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (isalnum(*p) || strchr("-._~+", *p))
            putc(*p, m);
        else
            fprintf(m, "%%%02X", *p);
    putc('"', m);
}

static void write_sarif(int fd, jvmticheck_agent *a, const jvmticheck_finding *const *all,
                        const unsigned long long *counts, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
          "  \"runs\": [\n    {\n      \"tool\": {\n        \"driver\": {\n          \"name\": \"jvmticheck\",\n"
          "          \"version\": \"" JVMTIGEN_VERSION "\",\n"
          "          \"rules\": [",
          m);
    for (size_t r = 0; r < jvmticheck_n_rules; r++) {
        fprintf(m, "%s\n            {\"id\": ", r ? "," : "");
        json_string(m, jvmticheck_rules[r].id);
        fputs(", \"shortDescription\": {\"text\": ", m);
        json_string(m, jvmticheck_rules[r].text);
        fputs("}}", m);
    }
    fputs("\n          ]\n        }\n      },\n      \"results\": [", m);
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        const jvmticheck_finding *f = all[i];
        if (f->agent != a)
            continue;
        size_t r = 0;
        while (r + 1 < jvmticheck_n_rules && strcmp(jvmticheck_rules[r].id, f->rule) != 0)
            r++;
        fprintf(m, "%s\n        {\"ruleId\": ", first ? "" : ",");
        first = 0;
        json_string(m, f->rule);
        fprintf(m, ", \"ruleIndex\": %zu, \"level\": \"error\", \"message\": {\"text\": ", r);
        char *text = NULL;
        size_t tlen = 0;
        FILE *t = open_memstream(&text, &tlen);
        if (t) {
            text_of(t, f);
            fclose(t);
        }
        json_string(m, text ? text : "");
        free(text);
        fputs("}", m);
        if (f->has_site) {
            fputs(", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", m);
            uri_of(m, f->object);
            fprintf(m, "}, \"address\": {\"absoluteAddress\": %llu, \"kind\": \"instruction\"", f->offset);
            if (f->has_symbol) {
                fputs(", \"fullyQualifiedName\": ", m);
                json_string(m, f->symbol);
            }
            fputs("}}", m);
            if (f->has_symbol) {
                fputs(", \"logicalLocations\": [{\"name\": ", m);
                json_string(m, f->symbol);
                fputs(", \"kind\": \"function\"}]", m);
            }
            fputs("}]", m);
        }
        fprintf(m, ", \"occurrenceCount\": %llu", counts[i]);
        if (f->suppressed)
            fputs(", \"suppressions\": [{\"kind\": \"external\"}]", m);
        fputs(", \"properties\": {", m);
        json_fields(m, f);
        fputs("}}", m);
    }
    fputs("\n      ]\n    }\n  ]\n}\n", m);
    write_all(fd, m, &buf);
}

/* A value as a pattern that matches only it: fnmatch's special characters
 * escaped, a blank (which would end the field) as `?`. */
static void pattern_of(FILE *m, const char *s)
{
    for (; *s; s++)
        if (strchr("*?[]\\", *s))
            fprintf(m, "\\%c", *s);
        else if (isspace((unsigned char)*s))
            putc('?', m);
        else
            putc(*s, m);
}

/* One line per distinct finding not suppressed already (a line the same
 * as one before is left out): its rule, function and parameter, and the
 * call site by its object and symbol, or its offset where it has none (a
 * symbol outlives a rebuild of the agent, an offset does not). */
static void write_suppressions(int fd, jvmticheck_agent *a, const jvmticheck_finding *const *all, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    fputs("# jvmticheck suppressions (suppressions=FILE), one a line: what this run found\n", m);
    for (size_t i = 0; i < n; i++) {
        const jvmticheck_finding *f = all[i];
        if (f->agent != a || f->suppressed)
            continue;
        char *line = NULL;
        size_t llen = 0;
        FILE *l = open_memstream(&line, &llen);
        if (!l)
            continue;
        fputs("\nrule=", l); /* with the newline before it: found whole in buf */
        pattern_of(l, f->rule);
        fputs(" function=", l);
        pattern_of(l, f->function);
        if (f->param) {
            fputs(" param=", l);
            pattern_of(l, f->param);
        }
        if (f->has_site) {
            fputs(" object=", l);
            pattern_of(l, f->object);
            if (f->has_symbol) {
                fputs(" symbol=", l);
                pattern_of(l, f->symbol);
            } else {
                fprintf(l, " offset=0x%llx", f->offset);
            }
        }
        fputc('\n', l);
        fclose(l);
        fflush(m);
        if (line && buf && !strstr(buf, line))
            fputs(line + 1, m);
        free(line);
    }
    write_all(fd, m, &buf);
}

void jvmticheck_output_files(jvmticheck_agent *a, const jvmticheck_finding *const *all,
                             const unsigned long long *counts, size_t n)
{
    outputs *o = outputs_of(a);
    if (!o)
        return;
    /* Written once: at exit, or before fatal mode's abort. */
    int fd = __atomic_exchange_n(&o->sarif_fd, -1, __ATOMIC_ACQ_REL);
    if (fd >= 0) {
        write_sarif(fd, a, all, counts, n);
        close(fd);
    }
    fd = __atomic_exchange_n(&o->supp_out_fd, -1, __ATOMIC_ACQ_REL);
    if (fd >= 0) {
        write_suppressions(fd, a, all, n);
        close(fd);
    }
}
