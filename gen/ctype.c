#include "ctype.h"

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

bool param_in_signature(const Param *p)
{
    return !(p->type->kind == TK_JCLASS && p->type->method);
}

bool param_in_call(const Param *p)
{
    return param_in_signature(p) && p->type->kind != TK_VARARGS;
}

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

void comment_text_append(Buf *b, const char *s)
{
    for (; *s; s++) {
        buf_putc(b, *s);
        if (s[0] == '*' && s[1] == '/')
            buf_putc(b, ' ');
    }
}
