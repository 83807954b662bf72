/* jvmtigen_post.h/.c: one posting function per event, which the VM calls
 * where the event happens. The inline half tests the event's bit in the
 * runtime's "enabled anywhere" word (one load and a branch when no
 * environment wants the event); the out-of-line half walks the environments
 * that enabled it, in creation order, and calls each one's callback. */
#include "emit.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ctype.h"

/* Events that reach only the environments that asked for that very
 * instance (a breakpoint set, a field watched, a frame-pop request): the
 * runtime defines jvmtigen_post_filter_NAME(env, the event's arguments),
 * which the walk consults for each environment. */
static const char *const filtered_events[] = {"Breakpoint", "FieldAccess", "FieldModification",
                                              "FramePop"};

static bool is_filtered(const Event *e)
{
    for (size_t i = 0; i < sizeof filtered_events / sizeof *filtered_events; i++)
        if (strcmp(filtered_events[i], e->id) == 0)
            return true;
    return false;
}

static Event **events_by_num(const Spec *s)
{
    return (Event **)sorted_copy((void *const *)s->events, s->n_events, event_num_cmp);
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

static void post_args_append(Buf *o, const Event *e)
{
    for (size_t i = 0; i < e->n_params; i++)
        if (param_in_call(e->params[i]))
            buf_printf(o, ", %s", e->params[i]->name);
}

void emit_post_header(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI event posting functions");
    buf_puts(o, "\n#ifndef JVMTIGEN_POST_H\n#define JVMTIGEN_POST_H\n\n"
                "#include \"jvmti.h\"\n#include \"jvmtigen_post_support.h\"\n\n"
                "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
                "/* jvmtigen_post_NAME(...) sends event NAME to every environment that\n"
                " * enabled it (globally, or for the calling thread) and set a callback.\n"
                " * Its arguments are the callback's, without the jvmtiEnv. */\n");
    Event **ev = events_by_num(s);
    for (size_t i = 0; i < s->n_events; i++) {
        const Event *e = ev[i];
        if (is_filtered(e)) {
            Buf p;
            buf_init(&p);
            cparams_append(&p, e->params, e->n_params, ", ");
            buf_printf(o, "\n/* Whether env asked for this %s (defined by the runtime). */\n"
                          "int jvmtigen_post_filter_%s(jvmtiEnv *env%s%s);",
                       e->id, e->id, p.len ? ", " : "", p.len ? p.data : "");
            buf_free(&p);
        }
        buf_printf(o, "\n/* %s (%d) */\nvoid jvmtigen_post_%s_slow", e->const_name, e->num, e->id);
        post_params_append(o, e);
        buf_printf(o, ";\nstatic inline void jvmtigen_post_%s", e->id);
        post_params_append(o, e);
        buf_printf(o, "\n{\n    if (JVMTIGEN_UNLIKELY(JVMTIGEN_EVENT_ON(%s)))\n"
                      "        jvmtigen_post_%s_slow(",
                   e->const_name, e->id);
        Buf a;
        buf_init(&a);
        post_args_append(&a, e);
        buf_puts(o, a.len ? a.data + 2 : "");
        buf_free(&a);
        buf_puts(o, ");\n}\n");
    }
    free(ev);
    buf_puts(o, "\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* JVMTIGEN_POST_H */\n");
}

void emit_post_source(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI event posting functions");
    buf_puts(o, "\n#include \"jvmtigen_post.h\"\n");
    Event **ev = events_by_num(s);
    for (size_t i = 0; i < s->n_events; i++) {
        const Event *e = ev[i];
        buf_printf(o, "\nvoid jvmtigen_post_%s_slow", e->id);
        post_params_append(o, e);
        /* Locals carry a prefix no spec parameter name has. */
        buf_printf(o, "\n{\n    jvmtigen_post_cursor jvmtigen_c;\n"
                      "    for (jvmtiEnv *jvmtigen_env = jvmtigen_post_first(&jvmtigen_c, %s);\n"
                      "         jvmtigen_env; jvmtigen_env = jvmtigen_post_next(&jvmtigen_c))\n",
                   e->const_name);
        if (is_filtered(e)) {
            buf_printf(o, "        if (jvmtigen_post_filter_%s(jvmtigen_env", e->id);
            post_args_append(o, e);
            buf_puts(o, "))\n    ");
        }
        buf_printf(o, "        ((jvmtiEvent%s)jvmtigen_c.callback)(jvmtigen_env", e->id);
        post_args_append(o, e);
        buf_puts(o, ");\n    jvmtigen_post_done(&jvmtigen_c);\n}\n");
    }
    free(ev);
}
