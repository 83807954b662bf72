#include "model/ctype.h"

#include <stdbool.h>
#include <string.h>

void ctype_append(Buf *b, const Type *t)
{
    const TypeKindInfo *k = &type_kinds[t->kind];
    if (k->wrapper) {
        buf_puts(b, k->prefix);
        ctype_append(b, t->elem);
        for (int i = 0; i < k->stars; i++)
            buf_putc(b, '*');
    } else {
        buf_puts(b, k->c ? k->c : t->name);
    }
}

bool param_in_signature(const Param *p) { return !(p->type->kind == TK_JCLASS && p->type->method); }

bool param_in_call(const Param *p) { return param_in_signature(p) && p->type->kind != TK_VARARGS; }

void cparam_append(Buf *b, const Param *p)
{
    ctype_append(b, p->type);
    buf_putc(b, ' ');
    buf_puts(b, p->type->kind == TK_VARARGS ? "..." : p->name);
}

void cparams_append(Buf *b, Param **ps, size_t n, const char *sep)
{
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (!param_in_signature(ps[i]))
            continue;
        if (!first)
            buf_puts(b, sep);
        cparam_append(b, ps[i]);
        first = false;
    }
}

/* Whether only spaces and tabs stand between s and the end of its line (or
 * of the text, which an emitter may follow with a line break). */
static bool at_line_end(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\n' || *s == '\r' || *s == '\0';
}

void comment_text_append(Buf *b, const char *s)
{
    for (; *s; s++) {
        size_t plain = strcspn(s, "*/\\?"); /* what needs no look: copied at once */
        buf_put(b, s, plain);
        s += plain;
        if (!*s)
            break;
        buf_putc(b, *s);
        /* The comment must not end early: not by a star and a slash, nor
         * by one split over two lines by a backslash ending the first (C
         * joins such lines before it looks for comments; gcc even with
         * spaces after the backslash), nor by the trigraph ??/ that is a
         * backslash in C89. Nor should one seem to begin. */
        if ((s[0] == '*' && s[1] == '/') || (s[0] == '/' && s[1] == '*'))
            buf_putc(b, ' '); /* a slash and a star: -Wcomment */
        else if (s[0] == '\\' && at_line_end(s + 1))
            buf_putc(b, '.');
        else if (s[0] == '?' && s[1] == '?')
            buf_putc(b, ' ');
    }
}
