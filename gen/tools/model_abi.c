#include "tools/model_abi.h"

#include <stdlib.h>

#include "c/impl.h"

/* "reserved" and a slot number, kept in a. */
static const char *reserved_name(Arena *a, long num)
{
    Buf b;
    buf_init(&b);
    buf_printf(&b, "reserved%ld", num);
    const char *name = arena_strdup(a, b.data);
    buf_free(&b);
    return name;
}

/* {"size", "align", "offsets": {member: offset}} for one data model. */
static void klayout(Json *j, const char *k, Layout lay, const char *const *names,
                    const long *offsets, size_t n)
{
    json_key(j, k);
    json_begin(j, '{');
    json_kint(j, "size", lay.size);
    json_kint(j, "align", lay.align);
    json_key(j, "offsets");
    json_begin(j, '{');
    for (size_t i = 0; i < n; i++)
        json_kint(j, names[i], offsets[i]);
    json_end(j, '}');
    json_end(j, '}');
}

void model_json_typedef_layout(Json *j, const Spec *s, Layouts *l, size_t i)
{
    const Typedef *td = s->typedefs[i];
    const char **names = xcalloc(td->n_fields + 1, sizeof *names);
    for (size_t k = 0; k < td->n_fields; k++)
        names[k] = td->fields[k]->name;
    json_key(j, "layout");
    json_begin(j, '{');
    for (int dm = 0; dm < DM_COUNT; dm++) {
        Layout lay;
        const long *offsets;
        if (layout_of_typedef(l, i, (DataModel)dm, &lay, &offsets))
            klayout(j, data_model_names[dm], lay, names, offsets, td->n_fields);
        else
            json_knull(j, data_model_names[dm]);
    }
    json_end(j, '}');
    free(names);
}

/* A struct of pointer slots: "slots" [{num, name, ITEM}] and its layout.
 * names[k] and items[k] (NULL: reserved) are slot k, numbered first + k. */
static void kslots(Json *j, const char *k, const char *id, const char *item, int first,
                   const char *const *names, const char *const *items, size_t n)
{
    long *offsets = xcalloc(n + 1, sizeof *offsets);
    json_key(j, k);
    json_begin(j, '{');
    json_kstr(j, "id", id);
    json_key(j, "slots");
    json_begin(j, '[');
    for (size_t i = 0; i < n; i++) {
        json_begin(j, '{');
        json_kint(j, "num", first + (long)i);
        json_kstr(j, "name", names[i]);
        json_kstr(j, item, items[i]);
        json_end(j, '}');
    }
    json_end(j, ']');
    json_key(j, "layout");
    json_begin(j, '{');
    for (int dm = 0; dm < DM_COUNT; dm++) {
        for (size_t i = 0; i < n; i++)
            offsets[i] = (long)i * layout_pointer_size((DataModel)dm);
        klayout(j, data_model_names[dm], layout_pointers((DataModel)dm, (long)n), names, offsets,
                n);
    }
    json_end(j, '}');
    json_end(j, '}');
    free(offsets);
}

/* jvmtiEventCallbacks: from the lowest event number to the highest, gaps
 * reserved (emit_header.c's events()). */
static void event_callbacks(Json *j, const Spec *s, Arena *a)
{
    int lo = 0, hi = -1;
    for (size_t i = 0; i < s->n_events; i++) {
        int num = s->events[i]->num;
        if (i == 0 || num < lo)
            lo = num;
        if (i == 0 || num > hi)
            hi = num;
    }
    size_t n = (size_t)(hi - lo + 1);
    const char **names = arena_alloc(a, (n + 1) * sizeof *names);
    const char **items = arena_alloc(a, (n + 1) * sizeof *items);
    for (size_t i = 0; i < n; i++)
        names[i] = reserved_name(a, (long)lo + (long)i);
    for (size_t i = 0; i < s->n_events; i++)
        names[s->events[i]->num - lo] = items[s->events[i]->num - lo] = s->events[i]->id;
    kslots(j, "event_callbacks", "jvmtiEventCallbacks", "event", lo, names, items, n);
}

/* jvmtiInterface_1: slot N at N - 1 pointers; at least slot 1. */
static void function_table(Json *j, const Spec *s, Arena *a)
{
    int max = max_table_num(s);
    size_t n = (size_t)(max < 1 ? 1 : max);
    const Function **slot = table_slots(s);
    const char **names = arena_alloc(a, (n + 1) * sizeof *names);
    const char **items = arena_alloc(a, (n + 1) * sizeof *items);
    for (size_t i = 0; i < n; i++) {
        const Function *f = (int)i + 1 <= max ? slot[i + 1] : NULL;
        names[i] = f ? f->id : reserved_name(a, (long)i + 1);
        items[i] = f ? f->id : NULL;
    }
    free(slot);
    kslots(j, "function_table", "jvmtiInterface_1", "function", 1, names, items, n);
}

/* The base types' sizes and alignments: the model's type kinds that have
 * one, "pointer" for every wrapper and handle. */
static void scalars(Json *j, Layouts *l)
{
    json_key(j, "scalars");
    json_begin(j, '{');
    for (int dm = 0; dm < DM_COUNT; dm++) {
        json_key(j, data_model_names[dm]);
        json_begin(j, '{');
        for (int k = 0; k < TK_COUNT; k++) {
            Type t = {.kind = (TypeKind)k};
            Layout lay;
            if (type_kinds[k].wrapper || k == TK_STRUCT ||
                !layout_of_type(l, &t, (DataModel)dm, &lay))
                continue;
            json_key(j, type_kinds[k].xml);
            json_begin(j, '{');
            json_kint(j, "size", lay.size);
            json_kint(j, "align", lay.align);
            json_end(j, '}');
        }
        Layout p = layout_pointers((DataModel)dm, 1);
        json_key(j, "pointer");
        json_begin(j, '{');
        json_kint(j, "size", p.size);
        json_kint(j, "align", p.align);
        json_end(j, '}');
        json_end(j, '}');
    }
    json_end(j, '}');
}

void model_json_abi(Json *j, const Spec *s)
{
    Arena *a = arena_new();
    Layouts *l = layouts_new(s);
    json_key(j, "abi");
    json_begin(j, '{');
    json_key(j, "data_models");
    json_begin(j, '[');
    for (int dm = 0; dm < DM_COUNT; dm++)
        json_str(j, data_model_names[dm]);
    json_end(j, ']');
    scalars(j, l);
    const Capabilities *c = s->capabilities;
    if (c) {
        const char **names = arena_alloc(a, 1 * sizeof *names);
        long none = 0;
        json_key(j, "capabilities");
        json_begin(j, '{');
        json_kstr(j, "id", c->id);
        json_key(j, "layout");
        json_begin(j, '{');
        for (int dm = 0; dm < DM_COUNT; dm++) /* bit-fields have no offsets */
            klayout(j, data_model_names[dm], layout_capabilities(c->n_fields), names, &none, 0);
        json_end(j, '}');
        json_end(j, '}');
    } else {
        json_knull(j, "capabilities");
    }
    if (s->n_events)
        event_callbacks(j, s, a);
    else
        json_knull(j, "event_callbacks");
    function_table(j, s, a);
    json_end(j, '}');
    layouts_free(l);
    arena_free(a);
}
