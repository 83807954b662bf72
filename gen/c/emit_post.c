/* jvmtigen_post.h/.c: one posting function per event, which the VM calls
 * where the event happens. The inline half tests the event's bit in the
 * runtime's "enabled anywhere" word (one load and a branch when no
 * environment wants the event); the out-of-line half walks the environments
 * that enabled it (the core's cursor: order, phase, per-thread enabling) and
 * calls each one's callback.
 *
 * Out-parameters chain. An event parameter X may have a replacement: the
 * parameter "new_X" or "new_X_ptr" whose C type points to X's (const aside),
 * as new_class_data for class_data (ClassFileLoadHook) or new_address_ptr
 * for address (NativeMethodBind). Each environment gets X as the previous
 * one left it, and the VM gets the last value through its own pointer. A
 * replacement that is an agent-allocated buffer (agentbuf of a non-void
 * element) counts only when the environment stored a non-NULL pointer, brings
 * its length (its incount parameter) with it, and frees the buffer it
 * supersedes. */
#include "c/emit.h"

#include <stdlib.h>
#include <string.h>

#include "model/ctype.h"

static Event **events_by_num(const Spec *s)
{
    return (Event **)sorted_copy((void *const *)s->events, s->n_events, event_num_cmp);
}

static char *ctype_str(const Type *t)
{
    Buf b;
    buf_init(&b);
    ctype_append(&b, t);
    return b.data; /* the caller frees it */
}

/* Whether r's C type is x's with one more '*', const aside. */
static bool points_to(const Param *r, const Param *x)
{
    char *rt = ctype_str(r->type), *xt = ctype_str(x->type);
    const char *xs = strncmp(xt, "const ", 6) == 0 ? xt + 6 : xt;
    size_t n = strlen(xs);
    bool ok = strlen(rt) == n + 1 && strncmp(rt, xs, n) == 0 && rt[n] == '*';
    free(rt);
    free(xt);
    return ok;
}

/* x's replacement parameter in e, or NULL. */
static const Param *replacement(const Event *e, const Param *x)
{
    size_t n = strlen(x->name);
    for (size_t i = 0; i < e->n_params; i++) {
        const Param *r = e->params[i];
        TypeKind k = r->type->kind;
        if ((k != TK_OUTPTR && k != TK_AGENTBUF) || !param_in_call(r) ||
            strncmp(r->name, "new_", 4) != 0 || strncmp(r->name + 4, x->name, n) != 0)
            continue;
        const char *rest = r->name + 4 + n;
        if ((*rest == '\0' || strcmp(rest, "_ptr") == 0) && points_to(r, x))
            return r;
    }
    return NULL;
}

static bool is_buffer(const Param *r)
{
    return r->type->kind == TK_AGENTBUF && r->type->elem->kind != TK_VOID;
}

/* Whether r is the length of a replacement buffer of e (it goes with it). */
static bool is_buffer_count(const Event *e, const Param *r)
{
    for (size_t i = 0; i < e->n_params; i++) {
        const Param *b = replacement(e, e->params[i]);
        if (b && is_buffer(b) && b->type->incount && strcmp(b->type->incount, r->name) == 0)
            return true;
    }
    return false;
}

static bool has_replacements(const Event *e)
{
    for (size_t i = 0; i < e->n_params; i++)
        if (replacement(e, e->params[i]))
            return true;
    return false;
}

/* The thread the event happens in: its first jthread parameter ("NULL":
 * the calling thread). */
static const char *event_thread(const Event *e)
{
    for (size_t i = 0; i < e->n_params; i++)
        if (e->params[i]->type->kind == TK_JTHREAD && param_in_call(e->params[i]))
            return e->params[i]->name;
    return "NULL";
}

/* "(JNIEnv* jni_env, jthread thread)", or "(void)" for an event without
 * parameters besides the environment. */
static void post_params_append(Buf *o, const Event *e)
{
    Buf p;
    buf_init(&p);
    cparams_append(&p, e->params, e->n_params, ", ");
    buf_printf(o, "(%s)", p.len ? p.data : "void");
    buf_free(&p);
}

/* ", a, b": the VM's arguments; chained ones as the walk has them. */
static void post_args_append(Buf *o, const Event *e, bool chained)
{
    for (size_t i = 0; i < e->n_params; i++) {
        const Param *p = e->params[i];
        if (!param_in_call(p))
            continue;
        bool x = chained && replacement(e, p);
        bool r = false;
        for (size_t j = 0; chained && !x && j < e->n_params; j++)
            r = r || replacement(e, e->params[j]) == p;
        if (x || r)
            buf_printf(o, ", %sjvmtigen_%s", r ? "&" : "", p->name);
        else /* the VM's own argument */
            buf_printf(o, ", %s", p->name);
    }
}

/* The header's word on an event whose out-parameters chain. */
static void chain_comment(Buf *o, const Event *e)
{
    buf_puts(o, "/* Chained: each environment gets");
    const char *sep = " ";
    for (size_t i = 0; i < e->n_params; i++)
        if (replacement(e, e->params[i])) {
            buf_printf(o, "%s%s", sep, e->params[i]->name);
            sep = ", ";
        }
    buf_puts(o,
             " as the one\n * before it left them. The VM sets what its pointers point to before\n"
             " * posting (they change only if an environment gets the event).\n");
    for (size_t i = 0; i < e->n_params; i++) {
        const Param *r = replacement(e, e->params[i]);
        if (!r || is_buffer_count(e, r))
            continue;
        if (is_buffer(r))
            buf_printf(
                o,
                " * *%s: the last buffer an environment stored%s%s%s; the VM\n"
                " * frees it with jvmtirt_post_deallocate (the ones it replaced are freed here).\n",
                r->name, r->type->incount ? ", its length in *" : "",
                r->type->incount ? r->type->incount : "", "");
        else
            buf_printf(o, " * *%s: the last value.\n", r->name);
    }
    buf_puts(o, " */\n");
}

void emit_post_header(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI event posting functions");
    buf_puts(o, "\n#ifndef JVMTIGEN_POST_H\n#define JVMTIGEN_POST_H\n\n"
                "#include \"jvmti.h\"\n#include \"jvmtigen_post_support.h\"\n\n"
                "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
                "/* jvmtirt_post_NAME(...) sends event NAME to every environment that\n"
                " * enabled it (globally, or for the event's thread: its thread parameter,\n"
                " * else the calling thread) and set a callback, if the current phase is\n"
                " * one the event may be sent in. Its arguments are the callback's, without\n"
                " * the jvmtiEnv.\n"
                " *\n"
                " * jvmtigen_post_filter_NAME, when not NULL, is asked about each such\n"
                " * environment with the VM's arguments; 0 skips the environment (the core\n"
                " * sets these for events only some environments asked for). */\n");
    Event **ev = events_by_num(s);
    for (size_t i = 0; i < s->n_events; i++) {
        const Event *e = ev[i];
        buf_printf(o, "\n/* %s (%d) */\n", e->const_name, e->num);
        if (has_replacements(e))
            chain_comment(o, e);
        Buf p;
        buf_init(&p);
        cparams_append(&p, e->params, e->n_params, ", ");
        buf_printf(o,
                   "typedef int (*jvmtigen_filter_%s)(jvmtiEnv *env%s%s);\n"
                   "extern jvmtigen_filter_%s jvmtigen_post_filter_%s;\n",
                   e->id, p.len ? ", " : "", p.len ? p.data : "", e->id, e->id);
        buf_free(&p);
        buf_printf(o, "void jvmtirt_post_%s_slow", e->id);
        post_params_append(o, e);
        buf_printf(o, ";\nstatic inline void jvmtirt_post_%s", e->id);
        post_params_append(o, e);
        buf_printf(o,
                   "\n{\n    if (JVMTIGEN_UNLIKELY(JVMTIGEN_EVENT_ON(%s)))\n"
                   "        jvmtirt_post_%s_slow(",
                   e->const_name, e->id);
        Buf a;
        buf_init(&a);
        post_args_append(&a, e, false);
        buf_puts(o, a.len ? a.data + 2 : "");
        buf_free(&a);
        buf_puts(o, ");\n}\n");
    }
    free(ev);
    buf_puts(
        o, "\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* JVMTIGEN_POST_H */\n");
}

/* Locals for the chained parameters: the value the walk has now, each
 * replacement as the environment leaves it, and the buffer the walk owns. */
static void chain_locals(Buf *o, const Event *e)
{
    for (size_t i = 0; i < e->n_params; i++) {
        const Param *x = e->params[i], *r = replacement(e, x);
        if (!r)
            continue;
        char *xt = ctype_str(x->type), *rt = ctype_str(r->type);
        rt[strlen(rt) - 1] = '\0'; /* what r points to */
        buf_printf(o, "    %s jvmtigen_%s = %s;\n", xt, x->name, x->name);
        if (is_buffer(r))
            buf_printf(o,
                       "    %s jvmtigen_own_%s = NULL; /* an environment's buffer, freed when "
                       "replaced */\n",
                       rt, x->name);
        free(xt);
        free(rt);
    }
}

/* Before each callback: every replacement starts as the current value
 * (a buffer as NULL: "not replaced"). */
static void chain_before(Buf *o, const Event *e)
{
    for (size_t i = 0; i < e->n_params; i++) {
        const Param *x = e->params[i], *r = replacement(e, x);
        if (!r)
            continue;
        char *rt = ctype_str(r->type);
        rt[strlen(rt) - 1] = '\0';
        if (is_buffer(r))
            buf_printf(o, "        %s jvmtigen_%s = NULL;\n", rt, r->name);
        else
            buf_printf(o, "        %s jvmtigen_%s = jvmtigen_%s;\n", rt, r->name, x->name);
        free(rt);
    }
}

static const Param *replaced(const Event *e, const Param *r)
{
    for (size_t i = 0; i < e->n_params; i++)
        if (replacement(e, e->params[i]) == r)
            return e->params[i];
    return NULL;
}

/* The in-parameter whose length goes with buffer replacement r (e.g.
 * class_data_len for new_class_data), or NULL; *count gets r's length
 * parameter (new_class_data_len). */
static const Param *buffer_length(const Event *e, const Param *r, const Param **count)
{
    *count = param_named(e->params, e->n_params, r->type->incount);
    return *count ? replaced(e, *count) : NULL;
}

/* Calls one(o, e, X, its replacement) for each chained parameter X (not
 * the lengths that go with buffers). */
static void each_chained(Buf *o, const Event *e,
                         void (*one)(Buf *, const Event *, const Param *, const Param *))
{
    for (size_t i = 0; i < e->n_params; i++) {
        const Param *x = e->params[i], *r = replacement(e, x);
        if (r && !is_buffer_count(e, r))
            one(o, e, x, r);
    }
}

/* After each callback: take what the environment replaced. */
static void chain_after_one(Buf *o, const Event *e, const Param *x, const Param *r)
{
    if (!is_buffer(r)) {
        buf_printf(o, "        jvmtigen_%s = jvmtigen_%s;\n", x->name, r->name);
        return;
    }
    buf_printf(o,
               "        if (jvmtigen_%s) {\n"
               "            jvmtirt_post_deallocate(jvmtigen_own_%s);\n"
               "            jvmtigen_own_%s = jvmtigen_%s;\n"
               "            jvmtigen_%s = jvmtigen_%s;\n",
               r->name, x->name, x->name, r->name, x->name, r->name);
    const Param *n, *nx = buffer_length(e, r, &n);
    if (nx)
        buf_printf(o, "            jvmtigen_%s = jvmtigen_%s;\n", nx->name, n->name);
    buf_puts(o, "        }\n");
}

/* After the walk: the VM gets the last values through its pointers. */
static void chain_result_one(Buf *o, const Event *e, const Param *x, const Param *r)
{
    if (!is_buffer(r)) {
        buf_printf(o, "    if (%s)\n        *%s = jvmtigen_%s;\n", r->name, r->name, x->name);
        return;
    }
    buf_printf(o,
               "    if (jvmtigen_own_%s && !%s)\n"
               "        jvmtirt_post_deallocate(jvmtigen_own_%s);\n"
               "    else if (jvmtigen_own_%s) {\n"
               "        *%s = jvmtigen_own_%s;\n",
               x->name, r->name, x->name, x->name, r->name, x->name);
    const Param *n, *nx = buffer_length(e, r, &n);
    if (nx)
        buf_printf(o, "        if (%s)\n            *%s = jvmtigen_%s;\n", n->name, n->name,
                   nx->name);
    buf_puts(o, "    }\n");
}

void emit_post_source(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI event posting functions");
    buf_puts(o, "\n#include \"jvmtigen_post.h\"\n");
    Event **ev = events_by_num(s);
    for (size_t i = 0; i < s->n_events; i++) {
        const Event *e = ev[i];
        bool chained = has_replacements(e);
        Buf all;
        buf_init(&all);
        post_args_append(&all, e, false);
        buf_printf(o, "\njvmtigen_filter_%s jvmtigen_post_filter_%s;\n", e->id, e->id);
        buf_printf(o, "\nvoid jvmtirt_post_%s_slow", e->id);
        post_params_append(o, e);
        /* Locals carry a prefix no spec parameter name has. */
        buf_puts(o, "\n{\n");
        if (chained)
            chain_locals(o, e);
        buf_printf(o,
                   "    jvmtigen_filter_%s jvmtigen_f = jvmtigen_post_filter_%s;\n"
                   "    jvmtigen_post_cursor jvmtigen_c;\n"
                   "    for (jvmtiEnv *jvmtigen_env = jvmtigen_post_first(&jvmtigen_c, %s, %s);\n"
                   "         jvmtigen_env; jvmtigen_env = jvmtigen_post_next(&jvmtigen_c)) {\n"
                   "        if (jvmtigen_f && !jvmtigen_f(jvmtigen_env%s))\n"
                   "            continue;\n",
                   e->id, e->id, e->const_name, event_thread(e), all.data ? all.data : "");
        if (chained)
            chain_before(o, e);
        buf_printf(o, "        ((jvmtiEvent%s)jvmtigen_c.callback)(jvmtigen_env", e->id);
        post_args_append(o, e, chained);
        buf_puts(o, ");\n");
        if (chained)
            each_chained(o, e, chain_after_one);
        buf_puts(o, "    }\n    jvmtigen_post_done(&jvmtigen_c);\n");
        if (chained)
            each_chained(o, e, chain_result_one);
        buf_puts(o, "}\n");
        buf_free(&all);
    }
    free(ev);
}
