#include "model/errors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ctype.h"

const ParamErrorKindInfo param_error_kinds[PE_COUNT] = {
    [PE_NULL] = {"null", "JVMTI_ERROR_NULL_POINTER", G_NULL, "%p is NULL."},
    [PE_MONITOR] = {"monitor", "JVMTI_ERROR_INVALID_MONITOR", G_MONITOR,
                    "%p is not a raw monitor."},
    [PE_THREAD] = {"thread", "JVMTI_ERROR_INVALID_THREAD", G_THREAD, "%p is not a thread object."},
    [PE_THREAD_ALIVE] = {"thread-alive", "JVMTI_ERROR_THREAD_NOT_ALIVE", G_THREAD,
                         "%p is not alive: not started yet, or already terminated."},
    [PE_THREAD_GROUP] = {"thread-group", "JVMTI_ERROR_INVALID_THREAD_GROUP", -1,
                         "%p is not a thread group."},
    [PE_OBJECT] = {"object", "JVMTI_ERROR_INVALID_OBJECT", -1, "%p is not an object reference."},
    [PE_DEPTH] = {"depth", "JVMTI_ERROR_ILLEGAL_ARGUMENT", G_DEPTH, "%p is less than zero."},
    [PE_FRAMES] = {"frames", "JVMTI_ERROR_NO_MORE_FRAMES", -1,
                   "The stack has no frame at depth %p."},
    [PE_CLASS] = {"class", "JVMTI_ERROR_INVALID_CLASS", G_CLASS,
                  "%p is not a class object, or the class has been unloaded."},
    [PE_METHOD] = {"method", "JVMTI_ERROR_INVALID_METHODID", G_METHOD, "%p is not a method ID."},
    [PE_NATIVE] = {"native", "JVMTI_ERROR_NATIVE_METHOD", G_NATIVE, "%p is a native method."},
    [PE_FIELD] = {"field", "JVMTI_ERROR_INVALID_FIELDID", G_FIELD, "%p is not a field ID%c."},
    [PE_LOCATION] = {"location", "JVMTI_ERROR_INVALID_LOCATION", -1,
                     "%p is not a location in the method."},
    [PE_ENUM] = {"enum", "JVMTI_ERROR_ILLEGAL_ARGUMENT", -1, "%p is not one of the values of %t."},
    [PE_EVENT_TYPE] = {"event-type", "JVMTI_ERROR_INVALID_EVENT_TYPE", -1,
                       "%p is not an event type."},
    [PE_MIN] = {"min", "JVMTI_ERROR_ILLEGAL_ARGUMENT", G_MIN, "%p is less than %m."},
};

typedef struct Acc {
    FnErrors *e;
    size_t cap;
} Acc;

static FnError *add(Acc *a, FnErrorOrigin origin, const char *error)
{
    FnErrors *e = a->e;
    if (e->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        e->items = xrealloc(e->items, a->cap * sizeof *e->items);
    }
    FnError *x = &e->items[e->n++];
    memset(x, 0, sizeof *x);
    x->origin = origin;
    x->error = error;
    return x;
}

static void add_param(Acc *a, const Param *p, ParamErrorKind k)
{
    FnError *x = add(a, FE_PARAM, param_error_kinds[k].error);
    x->param = p;
    x->kind = k;
    for (size_t i = 0; i < a->e->n_guards; i++) {
        const Guard *g = &a->e->guards[i];
        if (g->param == p && (int)g->kind == param_error_kinds[k].guard) {
            x->on_entry = true;
            x->guard = g;
        }
    }
}

/* What a parameter's type implies, by the kind of its outer type: pointers
 * only that they may not be NULL; the handle and number types that they
 * must be valid. A thread that need not be started ("maybe", "no") cannot
 * fail for not being alive. */
static void param_errors(Acc *a, const Param *p)
{
    const Type *t = p->type;
    if (!param_in_signature(p))
        return;
    if (type_kinds[t->kind].wrapper) {
        if (!t->nullok)
            add_param(a, p, PE_NULL);
        return;
    }
    switch (t->kind) {
    case TK_JRAWMONITORID: add_param(a, p, PE_MONITOR); break;
    case TK_JTHREAD:
        add_param(a, p, PE_THREAD);
        if (!t->started || strcmp(t->started, "yes") == 0)
            add_param(a, p, PE_THREAD_ALIVE);
        break;
    case TK_JTHREADGROUP: add_param(a, p, PE_THREAD_GROUP); break;
    case TK_JOBJECT: add_param(a, p, PE_OBJECT); break;
    case TK_JFRAMEID:
        add_param(a, p, PE_DEPTH);
        add_param(a, p, PE_FRAMES);
        break;
    case TK_JCLASS: add_param(a, p, PE_CLASS); break;
    case TK_JMETHODID:
        add_param(a, p, PE_METHOD);
        if (t->native && attr_has_word(t->native, "error"))
            add_param(a, p, PE_NATIVE);
        break;
    case TK_JFIELDID: add_param(a, p, PE_FIELD); break;
    case TK_JLOCATION: add_param(a, p, PE_LOCATION); break;
    case TK_ENUM:
        add_param(a, p, t->name && strcmp(t->name, "jvmtiEvent") == 0 ? PE_EVENT_TYPE : PE_ENUM);
        break;
    case TK_JINT:
        if (t->min)
            add_param(a, p, PE_MIN);
        break;
    default: break;
    }
}

FnErrors fn_errors_of(const Function *f)
{
    FnErrors e = {0};
    e.guards = guards_of(f, &e.n_guards);
    Acc a = {&e, 0};
    for (size_t i = 0; i < f->n_required; i++) {
        FnError *x = add(&a, FE_CAPABILITY, guard_error(G_CAPABILITY));
        x->cap = f->required[i]->id;
        x->on_entry = true;
    }
    for (size_t i = 0; i < f->n_params; i++)
        param_errors(&a, f->params[i]);
    for (size_t i = 0; i < f->n_errors; i++)
        add(&a, FE_OWN, f->errors[i]->id)->own = f->errors[i];
    return e;
}

void fn_errors_free(FnErrors *e)
{
    free(e->items);
    free(e->guards);
    memset(e, 0, sizeof *e);
}
