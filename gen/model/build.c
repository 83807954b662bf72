#include "model/build.h"

#include <limits.h>
#include <string.h>

#include "model/cexpr.h"
#include "model/facts.h"

/* Names walk_kind remembers, by the name's address: libxml2 makes every
 * element's name one string of its dictionary. A power of two, over the
 * hundred or so element names of a spec. */
#define WALK_SEEN 256

typedef struct Builder {
    Spec *spec;
    Arena *a;
    const char *file;
    Vec intros, categories, functions, callbacks, typedefs, events, error_categories, errors,
        constant_groups, basetype_groups, basetypes, links, changes, elided, copyright;
    Vec table_nums;       /* TableNum: the function and event numbers, checked after the walk */
    StrMap defaulted;     /* elements the DTD gives an attribute default */
    const xmlChar *asked; /* the element name attr looked up last, and the answer */
    bool asked_defaulted;
    struct WalkSeen {
        const xmlChar *name;
        unsigned char kind, index;
    } walk_seen[WALK_SEEN]; /* what walk made of a name (walk_kind) */
} Builder;

/* Where the walk is: what paramlinks refer to and which category collects. */
typedef struct Ctx {
    Category *category;
    Vec *cat_functions, *cat_callbacks;
    const char *owner;
    Param **owner_params;
    size_t n_owner_params;
} Ctx;

static void walk(Builder *b, xmlNodePtr n, const Ctx *ctx);

/* ---- small helpers over the tree ---- */

static bool is_elem(xmlNodePtr n) { return n && n->type == XML_ELEMENT_NODE; }

/* strcmp(a, b) == 0, the first letters compared first: the walk asks of
 * every element which of some twenty names it has. */
static bool same(const char *a, const char *b) { return a[0] == b[0] && strcmp(a, b) == 0; }

static bool named(xmlNodePtr n, const char *name)
{
    return is_elem(n) && same((const char *)n->name, name);
}

static const char *name_of(xmlNodePtr n) { return (const char *)n->name; }

static Loc loc_of(const Builder *b, xmlNodePtr n)
{
    long line = xmlGetLineNo(n);
    return (Loc){b->file, line > 0 && line < INT_MAX ? (int)line : 0};
}

/* The value of attribute NAME of N, or the DTD's default for it, or NULL.
 * Only elements whose DTD declares a default ask libxml2 (xmlGetProp looks
 * the DTD up for every absent attribute, which was a tenth of building
 * the model). */
static const char *attr(Builder *b, xmlNodePtr n, const char *name)
{
    bool present = false;
    for (xmlAttrPtr p = n->properties; p; p = p->next) {
        if (!same((const char *)p->name, name)) /* any namespace, as xmlGetProp */
            continue;
        xmlNodePtr t = p->children;
        if (t && !t->next && t->type == XML_TEXT_NODE && t->content) /* the usual shape */
            return arena_strdup(b->a, (const char *)t->content);
        present = true;
        break;
    }
    if (!present && n->name != b->asked) { /* asked of one element many times in a row */
        b->asked = n->name;
        b->asked_defaulted = strmap_get(&b->defaulted, name_of(n)) != NULL;
    }
    if (!present && !b->asked_defaulted)
        return NULL;
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    if (!v)
        return NULL;
    char *s = arena_strdup(b->a, (const char *)v);
    xmlFree(v);
    return s;
}

/* A missing required attribute is reported here and reads as "" after. */
static const char *req_attr(Builder *b, xmlNodePtr n, const char *name)
{
    const char *v = attr(b, n, name);
    if (!v) {
        Loc l = loc_of(b, n);
        error_at(&l, "<%s> has no '%s' attribute", name_of(n), name);
        return missing_attr;
    }
    return v;
}

static const char *text_of(Builder *b, xmlNodePtr n)
{
    xmlChar *c = xmlNodeGetContent(n);
    char *s = arena_strdup(b->a, c ? (const char *)c : "");
    xmlFree(c);
    return s;
}

static const char *trimmed(Builder *b, const char *s)
{
    while (is_xml_space(*s))
        s++;
    size_t n = strlen(s);
    while (n && is_xml_space(s[n - 1]))
        n--;
    return arena_strndup(b->a, s, n);
}

static xmlNodePtr first_child_named(xmlNodePtr n, const char *name)
{
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (named(c, name))
            return c;
    return NULL;
}

/* num-like attributes: an integer literal within [lo, hi] (see facts.h). */
static int num_attr(Builder *b, xmlNodePtr n, const char *what, const char *id, long long lo,
                    long long hi)
{
    const char *s = req_attr(b, n, "num");
    long long v;
    Loc l = loc_of(b, n);
    if (is_missing(s))
        return 0;
    if (!parse_c_integer(trimmed(b, s), &v)) {
        error_at(&l, "%s '%s': num '%s' is not an integer%s", what, id, s,
                 integer_hint(trimmed(b, s)));
        return 0;
    }
    if (v < lo || v > hi) {
        error_at(&l, "%s '%s': num %lld is out of range %lld..%lld", what, id, v, lo, hi);
        return 0;
    }
    return (int)v;
}

/* A function's or event's number, kept until the walk has counted the
 * items its range is derived from (facts.h). */
typedef struct TableNum {
    Loc loc;
    const char *what, *id;
    long long value;
    int *num;
} TableNum;

static void table_num_attr(Builder *b, xmlNodePtr n, const char *what, const char *id, int *num)
{
    const char *s = req_attr(b, n, "num");
    long long v;
    *num = 0;
    if (is_missing(s))
        return;
    if (!parse_c_integer(trimmed(b, s), &v)) {
        Loc l = loc_of(b, n);
        error_at(&l, "%s '%s': num '%s' is not an integer%s", what, id, s,
                 integer_hint(trimmed(b, s)));
        return;
    }
    TableNum *t = arena_alloc(b->a, sizeof *t);
    *t = (TableNum){loc_of(b, n), what, id, v, num};
    vec_push(&b->table_nums, t);
}

/* The last slot a table of n items may have (facts.h). */
static long long table_num_max(size_t n)
{
    long long most = INT_MAX / TABLE_SLOTS_PER_ITEM;
    return n > (size_t)TABLE_NUM_FLOOR / TABLE_SLOTS_PER_ITEM
               ? (n < (size_t)most ? (long long)n : most) * TABLE_SLOTS_PER_ITEM
               : TABLE_NUM_FLOOR;
}

static void check_table_nums(Builder *b)
{
    for (size_t i = 0; i < b->table_nums.n; i++) {
        const TableNum *t = b->table_nums.items[i];
        bool fn = strcmp(t->what, "function") == 0;
        long long lo = fn ? FUNCTION_NUM_MIN : EVENT_NUM_MIN;
        size_t items = fn ? b->functions.n : b->events.n;
        long long hi = table_num_max(items);
        if (t->value >= lo && t->value <= hi)
            *t->num = (int)t->value;
        else
            error_at(&t->loc,
                     "%s '%s': num %lld is out of range %lld..%lld (the larger of %d and %d "
                     "times the spec's %zu %s%s)",
                     t->what, t->id, t->value, lo, hi, TABLE_NUM_FLOOR, TABLE_SLOTS_PER_ITEM, items,
                     t->what, items == 1 ? "" : "s");
    }
    vec_free(&b->table_nums);
}

static const char *since_attr(Builder *b, xmlNodePtr n)
{
    const char *s = attr(b, n, "since");
    return s ? s : "1.0"; /* the spec format's default */
}

/* An item's <synopsis> text ("" without one). A blank one is warned about:
 * it titles the item's index entries and man page, where the docs put the
 * item's id instead. */
static const char *synopsis_of(Builder *b, xmlNodePtr n, const char *what, const char *id)
{
    xmlNodePtr syn = first_child_named(n, "synopsis");
    if (!syn)
        return "";
    const char *text = text_of(b, syn), *p = text;
    while (is_xml_space(*p))
        p++;
    if (!*p) {
        Loc l = loc_of(b, syn);
        warn_at(&l, "%s '%s' has an empty <synopsis>; the docs title it with its id", what, id);
    }
    return text;
}

static NameRef *name_ref(Builder *b, xmlNodePtr n)
{
    NameRef *r = arena_alloc(b->a, sizeof *r);
    r->id = req_attr(b, n, "id");
    r->loc = loc_of(b, n);
    return r;
}

static void unexpected(Builder *b, xmlNodePtr n, xmlNodePtr parent)
{
    Loc l = loc_of(b, n);
    error_at(&l, "unexpected <%s> in <%s>", name_of(n), name_of(parent));
}

/* The children of n named `member`, in order; any other element except
 * `allowed` (a child that holds prose, or NULL) is reported as unexpected. */
static Vec members_of(Builder *b, xmlNodePtr n, const char *member, const char *allowed)
{
    Vec v = {0};
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (named(c, member))
            vec_push(&v, c);
        else if (is_elem(c) && !(allowed && named(c, allowed)))
            unexpected(b, c, n);
    }
    return v;
}

/* ---- types, parameters, fields ---- */

static Type *build_type(Builder *b, xmlNodePtr n)
{
    TypeKind k = type_kind_from_xml(name_of(n));
    Loc l = loc_of(b, n);
    if (k == TK_COUNT) {
        error_at(&l, "<%s> is not a type", name_of(n));
        return NULL;
    }
    Type *t = arena_alloc(b->a, sizeof *t);
    t->kind = k;
    t->loc = l;
    t->incount = attr(b, n, "incount");
    t->outcount = attr(b, n, "outcount");
    t->min = attr(b, n, "min");
    t->null = attr(b, n, "null");
    t->started = attr(b, n, "started");
    t->frame = attr(b, n, "frame");
    t->impl = attr(b, n, "impl");
    t->class_ = attr(b, n, "class");
    t->native = attr(b, n, "native");
    t->method = attr(b, n, "method");
    t->field = attr(b, n, "field");
    t->thread = attr(b, n, "thread");
    if (t->min && !parse_c_integer(trimmed(b, t->min), &t->min_value))
        error_at(&l, "<%s> min '%s' is not an integer%s", name_of(n), t->min,
                 integer_hint(trimmed(b, t->min)));
    else if (t->min && (t->min_value < -2147483647LL || t->min_value > 2147483647LL))
        /* The trampoline tests value < min: beyond a jint's range that
         * refuses every value or none (and C compilers warn about it). */
        error_at(&l, "<%s> min %lld is out of range -2147483647..2147483647", name_of(n),
                 t->min_value);
    if (type_kinds[k].wrapper) {
        for (xmlNodePtr c = n->children; c; c = c->next) {
            if (!is_elem(c))
                continue;
            if (named(c, "nullok"))
                t->nullok = true;
            else if (!t->elem && type_kind_from_xml(name_of(c)) != TK_COUNT)
                t->elem = build_type(b, c);
            else
                unexpected(b, c, n);
        }
        if (!t->elem) {
            error_at(&l, "<%s> has no element type", name_of(n));
            return NULL;
        }
    } else if (k == TK_ENUM || k == TK_STRUCT) {
        t->name = trimmed(b, text_of(b, n));
        if (!*t->name)
            error_at(&l, "<%s> names no type", name_of(n));
    }
    return t;
}

/* <param> and <field> share a shape: id, one type element, a description. */
static Param *build_member(Builder *b, xmlNodePtr n)
{
    Param *p = arena_alloc(b->a, sizeof *p);
    p->name = req_attr(b, n, "id");
    p->loc = loc_of(b, n);
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!is_elem(c) || named(c, "description"))
            continue;
        if (!p->type && type_kind_from_xml(name_of(c)) != TK_COUNT)
            p->type = build_type(b, c);
        else
            unexpected(b, c, n);
    }
    if (!p->type)
        error_at(&p->loc, "%s '%s' has no valid type", name_of(n), p->name);
    return p;
}

static Param **build_params(Builder *b, xmlNodePtr owner, size_t *n_out)
{
    Vec v = {0};
    xmlNodePtr ps = first_child_named(owner, "parameters");
    if (!ps) {
        Loc l = loc_of(b, owner);
        error_at(&l, "<%s> has no <parameters>", name_of(owner));
    } else {
        for (xmlNodePtr c = ps->children; c; c = c->next) {
            if (named(c, "param"))
                vec_push(&v, build_member(b, c));
            else if (is_elem(c))
                unexpected(b, c, ps);
        }
    }
    /* Drop members that failed to build so later stages see only whole ones. */
    Vec ok = {0};
    for (size_t i = 0; i < v.n; i++)
        if (((Param *)v.items[i])->type)
            vec_push(&ok, v.items[i]);
    vec_free(&v);
    return (Param **)vec_freeze(&ok, b->a, n_out);
}

/* <capabilities>: <required> and <capability> entries. */
static void build_caps(Builder *b, xmlNodePtr caps, NameRef ***req, size_t *n_req, NameRef ***opt,
                       size_t *n_opt)
{
    Vec r = {0}, o = {0};
    for (xmlNodePtr c = caps ? caps->children : NULL; c; c = c->next) {
        if (named(c, "required"))
            vec_push(&r, name_ref(b, c));
        else if (named(c, "capability"))
            vec_push(&o, name_ref(b, c));
        else if (is_elem(c))
            unexpected(b, c, caps);
    }
    *req = (NameRef **)vec_freeze(&r, b->a, n_req);
    *opt = (NameRef **)vec_freeze(&o, b->a, n_opt);
}

static Phase parse_phase(Builder *b, xmlNodePtr n, bool function)
{
    const char *s = attr(b, n, "phase");
    if (!s)
        return PHASE_DEFAULT;
    /* clang-format off */
    static const struct { const char *name; Phase p; } phases[] = {
        {"onload", PHASE_ONLOAD}, {"onloadOnly", PHASE_ONLOAD_ONLY}, {"start", PHASE_START},
        {"live", PHASE_LIVE}, {"any", PHASE_ANY},
    };
    /* clang-format on */
    for (size_t i = 0; i < sizeof phases / sizeof *phases; i++)
        if (strcmp(s, phases[i].name) == 0 && (function || phases[i].p != PHASE_ONLOAD_ONLY))
            return phases[i].p;
    Loc l = loc_of(b, n);
    error_at(&l, "<%s> has an unknown phase '%s'", name_of(n), s);
    return PHASE_DEFAULT;
}

/* Walks the children of an item with paramlinks resolving to its parameters. */
static void walk_owned(Builder *b, xmlNodePtr n, const Ctx *ctx, const char *owner, Param **params,
                       size_t n_params)
{
    Ctx c = *ctx;
    c.owner = owner;
    c.owner_params = params;
    c.n_owner_params = n_params;
    for (xmlNodePtr k = n->children; k; k = k->next)
        if (is_elem(k))
            walk(b, k, &c);
}

static void walk_children(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    for (xmlNodePtr k = n->children; k; k = k->next)
        if (is_elem(k))
            walk(b, k, ctx);
}

/* ---- items ---- */

static void build_function(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    Function *f = arena_alloc(b->a, sizeof *f);
    f->id = req_attr(b, n, "id");
    f->loc = loc_of(b, n);
    table_num_attr(b, n, "function", f->id, &f->num);
    f->phase = parse_phase(b, n, true);
    const char *cbs = attr(b, n, "callbacksafe");
    if (cbs && strcmp(cbs, "safe") != 0 && strcmp(cbs, "unsafe") != 0)
        error_at(&f->loc, "function '%s': callbacksafe must be 'safe' or 'unsafe', not '%s'", f->id,
                 cbs);
    f->callbacksafe = cbs && strcmp(cbs, "safe") == 0;
    f->impl = attr(b, n, "impl");
    f->hide = attr(b, n, "hide") != NULL;
    f->jkernel = attr(b, n, "jkernel");
    f->since = since_attr(b, n);
    f->category = ctx->category;
    f->synopsis = synopsis_of(b, n, "function", f->id);
    if (!first_child_named(n, "synopsis"))
        error_at(&f->loc, "function '%s' has no <synopsis>", f->id);
    xmlNodePtr origin = first_child_named(n, "origin");
    f->origin = origin ? trimmed(b, text_of(b, origin)) : NULL;
    xmlNodePtr caps = first_child_named(n, "capabilities");
    f->eventcapabilities = first_child_named(n, "eventcapabilities") != NULL;
    if (!caps && !f->eventcapabilities)
        error_at(&f->loc, "function '%s' has no <capabilities>", f->id);
    build_caps(b, caps, &f->required, &f->n_required, &f->optional, &f->n_optional);
    f->params = build_params(b, n, &f->n_params);
    Vec errs = {0};
    xmlNodePtr es = first_child_named(n, "errors");
    if (!es)
        error_at(&f->loc, "function '%s' has no <errors>", f->id);
    for (xmlNodePtr c = es ? es->children : NULL; c; c = c->next) {
        if (named(c, "error"))
            vec_push(&errs, name_ref(b, c));
        else if (is_elem(c))
            unexpected(b, c, es);
    }
    f->errors = (NameRef **)vec_freeze(&errs, b->a, &f->n_errors);
    if (!ctx->category)
        error_at(&f->loc, "function '%s' is not inside a <category>", f->id);
    else
        vec_push(ctx->cat_functions, f);
    vec_push(&b->functions, f);
    walk_owned(b, n, ctx, f->id, f->params, f->n_params);
}

static void build_callback(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    Callback *cb = arena_alloc(b->a, sizeof *cb);
    cb->id = req_attr(b, n, "id");
    cb->loc = loc_of(b, n);
    cb->since = since_attr(b, n);
    cb->category = ctx->category;
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (is_elem(c)) {
            if (type_kind_from_xml(name_of(c)) != TK_COUNT)
                cb->ret = build_type(b, c);
            break; /* the return type, if any, comes first */
        }
    }
    if (!cb->ret)
        error_at(&cb->loc, "callback '%s' has no return type", cb->id);
    cb->synopsis = synopsis_of(b, n, "callback", cb->id);
    cb->params = build_params(b, n, &cb->n_params);
    if (ctx->cat_callbacks)
        vec_push(ctx->cat_callbacks, cb);
    vec_push(&b->callbacks, cb);
    walk_owned(b, n, ctx, cb->id, cb->params, cb->n_params);
}

static void build_event(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    Event *e = arena_alloc(b->a, sizeof *e);
    e->id = req_attr(b, n, "id");
    e->loc = loc_of(b, n);
    e->label = req_attr(b, n, "label");
    e->const_name = req_attr(b, n, "const");
    table_num_attr(b, n, "event", e->id, &e->num);
    e->phase = parse_phase(b, n, false);
    e->since = since_attr(b, n);
    const char *filt = attr(b, n, "filtered");
    if (filt && strcmp(filt, "thread") == 0)
        e->filtered = FILTER_THREAD;
    else if (filt && strcmp(filt, "global") == 0)
        e->filtered = FILTER_GLOBAL;
    else if (filt)
        error_at(&e->loc, "event '%s': filtered must be 'thread' or 'global', not '%s'", e->id,
                 filt);
    xmlNodePtr caps = first_child_named(n, "capabilities");
    if (!caps)
        error_at(&e->loc, "event '%s' has no <capabilities>", e->id);
    build_caps(b, caps, &e->required, &e->n_required, &e->optional, &e->n_optional);
    e->params = build_params(b, n, &e->n_params);
    vec_push(&b->events, e);
    walk_owned(b, n, ctx, e->id, e->params, e->n_params);
}

static void build_typedef(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    Typedef *t = arena_alloc(b->a, sizeof *t);
    t->id = req_attr(b, n, "id");
    t->label = req_attr(b, n, "label");
    t->since = since_attr(b, n);
    t->is_union = named(n, "uniontypedef");
    t->loc = loc_of(b, n);
    Vec nodes = members_of(b, n, "field", "description"), fields = {0};
    for (size_t i = 0; i < nodes.n; i++) {
        Param *p = build_member(b, nodes.items[i]);
        if (p->type)
            vec_push(&fields, p);
    }
    vec_free(&nodes);
    t->fields = (Param **)vec_freeze(&fields, b->a, &t->n_fields);
    vec_push(&b->typedefs, t);
    walk_children(b, n, ctx);
}

static void build_capabilities(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    Capabilities *c = arena_alloc(b->a, sizeof *c);
    c->id = req_attr(b, n, "id");
    c->label = req_attr(b, n, "label");
    c->loc = loc_of(b, n);
    Vec nodes = members_of(b, n, "capabilityfield", "description"), fields = {0};
    for (size_t i = 0; i < nodes.n; i++) {
        xmlNodePtr k = nodes.items[i];
        CapabilityField *f = arena_alloc(b->a, sizeof *f);
        f->id = req_attr(b, k, "id");
        f->disp1 = attr(b, k, "disp1");
        f->disp2 = attr(b, k, "disp2");
        f->since = since_attr(b, k);
        f->loc = loc_of(b, k);
        vec_push(&fields, f);
    }
    vec_free(&nodes);
    c->fields = (CapabilityField **)vec_freeze(&fields, b->a, &c->n_fields);
    if (b->spec->capabilities)
        error_at(&c->loc, "a second <capabilitiestypedef> ('%s'); the first is at line %d", c->id,
                 b->spec->capabilities->loc.line);
    else
        b->spec->capabilities = c;
    walk_children(b, n, ctx);
}

static void build_constants(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    ConstantGroup *g = arena_alloc(b->a, sizeof *g);
    g->id = req_attr(b, n, "id");
    g->label = req_attr(b, n, "label");
    g->since = since_attr(b, n);
    g->loc = loc_of(b, n);
    const char *kind = req_attr(b, n, "kind");
    if (strcmp(kind, "enum") == 0)
        g->kind = CONST_ENUM;
    else if (strcmp(kind, "bits") == 0)
        g->kind = CONST_BITS;
    else if (strcmp(kind, "const") == 0)
        g->kind = CONST_CONST;
    else if (*kind)
        error_at(&g->loc, "constants '%s': kind must be enum, bits or const, not '%s'", g->id,
                 kind);
    Vec nodes = members_of(b, n, "constant", NULL), cs = {0};
    for (size_t i = 0; i < nodes.n; i++) {
        xmlNodePtr k = nodes.items[i];
        Constant *c = arena_alloc(b->a, sizeof *c);
        c->id = req_attr(b, k, "id");
        c->num = req_attr(b, k, "num");
        if (!is_missing(c->num))
            c->num = trimmed(b, c->num);
        c->loc = loc_of(b, k);
        /* A literal, valued as C values it (-0xFFFFFFFF is 1); one C does not fit
         * in an int is left to check. */
        Buf why;
        buf_init(&why);
        c->numeric = parse_c_integer(c->num, &c->value) &&
                     cexpr_eval(c->num, NULL, NULL, &c->value, &why) == CEXPR_OK;
        buf_free(&why);
        vec_push(&cs, c);
    }
    vec_free(&nodes);
    g->constants = (Constant **)vec_freeze(&cs, b->a, &g->n_constants);
    vec_push(&b->constant_groups, g);
    walk_children(b, n, ctx);
}

static void build_errorcategory(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    ErrorCategory *cat = arena_alloc(b->a, sizeof *cat);
    cat->id = req_attr(b, n, "id");
    cat->label = req_attr(b, n, "label");
    cat->loc = loc_of(b, n);
    Vec nodes = members_of(b, n, "errorid", "intro"), es = {0};
    for (size_t i = 0; i < nodes.n; i++) {
        xmlNodePtr k = nodes.items[i];
        ErrorDef *e = arena_alloc(b->a, sizeof *e);
        e->id = req_attr(b, k, "id");
        e->loc = loc_of(b, k);
        e->num = num_attr(b, k, "error", e->id, ERROR_NUM_MIN, ERROR_NUM_MAX);
        e->category = cat;
        vec_push(&es, e);
        vec_push(&b->errors, e);
    }
    vec_free(&nodes);
    cat->errors = (ErrorDef **)vec_freeze(&es, b->a, &cat->n_errors);
    vec_push(&b->error_categories, cat);
    walk_children(b, n, ctx);
}

static void build_basetypes(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    BaseTypeGroup *g = arena_alloc(b->a, sizeof *g);
    g->id = req_attr(b, n, "id");
    g->label = req_attr(b, n, "label");
    g->loc = loc_of(b, n);
    Vec nodes = members_of(b, n, "basetype", "intro"), ts = {0};
    for (size_t i = 0; i < nodes.n; i++) {
        xmlNodePtr k = nodes.items[i];
        BaseType *t = arena_alloc(b->a, sizeof *t);
        t->id = req_attr(b, k, "id");
        t->name = attr(b, k, "name");
        t->loc = loc_of(b, k);
        xmlNodePtr def = first_child_named(k, "definition");
        t->definition = def ? text_of(b, def) : NULL;
        vec_push(&ts, t);
        vec_push(&b->basetypes, t);
    }
    vec_free(&nodes);
    g->types = (BaseType **)vec_freeze(&ts, b->a, &g->n_types);
    vec_push(&b->basetype_groups, g);
    walk_children(b, n, ctx);
}

static void build_category(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    Category *cat = arena_alloc(b->a, sizeof *cat);
    cat->id = req_attr(b, n, "id");
    cat->label = req_attr(b, n, "label");
    cat->loc = loc_of(b, n);
    if (ctx->category)
        error_at(&cat->loc, "category '%s' is inside category '%s'", cat->id, ctx->category->id);
    Vec fns = {0}, cbs = {0};
    Ctx c = *ctx;
    c.category = cat;
    c.cat_functions = &fns;
    c.cat_callbacks = &cbs;
    walk_children(b, n, &c);
    cat->functions = (Function **)vec_freeze(&fns, b->a, &cat->n_functions);
    cat->callbacks = (Callback **)vec_freeze(&cbs, b->a, &cat->n_callbacks);
    vec_push(&b->categories, cat);
}

static void record_link(Builder *b, xmlNodePtr n, LinkKind kind, const Ctx *ctx)
{
    Link *l = arena_alloc(b->a, sizeof *l);
    l->kind = kind;
    l->id = req_attr(b, n, "id");
    l->struct_ = kind == LINK_FIELD ? req_attr(b, n, "struct") : NULL;
    l->owner = ctx->owner;
    l->owner_params = ctx->owner_params;
    l->n_owner_params = ctx->n_owner_params;
    l->loc = loc_of(b, n);
    vec_push(&b->links, l);
}

static void record_elided(Builder *b, xmlNodePtr n)
{
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!is_elem(c))
            continue;
        const char *id = attr(b, c, "id");
        if (!id)
            continue;
        Elided *e = arena_alloc(b->a, sizeof *e);
        e->kind = arena_strdup(b->a, name_of(c));
        e->id = id;
        e->loc = loc_of(b, c);
        vec_push(&b->elided, e);
    }
}

/* Members are built by their parent's builder; elsewhere they are misplaced. */
static const struct {
    const char *member, *parent;
} members[] = {
    {"param", "parameters"},   {"field", NULL}, /* typedef or uniontypedef */
    {"constant", "constants"}, {"errorid", "errorcategory"},
    {"basetype", "basetypes"}, {"capabilityfield", "capabilitiestypedef"},
};

/* What walk does with an element: build an item, record it, or check a
 * member's parent or a link (WALK_MEMBER, WALK_LINK: index says which). */
enum {
    WALK_OTHER,
    WALK_CATEGORY,
    WALK_FUNCTION,
    WALK_CALLBACK,
    WALK_EVENT,
    WALK_TYPEDEF,
    WALK_CAPABILITIES,
    WALK_CONSTANTS,
    WALK_ERRORCATEGORY,
    WALK_BASETYPES,
    WALK_ELIDE,
    WALK_INTRO,
    WALK_CHANGE,
    WALK_LINK,
    WALK_MEMBER
};

static const struct {
    const char *name;
    unsigned char kind;
} walk_names[] = {
    {"category", WALK_CATEGORY},
    {"function", WALK_FUNCTION},
    {"callback", WALK_CALLBACK},
    {"event", WALK_EVENT},
    {"typedef", WALK_TYPEDEF},
    {"uniontypedef", WALK_TYPEDEF},
    {"capabilitiestypedef", WALK_CAPABILITIES},
    {"constants", WALK_CONSTANTS},
    {"errorcategory", WALK_ERRORCATEGORY},
    {"basetypes", WALK_BASETYPES},
    {"elide", WALK_ELIDE},
    {"intro", WALK_INTRO},
    {"change", WALK_CHANGE},
};

static unsigned char walk_kind_of(const char *name, unsigned char *index)
{
    *index = 0;
    for (size_t i = 0; i < sizeof walk_names / sizeof *walk_names; i++)
        if (same(name, walk_names[i].name))
            return walk_names[i].kind;
    size_t len = strlen(name);
    if (len > 4 && strcmp(name + len - 4, "link") == 0) {
        for (int k = 0; k < LINK_COUNT; k++) {
            if (same(name, link_kind_names[k])) {
                *index = (unsigned char)k;
                return WALK_LINK;
            }
        }
        return WALK_OTHER;
    }
    for (size_t i = 0; i < sizeof members / sizeof *members; i++) {
        if (same(name, members[i].member)) {
            *index = (unsigned char)i;
            return WALK_MEMBER;
        }
    }
    return WALK_OTHER;
}

/* walk_kind_of, once per name: the walk asks it of every element (its
 * string comparisons were 2% of a --no-docs run). A name whose slots are
 * taken is worked out again each time. */
static unsigned char walk_kind(Builder *b, const xmlChar *name, unsigned char *index)
{
    size_t h = ((uintptr_t)name >> 3) * 0x9e3779b97f4a7c15ull >> 56;
    for (size_t probe = 0; probe < 8; probe++) {
        struct WalkSeen *w = &b->walk_seen[(h + probe) & (WALK_SEEN - 1)];
        if (w->name == name) {
            *index = w->index;
            return w->kind;
        }
        if (!w->name) {
            w->name = name;
            w->kind = walk_kind_of((const char *)name, &w->index);
            *index = w->index;
            return w->kind;
        }
    }
    return walk_kind_of((const char *)name, index);
}

static void walk(Builder *b, xmlNodePtr n, const Ctx *ctx)
{
    unsigned char index;
    switch (walk_kind(b, n->name, &index)) {
    case WALK_CATEGORY: build_category(b, n, ctx); return;
    case WALK_FUNCTION: build_function(b, n, ctx); return;
    case WALK_CALLBACK: build_callback(b, n, ctx); return;
    case WALK_EVENT: build_event(b, n, ctx); return;
    case WALK_TYPEDEF: build_typedef(b, n, ctx); return;
    case WALK_CAPABILITIES: build_capabilities(b, n, ctx); return;
    case WALK_CONSTANTS: build_constants(b, n, ctx); return;
    case WALK_ERRORCATEGORY: build_errorcategory(b, n, ctx); return;
    case WALK_BASETYPES: build_basetypes(b, n, ctx); return;
    case WALK_ELIDE: record_elided(b, n); return;
    case WALK_INTRO: {
        Intro *in = arena_alloc(b->a, sizeof *in);
        in->id = attr(b, n, "id");
        in->label = attr(b, n, "label");
        in->loc = loc_of(b, n);
        vec_push(&b->intros, in);
        break;
    }
    case WALK_CHANGE: {
        Change *c = arena_alloc(b->a, sizeof *c);
        c->date = req_attr(b, n, "date");
        c->version = attr(b, n, "version");
        c->loc = loc_of(b, n);
        vec_push(&b->changes, c);
        break;
    }
    case WALK_LINK: record_link(b, n, (LinkKind)index, ctx); break;
    case WALK_MEMBER: {
        const char *pn = n->parent && is_elem(n->parent) ? name_of(n->parent) : "";
        bool ok = members[index].parent ? same(pn, members[index].parent)
                                        : same(pn, "typedef") || same(pn, "uniontypedef");
        if (!ok)
            unexpected(b, n, n->parent);
        break;
    }
    default: break;
    }
    walk_children(b, n, ctx);
}

/* ---- the document ---- */

/* Notes which elements DTD declares an attribute default for (attr). */
static void collect_defaulted(Builder *b, xmlDtdPtr dtd)
{
    for (xmlNodePtr d = dtd ? dtd->children : NULL; d; d = d->next) {
        xmlAttributePtr decl = (xmlAttributePtr)d;
        if (d->type == XML_ATTRIBUTE_DECL && decl->defaultValue && decl->elem)
            strmap_put(&b->defaulted, arena_strdup(b->a, (const char *)decl->elem), b);
    }
}

static void collect_copyright(Builder *b, xmlDocPtr doc)
{
    for (xmlNodePtr n = doc->children; n && n->type != XML_ELEMENT_NODE; n = n->next) {
        if (n->type != XML_COMMENT_NODE || !n->content)
            continue;
        const char *s = (const char *)n->content;
        while (*s) {
            const char *e = strchr(s, '\n');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            char *line = arena_strndup(b->a, s, len);
            if (strstr(line, "Copyright"))
                vec_push(&b->copyright, (void *)trimmed(b, line));
            s += len + (e ? 1 : 0);
        }
        break; /* only the leading comment */
    }
}

/* <specification majorversion= minorversion= microversion=>, as JDK 8's
 * spec states its version (later specs leave it to the build): the parts
 * missing are 0. A minor or micro part without the major is refused. */
static void stated_version(Builder *b, xmlNodePtr root)
{
    const char *part[3] = {attr(b, root, "majorversion"), attr(b, root, "minorversion"),
                           attr(b, root, "microversion")};
    if (!part[0] && !part[1] && !part[2])
        return;
    Loc l = loc_of(b, root);
    if (!part[0]) {
        error_at(&l, "<specification> has %s but no majorversion",
                 part[1] ? "minorversion" : "microversion");
        return;
    }
    Buf v;
    buf_init(&v);
    buf_printf(&v, "%s.%s.%s", part[0], part[1] ? part[1] : "0", part[2] ? part[2] : "0");
    if (version_valid(v.data)) {
        b->spec->version = arena_strdup(b->a, v.data);
        b->spec->version_loc = l;
    } else {
        error_at(&l,
                 "<specification>'s version %s is not a version (each part a number: "
                 "major up to 4095, minor and micro up to 255)",
                 v.data);
    }
    buf_free(&v);
}

/* Without a stated version, the latest one the change history names. */
static void latest_change_version(Spec *spec)
{
    for (size_t i = 0; i < spec->n_changes; i++) {
        const Change *c = spec->changes[i];
        if (c->version && version_valid(c->version) &&
            (!spec->version || version_cmp(c->version, spec->version) > 0)) {
            spec->version = c->version;
            spec->version_loc = c->loc;
        }
    }
}

Spec *build_spec(xmlDocPtr doc, const char *file)
{
    Arena *a = arena_new();
    Spec *spec = arena_alloc(a, sizeof *spec);
    spec->arena = a;
    spec->file = arena_strdup(a, file);
    Builder b = {.spec = spec, .a = a, .file = spec->file};
    strmap_init(&b.defaulted);
    collect_defaulted(&b, doc->intSubset);
    collect_defaulted(&b, doc->extSubset);
    collect_copyright(&b, doc);

    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (!named(root, "specification")) {
        Loc l = root ? loc_of(&b, root) : (Loc){b.file, 0};
        error_at(&l, "the root element is <%s>, not <specification>",
                 root ? name_of(root) : "(none)");
    } else {
        spec->label = attr(&b, root, "label");
        stated_version(&b, root);
        xmlNodePtr title = first_child_named(root, "title");
        spec->title = title ? trimmed(&b, text_of(&b, title)) : NULL;
        Ctx ctx = {0};
        walk_children(&b, root, &ctx);
    }
    check_table_nums(&b);

#define FREEZE(field, type) spec->field = (type **)vec_freeze(&b.field, a, &spec->n_##field)
    FREEZE(intros, Intro);
    FREEZE(categories, Category);
    FREEZE(functions, Function);
    FREEZE(callbacks, Callback);
    FREEZE(typedefs, Typedef);
    FREEZE(events, Event);
    FREEZE(error_categories, ErrorCategory);
    FREEZE(errors, ErrorDef);
    FREEZE(constant_groups, ConstantGroup);
    FREEZE(basetype_groups, BaseTypeGroup);
    FREEZE(basetypes, BaseType);
    FREEZE(links, Link);
    FREEZE(changes, Change);
    FREEZE(elided, Elided);
#undef FREEZE
    spec->copyright = (const char **)vec_freeze(&b.copyright, a, &spec->n_copyright);

    if (!spec->version)
        latest_change_version(spec);
    strmap_free(&b.defaulted);
    return spec;
}
