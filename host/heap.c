/* The host's object graph for the core's heap walks (runtime/README.md,
 * "Heap walks"): the enumerations of roots, of an object's references and
 * of all objects, and what the core asks about one object, over the VM's
 * own objects: the classes java/lang/Object, Class, String and Thread
 * (host_classes[0..3]: SYSTEM_CLASS roots; each class but Object has
 * Object as its SUPERCLASS) and the plain objects and strings of objects.c
 * (each one a JNI reference holds is a JNI_GLOBAL root: the host does not
 * tell local from global). Every object refers to its CLASS. A walk holds
 * the heap still (objects.c's lock): the collector and AllocObject wait.
 * (The test scaffolding's heap model, -heap:N, wraps these operations:
 * scaffold/heap_model.c.) */
#include <stdlib.h>
#include <string.h>

#include "host.h"

enum { K_OBJECT, K_CLASS, K_STRING, K_THREAD, K_COUNT }; /* in host_classes */

/* The K_* of a class object, -1: not one of the heap's classes. */
static int class_index(uintptr_t id)
{
    for (int i = 0; i < K_COUNT; i++)
        if (id == (uintptr_t)&host_classes[i].obj)
            return i;
    return -1;
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
    for (int i = 0; i < K_COUNT; i++)
        if (root(fn, ctx, JVMTI_HEAP_REFERENCE_SYSTEM_CLASS, &host_classes[i]))
            return;
    plain_ctx c = {fn, ctx};
    host_plain_each(1, plain_root, &c);
}

static const host_class *class_of(uintptr_t id)
{
    switch (((const host_object *)id)->kind) {
    case HOST_CLASS: return &host_classes[K_CLASS];
    case HOST_STRING: return &host_classes[K_STRING];
    case HOST_THREAD: return &host_classes[K_THREAD];
    case HOST_OBJECT: return &host_classes[K_OBJECT];
    default: return NULL; /* IDs, groups, streams, modules: not in the heap */
    }
}

static void heap_references(uintptr_t id, jvmtirt_heap_ref_fn fn, void *ctx)
{
    const host_class *k = class_of(id);
    jvmtirt_heap_ref r;
    memset(&r, 0, sizeof r);
    r.kind = JVMTI_HEAP_REFERENCE_CLASS;
    r.referee = (uintptr_t)k;
    if (!k || fn(ctx, &r) || class_index(id) <= K_OBJECT)
        return;
    r.kind = JVMTI_HEAP_REFERENCE_SUPERCLASS;
    r.referee = (uintptr_t)&host_classes[K_OBJECT];
    fn(ctx, &r);
}

static void heap_objects(jvmtirt_heap_object_fn fn, void *ctx)
{
    for (int i = 0; i < K_COUNT; i++)
        if (fn(ctx, (uintptr_t)&host_classes[i]))
            return;
    host_plain_each(0, fn, ctx);
}

static jvmtiError heap_object_info(uintptr_t id, jvmtirt_heap_object *out)
{
    const host_class *k = id ? class_of(id) : NULL;
    if (!k)
        return JVMTI_ERROR_INVALID_OBJECT;
    memset(out, 0, sizeof *out);
    out->klass = (uintptr_t)k;
    out->length = -1;
    out->size = 16;
    if (((const host_object *)id)->kind == HOST_CLASS) {
        out->size = 96;
        out->superclass = class_index(id) > K_OBJECT ? (uintptr_t)&host_classes[K_OBJECT] : 0;
    }
    return JVMTI_ERROR_NONE;
}

void host_heap_configure(jvmtirt_config *c)
{
    c->heap_pause = heap_pause;
    c->heap_roots = heap_roots;
    c->heap_references = heap_references;
    c->heap_objects = heap_objects;
    c->heap_object_info = heap_object_info;
    /* heap_primitive_fields: none, the VM's own objects have no int fields */
}
