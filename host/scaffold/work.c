/* -work:SECONDS: each worker, after its program, runs "Java code" for that
 * long (a loop with a safe point every turn): what an agent can suspend
 * and watch stop (tests/host/objects_agent.c). The VM's side of it is
 * suspend.c's: host_java_enter, host_safepoint, host_java_leave. */
#include <stdlib.h>
#include <time.h>

#include "scaffold.h"

static double seconds; /* 0: no -work */

int work_option(const char *arg)
{
    char *end;
    seconds = strtod(arg, &end);
    return !*end && seconds > 0 && seconds <= 3600;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void work_run(host_thread *t)
{
    if (seconds <= 0)
        return;
    host_java_enter(t); /* entering Java is a safe point */
    double end = seconds_now() + seconds;
    volatile unsigned long work = 0;
    while (seconds_now() < end) {
        for (int i = 0; i < 1000; i++)
            work += (unsigned long)i;
        if (__atomic_load_n(&t->suspended, __ATOMIC_ACQUIRE))
            host_safepoint(t);
    }
    (void)work; /* the loop's work is only to take time */
    host_java_leave(t);
}
