/* objects.c: the core's object tags and ObjectFree, thread-local storage,
 * thread CPU time and suspend/resume, through environments' function
 * tables (the generated trampolines run in front of the core).
 *
 * usage: objects [STRESS_SECONDS]   (default 1)
 *
 * Sections run on a freshly initialised core each. The "objects" are
 * structs: a reference is the address of a `ref`, several refs may name
 * one object, and the test's object_id operation maps a ref to its
 * object's identity (as a VM with movable objects and handles would). The
 * expected values are the spec's, written by hand. The stress sections run
 * threads against each other and must be race-free under
 * -fsanitize=thread. Output: one "ok - runtime: objects: ..." or
 * "not ok - ..." line per check. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define TAP_PREFIX "objects: "
#include "tap.h"
#define check tap_line

static const char *en(jvmtiError e)
{
    const char *n = jvmtigen_error_name(e);
    return n ? n : "?";
}

/* err == want, printed with both names on a failure. */
#define CHECK_ERR(err, want, ...)                                                          \
    do {                                                                                   \
        jvmtiError got_ = (err), want_ = (want);                                           \
        char what_[256];                                                                   \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                        \
        if (got_ == want_)                                                                 \
            check(1, "%s", what_);                                                         \
        else                                                                               \
            check(0, "%s (expected %s, got %s)", what_, en(want_), en(got_));               \
    } while (0)

#define CHECK_EQ TAP_CHECK_EQ

/* ---- the test's VM: objects, references, threads ---- */

typedef struct object {
    uintptr_t id; /* never 0 */
} object;

typedef struct ref {
    object *obj;
} ref;

static uintptr_t object_id(jobject o) { return ((ref *)(void *)o)->obj->id; }

/* GetObjectsWithTags' references: one ref per object, made here. */
#define MAX_OBJECTS 20000
static ref made_refs[MAX_OBJECTS];
static object objects[MAX_OBJECTS];
static ref refs[MAX_OBJECTS], other_refs[MAX_OBJECTS];
static int object_refs_made; /* atomic */

static jobject object_ref(uintptr_t id)
{
    __atomic_add_fetch(&object_refs_made, 1, __ATOMIC_RELAXED);
    object *o = &objects[id - 1];
    made_refs[id - 1].obj = o;
    return (jobject)&made_refs[id - 1];
}

static void make_objects(void)
{
    for (int i = 0; i < MAX_OBJECTS; i++) {
        objects[i].id = (uintptr_t)i + 1;
        refs[i].obj = other_refs[i].obj = &objects[i];
    }
}

#define OBJ(i) ((jobject)&refs[i])
#define OBJ2(i) ((jobject)&other_refs[i]) /* another reference, same object */

static jvmtiEnv *new_env(void)
{
    void *p = NULL;
    if (jvmtirt_get_env(&p, JVMTI_VERSION) != JNI_OK || !p) {
        check(0, "jvmtirt_get_env gives an environment");
        exit(1);
    }
    return p;
}

static jvmtiEnv *tagging_env(void)
{
    jvmtiEnv *e = new_env();
    jvmtiCapabilities c = {0};
    c.can_tag_objects = 1;
    c.can_generate_object_free_events = 1;
    if ((*e)->AddCapabilities(e, &c) != JVMTI_ERROR_NONE)
        check(0, "AddCapabilities(can_tag_objects, can_generate_object_free_events)");
    return e;
}

static char main_thread_obj;

static void core_up(jvmtirt_config *cfg)
{
    cfg->potential.can_tag_objects = 1;
    cfg->potential.can_generate_object_free_events = 1;
    cfg->potential.can_get_thread_cpu_time = 1;
    cfg->potential.can_suspend = 1;
#ifdef JVMTIGEN_HAS_can_support_virtual_threads /* JVM TI 21 on */
    cfg->potential.can_support_virtual_threads = 1;
#endif
    cfg->object_id = object_id;
    cfg->object_ref = object_ref;
    jvmtirt_init(cfg);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start((uintptr_t)&main_thread_obj, JVMTIRT_JAVA_THREAD);
}

static void core_down(void)
{
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

/* ---- tags ---- */

/* Identities of every alignment in one map: the map places a key by its
 * alignment and rebuilds itself when a less aligned one comes (the
 * reference's own value as identity, no object_id). */
static char tag_bytes[64 * 2048 + 64];

static void section_tag_alignments(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    cfg.potential.can_tag_objects = 1;
    jvmtirt_init(&cfg);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start((uintptr_t)&main_thread_obj, JVMTIRT_JAVA_THREAD);
    jvmtiEnv *e = new_env();
    jvmtiCapabilities c = {0};
    c.can_tag_objects = 1;
    (*e)->AddCapabilities(e, &c);
    char *base = tag_bytes + (64 - (uintptr_t)tag_bytes % 64) % 64;
    /* 64-byte aligned keys first, then 32, 8, then odd ones among them */
    static const int offsets[] = {0, 32, 8, 1, 3};
    int bad = 0, n = 0;
    for (int k = 0; k < 5; k++) {
        for (int i = 0; i < 2048 - 1; i++)
            if ((*e)->SetTag(e, (jobject)(base + 64 * i + offsets[k]), (jlong)(k * 10000 + i + 1)))
                bad++;
        for (int j = 0; j <= k; j++) { /* every key set so far keeps its tag */
            for (int i = 0; i < 2048 - 1; i++) {
                jlong tag = 0;
                (*e)->GetTag(e, (jobject)(base + 64 * i + offsets[j]), &tag);
                bad += tag != (jlong)(j * 10000 + i + 1);
                n++;
            }
        }
    }
    CHECK_EQ(bad, 0, "tags of keys aligned to 64, 32, 8 and 1 bytes, set in that order, all "
                     "kept (%d lookups)", n);
    for (int i = 0; i < 2048 - 1; i += 2) /* untag half of the odd ones */
        (*e)->SetTag(e, (jobject)(base + 64 * i + 1), 0);
    bad = 0;
    for (int i = 0; i < 2048 - 1; i++) {
        jlong tag = -1, tag3 = -1;
        (*e)->GetTag(e, (jobject)(base + 64 * i + 1), &tag);
        (*e)->GetTag(e, (jobject)(base + 64 * i + 3), &tag3);
        bad += tag != (i % 2 ? (jlong)(30000 + i + 1) : 0) || tag3 != (jlong)(40000 + i + 1);
    }
    CHECK_EQ(bad, 0, "... and removing some leaves the others' tags");
    core_down();
}

static void section_tags(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg);
    jvmtiEnv *a = tagging_env(), *b = tagging_env();
    jlong tag = -1;
    CHECK_ERR((*a)->GetTag(a, OBJ(0), &tag), JVMTI_ERROR_NONE, "GetTag before any SetTag");
    CHECK_EQ(tag, 0, "an object never tagged has tag 0");
    CHECK_ERR((*a)->SetTag(a, OBJ(0), 42), JVMTI_ERROR_NONE, "SetTag(42)");
    tag = 0;
    (*a)->GetTag(a, OBJ(0), &tag);
    CHECK_EQ(tag, 42, "GetTag returns what SetTag set");
    tag = 0;
    (*a)->GetTag(a, OBJ2(0), &tag);
    CHECK_EQ(tag, 42, "another reference to the same object has its tag (object_id)");
    tag = -1;
    (*b)->GetTag(b, OBJ(0), &tag);
    CHECK_EQ(tag, 0, "tags are per environment: another one sees none");
    (*a)->SetTag(a, OBJ(0), -7);
    (*a)->GetTag(a, OBJ(0), &tag);
    CHECK_EQ(tag, -7, "SetTag replaces the tag (negative tags are tags)");
    (*a)->SetTag(a, OBJ(0), 0);
    tag = -1;
    (*a)->GetTag(a, OBJ(0), &tag);
    CHECK_EQ(tag, 0, "SetTag(0) removes the tag");
    CHECK_ERR((*a)->SetTag(a, NULL, 1), JVMTI_ERROR_INVALID_OBJECT, "SetTag(NULL object)");
    CHECK_ERR((*a)->GetTag(a, NULL, &tag), JVMTI_ERROR_INVALID_OBJECT, "GetTag(NULL object)");
    jvmtiEnv *none = new_env();
    CHECK_ERR((*none)->SetTag(none, OBJ(0), 1), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
              "SetTag without can_tag_objects");

    /* Many objects, then every other one untagged: the rest must still be
     * found (deletion keeps the probe runs intact). */
    int n = MAX_OBJECTS, bad = 0;
    for (int i = 0; i < n; i++)
        if ((*a)->SetTag(a, OBJ(i), (jlong)i * 3 + 1) != JVMTI_ERROR_NONE)
            bad++;
    CHECK_EQ(bad, 0, "SetTag on %d objects", n);
    for (int i = 0; i < n; i++)
        if ((*a)->GetTag(a, OBJ2(i), &tag) != JVMTI_ERROR_NONE || tag != (jlong)i * 3 + 1)
            bad++;
    CHECK_EQ(bad, 0, "GetTag of each of %d objects", n);
    for (int i = 0; i < n; i += 2)
        (*a)->SetTag(a, OBJ(i), 0);
    for (int i = 0; i < n; i++)
        if ((*a)->GetTag(a, OBJ(i), &tag) != JVMTI_ERROR_NONE ||
            tag != (i % 2 ? (jlong)i * 3 + 1 : 0))
            bad++;
    CHECK_EQ(bad, 0, "after untagging every other object, the rest keep their tags");

    /* GetObjectsWithTags */
    jlong want[] = {4, 10, 7, 999999};   /* objects 1 and 3; 2 is untagged now; no 999999 */
    jint count = -1;
    jobject *objs = NULL;
    jlong *tags = NULL;
    __atomic_store_n(&object_refs_made, 0, __ATOMIC_RELAXED);
    CHECK_ERR((*a)->GetObjectsWithTags(a, 4, want, &count, &objs, &tags), JVMTI_ERROR_NONE,
              "GetObjectsWithTags");
    CHECK_EQ(count, 2, "GetObjectsWithTags finds the two objects with those tags");
    int seen1 = 0, seen3 = 0;
    for (jint i = 0; objs && tags && i < count; i++) {
        uintptr_t id = object_id(objs[i]);
        seen1 += id == 2 && tags[i] == 4;
        seen3 += id == 4 && tags[i] == 10;
    }
    check(seen1 == 1 && seen3 == 1, "GetObjectsWithTags: objects and tags in parallel arrays");
    CHECK_EQ(__atomic_load_n(&object_refs_made, __ATOMIC_RELAXED), 2,
             "GetObjectsWithTags makes its references through object_ref");
    (*a)->Deallocate(a, (unsigned char *)objs);
    (*a)->Deallocate(a, (unsigned char *)tags);
    count = -1;
    CHECK_ERR((*a)->GetObjectsWithTags(a, 1, want, &count, NULL, NULL), JVMTI_ERROR_NONE,
              "GetObjectsWithTags with both result arrays NULL");
    CHECK_EQ(count, 1, "... still counts");
    jlong with_zero[] = {4, 0};
    CHECK_ERR((*a)->GetObjectsWithTags(a, 2, with_zero, &count, NULL, NULL),
              JVMTI_ERROR_ILLEGAL_ARGUMENT, "GetObjectsWithTags with a zero tag");
    /* Many tags (the sorted search): every odd object's tag. */
    jlong *all = malloc(sizeof *all * (size_t)(n / 2));
    for (int i = 1, k = 0; i < n; i += 2)
        all[k++] = (jlong)i * 3 + 1;
    CHECK_ERR((*a)->GetObjectsWithTags(a, n / 2, all, &count, NULL, &tags), JVMTI_ERROR_NONE,
              "GetObjectsWithTags with %d tags", n / 2);
    CHECK_EQ(count, n / 2, "... finds every object with one of them");
    (*a)->Deallocate(a, (unsigned char *)tags);
    free(all);
    (*b)->GetObjectsWithTags(b, 1, want, &count, NULL, NULL);
    CHECK_EQ(count, 0, "GetObjectsWithTags in an environment that tagged nothing");
    core_down();
}

/* ---- ObjectFree ---- */

static struct {
    jvmtiEnv *env;
    jlong tag;
} freed_log[64];
static int n_freed;

static void JNICALL on_object_free(jvmtiEnv *env, jlong tag)
{
    if (n_freed < 64) {
        freed_log[n_freed].env = env;
        freed_log[n_freed].tag = tag;
    }
    n_freed++;
}

static int freed_count(jvmtiEnv *env, jlong tag)
{
    int n = 0;
    for (int i = 0; i < n_freed && i < 64; i++)
        n += freed_log[i].env == env && freed_log[i].tag == tag;
    return n;
}

static void enable_object_free(jvmtiEnv *e)
{
    jvmtiEventCallbacks cb = {0};
    cb.ObjectFree = on_object_free;
    (*e)->SetEventCallbacks(e, &cb, (jint)sizeof cb);
    CHECK_ERR((*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_OBJECT_FREE, NULL),
              JVMTI_ERROR_NONE, "enable ObjectFree");
}

static void section_object_free(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg);
    jvmtiEnv *a = tagging_env(), *b = tagging_env(), *quiet = tagging_env();
    enable_object_free(a);
    enable_object_free(b);
    (*a)->SetTag(a, OBJ(1), 11);
    (*b)->SetTag(b, OBJ(2), 22);
    (*a)->SetTag(a, OBJ(3), 33);
    (*b)->SetTag(b, OBJ(3), 333);
    (*quiet)->SetTag(quiet, OBJ(1), 5); /* tagged, ObjectFree not enabled */
    n_freed = 0;
    uintptr_t dead[] = {objects[1].id, objects[2].id, objects[4].id /* untagged */};
    jvmtirt_objects_freed(dead, 2);
    CHECK_EQ(n_freed, 2, "freeing two objects tagged in one environment each: two ObjectFree");
    check(freed_count(a, 11) == 1 && freed_count(b, 22) == 1,
          "ObjectFree goes to the environment that tagged the object, with its tag");
    n_freed = 0;
    jvmtirt_objects_freed(&objects[3].id, 1);
    CHECK_EQ(n_freed, 2, "an object tagged in two environments: ObjectFree in each");
    check(freed_count(a, 33) == 1 && freed_count(b, 333) == 1, "... each with its own tag");
    n_freed = 0;
    jvmtirt_objects_freed(&dead[2], 1);
    CHECK_EQ(n_freed, 0, "an untagged object: no ObjectFree");
    jvmtirt_objects_freed(dead, 2);
    CHECK_EQ(n_freed, 0, "the same identities again (a new object reusing them): no ObjectFree");
    jlong tag = -1;
    (*quiet)->GetTag(quiet, OBJ(1), &tag);
    CHECK_EQ(tag, 0, "a freed object's tag is dropped where ObjectFree is not enabled too");
    (*a)->GetTag(a, OBJ(1), &tag);
    CHECK_EQ(tag, 0, "a new object at a freed identity has no tag");
    (*a)->SetEventNotificationMode(a, JVMTI_DISABLE, JVMTI_EVENT_OBJECT_FREE, NULL);
    (*a)->SetTag(a, OBJ(5), 55);
    jvmtirt_objects_freed(&objects[5].id, 1);
    CHECK_EQ(n_freed, 0, "ObjectFree disabled again: none");
    /* A disposed environment's tags are gone with it, and a new
     * environment (perhaps at its address) starts with none. */
    (*b)->SetTag(b, OBJ(6), 66);
    (*b)->DisposeEnvironment(b);
    jvmtirt_objects_freed(&objects[6].id, 1);
    CHECK_EQ(n_freed, 0, "no ObjectFree for a disposed environment's tags");
    jvmtiEnv *c = tagging_env();
    (*c)->GetTag(c, OBJ(6), &tag);
    CHECK_EQ(tag, 0, "a new environment has no tags of a disposed one");
    core_down();
}

/* ---- stress: SetTag/GetTag from many threads, GC notification, dispose ---- */

#define STRESS_OBJECTS 4096
static double stress_seconds = 1.0;
static int stop;         /* atomic */
static jvmtiEnv *shared; /* tagged by every tagger */
static long stress_bad;  /* atomic */
static long frees_seen;  /* atomic */

static void JNICALL on_free_count(jvmtiEnv *env, jlong tag)
{
    (void)env;
    if (tag <= 0)
        __atomic_add_fetch(&stress_bad, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&frees_seen, 1, __ATOMIC_RELAXED);
}

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* Each tagger owns a slice of the objects (so it knows their tags, unless
 * the collector freed them: then 0) and reads the others' freely. */
static void *tagger(void *arg)
{
    int me = (int)(intptr_t)arg;
    jvmtirt_thread_start((uintptr_t)arg + 100, JVMTIRT_JAVA_THREAD);
    unsigned s = (unsigned)me * 7919u + 1;
    int lo = me * (STRESS_OBJECTS / 4), hi = lo + STRESS_OBJECTS / 4;
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        int i = lo + (int)(rnd(&s) % (unsigned)(hi - lo));
        jlong t = (jlong)(rnd(&s) % 1000) + 1, got = -1;
        if ((*shared)->SetTag(shared, OBJ(i), t) != JVMTI_ERROR_NONE ||
            (*shared)->GetTag(shared, OBJ2(i), &got) != JVMTI_ERROR_NONE ||
            (got != t && got != 0))
            __atomic_add_fetch(&stress_bad, 1, __ATOMIC_RELAXED);
        int j = (int)(rnd(&s) % STRESS_OBJECTS);
        if ((*shared)->GetTag(shared, OBJ(j), &got) != JVMTI_ERROR_NONE || got < 0)
            __atomic_add_fetch(&stress_bad, 1, __ATOMIC_RELAXED);
        if (rnd(&s) % 64 == 0)
            (*shared)->SetTag(shared, OBJ(i), 0);
    }
    jvmtirt_thread_end();
    return NULL;
}

static void *collector(void *arg)
{
    (void)arg;
    unsigned s = 4242;
    uintptr_t batch[16];
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        for (int k = 0; k < 16; k++)
            batch[k] = objects[rnd(&s) % STRESS_OBJECTS].id;
        jvmtirt_objects_freed(batch, 16);
    }
    return NULL;
}

/* Environments that tag and are disposed while the collector runs. */
static void *churner(void *arg)
{
    (void)arg;
    jvmtirt_thread_start(999, JVMTIRT_JAVA_THREAD);
    unsigned s = 77;
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        jvmtiEnv *e = tagging_env();
        jvmtiEventCallbacks cb = {0};
        cb.ObjectFree = on_free_count;
        (*e)->SetEventCallbacks(e, &cb, (jint)sizeof cb);
        (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_OBJECT_FREE, NULL);
        for (int k = 0; k < 64; k++)
            (*e)->SetTag(e, OBJ(rnd(&s) % STRESS_OBJECTS), (jlong)k + 1);
        (*e)->DisposeEnvironment(e);
    }
    jvmtirt_thread_end();
    return NULL;
}

static void section_stress_tags(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg);
    shared = tagging_env();
    jvmtiEventCallbacks cb = {0};
    cb.ObjectFree = on_free_count;
    (*shared)->SetEventCallbacks(shared, &cb, (jint)sizeof cb);
    (*shared)->SetEventNotificationMode(shared, JVMTI_ENABLE, JVMTI_EVENT_OBJECT_FREE, NULL);
    pthread_t t[6];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, tagger, (void *)(intptr_t)i);
    pthread_create(&t[4], NULL, collector, NULL);
    pthread_create(&t[5], NULL, churner, NULL);
    struct timespec ts = {(time_t)stress_seconds,
                          (long)((stress_seconds - (double)(time_t)stress_seconds) * 1e9)};
    nanosleep(&ts, NULL);
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 6; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ(__atomic_load_n(&stress_bad, __ATOMIC_RELAXED), 0,
             "stress: concurrent SetTag/GetTag, GC notification and dispose: every answer "
             "consistent (%ld ObjectFree)", __atomic_load_n(&frees_seen, __ATOMIC_RELAXED));
    check(__atomic_load_n(&frees_seen, __ATOMIC_RELAXED) > 0,
          "stress: the collector freed tagged objects");
    jvmtirt_stats st;
    jvmtirt_get_stats(&st);
    CHECK_EQ(st.environments, 1, "stress: the churned environments are gone");
    core_down();
}

/* ---- stress: GetTag (which takes no lock) against the shard's writers ----
 * The section's objects have identities 1 KiB apart, so that each is placed
 * at a hashed slot of its own (tags.c) and they collide as in any hash
 * table. Objects of even index keep one tag (index + 1) in the round's
 * environment; the odd ones, in the same runs of the same tables, are
 * tagged and untagged over and over, from an empty map: the tables
 * grow under the readers, removals move the even objects' entries back,
 * and the even tags are set again to the same value. Readers must find
 * every even tag exactly, and an odd one either absent or index + 1. Each
 * round's environment is disposed once the readers have left it, while a
 * third thread creates and disposes environments of its own. */
#define LF_OBJECTS 16384
#define LF_RUN 10 /* keys of one run (section_stress_lock_free_run) */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
static jvmtiEnv *lf_env;  /* atomic: the round's environment, NULL between rounds */
static int lf_inside;     /* atomic: readers using lf_env */
static int lf_stop;       /* atomic */
static long lf_bad, lf_reads; /* atomic */
static int lf_run_only;   /* atomic: readers look up the first LF_RUN objects */
static object lf_objects[LF_OBJECTS];
static ref lf_refs[LF_OBJECTS], lf_other_refs[LF_OBJECTS];
#define LF_OBJ(i) ((jobject)&lf_refs[i])
#define LF_OBJ2(i) ((jobject)&lf_other_refs[i])

static void *lf_reader(void *arg)
{
    jvmtirt_thread_start((uintptr_t)arg + 300, JVMTIRT_JAVA_THREAD);
    unsigned s = (unsigned)(uintptr_t)arg * 31u + 7u;
    while (!__atomic_load_n(&lf_stop, __ATOMIC_ACQUIRE)) {
        __atomic_add_fetch(&lf_inside, 1, __ATOMIC_SEQ_CST);
        jvmtiEnv *e = __atomic_load_n(&lf_env, __ATOMIC_SEQ_CST);
        for (int k = 0; e && k < 256; k++) {
            int i = (int)(rnd(&s) % (__atomic_load_n(&lf_run_only, __ATOMIC_RELAXED) ? LF_RUN
                                                                                    : LF_OBJECTS));
            jlong got = -1;
            jvmtiError err = (*e)->GetTag(e, LF_OBJ2(i), &got);
            int fine = err == JVMTI_ERROR_NONE &&
                       (got == (jlong)i + 1 || (i % 2 == 1 && got == 0));
            if (!fine)
                __atomic_add_fetch(&lf_bad, 1, __ATOMIC_RELAXED);
            __atomic_add_fetch(&lf_reads, 1, __ATOMIC_RELAXED);
        }
        __atomic_sub_fetch(&lf_inside, 1, __ATOMIC_SEQ_CST);
    }
    jvmtirt_thread_end();
    return NULL;
}

static void *lf_disposer(void *arg)
{
    (void)arg;
    jvmtirt_thread_start(398, JVMTIRT_JAVA_THREAD);
    while (!__atomic_load_n(&lf_stop, __ATOMIC_ACQUIRE)) {
        jvmtiEnv *e = tagging_env();
        for (int i = 0; i < 512; i++)
            (*e)->SetTag(e, OBJ(i), 5);
        (*e)->DisposeEnvironment(e);
    }
    jvmtirt_thread_end();
    return NULL;
}

static void section_stress_lock_free_get(void)
{
    for (int i = 0; i < LF_OBJECTS; i++) {
        lf_objects[i].id = ((uintptr_t)i + 1) << 10;
        lf_refs[i].obj = lf_other_refs[i].obj = &lf_objects[i];
    }
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg);
    pthread_t t[3];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, lf_reader, (void *)(intptr_t)i);
    pthread_create(&t[2], NULL, lf_disposer, NULL);
    double end = now_s() + stress_seconds;
    long rounds = 0, removals = 0;
    unsigned s = 99;
    do {
        jvmtiEnv *e = tagging_env();
        for (int i = 0; i < LF_OBJECTS; i += 2)
            (*e)->SetTag(e, LF_OBJ(i), (jlong)i + 1);
        __atomic_store_n(&lf_env, e, __ATOMIC_SEQ_CST);
        for (int pass = 0; pass < 4; pass++) {
            for (int i = 1; i < LF_OBJECTS; i += 2) /* growth, then inserts */
                (*e)->SetTag(e, LF_OBJ(i), (jlong)i + 1);
            for (int k = 0; k < LF_OBJECTS; k++) { /* replacements and removals */
                int i = (int)(rnd(&s) % LF_OBJECTS);
                (*e)->SetTag(e, LF_OBJ(i), i % 2 ? 0 : (jlong)i + 1);
                removals += i % 2;
            }
            for (int i = 1; i < LF_OBJECTS; i += 2)
                (*e)->SetTag(e, LF_OBJ(i), 0);
        }
        __atomic_store_n(&lf_env, NULL, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&lf_inside, __ATOMIC_SEQ_CST) != 0)
            sched_yield();
        (*e)->DisposeEnvironment(e);
        rounds++;
    } while (now_s() < end);
    __atomic_store_n(&lf_stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    long reads = __atomic_load_n(&lf_reads, __ATOMIC_RELAXED);
    CHECK_EQ(__atomic_load_n(&lf_bad, __ATOMIC_RELAXED), 0,
             "stress: GetTag without a lock, against growth, removals, replacements and "
             "dispose: every tag found (%ld reads, %ld rounds, %ld removals)", reads, rounds,
             removals);
    check(reads > 0 && rounds > 0, "stress: the readers read while the tables changed");
    jvmtirt_stats st;
    jvmtirt_get_stats(&st);
    CHECK_EQ(st.environments, 0, "stress: every round's environment is gone");
    core_down();
}

/* The same readers against the worst case of a removal: keys that share
 * one home slot of one shard (this test repeats tags.c's placement to find
 * them: the block hash and its top bits), so that they form one run and
 * removing one that stands before the others moves each of them back one
 * slot. The writer takes an odd key out and puts it back (at the run's
 * end), over and over; the readers look up the even keys, which are never
 * untagged. A reader that did not notice a move would walk past its key. */
static uint64_t lf_mix(uintptr_t key)
{
    uint64_t h = (uint64_t)(key >> 10) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static void section_stress_lock_free_run(void)
{
    int n = 0;
    uint64_t want = lf_mix((uintptr_t)1 << 10);
    for (uintptr_t b = 1; n < LF_RUN && b < ((uintptr_t)1 << 24); b++) {
        uint64_t h = lf_mix(b << 10);
        if (h >> 58 == want >> 58 && (h & 15) == (want & 15))
            lf_objects[n++].id = b << 10;
    }
    if (n < LF_RUN) {
        check(0, "stress: %d keys of one run found (the test's search failed)", n);
        return;
    }
    for (int i = 0; i < LF_RUN; i++)
        lf_refs[i].obj = lf_other_refs[i].obj = &lf_objects[i];
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up(&cfg);
    jvmtiEnv *e = tagging_env();
    for (int i = 0; i < LF_RUN; i++)
        (*e)->SetTag(e, LF_OBJ(i), (jlong)i + 1);
    __atomic_store_n(&lf_bad, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&lf_reads, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&lf_stop, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&lf_run_only, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&lf_env, e, __ATOMIC_SEQ_CST);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, lf_reader, (void *)(intptr_t)i);
    double end = now_s() + stress_seconds / 2;
    long moves = 0;
    do {
        for (int k = 0; k < 1000; k++, moves++) {
            int i = 1 + 2 * (int)(moves % (LF_RUN / 2));
            (*e)->SetTag(e, LF_OBJ(i), 0);
            (*e)->SetTag(e, LF_OBJ(i), (jlong)i + 1);
        }
    } while (now_s() < end);
    __atomic_store_n(&lf_stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    __atomic_store_n(&lf_env, NULL, __ATOMIC_SEQ_CST);
    CHECK_EQ(__atomic_load_n(&lf_bad, __ATOMIC_RELAXED), 0,
             "stress: GetTag without a lock, keys of one run moved back by %ld removals: "
             "every tag found (%ld reads)", moves, __atomic_load_n(&lf_reads, __ATOMIC_RELAXED));
    __atomic_store_n(&lf_run_only, 0, __ATOMIC_RELAXED);
    core_down();
}

/* ---- thread-local storage ---- */

/* The test's threads: a jthread is the address of one of these chars (the
 * core's default thread identity), alive while `alive` says so. */
static char thread_objs[4];
static int alive[4]; /* atomic */
#define THREAD(i) ((jthread)(void *)&thread_objs[i])
static char not_a_thread;

static jvmtiError check_thread(jvmtiEnv *env, jthread t)
{
    (void)env;
    for (int i = 0; i < 4; i++)
        if (t == THREAD(i))
            return __atomic_load_n(&alive[i], __ATOMIC_ACQUIRE) ? JVMTI_ERROR_NONE
                                                                : JVMTI_ERROR_THREAD_NOT_ALIVE;
    if (t == (jthread)(void *)&main_thread_obj)
        return JVMTI_ERROR_NONE;
    return JVMTI_ERROR_INVALID_THREAD;
}

/* A thread of the test, known to the core as THREAD(i), that runs fn. */
typedef struct test_thread {
    int index;
    void (*fn)(struct test_thread *);
    pthread_t pt;
    void *arg;
} test_thread;

static void *test_thread_main(void *arg)
{
    test_thread *t = arg;
    jvmtirt_thread_start((uintptr_t)&thread_objs[t->index], JVMTIRT_JAVA_THREAD);
    t->fn(t);
    jvmtirt_thread_end();
    return NULL;
}

static void test_thread_start(test_thread *t, int index, void (*fn)(test_thread *), void *arg)
{
    t->index = index;
    t->fn = fn;
    t->arg = arg;
    __atomic_store_n(&alive[index], 1, __ATOMIC_RELEASE);
    pthread_create(&t->pt, NULL, test_thread_main, t);
}

static void test_thread_join(test_thread *t)
{
    pthread_join(t->pt, NULL);
    __atomic_store_n(&alive[t->index], 0, __ATOMIC_RELEASE);
}

static void core_up_threads(jvmtirt_config *cfg)
{
    cfg->check_thread = check_thread;
    core_up(cfg);
}

/* A gate: the main thread and a test thread take turns. */
static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static int gate_step;

static void gate_wait(int step)
{
    pthread_mutex_lock(&gate_mu);
    while (gate_step < step)
        pthread_cond_wait(&gate_cv, &gate_mu);
    pthread_mutex_unlock(&gate_mu);
}

static void gate_open(int step)
{
    pthread_mutex_lock(&gate_mu);
    gate_step = step;
    pthread_cond_broadcast(&gate_cv);
    pthread_mutex_unlock(&gate_mu);
}

static jvmtiEnv *tls_env;
static void *tls_seen_by_thread;

static void tls_thread(test_thread *t)
{
    (void)t;
    gate_open(1);  /* started */
    gate_wait(2);  /* the main thread set our storage */
    (*tls_env)->GetThreadLocalStorage(tls_env, NULL, &tls_seen_by_thread);
    (*tls_env)->SetThreadLocalStorage(tls_env, NULL, (void *)0x77);
    gate_open(3);
    gate_wait(4);  /* the main thread read it; we may end */
}

static void section_tls(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up_threads(&cfg);
    gate_step = 0;
    jvmtiEnv *a = new_env(), *b = new_env();
    tls_env = a;
    void *v = (void *)1;
    CHECK_ERR((*a)->GetThreadLocalStorage(a, NULL, &v), JVMTI_ERROR_NONE,
              "GetThreadLocalStorage before any Set");
    check(v == NULL, "thread-local storage is NULL until set");
    (*a)->SetThreadLocalStorage(a, NULL, (void *)0x10);
    (*b)->SetThreadLocalStorage(b, NULL, (void *)0x20);
    (*a)->GetThreadLocalStorage(a, NULL, &v);
    check(v == (void *)0x10, "Set/GetThreadLocalStorage round trip (NULL: the current thread)");
    (*b)->GetThreadLocalStorage(b, (jthread)(void *)&main_thread_obj, &v);
    check(v == (void *)0x20, "per environment: another one has its own value; the current thread named");
    (*a)->SetThreadLocalStorage(a, NULL, NULL);
    (*a)->GetThreadLocalStorage(a, NULL, &v);
    check(v == NULL, "SetThreadLocalStorage(NULL) clears it");
    (*b)->GetThreadLocalStorage(b, NULL, &v);
    check(v == (void *)0x20, "... only in that environment");
    CHECK_ERR((*a)->SetThreadLocalStorage(a, (jthread)(void *)&not_a_thread, (void *)1),
              JVMTI_ERROR_INVALID_THREAD, "SetThreadLocalStorage on what is not a thread");
    CHECK_ERR((*a)->GetThreadLocalStorage(a, (jthread)(void *)&not_a_thread, &v),
              JVMTI_ERROR_INVALID_THREAD, "GetThreadLocalStorage on what is not a thread");
    CHECK_ERR((*a)->GetThreadLocalStorage(a, THREAD(0), &v), JVMTI_ERROR_THREAD_NOT_ALIVE,
              "GetThreadLocalStorage on a thread not started");

    /* Another thread: set from here, seen there; set there, seen here. */
    test_thread t;
    test_thread_start(&t, 1, tls_thread, NULL);
    gate_wait(1);
    CHECK_ERR((*a)->SetThreadLocalStorage(a, THREAD(1), (void *)0x55), JVMTI_ERROR_NONE,
              "SetThreadLocalStorage on another thread");
    gate_open(2);
    gate_wait(3);
    check(tls_seen_by_thread == (void *)0x55, "... which sees it as its own (thread NULL)");
    (*a)->GetThreadLocalStorage(a, THREAD(1), &v);
    check(v == (void *)0x77, "what a thread sets for itself is seen from another thread");
    (*a)->GetThreadLocalStorage(a, NULL, &v);
    check(v == NULL, "... and is not the caller's own");
    gate_open(4);
    test_thread_join(&t);
    CHECK_ERR((*a)->GetThreadLocalStorage(a, THREAD(1), &v), JVMTI_ERROR_THREAD_NOT_ALIVE,
              "GetThreadLocalStorage on a thread that ended");
    __atomic_store_n(&alive[1], 1, __ATOMIC_RELEASE); /* the VM says alive, the core has no record */
    CHECK_ERR((*a)->SetThreadLocalStorage(a, THREAD(1), (void *)1), JVMTI_ERROR_THREAD_NOT_ALIVE,
              "SetThreadLocalStorage on a thread the core has no record of");
    __atomic_store_n(&alive[1], 0, __ATOMIC_RELEASE);

    /* Disposal: a new environment (often at the freed one's address) has
     * no storage of the old one. */
    (*a)->SetThreadLocalStorage(a, NULL, (void *)0x99);
    (*a)->DisposeEnvironment(a);
    jvmtiEnv *c = new_env();
    v = (void *)1;
    (*c)->GetThreadLocalStorage(c, NULL, &v);
    check(v == NULL, "a new environment has no thread-local storage of a disposed one%s",
          c == a ? " (at its address)" : "");
    (*c)->SetThreadLocalStorage(c, NULL, (void *)0x42);
    (*c)->GetThreadLocalStorage(c, NULL, &v);
    check(v == (void *)0x42, "... and can set its own");
    core_down();
}

/* Stress: a thread reading its own storage while another sets it and
 * environments come and go. */
static jvmtiEnv *tls_long;
static long tls_bad; /* atomic */

static void tls_reader(test_thread *t)
{
    (void)t;
    gate_open(1);
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        void *v = (void *)1;
        if ((*tls_long)->GetThreadLocalStorage(tls_long, NULL, &v) != JVMTI_ERROR_NONE ||
            (v != NULL && ((uintptr_t)v & 0xFFFF0000u) != 0xAB0000u))
            __atomic_add_fetch(&tls_bad, 1, __ATOMIC_RELAXED);
    }
}

static void section_stress_tls(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up_threads(&cfg);
    gate_step = 0;
    __atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
    tls_long = new_env();
    test_thread t;
    test_thread_start(&t, 2, tls_reader, NULL);
    gate_wait(1);
    double end = (double)time(NULL) + stress_seconds / 2 + 0.5;
    long rounds = 0;
    while ((double)time(NULL) < end || rounds < 100) {
        jvmtiEnv *e = new_env();
        (*e)->SetThreadLocalStorage(e, THREAD(2), (void *)0x1);
        (*tls_long)->SetThreadLocalStorage(tls_long, THREAD(2), (void *)(0xAB0000u | (rounds & 0xFFFF)));
        (*e)->DisposeEnvironment(e);
        rounds++;
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    test_thread_join(&t);
    CHECK_EQ(__atomic_load_n(&tls_bad, __ATOMIC_RELAXED), 0,
             "stress: a thread's own storage read while another thread sets it and %ld "
             "environments are disposed: always a value that was set", rounds);
    core_down();
}

/* ---- thread CPU time ---- */

static jvmtiEnv *env_with(const char *what)
{
    jvmtiEnv *e = new_env();
    jvmtiCapabilities c = {0};
    c.can_get_thread_cpu_time = strchr(what, 'c') != NULL;
    c.can_suspend = strchr(what, 's') != NULL;
#ifdef JVMTIGEN_HAS_can_support_virtual_threads
    c.can_support_virtual_threads = strchr(what, 'v') != NULL;
#endif
    if ((*e)->AddCapabilities(e, &c) != JVMTI_ERROR_NONE)
        check(0, "AddCapabilities(%s)", what);
    return e;
}

static jlong own_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (jlong)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Burns 30 ms of its own CPU time, then waits for the main thread. */
static void burner(test_thread *t)
{
    (void)t;
    volatile unsigned long x = 0;
    while (own_cpu_ns() < 30000000)
        x += 1;
    (void)x; /* the loop burns time; clang 14 counts a volatile store as no use */
    gate_open(1);
    gate_wait(2);
}

static jlong fixed_cpu_time;
static jvmtiError vm_cpu_time(uintptr_t id, jlong *nanos)
{
    *nanos = id == (uintptr_t)&thread_objs[3] ? fixed_cpu_time : -1;
    return JVMTI_ERROR_NONE;
}

static int vm_is_virtual(uintptr_t id) { return id == (uintptr_t)&thread_objs[0]; }

static void section_cpu(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    core_up_threads(&cfg);
    gate_step = 0;
    jvmtiEnv *e = env_with("c"), *none = new_env();
    jlong ns = -1, before = own_cpu_ns();
    CHECK_ERR((*e)->GetThreadCpuTime(e, NULL, &ns), JVMTI_ERROR_NONE, "GetThreadCpuTime(NULL)");
    check(ns >= before && ns <= own_cpu_ns(), "GetThreadCpuTime(NULL) is the calling thread's CPU time");
    CHECK_ERR((*none)->GetThreadCpuTime(none, NULL, &ns), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
              "GetThreadCpuTime without can_get_thread_cpu_time");
    CHECK_ERR((*e)->GetThreadCpuTime(e, NULL, NULL), JVMTI_ERROR_NULL_POINTER,
              "GetThreadCpuTime with a NULL nanos_ptr");
    CHECK_ERR((*e)->GetThreadCpuTime(e, (jthread)(void *)&not_a_thread, &ns),
              JVMTI_ERROR_INVALID_THREAD, "GetThreadCpuTime on what is not a thread");
    test_thread t;
    test_thread_start(&t, 1, burner, NULL);
    gate_wait(1);
    /* The caller's own CPU time far from the burner's, so that the two
     * cannot be mistaken for each other. */
    volatile unsigned long x = 0;
    while (own_cpu_ns() < 300000000)
        x += 1;
    (void)x; /* the loop burns time; clang 14 counts a volatile store as no use */
    ns = -1;
    CHECK_ERR((*e)->GetThreadCpuTime(e, THREAD(1), &ns), JVMTI_ERROR_NONE,
              "GetThreadCpuTime on another thread");
    check(ns >= 30000000 && ns < 250000000,
          "... is that thread's CPU time (it burned 30 ms, the caller 300 ms or more; got %.1f ms)",
          (double)ns / 1e6);
    gate_open(2);
    test_thread_join(&t);
    CHECK_ERR((*e)->GetThreadCpuTime(e, THREAD(1), &ns), JVMTI_ERROR_THREAD_NOT_ALIVE,
              "GetThreadCpuTime on a thread that ended");
    jvmtiTimerInfo info;
    memset(&info, 0x5a, sizeof info);
    CHECK_ERR((*e)->GetThreadCpuTimerInfo(e, &info), JVMTI_ERROR_NONE, "GetThreadCpuTimerInfo");
    check(info.kind == JVMTI_TIMER_TOTAL_CPU && info.max_value == -1 && !info.may_skip_forward &&
              !info.may_skip_backward,
          "GetThreadCpuTimerInfo: total CPU time of the thread, full 64 bits, no skips");
    core_down();

    /* The VM's clock and its virtual threads. */
    jvmtirt_config vm = {.size = sizeof(jvmtirt_config), .version = JVMTIRT_CONFIG_VERSION,
                         .thread_cpu_time = vm_cpu_time, .thread_is_virtual = vm_is_virtual};
    core_up_threads(&vm);
    gate_step = 0;
    e = env_with("c");
    fixed_cpu_time = 123456789;
    test_thread_start(&t, 3, burner, NULL);
    gate_wait(1);
    CHECK_ERR((*e)->GetThreadCpuTime(e, THREAD(3), &ns), JVMTI_ERROR_NONE,
              "GetThreadCpuTime through the VM's thread_cpu_time");
    CHECK_EQ(ns, 123456789, "... answers what the VM's clock says");
    gate_open(2);
    test_thread_join(&t);
    gate_step = 0;
    test_thread_start(&t, 0, burner, NULL);
    gate_wait(1);
#ifdef JVMTIGEN_HAS_GetThreadCpuTime_JVMTI_ERROR_UNSUPPORTED_OPERATION
    CHECK_ERR((*e)->GetThreadCpuTime(e, THREAD(0), &ns), JVMTI_ERROR_UNSUPPORTED_OPERATION,
              "GetThreadCpuTime on a virtual thread");
#else /* a spec before JVM TI 21 has no virtual threads: the time is answered */
    CHECK_ERR((*e)->GetThreadCpuTime(e, THREAD(0), &ns), JVMTI_ERROR_NONE,
              "GetThreadCpuTime on a thread the VM calls virtual (no such error before JVM TI 21)");
#endif
    gate_open(2);
    test_thread_join(&t);
    core_down();
}

/* ---- suspend/resume ----
 * The test's VM: threads 0-3 run "Java code" (a counter) with a safe point
 * each turn; suspend_thread makes one stop there (and waits until it has,
 * unless it is the caller), resume_thread lets it go. */

static pthread_mutex_t vm_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t vm_cv = PTHREAD_COND_INITIALIZER;
static int vm_suspended[4], vm_parked[4], vm_in_java[4]; /* under vm_mu */
static long work[4];                                     /* atomic */
static int quit_java[4];                                 /* atomic */
static long vm_suspend_calls, vm_resume_calls;           /* atomic */
static int vm_self_suspended[4];                         /* atomic: is_current seen */

static int index_of(uintptr_t id)
{
    for (int i = 0; i < 4; i++)
        if (id == (uintptr_t)&thread_objs[i])
            return i;
    return -1;
}

static jvmtiError vm_suspend(uintptr_t id, int is_current)
{
    int i = index_of(id);
    if (i < 0)
        return JVMTI_ERROR_INTERNAL;
    __atomic_add_fetch(&vm_suspend_calls, 1, __ATOMIC_SEQ_CST);
    if (is_current)
        __atomic_store_n(&vm_self_suspended[i], 1, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&vm_mu);
    vm_suspended[i] = 1;
    while (!is_current && vm_in_java[i] && !vm_parked[i])
        pthread_cond_wait(&vm_cv, &vm_mu);
    pthread_mutex_unlock(&vm_mu);
    return JVMTI_ERROR_NONE;
}

static jvmtiError vm_resume(uintptr_t id)
{
    int i = index_of(id);
    __atomic_add_fetch(&vm_resume_calls, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&vm_mu);
    vm_suspended[i] = 0;
    pthread_cond_broadcast(&vm_cv);
    pthread_mutex_unlock(&vm_mu);
    return JVMTI_ERROR_NONE;
}

static void safepoint(int i)
{
    pthread_mutex_lock(&vm_mu);
    while (vm_suspended[i]) {
        vm_parked[i] = 1;
        pthread_cond_broadcast(&vm_cv);
        pthread_cond_wait(&vm_cv, &vm_mu);
    }
    vm_parked[i] = 0;
    pthread_mutex_unlock(&vm_mu);
}

static void set_in_java(int i, int v)
{
    pthread_mutex_lock(&vm_mu);
    vm_in_java[i] = v;
    pthread_mutex_unlock(&vm_mu);
    if (v)
        safepoint(i);
}

static void java_loop(test_thread *t)
{
    int i = t->index;
    set_in_java(i, 1);
    while (!__atomic_load_n(&quit_java[i], __ATOMIC_ACQUIRE)) {
        __atomic_add_fetch(&work[i], 1, __ATOMIC_RELAXED);
        safepoint(i);
    }
    set_in_java(i, 0);
}

static long work_of(int i) { return __atomic_load_n(&work[i], __ATOMIC_RELAXED); }

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Whether thread i's counter moves within two seconds. */
static int runs(int i)
{
    long w = work_of(i);
    for (int k = 0; k < 200; k++) {
        sleep_ms(10);
        if (work_of(i) != w)
            return 1;
    }
    return 0;
}

static int stopped(int i)
{
    long w = work_of(i);
    sleep_ms(30);
    return work_of(i) == w;
}

/* Thread 3 suspends itself (alone or in a list with thread 1). */
static jvmtiEnv *susp_env;
static int self_mode;            /* 0: SuspendThread(NULL); 1: SuspendThreadList(1, 3) */
static int self_returned;        /* atomic */
static jvmtiError self_err, self_results[2];

static void self_suspender(test_thread *t)
{
    (void)t;
    gate_wait(1);
    if (self_mode == 0) {
        self_err = (*susp_env)->SuspendThread(susp_env, NULL);
    } else {
        jthread list[] = {THREAD(3), THREAD(1)};
        self_err = (*susp_env)->SuspendThreadList(susp_env, 2, list, self_results);
    }
    __atomic_store_n(&self_returned, 1, __ATOMIC_RELEASE);
}

/* Waits (up to 10 s) until the VM was told that thread 3 suspends itself. */
static int wait_self_suspended(void)
{
    for (int k = 0; k < 2000; k++) {
        if (__atomic_load_n(&vm_self_suspended[3], __ATOMIC_SEQ_CST))
            return 1;
        sleep_ms(5);
    }
    return 0;
}

/* Thread 3 runs native code while another thread suspends it, then
 * suspends and resumes others: no call of it may block, since none
 * suspends it (libjdwp's threads do this: one suspends all, another, in
 * native code, then resumes the virtual threads). */
static int others_done; /* atomic: how many of its calls returned */
static jvmtiError others_err[3], others_results[2];

static void suspended_caller(test_thread *t)
{
    (void)t;
    gate_open(1); /* the core knows it: it can be suspended */
    gate_wait(2); /* it is */
    jthread one[] = {THREAD(1)}, two[] = {THREAD(2)};
    others_err[0] = (*susp_env)->ResumeThreadList(susp_env, 1, one, &others_results[0]);
    __atomic_store_n(&others_done, 1, __ATOMIC_RELEASE);
    others_err[1] = (*susp_env)->SuspendThreadList(susp_env, 1, two, &others_results[1]);
    __atomic_store_n(&others_done, 2, __ATOMIC_RELEASE);
#ifdef JVMTIGEN_HAS_SuspendAllVirtualThreads /* JVM TI 21 on */
    others_err[2] = (*susp_env)->ResumeAllVirtualThreads(susp_env, 0, NULL);
#else
    others_err[2] = JVMTI_ERROR_NONE;
#endif
    __atomic_store_n(&others_done, 3, __ATOMIC_RELEASE);
    gate_wait(3); /* alive until resumed */
}

/* Waits (up to 10 s) until thread 3 made its three calls. */
static int others_returned(void)
{
    for (int k = 0; k < 2000 && __atomic_load_n(&others_done, __ATOMIC_ACQUIRE) < 3; k++)
        sleep_ms(5);
    return __atomic_load_n(&others_done, __ATOMIC_ACQUIRE) == 3;
}

/* Returns once thread i runs, so the core has its record: its counter
 * starts from 0 (an earlier section's count must not pass for it). */
static void start_java(test_thread *t, int i)
{
    __atomic_store_n(&quit_java[i], 0, __ATOMIC_RELEASE);
    __atomic_store_n(&work[i], 0, __ATOMIC_RELAXED);
    test_thread_start(t, i, java_loop, NULL);
    while (work_of(i) == 0)
        sleep_ms(1);
}

static void stop_java(test_thread *t, int i)
{
    __atomic_store_n(&quit_java[i], 1, __ATOMIC_RELEASE);
    test_thread_join(t);
}

static void section_suspend(void)
{
    jvmtirt_config cfg = {.size = sizeof(jvmtirt_config), .version = JVMTIRT_CONFIG_VERSION,
                          .suspend_thread = vm_suspend, .resume_thread = vm_resume,
                          .thread_is_virtual = vm_is_virtual};
    core_up_threads(&cfg);
    jvmtiEnv *e = env_with("sv"), *none = new_env();
    susp_env = e;
    test_thread t0, t1, t2, t3;
    start_java(&t1, 1);
    start_java(&t2, 2);
    CHECK_ERR((*none)->SuspendThread(none, THREAD(1)), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
              "SuspendThread without can_suspend");
    CHECK_ERR((*e)->SuspendThread(e, THREAD(1)), JVMTI_ERROR_NONE, "SuspendThread");
    check(stopped(1), "a suspended thread stops at its safe point");
    check(runs(2), "... the others run on");
    CHECK_ERR((*e)->SuspendThread(e, THREAD(1)), JVMTI_ERROR_THREAD_SUSPENDED,
              "SuspendThread of a suspended thread");
    CHECK_EQ(__atomic_load_n(&vm_suspend_calls, __ATOMIC_SEQ_CST), 1,
             "... does not ask the VM again");
    CHECK_ERR((*e)->ResumeThread(e, THREAD(1)), JVMTI_ERROR_NONE, "ResumeThread");
    check(runs(1), "a resumed thread runs again");
    CHECK_ERR((*e)->ResumeThread(e, THREAD(1)), JVMTI_ERROR_THREAD_NOT_SUSPENDED,
              "ResumeThread of a thread not suspended");
    CHECK_ERR((*e)->SuspendThread(e, (jthread)(void *)&not_a_thread), JVMTI_ERROR_INVALID_THREAD,
              "SuspendThread of what is not a thread");
    CHECK_ERR((*e)->ResumeThread(e, (jthread)(void *)&not_a_thread), JVMTI_ERROR_INVALID_THREAD,
              "ResumeThread of what is not a thread");
    CHECK_ERR((*e)->SuspendThread(e, THREAD(0)), JVMTI_ERROR_THREAD_NOT_ALIVE,
              "SuspendThread of a thread not started");
    CHECK_ERR((*e)->ResumeThread(e, THREAD(0)), JVMTI_ERROR_THREAD_NOT_ALIVE,
              "ResumeThread of a thread not started");

    /* The list forms: one result per element, the function itself NONE. */
    jthread list[] = {THREAD(1), THREAD(2), THREAD(1), (jthread)(void *)&not_a_thread, NULL,
                      THREAD(0)};
    jvmtiError r[6];
    memset(r, 0xff, sizeof r);
    CHECK_ERR((*e)->SuspendThreadList(e, 6, list, r), JVMTI_ERROR_NONE, "SuspendThreadList");
    check(r[0] == JVMTI_ERROR_NONE && r[1] == JVMTI_ERROR_NONE &&
              r[2] == JVMTI_ERROR_THREAD_SUSPENDED && r[3] == JVMTI_ERROR_INVALID_THREAD &&
              r[4] == JVMTI_ERROR_INVALID_THREAD && r[5] == JVMTI_ERROR_THREAD_NOT_ALIVE,
          "SuspendThreadList: NONE, NONE, THREAD_SUSPENDED (listed twice), INVALID_THREAD (not "
          "a thread, NULL), THREAD_NOT_ALIVE (got %s, %s, %s, %s, %s, %s)", en(r[0]), en(r[1]),
          en(r[2]), en(r[3]), en(r[4]), en(r[5]));
    check(stopped(1) && stopped(2), "... both threads stopped");
    jthread rlist[] = {THREAD(2), THREAD(2), THREAD(1)};
    CHECK_ERR((*e)->ResumeThreadList(e, 3, rlist, r), JVMTI_ERROR_NONE, "ResumeThreadList");
    check(r[0] == JVMTI_ERROR_NONE && r[1] == JVMTI_ERROR_THREAD_NOT_SUSPENDED &&
              r[2] == JVMTI_ERROR_NONE,
          "ResumeThreadList: NONE, THREAD_NOT_SUSPENDED (listed twice), NONE (got %s, %s, %s)",
          en(r[0]), en(r[1]), en(r[2]));
    check(runs(1) && runs(2), "... both threads run again");

    /* The caller suspending itself: it returns only once resumed. */
    for (self_mode = 0; self_mode < 2; self_mode++) {
        gate_step = 0;
        __atomic_store_n(&self_returned, 0, __ATOMIC_RELEASE);
        __atomic_store_n(&vm_self_suspended[3], 0, __ATOMIC_SEQ_CST);
        test_thread_start(&t3, 3, self_suspender, NULL);
        gate_open(1);
        const char *how = self_mode ? "SuspendThreadList naming the caller and another thread"
                                    : "SuspendThread(NULL)";
        check(wait_self_suspended(), "%s: the VM is told the caller suspends itself", how);
        CHECK_ERR((*e)->SuspendThread(e, THREAD(3)), JVMTI_ERROR_THREAD_SUSPENDED,
                  "%s: the caller is suspended", how);
        sleep_ms(30);
        check(!__atomic_load_n(&self_returned, __ATOMIC_ACQUIRE), "%s: ... and does not return", how);
        if (self_mode)
            check(stopped(1), "%s: the other thread was suspended too", how);
        CHECK_ERR((*e)->ResumeThread(e, THREAD(3)), JVMTI_ERROR_NONE, "%s: ResumeThread of it", how);
        test_thread_join(&t3);
        check(__atomic_load_n(&self_returned, __ATOMIC_ACQUIRE) && self_err == JVMTI_ERROR_NONE,
              "%s: returns NONE once resumed", how);
        if (self_mode) {
            check(self_results[0] == JVMTI_ERROR_NONE && self_results[1] == JVMTI_ERROR_NONE,
                  "%s: results NONE, NONE", how);
            (*e)->ResumeThread(e, THREAD(1));
        }
    }

    /* Virtual threads (thread 0 is one; 1 and 2 are not). */
    start_java(&t0, 0);

    /* A caller another thread suspended: its suspends and resumes of
     * others return (they blocked it until it was resumed). */
    gate_step = 0;
    __atomic_store_n(&others_done, 0, __ATOMIC_RELEASE);
    (*e)->SuspendThread(e, THREAD(1));
    (*e)->SuspendThread(e, THREAD(0));
    test_thread_start(&t3, 3, suspended_caller, NULL);
    gate_wait(1);
    CHECK_ERR((*e)->SuspendThread(e, THREAD(3)), JVMTI_ERROR_NONE,
              "a thread in native code suspended by another");
    gate_open(2);
    check(others_returned(), "... its ResumeThreadList, SuspendThreadList and "
                             "ResumeAllVirtualThreads of others return (%d of 3 did)",
          __atomic_load_n(&others_done, __ATOMIC_ACQUIRE));
    CHECK_ERR((*e)->ResumeThread(e, THREAD(3)), JVMTI_ERROR_NONE, "... it is still suspended");
    gate_open(3);
    test_thread_join(&t3);
    check(others_err[0] == JVMTI_ERROR_NONE && others_results[0] == JVMTI_ERROR_NONE &&
              others_err[1] == JVMTI_ERROR_NONE && others_results[1] == JVMTI_ERROR_NONE &&
              others_err[2] == JVMTI_ERROR_NONE,
          "... and answer NONE (got %s [%s], %s [%s], %s)", en(others_err[0]),
          en(others_results[0]), en(others_err[1]), en(others_results[1]), en(others_err[2]));
    check(runs(1) && stopped(2), "... thread 1 resumed, thread 2 suspended");
#ifdef JVMTIGEN_HAS_SuspendAllVirtualThreads
    check(runs(0), "... the virtual thread resumed");
#else
    (*e)->ResumeThread(e, THREAD(0));
#endif
    (*e)->ResumeThread(e, THREAD(2));
#ifdef JVMTIGEN_HAS_SuspendAllVirtualThreads /* JVM TI 21 on */
    jthread except_bad[] = {(jthread)(void *)&not_a_thread};
    CHECK_ERR((*e)->SuspendAllVirtualThreads(e, 1, except_bad), JVMTI_ERROR_INVALID_THREAD,
              "SuspendAllVirtualThreads with a non-thread in the except list");
    CHECK_ERR((*e)->SuspendAllVirtualThreads(e, 1, NULL), JVMTI_ERROR_NULL_POINTER,
              "SuspendAllVirtualThreads with except_count 1 and a NULL list");
    jthread except0[] = {THREAD(0)};
    CHECK_ERR((*e)->SuspendAllVirtualThreads(e, 1, except0), JVMTI_ERROR_NONE,
              "SuspendAllVirtualThreads except the only virtual thread");
    check(runs(0), "... it runs on");
    CHECK_ERR((*e)->SuspendAllVirtualThreads(e, 0, NULL), JVMTI_ERROR_NONE,
              "SuspendAllVirtualThreads");
    check(stopped(0) && runs(1) && runs(2), "... stops the virtual thread, not the others");
    CHECK_ERR((*e)->SuspendAllVirtualThreads(e, 0, NULL), JVMTI_ERROR_NONE,
              "SuspendAllVirtualThreads again (a suspended one does not change state)");
    (*e)->SuspendThread(e, THREAD(1));
    CHECK_ERR((*e)->ResumeAllVirtualThreads(e, 0, NULL), JVMTI_ERROR_NONE,
              "ResumeAllVirtualThreads");
    check(runs(0) && stopped(1), "... resumes the virtual thread, not a suspended platform one");
    (*e)->ResumeThread(e, THREAD(1));
#endif
    CHECK_EQ(__atomic_load_n(&vm_suspend_calls, __ATOMIC_SEQ_CST),
             __atomic_load_n(&vm_resume_calls, __ATOMIC_SEQ_CST),
             "every suspension the VM was asked for was undone by one resume");
    stop_java(&t0, 0);
    stop_java(&t1, 1);
    stop_java(&t2, 2);
    CHECK_ERR((*e)->ResumeThread(e, THREAD(1)), JVMTI_ERROR_THREAD_NOT_ALIVE,
              "ResumeThread of a thread that ended");
    core_down();

    /* No suspend operations: can_suspend is not offered (it was, and the
     * functions answered NOT_AVAILABLE); offered anyway (offer_defaults),
     * they answer NOT_AVAILABLE. */
    jvmtirt_config bare = JVMTIRT_CONFIG_INIT;
    core_up_threads(&bare);
    e = new_env();
    jvmtiCapabilities want = {0};
    want.can_suspend = 1;
    CHECK_ERR((*e)->AddCapabilities(e, &want), JVMTI_ERROR_NOT_AVAILABLE,
              "AddCapabilities(can_suspend) when the VM gives no suspend_thread operation");
    core_down();
    bare = (jvmtirt_config)JVMTIRT_CONFIG_INIT;
    bare.offer_defaults = 1;
    core_up_threads(&bare);
    e = env_with("s");
    CHECK_ERR((*e)->SuspendThread(e, NULL), JVMTI_ERROR_NOT_AVAILABLE,
              "... offered anyway (offer_defaults): SuspendThread answers NOT_AVAILABLE");
    core_down();
}

/* Stress: two controllers suspend and resume the same two threads, by one
 * and by list, while they run; a third thread suspends itself and is
 * resumed by whichever controller sees it. */
static long susp_bad; /* atomic */

static void *controller(void *arg)
{
    unsigned s = (unsigned)(uintptr_t)arg;
    jvmtirt_thread_start((uintptr_t)arg + 5000, JVMTIRT_JAVA_THREAD);
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        int i = 1 + (int)(rnd(&s) % 2);
        jvmtiError err;
        switch (rnd(&s) % 4) {
        case 0:
            err = (*susp_env)->SuspendThread(susp_env, THREAD(i));
            if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_THREAD_SUSPENDED)
                __atomic_add_fetch(&susp_bad, 1, __ATOMIC_RELAXED);
            break;
        case 1:
            err = (*susp_env)->ResumeThread(susp_env, THREAD(i));
            if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_THREAD_NOT_SUSPENDED)
                __atomic_add_fetch(&susp_bad, 1, __ATOMIC_RELAXED);
            break;
        case 2: {
            jthread l[] = {THREAD(1), THREAD(2)};
            jvmtiError r[2];
            (*susp_env)->SuspendThreadList(susp_env, 2, l, r);
            break;
        }
        default:
            (*susp_env)->ResumeThread(susp_env, THREAD(3)); /* the self-suspender */
            break;
        }
    }
    jvmtirt_thread_end();
    return NULL;
}

static int self_done; /* atomic */

static void self_suspend_loop(test_thread *t)
{
    (void)t;
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        jvmtiError err = (*susp_env)->SuspendThread(susp_env, NULL);
        if (err != JVMTI_ERROR_NONE)
            __atomic_add_fetch(&susp_bad, 1, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&self_done, 1, __ATOMIC_RELEASE);
}

static void section_stress_suspend(void)
{
    jvmtirt_config cfg = {.size = sizeof(jvmtirt_config), .version = JVMTIRT_CONFIG_VERSION,
                          .suspend_thread = vm_suspend, .resume_thread = vm_resume};
    core_up_threads(&cfg);
    susp_env = env_with("s");
    __atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&vm_suspend_calls, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&vm_resume_calls, 0, __ATOMIC_SEQ_CST);
    test_thread t1, t2, t3;
    start_java(&t1, 1);
    start_java(&t2, 2);
    test_thread_start(&t3, 3, self_suspend_loop, NULL);
    pthread_t c[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&c[i], NULL, controller, (void *)(uintptr_t)(i + 1));
    sleep_ms((long)(stress_seconds * 500));
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 2; i++)
        pthread_join(c[i], NULL);
    /* Everything resumed: the self-suspender sees `stop` once let go. */
    jthread all[] = {THREAD(1), THREAD(2)};
    jvmtiError r[2];
    (*susp_env)->ResumeThreadList(susp_env, 2, all, r);
    while (!__atomic_load_n(&self_done, __ATOMIC_ACQUIRE)) { /* it may suspend once more */
        (*susp_env)->ResumeThread(susp_env, THREAD(3));
        sleep_ms(1);
    }
    test_thread_join(&t3);
    check(runs(1) && runs(2), "stress: after the last resume both threads run");
    stop_java(&t1, 1);
    stop_java(&t2, 2);
    long sc = __atomic_load_n(&vm_suspend_calls, __ATOMIC_SEQ_CST);
    CHECK_EQ(sc, __atomic_load_n(&vm_resume_calls, __ATOMIC_SEQ_CST),
             "stress: suspend/resume races: the VM's suspensions and resumptions pair up "
             "(%ld of each)", sc);
    CHECK_EQ(__atomic_load_n(&susp_bad, __ATOMIC_RELAXED), 0,
             "stress: every suspend and resume answered as the thread's state says");
    core_down();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        stress_seconds = atof(argv[1]);
    make_objects();
    section_tag_alignments();
    section_tags();
    section_object_free();
    section_stress_tags();
    section_stress_lock_free_get();
    section_stress_lock_free_run();
    section_tls();
    section_stress_tls();
    section_cpu();
    section_suspend();
    section_stress_suspend();
    return tap_failures ? 1 : 0;
}
