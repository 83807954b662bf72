/* make bench: the cost of jvmticheck per call. Loaded through the checker,
 * this agent times the same calls on its checking environment and on an
 * environment it gets from the VM's own JavaVM (unchecked), in the same
 * run, and prints ns per call of each and the difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jvmti.h>

#include "../agentkit.h"

static jvmtiEnv *checked;
/* ROUNDS rounds of calls calls of each kind on each environment: short
 * rounds (0.5 to 3 ms), many of them, so that on a machine shared by many
 * some run undisturbed (15 rounds of 300,000 calls, 6 to 30 ms each, were
 * all preempted under a load of 15, and a row moved by 5 ns from run to
 * run). The same 4.5 million calls in all. */
#define ROUNDS 150
static long calls = 30000;

static double now(void)
{
    struct timespec ts;
    /* The thread's CPU time: on a loaded machine the time it spends
     * preempted would swamp a few ns. */
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile jint sink;

static double time_phase(jvmtiEnv *e)
{
    jvmtiPhase p;
    double t0 = now();
    for (long i = 0; i < calls; i++)
        sink = (*e)->GetPhase(e, &p);
    return (now() - t0) / (double)calls;
}

static double time_state(jvmtiEnv *e, jthread t)
{
    jint s;
    double t0 = now();
    for (long i = 0; i < calls; i++)
        sink = (*e)->GetThreadState(e, t, &s);
    return (now() - t0) / (double)calls;
}

static double time_els(jvmtiEnv *e)
{
    void *data;
    double t0 = now();
    for (long i = 0; i < calls; i++)
        sink = (*e)->GetEnvironmentLocalStorage(e, &data);
    return (now() - t0) / (double)calls;
}

static double time_tag(jvmtiEnv *e, jobject o)
{
    jlong tag;
    double t0 = now();
    for (long i = 0; i < calls; i++)
        sink = (*e)->GetTag(e, o, &tag);
    return (now() - t0) / (double)calls;
}

static double time_monitor(jvmtiEnv *e, jrawMonitorID m)
{
    double t0 = now();
    for (long i = 0; i < calls; i++)
        if ((*e)->RawMonitorEnter(e, m) == JVMTI_ERROR_NONE)
            sink = (*e)->RawMonitorExit(e, m);
    return (now() - t0) / (double)calls;
}

static double time_signature(jvmtiEnv *e, jclass k)
{
    char *sig;
    double t0 = now();
    for (long i = 0; i < calls; i++)
        if ((sink = (*e)->GetClassSignature(e, k, &sig, NULL)) == JVMTI_ERROR_NONE)
            (*e)->Deallocate(e, (unsigned char *)sig);
    return (now() - t0) / (double)calls;
}

static double least(double a, double b) { return a < b ? a : b; }

/* goal: the most the checker may add, in ns (issues 35 and 37); 0: none. */
static void report(const char *what, double direct, double through, double goal)
{
    double added = through - direct;
    printf("bench: jvmticheck %-34s HotSpot %7.1f ns, through jvmticheck %7.1f ns (%+.1f ns; thread "
           "CPU, best of %d alternating rounds",
           what, direct, through, added, ROUNDS);
    if (goal > 0)
        printf("; goal at most +%.0f ns: %s", goal, added <= goal ? "met" : "NOT met");
    printf(")\n");
}

static void JNICALL vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    JavaVM *vm;
    (*jni)->GetJavaVM(jni, &vm); /* the VM's own: its environments are unchecked */
    jvmtiEnv *direct = agentkit_env(vm, JVMTI_VERSION_1_2);
    if (!direct)
        return;
    jvmtiCapabilities tags;
    memset(&tags, 0, sizeof tags);
    tags.can_tag_objects = 1;
    (*direct)->AddCapabilities(direct, &tags);
    (*direct)->SetTag(direct, thread, 1);
    (*checked)->SetTag(checked, thread, 2);
    /* One monitor each, no other thread using it: uncontended; then 63
     * more each, as libjdwp makes dozens, its busiest among the first. */
    jrawMonitorID dm = NULL, cm = NULL, more[2][63] = {{NULL}};
    (*direct)->CreateRawMonitor(direct, "bench-direct", &dm);
    (*checked)->CreateRawMonitor(checked, "bench-checked", &cm);
    for (int i = 0; i < 63; i++) {
        (*direct)->CreateRawMonitor(direct, "bench-direct-more", &more[0][i]);
        (*checked)->CreateRawMonitor(checked, "bench-checked-more", &more[1][i]);
    }
    jclass k = (*jni)->FindClass(jni, "java/lang/String");
    /* Alternating rounds, the fastest of each kept: on a loaded machine
     * the least disturbed round is the best estimate of the cost. */
    double d[6] = {1e30, 1e30, 1e30, 1e30, 1e30, 1e30}, c[6] = {1e30, 1e30, 1e30, 1e30, 1e30, 1e30};
    for (int round = 0; round < ROUNDS; round++) {
        d[0] = least(d[0], time_phase(direct));
        c[0] = least(c[0], time_phase(checked));
        d[1] = least(d[1], time_state(direct, thread));
        c[1] = least(c[1], time_state(checked, thread));
        d[2] = least(d[2], time_els(direct));
        c[2] = least(c[2], time_els(checked));
        d[3] = least(d[3], time_tag(direct, thread));
        c[3] = least(c[3], time_tag(checked, thread));
        d[4] = least(d[4], time_monitor(direct, dm));
        c[4] = least(c[4], time_monitor(checked, cm));
        if (k) {
            d[5] = least(d[5], time_signature(direct, k));
            c[5] = least(c[5], time_signature(checked, k));
        }
    }
    report("GetPhase (any phase)", d[0], c[0], 3);
    report("GetThreadState (live, attached)", d[1], c[1], 3);
    report("GetEnvironmentLocalStorage", d[2], c[2], 3);
    report("GetTag (a tagged thread)", d[3], c[3], 0);
    report("RawMonitorEnter+Exit (uncontended, the first of 64 monitors)", d[4], c[4], 10);
    if (k)
        report("GetClassSignature+Deallocate", d[5], c[5], 15);
    (*direct)->DestroyRawMonitor(direct, dm);
    (*checked)->DestroyRawMonitor(checked, cm);
    for (int i = 0; i < 63; i++) {
        (*direct)->DestroyRawMonitor(direct, more[0][i]);
        (*checked)->DestroyRawMonitor(checked, more[1][i]);
    }
    (*direct)->DisposeEnvironment(direct);
    fflush(stdout);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    if (options && *options)
        calls = atol(options);
    if (!(checked = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return JNI_ERR;
    jvmtiCapabilities tags;
    memset(&tags, 0, sizeof tags);
    tags.can_tag_objects = 1;
    (*checked)->AddCapabilities(checked, &tags);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = vm_init;
    agentkit_events(checked, &cb, 1, (jvmtiEvent[]){JVMTI_EVENT_VM_INIT});
    return JNI_OK;
}
