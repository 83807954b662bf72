#include "model/guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ctype.h"

PhaseRule phase_rule(const Function *f) { return phase_rule_of(f->phase); }

PhaseRule phase_rule_of(Phase p)
{
    switch (p) {
    case PHASE_START: return RULE_START;
    case PHASE_ONLOAD: return RULE_ONLOAD;
    case PHASE_ONLOAD_ONLY: return RULE_ONLOAD_ONLY;
    case PHASE_ANY: return RULE_ANY;
    case PHASE_LIVE:
    case PHASE_DEFAULT: break;
    }
    return RULE_LIVE;
}

const GuardKindInfo guard_kinds[G_COUNT] = {
    [G_PHASE] = {"JVMTI_ERROR_WRONG_PHASE", false, NULL, "called in the %s", NULL, NULL},
    [G_ATTACHED] = {"JVMTI_ERROR_UNATTACHED_THREAD", false, NULL, "%s", NULL, NULL},
    [G_ENV] = {"JVMTI_ERROR_INVALID_ENVIRONMENT", false, NULL, "env is a valid environment", NULL,
               "must be a valid environment"},
    [G_CAPABILITY] = {"JVMTI_ERROR_MUST_POSSESS_CAPABILITY", false, NULL, "env possesses %s", NULL,
                      "requires the capability %s"},
    [G_NULL] = {"JVMTI_ERROR_NULL_POINTER", true, NULL, "%s is not NULL", NULL, "must not be NULL"},
    [G_MONITOR] = {"JVMTI_ERROR_INVALID_MONITOR", true, "JVMTIGEN_CHECK_MONITOR",
                   "%s is a raw monitor", NULL, "must be a raw monitor, not NULL"},
    [G_THREAD] = {"JVMTI_ERROR_INVALID_THREAD", true, "JVMTIGEN_CHECK_THREAD",
                  "%s is a live thread", "%s is NULL (the calling thread) or a live thread",
                  "must be a thread, not NULL"},
    [G_DEPTH] = {"JVMTI_ERROR_ILLEGAL_ARGUMENT", false, NULL, "%s >= 0", NULL,
                 "must be zero or greater"},
    [G_CLASS] = {"JVMTI_ERROR_INVALID_CLASS", true, "JVMTIGEN_CHECK_CLASS", "%s is a class",
                 "%s is a class, not a primitive one", "must be a class, not NULL"},
    [G_METHOD] = {"JVMTI_ERROR_INVALID_METHODID", true, "JVMTIGEN_CHECK_METHOD", "%s is a method",
                  NULL, "must be a method ID, not NULL"},
    /* only the VM knows whether a method is native: libjvmticheck leaves it */
    [G_NATIVE] = {"JVMTI_ERROR_NATIVE_METHOD", false, NULL, "%s is not native", NULL, NULL},
    [G_FIELD] = {"JVMTI_ERROR_INVALID_FIELDID", true, "JVMTIGEN_CHECK_FIELD", "%s is a field",
                 "%s is a field of %s", "must be a field ID, not NULL"},
    [G_MIN] = {"JVMTI_ERROR_ILLEGAL_ARGUMENT", false, NULL, "%s >= %s", NULL,
               "must be %s or greater"},
};

const char *guard_error(GuardKind k) { return guard_kinds[k].error; }

static const char *const rule_text[] = {
    [RULE_LIVE] = "live phase",
    [RULE_START] = "start or live phase",
    [RULE_ONLOAD] = "OnLoad or live phase",
    [RULE_ONLOAD_ONLY] = "OnLoad phase",
    [RULE_ANY] = "any phase",
};

static const char *const attach_text[] = {
    [ATTACH_JAVA] = "the calling thread is an attached Java thread",
    [ATTACH_JAVA_OR_VM] = "the calling thread is a Java thread or one of the VM's own",
    [ATTACH_JAVA_IF_THREADS] = "the calling thread is a Java thread, once the VM has threads",
};

void guard_promise_append(Buf *b, const Guard *g)
{
    const GuardKindInfo *k = &guard_kinds[g->kind];
    const char *subject = g->kind == G_PHASE        ? rule_text[g->phase]
                          : g->kind == G_ATTACHED   ? attach_text[g->attach]
                          : g->kind == G_CAPABILITY ? g->cap
                          : g->param                ? g->param->name
                                                    : "";
    char min[32] = "";
    if (g->kind == G_MIN) /* snprintf for every guard cost 0.7% of a --no-docs run */
        snprintf(min, sizeof min, "%lld", g->min);
    const char *detail = g->kind == G_MIN ? min : g->klass ? g->klass->name : "";
    bool alt = k->promise_alt && (g->null_is_current || g->class_of_member || g->klass);
    buf_printf(b, alt ? k->promise_alt : k->promise, subject, detail);
}

static Guard *push(Guard **gs, size_t *n, size_t *cap, GuardKind k)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *gs = xrealloc(*gs, *cap * sizeof **gs);
    }
    Guard *g = &(*gs)[(*n)++];
    memset(g, 0, sizeof *g);
    g->kind = k;
    return g;
}

/* The checks of one parameter, by the kind of its (outer) type. */
static void param_guards(const Function *f, const Param *p, Guard **gs, size_t *n, size_t *cap)
{
    const Type *t = p->type;
    if (!param_in_signature(p))
        return;
    Guard *g;
    /* clang-format off */
    switch (t->kind) {
    case TK_PTRTYPE: case TK_OUTPTR: case TK_OUTBUF: case TK_ALLOCFIELDBUF: case TK_INPTR:
    case TK_INBUF: case TK_VMBUF: case TK_ALLOCBUF: case TK_AGENTBUF: case TK_ALLOCALLOCBUF:
        /* impl="nonullcheck": the implementation gives NULL its own meaning. */
        if (!t->nullok && !attr_has_word(t->impl, "nonullcheck"))
            push(gs, n, cap, G_NULL)->param = p;
        break;
    case TK_JRAWMONITORID:
        push(gs, n, cap, G_MONITOR)->param = p;
        break;
    case TK_JTHREAD:
        /* impl="noconvert": the implementation takes the jthread as it is. */
        if (!attr_has_word(t->impl, "noconvert")) {
            g = push(gs, n, cap, G_THREAD);
            g->param = p;
            g->null_is_current = t->null != NULL;
        }
        break;
    case TK_JFRAMEID:
        push(gs, n, cap, G_DEPTH)->param = p;
        break;
    case TK_JCLASS:
        g = push(gs, n, cap, G_CLASS);
        g->param = p;
        g->class_of_member = t->field != NULL;
        break;
    case TK_JMETHODID:
        push(gs, n, cap, G_METHOD)->param = p;
        if (t->native && attr_has_word(t->native, "error"))
            push(gs, n, cap, G_NATIVE)->param = p;
        break;
    case TK_JFIELDID:
        g = push(gs, n, cap, G_FIELD);
        g->param = p;
        g->klass = param_named(f->params, f->n_params, t->class_);
        break;
    case TK_JINT:
        if (t->min) {
            g = push(gs, n, cap, G_MIN);
            g->param = p;
            g->min = t->min_value;
        }
        break;
    default:
        break;
    }
    /* clang-format on */
}

Guard *guards_of(const Function *f, size_t *n_out)
{
    Guard *gs = NULL;
    size_t n = 0, cap = 0;
    PhaseRule rule = phase_rule(f);
    bool late = rule == RULE_LIVE || rule == RULE_START;
    if (rule != RULE_ANY)
        push(&gs, &n, &cap, G_PHASE)->phase = rule;
    if (late)
        push(&gs, &n, &cap, G_ATTACHED)->attach = f->callbacksafe ? ATTACH_JAVA_OR_VM : ATTACH_JAVA;
    push(&gs, &n, &cap, G_ENV);
    for (size_t i = 0; i < f->n_required; i++)
        push(&gs, &n, &cap, G_CAPABILITY)->cap = f->required[i]->id;
    /* Early-phase functions may run before the VM has threads; a callback-safe
     * one may also run on a thread the VM does not know. */
    if (!late && !f->callbacksafe)
        push(&gs, &n, &cap, G_ATTACHED)->attach = ATTACH_JAVA_IF_THREADS;
    for (size_t i = 0; i < f->n_params; i++)
        param_guards(f, f->params[i], &gs, &n, &cap);
    *n_out = n;
    return gs;
}
