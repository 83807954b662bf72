/* jvmticheck_forward.c: the generated half of libjvmticheck (check/), the
 * agent that wraps another agent. Per JVM TI function:
 *   jvmticheck_entry_NAME    the quick path: every rule's negation, the
 *                            cheapest first; all hold: on to the forwarder;
 *   jvmticheck_checked_NAME  (cold) else: the checks model/guard.c lists (the
 *                            trampolines' own, in their order); the first
 *                            one broken becomes a finding (jvmticheck_broke),
 *                            and the call goes on to the forwarder;
 *   jvmticheck_forward_NAME  (weak) calls NAME on the VM's real environment
 *                            and, when it succeeds, records every buffer it
 *                            handed out (allocbuf, allocallocbuf and the
 *                            allocfieldbuf fields of the structs it filled);
 *                            check/ replaces a few with its own;
 * the tables jvmticheck_functions and jvmticheck_traced_functions (the
 * tracing of jvmtigen_entry.c, around the checking entries), which each
 * checking environment copies into a table of its own; and per event a
 * callback that hands the agent its checking environment
 * (jvmticheck_wrap_callbacks); per slot an entry for an environment's table
 * to hold where it would be empty. Nothing here is written by hand, so a
 * new spec version needs no edits. */
#include <stdlib.h>
#include <string.h>

#include "c/emit.h"
#include "c/impl.h"
#include "model/ctype.h"
#include "model/guard.h"

static const Typedef *typedef_named(const Spec *s, const char *name)
{
    for (size_t i = 0; name && i < s->n_typedefs; i++)
        if (strcmp(s->typedefs[i]->id, name) == 0)
            return s->typedefs[i];
    return NULL;
}

static void owned(Buf *o, int depth, const Function *f, const char *expr)
{
    buf_printf(o, "%*sjvmticheck_owned(env, \"%s\", (const void *)(%s));\n", 8 + 4 * depth, "",
               f->id, expr);
}

/* The buffers inside a struct value `expr` of type td (its allocfieldbuf
 * fields, and theirs when they hold structs with a count). */
static void track_struct(Buf *o, const Spec *s, const Function *f, const Typedef *td,
                         const char *expr, int depth)
{
    for (size_t i = 0; td && i < td->n_fields && depth < 4; i++) {
        const Param *fl = td->fields[i];
        const Type *t = fl->type;
        Buf e;
        buf_init(&e);
        buf_printf(&e, "(%s).%s", expr, fl->name);
        if (t->kind == TK_ALLOCFIELDBUF) {
            owned(o, depth, f, e.data);
            const Typedef *inner =
                t->elem->kind == TK_STRUCT ? typedef_named(s, t->elem->name) : NULL;
            if (inner && t->outcount) {
                Buf sub;
                buf_init(&sub);
                buf_printf(&sub, "%s[jvmticheck_i%d]", e.data, depth);
                Buf in;
                buf_init(&in);
                track_struct(&in, s, f, inner, sub.data, depth + 1);
                if (in.len)
                    buf_printf(
                        o,
                        "%*sfor (jint jvmticheck_i%d = 0; %s != NULL && jvmticheck_i%d < (%s).%s; "
                        "jvmticheck_i%d++) {\n%s%*s}\n",
                        8 + 4 * depth, "", depth, e.data, depth, expr, t->outcount, depth, in.data,
                        8 + 4 * depth, "");
                buf_free(&in);
                buf_free(&sub);
            }
        } else if (t->kind == TK_STRUCT) {
            track_struct(o, s, f, typedef_named(s, t->name), e.data, depth);
        }
        buf_free(&e);
    }
}

/* What a successful call of f handed out, for each output parameter. */
static void track_outputs(Buf *o, const Spec *s, const Function *f)
{
    for (size_t i = 0; i < f->n_params; i++) {
        const Param *p = f->params[i];
        const Type *t = p->type;
        if (!param_in_call(p))
            continue;
        const Typedef *td =
            t->elem && t->elem->kind == TK_STRUCT ? typedef_named(s, t->elem->name) : NULL;
        Buf e, body;
        buf_init(&e);
        buf_init(&body);
        buf_printf(&e, "*%s", p->name);
        Buf *all = o; /* what this parameter adds goes under its NULL test */
        o = &body;
        switch (t->kind) {
        case TK_ALLOCBUF:
        case TK_ALLOCALLOCBUF:
            owned(o, 0, f, e.data);
            if (t->outcount && (t->kind == TK_ALLOCALLOCBUF || td)) {
                Buf el;
                buf_init(&el);
                buf_printf(&el, "(*%s)[jvmticheck_i]", p->name);
                Buf in;
                buf_init(&in);
                if (t->kind == TK_ALLOCALLOCBUF)
                    owned(&in, 1, f, el.data);
                else
                    track_struct(&in, s, f, td, el.data, 1);
                if (in.len)
                    buf_printf(
                        o,
                        "        for (jint jvmticheck_i = 0; *%s != NULL && jvmticheck_i < *%s; "
                        "jvmticheck_i++) {\n%s        }\n",
                        p->name, t->outcount, in.data);
                buf_free(&in);
                buf_free(&el);
            }
            break;
        case TK_OUTPTR:
            if (td)
                track_struct(o, s, f, td, e.data, 0);
            break;
        default: break;
        }
        o = all;
        /* An out-parameter may be NULL where the spec lets it (nullok). */
        if (body.len)
            buf_printf(o, "        if (%s != NULL) {\n%s        }\n", p->name, body.data);
        buf_free(&body);
        buf_free(&e);
    }
}

static void forwarder(Buf *o, const Spec *s, const Function *f)
{
    Buf track;
    buf_init(&track);
    track_outputs(&track, s, f);
    /* Declared first: check/ may define its own (strong) in its place. */
    buf_printf(o, "\njvmtiError jvmticheck_forward_%s", f->id);
    impl_params_append(o, f);
    buf_puts(o, ";\nJVMTICHECK_WEAK jvmtiError\n");
    buf_printf(o, "jvmticheck_forward_%s", f->id);
    impl_params_append(o, f);
    buf_printf(o,
               "\n{\n    jvmtiEnv *jvmticheck_r = JVMTICHECK_REAL(env);\n"
               "    jvmtiError jvmticheck_err = (*jvmticheck_r)->%s(jvmticheck_r",
               f->id);
    for (size_t i = 0; i < f->n_params; i++)
        if (param_in_call(f->params[i]))
            buf_printf(o, ", %s", f->params[i]->name);
    buf_puts(o, ");\n");
    if (track.len)
        buf_printf(o, "    if (jvmticheck_err == JVMTI_ERROR_NONE) {\n%s    }\n", track.data);
    buf_puts(o, "    return jvmticheck_err;\n}\n");
    buf_free(&track);
}

static const char *phase_text(PhaseRule r)
{
    switch (r) {
    case RULE_LIVE: return "may only be called during the live phase";
    case RULE_START: return "may only be called during the start or live phase";
    case RULE_ONLOAD: return "may only be called during the OnLoad or live phase";
    case RULE_ONLOAD_ONLY: return "may only be called during the OnLoad phase";
    case RULE_ANY: break;
    }
    return "";
}

static const char *phase_cond(PhaseRule r)
{
    switch (r) {
    case RULE_LIVE: return "jvmticheck_phase != JVMTI_PHASE_LIVE";
    case RULE_START:
        return "jvmticheck_phase != JVMTI_PHASE_START && jvmticheck_phase != JVMTI_PHASE_LIVE";
    case RULE_ONLOAD:
        return "jvmticheck_phase != JVMTI_PHASE_ONLOAD && jvmticheck_phase != JVMTI_PHASE_LIVE";
    case RULE_ONLOAD_ONLY: return "jvmticheck_phase != JVMTI_PHASE_ONLOAD";
    case RULE_ANY: break;
    }
    return "0";
}

/* One broken rule: `cond` true means the call breaks it. The chain is an
 * else-if ladder, so only the first broken rule is reported, as the VM
 * returns only the first error. */
static void rule(Buf *o, bool *first, const Function *f, const char *cond, const char *what,
                 const char *text, const char *err)
{
    buf_printf(o,
               "    %sif (JVMTICHECK_UNLIKELY(%s))\n        jvmticheck_broke(env, \"%s\", %s%s%s, "
               "\"%s\", %s);\n",
               *first ? "" : "else ", cond, f->id, what ? "\"" : "", what ? what : "NULL",
               what ? "\"" : "", text, err);
    *first = false;
}

/* The phases a rule allows, as JVMTICHECK_PHASE_IN's arguments. */
static const char *phase_allowed(PhaseRule r)
{
    switch (r) {
    case RULE_LIVE: return "JVMTI_PHASE_LIVE, JVMTI_PHASE_LIVE";
    case RULE_START: return "JVMTI_PHASE_START, JVMTI_PHASE_LIVE";
    case RULE_ONLOAD: return "JVMTI_PHASE_ONLOAD, JVMTI_PHASE_LIVE";
    case RULE_ONLOAD_ONLY: return "JVMTI_PHASE_ONLOAD, JVMTI_PHASE_ONLOAD";
    case RULE_ANY: break;
    }
    return "";
}

/* Where a guard's test goes in the quick path, the cheapest first: the
 * parameters (registers), the phase (one load), the calling thread (one
 * thread-local), the environment (a short walk), then the capabilities
 * (a word of the environment found valid, so after it: guards_of lists
 * the environment for every function). */
static int quick_rank(GuardKind k)
{
    switch (k) {
    case G_PHASE: return 1;
    case G_ATTACHED: return 2;
    case G_ENV: return 3;
    case G_CAPABILITY: return 4;
    default: return 0;
    }
}

/* The quick path's test of g: what holds when g's rule is not broken
 * (nothing, for a rule with no test here). */
static void quick_one(Buf *t, const Guard *g)
{
    const GuardKindInfo *k = &guard_kinds[g->kind];
    const char *p = g->param ? g->param->name : NULL;
    switch (g->kind) {
    case G_PHASE:
        if (g->phase != RULE_ANY)
            buf_printf(t, "JVMTICHECK_PHASE_IN(%s)", phase_allowed(g->phase));
        break;
    case G_ATTACHED:
        if (g->attach != ATTACH_JAVA_OR_VM)
            buf_puts(t, "JVMTICHECK_ATTACHED_HERE()");
        break;
    case G_ENV: buf_puts(t, "JVMTICHECK_ENV_VALID(env)"); break;
    case G_CAPABILITY: buf_printf(t, "JVMTICHECK_HAS_CAPABILITY(env, %s)", g->cap); break;
    case G_DEPTH: buf_printf(t, "%s >= 0", p); break;
    case G_MIN: buf_printf(t, "%s >= %lld", p, g->min); break;
    default:
        if (k->refuses_null && k->finding && !g->null_is_current)
            buf_printf(t, "%s != NULL", p);
        break;
    }
}

/* The quick path's test (q): the negation of every rule, in quick_rank's
 * order. Only reads with no effect, so the order is free. */
static void quick_test(Buf *q, const Guard *gs, size_t n)
{
    Buf t;
    buf_init(&t);
    for (int rank = 0; rank <= 4; rank++) {
        for (size_t i = 0; i < n; i++) {
            if (quick_rank(gs[i].kind) != rank)
                continue;
            buf_reset(&t);
            quick_one(&t, &gs[i]);
            if (t.len)
                buf_printf(q, "%s%s", q->len ? "\n        && " : "", t.data);
        }
    }
    buf_free(&t);
}

/* Per function two: jvmticheck_checked_NAME, every rule in the
 * trampolines' order and the first broken one a finding (cold: a call
 * that passes never runs it), and jvmticheck_entry_NAME, the table's, which
 * forwards at once when every rule holds and otherwise hands the call to
 * the first, which tests them all again in their order. So a passing call
 * costs its tests, no call, no lock, no write. */
static void entry(Buf *o, const Function *f)
{
    size_t n;
    Guard *gs = guards_of(f, &n);
    bool first = true, env_checked = false;
    Buf body, c, t, q;
    buf_init(&body);
    buf_init(&c);
    buf_init(&t);
    buf_init(&q);
    for (size_t i = 0; i < n; i++) {
        const Guard *g = &gs[i];
        const GuardKindInfo *k = &guard_kinds[g->kind];
        const char *p = g->param ? g->param->name : NULL;
        buf_reset(&c);
        buf_reset(&t);
        switch (g->kind) {
        case G_PHASE:
            if (g->phase != RULE_ANY)
                rule(&body, &first, f, phase_cond(g->phase), NULL, phase_text(g->phase),
                     "JVMTI_ERROR_WRONG_PHASE");
            break;
        case G_ATTACHED:
            buf_printf(&c, "!JVMTICHECK_ATTACHED(%s)",
                       g->attach == ATTACH_JAVA         ? "JVMTICHECK_JAVA"
                       : g->attach == ATTACH_JAVA_OR_VM ? "JVMTICHECK_JAVA_OR_VM"
                                                        : "JVMTICHECK_JAVA_IF_THREADS");
            rule(&body, &first, f, c.data, NULL,
                 g->attach == ATTACH_JAVA_IF_THREADS
                     ? "must be called on an attached thread once the VM has threads"
                     : "must be called on an attached thread",
                 "JVMTI_ERROR_UNATTACHED_THREAD");
            break;
        case G_ENV:
            rule(&body, &first, f, "!JVMTICHECK_ENV_VALID(env)", "env", k->finding, k->error);
            env_checked = true;
            break;
        case G_CAPABILITY:
            buf_printf(&c, "!JVMTICHECK_HAS_CAPABILITY(env, %s)", g->cap);
            buf_printf(&t, k->finding, g->cap);
            rule(&body, &first, f, c.data, NULL, t.data, k->error);
            break;
        case G_DEPTH:
            buf_printf(&c, "%s < 0", p);
            rule(&body, &first, f, c.data, p, k->finding, k->error);
            break;
        case G_MIN: {
            char min[32];
            snprintf(min, sizeof min, "%lld", g->min);
            buf_printf(&c, "%s < %s", p, min);
            buf_printf(&t, k->finding, min);
            rule(&body, &first, f, c.data, p, t.data, k->error);
            break;
        }
        default:
            /* The VM's own judgement (the hook, G_NATIVE) is left to it. */
            if (k->refuses_null && k->finding && !g->null_is_current) {
                buf_printf(&c, "%s == NULL", p);
                rule(&body, &first, f, c.data, p, k->finding, k->error);
            }
            break;
        }
    }
    quick_test(&q, gs, n);
    bool need_phase = false;
    for (size_t i = 0; i < n; i++)
        need_phase |= gs[i].kind == G_PHASE && gs[i].phase != RULE_ANY;
    buf_puts(o, q.len ? "\nJVMTICHECK_COLD static jvmtiError\n" : "\nstatic jvmtiError JNICALL\n");
    buf_printf(o, "jvmticheck_%s_%s", q.len ? "checked" : "entry", f->id);
    impl_params_append(o, f);
    buf_puts(o, "\n{\n");
    if (need_phase)
        buf_puts(o, "    jvmtiPhase jvmticheck_phase = JVMTICHECK_PHASE();\n");
    buf_puts(o, body.data ? body.data : "");
    /* The VM must never see an environment that is not one of its own. */
    if (env_checked)
        buf_puts(o, "    if (JVMTICHECK_UNLIKELY(!JVMTICHECK_ENV_VALID(env)))\n"
                    "        return JVMTI_ERROR_INVALID_ENVIRONMENT;\n");
    buf_printf(o, "    return jvmticheck_forward_%s", f->id);
    call_args_append(o, f);
    buf_puts(o, ";\n}\n");
    if (q.len) {
        buf_puts(o, "\nstatic jvmtiError JNICALL\n");
        buf_printf(o, "jvmticheck_entry_%s", f->id);
        impl_params_append(o, f);
        buf_printf(o, "\n{\n    if (JVMTICHECK_LIKELY(%s))\n        return jvmticheck_forward_%s",
                   q.data, f->id);
        call_args_append(o, f);
        buf_printf(o, ";\n    return jvmticheck_checked_%s", f->id);
        call_args_append(o, f);
        buf_puts(o, ";\n}\n");
    }
    buf_free(&body);
    buf_free(&c);
    buf_free(&t);
    buf_free(&q);
    free(gs);
}

/* The agent's callbacks get its checking environment, not the VM's. */
static void event_wrapper(Buf *o, const Event *e)
{
    buf_printf(o, "\nstatic void JNICALL\njvmticheck_event_%s(jvmtiEnv *jvmticheck_r", e->id);
    Buf p;
    buf_init(&p);
    cparams_append(&p, e->params, e->n_params, ", ");
    if (p.len)
        buf_printf(o, ", %s", p.data);
    buf_free(&p);
    buf_printf(o,
               ")\n{\n    jvmticheck_env *jvmticheck_e = jvmticheck_env_of(jvmticheck_r);\n"
               "    jvmticheck_event_call jvmticheck_c;\n"
               "    jvmtiEvent%s jvmticheck_cb;\n"
               "    if (jvmticheck_e == NULL || (jvmticheck_cb = JVMTICHECK_CALLBACK(jvmticheck_e, "
               "%s)) == NULL)\n"
               "        return;\n"
               "    jvmticheck_event_begin(&jvmticheck_c, jvmticheck_e, \"%s\");\n"
               "    jvmticheck_cb((jvmtiEnv *)jvmticheck_e",
               e->id, e->id, e->id);
    for (size_t i = 0; i < e->n_params; i++)
        if (param_in_call(e->params[i]))
            buf_printf(o, ", %s", e->params[i]->name);
    buf_puts(o, ");\n");
    /* A buffer the agent hands the VM (ClassFileLoadHook's new class data,
     * which the VM deallocates) is no longer the agent's. */
    for (size_t i = 0; i < e->n_params; i++)
        if (param_in_call(e->params[i]) && e->params[i]->type->kind == TK_AGENTBUF)
            buf_printf(o, "    if (%s != NULL && *%s != NULL)\n        jvmticheck_disown(*%s);\n",
                       e->params[i]->name, e->params[i]->name, e->params[i]->name);
    buf_puts(o, "    jvmticheck_event_end(&jvmticheck_c);\n}\n");
}

static void forwarder_and_entry(Buf *o, const Spec *s, const Function *f)
{
    forwarder(o, s, f);
    entry(o, f);
}

/* Per slot of the table an entry that says which slot it stands for:
 * check/tables.c puts it in an environment's table where the spec reserves
 * the slot or the VM has no function there, so no slot the agent is handed
 * is NULL. */
static void empty_slots(Buf *o, const Spec *s)
{
    int max = max_table_num(s);
    buf_puts(o, "\n/* ---- empty slots ---- */\n");
    for (int num = 1; num <= max; num++)
        buf_printf(o, "JVMTICHECK_EMPTY(%d)\n", num);
    buf_puts(o,
             "\njvmticheck_empty_entry *const jvmticheck_empty_entries[JVMTIGEN_FUNCTION_SLOTS] = "
             "{\n    NULL,\n");
    for (int num = 1; num <= max; num++)
        buf_printf(o, "    jvmticheck_empty_%d,\n", num);
    buf_puts(o, "};\n");
}

void emit_check(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "libjvmticheck: checking entries, forwarders and event wrappers");
    buf_puts(o, "\n#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n"
                "#include \"jvmti.h\"\n#include \"jvmtigen_tables.h\"\n"
                "#include \"jvmtigen_trace.h\"\n#include \"jvmticheck.h\"\n");
    emit_entries_and_tables(o, s, "jvmticheck", forwarder_and_entry);

    buf_puts(o, "\n/* ---- events ---- */\n");
    for (size_t i = 0; i < s->n_events; i++)
        event_wrapper(o, s->events[i]);
    buf_puts(o, "\nvoid jvmticheck_wrap_callbacks(const jvmtiEventCallbacks *agent, "
                "jvmtiEventCallbacks *vm)\n{\n    memset(vm, 0, sizeof *vm);\n");
    for (size_t i = 0; i < s->n_events; i++)
        buf_printf(o, "    if (agent->%s != NULL)\n        vm->%s = jvmticheck_event_%s;\n",
                   s->events[i]->id, s->events[i]->id, s->events[i]->id);
    buf_puts(o, "}\n");
    empty_slots(o, s);
}
