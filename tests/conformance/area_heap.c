/* The heap area: the core's heap walks over a known object graph, a
 * HeapRoot holding 5 HeapNodes (value = index) in an array and in a list,
 * an int[] {1, 2, 3} and the String "heap": built in HotSpot by
 * tests/bench/HeapMain.java (Main calls it first), in the host by its model
 * (-heap:5, host/scaffold/heap_model.c). The cases run at VMDeath (still the live phase,
 * the graph built) in an environment of the area's own, with
 * can_tag_objects. Only what does not count the JVM's own objects is
 * printed: references whose referrer is one of the graph's objects (told
 * by the class tags 7 HeapRoot, 8 HeapNode, 9 HeapNode[]), by kind, with
 * their field and array indices; the sets the class and heap filters
 * choose; the tags callbacks write back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

void conf_area_heap(int stage, const conf_area_env *a);

static jvmtiEnv *heap_env;

enum { TAG_ROOT_CLASS = 7, TAG_NODE_CLASS = 8, TAG_ARRAY_CLASS = 9, TAG_ROOT = 1 };

typedef struct tally {
    long refs;            /* from the graph's objects */
    long by_kind[32];     /* jvmtiHeapReferenceKind, or 16 + the 1.0 kind */
    long index_sum[32];   /* field / array indices, by kind */
    long fields, field_sum; /* int fields reported (the nodes' values) */
    long objects;
    long calls, abort_after;
    int tag_nodes;        /* the primitive field callback tags a node 1000 + value */
} tally;

static int of_graph(jlong referrer_class_tag)
{
    return referrer_class_tag == TAG_ROOT_CLASS || referrer_class_tag == TAG_NODE_CLASS ||
           referrer_class_tag == TAG_ARRAY_CLASS;
}

static jint JNICALL ref_cb(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
                           jlong class_tag, jlong referrer_class_tag, jlong size, jlong *tag_ptr,
                           jlong *referrer_tag_ptr, jint length, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr, (void)referrer_tag_ptr, (void)length;
    tally *t = user_data;
    t->calls++;
    if (t->abort_after && t->calls >= t->abort_after)
        return JVMTI_VISIT_ABORT;
    if (of_graph(referrer_class_tag) && kind >= 0 && kind < 16) {
        t->refs++;
        t->by_kind[kind]++;
        if (kind == JVMTI_HEAP_REFERENCE_FIELD)
            t->index_sum[kind] += info->field.index;
        else if (kind == JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT)
            t->index_sum[kind] += info->array.index;
    }
    return JVMTI_VISIT_OBJECTS;
}

static jint JNICALL field_cb(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
                             jlong object_class_tag, jlong *object_tag_ptr, jvalue value,
                             jvmtiPrimitiveType value_type, void *user_data)
{
    (void)info;
    tally *t = user_data;
    if (kind == JVMTI_HEAP_REFERENCE_FIELD && value_type == JVMTI_PRIMITIVE_TYPE_INT &&
        object_class_tag == TAG_NODE_CLASS) {
        t->fields++;
        t->field_sum += value.i;
        if (t->tag_nodes)
            *object_tag_ptr = 1000 + value.i;
    }
    return JVMTI_VISIT_OBJECTS;
}

static jint JNICALL iter_cb(jlong class_tag, jlong size, jlong *tag_ptr, jint length,
                            void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr, (void)length;
    ((tally *)user_data)->objects++;
    return JVMTI_VISIT_OBJECTS;
}

static jvmtiIterationControl JNICALL tag_root(jlong class_tag, jlong size, jlong *tag_ptr,
                                              void *user_data)
{
    (void)class_tag, (void)size;
    *tag_ptr = TAG_ROOT;
    ((tally *)user_data)->objects++;
    return JVMTI_ITERATION_CONTINUE;
}

static jvmtiIterationControl JNICALL count_obj(jlong class_tag, jlong size, jlong *tag_ptr,
                                               void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr;
    ((tally *)user_data)->objects++;
    return JVMTI_ITERATION_CONTINUE;
}

/* 1.0: references to nodes (the referee's class tag), by 1.0 kind. */
static jvmtiIterationControl JNICALL old_ref(jvmtiObjectReferenceKind kind, jlong class_tag,
                                             jlong size, jlong *tag_ptr, jlong referrer_tag,
                                             jint referrer_index, void *user_data)
{
    (void)size, (void)tag_ptr, (void)referrer_tag, (void)referrer_index;
    tally *t = user_data;
    if (class_tag == TAG_NODE_CLASS && kind >= 0 && kind < 16)
        t->by_kind[16 + kind]++;
    return JVMTI_ITERATION_CONTINUE;
}

static jvmtiHeapCallbacks callbacks(void)
{
    jvmtiHeapCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.heap_reference_callback = ref_cb;
    cb.primitive_field_callback = field_cb;
    cb.heap_iteration_callback = iter_cb;
    return cb;
}

static void cases(JNIEnv *jni)
{
    jvmtiEnv *e = heap_env;
    jclass root_class = (*jni)->FindClass(jni, "HeapRoot");
    jclass node_class = (*jni)->FindClass(jni, "HeapNode");
    jclass array_class = (*jni)->FindClass(jni, "[LHeapNode;");
    if (!root_class || !node_class || !array_class) {
        (*jni)->ExceptionClear(jni);
        conf_say("heap.graph", "SKIP the graph's classes are not there");
        return;
    }
    conf_say("heap.graph", "HeapRoot HeapNode HeapNode[] found");
    (*e)->SetTag(e, root_class, TAG_ROOT_CLASS);
    (*e)->SetTag(e, node_class, TAG_NODE_CLASS);
    (*e)->SetTag(e, array_class, TAG_ARRAY_CLASS);

    tally t;
    memset(&t, 0, sizeof t);
    jvmtiError err = (*e)->IterateOverInstancesOfClass(e, root_class, JVMTI_HEAP_OBJECT_EITHER,
                                                       tag_root, &t);
    conf_say("heap.instances.HeapRoot", "%s %ld, tagged %d", conf_err_name(err), t.objects,
             TAG_ROOT);
    jlong one = TAG_ROOT;
    jint n = 0;
    jobject *found = NULL;
    err = (*e)->GetObjectsWithTags(e, 1, &one, &n, &found, NULL);
    conf_say("heap.with-tags.root", "%s %d", conf_err_name(err), (int)n);
    if (err != JVMTI_ERROR_NONE || n != 1)
        return;
    jobject root = found[0];
    (*e)->Deallocate(e, (unsigned char *)found);

    jvmtiHeapCallbacks cb = callbacks();
    memset(&t, 0, sizeof t);
    err = (*e)->FollowReferences(e, 0, NULL, root, &cb, &t);
    conf_say("heap.follow.from-root", "%s, from the graph: %ld references, CLASS %ld, FIELD %ld "
             "(indices %ld), ARRAY_ELEMENT %ld (indices %ld)",
             conf_err_name(err), t.refs, t.by_kind[JVMTI_HEAP_REFERENCE_CLASS],
             t.by_kind[JVMTI_HEAP_REFERENCE_FIELD], t.index_sum[JVMTI_HEAP_REFERENCE_FIELD],
             t.by_kind[JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT],
             t.index_sum[JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT]);
    conf_say("heap.follow.from-root.int-fields", "%ld, values summing to %ld", t.fields,
             t.field_sum);

    memset(&t, 0, sizeof t);
    t.tag_nodes = 1;
    err = (*e)->FollowReferences(e, 0, node_class, root, &cb, &t);
    conf_say("heap.follow.klass-HeapNode", "%s, from nodes: %ld references, FIELD %ld, int fields "
             "%ld (sum %ld)",
             conf_err_name(err), t.refs, t.by_kind[JVMTI_HEAP_REFERENCE_FIELD], t.fields,
             t.field_sum);
    jlong want[5] = {1000, 1001, 1002, 1003, 1004};
    err = (*e)->GetObjectsWithTags(e, 5, want, &n, NULL, NULL);
    conf_say("heap.follow.tags-written-back", "%s %d nodes tagged 1000..1004", conf_err_name(err),
             (int)n);

    memset(&t, 0, sizeof t);
    t.abort_after = 1;
    err = (*e)->FollowReferences(e, 0, NULL, NULL, &cb, &t);
    conf_say("heap.follow.visit-abort", "%s after %ld call", conf_err_name(err), t.calls);

    memset(&t, 0, sizeof t);
    err = (*e)->IterateThroughHeap(e, 0, node_class, &cb, &t);
    conf_say("heap.through.klass-HeapNode", "%s %ld objects, %ld int fields (sum %ld)",
             conf_err_name(err), t.objects, t.fields, t.field_sum);
    memset(&t, 0, sizeof t);
    err = (*e)->IterateThroughHeap(e, JVMTI_HEAP_FILTER_UNTAGGED, NULL, &cb, &t);
    conf_say("heap.through.tagged", "%s %ld tagged objects (the root, 5 nodes, 3 classes)",
             conf_err_name(err), t.objects);
    memset(&t, 0, sizeof t);
    err = (*e)->IterateThroughHeap(e, JVMTI_HEAP_FILTER_CLASS_UNTAGGED, NULL, &cb, &t);
    conf_say("heap.through.class-tagged", "%s %ld objects of tagged classes (the root, 5 nodes, "
             "the array)", conf_err_name(err), t.objects);

    memset(&t, 0, sizeof t);
    err = (*e)->IterateOverObjectsReachableFromObject(e, root, old_ref, &t);
    conf_say("heap.reachable-from-root.to-nodes", "%s ARRAY_ELEMENT %ld FIELD %ld",
             conf_err_name(err), t.by_kind[16 + JVMTI_REFERENCE_ARRAY_ELEMENT],
             t.by_kind[16 + JVMTI_REFERENCE_FIELD]);
    memset(&t, 0, sizeof t);
    err = (*e)->IterateOverInstancesOfClass(e, node_class, JVMTI_HEAP_OBJECT_TAGGED, count_obj, &t);
    conf_say("heap.instances.HeapNode.tagged", "%s %ld", conf_err_name(err), t.objects);
    memset(&t, 0, sizeof t);
    err = (*e)->IterateOverHeap(e, JVMTI_HEAP_OBJECT_TAGGED, count_obj, &t);
    conf_say("heap.over-heap.tagged", "%s %ld", conf_err_name(err), t.objects);
    conf_result("heap.follow.null-callbacks",
                (*e)->FollowReferences(e, 0, NULL, (jobject)node_class, NULL, NULL));
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env;
    cases(jni);
}

void conf_area_heap(int stage, const conf_area_env *a)
{
    if (stage != CONF_ONLOAD)
        return;
    if (!(heap_env = agentkit_env(a->vm, JVMTI_VERSION_1_2))) {
        conf_say("heap.setup", "GetEnv failed");
        return;
    }
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_tag_objects = 1;
    conf_result("heap.setup", (*heap_env)->AddCapabilities(heap_env, &caps));
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMDeath = on_vm_death;
    agentkit_events(heap_env, &cb, 1, (jvmtiEvent[]){JVMTI_EVENT_VM_DEATH});
}
