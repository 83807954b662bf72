#include "c/guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c/ctype.h"

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

const char *guard_error(GuardKind k)
{
    switch (k) {
    case G_PHASE: return "JVMTI_ERROR_WRONG_PHASE";
    case G_ATTACHED: return "JVMTI_ERROR_UNATTACHED_THREAD";
    case G_ENV: return "JVMTI_ERROR_INVALID_ENVIRONMENT";
    case G_CAPABILITY: return "JVMTI_ERROR_MUST_POSSESS_CAPABILITY";
    case G_NULL: return "JVMTI_ERROR_NULL_POINTER";
    case G_MONITOR: return "JVMTI_ERROR_INVALID_MONITOR";
    case G_THREAD: return "JVMTI_ERROR_INVALID_THREAD";
    case G_DEPTH: return "JVMTI_ERROR_ILLEGAL_ARGUMENT";
    case G_CLASS: return "JVMTI_ERROR_INVALID_CLASS";
    case G_METHOD: return "JVMTI_ERROR_INVALID_METHODID";
    case G_NATIVE: return "JVMTI_ERROR_NATIVE_METHOD";
    case G_FIELD: return "JVMTI_ERROR_INVALID_FIELDID";
    case G_MIN: return "JVMTI_ERROR_ILLEGAL_ARGUMENT";
    }
    return "JVMTI_ERROR_INTERNAL";
}

static const Param *find_param(const Function *f, const char *name)
{
    for (size_t i = 0; name && i < f->n_params; i++)
        if (strcmp(f->params[i]->name, name) == 0)
            return f->params[i];
    return NULL;
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
        g->klass = find_param(f, t->class_);
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
        push(&gs, &n, &cap, G_ATTACHED)->attach =
            f->callbacksafe ? ATTACH_JAVA_OR_VM : ATTACH_JAVA;
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
