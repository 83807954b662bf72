/* `jvmtigen diff`: the changes between two models, collected first into
 * sections (one per kind of item: added, removed and changed entries), then
 * written as text or JSON from that one collection, so both forms say the
 * same. Every entry list is sorted by id (byte order); the changes of an
 * entry are in a fixed order per kind. Nothing here reads a Loc or prose. */
#include "tools/diff.h"

#include <stdlib.h>
#include <string.h>

#include "model/ctype.h"
#include "c/impl.h"
#include "base/cscan.h"
#include "base/json.h"
#include "model/layout.h"
#include "model/refs.h"

/* Bumped when a key changes meaning or goes away. */
#define DIFF_JSON_FORMAT 1

/* ---- what a diff holds ---- */

typedef enum { VAL_NULL, VAL_STR, VAL_INT, VAL_BOOL } ValType;

typedef struct Val {
    ValType t;
    const char *s;
    long long i; /* VAL_INT, and VAL_BOOL as 0/1 */
} Val;

typedef struct StrList {
    const char **items;
    size_t n;
} StrList;

/* One fact that differs: a value (old -> new), or a set of names (what was
 * added to it and removed from it). */
typedef struct Delta {
    const char *what;
    bool is_set;
    Val old, new_;
    StrList old_set, new_set, added, removed;
} Delta;

/* A fact shown with an added or removed item: "num 67", "since 21". */
typedef struct Fact {
    const char *key;
    Val v;
} Fact;

enum { MAX_FACTS = 3 };

typedef struct Entry {
    const char *id;
    Fact facts[MAX_FACTS];
    int n_facts;
    Vec changes; /* Delta* */
} Entry;

/* clang-format off */
typedef enum Kind {
    K_FUNCTIONS, K_EVENTS, K_CALLBACKS, K_TYPES, K_BASETYPES, K_CAPABILITIES, K_ERRORS,
    K_CONSTANT_GROUPS, K_CONSTANTS,
    /* --abi: layouts instead of the API */
    K_STRUCTS, K_FUNCTION_SLOTS, K_EVENT_SLOTS, K_CAPABILITY_BITS, K_COUNT
} Kind;
/* clang-format on */
enum { K_ABI_FIRST = K_STRUCTS };

static const struct {
    const char *key;  /* JSON member and text heading */
    const char *noun; /* in text lines */
} kinds[K_COUNT] = {
    {"functions", "function"},
    {"events", "event"},
    {"callbacks", "callback"},
    {"types", "type"},
    {"basetypes", "basetype"},
    {"capabilities", "capability"},
    {"errors", "error"},
    {"constant_groups", "constant group"},
    {"constants", "constant"},
    {"structs", "struct"},
    {"function_slots", "function"},
    {"event_slots", "event"},
    {"capability_bits", "capability"},
};

typedef struct Section {
    Vec added, removed, changed; /* Entry* */
} Section;

typedef struct Diff {
    Arena *a;
    Section sec[K_COUNT];
    Vec entries;     /* every Entry, to free their change vectors */
    int first, last; /* the kinds written: the API's, or --abi's */
} Diff;

/* ---- values ---- */

static Val vstr(const char *s) { return (Val){.t = s ? VAL_STR : VAL_NULL, .s = s}; }
static Val vint(long long i) { return (Val){.t = VAL_INT, .i = i}; }
static Val vbool(bool b) { return (Val){.t = VAL_BOOL, .i = b}; }

static bool val_equal(Val x, Val y)
{
    if (x.t != y.t)
        return false;
    switch (x.t) {
    case VAL_NULL: return true;
    case VAL_STR: return strcmp(x.s, y.s) == 0;
    case VAL_INT:
    case VAL_BOOL: return x.i == y.i;
    }
    return false;
}

/* ---- entries and changes ---- */

static Entry *entry_new(Diff *d, const char *id)
{
    Entry *e = arena_alloc(d->a, sizeof *e);
    e->id = id;
    vec_push(&d->entries, e);
    return e;
}

static void fact(Entry *e, const char *key, Val v)
{
    if (e->n_facts < MAX_FACTS)
        e->facts[e->n_facts++] = (Fact){key, v};
}

static const char *printf_str(Diff *d, const char *fmt, const char *a, const char *b)
{
    Buf t;
    buf_init(&t);
    buf_printf(&t, fmt, a, b);
    const char *s = arena_strdup(d->a, t.data);
    buf_free(&t);
    return s;
}

static void change_val(Diff *d, Entry *e, const char *what, Val old, Val new_)
{
    if (val_equal(old, new_))
        return;
    Delta *c = arena_alloc(d->a, sizeof *c);
    c->what = what;
    c->old = old;
    c->new_ = new_;
    vec_push(&e->changes, c);
}

static void change_str(Diff *d, Entry *e, const char *what, const char *old, const char *new_)
{
    change_val(d, e, what, vstr(old), vstr(new_));
}

static bool list_has(const StrList *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], s) == 0)
            return true;
    return false;
}

/* The names, each once, in their first order. */
static StrList unique(Diff *d, const char *const *names, size_t n)
{
    StrList l = {arena_alloc(d->a, (n + 1) * sizeof *l.items), 0};
    for (size_t i = 0; i < n; i++)
        if (!list_has(&l, names[i]))
            l.items[l.n++] = names[i];
    return l;
}

/* The names of a that are not in b, in a's order. */
static StrList minus(Diff *d, const StrList *a, const StrList *b)
{
    StrList l = {arena_alloc(d->a, (a->n + 1) * sizeof *l.items), 0};
    for (size_t i = 0; i < a->n; i++)
        if (!list_has(b, a->items[i]))
            l.items[l.n++] = a->items[i];
    return l;
}

/* Sets compare as sets: order and repetition do not count. */
static void change_set(Diff *d, Entry *e, const char *what, StrList old, StrList new_)
{
    StrList o = unique(d, old.items, old.n), n = unique(d, new_.items, new_.n);
    StrList added = minus(d, &n, &o), removed = minus(d, &o, &n);
    if (!added.n && !removed.n)
        return;
    Delta *c = arena_alloc(d->a, sizeof *c);
    c->what = what;
    c->is_set = true;
    c->old_set = o;
    c->new_set = n;
    c->added = added;
    c->removed = removed;
    vec_push(&e->changes, c);
}

static StrList ref_names(Diff *d, NameRef *const *refs, size_t n)
{
    StrList l = {arena_alloc(d->a, (n + 1) * sizeof *l.items), n};
    for (size_t i = 0; i < n; i++)
        l.items[i] = refs[i]->id;
    return l;
}

/* ---- types, parameters and fields ---- */

/* The spec's view of a type: its elements from the outside in,
 * "allocbuf(jthread)", "enum(jvmtiEvent)", "jint". */
static void type_desc(Buf *b, const Type *t)
{
    buf_puts(b, type_kinds[t->kind].xml);
    if (t->elem) {
        buf_putc(b, '(');
        type_desc(b, t->elem);
        buf_putc(b, ')');
    } else if (t->name) {
        buf_printf(b, "(%s)", t->name);
    }
}

static const char *arena_buf(Diff *d, Buf *b)
{
    const char *s = arena_strdup(d->a, b->data);
    buf_free(b);
    return s;
}

/* The attributes of a parameter or field, gathered along its type's
 * elements (the wrapper's and the leaf's do not overlap). */
typedef struct Attrs {
    const char *incount, *outcount, *min, *null, *started, *frame, *impl, *class_, *native, *method,
        *field, *thread;
    long long min_value; /* valid when min is set */
    bool nullok;
} Attrs;

static void attrs_of(const Type *t, Attrs *a)
{
    for (; t; t = t->elem) {
        /* clang-format off */
#define TAKE(f) if (!a->f) a->f = t->f
        TAKE(incount); TAKE(outcount); TAKE(min); TAKE(null); TAKE(started); TAKE(frame);
        TAKE(impl); TAKE(class_); TAKE(native); TAKE(method); TAKE(field); TAKE(thread);
#undef TAKE
        /* clang-format on */
        if (t->min && a->min == t->min)
            a->min_value = t->min_value;
        a->nullok = a->nullok || t->nullok;
    }
}

/* For each parameter (prefix "parameters") or field ("fields") in both
 * lists, by name, in the new order: its type as the spec spells it and
 * each attribute. Added, removed, renamed or reordered ones show in the
 * signature. */
static void diff_members(Diff *d, Entry *e, const char *prefix, Param *const *op, size_t on,
                         Param *const *np, size_t nn)
{
    for (size_t i = 0; i < nn; i++) {
        const Param *n = np[i], *o = param_named(op, on, n->name);
        if (!o)
            continue;
        Buf ot, nt;
        buf_init(&ot);
        buf_init(&nt);
        type_desc(&ot, o->type);
        type_desc(&nt, n->type);
        const char *name = n->name;
#define WHAT(attr) printf_str(d, "%s.%s." attr, prefix, name)
        change_str(d, e, WHAT("type"), arena_buf(d, &ot), arena_buf(d, &nt));
        Attrs oa = {0}, na = {0};
        attrs_of(o->type, &oa);
        attrs_of(n->type, &na);
        change_str(d, e, WHAT("incount"), oa.incount, na.incount);
        change_str(d, e, WHAT("outcount"), oa.outcount, na.outcount);
        change_val(d, e, WHAT("nullok"), vbool(oa.nullok), vbool(na.nullok));
        change_val(d, e, WHAT("min"), oa.min ? vint(oa.min_value) : vstr(NULL),
                   na.min ? vint(na.min_value) : vstr(NULL));
        change_str(d, e, WHAT("null"), oa.null, na.null);
        change_str(d, e, WHAT("started"), oa.started, na.started);
        change_str(d, e, WHAT("frame"), oa.frame, na.frame);
        change_str(d, e, WHAT("impl"), oa.impl, na.impl);
        change_str(d, e, WHAT("class"), oa.class_, na.class_);
        change_str(d, e, WHAT("native"), oa.native, na.native);
        change_str(d, e, WHAT("method"), oa.method, na.method);
        change_str(d, e, WHAT("field"), oa.field, na.field);
        change_str(d, e, WHAT("thread"), oa.thread, na.thread);
#undef WHAT
    }
}

/* "(jthread thread, jint* count_ptr)": the parameters as jvmti.h declares
 * them (after the environment). */
static const char *signature(Diff *d, Param **ps, size_t n)
{
    Buf b;
    buf_init(&b);
    buf_putc(&b, '(');
    cparams_append(&b, ps, n, ", ");
    buf_putc(&b, ')');
    return arena_buf(d, &b);
}

/* "{ jint a; jlong b; }": a struct's or union's fields in order. */
static const char *layout(Diff *d, Param **fs, size_t n)
{
    Buf b;
    buf_init(&b);
    buf_puts(&b, "{ ");
    for (size_t i = 0; i < n; i++) {
        cparam_append(&b, fs[i]);
        buf_puts(&b, "; ");
    }
    buf_putc(&b, '}');
    return arena_buf(d, &b);
}

static const char *ctype_str(Diff *d, const Type *t)
{
    Buf b;
    buf_init(&b);
    ctype_append(&b, t);
    return arena_buf(d, &b);
}

/* ---- matching items by id ---- */

/* Every item struct of the model starts with its id. */
static const char *item_id(const void *item) { return *(const char *const *)item; }

typedef void (*FactsFn)(Diff *d, Entry *e, const void *item);
typedef void (*CompareFn)(Diff *d, Entry *e, const void *old, const void *new_);

static void diff_lists(Diff *d, Kind k, void *const *old, size_t n_old, void *const *new_,
                       size_t n_new, FactsFn facts, CompareFn compare)
{
    Section *s = &d->sec[k];
    StrMap om, nm;
    strmap_init(&om);
    strmap_init(&nm);
    for (size_t i = 0; i < n_old; i++)
        strmap_put(&om, item_id(old[i]), old[i]);
    for (size_t i = 0; i < n_new; i++)
        strmap_put(&nm, item_id(new_[i]), new_[i]);
    for (size_t i = 0; i < n_old; i++) {
        if (!strmap_get(&nm, item_id(old[i]))) {
            Entry *e = entry_new(d, item_id(old[i]));
            facts(d, e, old[i]);
            vec_push(&s->removed, e);
        }
    }
    for (size_t i = 0; i < n_new; i++) {
        const void *o = strmap_get(&om, item_id(new_[i]));
        Entry *e = entry_new(d, item_id(new_[i]));
        if (!o) {
            facts(d, e, new_[i]);
            vec_push(&s->added, e);
        } else {
            compare(d, e, o, new_[i]);
            if (e->changes.n)
                vec_push(&s->changed, e);
        }
    }
    strmap_free(&om);
    strmap_free(&nm);
}

/* Items the model keeps inside another (constants in their group, base
 * types in theirs, capability fields at a position), with what they need
 * from it. id comes first, like the model's own items. */
typedef struct Held {
    const char *id;
    const void *item;
    const char *owner; /* the group's id */
    long position;     /* a capability's place in jvmtiCapabilities */
} Held;

static void hold(Diff *d, Vec *v, const char *id, const void *item, const char *owner,
                 long position)
{
    Held *h = arena_alloc(d->a, sizeof *h);
    *h = (Held){id, item, owner, position};
    vec_push(v, h);
}

static void **held_constants(Diff *d, const Spec *s, size_t *n)
{
    Vec v = {0};
    for (size_t g = 0; g < s->n_constant_groups; g++) {
        const ConstantGroup *grp = s->constant_groups[g];
        for (size_t i = 0; i < grp->n_constants; i++)
            hold(d, &v, grp->constants[i]->id, grp->constants[i], grp->id, 0);
    }
    return vec_freeze(&v, d->a, n);
}

static void **held_basetypes(Diff *d, const Spec *s, size_t *n)
{
    Vec v = {0};
    for (size_t g = 0; g < s->n_basetype_groups; g++) {
        const BaseTypeGroup *grp = s->basetype_groups[g];
        for (size_t i = 0; i < grp->n_types; i++)
            hold(d, &v, grp->types[i]->id, grp->types[i], grp->id, 0);
    }
    return vec_freeze(&v, d->a, n);
}

static void **held_capabilities(Diff *d, const Spec *s, size_t *n)
{
    Vec v = {0};
    const Capabilities *c = s->capabilities;
    for (size_t i = 0; c && i < c->n_fields; i++)
        hold(d, &v, c->fields[i]->id, c->fields[i], c->id, (long)i);
    return vec_freeze(&v, d->a, n);
}

/* ---- each kind: the facts of an added or removed item, and the changes
 * of one in both ---- */

/* A function without a phase attribute is a live-phase function. */
static const char *function_phase(Phase p)
{
    return phase_name(p == PHASE_DEFAULT ? PHASE_LIVE : p);
}

static void function_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    const Function *f = item;
    fact(e, "num", vint(f->num));
    fact(e, "since", vstr(f->since));
}

static void function_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const Function *o = old, *n = new_;
    change_val(d, e, "num", vint(o->num), vint(n->num));
    change_str(d, e, "phase", function_phase(o->phase), function_phase(n->phase));
    change_str(d, e, "since", o->since, n->since);
    change_val(d, e, "callbacksafe", vbool(o->callbacksafe), vbool(n->callbacksafe));
    change_val(d, e, "hide", vbool(o->hide), vbool(n->hide));
    change_str(d, e, "impl", o->impl, n->impl);
    change_val(d, e, "eventcapabilities", vbool(o->eventcapabilities), vbool(n->eventcapabilities));
    change_set(d, e, "capabilities.required", ref_names(d, o->required, o->n_required),
               ref_names(d, n->required, n->n_required));
    change_set(d, e, "capabilities.optional", ref_names(d, o->optional, o->n_optional),
               ref_names(d, n->optional, n->n_optional));
    change_str(d, e, "signature", signature(d, o->params, o->n_params),
               signature(d, n->params, n->n_params));
    diff_members(d, e, "parameters", o->params, o->n_params, n->params, n->n_params);
    change_set(d, e, "errors", ref_names(d, o->errors, o->n_errors),
               ref_names(d, n->errors, n->n_errors));
}

static const char *filtered_name(Filtered f)
{
    return f == FILTER_THREAD ? "thread" : f == FILTER_GLOBAL ? "global" : NULL;
}

static void event_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    const Event *ev = item;
    fact(e, "num", vint(ev->num));
    fact(e, "since", vstr(ev->since));
}

/* An event's phase stays null when the spec gives none (see README). */
static const char *event_phase(Phase p) { return p == PHASE_DEFAULT ? NULL : phase_name(p); }

static void event_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const Event *o = old, *n = new_;
    change_val(d, e, "num", vint(o->num), vint(n->num));
    change_str(d, e, "const", o->const_name, n->const_name);
    change_str(d, e, "phase", event_phase(o->phase), event_phase(n->phase));
    change_str(d, e, "filtered", filtered_name(o->filtered), filtered_name(n->filtered));
    change_str(d, e, "since", o->since, n->since);
    change_set(d, e, "capabilities.required", ref_names(d, o->required, o->n_required),
               ref_names(d, n->required, n->n_required));
    change_set(d, e, "capabilities.optional", ref_names(d, o->optional, o->n_optional),
               ref_names(d, n->optional, n->n_optional));
    change_str(d, e, "signature", signature(d, o->params, o->n_params),
               signature(d, n->params, n->n_params));
    diff_members(d, e, "parameters", o->params, o->n_params, n->params, n->n_params);
}

static void callback_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    fact(e, "since", vstr(((const Callback *)item)->since));
}

static void callback_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const Callback *o = old, *n = new_;
    change_str(d, e, "since", o->since, n->since);
    change_str(d, e, "returns", ctype_str(d, o->ret), ctype_str(d, n->ret));
    change_str(d, e, "signature", signature(d, o->params, o->n_params),
               signature(d, n->params, n->n_params));
    diff_members(d, e, "parameters", o->params, o->n_params, n->params, n->n_params);
}

static void type_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    const Typedef *t = item;
    fact(e, "union", vbool(t->is_union));
    fact(e, "since", vstr(t->since));
}

static void type_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const Typedef *o = old, *n = new_;
    change_val(d, e, "union", vbool(o->is_union), vbool(n->is_union));
    change_str(d, e, "since", o->since, n->since);
    change_str(d, e, "layout", layout(d, o->fields, o->n_fields),
               layout(d, n->fields, n->n_fields));
    diff_members(d, e, "fields", o->fields, o->n_fields, n->fields, n->n_fields);
}

static void basetype_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    fact(e, "group", vstr(((const Held *)item)->owner));
}

/* Whether two definitions are the same C: the same tokens, whatever the
 * whitespace and comments between them (JDK 21 and JDK 25 lay out
 * jrawMonitorID's definition differently). */
static bool same_tokens(const char *a, const char *b)
{
    CScan x, y;
    bool ok_x = cscan(&x, a, strlen(a)), ok_y = cscan(&y, b, strlen(b)); /* both: both freed */
    bool ok = ok_x && ok_y;
    bool same = ok && x.n_toks == y.n_toks;
    for (size_t i = 0; same && i < x.n_toks; i++)
        same = x.toks[i].len == y.toks[i].len &&
               memcmp(a + x.toks[i].off, b + y.toks[i].off, x.toks[i].len) == 0;
    cscan_free(&x);
    cscan_free(&y);
    return same;
}

/* A definition on one line: each run of whitespace one space, none at the
 * ends, so a changed definition prints as one fact. */
static const char *one_line(Diff *d, const char *s)
{
    if (!s)
        return NULL;
    Buf b;
    buf_init(&b);
    for (const char *p = s; *p;) {
        if (is_xml_space(*p)) {
            while (is_xml_space(*p))
                p++;
            if (b.len && *p)
                buf_putc(&b, ' ');
        } else {
            buf_putc(&b, *p++);
        }
    }
    const char *line = arena_strdup(d->a, b.data ? b.data : "");
    buf_free(&b);
    return line;
}

static void basetype_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const Held *oh = old, *nh = new_;
    const BaseType *o = oh->item, *n = nh->item;
    change_str(d, e, "group", oh->owner, nh->owner);
    if (!o->definition || !n->definition || !same_tokens(o->definition, n->definition))
        change_str(d, e, "definition", one_line(d, o->definition), one_line(d, n->definition));
}

static void capability_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    const Held *h = item;
    fact(e, "position", vint(h->position));
    fact(e, "since", vstr(((const CapabilityField *)h->item)->since));
}

static void capability_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const Held *oh = old, *nh = new_;
    const CapabilityField *o = oh->item, *n = nh->item;
    change_val(d, e, "position", vint(oh->position), vint(nh->position));
    change_str(d, e, "since", o->since, n->since);
}

static void error_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    fact(e, "num", vint(((const ErrorDef *)item)->num));
}

static const char *error_category(const ErrorDef *e)
{
    return e->category ? e->category->id : NULL;
}

static void error_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const ErrorDef *o = old, *n = new_;
    change_val(d, e, "num", vint(o->num), vint(n->num));
    change_str(d, e, "category", error_category(o), error_category(n));
}

static const char *const_kind_name(ConstKind k)
{
    return k == CONST_ENUM ? "enum" : k == CONST_BITS ? "bits" : "const";
}

static void group_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    const ConstantGroup *g = item;
    fact(e, "kind", vstr(const_kind_name(g->kind)));
    fact(e, "since", vstr(g->since));
}

static void group_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const ConstantGroup *o = old, *n = new_;
    change_str(d, e, "kind", const_kind_name(o->kind), const_kind_name(n->kind));
    change_str(d, e, "since", o->since, n->since);
}

static void constant_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    const Held *h = item;
    fact(e, "num", vstr(((const Constant *)h->item)->num));
    fact(e, "group", vstr(h->owner));
}

static void constant_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const Held *oh = old, *nh = new_;
    const Constant *o = oh->item, *n = nh->item;
    change_str(d, e, "num", o->num, n->num);
    change_str(d, e, "group", oh->owner, nh->owner);
}

/* ---- --abi: layouts ---- */

/* An item of --abi's lists; id first, like the model's items. */
typedef struct AbiItem {
    const char *id;
    const Spec *s;
    Layouts *l;
    long index; /* structs: the typedef's index, or -1 for SPECIAL */
    enum { SPECIAL_NONE, SPECIAL_CAPS, SPECIAL_EVENTS, SPECIAL_TABLE } special;
    long slot;             /* slots: number; capabilities: bit */
    const char *other;     /* slots: what holds the same slot in the other spec */
    long offset[DM_COUNT]; /* event slots: offset in jvmtiEventCallbacks */
    Param **params;        /* slots: the function pointer's parameters */
    size_t n_params;
} AbiItem;

/* Who allocates a struct: "agent" when a function takes it as storage the
 * caller provides (outptr, outbuf, inptr, inbuf), "vm" when only the VM
 * hands it out, NULL when nothing passes it; a struct inside another is
 * allocated with it. A struct an agent allocates cannot grow without
 * breaking agents built against the old header. */
static const char *allocated_by(const Spec *s, const char *id)
{
    unsigned uses = struct_uses(s, id);
    return uses & (USE_IN | USE_OUT) ? "agent" : uses & (USE_VM | USE_CALLBACK) ? "vm" : NULL;
}

/* "lp64.size", "ilp32.offsets.NAME": a fact in one data model. */
static const char *dm_key(Diff *d, DataModel dm, const char *what, const char *name)
{
    const char *k = printf_str(d, "%s.%s", data_model_names[dm], what);
    return name ? printf_str(d, "%s.%s", k, name) : k;
}

/* A struct's layout in dm: false when it has none. */
static bool abi_layout(const AbiItem *it, DataModel dm, Layout *lay, const long **offsets)
{
    static const long none = 0;
    *offsets = &none;
    switch (it->special) {
    case SPECIAL_CAPS: *lay = layout_capabilities(it->s->capabilities->n_fields); return true;
    case SPECIAL_EVENTS: *lay = layout_pointers(dm, it->slot); return true;
    case SPECIAL_TABLE: *lay = layout_pointers(dm, it->slot); return true;
    case SPECIAL_NONE: break;
    }
    return layout_of_typedef(it->l, (size_t)it->index, dm, lay, offsets);
}

static void struct_facts(Diff *d, Entry *e, const void *item)
{
    const AbiItem *it = item;
    for (int dm = 0; dm < DM_COUNT; dm++) {
        Layout lay;
        const long *offsets;
        bool known = abi_layout(it, (DataModel)dm, &lay, &offsets);
        fact(e, dm_key(d, (DataModel)dm, "size", NULL), known ? vint(lay.size) : vstr(NULL));
    }
}

static void struct_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const AbiItem *o = old, *n = new_;
    const Typedef *ot = o->index >= 0 ? o->s->typedefs[o->index] : NULL;
    const Typedef *nt = n->index >= 0 ? n->s->typedefs[n->index] : NULL;
    for (int dm = 0; dm < DM_COUNT; dm++) {
        Layout ol = {0, 0}, nl = {0, 0};
        const long *oo, *no;
        bool ok = abi_layout(o, (DataModel)dm, &ol, &oo),
             nk = abi_layout(n, (DataModel)dm, &nl, &no);
        change_val(d, e, dm_key(d, (DataModel)dm, "size", NULL), ok ? vint(ol.size) : vstr(NULL),
                   nk ? vint(nl.size) : vstr(NULL));
        change_val(d, e, dm_key(d, (DataModel)dm, "align", NULL), ok ? vint(ol.align) : vstr(NULL),
                   nk ? vint(nl.align) : vstr(NULL));
        for (size_t i = 0; ot && nt && ok && nk && i < nt->n_fields; i++) {
            for (size_t k = 0; k < ot->n_fields; k++)
                if (strcmp(ot->fields[k]->name, nt->fields[i]->name) == 0)
                    change_val(d, e, dm_key(d, (DataModel)dm, "offsets", nt->fields[i]->name),
                               vint(oo[k]), vint(no[i]));
        }
    }
    if (ot && nt) {
        StrList of = {arena_alloc(d->a, (ot->n_fields + 1) * sizeof(char *)), ot->n_fields};
        StrList nf = {arena_alloc(d->a, (nt->n_fields + 1) * sizeof(char *)), nt->n_fields};
        for (size_t i = 0; i < ot->n_fields; i++)
            of.items[i] = ot->fields[i]->name;
        for (size_t i = 0; i < nt->n_fields; i++)
            nf.items[i] = nt->fields[i]->name;
        change_set(d, e, "fields", of, nf);
        for (size_t i = 0; i < nt->n_fields; i++) {
            const Param *p = param_named(ot->fields, ot->n_fields, nt->fields[i]->name);
            if (p) /* a callback slot of jvmtiHeapCallbacks retyped, a field retyped */
                change_str(d, e, printf_str(d, "fields.%s.type", p->name, ""),
                           ctype_str(d, p->type), ctype_str(d, nt->fields[i]->type));
        }
    }
    if (e->changes.n) {
        const char *by = allocated_by(n->s, n->id);
        fact(e, "allocated_by", vstr(by ? by : o->special == SPECIAL_TABLE ? "vm" : NULL));
    }
}

static void slot_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    const AbiItem *it = item;
    fact(e, "slot", vint(it->slot));
    fact(e, "other", vstr(it->other));
}

static void slot_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    const AbiItem *o = old, *n = new_;
    change_val(d, e, "slot", vint(o->slot), vint(n->slot));
    for (int dm = 0; dm < DM_COUNT; dm++)
        change_val(d, e, dm_key(d, (DataModel)dm, "offset", NULL), vint(o->offset[dm]),
                   vint(n->offset[dm]));
    change_str(d, e, "signature", signature(d, o->params, o->n_params),
               signature(d, n->params, n->n_params));
}

static void bit_facts(Diff *d, Entry *e, const void *item)
{
    (void)d;
    fact(e, "bit", vint(((const AbiItem *)item)->slot));
}

static void bit_compare(Diff *d, Entry *e, const void *old, const void *new_)
{
    change_val(d, e, "bit", vint(((const AbiItem *)old)->slot),
               vint(((const AbiItem *)new_)->slot));
}

static AbiItem *abi_item(Diff *d, Vec *v, const char *id, const Spec *s, Layouts *l)
{
    AbiItem *it = arena_alloc(d->a, sizeof *it);
    *it = (AbiItem){.id = id, .s = s, .l = l, .index = -1};
    vec_push(v, it);
    return it;
}

static const Event *event_numbered(const Spec *s, long num)
{
    for (size_t i = 0; i < s->n_events; i++)
        if (s->events[i]->num == num)
            return s->events[i];
    return NULL;
}

/* The lowest and highest event numbers (lo > hi without events). */
static void event_range(const Spec *s, long *lo, long *hi)
{
    *lo = 1;
    *hi = 0;
    for (size_t i = 0; i < s->n_events; i++) {
        long num = s->events[i]->num;
        if (i == 0 || num < *lo)
            *lo = num;
        if (i == 0 || num > *hi)
            *hi = num;
    }
}

/* The items of one spec, kind by kind; other is the spec it is compared
 * with (what holds the same slot there). */
static void abi_items(Diff *d, const Spec *s, const Spec *other, Layouts *l, Layouts *lo_,
                      void **items[4], size_t n[4])
{
    (void)lo_;
    Vec v[4] = {{0}, {0}, {0}, {0}};
    for (size_t i = 0; i < s->n_typedefs; i++)
        abi_item(d, &v[0], s->typedefs[i]->id, s, l)->index = (long)i;
    if (s->capabilities)
        abi_item(d, &v[0], s->capabilities->id, s, l)->special = SPECIAL_CAPS;
    long elo, ehi;
    event_range(s, &elo, &ehi);
    if (s->n_events) {
        AbiItem *it = abi_item(d, &v[0], "jvmtiEventCallbacks", s, l);
        it->special = SPECIAL_EVENTS;
        it->slot = ehi - elo + 1;
    }
    int max = max_table_num(s), omax = max_table_num(other);
    AbiItem *table = abi_item(d, &v[0], "jvmtiInterface_1", s, l);
    table->special = SPECIAL_TABLE;
    table->slot = max < 1 ? 1 : max;
    const Function **oslot = table_slots(other);
    for (size_t i = 0; i < s->n_functions; i++) {
        const Function *f = s->functions[i];
        if (!function_in_table(f))
            continue;
        AbiItem *it = abi_item(d, &v[1], f->id, s, l);
        it->slot = f->num;
        it->other = f->num <= omax && oslot[f->num] ? oslot[f->num]->id : NULL;
        it->params = f->params;
        it->n_params = f->n_params;
    }
    free(oslot);
    for (size_t i = 0; i < s->n_events; i++) {
        const Event *e = s->events[i];
        AbiItem *it = abi_item(d, &v[2], e->id, s, l);
        const Event *x = event_numbered(other, e->num);
        it->slot = e->num;
        it->other = x ? x->id : NULL;
        it->params = e->params;
        it->n_params = e->n_params;
        for (int dm = 0; dm < DM_COUNT; dm++)
            it->offset[dm] = (e->num - elo) * layout_pointer_size((DataModel)dm);
    }
    for (size_t i = 0; s->capabilities && i < s->capabilities->n_fields; i++)
        abi_item(d, &v[3], s->capabilities->fields[i]->id, s, l)->slot = (long)i;
    for (int k = 0; k < 4; k++)
        items[k] = vec_freeze(&v[k], d->a, &n[k]);
}

static void diff_abi(Diff *d, const Spec *old, const Spec *new_)
{
    Layouts *lo = layouts_new(old), *ln = layouts_new(new_);
    void **oi[4], **ni[4];
    size_t on[4], nn[4];
    abi_items(d, old, new_, lo, ln, oi, on);
    abi_items(d, new_, old, ln, lo, ni, nn);
    diff_lists(d, K_STRUCTS, oi[0], on[0], ni[0], nn[0], struct_facts, struct_compare);
    diff_lists(d, K_FUNCTION_SLOTS, oi[1], on[1], ni[1], nn[1], slot_facts, slot_compare);
    diff_lists(d, K_EVENT_SLOTS, oi[2], on[2], ni[2], nn[2], slot_facts, slot_compare);
    diff_lists(d, K_CAPABILITY_BITS, oi[3], on[3], ni[3], nn[3], bit_facts, bit_compare);
    layouts_free(lo);
    layouts_free(ln);
}

/* ---- writing ---- */

static int entry_cmp(const void *a, const void *b)
{
    return strcmp((*(Entry *const *)a)->id, (*(Entry *const *)b)->id);
}

static void sort_entries(Vec *v)
{
    if (v->n > 1)
        qsort(v->items, v->n, sizeof *v->items, entry_cmp);
}

static void text_val(Buf *o, Val v)
{
    switch (v.t) {
    case VAL_NULL: buf_puts(o, "(none)"); break;
    case VAL_STR: buf_puts(o, *v.s ? v.s : "\"\""); break;
    case VAL_INT: buf_printf(o, "%lld", v.i); break;
    case VAL_BOOL: buf_puts(o, v.i ? "true" : "false"); break;
    }
}

static void text_entries(Buf *o, const char *sign, const char *noun, const Vec *v)
{
    for (size_t i = 0; i < v->n; i++) {
        const Entry *e = v->items[i];
        buf_printf(o, "%s %s %s", sign, noun, e->id);
        for (int f = 0; f < e->n_facts; f++) {
            buf_puts(o, f ? ", " : " (");
            buf_printf(o, "%s ", e->facts[f].key);
            text_val(o, e->facts[f].v);
        }
        buf_puts(o, e->n_facts ? ")\n" : "\n");
    }
}

static void text_changes(Buf *o, const char *noun, const Vec *v)
{
    for (size_t i = 0; i < v->n; i++) {
        const Entry *e = v->items[i];
        for (size_t c = 0; c < e->changes.n; c++) {
            const Delta *ch = e->changes.items[c];
            buf_printf(o, "~ %s %s", noun, e->id);
            for (int f = 0; f < e->n_facts; f++) { /* only --abi's changed items have facts */
                buf_puts(o, f ? ", " : " (");
                buf_printf(o, "%s ", e->facts[f].key);
                text_val(o, e->facts[f].v);
            }
            buf_printf(o, "%s: %s ", e->n_facts ? ")" : "", ch->what);
            if (ch->is_set) {
                for (size_t k = 0; k < ch->added.n; k++)
                    buf_printf(o, "%s+%s", k ? " " : "", ch->added.items[k]);
                for (size_t k = 0; k < ch->removed.n; k++)
                    buf_printf(o, "%s-%s", k || ch->added.n ? " " : "", ch->removed.items[k]);
            } else {
                text_val(o, ch->old);
                buf_puts(o, " -> ");
                text_val(o, ch->new_);
            }
            buf_putc(o, '\n');
        }
    }
}

static void write_text(const Diff *d, const Spec *old, const Spec *new_, const DiffNames *names,
                       size_t total, Buf *o)
{
    buf_printf(o, "--- %s (JVM TI %s)\n", names->old_name,
               old->version ? old->version : "version unknown");
    buf_printf(o, "+++ %s (JVM TI %s)\n", names->new_name,
               new_->version ? new_->version : "version unknown");
    if (!total) {
        buf_puts(o, "\nno differences\n");
        return;
    }
    for (int k = d->first; k < d->last; k++) {
        const Section *s = &d->sec[k];
        if (!s->added.n && !s->removed.n && !s->changed.n)
            continue;
        buf_printf(o, "\n%s: %zu added, %zu removed, %zu changed\n", kinds[k].key, s->added.n,
                   s->removed.n, s->changed.n);
        text_entries(o, "-", kinds[k].noun, &s->removed);
        text_entries(o, "+", kinds[k].noun, &s->added);
        text_changes(o, kinds[k].noun, &s->changed);
    }
}

static void json_val(Json *j, Val v)
{
    switch (v.t) {
    case VAL_NULL: json_null(j); break;
    case VAL_STR: json_str(j, v.s); break;
    case VAL_INT: json_int(j, v.i); break;
    case VAL_BOOL: json_bool(j, v.i != 0); break;
    }
}

static void json_list(Json *j, const char *key, const StrList *l)
{
    json_key(j, key);
    json_begin(j, '[');
    for (size_t i = 0; i < l->n; i++)
        json_str(j, l->items[i]);
    json_end(j, ']');
}

static void json_entries(Json *j, const char *key, const Vec *v, bool changed)
{
    json_key(j, key);
    json_begin(j, '[');
    for (size_t i = 0; i < v->n; i++) {
        const Entry *e = v->items[i];
        json_begin(j, '{');
        json_kstr(j, "id", e->id);
        for (int f = 0; f < e->n_facts; f++) {
            json_key(j, e->facts[f].key);
            json_val(j, e->facts[f].v);
        }
        if (changed) {
            json_key(j, "changes");
            json_begin(j, '[');
            for (size_t c = 0; c < e->changes.n; c++) {
                const Delta *ch = e->changes.items[c];
                json_begin(j, '{');
                json_kstr(j, "what", ch->what);
                if (ch->is_set) {
                    json_list(j, "old", &ch->old_set);
                    json_list(j, "new", &ch->new_set);
                    json_list(j, "added", &ch->added);
                    json_list(j, "removed", &ch->removed);
                } else {
                    json_key(j, "old");
                    json_val(j, ch->old);
                    json_key(j, "new");
                    json_val(j, ch->new_);
                    json_knull(j, "added");
                    json_knull(j, "removed");
                }
                json_end(j, '}');
            }
            json_end(j, ']');
        }
        json_end(j, '}');
    }
    json_end(j, ']');
}

static void json_side(Json *j, const char *key, const char *file, const Spec *s)
{
    json_key(j, key);
    json_begin(j, '{');
    json_kstr(j, "file", file);
    json_kstr(j, "version", s->version);
    json_end(j, '}');
}

static void write_json(const Diff *d, const Spec *old, const Spec *new_, const DiffNames *names,
                       size_t total, Buf *o)
{
    Json j = json_writer(o);
    json_begin(&j, '{');
    json_kint(&j, "format", DIFF_JSON_FORMAT);
    json_side(&j, "old", names->old_name, old);
    json_side(&j, "new", names->new_name, new_);
    json_kint(&j, "differences", (long long)total);
    for (int k = d->first; k < d->last; k++) {
        const Section *s = &d->sec[k];
        json_key(&j, kinds[k].key);
        json_begin(&j, '{');
        json_entries(&j, "added", &s->added, false);
        json_entries(&j, "removed", &s->removed, false);
        json_entries(&j, "changed", &s->changed, true);
        json_end(&j, '}');
    }
    json_end(&j, '}');
    buf_putc(o, '\n');
}

size_t emit_spec_diff(const Spec *old, const Spec *new_, const DiffNames *names, bool json,
                      bool abi, Buf *out)
{
    Diff d = {
        .a = arena_new(), .first = abi ? K_ABI_FIRST : 0, .last = abi ? K_COUNT : K_ABI_FIRST};
    if (abi) {
        diff_abi(&d, old, new_);
    } else {
        diff_lists(&d, K_FUNCTIONS, (void *const *)old->functions, old->n_functions,
                   (void *const *)new_->functions, new_->n_functions, function_facts,
                   function_compare);
        diff_lists(&d, K_EVENTS, (void *const *)old->events, old->n_events,
                   (void *const *)new_->events, new_->n_events, event_facts, event_compare);
        diff_lists(&d, K_CALLBACKS, (void *const *)old->callbacks, old->n_callbacks,
                   (void *const *)new_->callbacks, new_->n_callbacks, callback_facts,
                   callback_compare);
        diff_lists(&d, K_TYPES, (void *const *)old->typedefs, old->n_typedefs,
                   (void *const *)new_->typedefs, new_->n_typedefs, type_facts, type_compare);
        size_t no, nn;
        void **ho = held_basetypes(&d, old, &no), **hn = held_basetypes(&d, new_, &nn);
        diff_lists(&d, K_BASETYPES, ho, no, hn, nn, basetype_facts, basetype_compare);
        ho = held_capabilities(&d, old, &no);
        hn = held_capabilities(&d, new_, &nn);
        diff_lists(&d, K_CAPABILITIES, ho, no, hn, nn, capability_facts, capability_compare);
        diff_lists(&d, K_ERRORS, (void *const *)old->errors, old->n_errors,
                   (void *const *)new_->errors, new_->n_errors, error_facts, error_compare);
        diff_lists(&d, K_CONSTANT_GROUPS, (void *const *)old->constant_groups,
                   old->n_constant_groups, (void *const *)new_->constant_groups,
                   new_->n_constant_groups, group_facts, group_compare);
        ho = held_constants(&d, old, &no);
        hn = held_constants(&d, new_, &nn);
        diff_lists(&d, K_CONSTANTS, ho, no, hn, nn, constant_facts, constant_compare);
    }

    size_t total = 0;
    for (int k = 0; k < K_COUNT; k++) {
        sort_entries(&d.sec[k].added);
        sort_entries(&d.sec[k].removed);
        sort_entries(&d.sec[k].changed);
        total += d.sec[k].added.n + d.sec[k].removed.n + d.sec[k].changed.n;
    }
    if (json)
        write_json(&d, old, new_, names, total, out);
    else
        write_text(&d, old, new_, names, total, out);

    for (int k = 0; k < K_COUNT; k++) {
        vec_free(&d.sec[k].added);
        vec_free(&d.sec[k].removed);
        vec_free(&d.sec[k].changed);
    }
    for (size_t i = 0; i < d.entries.n; i++)
        vec_free(&((Entry *)d.entries.items[i])->changes);
    vec_free(&d.entries);
    arena_free(d.a);
    return total;
}
