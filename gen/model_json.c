/* `jvmtigen model`: the model as JSON (format in README.md). Every object of
 * a kind has the same keys in the same order; a value the spec leaves out is
 * null (false for the flags the model keeps as booleans). Lists keep the
 * model's document order. Nothing here reads a Loc: line numbers and prose
 * never reach the output. */
#include "model_json.h"

#include <stdbool.h>

/* Bumped when a key changes meaning or goes away. */
#define MODEL_JSON_FORMAT 1

void json_string_append(Buf *out, const char *s)
{
    if (!s) {
        buf_puts(out, "null");
        return;
    }
    buf_putc(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            buf_putc(out, '\\');
            buf_putc(out, (char)*p);
        } else if (*p < 0x20) {
            buf_printf(out, "\\u%04x", *p);
        } else {
            buf_putc(out, (char)*p); /* UTF-8 passes through byte by byte */
        }
    }
    buf_putc(out, '"');
}

/* A small writer: it places the commas, newlines and indentation. */
typedef struct Json {
    Buf *o;
    int depth;
    bool first;     /* nothing written yet in the innermost open container */
    bool after_key; /* a key was written; its value follows on the same line */
} Json;

/* Where a value or key starts: right after its key, or on a line of its own. */
static void item_start(Json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth == 0)
        return;
    if (!j->first)
        buf_putc(j->o, ',');
    buf_putc(j->o, '\n');
    for (int i = 0; i < j->depth; i++)
        buf_puts(j->o, "  ");
    j->first = false;
}

static void begin(Json *j, char bracket)
{
    item_start(j);
    buf_putc(j->o, bracket);
    j->depth++;
    j->first = true;
}

/* An empty container closes on its own line: "[]", "{}". */
static void end(Json *j, char bracket)
{
    j->depth--;
    if (!j->first) {
        buf_putc(j->o, '\n');
        for (int i = 0; i < j->depth; i++)
            buf_puts(j->o, "  ");
    }
    buf_putc(j->o, bracket);
    j->first = false;
}

static void key(Json *j, const char *k)
{
    item_start(j);
    json_string_append(j->o, k);
    buf_puts(j->o, ": ");
    j->after_key = true;
}

static void str(Json *j, const char *s)
{
    item_start(j);
    json_string_append(j->o, s);
}

static void kstr(Json *j, const char *k, const char *s)
{
    key(j, k);
    str(j, s);
}

static void kint(Json *j, const char *k, long long v)
{
    key(j, k);
    item_start(j);
    buf_printf(j->o, "%lld", v);
}

static void kbool(Json *j, const char *k, bool v)
{
    key(j, k);
    item_start(j);
    buf_puts(j->o, v ? "true" : "false");
}

static void knull(Json *j, const char *k)
{
    key(j, k);
    item_start(j);
    buf_puts(j->o, "null");
}

/* Phases and filters the spec leaves out are null, not their defaults:
 * the model keeps "absent" apart from "live". */
static void kphase(Json *j, const char *k, Phase p)
{
    if (p == PHASE_DEFAULT)
        knull(j, k);
    else
        kstr(j, k, phase_name(p));
}

static void kname_refs(Json *j, const char *k, NameRef *const *refs, size_t n)
{
    key(j, k);
    begin(j, '[');
    for (size_t i = 0; i < n; i++)
        str(j, refs[i]->id);
    end(j, ']');
}

static void kcapabilities(Json *j, NameRef *const *req, size_t n_req, NameRef *const *opt,
                          size_t n_opt)
{
    key(j, "capabilities");
    begin(j, '{');
    kname_refs(j, "required", req, n_req);
    kname_refs(j, "optional", opt, n_opt);
    end(j, '}');
}

/* Every attribute key is always there; an absent one is null. */
static void ktype(Json *j, const char *k, const Type *t)
{
    key(j, k);
    begin(j, '{');
    kstr(j, "kind", type_kinds[t->kind].xml);
    if (t->elem)
        ktype(j, "elem", t->elem);
    else
        knull(j, "elem");
    kstr(j, "name", t->name);
    kstr(j, "incount", t->incount);
    kstr(j, "outcount", t->outcount);
    kbool(j, "nullok", t->nullok);
    if (t->min)
        kint(j, "min", t->min_value);
    else
        knull(j, "min");
    kstr(j, "null", t->null);
    kstr(j, "started", t->started);
    kstr(j, "frame", t->frame);
    kstr(j, "impl", t->impl);
    kstr(j, "class", t->class_);
    kstr(j, "native", t->native);
    kstr(j, "method", t->method);
    kstr(j, "field", t->field);
    kstr(j, "thread", t->thread);
    end(j, '}');
}

/* Parameters and fields: {"name", "type"}. */
static void kparams(Json *j, const char *k, Param *const *ps, size_t n)
{
    key(j, k);
    begin(j, '[');
    for (size_t i = 0; i < n; i++) {
        begin(j, '{');
        kstr(j, "name", ps[i]->name);
        ktype(j, "type", ps[i]->type);
        end(j, '}');
    }
    end(j, ']');
}

static void categories(Json *j, const Spec *s)
{
    key(j, "categories");
    begin(j, '[');
    for (size_t i = 0; i < s->n_categories; i++) {
        const Category *c = s->categories[i];
        begin(j, '{');
        kstr(j, "id", c->id);
        kstr(j, "label", c->label);
        key(j, "functions");
        begin(j, '[');
        for (size_t f = 0; f < c->n_functions; f++)
            str(j, c->functions[f]->id);
        end(j, ']');
        key(j, "callbacks");
        begin(j, '[');
        for (size_t f = 0; f < c->n_callbacks; f++)
            str(j, c->callbacks[f]->id);
        end(j, ']');
        end(j, '}');
    }
    end(j, ']');
}

static void functions(Json *j, const Spec *s)
{
    key(j, "functions");
    begin(j, '[');
    for (size_t i = 0; i < s->n_functions; i++) {
        const Function *f = s->functions[i];
        begin(j, '{');
        kstr(j, "id", f->id);
        kint(j, "num", f->num);
        kphase(j, "phase", f->phase);
        kbool(j, "callbacksafe", f->callbacksafe);
        kstr(j, "impl", f->impl);
        kbool(j, "hide", f->hide);
        kstr(j, "jkernel", f->jkernel);
        kstr(j, "since", f->since);
        kstr(j, "synopsis", f->synopsis);
        kstr(j, "origin", f->origin);
        kbool(j, "eventcapabilities", f->eventcapabilities);
        kcapabilities(j, f->required, f->n_required, f->optional, f->n_optional);
        kparams(j, "parameters", f->params, f->n_params);
        kname_refs(j, "errors", f->errors, f->n_errors);
        kstr(j, "category", f->category ? f->category->id : NULL);
        end(j, '}');
    }
    end(j, ']');
}

static void callbacks(Json *j, const Spec *s)
{
    key(j, "callbacks");
    begin(j, '[');
    for (size_t i = 0; i < s->n_callbacks; i++) {
        const Callback *cb = s->callbacks[i];
        begin(j, '{');
        kstr(j, "id", cb->id);
        kstr(j, "since", cb->since);
        kstr(j, "synopsis", cb->synopsis);
        ktype(j, "returns", cb->ret);
        kparams(j, "parameters", cb->params, cb->n_params);
        kstr(j, "category", cb->category ? cb->category->id : NULL);
        end(j, '}');
    }
    end(j, ']');
}

static void events(Json *j, const Spec *s)
{
    key(j, "events");
    begin(j, '[');
    for (size_t i = 0; i < s->n_events; i++) {
        const Event *e = s->events[i];
        begin(j, '{');
        kstr(j, "id", e->id);
        kstr(j, "label", e->label);
        kstr(j, "const", e->const_name);
        kint(j, "num", e->num);
        kphase(j, "phase", e->phase);
        kstr(j, "filtered", e->filtered == FILTER_THREAD   ? "thread"
                            : e->filtered == FILTER_GLOBAL ? "global"
                                                           : NULL);
        kstr(j, "since", e->since);
        kcapabilities(j, e->required, e->n_required, e->optional, e->n_optional);
        kparams(j, "parameters", e->params, e->n_params);
        end(j, '}');
    }
    end(j, ']');
}

static void typedefs(Json *j, const Spec *s)
{
    key(j, "typedefs");
    begin(j, '[');
    for (size_t i = 0; i < s->n_typedefs; i++) {
        const Typedef *t = s->typedefs[i];
        begin(j, '{');
        kstr(j, "id", t->id);
        kstr(j, "label", t->label);
        kstr(j, "since", t->since);
        kbool(j, "union", t->is_union);
        kparams(j, "fields", t->fields, t->n_fields);
        end(j, '}');
    }
    end(j, ']');
}

static void capabilities(Json *j, const Spec *s)
{
    const Capabilities *c = s->capabilities;
    if (!c) {
        knull(j, "capabilities");
        return;
    }
    key(j, "capabilities");
    begin(j, '{');
    kstr(j, "id", c->id);
    kstr(j, "label", c->label);
    key(j, "fields");
    begin(j, '[');
    for (size_t i = 0; i < c->n_fields; i++) {
        const CapabilityField *f = c->fields[i];
        begin(j, '{');
        kstr(j, "id", f->id);
        kstr(j, "disp1", f->disp1);
        kstr(j, "disp2", f->disp2);
        kstr(j, "since", f->since);
        end(j, '}');
    }
    end(j, ']');
    end(j, '}');
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
    key(j, "constant_groups");
    begin(j, '[');
    for (size_t i = 0; i < s->n_constant_groups; i++) {
        const ConstantGroup *g = s->constant_groups[i];
        begin(j, '{');
        kstr(j, "id", g->id);
        kstr(j, "label", g->label);
        kstr(j, "kind", const_kind_name(g->kind));
        kstr(j, "since", g->since);
        key(j, "constants");
        begin(j, '[');
        for (size_t c = 0; c < g->n_constants; c++) {
            const Constant *k = g->constants[c];
            begin(j, '{');
            kstr(j, "id", k->id);
            kstr(j, "num", k->num);
            if (k->numeric)
                kint(j, "value", k->value);
            else
                knull(j, "value");
            end(j, '}');
        }
        end(j, ']');
        end(j, '}');
    }
    end(j, ']');
}

static void errors(Json *j, const Spec *s)
{
    key(j, "error_categories");
    begin(j, '[');
    for (size_t i = 0; i < s->n_error_categories; i++) {
        const ErrorCategory *c = s->error_categories[i];
        begin(j, '{');
        kstr(j, "id", c->id);
        kstr(j, "label", c->label);
        key(j, "errors");
        begin(j, '[');
        for (size_t e = 0; e < c->n_errors; e++)
            str(j, c->errors[e]->id);
        end(j, ']');
        end(j, '}');
    }
    end(j, ']');
    key(j, "errors");
    begin(j, '[');
    for (size_t i = 0; i < s->n_errors; i++) {
        const ErrorDef *e = s->errors[i];
        begin(j, '{');
        kstr(j, "id", e->id);
        kint(j, "num", e->num);
        kstr(j, "category", e->category ? e->category->id : NULL);
        end(j, '}');
    }
    end(j, ']');
}

static void basetypes(Json *j, const Spec *s)
{
    key(j, "basetype_groups");
    begin(j, '[');
    for (size_t i = 0; i < s->n_basetype_groups; i++) {
        const BaseTypeGroup *g = s->basetype_groups[i];
        begin(j, '{');
        kstr(j, "id", g->id);
        kstr(j, "label", g->label);
        key(j, "types");
        begin(j, '[');
        for (size_t t = 0; t < g->n_types; t++)
            str(j, g->types[t]->id);
        end(j, ']');
        end(j, '}');
    }
    end(j, ']');
    /* The model keeps no group in a BaseType; the groups hold them in
     * document order, which is the order of s->basetypes too. */
    key(j, "basetypes");
    begin(j, '[');
    for (size_t i = 0; i < s->n_basetype_groups; i++) {
        const BaseTypeGroup *g = s->basetype_groups[i];
        for (size_t t = 0; t < g->n_types; t++) {
            const BaseType *b = g->types[t];
            begin(j, '{');
            kstr(j, "id", b->id);
            kstr(j, "name", b->name);
            kstr(j, "definition", b->definition);
            kstr(j, "group", g->id);
            end(j, '}');
        }
    }
    end(j, ']');
}

void emit_model_json(const Spec *s, Buf *out)
{
    Json j = {.o = out, .depth = 0, .first = true, .after_key = false};
    begin(&j, '{');
    kint(&j, "format", MODEL_JSON_FORMAT);
    kstr(&j, "version", s->latest_version);
    categories(&j, s);
    functions(&j, s);
    callbacks(&j, s);
    events(&j, s);
    typedefs(&j, s);
    capabilities(&j, s);
    constant_groups(&j, s);
    errors(&j, s);
    basetypes(&j, s);
    end(&j, '}');
    buf_putc(out, '\n');
}
