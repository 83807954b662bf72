/* monitor_limits.c: raw monitors at the edges of time and number.
 *
 *   - A timed RawMonitorWait must measure a monotonic clock. This program
 *     defines clock_gettime itself, so every caller linked into it (the
 *     core included, from the static library) reads a wall clock 30 s
 *     ahead of the kernel's: a wait whose deadline is taken from the wall
 *     clock then lasts 30 s more than asked; one on CLOCK_MONOTONIC does not.
 *   - More raw monitors than the old fixed table held (1,048,576) can be
 *     created, used and destroyed (HotSpot has no such limit).
 *
 * usage: monitor_limits [--few]   (--few: not the million monitors, which
 * ThreadSanitizer, tracking every mutex, takes minutes over)
 * Prints TAP-like lines (tests/lib.sh). */
#define _GNU_SOURCE /* syscall */

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jvmtigen_impl.h"
#include "jvmtirt.h"

#define WALL_AHEAD_S 30

/* Interposes libc's: the kernel's answer, the wall clock moved ahead. */
int clock_gettime(clockid_t clock, struct timespec *ts)
{
    long r = syscall(SYS_clock_gettime, clock, ts);
    if (r == 0 && clock == CLOCK_REALTIME)
        ts->tv_sec += WALL_AHEAD_S;
    return (int)r;
}

static int failures;

static void line(int ok, const char *what)
{
    printf("%s - runtime: %s\n", ok ? "ok" : "not ok", what);
    fflush(stdout);
    failures += !ok;
}

static long long monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char main_obj;

int main(int argc, char **argv)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    if (jvmtirt_init(&cfg) != JVMTI_ERROR_NONE)
        return 1;
    jvmtirt_thread_start((uintptr_t)&main_obj, JVMTIRT_JAVA_THREAD);
    void *p = NULL;
    if (jvmtirt_get_env(&p, JVMTI_VERSION) != JNI_OK || !p) {
        line(0, "monitor limits: jvmtirt_get_env gives an environment");
        return 1;
    }
    jvmtiEnv *e = p;

    /* The wall clock is 30 s ahead: a 200 ms wait must still take ~200 ms
     * (the 5 s bound leaves room for a loaded machine and sanitizers). */
    jrawMonitorID m = NULL;
    jvmtiError err = (*e)->CreateRawMonitor(e, "timed", &m);
    err = err ? err : (*e)->RawMonitorEnter(e, m);
    long long t0 = monotonic_ms();
    err = err ? err : (*e)->RawMonitorWait(e, m, 200);
    long long took = monotonic_ms() - t0;
    char what[200];
    snprintf(what, sizeof what,
             "a timed RawMonitorWait(200 ms) ignores a wall clock %d s ahead (error %d, took %lld ms)",
             WALL_AHEAD_S, (int)err, took);
    line(err == JVMTI_ERROR_NONE && took >= 190 && took < 5000, what);
    (*e)->RawMonitorExit(e, m);
    (*e)->DestroyRawMonitor(e, m);

    if (argc > 1 && strcmp(argv[1], "--few") == 0) {
        printf("skip - runtime: more than 2^20 raw monitors (--few: the plain and ASan runs create them)\n");
        jvmtirt_thread_end();
        jvmtirt_shutdown();
        return failures ? 1 : 0;
    }
    /* One more than the old table's 4096 chunks of 256, and then some. */
    enum { MANY = 1048576 + 4096 };
    static jrawMonitorID ids[MANY];
    long made = 0;
    err = JVMTI_ERROR_NONE;
    while (made < MANY && (err = (*e)->CreateRawMonitor(e, "many", &ids[made])) == JVMTI_ERROR_NONE)
        made++;
    snprintf(what, sizeof what, "%d raw monitors can be created (made %ld, then error %d)", MANY,
             made, (int)err);
    line(made == MANY, what);
    int used = made > 0;
    for (long i = made - 1; used && i >= made - 3 && i >= 0; i--)
        used = (*e)->RawMonitorEnter(e, ids[i]) == JVMTI_ERROR_NONE &&
               (*e)->RawMonitorExit(e, ids[i]) == JVMTI_ERROR_NONE;
    line(used, "the last of them can be entered and exited");
    long destroyed = 0;
    for (long i = 0; i < made; i++)
        destroyed += (*e)->DestroyRawMonitor(e, ids[i]) == JVMTI_ERROR_NONE;
    jvmtirt_stats s;
    jvmtirt_get_stats(&s);
    snprintf(what, sizeof what, "every one of them is destroyed (%ld of %ld; %ld left)", destroyed,
             made, (long)s.raw_monitors);
    line(destroyed == made && s.raw_monitors == 0, what);
    jvmtirt_thread_end();
    jvmtirt_shutdown();
    return failures ? 1 : 0;
}
