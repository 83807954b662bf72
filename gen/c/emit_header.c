/* jvmti.h, laid out exactly as the JDK's build lays it out (in the style of the
 * release it is made for: header_style in model/facts.c), so that a header
 * generated from the JDK's spec equals the JDK's header byte for byte below
 * the opening comment. The order of sections, the blank lines and the
 * comment spacing are all part of that contract; see tests/header. */
#include <stdlib.h>
#include <string.h>

#include "c/emit.h"
#include "c/impl.h"
#include "model/ctype.h"

/* The parameters of a C signature, each after sep (they follow the
 * environment). */
static void params_after_env(Buf *o, Param **ps, size_t n, const char *sep)
{
    for (size_t k = 0; k < n; k++) {
        if (!param_in_signature(ps[k]))
            continue;
        buf_puts(o, sep);
        cparam_append(o, ps[k]);
    }
}

void header_function_params(Buf *o, const Function *f, const char *sep)
{
    buf_puts(o, "jvmtiEnv* env");
    params_after_env(o, f->params, f->n_params, sep);
}

void header_event_params(Buf *o, const Event *e, const char *sep)
{
    buf_puts(o, "jvmtiEnv *jvmti_env");
    params_after_env(o, e->params, e->n_params, sep);
}

void header_event_typedef(Buf *o, const Event *e)
{
    buf_printf(o, "typedef void (JNICALL *jvmtiEvent%s)\n    (", e->id);
    header_event_params(o, e, ",\n     ");
    buf_puts(o, ");");
}

void header_callback_typedef(Buf *o, const Callback *c, const char *sep)
{
    buf_puts(o, "typedef ");
    ctype_append(o, c->ret);
    buf_printf(o, " (JNICALL *%s)\n    (", c->id);
    cparams_append(o, c->params, c->n_params, sep);
    buf_puts(o, ");");
}

static void versions(const GenContext *ctx, Buf *o)
{
    const JvmtiVersion *v = &ctx->version;
    buf_puts(o, "enum {\n");
    for (int i = 0; i < n_named_versions; i++) {
        const NamedVersion *nv = &named_versions[i];
        if (version_at_least(v, nv->since_major, nv->since_minor))
            buf_printf(o, "    %-17s = 0x%08X,\n", nv->name, nv->value);
    }
    buf_printf(o,
               "\n    JVMTI_VERSION = 0x30000000 + (%d * 0x10000) + (%s%d * 0x100) + %d"
               "  /* version: %d.%d.%d */\n};\n\n",
               v->major, header_style(v)->spaced_minor ? " " : "", v->minor, v->micro, v->major,
               v->minor, v->micro);
}

static void prologue(const GenContext *ctx, Buf *o)
{
    buf_puts(o, "\n /* AUTOMATICALLY GENERATED FILE - DO NOT EDIT */\n"
                "\n    /* Include file for the Java(tm) Virtual Machine Tool Interface */\n"
                "\n#ifndef _JAVA_JVMTI_H_\n#define _JAVA_JVMTI_H_\n"
                "\n#include \"jni.h\"\n"
                "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    versions(ctx, o);
    buf_puts(o, "JNIEXPORT jint JNICALL\n"
                "Agent_OnLoad(JavaVM *vm, char *options, void *reserved);\n\n"
                "JNIEXPORT jint JNICALL\n"
                "Agent_OnAttach(JavaVM* vm, char* options, void* reserved);\n\n"
                "JNIEXPORT void JNICALL\n"
                "Agent_OnUnload(JavaVM *vm);\n\n"
                "    /* Forward declaration of the environment */\n\n"
                "struct _jvmtiEnv;\n\n"
                "struct jvmtiInterface_1_;\n\n"
                "#ifdef __cplusplus\n"
                "typedef _jvmtiEnv jvmtiEnv;\n"
                "#else\n"
                "typedef const struct jvmtiInterface_1_ *jvmtiEnv;\n"
                "#endif /* __cplusplus */\n\n");
}

static void base_types(const Spec *s, Buf *o)
{
    buf_puts(o, "/* Derived Base Types */\n");
    for (size_t i = 0; i < s->n_basetypes; i++)
        if (s->basetypes[i]->definition)
            buf_printf(o, "\n%s", s->basetypes[i]->definition);
}

static void constants(const Spec *s, Buf *o)
{
    buf_puts(o, "\n\n    /* Constants */\n");
    for (size_t i = 0; i < s->n_constant_groups; i++) {
        const ConstantGroup *g = s->constant_groups[i];
        buf_puts(o, "\n\n    /* ");
        comment_text_append(o, g->label);
        buf_puts(o, " */\n");
        buf_puts(o, g->kind == CONST_ENUM ? "\ntypedef enum {\n" : "\nenum {\n");
        for (size_t k = 0; k < g->n_constants; k++)
            buf_printf(o, "%s    %s = %s", k ? ",\n" : "", g->constants[k]->id,
                       g->constants[k]->num);
        if (g->kind == CONST_ENUM)
            buf_printf(o, "\n} %s;", g->id);
        else
            buf_puts(o, "\n};");
    }
}

static int cmp_event_id(const void *a, const void *b)
{
    return collate_ids((*(Event *const *)a)->id, (*(Event *const *)b)->id);
}

static void errors_enum(const Spec *s, Buf *o)
{
    ErrorDef **es = (ErrorDef **)sorted_copy((void *const *)s->errors, s->n_errors, error_num_cmp);
    buf_puts(o, "\n\n    /* Errors */\n\ntypedef enum {\n");
    for (size_t i = 0; i < s->n_errors; i++)
        buf_printf(o, "    %s = %d,\n", es[i]->id, es[i]->num);
    if (s->n_errors)
        buf_printf(o, "    JVMTI_ERROR_MAX = %d", es[s->n_errors - 1]->num);
    buf_puts(o, "\n} jvmtiError;\n");
    free(es);
}

static void events_enum(Event **by_num, size_t n, Buf *o)
{
    buf_puts(o, "\n    /* Event IDs */\n\ntypedef enum {\n");
    if (n)
        buf_printf(o, "    JVMTI_MIN_EVENT_TYPE_VAL = %d,\n", by_num[0]->num);
    for (size_t i = 0; i < n; i++)
        buf_printf(o, "    %s = %d,\n", by_num[i]->const_name, by_num[i]->num);
    if (n)
        buf_printf(o, "    JVMTI_MAX_EVENT_TYPE_VAL = %d", by_num[n - 1]->num);
    buf_puts(o, "\n} jvmtiEvent;\n\n");
}

static const char *aggregate(const Typedef *t) { return t->is_union ? "union" : "struct"; }

static void declarations(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    /* The tag: the typedef's name, or "_" and the name in older releases. */
    const char *tag = header_style(&ctx->version)->underscore_tags ? "_" : "";
    buf_puts(o, "\n    /* Pre-Declarations */\n");
    for (size_t i = 0; i < s->n_typedefs; i++) {
        const Typedef *t = s->typedefs[i];
        buf_printf(o, "%s %s%s;\ntypedef %s %s%s %s;\n", aggregate(t), tag, t->id, aggregate(t),
                   tag, t->id, t->id);
    }
    buf_puts(o, "\n    /* Function Types */\n");
    for (size_t i = 0; i < s->n_callbacks; i++) {
        buf_putc(o, '\n');
        header_callback_typedef(o, s->callbacks[i], ", ");
        buf_putc(o, '\n');
    }
    buf_puts(o, "\n\n    /* Structure Types */\n");
    for (size_t i = 0; i < s->n_typedefs; i++) {
        const Typedef *t = s->typedefs[i];
        buf_printf(o, "%s %s%s {\n", aggregate(t), tag, t->id);
        for (size_t k = 0; k < t->n_fields; k++) {
            buf_puts(o, "    ");
            cparam_append(o, t->fields[k]);
            buf_puts(o, ";\n");
        }
        buf_puts(o, "};\n");
    }
}

/* One bit per capability, then unnamed bit-fields up to the 128 bits the
 * JDK reserves (padding in 16-bit steps, as the JDK writes them). */
static void capabilities(const Spec *s, Buf *o)
{
    const Capabilities *c = s->capabilities;
    size_t n = c->n_fields;
    buf_puts(o, "\ntypedef struct {\n");
    for (size_t i = 0; i < n; i++)
        buf_printf(o, "    unsigned int %s : 1;\n", c->fields[i]->id);
    if (n % 16)
        buf_printf(o, "    unsigned int : %zu;\n", 16 - n % 16);
    for (size_t limit = 32; limit <= 112; limit += 16)
        if (n <= limit)
            buf_puts(o, "    unsigned int : 16;\n");
    buf_printf(o, "} %s;\n", c->id);
}

static void events(const Spec *s, Event **by_num, Buf *o)
{
    Event **by_id = (Event **)sorted_copy((void *const *)s->events, s->n_events, cmp_event_id);
    buf_puts(o, "\n\n    /* Event Definitions */\n\n"
                "typedef void (JNICALL *jvmtiEventReserved)(void);\n\n");
    for (size_t i = 0; i < s->n_events; i++) {
        buf_putc(o, '\n');
        header_event_typedef(o, by_id[i]);
        buf_putc(o, '\n');
    }
    free(by_id);

    buf_puts(o, "\n    /* Event Callback Structure */\n\ntypedef struct {\n");
    /* Slots run from the lowest event number up; gaps become reserved slots. */
    size_t next = 0;
    for (int num = s->n_events ? by_num[0]->num : 1;
         s->n_events && num <= by_num[s->n_events - 1]->num; num++) {
        if (next < s->n_events && by_num[next]->num == num) {
            const Event *e = by_num[next++];
            buf_printf(o, "                              /*   %d : ", num);
            comment_text_append(o, e->label);
            buf_printf(o, " */\n    jvmtiEvent%s %s;\n", e->id, e->id);
        } else {
            buf_printf(o,
                       "                              /*   %d */\n"
                       "    jvmtiEventReserved reserved%d;\n",
                       num, num);
        }
    }
    buf_puts(o, "} jvmtiEventCallbacks;\n");
}

static void function_table(const Spec *s, Buf *o)
{
    int max = max_table_num(s);
    if (max < 1)
        max = 1; /* the JDK's struct always has a slot 1 */
    const Function **slot = table_slots(s);

    buf_puts(o, "\n\n    /* Function Interface */\n\ntypedef struct jvmtiInterface_1_ {\n\n");
    for (int num = 1; num <= max; num++) {
        const Function *f = slot[num];
        buf_printf(o, "  /*   %d : ", num);
        if (f) {
            comment_text_append(o, f->synopsis);
            buf_printf(o, " */\n  jvmtiError (JNICALL *%s) (", f->id);
            header_function_params(o, f, ",\n    ");
            buf_puts(o, ");\n\n");
        } else {
            buf_printf(o, " RESERVED */\n  void *reserved%d;\n\n", num);
        }
    }
    free(slot);
    buf_puts(o, "} jvmtiInterface_1;\n\n"
                "struct _jvmtiEnv {\n"
                "    const struct jvmtiInterface_1_ *functions;\n"
                "#ifdef __cplusplus\n\n");
    /* C++ members in category order, as the spec presents them. */
    for (size_t c = 0; c < s->n_categories; c++) {
        const Category *cat = s->categories[c];
        for (size_t i = 0; i < cat->n_functions; i++) {
            const Function *f = cat->functions[i];
            if (!function_in_table(f))
                continue;
            buf_printf(o, "\n  jvmtiError %s(", f->id);
            cparams_append(o, f->params, f->n_params, ",\n            ");
            buf_printf(o, ") {\n    return functions->%s(this", f->id);
            for (size_t k = 0; k < f->n_params; k++)
                if (param_in_call(f->params[k]))
                    buf_printf(o, ", %s", f->params[k]->name);
            buf_puts(o, ");\n  }\n");
        }
    }
    buf_puts(o, "\n#endif /* __cplusplus */\n};\n");
}

void emit_header(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "The JVM Tool Interface header");
    prologue(ctx, o);
    base_types(s, o);
    constants(s, o);
    errors_enum(s, o);
    Event **by_num = (Event **)sorted_copy((void *const *)s->events, s->n_events, event_num_cmp);
    events_enum(by_num, s->n_events, o);
    declarations(ctx, o);
    capabilities(s, o);
    events(s, by_num, o);
    free(by_num);
    function_table(s, o);
    buf_puts(o, "\n\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif /* __cplusplus */\n"
                "\n#endif /* !_JAVA_JVMTI_H_ */\n");
}
