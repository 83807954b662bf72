/* jvmtigen_entry.c: the entry points of JVM TI. One static trampoline per
 * function makes the checks model/guard.c lists, in that order, and then calls the
 * implementation (jvmtigen_impl.h); two function tables point at them:
 *   jvmtigen_functions         the trampolines;
 *   jvmtigen_traced_functions  the same, each behind a per-function trace
 *                              switch (one load and a branch when off) that
 *                              logs the call, its arguments, result and time.
 * Per function F: jvmtigen_entry_F is the trampoline; jvmtigen_switch_F, in
 * the traced table, reads F's trace flag and calls jvmtigen_logged_F (which
 * logs the call around jvmtigen_entry_F) when it is on, else the trampoline.
 * Checks only the VM can make go through the macros of jvmtigen_hooks.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c/emit.h"
#include "c/impl.h"
#include "model/ctype.h"
#include "model/guard.h"

#define UNLIKELY_RETURN(o, cond, err)                                                              \
    buf_printf((o), "    if (JVMTIGEN_UNLIKELY(%s))\n        return %s;\n", (cond), (err))

static void ret_if(Buf *o, const char *err, const char *fmt, const char *a, const char *b)
{
    Buf cond;
    buf_init(&cond);
    buf_printf(&cond, fmt, a, b);
    UNLIKELY_RETURN(o, cond.data, err);
    buf_free(&cond);
}

/* Returns the hook's error if it is not JVMTI_ERROR_NONE. */
static void hook_call(Buf *o, const char *in, const char *call)
{
    buf_printf(o,
               "%s    jvmtigen_err = %s;\n"
               "%s    if (JVMTIGEN_UNLIKELY(jvmtigen_err != JVMTI_ERROR_NONE))\n"
               "%s        return jvmtigen_err;\n",
               in, call, in, in);
}

static void phase_check(Buf *o, PhaseRule rule)
{
    const char *e = "JVMTI_ERROR_WRONG_PHASE";
    switch (rule) {
    case RULE_LIVE: UNLIKELY_RETURN(o, "JVMTIGEN_PHASE(env) != JVMTI_PHASE_LIVE", e); break;
    case RULE_ONLOAD_ONLY:
        UNLIKELY_RETURN(o, "JVMTIGEN_PHASE(env) != JVMTI_PHASE_ONLOAD", e);
        break;
    case RULE_START:
    case RULE_ONLOAD:
        buf_printf(o, "    jvmtigen_phase = JVMTIGEN_PHASE(env);\n");
        UNLIKELY_RETURN(o,
                        rule == RULE_START ? "jvmtigen_phase != JVMTI_PHASE_START && "
                                             "jvmtigen_phase != JVMTI_PHASE_LIVE"
                                           : "jvmtigen_phase != JVMTI_PHASE_ONLOAD && "
                                             "jvmtigen_phase != JVMTI_PHASE_LIVE",
                        e);
        break;
    case RULE_ANY: break;
    }
}

static void attach_check(Buf *o, AttachRule rule)
{
    const char *e = "JVMTI_ERROR_UNATTACHED_THREAD";
    switch (rule) {
    case ATTACH_JAVA: UNLIKELY_RETURN(o, "JVMTIGEN_THREAD_KIND() != JVMTIRT_JAVA_THREAD", e); break;
    case ATTACH_JAVA_OR_VM:
        buf_puts(o, "    jvmtigen_kind = JVMTIGEN_THREAD_KIND();\n");
        UNLIKELY_RETURN(o,
                        "jvmtigen_kind != JVMTIRT_JAVA_THREAD && "
                        "jvmtigen_kind != JVMTIRT_VM_THREAD",
                        e);
        break;
    case ATTACH_JAVA_IF_THREADS:
        buf_puts(o, "    jvmtigen_kind = JVMTIGEN_THREAD_KIND();\n");
        UNLIKELY_RETURN(o,
                        "jvmtigen_kind != JVMTIRT_JAVA_THREAD && "
                        "jvmtigen_kind != JVMTIGEN_NO_THREADS",
                        e);
        break;
    }
}

/* The arguments of g's hook after env (guard_kinds[].hook). */
static void hook_args(Buf *b, const Guard *g)
{
    if (g->kind == G_FIELD)
        buf_printf(b, "%s, ", g->klass ? g->klass->name : "NULL");
    buf_puts(b, g->param->name);
    if (g->kind == G_CLASS)
        buf_printf(b, ", %d", g->class_of_member);
}

static void guard_code(Buf *o, const Guard *g)
{
    const GuardKindInfo *k = &guard_kinds[g->kind];
    const char *p = g->param ? g->param->name : NULL;
    switch (g->kind) {
    case G_PHASE: phase_check(o, g->phase); return;
    case G_ATTACHED: attach_check(o, g->attach); return;
    case G_ENV: UNLIKELY_RETURN(o, "!JVMTIGEN_ENV_VALID(env)", k->error); return;
    case G_CAPABILITY:
        ret_if(o, k->error, "!JVMTIGEN_HAS_CAPABILITY(env, %s)", g->cap, NULL);
        return;
    case G_DEPTH: ret_if(o, k->error, "%s < 0", p, NULL); return;
    case G_NATIVE: ret_if(o, k->error, "JVMTIGEN_METHOD_IS_NATIVE(env, %s)", p, NULL); return;
    case G_MIN: {
        char min[32];
        snprintf(min, sizeof min, "%lld", g->min);
        ret_if(o, k->error, "%s < %s", p, min);
        return;
    }
    default: break;
    }
    /* The rest refuse NULL, then ask the VM through their hook. */
    Buf call;
    buf_init(&call);
    if (k->hook) {
        buf_printf(&call, "%s(env, ", k->hook);
        hook_args(&call, g);
        buf_putc(&call, ')');
    }
    if (g->null_is_current) {
        /* NULL is the calling thread, which the attach check vouched for. */
        buf_printf(o, "    if (%s != NULL) {\n", p);
        hook_call(o, "    ", call.data);
        buf_puts(o, "    }\n");
    } else {
        ret_if(o, k->error, "%s == NULL", p, NULL);
        if (k->hook)
            hook_call(o, "", call.data);
    }
    buf_free(&call);
}

static void signature(Buf *o, const Function *f, const char *prefix)
{
    buf_printf(o, "%s%s", prefix, f->id);
    impl_params_append(o, f);
}

static void trampoline(Buf *o, const Function *f)
{
    size_t n;
    Guard *gs = guards_of(f, &n);
    bool need_err = false, need_phase = false, need_kind = false;
    for (size_t i = 0; i < n; i++) {
        GuardKind k = gs[i].kind;
        need_err |= guard_kinds[k].hook != NULL;
        need_phase |= k == G_PHASE && (gs[i].phase == RULE_START || gs[i].phase == RULE_ONLOAD);
        need_kind |= k == G_ATTACHED && gs[i].attach != ATTACH_JAVA;
    }
    buf_puts(o, "\nstatic jvmtiError JNICALL\n");
    signature(o, f, "jvmtigen_entry_");
    buf_puts(o, "\n{\n");
    if (need_err)
        buf_puts(o, "    jvmtiError jvmtigen_err;\n");
    if (need_phase)
        buf_puts(o, "    jvmtiPhase jvmtigen_phase;\n");
    if (need_kind)
        buf_puts(o, "    jvmtirt_thread_kind jvmtigen_kind;\n");
    for (size_t i = 0; i < n; i++)
        guard_code(o, &gs[i]);
    buf_printf(o, "    return " IMPL_PREFIX "%s", f->id);
    call_args_append(o, f);
    buf_puts(o, ";\n}\n");
    free(gs);
}

/* ---- tracing ---- */

/* The trace call for a value of leaf type t, written as expr. */
static void trace_leaf(Buf *o, const Spec *s, const Type *t, const char *name, const char *expr)
{
    (void)s;
    /* clang-format off */
    switch (t->kind) {
    case TK_JINT: case TK_JLONG: case TK_JLOCATION: case TK_JCHAR: case TK_JFRAMEID:
    case TK_UCHAR: case TK_SIZE_T:
        buf_printf(o, "    jvmtigen_trace_int(&jvmtigen_tc, \"%s\", (jlong)(%s));\n", name, expr);
        break;
    case TK_JFLOAT: case TK_JDOUBLE:
        buf_printf(o, "    jvmtigen_trace_double(&jvmtigen_tc, \"%s\", (double)(%s));\n", name, expr);
        break;
    case TK_JBOOLEAN:
        buf_printf(o, "    jvmtigen_trace_bool(&jvmtigen_tc, \"%s\", %s);\n", name, expr);
        break;
    case TK_CHAR:
        buf_printf(o, "    jvmtigen_trace_char(&jvmtigen_tc, \"%s\", %s);\n", name, expr);
        break;
    case TK_ENUM:
        buf_printf(o, "    jvmtigen_trace_const(&jvmtigen_tc, \"%s\", (jlong)(%s), "
                      "&jvmtigen_constants_%s);\n", name, expr, t->name);
        break;
    case TK_JMETHODID: case TK_JFIELDID: case TK_JRAWMONITORID: case TK_JCLASS:
    case TK_JTHREAD: case TK_JTHREADGROUP: case TK_JOBJECT:
        buf_printf(o, "    jvmtigen_trace_ptr(&jvmtigen_tc, \"%s\", (const void *)(%s));\n", name,
                   expr);
        break;
    default: /* jvalue, structs by value */
        buf_printf(o, "    jvmtigen_trace_raw(&jvmtigen_tc, \"%s\", \"{...}\");\n", name);
        break;
    }
    /* clang-format on */
}

static void trace_in(Buf *o, const Spec *s, const Param *p)
{
    const Type *t = p->type;
    /* clang-format off */
    switch (t->kind) {
    case TK_PTRTYPE:
        buf_printf(o, "    jvmtigen_trace_ptr(&jvmtigen_tc, \"%s\", (const void *)(uintptr_t)(%s));\n",
                   p->name, p->name);
        break;
    case TK_INBUF: case TK_INPTR: case TK_VMBUF:
        if (t->elem->kind == TK_CHAR) {
            buf_printf(o, "    jvmtigen_trace_str(&jvmtigen_tc, \"%s\", %s);\n", p->name, p->name);
            break;
        }
        /* fall through */
    case TK_OUTPTR: case TK_OUTBUF: case TK_ALLOCFIELDBUF: case TK_ALLOCBUF: case TK_AGENTBUF:
    case TK_ALLOCALLOCBUF:
        buf_printf(o, "    jvmtigen_trace_ptr(&jvmtigen_tc, \"%s\", (const void *)%s);\n", p->name,
                   p->name);
        break;
    default:
        trace_leaf(o, s, t, p->name, p->name);
        break;
    }
    /* clang-format on */
}

/* What an output parameter holds after a successful call. */
static void trace_out(Buf *o, const Spec *s, const Param *p)
{
    const Type *t = p->type, *e = t->elem;
    Buf deref;
    if (t->kind == TK_OUTPTR && (e->kind == TK_STRUCT || e->kind == TK_JVALUE ||
                                 e->kind == TK_PTRTYPE || type_kinds[e->kind].wrapper))
        return;
    if (t->kind != TK_OUTPTR && !(t->kind == TK_ALLOCBUF && e->kind == TK_CHAR))
        return;
    buf_init(&deref); /* "*p": the value's name in the trace and the C that reads it */
    buf_printf(&deref, "*%s", p->name);
    buf_printf(o, "        if (%s != NULL)\n        ", p->name);
    if (t->kind == TK_ALLOCBUF)
        buf_printf(o, "    jvmtigen_trace_str(&jvmtigen_tc, \"%s\", %s);\n", deref.data,
                   deref.data);
    else
        trace_leaf(o, s, e, deref.data, deref.data);
    buf_free(&deref);
}

/* jvmtigen_logged_F and jvmtigen_switch_F (above). */
static void emit_traced_function(Buf *o, const Spec *s, const Function *f, const char *ns)
{
    Buf pre;
    buf_init(&pre);
    buf_puts(o, "\nstatic JVMTIGEN_NOINLINE jvmtiError\n");
    buf_printf(&pre, "%s_logged_", ns);
    signature(o, f, pre.data);
    buf_printf(o,
               "\n{\n    jvmtigen_trace_call jvmtigen_tc;\n    jvmtiError jvmtigen_err;\n"
               "    jvmtigen_trace_begin(&jvmtigen_tc, env, \"%s\");\n",
               f->id);
    for (size_t i = 0; i < f->n_params; i++)
        if (param_in_call(f->params[i]))
            trace_in(o, s, f->params[i]);
    buf_printf(o,
               "    jvmtigen_trace_call_start(&jvmtigen_tc);\n"
               "    jvmtigen_err = %s_entry_%s",
               ns, f->id);
    call_args_append(o, f);
    buf_puts(o, ";\n    jvmtigen_trace_result(&jvmtigen_tc, jvmtigen_err);\n");
    Buf outs;
    buf_init(&outs);
    for (size_t i = 0; i < f->n_params; i++)
        if (param_in_call(f->params[i]))
            trace_out(&outs, s, f->params[i]);
    if (outs.len)
        buf_printf(o, "    if (jvmtigen_err == JVMTI_ERROR_NONE) {\n%s    }\n", outs.data);
    buf_free(&outs);
    buf_puts(o, "    jvmtigen_trace_end(&jvmtigen_tc);\n    return jvmtigen_err;\n}\n");

    buf_puts(o, "\nstatic jvmtiError JNICALL\n");
    buf_reset(&pre);
    buf_printf(&pre, "%s_switch_", ns);
    signature(o, f, pre.data);
    buf_printf(o,
               "\n{\n    if (JVMTIGEN_UNLIKELY(jvmtigen_trace_flags[%d /* %s */]))\n        return "
               "%s_logged_%s",
               f->num, f->id, ns, f->id);
    call_args_append(o, f);
    buf_printf(o, ";\n    return %s_entry_%s", ns, f->id);
    call_args_append(o, f);
    buf_puts(o, ";\n}\n");
    buf_free(&pre);
}

static void emit_function_table(Buf *o, const Spec *s, const char *name, const char *ns, bool trace)
{
    int max = max_table_num(s);
    const Function **slot = table_slots(s);
    buf_printf(o, "\nconst struct jvmtiInterface_1_ %s = {\n", name);
    for (int num = 1; num <= max; num++) {
        const Function *f = slot[num];
        if (!f)
            buf_printf(o, "    /* %3d */ .reserved%d = NULL,\n", num, num);
        else
            buf_printf(o, "    /* %3d */ .%s = %s_%s_%s,\n", num, f->id, ns,
                       trace && function_traceable(f) ? "switch" : "entry", f->id);
    }
    free(slot);
    buf_puts(o, "};\n");
}

void emit_entries_and_tables(Buf *o, const Spec *s, const char *ns,
                             void (*code)(Buf *o, const Spec *s, const Function *f))
{
    Buf name;
    buf_init(&name);
    for (size_t c = 0; c < s->n_categories; c++) {
        const Category *cat = s->categories[c];
        if (!category_in_table(cat))
            continue;
        category_banner_append(o, cat);
        for (size_t i = 0; i < cat->n_functions; i++)
            if (function_in_table(cat->functions[i]))
                code(o, s, cat->functions[i]);
    }
    buf_printf(&name, "%s_functions", ns);
    emit_function_table(o, s, name.data, ns, false);
    buf_puts(o, "\n/* ---- tracing ---- */\n");
    for (size_t i = 0; i < s->n_functions; i++) {
        const Function *f = s->functions[i];
        if (function_in_table(f) && function_traceable(f))
            emit_traced_function(o, s, f, ns);
    }
    buf_reset(&name);
    buf_printf(&name, "%s_traced_functions", ns);
    emit_function_table(o, s, name.data, ns, true);
    buf_free(&name);
}

static void trampoline_of(Buf *o, const Spec *s, const Function *f)
{
    (void)s;
    trampoline(o, f);
}

void emit_entry(const GenContext *ctx, Buf *o)
{
    emit_banner(ctx, o, "JVM TI trampolines and function tables");
    buf_puts(o, "\n#include <stddef.h>\n#include <stdint.h>\n\n"
                "#include \"jvmti.h\"\n#include \"jvmtigen_hooks.h\"\n"
                "#include \"jvmtigen_impl.h\"\n#include \"jvmtigen_tables.h\"\n"
                "#include \"jvmtigen_trace.h\"\n");
    emit_entries_and_tables(o, ctx->spec, "jvmtigen", trampoline_of);
}
