/* The host's object graph for the core's heap walks (runtime/README.md,
 * "Heap walks"): the enumerations of roots, of an object's references and
 * of all objects, and what the core asks about one object.
 *
 * -heap:N builds, once the VM is live, the same shape a small Java program
 * builds in HotSpot (tests/bench/HeapMain.java):
 *
 *   class HeapRoot { HeapNode[] nodes; int[] ints; String name; int count; }
 *   class HeapNode { HeapNode next; int value; }
 *   root.nodes = N nodes, nodes[i].value = i, nodes[i].next = nodes[i+1];
 *   root.ints = {1, 2, 3}; root.name = "heap"; root.count = N
 *
 * held by a JNI global reference (a JNI_GLOBAL root) and by the main
 * thread's frame (a STACK_LOCAL root, depth 0, slot 0). The other roots:
 * every class (SYSTEM_CLASS), the thread that built the model (THREAD),
 * and each plain object of objects.c that a JNI reference holds
 * (JNI_GLOBAL: the host does not tell local from global). The model lives
 * until the process ends; the collector (objects.c) frees plain objects.
 *
 * Field indices follow the spec's rule: a class's fields are numbered
 * after its superclass's (Object has none), in declaration order. */
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* The model's classes: host_class (HOST_CLASS, so check_class accepts
 * them) and what the walks need. Index 0..3 mirror host_classes[]. */
typedef struct model_class {
    host_class *cls;
    int super;     /* index here, -1: none */
    jint static_int;
    int has_static;
} model_class;

enum { K_OBJECT, K_CLASS, K_STRING, K_THREAD, K_ROOT, K_NODE, K_NODE_ARRAY, K_INT_ARRAY, K_COUNT };

/* As tests/bench/HeapMain.java declares them (javac sets 0x20, super); an
 * array class's modifiers are its element type's access with abstract and
 * final (0x410). */
static host_class own_classes[] = {
    {{HOST_CLASS}, "HeapRoot", "LHeapRoot;", 0x20, "HeapMain.java"},
    {{HOST_CLASS}, "HeapNode", "LHeapNode;", 0x20, "HeapMain.java"},
    {{HOST_CLASS}, "[LHeapNode;", "[LHeapNode;", 0x410, NULL},
    {{HOST_CLASS}, "[I", "[I", 0x411, NULL},
};
static model_class classes[K_COUNT];

/* An instance of the model (HOST_INSTANCE): the fields of every model
 * class in one struct, used as its class says. */
typedef struct host_instance {
    host_object obj;
    int klass;                      /* K_* */
    struct host_instance *ref[3];   /* HeapRoot: nodes, ints, name; HeapNode: next */
    jint value;                     /* HeapRoot.count, HeapNode.value */
    jint length;                    /* arrays */
    struct host_instance **elems;   /* HeapNode[] */
    jint *ints;                     /* int[] */
    jchar *chars;                   /* String */
} host_instance;

static host_instance *model_root;
/* Every instance, side by side in one block (as a VM's allocator puts
 * objects made one after the other): for heap_objects, and so that a walk
 * over 10^6 of them reads memory in order instead of 10^6 scattered
 * calloc'd blocks. */
static host_instance *all;
static size_t n_all;
static host_thread *owner;   /* the thread that built it */

static void classes_init(void)
{
    for (int i = 0; i < 4; i++)
        classes[i] = (model_class){&host_classes[i], i == K_OBJECT ? -1 : K_OBJECT, 0, 0};
    for (int i = 0; i < 4; i++)
        classes[K_ROOT + i] = (model_class){&own_classes[i], K_OBJECT, 0, 0};
    /* HeapRoot and HeapNode to the core's metadata (no members, as the
     * model has no IDs for them); the arrays need none. Only memory can
     * fail, and then they answer CLASS_NOT_PREPARED. */
    for (int i = 0; i < 2; i++)
        (void)host_class_describe_empty(&own_classes[i]);
}

jclass host_heap_find_class(const char *name)
{
    for (int i = 0; name && i < 4; i++)
        if (strcmp(own_classes[i].name, name) == 0)
            return (jclass)&own_classes[i].obj;
    return NULL;
}

jclass host_heap_class_of(jobject obj)
{
    const host_object *o = (const host_object *)obj;
    if (!o || o->kind != HOST_INSTANCE)
        return NULL;
    return (jclass)&classes[((const host_instance *)obj)->klass].cls->obj;
}

static host_instance *instance(int klass)
{
    host_instance *o = &all[n_all++]; /* zeroed by calloc */
    o->obj.kind = HOST_INSTANCE;
    o->klass = klass;
    o->length = -1;
    return o;
}

int host_heap_build(long n, host_thread *builder)
{
    classes_init();
    all = calloc((size_t)n + 8, sizeof *all);
    if (!all)
        return 0;
    owner = builder;
    host_instance *root = instance(K_ROOT), *nodes = instance(K_NODE_ARRAY);
    host_instance *ints = instance(K_INT_ARRAY), *name = instance(K_STRING);
    if (!root || !nodes || !ints || !name)
        return 0;
    nodes->length = (jint)n;
    nodes->elems = calloc((size_t)n + 1, sizeof *nodes->elems);
    ints->length = 3;
    ints->ints = calloc(3, sizeof *ints->ints);
    name->chars = calloc(4, sizeof *name->chars);
    if (!nodes->elems || !ints->ints || !name->chars)
        return 0;
    for (int i = 0; i < 3; i++)
        ints->ints[i] = i + 1;
    memcpy(name->chars, (const jchar[]){'h', 'e', 'a', 'p'}, 4 * sizeof(jchar));
    name->length = -1;
    for (long i = n - 1; i >= 0; i--) {
        host_instance *node = instance(K_NODE);
        if (!node)
            return 0;
        node->value = (jint)i;
        node->ref[0] = i + 1 < n ? nodes->elems[i + 1] : NULL;
        nodes->elems[i] = node;
    }
    root->ref[0] = nodes;
    root->ref[1] = ints;
    root->ref[2] = name;
    root->value = (jint)n;
    model_root = root;
    return 1;
}

/* ---- the core's operations ---- */

/* The K_* of a class object, -1: not a model class. By address (the
 * model's classes are host_classes[0..3] and own_classes[0..3]): a walk
 * asks once per object, for its CLASS reference. */
static int class_index(uintptr_t id)
{
    const uintptr_t size = sizeof(host_class);
    uintptr_t in_host = id - (uintptr_t)host_classes, in_own = id - (uintptr_t)own_classes;
    int i = -1;
    if (in_host < 4 * size && in_host % size == 0)
        i = (int)(in_host / size);
    else if (in_own < 4 * size && in_own % size == 0)
        i = K_ROOT + (int)(in_own / size);
    return i >= 0 && classes[i].cls && (uintptr_t)&classes[i].cls->obj == id ? i : -1;
}

static void heap_pause(int on) { host_heap_hold(on); }

static int root(jvmtirt_heap_ref_fn fn, void *ctx, jvmtiHeapReferenceKind kind, const void *to)
{
    jvmtirt_heap_ref r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.referee = (uintptr_t)to;
    return fn(ctx, &r);
}

typedef struct plain_ctx {
    jvmtirt_heap_ref_fn fn;
    void *ctx;
} plain_ctx;

static int plain_root(void *p, uintptr_t id)
{
    plain_ctx *c = p;
    return root(c->fn, c->ctx, JVMTI_HEAP_REFERENCE_JNI_GLOBAL, (const void *)id);
}

static void heap_roots(jvmtirt_heap_ref_fn fn, void *ctx)
{
    if (model_root) {
        if (root(fn, ctx, JVMTI_HEAP_REFERENCE_JNI_GLOBAL, model_root))
            return;
        jvmtirt_heap_ref r;
        memset(&r, 0, sizeof r);
        r.kind = JVMTI_HEAP_REFERENCE_STACK_LOCAL;
        r.referee = (uintptr_t)model_root;
        r.thread = (uintptr_t)owner;
        r.info.stack_local.thread_id = 1;
        r.info.stack_local.depth = 0;
        r.info.stack_local.slot = 0;
        r.info.stack_local.location = 0;
        if (fn(ctx, &r) || root(fn, ctx, JVMTI_HEAP_REFERENCE_THREAD, owner))
            return;
    }
    for (int i = 0; i < K_COUNT; i++)
        if (classes[i].cls && root(fn, ctx, JVMTI_HEAP_REFERENCE_SYSTEM_CLASS, classes[i].cls))
            return;
    plain_ctx c = {fn, ctx};
    host_plain_each(1, plain_root, &c);
}

/* One reference through r, zeroed once by the caller: only kind, referee
 * and the index change from one to the next (the core reads r only). */
static int ref(jvmtirt_heap_ref_fn fn, void *ctx, jvmtirt_heap_ref *r,
               jvmtiHeapReferenceKind kind, const void *to, jint index)
{
    if (!to)
        return 0;
    r->kind = kind;
    r->referee = (uintptr_t)to;
    r->info.field.index = index;
    return fn(ctx, r);
}

static const host_class *class_of(uintptr_t id)
{
    const host_object *o = (const host_object *)id;
    switch (o->kind) {
    case HOST_INSTANCE: return classes[((const host_instance *)o)->klass].cls;
    case HOST_CLASS: return &host_classes[K_CLASS];
    case HOST_STRING: return &host_classes[K_STRING];
    case HOST_THREAD: return &host_classes[K_THREAD];
    case HOST_OBJECT: return &host_classes[K_OBJECT];
    case HOST_METHOD: case HOST_FIELD: break;
    case HOST_THREAD_GROUP: case HOST_STREAM: break; /* not in the heap model */
    case HOST_MODULE: break;       /* nor are modules (modules.c) */
    }
    return NULL;
}

static void heap_references(uintptr_t id, jvmtirt_heap_ref_fn fn, void *ctx)
{
    jvmtirt_heap_ref r;
    memset(&r, 0, sizeof r);
    if (ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_CLASS, class_of(id), 0))
        return;
    const host_object *o = (const host_object *)id;
    if (o->kind == HOST_CLASS) {
        int k = class_index(id);
        if (k >= 0 && classes[k].super >= 0)
            ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_SUPERCLASS, classes[classes[k].super].cls, 0);
        return;
    }
    if (o->kind != HOST_INSTANCE)
        return;
    const host_instance *in = (const host_instance *)o;
    if (in->klass == K_ROOT) {
        for (int i = 0; i < 3; i++)
            if (ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_FIELD, in->ref[i], i))
                return;
    } else if (in->klass == K_NODE) {
        ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_FIELD, in->ref[0], 0);
    } else if (in->klass == K_NODE_ARRAY) {
        for (jint i = 0; i < in->length; i++)
            if (ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT, in->elems[i], i))
                return;
    }
}

static void heap_objects(jvmtirt_heap_object_fn fn, void *ctx)
{
    for (int i = 0; i < K_COUNT; i++)
        if (classes[i].cls && fn(ctx, (uintptr_t)classes[i].cls))
            return;
    for (size_t i = 0; i < n_all; i++)
        if (fn(ctx, (uintptr_t)&all[i]))
            return;
    if (owner && fn(ctx, (uintptr_t)owner))
        return;
    host_plain_each(0, fn, ctx);
}

static jvmtiError heap_object_info(uintptr_t id, jvmtirt_heap_object *out)
{
    const host_instance *node = (const host_instance *)id;
    if (id && node->obj.kind == HOST_INSTANCE && node->klass == K_NODE) {
        /* most of a model's objects: asked once per reference to one */
        *out = (jvmtirt_heap_object){.klass = (uintptr_t)classes[K_NODE].cls, .size = 24,
                                     .length = -1};
        return JVMTI_ERROR_NONE;
    }
    const host_class *k = id ? class_of(id) : NULL;
    if (!k)
        return JVMTI_ERROR_INVALID_OBJECT;
    memset(out, 0, sizeof *out);
    out->klass = (uintptr_t)k;
    out->length = -1;
    out->size = 16;
    const host_object *o = (const host_object *)id;
    if (o->kind == HOST_CLASS) {
        int c = class_index(id);
        out->size = 96;
        out->superclass = c >= 0 && classes[c].super >= 0 ? (uintptr_t)classes[classes[c].super].cls : 0;
    } else if (o->kind == HOST_INSTANCE) {
        const host_instance *in = (const host_instance *)o;
        switch (in->klass) {
        case K_ROOT: out->size = 32; break;
        case K_NODE: out->size = 24; break;
        case K_NODE_ARRAY: out->length = in->length; out->size = 16 + 8 * (jlong)in->length; break;
        case K_INT_ARRAY:
            out->length = in->length;
            out->size = 16 + 4 * (jlong)in->length;
            out->array_type = JVMTI_PRIMITIVE_TYPE_INT;
            out->elements = in->ints;
            break;
        case K_STRING: out->size = 24; out->chars = in->chars; out->chars_length = 4; break;
        }
    }
    return JVMTI_ERROR_NONE;
}

static void heap_primitive_fields(uintptr_t id, jvmtirt_heap_field_fn fn, void *ctx)
{
    const host_object *o = (const host_object *)id;
    if (o->kind != HOST_INSTANCE)
        return;
    const host_instance *in = (const host_instance *)o;
    jvalue v;
    v.i = in->value;
    if (in->klass == K_ROOT) /* HeapRoot.count: after nodes, ints, name */
        fn(ctx, JVMTI_HEAP_REFERENCE_FIELD, 3, JVMTI_PRIMITIVE_TYPE_INT, v);
    else if (in->klass == K_NODE) /* HeapNode.value: after next */
        fn(ctx, JVMTI_HEAP_REFERENCE_FIELD, 1, JVMTI_PRIMITIVE_TYPE_INT, v);
}

void host_heap_configure(jvmtirt_config *c)
{
    classes_init();
    c->heap_pause = heap_pause;
    c->heap_roots = heap_roots;
    c->heap_references = heap_references;
    c->heap_objects = heap_objects;
    c->heap_object_info = heap_object_info;
    c->heap_primitive_fields = heap_primitive_fields;
}
