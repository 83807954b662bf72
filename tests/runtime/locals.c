/* locals.c: unit tests of the core's locals and frames area
 * (runtime/threads/locals.c) through real function tables: the eleven
 * local functions and PopFrame / ForceEarlyReturn* over the VM's
 * frame_slot, local_type and frame_return, with the spec's thread, depth,
 * slot and type checks; the functions without the operations; and locals
 * of a suspended thread read while other threads resume and suspend it
 * again (the read must never overlap the thread running: run under TSan).
 * This program plays the VM. Expected values are the spec's, written by
 * hand from the stacks below. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmtirt.h"

#define TAP_PREFIX "locals: "
#include "tap.h"
#include "vm_threads.h"

#define EXPECT(got, want, ...) TAP_CHECK_EQ(got, want, __VA_ARGS__)

/* ---- the VM: methods, threads and their frames ---- */

/* M_TABLE has a local variable table; M_PLAIN has none (its tags are
 * checked); M_NATIVE is a native instance method; M_STATIC a static one. */
enum { M_TABLE = 1, M_PLAIN, M_NATIVE, M_STATIC };
static char methods[5];
#define M(i) ((jmethodID)(void *)&methods[i])
static int method_no(jmethodID m) { return (int)((char *)(void *)m - methods); }

enum { MAIN, OTHER, ONE, EMPTY, WORKER, READER1, READER2, TOGGLER1, TOGGLER2, NEW, INVALID, N_THREADS };
static char thread_objs[N_THREADS];
#define T(i) ((jthread)(void *)&thread_objs[i])
static int thread_no(uintptr_t id) { return (int)((char *)id - thread_objs); }

static char objects[3];
#define OBJ(i) ((jobject)(void *)&objects[i])

#define SLOTS 8
typedef struct frame {
    int method;
    jlocation at;
    jint max_locals;
    jvalue slots[SLOTS];
    char tags[SLOTS];
    char result; /* the method's return type */
} frame;

/* Each thread's stack, top first; suspension, as the core asked. */
static frame stacks[N_THREADS][4];
static int heights[N_THREADS];
static int vm_suspended[N_THREADS];
/* What the core asked: READ, WRITE, POP and RETURN calls; the last
 * return's kind and value. */
static int acted, popped;
static char returned_type;
static jvalue returned;

static frame table_frame(void)
{
    /* M_TABLE at 3: this, a boolean, a long, (its second slot), a float, a
     * double, (its second slot), and an array variable that starts at 5 */
    frame f = {M_TABLE, 3, SLOTS, {{0}}, {0}, '['};
    f.slots[0].l = OBJ(0);
    f.slots[1].i = 1;
    f.slots[2].j = 1LL << 40;
    f.slots[4].f = 2.5f;
    f.slots[5].d = -0.125;
    return f;
}

static void vm_stacks(void)
{
    /* main, the test's own thread: M_TABLE on M_PLAIN on M_NATIVE */
    heights[MAIN] = 3;
    stacks[MAIN][0] = table_frame();
    stacks[MAIN][1] = (frame){M_PLAIN, 9, 3, {{.i = 42}, {.l = OBJ(1)}, {.i = 7}}, {'I', 'L', 0}, 'I'};
    stacks[MAIN][2] = (frame){M_NATIVE, -1, 1, {{.l = OBJ(2)}}, {'L'}, 'V'};
    /* other: a native method on top, a static one under it */
    heights[OTHER] = 2;
    stacks[OTHER][0] = (frame){M_NATIVE, -1, 1, {{.l = OBJ(2)}}, {'L'}, 'J'};
    stacks[OTHER][1] = (frame){M_STATIC, 4, 2, {{.i = 5}, {.i = 6}}, {'I', 'I'}, 'V'};
    /* one: a Java frame called from native code */
    heights[ONE] = 2;
    stacks[ONE][0] = (frame){M_PLAIN, 1, 3, {{.i = 1}}, {'I'}, 'V'};
    stacks[ONE][1] = (frame){M_NATIVE, -1, 1, {{.l = OBJ(2)}}, {'L'}, 'V'};
    heights[EMPTY] = 0;
    heights[WORKER] = 1;
    stacks[WORKER][0] = (frame){M_PLAIN, 0, 2, {{.i = 0}}, {'I', 'I'}, 'V'};
}

static jvmtiError check_thread(jvmtiEnv *env, jthread thread)
{
    (void)env;
    char *p = (char *)(void *)thread;
    if (p < thread_objs || p >= thread_objs + N_THREADS || p == (char *)T(INVALID))
        return JVMTI_ERROR_INVALID_THREAD;
    return p == (char *)T(NEW) ? JVMTI_ERROR_THREAD_NOT_ALIVE : JVMTI_ERROR_NONE;
}

/* The worker's suspension: it parks at its safe point while asked to. */
static pthread_mutex_t vm_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t vm_cv = PTHREAD_COND_INITIALIZER;
static int worker_started, worker_parked, worker_stop;

static jvmtiError suspend_thread(uintptr_t id, int is_current)
{
    int t = thread_no(id);
    pthread_mutex_lock(&vm_mu);
    vm_suspended[t] = 1;
    while (t == WORKER && !is_current && !worker_parked && !worker_stop)
        pthread_cond_wait(&vm_cv, &vm_mu);
    pthread_mutex_unlock(&vm_mu);
    return JVMTI_ERROR_NONE;
}

static jvmtiError resume_thread(uintptr_t id)
{
    pthread_mutex_lock(&vm_mu);
    vm_suspended[thread_no(id)] = 0;
    pthread_cond_broadcast(&vm_cv);
    pthread_mutex_unlock(&vm_mu);
    return JVMTI_ERROR_NONE;
}

/* The frames of a thread the core holds suspended (or the caller's own),
 * read without a lock of the VM's: the core's lock keeps it suspended. */
static jvmtiError frame_slot(uintptr_t id, int mode, jvmtirt_frame_slot *s)
{
    int t = thread_no(id);
    if (s->depth >= heights[t])
        return JVMTI_ERROR_NO_MORE_FRAMES;
    frame *f = &stacks[t][s->depth];
    switch (mode) {
    case JVMTIRT_FRAME_DESCRIBE:
        s->method = M(f->method);
        s->location = f->at;
        s->is_native = f->method == M_NATIVE;
        s->is_static = f->method == M_STATIC;
        s->max_locals = f->max_locals;
        s->tag = s->slot >= 0 && s->slot < SLOTS ? f->tags[s->slot] : 0;
        return JVMTI_ERROR_NONE;
    case JVMTIRT_FRAME_READ:
        acted++;
        s->value = f->slots[s->slot];
        return JVMTI_ERROR_NONE;
    case JVMTIRT_FRAME_WRITE:
        acted++;
        f->slots[s->slot] = s->value;
        f->tags[s->slot] = s->type;
        return JVMTI_ERROR_NONE;
    default:
        return JVMTI_ERROR_INTERNAL;
    }
}

/* M_TABLE's local variable table; M_PLAIN and the others have none. */
static jvmtiError local_type(jmethodID method, jlocation location, jint slot, char *type)
{
    static const char declared[SLOTS] = {'L', 'Z', 'J', 0, 'F', 'D', 0, '['};
    if (method_no(method) != M_TABLE)
        return JVMTI_ERROR_ABSENT_INFORMATION;
    if (!declared[slot] || (slot == 7 && location < 5))
        return JVMTI_ERROR_INVALID_SLOT;
    *type = declared[slot];
    return JVMTI_ERROR_NONE;
}

static jvmtiError frame_return(uintptr_t id, int mode, jvmtirt_frame_return *r)
{
    int t = thread_no(id);
    if (mode == JVMTIRT_FRAME_DESCRIBE) {
        r->frames = heights[t] < 2 ? heights[t] : 2;
        r->top_native = heights[t] > 0 && stacks[t][0].method == M_NATIVE;
        r->caller_native = heights[t] > 1 && stacks[t][1].method == M_NATIVE;
        r->result = heights[t] > 0 ? stacks[t][0].result : 0;
        return JVMTI_ERROR_NONE;
    }
    if (mode == JVMTIRT_FRAME_RETURN && r->type == 'L' && r->value.l == OBJ(2))
        return JVMTI_ERROR_TYPE_MISMATCH; /* OBJ(2) is no array */
    if (mode == JVMTIRT_FRAME_POP)
        popped++;
    else {
        returned_type = r->type;
        returned = r->value;
    }
    return JVMTI_ERROR_NONE;
}

/* Frame pops (NotifyFramePop): a frame's key is its height; what is armed. */
static jvmtiError frame_at(uintptr_t id, jint depth, uintptr_t *frame)
{
    int t = thread_no(id);
    if (depth >= heights[t])
        return JVMTI_ERROR_NO_MORE_FRAMES;
    *frame = (uintptr_t)(heights[t] - depth);
    return JVMTI_ERROR_NONE;
}

static int armed; /* frames armed for their pop */
static void frame_pop_arm(uintptr_t id, uintptr_t frame, int on)
{
    (void)id, (void)frame;
    armed += on ? 1 : -1;
}

static int frame_pops; /* FramePop events received */
static void JNICALL on_frame_pop(jvmtiEnv *env, JNIEnv *jni, jthread thread, jmethodID method,
                                 jboolean by_exception)
{
    (void)env, (void)jni, (void)thread, (void)method, (void)by_exception;
    frame_pops++;
}

static void vm_start(int with_ops, int offer_defaults)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    c.check_thread = check_thread;
    c.suspend_thread = suspend_thread;
    c.resume_thread = resume_thread;
    c.potential.can_suspend = 1;
    c.potential.can_access_local_variables = 1;
    c.potential.can_pop_frame = 1;
    c.potential.can_force_early_return = 1;
    c.potential.can_generate_frame_pop_events = 1;
    c.frame_at = frame_at;
    c.frame_pop_arm = frame_pop_arm;
    c.offer_defaults = offer_defaults;
    if (with_ops) {
        c.frame_slot = frame_slot;
        c.local_type = local_type;
        c.frame_return = frame_return;
    }
    if (jvmtirt_init(&c) != JVMTI_ERROR_NONE)
        tap_line(0, "jvmtirt_init refused the config");
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start((uintptr_t)T(MAIN), JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
}

static jvmtiEnv *env_new(int caps)
{
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION_1_2);
    jvmtiCapabilities want = {0};
    want.can_suspend = 1;
    want.can_access_local_variables = caps;
    want.can_pop_frame = caps;
    want.can_force_early_return = caps;
    want.can_generate_frame_pop_events = caps;
    if ((*e)->AddCapabilities(e, &want) != JVMTI_ERROR_NONE)
        tap_line(0, "AddCapabilities refused");
    return e;
}

static const vm_thread others[] = {{(uintptr_t)T(OTHER), JVMTIRT_JAVA_THREAD},
                                   {(uintptr_t)T(ONE), JVMTIRT_JAVA_THREAD},
                                   {(uintptr_t)T(EMPTY), JVMTIRT_JAVA_THREAD}};

/* ---- reading and writing locals ---- */

static void section_locals(void)
{
    vm_start(1, 0);
    jvmtiEnv *e = env_new(1);
    jint i = -1;
    jlong j = -1;
    jfloat f = -1;
    jdouble d = -1;
    jobject o = NULL;

    /* the calling thread (NULL), the frame with a table */
    EXPECT((*e)->GetLocalInt(e, NULL, 0, 1, &i), JVMTI_ERROR_NONE,
           "GetLocalInt of a boolean variable (declared Z) on the current thread");
    EXPECT(i, 1, "... reads its value");
    EXPECT((*e)->GetLocalLong(e, NULL, 0, 2, &j), JVMTI_ERROR_NONE, "GetLocalLong of a long");
    EXPECT(j, 1LL << 40, "... reads its value");
    EXPECT((*e)->GetLocalFloat(e, NULL, 0, 4, &f), JVMTI_ERROR_NONE, "GetLocalFloat of a float");
    EXPECT(f == 2.5f, 1, "... reads its value");
    EXPECT((*e)->GetLocalDouble(e, NULL, 0, 5, &d), JVMTI_ERROR_NONE,
           "GetLocalDouble of a double");
    EXPECT(d == -0.125, 1, "... reads its value");
    EXPECT((*e)->GetLocalObject(e, NULL, 0, 0, &o), JVMTI_ERROR_NONE, "GetLocalObject of this");
    EXPECT(o == OBJ(0), 1, "... reads the VM's reference");
    EXPECT((*e)->GetLocalInstance(e, NULL, 0, &o), JVMTI_ERROR_NONE,
           "GetLocalInstance of an instance method's frame");
    EXPECT(o == OBJ(0), 1, "... reads slot 0");

    EXPECT((*e)->SetLocalInt(e, NULL, 0, 1, 0), JVMTI_ERROR_NONE, "SetLocalInt of a boolean");
    EXPECT((*e)->SetLocalLong(e, NULL, 0, 2, -3), JVMTI_ERROR_NONE, "SetLocalLong");
    EXPECT((*e)->SetLocalFloat(e, NULL, 0, 4, 0.5f), JVMTI_ERROR_NONE, "SetLocalFloat");
    EXPECT((*e)->SetLocalDouble(e, NULL, 0, 5, 1e300), JVMTI_ERROR_NONE, "SetLocalDouble");
    stacks[MAIN][0].at = 6; /* the array variable lives from 5 on */
    EXPECT((*e)->SetLocalObject(e, NULL, 0, 7, OBJ(1)), JVMTI_ERROR_NONE,
           "SetLocalObject of an array variable where it lives");
    EXPECT(stacks[MAIN][0].slots[1].i == 0 && stacks[MAIN][0].slots[2].j == -3 &&
               stacks[MAIN][0].slots[4].f == 0.5f && stacks[MAIN][0].slots[5].d == 1e300 &&
               stacks[MAIN][0].slots[7].l == OBJ(1),
           1, "... each value reached the VM's frame");
    EXPECT((*e)->GetLocalObject(e, NULL, 0, 7, &o), JVMTI_ERROR_NONE, "GetLocalObject reads it back");
    EXPECT(o == OBJ(1), 1, "... the object written");
    stacks[MAIN][0].at = 3;

    /* slots: the table's, then the frame's bounds */
    acted = 0;
    EXPECT((*e)->GetLocalObject(e, NULL, 0, 7, &o), JVMTI_ERROR_INVALID_SLOT,
           "a variable that does not live at the frame's location: INVALID_SLOT");
    EXPECT((*e)->GetLocalInt(e, NULL, 0, 3, &i), JVMTI_ERROR_INVALID_SLOT,
           "a slot the table has no variable in (a long's second): INVALID_SLOT");
    EXPECT((*e)->GetLocalInt(e, NULL, 0, -1, &i), JVMTI_ERROR_INVALID_SLOT,
           "slot -1: INVALID_SLOT");
    EXPECT((*e)->GetLocalInt(e, NULL, 0, SLOTS, &i), JVMTI_ERROR_INVALID_SLOT,
           "slot max_locals: INVALID_SLOT");
    EXPECT((*e)->GetLocalLong(e, NULL, 1, 2, &j), JVMTI_ERROR_INVALID_SLOT,
           "a long in the last slot (its pair past max_locals): INVALID_SLOT");
    /* types: the table's */
    EXPECT((*e)->GetLocalObject(e, NULL, 0, 1, &o), JVMTI_ERROR_TYPE_MISMATCH,
           "GetLocalObject of a boolean variable: TYPE_MISMATCH");
    EXPECT((*e)->SetLocalInt(e, NULL, 0, 2, 9), JVMTI_ERROR_TYPE_MISMATCH,
           "SetLocalInt of a long variable: TYPE_MISMATCH");
    EXPECT((*e)->GetLocalDouble(e, NULL, 0, 4, &d), JVMTI_ERROR_TYPE_MISMATCH,
           "GetLocalDouble of a float variable: TYPE_MISMATCH");
    EXPECT((*e)->GetLocalLong(e, NULL, 0, 5, &j), JVMTI_ERROR_TYPE_MISMATCH,
           "GetLocalLong of a double variable: TYPE_MISMATCH");
    EXPECT((*e)->SetLocalFloat(e, NULL, 0, 0, 1.0f), JVMTI_ERROR_TYPE_MISMATCH,
           "SetLocalFloat of this: TYPE_MISMATCH");
    EXPECT(acted, 0, "no read or write reached the VM after a failed check");
    EXPECT(stacks[MAIN][0].slots[2].j, -3, "... the long variable is unchanged");
    /* types without a table: the VM's tags, an unknown tag unchecked */
    EXPECT((*e)->GetLocalInt(e, NULL, 1, 0, &i), JVMTI_ERROR_NONE,
           "no table: GetLocalInt of a slot tagged int");
    EXPECT(i, 42, "... reads its value");
    EXPECT((*e)->GetLocalInt(e, NULL, 1, 1, &i), JVMTI_ERROR_TYPE_MISMATCH,
           "no table: GetLocalInt of a slot tagged object: TYPE_MISMATCH");
    EXPECT((*e)->GetLocalObject(e, NULL, 1, 0, &o), JVMTI_ERROR_TYPE_MISMATCH,
           "no table: GetLocalObject of a slot tagged int: TYPE_MISMATCH");
    EXPECT((*e)->GetLocalFloat(e, NULL, 1, 2, &f), JVMTI_ERROR_NONE,
           "no table: a slot of unknown type is not checked");
    /* frames */
    EXPECT((*e)->GetLocalObject(e, NULL, 2, 0, &o), JVMTI_ERROR_OPAQUE_FRAME,
           "GetLocalObject in a native method's frame: OPAQUE_FRAME");
    EXPECT((*e)->SetLocalInt(e, NULL, 2, 0, 1), JVMTI_ERROR_OPAQUE_FRAME,
           "SetLocalInt in a native method's frame: OPAQUE_FRAME");
    EXPECT((*e)->GetLocalInstance(e, NULL, 2, &o), JVMTI_ERROR_NONE,
           "GetLocalInstance in a native instance method's frame");
    EXPECT(o == OBJ(2), 1, "... reads its receiver");
    EXPECT((*e)->GetLocalInt(e, NULL, 3, 0, &i), JVMTI_ERROR_NO_MORE_FRAMES,
           "depth past the oldest frame: NO_MORE_FRAMES");
    EXPECT((*e)->GetLocalInstance(e, NULL, 3, &o), JVMTI_ERROR_NO_MORE_FRAMES,
           "GetLocalInstance past the oldest frame: NO_MORE_FRAMES");
    EXPECT((*e)->GetLocalInt(e, NULL, -1, 0, &i), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "depth -1: ILLEGAL_ARGUMENT");
    EXPECT((*e)->GetLocalInt(e, NULL, 0, 1, NULL), JVMTI_ERROR_NULL_POINTER,
           "NULL value_ptr: NULL_POINTER");

    /* threads */
    vm_threads_start(others, 3);
    EXPECT((*e)->GetLocalInstance(e, T(OTHER), 1, &o), JVMTI_ERROR_THREAD_NOT_SUSPENDED,
           "another thread, not suspended: THREAD_NOT_SUSPENDED");
    EXPECT((*e)->SetLocalInt(e, T(OTHER), 1, 0, 1), JVMTI_ERROR_THREAD_NOT_SUSPENDED,
           "SetLocalInt on it: THREAD_NOT_SUSPENDED");
    EXPECT((*e)->SuspendThread(e, T(OTHER)), JVMTI_ERROR_NONE, "SuspendThread(other)");
    EXPECT((*e)->GetLocalInstance(e, T(OTHER), 1, &o), JVMTI_ERROR_INVALID_SLOT,
           "suspended: GetLocalInstance of a static method's frame: INVALID_SLOT");
    EXPECT((*e)->GetLocalInt(e, T(OTHER), 1, 1, &i), JVMTI_ERROR_NONE,
           "suspended: GetLocalInt in its static frame");
    EXPECT(i, 6, "... reads that thread's local");
    EXPECT((*e)->ResumeThread(e, T(OTHER)), JVMTI_ERROR_NONE, "ResumeThread(other)");
    EXPECT((*e)->GetLocalInt(e, T(OTHER), 1, 1, &i), JVMTI_ERROR_THREAD_NOT_SUSPENDED,
           "resumed: THREAD_NOT_SUSPENDED again");
    EXPECT((*e)->GetLocalInt(e, T(NEW), 0, 0, &i), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "a thread not started: THREAD_NOT_ALIVE");
    EXPECT((*e)->GetLocalInt(e, T(INVALID), 0, 0, &i), JVMTI_ERROR_INVALID_THREAD,
           "not a thread: INVALID_THREAD");
    EXPECT((*e)->GetLocalInt(e, T(MAIN), 0, 1, &i), JVMTI_ERROR_NONE,
           "the current thread named by its jthread");
    vm_threads_stop();

    /* capability and phase */
    jvmtiEnv *bare = env_new(0);
    EXPECT((*bare)->GetLocalInt(bare, NULL, 0, 1, &i), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
           "without can_access_local_variables: MUST_POSSESS_CAPABILITY");
    EXPECT((*bare)->GetLocalInstance(bare, NULL, 0, &o), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
           "GetLocalInstance without it: MUST_POSSESS_CAPABILITY");
    (*bare)->DisposeEnvironment(bare);
    jvmtirt_set_phase(JVMTI_PHASE_DEAD);
    EXPECT((*e)->GetLocalInt(e, NULL, 0, 1, &i), JVMTI_ERROR_WRONG_PHASE,
           "the dead phase: WRONG_PHASE");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
    vm_stacks();
}

/* ---- PopFrame and ForceEarlyReturn ---- */

static void section_frames(void)
{
    vm_start(1, 0);
    jvmtiEnv *e = env_new(1);
    vm_threads_start(others, 3);
    EXPECT((*e)->PopFrame(e, NULL), JVMTI_ERROR_INVALID_THREAD,
           "PopFrame(NULL): INVALID_THREAD (its thread is not null=\"current\")");
    popped = 0;
    EXPECT((*e)->PopFrame(e, T(MAIN)), JVMTI_ERROR_NONE,
           "PopFrame of the current thread, two Java frames");
    EXPECT(popped, 1, "... the VM popped once");
    /* a frame asked for its pop, then popped by PopFrame: not reported */
    jvmtiEventCallbacks cb = {0};
    cb.FramePop = on_frame_pop;
    (*e)->SetEventCallbacks(e, &cb, (jint)sizeof cb);
    (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_FRAME_POP, NULL);
    EXPECT((*e)->NotifyFramePop(e, NULL, 0), JVMTI_ERROR_NONE, "NotifyFramePop(current, 0)");
    EXPECT(armed, 1, "... the VM armed the top frame");
    EXPECT((*e)->PopFrame(e, T(MAIN)), JVMTI_ERROR_NONE, "PopFrame of that frame");
    EXPECT(armed, 0, "... the VM was told to disarm it");
    jvmtirt_frame_popped(NULL, T(MAIN), M(M_TABLE), JNI_FALSE, (uintptr_t)heights[MAIN]);
    EXPECT(frame_pops, 0, "... and a frame at the same height popping later gets no FramePop "
                          "(the spec: frames removed by PopFrame are not reported)");
    (*e)->SetEventNotificationMode(e, JVMTI_DISABLE, JVMTI_EVENT_FRAME_POP, NULL);
    EXPECT((*e)->PopFrame(e, T(OTHER)), JVMTI_ERROR_THREAD_NOT_SUSPENDED,
           "PopFrame of a running thread: THREAD_NOT_SUSPENDED");
    (*e)->SuspendThread(e, T(OTHER));
    (*e)->SuspendThread(e, T(ONE));
    (*e)->SuspendThread(e, T(EMPTY));
    EXPECT((*e)->PopFrame(e, T(OTHER)), JVMTI_ERROR_OPAQUE_FRAME,
           "PopFrame of a native method's frame: OPAQUE_FRAME");
    EXPECT((*e)->PopFrame(e, T(ONE)), JVMTI_ERROR_OPAQUE_FRAME,
           "PopFrame of a frame called from native code: OPAQUE_FRAME");
    heights[ONE] = 1;
    EXPECT((*e)->PopFrame(e, T(ONE)), JVMTI_ERROR_NO_MORE_FRAMES,
           "PopFrame of the only frame: NO_MORE_FRAMES");
    EXPECT((*e)->PopFrame(e, T(EMPTY)), JVMTI_ERROR_NO_MORE_FRAMES,
           "PopFrame of an empty stack: NO_MORE_FRAMES");
    EXPECT(popped, 2, "... none of them reached the VM (two pops so far)");

    EXPECT((*e)->ForceEarlyReturnVoid(e, T(ONE)), JVMTI_ERROR_NONE,
           "ForceEarlyReturnVoid of a void method, the only frame");
    EXPECT(returned_type, 'V', "... the VM was asked to return nothing");
    EXPECT((*e)->ForceEarlyReturnInt(e, T(ONE), 1), JVMTI_ERROR_TYPE_MISMATCH,
           "ForceEarlyReturnInt of a void method: TYPE_MISMATCH");
    EXPECT((*e)->ForceEarlyReturnVoid(e, T(EMPTY)), JVMTI_ERROR_NO_MORE_FRAMES,
           "ForceEarlyReturnVoid of an empty stack: NO_MORE_FRAMES");
    EXPECT((*e)->ForceEarlyReturnLong(e, T(OTHER), 1), JVMTI_ERROR_OPAQUE_FRAME,
           "ForceEarlyReturnLong of a native method's frame: OPAQUE_FRAME");
    EXPECT((*e)->ForceEarlyReturnVoid(e, NULL), JVMTI_ERROR_TYPE_MISMATCH,
           "ForceEarlyReturnVoid (NULL: current) of a method returning an array: TYPE_MISMATCH");
    EXPECT((*e)->ForceEarlyReturnInt(e, NULL, 3), JVMTI_ERROR_TYPE_MISMATCH,
           "ForceEarlyReturnInt of it: TYPE_MISMATCH");
    EXPECT((*e)->ForceEarlyReturnObject(e, NULL, OBJ(1)), JVMTI_ERROR_NONE,
           "ForceEarlyReturnObject of it");
    EXPECT(returned_type == 'L' && returned.l == OBJ(1), 1, "... the VM got the object");
    EXPECT((*e)->ForceEarlyReturnObject(e, NULL, OBJ(2)), JVMTI_ERROR_TYPE_MISMATCH,
           "ForceEarlyReturnObject of what the VM finds unassignable: its TYPE_MISMATCH");
    EXPECT((*e)->ForceEarlyReturnObject(e, NULL, NULL), JVMTI_ERROR_NONE,
           "ForceEarlyReturnObject(NULL): Java's null");
    stacks[MAIN][0].result = 'Z';
    EXPECT((*e)->ForceEarlyReturnInt(e, NULL, 1), JVMTI_ERROR_NONE,
           "ForceEarlyReturnInt of a boolean method");
    EXPECT(returned.i, 1, "... the VM got the value");
    EXPECT((*e)->ForceEarlyReturnFloat(e, NULL, 1), JVMTI_ERROR_TYPE_MISMATCH,
           "ForceEarlyReturnFloat of it: TYPE_MISMATCH");
    stacks[MAIN][0].result = 'D';
    EXPECT((*e)->ForceEarlyReturnDouble(e, NULL, 0.75), JVMTI_ERROR_NONE,
           "ForceEarlyReturnDouble of a double method");
    EXPECT(returned.d == 0.75, 1, "... the VM got the value");
    stacks[MAIN][0].result = 'F';
    EXPECT((*e)->ForceEarlyReturnFloat(e, NULL, 0.5f), JVMTI_ERROR_NONE,
           "ForceEarlyReturnFloat of a float method");
    stacks[MAIN][0].result = 'J';
    EXPECT((*e)->ForceEarlyReturnLong(e, NULL, -7), JVMTI_ERROR_NONE,
           "ForceEarlyReturnLong of a long method");
    EXPECT(returned.j, -7, "... the VM got the value");
    EXPECT((*e)->ForceEarlyReturnInt(e, T(NEW), 0), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "ForceEarlyReturnInt of a thread not started: THREAD_NOT_ALIVE");

    jvmtiEnv *bare = env_new(0);
    EXPECT((*bare)->PopFrame(bare, T(ONE)), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
           "PopFrame without can_pop_frame: MUST_POSSESS_CAPABILITY");
    EXPECT((*bare)->ForceEarlyReturnVoid(bare, T(ONE)), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
           "ForceEarlyReturnVoid without can_force_early_return: MUST_POSSESS_CAPABILITY");
    (*bare)->DisposeEnvironment(bare);
    (*e)->ResumeThread(e, T(OTHER));
    (*e)->ResumeThread(e, T(ONE));
    (*e)->ResumeThread(e, T(EMPTY));
    vm_threads_stop();
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
    vm_stacks();
}

/* ---- without the operations ---- */

/* Whether jvmtirt_report_defaults has a line with that text. */
static int report_says(const char *what)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    jvmtirt_report_defaults(out);
    fclose(out);
    int found = strstr(text, what) != NULL;
    free(text);
    return found;
}

static int report_names(const char *name)
{
    char want[96];
    snprintf(want, sizeof want, "function %s answers", name);
    return report_says(want);
}

static void section_not_supplied(void)
{
    vm_start(0, 0);
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION_1_2);
    jvmtiCapabilities pot;
    (*e)->GetPotentialCapabilities(e, &pot);
    /* can_access_local_variables stays: GetLocalVariableTable, which needs
     * it too, is the core's from the class files (members.c); the report
     * names the local functions left as defaults, and strict mode refuses. */
    EXPECT(pot.can_pop_frame || pot.can_force_early_return, 0,
           "no frame_slot nor frame_return: can_pop_frame and can_force_early_return are withdrawn");
    EXPECT(report_says("capability can_pop_frame withdrawn") &&
               report_says("capability can_force_early_return withdrawn") &&
               report_names("GetLocalInt"),
           1, "... and jvmtirt_report_defaults says so, and names GetLocalInt");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();

    vm_start(0, 1);
    EXPECT(report_names("GetLocalInt") && report_names("ForceEarlyReturnVoid"), 1,
           "offered anyway (offer_defaults): the report names their functions");
    e = env_new(1);
    jint i;
    EXPECT((*e)->GetLocalInt(e, NULL, 0, 1, &i), JVMTI_ERROR_NOT_AVAILABLE,
           "offered anyway (offer_defaults): GetLocalInt answers NOT_AVAILABLE");
    EXPECT((*e)->PopFrame(e, T(MAIN)), JVMTI_ERROR_NOT_AVAILABLE,
           "... PopFrame answers NOT_AVAILABLE");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();

    /* A VM compiled against the config before these operations: what lies
     * past its size (here: every operation set, the rest 0xff) is not read. */
    static jvmtirt_config old;
    memset(&old, 0xff, sizeof old);
    jvmtirt_config base = JVMTIRT_CONFIG_INIT;
    size_t before = offsetof(jvmtirt_config, frame_slot);
    memcpy(&old, &base, before);
    old.size = before;
    old.offer_defaults = 1;
    old.potential.can_access_local_variables = 1;
    old.potential.can_pop_frame = 1;
    if (jvmtirt_init(&old) != JVMTI_ERROR_NONE)
        tap_line(0, "jvmtirt_init refused the older config");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start((uintptr_t)T(MAIN), JVMTIRT_JAVA_THREAD);
    e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION_1_2);
    jvmtiCapabilities want = {0};
    want.can_access_local_variables = 1;
    want.can_pop_frame = 1;
    (*e)->AddCapabilities(e, &want);
    EXPECT((*e)->GetLocalInt(e, NULL, 0, 1, &i), JVMTI_ERROR_NOT_AVAILABLE,
           "a VM built against the config before frame_slot: GetLocalInt answers NOT_AVAILABLE");
    EXPECT((*e)->PopFrame(e, T(MAIN)), JVMTI_ERROR_NOT_AVAILABLE,
           "... and PopFrame (frame_return is past its size)");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();

    vm_start(1, 0);
    EXPECT(report_names("GetLocalInt") || report_names("SetLocalObject") ||
               report_names("GetLocalInstance") || report_names("PopFrame") ||
               report_names("ForceEarlyReturnObject"),
           0, "with the operations the report names none of them");
    jvmtirt_shutdown();
}

/* ---- a suspended thread's locals read while it is resumed ----
 * The worker runs "Java code" that writes its own local with no lock
 * between safe points; readers read that local while togglers resume and
 * suspend the worker. A read the core let through after a resume would
 * overlap the worker's writes: a data race under TSan, and an odd value
 * here (the worker only ever stores even values while it may be read). */

static int race_stop; /* atomic */
static long race_reads, race_errors; /* atomic */

static void *worker(void *arg)
{
    (void)arg;
    jvmtirt_thread_start((uintptr_t)T(WORKER), JVMTIRT_JAVA_THREAD);
    pthread_mutex_lock(&vm_mu);
    worker_started = 1;
    pthread_cond_broadcast(&vm_cv);
    pthread_mutex_unlock(&vm_mu);
    for (;;) {
        pthread_mutex_lock(&vm_mu); /* the safe point */
        while (vm_suspended[WORKER] && !worker_stop) {
            worker_parked = 1;
            pthread_cond_broadcast(&vm_cv);
            pthread_cond_wait(&vm_cv, &vm_mu);
        }
        worker_parked = 0;
        int stop = worker_stop;
        pthread_mutex_unlock(&vm_mu);
        if (stop)
            break;
        /* between safe points: odd for a moment, even again by the next */
        stacks[WORKER][0].slots[0].i++;
        stacks[WORKER][0].slots[0].i++;
    }
    jvmtirt_thread_end();
    return NULL;
}

static void *reader(void *arg)
{
    jvmtirt_thread_start((uintptr_t)arg, JVMTIRT_JAVA_THREAD);
    jvmtiEnv *e = env_new(1);
    while (!__atomic_load_n(&race_stop, __ATOMIC_ACQUIRE)) {
        jint v = 0;
        jvmtiError err = (*e)->GetLocalInt(e, T(WORKER), 0, 0, &v);
        if (err == JVMTI_ERROR_NONE) {
            __atomic_fetch_add(&race_reads, 1, __ATOMIC_RELAXED);
            if (v % 2)
                __atomic_fetch_add(&race_errors, 1, __ATOMIC_RELAXED);
        } else if (err != JVMTI_ERROR_THREAD_NOT_SUSPENDED) {
            __atomic_fetch_add(&race_errors, 1, __ATOMIC_RELAXED);
        }
    }
    (*e)->DisposeEnvironment(e);
    jvmtirt_thread_end();
    return NULL;
}

static void *toggler(void *arg)
{
    jvmtirt_thread_start((uintptr_t)arg, JVMTIRT_JAVA_THREAD);
    jvmtiEnv *e = env_new(1);
    while (!__atomic_load_n(&race_stop, __ATOMIC_ACQUIRE)) {
        /* two togglers: either may find it already suspended or resumed */
        jvmtiError s = (*e)->SuspendThread(e, T(WORKER));
        jvmtiError r = (*e)->ResumeThread(e, T(WORKER));
        if ((s != JVMTI_ERROR_NONE && s != JVMTI_ERROR_THREAD_SUSPENDED) ||
            (r != JVMTI_ERROR_NONE && r != JVMTI_ERROR_THREAD_NOT_SUSPENDED))
            __atomic_fetch_add(&race_errors, 1, __ATOMIC_RELAXED);
    }
    (*e)->DisposeEnvironment(e);
    jvmtirt_thread_end();
    return NULL;
}

static void section_race(double seconds)
{
    vm_start(1, 0);
    pthread_t w, r[2], t[2];
    pthread_create(&w, NULL, worker, NULL);
    pthread_mutex_lock(&vm_mu); /* started in the core before anyone suspends it */
    while (!worker_started)
        pthread_cond_wait(&vm_cv, &vm_mu);
    pthread_mutex_unlock(&vm_mu);
    for (int k = 0; k < 2; k++) {
        pthread_create(&r[k], NULL, reader, (void *)T(READER1 + k));
        pthread_create(&t[k], NULL, toggler, (void *)T(TOGGLER1 + k));
    }
    struct timespec ts = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
    /* at least one read of the suspended worker, however loaded the machine */
    for (int k = 0; k < 1000 && !__atomic_load_n(&race_reads, __ATOMIC_RELAXED); k++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    __atomic_store_n(&race_stop, 1, __ATOMIC_RELEASE);
    for (int k = 0; k < 2; k++) {
        pthread_join(r[k], NULL);
        pthread_join(t[k], NULL);
    }
    pthread_mutex_lock(&vm_mu);
    worker_stop = 1;
    pthread_cond_broadcast(&vm_cv);
    pthread_mutex_unlock(&vm_mu);
    pthread_join(w, NULL);
    long reads = __atomic_load_n(&race_reads, __ATOMIC_RELAXED);
    EXPECT(reads > 0, 1, "the suspended worker's local was read (%ld times) while two threads "
                         "resumed and suspended it", reads);
    EXPECT(race_errors, 0, "... every read saw it stopped at a safe point (an even value), and "
                           "every call answered as the spec says");
    jvmtirt_shutdown();
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    vm_stacks();
    section_locals();
    section_frames();
    section_not_supplied();
    section_race(argc > 1 ? atof(argv[1]) : 0.5);
    return tap_failures ? 1 : 0;
}
