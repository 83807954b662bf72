/* `jvmtigen model`: the model as JSON (format in README.md). Every object of
 * a kind has the same keys in the same order; a value the spec leaves out is
 * null (false for the flags the model keeps as booleans). Lists keep the
 * model's document order. Nothing here reads a Loc: line numbers and prose
 * never reach the output. */
#include "tools/model_json.h"

#include <stdbool.h>
#include <string.h>

#include "model/errors.h"
#include "base/json.h"
#include "model/refs.h"
#include "tools/model_abi.h"

/* Bumped when a key changes meaning or goes away. */
#define MODEL_JSON_FORMAT 1

/* Phases and filters the spec leaves out are null, not their defaults:
 * the model keeps "absent" apart from "live". */
static void kphase(Json *j, const char *k, Phase p)
{
    if (p == PHASE_DEFAULT)
        json_knull(j, k);
    else
        json_kstr(j, k, phase_name(p));
}

static void kname_refs(Json *j, const char *k, NameRef *const *refs, size_t n)
{
    json_key(j, k);
    json_begin(j, '[');
    for (size_t i = 0; i < n; i++)
        json_str(j, refs[i]->id);
    json_end(j, ']');
}

static void kcapabilities(Json *j, NameRef *const *req, size_t n_req, NameRef *const *opt,
                          size_t n_opt)
{
    json_key(j, "capabilities");
    json_begin(j, '{');
    kname_refs(j, "required", req, n_req);
    kname_refs(j, "optional", opt, n_opt);
    json_end(j, '}');
}

/* Every attribute key is always there; an absent one is null. */
static void ktype(Json *j, const char *k, const Type *t)
{
    json_key(j, k);
    json_begin(j, '{');
    json_kstr(j, "kind", type_kinds[t->kind].xml);
    if (t->elem)
        ktype(j, "elem", t->elem);
    else
        json_knull(j, "elem");
    json_kstr(j, "name", t->name);
    json_kstr(j, "incount", t->incount);
    json_kstr(j, "outcount", t->outcount);
    json_kbool(j, "nullok", t->nullok);
    if (t->min)
        json_kint(j, "min", t->min_value);
    else
        json_knull(j, "min");
    json_kstr(j, "null", t->null);
    json_kstr(j, "started", t->started);
    json_kstr(j, "frame", t->frame);
    json_kstr(j, "impl", t->impl);
    json_kstr(j, "class", t->class_);
    json_kstr(j, "native", t->native);
    json_kstr(j, "method", t->method);
    json_kstr(j, "field", t->field);
    json_kstr(j, "thread", t->thread);
    json_end(j, '}');
}

/* Parameters and fields: {"name", "type", "ownership", "direction",
 * "reference"}. */
static void kparams(Json *j, const char *k, Param *const *ps, size_t n, RefSite site)
{
    json_key(j, k);
    json_begin(j, '[');
    for (size_t i = 0; i < n; i++) {
        const Type *t = ps[i]->type;
        bool env = passed_in_value(t, site);
        bool out = writes_out(t, site);
        json_begin(j, '{');
        json_kstr(j, "name", ps[i]->name);
        ktype(j, "type", t);
        json_kstr(j, "ownership", env ? "value" : type_kinds[t->kind].ownership);
        json_kstr(j, "direction", out ? "out" : "in");
        json_kstr(j, "reference", reference_of(t, site));
        json_end(j, '}');
    }
    json_end(j, ']');
}

static void categories(Json *j, const Spec *s)
{
    json_key(j, "categories");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_categories; i++) {
        const Category *c = s->categories[i];
        json_begin(j, '{');
        json_kstr(j, "id", c->id);
        json_kstr(j, "label", c->label);
        json_key(j, "functions");
        json_begin(j, '[');
        for (size_t f = 0; f < c->n_functions; f++)
            json_str(j, c->functions[f]->id);
        json_end(j, ']');
        json_key(j, "callbacks");
        json_begin(j, '[');
        for (size_t f = 0; f < c->n_callbacks; f++)
            json_str(j, c->callbacks[f]->id);
        json_end(j, ']');
        json_end(j, '}');
    }
    json_end(j, ']');
}

/* "returns": every error f can return: the universal ones (the category
 * "universal-error", success aside), then errors.h's list; each says whether
 * the function table checks it on entry (the guards). */
static void kreturn(Json *j, const char *error, const char *origin, const char *param,
                    const char *cap, bool on_entry)
{
    json_begin(j, '{');
    json_kstr(j, "error", error);
    json_kstr(j, "origin", origin);
    json_kstr(j, "param", param);
    json_kstr(j, "capability", cap);
    json_kbool(j, "checked_on_entry", on_entry);
    json_end(j, '}');
}

static void kreturns(Json *j, const Spec *s, const Function *f)
{
    static const char *const origins[] = {
        [FE_CAPABILITY] = "capability", [FE_PARAM] = "param", [FE_OWN] = "own"};
    FnErrors fe = fn_errors_of(f);
    json_key(j, "returns");
    json_begin(j, '[');
    for (size_t c = 0; c < s->n_error_categories; c++) {
        const ErrorCategory *cat = s->error_categories[c];
        if (strcmp(cat->id, "universal-error") != 0)
            continue;
        for (size_t i = 0; i < cat->n_errors; i++) {
            const ErrorDef *e = cat->errors[i];
            bool on_entry = false;
            for (size_t g = 0; g < fe.n_guards; g++)
                on_entry |= fe.guards[g].kind < G_CAPABILITY &&
                            strcmp(guard_error(fe.guards[g].kind), e->id) == 0;
            if (e->num != 0)
                kreturn(j, e->id, "universal", NULL, NULL, on_entry);
        }
    }
    for (size_t i = 0; i < fe.n; i++) {
        const FnError *x = &fe.items[i];
        kreturn(j, x->error, origins[x->origin], x->param ? x->param->name : NULL, x->cap,
                x->on_entry);
    }
    json_end(j, ']');
    fn_errors_free(&fe);
}

static void functions(Json *j, const Spec *s)
{
    json_key(j, "functions");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_functions; i++) {
        const Function *f = s->functions[i];
        json_begin(j, '{');
        json_kstr(j, "id", f->id);
        json_kint(j, "num", f->num);
        kphase(j, "phase", f->phase);
        json_kbool(j, "callbacksafe", f->callbacksafe);
        json_kstr(j, "impl", f->impl);
        json_kbool(j, "hide", f->hide);
        json_kstr(j, "jkernel", f->jkernel);
        json_kstr(j, "since", f->since);
        json_kstr(j, "synopsis", f->synopsis);
        json_kstr(j, "origin", f->origin);
        json_kbool(j, "eventcapabilities", f->eventcapabilities);
        kcapabilities(j, f->required, f->n_required, f->optional, f->n_optional);
        kparams(j, "parameters", f->params, f->n_params, SITE_FUNCTION);
        kname_refs(j, "errors", f->errors, f->n_errors);
        kreturns(j, s, f);
        json_kstr(j, "category", f->category ? f->category->id : NULL);
        json_end(j, '}');
    }
    json_end(j, ']');
}

static void callbacks(Json *j, const Spec *s)
{
    json_key(j, "callbacks");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_callbacks; i++) {
        const Callback *cb = s->callbacks[i];
        json_begin(j, '{');
        json_kstr(j, "id", cb->id);
        json_kstr(j, "since", cb->since);
        json_kstr(j, "synopsis", cb->synopsis);
        ktype(j, "returns", cb->ret);
        kparams(j, "parameters", cb->params, cb->n_params, SITE_CALLBACK);
        json_kstr(j, "category", cb->category ? cb->category->id : NULL);
        json_end(j, '}');
    }
    json_end(j, ']');
}

static void events(Json *j, const Spec *s)
{
    json_key(j, "events");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_events; i++) {
        const Event *e = s->events[i];
        json_begin(j, '{');
        json_kstr(j, "id", e->id);
        json_kstr(j, "label", e->label);
        json_kstr(j, "const", e->const_name);
        json_kint(j, "num", e->num);
        kphase(j, "phase", e->phase);
        json_kstr(j, "filtered",
                  e->filtered == FILTER_THREAD   ? "thread"
                  : e->filtered == FILTER_GLOBAL ? "global"
                                                 : NULL);
        json_kstr(j, "since", e->since);
        kcapabilities(j, e->required, e->n_required, e->optional, e->n_optional);
        kparams(j, "parameters", e->params, e->n_params, SITE_CALLBACK);
        json_end(j, '}');
    }
    json_end(j, ']');
}

static void typedefs(Json *j, const Spec *s)
{
    Layouts *l = layouts_new(s);
    json_key(j, "typedefs");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_typedefs; i++) {
        const Typedef *t = s->typedefs[i];
        json_begin(j, '{');
        json_kstr(j, "id", t->id);
        json_kstr(j, "label", t->label);
        json_kstr(j, "since", t->since);
        json_kbool(j, "union", t->is_union);
        kparams(j, "fields", t->fields, t->n_fields, field_site(s, t->id));
        model_json_typedef_layout(j, s, l, i);
        json_end(j, '}');
    }
    json_end(j, ']');
    layouts_free(l);
}

static void capabilities(Json *j, const Spec *s)
{
    const Capabilities *c = s->capabilities;
    if (!c) {
        json_knull(j, "capabilities");
        return;
    }
    json_key(j, "capabilities");
    json_begin(j, '{');
    json_kstr(j, "id", c->id);
    json_kstr(j, "label", c->label);
    json_key(j, "fields");
    json_begin(j, '[');
    for (size_t i = 0; i < c->n_fields; i++) {
        const CapabilityField *f = c->fields[i];
        json_begin(j, '{');
        json_kstr(j, "id", f->id);
        json_kstr(j, "disp1", f->disp1);
        json_kstr(j, "disp2", f->disp2);
        json_kstr(j, "since", f->since);
        json_end(j, '}');
    }
    json_end(j, ']');
    json_end(j, '}');
}

static const char *const_kind_name(ConstKind k)
{
    switch (k) {
    case CONST_ENUM: return "enum";
    case CONST_BITS: return "bits";
    case CONST_CONST: return "const";
    }
    return NULL;
}

static void constant_groups(Json *j, const Spec *s)
{
    json_key(j, "constant_groups");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_constant_groups; i++) {
        const ConstantGroup *g = s->constant_groups[i];
        json_begin(j, '{');
        json_kstr(j, "id", g->id);
        json_kstr(j, "label", g->label);
        json_kstr(j, "kind", const_kind_name(g->kind));
        json_kstr(j, "since", g->since);
        json_key(j, "constants");
        json_begin(j, '[');
        for (size_t c = 0; c < g->n_constants; c++) {
            const Constant *k = g->constants[c];
            json_begin(j, '{');
            json_kstr(j, "id", k->id);
            json_kstr(j, "num", k->num);
            if (k->numeric)
                json_kint(j, "value", k->value);
            else
                json_knull(j, "value");
            json_end(j, '}');
        }
        json_end(j, ']');
        json_end(j, '}');
    }
    json_end(j, ']');
}

static void errors(Json *j, const Spec *s)
{
    json_key(j, "error_categories");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_error_categories; i++) {
        const ErrorCategory *c = s->error_categories[i];
        json_begin(j, '{');
        json_kstr(j, "id", c->id);
        json_kstr(j, "label", c->label);
        json_key(j, "errors");
        json_begin(j, '[');
        for (size_t e = 0; e < c->n_errors; e++)
            json_str(j, c->errors[e]->id);
        json_end(j, ']');
        json_end(j, '}');
    }
    json_end(j, ']');
    json_key(j, "errors");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_errors; i++) {
        const ErrorDef *e = s->errors[i];
        json_begin(j, '{');
        json_kstr(j, "id", e->id);
        json_kint(j, "num", e->num);
        json_kstr(j, "category", e->category ? e->category->id : NULL);
        json_end(j, '}');
    }
    json_end(j, ']');
}

static void basetypes(Json *j, const Spec *s)
{
    json_key(j, "basetype_groups");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_basetype_groups; i++) {
        const BaseTypeGroup *g = s->basetype_groups[i];
        json_begin(j, '{');
        json_kstr(j, "id", g->id);
        json_kstr(j, "label", g->label);
        json_key(j, "types");
        json_begin(j, '[');
        for (size_t t = 0; t < g->n_types; t++)
            json_str(j, g->types[t]->id);
        json_end(j, ']');
        json_end(j, '}');
    }
    json_end(j, ']');
    /* The model keeps no group in a BaseType; the groups hold them in
     * document order, which is the order of s->basetypes too. */
    json_key(j, "basetypes");
    json_begin(j, '[');
    for (size_t i = 0; i < s->n_basetype_groups; i++) {
        const BaseTypeGroup *g = s->basetype_groups[i];
        for (size_t t = 0; t < g->n_types; t++) {
            const BaseType *b = g->types[t];
            json_begin(j, '{');
            json_kstr(j, "id", b->id);
            json_kstr(j, "name", b->name);
            json_kstr(j, "definition", b->definition);
            json_kstr(j, "group", g->id);
            json_end(j, '}');
        }
    }
    json_end(j, ']');
}

void emit_model_json(const Spec *s, Buf *out)
{
    Json j = json_writer(out);
    json_begin(&j, '{');
    json_kint(&j, "format", MODEL_JSON_FORMAT);
    json_kstr(&j, "version", s->version);
    categories(&j, s);
    functions(&j, s);
    callbacks(&j, s);
    events(&j, s);
    typedefs(&j, s);
    capabilities(&j, s);
    constant_groups(&j, s);
    errors(&j, s);
    basetypes(&j, s);
    model_json_abi(&j, s);
    json_end(&j, '}');
    buf_putc(out, '\n');
}
