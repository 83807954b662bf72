/* Cost of a JVM TI call through a generated trampoline: GetLoadedClasses
 * (live phase, attached thread, valid environment, two checked pointers)
 * called through jvmtigen_functions and through jvmtigen_traced_functions
 * with tracing off, against a direct call of the same implementation.
 * Rounds interleave the three loops; the best round of each counts. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "jvmti.h"
#include "hooks.h" /* jvmtigen_set_phase, jvmtigen_thread_attached: no core here */
#include "jvmtigen_impl.h"
#include "jvmtigen_tables.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile int sink;

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000000L;
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    static jvmtigen_env_head head;
    jvmtiEnv *env = (jvmtiEnv *)(void *)&head;
    jint count;
    jclass *classes;
    double best[3] = {1e300, 1e300, 1e300};

    head.magic = JVMTIGEN_ENV_MAGIC;
    jvmtigen_set_phase(JVMTI_PHASE_LIVE);
    jvmtigen_thread_attached(JVMTIRT_JAVA_THREAD);

    /* The trampoline must reach the implementation: one checked call. */
    head.functions = &jvmtigen_functions;
    if ((*env)->GetLoadedClasses(env, &count, &classes) !=
        jvmti_impl_GetLoadedClasses(env, &count, &classes) ||
        (*env)->GetLoadedClasses(env, NULL, &classes) != JVMTI_ERROR_NULL_POINTER) {
        fprintf(stderr, "bench: the trampoline does not behave\n");
        return 1;
    }
    for (int r = 0; r < rounds; r++) {
        int acc = 0;
        double t0 = now_ns();
        for (long i = 0; i < n; i++)
            acc += jvmti_impl_GetLoadedClasses(env, &count, &classes);
        double t1 = now_ns();
        head.functions = &jvmtigen_functions;
        for (long i = 0; i < n; i++)
            acc += (*env)->GetLoadedClasses(env, &count, &classes);
        double t2 = now_ns();
        head.functions = &jvmtigen_traced_functions;
        for (long i = 0; i < n; i++)
            acc += (*env)->GetLoadedClasses(env, &count, &classes);
        double t3 = now_ns();
        sink = acc;
        double d[3] = {(t1 - t0) / n, (t2 - t1) / n, (t3 - t2) / n};
        for (int k = 0; k < 3; k++)
            if (d[k] < best[k])
                best[k] = d[k];
    }
    printf("bench: direct call of the implementation %7.2f ns/call\n", best[0]);
    printf("bench: through the trampoline             %7.2f ns/call (%+.2f ns; goal: at most +2)\n",
           best[1], best[1] - best[0]);
    printf("bench: tracing table, tracing off         %7.2f ns/call (%+.2f ns over the trampoline; "
           "goal: at most +1)\n", best[2], best[2] - best[1]);
    return 0;
}
