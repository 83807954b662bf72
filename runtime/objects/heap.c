/* Heap walks: FollowReferences, IterateThroughHeap and the 1.0 functions
 * (IterateOverReachableObjects, IterateOverObjectsReachableFromObject,
 * IterateOverHeap, IterateOverInstancesOfClass), over the VM's enumerations
 * of roots, of an object's references and of all objects (config.heap_*).
 *
 * The core keeps the protocol, once for every VM: an explicit work list
 * (never recursion: a chain of a million objects must not reach the C
 * stack's end), a visited set keyed by the objects' identities (the tag
 * map's key), the heap and class filters, the tags handed to callbacks by
 * pointer and written back to the tag map afterwards (0: untagged), one
 * shared tag for a self-reference, the visit-control and iteration-control
 * answers.
 *
 * The VM's enumerations never run agent code: what they hand over is
 * copied into a buffer first, and the callbacks run afterwards. The whole
 * walk holds a posting cursor, so an environment disposed meanwhile (and
 * its tag map) is freed only after the walk ends. */
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_impl.h"
#include "objects.h"
#include "rt.h"

/* ---- a set of identities ----
 * A bitmap over blocks of 64 identities, the blocks in an open-addressing
 * table (load at most 1/2). Identities are often the addresses of objects
 * allocated one after the other, and a walk meets them roughly in that
 * order: one table entry (16 bytes) then holds the visited bits of every
 * object in 64 * 2^shift bytes of heap, so the table stays a few percent
 * of the heap's size and its probes hit the cache. A table of one entry
 * per object (16 bytes of table per object, each probe a cache and TLB
 * miss once it outgrew the cache) made FollowReferences over 10^6 objects
 * 15 times as costly as over 10^5. shift is the identities' common
 * alignment (trailing zero bits), so no two identities share a bit; an
 * identity less aligned than those before it rebuilds the table with the
 * smaller shift (at most once per bit, early in a walk). Identities
 * scattered wide apart cost one entry each: twice the old table. */

typedef struct idblock {
    uintptr_t block; /* (id >> shift >> 6) + 1; 0: empty */
    uint64_t bits;
} idblock;

/* The slots of the two blocks last looked up, most recent first (block
 * 0: none): a walk goes back and forth between an object's class and the
 * objects beside it, and a hit skips the hash and the probe (a cache miss
 * once the table outgrew the cache). Emptied when slots move. */
typedef struct idhit {
    uintptr_t block;
    size_t slot;
} idhit;

typedef struct idset {
    idblock *slots;
    size_t cap, used;
    unsigned shift;
    int started;
    idhit hit[2];
} idset;

/* A full 64-bit finalizer (MurmurHash3's): block numbers are consecutive,
 * which a lone multiply leaves in long linear-probing runs. */
static inline size_t idhash(uintptr_t k)
{
    uint64_t h = (uint64_t)k;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return (size_t)(h ^ (h >> 33));
}

/* The slot of block b (found, or the empty one where it goes). */
static idblock *idset_slot(const idset *s, uintptr_t b)
{
    size_t j = idhash(b) & (s->cap - 1);
    while (s->slots[j].block && s->slots[j].block != b)
        j = (j + 1) & (s->cap - 1);
    return &s->slots[j];
}

static int idset_add(idset *s, uintptr_t k);

/* Puts every identity of the table back under s->shift (smaller than the
 * one they were added with). */
static int idset_rebuild(idset *s, unsigned old_shift)
{
    idblock *old = s->slots;
    size_t cap = s->cap;
    s->slots = NULL;
    s->cap = s->used = 0;
    int ok = 1;
    for (size_t i = 0; ok && i < cap; i++)
        for (uint64_t bits = old[i].bits; ok && old[i].block && bits; bits &= bits - 1) {
            uintptr_t v = ((old[i].block - 1) << 6) | (uintptr_t)__builtin_ctzll(bits);
            ok = idset_add(s, v << old_shift) >= 0;
        }
    free(old);
    return ok;
}

/* idset_add's general case: the first identity, a less aligned one, a new
 * block (the table may grow). */
static int idset_add_slow(idset *s, uintptr_t k)
{
    memset(s->hit, 0, sizeof s->hit); /* the slots may move below */
    unsigned tz = k ? (unsigned)__builtin_ctzll((unsigned long long)k) : 0;
    if (!s->started) {
        s->started = 1;
        s->shift = tz < 4 ? tz : 4; /* 16-byte blocks of memory at most to start */
    } else if (tz < s->shift) {
        unsigned old = s->shift;
        s->shift = tz;
        if (!idset_rebuild(s, old))
            return -1;
    }
    if ((s->used + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        idblock *old = s->slots;
        size_t old_cap = s->cap;
        s->slots = calloc(cap, sizeof *s->slots);
        if (!s->slots) {
            s->slots = old;
            return -1;
        }
        s->cap = cap;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].block)
                *idset_slot(s, old[i].block) = old[i];
        free(old);
    }
    uintptr_t v = k >> s->shift;
    uint64_t bit = 1ull << (v & 63);
    idblock *slot = idset_slot(s, (v >> 6) + 1);
    if (!slot->block) {
        slot->block = (v >> 6) + 1;
        s->used++;
    } else if (slot->bits & bit) {
        return 0;
    }
    slot->bits |= bit;
    return 1;
}

/* 1: added, 0: was there, -1: out of memory. Inline, the common case: an
 * identity as aligned as those before it, in a block the table holds. */
static inline int idset_add(idset *s, uintptr_t k)
{
    if (s->cap && k && !(k & (((uintptr_t)1 << s->shift) - 1))) {
        uintptr_t v = k >> s->shift, b = (v >> 6) + 1;
        uint64_t bit = 1ull << (v & 63);
        idblock *slot = NULL;
        if (s->hit[0].block == b) {
            slot = &s->slots[s->hit[0].slot];
        } else if (s->hit[1].block == b) {
            slot = &s->slots[s->hit[1].slot];
        } else {
            size_t mask = s->cap - 1;
            for (size_t j = idhash(b) & mask; s->slots[j].block; j = (j + 1) & mask) {
                if (s->slots[j].block == b) {
                    s->hit[1] = s->hit[0];
                    s->hit[0] = (idhit){b, j};
                    slot = &s->slots[j];
                    break;
                }
            }
        }
        if (slot) {
            if (slot->bits & bit)
                return 0;
            slot->bits |= bit;
            return 1;
        }
    }
    return idset_add_slow(s, k);
}

/* ---- growable buffers ---- */

/* Room for one more element in the buffer whose pointer is at pv (n used
 * of *cap, elements of size bytes), doubling; 0 when out of memory (the
 * buffer is kept). The pointer is copied in and out with memcpy, so any
 * element type's pointer can be passed without aliasing it as void *. */
static int reserve(void *pv, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return 1;
    void *v;
    memcpy(&v, pv, sizeof v);
    size_t c = *cap ? *cap * 2 : 64;
    void *grown = realloc(v, c * size);
    if (!grown)
        return 0;
    memcpy(pv, &grown, sizeof grown);
    *cap = c;
    return 1;
}

#define RESERVE(a) reserve(&(a)->v, (a)->n, &(a)->cap, sizeof *(a)->v)

typedef struct idvec {
    uintptr_t *v;
    size_t n, cap;
    int oom;
} idvec;

static int idvec_push(idvec *a, uintptr_t x)
{
    if (!RESERVE(a))
        return 0;
    a->v[a->n++] = x;
    return 1;
}

typedef struct refvec {
    jvmtirt_heap_ref *v;
    size_t n, cap;
    int oom;
} refvec;

static int collect_ref(void *ctx, const jvmtirt_heap_ref *r)
{
    refvec *a = ctx;
    if (!RESERVE(a)) {
        a->oom = 1;
        return 1;
    }
    a->v[a->n++] = *r;
    return 0;
}

/* An object's reference as drain() keeps it: 16 bytes instead of a whole
 * jvmtirt_heap_ref (an array of 10^6 elements is collected at once, and
 * the walk's memory traffic is most of its time). */
typedef struct objref {
    uintptr_t referee;
    jint kind, index;
} objref;

typedef struct objrefvec {
    objref *v;
    size_t n, cap;
    int oom;
} objrefvec;

static int collect_objref(void *ctx, const jvmtirt_heap_ref *r)
{
    objrefvec *a = ctx;
    if (!RESERVE(a)) {
        a->oom = 1;
        return 1;
    }
    a->v[a->n++] = (objref){r->referee, (jint)r->kind, r->info.field.index};
    return 0;
}

typedef struct field {
    jvmtiHeapReferenceKind kind;
    jint index;
    jvmtiPrimitiveType type;
    jvalue value;
} field;

typedef struct fieldvec {
    field *v;
    size_t n, cap;
    int oom;
} fieldvec;

static int collect_field(void *ctx, jvmtiHeapReferenceKind kind, jint index,
                         jvmtiPrimitiveType type, jvalue value)
{
    fieldvec *a = ctx;
    if (!RESERVE(a)) {
        a->oom = 1;
        return 1;
    }
    a->v[a->n++] = (field){kind, index, type, value};
    return 0;
}

static int collect_object(void *ctx, uintptr_t id)
{
    idvec *a = ctx;
    if (!idvec_push(a, id))
        a->oom = 1;
    return a->oom;
}

/* ---- the walk ---- */

/* A queued object and its class (known when it was reported: drain need
 * not ask the VM again). */
typedef struct work_item {
    uintptr_t id, klass;
} work_item;

typedef struct workvec {
    work_item *v;
    size_t n, cap;
} workvec;

typedef struct walk {
    rt_env *e;
    /* FollowReferences / IterateThroughHeap */
    const jvmtiHeapCallbacks *cb;
    jint filter;
    uintptr_t klass; /* 0: any class */
    /* the 1.0 functions (basic = 1) */
    int basic;
    jvmtiHeapRootCallback root_cb;
    jvmtiStackReferenceCallback stack_cb;
    jvmtiObjectReferenceCallback object_cb;
    void *user_data;
    idset visited;
    workvec work;
    objrefvec refs;
    fieldvec fields;
    jvmtiError err;
    int stop; /* aborted by a callback, or err */
} walk;

static void walk_free(walk *w)
{
    free(w->visited.slots);
    free(w->work.v);
    free(w->refs.v);
    free(w->fields.v);
}

/* The VM supplied the enumerations the walks need. */
static int heap_ops(void)
{
    return rt.config.heap_roots && rt.config.heap_references && rt.config.heap_objects &&
           rt.config.heap_object_info;
}

/* The walks answer NOT_AVAILABLE without the VM's enumerations. */
#define HEAP_OPS {RT_OP(heap_roots), RT_OP(heap_references), RT_OP(heap_objects), \
                  RT_OP(heap_object_info)}
static const rt_need needs[] = {
    {RT_SLOT(FollowReferences), HEAP_OPS},
    {RT_SLOT(IterateThroughHeap), HEAP_OPS},
    {RT_SLOT(IterateOverHeap), HEAP_OPS},
    {RT_SLOT(IterateOverInstancesOfClass), HEAP_OPS},
    {RT_SLOT(IterateOverReachableObjects), HEAP_OPS},
    {RT_SLOT(IterateOverObjectsReachableFromObject), HEAP_OPS},
};

const rt_area rt_area_heap = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};

/* Marks id (of class klass) visited and queues it, unless it already was. */
static inline void visit(walk *w, uintptr_t id, uintptr_t klass)
{
    int r = idset_add(&w->visited, id);
    if (r > 0) {
        if (RESERVE(&w->work))
            w->work.v[w->work.n++] = (work_item){id, klass};
        else
            r = -1;
    }
    if (r < 0) {
        w->err = JVMTI_ERROR_OUT_OF_MEMORY;
        w->stop = 1;
    }
}

/* Whether the heap filter and class filter leave the object out. */
static int filtered(const walk *w, const jvmtirt_heap_object *o, jlong tag, jlong class_tag)
{
    if (!w->klass && !w->filter)
        return 0;
    if (w->klass && o->klass != w->klass)
        return 1;
    jint f = w->filter;
    return ((f & JVMTI_HEAP_FILTER_TAGGED) && tag != 0) ||
           ((f & JVMTI_HEAP_FILTER_UNTAGGED) && tag == 0) ||
           ((f & JVMTI_HEAP_FILTER_CLASS_TAGGED) && class_tag != 0) ||
           ((f & JVMTI_HEAP_FILTER_CLASS_UNTAGGED) && class_tag == 0);
}

/* The tag of an object, 0: untagged. Before the first SetTag there is no
 * tag map: 0 without the call (a walk asks three times per reference). */
static inline jlong tag_of(const walk *w, uintptr_t id)
{
    return LOAD(&w->e->tags) ? rt_tag_get(w->e, id) : 0;
}

/* A tag a callback was handed by pointer: written back if it changed. */
typedef struct held_tag {
    uintptr_t id;
    jlong tag, stored;
} held_tag;

static void hold(walk *w, held_tag *h, uintptr_t id)
{
    h->id = id;
    h->tag = h->stored = tag_of(w, id);
}

static void write_back(walk *w, held_tag *h)
{
    if (h->tag == h->stored)
        return;
    jvmtiError err = rt_tag_put(w->e, h->id, h->tag);
    if (err) {
        w->err = err;
        w->stop = 1;
    }
    h->stored = h->tag;
}

/* The 1.0 reference kind of a 1.1 one (a superclass is reported as CLASS,
 * as HotSpot does). */
static jvmtiObjectReferenceKind old_kind(jvmtiHeapReferenceKind k)
{
    return k == JVMTI_HEAP_REFERENCE_SUPERCLASS ? JVMTI_REFERENCE_CLASS
                                                : (jvmtiObjectReferenceKind)k;
}

static int has_index(jvmtiHeapReferenceKind k)
{
    return k == JVMTI_HEAP_REFERENCE_FIELD || k == JVMTI_HEAP_REFERENCE_STATIC_FIELD ||
           k == JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT || k == JVMTI_HEAP_REFERENCE_CONSTANT_POOL;
}

static int is_root(jvmtiHeapReferenceKind k) { return k >= JVMTI_HEAP_REFERENCE_JNI_GLOBAL; }

/* Reports one reference (from a root when referrer_klass, the referrer's
 * class, is NULL) and queues its referee if the answer says so. ref_tag:
 * the referrer's held tag, the one a self-reference shares. */
static void report(walk *w, const jvmtirt_heap_ref *r, const uintptr_t *referrer_klass,
                   held_tag *ref_tag)
{
    jvmtirt_heap_object o;
    if (rt.config.heap_object_info(r->referee, &o) != JVMTI_ERROR_NONE)
        return; /* not an object the VM knows: nothing to report or follow */
    int self = ref_tag && ref_tag->id == r->referee;
    held_tag own, *t = self ? ref_tag : &own;
    int follow = 1;
    jlong class_tag = tag_of(w, o.klass);
    if (!w->basic) {
        jvmtiHeapReferenceCallback cb = w->cb->heap_reference_callback;
        if (!self)
            hold(w, &own, r->referee);
        /* filters choose what is reported, not what is visited */
        if (cb && !((w->klass || w->filter) && filtered(w, &o, t->tag, class_tag))) {
            /* r's own info where the core adds nothing to it: the callback
             * reads it (const), and a copy costs 64 bytes per reference */
            jvmtiHeapReferenceInfo info;
            const jvmtiHeapReferenceInfo *ip = NULL;
            if (r->kind == JVMTI_HEAP_REFERENCE_STACK_LOCAL ||
                r->kind == JVMTI_HEAP_REFERENCE_JNI_LOCAL) {
                info = r->info;
                info.stack_local.thread_tag = tag_of(w, r->thread);
                ip = &info;
            } else if (has_index(r->kind)) {
                ip = &r->info;
            }
            jlong referrer_class_tag = referrer_klass ? tag_of(w, *referrer_klass) : 0;
            jint res = cb(r->kind, ip, class_tag, referrer_class_tag, o.size, &t->tag,
                          ref_tag ? &ref_tag->tag : NULL, o.length, w->user_data);
            write_back(w, t);
            if (ref_tag && !self)
                write_back(w, ref_tag);
            if (res & JVMTI_VISIT_ABORT) {
                w->stop = 1;
                return;
            }
            follow = (res & JVMTI_VISIT_OBJECTS) != 0;
        }
    } else {
        if (!self)
            hold(w, &own, r->referee);
        jvmtiIterationControl res = JVMTI_ITERATION_CONTINUE;
        if (!referrer_klass) {
            jvmtiHeapRootKind rk = (jvmtiHeapRootKind)(r->kind - JVMTI_HEAP_REFERENCE_JNI_GLOBAL +
                                                       JVMTI_HEAP_ROOT_JNI_GLOBAL);
            if (r->kind == JVMTI_HEAP_REFERENCE_STACK_LOCAL ||
                r->kind == JVMTI_HEAP_REFERENCE_JNI_LOCAL) {
                if (w->stack_cb) {
                    const jvmtiHeapReferenceInfoStackLocal *s = &r->info.stack_local;
                    jint slot = r->kind == JVMTI_HEAP_REFERENCE_JNI_LOCAL ? -1 : s->slot;
                    res = w->stack_cb(rk, class_tag, o.size, &t->tag, tag_of(w, r->thread),
                                      s->depth, s->method, slot, w->user_data);
                }
            } else if (w->root_cb) {
                res = w->root_cb(rk, class_tag, o.size, &t->tag, w->user_data);
            }
        } else if (w->object_cb) {
            jint index = has_index(r->kind) ? r->info.field.index : -1;
            res = w->object_cb(old_kind(r->kind), class_tag, o.size, &t->tag, ref_tag->tag, index,
                               w->user_data);
        }
        write_back(w, t);
        if (res == JVMTI_ITERATION_ABORT) {
            w->stop = 1;
            return;
        }
        follow = res == JVMTI_ITERATION_CONTINUE;
    }
    if (follow)
        visit(w, r->referee, o.klass);
}

/* Whether an object's primitive values are asked for (FollowReferences,
 * IterateThroughHeap): without those callbacks nothing of it is needed. */
static int wants_primitives(const walk *w)
{
    const jvmtiHeapCallbacks *cb = w->cb;
    return !w->basic && (cb->string_primitive_value_callback ||
                         cb->array_primitive_value_callback || cb->primitive_field_callback);
}

/* The string, array and primitive-field callbacks for one object (after
 * it was visited, or reported by IterateThroughHeap). t: its held tag. */
static void report_primitives(walk *w, uintptr_t id, const jvmtirt_heap_object *o, held_tag *t)
{
    const jvmtiHeapCallbacks *cb = w->cb;
    if (!wants_primitives(w))
        return;
    jlong class_tag = tag_of(w, o->klass);
    if (filtered(w, o, t->tag, class_tag))
        return;
    jint res = 0;
    if (o->chars && cb->string_primitive_value_callback) {
        res = cb->string_primitive_value_callback(class_tag, o->size, &t->tag, o->chars,
                                                  o->chars_length, w->user_data);
        write_back(w, t);
    }
    if (!(res & JVMTI_VISIT_ABORT) && o->elements && cb->array_primitive_value_callback) {
        res = cb->array_primitive_value_callback(class_tag, o->size, &t->tag, o->length,
                                                 o->array_type, o->elements, w->user_data);
        write_back(w, t);
    }
    if (!(res & JVMTI_VISIT_ABORT) && cb->primitive_field_callback &&
        rt.config.heap_primitive_fields) {
        w->fields.n = 0;
        rt.config.heap_primitive_fields(id, collect_field, &w->fields);
        if (w->fields.oom) {
            w->err = JVMTI_ERROR_OUT_OF_MEMORY;
            w->stop = 1;
            return;
        }
        for (size_t i = 0; i < w->fields.n && !(res & JVMTI_VISIT_ABORT); i++) {
            const field *f = &w->fields.v[i];
            jvmtiHeapReferenceInfo info;
            memset(&info, 0, sizeof info);
            info.field.index = f->index;
            res = cb->primitive_field_callback(f->kind, &info, class_tag, &t->tag, f->value, f->type,
                                               w->user_data);
            write_back(w, t);
        }
    }
    if (res & JVMTI_VISIT_ABORT)
        w->stop = 1;
}

/* Processes the work list until it is empty or the walk stops. */
static void drain(walk *w)
{
    int primitives = wants_primitives(w);
    /* zeroed once: each reference sets the same three fields (report()
     * only reads it), the rest stays 0 */
    jvmtirt_heap_ref r;
    memset(&r, 0, sizeof r);
    while (w->work.n > 0 && !w->stop) {
        work_item item = w->work.v[--w->work.n];
        uintptr_t id = item.id;
        /* Queued once the VM answered for it, the heap held still: asked
         * again only for what the primitive callbacks need. */
        jvmtirt_heap_object o;
        if (primitives && rt.config.heap_object_info(id, &o) != JVMTI_ERROR_NONE)
            continue;
        held_tag t;
        hold(w, &t, id);
        w->refs.n = 0;
        rt.config.heap_references(id, collect_objref, &w->refs);
        if (w->refs.oom) {
            w->err = JVMTI_ERROR_OUT_OF_MEMORY;
            return;
        }
        /* t is the only holder of the referrer's tag while its references
         * are reported: a self-reference shares it */
        for (size_t i = 0; i < w->refs.n && !w->stop; i++) {
            r.kind = (jvmtiHeapReferenceKind)w->refs.v[i].kind;
            r.referee = w->refs.v[i].referee;
            r.info.field.index = w->refs.v[i].index; /* array and constant_pool alias it */
            report(w, &r, &item.klass, &t);
        }
        if (!w->stop && primitives)
            report_primitives(w, id, &o, &t);
    }
}

/* Starts a walk on the environment: a posting cursor open (see the top of
 * this file), then the heap held still. -1 when the environment turns out
 * disposed: the trampoline checked it before the cursor, and a dispose and
 * a whole grace period may fall in between, its tag map freed. Inside the
 * cursor the answer holds (base/base.c keeps `disposed` set in a freed slot). */
static int walk_begin(walk *w)
{
    int cursor = rt_walk_begin();
    if (LOAD(&w->e->disposed)) {
        rt_walk_end(cursor);
        return -1;
    }
    if (rt.config.heap_pause)
        rt.config.heap_pause(1);
    return cursor;
}

static jvmtiError walk_end(walk *w, int cursor)
{
    if (rt.config.heap_pause)
        rt.config.heap_pause(0);
    rt_walk_end(cursor);
    jvmtiError err = w->err;
    walk_free(w);
    return err;
}

/* The identity of an object argument, 0 when it is none. */
static uintptr_t object_arg(jobject object)
{
    uintptr_t id = rt_object_identity(object);
    jvmtirt_heap_object o;
    if (id && rt.config.heap_object_info(id, &o) != JVMTI_ERROR_NONE)
        return 0;
    return id;
}

/* A class argument (optional where the trampolines do not check it). */
static jvmtiError class_arg(jvmtiEnv *env, jclass klass, uintptr_t *id)
{
    *id = 0;
    if (!klass)
        return JVMTI_ERROR_NONE;
    if (rt.config.check_class) {
        jvmtiError err = rt.config.check_class(env, klass, 0);
        if (err)
            return err;
    }
    *id = rt_object_identity(klass);
    return *id ? JVMTI_ERROR_NONE : JVMTI_ERROR_INVALID_CLASS;
}

/* Reports the roots, then follows from them (initial = 0), or follows
 * from one object without reporting it. */
static void follow(walk *w, uintptr_t initial)
{
    if (initial) {
        jvmtirt_heap_object o;
        if (rt.config.heap_object_info(initial, &o) == JVMTI_ERROR_NONE) {
            visit(w, initial, o.klass);
            drain(w);
        }
        return;
    }
    refvec roots = {0};
    rt.config.heap_roots(collect_ref, &roots);
    if (roots.oom) {
        w->err = JVMTI_ERROR_OUT_OF_MEMORY;
        free(roots.v);
        return;
    }
    for (size_t i = 0; i < roots.n && !w->stop; i++) {
        if (!is_root(roots.v[i].kind))
            continue;
        report(w, &roots.v[i], NULL, NULL);
        /* depth first from each root, so the work list stays short */
        drain(w);
    }
    free(roots.v);
}

jvmtiError jvmti_impl_FollowReferences(jvmtiEnv *env, jint heap_filter, jclass klass,
                                       jobject initial_object,
                                       const jvmtiHeapCallbacks *callbacks, const void *user_data)
{
    if (!heap_ops())
        return JVMTI_ERROR_NOT_AVAILABLE;
    walk w = {.e = rt_env_of(env), .cb = callbacks, .filter = heap_filter,
              .user_data = (void *)user_data};
    jvmtiError err = class_arg(env, klass, &w.klass);
    if (err)
        return err;
    int cursor = walk_begin(&w);
    if (cursor < 0)
        return JVMTI_ERROR_INVALID_ENVIRONMENT;
    uintptr_t initial = 0;
    if (initial_object && !(initial = object_arg(initial_object)))
        w.err = JVMTI_ERROR_INVALID_OBJECT;
    else
        follow(&w, initial);
    return walk_end(&w, cursor);
}

jvmtiError jvmti_impl_IterateOverReachableObjects(jvmtiEnv *env,
                                                  jvmtiHeapRootCallback heap_root_callback,
                                                  jvmtiStackReferenceCallback stack_ref_callback,
                                                  jvmtiObjectReferenceCallback object_ref_callback,
                                                  const void *user_data)
{
    if (!heap_ops())
        return JVMTI_ERROR_NOT_AVAILABLE;
    walk w = {.e = rt_env_of(env), .basic = 1, .root_cb = heap_root_callback,
              .stack_cb = stack_ref_callback, .object_cb = object_ref_callback,
              .user_data = (void *)user_data};
    int cursor = walk_begin(&w);
    if (cursor < 0)
        return JVMTI_ERROR_INVALID_ENVIRONMENT;
    follow(&w, 0);
    return walk_end(&w, cursor);
}

jvmtiError jvmti_impl_IterateOverObjectsReachableFromObject(
    jvmtiEnv *env, jobject object, jvmtiObjectReferenceCallback object_reference_callback,
    const void *user_data)
{
    if (!heap_ops())
        return JVMTI_ERROR_NOT_AVAILABLE;
    walk w = {.e = rt_env_of(env), .basic = 1, .object_cb = object_reference_callback,
              .user_data = (void *)user_data};
    int cursor = walk_begin(&w);
    if (cursor < 0)
        return JVMTI_ERROR_INVALID_ENVIRONMENT;
    uintptr_t initial = object_arg(object);
    if (!initial)
        w.err = JVMTI_ERROR_INVALID_OBJECT;
    else
        follow(&w, initial);
    return walk_end(&w, cursor);
}

/* ---- iterations over every object ---- */

/* Whether the class with identity k is `of` or a subclass of it. */
static int subclass_of(uintptr_t k, uintptr_t of)
{
    for (int guard = 0; k && guard < 65536; guard++) {
        if (k == of)
            return 1;
        jvmtirt_heap_object c;
        if (rt.config.heap_object_info(k, &c) != JVMTI_ERROR_NONE)
            return 0;
        k = c.superclass;
    }
    return 0;
}

/* Every object, with the 1.1 callback (hcb) or the 1.0 one (ocb, with its
 * object filter and `subclasses` of klass). */
static jvmtiError iterate(walk *w, jvmtiHeapObjectCallback ocb,
                          jvmtiHeapObjectFilter object_filter, int subclasses)
{
    int cursor = walk_begin(w);
    if (cursor < 0)
        return JVMTI_ERROR_INVALID_ENVIRONMENT;
    idvec all = {0};
    rt.config.heap_objects(collect_object, &all);
    if (all.oom) {
        w->err = JVMTI_ERROR_OUT_OF_MEMORY;
        w->stop = 1;
    }
    for (size_t i = 0; i < all.n && !w->stop; i++) {
        uintptr_t id = all.v[i];
        jvmtirt_heap_object o;
        if (rt.config.heap_object_info(id, &o) != JVMTI_ERROR_NONE)
            continue;
        held_tag t;
        hold(w, &t, id);
        jlong class_tag = tag_of(w, o.klass);
        if (ocb) {
            if ((object_filter == JVMTI_HEAP_OBJECT_TAGGED && t.tag == 0) ||
                (object_filter == JVMTI_HEAP_OBJECT_UNTAGGED && t.tag != 0))
                continue;
            if (w->klass && !(subclasses ? subclass_of(o.klass, w->klass) : o.klass == w->klass))
                continue;
            jvmtiIterationControl res = ocb(class_tag, o.size, &t.tag, w->user_data);
            write_back(w, &t);
            if (res == JVMTI_ITERATION_ABORT)
                w->stop = 1;
            continue;
        }
        if (filtered(w, &o, t.tag, class_tag))
            continue;
        jint res = 0;
        if (w->cb->heap_iteration_callback) {
            res = w->cb->heap_iteration_callback(class_tag, o.size, &t.tag, o.length,
                                                 w->user_data);
            write_back(w, &t);
        }
        if (res & JVMTI_VISIT_ABORT)
            w->stop = 1;
        else
            report_primitives(w, id, &o, &t);
    }
    free(all.v);
    return walk_end(w, cursor);
}

jvmtiError jvmti_impl_IterateThroughHeap(jvmtiEnv *env, jint heap_filter, jclass klass,
                                         const jvmtiHeapCallbacks *callbacks,
                                         const void *user_data)
{
    if (!heap_ops())
        return JVMTI_ERROR_NOT_AVAILABLE;
    walk w = {.e = rt_env_of(env), .cb = callbacks, .filter = heap_filter,
              .user_data = (void *)user_data};
    jvmtiError err = class_arg(env, klass, &w.klass);
    if (err)
        return err;
    return iterate(&w, NULL, 0, 0);
}

static int object_filter_ok(jvmtiHeapObjectFilter f)
{
    return f == JVMTI_HEAP_OBJECT_TAGGED || f == JVMTI_HEAP_OBJECT_UNTAGGED ||
           f == JVMTI_HEAP_OBJECT_EITHER;
}

jvmtiError jvmti_impl_IterateOverHeap(jvmtiEnv *env, jvmtiHeapObjectFilter object_filter,
                                      jvmtiHeapObjectCallback heap_object_callback,
                                      const void *user_data)
{
    if (!heap_ops())
        return JVMTI_ERROR_NOT_AVAILABLE;
    if (!object_filter_ok(object_filter))
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    walk w = {.e = rt_env_of(env), .basic = 1, .user_data = (void *)user_data};
    return iterate(&w, heap_object_callback, object_filter, 0);
}

jvmtiError jvmti_impl_IterateOverInstancesOfClass(jvmtiEnv *env, jclass klass,
                                                  jvmtiHeapObjectFilter object_filter,
                                                  jvmtiHeapObjectCallback heap_object_callback,
                                                  const void *user_data)
{
    if (!heap_ops())
        return JVMTI_ERROR_NOT_AVAILABLE;
    if (!object_filter_ok(object_filter))
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    walk w = {.e = rt_env_of(env), .basic = 1, .user_data = (void *)user_data};
    jvmtiError err = class_arg(env, klass, &w.klass);
    if (err)
        return err;
    return iterate(&w, heap_object_callback, object_filter, 1);
}
