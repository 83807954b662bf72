/* An ordinary agent, built against the JDK 17 jvmti.h, that runs every heap
 * walk of the core over bin/jvmti-host's heap model (jvmti-host -heap:5:
 * a HeapRoot holding 5 HeapNodes, an int[3] and a String, host/scaffold/heap_model.c). It
 * prints one line per finding, which tests/host/test.sh compares with the
 * counts worked out by hand from that shape.
 *
 * (The same walks in HotSpot 17 over the same shape are the conformance
 * kit's heap area, tests/conformance/area_heap.c.) With the option "bench" it prints instead, at VMDeath (still the live
 * phase, after the program built its heap), how fast FollowReferences and
 * IterateThroughHeap go over the whole heap (objects per second), in the
 * host or in HotSpot (tests/bench/run, tests/bench/HeapMain.java). */
#define _GNU_SOURCE /* gettid */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jvmti.h"
#include "../agentkit.h"

static jvmtiEnv *jvmti;
static int bench, at_death;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("heap: ");
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    va_end(ap);
}

typedef struct counts {
    long refs, kinds[32], fields, field_sum, arrays, array_sum, strings, objects, self;
    long abort_after, tag_nodes;
    jint visit;
} counts;

static jint JNICALL ref_cb(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
                           jlong class_tag, jlong referrer_class_tag, jlong size, jlong *tag_ptr,
                           jlong *referrer_tag_ptr, jint length, void *user_data)
{
    (void)info, (void)class_tag, (void)referrer_class_tag, (void)size, (void)length;
    counts *c = user_data;
    c->refs++;
    c->kinds[kind & 31]++;
    if (tag_ptr == referrer_tag_ptr)
        c->self++;
    if (c->abort_after && c->refs >= c->abort_after)
        return JVMTI_VISIT_ABORT;
    return c->visit;
}

static jint JNICALL field_cb(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
                             jlong object_class_tag, jlong *object_tag_ptr, jvalue value,
                             jvmtiPrimitiveType value_type, void *user_data)
{
    (void)kind, (void)info, (void)object_class_tag;
    counts *c = user_data;
    if (value_type != JVMTI_PRIMITIVE_TYPE_INT)
        return 0;
    c->fields++;
    c->field_sum += value.i;
    if (c->tag_nodes)
        *object_tag_ptr = 1000 + value.i;
    return 0;
}

static jint JNICALL array_cb(jlong class_tag, jlong size, jlong *tag_ptr, jint element_count,
                             jvmtiPrimitiveType element_type, const void *elements, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr;
    counts *c = user_data;
    c->arrays++;
    if (element_type == JVMTI_PRIMITIVE_TYPE_INT)
        for (jint i = 0; i < element_count; i++)
            c->array_sum += ((const jint *)elements)[i];
    return 0;
}

static jint JNICALL string_cb(jlong class_tag, jlong size, jlong *tag_ptr, const jchar *value,
                              jint value_length, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr, (void)value, (void)value_length;
    ((counts *)user_data)->strings++;
    return 0;
}

static jint JNICALL iter_cb(jlong class_tag, jlong size, jlong *tag_ptr, jint length, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr, (void)length;
    ((counts *)user_data)->objects++;
    return 0;
}

static jvmtiIterationControl JNICALL tag_one(jlong class_tag, jlong size, jlong *tag_ptr, void *user_data)
{
    (void)class_tag, (void)size;
    ((counts *)user_data)->objects++;
    *tag_ptr = 1;
    return JVMTI_ITERATION_CONTINUE;
}

static jvmtiIterationControl JNICALL count_obj(jlong class_tag, jlong size, jlong *tag_ptr, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr;
    ((counts *)user_data)->objects++;
    return JVMTI_ITERATION_CONTINUE;
}

static jvmtiIterationControl JNICALL old_root(jvmtiHeapRootKind kind, jlong class_tag, jlong size,
                                              jlong *tag_ptr, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr;
    ((counts *)user_data)->kinds[kind & 31]++;
    return JVMTI_ITERATION_CONTINUE;
}

static jvmtiIterationControl JNICALL old_stack(jvmtiHeapRootKind kind, jlong class_tag, jlong size,
                                               jlong *tag_ptr, jlong thread_tag, jint depth,
                                               jmethodID method, jint slot, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr, (void)thread_tag, (void)depth, (void)method, (void)slot;
    ((counts *)user_data)->kinds[kind & 31]++;
    return JVMTI_ITERATION_CONTINUE;
}

static jvmtiIterationControl JNICALL old_ref(jvmtiObjectReferenceKind kind, jlong class_tag,
                                             jlong size, jlong *tag_ptr, jlong referrer_tag,
                                             jint referrer_index, void *user_data)
{
    (void)class_tag, (void)size, (void)tag_ptr, (void)referrer_tag, (void)referrer_index;
    counts *c = user_data;
    c->refs++;
    c->kinds[16 + (kind & 15)]++;
    return JVMTI_ITERATION_CONTINUE;
}

static jvmtiHeapCallbacks callbacks(void)
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

static const char *en(jvmtiError e)
{
    char *name = NULL;
    static char buf[64];
    if ((*jvmti)->GetErrorName(jvmti, e, &name) != JVMTI_ERROR_NONE || !name)
        return "?";
    snprintf(buf, sizeof buf, "%s", name);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
    return buf;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The CPU clock of thread tid of this process (Linux: the clock id of
 * another thread is made from its id, as glibc's pthread_getcpuclockid
 * makes it from a pthread_t). */
static clockid_t thread_clock(pid_t tid) { return (clockid_t)((~(unsigned)tid << 3) | 6); }

/* HotSpot walks the heap in its "VM Thread" (a VM operation), not in the
 * caller's: its id, or 0 where there is none (jvmti-host walks in the
 * caller's thread). */
static pid_t vm_thread(void)
{
    DIR *d = opendir("/proc/self/task");
    pid_t found = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL && !found;) {
        char path[64], name[32] = "";
        snprintf(path, sizeof path, "/proc/self/task/%.20s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f && fgets(name, sizeof name, f) && strcmp(name, "VM Thread\n") == 0)
            found = (pid_t)atol(e->d_name);
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return found;
}

/* The CPU time of the threads that walk: the caller's and HotSpot's VM
 * Thread. Not the process's: HotSpot's JIT and GC threads run meanwhile,
 * and on a loaded machine the wall time counts whatever else ran. */
static double walk_cpu(pid_t vm)
{
    double t = clock_s(CLOCK_THREAD_CPUTIME_ID);
    return vm ? t + clock_s(thread_clock(vm)) : t;
}

/* One walk over the whole heap: the objects it saw, its wall time and the
 * walking threads' CPU time (walk_cpu). */
typedef struct timing {
    long objects;
    double wall, cpu;
} timing;

static timing timed(int follow, const jvmtiHeapCallbacks *cb)
{
    counts c;
    memset(&c, 0, sizeof c);
    c.visit = JVMTI_VISIT_OBJECTS;
    pid_t vm = vm_thread();
    double w0 = clock_s(CLOCK_MONOTONIC), c0 = walk_cpu(vm);
    jvmtiError err = follow ? (*jvmti)->FollowReferences(jvmti, 0, NULL, NULL, cb, &c)
                            : (*jvmti)->IterateThroughHeap(jvmti, 0, NULL, cb, &c);
    timing t = {follow ? c.kinds[JVMTI_HEAP_REFERENCE_CLASS] /* one per object visited */ : c.objects,
                clock_s(CLOCK_MONOTONIC) - w0, walk_cpu(vm) - c0};
    if (err)
        t.objects = -1;
    return t;
}

/* Each walk over the whole heap, best of 3. */
static void run_bench(void)
{
    jvmtiHeapCallbacks cb = callbacks();
    cb.primitive_field_callback = NULL;
    cb.array_primitive_value_callback = NULL;
    cb.string_primitive_value_callback = NULL;
    static const char *const names[2] = {"IterateThroughHeap", "FollowReferences"};
    for (int follow = 1; follow >= 0; follow--) {
        timing best = {0, 1e9, 1e9};
        for (int round = 0; round < 3; round++) {
            timing t = timed(follow, &cb);
            best.objects = t.objects;
            if (t.wall < best.wall)
                best.wall = t.wall;
            if (t.cpu < best.cpu)
                best.cpu = t.cpu;
        }
        if (best.objects < 0) {
            printf("heap-bench: %s failed\n", names[follow]);
            continue;
        }
        printf("heap-bench: %s %ld objects: wall %.4f s (%.0f objects/s), cpu %.4f s (%.1f "
               "ns/object; CPU time of %s, best of 3)\n",
               names[follow], best.objects, best.wall, (double)best.objects / best.wall, best.cpu,
               best.cpu * 1e9 / (double)(best.objects > 0 ? best.objects : 1),
               vm_thread() ? "the calling thread and the VM Thread" : "the calling thread");
    }
    fflush(stdout);
}

static void checks(JNIEnv *jni)
{
    jclass root_class = (*jni)->FindClass(jni, "HeapRoot");
    jclass node_class = (*jni)->FindClass(jni, "HeapNode");
    if (!root_class || !node_class) {
        say("FindClass(HeapRoot, HeapNode) failed");
        return;
    }
    counts c;
    memset(&c, 0, sizeof c);
    jvmtiError err = (*jvmti)->IterateOverInstancesOfClass(jvmti, root_class, JVMTI_HEAP_OBJECT_EITHER,
                                                           tag_one, &c);
    say("IterateOverInstancesOfClass(HeapRoot): %s, %ld instance(s), tagged 1", en(err), c.objects);
    jlong one = 1;
    jint n = 0;
    jobject *found = NULL;
    err = (*jvmti)->GetObjectsWithTags(jvmti, 1, &one, &n, &found, NULL);
    if (err || n != 1) {
        say("GetObjectsWithTags(1): %s, %d objects", en(err), (int)n);
        return;
    }
    jobject root = found[0];
    (*jvmti)->Deallocate(jvmti, (unsigned char *)found);

    jvmtiHeapCallbacks cb = callbacks();
    memset(&c, 0, sizeof c);
    c.visit = JVMTI_VISIT_OBJECTS;
    err = (*jvmti)->FollowReferences(jvmti, 0, NULL, root, &cb, &c);
    say("FollowReferences(from the root): %s, %ld references: CLASS %ld FIELD %ld ARRAY_ELEMENT %ld "
        "SUPERCLASS %ld",
        en(err), c.refs, c.kinds[JVMTI_HEAP_REFERENCE_CLASS], c.kinds[JVMTI_HEAP_REFERENCE_FIELD],
        c.kinds[JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT], c.kinds[JVMTI_HEAP_REFERENCE_SUPERCLASS]);
    say("... int fields %ld (sum %ld), int arrays %ld (sum %ld), strings %ld, self-references %ld",
        c.fields, c.field_sum, c.arrays, c.array_sum, c.strings, c.self);

    memset(&c, 0, sizeof c);
    c.visit = JVMTI_VISIT_OBJECTS;
    c.tag_nodes = 1;
    err = (*jvmti)->FollowReferences(jvmti, 0, node_class, root, &cb, &c);
    say("FollowReferences(klass HeapNode): %s, %ld references, %ld int fields (sum %ld)", en(err),
        c.refs, c.fields, c.field_sum);
    jlong want[5] = {1000, 1001, 1002, 1003, 1004};
    err = (*jvmti)->GetObjectsWithTags(jvmti, 5, want, &n, NULL, NULL);
    say("... tags set by the primitive field callback: %s, %d nodes tagged 1000..1004", en(err), (int)n);

    memset(&c, 0, sizeof c);
    c.visit = JVMTI_VISIT_OBJECTS;
    err = (*jvmti)->FollowReferences(jvmti, JVMTI_HEAP_FILTER_UNTAGGED, NULL, NULL, &cb, &c);
    say("FollowReferences(HEAP_FILTER_UNTAGGED): %s, %ld references to tagged objects", en(err), c.refs);
    memset(&c, 0, sizeof c);
    c.visit = JVMTI_VISIT_OBJECTS;
    err = (*jvmti)->FollowReferences(jvmti, 0, NULL, NULL, &cb, &c);
    say("FollowReferences(from the roots): %s, %ld references, JNI_GLOBAL %ld STACK_LOCAL %ld "
        "THREAD %ld SYSTEM_CLASS %ld",
        en(err), c.refs, c.kinds[JVMTI_HEAP_REFERENCE_JNI_GLOBAL],
        c.kinds[JVMTI_HEAP_REFERENCE_STACK_LOCAL], c.kinds[JVMTI_HEAP_REFERENCE_THREAD],
        c.kinds[JVMTI_HEAP_REFERENCE_SYSTEM_CLASS]);
    memset(&c, 0, sizeof c);
    c.visit = JVMTI_VISIT_OBJECTS;
    c.abort_after = 1;
    err = (*jvmti)->FollowReferences(jvmti, 0, NULL, NULL, &cb, &c);
    say("FollowReferences(VISIT_ABORT at once): %s, %ld reference", en(err), c.refs);

    memset(&c, 0, sizeof c);
    err = (*jvmti)->IterateThroughHeap(jvmti, 0, node_class, &cb, &c);
    say("IterateThroughHeap(klass HeapNode): %s, %ld objects, %ld int fields (sum %ld)", en(err),
        c.objects, c.fields, c.field_sum);
    memset(&c, 0, sizeof c);
    err = (*jvmti)->IterateThroughHeap(jvmti, JVMTI_HEAP_FILTER_UNTAGGED, NULL, &cb, &c);
    say("IterateThroughHeap(HEAP_FILTER_UNTAGGED): %s, %ld tagged objects", en(err), c.objects);

    memset(&c, 0, sizeof c);
    err = (*jvmti)->IterateOverObjectsReachableFromObject(jvmti, root, old_ref, &c);
    say("IterateOverObjectsReachableFromObject(root): %s, %ld references: CLASS %ld FIELD %ld "
        "ARRAY_ELEMENT %ld",
        en(err), c.refs, c.kinds[16 + JVMTI_REFERENCE_CLASS], c.kinds[16 + JVMTI_REFERENCE_FIELD],
        c.kinds[16 + JVMTI_REFERENCE_ARRAY_ELEMENT]);
    memset(&c, 0, sizeof c);
    err = (*jvmti)->IterateOverReachableObjects(jvmti, old_root, old_stack, old_ref, &c);
    say("IterateOverReachableObjects: %s, roots JNI_GLOBAL %ld STACK_LOCAL %ld THREAD %ld "
        "SYSTEM_CLASS %ld, %ld references",
        en(err), c.kinds[JVMTI_HEAP_ROOT_JNI_GLOBAL], c.kinds[JVMTI_HEAP_ROOT_STACK_LOCAL],
        c.kinds[JVMTI_HEAP_ROOT_THREAD], c.kinds[JVMTI_HEAP_ROOT_SYSTEM_CLASS], c.refs);
    memset(&c, 0, sizeof c);
    err = (*jvmti)->IterateOverHeap(jvmti, JVMTI_HEAP_OBJECT_EITHER, count_obj, &c);
    long all = c.objects;
    memset(&c, 0, sizeof c);
    (*jvmti)->IterateOverHeap(jvmti, JVMTI_HEAP_OBJECT_TAGGED, count_obj, &c);
    say("IterateOverHeap: %s, %ld objects, %ld tagged", en(err), all, c.objects);
    memset(&c, 0, sizeof c);
    err = (*jvmti)->IterateOverInstancesOfClass(jvmti, node_class, JVMTI_HEAP_OBJECT_TAGGED,
                                                count_obj, &c);
    say("IterateOverInstancesOfClass(HeapNode, TAGGED): %s, %ld", en(err), c.objects);
    err = (*jvmti)->FollowReferences(jvmti, 0, NULL, (jobject)node_class, NULL, NULL);
    say("FollowReferences(NULL callbacks): %s", en(err));
}

static void JNICALL vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)thread;
    checks(jni);
}

static void JNICALL vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env, (void)jni;
    run_bench(); /* enabled only with "bench" */
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    bench = options && strcmp(options, "bench") == 0;
    at_death = bench;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return 1;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_tag_objects = 1;
    jvmtiError err = (*jvmti)->AddCapabilities(jvmti, &caps);
    if (!bench)
        say("AddCapabilities(can_tag_objects): %s", en(err));
    jvmtiEventCallbacks ev;
    memset(&ev, 0, sizeof ev);
    ev.VMInit = vm_init;
    ev.VMDeath = vm_death;
    const jvmtiEvent when = at_death ? JVMTI_EVENT_VM_DEATH : JVMTI_EVENT_VM_INIT;
    agentkit_events(jvmti, &ev, 1, &when);
    return 0;
}
