#include "base/phases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct timespec began;

static int enabled(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("JVMTIGEN_TIMES");
        on = e && strcmp(e, "1") == 0;
    }
    return on;
}

void phase_begin(void)
{
    if (enabled())
        clock_gettime(CLOCK_MONOTONIC, &began);
}

void phase_end(const char *name)
{
    if (!enabled())
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms =
        (double)(now.tv_sec - began.tv_sec) * 1e3 + (double)(now.tv_nsec - began.tv_nsec) / 1e6;
    fprintf(stderr, "jvmtigen: time: %s %.2f ms\n", name, ms);
}
