/* jvmtigen_tables.h / .c: the spec's facts as data a runtime needs at run
 * time: error names (GetErrorName), event metadata (EnableEventNotification
 * checks), capability metadata (bit positions in the header's order), the
 * function list (tracing, conformance) and the names of every constant. */
#include <stdlib.h>
#include <string.h>

#include "c/emit.h"
#include "c/impl.h"
#include "model/ctype.h"
#include "model/guard.h"

/* clang-format off */
static const char *const rule_names[] = {
    [RULE_LIVE] = "JVMTIGEN_RULE_LIVE",
    [RULE_START] = "JVMTIGEN_RULE_START",
    [RULE_ONLOAD] = "JVMTIGEN_RULE_ONLOAD",
    [RULE_ONLOAD_ONLY] = "JVMTIGEN_RULE_ONLOAD_ONLY",
    [RULE_ANY] = "JVMTIGEN_RULE_ANY",
};
/* clang-format on */

static int capability_index(const Spec *s, const char *id)
{
    for (size_t i = 0; i < s->capabilities->n_fields; i++)
        if (strcmp(s->capabilities->fields[i]->id, id) == 0)
            return (int)i;
    return -1; /* cannot happen in a checked spec */
}

void emit_tables_header(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI tables");
    buf_printf(
        o,
        "\n#ifndef JVMTIGEN_TABLES_H\n#define JVMTIGEN_TABLES_H\n\n#include \"jvmti.h\"\n\n"
        "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
        "/* Function numbers run 1..JVMTIGEN_FUNCTION_SLOTS-1 (slot numbers of\n"
        " * struct jvmtiInterface_1_); tables indexed by number have a slot 0. */\n"
        "#define JVMTIGEN_FUNCTION_SLOTS %d\n"
        "#define JVMTIGEN_EVENT_COUNT (JVMTI_MAX_EVENT_TYPE_VAL - JVMTI_MIN_EVENT_TYPE_VAL + 1)\n"
        "#define JVMTIGEN_ERROR_SLOTS (JVMTI_ERROR_MAX + 1)\n"
        "#define JVMTIRT_CAPABILITY_COUNT %zu\n\n",
        max_table_num(s) + 1, s->capabilities->n_fields);
    buf_puts(
        o,
        "/* The phases a function may be called in, or an event sent in. */\n"
        "typedef enum jvmtigen_phase_rule {\n"
        "    JVMTIGEN_RULE_LIVE,        /* live only (the default) */\n"
        "    JVMTIGEN_RULE_START,       /* start or live */\n"
        "    JVMTIGEN_RULE_ONLOAD,      /* OnLoad or live */\n"
        "    JVMTIGEN_RULE_ONLOAD_ONLY, /* OnLoad only */\n"
        "    JVMTIGEN_RULE_ANY          /* any phase */\n"
        "} jvmtigen_phase_rule;\n\n"
        "int jvmtigen_phase_allows(jvmtigen_phase_rule rule, jvmtiPhase phase);\n\n"
        "/* ---- constants: every enum and flag group of the spec ---- */\n"
        "typedef struct jvmtigen_constant {\n"
        "    const char *name;\n"
        "    jlong value;\n"
        "} jvmtigen_constant;\n\n"
        "typedef struct jvmtigen_constant_group {\n"
        "    const char *name;       /* jvmtiEventMode, jvmtiThreadState, ... */\n"
        "    int is_bits;            /* values are flags to combine */\n"
        "    int count;\n"
        "    const jvmtigen_constant *constants;\n"
        "} jvmtigen_constant_group;\n\n"
        "/* The name of value in g, or NULL. */\n"
        "const char *jvmtigen_constant_name(const jvmtigen_constant_group *g, jlong value);\n\n");
    buf_puts(o, "extern const jvmtigen_constant_group jvmtigen_constants_jvmtiError;\n"
                "extern const jvmtigen_constant_group jvmtigen_constants_jvmtiEvent;\n");
    for (size_t i = 0; i < s->n_constant_groups; i++)
        buf_printf(o, "extern const jvmtigen_constant_group jvmtigen_constants_%s;\n",
                   s->constant_groups[i]->id);
    buf_printf(o,
               "\n/* All of the above, errors and events first. */\n"
               "#define JVMTIGEN_CONSTANT_GROUP_COUNT %zu\n"
               "extern const jvmtigen_constant_group *const "
               "jvmtigen_constant_groups[JVMTIGEN_CONSTANT_GROUP_COUNT];\n\n",
               s->n_constant_groups + 2);
    buf_puts(
        o,
        "/* ---- errors ---- */\n"
        "/* \"JVMTI_ERROR_NONE\", ... by number; NULL where no error has the number. */\n"
        "extern const char *const jvmtigen_error_names[JVMTIGEN_ERROR_SLOTS];\n"
        "/* The name of err, or NULL if it is not an error of the spec. */\n"
        "const char *jvmtigen_error_name(jvmtiError err);\n\n"
        "/* ---- capabilities, in the order of jvmtiCapabilities ---- */\n"
        "typedef struct jvmtigen_capability_info {\n"
        "    const char *name;       /* can_tag_objects, ... */\n"
        "    int bit;                /* position in the struct: 0, 1, ... */\n"
        "    const char *since;      /* JVM TI version that added it */\n"
        "} jvmtigen_capability_info;\n\n"
        "extern const jvmtigen_capability_info jvmtigen_capabilities[JVMTIRT_CAPABILITY_COUNT];\n"
        "/* Reads or writes one capability by bit position; out of range reads 0. */\n"
        "int jvmtirt_capability_get(const jvmtiCapabilities *caps, int bit);\n"
        "void jvmtirt_capability_set(jvmtiCapabilities *caps, int bit, int on);\n"
        "/* The bit position of a capability name, or -1. */\n"
        "int jvmtigen_capability_bit(const char *name);\n\n"
        "/* ---- events, by number ---- */\n"
        "typedef struct jvmtigen_event_info {\n"
        "    const char *name;       /* VMInit, ...; NULL for a reserved number */\n"
        "    const char *const_name; /* JVMTI_EVENT_VM_INIT, ... */\n"
        "    int num;\n"
        "    int per_thread;         /* may be enabled for one thread (filtered=\"thread\") */\n"
        "    int capability;         /* bit of the capability it needs, or -1 */\n"
        "    jvmtigen_phase_rule phase; /* when it may be sent */\n"
        "    const char *since;\n"
        "} jvmtigen_event_info;\n\n"
        "extern const jvmtigen_event_info jvmtigen_events[JVMTIGEN_EVENT_COUNT];\n"
        "/* The event's entry, or NULL if e is no event of the spec. */\n"
        "const jvmtigen_event_info *jvmtigen_event(jvmtiEvent e);\n\n"
        "/* ---- functions, by number (slot in jvmtiInterface_1) ---- */\n"
        "typedef struct jvmtigen_function_info {\n"
        "    const char *name;       /* GetThreadState, ...; NULL for a reserved slot */\n"
        "    int num;\n"
        "    jvmtigen_phase_rule phase;\n"
        "    int callback_safe;      /* may be called from event callbacks of any thread */\n"
        "    int traceable;          /* the spec does not exclude it from tracing */\n"
        "    int n_required;         /* capabilities it needs */\n"
        "    const int *required;    /* their bits */\n"
        "    const char *since;\n"
        "} jvmtigen_function_info;\n\n"
        "extern const jvmtigen_function_info jvmtigen_functions_info[JVMTIGEN_FUNCTION_SLOTS];\n\n"
        "/* Per-function trace switches, read by the tracing trampolines and set by\n"
        " * jvmtigen_trace_configure (runtime/base/trace.c). */\n"
        "extern unsigned char jvmtigen_trace_flags[JVMTIGEN_FUNCTION_SLOTS];\n\n"
        "/* The function tables (jvmtigen_entry.c): plain trampolines, and the same\n"
        " * behind per-function trace switches. */\n"
        "extern const struct jvmtiInterface_1_ jvmtigen_functions;\n"
        "extern const struct jvmtiInterface_1_ jvmtigen_traced_functions;\n\n"
        "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* JVMTIGEN_TABLES_H */\n");
}

static void group(Buf *o, const char *id, bool bits, const char *const *names, size_t n)
{
    buf_printf(o, "static const jvmtigen_constant constants_%s[] = {\n", id);
    for (size_t i = 0; i < n; i++)
        buf_printf(o, "    {\"%s\", %s},\n", names[i], names[i]);
    if (!n)
        buf_puts(o, "    {NULL, 0},\n");
    buf_printf(o,
               "};\nconst jvmtigen_constant_group jvmtigen_constants_%s = {\"%s\", %d, %zu, "
               "constants_%s};\n\n",
               id, id, bits, n, id);
}

static void constants(const Spec *s, Buf *o, ErrorDef **errors, Event **events)
{
    const char **names = xmalloc((s->n_errors + s->n_events + 1) * sizeof *names);
    for (size_t i = 0; i < s->n_errors; i++)
        names[i] = errors[i]->id;
    group(o, "jvmtiError", false, names, s->n_errors);
    for (size_t i = 0; i < s->n_events; i++)
        names[i] = events[i]->const_name;
    group(o, "jvmtiEvent", false, names, s->n_events);
    free(names);
    for (size_t g = 0; g < s->n_constant_groups; g++) {
        const ConstantGroup *cg = s->constant_groups[g];
        const char **cn = xmalloc((cg->n_constants + 1) * sizeof *cn);
        for (size_t i = 0; i < cg->n_constants; i++)
            cn[i] = cg->constants[i]->id;
        group(o, cg->id, cg->kind == CONST_BITS, cn, cg->n_constants);
        free(cn);
    }
    buf_puts(o, "const jvmtigen_constant_group *const "
                "jvmtigen_constant_groups[JVMTIGEN_CONSTANT_GROUP_COUNT] = {\n"
                "    &jvmtigen_constants_jvmtiError,\n    &jvmtigen_constants_jvmtiEvent,\n");
    for (size_t g = 0; g < s->n_constant_groups; g++)
        buf_printf(o, "    &jvmtigen_constants_%s,\n", s->constant_groups[g]->id);
    buf_puts(o,
             "};\n\n"
             "const char *jvmtigen_constant_name(const jvmtigen_constant_group *g, jlong value)\n"
             "{\n"
             "    int i;\n"
             "    for (i = 0; i < g->count; i++)\n"
             "        if (g->constants[i].name && g->constants[i].value == value)\n"
             "            return g->constants[i].name;\n"
             "    return NULL;\n"
             "}\n\n");
}

static void errors_table(const Spec *s, Buf *o, ErrorDef **errors)
{
    buf_puts(o, "const char *const jvmtigen_error_names[JVMTIGEN_ERROR_SLOTS] = {\n");
    for (size_t i = 0; i < s->n_errors; i++)
        buf_printf(o, "    [%s] = \"%s\",\n", errors[i]->id, errors[i]->id);
    buf_puts(o, "};\n\n"
                "const char *jvmtigen_error_name(jvmtiError err)\n"
                "{\n"
                "    if ((int)err < 0 || (int)err >= JVMTIGEN_ERROR_SLOTS)\n"
                "        return NULL;\n"
                "    return jvmtigen_error_names[err];\n"
                "}\n\n");
}

static void capabilities_table(const Spec *s, Buf *o)
{
    const Capabilities *c = s->capabilities;
    buf_puts(
        o, "const jvmtigen_capability_info jvmtigen_capabilities[JVMTIRT_CAPABILITY_COUNT] = {\n");
    for (size_t i = 0; i < c->n_fields; i++)
        buf_printf(o, "    {\"%s\", %zu, \"%s\"},\n", c->fields[i]->id, i, c->fields[i]->since);
    buf_puts(o, "};\n\n"
                "int jvmtirt_capability_get(const jvmtiCapabilities *caps, int bit)\n{\n"
                "    switch (bit) {\n");
    for (size_t i = 0; i < c->n_fields; i++)
        buf_printf(o, "    case %zu: return caps->%s;\n", i, c->fields[i]->id);
    buf_puts(o, "    default: return 0;\n    }\n}\n\n"
                "void jvmtirt_capability_set(jvmtiCapabilities *caps, int bit, int on)\n{\n"
                "    switch (bit) {\n");
    for (size_t i = 0; i < c->n_fields; i++)
        buf_printf(o, "    case %zu: caps->%s = on != 0; break;\n", i, c->fields[i]->id);
    buf_puts(o, "    default: break;\n    }\n}\n\n"
                "int jvmtigen_capability_bit(const char *name)\n{\n"
                "    int i;\n"
                "    for (i = 0; i < JVMTIRT_CAPABILITY_COUNT; i++)\n"
                "        if (strcmp(jvmtigen_capabilities[i].name, name) == 0)\n"
                "            return i;\n"
                "    return -1;\n}\n\n");
}

static void events_table(const Spec *s, Buf *o, Event **events)
{
    buf_puts(o, "const jvmtigen_event_info jvmtigen_events[JVMTIGEN_EVENT_COUNT] = {\n");
    for (size_t i = 0; i < s->n_events; i++) {
        const Event *e = events[i];
        int cap = e->n_required ? capability_index(s, e->required[0]->id) : -1;
        buf_printf(
            o, "    [%s - JVMTI_MIN_EVENT_TYPE_VAL] = {\"%s\", \"%s\", %d, %d, %d, %s, \"%s\"},\n",
            e->const_name, e->id, e->const_name, e->num, e->filtered == FILTER_THREAD, cap,
            rule_names[phase_rule_of(e->phase)], e->since);
    }
    buf_puts(o, "};\n\n"
                "const jvmtigen_event_info *jvmtigen_event(jvmtiEvent e)\n"
                "{\n"
                "    if ((int)e < JVMTI_MIN_EVENT_TYPE_VAL || (int)e > JVMTI_MAX_EVENT_TYPE_VAL)\n"
                "        return NULL;\n"
                "    if (jvmtigen_events[e - JVMTI_MIN_EVENT_TYPE_VAL].name == NULL)\n"
                "        return NULL;\n"
                "    return &jvmtigen_events[e - JVMTI_MIN_EVENT_TYPE_VAL];\n"
                "}\n\n");
}

static void functions_table(const Spec *s, Buf *o)
{
    for (size_t i = 0; i < s->n_functions; i++) {
        const Function *f = s->functions[i];
        if (!function_in_table(f) || !f->n_required)
            continue;
        buf_printf(o, "static const int required_%s[] = {", f->id);
        for (size_t k = 0; k < f->n_required; k++)
            buf_printf(o, "%s%d", k ? ", " : "", capability_index(s, f->required[k]->id));
        buf_puts(o, "};\n");
    }
    buf_puts(
        o, "\nconst jvmtigen_function_info jvmtigen_functions_info[JVMTIGEN_FUNCTION_SLOTS] = {\n");
    for (size_t i = 0; i < s->n_functions; i++) {
        const Function *f = s->functions[i];
        if (!function_in_table(f))
            continue;
        buf_printf(o, "    [%d] = {\"%s\", %d, %s, %d, %d, %zu, ", f->num, f->id, f->num,
                   rule_names[phase_rule(f)], f->callbacksafe, function_traceable(f),
                   f->n_required);
        if (f->n_required)
            buf_printf(o, "required_%s", f->id);
        else
            buf_puts(o, "NULL");
        buf_printf(o, ", \"%s\"},\n", f->since);
    }
    buf_puts(o, "};\n\nunsigned char jvmtigen_trace_flags[JVMTIGEN_FUNCTION_SLOTS];\n");
}

void emit_tables_source(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI tables");
    buf_puts(o, "\n#include <stddef.h>\n#include <string.h>\n\n#include \"jvmtigen_tables.h\"\n\n"
                "int jvmtigen_phase_allows(jvmtigen_phase_rule rule, jvmtiPhase phase)\n"
                "{\n"
                "    switch (rule) {\n"
                "    case JVMTIGEN_RULE_LIVE: return phase == JVMTI_PHASE_LIVE;\n"
                "    case JVMTIGEN_RULE_START:\n"
                "        return phase == JVMTI_PHASE_START || phase == JVMTI_PHASE_LIVE;\n"
                "    case JVMTIGEN_RULE_ONLOAD:\n"
                "        return phase == JVMTI_PHASE_ONLOAD || phase == JVMTI_PHASE_LIVE;\n"
                "    case JVMTIGEN_RULE_ONLOAD_ONLY: return phase == JVMTI_PHASE_ONLOAD;\n"
                "    case JVMTIGEN_RULE_ANY: return 1;\n"
                "    }\n"
                "    return 0;\n"
                "}\n\n");
    ErrorDef **errors =
        (ErrorDef **)sorted_copy((void *const *)s->errors, s->n_errors, error_num_cmp);
    Event **events = (Event **)sorted_copy((void *const *)s->events, s->n_events, event_num_cmp);
    constants(s, o, errors, events);
    errors_table(s, o, errors);
    capabilities_table(s, o);
    events_table(s, o, events);
    functions_table(s, o);
    free(errors);
    free(events);
}
