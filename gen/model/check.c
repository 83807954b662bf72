#include "model/check.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cscan.h"
#include "model/cexpr.h"
#include "model/facts.h"
#include "model/reserved.h"

typedef struct Index {
    StrMap functions, function_nums, callbacks, events, event_nums, event_consts, errors,
        error_nums, groups, constants, typedefs, basetypes, capabilities, type_names, enum_names,
        anchors, elided, declared, undeclared, callback_types;
    Arena *a; /* scratch for composed keys ("Owner.member", numbers) */
} Index;

/* A key of the index's maps, kept in its arena. */
static const char *index_key(Index *ix, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *index_key(Index *ix, const char *fmt, ...)
{
    Buf b;
    buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *s = arena_strdup(ix->a, b.data);
    buf_free(&b);
    return s;
}

static const char *num_key(Index *ix, const char *kind, long long n)
{
    return index_key(ix, "%s#%lld", kind, n);
}

/* "owner.member", made for every parameter and field: put together here,
 * without a format and a buffer of its own. */
static const char *member_key(Index *ix, const char *owner, const char *member)
{
    owner = owner ? owner : "(null)"; /* as "%s" wrote a missing name */
    member = member ? member : "(null)";
    size_t o = strlen(owner), m = strlen(member);
    char *s = arena_alloc(ix->a, o + m + 2);
    memcpy(s, owner, o);
    s[o] = '.';
    memcpy(s + o + 1, member, m + 1);
    return s;
}

/* Registers a unique name; a second definition is an error naming the first. */
/* Returns false for a duplicate. */
static bool define(StrMap *m, const char *what, const char *id, const Loc *loc)
{
    if (!id || is_missing(id))
        return true;
    const Loc *prev = strmap_put(m, id, (void *)loc);
    if (prev)
        error_at(loc, "duplicate %s '%s' (first defined at line %d)", what, id, prev->line);
    return !prev;
}

/* C type names, registered in document order so that a clash is reported at
 * the later definition. Base types are not here: they name types from C,
 * JNI or the header's prologue, and an item may document one further. */
typedef struct TypeName {
    const char *id;
    const Loc *loc;
    size_t seq; /* ties on a line keep registration order */
} TypeName;

static int cmp_type_name(const void *a, const void *b)
{
    const TypeName *x = *(TypeName *const *)a, *y = *(TypeName *const *)b;
    if (x->loc->line != y->loc->line)
        return x->loc->line < y->loc->line ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static void define_num(Index *ix, StrMap *m, const char *what, const char *id, long long num,
                       const Loc *loc)
{
    const char *key = num_key(ix, what, num);
    const Loc *prev = strmap_put(m, key, (void *)loc);
    if (prev)
        error_at(loc, "%s '%s' has number %lld, already used at line %d", what, id, num,
                 prev->line);
}

static void need_identifier(Index *ix, const char *what, const char *name, const Loc *loc)
{
    if (!name || is_missing(name))
        return; /* reported as a missing attribute */
    if (!is_c_identifier(name) || is_c_keyword(name)) {
        error_at(loc, "%s '%s' is not a valid C identifier", what, name);
        return;
    }
    /* Base types name types jni.h or jvmti.h declare: they are not checked
     * here. A type of an event's callback type name is reported as such. */
    const char *why = reserved_name_reason(name);
    const Event *e = strmap_get(&ix->callback_types, name);
    if (why)
        error_at(loc, "%s '%s' has a reserved name: %s", what, name, why);
    else if (e && !strmap_get(&ix->type_names, name))
        error_at(
            loc,
            "%s '%s' has a reserved name: jvmti.h declares it, the callback type of event '%s'",
            what, name, e->id);
}

static void need_since(const char *what, const char *id, const char *since, const Loc *loc)
{
    if (since && !version_valid(since))
        error_at(loc, "%s '%s': since '%s' is not a version (MAJOR[.MINOR[.MICRO]])", what, id,
                 since);
}

/* ---- index ---- */

static void anchor(Index *ix, const char *id, const Loc *loc)
{
    if (id && *id)
        strmap_put(&ix->anchors, id, (void *)loc);
}

static void index_members(Index *ix, const char *owner, Param **ps, size_t n)
{
    for (size_t i = 0; i < n; i++)
        anchor(ix, member_key(ix, owner, ps[i]->name), &ps[i]->loc);
}

static void add_type_name(Vec *v, Arena *a, const char *id, const Loc *loc)
{
    TypeName *t = arena_alloc(a, sizeof *t);
    t->id = id;
    t->loc = loc;
    t->seq = v->n;
    vec_push(v, t);
}

static void build_index(Index *ix, const Spec *s)
{
    Vec type_names = {0};
    for (size_t i = 0; i < s->n_functions; i++) {
        Function *f = s->functions[i];
        define(&ix->functions, "function", f->id, &f->loc);
        if (f->num)
            define_num(ix, &ix->function_nums, "function", f->id, f->num, &f->loc);
        anchor(ix, f->id, &f->loc);
        index_members(ix, f->id, f->params, f->n_params);
    }
    for (size_t i = 0; i < s->n_callbacks; i++) {
        Callback *c = s->callbacks[i];
        strmap_put(&ix->callbacks, c->id, &c->loc);
        add_type_name(&type_names, ix->a, c->id, &c->loc);
        anchor(ix, c->id, &c->loc);
        index_members(ix, c->id, c->params, c->n_params);
    }
    for (size_t i = 0; i < s->n_events; i++) {
        Event *e = s->events[i];
        define(&ix->events, "event", e->id, &e->loc);
        define(&ix->event_consts, "event constant", e->const_name, &e->loc);
        if (e->id && !is_missing(e->id))
            strmap_put(&ix->callback_types, index_key(ix, "jvmtiEvent%s", e->id), e);
        if (e->num)
            define_num(ix, &ix->event_nums, "event", e->id, e->num, &e->loc);
        anchor(ix, e->id, &e->loc);
        index_members(ix, e->id, e->params, e->n_params);
    }
    for (size_t i = 0; i < s->n_error_categories; i++)
        anchor(ix, s->error_categories[i]->id, &s->error_categories[i]->loc);
    for (size_t i = 0; i < s->n_errors; i++) {
        ErrorDef *e = s->errors[i];
        define(&ix->errors, "error", e->id, &e->loc);
        define_num(ix, &ix->error_nums, "error", e->id, e->num, &e->loc);
        anchor(ix, e->id, &e->loc);
    }
    for (size_t i = 0; i < s->n_typedefs; i++) {
        Typedef *t = s->typedefs[i];
        strmap_put(&ix->typedefs, t->id, &t->loc);
        add_type_name(&type_names, ix->a, t->id, &t->loc);
        anchor(ix, t->id, &t->loc);
        index_members(ix, t->id, t->fields, t->n_fields);
    }
    if (s->capabilities) {
        Capabilities *c = s->capabilities;
        add_type_name(&type_names, ix->a, c->id, &c->loc);
        anchor(ix, c->id, &c->loc);
        for (size_t i = 0; i < c->n_fields; i++) {
            define(&ix->capabilities, "capability", c->fields[i]->id, &c->fields[i]->loc);
            anchor(ix, member_key(ix, c->id, c->fields[i]->id), &c->fields[i]->loc);
        }
    }
    for (size_t i = 0; i < s->n_basetypes; i++) {
        BaseType *t = s->basetypes[i];
        define(&ix->basetypes, "base type", t->id, &t->loc);
        if (t->definition && t->id && *t->id)
            strmap_put(&ix->declared, t->id, t);
        strmap_put(&ix->enum_names, t->id, &t->loc);
        anchor(ix, t->id, &t->loc);
    }
    for (size_t i = 0; i < s->n_basetype_groups; i++)
        anchor(ix, s->basetype_groups[i]->id, &s->basetype_groups[i]->loc);
    for (size_t i = 0; i < s->n_constant_groups; i++) {
        ConstantGroup *g = s->constant_groups[i];
        /* A duplicate group is reported here, not again as a type name. */
        if (define(&ix->groups, "constants group", g->id, &g->loc) && g->kind == CONST_ENUM) {
            add_type_name(&type_names, ix->a, g->id, &g->loc);
            strmap_put(&ix->enum_names, g->id, &g->loc);
        }
        anchor(ix, g->id, &g->loc);
        for (size_t k = 0; k < g->n_constants; k++)
            anchor(ix, g->constants[k]->id, &g->constants[k]->loc);
    }
    for (size_t i = 0; i < s->n_categories; i++)
        anchor(ix, s->categories[i]->id, &s->categories[i]->loc);
    for (size_t i = 0; i < s->n_intros; i++)
        if (s->intros[i]->id)
            anchor(ix, s->intros[i]->id, &s->intros[i]->loc);
    /* By line: a clash is reported at the later definition. */
    if (type_names.n > 1)
        qsort(type_names.items, type_names.n, sizeof *type_names.items, cmp_type_name);
    for (size_t i = 0; i < type_names.n; i++) {
        const TypeName *t = type_names.items[i];
        define(&ix->type_names, "type name", t->id, t->loc);
    }
    vec_free(&type_names);
    static const Loc generated = {"(documentation)", 0};
    for (const char *const *a = doc_section_anchors; *a; a++)
        anchor(ix, *a, &generated);
    for (size_t i = 0; i < s->n_elided; i++)
        strmap_put(&ix->elided, s->elided[i]->id, s->elided[i]);
}

/* ---- per-item rules ---- */

/* Checks one type tree. `owner` names the item; `scope` holds the names that
 * count/companion attributes may refer to (NULL: not checked). */
/* The handle types jni.h does not declare: jvmti.h declares them with the
 * <definition> of the spec's base type of that name (typedef jobject
 * jthread; ...). Without one the header would not compile. */
static bool needs_definition(TypeKind k)
{
    return k == TK_JTHREAD || k == TK_JTHREADGROUP || k == TK_JLOCATION || k == TK_JRAWMONITORID;
}

static void check_type(Index *ix, const Type *t, const char *what, const char *owner,
                       const char *member, Param **scope, size_t n_scope, bool in_function)
{
    for (; t; t = t->elem) {
        const char *c = type_kinds[t->kind].c;
        if (needs_definition(t->kind) && !strmap_get(&ix->declared, c) &&
            !strmap_put(&ix->undeclared, c, (void *)c))
            error_at(&t->loc,
                     "%s '%s' of '%s' uses %s, but no <basetype id=\"%s\"> has a "
                     "<definition> that declares it",
                     what, member, owner, c, c);
        if (t->kind == TK_STRUCT && t->name && *t->name && !strmap_get(&ix->type_names, t->name) &&
            !strmap_get(&ix->basetypes, t->name))
            error_at(&t->loc, "%s '%s' of '%s' uses unknown type '%s'", what, member, owner,
                     t->name);
        if (t->kind == TK_ENUM && t->name && *t->name && !strmap_get(&ix->enum_names, t->name))
            error_at(&t->loc, "%s '%s' of '%s' uses '%s', which is not an enumeration", what,
                     member, owner, t->name);
        if (in_function && (t->kind == TK_VMBUF || t->kind == TK_ALLOCFIELDBUF))
            error_at(&t->loc,
                     "parameter '%s' of function '%s': <%s> is not a parameter kind "
                     "for functions",
                     member, owner, type_kinds[t->kind].xml);
        if (scope) {
            const char *refs[] = {t->incount, t->outcount, t->class_,
                                  t->method,  t->field,    t->thread};
            const char *names[] = {"incount", "outcount", "class", "method", "field", "thread"};
            for (int i = 0; i < 6; i++)
                if (refs[i] && !param_named(scope, n_scope, refs[i]))
                    error_at(&t->loc, "%s '%s' of '%s': %s '%s' is not a %s of '%s'", what, member,
                             owner, names[i], refs[i], what, owner);
        }
    }
}

/* implicit: the first parameter jvmti.h gives the owner's C prototype
 * before the spec's ("env" for functions, "jvmti_env" for events). */
static void check_members(Index *ix, const char *what, const char *owner, Param **ps, size_t n,
                          bool in_function, bool check_refs, const char *implicit)
{
    StrMap seen;
    strmap_init(&seen);
    for (size_t i = 0; i < n; i++) {
        const Param *p = ps[i];
        define(&seen, what, p->name, &p->loc);
        bool varargs = p->type->kind == TK_VARARGS;
        if (varargs && i + 1 != n)
            error_at(&p->loc, "%s '%s' of '%s': varargs must come last", what, p->name, owner);
        if (!varargs)
            need_identifier(ix, what, p->name, &p->loc);
        const char *why = in_function ? reserved_function_name_reason(p->name) : NULL;
        if (implicit && p->name && strcmp(p->name, implicit) == 0)
            error_at(&p->loc,
                     "%s '%s' of '%s' has a reserved name: jvmti.h's prototype of '%s' has a "
                     "first parameter of that name",
                     what, p->name, owner, owner);
        else if (why)
            error_at(&p->loc, "%s '%s' of '%s' has a reserved name: %s", what, p->name, owner, why);
        check_type(ix, p->type, what, owner, p->name, check_refs ? ps : NULL, n, in_function);
    }
    strmap_free(&seen);
}

static void check_caprefs(Index *ix, const char *what, const char *id, NameRef **refs, size_t n,
                          const char *how)
{
    for (size_t i = 0; i < n; i++)
        if (!is_missing(refs[i]->id) && !strmap_get(&ix->capabilities, refs[i]->id))
            error_at(&refs[i]->loc, "%s '%s' %s unknown capability '%s'", what, id, how,
                     refs[i]->id);
}

/* A base type's <definition> goes into jvmti.h as written, so it must be C
 * declarations of that type and nothing more (every program including the
 * header would run a function defined there with a constructor attribute;
 * cscan_type_decls_problem says what counts): no preprocessor directive
 * (nor '#' or '%', which could make one), no trigraph, no backslash ending
 * a line (C would join the header's next line to it), comments and
 * literals closed, brackets balanced, a ';' at the end, and the type's
 * name among its identifiers. NULL if it is, else what is wrong. */
static const char *definition_problem(const BaseType *t)
{
    const char *d = t->definition;
    size_t n = strlen(d);
    if (strstr(d, "??"))
        return "it has two question marks in a row (a trigraph in C89)";
    for (size_t i = 0; i < n; i++) {
        if (d[i] != '\\')
            continue;
        size_t j = i + 1;
        while (j < n && (d[j] == ' ' || d[j] == '\t'))
            j++;
        if (j == n || d[j] == '\n' || d[j] == '\r')
            return "a backslash ends a line";
    }
    CScan sc;
    const char *why = NULL;
    if (!cscan(&sc, d, n)) {
        cscan_free(&sc);
        return "it does not scan as C (a comment or literal not closed, or braces that do "
               "not match)";
    }
    size_t c = 0;
    for (size_t i = 0; i < n && !why; i++) {
        while (c < sc.n_comments && sc.comments[c].end <= i)
            c++;
        if (c < sc.n_comments && sc.comments[c].off <= i)
            continue; /* inside a comment */
        if (d[i] == '#' || d[i] == '%')
            why = "it has a preprocessor directive (or a '#' or '%')";
    }
    int parens = 0, brackets = 0;
    bool named = false;
    for (size_t i = 0; i < sc.n_toks && !why; i++) {
        parens += ctok_is(&sc, i, "(") - ctok_is(&sc, i, ")");
        brackets += ctok_is(&sc, i, "[") - ctok_is(&sc, i, "]");
        if (parens < 0 || brackets < 0)
            why = "its brackets do not match";
        if (sc.toks[i].kind == CT_IDENT && ctok_is(&sc, i, t->id))
            named = true;
    }
    if (!why && (parens || brackets))
        why = "its brackets do not match";
    if (!why && (!sc.n_toks || !ctok_is(&sc, sc.n_toks - 1, ";")))
        why = "it does not end with ';'";
    size_t at;
    if (!why)
        why = cscan_type_decls_problem(&sc, &at);
    if (!why && !named)
        why = "it does not name the type";
    cscan_free(&sc);
    return why;
}

static void check_items(Index *ix, const Spec *s)
{
    for (size_t i = 0; i < s->n_basetypes; i++) {
        const BaseType *t = s->basetypes[i];
        const char *why = t->definition && !is_missing(t->id) ? definition_problem(t) : NULL;
        if (why)
            error_at(&t->loc,
                     "base type '%s': its <definition> must be C declarations of '%s' "
                     "and nothing else, but %s",
                     t->id, t->id, why);
    }
    for (size_t i = 0; i < s->n_functions; i++) {
        Function *f = s->functions[i];
        need_identifier(ix, "function", f->id, &f->loc);
        need_since("function", f->id, f->since, &f->loc);
        check_members(ix, "parameter", f->id, f->params, f->n_params, true, true, "env");
        const char *why = f->id ? reserved_function_name_reason(f->id) : NULL;
        if (why)
            error_at(&f->loc, "function '%s' has a reserved name: %s", f->id, why);
        check_caprefs(ix, "function", f->id, f->required, f->n_required, "requires");
        check_caprefs(ix, "function", f->id, f->optional, f->n_optional, "names");
        for (size_t k = 0; k < f->n_errors; k++)
            if (!is_missing(f->errors[k]->id) && !strmap_get(&ix->errors, f->errors[k]->id))
                error_at(&f->errors[k]->loc, "function '%s' lists unknown error '%s'", f->id,
                         f->errors[k]->id);
    }
    for (size_t i = 0; i < s->n_callbacks; i++) {
        Callback *c = s->callbacks[i];
        need_identifier(ix, "callback", c->id, &c->loc);
        need_since("callback", c->id, c->since, &c->loc);
        check_members(ix, "parameter", c->id, c->params, c->n_params, false, true, NULL);
        if (c->ret)
            check_type(ix, c->ret, "return type", c->id, "(result)", NULL, 0, false);
    }
    for (size_t i = 0; i < s->n_events; i++) {
        Event *e = s->events[i];
        need_identifier(ix, "event", e->id, &e->loc);
        need_identifier(ix, "event constant", e->const_name, &e->loc);
        need_since("event", e->id, e->since, &e->loc);
        check_members(ix, "parameter", e->id, e->params, e->n_params, false, true, "jvmti_env");
        check_caprefs(ix, "event", e->id, e->required, e->n_required, "requires");
        check_caprefs(ix, "event", e->id, e->optional, e->n_optional, "names");
    }
    for (size_t i = 0; i < s->n_typedefs; i++) {
        Typedef *t = s->typedefs[i];
        need_identifier(ix, t->is_union ? "union" : "struct", t->id, &t->loc);
        need_since(t->is_union ? "union" : "struct", t->id, t->since, &t->loc);
        /* A field's incount may name a parameter of the function that fills
         * the struct (jvmtiStackInfo), so only outcount is checked, below. */
        check_members(ix, "field", t->id, t->fields, t->n_fields, false, false, NULL);
        for (size_t k = 0; k < t->n_fields; k++) {
            const Param *f = t->fields[k];
            for (const Type *ty = f->type; ty; ty = ty->elem)
                if (ty->outcount && !param_named(t->fields, t->n_fields, ty->outcount))
                    error_at(&ty->loc, "field '%s' of '%s': outcount '%s' is not a field of '%s'",
                             f->name, t->id, ty->outcount, t->id);
        }
    }
    if (!s->capabilities) {
        Loc l = {s->file, 0};
        error_at(&l, "the spec has no <capabilitiestypedef>");
    } else {
        need_identifier(ix, "capabilities struct", s->capabilities->id, &s->capabilities->loc);
        for (size_t i = 0; i < s->capabilities->n_fields; i++) {
            CapabilityField *f = s->capabilities->fields[i];
            need_identifier(ix, "capability", f->id, &f->loc);
            need_since("capability", f->id, f->since, &f->loc);
        }
    }
    /* jvmtiError and jvmtiEvent are C enums, which may not be empty. */
    Loc whole = {s->file, 0};
    if (!s->n_errors)
        error_at(&whole, "the spec defines no errors (<errorid>)");
    if (!s->n_events)
        error_at(&whole, "the spec defines no events (<event>)");
    for (size_t i = 0; i < s->n_errors; i++)
        need_identifier(ix, "error", s->errors[i]->id, &s->errors[i]->loc);
    for (size_t i = 0; i < s->n_basetypes; i++) {
        const BaseType *t = s->basetypes[i];
        if (!is_missing(t->id) && (!is_c_identifier(t->id) || is_c_keyword(t->id)))
            error_at(&t->loc, "base type '%s' is not a valid C identifier", t->id);
    }
}

/* ---- structs inside structs ----
 * A field of a struct or union type (or a <ptrtype> of one, which C
 * declares as the type itself) holds that type by value. A chain of such
 * fields that comes back to where it started makes a type of infinite
 * size: C refuses it, and every walk over fields would follow it forever. */

/* 1 + the index of the typedef a field's type holds by value, or 0. */
static size_t held_by_value(const StrMap *by_name, const Type *t)
{
    while (t && t->kind == TK_PTRTYPE)
        t = t->elem;
    return t && t->kind == TK_STRUCT && t->name ? (size_t)(uintptr_t)strmap_get(by_name, t->name)
                                                : 0;
}

static void report_cycle(const Spec *s, const size_t *path, const Param *const *via, size_t n)
{
    const Typedef *first = s->typedefs[path[0]];
    Buf b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        if (n > 8 && i == 6) { /* a long ring: its ends say enough */
            buf_printf(&b, "... (%zu more) -> ", n - 7);
            i = n - 1;
        }
        buf_printf(&b, "%s.%s -> ", s->typedefs[path[i]]->id, via[i]->name);
    }
    buf_printf(&b, "%s", first->id);
    error_at(&via[n - 1]->loc,
             "%s '%s' contains itself by value: %s (a field can hold it only through a "
             "pointer)",
             first->is_union ? "union" : "struct", first->id, b.data);
    buf_free(&b);
}

/* Depth first, without recursion (a hostile spec may chain thousands of
 * structs): each edge back into the path closes one cycle, reported once. */
static void check_value_cycles(const Spec *s)
{
    size_t n = s->n_typedefs;
    StrMap by_name; /* id -> 1 + index of its first typedef */
    strmap_init(&by_name);
    for (size_t i = 0; i < n; i++)
        if (s->typedefs[i]->id && !strmap_get(&by_name, s->typedefs[i]->id))
            strmap_put(&by_name, s->typedefs[i]->id, (void *)(uintptr_t)(i + 1));
    enum { NEW, OPEN, DONE } *state = xcalloc(n + 1, sizeof *state);
    size_t *path = xmalloc((n + 1) * sizeof *path), *next = xmalloc((n + 1) * sizeof *next);
    const Param **via = xmalloc((n + 1) * sizeof *via);
    for (size_t root = 0; root < n; root++) {
        if (state[root] != NEW)
            continue;
        size_t depth = 1;
        path[0] = root;
        next[0] = 0;
        state[root] = OPEN;
        while (depth) {
            const Typedef *td = s->typedefs[path[depth - 1]];
            if (next[depth - 1] == td->n_fields) {
                state[path[--depth]] = DONE;
                continue;
            }
            const Param *f = td->fields[next[depth - 1]++];
            size_t k = held_by_value(&by_name, f->type);
            if (!k--)
                continue;
            via[depth - 1] = f;
            if (state[k] == OPEN) {
                size_t j = 0;
                while (path[j] != k)
                    j++;
                report_cycle(s, path + j, via + j, depth - j);
            } else if (state[k] == NEW) {
                state[k] = OPEN;
                path[depth] = k;
                next[depth++] = 0;
            }
        }
    }
    free(state);
    free(path);
    free(next);
    free(via);
    strmap_free(&by_name);
}

/* Constants defined so far, each with its value as C computes it. */
typedef struct Earlier {
    StrMap values; /* id -> Known */
    Arena *a;
} Earlier;

typedef struct Known {
    bool known; /* false: its own value was refused */
    long long value;
} Known;

static bool lookup_earlier(void *ctx, const char *name, long long *value, bool *known)
{
    const Known *k = strmap_get(&((Earlier *)ctx)->values, name);
    if (!k)
        return false;
    *known = k->known;
    *value = k->value;
    return true;
}

/* A constant's num goes into an enum of jvmti.h as written, so it is
 * evaluated as C would (model/cexpr.c): a literal, or an expression of
 * literals and constants defined before it. */
static void check_constants(Index *ix, const Spec *s)
{
    Earlier earlier = {.a = ix->a};
    strmap_init(&earlier.values);
    for (size_t i = 0; i < s->n_constant_groups; i++) {
        ConstantGroup *g = s->constant_groups[i];
        need_identifier(ix, "constants group", g->id, &g->loc);
        need_since("constants group", g->id, g->since, &g->loc);
        StrMap values;
        strmap_init(&values);
        for (size_t k = 0; k < g->n_constants; k++) {
            Constant *c = g->constants[k];
            need_identifier(ix, "constant", c->id, &c->loc);
            define(&ix->constants, "constant", c->id, &c->loc);
            Known *known = arena_alloc(ix->a, sizeof *known);
            known->known = false;
            if (is_missing(c->num)) {
                /* reported as a missing attribute */
            } else if (!*c->num) {
                error_at(&c->loc, "constant '%s' has an empty num", c->id);
            } else {
                Buf why;
                buf_init(&why);
                CexprStatus st = cexpr_eval(c->num, lookup_earlier, &earlier, &known->value, &why);
                if (st == CEXPR_ERROR)
                    error_at(&c->loc, "constant '%s': %s", c->id, why.data);
                known->known = st == CEXPR_OK;
                buf_free(&why);
                if (known->known && c->numeric)
                    define_num(ix, &values, "constant", c->id, known->value, &c->loc);
            }
            if (*c->id)
                strmap_put(&earlier.values, c->id, known);
        }
        strmap_free(&values);
    }
    strmap_free(&earlier.values);
}

/* ---- links ---- */

static bool link_resolves(Index *ix, const Link *l)
{
    const char *id = l->id;
    switch (l->kind) {
    case LINK_FUNCTION:
        return strmap_get(&ix->functions, id) || strmap_get(&ix->callbacks, id) ||
               strmap_get(&ix->typedefs, id);
    case LINK_EVENT: return strmap_get(&ix->events, id);
    case LINK_ERROR: return strmap_get(&ix->errors, id);
    case LINK_TYPE: return strmap_get(&ix->type_names, id) || strmap_get(&ix->basetypes, id);
    case LINK_DATA:
        return strmap_get(&ix->type_names, id) || strmap_get(&ix->basetypes, id) ||
               strmap_get(&ix->groups, id) || strmap_get(&ix->constants, id) ||
               (strchr(id, '.') && strmap_get(&ix->anchors, id));
    case LINK_INTERNAL: return strmap_get(&ix->anchors, id);
    case LINK_FIELD:
    case LINK_PARAM:
    case LINK_EXTERNAL:
    case LINK_COUNT: break;
    }
    return true;
}

static const char *link_target_word(LinkKind k)
{
    switch (k) {
    case LINK_FUNCTION: return "function";
    case LINK_EVENT: return "event";
    case LINK_ERROR: return "error";
    case LINK_TYPE: return "type";
    case LINK_DATA: return "data item";
    default: return "anchor";
    }
}

static void check_links(Index *ix, const Spec *s)
{
    for (size_t i = 0; i < s->n_links; i++) {
        const Link *l = s->links[i];
        const char *kind = link_kind_names[l->kind];
        if (is_missing(l->id))
            continue; /* reported as a missing attribute */
        if (l->kind == LINK_EXTERNAL)
            continue;
        if (l->kind == LINK_PARAM) {
            if (!l->owner)
                error_at(&l->loc, "paramlink to '%s' outside any function, event or callback",
                         l->id);
            else if (!param_named(l->owner_params, l->n_owner_params, l->id))
                error_at(&l->loc, "paramlink to '%s', which is not a parameter of '%s'", l->id,
                         l->owner);
            continue;
        }
        if (l->kind == LINK_FIELD) {
            if (is_missing(l->struct_))
                continue;
            const char *key = member_key(ix, l->struct_, l->id);
            if (!strmap_get(&ix->typedefs, l->struct_) &&
                !(s->capabilities && strcmp(s->capabilities->id, l->struct_) == 0))
                error_at(&l->loc, "fieldlink to '%s' of unknown struct '%s'", l->id, l->struct_);
            else if (!strmap_get(&ix->anchors, key))
                error_at(&l->loc, "fieldlink to '%s', which is not a field of '%s'", l->id,
                         l->struct_);
            continue;
        }
        if (link_resolves(ix, l))
            continue;
        const Elided *el = strmap_get(&ix->elided, l->id);
        if (el)
            error_at(&l->loc, "%s to '%s', which is elided (line %d) and so is in no output", kind,
                     l->id, el->loc.line);
        else
            error_at(&l->loc, "%s to unknown %s '%s'", kind, link_target_word(l->kind), l->id);
    }
}

/* ---- what generation needs ----
 * Ids become file names (a man page per function and event, NAME.3, with
 * our temporary file ".NAME.3.jvmtigen-tmp.XXXXXX" beside it first) and
 * parts of C names the outputs compose; `check` must refuse what
 * `generate` could not write or the outputs could not compile. */

/* The longest id whose temporary man page name fits in NAME_MAX:
 * "." ID ".3" ".jvmtigen-tmp." "XXXXXX" (gen/base/output.c). */
#define PAGE_ID_MAX (NAME_MAX - (int)sizeof ".3.jvmtigen-tmp.XXXXXX")

static void check_page_name(const char *what, const char *id, const Loc *loc)
{
    if (!id || is_missing(id))
        return;
    if (strlen(id) > (size_t)PAGE_ID_MAX)
        error_at(loc,
                 "%s '%.32s...' has a name of %zu characters: its man page (NAME.3, "
                 "written first as a temporary file of a longer name) allows at most %d",
                 what, id, strlen(id), PAGE_ID_MAX);
    if (strcmp(id, "jvmti") == 0)
        error_at(loc, "%s 'jvmti': its man page would be jvmti.3, the overview's", what);
}

/* "reservedN": the name the header gives the empty slot N of a table. */
static long reserved_slot(const char *id)
{
    if (strncmp(id, "reserved", 8) != 0 || id[8] < '1' || id[8] > '9')
        return 0;
    char *end;
    long n = strtol(id + 8, &end, 10);
    return *end ? 0 : n;
}

/* The names of the runtime core that jvmtirt_post_NAME could meet. */
static const char *const core_post_names[] = {
    "jvmtirt_post_deallocate",
    "jvmtirt_post_set_retransforming",
};
/* Per event, the C names the header and the posting code compose. */
static const char *const event_name_formats[] = {
    "jvmtiEvent%s",       "jvmtirt_post_%s",         "jvmtirt_post_%s_slow",
    "jvmtigen_filter_%s", "jvmtigen_post_filter_%s",
};

static void check_generated_names(Index *ix, const Spec *s)
{
    long max_fn = 0, min_ev = 0, max_ev = 0;
    for (size_t i = 0; i < s->n_functions; i++)
        if (s->functions[i]->num > max_fn)
            max_fn = s->functions[i]->num;
    for (size_t i = 0; i < s->n_events; i++) {
        long n = s->events[i]->num;
        if (n && (!min_ev || n < min_ev))
            min_ev = n;
        if (n > max_ev)
            max_ev = n;
    }
    for (size_t i = 0; i < s->n_functions; i++) {
        const Function *f = s->functions[i];
        check_page_name("function", f->id, &f->loc);
        long slot = f->id ? reserved_slot(f->id) : 0;
        if (slot && slot <= max_fn &&
            !strmap_get(&ix->function_nums, num_key(ix, "function", slot)))
            error_at(&f->loc, "function '%s' has the name of the function table's empty slot %ld",
                     f->id, slot);
    }
    StrMap names; /* composed C name -> the event that makes it (NULL: the core's) */
    strmap_init(&names);
    for (size_t i = 0; i < sizeof core_post_names / sizeof *core_post_names; i++)
        strmap_put(&names, core_post_names[i], ix);
    strmap_put(&names, "jvmtiEventReserved", ix);
    strmap_put(&names, "jvmtiEventCallbacks", ix);
    for (size_t i = 0; i < s->n_events; i++) {
        const Event *e = s->events[i];
        check_page_name("event", e->id, &e->loc);
        /* A duplicate id is reported as such, not again for its names. */
        if (!e->id || is_missing(e->id) || !is_c_identifier(e->id) ||
            strmap_get(&ix->events, e->id) != &e->loc)
            continue;
        const Loc *fn = strmap_get(&ix->functions, e->id);
        if (fn)
            error_at(&e->loc,
                     "event '%s' has the name of the function at line %d: both man pages "
                     "would be %s.3",
                     e->id, fn->line, e->id);
        long slot = reserved_slot(e->id);
        if (slot && slot > min_ev && slot < max_ev &&
            !strmap_get(&ix->event_nums, num_key(ix, "event", slot)))
            error_at(&e->loc, "event '%s' has the name of the event callbacks' empty slot %ld",
                     e->id, slot);
        for (size_t k = 0; k < sizeof event_name_formats / sizeof *event_name_formats; k++) {
            Buf b;
            buf_init(&b);
            buf_printf(&b, event_name_formats[k], e->id);
            const char *name = arena_strdup(ix->a, b.data);
            buf_free(&b);
            const void *prev = strmap_put(&names, name, (void *)e);
            const Loc *type = k == 0 ? strmap_get(&ix->type_names, name) : NULL;
            if (prev == ix)
                error_at(&e->loc,
                         "event '%s': the generated C would define '%s', a name "
                         "jvmtigen's own code uses",
                         e->id, name);
            else if (prev)
                error_at(&e->loc,
                         "event '%s': the generated C would define '%s' for it and for "
                         "event '%s' (line %d)",
                         e->id, name, ((const Event *)prev)->id, ((const Event *)prev)->loc.line);
            else if (type)
                error_at(&e->loc,
                         "event '%s': its callback type '%s' is also the type defined "
                         "at line %d",
                         e->id, name, type->line);
        }
    }
    strmap_free(&names);
}

/* An item's since later than the version the spec states: the header would
 * claim a version older than its own contents. A warning, as the spec may
 * simply lack its latest change entry. */
static void warn_since(const Spec *s, const char *what, const char *id, const char *since,
                       const Loc *loc)
{
    if (!s->version || !since || !version_valid(since) || version_cmp(since, s->version) <= 0)
        return;
    if (s->version_loc.line)
        warn_at(loc, "%s '%s' is since %s, later than the spec's version %s (line %d)", what, id,
                since, s->version, s->version_loc.line);
    else
        warn_at(loc, "%s '%s' is since %s, later than the spec's version %s", what, id, since,
                s->version);
}

static void check_since_versions(const Spec *s)
{
    for (size_t i = 0; i < s->n_functions; i++)
        warn_since(s, "function", s->functions[i]->id, s->functions[i]->since,
                   &s->functions[i]->loc);
    for (size_t i = 0; i < s->n_callbacks; i++)
        warn_since(s, "callback", s->callbacks[i]->id, s->callbacks[i]->since,
                   &s->callbacks[i]->loc);
    for (size_t i = 0; i < s->n_events; i++)
        warn_since(s, "event", s->events[i]->id, s->events[i]->since, &s->events[i]->loc);
    for (size_t i = 0; i < s->n_typedefs; i++) {
        const Typedef *t = s->typedefs[i];
        warn_since(s, t->is_union ? "union" : "struct", t->id, t->since, &t->loc);
    }
    for (size_t i = 0; s->capabilities && i < s->capabilities->n_fields; i++) {
        const CapabilityField *f = s->capabilities->fields[i];
        warn_since(s, "capability", f->id, f->since, &f->loc);
    }
    for (size_t i = 0; i < s->n_constant_groups; i++) {
        const ConstantGroup *g = s->constant_groups[i];
        warn_since(s, "constants group", g->id, g->since, &g->loc);
    }
}

void check_spec(const Spec *s)
{
    Index ix;
    memset(&ix, 0, sizeof ix);
    ix.a = arena_new();
    build_index(&ix, s);
    check_items(&ix, s);
    check_generated_names(&ix, s);
    check_constants(&ix, s);
    check_value_cycles(s);
    check_links(&ix, s);
    check_since_versions(s);
    StrMap *maps[] = {&ix.functions,    &ix.function_nums, &ix.callbacks,  &ix.events,
                      &ix.event_nums,   &ix.event_consts,  &ix.errors,     &ix.error_nums,
                      &ix.groups,       &ix.constants,     &ix.typedefs,   &ix.basetypes,
                      &ix.capabilities, &ix.type_names,    &ix.enum_names, &ix.anchors,
                      &ix.elided,       &ix.declared,      &ix.undeclared, &ix.callback_types};
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
        strmap_free(maps[i]);
    arena_free(ix.a);
}
