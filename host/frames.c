/* The host's side of the core's frames area: what a VM does for
 * breakpoints, field watches, frame pops, the JNI function table and
 * class-loader search, and the moves every interpreter of the host makes
 * through (the built-in programs, programs.c; the -cp program, interp.c).
 *
 * A call posts MethodEntry; before each instruction it posts SingleStep,
 * then Breakpoint if that location is armed; a read or write of an armed
 * field posts FieldAccess / FieldModification; a return posts MethodExit,
 * and a frame armed for its pop calls jvmtirt_frame_popped. The core
 * decides which environments get each event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "jvmtigen_post.h"
#include "jvmtirt.h"

/* ---- what is armed: (kind, a, b) triples, as the core asked ---- */

enum { ARM_BREAKPOINT, ARM_ACCESS, ARM_MODIFY, ARM_FRAME };

typedef struct armed {
    int kind;
    uintptr_t a, b;
} armed;

static pthread_mutex_t arm_lock = PTHREAD_MUTEX_INITIALIZER;
static armed arms[256];
static int n_arms;

static int arm_find(int kind, uintptr_t a, uintptr_t b)
{
    for (int i = 0; i < n_arms; i++)
        if (arms[i].kind == kind && arms[i].a == a && arms[i].b == b)
            return i;
    return -1;
}

static jvmtiError arm_set(int kind, uintptr_t a, uintptr_t b, int on)
{
    jvmtiError err = JVMTI_ERROR_NONE;
    pthread_mutex_lock(&arm_lock);
    int i = arm_find(kind, a, b);
    if (on && i < 0 && n_arms == (int)(sizeof arms / sizeof *arms))
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    else if (on && i < 0)
        arms[n_arms++] = (armed){kind, a, b};
    else if (!on && i >= 0)
        arms[i] = arms[--n_arms];
    pthread_mutex_unlock(&arm_lock);
    return err;
}

/* Whether (kind, a, b) is armed; take = 1 also disarms it. */
static int arm_test(int kind, uintptr_t a, uintptr_t b, int take)
{
    pthread_mutex_lock(&arm_lock);
    int i = arm_find(kind, a, b);
    if (i >= 0 && take)
        arms[i] = arms[--n_arms];
    pthread_mutex_unlock(&arm_lock);
    return i >= 0;
}

/* ---- the methods' code ---- */

/* How many instructions a method has (0: native, or no code): a built-in
 * one's (builtins.c), or a class file's as the interpreter read it. */
static jlocation code_length(const host_member *m)
{
    if (m->modifiers & 0x0100) /* ACC_NATIVE */
        return 0;
    return __atomic_load_n(&m->code_length, __ATOMIC_ACQUIRE);
}

static jvmtiError breakpoint_arm(jmethodID method, jlocation location, int on)
{
    const host_member *m = (const host_member *)(const void *)method;
    if (on && (location < 0 || location >= code_length(m)))
        return JVMTI_ERROR_INVALID_LOCATION;
    return arm_set(ARM_BREAKPOINT, (uintptr_t)method, (uintptr_t)location, on);
}

/* A class's identity is its host_class: jclass references are stable. */
static jvmtiError field_watch_arm(uintptr_t class_id, jfieldID field, jvmtiEvent kind, int on)
{
    return arm_set(kind == JVMTI_EVENT_FIELD_ACCESS ? ARM_ACCESS : ARM_MODIFY, class_id,
                   (uintptr_t)field, on);
}

/* ---- frames: each thread's stack (host_thread.frames, stacks.c) ---- */

/* The core asks only about the calling thread or one it holds suspended:
 * either way the thread's frames stay put meanwhile (a suspended host
 * thread stops before its next move: suspend.c). A frame's key is its
 * height, unique among the thread's live frames. */
static jvmtiError frame_at(uintptr_t thread, jint depth, uintptr_t *frame)
{
    host_member *m;
    jint height;
    jvmtiError err = host_stack_frame((const host_thread *)thread, depth, &m, &height);
    if (err)
        return err;
    if (m->modifiers & 0x0100)
        return JVMTI_ERROR_OPAQUE_FRAME;
    *frame = (uintptr_t)height;
    return JVMTI_ERROR_NONE;
}

static void frame_pop_arm(uintptr_t thread, uintptr_t frame, int on)
{
    (void)arm_set(ARM_FRAME, thread, frame, on);
}

/* A call: MethodEntry once the frame is on the stack (depth 0 is the
 * method entered). */
void host_frames_enter(host_thread *t, host_member *m)
{
    host_stack_push(t, m);
    jvmtirt_post_MethodEntry(host_current_jni(), (jthread)&t->obj, (jmethodID)m);
}

/* A return: MethodExit, then FramePop, are posted while the frame is
 * still on the stack (depth 0 is the method returning), as HotSpot does. */
void host_frames_return_value(host_thread *t, jvalue value)
{
    host_member *m = t->frames[t->height - 1].method;
    uintptr_t frame = (uintptr_t)t->height;
    jvmtirt_post_MethodExit(host_current_jni(), (jthread)&t->obj, (jmethodID)m, JNI_FALSE, value);
    if (arm_test(ARM_FRAME, (uintptr_t)t, frame, 1))
        jvmtirt_frame_popped(host_current_jni(), (jthread)&t->obj, (jmethodID)m, JNI_FALSE, frame);
    host_stack_pop(t);
}

void host_frames_return(host_thread *t) { host_frames_return_value(t, (jvalue){.j = 0}); }

/* Before an instruction: SingleStep first, then Breakpoint, the spec's
 * order for the two at one location. */
void host_frames_step(host_thread *t, host_member *m, jlocation at)
{
    host_stack_at(t, at);
    jvmtirt_post_SingleStep(host_current_jni(), (jthread)&t->obj, (jmethodID)m, at);
    if (arm_test(ARM_BREAKPOINT, (uintptr_t)m, (uintptr_t)at, 0))
        jvmtirt_post_Breakpoint(host_current_jni(), (jthread)&t->obj, (jmethodID)m, at);
}

static jclass class_of(const host_member *m) { return (jclass)&host_classes[m->class_index].obj; }

/* A read (value NULL) or write of field f of t, at m's location at. */
void host_frames_field(host_thread *t, host_member *m, jlocation at, host_member *f,
                       const jvalue *value)
{
    jclass k = class_of(f);
    int kind = value ? ARM_MODIFY : ARM_ACCESS;
    if (!arm_test(kind, (uintptr_t)k, (uintptr_t)f, 0))
        return;
    if (value)
        jvmtirt_post_FieldModification(host_current_jni(), (jthread)&t->obj, (jmethodID)m, at, k,
                                        (jobject)&t->obj, (jfieldID)f, f->signature[0], *value);
    else
        jvmtirt_post_FieldAccess(host_current_jni(), (jthread)&t->obj, (jmethodID)m, at, k,
                                  (jobject)&t->obj, (jfieldID)f);
}

/* ---- the JNI function table ---- */

static const struct JNINativeInterface_ *jni_own; /* the host's (jni.c) */
static const struct JNINativeInterface_ *jni_now; /* atomic; NULL: the host's own */
/* Live threads, whose JNIEnv follows SetJNIFunctionTable. */
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static host_thread *live[1100];
static int n_live;

static const struct JNINativeInterface_ *host_frames_jni_table(void)
{
    const struct JNINativeInterface_ *t = __atomic_load_n(&jni_now, __ATOMIC_ACQUIRE);
    return t ? t : jni_own;
}

static void jni_table_changed(const struct JNINativeInterface_ *table)
{
    pthread_mutex_lock(&threads_lock);
    __atomic_store_n(&jni_now, table, __ATOMIC_RELEASE);
    for (int i = 0; i < n_live; i++)
        __atomic_store_n(&live[i]->jni, table, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&threads_lock);
}

void host_frames_thread_begin(host_thread *t)
{
    pthread_mutex_lock(&threads_lock);
    t->jni = host_frames_jni_table();
    if (n_live < (int)(sizeof live / sizeof *live))
        live[n_live++] = t;
    pthread_mutex_unlock(&threads_lock);
}

void host_frames_thread_end(host_thread *t)
{
    pthread_mutex_lock(&threads_lock);
    for (int i = 0; i < n_live; i++)
        if (live[i] == t)
            live[i] = live[--n_live];
    pthread_mutex_unlock(&threads_lock);
}

/* ---- class-loader search: the segments become properties ---- */

static jvmtiError class_path_append(int system, const char *segment, jvmtiPhase phase)
{
    (void)phase; /* the core checked the live phase's rule */
    const char *prop = system ? "java.class.path" : "jdk.boot.class.path.append";
    const char *old = jvmtirt_property_value(prop);
    size_t len = (old ? strlen(old) + 1 : 0) + strlen(segment) + 1;
    char *value = malloc(len);
    if (!value)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    snprintf(value, len, "%s%s%s", old && *old ? old : "", old && *old ? ":" : "", segment);
    jvmtiError err = jvmtirt_property_define(prop, value, system);
    free(value);
    return err;
}

void host_frames_configure(jvmtirt_config *c, const struct JNINativeInterface_ *own)
{
    jni_own = own;
    c->potential.can_generate_breakpoint_events = 1;
    c->potential.can_generate_field_access_events = 1;
    c->potential.can_generate_field_modification_events = 1;
    c->potential.can_generate_frame_pop_events = 1;
    c->potential.can_generate_single_step_events = 1;
    c->potential.can_generate_method_entry_events = 1;
    c->potential.can_generate_method_exit_events = 1;
    c->potential.can_set_native_method_prefix = 1;
    c->breakpoint_arm = breakpoint_arm;
    c->field_watch_arm = field_watch_arm;
    c->frame_at = frame_at;
    c->frame_pop_arm = frame_pop_arm;
    c->jni_table = host_frames_jni_table;
    c->jni_table_changed = jni_table_changed;
    c->class_path_append = class_path_append;
}
