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

#endif
