/* javamonitors.c: unit tests of the Java monitor functions
 * (runtime/threads/javamonitors.c) through real function tables:
 * GetOwnedMonitorInfo, GetOwnedMonitorStackDepthInfo,
 * GetCurrentContendedMonitor and GetObjectMonitorUsage over a VM's
 * owned_monitors, contended_monitor and monitor_usage: the thread resolved
 * (NULL the caller, another live thread without suspending it, errors), the
 * arrays laid out, unknown depths as -1, virtual owners and waiters left
 * out, what a failing VM call gathered released, and a VM without the
 * operations or built before them (NOT_AVAILABLE, reported, capabilities
 * withdrawn). This program plays the VM; expected values are written by hand
 * from the spec and the model below. */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define TAP_PREFIX "javamonitors: "
#include "tap.h"
#include "defaults.h"
#include "vm_threads.h"

#define EXPECT(got, want, ...) TAP_CHECK_EQ(got, want, __VA_ARGS__)

/* ---- the VM: thread objects and monitors are the addresses of these ---- */

enum { MAIN, WORKER, WAITER, VIRTUAL, ENDING, NEW, N_THREADS };
static char thread_objs[N_THREADS];
#define T(i) ((jthread)(void *)&thread_objs[i])
enum { LOCK_A, LOCK_B, LOCK_C, LOCK_D, N_LOCKS };
static char lock_objs[N_LOCKS];
#define L(i) ((jobject)(void *)&lock_objs[i])
static char not_an_object;
static int released; /* references given back through release_ref */

/* The model: MAIN holds A (entered twice, first at depth 2) and B (depth
 * 0); WORKER holds D (through JNI: the VM says -7, any negative is
 * unknown) and waits to enter A; WAITER is in B.wait(), not notified;
 * VIRTUAL, a virtual thread, holds C and waits to enter A too; ENDING's
 * walk fails after one monitor (it ended meanwhile). */

static int is_thread(jobject o)
{
    char *p = (char *)(void *)o;
    return p >= thread_objs && p < thread_objs + N_THREADS;
}

static jvmtiError check_thread(jvmtiEnv *env, jthread thread)
{
    (void)env;
    return is_thread(thread) ? JVMTI_ERROR_NONE : JVMTI_ERROR_INVALID_THREAD;
}

static jthread thread_ref(uintptr_t id) { return (jthread)(void *)id; }
static int thread_is_virtual(uintptr_t id) { return id == (uintptr_t)T(VIRTUAL); }
static void release_ref(jobject ref)
{
    (void)ref;
    released++;
}

static jvmtiError owned_monitors(uintptr_t id, int (*visit)(void *, jobject, jint), void *arg)
{
    if (id == (uintptr_t)T(MAIN)) {
        if (!visit(arg, L(LOCK_A), 2))
            visit(arg, L(LOCK_B), 0);
    } else if (id == (uintptr_t)T(WORKER)) {
        visit(arg, L(LOCK_D), -7);
    } else if (id == (uintptr_t)T(VIRTUAL)) {
        visit(arg, L(LOCK_C), 1);
    } else if (id == (uintptr_t)T(ENDING)) {
        visit(arg, L(LOCK_C), 0);
        return JVMTI_ERROR_THREAD_NOT_ALIVE; /* it ended while walked */
    }
    return JVMTI_ERROR_NONE;
}

static jvmtiError contended_monitor(uintptr_t id, jobject *monitor)
{
    *monitor = id == (uintptr_t)T(WORKER) || id == (uintptr_t)T(VIRTUAL) ? L(LOCK_A) : NULL;
    return JVMTI_ERROR_NONE;
}

static jvmtiError monitor_usage(jobject object, uintptr_t *owner, jint *entry_count,
                                int (*visit)(void *, int, uintptr_t), void *arg)
{
    char *p = (char *)(void *)object;
    if (p < lock_objs || p >= lock_objs + N_LOCKS)
        return JVMTI_ERROR_INVALID_OBJECT;
    switch (p - lock_objs) {
    case LOCK_A:
        *owner = (uintptr_t)T(MAIN);
        *entry_count = 2;
        if (!visit(arg, 0, (uintptr_t)T(VIRTUAL)))
            visit(arg, 0, (uintptr_t)T(WORKER));
        break;
    case LOCK_B:
        *owner = (uintptr_t)T(MAIN);
        *entry_count = 1;
        visit(arg, 1, (uintptr_t)T(WAITER));
        break;
    case LOCK_C:
        *owner = (uintptr_t)T(VIRTUAL);
        *entry_count = 1;
        break;
    default:
        *owner = 0;
        *entry_count = 0;
    }
    return JVMTI_ERROR_NONE;
}

static jvmtiCapabilities monitor_caps(void)
{
    jvmtiCapabilities c;
    memset(&c, 0, sizeof c);
    c.can_get_owned_monitor_info = 1;
    c.can_get_owned_monitor_stack_depth_info = 1;
    c.can_get_current_contended_monitor = 1;
    c.can_get_monitor_info = 1;
    return c;
}

/* size: the config's (the whole struct, or a VM built before the
 * operations); with_ops: whether the VM gives them. */
static void core_up(size_t size, int with_ops, int offer_defaults)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    c.size = size;
    c.potential = monitor_caps();
    c.offer_defaults = offer_defaults;
    c.check_thread = check_thread;
    c.thread_ref = thread_ref;
    c.thread_is_virtual = thread_is_virtual;
    c.release_ref = release_ref;
    if (with_ops) {
        c.owned_monitors = owned_monitors;
        c.contended_monitor = contended_monitor;
        c.monitor_usage = monitor_usage;
    }
    if (jvmtirt_init(&c) != JVMTI_ERROR_NONE)
        tap_line(0, "jvmtirt_init refused the config");
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start((uintptr_t)T(MAIN), JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
}

static void core_down(void)
{
    jvmtirt_thread_end();
    jvmtirt_set_phase(JVMTI_PHASE_DEAD);
    jvmtirt_shutdown();
}

static jvmtiEnv *new_env(int add_caps)
{
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION);
    if (e && add_caps) {
        jvmtiCapabilities c = monitor_caps();
        EXPECT((*e)->AddCapabilities(e, &c), JVMTI_ERROR_NONE, "the four capabilities are added");
    }
    return e;
}

static void section_owned(jvmtiEnv *e)
{
    jint n = -1;
    jobject *mons = NULL;
    EXPECT((*e)->GetOwnedMonitorInfo(e, NULL, &n, &mons), JVMTI_ERROR_NONE,
           "GetOwnedMonitorInfo(NULL): the caller's");
    EXPECT(n, 2, "... two monitors (A entered twice counts once)");
    EXPECT(n == 2 && mons[0] == L(LOCK_A) && mons[1] == L(LOCK_B), 1, "... A and B, in the VM's order");
    (*e)->Deallocate(e, (unsigned char *)mons);

    jvmtiMonitorStackDepthInfo *info = NULL;
    EXPECT((*e)->GetOwnedMonitorStackDepthInfo(e, T(MAIN), &n, &info), JVMTI_ERROR_NONE,
           "GetOwnedMonitorStackDepthInfo(main)");
    EXPECT(n == 2 && info[0].monitor == L(LOCK_A) && info[0].stack_depth == 2 &&
               info[1].monitor == L(LOCK_B) && info[1].stack_depth == 0,
           1, "... A at depth 2, B at depth 0");
    (*e)->Deallocate(e, (unsigned char *)info);
    EXPECT((*e)->GetOwnedMonitorStackDepthInfo(e, T(WORKER), &n, &info), JVMTI_ERROR_NONE,
           "GetOwnedMonitorStackDepthInfo of another thread, not suspended");
    EXPECT(n == 1 && info[0].monitor == L(LOCK_D) && info[0].stack_depth == -1, 1,
           "... D, its depth unknown: -1 (the VM said -7)");
    (*e)->Deallocate(e, (unsigned char *)info);
    EXPECT((*e)->GetOwnedMonitorInfo(e, T(WAITER), &n, &mons), JVMTI_ERROR_NONE,
           "GetOwnedMonitorInfo of a thread holding nothing");
    EXPECT(n, 0, "... none");
    (*e)->Deallocate(e, (unsigned char *)mons);

    EXPECT((*e)->GetOwnedMonitorInfo(e, T(NEW), &n, &mons), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "a thread not started: THREAD_NOT_ALIVE");
    EXPECT((*e)->GetOwnedMonitorInfo(e, (jthread)(void *)&not_an_object, &n, &mons),
           JVMTI_ERROR_INVALID_THREAD, "not a thread: INVALID_THREAD");
    int before = released;
    EXPECT((*e)->GetOwnedMonitorStackDepthInfo(e, T(ENDING), &n, &info),
           JVMTI_ERROR_THREAD_NOT_ALIVE, "a thread ending while walked: the VM's THREAD_NOT_ALIVE");
    EXPECT(released - before, 1, "... the monitor it had visited went back through release_ref");
    before = released;
    EXPECT((*e)->GetOwnedMonitorInfo(e, T(ENDING), &n, &mons), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "... GetOwnedMonitorInfo too");
    EXPECT(released - before, 1, "... released too");

    jobject m = L(LOCK_C);
    EXPECT((*e)->GetCurrentContendedMonitor(e, T(WORKER), &m), JVMTI_ERROR_NONE,
           "GetCurrentContendedMonitor(worker)");
    EXPECT(m == L(LOCK_A), 1, "... A, which it waits to enter");
    EXPECT((*e)->GetCurrentContendedMonitor(e, NULL, &m), JVMTI_ERROR_NONE,
           "GetCurrentContendedMonitor(NULL)");
    EXPECT(m == NULL, 1, "... none: NULL");
    EXPECT((*e)->GetCurrentContendedMonitor(e, T(NEW), &m), JVMTI_ERROR_THREAD_NOT_ALIVE,
           "... of a thread not started: THREAD_NOT_ALIVE");
}

static void section_usage(jvmtiEnv *e)
{
    jvmtiMonitorUsage u;
    memset(&u, 0x55, sizeof u);
    EXPECT((*e)->GetObjectMonitorUsage(e, L(LOCK_A), &u), JVMTI_ERROR_NONE,
           "GetObjectMonitorUsage(A)");
    EXPECT(u.owner == T(MAIN) && u.entry_count == 2, 1, "... owned by main, entered twice");
    EXPECT(u.waiter_count == 1 && u.waiters && u.waiters[0] == T(WORKER), 1,
           "... one waiter: the worker (the virtual thread left out)");
    EXPECT(u.notify_waiter_count == 0 && u.notify_waiters == NULL, 1, "... nobody to notify");
    (*e)->Deallocate(e, (unsigned char *)u.waiters);
    (*e)->Deallocate(e, (unsigned char *)u.notify_waiters);

    EXPECT((*e)->GetObjectMonitorUsage(e, L(LOCK_B), &u), JVMTI_ERROR_NONE,
           "GetObjectMonitorUsage(B)");
    EXPECT(u.owner == T(MAIN) && u.entry_count == 1 && u.waiter_count == 0 && u.waiters == NULL,
           1, "... owned by main once, no waiter");
    EXPECT(u.notify_waiter_count == 1 && u.notify_waiters && u.notify_waiters[0] == T(WAITER), 1,
           "... the waiter in B.wait() to notify");
    (*e)->Deallocate(e, (unsigned char *)u.waiters);
    (*e)->Deallocate(e, (unsigned char *)u.notify_waiters);

    EXPECT((*e)->GetObjectMonitorUsage(e, L(LOCK_C), &u), JVMTI_ERROR_NONE,
           "GetObjectMonitorUsage(C), owned by a virtual thread");
    EXPECT(u.owner == NULL && u.entry_count == 0, 1, "... no owner, no count (the spec)");
    EXPECT((*e)->GetObjectMonitorUsage(e, L(LOCK_D), &u), JVMTI_ERROR_NONE,
           "GetObjectMonitorUsage of a monitor nobody holds");
    EXPECT(u.owner == NULL && u.entry_count == 0 && u.waiter_count == 0 &&
               u.notify_waiter_count == 0,
           1, "... all empty");
    EXPECT((*e)->GetObjectMonitorUsage(e, (jobject)(void *)&not_an_object, &u),
           JVMTI_ERROR_INVALID_OBJECT, "not an object: the VM's INVALID_OBJECT");
}

int main(void)
{
    static const vm_thread others[] = {{(uintptr_t)T(WORKER), JVMTIRT_JAVA_THREAD},
                                       {(uintptr_t)T(WAITER), JVMTIRT_JAVA_THREAD},
                                       {(uintptr_t)T(VIRTUAL), JVMTIRT_JAVA_THREAD},
                                       {(uintptr_t)T(ENDING), JVMTIRT_JAVA_THREAD}};
    core_up(sizeof(jvmtirt_config), 1, 0);
    jvmtiEnv *e = new_env(1);
    jvmtiEnv *bare = new_env(0);
    jint n;
    jobject *mons;
    EXPECT((*bare)->GetOwnedMonitorInfo(bare, NULL, &n, &mons),
           JVMTI_ERROR_MUST_POSSESS_CAPABILITY, "without the capability: MUST_POSSESS_CAPABILITY");
    vm_threads_start(others, 4);
    section_owned(e);
    section_usage(e);
    vm_threads_stop();
    (*bare)->DisposeEnvironment(bare);
    (*e)->DisposeEnvironment(e);
    core_down();

    /* Without the operations: the capabilities withdrawn, the functions
     * reported; with offer_defaults they answer NOT_AVAILABLE. */
    core_up(sizeof(jvmtirt_config), 0, 0);
    e = new_env(0);
    jvmtiCapabilities pot;
    (*e)->GetPotentialCapabilities(e, &pot);
    EXPECT(pot.can_get_owned_monitor_info || pot.can_get_owned_monitor_stack_depth_info ||
               pot.can_get_current_contended_monitor || pot.can_get_monitor_info,
           0, "no operations: none of the four capabilities is offered");
    EXPECT(defaults_reported("capability can_get_owned_monitor_info withdrawn",
                             "config.owned_monitors") &&
               defaults_reported("capability can_get_owned_monitor_stack_depth_info withdrawn",
                                 "config.owned_monitors") &&
               defaults_reported("capability can_get_current_contended_monitor withdrawn",
                                 "config.contended_monitor") &&
               defaults_reported("capability can_get_monitor_info withdrawn",
                                 "config.monitor_usage"),
           1, "... and jvmtirt_report_defaults names each, with the operation it lacks");
    (*e)->DisposeEnvironment(e);
    core_down();
    core_up(sizeof(jvmtirt_config), 0, 1);
    e = new_env(1);
    EXPECT((*e)->GetOwnedMonitorInfo(e, NULL, &n, &mons), JVMTI_ERROR_NOT_AVAILABLE,
           "offer_defaults: GetOwnedMonitorInfo answers NOT_AVAILABLE");
    jvmtiMonitorUsage u;
    EXPECT((*e)->GetObjectMonitorUsage(e, L(LOCK_A), &u), JVMTI_ERROR_NOT_AVAILABLE,
           "... GetObjectMonitorUsage too");
    (*e)->DisposeEnvironment(e);
    core_down();

    /* A VM built before the operations: the fields past its size are NULL. */
    core_up(offsetof(jvmtirt_config, owned_monitors), 1, 0);
    e = new_env(0);
    (*e)->GetPotentialCapabilities(e, &pot);
    EXPECT(pot.can_get_monitor_info, 0,
           "a config built before the operations: can_get_monitor_info withdrawn");
    (*e)->DisposeEnvironment(e);
    core_down();
    return tap_failures ? 1 : 0;
}
