/* The roff extension functions of the man pages (jg:roff-text,
 * jg:roff-arg, jg:roff-lines, jg:roff-escape). */
#include "docs/state.h"

#include <string.h>

#include <libxml/xpathInternals.h>
#include <libxslt/extensions.h>

/* Roff escaping, done here because it runs on every text node of every
 * man page and costs several times more as XSLT string recursion. */

/* Appends s[0..n) with each backslash as \e and, with quotes, each double
 * quote as \(dq: in a macro's argument a quote would end it (.IR "a"b")
 * or be taken away (.SS a "b" c shows a b c); in running text \(dq shows as
 * the same quote. Verbatim lines (.nf) are no macro's and keep theirs. */
static void roff_escape(Buf *b, const char *s, size_t n, bool quotes)
{
    size_t run = 0; /* the bytes since the last escape, appended at once */
    for (size_t i = 0; i < n; i++) {
        const char *e = s[i] == '\\' ? "\\e" : s[i] == '"' && quotes ? "\\(dq" : NULL;
        if (e) {
            buf_put(b, s + run, i - run);
            buf_puts(b, e);
            run = i + 1;
        }
    }
    buf_put(b, s + run, n - run);
}

/* A line that would start with a dot or an apostrophe (a roff request) is
 * guarded with \&. */
static void roff_guard(Buf *b, const char *s, size_t n)
{
    if (n > 0 && (s[0] == '.' || s[0] == '\''))
        buf_put(b, "\\&", 2);
}

/* What roff_collapse does with a byte: 1 white space, 2 an escape, 3 the
 * string's end. */
static const unsigned char roff_class[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\\'] = 2, ['"'] = 2, ['\0'] = 3,
};

/* Running text for roff: white space collapsed to single blanks (a
 * newline too: text never ends a line), one kept at either end where S had
 * any; escaped as roff_escape with quotes; with guard, a leading dot or
 * apostrophe guarded as roff_guard. One pass into room reserved at once, a
 * word's plain bytes copied in a loop of their own: it runs on every text
 * node of the man pages (a word at a time it cost 860 instructions a call
 * on JDK 25's, about 19 a byte; each byte through one loop of every case,
 * 6.1M in all; this, 4.9M). */
static void roff_collapse(Buf *b, const char *s, bool guard)
{
    size_t len = strlen(s);
    /* at most 4 bytes a byte (\(dq), a blank at either end, \& */
    buf_grow(b, 4 * len + 4);
    char *o = b->data + b->len;
    const unsigned char *p = (const unsigned char *)s;
    if (len > 0 && is_xml_space(s[0]))
        *o++ = ' ';
    bool words = false;
    for (;;) {
        unsigned char k;
        while ((k = roff_class[*p]) == 1)
            p++;
        if (k == 3)
            break;
        if (words) {
            *o++ = ' ';
        } else if (guard && (*p == '.' || *p == '\'')) {
            *o++ = '\\';
            *o++ = '&';
        }
        words = true;
        for (;;) { /* the word */
            while (!(k = roff_class[*p]))
                *o++ = (char)*p++;
            if (k != 2)
                break;
            if (*p++ == '\\') {
                *o++ = '\\';
                *o++ = 'e';
            } else {
                memcpy(o, "\\(dq", 4);
                o += 4;
            }
        }
        if (k == 3)
            break;
    }
    if (words && is_xml_space(s[len - 1]))
        *o++ = ' ';
    b->len = (size_t)(o - b->data);
    b->data[b->len] = '\0';
}

/* jg:roff-text(S): text that may begin a line. */
static void roff_text(Buf *b, const char *s, const DocsState *st)
{
    (void)st;
    roff_collapse(b, s, true);
}

/* jg:roff-arg(S): text inside a macro's quoted argument, which cannot
 * begin a line, so a leading dot stays as it is ("..."). */
static void roff_arg(Buf *b, const char *s, const DocsState *st)
{
    (void)st;
    roff_collapse(b, s, false);
}

/* jg:roff-escape(S): S with each backslash as \e and each double quote as
 * \(dq, nothing else changed. */
static void roff_escape_all(Buf *b, const char *s, const DocsState *st)
{
    (void)st;
    roff_escape(b, s, strlen(s), true);
}

/* jg:roff-lines(S): verbatim text for inside .nf/.fi: each line escaped
 * and guarded, the line breaks kept. */
static void roff_lines(Buf *b, const char *s, const DocsState *st)
{
    (void)st;
    for (const char *p = s;;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        roff_guard(b, p, n);
        roff_escape(b, p, n, false);
        if (!nl)
            break;
        buf_putc(b, '\n');
        p = nl + 1;
    }
}

static void fn_roff_text(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, roff_text);
}

static void fn_roff_arg(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, roff_arg);
}

static void fn_roff_escape(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, roff_escape_all);
}

static void fn_roff_lines(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, roff_lines);
}

void register_roff_functions(xsltTransformContextPtr t)
{
    xsltRegisterExtFunction(t, BAD_CAST "roff-text", BAD_CAST DOCS_NS, fn_roff_text);
    xsltRegisterExtFunction(t, BAD_CAST "roff-arg", BAD_CAST DOCS_NS, fn_roff_arg);
    xsltRegisterExtFunction(t, BAD_CAST "roff-lines", BAD_CAST DOCS_NS, fn_roff_lines);
    xsltRegisterExtFunction(t, BAD_CAST "roff-escape", BAD_CAST DOCS_NS, fn_roff_escape);
}
