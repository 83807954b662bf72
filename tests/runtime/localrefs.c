/* localrefs.c: the JNI contract's local-reference rule (runtime/README.md,
 * "The JNI contract") through real function tables: every local reference
 * an operation hands the core either reaches the agent or goes back to the
 * VM through config.release_ref, once, and none of those the agent got is
 * released by the core. This program plays the VM: its "local references"
 * are slots of a pool, counted, so a reference leaked or released twice
 * shows. Expected values are written by hand from the VM below. */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define TAP_PREFIX "localrefs: "
#include "tap.h"

#define EXPECT(got, want, ...) TAP_CHECK_EQ(got, want, __VA_ARGS__)

/* ---- the VM's objects, and local references to them ---- */

enum { MAIN, NEW, N_THREADS };
static char thread_objs[N_THREADS];
enum { TOP, MAIN_GROUP, SUB, N_GROUPS };
static char group_objs[N_GROUPS];
static char loader_obj, pd_obj, class_obj, sample_obj;

typedef struct ref {
    char *obj; /* NULL: free */
} ref;
static ref pool[256];
static int live;        /* references made and not released */
static int bad_release; /* releases of a free slot or of something not a reference */

static jobject mk(char *obj)
{
    for (size_t i = 0; i < sizeof pool / sizeof *pool; i++)
        if (!pool[i].obj) {
            pool[i].obj = obj;
            live++;
            return (jobject)(void *)&pool[i];
        }
    return NULL;
}

static char *deref(jobject r) { return r ? ((ref *)(void *)r)->obj : NULL; }

/* What the VM's release_ref does, and what the agent's DeleteLocalRef
 * would. */
static void release(jobject r)
{
    ref *p = (ref *)(void *)r;
    if (p < pool || p >= pool + sizeof pool / sizeof *pool || !p->obj) {
        bad_release++;
        return;
    }
    p->obj = NULL;
    live--;
}

static uintptr_t thread_id(jthread t) { return (uintptr_t)deref(t); }
static jthread thread_ref(uintptr_t id) { return mk((char *)id); }
static jvmtiError check_thread(jvmtiEnv *env, jthread t)
{
    (void)env;
    char *o = deref(t);
    return o >= thread_objs && o < thread_objs + N_THREADS ? JVMTI_ERROR_NONE
                                                           : JVMTI_ERROR_INVALID_THREAD;
}
static jvmtiError thread_info(jthread t, jvmtirt_thread_info *out)
{
    (void)t;
    out->name = "main";
    out->priority = 5;
    out->thread_group = mk(&group_objs[MAIN_GROUP]);
    out->context_class_loader = mk(&loader_obj);
    return JVMTI_ERROR_NONE;
}

/* top > main > sub; main lists MAIN (started) and NEW (never started: the
 * core leaves it out). */
static jvmtiError members(jthreadGroup group, int (*visit_thread)(void *, jthread),
                          int (*visit_group)(void *, jthreadGroup), void *arg)
{
    char *g = deref(group);
    if (!group)
        visit_group(arg, mk(&group_objs[TOP]));
    else if (g == &group_objs[MAIN_GROUP]) {
        visit_thread(arg, mk(&thread_objs[MAIN]));
        visit_thread(arg, mk(&thread_objs[NEW]));
        visit_group(arg, mk(&group_objs[SUB]));
    } else if (g != &group_objs[TOP] && g != &group_objs[SUB])
        return JVMTI_ERROR_INVALID_THREAD_GROUP;
    return JVMTI_ERROR_NONE;
}
static jvmtiError group_info(jthreadGroup group, jvmtirt_thread_group_info *out)
{
    (void)group;
    out->name = "main";
    out->max_priority = 10;
    return JVMTI_ERROR_NONE;
}

static jvmtiError class_modifiable(jclass klass, jvmtirt_class_origin *out)
{
    (void)klass;
    out->modifiable = JVMTIRT_MODIFIABLE;
    out->loader = mk(&loader_obj);
    out->protection_domain = mk(&pd_obj);
    return JVMTI_ERROR_NONE;
}
static jvmtiError install_classes(jint n, const jvmtiClassDefinition *defs, int retransform)
{
    (void)n, (void)defs, (void)retransform;
    return JVMTI_ERROR_NONE;
}

static uintptr_t object_id(jobject o) { return (uintptr_t)deref(o); }
static jobject object_ref(uintptr_t id) { return mk((char *)id); }

static jvmtiEnv *core_up(size_t size)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    c.size = size;
    c.potential.can_retransform_classes = 1;
    c.thread_id = thread_id;
    c.thread_ref = thread_ref;
    c.check_thread = check_thread;
    c.thread_info = thread_info;
    c.thread_group_members = members;
    c.thread_group_info = group_info;
    c.class_modifiable = class_modifiable;
    c.install_classes = install_classes;
    c.object_id = object_id;
    c.object_ref = object_ref;
    c.release_ref = release;
    c.sample_thread = (uintptr_t)&thread_objs[MAIN];
    c.sample_object = mk(&sample_obj);
    jvmtiError err = jvmtirt_init(&c);
    release(c.sample_object); /* the VM's own reference */
    if (err != JVMTI_ERROR_NONE)
        return NULL;
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start((uintptr_t)&thread_objs[MAIN], JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    void *penv = NULL;
    if (jvmtirt_get_env(&penv, JVMTI_VERSION_1_2) != JNI_OK)
        return NULL;
    jvmtiEnv *e = penv;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_retransform_classes = 1;
    (*e)->AddCapabilities(e, &caps);
    return e;
}

static void core_down(void)
{
    jvmtirt_thread_end();
    jvmtirt_set_phase(JVMTI_PHASE_DEAD);
    jvmtirt_shutdown();
}

int main(void)
{
    jvmtiEnv *e = core_up(sizeof(jvmtirt_config));
    if (!e) {
        tap_line(0, "the core starts");
        return 1;
    }
    EXPECT(live, 0, "jvmtirt_init released the references it made of the samples "
                    "(thread_ref, object_ref)");

    jthread *threads = NULL;
    jthreadGroup *groups = NULL, *tops = NULL;
    jint n_threads = 0, n_groups = 0, n_tops = 0;
    EXPECT((*e)->GetTopThreadGroups(e, &n_tops, &tops), JVMTI_ERROR_NONE, "GetTopThreadGroups");
    EXPECT(live, n_tops, "... every reference the VM gave is the agent's (%d)", (int)n_tops);
    jthreadGroup main_group = mk(&group_objs[MAIN_GROUP]);
    int before = live;
    EXPECT((*e)->GetThreadGroupChildren(e, main_group, &n_threads, &threads, &n_groups, &groups),
           JVMTI_ERROR_NONE, "GetThreadGroupChildren of main");
    EXPECT(n_threads, 1, "... lists the started thread alone");
    EXPECT(live - before, n_threads + n_groups,
           "... the member it leaves out (never started) went back to the VM");
    for (jint i = 0; i < n_threads; i++)
        release(threads[i]);
    for (jint i = 0; i < n_groups; i++)
        release(groups[i]);
    for (jint i = 0; i < n_tops; i++)
        release(tops[i]);
    (*e)->Deallocate(e, (unsigned char *)threads);
    (*e)->Deallocate(e, (unsigned char *)groups);
    (*e)->Deallocate(e, (unsigned char *)tops);
    EXPECT((*e)->GetThreadGroupChildren(e, (jthreadGroup)(void *)&pool[255], &n_threads, &threads,
                                        &n_groups, &groups),
           JVMTI_ERROR_INVALID_THREAD_GROUP, "GetThreadGroupChildren of no group: an error");
    release(main_group);
    EXPECT(live, 0, "... and nothing left over");

    jvmtiThreadInfo info;
    EXPECT((*e)->GetThreadInfo(e, NULL, &info), JVMTI_ERROR_NONE, "GetThreadInfo(NULL)");
    EXPECT(live, 2, "... the thread object asked for was released; the group and loader are "
                    "the agent's");
    EXPECT(deref(info.thread_group) == &group_objs[MAIN_GROUP] &&
               deref(info.context_class_loader) == &loader_obj,
           1, "... and still valid");
    release(info.thread_group);
    release(info.context_class_loader);
    (*e)->Deallocate(e, (unsigned char *)info.name);

    jclass klass = mk(&class_obj);
    jboolean modifiable = JNI_FALSE;
    EXPECT((*e)->IsModifiableClass(e, klass, &modifiable), JVMTI_ERROR_NONE, "IsModifiableClass");
    EXPECT(live, 1, "... class_modifiable's loader and protection domain were released");
    /* No bytes were kept for the class (it was never loaded through
     * jvmtirt_class_file_load): UNMODIFIABLE_CLASS, after class_modifiable. */
    EXPECT((*e)->RetransformClasses(e, 1, &klass), JVMTI_ERROR_UNMODIFIABLE_CLASS,
           "RetransformClasses of a class without kept bytes");
    EXPECT(live, 1, "... its loader and protection domain were released too");
    release(klass);
    EXPECT(bad_release, 0, "no reference was released twice, nor one the agent got");
    (*e)->DisposeEnvironment(e);
    core_down();

    /* A VM built before release_ref: the references stay in the caller's
     * frame, as documented (its native method's return frees them). */
    e = core_up(offsetof(jvmtirt_config, release_ref));
    if (!e) {
        tap_line(0, "the core starts with the older config");
        return 1;
    }
    int at_start = live;
    EXPECT((*e)->GetThreadInfo(e, NULL, &info), JVMTI_ERROR_NONE,
           "without release_ref: GetThreadInfo(NULL) works");
    EXPECT(live - at_start, 3, "... and leaves the thread object's reference to the caller");
    (*e)->Deallocate(e, (unsigned char *)info.name);
    (*e)->DisposeEnvironment(e);
    core_down();
    EXPECT(bad_release, 0, "still nothing released twice");
    return tap_failures ? 1 : 0;
}
