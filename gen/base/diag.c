#include "base/diag.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

typedef struct Pending {
    char *file; /* a copy: libxml2 frees its own file names with the parser */
    int line;
    size_t seq;
    DiagLevel level;
    char *text;
} Pending;

static Pending *pending;
static size_t n_pending, cap_pending, seq;
static int errors;
static FILE *stream;
static int quiet;
static int max_errors, shown_errors;

void diag_set_stream(FILE *f) { stream = f; }
void diag_set_quiet(int q) { quiet = q; }
void diag_set_max_errors(int max) { max_errors = max; }
int diag_error_count(void) { return errors; }

void diag_reset(void)
{
    for (size_t i = 0; i < n_pending; i++) {
        free(pending[i].file);
        free(pending[i].text);
    }
    free(pending);
    pending = NULL;
    n_pending = cap_pending = 0;
    errors = 0;
    shown_errors = 0;
}

/* A diagnostic is one line: a line break inside (libxml2 puts some in its
 * messages; a spec's text quoted in one may hold any) becomes a space, and
 * any other control character a \xNN escape, so that every line of the
 * output starts with FILE:LINE. */
static bool is_control(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; }

static void one_line(Buf *b)
{
    size_t i = 0;
    while (i < b->len && !is_control((unsigned char)b->data[i]))
        i++;
    if (i == b->len)
        return;
    Buf t;
    buf_init(&t);
    for (i = 0; i < b->len; i++) {
        unsigned char c = (unsigned char)b->data[i];
        if (c == '\n' || c == '\r') {
            if (t.len && t.data[t.len - 1] != ' ')
                buf_putc(&t, ' ');
        } else if (is_control(c)) {
            buf_printf(&t, "\\x%02x", c);
        } else {
            buf_putc(&t, (char)c);
        }
    }
    buf_free(b);
    *b = t;
}

static const char *level_name(DiagLevel l)
{
    return l == DIAG_ERROR ? "error" : l == DIAG_WARNING ? "warning" : "note";
}

void diag(DiagLevel level, const Loc *loc, const char *fmt, ...)
{
    Buf b;
    buf_init(&b);
    if (loc && loc->file && loc->line > 0)
        buf_printf(&b, "%s:%d: ", loc->file, loc->line);
    else if (loc && loc->file)
        buf_printf(&b, "%s: ", loc->file);
    else
        buf_puts(&b, "jvmtigen: ");
    buf_printf(&b, "%s: ", level_name(level));
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    /* libxml2 messages carry their own newline; keep exactly one. */
    while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == ' '))
        b.data[--b.len] = '\0';
    one_line(&b);
    if (level == DIAG_ERROR)
        errors++;
    if (n_pending == cap_pending) {
        cap_pending = cap_pending ? cap_pending * 2 : 16;
        pending = xrealloc(pending, cap_pending * sizeof *pending);
    }
    char *file = loc && loc->file ? xstrdup(loc->file) : NULL;
    pending[n_pending++] = (Pending){file, loc ? loc->line : 0, seq++, level, b.data};
}

static int cmp_pending(const void *pa, const void *pb)
{
    const Pending *a = pa, *b = pb;
    int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int diag_flush(void)
{
    FILE *out = stream ? stream : stderr;
    int printed = 0;
    size_t held = 0;
    if (n_pending > 1) /* qsort's array may not be NULL, even when empty */
        qsort(pending, n_pending, sizeof *pending, cmp_pending);
    for (size_t i = 0; i < n_pending; i++) {
        bool error = pending[i].level == DIAG_ERROR;
        if (error && max_errors > 0 && shown_errors >= max_errors) {
            held++;
        } else if (error || !quiet) {
            printed += error;
            shown_errors += error;
            fprintf(out, "%s\n", pending[i].text);
        }
        free(pending[i].file);
        free(pending[i].text);
    }
    n_pending = 0;
    /* Like a compiler's -fmax-errors: one spec gave 96,204 lines. */
    if (held)
        fprintf(out, "jvmtigen: note: %zu more error%s not shown (--max-errors %d)\n", held,
                held == 1 ? "" : "s", max_errors);
    fflush(out);
    return printed;
}
