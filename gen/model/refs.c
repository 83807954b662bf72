#include "model/refs.h"

#include <string.h>

static unsigned struct_uses_from(const Spec *s, const char *id, int depth)
{
    unsigned uses = 0;
    for (size_t i = 0; i < s->n_functions; i++)
        for (size_t p = 0; p < s->functions[i]->n_params; p++) {
            const Type *t = s->functions[i]->params[p]->type;
            if (!t->elem || !t->elem->name || strcmp(t->elem->name, id) != 0)
                continue;
            uses |= t->kind == TK_INPTR || t->kind == TK_INBUF     ? USE_IN
                    : t->kind == TK_OUTPTR || t->kind == TK_OUTBUF ? USE_OUT
                                                                   : USE_VM;
        }
    for (size_t i = 0; i < s->n_typedefs && depth < 16; i++)
        for (size_t f = 0; f < s->typedefs[i]->n_fields; f++) {
            const Type *t = s->typedefs[i]->fields[f]->type;
            const Type *e = t->elem ? t->elem : t;
            if (e->name && strcmp(e->name, id) == 0) {
                unsigned outer = struct_uses_from(s, s->typedefs[i]->id, depth + 1);
                uses |= outer ? outer : USE_IN_UNPASSED;
            }
        }
    for (size_t i = 0; i < s->n_callbacks; i++)
        for (size_t p = 0; p < s->callbacks[i]->n_params; p++) {
            const Type *t = s->callbacks[i]->params[p]->type;
            const Type *e = t->elem ? t->elem : t;
            if (e->name && strcmp(e->name, id) == 0)
                uses |= USE_CALLBACK;
        }
    return uses;
}

unsigned struct_uses(const Spec *s, const char *id) { return struct_uses_from(s, id, 0); }

RefSite field_site(const Spec *s, const char *id)
{
    return struct_uses(s, id) == USE_IN ? SITE_FIELD_IN : SITE_FIELD;
}

bool passed_in_value(const Type *t, RefSite site)
{
    if (site != SITE_CALLBACK || t->kind != TK_OUTPTR || !t->elem)
        return false;
    if (t->elem->kind == TK_VOID)
        return true;
    return t->elem->name &&
           (strcmp(t->elem->name, "JNIEnv") == 0 || strcmp(t->elem->name, "jvmtiEnv") == 0);
}

bool writes_out(const Type *t, RefSite site)
{
    TypeKind k = t->kind;
    return !passed_in_value(t, site) &&
           (k == TK_OUTPTR || k == TK_OUTBUF || k == TK_ALLOCBUF || k == TK_ALLOCALLOCBUF ||
            k == TK_ALLOCFIELDBUF || k == TK_AGENTBUF);
}

/* The JNI reference types (jni.h's jobject and its kinds). */
static bool is_reference(const Type *t)
{
    while (t->elem)
        t = t->elem;
    return t->kind == TK_JOBJECT || t->kind == TK_JCLASS || t->kind == TK_JTHREAD ||
           t->kind == TK_JTHREADGROUP;
}

const char *reference_of(const Type *t, RefSite site)
{
    if (!is_reference(t))
        return NULL;
    switch (site) {
    case SITE_CALLBACK: return "callback-local";
    case SITE_FIELD_IN: return "caller";
    case SITE_FIELD: return "local";
    case SITE_FUNCTION: break;
    }
    return writes_out(t, site) ? "local" : "caller";
}
