/* defaults.h: whether jvmtirt_report_defaults (to a temporary file) writes
 * a line holding both strings, e.g. "capability can_get_monitor_info
 * withdrawn" and the operation it lacks. For the test programs that check
 * what a VM without an area's operations is told. */
#ifndef RUNTIME_DEFAULTS_H
#define RUNTIME_DEFAULTS_H

#include <stdio.h>
#include <string.h>

#include "jvmtirt.h"

static int defaults_reported(const char *what, const char *op)
{
    FILE *f = tmpfile();
    if (!f)
        return 0;
    jvmtirt_report_defaults(f);
    rewind(f);
    char buf[512];
    int found = 0;
    while (fgets(buf, sizeof buf, f))
        found |= strstr(buf, what) && strstr(buf, op);
    fclose(f);
    return found;
}

#endif
