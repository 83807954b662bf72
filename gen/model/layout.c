#include "model/layout.h"

#include <string.h>

const char *const data_model_names[DM_COUNT] = {"lp64", "ilp32"};

enum { UNKNOWN, BUSY, DONE, NONE }; /* a typedef's state while laying out */

typedef struct Entry {
    size_t index; /* in s->typedefs */
    int state[DM_COUNT];
    Layout l[DM_COUNT];
    long *offsets[DM_COUNT];
} Entry;

struct Layouts {
    const Spec *s;
    Arena *arena;
    Entry *entries; /* one per typedef, in s->typedefs' order */
    StrMap by_name; /* typedef id -> its Entry */
};

long layout_pointer_size(DataModel dm) { return dm == DM_LP64 ? 8 : 4; }

Layout layout_pointers(DataModel dm, long n)
{
    long p = layout_pointer_size(dm);
    return (Layout){n * p, p};
}

/* The bit-fields of emit_header.c's capabilities(): each goes at the next
 * bit unless it would cross its unsigned int, then at the next one. */
Layout layout_capabilities(size_t n)
{
    long pos = (long)n; /* n one-bit fields fill the units one after another */
    if (n % 16)
        pos += (long)(16 - n % 16);
    for (size_t limit = 32; limit <= 112; limit += 16)
        if (n <= limit) {
            if (pos % 32 + 16 > 32)
                pos += 32 - pos % 32;
            pos += 16;
        }
    /* Only named bit-fields give the struct their type's alignment. */
    long align = n ? 4 : 1, bytes = (pos + 7) / 8;
    return (Layout){(bytes + align - 1) / align * align, align};
}

Layouts *layouts_new(const Spec *s)
{
    Arena *a = arena_new();
    Layouts *l = arena_alloc(a, sizeof *l);
    l->s = s;
    l->arena = a;
    l->entries = arena_alloc(a, (s->n_typedefs + 1) * sizeof *l->entries);
    strmap_init(&l->by_name);
    for (size_t i = 0; i < s->n_typedefs; i++) {
        l->entries[i].index = i;
        strmap_put(&l->by_name, s->typedefs[i]->id, &l->entries[i]);
    }
    return l;
}

void layouts_free(Layouts *l)
{
    if (l) {
        strmap_free(&l->by_name);
        arena_free(l->arena); /* l itself lives in it */
    }
}

/* Base types by value. jlong and jdouble (and jlocation, a jlong; jvalue,
 * a union holding them) are 8 bytes everywhere; i386 aligns them to 4. */
static bool leaf(TypeKind k, DataModel dm, Layout *out)
{
    long p = layout_pointer_size(dm), wide = dm == DM_LP64 ? 8 : 4;
    /* clang-format off */
    switch (k) {
    case TK_JMETHODID: case TK_JFIELDID: case TK_JRAWMONITORID: case TK_JCLASS:
    case TK_JTHREAD: case TK_JTHREADGROUP: case TK_JOBJECT: case TK_SIZE_T:
        *out = (Layout){p, p};
        return true;
    case TK_JVALUE: case TK_JLONG: case TK_JDOUBLE: case TK_JLOCATION:
        *out = (Layout){8, wide};
        return true;
    case TK_JFRAMEID: case TK_JINT: case TK_JFLOAT: case TK_ENUM:
        *out = (Layout){4, 4};
        return true;
    case TK_JCHAR:
        *out = (Layout){2, 2};
        return true;
    case TK_JBOOLEAN: case TK_CHAR: case TK_UCHAR:
        *out = (Layout){1, 1};
        return true;
    default:
        return false; /* void, varargs; structs and wrappers are not leaves */
    }
    /* clang-format on */
}

static bool lay_typedef(Layouts *l, Entry *e, DataModel dm);

bool layout_of_type(Layouts *l, const Type *t, DataModel dm, Layout *out)
{
    if (type_kinds[t->kind].wrapper) {
        *out = layout_pointers(dm, 1); /* every wrapper is a pointer */
        return true;
    }
    if (t->kind != TK_STRUCT)
        return leaf(t->kind, dm, out);
    Entry *e = t->name ? strmap_get(&l->by_name, t->name) : NULL;
    if (e) {
        if (!lay_typedef(l, e, dm))
            return false;
        *out = e->l[dm];
        return true;
    }
    const Capabilities *c = l->s->capabilities;
    if (c && t->name && strcmp(t->name, c->id) == 0) {
        *out = layout_capabilities(c->n_fields);
        return true;
    }
    return false; /* a base type or callback by value: no size the model knows */
}

/* C's rules: each field at the next multiple of its alignment; a union's
 * fields all at 0; the size rounded up to the largest alignment. */
static bool lay_typedef(Layouts *l, Entry *e, DataModel dm)
{
    if (e->state[dm] != UNKNOWN)
        return e->state[dm] == DONE; /* BUSY: it holds itself, never complete */
    e->state[dm] = BUSY;
    const Typedef *td = l->s->typedefs[e->index];
    long *offsets = arena_alloc(l->arena, (td->n_fields + 1) * sizeof *offsets);
    long size = 0, align = 1;
    for (size_t k = 0; k < td->n_fields; k++) {
        Layout f;
        if (!layout_of_type(l, td->fields[k]->type, dm, &f)) {
            e->state[dm] = NONE;
            return false;
        }
        long at = td->is_union ? 0 : (size + f.align - 1) / f.align * f.align;
        offsets[k] = at;
        size = at + f.size > size ? at + f.size : size;
        align = f.align > align ? f.align : align;
    }
    e->offsets[dm] = offsets;
    e->l[dm] = (Layout){(size + align - 1) / align * align, align};
    e->state[dm] = DONE;
    return true;
}

bool layout_of_typedef(Layouts *l, size_t i, DataModel dm, Layout *out, const long **offsets)
{
    Entry *e = &l->entries[i];
    if (!lay_typedef(l, e, dm))
        return false;
    *out = e->l[dm];
    *offsets = e->offsets[dm];
    return true;
}
