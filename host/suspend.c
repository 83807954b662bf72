/* Suspension in the host: the core's suspend_thread / resume_thread
 * operations, and the safe points where a suspended thread stops.
 *
 * A host thread runs "Java code" between host_java_enter and
 * host_java_leave (the -work loop of the test scaffolding,
 * scaffold/work.c), passing a safe point every turn, and moves its
 * interpreter's stack (a
 * call, a step, a return: stacks.c), each move a safe point (and
 * host_safepoint is one outside a move: the main thread's before it loads
 * the -cp program); everywhere
 * else (posting events, agents' callbacks, JVM TI) it is in native code,
 * which counts as stopped: suspending it returns at once, and it stops at
 * its next move. A move holds this lock from its safe point to its end, so
 * once SuspendThread returns the thread's frames stay as they are until it
 * is resumed (what GetFrameLocation and NotifyFramePop of a suspended
 * thread rely on). One mutex and condition variable serve every thread
 * (the host is small). */
#include "host.h"
#include "jvmtirt.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

/* Stops here while suspended. Under lock. */
static void safepoint_locked(host_thread *t)
{
    while (t->suspended) {
        t->parked = 1;
        pthread_cond_broadcast(&changed);
        pthread_cond_wait(&changed, &lock);
    }
    t->parked = 0;
}

void host_move_begin(host_thread *t)
{
    pthread_mutex_lock(&lock);
    safepoint_locked(t);
}

void host_move_end(void) { pthread_mutex_unlock(&lock); }

void host_safepoint(host_thread *t)
{
    pthread_mutex_lock(&lock);
    safepoint_locked(t);
    pthread_mutex_unlock(&lock);
}

jvmtiError host_suspend_thread(uintptr_t id, int is_current)
{
    host_thread *t = (host_thread *)id;
    pthread_mutex_lock(&lock);
    __atomic_store_n(&t->suspended, 1, __ATOMIC_RELEASE);
    /* Another thread running Java: wait until it has stopped. */
    while (!is_current && t->in_java && !t->parked)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    return JVMTI_ERROR_NONE;
}

jvmtiError host_resume_thread(uintptr_t id)
{
    host_thread *t = (host_thread *)id;
    pthread_mutex_lock(&lock);
    __atomic_store_n(&t->suspended, 0, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    return JVMTI_ERROR_NONE;
}

/* Entering Java is a safe point; from then on SuspendThread waits for the
 * thread to reach its next one (the thread polls: host_safepoint). */
void host_java_enter(host_thread *t)
{
    pthread_mutex_lock(&lock);
    t->in_java = 1;
    safepoint_locked(t);
    pthread_mutex_unlock(&lock);
}

void host_java_leave(host_thread *t)
{
    pthread_mutex_lock(&lock);
    t->in_java = 0;
    pthread_cond_broadcast(&changed); /* a suspender waiting for it may stop waiting */
    pthread_mutex_unlock(&lock);
}
