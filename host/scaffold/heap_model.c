/* -heap:N: a heap model for the core's heap walks to run over, wrapped
 * around the VM's own heap operations (host/heap.c) in the configure hook.
 * It builds, once the VM is live (the live hook), the same shape a small
 * Java program builds in HotSpot (tests/bench/HeapMain.java):
 *
 *   class HeapRoot { HeapNode[] nodes; int[] ints; String name; int count; }
 *   class HeapNode { HeapNode next; int value; }
 *   root.nodes = N nodes, nodes[i].value = i, nodes[i].next = nodes[i+1];
 *   root.ints = {1, 2, 3}; root.name = "heap"; root.count = N
 *
 * held by a JNI global reference (a JNI_GLOBAL root) and by the main
 * thread's frame (a STACK_LOCAL root, depth 0, slot 0); the thread that
 * built it is a THREAD root and an object. The model's four classes
 * (HeapRoot, HeapNode, HeapNode[], int[]: SYSTEM_CLASS roots, subclasses
 * of Object) are in the heap with or without -heap; FindClass and
 * GetObjectClass know them (the class_by_name and class_of hooks). The
 * model lives until the process ends.
 *
 * Field indices follow the spec's rule: a class's fields are numbered
 * after its superclass's (Object has none), in declaration order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaffold.h"

/* As tests/bench/HeapMain.java declares them (javac sets 0x20, super); an
 * array class's modifiers are its element type's access with abstract and
 * final (0x410). */
enum { K_ROOT, K_NODE, K_NODE_ARRAY, K_INT_ARRAY, K_CLASSES, K_STRING = K_CLASSES };
static host_class own_classes[K_CLASSES] = {
    {{HOST_CLASS}, "HeapRoot", "LHeapRoot;", 0x20, "HeapMain.java"},
    {{HOST_CLASS}, "HeapNode", "LHeapNode;", 0x20, "HeapMain.java"},
    {{HOST_CLASS}, "[LHeapNode;", "[LHeapNode;", 0x410, NULL},
    {{HOST_CLASS}, "[I", "[I", 0x411, NULL},
};
#define OBJECT_CLASS (&host_classes[0]) /* java/lang/Object, String: builtins.c */
#define STRING_CLASS (&host_classes[2])

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

static long n_nodes; /* -heap:N; 0: no model */
static host_instance *model_root;
/* Every instance, side by side in one block (as a VM's allocator puts
 * objects made one after the other): for heap_objects, and so that a walk
 * over 10^6 of them reads memory in order instead of 10^6 scattered
 * calloc'd blocks. */
static host_instance *all;
static size_t n_all;
static host_thread *owner; /* the thread that built it */
/* The VM's own operations, which the model's wrap. */
static jvmtirt_config vm;

int heap_model_option(const char *arg)
{
    char *end;
    n_nodes = strtol(arg, &end, 10);
    return !*end && n_nodes >= 1 && n_nodes <= 100000000;
}

static const host_class *class_of_instance(const host_instance *in)
{
    return in->klass == K_STRING ? STRING_CLASS : &own_classes[in->klass];
}

jclass heap_model_find_class(const char *name)
{
    for (int i = 0; name && i < K_CLASSES; i++)
        if (strcmp(own_classes[i].name, name) == 0)
            return (jclass)&own_classes[i].obj;
    return NULL;
}

jclass heap_model_class_of(jobject obj)
{
    const host_object *o = (const host_object *)obj;
    if (!o || o->kind != HOST_INSTANCE)
        return NULL;
    return (jclass)&class_of_instance((const host_instance *)obj)->obj;
}

static host_instance *instance(int klass)
{
    host_instance *o = &all[n_all++]; /* zeroed by calloc */
    o->obj.kind = HOST_INSTANCE;
    o->klass = klass;
    o->length = -1;
    return o;
}

/* HeapRoot and HeapNode to the core's metadata (no members, as the model
 * has no IDs for them); the arrays need none. Only memory can fail, and
 * then they answer CLASS_NOT_PREPARED. */
void heap_model_describe(void)
{
    for (int i = 0; i < 2; i++)
        (void)host_class_describe_empty(&own_classes[i]);
}

static int build(long n)
{
    all = calloc((size_t)n + 8, sizeof *all);
    if (!all)
        return 0;
    host_instance *root = instance(K_ROOT), *nodes = instance(K_NODE_ARRAY);
    host_instance *ints = instance(K_INT_ARRAY), *name = instance(K_STRING);
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
    for (long i = n - 1; i >= 0; i--) {
        host_instance *node = instance(K_NODE);
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

int heap_model_build(host_thread *builder)
{
    if (n_nodes == 0)
        return 1;
    owner = builder;
    if (build(n_nodes))
        return 1;
    fprintf(stderr, "jvmti-host: -heap:%ld: out of memory\n", n_nodes);
    return 0;
}

/* ---- the core's operations: the model's objects, then the VM's ---- */

/* The K_* of one of the model's classes, -1: not one. */
static int model_class(uintptr_t id)
{
    for (int i = 0; i < K_CLASSES; i++)
        if (id == (uintptr_t)&own_classes[i].obj)
            return i;
    return -1;
}

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

static void heap_roots(jvmtirt_heap_ref_fn fn, void *ctx)
{
    jvmtirt_heap_ref r;
    memset(&r, 0, sizeof r);
    if (model_root) {
        if (ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_JNI_GLOBAL, model_root, 0))
            return;
        memset(&r, 0, sizeof r);
        r.kind = JVMTI_HEAP_REFERENCE_STACK_LOCAL;
        r.referee = (uintptr_t)model_root;
        r.thread = (uintptr_t)owner;
        r.info.stack_local.thread_id = 1;
        if (fn(ctx, &r))
            return;
        memset(&r, 0, sizeof r);
        if (ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_THREAD, owner, 0))
            return;
    }
    for (int i = 0; i < K_CLASSES; i++)
        if (ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_SYSTEM_CLASS, &own_classes[i], 0))
            return;
    vm.heap_roots(fn, ctx);
}

/* One reference through r, zeroed once: only kind, referee and the index
 * change from one to the next (the core reads r only). */
static void heap_references(uintptr_t id, jvmtirt_heap_ref_fn fn, void *ctx)
{
    const host_object *o = (const host_object *)id;
    jvmtirt_heap_ref r;
    memset(&r, 0, sizeof r);
    if (model_class(id) >= 0) {
        if (!ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_CLASS, &host_classes[1], 0))
            ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_SUPERCLASS, OBJECT_CLASS, 0);
        return;
    }
    if (o->kind != HOST_INSTANCE) {
        vm.heap_references(id, fn, ctx);
        return;
    }
    const host_instance *in = (const host_instance *)o;
    if (ref(fn, ctx, &r, JVMTI_HEAP_REFERENCE_CLASS, class_of_instance(in), 0))
        return;
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
    for (int i = 0; i < K_CLASSES; i++)
        if (fn(ctx, (uintptr_t)&own_classes[i]))
            return;
    for (size_t i = 0; i < n_all; i++)
        if (fn(ctx, (uintptr_t)&all[i]))
            return;
    if (owner && fn(ctx, (uintptr_t)owner))
        return;
    vm.heap_objects(fn, ctx);
}

static jvmtiError heap_object_info(uintptr_t id, jvmtirt_heap_object *out)
{
    const host_instance *in = (const host_instance *)id;
    if (!id || (in->obj.kind != HOST_INSTANCE && model_class(id) < 0))
        return vm.heap_object_info(id, out);
    if (in->obj.kind == HOST_INSTANCE && in->klass == K_NODE) {
        /* most of a model's objects: asked once per reference to one */
        *out = (jvmtirt_heap_object){.klass = (uintptr_t)&own_classes[K_NODE], .size = 24,
                                     .length = -1};
        return JVMTI_ERROR_NONE;
    }
    memset(out, 0, sizeof *out);
    out->length = -1;
    if (in->obj.kind == HOST_CLASS) {
        out->klass = (uintptr_t)&host_classes[1]; /* java/lang/Class */
        out->size = 96;
        out->superclass = (uintptr_t)OBJECT_CLASS;
        return JVMTI_ERROR_NONE;
    }
    out->klass = (uintptr_t)class_of_instance(in);
    switch (in->klass) {
    case K_ROOT: out->size = 32; break;
    case K_NODE_ARRAY: out->length = in->length; out->size = 16 + 8 * (jlong)in->length; break;
    case K_INT_ARRAY:
        out->length = in->length;
        out->size = 16 + 4 * (jlong)in->length;
        out->array_type = JVMTI_PRIMITIVE_TYPE_INT;
        out->elements = in->ints;
        break;
    case K_STRING: out->size = 24; out->chars = in->chars; out->chars_length = 4; break;
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

void heap_model_configure(jvmtirt_config *c)
{
    vm = *c;
    c->heap_roots = heap_roots;
    c->heap_references = heap_references;
    c->heap_objects = heap_objects;
    c->heap_object_info = heap_object_info;
    c->heap_primitive_fields = heap_primitive_fields;
}
