/* Call tracing behind jvmtigen_traced_functions: which functions are traced
 * (name patterns), and how a traced call becomes one line of text. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmtigen_trace.h"

/* ---- selection ---- */

/* Glob match of name against pat[0..n): '*' any run, '?' one character. */
static int glob_match(const char *pat, size_t n, const char *name)
{
    size_t p = 0, star = (size_t)-1;
    const char *s = name, *mark = NULL;
    while (*s) {
        if (p < n && (pat[p] == '?' || pat[p] == *s)) {
            p++;
            s++;
        } else if (p < n && pat[p] == '*') {
            star = p++;
            mark = s;
        } else if (star != (size_t)-1) {
            p = star + 1;
            s = ++mark;
        } else {
            return 0;
        }
    }
    while (p < n && pat[p] == '*')
        p++;
    return p == n;
}

int jvmtigen_trace_configure(const char *patterns)
{
    int i, on = 0;
    memset(jvmtigen_trace_flags, 0, sizeof jvmtigen_trace_flags);
    for (const char *p = patterns ? patterns : ""; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int value = 1;
        while (n && (*p == ' ' || *p == '\t'))
            p++, n--;
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        if (n && *p == '-') {
            value = 0;
            p++, n--;
        }
        for (i = 1; n && i < JVMTIGEN_FUNCTION_SLOTS; i++) {
            const jvmtigen_function_info *f = &jvmtigen_functions_info[i];
            if (f->name && f->traceable && glob_match(p, n, f->name))
                jvmtigen_trace_flags[i] = (unsigned char)value;
        }
        p = e ? e + 1 : p + n;
        if (!e)
            break;
    }
    for (i = 0; i < JVMTIGEN_FUNCTION_SLOTS; i++)
        on += jvmtigen_trace_flags[i];
    return on;
}

/* ---- output ---- */

static FILE *trace_file;

static void default_sink(const char *line, size_t len)
{
    FILE *f = trace_file ? trace_file : stderr;
    fwrite(line, 1, len, f); /* one call: stdio keeps the line whole */
    fflush(f);
}

static jvmtigen_trace_sink_fn sink = default_sink;

void jvmtigen_trace_set_sink(jvmtigen_trace_sink_fn s) { sink = s ? s : default_sink; }

int jvmtigen_trace_configure_from_env(void)
{
    const char *file = getenv("JVMTI_TRACE_FILE");
    int rc = 0;
    if (file && *file) {
        FILE *f = fopen(file, "a");
        if (f) {
            if (trace_file)
                fclose(trace_file);
            trace_file = f;
        } else {
            fprintf(stderr, "jvmti: cannot open JVMTI_TRACE_FILE '%s'; tracing to stderr\n", file);
            rc = -1;
        }
    }
    int on = jvmtigen_trace_configure(getenv("JVMTI_TRACE"));
    return rc < 0 ? rc : on;
}

/* ---- one line ---- */

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Appends, keeping room for the "...\n" that marks a cut line. */
static void put(jvmtigen_trace_call *c, const char *fmt, ...)
{
    size_t room = sizeof c->line - 5;
    if (c->len >= room)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->line + c->len, room - c->len, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    c->len = (size_t)n < room - c->len ? c->len + (size_t)n : room;
}

static void item(jvmtigen_trace_call *c, const char *name)
{
    if (c->stage == 0)
        put(c, c->items ? ", %s=" : "%s=", name);
    else
        put(c, c->items ? ", %s=" : "; %s=", name);
    c->items++;
}

void jvmtigen_trace_begin(jvmtigen_trace_call *c, jvmtiEnv *env, const char *function)
{
    c->len = 0;
    c->items = 0;
    c->stage = 0;
    c->t0 = c->t1 = 0;
    put(c, "jvmti: [env %p] %s(", (void *)env, function);
}

void jvmtigen_trace_int(jvmtigen_trace_call *c, const char *name, jlong v)
{
    item(c, name);
    put(c, "%lld", (long long)v);
}

void jvmtigen_trace_double(jvmtigen_trace_call *c, const char *name, double v)
{
    item(c, name);
    put(c, "%g", v);
}

void jvmtigen_trace_bool(jvmtigen_trace_call *c, const char *name, jboolean v)
{
    item(c, name);
    put(c, "%s", v ? "true" : "false");
}

void jvmtigen_trace_char(jvmtigen_trace_call *c, const char *name, char v)
{
    item(c, name);
    if (v >= 0x20 && v < 0x7f && v != '\'' && v != '\\')
        put(c, "'%c'", v);
    else
        put(c, "0x%02x", (unsigned)(unsigned char)v);
}

void jvmtigen_trace_ptr(jvmtigen_trace_call *c, const char *name, const void *p)
{
    item(c, name);
    if (p)
        put(c, "%p", p);
    else
        put(c, "NULL");
}

void jvmtigen_trace_str(jvmtigen_trace_call *c, const char *name, const char *s)
{
    item(c, name);
    if (!s) {
        put(c, "NULL");
        return;
    }
    put(c, "\"");
    /* At most 200 characters; control characters, quotes and bytes above
     * 0x7e escaped, so one call stays one line. */
    size_t i;
    for (i = 0; s[i] && i < 200; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            put(c, "\\%c", ch);
        else if (ch < 0x20 || ch > 0x7e)
            put(c, "\\x%02x", ch);
        else
            put(c, "%c", ch);
    }
    put(c, s[i] ? "\"..." : "\"");
}

void jvmtigen_trace_raw(jvmtigen_trace_call *c, const char *name, const char *text)
{
    item(c, name);
    put(c, "%s", text);
}

void jvmtigen_trace_const(jvmtigen_trace_call *c, const char *name, jlong v,
                          const jvmtigen_constant_group *g)
{
    item(c, name);
    if (!g->is_bits) {
        const char *n = jvmtigen_constant_name(g, v);
        if (n)
            put(c, "%s", n);
        else
            put(c, "%lld (not a %s)", (long long)v, g->name);
        return;
    }
    /* Flags: each named bit that is set, then what no name explains. */
    jlong rest = v;
    int any = 0;
    for (int i = 0; i < g->count; i++) {
        jlong b = g->constants[i].value;
        if (b != 0 && (v & b) == b) {
            put(c, any ? "|%s" : "%s", g->constants[i].name);
            rest &= ~b;
            any = 1;
        }
    }
    if (rest || !any)
        put(c, any ? "|0x%llx" : "0x%llx", (unsigned long long)rest);
}

void jvmtigen_trace_call_start(jvmtigen_trace_call *c)
{
    put(c, ")");
    c->t0 = now_ns();
}

void jvmtigen_trace_result(jvmtigen_trace_call *c, jvmtiError err)
{
    c->t1 = now_ns();
    const char *n = jvmtigen_error_name(err);
    if (n)
        put(c, " = %s", n);
    else
        put(c, " = %d", (int)err);
    c->stage = 1;
    c->items = 0;
}

void jvmtigen_trace_end(jvmtigen_trace_call *c)
{
    put(c, " (%lld ns)", c->t1 - c->t0);
    if (c->len >= sizeof c->line - 5) {
        memcpy(c->line + c->len, "...", 3);
        c->len += 3;
    }
    c->line[c->len++] = '\n';
    c->line[c->len] = '\0';
    sink(c->line, c->len);
}
