/* The state of one run of the templates: the model's functions, events,
 * callbacks and members by id, and which functions return each error, for
 * the extension functions to look up. */
#include "docs/state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/errors.h"

static void add_members(DocsState *st, const char *owner, Param **ps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        Buf b;
        buf_init(&b);
        buf_printf(&b, "%s.%s", owner, ps[i]->name);
        strmap_put(&st->members, arena_strdup(st->keys, b.data), ps[i]);
        buf_free(&b);
    }
}

static void add_error_user(DocsState *st, const char *error, const Function *f)
{
    Vec *v = strmap_get(&st->error_users, error);
    if (!v) {
        v = xcalloc(1, sizeof *v);
        strmap_put(&st->error_users, error, v);
        vec_push(&st->vecs, v);
    }
    if (v->n == 0 || v->items[v->n - 1] != f)
        vec_push(v, (void *)f);
}

void state_init(DocsState *st, const GenContext *ctx, Vec *deps)
{
    memset(st, 0, sizeof *st);
    st->ctx = ctx;
    st->deps = deps;
    st->keys = arena_new();
    strmap_init(&st->functions);
    strmap_init(&st->events);
    strmap_init(&st->callbacks);
    strmap_init(&st->types);
    strmap_init(&st->members);
    strmap_init(&st->error_users);
    strmap_init(&st->said);
    buf_init(&st->messages);
    buf_init(&st->scratch);
    const Spec *s = ctx->spec;
    for (size_t i = 0; i < s->n_functions; i++) {
        const Function *f = s->functions[i];
        strmap_put(&st->functions, f->id, (void *)f);
        add_members(st, f->id, f->params, f->n_params);
        /* Which functions can return each error: on entry or from the
         * implementation. */
        FnErrors fe = fn_errors_of(f);
        for (size_t k = 0; k < fe.n; k++)
            add_error_user(st, fe.items[k].error, f);
        fn_errors_free(&fe);
    }
    for (size_t i = 0; i < s->n_events; i++) {
        strmap_put(&st->events, s->events[i]->id, s->events[i]);
        add_members(st, s->events[i]->id, s->events[i]->params, s->events[i]->n_params);
    }
    for (size_t i = 0; i < s->n_callbacks; i++) {
        strmap_put(&st->callbacks, s->callbacks[i]->id, s->callbacks[i]);
        strmap_put(&st->types, s->callbacks[i]->id, s->callbacks[i]);
        add_members(st, s->callbacks[i]->id, s->callbacks[i]->params, s->callbacks[i]->n_params);
    }
    for (size_t i = 0; i < s->n_typedefs; i++) {
        strmap_put(&st->types, s->typedefs[i]->id, s->typedefs[i]);
        add_members(st, s->typedefs[i]->id, s->typedefs[i]->fields, s->typedefs[i]->n_fields);
    }
    for (size_t i = 0; i < s->n_constant_groups; i++)
        strmap_put(&st->types, s->constant_groups[i]->id, s->constant_groups[i]);
}

void state_free(DocsState *st)
{
    for (size_t i = 0; i < st->vecs.n; i++) {
        vec_free(st->vecs.items[i]);
        free(st->vecs.items[i]);
    }
    vec_free(&st->vecs);
    strmap_free(&st->functions);
    strmap_free(&st->events);
    strmap_free(&st->callbacks);
    strmap_free(&st->types);
    strmap_free(&st->members);
    strmap_free(&st->error_users);
    strmap_free(&st->said);
    arena_free(st->keys);
    crossref_free(&st->index);
    buf_free(&st->messages);
    buf_free(&st->scratch);
    for (size_t i = 0; i < st->files.n; i++)
        free(st->files.items[i]);
    vec_free(&st->files);
}
