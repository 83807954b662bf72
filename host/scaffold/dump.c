/* -dump-classes:DIR: the bytes each class was defined with (after the
 * agents' ClassFileLoadHook), and again the bytes each retransformation or
 * redefinition installs, written to DIR/NAME.class (NAME's '/' as '.'), so
 * that a test can compare them with what the agents should have made
 * (tests/host, tests/conformance). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scaffold.h"

static const char *dump_dir;

int dump_option(const char *arg)
{
    dump_dir = arg;
    return 1;
}

void dump_class(const char *name, const unsigned char *b, size_t n)
{
    if (!dump_dir)
        return;
    char path[4096];
    int k = snprintf(path, sizeof path, "%s/", dump_dir);
    for (const char *s = name; *s && k < (int)sizeof path - 7; s++)
        path[k++] = *s == '/' ? '.' : *s;
    snprintf(path + k, sizeof path - (size_t)k, ".class");
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0)
        fprintf(stderr, "jvmti-host: cannot write %s: %s\n", path, strerror(errno));
}
