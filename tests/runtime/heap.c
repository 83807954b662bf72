/* heap.c: the core's heap walks (runtime/objects/heap.c) through environments'
 * function tables: FollowReferences, IterateThroughHeap and the four 1.0
 * functions over a small known graph, every filter, tags written back
 * (0 untags, a self-reference shares one tag), visit and iteration
 * control, reference info, primitive callbacks; a chain of a million
 * objects (no recursion); the VM without enumerations (NOT_AVAILABLE,
 * reported) or built against the older, smaller config; an environment
 * disposed between the trampoline's check and the walk; walks concurrent
 * with SetTag and with DisposeEnvironment (race-free under TSan).
 *
 * This program plays the VM: an object is a `vobj`, its identity and its
 * reference are its address (no object_id operation). Every expected count
 * below was worked out by hand from the graph drawn in make_graph().
 *
 * usage: heap [STRESS_SECONDS]   (default 0.5) */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define TAP_PREFIX "heap: "
#include "tap.h"
#define check tap_line

#define CHECK_EQ TAP_CHECK_EQ

/* ---- the VM's heap ---- */

typedef struct vobj {
    struct vobj *klass;
    struct vobj *super;       /* classes */
    struct vobj *refs[2];     /* reference fields, indices 0 and 1 */
    int has_val;              /* an int field at index 2 (or a class's static, index 0) */
    jint val;
    jint *ints;               /* int[] */
    struct vobj **elems;      /* Object[] */
    jint length;              /* arrays; -1 otherwise */
    const jchar *chars;       /* String */
    jint nchars;
    jlong size;
} vobj;

typedef struct vroot {
    jvmtiHeapReferenceKind kind;
    vobj *to;
    jint depth, slot;
    jlocation location;
} vroot;

#define REF(o) ((jobject)(o))

/* Identities are the objects' addresses, except for the packed chain of
 * section_packed, whose identities are chosen to test the visited set:
 * PACK_BASE + 16 i for the first half, PACK_BASE + 16 (i - half) + 1 for
 * the second (odd: less aligned than any before them), PACK_BASE + 16 half
 * for its class. */
#define PACK_BASE ((uintptr_t)0x100000)
static struct vobj *packed; /* NULL: addresses only */
static size_t packed_half;

static uintptr_t ID(const struct vobj *o)
{
    if (!o || !packed || o < packed || o > packed + 2 * packed_half)
        return (uintptr_t)o;
    size_t i = (size_t)(o - packed);
    return i == 2 * packed_half ? PACK_BASE + 16 * packed_half
           : i < packed_half    ? PACK_BASE + 16 * i
                                : PACK_BASE + 16 * (i - packed_half) + 1;
}

static struct vobj *OBJ(uintptr_t id)
{
    if (!packed || id < PACK_BASE || id > PACK_BASE + 16 * packed_half)
        return (struct vobj *)id;
    uintptr_t off = id - PACK_BASE;
    if (off == 16 * packed_half)
        return &packed[2 * packed_half]; /* the class */
    return off & 1 ? &packed[packed_half + off / 16] : &packed[off / 16];
}

static vobj **heap_objs;   /* every object, for heap_objects */
static size_t heap_n;
static vroot roots[16];
static int n_roots;
static vobj *thr;          /* the thread of the stack roots */
static int pauses;         /* heap_pause(1) calls minus heap_pause(0) calls: atomic */
static char method_obj;
#define METHOD ((jmethodID)(void *)&method_obj)

static void vm_pause(int on) { __atomic_add_fetch(&pauses, on ? 1 : -1, __ATOMIC_RELAXED); }

static void vm_roots(jvmtirt_heap_ref_fn fn, void *ctx)
{
    for (int i = 0; i < n_roots; i++) {
        jvmtirt_heap_ref r;
        memset(&r, 0, sizeof r);
        r.kind = roots[i].kind;
        r.referee = ID(roots[i].to);
        if (r.kind == JVMTI_HEAP_REFERENCE_STACK_LOCAL || r.kind == JVMTI_HEAP_REFERENCE_JNI_LOCAL) {
            r.thread = ID(thr);
            r.info.stack_local.thread_id = 1;
            r.info.stack_local.depth = roots[i].depth;
            r.info.stack_local.method = METHOD;
            r.info.stack_local.location = roots[i].location;
            r.info.stack_local.slot = roots[i].slot;
        }
        if (fn(ctx, &r))
            return;
    }
}

static int emit(jvmtirt_heap_ref_fn fn, void *ctx, jvmtiHeapReferenceKind kind, vobj *to, jint index)
{
    if (!to)
        return 0;
    jvmtirt_heap_ref r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.referee = ID(to);
    r.info.field.index = index;
    return fn(ctx, &r);
}

static void vm_references(uintptr_t id, jvmtirt_heap_ref_fn fn, void *ctx)
{
    vobj *o = OBJ(id);
    if (emit(fn, ctx, JVMTI_HEAP_REFERENCE_CLASS, o->klass, 0) ||
        emit(fn, ctx, JVMTI_HEAP_REFERENCE_SUPERCLASS, o->super, 0))
        return;
    for (int i = 0; i < 2; i++)
        if (emit(fn, ctx, JVMTI_HEAP_REFERENCE_FIELD, o->refs[i], i))
            return;
    for (jint i = 0; o->elems && i < o->length; i++)
        if (emit(fn, ctx, JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT, o->elems[i], i))
            return;
}

static void vm_objects(jvmtirt_heap_object_fn fn, void *ctx)
{
    for (size_t i = 0; i < heap_n; i++)
        if (fn(ctx, ID(heap_objs[i])))
            return;
}

static jvmtiError vm_info(uintptr_t id, jvmtirt_heap_object *out)
{
    vobj *o = OBJ(id);
    memset(out, 0, sizeof *out);
    out->klass = ID(o->klass);
    out->size = o->size;
    out->length = o->length;
    out->superclass = ID(o->super);
    if (o->ints) {
        out->array_type = JVMTI_PRIMITIVE_TYPE_INT;
        out->elements = o->ints;
    }
    out->chars = o->chars;
    out->chars_length = o->nchars;
    return JVMTI_ERROR_NONE;
}

static void vm_fields(uintptr_t id, jvmtirt_heap_field_fn fn, void *ctx)
{
    vobj *o = OBJ(id);
    if (!o->has_val)
        return;
    jvalue v;
    v.i = o->val;
    int is_class = o->klass && o->klass->klass == o->klass; /* its class is java/lang/Class */
    if (is_class)
        fn(ctx, JVMTI_HEAP_REFERENCE_STATIC_FIELD, 0, JVMTI_PRIMITIVE_TYPE_INT, v);
    else
        fn(ctx, JVMTI_HEAP_REFERENCE_FIELD, 2, JVMTI_PRIMITIVE_TYPE_INT, v);
}

/* The known graph:
 *   classes (each of class C_Class; C_Class of itself: a self-reference):
 *     C_Class, C_Object, C_Node < C_Object (a static int = 7),
 *     C_IntArr < C_Object, C_String < C_Object, C_ObjArr < C_Object
 *   n1 -next-> n2 -next-> n3 -next-> n1 (Nodes; int val 10, 20, 30)
 *   n1.data = arr (int[]{1,2,3}), n2.data = str ("hi"), n3.data = objarr
 *   objarr = Object[]{str, n3}; thr: an Object (the thread); orphan: a
 *   Node (val 99) nothing refers to.
 *   roots: JNI_GLOBAL n1, STACK_LOCAL n2 (depth 1, location 5, slot 3),
 *   JNI_LOCAL arr (depth 0), THREAD thr, SYSTEM_CLASS each of the 6 classes. */
static vobj g[16];
enum { C_CLASS, C_OBJECT, C_NODE, C_INTARR, C_STRING, C_OBJARR, N1, N2, N3, ARR, STR, OBJARR, THR,
       ORPHAN, G_COUNT };
static jint arr_ints[3] = {1, 2, 3};
static const jchar hi[2] = {'h', 'i'};
static vobj *objarr_elems[2];
static vobj *graph_list[G_COUNT];

static void make_graph(void)
{
    memset(g, 0, sizeof g);
    for (int i = 0; i < G_COUNT; i++) {
        g[i].length = -1;
        g[i].size = 16 + 8 * i; /* distinct sizes: the test tells objects by size */
        graph_list[i] = &g[i];
    }
    for (int c = C_CLASS; c <= C_OBJARR; c++) {
        g[c].klass = &g[C_CLASS];
        if (c != C_CLASS && c != C_OBJECT)
            g[c].super = &g[C_OBJECT];
    }
    g[C_NODE].has_val = 1;
    g[C_NODE].val = 7;
    vobj *n1 = &g[N1], *n2 = &g[N2], *n3 = &g[N3];
    n1->klass = n2->klass = n3->klass = g[ORPHAN].klass = &g[C_NODE];
    n1->has_val = n2->has_val = n3->has_val = g[ORPHAN].has_val = 1;
    n1->val = 10, n2->val = 20, n3->val = 30, g[ORPHAN].val = 99;
    n1->refs[0] = n2, n2->refs[0] = n3, n3->refs[0] = n1;
    n1->refs[1] = &g[ARR], n2->refs[1] = &g[STR], n3->refs[1] = &g[OBJARR];
    g[ARR].klass = &g[C_INTARR];
    g[ARR].ints = arr_ints;
    g[ARR].length = 3;
    g[STR].klass = &g[C_STRING];
    g[STR].chars = hi;
    g[STR].nchars = 2;
    g[OBJARR].klass = &g[C_OBJARR];
    objarr_elems[0] = &g[STR];
    objarr_elems[1] = n3;
    g[OBJARR].elems = objarr_elems;
    g[OBJARR].length = 2;
    g[THR].klass = &g[C_OBJECT];
    thr = &g[THR];
    heap_objs = graph_list;
    heap_n = G_COUNT;
    n_roots = 0;
    roots[n_roots++] = (vroot){JVMTI_HEAP_REFERENCE_JNI_GLOBAL, n1, 0, 0, 0};
    roots[n_roots++] = (vroot){JVMTI_HEAP_REFERENCE_STACK_LOCAL, n2, 1, 3, 5};
    roots[n_roots++] = (vroot){JVMTI_HEAP_REFERENCE_JNI_LOCAL, &g[ARR], 0, 0, 0};
    roots[n_roots++] = (vroot){JVMTI_HEAP_REFERENCE_THREAD, thr, 0, 0, 0};
    for (int c = C_CLASS; c <= C_OBJARR; c++)
        roots[n_roots++] = (vroot){JVMTI_HEAP_REFERENCE_SYSTEM_CLASS, &g[c], 0, 0, 0};
}

/* ---- the core ---- */

static char main_thread_obj;

static void core_up(jvmtirt_config *cfg, int with_heap)
{
    cfg->potential.can_tag_objects = 1;
    if (with_heap) {
        cfg->heap_pause = vm_pause;
        cfg->heap_roots = vm_roots;
        cfg->heap_references = vm_references;
        cfg->heap_objects = vm_objects;
        cfg->heap_object_info = vm_info;
        cfg->heap_primitive_fields = vm_fields;
    }
    if (jvmtirt_init(cfg) != JVMTI_ERROR_NONE)
        check(0, "jvmtirt_init");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start((uintptr_t)&main_thread_obj, JVMTIRT_JAVA_THREAD);
}

static void core_down(void)
{
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

static jvmtiEnv *tagging_env(void)
{
    void *p = NULL;
    if (jvmtirt_get_env(&p, JVMTI_VERSION) != JNI_OK || !p) {
        check(0, "jvmtirt_get_env gives an environment");
        exit(1);
    }
    jvmtiEnv *e = p;
    jvmtiCapabilities c = {0};
    c.can_tag_objects = 1;
    if ((*e)->AddCapabilities(e, &c) != JVMTI_ERROR_NONE)
        check(0, "AddCapabilities(can_tag_objects)");
    return e;
}

/* ---- what the callbacks saw ---- */

typedef struct seen {
    long refs, by_kind[32], roots_null_referrer, self_shared, primitive_fields, statics;
    long arrays, strings, objects, abort_after, visit; /* visit: the answer to give */
    long stack_ok, thread_tag_ok, field_index_ok, array_index_ok, arr_length, chars_ok;
    long sizes_sum, tag_set_by_size, untag_value, referrer_from, referrer_to;
    long root_kinds[8], stack_slots_sum, old_kinds[10];
    long calls;
} seen;

static jint JNICALL ref_cb(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
                           jlong class_tag, jlong referrer_class_tag, jlong size, jlong *tag_ptr,
                           jlong *referrer_tag_ptr, jint length, void *user_data)
{
    (void)class_tag, (void)referrer_class_tag;
    seen *s = user_data;
    s->refs++;
    s->by_kind[kind & 31]++;
    s->sizes_sum += size;
    if (kind >= JVMTI_HEAP_REFERENCE_JNI_GLOBAL && referrer_tag_ptr == NULL)
        s->roots_null_referrer++;
    if (referrer_tag_ptr && referrer_tag_ptr == tag_ptr)
        s->self_shared++;
    if (kind == JVMTI_HEAP_REFERENCE_STACK_LOCAL && info && info->stack_local.depth == 1 &&
        info->stack_local.slot == 3 && info->stack_local.location == 5 &&
        info->stack_local.method == METHOD && info->stack_local.thread_id == 1)
        s->stack_ok++;
    if ((kind == JVMTI_HEAP_REFERENCE_STACK_LOCAL || kind == JVMTI_HEAP_REFERENCE_JNI_LOCAL) &&
        info && info->stack_local.thread_tag == 42)
        s->thread_tag_ok++;
    if (kind == JVMTI_HEAP_REFERENCE_FIELD && info && (info->field.index == 0 || info->field.index == 1))
        s->field_index_ok++;
    if (kind == JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT && info)
        s->array_index_ok += info->array.index + 1; /* 1 + 2 for indices 0 and 1 */
    if (length == 3)
        s->arr_length++;
    if (s->tag_set_by_size)
        *tag_ptr = size;
    if (s->untag_value && *tag_ptr == s->untag_value)
        *tag_ptr = 0;
    if (s->referrer_from && referrer_tag_ptr && *referrer_tag_ptr == s->referrer_from)
        *referrer_tag_ptr = s->referrer_to;
    if (s->abort_after && s->refs >= s->abort_after)
        return JVMTI_VISIT_ABORT;
    return (jint)s->visit;
}

static jint JNICALL field_cb(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
                             jlong object_class_tag, jlong *object_tag_ptr, jvalue value,
                             jvmtiPrimitiveType value_type, void *user_data)
{
    (void)object_class_tag, (void)object_tag_ptr;
    seen *s = user_data;
    s->primitive_fields++;
    if (kind == JVMTI_HEAP_REFERENCE_STATIC_FIELD && info->field.index == 0 && value.i == 7 &&
        value_type == JVMTI_PRIMITIVE_TYPE_INT)
        s->statics++;
    return 0;
}

static jint JNICALL array_cb(jlong class_tag, jlong size, jlong *tag_ptr, jint element_count,
                             jvmtiPrimitiveType element_type, const void *elements, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr;
    seen *s = user_data;
    const jint *v = elements;
    if (element_count == 3 && element_type == JVMTI_PRIMITIVE_TYPE_INT && v[0] == 1 && v[2] == 3)
        s->arrays++;
    else
        s->arrays += 100;
    return 0;
}

static jint JNICALL string_cb(jlong class_tag, jlong size, jlong *tag_ptr, const jchar *value,
                              jint value_length, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr;
    seen *s = user_data;
    s->strings++;
    if (value_length == 2 && value[0] == 'h' && value[1] == 'i')
        s->chars_ok++;
    return 0;
}

static jint JNICALL iter_cb(jlong class_tag, jlong size, jlong *tag_ptr, jint length, void *user_data)
{
    (void)class_tag, (void)length;
    seen *s = user_data;
    s->objects++;
    s->sizes_sum += size;
    if (s->tag_set_by_size)
        *tag_ptr = size;
    if (s->abort_after && s->objects >= s->abort_after)
        return JVMTI_VISIT_ABORT;
    return 0;
}

static jvmtiHeapCallbacks all_callbacks(void)
{
    jvmtiHeapCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.heap_reference_callback = ref_cb;
    cb.primitive_field_callback = field_cb;
    cb.array_primitive_value_callback = array_cb;
    cb.string_primitive_value_callback = string_cb;
    cb.heap_iteration_callback = iter_cb;
    return cb;
}

static seen follow(jvmtiEnv *e, jint filter, jclass klass, jobject initial, long visit)
{
    seen s;
    memset(&s, 0, sizeof s);
    s.visit = visit;
    jvmtiHeapCallbacks cb = all_callbacks();
    jvmtiError err = (*e)->FollowReferences(e, filter, klass, initial, &cb, &s);
    if (err)
        check(0, "FollowReferences answers %d", err);
    return s;
}

static jlong tag_of(jvmtiEnv *e, int i)
{
    jlong t = -1;
    (*e)->GetTag(e, REF(&g[i]), &t);
    return t;
}

/* ---- FollowReferences ---- */

static void section_follow(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg, 1);
    make_graph();
    jvmtiEnv *e = tagging_env();
    (*e)->SetTag(e, REF(thr), 42);

    seen s = follow(e, 0, NULL, NULL, JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.refs, 35, "FollowReferences from the roots: 10 roots and 25 references reported");
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_CLASS], 13, "... CLASS: one per visited object (13)");
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_FIELD], 6, "... FIELD: next and data of n1, n2, n3");
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT], 2, "... ARRAY_ELEMENT: objarr's two");
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_SUPERCLASS], 4, "... SUPERCLASS: 4 classes below Object");
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_SYSTEM_CLASS], 6, "... SYSTEM_CLASS roots: 6");
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_JNI_GLOBAL] + s.by_kind[JVMTI_HEAP_REFERENCE_JNI_LOCAL] +
                 s.by_kind[JVMTI_HEAP_REFERENCE_STACK_LOCAL] + s.by_kind[JVMTI_HEAP_REFERENCE_THREAD],
             4, "... JNI_GLOBAL, JNI_LOCAL, STACK_LOCAL, THREAD roots: one each");
    CHECK_EQ(s.roots_null_referrer, 10, "... a root's referrer_tag_ptr is NULL");
    CHECK_EQ(s.self_shared, 1, "... C_Class's reference to itself gets tag_ptr == referrer_tag_ptr");
    CHECK_EQ(s.stack_ok, 1, "... STACK_LOCAL's info: thread_id, depth, method, location, slot");
    CHECK_EQ(s.thread_tag_ok, 2, "... STACK_LOCAL and JNI_LOCAL carry the thread's tag (42)");
    CHECK_EQ(s.field_index_ok, 6, "... FIELD references carry their field index");
    CHECK_EQ(s.array_index_ok, 3, "... ARRAY_ELEMENT references carry indices 0 and 1");
    CHECK_EQ(s.arr_length, 2, "... the int[3] is reported with length 3 (twice: root and field)");
    CHECK_EQ(s.primitive_fields, 4, "... primitive fields: n1..n3's val and C_Node's static");
    CHECK_EQ(s.statics, 1, "... C_Node's static is STATIC_FIELD index 0, int 7");
    CHECK_EQ(s.arrays, 1, "... the int[] {1,2,3} once, to the array primitive callback");
    CHECK_EQ(s.strings, 1, "... the String once, to the string callback");
    CHECK_EQ(s.chars_ok, 1, "... with its value \"hi\"");
    CHECK_EQ(__atomic_load_n(&pauses, __ATOMIC_RELAXED), 0, "... heap_pause(1) and (0) paired");

    s = follow(e, 0, NULL, NULL, 0);
    CHECK_EQ(s.refs, 10, "without JVMTI_VISIT_OBJECTS only the 10 roots are reported");
    CHECK_EQ(s.primitive_fields + s.arrays + s.strings, 0, "... and no object is visited");

    memset(&s, 0, sizeof s);
    s.visit = JVMTI_VISIT_OBJECTS;
    s.abort_after = 3;
    jvmtiHeapCallbacks cb = all_callbacks();
    (*e)->FollowReferences(e, 0, NULL, NULL, &cb, &s);
    CHECK_EQ(s.refs, 3, "JVMTI_VISIT_ABORT stops the walk at once");

    s = follow(e, 0, NULL, REF(&g[N3]), JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.refs, 24, "initial_object n3: no roots, every reference of what n3 reaches (not thr's)");
    CHECK_EQ(s.roots_null_referrer, 0, "... no root reported");

    /* heap filters: they choose what is reported, never what is visited */
    (*e)->SetTag(e, REF(&g[N2]), 5);
    s = follow(e, JVMTI_HEAP_FILTER_TAGGED, NULL, NULL, JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.refs, 32, "HEAP_FILTER_TAGGED: the references to tagged n2 (2) and thr (1) left "
                         "out; n2 still visited (n3 is reached only through it)");
    s = follow(e, JVMTI_HEAP_FILTER_UNTAGGED, NULL, NULL, JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.refs, 3, "HEAP_FILTER_UNTAGGED: only references to tagged n2 (2) and thr (1)");
    CHECK_EQ(s.primitive_fields, 1, "... and only tagged n2's primitive field");
    (*e)->SetTag(e, REF(&g[N2]), 0);
    (*e)->SetTag(e, REF(thr), 0);
    (*e)->SetTag(e, REF(&g[C_NODE]), 9);
    s = follow(e, JVMTI_HEAP_FILTER_CLASS_TAGGED, NULL, NULL, JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.refs, 29, "HEAP_FILTER_CLASS_TAGGED: the 6 references to Nodes left out");
    CHECK_EQ(s.primitive_fields, 1, "... and the Nodes' primitive fields (C_Node's static stays)");
    CHECK_EQ(s.arrays + s.strings, 2, "... the array and the string are still reached and reported");
    s = follow(e, JVMTI_HEAP_FILTER_CLASS_UNTAGGED, NULL, NULL, JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.refs, 6, "HEAP_FILTER_CLASS_UNTAGGED: only the 6 references to Nodes");
    CHECK_EQ(s.primitive_fields, 3, "... and the Nodes' 3 int fields");
    (*e)->SetTag(e, REF(&g[C_NODE]), 0);
    s = follow(e, 0, (jclass)REF(&g[C_INTARR]), NULL, JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.refs, 2, "klass int[]: only the 2 references to the int[] (JNI_LOCAL, n1.data)");
    CHECK_EQ(s.arrays, 1, "... its elements reported");
    CHECK_EQ(s.strings + s.primitive_fields, 0, "... nothing of other classes");
    s = follow(e, 0, (jclass)REF(&g[C_OBJECT]), NULL, JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.refs, 1, "klass Object: only the exact instance thr (not subclasses)");

    /* tags written back */
    s = follow(e, 0, NULL, NULL, 0);
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_VISIT_OBJECTS;
    s.tag_set_by_size = 1;
    cb = all_callbacks();
    (*e)->FollowReferences(e, 0, NULL, NULL, &cb, &s);
    int all = 1;
    for (int i = 0; i < G_COUNT; i++)
        if (i != ORPHAN && tag_of(e, i) != g[i].size)
            all = 0;
    check(all, "tags set through tag_ptr are written back to the tag map (every reached object)");
    CHECK_EQ(tag_of(e, ORPHAN), 0, "... the unreachable orphan stays untagged");
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_VISIT_OBJECTS;
    s.untag_value = g[N3].size;
    (*e)->FollowReferences(e, 0, NULL, NULL, &cb, &s);
    CHECK_EQ(tag_of(e, N3), 0, "setting *tag_ptr to 0 untags the object");
    jint count = -1;
    jlong want = g[N3].size;
    (*e)->GetObjectsWithTags(e, 1, &want, &count, NULL, NULL);
    CHECK_EQ(count, 0, "... GetObjectsWithTags no longer finds it");
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_VISIT_OBJECTS;
    s.referrer_from = g[N1].size;
    s.referrer_to = 777;
    (*e)->FollowReferences(e, 0, NULL, NULL, &cb, &s);
    CHECK_EQ(tag_of(e, N1), 777, "a tag set through referrer_tag_ptr is written back");
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_VISIT_OBJECTS;
    s.referrer_from = g[C_CLASS].size;
    s.referrer_to = 4242;
    (*e)->FollowReferences(e, 0, NULL, NULL, &cb, &s);
    CHECK_EQ(tag_of(e, C_CLASS), 4242, "... also for the self-reference (one tag, shared)");

    /* errors */
    CHECK_EQ((*e)->FollowReferences(e, 0, NULL, NULL, NULL, NULL), JVMTI_ERROR_NULL_POINTER,
             "FollowReferences with NULL callbacks: NULL_POINTER");
    core_down();
}

/* ---- IterateThroughHeap ---- */

static void section_through(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg, 1);
    make_graph();
    jvmtiEnv *e = tagging_env();
    jvmtiHeapCallbacks cb = all_callbacks();
    seen s;
    memset(&s, 0, sizeof s);
    CHECK_EQ((*e)->IterateThroughHeap(e, 0, NULL, &cb, &s), JVMTI_ERROR_NONE, "IterateThroughHeap");
    CHECK_EQ(s.objects, 14, "... every object once, the unreachable one too (14)");
    CHECK_EQ(s.refs, 0, "... heap_reference_callback is not used");
    CHECK_EQ(s.primitive_fields, 5, "... primitive fields: 4 Nodes' val and C_Node's static");
    CHECK_EQ(s.arrays, 1, "... the int[]'s elements");
    CHECK_EQ(s.strings, 1, "... the String's value");
    memset(&s, 0, sizeof s);
    (*e)->IterateThroughHeap(e, 0, (jclass)REF(&g[C_NODE]), &cb, &s);
    CHECK_EQ(s.objects, 4, "klass C_Node: its 4 instances");
    (*e)->SetTag(e, REF(&g[N2]), 5);
    memset(&s, 0, sizeof s);
    (*e)->IterateThroughHeap(e, JVMTI_HEAP_FILTER_UNTAGGED, NULL, &cb, &s);
    CHECK_EQ(s.objects, 1, "HEAP_FILTER_UNTAGGED: the one tagged object");
    CHECK_EQ(s.primitive_fields, 1, "... and its int field");
    memset(&s, 0, sizeof s);
    (*e)->IterateThroughHeap(e, JVMTI_HEAP_FILTER_TAGGED, NULL, &cb, &s);
    CHECK_EQ(s.objects, 13, "HEAP_FILTER_TAGGED: the 13 untagged objects");
    memset(&s, 0, sizeof s);
    s.abort_after = 4;
    (*e)->IterateThroughHeap(e, 0, NULL, &cb, &s);
    CHECK_EQ(s.objects, 4, "JVMTI_VISIT_ABORT stops the iteration");
    memset(&s, 0, sizeof s);
    s.tag_set_by_size = 1;
    (*e)->IterateThroughHeap(e, 0, NULL, &cb, &s);
    CHECK_EQ(tag_of(e, ORPHAN), g[ORPHAN].size, "tags set in the iteration callback are written back");
    core_down();
}

/* ---- the 1.0 functions ---- */

static jvmtiIterationControl JNICALL old_root(jvmtiHeapRootKind root_kind, jlong class_tag,
                                              jlong size, jlong *tag_ptr, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr;
    seen *s = user_data;
    s->root_kinds[root_kind & 7]++;
    s->calls++;
    return (jvmtiIterationControl)s->visit;
}

static jvmtiIterationControl JNICALL old_stack(jvmtiHeapRootKind root_kind, jlong class_tag,
                                               jlong size, jlong *tag_ptr, jlong thread_tag,
                                               jint depth, jmethodID method, jint slot,
                                               void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr, (void)depth;
    seen *s = user_data;
    s->root_kinds[root_kind & 7]++;
    s->stack_slots_sum += slot;
    if (thread_tag == 42 && method == METHOD)
        s->thread_tag_ok++;
    s->calls++;
    return (jvmtiIterationControl)s->visit;
}

static jvmtiIterationControl JNICALL old_ref(jvmtiObjectReferenceKind kind, jlong class_tag,
                                             jlong size, jlong *tag_ptr, jlong referrer_tag,
                                             jint referrer_index, void *user_data)
{
    (void)class_tag, (void)size, (void)referrer_tag;
    seen *s = user_data;
    s->old_kinds[kind < 10 ? kind : 0]++;
    if (kind == JVMTI_REFERENCE_ARRAY_ELEMENT)
        s->array_index_ok += referrer_index + 1;
    if (s->tag_set_by_size)
        *tag_ptr = size;
    s->calls++;
    if (s->abort_after && s->calls >= s->abort_after)
        return JVMTI_ITERATION_ABORT;
    return (jvmtiIterationControl)s->visit;
}

static jvmtiIterationControl JNICALL old_obj(jlong class_tag, jlong size, jlong *tag_ptr,
                                             void *user_data)
{
    (void)class_tag;
    seen *s = user_data;
    s->objects++;
    if (s->tag_set_by_size)
        *tag_ptr = size;
    if (s->abort_after && s->objects >= s->abort_after)
        return JVMTI_ITERATION_ABORT;
    return JVMTI_ITERATION_CONTINUE;
}

static void section_old(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg, 1);
    make_graph();
    jvmtiEnv *e = tagging_env();
    (*e)->SetTag(e, REF(thr), 42);
    seen s;
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_ITERATION_CONTINUE;
    CHECK_EQ((*e)->IterateOverReachableObjects(e, old_root, old_stack, old_ref, &s),
             JVMTI_ERROR_NONE, "IterateOverReachableObjects");
    CHECK_EQ(s.root_kinds[JVMTI_HEAP_ROOT_JNI_GLOBAL], 1, "... JNI_GLOBAL root");
    CHECK_EQ(s.root_kinds[JVMTI_HEAP_ROOT_SYSTEM_CLASS], 6, "... SYSTEM_CLASS roots");
    CHECK_EQ(s.root_kinds[JVMTI_HEAP_ROOT_THREAD], 1, "... THREAD root");
    CHECK_EQ(s.root_kinds[JVMTI_HEAP_ROOT_STACK_LOCAL], 1, "... STACK_LOCAL to the stack callback");
    CHECK_EQ(s.root_kinds[JVMTI_HEAP_ROOT_JNI_LOCAL], 1, "... JNI_LOCAL to the stack callback");
    CHECK_EQ(s.stack_slots_sum, 3 + -1, "... slot 3 for the local, -1 for the JNI local");
    CHECK_EQ(s.thread_tag_ok, 2, "... with the thread's tag and the method");
    CHECK_EQ(s.old_kinds[JVMTI_REFERENCE_CLASS], 17, "... CLASS references: 13, and 4 superclasses as CLASS");
    CHECK_EQ(s.old_kinds[JVMTI_REFERENCE_FIELD], 6, "... FIELD references");
    CHECK_EQ(s.old_kinds[JVMTI_REFERENCE_ARRAY_ELEMENT], 2, "... ARRAY_ELEMENT references");
    CHECK_EQ(s.array_index_ok, 3, "... with referrer_index 0 and 1");
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_ITERATION_IGNORE;
    (*e)->IterateOverReachableObjects(e, old_root, old_stack, old_ref, &s);
    CHECK_EQ(s.calls, 10, "JVMTI_ITERATION_IGNORE on the roots: their objects are not followed");
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_ITERATION_CONTINUE;
    (*e)->IterateOverReachableObjects(e, NULL, NULL, old_ref, &s);
    CHECK_EQ(s.calls, 25, "NULL root callbacks: roots still followed (25 references)");
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_ITERATION_CONTINUE;
    s.abort_after = 12;
    (*e)->IterateOverReachableObjects(e, old_root, old_stack, old_ref, &s);
    CHECK_EQ(s.calls, 12, "JVMTI_ITERATION_ABORT stops the walk");

    memset(&s, 0, sizeof s);
    s.visit = JVMTI_ITERATION_CONTINUE;
    CHECK_EQ((*e)->IterateOverObjectsReachableFromObject(e, REF(&g[N3]), old_ref, &s),
             JVMTI_ERROR_NONE, "IterateOverObjectsReachableFromObject(n3)");
    CHECK_EQ(s.calls, 24, "... the 24 references of what n3 reaches");
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_ITERATION_CONTINUE;
    s.tag_set_by_size = 1;
    (*e)->IterateOverObjectsReachableFromObject(e, REF(&g[N3]), old_ref, &s);
    CHECK_EQ(tag_of(e, N2), g[N2].size, "... tags set through tag_ptr written back");
    CHECK_EQ(tag_of(e, C_CLASS), g[C_CLASS].size, "... the self-reference's too");

    make_graph();
    core_down();
    core_up(&cfg, 1);
    e = tagging_env();
    memset(&s, 0, sizeof s);
    CHECK_EQ((*e)->IterateOverHeap(e, JVMTI_HEAP_OBJECT_EITHER, old_obj, &s), JVMTI_ERROR_NONE,
             "IterateOverHeap(EITHER)");
    CHECK_EQ(s.objects, 14, "... every object");
    (*e)->SetTag(e, REF(&g[N2]), 5);
    memset(&s, 0, sizeof s);
    (*e)->IterateOverHeap(e, JVMTI_HEAP_OBJECT_TAGGED, old_obj, &s);
    CHECK_EQ(s.objects, 1, "IterateOverHeap(TAGGED): the tagged one");
    memset(&s, 0, sizeof s);
    s.tag_set_by_size = 1;
    (*e)->IterateOverHeap(e, JVMTI_HEAP_OBJECT_UNTAGGED, old_obj, &s);
    CHECK_EQ(s.objects, 13, "IterateOverHeap(UNTAGGED): the 13 others");
    CHECK_EQ(tag_of(e, ORPHAN), g[ORPHAN].size, "... tags written back");
    memset(&s, 0, sizeof s);
    s.abort_after = 2;
    (*e)->IterateOverHeap(e, JVMTI_HEAP_OBJECT_EITHER, old_obj, &s);
    CHECK_EQ(s.objects, 2, "JVMTI_ITERATION_ABORT stops IterateOverHeap");
    CHECK_EQ((*e)->IterateOverHeap(e, (jvmtiHeapObjectFilter)7, old_obj, &s),
             JVMTI_ERROR_ILLEGAL_ARGUMENT, "IterateOverHeap with filter 7: ILLEGAL_ARGUMENT");
    memset(&s, 0, sizeof s);
    (*e)->IterateOverInstancesOfClass(e, (jclass)REF(&g[C_OBJECT]), JVMTI_HEAP_OBJECT_EITHER,
                                      old_obj, &s);
    CHECK_EQ(s.objects, 8, "IterateOverInstancesOfClass(Object): thr and the 7 instances of subclasses");
    memset(&s, 0, sizeof s);
    (*e)->IterateOverInstancesOfClass(e, (jclass)REF(&g[C_NODE]), JVMTI_HEAP_OBJECT_EITHER,
                                      old_obj, &s);
    CHECK_EQ(s.objects, 4, "IterateOverInstancesOfClass(C_Node): its 4 instances");
    memset(&s, 0, sizeof s);
    (*e)->IterateOverInstancesOfClass(e, (jclass)REF(&g[C_NODE]), JVMTI_HEAP_OBJECT_UNTAGGED,
                                      old_obj, &s);
    CHECK_EQ(s.objects, 0, "... UNTAGGED: none (all were tagged above)");
    core_down();
}

/* ---- a chain of a million objects: no recursion ---- */

static void section_chain(void)
{
    const size_t n = 1000000;
    vobj *chain = calloc(n + 1, sizeof *chain);
    vobj **list = malloc((n + 1) * sizeof *list);
    if (!chain || !list) {
        check(0, "chain: out of memory");
        free(chain);
        free(list);
        return;
    }
    vobj *cls = &chain[n]; /* its own class, like C_Class */
    cls->klass = cls;
    cls->length = -1;
    for (size_t i = 0; i < n; i++) {
        chain[i].klass = cls;
        chain[i].refs[0] = i + 1 < n ? &chain[i + 1] : NULL;
        chain[i].length = -1;
        chain[i].size = 24;
        list[i] = &chain[i];
    }
    list[n] = cls;
    heap_objs = list;
    heap_n = n + 1;
    n_roots = 1;
    roots[0] = (vroot){JVMTI_HEAP_REFERENCE_JNI_GLOBAL, &chain[0], 0, 0, 0};
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg, 1);
    jvmtiEnv *e = tagging_env();
    seen s = follow(e, 0, NULL, NULL, JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_FIELD], (long)n - 1,
             "a linked list of 10^6 objects: every next reference reported");
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_CLASS], (long)n + 1, "... every object visited once");
    memset(&s, 0, sizeof s);
    s.visit = JVMTI_ITERATION_CONTINUE;
    (*e)->IterateOverObjectsReachableFromObject(e, REF(&chain[0]), old_ref, &s);
    CHECK_EQ(s.old_kinds[JVMTI_REFERENCE_FIELD], (long)n - 1, "... also by IterateOverObjectsReachableFromObject");
    jvmtiHeapCallbacks cb = all_callbacks();
    memset(&s, 0, sizeof s);
    (*e)->IterateThroughHeap(e, 0, NULL, &cb, &s);
    CHECK_EQ(s.objects, (long)n + 1, "... and IterateThroughHeap sees them all");
    core_down();
    free(chain);
    free(list);
}

/* ---- the visited set under identities of falling alignment ----
 * A chain whose first half has identities 16 bytes apart and whose second
 * half has odd ones in the same 16-byte steps (so each shares a block of
 * the set with one of the first half): the set starts with a shift of 4
 * and is rebuilt with 0 when the first odd identity comes. Each object
 * also refers back to the one at half its index, so an identity lost by the
 * rebuild would be visited again (more CLASS references than objects). */
static void section_packed(void)
{
    const size_t half = 100000, n = 2 * half;
    vobj *chain = calloc(n + 1, sizeof *chain);
    vobj **list = malloc((n + 1) * sizeof *list);
    if (!chain || !list) {
        check(0, "packed: out of memory");
        free(chain);
        free(list);
        return;
    }
    vobj *cls = &chain[n];
    cls->klass = cls;
    cls->length = -1;
    for (size_t i = 0; i < n; i++) {
        chain[i].klass = cls;
        chain[i].refs[0] = i + 1 < n ? &chain[i + 1] : NULL;
        chain[i].refs[1] = &chain[i / 2];
        chain[i].length = -1;
        list[i] = &chain[i];
    }
    list[n] = cls;
    packed = chain;
    packed_half = half;
    heap_objs = list;
    heap_n = n + 1;
    n_roots = 1;
    roots[0] = (vroot){JVMTI_HEAP_REFERENCE_JNI_GLOBAL, &chain[0], 0, 0, 0};
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg, 1);
    jvmtiEnv *e = tagging_env();
    seen s = follow(e, 0, NULL, NULL, JVMTI_VISIT_OBJECTS);
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_CLASS], (long)n + 1,
             "identities 16 apart, then odd ones among them: every object visited once");
    CHECK_EQ(s.by_kind[JVMTI_HEAP_REFERENCE_FIELD], 2 * (long)n - 1,
             "... every next and back reference reported once");
    core_down();
    packed = NULL;
    free(chain);
    free(list);
}

/* ---- a VM without the enumerations, or built before them ---- */

static void section_missing(void)
{
    make_graph();
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg, 0);
    jvmtiEnv *e = tagging_env();
    jvmtiHeapCallbacks cb = all_callbacks();
    CHECK_EQ((*e)->FollowReferences(e, 0, NULL, NULL, &cb, NULL), JVMTI_ERROR_NOT_AVAILABLE,
             "no heap enumerations: FollowReferences answers NOT_AVAILABLE");
    CHECK_EQ((*e)->IterateOverHeap(e, JVMTI_HEAP_OBJECT_EITHER, old_obj, NULL),
             JVMTI_ERROR_NOT_AVAILABLE, "... IterateOverHeap too");
    char buf[8192] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    jvmtirt_report_defaults(f);
    fclose(f);
    check(strstr(buf, " FollowReferences answers") && strstr(buf, " IterateOverInstancesOfClass answers"),
          "... jvmtirt_report_defaults lists the heap walks as not implemented");
    core_down();

    /* A VM compiled against the config before the heap fields: whatever
     * lies past its size is not read. */
    struct {
        jvmtirt_config c;
    } old;
    memset(&old, 0xff, sizeof old);
    jvmtirt_config base = JVMTIRT_CONFIG_INIT;
    memcpy(&old.c, &base, offsetof(jvmtirt_config, heap_pause));
    old.c.size = offsetof(jvmtirt_config, heap_pause);
    old.c.potential.can_tag_objects = 1;
    if (jvmtirt_init(&old.c) != JVMTI_ERROR_NONE)
        check(0, "jvmtirt_init with the older config size");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start((uintptr_t)&main_thread_obj, JVMTIRT_JAVA_THREAD);
    e = tagging_env();
    CHECK_EQ((*e)->IterateThroughHeap(e, 0, NULL, &cb, NULL), JVMTI_ERROR_NOT_AVAILABLE,
             "a VM built against the older config: the heap fields past its size are not read");
    core_down();
}

/* ---- an environment disposed between the trampoline's check and the walk ----
 * Another thread's DisposeEnvironment, and the grace period after it, can
 * fall between the trampoline's check of the environment and the walk's
 * cursor. The VM's check_class runs in that window, so disposing there
 * makes the interleaving certain: the walk must answer INVALID_ENVIRONMENT
 * and touch nothing (before the fix it walked the freed slot, called back
 * and wrote tags back into it). */

static jvmtiEnv *window_env;

static jvmtiError dispose_in_window(jvmtiEnv *env, jclass klass, int of_member)
{
    (void)klass, (void)of_member;
    if (env == window_env) {
        window_env = NULL;
        (*env)->DisposeEnvironment(env);
    }
    return JVMTI_ERROR_NONE;
}

static void section_window(void)
{
    make_graph();
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    cfg.check_class = dispose_in_window;
    core_up(&cfg, 1);
    jvmtiHeapCallbacks cb = all_callbacks();
    for (int fn = 0; fn < 2; fn++) {
        jvmtiEnv *e = window_env = tagging_env();
        seen s;
        memset(&s, 0, sizeof s);
        s.visit = JVMTI_VISIT_OBJECTS;
        s.tag_set_by_size = 1;
        jvmtiError err =
            fn == 0 ? (*e)->FollowReferences(e, 0, (jclass)REF(&g[C_OBJECT]), NULL, &cb, &s)
                    : (*e)->IterateThroughHeap(e, 0, (jclass)REF(&g[C_OBJECT]), &cb, &s);
        jvmtirt_stats st;
        jvmtirt_get_stats(&st);
        CHECK_EQ(st.pending_disposal, 0, "window: %s's environment was freed in the window",
                 fn ? "IterateThroughHeap" : "FollowReferences");
        CHECK_EQ(err, JVMTI_ERROR_INVALID_ENVIRONMENT, "... and the walk answers INVALID_ENVIRONMENT");
        CHECK_EQ(s.refs + s.objects + s.calls + s.primitive_fields + s.arrays + s.strings, 0,
                 "... without a callback");
    }
    CHECK_EQ(__atomic_load_n(&pauses, __ATOMIC_RELAXED), 0, "window: heap_pause balanced");
    core_down();
}

/* ---- walks concurrent with SetTag and DisposeEnvironment ---- */

static double stress_seconds = 0.5;
static int stop_flag; /* atomic */
static jvmtiEnv *shared_env;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char stress_thread_obj[4];

static void *tagger(void *arg)
{
    jvmtirt_thread_start((uintptr_t)arg, JVMTIRT_JAVA_THREAD);
    long n = 0;
    while (!__atomic_load_n(&stop_flag, __ATOMIC_ACQUIRE)) {
        int i = (int)(n++ % G_COUNT);
        jlong t;
        (*shared_env)->SetTag(shared_env, REF(&g[i]), n % 3 == 0 ? 0 : n);
        (*shared_env)->GetTag(shared_env, REF(&g[i]), &t);
    }
    jvmtirt_thread_end();
    return NULL;
}

static void *walker(void *arg)
{
    jvmtirt_thread_start((uintptr_t)arg, JVMTIRT_JAVA_THREAD);
    jvmtiHeapCallbacks cb = all_callbacks();
    while (!__atomic_load_n(&stop_flag, __ATOMIC_ACQUIRE)) {
        seen s;
        memset(&s, 0, sizeof s);
        s.visit = JVMTI_VISIT_OBJECTS;
        s.tag_set_by_size = 1;
        (*shared_env)->FollowReferences(shared_env, 0, NULL, NULL, &cb, &s);
        memset(&s, 0, sizeof s);
        (*shared_env)->IterateThroughHeap(shared_env, 0, NULL, &cb, &s);
    }
    jvmtirt_thread_end();
    return NULL;
}

typedef struct dispose_arg {
    jvmtiEnv *env;
    long walks, after_dispose_errors;
    uintptr_t id;
} dispose_arg;

static void *disposable_walker(void *p)
{
    dispose_arg *a = p;
    jvmtirt_thread_start(a->id, JVMTIRT_JAVA_THREAD);
    jvmtiHeapCallbacks cb = all_callbacks();
    for (;;) {
        seen s;
        memset(&s, 0, sizeof s);
        s.visit = JVMTI_VISIT_OBJECTS;
        s.tag_set_by_size = 1;
        jvmtiError err = (*a->env)->FollowReferences(a->env, 0, NULL, NULL, &cb, &s);
        if (err == JVMTI_ERROR_INVALID_ENVIRONMENT)
            break;
        a->walks++;
    }
    jvmtirt_thread_end();
    return NULL;
}

static void section_stress(void)
{
    make_graph();
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg, 1);
    shared_env = tagging_env();
    pthread_t t[2];
    __atomic_store_n(&stop_flag, 0, __ATOMIC_RELEASE);
    pthread_create(&t[0], NULL, tagger, &stress_thread_obj[0]);
    pthread_create(&t[1], NULL, walker, &stress_thread_obj[1]);
    double end = now() + stress_seconds;
    long disposed = 0, walks = 0;
    /* meanwhile: environments walked on one thread and disposed on this one */
    while (now() < end) {
        dispose_arg a = {tagging_env(), 0, 0, (uintptr_t)&stress_thread_obj[2]};
        pthread_t w;
        pthread_create(&w, NULL, disposable_walker, &a);
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
        (*a.env)->DisposeEnvironment(a.env);
        pthread_join(w, NULL);
        disposed++;
        walks += a.walks;
    }
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELEASE);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    check(disposed > 0, "stress: walks concurrent with SetTag/GetTag and with DisposeEnvironment "
                        "(%ld environments disposed under %ld walks)",
          disposed, walks);
    CHECK_EQ(__atomic_load_n(&pauses, __ATOMIC_RELAXED), 0, "stress: heap_pause balanced");
    core_down();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        stress_seconds = atof(argv[1]);
    section_follow();
    section_through();
    section_old();
    section_chain();
    section_packed();
    section_missing();
    section_window();
    section_stress();
    return tap_failures != 0;
}
