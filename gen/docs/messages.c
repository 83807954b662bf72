/* What libxml2 and libxslt report while the templates compile and run,
 * as FILE:LINE: error: diagnostics, each (place, message) said once. */
#include "docs/state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlerror.h>
#include <libxslt/xsltutils.h>

static DocsState *cur; /* the loader and error handlers have no user data */

const char *keep_name(DocsState *st, const char *name)
{
    char *copy = xstrdup(name);
    vec_push(&st->files, copy);
    return copy;
}

/* A template's error at run time comes once per node it runs on: a call of
 * a missing named template inside a loop gave hundreds of equal lines. Each
 * (place, message) is reported once; it still counts as an error. */
static void report(DocsState *st, DiagLevel level, const Loc *loc, const char *msg)
{
    Buf key;
    buf_init(&key);
    buf_printf(&key, "%s:%d: %d %s", loc->file ? loc->file : "", loc->line, (int)level, msg);
    if (strmap_get(&st->said, key.data)) {
        st->repeated_errors += level == DIAG_ERROR;
        buf_free(&key);
        return;
    }
    strmap_put(&st->said, arena_strdup(st->keys, key.data), st);
    buf_free(&key);
    diag(level, loc, "%s", msg);
}

/* Errors so far, the ones not repeated included: a page whose only errors
 * were reported on an earlier page has failed too. */
int errors_so_far(const DocsState *st) { return diag_error_count() + st->repeated_errors; }

/* libxml2's errors (a template that is not well-formed XML, a bad XPath
 * expression) come with a file and a line. */
static void on_xml_error(void *data, xmlErrorPtr e)
{
    (void)data;
    if (!e || e->level == XML_ERR_NONE || !cur)
        return;
    Loc loc = {e->file ? keep_name(cur, e->file) : NULL, e->line};
    report(cur, e->level == XML_ERR_WARNING ? DIAG_WARNING : DIAG_ERROR, &loc,
           e->message ? e->message : "XML error");
}

/* libxslt's come as printf pieces: a context line ("compilation error: file
 * F line N element E") and then the message. They are collected and turned
 * into FILE:LINE: error: lines by flush_messages. */
static void on_xslt_error(void *data, const char *fmt, ...)
{
    (void)data;
    if (!cur)
        return;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&cur->messages, fmt, ap);
    va_end(ap);
}

/* A line of messages that starts with HELD is a refusal of the sandbox
 * that came without a place (an xsl:include's file is opened with no
 * parser position): it is said at the place of libxslt's context line
 * that follows it, the include's. */
#define HELD '\001'

void flush_messages(DocsState *st, const char *fallback_file)
{
    Loc loc = {fallback_file, 0};
    Vec held = {0};
    char *p = st->messages.data;
    while (p && *p) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        char file[1024];
        int line;
        const char *ctx = strstr(p, "error: file ");
        if (*p == HELD) {
            vec_push(&held, p + 1);
        } else if (ctx && sscanf(ctx, "error: file %1023s line %d", file, &line) == 2) {
            loc.file = keep_name(st, file);
            loc.line = line;
            for (size_t i = 0; i < held.n; i++)
                report(st, DIAG_ERROR, &loc, held.items[i]);
            held.n = 0;
        } else if (*p) {
            report(st, DIAG_ERROR, &loc, p);
        }
        p = nl ? nl + 1 : NULL;
    }
    for (size_t i = 0; i < held.n; i++)
        report(st, DIAG_ERROR, &loc, held.items[i]);
    vec_free(&held);
    buf_reset(&st->messages);
}

/* The sandbox refused a read (sandbox.h). */
void on_refused(const char *file, int line, bool warning, const char *message)
{
    if (!cur)
        return;
    if (file || warning) {
        Loc loc = {file ? keep_name(cur, file) : NULL, line};
        report(cur, warning ? DIAG_WARNING : DIAG_ERROR, &loc, message);
        return;
    }
    if (cur->messages.len && cur->messages.data[cur->messages.len - 1] != '\n')
        buf_putc(&cur->messages, '\n');
    buf_printf(&cur->messages, "%c%s\n", HELD, message);
}

void messages_start(DocsState *st)
{
    cur = st;
    xsltSetGenericErrorFunc(NULL, on_xslt_error);
    xmlSetGenericErrorFunc(NULL, on_xslt_error);
    xmlSetStructuredErrorFunc(NULL, on_xml_error);
}

void messages_stop(void)
{
    xsltSetGenericErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
    xmlSetStructuredErrorFunc(NULL, NULL);
    cur = NULL;
}
