#include "c/impl.h"

#include <stdio.h>
#include <stdlib.h>

#include "model/ctype.h"
#include "model/guard.h"

bool function_in_table(const Function *f) { return !f->hide; }

bool category_in_table(const Category *c)
{
    for (size_t i = 0; i < c->n_functions; i++)
        if (function_in_table(c->functions[i]))
            return true;
    return false;
}

int max_table_num(const Spec *s)
{
    int max = 0;
    for (size_t i = 0; i < s->n_functions; i++)
        if (function_in_table(s->functions[i]) && s->functions[i]->num > max)
            max = s->functions[i]->num;
    return max;
}

const Function **table_slots(const Spec *s)
{
    const Function **slot = xcalloc((size_t)max_table_num(s) + 2, sizeof *slot);
    for (size_t i = 0; i < s->n_functions; i++)
        if (function_in_table(s->functions[i]))
            slot[s->functions[i]->num] = s->functions[i];
    return slot;
}

void category_banner_append(Buf *b, const Category *c)
{
    buf_puts(b, "\n/* ---- ");
    comment_text_append(b, c->label);
    buf_puts(b, " ---- */\n");
}

bool function_traceable(const Function *f) { return !attr_has_word(f->impl, "notrace"); }

void impl_params_append(Buf *b, const Function *f)
{
    buf_puts(b, "(jvmtiEnv *env");
    for (size_t i = 0; i < f->n_params; i++) {
        if (!param_in_signature(f->params[i]))
            continue;
        buf_puts(b, ", ");
        cparam_append(b, f->params[i]);
    }
    buf_putc(b, ')');
}

void call_args_append(Buf *b, const Function *f)
{
    buf_puts(b, "(env");
    for (size_t i = 0; i < f->n_params; i++)
        if (param_in_call(f->params[i]))
            buf_printf(b, ", %s", f->params[i]->name);
    buf_putc(b, ')');
}

void impl_signature_append(Buf *b, const Function *f, const char *sep)
{
    buf_printf(b, "jvmtiError%s" IMPL_PREFIX "%s", sep, f->id);
    impl_params_append(b, f);
}

void impl_guarantees_append(Buf *b, const Function *f, const char *indent)
{
    size_t n;
    Guard *gs = guards_of(f, &n);
    if (phase_rule(f) == RULE_ANY)
        buf_printf(b, "%scalled in any phase\n", indent);
    for (size_t i = 0; i < n; i++) {
        buf_puts(b, indent);
        guard_promise_append(b, &gs[i]);
        buf_putc(b, '\n');
    }
    free(gs);
}

size_t impl_unchecked_append(Buf *b, const Function *f, const char *indent)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n_params; i++) {
        const Param *p = f->params[i];
        const Type *t = p->type;
        /* a jthread, or one behind a pointer type (SetEventNotificationMode's) */
        bool nullok = t->kind == TK_PTRTYPE && t->nullok;
        if (t->kind == TK_PTRTYPE && t->elem)
            t = t->elem;
        if (!param_in_signature(p) || t->kind != TK_JTHREAD || !attr_has_word(t->impl, "noconvert"))
            continue;
        buf_printf(b,
                   t->null ? "%s%s: NULL (the calling thread), a non-thread or a thread not alive\n"
                   : nullok ? "%s%s: NULL (allowed), a non-thread or a thread not alive\n"
                            : "%s%s: NULL, a non-thread or a thread not alive\n",
                   indent, p->name);
        n++;
    }
    return n;
}
