/* tap.h: the result lines of the runtime's test programs (tests/lib.sh
 * reads them): "ok - runtime: PREFIX..." or "not ok - runtime: PREFIX...".
 * A program defines TAP_PREFIX ("stress: ") before including it and
 * returns non-zero when tap_failures is. */
#ifndef RUNTIME_TAP_H
#define RUNTIME_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_failures;

static void tap_line(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tap_line(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s - runtime: " TAP_PREFIX, ok ? "ok" : "not ok");
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    fflush(stdout);
    if (!ok)
        tap_failures++;
}

/* got == want as integers, printed with both on a failure. */
#define TAP_CHECK_EQ(got, want, ...)                                                       \
    do {                                                                                   \
        long long g_ = (long long)(got), w_ = (long long)(want);                           \
        char what_[256];                                                                   \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                        \
        if (g_ == w_)                                                                      \
            tap_line(1, "%s", what_);                                                      \
        else                                                                               \
            tap_line(0, "%s (expected %lld, got %lld)", what_, w_, g_);                    \
    } while (0)

#endif
